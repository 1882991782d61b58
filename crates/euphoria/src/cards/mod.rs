//! Component and board data (spec sections 3 and 4): factions, goods, the 49 action
//! spaces, the 18 market tiles, the 6 dilemmas and the 48 recruits.

use serde::{Deserialize, Serialize};
use std::fmt;

mod faction;
mod recruit;
pub use faction::Faction;
pub use recruit::{Recruit, RECRUITS};

impl Faction {
    /// The faction's commodity (energy, water, food, bliss).
    pub fn commodity(self) -> Good {
        Good::ALL[self.index()]
    }
}

/// A commodity, a resource or an artifact type: everything a player can hold and trade.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Good {
    /// (The default only fills the unused slots of a fixed-size list.)
    #[default]
    Energy,
    Water,
    Food,
    Bliss,
    Gold,
    Stone,
    Clay,
    Book,
    Glasses,
    Game,
    Bear,
    Balloon,
    Bat,
}

/// Number of goods kinds.
pub const GOODS: usize = 13;
/// Number of commodity + resource kinds (the goods counted in a player's supply).
pub const SUPPLY: usize = 7;
/// Number of artifact kinds.
pub const ARTIFACTS: usize = 6;
/// Copies of each artifact kind.
pub const ARTIFACT_COPIES: u8 = 6;

impl Good {
    /// All thirteen, in order.
    pub const ALL: [Good; GOODS] = [
        Good::Energy,
        Good::Water,
        Good::Food,
        Good::Bliss,
        Good::Gold,
        Good::Stone,
        Good::Clay,
        Good::Book,
        Good::Glasses,
        Good::Game,
        Good::Bear,
        Good::Balloon,
        Good::Bat,
    ];
    /// The three resources.
    pub const RESOURCES: [Good; 3] = [Good::Gold, Good::Stone, Good::Clay];
    /// The six artifact kinds.
    pub const ARTIFACT_KINDS: [Good; ARTIFACTS] = [
        Good::Book,
        Good::Glasses,
        Good::Game,
        Good::Bear,
        Good::Balloon,
        Good::Bat,
    ];

    /// Index 0..13.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether this is a commodity.
    pub fn is_commodity(self) -> bool {
        self.index() < 4
    }

    /// Whether this is a resource.
    pub fn is_resource(self) -> bool {
        (4..7).contains(&self.index())
    }

    /// Whether this is an artifact card kind.
    pub fn is_artifact(self) -> bool {
        self.index() >= SUPPLY
    }

    /// Index among the artifact kinds (0..6), for artifact goods.
    pub fn artifact_index(self) -> Option<usize> {
        self.index().checked_sub(SUPPLY)
    }

    /// The notation word.
    pub fn code(self) -> &'static str {
        [
            "energy", "water", "food", "bliss", "gold", "stone", "clay", "book", "glasses", "game",
            "bear", "balloon", "bat",
        ][self.index()]
    }

    /// Reads a notation word.
    pub fn from_code(s: &str) -> Option<Good> {
        Good::ALL.iter().copied().find(|g| g.code() == s)
    }
}

impl fmt::Display for Good {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A class of goods a payment unit accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GoodClass {
    AnyCommodity,
    NonBlissCommodity,
    AnyResource,
    AnyArtifact,
}

impl GoodClass {
    /// Every class, in order.
    pub const ALL: [GoodClass; 4] = [
        GoodClass::AnyCommodity,
        GoodClass::NonBlissCommodity,
        GoodClass::AnyResource,
        GoodClass::AnyArtifact,
    ];

    /// Index 0..4, in [`GoodClass::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether `g` pays a unit of this class.
    pub fn accepts(self, g: Good) -> bool {
        match self {
            GoodClass::AnyCommodity => g.is_commodity(),
            GoodClass::NonBlissCommodity => g.is_commodity() && g != Good::Bliss,
            GoodClass::AnyResource => g.is_resource(),
            GoodClass::AnyArtifact => g.is_artifact(),
        }
    }
}

/// A placement cost: fixed goods plus units of a class chosen by the payer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    pub fixed: &'static [(Good, u8)],
    pub choice: &'static [(GoodClass, u8)],
}

impl Cost {
    /// Nothing to pay.
    pub const FREE: Cost = Cost {
        fixed: &[],
        choice: &[],
    };
}

/// A market's construction slot: EUP A/B, SUB A/B, WAS A/B (index 0..6).
pub const MARKETS: usize = 6;

/// The faction of market slot `m`.
pub fn market_faction(m: usize) -> Faction {
    Faction::from_index(m / 2)
}

/// Market slot `m` in words: "Euphorian market A".
pub fn market_name(m: usize) -> String {
    format!(
        "{} market {}",
        market_faction(m).adjective(),
        if m.is_multiple_of(2) { 'A' } else { 'B' }
    )
}

/// The notation of market slot `m` ("ea", "eb", "sa", ...).
pub fn market_code(m: usize) -> &'static str {
    ["ea", "eb", "sa", "sb", "wa", "wb"][m]
}

/// The resource printed on construction site `slot` (0..4) of market `m` (spec 3.2).
pub const fn site_cost(m: usize, slot: usize) -> Good {
    let own = [Good::Gold, Good::Stone, Good::Clay][m / 2];
    if slot > 0 {
        return own;
    }
    [
        Good::Clay,
        Good::Stone,
        Good::Gold,
        Good::Clay,
        Good::Stone,
        Good::Gold,
    ][m]
}

/// Every action space on the board, as an index 0..49.
///
/// 0..4 commodity areas (Generator, Aquifer, Farm, Cloud Mine); 4..7 tunnels (EUP, SUB,
/// WAS); 7..10 tunnel ends; 10..14 artifact markets (EUP, SUB, WAS, Wind Salon); 14
/// Nimbus Loft; 15 Breeze Bar; 16 Sky Lounge; 17/18 worker activation (energy/water);
/// 19..43 construction sites (market `m`, slot `s` at 19 + 4m + s); 43..49 built markets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Space(pub u8);

/// Number of action spaces.
pub const SPACES: usize = 49;

/// What space `i` is (see [`Space`] for the numbering).
const fn space_kind(i: usize) -> SpaceKind {
    match i {
        0..=3 => SpaceKind::Area(faction_at(i)),
        4..=6 => SpaceKind::Tunnel(faction_at(i - 4)),
        7..=9 => SpaceKind::TunnelEnd(faction_at(i - 7)),
        10..=13 => SpaceKind::ArtifactMarket(faction_at(i - 10)),
        14 => SpaceKind::Nimbus,
        15 => SpaceKind::Breeze,
        16 => SpaceKind::Sky,
        17 => SpaceKind::ActivateEnergy,
        18 => SpaceKind::ActivateWater,
        19..=42 => SpaceKind::Site((i - 19) / 4, (i - 19) % 4),
        _ => SpaceKind::Built(i - 43),
    }
}

/// The faction with index `i % 4`, in a constant.
const fn faction_at(i: usize) -> Faction {
    Faction::ALL[i % 4]
}

/// What each space is, by index.
static SPACE_KINDS: [SpaceKind; SPACES] = {
    let mut kinds = [SpaceKind::Nimbus; SPACES];
    let mut i = 0;
    while i < SPACES {
        kinds[i] = space_kind(i);
        i += 1;
    }
    kinds
};

/// The spaces (bits by index) for which `pick` holds of their kind.
const fn spaces_where(pick: SpaceTest) -> u64 {
    let mut mask = 0u64;
    let mut i = 0;
    while i < SPACES {
        let kind = space_kind(i);
        let hit = match pick {
            SpaceTest::Icarus => matches!(
                kind,
                SpaceKind::Area(Faction::Icarite)
                    | SpaceKind::ArtifactMarket(Faction::Icarite)
                    | SpaceKind::Nimbus
                    | SpaceKind::Breeze
                    | SpaceKind::Sky
            ),
            SpaceTest::Area => matches!(kind, SpaceKind::Area(_)),
            SpaceTest::Bumpable => !matches!(kind, SpaceKind::Area(_) | SpaceKind::Site(..)),
            SpaceTest::Free => matches!(kind, SpaceKind::Area(_) | SpaceKind::TunnelEnd(_)),
            SpaceTest::Site => matches!(kind, SpaceKind::Site(..)),
        };
        if hit {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
}

/// What [`spaces_where`] picks.
#[derive(Clone, Copy)]
enum SpaceTest {
    Icarus,
    Area,
    Bumpable,
    Free,
    Site,
}

/// The spaces in Icarus (region [`Faction::Icarite`]), as bits by index.
pub const ICARUS_SPACES: u64 = spaces_where(SpaceTest::Icarus);
/// The commodity areas, as bits by index.
pub const AREA_SPACES: u64 = spaces_where(SpaceTest::Area);
/// The spaces where a worker can be bumped, as bits by index.
pub const BUMPABLE_SPACES: u64 = spaces_where(SpaceTest::Bumpable);
/// The spaces that cost nothing to place on (the commodity areas and the tunnel ends),
/// as bits by index.
pub const FREE_SPACES: u64 = spaces_where(SpaceTest::Free);
/// The construction sites, as bits by index.
pub const SITE_SPACES: u64 = spaces_where(SpaceTest::Site);
/// The construction sites printing each resource ([`Good::RESOURCES`] in order), as bits
/// by index.
pub const SITES_PRINTING: [u64; 3] = [
    sites_printing(Good::RESOURCES[0]),
    sites_printing(Good::RESOURCES[1]),
    sites_printing(Good::RESOURCES[2]),
];

/// The construction sites printing `g`, as bits by index.
const fn sites_printing(g: Good) -> u64 {
    let mut mask = 0u64;
    let mut m = 0;
    while m < MARKETS {
        let mut slot = 0;
        while slot < 4 {
            if site_cost(m, slot) as usize == g as usize {
                mask |= 1 << Space::site(m, slot).0;
            }
            slot += 1;
        }
        m += 1;
    }
    mask
}

/// What kind of space a [`Space`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceKind {
    Area(Faction),
    Tunnel(Faction),
    TunnelEnd(Faction),
    ArtifactMarket(Faction),
    Nimbus,
    Breeze,
    Sky,
    ActivateEnergy,
    ActivateWater,
    Site(usize, usize),
    Built(usize),
}

impl Space {
    /// The commodity area of a faction.
    pub fn area(f: Faction) -> Space {
        Space(f.index() as u8)
    }
    /// The tunnel mouth of a non-Icarite faction.
    pub fn tunnel(f: Faction) -> Space {
        Space(4 + f.index() as u8)
    }
    /// The tunnel end of a non-Icarite faction.
    pub fn tunnel_end(f: Faction) -> Space {
        Space(7 + f.index() as u8)
    }
    /// The artifact market of a faction (the Icarite one is the Wind Salon).
    pub fn artifact_market(f: Faction) -> Space {
        Space(10 + f.index() as u8)
    }
    /// Nimbus Loft.
    pub const NIMBUS: Space = Space(14);
    /// Breeze Bar.
    pub const BREEZE: Space = Space(15);
    /// Sky Lounge.
    pub const SKY: Space = Space(16);
    /// Worker activation paid with energy.
    pub const ACTIVATE_ENERGY: Space = Space(17);
    /// Worker activation paid with water.
    pub const ACTIVATE_WATER: Space = Space(18);
    /// Construction site `slot` of market `m`.
    pub const fn site(m: usize, slot: usize) -> Space {
        Space((19 + 4 * m + slot) as u8)
    }
    /// The built-market space of market `m`.
    pub fn built(m: usize) -> Space {
        Space((43 + m) as u8)
    }

    /// Every space in index order.
    pub fn all() -> impl Iterator<Item = Space> {
        (0..SPACES as u8).map(Space)
    }

    /// What this space is.
    pub fn kind(self) -> SpaceKind {
        // A table lookup: the placement sweep asks every space several times.
        match SPACE_KINDS.get(self.0 as usize) {
            Some(&kind) => kind,
            None => space_kind(self.0 as usize),
        }
    }

    /// Whether several workers may stand here (the commodity areas).
    pub fn is_multi(self) -> bool {
        matches!(self.kind(), SpaceKind::Area(_))
    }

    /// Whether a worker here can be bumped (every single space but construction sites).
    pub fn is_bumpable(self) -> bool {
        !matches!(self.kind(), SpaceKind::Area(_) | SpaceKind::Site(..))
    }

    /// The region the space lies in (None for worker activation).
    pub fn region(self) -> Option<Faction> {
        match self.kind() {
            SpaceKind::Area(f)
            | SpaceKind::Tunnel(f)
            | SpaceKind::TunnelEnd(f)
            | SpaceKind::ArtifactMarket(f) => Some(f),
            SpaceKind::Nimbus | SpaceKind::Breeze | SpaceKind::Sky => Some(Faction::Icarite),
            SpaceKind::ActivateEnergy | SpaceKind::ActivateWater => None,
            SpaceKind::Site(m, _) | SpaceKind::Built(m) => Some(market_faction(m)),
        }
    }

    /// The notation word.
    pub fn code(self) -> &'static str {
        // Written out once: parsing an action and drawing the board read them all.
        static CODES: std::sync::LazyLock<Vec<String>> =
            std::sync::LazyLock::new(|| Space::all().map(Space::code_text).collect());
        CODES.get(usize::from(self.0)).map_or("", String::as_str)
    }

    fn code_text(self) -> String {
        match self.kind() {
            SpaceKind::Area(f) => ["gen", "aqu", "farm", "cloud"][f.index()].into(),
            SpaceKind::Tunnel(f) => format!("tun-{}", faction_letter(f)),
            SpaceKind::TunnelEnd(f) => format!("end-{}", faction_letter(f)),
            SpaceKind::ArtifactMarket(f) => format!("art-{}", faction_letter(f)),
            SpaceKind::Nimbus => "nimbus".into(),
            SpaceKind::Breeze => "breeze".into(),
            SpaceKind::Sky => "sky".into(),
            SpaceKind::ActivateEnergy => "act-e".into(),
            SpaceKind::ActivateWater => "act-w".into(),
            SpaceKind::Site(m, s) => format!("{}{}", market_code(m), s + 1),
            SpaceKind::Built(m) => format!("m{}", market_code(m)),
        }
    }

    /// Reads a notation word.
    pub fn from_code(s: &str) -> Option<Space> {
        Space::all().find(|sp| sp.code() == s)
    }

    /// The English name of the space: "Generator", "Euphorian tunnel", "Euphorian market
    /// A, site 2", "Euphorian market A" (a built market, whose tile names it in play).
    pub fn name(self) -> String {
        match self.kind() {
            SpaceKind::Area(f) => ["Generator", "Aquifer", "Farm", "Cloud Mine"][f.index()].into(),
            SpaceKind::Tunnel(f) => format!("{} tunnel", f.adjective()),
            SpaceKind::TunnelEnd(f) => format!("{} tunnel end", f.adjective()),
            SpaceKind::ArtifactMarket(f) => [
                "Incinerator of Historical Accuracy",
                "Free Press of Harsh Reality",
                "Ark of Fractured Memories",
                "Wind Salon",
            ][f.index()]
            .into(),
            SpaceKind::Nimbus => "Nimbus Loft".into(),
            SpaceKind::Breeze => "Breeze Bar".into(),
            SpaceKind::Sky => "Sky Lounge".into(),
            SpaceKind::ActivateEnergy => "Worker activation (energy)".into(),
            SpaceKind::ActivateWater => "Worker activation (water)".into(),
            SpaceKind::Site(m, s) => format!("{}, site {}", market_name(m), s + 1),
            SpaceKind::Built(m) => market_name(m),
        }
    }

    /// What placing a worker here gives, in words, as printed (`rewards` holds the amounts
    /// a table may change); recruits' bonuses come on top.
    pub fn gives(self, rewards: &crate::Rewards) -> String {
        match self.kind() {
            SpaceKind::Area(f) => format!(
                "{c} by the total of all dice there, this one included: a total up to 4 gives \
                 {} {c} and {} allegiance +1; 5 to 8 gives {} {c} and knowledge -1; 9 or more \
                 gives {} {c} and knowledge +1",
                rewards.area[0],
                f.name(),
                rewards.area[1],
                rewards.area[2],
                c = f.commodity(),
            ),
            SpaceKind::Tunnel(f) => format!(
                "1 {} or 1 artifact card; the {} miner digs 1 step",
                tunnel_resource(f),
                f.adjective()
            ),
            SpaceKind::TunnelEnd(f) => format!(
                "{} {}; open once the {} miner reaches the end",
                rewards.tunnel_end,
                tunnel_end_reward(f),
                f.adjective()
            ),
            SpaceKind::ArtifactMarket(Faction::Icarite) | SpaceKind::Nimbus => {
                "1 star in the Icarite territory; Icarite allegiance +1".into()
            }
            SpaceKind::ArtifactMarket(f) => format!(
                "1 star in the {a} territory or on a {a} market tile without your star; {a} allegiance +1",
                a = f.adjective()
            ),
            SpaceKind::Breeze => "Icarite allegiance +1; 2 artifact cards".into(),
            SpaceKind::Sky => "Icarite allegiance +1; 2 resources of your choice".into(),
            SpaceKind::ActivateEnergy => {
                format!("knowledge -2, and a new worker die if you own fewer than {DICE}")
            }
            SpaceKind::ActivateWater => {
                format!("morale +2, and a new worker die if you own fewer than {DICE}")
            }
            SpaceKind::Site(m, _) => format!(
                "a share in building {}: once it is finished, 1 star on its tile",
                market_name(m)
            ),
            SpaceKind::Built(m) => format!(
                "1 star in the {a} territory; {a} allegiance +1",
                a = market_faction(m).adjective()
            ),
        }
    }
}

fn faction_letter(f: Faction) -> char {
    ['e', 's', 'w', 'i'][f.index()]
}

/// A space's full name, written out only when it is displayed (a refusal's reason that is
/// never read costs nothing).
pub struct SpaceName(pub Space);

impl fmt::Display for SpaceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.name())
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The fixed placement cost of a space that is not a built market (spec 3.2).
pub fn space_cost(space: Space) -> Cost {
    match space.kind() {
        SpaceKind::Area(_) | SpaceKind::TunnelEnd(_) | SpaceKind::Built(_) => Cost::FREE,
        SpaceKind::Tunnel(Faction::Euphorian) => Cost {
            fixed: &[(Good::Energy, 1)],
            choice: &[],
        },
        SpaceKind::Tunnel(Faction::Subterran) => Cost {
            fixed: &[(Good::Water, 1)],
            choice: &[],
        },
        SpaceKind::Tunnel(_) => Cost {
            fixed: &[(Good::Food, 1)],
            choice: &[],
        },
        // Artifact markets have their own "3 any or 2 identical" payment.
        SpaceKind::ArtifactMarket(_) => Cost::FREE,
        SpaceKind::Nimbus => Cost {
            fixed: &[],
            choice: &[(GoodClass::AnyResource, 3)],
        },
        SpaceKind::Breeze | SpaceKind::Sky => Cost {
            fixed: &[(Good::Bliss, 1)],
            choice: &[(GoodClass::NonBlissCommodity, 1)],
        },
        SpaceKind::ActivateEnergy => Cost {
            fixed: &[(Good::Energy, 3)],
            choice: &[],
        },
        SpaceKind::ActivateWater => Cost {
            fixed: &[(Good::Water, 3)],
            choice: &[],
        },
        SpaceKind::Site(m, s) => Cost {
            fixed: match site_cost(m, s) {
                Good::Gold => &[(Good::Gold, 1)],
                Good::Stone => &[(Good::Stone, 1)],
                _ => &[(Good::Clay, 1)],
            },
            choice: &[],
        },
    }
}

/// The penalty a built market tile imposes on players without a star on it (spec 4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Penalty {
    /// Laboratory: no new workers while owning 2 or 3.
    NoNewWorkers,
    /// Spa: cannot bump your own workers.
    NoSelfBump,
    /// Courthouse: no matching pair at artifact markets.
    NoPair,
    /// Plaza: no built market without your star.
    NoForeignBuiltMarket,
    /// Fountain: one worker per turn.
    NoDoubles,
    /// Lounge: no construction beside another player's worker.
    NoSharedConstruction,
    /// Academy: no recruit abilities.
    NoAbilities,
    /// Cafeteria: free retrieval costs 2 morale.
    CostlyRetrieval,
    /// Apothecary: no workers in Icarus.
    NoIcarus,
    /// Theater: +1 knowledge per star placed.
    KnowledgePerStar,
    /// Registry: no tier 1 or 2 allegiance bonuses.
    NoTierBonus,
    /// Arena: max 1 worker in each commodity area.
    OneWorkerPerArea,
    /// A rolled die showing this value costs 1 commodity or resource.
    RollLoss(u8),
}

impl Penalty {
    /// The penalty's bit in a set of penalties (every roll loss shares one).
    pub fn bit(self) -> u16 {
        1 << match self {
            Penalty::NoNewWorkers => 0,
            Penalty::NoSelfBump => 1,
            Penalty::NoPair => 2,
            Penalty::NoForeignBuiltMarket => 3,
            Penalty::NoDoubles => 4,
            Penalty::NoSharedConstruction => 5,
            Penalty::NoAbilities => 6,
            Penalty::CostlyRetrieval => 7,
            Penalty::NoIcarus => 8,
            Penalty::KnowledgePerStar => 9,
            Penalty::NoTierBonus => 10,
            Penalty::OneWorkerPerArea => 11,
            Penalty::RollLoss(_) => 12,
        }
    }
}

/// One market tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarketTile {
    pub name: &'static str,
    pub cost: Cost,
    pub penalty: Penalty,
}

/// Number of market tiles.
pub const TILES: usize = 18;

const fn tile(name: &'static str, cost: Cost, penalty: Penalty) -> MarketTile {
    MarketTile {
        name,
        cost,
        penalty,
    }
}

const fn four(g: Good, extra: Good) -> Cost {
    Cost {
        fixed: match (g, extra) {
            (Good::Water, Good::Clay) => &[(Good::Water, 4), (Good::Clay, 1)],
            (Good::Water, Good::Gold) => &[(Good::Water, 4), (Good::Gold, 1)],
            (Good::Energy, Good::Stone) => &[(Good::Energy, 4), (Good::Stone, 1)],
            (Good::Energy, Good::Clay) => &[(Good::Energy, 4), (Good::Clay, 1)],
            (Good::Food, Good::Gold) => &[(Good::Food, 4), (Good::Gold, 1)],
            _ => &[(Good::Food, 4), (Good::Stone, 1)],
        },
        choice: &[],
    }
}

const fn four_art(g: Good) -> Cost {
    Cost {
        fixed: match g {
            Good::Water => &[(Good::Water, 4)],
            Good::Energy => &[(Good::Energy, 4)],
            Good::Food => &[(Good::Food, 4)],
            _ => &[(Good::Bliss, 4)],
        },
        choice: &[(GoodClass::AnyArtifact, 1)],
    }
}

const fn com_art(a: Good) -> Cost {
    Cost {
        fixed: match a {
            Good::Bear => &[(Good::Bear, 1)],
            Good::Glasses => &[(Good::Glasses, 1)],
            Good::Balloon => &[(Good::Balloon, 1)],
            Good::Game => &[(Good::Game, 1)],
            Good::Bat => &[(Good::Bat, 1)],
            _ => &[(Good::Book, 1)],
        },
        choice: &[(GoodClass::AnyCommodity, 1)],
    }
}

/// The 18 market tiles (spec 4.2), index 0..18 = tile number − 1.
pub const MARKET_TILES: [MarketTile; TILES] = [
    tile(
        "Laboratory of Selective Genetics",
        Cost {
            fixed: &[],
            choice: &[(GoodClass::AnyArtifact, 1), (GoodClass::AnyResource, 1)],
        },
        Penalty::NoNewWorkers,
    ),
    tile(
        "Spa of Fleeting Pleasure",
        four_art(Good::Water),
        Penalty::NoSelfBump,
    ),
    tile(
        "Courthouse of Hasty Judgment",
        four(Good::Energy, Good::Stone),
        Penalty::NoPair,
    ),
    tile(
        "Plaza of Immortalized Humility",
        four(Good::Water, Good::Clay),
        Penalty::NoForeignBuiltMarket,
    ),
    tile(
        "Fountain of Wishful Thinking",
        four(Good::Water, Good::Gold),
        Penalty::NoDoubles,
    ),
    tile(
        "Lounge of Opulent Frugality",
        four_art(Good::Energy),
        Penalty::NoSharedConstruction,
    ),
    tile(
        "Academy of Mandatory Equality",
        four(Good::Food, Good::Gold),
        Penalty::NoAbilities,
    ),
    tile(
        "Cafeteria of Nameless Meat",
        four_art(Good::Food),
        Penalty::CostlyRetrieval,
    ),
    tile(
        "Apothecary of Productive Dreams",
        Cost {
            fixed: &[(Good::Bliss, 4)],
            choice: &[(GoodClass::AnyResource, 1)],
        },
        Penalty::NoIcarus,
    ),
    tile(
        "Theater of Revelatory Propaganda",
        four(Good::Energy, Good::Clay),
        Penalty::KnowledgePerStar,
    ),
    tile(
        "Registry of Personal Secrets",
        four_art(Good::Bliss),
        Penalty::NoTierBonus,
    ),
    tile(
        "Arena of Peaceful Conflict",
        four(Good::Food, Good::Stone),
        Penalty::OneWorkerPerArea,
    ),
    tile(
        "Disassemble-a-Teddy-Bear Shop",
        com_art(Good::Bear),
        Penalty::RollLoss(1),
    ),
    tile(
        "Clinic of Blind Hindsight",
        com_art(Good::Glasses),
        Penalty::RollLoss(2),
    ),
    tile(
        "Bemusement Park",
        com_art(Good::Balloon),
        Penalty::RollLoss(3),
    ),
    tile(
        "Friendly Local Game Bonfire",
        com_art(Good::Game),
        Penalty::RollLoss(4),
    ),
    tile(
        "Stadium of Guaranteed Home Runs",
        com_art(Good::Bat),
        Penalty::RollLoss(5),
    ),
    tile(
        "Center for Reduced Literacy",
        com_art(Good::Book),
        Penalty::RollLoss(6),
    ),
];

/// One ethical dilemma card (spec 4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dilemma {
    pub pictured: Good,
    pub rebel: &'static str,
    pub conform: &'static str,
}

/// The six dilemmas.
pub const DILEMMAS: [Dilemma; 6] = [
    Dilemma {
        pictured: Good::Balloon,
        rebel: "Help a friend escape",
        conform: "Turn in a friend",
    },
    Dilemma {
        pictured: Good::Bat,
        rebel: "Fight the oppressor",
        conform: "Serve the oppressor",
    },
    Dilemma {
        pictured: Good::Bear,
        rebel: "Choose true love",
        conform: "Accept assigned match",
    },
    Dilemma {
        pictured: Good::Book,
        rebel: "Read a book",
        conform: "Burn a book",
    },
    Dilemma {
        pictured: Good::Game,
        rebel: "Let workers relax",
        conform: "Make workers toil",
    },
    Dilemma {
        pictured: Good::Glasses,
        rebel: "Publish an exposé",
        conform: "Publish propaganda",
    },
];

/// Dice needed on a market's sites to complete it, by player count (spec 3.7).
pub fn market_threshold(players: usize) -> usize {
    match players {
        0..=3 => 2,
        4 => 3,
        _ => 4,
    }
}

/// Allegiance track positions at which tiers 1..4 start.
pub const TIERS: [u8; 4] = [2, 5, 8, 11];
/// The last allegiance position.
pub const ALLEGIANCE_MAX: u8 = 11;
/// Miner position revealing that faction's recruits.
pub const TUNNEL_REVEAL: u8 = 6;
/// Miner position opening the tunnel end.
pub const TUNNEL_END: u8 = 9;
/// Stars per player.
pub const STARS: u8 = 10;
/// Dice per player.
pub const DICE: usize = 4;
/// Knowledge-check limit.
pub const KNOWLEDGE_LIMIT: u32 = 16;

impl GoodClass {
    /// The class in words.
    pub fn text(self) -> &'static str {
        match self {
            GoodClass::AnyCommodity => "any commodity",
            GoodClass::NonBlissCommodity => "any commodity but bliss",
            GoodClass::AnyResource => "any resource",
            GoodClass::AnyArtifact => "any artifact card",
        }
    }
}

impl Cost {
    /// The cost in words: "1 bliss + 1 of any commodity but bliss", or "nothing".
    pub fn text(&self) -> String {
        let parts: Vec<String> = self
            .fixed
            .iter()
            .map(|(g, n)| format!("{n} {g}"))
            .chain(
                self.choice
                    .iter()
                    .map(|(c, n)| format!("{n} of {}", c.text())),
            )
            .collect();
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(" + ")
        }
    }
}

impl Serialize for Cost {
    /// `{"fixed": [["water", 4]], "choice": [["any_artifact", 1]], "text": "..."}`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Cost", 3)?;
        st.serialize_field("fixed", self.fixed)?;
        st.serialize_field("choice", self.choice)?;
        st.serialize_field("text", &self.text())?;
        st.end()
    }
}

impl Penalty {
    /// What the penalty does, in words, to a player without a star on its tile.
    pub fn text(self) -> String {
        match self {
            Penalty::NoNewWorkers => "no new workers while you own 2 or 3".into(),
            Penalty::NoSelfBump => "you may not bump your own workers".into(),
            Penalty::NoPair => "no matching pair pays an artifact market (3 cards needed)".into(),
            Penalty::NoForeignBuiltMarket => "no workers on built markets without your star".into(),
            Penalty::NoDoubles => "one worker per turn (no doubles)".into(),
            Penalty::NoSharedConstruction => {
                "no construction site of a market another player is building".into()
            }
            Penalty::NoAbilities => "your recruits' abilities do not work".into(),
            Penalty::CostlyRetrieval => "a free retrieval costs 2 morale".into(),
            Penalty::NoIcarus => "no workers in Icarus".into(),
            Penalty::KnowledgePerStar => "+1 knowledge for each star you place".into(),
            Penalty::NoTierBonus => "no tier 1 or 2 allegiance bonuses".into(),
            Penalty::OneWorkerPerArea => {
                "at most one of your workers in each commodity area".into()
            }
            Penalty::RollLoss(face) => {
                format!("each die you roll showing {face} costs 1 commodity or resource")
            }
        }
    }
}

/// The printed placement cost of a space in words; a built market's depends on its tile.
pub fn space_cost_text(space: Space) -> String {
    match space.kind() {
        SpaceKind::ArtifactMarket(_) => "3 artifact cards, or 2 identical ones".into(),
        SpaceKind::Built(_) => "the tile's cost".into(),
        _ => space_cost(space).text(),
    }
}

/// One action space as the board shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpaceCard {
    /// The notation word (`gen`, `tun-e`, `ea1`, `mea`, ...).
    pub code: String,
    /// In words: "Generator", "Euphorian tunnel", "Euphorian market A, site 2".
    pub name: String,
    /// `area`, `tunnel`, `tunnel_end`, `artifact_market`, `icarus`, `activate`, `site`,
    /// `built`.
    pub kind: &'static str,
    pub region: Option<Faction>,
    /// The market slot (0..6) of a construction site or a built market.
    pub market: Option<usize>,
    /// The printed cost (a built market's is its tile's).
    pub cost: Option<Cost>,
    pub cost_text: String,
    /// What placing here gives, in words, with the printed amounts.
    pub gives: String,
}

/// One recruit card with its ability.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecruitCardData {
    pub number: u8,
    pub name: &'static str,
    pub faction: Faction,
    /// The `use KEY` word.
    pub key: &'static str,
    /// The ability, 2nd edition.
    pub text: &'static str,
    /// How the 1st edition differs, if it does.
    pub v1: Option<&'static str>,
}

/// One market tile with its visit cost and penalty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TileCard {
    pub name: &'static str,
    pub cost: Cost,
    pub penalty: Penalty,
    pub penalty_text: String,
}

/// One dilemma card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DilemmaCard {
    pub rebel: &'static str,
    pub conform: &'static str,
    pub pictured: Good,
}

/// One market slot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MarketSlot {
    pub code: &'static str,
    /// In words: "Euphorian market A".
    pub name: String,
    pub faction: Faction,
}

/// A faction as the board names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FactionCard {
    pub faction: Faction,
    /// "Euphorians".
    pub name: &'static str,
    /// "Euphoria".
    pub region: &'static str,
    /// Whether it digs a tunnel (every faction but the Icarites).
    pub tunnel: bool,
}

/// A good as the board shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GoodCard {
    pub good: Good,
    /// Two letters on a token ("Fo").
    pub short: &'static str,
    /// `commodity`, `resource` or `artifact`.
    pub kind: &'static str,
}

/// The tracks of the board: allegiance (with its recruit tiers) and the tunnels.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tracks {
    /// The last allegiance position.
    pub allegiance_max: u8,
    /// The allegiance positions that reward the faction's recruits.
    pub tiers: [u8; 4],
    /// The miner position that opens the tunnel end.
    pub tunnel_end: u8,
    /// The miner position that reveals the faction's recruits.
    pub tunnel_reveal: u8,
}

/// Every printed component a board needs, by the numbers the state and view use: spaces
/// by index, recruits by number − 1, tiles, dilemmas and market slots by index; goods in
/// the order of a player's supply (the first [`SUPPLY`]) and hand (the rest).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardData {
    pub goods: Vec<Good>,
    pub good_cards: Vec<GoodCard>,
    pub factions: Vec<FactionCard>,
    pub tracks: Tracks,
    pub spaces: Vec<SpaceCard>,
    pub recruits: Vec<RecruitCardData>,
    pub tiles: Vec<TileCard>,
    pub dilemmas: Vec<DilemmaCard>,
    pub markets: Vec<MarketSlot>,
}

/// The component data of the game.
pub fn card_data() -> CardData {
    let spaces = Space::all()
        .map(|s| {
            let (kind, market) = match s.kind() {
                SpaceKind::Area(_) => ("area", None),
                SpaceKind::Tunnel(_) => ("tunnel", None),
                SpaceKind::TunnelEnd(_) => ("tunnel_end", None),
                SpaceKind::ArtifactMarket(_) => ("artifact_market", None),
                SpaceKind::Nimbus | SpaceKind::Breeze | SpaceKind::Sky => ("icarus", None),
                SpaceKind::ActivateEnergy | SpaceKind::ActivateWater => ("activate", None),
                SpaceKind::Site(m, _) => ("site", Some(m)),
                SpaceKind::Built(m) => ("built", Some(m)),
            };
            let cost = match s.kind() {
                SpaceKind::ArtifactMarket(_) | SpaceKind::Built(_) => None,
                _ => Some(space_cost(s)),
            };
            SpaceCard {
                code: s.code().into(),
                name: s.name(),
                kind,
                region: s.region(),
                market,
                cost,
                cost_text: space_cost_text(s),
                gives: s.gives(&crate::Rewards::default()),
            }
        })
        .collect();
    let recruits = Recruit::ALL
        .into_iter()
        .map(|r| RecruitCardData {
            number: r.number(),
            name: r.name(),
            faction: r.faction(),
            key: r.key(),
            text: r.ability(),
            v1: r.first_edition(),
        })
        .collect();
    CardData {
        goods: Good::ALL.to_vec(),
        good_cards: Good::ALL
            .iter()
            .zip([
                "En", "Wa", "Fo", "Bl", "Au", "St", "Cl", "Bk", "Gl", "Gm", "Br", "Bn", "Bt",
            ])
            .map(|(&good, short)| GoodCard {
                good,
                short,
                kind: if good.is_commodity() {
                    "commodity"
                } else if good.is_resource() {
                    "resource"
                } else {
                    "artifact"
                },
            })
            .collect(),
        factions: Faction::ALL
            .iter()
            .map(|&faction| FactionCard {
                faction,
                name: faction.name(),
                region: faction.region(),
                tunnel: faction != Faction::Icarite,
            })
            .collect(),
        tracks: Tracks {
            allegiance_max: ALLEGIANCE_MAX,
            tiers: TIERS,
            tunnel_end: TUNNEL_END,
            tunnel_reveal: TUNNEL_REVEAL,
        },
        spaces,
        recruits,
        tiles: MARKET_TILES
            .iter()
            .map(|t| TileCard {
                name: t.name,
                cost: t.cost,
                penalty: t.penalty,
                penalty_text: t.penalty.text(),
            })
            .collect(),
        dilemmas: DILEMMAS
            .iter()
            .map(|d| DilemmaCard {
                rebel: d.rebel,
                conform: d.conform,
                pictured: d.pictured,
            })
            .collect(),
        markets: (0..MARKETS)
            .map(|m| MarketSlot {
                code: market_code(m),
                name: market_name(m),
                faction: market_faction(m),
            })
            .collect(),
    }
}

/// The resource a tunnel mouth gives.
pub fn tunnel_resource(f: Faction) -> Good {
    [Good::Gold, Good::Stone, Good::Clay][f.index() % 3]
}

/// The commodity a tunnel end gives (D-05).
pub fn tunnel_end_reward(f: Faction) -> Good {
    [Good::Water, Good::Food, Good::Energy][f.index() % 3]
}

//! The full game state: board, players, decks, and the stack of pending steps.

use crate::cards::{
    Faction, Good, GoodClass, Recruit, Space, ARTIFACTS, ARTIFACT_COPIES, DICE, DILEMMAS, MARKETS,
    RECRUITS, SUPPLY, TILES,
};
use crate::config::Config;
use engine::InlineVec;
use engine::{GameRng, Seat};
use serde::{Deserialize, Serialize};

/// Where one worker die is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum DieLoc {
    /// Not yet gained (or lost to the knowledge check): beside the board.
    #[default]
    Reserve,
    /// Available in front of its owner, showing a value.
    Ready(u8),
    /// On an action space, showing a value.
    Board(Space, u8),
}

impl DieLoc {
    /// The value shown, for a die in play.
    pub fn value(self) -> Option<u8> {
        match self {
            DieLoc::Reserve => None,
            DieLoc::Ready(v) | DieLoc::Board(_, v) => Some(v),
        }
    }
}

/// One of a player's worker dice, by its index 0..4 (the player's `dice`). Files hold the
/// index, so it serializes, prints in `Debug` and hashes as that number; an index past the
/// last die does not load.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Die(u8);

impl Die {
    /// The die with index `i`, if a player has one.
    pub fn new(i: usize) -> Option<Die> {
        u8::try_from(i).ok().filter(|_| i < DICE).map(Die)
    }

    /// Index 0..4 in the player's `dice`.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// A player's dice, in index order.
    pub fn all() -> impl Iterator<Item = Die> {
        (0..DICE as u8).map(Die)
    }
}

impl std::fmt::Debug for Die {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.0, f)
    }
}

impl Serialize for Die {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> Deserialize<'de> for Die {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Die, D::Error> {
        let i = u8::deserialize(d)?;
        Die::new(usize::from(i)).ok_or_else(|| {
            serde::de::Error::custom(format_args!("die {i}; a player has {DICE} (0 to 3)"))
        })
    }
}

/// A recruit card a player holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldRecruit {
    pub id: Recruit,
    /// Face up (active).
    pub up: bool,
    /// Carries one of its owner's stars (tier 4).
    pub star: bool,
}

/// How a player's dilemma stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum DilemmaState {
    #[default]
    Unresolved,
    /// Resolved by drawing recruits.
    Rebelled,
    /// Resolved by placing a star on the card.
    Conformed,
}

/// Most seats a game has.
pub const MAX_SEATS: usize = 6;

/// Most recruits a player holds: the two kept at setup and one kept on rebelling (spec
/// 5.1, 5.8), and one to spare.
pub const HELD_RECRUITS: usize = 4;

/// Recruits dealt to each player at setup (spec 5.1).
pub const DEALT: usize = 4;

/// Most artifact cards in the game.
pub const ARTIFACT_CARDS: usize = ARTIFACTS * ARTIFACT_COPIES as usize;

/// The final roll-off totals, a list per seat (one total per round), kept for up to
/// [`MAX_SEATS`] seats in place: until the game ends every list is empty, and a clone
/// allocates nothing. It reads as a slice of the seats' lists; serde sees a list of lists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rolloff {
    seats: u8,
    rounds: [Vec<u8>; MAX_SEATS],
}

impl Rolloff {
    /// Empty lists for `n` seats (at most [`MAX_SEATS`]).
    pub(crate) fn new(n: usize) -> Rolloff {
        Rolloff {
            seats: n.min(MAX_SEATS) as u8,
            rounds: Default::default(),
        }
    }
}

impl std::ops::Deref for Rolloff {
    type Target = [Vec<u8>];

    fn deref(&self) -> &[Vec<u8>] {
        &self.rounds[..self.seats as usize]
    }
}

impl std::ops::DerefMut for Rolloff {
    fn deref_mut(&mut self) -> &mut [Vec<u8>] {
        &mut self.rounds[..self.seats as usize]
    }
}

impl Serialize for Rolloff {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Rolloff {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rolloff, D::Error> {
        let all: Vec<Vec<u8>> = Vec::deserialize(d)?;
        if all.len() > MAX_SEATS {
            return Err(serde::de::Error::custom(format_args!(
                "roll-offs for {} seats, where a game has at most {MAX_SEATS}",
                all.len()
            )));
        }
        let mut r = Rolloff::new(all.len());
        for (slot, list) in r.rounds.iter_mut().zip(all) {
            *slot = list;
        }
        Ok(r)
    }
}

/// One player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub dice: [DieLoc; DICE],
    pub knowledge: u8,
    pub morale: u8,
    /// Commodities and resources, indexed by [`Good::index`] (0..7).
    pub supply: [u32; SUPPLY],
    /// Artifact cards in hand, counted by kind (0..6).
    pub hand: [u8; ARTIFACTS],
    pub stars_left: u8,
    pub recruits: InlineVec<HeldRecruit, HELD_RECRUITS>,
    /// The four recruits dealt at setup, until the choice is made.
    pub dealt: InlineVec<Recruit, DEALT>,
    /// Dilemma card index 0..6.
    pub dilemma: u8,
    pub dilemma_state: DilemmaState,
}

impl Player {
    /// Total artifact cards in hand.
    pub fn hand_size(&self) -> u32 {
        // Six adds in a row (an iterator's sum becomes vector shuffles for six bytes).
        let [a, b, c, d, e, f] = self.hand.map(u32::from);
        a + b + c + d + e + f
    }

    /// How many of `g` the player holds.
    pub fn count(&self, g: Good) -> u32 {
        match g.artifact_index() {
            Some(a) => self.hand[a] as u32,
            None => self.supply[g.index()],
        }
    }

    /// Adds `n` of `g`.
    pub(crate) fn add(&mut self, g: Good, n: u32) {
        match g.artifact_index() {
            Some(a) => self.hand[a] += n as u8,
            None => self.supply[g.index()] += n,
        }
    }

    /// Removes `n` of `g` (the caller checked it is held).
    pub(crate) fn remove(&mut self, g: Good, n: u32) {
        match g.artifact_index() {
            Some(a) => self.hand[a] = self.hand[a].saturating_sub(n as u8),
            None => self.supply[g.index()] = self.supply[g.index()].saturating_sub(n),
        }
    }

    /// How many goods of a class the player holds.
    pub fn class_count(&self, c: GoodClass) -> u32 {
        Good::ALL
            .iter()
            .filter(|g| c.accepts(**g))
            .map(|g| self.count(*g))
            .sum()
    }

    /// Dice the player owns (available or on the board).
    pub fn owned_dice(&self) -> usize {
        self.dice
            .iter()
            .filter(|d| !matches!(d, DieLoc::Reserve))
            .count()
    }

    /// Whether the player has a face-up recruit of `f`.
    pub fn has_active(&self, f: Faction) -> bool {
        self.recruits.iter().any(|r| r.up && r.id.faction() == f)
    }
}

/// One of the six market slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Market {
    /// Tile index 0..18 (hidden while not built).
    pub tile: u8,
    pub built: bool,
    /// Bitmask of seats with a star on the tile.
    pub stars: u8,
}

/// Where a star goes when a space offers a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StarTarget {
    Territory,
    Market(u8),
}

/// The artifact-market payment in progress ("3 any or 2 identical").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct SetPayment {
    pub first: Option<Good>,
    pub paid: u8,
    /// Courthouse penalty: a pair does not complete the payment.
    pub need_three: bool,
    /// Jacko the Archivist (2nd ed.) at the Ark: one card may complete the payment.
    pub single: bool,
}

/// One good still to pay: what the space prints and what the payer's recruits let them
/// pay instead (bitmasks over [`Good::index`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct PayUnit {
    /// The goods the space prints for this unit.
    pub printed: u16,
    /// The goods that may pay it (the printed ones and the recruits' substitutes).
    pub accepts: u16,
}

/// A benefit chosen by a recruit's owner (`choose ...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Boon {
    /// One more of a good.
    Good(Good),
    /// Morale +1.
    Morale,
    /// Knowledge −1.
    LessKnowledge,
}

impl Boon {
    /// The bit of this boon in a [`Step::Choose`] menu.
    pub fn bit(self) -> u16 {
        match self {
            Boon::Good(g) => 1 << g.index(),
            Boon::Morale => 1 << 13,
            Boon::LessKnowledge => 1 << 14,
        }
    }

    /// Every boon, in menu order.
    pub fn all() -> impl Iterator<Item = Boon> {
        Good::ALL
            .into_iter()
            .map(Boon::Good)
            .chain([Boon::Morale, Boon::LessKnowledge])
    }
}

/// A trade offer being built or answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct Offer {
    pub partner: u8,
    /// What the active player gives, by good index.
    pub give: [u8; 13],
    /// What the active player asks for, by good index.
    pub ask: [u8; 13],
}

impl Offer {
    /// Items in the offer.
    pub fn items(&self) -> u32 {
        self.give
            .iter()
            .chain(self.ask.iter())
            .map(|&n| n as u32)
            .sum()
    }
}

/// One pending step of the current turn. Decision steps wait for a seat; the others run
/// automatically. The stack's top runs first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    // --- setup (5.1)
    /// Decision: `seat` keeps one dealt recruit face up.
    ChooseUp(u8),
    /// Decision: `seat` keeps one dealt recruit face down.
    ChooseDown(u8),
    /// Auto: return unchosen recruits, roll dice, pick the first player.
    FinishSetup,
    // --- placement (5.3)
    /// Decision: pay the chosen part of a cost, one good at a time.
    Pay(Vec<PayUnit>),
    /// Decision: pay an artifact market.
    PaySet(SetPayment),
    /// Auto: the worker on `space` other than the placed one is bumped.
    Bump { seat: u8, die: Die },
    /// Auto: the benefit of the space.
    Benefit(Space),
    /// Decision: tunnel mouth, resource or artifact.
    TunnelTake(Faction),
    /// Decision: Sky Lounge, `n` resources still to choose.
    ChooseResource(u8),
    /// Decision: where an artifact-market star goes.
    StarChoice(Faction),
    /// Auto: allegiance +1 (after a star choice).
    Advance(Faction),
    /// Auto: check market completion.
    Markets,
    /// Auto: stars for the contributors of a just-completed market. Completion now places
    /// them at once; the step stays so that states saved with it pending still load.
    MarketStars { market: u8, seats: u8 },
    /// Auto: the placement is over; doubles or end of turn.
    AfterPlacement,
    /// Decision: place another die of the doubled value, or end the turn.
    Doubles,
    /// Decision: the placements are over; trade, or `end` the turn (rulebook trading).
    Finish,
    // --- retrieval (5.4)
    /// Decision: pick more dice to retrieve or choose how to pay.
    Retrieve { dice: u8 },
    // --- dilemma (5.8)
    /// Decision: pay for the dilemma.
    DilemmaPay { paid: u8 },
    /// Decision: rebel or conform.
    DilemmaChoice,
    /// Decision: keep one of two drawn recruits.
    DilemmaKeep(Vec<Recruit>),
    // --- anyone's decisions
    /// Decision for `seat`: discard down to morale.
    Discard(u8),
    /// Decision for `seat`: lose `n` commodities/resources (roll penalty).
    Lose { seat: u8, n: u8 },
    // --- trading (5.10)
    /// Decision: the active player chooses a trading partner.
    TradePartner,
    /// Decision: the active player builds an offer.
    TradeBuild(Offer),
    /// Decision for the partner: accept or decline.
    TradeAnswer(Offer),
    /// Auto: the turn is over.
    EndTurn,
    // --- recruits (4.5)
    /// Auto: the bumped die returns and is rolled, unless a recruit already set its value.
    BumpRoll { seat: u8, die: Die },
    /// Auto: the placing player's recruits triggered by bumping (spec 5.3 step 4).
    BumpHooks,
    /// Auto: the placing player's recruits triggered by the space (spec 5.3 step 6).
    SpaceHooks(Space),
    /// Auto: one recruit's trigger for `seat`, and what it is about.
    Hook { seat: u8, id: Recruit, arg: Trigger },
    /// Decision for `seat`: use recruit `id`'s optional ability or decline.
    Ask { seat: u8, id: Recruit, arg: Trigger },
    /// Decision for `seat`: choose one boon of `menu` (bits of [`Boon::bit`]).
    Choose { seat: u8, menu: u16 },
    /// Decision for `seat`: discard `n` artifact cards of the kinds in `mask`.
    Shed { seat: u8, n: u8, mask: u8 },
    /// Auto: the retrieved dice still on the board (`dice`) return and are rolled.
    RetrieveRoll { dice: u8 },
}

/// What a recruit's trigger or offer is about (the argument of [`Step::Hook`] and
/// [`Step::Ask`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// The recruit's moment, with nothing more to know.
    Plain,
    /// A bumped die: the owner's (Amanda) or the victim's (Julia).
    Die(Die),
    /// The seats (a bitmask) whose workers built a market (Ray).
    Builders(u8),
    /// The seat whose roll made a pair (Ben).
    Roller(u8),
    /// The artifact card just drawn (Jonathan the Gambler, 1st edition).
    Drawn(Good),
    /// The owner gained a new worker, the die with this index: the second ability of
    /// Dr. Sheppard, Pete and Chase.
    NewWorker(Die),
}

impl Trigger {
    /// The die, for a trigger about a die.
    pub fn die(self) -> Option<Die> {
        match self {
            Trigger::Die(d) | Trigger::NewWorker(d) => Some(d),
            _ => None,
        }
    }
}

/// Bookkeeping of the current turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Dice (by index) that may still be placed as doubles this turn.
    pub eligible: [bool; DICE],
    /// Dice available at the start of the turn (by index).
    pub at_start: [bool; DICE],
    /// Workers placed this turn.
    pub placed: u8,
    /// Trade offers made this turn.
    pub offers: u8,
    /// The space of the latest placement.
    pub space: Option<Space>,
    /// The die of the latest placement.
    pub die: Die,
    /// The worker the latest placement bumped: (seat, value).
    pub victim: Option<(u8, u8)>,
    /// Brian's bonus already taken for the latest placement.
    pub brian: bool,
    /// Seats (bitmask) that used Geek the Oracle this turn.
    pub geek: u8,
    /// Seats (bitmask) that used Jonathan the Gambler this turn.
    pub gambler: u8,
}

/// Seats in turn order from a given one; it borrows nothing, so the state may change
/// while it runs.
#[derive(Clone, Copy, Debug)]
pub struct SeatOrder {
    start: Seat,
    n: usize,
    k: usize,
}

impl Iterator for SeatOrder {
    type Item = Seat;

    fn next(&mut self) -> Option<Seat> {
        if self.k >= self.n {
            return None;
        }
        let s = self.start + self.k;
        self.k += 1;
        // No division: `start` is below `n`.
        Some(if s >= self.n { s - self.n } else { s })
    }
}

/// The whole game.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct Euphoria {
    pub(crate) config: Config,
    pub(crate) players: InlineVec<Player, MAX_SEATS>,
    /// Seat whose turn it is.
    pub(crate) current: u8,
    pub(crate) first_player: u8,
    pub(crate) turn: Turn,
    /// Turns played (for statistics).
    pub(crate) turns: u32,
    pub(crate) stack: Vec<Step>,
    pub(crate) setup_done: bool,
    /// Allegiance positions 0..=11 by faction.
    pub(crate) allegiance: [u8; 4],
    /// Miner positions 0..=9 (EUP, SUB, WAS).
    pub(crate) miners: [u8; 3],
    /// Seats with a star in each territory, in placement order.
    /// (A territory has a spot per seat.)
    pub(crate) territory: [InlineVec<u8, MAX_SEATS>; 4],
    pub(crate) markets: [Market; MARKETS],
    /// Market tiles left in the box (hidden).
    pub(crate) box_tiles: InlineVec<u8, TILES>,
    pub(crate) artifact_deck: InlineVec<Good, ARTIFACT_CARDS>,
    /// Face up.
    pub(crate) artifact_discard: InlineVec<Good, ARTIFACT_CARDS>,
    pub(crate) recruit_deck: InlineVec<Recruit, RECRUITS>,
    /// Face up (discarded from a dilemma draw).
    pub(crate) recruit_discard: InlineVec<Recruit, RECRUITS>,
    /// Out of the game face down (starting discards under the published rule).
    pub(crate) recruit_box: InlineVec<Recruit, RECRUITS>,
    /// Dilemma cards nobody holds (hidden).
    pub(crate) dilemma_box: InlineVec<u8, { DILEMMAS.len() }>,
    pub(crate) over: bool,
    /// Final roll-off totals per seat, one per round (only tied winners roll).
    pub(crate) rolloff: Rolloff,
    pub(crate) rng: GameRng,
    /// What the rules last found of the checks at all times (a shortcut, not part of the
    /// position: not saved, not compared).
    #[serde(skip)]
    pub(crate) checks: ChecksSeen,
}

/// Whether the checks at all times were found with nothing to do in the position as it
/// stands: set when the rules stop for a decision, cleared by a move and by any editing
/// outside the rules ([`Euphoria::edit`], a resampled world). A move that changes nothing
/// they look at then need not run them again.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ChecksSeen {
    pub(crate) clear: bool,
}

impl PartialEq for ChecksSeen {
    /// Two positions are the same whatever was found of their checks.
    fn eq(&self, _: &ChecksSeen) -> bool {
        true
    }
}

/// As derived, without the shortcut `checks`, which is not part of the position (the
/// replay check hashes this text). The fields are taken apart by name, so that a field
/// added to the struct and not here does not compile.
impl std::fmt::Debug for Euphoria {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Euphoria {
            config,
            players,
            current,
            first_player,
            turn,
            turns,
            stack,
            setup_done,
            allegiance,
            miners,
            territory,
            markets,
            box_tiles,
            artifact_deck,
            artifact_discard,
            recruit_deck,
            recruit_discard,
            recruit_box,
            dilemma_box,
            over,
            rolloff,
            rng,
            checks: _,
        } = self;
        f.debug_struct("Euphoria")
            .field("config", config)
            .field("players", players)
            .field("current", current)
            .field("first_player", first_player)
            .field("turn", turn)
            .field("turns", turns)
            .field("stack", stack)
            .field("setup_done", setup_done)
            .field("allegiance", allegiance)
            .field("miners", miners)
            .field("territory", territory)
            .field("markets", markets)
            .field("box_tiles", box_tiles)
            .field("artifact_deck", artifact_deck)
            .field("artifact_discard", artifact_discard)
            .field("recruit_deck", recruit_deck)
            .field("recruit_discard", recruit_discard)
            .field("recruit_box", recruit_box)
            .field("dilemma_box", dilemma_box)
            .field("over", over)
            .field("rolloff", rolloff)
            .field("rng", rng)
            .finish()
    }
}

impl Euphoria {
    /// Number of seats.
    pub fn n(&self) -> usize {
        self.players.len()
    }

    /// Seats in order starting from the current one.
    pub fn order_from_current(&self) -> SeatOrder {
        SeatOrder {
            start: self.current as usize % self.n().max(1),
            n: self.n(),
            k: 0,
        }
    }
}

impl Euphoria {
    /// A game past setup: every seat kept its first dealt recruit face up and its second
    /// face down; then the first player is to start a turn with an empty board.
    ///
    /// # Errors
    /// A config that does not validate.
    pub fn started(config: &Config, seed: u64) -> Result<Euphoria, engine::ConfigError> {
        let mut g = Euphoria::setup(config, seed)?;
        while let Some(Step::ChooseUp(s)) | Some(Step::ChooseDown(s)) = g.stack.last().cloned() {
            let seat = s as usize;
            let r = g.players[seat].dealt[0];
            let up = matches!(g.stack.last(), Some(Step::ChooseUp(_)));
            g.players[seat].dealt.remove(0);
            g.players[seat].recruits.push(HeldRecruit {
                id: r,
                up,
                star: false,
            });
            g.stack.pop();
        }
        g.run();
        Ok(g)
    }
}

/// Reading the state (the fields stay private: a position changes only through the
/// rules, or through a checked [`Setup`]).
impl Euphoria {
    /// One seat's player.
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat]
    }

    /// Every seat's player, by seat.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The seat whose turn it is.
    pub fn current(&self) -> Seat {
        self.current as usize
    }

    /// The seat that took the first turn.
    pub fn first_player(&self) -> Seat {
        self.first_player as usize
    }

    /// The bookkeeping of the turn in progress.
    pub fn turn(&self) -> &Turn {
        &self.turn
    }

    /// Turns played so far.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The pending steps, the next one last.
    pub fn stack(&self) -> &[Step] {
        &self.stack
    }

    /// The step that runs or waits next.
    pub fn pending(&self) -> Option<&Step> {
        self.stack.last()
    }

    /// Whether every seat has kept its starting recruits.
    pub fn setup_done(&self) -> bool {
        self.setup_done
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.over
    }

    /// Allegiance positions by faction index.
    pub fn allegiance(&self) -> [u8; 4] {
        self.allegiance
    }

    /// Miner positions (Euphorian, Subterran, Wastelander tunnels).
    pub fn miners(&self) -> [u8; 3] {
        self.miners
    }

    /// Seats with a star in each territory, in placement order.
    pub fn territory(&self) -> [&[u8]; 4] {
        self.territory.each_ref().map(|t| t.as_slice())
    }

    /// One market slot.
    pub fn market(&self, m: usize) -> &Market {
        &self.markets[m]
    }

    /// The six market slots.
    pub fn markets(&self) -> &[Market; MARKETS] {
        &self.markets
    }

    /// Market tiles left in the box.
    pub fn box_tiles(&self) -> &[u8] {
        &self.box_tiles
    }

    /// The artifact deck, top last.
    pub fn artifact_deck(&self) -> &[Good] {
        &self.artifact_deck
    }

    /// The face-up artifact discards.
    pub fn artifact_discard(&self) -> &[Good] {
        &self.artifact_discard
    }

    /// The recruit deck, top last.
    pub fn recruit_deck(&self) -> &[Recruit] {
        &self.recruit_deck
    }

    /// The face-up recruit discards.
    pub fn recruit_discard(&self) -> &[Recruit] {
        &self.recruit_discard
    }

    /// Recruits out of the game face down.
    pub fn recruit_box(&self) -> &[Recruit] {
        &self.recruit_box
    }

    /// Dilemma cards nobody holds.
    pub fn dilemma_box(&self) -> &[u8] {
        &self.dilemma_box
    }

    /// The final roll-off totals per seat, one per round.
    pub fn rolloff(&self) -> &[Vec<u8>] {
        &self.rolloff
    }
}

/// The position key (see [`engine::PositionKey`]): what the seat to act sees, less the
/// turn's count of offers, so that opening and dropping an offer comes back to the same
/// key.
impl Euphoria {
    pub(crate) fn key(&self) -> Option<engine::PositionKey> {
        use std::hash::Hash;
        let me = self.actor()?;
        let mut h = engine::KeyHasher::default();
        let hidden = u8::MAX;
        (self.current, self.setup_done, self.over).hash(&mut h);
        (self.allegiance, self.miners).hash(&mut h);
        for t in &self.territory {
            t[..].hash(&mut h);
        }
        for m in &self.markets {
            (m.built, m.stars, if m.built { m.tile } else { hidden }).hash(&mut h);
        }
        h.word(self.artifact_deck.len() as u64)
            .word(self.recruit_deck.len() as u64)
            .word(self.recruit_box.len() as u64)
            .word(self.dilemma_box.len() as u64);
        self.artifact_discard[..].hash(&mut h);
        self.recruit_discard[..].hash(&mut h);
        for (s, p) in self.players.iter().enumerate() {
            let own = s == me;
            (p.dice, p.knowledge, p.morale, p.supply, p.stars_left).hash(&mut h);
            if own {
                p.hand.hash(&mut h);
                p.dealt[..].hash(&mut h);
            } else {
                h.word(u64::from(p.hand_size())).word(p.dealt.len() as u64);
            }
            for r in p.recruits.iter() {
                let public = self.setup_done && r.up;
                let id = if own || public { r.id.number() } else { hidden };
                (id, (own || self.setup_done) && r.up, r.star).hash(&mut h);
            }
            h.word(p.recruits.len() as u64);
            let dilemma = if self.dilemma_visible(s, Some(me)) {
                p.dilemma
            } else {
                hidden
            };
            (dilemma, p.dilemma_state).hash(&mut h);
        }
        let t = &self.turn;
        (t.eligible, t.at_start, t.placed, t.space, t.die, t.victim).hash(&mut h);
        (t.brian, t.geek, t.gambler).hash(&mut h);
        self.stack.hash(&mut h);
        self.rolloff[..].hash(&mut h);
        Some(engine::PositionKey {
            turn: u64::from(self.turns),
            owner: self.current as Seat,
            position: h.finish(),
        })
    }
}

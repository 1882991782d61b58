//! Component data: the 35 cards, the characters, the border sets, the collaborators and
//! the missions.
//!
//! The contraband list is a PROPOSED reconstruction kept in `data/cards.csv` so that an
//! owner of the physical game can correct it; the file is embedded at compile time. It
//! gives the cards their names and printed values; a game's [`crate::Config`] may carry
//! other values (`contraband`: each card's type, points and siren), so a study can run
//! with corrected card data and its records replay with it. The rules read values only
//! through the config ([`crate::Config::contraband`]).
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;

/// How many contraband cards the deck holds.
pub const CONTRABAND: usize = 30;
/// How many guard cards the deck holds.
pub const GUARDS: usize = 5;
/// Every card in the game.
pub const CARDS: usize = CONTRABAND + GUARDS;

/// The card list as shipped (`data/cards.csv`).
pub const CARD_DATA: &str = include_str!("../data/cards.csv");

/// A contraband type, or a guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Hobby contraband (the Collector scores it).
    Hobby,
    /// Education contraband (the Teacher scores it).
    Education,
    /// Survival contraband (both characters score it).
    Survival,
    /// A guard: no type, no value.
    Guard,
}

impl Kind {
    /// One letter: H, E, S or G.
    pub fn letter(self) -> char {
        match self {
            Kind::Hobby => 'H',
            Kind::Education => 'E',
            Kind::Survival => 'S',
            Kind::Guard => 'G',
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Hobby => "Hobby",
            Kind::Education => "Education",
            Kind::Survival => "Survival",
            Kind::Guard => "Guard",
        })
    }
}

/// One printed contraband card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardData {
    /// The printed name.
    pub name: &'static str,
    /// Its contraband type.
    pub kind: Kind,
    /// Its point value.
    pub points: u8,
    /// Whether it carries the siren icon.
    pub siren: bool,
}

impl CardData {
    /// The card's printed values.
    pub fn values(&self) -> Contraband {
        Contraband {
            kind: self.kind,
            points: self.points,
            siren: self.siren,
        }
    }
}

/// The values of one contraband card that card data may change: its type, points and
/// siren icon (`{"type": "hobby", "points": 2, "siren": false}` in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Contraband {
    /// Hobby, education or survival (`guard` only for a guard, never in card data).
    #[serde(rename = "type")]
    pub kind: Kind,
    /// Its point value.
    pub points: u8,
    /// Whether it carries the siren icon.
    pub siren: bool,
}

impl Contraband {
    /// What a guard is: no type, no value, no siren.
    pub const GUARD: Contraband = Contraband {
        kind: Kind::Guard,
        points: 0,
        siren: false,
    };

    /// The printed values of the 30 contraband cards, in card order (`data/cards.csv`).
    pub fn printed() -> Vec<Contraband> {
        table().iter().map(CardData::values).collect()
    }

    /// Every problem with a list of contraband values: exactly 30 cards, 10 of each
    /// type, no guard, points from 1 to 20; each names its card by number (1-30).
    pub fn problems(list: &[Contraband]) -> Vec<String> {
        let mut problems = Vec::new();
        if list.len() != CONTRABAND {
            problems.push(format!(
                "contraband: {} cards listed, the game has {CONTRABAND} (numbered 1-30 in list order)",
                list.len()
            ));
        }
        for (i, c) in list.iter().enumerate() {
            if c.kind == Kind::Guard {
                problems.push(format!(
                    "contraband: card {} has type guard; contraband is hobby, education or survival",
                    i + 1
                ));
            }
            if !(1..=20).contains(&c.points) {
                problems.push(format!(
                    "contraband: card {} is worth {} points (1 to 20)",
                    i + 1,
                    c.points
                ));
            }
        }
        for kind in [Kind::Hobby, Kind::Education, Kind::Survival] {
            let count = list.iter().filter(|c| c.kind == kind).count();
            if count != 10 {
                problems.push(format!(
                    "contraband: {count} {kind} cards listed, the game has 10 of each type"
                ));
            }
        }
        problems
    }
}

/// Reads the card list: one `name,type,points,siren` line per contraband card, `#`
/// comments and blank lines ignored. Exactly 30 cards, 10 of each type.
///
/// # Errors
/// Every malformed line, and a wrong count.
pub fn parse_cards(text: &'static str) -> Result<Vec<CardData>, Vec<String>> {
    let mut cards = Vec::new();
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&'static str> = line.split(',').map(str::trim).collect();
        let [name, kind, points, siren] = fields[..] else {
            problems.push(format!("line {}: expected name,type,points,siren", n + 1));
            continue;
        };
        let kind = match kind {
            "H" => Kind::Hobby,
            "E" => Kind::Education,
            "S" => Kind::Survival,
            other => {
                problems.push(format!("line {}: unknown type `{other}`", n + 1));
                continue;
            }
        };
        let Ok(points) = points.parse::<u8>() else {
            problems.push(format!("line {}: bad points `{points}`", n + 1));
            continue;
        };
        let siren = match siren {
            "0" => false,
            "1" => true,
            other => {
                problems.push(format!(
                    "line {}: siren must be 0 or 1, not `{other}`",
                    n + 1
                ));
                continue;
            }
        };
        cards.push(CardData {
            name,
            kind,
            points,
            siren,
        });
    }
    if cards.len() != CONTRABAND {
        problems.push(format!(
            "{} contraband cards listed, the game has {CONTRABAND}",
            cards.len()
        ));
    }
    for kind in [Kind::Hobby, Kind::Education, Kind::Survival] {
        let count = cards.iter().filter(|c| c.kind == kind).count();
        if count != 10 {
            problems.push(format!("{count} {kind} cards listed, the game has 10"));
        }
    }
    if problems.is_empty() {
        Ok(cards)
    } else {
        Err(problems)
    }
}

fn table() -> &'static [CardData] {
    static TABLE: OnceLock<Vec<CardData>> = OnceLock::new();
    TABLE.get_or_init(|| match parse_cards(CARD_DATA) {
        Ok(cards) => cards,
        // The file is part of the crate and a unit test parses it, so this is a build bug.
        Err(problems) => panic!("data/cards.csv is broken: {}", problems.join("; ")),
    })
}

/// One of the 35 cards: 0-29 are the contraband cards in data order, 30-34 the guards.
/// Players see the contraband number as 1-30.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Card(pub u8);

impl Card {
    /// Every card, contraband first.
    pub fn all() -> impl DoubleEndedIterator<Item = Card> {
        (0..CARDS as u8).map(Card)
    }

    /// The contraband card printed as `number` (1-30).
    pub fn from_number(number: u8) -> Option<Card> {
        (1..=CONTRABAND as u8)
            .contains(&number)
            .then(|| Card(number - 1))
    }

    /// The contraband card with this name (case-insensitive), or `guard` for the first guard.
    pub fn by_name(name: &str) -> Option<Card> {
        if name.eq_ignore_ascii_case("guard") {
            return Some(Card(CONTRABAND as u8));
        }
        table()
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .map(|i| Card(i as u8))
    }

    /// The `k`-th guard (0-4).
    pub fn guard(k: u8) -> Card {
        Card(CONTRABAND as u8 + k % GUARDS as u8)
    }

    /// Whether this id names a real card.
    pub fn is_valid(self) -> bool {
        (self.0 as usize) < CARDS
    }

    /// Whether this is one of the 5 guards.
    pub fn is_guard(self) -> bool {
        self.0 as usize >= CONTRABAND
    }

    /// The printed number players use (1-30); guards have none.
    pub fn number(self) -> Option<u8> {
        (!self.is_guard()).then_some(self.0 + 1)
    }

    fn data(self) -> Option<&'static CardData> {
        table().get(self.0 as usize)
    }

    /// The printed values (type, points, siren) of `data/cards.csv`; a game reads the
    /// values in play from its config ([`crate::Config::contraband`]).
    pub fn printed(self) -> Contraband {
        self.data().map_or(Contraband::GUARD, CardData::values)
    }

    /// The printed name, or "guard".
    pub fn name(self) -> &'static str {
        self.data().map_or("guard", |d| d.name)
    }
}

impl fmt::Display for Card {
    /// `21 alarm clock`, or `guard` (its values are the config's, see
    /// [`crate::Config::contraband`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.number() {
            None => f.write_str("guard"),
            Some(n) => write!(f, "{n} {}", self.name()),
        }
    }
}

/// The two character cards; each scores two contraband types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Character {
    /// Scores Education and Survival (PROPOSED, D24).
    Teacher,
    /// Scores Hobby and Survival.
    Collector,
}

impl Character {
    /// Whether this character scores cards of `kind` (before any mission).
    pub fn scores(self, kind: Kind) -> bool {
        matches!(
            (self, kind),
            (_, Kind::Survival)
                | (Character::Teacher, Kind::Education)
                | (Character::Collector, Kind::Hobby)
        )
    }
}

impl fmt::Display for Character {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Character::Teacher => "The Teacher (Education + Survival)",
            Character::Collector => "The Collector (Hobby + Survival)",
        })
    }
}

/// The four sets of border cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Border {
    #[default]
    /// 3/3/3/3, the first-game set.
    Meadow,
    /// 3/4/2/3.
    City,
    /// 5/4/3/2.
    Coast,
    /// 5/2/3/5.
    Mountain,
}

impl Border {
    /// The printed numbers for districts A-D (each player's district X uses letter X).
    pub fn limits(self) -> [u8; 4] {
        match self {
            Border::Meadow => [3, 3, 3, 3],
            Border::City => [3, 4, 2, 3],
            Border::Coast => [5, 4, 3, 2],
            Border::Mountain => [5, 2, 3, 5],
        }
    }

    /// The four sets.
    pub fn all() -> [Border; 4] {
        [
            Border::Meadow,
            Border::City,
            Border::Coast,
            Border::Mountain,
        ]
    }
}

impl fmt::Display for Border {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Border::Meadow => "meadow",
            Border::City => "city",
            Border::Coast => "coast",
            Border::Mountain => "mountain",
        })
    }
}

/// Lowercase letters and digits only, without a leading "the": how names are matched.
fn normalize(name: &str) -> String {
    let s: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    s.strip_prefix("the").map(str::to_string).unwrap_or(s)
}

/// The advanced-mode collaborator cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Collaborator {
    /// Cross one border card while playing.
    SpyPets,
    /// Take one more card after winning.
    ShelfRaider,
    /// Also pick up a neighbouring top card.
    RebelRobot,
    /// Play clockwise for one turn.
    GrandmaTheHacker,
}

impl Collaborator {
    /// The four collaborators.
    pub fn all() -> [Collaborator; 4] {
        [
            Collaborator::SpyPets,
            Collaborator::ShelfRaider,
            Collaborator::RebelRobot,
            Collaborator::GrandmaTheHacker,
        ]
    }

    /// The name used in configs (`spy-pets`, `shelf-raider`, `rebel-robot`, `grandma`).
    pub fn key(self) -> &'static str {
        match self {
            Collaborator::SpyPets => "spy-pets",
            Collaborator::ShelfRaider => "shelf-raider",
            Collaborator::RebelRobot => "rebel-robot",
            Collaborator::GrandmaTheHacker => "grandma",
        }
    }

    /// Reads a name loosely: case, spaces, dashes and a leading "the" do not matter.
    pub fn from_name(name: &str) -> Option<Collaborator> {
        match normalize(name).as_str() {
            "spypets" | "spy" => Some(Collaborator::SpyPets),
            "shelfraider" | "raider" => Some(Collaborator::ShelfRaider),
            "rebelrobot" | "robot" => Some(Collaborator::RebelRobot),
            "grandmathehacker" | "grandma" | "hacker" => Some(Collaborator::GrandmaTheHacker),
            _ => None,
        }
    }
}

impl fmt::Display for Collaborator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Collaborator::SpyPets => "Spy Pets",
            Collaborator::ShelfRaider => "The Shelf Raider",
            Collaborator::RebelRobot => "Rebel Robot",
            Collaborator::GrandmaTheHacker => "Grandma the Hacker",
        })
    }
}

/// The advanced-mode mission cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mission {
    /// +5 for the most Survival cards.
    Catastrophe,
    /// +5 for the first full lap of all 8 districts in one turn.
    SaveASibling,
    /// Survival cards score nothing and cost 1 each.
    PoliceSting,
    /// +5 for the first to win 6 cards.
    Curfew,
}

impl Mission {
    /// The four missions.
    pub fn all() -> [Mission; 4] {
        [
            Mission::Catastrophe,
            Mission::SaveASibling,
            Mission::PoliceSting,
            Mission::Curfew,
        ]
    }

    /// The name used in configs.
    pub fn key(self) -> &'static str {
        match self {
            Mission::Catastrophe => "catastrophe",
            Mission::SaveASibling => "save-a-sibling",
            Mission::PoliceSting => "police-sting",
            Mission::Curfew => "curfew",
        }
    }

    /// Reads a name loosely: case, spaces and dashes do not matter.
    pub fn from_name(name: &str) -> Option<Mission> {
        match normalize(name).as_str() {
            "catastrophe" => Some(Mission::Catastrophe),
            "saveasibling" | "savesibling" | "sibling" => Some(Mission::SaveASibling),
            "policesting" | "sting" => Some(Mission::PoliceSting),
            "curfew" => Some(Mission::Curfew),
            _ => None,
        }
    }
}

impl fmt::Display for Mission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mission::Catastrophe => "Catastrophe",
            Mission::SaveASibling => "Save a Sibling",
            Mission::PoliceSting => "Police Sting",
            Mission::Curfew => "Curfew",
        })
    }
}

impl Collaborator {
    /// What the card does, in a sentence.
    pub fn text(self) -> &'static str {
        match self {
            Collaborator::SpyPets => {
                "Once a turn, play across the border to the facing district instead of the next one."
            }
            Collaborator::ShelfRaider => {
                "After winning cards in a district, take one more if the new top card is contraband."
            }
            Collaborator::RebelRobot => {
                "When picking up, also take the top card of one of your neighbouring districts."
            }
            Collaborator::GrandmaTheHacker => "Play clockwise for one turn.",
        }
    }
}

impl Mission {
    /// What the card does, in a sentence.
    pub fn text(self) -> &'static str {
        match self {
            Mission::Catastrophe => "+5 for the player holding the most Survival cards at the end.",
            Mission::SaveASibling => {
                "+5 for the first player to pass all 8 districts in one turn and come back."
            }
            Mission::PoliceSting => {
                "Survival cards score nothing, and each one held costs 1 point."
            }
            Mission::Curfew => "+5 for the first player to win 6 contraband cards.",
        }
    }
}

impl Kind {
    /// Who scores this type, and what it is, in a sentence.
    pub fn text(self) -> &'static str {
        match self {
            Kind::Hobby => "Hobby contraband: the Collector scores it.",
            Kind::Education => "Education contraband: the Teacher scores it.",
            Kind::Survival => "Survival contraband: both characters score it.",
            Kind::Guard => "A guard: no type and no points; it protects the cards under it.",
        }
    }
}

impl Character {
    fn key(self) -> &'static str {
        match self {
            Character::Teacher => "teacher",
            Character::Collector => "collector",
        }
    }
}

/// The printed components for people (`Present::about`): every card, the types with what
/// they mean (the legend), the characters, the border sets, the collaborators and the
/// missions, and the marks a board shows.
pub(crate) fn components() -> serde_json::Value {
    use serde_json::json;
    let cards: Vec<_> = Card::all()
        .filter(|c| !c.is_guard())
        .map(|c| {
            let v = c.printed();
            json!({"number": c.number(), "name": c.name(), "kind": v.kind,
                   "points": v.points, "siren": v.siren})
        })
        .collect();
    let kinds: Vec<_> = [Kind::Hobby, Kind::Education, Kind::Survival, Kind::Guard]
        .into_iter()
        .map(|k| json!({"kind": k, "name": k.to_string(), "letter": k.letter().to_string(), "text": k.text()}))
        .collect();
    let characters: Vec<_> = [Character::Teacher, Character::Collector]
        .into_iter()
        .map(|c| {
            let scores: Vec<Kind> = [Kind::Hobby, Kind::Education, Kind::Survival]
                .into_iter()
                .filter(|&k| c.scores(k))
                .collect();
            json!({"key": c.key(), "name": c.to_string(), "scores": scores})
        })
        .collect();
    let borders: Vec<_> = Border::all()
        .into_iter()
        .map(|b| json!({"key": b.to_string(), "limits": b.limits()}))
        .collect();
    let collaborators: Vec<_> = Collaborator::all()
        .into_iter()
        .map(|c| json!({"key": c.key(), "card": c, "name": c.to_string(), "text": c.text()}))
        .collect();
    let missions: Vec<_> = Mission::all()
        .into_iter()
        .map(|m| json!({"key": m.key(), "card": m, "name": m.to_string(), "text": m.text()}))
        .collect();
    json!({
        "cards": cards,
        "guards": GUARDS,
        "kinds": kinds,
        "characters": characters,
        "borders": borders,
        "collaborators": collaborators,
        "missions": missions,
        "marks": [
            {"mark": "siren", "text": "A siren: when it is drawn into a district at the end of a turn, the guards of that row each move one step toward it."},
            {"mark": "points", "text": "The card's points for a character that scores its type."},
            {"mark": "limit", "text": "The border number: when you play contraband into an opponent's district and it holds more than this, you win cards from its top down to the number (never from under a guard)."},
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_card_list_parses() {
        let cards = parse_cards(CARD_DATA).expect("data/cards.csv parses");
        assert_eq!(cards.len(), CONTRABAND);
        for kind in [Kind::Hobby, Kind::Education, Kind::Survival] {
            let of: Vec<_> = cards.iter().filter(|c| c.kind == kind).collect();
            assert_eq!(of.iter().map(|c| u32::from(c.points)).sum::<u32>(), 21);
            assert_eq!(of.iter().filter(|c| c.siren).count(), 3);
        }
        let alarm = Card::by_name("alarm clock").expect("listed").printed();
        assert!(alarm.siren && alarm.points == 1 && alarm.kind == Kind::Survival);
        let board = Card::by_name("Board game").expect("listed").printed();
        assert!(!board.siren && board.points == 1 && board.kind == Kind::Hobby);
        assert!(Contraband::problems(&Contraband::printed()).is_empty());
    }

    #[test]
    fn bad_card_lists_report_every_problem() {
        let problems = parse_cards("a,X,1,0\nb,H,z,0\nc,H,1\n").expect_err("broken");
        assert!(problems.len() >= 4, "{problems:?}");
        let mut list = Contraband::printed();
        list[0].points = 0;
        list[1].kind = Kind::Guard;
        list[2].kind = Kind::Survival;
        list.pop();
        let problems = Contraband::problems(&list);
        // The count, card 1's points, card 2's type, and 8 hobby cards (survival lost
        // its last card and gained card 3: still 10).
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(problems[3].contains("8 Hobby cards"), "{problems:?}");
        assert!(problems[0].contains("29 cards listed"), "{problems:?}");
        assert!(problems[1].contains("card 1 is worth 0"), "{problems:?}");
        assert!(
            problems[2].contains("card 2 has type guard"),
            "{problems:?}"
        );
    }

    #[test]
    fn names_read_loosely() {
        assert_eq!(
            Collaborator::from_name("The Shelf Raider"),
            Some(Collaborator::ShelfRaider)
        );
        assert_eq!(
            Collaborator::from_name("grandma-the-hacker"),
            Some(Collaborator::GrandmaTheHacker)
        );
        assert_eq!(
            Mission::from_name("Save a Sibling"),
            Some(Mission::SaveASibling)
        );
        assert_eq!(Mission::from_name("nope"), None);
        for c in Collaborator::all() {
            assert_eq!(Collaborator::from_name(c.key()), Some(c));
        }
        for m in Mission::all() {
            assert_eq!(Mission::from_name(m.key()), Some(m));
        }
    }
}

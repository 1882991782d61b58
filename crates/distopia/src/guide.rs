//! The rules written for people (`Present::rules`): the prose lives here, in our own words
//! from the rulebook and the rulings; the card, character, border, collaborator and
//! mission tables are filled from the game's data (`cards.rs`); the options from
//! `About::options`.
use crate::cards::{Border, Card, Character, Collaborator, Kind, Mission, CONTRABAND, GUARDS};
use crate::{Config, Distopia};
use engine::ending::plural;
use engine::guide::{self, Block, Rules, Section};
use engine::prelude::*;

/// What each option means in play, by the option's key (the label and help come from
/// `About::options`).
pub(crate) const EXPLAIN: &[(&str, &str)] = &[
    ("border", "Every set is played the same way; only the district limits change (see Border sets). Meadow is the set for a first game."),
    ("advanced", "The advanced mode of the rulebook: one collaborator card and one mission card lie beside the border for the whole game (see Collaborators and Missions)."),
    ("collaborator", "Only with advanced mode. Left at random, one of the four is drawn when the game is set up; none plays advanced mode with a mission only."),
    ("mission", "Only with advanced mode. Left at random, one of the four is drawn when the game is set up; none plays advanced mode with a collaborator only."),
    ("limits", "For owners of the physical game who read their border cards differently, and for studies: four numbers that replace the border set's limits for districts A to D. Given as a card file, not in the table form."),
    ("contraband", "For owners of the physical game whose cards differ from the table above, and for studies: the type, points and siren of each of the 30 contraband cards. Given as a card file, not in the table form."),
];

/// The characters who score cards of `kind`, in words.
fn scored_by(kind: Kind) -> String {
    let who: Vec<&str> = [Character::Teacher, Character::Collector]
        .into_iter()
        .filter(|c| c.scores(kind))
        .map(character_name)
        .collect();
    match who.len() {
        0 => "nobody".into(),
        1 => who.join(""),
        _ => "Both characters".into(),
    }
}

/// "The Teacher".
fn character_name(c: Character) -> &'static str {
    match c {
        Character::Teacher => "The Teacher",
        Character::Collector => "The Collector",
    }
}

/// Distop-IA's rules page.
pub(crate) fn rules() -> Rules {
    let about =
        Distopia::about().defaults(&serde_json::to_value(Config::default()).unwrap_or_default());
    let config = Config::default();
    let card_rows = Card::all()
        .filter(|c| !c.is_guard())
        .map(|c| {
            let v = config.contraband(c);
            vec![
                c.number().map_or_else(String::new, |n| n.to_string()),
                capitalized(c.name()),
                v.kind.to_string(),
                v.points.to_string(),
                if v.siren { "yes" } else { "no" }.to_string(),
                scored_by(v.kind),
            ]
        })
        .collect();
    let character_rows = [Character::Teacher, Character::Collector]
        .into_iter()
        .map(|c| {
            let kinds: Vec<String> = [Kind::Hobby, Kind::Education, Kind::Survival]
                .into_iter()
                .filter(|&k| c.scores(k))
                .map(|k| k.to_string())
                .collect();
            vec![character_name(c).to_string(), kinds.join(" and ")]
        })
        .collect();
    let border_rows = Border::all()
        .into_iter()
        .map(|b| {
            let mut row = vec![capitalized(&b.to_string())];
            row.extend(b.limits().iter().map(ToString::to_string));
            row
        })
        .collect();
    let collaborator_rows = Collaborator::all()
        .into_iter()
        .map(|c| vec![c.to_string(), collaborator_rule(c).to_string()])
        .collect();
    let mission_rows = Mission::all()
        .into_iter()
        .map(|m| vec![m.to_string(), mission_rule(m).to_string()])
        .collect();
    let meadow = Border::Meadow.limits()[0];
    Rules {
        title: "How to play Distop-IA".into(),
        sections: vec![
            Section::new(
                "The game",
                vec![
                    Block::text("Distop-IA is a card game for 2 players set in a world without screens, where toys, books and survival gear are contraband. Each player is a smuggler with four districts on their side of a border. On your turn you pick up the cards of one of your districts and lay them out one by one in the districts that follow, around both sides of the border. Overfill one of your opponent's districts and you win the cards above its limit. Guards block districts and protect what lies under them."),
                    Block::text("When the game ends, you score the contraband your character cares about, minus one card for each guard you hold. The most points wins."),
                ],
            ),
            Section::new(
                "Components",
                vec![
                    Block::text(format!(
                        "{CONTRABAND} contraband cards of three types (Hobby, Education and Survival) and {} with no type and no points. Cards marked with a siren set the guards moving when they are drawn (see The siren). The table lists every contraband card.",
                        plural(GUARDS as i64, "guard", "guards")
                    )),
                    Block::table(&["Number", "Card", "Type", "Points", "Siren", "Scored by"], card_rows),
                    Block::text("Two character cards, one for each player, tell which types score for you:"),
                    Block::table(&["Character", "Scores"], character_rows),
                    Block::text("Border cards: a set of four, each with a number, the limit of the districts beside it (see Border sets). In advanced mode also one collaborator card and one mission card."),
                ],
            ),
            Section::new(
                "The districts",
                vec![
                    Block::text("The four border cards lie in a row between the players. Each player has four districts on their side, lettered A, B, C and D from their own left to right. So your district A faces your opponent's D, your B faces their C, and so on."),
                    Block::text("The eight districts form one ring that both players follow in the same direction: your A, B, C, D, then across the border to your opponent's A, B, C, D, then back across to your A. From any district, the next one is the district to its right as its owner sees it."),
                    Block::text("Each district has a limit: the number on the border card of its letter in the set being played (District A of either player uses the A number, and so on)."),
                ],
            ),
            Section::new(
                "Set-up",
                vec![Block::list([
                    format!("Lay out the four border cards of one set in order A, B, C, D (Meadow, all {meadow}s, for a first game)."),
                    "Deal one character card to each player, at random.".to_string(),
                    format!("Shuffle the {CONTRABAND} contraband cards and the {GUARDS} guards together into one deck."),
                    "Deal two cards face up into each of the eight districts, one round of all eight and then a second. A district whose first card is a guard gets no second card (contraband never goes on a guard); a guard may land on top of a contraband card.".to_string(),
                    "If three or more guards end up on one side of the border, shuffle everything back and deal again.".to_string(),
                    "In advanced mode, put one collaborator card and one mission card beside the border.".to_string(),
                    "The player with fewer guards on their side starts; if it is a tie, the first player is drawn by lot.".to_string(),
                ])],
            ),
            Section::new(
                "A turn",
                vec![
                    Block::text("The players take turns one after the other. On your turn:"),
                    Block::list([
                        "Pick one of your own four districts that holds cards and take all of its cards, guards included, into your hand. Your hand is public: those cards lay face up a moment ago. (Only if all four of your districts are empty do you pick an empty one and play nothing.)",
                        "Starting with the next district of the ring, put exactly one card from your hand into each district you reach, in any order you like, until your hand is empty. You may not pass over a district by choice.",
                        "A district with a guard on top is closed to contraband. If you reach one while holding a guard, you must play a guard there. If you hold no guard, you skip that district and go on to the next.",
                        "A guard may also be played into any district without a guard, on either side: sending guards over the border is part of the game.",
                        "If your hand lasts longer than the ring, carry on around it; the district you emptied is played into like any other when you reach it.",
                        "When your hand is empty, check the opponent's districts where you played contraband this turn (see Winning cards).",
                        "Finally refill: if the district you picked up is still empty, draw the top card of the deck into it (see The siren). No other district is refilled.",
                    ]),
                ],
            ),
            Section::new(
                "Winning cards",
                vec![
                    Block::text("For each of your opponent's districts where you placed at least one contraband card this turn, count the contraband cards in it. If there are more than its limit, take cards from the top of that district until only the limit is left, and put them face down in your won pile. Your opponent knows how many cards you have won, not which."),
                    Block::list([
                        "You never win a guard, and never a card under a guard: taking stops at a guard.",
                        "You never win cards from your own side of the border, however full it is.",
                        "Districts where you placed only a guard are not checked.",
                    ]),
                ],
            ),
            Section::new(
                "The siren",
                vec![
                    Block::text("When the refill draws a contraband card with a siren, every guard on the table moves one district along its own row toward the column of the siren card, on both sides of the border:"),
                    Block::list([
                        "Guards never cross the border when a siren moves them.",
                        "The guard in the district straight across the border from the siren stays put, and so does a guard in the siren's own district.",
                        "Only the top guard of a district moves; any guard under it stays.",
                        "Guards nearest the siren move first; a moving guard lands on top of whatever the next district holds, another guard or the siren card itself included.",
                        "A district emptied by a moving guard is not refilled.",
                    ]),
                    Block::text("Sirens dealt at set-up do nothing."),
                ],
            ),
            Section::new(
                "The end",
                vec![
                    Block::text("The game ends after a refill when:"),
                    Block::list([
                        "the last card of the deck has been drawn (its siren, if it has one, still moves the guards first), or",
                        "one player has a guard on top in all four districts of their side.",
                    ]),
                    Block::text("The game also ends, scored the same way, if a turn would start from the same position for the third time since a card was last drawn or won: with some collaborators the players could otherwise go round in circles for ever."),
                ],
            ),
            Section::new(
                "Scoring",
                vec![
                    Block::text("Each player gathers their won pile and every card left in their own four districts, guards included. Then:"),
                    Block::list([
                        "Put aside the contraband your character does not score.",
                        "For each guard you hold, remove one of your scoring cards: the game always removes your lowest ones, which is the best choice.",
                        "Add up the points of the cards you have left, then add or take away your mission points in advanced mode.",
                    ]),
                    Block::text("The most points wins. If the scores are equal, the player with fewer guards wins; if that is equal too, the game is a draw."),
                ],
            ),
            Section::new(
                "Border sets",
                vec![
                    Block::text("Each set gives the limits of districts A to D. Never mix cards of different sets."),
                    Block::table(&["Set", "A", "B", "C", "D"], border_rows),
                ],
            ),
            Section::new(
                "Collaborators",
                vec![
                    Block::text("Advanced mode. The collaborator card starts beside the border, where either player may use it. Whoever uses it hands it to their opponent, and from then on only the player holding it may use it, at most once a turn; it goes back and forth after each use."),
                    Block::table(&["Collaborator", "What it does"], collaborator_rows),
                ],
            ),
            Section::new(
                "Missions",
                vec![
                    Block::text("Advanced mode. The mission card changes the score at the end of the game."),
                    Block::table(&["Mission", "What it does"], mission_rows),
                ],
            ),
            guide::options(
                &about,
                "A table can change these before the game starts; the standard game is the rulebook's first game.",
                EXPLAIN,
            ),
        ],
    }
}

/// A collaborator's rule in full (the card's short text is in `Collaborator::text`).
fn collaborator_rule(c: Collaborator) -> &'static str {
    match c {
        Collaborator::SpyPets => "Once while you lay out your hand, instead of going on to the next district, jump straight across the border to the district facing the one you are at (before your first card, the one you picked up). Play or skip there as usual, then carry on around the ring from it.",
        Collaborator::ShelfRaider => "After you win cards from a district, take one more card from it if the card now on top is contraband (not if it is a guard).",
        Collaborator::RebelRobot => "Before you play your first card, also take the top card (contraband or guard) of one of your own districts next to the one you picked up. That district is not refilled if it is left empty.",
        Collaborator::GrandmaTheHacker => "Before you play your first card: this turn you go round the ring the other way, starting with the district to your left.",
    }
}

/// A mission's rule in full.
fn mission_rule(m: Mission) -> &'static str {
    match m {
        Mission::Catastrophe => "At the end, the player with more Survival cards (won pile and own districts together) gains 5 points. If both have as many, nobody does.",
        Mission::SaveASibling => "The first player whose single turn passes through all 8 districts (played in or skipped) and comes back to, or past, the district they picked up gains 5 points at the end.",
        Mission::PoliceSting => "Survival cards score nothing for anybody, and each Survival card you hold at the end costs you 1 point.",
        Mission::Curfew => "The first player whose won pile reaches 6 contraband cards gains 5 points at the end.",
    }
}

/// "Board game" from "board game".
fn capitalized(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().collect::<String>() + chars.as_str()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Builder;

    #[test]
    fn the_page_is_whole_and_in_plain_words() {
        assert_eq!(rules().problems(), Vec::<String>::new());
    }

    /// The card table's points and "scored by" as the game's own final scoring counts
    /// them: each card alone in a won pile, once for each character.
    #[test]
    fn every_card_is_listed_with_the_points_scoring_gives_it() {
        let rules = rules();
        let section = rules.section("Components").expect("components");
        let (columns, rows) = section.tables().next().expect("the card table");
        assert_eq!(columns[3], "Points");
        assert_eq!(rows.len(), CONTRABAND);
        for card in Card::all().filter(|c| !c.is_guard()) {
            let number = card.number().expect("a contraband card has a number");
            let row = rows
                .iter()
                .find(|r| r[0] == number.to_string())
                .unwrap_or_else(|| panic!("card {number} is missing"));
            let mut scorers = Vec::new();
            for (seat, character) in [(0, Character::Teacher), (1, Character::Collector)] {
                let mut b = Builder::empty();
                b.won[seat] = vec![card];
                let game = b
                    .build(1)
                    .expect("a card in a won pile is a valid position");
                assert_eq!(game.character(seat), character);
                let score = game.score(seat);
                if score.card_points > 0 {
                    assert_eq!(row[3], score.card_points.to_string(), "card {number}");
                    scorers.push(character_name(character));
                }
            }
            let want = match scorers.len() {
                1 => scorers[0].to_string(),
                _ => "Both characters".to_string(),
            };
            assert_eq!(row[5], want, "card {number}");
            assert_eq!(row[4] == "yes", Config::default().contraband(card).siren);
        }
    }

    #[test]
    fn borders_collaborators_and_missions_are_the_games() {
        let rules = rules();
        let (_, borders) = rules
            .section("Border sets")
            .and_then(|s| s.tables().next())
            .expect("borders");
        for border in Border::all() {
            let row = borders
                .iter()
                .find(|r| r[0].eq_ignore_ascii_case(&border.to_string()))
                .expect("every set");
            let limits: Vec<String> = border.limits().iter().map(ToString::to_string).collect();
            assert_eq!(row[1..], limits[..]);
        }
        let (_, collaborators) = rules
            .section("Collaborators")
            .and_then(|s| s.tables().next())
            .expect("collaborators");
        for c in Collaborator::all() {
            assert!(collaborators.iter().any(|r| r[0] == c.to_string()), "{c}");
        }
        let (_, missions) = rules
            .section("Missions")
            .and_then(|s| s.tables().next())
            .expect("missions");
        for m in Mission::all() {
            assert!(missions.iter().any(|r| r[0] == m.to_string()), "{m}");
        }
    }

    #[test]
    fn every_option_is_explained() {
        let about = Distopia::about();
        assert_eq!(guide::unexplained(&about, EXPLAIN), Vec::<&str>::new());
        let text = rules().lowercase();
        for option in &about.options {
            assert!(
                text.contains(&format!("{}:", option.label.to_lowercase())),
                "{}",
                option.label
            );
        }
    }
}

//! The rules written for people (`Present::rules`): the prose lives here, in our own words
//! from the rulebook and the rulings; the deck table is filled from the printed deck and
//! scored by the game's own scoring ([`crate::score_shown`]); the round-end sizes come
//! from [`Config::pile_limit`]; the options from `About::options`.
use crate::cards::{DECK, HAND, UNMATCHED};
use crate::rules::score_shown;
use crate::{Config, DropSite};
use engine::ending::{plural, points};
use engine::guide::{self, Block, Rules, Section};
use engine::prelude::*;

/// What each option means in play, by the option's key (the label and help come from
/// `About::options`).
pub(crate) const EXPLAIN: &[(&str, &str)] = &[
    ("players", "The number of players also sets how many drop sites end a round (see Round end)."),
    ("target", "The rulebook plays to 100; 50 makes a shorter game. Whoever leads alone at or above the target after a round wins."),
    ("open_debt", "The rulebook keeps every debt secret, even from its owner, until the round is scored; with this on, you can check your own debt pile as you play (nobody else's)."),
    ("first_player", "The rulebook lets the oldest player start; here the table names that seat instead. Each later round starts one seat further on."),
    ("random_first", "When on, the seat that starts round 1 is drawn by lot and the first player setting is ignored."),
    ("max_rounds", "A safety net for games between very cautious players (or bots) whose totals hover around zero: once this many rounds are played, the sole leader wins even below the target. Real games end long before it."),
    ("deck", "For owners of the physical game who know better card data, and for studies: it replaces the deck of the Components table (the values, how many copies of each and their points). It is given as a card file rather than set in the table form."),
];

/// Drop Site's rules page.
pub(crate) fn rules() -> Rules {
    let deck = &*DECK;
    let cards = deck.size();
    let about =
        DropSite::about().defaults(&serde_json::to_value(Config::default()).unwrap_or_default());
    let low = deck.kinds.first().map_or(0, |k| k.value);
    let high = deck.kinds.last().map_or(0, |k| k.value);
    let deck_rows = deck
        .kinds
        .iter()
        .map(|k| {
            // The points as the game scores them: one debt card of this value against a
            // drop site showing it, and against one showing another value.
            let other = if k.value == low { high } else { low };
            let matched = score_shown(deck, &[vec![k.value]], &[vec![k.value]])[0];
            let unmatched = score_shown(deck, &[vec![other]], &[vec![k.value]])[0];
            vec![
                k.value.to_string(),
                k.copies.to_string(),
                signed(matched),
                signed(unmatched),
            ]
        })
        .collect();
    let round_end_rows = (about.players.min..=about.players.max)
        .map(|players| {
            let config = Config {
                players,
                ..Config::default()
            };
            vec![
                plural(players as i64, "player", "players"),
                format!(
                    "the {} drop site",
                    guide::ordinal(config.pile_limit() as u64)
                ),
            ]
        })
        .collect();
    let target = Config::default().target;
    Rules {
        title: "How to play Drop Site".into(),
        sections: vec![
            Section::new(
                "The game",
                vec![
                    Block::text(format!(
                        "Drop Site is a card game for {} to {} players about getting aid shipments to the right place. Cards are parachutes of aid: you drop them onto piles in the middle of the table (the drop sites), or you hide them face down in a pile of your own (your debt). When a round ends, each card in your debt earns its points if a drop site shows the same value, and costs you {} if none does.",
                        about.players.min, about.players.max, points(-UNMATCHED)
                    )),
                    Block::text(format!(
                        "Rounds go on until someone has {target} points or more in total after a round; the player with the highest total then wins. The trick is to play on your debt cards whose values you expect to still be showing on a drop site when the round ends, and to cover the drop sites that would pay your opponents."
                    )),
                ],
            ),
            Section::new(
                "Components",
                vec![
                    Block::text(format!(
                        "One deck of {cards} cards. Each card has a value from {low} to {high} (used to play it and to match it) and points (used only for scoring debt). The table shows every value, how many copies the deck holds, and what one debt card of that value scores at the end of a round."
                    )),
                    Block::table(
                        &["Value", "Copies", "Scores if a drop site shows it", "Scores if none does"],
                        deck_rows,
                    ),
                    Block::text("A debt card scores once for every drop site value it matches, so a card that matches two sites scores its points twice."),
                ],
            ),
            Section::new(
                "Set-up",
                vec![Block::list([
                    "Shuffle the whole deck.".to_string(),
                    format!("Deal {HAND} cards to each player; they are your hand, seen only by you."),
                    "Put the deck face down in the middle and turn its top card face up beside it: that card is the first drop site.".to_string(),
                    "Nobody has a debt pile yet: each player starts one the first time they play a card on their debt.".to_string(),
                ])],
            ),
            Section::new(
                "A turn",
                vec![
                    Block::text("Players take turns in seat order (seat 1, then seat 2, and so on, back to seat 1). On your turn you play exactly one card from your hand, in one of three ways:"),
                    Block::list([
                        "Drop it on a drop site: the card must be strictly lower than the site's top card (an 8 may go on a 10; a 10 may not go on a 10 or on an 8).",
                        "Start a new drop site with it: any value may start a new site, next to the others.",
                        "Bank it: put it face down on your own debt pile. There is no limit to how big your debt may grow, but only one card goes anywhere each turn.",
                    ]),
                    Block::text(format!(
                        "Then draw a card from the deck, back up to {HAND} cards. Nobody is ever stuck: starting a new drop site or playing a card on your debt is always allowed."
                    )),
                ],
            ),
            Section::new(
                "Your debt is secret",
                vec![Block::text("Nobody may look at a debt pile during the round, not even its owner: you see only how many cards each debt holds, so you must remember what you played there. At the end of the round every debt is turned face up for scoring. (The open debt option lets you see your own.)")],
            ),
            Section::new(
                "Zeros",
                vec![Block::list([
                    "A zero is aid that has reached the ground. A drop site whose top card becomes a zero is turned sideways, and so is a new site started with a zero (the first card turned up at set-up included).",
                    "Nothing can be dropped below a zero. Instead, a new drop site may be started on top of the sideways zero, leaving the zero visible; then cards are dropped on that new site as usual.",
                    "A sideways pile shows two values at scoring time: its zero and the top card of the site started on it.",
                    "If that new site gets a zero too (or was started with one), the pile is closed: no more cards go on it, and both zeros still score.",
                    "Starting a site on a sideways zero does not add a drop site for the round's end: the pile was already counted.",
                ])],
            ),
            Section::new(
                "Round end",
                vec![
                    Block::text("A round ends at once, in the middle of a turn, as soon as either of these happens:"),
                    Block::list([
                        "a new drop site is made that brings the number of piles to the limit below (sideways piles count; the player who made it does not draw);",
                        "the last card of the deck is drawn.",
                    ]),
                    Block::table(&["Players", "The round ends with"], round_end_rows),
                ],
            ),
            Section::new(
                "Scoring",
                vec![
                    Block::text(format!(
                        "Everyone turns their debt face up. Each debt card scores its points (see Components) once for every drop site value it matches: the top card of each pile, and on a sideways pile its zero and the top card above it. A debt card that matches nothing costs {}. Any number of debt cards may match the same site.",
                        points(-UNMATCHED)
                    )),
                    Block::text(format!(
                        "Example: your debt holds a {high}, a 2 and a 10, and the sites show a {high} and a 2 but no 10. The {high} scores {}, the 2 scores {}, the 10 costs {}: {} for the round.",
                        points(deck.points(high)),
                        points(deck.points(2)),
                        points(-UNMATCHED),
                        points(deck.points(high) + deck.points(2) + UNMATCHED)
                    )),
                    Block::text("Round scores are added to each player's running total, which may go below zero."),
                ],
            ),
            Section::new(
                "The next round and the end",
                vec![
                    Block::text(format!(
                        "After scoring, all {cards} cards are gathered and shuffled, {HAND} are dealt to each player and a new first drop site is turned up. The next round starts with the player after the one who started the last round."
                    )),
                    Block::text(format!(
                        "The game ends after a round in which someone reaches the target ({target} points in a standard game). The highest total wins. If two or more players share the highest total, more rounds are played until one leads alone."
                    )),
                ],
            ),
            guide::options(
                &about,
                "A table can change these before the game starts; the rulebook's game is the standard one.",
                EXPLAIN,
            ),
        ],
    }
}

/// "+4", "-2", "0".
fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Block;

    #[test]
    fn the_page_is_whole_and_in_plain_words() {
        let rules = rules();
        assert_eq!(rules.problems(), Vec::<String>::new());
    }

    #[test]
    fn the_deck_table_is_the_deck_as_scoring_counts_it() {
        let rules = rules();
        let section = rules.section("Components").expect("a components section");
        let (columns, rows) = section.tables().next().expect("the deck table");
        assert_eq!(columns.len(), 4);
        assert_eq!(rows.len(), DECK.kinds.len());
        for kind in &DECK.kinds {
            let row = rows
                .iter()
                .find(|r| r[0] == kind.value.to_string())
                .unwrap_or_else(|| panic!("no row for value {}", kind.value));
            assert_eq!(row[1], kind.copies.to_string());
            // A debt of this card against sites showing it, and against sites that do
            // not: the round's score as the game computes it.
            let piles = [vec![kind.value]];
            let debt = [vec![kind.value]];
            assert_eq!(row[2], signed(score_shown(&DECK, &piles, &debt)[0]));
            let none: [Vec<u8>; 0] = [];
            assert_eq!(row[3], signed(score_shown(&DECK, &none, &debt)[0]));
        }
        assert_eq!(
            DECK.size(),
            rows.iter()
                .map(|r| r[1].parse::<usize>().unwrap_or(0))
                .sum::<usize>()
        );
    }

    #[test]
    fn the_round_end_table_is_the_games_limit() {
        let rules = rules();
        let section = rules.section("Round end").expect("a round end section");
        let (_, rows) = section.tables().next().expect("the limit table");
        for players in 2..=4 {
            let config = Config {
                players,
                ..Config::default()
            };
            let want = format!(
                "the {} drop site",
                guide::ordinal(config.pile_limit() as u64)
            );
            assert!(
                rows.iter()
                    .any(|r| r[0] == format!("{players} players") && r[1] == want),
                "{players} players: {rows:?}"
            );
        }
    }

    #[test]
    fn every_option_is_explained() {
        let about = DropSite::about();
        assert_eq!(guide::unexplained(&about, EXPLAIN), Vec::<&str>::new());
        let rules = rules();
        let section = rules.section(guide::OPTIONS).expect("an options section");
        // The main options' list, then the variants' list.
        let items: Vec<&String> = (section.blocks.iter())
            .filter_map(|b| match b {
                Block::List { items } => Some(items),
                _ => None,
            })
            .flatten()
            .collect();
        assert!(section
            .blocks
            .iter()
            .any(|b| b.texts().contains(&guide::VARIANTS)));
        for option in &about.options {
            assert!(
                items
                    .iter()
                    .any(|i| i.starts_with(&format!("{}:", option.label))),
                "{} is not on the page",
                option.label
            );
        }
        assert!(items.iter().any(|i| i.contains("A standard game has 100.")));
    }
}

//! The rulebook's worked examples.
use crate::common;

use common::*;
use distopia::{Builder, Character, Phase};
use engine::prelude::*;

/// Anna (seat 0, the Teacher) before her example turn; Pau (seat 1) is the Collector.
/// Her D and Pau's C and D are guarded, and the next card in the deck has a siren.
fn annas_table() -> Builder {
    let mut s = Builder::empty();
    s.characters = [Character::Teacher, Character::Collector];
    s.districts[0] = cards(&["atlas"]); // Anna A
    s.districts[1] = cards(&["kite", "pencil case", "dictionary"]); // Anna B: 3 cards
    s.districts[2] = cards(&["notebook"]); // Anna C
    s.districts[3] = vec![guard(0)]; // Anna D: a guard
    s.districts[4] = cards(&["comic book", "paint set", "guitar"]); // Pau A: 3 cards, limit 3
    s.districts[5] = cards(&["yo-yo"]); // Pau B
    s.districts[6] = vec![card("box of matches"), guard(1)]; // Pau C: guarded
    s.districts[7] = vec![card("candles"), guard(2)]; // Pau D: guarded
    s.deck_top = cards(&["alarm clock"]); // a siren card
    s.to_act = 0;
    s
}

#[test]
fn annas_turn() {
    let mut g = game(annas_table());
    // She picks up the 3 cards in her district B.
    act(&mut g, "pick B");
    assert_eq!(g.turn().hand.len(), 3);
    assert!(g.district(0, 1).is_empty());
    // A contraband card of her choice in her district C.
    assert_eq!(legal(&g), ["play 4", "play 11", "play 14"]);
    act(&mut g, "play 11");
    assert_eq!(g.district(0, 2), cards(&["notebook", "pencil case"]));
    // Her D is guarded and she holds no guard: she must skip it.
    assert_eq!(legal(&g), ["skip"]);
    act(&mut g, "skip");
    // Then Pau's A across the border, then Pau's B.
    act(&mut g, "play 14");
    assert_eq!(g.district(1, 0).len(), 4);
    act(&mut g, "play 4");
    // 4 contraband cards in Pau's A over its 3: she wins the top card, the one she played.
    assert_eq!(g.won(0), cards(&["dictionary"]));
    assert_eq!(
        g.district(1, 0),
        cards(&["comic book", "paint set", "guitar"])
    );
    // Pau's B has 2, not over 3: nothing won there; her own side never counts.
    assert_eq!(g.district(1, 1), cards(&["yo-yo", "kite"]));
    assert_eq!(g.district(0, 2)[..2], cards(&["notebook", "pencil case"]));
    // The next turn begins: Pau's.
    assert_eq!(g.to_act(), Some(1));
    assert_eq!(g.phase(), Phase::Pick);
}

#[test]
fn the_siren_example() {
    let mut g = game(annas_table());
    let deck_before = g.deck().len();
    for a in ["pick B", "play 11", "skip", "play 14", "play 4"] {
        act(&mut g, a);
    }
    // Anna refills her B with the alarm clock, a siren card: beep-beep-beep.
    assert_eq!(g.district(0, 1), cards(&["alarm clock"]));
    assert_eq!(g.deck().len(), deck_before - 1);
    // Her D's guard moved toward column B onto the contraband in her C.
    assert_eq!(
        g.district(0, 2),
        vec![card("notebook"), card("pencil case"), guard(0)]
    );
    // Her D is now empty only because its guard moved: it is not refilled.
    assert!(g.district(0, 3).is_empty());
    // Pau's C, across the border from the siren, kept its guard, and Pau's D's guard
    // landed on top of it: one guard on another.
    assert_eq!(
        g.district(1, 2),
        vec![card("box of matches"), guard(1), guard(2)]
    );
    assert_eq!(g.district(1, 3), cards(&["candles"]));
    // Guards never crossed the border.
    assert!(g
        .district(1, 0)
        .iter()
        .chain(g.district(1, 1))
        .all(|c| !c.is_guard()));
    assert_eq!(g.to_act(), Some(1), "now it's Pau's turn");
}

/// Pau's final collection: won cards under the Collector and what is left on his side.
fn paus_end() -> Builder {
    let mut s = Builder::empty();
    s.characters = [Character::Teacher, Character::Collector];
    s.won[1] = cards(&[
        "board game",
        "kite",
        "guitar",
        "alarm clock",
        "blanket",
        "atlas",
    ]);
    s.districts[4] = cards(&["seed packets"]);
    s.districts[5] = vec![card("flashlight"), guard(0)];
    s.districts[6] = vec![card("library book"), guard(1)];
    // Anna: one card to play in her last turn, three guards, every other card won.
    s.districts[0] = cards(&["pencil case"]);
    s.districts[1] = cards(&["notebook"]);
    s.districts[2] = vec![guard(2)];
    s.districts[3] = vec![card("calculator"), guard(3)];
    s.deck_top = vec![guard(4)];
    let placed: Vec<_> = s
        .districts
        .iter()
        .chain(s.won.iter())
        .flatten()
        .chain(&s.deck_top)
        .copied()
        .collect();
    s.won[0] = distopia::Card::all()
        .filter(|c| !c.is_guard() && !placed.contains(c))
        .collect();
    s.to_act = 0;
    s
}

#[test]
fn paus_scoring() {
    let mut g = game(paus_end());
    assert_eq!(g.deck().len(), 1);
    // Anna's last turn draws the last card: the game ends.
    act(&mut g, "pick A");
    act(&mut g, "play 11");
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.to_act(), None);
    let pau = g.score(1);
    // He discards the Education cards: the Collector scores Hobby and Survival.
    let mut discarded = pau.discarded.clone();
    discarded.sort();
    assert_eq!(discarded, cards(&["atlas", "library book"]));
    // Two guards on his side remove two scorable cards: the alarm clock and the board game.
    assert_eq!(pau.guards, 2);
    let mut removed = pau.removed.clone();
    removed.sort();
    assert_eq!(removed, cards(&["board game", "alarm clock"]));
    assert_eq!(pau.card_points, 14);
    assert_eq!(pau.total, 14);
    // Anna has more points than Pau: she wins.
    let outcome = g.outcome().expect("over");
    assert!(outcome.scores[0] > 14);
    assert_eq!(outcome.winners(), [0]);
}

#[test]
fn paus_scoring_explained_line_by_line() {
    let mut g = game(paus_end());
    act(&mut g, "pick A");
    act(&mut g, "play 11");
    let names = engine::Names::default().with_names(vec!["Anna".into(), "Pau".into()]);
    let ending = g.ending(&names).expect("the game is over");
    let outcome = g.outcome().expect("over");
    assert_eq!(ending.check(&outcome), Ok(()));
    assert_eq!(
        ending.why,
        "the game ended because the last card of the deck was drawn; Anna won with 24 points to 14"
    );
    let lines = engine::testkit::score_lines(&ending, 1);
    // Steps 1-3 of the final scoring, as the rulebook's example tells them: 14 points.
    assert_eq!(
        lines,
        vec![
            ("won cards: 6 contraband cards", 12),
            ("cards left in the districts: 3 contraband cards", 10),
            (
                "The Collector (Hobby + Survival) does not score Education: discarded atlas (2), library book (4)",
                -6
            ),
            (
                "2 guards remove a scorable card each, the lowest first: removed board game (1), alarm clock (1)",
                -2
            ),
        ]
    );
    assert_eq!(ending.seats[1].total, 14);
    assert_eq!(ending.totals(), outcome.scores);
}

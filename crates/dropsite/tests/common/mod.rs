//! Fixed positions for the rules tests.
#![allow(dead_code)]
use dropsite::{cards::DECK, Config, DropSite, Pile};

/// A pile from its cards, bottom first, with the flags the zero rules give it.
pub fn pile(cards: &[u8]) -> Pile {
    let mut p = Pile::start(cards[0]);
    for &c in &cards[1..] {
        assert!(p.accepts(c), "test pile {cards:?} is not playable");
        p.play(c);
    }
    p
}

/// A position: the given hands, debts and piles; every other card in the deck, with
/// `deck_top` drawn first (its last card first).
pub fn position(
    players: usize,
    to_act: usize,
    hands: &[&[u8]],
    debts: &[&[u8]],
    piles: &[&[u8]],
    deck_top: &[u8],
) -> DropSite {
    position_with(
        Config {
            players,
            ..Config::default()
        },
        to_act,
        hands,
        debts,
        piles,
        deck_top,
    )
}

pub fn position_with(
    config: Config,
    to_act: usize,
    hands: &[&[u8]],
    debts: &[&[u8]],
    piles: &[&[u8]],
    deck_top: &[u8],
) -> DropSite {
    let mut left: Vec<u8> = Vec::new();
    DECK.fill(&mut left);
    let used = hands
        .iter()
        .chain(debts)
        .chain(piles)
        .flat_map(|c| c.iter())
        .chain(deck_top);
    for &c in used {
        let at = left
            .iter()
            .position(|&x| x == c)
            .unwrap_or_else(|| panic!("more than four {c}s in the test position"));
        left.remove(at);
    }
    left.extend_from_slice(deck_top);
    DropSite::from_parts(
        config,
        to_act,
        hands.iter().map(|h| h.to_vec()).collect(),
        debts.iter().map(|d| d.to_vec()).collect(),
        piles.iter().map(|p| pile(p)).collect(),
        left,
    )
    .unwrap_or_else(|e| panic!("bad test position: {e:?}"))
}

pub fn act(game: &mut DropSite, text: &str) {
    let action = text.parse().unwrap_or_else(|e| panic!("{e}"));
    engine::Game::apply(game, action).unwrap_or_else(|e| panic!("{e}"));
}

pub fn refused(game: &mut DropSite, text: &str) -> String {
    let before = game.clone();
    let action = text.parse().unwrap_or_else(|e| panic!("{e}"));
    let err = engine::Game::apply(game, action).expect_err("the action should be refused");
    assert_eq!(*game, before, "a refused action changed the state");
    err.to_string()
}

//! Fixed positions for the rules tests.
#![allow(dead_code)]
use dropsite::{Builder, Config, DropSite, Pile};

/// A pile from its cards, bottom first, with the flags the zero rules give it.
pub fn pile(cards: &[u8]) -> Pile {
    let mut p = Pile::start(cards[0]);
    for &c in &cards[1..] {
        assert!(p.accepts(c), "test pile {cards:?} is not playable");
        p.play(c);
    }
    p
}

/// The default table for `players` players.
pub fn config(players: usize) -> Config {
    Config {
        players,
        ..Config::default()
    }
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
    position_with(config(players), to_act, hands, debts, piles, deck_top)
}

/// [`position`] at the table `config`.
pub fn position_with(
    config: Config,
    to_act: usize,
    hands: &[&[u8]],
    debts: &[&[u8]],
    piles: &[&[u8]],
    deck_top: &[u8],
) -> DropSite {
    let mut b = Builder::with_config(config)
        .to_act(to_act)
        .deck_top(deck_top);
    for (seat, hand) in hands.iter().enumerate() {
        b = b.hand(seat, hand);
    }
    for (seat, debt) in debts.iter().enumerate() {
        b = b.debt(seat, debt);
    }
    for p in piles {
        b = b.pile(p);
    }
    b.build()
        .unwrap_or_else(|e| panic!("bad test position: {e:?}"))
}

/// Two players, seat 0 to act holding `hand`, seat 1 holding 2 4 6 7 9; the sites a 10, a
/// sideways zero and a 5; 11 drawn next.
pub fn two(hand: &[u8]) -> DropSite {
    position(
        2,
        0,
        &[hand, &[2, 4, 6, 7, 9]],
        &[&[], &[]],
        &[&[10], &[0], &[5]],
        &[11],
    )
}

pub use engine::testkit::{act, refuse as refused};

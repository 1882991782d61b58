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

/// A position at the table `config`: the given hands, debts and piles; every other card
/// in the deck, with `deck_top` drawn first (its last card first).
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
    no_debts([hand, &[2, 4, 6, 7, 9]], &[&[10], &[0], &[5]], &[11])
}

/// Two players with no debts yet, seat 0 to act: the hands by seat, the piles, and the
/// cards drawn next (the last first).
pub fn no_debts(hands: [&[u8]; 2], piles: &[&[u8]], deck_top: &[u8]) -> DropSite {
    position_with(config(2), 0, &hands, &[&[], &[]], piles, deck_top)
}

/// Two players at the table `config` with four drop sites made (12, 11, 10, 9) and the
/// deck empty, seat 1 to act: seat 0 holds 1 2 3 5 6, seat 1 `hand`; the debts are
/// `debts`, by seat.
pub fn round_end(config: Config, hand: &[u8], debts: [&[u8]; 2]) -> DropSite {
    position_with(
        config,
        1,
        &[&[1, 2, 3, 5, 6], hand],
        &debts,
        &[&[12], &[11], &[10], &[9]],
        &[],
    )
}

pub use engine::testkit::{act, refuse as refused};

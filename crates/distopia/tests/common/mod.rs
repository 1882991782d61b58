//! Helpers shared by the rule tests: cards by name, positions, actions by text.
#![allow(dead_code)]

#[allow(unused_imports)]
pub use engine::testkit::{act, legal, refuse};

use distopia::{
    Builder, Card, Collaborator, CollaboratorState, Config, Distopia, Mission, MissionState,
};

/// The contraband card with this name.
pub fn card(name: &str) -> Card {
    Card::by_name(name).unwrap_or_else(|| panic!("no card named {name}"))
}

/// Several contraband cards by name, in order (bottom first).
pub fn cards(names: &[&str]) -> Vec<Card> {
    names.iter().map(|n| card(n)).collect()
}

/// Guard number `k` (0-4); each guard may be placed once.
pub fn guard(k: u8) -> Card {
    Card::guard(k)
}

/// A game at this position.
pub fn game(setup: Builder) -> Distopia {
    Distopia::from_setup(setup, 1).unwrap_or_else(|p| panic!("bad setup: {}", p.join("; ")))
}

/// Removes `moving` from wherever the setup had them.
fn take_out(s: &mut Builder, moving: &[Card]) {
    for pile in s.districts.iter_mut().chain(s.won.iter_mut()) {
        pile.retain(|c| !moving.contains(c));
    }
    s.deck_top.retain(|c| !moving.contains(c));
}

/// Sets ring district `i` to `stack`, taking those cards from wherever they were; the
/// cards it held before go back to the deck.
pub fn put(s: &mut Builder, i: usize, stack: Vec<Card>) {
    take_out(s, &stack);
    s.districts[i] = stack;
}

/// Sets `seat`'s won pile, taking the cards from wherever they were.
pub fn put_won(s: &mut Builder, seat: usize, pile: Vec<Card>) {
    take_out(s, &pile);
    s.won[seat] = pile;
}

/// Sets the top of the deck (top first), taking the cards from wherever they were.
pub fn put_deck(s: &mut Builder, top: Vec<Card>) {
    take_out(s, &top);
    s.deck_top = top;
}

/// The position with `card` as the only advanced card.
pub fn with_collaborator(mut s: Builder, card: Collaborator) -> Builder {
    s.config = Config {
        advanced: true,
        collaborator: Some(card.key().into()),
        mission: Some("none".into()),
        ..Config::default()
    };
    s.collaborator = Some(CollaboratorState { card, holder: None });
    s
}

/// The quiet table with `card` as the only advanced card, after seat 0 picked its
/// district B.
pub fn picked_b_with(card: Collaborator) -> Distopia {
    let mut g = game(with_collaborator(quiet(), card));
    act(&mut g, "pick B");
    g
}

/// The position with `card` as the only advanced card.
pub fn with_mission(mut s: Builder, card: Mission) -> Builder {
    s.config = Config {
        advanced: true,
        collaborator: Some("none".into()),
        mission: Some(card.key().into()),
        ..Config::default()
    };
    s.mission = Some(MissionState {
        card,
        claimed_by: None,
    });
    s
}

/// A quiet table: seat 0 holds kite + yo-yo in B, one card in each other district.
pub fn quiet() -> Builder {
    let mut s = Builder::empty();
    s.districts[0] = cards(&["atlas"]);
    s.districts[1] = cards(&["kite", "yo-yo"]);
    s.districts[2] = cards(&["notebook"]);
    s.districts[3] = cards(&["candles"]);
    s.districts[4] = cards(&["guitar"]);
    s.districts[5] = cards(&["comic book"]);
    s.districts[6] = cards(&["blanket"]);
    s.districts[7] = cards(&["calculator"]);
    s.deck_top = cards(&["box of chalk"]);
    s
}

/// A Curfew race: Curfew in play, seat 1 having won the cards `won` names, and districts
/// 3 and 4 set so that `pick D`, `play 4`, `play 23` win it one card more.
pub fn curfew_race(won: &[&str]) -> Builder {
    let mut s = with_mission(quiet(), Mission::Curfew);
    put_won(&mut s, 0, cards(won));
    put(&mut s, 3, cards(&["candles", "kite"]));
    put(&mut s, 4, cards(&["guitar", "deck of cards", "comic book"]));
    s
}

/// The quiet position on the Coast border (A5 B4 C3 D2), seat 1's district D holding
/// candles and a kite, and the district it leads to five cards to win from.
pub fn coast_win() -> Builder {
    let mut s = quiet();
    s.config.border = distopia::Border::Coast;
    put(&mut s, 3, cards(&["candles", "kite"]));
    let five = [
        "guitar",
        "paint set",
        "comic book",
        "deck of cards",
        "board game",
    ];
    put(&mut s, 4, cards(&five));
    s
}

/// The Shelf Raider in play, and districts 3 to 5 set so that `pick D`, `play 4`,
/// `play 23` win seat 1 a kite and offer it the raid.
pub fn raid() -> Distopia {
    let mut s = with_collaborator(quiet(), Collaborator::ShelfRaider);
    put(&mut s, 3, cards(&["candles", "kite"]));
    put(&mut s, 4, cards(&["guitar", "paint set", "comic book"]));
    put(&mut s, 5, cards(&["board game"]));
    game(s)
}

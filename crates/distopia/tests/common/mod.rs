//! Helpers shared by the rule tests: cards by name, positions, actions by text.
#![allow(dead_code)]
use distopia::{
    Builder, Card, Collaborator, CollaboratorState, Config, Distopia, Mission, MissionState,
    Refusal,
};
use engine::Game;

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

/// Applies an action written in notation, which must be legal.
pub fn act(game: &mut Distopia, text: &str) {
    let action = text.parse().unwrap_or_else(|e| panic!("{e}"));
    if let Err(e) = game.apply(action) {
        panic!(
            "{text} refused: {e}\n{}",
            game.view(engine::Viewer::Spectator)
        );
    }
}

/// Tries an action that must be refused; returns the reason and checks nothing changed.
pub fn refused(game: &mut Distopia, text: &str) -> Refusal {
    let before = game.clone();
    let action = text.parse().unwrap_or_else(|e| panic!("{e}"));
    let err = game.apply(action).expect_err(text);
    assert_eq!(*game, before, "refusing {text} changed the state");
    assert!(!game.is_legal(action));
    err.reason
}

/// The legal actions in notation.
pub fn legal(game: &Distopia) -> Vec<String> {
    let mut out = Vec::new();
    game.legal_actions(&mut out);
    out.iter().map(ToString::to_string).collect()
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

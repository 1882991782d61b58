//! Helpers shared by the rule tests: actions by notation, dice, market tiles.
#![allow(dead_code)]

#[allow(unused_imports)]
pub use engine::testkit::{act, legal, refuse};

use euphoria::cards::{Penalty, Space, MARKET_TILES};
use euphoria::{Builder, Config, DieLoc, Euphoria};

/// Whether `text` is among the legal actions.
pub fn offered(g: &Euphoria, text: &str) -> bool {
    legal(g).iter().any(|a| a == text)
}

/// A die ready to place, showing `v`.
pub fn ready(v: u8) -> DieLoc {
    DieLoc::Ready(v)
}

/// A die showing `v` on `space`.
pub fn on(space: Space, v: u8) -> DieLoc {
    DieLoc::Board(space, v)
}

/// The index of the market tile with penalty `p`.
pub fn tile(p: Penalty) -> u8 {
    MARKET_TILES
        .iter()
        .position(|t| t.penalty == p)
        .expect("a tile") as u8
}

/// Retrieves the dice at `dice` (`1@gen`) and finishes the retrieval paying nothing.
pub fn retrieve_free(g: &mut Euphoria, dice: &[&str]) {
    for die in dice {
        act(g, &format!("ret {die}"));
    }
    act(g, "fin free");
}

/// Opens a trade with `to` (`p2`), makes the offer of `items` (`give gold`, `ask water`)
/// and proposes it.
pub fn offer(g: &mut Euphoria, to: &str, items: &[&str]) {
    act(g, "trade");
    act(g, &format!("offer {to}"));
    for item in items {
        act(g, item);
    }
    act(g, "propose");
}

/// Changes the position in place: `change` sets what the test needs on its builder, and
/// the result must be a possible position.
pub fn edit(g: &mut Euphoria, change: impl FnOnce(Builder) -> Builder) {
    *g = change(g.clone().edit())
        .build()
        .expect("a possible position");
}

/// A game past setup from `seed`: nobody holds recruits, each seat one die showing 1
/// ready, seat 1 (index 0) to start a turn.
pub fn bare(config: &Config, seed: u64) -> Euphoria {
    let mut g = Euphoria::started(config, seed).expect("config");
    for s in 0..g.players().len() {
        edit(&mut g, |e| e.recruits(s, &[]).dice(s, &[DieLoc::Ready(1)]));
    }
    edit(&mut g, |e| e.turn(0));
    g
}

/// `config` with the trading rule before issue 16 (one offer, before placing): the rule
/// tests follow the turn without trading stops (tests/trading.rs covers the rulebook's).
pub fn without_trading_stops(config: Config) -> Config {
    Config {
        trading: euphoria::Trading::OneOfferBeforePlacing,
        ..config
    }
}

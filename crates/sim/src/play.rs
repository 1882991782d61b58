//! The one game loop: bots play a seeded game to its end, and a game that breaks down is
//! reported with its seed, never scored.
use crate::SimError;
use bots::{Bot, BotError, Observer};
use engine::prelude::*;
use engine::{derive_seed, Holding, Moment, Seat};
use serde::{Deserialize, Serialize};

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub seed: u64,
    pub scores: Vec<i64>,
    pub places: Vec<u8>,
    pub rounds: u32,
    pub moves: u32,
    /// Turns: runs of consecutive actions by one seat.
    pub turns: u32,
    /// The seat that acted first.
    pub first: Seat,
    /// What each seat held (`Search::holdings` at the start, then at the end).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<Vec<Holding>>,
}

/// Makes the bot for a seat from that seat's seed.
pub type MakeBot<'a, G> = dyn Fn(Seat, u64) -> Result<Box<dyn Bot<G>>, BotError> + Sync + 'a;

/// Plays game `index` of a batch seeded with `seed`: the game is seeded with
/// `derive_seed(seed, index)` and seat `s`'s bot with `derive_seed(game_seed, s + 1)`.
///
/// # Errors
/// A bad config or bot, a bot that finds no action, a refused action, or a game that ends
/// without an outcome (the last three are bugs worth reporting with the seed).
pub fn play_game<G: Game>(
    config: &G::Config,
    seed: u64,
    index: u64,
    make: &MakeBot<'_, G>,
) -> Result<GameResult, SimError> {
    let game_seed = derive_seed(seed, index);
    let broken = |message: String| SimError::Broken {
        index,
        seed: game_seed,
        message,
    };
    let mut game = G::new(config, game_seed)?;
    let mut bots = (0..game.seats())
        .map(|s| make(s, derive_seed(game_seed, s as u64 + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut held: Vec<Vec<Holding>> = (0..game.seats())
        .map(|s| game.holdings(s, Moment::Start))
        .collect();
    let first = game.to_act().unwrap_or(0);
    let (mut moves, mut turns, mut last) = (0u32, 0u32, None);
    while let Some(observer) = Observer::new(&game) {
        let seat = observer.seat();
        if last != Some(seat) {
            turns += 1;
            last = Some(seat);
        }
        let action = bots[seat]
            .choose(&observer)
            .ok_or_else(|| broken(format!("seat {} found no action", seat + 1)))?;
        game.apply(action).map_err(|e| broken(e.to_string()))?;
        moves += 1;
    }
    let outcome = game
        .outcome()
        .ok_or_else(|| broken("the game ended without an outcome".into()))?;
    for (s, h) in held.iter_mut().enumerate() {
        h.extend(game.holdings(s, Moment::End));
    }
    if held.iter().all(Vec::is_empty) {
        held.clear();
    }
    Ok(GameResult {
        seed: game_seed,
        scores: outcome.scores,
        places: outcome.places,
        rounds: game.rounds(),
        moves,
        turns,
        first,
        held,
    })
}

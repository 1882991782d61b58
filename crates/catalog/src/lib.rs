//! The one place that lists the games: by name, for the CLI and the server.
//!
//! Code generic over [`engine::Game`] reaches the concrete type through [`with_game`] and a
//! [`Visit`]or; code that works on text and JSON uses [`game`] and [`bot`].

use bots::{Advice, BotError, BotSpec, CoachError, CoachOptions, DynBot, Review};
use engine::prelude::*;
use engine::{DynGame, DynState, EngineError, GameRecord, Tensor, Typed};

/// Every game's name, in the order they are listed.
pub const GAMES: &[&str] = &[
    dropsite::DropSite::NAME,
    distopia::Distopia::NAME,
    euphoria::Euphoria::NAME,
];

/// Something to do with a game's concrete type (every game also has its tensors).
pub trait Visit {
    type Out;
    fn visit<G: Tensor>(self) -> Self::Out;
}

fn unknown(name: &str) -> EngineError {
    EngineError::UnknownGame {
        name: name.to_string(),
        known: GAMES.join(", "),
    }
}

/// Calls `visitor` with the game named `name`.
///
/// # Errors
/// An unknown name.
pub fn with_game<V: Visit>(name: &str, visitor: V) -> Result<V::Out, EngineError> {
    match name.trim().to_ascii_lowercase().as_str() {
        "dropsite" | "drop-site" => Ok(visitor.visit::<dropsite::DropSite>()),
        "distopia" | "distop-ia" => Ok(visitor.visit::<distopia::Distopia>()),
        "euphoria" => Ok(visitor.visit::<euphoria::Euphoria>()),
        _ => Err(unknown(name)),
    }
}

struct MakeGame;
impl Visit for MakeGame {
    type Out = Box<dyn DynGame>;
    fn visit<G: Game>(self) -> Box<dyn DynGame> {
        Box::new(Typed::<G>::default())
    }
}

/// The game named `name`, type-erased.
///
/// # Errors
/// An unknown name.
pub fn game(name: &str) -> Result<Box<dyn DynGame>, EngineError> {
    with_game(name, MakeGame)
}

struct MakeBot<'a>(&'a BotSpec, u64);
impl Visit for MakeBot<'_> {
    type Out = Result<Box<dyn DynBot>, BotError>;
    fn visit<G: Game>(self) -> Self::Out {
        bots::make_dyn_bot::<G>(self.0, self.1)
    }
}

/// A bot for the game named `game_name`, type-erased.
///
/// # Errors
/// An unknown game, or a spec that names no bot.
pub fn bot(game_name: &str, spec: &BotSpec, seed: u64) -> Result<Box<dyn DynBot>, CatalogError> {
    Ok(with_game(game_name, MakeBot(spec, seed))??)
}

struct Hint<'a>(&'a dyn DynState, &'a CoachOptions, usize);
impl Visit for Hint<'_> {
    type Out = Option<Vec<Advice>>;
    fn visit<G: Game>(self) -> Self::Out {
        let game = self.0.as_any().downcast_ref::<G>()?;
        Some(bots::hint(game, self.1, self.2))
    }
}

/// The coach's `top` best moves for the seat to act in `state` ([`bots::hint`]): a
/// function of that seat's view, the seed and the budget only; empty once the game is over.
///
/// # Errors
/// A state of a game the catalog does not list.
pub fn hint(
    state: &dyn DynState,
    options: &CoachOptions,
    top: usize,
) -> Result<Vec<Advice>, CatalogError> {
    with_game(state.game_name(), Hint(state, options, top))?
        .ok_or_else(|| CatalogError::Game(unknown(state.game_name())))
}

struct ReviewGame<'a>(
    &'a GameRecord,
    &'a CoachOptions,
    &'a (dyn Fn(usize, usize) + Sync),
);
impl Visit for ReviewGame<'_> {
    type Out = Result<Review, CoachError>;
    fn visit<G: Game>(self) -> Self::Out {
        let mut record = self.0.clone();
        record.game = G::NAME.to_string();
        bots::review::<G>(&record, self.1, self.2)
    }
}

/// Reviews a finished game by its record's game name ([`bots::review`]).
///
/// # Errors
/// An unknown game, a record that does not replay, or a game not over.
pub fn review(
    record: &GameRecord,
    options: &CoachOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Review, CatalogError> {
    Ok(with_game(
        &record.game,
        ReviewGame(record, options, progress),
    )??)
}

/// An unknown game or bot, or a record the coach cannot review.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CatalogError {
    #[error(transparent)]
    Game(#[from] EngineError),
    #[error(transparent)]
    Bot(#[from] BotError),
    #[error(transparent)]
    Coach(#[from] CoachError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Input, Typed};

    /// Checks one game's description against its config: every option described, each
    /// choice a value the config accepts.
    struct CheckAbout;
    impl Visit for CheckAbout {
        type Out = Vec<String>;
        fn visit<G: Tensor>(self) -> Vec<String> {
            let dyn_game = Typed::<G>::default();
            let about = dyn_game.about();
            let mut problems = about.problems(&dyn_game.default_config());
            for option in &about.options {
                if let Input::Choice { choices } = &option.input {
                    for choice in choices {
                        let config = serde_json::json!({ option.key: choice.value });
                        if let Err(e) = Typed::<G>::config(&config) {
                            problems.push(format!("{}: {config} is refused: {e}", G::NAME));
                        }
                    }
                }
            }
            problems
        }
    }

    #[test]
    fn every_game_describes_every_option_in_words() {
        for name in GAMES {
            let problems = with_game(name, CheckAbout).expect("a listed game");
            assert!(problems.is_empty(), "{name}: {problems:?}");
            let about = game(name).expect("a listed game").about();
            assert!(!about.title.is_empty() && !about.summary.is_empty());
            assert!(about.components.is_object(), "{name} has components");
        }
    }

    #[test]
    fn what_the_server_writes_as_text_is_the_values_it_stands_for() {
        use engine::{Names, Viewer};
        for name in GAMES {
            let game = game(name).expect("a listed game");
            let mut state = game
                .new_state(&game.default_config(), 7)
                .expect("the default config");
            for step in 0..400 {
                let legal = state.legal();
                let Some(text) = legal.get((step * 7919) % legal.len().max(1)) else {
                    break;
                };
                // The acting seat's moves and legal notations, and every viewer's view.
                let json = |write: &dyn Fn(&mut Vec<u8>) -> serde_json::Result<()>| {
                    let mut out = Vec::new();
                    write(&mut out).expect("writes");
                    serde_json::from_slice::<serde_json::Value>(&out).expect("written JSON")
                };
                // The moves and notations byte for byte as serde writes their values.
                let written = |write: &dyn Fn(&mut Vec<u8>) -> serde_json::Result<()>| {
                    let mut out = Vec::new();
                    write(&mut out).expect("writes");
                    String::from_utf8(out).expect("UTF-8")
                };
                let moves = serde_json::to_string(&state.moves()).expect("serializes");
                assert_eq!(written(&|o| state.write_moves_json(o)), moves, "{name}");
                let notations = serde_json::to_string(&legal).expect("serializes");
                assert_eq!(written(&|o| state.write_legal_json(o)), notations, "{name}");
                for viewer in (0..state.seats()).map(Viewer::Seat) {
                    let view = json(&|o| state.write_view_json(viewer, o));
                    assert_eq!(view, state.view_json(viewer), "{name}, step {step}");
                }
                let action = state.parse_action(text).expect("a legal action parses");
                let mut after = state.clone_box();
                after.apply_any(&action).expect("a legal action applies");
                for viewer in (0..state.seats())
                    .map(Viewer::Seat)
                    .chain([Viewer::Spectator])
                {
                    let names = Names::for_viewer(viewer);
                    let values = state.step_events(&action, after.as_ref(), viewer, &names);
                    let mut out = Vec::new();
                    let written = state
                        .write_step_events_json(&action, after.as_ref(), viewer, &names, &mut out)
                        .expect("events serialize");
                    assert!(written, "{name}: `{action}` has events");
                    let parsed: serde_json::Value =
                        serde_json::from_slice(&out).expect("written events are JSON");
                    assert_eq!(
                        parsed,
                        serde_json::to_value(values).expect("events serialize"),
                        "{name}, step {step}, `{action}`, {viewer:?}"
                    );
                }
                state = after;
            }
        }
    }
}

//! Any game behind its action indices and tensors, chosen by name at run time.
use engine::{rng_from_seed, IndexError, Seat, Tensor, Viewer};

/// A game state seen as numbers: what the Python classes hold.
pub trait Table: Send + Sync {
    fn name(&self) -> &'static str;
    fn seats(&self) -> usize;
    fn num_actions(&self) -> usize;
    fn observation_len(&self) -> usize;
    fn max_game_length(&self) -> Option<usize>;
    fn to_act(&self) -> Option<Seat>;
    /// Plays the action with this index.
    ///
    /// # Errors
    /// An index out of range or an illegal action; the state is then unchanged.
    fn apply_index(&mut self, index: usize) -> Result<(), IndexError>;
    /// 1 at each legal index, 0 elsewhere (`out` has [`Table::num_actions`] entries).
    fn legal_mask(&mut self, out: &mut [i8]);
    /// The legal indices, ascending.
    fn legal_indices(&mut self) -> &[usize];
    /// What `viewer` sees, as the flat observation (`out` has
    /// [`Table::observation_len`] entries).
    fn observe(&self, viewer: Viewer, out: &mut [f32]);
    /// Each seat's reward once the game is over (1 for a sole winner, 1/k for a k-way
    /// shared win, 0 otherwise).
    fn rewards(&self) -> Option<Vec<f64>>;
    fn scores(&self) -> Option<Vec<i64>>;
    /// Scores and places once the game is over.
    fn outcome(&self) -> Option<engine::Outcome>;
    /// Plays the action with this index and tells what each viewer may know of the move:
    /// for each seat in turn, then the spectator, the move's events in words
    /// ([`engine::Present::events`], the viewer named "you") and whether that viewer may
    /// know the whole action (its own, or one that hides nothing from it).
    ///
    /// # Errors
    /// As [`Table::apply_index`]; the state is then unchanged.
    fn apply_told(&mut self, index: usize) -> Result<Vec<(String, bool)>, IndexError>;
    /// The text board `viewer` sees.
    fn render(&self, viewer: Viewer) -> String;
    /// The notation of the action with this index.
    fn action_text(&self, index: usize) -> Option<String>;
    /// The legal actions as the game describes them ([`engine::Present::describe`]), each
    /// with its index.
    fn moves(&self) -> Vec<(usize, engine::LegalMove)>;
    /// The index of an action in notation.
    ///
    /// # Errors
    /// Text that is no action, or an action this table can never play.
    fn parse_action(&self, text: &str) -> Result<usize, String>;
    /// A state `seat` cannot tell from this one, its hidden parts drawn from `seed`.
    fn determinize(&self, seat: Seat, seed: u64) -> Box<dyn Table>;
    fn rounds(&self) -> u32;
    fn clone_box(&self) -> Box<dyn Table>;
    /// Whether two tables hold the same state.
    fn same_state(&self, other: &dyn Table) -> bool;
    fn as_any(&self) -> &dyn std::any::Any;
    /// The state file (`{"game", "format", "state"}`, docs/formats.md) as JSON text.
    fn state_file(&self) -> String;
    /// The index `bot` chooses for the seat to act; `None` once the game is over.
    ///
    /// # Errors
    /// A bot made for another game, or a choice that has no index (neither happens with
    /// a bot from [`catalog::bot`] for this game).
    fn bot_choice(&self, bot: &mut dyn bots::DynBot) -> Result<Option<usize>, String>;
}

/// A [`Table`] of one concrete game, with its reusable buffers.
#[derive(Clone)]
pub struct Typed<G: Tensor> {
    game: G,
    scratch: Vec<G::Action>,
    indices: Vec<usize>,
}

impl<G: Tensor> Typed<G> {
    pub fn new(game: G) -> Self {
        Typed {
            game,
            scratch: Vec::new(),
            indices: Vec::new(),
        }
    }
}

impl<G: Tensor> Table for Typed<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> usize {
        self.game.seats()
    }
    fn num_actions(&self) -> usize {
        G::num_distinct_actions(self.game.config())
    }
    fn observation_len(&self) -> usize {
        G::observation_len(self.game.config())
    }
    fn max_game_length(&self) -> Option<usize> {
        G::max_game_length(self.game.config())
    }
    fn to_act(&self) -> Option<Seat> {
        self.game.to_act()
    }
    fn apply_index(&mut self, index: usize) -> Result<(), IndexError> {
        self.game.apply_index(index)
    }
    fn legal_mask(&mut self, out: &mut [i8]) {
        self.game.legal_mask(&mut self.scratch, out);
    }
    fn legal_indices(&mut self) -> &[usize] {
        self.game
            .legal_indices(&mut self.scratch, &mut self.indices);
        &self.indices
    }
    fn observe(&self, viewer: Viewer, out: &mut [f32]) {
        self.game.observe(viewer, out);
    }
    fn rewards(&self) -> Option<Vec<f64>> {
        let outcome = self.game.outcome()?;
        Some((0..self.seats()).map(|s| outcome.reward(s)).collect())
    }
    fn scores(&self) -> Option<Vec<i64>> {
        self.game.outcome().map(|o| o.scores)
    }
    fn outcome(&self) -> Option<engine::Outcome> {
        self.game.outcome()
    }
    fn apply_told(&mut self, index: usize) -> Result<Vec<(String, bool)>, IndexError> {
        let before = self.game.clone();
        self.game.apply_index(index)?;
        let Some(action) = G::index_action(self.game.config(), index) else {
            return Ok(Vec::new());
        };
        let actor = before.to_act();
        let whole = action.to_string();
        let viewers = (0..self.seats())
            .map(Viewer::Seat)
            .chain(std::iter::once(Viewer::Spectator));
        Ok(viewers
            .map(|viewer| {
                let names = engine::Names::for_viewer(viewer);
                let told: Vec<String> = G::events(&before, action, &self.game, viewer)
                    .iter()
                    .map(|e| engine::Event::text(e, &names))
                    .collect();
                let known = viewer.seat().is_some_and(|s| Some(s) == actor)
                    || before.public_action(action, viewer) == whole;
                (told.join("; "), known)
            })
            .collect())
    }
    fn render(&self, viewer: Viewer) -> String {
        self.game.view(viewer).to_string()
    }
    fn action_text(&self, index: usize) -> Option<String> {
        G::index_action(self.game.config(), index).map(|a| a.to_string())
    }
    fn moves(&self) -> Vec<(usize, engine::LegalMove)> {
        let mut legal = Vec::new();
        self.game.legal_actions(&mut legal);
        legal
            .into_iter()
            .filter_map(|a| {
                let index = G::action_index(self.game.config(), a)?;
                Some((
                    index,
                    engine::LegalMove {
                        action: a.to_string(),
                        text: self.game.describe(a),
                    },
                ))
            })
            .collect()
    }
    fn parse_action(&self, text: &str) -> Result<usize, String> {
        let action: G::Action = text.trim().parse().map_err(|e| format!("{e}"))?;
        G::action_index(self.game.config(), action)
            .ok_or_else(|| format!("`{action}` can never be played at this table"))
    }
    fn determinize(&self, seat: Seat, seed: u64) -> Box<dyn Table> {
        let mut rng = rng_from_seed(seed);
        Box::new(Typed::new(self.game.determinize(seat, &mut rng)))
    }
    fn rounds(&self) -> u32 {
        self.game.rounds()
    }
    fn clone_box(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }
    fn same_state(&self, other: &dyn Table) -> bool {
        other
            .as_any()
            .downcast_ref::<Typed<G>>()
            .is_some_and(|o| o.game == self.game)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn state_file(&self) -> String {
        engine::DynState::state_json(&self.game).to_string()
    }
    fn bot_choice(&self, bot: &mut dyn bots::DynBot) -> Result<Option<usize>, String> {
        if self.game.to_act().is_none() {
            return Ok(None);
        }
        let action = bot
            .choose(&self.game)
            .and_then(|action| action.get::<G::Action>())
            .ok_or_else(|| {
                format!(
                    "the bot `{}` plays another game, not {}",
                    bot.name(),
                    G::NAME
                )
            })?;
        G::action_index(self.game.config(), action)
            .map(Some)
            .ok_or_else(|| format!("`{action}` can never be played at this table"))
    }
}

/// A new game of `G` from options given as JSON.
///
/// # Errors
/// Options that do not parse or do not make a valid game.
pub fn make<G: Tensor>(
    options: &serde_json::Value,
    seed: u64,
) -> Result<Box<dyn Table>, engine::EngineError> {
    let config = engine::Typed::<G>::config(options)?;
    Ok(Box::new(Typed::new(G::new(&config, seed)?)))
}

struct Open<'a>(&'a serde_json::Value, u64);

impl catalog::Visit for Open<'_> {
    type Out = Result<Box<dyn Table>, engine::EngineError>;
    fn visit<G: Tensor>(self) -> Self::Out {
        make::<G>(self.0, self.1)
    }
}

struct Load<'a>(&'a engine::StateFile);

impl catalog::Visit for Load<'_> {
    type Out = Result<Box<dyn Table>, engine::StateError>;
    fn visit<G: Tensor>(self) -> Self::Out {
        Ok(Box::new(Typed::new(engine::load_state_file::<G>(self.0)?)))
    }
}

/// A state from a state file's JSON text (`{"game", "format", "state"}`), brought up to
/// its game's format and checked.
///
/// # Errors
/// Text that is no state file, or a state that breaks the rules' invariants
/// (`tabletop.StateError`, `.code` `state/...`); an unknown game (`tabletop.ConfigError`,
/// `game/unknown`).
pub fn load(text: &str) -> pyo3::PyResult<Box<dyn Table>> {
    let file: engine::StateFile = serde_json::from_str(text).map_err(|e| {
        crate::errors::coded::<crate::errors::StateError>(
            format!("not a state file: {e}"),
            "state/malformed",
        )
    })?;
    catalog::with_game(&file.game, Load(&file))
        .map_err(crate::errors::engine_error)?
        .map_err(|e| crate::errors::engine_error(e.into()))
}

/// A new game by name (as the CLI spells it) from options given as JSON.
///
/// # Errors
/// An unknown game, or options that do not make a valid game.
pub fn open(
    name: &str,
    options: &serde_json::Value,
    seed: u64,
) -> Result<Box<dyn Table>, engine::EngineError> {
    catalog::with_game(name, Open(options, seed))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_open_by_name_and_refuse_bad_options() {
        let mut t = open("Drop-Site", &serde_json::json!({"players": 3}), 1).expect("valid");
        assert_eq!((t.name(), t.seats()), ("dropsite", 3));
        let mut mask = vec![0; t.num_actions()];
        t.legal_mask(&mut mask);
        let from_mask: Vec<usize> = (0..mask.len()).filter(|&i| mask[i] == 1).collect();
        assert_eq!(t.legal_indices(), from_mask.as_slice());
        let first = from_mask[0];
        assert_eq!(
            t.parse_action(&t.action_text(first).expect("in range")),
            Ok(first)
        );
        let unknown = open("chess", &serde_json::json!({}), 1)
            .err()
            .expect("unknown");
        assert!(unknown.to_string().contains("chess"), "{unknown}");
        let bad = open("dropsite", &serde_json::json!({"players": 9}), 1)
            .err()
            .expect("bad");
        assert!(bad.to_string().contains("players must be 2 to 4"), "{bad}");
    }

    #[test]
    fn a_refused_index_changes_nothing() {
        let mut t = open("distopia", &serde_json::json!({}), 2).expect("valid");
        let before = t.clone_box();
        let mut mask = vec![0; t.num_actions()];
        t.legal_mask(&mut mask);
        let illegal = mask
            .iter()
            .position(|&m| m == 0)
            .expect("some action is illegal");
        assert!(t.apply_index(illegal).is_err());
        assert!(t.apply_index(t.num_actions()).is_err());
        assert!(t.same_state(before.as_ref()));
    }
}

//! Games as numbers, for learning code (the Python bindings, PettingZoo, OpenSpiel).
//!
//! A [`Tensor`] game gives every action that can ever be legal a fixed index below
//! [`Tensor::num_distinct_actions`], a legal-action mask over those indices, and a flat
//! `f32` observation of one viewer's [`GameRules::View`]. The observation is computed from the
//! view alone ([`Tensor::encode`] never sees the state), so it cannot hold anything the
//! viewer may not see. Each game documents its layout in `docs/python.md`.
//!
//! [`check`] is the harness each game runs in its tests: index round trips for every legal
//! action, masks that match the legal list, and observations unchanged by determinizing
//! for the viewer yet different whenever the viewer's view differs.
use crate::{rng_from_seed, Game, IllegalAction, Viewer};
use rand::seq::IndexedRandom;
use thiserror::Error;

/// An action index that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IndexError {
    #[error("action index {index} is out of range: this game has indices 0 to {}", .count - 1)]
    OutOfRange { index: usize, count: usize },
    #[error(transparent)]
    Illegal(#[from] IllegalAction),
}

/// Fixed action indices and observation tensors for a game.
pub trait Tensor: Game {
    /// How many action indices a game with `config` has.
    fn num_distinct_actions(config: &Self::Config) -> usize;

    /// The index of `action`, `None` for an action that can never be legal with `config`.
    fn action_index(config: &Self::Config, action: Self::Action) -> Option<usize>;

    /// The action with index `index`, `None` at or past [`Tensor::num_distinct_actions`].
    fn index_action(config: &Self::Config, index: usize) -> Option<Self::Action>;

    /// The length of the flat observation with `config`.
    fn observation_len(config: &Self::Config) -> usize;

    /// Writes the observation of `view` into `out` (of [`Tensor::observation_len`]),
    /// setting every entry.
    fn encode(config: &Self::Config, view: &Self::View, out: &mut [f32]);

    /// Whether two views of one viewer tell it the same. The encoding may drop what
    /// carries no information (the order of a face-down pile, say); [`check`] demands
    /// different tensors for any two views this calls different.
    fn same_information(a: &Self::View, b: &Self::View) -> bool {
        a == b
    }

    /// A bound on the number of actions in a game with `config`, when the rules give one.
    fn max_game_length(_config: &Self::Config) -> Option<usize> {
        None
    }

    /// Fills `mask` (of [`Tensor::num_distinct_actions`]) with 1 at every legal index and
    /// 0 elsewhere (`i8`, as numpy's masks are), and leaves the legal actions in `scratch`.
    /// A game may write the mask as it lists its actions, where each one's index is known
    /// without a `match` on the action.
    fn legal_mask(&self, scratch: &mut Vec<Self::Action>, mask: &mut [i8]) {
        mask.fill(0);
        self.legal_actions(scratch);
        for &action in scratch.iter() {
            if let Some(slot) =
                Self::action_index(self.config(), action).and_then(|i| mask.get_mut(i))
            {
                *slot = 1;
            }
        }
    }

    /// The legal action indices, ascending.
    fn legal_indices(&self, scratch: &mut Vec<Self::Action>, out: &mut Vec<usize>) {
        self.legal_actions(scratch);
        out.clear();
        out.extend(
            scratch
                .iter()
                .filter_map(|&a| Self::action_index(self.config(), a)),
        );
        out.sort_unstable();
    }

    /// Writes what `viewer` sees into `out`, through [`GameRules::view`]. A game may read the
    /// same numbers from its state instead, to spare building the view on every step;
    /// [`check`] holds them equal to [`Tensor::encode`] of the view.
    fn observe(&self, viewer: Viewer, out: &mut [f32]) {
        Self::encode(self.config(), &self.view(viewer), out);
    }

    /// What `viewer` sees, as a new vector.
    fn observation(&self, viewer: Viewer) -> Vec<f32> {
        let mut out = vec![0.0; Self::observation_len(self.config())];
        self.observe(viewer, &mut out);
        out
    }

    /// Plays the action with index `index`.
    ///
    /// # Errors
    /// An index out of range, or an illegal action; the state is then unchanged.
    fn apply_index(&mut self, index: usize) -> Result<(), IndexError> {
        let count = Self::num_distinct_actions(self.config());
        let action = Self::index_action(self.config(), index)
            .ok_or(IndexError::OutOfRange { index, count })?;
        Ok(self.apply(action).map_err(IllegalAction::erase)?)
    }
}

/// Writes a flat observation section by section, each handed out zeroed.
///
/// The whole observation is zeroed at once when the writer is made (one long fill costs
/// less than a short one per section), so an encoder only sets the entries that are not 0.
pub struct Writer<'a> {
    out: &'a mut [f32],
    at: usize,
}

impl<'a> Writer<'a> {
    /// A writer at the start of `out`, which it zeroes.
    #[inline]
    pub fn new(out: &'a mut [f32]) -> Self {
        out.fill(0.0);
        Writer { out, at: 0 }
    }

    /// The next `n` entries, zeroed (nothing wrote them since the writer was made).
    ///
    /// # Panics
    /// When the observation is shorter than its sections (a bug in the game's encoder).
    #[inline]
    pub fn section(&mut self, n: usize) -> &mut [f32] {
        let s = &mut self.out[self.at..self.at + n];
        self.at += n;
        s
    }

    /// The next entry.
    #[inline]
    pub fn push(&mut self, x: f32) {
        self.section(1)[0] = x;
    }

    /// The next `n` entries with a 1 at `hot` (none when `hot` is `None` or past `n`).
    #[inline]
    pub fn one_hot(&mut self, n: usize, hot: Option<usize>) {
        let s = self.section(n);
        if let Some(x) = hot.and_then(|i| s.get_mut(i)) {
            *x = 1.0;
        }
    }

    /// How many entries have been written.
    pub fn written(&self) -> usize {
        self.at
    }
}

/// What [`check`] saw, for tests that assert on coverage.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub steps: u64,
    /// Viewer/determinization pairs where the view differed and so did the tensor.
    pub distinguished: u64,
}

/// Plays `games` seeded random games with `config` and panics at the first broken promise:
/// indices round trip, masks match the legal list, observations have the declared length
/// and finite entries, a seat's observation is unchanged when what it cannot see is
/// resampled, and two different views of one seat never encode to the same tensor.
pub fn check<G: Tensor>(config: &G::Config, games: u64, first_seed: u64) -> Summary {
    let mut summary = Summary::default();
    for seed in first_seed..first_seed + games {
        if let Err(e) = check_game::<G>(config, seed, &mut summary) {
            panic!(
                "{} tensor check failed (config {config:?}, seed {seed}): {e}",
                G::NAME
            );
        }
    }
    summary
}

fn check_game<G: Tensor>(
    config: &G::Config,
    seed: u64,
    summary: &mut Summary,
) -> Result<(), String> {
    let count = G::num_distinct_actions(config);
    let len = G::observation_len(config);
    let mut game = G::new(config, seed).map_err(|e| format!("new: {e}"))?;
    let mut rng = rng_from_seed(seed ^ 0x7E45_0A11);
    let (mut legal, mut indices) = (Vec::new(), Vec::new());
    let mut mask = vec![0i8; count];
    let mut obs = vec![f32::NAN; len];
    let mut other_obs = vec![f32::NAN; len];
    for step in 0..100_000u64 {
        let at = |e: String| format!("step {step}: {e}");
        for index in [count, count + 7] {
            if G::index_action(config, index).is_some() {
                return Err(at(format!(
                    "index {index} is past {count} but names an action"
                )));
            }
        }
        game.legal_actions(&mut legal);
        for &action in &legal {
            let index = G::action_index(config, action)
                .ok_or_else(|| at(format!("legal `{action}` has no index")))?;
            if index >= count {
                return Err(at(format!("`{action}` has index {index}, past {count}")));
            }
            if G::index_action(config, index) != Some(action) {
                return Err(at(format!(
                    "index {index} of `{action}` names another action"
                )));
            }
        }
        game.legal_mask(&mut Vec::new(), &mut mask);
        if mask.iter().map(|&m| m as usize).sum::<usize>() != legal.len() {
            return Err(at(
                "the mask does not count the legal actions (two share an index?)".into(),
            ));
        }
        game.legal_indices(&mut Vec::new(), &mut indices);
        if indices.iter().any(|&i| mask[i] != 1) || indices.len() != legal.len() {
            return Err(at("legal_indices disagrees with the mask".into()));
        }
        for viewer in (0..game.seats())
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
        {
            obs.fill(f32::NAN);
            game.observe(viewer, &mut obs);
            if let Some(i) = obs.iter().position(|x| !x.is_finite()) {
                return Err(at(format!(
                    "{viewer:?}'s observation entry {i} is not set or not finite"
                )));
            }
            // A game may read its observation from the state (`observe`) rather than
            // build the view: the numbers must be those of the view.
            G::encode(config, &game.view(viewer), &mut other_obs);
            if other_obs != obs {
                return Err(at(format!(
                    "{viewer:?}'s observation differs from the encoding of its view"
                )));
            }
            let Some(seat) = viewer.seat() else { continue };
            let resampled = game.determinize(seat, &mut rng);
            resampled.observe(viewer, &mut other_obs);
            if other_obs != obs {
                return Err(at(format!(
                    "seat {seat}'s observation changes when what it cannot see is resampled"
                )));
            }
            // Resampling for another seat changes what this seat holds privately: a
            // different view must give a different tensor.
            for other in (0..game.seats()).filter(|&o| o != seat) {
                let resampled = game.determinize(other, &mut rng);
                if !G::same_information(&resampled.view(viewer), &game.view(viewer)) {
                    resampled.observe(viewer, &mut other_obs);
                    if other_obs == obs {
                        return Err(at(format!(
                            "two different views of seat {seat} encode to the same tensor"
                        )));
                    }
                    summary.distinguished += 1;
                }
            }
        }
        let Some(_) = game.to_act() else {
            return if legal.is_empty() {
                Ok(())
            } else {
                Err(at("actions offered after the end".into()))
            };
        };
        let action = *legal
            .choose(&mut rng)
            .ok_or_else(|| at("no legal action".into()))?;
        let index = G::action_index(config, action).unwrap_or(count);
        game.apply_index(index)
            .map_err(|e| at(format!("index {index} refused: {e}")))?;
        summary.steps += 1;
    }
    Err("the game did not end within 100000 actions".into())
}

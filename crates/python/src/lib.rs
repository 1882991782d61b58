//! The Python module `tabletop` (its native part, `tabletop._native`): every game as a
//! [`State`] with fixed action indices, a legal-action mask and observation tensors.
//!
//! Build and install it with `pip install ./crates/python` (maturin); the pure-Python
//! parts (`tabletop.pettingzoo`, `tabletop.openspiel`, `tabletop.bench`) live in
//! `crates/python/python/tabletop`. The step path passes integers and numpy arrays only.
pub mod batch;
pub mod errors;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
pub mod table;

use engine::{Seat, Viewer};
use errors::{engine_error, index_error};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use table::Table;

/// A game in progress. Seats are numbered from 0 here, as in JSON.
#[pyclass(module = "tabletop._native")]
pub struct State {
    table: Box<dyn Table>,
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

impl State {
    fn viewer(&self, seat: Option<Seat>) -> PyResult<Viewer> {
        match seat {
            None => Ok(Viewer::Spectator),
            Some(s) if s < self.table.seats() => Ok(Viewer::Seat(s)),
            Some(s) => Err(PyIndexError::new_err(format!(
                "seat {s} is not at this table: seats are 0 to {}",
                self.table.seats() - 1
            ))),
        }
    }
}

#[pymethods]
impl State {
    /// `State(game, seed=0, options=None)`: a new game of `game` ("dropsite", "distopia",
    /// "euphoria") with the options its config takes (see docs/formats.md).
    #[new]
    #[pyo3(signature = (game, seed = 0, options = None))]
    fn new(game: &str, seed: u64, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let options: serde_json::Value = match options {
            Some(d) => pythonize::depythonize(d.as_any()).map_err(value_error)?,
            None => serde_json::json!({}),
        };
        let table = table::open(game, &options, seed).map_err(engine_error)?;
        Ok(State { table })
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.table.name()
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.table.seats()
    }

    /// How many action indices there are (the length of the mask).
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.table.num_actions()
    }

    /// The length of an observation.
    #[getter]
    fn observation_len(&self) -> usize {
        self.table.observation_len()
    }

    /// A bound on the number of actions in a game, when the rules give one.
    #[getter]
    fn max_game_length(&self) -> Option<usize> {
        self.table.max_game_length()
    }

    /// The seat to act, `None` once the game is over.
    fn current_player(&self) -> Option<Seat> {
        self.table.to_act()
    }

    fn is_over(&self) -> bool {
        self.table.to_act().is_none()
    }

    /// Plays the action with this index; raises `tabletop.IllegalAction` (a ValueError;
    /// `.code` names the rule, `dropsite/not_lower`) if it is not legal, and ValueError if
    /// the index is out of range. The state is then unchanged.
    fn apply(&mut self, index: usize) -> PyResult<()> {
        self.table.apply_index(index).map_err(index_error)
    }

    /// Plays the action with this index (raising as `apply`, state unchanged, if it is not
    /// legal)
    /// and tells what each viewer may know of the move: a list with, for each seat and
    /// then the spectator, `(events, known)`: the move's events in words as that viewer
    /// may know them (the viewer named "you"), and whether it may know the whole action.
    fn apply_told(&mut self, index: usize) -> PyResult<Vec<(String, bool)>> {
        self.table.apply_told(index).map_err(index_error)
    }

    /// Each seat's place once the game is over (1 for first; shared places repeat);
    /// `None` while it runs.
    fn places(&self) -> Option<Vec<u8>> {
        self.table.outcome().map(|o| o.places)
    }

    /// The legal action indices, ascending.
    fn legal_actions(&mut self) -> Vec<usize> {
        self.table.legal_indices().to_vec()
    }

    /// An int8 array with 1 at each legal index.
    fn legal_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut mask = vec![0; self.table.num_actions()];
        self.table.legal_mask(&mut mask);
        PyArray1::from_vec(py, mask)
    }

    /// What `seat` sees (a spectator for `None`), as a float32 array.
    #[pyo3(signature = (seat = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Option<Seat>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let viewer = self.viewer(seat)?;
        let mut out = vec![0.0f32; self.table.observation_len()];
        self.table.observe(viewer, &mut out);
        Ok(PyArray1::from_vec(py, out))
    }

    /// Writes what `seat` sees into `out`, a float32 array of `observation_len`.
    #[pyo3(signature = (out, seat = None))]
    fn observation_into(&self, out: &Bound<'_, PyArray1<f32>>, seat: Option<Seat>) -> PyResult<()> {
        let viewer = self.viewer(seat)?;
        let mut out = out.try_readwrite().map_err(value_error)?;
        let out = out.as_slice_mut().map_err(value_error)?;
        if out.len() != self.table.observation_len() {
            return Err(value_error(format!(
                "the array has {} entries, the observation {}",
                out.len(),
                self.table.observation_len()
            )));
        }
        self.table.observe(viewer, out);
        Ok(())
    }

    /// Each seat's reward once the game is over (1 for a sole winner, 1/k each for k
    /// sharing first place, 0 otherwise); `None` while it runs.
    fn rewards(&self) -> Option<Vec<f64>> {
        self.table.rewards()
    }

    /// Each seat's final score; `None` while the game runs.
    fn scores(&self) -> Option<Vec<i64>> {
        self.table.scores()
    }

    /// Rounds (or turns) played so far.
    fn rounds(&self) -> u32 {
        self.table.rounds()
    }

    /// The text board `seat` sees (a spectator's for `None`).
    #[pyo3(signature = (seat = None))]
    fn render(&self, seat: Option<Seat>) -> PyResult<String> {
        Ok(self.table.render(self.viewer(seat)?))
    }

    /// The notation of the action with this index.
    fn action_to_string(&self, index: usize) -> PyResult<String> {
        self.table.action_text(index).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "action index {index} is out of range: this game has indices 0 to {}",
                self.table.num_actions() - 1
            ))
        })
    }

    /// The index of an action written in notation; `tabletop.ParseError` (a ValueError,
    /// `.code` `action/malformed`) for text that is no move of this table.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        self.table
            .parse_action(text)
            .map_err(|e| errors::coded::<errors::ParseError>(e, "action/malformed"))
    }

    /// The legal actions as the game describes them for the seat to act: a list of dicts
    /// `{"index", "action", "label", "from", "to"}` (the label says in words what the move
    /// does here; `from`/`to` name board parts, or are absent).
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        self.table
            .moves()
            .into_iter()
            .map(|(index, m)| {
                let mut value = serde_json::to_value(&m).map_err(value_error)?;
                if let serde_json::Value::Object(map) = &mut value {
                    map.insert("index".into(), index.into());
                }
                pythonize::pythonize(py, &value).map_err(value_error)
            })
            .collect()
    }

    /// A state `seat` cannot tell from this one: what it cannot see redrawn from `seed`.
    fn determinize(&self, seat: Seat, seed: u64) -> PyResult<State> {
        self.viewer(Some(seat))?;
        Ok(State {
            table: self.table.determinize(seat, seed),
        })
    }

    fn clone(&self) -> State {
        State {
            table: self.table.clone_box(),
        }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// The state file as JSON text (`{"game", "format", "state"}`, docs/formats.md):
    /// everything the game is, its random stream included. `tabletop.load_state` reads it.
    fn to_json(&self) -> String {
        self.table.state_file()
    }

    /// Pickles through the state file.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let load = py.import("tabletop._native")?.getattr("load_state")?;
        Ok((load, (self.table.state_file(),)))
    }

    fn __eq__(&self, other: &State) -> bool {
        self.table.same_state(other.table.as_ref())
    }

    fn __str__(&self) -> String {
        self.table.render(Viewer::Spectator)
    }

    fn __repr__(&self) -> String {
        format!(
            "<tabletop.State {} to_act={:?}>",
            self.table.name(),
            self.table.to_act()
        )
    }
}

/// `Batch(game, num_envs, seed=0, options=None, max_steps=None, threads=1, autoreset=True)`: `num_envs`
/// games of one table stepped together in Rust, the Python lock released while they run.
///
/// Every call fills the same numpy arrays in place (copy what you keep): `obs`
/// (float32 `[N, observation_len]`, the seat to act's own view), `mask` (int8 `[N,
/// num_distinct_actions]`), `rewards` (float32 `[N, num_players]`, by seat, nonzero only in
/// a step that ended a game), `terminated`, `truncated` (bool `[N]`), `to_act` (int64
/// `[N]`) and `actions` (int64 `[N]`, what each game played). A game that ends is
/// replaced at once by its row's next game (auto-reset), so `obs`, `mask` and `to_act`
/// always show a game waiting for a move. With `autoreset=False` a finished game stays as
/// it ended (`to_act` -1, its mask all 0, later moves ignored) until `reset`.
#[pyclass(module = "tabletop._native")]
pub struct Batch {
    inner: Box<dyn batch::Batched>,
    pool: Option<rayon::ThreadPool>,
    game: &'static str,
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<i8>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    to_act: Py<PyArray1<i64>>,
    actions: Py<PyArray1<i64>>,
}

type StepArrays<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i64>>,
);

type ResetArrays<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray1<i64>>,
);

impl Batch {
    /// Runs `f` on the batch and its arrays, the Python lock released.
    fn with_rows<'py>(
        &mut self,
        py: Python<'py>,
        f: impl FnOnce(
                &mut dyn batch::Batched,
                batch::Rows<'_>,
                Option<&rayon::ThreadPool>,
            ) -> Result<(), String>
            + Send,
    ) -> PyResult<()> {
        let mut obs = self.obs.bind(py).try_readwrite().map_err(value_error)?;
        let mut mask = self.mask.bind(py).try_readwrite().map_err(value_error)?;
        let mut rewards = self.rewards.bind(py).try_readwrite().map_err(value_error)?;
        let mut terminated = self
            .terminated
            .bind(py)
            .try_readwrite()
            .map_err(value_error)?;
        let mut truncated = self
            .truncated
            .bind(py)
            .try_readwrite()
            .map_err(value_error)?;
        let mut to_act = self.to_act.bind(py).try_readwrite().map_err(value_error)?;
        let mut actions = self.actions.bind(py).try_readwrite().map_err(value_error)?;
        let rows = batch::Rows {
            obs: obs.as_slice_mut().map_err(value_error)?,
            mask: mask.as_slice_mut().map_err(value_error)?,
            rewards: rewards.as_slice_mut().map_err(value_error)?,
            terminated: terminated.as_slice_mut().map_err(value_error)?,
            truncated: truncated.as_slice_mut().map_err(value_error)?,
            to_act: to_act.as_slice_mut().map_err(value_error)?,
            actions: actions.as_slice_mut().map_err(value_error)?,
        };
        let inner = &mut *self.inner;
        let pool = self.pool.as_ref();
        py.detach(move || f(inner, rows, pool)).map_err(value_error)
    }

    fn arrays<'py>(&self, py: Python<'py>) -> StepArrays<'py> {
        (
            self.obs.bind(py).clone(),
            self.mask.bind(py).clone(),
            self.rewards.bind(py).clone(),
            self.terminated.bind(py).clone(),
            self.truncated.bind(py).clone(),
            self.to_act.bind(py).clone(),
        )
    }

    fn row(&self, i: usize) -> PyResult<usize> {
        if i < self.inner.games() {
            Ok(i)
        } else {
            Err(PyIndexError::new_err(format!(
                "game {i} is not in this batch: games are 0 to {}",
                self.inner.games() - 1
            )))
        }
    }
}

#[pymethods]
impl Batch {
    // The Python keywords, one parameter each.
    #[allow(clippy::too_many_arguments)]
    #[new]
    #[pyo3(signature = (game, num_envs, seed = 0, options = None, max_steps = None, threads = 1, autoreset = true))]
    fn new(
        py: Python<'_>,
        game: &str,
        num_envs: usize,
        seed: u64,
        options: Option<&Bound<'_, PyDict>>,
        max_steps: Option<u64>,
        threads: usize,
        autoreset: bool,
    ) -> PyResult<Self> {
        let options: serde_json::Value = match options {
            Some(d) => pythonize::depythonize(d.as_any()).map_err(value_error)?,
            None => serde_json::json!({}),
        };
        if max_steps == Some(0) {
            return Err(value_error(
                "max_steps must be at least 1 (or None: no cap)",
            ));
        }
        if threads == 0 {
            return Err(value_error("threads must be at least 1"));
        }
        let inner = batch::open(game, &options, num_envs, seed, max_steps, autoreset)
            .map_err(value_error)?;
        let pool = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(value_error)?,
            )
        } else {
            None
        };
        let d = inner.dims();
        let n = num_envs;
        let name = table::open(game, &options, 0).map_err(engine_error)?.name();
        let mut batch = Batch {
            inner,
            pool,
            game: name,
            obs: PyArray2::zeros(py, [n, d.observation], false).unbind(),
            mask: PyArray2::zeros(py, [n, d.actions], false).unbind(),
            rewards: PyArray2::zeros(py, [n, d.players], false).unbind(),
            terminated: PyArray1::from_vec(py, vec![false; n]).unbind(),
            truncated: PyArray1::from_vec(py, vec![false; n]).unbind(),
            to_act: PyArray1::zeros(py, n, false).unbind(),
            actions: PyArray1::zeros(py, n, false).unbind(),
        };
        batch.reset(py, Some(seed))?;
        Ok(batch)
    }

    /// Starts a new game in every row (game k of row i seeded from `seed`, i and k; without
    /// a seed each row's next game) and returns `(obs, mask, to_act)`.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<ResetArrays<'py>> {
        self.with_rows(py, move |b, rows, _| b.reset(seed, rows))?;
        let (obs, mask, _, _, _, to_act) = self.arrays(py);
        Ok((obs, mask, to_act))
    }

    /// Plays `actions` (one legal index per game, int64) and returns `(obs, mask, rewards,
    /// terminated, truncated, to_act)`. Raises ValueError, stepping no game, if any action
    /// is not legal.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepArrays<'py>> {
        let actions = actions.as_slice().map_err(value_error)?;
        self.inner.check(actions).map_err(value_error)?;
        self.with_rows(py, move |b, rows, pool| {
            b.step(batch::Moves::Given(actions), rows, pool)
        })?;
        Ok(self.arrays(py))
    }

    /// Plays a uniformly random legal action in every game (drawn in Rust from each row's
    /// own seeded stream; `actions` holds them) and returns what `step` does.
    fn step_random<'py>(&mut self, py: Python<'py>) -> PyResult<StepArrays<'py>> {
        self.with_rows(py, |b, rows, pool| b.step(batch::Moves::Random, rows, pool))?;
        Ok(self.arrays(py))
    }

    /// What `seat` (a spectator for None) sees of game `i`, written into `out` (float32,
    /// `observation_len`).
    #[pyo3(signature = (i, out, seat = None))]
    fn observation_into(
        &self,
        i: usize,
        out: &Bound<'_, PyArray1<f32>>,
        seat: Option<Seat>,
    ) -> PyResult<()> {
        let i = self.row(i)?;
        let d = self.inner.dims();
        let viewer = match seat {
            None => Viewer::Spectator,
            Some(s) if s < d.players => Viewer::Seat(s),
            Some(s) => {
                return Err(PyIndexError::new_err(format!(
                    "seat {s} is not at this table: seats are 0 to {}",
                    d.players - 1
                )))
            }
        };
        let mut out = out.try_readwrite().map_err(value_error)?;
        let out = out.as_slice_mut().map_err(value_error)?;
        if out.len() != d.observation {
            return Err(value_error(format!(
                "the array has {} entries, the observation {}",
                out.len(),
                d.observation
            )));
        }
        self.inner.observe(i, viewer, out);
        Ok(())
    }

    /// A copy of game `i` as a `State`.
    fn state(&self, i: usize) -> PyResult<State> {
        Ok(State {
            table: self.inner.table(self.row(i)?),
        })
    }

    /// Actions played so far in game `i`'s current game.
    fn steps(&self, i: usize) -> PyResult<u64> {
        Ok(self.inner.steps(self.row(i)?))
    }

    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }
    #[getter]
    fn num_envs(&self) -> usize {
        self.inner.games()
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.inner.dims().players
    }
    #[getter]
    fn observation_len(&self) -> usize {
        self.inner.dims().observation
    }
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.inner.dims().actions
    }
    #[getter]
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.obs.bind(py).clone()
    }
    #[getter]
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        self.mask.bind(py).clone()
    }
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.rewards.bind(py).clone()
    }
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.bind(py).clone()
    }
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }
    #[getter]
    fn to_act<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.to_act.bind(py).clone()
    }
    #[getter]
    fn actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.actions.bind(py).clone()
    }

    fn __repr__(&self) -> String {
        format!("<tabletop.Batch {} x{}>", self.game, self.inner.games())
    }
}

/// A state from its state file's JSON text (what `State.to_json` writes), checked against
/// the game's rules.
#[pyfunction]
fn load_state(text: &str) -> PyResult<State> {
    Ok(State {
        table: table::load(text)?,
    })
}

/// `Bot(level, seed=0)`: one of the built-in bots (`random`, `heuristic`, `pimc`, `easy`,
/// `medium`, `hard`, `ismcts`, `ismcts:N`: `bots::BotSpec::NAMED`) choosing for the seat to act of any `State`.
/// It sees only that seat's view (the bots resample what the seat cannot see). Give each
/// seat its own bot: a bot remembers the turn it is playing.
#[pyclass(module = "tabletop._native")]
pub struct Bot {
    spec: bots::BotSpec,
    seed: u64,
    made: Option<(&'static str, std::sync::Mutex<Box<dyn bots::DynBot>>)>,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (level, seed = 0))]
    fn new(level: &str, seed: u64) -> PyResult<Self> {
        let spec: bots::BotSpec = level.parse().map_err(value_error)?;
        if spec == bots::BotSpec::Human {
            return Err(value_error(format!(
                "`human` is not a bot: choose {}",
                bots::BotSpec::bot_choices()
            )));
        }
        Ok(Bot {
            spec,
            seed,
            made: None,
        })
    }

    /// The action index the bot plays for the seat to act; `None` once the game is over.
    /// The Python lock is released while it searches.
    fn choose(&mut self, py: Python<'_>, state: &State) -> PyResult<Option<usize>> {
        let name = state.table.name();
        if self.made.as_ref().is_none_or(|(game, _)| *game != name) {
            let bot = catalog::bot(name, &self.spec, self.seed).map_err(value_error)?;
            self.made = Some((name, std::sync::Mutex::new(bot)));
        }
        let Some((_, bot)) = self.made.as_mut() else {
            return Ok(None);
        };
        let bot = bot
            .get_mut()
            .map_err(|_| value_error("the bot failed in an earlier choice"))?;
        let table = state.table.as_ref();
        py.detach(|| table.bot_choice(bot.as_mut()))
            .map_err(value_error)
    }

    /// The bot's name (`medium`, `ismcts:500`, ...).
    #[getter]
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<tabletop.Bot {} seed={}>", self.spec, self.seed)
    }
}

/// Every game's name.
#[pyfunction]
fn games() -> Vec<&'static str> {
    catalog::GAMES.to_vec()
}

/// A well-mixed seed for game `index` of a batch started from `seed` (the same derivation
/// the simulator uses).
#[pyfunction]
fn derive_seed(seed: u64, index: u64) -> u64 {
    engine::derive_seed(seed, index)
}

/// A game described for people: `title`, `summary`, `players` (`{"min", "max"}`),
/// `options` (each with its label, help, input and default) and `components`.
#[pyfunction]
fn about<'py>(py: Python<'py>, game: &str) -> PyResult<Bound<'py, PyAny>> {
    let game = catalog::game(game).map_err(value_error)?;
    pythonize::pythonize(py, &game.about()).map_err(value_error)
}

/// The options a game takes, with their defaults.
#[pyfunction]
fn default_options<'py>(py: Python<'py>, game: &str) -> PyResult<Bound<'py, PyAny>> {
    let game = catalog::game(game).map_err(value_error)?;
    pythonize::pythonize(py, &game.default_config()).map_err(value_error)
}

/// The seats of game `k` of a tournament pair at a table of `seats`: `True` where the
/// pair's first bot sits (as `tabletop tournament` seats them).
#[pyfunction]
fn tournament_seating(seats: usize, k: u64) -> Vec<bool> {
    sim::tournament::seating(seats, k)
}

/// The report of a tournament played elsewhere, as `tabletop tournament --json` prints
/// it: `results` holds each game in tournament order (pairs (0, 1), (0, 2), ..., (1, 2),
/// ..., then games) as `(scores, places, moves)`.
// The Python keywords, one parameter each.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (game, seats, names, games, seed, results, seconds = 0.0))]
fn tournament_report<'py>(
    py: Python<'py>,
    game: &str,
    seats: usize,
    names: Vec<String>,
    games: u64,
    seed: u64,
    results: Vec<(Vec<i64>, Vec<u8>, u32)>,
    seconds: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let game = catalog::game(game).map_err(value_error)?.name();
    if names.len() < 2 {
        return Err(value_error("a tournament needs at least two bots"));
    }
    let pairs = sim::tournament::pairs(names.len()).len() as u64;
    if results.len() as u64 != pairs * games {
        return Err(value_error(format!(
            "{} bots play {pairs} pairs of {games} games: {} results expected, {} given",
            names.len(),
            pairs * games,
            results.len()
        )));
    }
    let mut played = Vec::with_capacity(results.len());
    for (i, (scores, places, moves)) in results.into_iter().enumerate() {
        if scores.len() != seats || places.len() != seats {
            return Err(value_error(format!(
                "game {i} has {} scores and {} places for a table of {seats} seats",
                scores.len(),
                places.len()
            )));
        }
        played.push(sim::tournament::Played {
            outcome: engine::Outcome { scores, places },
            moves,
        });
    }
    let opts = sim::tournament::TournamentOptions {
        bots: Vec::new(),
        games,
        seed,
        threads: Some(1),
    };
    let report = sim::tournament::report(game, seats, names, &opts, &played, seconds);
    pythonize::pythonize(py, &report).map_err(value_error)
}

struct RunTournament<'a>(
    &'a serde_json::Value,
    &'a sim::tournament::TournamentOptions,
);

impl catalog::Visit for RunTournament<'_> {
    type Out = Result<sim::tournament::TournamentReport, String>;
    fn visit<G: engine::Game>(self) -> Self::Out {
        let config = engine::Typed::<G>::config(self.0).map_err(|e| e.to_string())?;
        sim::tournament::try_run::<G>(&config, self.1, &|| {}).map_err(|e| e.to_string())
    }
}

/// A tournament between built-in bots, played in Rust by the code `tabletop tournament`
/// runs (the Python lock released): the same report as `--json` prints for the same
/// game, options, bots, games and seed. `options` are taken as given (the CLI adds
/// Euphoria's `offers_per_turn=1` when none is given).
#[pyfunction]
#[pyo3(signature = (game, bots, games = 100, seed = 1, options = None, threads = 1))]
fn builtin_tournament<'py>(
    py: Python<'py>,
    game: &str,
    bots: Vec<String>,
    games: u64,
    seed: u64,
    options: Option<&Bound<'_, PyDict>>,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let options: serde_json::Value = match options {
        Some(d) => pythonize::depythonize(d.as_any()).map_err(value_error)?,
        None => serde_json::json!({}),
    };
    let bots = bots
        .iter()
        .map(|b| b.parse::<bots::BotSpec>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(value_error)?;
    let opts = sim::tournament::TournamentOptions {
        bots,
        games,
        seed,
        threads: Some(threads.max(1)),
    };
    let report = py
        .detach(|| catalog::with_game(game, RunTournament(&options, &opts)))
        .map_err(value_error)?
        .map_err(value_error)?;
    pythonize::pythonize(py, &report).map_err(value_error)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<State>()?;
    m.add_class::<Batch>()?;
    m.add_class::<Bot>()?;
    m.add_function(wrap_pyfunction!(load_state, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(default_options, m)?)?;
    m.add_function(wrap_pyfunction!(about, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(tournament_seating, m)?)?;
    m.add_function(wrap_pyfunction!(tournament_report, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_tournament, m)?)?;
    Ok(())
}

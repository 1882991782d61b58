//! The Python module `tabletop` (its native part, `tabletop._native`): every game as a
//! [`State`] with fixed action indices, a legal-action mask and observation tensors.
//!
//! Build and install it with `pip install ./crates/python` (maturin); the pure-Python
//! parts (`tabletop.pettingzoo`, `tabletop.openspiel`, `tabletop.bench`) live in
//! `crates/python/python/tabletop`. The step path passes integers and numpy arrays only.
pub mod table;

use engine::{Seat, Viewer};
use numpy::{PyArray1, PyArrayMethods};
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
        let table = table::open(game, &options, seed).map_err(value_error)?;
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

    /// Plays the action with this index; raises ValueError (state unchanged) if it is not
    /// legal.
    fn apply(&mut self, index: usize) -> PyResult<()> {
        self.table.apply_index(index).map_err(value_error)
    }

    /// The legal action indices, ascending.
    fn legal_actions(&mut self) -> Vec<usize> {
        self.table.legal_indices().to_vec()
    }

    /// An int8 array with 1 at each legal index.
    fn legal_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut mask = vec![0u8; self.table.num_actions()];
        self.table.legal_mask(&mut mask);
        PyArray1::from_vec(py, mask.into_iter().map(|m| m as i8).collect())
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

    /// The index of an action written in notation.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        self.table.parse_action(text).map_err(value_error)
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

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<State>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(default_options, m)?)?;
    m.add_function(wrap_pyfunction!(about, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    Ok(())
}

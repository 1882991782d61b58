//! The exceptions `tabletop` raises for what the engine refuses: each a `ValueError` (as
//! before they had types of their own) carrying the refusal's stable `.code`
//! (`dropsite/not_lower`, `config/players`; docs/http-api.md lists the games' codes).
use engine::{EngineError, IndexError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::{create_exception, PyTypeInfo};

create_exception!(
    tabletop,
    TabletopError,
    PyValueError,
    "What the engine refuses; `.code` names it stably (`dropsite/not_lower`)."
);
create_exception!(
    tabletop,
    IllegalAction,
    TabletopError,
    "A move the rules refuse here (the state is unchanged); `.code` is the rule's code."
);
create_exception!(
    tabletop,
    ParseError,
    TabletopError,
    "Text that is no move of this game (`.code`: `action/malformed`)."
);
create_exception!(
    tabletop,
    ConfigError,
    TabletopError,
    "Options or a game name that make no game (`.code`: `config/...`, `game/unknown`)."
);
create_exception!(
    tabletop,
    StateError,
    TabletopError,
    "A state file that cannot be used (`.code`: `state/malformed`, `state/breaks_rules`)."
);

/// An exception of type `E` saying `message`, with `.code` set.
pub fn coded<E: PyTypeInfo>(message: String, code: &'static str) -> PyErr {
    Python::attach(|py| {
        let err = PyErr::new::<E, _>(message);
        match err.value(py).setattr("code", code) {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

/// The exception for an engine error: its type by kind, `.code` the finest code there is.
pub fn engine_error(e: EngineError) -> PyErr {
    let code = e.refusal().unwrap_or(e.code());
    let message = e.to_string();
    match e {
        EngineError::Illegal(_) | EngineError::GameOver => coded::<IllegalAction>(message, code),
        EngineError::Parse(_) => coded::<ParseError>(message, code),
        EngineError::Config(_) | EngineError::UnknownGame { .. } => {
            coded::<ConfigError>(message, code)
        }
        EngineError::State(_) => coded::<StateError>(message, code),
    }
}

/// An index that cannot be played: a refused move is [`IllegalAction`]; an index out of
/// range stays a plain `ValueError` (no rule refused it).
pub fn index_error(e: IndexError) -> PyErr {
    match e {
        IndexError::Illegal(illegal) => engine_error(illegal.into()),
        IndexError::OutOfRange { .. } => PyValueError::new_err(e.to_string()),
    }
}

/// Adds the exception types to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TabletopError", py.get_type::<TabletopError>())?;
    m.add("IllegalAction", py.get_type::<IllegalAction>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("ConfigError", py.get_type::<ConfigError>())?;
    m.add("StateError", py.get_type::<StateError>())?;
    Ok(())
}

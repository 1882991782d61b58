//! Lessons: a game taught step by step on real positions, played by the real engine.
//!
//! A lesson is data (JSON, one format for every game; docs/lessons.md): its steps each
//! give a position (a state file, or `"continue"` from the previous step's result), a
//! text, the move or moves the learner is asked to make, what to say after it, and checks
//! ([`Check`]) that what the text claims is what the engine did. A game lists its lessons
//! with [`crate::Present::lessons`]; front ends reach them through
//! [`crate::DynGame::lessons`] and play a step with [`attempt`].
use crate::dyn_state::{DynState, StateFile};
use crate::error::EngineError;
use crate::event::{LogEntry, LogEvent};
use crate::moves::AnyAction;
use crate::seat::{Seat, Viewer};
use crate::text::Names;
use serde::{Deserialize, Serialize};

mod run;
pub use run::problems;

/// One lesson of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Its name in addresses (`turns`), unique within the game.
    pub id: String,
    /// What people read in a list ("Your first round").
    pub title: String,
    /// One sentence on what it teaches.
    pub summary: String,
    /// The learner's seat, counted from 0; every step's position has it to act.
    #[serde(default)]
    pub seat: Seat,
    pub steps: Vec<Step>,
}

/// One step: a position, what to read, what to do, what it did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// What the learner reads before moving.
    pub text: String,
    /// The position the step starts from.
    pub position: Position,
    /// The moves this step asks for (notation); any one of them completes the step.
    pub ask: Vec<String>,
    /// Said when the learner makes a legal move this step does not ask for: why this step
    /// asks for another. Without it the learner is told which move is asked, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrong: Option<String>,
    /// What the learner reads after the asked move.
    pub then: String,
    /// Moves the other seats make after the learner's (notation), before the next step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replies: Vec<String>,
    /// What holds after each asked move (checked by the lesson replay test).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<Check>,
}

/// Where a step starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Position {
    /// `"continue"`: where the previous step left off, after its first asked move and its
    /// replies.
    Continue(Continue),
    /// A state file (`{"game", "format", "state"}`), as `tabletop new` writes one.
    State(Box<StateFile>),
}

/// The word `"continue"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Continue {
    Continue,
}

/// Something that holds after the asked move, so a text's claim is checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Check {
    /// The value at a JSON pointer into the learner's view after the move.
    View(ViewCheck),
    /// An event the learner is told for the move, by its `kind`, whose text holds `text`.
    Event(EventCheck),
}

/// `{"view": "/totals/0", "is": 5}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewCheck {
    pub view: String,
    pub is: serde_json::Value,
}

/// `{"event": "played", "text": "started a new site"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventCheck {
    pub event: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A lesson that cannot be used, or one asked for that does not exist.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LessonError {
    #[error("lesson {index} of {game} is not valid lesson data: {message}")]
    Malformed {
        game: String,
        index: usize,
        message: String,
    },
    #[error("{game} has no lesson `{id}` (its lessons: {known})")]
    NoLesson {
        game: String,
        id: String,
        known: String,
    },
    #[error("the lesson has steps 1 to {steps}, not step {step}")]
    NoStep { step: usize, steps: usize },
    #[error("lesson `{lesson}`, step {step}: {problem}")]
    Broken {
        lesson: String,
        step: usize,
        problem: String,
    },
}

impl LessonError {
    /// A stable code for machines.
    pub fn code(&self) -> &'static str {
        match self {
            LessonError::Malformed { .. } | LessonError::Broken { .. } => "lesson/broken",
            LessonError::NoLesson { .. } => "lesson/unknown",
            LessonError::NoStep { .. } => "lesson/no_step",
        }
    }
}

/// Parses a game's lessons (their JSON texts, in order).
///
/// # Errors
/// The first text that is not lesson data.
pub fn parse_lessons(game: &str, texts: &[&str]) -> Result<Vec<Lesson>, LessonError> {
    texts
        .iter()
        .enumerate()
        .map(|(index, text)| {
            serde_json::from_str(text).map_err(|e| LessonError::Malformed {
                game: game.to_string(),
                index: index + 1,
                message: e.to_string(),
            })
        })
        .collect()
}

/// The lesson with `id` among `lessons`.
///
/// # Errors
/// No lesson has that id.
pub fn find<'a>(game: &str, lessons: &'a [Lesson], id: &str) -> Result<&'a Lesson, LessonError> {
    lessons
        .iter()
        .find(|l| l.id == id)
        .ok_or_else(|| LessonError::NoLesson {
            game: game.to_string(),
            id: id.chars().take(60).collect(),
            known: lessons
                .iter()
                .map(|l| l.id.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

impl Lesson {
    fn broken(&self, step: usize, problem: impl std::fmt::Display) -> LessonError {
        LessonError::Broken {
            lesson: self.id.clone(),
            step: step + 1,
            problem: problem.to_string(),
        }
    }

    /// The names the learner reads seats by: "you" for the learner, "seat N" for others.
    pub fn names(&self) -> Names {
        Names::for_viewer(Viewer::Seat(self.seat))
    }
}

/// What became of a move the learner made at a step.
pub enum Attempt {
    /// The move the step asked for, made: the state after it, the log entries of it and
    /// of the replies after it (as the learner may know them).
    Asked {
        after: Box<dyn DynState>,
        log: Vec<LogEntry>,
    },
    /// A legal move the step does not ask for: why another is asked (nothing is played).
    NotAsked { why: String },
    /// A move the rules refuse: the refusal, with the rule's code and words.
    Refused { error: EngineError },
}

/// The words of a refusal: the rule broken (for an illegal move), else the error.
pub fn refusal_words(error: &EngineError) -> String {
    match error {
        EngineError::Illegal(illegal) => illegal.reason.words.clone(),
        other => other.to_string(),
    }
}

/// The learner's move `made` (parsed where it was entered) at `step`, whose position is
/// `start`: played on a copy when it is the move the step asks for; `start` is never
/// changed.
pub fn attempt(lesson: &Lesson, step: &Step, start: &dyn DynState, made: &AnyAction) -> Attempt {
    let names = lesson.names();
    let mut after = start.clone_box();
    if let Err(error) = after.apply_any(made) {
        return Attempt::Refused { error };
    }
    let asked = step
        .ask
        .iter()
        .any(|a| start.parse_action(a).ok().as_ref() == Some(made));
    if !asked {
        let why = step.wrong.clone().unwrap_or_else(|| {
            let wanted: Vec<String> = step.ask.iter().map(|a| move_label(start, a)).collect();
            format!("This step asks for another move: {}.", wanted.join(", or "))
        });
        return Attempt::NotAsked { why };
    }
    let mut log = vec![LogEntry {
        index: 0,
        seat: lesson.seat,
        events: start
            .step_events(made, after.as_ref(), Viewer::Seat(lesson.seat), &names)
            .unwrap_or_default(),
    }];
    for (k, reply) in step.replies.iter().enumerate() {
        let before = after.clone_box();
        let Ok(reply) = before.parse_action(reply) else {
            break;
        };
        if after.apply_any(&reply).is_err() {
            break;
        }
        log.push(LogEntry {
            index: k + 1,
            seat: before.to_act().unwrap_or_default(),
            events: before
                .step_events(&reply, after.as_ref(), Viewer::Seat(lesson.seat), &names)
                .unwrap_or_default(),
        });
    }
    Attempt::Asked { after, log }
}

/// A legal move's label in words (its notation if it is not legal here).
pub fn move_label(state: &dyn DynState, action: &str) -> String {
    let wanted = state
        .parse_action(action)
        .map_or_else(|_| action.to_string(), |parsed| parsed.to_string());
    state
        .moves()
        .into_iter()
        .find(|m| m.action == wanted)
        .map_or(wanted, |m| m.text.label)
}

/// Whether `check` holds for the learner's `view` after the move and the `events` it was
/// told: `Err` says what was found instead.
///
/// # Errors
/// The check does not hold, in words.
pub fn check(check: &Check, view: &serde_json::Value, events: &[LogEvent]) -> Result<(), String> {
    match check {
        Check::View(c) => match view.pointer(&c.view) {
            Some(found) if found == &c.is => Ok(()),
            Some(found) => Err(format!("the view's {} is {found}, not {}", c.view, c.is)),
            None => Err(format!("the view has no {}", c.view)),
        },
        Check::Event(c) => {
            let kind = serde_json::Value::String(c.event.clone());
            let found = events.iter().any(|e| {
                e.data.get("kind") == Some(&kind)
                    && c.text.as_ref().is_none_or(|t| e.text.contains(t.as_str()))
            });
            if found {
                Ok(())
            } else {
                let told: Vec<&str> = events.iter().map(|e| e.text.as_str()).collect();
                Err(format!(
                    "no `{}` event{} was told; told: {told:?}",
                    c.event,
                    c.text
                        .as_ref()
                        .map(|t| format!(" saying `{t}`"))
                        .unwrap_or_default()
                ))
            }
        }
    }
}

/// The learner's view right after `action` (before any reply), as JSON.
pub fn after_move_view(start: &dyn DynState, action: &str, seat: Seat) -> serde_json::Value {
    let mut state = start.clone_box();
    match start
        .parse_action(action)
        .and_then(|parsed| state.apply_any(&parsed))
    {
        Ok(()) => state.view_json(Viewer::Seat(seat)),
        Err(_) => serde_json::Value::Null,
    }
}

/// Prints lesson positions as one JSON object of state files by name, for a designer to
/// paste into a lesson's steps (each game's `examples/<game>_lessons.rs`, docs/lessons.md);
/// a position that cannot be built is told on stderr, and the process exits with 1.
pub fn print_positions<S: DynState>(
    positions: impl IntoIterator<Item = (&'static str, Result<S, String>)>,
) {
    let mut out = serde_json::Map::new();
    for (name, built) in positions {
        match built {
            Ok(game) => {
                out.insert(name.into(), game.state_json());
            }
            Err(why) => {
                eprintln!("{name}: {why}");
                std::process::exit(1);
            }
        }
    }
    println!("{}", serde_json::Value::Object(out));
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE_STEP: &str = r#"{"id": "a", "title": "A", "summary": "S", "steps": [
        {"text": "t", "position": "continue", "ask": ["x"], "then": "u",
         "expect": [{"view": "/v", "is": 1}, {"event": "e", "text": "w"}]}]}"#;

    #[test]
    fn lesson_data_parses_with_both_kinds_of_checks_and_continue() {
        let lessons = parse_lessons("g", &[ONE_STEP]).expect("lesson data");
        let step = &lessons[0].steps[0];
        assert!(matches!(step.position, Position::Continue(_)));
        assert!(matches!(step.expect[0], Check::View(_)));
        assert!(matches!(step.expect[1], Check::Event(_)));
        assert_eq!(lessons[0].seat, 0);
    }

    #[test]
    fn lesson_data_with_an_unknown_field_is_refused_naming_the_lesson() {
        let bad = ONE_STEP.replace("\"then\"", "\"than\"");
        let err = parse_lessons("g", &[ONE_STEP, &bad]).expect_err("a misspelt field");
        assert_eq!(err.code(), "lesson/broken");
        assert!(
            err.to_string()
                .starts_with("lesson 2 of g is not valid lesson data"),
            "{err}"
        );
    }

    #[test]
    fn a_check_says_what_it_found_instead() {
        let view = serde_json::json!({"v": 2});
        for (pointer, found) in [
            ("/v", "the view's /v is 2, not 1"),
            ("/w", "the view has no /w"),
        ] {
            let c = Check::View(ViewCheck {
                view: pointer.into(),
                is: 1.into(),
            });
            assert_eq!(check(&c, &view, &[]), Err(found.into()));
        }
        let event = Check::Event(EventCheck {
            event: "e".into(),
            text: None,
        });
        assert!(check(&event, &view, &[]).is_err());
    }

    #[test]
    fn unknown_lessons_and_steps_are_refused_in_words() {
        let lessons = parse_lessons("g", &[ONE_STEP]).expect("lesson data");
        let err = find("Game", &lessons, "b").expect_err("no lesson b");
        assert_eq!(err.to_string(), "Game has no lesson `b` (its lessons: a)");
        assert_eq!(err.code(), "lesson/unknown");
    }
}

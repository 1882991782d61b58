//! A game's lessons (docs/lessons.md): the list, one lesson's steps as the learner sees
//! them, and a move made at a step. Stateless: each step's position is in the lesson's
//! data, and the learner's move is played by the engine on a copy of it.

use super::extract::*;
use engine::lesson::{self, Attempt, Lesson, LessonError};
use engine::{DynGame, DynState, LegalMove, LogEntry};

impl From<LessonError> for ApiError {
    fn from(error: LessonError) -> ApiError {
        match error {
            LessonError::NoLesson { .. } | LessonError::NoStep { .. } => {
                ApiError::new(StatusCode::NOT_FOUND, error.code(), error.to_string())
            }
            broken => ApiError::internal(broken),
        }
    }
}

/// One lesson in a game's list.
#[derive(Serialize)]
pub(crate) struct LessonInfo {
    id: String,
    title: String,
    summary: String,
    steps: usize,
}

/// `GET /api/games/{game}/lessons`.
#[derive(Serialize)]
pub(crate) struct LessonList {
    game: &'static str,
    title: String,
    lessons: Vec<LessonInfo>,
}

pub(crate) async fn list_lessons(Path(name): Path<String>) -> Result<Json<LessonList>, ApiError> {
    let game = catalog::game(&name)?;
    let lessons = game
        .lessons()?
        .into_iter()
        .map(|l| LessonInfo {
            steps: l.steps.len(),
            id: l.id,
            title: l.title,
            summary: l.summary,
        })
        .collect();
    Ok(Json(LessonList {
        game: game.name(),
        title: game.about().title,
        lessons,
    }))
}

/// One step as the learner sees it: the text, the learner's view, the legal moves.
#[derive(Serialize)]
pub(crate) struct StepOut {
    /// Counted from 1, as in the address that plays it.
    n: usize,
    text: String,
    view: serde_json::Value,
    moves: Vec<LegalMove>,
    to_act: Option<Seat>,
}

/// `GET /api/games/{game}/lessons/{id}`.
#[derive(Serialize)]
pub(crate) struct LessonOut {
    game: &'static str,
    id: String,
    title: String,
    summary: String,
    /// The learner's seat, from 0.
    seat: Seat,
    steps: Vec<StepOut>,
}

/// A game, one of its lessons and each step's starting position.
type Prepared = (Box<dyn DynGame>, Lesson, Vec<Box<dyn DynState>>);

/// The game, the lesson and each step's starting position.
fn lesson_of(name: &str, id: &str) -> Result<Prepared, ApiError> {
    let game = catalog::game(name)?;
    let lessons = game.lessons()?;
    let lesson = lesson::find(&game.about().title, &lessons, id)?.clone();
    let starts = lesson.starts(game.as_ref())?;
    Ok((game, lesson, starts))
}

pub(crate) async fn get_lesson(
    Path((name, id)): Path<(String, String)>,
) -> Result<Json<LessonOut>, ApiError> {
    let (game, lesson, starts) = lesson_of(&name, &id)?;
    let viewer = Viewer::Seat(lesson.seat);
    let steps = lesson
        .steps
        .iter()
        .zip(&starts)
        .enumerate()
        .map(|(i, (step, start))| StepOut {
            n: i + 1,
            text: step.text.clone(),
            view: start.view_json(viewer),
            moves: start.moves(),
            to_act: start.to_act(),
        })
        .collect();
    Ok(Json(LessonOut {
        game: game.name(),
        id: lesson.id,
        title: lesson.title,
        summary: lesson.summary,
        seat: lesson.seat,
        steps,
    }))
}

/// The body of a move at a step.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LessonMove {
    action: String,
}

/// What a move at a step did.
#[derive(Serialize)]
pub(crate) struct StepResult {
    /// Whether it was the move the step asks for (then the step is done).
    asked: bool,
    /// After the asked move, what the step says happened; else why another is asked.
    message: String,
    /// The move's log entry and those of the other seats' replies, as the learner is told
    /// them (empty when the move was not the one asked).
    log: Vec<LogEntry>,
    /// The learner's view after the move and the replies (`null` when not asked).
    view: serde_json::Value,
    /// The next step, counted from 1; `null` after the last.
    next: Option<usize>,
}

/// `POST /api/games/{game}/lessons/{id}/steps/{n}`: `{"action": "…"}` played at step `n`
/// (from 1). A move that is no move of the game is `400 action/malformed`; one the rules
/// refuse `422 action/illegal` with the rule in words; a legal move the step does not ask
/// for is answered with `asked: false` and why.
pub(crate) async fn lesson_move(
    Path((name, id, n)): Path<(String, String, String)>,
    Body(request): Body<LessonMove>,
) -> Result<Json<StepResult>, ApiError> {
    let (_, lesson, starts) = lesson_of(&name, &id)?;
    let steps = lesson.steps.len();
    let index = n
        .trim()
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .filter(|&i| i < steps)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "lesson/no_step",
                format!(
                    "the lesson has steps 1 to {steps}, not `{}`",
                    truncate(&n, 20)
                ),
            )
        })?;
    let start = starts[index].as_ref();
    let made = start
        .parse_action(&request.action)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.code(), e.to_string()))?;
    let step = &lesson.steps[index];
    let next = (index + 1 < steps).then_some(index + 2);
    match lesson::attempt(&lesson, step, start, &made) {
        // The learner reads the rule alone; machines read its code.
        Attempt::Refused { error } => Err(ApiError {
            message: lesson::refusal_words(&error),
            ..ApiError::from(error)
        }),
        Attempt::NotAsked { why } => Ok(Json(StepResult {
            asked: false,
            message: why,
            log: Vec::new(),
            view: serde_json::Value::Null,
            next: None,
        })),
        Attempt::Asked { after, log } => Ok(Json(StepResult {
            asked: true,
            message: step.then.clone(),
            log,
            view: after.view_json(Viewer::Seat(lesson.seat)),
            next,
        })),
    }
}

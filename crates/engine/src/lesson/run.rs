//! A lesson run through its game: each step's starting position, and every problem of
//! the lesson (what the lesson test and a designer read).
use super::{
    after_move_view, attempt, check, refusal_words, Attempt, Lesson, LessonError, Position,
};
use crate::dyn_game::DynGame;
use crate::dyn_state::DynState;

impl Lesson {
    /// Each step's starting position, in order: a state file loaded (and checked), or
    /// the previous step's after its first asked move and its replies.
    ///
    /// # Errors
    /// A position that does not load, a first step that continues, a move that does not
    /// apply, or a step where the learner is not the seat to act.
    pub fn starts(&self, game: &dyn DynGame) -> Result<Vec<Box<dyn DynState>>, LessonError> {
        let mut starts: Vec<Box<dyn DynState>> = Vec::with_capacity(self.steps.len());
        for (i, step) in self.steps.iter().enumerate() {
            let start = match (&step.position, starts.last()) {
                (Position::State(file), _) => {
                    game.load_file(file).map_err(|e| self.broken(i, e))?
                }
                (Position::Continue(_), None) => {
                    return Err(self.broken(i, "the first step has no step to continue"))
                }
                (Position::Continue(_), Some(previous)) => {
                    let before = &self.steps[i - 1];
                    let first = before
                        .ask
                        .first()
                        .ok_or_else(|| self.broken(i - 1, "the step asks for no move"))?;
                    let mut state = previous.clone_box();
                    for action in std::iter::once(first).chain(&before.replies) {
                        state
                            .parse_action(action)
                            .and_then(|parsed| state.apply_any(&parsed))
                            .map_err(|e| self.broken(i - 1, format!("`{action}`: {e}")))?;
                    }
                    state
                }
            };
            if start.to_act() != Some(self.seat) {
                return Err(self.broken(
                    i,
                    format!("the learner (seat {}) is not to act", self.seat + 1),
                ));
            }
            starts.push(start);
        }
        Ok(starts)
    }
}

/// Every problem of a lesson, replayed through the engine: positions that do not load,
/// asked moves and replies that are not legal where they are made, checks that do not
/// hold after each asked move, texts that are empty. Empty when the lesson is sound.
pub fn problems(game: &dyn DynGame, lesson: &Lesson) -> Vec<String> {
    let starts = match lesson.starts(game) {
        Ok(starts) => starts,
        Err(e) => return vec![e.to_string()],
    };
    let mut out = Vec::new();
    if lesson.title.trim().is_empty() || lesson.summary.trim().is_empty() {
        out.push(format!(
            "lesson `{}` needs a title and a summary",
            lesson.id
        ));
    }
    for (i, (step, start)) in lesson.steps.iter().zip(&starts).enumerate() {
        let at = |p: String| format!("lesson `{}`, step {}: {p}", lesson.id, i + 1);
        if step.text.trim().is_empty() || step.then.trim().is_empty() {
            out.push(at(
                "the text and the text after (`then`) must say something".into(),
            ));
        }
        if step.ask.is_empty() {
            out.push(at("the step asks for no move".into()));
        }
        for asked in &step.ask {
            let legal = start.legal();
            let Ok(parsed) = start.parse_action(asked) else {
                out.push(at(format!("`{asked}` is no move of the game")));
                continue;
            };
            if !legal.contains(&parsed.to_string()) {
                out.push(at(format!("`{asked}` is not legal here")));
                continue;
            }
            match attempt(lesson, step, start.as_ref(), &parsed) {
                Attempt::Asked { log, .. } => {
                    if log.len() != step.replies.len() + 1 {
                        out.push(at("a reply does not apply".into()));
                    }
                    let view = after_move_view(start.as_ref(), asked, lesson.seat);
                    for c in &step.expect {
                        if let Err(e) = check(c, &view, &log[0].events) {
                            out.push(at(format!("after `{asked}`: {e}")));
                        }
                    }
                }
                Attempt::NotAsked { .. } => {
                    out.push(at(format!("`{asked}` is not taken as asked")))
                }
                Attempt::Refused { error } => out.push(at(format!(
                    "`{asked}` is refused: {}",
                    refusal_words(&error)
                ))),
            }
        }
    }
    out
}

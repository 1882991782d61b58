//! The lesson replay test: every step of every lesson of every game is replayed through
//! the engine. Each asked move must be legal where it is asked and be taken as asked; each
//! step's checks (`expect`) must hold after it, so what a text says happens is what the
//! engine did; the replies must apply; and the texts must read as words for people.
use engine::lesson::{self, Attempt, Lesson, Position};
use engine::DynState;

/// A game's name, one of its lessons and each step's starting position.
type LessonStarts = (&'static str, Lesson, Vec<Box<dyn DynState>>);

/// Every lesson of every game.
fn lessons_and_starts() -> Vec<LessonStarts> {
    let mut out = Vec::new();
    for name in catalog::GAMES {
        let game = catalog::game(name).expect("a listed game");
        for l in game.lessons().expect("lessons parse") {
            let starts = l.starts(game.as_ref()).expect("positions load");
            out.push((*name, l, starts));
        }
    }
    out
}

/// Words a lesson's text must not hold: a seat counted from 0, a plural after one.
fn text_problems(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lower = text.to_lowercase();
    if lower.contains("seat 0") {
        out.push(format!("seats are counted from 1: {text:?}"));
    }
    for word in [
        "points",
        "cards",
        "dice",
        "stars",
        "steps",
        "districts",
        "sites",
    ] {
        if lower.contains(&format!(" 1 {word}")) || lower.starts_with(&format!("1 {word}")) {
            out.push(format!("`1 {word}`: one of them is singular: {text:?}"));
        }
    }
    out
}

#[test]
fn every_lesson_replays_through_the_engine_as_its_texts_say() {
    for name in catalog::GAMES {
        let game = catalog::game(name).expect("a listed game");
        let lessons = game.lessons().expect("the game's lessons parse");
        assert!(!lessons.is_empty(), "{name} has a lesson");
        let mut ids = std::collections::BTreeSet::new();
        for l in &lessons {
            assert!(
                ids.insert(l.id.clone()),
                "{name}: lesson id `{}` twice",
                l.id
            );
            assert!(
                (5..=12).contains(&l.steps.len()),
                "{name}: lesson `{}` has {} steps",
                l.id,
                l.steps.len()
            );
            let problems = lesson::problems(game.as_ref(), l);
            assert!(problems.is_empty(), "{name}: {problems:#?}");
            let mut words = Vec::new();
            for step in &l.steps {
                words.extend(text_problems(&step.text));
                words.extend(text_problems(&step.then));
                words.extend(step.wrong.iter().flat_map(|w| text_problems(w)));
            }
            assert!(words.is_empty(), "{name}, lesson `{}`: {words:#?}", l.id);
        }
    }
}

#[test]
fn a_lesson_step_refuses_a_wrong_move_with_the_rule_and_leaves_the_position_alone() {
    for (name, l, starts) in lessons_and_starts() {
        for (step, start) in l.steps.iter().zip(&starts) {
            let before = start.state_json();
            let asked: Vec<String> = step
                .ask
                .iter()
                .filter_map(|a| start.parse_action(a).ok().map(|a| a.to_string()))
                .collect();
            // Every legal move the step does not ask for is answered with words, and
            // plays nothing.
            for other in start.legal().iter().filter(|m| !asked.contains(m)) {
                let other = start.parse_action(other).expect("a legal move parses");
                match lesson::attempt(&l, step, start.as_ref(), &other) {
                    Attempt::NotAsked { why } => assert!(!why.trim().is_empty()),
                    _ => panic!("{name}: `{other}` is taken as asked"),
                }
            }
            // Text that is no move, and the step's position is as it was.
            // Text that is no move is refused where it is read.
            let nonsense = start.parse_action("no such move").expect_err("no move");
            assert_eq!(nonsense.code(), "action/malformed", "{name}");
            // A move of the game that the rules refuse here (one legal after the asked
            // move, not before): refused with its rule's code.
            let mut later = start.clone_box();
            later
                .apply_any(&start.parse_action(&step.ask[0]).expect("asked"))
                .expect("the asked move is legal");
            let here = start.legal();
            if let Some(other) = later.legal().into_iter().find(|m| !here.contains(m)) {
                let other = later.parse_action(&other).expect("legal there");
                match lesson::attempt(&l, step, start.as_ref(), &other) {
                    Attempt::Refused { error } => {
                        assert_eq!(error.code(), "action/illegal", "{name}: {error}");
                        let code = error.refusal().expect("a rule's code");
                        assert!(code.starts_with(name), "{name}: {code}");
                    }
                    _ => panic!("{name}: `{other}` is not refused"),
                }
            }
            assert_eq!(
                start.state_json(),
                before,
                "{name}: the step's position changed"
            );
        }
    }
}

#[test]
fn a_step_that_continues_starts_where_the_previous_move_and_replies_left_off() {
    for (name, l, starts) in lessons_and_starts() {
        for i in 1..l.steps.len() {
            if !matches!(l.steps[i].position, Position::Continue(_)) {
                continue;
            }
            let (step, start) = (&l.steps[i - 1], starts[i - 1].as_ref());
            let asked = start.parse_action(&step.ask[0]).expect("asked");
            let Attempt::Asked { after, log } = lesson::attempt(&l, step, start, &asked) else {
                panic!("{name}: step {i}'s first asked move is not taken");
            };
            assert_eq!(
                after.state_json(),
                starts[i].state_json(),
                "{name}: step {}",
                i + 1
            );
            // The learner's move and each reply are told, each with what it did.
            assert_eq!(log.len(), l.steps[i - 1].replies.len() + 1);
            assert!(log.iter().all(|e| !e.events.is_empty()), "{name}: {log:?}");
        }
    }
}

//! `tabletop learn`: a lesson in the terminal with piped input, wrong moves included.
use crate::common;

use common::{assert_refused, tabletop_with_input, text};
use std::process::Output;

/// Runs `tabletop learn ARGS` with `input` on standard input.
fn learn(args: &[&str], input: &str) -> Output {
    let args: Vec<&str> = std::iter::once("learn")
        .chain(args.iter().copied())
        .collect();
    tabletop_with_input(&args, input)
}

#[test]
fn a_drop_site_lesson_refuses_wrong_moves_in_words_and_goes_on_with_the_asked_one() {
    let game = catalog::game("dropsite").expect("a game");
    let lesson = game.lessons().expect("lessons").remove(0);
    // Step 1 first gets a move the rules refuse (a 12 on a 10), then a legal move the
    // step does not ask for, then nonsense; every later step gets its asked move; then
    // no game against the bot.
    let mut input = String::from("12 on 1\n3 debt\nfly away\n");
    for step in &lesson.steps {
        input.push_str(&step.ask[0]);
        input.push('\n');
    }
    input.push_str("n\n");
    let out = learn(&["dropsite"], &input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(
        stdout.contains("Not allowed: a card played on a drop site must be lower than its top card, and 12 is not lower than 10"),
        "{stdout}"
    );
    assert!(stdout.contains(lesson.steps[0].wrong.as_deref().expect("a wrong text")));
    assert!(stdout.contains("cannot read `fly away`"), "{stdout}");
    for (i, step) in lesson.steps.iter().enumerate() {
        assert!(stdout.contains(&format!("=== step {} of {} ===", i + 1, lesson.steps.len())));
        assert!(
            stdout.contains(&step.text) && stdout.contains(&step.then),
            "step {}",
            i + 1
        );
    }
    // The engine's own log tells each move, the learner as "you", others from seat 1 up.
    assert!(
        stdout.contains("you played an 8 on drop site 1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("seat 2 started drop site 2 with a 9"),
        "{stdout}"
    );
    assert!(stdout.contains("That is the end of the lesson."));
    assert!(
        stdout.contains("tabletop play dropsite --seats human,easy"),
        "{stdout}"
    );
}

/// A lesson's asked moves, one a line, then `last` (the answer to the closing question).
fn asked_moves(lesson: &engine::lesson::Lesson, last: &str) -> String {
    let mut input: String = lesson
        .steps
        .iter()
        .map(|s| format!("{}\n", s.ask[0]))
        .collect();
    input.push_str(last);
    input
}

/// Every lesson of every game, played to its end in the terminal with its asked moves on
/// standard input: each step is shown with its texts, and none is refused.
#[test]
fn every_lesson_of_every_game_reaches_its_end_in_the_terminal() {
    for name in catalog::GAMES {
        let game = catalog::game(name).expect("a listed game");
        for (n, lesson) in game.lessons().expect("lessons").iter().enumerate() {
            let input = asked_moves(lesson, "n\n");
            let out = learn(&[name, "--lesson", &(n + 1).to_string()], &input);
            let stdout = text(&out.stdout);
            let at = format!("{name}, lesson {} `{}`", n + 1, lesson.id);
            assert!(
                out.status.success(),
                "{at}: {stdout}\n{}",
                text(&out.stderr)
            );
            for (i, step) in lesson.steps.iter().enumerate() {
                let header = format!("=== step {} of {} ===", i + 1, lesson.steps.len());
                assert!(stdout.contains(&header), "{at}: no {header}");
                assert!(stdout.contains(&step.then), "{at}, step {}", i + 1);
                if let Some(wrong) = &step.wrong {
                    assert!(!stdout.contains(wrong), "{at}, step {}: {wrong}", i + 1);
                }
            }
            assert!(!stdout.contains("Not allowed"), "{at}: {stdout}");
            assert!(
                !stdout.contains("This step asks for another move"),
                "{at}: {stdout}"
            );
            assert!(
                stdout.contains("That is the end of the lesson."),
                "{at}: {stdout}"
            );
        }
    }
}

#[test]
fn a_lesson_ends_with_a_game_against_the_easy_bot_when_asked() {
    let game = catalog::game("distopia").expect("a game");
    let lesson = game.lessons().expect("lessons").remove(0);
    // Yes to the game; then the input ends at its first prompt.
    let input = asked_moves(&lesson, "y\n");
    let out = learn(&["distopia", "--lesson", "1"], &input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("seats 1: human, 2: easy"), "{stdout}");
    assert!(stdout.contains("leaving the game"), "{stdout}");
}

#[test]
fn a_lesson_that_does_not_exist_is_refused_in_words() {
    let out = learn(&["dropsite", "--lesson", "9"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("Drop Site has lessons 1 to 1, not 9"),
        "{stderr}"
    );
    let listed = learn(&["euphoria", "--list"], "");
    assert!(listed.status.success());
    let list = text(&listed.stdout);
    assert!(
        list.contains("1) Workers, goods and stars (6 steps)"),
        "{list}"
    );
    // Euphoria teaches the whole game: at least ten lessons, numbered from 1.
    assert!(list.contains("10) "), "{list}");
    assert!(list.lines().count() >= 10, "{list}");
    let unknown = learn(&["chess"], "");
    assert_refused(&unknown, "unknown game `chess`");
}

/// Each step lists its moves numbered, as the play prompt does, and a number picks one.
#[test]
fn a_step_lists_its_moves_numbered_and_a_number_plays_one() {
    let game = catalog::game("dropsite").expect("a game");
    let lesson = game.lessons().expect("lessons").remove(0);
    // The first step asks for `8 on 1`: find its number in the printed list, then type it.
    let shown = text(&learn(&["dropsite"], "quit\n").stdout);
    let asked = &lesson.steps[0].ask[0];
    let line = shown
        .lines()
        .find(|l| l.ends_with(&format!("[{asked}]")))
        .unwrap_or_else(|| panic!("no numbered line for {asked}: {shown}"));
    let number = line
        .trim_start()
        .split(')')
        .next()
        .expect("a number")
        .trim();
    assert!(number.parse::<usize>().is_ok(), "{line}");
    let out = learn(&["dropsite"], &format!("{number}\nquit\n"));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("you played an 8 on drop site 1"),
        "{stdout}"
    );
    assert!(stdout.contains("=== step 2 of"), "{stdout}");
}

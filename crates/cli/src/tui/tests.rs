//! The full-screen game on ratatui's test backend: positions of each game drawn and read
//! back, and games played by key events alone (bots at the other seats).
use super::app::{App, Flow};
use super::draw::draw;
use super::learn::{Leave, LessonApp, Stage};
use super::nav::{Focus, Panel};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::style::Color;
use ratatui::Terminal;

fn app(args: &[&str]) -> App {
    App::new(crate::play::table_for(args).expect("a table"), None, None)
}

/// A 3-seat Euphoria game, seat 1 a person and the others easy bots.
fn euphoria(seed: &str) -> App {
    app(&[
        "euphoria",
        "--players",
        "3",
        "--seats",
        "human,easy,easy",
        "--seed",
        seed,
    ])
}

/// A 3-seat Euphoria game (seed 5) with its bots' set-up moves made: seat 1 to act.
fn euphoria_at_first_turn() -> App {
    let mut app = euphoria("5");
    app.run_bots();
    app
}

/// A 3-seat Euphoria game (seed 42) where seat 1 has kept recruits (the first move each
/// time) until it has dice to place at `place`.
fn euphoria_with_dice_for(place: &str) -> App {
    let mut app = euphoria("42");
    let mut steps = 0;
    loop {
        app.run_bots();
        if app.moves.iter().any(|m| m.goes_to(place)) {
            return app;
        }
        press(&mut app, KeyCode::Enter);
        steps += 1;
        assert!(steps < 10 && !app.nav.refused, "{}", app.nav.status);
    }
}

/// The screen's text, row by row.
fn screen(app: &dyn super::draw::Screen, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    terminal.draw(|frame| draw(frame, app)).expect("drawn");
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn press(app: &mut App, code: KeyCode) -> Flow {
    app.on_key(key(code))
}

fn type_in(app: &mut App, text: &str) {
    press(app, KeyCode::Char('/'));
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
    press(app, KeyCode::Enter);
}

/// Each game's first position for seat 1: its moves' words in the list, its board's
/// lines in the board pane.
#[test]
fn each_game_is_drawn_with_its_board_and_moves() {
    for (game, players, seats) in [
        ("dropsite", "2", "human,easy"),
        ("distopia", "2", "human,easy"),
        ("euphoria", "3", "human,easy,easy"),
    ] {
        let mut args = vec![game, "--seats", seats, "--seed", "7"];
        if game != "distopia" {
            args.extend(["--players", players]);
        }
        let mut app = app(&args);
        app.run_bots();
        let seat = app.human_to_act().expect("seat 1 to act");
        let text = screen(&app, 160, 60);
        assert!(text.contains(&format!("tabletop · {game}")), "{text}");
        let moves = app.state().moves();
        assert!(!moves.is_empty());
        // The moves pane is 45% of 160 columns: the first words of each move shown fit it.
        for m in moves.iter().take(5) {
            let words: String = m.text.label.chars().take(30).collect();
            assert!(text.contains(&words), "{game}: `{words}` not on\n{text}");
        }
        let view = app.state().view_text(engine::Viewer::Seat(seat));
        let shown = view
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(8)
            .map(|l| l.chars().take(60).collect::<String>());
        for line in shown {
            assert!(
                text.contains(line.trim_end()),
                "{game}: `{line}` not on\n{text}"
            );
        }
    }
}

#[test]
fn a_whole_distopia_game_is_played_with_keys_only() {
    let mut app = app(&["distopia", "--seats", "human,easy", "--seed", "11"]);
    let mut presses = 0;
    while !app.is_over() {
        app.run_bots();
        if app.is_over() {
            break;
        }
        assert!(app.human_to_act().is_some());
        assert_eq!(app.nav.focus, Focus::Moves);
        // Down a few times (it stops at the last move), then Enter.
        for _ in 0..presses % 4 {
            press(&mut app, KeyCode::Down);
        }
        let before = app.actions().len();
        assert_eq!(press(&mut app, KeyCode::Enter), Flow::Continue);
        assert_eq!(app.actions().len(), before + 1, "{}", app.nav.status);
        presses += 1;
        assert!(presses < 2000, "the game did not end");
    }
    assert!(app.failure.is_none(), "{:?}", app.failure);
    assert!(app.state().outcome().is_some());
    let text = screen(&app, 140, 50);
    assert!(text.contains("the game is over"), "{text}");
    assert!(text.contains("Winner:"), "{text}");
    assert_eq!(press(&mut app, KeyCode::Char('q')), Flow::Quit);
}

#[test]
fn a_euphoria_turn_is_played_with_keys_only() {
    let mut app = euphoria_at_first_turn();
    assert_eq!(app.human_to_act(), Some(0));
    // A move typed wrong is refused in words and changes nothing.
    let before = app.state().state_json();
    type_in(&mut app, "fly to the moon");
    assert!(app.nav.refused, "{}", app.nav.status);
    assert!(!app.nav.status.is_empty());
    assert_eq!(app.state().state_json(), before);
    assert!(app.actions().is_empty());
    // The turn: the last move of the list each time (End, Enter) until the bots act.
    let mut steps = 0;
    while app.human_to_act() == Some(0) {
        press(&mut app, KeyCode::End);
        press(&mut app, KeyCode::Enter);
        steps += 1;
        assert!(steps < 30 && !app.nav.refused, "{}", app.nav.status);
    }
    assert!(!app.actions().is_empty());
    assert!(app.log.len() > 1, "the turn told in the log");
    app.run_bots();
    assert!(app.failure.is_none());
    assert!(app.is_over() || app.human_to_act() == Some(0));
}

#[test]
fn a_move_is_typed_by_notation_or_number() {
    let mut app = app(&["distopia", "--seats", "human,easy", "--seed", "3"]);
    let moves = app.state().moves();
    type_in(&mut app, &moves[0].action);
    assert_eq!(app.actions(), [moves[0].action.clone()]);
    app.run_bots();
    let moves = app.state().moves();
    let played = app.actions().len();
    // Typing a character opens the line with it; a number chooses from the list.
    let n = moves.len().min(2);
    press(&mut app, KeyCode::Char(char::from(b'0' + n as u8)));
    assert_eq!(app.nav.typing.as_deref(), Some(n.to_string().as_str()));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.actions().len(), played + 1, "{}", app.nav.status);
    assert_eq!(app.actions()[played], moves[n - 1].action);
    // Esc closes the line with nothing played.
    app.run_bots();
    let played = app.actions().len();
    press(&mut app, KeyCode::Char('/'));
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Esc);
    assert!(app.nav.typing.is_none());
    assert_eq!(app.actions().len(), played);
}

#[test]
fn keys_move_focus_scroll_and_show_help() {
    let mut app = euphoria_at_first_turn();
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    assert_eq!(app.nav.selected, 2);
    press(&mut app, KeyCode::Home);
    assert_eq!(app.nav.selected, 0);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.nav.focus, Focus::Board);
    press(&mut app, KeyCode::Down);
    assert_eq!(app.nav.board_scroll, 1);
    assert_eq!(app.nav.selected, 0, "the arrows scroll the board now");
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.nav.focus, Focus::Log);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.nav.focus, Focus::Moves);
    press(&mut app, KeyCode::Char('?'));
    let text = screen(&app, 120, 40);
    assert!(text.contains("take back your last move"), "{text}");
    press(&mut app, KeyCode::Esc);
    assert!(app.nav.panel.is_none());
    // Nothing played yet: nothing to take back, and nothing changes.
    let before = app.state().state_json();
    press(&mut app, KeyCode::Char('u'));
    assert!(app.nav.refused, "{}", app.nav.status);
    assert_eq!(app.state().state_json(), before);
    let quit = app.on_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert_eq!(quit, Flow::Quit);
}

/// The colours of every cell of the screen, foreground and background.
fn colours(app: &App) -> Vec<(Color, Color)> {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("a test terminal");
    terminal.draw(|frame| draw(frame, app)).expect("drawn");
    terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|cell| (cell.fg, cell.bg))
        .collect()
}

#[test]
fn monochrome_draws_the_same_words_without_colour() {
    let mut app = app(&["dropsite", "--seats", "human,easy", "--seed", "2"]);
    let colour = screen(&app, 120, 40);
    assert!(colours(&app)
        .iter()
        .any(|&c| c != (Color::Reset, Color::Reset)));
    app.nav.mono = true;
    assert_eq!(screen(&app, 120, 40), colour);
    assert!(colours(&app)
        .iter()
        .all(|&c| c == (Color::Reset, Color::Reset)));
    // A small terminal still draws without a panic.
    let _ = screen(&app, 30, 10);
}

/// A place's word narrows the list; the move played there is taken back with `u`.
#[test]
fn a_place_narrows_the_moves_and_u_takes_a_move_back() {
    let mut app = euphoria_with_dice_for("farm");
    let before = app.state().state_json();
    type_in(&mut app, "farm");
    if app.narrowed {
        assert!(app.moves.len() > 1 && app.moves.iter().all(|m| m.goes_to("farm")));
        assert!(screen(&app, 120, 40).contains("Moves there"));
        press(&mut app, KeyCode::Enter);
    }
    assert!(!app.nav.refused, "{}", app.nav.status);
    assert_ne!(app.state().state_json(), before);
    press(&mut app, KeyCode::Char('u'));
    assert!(!app.nav.refused, "{}", app.nav.status);
    assert_eq!(app.state().state_json(), before);
    assert_eq!(app.actions().last().map(String::as_str), Some("undo"));
}

#[test]
fn h_asks_the_coach_and_chooses_its_best_move() {
    let mut app = app(&["distopia", "--seats", "human,easy", "--seed", "42"]);
    press(&mut app, KeyCode::Char('h'));
    assert!(
        app.nav.status.starts_with("The coach suggests"),
        "{}",
        app.nav.status
    );
    let chosen = &app.moves[app.nav.selected];
    assert!(
        app.nav.status.contains(&chosen.text.label),
        "{}",
        app.nav.status
    );
}

/// Two people at one terminal: each hand shows only after its owner presses Enter.
#[test]
fn the_screen_is_handed_over_between_people() {
    let mut app = app(&["distopia", "--seats", "human,human", "--seed", "4"]);
    assert_eq!(app.cover, Some(0));
    assert_eq!(app.board_viewer(), engine::Viewer::Spectator);
    assert!(screen(&app, 120, 40).contains("seat 1: your turn. Others, look away."));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.cover, None);
    assert_eq!(app.board_viewer(), engine::Viewer::Seat(0));
    while app.human_to_act() == Some(0) {
        press(&mut app, KeyCode::Enter);
    }
    assert_eq!(app.cover, Some(1));
    // Keys other than Enter do nothing while the screen waits.
    let played = app.actions().len();
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(app.actions().len(), played);
    assert!(app.nav.typing.is_none());
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.board_viewer(), engine::Viewer::Seat(1));
}

/// `?` on a move: the move in the game's words, what the board says of its place, the
/// passages of the rules about it, and the keys.
#[test]
fn question_mark_shows_the_chosen_moves_rules_and_the_keys() {
    let mut app = euphoria_with_dice_for("aqu");
    let at = app
        .moves
        .iter()
        .position(|m| m.goes_to("aqu"))
        .expect("a move to the Aquifer");
    for _ in 0..at {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Char('?'));
    let text = screen(&app, 120, 50);
    let label: String = app.moves[at].text.label.chars().take(40).collect();
    assert!(text.contains("The chosen move"), "{text}");
    assert!(text.contains(&label), "{text}");
    assert!(text.contains("Aquifer [aqu]"), "the board's words: {text}");
    assert!(
        text.contains("From the rules (How to play Euphoria)"),
        "{text}"
    );
    assert!(
        text.contains("Action spaces: Space: Aquifer"),
        "the rules' row: {text}"
    );
    assert!(text.contains("resign (asks first)"), "the keys too: {text}");
    // Any key closes it and changes nothing else.
    press(&mut app, KeyCode::Char('x'));
    assert!(app.nav.panel.is_none());
    assert!(app.nav.typing.is_none());
    // A Distop-IA move finds its rule by its words.
    let mut app = app_for_distopia(3);
    press(&mut app, KeyCode::Char('?'));
    let text = screen(&app, 120, 50);
    assert!(
        text.contains("Pick one of your own four districts"),
        "{text}"
    );
}

fn app_for_distopia(seed: u64) -> App {
    let seed = seed.to_string();
    let mut app = app(&["distopia", "--seats", "human,easy", "--seed", &seed]);
    app.run_bots();
    app
}

#[test]
fn r_resigns_after_asking_and_ends_a_two_player_game() {
    let mut app = app_for_distopia(8);
    press(&mut app, KeyCode::Char('r'));
    assert!(
        matches!(&app.nav.panel, Some(Panel::Confirm(q)) if q.contains("Resign seat 1 (you)?")),
        "{:?}",
        app.nav.panel
    );
    assert!(screen(&app, 120, 40).contains("y: yes"));
    // Anything but y says no, and nothing changes.
    press(&mut app, KeyCode::Char('n'));
    assert!(app.nav.panel.is_none());
    assert!(!app.is_over());
    assert_eq!(app.nav.status, "Nothing was done.");
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.is_over());
    assert_eq!(app.actions().last().map(String::as_str), Some("resign 1"));
    assert!(app.log.iter().any(|l| l == "you resigned"), "{:?}", app.log);
    let text = screen(&app, 120, 40);
    assert!(text.contains("the game is over"), "{text}");
    assert!(text.contains("Winner: seat 2 (easy)."), "{text}");
    // Once over, there is nothing left to resign.
    press(&mut app, KeyCode::Char('r'));
    assert!(app.nav.refused && app.nav.panel.is_none());
}

/// At three seats the others play on: a bot takes the resigned seat, and the game ends.
#[test]
fn a_resigned_seat_is_played_out_by_a_bot() {
    let mut app = euphoria_at_first_turn();
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('y'));
    assert!(!app.is_over());
    assert!(app.human_to_act().is_none());
    assert!(app.moves.is_empty());
    let mut rounds = 0;
    while !app.is_over() {
        app.run_bots();
        rounds += 1;
        assert!(rounds < 5, "the bots stopped: {:?}", app.failure);
    }
    assert!(app.failure.is_none(), "{:?}", app.failure);
    let outcome = app.state().outcome().expect("the game ended");
    assert_eq!(outcome.scores.len(), 3);
    assert!(
        app.log.iter().any(|l| l.starts_with("Winner:")),
        "{:?}",
        app.log
    );
}

fn click(app: &mut App, column: u16, row: u16) -> Flow {
    app.on_mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

fn wheel(app: &mut App, column: u16, row: u16, down: bool) {
    app.on_mouse(MouseEvent {
        kind: if down {
            MouseEventKind::ScrollDown
        } else {
            MouseEventKind::ScrollUp
        },
        column,
        row,
        modifiers: KeyModifiers::NONE,
    });
}

/// The screen row where move `index` starts, as last drawn.
fn row_of(app: &App, index: usize) -> u16 {
    let rows = app.nav.rows.borrow();
    rows.iter()
        .find(|(_, i)| *i == index)
        .map(|(row, _)| *row)
        .expect("the move is on the screen")
}

#[test]
fn the_mouse_chooses_plays_and_scrolls() {
    let mut app = app_for_distopia(5);
    let _ = screen(&app, 120, 40);
    let areas = app.nav.areas.get();
    let column = areas.moves.x + 5;
    // A click chooses the third move; a click on it again plays it.
    let row = row_of(&app, 2);
    let before = app.actions().len();
    click(&mut app, column, row);
    assert_eq!(app.nav.selected, 2);
    assert_eq!(app.actions().len(), before);
    let chosen = app.moves[2].action.clone();
    click(&mut app, column, row);
    assert_eq!(app.actions().len(), before + 1);
    assert_eq!(app.actions()[before], chosen);
    // A click on the board gives it the focus; the wheel scrolls the pane under it.
    app.run_bots();
    let _ = screen(&app, 120, 40);
    click(&mut app, areas.board.x + 3, areas.board.y + 3);
    assert_eq!(app.nav.focus, Focus::Board);
    wheel(&mut app, areas.board.x + 3, areas.board.y + 3, true);
    assert_eq!(app.nav.board_scroll, 3);
    wheel(&mut app, areas.log.x + 3, areas.log.y + 3, false);
    assert_eq!(app.nav.log_back, 3);
    // A click on a move while the board has the focus only chooses it.
    let _ = screen(&app, 120, 40);
    let played = app.actions().len();
    let first = row_of(&app, 0);
    click(&mut app, column, first);
    assert_eq!((app.nav.focus, app.nav.selected), (Focus::Moves, 0));
    assert_eq!(app.actions().len(), played);
    // The help closes on a click, and the click does nothing else.
    press(&mut app, KeyCode::Char('?'));
    click(&mut app, column, first);
    assert!(app.nav.panel.is_none());
    assert_eq!(app.actions().len(), played);
}

fn learn_press(app: &mut LessonApp, code: KeyCode) -> bool {
    app.on_key(key(code))
}

/// Lesson 1 of `game` full-screen, at its first step.
fn lesson(game: &str) -> LessonApp {
    let game = catalog::game(game).expect("a game");
    let lesson = game.lessons().expect("lessons").remove(0);
    let starts = lesson.starts(game.as_ref()).expect("the steps' positions");
    LessonApp::new(game.as_ref(), lesson, 1, starts)
}

/// A Drop Site lesson by keys alone: a move the rules refuse and one the step does not
/// ask for are told in words and change nothing; each asked move is chosen with the
/// arrows and played with Enter, told, and Enter goes on; `p` at the end asks for a game.
#[test]
fn a_lesson_is_played_with_keys_only() {
    let mut app = lesson("dropsite");
    let text = screen(&app, 120, 40);
    assert!(text.contains("learn Drop Site · lesson 1"), "{text}");
    assert!(text.contains("Step 1 of"), "{text}");
    let game = catalog::game("dropsite").expect("a game");
    let steps = game.lessons().expect("lessons").remove(0).steps;
    // A typed move the rules refuse.
    learn_press(&mut app, KeyCode::Char('/'));
    for c in "12 on 1".chars() {
        learn_press(&mut app, KeyCode::Char(c));
    }
    learn_press(&mut app, KeyCode::Enter);
    assert!(app.nav.refused);
    assert!(
        app.nav
            .status
            .starts_with("Not allowed: a card played on a drop site must be lower"),
        "{}",
        app.nav.status
    );
    assert_eq!((app.step, app.stage), (0, Stage::Asking));
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(app.step, i);
        let asked = app
            .moves
            .iter()
            .position(|m| step.ask.contains(&m.action))
            .expect("the asked move is listed");
        if i == 0 {
            // A legal move the step does not ask for.
            let other = (asked + 1) % app.moves.len();
            learn_press(&mut app, KeyCode::Home);
            for _ in 0..other {
                learn_press(&mut app, KeyCode::Down);
            }
            learn_press(&mut app, KeyCode::Enter);
            assert!(app.nav.refused, "{}", app.nav.status);
            assert_eq!(app.stage, Stage::Asking);
            // `?` on the asked move tells its rules.
            learn_press(&mut app, KeyCode::Home);
            for _ in 0..asked {
                learn_press(&mut app, KeyCode::Down);
            }
            learn_press(&mut app, KeyCode::Char('?'));
            let text = screen(&app, 120, 50);
            assert!(text.contains("The chosen move"), "{text}");
            assert!(
                text.contains("From the rules (How to play Drop Site)"),
                "{text}"
            );
            learn_press(&mut app, KeyCode::Esc);
        }
        learn_press(&mut app, KeyCode::Home);
        for _ in 0..asked {
            learn_press(&mut app, KeyCode::Down);
        }
        learn_press(&mut app, KeyCode::Enter);
        assert_eq!(app.stage, Stage::Made, "{}", app.nav.status);
        assert!(app.log.contains(&step.then), "step {}", i + 1);
        assert!(
            app.log.iter().any(|l| l.starts_with("  * ")),
            "the move told"
        );
        if i == 0 {
            // Enter goes on from any pane.
            learn_press(&mut app, KeyCode::Tab);
        }
        assert!(app.on_key(key(KeyCode::Enter)));
    }
    assert_eq!(app.stage, Stage::Finished);
    assert!(app
        .log
        .iter()
        .any(|l| l == "That is the end of the lesson."));
    assert!(screen(&app, 120, 40).contains("p plays a game against the easy bot"));
    assert!(!app.on_key(key(KeyCode::Char('p'))));
    assert_eq!(app.leave(), Leave::Play);
}

#[test]
fn leaving_a_lesson_early_says_so() {
    for game in ["distopia", "euphoria"] {
        let mut app = lesson(game);
        assert!(!app.moves.is_empty());
        let text = screen(&app, 120, 40);
        assert!(text.contains("Step 1 of"), "{text}");
        assert!(!app.on_key(key(KeyCode::Char('q'))));
        assert_eq!(app.leave(), Leave::Early);
    }
}

/// Resigning while a bot thinks ends the game; the bot's move, come too late, is dropped.
#[test]
fn resigning_while_a_bot_thinks_ends_the_game_cleanly() {
    let mut app = app_for_distopia(12);
    while app.human_to_act().is_some() {
        press(&mut app, KeyCode::Enter);
    }
    let (seat, mut bot, state) = app.bot_job().expect("the bot's turn");
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.is_over());
    let action = bot.choose(state.as_ref());
    app.bot_done(seat, bot, action);
    assert!(app.failure.is_none(), "{:?}", app.failure);
    assert_eq!(app.actions().last().map(String::as_str), Some("resign 1"));
}

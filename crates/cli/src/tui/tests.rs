//! The full-screen game on ratatui's test backend: positions of each game drawn and read
//! back, and games played by key events alone (bots at the other seats).
use super::app::{App, Flow, Focus};
use super::draw::draw;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Color;
use ratatui::Terminal;

fn app(args: &[&str]) -> App {
    App::new(crate::play::table_for(args).expect("a table"), None, None)
}

/// A 3-seat Euphoria game (seed 5) with its bots' set-up moves made: seat 1 to act.
fn euphoria_at_first_turn() -> App {
    let mut app = app(&[
        "euphoria",
        "--players",
        "3",
        "--seats",
        "human,easy,easy",
        "--seed",
        "5",
    ]);
    app.run_bots();
    app
}

/// The screen's text, row by row.
fn screen(app: &App, width: u16, height: u16) -> String {
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
        assert_eq!(app.focus, Focus::Moves);
        // Down a few times (it stops at the last move), then Enter.
        for _ in 0..presses % 4 {
            press(&mut app, KeyCode::Down);
        }
        let before = app.actions().len();
        assert_eq!(press(&mut app, KeyCode::Enter), Flow::Continue);
        assert_eq!(app.actions().len(), before + 1, "{}", app.status);
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
    assert!(app.refused, "{}", app.status);
    assert!(!app.status.is_empty());
    assert_eq!(app.state().state_json(), before);
    assert!(app.actions().is_empty());
    // The turn: the last move of the list each time (End, Enter) until the bots act.
    let mut steps = 0;
    while app.human_to_act() == Some(0) {
        press(&mut app, KeyCode::End);
        press(&mut app, KeyCode::Enter);
        steps += 1;
        assert!(steps < 30 && !app.refused, "{}", app.status);
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
    assert_eq!(app.typing.as_deref(), Some(n.to_string().as_str()));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.actions().len(), played + 1, "{}", app.status);
    assert_eq!(app.actions()[played], moves[n - 1].action);
    // Esc closes the line with nothing played.
    app.run_bots();
    let played = app.actions().len();
    press(&mut app, KeyCode::Char('/'));
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Esc);
    assert!(app.typing.is_none());
    assert_eq!(app.actions().len(), played);
}

#[test]
fn keys_move_focus_scroll_and_show_help() {
    let mut app = euphoria_at_first_turn();
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    assert_eq!(app.selected, 2);
    press(&mut app, KeyCode::Home);
    assert_eq!(app.selected, 0);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Focus::Board);
    press(&mut app, KeyCode::Down);
    assert_eq!(app.board_scroll, 1);
    assert_eq!(app.selected, 0, "the arrows scroll the board now");
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Focus::Log);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Focus::Moves);
    press(&mut app, KeyCode::Char('?'));
    let text = screen(&app, 120, 40);
    assert!(text.contains("take back your last move"), "{text}");
    press(&mut app, KeyCode::Esc);
    assert!(!app.help);
    // Nothing played yet: nothing to take back, and nothing changes.
    let before = app.state().state_json();
    press(&mut app, KeyCode::Char('u'));
    assert!(app.refused, "{}", app.status);
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
    app.mono = true;
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
    let mut app = app(&[
        "euphoria",
        "--players",
        "3",
        "--seats",
        "human,easy,easy",
        "--seed",
        "42",
    ]);
    // Recruits are kept (the first move each time) until seat 1 has dice to place.
    let mut steps = 0;
    loop {
        app.run_bots();
        if app.moves.iter().any(|m| m.goes_to("farm")) {
            break;
        }
        press(&mut app, KeyCode::Enter);
        steps += 1;
        assert!(steps < 10 && !app.refused, "{}", app.status);
    }
    let before = app.state().state_json();
    type_in(&mut app, "farm");
    if app.narrowed {
        assert!(app.moves.len() > 1 && app.moves.iter().all(|m| m.goes_to("farm")));
        assert!(screen(&app, 120, 40).contains("Moves there"));
        press(&mut app, KeyCode::Enter);
    }
    assert!(!app.refused, "{}", app.status);
    assert_ne!(app.state().state_json(), before);
    press(&mut app, KeyCode::Char('u'));
    assert!(!app.refused, "{}", app.status);
    assert_eq!(app.state().state_json(), before);
    assert_eq!(app.actions().last().map(String::as_str), Some("undo"));
}

#[test]
fn h_asks_the_coach_and_chooses_its_best_move() {
    let mut app = app(&["distopia", "--seats", "human,easy", "--seed", "42"]);
    press(&mut app, KeyCode::Char('h'));
    assert!(
        app.status.starts_with("The coach suggests"),
        "{}",
        app.status
    );
    let chosen = &app.moves[app.selected];
    assert!(app.status.contains(&chosen.text.label), "{}", app.status);
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
    assert!(app.typing.is_none());
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.board_viewer(), engine::Viewer::Seat(1));
}

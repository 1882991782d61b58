//! The screen drawn from an [`App`]: the board on the left, the legal moves and the log on
//! the right, the answer line and the keys at the foot; the help and the hand-over screen
//! on top when they are up. Colour only adds to what borders, marks and bold already say,
//! and none is used under `NO_COLOR`.
use super::app::{App, Focus};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, List, ListItem, ListState, Paragraph, Wrap};
use ratatui::Frame;

/// The keys, as the help panel lists them.
pub const KEYS: &[(&str, &str)] = &[
    ("Up / Down", "choose a move (or scroll the board or log)"),
    ("PageUp / PageDown", "a page at a time"),
    ("Home / End", "the first or last move (top or bottom)"),
    ("Enter", "play the chosen move"),
    (
        "/, a-z, 0-9",
        "type a move: its notation, a number or a place",
    ),
    ("Esc", "cancel the typed move; show every move again"),
    (
        "Tab / Shift-Tab",
        "move between the moves, the board and the log",
    ),
    ("u", "take back your last move, when the rules allow"),
    ("h", "the coach's three best moves (the best one chosen)"),
    ("?", "this help (any key closes it)"),
    ("q or Ctrl-C", "leave the game"),
];

pub fn draw(frame: &mut Frame, app: &App) {
    let [title, body, status, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(6),
        Constraint::Length(2),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    frame.render_widget(Paragraph::new(title_line(app)).style(bold()), title);
    let [board, side] =
        Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(body);
    let [moves, log] =
        Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(side);
    app.page.set(moves.height.saturating_sub(3));
    draw_board(frame, app, board);
    draw_moves(frame, app, moves);
    draw_log(frame, app, log);
    draw_status(frame, app, status);
    frame.render_widget(
        Paragraph::new(
            "↑↓ choose · Enter play · / type · Tab focus · u undo · h hint · ? help · q quit",
        ),
        keys,
    );
    if let Some(seat) = app.cover {
        draw_cover(frame, app, seat);
    } else if app.help {
        draw_help(frame, app);
    }
}

fn bold() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

fn title_line(app: &App) -> String {
    let game = &app.table.record.game;
    let turn = if let Some(why) = &app.failure {
        format!("stopped: {why}")
    } else if app.state().to_act().is_none() {
        "the game is over".to_string()
    } else {
        let seat = app.state().to_act().unwrap_or_default();
        if app.human_to_act().is_some() && app.table.humans == 1 {
            "your turn".to_string()
        } else {
            format!("{} to act", app.seat_name(seat))
        }
    };
    let played = match app.actions().len() {
        1 => "1 move played".to_string(),
        n => format!("{n} moves played"),
    };
    format!("tabletop · {game} · {turn} · {played}")
}

/// A pane's frame: the one with focus has a thick border, a mark in its title and (in
/// colour) a cyan border.
fn pane<'a>(app: &App, title: &'a str, here: Focus) -> Block<'a> {
    let focused = app.focus == here;
    let mut block = Block::bordered().title(if focused {
        format!("▶ {title}")
    } else {
        format!("  {title}")
    });
    if focused {
        block = block.border_type(BorderType::Thick).title_style(bold());
        if !app.mono {
            block = block.border_style(Style::new().fg(Color::Cyan));
        }
    }
    block
}

fn draw_board(frame: &mut Frame, app: &App, area: Rect) {
    let text = app.state().view_text(app.board_viewer());
    // A line wider than the pane goes on under itself, indented; grids that fit are kept.
    let width = usize::from(area.width.saturating_sub(2)).max(10);
    let lines: Vec<Line> = text
        .lines()
        .flat_map(|line| {
            let indent = &line[..line.len() - line.trim_start().len()];
            let deeper = format!("{indent}    ");
            let options = textwrap::Options::new(width).subsequent_indent(&deeper);
            textwrap::wrap(line, &options)
                .into_iter()
                .map(|l| Line::from(l.into_owned()))
                .collect::<Vec<_>>()
        })
        .collect();
    let text = lines;
    let lines = text.len() as u16;
    let inner = area.height.saturating_sub(2);
    let top = app.board_scroll.min(lines.saturating_sub(inner));
    let mut title = match app.board_viewer() {
        engine::Viewer::Seat(seat) => format!("Board for {}", app.seat_name(seat)),
        engine::Viewer::Spectator => "Board".to_string(),
    };
    if lines > inner {
        let last = (top + inner).min(lines);
        title.push_str(&format!(" · lines {}-{last} of {lines}", top + 1));
        if app.focus != Focus::Board {
            title.push_str(" (Tab: scroll)");
        }
    }
    frame.render_widget(
        Paragraph::new(text)
            .block(pane(app, &title, Focus::Board))
            .scroll((top, 0)),
        area,
    );
}

fn draw_moves(frame: &mut Frame, app: &App, area: Rect) {
    let title = if app.narrowed {
        "Moves there (Esc: all)".to_string()
    } else {
        format!("Your moves ({})", app.moves.len())
    };
    let block = pane(app, &title, Focus::Moves);
    if app.moves.is_empty() {
        let why = if app.is_over() {
            "The game is over. Press q to leave."
        } else {
            "Waiting for the other players…"
        };
        frame.render_widget(
            Paragraph::new(why).wrap(Wrap { trim: true }).block(block),
            area,
        );
        return;
    }
    // Inside the border, after the two columns of the "> " mark.
    let width = usize::from(area.width.saturating_sub(4)).max(10);
    let options = textwrap::Options::new(width).subsequent_indent("      ");
    let items: Vec<ListItem> = app
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let text = if m.text.label == m.action {
                format!("{:>3}) {}", i + 1, m.action)
            } else {
                format!("{:>3}) {}  [{}]", i + 1, m.text.label, m.action)
            };
            // A long move goes on under itself, so its words and notation are all seen.
            let lines: Vec<Line> = textwrap::wrap(&text, &options)
                .into_iter()
                .map(|l| Line::from(l.into_owned()))
                .collect();
            ListItem::new(lines)
        })
        .collect();
    let mut highlight = Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD);
    if !app.mono {
        highlight = Style::new()
            .bg(Color::Blue)
            .fg(Color::White)
            .add_modifier(Modifier::BOLD);
    }
    let list = List::new(items)
        .block(block)
        .highlight_style(highlight)
        .highlight_symbol("> ");
    let mut state = ListState::default().with_selected(Some(app.selected));
    frame.render_stateful_widget(list, area, &mut state);
}

fn draw_log(frame: &mut Frame, app: &App, area: Rect) {
    let width = usize::from(area.width.saturating_sub(2)).max(10);
    let options = textwrap::Options::new(width).subsequent_indent("  ");
    let lines: Vec<Line> = app
        .log
        .iter()
        .flat_map(|entry| textwrap::wrap(entry, &options))
        .map(|l| Line::from(l.into_owned()))
        .collect();
    let inner = area.height.saturating_sub(2);
    let bottom = (lines.len() as u16).saturating_sub(inner);
    let top = bottom.saturating_sub(app.log_back);
    let title = if app.log_back > 0 && top > 0 {
        "Log (End: newest)"
    } else {
        "Log"
    };
    frame.render_widget(
        Paragraph::new(lines)
            .block(pane(app, title, Focus::Log))
            .scroll((top, 0)),
        area,
    );
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect) {
    let line = if let Some(typed) = &app.typing {
        Line::from(vec![
            Span::styled("move> ", bold()),
            Span::raw(typed.clone()),
            Span::styled("█", Style::new()),
        ])
    } else if app.refused {
        let style = if app.mono {
            bold()
        } else {
            bold().fg(Color::Red)
        };
        Line::styled(app.status.clone(), style)
    } else {
        Line::raw(app.status.clone())
    };
    let mut text = vec![line];
    if app.typing.is_some() {
        text.push(Line::raw("Enter plays it · Esc cancels"));
    }
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }), area);
}

/// A box of `width` by `height` in the middle of the screen.
fn middle(frame: &Frame, width: u16, height: u16) -> Rect {
    let area = frame.area();
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

fn draw_help(frame: &mut Frame, app: &App) {
    let mut lines: Vec<Line> = KEYS
        .iter()
        .map(|(key, what)| {
            Line::from(vec![
                Span::styled(format!("{key:>18}  "), bold()),
                Span::raw(*what),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::raw(
        "After /, a typed move may also start with q, u, h or ?.",
    ));
    lines.push(Line::raw(format!(
        "`tabletop rules {}` prints the whole rules.",
        app.table.record.game
    )));
    let area = middle(frame, 76, lines.len() as u16 + 2);
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .border_type(BorderType::Double)
                .title(" Keys "),
        ),
        area,
    );
}

fn draw_cover(frame: &mut Frame, app: &App, seat: usize) {
    let name = app.seat_name(seat);
    let text = vec![
        Line::styled(format!("{name}: your turn. Others, look away."), bold()),
        Line::raw(""),
        Line::raw(format!(
            "Press Enter when only {name} can see the screen (q leaves the game)."
        )),
    ];
    frame.render_widget(Clear, frame.area());
    let area = middle(frame, 72, 5);
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .block(Block::bordered()),
        area,
    );
}

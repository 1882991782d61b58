//! The screen drawn from any [`Screen`] (a game at this terminal, a lesson, a server
//! table): the board on the left, the legal moves and the log on the right, the answer
//! line and the keys at the foot; the help, a question and the hand-over screen on top
//! when they are up. Colour only adds to what borders, marks and bold already say, and
//! none is used under `NO_COLOR`.
use super::about::about_move;
use super::nav::{Areas, Focus, Nav, Panel};
use engine::{LegalMove, Rules};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, List, ListItem, ListState, Paragraph, Wrap};
use ratatui::Frame;

/// What a full-screen board shows; [`draw`] lays it out.
pub trait Screen {
    fn nav(&self) -> &Nav;
    /// The top line: the game, whose turn, how far.
    fn title(&self) -> String;
    /// The board pane's title ("Board for seat 1 (you)").
    fn board_title(&self) -> String;
    /// The board as text, as the viewer may see it.
    fn board_text(&self) -> String;
    fn moves(&self) -> &[LegalMove];
    fn moves_title(&self) -> String;
    /// What the moves pane says when there is none to choose.
    fn no_moves(&self) -> String;
    /// The log pane's title.
    fn log_title(&self) -> String {
        "Log".to_string()
    }
    /// The log in words, oldest first.
    fn log(&self) -> &[String];
    /// The keys, at the foot and in the help.
    fn keys(&self) -> &'static Keys;
    /// The game's rules (`None` while they are not known yet).
    fn rules(&self) -> Option<&Rules>;
    /// The lines about the chosen move the help shows above the keys (its rules).
    fn about_chosen(&self) -> Vec<String> {
        match (self.moves().get(self.nav().selected), self.rules()) {
            (Some(m), Some(rules)) => about_move(m, &self.board_text(), rules),
            _ => Vec::new(),
        }
    }
    /// Lines under the keys in the help.
    fn help_foot(&self) -> Vec<String>;
    /// The seat the screen waits to be handed to, by name.
    fn cover(&self) -> Option<String> {
        None
    }
}

/// A screen's keys: in one line at the foot, and as the help lists them.
pub struct Keys {
    pub line: &'static str,
    pub list: &'static [(&'static str, &'static str)],
}

/// The keys of `play`.
pub const KEYS: Keys = Keys {
    line:
        "↑↓ choose · Enter play · / type · Tab focus · u undo · h hint · r resign · ? help · q quit",
    list: &[
        ("Up / Down", "choose a move (or scroll the board or log)"),
        ("PageUp / PageDown", "a page at a time"),
        ("Home / End", "the first or last move (top or bottom)"),
        ("Enter", "play the chosen move"),
        (
            "mouse",
            "click a move to choose it, again to play it; wheel scrolls",
        ),
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
        ("r", "resign (asks first)"),
        ("?", "this help: the chosen move's rules and the keys"),
        ("q or Ctrl-C", "leave the game"),
    ],
};

pub fn draw(frame: &mut Frame, screen: &dyn Screen) {
    let nav = screen.nav();
    let [title, body, status, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(6),
        Constraint::Length(2),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    frame.render_widget(Paragraph::new(screen.title()).style(bold()), title);
    let [board, side] =
        Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(body);
    let [moves, log] =
        Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(side);
    nav.page.set(moves.height.saturating_sub(3));
    nav.areas.set(Areas { board, moves, log });
    draw_board(frame, screen, board);
    draw_moves(frame, screen, moves);
    draw_log(frame, screen, log);
    draw_status(frame, nav, status);
    frame.render_widget(Paragraph::new(screen.keys().line), keys);
    if let Some(name) = screen.cover() {
        draw_cover(frame, &name);
    } else {
        match &nav.panel {
            Some(Panel::Help) => draw_help(frame, screen),
            Some(Panel::Confirm(question)) => draw_confirm(frame, question),
            None => {}
        }
    }
}

fn bold() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

/// A pane's frame: the one with focus has a thick border, a mark in its title and (in
/// colour) a cyan border.
fn pane<'a>(nav: &Nav, title: &'a str, here: Focus) -> Block<'a> {
    let focused = nav.focus == here;
    let mut block = Block::bordered().title(if focused {
        format!("▶ {title}")
    } else {
        format!("  {title}")
    });
    if focused {
        block = block.border_type(BorderType::Thick).title_style(bold());
        if !nav.mono {
            block = block.border_style(Style::new().fg(Color::Cyan));
        }
    }
    block
}

/// `text` wrapped to `width`: a line wider goes on under itself, indented deeper.
fn wrapped(text: &str, width: usize) -> Vec<Line<'static>> {
    text.lines()
        .flat_map(|line| {
            let indent = &line[..line.len() - line.trim_start().len()];
            let deeper = format!("{indent}    ");
            let options = textwrap::Options::new(width).subsequent_indent(&deeper);
            textwrap::wrap(line, &options)
                .into_iter()
                .map(|l| Line::from(l.into_owned()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A pane of `lines` shown from line `top` (counted from 0).
fn scrolled<'a>(lines: Vec<Line<'a>>, block: Block<'a>, top: u16) -> Paragraph<'a> {
    Paragraph::new(lines).block(block).scroll((top, 0))
}

fn draw_board(frame: &mut Frame, screen: &dyn Screen, area: Rect) {
    let nav = screen.nav();
    // A line wider than the pane goes on under itself, indented; grids that fit are kept.
    let width = usize::from(area.width.saturating_sub(2)).max(10);
    let text = wrapped(&screen.board_text(), width);
    let lines = text.len() as u16;
    let inner = area.height.saturating_sub(2);
    let top = nav.board_scroll.min(lines.saturating_sub(inner));
    let mut title = screen.board_title();
    if lines > inner {
        let last = (top + inner).min(lines);
        title.push_str(&format!(" · lines {}-{last} of {lines}", top + 1));
        if nav.focus != Focus::Board {
            title.push_str(" (Tab: scroll)");
        }
    }
    frame.render_widget(scrolled(text, pane(nav, &title, Focus::Board), top), area);
}

fn draw_moves(frame: &mut Frame, screen: &dyn Screen, area: Rect) {
    let nav = screen.nav();
    let title = screen.moves_title();
    let block = pane(nav, &title, Focus::Moves);
    let moves = screen.moves();
    nav.rows.borrow_mut().clear();
    if moves.is_empty() {
        frame.render_widget(
            Paragraph::new(screen.no_moves())
                .wrap(Wrap { trim: true })
                .block(block),
            area,
        );
        return;
    }
    // Inside the border, after the two columns of the "> " mark.
    let width = usize::from(area.width.saturating_sub(4)).max(10);
    let options = textwrap::Options::new(width).subsequent_indent("      ");
    let items: Vec<Vec<Line>> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let text = if m.text.label == m.action {
                format!("{:>3}) {}", i + 1, m.action)
            } else {
                format!("{:>3}) {}  [{}]", i + 1, m.text.label, m.action)
            };
            // A long move goes on under itself, so its words and notation are all seen.
            textwrap::wrap(&text, &options)
                .into_iter()
                .map(|l| Line::from(l.into_owned()))
                .collect()
        })
        .collect();
    let heights: Vec<usize> = items.iter().map(Vec::len).collect();
    let mut highlight = Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD);
    if !nav.mono {
        highlight = Style::new()
            .bg(Color::Blue)
            .fg(Color::White)
            .add_modifier(Modifier::BOLD);
    }
    let list = List::new(items.into_iter().map(ListItem::new))
        .block(block)
        .highlight_style(highlight)
        .highlight_symbol("> ");
    let mut state = ListState::default().with_selected(Some(nav.selected));
    frame.render_stateful_widget(list, area, &mut state);
    // Which move each row shows, for a click.
    let mut rows = nav.rows.borrow_mut();
    let mut y = area.y + 1;
    let bottom = area.y + area.height.saturating_sub(1);
    for (index, &height) in heights.iter().enumerate().skip(state.offset()) {
        for _ in 0..height {
            if y >= bottom {
                return;
            }
            rows.push((y, index));
            y += 1;
        }
    }
}

fn draw_log(frame: &mut Frame, screen: &dyn Screen, area: Rect) {
    let nav = screen.nav();
    let width = usize::from(area.width.saturating_sub(2)).max(10);
    let options = textwrap::Options::new(width).subsequent_indent("  ");
    let lines: Vec<Line> = screen
        .log()
        .iter()
        .flat_map(|entry| textwrap::wrap(entry, &options))
        .map(|l| Line::from(l.into_owned()))
        .collect();
    let inner = area.height.saturating_sub(2);
    let bottom = (lines.len() as u16).saturating_sub(inner);
    let top = bottom.saturating_sub(nav.log_back);
    let mut title = screen.log_title();
    if nav.log_back > 0 && top > 0 {
        title.push_str(" (End: newest)");
    }
    frame.render_widget(scrolled(lines, pane(nav, &title, Focus::Log), top), area);
}

fn draw_status(frame: &mut Frame, nav: &Nav, area: Rect) {
    let line = if let Some(typed) = &nav.typing {
        Line::from(vec![
            Span::styled("move> ", bold()),
            Span::raw(typed.clone()),
            Span::styled("█", Style::new()),
        ])
    } else if nav.refused {
        let style = if nav.mono {
            bold()
        } else {
            bold().fg(Color::Red)
        };
        Line::styled(nav.status.clone(), style)
    } else {
        Line::raw(nav.status.clone())
    };
    let mut text = vec![line];
    if nav.typing.is_some() {
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

/// The help: the chosen move's rules (when a move is chosen), then the keys.
fn draw_help(frame: &mut Frame, screen: &dyn Screen) {
    let width: u16 = 96;
    let inner = usize::from(width.min(frame.area().width).saturating_sub(2)).max(10);
    let mut lines: Vec<Line> = Vec::new();
    let about = screen.about_chosen();
    if !about.is_empty() {
        lines.push(Line::styled("The chosen move", bold()));
        for text in &about {
            let options = textwrap::Options::new(inner).subsequent_indent("  ");
            lines.extend(
                textwrap::wrap(text, &options)
                    .into_iter()
                    .map(|l| Line::from(l.into_owned())),
            );
        }
        lines.push(Line::raw(""));
        lines.push(Line::styled("Keys", bold()));
    }
    lines.extend(screen.keys().list.iter().map(|(key, what)| {
        Line::from(vec![
            Span::styled(format!("{key:>18}  "), bold()),
            Span::raw(*what),
        ])
    }));
    lines.push(Line::raw(""));
    lines.extend(screen.help_foot().into_iter().map(Line::raw));
    let area = middle(frame, width, lines.len() as u16 + 2);
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .border_type(BorderType::Double)
                .title(" Help (any key closes it) "),
        ),
        area,
    );
}

fn draw_confirm(frame: &mut Frame, question: &str) {
    let text = vec![
        Line::styled(question.to_string(), bold()),
        Line::raw(""),
        Line::raw("y: yes · any other key: no"),
    ];
    let area = middle(frame, 64, 6);
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .block(Block::bordered().border_type(BorderType::Double)),
        area,
    );
}

fn draw_cover(frame: &mut Frame, name: &str) {
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

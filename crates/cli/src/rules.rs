//! `tabletop rules GAME`: a game's rules page (`Present::rules`) in the terminal, paragraphs
//! and lists wrapped to the terminal's width (or 80 columns), tables aligned with their
//! cells wrapped inside their columns; `--json` prints the structured page.
use crate::user;
use engine::{Block, Rules};
use textwrap::core::display_width;

#[derive(clap::Args)]
pub struct RulesArgs {
    /// The game: dropsite, distopia or euphoria.
    pub game: String,
    /// Print the page as JSON (title, sections of paragraphs, lists and tables).
    #[arg(long)]
    pub json: bool,
    /// Wrap to this many columns (default: the terminal's width, or 80).
    #[arg(long, value_parser = clap::value_parser!(u16).range(30..=1000))]
    pub width: Option<u16>,
}

pub fn run(args: RulesArgs) -> anyhow::Result<()> {
    let game = catalog::game(&args.game).map_err(user)?;
    let rules = game.rules();
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&rules)?)?;
        return Ok(());
    }
    let width = args.width.map_or_else(terminal_width, usize::from);
    out!("{}", render(&rules, width))?;
    Ok(())
}

/// The terminal's width, or 80 when the output is not a terminal.
fn terminal_width() -> usize {
    terminal_size::terminal_size().map_or(80, |(w, _)| usize::from(w.0).clamp(30, 160))
}

/// The page as text lines of at most `width` columns (a word longer than a line
/// excepted).
pub fn render(rules: &Rules, width: usize) -> String {
    let mut out = String::new();
    let title = rules.title.to_uppercase();
    out.push_str(&format!("{title}\n{}\n", "=".repeat(display_width(&title))));
    for section in &rules.sections {
        out.push_str(&format!(
            "\n{}\n{}\n",
            section.heading,
            "-".repeat(display_width(&section.heading))
        ));
        for block in &section.blocks {
            out.push('\n');
            match block {
                Block::Paragraph { text } => {
                    for line in textwrap::wrap(text, width) {
                        out.push_str(&line);
                        out.push('\n');
                    }
                }
                Block::List { items } => {
                    let options = textwrap::Options::new(width)
                        .initial_indent("  - ")
                        .subsequent_indent("    ");
                    for item in items {
                        for line in textwrap::wrap(item, &options) {
                            out.push_str(&line);
                            out.push('\n');
                        }
                    }
                }
                Block::Table { columns, rows } => table(&mut out, columns, rows, width),
            }
        }
    }
    out
}

/// Space between two columns.
const GAP: usize = 2;

/// A table whose columns share `width`: a column that fits in its share keeps its natural
/// width, the others split what is left and wrap their cells.
fn table(out: &mut String, columns: &[String], rows: &[Vec<String>], width: usize) {
    let n = columns.len().max(1);
    let natural: Vec<usize> = (0..n)
        .map(|c| {
            std::iter::once(columns.get(c))
                .chain(rows.iter().map(|r| r.get(c)))
                .flatten()
                .map(|s| display_width(s))
                .max()
                .unwrap_or(0)
                .max(1)
        })
        .collect();
    let least: Vec<usize> = (0..n)
        .map(|c| {
            std::iter::once(columns.get(c))
                .chain(rows.iter().map(|r| r.get(c)))
                .flatten()
                .flat_map(|s| s.split_whitespace())
                .map(display_width)
                .max()
                .unwrap_or(1)
        })
        .collect();
    let room = width.saturating_sub(GAP * (n - 1)).max(n);
    let widths = share(&natural, &least, room);
    let cells = |row: &[String]| -> Vec<Vec<String>> {
        (0..n)
            .map(|c| {
                let text = row.get(c).map_or("", String::as_str);
                textwrap::wrap(text, widths[c])
                    .into_iter()
                    .map(|l| l.into_owned())
                    .collect()
            })
            .collect()
    };
    let print = |out: &mut String, lines: &[Vec<String>]| {
        let height = lines.iter().map(Vec::len).max().unwrap_or(0).max(1);
        for i in 0..height {
            let mut line = String::new();
            for (c, cell) in lines.iter().enumerate() {
                let text = cell.get(i).map_or("", String::as_str);
                line.push_str(text);
                if c + 1 < n {
                    let pad = widths[c].saturating_sub(display_width(text)) + GAP;
                    line.push_str(&" ".repeat(pad));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    };
    print(out, &cells(columns));
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out.push_str(&rule.join(&" ".repeat(GAP)));
    out.push('\n');
    let mut tall_before = false;
    for (i, row) in rows.iter().enumerate() {
        let lines = cells(row);
        // A row of several lines is set apart from its neighbours by a blank line.
        let tall = lines.iter().any(|cell| cell.len() > 1);
        if i > 0 && (tall || tall_before) {
            out.push('\n');
        }
        tall_before = tall;
        print(out, &lines);
    }
}

/// Widths for columns of these natural widths in `room` columns, each at least the
/// width of its longest word (`least`) where that fits: what is left over the least
/// widths goes to the columns in proportion to how much more they would take.
fn share(natural: &[usize], least: &[usize], room: usize) -> Vec<usize> {
    if natural.iter().sum::<usize>() <= room {
        return natural.to_vec();
    }
    let least: Vec<usize> = natural
        .iter()
        .zip(least)
        .map(|(&n, &l)| l.clamp(1, n))
        .collect();
    let floor: usize = least.iter().sum();
    if floor >= room {
        return least;
    }
    let wants: Vec<usize> = natural.iter().zip(&least).map(|(n, l)| n - l).collect();
    let wanted: usize = wants.iter().sum();
    let extra = room - floor;
    let mut widths: Vec<usize> = least
        .iter()
        .zip(&wants)
        .map(|(l, w)| l + w * extra / wanted.max(1))
        .collect();
    // What the rounding left goes to the columns that want more, first come first.
    let mut rest = room.saturating_sub(widths.iter().sum());
    for (c, w) in widths.iter_mut().enumerate() {
        if rest == 0 {
            break;
        }
        if *w < natural[c] {
            *w += 1;
            rest -= 1;
        }
    }
    widths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_fits_and_every_table_row_is_there() {
        for name in catalog::GAMES {
            let rules = catalog::game(name).expect("listed").rules();
            for width in [72, 100, 140] {
                let text = render(&rules, width);
                for line in text.lines() {
                    // A single word longer than the line may stick out; nothing else.
                    assert!(
                        display_width(line) <= width || !line.trim().contains(' '),
                        "{name} at {width}: {line:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn columns_share_the_width_by_what_they_need() {
        assert_eq!(share(&[5, 6], &[5, 6], 80), vec![5, 6]);
        let w = share(&[6, 30, 100], &[6, 10, 12], 76);
        assert_eq!(w[0], 6, "a column of one word keeps its width");
        assert!(w[2] > w[1], "the wider text gets more room: {w:?}");
        assert_eq!(w.iter().sum::<usize>(), 76);
        assert_eq!(
            share(&[40, 40], &[30, 30], 50),
            vec![30, 30],
            "words stay whole"
        );
    }
}

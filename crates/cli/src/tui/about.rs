//! The rules of the thing under the cursor (`?` on a move): the move in the game's words
//! ([`engine::Present::describe`]), what the board says of the part it takes or goes to,
//! and the passages of the game's rules page ([`engine::Present::rules`]) that speak of
//! it. Found by the move's own words and the board's names for its parts, so it works for
//! any game without knowing its rules.
use engine::{Block, LegalMove, Rules};

/// Words too common to tell one rule from another.
const COMMON: &[&str] = &[
    "about", "after", "also", "another", "before", "being", "card", "cards", "each", "every",
    "from", "have", "into", "more", "must", "only", "other", "over", "play", "player", "players",
    "same", "seat", "than", "that", "their", "them", "then", "there", "these", "they", "this",
    "turn", "when", "where", "which", "with", "would", "your", "free", "gives", "give", "gets",
    "what", "while", "once", "none", "some", "does",
];

/// How many passages of the rules are shown at most.
const PASSAGES: usize = 4;

/// Lines telling `m` (a legal move now) from its words, the `board` text drawn for the
/// viewer, and the game's `rules`.
pub fn about_move(m: &LegalMove, board: &str, rules: &Rules) -> Vec<String> {
    let mut lines = vec![format!("{}  [{}]", m.text.label, m.action)];
    // The board names its places by a word in brackets (`[farm]`): the board's lines
    // about the part the move takes or goes to, and the name it gives it.
    let mut names: Vec<String> = Vec::new();
    let parts = [m.text.from.as_deref(), m.text.to.as_deref()];
    let words: Vec<&str> = parts
        .into_iter()
        .flatten()
        .flat_map(|key| key.split(':').skip(1))
        .filter(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .collect();
    let board_lines: Vec<&str> = board.lines().collect();
    let mut shown = Vec::new();
    for word in words {
        let mark = format!("[{word}]");
        let Some(at) = board_lines.iter().position(|l| l.contains(&mark)) else {
            continue;
        };
        let line = board_lines[at];
        let name = line[..line.find(&mark).unwrap_or(0)]
            .trim()
            .trim_start_matches(|c: char| !c.is_alphanumeric());
        if name.len() > 2 && name.split_whitespace().count() <= 4 {
            names.push(name.trim().to_string());
        }
        // The line and the ones indented under it.
        let depth = indent(line);
        shown.push(line.trim().to_string());
        shown.extend(
            board_lines[at + 1..]
                .iter()
                .take_while(|l| indent(l) > depth && !l.trim().is_empty())
                .map(|l| l.trim().to_string()),
        );
    }
    if !shown.is_empty() {
        lines.push(String::new());
        lines.push("On the board:".to_string());
        lines.extend(shown);
    }
    let passages = passages(rules, &m.text.label, &names);
    if !passages.is_empty() {
        lines.push(String::new());
        lines.push(format!("From the rules ({}):", rules.title));
        lines.extend(passages);
    }
    lines
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The words of `text` a rule may be found by: lowercase, four letters or more, not
/// common, a plural's `s` taken off ("districts" finds "district").
fn keywords(text: &str) -> Vec<String> {
    let mut words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 4 && w.chars().all(char::is_alphabetic))
        .map(str::to_lowercase)
        .filter(|w| !COMMON.contains(&w.as_str()))
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.len() >= 4 && !stem.ends_with('s') => stem.to_string(),
            _ => w,
        })
        .collect();
    words.sort();
    words.dedup();
    words
}

/// One passage of the rules: its section's heading, its text, its words.
struct Passage<'a> {
    heading: &'a str,
    text: String,
    /// The first cell of a table's row (what the row is about).
    first: Option<String>,
    words: Vec<String>,
}

/// The rules' passages (a paragraph, a list's point, a table's row) that best share the
/// move's `label`'s rarer words, a passage naming one of the board's `names` first; each
/// under its section's heading, in the page's order.
fn passages(rules: &Rules, label: &str, names: &[String]) -> Vec<String> {
    let mut all: Vec<Passage> = Vec::new();
    for section in &rules.sections {
        for block in &section.blocks {
            let texts: Vec<(String, Option<String>)> = match block {
                Block::Paragraph { text } => vec![(text.clone(), None)],
                Block::List { items } => items.iter().map(|i| (i.clone(), None)).collect(),
                Block::Table { columns, rows } => rows
                    .iter()
                    .map(|row| {
                        let text = columns
                            .iter()
                            .zip(row)
                            .map(|(c, cell)| format!("{c}: {cell}"))
                            .collect::<Vec<_>>()
                            .join("; ");
                        (text, row.first().map(|c| c.to_lowercase()))
                    })
                    .collect(),
            };
            all.extend(texts.into_iter().map(|(text, first)| Passage {
                heading: &section.heading,
                words: keywords(&text),
                text,
                first,
            }));
        }
    }
    // A word found in few passages tells more than one found in many.
    let total = all.len().max(1) as f64;
    let weight = |word: &String| {
        let found = all.iter().filter(|p| p.words.contains(word)).count().max(1) as f64;
        (total / found).ln()
    };
    let words: Vec<(String, f64)> = keywords(label)
        .into_iter()
        .map(|w| {
            let v = weight(&w);
            (w, v)
        })
        .collect();
    let names: Vec<String> = names
        .iter()
        .map(|n| n.to_lowercase())
        .filter(|n| n.len() > 2)
        .collect();
    let mut scored: Vec<(f64, usize)> = all
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let lower = p.text.to_lowercase();
            let mut score: f64 = words
                .iter()
                .filter(|(w, _)| p.words.contains(w))
                .map(|(_, v)| v)
                .sum();
            if names.iter().any(|n| lower.contains(n.as_str())) {
                score += 3.0;
            }
            if p.first.as_ref().is_some_and(|f| names.contains(f)) {
                score += 3.0;
            }
            (score, i)
        })
        .filter(|&(score, _)| score > 0.0)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let best = scored.first().map_or(0.0, |s| s.0);
    scored.retain(|s| s.0 >= best * 0.6);
    // Where only common words are shared, the two best passages.
    scored.truncate(if best >= 2.0 { PASSAGES } else { 2 });
    // Told in the page's order.
    scored.sort_by_key(|s| s.1);
    scored
        .into_iter()
        .map(|(_, i)| format!("• {}: {}", all[i].heading, all[i].text))
        .collect()
}

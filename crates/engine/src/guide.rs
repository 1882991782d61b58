//! A game's rules written for people ([`crate::Present::rules`]): sections of paragraphs,
//! lists and tables, the prose kept as data in each game crate and the tables filled from
//! the game's own component data. Front ends render it (`GET /api/games/{game}/rules`,
//! `tabletop rules GAME`) and keep no copy of their own.
use crate::about::{About, GameOption, Input};
use serde::Serialize;

/// A game's rules page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rules {
    /// "How to play Drop Site".
    pub title: String,
    /// In reading order.
    pub sections: Vec<Section>,
}

/// One part of the rules under a heading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Section {
    pub heading: String,
    pub blocks: Vec<Block>,
}

/// A paragraph, a list or a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Block {
    /// Running text.
    Paragraph { text: String },
    /// Points in order (steps, or cases).
    List { items: Vec<String> },
    /// Rows of cells under column headings; every row has one cell per column.
    Table {
        columns: Vec<String>,
        rows: Vec<Vec<String>>,
    },
}

impl Block {
    /// A paragraph.
    pub fn text(text: impl Into<String>) -> Block {
        Block::Paragraph { text: text.into() }
    }

    /// A list of items.
    pub fn list<S: Into<String>>(items: impl IntoIterator<Item = S>) -> Block {
        Block::List {
            items: items.into_iter().map(Into::into).collect(),
        }
    }

    /// A table with these column headings and rows.
    pub fn table(columns: &[&str], rows: Vec<Vec<String>>) -> Block {
        Block::Table {
            columns: columns.iter().map(|c| (*c).to_string()).collect(),
            rows,
        }
    }

    /// Every text of the block: a paragraph, the items, the headings and cells.
    pub fn texts(&self) -> Vec<&str> {
        match self {
            Block::Paragraph { text } => vec![text.as_str()],
            Block::List { items } => items.iter().map(String::as_str).collect(),
            Block::Table { columns, rows } => columns
                .iter()
                .chain(rows.iter().flatten())
                .map(String::as_str)
                .collect(),
        }
    }
}

impl Section {
    /// A section with its blocks.
    pub fn new(heading: impl Into<String>, blocks: Vec<Block>) -> Section {
        Section {
            heading: heading.into(),
            blocks,
        }
    }

    /// The section's tables, as (columns, rows).
    pub fn tables(&self) -> impl Iterator<Item = (&[String], &[Vec<String>])> {
        self.blocks.iter().filter_map(|b| match b {
            Block::Table { columns, rows } => Some((columns.as_slice(), rows.as_slice())),
            _ => None,
        })
    }
}

impl Rules {
    /// The section with this heading.
    pub fn section(&self, heading: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.heading == heading)
    }

    /// Every text of the page, the title and headings included.
    pub fn texts(&self) -> Vec<&str> {
        let mut out = vec![self.title.as_str()];
        for section in &self.sections {
            out.push(section.heading.as_str());
            for block in &section.blocks {
                out.extend(block.texts());
            }
        }
        out
    }

    /// The whole page as one lowercase string, for tests that look for a word.
    pub fn lowercase(&self) -> String {
        self.texts().join("\n").to_lowercase()
    }

    /// What is wrong with the page: an empty title, heading, section, paragraph, list or
    /// table; a row whose cell count differs from the columns'; a heading used twice; a
    /// code mark, a seat counted from 0 or a plural after 1 ("1 points") anywhere.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if self.title.trim().is_empty() {
            problems.push("the rules have no title".to_string());
        }
        if self.sections.is_empty() {
            problems.push("the rules have no section".to_string());
        }
        for (i, section) in self.sections.iter().enumerate() {
            let name = &section.heading;
            if name.trim().is_empty() {
                problems.push(format!("section {} has no heading", i + 1));
            }
            if self.sections[..i].iter().any(|s| &s.heading == name) {
                problems.push(format!("the heading {name:?} is used twice"));
            }
            if section.blocks.is_empty() {
                problems.push(format!("section {name:?} is empty"));
            }
            for block in &section.blocks {
                match block {
                    Block::Paragraph { text } if text.trim().is_empty() => {
                        problems.push(format!("section {name:?}: an empty paragraph"));
                    }
                    Block::List { items } if items.is_empty() => {
                        problems.push(format!("section {name:?}: an empty list"));
                    }
                    Block::Table { columns, rows } => {
                        if columns.is_empty() || rows.is_empty() {
                            problems.push(format!("section {name:?}: an empty table"));
                        }
                        for row in rows {
                            if row.len() != columns.len() {
                                problems.push(format!(
                                    "section {name:?}: a row of {} cells under {} columns: {row:?}",
                                    row.len(),
                                    columns.len()
                                ));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        for text in self.texts() {
            problems.extend(crate::ending::words_problem(text));
        }
        problems
    }
}

/// The heading of the section [`options`] makes.
pub const OPTIONS: &str = "Options";

/// What the rules page says before the variants.
pub const VARIANTS: &str = "Variants: rules some tables change, another printing, and data for studies. A first game needs none of them; the table form keeps them folded under Variants.";

/// The options section, made from the game's option list (`about`, its defaults filled
/// in by [`About::defaults`]): for each option its label, its help, the values it takes,
/// what a standard game has, and the game's own explanation from `explain` (by the
/// option's key); the main options first, then the variants after [`VARIANTS`]. An
/// option `explain` lacks is listed by [`unexplained`].
pub fn options(about: &About, intro: &str, explain: &[(&str, &str)]) -> Section {
    let item = |option: &&GameOption| {
        let mut item = format!("{}: {}", option.label, option.help.trim_end_matches('.'));
        item.push('.');
        if let Some(values) = values(option) {
            item.push_str(&format!(" {values}."));
        }
        item.push_str(&format!(" A standard game has {}.", standard(option)));
        if let Some((_, words)) = explain.iter().find(|(key, _)| *key == option.key) {
            item.push(' ');
            item.push_str(words);
        }
        item
    };
    let (variants, main): (Vec<&GameOption>, Vec<&GameOption>) =
        about.options.iter().partition(|o| o.is_variant());
    let mut blocks = vec![Block::text(intro), Block::list(main.iter().map(item))];
    if !variants.is_empty() {
        blocks.push(Block::text(VARIANTS));
        blocks.push(Block::list(variants.iter().map(item)));
    }
    Section::new(OPTIONS, blocks)
}

/// The options of `about` that `explain` says nothing about.
pub fn unexplained<'a>(about: &'a About, explain: &[(&str, &str)]) -> Vec<&'a str> {
    about
        .options
        .iter()
        .map(|o| o.key)
        .filter(|key| {
            !explain
                .iter()
                .any(|(k, words)| k == key && !words.trim().is_empty())
        })
        .collect()
}

/// The values an option takes, in words.
fn values(option: &GameOption) -> Option<String> {
    match &option.input {
        Input::Number { min, max, none } => {
            let mut words = format!("A whole number from {min} to {max}");
            if let Some(none) = none {
                words.push_str(&format!(", or none: {none}"));
            }
            Some(words)
        }
        Input::Toggle => Some("On or off".into()),
        Input::Choice { choices } => {
            let labels: Vec<&str> = choices.iter().map(|c| c.label.as_str()).collect();
            Some(format!("One of: {}", labels.join("; ")))
        }
        Input::Seat => Some("A seat, counted from 1".into()),
        Input::Data => None,
    }
}

/// What a standard game has for an option, in words.
fn standard(option: &GameOption) -> String {
    let value = &option.default;
    match &option.input {
        Input::Number { none, .. } => match (value.as_i64(), none) {
            (Some(n), _) => n.to_string(),
            (None, Some(none)) => none.clone(),
            (None, None) => "none".into(),
        },
        Input::Toggle => {
            if value.as_bool() == Some(true) {
                "it on".into()
            } else {
                "it off".into()
            }
        }
        Input::Choice { choices } => choices
            .iter()
            .find(|c| &c.value == value)
            .map_or_else(|| "no choice".into(), |c| c.label.clone()),
        Input::Seat => value
            .as_u64()
            .map_or_else(|| "no seat".into(), |n| format!("seat {}", n + 1)),
        Input::Data => "the printed cards".into(),
    }
}

/// An English ordinal for the rules' prose: "1st", "2nd", "3rd", "11th", "22nd".
pub fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_found_and_json_is_tagged() {
        let good = Rules {
            title: "How to play".into(),
            sections: vec![Section::new(
                "Goal",
                vec![
                    Block::text("Score 1 point a card."),
                    Block::list(["one", "two"]),
                    Block::table(&["Card", "Points"], vec![vec!["A".into(), "1".into()]]),
                ],
            )],
        };
        assert_eq!(good.problems(), Vec::<String>::new());
        let json = serde_json::to_value(&good).expect("json");
        assert_eq!(json["sections"][0]["blocks"][0]["kind"], "paragraph");
        assert_eq!(json["sections"][0]["blocks"][2]["rows"][0][1], "1");
        let mut bad = good.clone();
        bad.sections.push(Section::new(
            "Goal",
            vec![
                Block::text("Take 1 cards from seat 0."),
                Block::table(&["Card", "Points"], vec![vec!["A".into()]]),
            ],
        ));
        let problems = bad.problems();
        assert_eq!(problems.len(), 3, "{problems:?}");
    }
}

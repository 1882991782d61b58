//! Sentences for one reader: how texts name seats, and the one grammar every game's words
//! go through.
//!
//! A text that names seats is written once as a whole template with slots, and made into
//! a sentence for each reader by [`Names::say`]: the reader's own seat becomes "you" and
//! takes the plain form of a verb ("you offer", "Bea offers"), a possessive becomes
//! "your", "their" (the sentence's subject's own) or "Bea's". A template is a whole
//! sentence with parameters, never glued from pieces, so that another language could be
//! given its own templates later.
//!
//! ```
//! use engine::text::{seat, word, Names};
//! use engine::Viewer;
//! let template = "{who} picked up {owner's} district {d}";
//! let bea = Names::for_viewer(Viewer::Seat(1)).with_names(vec!["Ada".into(), "Bea".into()]);
//! assert_eq!(bea.say(template, &[("who", seat(1)), ("owner", seat(1)), ("d", word("A"))]),
//!            "you picked up your district A");
//! let ada = Names::for_viewer(Viewer::Seat(0)).with_names(vec!["Ada".into(), "Bea".into()]);
//! assert_eq!(ada.say(template, &[("who", seat(1)), ("owner", seat(1)), ("d", word("A"))]),
//!            "Bea picked up their district A");
//! assert_eq!(ada.say(template, &[("who", seat(1)), ("owner", seat(0)), ("d", word("A"))]),
//!            "Bea picked up your district A");
//! ```
use crate::{Seat, Viewer};
use std::fmt::Write as _;
use std::sync::Arc;

/// How texts name seats: "you" for the viewer, a player's name where one was given,
/// otherwise "seat N" counted from 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    names: Arc<[String]>,
    you: Option<Seat>,
}

/// One value a template's slot is filled with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg<'a> {
    /// A seat, named for the reader.
    Seat(Seat),
    /// Words put in as they are (a card's name, a number already written out).
    Word(std::borrow::Cow<'a, str>),
}

/// A seat for a slot.
pub fn seat<'a>(seat: Seat) -> Arg<'a> {
    Arg::Seat(seat)
}

/// Words for a slot, borrowed or owned.
pub fn word<'a>(text: impl Into<std::borrow::Cow<'a, str>>) -> Arg<'a> {
    Arg::Word(text.into())
}

impl Names {
    /// Seats by number, the viewer's as "you".
    pub fn for_viewer(viewer: Viewer) -> Names {
        Names {
            names: Arc::new([]),
            you: viewer.seat(),
        }
    }

    /// Players' names by seat (an empty name falls back to the seat number).
    pub fn with_names(self, names: Vec<String>) -> Names {
        self.with_shared_names(names.into())
    }

    /// The same, from a list shared with other viewers' names (no copy).
    pub fn with_shared_names(mut self, names: Arc<[String]>) -> Names {
        self.names = names;
        self
    }

    /// Names from who sits where (`human`, or a bot such as `random`): people are "seat N",
    /// bots "seat N (random)".
    pub fn with_players(self, players: &[String]) -> Names {
        let names = players
            .iter()
            .enumerate()
            .map(|(s, p)| match p.trim() {
                "" | "human" => format!("seat {}", s + 1),
                bot => format!("seat {} ({bot})", s + 1),
            })
            .collect();
        self.with_names(names)
    }

    /// Names as a table gives them ([`table_names`]), the viewer's seat as "you".
    pub fn for_table(viewer: Viewer, players: &[String], shown: &[String]) -> Names {
        Names::for_viewer(viewer).with_shared_names(table_names(players, shown))
    }

    /// The reader's own seat, if the reader sits at the table.
    pub fn reader(&self) -> Option<Seat> {
        self.you
    }

    /// Whether `seat` is the reader's own.
    pub fn is_you(&self, seat: Seat) -> bool {
        self.you == Some(seat)
    }

    /// The seat as the subject or object of a sentence: "you", "Ann", "seat 2".
    pub fn seat(&self, seat: Seat) -> String {
        if self.is_you(seat) {
            return "you".into();
        }
        self.name(seat)
    }

    /// The seat's name as a third person sees it, even for the reader's own seat.
    pub fn name(&self, seat: Seat) -> String {
        match self.names.get(seat).map(|n| n.trim()) {
            Some(name) if !name.is_empty() => name.to_string(),
            _ => format!("seat {}", seat + 1),
        }
    }

    /// The seat's possessive where nobody else in the sentence is named: "your",
    /// "Ann's", "seat 2's".
    pub fn of(&self, seat: Seat) -> String {
        if self.is_you(seat) {
            "your".into()
        } else {
            format!("{}'s", self.name(seat))
        }
    }

    /// Several seats: "seat 1", "seat 1 and you", "seat 1, seat 2 and seat 3".
    pub fn list(&self, seats: &[Seat]) -> String {
        let named: Vec<String> = seats.iter().map(|&s| self.seat(s)).collect();
        and_list(&named, "nobody")
    }

    /// `template` made into a sentence for this reader, its slots filled from `args`.
    ///
    /// The slots, each in braces, named by an argument:
    /// - `{who}`: a seat as the reader knows it ("you", "Bea", "seat 2"), or the words given;
    /// - `{who's}`: the seat's possessive: "your" for the reader's own seat, "their" where
    ///   the seat is the sentence's subject (its first seat slot that is no possessive),
    ///   otherwise "Bea's";
    /// - `{who:offer|offers}`: a verb (or any word) agreeing with the seat: the first form
    ///   with "you", the second with anyone else. A seat left out of the sentence is known
    ///   by its name: `{who:offer|offers}` alone agrees with it all the same.
    ///
    /// `{{` and `}}` stand for braces. A slot with no argument is left as written, so a
    /// mistake in a template shows in its text (and the templates' tests catch it).
    pub fn say(&self, template: &str, args: &[(&str, Arg<'_>)]) -> String {
        let mut out = String::with_capacity(template.len() + 16);
        let subject = first_seat(template, args);
        let mut rest = template;
        while let Some(open) = rest.find(['{', '}']) {
            out.push_str(&rest[..open]);
            let brace = rest.as_bytes()[open];
            let after = &rest[open + 1..];
            if after.as_bytes().first() == Some(&brace) {
                out.push(brace as char);
                rest = &after[1..];
                continue;
            }
            let Some(close) = after.find('}').filter(|_| brace == b'{') else {
                out.push(brace as char);
                rest = after;
                continue;
            };
            let slot = &after[..close];
            if !self.fill(&mut out, slot, args, subject) {
                out.push('{');
                out.push_str(slot);
                out.push('}');
            }
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        out
    }

    /// Writes one slot's words; false when it names no argument.
    fn fill(
        &self,
        out: &mut String,
        slot: &str,
        args: &[(&str, Arg<'_>)],
        subject: Option<Seat>,
    ) -> bool {
        let (name, form) = parse_slot(slot);
        let Some(arg) = find(args, name) else {
            return false;
        };
        match (arg, form) {
            (Arg::Seat(s), Form::Plain) => out.push_str(&self.seat(*s)),
            (Arg::Seat(s), Form::Possessive) if self.is_you(*s) => out.push_str("your"),
            (Arg::Seat(s), Form::Possessive) if subject == Some(*s) => out.push_str("their"),
            (Arg::Seat(s), Form::Possessive) => {
                let _ = write!(out, "{}'s", self.name(*s));
            }
            (Arg::Seat(s), Form::Agree { you, other }) => {
                out.push_str(if self.is_you(*s) { you } else { other })
            }
            (Arg::Word(w), Form::Plain) => out.push_str(w),
            (Arg::Word(w), Form::Possessive) => {
                let _ = write!(out, "{w}'s");
            }
            // Words agree as a third person does.
            (Arg::Word(_), Form::Agree { other, .. }) => out.push_str(other),
        }
        true
    }
}

/// What a slot asks of its argument.
enum Form<'t> {
    Plain,
    Possessive,
    Agree { you: &'t str, other: &'t str },
}

fn parse_slot(slot: &str) -> (&str, Form<'_>) {
    if let Some((name, forms)) = slot.split_once(':') {
        let (you, other) = forms.split_once('|').unwrap_or((forms, forms));
        return (name, Form::Agree { you, other });
    }
    match slot.strip_suffix("'s") {
        Some(name) => (name, Form::Possessive),
        None => (slot, Form::Plain),
    }
}

fn find<'a, 'b>(args: &'b [(&str, Arg<'a>)], name: &str) -> Option<&'b Arg<'a>> {
    args.iter().find(|(n, _)| *n == name).map(|(_, a)| a)
}

/// The seat of the first slot that names a seat (not as a possessive): the sentence's
/// subject.
fn first_seat(template: &str, args: &[(&str, Arg<'_>)]) -> Option<Seat> {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        if let Some(escaped) = after.strip_prefix('{') {
            rest = escaped;
            continue;
        }
        let close = after.find('}')?;
        // A possessive is no subject: in "{owner's} district was refilled" nobody acts.
        let (name, form) = parse_slot(&after[..close]);
        if let (Some(Arg::Seat(s)), false) = (find(args, name), matches!(form, Form::Possessive)) {
            return Some(*s);
        }
        rest = &after[close + 1..];
    }
    None
}

/// The name a table shows for a seat nobody named: "Seat N", counted from 1.
pub fn unnamed_seat(seat: Seat) -> String {
    format!("Seat {}", seat + 1)
}

/// How a table's log names its seats, by seat, from who sits there (`players`: `human`
/// or a bot spec, as [`Names::with_players`]) and the name each seat shows (`shown`: the
/// name given, or [`unnamed_seat`]'s "Seat N"): a given name as it is, else "seat N" for a
/// person and "seat N (random)" for a bot.
///
/// The server names the seats of its log with this, from its seats and their display
/// names, and `tabletop log` names those of the server's published record (its `seats`
/// and `names`) with it too, so both tell a game in the same words.
pub fn table_names(players: &[String], shown: &[String]) -> Arc<[String]> {
    let by_player = Names::default().with_players(players);
    (0..players.len().max(shown.len()))
        .map(|seat| match shown.get(seat).map(|n| n.trim()) {
            Some(name) if !name.is_empty() && name != unnamed_seat(seat) => name.to_string(),
            _ => by_player.seat(seat),
        })
        .collect()
}

/// Words joined as a list is read: "a", "a and b", "a, b and c"; `none` for no words.
pub fn and_list<S: AsRef<str>>(items: &[S], none: &str) -> String {
    match items.split_last() {
        None => none.into(),
        Some((last, [])) => last.as_ref().into(),
        Some((last, rest)) => {
            let mut out = String::new();
            for (i, item) in rest.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(item.as_ref());
            }
            out.push_str(" and ");
            out.push_str(last.as_ref());
            out
        }
    }
}

/// Words joined as a choice: "a", "a or b", "a, b or c".
pub fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.as_ref().into(),
        Some((last, rest)) => {
            let firsts: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} or {}", firsts.join(", "), last.as_ref())
        }
    }
}

/// Checks a text as a reader gets it, for the grammar slips these helpers exist to
/// prevent; an empty list when it reads right. `names` are every seat's names as a third
/// person sees them (not "you").
///
/// It finds "you" starting a clause with a verb of the third person ("you offers", "you
/// has"), and a seat or name followed in the same sentence by its own possessive ("Bea
/// picked up Bea's A").
pub fn grammar_slips(text: &str, names: &[String]) -> Vec<String> {
    let mut slips = Vec::new();
    for sentence in sentences(text) {
        for clause in clauses(sentence) {
            let mut words = clause.split_whitespace();
            let (Some(first), Some(second)) = (words.next(), words.next()) else {
                continue;
            };
            if first.eq_ignore_ascii_case("you") && third_person_verb(second) {
                slips.push(format!("\"you {second}\" in \"{text}\""));
            }
        }
        for name in names.iter().filter(|n| !n.trim().is_empty()) {
            let Some(at) = find_word(sentence, name) else {
                continue;
            };
            let later = &sentence[at + name.len()..];
            if find_word(later, &format!("{name}'s")).is_some() {
                slips.push(format!("\"{name}\" then \"{name}'s\" in \"{text}\""));
            }
        }
    }
    slips
}

/// The sentences of a text: split at ". ", "; ", "! ", "? " and new lines.
fn sentences(text: &str) -> impl Iterator<Item = &str> {
    text.split(['\n', ';', '!', '?'])
        .flat_map(|part| part.split(". "))
        .filter(|s| !s.trim().is_empty())
}

/// The clauses of a sentence: its start and what follows ": ", ", ", "(", " and ",
/// " then ", " so ", " but ", " or ", " when ", " if ", " until ".
fn clauses(sentence: &str) -> Vec<&str> {
    let mut out = vec![sentence.trim_start()];
    for cut in [
        ":", ",", "(", "—", " and ", " then ", " so ", " but ", " or ", " when ", " if ", " until ",
    ] {
        let mut from = 0;
        while let Some(at) = sentence[from..].find(cut) {
            let start = from + at + cut.len();
            out.push(sentence[start..].trim_start());
            from = start;
        }
    }
    out
}

/// A word that, after a clause's "you", can only be a verb of the third person.
fn third_person_verb(word: &str) -> bool {
    let w: String = word
        .trim_matches(|c: char| !c.is_alphabetic())
        .to_ascii_lowercase();
    if matches!(w.as_str(), "is" | "has" | "was" | "does") {
        return true;
    }
    // "you offers", "you asks": a verb with the third person's s. Words that end in s
    // without being one: "you pass", "you focus", "yours" (not after "you").
    w.len() > 2
        && w.ends_with('s')
        && !w.ends_with("ss")
        && !w.ends_with("us")
        && !w.ends_with("is")
        && !matches!(w.as_str(), "yours" | "always" | "perhaps" | "as" | "was")
}

/// Where `word` stands in `text` as a whole word (not inside a longer one).
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = text[from..].find(word) {
        let start = from + at;
        let end = start + word.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        let joined = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '\'');
        // "seat 1" inside "seat 12", or "Bea" inside "Bea's" (a possessive alone is no
        // repeat of the name before it).
        if !joined(before) && !joined(after) {
            return Some(start);
        }
        from = start + word.len().max(1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Vec<String> {
        vec!["Ann".into(), "".into(), "Bea".into()]
    }

    #[test]
    fn names_say_you_use_given_names_and_count_seats_from_one() {
        let names = Names::for_viewer(Viewer::Seat(1)).with_names(table());
        assert_eq!(names.seat(0), "Ann");
        assert_eq!(names.of(0), "Ann's");
        assert_eq!(names.seat(1), "you");
        assert_eq!(names.of(1), "your");
        assert_eq!(names.name(1), "seat 2");
        assert_eq!(names.seat(3), "seat 4");
        assert_eq!(names.list(&[0, 1, 3]), "Ann, you and seat 4");
        let players = Names::for_viewer(Viewer::Seat(0)).with_players(&[
            "human".into(),
            "random".into(),
            "human".into(),
        ]);
        assert_eq!(players.list(&[0, 1, 2]), "you, seat 2 (random) and seat 3");
        let spectator = Names::for_viewer(Viewer::Spectator);
        assert_eq!(spectator.seat(1), "seat 2");
        assert_eq!(spectator.list(&[]), "nobody");
    }

    #[test]
    fn a_verb_agrees_with_its_seat_for_every_reader() {
        let template = "{who} {who:offer|offers} a trade to {partner}";
        let args = [("who", seat(0)), ("partner", seat(2))];
        let say = |viewer| {
            Names::for_viewer(viewer)
                .with_names(table())
                .say(template, &args)
        };
        assert_eq!(say(Viewer::Seat(0)), "you offer a trade to Bea");
        assert_eq!(say(Viewer::Seat(2)), "Ann offers a trade to you");
        assert_eq!(say(Viewer::Spectator), "Ann offers a trade to Bea");
        let be = Names::for_viewer(Viewer::Seat(1)).say("{s} {s:are|is} out", &[("s", seat(1))]);
        assert_eq!(be, "you are out");
    }

    #[test]
    fn a_possessive_is_yours_theirs_or_named() {
        let template = "{who} played a guard into {owner's} district {d}";
        let args = |owner| [("who", seat(0)), ("owner", seat(owner)), ("d", word("C"))];
        let names = |viewer| Names::for_viewer(viewer).with_names(table());
        assert_eq!(
            names(Viewer::Seat(0)).say(template, &args(0)),
            "you played a guard into your district C"
        );
        assert_eq!(
            names(Viewer::Seat(1)).say(template, &args(0)),
            "Ann played a guard into their district C"
        );
        assert_eq!(
            names(Viewer::Seat(1)).say(template, &args(1)),
            "Ann played a guard into your district C"
        );
        assert_eq!(
            names(Viewer::Spectator).say(template, &args(2)),
            "Ann played a guard into Bea's district C"
        );
        // With no seat before it, a possessive names its seat.
        assert_eq!(
            names(Viewer::Spectator).say("a siren at {owner's} district {d}", &args(0)),
            "a siren at Ann's district C"
        );
    }

    #[test]
    fn braces_and_unknown_slots_are_kept_as_written() {
        let names = Names::default();
        assert_eq!(names.say("{{x}} {y} }", &[]), "{x} {y} }");
        assert_eq!(names.say("{a:is}", &[("a", word("it"))]), "is");
        assert_eq!(
            names.say("{w's} turn {", &[("w", word("Ann"))]),
            "Ann's turn {"
        );
    }

    #[test]
    fn a_table_names_given_names_as_shown_and_unnamed_seats_by_who_sits_there() {
        let players: Vec<String> = ["human", "random", "human", "heuristic"]
            .map(String::from)
            .to_vec();
        let shown: Vec<String> = ["Ada", "Robo", "Seat 3", "Seat 4"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            &*table_names(&players, &shown),
            ["Ada", "Robo", "seat 3", "seat 4 (heuristic)"]
        );
        // Without the shown names (a bare record), seats are named by who sits there.
        assert_eq!(
            &*table_names(&players, &[]),
            ["seat 1", "seat 2 (random)", "seat 3", "seat 4 (heuristic)"]
        );
        assert!(table_names(&[], &[]).is_empty());
        let names = Names::for_table(Viewer::Seat(2), &players, &shown);
        assert_eq!(
            names.list(&[0, 1, 2, 3]),
            "Ada, Robo, you and seat 4 (heuristic)"
        );
    }

    #[test]
    fn lists_read_as_english() {
        assert_eq!(and_list::<&str>(&[], "nothing"), "nothing");
        assert_eq!(and_list(&["a"], "-"), "a");
        assert_eq!(and_list(&["a", "b", "c"], "-"), "a, b and c");
        assert_eq!(or_list(&["A", "B", "C"]), "A, B or C");
        assert_eq!(or_list(&["A"]), "A");
    }

    #[test]
    fn the_grammar_check_finds_the_slips_and_passes_good_english() {
        let names = ["seat 2 (medium)".to_string(), "Bea".to_string()];
        for bad in [
            "you offers a trade to seat 3",
            "you adds 1 food to give",
            "round 3: you has 12 points",
            "seat 2 (medium) picked up seat 2 (medium)'s D",
            "Bea picked up Bea's A",
        ] {
            assert!(!grammar_slips(bad, &names).is_empty(), "{bad}");
        }
        for good in [
            "you offer a trade to seat 3",
            "you pass",
            "Bea picked up your district A",
            "seat 2 (medium) picked up their district D",
            "Bea's die was bumped; Bea rolled 4",
            "seat 12 played seat 1's card",
            "the game gives you glasses",
        ] {
            assert!(
                grammar_slips(good, &names).is_empty(),
                "{good}: {:?}",
                grammar_slips(good, &names)
            );
        }
    }
}

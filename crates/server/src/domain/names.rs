//! What people type at a table, checked: display names, seat specs and chat lines. A text
//! that would show as something else (bidirectional controls, invisible-only names, line
//! separators, a name that looks like another seat's) is refused in words.

use super::error::{Refusal, TableError};
use super::store::{display_names, Player, SeatRow};
use super::text::{is_bidi_control, is_invisible, is_line_separator, truncate};
use engine::Seat;
use unicode_normalization::UnicodeNormalization;

/// The longest display name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The seats of `seats` nobody has taken yet.
pub fn open_seats(seats: &[SeatRow]) -> Vec<Seat> {
    (seats.iter().enumerate())
        .filter(|(_, s)| s.player == Player::Open)
        .map(|(seat, _)| seat)
        .collect()
}

/// The longest chat line accepted, in characters.
pub const MAX_CHAT_CHARS: usize = 500;

/// Why `text` (a name or a chat line, already trimmed) cannot be shown as one line that
/// reads as written, if it cannot: it shows nothing, holds a control character or a line
/// separator, or a bidirectional control.
pub(super) fn unshowable(text: &str, what: &str) -> Option<String> {
    if text.chars().all(is_invisible) {
        return Some(format!("{what} needs at least one visible character"));
    }
    if text.chars().any(|c| c.is_control() || is_line_separator(c)) {
        return Some(format!(
            "{what} is one line of text: no line breaks, line or paragraph separators or control characters"
        ));
    }
    if text.chars().any(is_bidi_control) {
        return Some(format!(
            "{what} may not hold a bidirectional embedding, override or isolate control (U+202A to U+202E, U+2066 to U+2069): it would reorder the text around it"
        ));
    }
    None
}

/// Checks a display name given for a seat: trimmed, 1 to [`MAX_NAME_CHARS`] characters,
/// at least one visible, no control characters, line separators or bidirectional
/// controls. The name is stored as given otherwise; every page shows it as text
/// (escaped), never as markup.
///
/// # Errors
/// `seat/name` with the reason.
pub fn display_name(given: &str) -> Result<String, TableError> {
    let bad = |why: String| TableError::new(Refusal::Name, why);
    // One spelling of each name: "é" typed as one character or as "e" and an accent. The
    // name is checked as it is stored: NFC may make it longer (U+0F73 is two characters
    // in NFC), so a name measured before would be stored past the limit.
    let name: String = given.trim().nfc().collect();
    if name.is_empty() {
        return Err(bad("a name needs at least one visible character".into()));
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(bad(format!(
            "a name has at most {MAX_NAME_CHARS} characters; this one has {chars}"
        )));
    }
    if let Some(why) = unshowable(&name, "a name") {
        return Err(bad(why));
    }
    Ok(name)
}

/// The confusable skeleton of a name (Unicode's UTS #39): two names with the same one
/// look alike ("Ada" and "Аda" with a Cyrillic А).
pub(super) fn skeleton(name: &str) -> String {
    unicode_security::confusable_detection::skeleton(name.trim()).collect()
}

/// Checks that the name given to each of `seats` cannot be taken for another seat's
/// display name among `rows` (a seat with no given name shows as "Seat N").
///
/// # Errors
/// `seat/name_confusable`, naming the seat it looks like.
pub fn check_confusable(
    rows: &[SeatRow],
    seats: impl IntoIterator<Item = Seat>,
) -> Result<(), TableError> {
    let names = display_names(rows);
    let skeletons: Vec<String> = names.iter().map(|n| skeleton(n)).collect();
    for seat in seats {
        if rows.get(seat).is_none_or(|row| row.name.is_none()) {
            continue;
        }
        let alike = (skeletons.iter().enumerate())
            .find(|(other, s)| *other != seat && **s == skeletons[seat]);
        if let Some((other, _)) = alike {
            return Err(TableError::new(
                Refusal::NameConfusable,
                format!(
                    "the name `{}` of seat {} looks like the name of seat {} (the same letters to the eye, as Unicode's confusables have it); choose another",
                    truncate(&names[seat], MAX_NAME_CHARS),
                    seat + 1,
                    other + 1
                ),
            ));
        }
    }
    Ok(())
}

/// One seat as a table's creator gives it (see [`parse_seat`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatSpec {
    /// `human`, `open` or a bot spec, as given.
    pub player: String,
    /// The name given, checked.
    pub name: Option<String>,
    /// The account named to own the seat, as given.
    pub account: Option<String>,
}

/// One seat as a table's creator gives it: `"human"`, a bot spec such as `"medium"`, or
/// an object `{"player": "human", "name": "Ada"}` (the name is optional), which may name
/// the account that owns the seat: `{"player": "human", "account": "Bea"}`.
///
/// # Errors
/// `seat/invalid` for any other shape, `seat/name` for a bad name.
pub fn parse_seat(given: &serde_json::Value) -> Result<SeatSpec, TableError> {
    let invalid = |why: String| TableError::new(Refusal::SeatInvalid, why);
    match given {
        serde_json::Value::String(player) => Ok(SeatSpec {
            player: player.clone(),
            name: None,
            account: None,
        }),
        serde_json::Value::Object(map) => {
            if let Some(key) =
                (map.keys()).find(|k| !["player", "name", "account"].contains(&k.as_str()))
            {
                return Err(invalid(format!(
                    "unknown seat field `{}`: expected `player`, `name` and `account`",
                    truncate(key, 40)
                )));
            }
            let account = match map.get("account") {
                None | Some(serde_json::Value::Null) => None,
                Some(serde_json::Value::String(a)) => Some(a.clone()),
                Some(_) => return Err(invalid("a seat's `account` must be a string".into())),
            };
            let player = match map.get("player") {
                Some(serde_json::Value::String(p)) => p.clone(),
                _ => return Err(invalid("a seat object needs a `player` string".into())),
            };
            let name = match map.get("name") {
                None | Some(serde_json::Value::Null) => None,
                Some(serde_json::Value::String(n)) => Some(display_name(n)?),
                Some(_) => return Err(invalid("a seat's `name` must be a string".into())),
            };
            Ok(SeatSpec {
                player,
                name,
                account,
            })
        }
        _ => Err(invalid(
            "a seat is a string (`human` or a bot) or {\"player\": …, \"name\": …}".into(),
        )),
    }
}

/// Checks a chat line: trimmed, 1 to [`MAX_CHAT_CHARS`] characters, at least one
/// visible, no control characters, line separators or bidirectional controls (one line
/// that reads as written). Stored as written; every page shows it as text.
///
/// # Errors
/// `chat/invalid` with the reason.
pub fn chat_text(given: &str) -> Result<String, TableError> {
    let bad = |why: String| TableError::new(Refusal::ChatInvalid, why);
    let text = given.trim();
    if text.is_empty() {
        return Err(bad(
            "a chat line needs at least one visible character".into()
        ));
    }
    let chars = text.chars().count();
    if chars > MAX_CHAT_CHARS {
        return Err(bad(format!(
            "a chat line has at most {MAX_CHAT_CHARS} characters; this one has {chars}"
        )));
    }
    if let Some(why) = unshowable(text, "a chat line") {
        return Err(bad(why));
    }
    Ok(text.to_string())
}

//! Text shown to people as it was given: cut short when echoed, and names and chat lines
//! kept from showing as something else.

/// At most `max` characters of `text`, for echoing client input in messages.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut out: String = text.chars().take(max).collect();
        out.push('…');
        out
    }
}

/// Bidirectional embedding, override and isolate controls (U+202A-U+202E,
/// U+2066-U+2069): they reorder the text around them, so that a name could show as
/// another ("Ada\u{202e}gnp.exe" reads "Adaexe.png") or turn a whole log line round. The
/// plain marks (LRM, RLM) stay allowed.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The line and paragraph separators (U+2028, U+2029): a line break by another name.
pub fn is_line_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

/// Characters that show nothing by themselves: spaces, zero-width characters and joiners,
/// direction marks and controls, variation selectors, fillers and the blank braille cell.
pub fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
        )
}

/// A name or chat line as stored, made fit to show: without the bidirectional controls
/// that [`display_name`] and [`chat_text`] refuse now but that a table stored before
/// those checks may hold ("Ada\u{202e}gnp.exe" would read "Adaexe.png"). Every name and
/// chat line the server serves (the API, the socket's pushes, the log's texts, the
/// pages) passes through here, so none is shown reordered; the stored row is left as it
/// is. `None` when nothing visible is left (the caller falls back to "Seat N").
pub fn stored_text(stored: &str) -> Option<String> {
    let text: String = stored.chars().filter(|&c| !is_bidi_control(c)).collect();
    (!text.chars().all(is_invisible)).then_some(text)
}

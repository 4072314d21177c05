//! What text people type may hold: names, chat lines, tournament names.

/// Whether `c` changes how other text is shown or hides itself: the bidirectional controls
/// (an override can make "xam" read as "max", or a chat line seem to say what it does not)
/// and the invisible joiners and marks.
pub fn hides_or_reorders(c: char) -> bool {
    matches!(c,
        '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// Whether `c` may stand in one line of text shown to others: no control character, and
/// nothing that hides or reorders.
pub fn shows_as_typed(c: char) -> bool {
    !c.is_control() && !hides_or_reorders(c)
}

//! The names of people and bots. Every player's name has a key, the same for accounts, bots
//! and guests, under which no two names that read alike differ: the name in NFKC (so
//! fullwidth and mathematical letters are plain ones, and accents composed), in lower case,
//! then its UTS #39 confusable skeleton (a Cyrillic `а` is a Latin `a`, `rn` is `m`).
//! A name holds only the letters, digits and marks that UTS #39 allows in identifiers, in
//! one script, with single spaces and `-` `_` `.` `'` between them; so no invisible, format,
//! bidirectional or look-alike character gets in, and `(` cannot fake a "(house bot)".

use std::fmt;

use thiserror::Error;
use toroid_search::Level;
use unicode_normalization::UnicodeNormalization;
use unicode_security::confusable_detection::skeleton;
use unicode_security::{GeneralSecurityProfile, MixedScript};

/// The most characters a name has.
pub const MAX_NAME: usize = 32;

/// Names nobody may take, besides the house levels': they would pass for the site.
const RESERVED: [&str; 6] = [
    "admin",
    "administrator",
    "moderator",
    "toroid",
    "system",
    "house",
];

/// Why a name is refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum NameError {
    #[error("a name has 1 to {MAX_NAME} characters")]
    Length,
    #[error(
        "a name has letters, digits and marks of one script, with single spaces, '-', '_', \
         '.' or ''' between them: '{0}' is not allowed"
    )]
    Character(char),
    #[error("a name is written in one script (this one mixes several)")]
    MixedScripts,
    #[error("'{0}' is kept for the site and its house bots: choose another name")]
    Reserved(String),
}

/// A player's name as typed, checked ([`PlayerName::new`]), and its key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerName {
    name: String,
    key: String,
}

impl PlayerName {
    /// `name`, trimmed, if it is one a player may take.
    pub fn new(name: &str) -> Result<PlayerName, NameError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME {
            return Err(NameError::Length);
        }
        let mut last = ' ';
        for c in name.chars() {
            let joiner = matches!(c, ' ' | '-' | '_' | '.' | '\'');
            let allowed = match c {
                ' ' => last != ' ',
                _ => joiner || c.identifier_allowed(),
            };
            if !allowed {
                return Err(NameError::Character(c));
            }
            last = c;
        }
        if !name.is_single_script() {
            return Err(NameError::MixedScripts);
        }
        let key = name_key(name);
        let letters: String = key.chars().filter(|c| c.is_alphanumeric()).collect();
        let reserved = (Level::ALL.iter().map(|level| level.name()))
            .chain(RESERVED)
            .any(|word| letters == name_key(word));
        if reserved || letters.contains("housebot") {
            return Err(NameError::Reserved(name.to_string()));
        }
        Ok(PlayerName {
            name: name.to_string(),
            key,
        })
    }

    pub fn as_str(&self) -> &str {
        &self.name
    }

    /// The key no other player's name may share.
    pub fn key(&self) -> &str {
        &self.key
    }
}

impl fmt::Display for PlayerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// The key of `name`: NFKC, lower case, then the confusable skeleton (itself in NFKC and
/// lower case, as the skeleton is decomposed). For any text, so that a sign-in with a name
/// as typed finds its account.
pub fn name_key(name: &str) -> String {
    let folded: String = name.trim().nfkc().flat_map(char::to_lowercase).collect();
    let shape: String = skeleton(&folded).collect();
    shape.nfkc().flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_read_alike_share_a_key() {
        let key = |name: &str| PlayerName::new(name).unwrap().key().to_string();
        assert_eq!(key("ALICE"), key("alice"));
        // Fullwidth and mathematical letters are no name's letters, and have its key.
        for alike in ["ａｌｉｃｅ", "𝐚𝐥𝐢𝐜𝐞"] {
            assert!(PlayerName::new(alike).is_err(), "{alike}");
            assert_eq!(name_key(alike), key("alice"), "{alike}");
        }
        assert_eq!(key("José"), key("Jose\u{301}"));
        assert_eq!(key("rnaria"), key("maria"));
        assert_ne!(key("alice"), key("alicia"));
    }

    #[test]
    fn invisible_mixed_and_reserved_names_are_refused() {
        // Cyrillic а beside Latin letters; a Greek ο in "house".
        assert_eq!(PlayerName::new("аlice"), Err(NameError::MixedScripts));
        for hidden in [
            '\u{AD}',
            '\u{34F}',
            '\u{3164}',
            '\u{115F}',
            '\u{2800}',
            '\u{180E}',
            '\u{FE0F}',
            '\u{E0041}',
            '\u{2028}',
            '\u{202E}',
            '\u{200B}',
            '(',
        ] {
            let name = format!("al{hidden}ice");
            assert_eq!(
                PlayerName::new(&name),
                Err(NameError::Character(hidden)),
                "{name:?}"
            );
        }
        assert!(PlayerName::new("two  spaces").is_err());
        for reserved in [
            "max",
            "MAX",
            "Random",
            "admin",
            "Moderator",
            "toroid",
            "Max-HouseBot",
        ] {
            assert!(
                matches!(PlayerName::new(reserved), Err(NameError::Reserved(_))),
                "{reserved}"
            );
        }
        for fine in [
            "Alice B.",
            "o'brien",
            "hex_bot-2",
            "Маша",
            "李小龍",
            "マックス",
        ] {
            assert!(PlayerName::new(fine).is_ok(), "{fine}");
        }
        assert_eq!(PlayerName::new("  "), Err(NameError::Length));
    }
}

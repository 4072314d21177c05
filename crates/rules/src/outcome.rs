//! How a game ended: the one type for it in every layer. The rules end games with their
//! own reasons; players and clocks end them by resignation, time, forfeit or abort; a
//! record read from a file may say only who won. Records, the server and matches write
//! the reason as its code ([`Reason::code`]) and the ending in words ([`Outcome`]'s
//! `Display`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::color::Color;

/// Why a game is over. The rules give the first group; players, clocks and programs the
/// rest.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Reason {
    /// `torus`: an enemy stone has the winner's stones on all four sides.
    Surrounded,
    /// Two consecutive passes.
    TwoPasses,
    /// `hex-torus` loops: a ring (black), bracelet (white), right or left helix.
    Ring,
    Bracelet,
    RightHelix,
    LeftHelix,
    /// `m-torus`: a loop that crosses the reversed seams an odd number of times.
    SeamLoop,
    /// `ctor`: every cell is occupied.
    BoardFull,
    /// `capture-go`: the capture target was reached.
    CaptureTarget,
    /// `go`: the move limit was reached.
    MoveLimit,
    /// The loser resigned.
    Resignation,
    /// The loser's clock ran out.
    Time,
    /// The loser's program broke the rules or the protocol.
    Forfeit(Fault),
    /// The game was called off; nobody won.
    Abort,
    /// The players agreed to a draw.
    Agreement,
    /// A record gives the winner's score but not which rule ended the game (SGF `RE[B+3.5]`).
    Score,
    /// A record gives the winner, or a draw, but not why (SGF `RE[B+]`, `RE[0]`).
    Unknown,
}

/// What a player's program did that forfeits its game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// It played a move the rules refuse.
    IllegalMove,
    /// It could not start, or stopped.
    Crash,
    /// It did not answer in time.
    Timeout,
    /// Its answer was not one the protocol allows (or not a move on this board).
    MalformedAnswer,
    /// It refused a command it must accept.
    RefusedCommand,
    /// It moved for the wrong colour.
    WrongColour,
    /// Its player left the game, and the opponent claimed the win after the grace time.
    Left,
    /// A record says the game was forfeited, not why (SGF `RE[B+F]`).
    Unspecified,
}

impl Fault {
    pub const ALL: [Fault; 8] = [
        Fault::IllegalMove,
        Fault::Crash,
        Fault::Timeout,
        Fault::MalformedAnswer,
        Fault::RefusedCommand,
        Fault::WrongColour,
        Fault::Left,
        Fault::Unspecified,
    ];

    /// The kebab-case code in records, reports and the API.
    pub fn code(self) -> &'static str {
        match self {
            Fault::IllegalMove => "illegal-move",
            Fault::Crash => "crash",
            Fault::Timeout => "timeout",
            Fault::MalformedAnswer => "malformed-answer",
            Fault::RefusedCommand => "refused-command",
            Fault::WrongColour => "wrong-colour",
            Fault::Left => "left",
            Fault::Unspecified => "forfeit",
        }
    }

    /// What the loser's program did, in the parentheses after "forfeits".
    pub fn describe(self) -> &'static str {
        match self {
            Fault::IllegalMove => "it played an illegal move",
            Fault::Crash => "its program stopped",
            Fault::Timeout => "its program did not answer in time",
            Fault::MalformedAnswer => "its program gave an answer that is not a move",
            Fault::RefusedCommand => "its program refused a command",
            Fault::WrongColour => "its program moved for the wrong colour",
            Fault::Left => "it left the game",
            Fault::Unspecified => "no reason recorded",
        }
    }
}

impl Reason {
    /// Every reason, faults included (for reading codes back).
    pub fn all() -> impl Iterator<Item = Reason> {
        const PLAIN: [Reason; 16] = [
            Reason::Surrounded,
            Reason::TwoPasses,
            Reason::Ring,
            Reason::Bracelet,
            Reason::RightHelix,
            Reason::LeftHelix,
            Reason::SeamLoop,
            Reason::BoardFull,
            Reason::CaptureTarget,
            Reason::MoveLimit,
            Reason::Resignation,
            Reason::Time,
            Reason::Abort,
            Reason::Agreement,
            Reason::Score,
            Reason::Unknown,
        ];
        PLAIN
            .into_iter()
            .chain(Fault::ALL.into_iter().map(Reason::Forfeit))
    }

    /// The kebab-case code in records (SGF `TO`), reports and the API (`two-passes`,
    /// `resignation`, `illegal-move`, ...). A forfeit's code is its fault's.
    pub fn code(self) -> &'static str {
        match self {
            Reason::Surrounded => "surrounded",
            Reason::TwoPasses => "two-passes",
            Reason::Ring => "ring",
            Reason::Bracelet => "bracelet",
            Reason::RightHelix => "right-helix",
            Reason::LeftHelix => "left-helix",
            Reason::SeamLoop => "seam-loop",
            Reason::BoardFull => "board-full",
            Reason::CaptureTarget => "capture-target",
            Reason::MoveLimit => "move-limit",
            Reason::Resignation => "resignation",
            Reason::Time => "time",
            Reason::Forfeit(fault) => fault.code(),
            Reason::Abort => "abort",
            Reason::Agreement => "agreement",
            Reason::Score => "score",
            Reason::Unknown => "unknown",
        }
    }

    /// The reason in words, without the players.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Surrounded => "an enemy stone is surrounded on all four sides",
            Reason::TwoPasses => "two consecutive passes",
            Reason::Ring => "a ring was completed",
            Reason::Bracelet => "a bracelet was completed",
            Reason::RightHelix => "a right helix was completed",
            Reason::LeftHelix => "a left helix was completed",
            Reason::SeamLoop => "a loop through the reversed seams was completed",
            Reason::BoardFull => "the board is full",
            Reason::CaptureTarget => "the capture target was reached",
            Reason::MoveLimit => "the move limit was reached",
            Reason::Resignation => "resignation",
            Reason::Time => "out of time",
            Reason::Forfeit(fault) => fault.describe(),
            Reason::Abort => "the game was aborted",
            Reason::Agreement => "agreed by the players",
            Reason::Score => "by score",
            Reason::Unknown => "no reason recorded",
        }
    }

    /// Whether the rules of a game give this reason (rather than a player, a clock or a
    /// record).
    pub fn is_by_rules(self) -> bool {
        !matches!(
            self,
            Reason::Resignation
                | Reason::Time
                | Reason::Forfeit(_)
                | Reason::Abort
                | Reason::Agreement
                | Reason::Score
                | Reason::Unknown
        )
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// A code that names no reason.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown end reason '{0}'")]
pub struct UnknownReason(pub String);

impl FromStr for Reason {
    type Err = UnknownReason;
    fn from_str(code: &str) -> Result<Reason, UnknownReason> {
        Reason::all()
            .find(|r| r.code() == code)
            .ok_or_else(|| UnknownReason(code.to_string()))
    }
}

impl From<Reason> for String {
    fn from(reason: Reason) -> String {
        reason.code().to_string()
    }
}

impl TryFrom<String> for Reason {
    type Error = UnknownReason;
    fn try_from(code: String) -> Result<Reason, UnknownReason> {
        code.parse()
    }
}

/// How a game ended: the winner (`None` for a draw or an abort), why, and by how many
/// points where a score decided.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: Reason,
    /// The winner's lead in points, where a score decided (`go`).
    pub margin: Option<f64>,
}

impl Outcome {
    /// Whether a number can be a winning margin: finite and not negative, since the
    /// winner already says which side the points went to.
    pub fn is_margin(points: f64) -> bool {
        points.is_finite() && points >= 0.0
    }

    pub fn win(winner: Color, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
            margin: None,
        }
    }

    pub fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
            margin: None,
        }
    }

    /// The result of a score of `black` to `white` points: the higher wins by the
    /// difference, equal scores draw.
    pub fn by_score(black: f64, white: f64, reason: Reason) -> Outcome {
        let winner = if black > white {
            Some(Color::Black)
        } else if white > black {
            Some(Color::White)
        } else {
            None
        };
        Outcome {
            winner,
            reason,
            margin: winner.map(|_| (black - white).abs()),
        }
    }

    /// `loser` resigned.
    pub fn resignation(loser: Color) -> Outcome {
        Outcome::win(loser.opponent(), Reason::Resignation)
    }

    /// `loser`'s clock ran out.
    pub fn time(loser: Color) -> Outcome {
        Outcome::win(loser.opponent(), Reason::Time)
    }

    /// `offender`'s program forfeits the game by `fault`.
    pub fn forfeit(offender: Color, fault: Fault) -> Outcome {
        Outcome::win(offender.opponent(), Reason::Forfeit(fault))
    }

    /// The game was called off.
    pub fn abort() -> Outcome {
        Outcome::draw(Reason::Abort)
    }

    /// `"black"`, `"white"` or `"draw"`.
    pub fn winner_name(&self) -> &'static str {
        self.winner.map_or("draw", Color::name)
    }
}

/// How an ending reads in JSON (records, the API, storage): `{"winner": "black|white|draw",
/// "reason": "code", "margin": 12.5, "text": "words"}`; `margin` only where a score
/// decided. `text` is written for people and ignored when read.
#[derive(Serialize, Deserialize)]
struct OutcomeJson {
    winner: String,
    reason: Reason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    margin: Option<f64>,
    #[serde(default, skip_deserializing)]
    text: String,
}

impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        OutcomeJson {
            winner: self.winner_name().to_string(),
            reason: self.reason,
            margin: self.margin,
            text: self.to_string(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let json = OutcomeJson::deserialize(d)?;
        let winner = match json.winner.as_str() {
            "draw" => None,
            name => Some(
                Color::BOTH
                    .into_iter()
                    .find(|c| c.name() == name)
                    .ok_or_else(|| {
                        serde::de::Error::custom(format!(
                            "winner '{name}' is not black, white or draw"
                        ))
                    })?,
            ),
        };
        if json.margin.is_some_and(|m| !Outcome::is_margin(m)) {
            return Err(serde::de::Error::custom(
                "a margin is a finite number of points, not negative",
            ));
        }
        Ok(Outcome {
            winner,
            reason: json.reason,
            margin: json.margin,
        })
    }
}

/// The ending in words: `black wins: a ring was completed`, `white wins by 17.5: two
/// consecutive passes`, `black wins: white resigned`, `draw: the board is full`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(winner) = self.winner else {
            return match self.reason {
                Reason::Abort => f.write_str("aborted"),
                Reason::Unknown | Reason::Score => f.write_str("draw"),
                reason => write!(f, "draw: {reason}"),
            };
        };
        let loser = winner.opponent();
        write!(f, "{winner} wins")?;
        if let Some(margin) = self.margin {
            write!(f, " by {margin}")?;
        }
        match self.reason {
            Reason::Resignation => write!(f, ": {loser} resigned"),
            Reason::Time => write!(f, ": {loser} ran out of time"),
            Reason::Forfeit(fault) => write!(f, ": {loser} forfeits ({})", fault.describe()),
            Reason::Score | Reason::Unknown => Ok(()),
            reason => write!(f, ": {reason}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_reads_back_from_its_code() {
        let mut codes: Vec<&str> = Reason::all().map(Reason::code).collect();
        for reason in Reason::all() {
            assert_eq!(reason.code().parse(), Ok(reason));
        }
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), Reason::all().count(), "codes are distinct");
        assert_eq!(
            "checkmate".parse::<Reason>(),
            Err(UnknownReason("checkmate".into()))
        );
    }

    #[test]
    fn endings_read_as_words() {
        let words = |o: Outcome| o.to_string();
        assert_eq!(
            words(Outcome::win(Color::Black, Reason::Ring)),
            "black wins: a ring was completed"
        );
        assert_eq!(
            words(Outcome::by_score(3.0, 20.5, Reason::TwoPasses)),
            "white wins by 17.5: two consecutive passes"
        );
        assert_eq!(
            words(Outcome::by_score(4.0, 4.0, Reason::MoveLimit)),
            "draw: the move limit was reached"
        );
        assert_eq!(
            words(Outcome::resignation(Color::White)),
            "black wins: white resigned"
        );
        assert_eq!(
            words(Outcome::time(Color::Black)),
            "white wins: black ran out of time"
        );
        assert_eq!(
            words(Outcome::forfeit(Color::Black, Fault::Crash)),
            "white wins: black forfeits (its program stopped)"
        );
        assert_eq!(words(Outcome::abort()), "aborted");
    }

    #[test]
    fn endings_read_back_from_json() {
        let ending = Outcome::by_score(3.0, 20.5, Reason::TwoPasses);
        let json = serde_json::to_value(ending).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"winner": "white", "reason": "two-passes", "margin": 17.5,
                "text": "white wins by 17.5: two consecutive passes"})
        );
        assert_eq!(serde_json::from_value::<Outcome>(json).unwrap(), ending);
        for bad in [
            serde_json::json!({"winner": "red", "reason": "time"}),
            serde_json::json!({"winner": "black", "reason": "checkmate"}),
            serde_json::json!({"winner": "black", "reason": "score", "margin": -1.0}),
        ] {
            assert!(serde_json::from_value::<Outcome>(bad).is_err());
        }
    }
}

//! Where a game is in its life, and what its players may offer each other.

/// Where a game is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// An invite game whose second seat is still open.
    Waiting,
    Live,
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Live => "live",
            Status::Finished => "finished",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        [Status::Waiting, Status::Live, Status::Finished]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

/// What a player may offer and the opponent accept: each is a column of the game's row,
/// holding the colour that offers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Offer {
    /// A draw, in a live game.
    Draw,
    /// To take back the asker's last turn, in a live game.
    Takeback,
    /// A new game between the same players, colours swapped, once the game is over.
    Rematch,
}

impl Offer {
    /// The column of `games` that holds the offer.
    pub fn column(self) -> &'static str {
        match self {
            Offer::Draw => "draw_offer",
            Offer::Takeback => "takeback_offer",
            Offer::Rematch => "rematch_offer",
        }
    }
}

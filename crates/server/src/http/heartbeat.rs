//! Pings for WebSocket peers, and how a dead one is noticed: a peer that has sent nothing,
//! not even a pong, for three ping intervals is gone (its network went away without a
//! close, or it stopped reading), and its connection is dropped. And the close frame that a
//! stopping server sends its peers.

use std::time::Duration;

use axum::extract::ws::{close_code, CloseFrame, Message};
use tokio::time::{interval_at, Instant, Interval, MissedTickBehavior};

/// Intervals of silence after which a peer is dropped.
const SILENT_PINGS: u32 = 3;

pub struct Heartbeat {
    pings: Interval,
    last_heard: Instant,
    silence: Duration,
}

/// What a beat asks the connection to do.
pub enum Beat {
    Ping(Message),
    Drop,
}

impl Heartbeat {
    pub fn new(every: Duration) -> Heartbeat {
        let mut pings = interval_at(Instant::now() + every, every);
        pings.set_missed_tick_behavior(MissedTickBehavior::Delay);
        Heartbeat {
            pings,
            last_heard: Instant::now(),
            silence: every * SILENT_PINGS,
        }
    }

    /// The peer sent something (a message, a ping or a pong).
    pub fn heard(&mut self) {
        self.last_heard = Instant::now();
    }

    /// Waits for the next ping time.
    pub async fn beat(&mut self) -> Beat {
        self.pings.tick().await;
        if self.last_heard.elapsed() >= self.silence {
            Beat::Drop
        } else {
            Beat::Ping(Message::Ping(Default::default()))
        }
    }
}

/// The close frame for a connection ended by the error `why`: its code is 4000 plus the
/// error's HTTP status (4400, 4401, 4409) and its reason the error's code, so that a
/// client sees why rather than an abnormal closure (1006).
pub fn closed_by(why: &crate::error::ApiError) -> Message {
    Message::Close(Some(CloseFrame {
        code: 4000 + why.status(),
        reason: why.code().into(),
    }))
}

/// The close frame of a server that is stopping (1001, "going away"): a client reconnects
/// to another node or after the restart, rather than reading an abnormal closure (1006).
pub fn going_away() -> Message {
    Message::Close(Some(CloseFrame {
        code: close_code::AWAY,
        reason: "the server is stopping".into(),
    }))
}

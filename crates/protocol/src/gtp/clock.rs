//! Time settings (`time_settings`, `kgs-time_settings`) and clocks (`time_left`), turned
//! into the [`TimeLeft`] a bot is given.

use std::time::Duration;

use toroid_rules::Color;
use toroid_rules::TimeLeft;

/// The time system agreed for the game.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum TimeSystem {
    /// No time limit.
    Unlimited,
    /// `main` seconds, then `stones` moves every `period` seconds (Canadian byo-yomi;
    /// `stones == 0`: absolute time, no overtime). Japanese byo-yomi is stored as Canadian
    /// overtime of one stone per period, which is what each of its periods asks of a move.
    Limited { main: f64, period: f64, stones: u32 },
}

/// The time system and the latest `time_left` report for each player.
#[derive(Clone, Debug)]
pub struct GtpClock {
    system: TimeSystem,
    /// Seconds left and stones left in the current period (0 in main time).
    left: [Option<(f64, u32)>; 2],
}

impl Default for GtpClock {
    fn default() -> GtpClock {
        GtpClock {
            system: TimeSystem::Unlimited,
            left: [None, None],
        }
    }
}

impl GtpClock {
    /// `time_settings main byo_yomi_time byo_yomi_stones` (GTP 2 §6.3.5): byo-yomi time
    /// with zero stones means no time limit.
    pub fn standard(main: f64, period: f64, stones: u32) -> GtpClock {
        if period > 0.0 && stones == 0 {
            return GtpClock::default();
        }
        GtpClock::with(TimeSystem::Limited {
            main,
            period,
            stones,
        })
    }

    pub fn with(system: TimeSystem) -> GtpClock {
        GtpClock {
            system,
            left: [None, None],
        }
    }

    /// Records `time_left color seconds stones`.
    pub fn report(&mut self, color: Color, seconds: f64, stones: u32) {
        self.left[color.index()] = Some((seconds, stones));
    }

    /// What `color` may spend, for [`toroid_rules::Bot::choose`]: the time left in main
    /// time, or in overtime the period's time divided among the stones still owed (the
    /// move's own time). `None` without a time limit.
    pub fn time_left(&self, color: Color) -> Option<TimeLeft> {
        let TimeSystem::Limited {
            main,
            period,
            stones,
        } = self.system
        else {
            return None;
        };
        let (seconds, stones) = self.left[color.index()].unwrap_or(if main > 0.0 {
            (main, 0)
        } else {
            (period, stones)
        });
        // A negative report (an engine over time) is no time at all.
        let time =
            |seconds: f64| Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::MAX);
        Some(if stones > 0 {
            TimeLeft {
                remaining: Duration::ZERO,
                increment: Duration::ZERO,
                overtime: time(seconds / f64::from(stones)),
            }
        } else {
            TimeLeft {
                remaining: time(seconds),
                increment: Duration::ZERO,
                overtime: Duration::ZERO,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Main time left and the move's overtime, in seconds.
    fn secs(t: Option<TimeLeft>) -> Option<(f64, f64)> {
        t.map(|t| (t.remaining.as_secs_f64(), t.overtime.as_secs_f64()))
    }

    #[test]
    fn clocks_become_time_left() {
        assert_eq!(secs(GtpClock::default().time_left(Color::Black)), None);
        assert_eq!(
            secs(GtpClock::standard(0.0, 30.0, 0).time_left(Color::Black)),
            None
        );
        let mut c = GtpClock::standard(600.0, 30.0, 5);
        assert_eq!(secs(c.time_left(Color::Black)), Some((600.0, 0.0)));
        c.report(Color::Black, 20.0, 4);
        assert_eq!(secs(c.time_left(Color::Black)), Some((0.0, 5.0)));
        assert_eq!(secs(c.time_left(Color::White)), Some((600.0, 0.0)));
        c.report(Color::White, -3.0, 0);
        assert_eq!(secs(c.time_left(Color::White)), Some((0.0, 0.0)));
        let c = GtpClock::standard(0.0, 30.0, 10);
        assert_eq!(secs(c.time_left(Color::White)), Some((0.0, 3.0)));
    }
}

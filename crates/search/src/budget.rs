//! How much a search may spend on one move: playouts, time, the game clock, and the share of
//! the processor that whoever runs the search gives it ([`Pace`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use toroid_rules::{Position, TimeLeft};

/// A search's budget per move. When the game has a clock, the search also stops at the
/// clock's allowance ([`clock_allowance`]), whatever the budget says.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many simulations (split over the threads): deterministic under a seed.
    Playouts(u64),
    /// This much wall time.
    Time(Duration),
}

/// Lets whoever runs a search share the processor between searches and call one off. A bot
/// asks it between units of work (a simulation, one candidate move's check), set-up work
/// included, so a search can be paused or stopped within a fraction of a millisecond on small
/// boards and a few milliseconds on the largest.
pub trait Pace: Send + Sync {
    /// Whether to go on. It may block while other searches have their turn; `false` means
    /// stop at once and answer with what was found so far (nobody waits any longer, or the
    /// runner's own deadline has passed).
    fn go_on(&self) -> bool;
}

/// When a bot's work must stop: its deadline, and the [`Pace`] it was given, if any.
#[derive(Clone, Default)]
pub struct Stop {
    pub deadline: Option<Instant>,
    pub pace: Option<Arc<dyn Pace>>,
}

impl Stop {
    pub fn new(deadline: Option<Instant>, pace: Option<Arc<dyn Pace>>) -> Stop {
        Stop { deadline, pace }
    }

    /// Whether to stop now. The pace is asked first, since it may make the search wait for
    /// its turn, which brings the deadline closer.
    pub fn now(&self) -> bool {
        let called_off = self.pace.as_ref().is_some_and(|p| !p.go_on());
        called_off || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl std::fmt::Debug for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stop")
            .field("deadline", &self.deadline)
            .field("paced", &self.pace.is_some())
            .finish()
    }
}

/// What one search may spend: at most `playouts` simulations, and stop when `stop` says so.
#[derive(Clone, Debug)]
pub struct SearchLimits {
    pub playouts: u64,
    pub stop: Stop,
}

impl SearchLimits {
    /// The limits for a move starting now under `budget`, the mover's clock `time` and
    /// `pace`. `moves_left` estimates how many more moves the mover will make.
    pub fn new(
        budget: Budget,
        time: Option<TimeLeft>,
        moves_left: u32,
        pace: Option<Arc<dyn Pace>>,
    ) -> SearchLimits {
        let (playouts, by_budget) = match budget {
            Budget::Playouts(n) => (n, None),
            Budget::Time(t) => (u64::MAX, Some(t)),
        };
        SearchLimits {
            // At least one simulation where time allows, so that moves get statistics.
            playouts: playouts.max(1),
            stop: Stop::new(move_deadline(by_budget, time, moves_left), pace),
        }
    }

    pub fn exhausted(&self, done: u64) -> bool {
        done >= self.playouts || self.stop.now()
    }
}

/// When a move starting now must be chosen: after `spend`, and within the clock's allowance
/// when the game has a clock (`None`: neither bounds it).
pub fn move_deadline(
    spend: Option<Duration>,
    time: Option<TimeLeft>,
    moves_left: u32,
) -> Option<Instant> {
    let start = Instant::now();
    let by_clock = time.map(|t| clock_allowance(t, moves_left));
    let spend = match (spend, by_clock) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    spend.map(|d| start + d)
}

/// A rough count of the moves the player to move still has to make, for the clock: half the
/// empty cells, at least 10.
pub fn moves_left<P: Position>(position: &P) -> u32 {
    let topo = position.topology();
    let empty = topo
        .cells()
        .filter(|&c| position.stone(c).is_none())
        .count();
    (empty as u32 / 2).max(10)
}

/// Time kept in hand for the move's overhead (thread start, merging, the transport).
const SAFETY: Duration = Duration::from_millis(50);

/// How long to think on a move with `time` on the clock: an even share of the main time over
/// the expected moves left plus most of the increment, and never more than half of what is
/// left (minus a safety margin), so the clock cannot run out; in overtime, most of the
/// move's own time.
pub fn clock_allowance(time: TimeLeft, moves_left: u32) -> Duration {
    let share = time.remaining / moves_left.max(1) + time.increment.mul_f64(0.8);
    let cap = (time.remaining / 2).saturating_sub(SAFETY);
    let overtime = time.overtime.mul_f64(0.9).saturating_sub(SAFETY);
    share.min(cap).max(overtime)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn allowance_shares_main_time_and_keeps_most_of_the_increment() {
        let t = TimeLeft {
            remaining: ms(60_000),
            increment: ms(1_000),
            overtime: Duration::ZERO,
        };
        assert_eq!(clock_allowance(t, 30), ms(2_000 + 800));
    }

    #[test]
    fn overtime_is_used_nearly_whole() {
        let t = TimeLeft {
            remaining: Duration::ZERO,
            increment: Duration::ZERO,
            overtime: ms(1_000),
        };
        assert_eq!(clock_allowance(t, 30), ms(850));
    }

    #[test]
    fn allowance_never_risks_the_flag() {
        let t = TimeLeft {
            remaining: ms(300),
            increment: ms(10_000),
            overtime: Duration::ZERO,
        };
        assert_eq!(clock_allowance(t, 10), ms(100));
        let empty = TimeLeft {
            remaining: ms(20),
            increment: Duration::ZERO,
            overtime: Duration::ZERO,
        };
        assert_eq!(clock_allowance(empty, 10), Duration::ZERO);
    }

    #[test]
    fn the_tighter_of_budget_and_clock_wins() {
        let t = TimeLeft {
            remaining: ms(10_000),
            increment: Duration::ZERO,
            overtime: Duration::ZERO,
        };
        let limits = SearchLimits::new(Budget::Time(ms(5_000)), Some(t), 100, None);
        let left = limits.stop.deadline.unwrap() - Instant::now();
        assert!(left <= ms(100));
        assert_eq!(
            SearchLimits::new(Budget::Playouts(0), None, 1, None).playouts,
            1
        );
    }
}

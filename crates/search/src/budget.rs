//! How much a search may spend on one move: playouts, time, and the game clock.

use std::time::{Duration, Instant};

use toroid_rules::TimeLeft;

/// A search's budget per move. When the game has a clock, the search also stops at the
/// clock's allowance ([`clock_allowance`]), whatever the budget says.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many simulations (split over the threads): deterministic under a seed.
    Playouts(u64),
    /// This much wall time.
    Time(Duration),
}

/// What one search may spend: at most `playouts` simulations, and stop at `deadline`.
#[derive(Copy, Clone, Debug)]
pub struct SearchLimits {
    pub playouts: u64,
    pub deadline: Option<Instant>,
}

impl SearchLimits {
    /// The limits for a move starting now under `budget` and the mover's clock `time`.
    /// `moves_left` estimates how many more moves the mover will make.
    pub fn new(budget: Budget, time: Option<TimeLeft>, moves_left: u32) -> SearchLimits {
        let start = Instant::now();
        let (playouts, by_budget) = match budget {
            Budget::Playouts(n) => (n, None),
            Budget::Time(t) => (u64::MAX, Some(t)),
        };
        let by_clock = time.map(|t| clock_allowance(t, moves_left));
        let spend = match (by_budget, by_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        SearchLimits {
            // At least one simulation, so that there is always a move to choose.
            playouts: playouts.max(1),
            deadline: spend.map(|d| start + d),
        }
    }

    pub fn exhausted(&self, done: u64) -> bool {
        done >= self.playouts || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
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
        let limits = SearchLimits::new(Budget::Time(ms(5_000)), Some(t), 100);
        let left = limits.deadline.unwrap() - Instant::now();
        assert!(left <= ms(100));
        assert_eq!(SearchLimits::new(Budget::Playouts(0), None, 1).playouts, 1);
    }
}

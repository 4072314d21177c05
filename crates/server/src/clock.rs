//! A game's two clocks under a Fischer time control: an initial time each, and an increment
//! added after each of a player's moves; or a correspondence clock, full again after each
//! move. Only the player to move has a running clock.

use std::time::{Duration, Instant};

use toroid_rules::Color;
use toroid_rules::TimeLeft;

use crate::model::TimeControl;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub control: TimeControl,
    /// Milliseconds left, as of `running`'s instant for the running clock.
    remaining: [i64; 2],
    running: Option<(Color, Instant)>,
}

impl Clock {
    /// Both clocks full and stopped.
    pub fn new(control: TimeControl) -> Clock {
        Clock::resume(control, [control.initial_ms(); 2])
    }

    /// Stopped clocks showing `remaining` (from storage).
    pub fn resume(control: TimeControl, remaining: [i64; 2]) -> Clock {
        Clock {
            control,
            remaining,
            running: None,
        }
    }

    /// Runs `color`'s clock from `now`, stopping the other.
    pub fn start(&mut self, color: Color, now: Instant) {
        self.stop(now);
        self.running = Some((color, now));
    }

    /// Stops the running clock, charging it the time since it started.
    pub fn stop(&mut self, now: Instant) {
        self.remaining = self.left(now);
        self.running = None;
    }

    /// Milliseconds left on each clock at `now` (negative once a flag has fallen).
    pub fn left(&self, now: Instant) -> [i64; 2] {
        let mut left = self.remaining;
        if let Some((color, since)) = self.running {
            left[color.index()] -= millis(now.saturating_duration_since(since));
        }
        left
    }

    pub fn running(&self) -> Option<Color> {
        self.running.map(|(color, _)| color)
    }

    /// The running clock's colour and the instant it started.
    pub fn running_since(&self) -> Option<(Color, Instant)> {
        self.running
    }

    /// The running clock's colour and the instant it reaches zero.
    pub fn flag(&self) -> Option<(Color, Instant)> {
        let (color, since) = self.running?;
        let left = Duration::from_millis(self.remaining[color.index()].max(0) as u64);
        Some((color, since + left))
    }

    /// Whether the running clock has reached zero at `now`; its colour if so.
    pub fn fallen(&self, now: Instant) -> Option<Color> {
        let color = self.running()?;
        (self.left(now)[color.index()] <= 0).then_some(color)
    }

    /// The clocks after the running player moves at `now`: charged, given the increment, and
    /// `next`'s clock started (none once the game is over). `Err(color)` if the mover's time
    /// had run out.
    pub fn after_move(&self, now: Instant, next: Option<Color>) -> Result<Clock, Color> {
        if let Some(color) = self.fallen(now) {
            return Err(color);
        }
        let mut clock = *self;
        let mover = self.running();
        clock.stop(now);
        if let Some(mover) = mover {
            let left = &mut clock.remaining[mover.index()];
            *left += self.control.increment_ms();
            // A correspondence clock is full again after each move, and no fuller.
            if self.control.days_per_move().is_some() {
                *left = (*left).min(self.control.initial_ms());
            }
        }
        if let Some(next) = next {
            clock.start(next, now);
        }
        Ok(clock)
    }

    /// `color`'s clock for a bot choosing a move at `now`.
    pub fn time_left(&self, color: Color, now: Instant) -> TimeLeft {
        TimeLeft {
            remaining: Duration::from_millis(self.left(now)[color.index()].max(0) as u64),
            increment: Duration::from_millis(self.control.increment_ms() as u64),
            overtime: Duration::ZERO,
        }
    }
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control() -> TimeControl {
        TimeControl::new(1_000, 200).unwrap()
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_mover_is_charged_and_gets_the_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::new(control());
        clock.start(Color::Black, t0);
        assert_eq!(clock.left(t0 + ms(300)), [700, 1_000]);
        let after = clock.after_move(t0 + ms(300), Some(Color::White)).unwrap();
        assert_eq!(after.left(t0 + ms(300)), [900, 1_000]);
        assert_eq!(after.running(), Some(Color::White));
        assert_eq!(after.left(t0 + ms(400)), [900, 900]);
        assert_eq!(after.flag(), Some((Color::White, t0 + ms(1_300))));
    }

    #[test]
    fn a_move_after_the_flag_fell_is_refused() {
        let t0 = Instant::now();
        let mut clock = Clock::new(control());
        clock.start(Color::Black, t0);
        assert_eq!(clock.fallen(t0 + ms(999)), None);
        assert_eq!(clock.fallen(t0 + ms(1_000)), Some(Color::Black));
        assert_eq!(
            clock.after_move(t0 + ms(1_001), Some(Color::White)),
            Err(Color::Black)
        );
    }

    #[test]
    fn the_same_colour_may_move_again_and_a_finished_game_stops_the_clock() {
        let t0 = Instant::now();
        let mut clock = Clock::new(control());
        clock.start(Color::White, t0);
        let again = clock.after_move(t0 + ms(100), Some(Color::White)).unwrap();
        assert_eq!(again.left(t0 + ms(100)), [1_000, 1_100]);
        let over = again.after_move(t0 + ms(200), None).unwrap();
        assert_eq!(over.running(), None);
        assert_eq!(over.left(t0 + ms(5_000)), [1_000, 1_200]);
    }
}

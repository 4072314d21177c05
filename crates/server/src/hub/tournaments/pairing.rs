//! Tournament pairings and standings: round robin by Berger tables, and Swiss in the Dutch
//! style (players ranked by score then seed, the top half of each score group meeting its
//! bottom half), where no two players meet twice, the bye goes to the lowest-ranked player
//! who has not had one, and every player's whites and blacks stay within one of each other
//! (within two when no pairing can keep one, as late rounds of a short Swiss may force; the
//! FIDE Dutch rules allow two).
//! Ties are broken by Buchholz (the opponents' scores) and Sonneborn-Berger (the scores of
//! the opponents beaten, and half those drawn).

/// A player's index in the tournament, in seed order (0 is the top seed).
pub type Player = usize;

/// One game of a round: `white` against `black`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pairing {
    pub white: Player,
    pub black: Player,
}

/// A round: its games and, with an odd number of players, the one with a bye.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Round {
    pub games: Vec<Pairing>,
    pub bye: Option<Player>,
}

/// How a game ended for white.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Result {
    WhiteWins,
    Draw,
    BlackWins,
}

impl Result {
    /// White's score.
    fn white_score(self) -> f64 {
        match self {
            Result::WhiteWins => 1.0,
            Result::Draw => 0.5,
            Result::BlackWins => 0.0,
        }
    }
}

/// What the tournament has played so far: the rounds and each game's result (in the
/// order of `Round::games`). A bye scores one point, as in most Swiss rules.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct History {
    pub players: usize,
    pub rounds: Vec<(Round, Vec<Result>)>,
}

/// The round-robin schedule of `players` by Berger tables: every pair meets once, in
/// `players - 1` rounds (`players` with an odd number, each round one player resting), and
/// colours alternate.
pub fn round_robin(players: usize) -> Vec<Round> {
    if players < 2 {
        return Vec::new();
    }
    // With an odd number, a phantom player is the bye.
    let n = players + players % 2;
    let phantom = (players % 2 == 1).then_some(n - 1);
    let mut rounds = Vec::with_capacity(n - 1);
    // The circle method: player n - 1 stays, the others turn one place each round.
    let mut circle: Vec<Player> = (0..n).collect();
    for round in 0..n - 1 {
        let mut games = Vec::new();
        let mut bye = None;
        for i in 0..n / 2 {
            let (a, b) = (circle[i], circle[n - 1 - i]);
            // The fixed player alternates colours round by round; the others by table.
            let (white, black) = match (i == 0 && round % 2 == 1) || (i > 0 && i % 2 == 1) {
                true => (b, a),
                false => (a, b),
            };
            match (Some(white) == phantom, Some(black) == phantom) {
                (true, _) => bye = Some(black),
                (_, true) => bye = Some(white),
                _ => games.push(Pairing { white, black }),
            }
        }
        rounds.push(Round { games, bye });
        circle[1..].rotate_right(1);
    }
    rounds
}

impl History {
    pub fn new(players: usize) -> History {
        History {
            players,
            rounds: Vec::new(),
        }
    }

    /// Each player's score.
    pub fn scores(&self) -> Vec<f64> {
        let mut scores = vec![0.0; self.players];
        for (round, results) in &self.rounds {
            for (game, result) in round.games.iter().zip(results) {
                scores[game.white] += result.white_score();
                scores[game.black] += 1.0 - result.white_score();
            }
            if let Some(bye) = round.bye {
                scores[bye] += 1.0;
            }
        }
        scores
    }

    /// Whether `a` and `b` have met.
    fn met(&self, a: Player, b: Player) -> bool {
        self.rounds.iter().any(|(round, _)| {
            (round.games.iter())
                .any(|g| (g.white, g.black) == (a, b) || (g.white, g.black) == (b, a))
        })
    }

    /// Each player's whites minus blacks.
    pub fn colour_balance(&self) -> Vec<i32> {
        let mut balance = vec![0; self.players];
        for (round, _) in &self.rounds {
            for game in &round.games {
                balance[game.white] += 1;
                balance[game.black] -= 1;
            }
        }
        balance
    }

    /// The colour `player` had in its last game, +1 white, -1 black, 0 none yet.
    fn last_colour(&self, player: Player) -> i32 {
        (self.rounds.iter().rev())
            .flat_map(|(round, _)| &round.games)
            .find_map(|g| match player {
                p if p == g.white => Some(1),
                p if p == g.black => Some(-1),
                _ => None,
            })
            .unwrap_or(0)
    }

    fn had_bye(&self, player: Player) -> bool {
        self.rounds
            .iter()
            .any(|(round, _)| round.bye == Some(player))
    }

    /// The next Swiss round, or `None` when no pairing keeps every rule (each player has
    /// met everyone it could).
    pub fn next_swiss_round(&self) -> Option<Round> {
        let scores = self.scores();
        // Ranked by score, then seed.
        let mut ranked: Vec<Player> = (0..self.players).collect();
        ranked.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
        // The bye: the lowest-ranked player who has not had one.
        let mut bye = None;
        if self.players % 2 == 1 {
            let at = ranked.iter().rposition(|&p| !self.had_bye(p))?;
            bye = Some(ranked.remove(at));
        }
        let balance = self.colour_balance();
        [1, 2].into_iter().find_map(|most| {
            let mut games = Vec::new();
            (self.pair(&ranked, &scores, &balance, most, &mut games)).then(|| Round {
                games: games.clone(),
                bye,
            })
        })
    }

    /// Pairs `unpaired` (ranked) into `games` by backtracking: each first player meets the
    /// opponent the Dutch system prefers among those it has not met and whose colours fit.
    fn pair(
        &self,
        unpaired: &[Player],
        scores: &[f64],
        balance: &[i32],
        most: i32,
        games: &mut Vec<Pairing>,
    ) -> bool {
        let Some((&first, rest)) = unpaired.split_first() else {
            return true;
        };
        // The Dutch preference: the player half the score group further down first, then
        // the others of the group, then the nearest in score.
        let group = rest.iter().filter(|&&p| scores[p] == scores[first]).count() + 1;
        let mirror = group / 2;
        let mut candidates: Vec<(usize, Player)> = rest.iter().copied().enumerate().collect();
        candidates.sort_by(|&(i, a), &(j, b)| {
            let gap = |p: Player| (scores[first] - scores[p]).abs();
            gap(a)
                .total_cmp(&gap(b))
                .then((i + 1).abs_diff(mirror).cmp(&(j + 1).abs_diff(mirror)))
        });
        for (i, opponent) in candidates {
            if self.met(first, opponent) {
                continue;
            }
            let Some(game) = colours(first, opponent, balance, most, self) else {
                continue;
            };
            games.push(game);
            let others: Vec<Player> = (rest.iter().enumerate())
                .filter(|&(j, _)| j != i)
                .map(|(_, &p)| p)
                .collect();
            if self.pair(&others, scores, balance, most, games) {
                return true;
            }
            games.pop();
        }
        false
    }

    /// Buchholz and Sonneborn-Berger of every player.
    pub fn tie_breaks(&self) -> Vec<(f64, f64)> {
        let scores = self.scores();
        let mut breaks = vec![(0.0, 0.0); self.players];
        for (round, results) in &self.rounds {
            for (game, result) in round.games.iter().zip(results) {
                let white = result.white_score();
                for (player, opponent, score) in [
                    (game.white, game.black, white),
                    (game.black, game.white, 1.0 - white),
                ] {
                    breaks[player].0 += scores[opponent];
                    breaks[player].1 += score * scores[opponent];
                }
            }
        }
        breaks
    }

    /// The standings: players by score, then Buchholz, then Sonneborn-Berger, then seed.
    pub fn standings(&self) -> Vec<Player> {
        let (scores, breaks) = (self.scores(), self.tie_breaks());
        let mut order: Vec<Player> = (0..self.players).collect();
        order.sort_by(|&a, &b| {
            (scores[b].total_cmp(&scores[a]))
                .then(breaks[b].0.total_cmp(&breaks[a].0))
                .then(breaks[b].1.total_cmp(&breaks[a].1))
                .then(a.cmp(&b))
        });
        order
    }
}

/// The colours of a game between `a` (ranked higher) and `b` that keeps both players'
/// whites and blacks within `most` of each other: the one with fewer whites gets white;
/// with equal balances, the one that had black last; else the higher-ranked. `None` if both
/// need the same colour.
fn colours(a: Player, b: Player, balance: &[i32], most: i32, history: &History) -> Option<Pairing> {
    let white_first = Pairing { white: a, black: b };
    let black_first = Pairing { white: b, black: a };
    let pairing = match balance[a].cmp(&balance[b]) {
        std::cmp::Ordering::Less => white_first,
        std::cmp::Ordering::Greater => black_first,
        std::cmp::Ordering::Equal => match history.last_colour(a).cmp(&history.last_colour(b)) {
            std::cmp::Ordering::Less => white_first,
            std::cmp::Ordering::Greater => black_first,
            std::cmp::Ordering::Equal => white_first,
        },
    };
    let fits = balance[pairing.white] < most && balance[pairing.black] > -most;
    fits.then_some(pairing)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn round_robin_schedules_are_complete() {
        for players in 2..=12 {
            let rounds = round_robin(players);
            let mut met = vec![vec![0; players]; players];
            for round in &rounds {
                let mut seen = vec![false; players];
                for game in &round.games {
                    for p in [game.white, game.black] {
                        assert!(!seen[p], "{players}: {p} plays twice in a round");
                        seen[p] = true;
                    }
                    met[game.white][game.black] += 1;
                    met[game.black][game.white] += 1;
                }
                if let Some(bye) = round.bye {
                    assert!(!seen[bye]);
                    seen[bye] = true;
                }
                assert!(
                    seen.iter().all(|&s| s),
                    "{players}: everyone plays or rests"
                );
            }
            for (a, row) in met.iter().enumerate() {
                for (b, &games) in row.iter().enumerate() {
                    assert_eq!(games, usize::from(a != b), "{players}: {a} and {b}");
                }
            }
            assert_eq!(rounds.len(), players - 1 + players % 2);
        }
    }

    #[test]
    fn tie_breaks_follow_the_scores() {
        // Three players, round robin: 0 beats 1, 1 beats 2, 2 draws 0.
        let rounds = round_robin(3);
        let mut history = History::new(3);
        for round in rounds {
            let results = (round.games.iter())
                .map(|g| match (g.white, g.black) {
                    (0, 1) => Result::WhiteWins,
                    (1, 0) => Result::BlackWins,
                    (1, 2) => Result::WhiteWins,
                    (2, 1) => Result::BlackWins,
                    _ => Result::Draw,
                })
                .collect();
            history.rounds.push((round, results));
        }
        // Byes score one each: 0 has 1.5 + 1, 1 has 1 + 1, 2 has 0.5 + 1.
        assert_eq!(history.scores(), vec![2.5, 2.0, 1.5]);
        assert_eq!(history.standings(), vec![0, 1, 2]);
        let breaks = history.tie_breaks();
        // Player 0 met 1 (2.0) and 2 (1.5); beat 1, drew 2.
        assert_eq!(breaks[0], (3.5, 2.0 + 0.75));
    }

    proptest! {
        #![proptest_config(toroid_testkit::cases(300))]

        /// Swiss rounds with any results: no two players meet twice, every player plays or
        /// has the bye each round, the bye goes to the lowest-ranked player without one,
        /// nobody has two byes while others have none, and colours stay within one for
        /// three rounds, within two after.
        #[test]
        fn swiss_rounds_keep_the_rules(players in 2usize..=16, seed in any::<u64>()) {
            let mut history = History::new(players);
            let mut random = seed;
            let mut next = || {
                random = random.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (random >> 33) % 3
            };
            // Up to half as many rounds as players: after k rounds each player can still
            // meet n - 1 - k others, at least n / 2, enough for a pairing without rematches
            // (Dirac); more rounds can reach a dead end, as in any Swiss.
            let rounds = (players / 2).clamp(1, 5);
            for _ in 0..rounds {
                let scores = history.scores();
                let round = history.next_swiss_round();
                prop_assert!(round.is_some(), "round {} of {players} does not pair", history.rounds.len() + 1);
                let round = round.unwrap();
                let mut seen = vec![false; players];
                for game in &round.games {
                    prop_assert!(!history.met(game.white, game.black), "a rematch");
                    for p in [game.white, game.black] {
                        prop_assert!(!seen[p]);
                        seen[p] = true;
                    }
                }
                if let Some(bye) = round.bye {
                    prop_assert!(!history.had_bye(bye), "a second bye");
                    // Nobody without a bye ranks below it.
                    for p in 0..players {
                        if p != bye && !history.had_bye(p) {
                            prop_assert!(scores[p] >= scores[bye], "{p} ranks below the bye {bye}");
                        }
                    }
                    seen[bye] = true;
                }
                prop_assert!(seen.iter().all(|&s| s), "everyone plays or has the bye");
                let results = round.games.iter().map(|_| match next() {
                    0 => Result::WhiteWins,
                    1 => Result::Draw,
                    _ => Result::BlackWins,
                }).collect();
                history.rounds.push((round, results));
                let most = if history.rounds.len() <= 3 { 1 } else { 2 };
                prop_assert!(history.colour_balance().iter().all(|b| b.abs() <= most));
            }
        }
    }

    /// Three rounds of eight players always pair (the size of the end-to-end tournament).
    #[test]
    fn eight_players_get_three_swiss_rounds() {
        for results in 0..27u32 {
            let mut history = History::new(8);
            for round in 0..3 {
                let next = history
                    .next_swiss_round()
                    .expect("three rounds of eight pair");
                let result = match (results / 3u32.pow(round)) % 3 {
                    0 => Result::WhiteWins,
                    1 => Result::Draw,
                    _ => Result::BlackWins,
                };
                let results = vec![result; next.games.len()];
                history.rounds.push((next, results));
            }
        }
    }
}

//! Go and Capture Go: what the bots know beyond the rules. The tree avoids an early pass
//! and favours captures, escapes from atari and MoGo's shapes ([`patterns`]); the playouts
//! answer the last move's shape and a capture's eye space ([`life`]) and avoid self-ataris
//! of groups; greedy likes liberties and ataris.

pub mod ladder;
pub mod life;
pub mod patterns;

use std::sync::{Arc, OnceLock};

use rand::Rng;
use toroid_net::Network;
use toroid_rules::games::go::Scoring;
use toroid_rules::games::Go;
use toroid_rules::{Cell, Color, EndPhase, Move, Position, Reason, SetupChange};

use crate::budget::Stop;
use crate::knowledge::{captured, Knowledge};
use crate::learned::{self, Patterns};
use crate::ownership::{dead_stones, owner_shares, JUDGEMENT_SEED};
use crate::policy::{placed, DRAWS};
use crate::tactics::losing_moves;
use ladder::captured_in_ladder;
use life::{is_vital_point, presses_a_race, vital_point_of_capture};
use patterns::mogo;

/// Prior values of Go moves ([`Knowledge::prior`]): a pass while the opponent has not
/// passed, a capture or an escape from atari, a MoGo pattern's shape, a self-atari of a
/// group.
const PASS_PRIOR: f32 = 0.1;
const ATARI_PRIOR: f32 = 0.8;
const PATTERN_PRIOR: f32 = 0.6;
const VITAL_POINT_PRIOR: f32 = 0.8;
const RACE_PRIOR: f32 = 0.7;
const SELF_ATARI_PRIOR: f32 = 0.1;

/// The tactical bits of a placement for the learned patterns ([`Knowledge::tactics`]): it
/// takes the last liberty of an enemy chain; of an own chain (an escape, which may still be
/// a self-atari); it leaves its own new chain of two stones or more with one liberty and
/// captures nothing; the same for a lone stone; it takes the second-last liberty of an
/// enemy chain (an atari).
const CAPTURE: u8 = 1;
const ESCAPE: u8 = 2;
const SELF_ATARI: u8 = 4;
const LONE_SELF_ATARI: u8 = 8;
const ATARI: u8 = 16;

/// A group this large is never put in atari by its own player in the tree: throw-ins and
/// sacrifices that kill are of fewer stones.
const BIG_GROUP: usize = 4;

impl Knowledge for Go {
    /// Capture Go's only. In Go `max` with the patterns in the tree alone won 118 of 200
    /// games against `max` without patterns, and with the replies too 98 of 200 on the same
    /// seeds, both over GTP at 0.1 s a move (docs/strength.md, "Learned move patterns"):
    /// Go's playouts have their own replies (MoGo's shapes, captures, escapes), and the
    /// learned ones cost more simulations than they add.
    fn pattern_replies(&self) -> bool {
        self.scoring().is_none()
    }

    fn patterns(&self) -> &'static Patterns {
        static GO: OnceLock<Patterns> = OnceLock::new();
        static CAPTURE_GO: OnceLock<Patterns> = OnceLock::new();
        match self.scoring() {
            Some(_) => learned::embedded(&GO, include_str!("../../data/patterns/go.txt")),
            None => learned::embedded(
                &CAPTURE_GO,
                include_str!("../../data/patterns/capture-go.txt"),
            ),
        }
    }

    /// Go's learned area scoring with komi 7.5; it plays every scoring and komi, which the
    /// observation planes carry.
    fn network(&self) -> Option<&'static Arc<Network>> {
        Some(match self.scoring() {
            Some(_) => built_in_network!("go"),
            None => built_in_network!("capture-go"),
        })
    }

    /// Also a pass, while a point is left that is worth playing (not an own eye, not a move
    /// that loses at once or is hopeless, not settled territory under territory or Japanese
    /// scoring) and either the opponent has not just passed, or it has and the game counted
    /// now with its dead stones taken off would not be won. Playouts hardly punish a lost
    /// tempo, so a pass looks about as good as any move and, with little exploration, could
    /// collect the most visits in the middle of a game.
    ///
    /// Under territory and Japanese scoring, also every point of the player's own settled
    /// territory ([`settled_territory`]): a stone there costs a point, which playouts cannot
    /// see (they fill every territory anyway).
    ///
    /// Where the opponent just passed and the count is won but an own chain that lives still
    /// needs a stone (one in atari; under area scoring, one with two liberties), every move
    /// but the stones that secure it: the pass, and every other move, would leave the chain
    /// to a referee's judgement.
    fn avoid(&self, _threats: u32, stop: &Stop) -> Vec<Move> {
        let mut avoid = losing_moves(self, stop);
        let Some(me) = self.turn() else {
            return avoid;
        };
        let settled = settled_territory(self, stop);
        avoid.extend(
            (self.topology().cells())
                .filter(|c| settled[c.index()] == Some(me))
                .map(Move::Place),
        );
        // A pass is left out in the middle of the game, and where it would end the game
        // (the opponent just passed) while the count with the dead stones taken off, as
        // players and referees count, is not a win: the rules' own count keeps dead stones,
        // so a lost game could look won to the playouts' last move ([`ending`]).
        let passing_is_pointless = match self.consecutive_passes() {
            0 => true,
            1 => match ending(self, me, stop) {
                Ending::Pass => false,
                Ending::PlayOn => true,
                Ending::Secure(stones) => {
                    let stones: Vec<Move> = (stones.into_iter().map(Move::Place))
                        .filter(|mv| !avoid.contains(mv))
                        .collect();
                    if !stones.is_empty() {
                        let mut moves = Vec::new();
                        self.legal_moves(&mut moves);
                        avoid.extend(moves.into_iter().filter(|mv| !stones.contains(mv)));
                        return avoid;
                    }
                    false
                }
            },
            _ => false,
        };
        if passing_is_pointless && !avoid.contains(&Move::Pass) {
            let mut moves = Vec::new();
            self.legal_moves(&mut moves);
            let worth_playing = moves.iter().any(|&mv| {
                mv.cell()
                    .is_some_and(|c| !self.is_own_eye(c, me) && settled[c.index()].is_none())
                    && !avoid.contains(&mv)
                    && !self.hopeless(mv)
            });
            if worth_playing {
                avoid.push(Move::Pass);
            }
        }
        avoid
    }

    /// A pass starts low unless the opponent just passed, for the same reason. A placement
    /// starts high when it captures, saves a chain in atari that a ladder would not catch,
    /// starts a ladder that catches an enemy chain, or takes the vital point of a small eye
    /// space; fairly high when it takes a liberty in a capturing race, or its shape is a
    /// MoGo pattern; low when it puts a group in atari or runs into a ladder; other
    /// placements have no prior.
    fn prior(&self, mv: Move) -> Option<f32> {
        let Some(c) = mv.cell() else {
            return (self.consecutive_passes() == 0).then_some(PASS_PRIOR);
        };
        let me = self.turn()?;
        if puts_group_in_atari(self, c, me) || runs_into_ladder(self, c, me) {
            return Some(SELF_ATARI_PRIOR);
        }
        // The last liberty of an adjacent chain: a capture, or an escape (an escape that
        // leaves one liberty is a self-atari of a group, above).
        let urgent = self
            .topology()
            .adjacent(c)
            .any(|n| self.atari_point(n) == Some(c));
        if urgent || starts_ladder(self, c, me) {
            Some(ATARI_PRIOR)
        } else if is_vital_point(self, c) {
            Some(VITAL_POINT_PRIOR)
        } else if presses_a_race(self, c, me) {
            Some(RACE_PRIOR)
        } else {
            mogo()
                .matches(self.neighborhood(c))
                .then_some(PATTERN_PRIOR)
        }
    }

    /// A self-atari of a big group, or an escape into a ladder.
    fn hopeless(&self, mv: Move) -> bool {
        match (mv.cell(), self.turn()) {
            (Some(c), Some(me)) => {
                self.self_atari(c, me).is_some_and(|size| size >= BIG_GROUP)
                    || runs_into_ladder(self, c, me)
            }
            _ => false,
        }
    }

    /// In order: capture the chain of the stone just played if it is in atari; where that
    /// stone took three to six stones, play the vital point of the space they leave
    /// ([`vital_point_of_capture`]); save an own chain it put in atari by extending, where
    /// that gives the chain a second liberty, or else by capturing an enemy chain in atari
    /// next to it (how a capturing race is won); capture an enemy chain next to the mover's
    /// own previous stone that the opponent left in atari (how a capturing race ends);
    /// answer the last stone's shape with a MoGo pattern move around it ([`patterns`]).
    fn tactical_move<R: Rng>(&self, recent: &[(Move, Color)], rng: &mut R) -> Option<Move> {
        let c = placed(recent)?;
        let me = self.turn()?;
        if let Some(capture) = self.atari_point(c) {
            return Some(Move::Place(capture));
        }
        if let Some(vital) = vital_point_of_capture(self, c) {
            return Some(Move::Place(vital));
        }
        let escape = self
            .topology()
            .adjacent(c)
            .filter(|&n| self.stone(n) == Some(me))
            .find_map(|n| {
                let liberty = self.atari_point(n)?;
                if saves_by_extending(self, liberty, me) {
                    Some(liberty)
                } else {
                    self.capture_next_to(n)
                }
            });
        let unanswered = || {
            let own_previous = recent
                .len()
                .checked_sub(2)
                .and_then(|i| recent[i].0.cell())?;
            self.topology()
                .adjacent(own_previous)
                .filter(|&n| self.stone(n) == Some(me.opponent()))
                .find_map(|n| self.atari_point(n))
        };
        escape
            .or_else(unanswered)
            .or_else(|| pattern_reply(self, c, me, rng))
            .map(Move::Place)
    }

    /// Bits: `CAPTURE`, `ESCAPE`, `SELF_ATARI` (of a group, two stones or more),
    /// `LONE_SELF_ATARI` and `ATARI`.
    fn tactics(&self, cell: Cell, me: Color) -> u8 {
        let mut bits = 0;
        for n in self.topology().adjacent(cell) {
            match self.stone(n) {
                Some(c) if self.atari_point(n) == Some(cell) => {
                    bits |= if c == me { ESCAPE } else { CAPTURE };
                }
                Some(c) if c != me && self.liberties(n) == 2 => bits |= ATARI,
                _ => {}
            }
        }
        match self.self_atari(cell, me) {
            Some(1) => bits |= LONE_SELF_ATARI,
            Some(_) => bits |= SELF_ATARI,
            None => {}
        }
        bits
    }

    /// Not a self-atari, not an own eye: what the MoGo replies leave out too.
    fn worth_replying(&self, cell: Cell, me: Color) -> bool {
        self.self_atari(cell, me).is_none() && !self.is_own_eye(cell, me)
    }

    /// Draws again after a self-atari of a group: random playouts play them far too often,
    /// which makes living groups look dead and dead ones alive (a lone stone may still throw
    /// in). Ladders are read in the tree only: a read copies the position at every move it
    /// tries, and reading the escapes of the playouts made them 43% slower on 9×9 and 90%
    /// on 19×19.
    fn play_wise_playout_move<R: Rng>(&mut self, rng: &mut R) -> Option<Move> {
        let me = self.turn()?;
        let unwise = |go: &Go, mv: Move| mv.cell().is_some_and(|c| puts_group_in_atari(go, c, me));
        let mut mv = self.playout_move(rng)?;
        for _ in 1..DRAWS {
            if !unwise(self, mv) {
                break;
            }
            mv = self.playout_move(rng)?;
        }
        // The playout policy draws only legal moves: no second judgement.
        self.play_legal(mv);
        Some(mv)
    }

    /// Not final under Japanese counting when two passes ended the game: the rules count
    /// the stones as they stand, but players take the dead ones off as prisoners. Judged as
    /// it stands, a dead stone thrown into the opponent's territory just before the end
    /// spoils that territory, and the tree would prove such endings won; a playout from
    /// the resumed game captures the stone instead, a prisoner for the opponent.
    fn ending_is_final(&self) -> bool {
        !(self.scoring() == Some(Scoring::Japanese)
            && self.outcome().map(|o| o.reason) == Some(Reason::TwoPasses))
    }

    fn resume(&mut self) {
        Go::resume(self);
    }

    /// Captures, the shape of the new chain, and never an own eye.
    fn evaluate(&self, after: &Go, cell: Cell, me: Color) -> f64 {
        let eye = if self.is_own_eye(cell, me) { 20.0 } else { 0.0 };
        10.0 * captured(self, after, me) + go_shape(after, cell, me) - eye
    }
}

/// What `me` may do when the opponent has just passed, so that a pass would end the game.
enum Ending {
    /// Pass: the game is won as counted now, and no own chain needs a stone.
    Pass,
    /// Play one of these stones first: the game is won as counted now, with these own
    /// chains alive, and each stone takes them out of reach.
    Secure(Vec<Cell>),
    /// Play on: the game is not won as counted now.
    PlayOn,
}

/// What `me` may do, the opponent having just passed ([`Ending`]). The game is counted
/// with the stones that the playouts judge dead taken off ([`dead_stones`]), as players
/// and referees count a finished game. Under Japanese scoring the stones taken off are
/// prisoners too, a point each to their captor, as the stones captured in the game already
/// are. `Pass` where nothing is counted (`capture-go`), or where `stop` leaves no time to
/// judge (the stones then count as they stand).
///
/// An own chain that the playouts judge alive is still secured first:
/// - in atari, by a stone on its liberty that leaves it two liberties or more; where no
///   such stone exists the chain counts as dead. The opponent may take it, and referees
///   such as GNU Go count it so, even where the playouts mostly let its owner connect it
///   first, as in a ko shape. The stone costs nothing under area scoring and a point under
///   territory scoring.
/// - under area scoring, with two liberties, by a stone on one of them that leaves it
///   three or more and is not a true own eye (those that leave it the most). GNU Go's
///   referee has counted such a group dead though one stone joined it to a living wall
///   (docs/strength.md, "Securing weak chains before the last pass"); under area scoring
///   the stone costs nothing.
///
/// After two passes under a scoring phase (cleanup) nothing is taken off: the pass ends the
/// game as the rules count it then, so `me` plays on (capturing the dead stones) unless
/// that count wins.
fn ending(go: &Go, me: Color, stop: &Stop) -> Ending {
    if go.score().is_none() || stop.now() {
        return Ending::Pass;
    }
    if go.end_phase() != EndPhase::Play {
        let mut ended = go.clone();
        return match ended.play(Move::Pass).ok().and(ended.outcome()) {
            Some(end) if end.winner == Some(me) => Ending::Pass,
            _ => Ending::PlayOn,
        };
    }
    // Judged with the opponent to move, as a referee finds the board after the pass: with
    // `me` to move, every playout would give `me` a free move to save its weak stones.
    let mut after_pass = go.clone();
    if after_pass.setup(&[], me.opponent()).is_err() {
        return Ending::Pass;
    }
    let mut dead = dead_stones(&after_pass, JUDGEMENT_SEED, stop);
    let secure = stones_to_secure(go, me, &mut dead);
    // The same board with the dead stones taken off (who moves does not change the count).
    let taken_off: Vec<SetupChange> = dead.iter().map(|&cell| (cell, None)).collect();
    if after_pass.setup(&taken_off, me).is_err() {
        return Ending::Pass;
    }
    let Some(mut score) = after_pass.score() else {
        return Ending::Pass;
    };
    if go.scoring() == Some(Scoring::Japanese) {
        for color in dead.iter().filter_map(|&cell| go.stone(cell)) {
            score[color.opponent().index()] += 1.0;
        }
    }
    if score[me.index()] <= score[me.opponent().index()] {
        Ending::PlayOn
    } else if secure.is_empty() {
        Ending::Pass
    } else {
        Ending::Secure(secure)
    }
}

/// The stones that secure `me`'s chains not in `dead` ([`ending`]); the chains in atari
/// that no stone saves are added to `dead`.
fn stones_to_secure(go: &Go, me: Color, dead: &mut Vec<Cell>) -> Vec<Cell> {
    let topology = go.topology();
    let mut seen = vec![false; topology.len()];
    let mut secure = Vec::new();
    for start in topology.cells() {
        if go.stone(start) != Some(me) || seen[start.index()] || dead.contains(&start) {
            continue;
        }
        let chain = go.chain(start);
        for c in &chain {
            seen[c.index()] = true;
        }
        if let Some(liberty) = go.atari_point(start) {
            if saves_by_extending(go, liberty, me) {
                secure.push(liberty);
            } else {
                dead.extend(chain);
            }
        } else if go.liberties(start) == 2 && go.scoring() == Some(Scoring::Area) {
            let gains: Vec<(Cell, u32)> = (liberty_points(go, start).into_iter())
                .filter_map(|l| Some((l, liberties_after(go, l, me)?)))
                .filter(|&(_, after)| after >= 3)
                .collect();
            let best = gains.iter().map(|&(_, after)| after).max();
            secure.extend(
                (gains.iter())
                    .filter(|&&(_, after)| Some(after) == best)
                    .map(|&(l, _)| l),
            );
        }
    }
    secure.sort_by_key(|c| c.index());
    secure.dedup();
    secure
}

/// The empty points next to the chain on `chain`, each once.
fn liberty_points(go: &Go, chain: Cell) -> Vec<Cell> {
    let mut points = Vec::new();
    for stone in go.chain(chain) {
        for n in go.topology().adjacent(stone) {
            if go.stone(n).is_none() && !points.contains(&n) {
                points.push(n);
            }
        }
    }
    points
}

/// The liberties of the chain of `me`'s stone on `liberty`, where that stone is legal and
/// fills no true own eye (a false one only joins chains).
fn liberties_after(go: &Go, liberty: Cell, me: Color) -> Option<u32> {
    if go.is_own_eye(liberty, me) && !go.is_false_eye(liberty, me) {
        return None;
    }
    let mut after = go.clone();
    after.play(Move::Place(liberty)).ok()?;
    Some(after.liberties(liberty))
}

/// Whether `me`'s stone on `liberty`, the last liberty of an own chain, gives the chain a
/// second one: neither a self-atari nor a suicide (no liberty at all).
fn saves_by_extending(go: &Go, liberty: Cell, me: Color) -> bool {
    go.self_atari(liberty, me).is_none() && go.check(Move::Place(liberty)).is_ok()
}

/// Whether `me` playing `c` leaves a group of two stones or more in atari: the self-ataris
/// the tree distrusts and the playouts draw again (a lone stone may still throw in).
fn puts_group_in_atari(go: &Go, c: Cell, me: Color) -> bool {
    go.self_atari(c, me).is_some_and(|size| size >= 2)
}

/// Playouts behind the judgement of settled territory.
const SETTLED_PLAYOUTS: usize = 200;

/// The least share of playouts at whose end a point of territory must still be its owner's
/// to count as settled. Random playouts kill even safe big groups now and then (a 36-point
/// area ends as its owner's in about 80% of them), so well above half but no higher.
const SETTLED_SHARE: f64 = 0.7;

/// A region of territory this large lives whatever the opponent plays inside (the killable
/// eye shapes, nakade, have at most six points).
const SETTLED_SIZE: usize = 7;

/// Under territory and Japanese scoring, the owner of each empty point that is settled
/// territory, where neither player needs a stone: the rules count the point for its owner
/// now (its empty region borders the owner's stones only), the region cannot be killed from
/// inside (it has at least `SETTLED_SIZE` points, or every chain around it borders
/// another region of territory: a second eye), and the point is still the owner's at the
/// end of most playouts. An eye shape with a vital point, where a stone decides life, is
/// therefore not settled. The opponent may still invade; the owner answers then, as the
/// invaded region borders the invader and is no longer territory. Nothing is settled under
/// area and stone scoring, where a stone in one's own territory costs nothing, nor when
/// `stop` ends the search before a playout.
pub fn settled_territory(go: &Go, stop: &Stop) -> Vec<Option<Color>> {
    let topology = go.topology();
    let cells = topology.len();
    // The rules' count is asked only where a stone in territory costs a point: it is a walk
    // of the board.
    let territory = (go.scoring().is_some_and(Scoring::charges_own_territory))
        .then(|| go.territory())
        .flatten()
        .filter(|territory| territory.iter().any(Option::is_some));
    let Some(territory) = territory else {
        return vec![None; cells];
    };
    // The regions of territory (empty regions, each with one owner), and the chains around
    // each, a chain named by its first cell.
    let mut region_of = vec![usize::MAX; cells];
    let mut regions: Vec<(usize, Vec<Cell>)> = Vec::new();
    let mut chain_of = vec![None::<Cell>; cells];
    for start in topology.cells() {
        if territory[start.index()].is_none() || region_of[start.index()] != usize::MAX {
            continue;
        }
        let id = regions.len();
        let (mut size, mut chains, mut stack) = (0, Vec::new(), vec![start]);
        region_of[start.index()] = id;
        while let Some(at) = stack.pop() {
            size += 1;
            for n in topology.adjacent(at) {
                if go.stone(n).is_some() {
                    let chain = *chain_of[n.index()].get_or_insert_with(|| {
                        let chain = go.chain(n);
                        chain.into_iter().min_by_key(|c| c.index()).unwrap_or(n)
                    });
                    if !chains.contains(&chain) {
                        chains.push(chain);
                    }
                } else if region_of[n.index()] == usize::MAX {
                    region_of[n.index()] = id;
                    stack.push(n);
                }
            }
        }
        regions.push((size, chains));
    }
    let regions_around = |chain: &Cell| regions.iter().filter(|(_, c)| c.contains(chain)).count();
    let safe: Vec<bool> = (regions.iter())
        .map(|(size, chains)| {
            *size >= SETTLED_SIZE || chains.iter().all(|c| regions_around(c) >= 2)
        })
        .collect();
    let Some(shares) = owner_shares(go, SETTLED_PLAYOUTS, JUDGEMENT_SEED, stop) else {
        return vec![None; cells];
    };
    (topology.cells())
        .map(|c| {
            let owner = territory[c.index()]?;
            let region = region_of[c.index()];
            (safe[region] && shares[c.index()][owner.index()] >= SETTLED_SHARE).then_some(owner)
        })
        .collect()
}

/// Whether `me` playing `c` only extends an own chain in atari (capturing nothing) into a
/// ladder that catches it.
fn runs_into_ladder(go: &Go, c: Cell, me: Color) -> bool {
    let topology = go.topology();
    let captures = topology
        .adjacent(c)
        .any(|n| go.stone(n) == Some(me.opponent()) && go.atari_point(n) == Some(c));
    // Three empty points around the extension are three liberties: no ladder to read.
    let open = topology
        .adjacent(c)
        .filter(|&n| go.stone(n).is_none())
        .count()
        >= 3;
    !captures
        && !open
        && topology.adjacent(c).any(|n| {
            go.stone(n) == Some(me) && go.atari_point(n) == Some(c) && captured_in_ladder(go, n)
        })
}

/// Whether `me` playing `c` puts an enemy chain in atari (from two liberties) that a ladder
/// then catches, without leaving the new stone in atari.
fn starts_ladder(go: &Go, c: Cell, me: Color) -> bool {
    let mut targets = go
        .topology()
        .adjacent(c)
        .filter(|&n| go.stone(n) == Some(me.opponent()) && go.liberties(n) == 2)
        .peekable();
    if targets.peek().is_none() {
        return false;
    }
    let mut after = go.clone();
    if after.play(Move::Place(c)).is_err() || after.liberties(c) < 2 {
        return false;
    }
    targets.any(|t| after.in_atari(t) && captured_in_ladder(&after, t))
}

/// A random one of the empty cells around `c` whose 3×3 shape is a MoGo pattern and that is
/// worth replying (no own eye, no self-atari).
fn pattern_reply<R: Rng>(go: &Go, c: Cell, me: Color, rng: &mut R) -> Option<Cell> {
    let patterns = mogo();
    let mut replies = [Cell(0); 8];
    let mut count = 0;
    for n in go.around(c).into_iter().flatten() {
        if go.stone(n).is_none() && patterns.matches(go.neighborhood(n)) && go.worth_replying(n, me)
        {
            replies[count] = n;
            count += 1;
        }
    }
    (count > 0).then(|| replies[rng.random_range(0..count)])
}

/// Go: liberties of the new chain (up to 4), a penalty for putting it in atari, a bonus for
/// every enemy chain next to it put in atari.
fn go_shape(g: &Go, cell: Cell, me: Color) -> f64 {
    let liberties = g.liberties(cell).min(4) as f64;
    let self_atari = if g.in_atari(cell) { 8.0 } else { 0.0 };
    let ataris = g
        .topology()
        .adjacent(cell)
        .filter(|&n| g.stone(n) == Some(me.opponent()) && g.in_atari(n))
        .count() as f64;
    liberties - self_atari + 2.0 * ataris
}

#[cfg(test)]
mod tests {
    use toroid_rules::games::go::GO_PARAMS;
    use toroid_rules::{Cell, Color, Params};

    use super::*;

    fn go(params: &[&str]) -> Go {
        Go::go(&Params::parse(GO_PARAMS, params).unwrap()).unwrap()
    }

    #[test]
    fn go_avoids_a_pass_while_points_are_worth_playing() {
        let mut g = go(&["size=5"]);
        assert!(g.avoid(1, &Stop::default()).contains(&Move::Pass));
        assert_eq!(g.prior(Move::Pass), Some(PASS_PRIOR));
        assert_eq!(g.prior(Move::Place(Cell(0))), None);
        // After the opponent's pass, passing may end the game and is searched as any move.
        g.play(Move::Pass).unwrap();
        assert!(!g.avoid(1, &Stop::default()).contains(&Move::Pass));
        assert_eq!(g.prior(Move::Pass), None);
    }

    #[test]
    fn go_may_pass_when_only_its_own_eyes_are_left() {
        let mut g = go(&["size=5"]);
        // Black everywhere but two single-point eyes at the first and last cell.
        let last = g.topology().len() - 1;
        let stones: Vec<_> = (1..last)
            .map(|i| (Cell(i as u16), Some(Color::Black)))
            .collect();
        g.setup(&stones, Color::Black).unwrap();
        assert!(!g.avoid(1, &Stop::default()).contains(&Move::Pass));
    }
}

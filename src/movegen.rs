//! Legal actions for the side to move: flips, steps, straight railway
//! slides, engineer railway routes and attacks (RULES.md §1, §3, §4), by
//! table lookups and bit operations.
//!
//! A piece of unknown kind (an enemy piece in a `classic` view) may do what
//! any movable piece could: its moves are the union of steps and engineer
//! routes, and it may attack what some movable kind could attack from there.

use crate::action::Action;
use crate::board::Bitboard;
use crate::board::Point;
use crate::board::topology::{ADJACENT, CAMPS, Direction, HQS, NUM_POINTS, RAILWAY, RAYS, rail_neighbours};
use crate::combat::attack_allowed;
use crate::piece::Kind;
use crate::position::Position;

/// Receives the legal actions of a position, grouped by piece.
pub trait ActionSink {
    /// The face-down points that may be flipped.
    fn flips(&mut self, points: Bitboard);
    /// The piece at `from` may move to each point of `moves` and attack
    /// each point of `attacks`.
    fn piece(&mut self, from: Point, moves: Bitboard, attacks: Bitboard);
}

impl ActionSink for Vec<Action> {
    #[inline]
    fn flips(&mut self, points: Bitboard) {
        self.extend(points.into_iter().map(Action::flip));
    }

    #[inline]
    fn piece(&mut self, from: Point, moves: Bitboard, attacks: Bitboard) {
        self.extend(moves.into_iter().map(|to| Action::moving(from, to)));
        self.extend(attacks.into_iter().map(|to| Action::attack(from, to)));
    }
}

/// Counts actions; a flip counts once per distinct identity it may show
/// when `flip_branching` is set (perft), once otherwise.
pub struct Counter {
    /// The running count.
    pub count: u64,
    flip_branching: u64,
}

impl ActionSink for Counter {
    #[inline]
    fn flips(&mut self, points: Bitboard) {
        self.count += u64::from(points.count()) * self.flip_branching;
    }

    #[inline]
    fn piece(&mut self, _from: Point, moves: Bitboard, attacks: Bitboard) {
        self.count += u64::from(moves.count() + attacks.count());
    }
}

/// The legal actions of a position kept grouped by piece, as the generator
/// gives them, without listing them one by one: their number, the `n`-th in
/// [`Position::legal_actions`] order, and the attacks. What the playouts
/// and the evaluation need of a position, at a fraction of the cost of a
/// list (most actions are moves, which they only count).
#[derive(Clone, Debug)]
pub struct Grouped {
    flips: Bitboard,
    groups: [(Point, Bitboard, Bitboard); NUM_POINTS],
    /// Groups in use (pieces with an action).
    pieces: usize,
    count: usize,
}

impl Default for Grouped {
    fn default() -> Grouped {
        Grouped::new()
    }
}

impl Grouped {
    /// No action.
    pub fn new() -> Grouped {
        let none = (Point::from_index_unchecked(0), Bitboard::EMPTY, Bitboard::EMPTY);
        Grouped { flips: Bitboard::EMPTY, groups: [none; NUM_POINTS], pieces: 0, count: 0 }
    }

    /// Forgets every action.
    #[inline]
    pub fn clear(&mut self) {
        self.flips = Bitboard::EMPTY;
        self.pieces = 0;
        self.count = 0;
    }

    /// The legal actions of the side to move in `pos` (none once the game
    /// is over), replacing what was kept.
    #[inline]
    pub fn of(&mut self, pos: &Position) {
        self.clear();
        pos.generate(self);
    }

    /// The attacks of the side to move in `pos` only (none once the game
    /// is over), replacing what was kept: [`Grouped::attacks`] as after
    /// [`Grouped::of`], the moves not listed.
    #[inline]
    pub fn attacks_of(&mut self, pos: &Position) {
        self.clear();
        pos.generate_attacks(self);
    }

    /// Number of actions, each flip counted once.
    #[inline]
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there is no action.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The `n`-th action in [`Position::legal_actions`] order (flips, then
    /// each piece's moves and attacks), if there are that many.
    pub fn nth(&self, n: usize) -> Option<Action> {
        let mut n = u32::try_from(n).ok()?;
        let flips = self.flips.count();
        if n < flips {
            return self.flips.nth(n).map(Action::flip);
        }
        n -= flips;
        for &(from, moves, attacks) in &self.groups[..self.pieces] {
            let m = moves.count();
            if n < m {
                return moves.nth(n).map(|to| Action::moving(from, to));
            }
            n -= m;
            let a = attacks.count();
            if n < a {
                return attacks.nth(n).map(|to| Action::attack(from, to));
            }
            n -= a;
        }
        None
    }

    /// The attacks, in [`Position::legal_actions`] order.
    pub fn attacks(&self) -> impl Iterator<Item = Action> + '_ {
        self.groups[..self.pieces]
            .iter()
            .flat_map(|&(from, _, attacks)| attacks.into_iter().map(move |to| Action::attack(from, to)))
    }
}

impl ActionSink for Grouped {
    #[inline]
    fn flips(&mut self, points: Bitboard) {
        self.flips |= points;
        self.count += points.count() as usize;
    }

    #[inline]
    fn piece(&mut self, from: Point, moves: Bitboard, attacks: Bitboard) {
        let n = (moves.count() + attacks.count()) as usize;
        // A point holds one piece, so there is room for every group.
        if n > 0 && self.pieces < NUM_POINTS {
            self.groups[self.pieces] = (from, moves, attacks);
            self.pieces += 1;
            self.count += n;
        }
    }
}

/// Stops at the first action (to test whether any exists).
struct Any(bool);

impl ActionSink for Any {
    #[inline]
    fn flips(&mut self, points: Bitboard) {
        self.0 |= points.any();
    }

    #[inline]
    fn piece(&mut self, _from: Point, moves: Bitboard, attacks: Bitboard) {
        self.0 |= (moves | attacks).any();
    }
}

/// The points an engineer on the railway at `from` reaches through empty
/// railway points (`from` included).
#[inline]
pub fn engineer_reach(from: Point, empty: Bitboard) -> Bitboard {
    let mut reach = Bitboard::from_point(from);
    let mut frontier = reach;
    loop {
        frontier = rail_neighbours(frontier) & empty & !reach;
        if frontier.is_empty() {
            return reach;
        }
        reach |= frontier;
    }
}

/// Destinations of a straight railway slide from `from`: the empty points
/// along each line, and the first occupied point met on each line.
#[inline]
pub fn slides(from: Point, occupied: Bitboard) -> (Bitboard, Bitboard) {
    let mut reach = Bitboard::EMPTY;
    let mut blockers = Bitboard::EMPTY;
    for d in Direction::ALL {
        let ray = RAYS[from.index()][d as usize];
        let hit = ray & occupied;
        let first = if d.is_increasing() { hit.first() } else { hit.last() };
        match first {
            Some(b) => {
                reach |= ray - RAYS[b.index()][d as usize];
                blockers.insert(b);
            }
            None => reach |= ray,
        }
    }
    (reach - occupied, blockers)
}

impl Position {
    /// Sends every legal action of the side to move to `sink`; none once
    /// the game is over by flag capture or quiet limit.
    #[inline]
    pub fn generate<S: ActionSink>(&self, sink: &mut S) {
        if self.outcome_without_actions().is_none() {
            self.generate_unchecked(sink);
        }
    }

    /// Like [`Position::generate`], without looking at whether the game is over.
    pub fn generate_unchecked<S: ActionSink>(&self, sink: &mut S) {
        self.generate_with::<S, true>(sink);
    }

    /// Like [`Position::generate`] without the flips and moves: each piece's
    /// attacks, its moves left empty (what the evaluation's threats need).
    pub fn generate_attacks<S: ActionSink>(&self, sink: &mut S) {
        if self.outcome_without_actions().is_none() {
            self.generate_with::<S, false>(sink);
        }
    }

    /// The generator; flips and moves only with `MOVES`.
    #[inline]
    fn generate_with<S: ActionSink, const MOVES: bool>(&self, sink: &mut S) {
        let facedown = self.facedown();
        if MOVES && facedown.any() {
            sink.flips(facedown);
        }
        let Some(us) = self.side_to_move() else {
            return;
        };
        let them = us.opposite();
        let rules = self.rules();
        let occupied = self.occupied();
        let empty = !occupied;
        let enemy = self.pieces(them) - CAMPS;
        let flag = self.pieces_of(them, Some(Kind::Flag));
        let mines = self.pieces_of(them, Some(Kind::Mine));
        let cleared = self.mines_cleared(them);
        let targets_for = |k: Kind| {
            let mut t = enemy;
            if !attack_allowed(rules, k, Kind::Flag, cleared) {
                t = t - flag;
            }
            if !attack_allowed(rules, k, Kind::Mine, cleared) {
                t = t - mines;
            }
            t
        };
        let ranked_targets = targets_for(Kind::Lieutenant);
        let engineer_targets = targets_for(Kind::Engineer);
        let bomb_targets = targets_for(Kind::Bomb);
        // A piece of unknown kind may attack what some movable kind could.
        let unknown_targets = ranked_targets | engineer_targets | bomb_targets;

        let immobile = self.pieces_of(us, Some(Kind::Mine)) | self.pieces_of(us, Some(Kind::Flag)) | HQS;
        let engineers = self.pieces_of(us, Some(Kind::Engineer));
        let unknown = self.pieces_of(us, None);
        let bombs = self.pieces_of(us, Some(Kind::Bomb));
        for from in self.pieces(us) - immobile {
            let steps = ADJACENT[from.index()];
            let bit = Bitboard::from_point(from);
            let targets = if (engineers & bit).any() {
                engineer_targets
            } else if (unknown & bit).any() {
                unknown_targets
            } else if (bombs & bit).any() {
                bomb_targets
            } else {
                ranked_targets
            };
            let mut moves = if MOVES { steps & empty } else { Bitboard::EMPTY };
            let mut attacks = steps & targets;
            if RAILWAY.contains(from) {
                if ((engineers | unknown) & bit).any() {
                    let reach = engineer_reach(from, empty);
                    if MOVES {
                        moves |= reach - bit;
                    }
                    attacks |= rail_neighbours(reach) & targets;
                } else {
                    let (reach, blockers) = slides(from, occupied);
                    if MOVES {
                        moves |= reach;
                    }
                    attacks |= blockers & targets;
                }
            }
            sink.piece(from, moves, attacks);
        }
    }

    /// Appends the legal actions of the side to move to `out`.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        self.generate(out);
    }

    /// Number of legal actions, each flip counted once.
    pub fn count_actions(&self) -> u64 {
        let mut c = Counter { count: 0, flip_branching: 1 };
        self.generate(&mut c);
        c.count
    }

    /// Number of leaves one ply ahead: a flip counts once per distinct
    /// identity still in the pool (perft at depth 1).
    pub fn count_leaves(&self) -> u64 {
        let mut c = Counter { count: 0, flip_branching: u64::from(self.pool_distinct()) };
        self.generate(&mut c);
        c.count
    }

    /// Whether the side to move has any action the movement rules allow,
    /// whether or not the game is already over.
    pub fn has_legal_action(&self) -> bool {
        let mut a = Any(false);
        self.generate_unchecked(&mut a);
        a.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::ActionKind;
    use crate::random::seeded_position;
    use crate::rules::Rules;

    #[test]
    fn grouped_actions_are_the_list_in_its_order() {
        let mut grouped = Grouped::new();
        let mut checked = 0;
        for rules in [Rules::FLIP, Rules::CLASSIC, Rules::OPEN] {
            for seed in 0..6 {
                for plies in [0, 1, 30, 90, 200] {
                    let pos = seeded_position(rules, seed, plies);
                    let mut list = Vec::new();
                    pos.legal_actions(&mut list);
                    grouped.of(&pos);
                    assert_eq!(grouped.len(), list.len());
                    assert_eq!(grouped.is_empty(), list.is_empty());
                    let listed: Vec<Action> = (0..list.len()).filter_map(|i| grouped.nth(i)).collect();
                    assert_eq!(listed, list, "{rules:?} seed {seed} plies {plies}");
                    assert_eq!(grouped.nth(list.len()), None);
                    let attacks: Vec<Action> =
                        list.iter().copied().filter(|a| a.kind() == ActionKind::Attack).collect();
                    assert_eq!(grouped.attacks().collect::<Vec<_>>(), attacks);
                    checked += usize::from(list.iter().any(|a| a.kind() == ActionKind::Flip))
                        + usize::from(!attacks.is_empty());
                }
            }
        }
        // Positions with flips and with attacks were among them.
        assert!(checked > 20, "{checked}");
    }
}

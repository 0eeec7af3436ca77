//! Legal moves and attacks of a seat on the four-player board (RULES-4P.md
//! §2, §4 item 4, with RULES.md's movement and attack rules): steps along
//! any link, non-engineer slides along the precomputed rays (through the
//! curves and across the centre, never turning), engineer routes over any
//! empty railway, attacks on the pieces of the two opponents (a partner's
//! piece blocks like any piece and is never attacked; a piece in a camp is
//! never attacked; pieces on an HQ, mines and the flag never move).
//!
//! A piece of unknown kind may do what any movable piece could: steps and
//! engineer routes, and attacks on whatever some movable kind could attack.
//!
//! House rules (RULES-4P.md §5): with `CentreTransitOnly` no piece stops
//! on `Cb2` (slides and engineer routes still pass through it); with
//! `OwnCampsOnly` a piece enters only its own arm's camps (it may still
//! leave another arm's camp it stands in).

use super::action::Action;
use super::bitset::PointSet;
use super::position::Position;
use super::topology::{ADJACENT, ARMS, CAMPS, HQS, RAIL_ADJACENT, RAILWAY, RAYS, Seat};
use crate::combat::attack_allowed;
use crate::piece::Kind;

use super::topology::Point;

/// `Cb2`, the very centre.
const CENTRE_MIDDLE: Point = match Point::centre(1, 2) {
    Some(p) => p,
    None => unreachable!(),
};

/// Receives the legal actions of a seat, grouped by piece.
pub trait ActionSink {
    /// The piece at `from` may move to each point of `moves` and attack
    /// each point of `attacks`.
    fn piece(&mut self, from: Point, moves: PointSet, attacks: PointSet);
}

impl ActionSink for Vec<Action> {
    #[inline]
    fn piece(&mut self, from: Point, moves: PointSet, attacks: PointSet) {
        self.extend(moves.into_iter().map(|to| Action::moving(from, to)));
        self.extend(attacks.into_iter().map(|to| Action::attacking(from, to)));
    }
}

/// Counts actions.
#[derive(Default)]
pub struct Counter(pub u64);

impl ActionSink for Counter {
    #[inline]
    fn piece(&mut self, _from: Point, moves: PointSet, attacks: PointSet) {
        self.0 += u64::from(moves.count() + attacks.count());
    }
}

struct Any(bool);

impl ActionSink for Any {
    #[inline]
    fn piece(&mut self, _from: Point, moves: PointSet, attacks: PointSet) {
        self.0 |= (moves | attacks).any();
    }
}

/// One railway step from every point of `s`.
#[inline]
pub fn rail_neighbours(s: PointSet) -> PointSet {
    let mut out = PointSet::EMPTY;
    for p in s {
        out |= RAIL_ADJACENT[p.index()];
    }
    out
}

/// The points an engineer on the railway at `from` reaches through empty
/// railway points (`from` included).
#[inline]
pub fn engineer_reach(from: Point, empty: PointSet) -> PointSet {
    let mut reach = PointSet::from_point(from);
    let mut frontier = reach;
    loop {
        frontier = (rail_neighbours(frontier) & empty) - reach;
        if frontier.is_empty() {
            return reach;
        }
        reach |= frontier;
    }
}

/// A non-engineer's slides from `from`: the empty points passed along each
/// ray, and the first occupied point of each ray.
#[inline]
pub fn slides(from: Point, occupied: PointSet) -> (PointSet, PointSet) {
    let mut reach = PointSet::EMPTY;
    let mut blockers = PointSet::EMPTY;
    for ray in RAYS[from.index()].rays() {
        for &p in ray.points() {
            if occupied.contains(p) {
                blockers.insert(p);
                break;
            }
            reach.insert(p);
        }
    }
    (reach, blockers)
}

impl Position {
    /// Sends every legal action of the side to move to `sink`.
    #[inline]
    pub fn generate<S: ActionSink>(&self, sink: &mut S) {
        self.generate_for(self.side_to_move(), sink);
    }

    /// Sends every legal action of `seat` to `sink`; none once the game is
    /// over or `seat` is out.
    pub fn generate_for<S: ActionSink>(&self, seat: Seat, sink: &mut S) {
        if self.is_over() || self.is_out(seat) {
            return;
        }
        self.generate_pieces(seat, sink);
    }

    /// Whether `seat` could act here, the end of the game aside (for the
    /// no-legal-action checks of the game flow, RULES-4P.md §4 item 9).
    pub(crate) fn can_act(&self, seat: Seat) -> bool {
        if self.is_out(seat) {
            return false;
        }
        // Almost always a piece that moves has an empty point next to it:
        // a step there is legal, and nothing else need be generated.
        let open = !self.occupied() - self.barred_for(seat);
        let movers = (self.pieces(seat) - HQS)
            .into_iter()
            .filter(|&p| !matches!(self.cell(p).and_then(|pc| pc.kind), Some(Kind::Mine | Kind::Flag)));
        for p in movers {
            if (ADJACENT[p.index()] & open).any() {
                return true;
            }
        }
        let mut a = Any(false);
        self.generate_pieces(seat, &mut a);
        a.0
    }

    /// Points no piece of `seat` may stop on: `Cb2` when transit-only
    /// (RULES-4P.md §5 row 4), the other arms' camps when only one's own
    /// may be entered (§5 row 10).
    fn barred_for(&self, seat: Seat) -> PointSet {
        let settings = self.settings();
        let mut barred = PointSet::EMPTY;
        if settings.centre_transit_only {
            barred.insert(CENTRE_MIDDLE);
        }
        if settings.own_camps_only {
            barred |= CAMPS - ARMS[seat.index()];
        }
        barred
    }

    fn generate_pieces<S: ActionSink>(&self, seat: Seat, sink: &mut S) {
        let rules = self.rules();
        let barred = self.barred_for(seat);
        let occupied = self.occupied();
        let empty = !occupied;
        let opponents = seat.opponents();
        let enemy = (self.pieces(opponents[0]) | self.pieces(opponents[1])) - CAMPS;
        // Known flags and mines of each opponent, off the camps.
        let mut flags = [PointSet::EMPTY; 2];
        let mut mines = [PointSet::EMPTY; 2];
        for (i, &o) in opponents.iter().enumerate() {
            for p in self.pieces(o) - CAMPS {
                match self.cell(p).and_then(|pc| pc.kind) {
                    Some(Kind::Flag) => flags[i].insert(p),
                    Some(Kind::Mine) => mines[i].insert(p),
                    _ => {}
                }
            }
        }
        let targets_for = |k: Kind| {
            let mut t = enemy;
            for (i, &o) in opponents.iter().enumerate() {
                let cleared = self.mines_cleared(o);
                if !attack_allowed(rules, k, Kind::Flag, cleared) {
                    t = t - flags[i];
                }
                if !attack_allowed(rules, k, Kind::Mine, cleared) {
                    t = t - mines[i];
                }
            }
            t
        };
        let ranked_targets = targets_for(Kind::Lieutenant);
        let engineer_targets = targets_for(Kind::Engineer);
        let bomb_targets = targets_for(Kind::Bomb);
        let unknown_targets = ranked_targets | engineer_targets | bomb_targets;

        for from in self.pieces(seat) - HQS {
            let kind = self.cell(from).and_then(|pc| pc.kind);
            let (targets, turns) = match kind {
                Some(Kind::Mine | Kind::Flag) => continue,
                Some(Kind::Engineer) => (engineer_targets, true),
                None => (unknown_targets, true),
                Some(Kind::Bomb) => (bomb_targets, false),
                Some(_) => (ranked_targets, false),
            };
            let steps = ADJACENT[from.index()];
            let mut moves = steps & empty;
            let mut attacks = steps & targets;
            if RAILWAY.contains(from) {
                if turns {
                    let reach = engineer_reach(from, empty);
                    moves |= reach - PointSet::from_point(from);
                    attacks |= rail_neighbours(reach) & targets;
                } else {
                    let (reach, blockers) = slides(from, occupied);
                    moves |= reach;
                    attacks |= blockers & targets;
                }
            }
            sink.piece(from, moves - barred, attacks - barred);
        }
    }

    /// Appends the legal actions of the side to move to `out`.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        self.generate(out);
    }

    /// Number of legal actions of the side to move.
    pub fn count_actions(&self) -> u64 {
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }

    /// Whether `seat` has any legal action (whatever the side to move).
    pub fn has_legal_action(&self, seat: Seat) -> bool {
        let mut a = Any(false);
        self.generate_for(seat, &mut a);
        a.0
    }
}

//! The baseline players for four seats (`siguo`, `siguo-open`), on the seat
//! to move's view:
//!
//! - `random`: uniform over the legal actions;
//! - `greedy`: one ply, as the two-player `greedy` does it. An action earns
//!   the material it wins now (the four-player value table, averaged over
//!   what an unseen piece may be: [`crate::siguo::exchange`]) and loses the
//!   most either opponent could then win with one attack; a move forward
//!   (up its own arm, into the centre, down an opponent's arm) earns a
//!   little, so that it advances when nothing else matters. Ties are broken
//!   at random.

use super::Choice;
use crate::random::Rng;
use crate::siguo::exchange::{FLAG_VALUE, Pools, forecast};
use crate::siguo::{Action, Point, Position, Region, Seat};

/// Centipawns per step of progress a move makes.
const ADVANCE: f32 = 3.0;

/// A legal action drawn uniformly, or `None` when there is none.
pub fn random(pos: &Position, rng: &mut Rng) -> Option<Choice<Action>> {
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    super::uniform(&actions, rng)
}

/// How far `p` lies on the way from `seat`'s back rank to an opponent's:
/// 1-6 up its own arm (its partner's arm counts as the centre), 7 in the
/// centre, 8-13 down an opponent's arm towards its headquarters.
fn progress(p: Point, seat: Seat) -> i32 {
    match p.region() {
        Region::Arm(s) if s == seat => i32::from(p.rank()),
        Region::Arm(s) if s == seat.partner() => 7,
        Region::Arm(_) => 14 - i32::from(p.rank()),
        Region::Centre => 7,
    }
}

/// The most one opponent of `seat` can win with one attack in `pos` (0 if
/// nothing pays).
fn best_attack(pos: &Position, seat: Seat, buf: &mut Vec<Action>) -> f32 {
    let pools = Pools::of(pos);
    let mut best = 0.0f32;
    for o in seat.opponents() {
        buf.clear();
        pos.generate_for(o, buf);
        for a in buf.iter().filter(|a| a.attack) {
            best = best.max(forecast(pos, &pools, a.from, a.to).expected_gain());
        }
    }
    best
}

/// The greedy score of `action` for the seat to move.
pub fn score(pos: &Position, action: Action, buf: &mut Vec<Action>) -> f32 {
    let seat = pos.side_to_move();
    if !action.attack {
        let mut child = pos.clone();
        child.play_move(action.from, action.to);
        let forward = progress(action.to, seat) - progress(action.from, seat);
        return -best_attack(&child, seat, buf) + forward as f32 * ADVANCE;
    }
    let f = forecast(pos, &Pools::of(pos), action.from, action.to);
    super::attack_score(f.prob, f.weighted_gain, FLAG_VALUE, |o| {
        let mut child = pos.clone();
        child.play_attack(action.from, action.to, o);
        best_attack(&child, seat, buf)
    })
}

/// The greedy choice, or `None` when there is no legal action.
pub fn greedy(pos: &Position, rng: &mut Rng) -> Option<Choice<Action>> {
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    let mut buf = Vec::new();
    super::best_scored(&actions, rng, |a| score(pos, a, &mut buf))
}

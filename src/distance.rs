//! How many actions a side needs to reach a point: the distances of the
//! flag race, shared by the `expert` player and the search's evaluation.
//!
//! An action enters one point: a step along a link, or a straight railway
//! slide through empty points. Entering an empty point (or the target
//! itself, the capture) costs one action; a point held by the other side
//! costs [`THROUGH_PIECE`] (it must be cleared first, and the clearing may
//! fail), a known landmine [`THROUGH_MINE`]; the mover's own pieces and
//! face-down pieces cannot be entered. Engineers' turns on the railway are
//! not counted (a slide is straight), so an Engineer may be nearer than
//! it says.

use crate::board::topology::{ADJACENT, CAMPS, NUM_POINTS, RAILWAY};
use crate::board::{Bitboard, Point};
use crate::movegen::slides;
use crate::piece::{Colour, Kind};
use crate::position::Position;

/// Actions to enter a point held by the other side.
pub const THROUGH_PIECE: u8 = 2;
/// Actions to enter a point held by a known landmine of the other side.
pub const THROUGH_MINE: u8 = 3;
/// The distance of a point farther than the limit asked for.
pub const FAR: u8 = u8::MAX;
/// The largest limit: more than any shortest route on 60 points needs.
pub const MAX_LIMIT: u8 = 63;

/// For every point, the actions a piece of `mover` standing there needs to
/// attack `target`, up to `limit` (at most [`MAX_LIMIT`]; farther: [`FAR`]).
/// A piece in a camp cannot be attacked: every point is [`FAR`] from it.
pub fn actions_to(pos: &Position, target: Point, mover: Colour, limit: u8) -> [u8; NUM_POINTS] {
    let occupied = pos.occupied();
    let mut dist = [FAR; NUM_POINTS];
    if occupied.contains(target) && CAMPS.contains(target) {
        return dist;
    }
    let blocked = pos.facedown() | pos.pieces(mover);
    let mines = pos.pieces_of(mover.opposite(), Some(Kind::Mine));
    let limit = usize::from(limit.min(MAX_LIMIT));
    // Points by tentative distance (Dial's buckets); distances are small.
    let mut buckets = [Bitboard::EMPTY; MAX_LIMIT as usize + 1];
    let mut done = Bitboard::EMPTY;
    buckets[0].insert(target);
    for d in 0..=limit {
        while let Some(q) = (buckets[d] - done).first() {
            done.insert(q);
            dist[q.index()] = d as u8;
            let cost = if q == target || !occupied.contains(q) {
                1
            } else if blocked.contains(q) {
                continue;
            } else if mines.contains(q) {
                THROUGH_MINE
            } else {
                THROUGH_PIECE
            };
            let next = d + usize::from(cost);
            if next > limit {
                continue;
            }
            let mut from = ADJACENT[q.index()];
            if RAILWAY.contains(q) {
                let (reach, blockers) = slides(q, occupied);
                from |= reach | blockers;
            }
            buckets[next] |= from - done;
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_point, parse_position};
    use crate::rules::Rules;

    fn at(s: &str) -> Point {
        parse_point(s).expect("point")
    }

    #[test]
    fn steps_slides_and_guards_count_as_the_module_says() {
        // Red's flag on b1 with mines on a1 and c1; a Blue piece at the
        // camp b3, another at e11.
        let pos = parse_position(
            "5/4b?/5/5/5/5/5/5/5/1b?3/5/rMrFrM2 b 0 40 r1r1r1r2r2r2r3r3r3r4r4r5r5r6r6r7r7r8r9rBrBrMb?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?",
            Rules::CLASSIC,
        )
        .expect("position");
        let d = actions_to(&pos, at("b1"), Colour::Blue, 12);
        assert_eq!(d[at("b2").index()], 1);
        assert_eq!(d[at("b3").index()], 2, "b3 - b2, then the flag");
        // Down file e by one slide, along rank 2 by another, then b2 - b1.
        assert_eq!(d[at("e11").index()], 3);
        assert_eq!(d[at("a2").index()], 2, "a2 - b2, then the flag");
        // From a3: a2, b2, the flag (a slide does not turn); through the
        // mine a1 it would be 1 + 3 + 1.
        assert_eq!(d[at("a3").index()], 3);
        let limited = actions_to(&pos, at("b1"), Colour::Blue, 2);
        assert_eq!(limited[at("e11").index()], FAR);
    }

    #[test]
    fn a_piece_in_a_camp_is_out_of_reach() {
        // A Red piece in the camp b3, a Blue one beside it on b4.
        let pos = parse_position(
            "5/5/5/5/5/5/5/5/1b?3/1r63/5/rMrFrM2 b 0 40 r1r1r1r2r2r2r3r3r3r4r4r5r5r6r7r7r8r9rBrBrMb?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?b?",
            Rules::CLASSIC,
        )
        .expect("position");
        assert!(actions_to(&pos, at("b3"), Colour::Blue, MAX_LIMIT).iter().all(|&d| d == FAR));
        // The empty camp d3 may be entered.
        assert_eq!(actions_to(&pos, at("d3"), Colour::Blue, MAX_LIMIT)[at("b4").index()], 2);
    }
}

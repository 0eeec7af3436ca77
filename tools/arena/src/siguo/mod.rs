//! Four-player matches (四国军棋, RULES-4P.md): `arena --variant siguo` or
//! `siguo-open`. Two teams play each game, team SN (South and North)
//! against team EW (East and West); every seat is played by its own
//! engine process, told only what its seat may see by the library's
//! [`luzhanqi::siguo::SiguoReferee`].
//!
//! - [`game`]: one game: deployments, `position` + `go` to the seat to
//!   move, the clocks, the end;
//! - [`record`]: the four-player form of the `.ljr` records;
//! - [`replay`]: re-judging them, and what a seat was told;
//! - [`runner`]: a match of game pairs (the teams swap seats within a
//!   pair), its statistics and summary, `--resume` and `--shard`.
//!
//! Who sits where: a match has two engines (one a team: each plays both
//! seats of its team, one process a seat) or four (the first two are
//! partners, team A; the last two team B). They run in four *slots*, one
//! process each: slots 0 and 1 are team A's partners, 2 and 3 team B's.
//! In the first game of a pair team A sits at S and N, in the second at E
//! and W; in pairs of even number (2, 4, ...) the partners of each team
//! also exchange their seats ([`lineup`]).

pub mod game;
pub mod record;
pub mod replay;
pub mod runner;

use luzhanqi::engine::options::SiguoVariant;
use luzhanqi::siguo::{Seat, Team};

use crate::engine::EngineSpec;

/// One of the four engine processes of a worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// How to start it; its `name` is the process's name in logs
    /// (`greedy#1` and `greedy#2` for the two processes of an engine that
    /// plays both seats of its team).
    pub spec: EngineSpec,
    /// The engine's name in records and summaries.
    pub engine: String,
}

/// The four slots of a match of `engines` (two or four, see the module
/// documentation).
///
/// # Errors
/// A message for another number of engines.
pub fn slots(engines: &[EngineSpec]) -> Result<[Slot; 4], String> {
    match engines {
        [a, b] => Ok([(a, 1), (a, 2), (b, 1), (b, 2)].map(|(e, k)| Slot {
            spec: EngineSpec { name: format!("{}#{k}", e.name), ..e.clone() },
            engine: e.name.clone(),
        })),
        [_, _, _, _] => Ok(std::array::from_fn(|i| Slot { spec: engines[i].clone(), engine: engines[i].name.clone() })),
        _ => Err(format!(
            "a four-player match takes two engines (a team each) or four (two partners a team), not {}",
            engines.len()
        )),
    }
}

/// The team (0: team A, the first engine's; 1: team B) of slot `slot`.
pub const fn team_of_slot(slot: usize) -> usize {
    slot / 2
}

/// The slot playing each seat (by seat index) in game `k` (0 or 1) of
/// pair `pair` (from 0): team A at S and N in the first game, at E and W
/// in the second; the partners of each team exchange their seats in every
/// other pair (`pair` odd), so that over the match each engine of a team
/// of two distinct engines moves first as often.
pub fn lineup(pair: u64, k: usize) -> [usize; 4] {
    let (a, b) = if pair.is_multiple_of(2) { ([0, 1], [2, 3]) } else { ([1, 0], [3, 2]) };
    // Seats in index order: S, E, N, W.
    if k == 0 { [a[0], b[0], a[1], b[1]] } else { [b[0], a[0], b[1], a[1]] }
}

/// The seat team A holds in a game of `lineup`: SN or EW.
pub fn team_a_seats(lineup: &[usize; 4]) -> Team {
    if team_of_slot(lineup[Seat::South.index()]) == 0 { Team::SouthNorth } else { Team::EastWest }
}

/// The seed of `seat` in a game of pair seed `seed`: the same seat gets
/// the same seed in both games of a pair, whoever sits there, so that
/// engines that deploy alike give it the same army in both.
pub fn seat_seed(seed: u64, seat: Seat) -> u64 {
    crate::runner::pair_seed(seed, seat.index() as u64)
}

/// Reads a four-player variant's name.
pub fn variant_named(name: &str) -> Option<SiguoVariant> {
    SiguoVariant::ALL.into_iter().find(|v| v.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn teams_swap_within_a_pair_and_partners_across_pairs() {
        assert_eq!(lineup(0, 0), [0, 2, 1, 3]);
        assert_eq!(lineup(0, 1), [2, 0, 3, 1]);
        assert_eq!(lineup(1, 0), [1, 3, 0, 2]);
        assert_eq!(lineup(1, 1), [3, 1, 2, 0]);
        for pair in 0..4 {
            for k in 0..2 {
                let l = lineup(pair, k);
                let mut sorted = l;
                sorted.sort_unstable();
                assert_eq!(sorted, [0, 1, 2, 3]);
                // Partners sit opposite.
                assert_eq!(team_of_slot(l[0]), team_of_slot(l[2]));
                assert_eq!(team_of_slot(l[1]), team_of_slot(l[3]));
                let a = if k == 0 { Team::SouthNorth } else { Team::EastWest };
                assert_eq!(team_a_seats(&l), a);
            }
        }
    }

    #[test]
    fn two_engines_run_in_two_slots_each() {
        let e = |n: &str| EngineSpec { name: n.into(), cmd: "x".into(), ..EngineSpec::default() };
        let s = slots(&[e("a"), e("b")]).unwrap();
        assert_eq!(s.each_ref().map(|s| s.spec.name.as_str()), ["a#1", "a#2", "b#1", "b#2"]);
        assert_eq!(s.each_ref().map(|s| s.engine.as_str()), ["a", "a", "b", "b"]);
        let s = slots(&[e("a"), e("b"), e("c"), e("d")]).unwrap();
        assert_eq!(s.each_ref().map(|s| s.spec.name.as_str()), ["a", "b", "c", "d"]);
        assert!(slots(&[e("a"), e("b"), e("c")]).unwrap_err().contains("two engines"));
        assert_ne!(seat_seed(5, Seat::South), seat_seed(5, Seat::East));
        assert_eq!(seat_seed(5, Seat::North), seat_seed(5, Seat::North));
    }
}

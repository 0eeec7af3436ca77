//! What an attack is worth on the four-player board: the material its
//! outcomes win and lose (the two-player value table,
//! [`crate::exchange::VALUES`], with a captured flag worth a seat), averaged
//! over what a piece of unknown kind may be: a kind its army still has
//! unshown ([`super::belief::unshown_pool`]), a flag only on its own
//! headquarters, a landmine only on its own last two ranks, and for an
//! attacker a piece that moves. Shared by the search's priors and the
//! four-player `greedy` player.

use super::belief::unshown_pool;
use super::position::{Position, siguo_combat};
use super::topology::{Point, Region, Seat};
use crate::combat::Outcome;
use crate::exchange::VALUES;
use crate::piece::{Kind, NUM_KINDS};

/// What capturing a flag wins: one seat of four out, with its army.
pub const FLAG_VALUE: f32 = 4000.0;

/// The value of a kind in the four-player game.
#[inline]
pub fn value(k: Kind) -> f32 {
    if k == Kind::Flag { FLAG_VALUE } else { VALUES[k.index()] }
}

/// Each seat's kinds not shown on the board of a view, and the outcome of
/// every pair of kinds under the view's rules (with the defender's
/// landmines left and cleared).
#[derive(Clone, Copy, Debug)]
pub struct Pools {
    pools: [[u8; NUM_KINDS]; 4],
    outcomes: [[[Outcome; NUM_KINDS]; NUM_KINDS]; 2],
}

impl Pools {
    /// The pools of `view`.
    pub fn of(view: &Position) -> Pools {
        let rules = view.rules();
        let outcomes =
            [false, true].map(|cleared| Kind::ALL.map(|a| Kind::ALL.map(|d| siguo_combat(rules, a, d, cleared))));
        Pools { pools: Seat::ALL.map(|s| unshown_pool(view, s)), outcomes }
    }

    /// The kinds the piece of `seat` on `p` may be, weighted (a known kind:
    /// that kind alone); `attacker`: it moves.
    fn weights(&self, pos: &Position, p: Point, attacker: bool) -> [f32; NUM_KINDS] {
        let mut w = [0.0; NUM_KINDS];
        let Some(pc) = pos.cell(p) else { return w };
        if let Some(k) = pc.kind {
            w[k.index()] = 1.0;
            return w;
        }
        let own_arm = p.region() == Region::Arm(pc.seat);
        let hq = own_arm && p.rank() == 1 && (p.file() == 1 || p.file() == 3);
        for k in Kind::ALL {
            let possible = match k {
                Kind::Flag => !attacker && hq,
                Kind::Mine => !attacker && own_arm && p.rank() <= 2,
                _ => true,
            };
            if possible {
                w[k.index()] = f32::from(self.pools[pc.seat.index()][k.index()]);
            }
        }
        let total: f32 = w.iter().sum();
        if total > 0.0 {
            w.iter_mut().for_each(|x| *x /= total);
        }
        w
    }
}

/// What an attack may bring: the chance of each outcome and the material
/// each wins for the attacker's team, weighted by its chance (indexed by
/// `Outcome as usize`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Forecast {
    /// The chance of each outcome.
    pub prob: [f32; 3],
    /// The material each outcome wins, times its chance.
    pub weighted_gain: [f32; 3],
}

impl Forecast {
    /// The material the attack wins on average.
    pub fn expected_gain(&self) -> f32 {
        self.weighted_gain.iter().sum()
    }
}

/// The forecast of the attack `from` → `to` in `pos`.
pub fn forecast(pos: &Position, pools: &Pools, from: Point, to: Point) -> Forecast {
    let mut f = Forecast::default();
    let (Some(_), Some(d)) = (pos.cell(from), pos.cell(to)) else {
        return f;
    };
    let table = &pools.outcomes[usize::from(pos.mines_cleared(d.seat))];
    let wa = pools.weights(pos, from, true);
    let wd = pools.weights(pos, to, false);
    for a in Kind::ALL.into_iter().filter(|a| wa[a.index()] > 0.0) {
        for k in Kind::ALL.into_iter().filter(|k| wd[k.index()] > 0.0) {
            let p = wa[a.index()] * wd[k.index()];
            let o = table[a.index()][k.index()];
            f.prob[o as usize] += p;
            f.weighted_gain[o as usize] += p * match o {
                Outcome::AttackerWins => value(k),
                Outcome::DefenderWins => -value(a),
                Outcome::BothRemoved => value(k) - value(a),
            };
        }
    }
    f
}

/// The material the attack `from` → `to` wins for the attacker's team on
/// average.
pub fn expected_gain(pos: &Position, pools: &Pools, from: Point, to: Point) -> f32 {
    forecast(pos, pools, from, to).expected_gain()
}

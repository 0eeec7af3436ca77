//! Static exchange knowledge shared by the players and the search: the
//! piece-value table, what a piece of unknown kind may be, and the expected
//! material gain of an attack.

use crate::board::Point;
use crate::board::topology::{BACK_TWO_RANKS, OWN_HQS};
use crate::combat::{Outcome, combat};
use crate::piece::{ARMY, Colour, Kind, NUM_KINDS};
use crate::position::Position;
use crate::rules::Mode;

/// What capturing a flag is worth: the game.
pub const WIN: f32 = 10_000.0;

/// Material value of each kind, in centipawn-like units (documented in
/// `protocol.md`). The flag's value is [`WIN`].
pub const VALUES: [f32; NUM_KINDS] = [
    150.0,  // Engineer: clears mines, the only flag-taker in flip, turns on railways
    80.0,   // Lieutenant
    120.0,  // Captain
    180.0,  // Major
    250.0,  // Colonel
    350.0,  // Brigadier
    500.0,  // Major general
    750.0,  // General
    1000.0, // Marshal
    450.0,  // Bomb: trades itself for anything
    200.0,  // Landmine
    WIN,    // Flag
];

/// The value of a kind.
#[inline]
pub fn value(k: Kind) -> f32 {
    VALUES[k.index()]
}

/// For each side, how many pieces of each kind are not yet accounted for:
/// the army minus the pieces named on the board and named removed (what a
/// piece of unknown kind may be, before its point and history narrow it).
/// Computed once per position where many pieces are looked up.
#[derive(Clone, Copy, Debug)]
pub struct Unaccounted([[f32; NUM_KINDS]; 2]);

impl Unaccounted {
    /// The counts of `pos`.
    pub fn of(pos: &Position) -> Unaccounted {
        Unaccounted([unaccounted(pos, Colour::Red), unaccounted(pos, Colour::Blue)])
    }
}

fn unaccounted(pos: &Position, c: Colour) -> [f32; NUM_KINDS] {
    let mut w = [0.0f32; NUM_KINDS];
    for k in Kind::ALL {
        let named = pos.pieces_of(c, Some(k)).count() as i32 + i32::from(pos.removed_count(c, Some(k)));
        w[k.index()] = (i32::from(ARMY[k.index()]) - named).max(0) as f32;
    }
    w
}

/// Probabilities of each kind for the piece at `at`, as the position's
/// observer knows it: one for a known piece; for a piece of unknown kind,
/// proportional to the pieces of its side not yet accounted for (army minus
/// named on the board minus named removed), excluding the flag off its
/// side's HQs and landmines off its side's last two ranks in `classic`
/// (neither ever moves), and both when `moved` is set.
pub fn kind_distribution(pos: &Position, at: Point, moved: bool) -> [f32; NUM_KINDS] {
    distribution_with(pos, at, moved, None)
}

/// [`kind_distribution`], with the counts of `pos` already computed.
fn distribution_with(pos: &Position, at: Point, moved: bool, counts: Option<&Unaccounted>) -> [f32; NUM_KINDS] {
    let mut w = [0.0f32; NUM_KINDS];
    let Some(pc) = pos.cell(at).piece() else {
        return w;
    };
    if let Some(k) = pc.kind {
        w[k.index()] = 1.0;
        return w;
    }
    let c = pc.colour;
    let ci = c.index();
    w = counts.map_or_else(|| unaccounted(pos, c), |u| u.0[ci]);
    let fixed_rules = pos.rules().mode != Mode::Flip;
    if moved || (fixed_rules && !OWN_HQS[ci].contains(at)) {
        w[Kind::Flag.index()] = 0.0;
    }
    if moved || (fixed_rules && !BACK_TWO_RANKS[ci].contains(at)) {
        w[Kind::Mine.index()] = 0.0;
    }
    let total: f32 = w.iter().sum();
    if total > 0.0 {
        w.iter_mut().for_each(|x| *x /= total);
    }
    w
}

/// Material gain for the attacker's side when `att` attacks `def`.
#[inline]
pub fn exchange_gain(pos: &Position, att: Kind, def: Kind, defender: Colour) -> f32 {
    outcome_gain(combat(pos.rules(), att, def, pos.mines_cleared(defender)), att, def)
}

/// Material gain for the attacker's side of `outcome` when `att` attacked `def`.
#[inline]
fn outcome_gain(outcome: Outcome, att: Kind, def: Kind) -> f32 {
    match outcome {
        Outcome::AttackerWins => value(def),
        Outcome::DefenderWins => -value(att),
        Outcome::BothRemoved => value(def) - value(att),
    }
}

/// What an attack may lead to, seen by an observer who may not know both
/// pieces: for each outcome (indexed by `Outcome as usize`) its probability
/// and the probability-weighted material gain of the attacker's side.
#[derive(Clone, Copy, Debug, Default)]
pub struct AttackForecast {
    /// Probability of each outcome.
    pub prob: [f32; 3],
    /// Sum over the cases leading to each outcome of probability times gain.
    pub weighted_gain: [f32; 3],
}

impl AttackForecast {
    /// The expected gain over all outcomes.
    pub fn expected_gain(&self) -> f32 {
        self.weighted_gain.iter().sum()
    }
}

/// Forecasts the attack `from`x`to`, averaging over what the observer does
/// not know of either piece (an attacker of unknown kind is one that moves).
pub fn forecast_attack(pos: &Position, from: Point, to: Point) -> AttackForecast {
    forecast_with(pos, from, to, None)
}

/// [`forecast_attack`], with the counts of `pos` already computed (the same
/// result, faster where a position has many pieces of unknown kind).
pub fn forecast_with(pos: &Position, from: Point, to: Point, counts: Option<&Unaccounted>) -> AttackForecast {
    let mut f = AttackForecast::default();
    let Some(def) = pos.cell(to).piece() else {
        return f;
    };
    let (rules, cleared) = (pos.rules(), pos.mines_cleared(def.colour));
    if let (Some(a), Some(d)) = (pos.kind_at(from), def.kind) {
        // Both kinds known (a sampled world): one exchange.
        let o = combat(rules, a, d, cleared);
        f.prob[o as usize] = 1.0;
        f.weighted_gain[o as usize] = outcome_gain(o, a, d);
        return f;
    }
    let pa = distribution_with(pos, from, true, counts);
    let pd = distribution_with(pos, to, false, counts);
    // The defender's possible kinds once, in order (often one: our piece).
    let mut defenders = [(Kind::Flag, 0.0f32); NUM_KINDS];
    let mut n = 0;
    for d in Kind::ALL {
        let wd = pd[d.index()];
        if wd != 0.0 {
            defenders[n] = (d, wd);
            n += 1;
        }
    }
    for a in Kind::ALL {
        let wa = pa[a.index()];
        if wa == 0.0 {
            continue;
        }
        for &(d, wd) in &defenders[..n] {
            let p = wa * wd;
            let o = combat(rules, a, d, cleared);
            f.prob[o as usize] += p;
            f.weighted_gain[o as usize] += p * outcome_gain(o, a, d);
        }
    }
    f
}

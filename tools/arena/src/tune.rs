//! `arena tune`: fits the weights of the engine's static evaluation to game
//! results, Texel's method. Every `every`-th position of the records, as
//! the referee knew it (the truth: what a sampled world of the search
//! looks like), gives the evaluation's terms for the side to move
//! (`luzhanqi::search::evaluate::sample`) and that side's result (1, 1/2,
//! 0). The model is the evaluation itself: the expected score
//! `scale * tanh(w . terms / SCALE) + shift`, read as the probability
//! `(1 + score) / 2` of winning; the weights minimise the mean log-loss of
//! the results (gradient descent, Adam) on the training games. Every
//! `holdout`-th pair of games is held out and scored, before and after.

use luzhanqi::search::evaluate::{SCALE, Sample, TERMS, sample};

use crate::record::{GameRecord, Termination};
use crate::referee::action_of;
use crate::replay::{rules_of, start};

/// Weights, one per term of the evaluation.
pub type Weights = [f64; TERMS.len()];

/// One scored position.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// The evaluation's view of it.
    pub sample: Sample,
    /// The side to move's result: 1 won, 0.5 drawn, 0 lost.
    pub result: f64,
    /// Held out of the fit.
    pub held_out: bool,
}

/// The positions of `records` ending by the rules (a flag, no action, the
/// quiet limit) or drawn at the arena's length limit, every `every`-th
/// ply; the games of every `holdout`-th pair held out (0: none).
///
/// # Errors
/// A record that does not replay.
pub fn rows(records: &[GameRecord], every: usize, holdout: u64) -> Result<Vec<Row>, String> {
    let mut out = Vec::new();
    for rec in records {
        if !(rec.termination.by_rules() || rec.termination == Termination::MaxPlies) {
            continue;
        }
        let rules = rules_of(rec.variant, &rec.toggles).map_err(|e| e.to_string())?;
        let Ok(mut referee) = start(rec, rules)? else { continue };
        let held_out = held_out(rec, holdout);
        for (i, p) in rec.plies.iter().enumerate() {
            if i % every.max(1) == 0 {
                let truth = referee.truth();
                if let (Some(mover), Some(s)) = (truth.side_to_move(), sample(truth)) {
                    let result = match rec.winner {
                        None => 0.5,
                        Some(w) if w == mover => 1.0,
                        Some(_) => 0.0,
                    };
                    out.push(Row { sample: s, result, held_out });
                }
            }
            referee.play(action_of(p.token)).map_err(|e| format!("game {}: {e}", rec.game))?;
        }
    }
    Ok(out)
}

/// Whether `rec` is held out of the fit: its pair is a multiple of
/// `holdout` (0: nothing is held out).
pub fn held_out(rec: &GameRecord, holdout: u64) -> bool {
    holdout > 0 && rec.pair.is_multiple_of(holdout)
}

/// The model's probability that the side to move wins, and its derivative
/// by the weighted sum of the terms.
fn predict(w: &Weights, s: &Sample) -> (f64, f64) {
    let scale = f64::from(SCALE);
    let cp: f64 = w.iter().zip(&s.terms).map(|(w, t)| w * f64::from(*t)).sum();
    let th = (cp / scale).tanh();
    let p = 0.5 * (1.0 + f64::from(s.scale) * th + f64::from(s.shift));
    (p, 0.5 * f64::from(s.scale) * (1.0 - th * th) / scale)
}

/// Probabilities are kept this far from 0 and 1 in the log-loss.
const EPS: f64 = 1e-6;

/// Mean log-loss (natural log) and mean squared error of `w` over the rows
/// that `pick` selects, and how many there were.
pub fn loss(w: &Weights, rows: &[Row], pick: impl Fn(&Row) -> bool) -> (f64, f64, usize) {
    let (mut ll, mut se, mut n) = (0.0, 0.0, 0);
    for r in rows.iter().filter(|r| pick(r)) {
        let p = predict(w, &r.sample).0.clamp(EPS, 1.0 - EPS);
        ll -= r.result * p.ln() + (1.0 - r.result) * (1.0 - p).ln();
        se += (p - r.result).powi(2);
        n += 1;
    }
    let d = n.max(1) as f64;
    (ll / d, se / d, n)
}

/// Steps of gradient descent and Adam's settings.
const STEPS: usize = 3000;
const RATE: f64 = 0.01;
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;

/// The weights that minimise the mean log-loss over the training rows,
/// from `start`; only the terms `free` marks move.
pub fn fit(start: &Weights, free: &[bool; TERMS.len()], rows: &[Row]) -> Weights {
    let train: Vec<&Row> = rows.iter().filter(|r| !r.held_out).collect();
    let n = train.len().max(1) as f64;
    let mut w = *start;
    let (mut m, mut v) = ([0.0; TERMS.len()], [0.0; TERMS.len()]);
    for step in 1..=STEPS {
        let mut g = [0.0; TERMS.len()];
        for r in &train {
            let (p, dp) = predict(&w, &r.sample);
            let p = p.clamp(EPS, 1.0 - EPS);
            // d(log-loss)/dp, then through the sum of the terms.
            let dl = (p - r.result) / (p * (1.0 - p)) * dp;
            for (g, t) in g.iter_mut().zip(&r.sample.terms) {
                *g += dl * f64::from(*t) / n;
            }
        }
        for i in 0..TERMS.len() {
            if !free[i] {
                continue;
            }
            m[i] = BETA1 * m[i] + (1.0 - BETA1) * g[i];
            v[i] = BETA2 * v[i] + (1.0 - BETA2) * g[i] * g[i];
            let mh = m[i] / (1.0 - BETA1.powi(step as i32));
            let vh = v[i] / (1.0 - BETA2.powi(step as i32));
            w[i] -= RATE * mh / (vh.sqrt() + 1e-12);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(material: f32, result: f64) -> Row {
        let mut terms = [0.0; TERMS.len()];
        terms[0] = material;
        Row { sample: Sample { terms, scale: 1.0, shift: 0.0 }, result, held_out: false }
    }

    #[test]
    fn the_fit_recovers_the_weight_that_made_the_results() {
        // Results drawn from the model with material weight 2: the fit,
        // started at 1, moves there and lowers the loss.
        let truth: Weights = [2.0, 1.0, 1.0, 0.0, 1.0, 0.6, 0.25];
        let mut rows = Vec::new();
        let mut state = 12345u64;
        for i in 0..4000 {
            let m = ((i % 81) as f32 - 40.0) * 25.0;
            let p = predict(&truth, &row(m, 0.0).sample).0;
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let u = (state >> 11) as f64 / (1u64 << 53) as f64;
            rows.push(row(m, if u < p { 1.0 } else { 0.0 }));
        }
        let start: Weights = [1.0, 1.0, 1.0, 0.0, 1.0, 0.6, 0.25];
        let mut free = [false; TERMS.len()];
        free[0] = true;
        let w = fit(&start, &free, &rows);
        assert!((w[0] - 2.0).abs() < 0.25, "{w:?}");
        assert_eq!(w[1..], start[1..]);
        assert!(loss(&w, &rows, |_| true).0 < loss(&start, &rows, |_| true).0);
    }
}

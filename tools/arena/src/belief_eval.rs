//! `arena belief`: how good an engine's belief about hidden enemy pieces
//! would have been over recorded `classic` games. At every ply where the
//! side under study was to move, the belief rebuilt from exactly what that
//! side was told (the library's `Belief::from_history`, the engine's own
//! inference) gives each enemy piece on the board a probability per kind,
//! estimated from sampled worlds; the truth of the record says which kind
//! it was. Reported: the mean log-loss (natural log, probabilities floored
//! at 1/1000) and how often the most likely kind is right, against the
//! uniform-by-counts belief (only what the counts prove).

use luzhanqi::Colour;
use luzhanqi::belief::{Belief, marginals};
use luzhanqi::bench::rng;
use luzhanqi::protocol::PositionStart;

use crate::record::GameRecord;
use crate::referee::action_of;
use crate::replay::{rules_of, start};

/// Worlds sampled per belief estimate.
pub const SAMPLES: usize = 400;

/// Scores of one belief model.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    /// Sum of −ln p(true kind).
    pub logloss: f64,
    /// How often the most likely kind was the true one.
    pub top1: u64,
}

/// The comparison over all scored (piece, moment) pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BeliefReport {
    /// Pairs scored.
    pub n: u64,
    /// Moments (plies) scored.
    pub moments: u64,
    /// With inference.
    pub inference: Score,
    /// Counts only.
    pub uniform: Score,
}

fn score(report: &mut Score, probs: &[f32; 12], truth: luzhanqi::Kind) {
    let p = f64::from(probs[truth.index()]).max(1e-3);
    report.logloss += -p.ln();
    let best = (0..12).max_by(|&a, &b| probs[a].total_cmp(&probs[b])).unwrap_or(0);
    if best == truth.index() {
        report.top1 += 1;
    }
}

/// Scores the belief of the side played by `engine` (a name in the
/// records; `None`: both sides) over `records`, every `every`-th of its moves.
///
/// # Errors
/// A record that does not replay.
pub fn evaluate(records: &[GameRecord], engine: Option<&str>, every: usize) -> Result<BeliefReport, String> {
    let mut rep = BeliefReport::default();
    let mut r = rng(1);
    for rec in records {
        let rules = rules_of(rec.variant, &rec.toggles)?;
        if rules.mode != luzhanqi::Mode::Classic {
            continue;
        }
        let Ok(mut referee) = start(rec, rules)? else { continue };
        let studied: Vec<Colour> =
            Colour::BOTH.into_iter().filter(|&c| engine.is_none_or(|name| rec.name(c) == name)).collect();
        let mut turn = [0usize; 2];
        for p in &rec.plies {
            let mover = p.colour;
            if studied.contains(&mover) {
                turn[mover.index()] += 1;
                if (turn[mover.index()] - 1) % every.max(1) == 0 {
                    let base = match referee.start_for(mover) {
                        PositionStart::Fen(setup) => {
                            luzhanqi::Position::from_setup(setup, rules).map_err(|e| e.to_string())?
                        }
                        PositionStart::StartPos => continue,
                    };
                    let (belief, view) =
                        Belief::from_history(&base, mover, referee.told(mover)).map_err(|e| e.to_string())?;
                    let uniform = Belief::uniform(&view, mover);
                    let with = marginals(&belief, None, SAMPLES, &mut r);
                    let without = marginals(&uniform, None, SAMPLES, &mut r);
                    for ((at, pw), (_, pu)) in with.iter().zip(&without) {
                        let Some(truth) = referee.truth().kind_at(*at) else { continue };
                        score(&mut rep.inference, pw, truth);
                        score(&mut rep.uniform, pu, truth);
                        rep.n += 1;
                    }
                    rep.moments += 1;
                }
            }
            referee.play(action_of(p.token)).map_err(|e| format!("game {}: {e}", rec.game))?;
        }
    }
    Ok(rep)
}

impl BeliefReport {
    /// The report as text.
    pub fn text(&self) -> String {
        let n = self.n.max(1) as f64;
        format!(
            "belief over {} enemy pieces at {} moves:\n  inference: log-loss {:.3}, most likely kind right {:.1}%\n  counts only: log-loss {:.3}, most likely kind right {:.1}%",
            self.n,
            self.moments,
            self.inference.logloss / n,
            100.0 * self.inference.top1 as f64 / n,
            self.uniform.logloss / n,
            100.0 * self.uniform.top1 as f64 / n
        )
    }
}

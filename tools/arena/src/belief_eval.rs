//! `arena belief`: how good an engine's belief about hidden enemy pieces
//! would have been over recorded `classic` games. At every ply where the
//! side under study was to move, the belief rebuilt from exactly what that
//! side was told (the library's `Belief::from_history`, the engine's own
//! inference) gives each enemy piece on the board a probability per kind,
//! estimated from sampled worlds; the truth of the record says which kind
//! it was. Reported: the mean log-loss (natural log, probabilities floored
//! at 1/1000) and how often the most likely kind is right, for three
//! beliefs: the hard facts with the soft evidence (the engine's), the hard
//! facts alone, and the uniform-by-counts belief (only what the counts
//! prove).
//!
//! `arena evidence` walks the records the same way and counts what the soft
//! evidence model needs (`luzhanqi::belief::evidence`).

use luzhanqi::Colour;
use luzhanqi::belief::evidence::{EvidenceCounts, EvidenceModel};
use luzhanqi::belief::{Belief, marginals};
use luzhanqi::protocol::PositionStart;
use luzhanqi::random::rng;

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
    /// Hard facts and soft evidence.
    pub evidence: Score,
    /// Hard facts only.
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

/// One moment of a recorded game: the side to move's belief, rebuilt from
/// what it was told, its view, and the truth.
pub struct Moment<'a> {
    /// The side to move's start (its own pieces named, the enemy's hidden).
    pub base: &'a luzhanqi::Position,
    /// What it was told since.
    pub told: &'a [luzhanqi::Token],
    /// The belief of the side to move.
    pub belief: &'a Belief,
    /// What it saw.
    pub view: &'a luzhanqi::Position,
    /// The truth.
    pub truth: &'a luzhanqi::Position,
}

/// Calls `visit` at every `every`-th move of the side played by `engine`
/// (`None`: both sides) in the `classic` records, and `deployed` with the
/// true start of every game.
///
/// # Errors
/// A record that does not replay.
pub fn walk(
    records: &[GameRecord],
    engine: Option<&str>,
    every: usize,
    deployed: &mut dyn FnMut(&luzhanqi::Position),
    visit: &mut dyn FnMut(&Moment<'_>),
) -> Result<(), String> {
    for rec in records {
        let rules = rules_of(rec.variant, &rec.toggles).map_err(|e| e.to_string())?;
        if rules.mode != luzhanqi::Mode::Classic {
            continue;
        }
        let Ok(mut referee) = start(rec, rules)? else { continue };
        deployed(referee.truth());
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
                    let told = referee.told(mover);
                    let (belief, view) = Belief::from_history(&base, mover, told).map_err(|e| e.to_string())?;
                    visit(&Moment { base: &base, told, belief: &belief, view: &view, truth: referee.truth() });
                }
            }
            referee.play(action_of(p.token)).map_err(|e| format!("game {}: {e}", rec.game))?;
        }
    }
    Ok(())
}

/// Scores the belief of the side played by `engine` (a name in the
/// records; `None`: both sides) over `records`, every `every`-th of its
/// moves, the soft evidence by `model`.
///
/// # Errors
/// A record that does not replay.
pub fn evaluate(
    records: &[GameRecord],
    engine: Option<&str>,
    every: usize,
    model: &EvidenceModel,
) -> Result<BeliefReport, String> {
    let mut rep = BeliefReport::default();
    let mut r = rng(1);
    walk(records, engine, every, &mut |_| {}, &mut |m| {
        let uniform = Belief::uniform(m.view, m.belief.viewer);
        let weights = model.weights(m.belief, m.view.ply());
        let with = marginals(m.belief, Some(weights), SAMPLES, &mut r);
        let facts = marginals(m.belief, None, SAMPLES, &mut r);
        let without = marginals(&uniform, None, SAMPLES, &mut r);
        for (((at, pe), (_, pf)), (_, pu)) in with.iter().zip(&facts).zip(&without) {
            let Some(truth) = m.truth.kind_at(*at) else { continue };
            score(&mut rep.evidence, pe, truth);
            score(&mut rep.inference, pf, truth);
            score(&mut rep.uniform, pu, truth);
            rep.n += 1;
        }
        rep.moments += 1;
    })?;
    Ok(rep)
}

/// Counts the soft evidence in `records`: both sides' deployments, and the
/// behaviour of the enemy pieces at every `every`-th move of each side.
///
/// # Errors
/// A record that does not replay.
pub fn count_evidence(records: &[GameRecord], every: usize) -> Result<EvidenceCounts, String> {
    let counts = std::cell::RefCell::new(EvidenceCounts::default());
    walk(
        records,
        None,
        every,
        &mut |truth| {
            for c in Colour::BOTH {
                let pieces = truth.pieces(c).into_iter().filter_map(|p| truth.kind_at(p).map(|k| (p, k)));
                counts.borrow_mut().add_deployment(c, pieces);
            }
        },
        &mut |m| {
            counts
                .borrow_mut()
                .add_moment(m.belief, m.view.ply(), |i| m.belief.pieces[i].at.and_then(|p| m.truth.kind_at(p)));
        },
    )?;
    Ok(counts.into_inner())
}

impl BeliefReport {
    /// The report as text.
    pub fn text(&self) -> String {
        let n = self.n.max(1) as f64;
        let line = |name: &str, s: &Score| {
            format!(
                "\n  {name}: log-loss {:.3}, most likely kind right {:.1}%",
                s.logloss / n,
                100.0 * s.top1 as f64 / n
            )
        };
        format!(
            "belief over {} enemy pieces at {} moves:{}{}{}",
            self.n,
            self.moments,
            line("facts and soft evidence", &self.evidence),
            line("facts only", &self.inference),
            line("counts only", &self.uniform)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::tests::random_record;
    use luzhanqi::Kind;
    use luzhanqi::belief::evidence::cell_of;

    #[test]
    fn evidence_counts_every_deployed_piece_and_every_moment() {
        let records: Vec<GameRecord> = (0..4).map(|s| random_record(luzhanqi::Variant::Classic, s, 120)).collect();
        let counts = count_evidence(&records, 1).unwrap();
        let deployed: u32 = counts.start.iter().flatten().sum();
        assert_eq!(deployed, 4 * 2 * 25);
        // Flags start on a headquarters: rank 1, file b or d, seen from their side.
        let hq = cell_of(luzhanqi::notation::parse_point("b1").unwrap(), Colour::Red);
        let flags: u32 = counts.start.iter().map(|row| row[Kind::Flag.index()]).sum();
        assert_eq!((flags, counts.start[hq][Kind::Flag.index()]), (8, 8));
        let moments: u32 = counts.behaviour.iter().flatten().flatten().sum();
        assert!(moments > 4 * 100 * 10, "{moments}");
    }

    #[test]
    fn worlds_sampled_with_soft_evidence_explain_the_referees_histories() {
        use luzhanqi::belief::sampler::WorldSampler;
        let records: Vec<GameRecord> = (0..6).map(|s| random_record(luzhanqi::Variant::Classic, 40 + s, 250)).collect();
        let model = EvidenceModel::shipped();
        let mut r = rng(3);
        let mut checked = 0;
        walk(&records, None, 9, &mut |_| {}, &mut |m| {
            let enemy = m.belief.viewer.opposite();
            let weights = model.weights(m.belief, m.view.ply());
            let mut sampler = WorldSampler::new(m.belief, Some(weights), &mut r).expect("a consistent world");
            for _ in 0..5 {
                let assign = sampler.next(&mut r).to_vec();
                let mut world = m.base.clone();
                for (e, k) in m.belief.pieces.iter().zip(&assign) {
                    world.reveal(e.start.expect("history from ply 0"), luzhanqi::Piece::new(enemy, *k));
                }
                luzhanqi::belief::explains(&world, m.told).unwrap_or_else(|e| panic!("ply {}: {e}", m.view.ply()));
                checked += 1;
            }
        })
        .unwrap();
        assert!(checked > 300, "{checked}");
    }

    #[test]
    fn the_facts_beat_the_counts_on_random_games() {
        let records: Vec<GameRecord> = (0..3).map(|s| random_record(luzhanqi::Variant::Classic, s, 200)).collect();
        let model = count_evidence(&records, 1).unwrap().model(0.2, 0.2);
        let rep = evaluate(&records, None, 10, &model).unwrap();
        assert!(rep.n > 100 && rep.moments > 10);
        assert!(rep.inference.logloss < rep.uniform.logloss, "{}", rep.text());
    }
}

//! The flat Monte Carlo player (`Player flat`), a baseline without a tree:
//! the root's actions are sampled with UCB1, each sample valued by the same
//! leaf evaluation as the tree search (a flip's identity drawn from the
//! pool), under the same time and node limits.

use std::time::Instant;

use super::leaf::{LeafEval, for_red};
use super::time::{Limits, Stopper};
use super::tree::Proven;
use super::{Control, Event, Progress, Report, SearchConfig};
use crate::action::ActionKind;
use crate::position::View;
use crate::random::rng;

/// UCB1 exploration constant (values are in [-1, 1]).
const C: f32 = 1.0;

/// Iterations between two looks at the clock.
const CHECK_EVERY: u64 = 64;

/// What flat Monte Carlo is asked to search.
#[derive(Clone, Copy, Debug)]
pub struct Task<'a> {
    /// What the player knows.
    pub pos: &'a View,
    /// When to stop.
    pub limits: &'a Limits,
    /// The settings.
    pub cfg: &'a SearchConfig,
    /// The engine's flags.
    pub control: &'a Control,
}

/// Searches with flat Monte Carlo.
pub fn search(task: Task, report: &mut dyn FnMut(Event)) -> Report {
    let Task { pos, limits, cfg, control } = task;
    let pos = pos.position();
    let start = Instant::now();
    let params = cfg.params_for(pos);
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    let mut rng = rng(cfg.seed);
    let mut leaf = LeafEval::new(&params);
    let mut visits = vec![0u32; actions.len()];
    let mut sums = vec![0f32; actions.len()];
    let mut stopper = Stopper::new(limits, pos.side_to_move(), cfg.move_overhead, start);
    let mut total = 0u64;
    while !actions.is_empty() && !control.stopped() {
        let ln = (total.max(1) as f32).ln();
        let i = (0..actions.len())
            .max_by(|&a, &b| {
                let ucb = |k: usize| {
                    if visits[k] == 0 {
                        f32::INFINITY
                    } else {
                        sums[k] / visits[k] as f32 + C * (ln / visits[k] as f32).sqrt()
                    }
                };
                ucb(a).total_cmp(&ucb(b))
            })
            .unwrap_or(0);
        let a = actions[i];
        let mut child = pos.clone();
        let mover = pos.side_to_move();
        let shown = if a.kind() == ActionKind::Flip { child.sample_pool(&mut rng) } else { None };
        // Before the first flip the mover is whoever the flip makes it.
        let mover = mover.or(shown.map(|p| p.colour));
        child.play_known(a, shown);
        let (v, _) = leaf.value(&child, &mut rng);
        visits[i] += 1;
        sums[i] += for_red(v, mover);
        total += 1;
        if !stopper.bounded(control) {
            continue;
        }
        if actions.len() == 1
            || stopper.nodes.is_some_and(|n| total >= n)
            || (total % CHECK_EVERY == 0 && stopper.time_up(&visits))
        {
            break;
        }
    }
    super::hold(limits, control, &mut || {});
    let best = (0..actions.len())
        .filter(|&k| visits[k] > 0)
        .max_by(|&x, &y| (sums[x] / visits[x] as f32).total_cmp(&(sums[y] / visits[y] as f32)));
    let last = Progress {
        depth: 1,
        seldepth: 1,
        nodes: total,
        elapsed: start.elapsed(),
        q: best.map_or(0.0, |k| sums[k] / visits[k] as f32),
        proven: Proven::Unknown,
        hashfull: None,
        pv: best.map(|k| vec![actions[k]]).unwrap_or_default(),
        ..Progress::default()
    };
    report(Event::Progress(last.clone()));
    Report { best: best.map(|k| actions[k]).or(actions.first().copied()), ponder: None, last }
}

//! The flat Monte Carlo player (`Player flat`), a baseline without a tree:
//! the root's actions are sampled with UCB1, each sample valued by the same
//! leaf evaluation as the tree search (a flip's identity drawn from the
//! pool), under the same time and node limits.

use std::time::Instant;

use super::leaf::{LeafEval, for_red};
use super::time::Limits;
use super::{Control, SearchConfig, SearchResult, report_score, tree::Proven};
use crate::action::ActionKind;
use crate::position::Position;
use crate::protocol::{Go, Info, Response};
use crate::random::rng;

/// UCB1 exploration constant (values are in [-1, 1]).
const C: f32 = 1.0;

/// Searches `pos` with flat Monte Carlo, the clock started at `start`.
pub fn search(
    pos: &Position,
    go: &Go,
    cfg: &SearchConfig,
    playout_plies: u32,
    control: &Control,
    report: &mut dyn FnMut(Response),
    start: Instant,
) -> SearchResult {
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    let mut rng = rng(cfg.seed);
    let mut leaf = LeafEval::new(playout_plies);
    let mut visits = vec![0u32; actions.len()];
    let mut sums = vec![0f32; actions.len()];
    let mut limits = Limits::new(go, pos.side_to_move(), cfg.move_overhead, start);
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
        if !limits.bounded(control) {
            continue;
        }
        if actions.len() == 1
            || limits.nodes.is_some_and(|n| total >= n)
            || (total % 64 == 0 && limits.time_up(&visits))
        {
            break;
        }
    }
    super::wait_for_release(go, control, &Info::default(), &mut |_| {});
    let best = (0..actions.len())
        .filter(|&k| visits[k] > 0)
        .max_by(|&x, &y| (sums[x] / visits[x] as f32).total_cmp(&(sums[y] / visits[y] as f32)));
    let ms = start.elapsed().as_millis() as u64;
    let q = best.map_or(0.0, |k| sums[k] / visits[k] as f32);
    let info = Info {
        depth: Some(1),
        seldepth: Some(1),
        nodes: Some(total),
        nps: Some(total * 1000 / ms.max(1)),
        time: Some(ms),
        score: Some(report_score(q, Proven::Unknown)),
        hashfull: None,
        pv: best.map(|k| vec![actions[k]]).unwrap_or_default(),
    };
    report(Response::Info(info.clone()));
    SearchResult { best: best.map(|k| actions[k]).or(actions.first().copied()), ponder: None, info }
}

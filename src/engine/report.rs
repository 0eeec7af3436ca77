//! Between the protocol and the players: `go`'s limits as the search's
//! [`Limits`], and what the search and the one-shot players report as
//! protocol lines.

use std::time::Duration;

use crate::board::Point;
use crate::piece::{Kind, NUM_KINDS};
use crate::players::Choice;
use crate::protocol::{Belief, Go, Info, Response, Score};
use crate::search::{Event, Limits, Progress};

/// Centipawns at which a one-shot player's win/loss split is 73/27: the
/// logistic scale of [`wdl_from_cp`].
const CP_PER_LOGIT: f32 = 400.0;
/// One-shot scores are clamped to this many centipawns.
const CP_LIMIT: f32 = 10_000.0;

/// The search's limits from `go`.
pub fn limits_of(go: &Go) -> Limits {
    Limits {
        movetime: go.movetime,
        time: [go.rtime, go.btime],
        inc: [go.rinc, go.binc],
        movestogo: go.movestogo,
        nodes: go.nodes,
        depth: go.depth,
        best_visits: None,
        infinite: go.infinite,
        ponder: go.ponder,
    }
}

/// The `info` line of a search's progress.
pub fn info_of(p: &Progress) -> Info {
    Info {
        depth: Some(p.depth),
        seldepth: Some(p.seldepth),
        nodes: Some(p.nodes),
        nps: Some(p.nps()),
        time: Some(p.elapsed.as_millis() as u64),
        score: Some(Score { cp: p.centipawns(), wdl: Some(p.wdl()) }),
        hashfull: p.hashfull,
        pv: p.pv.clone(),
    }
}

/// The belief about the piece at `at` as the protocol gives it: the kinds
/// with a chance, most likely first.
pub fn belief_of(at: Point, p: &[f32; NUM_KINDS]) -> Belief {
    let mut kinds: Vec<(Kind, f64)> =
        Kind::ALL.into_iter().filter(|k| p[k.index()] > 0.0).map(|k| (k, f64::from(p[k.index()]))).collect();
    kinds.sort_by(|a, b| b.1.total_cmp(&a.1));
    Belief { at, kinds }
}

/// The protocol line of a search event.
pub fn response_of(event: &Event) -> Response {
    match event {
        Event::Progress(p) => Response::Info(info_of(p)),
        Event::Belief(at, p) => Response::Belief(belief_of(*at, p)),
    }
}

/// Maps a material-like evaluation (centipawns) to win/draw/loss per mille
/// for players without a game-result estimate.
pub fn wdl_from_cp(cp: f32) -> (u32, u32, u32) {
    let w = (1000.0 / (1.0 + (-cp / CP_PER_LOGIT).exp())).round() as u32;
    (w.min(1000), 0, 1000 - w.min(1000))
}

/// The `info` line of a one-shot player's choice.
pub fn one_shot_info(choice: Option<Choice>, elapsed: Duration) -> Info {
    let nodes = choice.map_or(0, |c| c.nodes);
    let ms = elapsed.as_millis() as u64;
    let cp = choice.map_or(0.0, |c| c.score).clamp(-CP_LIMIT, CP_LIMIT);
    Info {
        depth: Some(1),
        seldepth: Some(1),
        nodes: Some(nodes),
        nps: Some(nodes * 1000 / ms.max(1)),
        time: Some(ms),
        score: Some(Score { cp: cp.round() as i32, wdl: Some(wdl_from_cp(cp)) }),
        hashfull: None,
        pv: choice.map(|c| vec![c.action]).unwrap_or_default(),
    }
}

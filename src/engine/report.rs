//! Between the protocol and the players: `go`'s limits as the search's
//! [`Limits`], and what the search and the one-shot players report as
//! protocol lines.

use std::time::Duration;

use crate::board::Point;
use crate::piece::{Kind, NUM_KINDS};
use crate::players::Choice;
use crate::protocol::{Belief, Go, Info, Response, RootStatLine, Score};
use crate::search::report::{centipawns, wdl};
use crate::search::tree::RootStat;
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

/// The `info` line of a search's progress (its best action's line).
pub fn info_of<A: Clone>(p: &Progress<A>) -> Info<A> {
    Info {
        depth: Some(p.depth),
        seldepth: Some(p.seldepth),
        multipv: None,
        nodes: Some(p.nodes),
        nps: Some(p.nps()),
        time: Some(p.elapsed.as_millis() as u64),
        score: Some(Score { cp: p.centipawns(), wdl: Some(p.wdl()) }),
        hashfull: p.hashfull,
        pv: p.pv.clone(),
    }
}

/// The `info` lines of a search's progress (one, or with `MultiPV` one per
/// line numbered from 1, the first being the single line's, numbered) and
/// its `info rootstat` lines (with `ShowRootStats`, one per root action).
fn lines_of<A: Copy>(p: &Progress<A>) -> (Vec<Info<A>>, Vec<RootStatLine<A>>) {
    let mut infos = Vec::with_capacity(1 + p.lines.len());
    if p.lines.is_empty() {
        infos.push(info_of(p));
    }
    let score_of = |s: &RootStat<A>| Score { cp: centipawns(s.q, s.proven), wdl: Some(wdl(s.q, s.proven)) };
    for (k, line) in p.lines.iter().enumerate() {
        infos.push(Info {
            depth: Some(line.pv.len() as u32),
            multipv: Some(k as u32 + 1),
            score: Some(score_of(&line.stat)),
            pv: line.pv.clone(),
            ..info_of(p)
        });
    }
    let stats = p
        .root
        .iter()
        .map(|s| RootStatLine {
            action: s.action,
            visits: u64::from(s.visits),
            score: score_of(s),
            prior: (f64::from(s.prior) * 1e4).round() / 1e4,
        })
        .collect();
    (infos, stats)
}

/// The lines of a search's progress: one `info` line, or with `MultiPV`
/// one per line numbered from 1 (the first is the single line's, numbered),
/// then with `ShowRootStats` one `info rootstat` per root action.
pub fn progress_lines(p: &Progress) -> Vec<Response> {
    let (infos, stats) = lines_of(p);
    infos.into_iter().map(Response::Info).chain(stats.into_iter().map(Response::RootStat)).collect()
}

/// [`progress_lines`] of a four-player search.
pub fn siguo_progress_lines(p: &Progress<crate::siguo::Action>) -> Vec<Response> {
    let (infos, stats) = lines_of(p);
    infos.into_iter().map(Response::SiguoInfo).chain(stats.into_iter().map(Response::SiguoRootStat)).collect()
}

/// The belief about the piece at `at` as the protocol gives it: the kinds
/// with a chance, most likely first.
pub fn belief_of(at: Point, p: &[f32; NUM_KINDS]) -> Belief {
    let mut kinds: Vec<(Kind, f64)> =
        Kind::ALL.into_iter().filter(|k| p[k.index()] > 0.0).map(|k| (k, f64::from(p[k.index()]))).collect();
    kinds.sort_by(|a, b| b.1.total_cmp(&a.1));
    Belief { at, kinds }
}

/// The protocol lines of a search event.
pub fn responses_of(event: &Event) -> Vec<Response> {
    match event {
        Event::Progress(p) => progress_lines(p),
        Event::Belief(at, p) => vec![Response::Belief(belief_of(*at, p))],
    }
}

/// Maps a material-like evaluation (centipawns) to win/draw/loss per mille
/// for players without a game-result estimate.
pub fn wdl_from_cp(cp: f32) -> (u32, u32, u32) {
    let w = (1000.0 / (1.0 + (-cp / CP_PER_LOGIT).exp())).round() as u32;
    (w.min(1000), 0, 1000 - w.min(1000))
}

/// The `info` line of a one-shot player's choice (of either game).
pub fn one_shot_info<A>(choice: Option<Choice<A>>, elapsed: Duration) -> Info<A> {
    let nodes = choice.as_ref().map_or(0, |c| c.nodes);
    let ms = elapsed.as_millis() as u64;
    let cp = choice.as_ref().map_or(0.0, |c| c.score).clamp(-CP_LIMIT, CP_LIMIT);
    Info {
        depth: Some(1),
        seldepth: Some(1),
        multipv: None,
        nodes: Some(nodes),
        nps: Some(nodes * 1000 / ms.max(1)),
        time: Some(ms),
        score: Some(Score { cp: cp.round() as i32, wdl: Some(wdl_from_cp(cp)) }),
        hashfull: None,
        pv: choice.map(|c| vec![c.action]).unwrap_or_default(),
    }
}

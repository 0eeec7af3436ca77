//! The static evaluation of a four-player position whose kinds are all
//! known (the true position, or a world drawn for a seat's view): each
//! team's material (what its seats still in have on the board, by the
//! four-player value table), a seat out costing its team more than its
//! pieces, a shown flag's danger from the enemy pieces near it, faded
//! towards the quiet limit's draw, and squashed to an expected score in
//! [-1, 1] for South-North (the core's Red).

use crate::piece::Kind;
use crate::siguo::exchange::value;
use crate::siguo::topology::{ADJACENT, HQS, step_distances};
use crate::siguo::{Position, Seat, Team};

/// Centipawns per unit of `atanh(score)`.
pub const SCALE: f32 = 1000.0;

/// What a seat out costs its team besides its pieces: its turns, and a
/// partner left alone against two.
const SEAT_OUT: f32 = 2500.0;

/// A shown flag (its seat's Marshal fell): what each enemy piece next to
/// it, or two links away, costs its team.
const FLAG_NEIGHBOUR: f32 = 400.0;
const FLAG_NEAR: f32 = 120.0;

/// What each of a seat's [`PRESSING`] pieces nearest an opponent's flag is
/// worth: [`PRESSURE_NEXT`] next to it, [`PRESSURE_DECAY`] times less for
/// each step further (so that a piece far away still gains by coming on).
const PRESSURE_NEXT: f32 = 100.0;
const PRESSURE_DECAY: f32 = 0.8;
const PRESSING: usize = 3;

/// How fast an edge fades towards the quiet limit's draw.
const QUIET_FADE_POWER: i32 = 2;

/// The material and position terms of `seat`, in centipawns for its team.
fn seat_terms(pos: &Position, seat: Seat) -> f32 {
    if pos.is_out(seat) {
        return -SEAT_OUT;
    }
    let mut m = 0.0;
    let mut flag = None;
    for p in pos.pieces(seat) {
        match pos.cell(p).and_then(|pc| pc.kind) {
            Some(Kind::Flag) => flag = Some(p),
            Some(k) => m += value(k),
            None => {}
        }
    }
    // A flag the enemy knows (its seat's Marshal is gone): enemy pieces near it.
    let marshal_gone = !pos.pieces(seat).into_iter().any(|p| pos.cell(p).and_then(|pc| pc.kind) == Some(Kind::Marshal));
    if let Some(f) = flag.filter(|f| marshal_gone && HQS.contains(*f) && pos.rules().marshal_reveals_flag) {
        let [o1, o2] = seat.opponents();
        let enemy = pos.pieces(o1) | pos.pieces(o2);
        let next = ADJACENT[f.index()];
        let mut near = next;
        for q in next {
            near |= ADJACENT[q.index()];
        }
        m -= FLAG_NEIGHBOUR * (next & enemy).count() as f32;
        m -= FLAG_NEAR * ((near - next) & enemy).count() as f32;
    }
    m
}

/// How hard `seat` presses its opponents' flags: its movable pieces
/// nearest to one, each by its distance in steps.
fn pressure(pos: &Position, seat: Seat) -> f32 {
    let dist = step_distances();
    let flags: Vec<usize> = seat
        .opponents()
        .into_iter()
        .filter(|&o| !pos.is_out(o))
        .flat_map(|o| pos.pieces(o).into_iter().filter(|&p| pos.cell(p).and_then(|pc| pc.kind) == Some(Kind::Flag)))
        .map(|p| p.index())
        .collect();
    if flags.is_empty() {
        return 0.0;
    }
    let mut near = [0.0f32; PRESSING];
    for p in pos.pieces(seat) {
        if !pos.cell(p).and_then(|pc| pc.kind).is_some_and(Kind::is_movable) {
            continue;
        }
        let d = flags.iter().map(|&f| dist[p.index()][f]).min().unwrap_or(u8::MAX);
        let v = PRESSURE_NEXT * PRESSURE_DECAY.powi(i32::from(d) - 1);
        // Keep the largest PRESSING values.
        if let Some(i) = (0..PRESSING).min_by(|&a, &b| near[a].total_cmp(&near[b])) {
            if v > near[i] {
                near[i] = v;
            }
        }
    }
    near.iter().sum()
}

/// The evaluation in centipawns for South-North, each seat's pressure on
/// its opponents' flags weighted by `pressure_weight`.
pub fn centipawns(pos: &Position, pressure_weight: f32) -> f32 {
    let seat = |s: Seat| {
        let p = if pressure_weight == 0.0 { 0.0 } else { pressure_weight * pressure(pos, s) };
        seat_terms(pos, s) + p
    };
    let team = |t: Team| t.seats().iter().map(|&s| seat(s)).sum::<f32>();
    team(Team::SouthNorth) - team(Team::EastWest)
}

/// How a search values positions: the weight of the flag pressure, and
/// what a draw is worth to South-North (a search for East-West counting a
/// draw as part of a loss gives South-North a positive draw value).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Valuer {
    /// Weight of [`pressure`].
    pub pressure: f32,
    /// A drawn game's value for South-North.
    pub draw_for_sn: f32,
}

impl Valuer {
    /// The valuer of `params` for a search by `team`.
    pub fn new(params: &crate::search::params::Params, team: Team) -> Valuer {
        let c = params.contempt;
        Valuer { pressure: params.pressure, draw_for_sn: if team == Team::SouthNorth { -c } else { c } }
    }

    /// The expected score for South-North in [-1, 1]: exact when the game
    /// is over (a draw worth [`Valuer::draw_for_sn`]), else the squashed
    /// [`centipawns`], fading towards the draw's value as the quiet limit
    /// nears.
    pub fn value_for_sn(&self, pos: &Position) -> f32 {
        if let Some(r) = pos.outcome() {
            return match r.winner {
                Some(Team::SouthNorth) => 1.0,
                Some(Team::EastWest) => -1.0,
                None => self.draw_for_sn,
            };
        }
        let v = (centipawns(pos, self.pressure) / SCALE).tanh();
        let limit = pos.settings().quiet_limit;
        if limit == 0 {
            return v;
        }
        let t = (f32::from(pos.quiet()) / f32::from(limit)).min(1.0).powi(QUIET_FADE_POWER);
        v * (1.0 - t) + self.draw_for_sn * t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::siguo::SiguoRules;

    fn start() -> Position {
        let mut rng = crate::random::rng(7);
        let d = crate::deployment::Deployment::random(crate::piece::Colour::Red, &mut rng);
        Position::start(SiguoRules::OPEN, &[d.clone(), d.clone(), d.clone(), d])
    }

    #[test]
    fn the_start_is_even_and_a_seat_out_loses_value() {
        let pos = start();
        assert_eq!(centipawns(&pos, 1.0), 0.0);
        let mut east_out = pos.clone();
        east_out.eliminate(Seat::East);
        let valuer = Valuer { pressure: 1.0, draw_for_sn: 0.0 };
        assert!(valuer.value_for_sn(&east_out) > 0.9, "{}", valuer.value_for_sn(&east_out));
    }
}

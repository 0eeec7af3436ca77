//! The static evaluation at the leaves of the tree: material with
//! rank-dependent values (engineers and bombs valued by what they still can
//! do), the immediate threats of both sides, the flag race where a flag is
//! known to the enemy, and the quiet-limit piece count, squashed to an
//! expected score in [-1, 1] for the side to move.

use super::params::Params;
use crate::combat::attack_allowed;
use crate::distance::actions_to;
use crate::exchange::{VALUES, forecast_attack};
use crate::movegen::Grouped;
use crate::piece::{ARMY, Colour, Kind};
use crate::position::Position;
use crate::rules::{Mode, QuietResult};

/// Centipawns per unit of `atanh(score)`: the scale of the squashing.
pub const SCALE: f32 = 600.0;

/// Where only engineers take flags: the cost of having none left, and the
/// worth of the last one.
const NO_ENGINEER: f32 = 400.0;
const LAST_ENGINEER: f32 = 150.0;
/// Where any piece takes the flag: a side with no Engineer or bomb left
/// while the enemy has landmines, and with one.
const NO_BREACHER: f32 = 300.0;
const ONE_BREACHER: f32 = 100.0;
/// What a bomb loses once the enemy's Marshal and Generals are gone.
const BOMB_WITHOUT_TARGET: f32 = 200.0;
/// How fast the piece count takes over towards a flip quiet limit, and how
/// steeply it counts (per piece of difference).
const QUIET_COUNT_POWER: i32 = 4;
const PIECE_COUNT_SLOPE: f32 = 2.0;
/// How fast an edge fades towards a drawing quiet limit.
const QUIET_FADE_POWER: i32 = 2;
/// The flag race, where the enemy knows where a side's flag stands: what
/// that costs at all (with 0, 100 or 300 here, 200 games each against
/// `expert` at 3000 iterations a move scored 53.5%, 53.8%, 51.0%: no
/// measurable difference), and for each enemy piece able to take the flag,
/// by its distance in actions ([`crate::distance`]; index 1: it can take it
/// now).
const FLAG_KNOWN: f32 = 100.0;
const FLAG_DANGER: [f32; 7] = [0.0, 1000.0, 500.0, 250.0, 120.0, 60.0, 30.0];

/// The material terms of one side in centipawns: the value table's worth
/// of what is left (removed pieces of unknown kind, as in a classic view,
/// at the average of what is not accounted for), the engineers where only
/// they take flags, the bombs' loss once the enemy has no Marshal or
/// General left, and the mine-breakers (Engineers and bombs) where any
/// piece takes flags.
fn material(pos: &Position, c: Colour) -> [f32; 4] {
    let them = c.opposite();
    let mut m = 0.0;
    let alive = |k: Kind| f32::from(ARMY[k.index()].saturating_sub(pos.removed_count(c, Some(k))));
    for k in Kind::ALL {
        if k == Kind::Flag {
            continue;
        }
        m += alive(k) * VALUES[k.index()];
    }
    let unknown = f32::from(pos.removed_count(c, None));
    if unknown > 0.0 {
        let mut total = 0.0;
        let mut n = 0.0;
        for k in Kind::ALL {
            if k != Kind::Flag {
                let left = alive(k) - pos.pieces_of(c, Some(k)).count() as f32;
                total += left.max(0.0) * VALUES[k.index()];
                n += left.max(0.0);
            }
        }
        if n > 0.0 {
            m -= unknown * total / n;
        }
    }
    // Engineers: in flip they are the only flag-takers; the last ones matter most.
    let engineers = alive(Kind::Engineer);
    let engineer = if !pos.rules().flag_needs_engineer {
        0.0
    } else if engineers == 0.0 {
        -NO_ENGINEER
    } else if engineers == 1.0 {
        LAST_ENGINEER
    } else {
        0.0
    };
    // Bombs are worth most while the enemy's Marshal or General lives.
    let big_enemy = ARMY[Kind::Marshal.index()] > pos.removed_count(them, Some(Kind::Marshal))
        || ARMY[Kind::General.index()] > pos.removed_count(them, Some(Kind::General));
    let idle = if big_enemy { 0.0 } else { -alive(Kind::Bomb) * BOMB_WITHOUT_TARGET };
    // Where any piece may take the flag, a flag walled by landmines still
    // falls only through an Engineer or a bomb: without one, the game is
    // at best drawn at the quiet limit.
    let breachers = if pos.rules().flag_needs_engineer || pos.mines_cleared(them) {
        0.0
    } else {
        let n = alive(Kind::Engineer) + alive(Kind::Bomb);
        if n < 0.5 {
            -NO_BREACHER
        } else if n < 1.5 {
            -ONE_BREACHER
        } else {
            0.0
        }
    };
    [m, engineer, idle, breachers]
}

/// Whether the enemy of `side` knows where `side`'s flag stands: always in
/// `open`, once it is face up in `flip`, in `classic` once `side`'s
/// Marshal fell where that shows the flag.
fn flag_known(pos: &Position, side: Colour) -> bool {
    let rules = pos.rules();
    match rules.mode {
        Mode::Open | Mode::Flip => true,
        Mode::Classic => rules.marshal_reveals_flag && pos.removed_count(side, Some(Kind::Marshal)) > 0,
    }
}

/// The static evaluation's terms, in centipawns for the side to move
/// before weighting (the last, the opponent's best immediate gain, counts
/// against it); the evaluation is their weighted sum, squashed. The
/// order is the order of the sum. `tools/arena`'s `tune` fits the weights
/// to game results.
pub const TERMS: [&str; 7] = ["material", "engineers", "idlebombs", "breachers", "race", "ownthreat", "theirthreat"];

/// The flag race's index in [`TERMS`].
const RACE: usize = 4;

/// The weight of each of [`TERMS`] (from [`Params`], whose `SearchParams`
/// names are the terms' names).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights(pub [f32; TERMS.len()]);

impl Default for Weights {
    fn default() -> Weights {
        Weights::of(&Params::default())
    }
}

impl Weights {
    /// The weights in `params`.
    pub fn of(params: &Params) -> Weights {
        Weights([
            params.w_material,
            params.w_engineers,
            params.w_idle_bombs,
            params.w_breachers,
            params.flag_race,
            params.w_own_threat,
            params.w_their_threat,
        ])
    }

    /// The weighted sum of `terms`.
    pub fn cp(&self, terms: &[f32; TERMS.len()]) -> f32 {
        self.0.iter().zip(terms).fold(0.0, |cp, (w, t)| cp + w * t)
    }
}

/// The danger to `side`'s flag where the enemy knows it (see [`FLAG_DANGER`]).
fn flag_danger(pos: &Position, side: Colour) -> f32 {
    let Some(flag) = pos.pieces_of(side, Some(Kind::Flag)).first().filter(|_| flag_known(pos, side)) else {
        return 0.0;
    };
    let them = side.opposite();
    let rules = pos.rules();
    let cleared = pos.mines_cleared(side);
    let mut able = pos.pieces_of(them, None);
    for k in Kind::ALL {
        if attack_allowed(rules, k, Kind::Flag, cleared) {
            able |= pos.pieces_of(them, Some(k));
        }
    }
    if able.is_empty() {
        return FLAG_KNOWN;
    }
    let dist = actions_to(pos, flag, them, FLAG_DANGER.len() as u8 - 1);
    let near: f32 = able.into_iter().filter_map(|p| FLAG_DANGER.get(usize::from(dist[p.index()]))).sum();
    FLAG_KNOWN + near
}

fn best_gain(pos: &Position, actions: &Grouped) -> f32 {
    actions.attacks().map(|a| forecast_attack(pos, a.from(), a.to()).expected_gain()).fold(0.0, f32::max)
}

/// The terms of the evaluation for the side to move (see [`TERMS`]) from
/// its legal `actions`; the flag race only when `race` (it costs a
/// distance search), else 0.
pub fn terms(pos: &Position, actions: &Grouped, scratch: &mut Grouped, race: bool) -> [f32; TERMS.len()] {
    let Some(us) = pos.side_to_move() else {
        return [0.0; TERMS.len()];
    };
    let them = us.opposite();
    let [m_us, e_us, b_us, x_us] = material(pos, us);
    let [m_them, e_them, b_them, x_them] = material(pos, them);
    let race = if race { flag_danger(pos, them) - flag_danger(pos, us) } else { 0.0 };
    let null = pos.with_side_to_move(them);
    scratch.attacks_of(&null);
    [
        m_us - m_them,
        e_us - e_them,
        b_us - b_them,
        x_us - x_them,
        race,
        best_gain(pos, actions),
        -best_gain(&null, scratch),
    ]
}

/// The expected score for the side to move, from its legal `actions`
/// (already generated by the caller), with the tuned `weights`. Positions
/// before the first flip are even.
pub fn evaluate(pos: &Position, actions: &Grouped, scratch: &mut Grouped, weights: &Weights) -> f32 {
    let Some(us) = pos.side_to_move() else {
        return 0.0;
    };
    let t = terms(pos, actions, scratch, weights.0[RACE] != 0.0);
    let cp = weights.cp(&t);
    let (scale, shift) = quiet_squash(pos, us);
    scale * (cp / SCALE).tanh() + shift
}

/// How the quiet limit bends the squashed score `x` of the side to move
/// `us`: the score is `scale * x + shift`.
fn quiet_squash(pos: &Position, us: Colour) -> (f32, f32) {
    let them = us.opposite();
    let rules = pos.rules();
    if rules.quiet_limit > 0 && rules.mode == Mode::Flip && rules.quiet_result == QuietResult::MorePieces {
        // Near the quiet limit the piece count decides.
        let a = (f32::from(pos.quiet()) / f32::from(rules.quiet_limit)).powi(QUIET_COUNT_POWER);
        let count = f32::from(pos.on_board(us)) - f32::from(pos.on_board(them));
        return (1.0 - a, a * (count * PIECE_COUNT_SLOPE).tanh());
    }
    if rules.quiet_limit > 0 && rules.mode == Mode::Classic && rules.quiet_result == QuietResult::Draw {
        // The quiet limit draws: an edge is worth less the nearer it comes,
        // so the side ahead presses for a capture and the side behind
        // stalls.
        let a = (f32::from(pos.quiet()) / f32::from(rules.quiet_limit)).powi(QUIET_FADE_POWER);
        return (1.0 - a, 0.0);
    }
    (1.0, 0.0)
}

/// One position as the tuner sees it: the terms of the side to move and
/// how the quiet limit bends its score (`None`: no side to move).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// [`terms`] with the flag race.
    pub terms: [f32; TERMS.len()],
    /// The score is `scale * tanh(cp / SCALE) + shift`.
    pub scale: f32,
    /// See `scale`.
    pub shift: f32,
}

/// The tuner's view of `pos` (its legal actions generated here).
pub fn sample(pos: &Position) -> Option<Sample> {
    let us = pos.side_to_move()?;
    let mut actions = Grouped::new();
    actions.of(pos);
    let t = terms(pos, &actions, &mut Grouped::new(), true);
    let (scale, shift) = quiet_squash(pos, us);
    Some(Sample { terms: t, scale, shift })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn eval_at_quiet(pos: &Position, quiet: u16) -> f32 {
        let mut setup = pos.to_setup();
        setup.quiet = quiet;
        let p = Position::from_setup(&setup, *pos.rules()).expect("valid");
        let mut actions = Grouped::new();
        actions.of(&p);
        evaluate(&p, &actions, &mut Grouped::new(), &Weights::default())
    }

    #[test]
    fn an_edge_fades_towards_a_drawing_quiet_limit() {
        // Seeded games until one side is clearly ahead.
        let pos = (0..50)
            .map(|seed| crate::random::seeded_position(Rules::CLASSIC, seed, 150))
            .find(|p| p.outcome().is_none() && eval_at_quiet(p, 0).abs() > 0.2)
            .expect("an uneven position");
        let (fresh, half, late) = (eval_at_quiet(&pos, 0), eval_at_quiet(&pos, 60), eval_at_quiet(&pos, 110));
        assert!(fresh.abs() > half.abs() && half.abs() > late.abs(), "{fresh} {half} {late}");
        assert_eq!(fresh.signum(), late.signum());
        // Where the quiet limit is decided otherwise (open keeps its edge), nothing fades.
        let open = Position::from_setup(&pos.to_setup(), Rules::OPEN).expect("valid in open");
        assert_eq!(eval_at_quiet(&open, 0), eval_at_quiet(&open, 110));
    }

    #[test]
    fn a_side_without_engineers_or_bombs_cannot_breach_a_mined_flag() {
        const BREACHERS: usize = 3;
        // The end of a classic game drawn at the quiet limit (3100c80 against
        // `expert`), Red's 6 on b10 made an Engineer: Red has one
        // mine-breaker, Blue none, and both flags stand walled by mines.
        let fen = "1b2bMbFbM/3bM1/1r13/5/5/5/5/5/5/5/1rM2b4/rMrFrMr51 b 0 263 \
                   r1r1r2r2r2r3r3r3r4r4r5r6r6r7r7r8r9rBrBb1b1b1b2b2b3b3b3b4b5b5b6b6b7b7b8b9bBbB";
        let fen = fen.split_whitespace().collect::<Vec<_>>().join(" ");
        let pos = crate::notation::parse_position(&fen, Rules::CLASSIC).expect("valid");
        let mut actions = Grouped::new();
        actions.of(&pos);
        let t = terms(&pos, &actions, &mut Grouped::new(), false);
        // Blue to move: none (-300) against Red's one (-100).
        assert_eq!(TERMS[BREACHERS], "breachers");
        assert_eq!(t[BREACHERS], -NO_BREACHER + ONE_BREACHER);
        // Where only Engineers take flags (flip's rule) the term is off.
        let rules = Rules { flag_needs_engineer: true, ..Rules::CLASSIC };
        let pos = crate::notation::parse_position(&fen, rules).expect("valid");
        actions.of(&pos);
        let t = terms(&pos, &actions, &mut Grouped::new(), false);
        assert_eq!(t[BREACHERS], 0.0);
    }

    #[test]
    fn the_evaluation_is_the_tuners_model_of_its_terms() {
        // What `arena tune` fits must be what the search evaluates.
        let mut weights = Weights::of(&Params::for_mode(crate::rules::Mode::Classic));
        weights.0[RACE] = 1.5;
        for (rules, seed) in [(Rules::CLASSIC, 3), (Rules::FLIP, 5), (Rules::OPEN, 7), (Rules::CLASSIC, 11)] {
            for plies in [0, 40, 120] {
                let pos = crate::random::seeded_position(rules, seed, plies);
                let Some(s) = sample(&pos) else { continue };
                let mut actions = Grouped::new();
                actions.of(&pos);
                let direct = evaluate(&pos, &actions, &mut Grouped::new(), &weights);
                let model = s.scale * (weights.cp(&s.terms) / SCALE).tanh() + s.shift;
                assert!((direct - model).abs() < 1e-6, "{direct} {model}");
            }
        }
    }
}

//! Priors for the actions of a decision node, from cheap domain knowledge
//! (progressive bias): the expected value of an exchange, escaping a known
//! threat, the risk of a flip next to one's own strong pieces.

use super::params::Params;
use crate::action::{Action, ActionKind, Token};
use crate::belief::BeliefSettings;
use crate::board::Bitboard;
use crate::board::topology::ADJACENT;
use crate::combat::{Outcome, combat};
use crate::exchange::{Unaccounted, WIN, forecast_with, value};
use crate::piece::{Kind, NUM_KINDS};
use crate::players::expert;
use crate::position::Position;
use crate::random::Rng;

/// Softmax temperature over the heuristic scores.
const TEMPERATURE: f32 = 1.0;
/// An attack expected to gain at least half the game (a flag) is decisive,
/// and scores this much.
const DECISIVE_GAIN: f32 = WIN * 0.5;
pub(crate) const DECISIVE_ATTACK: f32 = 8.0;
/// Centipawns of expected gain per unit of an attack's score, and the
/// range of that score.
pub(crate) const GAIN_PER_UNIT: f32 = 150.0;
pub(crate) const ATTACK_RANGE: (f32, f32) = (-3.0, 4.0);
/// What an escaping piece's value is divided by, and the largest score of
/// an escape (a piece of unknown kind counts as this much).
pub(crate) const ESCAPE_PER_UNIT: f32 = 300.0;
pub(crate) const ESCAPE_MAX: f32 = 2.0;
pub(crate) const UNKNOWN_PIECE_VALUE: f32 = 100.0;
/// A flip's penalty per centipawn of our pieces next to it, and its largest.
const FLIP_EXPOSED_PER_UNIT: f32 = 1500.0;
const FLIP_PENALTY_MAX: f32 = 1.5;

/// Prior probabilities, one per action, into `out`: a softmax over
/// heuristic scores in "logit" units; uniform before the first flip, when
/// no side has a colour (they were all 0 there, which left the root of a
/// `flip` game without exploration and showed priors of 0).
pub fn scores(pos: &Position, actions: &[Action], scratch: &mut Vec<Action>, out: &mut Vec<f32>) {
    out.clear();
    let Some(us) = pos.side_to_move() else {
        out.resize(actions.len(), 1.0 / actions.len().max(1) as f32);
        return;
    };
    let them = us.opposite();
    // Counting the unknown pieces' possible kinds once (a classic view).
    let counts = (pos.pieces_of(us, None) | pos.pieces_of(them, None)).any().then(|| Unaccounted::of(pos));
    let forecast = |a: &Action| forecast_with(pos, a.from(), a.to(), counts.as_ref()).expected_gain();
    // Points of ours the enemy could attack profitably now.
    scratch.clear();
    pos.with_side_to_move(them).generate_attacks(scratch);
    let mut threatened = Bitboard::EMPTY;
    for a in scratch.iter() {
        if forecast(a) > 0.0 {
            threatened.insert(a.to());
        }
    }
    let ours = pos.pieces(us);
    for &a in actions {
        let h = match a.kind() {
            ActionKind::Attack => {
                let g = forecast(&a);
                if g >= DECISIVE_GAIN {
                    DECISIVE_ATTACK
                } else {
                    (g / GAIN_PER_UNIT).clamp(ATTACK_RANGE.0, ATTACK_RANGE.1)
                }
            }
            ActionKind::Move => {
                if threatened.contains(a.from()) {
                    let v = pos.kind_at(a.from()).map_or(UNKNOWN_PIECE_VALUE, value);
                    (v / ESCAPE_PER_UNIT).min(ESCAPE_MAX)
                } else {
                    0.0
                }
            }
            ActionKind::Flip => {
                // A flip next to our strong pieces may show an enemy that beats them.
                let near = ADJACENT[a.from().index()] & ours;
                let exposed: f32 = near.into_iter().filter_map(|p| pos.kind_at(p)).map(value).sum();
                -(exposed / FLIP_EXPOSED_PER_UNIT).min(FLIP_PENALTY_MAX)
            }
        };
        out.push(h / TEMPERATURE);
    }
    softmax(out);
}

/// Turns scores in "logit" units into probabilities, in place.
pub(crate) fn softmax(out: &mut [f32]) {
    let max = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for x in out.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    for x in out.iter_mut() {
        *x /= sum;
    }
}

/// The priors a worker gives a new node's edges: the heuristic [`scores`],
/// or uniform when the `priors` search parameter is off.
pub fn for_node(pos: &Position, actions: &[Action], use_priors: bool, scratch: &mut Vec<Action>, out: &mut Vec<f32>) {
    if use_priors {
        scores(pos, actions, scratch, out);
    } else {
        out.clear();
        out.resize(actions.len(), 1.0 / actions.len().max(1) as f32);
    }
}

/// The root's priors from the `expert` player's scores: a share
/// `params.expert_prior` from a softmax over them, the rest from the usual
/// priors. The softmax's temperature may grow with the root's visits
/// ([`RootPriors::temperature`]), so that a longer search leaves more to
/// its own statistics.
#[derive(Clone, Debug)]
pub struct RootPriors {
    /// The actions kept, each with its usual prior and its expert score
    /// less the best score (centipawns, at most 0).
    actions: Vec<(Action, f32, f32)>,
    /// What the expert believed of each point's enemy piece.
    believed: Vec<expert::Dist>,
    share: f32,
    temp: f32,
    temp_visits: f32,
    temp_growth: f32,
}

impl RootPriors {
    /// The expert's temperature after `visits` of the root:
    /// `experttemp` up to `tempvisits` visits, then growing as
    /// `(visits / tempvisits) ^ tempgrowth`.
    pub fn temperature(&self, visits: u32) -> f32 {
        let grown = (visits as f32 / self.temp_visits).max(1.0).powf(self.temp_growth);
        self.temp * grown
    }

    /// The root visits from which the temperature grows.
    pub fn temp_from(&self) -> u32 {
        self.temp_visits as u32
    }

    /// Whether the temperature changes with the visits.
    pub fn grows(&self) -> bool {
        self.temp_growth > 0.0
    }

    /// The priors at temperature `temp`, in the order of the actions kept.
    pub fn at(&self, temp: f32) -> Vec<(Action, f32)> {
        let mixed = blend(self.actions.iter().map(|&(_, u, s)| (u, Some(s))), temp, self.share);
        self.actions.iter().zip(mixed).map(|(&(a, _, _), p)| (a, p)).collect()
    }
}

/// Priors that take a share `share` from a softmax at `temp` over expert
/// scores (each less the best score; `None`: an action the expert did not
/// score, which gets none of that share) and the rest from the usual
/// priors, from `(usual prior, score)` pairs.
fn blend(pairs: impl Iterator<Item = (f32, Option<f32>)> + Clone, temp: f32, share: f32) -> Vec<f32> {
    let soft = |s: Option<f32>| s.map_or(0.0, |s| (s / temp).exp());
    let sum = pairs.clone().map(|(_, s)| soft(s)).sum::<f32>().max(f32::MIN_POSITIVE);
    pairs.map(|(u, s)| (1.0 - share) * u + share * soft(s) / sum).collect()
}

/// The priors of the root's actions (in [`Position::legal_actions`] order)
/// from the `expert` player's scores ([`RootPriors`]); `None` where its
/// share is 0 or the expert has no scores. With `params.expert_cut`, only
/// the actions the expert scores within the cut of its best (the others
/// are not searched).
pub fn with_expert(
    pos: &Position,
    game: Option<(&Position, &[Token])>,
    belief: BeliefSettings,
    params: &Params,
    rng: &mut Rng,
) -> Option<RootPriors> {
    if params.expert_prior <= 0.0 {
        return None;
    }
    let (mut scored, believed) = expert::scores_with_caution(pos, game, belief, params.expert_caution, rng);
    if scored.is_empty() {
        return None;
    }
    // The best score survives the cut.
    let max = scored.iter().map(|&(_, s)| s).fold(f32::NEG_INFINITY, f32::max);
    if params.expert_cut > 0.0 {
        scored.retain(|&(_, s)| s >= max - params.expert_cut);
    }
    let actions: Vec<Action> = scored.iter().map(|&(a, _)| a).collect();
    let (mut scratch, mut usual) = (Vec::new(), Vec::new());
    for_node(pos, &actions, params.use_priors, &mut scratch, &mut usual);
    Some(RootPriors {
        actions: scored.iter().zip(&usual).map(|(&(a, s), &u)| (a, u, s - max)).collect(),
        believed,
        share: params.expert_prior,
        temp: params.expert_temp,
        temp_visits: params.temp_visits,
        temp_growth: params.temp_growth,
    })
}

/// One action of an iteration's path, as the view saw it before it was
/// played: what [`DeepPriors`] needs to carry the root's belief down.
#[derive(Clone, Copy, Debug)]
pub struct Played {
    /// The action.
    pub action: Action,
    /// Whether the root side played it.
    pub ours: bool,
    /// The kind the view names at its origin,
    pub attacker: Option<Kind>,
    /// and at its target.
    pub defender: Option<Kind>,
    /// Whether the defender's mines were cleared (the rules' flag rule).
    pub cleared: bool,
    /// The referee's verdict of an attack.
    pub verdict: Option<Outcome>,
}

/// The expert's priors for the root side's nodes below the root (`classic`,
/// `expertdepth`): once such a node a few actions below the root reaches
/// `expertvisits` visits, its priors become the expert's scores of its
/// view, softmaxed at `experttemp`, the enemy's pieces believed as the
/// root's belief carried down the path (a piece that moves takes its
/// distribution along, an outcome narrows it).
#[derive(Clone, Debug)]
pub struct DeepPriors {
    believed: Vec<expert::Dist>,
    /// Actions below the root within which the root side's nodes get them.
    pub plies: usize,
    /// The visits at which a node gets them.
    pub visits: u32,
    temp: f32,
    share: f32,
    scratch: Vec<expert::Dist>,
}

impl DeepPriors {
    /// From the root's expert priors, when `expertdepth` asks for them.
    pub fn new(root: &RootPriors, params: &Params) -> Option<DeepPriors> {
        (params.expert_depth > 0 && !root.believed.is_empty()).then(|| DeepPriors {
            believed: root.believed.clone(),
            plies: 2 * params.expert_depth as usize,
            visits: params.expert_visits,
            temp: params.expert_temp,
            share: params.expert_prior,
            scratch: Vec::new(),
        })
    }

    /// The new priors of the edges `actions` (with their current priors)
    /// of the root side's node whose view is `view`, reached from the root
    /// by `path`.
    pub fn priors(&mut self, view: &Position, path: &[Played], actions: &[(Action, f32)]) -> Vec<f32> {
        let at = &mut self.scratch;
        at.clear();
        at.extend_from_slice(&self.believed);
        for p in path {
            follow(view, at, p);
        }
        let scored = expert::scores_given(view, at);
        let max = scored.iter().map(|&(_, s)| s).fold(f32::NEG_INFINITY, f32::max);
        let score = |a: &Action| scored.iter().find(|(b, _)| b == a).map(|&(_, s)| s - max);
        blend(actions.iter().map(|(a, u)| (*u, score(a))), self.temp, self.share)
    }
}

/// Keeps only the kinds `keep` accepts in `d`, unless none would be left.
fn narrow(d: &mut expert::Dist, keep: impl Fn(Kind) -> bool) {
    let mut out = *d;
    for k in Kind::ALL {
        if !keep(k) {
            out[k.index()] = 0.0;
        }
    }
    let sum: f32 = out.iter().sum();
    if sum > 0.0 {
        *d = out.map(|x| x / sum);
    }
}

/// The belief about the enemy's pieces carried over one played action.
fn follow(view: &Position, at: &mut [expert::Dist], p: &Played) {
    let (from, to) = (p.action.from().index(), p.action.to().index());
    let rules = view.rules();
    match (p.ours, p.verdict) {
        (true, None) => {}
        (true, Some(o)) => match (o, p.attacker) {
            (Outcome::DefenderWins, Some(a)) => narrow(&mut at[to], |d| combat(rules, a, d, p.cleared) == o),
            (Outcome::DefenderWins, None) => {}
            _ => at[to] = [0.0; NUM_KINDS],
        },
        (false, verdict) => {
            let mut d = at[from];
            at[from] = [0.0; NUM_KINDS];
            narrow(&mut d, Kind::is_movable);
            match (verdict, p.defender) {
                (None, _) => at[to] = d,
                (Some(Outcome::AttackerWins), Some(k)) => {
                    narrow(&mut d, |a| combat(rules, a, k, p.cleared) == Outcome::AttackerWins);
                    at[to] = d;
                }
                (Some(Outcome::AttackerWins), None) => at[to] = d,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_setup;
    use crate::random::rng;
    use crate::rules::{Mode, Rules};
    use crate::search::params::ParamOverrides;

    /// Red's view of a classic start: Red's Marshal on e6, Blue unknown.
    const VIEW: &str = "b?b?b?b?b?/b?b?b?b?b?/b?1b?1b?/b?b?1b?b?/b?1b?1b?/b?b?b?b?b?/r7r6r5r4r9/r11r81r6/r2r31r3r1/r21r21r7/r5r4r3rBrM/rBrFrMrMr1 r 0 0 -";

    fn root(overrides: &str) -> RootPriors {
        let pos = Position::from_setup(&parse_setup(VIEW).unwrap(), Rules::CLASSIC).unwrap();
        let params = ParamOverrides::parse(overrides).unwrap().apply(Params::for_mode(Mode::Classic));
        with_expert(&pos, None, BeliefSettings::default(), &params, &mut rng(1)).unwrap()
    }

    /// The share of the likeliest action.
    fn top(priors: &[(Action, f32)]) -> f32 {
        priors.iter().map(|&(_, p)| p).fold(0.0, f32::max)
    }

    #[test]
    fn the_temperature_grows_only_past_its_visits_and_only_when_asked() {
        let still = root("experttemp=100 tempvisits=1000 tempgrowth=0");
        assert!(!still.grows());
        assert_eq!(still.temperature(0), 100.0);
        assert_eq!(still.temperature(1_000_000), 100.0);
        let grows = root("experttemp=100 tempvisits=1000 tempgrowth=0.5");
        assert!(grows.grows());
        assert_eq!(grows.temperature(0), 100.0);
        assert_eq!(grows.temperature(1000), 100.0);
        assert!((grows.temperature(4000) - 200.0).abs() < 1e-3);
        assert!((grows.temperature(16000) - 400.0).abs() < 1e-2);
    }

    #[test]
    fn hotter_priors_are_flatter_and_still_sum_to_one() {
        let r = root("experttemp=100 expert=1");
        let (cold, hot) = (r.at(100.0), r.at(400.0));
        for priors in [&cold, &hot] {
            let sum: f32 = priors.iter().map(|&(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-4, "sum {sum}");
        }
        assert!(top(&hot) < top(&cold), "{} against {}", top(&hot), top(&cold));
        let least = |p: &[(Action, f32)]| p.iter().map(|&(_, p)| p).fold(1.0, f32::min);
        assert!(least(&hot) > least(&cold));
        // The expert's order is kept.
        let best = |p: &[(Action, f32)]| p.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0;
        assert_eq!(best(&hot), best(&cold));
    }

    fn point(s: &str) -> crate::board::Point {
        crate::notation::parse_point(s).unwrap()
    }

    fn played(
        action: &str,
        ours: bool,
        attacker: Option<Kind>,
        defender: Option<Kind>,
        verdict: Option<Outcome>,
    ) -> Played {
        let action = crate::notation::parse_action(action).unwrap();
        Played { action, ours, attacker, defender, cleared: false, verdict }
    }

    #[test]
    fn the_belief_follows_the_enemy_pieces_down_the_path() {
        let pos = Position::from_setup(&parse_setup(VIEW).unwrap(), Rules::CLASSIC).unwrap();
        let uniform = [1.0 / NUM_KINDS as f32; NUM_KINDS];
        let fresh = || vec![uniform; crate::board::topology::NUM_POINTS];
        let rules = pos.rules();
        let support = |d: &expert::Dist| Kind::ALL.into_iter().filter(|k| d[k.index()] > 0.0).collect::<Vec<_>>();
        let total = |d: &expert::Dist| d.iter().sum::<f32>();

        // The enemy moves: the distribution goes along, only movable kinds.
        let mut at = fresh();
        follow(&pos, &mut at, &played("b7-b6", false, None, None, None));
        assert_eq!(total(&at[point("b7").index()]), 0.0);
        let moved = at[point("b6").index()];
        assert!((total(&moved) - 1.0).abs() < 1e-5);
        assert!(support(&moved).iter().all(|k| k.is_movable()) && support(&moved).len() == 10, "{moved:?}");

        // Our Major general loses against it: only what beats a Major general.
        let mut at = fresh();
        follow(&pos, &mut at, &played("a6xa7", true, Some(Kind::MajorGeneral), None, Some(Outcome::DefenderWins)));
        let d = at[point("a7").index()];
        assert!((total(&d) - 1.0).abs() < 1e-5);
        for k in support(&d) {
            assert_eq!(combat(rules, Kind::MajorGeneral, k, false), Outcome::DefenderWins, "{k:?}");
        }
        assert!(support(&d).contains(&Kind::Marshal) && support(&d).contains(&Kind::Mine));

        // Our attack wins or trades: no enemy piece is left there.
        for o in [Outcome::AttackerWins, Outcome::BothRemoved] {
            let mut at = fresh();
            follow(&pos, &mut at, &played("a6xa7", true, Some(Kind::MajorGeneral), None, Some(o)));
            assert_eq!(total(&at[point("a7").index()]), 0.0);
        }

        // The enemy's attack beats our Major general: it moved there, and beats it.
        let mut at = fresh();
        follow(&pos, &mut at, &played("a7xa6", false, None, Some(Kind::MajorGeneral), Some(Outcome::AttackerWins)));
        assert_eq!(total(&at[point("a7").index()]), 0.0);
        let d = at[point("a6").index()];
        assert!((total(&d) - 1.0).abs() < 1e-5);
        assert_eq!(support(&d), vec![Kind::General, Kind::Marshal]);
    }

    #[test]
    fn deep_priors_are_the_experts_softmax_over_the_node() {
        let pos = Position::from_setup(&parse_setup(VIEW).unwrap(), Rules::CLASSIC).unwrap();
        let params = ParamOverrides::parse("expertdepth=1").unwrap().apply(Params::for_mode(Mode::Classic));
        let r = with_expert(&pos, None, BeliefSettings::default(), &params, &mut rng(1)).unwrap();
        let mut deep = DeepPriors::new(&r, &params).expect("asked for");
        assert_eq!(deep.plies, 2);
        let off = ParamOverrides::parse("expertdepth=0").unwrap().apply(Params::for_mode(Mode::Classic));
        assert!(DeepPriors::new(&r, &off).is_none(), "off at depth 0");
        // The root's own node seen as if below it, no path: the root's priors.
        let mut actions = Vec::new();
        pos.legal_actions(&mut actions);
        let uniform = 1.0 / actions.len() as f32;
        let edges: Vec<(Action, f32)> = actions.iter().map(|&a| (a, uniform)).collect();
        let got = deep.priors(&pos, &[], &edges);
        let want = r.at(params.expert_temp);
        assert_eq!(got.len(), want.len());
        let sum: f32 = got.iter().sum();
        assert!((sum - 1.0).abs() < 1e-4, "{sum}");
        for ((a, g), (b, w)) in edges.iter().map(|e| e.0).zip(&got).zip(&want) {
            assert_eq!(a, *b);
            assert!((g - w).abs() < 1e-4, "{a}: {g} against {w}");
        }
    }
}

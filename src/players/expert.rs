//! The `expert` player: one ply of look-ahead with a knowledgeable
//! evaluation, the strongest yardstick the search is measured against.
//!
//! What it knows of each enemy piece is a probability per kind: in
//! `classic` the marginals of the engine's own belief (every hard fact the
//! history proves and the soft evidence, as the search samples it), in
//! `open` and for face-up pieces in `flip` the piece itself. Every legal
//! action is scored as the expectation, over what the action may lead to
//! (each outcome of an attack, each identity a flip may show), of
//!
//! - the material it wins or loses (the piece-value table of `exchange`;
//!   losing the Marshal while that shows the flag costs [`FLAG_SHOWN`]
//!   more, and a big piece's own attacks weigh its loss heavier
//!   ([`BIG_RISK`], [`BIGGEST_RISK`]): its Marshal does not gamble on
//!   coin-flip attacks);
//! - minus the opponent's best reply capture ([`threat`]), each enemy kind
//!   assumed to attack where it gains, as if it knew our pieces;
//! - plus a share of our own best capture next ([`OWN_NEXT`]);
//! - the flag race: when the enemy's flag is known, our nearest capable
//!   pieces' distance to it in actions, through its guards ([`RACE`]);
//!   when ours is known to the enemy, the enemy pieces' distance to it
//!   ([`DANGER`]), so that it blocks the approaches and strikes the nearest
//!   attacker;
//! - a pull forward in the rule sets with deployment, a probing bonus for
//!   low officers that attack unknown pieces, and in `flip` the piece count
//!   near the quiet limit.
//!
//! Ties are broken by a seeded draw, so that `Seed` makes it deterministic.

use rand::RngExt;

use super::{Choice, over_flip};
use crate::action::{Action, ActionKind, Token};
use crate::belief::{self, BeliefSettings};
use crate::board::Point;
use crate::board::topology::{ADJACENT, NUM_POINTS};
use crate::combat::{Outcome, attack_allowed, combat};
use crate::distance::{MAX_LIMIT, actions_to};
use crate::exchange::{WIN, kind_distribution, value};
use crate::movegen::slides;
use crate::piece::{Colour, Kind, NUM_KINDS};
use crate::position::Position;
use crate::random::Rng;
use crate::rules::Mode;

/// Worlds sampled for the belief's marginals (`classic`).
const SAMPLES: usize = 2000;
/// What losing the Marshal costs beyond its value while its fall shows the
/// flag (and what the enemy's Marshal's fall is worth to us).
pub const FLAG_SHOWN: f32 = 500.0;
/// Extra share of its value that losing a Major general costs in its own
/// attacks: big pieces keep out of attacks that may remove them.
pub const BIG_RISK: f32 = 0.5;
/// The same for a General or the Marshal.
pub const BIGGEST_RISK: f32 = 1.0;
/// Probing: an officer of rank up to [`PROBE_RANK`] attacking a piece of
/// unknown kind earns this much times the uncertainty of that kind.
pub const PROBE: f32 = 40.0;
const PROBE_RANK: u8 = 5;
/// How much of a flag's worth an enemy that does not know where our flag
/// stands is assumed to win by attacking the piece that holds it.
const HIDDEN_FLAG_SHARE: f32 = 0.5;
/// Share of the opponent's second-best capture held against us.
const SECOND_THREAT: f32 = 0.25;
/// Share of our own best capture in the position after the action.
pub const OWN_NEXT: f32 = 0.15;
/// The race to a known enemy flag: worth `RACE / d` for our nearest capable
/// piece `d` actions away (and half that for the second).
pub const RACE: f32 = 1500.0;
/// The danger of an enemy piece `d` actions from our flag when the enemy
/// knows where it is (index `d`; one action away is the reply threat's).
pub const DANGER: [f32; 7] = [0.0, 0.0, 1500.0, 600.0, 250.0, 100.0, 40.0];
/// Per rank advanced by a movable officer, engineer or bomb (rule sets
/// with deployment).
pub const PULL: f32 = 3.0;
/// In `flip`: per piece of difference, times (quiet / limit)².
pub const COUNT: f32 = 200.0;
/// A probability for each kind.
pub type Dist = [f32; NUM_KINDS];

/// What the player believes of the enemy's pieces: a distribution per
/// point, read where the position does not name the piece.
struct Kinds {
    at: [Dist; NUM_POINTS],
    /// One point whose distribution an outcome has narrowed.
    narrowed: Option<(Point, Dist)>,
}

impl Kinds {
    fn of(view: &Position, game: Option<(&Position, &[Token])>, settings: BeliefSettings, rng: &mut Rng) -> Kinds {
        let mut at = [[0.0; NUM_KINDS]; NUM_POINTS];
        if let Some(us) = view.side_to_move() {
            for p in view.pieces(us.opposite()) {
                at[p.index()] = kind_distribution(view, p, false);
            }
        }
        if let Some(viewer) = belief::viewer_of(view) {
            let (b, w) = belief::for_view(game, view, viewer, settings);
            for (p, m) in belief::marginals(&b, w, SAMPLES, rng) {
                at[p.index()] = m;
            }
        }
        Kinds { at, narrowed: None }
    }

    /// The distribution of the piece at `p` in `pos`.
    fn get(&self, pos: &Position, p: Point) -> Dist {
        if let Some(k) = pos.kind_at(p) {
            let mut d = [0.0; NUM_KINDS];
            d[k.index()] = 1.0;
            return d;
        }
        match self.narrowed {
            Some((q, d)) if q == p => d,
            _ => self.at[p.index()],
        }
    }
}

/// Whether `owner`'s opponent knows where `owner`'s flag stands, in a
/// position seen by `viewer`: the viewer knows the enemy's flag when its
/// position names it; the enemy knows the viewer's in `open`, face up in
/// `flip`, and in `classic` once the viewer's Marshal fell where that
/// shows the flag.
fn flag_known(pos: &Position, owner: Colour, viewer: Colour) -> bool {
    if owner != viewer {
        return pos.pieces_of(owner, Some(Kind::Flag)).any();
    }
    match pos.rules().mode {
        Mode::Open => true,
        Mode::Flip => pos.pieces_of(owner, Some(Kind::Flag)).any(),
        Mode::Classic => pos.rules().marshal_reveals_flag && pos.removed_count(owner, Some(Kind::Marshal)) > 0,
    }
}

/// What `owner` loses with a piece of kind `k` in `pos`, seen by `viewer`.
fn worth(pos: &Position, owner: Colour, k: Kind, viewer: Colour) -> f32 {
    match k {
        Kind::Flag => WIN,
        Kind::Marshal if pos.rules().marshal_reveals_flag && !flag_known(pos, owner, viewer) => value(k) + FLAG_SHOWN,
        _ => value(k),
    }
}

/// Whether a piece of kind `k` at `from` can make the attack onto `to`
/// (one link or one straight railway line; only an Engineer turns).
fn reaches(pos: &Position, k: Kind, from: Point, to: Point) -> bool {
    k == Kind::Engineer || ADJACENT[from.index()].contains(to) || slides(from, pos.occupied()).1.contains(to)
}

/// How far `us`'s movable pieces other than the Marshal and the General
/// have advanced, in ranks.
fn advance(pos: &Position, us: Colour) -> f32 {
    let fixed = pos.pieces_of(us, Some(Kind::Mine)) | pos.pieces_of(us, Some(Kind::Flag));
    let big = pos.pieces_of(us, Some(Kind::Marshal)) | pos.pieces_of(us, Some(Kind::General));
    let ranks: u32 = (pos.pieces(us) - fixed - big)
        .into_iter()
        .map(|p| u32::from(if us == Colour::Red { p.rank() } else { 11 - p.rank() }))
        .sum();
    ranks as f32
}

/// One decision: the side choosing, what it believes, scratch space.
struct Expert {
    us: Colour,
    kinds: Kinds,
    buf: Vec<Action>,
    /// A multiple of the big pieces' extra risk in their own attacks
    /// ([`BIG_RISK`], [`BIGGEST_RISK`]): 1 for the player.
    caution: f32,
}

impl Expert {
    /// The material the attacker's side gains when `a` (of `attacker`)
    /// attacks `d`, with the extra cost of a big piece's loss when
    /// `cautious`.
    fn gain(&self, pos: &Position, attacker: Colour, a: Kind, d: Kind, cautious: bool) -> (Outcome, f32) {
        let defender = attacker.opposite();
        let o = combat(pos.rules(), a, d, pos.mines_cleared(defender));
        let risk = match a {
            _ if !cautious => 0.0,
            Kind::MajorGeneral => BIG_RISK,
            Kind::General | Kind::Marshal => BIGGEST_RISK,
            _ => 0.0,
        };
        let lost = worth(pos, attacker, a, self.us) * (1.0 + risk * self.caution);
        let won = worth(pos, defender, d, self.us);
        let g = match o {
            Outcome::AttackerWins => won,
            Outcome::DefenderWins => -lost,
            Outcome::BothRemoved => won - lost,
        };
        (o, g)
    }

    /// The expected gain of the attack `from`x`to` for the side to move of
    /// `pos`. `pessimistic` (the enemy's attacks on us): each kind the
    /// attacker may be attacks only where it gains, as if it knew our
    /// piece, though a flag it does not know is worth only
    /// [`HIDDEN_FLAG_SHARE`] to it; otherwise (ours) at our own risk.
    fn attack_value(&self, pos: &Position, from: Point, to: Point, pessimistic: bool) -> f32 {
        let Some(mover) = pos.side_to_move() else {
            return 0.0;
        };
        let (pa, pd) = (self.kinds.get(pos, from), self.kinds.get(pos, to));
        let mut total = 0.0;
        for a in Kind::ALL {
            let wa = pa[a.index()];
            if wa == 0.0 || !a.is_movable() || !reaches(pos, a, from, to) {
                continue;
            }
            let mut sum = 0.0;
            for d in Kind::ALL {
                let wd = pd[d.index()];
                if wd == 0.0 {
                    continue;
                }
                let mut g = self.gain(pos, mover, a, d, false).1;
                if pessimistic {
                    if d == Kind::Flag && !flag_known(pos, mover.opposite(), self.us) {
                        g *= HIDDEN_FLAG_SHARE;
                    }
                    g = g.max(0.0);
                }
                sum += wd * g;
            }
            total += wa * if pessimistic { sum } else { sum.max(0.0) };
        }
        total
    }

    /// The best and second-best capture values for the side to move of `pos`.
    fn best_two(&mut self, pos: &Position, pessimistic: bool) -> (f32, f32) {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        pos.legal_actions(&mut buf);
        let mut best = (0.0f32, 0.0f32);
        for a in buf.iter().filter(|a| a.kind() == ActionKind::Attack) {
            let v = self.attack_value(pos, a.from(), a.to(), pessimistic);
            if v > best.0 {
                best = (v, best.0);
            } else if v > best.1 {
                best.1 = v;
            }
        }
        self.buf = buf;
        best
    }

    /// The probability that the piece at `p` (of `owner`) can capture the
    /// other side's flag.
    fn can_take_flag(&self, pos: &Position, p: Point, owner: Colour) -> f32 {
        let d = self.kinds.get(pos, p);
        let cleared = pos.mines_cleared(owner.opposite());
        let able = |k: &Kind| attack_allowed(pos.rules(), *k, Kind::Flag, cleared);
        Kind::ALL.iter().filter(|k| able(k)).map(|k| d[k.index()]).sum()
    }

    /// The flag race in `pos`: our pieces' approach to a known enemy flag,
    /// less the enemy's approach to ours where the enemy knows it.
    fn flag_race(&self, pos: &Position) -> f32 {
        let (us, them) = (self.us, self.us.opposite());
        let mut s = 0.0;
        if let Some(flag) = pos.pieces_of(them, Some(Kind::Flag)).first() {
            let dist = actions_to(pos, flag, us, MAX_LIMIT);
            let mut near = [f32::INFINITY; 2];
            for p in pos.pieces(us) {
                if self.can_take_flag(pos, p, us) > 0.0 {
                    let d = f32::from(dist[p.index()]);
                    if d < near[0] {
                        near = [d, near[0]];
                    } else if d < near[1] {
                        near[1] = d;
                    }
                }
            }
            s += RACE / near[0] + 0.5 * RACE / near[1];
        }
        let ours = pos.pieces_of(us, Some(Kind::Flag)).first().filter(|_| flag_known(pos, us, us));
        if let Some(flag) = ours {
            let dist = actions_to(pos, flag, them, DANGER.len() as u8);
            for p in pos.pieces(them) {
                if let Some(&danger) = DANGER.get(usize::from(dist[p.index()])) {
                    s -= danger * self.can_take_flag(pos, p, them);
                }
            }
        }
        s
    }

    /// The value for us of `pos` after our action (the opponent to move),
    /// apart from the material the action itself won.
    fn after(&mut self, pos: &Position) -> f32 {
        let us = self.us;
        if let Some(r) = pos.outcome() {
            return match r.winner {
                Some(w) if w == us => WIN,
                Some(_) => -WIN,
                None => 0.0,
            };
        }
        let (first, second) = self.best_two(pos, true);
        let mut s = -(first + SECOND_THREAT * second);
        s += OWN_NEXT * self.best_two(&pos.with_side_to_move(us), false).0;
        s += self.flag_race(pos);
        let rules = pos.rules();
        if rules.has_deployment() {
            s += PULL * advance(pos, us);
        } else if rules.quiet_limit > 0 {
            let a = f32::from(pos.quiet()) / f32::from(rules.quiet_limit);
            let count = f32::from(pos.on_board(us)) - f32::from(pos.on_board(us.opposite()));
            s += COUNT * a * a * count;
        }
        s
    }

    /// The score of `action` in `pos`.
    fn score(&mut self, pos: &Position, action: Action) -> f32 {
        match action.kind() {
            ActionKind::Flip => over_flip(pos, action, |child| self.after(child)),
            ActionKind::Move => {
                let mut child = pos.clone();
                child.play_move(action.from(), action.to());
                self.after(&child)
            }
            ActionKind::Attack => self.attack_score(pos, action),
        }
    }

    /// An attack: each outcome with its probability, the defender's kinds
    /// narrowed by it where it stays.
    fn attack_score(&mut self, pos: &Position, action: Action) -> f32 {
        let (from, to) = (action.from(), action.to());
        let Some(a) = pos.kind_at(from) else {
            return 0.0;
        };
        let pd = self.kinds.get(pos, to);
        let mut by_outcome = [[0.0f32; NUM_KINDS]; 3];
        let mut s = 0.0;
        for d in Kind::ALL {
            let w = pd[d.index()];
            if w == 0.0 {
                continue;
            }
            let (o, g) = self.gain(pos, self.us, a, d, true);
            s += w * g;
            // A flag taken wins: nothing follows.
            if !(d == Kind::Flag && o == Outcome::AttackerWins) {
                by_outcome[o as usize][d.index()] = w;
            }
        }
        for o in Outcome::ALL {
            let dist = by_outcome[o as usize];
            let p: f32 = dist.iter().sum();
            if p == 0.0 {
                continue;
            }
            let mut child = pos.clone();
            child.play_attack(from, to, o, None);
            self.kinds.narrowed = (o == Outcome::DefenderWins).then(|| (to, dist.map(|x| x / p)));
            s += p * self.after(&child);
            self.kinds.narrowed = None;
        }
        if pos.kind_at(to).is_none() && a.rank().is_some_and(|r| (2..=PROBE_RANK).contains(&r)) {
            let certainty = pd.iter().fold(0.0f32, |m, &x| m.max(x));
            s += PROBE * (1.0 - certainty);
        }
        s
    }
}

/// The expert score of every legal action of `view` (the history `game`
/// led to it, when known: the belief reads it), in the order of
/// [`Position::legal_actions`]; empty when there is none, or before the
/// first flip of a flip game (every point alike).
pub fn scores(
    view: &Position,
    game: Option<(&Position, &[Token])>,
    settings: BeliefSettings,
    rng: &mut Rng,
) -> Vec<(Action, f32)> {
    scores_with_caution(view, game, settings, 1.0, rng).0
}

/// [`scores`] with the big pieces' extra risk in their own attacks
/// multiplied by `caution` (1: the player's own), and what the expert
/// believed of each point's enemy piece (a distribution per point, indexed
/// by [`Point::index`]; all zero where no unnamed enemy piece stands), for
/// [`scores_given`] to read later.
pub fn scores_with_caution(
    view: &Position,
    game: Option<(&Position, &[Token])>,
    settings: BeliefSettings,
    caution: f32,
    rng: &mut Rng,
) -> (Vec<(Action, f32)>, Vec<Dist>) {
    score_all(view, caution, || Kinds::of(view, game, settings, rng))
        .map_or_else(|| (Vec::new(), Vec::new()), |(scored, kinds)| (scored, kinds.at.to_vec()))
}

/// The expert score of every legal action of `view`, in the order of
/// [`Position::legal_actions`], each unnamed enemy piece believed to be
/// distributed as `at` says for its point (see [`scores_with_caution`]).
pub fn scores_given(view: &Position, at: &[Dist]) -> Vec<(Action, f32)> {
    let kinds = || {
        let mut kinds = Kinds { at: [[0.0; NUM_KINDS]; NUM_POINTS], narrowed: None };
        let n = at.len().min(NUM_POINTS);
        kinds.at[..n].copy_from_slice(&at[..n]);
        kinds
    };
    score_all(view, 1.0, kinds).map_or_else(Vec::new, |(scored, _)| scored)
}

/// Every legal action of `view` scored by an expert with the caution
/// `caution` and the belief `kinds` (made only when there is an action to
/// score), with that belief; `None` when the side to move has no action.
fn score_all(view: &Position, caution: f32, kinds: impl FnOnce() -> Kinds) -> Option<(Vec<(Action, f32)>, Kinds)> {
    let mut actions = Vec::new();
    view.legal_actions(&mut actions);
    let us = view.side_to_move().filter(|_| !actions.is_empty())?;
    let mut expert = Expert { us, kinds: kinds(), buf: Vec::with_capacity(actions.len()), caution };
    let scored = actions.into_iter().map(|a| (a, expert.score(view, a))).collect();
    Some((scored, expert.kinds))
}

/// The expert choice for the side to move of `view` (see [`scores`]), ties
/// broken by `rng`, or `None` when there is no legal action.
pub fn choose(
    view: &Position,
    game: Option<(&Position, &[Token])>,
    settings: BeliefSettings,
    rng: &mut Rng,
) -> Option<Choice> {
    let scored = scores(view, game, settings, rng);
    if scored.is_empty() {
        // No action, or the first flip of a flip game: every point is alike.
        let mut actions = Vec::new();
        view.legal_actions(&mut actions);
        let action = *actions.get(rng.random_range(0..actions.len().max(1)))?;
        return Some(Choice { action, score: 0.0, nodes: actions.len() as u64 });
    }
    let nodes = scored.len() as u64;
    let mut best: Option<(f32, Action, f32)> = None;
    for (a, s) in scored {
        let key = s + rng.random::<f32>();
        if best.is_none_or(|(k, _, _)| key > k) {
            best = Some((key, a, s));
        }
    }
    best.map(|(_, action, score)| Choice { action, score, nodes })
}

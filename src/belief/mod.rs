//! What the enemy's pieces can be, in `classic`: the hard facts a history
//! proves about each enemy piece (the deployment rules, that a piece moved,
//! that it turned on the railway, what each combat outcome allows, reveals,
//! the flag shown when a Marshal falls), soft evidence from how pieces
//! behaved, and (in `sampler`) complete worlds drawn consistently with all
//! of it.
//!
//! The belief is rebuilt from scratch from the position the history starts
//! at and the history itself, so the engine never needs anything else.

pub mod evidence;
mod evidence_table;
pub mod sampler;

use std::fmt;

use crate::action::{Action, ActionKind, Token};
use crate::board::topology::{ADJACENT, BACK_TWO_RANKS, FRONT_RANK, OWN_HQS, RAILWAY};
use crate::board::{Bitboard, Point};
use crate::combat::{Outcome, combat};
use crate::movegen::slides;
use crate::piece::{ARMY, Colour, Kind, NUM_KINDS, Piece};
use crate::position::{PlayError, Position};
use crate::rules::Rules;

/// A set of kinds, bit `k` for `Kind` index `k`.
pub type KindSet = u16;

/// Every kind.
pub const ALL_KINDS: KindSet = (1 << NUM_KINDS) - 1;

/// The set holding one kind.
#[inline]
pub const fn only(k: Kind) -> KindSet {
    1 << k as u16
}

/// Kinds that never move.
pub const IMMOBILE: KindSet = only(Kind::Mine) | only(Kind::Flag);

/// Whether `set` holds `k`.
#[inline]
pub const fn has(set: KindSet, k: Kind) -> bool {
    set >> k as u16 & 1 != 0
}

/// The kinds of a set, in index order.
pub fn kinds_of(set: KindSet) -> impl Iterator<Item = Kind> {
    Kind::ALL.into_iter().filter(move |&k| has(set, k))
}

/// One enemy piece, followed through the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnemyPiece {
    /// Where it stands; `None` once removed.
    pub at: Option<Point>,
    /// Where it stood at the start (known when the history starts at ply 0).
    pub start: Option<Point>,
    /// The kinds it can still be.
    pub kinds: KindSet,
    /// Actions it made (moves and attacks).
    pub moves: u16,
    /// Attacks it made.
    pub attacks: u16,
}

/// The belief of `viewer` about the enemy's 25 pieces.
#[derive(Clone, Debug, PartialEq)]
pub struct Belief {
    /// Whose belief.
    pub viewer: Colour,
    /// The enemy's pieces: on the board first, then removed ones.
    pub pieces: Vec<EnemyPiece>,
    /// The rules the facts were read under.
    pub rules: Rules,
    /// Facts that contradicted earlier ones and were set aside.
    pub contradictions: u32,
    /// The enemy's flag has been revealed.
    pub flag_revealed: bool,
}

/// Why a history could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BeliefError {
    /// The side to move is not assigned (a flip game before its first flip).
    NoSide,
    /// A token does not apply.
    Token {
        /// Its index in the history, from 0.
        index: usize,
        /// Why.
        error: PlayError,
    },
}

impl fmt::Display for BeliefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BeliefError::NoSide => f.write_str("no side to move"),
            BeliefError::Token { index, error } => write!(f, "history token {}: {error}", index + 1),
        }
    }
}

impl std::error::Error for BeliefError {}

/// Points a piece that cannot turn on the railway could reach from `from`
/// in `pos`, moving or attacking: its links and the straight railway lines.
fn straight_reach(pos: &Position, from: Point) -> Bitboard {
    let mut reach = ADJACENT[from.index()];
    if RAILWAY.contains(from) {
        let (empty, blockers) = slides(from, pos.occupied());
        reach |= empty | blockers;
    }
    reach
}

/// What the deployment rules prove about an unseen piece of `owner` on `p`
/// in `base`: off its side's HQs it is not the flag, off its side's last
/// two ranks not a mine (neither ever moves); at ply 0 on its side's front
/// rank not a bomb.
fn deployment_facts(base: &Position, p: Point, owner: Colour) -> KindSet {
    let oi = owner.index();
    let mut set = ALL_KINDS;
    if !OWN_HQS[oi].contains(p) {
        set &= !only(Kind::Flag);
    }
    if !BACK_TWO_RANKS[oi].contains(p) {
        set &= !only(Kind::Mine);
    }
    if base.ply() == 0 && FRONT_RANK[oi].contains(p) {
        set &= !only(Kind::Bomb);
    }
    set
}

impl Belief {
    /// The facts `base` alone proves about the enemy of `viewer`: a piece
    /// off its side's HQs is not the flag, one off its side's last two ranks
    /// is not a mine (neither ever moves); at ply 0 a piece on its side's
    /// front rank is not a bomb; a removed piece is not the flag while the
    /// game goes on.
    pub fn new(base: &Position, viewer: Colour) -> Belief {
        let enemy = viewer.opposite();
        let mut pieces = Vec::with_capacity(25);
        for p in base.pieces(enemy) {
            let kinds = match base.kind_at(p) {
                Some(k) => only(k),
                None => deployment_facts(base, p, enemy),
            };
            let start = if base.ply() == 0 { Some(p) } else { None };
            pieces.push(EnemyPiece { at: Some(p), start, kinds, moves: 0, attacks: 0 });
        }
        let removed = |kinds| EnemyPiece { at: None, start: None, kinds, moves: 0, attacks: 0 };
        for k in Kind::ALL {
            for _ in 0..base.removed_count(enemy, Some(k)) {
                pieces.push(removed(only(k)));
            }
        }
        for _ in 0..base.removed_count(enemy, None) {
            pieces.push(removed(ALL_KINDS & !only(Kind::Flag)));
        }
        let flag_revealed = base.pieces_of(enemy, Some(Kind::Flag)).any();
        Belief { viewer, pieces, rules: *base.rules(), contradictions: 0, flag_revealed }
    }

    /// The belief after `tokens` played from `base`, and the position they
    /// lead to.
    ///
    /// # Errors
    /// A token that does not apply (the same checks as `position`).
    pub fn from_history(base: &Position, viewer: Colour, tokens: &[Token]) -> Result<(Belief, Position), BeliefError> {
        Belief::new(base, viewer).read(base, tokens, |_, _, _, _| {})
    }

    /// What `viewer`'s enemy can know of `viewer`'s own pieces after
    /// `tokens` from `base` (`viewer`'s view), as the enemy's belief (its
    /// `viewer` is the enemy): the deployment rules, that a piece moved or
    /// turned on the railway, the flag shown when the Marshal fell. A piece
    /// that won a combat, and one removed, is taken as known to the enemy
    /// (it learned at least a bound on it, often its kind). What else the
    /// enemy learned from its own pieces' combats is not modelled: the
    /// enemy's kinds are not known here.
    ///
    /// # Errors
    /// A token that does not apply.
    pub fn of_own_pieces(base: &Position, viewer: Colour, tokens: &[Token]) -> Result<(Belief, Position), BeliefError> {
        let mut belief = Belief::new(base, viewer.opposite());
        for (e, p) in belief.pieces.iter_mut().zip(base.pieces(viewer)) {
            e.kinds = deployment_facts(base, p, viewer);
        }
        belief.read(base, tokens, |belief, pos, token, removed| {
            let Token::Attack { from, to, outcome, .. } = token else {
                return;
            };
            let ours = |p: Point| pos.cell(p).piece().filter(|pc| pc.colour == viewer).and_then(|pc| pc.kind);
            if let Some(k) = ours(from) {
                match removed {
                    Some(i) => belief.restrict(i, only(k)),
                    None if outcome == Outcome::AttackerWins => {
                        if let Some(i) = belief.piece_at(to) {
                            belief.restrict(i, only(k));
                        }
                    }
                    None => {}
                }
            } else if let Some(k) = ours(to) {
                let winner = (outcome == Outcome::DefenderWins).then(|| belief.piece_at(to)).flatten();
                if let Some(i) = removed.or(winner) {
                    belief.restrict(i, only(k));
                }
            }
        })
    }

    /// Reads `tokens` played from `base` into the belief; `learned` sees
    /// each token with the position before it and the index of the piece it
    /// removed, after the belief observed it.
    fn read(
        mut self,
        base: &Position,
        tokens: &[Token],
        mut learned: impl FnMut(&mut Belief, &Position, Token, Option<usize>),
    ) -> Result<(Belief, Position), BeliefError> {
        let viewer = self.viewer;
        let belief = &mut self;
        let mut pos = base.clone();
        for (index, &token) in tokens.iter().enumerate() {
            let removed = belief.observe(&pos, token);
            learned(belief, &pos, token, removed);
            pos.apply_token(token).map_err(|error| BeliefError::Token { index, error })?;
            // The referee shows a side's flag right after its Marshal falls:
            // an enemy piece removed by this ply was the Marshal exactly when
            // the enemy flag is shown next.
            if let Some(i) = removed {
                // Taking the flag ends the game: a piece removed with the
                // game going on (an action follows) was not the flag.
                if action_follows(&tokens[index + 1..]) {
                    belief.restrict(i, ALL_KINDS & !only(Kind::Flag));
                }
                if belief.rules.marshal_reveals_flag && !belief.flag_revealed {
                    let enemy = viewer.opposite();
                    let shows_flag = tokens[index + 1..]
                        .iter()
                        .take_while(|t| matches!(t, Token::Show { .. }))
                        .any(|t| matches!(t, Token::Show { piece, .. } if *piece == Piece::new(enemy, Kind::Flag)));
                    if shows_flag {
                        belief.restrict(i, only(Kind::Marshal));
                    } else {
                        belief.restrict(i, ALL_KINDS & !only(Kind::Marshal));
                    }
                }
            }
        }
        Ok((self, pos))
    }

    /// The enemy piece standing on `p`.
    pub fn piece_at(&self, p: Point) -> Option<usize> {
        self.pieces.iter().position(|e| e.at == Some(p))
    }

    /// Narrows piece `i` to `set`; a fact that leaves nothing is set aside.
    fn restrict(&mut self, i: usize, set: KindSet) {
        let narrowed = self.pieces[i].kinds & set;
        if narrowed == 0 {
            self.contradictions += 1;
        } else {
            self.pieces[i].kinds = narrowed;
        }
    }

    /// Reads one token played in `pos` (before it is applied). Returns the
    /// enemy piece the token removed, if any.
    fn observe(&mut self, pos: &Position, token: Token) -> Option<usize> {
        let enemy = self.viewer.opposite();
        let (action, outcome, loser) = match token {
            Token::Show { at, piece } => {
                if piece.colour == enemy && pos.cell(at) != crate::position::Cell::FaceDown {
                    if let (Some(i), Some(k)) = (self.piece_at(at), piece.kind) {
                        self.restrict(i, only(k));
                        if k == Kind::Flag {
                            self.flag_revealed = true;
                        }
                    }
                }
                return None;
            }
            Token::Action(a) => (a, pos.attack_outcome(a.from(), a.to()), None),
            Token::Attack { from, to, outcome, loser } => (Action::attack(from, to), Some(outcome), loser),
        };
        let mover = pos.side_to_move()?;
        match action.kind() {
            ActionKind::Flip => None,
            ActionKind::Move => {
                if mover == enemy {
                    if let Some(i) = self.piece_at(action.from()) {
                        self.moved(pos, i, action);
                        self.pieces[i].at = Some(action.to());
                    }
                }
                None
            }
            ActionKind::Attack => {
                let outcome = outcome?;
                let rules = self.rules;
                if mover == enemy {
                    let i = self.piece_at(action.from())?;
                    self.moved(pos, i, action);
                    self.pieces[i].attacks += 1;
                    if let Some(d) = pos.kind_at(action.to()) {
                        let cleared = pos.mines_cleared(self.viewer);
                        let fits = kinds_of(ALL_KINDS & !IMMOBILE)
                            .filter(|&k| combat(&rules, k, d, cleared) == outcome)
                            .fold(0, |s, k| s | only(k));
                        self.restrict(i, fits);
                    }
                    if let Some(l) = loser.filter(|l| l.colour == enemy && outcome == Outcome::DefenderWins) {
                        if let Some(k) = l.kind {
                            self.restrict(i, only(k));
                        }
                    }
                    match outcome {
                        Outcome::AttackerWins => {
                            self.pieces[i].at = Some(action.to());
                            None
                        }
                        Outcome::DefenderWins | Outcome::BothRemoved => {
                            self.pieces[i].at = None;
                            Some(i)
                        }
                    }
                } else {
                    let i = self.piece_at(action.to())?;
                    if let Some(a) = pos.kind_at(action.from()) {
                        let cleared = pos.mines_cleared(enemy);
                        let fits = kinds_of(ALL_KINDS)
                            .filter(|&k| combat(&rules, a, k, cleared) == outcome)
                            .fold(0, |s, k| s | only(k));
                        self.restrict(i, fits);
                    }
                    if let Some(l) = loser.filter(|l| l.colour == enemy && outcome == Outcome::AttackerWins) {
                        if let Some(k) = l.kind {
                            self.restrict(i, only(k));
                        }
                    }
                    if outcome.defender_removed() {
                        self.pieces[i].at = None;
                        Some(i)
                    } else {
                        None
                    }
                }
            }
        }
    }

    /// An enemy piece moved (or attacked): it is neither mine nor flag, and
    /// if no piece but an engineer could have gone that way, an engineer.
    fn moved(&mut self, pos: &Position, i: usize, action: Action) {
        self.pieces[i].moves += 1;
        self.restrict(i, ALL_KINDS & !IMMOBILE);
        if !straight_reach(pos, action.from()).contains(action.to()) {
            self.restrict(i, only(Kind::Engineer));
        }
    }

    /// Pieces of each kind not yet pinned to a piece whose kind is certain.
    pub fn open_counts(&self) -> [u8; NUM_KINDS] {
        let mut left = ARMY;
        for e in &self.pieces {
            if e.kinds.count_ones() == 1 {
                let k = e.kinds.trailing_zeros() as usize;
                left[k] = left[k].saturating_sub(1);
            }
        }
        left
    }

    /// The belief with only what counting proves: every piece on the board
    /// may be any kind its side still has (for measuring what inference adds).
    pub fn uniform(base: &Position, viewer: Colour) -> Belief {
        let mut b = Belief::new(base, viewer);
        for e in &mut b.pieces {
            if e.kinds.count_ones() > 1 {
                e.kinds = ALL_KINDS;
            }
        }
        b
    }
}

/// Why a complete world does not explain a history (see [`explains`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unexplained {
    /// Index of the token in the history.
    pub index: usize,
    /// The token.
    pub token: Token,
    /// What the world does differently.
    pub why: &'static str,
}

impl fmt::Display for Unexplained {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "token {} ({}): {}", self.index, self.token, self.why)
    }
}

impl std::error::Error for Unexplained {}

/// Whether an action comes in `tokens` (the rest of a history): the game
/// went on, where only the referee's reveals follow the last ply.
fn action_follows(tokens: &[Token]) -> bool {
    tokens.iter().any(|t| !matches!(t, Token::Show { .. }))
}

/// Whether a full-knowledge start position (a sampled world with every
/// piece named) explains what a side was told: replayed there, every action
/// is legal and every combat outcome and reveal is the one the history
/// records. The check behind the tests of the world sampler.
///
/// # Errors
/// The first token the world does not explain.
pub fn explains(world_start: &Position, told: &[Token]) -> Result<(), Unexplained> {
    let mut w = world_start.clone();
    for (index, &token) in told.iter().enumerate() {
        let fail = |why| Err(Unexplained { index, token, why });
        match token {
            Token::Attack { from, to, outcome, .. } => {
                if !w.is_legal(Action::attack(from, to)) {
                    return fail("the attack is illegal in the world");
                }
                match w.attack_outcome(from, to) {
                    None => return fail("the world leaves a kind unknown"),
                    Some(o) if o != outcome => return fail("the world gives another outcome"),
                    Some(o) => w.play_attack(from, to, o, None),
                }
                if action_follows(&told[index + 1..]) && w.outcome_without_actions().is_some() {
                    return fail("the world's game is over before the history's");
                }
            }
            Token::Action(a) => {
                if !w.is_legal(a) {
                    return fail("the action is illegal in the world");
                }
                w.play_known(a, None);
            }
            Token::Show { at, piece } => {
                if w.cell(at).piece() != Some(piece) {
                    return fail("the world has another piece there");
                }
            }
        }
    }
    Ok(())
}

/// How a belief about a view is formed (the `BeliefModel` and
/// `SoftEvidence` options).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BeliefSettings {
    /// Believe only the counts, no inference (a baseline for measuring
    /// what the inference adds).
    pub uniform: bool,
    /// Weigh worlds by the soft evidence (where pieces started, how they
    /// behaved) on top of the hard facts.
    pub soft_evidence: bool,
}

impl Default for BeliefSettings {
    fn default() -> BeliefSettings {
        BeliefSettings { uniform: false, soft_evidence: true }
    }
}

/// Soft-evidence weights of each kind for each enemy piece, in
/// [`Belief::pieces`] order.
pub type Weights = Vec<[f32; NUM_KINDS]>;

/// The side that sees `pos` as a view of the refereed hidden game: the side
/// to move, when some enemy piece is of unknown kind.
pub fn viewer_of(pos: &Position) -> Option<Colour> {
    pos.side_to_move().filter(|&s| pos.pieces_of(s.opposite(), None).any())
}

/// The belief behind `view` for `viewer`, and its soft-evidence weights:
/// from the game's history (`base` and the tokens played from it) when it
/// leads to `view`, from `view` alone otherwise. The one place both the
/// search and the engine's `d` form it.
pub fn for_view(
    game: Option<(&Position, &[Token])>,
    view: &Position,
    viewer: Colour,
    settings: BeliefSettings,
) -> (Belief, Option<Weights>) {
    if settings.uniform {
        return (Belief::uniform(view, viewer), None);
    }
    let from_history = game
        .and_then(|(base, history)| Belief::from_history(base, viewer, history).ok())
        .and_then(|(belief, end)| (end == *view).then_some(belief));
    let belief = from_history.unwrap_or_else(|| Belief::new(view, viewer));
    let weights = settings.soft_evidence.then(|| evidence::EvidenceModel::shipped().weights(&belief, view.ply()));
    (belief, weights)
}

/// The probability of each kind for every enemy piece on the board,
/// estimated from `samples` sampled worlds (soft-evidence `weights` as in
/// [`sampler::WorldSampler::new`]), in board order.
pub fn marginals(
    belief: &Belief,
    weights: Option<Weights>,
    samples: usize,
    rng: &mut crate::random::Rng,
) -> Vec<(Point, [f32; NUM_KINDS])> {
    let on_board: Vec<(usize, Point)> =
        belief.pieces.iter().enumerate().filter_map(|(i, e)| e.at.map(|p| (i, p))).collect();
    let mut counts = vec![[0f32; NUM_KINDS]; on_board.len()];
    if let Some(mut s) = sampler::WorldSampler::new(belief, weights, rng) {
        for _ in 0..samples {
            let a = s.next(rng);
            for (c, &(i, _)) in counts.iter_mut().zip(&on_board) {
                c[a[i].index()] += 1.0;
            }
        }
    }
    let mut out: Vec<(Point, [f32; NUM_KINDS])> = on_board
        .iter()
        .zip(counts)
        .map(|(&(_, p), mut c)| {
            let total: f32 = c.iter().sum::<f32>().max(1.0);
            c.iter_mut().for_each(|x| *x /= total);
            (p, c)
        })
        .collect();
    out.sort_by_key(|(p, _)| *p);
    out
}

//! What a seat can know of the pieces it does not see in `siguo`: the
//! hard facts of the two-player belief ([`crate::belief`]) extended to the
//! other three seats (the partner's too unless `PartnerVisible`), read
//! from the seat's view and the history the referee told it, and complete
//! worlds drawn consistently with them.
//!
//! The facts, for every unseen piece: the deployment rules (the flag only
//! on its own arm's headquarters, landmines only on its own arm's last two
//! ranks, neither ever moves; at the deployment no bomb on the front rank);
//! a piece that moved is neither landmine nor flag, one that turned on the
//! railway is an Engineer; a combat against a piece whose kind the seat
//! knows bounds the other's kind (both unseen: only that the attacker
//! moves); a loser named (`WinnerLearnsLoser`) and every reveal; a piece
//! removed just before its owner's flag is shown was the Marshal, one
//! removed without it was not (`MarshalRevealsFlag`); a removed piece was
//! not the flag while its seat is in. Each unseen seat's 25 pieces (those
//! removed included) take exactly its army's kinds, so worlds come from
//! the two-player sampler, one per seat.

use super::movegen::slides;
use super::position::{Piece, Position, siguo_combat};
use super::token::{ApplyError, SiguoToken};
use super::topology::{ADJACENT, NUM_POINTS, Point, RAILWAY, Seat};
use crate::belief::sampler::WorldSampler;
use crate::belief::{ALL_KINDS, IMMOBILE, KindSet, kinds_of, only};
use crate::combat::Outcome;
use crate::piece::{ARMY, Kind};
use crate::random::Rng;

/// Pieces of a seat's army.
const ARMY_SIZE: usize = 25;

/// One unseen piece, followed through the history.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Unseen {
    /// Where it stands; `None` once removed.
    pub at: Option<Point>,
    /// The kinds it can still be.
    pub kinds: KindSet,
}

/// What the viewer knows of one unseen seat's 25 pieces.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SeatBelief {
    /// The seat.
    pub seat: Seat,
    /// Its pieces: on the board first (in the order they stood at the
    /// start), then those removed before the start.
    pub pieces: Vec<Unseen>,
    /// Its flag has been shown.
    pub flag_shown: bool,
}

/// The belief of `viewer` about every seat whose kinds it does not see.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SiguoBelief {
    /// Whose belief.
    pub viewer: Seat,
    /// The unseen seats still in, in seat order.
    pub seats: Vec<SeatBelief>,
    /// Facts that contradicted earlier ones and were set aside.
    pub contradictions: u32,
}

/// What the deployment rules prove about an unseen piece of `owner` on `p`:
/// off its own headquarters not the flag, off its own last two ranks not a
/// landmine; at the deployment not a bomb on its front rank.
fn deployment_facts(p: Point, owner: Seat, at_deployment: bool) -> KindSet {
    let own_arm = p.region() == super::topology::Region::Arm(owner);
    let mut set = ALL_KINDS;
    if !(own_arm && p.rank() == 1 && (p.file() == 1 || p.file() == 3)) {
        set &= !only(Kind::Flag);
    }
    if !(own_arm && p.rank() <= 2) {
        set &= !only(Kind::Mine);
    }
    if at_deployment && own_arm && p.rank() == 6 {
        set &= !only(Kind::Bomb);
    }
    set
}

/// Points a piece that cannot turn on the railway could reach from `from`:
/// its links and the straight railway rays.
fn straight_reach(pos: &Position, from: Point) -> super::PointSet {
    let mut reach = ADJACENT[from.index()];
    if RAILWAY.contains(from) {
        let (empty, blockers) = slides(from, pos.occupied());
        reach |= empty | blockers;
    }
    reach
}

/// Whether the viewer sees the kinds of `seat`'s pieces in `view`.
fn sees(view: &Position, viewer: Seat, seat: Seat) -> bool {
    seat == viewer || (seat == viewer.partner() && view.settings().partner_visible)
}

impl SiguoBelief {
    /// The facts `view` alone proves (`at_deployment`: it is the deployed
    /// board before any ply, where the bomb rule of the front rank holds).
    pub fn new(view: &Position, viewer: Seat, at_deployment: bool) -> SiguoBelief {
        let mut seats = Vec::new();
        for seat in Seat::ALL {
            if view.is_out(seat) || sees(view, viewer, seat) {
                continue;
            }
            let mut pieces: Vec<Unseen> = view
                .pieces(seat)
                .into_iter()
                .map(|p| {
                    let kinds = match view.cell(p).and_then(|pc| pc.kind) {
                        Some(k) => only(k),
                        None => deployment_facts(p, seat, at_deployment),
                    };
                    Unseen { at: Some(p), kinds }
                })
                .collect();
            // Pieces removed before: any kind but the flag (its seat is in).
            while pieces.len() < ARMY_SIZE {
                pieces.push(Unseen { at: None, kinds: ALL_KINDS & !only(Kind::Flag) });
            }
            let flag_shown =
                view.pieces(seat).into_iter().any(|p| view.cell(p).and_then(|pc| pc.kind) == Some(Kind::Flag));
            seats.push(SeatBelief { seat, pieces, flag_shown });
        }
        SiguoBelief { viewer, seats, contradictions: 0 }
    }

    /// The belief after `tokens` told from `start` (the viewer's view where
    /// the history starts; `at_deployment` as in [`SiguoBelief::new`]), and
    /// the view they lead to.
    ///
    /// # Errors
    /// A token that does not apply ([`Position::apply_token`]).
    pub fn from_history(
        start: &Position,
        viewer: Seat,
        tokens: &[SiguoToken],
        at_deployment: bool,
    ) -> Result<(SiguoBelief, Position), ApplyError> {
        let mut belief = SiguoBelief::new(start, viewer, at_deployment);
        let mut pos = start.clone();
        for (i, &token) in tokens.iter().enumerate() {
            let removed = belief.observe(&pos, token);
            pos.apply_token(token)?;
            // A seat's flag is shown right after its Marshal falls.
            for (s, j) in removed.into_iter().flatten() {
                let seat = belief.seats[s].seat;
                if !pos.settings().base.marshal_reveals_flag || belief.seats[s].flag_shown {
                    continue;
                }
                let shown = tokens[i + 1..].iter().take_while(|t| !t.is_ply()).any(
                    |t| matches!(t, SiguoToken::Show { piece, .. } if *piece == Piece::new(seat, Some(Kind::Flag))),
                );
                let set = if shown { only(Kind::Marshal) } else { ALL_KINDS & !only(Kind::Marshal) };
                belief.restrict(s, j, set);
            }
        }
        belief.seats.retain(|s| !pos.is_out(s.seat));
        Ok((belief, pos))
    }

    /// The unseen seat `seat`'s index in [`SiguoBelief::seats`].
    fn seat_index(&self, seat: Seat) -> Option<usize> {
        self.seats.iter().position(|s| s.seat == seat)
    }

    /// The unseen piece standing on `p`: (seat index, piece index).
    fn piece_at(&self, pos: &Position, p: Point) -> Option<(usize, usize)> {
        let s = self.seat_index(pos.cell(p)?.seat)?;
        let j = self.seats[s].pieces.iter().position(|e| e.at == Some(p))?;
        Some((s, j))
    }

    /// Narrows a piece to `set`; a fact that leaves nothing is set aside.
    fn restrict(&mut self, s: usize, j: usize, set: KindSet) {
        let e = &mut self.seats[s].pieces[j];
        let narrowed = e.kinds & set;
        if narrowed == 0 {
            self.contradictions += 1;
        } else {
            e.kinds = narrowed;
        }
    }

    /// A piece moved or attacked: it moves, and if no piece but an
    /// Engineer could have gone that way, it is one.
    fn moved(&mut self, pos: &Position, (s, j): (usize, usize), from: Point, to: Point) {
        self.restrict(s, j, ALL_KINDS & !IMMOBILE);
        if !straight_reach(pos, from).contains(to) {
            self.restrict(s, j, only(Kind::Engineer));
        }
    }

    /// Reads one token told in `pos` (before it is applied); returns the
    /// unseen pieces it removed.
    fn observe(&mut self, pos: &Position, token: SiguoToken) -> [Option<(usize, usize)>; 2] {
        match token {
            SiguoToken::Move(a) => {
                if let Some(i) = self.piece_at(pos, a.from) {
                    self.moved(pos, i, a.from, a.to);
                    self.seats[i.0].pieces[i.1].at = Some(a.to);
                }
                [None, None]
            }
            SiguoToken::Show { at, piece } => {
                if let (Some((s, j)), Some(k)) = (self.piece_at(pos, at), piece.kind) {
                    self.restrict(s, j, only(k));
                    if k == Kind::Flag {
                        self.seats[s].flag_shown = true;
                    }
                }
                [None, None]
            }
            SiguoToken::Out { .. } => [None, None],
            SiguoToken::Attack { from, to, outcome, loser } => self.attack(pos, from, to, outcome, loser),
        }
    }

    fn attack(
        &mut self,
        pos: &Position,
        from: Point,
        to: Point,
        outcome: Outcome,
        loser: Option<Piece>,
    ) -> [Option<(usize, usize)>; 2] {
        let rules = *pos.rules();
        let (Some(a), Some(d)) = (pos.cell(from), pos.cell(to)) else {
            return [None, None];
        };
        let attacker = self.piece_at(pos, from);
        let defender = self.piece_at(pos, to);
        let fits =
            |set: KindSet, ok: &dyn Fn(Kind) -> bool| kinds_of(set).filter(|&k| ok(k)).fold(0, |s, k| s | only(k));
        if let Some(i) = attacker {
            self.moved(pos, i, from, to);
            if let Some(dk) = d.kind {
                let cleared = pos.mines_cleared(d.seat);
                let set = fits(ALL_KINDS & !IMMOBILE, &|k| siguo_combat(&rules, k, dk, cleared) == outcome);
                self.restrict(i.0, i.1, set);
            }
        }
        if let (Some(i), Some(ak)) = (defender, a.kind) {
            let cleared = pos.mines_cleared(d.seat);
            let set = fits(ALL_KINDS, &|k| siguo_combat(&rules, ak, k, cleared) == outcome);
            self.restrict(i.0, i.1, set);
        }
        let named = loser.and_then(|l| l.kind);
        match outcome {
            Outcome::AttackerWins => {
                if let (Some(i), Some(k)) = (defender, named) {
                    self.restrict(i.0, i.1, only(k));
                }
                if let Some(i) = attacker {
                    self.seats[i.0].pieces[i.1].at = Some(to);
                }
                if let Some(i) = defender {
                    self.seats[i.0].pieces[i.1].at = None;
                }
                [defender, None]
            }
            Outcome::DefenderWins => {
                if let (Some(i), Some(k)) = (attacker, named) {
                    self.restrict(i.0, i.1, only(k));
                }
                if let Some(i) = attacker {
                    self.seats[i.0].pieces[i.1].at = None;
                }
                [attacker, None]
            }
            Outcome::BothRemoved => {
                for i in [attacker, defender].into_iter().flatten() {
                    self.seats[i.0].pieces[i.1].at = None;
                }
                [attacker, defender]
            }
        }
    }

    /// Pieces still of unknown kind on the board.
    pub fn unknown_on_board(&self) -> usize {
        self.seats.iter().flat_map(|s| &s.pieces).filter(|e| e.at.is_some() && e.kinds.count_ones() > 1).count()
    }

    /// A world sampler for each unseen seat, in [`SiguoBelief::seats`]
    /// order; `None` if a seat's pieces cannot take its army's kinds even
    /// with every fact but the reveals set aside.
    pub fn samplers(&self, rng: &mut Rng) -> Option<Vec<WorldSampler>> {
        self.seats
            .iter()
            .map(|s| WorldSampler::from_kinds(s.pieces.iter().map(|e| e.kinds).collect(), None, rng))
            .collect()
    }

    /// The world of the samplers' current assignments: `view` with every
    /// unseen piece on the board named.
    pub fn world(&self, view: &Position, samplers: &[WorldSampler]) -> Position {
        let mut w = view.clone();
        self.name_pieces(&mut w, samplers);
        w
    }

    /// Names every unseen piece of `w` (a copy of the view) by the
    /// samplers' assignments.
    pub fn name_pieces(&self, w: &mut Position, samplers: &[WorldSampler]) {
        for (s, sampler) in self.seats.iter().zip(samplers) {
            for (e, &k) in s.pieces.iter().zip(sampler.assignment()) {
                if let Some(p) = e.at {
                    w.put(p, Some(Piece::new(s.seat, Some(k))));
                }
            }
        }
    }

    /// The probability of each kind of every unseen piece on the board,
    /// from `samples` worlds, in point order.
    pub fn marginals(&self, samples: usize, rng: &mut Rng) -> Vec<(Point, [f32; crate::piece::NUM_KINDS])> {
        let mut counts = vec![[0f32; crate::piece::NUM_KINDS]; NUM_POINTS];
        if let Some(mut samplers) = self.samplers(rng) {
            for _ in 0..samples {
                for (s, sampler) in self.seats.iter().zip(&mut samplers) {
                    let a = sampler.next(rng);
                    for (e, &k) in s.pieces.iter().zip(a) {
                        if let Some(p) = e.at {
                            counts[p.index()][k.index()] += 1.0;
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        for s in &self.seats {
            for p in s.pieces.iter().filter_map(|e| e.at) {
                let mut c = counts[p.index()];
                let total: f32 = c.iter().sum::<f32>().max(1.0);
                c.iter_mut().for_each(|x| *x /= total);
                out.push((p, c));
            }
        }
        out.sort_by_key(|(p, _)| p.index());
        out
    }
}

/// The kinds `seat`'s army still has for its pieces whose kind `view`
/// does not show: the army less the kinds shown on the board (the pool an
/// unseen piece is drawn from when nothing else is known).
pub fn unshown_pool(view: &Position, seat: Seat) -> [u8; crate::piece::NUM_KINDS] {
    let mut left = ARMY;
    for p in view.pieces(seat) {
        if let Some(k) = view.cell(p).and_then(|pc| pc.kind) {
            left[k.index()] = left[k.index()].saturating_sub(1);
        }
    }
    left
}

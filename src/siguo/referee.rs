//! The four-player referee (RULES-4P.md §4 item 11): it holds the truth
//! (every piece named), judges each action of the side to move against
//! what that seat was told (its view) and resolves it on the truth, and
//! tells each seat only what it may know, as [`SiguoToken`]s; each seat's
//! view is its start view with exactly those tokens applied.
//!
//! What a seat is told of one action, in order:
//! 1. the ply: a move as played; an attack with its outcome only, plus the
//!    loser's identity for the winning seat where `WinnerLearnsLoser`
//!    (§5 row 11; in `open` nobody needs it);
//! 2. where `MarshalRevealsFlag`, for each Marshal the attack removed
//!    whose owner is still in, that owner's flag (`Nb1=nF`), to every seat
//!    (§4 item 11, §5 row 12; both flags when two Marshals trade);
//! 3. every seat the action took out, in the order the truth took them
//!    out, with why (`N#flag` for a captured flag: whose, to everyone;
//!    `noaction`), to every seat (§4 items 5, 6, 9, 11).
//!
//! A resignation is told to every seat as `W#resign`, followed by any seat
//! the passing turn then took out. Start views: in `classic` a seat sees
//! its own kinds and, with `PartnerVisible`, its partner's (§5 row 6); in
//! `open` everything (§4 item 12).

use std::fmt;

use super::action::Action;
use super::position::{Piece, Position, SiguoPlayError, SiguoResult};
use super::token::{ApplyError, SiguoToken};
use super::topology::Seat;
use crate::combat::Outcome;
use crate::piece::Kind;
use crate::rules::Mode;

/// One judged action (or resignation).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SiguoPly {
    /// Who acted (or resigned).
    pub mover: Seat,
    /// The truth's token of the ply (the attack with its outcome; the
    /// resignation's out token).
    pub token: SiguoToken,
    /// What each seat was told, by seat index, in order.
    pub told: [Vec<SiguoToken>; 4],
}

/// Why the referee refused an action or could not go on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SiguoRefereeError {
    /// The truth refused the action (the game is over, or it is illegal).
    Play(SiguoPlayError),
    /// The seat cannot resign: it is out, or the game is over.
    CannotResign(Seat),
    /// A seat's view refused what it was told (a bug in the referee or the
    /// library).
    Rejected {
        /// The seat.
        viewer: Seat,
        /// Why.
        error: ApplyError,
    },
}

impl fmt::Display for SiguoRefereeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SiguoRefereeError::Play(e) => write!(f, "{e}"),
            SiguoRefereeError::CannotResign(s) => write!(f, "{s} cannot resign: out, or the game is over"),
            SiguoRefereeError::Rejected { viewer, error } => write!(f, "referee bug: {viewer}'s view refused {error}"),
        }
    }
}

impl std::error::Error for SiguoRefereeError {}

impl From<SiguoPlayError> for SiguoRefereeError {
    fn from(e: SiguoPlayError) -> Self {
        SiguoRefereeError::Play(e)
    }
}

/// The referee of one four-player game.
#[derive(Clone, Debug)]
pub struct SiguoReferee {
    truth: Position,
    starts: [Position; 4],
    views: [Position; 4],
    told: [Vec<SiguoToken>; 4],
}

impl SiguoReferee {
    /// A game from a position naming every piece (a start, or any
    /// position reached by play); each seat starts from what it may see of
    /// it.
    pub fn new(truth: Position) -> SiguoReferee {
        let open = truth.rules().mode == Mode::Open;
        let starts = Seat::ALL.map(|s| if open { truth.clone() } else { truth.view(s) });
        SiguoReferee { truth, views: starts.clone(), starts, told: Default::default() }
    }

    /// The referee's position, every piece named.
    pub fn truth(&self) -> &Position {
        &self.truth
    }

    /// What `seat` knows: its start view with what it was told applied.
    pub fn view(&self, seat: Seat) -> &Position {
        &self.views[seat.index()]
    }

    /// The start view `seat` was given.
    pub fn start(&self, seat: Seat) -> &Position {
        &self.starts[seat.index()]
    }

    /// Everything `seat` was told, in order.
    pub fn told(&self, seat: Seat) -> &[SiguoToken] {
        &self.told[seat.index()]
    }

    /// Whether `action` is legal for the side to move in what it was told
    /// (its view: see [`SiguoReferee::play`]).
    pub fn is_legal(&self, action: Action) -> bool {
        let mut legal = Vec::new();
        self.views[self.truth.side_to_move().index()].legal_actions(&mut legal);
        legal.contains(&action)
    }

    /// The result once the game is over (judged on the truth).
    pub fn outcome(&self) -> Option<SiguoResult> {
        self.truth.outcome()
    }

    /// Judges `action` of the side to move: it must be legal in what the
    /// mover was told (its view), and is resolved on the truth; then each
    /// seat is told what it may know.
    ///
    /// The view and the truth allow the same moves; an attack on a piece
    /// the mover does not know may be legal in its view though the rules
    /// forbid it on the true kind (a bomb on a landmine without
    /// `BombAttacksMineAndFlag`, a non-engineer on the flag with
    /// `FlagNeedsEngineer`): it fails, as in the two-player game (the
    /// attacker removed, `-`; RULES.md's decision for hidden defenders).
    ///
    /// # Errors
    /// [`SiguoRefereeError::Play`] when the game is over or the action is
    /// not legal in the mover's view (the referee is unchanged);
    /// [`SiguoRefereeError::Rejected`] on a bug.
    pub fn play(&mut self, action: Action) -> Result<SiguoPly, SiguoRefereeError> {
        if self.truth.is_over() {
            return Err(SiguoPlayError::GameOver.into());
        }
        let before = self.truth.clone();
        let mover = before.side_to_move();
        if !self.is_legal(action) {
            return Err(SiguoPlayError::Illegal(action).into());
        }
        // Every piece of the truth is named: an attack's outcome is decided.
        let attack = if action.attack {
            let (Some(att), Some(def)) = (before.cell(action.from), before.cell(action.to)) else {
                return Err(SiguoPlayError::Illegal(action).into());
            };
            let outcome = before.attack_outcome(action.from, action.to).ok_or(SiguoPlayError::OutcomeNeeded(action))?;
            self.truth.play_attack(action.from, action.to, outcome);
            Some((att, def, outcome))
        } else {
            self.truth.play_move(action.from, action.to);
            None
        };
        let mut told: [Vec<SiguoToken>; 4] = Default::default();
        let token = if let Some((att, def, outcome)) = attack {
            let (from, to) = (action.from, action.to);
            let token = SiguoToken::Attack { from, to, outcome, loser: None };
            let classic = before.rules().mode == Mode::Classic;
            let winner_loser = match outcome {
                Outcome::AttackerWins => Some((att.seat, def)),
                Outcome::DefenderWins => Some((def.seat, att)),
                Outcome::BothRemoved => None,
            }
            .filter(|_| classic && before.rules().winner_learns_loser);
            for (s, t) in Seat::ALL.into_iter().zip(told.iter_mut()) {
                match winner_loser {
                    Some((winner, loser)) if winner == s => {
                        t.push(SiguoToken::Attack { from, to, outcome, loser: Some(loser) });
                    }
                    _ => t.push(token),
                }
            }
            if classic && before.rules().marshal_reveals_flag {
                let fallen = [(outcome.attacker_removed(), att), (outcome.defender_removed(), def)];
                for (_, pc) in fallen.into_iter().filter(|(gone, pc)| *gone && pc.kind == Some(Kind::Marshal)) {
                    let flag = self
                        .truth
                        .pieces(pc.seat)
                        .into_iter()
                        .find(|&p| self.truth.cell(p).is_some_and(|c| c.kind == Some(Kind::Flag)));
                    if let Some(at) = flag {
                        let show = SiguoToken::Show { at, piece: Piece::new(pc.seat, Some(Kind::Flag)) };
                        told.iter_mut().for_each(|t| t.push(show));
                    }
                }
            }
            token
        } else {
            let token = SiguoToken::Move(action);
            told.iter_mut().for_each(|t| t.push(token));
            token
        };
        for out in outs(&before, &self.truth) {
            told.iter_mut().for_each(|t| t.push(out));
        }
        self.tell(&told)?;
        Ok(SiguoPly { mover, token, told })
    }

    /// `seat` resigns (RULES-4P.md §4 item 7), in turn or not; every seat is
    /// told, and of any seat the passing turn then took out.
    ///
    /// # Errors
    /// [`SiguoRefereeError::CannotResign`] if `seat` is out or the game is
    /// over; [`SiguoRefereeError::Rejected`] on a bug.
    pub fn resign(&mut self, seat: Seat) -> Result<SiguoPly, SiguoRefereeError> {
        if self.truth.is_out(seat) || self.truth.is_over() {
            return Err(SiguoRefereeError::CannotResign(seat));
        }
        let before = self.truth.clone();
        self.truth.resign(seat);
        let tokens = outs(&before, &self.truth);
        let token = tokens.first().copied().ok_or(SiguoRefereeError::CannotResign(seat))?;
        let told: [Vec<SiguoToken>; 4] = std::array::from_fn(|_| tokens.clone());
        self.tell(&told)?;
        Ok(SiguoPly { mover: seat, token, told })
    }

    fn tell(&mut self, told: &[Vec<SiguoToken>; 4]) -> Result<(), SiguoRefereeError> {
        for viewer in Seat::ALL {
            let i = viewer.index();
            for &t in &told[i] {
                self.views[i].apply_token(t).map_err(|error| SiguoRefereeError::Rejected { viewer, error })?;
                self.told[i].push(t);
            }
        }
        Ok(())
    }
}

/// The out tokens of the seats `after` has out and `before` had not, in
/// the order they went out.
fn outs(before: &Position, after: &Position) -> Vec<SiguoToken> {
    let mut new: Vec<(u8, SiguoToken)> = Seat::ALL
        .into_iter()
        .filter(|&s| !before.is_out(s))
        .filter_map(|seat| {
            let (order, reason) = (after.out_order(seat)?, after.out_reason(seat)?);
            Some((order, SiguoToken::Out { seat, reason }))
        })
        .collect();
    new.sort_by_key(|&(o, _)| o);
    new.into_iter().map(|(_, t)| t).collect()
}

//! Why a history token could not be applied ([`PlayError`]), and the
//! checks of named identities (reveals, attack losers) that need no legal
//! actions. Checked application itself, which does, is in `crate::legal`.

use std::fmt;

use crate::action::Action;
use crate::board::Point;
use crate::combat::Outcome;
use crate::piece::Piece;

use super::{GameResult, Position};

/// Why a history token could not be applied.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The game is already over.
    GameOver(GameResult),
    /// Not a legal action here.
    Illegal(Action),
    /// A flip in a history must say what it showed (`c3=r9`).
    FlipNeedsPiece(Point),
    /// The flipped identity is no longer in the face-down pool.
    NotInPool(Point, Piece),
    /// A shown piece of unknown kind (`c3=r?`).
    ShowsUnknown(Point),
    /// A reveal that contradicts what stands on the point.
    BadReveal(Point, Piece),
    /// An attack on a piece of unknown identity needs the referee's outcome.
    OutcomeNeeded(Action),
    /// The outcome given contradicts the known pieces.
    WrongOutcome {
        /// The attack.
        action: Action,
        /// What the rules say.
        expected: Outcome,
        /// What the token said.
        found: Outcome,
    },
    /// The loser named does not match the piece that lost.
    WrongLoser(Action, Piece),
    /// A reveal would make more pieces of a kind than a side has.
    TooMany(Piece),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver(r) => write!(f, "the game is over: {r}"),
            PlayError::Illegal(a) => write!(f, "illegal action {a}"),
            PlayError::FlipNeedsPiece(p) => write!(f, "flip {p} must say what it showed, as {p}=r9"),
            PlayError::NotInPool(p, pc) => write!(f, "flip {p}={pc}: no face-down {pc} is left"),
            PlayError::ShowsUnknown(p) => write!(f, "{p} must show a piece of known kind"),
            PlayError::BadReveal(p, pc) => write!(f, "{p}={pc} does not match what stands on {p}"),
            PlayError::OutcomeNeeded(a) => write!(f, "attack {a} needs the referee's outcome (+, - or =)"),
            PlayError::WrongOutcome { action, expected, found } => {
                write!(f, "attack {action}{found}: the pieces give {action}{expected}")
            }
            PlayError::WrongLoser(a, p) => write!(f, "attack {a}: the loser is not {p}"),
            PlayError::TooMany(p) => write!(f, "{p} would be one {p} too many"),
        }
    }
}

impl std::error::Error for PlayError {}

impl Position {
    /// Checks that the piece at `at` may be `named`: same colour, and the
    /// same kind or an unknown kind with one of `named` still unaccounted for.
    pub(crate) fn check_identity(&self, at: Point, named: Piece) -> Result<(), PlayError> {
        let here = self.cell(at).piece().ok_or(PlayError::BadReveal(at, named))?;
        let k = named.kind.ok_or(PlayError::ShowsUnknown(at))?;
        if here.colour != named.colour {
            return Err(PlayError::BadReveal(at, named));
        }
        match here.kind {
            Some(known) if known == k => Ok(()),
            Some(_) => Err(PlayError::BadReveal(at, named)),
            None => {
                let ci = named.colour.index();
                let accounted = self.by_kind[ci][k.index()].count() + u32::from(self.removed[ci][k.index()]);
                if accounted >= u32::from(k.count()) { Err(PlayError::TooMany(named)) } else { Ok(()) }
            }
        }
    }

    pub(crate) fn apply_reveal(&mut self, at: Point, piece: Piece) -> Result<(), PlayError> {
        self.check_identity(at, piece)?;
        self.reveal(at, piece);
        self.debug_check();
        Ok(())
    }
}

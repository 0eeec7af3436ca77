//! Actions (what a player chooses: flip, move, attack) and history tokens
//! (an action with what the referee or the flip showed).

use std::fmt;

use crate::board::Point;
use crate::combat::Outcome;
use crate::piece::Piece;

/// What sort of action.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ActionKind {
    /// Turn a face-down piece over (`c3`).
    Flip = 0,
    /// Move to an empty point: step, slide or engineer route (`a4-a5`).
    Move = 1,
    /// Move onto an enemy piece (`a6xa7`).
    Attack = 2,
}

/// A player's action, packed in 16 bits: origin, destination and kind. A
/// flip has the flipped point as both origin and destination.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action(u16);

impl Action {
    const KIND_SHIFT: u32 = 12;

    /// Flip the piece at `at`.
    #[inline]
    pub const fn flip(at: Point) -> Action {
        Action(at.index() as u16 | (at.index() as u16) << 6)
    }

    /// Move from `from` to the empty point `to`.
    #[inline]
    pub const fn moving(from: Point, to: Point) -> Action {
        Action(from.index() as u16 | (to.index() as u16) << 6 | (ActionKind::Move as u16) << Self::KIND_SHIFT)
    }

    /// Attack the piece at `to` with the piece at `from`.
    #[inline]
    pub const fn attack(from: Point, to: Point) -> Action {
        Action(from.index() as u16 | (to.index() as u16) << 6 | (ActionKind::Attack as u16) << Self::KIND_SHIFT)
    }

    /// Builds an action of `kind` (for a flip `to` is ignored).
    pub const fn new(kind: ActionKind, from: Point, to: Point) -> Action {
        match kind {
            ActionKind::Flip => Action::flip(from),
            ActionKind::Move => Action::moving(from, to),
            ActionKind::Attack => Action::attack(from, to),
        }
    }

    /// The kind of action.
    #[inline]
    pub const fn kind(self) -> ActionKind {
        match self.0 >> Self::KIND_SHIFT {
            0 => ActionKind::Flip,
            1 => ActionKind::Move,
            _ => ActionKind::Attack,
        }
    }

    /// The origin (the flipped point for a flip).
    #[inline]
    pub const fn from(self) -> Point {
        Point::from_index_unchecked((self.0 & 63) as u8)
    }

    /// The destination (the flipped point for a flip).
    #[inline]
    pub const fn to(self) -> Point {
        Point::from_index_unchecked((self.0 >> 6 & 63) as u8)
    }

    /// The packed value, stable across versions (for records and hashing).
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Unpacks a value known to come from [`Action::to_u16`] (the search
    /// tree's edge labels), unchecked.
    #[inline]
    pub(crate) const fn from_u16_trusted(v: u16) -> Action {
        Action(v)
    }

    /// Unpacks a value made by [`Action::to_u16`]; `None` if it is not one.
    pub const fn from_u16(v: u16) -> Option<Action> {
        let from = (v & 63) as usize;
        let to = (v >> 6 & 63) as usize;
        let kind = v >> Self::KIND_SHIFT;
        if from >= 60 || to >= 60 || kind > 2 || (kind == 0 && from != to) { None } else { Some(Action(v)) }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            ActionKind::Flip => write!(f, "{}", self.from()),
            ActionKind::Move => write!(f, "{}-{}", self.from(), self.to()),
            ActionKind::Attack => write!(f, "{}x{}", self.from(), self.to()),
        }
    }
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// One token of a game history.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Token {
    /// A bare action: `c3`, `a4-a5`, `a6xa7`.
    Action(Action),
    /// `c3=r9`: a point shows a piece. In `flip` it is a flip and what it
    /// showed (a ply); in `classic` a reveal by the referee, such as the flag
    /// after a Marshal falls (not a ply).
    Show {
        /// Where.
        at: Point,
        /// What it is.
        piece: Piece,
    },
    /// An attack with the referee's outcome (`a6xa7+`), optionally naming
    /// the loser's piece where the rules reveal it (`a6xa7+b3`).
    Attack {
        /// The attacker's point.
        from: Point,
        /// The defender's point.
        to: Point,
        /// What happened.
        outcome: Outcome,
        /// The losing piece, when revealed (only with `+` or `-`).
        loser: Option<Piece>,
    },
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Action(a) => write!(f, "{a}"),
            Token::Show { at, piece } => write!(f, "{at}={piece}"),
            Token::Attack { from, to, outcome, loser } => {
                write!(f, "{from}x{to}{outcome}")?;
                if let Some(p) = loser {
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}

//! Four-player actions: a move to an empty point or an attack on an enemy
//! piece (four seats have no flips).

use std::fmt;

use super::topology::Point;

/// A move (`Sa3-Sa4`) or an attack (`Sa6xCa1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action {
    /// Where the piece stands.
    pub from: Point,
    /// Where it goes.
    pub to: Point,
    /// Whether `to` holds an enemy piece.
    pub attack: bool,
}

impl Action {
    /// A move to an empty point.
    #[inline]
    pub const fn moving(from: Point, to: Point) -> Action {
        Action { from, to, attack: false }
    }

    /// An attack on the piece at `to`.
    #[inline]
    pub const fn attacking(from: Point, to: Point) -> Action {
        Action { from, to, attack: true }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.from, if self.attack { 'x' } else { '-' }, self.to)
    }
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

//! Sets of points as 64-bit masks: bit `i` is the point with index `i`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use super::topology::{NUM_POINTS, Point};

/// A set of board points. Only the low 60 bits are ever set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every point of the two-player board.
    pub const ALL: Bitboard = Bitboard((1u64 << NUM_POINTS) - 1);

    /// The set holding only `p`.
    #[inline]
    pub const fn from_point(p: Point) -> Bitboard {
        Bitboard(1u64 << p.index())
    }

    /// Whether `p` is in the set.
    #[inline]
    pub const fn contains(self, p: Point) -> bool {
        self.0 >> p.index() & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one point.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of points in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Adds `p`.
    #[inline]
    pub fn insert(&mut self, p: Point) {
        self.0 |= 1u64 << p.index();
    }

    /// Removes `p`.
    #[inline]
    pub fn remove(&mut self, p: Point) {
        self.0 &= !(1u64 << p.index());
    }

    /// The point with the lowest index, if any.
    #[inline]
    pub const fn first(self) -> Option<Point> {
        if self.0 == 0 { None } else { Some(Point::from_index_unchecked(self.0.trailing_zeros() as u8)) }
    }

    /// The point with the highest index, if any.
    #[inline]
    pub const fn last(self) -> Option<Point> {
        if self.0 == 0 { None } else { Some(Point::from_index_unchecked(63 - self.0.leading_zeros() as u8)) }
    }

    /// The `n`-th point in index order (0-based), if the set has that many.
    #[inline]
    pub fn nth(self, n: u32) -> Option<Point> {
        let mut bits = self.0;
        for _ in 0..n {
            if bits == 0 {
                return None;
            }
            bits &= bits - 1;
        }
        Bitboard(bits).first()
    }
}

/// Iterates over the points of a set in index order.
pub struct Points(u64);

impl Iterator for Points {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Point::from_index_unchecked(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Points {}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = Points;

    #[inline]
    fn into_iter(self) -> Points {
        Points(self.0)
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Self {
        let mut b = Bitboard::EMPTY;
        for p in iter {
            b.insert(p);
        }
        b
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 60 board points.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

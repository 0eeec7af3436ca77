//! The board: points and their kinds, links, railway lines (`topology`) and
//! point sets as bit masks (`bitboard`).

pub mod bitboard;
pub mod topology;

pub use bitboard::Bitboard;
pub use topology::{Direction, Point, PointKind};

//! Four-player Luzhanqi (四国军棋, siguo junqi), RULES-4P.md: so far the
//! board and its move generation only, beside the two-player code and
//! sharing none of its paths.
//!
//! - `topology`: seats, the 129 points and their names, the 288 links, the
//!   18 railway lines and the rays per start point, as constant tables;
//! - `bitset`: point sets as 129-bit masks;
//! - `position`: pieces of four seats on the board, the side to move, and
//!   the simple apply that perft needs;
//! - `movegen`: legal moves and attacks of a seat;
//! - `perft`: counting the move/attack tree.
//!
//! The protocol, search and referee for four players come later.

pub mod action;
pub mod bitset;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod topology;

pub use action::Action;
pub use bitset::PointSet;
pub use position::{Piece, Position, PositionError};
pub use topology::{Point, PointError, Region, Seat};

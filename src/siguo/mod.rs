//! Four-player Luzhanqi (四国军棋, siguo junqi), RULES-4P.md: the board,
//! move generation, the game flow and the four-player rule settings,
//! beside the two-player code and sharing none of its paths.
//!
//! - `topology`: seats, the 129 points and their names, the 288 links, the
//!   18 railway lines and the rays per start point, as constant tables;
//! - `bitset`: point sets as 129-bit masks;
//! - `rules`: the four-player settings (RULES-4P.md §5) over the
//!   two-player ones;
//! - `position`: pieces of four seats on the board, the side to move, the
//!   game flow (eliminations, skipped seats, team defeat, the quiet limit)
//!   and the result;
//! - `movegen`: legal moves and attacks of a seat;
//! - `perft`: counting the move/attack tree;
//! - `token`: what a referee tells a seat (`Sa6xCa1+`, `Nb1=nF`, `N#flag`)
//!   and how a seat's view takes it in;
//! - `referee`: the truth, and what each seat is told of it;
//! - `exchange`: what an attack wins and loses, over the kinds a piece
//!   may be;
//! - `belief`: what a seat can know of the pieces it does not see, and
//!   worlds drawn from it;
//! - `notation`: the protocol's position string, arm deployments, bare
//!   actions, the board of `d`, and the game state the protocol carries;
//!
//! The four-player search is [`crate::search::four`], the four-player
//! baselines [`crate::players::siguo`].

pub mod action;
pub mod belief;
pub mod bitset;
pub mod exchange;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod referee;
pub mod rules;
pub mod token;
pub mod topology;

pub use action::Action;
pub use bitset::PointSet;
pub use position::{OutReason, Piece, Position, PositionError, SiguoEndReason, SiguoPlayError, SiguoResult, Team};
pub use referee::{SiguoPly, SiguoReferee, SiguoRefereeError};
pub use rules::SiguoRules;
pub use token::{ApplyError, SiguoToken, TokenError};
pub use topology::{Point, PointError, Region, Seat};

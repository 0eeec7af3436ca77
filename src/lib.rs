//! luzhanqi: a Luzhanqi (陆战棋, army chess) engine.
//!
//! Data flows one way: the board and the pieces, the rules, the position,
//! move generation, then what needs the legal actions (`legal`: game end,
//! legality, checked history tokens); above them notation, perft and (in
//! later layers) search, the protocol and the engine loop.
//!
//! `siguo` is the four-player game (RULES-4P.md) beside all this, sharing
//! only pieces, rules and combat: so far its board and move generation.

pub mod action;
pub mod adapter;
pub mod belief;
pub mod bench;
pub mod board;
pub mod combat;
pub mod console;
pub mod deployment;
pub mod distance;
pub mod engine;
pub mod exchange;
pub mod legal;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod players;
pub mod position;
pub mod protocol;
pub mod random;
pub mod rules;
pub mod search;
pub mod setting;
pub mod siguo;

pub use action::{Action, ActionKind, Token};
pub use board::{Bitboard, Point};
pub use combat::Outcome;
pub use deployment::Deployment;
pub use piece::{Colour, Kind, Piece};
pub use position::{Cell, EndReason, GameResult, Position};
pub use rules::{Mode, Rules, Variant};

//! web: a board in the browser for ULI Luzhanqi engines. A small server
//! ([`server`]) serves one page ([`assets`]) and, for each page, drives
//! engine processes over ULI ([`engine`]) exactly as any GUI would
//! ([`session`]); the games are judged by the arena's referee ([`play`]),
//! analysis replays positions and records ([`analysis`]); [`messages`] is
//! the JSON the page and the server exchange, [`board`] the board and
//! rules the page draws from.

pub mod analysis;
pub mod assets;
pub mod board;
pub mod engine;
pub mod messages;
pub mod play;
pub mod server;
pub mod session;

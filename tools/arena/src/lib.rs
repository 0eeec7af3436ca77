//! arena: a referee and match runner for ULI Luzhanqi engines.
//!
//! The referee ([`referee`]) holds the truth of a game and tells each
//! engine only what it may see; [`game`] plays one game between two engine
//! processes ([`engine`]) under a time control ([`clock`]); [`runner`] plays
//! a match of game pairs in parallel and keeps the statistics ([`stats`]);
//! [`record`] writes and reads game records, which [`replay`] re-judges;
//! [`shard`] cuts a match into shards and merges their records; [`proto`]
//! runs engines that speak the CCGC or CS4500 protocol instead of ULI.

pub mod belief_eval;
pub mod clock;
pub mod engine;
pub mod game;
pub mod proto;
pub mod record;
pub mod referee;
pub mod replay;
pub mod runner;
pub mod schedule;
pub mod shard;
pub mod siguo;
pub mod stats;
pub mod tune;

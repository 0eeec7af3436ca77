//! ULI, the engine's line protocol (documented in `protocol.md`): typed
//! commands and responses, and their pure parsers. `nom` stays inside
//! `parse`; the rest of the crate sees only these types.

pub mod command;
pub mod parse;
pub mod response;

pub use command::{Command, Go, PositionStart, SiguoStart};
pub use parse::{ParseError, parse_command, parse_response, parse_siguo_command, parse_tokens};
pub use response::{Belief, Info, OptionKind, OptionSpec, Response, RootStatLine, Score};

//! The one place where the engine loop asks who plays a four-player `go`:
//! [`choose`]. The four-player search (issue 19: ISMCTS over the seat's
//! information set, and the greedy and random players for four seats) is
//! not built yet; until it is, [`choose`] answers a uniformly random legal
//! action, and says so.

use rand::RngExt;

use super::action::Action;
use super::position::Position;
use super::token::SiguoToken;
use crate::players::PlayerKind;
use crate::protocol::Response;
use crate::random::rng;
use crate::search::{Control, Limits};

/// What the engine knows when a four-player `go` comes.
pub struct Request<'a> {
    /// The position the history starts from (the seat's view of the
    /// deployment, or a given position string).
    pub start: &'a Position,
    /// The history since `start`, as the seat was told it.
    pub history: &'a [SiguoToken],
    /// The position now: the seat to move's view; the engine plays that seat.
    pub pos: &'a Position,
    /// The `go` command's limits.
    pub limits: &'a Limits,
    /// The seed of this search (deterministic with `Seed`).
    pub seed: u64,
    /// The `Player` option.
    pub player: PlayerKind,
}

/// Chooses the action of the seat to move of `req.pos`, which has at least
/// one legal action, sending any `info` lines through `send`; runs on the
/// worker thread, and should return soon after `control` says stop.
///
/// TODO(issue 19): replace this body by the four-player search and the
/// four-player `greedy` and `random` players (dispatch on `req.player`,
/// honour `req.limits` and `control`). Until then every `Player` gets a
/// uniformly random legal action drawn from the seeded generator, with a
/// warning line.
pub fn choose(req: &Request<'_>, control: &Control, send: &mut dyn FnMut(Response)) -> Option<Action> {
    let _ = (req.start, req.history, req.player, control);
    let mut legal = Vec::new();
    req.pos.legal_actions(&mut legal);
    send(Response::InfoString("warning: four-player search not built yet: a random legal action".to_owned()));
    if legal.is_empty() {
        return None;
    }
    let mut r = rng(req.seed);
    Some(legal[r.random_range(0..legal.len())])
}

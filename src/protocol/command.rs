//! Commands from the GUI to the engine, as typed values. `Display` prints
//! the canonical line, which `parse` reads back.

use std::fmt;

use crate::action::{Action, Token};
use crate::piece::Colour;
use crate::position::Setup;
use crate::siguo::notation::SiguoSetup;
use crate::siguo::{Seat, SiguoToken};

/// Where a `position` command starts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionStart {
    /// `startpos`: the start of the variant (the empty board before
    /// deployment in `classic`/`open`).
    StartPos,
    /// `fen <position string>`.
    Fen(Setup),
}

/// Where a four-player `position` command starts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SiguoStart {
    /// `startpos`: the empty board before the deployment.
    StartPos,
    /// `fen <four-player position string>`.
    Fen(SiguoSetup),
}

/// The limits and clocks of a `go` command. Times in milliseconds.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Go {
    /// Search exactly this long.
    pub movetime: Option<u64>,
    /// Red's clock.
    pub rtime: Option<u64>,
    /// Blue's clock.
    pub btime: Option<u64>,
    /// Red's increment per move.
    pub rinc: Option<u64>,
    /// Blue's increment per move.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Stop after this many search iterations.
    pub nodes: Option<u64>,
    /// Stop when the principal variation reaches this many plies.
    pub depth: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search in the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Search only these root actions (`searchmoves`, last on the line).
    pub searchmoves: Vec<Action>,
}

/// A command from the GUI.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    /// `uli`: identify and list options.
    Uli,
    /// `isready`.
    IsReady,
    /// `setoption name <N> [value <V>]`.
    SetOption {
        /// Option name (matched without regard to case).
        name: String,
        /// Value, absent for buttons.
        value: Option<String>,
    },
    /// `newgame`.
    NewGame,
    /// `position (startpos | fen <position string>) [moves <tokens>...]`.
    Position {
        /// The starting position.
        start: PositionStart,
        /// The history from there.
        moves: Vec<Token>,
    },
    /// `go ...`: search the position and answer `bestmove`.
    Go(Go),
    /// `go setup [r|b]`: answer `bestsetup` with a deployment.
    GoSetup(Option<Colour>),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: draw the position.
    Display,
    /// `perft <depth>`.
    Perft(u32),
    /// `bench`.
    Bench,
    /// `position (startpos | fen <four-player position string>) [moves
    /// <tokens>...]` in a four-player variant.
    SiguoPosition {
        /// The starting position.
        start: SiguoStart,
        /// The history from there.
        moves: Vec<SiguoToken>,
    },
    /// `go setup [s|e|n|w]` in a four-player variant.
    SiguoGoSetup(Option<Seat>),
    /// `go ... searchmoves <actions>` in a four-player variant: the limits
    /// (their `searchmoves` empty) and the four-player root actions.
    SiguoGo {
        /// The limits.
        go: Go,
        /// Search only these root actions.
        searchmoves: Vec<crate::siguo::Action>,
    },
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uli => f.write_str("uli"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                if let Some(v) = value {
                    write!(f, " value {v}")?;
                }
                Ok(())
            }
            Command::NewGame => f.write_str("newgame"),
            Command::Position { start, moves } => {
                f.write_str("position ")?;
                match start {
                    PositionStart::StartPos => f.write_str("startpos")?,
                    PositionStart::Fen(s) => write!(f, "fen {s}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            Command::Go(g) => write_go(f, g, &g.searchmoves),
            Command::GoSetup(c) => match c {
                Some(c) => write!(f, "go setup {}", c.to_char()),
                None => f.write_str("go setup"),
            },
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Display => f.write_str("d"),
            Command::Perft(d) => write!(f, "perft {d}"),
            Command::Bench => f.write_str("bench"),
            Command::SiguoPosition { start, moves } => {
                f.write_str("position ")?;
                match start {
                    SiguoStart::StartPos => f.write_str("startpos")?,
                    SiguoStart::Fen(s) => write!(f, "fen {s}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    moves.iter().try_for_each(|m| write!(f, " {m}"))?;
                }
                Ok(())
            }
            Command::SiguoGoSetup(s) => match s {
                Some(s) => write!(f, "go setup {}", s.to_char().to_ascii_lowercase()),
                None => f.write_str("go setup"),
            },
            Command::SiguoGo { go, searchmoves } => write_go(f, go, searchmoves),
        }
    }
}

/// A `go` line: the limits of `g`, then `searchmoves` (a two-player `go`'s
/// own, or a four-player one's).
fn write_go<A: fmt::Display>(f: &mut fmt::Formatter<'_>, g: &Go, searchmoves: &[A]) -> fmt::Result {
    f.write_str("go")?;
    let fields = [
        ("movetime", g.movetime),
        ("rtime", g.rtime),
        ("btime", g.btime),
        ("rinc", g.rinc),
        ("binc", g.binc),
        ("movestogo", g.movestogo.map(u64::from)),
        ("nodes", g.nodes),
        ("depth", g.depth.map(u64::from)),
    ];
    for (name, v) in fields {
        if let Some(v) = v {
            write!(f, " {name} {v}")?;
        }
    }
    if g.infinite {
        f.write_str(" infinite")?;
    }
    if g.ponder {
        f.write_str(" ponder")?;
    }
    if !searchmoves.is_empty() {
        f.write_str(" searchmoves")?;
        searchmoves.iter().try_for_each(|a| write!(f, " {a}"))?;
    }
    Ok(())
}

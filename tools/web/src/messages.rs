//! The messages between the page and the server, one JSON object per
//! WebSocket text frame, tagged by `type`. What the page is sent is only
//! what its player may see: positions are the player's view, tokens are
//! what the referee told the player, and the engine's output is passed on
//! as parsed fields (never its raw lines) while a game hides anything.

use std::collections::BTreeMap;

use luzhanqi::protocol::{Belief, Info, RootStatLine, Score};
use serde::{Deserialize, Serialize};

/// A search limit per engine move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// `go nodes <n>`.
    Nodes(u64),
    /// `go movetime <ms>`.
    Movetime(u64),
}

impl Limit {
    /// The limit if it is within what the board offers (1 to 10^8
    /// iterations, 10 ms to 10 minutes).
    pub fn checked(self) -> Option<Limit> {
        match self {
            Limit::Nodes(n) if (1..=100_000_000).contains(&n) => Some(self),
            Limit::Movetime(ms) if (10..=600_000).contains(&ms) => Some(self),
            _ => None,
        }
    }

    /// The `go` command of this limit.
    pub fn go(self) -> luzhanqi::protocol::Go {
        match self {
            Limit::Nodes(n) => luzhanqi::protocol::Go { nodes: Some(n), ..Default::default() },
            Limit::Movetime(ms) => luzhanqi::protocol::Go { movetime: Some(ms), ..Default::default() },
        }
    }

    /// As the arena writes limits in records (`nodes=200`, `movetime=1000`).
    pub fn text(self) -> String {
        match self {
            Limit::Nodes(n) => format!("nodes={n}"),
            Limit::Movetime(ms) => format!("movetime={ms}"),
        }
    }
}

/// Which seat the player takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// Red (`classic`, `open`, `ccgc`: Red moves first), or the first
    /// player in `flip`, whose colour is that of its first flip.
    #[default]
    First,
    /// Blue, or the second player in `flip`.
    Second,
}

/// A message from the page.
#[derive(Clone, PartialEq, Eq, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// Start a game against the engine.
    NewGame {
        /// `flip`, `classic`, `open`, `ccgc`, `cs4500`.
        variant: String,
        /// Rule options over the preset (`WinnerLearnsLoser` → `true`).
        #[serde(default)]
        rules: BTreeMap<String, String>,
        /// The player's seat.
        #[serde(default)]
        seat: Seat,
        /// The engine's limit per move.
        limit: Limit,
        /// How many best lines the engine reports while it thinks.
        #[serde(default = "one")]
        multipv: u32,
    },
    /// The player's deployment (deployed variants).
    Deploy {
        /// A deployment string of the player's colour.
        setup: String,
    },
    /// Ask for a deployment of the player's colour (`go setup`).
    RandomSetup,
    /// The player's action (`c3`, `a4-a5`, `a6xa7`).
    Play {
        /// The action in ULI notation.
        action: String,
    },
    /// Take back the player's last action (and the engine's replies).
    Takeback,
    /// The player gives up.
    Resign,
    /// New engine settings for the next moves.
    Settings {
        /// The engine's limit per move.
        limit: Limit,
        /// How many best lines.
        multipv: u32,
    },
    /// Ask for the game record (only once the game is over: it holds what
    /// the player was not told).
    Record,
    /// Analyse a position.
    Analyse {
        /// The preset.
        variant: String,
        /// Rule options over the preset.
        #[serde(default)]
        rules: BTreeMap<String, String>,
        /// `startpos` or `fen <position string>`, then optionally `moves
        /// <tokens>...`: the arguments of a ULI `position` command.
        position: String,
        /// How many best lines.
        #[serde(default = "one")]
        multipv: u32,
    },
    /// Load a game record (`.ljr`) to step through it.
    Load {
        /// The file's text.
        text: String,
        /// Which game of the file, from 1 (default: the first).
        #[serde(default)]
        game: Option<u64>,
        /// The engine's limit per position for the evaluation graph.
        limit: Limit,
    },
    /// Load the game just played (once it is over) into analysis.
    AnalyseGame {
        /// The engine's limit per position for the evaluation graph.
        limit: Limit,
    },
    /// Analyse ply `ply` of the loaded game until `stop`.
    Goto {
        /// Plies played, 0 = the start.
        ply: usize,
        /// How many best lines.
        #[serde(default = "one")]
        multipv: u32,
    },
    /// Stop the engine's analysis.
    Stop,
}

fn one() -> u32 {
    1
}

/// One line of the engine's thinking, from an `info` line.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct InfoMsg {
    /// The line's rank with MultiPV (1 = the best).
    pub multipv: u32,
    /// Length of the principal variation.
    pub depth: Option<u32>,
    /// Deepest iteration.
    pub seldepth: Option<u32>,
    /// Iterations.
    pub nodes: Option<u64>,
    /// Iterations per second.
    pub nps: Option<u64>,
    /// Milliseconds since `go`.
    pub time: Option<u64>,
    /// Score, centipawns, from the mover's view.
    pub cp: Option<i32>,
    /// Win, draw, loss per mille from the mover's view.
    pub wdl: Option<[u32; 3]>,
    /// The principal variation.
    pub pv: Vec<String>,
}

impl From<&Info> for InfoMsg {
    fn from(i: &Info) -> InfoMsg {
        InfoMsg {
            multipv: i.multipv.unwrap_or(1),
            depth: i.depth,
            seldepth: i.seldepth,
            nodes: i.nodes,
            nps: i.nps,
            time: i.time,
            cp: i.score.map(|s| s.cp),
            wdl: i.score.and_then(|s: Score| s.wdl).map(|(w, d, l)| [w, d, l]),
            pv: i.pv.iter().map(ToString::to_string).collect(),
        }
    }
}

/// One root action's statistics, from `info rootstat`.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct RootStatMsg {
    /// The action.
    pub action: String,
    /// Iterations through it.
    pub visits: u64,
    /// Its score from the mover's view.
    pub cp: i32,
    /// Win, draw, loss per mille.
    pub wdl: Option<[u32; 3]>,
    /// Its prior in the search.
    pub prior: f64,
}

impl From<&RootStatLine> for RootStatMsg {
    fn from(r: &RootStatLine) -> RootStatMsg {
        RootStatMsg {
            action: r.action.to_string(),
            visits: r.visits,
            cp: r.score.cp,
            wdl: r.score.wdl.map(|(w, d, l)| [w, d, l]),
            prior: r.prior,
        }
    }
}

/// The engine's belief about one of the player's pieces, from `info belief`.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct BeliefMsg {
    /// The point of the player's piece.
    pub at: String,
    /// Kind letter (`9` .. `1`, `B`, `M`, `F`) and probability, most likely first.
    pub kinds: Vec<(String, f64)>,
}

impl From<&Belief> for BeliefMsg {
    fn from(b: &Belief) -> BeliefMsg {
        let mut kinds: Vec<(String, f64)> = b.kinds.iter().map(|(k, p)| (k.to_char().to_string(), *p)).collect();
        kinds.sort_by(|a, b| b.1.total_cmp(&a.1));
        BeliefMsg { at: b.at.to_string(), kinds }
    }
}

/// One entry of the move list: a ply and what the player was told of it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct MoveMsg {
    /// `r` or `b`: who played it.
    pub colour: char,
    /// The tokens told (the ply's, then reveals such as `b12=bF`).
    pub tokens: Vec<String>,
    /// Whether the player made it.
    pub yours: bool,
}

/// How a game ended.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ResultMsg {
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub score: String,
    /// `red`, `blue` or none for a draw.
    pub winner: Option<String>,
    /// The record's termination (`flag`, `noaction`, `resign`, ...).
    pub termination: String,
    /// In words.
    pub detail: String,
}

/// The game as the player sees it.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct GameMsg {
    /// Counts the games of this connection: messages of an older game are stale.
    pub id: u64,
    /// The preset.
    pub variant: String,
    /// The rule options over it.
    pub rules: BTreeMap<String, String>,
    /// `deploy`, `play` or `over`.
    pub phase: &'static str,
    /// The player's colour, `red` or `blue` (none in `flip` before the first flip).
    pub you: Option<String>,
    /// Whether the player moves first.
    pub you_first: bool,
    /// `you` or `engine` while the game goes on.
    pub turn: Option<&'static str>,
    /// The player's view, a position string (the board before deployment: empty).
    pub fen: String,
    /// The move list: what the player was told.
    pub moves: Vec<MoveMsg>,
    /// The player's legal actions when it is the player's turn (from the
    /// player's own engine's `perft 1`).
    pub legal: Vec<String>,
    /// The player's deployment proposal (deploy phase).
    pub setup: Option<String>,
    /// How it ended.
    pub result: Option<ResultMsg>,
    /// The engine's name.
    pub engine: String,
    /// The engine's limit per move.
    pub limit: Limit,
    /// MultiPV.
    pub multipv: u32,
    /// Whether a take-back is possible now.
    pub can_takeback: bool,
}

/// An analysed position.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct PositionMsg {
    /// The preset.
    pub variant: String,
    /// The rule options over it.
    pub rules: BTreeMap<String, String>,
    /// The `position` command's arguments as the engine was sent them.
    pub position: String,
    /// The position reached, a position string.
    pub fen: String,
    /// The side to move, `red`, `blue` or none.
    pub side: Option<String>,
    /// The legal actions of the side to move.
    pub legal: Vec<String>,
    /// The result if the game is over there.
    pub over: Option<String>,
}

/// One ply of a loaded game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct LoadedPly {
    /// `r` or `b`.
    pub colour: char,
    /// The ply's token and the reveals after it (the truth).
    pub tokens: Vec<String>,
    /// The position after it (the truth), a position string.
    pub fen: String,
}

/// A loaded game.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct LoadedMsg {
    /// The preset.
    pub variant: String,
    /// Rule options.
    pub rules: BTreeMap<String, String>,
    /// Names by colour, Red first.
    pub names: [String; 2],
    /// The start position (the truth: in `flip` all face down).
    pub start: String,
    /// The plies.
    pub plies: Vec<LoadedPly>,
    /// Result and termination, as recorded.
    pub result: String,
    /// Plies the graph will have values for (the positions before a game end).
    pub positions: usize,
    /// For each of those positions, the `position` arguments of the
    /// mover's view (what the engine analyses there).
    pub views: Vec<String>,
}

/// A message to the page.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Sent first: what the page needs to draw boards and offer settings.
    Hello(crate::board::BoardInfo),
    /// The engine processes started: the engine's name (`id name`).
    Engine {
        /// Its name.
        name: String,
    },
    /// The game changed.
    Game(GameMsg),
    /// A line of the engine's thinking.
    Info {
        /// The line.
        #[serde(flatten)]
        info: InfoMsg,
        /// What the engine is thinking about: `game`, `analysis`.
        context: &'static str,
    },
    /// A root action's statistics.
    Rootstat {
        /// The statistics.
        #[serde(flatten)]
        stat: RootStatMsg,
        /// As for `info`.
        context: &'static str,
    },
    /// The engine's belief about one of the player's pieces.
    Belief(BeliefMsg),
    /// The engine's answer to an analysis (`bestmove`).
    Bestmove {
        /// The action, none when there is none.
        action: Option<String>,
        /// As for `info`.
        context: &'static str,
    },
    /// The engine says something (analysis only: in a game it could
    /// repeat what the player may not see).
    Says {
        /// The text of its `info string`.
        text: String,
    },
    /// A deployment proposal for the editor.
    Setup {
        /// The deployment string.
        setup: String,
    },
    /// An analysed position.
    Position(PositionMsg),
    /// A loaded game.
    Loaded(LoadedMsg),
    /// One point of the evaluation graph of the loaded game.
    Graph {
        /// Plies played.
        ply: usize,
        /// Red's expected score, per mille (win + half a draw).
        red: u32,
        /// The score in centipawns from Red's view.
        cp: i32,
    },
    /// The game record, `.ljr`.
    Record {
        /// The text.
        text: String,
    },
    /// Something refused or failed, in words.
    Error {
        /// What and why.
        message: String,
    },
}

impl ServerMsg {
    /// An error message.
    pub fn error(message: impl std::fmt::Display) -> ServerMsg {
        ServerMsg::Error { message: message.to_string() }
    }

    /// The JSON text of the message.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!(r#"{{"type":"error","message":"{e}"}}"#))
    }
}

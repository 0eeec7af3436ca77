//! Lines from the engine to the GUI, as typed values. `Display` prints the
//! line; [`super::parse_response`] reads it back (match runners use it).

use std::fmt;

use crate::action::Action;
use crate::deployment::Deployment;

/// The kind and range of an option, as announced after `uli`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionKind {
    /// `type check default <true|false>`.
    Check {
        /// Default value.
        default: bool,
    },
    /// `type spin default <D> min <A> max <B>`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `type combo default <D> var <V1> var <V2> ...`.
    Combo {
        /// Default value.
        default: String,
        /// Allowed values.
        vars: Vec<String>,
    },
    /// `type string default <D>` (`<empty>` for the empty string).
    Str {
        /// Default value.
        default: String,
    },
    /// `type button`.
    Button,
}

/// One option the engine offers.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OptionSpec {
    /// Its name.
    pub name: String,
    /// Its kind and range.
    pub kind: OptionKind,
}

/// The evaluation reported in an `info` line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Score {
    /// Centipawn-like score from the mover's view (see `protocol.md`).
    pub cp: i32,
    /// Win, draw, loss per mille from the mover's view.
    pub wdl: Option<(u32, u32, u32)>,
}

/// An `info` line with search figures. Every field is optional on input;
/// the engine always sends depth, seldepth, nodes, nps, time, score and pv.
/// Its actions are two-player actions unless named (four-player lines
/// carry [`crate::siguo::Action`]s).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Info<A = Action> {
    /// Length of the principal variation.
    pub depth: Option<u32>,
    /// Deepest point reached.
    pub seldepth: Option<u32>,
    /// The rank of this line's first action with `MultiPV` (1: the best).
    pub multipv: Option<u32>,
    /// Search iterations.
    pub nodes: Option<u64>,
    /// Iterations per second.
    pub nps: Option<u64>,
    /// Milliseconds since the search started.
    pub time: Option<u64>,
    /// The evaluation.
    pub score: Option<Score>,
    /// Fraction of `Hash` in use, per mille.
    pub hashfull: Option<u32>,
    /// The principal variation.
    pub pv: Vec<A>,
}

impl<A> Default for Info<A> {
    fn default() -> Info<A> {
        Info {
            depth: None,
            seldepth: None,
            multipv: None,
            nodes: None,
            nps: None,
            time: None,
            score: None,
            hashfull: None,
            pv: Vec::new(),
        }
    }
}

/// `info rootstat <action> visits <n> score cp <cp> wdl <w> <d> <l> prior
/// <p>`: one root action's statistics (`ShowRootStats`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct RootStatLine<A = Action> {
    /// The action.
    pub action: A,
    /// Search iterations through it.
    pub visits: u64,
    /// Its value for the side to move, as in `info ... score`.
    pub score: Score,
    /// Its prior probability, to 4 decimals.
    pub prior: f64,
}

impl<A: fmt::Display> fmt::Display for RootStatLine<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} visits {} score cp {}", self.action, self.visits, self.score.cp)?;
        if let Some((w, d, l)) = self.score.wdl {
            write!(f, " wdl {w} {d} {l}")?;
        }
        write!(f, " prior {:.4}", self.prior)
    }
}

/// `info belief <point> <kind>:<p> ...`: the probability of each kind for
/// one enemy piece.
#[derive(Clone, PartialEq, Debug)]
pub struct Belief {
    /// The point of the piece.
    pub at: crate::board::Point,
    /// (kind, probability) pairs.
    pub kinds: Vec<(crate::piece::Kind, f64)>,
}

/// The point and its kinds, `a7 3:0.166 2:0.160 ...` (what follows
/// `info belief`, and `belief` in the board of `d`).
impl fmt::Display for Belief {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.at)?;
        self.kinds.iter().try_for_each(|(k, p)| write!(f, " {}:{p:.3}", k.to_char()))
    }
}

/// A line from the engine.
#[derive(Clone, PartialEq, Debug)]
pub enum Response {
    /// `id name <name>`.
    IdName(String),
    /// `id author <author>`.
    IdAuthor(String),
    /// `option name <N> type ...`.
    Option(OptionSpec),
    /// `uliok`.
    UliOk,
    /// `readyok`.
    ReadyOk,
    /// `bestmove <action> [ponder <action>]`, or `bestmove none`.
    BestMove {
        /// The action, `None` when there is no legal action.
        action: Option<Action>,
        /// The expected reply.
        ponder: Option<Action>,
    },
    /// `bestsetup <deployment>`.
    BestSetup(Deployment),
    /// `info depth ... pv ...`.
    Info(Info),
    /// `info belief ...`.
    Belief(Belief),
    /// `info rootstat ...`.
    RootStat(RootStatLine),
    /// `info string <text>`.
    InfoString(String),
    /// A perft divide line `<action>: <count>`.
    PerftLine(Action, u64),
    /// `nodes <total>` after a perft.
    PerftTotal(u64),
    /// `<N> nodes <M> nps`, the last line of `bench`.
    BenchTotal {
        /// Nodes searched: the signature.
        nodes: u64,
        /// Speed.
        nps: u64,
    },
    /// Free text of a debug command (`d`).
    Text(String),
    /// `bestmove <action>` of a four-player game (`Sa3-Sa4`); no action is
    /// [`Response::BestMove`] with none.
    SiguoBestMove(crate::siguo::Action),
    /// A four-player `info` line (its principal variation in four-player
    /// notation).
    SiguoInfo(Info<crate::siguo::Action>),
    /// A four-player `info rootstat` line.
    SiguoRootStat(RootStatLine<crate::siguo::Action>),
    /// `bestsetup <deployment>` of a seat's arm (`s5s3s7s4s6/...`).
    SiguoBestSetup(crate::siguo::notation::ArmDeployment),
    /// A four-player perft divide line `<action>: <count>`.
    SiguoPerftLine(crate::siguo::Action, u64),
}

impl Response {
    /// `info string error: <message>`.
    pub fn error(message: impl fmt::Display) -> Response {
        Response::InfoString(format!("error: {}", printable(&message.to_string())))
    }

    /// Whether this is an `info string error: ...` line.
    pub fn is_error(&self) -> bool {
        matches!(self, Response::InfoString(s) if s.starts_with("error:"))
    }
}

impl fmt::Display for OptionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => write!(f, "spin default {default} min {min} max {max}"),
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::Str { default } => {
                let d = if default.is_empty() { "<empty>" } else { default };
                write!(f, "string default {d}")
            }
            OptionKind::Button => f.write_str("button"),
        }
    }
}

impl<A: fmt::Display> fmt::Display for Info<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let fields = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("time", self.time),
            ("hashfull", self.hashfull.map(u64::from)),
        ];
        for (name, v) in fields {
            if let Some(v) = v {
                write!(f, " {name} {v}")?;
            }
        }
        if let Some(s) = self.score {
            write!(f, " score cp {}", s.cp)?;
            if let Some((w, d, l)) = s.wdl {
                write!(f, " wdl {w} {d} {l}")?;
            }
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            self.pv.iter().try_for_each(|a| write!(f, " {a}"))?;
        }
        Ok(())
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::IdName(s) => write!(f, "id name {s}"),
            Response::IdAuthor(s) => write!(f, "id author {s}"),
            Response::Option(o) => write!(f, "{o}"),
            Response::UliOk => f.write_str("uliok"),
            Response::ReadyOk => f.write_str("readyok"),
            Response::BestMove { action, ponder } => {
                match action {
                    Some(a) => write!(f, "bestmove {a}")?,
                    None => f.write_str("bestmove none")?,
                }
                if let Some(p) = ponder {
                    write!(f, " ponder {p}")?;
                }
                Ok(())
            }
            Response::BestSetup(d) => write!(f, "bestsetup {d}"),
            Response::Info(i) => write!(f, "{i}"),
            Response::Belief(b) => write!(f, "info belief {b}"),
            Response::RootStat(r) => write!(f, "info rootstat {r}"),
            Response::InfoString(s) => write!(f, "info string {s}"),
            Response::PerftLine(a, n) => write!(f, "{a}: {n}"),
            Response::PerftTotal(n) => write!(f, "nodes {n}"),
            Response::BenchTotal { nodes, nps } => write!(f, "{nodes} nodes {nps} nps"),
            Response::Text(s) => f.write_str(s),
            Response::SiguoBestMove(a) => write!(f, "bestmove {a}"),
            Response::SiguoInfo(i) => write!(f, "{i}"),
            Response::SiguoRootStat(r) => write!(f, "info rootstat {r}"),
            Response::SiguoBestSetup(d) => write!(f, "bestsetup {d}"),
            Response::SiguoPerftLine(a, n) => write!(f, "{a}: {n}"),
        }
    }
}

/// An error text's head and tail kept when it is longer than both (a 1 MB
/// input line echoed back would otherwise come back whole), in characters.
const ERROR_HEAD: usize = 160;
const ERROR_TAIL: usize = 100;

/// `text` fit for one protocol line: control characters (NUL, ESC, ...)
/// escaped as `\u{..}`, and a long text cut in the middle, keeping its start
/// and its end (where the reason usually is).
fn printable(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            escaped.extend(c.escape_unicode());
        } else {
            escaped.push(c);
        }
    }
    let n = escaped.chars().count();
    if n <= ERROR_HEAD + ERROR_TAIL {
        return escaped;
    }
    let head: String = escaped.chars().take(ERROR_HEAD).collect();
    let tail: String = escaped.chars().skip(n - ERROR_TAIL).collect();
    format!("{head}... ({} characters left out) ...{tail}", n - ERROR_HEAD - ERROR_TAIL)
}

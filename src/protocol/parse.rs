//! The pure parsers of the protocol: a line of text to a typed command (GUI
//! to engine) or a typed response (engine to GUI). No game state is touched:
//! a syntactically valid `position` may still be illegal, which the engine
//! finds out and reports.

use std::fmt;

use nom::bytes::complete::take_while1;
use nom::character::complete::multispace0;
use nom::multi::many0;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use super::command::{Command, Go, PositionStart, SiguoStart};
use super::response::{Belief, Info, OptionKind, OptionSpec, Response, RootStatLine, Score};
use crate::action::Token;
use crate::deployment::Deployment;
use crate::notation::{NotationError, parse_action, parse_deployment, parse_point, parse_setup, parse_token};
use crate::piece::{Colour, Kind};
use crate::siguo::notation::{ArmDeployment, SiguoNotationError, parse_siguo_action, parse_siguo_setup};
use crate::siguo::{Seat, SiguoToken, TokenError};

/// Why a line could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParseError {
    /// The line holds only white space.
    Empty,
    /// The first word is not a command.
    UnknownCommand(String),
    /// Something required is missing.
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// A word the command does not expect.
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word.
        word: String,
    },
    /// A value that is not of the expected form.
    BadValue {
        /// The command.
        command: &'static str,
        /// Which argument.
        field: String,
        /// What was there.
        value: String,
    },
    /// A malformed position string.
    Fen(NotationError),
    /// A malformed history token (1-based index in the list).
    Move {
        /// Position in the `moves` list, from 1.
        index: usize,
        /// The token text.
        token: String,
        /// What is wrong with it.
        error: NotationError,
    },
    /// A malformed deployment in `bestsetup`.
    Setup(String),
    /// A malformed four-player position string.
    SiguoFen(SiguoNotationError),
    /// A malformed four-player history token (1-based index in the list).
    SiguoMove {
        /// Position in the `moves` list, from 1.
        index: usize,
        /// The token text.
        token: String,
        /// What is wrong with it.
        error: TokenError,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty line"),
            ParseError::UnknownCommand(w) => write!(f, "unknown command '{w}'"),
            ParseError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            ParseError::Unexpected { command, word } => write!(f, "{command}: unexpected '{word}'"),
            ParseError::BadValue { command, field, value } => write!(f, "{command}: bad value '{value}' for {field}"),
            ParseError::Fen(e) => write!(f, "position fen: {e}"),
            ParseError::Move { index, token, error } => write!(f, "position: move {index} '{token}': {error}"),
            ParseError::Setup(e) => write!(f, "bestsetup: {e}"),
            ParseError::SiguoFen(e) => write!(f, "position fen: {e}"),
            // A token of no form is named by the error itself.
            ParseError::SiguoMove { index, error: error @ TokenError::Form(_), .. } => {
                write!(f, "position: move {index}: {error}")
            }
            ParseError::SiguoMove { index, token, error } => write!(f, "position: move {index} '{token}': {error}"),
        }
    }
}

impl std::error::Error for ParseError {}

fn word(i: &str) -> IResult<&str, &str> {
    preceded(multispace0, take_while1(|c: char| !c.is_whitespace())).parse(i)
}

/// Splits a line into words separated by white space.
fn words(line: &str) -> Vec<&str> {
    match many0(word).parse(line) {
        Ok((_, w)) => w,
        Err(_) => Vec::new(),
    }
}

fn number<T: std::str::FromStr>(command: &'static str, field: &str, value: Option<&&str>) -> Result<T, ParseError> {
    let v = value.ok_or(ParseError::BadValue { command, field: field.to_owned(), value: String::new() })?;
    if !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::BadValue { command, field: field.to_owned(), value: (*v).to_owned() });
    }
    v.parse().map_err(|_| ParseError::BadValue { command, field: field.to_owned(), value: (*v).to_owned() })
}

fn no_more(command: &'static str, rest: &[&str]) -> Result<(), ParseError> {
    match rest.first() {
        Some(w) => Err(ParseError::Unexpected { command, word: (*w).to_owned() }),
        None => Ok(()),
    }
}

/// Parses one line from the GUI.
///
/// # Errors
/// A [`ParseError`] saying what is wrong; [`ParseError::Empty`] for a blank
/// line (which the engine ignores).
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
    let w = words(line);
    let Some((&head, rest)) = w.split_first() else {
        return Err(ParseError::Empty);
    };
    let simple = |c: Command, name: &'static str| no_more(name, rest).map(|()| c);
    match head {
        "uli" => simple(Command::Uli, "uli"),
        "isready" => simple(Command::IsReady, "isready"),
        "newgame" => simple(Command::NewGame, "newgame"),
        "stop" => simple(Command::Stop, "stop"),
        "ponderhit" => simple(Command::PonderHit, "ponderhit"),
        "quit" => simple(Command::Quit, "quit"),
        "d" => simple(Command::Display, "d"),
        "bench" => simple(Command::Bench, "bench"),
        "perft" => {
            let depth = number("perft", "depth", rest.first())?;
            no_more("perft", &rest[1..])?;
            Ok(Command::Perft(depth))
        }
        "setoption" => parse_setoption(rest),
        "position" => parse_position_command(rest),
        "go" => parse_go(rest),
        other => Err(ParseError::UnknownCommand(other.to_owned())),
    }
}

/// Parses one line from the GUI in a four-player variant: `position` takes
/// the four-player position string and history tokens, `go setup` a seat
/// (`s`, `e`, `n`, `w`), `go searchmoves` four-player actions; every other
/// command reads as in [`parse_command`].
///
/// # Errors
/// As [`parse_command`].
pub fn parse_siguo_command(line: &str) -> Result<Command, ParseError> {
    let w = words(line);
    match w.split_first() {
        Some((&"position", rest)) => parse_siguo_position(rest),
        Some((&"go", rest)) if rest.first() == Some(&"setup") => match &rest[1..] {
            [] => Ok(Command::SiguoGoSetup(None)),
            [s] => match s.chars().collect::<Vec<_>>()[..] {
                [c] if c.is_ascii_lowercase() && Seat::from_char(c).is_some() => {
                    Ok(Command::SiguoGoSetup(Seat::from_char(c)))
                }
                _ => Err(ParseError::BadValue {
                    command: "go",
                    field: "setup seat (s, e, n or w)".into(),
                    value: (*s).into(),
                }),
            },
            [_, extra, ..] => Err(ParseError::Unexpected { command: "go", word: (*extra).to_owned() }),
        },
        Some((&"go", rest)) if rest.contains(&"searchmoves") => parse_siguo_go(rest),
        _ => parse_command(line),
    }
}

/// A four-player `go` with `searchmoves`: its actions (up to the next
/// keyword; several `searchmoves` add up, as for two players) read as
/// four-player actions, the other words as any `go`.
fn parse_siguo_go(rest: &[&str]) -> Result<Command, ParseError> {
    let (mut searchmoves, mut others, mut i) = (Vec::new(), Vec::new(), 0);
    while i < rest.len() {
        if rest[i] != "searchmoves" {
            others.push(rest[i]);
            i += 1;
            continue;
        }
        i = searchmoves_at(rest, i, parse_siguo_action, &mut searchmoves)?;
    }
    match parse_go(&others)? {
        Command::Go(go) => Ok(Command::SiguoGo { go, searchmoves }),
        _ => Err(ParseError::Unexpected { command: "go", word: "searchmoves".to_owned() }),
    }
}

fn parse_siguo_position(rest: &[&str]) -> Result<Command, ParseError> {
    let (fen, tail) = position_parts(rest)?;
    let start = match fen {
        None => SiguoStart::StartPos,
        Some(text) => SiguoStart::Fen(parse_siguo_setup(&text).map_err(ParseError::SiguoFen)?),
    };
    let moves = tail
        .iter()
        .enumerate()
        .map(|(i, t)| {
            t.parse::<SiguoToken>().map_err(|error| ParseError::SiguoMove {
                index: i + 1,
                token: (*t).to_owned(),
                error,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Command::SiguoPosition { start, moves })
}

fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    const C: &str = "setoption";
    match rest.first() {
        Some(&"name") => {}
        Some(w) => return Err(ParseError::Unexpected { command: C, word: (*w).to_owned() }),
        None => return Err(ParseError::Missing { command: C, what: "'name'" }),
    }
    let rest = &rest[1..];
    let split = rest.iter().position(|w| *w == "value");
    let (name_words, value) = match split {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name_words.is_empty() {
        return Err(ParseError::Missing { command: C, what: "option name" });
    }
    Ok(Command::SetOption { name: name_words.join(" "), value })
}

/// The words after `position` split into the start (`None` for
/// `startpos`, the position string after `fen`) and the history tokens
/// after `moves`.
fn position_parts<'a>(rest: &'a [&'a str]) -> Result<(Option<String>, &'a [&'a str]), ParseError> {
    const C: &str = "position";
    let (head, tail) = match rest.iter().position(|w| *w == "moves") {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    match head.split_first() {
        Some((&"startpos", more)) => no_more(C, more).map(|()| (None, tail)),
        Some((&"fen", [])) => Err(ParseError::Missing { command: C, what: "position string after 'fen'" }),
        Some((&"fen", fields)) => Ok((Some(fields.join(" ")), tail)),
        Some((w, _)) => Err(ParseError::Unexpected { command: C, word: (*w).to_owned() }),
        None => Err(ParseError::Missing { command: C, what: "'startpos' or 'fen'" }),
    }
}

fn parse_position_command(rest: &[&str]) -> Result<Command, ParseError> {
    let (fen, tail) = position_parts(rest)?;
    let start = match fen {
        None => PositionStart::StartPos,
        Some(text) => PositionStart::Fen(parse_setup(&text).map_err(ParseError::Fen)?),
    };
    let mut moves = Vec::new();
    for (i, t) in tail.iter().enumerate() {
        let token = parse_token(t).map_err(|error| ParseError::Move { index: i + 1, token: (*t).to_owned(), error })?;
        moves.push(token);
    }
    Ok(Command::Position { start, moves })
}

/// The words of `go` that take the place of a `searchmoves` action.
const GO_KEYWORDS: [&str; 11] =
    ["infinite", "ponder", "movetime", "rtime", "btime", "rinc", "binc", "movestogo", "nodes", "depth", "searchmoves"];

/// Reads the actions of the `searchmoves` at `rest[i]` with `parse` into
/// `into`: the words up to the next keyword (UCI puts `searchmoves` last; a
/// GUI may not). Returns the index after them.
fn searchmoves_at<A, E>(
    rest: &[&str],
    i: usize,
    parse: impl Fn(&str) -> Result<A, E>,
    into: &mut Vec<A>,
) -> Result<usize, ParseError> {
    let end = rest[i + 1..].iter().position(|w| GO_KEYWORDS.contains(w)).map_or(rest.len(), |k| i + 1 + k);
    if end == i + 1 {
        return Err(ParseError::Missing { command: "go", what: "an action after 'searchmoves'" });
    }
    for w in &rest[i + 1..end] {
        let a = parse(w).map_err(|_| ParseError::BadValue {
            command: "go",
            field: "searchmoves".into(),
            value: (*w).to_owned(),
        })?;
        into.push(a);
    }
    Ok(end)
}

fn parse_go(rest: &[&str]) -> Result<Command, ParseError> {
    const C: &str = "go";
    if rest.first() == Some(&"setup") {
        return match &rest[1..] {
            [] => Ok(Command::GoSetup(None)),
            [c] => match *c {
                "r" => Ok(Command::GoSetup(Some(Colour::Red))),
                "b" => Ok(Command::GoSetup(Some(Colour::Blue))),
                other => Err(ParseError::BadValue { command: C, field: "setup colour".into(), value: other.into() }),
            },
            [_, extra, ..] => Err(ParseError::Unexpected { command: C, word: (*extra).to_owned() }),
        };
    }
    let mut go = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let value = rest.get(i + 1);
        match key {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "movetime" => go.movetime = Some(number(C, key, value)?),
            "rtime" => go.rtime = Some(number(C, key, value)?),
            "btime" => go.btime = Some(number(C, key, value)?),
            "rinc" => go.rinc = Some(number(C, key, value)?),
            "binc" => go.binc = Some(number(C, key, value)?),
            "movestogo" => go.movestogo = Some(number(C, key, value)?),
            "nodes" => go.nodes = Some(number(C, key, value)?),
            "depth" => go.depth = Some(number(C, key, value)?),
            "searchmoves" => {
                i = searchmoves_at(rest, i, parse_action, &mut go.searchmoves)?;
                continue;
            }
            other => return Err(ParseError::Unexpected { command: C, word: other.to_owned() }),
        }
        i += if matches!(key, "infinite" | "ponder") { 1 } else { 2 };
    }
    Ok(Command::Go(go))
}

/// Parses one line from the engine. Lines that are not protocol responses
/// (the board drawn by `d`) come back as [`Response::Text`].
///
/// # Errors
/// A [`ParseError`] for a response keyword followed by malformed values.
pub fn parse_response(line: &str) -> Result<Response, ParseError> {
    let w = words(line);
    let Some((&head, rest)) = w.split_first() else {
        return Err(ParseError::Empty);
    };
    match head {
        "id" => match rest.split_first() {
            Some((&"name", v)) => Ok(Response::IdName(v.join(" "))),
            Some((&"author", v)) => Ok(Response::IdAuthor(v.join(" "))),
            _ => Err(ParseError::Missing { command: "id", what: "'name' or 'author'" }),
        },
        "option" => parse_option(rest).map(Response::Option),
        "uliok" => no_more("uliok", rest).map(|()| Response::UliOk),
        "readyok" => no_more("readyok", rest).map(|()| Response::ReadyOk),
        "bestmove" => parse_bestmove(rest),
        "bestsetup" => {
            let text = rest.first().ok_or(ParseError::Missing { command: "bestsetup", what: "deployment" })?;
            no_more("bestsetup", &rest[1..])?;
            if text.contains(['s', 'e', 'n', 'w']) {
                return ArmDeployment::parse(text).map(Response::SiguoBestSetup).map_err(ParseError::Setup);
            }
            parse_setup_string(text).map(Response::BestSetup)
        }
        "info" => parse_info(line, rest),
        "nodes" if rest.len() == 1 => number("nodes", "total", rest.first()).map(Response::PerftTotal),
        _ if head.ends_with(':') && rest.len() == 1 => {
            let text = &head[..head.len() - 1];
            let n = number("perft", "count", rest.first())?;
            match parse_action(text) {
                Ok(a) => Ok(Response::PerftLine(a, n)),
                Err(_) => parse_siguo_action(text)
                    .map(|a| Response::SiguoPerftLine(a, n))
                    .map_err(|_| ParseError::UnknownCommand(head.to_owned())),
            }
        }
        _ if rest.len() == 3 && rest[0] == "nodes" && rest[2] == "nps" => Ok(Response::BenchTotal {
            nodes: number("bench", "nodes", w.first())?,
            nps: number("bench", "nps", rest.get(1))?,
        }),
        _ => Ok(Response::Text(line.trim_end().to_owned())),
    }
}

/// Reads a deployment string of either colour: the first colour letter
/// says which (kinds are digits or capitals, so `r`/`b` only start pieces).
fn parse_setup_string(text: &str) -> Result<Deployment, ParseError> {
    let colour = match text.chars().find(|c| matches!(c, 'r' | 'b')) {
        Some('b') => Colour::Blue,
        _ => Colour::Red,
    };
    parse_deployment(text, colour).map_err(|e| ParseError::Setup(e.to_string()))
}

fn parse_bestmove(rest: &[&str]) -> Result<Response, ParseError> {
    const C: &str = "bestmove";
    let first = rest.first().ok_or(ParseError::Missing { command: C, what: "action" })?;
    let action = if *first == "none" {
        None
    } else if let (Err(_), Ok(a)) = (parse_action(first), parse_siguo_action(first)) {
        no_more(C, &rest[1..])?;
        return Ok(Response::SiguoBestMove(a));
    } else {
        Some(parse_action(first).map_err(|_| ParseError::BadValue {
            command: C,
            field: "action".into(),
            value: (*first).to_owned(),
        })?)
    };
    let ponder = match &rest[1..] {
        [] => None,
        ["ponder", p] => Some(parse_action(p).map_err(|_| ParseError::BadValue {
            command: C,
            field: "ponder".into(),
            value: (*p).to_owned(),
        })?),
        [w, ..] => return Err(ParseError::Unexpected { command: C, word: (*w).to_owned() }),
    };
    Ok(Response::BestMove { action, ponder })
}

fn parse_option(rest: &[&str]) -> Result<OptionSpec, ParseError> {
    const C: &str = "option";
    if rest.first() != Some(&"name") {
        return Err(ParseError::Missing { command: C, what: "'name'" });
    }
    let type_at = rest.iter().position(|w| *w == "type").ok_or(ParseError::Missing { command: C, what: "'type'" })?;
    let name = rest[1..type_at].join(" ");
    let spec = &rest[type_at + 1..];
    let kind_word = spec.first().ok_or(ParseError::Missing { command: C, what: "option type" })?;
    let mut default = None;
    let mut min = None;
    let mut max = None;
    let mut vars = Vec::new();
    let mut i = 1;
    while i < spec.len() {
        let value = spec.get(i + 1).copied().ok_or(ParseError::Missing { command: C, what: "value" })?;
        match spec[i] {
            "default" => default = Some(value),
            "min" => min = Some(value),
            "max" => max = Some(value),
            "var" => vars.push(value.to_owned()),
            other => return Err(ParseError::Unexpected { command: C, word: other.to_owned() }),
        }
        i += 2;
    }
    fn need<'a>(v: Option<&'a str>, what: &'static str) -> Result<&'a str, ParseError> {
        v.ok_or(ParseError::Missing { command: "option", what })
    }
    let int = |v: &str, field: &str| {
        v.parse::<i64>().map_err(|_| ParseError::BadValue { command: C, field: field.to_owned(), value: v.to_owned() })
    };
    let kind = match *kind_word {
        "check" => match need(default, "default")? {
            "true" => OptionKind::Check { default: true },
            "false" => OptionKind::Check { default: false },
            v => return Err(ParseError::BadValue { command: C, field: "default".into(), value: v.into() }),
        },
        "spin" => OptionKind::Spin {
            default: int(need(default, "default")?, "default")?,
            min: int(need(min, "min")?, "min")?,
            max: int(need(max, "max")?, "max")?,
        },
        "combo" => OptionKind::Combo { default: need(default, "default")?.to_owned(), vars },
        "string" => {
            let d = need(default, "default")?;
            OptionKind::Str { default: if d == "<empty>" { String::new() } else { d.to_owned() } }
        }
        "button" => OptionKind::Button,
        other => return Err(ParseError::BadValue { command: C, field: "type".into(), value: other.into() }),
    };
    Ok(OptionSpec { name, kind })
}

fn parse_info(line: &str, rest: &[&str]) -> Result<Response, ParseError> {
    match rest.first() {
        Some(&"string") => {
            // Keep the text exactly as sent after "info string ".
            let text = line.trim_start();
            let text = text["info".len()..].trim_start();
            let text = text["string".len()..].strip_prefix(' ').unwrap_or(&text["string".len()..]);
            return Ok(Response::InfoString(text.trim_end().to_owned()));
        }
        Some(&"belief") => return parse_belief(&rest[1..]).map(Response::Belief),
        Some(&"rootstat") => {
            let words = &rest[1..];
            if words.first().is_some_and(|a| is_siguo_action(a)) {
                return parse_root_stat(words, |t| parse_siguo_action(t).ok()).map(Response::SiguoRootStat);
            }
            return parse_root_stat(words, |t| parse_action(t).ok()).map(Response::RootStat);
        }
        _ => {}
    }
    // A principal variation in four-player notation makes a four-player line.
    let pv = rest.iter().position(|w| *w == "pv").and_then(|i| rest.get(i + 1));
    if pv.is_some_and(|a| is_siguo_action(a)) {
        return parse_info_fields(rest, |t| parse_siguo_action(t).ok()).map(Response::SiguoInfo);
    }
    parse_info_fields(rest, |t| parse_action(t).ok()).map(Response::Info)
}

/// Whether `text` reads as a four-player action and not a two-player one.
fn is_siguo_action(text: &str) -> bool {
    parse_action(text).is_err() && parse_siguo_action(text).is_ok()
}

/// The fields of an `info` line (after `info`), its actions read by `action`.
fn parse_info_fields<A>(rest: &[&str], action: impl Fn(&str) -> Option<A>) -> Result<Info<A>, ParseError> {
    const C: &str = "info";
    let mut info = Info::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let v = rest.get(i + 1);
        match key {
            "depth" => info.depth = Some(number(C, key, v)?),
            "seldepth" => info.seldepth = Some(number(C, key, v)?),
            "multipv" => info.multipv = Some(number(C, key, v)?),
            "nodes" => info.nodes = Some(number(C, key, v)?),
            "nps" => info.nps = Some(number(C, key, v)?),
            "time" => info.time = Some(number(C, key, v)?),
            "hashfull" => info.hashfull = Some(number(C, key, v)?),
            "score" => {
                if v != Some(&"cp") {
                    return Err(ParseError::Missing { command: C, what: "'cp' after 'score'" });
                }
                let cp_text = rest.get(i + 2).ok_or(ParseError::Missing { command: C, what: "score value" })?;
                let cp = cp_text.parse::<i32>().map_err(|_| ParseError::BadValue {
                    command: C,
                    field: "score cp".into(),
                    value: (*cp_text).to_owned(),
                })?;
                info.score = Some(Score { cp, wdl: None });
                i += 3;
                continue;
            }
            "wdl" => {
                let w = number(C, "wdl", rest.get(i + 1))?;
                let d = number(C, "wdl", rest.get(i + 2))?;
                let l = number(C, "wdl", rest.get(i + 3))?;
                let score = info.score.get_or_insert(Score { cp: 0, wdl: None });
                score.wdl = Some((w, d, l));
                i += 4;
                continue;
            }
            "pv" => {
                for a in &rest[i + 1..] {
                    info.pv.push(action(a).ok_or_else(|| ParseError::BadValue {
                        command: C,
                        field: "pv".into(),
                        value: (*a).to_owned(),
                    })?);
                }
                break;
            }
            other => return Err(ParseError::Unexpected { command: C, word: other.to_owned() }),
        }
        i += 2;
    }
    Ok(info)
}

fn parse_root_stat<A>(rest: &[&str], action: impl Fn(&str) -> Option<A>) -> Result<RootStatLine<A>, ParseError> {
    const C: &str = "info rootstat";
    let bad = |field: &str, value: &str| ParseError::BadValue { command: C, field: field.into(), value: value.into() };
    let (action_text, visits, cp, w, d, l, prior) = match rest {
        [a, "visits", n, "score", "cp", cp, "wdl", w, d, l, "prior", p] => (*a, *n, *cp, *w, *d, *l, *p),
        _ => return Err(ParseError::Missing { command: C, what: "<action> visits N score cp CP wdl W D L prior P" }),
    };
    let action = action(action_text).ok_or_else(|| bad("action", action_text))?;
    let visits = number(C, "visits", Some(&visits))?;
    let cp = cp.parse::<i32>().map_err(|_| bad("score cp", cp))?;
    let wdl = (number(C, "wdl", Some(&w))?, number(C, "wdl", Some(&d))?, number(C, "wdl", Some(&l))?);
    let prior = prior.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p)).ok_or_else(|| bad("prior", prior))?;
    Ok(RootStatLine { action, visits, score: Score { cp, wdl: Some(wdl) }, prior })
}

fn parse_belief(rest: &[&str]) -> Result<Belief, ParseError> {
    const C: &str = "info belief";
    let at_text = rest.first().ok_or(ParseError::Missing { command: C, what: "point" })?;
    let at = parse_point(at_text).map_err(|_| ParseError::BadValue {
        command: C,
        field: "point".into(),
        value: (*at_text).to_owned(),
    })?;
    let mut kinds = Vec::new();
    for item in &rest[1..] {
        let bad = || ParseError::BadValue { command: C, field: "kind:probability".into(), value: (*item).to_owned() };
        let (k, p) = item.split_once(':').ok_or_else(bad)?;
        let mut chars = k.chars();
        let kind = match (chars.next(), chars.next()) {
            (Some(c), None) => Kind::from_char(c).ok_or_else(bad)?,
            _ => return Err(bad()),
        };
        let p: f64 = p.parse().map_err(|_| bad())?;
        if !(0.0..=1.0).contains(&p) {
            return Err(bad());
        }
        kinds.push((kind, p));
    }
    Ok(Belief { at, kinds })
}

/// Parses a history token list such as `c3=r9 a4-a5` (used by tools).
///
/// # Errors
/// The first malformed token.
pub fn parse_tokens(text: &str) -> Result<Vec<Token>, ParseError> {
    words(text)
        .into_iter()
        .enumerate()
        .map(|(i, t)| parse_token(t).map_err(|error| ParseError::Move { index: i + 1, token: t.to_owned(), error }))
        .collect()
}

//! The NEU CS4500 (Spring 2014) referee protocol, ADAPTERS.md §3-§4: its
//! positions, piece symbols, S-expression setups and moves, referee
//! messages, mapped to ours, and the engine side ([`EngineSide`]: our
//! engine as a `play4500` player).

use std::fmt;
use std::process::ExitCode;
use std::time::Duration;

use super::{AdapterError, Log, Seat, Uli, handshake, parse_bestmove, sync, wait_for};
use crate::board::Point;
use crate::board::topology::CAMPS;
use crate::combat::Outcome;
use crate::deployment::Deployment;
use crate::piece::{Colour, Kind, Piece};
use crate::rules::Rules;

/// A CS4500 position such as `C11`: a column `A`..`E` and a row 1..12
/// counted from the player's own back row, in that player's frame.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Pos {
    /// 0 = `A` … 4 = `E`.
    pub col: u8,
    /// 1..=12.
    pub row: u8,
}

impl Pos {
    /// Reads `A1`..`E12` (`[A-E]([1-9]|1[0-2])`).
    pub fn parse(s: &str) -> Option<Pos> {
        let b = s.as_bytes();
        let col = (*b.first()?).checked_sub(b'A').filter(|c| *c < 5)?;
        let digits = &s[1..];
        if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|d| d.is_ascii_digit()) {
            return None;
        }
        let row: u8 = digits.parse().ok().filter(|r| (1..=12).contains(r))?;
        Some(Pos { col, row })
    }

    /// Our point for this position of a player of `colour` (ADAPTERS.md §4.1).
    pub fn point(self, colour: Colour) -> Point {
        let (file, rank) = match colour {
            Colour::Red => (self.col, self.row - 1),
            Colour::Blue => (4 - self.col, 12 - self.row),
        };
        Point::new(file, rank).unwrap_or_else(|| unreachable!("a position maps onto the board"))
    }

    /// The position of our point `p` for a player of `colour`.
    pub fn of(p: Point, colour: Colour) -> Pos {
        match colour {
            Colour::Red => Pos { col: p.file(), row: p.rank() + 1 },
            Colour::Blue => Pos { col: 4 - p.file(), row: 12 - p.rank() },
        }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'A' + self.col), self.row)
    }
}

/// The CS4500 symbol of a kind: `1`-`9`, `B`, `L` (landmine), `F`.
pub fn symbol(kind: Kind) -> char {
    match kind {
        Kind::Mine => 'L',
        k => k.to_char(),
    }
}

/// The kind of a CS4500 symbol.
pub fn kind_of_symbol(c: &str) -> Option<Kind> {
    match c {
        "L" => Some(Kind::Mine),
        "M" => None,
        s if s.len() == 1 => s.chars().next().and_then(Kind::from_char),
        _ => None,
    }
}

/// An S-expression as the players write it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Sexpr {
    /// A word.
    Atom(String),
    /// `( ... )`.
    List(Vec<Sexpr>),
}

/// Parses one S-expression (free whitespace), the whole text.
///
/// # Errors
/// [`AdapterError::BadMessage`].
pub fn parse_sexpr(text: &str) -> Result<Sexpr, AdapterError> {
    let bad = || AdapterError::BadMessage(text.trim().to_owned());
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    let mut stack: Vec<Vec<Sexpr>> = vec![Vec::new()];
    for w in spaced.split_whitespace() {
        match w {
            "(" => stack.push(Vec::new()),
            ")" => {
                let done = stack.pop().ok_or_else(bad)?;
                stack.last_mut().ok_or_else(bad)?.push(Sexpr::List(done));
            }
            atom => stack.last_mut().ok_or_else(bad)?.push(Sexpr::Atom(atom.to_owned())),
        }
    }
    match stack.pop() {
        Some(mut top) if stack.is_empty() && top.len() == 1 => top.pop().ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// The setup S-expression of a deployment: the compact form, pairs in
/// own-frame order `A1`..`E1`, `A2`..`E2`, …, `A6`..`E6` (ADAPTERS.md §4.2).
pub fn setup_sexpr(d: &Deployment) -> String {
    let pairs: Vec<String> = (1..=6u8)
        .flat_map(|row| (0..5u8).map(move |col| Pos { col, row }))
        .filter_map(|pos| {
            let p = pos.point(d.colour());
            d.kind_at(p).filter(|_| !CAMPS.contains(p)).map(|k| format!("({pos} {})", symbol(k)))
        })
        .collect();
    format!("({})", pairs.join(" "))
}

/// The deployment a setup S-expression describes for a player of `colour`.
///
/// # Errors
/// [`AdapterError::Deployment`]: malformed, or illegal.
pub fn parse_setup(text: &str, colour: Colour) -> Result<Deployment, AdapterError> {
    let bad = |why: &str| AdapterError::Deployment(format!("'{}': {why}", text.trim()));
    let Sexpr::List(items) = parse_sexpr(text).map_err(|_| bad("not an S-expression"))? else {
        return Err(bad("not a list"));
    };
    let mut placed = Vec::with_capacity(items.len());
    for item in items {
        let Sexpr::List(pair) = item else { return Err(bad("an item is not a (position piece) pair")) };
        let [Sexpr::Atom(pos), Sexpr::Atom(piece)] = pair.as_slice() else {
            return Err(bad("an item is not a (position piece) pair"));
        };
        let pos = Pos::parse(pos).ok_or_else(|| bad("bad position"))?;
        let kind = kind_of_symbol(piece).ok_or_else(|| bad("bad piece symbol"))?;
        placed.push((pos.point(colour), Piece::new(colour, kind)));
    }
    Deployment::new(colour, &placed).map_err(|e| AdapterError::Deployment(e.to_string()))
}

/// A move S-expression `(C2 D3)` (positions in the writer's frame).
///
/// # Errors
/// [`AdapterError::BadMessage`].
pub fn parse_move(text: &str) -> Result<(Pos, Pos), AdapterError> {
    let bad = || AdapterError::BadMessage(text.trim().to_owned());
    match parse_sexpr(text)? {
        Sexpr::List(l) => match l.as_slice() {
            [Sexpr::Atom(a), Sexpr::Atom(b)] => Ok((Pos::parse(a).ok_or_else(bad)?, Pos::parse(b).ok_or_else(bad)?)),
            _ => Err(bad()),
        },
        Sexpr::Atom(_) => Err(bad()),
    }
}

/// A referee → player message (ADAPTERS.md §3.4).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RefereeMessage {
    /// `Invalid Board Setup`.
    InvalidSetup,
    /// `Invalid Board Move <why>`.
    InvalidMove(String),
    /// `<from> <to> <mover> <outcome>`: an accepted move.
    Moved {
        /// From, in the recipient's frame.
        from: Pos,
        /// To.
        to: Pos,
        /// 1 or 2.
        mover: u8,
        /// From the mover's side; `None`: `move`.
        outcome: Option<Outcome>,
    },
    /// `F <pos>`: a Marshal fell; its side's flag is there.
    Flag(Pos),
    /// `1 Victory`, `2 Victory` or `No Victory` (`None`).
    Victory(Option<u8>),
}

impl RefereeMessage {
    /// Parses one line (surrounding and repeated blanks, `\r` ignored).
    ///
    /// # Errors
    /// [`AdapterError::BadMessage`].
    pub fn parse(line: &str) -> Result<RefereeMessage, AdapterError> {
        let bad = || AdapterError::BadMessage(line.trim().to_owned());
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["Invalid", "Board", "Setup"] => Ok(RefereeMessage::InvalidSetup),
            ["Invalid", "Board", "Move", why @ ..] => Ok(RefereeMessage::InvalidMove(why.join(" "))),
            ["F", pos] => Pos::parse(pos).map(RefereeMessage::Flag).ok_or_else(bad),
            [who, "Victory"] => match *who {
                "1" => Ok(RefereeMessage::Victory(Some(1))),
                "2" => Ok(RefereeMessage::Victory(Some(2))),
                "No" => Ok(RefereeMessage::Victory(None)),
                _ => Err(bad()),
            },
            [from, to, mover, outcome] => Ok(RefereeMessage::Moved {
                from: Pos::parse(from).ok_or_else(bad)?,
                to: Pos::parse(to).ok_or_else(bad)?,
                mover: match *mover {
                    "1" => 1,
                    "2" => 2,
                    _ => return Err(bad()),
                },
                outcome: match *outcome {
                    "move" => None,
                    "win" => Some(Outcome::AttackerWins),
                    "loss" => Some(Outcome::DefenderWins),
                    "tie" => Some(Outcome::BothRemoved),
                    _ => return Err(bad()),
                },
            }),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for RefereeMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefereeMessage::InvalidSetup => f.write_str("Invalid Board Setup"),
            RefereeMessage::InvalidMove(why) => write!(f, "Invalid Board Move {why}"),
            RefereeMessage::Moved { from, to, mover, outcome } => {
                let word = match outcome {
                    None => "move",
                    Some(Outcome::AttackerWins) => "win",
                    Some(Outcome::DefenderWins) => "loss",
                    Some(Outcome::BothRemoved) => "tie",
                };
                write!(f, "{from} {to} {mover} {word}")
            }
            RefereeMessage::Flag(p) => write!(f, "F {p}"),
            RefereeMessage::Victory(Some(n)) => write!(f, "{n} Victory"),
            RefereeMessage::Victory(None) => f.write_str("No Victory"),
        }
    }
}

/// Splits a player's output into its messages: balanced S-expressions and
/// the word `forfeit`, whatever the newlines (players often write none).
#[derive(Default)]
pub struct Reader {
    buf: String,
}

/// One message of a player.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayerMessage {
    /// A complete S-expression's text.
    Sexpr(String),
    /// `forfeit`.
    Forfeit,
    /// Text outside any S-expression that is not `forfeit`.
    Junk(String),
}

impl Reader {
    /// Adds text read from the player.
    pub fn feed(&mut self, text: &str) {
        self.buf.push_str(text);
    }

    /// The next complete message, if one has arrived.
    pub fn next_message(&mut self) -> Option<PlayerMessage> {
        let start = self.buf.find(|c: char| !c.is_whitespace())?;
        let rest = &self.buf[start..];
        if rest.starts_with('(') {
            let mut depth = 0usize;
            for (i, c) in rest.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            let text = rest[..=i].to_owned();
                            self.buf.drain(..start + i + 1);
                            return Some(PlayerMessage::Sexpr(text));
                        }
                    }
                    _ => {}
                }
            }
            return None;
        }
        // `forfeit` often ends the output without a newline.
        if rest.starts_with("forfeit") {
            self.buf.drain(..start + "forfeit".len());
            return Some(PlayerMessage::Forfeit);
        }
        let end = rest.find(|c: char| c.is_whitespace() || c == '(')?;
        let word = rest[..end].to_owned();
        self.buf.drain(..start + end);
        Some(if word == "forfeit" { PlayerMessage::Forfeit } else { PlayerMessage::Junk(word) })
    }

    /// What is left when the player's output has closed: a last bare word.
    pub fn finish(&mut self) -> Option<PlayerMessage> {
        self.buf.push(' ');
        self.next_message()
    }
}

/// Parses a time per move: `2s`, `2.0s`, `2000ms`, `2000.0ms`, in ms.
pub fn parse_time(s: &str) -> Option<u64> {
    let (num, scale) = if let Some(n) = s.strip_suffix("ms") { (n, 1.0) } else { (s.strip_suffix('s')?, 1000.0) };
    let (int, frac) = num.split_once('.').unwrap_or((num, "0"));
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || (num.contains('.') && !digits(frac)) {
        return None;
    }
    let v: f64 = num.parse().ok()?;
    Some((v * scale).round() as u64)
}

/// The command line of `play4500`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args {
    /// 1 (moves first, Red) or 2.
    pub go: u8,
    /// Time per move, ms.
    pub time_ms: u64,
    /// `--log FILE`.
    pub log: Option<std::path::PathBuf>,
    /// `--option NAME=VALUE` pairs.
    pub options: Vec<(String, String)>,
    /// `--margin MS`: kept back from each move's time (default max(50, t/10)).
    pub margin: Option<u64>,
    /// `--no-own-reveal`.
    pub no_own_reveal: bool,
}

/// The usage line.
pub const USAGE: &str = "usage: luzhanqi cs4500 --go 1|2 --time/move T [--log FILE] [--option NAME=VALUE]... \
[--margin MS] [--no-own-reveal]   (T as 2s, 2.0s, 2000ms or 2000.0ms)";

impl Args {
    /// Parses the arguments, in any order.
    ///
    /// # Errors
    /// What is wrong, for the usage message.
    pub fn parse(args: &[String]) -> Result<Args, String> {
        let mut it = args.iter();
        let (mut go, mut time, mut log, mut options, mut margin, mut no_own_reveal) =
            (None, None, None, Vec::new(), None, false);
        while let Some(a) = it.next() {
            let mut value = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
            match a.as_str() {
                "--go" => {
                    let v = value("--go")?;
                    go = Some(match v.as_str() {
                        "1" => 1,
                        "2" => 2,
                        _ => return Err(format!("--go {v}: expected 1 or 2")),
                    });
                }
                "--time/move" => {
                    let v = value("--time/move")?;
                    time = Some(parse_time(&v).ok_or(format!("--time/move {v}: expected 2s, 2.0s, 2000ms"))?);
                }
                "--log" => log = Some(std::path::PathBuf::from(value("--log")?)),
                "--option" => {
                    let v = value("--option")?;
                    let (n, x) = v.split_once('=').ok_or(format!("--option {v}: not NAME=VALUE"))?;
                    options.push((n.to_owned(), x.to_owned()));
                }
                "--margin" => {
                    let v = value("--margin")?;
                    margin = Some(v.parse().map_err(|_| format!("--margin {v}: expected milliseconds"))?);
                }
                "--no-own-reveal" => no_own_reveal = true,
                other => return Err(format!("unknown argument '{other}'")),
            }
        }
        Ok(Args {
            go: go.ok_or("--go is required")?,
            time_ms: time.ok_or("--time/move is required")?,
            log,
            options,
            margin,
            no_own_reveal,
        })
    }

    /// The `go movetime` value: the time per move less the margin.
    pub fn movetime(&self) -> u64 {
        let margin = self.margin.unwrap_or_else(|| (self.time_ms / 10).max(50));
        self.time_ms.saturating_sub(margin).max(1)
    }
}

/// What the engine side does after a line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Step {
    /// Write these lines to the referee and go on.
    Continue(Vec<String>),
    /// The game is over: exit with this status.
    Exit(u8),
}

/// Our engine as a CS4500 player (ADAPTERS.md §4.5).
pub struct EngineSide<U: Uli> {
    uli: U,
    args: Args,
    seat: Option<Seat>,
    flags: Vec<Pos>,
    failed: bool,
}

impl<U: Uli> EngineSide<U> {
    /// The adapter in front of `uli`.
    pub fn new(uli: U, args: Args) -> EngineSide<U> {
        EngineSide { uli, args, seat: None, flags: Vec::new(), failed: false }
    }

    /// The engine (tests read a script's lines).
    pub fn engine(&self) -> &U {
        &self.uli
    }

    /// The game so far.
    pub fn seat(&self) -> Option<&Seat> {
        self.seat.as_ref()
    }

    fn colour(&self) -> Colour {
        if self.args.go == 1 { Colour::Red } else { Colour::Blue }
    }

    /// Starts the engine and the game: the setup line, and for player 1
    /// its first move.
    ///
    /// # Errors
    /// The engine did not answer, or deployed illegally.
    pub fn start(&mut self) -> Result<Vec<String>, AdapterError> {
        handshake(&mut self.uli)?;
        for (name, value) in &self.args.options {
            self.uli.send(&format!("setoption name {name} value {value}"));
        }
        let colour = self.colour();
        self.uli.send("setoption name Variant value cs4500");
        self.uli.send("newgame");
        sync(&mut self.uli)?;
        self.uli.send(&format!("go setup {}", colour.to_char()));
        let text = wait_for(&mut self.uli, "bestsetup", super::ANSWER_WAIT)?;
        let own = crate::notation::parse_deployment(&text, colour)
            .map_err(|e| AdapterError::Deployment(format!("the engine's '{text}': {e}")))?;
        self.seat = Some(Seat::new(&own, Rules::CS4500, !self.args.no_own_reveal));
        let mut out = vec![setup_sexpr(&own)];
        if colour == Colour::Red {
            out.push(self.think()?);
        }
        Ok(out)
    }

    fn think(&mut self) -> Result<String, AdapterError> {
        let seat = self.seat.as_ref().ok_or(AdapterError::Game("no game".into()))?;
        let colour = seat.colour();
        self.uli.send(&seat.position_line());
        self.uli.send(&format!("go movetime {}", self.args.movetime()));
        let wait = Duration::from_millis(self.args.time_ms) + Duration::from_secs(10);
        let answer = wait_for(&mut self.uli, "bestmove", wait)?;
        Ok(match parse_bestmove(&answer)? {
            None => "forfeit".to_owned(),
            Some(a) => format!("({} {})", Pos::of(a.from(), colour), Pos::of(a.to(), colour)),
        })
    }

    /// Handles one referee line.
    pub fn handle(&mut self, line: &str) -> Step {
        if line.trim().is_empty() {
            return Step::Continue(Vec::new());
        }
        let msg = match RefereeMessage::parse(line) {
            Ok(m) => m,
            Err(e) => {
                log::error!("cs4500: {e}; ignored");
                return Step::Continue(Vec::new());
            }
        };
        match msg {
            RefereeMessage::Victory(who) => {
                log::info!("cs4500: {}", RefereeMessage::Victory(who));
                self.uli.send("stop");
                self.uli.send("quit");
                Step::Exit(u8::from(self.failed))
            }
            RefereeMessage::InvalidSetup | RefereeMessage::InvalidMove(_) => {
                log::error!("cs4500: the referee says '{msg}'");
                self.failed = true;
                Step::Continue(Vec::new())
            }
            RefereeMessage::Flag(p) => {
                self.flags.push(p);
                Step::Continue(Vec::new())
            }
            RefereeMessage::Moved { from, to, mover, outcome } => match self.moved(from, to, mover, outcome) {
                Ok(out) => Step::Continue(out),
                Err(e) => {
                    log::error!("cs4500: '{}': {e}", line.trim());
                    Step::Continue(Vec::new())
                }
            },
        }
    }

    fn moved(&mut self, from: Pos, to: Pos, mover: u8, outcome: Option<Outcome>) -> Result<Vec<String>, AdapterError> {
        let seat = self.seat.as_mut().ok_or(AdapterError::Game("a move before the game".into()))?;
        let colour = seat.colour();
        let flags = std::mem::take(&mut self.flags);
        let mut enemy_flag = None;
        for f in flags {
            if f.row > 6 {
                enemy_flag = Some(f.point(colour));
            } else if f.point(colour) == seat.own_flag_point().unwrap_or(f.point(colour)) {
                seat.own_flag_told();
            } else {
                log::warn!("cs4500: F {f} is not where our flag stands; ignored");
            }
        }
        seat.ply(from.point(colour), to.point(colour), outcome, enemy_flag)?;
        if mover == self.args.go { Ok(Vec::new()) } else { Ok(vec![self.think()?]) }
    }
}

/// Runs the engine side on stdin/stdout: `luzhanqi cs4500 ARGS`.
pub fn main(args: &[String]) -> ExitCode {
    let args = match Args::parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    let log = match Log::open(args.log.as_deref()) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: --log: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    let code = run(super::InProcess::new(), args, &mut stdin.lock(), &mut stdout.lock(), &log);
    ExitCode::from(code)
}

/// Runs the engine side on `input`/`output` in front of `uli`; returns the
/// exit status (1 after an `Invalid …` message or an engine failure).
pub fn run<U: Uli>(
    uli: U,
    args: Args,
    input: &mut dyn std::io::BufRead,
    output: &mut dyn std::io::Write,
    log: &Log,
) -> u8 {
    let mut side = EngineSide::new(super::Logged::new(uli, log.clone()), args);
    match side.start() {
        Ok(lines) => {
            for l in lines {
                if !super::write_line(output, &l, false, log) {
                    return 1;
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            side.uli.send("quit");
            return 1;
        }
    }
    while let Some(line) = super::read_line(input) {
        log.line("P>", &line);
        match side.handle(&line) {
            Step::Continue(lines) => {
                for l in lines {
                    if !super::write_line(output, &l, false, log) {
                        return 1;
                    }
                }
            }
            Step::Exit(code) => return code,
        }
    }
    side.uli.send("quit");
    u8::from(side.failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_deployment, parse_point, parse_token};

    pub(crate) const SETUP_SX: &str = "((A1 5) (B1 2) (C1 5) (D1 F) (E1 2) (A2 2) (B2 L) (C2 4) (D2 L) (E2 L) (A3 3) (C3 1) (E3 4) (A4 1) (B4 6) (D4 B) (E4 7) (A5 B) (C5 3) (E5 9) (A6 7) (B6 1) (C6 8) (D6 3) (E6 6))";
    const RED: &str = "r7r1r8r3r6/rB1r31r9/r1r61rBr7/r31r11r4/r2rMr4rMrM/r5r2r5rFr2";
    const BLUE: &str = "b2bFb5b2b5/bMbMb4bMb2/b41b11b3/b7bB1b6b1/b91b31bB/b6b3b8b1b7";

    /// T-MAP-5: positions both colours, all 60 both ways; the setup of §4.2.
    #[test]
    fn t_map_5_positions_and_setups() {
        for (s, red, blue) in [("A1", "a1", "e12"), ("B1", "b1", "d12"), ("D1", "d1", "b12"), ("E12", "e12", "a1")] {
            let p = Pos::parse(s).unwrap();
            assert_eq!(p.point(Colour::Red), parse_point(red).unwrap());
            assert_eq!(p.point(Colour::Blue), parse_point(blue).unwrap());
        }
        assert_eq!(Pos::parse("C4").unwrap().point(Colour::Blue), parse_point("c9").unwrap());
        assert_eq!(Pos::parse("B12").unwrap().point(Colour::Blue), parse_point("d1").unwrap());
        let mut n = 0;
        for p in Point::all() {
            for c in Colour::BOTH {
                let pos = Pos::of(p, c);
                assert_eq!(Pos::parse(&pos.to_string()), Some(pos));
                assert_eq!(pos.point(c), p);
                n += 1;
            }
        }
        assert_eq!(n, 120);
        for bad in ["", "F1", "A0", "A13", "a1", "A01", "A1x"] {
            assert_eq!(Pos::parse(bad), None, "{bad}");
        }
        for (c, text) in [(Colour::Red, RED), (Colour::Blue, BLUE)] {
            let d = parse_setup(SETUP_SX, c).unwrap();
            assert_eq!(d.to_string(), text);
            assert_eq!(setup_sexpr(&parse_deployment(text, c).unwrap()), SETUP_SX);
            let spaced = SETUP_SX.replace('(', "( ").replace(')', " )");
            assert_eq!(parse_setup(&spaced, c).unwrap(), d);
        }
        for k in Kind::ALL {
            assert_eq!(kind_of_symbol(&symbol(k).to_string()), Some(k));
        }
        assert!(parse_setup("((A1 5))", Colour::Red).is_err());
        assert!(parse_setup("((A1 M) (B1 2))", Colour::Red).is_err());
    }

    /// T-MAP-6: message 3 → history token, both colours.
    #[test]
    fn t_map_6_moves_to_tokens() {
        for (line, colour, token) in [
            ("C2 D3 1 move", Colour::Red, "c2-d3"),
            ("C11 B10 1 move", Colour::Blue, "c2-d3"),
            ("A7 A6 2 loss", Colour::Red, "a7xa6-"),
            ("E6 E7 2 loss", Colour::Blue, "a7xa6-"),
            ("C6 C7 1 tie", Colour::Red, "c6xc7="),
            ("C7 C6 1 tie", Colour::Blue, "c6xc7="),
        ] {
            let RefereeMessage::Moved { from, to, outcome, .. } = RefereeMessage::parse(line).unwrap() else {
                panic!("{line}")
            };
            let t = match outcome {
                None => crate::Token::Action(crate::Action::moving(from.point(colour), to.point(colour))),
                Some(o) => {
                    crate::Token::Attack { from: from.point(colour), to: to.point(colour), outcome: o, loser: None }
                }
            };
            assert_eq!(t, parse_token(token).unwrap(), "{line}");
            assert_eq!(RefereeMessage::parse(line).unwrap().to_string(), line);
        }
    }

    #[test]
    fn referee_messages_parse_with_blanks_and_refuse_garbage() {
        assert_eq!(
            RefereeMessage::parse("  A6   A7 1 win  \r").unwrap().to_string(),
            RefereeMessage::parse("A6 A7 1 win").unwrap().to_string()
        );
        assert_eq!(RefereeMessage::parse("F  B12").unwrap(), RefereeMessage::Flag(Pos::parse("B12").unwrap()));
        for ok in ["Invalid Board Setup", "Invalid Board Move From To Invalid", "1 Victory", "No Victory"] {
            assert_eq!(RefereeMessage::parse(ok).unwrap().to_string(), ok);
        }
        for bad in ["Z1 A2 1 move", "A1 F2 1 move", "F E13", "A1 A2 3 move", "A1 A2 1 flag", "3 Victory"] {
            assert!(RefereeMessage::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_reader_splits_unterminated_output() {
        let mut r = Reader::default();
        r.feed("( ( A1 5 ) ( B1 2 ) )( C2");
        assert_eq!(r.next_message(), Some(PlayerMessage::Sexpr("( ( A1 5 ) ( B1 2 ) )".into())));
        assert_eq!(r.next_message(), None);
        r.feed(" D3 )forfeit");
        assert_eq!(r.next_message(), Some(PlayerMessage::Sexpr("( C2 D3 )".into())));
        assert_eq!(r.next_message(), Some(PlayerMessage::Forfeit));
        r.feed("hello");
        assert_eq!(r.next_message(), None);
        assert_eq!(r.finish(), Some(PlayerMessage::Junk("hello".into())));
        assert_eq!(parse_move("(C2 D3)").unwrap(), (Pos::parse("C2").unwrap(), Pos::parse("D3").unwrap()));
    }

    /// T-S01 (arguments): bad forms are refused.
    #[test]
    fn t_s01_arguments() {
        let a = |s: &str| Args::parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>());
        assert_eq!(a("--go 1 --time/move 2s").unwrap().movetime(), 1800);
        assert_eq!(a("--time/move 500ms --go 2").unwrap().movetime(), 450);
        assert_eq!(a("--go 1 --time/move 2.0s").unwrap().time_ms, 2000);
        assert_eq!(a("--go 1 --time/move 2000.0ms").unwrap().time_ms, 2000);
        for bad in ["--go 3 --time/move 2s", "--go 1 --time/move 2", "--go 1", "--go 1 --time/move 2s --x", ""] {
            assert!(a(bad).is_err(), "{bad}");
        }
    }
}

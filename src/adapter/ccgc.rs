//! The CCGC 军棋 platform protocol (v1.0, 2012; the 2019 platform still
//! uses it), ADAPTERS.md §1-§2: its cells, piece letters, ARRAY
//! deployments, result codes, flag field and messages, mapped to ours, and
//! the engine side ([`EngineSide`]: our engine on a CCGC platform).

use std::fmt;
use std::time::{Duration, Instant};

use super::{AdapterError, Seat, Uli, handshake, parse_bestmove, sync, wait_for};
use crate::action::{Action, ActionKind};
use crate::board::Point;
use crate::board::topology::CAMPS;
use crate::combat::Outcome;
use crate::deployment::Deployment;
use crate::piece::{Colour, Kind, Piece};
use crate::rules::Rules;

/// The row letters, top (`A`) to bottom (`L`), in every engine's own frame.
pub const ROWS: &str = "ABCDEFGHIJKL";
/// The piece letters `a`..`l` (ADAPTERS.md §1.5) as our kind characters.
const KIND_OF_LETTER: &str = "987654321MBF";

/// A CCGC cell such as `G0`: a row `A`..`L` (0..12, top to bottom) and a
/// column `0`..`4`, in one engine's own frame (its side at the bottom).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Cell {
    /// 0 = `A` … 11 = `L`.
    pub row: u8,
    /// 0..=4.
    pub col: u8,
}

impl Cell {
    /// The cell of row `row` (0..12) and column `col` (0..5).
    pub const fn new(row: u8, col: u8) -> Option<Cell> {
        if row < 12 && col < 5 { Some(Cell { row, col }) } else { None }
    }

    /// Reads `G0` (row letter upper or lower case, then the column digit).
    pub fn parse(s: &str) -> Option<Cell> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let row = ROWS.find(char::from(b[0].to_ascii_uppercase()))? as u8;
        let col = b[1].checked_sub(b'0')?;
        Cell::new(row, col)
    }

    /// Our point for this cell of an engine playing `colour` (ADAPTERS.md §2.2).
    pub fn point(self, colour: Colour) -> Point {
        let (file, rank) = match colour {
            Colour::Red => (self.col, 11 - self.row),
            Colour::Blue => (4 - self.col, self.row),
        };
        Point::new(file, rank).unwrap_or_else(|| unreachable!("a cell maps onto the board"))
    }

    /// The cell of our point `p` for an engine playing `colour`.
    pub fn of(p: Point, colour: Colour) -> Cell {
        match colour {
            Colour::Red => Cell { row: 11 - p.rank(), col: p.file() },
            Colour::Blue => Cell { row: p.rank(), col: 4 - p.file() },
        }
    }

    /// The same point in the other engine's frame (the 180° rotation).
    pub const fn rotated(self) -> Cell {
        Cell { row: 11 - self.row, col: 4 - self.col }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(ROWS.as_bytes()[self.row as usize]), self.col)
    }
}

/// The piece letter `a`..`l` of a kind.
pub fn letter(kind: Kind) -> char {
    let i = KIND_OF_LETTER.find(kind.to_char()).unwrap_or(0);
    char::from(b'a' + i as u8)
}

/// The kind of a piece letter `a`..`l` (either case).
pub fn kind_of_letter(c: char) -> Option<Kind> {
    let i = (c.to_ascii_lowercase() as u32).checked_sub('a' as u32)? as usize;
    KIND_OF_LETTER.chars().nth(i).and_then(Kind::from_char)
}

/// The 25 cells of an ARRAY, in order: rows `G`..`L`, columns 0..4, camps
/// skipped (ADAPTERS.md §1.6).
pub fn array_cells() -> impl Iterator<Item = Cell> {
    (6..12u8)
        .flat_map(|row| (0..5u8).map(move |col| Cell { row, col }))
        .filter(|c| !CAMPS.contains(c.point(Colour::Red)))
}

/// The deployment an ARRAY describes for an engine playing `colour`.
///
/// # Errors
/// [`AdapterError::Deployment`]: not 25 letters `a`..`l`, or illegal.
pub fn array_to_deployment(array: &str, colour: Colour) -> Result<Deployment, AdapterError> {
    let letters: Vec<char> = array.trim().chars().collect();
    if letters.len() != 25 {
        return Err(AdapterError::Deployment(format!("'{array}' has {} letters, not 25", letters.len())));
    }
    let mut placed = Vec::with_capacity(25);
    for (cell, &c) in array_cells().zip(&letters) {
        let kind = kind_of_letter(c)
            .filter(|_| c.is_ascii_lowercase())
            .ok_or_else(|| AdapterError::Deployment(format!("'{c}' at {cell} is not a piece letter a-l")))?;
        placed.push((cell.point(colour), Piece::new(colour, kind)));
    }
    Deployment::new(colour, &placed).map_err(|e| AdapterError::Deployment(e.to_string()))
}

/// The ARRAY of a deployment.
pub fn deployment_to_array(d: &Deployment) -> String {
    array_cells().map(|cell| d.kind_at(cell.point(d.colour())).map_or('?', letter)).collect()
}

/// A move on the wire: two cells, or `0000` (none; `GO 0000 0 00`).
pub type Move = Option<(Cell, Cell)>;

fn parse_move(s: &str) -> Option<Move> {
    if s == "0000" {
        return Some(None);
    }
    if s.len() != 4 || !s.is_ascii() {
        return None;
    }
    Some(Some((Cell::parse(&s[..2])?, Cell::parse(&s[2..])?)))
}

fn move_text(m: Move) -> String {
    match m {
        None => "0000".to_owned(),
        Some((a, b)) => format!("{a}{b}"),
    }
}

/// A result code (ADAPTERS.md §1.7), attacker-relative: `None` is code 3, a
/// plain move.
pub fn outcome_of_code(code: u8) -> Option<Option<Outcome>> {
    match code {
        0 => Some(Some(Outcome::DefenderWins)),
        1 => Some(Some(Outcome::AttackerWins)),
        2 => Some(Some(Outcome::BothRemoved)),
        3 => Some(None),
        _ => None,
    }
}

/// The result code of an outcome (`None`: a plain move, 3).
pub fn code_of_outcome(outcome: Option<Outcome>) -> u8 {
    match outcome {
        Some(Outcome::DefenderWins) => 0,
        Some(Outcome::AttackerWins) => 1,
        Some(Outcome::BothRemoved) => 2,
        None => 3,
    }
}

/// The flag field: `00`, or the enemy flag's cell in the recipient's frame.
pub type Flag = Option<Cell>;

fn parse_flag(s: &str) -> Option<Flag> {
    if s == "00" { Some(None) } else { Cell::parse(s).map(Some) }
}

fn flag_text(f: Flag) -> String {
    f.map_or_else(|| "00".to_owned(), |c| c.to_string())
}

/// A platform → engine message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlatformMessage {
    /// `INFO 1.0` (or the 2019 platform's `INFORMATION 1.0`).
    Info {
        /// The version text.
        version: String,
        /// Whether it was spelt `INFORMATION`.
        long: bool,
    },
    /// `START <first> <time> <steps>`.
    Start {
        /// The engine moves first (`0`): it plays Red.
        first: bool,
        /// Seconds for the whole game.
        time: u32,
        /// The quiet-ply limit.
        steps: u32,
    },
    /// `GO <move> <result> <flag>`: the opponent's move; our turn.
    Go {
        /// The opponent's move in our frame (`None`: we move first).
        mv: Move,
        /// Its outcome (`None`: a plain move).
        outcome: Option<Outcome>,
        /// The enemy flag, once shown.
        flag: Flag,
    },
    /// `RESULT <result> <flag>`: the outcome of our last move.
    Result {
        /// Its outcome.
        outcome: Option<Outcome>,
        /// The enemy flag, once shown.
        flag: Flag,
    },
    /// `END <w>`: `0` lost, `1` won, `2` abnormal end.
    End(u8),
}

impl PlatformMessage {
    /// Parses one line (a trailing `\r` and surrounding blanks ignored;
    /// fields separated by blanks).
    ///
    /// # Errors
    /// [`AdapterError::BadMessage`] (an empty line too).
    pub fn parse(line: &str) -> Result<PlatformMessage, AdapterError> {
        let bad = || AdapterError::BadMessage(line.trim_end_matches(['\r', '\n']).to_owned());
        let w: Vec<&str> = line.split_whitespace().collect();
        let code = |s: &str| s.parse::<u8>().ok().and_then(outcome_of_code);
        match w.as_slice() {
            [word, rest @ ..] if *word == "INFO" || *word == "INFORMATION" => {
                Ok(PlatformMessage::Info { version: rest.join(" "), long: *word == "INFORMATION" })
            }
            ["START", first, time, steps] => {
                let first = match *first {
                    "0" => true,
                    "1" => false,
                    _ => return Err(bad()),
                };
                Ok(PlatformMessage::Start {
                    first,
                    time: time.parse().map_err(|_| bad())?,
                    steps: steps.parse().map_err(|_| bad())?,
                })
            }
            ["GO", mv, result, flag] => Ok(PlatformMessage::Go {
                mv: parse_move(mv).ok_or_else(bad)?,
                outcome: code(result).ok_or_else(bad)?,
                flag: parse_flag(flag).ok_or_else(bad)?,
            }),
            ["RESULT", result, flag] => Ok(PlatformMessage::Result {
                outcome: code(result).ok_or_else(bad)?,
                flag: parse_flag(flag).ok_or_else(bad)?,
            }),
            ["END", w] => match *w {
                "0" | "1" | "2" => Ok(PlatformMessage::End(w.as_bytes()[0] - b'0')),
                _ => Err(bad()),
            },
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for PlatformMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlatformMessage::Info { version, long } => {
                write!(f, "{} {version}", if *long { "INFORMATION" } else { "INFO" })
            }
            PlatformMessage::Start { first, time, steps } => {
                write!(f, "START {} {time} {steps}", if *first { 0 } else { 1 })
            }
            // "You move first" is always `GO 0000 0 00`.
            PlatformMessage::Go { mv: None, .. } => f.write_str("GO 0000 0 00"),
            PlatformMessage::Go { mv, outcome, flag } => {
                write!(f, "GO {} {} {}", move_text(*mv), code_of_outcome(*outcome), flag_text(*flag))
            }
            PlatformMessage::Result { outcome, flag } => {
                write!(f, "RESULT {} {}", code_of_outcome(*outcome), flag_text(*flag))
            }
            PlatformMessage::End(w) => write!(f, "END {w}"),
        }
    }
}

/// An engine → platform message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EngineMessage {
    /// `NAME <text>`.
    Name(String),
    /// `ARRAY <25 letters>`.
    Array(String),
    /// `BESTMOVE <from><to>`; `None` is written `A0A0`, the sample engines'
    /// "no move" (which the platform judges illegal, a loss).
    BestMove(Move),
}

impl EngineMessage {
    /// Parses one line of a CCGC engine.
    ///
    /// # Errors
    /// [`AdapterError::BadMessage`].
    pub fn parse(line: &str) -> Result<EngineMessage, AdapterError> {
        let line = line.trim_end_matches(['\r', '\n']).trim_start();
        let bad = || AdapterError::BadMessage(line.to_owned());
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "NAME" => Ok(EngineMessage::Name(rest.trim().to_owned())),
            "ARRAY" => Ok(EngineMessage::Array(rest.trim().to_owned())),
            "BESTMOVE" => match parse_move(rest.trim()).ok_or_else(bad)? {
                Some((a, b)) if a == b => Ok(EngineMessage::BestMove(None)),
                m => Ok(EngineMessage::BestMove(m)),
            },
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for EngineMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineMessage::Name(n) => write!(f, "NAME {n}"),
            EngineMessage::Array(a) => write!(f, "ARRAY {a}"),
            EngineMessage::BestMove(None) => f.write_str("BESTMOVE A0A0"),
            EngineMessage::BestMove(Some((a, b))) => write!(f, "BESTMOVE {a}{b}"),
        }
    }
}

/// Decodes a CCGC engine's `NAME` bytes: UTF-8 as it is; otherwise GBK for
/// the few characters seen on the platform (将 军 棋 先 后 手), any other
/// non-ASCII pair as U+FFFD.
pub fn decode_name(bytes: &[u8]) -> String {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return s.to_owned();
    }
    const GBK: [([u8; 2], char); 6] = [
        ([0xbd, 0xab], '将'),
        ([0xbe, 0xfc], '军'),
        ([0xc6, 0xe5], '棋'),
        ([0xcf, 0xc8], '先'),
        ([0xba, 0xf3], '后'),
        ([0xca, 0xd6], '手'),
    ];
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            out.push(char::from(b));
            i += 1;
            continue;
        }
        let pair = [b, bytes.get(i + 1).copied().unwrap_or(0)];
        out.push(GBK.iter().find(|(code, _)| *code == pair).map_or('\u{fffd}', |(_, c)| *c));
        i += 2;
    }
    out
}

/// Options of the engine side.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The `NAME` to send; default the engine's `id name`, else `luzhanqi`.
    pub name: Option<String>,
    /// `setoption` pairs sent after the handshake (`Threads`, `Player`…).
    pub options: Vec<(String, String)>,
    /// Leave out our own flag's reveal when our Marshal falls.
    pub no_own_reveal: bool,
}

/// What the engine side does after a line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Step {
    /// Write these lines to the platform (possibly none) and go on.
    Continue(Vec<String>),
    /// The game is over: exit.
    Exit,
}

struct Game {
    seat: Seat,
    time_ms: u64,
    used: [u64; 2],
    /// When the prompting `GO` arrived (ours) / our last move was judged
    /// (`RESULT`) or our ARRAY sent (the opponent's thinking starts).
    mark: Instant,
    /// Our last move, waiting for its `RESULT`.
    pending: Option<Action>,
}

/// Our engine on a CCGC platform (ADAPTERS.md §2.7): platform lines in
/// ([`EngineSide::handle`]), platform lines out.
pub struct EngineSide<U: Uli> {
    uli: U,
    settings: Settings,
    greeted: bool,
    engine_name: Option<String>,
    game: Option<Game>,
}

impl<U: Uli> EngineSide<U> {
    /// The adapter in front of `uli`.
    pub fn new(uli: U, settings: Settings) -> EngineSide<U> {
        EngineSide { uli, settings, greeted: false, engine_name: None, game: None }
    }

    /// The engine (tests read a script's lines).
    pub fn engine(&self) -> &U {
        &self.uli
    }

    /// The history of the game so far, if one started.
    pub fn seat(&self) -> Option<&Seat> {
        self.game.as_ref().map(|g| &g.seat)
    }

    /// Handles one platform line. Bad or unexpected lines are reported on
    /// stderr and ignored.
    pub fn handle(&mut self, line: &str) -> Step {
        let line = line.trim_end_matches(['\r', '\n']);
        if line.trim().is_empty() {
            return Step::Continue(Vec::new());
        }
        let msg = match PlatformMessage::parse(line) {
            Ok(m) => m,
            Err(e) => {
                log::error!("ccgc: {e}; ignored");
                return Step::Continue(Vec::new());
            }
        };
        match self.message(msg) {
            Ok(step) => step,
            Err(e) => {
                log::error!("ccgc: '{line}': {e}");
                Step::Continue(Vec::new())
            }
        }
    }

    fn message(&mut self, msg: PlatformMessage) -> Result<Step, AdapterError> {
        match msg {
            PlatformMessage::Info { .. } => {
                if self.greeted {
                    self.uli.send("newgame");
                } else {
                    self.engine_name = handshake(&mut self.uli)?;
                    for (name, value) in &self.settings.options {
                        self.uli.send(&format!("setoption name {name} value {value}"));
                    }
                    self.greeted = true;
                }
                let name = self.settings.name.clone().or_else(|| self.engine_name.clone());
                let name = name.unwrap_or_else(|| "luzhanqi".to_owned());
                Ok(Step::Continue(vec![EngineMessage::Name(name).to_string()]))
            }
            PlatformMessage::Start { first, time, steps } => self.start(first, time, steps),
            PlatformMessage::Go { mv, outcome, flag } => self.go(mv, outcome, flag),
            PlatformMessage::Result { outcome, flag } => {
                let game = self.game.as_mut().ok_or(AdapterError::Game("RESULT before START".into()))?;
                let mine = game.pending.take().ok_or(AdapterError::Game("RESULT without a move of ours".into()))?;
                let colour = game.seat.colour();
                if (mine.kind() == ActionKind::Attack) != outcome.is_some() {
                    log::warn!(
                        "ccgc: our {mine} is judged {}; the platform's code is kept",
                        if outcome.is_some() { "an attack" } else { "a plain move" }
                    );
                }
                game.seat.ply(mine.from(), mine.to(), outcome, flag.map(|c| c.point(colour)))?;
                game.mark = Instant::now();
                Ok(Step::Continue(Vec::new()))
            }
            PlatformMessage::End(w) => {
                log::info!("ccgc: END {w}");
                self.uli.send("stop");
                self.uli.send("quit");
                Ok(Step::Exit)
            }
        }
    }

    fn start(&mut self, first: bool, time: u32, steps: u32) -> Result<Step, AdapterError> {
        if !self.greeted {
            self.engine_name = handshake(&mut self.uli)?;
            self.greeted = true;
        }
        let colour = if first { Colour::Red } else { Colour::Blue };
        let steps = steps.min(10_000);
        self.uli.send("setoption name Variant value ccgc");
        self.uli.send(&format!("setoption name QuietLimit value {steps}"));
        self.uli.send("newgame");
        sync(&mut self.uli)?;
        self.uli.send(&format!("go setup {}", colour.to_char()));
        let text = wait_for(&mut self.uli, "bestsetup", super::ANSWER_WAIT)?;
        let own = crate::notation::parse_deployment(&text, colour)
            .map_err(|e| AdapterError::Deployment(format!("the engine's '{text}': {e}")))?;
        let mut rules = Rules::CCGC;
        rules.quiet_limit = steps as u16;
        let seat = Seat::new(&own, rules, !self.settings.no_own_reveal);
        self.game =
            Some(Game { seat, time_ms: u64::from(time) * 1000, used: [0; 2], mark: Instant::now(), pending: None });
        Ok(Step::Continue(vec![EngineMessage::Array(deployment_to_array(&own)).to_string()]))
    }

    fn go(&mut self, mv: Move, outcome: Option<Outcome>, flag: Flag) -> Result<Step, AdapterError> {
        let game = self.game.as_mut().ok_or(AdapterError::Game("GO before START".into()))?;
        let arrived = Instant::now();
        let colour = game.seat.colour();
        let enemy = colour.opposite();
        if game.seat.history().is_empty() && mv.is_none() && colour == Colour::Red {
            // GO 0000 0 00: we move first.
        } else if let Some((a, b)) = mv {
            game.used[enemy.index()] += arrived.saturating_duration_since(game.mark).as_millis() as u64;
            game.seat.ply(a.point(colour), b.point(colour), outcome, flag.map(|c| c.point(colour)))?;
        } else {
            return Err(AdapterError::Game("GO 0000 when the opponent has moved".into()));
        }
        game.mark = arrived;
        let left = |c: Colour| game.time_ms.saturating_sub(game.used[c.index()]);
        let (rtime, btime) = (left(Colour::Red), left(Colour::Blue));
        let wait = Duration::from_millis(left(colour)) + Duration::from_secs(10);
        let position = game.seat.position_line();
        self.uli.send(&position);
        self.uli.send(&format!("go rtime {rtime} btime {btime}"));
        let answer = wait_for(&mut self.uli, "bestmove", wait)?;
        let game = self.game.as_mut().ok_or(AdapterError::Game("no game".into()))?;
        game.used[colour.index()] += game.mark.elapsed().as_millis() as u64;
        let reply = match parse_bestmove(&answer)? {
            None => EngineMessage::BestMove(None),
            Some(a) => {
                game.pending = Some(a);
                EngineMessage::BestMove(Some((Cell::of(a.from(), colour), Cell::of(a.to(), colour))))
            }
        };
        Ok(Step::Continue(vec![reply.to_string()]))
    }
}

/// Runs the engine side on `input`/`output` (the platform's pipes) in
/// front of `uli` until `END` or the end of input; lines end with `\n`, or
/// `\r\n` with `crlf`. Returns whether the game ended with `END`.
pub fn run<U: Uli>(
    uli: U,
    settings: Settings,
    input: &mut dyn std::io::BufRead,
    output: &mut dyn std::io::Write,
    crlf: bool,
    log: &super::Log,
) -> bool {
    let mut side = EngineSide::new(super::Logged::new(uli, log.clone()), settings);
    while let Some(line) = super::read_line(input) {
        log.line("P>", &line);
        match side.handle(&line) {
            Step::Continue(lines) => {
                for l in lines {
                    if !super::write_line(output, &l, crlf, log) {
                        return false;
                    }
                }
            }
            Step::Exit => return true,
        }
    }
    side.uli.send("quit");
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_deployment, parse_point};

    const TABLE: &str = "
A A0:a12/e1  A1:b12/d1  A2:c12/c1  A3:d12/b1  A4:e12/a1
B B0:a11/e2  B1:b11/d2  B2:c11/c2  B3:d11/b2  B4:e11/a2
C C0:a10/e3  C1:b10/d3  C2:c10/c3  C3:d10/b3  C4:e10/a3
D D0:a9/e4   D1:b9/d4   D2:c9/c4   D3:d9/b4   D4:e9/a4
E E0:a8/e5   E1:b8/d5   E2:c8/c5   E3:d8/b5   E4:e8/a5
F F0:a7/e6   F1:b7/d6   F2:c7/c6   F3:d7/b6   F4:e7/a6
G G0:a6/e7   G1:b6/d7   G2:c6/c7   G3:d6/b7   G4:e6/a7
H H0:a5/e8   H1:b5/d8   H2:c5/c8   H3:d5/b8   H4:e5/a8
I I0:a4/e9   I1:b4/d9   I2:c4/c9   I3:d4/b9   I4:e4/a9
J J0:a3/e10  J1:b3/d10  J2:c3/c10  J3:d3/b10  J4:e3/a10
K K0:a2/e11  K1:b2/d11  K2:c2/c11  K3:d2/b11  K4:e2/a11
L L0:a1/e12  L1:b1/d12  L2:c1/c12  L3:d1/b12  L4:e1/a12";

    /// T-MAP-1 (CCGC): the 60-cell table of §2.2 both ways, both colours.
    #[test]
    fn t_map_1_every_cell_both_ways_both_colours() {
        let mut n = 0;
        for entry in TABLE.split_whitespace().filter(|w| w.contains(':')) {
            let (cell, squares) = entry.split_once(':').unwrap();
            let (red, blue) = squares.split_once('/').unwrap();
            let c = Cell::parse(cell).unwrap();
            assert_eq!(c.to_string(), cell);
            for (colour, sq) in [(Colour::Red, red), (Colour::Blue, blue)] {
                let p = parse_point(sq).unwrap();
                assert_eq!(c.point(colour), p, "{cell} {colour}");
                assert_eq!(Cell::of(p, colour), c, "{sq} {colour}");
            }
            n += 1;
        }
        assert_eq!(n, 60);
        for p in Point::all() {
            for colour in Colour::BOTH {
                assert_eq!(Cell::of(p, colour).point(colour), p);
            }
        }
    }

    /// T-MAP-2: a cell relayed to the other engine is the 180° rotation.
    #[test]
    fn t_map_2_relay_is_the_rotation() {
        for p in Point::all() {
            let red = Cell::of(p, Colour::Red);
            assert_eq!(Cell::of(p, Colour::Blue), red.rotated());
            assert_eq!(red.rotated().rotated(), red);
        }
        let (a, b) = (Cell::parse("G4").unwrap(), Cell::parse("H3").unwrap());
        let relay = |c: Cell| Cell::of(c.point(Colour::Red), Colour::Blue);
        assert_eq!(format!("{}{}", relay(a), relay(b)), "F0E1");
    }

    pub(crate) const ARRAYS: [(&str, &str, &str); 4] = [
        (
            "abccddeeffggghhhiiijjkklj",
            "r9r8r7r7r6/r61r51r5/r4r41r3r3/r31r21r2/r2r1r1r1rM/rMrBrBrFrM",
            "bMbFbBbBbM/bMb1b1b1b2/b21b21b3/b3b31b4b4/b51b51b6/b6b7b7b8b9",
        ),
        (
            "chbihggkdeedcfkgiijafhjlj",
            "r7r2r8r1r2/r31r31rB/r6r51r5r6/r71r41rB/r3r1r1rMr9/r4r2rMrFrM",
            "bMbFbMb2b4/b9bMb1b1b3/bB1b41b7/b6b51b5b6/bB1b31b3/b2b1b8b2b7",
        ),
        (
            "cgfehkiabkiedfghjcdijljhg",
            "r7r3r4r5r2/rB1r11r9/r8rB1r1r5/r61r41r3/r2rMr7r6r1/rMrFrMr2r3",
            "b3b2bMbFbM/b1b6b7bMb2/b31b41b6/b5b11bBb8/b91b11bB/b2b5b4b3b7",
        ),
        (
            "cehiakbcdikegfgjjdifhhglj",
            "r7r5r2r1r9/rB1r81r7/r6r11rBr5/r31r41r3/rMrMr6r1r4/r2r2r3rFrM",
            "bMbFb3b2b2/b4b1b6bMbM/b31b41b3/b5bB1b1b6/b71b81bB/b9b1b2b5b7",
        ),
    ];

    /// T-MAP-3: the ARRAYs of §2.3 → both bestsetups → the same ARRAY.
    #[test]
    fn t_map_3_arrays_round_trip_both_seats() {
        for (array, red, blue) in ARRAYS {
            for (colour, setup) in [(Colour::Red, red), (Colour::Blue, blue)] {
                let d = array_to_deployment(array, colour).unwrap();
                assert_eq!(d.to_string(), setup, "{array} {colour}");
                assert_eq!(deployment_to_array(&parse_deployment(setup, colour).unwrap()), array);
            }
        }
    }

    /// Every piece letter round-trips; bad ARRAYs are refused with a reason.
    #[test]
    fn letters_and_bad_arrays() {
        for k in Kind::ALL {
            assert_eq!(kind_of_letter(letter(k)), Some(k));
        }
        assert_eq!(letter(Kind::Marshal), 'a');
        assert_eq!(letter(Kind::Flag), 'l');
        for bad in ["", "abccddeeffggghhhiiijjkkl", "abccddeeffggghhhiiijjkklm", "Abccddeeffggghhhiiijjkklj"] {
            assert!(array_to_deployment(bad, Colour::Red).is_err(), "{bad}");
        }
        // Flag not on an HQ (swap the last two letters).
        assert!(array_to_deployment("abccddeeffggghhhiiijjkkjl", Colour::Red).is_err());
    }

    /// Messages parse and print back; garbage is refused.
    #[test]
    fn messages_round_trip() {
        for line in [
            "INFO 1.0",
            "INFORMATION 1.0",
            "START 0 1800 31",
            "START 1 1800 31",
            "GO 0000 0 00",
            "GO F4G4 2 A3",
            "GO F0G0 0 00",
            "RESULT 1 A1",
            "RESULT 3 00",
            "END 0",
            "END 2",
        ] {
            assert_eq!(PlatformMessage::parse(line).unwrap().to_string(), line);
            assert_eq!(PlatformMessage::parse(&format!("{line}\r")).unwrap().to_string(), line);
        }
        assert_eq!(PlatformMessage::Go { mv: None, outcome: None, flag: None }.to_string(), "GO 0000 0 00");
        for bad in ["", "HELLO", "GO F4", "RESULT 7 00", "GO Z9Z9 3 00", "START 2 1800 31", "END 3", "GO F4E5 3 0"] {
            assert!(PlatformMessage::parse(bad).is_err(), "{bad}");
        }
        for line in ["NAME bluesky 2", "ARRAY cehiakbcdikegfgjjdifhhglj", "BESTMOVE G0F0", "BESTMOVE A0A0"] {
            assert_eq!(EngineMessage::parse(line).unwrap().to_string(), line);
        }
        assert!(EngineMessage::parse("BESTMOVE GOF0").is_err());
        assert_eq!(decode_name(b"bluesky-\xbd\xab\xbe\xfc"), "bluesky-将军");
        assert_eq!(decode_name(b"x\xff"), "x\u{fffd}");
    }
}

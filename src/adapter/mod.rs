//! Adapters between our engine's ULI and two foreign bot protocols: the
//! CCGC 军棋 platform protocol ([`ccgc`]) and the NEU CS4500 referee
//! protocol ([`cs4500`]), as ADAPTERS.md specifies them. Each module holds
//! the pure mappings (points, pieces, deployments, messages) and the engine
//! side (our engine on the platform); the arena's host side (a foreign
//! engine in our arena) reuses the same mappings.
//!
//! The engine side drives the ordinary engine core through ULI lines
//! ([`Uli`]): the platform's messages become `setoption`, `position` and
//! `go` lines, the engine's `bestsetup` and `bestmove` become platform
//! messages. What the game needs that neither protocol says (the history
//! with its outcomes and reveals) is kept by a [`Seat`].

pub mod ccgc;
pub mod cs4500;

use std::collections::VecDeque;
use std::fmt;
use std::sync::mpsc::Receiver;
use std::time::Duration;

use crate::action::{Action, Token};
use crate::board::Point;
use crate::combat::Outcome;
use crate::deployment::Deployment;
use crate::engine::Engine;
use crate::engine::output::Output;
use crate::piece::{Colour, Kind, Piece};
use crate::position::Position;
use crate::rules::Rules;

/// A ULI engine as an adapter sees it: lines in, lines out.
pub trait Uli {
    /// Sends one ULI line to the engine.
    fn send(&mut self, line: &str);
    /// The engine's next line, or `None` when none came within `timeout`
    /// or the engine is gone.
    fn recv(&mut self, timeout: Duration) -> Option<String>;
}

/// Our engine in this process: lines go to [`Engine::handle_line`], its
/// answers come back through an [`Output::channel`].
pub struct InProcess {
    engine: Engine,
    rx: Receiver<String>,
    quit: bool,
}

impl InProcess {
    /// A fresh engine.
    pub fn new() -> InProcess {
        let (out, rx) = Output::channel();
        InProcess { engine: Engine::new(out), rx, quit: false }
    }
}

impl Default for InProcess {
    fn default() -> InProcess {
        InProcess::new()
    }
}

impl Uli for InProcess {
    fn send(&mut self, line: &str) {
        if !self.quit && !self.engine.handle_line(line) {
            self.quit = true;
        }
    }

    fn recv(&mut self, timeout: Duration) -> Option<String> {
        self.rx.recv_timeout(timeout).ok()
    }
}

/// A scripted engine for tests: records every line sent and answers from a
/// queue (`isready` is answered `readyok` at once).
#[derive(Default)]
pub struct Scripted {
    /// Every line sent, in order.
    pub sent: Vec<String>,
    replies: VecDeque<String>,
    ready: usize,
}

impl Scripted {
    /// A script answering with `replies`, in order.
    pub fn new<I: IntoIterator<Item = S>, S: Into<String>>(replies: I) -> Scripted {
        Scripted { replies: replies.into_iter().map(Into::into).collect(), ..Scripted::default() }
    }

    /// Queues more replies.
    pub fn push(&mut self, reply: &str) {
        self.replies.push_back(reply.to_owned());
    }
}

impl Uli for Scripted {
    fn send(&mut self, line: &str) {
        if line.trim() == "isready" {
            self.ready += 1;
        }
        self.sent.push(line.to_owned());
    }

    fn recv(&mut self, _timeout: Duration) -> Option<String> {
        if self.ready > 0 {
            self.ready -= 1;
            return Some("readyok".to_owned());
        }
        self.replies.pop_front()
    }
}

/// How long an adapter waits for an answer that needs no search (`uliok`,
/// `readyok`, `bestsetup`).
pub const ANSWER_WAIT: Duration = Duration::from_secs(30);

/// Sends `uli` and reads to `uliok`; returns the engine's `id name`, if any.
pub fn handshake(uli: &mut dyn Uli) -> Result<Option<String>, AdapterError> {
    uli.send("uli");
    let mut name = None;
    loop {
        let line = uli.recv(ANSWER_WAIT).ok_or(AdapterError::Engine("no uliok"))?;
        let line = line.trim();
        if line == "uliok" {
            return Ok(name);
        }
        if let Some(n) = line.strip_prefix("id name ") {
            name = Some(n.trim().to_owned());
        }
    }
}

/// Sends `isready` and reads to `readyok`.
pub fn sync(uli: &mut dyn Uli) -> Result<(), AdapterError> {
    uli.send("isready");
    loop {
        let line = uli.recv(ANSWER_WAIT).ok_or(AdapterError::Engine("no readyok"))?;
        if line.trim() == "readyok" {
            return Ok(());
        }
        if line.contains("info string error") {
            log::warn!("engine: {line}");
        }
    }
}

/// Reads the engine's lines until one starting with `word` and returns its
/// rest (trimmed); `info string error` lines are logged to stderr.
pub fn wait_for(uli: &mut dyn Uli, word: &str, timeout: Duration) -> Result<String, AdapterError> {
    loop {
        let line = uli.recv(timeout).ok_or(AdapterError::Engine("no answer in time"))?;
        let line = line.trim();
        if let Some(rest) = line.strip_prefix(word) {
            if rest.is_empty() || rest.starts_with(' ') {
                return Ok(rest.trim().to_owned());
            }
        }
        if line.contains("info string error") {
            log::warn!("engine: {line}");
        }
    }
}

/// The action of a `bestmove` answer (`none` and a trailing `ponder ...`
/// allowed): `Ok(None)` for `none`.
///
/// # Errors
/// [`AdapterError::BadAnswer`] for anything that is not a move or attack.
pub fn parse_bestmove(rest: &str) -> Result<Option<Action>, AdapterError> {
    let first = rest.split_whitespace().next().unwrap_or("");
    if first == "none" {
        return Ok(None);
    }
    match crate::notation::parse_action(first) {
        Ok(a) if a.kind() != crate::action::ActionKind::Flip => Ok(Some(a)),
        _ => Err(AdapterError::BadAnswer(format!("bestmove {rest}"))),
    }
}

/// Why an adapter could not go on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AdapterError {
    /// A platform line that is not a message of the protocol.
    BadMessage(String),
    /// A message that does not fit the game (a move from an empty point…).
    Game(String),
    /// The engine did not answer as ULI requires.
    Engine(&'static str),
    /// The engine answered something the protocol cannot carry.
    BadAnswer(String),
    /// A deployment that is not legal.
    Deployment(String),
}

impl fmt::Display for AdapterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdapterError::BadMessage(m) => write!(f, "bad message '{m}'"),
            AdapterError::Game(m) => write!(f, "{m}"),
            AdapterError::Engine(m) => write!(f, "engine: {m}"),
            AdapterError::BadAnswer(m) => write!(f, "engine answer '{m}' cannot be sent"),
            AdapterError::Deployment(m) => write!(f, "bad deployment: {m}"),
        }
    }
}

impl std::error::Error for AdapterError {}

/// The position string an adapter gives its engine (ADAPTERS.md §2.4): its
/// own deployment, the enemy's 25 pieces unknown, Red to move.
pub fn start_fen(own: &Deployment) -> String {
    const UNKNOWN_RED: &str = "r?r?r?r?r?/r?1r?1r?/r?r?1r?r?/r?1r?1r?/r?r?r?r?r?/r?r?r?r?r?";
    const UNKNOWN_BLUE: &str = "b?b?b?b?b?/b?b?b?b?b?/b?1b?1b?/b?b?1b?b?/b?1b?1b?/b?b?b?b?b?";
    match own.colour() {
        Colour::Red => format!("{UNKNOWN_BLUE}/{own} r 0 0 -"),
        Colour::Blue => format!("{own}/{UNKNOWN_RED} r 0 0 -"),
    }
}

/// One seat of a game as the adapter follows it: the view of that player
/// (own pieces known, the enemy's not), the history with outcomes and
/// reveals, and which flags were shown.
#[derive(Clone, Debug)]
pub struct Seat {
    colour: Colour,
    fen: String,
    view: Position,
    history: Vec<Token>,
    flag_shown: [Option<Point>; 2],
    own_flag: Option<Point>,
    own_reveal: bool,
    own_told: bool,
}

impl Seat {
    /// The seat of `own`'s colour under `rules`; `own_reveal` adds our own
    /// flag's reveal when our Marshal falls (ADAPTERS.md §7 Q2).
    pub fn new(own: &Deployment, rules: Rules, own_reveal: bool) -> Seat {
        let fen = start_fen(own);
        let view = crate::notation::parse_position(&fen, rules).unwrap_or_else(|_| Position::empty(rules));
        let own_flag = own.pieces().find(|(_, pc)| pc.kind == Some(Kind::Flag)).map(|(p, _)| p);
        Seat {
            colour: own.colour(),
            fen,
            view,
            history: Vec::new(),
            flag_shown: [None; 2],
            own_flag,
            own_reveal,
            own_told: false,
        }
    }

    /// This seat's colour.
    pub fn colour(&self) -> Colour {
        self.colour
    }

    /// The history so far.
    pub fn history(&self) -> &[Token] {
        &self.history
    }

    /// The view of this seat's player after the history.
    pub fn view(&self) -> &Position {
        &self.view
    }

    /// The `position` line for the engine.
    pub fn position_line(&self) -> String {
        let mut s = format!("position fen {}", self.fen);
        if !self.history.is_empty() {
            s.push_str(" moves");
            for t in &self.history {
                s.push(' ');
                s.push_str(&t.to_string());
            }
        }
        s
    }

    /// Where our own flag stands (it never moves).
    pub fn own_flag_point(&self) -> Option<Point> {
        self.own_flag
    }

    /// The referee says our flag is shown (CS4500's `F` about our own flag):
    /// the next [`Seat::ply`] adds its reveal even if the view did not see
    /// our Marshal fall.
    pub fn own_flag_told(&mut self) {
        self.own_told = true;
    }

    /// Where `colour`'s flag was shown, if it was.
    pub fn flag_shown(&self, colour: Colour) -> Option<Point> {
        self.flag_shown[colour.index()]
    }

    /// Records a ply from `from` to `to` with the referee's outcome (`None`:
    /// a plain move) and, when the referee tells it, the enemy flag's
    /// point. Returns the tokens added (the ply, then the reveals, Red's
    /// flag first). Our own flag is added when the view shows our Marshal
    /// removed by the ply (or [`Seat::own_flag_told`] was called for it).
    ///
    /// # Errors
    /// [`AdapterError::Game`] when the ply does not fit the view (the
    /// history is then unchanged).
    pub fn ply(
        &mut self,
        from: Point,
        to: Point,
        outcome: Option<Outcome>,
        enemy_flag: Option<Point>,
    ) -> Result<Vec<Token>, AdapterError> {
        let token = match outcome {
            None => Token::Action(Action::moving(from, to)),
            Some(outcome) => Token::Attack { from, to, outcome, loser: None },
        };
        let marshals = self.view.pieces_of(self.colour, Some(Kind::Marshal)).count();
        let mut next = self.view.clone();
        next.apply_token(token).map_err(|e| AdapterError::Game(format!("{token}: {e}")))?;
        let mut added = vec![token];
        let mut reveals = Vec::new();
        let told = std::mem::take(&mut self.own_told);
        let lost_marshal = told || (marshals > 0 && next.pieces_of(self.colour, Some(Kind::Marshal)).count() == 0);
        if lost_marshal && self.own_reveal && next.rules().marshal_reveals_flag {
            if let (Some(at), None) = (self.own_flag, self.flag_shown[self.colour.index()]) {
                if next.colour_at(at) == Some(self.colour) {
                    reveals.push(Token::Show { at, piece: Piece::new(self.colour, Kind::Flag) });
                }
            }
        }
        let enemy = self.colour.opposite();
        match (enemy_flag, self.flag_shown[enemy.index()]) {
            (Some(at), None) => {
                if next.colour_at(at) == Some(enemy) {
                    reveals.push(Token::Show { at, piece: Piece::new(enemy, Kind::Flag) });
                } else {
                    log::warn!("the flag field names {at}, which holds no {enemy} piece; ignored");
                }
            }
            (Some(at), Some(shown)) if at != shown => {
                log::warn!("the flag field changed from {shown} to {at}; the first is kept");
            }
            _ => {}
        }
        reveals.sort_by_key(|t| match t {
            Token::Show { piece, .. } => piece.colour.index(),
            _ => 2,
        });
        for r in reveals {
            if let Token::Show { at, piece } = r {
                match next.apply_token(r) {
                    Ok(()) => {
                        self.flag_shown[piece.colour.index()] = Some(at);
                        added.push(r);
                    }
                    Err(e) => log::warn!("reveal {r}: {e}; left out"),
                }
            }
        }
        self.view = next;
        self.history.extend(added.iter().copied());
        Ok(added)
    }
}

/// A copy of an adapter's exchange in a file (`--log FILE`): every line of
/// both directions with a tag, `P>` from the platform, `A<` to it, `E<` to
/// the engine, `E>` from it. Writing errors are ignored (the game goes on).
#[derive(Clone, Default)]
pub struct Log(Option<std::sync::Arc<std::sync::Mutex<std::fs::File>>>);

impl Log {
    /// A log into `path` (appended), or none.
    ///
    /// # Errors
    /// The file cannot be opened.
    pub fn open(path: Option<&std::path::Path>) -> std::io::Result<Log> {
        match path {
            None => Ok(Log(None)),
            Some(p) => {
                let f = std::fs::File::options().create(true).append(true).open(p)?;
                Ok(Log(Some(std::sync::Arc::new(std::sync::Mutex::new(f)))))
            }
        }
    }

    /// Writes one tagged line.
    pub fn line(&self, tag: &str, text: &str) {
        use std::io::Write;
        if let Some(f) = &self.0 {
            let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
            let _ = writeln!(f, "{tag} {}", text.trim_end_matches(['\r', '\n']));
        }
    }
}

/// An engine whose exchange is copied to a [`Log`].
pub struct Logged<U: Uli> {
    inner: U,
    log: Log,
}

impl<U: Uli> Logged<U> {
    /// `inner`, logged to `log`.
    pub fn new(inner: U, log: Log) -> Logged<U> {
        Logged { inner, log }
    }
}

impl<U: Uli> Uli for Logged<U> {
    fn send(&mut self, line: &str) {
        self.log.line("E<", line);
        self.inner.send(line);
    }

    fn recv(&mut self, timeout: Duration) -> Option<String> {
        let line = self.inner.recv(timeout);
        if let Some(l) = &line {
            self.log.line("E>", l);
        }
        line
    }
}

/// Writes one protocol line and flushes; `false` when stdout is closed.
pub fn write_line(out: &mut dyn std::io::Write, line: &str, crlf: bool, log: &Log) -> bool {
    log.line("A<", line);
    let end = if crlf { "\r\n" } else { "\n" };
    out.write_all(line.as_bytes()).and_then(|()| out.write_all(end.as_bytes())).and_then(|()| out.flush()).is_ok()
}

/// Reads lines as bytes (a platform may send GBK): each is decoded
/// lossily, its `\r\n` or `\n` removed. `None` at the end of input.
pub fn read_line(input: &mut dyn std::io::BufRead) -> Option<String> {
    let mut buf = Vec::new();
    match input.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                buf.pop();
            }
            Some(String::from_utf8_lossy(&buf).into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_deployment;
    use crate::piece::Colour;

    /// Random legal deployments of both colours through each mapping and
    /// back: ARRAY, the S-expression setup, and each with the other seat's
    /// reading refused or different.
    #[test]
    fn every_deployment_round_trips_through_both_mappings() {
        let mut rng = crate::random::rng(18);
        for _ in 0..300 {
            for colour in Colour::BOTH {
                let d = Deployment::random(colour, &mut rng);
                let array = ccgc::deployment_to_array(&d);
                assert_eq!(ccgc::array_to_deployment(&array, colour).as_ref(), Ok(&d), "{array}");
                let sx = cs4500::setup_sexpr(&d);
                assert_eq!(cs4500::parse_setup(&sx, colour).as_ref(), Ok(&d), "{sx}");
                assert_eq!(parse_deployment(&d.to_string(), colour).as_ref(), Ok(&d));
            }
        }
    }

    /// Garbage of every kind into both engine sides: one stderr line each,
    /// nothing written, no panic; the adapters go on.
    #[test]
    fn garbage_never_panics_either_engine_side() {
        let lines = [
            "",
            "\r",
            " ",
            "GO",
            "GO 0000",
            "GO ÄÖ12 3 00",
            "RESULT",
            "RESULT 2 Z9",
            "START 0 x 31",
            "START 1 1800 99999",
            "END",
            "END 9",
            "BESTMOVE G0F0",
            "F",
            "F Z1",
            "Victory",
            "A1 A2",
            "A1 A2 1",
            "A1 A2 1 move",
            "É1 A2 1 win",
            "\u{0}",
            "Invalid",
            "((",
            ")",
            "GO G0G0 1 A1",
            "RESULT 0 A3",
        ];
        let mut c = ccgc::EngineSide::new(Scripted::new(["uliok"]), ccgc::Settings::default());
        for l in lines {
            assert_eq!(c.handle(l), ccgc::Step::Continue(Vec::new()), "{l:?}");
        }
        let args = cs4500::Args::parse(&["--go".into(), "2".into(), "--time/move".into(), "1s".into()]).unwrap();
        let mut s = cs4500::EngineSide::new(Scripted::new(["uliok"]), args);
        for l in lines {
            assert_eq!(s.handle(l), cs4500::Step::Continue(Vec::new()), "{l:?}");
        }
    }

    /// T-MAP-4: the bestsetups an adapter refuses to send.
    #[test]
    fn t_map_4_bestsetup_validation() {
        let good = "r7r2r8r1r2/r31r31rB/r6r51r5r6/r71r41rB/r3r1r1rMr9/r4r2rMrFrM";
        assert!(parse_deployment(good, Colour::Red).is_ok());
        for (why, bad) in [
            ("24 pieces", "r7r2r8r1r2/r31r31rB/r6r51r5r6/r71r41rB/r3r1r1rMr9/r4r2rM1rM"),
            ("flag on c1", "r7r2r8r1r2/r31r31rB/r6r51r5r6/r71r41rB/r3r1r1rMr9/r4r2rFrMrM"),
            ("a mine on a3", "r7r2r8r1r2/r31r31rB/r6r51r5r6/rM1r41rB/r3r1r1r7r9/r4r2rMrFrM"),
            ("a bomb on c6", "r7r2rBr1r2/r31r31r8/r6r51r5r6/r71r41rB/r3r1r1rMr9/r4r2rMrFrM"),
            ("a piece on c4", "r7r2r8r1r2/r31r31rB/r6r5r1r5r6/r71r41rB/r3r1r1rMr9/r4r21rFrM"),
            ("two Marshals", "r7r2r9r1r2/r31r31rB/r6r51r5r6/r71r41rB/r3r1r1rMr9/r4r2rMrFrM"),
            ("rX", "rXr2r8r1r2/r31r31rB/r6r51r5r6/r71r41rB/r3r1r1rMr9/r4r2rMrFrM"),
            ("a Blue piece", "b7r2r8r1r2/r31r31rB/r6r51r5r6/r71r41rB/r3r1r1rMr9/r4r2rMrFrM"),
        ] {
            assert!(parse_deployment(bad, Colour::Red).is_err(), "{why}: {bad}");
        }
    }
}

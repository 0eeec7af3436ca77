//! A CCGC engine inside the arena (ADAPTERS.md §2.8): `uli` → `INFO 1.0`,
//! `go setup` → `START`, each `go` → the `RESULT` of its last move and the
//! `GO` of the opponent's, `BESTMOVE` → `bestmove`; a fresh process for
//! every game (CCGC engines keep global state and exit on `END`).

use std::time::{Duration, Instant};

use luzhanqi::adapter::ccgc::{Cell, EngineMessage, PlatformMessage, array_to_deployment, decode_name};
use luzhanqi::protocol::{Command, parse_command};
use luzhanqi::{Colour, Kind, Rules, Token};

use super::{EXIT_GRACE, FOREIGN_WAIT, Host, Link, Remark, Spawner, Told, bestmove, plies};

/// The `START` time field's range: the sample engines read four digits.
pub const TIME_RANGE: (u32, u32) = (1000, 9999);

/// The host-side CCGC adapter.
pub struct CcgcHost {
    spawn: Spawner,
    link: Option<Box<dyn Link>>,
    remark: Remark,
    info_word: &'static str,
    crlf: bool,
    name: Option<String>,
    buf: Vec<u8>,
    time: u32,
    steps: u32,
    colour: Option<Colour>,
    /// Whether a `START` went to the running process (then `newgame`
    /// ends it and starts another).
    started: bool,
    /// How many plies of the history the engine was told.
    told: usize,
    position: Option<Command>,
}

impl CcgcHost {
    /// An adapter starting its engine with `spawn`; `info_word` is `INFO`
    /// or `INFORMATION`.
    pub fn new(spawn: Spawner, remark: Remark, info_word: &'static str) -> CcgcHost {
        CcgcHost {
            spawn,
            link: None,
            remark,
            info_word,
            crlf: false,
            name: None,
            buf: Vec::new(),
            time: 1800,
            steps: 31,
            colour: None,
            started: false,
            told: 0,
            position: None,
        }
    }

    /// Lines to the engine end in CRLF, as the 2019 platform writes them.
    pub fn crlf(mut self) -> CcgcHost {
        self.crlf = true;
        self
    }

    fn send(&mut self, line: &str) -> bool {
        (self.remark)(&format!("X< {line}"));
        let text = if self.crlf { format!("{line}\r") } else { line.to_owned() };
        self.link.as_mut().is_some_and(|l| l.write_line(&text))
    }

    /// The next line of the engine before `deadline` (`None`: none, or it
    /// closed its output).
    fn line(&mut self, deadline: Instant) -> Option<String> {
        loop {
            if let Some(i) = self.buf.iter().position(|b| *b == b'\n') {
                let mut bytes: Vec<u8> = self.buf.drain(..=i).collect();
                while bytes.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                    bytes.pop();
                }
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let text = decode_name(&bytes);
                (self.remark)(&format!("X> {text}"));
                return Some(text);
            }
            let chunk = self.link.as_mut()?.read(deadline)?;
            if chunk.is_empty() {
                if self.buf.is_empty() {
                    return None;
                }
                self.buf.push(b'\n');
            }
            self.buf.extend(chunk);
        }
    }

    /// The next message of the engine (lines that are none are remarked
    /// and skipped).
    fn message(&mut self, deadline: Instant) -> Option<EngineMessage> {
        loop {
            let line = self.line(deadline)?;
            match EngineMessage::parse(&line) {
                Ok(m) => return Some(m),
                Err(e) => (self.remark)(&format!("ccgc: {e}; skipped")),
            }
        }
    }

    fn start_process(&mut self) -> Result<(), String> {
        let link = (self.spawn)(&[])?;
        self.link = Some(link);
        self.buf.clear();
        let info = format!("{} 1.0", self.info_word);
        self.send(&info);
        match self.message(Instant::now() + FOREIGN_WAIT) {
            Some(EngineMessage::Name(n)) => {
                self.name = Some(n);
                Ok(())
            }
            Some(other) => Err(format!("answered '{other}' to {info}")),
            None => Err(format!("no NAME after {info}")),
        }
    }

    fn end_process(&mut self) {
        if let Some(mut l) = self.link.take() {
            if self.started {
                (self.remark)("X< END 2");
                let _ = l.write_line(if self.crlf { "END 2\r" } else { "END 2" });
            }
            l.close(EXIT_GRACE);
        }
        self.started = false;
    }

    fn uli(&mut self) -> Vec<String> {
        if self.link.is_none()
            && let Err(e) = self.start_process()
        {
            return vec![format!("info string error: {e}")];
        }
        let name = self.name.clone().unwrap_or_else(|| "ccgc engine".to_owned());
        vec![
            format!("id name {name}"),
            "id author ccgc-adapter".to_owned(),
            "option name Variant type combo default ccgc var ccgc".to_owned(),
            "option name QuietLimit type spin default 31 min 10 max 99".to_owned(),
            "option name Time type spin default 1800 min 1 max 9999".to_owned(),
            "uliok".to_owned(),
        ]
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Vec<String> {
        let value = value.unwrap_or("").trim();
        let bad = |what: &str| vec![format!("info string error: setoption: bad value '{value}' for {name} ({what})")];
        match name.to_ascii_lowercase().as_str() {
            "variant" if value.eq_ignore_ascii_case("ccgc") => Vec::new(),
            "variant" => bad("expected ccgc"),
            "quietlimit" => match value.parse::<u32>() {
                Ok(v) if (10..=99).contains(&v) => {
                    self.steps = v;
                    Vec::new()
                }
                _ => bad("an integer from 10 to 99"),
            },
            "time" => match value.parse::<u32>() {
                Ok(v) if (1..=9999).contains(&v) => {
                    if v < TIME_RANGE.0 {
                        log::warn!("ccgc: Time {v} s is sent as {} s (the engines read four digits)", TIME_RANGE.0);
                        (self.remark)(&format!("Time {v} s is sent as {} s", TIME_RANGE.0));
                    }
                    self.time = v.clamp(TIME_RANGE.0, TIME_RANGE.1);
                    Vec::new()
                }
                _ => bad("an integer from 1 to 9999"),
            },
            _ => vec![format!("info string error: setoption: unknown option '{name}'")],
        }
    }

    fn setup(&mut self, colour: Colour) -> Vec<String> {
        if self.link.is_none()
            && let Err(e) = self.start_process()
        {
            return vec![format!("info string error: {e}")];
        }
        self.colour = Some(colour);
        self.told = 0;
        self.started = true;
        let start = PlatformMessage::Start { first: colour == Colour::Red, time: self.time, steps: self.steps };
        self.send(&start.to_string());
        match self.message(Instant::now() + FOREIGN_WAIT) {
            Some(EngineMessage::Array(a)) => match array_to_deployment(&a, colour) {
                Ok(d) => vec![format!("bestsetup {d}")],
                Err(e) => vec![format!("info string error: ARRAY {a}: {e}"), format!("bestsetup ARRAY:{a}")],
            },
            Some(other) => vec![format!("info string error: answered '{other}' to START"), "bestsetup none".into()],
            None => Vec::new(),
        }
    }

    fn rules(&self) -> Rules {
        let mut r = Rules::CCGC;
        r.quiet_limit = self.steps as u16;
        r
    }

    fn go(&mut self, allowed: Duration) -> Vec<String> {
        let Some(colour) = self.colour else {
            return vec!["info string error: go before go setup".to_owned(), "bestmove none".to_owned()];
        };
        let Some(cmd) = self.position.clone() else {
            return vec!["info string error: go without position".to_owned(), "bestmove none".to_owned()];
        };
        let told = match Told::from_command(&cmd, self.rules()) {
            Ok(t) => t,
            Err(e) => return vec![format!("info string error: position: {e}"), "bestmove none".to_owned()],
        };
        let plies = plies(&told.history);
        let mut messages = Vec::new();
        if plies.is_empty() && colour == Colour::Red {
            messages.push(PlatformMessage::Go { mv: None, outcome: None, flag: None });
        }
        // The enemy flag, once a reveal of it is in the history.
        let mut flag = None;
        for (i, (mover, token, reveals)) in plies.iter().enumerate() {
            for r in reveals {
                if let Token::Show { at, piece } = r
                    && piece.colour != colour
                    && piece.kind == Some(Kind::Flag)
                    && flag.is_none()
                {
                    flag = Some(Cell::of(*at, colour));
                }
            }
            if i < self.told {
                continue;
            }
            let (from, to, outcome) = match *token {
                Token::Action(a) => (a.from(), a.to(), None),
                Token::Attack { from, to, outcome, .. } => (from, to, Some(outcome)),
                Token::Show { .. } => continue,
            };
            if *mover == colour {
                messages.push(PlatformMessage::Result { outcome, flag });
            } else {
                let mv = Some((Cell::of(from, colour), Cell::of(to, colour)));
                messages.push(PlatformMessage::Go { mv, outcome, flag });
            }
        }
        self.told = plies.len();
        for m in messages {
            self.send(&m.to_string());
        }
        match self.message(Instant::now() + allowed) {
            Some(EngineMessage::BestMove(Some((a, b)))) => {
                vec![bestmove(&told.view, colour, a.point(colour), b.point(colour))]
            }
            Some(EngineMessage::BestMove(None)) => {
                vec!["info string error: the engine answered BESTMOVE A0A0 (no move)".into(), "bestmove none".into()]
            }
            Some(other) => {
                vec![format!("info string error: the engine answered '{other}' to GO"), "bestmove none".into()]
            }
            None => Vec::new(),
        }
    }
}

impl Host for CcgcHost {
    fn handle(&mut self, line: &str) -> Vec<String> {
        let cmd = match parse_command(line) {
            Ok(c) => c,
            Err(luzhanqi::protocol::ParseError::Empty) => return Vec::new(),
            Err(e) => return vec![format!("info string error: {e}")],
        };
        match cmd {
            Command::Uli => self.uli(),
            Command::IsReady => vec!["readyok".to_owned()],
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => {
                if self.started {
                    self.end_process();
                    if let Err(e) = self.start_process() {
                        return vec![format!("info string error: restarting: {e}")];
                    }
                }
                self.colour = None;
                self.position = None;
                Vec::new()
            }
            Command::GoSetup(Some(c)) => self.setup(c),
            Command::GoSetup(None) => vec!["info string error: go setup needs r or b".to_owned()],
            Command::Position { .. } => {
                self.position = Some(cmd);
                Vec::new()
            }
            Command::Go(go) => {
                // The arena judges the time; wait a little longer than it does.
                let mine = match self.colour {
                    Some(Colour::Red) => go.rtime,
                    _ => go.btime,
                };
                let allowed = go.movetime.or(mine).map_or(Duration::from_secs(3600), Duration::from_millis);
                self.go(allowed + Duration::from_secs(2))
            }
            Command::Quit => {
                self.end_process();
                Vec::new()
            }
            Command::Stop | Command::PonderHit => Vec::new(),
            other => vec![format!("info string error: '{other}' is not supported by a CCGC engine")],
        }
    }
}

impl Drop for CcgcHost {
    fn drop(&mut self) {
        self.end_process();
    }
}

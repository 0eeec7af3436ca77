//! A CS4500 player inside the arena (ADAPTERS.md §4.6): started at `go
//! setup` as `<cmd> --go 1|2 --time/move <t>ms`, its setup S-expression →
//! `bestsetup`, each `go` → the referee's messages (F lines, then message 3)
//! for the moves since its last one, its move S-expression → `bestmove`.

use std::time::{Duration, Instant};

use luzhanqi::adapter::cs4500::{PlayerMessage, Pos, Reader, RefereeMessage, parse_move, parse_setup};
use luzhanqi::protocol::{Command, parse_command};
use luzhanqi::{Colour, Rules, Token};

use super::{EXIT_GRACE, FOREIGN_WAIT, Host, Link, Remark, Spawner, Told, bestmove, plies};

/// The host-side CS4500 adapter.
pub struct Cs4500Host {
    spawn: Spawner,
    link: Option<Box<dyn Link>>,
    remark: Remark,
    reader: Reader,
    move_ms: u64,
    colour: Option<Colour>,
    told: usize,
    position: Option<Command>,
}

impl Cs4500Host {
    /// An adapter starting its player with `spawn`.
    pub fn new(spawn: Spawner, remark: Remark) -> Cs4500Host {
        Cs4500Host {
            spawn,
            link: None,
            remark,
            reader: Reader::default(),
            move_ms: 1000,
            colour: None,
            told: 0,
            position: None,
        }
    }

    fn send(&mut self, line: &str) -> bool {
        (self.remark)(&format!("X< {line}"));
        self.link.as_mut().is_some_and(|l| l.write_line(line))
    }

    fn message(&mut self, deadline: Instant) -> Option<PlayerMessage> {
        loop {
            if let Some(m) = self.reader.next_message() {
                (self.remark)(&format!("X> {m:?}"));
                if let PlayerMessage::Junk(w) = &m {
                    (self.remark)(&format!("cs4500: '{w}' is no message; skipped"));
                    continue;
                }
                return Some(m);
            }
            let chunk = self.link.as_mut()?.read(deadline)?;
            if chunk.is_empty() {
                return self.reader.finish().filter(|m| !matches!(m, PlayerMessage::Junk(_)));
            }
            self.reader.feed(&String::from_utf8_lossy(&chunk));
        }
    }

    fn end_process(&mut self) {
        if let Some(mut l) = self.link.take() {
            (self.remark)("X< No Victory");
            let _ = l.write_line("No Victory");
            l.close(EXIT_GRACE);
        }
        self.reader = Reader::default();
    }

    fn setup(&mut self, colour: Colour) -> Vec<String> {
        self.end_process();
        let go = if colour == Colour::Red { "1" } else { "2" };
        let args = ["--go".to_owned(), go.to_owned(), "--time/move".to_owned(), format!("{}ms", self.move_ms)];
        match (self.spawn)(&args) {
            Ok(l) => self.link = Some(l),
            Err(e) => return vec![format!("info string error: {e}")],
        }
        self.colour = Some(colour);
        self.told = 0;
        match self.message(Instant::now() + FOREIGN_WAIT) {
            Some(PlayerMessage::Sexpr(s)) => match parse_setup(&s, colour) {
                Ok(d) => vec![format!("bestsetup {d}")],
                Err(e) => vec![format!("info string error: {e}"), "bestsetup none".to_owned()],
            },
            Some(other) => vec![format!("info string error: {other:?} instead of a setup"), "bestsetup none".into()],
            None => Vec::new(),
        }
    }

    fn go(&mut self, allowed: Duration) -> Vec<String> {
        let Some(colour) = self.colour else {
            return vec!["info string error: go before go setup".to_owned(), "bestmove none".to_owned()];
        };
        let Some(cmd) = self.position.clone() else {
            return vec!["info string error: go without position".to_owned(), "bestmove none".to_owned()];
        };
        let told = match Told::from_command(&cmd, Rules::CS4500) {
            Ok(t) => t,
            Err(e) => return vec![format!("info string error: position: {e}"), "bestmove none".to_owned()],
        };
        let plies = plies(&told.history);
        let mut lines = Vec::new();
        for (mover, token, reveals) in plies.iter().skip(self.told) {
            let (from, to, outcome) = match *token {
                Token::Action(a) => (a.from(), a.to(), None),
                Token::Attack { from, to, outcome, .. } => (from, to, Some(outcome)),
                Token::Show { .. } => continue,
            };
            for r in reveals {
                if let Token::Show { at, .. } = r {
                    lines.push(RefereeMessage::Flag(Pos::of(*at, colour)).to_string());
                }
            }
            let (from, to) = (Pos::of(from, colour), Pos::of(to, colour));
            let mover = if *mover == Colour::Red { 1 } else { 2 };
            lines.push(RefereeMessage::Moved { from, to, mover, outcome }.to_string());
        }
        self.told = plies.len();
        for l in lines {
            self.send(&l);
        }
        match self.message(Instant::now() + allowed) {
            Some(PlayerMessage::Sexpr(s)) => match parse_move(&s) {
                Ok((a, b)) => vec![bestmove(&told.view, colour, a.point(colour), b.point(colour))],
                Err(e) => vec![format!("info string error: {e}"), "bestmove none".to_owned()],
            },
            Some(PlayerMessage::Forfeit) => vec!["bestmove none".to_owned()],
            Some(PlayerMessage::Junk(_)) => vec!["bestmove none".to_owned()],
            None => {
                log::warn!("cs4500: the player wrote no move in time");
                (self.remark)("the player wrote no move in time");
                Vec::new()
            }
        }
    }
}

impl Host for Cs4500Host {
    fn handle(&mut self, line: &str) -> Vec<String> {
        let cmd = match parse_command(line) {
            Ok(c) => c,
            Err(luzhanqi::protocol::ParseError::Empty) => return Vec::new(),
            Err(e) => return vec![format!("info string error: {e}")],
        };
        match cmd {
            Command::Uli => vec![
                "id name cs4500 player".to_owned(),
                "id author cs4500-adapter".to_owned(),
                "option name Variant type combo default cs4500 var cs4500".to_owned(),
                "option name MoveTime type spin default 1000 min 1 max 600000".to_owned(),
                "uliok".to_owned(),
            ],
            Command::IsReady => vec!["readyok".to_owned()],
            Command::SetOption { name, value } => {
                let value = value.unwrap_or_default();
                match name.to_ascii_lowercase().as_str() {
                    "variant" if value.trim().eq_ignore_ascii_case("cs4500") => Vec::new(),
                    "movetime" => match value.trim().parse::<u64>() {
                        Ok(v) if (1..=600_000).contains(&v) => {
                            self.move_ms = v;
                            Vec::new()
                        }
                        _ => vec![format!("info string error: setoption: bad value '{value}' for MoveTime")],
                    },
                    _ => vec![format!(
                        "info string error: setoption: bad option {name} = '{value}' (Variant cs4500, MoveTime)"
                    )],
                }
            }
            Command::NewGame => {
                self.end_process();
                self.colour = None;
                self.position = None;
                Vec::new()
            }
            // Player 1's first move follows its setup unprompted: it stays
            // in the reader until the first go.
            Command::GoSetup(Some(c)) => self.setup(c),
            Command::GoSetup(None) => vec!["info string error: go setup needs r or b".to_owned()],
            Command::Position { .. } => {
                self.position = Some(cmd);
                Vec::new()
            }
            Command::Go(go) => {
                let allowed = go.movetime.unwrap_or(self.move_ms);
                self.go(Duration::from_millis(allowed) + Duration::from_secs(1))
            }
            Command::Quit => {
                self.end_process();
                Vec::new()
            }
            Command::Stop | Command::PonderHit => Vec::new(),
            other => vec![format!("info string error: '{other}' is not supported by a CS4500 player")],
        }
    }
}

impl Drop for Cs4500Host {
    fn drop(&mut self) {
        self.end_process();
    }
}

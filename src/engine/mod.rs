//! The engine loop: protocol lines in, responses out. The game state lives
//! here; searches run on their own thread with an atomic stop flag, so that
//! `isready` and `stop` are answered at once.

pub mod options;
pub mod output;
pub mod report;
mod siguo;

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::action::Token;
use crate::belief::{self, BeliefSettings};
use crate::deployment::Deployment;
use crate::notation::board_text;
use crate::perft::divide_until;
use crate::piece::Colour;
use crate::players::{PlayerKind, expert, greedy, random};
use crate::position::{Position, View};
use crate::protocol::{Command, Go, ParseError, PositionStart, Response, parse_command, parse_siguo_command};
use crate::random::{Rng, rng};
use crate::rules::Mode;
use crate::search::{BELIEF_SAMPLES, Control, Event, SearchConfig, Searcher, flat};
use options::{BeliefModel, Effect, Options, SetupStyle};
use output::Output;

/// The engine's name and version, as sent after `uli`.
pub const NAME: &str = concat!("luzhanqi ", env!("CARGO_PKG_VERSION"));
/// The authors, as sent after `uli`.
pub const AUTHOR: &str = "the luzhanqi developers";
/// The last line of `d`.
pub const DISPLAY_END: &str = "end";
/// Deepest `perft` the protocol accepts (deeper counts run for hours).
pub const MAX_PERFT_DEPTH: u32 = 6;

struct Running {
    control: Arc<Control>,
    handle: JoinHandle<Searcher>,
    /// The job ends on its own (a bounded search, perft, bench): the end of
    /// input waits for it instead of stopping it.
    bounded: bool,
}

/// The engine: options, the current game, and the search thread.
pub struct Engine {
    out: Output,
    opts: Options,
    base: Position,
    history: Vec<Token>,
    pos: Position,
    searcher: Option<Searcher>,
    running: Option<Running>,
    setup_rng: Rng,
    /// The four-player game, while a four-player variant is chosen.
    siguo: Option<siguo::SiguoGame>,
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn clock_seed() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0x9e37_79b9, |d| d.as_nanos() as u64) | 1
}

impl Engine {
    /// A new engine writing to `out`.
    pub fn new(out: Output) -> Engine {
        let opts = Options::default();
        let start = Position::startpos(opts.rules);
        Engine {
            out,
            base: start.clone(),
            pos: start,
            history: Vec::new(),
            searcher: Some(Searcher::new()),
            running: None,
            setup_rng: rng(clock_seed()),
            siguo: None,
            opts,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Whether a search (or another worker job) is running.
    pub fn searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.control.done.load(Ordering::Acquire))
    }

    fn send(&self, r: Response) {
        self.out.send(&r);
    }

    fn error(&self, message: impl std::fmt::Display) {
        self.send(Response::error(message));
    }

    /// Reads lines until `quit` or the end of input. At the end of input a
    /// job that ends on its own (a search with a limit, perft, bench) is
    /// finished and answered, so that a session piped from a file gets its
    /// answers; an unbounded one (`infinite`, `ponder`, no limit) is
    /// stopped, as `quit` would.
    pub fn run<R: BufRead>(&mut self, input: R) {
        for line in input.lines() {
            let Ok(line) = line else {
                // Not UTF-8 or unreadable: report and go on.
                self.error("input line is not valid UTF-8");
                continue;
            };
            if !self.handle_line(&line) {
                return;
            }
        }
        if self.running.as_ref().is_some_and(|r| r.bounded) {
            self.join();
        }
        self.quit();
    }

    /// Handles one input line. Returns `false` after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        self.out.log_input(line);
        log::trace!("input: {line}");
        self.reap();
        let parsed = if self.opts.siguo.is_some() { parse_siguo_command(line) } else { parse_command(line) };
        match parsed {
            Ok(cmd) => self.handle(cmd),
            Err(ParseError::Empty) => true,
            Err(e) => {
                self.error(e);
                true
            }
        }
    }

    /// Joins a search thread that has finished on its own.
    fn reap(&mut self) {
        if self.running.is_some() && !self.searching() {
            self.join();
        }
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.control.stop.store(true, Ordering::Relaxed);
        }
        self.join();
    }

    fn join(&mut self) {
        if let Some(r) = self.running.take() {
            match r.handle.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => {
                    self.error("the search thread failed; its tree is lost");
                    self.searcher = Some(Searcher::new());
                }
            }
        }
    }

    fn quit(&mut self) {
        self.stop();
    }

    fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Uli => self.uli(),
            Command::IsReady => self.send(Response::ReadyOk),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => {
                self.stop();
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.reset_position();
            }
            Command::Position { start, moves } => self.set_position(start, moves),
            Command::SiguoPosition { start, moves } => self.siguo_set_position(start, moves),
            Command::Go(go) if self.siguo.is_some() => self.siguo_go(go, &[]),
            Command::SiguoGo { go, searchmoves } => self.siguo_go(go, &searchmoves),
            Command::Go(go) => self.go(go),
            Command::GoSetup(colour) => self.go_setup(colour),
            Command::SiguoGoSetup(seat) => self.siguo_go_setup(seat),
            Command::Stop => self.stop(),
            Command::PonderHit => {
                if let Some(r) = &self.running {
                    r.control.ponderhit.store(true, Ordering::Relaxed);
                }
            }
            Command::Quit => {
                self.quit();
                return false;
            }
            Command::Display | Command::Perft(_) | Command::Bench if self.searching() => {
                self.error(format!("'{cmd}' is refused while a search runs; send stop first"));
            }
            Command::Display if self.siguo.is_some() => self.siguo_display(),
            Command::Display => self.display(),
            Command::Perft(depth) => self.perft(depth),
            Command::Bench => self.bench(),
        }
        true
    }

    fn uli(&self) {
        self.send(Response::IdName(NAME.to_owned()));
        self.send(Response::IdAuthor(AUTHOR.to_owned()));
        for spec in Options::specs() {
            self.send(Response::Option(spec));
        }
        self.send(Response::UliOk);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let old_log = self.opts.debug_log_file.clone();
        let result = self.opts.set(name, value);
        if result.is_ok() {
            log::info!("option {name} = {}", value.unwrap_or(""));
        }
        match result {
            Ok(Effect::None) => {}
            Ok(Effect::Rules) => self.reset_position(),
            Ok(Effect::Seed) => {
                self.setup_rng = rng(if self.opts.seed == 0 { clock_seed() } else { self.opts.seed });
            }
            Ok(Effect::LogFile) => {
                if let Err(e) = self.out.set_log_file(&self.opts.debug_log_file) {
                    let asked = std::mem::replace(&mut self.opts.debug_log_file, old_log);
                    let still = if self.opts.debug_log_file.is_empty() {
                        "no log is written".to_owned()
                    } else {
                        format!("the log goes on in '{}'", self.opts.debug_log_file)
                    };
                    self.error(format!("setoption: DebugLogFile '{asked}': {e}; {still}"));
                }
            }
            Err(e) => self.error(e),
        }
    }

    fn reset_position(&mut self) {
        self.base = Position::startpos(self.opts.rules);
        self.pos = self.base.clone();
        self.history.clear();
        self.siguo = self.opts.siguo.map(|_| siguo::SiguoGame::start(self.opts.siguo_rules));
    }

    fn set_position(&mut self, start: PositionStart, moves: Vec<Token>) {
        let rules = self.opts.rules;
        let base = match start {
            PositionStart::StartPos => Position::startpos(rules),
            PositionStart::Fen(setup) => match Position::from_setup(&setup, rules) {
                Ok(p) => p,
                Err(e) => return self.error(format!("position fen: {e}")),
            },
        };
        let mut pos = base.clone();
        for (i, t) in moves.iter().enumerate() {
            if let Err(e) = pos.apply_token(*t) {
                return self.error(format!("position: move {} '{t}': {e}", i + 1));
            }
        }
        log::info!(
            "position: {} after {} history token(s), {} to move",
            pos,
            moves.len(),
            pos.side_to_move().map_or_else(|| "the first flipper".to_owned(), |c| c.to_string())
        );
        self.base = base;
        self.pos = pos;
        self.history = moves;
    }

    fn search_config(&self) -> SearchConfig {
        let seed =
            if self.opts.seed == 0 { clock_seed() } else { self.opts.seed ^ fnv1a(self.pos.to_string().as_bytes()) };
        self.search_config_seeded(seed)
    }

    /// The search's settings from the options, with `seed` (of either game).
    fn search_config_seeded<A>(&self, seed: u64) -> SearchConfig<A> {
        SearchConfig {
            threads: self.opts.threads,
            hash_mb: self.opts.hash_mb,
            seed,
            move_overhead: self.opts.move_overhead,
            params: self.opts.search_params,
            belief: self.belief_settings(),
            show_belief: self.opts.show_belief,
            multipv: self.opts.multipv,
            root_stats: self.opts.show_root_stats,
            searchmoves: Vec::new(),
        }
    }

    fn belief_settings(&self) -> BeliefSettings {
        BeliefSettings {
            uniform: self.opts.belief_model == BeliefModel::Uniform,
            soft_evidence: self.opts.soft_evidence,
        }
    }

    fn go(&mut self, go: Go) {
        if self.searching() {
            return self.error("go: a search is already running; send stop first");
        }
        self.join();
        if self.pos.rules().has_deployment() && self.pos.occupied().is_empty() {
            self.error("go: the board is empty; deploy first (go setup, then position fen)");
            return self.send(Response::BestMove { action: None, ponder: None });
        }
        if let Some(r) = self.pos.outcome() {
            self.send(Response::InfoString(format!("game over: {r}")));
            return self.send(Response::BestMove { action: None, ponder: None });
        }
        let mover = self.pos.side_to_move();
        if let Some(mover) = mover.filter(|_| self.pos.rules().mode == Mode::Classic) {
            let unnamed = self.pos.pieces_of(mover, None).count();
            if unnamed > 0 {
                self.error(format!(
                    "go: {unnamed} of {mover}'s pieces are unnamed; in classic the engine plays the side to move, and the position must name that side's own pieces"
                ));
                return self.send(Response::BestMove { action: None, ponder: None });
            }
        }
        let mut cfg = self.search_config();
        cfg.searchmoves = self.searchmoves(&go.searchmoves);
        // What the GUI told us is all we know.
        let pos = View::told(self.pos.clone());
        let game = (self.base.clone(), self.history.clone());
        let player = self.opts.player;
        let limits = report::limits_of(&go);
        let bounded = match player {
            PlayerKind::Mcts | PlayerKind::Flat => limits.ends_on_its_own(mover),
            PlayerKind::Random | PlayerKind::Greedy | PlayerKind::Expert => !limits.infinite && !limits.ponder,
        };
        if !bounded && !limits.infinite && !limits.ponder {
            let side = mover.unwrap_or(Colour::Red);
            self.send(Response::InfoString(format!(
                "warning: go: no limit for {side} to move (movetime, nodes, depth or its clock); searching until stop"
            )));
        }
        log::info!(
            "{} ({}): player {}",
            Command::Go(go.clone()),
            if bounded { "bounded" } else { "until stop" },
            player.name()
        );
        self.spawn("go", bounded, move |searcher, control, out| {
            let mut send = |e: Event| report::responses_of(&e).iter().for_each(|r| out.send(r));
            let (best, ponder) = match player {
                PlayerKind::Mcts => {
                    searcher.set_game(game.0, game.1);
                    let r = searcher.go(&pos, &limits, &cfg, control, &mut send);
                    (r.best, r.ponder)
                }
                PlayerKind::Flat => {
                    let task = flat::Task { pos: &pos, limits: &limits, cfg: &cfg, control };
                    (flat::search(task, &mut send).best, None)
                }
                PlayerKind::Random | PlayerKind::Greedy | PlayerKind::Expert => {
                    let start = Instant::now();
                    let mut r = rng(cfg.seed);
                    let choice = match player {
                        PlayerKind::Random => random::choose(&pos, &mut r),
                        PlayerKind::Greedy => greedy::choose(&pos, &mut r),
                        _ => expert::choose(&pos, Some((&game.0, &game.1)), cfg.belief, &mut r),
                    };
                    let info = Response::Info(report::one_shot_info(choice, start.elapsed()));
                    out.send(&info);
                    // Hold the answer while `infinite` or `ponder` is in force.
                    crate::search::hold(&limits, control, &mut || out.send(&info));
                    (choice.map(|c| c.action), None)
                }
            };
            vec![Response::BestMove { action: best, ponder }]
        });
    }

    /// The legal actions among `go searchmoves`: an illegal one is left out
    /// with a warning; when none is legal, every action is searched.
    fn searchmoves(&self, asked: &[crate::action::Action]) -> Vec<crate::action::Action> {
        if asked.is_empty() {
            return Vec::new();
        }
        let mut legal = Vec::new();
        self.pos.legal_actions(&mut legal);
        self.legal_among(asked, &legal)
    }

    /// [`Engine::searchmoves`] for any game's actions, `legal` given.
    fn legal_among<A: Copy + PartialEq + std::fmt::Display>(&self, asked: &[A], legal: &[A]) -> Vec<A> {
        let mut kept = Vec::new();
        for a in asked {
            if !legal.contains(a) {
                self.send(Response::InfoString(format!("warning: go searchmoves: {a} is not legal here; left out")));
            } else if !kept.contains(a) {
                kept.push(*a);
            }
        }
        if kept.is_empty() {
            self.send(Response::InfoString(
                "warning: go searchmoves: none of the actions is legal; searching every action".to_owned(),
            ));
        }
        kept
    }

    /// Runs `job` on the worker thread with the searcher, the stop flags and
    /// the output; the lines it returns are sent once the job counts as
    /// finished, so that a GUI that saw them may start the next job at once.
    fn spawn(
        &mut self,
        name: &str,
        bounded: bool,
        job: impl FnOnce(&mut Searcher, &Control, &Output) -> Vec<Response> + Send + 'static,
    ) {
        let control = Arc::new(Control::default());
        let mut searcher = self.searcher.take().unwrap_or_default();
        let out = self.out.clone();
        let thread_control = Arc::clone(&control);
        let spawned = std::thread::Builder::new().name("search".into()).spawn(move || {
            let last = job(&mut searcher, &thread_control, &out);
            thread_control.done.store(true, Ordering::Release);
            for r in &last {
                out.send(r);
            }
            searcher
        });
        match spawned {
            Ok(handle) => self.running = Some(Running { control, handle, bounded }),
            Err(e) => {
                self.searcher = Some(Searcher::new());
                self.error(format!("{name}: cannot start the worker thread: {e}"));
                if name == "go" {
                    self.send(Response::BestMove { action: None, ponder: None });
                }
            }
        }
    }

    fn go_setup(&mut self, colour: Option<Colour>) {
        if !self.opts.rules.has_deployment() {
            return self.error(format!(
                "go setup: {} has no deployment (use classic, open or ccgc)",
                self.opts.rules.mode.name()
            ));
        }
        let colour = colour.or(self.pos.side_to_move()).unwrap_or(Colour::Red);
        let d = self.deployment(colour);
        self.send(Response::BestSetup(d));
    }

    /// A deployment of `colour` as `go setup` answers it: scored, or
    /// uniform random with `SetupStyle random` or the random player (which
    /// is random in its deployment too).
    fn deployment(&mut self, colour: Colour) -> Deployment {
        let random =
            self.opts.setup_style == SetupStyle::Random || self.opts.player == crate::players::PlayerKind::Random;
        if random {
            Deployment::random(colour, &mut self.setup_rng)
        } else {
            crate::players::setup::scored(colour, &mut self.setup_rng)
        }
    }

    fn display(&self) {
        for line in board_text(&self.pos).lines() {
            self.send(Response::Text(line.to_owned()));
        }
        // In a classic view, what the engine believes of the enemy's pieces.
        if let Some(viewer) = belief::viewer_of(&self.pos) {
            let game = Some((&self.base, self.history.as_slice()));
            let (belief, weights) = belief::for_view(game, &self.pos, viewer, self.belief_settings());
            for (at, p) in belief::marginals(&belief, weights, BELIEF_SAMPLES, &mut rng(1)) {
                self.send(Response::Text(format!("belief {}", report::belief_of(at, &p))));
            }
        }
        // The last line, so that a GUI knows the drawing is complete.
        self.send(Response::Text(DISPLAY_END.to_owned()));
    }

    fn perft(&mut self, depth: u32) {
        if depth > MAX_PERFT_DEPTH {
            return self.error(format!(
                "perft: depth {depth} is above {MAX_PERFT_DEPTH} (use the perft subcommand for deeper counts)"
            ));
        }
        if let Some(game) = &self.siguo {
            let pos = game.now.pos.clone();
            return self.spawn("perft", true, move |_, control, _| {
                let start = Instant::now();
                let lines = crate::siguo::perft::divide_until(&pos, depth, &|| control.stopped());
                perft_responses(lines, depth, control, start, Response::SiguoPerftLine)
            });
        }
        let pos = self.pos.clone();
        self.spawn("perft", true, move |_, control, _| {
            let start = Instant::now();
            perft_responses(
                divide_until(&pos, depth, &|| control.stopped()),
                depth,
                control,
                start,
                Response::PerftLine,
            )
        });
    }

    fn bench(&mut self) {
        self.spawn("bench", true, |_, control, out| {
            let (nodes, nps) = crate::search::bench::run(&mut |l| out.send(&Response::InfoString(l)), control);
            if control.stopped() {
                vec![Response::error("bench stopped")]
            } else {
                vec![Response::BenchTotal { nodes, nps }]
            }
        });
    }
}

/// The lines of a perft divide: one per first action (`line`), then the
/// total; or why it could not be counted, or that it was stopped.
fn perft_responses<A>(
    lines: Result<Vec<(A, u64)>, crate::perft::PerftError>,
    depth: u32,
    control: &Control,
    start: Instant,
    line: fn(A, u64) -> Response,
) -> Vec<Response> {
    match lines {
        Ok(_) if control.stopped() => vec![Response::error("perft stopped")],
        Ok(lines) => {
            let mut total = if depth == 0 { 1 } else { 0 };
            let mut out: Vec<Response> = lines
                .into_iter()
                .map(|(a, n)| {
                    total += n;
                    line(a, n)
                })
                .collect();
            out.push(Response::PerftTotal(total));
            log::info!("perft {depth}: {total} in {:?}", start.elapsed());
            out
        }
        Err(e) => vec![Response::error(e)],
    }
}

/// Latency of `isready` and `stop` while a search runs, measured in
/// process (no pipes): `rounds` searches of `go infinite` from a `flip`
/// middle game, each interrupted after `after_ms`. Returns the sorted
/// latencies of `isready` and of `stop` (until `bestmove`).
pub fn latency_bench(rounds: usize, after_ms: u64) -> (Vec<std::time::Duration>, Vec<std::time::Duration>) {
    use std::time::Duration;
    let (out, rx) = Output::channel();
    let mut engine = Engine::new(out);
    let fen = crate::random::seeded_position(crate::rules::Rules::FLIP, 21, 60).to_string();
    let (mut ready, mut stop) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        engine.handle_line(&format!("position fen {fen}"));
        engine.handle_line("go infinite");
        std::thread::sleep(Duration::from_millis(after_ms));
        rx.try_iter().for_each(drop);
        let t = Instant::now();
        engine.handle_line("isready");
        while let Ok(l) = rx.recv_timeout(Duration::from_secs(5)) {
            if l == "readyok" {
                break;
            }
        }
        ready.push(t.elapsed());
        let t = Instant::now();
        engine.handle_line("stop");
        while let Ok(l) = rx.recv_timeout(Duration::from_secs(5)) {
            if l.starts_with("bestmove") {
                break;
            }
        }
        stop.push(t.elapsed());
    }
    engine.handle_line("quit");
    ready.sort();
    stop.sort();
    (ready, stop)
}

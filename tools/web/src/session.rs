//! One page's connection: its game or analysis, and the two engine
//! processes it drives over ULI.
//!
//! - **The engine** plays against the player or analyses. In a game it is
//!   sent only its own view (`position` as the referee builds it), then
//!   `go`; its `info` lines are passed to the page as they come, parsed.
//! - **The aide** is a second process of the same engine that sees only
//!   what the player sees: it lists the player's legal actions (`perft 1`),
//!   judges the player's deployment (its `position fen` error is the reason
//!   given) and proposes deployments (`go setup`). Asking the engine that
//!   plays instead would show it the player's pieces.
//!
//! Everything happens on the connection's task: a message from the page
//! or a line from the engine is handled to the end, and the answers go out,
//! before the next is read. Searches run in the engine process while the
//! task waits for either.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arena::game::engine_seed;
use arena::record::Termination;
use axum::extract::ws::{Message, WebSocket};
use luzhanqi::notation::{parse_action, parse_deployment};
use luzhanqi::protocol::{Command, Go, Response, Score, parse_command, parse_response};
use luzhanqi::{Colour, Deployment, Mode, Variant};

use crate::analysis::{LoadedGame, RuleSet, position_args, position_command, reach, rules_from};
use crate::board::BoardInfo;
use crate::engine::{EngineCommand, EngineError, EngineProcess};
use crate::messages::{ClientMsg, GameMsg, Limit, PositionMsg, Seat, ServerMsg};
use crate::play::{End, Game, GameSettings, Turn};

/// What the server was started with.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine program: both the engine and the aide run it.
    pub engine: EngineCommand,
    /// A fixed seed for deals and engines (tests); otherwise from the clock.
    pub seed: Option<u64>,
}

/// The most lines a page may ask the engine to report (MultiPV).
pub const MAX_MULTIPV: u32 = 8;

/// What a running search is for.
#[derive(Clone, Copy, Debug)]
enum Purpose {
    /// The engine's move in game `game`.
    Move { game: u64, sent: Instant },
    /// A point of the loaded game's evaluation graph.
    Graph { ply: usize, mover: Colour, score: Option<Score> },
    /// An analysis until `stop`.
    Analysis,
    /// A search whose answer is no longer wanted.
    Discard,
}

impl Purpose {
    fn context(self) -> &'static str {
        match self {
            Purpose::Move { .. } => "game",
            _ => "analysis",
        }
    }
}

/// An engine process and what it was set up for.
struct Slot {
    process: EngineProcess,
    /// The search it runs, if any.
    busy: Option<Purpose>,
    /// The preset and rule options it was last given.
    rules: Option<(Variant, Vec<(String, String)>)>,
}

impl Slot {
    async fn start(config: &Config, label: &str) -> Result<Slot, EngineError> {
        Ok(Slot { process: EngineProcess::start(&config.engine, label).await?, busy: None, rules: None })
    }

    /// Gives it the rules (only when they changed: a new `Variant` resets
    /// its position and trees) and the options it announced of `extra`,
    /// then checks that it took them all.
    async fn configure(
        &mut self,
        variant: Variant,
        toggles: &[(String, String)],
        extra: &[(&str, String)],
    ) -> Result<(), EngineError> {
        let p = &mut self.process;
        let key = (variant, toggles.to_vec());
        if self.rules.as_ref() != Some(&key) {
            self.rules = None;
            p.set_option("Variant", variant.name()).await?;
            for (name, value) in toggles {
                p.set_option(name, value).await?;
            }
        }
        for (name, value) in extra {
            if p.has_option(name) {
                p.set_option(name, value).await?;
            }
        }
        let errors = p.sync().await?;
        if !errors.is_empty() {
            return Err(EngineError::Refused(errors.join("; ")));
        }
        self.rules = Some(key);
        Ok(())
    }
}

/// The loaded game of the analysis and its graph's progress.
struct Analysis {
    loaded: LoadedGame,
    /// The next position of the graph, while it is computed.
    graph: Option<(usize, Limit)>,
    /// A position to analyse once the graph is done: (ply, MultiPV).
    pending: Option<(usize, u32)>,
}

/// One connection's state.
pub struct Session {
    config: Arc<Config>,
    engine: Option<Slot>,
    aide: Option<Slot>,
    games: u64,
    game: Option<Game>,
    /// The engine's deployment, kept until the player deploys.
    engine_setup: Option<Deployment>,
    /// The player's deployment proposal.
    proposal: Option<String>,
    /// The player's legal actions on its turn.
    legal: Vec<String>,
    /// MultiPV of the game.
    multipv: u32,
    /// When the player's turn began.
    turn_started: Instant,
    analysis: Option<Analysis>,
    out: Vec<ServerMsg>,
}

/// Serves one WebSocket until the page closes it.
pub async fn serve_socket(mut socket: WebSocket, config: Arc<Config>) {
    let mut s = Session::new(config);
    s.out.push(ServerMsg::Hello(BoardInfo::new()));
    loop {
        for msg in std::mem::take(&mut s.out) {
            if socket.send(Message::Text(msg.to_json().into())).await.is_err() {
                s.shutdown().await;
                return;
            }
        }
        tokio::select! {
            m = socket.recv() => match m {
                Some(Ok(Message::Text(text))) => s.on_text(text.as_str()).await,
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            line = engine_line(&mut s.engine) => s.on_engine(line).await,
        }
    }
    s.shutdown().await;
}

async fn engine_line(slot: &mut Option<Slot>) -> Result<String, EngineError> {
    match slot {
        Some(s) => s.process.read_line().await,
        None => std::future::pending().await,
    }
}

impl Session {
    /// A connection with no game and no engine yet.
    pub fn new(config: Arc<Config>) -> Session {
        Session {
            config,
            engine: None,
            aide: None,
            games: 0,
            game: None,
            engine_setup: None,
            proposal: None,
            legal: Vec::new(),
            multipv: 1,
            turn_started: Instant::now(),
            analysis: None,
            out: Vec::new(),
        }
    }

    fn error(&mut self, message: impl std::fmt::Display) {
        self.out.push(ServerMsg::error(message));
    }

    async fn shutdown(&mut self) {
        for slot in [self.engine.take(), self.aide.take()].into_iter().flatten() {
            slot.process.quit().await;
        }
    }

    /// Handles one message of the page.
    pub async fn on_text(&mut self, text: &str) {
        let msg: ClientMsg = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => return self.error(format!("bad message: {e}")),
        };
        let done = match msg {
            ClientMsg::NewGame { variant, rules, seat, limit, multipv } => {
                self.new_game(&variant, &rules, seat, limit, multipv).await
            }
            ClientMsg::Deploy { setup } => self.deploy(&setup).await,
            ClientMsg::RandomSetup => self.random_setup().await,
            ClientMsg::Play { action } => self.play(&action).await,
            ClientMsg::Takeback => self.takeback().await,
            ClientMsg::Resign => self.resign().await,
            ClientMsg::Settings { limit, multipv } => self.settings(limit, multipv).await,
            ClientMsg::Record => self.record(),
            ClientMsg::Analyse { variant, rules, position, multipv } => {
                self.analyse(&variant, &rules, &position, multipv).await
            }
            ClientMsg::Load { text, game, limit } => match LoadedGame::from_text(&text, game) {
                Ok(loaded) => self.load(loaded, limit).await,
                Err(e) => Err(format!("cannot load the record: {e}")),
            },
            ClientMsg::AnalyseGame { limit } => match self.game.as_ref().and_then(Game::record) {
                Some(rec) => match LoadedGame::from_record(&rec) {
                    Ok(loaded) => self.load(loaded, limit).await,
                    Err(e) => Err(e),
                },
                None => Err("no finished game to analyse".to_owned()),
            },
            ClientMsg::Goto { ply, multipv } => self.goto(ply, multipv).await,
            ClientMsg::Stop => self.stop().await,
        };
        if let Err(e) = done {
            self.error(e);
        }
        // An engine that failed is started afresh when next needed.
        if self.aide.as_ref().is_some_and(|a| a.process.failed()) {
            self.aide = None;
        }
        if self.engine.as_ref().is_some_and(|e| e.process.failed() && e.busy.is_none()) {
            self.engine = None;
        }
    }

    /// Starts the engine processes that are not running.
    async fn ensure_engines(&mut self) -> Result<(), String> {
        if self.engine.is_none() {
            let slot = Slot::start(&self.config, "engine").await.map_err(|e| e.to_string())?;
            self.out.push(ServerMsg::Engine { name: slot.process.name().to_owned() });
            self.engine = Some(slot);
        }
        if self.aide.is_none() {
            self.aide = Some(Slot::start(&self.config, "aide").await.map_err(|e| e.to_string())?);
        }
        Ok(())
    }

    /// Stops the engine's search, if one runs, and drops its answer. An
    /// engine that does not answer `stop` is shut down.
    async fn halt(&mut self) {
        let Some(slot) = self.engine.as_mut() else { return };
        if slot.busy.is_none() {
            return;
        }
        slot.busy = Some(Purpose::Discard);
        let stopped = async {
            slot.process.send(&Command::Stop).await?;
            loop {
                let line = slot.process.read_line().await?;
                if matches!(parse_response(&line), Ok(Response::BestMove { .. })) {
                    return Ok::<(), EngineError>(());
                }
            }
        };
        match tokio::time::timeout(Duration::from_secs(5), stopped).await {
            Ok(Ok(())) => slot.busy = None,
            _ => {
                log::warn!("the engine did not answer stop: restarting it");
                if let Some(slot) = self.engine.take() {
                    slot.process.quit().await;
                }
            }
        }
    }

    fn seed_for(&self, game: u64) -> u64 {
        match self.config.seed {
            Some(s) => s.wrapping_add(game),
            None => {
                let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
                now.as_nanos() as u64 ^ game.rotate_left(32)
            }
        }
    }

    async fn new_game(
        &mut self,
        variant: &str,
        options: &BTreeMap<String, String>,
        seat: Seat,
        limit: Limit,
        multipv: u32,
    ) -> Result<(), String> {
        let RuleSet { variant, toggles, rules } = rules_from(variant, options)?;
        let limit = limit.checked().ok_or("the limit must be 1 to 100,000,000 nodes or 10 ms to 10 minutes")?;
        self.halt().await;
        self.analysis = None;
        self.game = None;
        self.engine_setup = None;
        self.proposal = None;
        self.legal.clear();
        self.ensure_engines().await?;
        self.games += 1;
        let id = self.games;
        let seed = self.seed_for(id);
        self.multipv = multipv.clamp(1, MAX_MULTIPV);
        let engine_options = [
            ("Seed", engine_seed(seed).to_string()),
            ("MultiPV", self.multipv.to_string()),
            ("ShowRootStats", "true".to_owned()),
            ("ShowBelief", (rules.mode == Mode::Classic).to_string()),
        ];
        let aide_options = [("Seed", engine_seed(seed ^ 0x5eed).to_string())];
        let (Some(engine), Some(aide)) = (self.engine.as_mut(), self.aide.as_mut()) else {
            return Err("no engine".to_owned());
        };
        for (slot, extra) in [(&mut *engine, &engine_options[..]), (&mut *aide, &aide_options[..])] {
            slot.process.send(&Command::NewGame).await.map_err(|e| e.to_string())?;
            slot.configure(variant, &toggles, extra).await.map_err(|e| format!("the engine refuses the game: {e}"))?;
        }
        let player_first = seat == Seat::First;
        let settings = GameSettings { variant, toggles, rules, player_first, limit, seed };
        let game = Game::new(id, settings, engine.process.name().to_owned());
        if rules.has_deployment() {
            let (you, them) = if player_first { (Colour::Red, Colour::Blue) } else { (Colour::Blue, Colour::Red) };
            let theirs = engine.process.setup(them).await.map_err(|e| format!("the engine's deployment: {e}"))?;
            let proposal = aide.process.setup(you).await.map_err(|e| format!("a deployment for you: {e}"))?;
            self.engine_setup = Some(theirs);
            self.proposal = Some(proposal.to_string());
            self.game = Some(game);
            self.push_game();
            return Ok(());
        }
        self.game = Some(game);
        self.next_turn().await;
        Ok(())
    }

    async fn random_setup(&mut self) -> Result<(), String> {
        let you = match &self.game {
            Some(g) if g.phase() == "deploy" => g.player().unwrap_or(Colour::Red),
            _ => return Err("no deployment to make".to_owned()),
        };
        let aide = self.aide.as_mut().ok_or("no engine")?;
        let d = aide.process.setup(you).await.map_err(|e| e.to_string())?;
        self.out.push(ServerMsg::Setup { setup: d.to_string() });
        Ok(())
    }

    async fn deploy(&mut self, text: &str) -> Result<(), String> {
        let (game, theirs) = match (&mut self.game, &self.engine_setup) {
            (Some(g), Some(d)) if g.phase() == "deploy" => (g, d.clone()),
            _ => return Err("no deployment to make".to_owned()),
        };
        let you = game.player().unwrap_or(Colour::Red);
        let text = text.trim();
        if text.is_empty() || text.len() > 200 || !text.chars().all(|c| "rb0123456789BMF?/".contains(c)) {
            return Err("not a deployment string".to_owned());
        }
        // The player's view of the start, built from the text as given, so
        // that the aide judges exactly what the player sent.
        let hidden = game.settings.rules.mode == Mode::Classic;
        let their_half = half_text(&theirs, hidden);
        let board = if you == Colour::Red { format!("{their_half}/{text}") } else { format!("{text}/{their_half}") };
        let position = parse_command(&format!("position fen {board} r 0 0 -")).map_err(|e| e.to_string())?;
        let aide = self.aide.as_mut().ok_or("no engine")?;
        match aide.process.set_position(&position).await {
            Ok(()) => {}
            Err(EngineError::Refused(why)) => {
                let why = why.strip_prefix("position fen: ").unwrap_or(&why);
                return Err(format!("the engine refuses this deployment: {why}"));
            }
            Err(e) => return Err(e.to_string()),
        }
        let mine = parse_deployment(text, you).map_err(|e| format!("the referee refuses this deployment: {e}"))?;
        let (red, blue) = if you == Colour::Red { (mine, theirs) } else { (theirs, mine) };
        game.deploy(red, blue).map_err(|e| e.to_string())?;
        self.engine_setup = None;
        self.proposal = None;
        self.next_turn().await;
        Ok(())
    }

    /// After each ply: the player's legal actions on its turn, or the
    /// engine's search on its; then the game goes to the page.
    async fn next_turn(&mut self) {
        self.legal.clear();
        let Some(game) = self.game.as_mut() else { return };
        let position = game.position_for_mover();
        match (game.turn(), position) {
            (Some(Turn::Player), Some(position)) => {
                if self.aide.is_none() {
                    // The aide failed during the game: a new one, with the game's rules.
                    let (variant, toggles) = (game.settings.variant, game.settings.toggles.clone());
                    if let Ok(mut aide) = Slot::start(&self.config, "aide").await
                        && aide.configure(variant, &toggles, &[]).await.is_ok()
                    {
                        self.aide = Some(aide);
                    }
                }
                let listed = match self.aide.as_mut() {
                    Some(aide) => aide.process.legal_actions(&position).await,
                    None => Err(EngineError::Closed),
                };
                match listed {
                    Ok(actions) => self.legal = actions.iter().map(ToString::to_string).collect(),
                    Err(e) => self.error(format!("your legal actions: {e}")),
                }
                self.turn_started = Instant::now();
            }
            (Some(Turn::Engine), Some(position)) => {
                let (id, go) = (game.id, game.settings.limit.go());
                let started = match self.engine.as_mut() {
                    Some(slot) => {
                        start_search(slot, &position, go, Purpose::Move { game: id, sent: Instant::now() }).await
                    }
                    None => Err(EngineError::Closed),
                };
                if let Err(e) = started {
                    let you = game.player();
                    game.finish(End {
                        winner: you,
                        termination: Termination::Crash,
                        detail: format!("{}: {e}", game.engine_name),
                        illegal: None,
                    });
                }
            }
            _ => {}
        }
        self.push_game();
    }

    fn push_game(&mut self) {
        let Some(g) = &self.game else { return };
        let msg = GameMsg {
            id: g.id,
            variant: g.settings.variant.name().to_owned(),
            rules: g.settings.toggles.iter().cloned().collect(),
            phase: g.phase(),
            you: g.player().map(|c| c.to_string()),
            you_first: g.settings.player_first,
            turn: g.turn().map(|t| if t == Turn::Player { "you" } else { "engine" }),
            fen: g.player_view(),
            moves: g.moves(),
            legal: if g.turn() == Some(Turn::Player) { self.legal.clone() } else { Vec::new() },
            setup: self.proposal.clone(),
            result: g.result(),
            engine: g.engine_name.clone(),
            limit: g.settings.limit,
            multipv: self.multipv,
            can_takeback: g.can_takeback() && g.phase() != "deploy",
        };
        self.out.push(ServerMsg::Game(msg));
    }

    async fn play(&mut self, text: &str) -> Result<(), String> {
        let action = parse_action(text.trim()).map_err(|e| e.to_string())?;
        let game = self.game.as_mut().ok_or("no game")?;
        if game.turn() != Some(Turn::Player) {
            return Err("it is not your turn".to_owned());
        }
        let ms = self.turn_started.elapsed().as_millis() as u64;
        game.play(action, ms).map_err(|e| e.to_string())?;
        self.next_turn().await;
        Ok(())
    }

    async fn takeback(&mut self) -> Result<(), String> {
        if self.game.as_ref().is_none_or(|g| !g.can_takeback()) {
            return Err("nothing to take back".to_owned());
        }
        self.halt().await;
        let game = self.game.as_mut().ok_or("no game")?;
        if !game.takeback() {
            return Err("nothing to take back".to_owned());
        }
        self.next_turn().await;
        Ok(())
    }

    async fn resign(&mut self) -> Result<(), String> {
        match &self.game {
            Some(g) if g.phase() == "play" => {}
            _ => return Err("no game to resign".to_owned()),
        }
        self.halt().await;
        let game = self.game.as_mut().ok_or("no game")?;
        let winner = game.player().map(Colour::opposite);
        let detail = "you resigned".to_owned();
        game.finish(End { winner, termination: Termination::Resign, detail, illegal: None });
        self.legal.clear();
        self.push_game();
        Ok(())
    }

    async fn settings(&mut self, limit: Limit, multipv: u32) -> Result<(), String> {
        let limit = limit.checked().ok_or("the limit must be 1 to 100,000,000 nodes or 10 ms to 10 minutes")?;
        self.multipv = multipv.clamp(1, MAX_MULTIPV);
        if let Some(g) = self.game.as_mut() {
            g.settings.limit = limit;
        }
        if let Some(slot) = self.engine.as_mut()
            && slot.process.has_option("MultiPV")
        {
            slot.process.set_option("MultiPV", &self.multipv.to_string()).await.map_err(|e| e.to_string())?;
        }
        self.push_game();
        Ok(())
    }

    fn record(&mut self) -> Result<(), String> {
        let game = self.game.as_ref().ok_or("no game")?;
        let rec = game.record().ok_or("the record is given once the game is over: it shows the hidden pieces")?;
        self.out.push(ServerMsg::Record { text: rec.to_string() });
        Ok(())
    }

    /// Analysis replaces a game that is not over (its record is kept once it is).
    fn leave_game(&mut self) {
        if self.game.as_ref().is_some_and(|g| g.phase() != "over") {
            self.game = None;
            self.legal.clear();
        }
    }

    async fn analyse(
        &mut self,
        variant: &str,
        options: &BTreeMap<String, String>,
        args: &str,
        multipv: u32,
    ) -> Result<(), String> {
        let RuleSet { variant, toggles, rules } = rules_from(variant, options)?;
        let position = position_command(args)?;
        self.halt().await;
        self.leave_game();
        self.analysis = None;
        self.ensure_engines().await?;
        let aide = self.aide.as_mut().ok_or("no engine")?;
        aide.configure(variant, &toggles, &[]).await.map_err(|e| format!("the engine refuses the rules: {e}"))?;
        let legal = match aide.process.legal_actions(&position).await {
            Ok(actions) => actions.iter().map(ToString::to_string).collect(),
            Err(EngineError::Refused(why)) => return Err(format!("the engine refuses this position: {why}")),
            Err(e) => return Err(e.to_string()),
        };
        let pos = reach(&position, rules).map_err(|e| format!("the board cannot show this position: {e}"))?;
        let over = pos.outcome().map(|r| r.to_string());
        self.out.push(ServerMsg::Position(PositionMsg {
            variant: variant.name().to_owned(),
            rules: toggles.iter().cloned().collect(),
            position: position_args(&position),
            fen: pos.to_setup().to_string(),
            side: pos.side_to_move().map(|c| c.to_string()),
            legal,
            over: over.clone(),
        }));
        if over.is_some() {
            return Ok(());
        }
        let slot = self.engine.as_mut().ok_or("no engine")?;
        let extra = [("MultiPV", multipv.clamp(1, MAX_MULTIPV).to_string()), ("ShowRootStats", "true".to_owned())];
        slot.configure(variant, &toggles, &extra).await.map_err(|e| format!("the engine refuses the rules: {e}"))?;
        let go = Go { infinite: true, ..Go::default() };
        start_search(slot, &position, go, Purpose::Analysis).await.map_err(|e| e.to_string())
    }

    async fn load(&mut self, loaded: LoadedGame, limit: Limit) -> Result<(), String> {
        let limit = limit.checked().ok_or("the limit must be 1 to 100,000,000 nodes or 10 ms to 10 minutes")?;
        let RuleSet { variant, toggles, .. } = rules_from(&loaded.msg.variant, &loaded.msg.rules)?;
        self.halt().await;
        self.leave_game();
        self.ensure_engines().await?;
        let seed = self.config.seed.map(|s| engine_seed(s).to_string());
        let slot = self.engine.as_mut().ok_or("no engine")?;
        let mut extra = vec![("MultiPV", "1".to_owned()), ("ShowRootStats", "false".to_owned())];
        extra.extend(seed.map(|s| ("Seed", s)));
        slot.configure(variant, &toggles, &extra).await.map_err(|e| format!("the engine refuses the rules: {e}"))?;
        self.out.push(ServerMsg::Loaded(loaded.msg.clone()));
        self.analysis = Some(Analysis { loaded, graph: Some((0, limit)), pending: None });
        self.graph_step().await;
        Ok(())
    }

    /// Starts the search of the graph's next position, or the pending
    /// analysis once the graph is complete.
    async fn graph_step(&mut self) {
        let Some(a) = self.analysis.as_mut() else { return };
        let Some((ply, limit)) = a.graph else { return };
        let Some(slot) = self.engine.as_mut() else { return };
        if ply >= a.loaded.views.len() {
            a.graph = None;
            if let Some((ply, multipv)) = a.pending.take()
                && let Err(e) = self.goto(ply, multipv).await
            {
                self.error(e);
            }
            return;
        }
        a.graph = Some((ply + 1, limit));
        let purpose = Purpose::Graph { ply, mover: a.loaded.movers[ply], score: None };
        if let Err(e) = start_search(slot, &a.loaded.views[ply], limit.go(), purpose).await {
            a.graph = None;
            self.error(format!("the evaluation graph: {e}"));
        }
    }

    async fn goto(&mut self, ply: usize, multipv: u32) -> Result<(), String> {
        let a = self.analysis.as_mut().ok_or("no game loaded")?;
        let Some(view) = a.loaded.views.get(ply).cloned() else {
            return Err(format!("the game is over after ply {}: nothing to analyse", ply.saturating_sub(1)));
        };
        if a.graph.is_some() {
            a.pending = Some((ply, multipv));
            return Ok(());
        }
        self.halt().await;
        let slot = self.engine.as_mut().ok_or("no engine")?;
        let multipv = multipv.clamp(1, MAX_MULTIPV).to_string();
        for (name, value) in [("MultiPV", multipv.as_str()), ("ShowRootStats", "true")] {
            if slot.process.has_option(name) {
                slot.process.set_option(name, value).await.map_err(|e| e.to_string())?;
            }
        }
        let go = Go { infinite: true, ..Go::default() };
        start_search(slot, &view, go, Purpose::Analysis).await.map_err(|e| e.to_string())
    }

    async fn stop(&mut self) -> Result<(), String> {
        if let Some(slot) = self.engine.as_mut()
            && matches!(slot.busy, Some(Purpose::Analysis))
        {
            slot.process.send(&Command::Stop).await.map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Handles a line of the engine (or its end).
    pub async fn on_engine(&mut self, line: Result<String, EngineError>) {
        let line = match line {
            Ok(l) => l,
            Err(e) => return self.engine_failed(e).await,
        };
        let Some(purpose) = self.engine.as_ref().and_then(|s| s.busy) else { return };
        let Ok(response) = parse_response(&line) else { return };
        let context = purpose.context();
        let live = match purpose {
            Purpose::Move { game, .. } => self.is_current(game),
            Purpose::Analysis => true,
            Purpose::Graph { .. } | Purpose::Discard => false,
        };
        match response {
            Response::BestMove { action, .. } => {
                if let Some(slot) = self.engine.as_mut() {
                    slot.busy = None;
                }
                self.answered(purpose, action.map(|a| a.to_string())).await;
            }
            Response::Info(info) => match purpose {
                Purpose::Graph { ply, mover, .. } if info.multipv.unwrap_or(1) == 1 && info.score.is_some() => {
                    if let Some(slot) = self.engine.as_mut() {
                        slot.busy = Some(Purpose::Graph { ply, mover, score: info.score });
                    }
                }
                _ if live => self.out.push(ServerMsg::Info { info: (&info).into(), context }),
                _ => {}
            },
            Response::RootStat(r) if live => self.out.push(ServerMsg::Rootstat { stat: (&r).into(), context }),
            Response::Belief(b) if live && matches!(purpose, Purpose::Move { .. }) => {
                // Only the engine's belief about the player's own pieces.
                let about_yours = self.game.as_ref().is_some_and(|g| {
                    let (Some(r), Some(you)) = (g.referee(), g.player()) else { return false };
                    r.view(you).colour_at(b.at) == Some(you)
                });
                if about_yours {
                    self.out.push(ServerMsg::Belief((&b).into()));
                }
            }
            Response::InfoString(text) => {
                log::info!("engine: {text}");
                // In a game the engine's words could repeat its own view.
                if matches!(purpose, Purpose::Analysis) {
                    self.out.push(ServerMsg::Says { text });
                }
            }
            _ => {}
        }
    }

    fn is_current(&self, game: u64) -> bool {
        self.game.as_ref().is_some_and(|g| g.id == game && g.turn() == Some(Turn::Engine))
    }

    async fn answered(&mut self, purpose: Purpose, action: Option<String>) {
        match purpose {
            Purpose::Move { game, sent } if self.is_current(game) => {
                let ms = sent.elapsed().as_millis() as u64;
                if let Some(g) = self.game.as_mut() {
                    engine_plays(g, action, ms);
                }
                self.next_turn().await;
            }
            Purpose::Graph { ply, mover, score } => {
                let score = score.unwrap_or(Score { cp: 0, wdl: None });
                let (w, d, _) = score.wdl.unwrap_or((500, 0, 500));
                let (own, cp) = (w + d / 2, score.cp);
                let (red, cp) = if mover == Colour::Red { (own, cp) } else { (1000 - own, -cp) };
                self.out.push(ServerMsg::Graph { ply, red, cp });
                self.graph_step().await;
            }
            Purpose::Analysis => self.out.push(ServerMsg::Bestmove { action, context: "analysis" }),
            Purpose::Move { .. } | Purpose::Discard => {}
        }
    }

    async fn engine_failed(&mut self, e: EngineError) {
        log::warn!("engine: {e}");
        self.engine = None;
        if let Some(a) = self.analysis.as_mut() {
            a.graph = None;
        }
        if let Some(g) = self.game.as_mut()
            && g.phase() == "play"
        {
            let winner = g.player();
            let detail = format!("{}: {e}", g.engine_name);
            g.finish(End { winner, termination: Termination::Crash, detail, illegal: None });
            self.push_game();
        }
        self.error(format!("{e}; it is started again for the next game or analysis"));
    }
}

/// Plays the engine's answer in `game`: an illegal action or `bestmove
/// none` while it has legal actions loses, as in the arena.
fn engine_plays(game: &mut Game, action: Option<String>, ms: u64) {
    let you = game.player();
    let name = game.engine_name.clone();
    // In flip the colours are unknown before the first flip: an engine that
    // fails its first action there leaves a game without result.
    let termination = if you.is_some() { Termination::Illegal } else { Termination::Error };
    let lose = |detail: String, illegal: Option<String>| End { winner: you, termination, detail, illegal };
    let Some(text) = action else {
        return game.finish(lose(format!("{name} answered bestmove none with legal actions"), None));
    };
    let judged = parse_action(&text)
        .map_err(|e| e.to_string())
        .and_then(|a| game.play(a, ms).map(drop).map_err(|e| e.to_string()));
    if let Err(why) = judged {
        game.finish(lose(format!("{name} sent '{text}': {why}"), Some(text)));
    }
}

/// Sends `position` (checked with `isready`) and `go`, and marks the slot busy.
async fn start_search(slot: &mut Slot, position: &Command, go: Go, purpose: Purpose) -> Result<(), EngineError> {
    slot.process.set_position(position).await?;
    slot.process.send(&Command::Go(go)).await?;
    slot.busy = Some(purpose);
    Ok(())
}

/// A deployment as text, its kinds hidden (`b?`) when `hidden`.
fn half_text(d: &Deployment, hidden: bool) -> String {
    let text = d.to_string();
    if !hidden {
        return text;
    }
    let colour = d.colour().to_char();
    let mut out = String::with_capacity(text.len());
    let mut after_colour = false;
    for c in text.chars() {
        out.push(if after_colour { '?' } else { c });
        after_colour = !after_colour && c == colour;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hidden_half_names_no_kind() {
        let d = parse_deployment("bMbFbMb5b7/bBb1bMb6bB/b31b41b8/b2b21b2b1/b51b31b7/b9b4b1b3b6", Colour::Blue).unwrap();
        assert_eq!(half_text(&d, true), "b?b?b?b?b?/b?b?b?b?b?/b?1b?1b?/b?b?1b?b?/b?1b?1b?/b?b?b?b?b?");
        assert_eq!(half_text(&d, false), d.to_string());
    }
}

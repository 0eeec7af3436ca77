//! The engine loop's four-player commands (protocol.md, *Four players*):
//! `position` with a four-player position string and history, `go setup`
//! for a seat, `go` (the four-player search, [`crate::search::four`], or
//! the four-player baselines, [`crate::players::siguo`]), and `d`. `perft`
//! is in the loop beside the two-player one.

use std::time::Instant;

use super::{DISPLAY_END, Engine, clock_seed, fnv1a, report};
use crate::piece::Colour;
use crate::players::{self, PlayerKind};
use crate::protocol::{Command, Go, Response, SiguoStart};
use crate::random::rng;
use crate::rules::Mode;
use crate::search::{Event, SearchConfig, four};
use crate::siguo::notation::{ArmDeployment, SiguoState, siguo_board_text};
use crate::siguo::{Action, Seat, SiguoRules, SiguoToken, Team};

/// A four-player game as the GUI gave it.
pub(super) struct SiguoGame {
    /// Where the history starts.
    pub base: SiguoState,
    /// The history tokens since `base`.
    pub history: Vec<SiguoToken>,
    /// `base` with the history applied: the seat to move's view.
    pub now: SiguoState,
}

impl SiguoGame {
    /// The empty board before the deployment.
    pub fn start(rules: SiguoRules) -> SiguoGame {
        let base = SiguoState::start(rules);
        SiguoGame { now: base.clone(), base, history: Vec::new() }
    }
}

impl Engine {
    pub(super) fn siguo_set_position(&mut self, start: SiguoStart, moves: Vec<SiguoToken>) {
        if self.opts.siguo.is_none() {
            return self.error("position: a four-player position needs Variant siguo or siguo-open");
        }
        let rules = self.opts.siguo_rules;
        let base = match start {
            SiguoStart::StartPos => SiguoState::start(rules),
            SiguoStart::Fen(setup) => match setup.state(rules) {
                Ok(s) => s,
                Err(e) => return self.error(format!("position fen: {e}")),
            },
        };
        let mut now = base.clone();
        for (i, t) in moves.iter().enumerate() {
            if let Err(e) = now.apply(*t) {
                // The error names the token.
                return self.error(format!("position: move {}: {e}", i + 1));
            }
        }
        log::info!("position: {now} after {} history token(s), {} to move", moves.len(), now.pos.side_to_move());
        self.siguo = Some(SiguoGame { base, history: moves, now });
    }

    pub(super) fn siguo_go_setup(&mut self, seat: Option<Seat>) {
        let seat = seat.or(self.siguo.as_ref().map(|g| g.now.pos.side_to_move())).unwrap_or(Seat::South);
        let red = self.deployment(Colour::Red);
        self.send(Response::SiguoBestSetup(ArmDeployment::new(seat, red)));
    }

    pub(super) fn siguo_display(&self) {
        if let Some(game) = &self.siguo {
            for line in siguo_board_text(&game.now).lines() {
                self.send(Response::Text(line.to_owned()));
            }
        }
        self.send(Response::Text(DISPLAY_END.to_owned()));
    }

    pub(super) fn siguo_go(&mut self, go: Go, searchmoves: &[Action]) {
        if self.searching() {
            return self.error("go: a search is already running; send stop first");
        }
        self.join();
        let none = Response::BestMove { action: None, ponder: None };
        let Some(game) = &self.siguo else { return };
        let pos = &game.now.pos;
        if game.now.not_deployed() {
            self.error("go: the board is empty; deploy first (go setup for each seat, then position fen)");
            return self.send(none);
        }
        if let Some(r) = pos.outcome() {
            self.send(Response::InfoString(format!("game over: {r}")));
            return self.send(none);
        }
        let mover = pos.side_to_move();
        if pos.rules().mode == Mode::Classic {
            let unnamed =
                pos.pieces(mover).into_iter().filter(|&p| pos.cell(p).is_some_and(|c| c.kind.is_none())).count();
            if unnamed > 0 {
                self.error(format!(
                    "go: {unnamed} of {mover}'s pieces are unnamed; in siguo the engine plays the seat to move, and the position must name that seat's own pieces"
                ));
                return self.send(none);
            }
        }
        if pos.count_actions() == 0 {
            self.send(Response::InfoString(format!(
                "{mover} has no legal action: it is out at its turn (RULES-4P.md §4 item 6)"
            )));
            return self.send(none);
        }
        let seed =
            if self.opts.seed == 0 { clock_seed() } else { self.opts.seed ^ fnv1a(game.now.to_string().as_bytes()) };
        let (start, history, view) = (game.base.pos.clone(), game.history.clone(), pos.clone());
        let at_deployment = game.base.ply == 0;
        // The seat to move's clock is its team's: rtime/rinc for South-North, btime/binc for East-West.
        let limits = report::limits_of(&go);
        let player = self.opts.player;
        let bounded = match player {
            PlayerKind::Mcts => limits.ends_on_its_own(Some(Team::of(mover).side())),
            _ => !limits.infinite && !limits.ponder,
        };
        if !bounded && !limits.infinite && !limits.ponder {
            self.send(Response::InfoString(format!(
                "warning: go: no limit for {mover} to move (movetime, nodes, depth or its team's clock); searching until stop"
            )));
        }
        // No `ShowBelief` for four players.
        let cfg = SearchConfig { show_belief: false, ..self.search_config_seeded(seed) };
        let cfg = if searchmoves.is_empty() {
            cfg
        } else {
            let mut legal = Vec::new();
            view.legal_actions(&mut legal);
            SearchConfig { searchmoves: self.legal_among(searchmoves, &legal), ..cfg }
        };
        log::info!(
            "{} ({}): four-player, player {}",
            Command::SiguoGo { go, searchmoves: searchmoves.to_vec() },
            if bounded { "bounded" } else { "until stop" },
            player.name()
        );
        self.spawn("go", bounded, move |_, control, out| {
            let best = match player {
                PlayerKind::Mcts => {
                    let req = four::Request { start: &start, at_deployment, history: &history, view: &view };
                    let mut send = |e: Event<Action>| {
                        if let Event::Progress(p) = e {
                            report::siguo_progress_lines(&p).iter().for_each(|r| out.send(r));
                        }
                    };
                    four::go(&req, &limits, &cfg, control, &mut send).best
                }
                PlayerKind::Greedy | PlayerKind::Random | PlayerKind::Flat | PlayerKind::Expert => {
                    if matches!(player, PlayerKind::Flat | PlayerKind::Expert) {
                        out.send(&Response::InfoString(format!(
                            "warning: Player {player} has no four-player form; greedy plays"
                        )));
                    }
                    let begun = Instant::now();
                    let mut r = rng(cfg.seed);
                    let choice = if player == PlayerKind::Random {
                        players::siguo::random(&view, &mut r)
                    } else {
                        players::siguo::greedy(&view, &mut r)
                    };
                    let info = Response::SiguoInfo(report::one_shot_info(choice, begun.elapsed()));
                    out.send(&info);
                    // Hold the answer while `infinite` or `ponder` is in force.
                    crate::search::hold(&limits, control, &mut || out.send(&info));
                    choice.map(|c| c.action)
                }
            };
            vec![best.map_or(Response::BestMove { action: None, ponder: None }, Response::SiguoBestMove)]
        });
    }
}

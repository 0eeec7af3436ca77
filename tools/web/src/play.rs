//! A game between the player and the engine, judged by the arena's
//! referee: the truth (the deal, both deployments) stays here; the player
//! is shown its view and what it was told, the engine is sent its own view.
//! The game keeps its plies as the arena records them, so that a take-back
//! replays the remaining plies through a fresh referee, and a finished game
//! is an arena record (`.ljr`) that `arena replay` re-judges.

use arena::record::{GameRecord, PlyRecord, Termination};
use arena::referee::{Deal, Ply, Referee, RefereeError, action_of};
use luzhanqi::protocol::Command;
use luzhanqi::{Action, Colour, Deployment, GameResult, Position, Rules, Variant};

use crate::messages::{Limit, MoveMsg, ResultMsg};

/// The plies after which a game is drawn, as the arena's default.
pub const MAX_PLIES: u32 = 1000;

/// The name of the player in records.
pub const PLAYER_NAME: &str = "you";

/// Whose turn it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Turn {
    /// The player's.
    Player,
    /// The engine's.
    Engine,
}

/// How a game ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct End {
    /// The winner; `None` for a draw or no result.
    pub winner: Option<Colour>,
    /// Why.
    pub termination: Termination,
    /// In words.
    pub detail: String,
    /// An illegal action the engine sent.
    pub illegal: Option<String>,
}

impl End {
    /// The end the rules give.
    pub fn by_rules(r: GameResult) -> End {
        End { winner: r.winner, termination: Termination::from_rules(r.reason), detail: r.to_string(), illegal: None }
    }
}

/// Why an action was not played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The game is over.
    Over,
    /// The pieces are not deployed yet.
    NotDeployed,
    /// The referee refused it (illegal for the side to move).
    Referee(RefereeError),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Over => f.write_str("the game is over"),
            PlayError::NotDeployed => f.write_str("the pieces are not deployed yet"),
            PlayError::Referee(e) => write!(f, "the referee refuses it: {e}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// The settings of a new game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameSettings {
    /// The preset.
    pub variant: Variant,
    /// Rule options over it, as sent to the engines.
    pub toggles: Vec<(String, String)>,
    /// The rules in force.
    pub rules: Rules,
    /// Whether the player is Red (deployed variants) or moves first (`flip`).
    pub player_first: bool,
    /// The engine's limit per move.
    pub limit: Limit,
    /// The seed: the deal of a `flip` game and the engines' `Seed`.
    pub seed: u64,
}

/// A game in progress or over.
#[derive(Clone, Debug)]
pub struct Game {
    /// The game's number on its connection.
    pub id: u64,
    /// Its settings.
    pub settings: GameSettings,
    /// The engine's name.
    pub engine_name: String,
    deal: Option<Deal>,
    /// The deployments by colour, once both are known.
    setups: [Option<Deployment>; 2],
    referee: Option<Referee>,
    plies: Vec<PlyRecord>,
    end: Option<End>,
}

impl Game {
    /// A new game: a `flip` game is dealt at once; the others wait for
    /// both deployments ([`Game::deploy`]).
    pub fn new(id: u64, settings: GameSettings, engine_name: String) -> Game {
        let (deal, referee) = if settings.rules.has_deployment() {
            (None, None)
        } else {
            let deal = Deal::from_seed(settings.seed);
            (Some(deal.clone()), Some(Referee::flip(settings.rules, deal)))
        };
        Game { id, settings, engine_name, deal, setups: [None, None], referee, plies: Vec::new(), end: None }
    }

    /// The player's colour: Red or Blue by seat where pieces are deployed;
    /// in `flip` the colour of the first player's first flip (or the other
    /// one), unknown before it.
    pub fn player(&self) -> Option<Colour> {
        let first = if self.settings.rules.has_deployment() { Colour::Red } else { self.plies.first()?.colour };
        Some(if self.settings.player_first { first } else { first.opposite() })
    }

    /// The referee, once the game is dealt or deployed.
    pub fn referee(&self) -> Option<&Referee> {
        self.referee.as_ref()
    }

    /// The plies played, as recorded.
    pub fn plies(&self) -> &[PlyRecord] {
        &self.plies
    }

    /// How the game ended, if it did.
    pub fn end(&self) -> Option<&End> {
        self.end.as_ref()
    }

    /// `deploy`, `play` or `over`.
    pub fn phase(&self) -> &'static str {
        match (&self.referee, &self.end) {
            (_, Some(_)) => "over",
            (None, None) => "deploy",
            (Some(_), None) => "play",
        }
    }

    /// Whose turn it is while the game is played.
    pub fn turn(&self) -> Option<Turn> {
        if self.end.is_some() {
            return None;
        }
        let side = self.referee.as_ref()?.side_to_move();
        let players = match (side, self.player()) {
            (Some(s), Some(p)) => s == p,
            _ => self.settings.player_first,
        };
        Some(if players { Turn::Player } else { Turn::Engine })
    }

    /// The `position` command for the side to move, built from what it
    /// was told (before the first flip of a `flip` game both are told the same).
    pub fn position_for_mover(&self) -> Option<Command> {
        let r = self.referee.as_ref()?;
        Some(r.position_command(r.side_to_move()))
    }

    /// The player's view: the position string of what the player was
    /// told (the empty board before the deployment).
    pub fn player_view(&self) -> String {
        match (&self.referee, self.player()) {
            (Some(r), Some(c)) => r.view(c).to_setup().to_string(),
            (Some(r), None) => r.view(Colour::Red).to_setup().to_string(),
            (None, _) => Position::empty(self.settings.rules).to_setup().to_string(),
        }
    }

    /// The move list: each ply with what the player was told of it.
    pub fn moves(&self) -> Vec<MoveMsg> {
        let (Some(r), Some(you)) = (&self.referee, self.player()) else {
            return Vec::new();
        };
        let mut told = r.told(you).iter();
        self.plies
            .iter()
            .map(|p| MoveMsg {
                colour: p.colour.to_char(),
                tokens: told.by_ref().take(1 + p.reveals.len()).map(ToString::to_string).collect(),
                yours: p.colour == you,
            })
            .collect()
    }

    /// Starts play from both deployments (by colour).
    ///
    /// # Errors
    /// [`RefereeError::Start`] if the referee refuses the start (a bug).
    pub fn deploy(&mut self, red: Deployment, blue: Deployment) -> Result<(), RefereeError> {
        self.referee = Some(Referee::deployed(self.settings.rules, &red, &blue)?);
        self.setups = [Some(red), Some(blue)];
        Ok(())
    }

    /// Judges an action of the side to move and records it (`ms`: the
    /// time it took); ends the game if the rules or the length limit do.
    ///
    /// # Errors
    /// [`PlayError`] when the game is not being played or the referee
    /// refuses the action (nothing changes).
    pub fn play(&mut self, action: Action, ms: u64) -> Result<Ply, PlayError> {
        if self.end.is_some() {
            return Err(PlayError::Over);
        }
        let referee = self.referee.as_mut().ok_or(PlayError::NotDeployed)?;
        let ply = referee.play(action).map_err(PlayError::Referee)?;
        self.plies.push(PlyRecord { colour: ply.mover, token: ply.token, reveals: ply.reveals.clone(), ms });
        if let Some(r) = referee.outcome() {
            self.end = Some(End::by_rules(r));
        } else if referee.truth().ply() >= MAX_PLIES {
            let detail = format!("draw after {MAX_PLIES} plies (the board's maximum)");
            self.end = Some(End { winner: None, termination: Termination::MaxPlies, detail, illegal: None });
        }
        Ok(ply)
    }

    /// Ends the game otherwise than by the rules (resignation, an engine
    /// that failed).
    pub fn finish(&mut self, end: End) {
        if self.end.is_none() {
            self.end = Some(end);
        }
    }

    /// Takes back the player's last action and every ply after it; a game
    /// that was over goes on. Returns whether anything was taken back.
    pub fn takeback(&mut self) -> bool {
        let Some(you) = self.player() else { return false };
        let Some(last) = self.plies.iter().rposition(|p| p.colour == you) else { return false };
        let Some(mut referee) = self.fresh_referee() else { return false };
        for p in &self.plies[..last] {
            if referee.play(action_of(p.token)).is_err() {
                return false; // Cannot happen: these plies were judged by the same rules.
            }
        }
        self.plies.truncate(last);
        self.referee = Some(referee);
        self.end = None;
        true
    }

    /// Whether the player has an action to take back.
    pub fn can_takeback(&self) -> bool {
        self.player().is_some_and(|you| self.plies.iter().any(|p| p.colour == you))
    }

    fn fresh_referee(&self) -> Option<Referee> {
        match (&self.deal, &self.setups) {
            (Some(deal), _) => Some(Referee::flip(self.settings.rules, deal.clone())),
            (None, [Some(red), Some(blue)]) => Referee::deployed(self.settings.rules, red, blue).ok(),
            _ => None,
        }
    }

    /// The result for the page, once over.
    pub fn result(&self) -> Option<ResultMsg> {
        let end = self.end.as_ref()?;
        let rec = self.record_with(end);
        Some(ResultMsg {
            score: rec.result_text().to_owned(),
            winner: end.winner.map(|c| c.to_string()),
            termination: end.termination.to_string(),
            detail: end.detail.clone(),
        })
    }

    /// The arena record of the game, once it is over (before, it would
    /// show the player what the referee keeps hidden: the deal, the
    /// engine's deployment).
    pub fn record(&self) -> Option<GameRecord> {
        self.end.as_ref().map(|e| self.record_with(e))
    }

    fn record_with(&self, end: &End) -> GameRecord {
        let s = &self.settings;
        let mut rec = GameRecord::new(self.id, self.id, s.variant);
        rec.toggles = s.toggles.clone();
        rec.seed = s.seed;
        let you = self.player().unwrap_or(Colour::Red);
        let names = |c: Colour| if c == you { PLAYER_NAME.to_owned() } else { self.engine_name.clone() };
        let limits = |c: Colour| if c == you { "human".to_owned() } else { s.limit.text() };
        rec.names = Colour::BOTH.map(names);
        rec.limits = Colour::BOTH.map(limits);
        rec.first = self.plies.first().map_or(Colour::Red, |p| p.colour);
        rec.max_plies = MAX_PLIES;
        rec.deal = self.deal.clone();
        rec.setups = self.setups.each_ref().map(|d| d.as_ref().map(ToString::to_string));
        rec.plies = self.plies.clone();
        rec.winner = end.winner;
        rec.termination = end.termination;
        rec.detail = end.detail.clone();
        rec.illegal = end.illegal.clone();
        rec
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use luzhanqi::notation::{parse_action, parse_deployment};

    fn settings(variant: Variant, player_first: bool) -> GameSettings {
        GameSettings {
            variant,
            toggles: Vec::new(),
            rules: variant.rules(),
            player_first,
            limit: Limit::Nodes(100),
            seed: 7,
        }
    }

    const RED: &str = "r9r1r4r3r6/r51r31r7/r2r21r2r1/r31r41r8/rBr1rMr6rB/rMrFrMr5r7";
    const BLUE: &str = "bMbFbMb5b7/bBb1bMb6bB/b31b41b8/b2b21b2b1/b51b31b7/b9b4b1b3b6";

    fn act(s: &str) -> Action {
        parse_action(s).unwrap()
    }

    #[test]
    fn flip_colours_come_from_the_first_flip() {
        let mut g = Game::new(1, settings(Variant::Flip, false), "engine".into());
        assert_eq!((g.phase(), g.player(), g.turn()), ("play", None, Some(Turn::Engine)));
        let shown = g.deal.as_ref().unwrap().at(act("c3").from()).unwrap();
        g.play(act("c3"), 5).unwrap();
        assert_eq!(g.player(), Some(shown.colour.opposite()), "the engine flipped first");
        assert_eq!(g.turn(), Some(Turn::Player));
        assert_eq!(g.moves()[0].tokens, [format!("c3={shown}")]);
        assert!(!g.moves()[0].yours);
        assert!(!g.can_takeback() && !g.takeback());
        assert!(g.record().is_none(), "no record before the end: it holds the deal");
    }

    #[test]
    fn takeback_replays_the_rest_through_a_fresh_referee() {
        let mut g = Game::new(1, settings(Variant::Classic, true), "engine".into());
        assert_eq!(g.phase(), "deploy");
        assert!(g.player_view().starts_with("5/5/5/5/5/5/5/5/5/5/5/5 r"), "{}", g.player_view());
        let (red, blue) = (parse_deployment(RED, Colour::Red).unwrap(), parse_deployment(BLUE, Colour::Blue).unwrap());
        g.deploy(red, blue).unwrap();
        assert_eq!((g.player(), g.turn()), (Some(Colour::Red), Some(Turn::Player)));
        assert!(g.player_view().starts_with("b?b?b?b?b?/"), "the engine's pieces are hidden");
        let before = g.player_view();
        g.play(act("c6xc7"), 1).unwrap();
        g.play(act("d7xc7"), 1).unwrap();
        assert!(
            matches!(g.play(act("a6-a7"), 1), Err(PlayError::Referee(RefereeError::Illegal { .. }))),
            "onto a piece"
        );
        let told: Vec<Vec<String>> = g.moves().into_iter().map(|m| m.tokens).collect();
        assert_eq!(told, [vec!["c6xc7+".to_owned()], vec!["d7xc7-".to_owned()]]);
        assert!(g.takeback());
        assert_eq!((g.plies().len(), g.player_view()), (0, before));
        assert_eq!(g.turn(), Some(Turn::Player));
    }

    #[test]
    fn a_finished_game_is_an_arena_record_that_replays() {
        let mut g = Game::new(3, settings(Variant::Classic, false), "engine".into());
        let (red, blue) = (parse_deployment(RED, Colour::Red).unwrap(), parse_deployment(BLUE, Colour::Blue).unwrap());
        g.deploy(red, blue).unwrap();
        assert_eq!(g.player(), Some(Colour::Blue));
        g.play(act("a6xa7"), 12).unwrap();
        assert_eq!(g.moves()[0].tokens, ["a6xa7=", "b1=rF", "b12=bF"], "both Marshals fell: both flags shown");
        g.play(act("b7-a7"), 30).unwrap();
        g.finish(End {
            winner: Some(Colour::Red),
            termination: Termination::Resign,
            detail: "you resigned".into(),
            illegal: None,
        });
        assert_eq!(g.phase(), "over");
        let rec = g.record().unwrap();
        assert_eq!(rec.names, ["engine".to_owned(), PLAYER_NAME.to_owned()]);
        let text = rec.to_string();
        let back = arena::record::parse_records(&text).unwrap();
        let mut out = String::new();
        let opts = arena::replay::ReplayOptions::default();
        assert!(arena::replay::replay_game(&back[0], &opts, &mut out).is_ok(), "{out}");
        assert_eq!(g.result().unwrap().score, "1-0");
        assert!(g.takeback(), "a take-back reopens the game");
        assert_eq!((g.phase(), g.plies().len(), g.turn()), ("play", 1, Some(Turn::Player)));
    }
}

//! The referee of one game: it holds the truth (the deal of a `flip` game,
//! both deployments of a `classic` or `open` one), judges every action
//! against what its player was told, resolves it with the truth, and keeps
//! what each side has been told: a start position and a filtered history.
//!
//! What each side is told (see the README for the full contract):
//! - `flip`: the public game, the same for both: every flip with what it
//!   showed (`c3=r9`), every move, every attack with its outcome.
//! - `classic`: its own pieces named and the enemy's as `b?`/`r?`; moves;
//!   attacks with the outcome only (`a6xa7+`), plus the loser's identity for
//!   the winner where `Rules::winner_learns_loser` (`a6xa7+b3`); after a
//!   Marshal falls, where `Rules::marshal_reveals_flag`, its side's flag
//!   (`d12=bF`) to both.
//! - `open`: everything.

use std::fmt;

use luzhanqi::board::topology::START_POINTS;
use luzhanqi::notation::parse_setup;
use luzhanqi::position::{PlayError, PositionError, Setup};
use luzhanqi::protocol::{Command, PositionStart};
use luzhanqi::{Action, ActionKind, Bitboard, Cell, Colour, Deployment, GameResult, Kind, Mode, Piece, Point};
use luzhanqi::{Position, Rules, Token};
use rand::RngExt;

use luzhanqi::board::topology::NUM_POINTS;
use luzhanqi::piece::ARMY;

/// The hidden identities of a `flip` game's 50 face-down pieces, by point.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Deal {
    pieces: [Option<Piece>; NUM_POINTS],
}

impl Deal {
    /// Shuffles both armies over the 50 non-camp points with the seeded
    /// generator of the library (Fisher-Yates over the points in index order).
    pub fn from_seed(seed: u64) -> Deal {
        let mut army: Vec<Piece> = Vec::with_capacity(50);
        for c in Colour::BOTH {
            for k in Kind::ALL {
                for _ in 0..ARMY[k.index()] {
                    army.push(Piece::new(c, k));
                }
            }
        }
        let mut rng = luzhanqi::random::rng(seed);
        for i in (1..army.len()).rev() {
            army.swap(i, rng.random_range(0..=i));
        }
        let mut pieces = [None; NUM_POINTS];
        for (p, pc) in START_POINTS.into_iter().zip(army) {
            pieces[p.index()] = Some(pc);
        }
        Deal { pieces }
    }

    /// The piece dealt on `p`, if it has not been flipped yet.
    pub fn at(&self, p: Point) -> Option<Piece> {
        self.pieces[p.index()]
    }

    /// Reads the board field of a position string naming all 50 pieces
    /// (what [`Deal`]'s `Display` writes).
    ///
    /// # Errors
    /// A message when the text is not a board of 50 named pieces on the
    /// non-camp points, 25 of each colour with the right counts.
    pub fn parse(board: &str) -> Result<Deal, String> {
        let setup = parse_setup(&format!("{} - 0 0 -", board.trim())).map_err(|e| format!("deal: {e}"))?;
        let mut pieces = [None; NUM_POINTS];
        let mut counts = [[0u8; 12]; 2];
        for p in Point::all() {
            match setup.cells[p.index()] {
                Cell::Empty if !START_POINTS.contains(p) => {}
                Cell::Piece(pc) if START_POINTS.contains(p) => {
                    let k = pc.kind.ok_or_else(|| format!("deal: {p} holds a piece of unknown kind"))?;
                    counts[pc.colour.index()][k.index()] += 1;
                    pieces[p.index()] = Some(pc);
                }
                _ => return Err(format!("deal: {p} must hold a named piece exactly when it is not a camp")),
            }
        }
        if counts != [ARMY; 2] {
            return Err("deal: the pieces are not two full armies".to_owned());
        }
        Ok(Deal { pieces })
    }
}

impl fmt::Display for Deal {
    /// The board field of a position string with every dealt piece named.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut cells = [Cell::Empty; NUM_POINTS];
        for p in Point::all() {
            if let Some(pc) = self.pieces[p.index()] {
                cells[p.index()] = Cell::Piece(pc);
            }
        }
        let setup = Setup { cells, side: None, quiet: 0, ply: 0, removed: Vec::new() };
        let text = setup.to_string();
        f.write_str(text.split_whitespace().next().unwrap_or_default())
    }
}

/// One judged ply.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Ply {
    /// Who played it (in `flip`, the first flip gives the first player its colour).
    pub mover: Colour,
    /// The action chosen.
    pub action: Action,
    /// The truth: a flip with what it showed, a move, an attack with its outcome.
    pub token: Token,
    /// What each side was told of the ply, by colour index.
    pub told: [Token; 2],
    /// Reveals after the ply (the flag after a Marshal falls), told to both.
    pub reveals: Vec<Token>,
}

impl Ply {
    /// Everything `viewer` was told of this ply, in order.
    pub fn told_to(&self, viewer: Colour) -> impl Iterator<Item = Token> + '_ {
        std::iter::once(self.told[viewer.index()]).chain(self.reveals.iter().copied())
    }
}

/// Why the referee refused an action or could not go on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RefereeError {
    /// The game is over.
    GameOver(GameResult),
    /// The action is not legal in the mover's view.
    Illegal {
        /// The side to move (`None` before the first flip of a `flip` game).
        mover: Option<Colour>,
        /// The action.
        action: Action,
    },
    /// A start position the rules refuse (a bug in the referee or the library).
    Start(PositionError),
    /// A side's view refused what the referee told it (a bug in the referee
    /// or the library: the engine would refuse it too).
    Rejected {
        /// The side.
        viewer: Colour,
        /// The token.
        token: Token,
        /// Why its view refused it.
        error: PlayError,
    },
}

impl fmt::Display for RefereeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefereeError::GameOver(r) => write!(f, "the game is over: {r}"),
            RefereeError::Illegal { mover: Some(c), action } => write!(f, "{action} is illegal for {c}"),
            RefereeError::Illegal { mover: None, action } => write!(f, "{action} is illegal as the first action"),
            RefereeError::Start(e) => write!(f, "referee bug: start position refused: {e}"),
            RefereeError::Rejected { viewer, token, error } => {
                write!(f, "referee bug: {viewer}'s view refused {token}: {error}")
            }
        }
    }
}

impl std::error::Error for RefereeError {}

/// The referee of one game.
#[derive(Clone, Debug)]
pub struct Referee {
    rules: Rules,
    /// `flip`: the public position (the deal holds the rest); otherwise every piece named.
    truth: Position,
    deal: Option<Deal>,
    views: [Position; 2],
    starts: [PositionStart; 2],
    told: [Vec<Token>; 2],
}

impl Referee {
    /// A `flip` game from its deal.
    pub fn flip(rules: Rules, deal: Deal) -> Referee {
        let start = Position::flip_start(rules);
        Referee {
            rules,
            truth: start.clone(),
            deal: Some(deal),
            views: [start.clone(), start],
            starts: [PositionStart::StartPos, PositionStart::StartPos],
            told: [Vec::new(), Vec::new()],
        }
    }

    /// A `classic` or `open` game from both deployments (checked by the caller).
    ///
    /// # Errors
    /// [`RefereeError::Start`] if a side's start position is refused (a bug).
    pub fn deployed(rules: Rules, red: &Deployment, blue: &Deployment) -> Result<Referee, RefereeError> {
        Referee::from_position(Position::from_deployments(rules, red, blue))
    }

    /// A `classic` or `open` game from a position naming every piece (a
    /// start, or a position reached earlier); each side is sent its view
    /// of it as `position fen`.
    ///
    /// # Errors
    /// [`RefereeError::Start`] if a side's view is refused by the rules.
    pub fn from_position(truth: Position) -> Result<Referee, RefereeError> {
        let rules = *truth.rules();
        let start_for = |c: Colour| -> Result<(PositionStart, Position), RefereeError> {
            let seen = if rules.mode == Mode::Classic { truth.hide_enemy(c, Bitboard::EMPTY) } else { truth.clone() };
            let setup = seen.to_setup();
            // The view is built from the very text the engine is sent.
            let view = Position::from_setup(&setup, rules).map_err(RefereeError::Start)?;
            Ok((PositionStart::Fen(setup), view))
        };
        let (red_start, red_view) = start_for(Colour::Red)?;
        let (blue_start, blue_view) = start_for(Colour::Blue)?;
        Ok(Referee {
            rules,
            truth,
            deal: None,
            views: [red_view, blue_view],
            starts: [red_start, blue_start],
            told: [Vec::new(), Vec::new()],
        })
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The referee's position: in `flip` the public one (face-down pieces
    /// are `?`), otherwise every piece named.
    pub fn truth(&self) -> &Position {
        &self.truth
    }

    /// The deal of a `flip` game (pieces already flipped are gone from it).
    pub fn deal(&self) -> Option<&Deal> {
        self.deal.as_ref()
    }

    /// What `viewer` knows: the position built from what it was told.
    pub fn view(&self, viewer: Colour) -> &Position {
        &self.views[viewer.index()]
    }

    /// The side to move (`None` before the first flip of a `flip` game).
    pub fn side_to_move(&self) -> Option<Colour> {
        self.truth.side_to_move()
    }

    /// The result if the game is over by the rules (judged on the truth).
    pub fn outcome(&self) -> Option<GameResult> {
        self.truth.outcome()
    }

    /// The start position `viewer` was sent.
    pub fn start_for(&self, viewer: Colour) -> &PositionStart {
        &self.starts[viewer.index()]
    }

    /// The history `viewer` was told.
    pub fn told(&self, viewer: Colour) -> &[Token] {
        &self.told[viewer.index()]
    }

    /// The `position` command for `viewer` (`None`: before the first flip
    /// of a `flip` game, when both are told the same).
    pub fn position_command(&self, viewer: Option<Colour>) -> Command {
        let c = viewer.unwrap_or(Colour::Red);
        Command::Position { start: self.starts[c.index()].clone(), moves: self.told[c.index()].clone() }
    }

    /// Whether `action` is legal for the side to move in what it was told.
    pub fn is_legal(&self, action: Action) -> bool {
        let viewer = self.side_to_move().unwrap_or(Colour::Red);
        self.views[viewer.index()].is_legal(action)
    }

    /// Judges `action` of the side to move: checks it against the mover's
    /// view, resolves it with the truth and tells both sides what they may
    /// know.
    ///
    /// # Errors
    /// [`RefereeError::GameOver`] or [`RefereeError::Illegal`] (the
    /// referee is unchanged), or [`RefereeError::Rejected`] (a bug).
    pub fn play(&mut self, action: Action) -> Result<Ply, RefereeError> {
        if let Some(r) = self.outcome() {
            return Err(RefereeError::GameOver(r));
        }
        let side = self.side_to_move();
        if !self.is_legal(action) {
            return Err(RefereeError::Illegal { mover: side, action });
        }
        let (from, to) = (action.from(), action.to());
        let classic = self.rules.mode == Mode::Classic;
        let mut reveals = Vec::new();
        let (mover, token, told) = match action.kind() {
            ActionKind::Flip => {
                let deal = self.deal.as_mut();
                let piece = deal.and_then(|d| d.pieces[from.index()].take());
                let Some(piece) = piece else {
                    return Err(RefereeError::Illegal { mover: side, action });
                };
                self.truth.play_flip(from, piece);
                let token = Token::Show { at: from, piece };
                (side.unwrap_or(piece.colour), token, [token; 2])
            }
            ActionKind::Move => {
                let mover = self.truth.colour_at(from).unwrap_or(Colour::Red);
                self.truth.play_move(from, to);
                let token = Token::Action(action);
                (mover, token, [token; 2])
            }
            ActionKind::Attack => {
                let (Some(att), Some(def)) = (self.truth.cell(from).piece(), self.truth.cell(to).piece()) else {
                    return Err(RefereeError::Illegal { mover: side, action });
                };
                // Every piece of the truth is named; an attack the rules
                // forbid comes out as a failed attack (`-`).
                let Some(outcome) = self.truth.attack_outcome(from, to) else {
                    return Err(RefereeError::Illegal { mover: side, action });
                };
                self.truth.play_attack(from, to, outcome, None);
                let token = Token::Attack { from, to, outcome, loser: None };
                let mut told = [token; 2];
                let decided = match outcome {
                    luzhanqi::Outcome::AttackerWins => Some((att.colour, def)),
                    luzhanqi::Outcome::DefenderWins => Some((def.colour, att)),
                    luzhanqi::Outcome::BothRemoved => None,
                };
                if let Some((winner, loser)) = decided.filter(|_| classic && self.rules.winner_learns_loser) {
                    told[winner.index()] = Token::Attack { from, to, outcome, loser: Some(loser) };
                }
                if classic && self.rules.marshal_reveals_flag {
                    let fallen = [(outcome.attacker_removed(), att), (outcome.defender_removed(), def)];
                    for (_, pc) in fallen.into_iter().filter(|(gone, pc)| *gone && pc.kind == Some(Kind::Marshal)) {
                        let flag = Piece::new(pc.colour, Kind::Flag);
                        if let Some(at) = self.truth.pieces_of(pc.colour, Some(Kind::Flag)).first() {
                            reveals.push(Token::Show { at, piece: flag });
                        }
                    }
                }
                (att.colour, token, told)
            }
        };
        for viewer in Colour::BOTH {
            for t in std::iter::once(told[viewer.index()]).chain(reveals.iter().copied()) {
                self.views[viewer.index()].apply_token(t).map_err(|error| RefereeError::Rejected {
                    viewer,
                    token: t,
                    error,
                })?;
                self.told[viewer.index()].push(t);
            }
        }
        Ok(Ply { mover, action, token, told, reveals })
    }
}

/// The action behind a truth or history token.
pub fn action_of(token: Token) -> Action {
    match token {
        Token::Action(a) => a,
        Token::Show { at, .. } => Action::flip(at),
        Token::Attack { from, to, .. } => Action::attack(from, to),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use luzhanqi::notation::{parse_action, parse_deployment, parse_point, parse_position, parse_token};

    fn tok(s: &str) -> Token {
        parse_token(s).unwrap()
    }

    fn act(s: &str) -> Action {
        parse_action(s).unwrap()
    }

    fn pt(s: &str) -> Point {
        parse_point(s).unwrap()
    }

    // Red's front rank a6-e6: r9 r1 r4 r3 r6; Blue's a7-e7: b9 b4 b1 b3 b6.
    const RED: &str = "r9r1r4r3r6/r51r31r7/r2r21r2r1/r31r41r8/rBr1rMr6rB/rMrFrMr5r7";
    const BLUE: &str = "bMbFbMb5b7/bBb1bMb6bB/b31b41b8/b2b21b2b1/b51b31b7/b9b4b1b3b6";

    fn classic(rules: Rules) -> Referee {
        let red = parse_deployment(RED, Colour::Red).unwrap();
        let blue = parse_deployment(BLUE, Colour::Blue).unwrap();
        Referee::deployed(rules, &red, &blue).unwrap()
    }

    fn told_strings(r: &Referee, c: Colour) -> Vec<String> {
        r.told(c).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn deal_is_two_armies_and_round_trips() {
        let d = Deal::from_seed(7);
        let text = d.to_string();
        assert_eq!(Deal::parse(&text).unwrap(), d);
        assert_ne!(Deal::from_seed(8), d);
        assert!(Deal::parse("rF4/5/5/5/5/5/5/5/5/5/5/5").is_err());
    }

    #[test]
    fn flip_is_told_to_both_with_its_identity() {
        let deal = Deal::from_seed(3);
        let at = pt("c3");
        let shown = deal.at(at).unwrap();
        let mut r = Referee::flip(Rules::FLIP, deal);
        assert_eq!(r.side_to_move(), None);
        assert!(matches!(r.play(act("a6-a7")), Err(RefereeError::Illegal { mover: None, .. })));
        let ply = r.play(Action::flip(at)).unwrap();
        assert_eq!(ply.mover, shown.colour);
        assert_eq!(ply.told, [Token::Show { at, piece: shown }; 2]);
        assert!(ply.reveals.is_empty());
        assert_eq!(r.side_to_move(), Some(shown.colour.opposite()));
        assert_eq!(r.view(Colour::Red), r.truth());
        assert_eq!(r.told(Colour::Red), r.told(Colour::Blue));
        assert_eq!(r.deal().unwrap().at(at), None);
        assert!(matches!(r.play(Action::flip(at)), Err(RefereeError::Illegal { .. })), "flipped already");
        let cmd = r.position_command(Some(Colour::Blue)).to_string();
        assert_eq!(cmd, format!("position startpos moves c3={shown}"));
    }

    #[test]
    fn classic_start_hides_the_enemy() {
        let r = classic(Rules::CLASSIC);
        let red = r.position_command(Some(Colour::Red)).to_string();
        assert!(red.starts_with("position fen b?b?b?b?b?/"), "{red}");
        assert!(red.contains("/r9r1r4r3r6/") && !red.contains("b9") && !red.contains("bF"), "{red}");
        let blue = r.position_command(Some(Colour::Blue)).to_string();
        assert!(blue.starts_with("position fen bMbFbMb5b7/") && blue.contains("/r?r?r?r?r?/"), "{blue}");
        assert!(!blue.contains("r9") && !blue.contains("rF"), "{blue}");
        assert_eq!(r.view(Colour::Red).cell(pt("a7")), Cell::Piece(Piece::unknown(Colour::Blue)));
    }

    #[test]
    fn open_start_shows_everything() {
        let red = parse_deployment(RED, Colour::Red).unwrap();
        let blue = parse_deployment(BLUE, Colour::Blue).unwrap();
        let mut r = Referee::deployed(Rules::OPEN, &red, &blue).unwrap();
        let ply = r.play(act("a6xa7")).unwrap();
        assert_eq!(ply.told, [tok("a6xa7="); 2]);
        assert!(ply.reveals.is_empty(), "nothing to reveal in open");
        for c in Colour::BOTH {
            assert_eq!(r.view(c), r.truth());
        }
    }

    #[test]
    fn classic_moves_and_every_outcome() {
        let mut r = classic(Rules::CLASSIC);
        let plies = [
            ("c6xc7", "c6xc7+"), // r4 takes b1
            ("d7xc7", "d7xc7-"), // b3 dies on r4
            ("c7xc8", "c7xc8+"), // r4 takes b3
            ("e7xe6", "e7xe6="), // b6 and r6 trade
            ("e5-e6", "e5-e6"),
        ];
        for (a, t) in plies {
            let ply = r.play(act(a)).unwrap();
            assert_eq!(ply.token, tok(t));
            assert_eq!(ply.told, [tok(t); 2], "{a}: nobody learns a kind");
            assert!(ply.reveals.is_empty());
        }
        // Blue's d7 cannot cross the mountain; nothing changes.
        let before = r.told(Colour::Blue).len();
        assert!(matches!(r.play(act("d7xd6")), Err(RefereeError::Illegal { mover: Some(Colour::Blue), .. })));
        assert!(matches!(r.play(act("a7-a6")), Err(RefereeError::Illegal { .. })), "'-' onto a piece");
        assert_eq!(r.told(Colour::Blue).len(), before);
        assert_eq!(r.play(act("e8-e7")).unwrap().token, tok("e8-e7"));
        // Red knows its r4 on c8 won twice, but not what it beat.
        assert_eq!(r.view(Colour::Red).kind_at(pt("c8")), Some(Kind::Major));
        assert_eq!(r.view(Colour::Red).kind_at(pt("e7")), None);
        assert_eq!(r.view(Colour::Blue).kind_at(pt("c8")), None);
        let ply = r.play(act("a6xa7")).unwrap();
        assert_eq!(ply.token, tok("a6xa7="));
        assert_eq!(ply.reveals, [tok("b1=rF"), tok("b12=bF")], "both Marshals fell: both flags shown");
        assert_eq!(r.view(Colour::Red).kind_at(pt("b12")), Some(Kind::Flag));
        assert_eq!(r.view(Colour::Blue).kind_at(pt("b1")), Some(Kind::Flag));
        let all = ["c6xc7+", "d7xc7-", "c7xc8+", "e7xe6=", "e5-e6", "e8-e7", "a6xa7=", "b1=rF", "b12=bF"];
        assert_eq!(told_strings(&r, Colour::Red), all);
        assert_eq!(told_strings(&r, Colour::Blue), all);
        assert!(
            r.position_command(Some(Colour::Red))
                .to_string()
                .ends_with(" moves c6xc7+ d7xc7- c7xc8+ e7xe6= e5-e6 e8-e7 a6xa7= b1=rF b12=bF")
        );
    }

    #[test]
    fn winner_learns_loser_only_where_the_rules_say() {
        let rules = Rules { winner_learns_loser: true, ..Rules::CLASSIC };
        let mut r = classic(rules);
        let ply = r.play(act("c6xc7")).unwrap();
        assert_eq!(ply.told, [tok("c6xc7+b1"), tok("c6xc7+")], "the attacker won: it learns the defender");
        let ply = r.play(act("d7xc7")).unwrap();
        assert_eq!(ply.told, [tok("d7xc7-b3"), tok("d7xc7-")], "the defender won: it learns the attacker");
        let ply = r.play(act("c7xc8")).unwrap();
        assert_eq!(ply.told, [tok("c7xc8+b3"), tok("c7xc8+")]);
        let ply = r.play(act("e7xe6")).unwrap();
        assert_eq!(ply.told, [tok("e7xe6="); 2], "both removed: nobody won");
        assert_eq!(r.view(Colour::Red).removed_count(Colour::Blue, Some(Kind::Captain)), 2);
        assert_eq!(r.view(Colour::Blue).removed_count(Colour::Red, None), 1, "Blue never learned r6");
    }

    #[test]
    fn bomb_on_unknown_mine_is_legal_in_the_view_and_fails() {
        let rules = Rules { bomb_attacks_mine_and_flag: false, ..Rules::CLASSIC };
        let removed = "r1r1r1r2r2r2r3r3r3r4r4r5r5r6r6r7r7r8r9rBrMrMrMb1b1b1b2b2b2b3b3b3b4b4b5b5b6b6b7b7b8b9bBbBbMbM";
        let fen = format!("1bF3/bM4/rB4/5/5/5/5/5/5/5/5/1rF3 r 0 10 {removed}");
        let truth = parse_position(&fen, rules).unwrap();
        assert!(!truth.is_legal(act("a10xa11")), "the truth knows it is a mine");
        let mut r = Referee::from_position(truth).unwrap();
        assert!(r.view(Colour::Red).is_legal(act("a10xa11")));
        let ply = r.play(act("a10xa11")).unwrap();
        assert_eq!(ply.token, tok("a10xa11-"));
        let result = r.outcome().unwrap();
        assert_eq!(
            (result.winner, result.reason),
            (Some(Colour::Red), luzhanqi::EndReason::NoLegalAction),
            "Blue has only its mine and flag"
        );
        assert!(matches!(r.play(Action::flip(pt("a1"))), Err(RefereeError::GameOver(_))));
    }
}

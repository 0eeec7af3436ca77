//! Analysis: a position set up by the player (a ULI `position` command's
//! arguments), and a recorded game replayed through the arena's referee,
//! with what the engine is sent at each of its positions: the mover's
//! view, as the player to move knew it.

use std::collections::BTreeMap;

use arena::record::{GameRecord, parse_records};
use arena::referee::action_of;
use arena::replay::{rules_of, start};
use luzhanqi::protocol::{Command, PositionStart, parse_command};
use luzhanqi::{Colour, Position, Rules, Variant};

use crate::messages::{LoadedMsg, LoadedPly};

/// A preset with rule options over it, and the rules they make.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RuleSet {
    /// The preset.
    pub variant: Variant,
    /// The options over it, as the engines are sent them.
    pub toggles: Vec<(String, String)>,
    /// The rules in force.
    pub rules: Rules,
}

/// The rules of a preset name and rule options, as the arena reads them.
///
/// # Errors
/// A message for an unknown preset or a bad rule option.
pub fn rules_from(variant: &str, options: &BTreeMap<String, String>) -> Result<RuleSet, String> {
    let variant: Variant = variant.parse().map_err(|e| format!("{e}"))?;
    let toggles: Vec<(String, String)> = options.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    let rules = rules_of(variant, &toggles).map_err(|e| e.to_string())?;
    Ok(RuleSet { variant, toggles, rules })
}

/// Reads the arguments of a `position` command (`startpos`, `fen ...`,
/// then optionally `moves ...`) with the protocol's own parser.
///
/// # Errors
/// The parser's message for anything else.
pub fn position_command(args: &str) -> Result<Command, String> {
    if args.contains(['\n', '\r']) {
        return Err("a position is one line".to_owned());
    }
    match parse_command(&format!("position {}", args.trim())) {
        Ok(cmd @ Command::Position { .. }) => Ok(cmd),
        Ok(_) => Err("not a two-player position".to_owned()),
        Err(e) => Err(e.to_string()),
    }
}

/// The position a `position` command reaches under `rules`.
///
/// # Errors
/// What the library refuses in the start or the history.
pub fn reach(cmd: &Command, rules: Rules) -> Result<Position, String> {
    let Command::Position { start, moves } = cmd else {
        return Err("not a position".to_owned());
    };
    let mut pos = match start {
        PositionStart::StartPos => Position::startpos(rules),
        PositionStart::Fen(setup) => Position::from_setup(setup, rules).map_err(|e| e.to_string())?,
    };
    for (i, t) in moves.iter().enumerate() {
        pos.apply_token(*t).map_err(|e| format!("move {} '{t}': {e}", i + 1))?;
    }
    Ok(pos)
}

/// A recorded game replayed for analysis.
#[derive(Clone, Debug)]
pub struct LoadedGame {
    /// What the page is sent.
    pub msg: LoadedMsg,
    /// For each position before a game end (0 = the start), the
    /// `position` command of the mover's view.
    pub views: Vec<Command>,
    /// The mover of each of those positions.
    pub movers: Vec<Colour>,
}

impl LoadedGame {
    /// Replays game `number` (from 1; the first if `None`) of a record
    /// file through the referee.
    ///
    /// # Errors
    /// A message when the file does not parse, has no such game, or a ply
    /// disagrees with the rules.
    pub fn from_text(text: &str, number: Option<u64>) -> Result<LoadedGame, String> {
        let records = parse_records(text)?;
        let rec = match number {
            Some(n) => records.iter().find(|r| r.game == n).ok_or_else(|| format!("no game {n} in the file"))?,
            None => records.first().ok_or("no game in the file")?,
        };
        LoadedGame::from_record(rec)
    }

    /// Replays a record through the referee.
    ///
    /// # Errors
    /// A message when a ply disagrees with the rules.
    pub fn from_record(rec: &GameRecord) -> Result<LoadedGame, String> {
        let rules = rules_of(rec.variant, &rec.toggles).map_err(|e| e.to_string())?;
        let mut referee = start(rec, rules)?.map_err(|why| format!("nothing to replay: {why}"))?;
        let start_fen = referee.truth().to_setup().to_string();
        let (mut views, mut movers, mut plies) = (Vec::new(), Vec::new(), Vec::new());
        for (i, p) in rec.plies.iter().enumerate() {
            views.push(referee.position_command(referee.side_to_move()));
            movers.push(referee.side_to_move().unwrap_or(rec.first));
            let ply = referee.play(action_of(p.token)).map_err(|e| format!("ply {} ({}): {e}", i + 1, p.token))?;
            if ply.token != p.token || ply.reveals != p.reveals {
                return Err(format!("ply {}: recorded {}, the referee says {}", i + 1, p.token, ply.token));
            }
            let tokens = std::iter::once(ply.token).chain(ply.reveals).map(|t| t.to_string()).collect();
            plies.push(LoadedPly { colour: ply.mover.to_char(), tokens, fen: referee.truth().to_setup().to_string() });
        }
        if referee.outcome().is_none() {
            views.push(referee.position_command(referee.side_to_move()));
            movers.push(referee.side_to_move().unwrap_or(rec.first));
        }
        let msg = LoadedMsg {
            variant: rec.variant.name().to_owned(),
            rules: rec.toggles.iter().cloned().collect(),
            names: rec.names.clone(),
            start: start_fen,
            plies,
            result: format!("{} {}: {}", rec.result_text(), rec.termination, rec.detail),
            positions: views.len(),
            views: views.iter().map(position_args).collect(),
        };
        Ok(LoadedGame { msg, views, movers })
    }
}

/// The arguments of a `position` command, as the page's position field holds them.
pub fn position_args(cmd: &Command) -> String {
    let text = cmd.to_string();
    text.strip_prefix("position ").unwrap_or(&text).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_read_by_the_protocol_parser_and_reached_by_the_rules() {
        let cmd = position_command("startpos moves c3=r9 c7=b2").unwrap();
        let pos = reach(&cmd, Rules::FLIP).unwrap();
        assert_eq!(pos.side_to_move(), Some(Colour::Red));
        assert_eq!(position_args(&cmd), "startpos moves c3=r9 c7=b2");
        assert!(position_command("startpos\nquit").is_err());
        assert!(position_command("fen nonsense").is_err());
        assert!(position_command("startpos moves a1-a9").is_ok(), "the parser leaves legality to the rules");
        let err = reach(&position_command("startpos moves c3=r9 a1-a9").unwrap(), Rules::FLIP).unwrap_err();
        assert!(err.starts_with("move 2 'a1-a9'"), "{err}");
    }

    #[test]
    fn rules_come_from_the_preset_and_the_options() {
        let opts = BTreeMap::from([("WinnerLearnsLoser".to_owned(), "true".to_owned())]);
        let set = rules_from("classic", &opts).unwrap();
        assert_eq!((set.variant, set.toggles.len()), (Variant::Classic, 1));
        assert!(set.rules.winner_learns_loser);
        assert!(rules_from("chess", &BTreeMap::new()).is_err());
        assert!(rules_from("flip", &BTreeMap::from([("QuietLimit".to_owned(), "x".to_owned())])).is_err());
    }
}

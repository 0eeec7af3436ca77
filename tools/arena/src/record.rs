//! Game records (`.ljr`): a header of PGN-style tag pairs, then one line a
//! ply. The format is documented in the arena's README; [`GameRecord`]'s
//! `Display` writes it and [`parse_records`] reads it back.
//!
//! ```text
//! [Game "1"]
//! [Pair "1"]
//! [Variant "classic"]
//! [Seed "8312204815532158163"]
//! [Red "greedy"]
//! [Blue "random"]
//! [RedLimits "tc=2000+50"]
//! [BlueLimits "tc=2000+50"]
//! [MaxPlies "1000"]
//! [RedSetup "r5r3r7r4r6/r51r31r7/r2r21r2r1/r31r41r8/r9r1rMr6r1/rBrFrBrMrM"]
//! [BlueSetup "..."]
//! [Result "1-0"]
//! [Termination "flag"]
//! [Plies "87"]
//! 1 r a5-a4 3
//! 2 b c7xc6+ 2
//! 3 r a6xa7= 3 b1=rF b12=bF
//! ```

use std::fmt;
use std::fmt::Write as _;

use luzhanqi::notation::parse_token;
use luzhanqi::{Colour, EndReason, Token, Variant};

use luzhanqi::engine::options::SiguoVariant;

use crate::referee::Deal;
use crate::shard::ShardOf;
use crate::siguo::record::SiguoRecord;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Termination {
    /// A flag was captured (rules).
    Flag,
    /// The side to move had no legal action (rules).
    NoAction,
    /// The quiet-ply limit (rules).
    QuietLimit,
    /// The arena's maximum game length: a draw.
    MaxPlies,
    /// An engine sent an illegal or unreadable action.
    Illegal,
    /// An engine sent an illegal or unreadable deployment.
    BadSetup,
    /// An engine overstepped its time.
    Time,
    /// An engine exited, or could not be restarted (a failed first start
    /// stops the match instead).
    Crash,
    /// An engine did not answer a command it must answer at once, or a
    /// move without a time limit within the stall timeout.
    Stall,
    /// Both engines agreed for long enough that one side is winning
    /// (`--resign`): a loss for the other.
    Resign,
    /// The referee failed (a bug): the game has no result.
    Error,
}

impl Termination {
    /// Every termination, in report order.
    pub const ALL: [Termination; 11] = [
        Termination::Flag,
        Termination::NoAction,
        Termination::QuietLimit,
        Termination::MaxPlies,
        Termination::Illegal,
        Termination::BadSetup,
        Termination::Time,
        Termination::Crash,
        Termination::Stall,
        Termination::Resign,
        Termination::Error,
    ];

    /// The name in records.
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Flag => "flag",
            Termination::NoAction => "noaction",
            Termination::QuietLimit => "quietlimit",
            Termination::MaxPlies => "maxplies",
            Termination::Illegal => "illegal",
            Termination::BadSetup => "badsetup",
            Termination::Time => "time",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
            Termination::Resign => "resign",
            Termination::Error => "error",
        }
    }

    /// The termination of a game the rules ended.
    pub const fn from_rules(reason: EndReason) -> Termination {
        match reason {
            EndReason::FlagCaptured => Termination::Flag,
            EndReason::NoLegalAction => Termination::NoAction,
            EndReason::QuietLimit => Termination::QuietLimit,
        }
    }

    /// How an engine's failure ends a game: `stall` when it did not answer
    /// in time, `crash` otherwise (it exited, closed its pipes, or could
    /// not be restarted).
    pub fn of_engine_error(e: &crate::engine::EngineError) -> Termination {
        match e {
            crate::engine::EngineError::Stalled(_) => Termination::Stall,
            _ => Termination::Crash,
        }
    }

    /// Whether the rules core judges it (a replay can check it).
    pub const fn by_rules(self) -> bool {
        matches!(self, Termination::Flag | Termination::NoAction | Termination::QuietLimit)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Termination {
    type Err = String;

    fn from_str(s: &str) -> Result<Termination, String> {
        Termination::ALL.into_iter().find(|t| t.name() == s).ok_or_else(|| format!("unknown termination '{s}'"))
    }
}

/// One ply of a record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlyRecord {
    /// Who played it.
    pub colour: Colour,
    /// The truth: a flip with what it showed, a move, an attack with its outcome.
    pub token: Token,
    /// The referee's reveals after it (the flag after a Marshal falls).
    pub reveals: Vec<Token>,
    /// Milliseconds from `go` to `bestmove`.
    pub ms: u64,
}

/// One game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    /// Game number in the match, from 1.
    pub game: u64,
    /// Pair number, from 1: the two games of a pair share the deal or seed.
    pub pair: u64,
    /// The rule preset.
    pub variant: Variant,
    /// Rule options applied over the preset (`WinnerLearnsLoser=true`).
    pub toggles: Vec<(String, String)>,
    /// The pair's seed: the deal of a `flip` game, the engines' `Seed`.
    pub seed: u64,
    /// Engine names by colour (Red, Blue).
    pub names: [String; 2],
    /// Limits by colour, as text.
    pub limits: [String; 2],
    /// The colour of the first player (`flip`; Red otherwise).
    pub first: Colour,
    /// The maximum game length.
    pub max_plies: u32,
    /// The deal (`flip`).
    pub deal: Option<Deal>,
    /// The deployments as the engines sent them, by colour (`classic`, `open`).
    pub setups: [Option<String>; 2],
    /// The plies.
    pub plies: Vec<PlyRecord>,
    /// The winner; `None` for a draw or a game without result.
    pub winner: Option<Colour>,
    /// Why it ended.
    pub termination: Termination,
    /// What happened, in words (for adjudications).
    pub detail: String,
    /// The action text an engine sent that was illegal.
    pub illegal: Option<String>,
    /// The shard that played it and its match (`arena --shard`; tags
    /// `Shard` and `Match`).
    pub shard: Option<ShardOf>,
}

impl GameRecord {
    /// A record with no players, no plies and no result yet.
    pub fn new(game: u64, pair: u64, variant: Variant) -> GameRecord {
        GameRecord {
            game,
            pair,
            variant,
            toggles: Vec::new(),
            seed: 0,
            names: [String::new(), String::new()],
            limits: [String::new(), String::new()],
            first: Colour::Red,
            max_plies: 0,
            deal: None,
            setups: [None, None],
            plies: Vec::new(),
            winner: None,
            termination: Termination::Error,
            detail: String::new(),
            illegal: None,
            shard: None,
        }
    }

    /// `1-0` (Red won), `0-1`, `1/2-1/2`, or `*` (no result).
    pub fn result_text(&self) -> &'static str {
        match (self.winner, self.termination) {
            (_, Termination::Error) => "*",
            (Some(Colour::Red), _) => "1-0",
            (Some(Colour::Blue), _) => "0-1",
            (None, _) => "1/2-1/2",
        }
    }

    /// The engine name of `colour`.
    pub fn name(&self, colour: Colour) -> &str {
        &self.names[colour.index()]
    }
}

fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a tag line `[Key "value"]`, the value escaped.
pub(crate) fn tag(out: &mut String, key: &str, value: &str) {
    let _ = writeln!(out, "[{key} \"{}\"]", quote(value));
}

impl fmt::Display for GameRecord {
    /// The record, ending with a newline (records in a file are separated
    /// by a blank line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        let (shard, variant) = (self.shard.as_ref(), self.variant.name());
        write_head(&mut s, self.game, self.pair, shard, variant, &self.toggles, self.seed);
        tag(&mut s, "Red", &self.names[0]);
        tag(&mut s, "Blue", &self.names[1]);
        if self.deal.is_some() {
            tag(&mut s, "First", &self.first.to_string());
        }
        tag(&mut s, "RedLimits", &self.limits[0]);
        tag(&mut s, "BlueLimits", &self.limits[1]);
        tag(&mut s, "MaxPlies", &self.max_plies.to_string());
        if let Some(d) = &self.deal {
            tag(&mut s, "Deal", &d.to_string());
        }
        for (key, setup) in ["RedSetup", "BlueSetup"].into_iter().zip(&self.setups) {
            if let Some(text) = setup {
                tag(&mut s, key, text);
            }
        }
        write_end(&mut s, self.result_text(), self.termination, &self.detail, self.illegal.as_deref());
        tag(&mut s, "Plies", &self.plies.len().to_string());
        for (i, p) in self.plies.iter().enumerate() {
            let _ = write!(s, "{} {} {} {}", i + 1, p.colour.to_char(), p.token, p.ms);
            for r in &p.reveals {
                let _ = write!(s, " {r}");
            }
            s.push('\n');
        }
        f.write_str(&s)
    }
}

/// Reads a tag line `[Key "value"]`.
pub(crate) fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')).ok_or("tag without brackets")?;
    let (key, rest) = inner.split_once(' ').ok_or("tag without value")?;
    let body = rest.trim().strip_prefix('"').and_then(|r| r.strip_suffix('"')).ok_or("tag value without quotes")?;
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' { chars.next().ok_or("dangling backslash")? } else { c });
    }
    Ok((key.to_owned(), value))
}

fn parse_ply(line: &str) -> Result<PlyRecord, String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let [_, colour, token, ms, reveals @ ..] = w.as_slice() else {
        return Err("a ply line is '<n> <r|b> <token> <ms> [reveals]'".to_owned());
    };
    let colour = match *colour {
        "r" => Colour::Red,
        "b" => Colour::Blue,
        c => return Err(format!("bad colour '{c}'")),
    };
    let token = parse_token(token).map_err(|e| e.to_string())?;
    let ms = ms.parse().map_err(|_| format!("bad time '{ms}'"))?;
    let reveals = reveals.iter().map(|r| parse_token(r).map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
    Ok(PlyRecord { colour, token, reveals, ms })
}

fn colour_named(s: &str) -> Result<Colour, String> {
    match s {
        "red" => Ok(Colour::Red),
        "blue" => Ok(Colour::Blue),
        _ => Err(format!("bad colour '{s}'")),
    }
}

/// The tags every record has, two-player and four-player alike, as read.
#[derive(Default)]
pub(crate) struct Head {
    /// `Game`.
    pub game: u64,
    /// `Pair`.
    pub pair: u64,
    /// `Toggles`.
    pub toggles: Vec<(String, String)>,
    /// `Seed`.
    pub seed: u64,
    /// `MaxPlies`.
    pub max_plies: u32,
    /// `Result`: the winning side (0 for `1-0`, 1 for `0-1`) or none.
    pub winner: Option<usize>,
    /// `Termination` (`error` when missing).
    pub termination: Option<Termination>,
    /// `Detail`.
    pub detail: String,
    /// `Illegal`.
    pub illegal: Option<String>,
    /// `Shard` and `Match`.
    pub shard: Option<ShardOf>,
}

/// A line of a record that is not one of the common tags: a ply line, or
/// another tag with its value.
pub(crate) enum Line<'a> {
    /// A ply line.
    Ply(&'a str),
    /// A tag of the record's kind.
    Tag(&'a str, String),
}

/// Reads a record's lines: the common tags into a [`Head`], every other
/// line through `other` (whose errors get the line number).
///
/// # Errors
/// A message naming the line that does not read, or a record without
/// its `Game` or `Result` tag.
pub(crate) fn read_record(
    lines: &[(usize, &str)],
    mut other: impl FnMut(Line<'_>) -> Result<(), String>,
) -> Result<Head, String> {
    let mut head = Head::default();
    let mut seen_result = false;
    let (mut shard, mut matched) = (None, None);
    for &(n, line) in lines {
        let at = |e: String| format!("line {n}: {e}");
        if !line.starts_with('[') {
            other(Line::Ply(line)).map_err(at)?;
            continue;
        }
        let (key, v) = parse_tag(line).map_err(|e| at(e.to_owned()))?;
        let number = |v: &str| v.parse::<u64>().map_err(|_| at(format!("{key}: bad number '{v}'")));
        match key.as_str() {
            "Game" => head.game = number(&v)?,
            "Pair" => head.pair = number(&v)?,
            "Toggles" => {
                for t in v.split_whitespace() {
                    let (k, val) = t.split_once('=').ok_or_else(|| at(format!("bad toggle '{t}'")))?;
                    head.toggles.push((k.to_owned(), val.to_owned()));
                }
            }
            "Seed" => head.seed = number(&v)?,
            "MaxPlies" => head.max_plies = u32::try_from(number(&v)?).map_err(|_| at("MaxPlies too large".into()))?,
            "Result" => {
                seen_result = true;
                head.winner = match v.as_str() {
                    "1-0" => Some(0),
                    "0-1" => Some(1),
                    "1/2-1/2" | "*" => None,
                    _ => return Err(at(format!("bad result '{v}'"))),
                }
            }
            "Termination" => head.termination = Some(v.parse().map_err(at)?),
            "Detail" => head.detail = v,
            "Illegal" => head.illegal = Some(v),
            "Shard" => shard = Some((n, v)),
            "Match" => matched = Some((n, v)),
            _ => other(Line::Tag(&key, v)).map_err(at)?,
        }
    }
    if !seen_result || head.game == 0 {
        return Err("a record needs at least the Game and Result tags".to_owned());
    }
    head.shard = ShardOf::from_tags(shard, matched)?;
    Ok(head)
}

/// Writes the first tags of a record: `Game`, `Pair`, the shard's tags,
/// `Variant`, `Toggles` (if any), `Seed`.
pub(crate) fn write_head(
    s: &mut String,
    game: u64,
    pair: u64,
    shard: Option<&ShardOf>,
    variant: &str,
    toggles: &[(String, String)],
    seed: u64,
) {
    tag(s, "Game", &game.to_string());
    tag(s, "Pair", &pair.to_string());
    if let Some(of) = shard {
        tag(s, "Shard", &of.shard.to_string());
        tag(s, "Match", &of.match_text());
    }
    tag(s, "Variant", variant);
    if !toggles.is_empty() {
        let t: Vec<String> = toggles.iter().map(|(k, v)| format!("{k}={v}")).collect();
        tag(s, "Toggles", &t.join(" "));
    }
    tag(s, "Seed", &seed.to_string());
}

/// Writes the end tags of a record: `Result`, `Termination`, `Detail` and
/// `Illegal` (if any).
pub(crate) fn write_end(s: &mut String, result: &str, termination: Termination, detail: &str, illegal: Option<&str>) {
    tag(s, "Result", result);
    tag(s, "Termination", termination.name());
    if !detail.is_empty() {
        tag(s, "Detail", detail);
    }
    if let Some(a) = illegal {
        tag(s, "Illegal", a);
    }
}

fn parse_one(lines: &[(usize, &str)]) -> Result<GameRecord, String> {
    let mut rec = GameRecord::new(0, 0, Variant::Flip);
    let head = read_record(lines, |line| {
        match line {
            Line::Ply(text) => rec.plies.push(parse_ply(text)?),
            Line::Tag("Variant", v) => rec.variant = v.parse().map_err(|e| format!("{e}"))?,
            Line::Tag("Red", v) => rec.names[0] = v,
            Line::Tag("Blue", v) => rec.names[1] = v,
            Line::Tag("First", v) => rec.first = colour_named(&v)?,
            Line::Tag("RedLimits", v) => rec.limits[0] = v,
            Line::Tag("BlueLimits", v) => rec.limits[1] = v,
            Line::Tag("Deal", v) => rec.deal = Some(Deal::parse(&v)?),
            Line::Tag("RedSetup", v) => rec.setups[0] = Some(v),
            Line::Tag("BlueSetup", v) => rec.setups[1] = Some(v),
            Line::Tag(..) => {} // Unknown tags are kept for the future: ignored.
        }
        Ok(())
    })?;
    (rec.game, rec.pair, rec.toggles, rec.seed, rec.max_plies) =
        (head.game, head.pair, head.toggles, head.seed, head.max_plies);
    rec.winner = head.winner.map(|i| Colour::BOTH[i]);
    rec.termination = head.termination.unwrap_or(Termination::Error);
    (rec.detail, rec.illegal, rec.shard) = (head.detail, head.illegal, head.shard);
    Ok(rec)
}

/// The records of a file as blocks of numbered lines (from 1): records are
/// separated by blank lines; lines starting with `#` are comments.
pub(crate) fn blocks(text: &str) -> Vec<Vec<(usize, &str)>> {
    let mut all = Vec::new();
    let mut block: Vec<(usize, &str)> = Vec::new();
    for (i, raw) in text.lines().enumerate().chain(std::iter::once((usize::MAX, ""))) {
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if !block.is_empty() {
                all.push(std::mem::take(&mut block));
            }
            continue;
        }
        block.push((i + 1, line));
    }
    all
}

/// Reads every record of a file: records are separated by blank lines;
/// lines starting with `#` are comments.
///
/// # Errors
/// A message naming the line of the first malformed record.
pub fn parse_records(text: &str) -> Result<Vec<GameRecord>, String> {
    blocks(text).iter().map(|block| parse_one(block)).collect()
}

/// A two-player or a four-player record (`Variant` `siguo` or `siguo-open`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AnyRecord {
    /// A two-player game.
    Two(GameRecord),
    /// A four-player game.
    Four(SiguoRecord),
}

impl AnyRecord {
    /// The game number.
    pub fn game(&self) -> u64 {
        match self {
            AnyRecord::Two(r) => r.game,
            AnyRecord::Four(r) => r.game,
        }
    }
}

/// Reads every record of a file, two-player and four-player alike (the
/// `Variant` tag says which).
///
/// # Errors
/// A message naming the line of the first malformed record.
pub fn parse_any_records(text: &str) -> Result<Vec<AnyRecord>, String> {
    blocks(text)
        .iter()
        .map(|block| {
            let four = block
                .iter()
                .any(|(_, l)| SiguoVariant::ALL.iter().any(|v| *l == format!("[Variant \"{}\"]", v.name())));
            if four {
                SiguoRecord::parse_block(block).map(AnyRecord::Four)
            } else {
                parse_one(block).map(AnyRecord::Two)
            }
        })
        .collect()
}

/// Reads the records of a file that a match may have left unfinished: like
/// [`parse_records`], except that a malformed last record (one cut short
/// when the match was killed) is dropped instead of failing.
///
/// # Errors
/// A message naming the line of a malformed record before the last one.
pub fn parse_records_lenient(text: &str) -> Result<Vec<GameRecord>, String> {
    lenient(text, parse_records)
}

/// `parse` of `text`, or, when that fails, of `text` without its last
/// record (one cut short when a match was killed).
///
/// # Errors
/// What `parse` says of a malformed record before the last one.
pub(crate) fn lenient<T>(text: &str, parse: impl Fn(&str) -> Result<Vec<T>, String>) -> Result<Vec<T>, String> {
    let mut end = text.len();
    // Records are separated by blank lines: try the whole text, then without
    // its last block, once.
    match parse(text) {
        Ok(r) => return Ok(r),
        Err(e) => {
            let trimmed = text.trim_end();
            if let Some(cut) = trimmed.rfind("\n\n") {
                end = cut;
            } else if !trimmed.contains("\n\n") {
                end = 0;
            }
            if end == text.len() {
                return Err(e);
            }
        }
    }
    parse(&text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            game: 3,
            pair: 2,
            variant: Variant::Classic,
            toggles: vec![("WinnerLearnsLoser".into(), "true".into())],
            seed: 42,
            names: ["gr\"eedy".into(), "random".into()],
            limits: ["tc=2000+50".into(), "nodes=5".into()],
            first: Colour::Red,
            max_plies: 1000,
            deal: None,
            setups: [
                Some("r5r3r7r4r6/r51r31r7/r2r21r2r1/r31r41r8/r9r1rMr6r1/rBrFrBrMrM".into()),
                Some("junk \\".into()),
            ],
            plies: vec![
                PlyRecord {
                    colour: Colour::Red,
                    token: parse_token("a6xa7=").unwrap(),
                    reveals: vec![parse_token("b1=rF").unwrap()],
                    ms: 12,
                },
                PlyRecord { colour: Colour::Blue, token: parse_token("c7-c6").unwrap(), reveals: vec![], ms: 0 },
            ],
            winner: Some(Colour::Blue),
            termination: Termination::Illegal,
            detail: "red sent \"bestmove a1-a9\"".into(),
            illegal: Some("a1-a9".into()),
            shard: None,
        }
    }

    #[test]
    fn records_round_trip() {
        let mut flip = sample();
        flip.variant = Variant::Flip;
        flip.deal = Some(Deal::from_seed(9));
        flip.setups = [None, None];
        flip.first = Colour::Blue;
        flip.game = 4;
        flip.winner = None;
        flip.termination = Termination::MaxPlies;
        let mut sharded = sample();
        sharded.shard = Some(ShardOf::parse("2/3", "games=12 seed=7 id=00000000000000ab").unwrap());
        let text = format!("# a comment\n{}\n{}\n{}", sample(), flip, sharded);
        let back = parse_records(&text).unwrap();
        assert_eq!(back, [sample(), flip, sharded]);
        assert!(text.contains("[Shard \"2/3\"]\n[Match \"games=12 seed=7 id=00000000000000ab\"]"), "{text}");
        let lone = sample().to_string().replace("[Pair \"2\"]", "[Pair \"2\"]\n[Shard \"1/2\"]");
        assert!(parse_records(&lone).unwrap_err().contains("go together"));
        assert!(text.contains("[Result \"0-1\"]") && text.contains("\n1 r a6xa7= 12 b1=rF\n"), "{text}");
    }

    #[test]
    fn malformed_records_say_where() {
        let text = sample().to_string().replace("2 b c7-c6 0", "2 b c7-c6 soon");
        let err = parse_records(&text).unwrap_err();
        assert!(err.starts_with("line ") && err.contains("soon"), "{err}");
        assert!(parse_records("[Game \"1\"]\n").is_err(), "no result");
        assert!(parse_records("[Game 1]\n[Result \"*\"]\n").is_err(), "no quotes");
    }

    #[test]
    fn a_record_cut_short_at_the_end_is_dropped() {
        let whole = format!("{}\n{}\n", sample(), sample());
        let cut = &whole[..whole.len() - 30];
        assert!(parse_records(cut).is_err());
        assert_eq!(parse_records_lenient(cut).unwrap(), [sample()]);
        assert_eq!(parse_records_lenient(&whole).unwrap().len(), 2);
        let bad_first = whole.replacen("2 b c7-c6 0", "2 b c7-c6 soon", 1);
        assert!(parse_records_lenient(&bad_first).is_err(), "only the last record may be cut");
    }

    #[test]
    fn terminations_by_name() {
        for t in Termination::ALL {
            assert_eq!(t.name().parse::<Termination>(), Ok(t));
        }
        assert!(Termination::Flag.by_rules() && !Termination::Time.by_rules());
    }
}

//! Four-player game records: the `.ljr` format of the two-player games
//! (tag pairs, then one line a ply) with a seat for each of the four
//! players. The format is documented in the arena's README.
//!
//! ```text
//! [Game "1"]
//! [Pair "1"]
//! [Variant "siguo"]
//! [Seed "8312204815532158163"]
//! [South "greedy"]
//! [East "random"]
//! [North "greedy"]
//! [West "random"]
//! [SouthLimits "movetime=100"]
//! ...
//! [MaxPlies "1000"]
//! [SouthSetup "s6s7s7s2s4/s11s31s8/s1s41s5s5/s91s21s2/s1sBs6sMsB/s3s3sMsFsM"]
//! ...
//! [Result "1-0"]
//! [Termination "flag"]
//! [Detail "SN wins (flag)"]
//! [Plies "212"]
//! 1 s Sa3-Sa4 3
//! 2 e Ec6xCb2= 2
//! 3 n Na6xEe6+ 1 Ed1=eF
//! ```

use std::fmt;
use std::fmt::Write as _;

use luzhanqi::engine::options::SiguoVariant;
use luzhanqi::siguo::{OutReason, Seat, SiguoEndReason, SiguoToken, Team};

use crate::record::{Line, Termination, read_record, tag, write_end, write_head};
use crate::shard::ShardOf;

/// The tag names of the seats' engines, in seat order (S, E, N, W).
pub const SEAT_TAGS: [&str; 4] = ["South", "East", "North", "West"];

/// The name of a seat in tags and text: `South` ... `West`.
pub fn seat_name(seat: Seat) -> &'static str {
    SEAT_TAGS[seat.index()]
}

/// The seat letter of ply lines: `s`, `e`, `n`, `w`.
pub fn seat_letter(seat: Seat) -> char {
    seat.to_char().to_ascii_lowercase()
}

/// The termination of a four-player game the rules ended.
pub const fn termination_of(reason: SiguoEndReason) -> Termination {
    match reason {
        SiguoEndReason::TeamOut(OutReason::FlagCaptured) => Termination::Flag,
        SiguoEndReason::TeamOut(OutReason::NoLegalAction) => Termination::NoAction,
        SiguoEndReason::TeamOut(OutReason::Resigned) => Termination::Resign,
        // No seat is taken out by hand in a refereed game.
        SiguoEndReason::TeamOut(OutReason::Given) => Termination::Error,
        SiguoEndReason::QuietLimit => Termination::QuietLimit,
    }
}

/// One ply of a four-player record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SiguoPlyRecord {
    /// Who played it.
    pub seat: Seat,
    /// The truth: a move, or an attack with its outcome.
    pub token: SiguoToken,
    /// What the referee announced to every seat after it: flags shown
    /// (`Nb1=nF`), seats out (`N#flag`).
    pub announced: Vec<SiguoToken>,
    /// Milliseconds from `go` to `bestmove`.
    pub ms: u64,
}

/// One four-player game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SiguoRecord {
    /// Game number in the match, from 1.
    pub game: u64,
    /// Pair number, from 1: the two games of a pair share the seeds, the
    /// teams swapped.
    pub pair: u64,
    /// The preset.
    pub variant: SiguoVariant,
    /// Rule options applied over the preset.
    pub toggles: Vec<(String, String)>,
    /// The pair's seed (each seat's engine `Seed` derives from it).
    pub seed: u64,
    /// Engine names by seat (S, E, N, W).
    pub names: [String; 4],
    /// Limits by seat, as text.
    pub limits: [String; 4],
    /// The maximum game length.
    pub max_plies: u32,
    /// The deployments as the engines sent them, by seat.
    pub setups: [Option<String>; 4],
    /// The plies.
    pub plies: Vec<SiguoPlyRecord>,
    /// The winning team; `None` for a draw or a game without result.
    pub winner: Option<Team>,
    /// Why it ended.
    pub termination: Termination,
    /// What happened, in words.
    pub detail: String,
    /// The action text of an `illegal` ending.
    pub illegal: Option<String>,
    /// The seats whose engine lost the game for its team (an illegal
    /// action or deployment, time, a crash, a stall), in seat order.
    pub failed: Vec<Seat>,
    /// The shard that played it (`arena --shard`).
    pub shard: Option<ShardOf>,
}

impl SiguoRecord {
    /// A record with no players, no plies and no result yet.
    pub fn new(game: u64, pair: u64, variant: SiguoVariant) -> SiguoRecord {
        SiguoRecord {
            game,
            pair,
            variant,
            toggles: Vec::new(),
            seed: 0,
            names: Default::default(),
            limits: Default::default(),
            max_plies: 0,
            setups: Default::default(),
            plies: Vec::new(),
            winner: None,
            termination: Termination::Error,
            detail: String::new(),
            illegal: None,
            failed: Vec::new(),
            shard: None,
        }
    }

    /// `1-0` (team SN won), `0-1` (EW won), `1/2-1/2`, or `*` (no result).
    pub fn result_text(&self) -> &'static str {
        match (self.winner, self.termination) {
            (_, Termination::Error) => "*",
            (Some(Team::SouthNorth), _) => "1-0",
            (Some(Team::EastWest), _) => "0-1",
            (None, _) => "1/2-1/2",
        }
    }

    /// The engine name of `seat`.
    pub fn name(&self, seat: Seat) -> &str {
        &self.names[seat.index()]
    }

    /// Reads one record (its numbered lines).
    ///
    /// # Errors
    /// A message naming the line that does not read.
    pub fn parse_block(lines: &[(usize, &str)]) -> Result<SiguoRecord, String> {
        let mut rec = SiguoRecord::new(0, 0, SiguoVariant::Siguo);
        let head = read_record(lines, |line| {
            let (key, v) = match line {
                Line::Ply(text) => {
                    rec.plies.push(parse_ply(text)?);
                    return Ok(());
                }
                Line::Tag(key, v) => (key, v),
            };
            let by_seat =
                |suffix: &str| SEAT_TAGS.iter().position(|s| key.strip_prefix(s).is_some_and(|rest| rest == suffix));
            match key {
                "Variant" => {
                    rec.variant = SiguoVariant::ALL
                        .into_iter()
                        .find(|x| x.name() == v)
                        .ok_or_else(|| format!("'{v}' is not siguo or siguo-open"))?;
                }
                "Failed" => {
                    for c in v.chars() {
                        let seat = Seat::from_char(c).ok_or_else(|| format!("Failed: bad seat '{c}'"))?;
                        if rec.failed.contains(&seat) {
                            return Err(format!("Failed: {seat} twice"));
                        }
                        rec.failed.push(seat);
                    }
                }
                _ => {
                    if let Some(i) = by_seat("") {
                        rec.names[i] = v;
                    } else if let Some(i) = by_seat("Limits") {
                        rec.limits[i] = v;
                    } else if let Some(i) = by_seat("Setup") {
                        rec.setups[i] = Some(v);
                    }
                    // Other tags are kept for the future: ignored.
                }
            }
            Ok(())
        })?;
        (rec.game, rec.pair, rec.toggles, rec.seed, rec.max_plies) =
            (head.game, head.pair, head.toggles, head.seed, head.max_plies);
        rec.winner = head.winner.map(|i| [Team::SouthNorth, Team::EastWest][i]);
        rec.termination = head.termination.unwrap_or(Termination::Error);
        (rec.detail, rec.illegal, rec.shard) = (head.detail, head.illegal, head.shard);
        Ok(rec)
    }
}

fn parse_ply(line: &str) -> Result<SiguoPlyRecord, String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let [_, seat, token, ms, announced @ ..] = w.as_slice() else {
        return Err("a ply line is '<n> <s|e|n|w> <token> <ms> [announcements]'".to_owned());
    };
    let seat = match seat.chars().collect::<Vec<_>>()[..] {
        [c] if c.is_ascii_lowercase() => Seat::from_char(c),
        _ => None,
    }
    .ok_or_else(|| format!("bad seat '{seat}'"))?;
    let token = token.parse::<SiguoToken>().map_err(|e| e.to_string())?;
    if !token.is_ply() {
        return Err(format!("'{token}' is not a move or an attack"));
    }
    let ms = ms.parse().map_err(|_| format!("bad time '{ms}'"))?;
    let announced =
        announced.iter().map(|t| t.parse::<SiguoToken>().map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
    Ok(SiguoPlyRecord { seat, token, announced, ms })
}

impl fmt::Display for SiguoRecord {
    /// The record, ending with a newline (records in a file are separated
    /// by a blank line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        let (shard, variant) = (self.shard.as_ref(), self.variant.name());
        write_head(&mut s, self.game, self.pair, shard, variant, &self.toggles, self.seed);
        for (key, name) in SEAT_TAGS.iter().zip(&self.names) {
            tag(&mut s, key, name);
        }
        for (key, limits) in SEAT_TAGS.iter().zip(&self.limits) {
            tag(&mut s, &format!("{key}Limits"), limits);
        }
        tag(&mut s, "MaxPlies", &self.max_plies.to_string());
        for (key, setup) in SEAT_TAGS.iter().zip(&self.setups) {
            if let Some(text) = setup {
                tag(&mut s, &format!("{key}Setup"), text);
            }
        }
        write_end(&mut s, self.result_text(), self.termination, &self.detail, self.illegal.as_deref());
        if !self.failed.is_empty() {
            tag(&mut s, "Failed", &self.failed.iter().map(|s| s.to_char()).collect::<String>());
        }
        tag(&mut s, "Plies", &self.plies.len().to_string());
        for (i, p) in self.plies.iter().enumerate() {
            let _ = write!(s, "{} {} {} {}", i + 1, seat_letter(p.seat), p.token, p.ms);
            for t in &p.announced {
                let _ = write!(s, " {t}");
            }
            s.push('\n');
        }
        f.write_str(&s)
    }
}

/// Reads every four-player record of a file (see
/// [`crate::record::parse_any_records`] for files that mix both kinds).
///
/// # Errors
/// A message naming the line of the first malformed record.
pub fn parse_siguo_records(text: &str) -> Result<Vec<SiguoRecord>, String> {
    crate::record::blocks(text).iter().map(|b| SiguoRecord::parse_block(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shard::Shard;

    fn tok(s: &str) -> SiguoToken {
        s.parse().unwrap()
    }

    pub(crate) fn sample() -> SiguoRecord {
        SiguoRecord {
            toggles: vec![("PartnerVisible".into(), "true".into())],
            seed: 42,
            names: ["gr\"eedy".into(), "random".into(), "greedy".into(), "random".into()],
            limits: ["movetime=100".into(), "nodes=5".into(), "movetime=100".into(), "nodes=5".into()],
            max_plies: 1000,
            setups: [Some("s6s7s7s2s4/s11s31s8/s1s41s5s5/s91s21s2/s1sBs6sMsB/s3s3sMsFsM".into()), None, None, None],
            plies: vec![
                SiguoPlyRecord { seat: Seat::South, token: tok("Sa3-Sa4"), announced: vec![], ms: 12 },
                SiguoPlyRecord {
                    seat: Seat::East,
                    token: tok("Ec6xSa6="),
                    announced: vec![tok("Sb1=sF"), tok("S#noaction")],
                    ms: 0,
                },
            ],
            winner: Some(Team::EastWest),
            termination: Termination::Illegal,
            detail: "random (N) sent \"bestmove Na1-Na9\"".into(),
            illegal: Some("Na1-Na9".into()),
            failed: vec![Seat::North],
            ..SiguoRecord::new(3, 2, SiguoVariant::Siguo)
        }
    }

    #[test]
    fn records_round_trip() {
        let mut open = sample();
        (open.variant, open.winner, open.termination, open.failed, open.illegal) =
            (SiguoVariant::SiguoOpen, None, Termination::QuietLimit, vec![], None);
        let mut sharded = sample();
        sharded.shard = Some(ShardOf::parse("2/3", "games=12 seed=7 id=00000000000000ab").unwrap());
        assert_eq!(sharded.shard.map(|s| s.shard), Some(Shard { index: 2, count: 3 }));
        let text = format!("# four players\n{}\n{}\n{}", sample(), open, sharded);
        assert_eq!(parse_siguo_records(&text).unwrap(), [sample(), open, sharded]);
        for line in [
            "[South \"gr\\\"eedy\"]\n[East \"random\"]\n[North \"greedy\"]\n[West \"random\"]\n",
            "[SouthLimits \"movetime=100\"]\n[EastLimits \"nodes=5\"]\n",
            "[Result \"0-1\"]\n[Termination \"illegal\"]\n",
            "[Illegal \"Na1-Na9\"]\n[Failed \"N\"]\n[Plies \"2\"]\n1 s Sa3-Sa4 12\n2 e Ec6xSa6= 0 Sb1=sF S#noaction\n",
        ] {
            assert!(text.contains(line), "{line} in\n{text}");
        }
        // Either kind of record reads from one file.
        let mixed = format!("{}\n{}", crate::replay::tests::random_record(luzhanqi::Variant::Open, 1, 20), sample());
        let any = crate::record::parse_any_records(&mixed).unwrap();
        assert!(
            matches!(&any[..], [crate::record::AnyRecord::Two(_), crate::record::AnyRecord::Four(r)] if *r == sample())
        );
    }

    #[test]
    fn malformed_records_say_where() {
        let bad = |from: &str, to: &str| {
            let text = sample().to_string().replace(from, to);
            parse_siguo_records(&text).unwrap_err()
        };
        assert!(bad("2 e Ec6xSa6= 0", "2 e Ec6xSa6= soon").contains("bad time 'soon'"));
        assert!(bad("2 e Ec6xSa6=", "2 x Ec6xSa6=").contains("bad seat 'x'"));
        assert!(bad("2 e Ec6xSa6=", "2 E Ec6xSa6=").contains("bad seat 'E'"));
        assert!(bad("2 e Ec6xSa6=", "2 e Sb1=sF").contains("not a move or an attack"));
        assert!(bad("[Failed \"N\"]", "[Failed \"NN\"]").contains("N twice"));
        assert!(bad("[Result \"0-1\"]", "[Result \"EW\"]").contains("bad result 'EW'"));
        assert!(bad("[Variant \"siguo\"]", "[Variant \"siguo-dark\"]").contains("not siguo or siguo-open"));
        let e = bad("[Pair \"2\"]", "[Pair \"2\"]\n[Shard \"1/2\"]");
        assert!(e.contains("go together"), "{e}");
        assert!(parse_siguo_records("[Game \"1\"]\n").is_err(), "no result");
    }
}

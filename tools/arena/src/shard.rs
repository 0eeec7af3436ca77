//! Shards of a match (`arena --shard K/N`) and their merge (`arena merge`).
//!
//! Shard `K` of `N` (K from 1, like the `Pair` tag) plays the pairs
//! `K, K+N, K+2N, ...` of the match, with the game numbers, pair seeds and
//! deals of the unsharded match. Each of its records carries two tags,
//! `[Shard "K/N"]` and `[Match "games=G seed=S id=H"]`, where `H` is a hash
//! of everything that decides the games (see [`match_id`]). [`merge`]
//! checks that its inputs are shards of one match, none missing and none
//! twice, and gives the records in game order without those two tags, and
//! the summary: the records and the summary of the unsharded run of the
//! same match, except for timings.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use luzhanqi::Variant;

use crate::record::{GameRecord, parse_records};
use crate::runner::{MatchConfig, Summary, pair_seed, red_seat_of};

/// Shard `index` of `count`, `index` from 1.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Shard {
    /// Which shard, 1 to `count`.
    pub index: u64,
    /// How many shards the match is cut into.
    pub count: u64,
}

impl Shard {
    /// Whether pair `pair` (from 1) is this shard's.
    pub fn has_pair(self, pair: u64) -> bool {
        pair >= 1 && (pair - 1) % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `K/N` with `1 <= K <= N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s.split_once('/').ok_or_else(|| format!("'{s}' is not K/N (shard K of N, K from 1)"))?;
        let number = |x: &str| x.trim().parse::<u64>().map_err(|e| format!("'{s}': '{x}': {e}"));
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 {
            return Err(format!("'{s}': N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(format!("'{s}': K must be 1 to {count} (shards count from 1; add 1 to a 0-based index)"));
        }
        Ok(Shard { index, count })
    }
}

/// What a shard's record says about its match.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ShardOf {
    /// The shard that played the game.
    pub shard: Shard,
    /// The match's `--games`.
    pub games: u64,
    /// The match seed.
    pub seed: u64,
    /// [`match_id`] of the match.
    pub id: u64,
}

impl ShardOf {
    /// The tags of a shard of `cfg`, if it is one.
    pub fn of(cfg: &MatchConfig) -> Option<ShardOf> {
        cfg.run.shard.map(|shard| ShardOf { shard, games: cfg.run.games, seed: cfg.run.seed, id: match_id(cfg) })
    }

    /// The value of the `Match` tag: `games=12 seed=1 id=0123456789abcdef`.
    pub fn match_text(&self) -> String {
        format!("games={} seed={} id={:016x}", self.games, self.seed, self.id)
    }

    /// The shard of a record from its `Shard` and `Match` tags (each with
    /// its line number), if it has them.
    ///
    /// # Errors
    /// A message naming the line when only one of them is there or either
    /// is malformed.
    pub fn from_tags(
        shard: Option<(usize, String)>,
        matched: Option<(usize, String)>,
    ) -> Result<Option<ShardOf>, String> {
        match (shard, matched) {
            (None, None) => Ok(None),
            (Some((n, s)), Some((_, m))) => ShardOf::parse(&s, &m).map(Some).map_err(|e| format!("line {n}: {e}")),
            (Some((n, _)), None) | (None, Some((n, _))) => {
                Err(format!("line {n}: the Shard and Match tags go together"))
            }
        }
    }

    /// Reads the values of the `Shard` and `Match` tags.
    ///
    /// # Errors
    /// A message when either is malformed.
    pub fn parse(shard: &str, matched: &str) -> Result<ShardOf, String> {
        let shard = shard.parse()?;
        let (mut games, mut seed, mut id) = (None, None, None);
        for word in matched.split_whitespace() {
            let bad = || format!("Match: bad '{word}'");
            match word.split_once('=').ok_or_else(bad)? {
                ("games", v) => games = Some(v.parse().map_err(|_| bad())?),
                ("seed", v) => seed = Some(v.parse().map_err(|_| bad())?),
                ("id", v) => id = Some(u64::from_str_radix(v, 16).map_err(|_| bad())?),
                _ => return Err(bad()),
            }
        }
        match (games, seed, id) {
            (Some(games), Some(seed), Some(id)) => Ok(ShardOf { shard, games, seed, id }),
            _ => Err(format!("Match: '{matched}' needs games=, seed= and id=")),
        }
    }
}

/// A hash (64-bit FNV-1a) of what decides a match's games: the variant and
/// rule options, `--games`, `--seed`, `--maxplies`, the limits, `--resign`,
/// and each engine's name, arguments, options and limits, in order. Not the
/// engines' commands and folders (shards on machines that keep the binary
/// at another path still merge), nor `--timemargin`, `--stall` or
/// `--concurrency`.
pub fn match_id(cfg: &MatchConfig) -> u64 {
    let r = &cfg.run;
    match_id_of(cfg.variant.name(), &cfg.toggles, r.games, r.seed, r.max_plies, &r.limits, r.resign, &cfg.engines)
}

/// [`match_id`] of a match described by its parts (two-player and
/// four-player matches alike).
#[allow(clippy::too_many_arguments)]
pub fn match_id_of(
    variant: &str,
    toggles: &[(String, String)],
    games: u64,
    seed: u64,
    max_plies: u32,
    limits: &crate::clock::Limits,
    resign: Option<crate::game::Resign>,
    engines: &[crate::engine::EngineSpec],
) -> u64 {
    let mut text = format!(
        "variant={variant} toggles={toggles:?} games={games} seed={seed} maxplies={max_plies} limits={limits} resign={resign:?}"
    );
    for e in engines {
        text.push_str(&format!(
            "\nengine name={:?} args={:?} options={:?} limits={:?}",
            e.name, e.args, e.options, e.limits
        ));
    }
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Shards merged into one match.
#[derive(Clone, Debug)]
pub struct Merged {
    /// Every game of the match in game order, without the shard tags.
    pub records: Vec<GameRecord>,
    /// The match's summary (its wall time unknown: zero).
    pub summary: Summary,
    /// The shards' common tags (of the first record).
    pub of: ShardOf,
    /// The match's variant.
    pub variant: Variant,
}

impl Merged {
    /// The match's text summary, as the unsharded run prints it but for
    /// the wall time (unknown).
    pub fn text(&self) -> String {
        self.summary.text_with(None, None)
    }

    /// The match's JSON line, as the unsharded run prints it but for
    /// `wall_s` (`null`).
    pub fn json(&self) -> String {
        self.summary.json_with(self.variant, None, None)
    }
}

/// One record as [`merge_games`] sees it.
pub(crate) struct ShardGame<'a> {
    /// The input it comes from.
    pub file: &'a str,
    /// Its shard tags.
    pub shard: Option<ShardOf>,
    /// Its game number.
    pub game: u64,
    /// Its pair number.
    pub pair: u64,
    /// Its pair seed.
    pub seed: u64,
}

/// The records of the inputs (each a name and its text) read by `parse`,
/// and each as [`merge_games`] sees it (`key`: its shard tags, game, pair
/// and seed).
///
/// # Errors
/// An input that does not parse, named.
pub(crate) fn read_shards<'a, R>(
    inputs: &'a [(String, String)],
    parse: fn(&str) -> Result<Vec<R>, String>,
    key: impl Fn(&R) -> (Option<ShardOf>, u64, u64, u64),
) -> Result<(Vec<R>, Vec<ShardGame<'a>>), String> {
    let (mut all, mut games) = (Vec::new(), Vec::new());
    for (file, text) in inputs {
        for rec in parse(text).map_err(|e| format!("{file}: {e}"))? {
            let (shard, game, pair, seed) = key(&rec);
            games.push(ShardGame { file, shard, game, pair, seed });
            all.push(rec);
        }
    }
    Ok((all, games))
}

/// The records of a match's shards, checked (see [`merge`]) and put in
/// game order: their indices in `games`. `like(i, first)`: whether record
/// `i` has the first record's variant, rule options and `MaxPlies`;
/// `engines(i, first)`: whether it is between the same engines in the
/// same order, else `between X, not Y`.
///
/// # Errors
/// What [`merge`] refuses.
pub(crate) fn merge_games(
    games: &[ShardGame<'_>],
    like: impl Fn(usize, usize) -> bool,
    engines: impl Fn(usize, usize) -> Result<(), String>,
) -> Result<(ShardOf, Vec<usize>), String> {
    let mut first: Option<(ShardOf, usize)> = None;
    let mut by_game: BTreeMap<u64, usize> = BTreeMap::new();
    for (i, rec) in games.iter().enumerate() {
        let (file, g) = (rec.file, rec.game);
        let Some(of) = rec.shard else {
            return Err(format!("{file}: game {g} has no Shard and Match tags: not written by arena --shard"));
        };
        let (want, f) = *first.get_or_insert((of, i));
        let first_file = games[f].file;
        if (of.games, of.seed, of.id) != (want.games, want.seed, want.id) {
            return Err(format!(
                "{file}: game {g} is of another match ({}) than {first_file} ({}): games, seed, or what the \
                 id covers (variant, rules, --maxplies, limits, --resign, the engines' names, args, options) differ",
                of.match_text(),
                want.match_text()
            ));
        }
        if of.shard.count != want.shard.count {
            return Err(format!(
                "{file}: game {g} is of shard {} but {first_file} has shards of {}",
                of.shard, want.shard.count
            ));
        }
        if !like(i, f) {
            return Err(format!("{file}: game {g} has another variant, rule options or MaxPlies than {first_file}"));
        }
        let pair_ok = rec.pair >= 1 && rec.game.div_ceil(2) == rec.pair && rec.game <= of.games;
        if !pair_ok || !of.shard.has_pair(rec.pair) || rec.seed != pair_seed(of.seed, rec.pair - 1) {
            return Err(format!(
                "{file}: game {g} (pair {}, seed {}) is not a game of shard {} of this match",
                rec.pair, rec.seed, of.shard
            ));
        }
        engines(i, f).map_err(|between| format!("{file}: game {g} is {between}"))?;
        if let Some(&other) = by_game.get(&g) {
            return Err(format!("game {g} (pair {}) is twice: in {} and in {file}", rec.pair, games[other].file));
        }
        by_game.insert(g, i);
    }
    let Some((of, _)) = first else {
        return Err("no records in the inputs".to_owned());
    };
    let mut missing: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for g in (1..=of.games).filter(|g| !by_game.contains_key(g)) {
        let pair = g.div_ceil(2);
        missing.entry((pair - 1) % of.shard.count + 1).or_default().push(g);
    }
    if !missing.is_empty() {
        let lacks: Vec<String> = missing
            .iter()
            .map(|(k, g)| {
                let g: Vec<String> = g.iter().map(u64::to_string).collect();
                format!("shard {k}/{} lacks games {}", of.shard.count, g.join(", "))
            })
            .collect();
        return Err(format!(
            "incomplete match of {} games: {}; run those shards (--resume keeps their finished pairs) and merge again",
            of.games,
            lacks.join("; ")
        ));
    }
    Ok((of, by_game.into_values().collect()))
}

/// Merges the records of the shards of one match, each input a name (for
/// messages) and its text.
///
/// # Errors
/// A message when an input does not parse, a record was not written by a
/// shard, records come from different matches or shard counts, a game is
/// there twice, or games are missing (naming them and their shards).
pub fn merge(inputs: &[(String, String)]) -> Result<Merged, String> {
    let (all, games) = read_shards(inputs, parse_records, |r| (r.shard, r.game, r.pair, r.seed))?;
    let order = |r: &GameRecord| {
        let seat = red_seat_of(r);
        [r.names[seat].clone(), r.names[1 - seat].clone()]
    };
    let like = |i: usize, f: usize| {
        let (a, b) = (&all[i], &all[f]);
        (a.variant, &a.toggles, a.max_plies) == (b.variant, &b.toggles, b.max_plies)
    };
    let engines = |i: usize, f: usize| {
        let (got, want) = (order(&all[i]), order(&all[f]));
        if got == want {
            Ok(())
        } else {
            Err(format!("between {} and {}, not {} and {}", got[0], got[1], want[0], want[1]))
        }
    };
    let (of, in_order) = merge_games(&games, like, engines)?;
    let variant = all[in_order[0]].variant;
    let names = order(&all[in_order[0]]);
    let records: Vec<GameRecord> = in_order.into_iter().map(|i| GameRecord { shard: None, ..all[i].clone() }).collect();
    let summary = Summary::from_records(names, &records);
    Ok(Merged { records, summary, of, variant })
}

#[cfg(test)]
mod tests {
    use super::*;
    use luzhanqi::Colour;

    use crate::record::Termination;

    /// Game `game` of a 6-game match of seed 7 as shard `index` of
    /// `count` writes it (not a legal game: merge does not replay).
    fn game(game: u64, index: u64, count: u64) -> GameRecord {
        let pair = game.div_ceil(2);
        let mut rec = GameRecord::new(game, pair, Variant::Open);
        rec.seed = pair_seed(7, pair - 1);
        rec.names = if game % 2 == 1 { ["a".into(), "b".into()] } else { ["b".into(), "a".into()] };
        rec.winner = Some(Colour::Red);
        rec.termination = Termination::Flag;
        rec.shard = Some(ShardOf { shard: Shard { index, count }, games: 6, seed: 7, id: 1 });
        rec
    }

    fn file(name: &str, recs: &[GameRecord]) -> (String, String) {
        (name.to_owned(), recs.iter().map(|r| format!("{r}\n")).collect())
    }

    #[test]
    fn merge_orders_the_games_and_refuses_what_is_not_one_match() {
        let one = file("one", &[game(1, 1, 2), game(2, 1, 2), game(5, 1, 2), game(6, 1, 2)]);
        let two = file("two", &[game(4, 2, 2), game(3, 2, 2)]);
        let merged = merge(&[two.clone(), one.clone()]).unwrap();
        assert_eq!(merged.records.iter().map(|r| r.game).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
        assert!(merged.records.iter().all(|r| r.shard.is_none()));
        // Red won every game: each pair is 1-1.
        assert_eq!(merged.summary.tally.penta, [0, 0, 3, 0, 0]);
        assert_eq!(merged.summary.names, ["a", "b"]);
        assert!(merged.json().starts_with("{\"engines\":[\"a\",\"b\"],\"variant\":\"open\",\"games\":6,"));

        let err = |inputs: &[(String, String)]| merge(inputs).unwrap_err();
        assert_eq!(err(&[]), "no records in the inputs");
        assert!(err(&[file("x", &[])]).contains("no records"));
        let e = err(std::slice::from_ref(&one));
        assert!(e.contains("incomplete match of 6 games: shard 2/2 lacks games 3, 4; run those shards"), "{e}");
        let mut plain = game(3, 2, 2);
        plain.shard = None;
        assert!(err(&[one.clone(), file("p", &[plain, game(4, 2, 2)])]).contains("p: game 3 has no Shard"));
        let e = err(&[one.clone(), file("t", &[game(3, 2, 3), game(4, 2, 2)])]);
        assert!(e.contains("t: game 3 is of shard 2/3 but one has shards of 2"), "{e}");
        let e = err(&[one.clone(), file("w", &[game(3, 1, 2), game(4, 2, 2)])]);
        assert!(e.contains("w: game 3 (pair 2, seed") && e.contains("not a game of shard 1/2"), "{e}");
        let mut swapped = game(3, 2, 2);
        swapped.names.swap(0, 1);
        let e = err(&[one.clone(), file("s", &[swapped, game(4, 2, 2)])]);
        assert!(e.contains("s: game 3 is between b and a, not a and b"), "{e}");
        let mut other = game(3, 2, 2);
        other.shard = Some(ShardOf { id: 2, ..other.shard.unwrap() });
        let e = err(&[one.clone(), file("o", &[other, game(4, 2, 2)])]);
        assert!(e.contains("o: game 3 is of another match (games=6 seed=7 id=0000000000000002)"), "{e}");
        let e = err(&[one.clone(), two.clone(), file("again", &[game(4, 2, 2)])]);
        assert_eq!(e, "game 4 (pair 2) is twice: in two and in again");
        let cut = (two.0.clone(), two.1[..two.1.len() - 20].to_owned());
        assert!(err(&[one, cut]).starts_with("two: line "));
    }

    #[test]
    fn shards_parse_from_one_and_split_the_pairs() {
        assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "1/0", "0/0", "3", "a/3", "1/-2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let shards = [1, 2, 3].map(|index| Shard { index, count: 3 });
        for pair in 1..=10 {
            let owners: Vec<u64> = shards.iter().filter(|s| s.has_pair(pair)).map(|s| s.index).collect();
            assert_eq!(owners, [(pair - 1) % 3 + 1], "pair {pair}");
        }
        let of = ShardOf { shard: shards[1], games: 12, seed: 7, id: 0xab };
        assert_eq!(ShardOf::parse("2/3", &of.match_text()), Ok(of));
        assert!(ShardOf::parse("2/3", "games=12 seed=7").is_err());
        assert!(ShardOf::parse("2/3", "games=12 seed=7 id=zz").is_err());
    }
}

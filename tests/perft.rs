//! Perft numbers pinned in `tests/perft.txt`, plus the depth-1 divide
//! agreeing with the total, and the classic-view depth limit.

use luzhanqi::notation::parse_position;
use luzhanqi::perft::{PerftError, divide, perft};
use luzhanqi::{Rules, Variant};

fn rules_named(name: &str) -> Rules {
    match name {
        "flip-toggled" => Rules {
            flag_needs_engineer: false,
            bomb_attacks_mine_and_flag: false,
            any_rank_clears_mine: true,
            ..Rules::FLIP
        },
        other => other.parse::<Variant>().expect("variant name").rules(),
    }
}

#[test]
fn pinned_perft_numbers() {
    let data = include_str!("perft.txt");
    let mut lines = 0;
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(parts.len(), 3, "{line}");
        let rules = rules_named(parts[0]);
        let pos = parse_position(parts[1], rules).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(pos.to_string(), parts[1]);
        for (i, expected) in parts[2].split_whitespace().enumerate() {
            let depth = i as u32 + 1;
            let expected: u64 = expected.parse().expect("count");
            assert_eq!(perft(&pos, depth), Ok(expected), "perft {depth} of {line}");
            if depth <= 2 {
                let split = divide(&pos, depth).expect("divide");
                assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), expected);
            }
        }
        lines += 1;
    }
    assert!(lines >= 6, "{lines}");
}

#[test]
fn classic_views_support_depth_one_only() {
    let view = "b?b?b?b?b?/1b?b?b?b?/b?b?b?1b?/b?b?1b?b?/r51b?b?1/rBb?b?b?b?/2r81r3/1r51r1r7/1rBr61r4/1r2r1r2r6/rMr4rMr2r9/r3r7r3rFrM r 25 40 r1b1b2";
    let pos = parse_position(view, Rules::CLASSIC).expect("view");
    assert_eq!(perft(&pos, 1), Ok(30));
    assert_eq!(perft(&pos, 2), Err(PerftError::HiddenKinds { depth: 2 }));
    assert!(perft(&pos, 2).unwrap_err().to_string().contains("only depth 1"));
    assert_eq!(perft(&pos, 0), Ok(1));
}

//! Every command and response prints and parses back to itself; odd white
//! space is accepted; garbage gives typed errors, never a panic.

mod common;

use luzhanqi::deployment::Deployment;
use luzhanqi::engine::options::Options;
use luzhanqi::notation::{parse_action, parse_point, parse_setup};
use luzhanqi::protocol::{
    Belief, Command, Go, Info, ParseError, PositionStart, Response, RootStatLine, Score, parse_command, parse_response,
};
use luzhanqi::random::{random_start, random_step, rng};
use luzhanqi::{Colour, Kind, Rules, Token};

fn commands() -> Vec<Command> {
    let setup = parse_setup("?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? - 0 0 -").unwrap();
    let tokens = ["c3=r9", "a1=b5", "c3-c4", "a6xa7+", "a6xa7-r5", "a6xa7=", "d12=bF", "b2xb3"]
        .iter()
        .map(|t| luzhanqi::notation::parse_token(t).unwrap())
        .collect::<Vec<Token>>();
    vec![
        Command::Uli,
        Command::IsReady,
        Command::SetOption { name: "Hash".into(), value: Some("128".into()) },
        Command::SetOption { name: "Debug Log File".into(), value: Some("/tmp/a b.log".into()) },
        Command::SetOption { name: "Clear Hash".into(), value: None },
        Command::NewGame,
        Command::Position { start: PositionStart::StartPos, moves: vec![] },
        Command::Position { start: PositionStart::StartPos, moves: tokens.clone() },
        Command::Position { start: PositionStart::Fen(setup.clone()), moves: vec![] },
        Command::Position { start: PositionStart::Fen(setup), moves: tokens },
        Command::Go(Go::default()),
        Command::Go(Go { movetime: Some(100), ..Go::default() }),
        Command::Go(Go {
            rtime: Some(60_000),
            btime: Some(59_000),
            rinc: Some(500),
            binc: Some(0),
            movestogo: Some(20),
            ..Go::default()
        }),
        Command::Go(Go { nodes: Some(10_000), depth: Some(7), ..Go::default() }),
        Command::Go(Go { infinite: true, ..Go::default() }),
        Command::Go(Go { ponder: true, rtime: Some(1000), btime: Some(1000), ..Go::default() }),
        Command::Go(Go {
            nodes: Some(500),
            searchmoves: ["a4-a5", "c3", "a6xa7"].iter().map(|a| parse_action(a).unwrap()).collect(),
            ..Go::default()
        }),
        Command::GoSetup(None),
        Command::GoSetup(Some(Colour::Red)),
        Command::GoSetup(Some(Colour::Blue)),
        Command::Stop,
        Command::PonderHit,
        Command::Quit,
        Command::Display,
        Command::Perft(3),
        Command::Bench,
    ]
}

#[test]
fn commands_round_trip() {
    for c in commands() {
        let text = c.to_string();
        assert_eq!(parse_command(&text), Ok(c.clone()), "{text}");
        // Odd white space: tabs, repeated spaces, leading and trailing blanks, CR.
        let odd = format!(" \t{}  \r", text.replace(' ', " \t  "));
        assert_eq!(parse_command(&odd), Ok(c), "{odd:?}");
    }
}

#[test]
fn command_errors_are_typed() {
    let cases: &[(&str, &str)] = &[
        ("", "empty line"),
        ("   \t ", "empty line"),
        ("xyzzy", "unknown command 'xyzzy'"),
        ("UCI", "unknown command 'UCI'"),
        ("isready now", "isready: unexpected 'now'"),
        ("go movetime", "go: bad value '' for movetime"),
        ("go movetime -5", "go: bad value '-5' for movetime"),
        ("go nodes 1e6", "go: bad value '1e6' for nodes"),
        ("go depth 99999999999", "go: bad value '99999999999' for depth"),
        ("go sideways", "go: unexpected 'sideways'"),
        ("go searchmoves", "go: missing an action after 'searchmoves'"),
        ("go searchmoves nodes 5", "go: missing an action after 'searchmoves'"),
        ("go searchmoves a4-a5 zz", "go: bad value 'zz' for searchmoves"),
        ("go setup g", "go: bad value 'g' for setup colour"),
        ("go setup r b", "go: unexpected 'b'"),
        ("position", "position: missing 'startpos' or 'fen'"),
        ("position moves c3", "position: missing 'startpos' or 'fen'"),
        ("position start", "position: unexpected 'start'"),
        ("position fen", "position: missing position string"),
        ("position fen 5/5 r 0 0 -", "position fen: bad board: 2 ranks"),
        ("position startpos extra", "position: unexpected 'extra'"),
        ("position startpos moves c3=r9 zz", "position: move 2 'zz'"),
        ("position startpos moves a6xa7+b?", "position: move 1 'a6xa7+b?'"),
        ("setoption", "setoption: missing 'name'"),
        ("setoption name", "setoption: missing option name"),
        ("setoption value 3", "setoption: unexpected 'value'"),
        ("perft", "perft: bad value '' for depth"),
        ("perft x", "perft: bad value 'x' for depth"),
        ("perft 2 3", "perft: unexpected '3'"),
    ];
    for (line, expected) in cases {
        let e = parse_command(line).unwrap_err();
        assert!(e.to_string().contains(expected), "{line:?}: {e}");
    }
    assert_eq!(parse_command(""), Err(ParseError::Empty));
}

fn responses() -> Vec<Response> {
    let mut r = rng(4);
    let mut v = vec![
        Response::IdName("luzhanqi 0.1.0".into()),
        Response::IdAuthor("the luzhanqi developers".into()),
        Response::UliOk,
        Response::ReadyOk,
        Response::BestMove { action: Some(parse_action("a6xa7").unwrap()), ponder: None },
        Response::BestMove { action: Some(parse_action("c3").unwrap()), ponder: Some(parse_action("a4-a5").unwrap()) },
        Response::BestMove { action: None, ponder: None },
        Response::BestSetup(Deployment::random(Colour::Red, &mut r)),
        Response::BestSetup(Deployment::random(Colour::Blue, &mut r)),
        Response::Info(Info {
            depth: Some(5),
            seldepth: Some(12),
            multipv: None,
            nodes: Some(123_456),
            nps: Some(98_000),
            time: Some(1260),
            score: Some(Score { cp: -37, wdl: Some((402, 51, 547)) }),
            hashfull: Some(12),
            pv: ["c3", "a4-a5", "a6xa7"].iter().map(|a| parse_action(a).unwrap()).collect(),
        }),
        Response::Info(Info { nodes: Some(5), ..Info::default() }),
        Response::Info(Info {
            depth: Some(2),
            multipv: Some(3),
            score: Some(Score { cp: 12, wdl: Some((517, 0, 483)) }),
            pv: ["c3", "a4-a5"].iter().map(|a| parse_action(a).unwrap()).collect(),
            ..Info::default()
        }),
        Response::RootStat(RootStatLine {
            action: parse_action("a6xa7").unwrap(),
            visits: 1234,
            score: Score { cp: -10_000, wdl: Some((0, 0, 1000)) },
            prior: 0.0871,
        }),
        Response::Belief(Belief {
            at: parse_point("c7").unwrap(),
            kinds: vec![(Kind::Marshal, 0.125), (Kind::Bomb, 0.5), (Kind::Engineer, 0.375)],
        }),
        Response::InfoString("error: unknown command 'x'".into()),
        Response::InfoString("two  spaces kept".into()),
        Response::PerftLine(parse_action("a2-a11").unwrap(), 1234),
        Response::PerftTotal(987_654_321),
        Response::BenchTotal { nodes: 160_000, nps: 55_000 },
        Response::Text("     a   b   c   d   e".into()),
    ];
    v.extend(Options::specs().into_iter().map(Response::Option));
    v
}

#[test]
fn responses_round_trip() {
    for resp in responses() {
        let text = resp.to_string();
        let back = parse_response(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back, resp, "{text}");
    }
}

#[test]
fn response_errors_are_typed() {
    for bad in [
        "bestmove",
        "bestmove zz",
        "bestmove c3 ponder",
        "bestmove c3 extra",
        "bestsetup r1",
        "info depth x",
        "info score 5",
        "info pv c3 q9",
        "info belief z9 9:0.5",
        "info belief c7 9:1.5",
        "info rootstat c3 visits 5 score cp 1 wdl 500 0 500",
        "info rootstat c3 visits 5 score cp 1 wdl 500 0 500 prior 1.5",
        "info rootstat q9 visits 5 score cp 1 wdl 500 0 500 prior 0.5",
        "info multipv x",
        "option name X",
        "option name X type spin default 1 min 0",
        "option name X type check default maybe",
        "uliok now",
    ] {
        assert!(parse_response(bad).is_err(), "{bad:?}");
    }
    // The colour of a deployment comes from its first piece, wherever it is.
    let e = parse_response("bestsetup 1bFbMbMb9/bBb1bMb6bB/b31b41b8/b2b21b2b1/b51b31b7/b9b4b1b3b6").unwrap_err();
    assert!(e.to_string().contains("a12"), "{e}");
}

#[test]
fn position_commands_from_random_games_round_trip() {
    let mut buf = Vec::new();
    for (i, rules) in [Rules::FLIP, Rules::OPEN, Rules::CLASSIC].into_iter().enumerate() {
        let mut r = rng(i as u64);
        let mut pos = random_start(rules, &mut r);
        let start = pos.to_setup();
        let mut moves = Vec::new();
        while let Some(a) = random_step(&mut pos, &mut r, &mut buf) {
            // Record the action as a history token with what it showed.
            let token = match a.kind() {
                luzhanqi::ActionKind::Flip => {
                    Token::Show { at: a.from(), piece: pos.cell(a.from()).piece().expect("flipped") }
                }
                _ => Token::Action(a),
            };
            moves.push(token);
            if moves.len() > 200 {
                break;
            }
        }
        let c = Command::Position { start: PositionStart::Fen(start), moves };
        assert_eq!(parse_command(&c.to_string()), Ok(c));
    }
}

/// Random and mutated lines never panic the parsers.
#[test]
fn garbage_lines_never_panic() {
    let seeds: Vec<String> =
        commands().iter().map(ToString::to_string).chain(responses().iter().map(ToString::to_string)).collect();
    let alphabet: Vec<char> = "abcdefgr?bBMF0123456789/ -+=x\tposnmvtiuqle\u{e9}\u{4e2d}\u{0}".chars().collect();
    let mut r = rng(5);
    for i in 0..100_000 {
        let line = common::garbage_line(&mut r, i, &seeds, &alphabet);
        let _ = parse_command(&line);
        let _ = parse_response(&line);
    }
}

/// A four-player position string: South's view of a deployed board.
const SIGUO_FEN: &str = "n?n?n?n?n?/n?n?n?n?n?/n?1n?1n?/n?n?1n?n?/n?1n?1n?/n?n?n?n?n?/w?w?w?w?w?w?3e?e?e?e?e?e?/w?w?1w?1w?e?1e?1e?e?/w?w?w?1w?w?3e?e?1e?e?e?/w?w?1w?1w?e?1e?1e?e?/w?w?w?w?w?w?3e?e?e?e?e?e?/s2s2s2s1s3/s91s71s4/s1s31sBs4/s31s51sB/s7sMs8s6s6/sMsFsMs5s1 s 0 0 - -";

#[test]
fn four_player_commands_and_responses_round_trip() {
    use luzhanqi::protocol::{SiguoStart, parse_siguo_command};
    use luzhanqi::siguo::notation::{ArmDeployment, parse_siguo_action, parse_siguo_setup};
    use luzhanqi::siguo::{Seat, SiguoToken};
    let tokens: Vec<SiguoToken> = ["Sa6xWe6-", "Eb4-Eb3", "Na6xEe6+", "Sa5xSa6+e3", "We5xSa6=", "Wd1=wF", "N#flag"]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    let setup = parse_siguo_setup(SIGUO_FEN).unwrap();
    let commands = [
        Command::SiguoPosition { start: SiguoStart::StartPos, moves: vec![] },
        Command::SiguoPosition { start: SiguoStart::Fen(setup.clone()), moves: vec![] },
        Command::SiguoPosition { start: SiguoStart::Fen(setup), moves: tokens },
        Command::SiguoGoSetup(None),
        Command::SiguoGoSetup(Some(Seat::West)),
        Command::Go(Go { nodes: Some(100), ..Go::default() }),
        Command::SiguoGo {
            go: Go { movetime: Some(50), ..Go::default() },
            searchmoves: ["Sa6xWe6", "Cb1-Ca1"].map(|a| parse_siguo_action(a).unwrap()).to_vec(),
        },
        Command::Display,
        Command::Perft(2),
    ];
    for c in commands {
        let text = c.to_string();
        assert_eq!(parse_siguo_command(&text), Ok(c.clone()), "{text}");
        let odd = format!(" \t{}  \r", text.replace(' ', " \t  "));
        assert_eq!(parse_siguo_command(&odd), Ok(c), "{odd:?}");
    }
    let mut r = rng(4);
    let responses = [
        Response::SiguoBestMove(parse_siguo_action("Sa6xCa1").unwrap()),
        Response::SiguoBestMove(parse_siguo_action("We6-Sa6").unwrap()),
        Response::SiguoPerftLine(parse_siguo_action("Cb1xEa6").unwrap(), 32),
        Response::SiguoBestSetup(ArmDeployment::new(Seat::North, Deployment::random(Colour::Red, &mut r))),
        Response::SiguoBestSetup(ArmDeployment::new(Seat::East, Deployment::random(Colour::Red, &mut r))),
        Response::SiguoInfo(luzhanqi::protocol::Info {
            depth: Some(3),
            seldepth: Some(5),
            multipv: Some(2),
            nodes: Some(1000),
            nps: Some(50_000),
            time: Some(20),
            score: Some(luzhanqi::protocol::Score { cp: -35, wdl: Some((470, 0, 530)) }),
            hashfull: Some(12),
            pv: ["Sa6xWe6", "Ea6-Eb5", "Na6-Nb5"].map(|a| parse_siguo_action(a).unwrap()).to_vec(),
        }),
        Response::SiguoRootStat(luzhanqi::protocol::RootStatLine {
            action: parse_siguo_action("Sd6-Sa4").unwrap(),
            visits: 77,
            score: luzhanqi::protocol::Score { cp: 120, wdl: Some((599, 0, 401)) },
            prior: 0.0625,
        }),
    ];
    // A line without a principal variation is read as a two-player one.
    assert!(matches!(parse_response("info depth 1 nodes 5"), Ok(Response::Info(_))));
    assert!(parse_response("info depth 1 pv Sa6xWe6 a6-a7").is_err(), "notations do not mix");
    for resp in responses {
        let text = resp.to_string();
        assert_eq!(parse_response(&text), Ok(resp), "{text}");
    }
}

#[test]
fn four_player_command_errors_are_typed() {
    use luzhanqi::protocol::parse_siguo_command;
    let fen = |from: &str, to: &str| format!("position fen {}", SIGUO_FEN.replacen(from, to, 1));
    let cases: Vec<(String, &str)> = vec![
        ("go setup r".into(), "go: bad value 'r' for setup seat (s, e, n or w)"),
        ("go setup S".into(), "go: bad value 'S' for setup seat"),
        ("go setup s e".into(), "go: unexpected 'e'"),
        ("go searchmoves".into(), "go: missing an action after 'searchmoves'"),
        ("go nodes 5 searchmoves a6-a7".into(), "go: bad value 'a6-a7' for searchmoves"),
        ("go searchmoves Sa6-Sb5 nodes x".into(), "go: bad value 'x' for nodes"),
        ("position fen".into(), "position: missing position string"),
        ("position startpos moves a6-a7".into(), "position: move 1 'a6-a7': 'a': a point starts with S, E, N, W or C"),
        ("position startpos moves Sa6xCa1".into(), "position: move 1: 'Sa6xCa1': a token is"),
        ("position startpos moves Sa6xCa1+b3".into(), "a piece is a seat letter and a kind"),
        ("position startpos moves Sf6-Sa5".into(), "'f': files run a..e"),
        ("position startpos moves Cd1-Cb1".into(), "'d': files run a..e in an arm, a..c in the centre"),
        ("position startpos moves Ca4-Cb1".into(), "'4': ranks run"),
        ("position startpos moves X#flag".into(), "a token is"),
        (fen(" s 0 0", " r 0 0"), "position fen: 'r': the seat to move is s, e, n or w"),
        (fen(" 0 0 -", " 0 x -"), "position fen: 'x': the ply count is a number"),
        (fen("- -", "- - -"), "position fen: unexpected '-' after the seats out"),
        (fen("- -", "b? -"), "position fen: 'b?': removed pieces"),
        (fen("- -", "- sx"), "position fen: 'sx': the seats out"),
        (fen("n?n?n?n?n?/", "n?n?n?n?n?n?/"), "position fen: bad row 1: 6 points, expected 5"),
        (fen("n?n?n?n?n?/", "r?n?n?n?n?/"), "position fen: bad row 1: 'r'"),
        (fen("n?n?n?n?n?/", "nXn?n?n?n?/"), "position fen: bad row 1: 'nX'"),
        (fen("n?n?n?n?n?/", "0n?n?n?n?n?/"), "position fen: bad row 1: '0'"),
        (fen("n?n?n?n?n?/", ""), "position fen: the board has 16 rows"),
    ];
    for (line, expected) in cases {
        let e = parse_siguo_command(&line).unwrap_err();
        assert!(e.to_string().contains(expected), "{line:?}: {e}");
    }
    // Several searchmoves add up, wherever they stand on the line.
    let Ok(Command::SiguoGo { go, searchmoves }) =
        parse_siguo_command("go searchmoves Sa6-Sb5 nodes 10 searchmoves Cb1-Ca1 We6-We5")
    else {
        panic!()
    };
    assert_eq!((go.nodes, searchmoves.len()), (Some(10), 3));
    // In the two-player variants the four-player forms stay errors, unchanged.
    assert_eq!(parse_command("go setup s").unwrap_err().to_string(), "go: bad value 's' for setup colour");
    for bad in ["bestmove Sa6xCa9", "bestmove Sa6-Ca1 ponder Sa6", "Sa6-Ca1: x", "bestsetup s5s3"] {
        assert!(parse_response(bad).is_err(), "{bad:?}");
    }
}

//! The `luzhanqi` binary: with no subcommand it speaks ULI on stdin/stdout;
//! `perft` and `bench` are command-line tools over the same library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use luzhanqi::bench;
use luzhanqi::engine::Engine;
use luzhanqi::engine::output::Output;
use luzhanqi::notation::{parse_position, parse_token};
use luzhanqi::perft::divide;
use luzhanqi::protocol::Response;
use luzhanqi::random::seeded_position;
use luzhanqi::{Position, Variant};

#[derive(Parser)]
#[command(
    name = "luzhanqi",
    version,
    about = "A Luzhanqi (army chess) engine speaking ULI on stdin/stdout",
    after_help = "Without a command the engine reads the ULI protocol on stdin and answers on stdout: \
type `uli` first, `quit` or end of input (Ctrl-D) to leave. Every command and option is in protocol.md \
(in the source repository). Logs go to stderr, never to stdout (RUST_LOG=info, debug or trace); setoption name \
DebugLogFile value FILE writes the protocol exchange to FILE."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf action sequences to a depth, split by first action.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Rule set: flip, classic, open, ccgc or cs4500.
        #[arg(long, default_value = "flip")]
        variant: Variant,
        /// Position string (default: the start of flip; the other variants
        /// start on an empty board and need one).
        #[arg(long)]
        fen: Option<String>,
        /// History tokens to play first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
    },
    /// Speak the CCGC 军棋 platform protocol (INFO/START/GO/RESULT/END) on
    /// stdin/stdout instead of ULI: enter the engine in a CCGC platform.
    Ccgc {
        /// The NAME sent to the platform (default: the engine's id name).
        #[arg(long)]
        name: Option<String>,
        /// End lines with CRLF (the platform accepts LF).
        #[arg(long)]
        crlf: bool,
        /// Copy both directions (and the engine's ULI) to this file.
        #[arg(long)]
        log: Option<std::path::PathBuf>,
        /// An engine option, as NAME=VALUE (Threads=2, Player=greedy…); repeatable.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Do not add our own flag's reveal when our Marshal falls.
        #[arg(long)]
        no_own_reveal: bool,
    },
    /// Speak the NEU CS4500 referee protocol on stdin/stdout: run as
    /// `play4500 --go 1|2 --time/move T` (T as 2s, 2.0s, 2000ms).
    Cs4500 {
        /// --go N --time/move T [--log FILE] [--option NAME=VALUE]... [--margin MS] [--no-own-reveal]
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Benchmarks: the search (as the protocol's `bench`), move generation
    /// (perft with bulk counting, copy-make) or random playouts.
    Bench {
        /// What to measure: search, classic (the information-set search's
        /// signature), siguo (the four-player search's signature), speed
        /// (iterations per second, 1 thread and 2 with root and with tree
        /// parallelism; four-player rows last), worlds (classic world
        /// sampling), latency (isready and stop during a search), movegen,
        /// playout, rules (movegen and playout), or siguo-rules (four-player
        /// perft and random playouts).
        #[arg(default_value = "search")]
        what: String,
    },
}

fn perft_command(depth: u32, variant: Variant, fen: Option<String>, moves: &[String]) -> Result<(), String> {
    let rules = variant.rules();
    let mut pos = match fen {
        Some(f) => parse_position(&f, rules).map_err(|e| e.to_string())?,
        None if rules.has_deployment() => {
            return Err(format!(
                "{variant} starts on an empty board (each side deploys first): give the position with --fen"
            ));
        }
        None => Position::startpos(rules),
    };
    for m in moves {
        let t = parse_token(m).map_err(|e| e.to_string())?;
        pos.apply_token(t).map_err(|e| format!("{m}: {e}"))?;
    }
    let start = std::time::Instant::now();
    let lines = divide(&pos, depth).map_err(|e| e.to_string())?;
    let mut total = 0;
    for (a, n) in &lines {
        luzhanqi::outln!("{a}: {n}");
        total += n;
    }
    if depth == 0 {
        total = 1;
    }
    luzhanqi::outln!();
    luzhanqi::outln!("nodes {total}");
    eprintln!("time {:.3} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn bench_command(what: &str) -> Result<(), String> {
    if what == "speed" {
        let positions = [
            ("flip opening", Position::flip_start(luzhanqi::Rules::FLIP)),
            ("flip ply 60", seeded_position(luzhanqi::Rules::FLIP, 7, 60)),
            ("open ply 40", seeded_position(luzhanqi::Rules::OPEN, 7, 40)),
        ]
        .map(|(name, pos)| (name, luzhanqi::position::View::told(pos)));
        use luzhanqi::search::bench::speed;
        use luzhanqi::search::params::Parallel;
        for (name, pos) in positions {
            let one = speed(&pos, 1, Parallel::Root, 1_000_000);
            log::info!("{name}: 1 thread {one}/s");
            let root = speed(&pos, 2, Parallel::Root, 2_000_000);
            let tree = speed(&pos, 2, Parallel::Tree, 2_000_000);
            let ratio = |n: u64| n as f64 / one.max(1) as f64;
            luzhanqi::outln!(
                "{name:<14} 1 thread {one:>8} iterations/s, 2 threads: root {root:>8} (ratio {:.2}), tree {tree:>8} (ratio {:.2})",
                ratio(root),
                ratio(tree)
            );
        }
        for plies in [0, 80] {
            let one = luzhanqi::search::bench::siguo_speed(plies, 1, 300_000);
            let two = luzhanqi::search::bench::siguo_speed(plies, 2, 600_000);
            let name = format!("siguo ply {plies}");
            luzhanqi::outln!(
                "{name:<14} 1 thread {one:>8} iterations/s, 2 threads: root {two:>8} (ratio {:.2})",
                two as f64 / one.max(1) as f64
            );
        }
        return Ok(());
    }
    if what == "worlds" {
        let (rate, alive) = luzhanqi::search::bench::worlds(200, 200_000);
        luzhanqi::outln!("classic view after 200 plies ({alive} hidden enemy pieces on the board): {rate} worlds/s");
        return Ok(());
    }
    if what == "latency" {
        let (ready, stop) = luzhanqi::engine::latency_bench(50, 200);
        let ms = |d: &std::time::Duration| d.as_secs_f64() * 1000.0;
        luzhanqi::outln!(
            "isready during a search: median {:.3} ms, max {:.3} ms; stop to bestmove: median {:.3} ms, max {:.3} ms ({} rounds)",
            ms(&ready[ready.len() / 2]),
            ms(&ready[ready.len() - 1]),
            ms(&stop[stop.len() / 2]),
            ms(&stop[stop.len() - 1]),
            ready.len()
        );
        return Ok(());
    }
    if what == "search" || what == "classic" || what == "siguo" {
        use luzhanqi::search::{Control, bench};
        let out = Output::stdout();
        let run = match what {
            "search" => bench::run,
            "classic" => bench::classic,
            _ => bench::siguo,
        };
        let (nodes, nps) = run(&mut |line| out.send(&Response::InfoString(line)), &Control::default());
        out.send(&Response::BenchTotal { nodes, nps });
        return Ok(());
    }
    let mut lines = Vec::new();
    if matches!(what, "movegen" | "rules") {
        lines.extend(bench::movegen_bench());
        lines.push(bench::apply_bench(20_000));
    }
    if matches!(what, "playout" | "rules") {
        lines.push(bench::playout_bench(luzhanqi::Rules::FLIP, 20_000));
        lines.push(bench::playout_bench(luzhanqi::Rules::OPEN, 5_000));
    }
    if matches!(what, "siguo-rules") {
        lines.extend(bench::siguo_movegen_bench());
        lines.push(bench::siguo_playout_bench(1_000));
    }
    if lines.is_empty() {
        return Err(format!(
            "unknown benchmark '{what}' (search, classic, siguo, speed, worlds, latency, movegen, playout, rules or siguo-rules)"
        ));
    }
    for l in &lines {
        luzhanqi::outln!("{:<28} {:>14} in {:>8.3} s  {:>12.0} /s", l.name, l.count, l.time.as_secs_f64(), l.rate());
    }
    Ok(())
}

fn option_pairs(options: &[String]) -> Result<Vec<(String, String)>, String> {
    options
        .iter()
        .map(|o| {
            o.split_once('=').map(|(n, v)| (n.to_owned(), v.to_owned())).ok_or(format!("--option {o}: not NAME=VALUE"))
        })
        .collect()
}

fn ccgc_command(
    name: Option<String>,
    crlf: bool,
    log: Option<std::path::PathBuf>,
    options: &[String],
    no_own_reveal: bool,
) -> Result<(), String> {
    use luzhanqi::adapter::{InProcess, Log, ccgc};
    let log = Log::open(log.as_deref()).map_err(|e| format!("--log: {e}"))?;
    let settings = ccgc::Settings { name, options: option_pairs(options)?, no_own_reveal };
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    ccgc::run(InProcess::new(), settings, &mut stdin.lock(), &mut stdout.lock(), crlf, &log);
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft { depth, variant, fen, moves }) => perft_command(depth, variant, fen, &moves),
        Some(Command::Bench { what }) => bench_command(&what),
        Some(Command::Ccgc { name, crlf, log, options, no_own_reveal }) => {
            ccgc_command(name, crlf, log, &options, no_own_reveal)
        }
        Some(Command::Cs4500 { args }) => return luzhanqi::adapter::cs4500::main(&args),
        None => {
            let mut engine = Engine::new(Output::stdout());
            engine.run(std::io::stdin().lock());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

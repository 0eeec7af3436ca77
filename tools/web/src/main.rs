//! The `web` binary: serves the board on a loopback address (or the one
//! given) and prints it; `web engine` is the luzhanqi engine itself, which
//! the server starts for each page unless `--engine` names another.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use web::engine::EngineCommand;
use web::session::Config;

#[derive(Parser)]
#[command(
    name = "web",
    version,
    about = "A web board for ULI Luzhanqi engines: play against the engine, analyse, watch it think",
    after_help = "Open the printed address in a browser. Each page gets two processes of the engine: \
one plays (or analyses) and sees only its own side, the other lists your legal actions and judges \
your deployments from what you see."
)]
struct Cli {
    /// The address to listen on; a port of 0 takes a free one. Anything
    /// but a loopback address exposes the board (and engine processes) to
    /// the network.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// A ULI engine program to use instead of the luzhanqi engine built in.
    #[arg(long)]
    engine: Option<PathBuf>,
    /// An argument for --engine (repeatable).
    #[arg(long = "engine-arg", allow_hyphen_values = true)]
    engine_args: Vec<String>,
    /// Fix the seed of deals and engines (each game adds its number to it).
    #[arg(long)]
    seed: Option<u64>,
    #[command(subcommand)]
    command: Option<Sub>,
}

#[derive(Subcommand)]
enum Sub {
    /// Speak ULI on stdin/stdout: the luzhanqi engine (as `luzhanqi` with no command).
    Engine,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    if let Some(Sub::Engine) = cli.command {
        let mut engine = luzhanqi::engine::Engine::new(luzhanqi::engine::output::Output::stdout());
        engine.run(std::io::stdin().lock());
        return ExitCode::SUCCESS;
    }
    let engine = match cli.engine {
        Some(program) => EngineCommand { program, args: cli.engine_args },
        None => match std::env::current_exe() {
            Ok(program) => EngineCommand { program, args: vec!["engine".to_owned()] },
            Err(e) => {
                eprintln!("error: cannot find this program to start its engine: {e}; give --engine");
                return ExitCode::FAILURE;
            }
        },
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let config = Config { engine, seed: cli.seed };
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(cli.listen).await?;
        let addr = listener.local_addr()?;
        println!("web board: http://{addr}/");
        if !addr.ip().is_loopback() {
            println!("listening beyond this machine: anyone who reaches {addr} can start engines here");
        }
        web::server::serve(listener, config).await
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: --listen {}: {e}", cli.listen);
            ExitCode::FAILURE
        }
    }
}

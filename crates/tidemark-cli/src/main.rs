//! `tidemark`: compact, count, replay and inspect agent conversations from a shell, with an SQLite file as the memory.
//!
//! Exit status: 0 on success, 2 for input the command cannot accept (bad
//! arguments, malformed transcripts, invalid conversation ids), 3 when
//! `compact` cannot bring the transcript within its budget (nothing is
//! written unless `--best-effort` is given), 1 for any other failure (a
//! store that cannot be opened, a model that fails).

mod args;
mod cmd;
mod error;
mod format;
mod input;
mod output;
mod report;
mod setup;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};
use crate::error::CliError;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => return fail(&CliError::runtime("starting the async runtime", error)),
    };
    let outcome = runtime.block_on(async {
        match cli.command {
            Command::Compact(args) => cmd::compact::run(args).await,
            Command::Append(args) => cmd::store::append(args).await,
            Command::Load(args) => cmd::store::load(args).await,
            Command::Clear(args) => cmd::store::clear(args).await,
            Command::Undo(args) => cmd::history::undo(args).await,
            Command::Fork(args) => cmd::history::fork(args).await,
            Command::Inspect(args) => cmd::store::inspect(args).await,
            Command::Count(args) => cmd::count::run(args),
            Command::Convert(args) => cmd::convert::run(args),
            Command::Replay(args) => cmd::replay::run(args).await,
            Command::Search(args) => cmd::search::run(args).await,
            Command::Facts(command) => cmd::facts::run(command).await,
            #[cfg(feature = "mcp")]
            Command::Mcp(args) => cmd::mcp::run(args).await,
        }
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&error),
    }
}

fn fail(error: &CliError) -> ExitCode {
    eprintln!("tidemark: {}", tidemark_core::error::chain_text(error));
    ExitCode::from(error.exit_code())
}

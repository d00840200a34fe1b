//! `cargo xtask bench`: builds the benchmark workspace in `bench/compare/` and runs all of it.
//!
//! The benchmarks live in a workspace of their own so that the peers they are
//! compared with (rig-memory) never enter tidemark's dependency graph. The
//! `tidemark` CLI is built in the same profile, for the start-up part to run
//! as whole processes. This module also sets up OpenAI's Python tiktoken for
//! the counting comparison; when that cannot be done, the run goes on and the
//! report says why that part was skipped.

use std::path::Path;
use std::process::Command;

use crate::pyenv;
use crate::util::{self, cargo, describe_status, run_inherited, workspace_root};

/// How a run of the benchmarks is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The full run, in release mode, written to `bench/` in the target directory.
    Full,
    /// Small inputs in a debug build, written to `bench-smoke/` in the target directory: CI's check that every part runs.
    Smoke,
}

/// The path of the benchmark workspace's manifest.
fn manifest(root: &Path) -> String {
    root.join("bench").join("compare").join("Cargo.toml").display().to_string()
}

/// Runs the benchmarks and writes the report and the chart.
pub(crate) fn run(mode: Mode) -> Result<(), String> {
    let root = workspace_root();
    let manifest = manifest(&root);
    let main_target = util::main_target_dir()?;
    let out = main_target.join(if mode == Mode::Full { "bench" } else { "bench-smoke" });
    let mut build = cargo(&["build", "--manifest-path", &manifest, "--locked"]);
    // The start-up part runs the CLI as whole processes, built in the same profile as the benchmarks.
    let mut build_cli = cargo(&["build", "--package", "tidemark-cli", "--locked"]);
    if mode == Mode::Full {
        build.arg("--release");
        build_cli.arg("--release");
    }
    check(&mut build, "building the benchmarks")?;
    check(&mut build_cli, "building the CLI")?;

    let profile = if mode == Mode::Full { "release" } else { "debug" };
    let binary = util::target_dir(Path::new(&manifest))?.join(profile).join("tidemark-compare");
    let cli = main_target.join(profile).join("tidemark");
    let mut command = Command::new(binary);
    command.current_dir(&root).arg("all").arg("--out").arg(&out).arg("--cli").arg(cli);
    if mode == Mode::Smoke {
        command.arg("--smoke");
    }
    // LoCoMo's licence keeps it out of the repository: the part runs on a copy the user names.
    match std::env::var_os("TIDEMARK_LOCOMO") {
        Some(data) => {
            command.arg("--data").arg(data);
        }
        None => println!("    LoCoMo evidence recall NOT RUN: set TIDEMARK_LOCOMO to the path of its JSON"),
    }
    // The PostgreSQL replay needs a server; it lives until the benchmarks finish.
    let server = match crate::postgres::start() {
        Ok(server) => {
            println!("    PostgreSQL {} on {} for the PostgreSQL replay", server.version(), server.url());
            command.env("TIDEMARK_POSTGRES_URL", server.url());
            Some(server)
        }
        Err(reason) => {
            println!("    PostgreSQL replay NOT RUN: {reason}");
            command.env_remove("TIDEMARK_POSTGRES_URL");
            None
        }
    };
    match pyenv::tiktoken_python(&root) {
        Ok((python, cache)) => {
            command.arg("--python").arg(python).arg("--tiktoken-cache").arg(cache);
        }
        Err(reason) => {
            println!("    Python tiktoken is not available, so that comparison is skipped: {reason}");
            command.arg("--no-python").arg(reason);
        }
    }
    let outcome = check(&mut command, "running the benchmarks");
    drop(server);
    outcome
}

/// Lints the benchmark workspace the way CI lints the main one: formatting, then clippy with warnings denied.
pub(crate) fn lint() -> Result<(), String> {
    let manifest = manifest(&workspace_root());
    check(&mut cargo(&["fmt", "--manifest-path", &manifest, "--check"]), "cargo fmt on bench/compare")?;
    check(
        &mut cargo(&["clippy", "--manifest-path", &manifest, "--locked", "--", "-D", "warnings"]),
        "cargo clippy on bench/compare",
    )
}

fn check(command: &mut Command, what: &str) -> Result<(), String> {
    let status = run_inherited(command)?;
    if status.success() { Ok(()) } else { Err(format!("{what} failed ({})", describe_status(status))) }
}

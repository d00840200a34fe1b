//! `cargo xtask`: the workspace's automation entry point, which reads the subcommand and dispatches to it.
//!
//! The tasks are plain Rust so that CI and a developer's machine run exactly
//! the same checks, with nothing but cargo installed.

mod bench;
mod ci;
mod postgres;
mod pyenv;
mod rig;
#[cfg(test)]
mod tidy;
mod util;

use std::process::ExitCode;

/// Text shown for `cargo xtask help` and for any command that is not known.
const USAGE: &str = "\
Usage: cargo xtask <command>

Commands:
  ci      run every CI check in order: fmt, clippy, tests and doctests (also without default features),
          docs, cargo package, cargo-deny, crates/tidemark-rig (a workspace of its own), a benchmark smoke run
  bench   run the benchmarks (bench/compare, release build): replay beside rig-memory 0.44, token counting
          beside tiktoken, compaction overhead, concurrency, recall, the security scan, the start-up of the
          scan and of the CLI, and LoCoMo evidence recall when TIDEMARK_LOCOMO names its JSON; writes report.md
          and replay.svg to bench/ in the target directory (`target/`, or wherever CARGO_TARGET_DIR points)
  bench --smoke
          the same on small inputs in a debug build (what CI runs), written to bench-smoke/ in the target directory
  rig     the ci step for crates/tidemark-rig alone: fmt, clippy, tests, doc and cargo-deny in its workspace
  tidy    run only the tidy tests (cargo test -p xtask tidy)
  check-report
          replay a sample transcript, render its HTML report in headless Chromium and save a screenshot
          (replay-report.png in the target directory); needs Debian's chromium package
  train-scan
          retrain the security scan's injection classifier on its training corpus and write
          crates/tidemark-scan/src/classifier.bin (commit it with the corpus change)
  scan-gates
          derive the security scan's gate tables again and write crates/tidemark-scan/src/derived.bin
          (commit it with any change to the scan's patterns; a unit test fails until then)
  gen-transcripts
          regenerate the sample transcripts in examples/transcripts/ (byte for byte from fixed seeds)
  postgres
          start a throwaway PostgreSQL server (as CI does for the PostgreSQL tests), print its URL and
          stop it again when Enter is pressed
  help    show this text
";

/// Exit code for a command line that could not be understood, following the
/// common convention that 2 means a usage error rather than a failed check.
const USAGE_EXIT: u8 = 2;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();

    let outcome = match args.as_slice() {
        ["ci"] => ci::run(),
        ["tidy"] => tidy(),
        ["rig"] => rig::check().map_err(|e| format!("xtask rig: {e}")),
        ["bench"] => bench::run(bench::Mode::Full).map_err(|e| format!("xtask bench: {e}")),
        ["bench", "--smoke"] => bench::run(bench::Mode::Smoke).map_err(|e| format!("xtask bench: {e}")),
        ["gen-transcripts"] => gen_transcripts(),
        ["train-scan"] => train_scan(),
        ["scan-gates"] => scan_gates(),
        ["check-report"] => check_report(),
        ["postgres"] => postgres_server(),
        ["help" | "--help" | "-h"] => {
            print!("{USAGE}");
            return ExitCode::from(USAGE_EXIT);
        }
        [] => {
            eprint!("xtask: no command given\n\n{USAGE}");
            return ExitCode::from(USAGE_EXIT);
        }
        other => {
            eprint!("xtask: unknown command `{}`\n\n{USAGE}", other.join(" "));
            return ExitCode::from(USAGE_EXIT);
        }
    };

    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the tidy tests on their own, for a quick check before pushing.
///
/// They are ordinary unit tests of this crate, so the test filter is all it takes.
fn tidy() -> Result<(), String> {
    let mut command = util::cargo(&["test", "--package", "xtask", "tidy"]);
    let status = util::run_inherited(&mut command)?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("xtask tidy: tests failed ({})", util::describe_status(status)))
    }
}

/// Regenerates the shipped sample transcripts with the CLI crate's generator example.
///
/// The generator lives with the CLI because it writes OpenAI's wire format,
/// and xtask stays free of the library crates so that it builds in seconds.
fn gen_transcripts() -> Result<(), String> {
    let target = util::workspace_root().join("examples").join("transcripts");
    let mut command =
        util::cargo(&["run", "--quiet", "-p", "tidemark-cli", "--example", "gen_transcripts", "--"]);
    command.arg(&target);
    let status = util::run_inherited(&mut command)?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("xtask gen-transcripts: the generator failed ({})", util::describe_status(status)))
    }
}

/// Derives the scan's gate tables and writes them over the shipped ones.
///
/// The derivation lives in the unit test that checks the shipped file (`tests_shipped.rs` of
/// tidemark-scan), so the tables CI verifies and the tables written here come from one function.
fn scan_gates() -> Result<(), String> {
    let mut command = util::cargo(&[
        "test",
        "--release",
        "-p",
        "tidemark-scan",
        "--lib",
        "tests_shipped::shipped_derivations_are_fresh",
    ]);
    command.env("TIDEMARK_BLESS_SCAN_GATES", "1");
    let status = util::run_inherited(&mut command)?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("xtask scan-gates: deriving the tables failed ({})", util::describe_status(status)))
    }
}

/// Retrains the scan's injection classifier and writes its bytes over the shipped model.
///
/// The training lives in the test that checks the shipped model (`tests/scan_model.rs` of
/// tidemark-scan), so the model CI verifies and the model written here come from one function.
fn train_scan() -> Result<(), String> {
    let mut command = util::cargo(&[
        "test",
        "--release",
        "-p",
        "tidemark-scan",
        "--features",
        "train",
        "--test",
        "scan_model",
        "--",
        "--nocapture",
    ]);
    command.env("TIDEMARK_BLESS_SCAN_MODEL", "1");
    let status = util::run_inherited(&mut command)?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("xtask train-scan: training failed ({})", util::describe_status(status)))
    }
}

/// Starts a throwaway PostgreSQL server for running the PostgreSQL tests by hand, and stops it on Enter.
///
/// Ctrl-C reaches the server too, which then shuts down, but its temporary directory stays behind.
fn postgres_server() -> Result<(), String> {
    let server = postgres::start().map_err(|e| format!("xtask postgres: {e}"))?;
    println!(
        "PostgreSQL {} is running on 127.0.0.1:{}; run the PostgreSQL tests with",
        server.version(),
        server.port()
    );
    println!();
    println!("    {}={} cargo nextest run -E 'binary(postgres)'", ci::POSTGRES_URL_VAR, server.url());
    println!();
    println!("Press Enter to stop it.");
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| format!("xtask postgres: could not read stdin: {e}"))?;
    drop(server);
    println!("stopped");
    Ok(())
}

/// Replays the coding-agent sample, then has headless Chromium render the HTML report to a PNG.
///
/// A report that renders shows as a screenshot of its chart; a broken one
/// leaves Chromium with nothing to draw, and the screenshot's size says so.
fn check_report() -> Result<(), String> {
    let root = util::workspace_root();
    let target = util::main_target_dir().map_err(|error| format!("xtask check-report: {error}"))?;
    let report = target.join("replay-report.html");
    let store = target.join("replay-report.db");
    let screenshot = target.join("replay-report.png");
    let mut replay = util::cargo(&["run", "--quiet", "--release", "-p", "tidemark-cli", "--", "replay"]);
    replay
        .arg(root.join("examples/transcripts/coding-agent.jsonl"))
        .arg("--report")
        .arg(&report)
        .arg("--store")
        .arg(&store);
    let status = util::run_inherited(&mut replay)?;
    if !status.success() {
        return Err(format!("xtask check-report: the replay failed ({})", util::describe_status(status)));
    }
    let browser = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            std::process::Command::new(name).arg("--version").output().is_ok_and(|out| out.status.success())
        })
        .ok_or("xtask check-report: no Chromium found; install it with `apt-get install chromium`")?;
    let mut shot = std::process::Command::new(browser);
    shot.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        // Tall enough for the whole report: the figures, both charts and the start of the compactions table.
        "--window-size=1000,1420",
    ])
    .arg(format!("--user-data-dir={}", target.join("chromium-profile").display()))
    .arg(format!("--screenshot={}", screenshot.display()))
    .arg(format!("file://{}", report.display()));
    // Chromium logs D-Bus complaints on machines without a session bus; they say nothing about the page.
    shot.stderr(std::process::Stdio::null());
    let status = util::run_inherited(&mut shot)?;
    let size = std::fs::metadata(&screenshot).map(|meta| meta.len()).unwrap_or(0);
    if !status.success() || size < 10_000 {
        return Err(format!(
            "xtask check-report: Chromium did not render the report ({size} bytes of screenshot)"
        ));
    }
    println!("xtask check-report: {} rendered to {} ({size} bytes)", report.display(), screenshot.display());
    Ok(())
}

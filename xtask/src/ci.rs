//! The `cargo xtask ci` pipeline: every check CI runs, in order, stopping at the first failure.

use std::process::Command;
use std::time::Instant;

use crate::util::{cargo, describe_status, run_inherited, seconds, succeeds_quietly};

/// One named stage of the pipeline.
struct Step {
    /// Short name used in the failure line, so a log search for it finds the cause.
    name: &'static str,
    /// Longer description shown in the header line.
    title: String,
    /// Runs the step; the error text says why it failed.
    run: Box<dyn Fn() -> Result<(), String>>,
}

/// Runs the whole pipeline from the workspace root.
///
/// On failure the error is the complete line to print, naming the step and
/// the way its command ended.
pub(crate) fn run() -> Result<(), String> {
    let steps = steps();
    let total = steps.len();
    let started = Instant::now();

    for (index, step) in steps.iter().enumerate() {
        println!();
        println!("==> [{}/{total}] {}", index + 1, step.title);
        let step_started = Instant::now();
        let outcome = (step.run)();
        let elapsed = seconds(step_started.elapsed());
        match outcome {
            Ok(()) => println!("    step '{}' passed in {elapsed}", step.name),
            Err(reason) => {
                println!("    step '{}' stopped after {elapsed}", step.name);
                return Err(format!("xtask ci: step '{}' failed ({reason})", step.name));
            }
        }
    }

    println!();
    println!("xtask ci: all {total} steps passed in {}", seconds(started.elapsed()));
    Ok(())
}

/// Lists the pipeline steps in the order they run.
///
/// Cheap checks come first so a formatting slip is reported in seconds rather
/// than after a full test build.
fn steps() -> Vec<Step> {
    // The probe happens up front so the header can say which test runner is used.
    let nextest = succeeds_quietly(&mut cargo(&["nextest", "--version"]));
    let runner = if nextest { "cargo nextest" } else { "cargo test" };

    vec![
        Step {
            name: "fmt",
            title: "formatting (cargo fmt --check)".to_owned(),
            run: Box::new(|| run_checked(&mut cargo(&["fmt", "--all", "--check"]))),
        },
        Step {
            name: "clippy",
            title: "lints (cargo clippy, warnings denied)".to_owned(),
            run: Box::new(|| {
                run_checked(&mut cargo(&[
                    "clippy",
                    "--workspace",
                    "--all-targets",
                    "--all-features",
                    "--",
                    "-D",
                    "warnings",
                ]))
            }),
        },
        Step {
            name: "tests",
            title: format!("tests ({runner}) and doctests"),
            run: Box::new(move || tests(nextest)),
        },
        Step {
            name: "doc",
            title: "documentation (cargo doc, warnings denied)".to_owned(),
            run: Box::new(|| {
                let mut command = cargo(&["doc", "--workspace", "--all-features", "--no-deps"]);
                command.env("RUSTDOCFLAGS", "-D warnings");
                run_checked(&mut command)
            }),
        },
        Step { name: "deny", title: "dependency policy (cargo deny)".to_owned(), run: Box::new(deny) },
        Step {
            name: "bench",
            title: "benchmarks: fmt and clippy on bench/compare, then a smoke run of every part".to_owned(),
            run: Box::new(|| {
                crate::bench::lint()?;
                crate::bench::run(crate::bench::Mode::Smoke)
            }),
        },
    ]
}

/// Runs the unit and integration tests, then the doctests.
///
/// nextest does not run doctests, so they always get their own `cargo test`
/// pass; with plain `cargo test` that costs a second, cheap invocation.
fn tests(nextest: bool) -> Result<(), String> {
    if nextest {
        let mut args = vec!["nextest", "run", "--workspace", "--all-features", "--no-fail-fast"];
        // The `ci` profile lives in .config/nextest.toml; local runs keep the
        // default profile so a developer's own settings still apply.
        if std::env::var_os("CI").is_some() {
            args.extend(["--profile", "ci"]);
        }
        run_checked(&mut cargo(&args))?;
    } else {
        println!("    cargo-nextest is not installed; using cargo test instead");
        run_checked(&mut cargo(&["test", "--workspace", "--all-features"]))?;
    }
    run_checked(&mut cargo(&["test", "--workspace", "--all-features", "--doc"]))
}

/// Checks the dependency graph against deny.toml, installing cargo-deny first if needed.
fn deny() -> Result<(), String> {
    if !succeeds_quietly(&mut cargo(&["deny", "--version"])) {
        println!("    cargo-deny is not installed; installing it with `cargo install --locked cargo-deny`");
        run_checked(&mut cargo(&["install", "--locked", "cargo-deny"]))?;
    }
    println!(
        "    skipping the `advisories` check: it needs to download the RustSec advisory database, and these machines have no network access for that"
    );
    run_checked(&mut cargo(&["deny", "check", "bans", "licenses", "sources"]))
}

/// Runs a command and turns a non-zero exit into an error describing it.
fn run_checked(command: &mut Command) -> Result<(), String> {
    let status = run_inherited(command)?;
    if status.success() { Ok(()) } else { Err(describe_status(status)) }
}

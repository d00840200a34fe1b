//! The `cargo xtask ci` pipeline: every check CI runs, in order, stopping at the first failure.

use std::process::Command;
use std::time::Instant;

use crate::util::{cargo, describe_status, run_inherited, seconds, succeeds_quietly};
use crate::{postgres, pyenv};

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
            title: "lints (cargo clippy, warnings denied; also without default features)".to_owned(),
            run: Box::new(|| {
                run_checked(&mut cargo(&[
                    "clippy",
                    "--workspace",
                    "--all-targets",
                    "--all-features",
                    "--",
                    "-D",
                    "warnings",
                ]))?;
                for package in NO_DEFAULT_FEATURES {
                    lint_without_default_features(package)?;
                }
                Ok(())
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
        Step {
            name: "package",
            title: "packages (cargo package --workspace, each crate built from its package)".to_owned(),
            run: Box::new(package),
        },
        Step { name: "deny", title: "dependency policy (cargo deny)".to_owned(), run: Box::new(deny) },
        Step {
            name: "rig",
            title: "crates/tidemark-rig, a workspace of its own: fmt, clippy, tests, doc, cargo deny"
                .to_owned(),
            run: Box::new(crate::rig::check),
        },
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

/// The crates whose default features can all be turned off: built, linted and tested that way too,
/// so that a feature that is off never leaves code that does not compile or a test that fails.
/// The clippy step and the tests step both go through this list, so a crate joins both with one line here.
const NO_DEFAULT_FEATURES: &[&str] = &["tidemark-memory", "tidemark"];

/// Lints every target of `package` with its default features off, warnings denied.
fn lint_without_default_features(package: &str) -> Result<(), String> {
    run_checked(&mut cargo(&[
        "clippy",
        "-p",
        package,
        "--no-default-features",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))
}

/// Runs the tests of `package` with its default features off (with nextest when it is installed), then its doctests.
///
/// No PostgreSQL URL is handed over: no crate in [`NO_DEFAULT_FEATURES`] has PostgreSQL tests without its features.
fn test_without_default_features(package: &str, nextest: bool) -> Result<(), String> {
    println!("    {package} without its default features");
    let mut args = vec!["test", "-p", package, "--no-default-features"];
    if nextest {
        args = vec!["nextest", "run", "-p", package, "--no-default-features", "--no-fail-fast"];
        // The same profile as the main run's, so a CI log reports these failures the same way.
        if std::env::var_os("CI").is_some() {
            args.extend(["--profile", "ci"]);
        }
    }
    run_checked(&mut cargo(&args))?;
    run_checked(&mut cargo(&["test", "-p", package, "--no-default-features", "--doc"]))
}

/// The environment variable that hands the PostgreSQL tests the URL of their database.
pub(crate) const POSTGRES_URL_VAR: &str = "TIDEMARK_POSTGRES_URL";

/// The name of the integration test binaries holding the PostgreSQL tests (`tests/postgres.rs`).
const POSTGRES_TEST_BINARY: &str = "postgres";

/// The environment variable that hands the MCP tests a Python with the official MCP SDK.
const MCP_PYTHON_VAR: &str = "TIDEMARK_MCP_PYTHON";

/// The name of the integration test binary that drives `tidemark mcp` from Python (`tests/mcp.rs`).
const MCP_TEST_BINARY: &str = "mcp";

/// Runs the unit and integration tests, then the doctests, with a throwaway PostgreSQL server.
///
/// nextest does not run doctests, so they always get their own `cargo test`
/// pass; with plain `cargo test` that costs a second, cheap invocation.
///
/// The PostgreSQL tests get the server's URL in `TIDEMARK_POSTGRES_URL`. Without a server they are
/// left out of the run altogether and the log says so, rather than having them pass without testing anything.
fn tests(nextest: bool) -> Result<(), String> {
    // The server must outlive both test commands; dropping it at the end stops it and deletes its files.
    let (server, not_run) = match postgres::start() {
        Ok(server) => {
            println!(
                "    PostgreSQL {} on 127.0.0.1:{} for the PostgreSQL tests",
                server.version(),
                server.port()
            );
            (Some(server), None)
        }
        Err(reason) => {
            let line = not_run_line("PostgreSQL tests", &reason);
            println!("{line}");
            (None, Some(line))
        }
    };
    let (python, mcp_not_run) = match pyenv::mcp_python() {
        Ok(python) => {
            println!("    the Python MCP SDK in {} for the `tidemark mcp` tests", python.display());
            (Some(python), None)
        }
        Err(reason) => {
            let line = not_run_line("MCP client tests", &reason);
            println!("{line}");
            (None, Some(line))
        }
    };
    // Only what exists can be left out: nextest refuses a filter naming a test binary there is none of.
    let metadata = workspace_metadata()?;
    let mut left_out: Vec<&str> = Vec::new();
    if server.is_none() && has_test_target(&metadata, POSTGRES_TEST_BINARY) {
        left_out.push(POSTGRES_TEST_BINARY);
    }
    if python.is_none() && has_test_target(&metadata, MCP_TEST_BINARY) {
        left_out.push(MCP_TEST_BINARY);
    }
    let with_url = |mut command: Command| {
        if let Some(server) = &server {
            command.env(POSTGRES_URL_VAR, server.url());
        }
        if let Some(python) = &python {
            command.env(MCP_PYTHON_VAR, python);
        }
        command
    };

    if nextest {
        let mut args = vec!["nextest", "run", "--workspace", "--all-features", "--no-fail-fast"];
        // The `ci` profile lives in .config/nextest.toml; local runs keep the
        // default profile so a developer's own settings still apply.
        if std::env::var_os("CI").is_some() {
            args.extend(["--profile", "ci"]);
        }
        let exclude =
            left_out.iter().map(|binary| format!("not binary({binary})")).collect::<Vec<_>>().join(" and ");
        if !left_out.is_empty() {
            args.extend(["-E", &exclude]);
        }
        run_checked(&mut with_url(cargo(&args)))?;
    } else {
        println!("    cargo-nextest is not installed; using cargo test instead");
        let mut command = with_url(cargo(&["test", "--workspace", "--all-features"]));
        if !left_out.is_empty() {
            // cargo test cannot leave out one test binary by name, so every other test target is named instead.
            command.args(target_args(&metadata, &left_out)?);
        }
        run_checked(&mut command)?;
    }
    run_checked(&mut with_url(cargo(&["test", "--workspace", "--all-features", "--doc"])))?;
    for package in NO_DEFAULT_FEATURES {
        test_without_default_features(package, nextest)?;
    }
    drop(server);
    // Said again after the long test output, next to the line saying the step passed.
    for line in [not_run, mcp_not_run].into_iter().flatten() {
        println!("{line}");
    }
    Ok(())
}

/// The log line saying `what` (the PostgreSQL tests, the MCP client tests) was not run: the reason's first line, with any
/// details (a failing command's output) indented beneath it.
fn not_run_line(what: &str, reason: &str) -> String {
    let mut lines = reason.trim().lines();
    let mut text = format!("    {what} NOT RUN: {}", lines.next().unwrap_or("no reason given"));
    for line in lines {
        text.push_str("\n        ");
        text.push_str(line);
    }
    text
}

/// Reads the workspace's own packages and their targets from `cargo metadata`.
fn workspace_metadata() -> Result<serde_json::Value, String> {
    let mut metadata = cargo(&["metadata", "--format-version", "1", "--no-deps"]);
    let output = metadata.output().map_err(|error| format!("could not run cargo metadata: {error}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed ({}): {}",
            describe_status(output.status),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("cargo metadata printed invalid JSON: {error}"))
}

/// Whether any workspace package has an integration test target of that name.
fn has_test_target(metadata: &serde_json::Value, name: &str) -> bool {
    metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|package| package["targets"].as_array())
        .flatten()
        .any(|target| {
            target["name"].as_str() == Some(name)
                && target["kind"].as_array().is_some_and(|kinds| kinds.iter().any(|kind| kind == "test"))
        })
}

/// Lists the targets `cargo test` runs by default (those with `test = true`) as target arguments,
/// leaving out the integration tests named `excluded`.
fn target_args(metadata: &serde_json::Value, excluded: &[&str]) -> Result<Vec<String>, String> {
    let packages = metadata["packages"].as_array().ok_or("cargo metadata output has no `packages` array")?;
    // Each selected target as its flag and name; `--lib` needs no name and covers every package.
    let mut selected: Vec<(&str, Option<&str>)> = Vec::new();
    for target in packages.iter().filter_map(|package| package["targets"].as_array()).flatten() {
        if target["test"].as_bool() != Some(true) {
            continue;
        }
        let name = target["name"].as_str().ok_or("a target in cargo metadata has no name")?;
        let kinds = target["kind"].as_array().ok_or_else(|| format!("target {name} has no kind"))?;
        for kind in kinds.iter().filter_map(serde_json::Value::as_str) {
            let entry = match kind {
                "lib" | "rlib" | "dylib" | "cdylib" | "staticlib" | "proc-macro" => ("--lib", None),
                "bin" => ("--bin", Some(name)),
                "test" if !excluded.contains(&name) => ("--test", Some(name)),
                "example" => ("--example", Some(name)),
                "bench" => ("--bench", Some(name)),
                _ => continue,
            };
            if !selected.contains(&entry) {
                selected.push(entry);
            }
        }
    }
    Ok(selected
        .into_iter()
        .flat_map(|(flag, name)| std::iter::once(flag.to_owned()).chain(name.map(str::to_owned)))
        .collect())
}

/// Packages every publishable crate and builds each from its package, as `cargo publish` would.
///
/// CI works on a fresh clone; a developer's tree may hold uncommitted work, which a local run
/// packages as it is rather than refusing.
fn package() -> Result<(), String> {
    forget_unpacked_packages(&workspace_metadata()?)?;
    let mut args = vec!["package", "--workspace", "--exclude", "xtask"];
    if std::env::var_os("CI").is_none() {
        args.push("--allow-dirty");
    }
    run_checked(&mut cargo(&args))
}

/// Removes the copies of the workspace's own packages that earlier `cargo package` runs unpacked under `$CARGO_HOME/registry/src`.
///
/// `cargo package --workspace` builds each crate against the packages of the
/// others, through a registry of its own in the target directory, and unpacks
/// them under `$CARGO_HOME/registry/src/<that registry>/<name>-<version>`. It
/// does not unpack a package again when a folder of that name says it was
/// unpacked, and the version stays 0.1.0 from commit to commit, so a later run
/// with the same target directory (every CI run of a fresh clone at the same
/// path) would build against an earlier commit's crates. Only folders named
/// after a workspace package at its version are removed, and the fingerprints
/// of the workspace's crates in the target directory, so that nothing built
/// from an earlier commit's packages is taken for built.
fn forget_unpacked_packages(metadata: &serde_json::Value) -> Result<(), String> {
    let home = match std::env::var_os("CARGO_HOME") {
        Some(home) => std::path::PathBuf::from(home),
        None => match std::env::var_os("HOME") {
            Some(home) => std::path::Path::new(&home).join(".cargo"),
            None => return Ok(()),
        },
    };
    let names: Vec<String> = metadata["packages"]
        .as_array()
        .ok_or("cargo metadata printed no packages")?
        .iter()
        .filter_map(|package| Some(format!("{}-{}", package["name"].as_str()?, package["version"].as_str()?)))
        .collect();
    if let Ok(registries) = std::fs::read_dir(home.join("registry").join("src")) {
        for registry in registries.flatten() {
            for name in &names {
                let unpacked = registry.path().join(name);
                if unpacked.is_dir() {
                    std::fs::remove_dir_all(&unpacked)
                        .map_err(|error| format!("could not remove {}: {error}", unpacked.display()))?;
                }
            }
        }
    }
    // Cargo takes a registry package for unchanging, so what it built of an earlier commit's
    // packages would be used again: forget how the workspace's crates were built (their
    // fingerprints, `<name>-<16 hex digits>`), and they are built again, from the new packages.
    let crates: Vec<&str> =
        metadata["packages"].as_array().into_iter().flatten().filter_map(|p| p["name"].as_str()).collect();
    let Some(target) = metadata["target_directory"].as_str() else { return Ok(()) };
    let Ok(built) = std::fs::read_dir(std::path::Path::new(target).join("debug").join(".fingerprint")) else {
        return Ok(());
    };
    for entry in built.flatten() {
        let file = entry.file_name();
        let Some(file) = file.to_str() else { continue };
        let ours = crates.iter().any(|name| {
            file.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix('-'))
                .is_some_and(|hash| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
        });
        if ours {
            std::fs::remove_dir_all(entry.path())
                .map_err(|error| format!("could not remove {}: {error}", entry.path().display()))?;
        }
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_args_leave_out_only_the_postgres_tests() {
        let metadata = serde_json::json!({"packages": [
            {"targets": [
                {"kind": ["lib"], "name": "tidemark_memory", "test": true},
                {"kind": ["test"], "name": "sqlite_store", "test": true},
                {"kind": ["test"], "name": "postgres", "test": true},
                {"kind": ["bench"], "name": "replay", "test": false},
                {"kind": ["example"], "name": "demo", "test": false},
            ]},
            {"targets": [
                {"kind": ["lib"], "name": "tidemark_cli", "test": true},
                {"kind": ["bin"], "name": "tidemark", "test": true},
                {"kind": ["test"], "name": "postgres", "test": true},
                {"kind": ["example"], "name": "tested", "test": true},
            ]},
        ]});
        let args = target_args(&metadata, &["postgres"]).expect("valid metadata");
        assert_eq!(
            args,
            ["--lib", "--test", "sqlite_store", "--bin", "tidemark", "--example", "tested"]
                .map(str::to_owned)
        );
    }

    #[test]
    fn test_targets_are_found_by_name_and_kind() {
        let metadata = serde_json::json!({"packages": [
            {"targets": [{"kind": ["lib"], "name": "postgres", "test": true}]},
            {"targets": [{"kind": ["test"], "name": "sqlite_store", "test": true}]},
        ]});
        assert!(!has_test_target(&metadata, "postgres"));
        assert!(has_test_target(&metadata, "sqlite_store"));
        assert!(!has_test_target(&serde_json::json!({}), "sqlite_store"));
    }

    #[test]
    fn target_args_need_packages() {
        assert!(target_args(&serde_json::json!({}), &["postgres"]).is_err());
    }

    #[test]
    fn not_run_line_puts_details_beneath() {
        assert_eq!(not_run_line("PostgreSQL tests", "not root"), "    PostgreSQL tests NOT RUN: not root");
        assert_eq!(
            not_run_line("PostgreSQL tests", "`initdb` failed (exit status 1):\nno space\n"),
            "    PostgreSQL tests NOT RUN: `initdb` failed (exit status 1):\n        no space"
        );
    }
}

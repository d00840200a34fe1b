//! The `rig` step of `cargo xtask ci`: `crates/tidemark-rig`, a workspace of its own, formatted, linted, tested, documented and checked by cargo-deny.
//!
//! It is kept out of the main workspace because rig-core switches on
//! serde_json's `preserve_order` and `float_roundtrip`, and feature
//! unification would switch them on for every crate the main suite tests.
//! Its build goes to the main workspace's target directory (or
//! `CARGO_TARGET_DIR`), so the dependencies whose features agree are built
//! once.

use std::process::Command;

use crate::util::{cargo, describe_status, run_inherited, workspace_root};

/// Runs every check on the tidemark-rig workspace, stopping at the first failure.
pub(crate) fn check() -> Result<(), String> {
    let root = workspace_root();
    let manifest = root.join("crates").join("tidemark-rig").join("Cargo.toml").display().to_string();
    let target =
        std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| root.join("target").display().to_string());
    let with = |args: &[&str]| {
        let mut command = cargo(args);
        command.args(["--manifest-path", &manifest]);
        command
    };
    let built = |args: &[&str]| {
        let mut command = with(args);
        command.args(["--locked", "--target-dir", &target]);
        command
    };
    checked(&mut with(&["fmt", "--check"]), "cargo fmt")?;
    checked(built(&["clippy", "--all-targets"]).args(["--", "-D", "warnings"]), "cargo clippy")?;
    checked(&mut built(&["test"]), "cargo test")?;
    checked(built(&["doc", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings"), "cargo doc")?;
    // cargo-deny finds the root's deny.toml by walking up from the manifest.
    checked(with(&["deny"]).args(["check", "bans", "licenses", "sources"]), "cargo deny")
}

fn checked(command: &mut Command, what: &str) -> Result<(), String> {
    let status = run_inherited(command)?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} on crates/tidemark-rig failed ({})", describe_status(status)))
    }
}

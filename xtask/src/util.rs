//! Small helpers shared by the xtask commands: locating the workspace, building `cargo` invocations and running them.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

/// Returns the workspace root, which is the parent of the xtask crate.
///
/// The path is fixed at compile time, so it is correct no matter which
/// directory `cargo xtask` is started from.
pub(crate) fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().map_or_else(|| manifest_dir.to_path_buf(), Path::to_path_buf)
}

/// The directory cargo builds the workspace of `manifest` into, as `cargo metadata` reports it.
///
/// It honours `CARGO_TARGET_DIR`, `build.target-dir` in a config file and
/// the default `target/` beside the workspace alike, so that no step of
/// xtask looks for a build output or writes a report at a guessed path.
pub(crate) fn target_dir(manifest: &Path) -> Result<PathBuf, String> {
    target_dir_in(manifest, Command::new(cargo_program()))
}

/// [`target_dir`] with `metadata` as the cargo command to run (tests set its environment).
fn target_dir_in(manifest: &Path, mut metadata: Command) -> Result<PathBuf, String> {
    metadata
        .args(["metadata", "--format-version", "1", "--no-deps", "--manifest-path"])
        .arg(manifest)
        .current_dir(workspace_root())
        .stderr(Stdio::inherit());
    let output =
        metadata.output().map_err(|error| format!("cannot run `{}`: {error}", describe(&metadata)))?;
    if !output.status.success() {
        return Err(format!("`{}` failed ({})", describe(&metadata), describe_status(output.status)));
    }
    target_dir_of(&output.stdout)
}

/// The `target_directory` of `cargo metadata`'s JSON output.
fn target_dir_of(json: &[u8]) -> Result<PathBuf, String> {
    let value: serde_json::Value = serde_json::from_slice(json)
        .map_err(|error| format!("`cargo metadata` printed something other than JSON: {error}"))?;
    value
        .get("target_directory")
        .and_then(serde_json::Value::as_str)
        .map(PathBuf::from)
        .ok_or_else(|| "`cargo metadata` reported no target directory".to_owned())
}

/// The target directory of the main workspace.
pub(crate) fn main_target_dir() -> Result<PathBuf, String> {
    target_dir(&workspace_root().join("Cargo.toml"))
}

/// Returns the cargo binary to run.
///
/// Cargo exports `CARGO` to the programs it runs, and using it keeps every
/// nested invocation on the same toolchain as the outer `cargo xtask`.
pub(crate) fn cargo_program() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"))
}

/// Builds a `cargo` command with the given arguments, run from the workspace root.
pub(crate) fn cargo(args: &[&str]) -> Command {
    let mut command = Command::new(cargo_program());
    command.args(args).current_dir(workspace_root());
    // Colour is only forced when a person is watching; piped output such as a
    // CI log keeps whatever cargo would choose on its own.
    if std::io::stdout().is_terminal() && std::env::var_os("CARGO_TERM_COLOR").is_none() {
        command.env("CARGO_TERM_COLOR", "always");
    }
    // A CI run builds every profile once from an empty target directory, so incremental
    // compilation only fills the disk (about a third of the target directory) without ever
    // being reused. A developer's own setting still wins.
    if std::env::var_os("CI").is_some() && std::env::var_os("CARGO_INCREMENTAL").is_none() {
        command.env("CARGO_INCREMENTAL", "0");
    }
    command
}

/// Renders a command line for the log, so a failing step can be re-run by hand.
pub(crate) fn describe(command: &Command) -> String {
    let mut text = String::new();
    for (key, value) in command.get_envs() {
        // Only the variables that change the outcome are worth showing; the
        // colour switch is noise when copying the line.
        if key == "CARGO_TERM_COLOR" {
            continue;
        }
        if let Some(value) = value {
            text.push_str(&key.to_string_lossy());
            text.push_str("=\"");
            text.push_str(&value.to_string_lossy());
            text.push_str("\" ");
        }
    }
    // The full path of the cargo binary is long and not what a person types.
    let program = command.get_program().to_string_lossy();
    let program = Path::new(program.as_ref())
        .file_stem()
        .map_or_else(|| program.to_string(), |stem| stem.to_string_lossy().into_owned());
    text.push_str(&program);
    for arg in command.get_args() {
        text.push(' ');
        text.push_str(&arg.to_string_lossy());
    }
    text
}

/// Runs a command with inherited output and reports how it ended.
///
/// The error case means the command could not be started at all, which is a
/// different problem from the command running and failing.
pub(crate) fn run_inherited(command: &mut Command) -> Result<ExitStatus, String> {
    println!("    $ {}", describe(command));
    command.status().map_err(|error| format!("could not start `{}`: {error}", describe(command)))
}

/// Runs a command silently and reports whether it succeeded.
///
/// This is used to probe for optional tools, where the output is irrelevant
/// and a failure to start simply means the tool is not there.
pub(crate) fn succeeds_quietly(command: &mut Command) -> bool {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Describes an exit status in the words used by the CI log.
pub(crate) fn describe_status(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exit status {code}"),
        // Without a code the process was killed by a signal; the standard
        // library's wording already says which one.
        None => status.to_string(),
    }
}

/// Formats a duration as seconds with one decimal, which is enough precision for build steps.
pub(crate) fn seconds(duration: Duration) -> String {
    format!("{:.1}s", duration.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_directory_is_read_from_metadata() {
        let json = br#"{"packages": [], "target_directory": "/tmp/elsewhere", "workspace_root": "/w"}"#;
        assert_eq!(target_dir_of(json), Ok(PathBuf::from("/tmp/elsewhere")));
        assert!(target_dir_of(br#"{"packages": []}"#).is_err());
        assert!(target_dir_of(b"not json").is_err());
    }

    #[test]
    fn a_target_dir_variable_moves_both_workspaces() {
        // What every step (ci, bench, check-report) resolves its paths with, for the main
        // workspace and the benchmark's own.
        let elsewhere = std::env::temp_dir().join("tidemark-xtask-target-dir-test");
        for manifest in
            [workspace_root().join("Cargo.toml"), workspace_root().join("bench/compare/Cargo.toml")]
        {
            let mut cargo = Command::new(cargo_program());
            cargo.env("CARGO_TARGET_DIR", &elsewhere);
            assert_eq!(target_dir_in(&manifest, cargo), Ok(elsewhere.clone()), "{}", manifest.display());
            let mut cargo = Command::new(cargo_program());
            cargo.env_remove("CARGO_TARGET_DIR");
            let default = target_dir_in(&manifest, cargo).expect("cargo metadata runs");
            assert_ne!(default, elsewhere, "{}", manifest.display());
        }
    }

    #[test]
    fn the_main_target_directory_follows_cargo() {
        // Whatever cargo reports for this very build, which is where this test binary lives.
        let reported = main_target_dir().expect("cargo metadata runs");
        let this = std::env::current_exe().expect("the test binary");
        assert!(this.starts_with(&reported), "{} is not under {}", this.display(), reported.display());
    }
}

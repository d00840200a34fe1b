//! A Python virtual environment with OpenAI's `tiktoken`, set up to run offline, for the token-counting benchmark.
//!
//! The benchmark compares tidemark's counter with OpenAI's Python tiktoken on
//! the same corpus. Python tiktoken downloads its rank files on first use; here
//! the identical `o200k_base` file that the tiktoken-rs crate ships is copied
//! into a cache directory under the name tiktoken looks for (the sha1 of the
//! file's URL), after checking its sha256 against the hash tiktoken expects, so
//! the benchmark never touches the network. Only the `pip install` does, and
//! only the first time: a working environment is reused.
//!
//! Everything lives under `target/bench/`: the environment in `venv/` and the
//! cache in `tiktoken-cache/`. Python is optional for the benchmark, so every
//! failure comes back as a one-line reason for the report instead of stopping
//! the run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::util;

/// The version of OpenAI's tiktoken installed from PyPI.
const TIKTOKEN_VERSION: &str = "0.14.0";

/// Where Python tiktoken downloads the `o200k_base` rank file from; its cache file is named after the sha1 of this URL.
const O200K_URL: &str = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken";

/// The sha256 of the `o200k_base` rank file, as `tiktoken_ext/openai_public.py` expects it.
const O200K_SHA256: &str = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d";

/// A Python snippet printing the sha1 of `argv[1]` (a URL) and the sha256 of the file `argv[2]`, one per line.
const HASHES: &str = "import hashlib, sys
print(hashlib.sha1(sys.argv[1].encode()).hexdigest())
with open(sys.argv[2], 'rb') as f:
    print(hashlib.sha256(f.read()).hexdigest())";

/// A Python snippet that loads `o200k_base` and counts the tokens of a known sentence (two tokens).
const SMOKE: &str = "import tiktoken
print(tiktoken.__version__, len(tiktoken.get_encoding('o200k_base').encode_ordinary('Hello world')))";

/// Sets up (or reuses) a virtual environment with Python tiktoken and an offline rank-file cache in `bench/` of the target directory.
///
/// Returns the environment's interpreter and the directory to pass to it as
/// `TIKTOKEN_CACHE_DIR`; the pair has been checked to count tokens with no
/// network. The error is a one-line reason, such as a missing `python3` or a
/// failed `pip install`, meant to be printed in the report.
pub(crate) fn tiktoken_python(root: &Path) -> Result<(PathBuf, PathBuf), String> {
    let bench = util::main_target_dir()?.join("bench");
    let venv = bench.join("venv");
    let python = interpreter(&venv);
    if !has_tiktoken(&python) {
        create_venv(&venv, &python)?;
    }
    let assets = tiktoken_rs_assets(root)?;
    let cache = bench.join("tiktoken-cache");
    fill_cache(&python, &assets.join("o200k_base.tiktoken"), &cache)?;
    check_offline(&python, &cache)?;
    Ok((python, cache))
}

/// The version of the official MCP Python SDK the `tidemark mcp` tests drive the server with.
const MCP_VERSION: &str = "2.3.0";

/// Sets up (or reuses) a virtual environment with the MCP Python SDK in `mcp/` of the target directory; returns its interpreter.
///
/// The `tidemark mcp` tests start the server from a client tidemark did not
/// write. Only the `pip install` touches the network, and only the first time.
pub(crate) fn mcp_python() -> Result<PathBuf, String> {
    let venv = util::main_target_dir()?.join("mcp").join("venv");
    let python = interpreter(&venv);
    let check = format!(
        "import importlib.metadata, mcp, sys; sys.exit(importlib.metadata.version('mcp') != '{MCP_VERSION}')"
    );
    let ready =
        |python: &Path| python.is_file() && util::succeeds_quietly(Command::new(python).args(["-c", &check]));
    if ready(&python) {
        return Ok(python);
    }
    println!("    setting up the Python MCP SDK {MCP_VERSION} in {}", venv.display());
    let system_python = if cfg!(windows) { "python" } else { "python3" };
    let mut make = Command::new(system_python);
    make.args(["-m", "venv", "--clear"]).arg(&venv);
    run(&mut make, &format!("`{system_python} -m venv` failed"))?;
    let mut install = Command::new(&python);
    install
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input"])
        .arg(format!("mcp=={MCP_VERSION}"));
    run(&mut install, &format!("`pip install mcp=={MCP_VERSION}` failed"))?;
    if ready(&python) {
        Ok(python)
    } else {
        Err(format!("mcp {MCP_VERSION} was installed but does not import"))
    }
}

/// The interpreter inside a virtual environment.
fn interpreter(venv: &Path) -> PathBuf {
    if cfg!(windows) { venv.join("Scripts").join("python.exe") } else { venv.join("bin").join("python") }
}

/// Whether `python` runs and imports the pinned version of tiktoken.
fn has_tiktoken(python: &Path) -> bool {
    let check = format!("import tiktoken, sys; sys.exit(tiktoken.__version__ != '{TIKTOKEN_VERSION}')");
    python.is_file() && util::succeeds_quietly(Command::new(python).args(["-c", &check]))
}

/// Creates the environment afresh (clearing whatever is there) and installs tiktoken into it.
fn create_venv(venv: &Path, python: &Path) -> Result<(), String> {
    println!("    setting up Python tiktoken {TIKTOKEN_VERSION} in {}", venv.display());
    let system_python = if cfg!(windows) { "python" } else { "python3" };
    let mut make = Command::new(system_python);
    make.args(["-m", "venv", "--clear"]).arg(venv);
    run(&mut make, &format!("`{system_python} -m venv` failed"))?;
    let mut install = Command::new(python);
    install
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input"])
        .arg(format!("tiktoken=={TIKTOKEN_VERSION}"));
    run(&mut install, &format!("`pip install tiktoken=={TIKTOKEN_VERSION}` failed"))?;
    if has_tiktoken(python) {
        Ok(())
    } else {
        Err(format!("tiktoken {TIKTOKEN_VERSION} was installed but does not import"))
    }
}

/// Finds the `assets/` directory of the tiktoken-rs crate that the benchmark builds with, through `cargo metadata`.
fn tiktoken_rs_assets(root: &Path) -> Result<PathBuf, String> {
    let manifest = root.join("bench").join("compare").join("Cargo.toml");
    let mut metadata = Command::new(util::cargo_program());
    metadata.args(["metadata", "--format-version", "1", "--manifest-path"]).arg(&manifest).current_dir(root);
    let output = run(&mut metadata, "`cargo metadata` for bench/compare failed")?;
    let json: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("`cargo metadata` printed something other than JSON: {error}"))?;
    let manifest_path = json
        .get("packages")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .find(|package| package.get("name").and_then(serde_json::Value::as_str) == Some("tiktoken-rs"))
        .and_then(|package| package.get("manifest_path"))
        .and_then(serde_json::Value::as_str)
        .ok_or("tiktoken-rs is not among the packages of bench/compare")?;
    let assets = Path::new(manifest_path).parent().map(|crate_dir| crate_dir.join("assets"));
    assets.filter(|dir| dir.is_dir()).ok_or_else(|| format!("no assets directory beside {manifest_path}"))
}

/// Copies the rank file into `cache` under tiktoken's name for it and checks the copy's sha256.
///
/// The hashes are computed by the environment's own Python (`hashlib`), which
/// keeps xtask free of hashing crates and names the file exactly as tiktoken
/// does. A copy with the wrong hash is removed, so tiktoken never sees it.
fn fill_cache(python: &Path, rank_file: &Path, cache: &Path) -> Result<(), String> {
    std::fs::create_dir_all(cache).map_err(|error| format!("cannot create {}: {error}", cache.display()))?;
    let staged = cache.join("o200k_base.tiktoken.partial");
    std::fs::copy(rank_file, &staged)
        .map_err(|error| format!("cannot copy {} to {}: {error}", rank_file.display(), staged.display()))?;
    let mut hash = Command::new(python);
    hash.args(["-c", HASHES, O200K_URL]).arg(&staged);
    let hashes = match run(&mut hash, "hashing the rank file failed") {
        Ok(output) => String::from_utf8_lossy(&output.stdout).into_owned(),
        Err(reason) => {
            let _ = std::fs::remove_file(&staged);
            return Err(reason);
        }
    };
    let mut lines = hashes.lines().map(str::trim);
    let (name, sha256) = (lines.next().unwrap_or_default(), lines.next().unwrap_or_default());
    if name.len() != 40 || sha256 != O200K_SHA256 {
        let _ = std::fs::remove_file(&staged);
        return Err(format!(
            "{} has sha256 {sha256:?}, not the {O200K_SHA256} that tiktoken expects",
            rank_file.display()
        ));
    }
    let target = cache.join(name);
    std::fs::rename(&staged, &target)
        .map_err(|error| format!("cannot move the rank file to {}: {error}", target.display()))
}

/// Checks that tiktoken loads `o200k_base` from the cache and counts a known sentence right, with downloads made to fail.
fn check_offline(python: &Path, cache: &Path) -> Result<(), String> {
    let mut smoke = Command::new(python);
    smoke.args(["-c", SMOKE]).env("TIKTOKEN_CACHE_DIR", cache);
    // A proxy on the discard port makes any download attempt fail at once
    // instead of waiting on the network, so a cache miss shows as an error.
    for proxy in ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"] {
        smoke.env(proxy, "http://127.0.0.1:9");
    }
    let output = run(&mut smoke, "Python tiktoken could not load o200k_base from the offline cache")?;
    let printed = String::from_utf8_lossy(&output.stdout);
    let expected = format!("{TIKTOKEN_VERSION} 2");
    if printed.trim() == expected {
        Ok(())
    } else {
        Err(format!("Python tiktoken printed {:?} for its self-check, expected {expected:?}", printed.trim()))
    }
}

/// Runs a command with its output captured; a failure becomes `what` plus the last line the command wrote.
fn run(command: &mut Command, what: &str) -> Result<Output, String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("{what}: could not start `{}`: {error}", util::describe(command)))?;
    if output.status.success() {
        return Ok(output);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.lines().chain(stderr.lines()).map(str::trim).rfind(|line| !line.is_empty());
    let status = util::describe_status(output.status);
    Err(match last {
        Some(line) => format!("{what} ({status}): {line}"),
        None => format!("{what} ({status})"),
    })
}

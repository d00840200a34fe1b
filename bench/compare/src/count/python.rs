//! Drives OpenAI's Python tiktoken through `tiktoken_bench.py`: its counts of the corpus, then one timed slice at a time.
//!
//! The script stays running and times one slice of the corpus per request, so
//! that its timings interleave with those of the Rust systems: a slow stretch
//! of the machine then falls on every system alike instead of on whichever
//! happened to be running.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufRead as _, BufReader, Write as _};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::Python;

/// A running `tiktoken_bench.py`, with the counts it reported on start.
pub(super) struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    /// Where the script's stderr goes, read back when it fails.
    log: PathBuf,
    /// The version of tiktoken that runs.
    pub(super) tiktoken: String,
    /// The version of the interpreter.
    pub(super) python: String,
    /// The tokens of each text, in corpus order.
    pub(super) counts: Vec<u64>,
}

/// The script, beside this crate's manifest.
fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tiktoken_bench.py")
}

impl Session {
    /// Writes the texts to `work_dir/count-corpus.jsonl`, starts the script on them and reads its counts.
    pub(super) fn start(python: &Python, texts: &[&str], work_dir: &Path) -> Result<Self, String> {
        let script = script();
        if !script.is_file() {
            return Err(format!("{} is missing", script.display()));
        }
        std::fs::create_dir_all(work_dir)
            .map_err(|e| format!("cannot create {}: {e}", work_dir.display()))?;
        let corpus = work_dir.join("count-corpus.jsonl");
        let mut lines = String::new();
        for text in texts {
            let encoded =
                serde_json::to_string(text).map_err(|e| format!("cannot write a text as JSON: {e}"))?;
            let _ = writeln!(lines, "{encoded}");
        }
        std::fs::write(&corpus, lines).map_err(|e| format!("cannot write {}: {e}", corpus.display()))?;
        let log = work_dir.join("count-python.log");
        let stderr = File::create(&log).map_err(|e| format!("cannot create {}: {e}", log.display()))?;

        let mut command = Command::new(&python.interpreter);
        command.arg(&script).arg(&corpus).env("TIKTOKEN_CACHE_DIR", &python.cache_dir);
        // The rank file must come from the cache; a proxy on the discard port turns
        // any download attempt into an immediate error instead of a wait.
        for proxy in ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"] {
            command.env(proxy, "http://127.0.0.1:9");
        }
        let mut child =
            command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(stderr).spawn().map_err(|e| {
                format!("cannot start Python tiktoken ({}): {e}", python.interpreter.display())
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("Python tiktoken started without its pipes".to_owned());
        };
        let mut session = Self {
            child,
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
            log,
            tiktoken: String::new(),
            python: String::new(),
            counts: Vec::new(),
        };
        let report = session.read_report()?;
        let text = |key: &str| field(&report, key).map(|v| v.as_str().unwrap_or("?").to_owned());
        session.tiktoken = text("tiktoken")?;
        session.python = text("python")?;
        session.counts = field(&report, "counts")?
            .as_array()
            .ok_or("Python tiktoken's `counts` is not a list")?
            .iter()
            .map(|count| count.as_u64().ok_or_else(|| format!("Python tiktoken reported a count of {count}")))
            .collect::<Result<_, String>>()?;
        if session.counts.len() != texts.len() {
            return Err(format!(
                "Python tiktoken counted {} texts of the {} it was given",
                session.counts.len(),
                texts.len()
            ));
        }
        Ok(session)
    }

    /// Has the script time its count of the texts in `slice`; returns the tokens and the time it took.
    pub(super) fn pass(&mut self, slice: Range<usize>) -> Result<(u64, Duration), String> {
        let stdin = self.stdin.as_mut().ok_or("Python tiktoken's input is closed")?;
        let request = format!("pass {} {}\n", slice.start, slice.end);
        if let Err(error) = stdin.write_all(request.as_bytes()).and_then(|()| stdin.flush()) {
            return Err(self.failure(&format!("cannot ask Python tiktoken for a pass: {error}")));
        }
        let report = self.read_report()?;
        let tokens = field(&report, "tokens")?.as_u64().ok_or("Python tiktoken's `tokens` is not a count")?;
        let seconds = field(&report, "seconds")?.as_f64().filter(|s| s.is_finite() && *s >= 0.0);
        let seconds = seconds.ok_or("Python tiktoken's `seconds` is not a time")?;
        Ok((tokens, Duration::from_secs_f64(seconds)))
    }

    /// Closes the script's input, which ends it, and checks that it exited cleanly.
    pub(super) fn finish(mut self) -> Result<(), String> {
        drop(self.stdin.take());
        match self.child.wait() {
            Ok(status) if status.success() => Ok(()),
            Ok(_) | Err(_) => Err(self.failure("Python tiktoken did not exit cleanly")),
        }
    }

    /// Reads one JSON line from the script.
    fn read_report(&mut self) -> Result<Value, String> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) => Err(self.failure("Python tiktoken stopped")),
            Ok(_) => serde_json::from_str(&line)
                .map_err(|e| format!("Python tiktoken printed something other than a JSON line: {e}")),
            Err(error) => Err(self.failure(&format!("cannot read Python tiktoken's output: {error}"))),
        }
    }

    /// `what`, with how the script ended and the last line of its stderr.
    fn failure(&mut self, what: &str) -> String {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let status = self.child.wait().map(|status| status.to_string()).unwrap_or_else(|e| e.to_string());
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let reason = log.lines().map(str::trim).rfind(|line| !line.is_empty()).unwrap_or("no message");
        format!("{what} ({status}): {reason}")
    }
}

impl Drop for Session {
    /// Ends the script if the benchmark stops early.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A field of one of the script's reports.
fn field<'a>(report: &'a Value, key: &str) -> Result<&'a Value, String> {
    report.get(key).ok_or_else(|| format!("Python tiktoken's report lacks `{key}`"))
}

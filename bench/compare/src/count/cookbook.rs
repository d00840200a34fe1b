//! Exactness: tidemark's `o200k_base` count of every recorded message against the cookbook count by OpenAI's Python tiktoken.
//!
//! Every transcript in `examples/transcripts/` and every recorded run in
//! `crates/tidemark-providers/tests/data/` is read into tidemark messages;
//! each message is written in the wire form a request sends
//! (`message_to_wire` with `WireOptions::request`), and `cookbook_count.py`
//! counts that JSON by the rule of OpenAI's cookbook (3 per wire message, the
//! tokens of every string, 1 per `name`, 85 per image). tidemark's
//! `TiktokenCounter::count` of the message must equal it exactly, message by
//! message; any difference fails the run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use tidemark_core::{Message, TokenCounter};
use tidemark_memory::TiktokenCounter;
use tidemark_providers::wire::{WireOptions, from_wire, message_to_wire};

use super::Python;

/// The outcome of a comparison that found no difference.
pub(super) struct Agreement {
    /// Transcript files read.
    pub(super) files: usize,
    /// Messages compared.
    pub(super) messages: usize,
    /// Their total, which both sides agree on.
    pub(super) tokens: u64,
    /// The version of Python tiktoken that counted.
    pub(super) tiktoken: String,
}

/// The repository's root, two levels above this crate's manifest.
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Whether the file at `path` is OpenAI chat messages: its first record has a `role`.
///
/// The agents' session files (Claude Code, Codex) are JSON lines too, and are not chat messages.
fn is_chat(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| {
        text.lines().find(|line| !line.trim().is_empty()).is_some_and(|line| {
            serde_json::from_str::<Value>(line).is_ok_and(|record| record.get("role").is_some())
        })
    })
}

/// Every OpenAI chat `.jsonl` file of the transcript directories, in name order.
fn transcripts() -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for dir in ["examples/transcripts", "crates/tidemark-providers/tests/data"] {
        let dir = repository().join(dir);
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        let mut found: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl") && is_chat(path))
            .collect();
        found.sort();
        files.extend(found);
    }
    if files.is_empty() {
        return Err("no recorded transcripts found to compare counts on".to_owned());
    }
    Ok(files)
}

fn read(path: &Path) -> Result<Vec<Message>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let values: Vec<Value> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{} is not JSON lines: {e}", path.display()))?;
    from_wire(&values).map_err(|e| format!("{}: {e}", path.display()))
}

/// Compares every recorded message's count; fails on the first few differences, listing them.
pub(super) fn compare(python: &Python, work_dir: &Path) -> Result<Agreement, String> {
    let counter = TiktokenCounter::o200k().map_err(|e| format!("tidemark cannot load o200k_base: {e}"))?;
    let files = transcripts()?;
    let mut labels = Vec::new();
    let mut ours = Vec::new();
    let mut lines = String::new();
    for file in &files {
        let name = file.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        for (index, message) in read(file)?.iter().enumerate() {
            let wire = Value::Array(message_to_wire(message, WireOptions::request()));
            let _ = writeln!(lines, "{wire}");
            labels.push(format!("{name} message {index}"));
            ours.push(u64::from(counter.count(message)));
        }
    }
    std::fs::create_dir_all(work_dir).map_err(|e| format!("cannot create {}: {e}", work_dir.display()))?;
    let input = work_dir.join("cookbook-messages.jsonl");
    std::fs::write(&input, lines).map_err(|e| format!("cannot write {}: {e}", input.display()))?;
    let (theirs, tiktoken) = run_python(python, &input)?;
    if theirs.len() != ours.len() {
        return Err(format!("Python counted {} messages of the {} it was given", theirs.len(), ours.len()));
    }
    let differences: Vec<String> = labels
        .iter()
        .zip(ours.iter().zip(&theirs))
        .filter(|(_, (a, b))| a != b)
        .map(|(label, (a, b))| format!("{label}: tidemark {a}, cookbook {b}"))
        .collect();
    if !differences.is_empty() {
        return Err(format!(
            "tidemark count = cookbook count per message: {} of {} messages differ; first: {}",
            differences.len(),
            ours.len(),
            differences.iter().take(5).cloned().collect::<Vec<_>>().join("; ")
        ));
    }
    Ok(Agreement { files: files.len(), messages: ours.len(), tokens: ours.iter().sum(), tiktoken })
}

/// Runs `cookbook_count.py` on the file of wire messages; returns its counts and tiktoken's version.
fn run_python(python: &Python, input: &Path) -> Result<(Vec<u64>, String), String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("cookbook_count.py");
    let mut command = Command::new(&python.interpreter);
    command.arg(&script).arg(input).env("TIKTOKEN_CACHE_DIR", &python.cache_dir);
    // The rank file must come from the cache: a proxy on the discard port makes a download fail at once.
    for proxy in ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"] {
        command.env(proxy, "http://127.0.0.1:9");
    }
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot start {} for the cookbook count: {e}", python.interpreter.display()))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let reason = stderr.lines().map(str::trim).rfind(|line| !line.is_empty()).unwrap_or("no message");
        return Err(format!("the cookbook count failed ({}): {reason}", output.status));
    }
    let report: Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("cookbook_count.py printed something other than JSON: {e}"))?;
    let counts = report
        .get("counts")
        .and_then(Value::as_array)
        .ok_or("cookbook_count.py's report lacks `counts`")?
        .iter()
        .map(|count| count.as_u64().ok_or_else(|| format!("cookbook_count.py reported a count of {count}")))
        .collect::<Result<Vec<u64>, String>>()?;
    let tiktoken = report.get("tiktoken").and_then(Value::as_str).unwrap_or("?").to_owned();
    Ok((counts, tiktoken))
}

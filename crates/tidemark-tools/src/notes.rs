//! `memory`: Anthropic's memory-tool commands over a directory of notes kept in the store.
//!
//! Claude's memory tool (`memory_20250818`) asks the application to keep a
//! directory, `/memories`, and sends it commands: `view`, `create`,
//! `str_replace`, `insert`, `delete` and `rename`. Here the directory lives in
//! the conversation store itself, as a log of writes in a conversation of its
//! own (named [`NOTES_PREFIX`] and the user, or the conversation when there
//! is no user), so every store keeps notes, with no schema of its own, and
//! they survive restarts and are shared by processes on one PostgreSQL store.
//! Each write appends the file's new content (or its deletion or renaming);
//! the directory is the log read from the start.
//!
//! Paths are confined to `/memories`: `..` and `.` segments, other roots,
//! empty segments, NUL and control characters are refused. Files are bounded
//! ([`MAX_FILE_BYTES`], [`MAX_FILES`], [`MAX_LOG_ENTRIES`]), and what is written
//! passes the security scan (secrets redacted, planted orders refused), since
//! notes reach every later session.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tidemark_core::{ConversationId, ConversationStore, FactStore, Message, NewMessage, Seq, SeqRange};
use tidemark_facts::scan::Verdict;

use crate::{MemoryTools, ToolOutput, store_error};

/// The root every note path starts with.
pub const ROOT: &str = "/memories";
/// What the notes conversation's id starts with; the user's (or conversation's) id follows.
pub const NOTES_PREFIX: &str = "tidemark-notes/";
/// The largest note, in bytes.
pub const MAX_FILE_BYTES: usize = 32 << 10;
/// The most notes one directory holds.
pub const MAX_FILES: usize = 200;
/// The most writes a directory's log holds: past it, every write is refused (the log keeps each write, and is read whole).
pub const MAX_LOG_ENTRIES: usize = 5_000;
/// The longest path, in bytes.
const MAX_PATH_BYTES: usize = 256;

/// One write in the log.
#[derive(Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Entry {
    Put { path: String, content: String },
    Delete { path: String },
    Rename { from: String, to: String },
}

/// The arguments of a `memory` call: every command's fields, each optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Command {
    command: String,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    file_text: Option<String>,
    #[serde(default)]
    old_str: Option<String>,
    #[serde(default)]
    new_str: Option<String>,
    #[serde(default)]
    insert_line: Option<u64>,
    #[serde(default)]
    insert_text: Option<String>,
    #[serde(default)]
    view_range: Option<Vec<i64>>,
    #[serde(default)]
    old_path: Option<String>,
    #[serde(default)]
    new_path: Option<String>,
}

fn error(text: impl Into<String>) -> ToolOutput {
    ToolOutput::error(text)
}

/// `path` checked and normalised (no trailing slash), or the error that says why it is refused.
fn checked(path: Option<&str>, field: &str) -> Result<String, ToolOutput> {
    let Some(path) = path else { return Err(error(format!("memory needs `{field}`"))) };
    if path.len() > MAX_PATH_BYTES {
        return Err(error(format!(
            "the path is {} bytes; at most {MAX_PATH_BYTES} are accepted",
            path.len()
        )));
    }
    if path.chars().any(char::is_control) {
        return Err(error("a path may not hold NUL or control characters"));
    }
    let trimmed = path.strip_suffix('/').unwrap_or(path);
    let Some(rest) = trimmed.strip_prefix(ROOT) else {
        return Err(error(format!("every path must be inside {ROOT}")));
    };
    if !rest.is_empty() && !rest.starts_with('/') {
        return Err(error(format!("every path must be inside {ROOT}")));
    }
    if rest.split('/').skip(1).any(|segment| segment.is_empty() || segment == "." || segment == "..") {
        return Err(error("a path may not hold empty, `.` or `..` segments"));
    }
    Ok(trimmed.to_owned())
}

/// Whether `path` is `dir` or inside it.
fn within(path: &str, dir: &str) -> bool {
    path == dir || path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'))
}

/// A file's text with line numbers, as the memory tool shows it, from `range` (1-based, inclusive; -1 for the end).
fn numbered(text: &str, range: Option<&[i64]>) -> Result<String, ToolOutput> {
    let lines: Vec<&str> = text.lines().collect();
    let (start, end) = match range {
        None => (1, lines.len()),
        Some([start, end]) => {
            let end = if *end == -1 { lines.len() as i64 } else { *end };
            if *start < 1 || end < *start || end as usize > lines.len().max(1) {
                return Err(error(format!("view_range must be within 1..={} with start ≤ end", lines.len())));
            }
            (*start as usize, end as usize)
        }
        Some(_) => return Err(error("view_range must be two numbers: the first and last line")),
    };
    let mut out = String::new();
    for (number, line) in lines.iter().enumerate().skip(start - 1).take(end + 1 - start) {
        out.push_str(&format!("{:>6}\t{line}\n", number + 1));
    }
    Ok(out)
}

impl<S: ConversationStore + FactStore> MemoryTools<S> {
    /// The conversation that holds the notes of `conversation`'s directory: its user's, or its own.
    fn notes_id(&self, conversation: &ConversationId) -> Result<ConversationId, ToolOutput> {
        let owner = self.user.as_ref().unwrap_or(conversation);
        ConversationId::new(format!("{NOTES_PREFIX}{}", owner.as_str()))
            .map_err(|_| error("this conversation's id is too long to keep notes for"))
    }

    /// The directory, read from its log: each path's content, and how many entries the log holds.
    async fn directory(
        &self,
        notes: &ConversationId,
    ) -> Result<(BTreeMap<String, String>, usize), ToolOutput> {
        let log =
            self.store.load_range(notes, SeqRange::from(Seq::ZERO)).await.map_err(|e| store_error(&e))?;
        let mut files = BTreeMap::new();
        for stored in &log {
            // An entry this version cannot read is skipped: the rest of the directory stays readable.
            let Ok(entry) = serde_json::from_str::<Entry>(&stored.message.text()) else { continue };
            match entry {
                Entry::Put { path, content } => {
                    files.insert(path, content);
                }
                Entry::Delete { path } => files.retain(|name, _| !within(name, &path)),
                Entry::Rename { from, to } => {
                    let moved: Vec<String> =
                        files.keys().filter(|name| within(name, &from)).cloned().collect();
                    for name in moved {
                        if let Some(content) = files.remove(&name) {
                            files.insert(format!("{to}{}", &name[from.len()..]), content);
                        }
                    }
                }
            }
        }
        Ok((files, log.len()))
    }

    /// Append `entry` to the log of `notes`.
    async fn write(&self, notes: &ConversationId, entry: &Entry, entries: usize) -> Result<(), ToolOutput> {
        if entries >= MAX_LOG_ENTRIES {
            return Err(error(format!("the memory directory has had {MAX_LOG_ENTRIES} writes, its limit")));
        }
        let text = serde_json::to_string(entry).map_err(|_| error("the note could not be written"))?;
        let message = Message::system(text);
        let tokens = self.counter.count(&message);
        self.store
            .append(notes, vec![NewMessage::new(message, tokens)])
            .await
            .map_err(|e| store_error(&e))?;
        Ok(())
    }

    /// `content` as it may be kept: bounded, with secrets redacted, or refused by the scan.
    fn keepable(&self, content: String) -> Result<String, ToolOutput> {
        if content.len() > MAX_FILE_BYTES {
            return Err(error(format!(
                "the note would be {} bytes; at most {MAX_FILE_BYTES} are accepted",
                content.len()
            )));
        }
        match self.scanner.scan(&content) {
            Verdict::Clean => Ok(content),
            Verdict::Redacted { text, .. } => Ok(text),
            _ => Err(error("the security scan refused this note; nothing was written")),
        }
    }

    /// Answer a `memory` call.
    pub(crate) async fn memory(
        &self,
        conversation: &ConversationId,
        command: Command,
    ) -> Result<ToolOutput, ToolOutput> {
        let writes = command.command != "view";
        if writes && self.read_only {
            return Err(error(format!(
                "memory {} is not available: this memory is read-only",
                command.command
            )));
        }
        let notes = self.notes_id(conversation)?;
        let (files, entries) = self.directory(&notes).await?;
        let done = |text: String| Ok(ToolOutput { content: text, is_error: false });
        match command.command.as_str() {
            "view" => {
                let path = checked(command.path.as_deref(), "path")?;
                if let Some(text) = files.get(&path) {
                    return done(numbered(text, command.view_range.as_deref())?);
                }
                let listed: Vec<(&String, &String)> =
                    files.iter().filter(|(name, _)| within(name, &path)).collect();
                if listed.is_empty() && path != ROOT {
                    return Err(error(format!("{path} does not exist")));
                }
                let mut out = format!("Directory {path}:\n");
                for (name, text) in listed {
                    out.push_str(&format!("- {name} ({} bytes)\n", text.len()));
                }
                done(out)
            }
            "create" => {
                let path = checked(command.path.as_deref(), "path")?;
                if path == ROOT {
                    return Err(error(format!("{ROOT} is the directory; name a file inside it")));
                }
                if files.keys().any(|name| within(name, &path) && *name != path) {
                    return Err(error(format!("{path} is a directory")));
                }
                let Some(text) = command.file_text else {
                    return Err(error("memory create needs `file_text`"));
                };
                if !files.contains_key(&path) && files.len() >= MAX_FILES {
                    return Err(error(format!(
                        "the directory holds {MAX_FILES} notes, its limit; delete one first"
                    )));
                }
                let content = self.keepable(text)?;
                self.write(&notes, &Entry::Put { path: path.clone(), content }, entries).await?;
                done(format!("File created successfully at {path}"))
            }
            "str_replace" => {
                let path = checked(command.path.as_deref(), "path")?;
                let Some(text) = files.get(&path) else {
                    return Err(error(format!("{path} does not exist")));
                };
                let Some(old) = command.old_str.filter(|old| !old.is_empty()) else {
                    return Err(error("memory str_replace needs a non-empty `old_str`"));
                };
                let new = command.new_str.unwrap_or_default();
                match text.matches(old.as_str()).count() {
                    0 => return Err(error(format!("old_str does not occur in {path}; nothing was changed"))),
                    1 => {}
                    n => return Err(error(format!("old_str occurs {n} times in {path}; make it unique"))),
                }
                let content = self.keepable(text.replacen(old.as_str(), &new, 1))?;
                self.write(&notes, &Entry::Put { path: path.clone(), content }, entries).await?;
                done(format!("The note {path} has been edited"))
            }
            "insert" => {
                let path = checked(command.path.as_deref(), "path")?;
                let Some(text) = files.get(&path) else {
                    return Err(error(format!("{path} does not exist")));
                };
                let Some(at) = command.insert_line else {
                    return Err(error("memory insert needs `insert_line`"));
                };
                let Some(insert) = command.insert_text else {
                    return Err(error("memory insert needs `insert_text`"));
                };
                let mut lines: Vec<&str> = text.lines().collect();
                let Some(at) = usize::try_from(at).ok().filter(|at| *at <= lines.len()) else {
                    return Err(error(format!("insert_line must be between 0 and {}", lines.len())));
                };
                let inserted: Vec<&str> = insert.lines().collect();
                lines.splice(at..at, inserted);
                let mut content = lines.join("\n");
                if text.ends_with('\n') || text.is_empty() {
                    content.push('\n');
                }
                let content = self.keepable(content)?;
                self.write(&notes, &Entry::Put { path: path.clone(), content }, entries).await?;
                done(format!("The note {path} has been edited"))
            }
            "delete" => {
                let path = checked(command.path.as_deref(), "path")?;
                if path == ROOT {
                    return Err(error(format!(
                        "{ROOT} itself cannot be deleted; delete its notes one by one"
                    )));
                }
                if !files.keys().any(|name| within(name, &path)) {
                    return Err(error(format!("{path} does not exist")));
                }
                self.write(&notes, &Entry::Delete { path: path.clone() }, entries).await?;
                done(format!("Deleted {path}"))
            }
            "rename" => {
                let from = checked(command.old_path.as_deref(), "old_path")?;
                let to = checked(command.new_path.as_deref(), "new_path")?;
                if from == ROOT || to == ROOT || within(&to, &from) {
                    return Err(error(
                        "rename needs two different paths, neither the root nor inside the other",
                    ));
                }
                if !files.keys().any(|name| within(name, &from)) {
                    return Err(error(format!("{from} does not exist")));
                }
                if files.keys().any(|name| within(name, &to)) {
                    return Err(error(format!("{to} already exists")));
                }
                self.write(&notes, &Entry::Rename { from: from.clone(), to: to.clone() }, entries).await?;
                done(format!("Renamed {from} to {to}"))
            }
            other => Err(error(format!(
                "unknown memory command {:?}; the commands are view, create, str_replace, insert, delete, rename",
                other.chars().take(40).collect::<String>()
            ))),
        }
    }
}

/// The JSON Schema of the `memory` tool's arguments, in the strict-mode subset: every field present, those a command does not use null.
pub(crate) fn schema() -> Value {
    let text =
        |description: &str| serde_json::json!({"type": ["string", "null"], "description": description});
    serde_json::json!({
        "type": "object",
        "properties": {
            "command": {"type": "string", "enum": ["view", "create", "str_replace", "insert", "delete", "rename"],
                        "description": "What to do."},
            "path": text("The file or directory, inside /memories (view, create, str_replace, insert, delete)."),
            "file_text": text("The whole content of the file to create."),
            "old_str": text("The text to replace; it must occur exactly once (str_replace)."),
            "new_str": text("The text to put in its place (str_replace)."),
            "insert_line": {"type": ["integer", "null"], "description": "The line after which to insert; 0 for the start (insert)."},
            "insert_text": text("The text to insert (insert)."),
            "view_range": {"type": ["array", "null"], "items": {"type": "integer"},
                           "description": "The first and last line to show, 1-based; -1 for the end (view)."},
            "old_path": text("The path to rename (rename)."),
            "new_path": text("Its new path (rename)."),
        },
        "required": ["command", "path", "file_text", "old_str", "new_str", "insert_line", "insert_text",
                     "view_range", "old_path", "new_path"],
        "additionalProperties": false,
    })
}

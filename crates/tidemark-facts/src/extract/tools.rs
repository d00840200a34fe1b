//! The bounded path through tool results: only the shapes of a made artifact are read ("Created branch …", a JSON object with an id and a "created" status), never the rest of the output.

use serde_json::{Map, Value};

use super::details::{artifact, identifier, made_clause};

/// Tool output longer than this, in bytes, is data, not an acknowledgement: only its first lines are read.
const MAX_SCANNED_BYTES: usize = 16 * 1024;

/// The most lines of one tool result read for artifacts.
const MAX_SCANNED_LINES: usize = 60;

/// The most artifacts one tool result yields.
const MAX_ARTIFACTS: usize = 4;

/// Statuses that say a tool made something.
const MADE_STATUSES: &[&str] = &[
    "created",
    "opened",
    "open",
    "new",
    "pushed",
    "written",
    "saved",
    "filed",
    "submitted",
    "queued",
    "merged",
    "published",
    "uploaded",
    "scheduled",
    "booked",
    "reserved",
    "issued",
    "provisioned",
    "registered",
    "added",
    "deployed",
    "started",
    "launched",
    "accepted",
];

/// Verbs that open the name of a tool that makes things (`create_ticket`, `open_issue`, `push_branch`).
const MAKING_TOOLS: &[&str] = &[
    "create",
    "open",
    "new",
    "push",
    "write",
    "file",
    "submit",
    "add",
    "post",
    "publish",
    "upload",
    "make",
    "book",
    "reserve",
    "schedule",
    "register",
    "provision",
    "deploy",
    "raise",
    "save",
    "export",
    "generate",
];

/// Verbs that open the name of a tool that reads, searches or changes existing records (`get_reservation_details`,
/// `update_order`): what they return was not made by the call.
const RECORD_TOOLS: &[&str] = &[
    "get",
    "list",
    "read",
    "fetch",
    "search",
    "find",
    "lookup",
    "show",
    "describe",
    "query",
    "check",
    "view",
    "inspect",
    "update",
    "modify",
    "edit",
    "patch",
    "set",
    "cancel",
    "delete",
    "remove",
    "calculate",
    "count",
];

/// Keys that hold the identifier of what was made, most specific first; keys ending in `_id` come after them.
const ID_KEYS: &[&str] = &["id", "key", "number", "name", "branch", "ref", "tag", "path", "file"];

/// Keys that hold the address of what was made, tried after every identifier key.
const URL_KEYS: &[&str] = &["html_url", "url"];

/// The artifacts one tool result reports, as short clauses, each with the tool's name when it is known.
pub(super) fn tool_artifacts(content: &str, tool: Option<&str>) -> Vec<String> {
    let trimmed = content.trim();
    let mut found = Vec::new();
    if trimmed.starts_with('{') && trimmed.len() <= MAX_SCANNED_BYTES {
        if let Ok(Value::Object(object)) = serde_json::from_str::<Value>(trimmed) {
            found.extend(json_artifact(&object, tool));
        }
        return found;
    }
    if let Some(clause) = made_url(trimmed, tool) {
        found.push(clause);
        return found;
    }
    let mut scanned = 0;
    for line in trimmed.lines().take(MAX_SCANNED_LINES) {
        scanned += line.len();
        if scanned > MAX_SCANNED_BYTES || found.len() >= MAX_ARTIFACTS {
            break;
        }
        if line.len() <= 300
            && let Some(clause) = artifact(line)
        {
            found.push(clause);
        }
    }
    if let Some(tool) = tool {
        for clause in &mut found {
            clause.push_str(&format!(" ({tool})"));
        }
    }
    found
}

/// A result that is one bare URL from a tool whose name opens with a verb of making (`create_pr`
/// answering `https://git.example/acme/api/pull/4821`): the address of the thing it made.
fn made_url(content: &str, tool: Option<&str>) -> Option<String> {
    let tool = tool?;
    let lower = tool.to_lowercase();
    let mut parts = lower.split(['_', '-', '.']);
    let verb = parts.next().unwrap_or_default();
    if !MAKING_TOOLS.contains(&verb)
        || content.len() > 200
        || content.contains(char::is_whitespace)
        || !(content.starts_with("https://") || content.starts_with("http://"))
    {
        return None;
    }
    let thing = parts.next().filter(|thing| thing.len() <= 24).unwrap_or_default();
    Some(format!("{} ({tool})", made_clause(thing, content, "created")))
}

/// The artifact a JSON object reports: an identifier, and a sign that it was just made.
///
/// The sign is a status among [`MADE_STATUSES`], a `created` flag or time,
/// or a tool whose name opens with a verb of making. One nested object under
/// `data`, `result` or the like is looked into when the top level has no
/// identifier.
fn json_artifact(object: &Map<String, Value>, tool: Option<&str>) -> Option<String> {
    let (object, nested_key) = match find_id(object) {
        Some(_) => (object, None),
        None => object.iter().find_map(|(key, value)| match value {
            Value::Object(inner) if find_id(inner).is_some() => Some((inner, Some(key.as_str()))),
            _ => None,
        })?,
    };
    let (key, id) = find_id(object)?;
    let status = ["status", "state", "result", "action", "event", "outcome"]
        .iter()
        .find_map(|key| object.get(*key).and_then(Value::as_str))
        .map(str::to_lowercase);
    let status_made = status.as_deref().filter(|status| MADE_STATUSES.contains(status));
    // A creation time is no sign: every stored record has one, whoever reads it.
    let flagged = object.get("created").is_some_and(|created| created.as_bool() == Some(true));
    let verb =
        tool.map(|tool| tool.to_lowercase().split(['_', '-', '.']).next().unwrap_or_default().to_owned());
    // A tool that reads or changes a record returns the record, not something it made.
    if verb.as_deref().is_some_and(|verb| RECORD_TOOLS.contains(&verb)) {
        return None;
    }
    let tool_verb = tool.and_then(|tool| {
        let lower = tool.to_lowercase();
        let verb = lower.split(['_', '-', '.']).next().unwrap_or_default().to_owned();
        MAKING_TOOLS.contains(&verb.as_str()).then_some(lower)
    });
    if status_made.is_none() && !flagged && tool_verb.is_none() {
        return None;
    }
    let participle = match status_made {
        Some("open" | "new") | None => "created",
        Some(status) => status,
    };
    let thing = ["type", "kind", "object"]
        .iter()
        .find_map(|key| object.get(*key).and_then(Value::as_str))
        .filter(|thing| {
            thing.len() <= 24 && thing.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ' ')
        })
        .map(|thing| thing.replace('_', " "))
        .or_else(|| key.strip_suffix("_id").or_else(|| key.strip_suffix("Id")).map(str::to_owned))
        .or_else(|| nested_key.filter(|key| key.len() <= 24).map(str::to_owned))
        .or_else(|| {
            tool_verb.as_deref().and_then(|tool| tool.split(['_', '-', '.']).nth(1)).map(str::to_owned)
        })
        .unwrap_or_default();
    let mut clause = made_clause(&thing, &id, participle);
    if let Some(url) =
        ["html_url", "url", "link"].iter().find_map(|key| object.get(*key).and_then(Value::as_str))
        && url != id
        && url.len() <= 120
        && url.starts_with("http")
    {
        clause.push_str(&format!(", at {url}"));
    }
    if let Some(tool) = tool {
        clause.push_str(&format!(" ({tool})"));
    }
    Some(clause)
}

/// The key and text of the identifier in `object`: the first of [`ID_KEYS`], a key ending in `_id`
/// or [`URL_KEYS`], in that order, whose value is identifier-shaped.
fn find_id(object: &Map<String, Value>) -> Option<(String, String)> {
    let text = |value: &Value| match value {
        Value::String(text) if text.len() <= 120 => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    };
    let keys = ID_KEYS
        .iter()
        .map(|key| (*key).to_owned())
        .chain(object.keys().filter(|key| key.ends_with("_id") || key.ends_with("Id")).cloned())
        .chain(URL_KEYS.iter().map(|key| (*key).to_owned()));
    for key in keys {
        if let Some(value) = object.get(&key).and_then(text)
            && identifier(&value)
        {
            return Some((key, value));
        }
    }
    None
}

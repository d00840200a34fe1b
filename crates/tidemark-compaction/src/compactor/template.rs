//! [`TemplateCompactor`]: a rolling summary without a model, one line per evicted message, the newest lines kept under a byte cap.

use serde::{Deserialize, Serialize};
use tidemark_core::{CompactionError, Compactor, ConversationId, Message};

use crate::strategy::cap_bytes;
use crate::transcript::{self, Style};

/// The artifact of [`TemplateCompactor`]: the summary's lines, oldest first, and how many older lines were rolled out.
///
/// ```
/// use tidemark_compaction::TemplateSummary;
///
/// let summary = TemplateSummary::new(vec!["user: ship it on Friday".into()], 3);
/// assert_eq!(summary.bytes(), "user: ship it on Friday\n".len());
/// let json = serde_json::to_string(&summary)?;
/// assert_eq!(json, r#"{"lines":["user: ship it on Friday"],"dropped":3}"#);
/// assert_eq!(serde_json::from_str::<TemplateSummary>(&json)?, summary);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TemplateSummary {
    /// One line per evicted message (or hint), oldest first.
    pub lines: Vec<String>,
    /// How many lines were rolled out under the cap over the summary's life, so a reader knows something is missing.
    #[serde(default)]
    pub dropped: u64,
}

impl TemplateSummary {
    /// A summary of `lines` after `dropped` older lines were rolled out.
    pub fn new(lines: Vec<String>, dropped: u64) -> Self {
        Self { lines, dropped }
    }

    /// The size the cap measures: the bytes of every line plus one per line for its newline.
    pub fn bytes(&self) -> usize {
        self.lines.iter().map(|line| line.len() + 1).sum()
    }
}

/// A [`Compactor`] that needs no model: it appends one line per evicted message to the summary and rolls the oldest lines out once the summary is over its byte cap.
///
/// Lines come from [`transcript::entries`] with [`Style::compact`]: each
/// message on one line, tool calls and results written as text, and every
/// part (text, tool arguments, tool result) cut to
/// [`max_part_bytes`](Self::with_max_part_bytes) with a marker counting what
/// was cut. A hint from the memory layer becomes a `hint: …` line.
///
/// The cap counts the bytes of all lines plus one per line. Above it the
/// oldest lines go first and are counted in [`TemplateSummary::dropped`]; a
/// single line longer than the whole cap is cut (ending in `…`) rather than
/// dropped, so the newest content is never lost entirely (only a cap under
/// five bytes, too small for one character and a newline, can leave nothing).
/// It never fails.
///
/// ```
/// use tidemark_compaction::TemplateCompactor;
/// use tidemark_core::{Compactor, ConversationId, Message};
///
/// let compactor = TemplateCompactor::new().with_max_bytes(Some(40));
/// let id = ConversationId::new("demo")?;
/// let evicted = [Message::user("Where is the deploy key?"), Message::assistant("In secret/ci/deploy.")];
/// let summary = futures::executor::block_on(compactor.compact(&id, &evicted, None, None))?;
/// // Both lines do not fit in 40 bytes: the older one was rolled out.
/// assert_eq!(summary.lines, ["assistant: In secret/ci/deploy."]);
/// assert_eq!(summary.dropped, 1);
/// assert_eq!(
///     compactor.render(&summary).text(),
///     "Summary of earlier conversation (1 older line omitted):\nassistant: In secret/ci/deploy."
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TemplateCompactor {
    max_bytes: Option<usize>,
    max_part_bytes: usize,
}

impl Default for TemplateCompactor {
    fn default() -> Self {
        Self::new()
    }
}

impl TemplateCompactor {
    /// The default cap on the whole summary, in bytes: about a thousand tokens of English.
    pub const DEFAULT_MAX_BYTES: usize = 4096;

    /// The default cap on each part of a message's line, in bytes.
    pub const DEFAULT_MAX_PART_BYTES: usize = 300;

    /// A compactor with the default caps: [`DEFAULT_MAX_BYTES`](Self::DEFAULT_MAX_BYTES)
    /// for the summary and [`DEFAULT_MAX_PART_BYTES`](Self::DEFAULT_MAX_PART_BYTES) per part.
    pub fn new() -> Self {
        Self { max_bytes: Some(Self::DEFAULT_MAX_BYTES), max_part_bytes: Self::DEFAULT_MAX_PART_BYTES }
    }

    /// The same compactor with the summary capped at `max_bytes` (lines plus their newlines); `None` keeps every line.
    ///
    /// `Some(0)` is allowed and keeps no line at all, only the count of what was dropped.
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: Option<usize>) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// The same compactor with each part of a message (text, tool arguments, tool result) cut to `max_part_bytes`.
    ///
    /// The cut part ends in a marker such as `… [+1840 bytes]`. A line also
    /// names its speaker and tools, and a message with several parts (parallel
    /// tool calls) has one allowance per part, so a line can be longer than this.
    #[must_use]
    pub fn with_max_part_bytes(mut self, max_part_bytes: usize) -> Self {
        self.max_part_bytes = max_part_bytes;
        self
    }

    /// The cap on the whole summary (`None`: unbounded).
    pub fn max_bytes(&self) -> Option<usize> {
        self.max_bytes
    }

    /// The cap on each part of a line.
    pub fn max_part_bytes(&self) -> usize {
        self.max_part_bytes
    }

    /// The new summary: `carry_over`'s lines, the hint, one line per evicted message, then the cap.
    fn fold(
        &self,
        evicted: &[Message],
        carry_over: Option<&TemplateSummary>,
        hint: Option<&str>,
    ) -> TemplateSummary {
        let mut summary = carry_over.cloned().unwrap_or_default();
        if let Some(hint) = hint {
            summary.lines.push(hint_line(hint, self.max_part_bytes));
        }
        summary.lines.extend(transcript::entries(evicted, Style::compact(self.max_part_bytes)));
        if let Some(max_bytes) = self.max_bytes {
            enforce_cap(&mut summary, max_bytes);
        }
        summary
    }
}

impl Compactor for TemplateCompactor {
    type Artifact = TemplateSummary;

    fn name(&self) -> &str {
        "template"
    }

    async fn compact(
        &self,
        _conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&TemplateSummary>,
        hint: Option<&str>,
    ) -> Result<TemplateSummary, CompactionError> {
        Ok(self.fold(evicted, carry_over, hint))
    }

    fn render(&self, artifact: &TemplateSummary) -> Message {
        let mut text = match artifact.dropped {
            0 => String::from("Summary of earlier conversation:"),
            1 => String::from("Summary of earlier conversation (1 older line omitted):"),
            n => format!("Summary of earlier conversation ({n} older lines omitted):"),
        };
        for line in &artifact.lines {
            text.push('\n');
            text.push_str(line);
        }
        Message::system(text)
    }
}

/// What ends a line that was cut to fit the whole cap.
const CUT_MARK: &str = "…";

/// The line that records a hint: on one line, its text cut like a part.
fn hint_line(hint: &str, max_part_bytes: usize) -> String {
    let flat = hint.split_whitespace().collect::<Vec<_>>().join(" ");
    let kept = cap_bytes(&flat, max_part_bytes);
    if kept.len() < flat.len() {
        format!("hint: {kept}… [+{} bytes]", flat.len() - kept.len())
    } else {
        format!("hint: {flat}")
    }
}

/// Roll the oldest lines out until the summary fits `max_bytes`, cutting the last one if it alone is too long.
fn enforce_cap(summary: &mut TemplateSummary, max_bytes: usize) {
    let mut total = summary.bytes();
    let mut first_kept = 0;
    while total > max_bytes && summary.lines.len() - first_kept > 1 {
        total -= summary.lines[first_kept].len() + 1;
        first_kept += 1;
    }
    summary.lines.drain(..first_kept);
    summary.dropped = summary.dropped.saturating_add(first_kept as u64);
    if total <= max_bytes {
        return;
    }
    // Only the newest line is left and it alone is over the cap: keep its
    // beginning (the speaker and the start of what was said) rather than nothing.
    let Some(line) = summary.lines.pop() else { return };
    // The mark is left out when it would leave no room for even the first character.
    let room = max_bytes.saturating_sub(1);
    let marked = cap_bytes(&line, room.saturating_sub(CUT_MARK.len()));
    let cut =
        if marked.is_empty() { cap_bytes(&line, room).to_owned() } else { format!("{marked}{CUT_MARK}") };
    if cut.is_empty() {
        summary.dropped = summary.dropped.saturating_add(1);
    } else {
        summary.lines.push(cut);
    }
}

#[cfg(test)]
mod tests;

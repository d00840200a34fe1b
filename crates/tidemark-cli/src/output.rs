//! Writing results: transcripts in the format they were read in (or asked for), statistics on standard error.

use std::io::Write;
use std::path::Path;

use serde::Serialize;
use tidemark_core::Message;

use crate::args::StatsFormat;
use crate::error::CliError;
use crate::format::Shape;

/// Write `messages` in `shape` (JSON lines for OpenAI chat, one document for the others) to `path`, or to standard output.
pub(crate) fn write_transcript(
    messages: &[Message],
    shape: &Shape,
    path: Option<&Path>,
) -> Result<(), CliError> {
    let text = shape.write(messages)?;
    let written = match path {
        Some(path) => std::fs::write(path, text),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush())
        }
    };
    written.map_err(|error| CliError::runtime("writing the output", error))
}

/// The statistics every command that changes a history reports.
#[derive(Debug, Default, Serialize)]
pub(crate) struct Stats {
    pub(crate) messages_in: usize,
    pub(crate) messages_out: usize,
    pub(crate) tokens_in: u64,
    pub(crate) tokens_out: u64,
    pub(crate) budget: Option<u32>,
    pub(crate) strategy: String,
    pub(crate) outcome: String,
    pub(crate) repaired: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) compacted: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) summary_generation: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
}

impl Stats {
    /// Print on standard error in `format`.
    pub(crate) fn print(&self, format: StatsFormat) {
        match format {
            StatsFormat::Json => {
                eprintln!("{}", serde_json::to_string(self).unwrap_or_else(|_| String::from("{}")));
            }
            StatsFormat::Text => {
                let budget = self.budget.map_or_else(|| String::from("none"), |b| b.to_string());
                eprintln!(
                    "{} messages / {} tokens in, {} messages / {} tokens out (budget {budget}); strategy {}, outcome {}{}",
                    self.messages_in,
                    self.tokens_in,
                    self.messages_out,
                    self.tokens_out,
                    self.strategy,
                    self.outcome,
                    if self.repaired > 0 { format!(", {} repaired", self.repaired) } else { String::new() },
                );
            }
        }
    }
}

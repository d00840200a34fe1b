//! The replay report: what each prompt was made of and what the prompt cache made of it, as a table for the terminal, one JSON object, or a self-contained HTML page (`report/html.rs`).

mod html;

use std::fmt::Write as _;
use std::time::Duration;

use serde_json::{Value, json};
use tidemark_core::cache::{CacheTotals, TurnCache};
use tidemark_core::{CompactionEvent, ContentHash, Message, Role, TokenCounter};

pub(crate) use html::html;

/// The tokens of one prompt by what they are, in the order a compacting memory lays them out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Parts {
    /// System and pinned messages, and the reply priming.
    pub(crate) fixed: u64,
    /// The rolling summary.
    pub(crate) summary: u64,
    /// The long-term facts block.
    pub(crate) facts: u64,
    /// The recalled passages block.
    pub(crate) recall: u64,
    /// The rest of the window: the conversation's recent turns.
    pub(crate) window: u64,
}

impl Parts {
    /// The parts in stacking order, bottom first, each with its name.
    pub(crate) fn layers(&self) -> [(&'static str, u64); 5] {
        [
            ("system and pinned", self.fixed),
            ("summary", self.summary),
            ("facts", self.facts),
            ("recall", self.recall),
            ("window", self.window),
        ]
    }

    pub(crate) fn total(&self) -> u64 {
        self.layers().iter().map(|(_, tokens)| tokens).sum()
    }
}

/// Sorts the prompt's tokens into [`Parts`]: the stored summary is told by its content hash, the context blocks by the tag they open with, and system or pinned messages by their role and flag.
///
/// It reads only the prompt, so it holds whatever order the memory chose.
pub(crate) fn compose(
    prompt: &[Message],
    summary: Option<&ContentHash>,
    counter: &dyn TokenCounter,
) -> Parts {
    let mut parts = Parts { fixed: u64::from(counter.prompt_overhead()), ..Parts::default() };
    for message in prompt {
        let tokens = u64::from(counter.count(message));
        let text = message.text();
        let slot = if summary.is_some_and(|hash| *hash == ContentHash::of(message)) {
            &mut parts.summary
        } else if message.role == Role::System && text.starts_with(tidemark_facts::coordinator::OPEN) {
            &mut parts.facts
        } else if message.role == Role::System && text.starts_with(tidemark_facts::recall::OPEN) {
            &mut parts.recall
        } else if message.role == Role::System || message.pinned {
            &mut parts.fixed
        } else {
            &mut parts.window
        };
        *slot += tokens;
    }
    parts
}

/// One turn of a replay.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Point {
    pub(crate) turn: usize,
    /// Tokens of the whole history so far, as if nothing were ever removed.
    pub(crate) raw: u64,
    /// Tokens of the prompt the memory loaded.
    pub(crate) prompt: u64,
    /// Whether this turn's load compacted.
    pub(crate) compacted: bool,
    /// What the prompt was made of.
    pub(crate) parts: Parts,
    /// What the prompt cache read and wrote for it.
    pub(crate) cache: TurnCache,
}

impl Point {
    /// Whether this prompt no longer starts with the whole previous one.
    pub(crate) fn breaks_cache(&self) -> bool {
        self.turn > 1 && !self.cache.extends
    }
}

/// A compaction and the turn whose load ran it.
#[derive(Clone, Debug)]
pub(crate) struct Compaction {
    pub(crate) turn: usize,
    pub(crate) event: CompactionEvent,
}

/// The figures of a whole replay.
#[derive(Clone, Debug)]
pub(crate) struct Summary {
    pub(crate) turns: usize,
    pub(crate) raw_tokens: u64,
    pub(crate) largest_prompt: u64,
    /// The prompt's tokens, averaged over the turns.
    pub(crate) mean_prompt: f64,
    pub(crate) budget: u32,
    pub(crate) compactions: usize,
    pub(crate) summarizer_calls: usize,
    /// Loads that served the previous summary while a background compaction was pending.
    pub(crate) deferred: usize,
    pub(crate) p50: Duration,
    pub(crate) p99: Duration,
    pub(crate) total: Duration,
    pub(crate) file: String,
    /// What the prompt cache would have read and written, and at what prices.
    pub(crate) cache: CacheTotals,
    /// What recall did, when the replay used it.
    pub(crate) recall: Option<tidemark_facts::RecallCounters>,
    /// What the compactions dropped: the identifiers of the messages below the final watermark that the last prompt does not hold.
    pub(crate) dropped: tidemark_core::dropped::Dropped,
}

impl Summary {
    /// The mean prompt as a share of the budget.
    pub(crate) fn mean_share(&self) -> f64 {
        self.mean_prompt / f64::from(self.budget.max(1))
    }

    /// The prices, in a few words.
    pub(crate) fn prices(&self) -> String {
        let prices = self.cache.prices;
        let mut text = format!("reads at {}×, writes at {}×", prices.read, prices.write);
        if prices.min_prefix > 0 {
            let _ = write!(text, ", prefixes from {} tokens", thousands(prices.min_prefix));
        }
        text
    }

    fn rows(&self) -> Vec<(&'static str, String)> {
        let cache = &self.cache;
        let mut rows = vec![
            ("turns", self.turns.to_string()),
            ("raw history tokens", self.raw_tokens.to_string()),
            ("largest prompt", format!("{} (budget {})", self.largest_prompt, self.budget)),
            (
                "mean prompt",
                format!("{:.0} ({:.1}% of the budget)", self.mean_prompt, 100.0 * self.mean_share()),
            ),
            ("compactions", self.compactions.to_string()),
            ("summarizer calls", self.summarizer_calls.to_string()),
            ("loads served while pending", self.deferred.to_string()),
            ("extends previous", percent(cache.extension_share(), "of turns after the first")),
            ("cached input", percent(cache.cached_share(), "of input tokens")),
            (
                "cost vs no cache",
                format!(
                    "{} ({})",
                    cache.cost_ratio().map_or_else(|| "n/a".to_owned(), |r| format!("{r:.2}×")),
                    self.prices()
                ),
            ),
            (
                "identifiers dropped",
                format!(
                    "{} of {} (in {} compacted messages)",
                    self.dropped.lost.len(),
                    self.dropped.identifiers,
                    self.dropped.evicted
                ),
            ),
            ("p50 load", format!("{:.1} µs", self.p50.as_secs_f64() * 1e6)),
            ("p99 load", format!("{:.1} µs", self.p99.as_secs_f64() * 1e6)),
            ("total", format!("{:.1} ms", self.total.as_secs_f64() * 1e3)),
        ];
        if let Some(recall) = &self.recall {
            rows.push(("recall hits", format!("{} of {} loads", recall.hits, recall.loads)));
            rows.push(("passages quoted", recall.quoted.to_string()));
            rows.push(("passages withheld", format!("{} (security scan)", recall.withheld)));
        }
        rows
    }

    /// The table printed at the end of a replay.
    pub(crate) fn table(&self) -> String {
        let mut table = String::new();
        for (name, value) in self.rows() {
            let _ = writeln!(table, "{name:<20} {value}");
        }
        table.trim_end().to_owned()
    }

    /// The figures as one JSON object, shares as fractions and durations in microseconds.
    pub(crate) fn json(&self) -> Value {
        let cache = &self.cache;
        let mut value = json!({
            "file": self.file,
            "turns": self.turns,
            "raw_tokens": self.raw_tokens,
            "budget": self.budget,
            "largest_prompt": self.largest_prompt,
            "mean_prompt": self.mean_prompt,
            "mean_prompt_share": self.mean_share(),
            "compactions": self.compactions,
            "summarizer_calls": self.summarizer_calls,
            "deferred_loads": self.deferred,
            "cache": {
                "read": cache.prices.read,
                "write": cache.prices.write,
                "min_prefix": cache.prices.min_prefix,
                "extension_share": cache.extension_share(),
                "cached_share": cache.cached_share(),
                "cost_ratio": cache.cost_ratio(),
                "cached_tokens": cache.cached,
                "input_tokens": cache.input,
            },
            "dropped": {
                "evicted": self.dropped.evicted,
                "identifiers": self.dropped.identifiers,
                "lost": self.dropped.lost.iter().map(|lost| json!({"seq": lost.seq.0, "identifier": lost.identifier})).collect::<Vec<_>>(),
            },
            "p50_load_us": self.p50.as_secs_f64() * 1e6,
            "p99_load_us": self.p99.as_secs_f64() * 1e6,
            "total_ms": self.total.as_secs_f64() * 1e3,
        });
        if let (Some(recall), Some(object)) = (&self.recall, value.as_object_mut()) {
            object.insert(
                "recall".to_owned(),
                json!({"loads": recall.loads, "hits": recall.hits, "quoted": recall.quoted, "withheld": recall.withheld}),
            );
        }
        value
    }
}

fn percent(share: Option<f64>, of: &str) -> String {
    share.map_or_else(|| "n/a".to_owned(), |share| format!("{:.1}% {of}", 100.0 * share))
}

/// `n` with a comma between each group of three digits.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

#[cfg(test)]
mod tests;

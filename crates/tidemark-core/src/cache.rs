//! The prompt cache's bill: how much of each prompt a provider can read from its cache, and what a run of prompts costs against sending every token uncached.
//!
//! Providers keep the prompt they last saw and bill a later prompt's shared
//! prefix at a fraction of the input price (a cache read), and the rest at
//! the input price or above it (a cache write). Whether a memory keeps the
//! prompt cache warm is therefore a property of the *sequence* of prompts it
//! serves: a prompt that starts with the whole previous prompt pays the read
//! price for all of it, and a compaction that rewrites the front of the
//! prompt pays the write price again for everything after the change.
//!
//! [`CacheLedger`] follows a conversation's prompts one call at a time and
//! prices them with [`CachePrices`]. The model is deliberately simple:
//!
//! - The cache holds the previous prompt only, and the part of a prompt read
//!   from it is the longest run of leading messages equal to the previous
//!   prompt's (compared by [`ContentHash`], or by any key the caller gives).
//!   Providers match tokens, not messages, so this never overstates the cache.
//! - Every token not read from the cache is billed at the write price, as if
//!   each request marked its last block for caching (Anthropic's
//!   `cache_control` on the last block; OpenAI caches automatically and bills
//!   writes at the plain input price, a write price of 1).
//! - A shared prefix shorter than [`CachePrices::min_prefix`] is not cached:
//!   providers cache nothing below a minimum length (1,024 tokens for the
//!   Claude Sonnet and Opus models and for OpenAI). The default has no
//!   minimum, the Anthropic presets use 1,024.
//! - Entries never expire: a replay has no clock, and an agent loop calls
//!   again within the five-minute lifetime.
//!
//! ```
//! use tidemark_core::cache::{CacheLedger, CachePrices};
//! use tidemark_core::{HeuristicCounter, Message};
//!
//! let counter = HeuristicCounter::default();
//! let mut ledger = CacheLedger::new(CachePrices::default());
//! let mut prompt = vec![Message::system("You are a careful coding agent."), Message::user("Hello")];
//! let first = ledger.record_prompt(&prompt, &counter);
//! assert_eq!(first.cached, 0);
//! prompt.push(Message::assistant("Hi."));
//! prompt.push(Message::user("Read Cargo.toml."));
//! let second = ledger.record_prompt(&prompt, &counter);
//! assert!(second.extends && second.cached > 0);
//! // A compaction that rewrites the front of the prompt breaks the cache.
//! let third = ledger.record_prompt(&[Message::system("Summary: a greeting."), Message::user("Read Cargo.toml.")], &counter);
//! assert!(!third.extends);
//! let totals = ledger.totals();
//! assert_eq!(totals.extension_share(), Some(0.5));
//! assert!(totals.cost_ratio().is_some_and(|ratio| ratio < 1.25));
//! ```

pub use crate::error::PriceError;

use crate::counter::TokenCounter;
use crate::hash::ContentHash;
use crate::message::Message;

/// What a provider charges for input tokens, as multiples of its plain input price, and the shortest prefix it caches.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct CachePrices {
    /// The price of a token read from the cache (0.1 for Anthropic's and OpenAI's newer models).
    pub read: f64,
    /// The price of a token not read from the cache, which is written to it (1.25 for Anthropic's five-minute cache).
    pub write: f64,
    /// A shared prefix shorter than this many tokens is not cached and pays the write price.
    pub min_prefix: u64,
}

impl Default for CachePrices {
    /// Reads at 0.1, writes at 1.25, no minimum prefix.
    fn default() -> Self {
        Self { read: 0.1, write: 1.25, min_prefix: 0 }
    }
}

impl CachePrices {
    /// Prices `read` and `write` with no minimum prefix; each must be a finite number, zero or more.
    ///
    /// ```
    /// use tidemark_core::cache::CachePrices;
    ///
    /// let openai = CachePrices::new(0.5, 1.0)?.with_min_prefix(1_024);
    /// assert_eq!(openai.read, 0.5);
    /// assert!(CachePrices::new(-0.1, 1.0).is_err());
    /// # Ok::<(), tidemark_core::cache::PriceError>(())
    /// ```
    pub fn new(read: f64, write: f64) -> Result<Self, PriceError> {
        for (name, value) in [("read", read), ("write", write)] {
            if !value.is_finite() || value < 0.0 {
                return Err(PriceError::Invalid { name, value });
            }
        }
        Ok(Self { read, write, min_prefix: 0 })
    }

    /// Anthropic's five-minute cache: reads at 0.1, writes at 1.25, prefixes from 1,024 tokens.
    pub fn anthropic_five_minutes() -> Self {
        Self { read: 0.1, write: 1.25, min_prefix: 1_024 }
    }

    /// Anthropic's one-hour cache: reads at 0.1, writes at 2, prefixes from 1,024 tokens.
    pub fn anthropic_one_hour() -> Self {
        Self { read: 0.1, write: 2.0, min_prefix: 1_024 }
    }

    /// These prices with a shared prefix cached only from `tokens` tokens on.
    #[must_use]
    pub fn with_min_prefix(mut self, tokens: u64) -> Self {
        self.min_prefix = tokens;
        self
    }
}

/// One prompt's part of the bill.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TurnCache {
    /// Whether the prompt starts with the whole previous prompt (false for the first prompt, which has none).
    pub extends: bool,
    /// Tokens read from the cache: the prefix shared with the previous prompt, when it is long enough to be cached.
    pub cached: u64,
    /// Tokens written: the rest of the prompt.
    pub written: u64,
}

impl TurnCache {
    /// All the prompt's input tokens.
    pub fn input(&self) -> u64 {
        self.cached + self.written
    }
}

/// The sums over every prompt a [`CacheLedger`] recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct CacheTotals {
    /// The prices the prompts were billed at.
    pub prices: CachePrices,
    /// Prompts recorded.
    pub turns: u64,
    /// Prompts, after the first, that start with the whole previous prompt.
    pub extended: u64,
    /// Input tokens read from the cache.
    pub cached: u64,
    /// Input tokens of every prompt.
    pub input: u64,
}

impl CacheTotals {
    /// The share of prompts after the first that extend the previous one, from 0 to 1; `None` with fewer than two prompts.
    pub fn extension_share(&self) -> Option<f64> {
        let followers = self.turns.checked_sub(1).filter(|&n| n > 0)?;
        Some(self.extended as f64 / followers as f64)
    }

    /// The share of input tokens read from the cache, from 0 to 1; `None` without input.
    pub fn cached_share(&self) -> Option<f64> {
        (self.input > 0).then(|| self.cached as f64 / self.input as f64)
    }

    /// The input bill relative to sending every token at the plain price: `(read · cached + write · written) / input`; `None` without input.
    ///
    /// Below 1 the cache saves money; above 1 (up to the write price) it costs more than not caching at all.
    pub fn cost_ratio(&self) -> Option<f64> {
        let written = self.input - self.cached;
        (self.input > 0).then(|| {
            (self.prices.read * self.cached as f64 + self.prices.write * written as f64) / self.input as f64
        })
    }
}

/// The previous prompt and the running totals of a sequence of prompts, keyed by `K` (a message's [`ContentHash`] by default).
///
/// Any key with equality works, so a benchmark can price a peer's prompts in
/// the peer's own message type; see [`record`](CacheLedger::record).
#[derive(Clone, Debug)]
pub struct CacheLedger<K = ContentHash> {
    previous: Vec<(K, u64)>,
    totals: CacheTotals,
}

impl<K: PartialEq> CacheLedger<K> {
    /// An empty ledger billing at `prices`.
    pub fn new(prices: CachePrices) -> Self {
        Self { previous: Vec::new(), totals: CacheTotals { prices, ..CacheTotals::default() } }
    }

    /// Records the next prompt, given as its blocks in order (each a key and its tokens) and the tokens it costs beyond them (`overhead`, never cached, such as the reply priming).
    ///
    /// ```
    /// use tidemark_core::cache::{CacheLedger, CachePrices};
    ///
    /// let mut ledger = CacheLedger::new(CachePrices::default());
    /// ledger.record([("system", 1_000), ("hello", 10)], 3);
    /// let turn = ledger.record([("system", 1_000), ("hello", 10), ("again", 5)], 3);
    /// assert!(turn.extends);
    /// assert_eq!((turn.cached, turn.written), (1_010, 8));
    /// ```
    pub fn record(&mut self, blocks: impl IntoIterator<Item = (K, u64)>, overhead: u64) -> TurnCache {
        let blocks: Vec<(K, u64)> = blocks.into_iter().collect();
        let shared = blocks.iter().zip(&self.previous).take_while(|(new, old)| new.0 == old.0).count();
        let extends = self.totals.turns > 0 && shared == self.previous.len();
        let prefix: u64 = blocks[..shared].iter().map(|(_, tokens)| tokens).sum();
        let total = blocks.iter().map(|(_, tokens)| tokens).sum::<u64>() + overhead;
        let cached = if prefix > 0 && prefix >= self.totals.prices.min_prefix { prefix } else { 0 };
        let turn = TurnCache { extends, cached, written: total - cached };
        self.totals.turns += 1;
        self.totals.extended += u64::from(extends);
        self.totals.cached += turn.cached;
        self.totals.input += turn.input();
        self.previous = blocks;
        turn
    }

    /// The sums so far.
    pub fn totals(&self) -> CacheTotals {
        self.totals
    }
}

impl CacheLedger<ContentHash> {
    /// Records the next prompt: each message keyed by its content hash and counted by `counter`, plus the counter's prompt overhead.
    ///
    /// A message of several parts is priced part by part, as a provider that
    /// caches by content block sees it: block `i` is keyed by the message cut
    /// after its part `i` and counts the tokens that part adds, so a message
    /// that keeps its first parts and adds one (a summary grown by a new
    /// segment) is read from the cache up to the change.
    ///
    /// ```
    /// use tidemark_core::cache::{CacheLedger, CachePrices};
    /// use tidemark_core::{HeuristicCounter, Message, Part, Role};
    ///
    /// let counter = HeuristicCounter::default();
    /// let mut ledger = CacheLedger::new(CachePrices::default());
    /// let summary = |parts: &[&str]| Message::new(Role::System, parts.iter().map(|p| Part::text(*p)).collect());
    /// ledger.record_prompt(&[summary(&["First segment, long enough to matter."]), Message::user("hi")], &counter);
    /// let turn = ledger.record_prompt(&[summary(&["First segment, long enough to matter.", "Second."]), Message::user("hi")], &counter);
    /// assert!(!turn.extends && turn.cached > 0);
    /// ```
    pub fn record_prompt(&mut self, prompt: &[Message], counter: &dyn TokenCounter) -> TurnCache {
        let mut blocks = Vec::with_capacity(prompt.len());
        for message in prompt {
            if message.parts.len() < 2 {
                blocks.push((ContentHash::of(message), u64::from(counter.count(message))));
                continue;
            }
            let mut cut = Message { parts: Vec::with_capacity(message.parts.len()), ..message.clone() };
            let mut before = 0u64;
            for part in &message.parts {
                cut.parts.push(part.clone());
                let tokens = u64::from(counter.count(&cut));
                blocks.push((ContentHash::of(&cut), tokens.saturating_sub(before)));
                before = before.max(tokens);
            }
        }
        self.record(blocks, u64::from(counter.prompt_overhead()))
    }
}

#[cfg(test)]
mod tests;

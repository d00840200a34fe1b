//! Token counting on a fixed corpus: tidemark's counter cold and cached, raw tiktoken-rs, and Python tiktoken.
//!
//! The corpus (built by [`corpus`]) is more than 2 MB of agent messages. Each
//! system counts all of it in `o200k_base` on one thread. An untimed pass comes
//! first and yields every system's count of every text: the counts must be
//! identical across tiktoken-rs, tidemark's `count_text` and Python tiktoken,
//! and the cached message counts must equal the uncached ones, or the run fails,
//! as a benchmark whose systems disagree on the answer compares nothing.
//!
//! The timing then cuts the corpus into [`SLICES`] runs of messages and
//! times [`ROUNDS`] rounds; a round has every system count every slice
//! [`REPEATS`] times in a row, interleaving the systems slice by slice
//! (Python's too, through a script that waits for each request), so that a
//! slow stretch of the machine falls on all systems alike. A system's figure
//! is the sum of its fastest time on each slice: a whole pass made of its best
//! parts.
//!
//! The text counters (tiktoken-rs's `encode_ordinary`, tidemark's `count_text`,
//! Python's `encode_ordinary`) count the same strings and the same tokens. The
//! message counters (`TiktokenCounter::count` and a warm `CachedCounter::count`)
//! count whole messages, framing included, which is what a memory asks for; the
//! cache target compares those two.

mod cookbook;
mod corpus;
mod python;

use std::hint::black_box;
use std::ops::Range;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use tidemark_core::TokenCounter;
use tidemark_memory::{CachedCounter, TiktokenCounter};

use crate::report::{Section, Table, Target, thousands};
use corpus::{Kind, Sample};

/// Where Python tiktoken can be run from, when the xtask could set it up.
#[derive(Debug, Clone)]
pub struct Python {
    /// The interpreter of a virtual environment with `tiktoken` installed.
    pub interpreter: PathBuf,
    /// A directory holding tiktoken's cached rank files, so it never downloads.
    pub cache_dir: PathBuf,
}

/// Options for the counting benchmark.
#[derive(Debug, Clone)]
pub struct Options {
    /// A quick run on a small slice of the corpus, to check that everything works.
    pub smoke: bool,
    /// Python tiktoken, or why it is not available (printed in the report).
    pub python: Result<Python, String>,
    /// A directory for scratch files (the corpus as JSON lines for Python).
    pub work_dir: PathBuf,
}

/// Bytes of text in the full corpus: 2 MiB, so it is over 2 MB by either reading.
const FULL_BYTES: usize = 2 * 1024 * 1024;

/// Bytes of text in the smoke corpus.
const SMOKE_BYTES: usize = 50 * 1024;

/// Timed rounds: in each, every system counts every slice of the corpus [`REPEATS`] times.
///
/// On shared virtual machines the speed of a core can drop by 40% for seconds
/// at a time. Timing slices rather than whole passes, interleaving the
/// systems slice by slice, and keeping each slice's fastest of ten timings
/// (five rounds of two) keeps the ratios between systems steady to about 10%
/// from run to run, where the fastest of three whole passes per system,
/// one system after another, swung them by half.
const ROUNDS: usize = 5;

/// Back-to-back timings of a slice by one system within a round.
///
/// The first count after another system ran finds the processor's caches full
/// of that system's tables; the second shows the system's steady speed, as a
/// long run of counting would. Without it, the system that happens to follow
/// another user of the same tables (tidemark's two cold counters share one
/// table) looks faster than it is.
const REPEATS: usize = 2;

/// How many slices of about equal size the corpus is cut into for timing.
const SLICES: usize = 16;

/// How many times faster than cold counting the warm cache must be.
const CACHE_GOAL: f64 = 50.0;

/// A system's fastest pass over the corpus.
struct Timing {
    system: String,
    tokens: u64,
    seconds: f64,
}

impl Timing {
    fn tokens_per_second(&self) -> f64 {
        self.tokens as f64 / self.seconds
    }
}

/// Runs the counting benchmark.
pub fn run(options: &Options) -> Result<Section, String> {
    let samples = corpus::build(if options.smoke { SMOKE_BYTES } else { FULL_BYTES })?;
    let texts: Vec<&str> = samples.iter().map(|sample| sample.text.as_str()).collect();
    let bytes: usize = texts.iter().map(|text| text.len()).sum();

    let bpe = tiktoken_rs::o200k_base().map_err(|e| format!("tiktoken-rs cannot build o200k_base: {e}"))?;
    let counter = TiktokenCounter::o200k().map_err(|e| format!("tidemark cannot load o200k_base: {e}"))?;
    let cached = CachedCounter::with_capacity(
        TiktokenCounter::o200k().map_err(|e| format!("tidemark cannot load o200k_base: {e}"))?,
        samples.len() * 2 + 1_024,
    );

    // The untimed pass: every system's count of every text or message, which must agree.
    let raw_counts: Vec<u64> = texts.iter().map(|text| bpe.encode_ordinary(text).len() as u64).collect();
    let text_counts: Vec<u64> = texts.iter().map(|text| u64::from(counter.count_text(text))).collect();
    agree(("tiktoken-rs `encode_ordinary`", &raw_counts), ("tidemark `count_text`", &text_counts))?;
    let message_counts: Vec<u64> = samples.iter().map(|s| u64::from(counter.count(&s.message))).collect();
    // This pass also fills the cache.
    let cached_counts: Vec<u64> = samples.iter().map(|s| u64::from(cached.count(&s.message))).collect();
    agree(("`TiktokenCounter::count`", &message_counts), ("`CachedCounter::count`", &cached_counts))?;
    let text_tokens: u64 = raw_counts.iter().sum();

    // Exactness before speed: every recorded message must count as the cookbook
    // counts its wire form in Python tiktoken, or the run fails here.
    let cookbook = match &options.python {
        Ok(setup) => Ok(cookbook::compare(setup, &options.work_dir)?),
        Err(reason) => Err(reason.clone()),
    };

    let mut session = match &options.python {
        Ok(setup) => {
            let session = python::Session::start(setup, &texts, &options.work_dir)?;
            agree(("tiktoken-rs `encode_ordinary`", &raw_counts), ("Python tiktoken", &session.counts))?;
            Ok(session)
        }
        Err(reason) => Err(reason.clone()),
    };
    let python_versions = session.as_ref().map(|s| (s.tiktoken.clone(), s.python.clone())).ok();

    let mut systems: Vec<System<'_>> = Vec::new();
    if let (Ok(session), Some((tiktoken, python))) = (session.as_mut(), &python_versions) {
        let name = format!("OpenAI tiktoken {tiktoken} (Python {python}) `encode_ordinary`");
        systems.push(System::new(name, &raw_counts, Box::new(|slice| session.pass(slice))));
    }
    systems.push(System::new(
        "tiktoken-rs 0.12.1 `encode_ordinary`".to_owned(),
        &raw_counts,
        timed(|slice| {
            texts
                .get(slice)
                .unwrap_or_default()
                .iter()
                .map(|text| bpe.encode_ordinary(black_box(text)).len() as u64)
                .sum()
        }),
    ));
    systems.push(System::new(
        "tidemark `TiktokenCounter::count_text` (cold)".to_owned(),
        &raw_counts,
        timed(|slice| {
            texts
                .get(slice)
                .unwrap_or_default()
                .iter()
                .map(|text| u64::from(counter.count_text(black_box(text))))
                .sum()
        }),
    ));
    systems.push(System::new(
        "tidemark `TiktokenCounter::count` per message (cold)".to_owned(),
        &message_counts,
        timed(|slice| {
            samples
                .get(slice)
                .unwrap_or_default()
                .iter()
                .map(|s| u64::from(counter.count(black_box(&s.message))))
                .sum()
        }),
    ));
    systems.push(System::new(
        "tidemark `CachedCounter::count` per message (warm cache)".to_owned(),
        &message_counts,
        timed(|slice| {
            samples
                .get(slice)
                .unwrap_or_default()
                .iter()
                .map(|s| u64::from(cached.count(black_box(&s.message))))
                .sum()
        }),
    ));

    // Each round times every system on one slice before moving to the next
    // slice, so a slow stretch of the machine falls on all systems alike.
    let slices = slices(&texts);
    let (hits, misses) = (cached.hits(), cached.misses());
    for _ in 0..ROUNDS {
        for (index, slice) in slices.iter().enumerate() {
            for system in &mut systems {
                for _ in 0..REPEATS {
                    system.time_slice(index, slice.clone())?;
                }
            }
        }
    }
    let (warm_hits, warm_misses) = (cached.hits() - hits, cached.misses() - misses);
    let timings: Vec<Timing> = systems.into_iter().map(System::timing).collect();
    // Python's outcome: it ran (and its timing leads the list), or why it did not.
    let python: Result<(), String> = match session {
        Ok(session) => {
            session.finish()?;
            Ok(())
        }
        Err(reason) => Err(reason),
    };

    let [.., cold_text, cold, warm] = timings.as_slice() else {
        return Err("the counting benchmark lost a timing".to_owned());
    };
    let base = timings.first().map(|first| (first.system.clone(), first.seconds));
    let (base_name, base_seconds) = base.ok_or("the counting benchmark has no timings")?;
    let base_short = if python.is_ok() { "Python tiktoken" } else { "tiktoken-rs" };

    let mut table = Table::new(&[
        "system",
        "tokens",
        "seconds per pass",
        "M tokens/s",
        "MB/s",
        &format!("speed vs {base_short}"),
    ]);
    for timing in &timings {
        table.row(vec![
            timing.system.clone(),
            thousands(timing.tokens),
            format!("{:.4}", timing.seconds),
            format!("{:.2}", timing.tokens_per_second() / 1e6),
            format!("{:.1}", bytes as f64 / timing.seconds / 1e6),
            format!("{:.2}×", base_seconds / timing.seconds),
        ]);
    }

    let cache_ratio = cold.seconds / warm.seconds;
    let mut targets = vec![Target {
        goal: format!("cached counting ≥ {CACHE_GOAL:.0}× faster than cold counting"),
        measured: format!(
            "{cache_ratio:.1}× ({:.2} ms cold, {:.3} ms with a warm cache, per pass over {} messages)",
            cold.seconds * 1e3,
            warm.seconds * 1e3,
            thousands(samples.len() as u64)
        ),
        met: cache_ratio >= CACHE_GOAL,
    }];
    let mut notes = vec![corpus_note(&samples, bytes), agreement_note(samples.len(), python.is_ok())];
    match &python {
        Ok(()) => {
            let ratio = base_seconds / cold_text.seconds;
            targets.push(Target {
                goal: "cold counting at least as fast as Python tiktoken".to_owned(),
                measured: format!(
                    "{ratio:.2}× ({:.2} M tokens/s for `count_text`, {:.2} M tokens/s for {base_name})",
                    cold_text.tokens_per_second() / 1e6,
                    text_tokens as f64 / base_seconds / 1e6
                ),
                met: ratio >= 1.0,
            });
        }
        Err(reason) => notes.push(format!(
            "Python tiktoken was not run: {reason}. The target \"cold counting at least as fast as \
             Python tiktoken\" was therefore not measured in this run."
        )),
    }
    let mut exactness = Vec::new();
    match &cookbook {
        Ok(agreement) => {
            exactness.push(Target {
                goal: "tidemark count = cookbook count per message".to_owned(),
                measured: format!(
                    "{} messages compared, 0 mismatches ({} tokens in all)",
                    thousands(agreement.messages as u64),
                    thousands(agreement.tokens)
                ),
                met: true,
            });
            notes.push(format!(
                "Exactness: each of the {} messages of the {} transcripts in `examples/transcripts/` and \
                 `crates/tidemark-providers/tests/data/` was written in the wire form of a request \
                 (`message_to_wire`) and counted by OpenAI's cookbook rule (3 per wire message, every \
                 string field, 1 per `name`, 85 per image) with Python tiktoken {} \
                 (`bench/compare/cookbook_count.py`); `TiktokenCounter::count` gave the same number for \
                 every one. A difference fails the run.",
                thousands(agreement.messages as u64),
                agreement.files,
                agreement.tiktoken
            ));
        }
        Err(reason) => notes.push(format!(
            "Python tiktoken was not run, so the target \"tidemark count = cookbook count per message\" \
             was not checked in this run: {reason}."
        )),
    }
    notes.push(format!(
        "The warm cache answered {} of {} lookups in its timed rounds ({warm_misses} misses); \
         capacity {} counts.",
        thousands(warm_hits),
        thousands(warm_hits + warm_misses),
        thousands(cached.capacity())
    ));

    Ok(Section {
        title: "Token counting".to_owned(),
        intro: format!(
            "Counting `o200k_base` tokens in a fixed corpus of {} messages ({} bytes of text) on one thread. \
             Each figure is the time of one pass over the whole corpus, made of the fastest of \
             {} timings of each of its {} slices; the systems take turns slice by slice (timing each \
             slice {REPEATS} times in a row), so that the machine's changes of speed fall on all of \
             them alike. An untimed pass first checks that the per-text counts agree; building the \
             tables and starting Python are not timed. \
             The text counters count the same strings; the per-message counters price each message's \
             wire form by OpenAI's cookbook rule (3 tokens and the role per wire message, call ids, \
             tool-call types and part types included), as a memory counts. Speeds compare the \
             time of a pass over the same corpus with {base_short}'s.",
            thousands(samples.len() as u64),
            thousands(bytes as u64),
            ROUNDS * REPEATS,
            slices.len(),
        ),
        table,
        // A smoke run is a debug build on a small corpus: its speeds say nothing
        // about the speed targets, but the exactness target holds in any build.
        targets: if options.smoke { exactness } else { targets.into_iter().chain(exactness).collect() },
        notes,
    })
}

/// One timed count by a system: of the texts or messages in a range of the
/// corpus, returning the tokens it counted and how long it took.
type Pass<'a> = Box<dyn FnMut(Range<usize>) -> Result<(u64, Duration), String> + 'a>;

/// A system under test: its counts from the untimed pass, and its fastest time on each slice so far.
struct System<'a> {
    name: String,
    counts: &'a [u64],
    pass: Pass<'a>,
    fastest: Vec<Duration>,
}

impl<'a> System<'a> {
    fn new(name: String, counts: &'a [u64], pass: Pass<'a>) -> Self {
        Self { name, counts, pass, fastest: Vec::new() }
    }

    /// Times the count of one slice, checking that it comes to the tokens of the untimed pass.
    fn time_slice(&mut self, index: usize, slice: Range<usize>) -> Result<(), String> {
        let expected: u64 = self.counts.get(slice.clone()).unwrap_or_default().iter().sum();
        let (counted, took) = (self.pass)(slice.clone())?;
        if counted != expected {
            return Err(format!(
                "{} counted {counted} tokens in messages {slice:?} in a timed round, {expected} at first",
                self.name
            ));
        }
        if self.fastest.len() <= index {
            self.fastest.resize(index + 1, Duration::MAX);
        }
        if let Some(fastest) = self.fastest.get_mut(index) {
            *fastest = (*fastest).min(took);
        }
        Ok(())
    }

    /// The time of a whole pass made of the fastest time on each slice.
    fn timing(self) -> Timing {
        let seconds: f64 = self.fastest.iter().map(Duration::as_secs_f64).sum();
        // A pass too fast for the clock still gets a time, so no speed divides by zero.
        Timing { system: self.name, tokens: self.counts.iter().sum(), seconds: seconds.max(1e-9) }
    }
}

/// A count of a slice in this process, timed by the wall clock.
fn timed<'a>(mut count: impl FnMut(Range<usize>) -> u64 + 'a) -> Pass<'a> {
    Box::new(move |slice| {
        let start = Instant::now();
        let counted = black_box(count(slice));
        Ok((counted, start.elapsed()))
    })
}

/// Cuts the corpus into [`SLICES`] runs of consecutive messages of about equal bytes (fewer if it is tiny).
fn slices(texts: &[&str]) -> Vec<Range<usize>> {
    let total: usize = texts.iter().map(|text| text.len()).sum();
    let mut slices = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (index, text) in texts.iter().enumerate() {
        bytes += text.len();
        // The slice ends once its share of the bytes, counted from the corpus start, is reached.
        if bytes * SLICES >= total * (slices.len() + 1) {
            slices.push(start..index + 1);
            start = index + 1;
        }
    }
    if start < texts.len() {
        slices.push(start..texts.len());
    }
    slices
}

/// Fails on the first text or message whose two counts differ.
fn agree((left_name, left): (&str, &[u64]), (right_name, right): (&str, &[u64])) -> Result<(), String> {
    if left.len() != right.len() {
        return Err(format!("{left_name} gave {} counts and {right_name} {}", left.len(), right.len()));
    }
    match left.iter().zip(right).position(|(a, b)| a != b) {
        None => Ok(()),
        Some(index) => Err(format!(
            "token counts disagree at corpus message {index}: {left_name} counted {}, {right_name} {}",
            left[index], right[index]
        )),
    }
}

/// What the corpus is made of.
fn corpus_note(samples: &[Sample], bytes: usize) -> String {
    let shares: Vec<String> = Kind::ALL
        .iter()
        .map(|&kind| {
            let kind_bytes: usize = samples.iter().filter(|s| s.kind == kind).map(|s| s.text.len()).sum();
            format!("{} {:.0}%", kind.label(), 100.0 * kind_bytes as f64 / bytes.max(1) as f64)
        })
        .collect();
    let mut distinct: Vec<&str> = samples.iter().map(|s| s.text.as_str()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let non_ascii: usize = samples.iter().map(|s| s.text.chars().filter(|c| !c.is_ascii()).count()).sum();
    format!(
        "Corpus: {} messages, {} bytes of text ({}), {} distinct texts, {} non-ASCII characters; \
         built from a fixed seed out of tidemark-memory's token-count corpus \
         (`bench/compare/src/count/corpus.rs`).",
        thousands(samples.len() as u64),
        thousands(bytes as u64),
        shares.join(", "),
        thousands(distinct.len() as u64),
        thousands(non_ascii as u64)
    )
}

/// The agreement check, which passed if the run got this far.
fn agreement_note(messages: usize, with_python: bool) -> String {
    let systems = if with_python {
        "tiktoken-rs, tidemark's `count_text` and Python tiktoken"
    } else {
        "tiktoken-rs and tidemark's `count_text`"
    };
    format!(
        "Counts agree: {systems} gave identical counts for each of the {} texts, and \
         `CachedCounter::count` equalled `TiktokenCounter::count` for each message.",
        thousands(messages as u64)
    )
}

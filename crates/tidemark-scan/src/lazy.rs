//! Regular expressions compiled on first use, so that a scanner starts at once.
//!
//! The scan holds well over a thousand patterns, most of them large alternations over Unicode
//! classes; compiling all of them took seconds, and a text needs few of them: the gates
//! (`gate.rs`) tell which patterns can match it at all. Each pattern here keeps its source and is
//! compiled the first time a search needs it, then shared by every later search in the process.
//!
//! A pattern is a constant of this crate, so compiling it either always works or never does; the
//! unit test `every_lazy_pattern_compiles` compiles every pattern a scanner holds, so a broken one
//! cannot reach a release. Should one fail anyway, it matches nothing and the scanner is marked
//! broken ([`broken`]): every scan from then on fails closed with `Threat::ScannerUnavailable`
//! instead of letting a text through unchecked.

use std::ops::Deref;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use regex_automata::meta;

/// Set when a pattern failed to compile.
static BROKEN: AtomicBool = AtomicBool::new(false);

/// Whether any pattern has failed to compile in this process.
pub(crate) fn broken() -> bool {
    BROKEN.load(Ordering::Relaxed)
}

/// Marks the scanner broken: a part of it could not be built, so every scan fails closed.
pub(crate) fn mark_broken() {
    BROKEN.store(true, Ordering::Relaxed);
}

/// A pattern that matches no text, for a pattern that failed to compile.
const NEVER: &str = r"[^\s\S]";

/// Records that a pattern failed to compile, and hands back the stand-in.
fn failed<T>(stand_in: impl FnOnce() -> T) -> T {
    mark_broken();
    stand_in()
}

/// A `regex::Regex` compiled on first use; it dereferences to the compiled regex.
pub(crate) struct Regex {
    source: Box<str>,
    compiled: OnceLock<regex::Regex>,
}

impl Regex {
    /// Keeps `source`, to be compiled by the first search that needs it.
    pub(crate) fn new(source: &str) -> Self {
        #[cfg(test)]
        registry::record(registry::Engine::Regex, source);
        Self { source: source.into(), compiled: OnceLock::new() }
    }
}

impl Deref for Regex {
    type Target = regex::Regex;

    fn deref(&self) -> &regex::Regex {
        self.compiled.get_or_init(|| {
            regex::Regex::new(&self.source).unwrap_or_else(|_| {
                failed(|| regex::Regex::new(NEVER).expect("the pattern that matches nothing compiles"))
            })
        })
    }
}

/// A `regex::RegexSet` compiled on first use; it dereferences to the compiled set.
pub(crate) struct RegexSet {
    sources: Vec<String>,
    compiled: OnceLock<regex::RegexSet>,
}

impl RegexSet {
    /// Keeps `sources`, to be compiled by the first search that needs them.
    pub(crate) fn new(sources: impl IntoIterator<Item = String>) -> Self {
        let sources: Vec<String> = sources.into_iter().collect();
        #[cfg(test)]
        sources.iter().for_each(|source| registry::record(registry::Engine::Set, source));
        Self { sources, compiled: OnceLock::new() }
    }
}

impl Deref for RegexSet {
    type Target = regex::RegexSet;

    fn deref(&self) -> &regex::RegexSet {
        self.compiled.get_or_init(|| {
            regex::RegexSet::new(&self.sources).unwrap_or_else(|_| {
                // As many patterns as the set had, so that every index its users ask about exists.
                failed(|| {
                    regex::RegexSet::new(self.sources.iter().map(|_| NEVER))
                        .expect("patterns that match nothing compile")
                })
            })
        })
    }
}

/// A `regex_automata::meta::Regex` compiled on first use, with the crate's defaults.
pub(crate) struct Meta {
    source: Box<str>,
    compiled: OnceLock<meta::Regex>,
}

impl Meta {
    /// Keeps `source`, to be compiled by the first search that needs it.
    pub(crate) fn new(source: &str) -> Self {
        #[cfg(test)]
        registry::record(registry::Engine::Meta, source);
        Self { source: source.into(), compiled: OnceLock::new() }
    }

    /// The pattern's source (without compiling it).
    pub(crate) fn as_str(&self) -> &str {
        &self.source
    }
}

impl Deref for Meta {
    type Target = meta::Regex;

    fn deref(&self) -> &meta::Regex {
        self.compiled.get_or_init(|| {
            meta::Regex::new(&self.source).unwrap_or_else(|_| {
                failed(|| meta::Regex::new(NEVER).expect("the pattern that matches nothing compiles"))
            })
        })
    }
}

/// Every pattern made in a test build, so that one test can compile them all.
#[cfg(test)]
pub(crate) mod registry {
    use std::sync::{Mutex, PoisonError};

    /// The engine a pattern is compiled with.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(crate) enum Engine {
        Regex,
        Set,
        Meta,
    }

    static MADE: Mutex<Vec<(Engine, String)>> = Mutex::new(Vec::new());

    pub(super) fn record(engine: Engine, source: &str) {
        MADE.lock().unwrap_or_else(PoisonError::into_inner).push((engine, source.to_owned()));
    }

    /// The patterns made so far, each once.
    pub(crate) fn made() -> Vec<(Engine, String)> {
        let mut made = MADE.lock().unwrap_or_else(PoisonError::into_inner).clone();
        made.sort_by(|a, b| a.1.cmp(&b.1));
        made.dedup();
        made
    }
}

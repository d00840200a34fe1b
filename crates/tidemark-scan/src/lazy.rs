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
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};

use aho_corasick::AhoCorasick;
use regex_automata::nfa::thompson::{self, pikevm};
use regex_automata::util::pool::Pool;
use regex_automata::{Input, hybrid, meta};
use regex_syntax::hir::{Capture, Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, LookSet, Repetition};

use crate::narrow::Narrowed;
use crate::shipped::{self, Kind};

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

/// How many searches a guard (or a head) answers before the pattern is compiled anyway.
///
/// A guard spares a short-lived process the compile of a pattern no text of it can match. In a
/// process that scans on and on, the compiled pattern's own prefilter reads a text faster than
/// the guard, so after this many searches the pattern is compiled and the guard retires.
pub(crate) const GUARDED_SEARCHES: u32 = 256;

/// Texts longer than this are searched by the compiled pattern at once: reading a long text
/// twice, once for the guard and once for the pattern, costs more than the compile it may spare.
pub(crate) const GUARDED_BYTES: usize = 4 * 1024;

/// Whether a guard still answers for a search of `len` bytes: not for a long text, and not once
/// it has answered its share; counts the search.
pub(crate) fn guard_still_serves(searches: &AtomicU32, len: usize) -> bool {
    len <= GUARDED_BYTES && searches.fetch_add(1, Ordering::Relaxed) < GUARDED_SEARCHES
}

/// The capacity of the lazy DFA caches of a large pattern (`regex`'s `dfa_size_limit`, the meta
/// engine's `hybrid_cache_capacity`, a probe's and a screen's `cache_capacity`).
///
/// The crates' default of 2 MiB is too small for the scan's large patterns: the unions over many
/// languages and their Unicode classes (`\w`, `[^\w]`) make NFAs of tens of thousands of states,
/// and the reverse NFA the meta engine also builds is about four times larger (up to some 230,000
/// states). A lazy DFA refuses to build when its cache cannot hold a few states of its NFA, and
/// the meta engine then drops the lazy DFA altogether: every search of the pattern ran the PikeVM,
/// about a thousand times slower on a sentence. The capacity picks an engine, never a match.
const DFA_CACHE_CAPACITY: usize = 16 << 20;

/// The `regex` crate's own default capacity, kept for small patterns.
const DEFAULT_DFA_CACHE_CAPACITY: usize = 2 << 20;

/// The shortest source that counts as a large pattern ([`cache_capacity`]).
const LARGE_SOURCE_BYTES: usize = 2 * 1024;

/// The lazy DFA capacity for a pattern of `source_bytes` bytes of source.
///
/// Only a large pattern gets the large cache. A small one builds its lazy DFA within the default,
/// and a cache grows up to its capacity on long and varied text: with hundreds of patterns
/// in a scanner, a larger cache for each would raise what a long-lived scanner may hold by
/// gigabytes, for no engine gained.
fn cache_capacity(source_bytes: usize) -> usize {
    if source_bytes >= LARGE_SOURCE_BYTES { DFA_CACHE_CAPACITY } else { DEFAULT_DFA_CACHE_CAPACITY }
}

/// Compiles `source` as a `regex::Regex` with the lazy DFA capacity its size calls for.
fn build_regex(source: &str) -> Result<regex::Regex, regex::Error> {
    regex::RegexBuilder::new(source).dfa_size_limit(cache_capacity(source.len())).build()
}

/// A pattern that matches no text, for a pattern that failed to compile.
const NEVER: &str = r"[^\s\S]";

/// Records that a pattern failed to compile, and hands back the stand-in.
fn failed<T>(stand_in: impl FnOnce() -> T) -> T {
    mark_broken();
    stand_in()
}

/// A `regex::Regex` compiled on first use, with the searches the scan makes.
///
/// Until it is compiled, a search first asks its guard whether the text holds one of the literals
/// every match must hold (derived with the gates' tables and shipped beside them); when none
/// occurs there can be no match, and the answer is given without compiling the pattern. When one
/// does, a [`Probe`] of the pattern tells whether there is a match at all before the full pattern
/// is compiled. Once it is compiled, the regex's own prefilter does that job better, so neither is
/// asked again.
pub(crate) struct Regex {
    source: Arc<str>,
    compiled: OnceLock<regex::Regex>,
    /// The pattern narrowed to the alternatives a text can match, for a large pattern
    /// (`narrow.rs`): it answers instead of the probe and the whole pattern while it serves.
    narrowed: Narrowed<regex::Regex>,
    guard: OnceLock<Guard>,
    probe: Probe,
    /// Searches the guard answered so far (see [`GUARDED_SEARCHES`]).
    searches: AtomicU32,
    /// What tells a text that the compiled pattern cannot match it, for a pattern with a Unicode
    /// word boundary; `None` for any other.
    screen: OnceLock<Option<Screen>>,
}

impl Regex {
    /// Keeps `source`, to be compiled by the first search that needs it.
    pub(crate) fn new(source: &str) -> Self {
        #[cfg(test)]
        registry::record(registry::Engine::Regex, source);
        let source: Arc<str> = source.into();
        Self {
            probe: Probe::shared(Arc::clone(&source)),
            source,
            compiled: OnceLock::new(),
            narrowed: Narrowed::new(),
            guard: OnceLock::new(),
            searches: AtomicU32::new(0),
            screen: OnceLock::new(),
        }
    }

    /// What searches `haystack` from byte `start` on: the whole compiled pattern, or its narrowed
    /// twin for this text (which finds the same matches, groups included), or `None` where the
    /// guard or the probe tells, without compiling the pattern, that nothing can match.
    fn engine_from(&self, haystack: &str, start: usize) -> Option<&regex::Regex> {
        if let Some(compiled) = self.compiled.get() {
            return self.screen_admits(haystack, start).then_some(compiled);
        }
        if !guard_still_serves(&self.searches, haystack.len()) {
            let compiled = self.compiled();
            return self.screen_admits(haystack, start).then_some(compiled);
        }
        if !self.guard.get_or_init(|| Guard::shipped(&[self.source.as_ref()])).admits(haystack) {
            return None;
        }
        if let Some(narrowed) = self.narrowed.get(&self.source, haystack, |source| build_regex(source).ok()) {
            return Some(narrowed);
        }
        self.probe
            .is_match(&Input::new(haystack).span(start.min(haystack.len())..haystack.len()))
            .then(|| self.compiled())
    }

    /// Whether the compiled pattern may match `haystack` from byte `start` on; no only when its
    /// [`Screen`] finds nothing there. A pattern without a Unicode word boundary has no screen and
    /// is never held back.
    ///
    /// The screen reads the text even when it is ASCII alone, where the pattern's own lazy DFA would
    /// not give up: telling ASCII text apart costs a pass over the rest of the text on every call,
    /// and a caller that walks a megabyte match by match calls once per match. The screen stops at
    /// its first candidate, so it reads no more than the search it guards.
    fn screen_admits(&self, haystack: &str, start: usize) -> bool {
        self.screen.get_or_init(|| Screen::new(&self.source)).as_ref().is_none_or(|screen| {
            screen.admits(&Input::new(haystack).span(start.min(haystack.len())..haystack.len()))
        })
    }

    fn engine(&self, haystack: &str) -> Option<&regex::Regex> {
        self.engine_from(haystack, 0)
    }

    /// The compiled regex (compiled now if need be).
    fn compiled(&self) -> &regex::Regex {
        self.compiled.get_or_init(|| build_regex(&self.source).unwrap_or_else(|_| failed(|| never().clone())))
    }

    pub(crate) fn is_match(&self, haystack: &str) -> bool {
        self.engine(haystack).is_some_and(|regex| regex.is_match(haystack))
    }

    pub(crate) fn find<'h>(&self, haystack: &'h str) -> Option<regex::Match<'h>> {
        self.engine(haystack)?.find(haystack)
    }

    pub(crate) fn find_iter<'r, 'h>(&'r self, haystack: &'h str) -> regex::Matches<'r, 'h> {
        self.engine(haystack).unwrap_or_else(|| never()).find_iter(haystack)
    }

    pub(crate) fn captures<'h>(&self, haystack: &'h str) -> Option<regex::Captures<'h>> {
        self.engine(haystack)?.captures(haystack)
    }

    pub(crate) fn captures_at<'h>(&self, haystack: &'h str, start: usize) -> Option<regex::Captures<'h>> {
        self.engine_from(haystack, start)?.captures_at(haystack, start)
    }

    pub(crate) fn captures_iter<'r, 'h>(&'r self, haystack: &'h str) -> regex::CaptureMatches<'r, 'h> {
        self.engine(haystack).unwrap_or_else(|| never()).captures_iter(haystack)
    }
}

/// A lazy DFA over a pattern [`loosened`] and rid of its Unicode word boundaries, that tells a text
/// that the pattern cannot match it, without giving up on text outside ASCII as the pattern's own
/// lazy DFA does.
///
/// A lazy DFA handles a Unicode word boundary (`\b`, `\B` under Unicode) only on ASCII: it quits
/// at the first byte outside ASCII, and the meta engine then runs the PikeVM over the whole text.
/// For the unions over every language (`Cues::find_exfiltration`), whose tables hold a few `\b`,
/// that was a millisecond per sentence with a dash or a curly quote in it. The screen matches
/// wherever the pattern does (an assertion taken away and a class widened only admit more), so a
/// text it finds nothing in has no match of the pattern; one it finds something in is searched by
/// the pattern itself, and the verdict is the pattern's.
pub(crate) struct Screen(Searcher<hybrid::dfa::DFA, hybrid::dfa::Cache>);

impl Screen {
    /// The screen of `source`, or `None` for a pattern without a Unicode word boundary (which needs
    /// none) or one whose screen cannot be built (then the pattern answers alone).
    pub(crate) fn new(source: &str) -> Option<Self> {
        // A word boundary is written `\b`, `\B`, `\<` or `\>`: a source without any of them
        // needs no parse to know it has none.
        if !["\\b", "\\B", "\\<", "\\>"].iter().any(|assertion| source.contains(assertion)) {
            return None;
        }
        let hir = regex_syntax::Parser::new().parse(source).ok()?;
        if !hir.properties().look_set().contains_word_unicode() {
            return None;
        }
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().which_captures(thompson::WhichCaptures::None))
            .build_from_hir(&loosened(&hir, Words::Dropped))
            .ok()?;
        let dfa = hybrid::dfa::DFA::builder()
            .configure(hybrid::dfa::Config::new().cache_capacity(cache_capacity(source.len())))
            .build_from_nfa(nfa)
            .ok()?;
        Some(Self(Searcher::new(dfa, hybrid::dfa::DFA::create_cache)))
    }

    /// Whether `input`'s span may hold a match: no only when the screen finds none (a lazy DFA that
    /// gives up answers yes).
    pub(crate) fn admits(&self, input: &Input<'_>) -> bool {
        let input = input.clone().earliest(true);
        !matches!(self.0.automaton.try_search_fwd(&mut self.0.caches.get(), &input), Ok(None))
    }
}

/// The compiled pattern that matches nothing: the stand-in for a pattern that failed to compile,
/// and the source of empty iterators.
fn never() -> &'static regex::Regex {
    static NEVER_REGEX: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(NEVER).expect("the pattern that matches nothing compiles"));
    &NEVER_REGEX
}

/// A `regex::RegexSet` compiled on first use, guarded like [`Regex`] (its probe is the alternation
/// of its patterns).
pub(crate) struct RegexSet {
    sources: Vec<String>,
    compiled: OnceLock<regex::RegexSet>,
    guard: OnceLock<Guard>,
    probe: Probe,
    /// A set of as many patterns that match nothing, for the answer the guard gives.
    empty: OnceLock<regex::RegexSet>,
    /// Searches the guard answered so far (see [`GUARDED_SEARCHES`]).
    searches: AtomicU32,
}

impl RegexSet {
    /// Keeps `sources`, to be compiled by the first search that needs them.
    pub(crate) fn new(sources: impl IntoIterator<Item = String>) -> Self {
        let sources: Vec<String> = sources.into_iter().collect();
        #[cfg(test)]
        registry::record(registry::Engine::Set, &sources.join(registry::SET_SEPARATOR));
        let any: Vec<String> = sources.iter().map(|source| format!("(?:{source})")).collect();
        Self {
            probe: Probe::new(&any.join("|")),
            sources,
            compiled: OnceLock::new(),
            guard: OnceLock::new(),
            empty: OnceLock::new(),
            searches: AtomicU32::new(0),
        }
    }

    /// Which of the patterns match `haystack`.
    pub(crate) fn matches(&self, haystack: &str) -> regex::SetMatches {
        let admits = self.compiled.get().is_some()
            || !guard_still_serves(&self.searches, haystack.len())
            || self
                .guard
                .get_or_init(|| Guard::shipped(&self.sources.iter().map(String::as_str).collect::<Vec<_>>()))
                .admits(haystack)
                && self.probe.is_match(&Input::new(haystack));
        if admits {
            return self
                .compiled
                .get_or_init(|| {
                    regex::RegexSetBuilder::new(&self.sources)
                        .dfa_size_limit(cache_capacity(self.sources.iter().map(String::len).sum()))
                        .build()
                        .unwrap_or_else(|_| failed(|| self.nothing()))
                })
                .matches(haystack);
        }
        self.empty.get_or_init(|| self.nothing()).matches(haystack)
    }

    /// As many patterns as the set has, each matching nothing, so that every index its users ask
    /// about exists.
    fn nothing(&self) -> regex::RegexSet {
        regex::RegexSet::new(self.sources.iter().map(|_| NEVER)).expect("patterns that match nothing compile")
    }
}

/// The literals of which every match of a pattern (or of any pattern of a set) holds one, read with
/// ASCII case ignored; it admits every text when none are known.
struct Guard(Option<AhoCorasick>);

impl Guard {
    /// The guard shipped for these sources (`shipped.rs`), or one that admits everything.
    fn shipped(sources: &[&str]) -> Self {
        let key = shipped::fingerprint(sources.iter().map(|source| source.as_bytes()));
        let literals =
            shipped::lookup(Kind::Needs, key).and_then(shipped::literals).filter(|list| !list.is_empty());
        Self(literals.and_then(|list| AhoCorasick::builder().ascii_case_insensitive(true).build(list).ok()))
    }

    fn admits(&self, haystack: &str) -> bool {
        self.0.as_ref().is_none_or(|literals| literals.is_match(haystack))
    }
}

/// A `regex_automata::meta::Regex` compiled on first use, with the crate's defaults but for the
/// lazy DFA's cache, which a large pattern gets larger ([`cache_capacity`]).
pub(crate) struct Meta {
    source: Arc<str>,
    compiled: OnceLock<meta::Regex>,
}

impl Meta {
    /// Keeps `source` (which a [`Probe`] may hold too), to be compiled by the first search that
    /// needs it.
    pub(crate) fn shared(source: Arc<str>) -> Self {
        #[cfg(test)]
        registry::record(registry::Engine::Meta, &source);
        Self { source, compiled: OnceLock::new() }
    }

    /// A narrowed pattern (`narrow.rs`) and its probe, each compiled on first use. They are not
    /// recorded with the scanner's own patterns in a test build: which ones a process makes
    /// depends on the texts it scans.
    pub(crate) fn narrowed(source: &str) -> (Probe, Meta) {
        let source: Arc<str> = source.into();
        (
            Probe { source: Arc::clone(&source), compiled: OnceLock::new() },
            Self { source, compiled: OnceLock::new() },
        )
    }

    /// The pattern's source (without compiling it).
    pub(crate) fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether a search has compiled it yet.
    pub(crate) fn is_compiled(&self) -> bool {
        self.compiled.get().is_some()
    }
}

impl Deref for Meta {
    type Target = meta::Regex;

    fn deref(&self) -> &meta::Regex {
        self.compiled.get_or_init(|| {
            meta::Builder::new()
                .configure(meta::Config::new().hybrid_cache_capacity(cache_capacity(self.source.len())))
                .build(&self.source)
                .unwrap_or_else(|_| {
                    failed(|| meta::Regex::new(NEVER).expect("the pattern that matches nothing compiles"))
                })
        })
    }
}

/// A pattern that only tells whether a text holds a match, compiled on first use at half the
/// cost of a [`Meta`].
///
/// Finding where a match starts takes a second automaton that reads the text backwards, and the
/// meta engine builds it (and more) up front. Most searches a scan makes on a clean text find
/// nothing, and a yes-or-no answer needs only the forward automaton: a lazy DFA over the forward
/// NFA, or a PikeVM over the same NFA when the DFA gives up (a Unicode word boundary next to a
/// non-ASCII byte, or a cache it keeps thrashing). Both read the same syntax with the same
/// defaults as [`Meta`], so where a `Meta` of the source finds a match, a probe says yes.
pub(crate) struct Probe {
    source: Arc<str>,
    compiled: OnceLock<Option<ProbeEngine>>,
}

/// The forward automata of a [`Probe`], each with caches for the threads that search it.
struct ProbeEngine {
    dfa: Option<Searcher<hybrid::dfa::DFA, hybrid::dfa::Cache>>,
    pikevm: Searcher<pikevm::PikeVM, pikevm::Cache>,
}

/// An automaton and a pool of the mutable caches its searches need.
struct Searcher<A, C> {
    automaton: A,
    caches: Pool<C, CacheMaker<C>>,
}

/// Makes a cache for a [`Searcher`]'s pool.
type CacheMaker<C> = Box<dyn Fn() -> C + Send + Sync + std::panic::RefUnwindSafe + std::panic::UnwindSafe>;

impl<A, C> Searcher<A, C>
where
    A: Clone + Send + Sync + std::panic::RefUnwindSafe + std::panic::UnwindSafe + 'static,
    C: 'static,
{
    /// `automaton` with a pool of the caches `create` makes for it.
    fn new(automaton: A, create: fn(&A) -> C) -> Self {
        let maker = automaton.clone();
        Self { automaton, caches: Pool::new(Box::new(move || create(&maker)) as CacheMaker<C>) }
    }
}

impl Probe {
    /// Keeps `source`, to be compiled by the first search that needs it.
    pub(crate) fn new(source: &str) -> Self {
        Self::shared(source.into())
    }

    /// [`new`](Self::new) with a source another pattern holds too.
    pub(crate) fn shared(source: Arc<str>) -> Self {
        #[cfg(test)]
        registry::record(registry::Engine::Probe, &source);
        Self { source, compiled: OnceLock::new() }
    }

    /// Whether a match of the pattern lies within `input`'s span (anchored at its start if the
    /// input says so). A pattern that failed to compile matches nothing and marks the scanner
    /// broken.
    pub(crate) fn is_match(&self, input: &Input<'_>) -> bool {
        let Some(engine) = self.compiled.get_or_init(|| ProbeEngine::new(&self.source)) else {
            return false;
        };
        let input = input.clone().earliest(true);
        if let Some(dfa) = &engine.dfa
            && let Ok(found) = dfa.automaton.try_search_fwd(&mut dfa.caches.get(), &input)
        {
            return found.is_some();
        }
        engine.pikevm.automaton.is_match(&mut engine.pikevm.caches.get(), input)
    }
}

impl ProbeEngine {
    fn new(source: &str) -> Option<Self> {
        let Ok(nfa) = probe_nfa(source) else {
            mark_broken();
            return None;
        };
        // The DFA is built lazily as it reads, so building it is cheap; one that cannot be built
        // (a pattern too large for its state IDs) leaves the PikeVM to answer alone.
        let dfa = hybrid::dfa::DFA::builder()
            .configure(
                hybrid::dfa::Config::new()
                    .unicode_word_boundary(true)
                    .cache_capacity(cache_capacity(source.len())),
            )
            .build_from_nfa(nfa.clone())
            .ok();
        let Ok(pikevm) = pikevm::PikeVM::new_from_nfa(nfa) else {
            mark_broken();
            return None;
        };
        let dfa = dfa.map(|dfa| Searcher::new(dfa, hybrid::dfa::DFA::create_cache));
        let pikevm = Searcher::new(pikevm, pikevm::PikeVM::create_cache);
        Some(Self { dfa, pikevm })
    }
}

/// The forward NFA a [`Probe`] of `source` searches with: the pattern [`loosened`], parsed with the
/// defaults of the `regex` crate, without capture groups; or why it cannot be built.
pub(crate) fn probe_nfa(source: &str) -> Result<thompson::NFA, String> {
    let hir = regex_syntax::Parser::new().parse(source).map_err(|error| error.to_string())?;
    thompson::Compiler::new()
        .configure(thompson::Config::new().which_captures(thompson::WhichCaptures::None))
        .build_from_hir(&loosened(&hir, Words::Kept))
        .map_err(|error| error.to_string())
}

/// A class whose characters outside ASCII take more than this many UTF-8 byte sequences is loosened.
const HEAVY_SEQUENCES: usize = 16;

/// `hir` made looser for a [`Probe`]: every character class whose part outside ASCII is large
/// (`\w`, `\d` and `\p{..}` under Unicode, most negated classes) keeps its ASCII characters and
/// takes every other character. Such classes are most of what compiling a pattern costs (`\w`
/// alone is hundreds of ranges, and a bounded repetition copies it), and the looser class is a
/// handful of states: on the patterns a clean English line wakes, the forward NFA compiles in
/// about half the time.
///
/// The looser expression matches wherever `hir` does, and more only where a text has characters
/// outside ASCII: on an ASCII text the two agree, since nothing else changes (word boundaries keep
/// their Unicode meaning). A probe that says yes where the pattern would not costs the pattern's
/// compile, never a verdict.
///
/// With [`Words::Dropped`], every Unicode word boundary gives way to the empty expression, which
/// only admits more too (for a [`Screen`]).
fn loosened(hir: &Hir, words: Words) -> Hir {
    let loosened = |hir: &Hir| loosened(hir, words);
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) if heavy(class) => {
            let mut ranges: Vec<ClassUnicodeRange> = class
                .ranges()
                .iter()
                .filter(|range| range.start() <= '\u{7f}')
                .map(|range| ClassUnicodeRange::new(range.start(), range.end().min('\u{7f}')))
                .collect();
            ranges.push(ClassUnicodeRange::new('\u{80}', char::MAX));
            Hir::class(Class::Unicode(ClassUnicode::new(ranges)))
        }
        HirKind::Repetition(repetition) => {
            Hir::repetition(Repetition { sub: Box::new(loosened(&repetition.sub)), ..repetition.clone() })
        }
        HirKind::Capture(capture) => {
            Hir::capture(Capture { sub: Box::new(loosened(&capture.sub)), ..capture.clone() })
        }
        HirKind::Look(look)
            if words == Words::Dropped && LookSet::singleton(*look).contains_word_unicode() =>
        {
            Hir::empty()
        }
        HirKind::Concat(subs) => Hir::concat(subs.iter().map(loosened).collect()),
        HirKind::Alternation(subs) => Hir::alternation(subs.iter().map(loosened).collect()),
        HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) | HirKind::Look(_) => hir.clone(),
    }
}

/// What [`loosened`] does with a Unicode word boundary.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Words {
    /// Kept, with its Unicode meaning (for a [`Probe`]).
    Kept,
    /// Taken away (for a [`Screen`]).
    Dropped,
}

/// Whether the part of `class` outside ASCII takes more than [`HEAVY_SEQUENCES`] UTF-8 sequences.
fn heavy(class: &ClassUnicode) -> bool {
    let mut sequences =
        class.ranges().iter().filter(|range| range.end() > '\u{7f}').flat_map(|range| {
            regex_syntax::utf8::Utf8Sequences::new(range.start().max('\u{80}'), range.end())
        });
    sequences.nth(HEAVY_SEQUENCES).is_some()
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
        Probe,
    }

    /// Joins the sources of a set in the record (no pattern holds a NUL).
    pub(crate) const SET_SEPARATOR: &str = "\u{0}";

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

//! Secret detection and redaction: provider token formats, labelled values, passwords in URLs,
//! and two entropy detectors for random-looking tokens that carry no known prefix.
//!
//! The detectors run in a fixed order, most specific first, and a span that overlaps one already
//! accepted is dropped, so each secret is replaced once and by its most telling kind:
//!
//! 1. Provider formats ([`PROVIDERS`]): a known prefix or structure (`ghp_`, `SG.x.y`, PEM blocks).
//! 2. An AWS secret access key: a 40-character base64 run close to an AWS key id.
//! 3. Value forms ([`VALUE_FORMS`]): `scheme://user:password@host`, "the password is …", PINs,
//!    `Bearer` and `Basic` credentials, `--password …` flags.
//! 4. Labelled values ([`LABELLED`]): `password=…`, `"api_key": "…"`, `export FOO_TOKEN=…`,
//!    `Password=…;` in connection strings. How strict the value check is depends on the label
//!    (see [`LabelTier`]).
//! 5. A random-looking token shortly after a credential word ("token 7Gx…"), see [`NEAR_ENTROPY`].
//! 6. A long, very random token on its own, see [`ALONE_ENTROPY`].
//!
//! The entropy detectors stay quiet inside URLs, `data:` URIs, public key and certificate blocks,
//! SSH public keys and algorithm-tagged digests, and they never fire on hexadecimal text, so git
//! SHAs, SHA-256 digests, UUIDs and ULIDs are left alone. A hexadecimal key is still caught when
//! it is written after a label (`OPENAI_API_KEY=0f3a…`).
//!
//! Everything is a regular expression of the `regex` crate (linear time) or a single pass over a
//! match, and all slicing goes through `str::get`, so no input can make the scan slow or panic.

use std::collections::BTreeMap;

use crate::lazy::{Regex, RegexSet};

use super::secret_checks::*;
use super::secret_patterns::*;
use super::{SecretKind, Verdict};

/// Bits per character a token next to a credential word must reach. Random base62 tokens of 20
/// characters measure 4.03 on average and pass 999 times in 1000; repetitive fakes
/// (`FAKE0000example0000…`, 3.1) and short kebab-case names stay below.
pub(super) const NEAR_ENTROPY: f64 = 3.5;

/// Bits per character a token on its own must reach. Measured on random base62 tokens, the mean
/// is 4.54 at 32 characters, 4.76 at 40 and 5.16 at 64, so a lone token passes about two times
/// in three at 32 to 39 characters and almost always from 40 on. Hexadecimal text can never
/// pass (at most 4.0 bits, as it has 16 symbols), and long identifiers, pod names and file names
/// with dates measure 4.0 to 4.4. Being this strict misses some shorter keys on their own, but a
/// false alarm on an ordinary fact costs more, and next to a credential word the much lower
/// [`NEAR_ENTROPY`] applies.
pub(super) const ALONE_ENTROPY: f64 = 4.5;

/// The largest share of a token's characters that may sit in word-like runs (`Proxy`, `user`,
/// `HTTP`) for the entropy detectors to consider it. In random base62 tokens of 32 characters or
/// more such runs cover a quarter of the characters on median and under 0.66 in 99 cases of 100;
/// code identifiers such as `AbstractSingletonProxyFactoryBean2024` are mostly words (0.8 and up)
/// and can still reach an entropy of 4.3.
pub(super) const MAX_WORD_SHARE: f64 = 0.7;

/// Shortest token the near detector looks at.
pub(super) const NEAR_MIN_LEN: usize = 20;

/// Shortest hexadecimal token the near detector takes for a key (an MD5-sized 128-bit key).
pub(super) const HEX_KEY_MIN_LEN: usize = 32;

/// Shortest token the on-its-own detector looks at.
pub(super) const ALONE_MIN_LEN: usize = 32;

/// How many bytes before a token are searched for a credential word.
pub(super) const NEAR_WINDOW: usize = 48;

/// How many times [`SecretRules::redact`] scans a text at most: the first pass and up to three
/// more over the redacted text.
pub(super) const MAX_PASSES: usize = 4;

/// The longest rejected labelled value that is searched again for a label inside it.
pub(super) const RESCAN_LIMIT: usize = 256;

/// How far (in bytes) an AWS secret key may sit from its key id.
pub(super) const AWS_PAIR_DISTANCE: usize = 160;

/// One compiled pattern with its kind, capture group and check.
struct Rule {
    kind: SecretKind,
    regex: Regex,
    group: usize,
    check: Check,
}

/// The compiled secret patterns.
pub(super) struct SecretRules {
    providers: Vec<Rule>,
    /// All of `providers` in one set: one pass over a text says which of them can match at all.
    provider_set: RegexSet,
    value_forms: Vec<Rule>,
    /// All of `value_forms` in one set, like `provider_set`.
    value_form_set: RegexSet,
    labelled: Vec<Regex>,
    credential_near: Regex,
    hash_near: Regex,
    token_run: Regex,
    base64_run: Regex,
    word: Regex,
    quiet: Vec<Regex>,
}

/// Compiles one pattern with ASCII word boundaries, which keep the fast DFA engines usable on
/// non-ASCII input.
fn compile(pattern: &str) -> Option<Regex> {
    Some(Regex::new(&pattern.replace(r"\b", r"(?-u:\b)")))
}

/// Compiles a rule list into one set, with the same word boundaries as [`compile`], or `None` if it fails.
fn compile_set(list: &[(SecretKind, &str, usize, Check)]) -> Option<RegexSet> {
    Some(RegexSet::new(list.iter().map(|&(_, pattern, _, _)| pattern.replace(r"\b", r"(?-u:\b)"))))
}

/// Compiles a rule list, or `None` if any pattern fails.
fn compile_rules(list: &[(SecretKind, &str, usize, Check)]) -> Option<Vec<Rule>> {
    list.iter()
        .map(|&(kind, pattern, group, check)| {
            compile(pattern).map(|regex| Rule { kind, regex, group, check })
        })
        .collect()
}

/// The accepted secret spans, keyed by start, each with its end and kind.
struct Spans(BTreeMap<usize, (usize, SecretKind)>);

impl Spans {
    /// Accepts a span unless it is empty or overlaps one accepted before; says whether it did.
    fn offer(&mut self, start: usize, end: usize, kind: SecretKind) -> bool {
        if start >= end {
            return false;
        }
        let overlaps_before = self.0.range(..=start).next_back().is_some_and(|(_, &(e, _))| e > start);
        let overlaps_after = self.0.range(start..).next().is_some_and(|(&s, _)| s < end);
        let accepted = !overlaps_before && !overlaps_after;
        if accepted {
            self.0.insert(start, (end, kind));
        }
        accepted
    }
}

impl SecretRules {
    /// Compiles every pattern, or returns `None` if any fails.
    pub(super) fn compile() -> Option<Self> {
        Some(Self {
            providers: compile_rules(PROVIDERS)?,
            provider_set: compile_set(PROVIDERS)?,
            value_forms: compile_rules(VALUE_FORMS)?,
            value_form_set: compile_set(VALUE_FORMS)?,
            labelled: vec![compile(LABELLED)?, compile(XML_SETTING)?],
            credential_near: compile(CREDENTIAL_NEAR)?,
            hash_near: compile(HASH_NEAR)?,
            token_run: compile(TOKEN_RUN)?,
            base64_run: compile(BASE64_RUN)?,
            word: compile(WORD)?,
            quiet: QUIET_SPANS.iter().map(|p| compile(p)).collect::<Option<Vec<_>>>()?,
        })
    }

    /// Replaces every secret with `[REDACTED:<kind>]`, or returns `Clean` if there is none.
    ///
    /// Redacting can change what the detectors see: a value that held a secret now holds a
    /// `[REDACTED:…]` marker, and a label that was hidden inside a longer match may stand on its
    /// own. So the redacted text is scanned again, up to [`MAX_PASSES`] times in all, until
    /// nothing more is found. That is what makes a rescan of a `Redacted` text come out `Clean`.
    /// A text without secrets is scanned once.
    pub(super) fn redact(&self, text: &str) -> Verdict {
        let Some((mut current, mut secrets)) = self.redact_once(text) else {
            return Verdict::Clean;
        };
        for _ in 1..MAX_PASSES {
            let Some((next, more)) = self.redact_once(&current) else { break };
            current = next;
            for kind in more {
                if !secrets.contains(&kind) {
                    secrets.push(kind);
                }
            }
        }
        Verdict::Redacted { text: current, secrets }
    }

    /// One pass of every detector: the redacted text and the kinds found, or `None` if nothing was.
    fn redact_once(&self, text: &str) -> Option<(String, Vec<SecretKind>)> {
        let mut spans = Spans(BTreeMap::new());
        // Most texts hold no secret: one pass of each set finds the few rules worth running, in
        // their order, instead of one pass per rule.
        for index in self.provider_set.matches(text).iter() {
            if let Some(rule) = self.providers.get(index) {
                self.apply(rule, text, &mut spans, true);
            }
        }
        self.aws_pairs(text, &mut spans);
        for index in self.value_form_set.matches(text).iter() {
            if let Some(rule) = self.value_forms.get(index) {
                self.apply(rule, text, &mut spans, false);
            }
        }
        let public = self.labelled_values(text, &mut spans);
        let quiet = self.quiet_spans(text, public);
        self.entropy_tokens(text, &quiet, &mut spans);
        if spans.0.is_empty() {
            return None;
        }
        let mut redacted = String::with_capacity(text.len());
        let mut secrets = Vec::new();
        let mut copied = 0;
        for (&start, &(end, kind)) in &spans.0 {
            // Spans come from regex matches and char-aligned scans, so these slices never fail;
            // `get` keeps a mistake from turning into a panic.
            redacted.push_str(text.get(copied..start).unwrap_or_default());
            redacted.push_str("[REDACTED:");
            redacted.push_str(kind.as_str());
            redacted.push(']');
            copied = end;
            if !secrets.contains(&kind) {
                secrets.push(kind);
            }
        }
        redacted.push_str(text.get(copied..).unwrap_or_default());
        Some((redacted, secrets))
    }

    /// Offers every match of one rule that passes its check. Provider matches are widened to the
    /// end of the token they stop in, so no tail of a longer key is left behind.
    fn apply(&self, rule: &Rule, text: &str, spans: &mut Spans, widen: bool) {
        for caps in rule.regex.captures_iter(text) {
            let Some(found) = caps.get(rule.group) else { continue };
            let Some((start, mut end)) = secret_span(rule.check, text, found.start(), found.end()) else {
                continue;
            };
            if widen {
                // Stop at the next accepted span, so widening never makes a span collide with it.
                let limit = spans.0.range(end..).next().map_or(text.len(), |(&next, _)| next);
                end += text.get(end..limit).map_or(0, token_tail_len);
            }
            spans.offer(start, end, rule.kind);
        }
    }

    /// An AWS secret access key: a 40-character base64 run with mixed case within
    /// [`AWS_PAIR_DISTANCE`] bytes of an AWS access key id (which the providers found already) or
    /// of the marker an earlier redaction left in its place, so a fact stored with only its id
    /// redacted loses its secret key the next time it is scanned.
    fn aws_pairs(&self, text: &str, spans: &mut Spans) {
        let marker = "[REDACTED:aws_access_key_id]";
        let mut ids: Vec<(usize, usize)> = spans
            .0
            .iter()
            .filter(|(_, (_, kind))| *kind == SecretKind::AwsAccessKeyId)
            .map(|(&start, &(end, _))| (start, end))
            .chain(text.match_indices(marker).map(|(start, m)| (start, start + m.len())))
            .collect();
        ids.sort_unstable();
        if ids.is_empty() {
            return;
        }
        for run in self.base64_run.find_iter(text) {
            let value = run.as_str();
            let followed_by_padding = text.get(run.end()..).is_some_and(|rest| rest.starts_with('='));
            if value.len() != 40 || followed_by_padding || is_hex(value) {
                continue;
            }
            let (upper, lower, _) = classes(value);
            if !(upper && lower) {
                continue;
            }
            // Ids are sorted by start; the nearest ones are on either side of the run.
            let after = ids.partition_point(|&(start, _)| start < run.start());
            let near_before = after
                .checked_sub(1)
                .and_then(|i| ids.get(i))
                .is_some_and(|&(_, end)| run.start().saturating_sub(end) <= AWS_PAIR_DISTANCE);
            let near_after = ids
                .get(after)
                .is_some_and(|&(start, _)| start.saturating_sub(run.end()) <= AWS_PAIR_DISTANCE);
            if near_before || near_after {
                spans.offer(run.start(), run.end(), SecretKind::AwsSecretKey);
            }
        }
    }

    /// Values after a credential label, in every shape [`LABELLED`] knows. Returns the values of
    /// labels that call them public (`public_key: …`, `STRIPE_PUBLISHABLE_KEY=…`), which the
    /// entropy detectors then leave alone.
    ///
    /// When a match is turned down (or overlaps a secret found earlier), the search goes on from
    /// the start of its value rather than from its end, so a label hidden in a rejected value
    /// (`cache_key=x&password=…`) is still seen. Only values up to [`RESCAN_LIMIT`] bytes are searched again, which keeps the total
    /// work linear in the text.
    fn labelled_values(&self, text: &str, spans: &mut Spans) -> Vec<(usize, usize)> {
        let mut public = Vec::new();
        for regex in &self.labelled {
            let mut at = 0;
            while let Some(caps) = text.get(at..).and_then(|_| regex.captures_at(text, at)) {
                let Some(whole) = caps.get(0) else { break };
                let mut next = whole.end();
                let taken = match labelled_value(text, &caps) {
                    Labelled::Secret(start, end) => spans.offer(start, end, SecretKind::LabelledSecret),
                    Labelled::Public(start, end) => {
                        public.push((start, end));
                        true
                    }
                    Labelled::Nothing => false,
                };
                // A value turned down, or one that overlaps a secret found earlier, may hold a
                // label of its own.
                if !taken {
                    let value = ["dq", "sq", "bq", "bare"].iter().find_map(|group| caps.name(group));
                    if let Some(value) = value
                        && value.len() <= RESCAN_LIMIT
                        && value.start() > whole.start()
                    {
                        next = value.start();
                    }
                }
                // Always move forward, even past an empty match.
                at = if next > at { next } else { at + 1 };
                while at < text.len() && !text.is_char_boundary(at) {
                    at += 1;
                }
                if at > text.len() {
                    break;
                }
            }
        }
        public
    }

    /// The byte ranges of every quiet span, sorted by start.
    /// Overlapping spans are merged, so the result is disjoint and a binary search finds the one
    /// that could hold a token.
    fn quiet_spans(&self, text: &str, mut spans: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
        spans.extend(self.quiet.iter().flat_map(|r| r.find_iter(text).map(|m| (m.start(), m.end()))));
        spans.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
        for (start, end) in spans {
            match merged.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        merged
    }

    /// Random-looking tokens, either after a credential word or long and random on their own.
    fn entropy_tokens(&self, text: &str, quiet: &[(usize, usize)], spans: &mut Spans) {
        for run in self.token_run.find_iter(text) {
            let (start, end) = (run.start(), run.end());
            if in_quiet_span(quiet, start, end) {
                continue;
            }
            let token = run.as_str().trim_end_matches('=');
            let before = text.get(..start).map(|b| tail(b, NEAR_WINDOW)).unwrap_or_default();
            // A key in lowercase hex looks like a hash, so it only counts right after a credential
            // word and with no hash word ("commit", "sha", "digest", …) in between.
            if is_hex(token) {
                let (upper, lower, digit) = classes(token);
                // `AC` and 32 hex digits is a Twilio account id, which is not a secret.
                let twilio_account = token.len() == 34 && token.starts_with("AC");
                if token.len() >= HEX_KEY_MIN_LEN
                    && !twilio_account
                    && digit
                    && (upper || lower)
                    && self.credential_near.is_match(before)
                    && !self.hash_near.is_match(before)
                {
                    spans.offer(start, end, SecretKind::HighEntropyToken);
                }
                continue;
            }
            if !looks_generated(token) || self.word_share(token) >= MAX_WORD_SHARE {
                continue;
            }
            let entropy = shannon_entropy(token);
            let near = token.len() >= NEAR_MIN_LEN
                && entropy >= NEAR_ENTROPY
                && self.credential_near.is_match(before);
            let alone = token.len() >= ALONE_MIN_LEN && entropy >= ALONE_ENTROPY;
            if near || alone {
                spans.offer(start, end, SecretKind::HighEntropyToken);
            }
        }
    }
}

impl SecretRules {
    /// The share of a token's characters that belong to word-like runs ([`WORD`]).
    pub(super) fn word_share(&self, token: &str) -> f64 {
        let in_words: usize = self.word.find_iter(token).map(|m| m.len()).sum();
        let share = |n: usize| f64::from(u32::try_from(n).unwrap_or(u32::MAX));
        if token.is_empty() { 0.0 } else { share(in_words) / share(token.len()) }
    }
}

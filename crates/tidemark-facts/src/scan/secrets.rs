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

use regex::{Captures, Regex};

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

/// The longest rejected labelled value that is searched again for a label inside it.
pub(super) const RESCAN_LIMIT: usize = 256;

/// How far (in bytes) an AWS secret key may sit from its key id.
pub(super) const AWS_PAIR_DISTANCE: usize = 160;

/// How a secret match is told apart from a harmless look-alike.
#[derive(Clone, Copy, Debug)]
pub(super) enum Check {
    /// The pattern is specific enough on its own.
    Exact,
    /// Generated keys mix upper case, lower case and digits; long hyphenated names do not.
    Random,
    /// Like [`Check::Random`], or a body of at least 32 hexadecimal characters with both digits
    /// and letters (keys written in lowercase hex).
    RandomOrHex,
    /// The match has at least one digit.
    HasDigit,
    /// The password of a URL is not a documentation placeholder (`${DB_PASSWORD}`, `password`).
    NotPlaceholder,
    /// The value after a label is not a documentation word, a placeholder or code.
    LabelValue,
    /// The value after "password is" has a digit or a symbol, so it is not an ordinary word.
    SpokenValue,
}

/// How strict the value check is for a labelled value, decided by the last word of the label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LabelTier {
    /// `password`, `passwd`, `pwd`, `pass`, `passphrase`, `passcode`: any value that is not a
    /// placeholder, even a plain word, because people do pick words as passwords.
    Password,
    /// `secret`, `token`, `credentials`, `sig`, and `key` after `api`, `access`, `secret`,
    /// `private`, `account`, `shared`, `client` and similar: a value of eight or more characters
    /// with a digit or mixed case.
    Secret,
    /// Any other `…_KEY` or `auth` label (`FOO_KEY`, `cache_key`, `sort_key`): only a
    /// random-looking value of sixteen or more characters, because such keys are often names.
    Generic,
}

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
    value_forms: Vec<Rule>,
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
    Regex::new(&pattern.replace(r"\b", r"(?-u:\b)")).ok()
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
    /// Accepts a span unless it is empty or overlaps one accepted before.
    fn offer(&mut self, start: usize, end: usize, kind: SecretKind) {
        if start >= end {
            return;
        }
        let overlaps_before = self.0.range(..=start).next_back().is_some_and(|(_, &(e, _))| e > start);
        let overlaps_after = self.0.range(start..).next().is_some_and(|(&s, _)| s < end);
        if !overlaps_before && !overlaps_after {
            self.0.insert(start, (end, kind));
        }
    }
}

impl SecretRules {
    /// Compiles every pattern, or returns `None` if any fails.
    pub(super) fn compile() -> Option<Self> {
        Some(Self {
            providers: compile_rules(PROVIDERS)?,
            value_forms: compile_rules(VALUE_FORMS)?,
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
    pub(super) fn redact(&self, text: &str) -> Verdict {
        let mut spans = Spans(BTreeMap::new());
        for rule in &self.providers {
            self.apply(rule, text, &mut spans, true);
        }
        self.aws_pairs(text, &mut spans);
        for rule in &self.value_forms {
            self.apply(rule, text, &mut spans, false);
        }
        let public = self.labelled_values(text, &mut spans);
        let quiet = self.quiet_spans(text, public);
        self.entropy_tokens(text, &quiet, &mut spans);
        if spans.0.is_empty() {
            return Verdict::Clean;
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
        Verdict::Redacted { text: redacted, secrets }
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
                end += text.get(end..limit).map_or(0, |rest| {
                    rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-')).count()
                });
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
    /// When a match is turned down, the search goes on from the start of its value rather than
    /// from its end, so a label hidden in a rejected value (`cache_key=x&password=…`) is still
    /// seen. Only values up to [`RESCAN_LIMIT`] bytes are searched again, which keeps the total
    /// work linear in the text.
    fn labelled_values(&self, text: &str, spans: &mut Spans) -> Vec<(usize, usize)> {
        let mut public = Vec::new();
        for regex in &self.labelled {
            let mut at = 0;
            while let Some(caps) = text.get(at..).and_then(|_| regex.captures_at(text, at)) {
                let Some(whole) = caps.get(0) else { break };
                let mut next = whole.end();
                match labelled_value(text, &caps) {
                    Labelled::Secret(start, end) => spans.offer(start, end, SecretKind::LabelledSecret),
                    Labelled::Public(start, end) => public.push((start, end)),
                    Labelled::Nothing => {
                        let value_start = ["dq", "sq", "bq", "bare"]
                            .iter()
                            .find_map(|group| caps.name(group))
                            .map(|value| (value.start(), value.len()));
                        if let Some((start, len)) = value_start
                            && len <= RESCAN_LIMIT
                            && start > whole.start()
                        {
                            next = start;
                        }
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

/// Whether the token sits inside one of the quiet spans (disjoint and sorted by start).
fn in_quiet_span(quiet: &[(usize, usize)], start: usize, end: usize) -> bool {
    let before = quiet.partition_point(|&(s, _)| s <= start);
    before.checked_sub(1).and_then(|i| quiet.get(i)).is_some_and(|&(_, e)| e >= end)
}

/// Whether a token could be a generated credential rather than an id, a hash or a name: upper
/// case, lower case and digits, not hexadecimal (with or without a two-letter prefix such as the
/// `AC` of a Twilio account id), not an SSH key body and not a digest written as `sha512-…`.
fn looks_generated(token: &str) -> bool {
    let (upper, lower, digit) = classes(token);
    let hex_body =
        token.get(2..).is_some_and(|body| body.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-'));
    let lower_case = token.to_ascii_lowercase();
    let digest = ["sha1-", "sha256-", "sha384-", "sha512-", "md5-"]
        .iter()
        .any(|prefix| lower_case.starts_with(prefix));
    upper && lower && digit && !hex_body && !token.starts_with("AAAA") && !digest && !is_public_base58(token)
}

/// Whether a token is a public base58 identifier: an IPFS content id (`Qm` and 44 characters) or
/// a Bitcoin address (`1…` or `3…`, 25 to 35 characters). Private keys in base58 are longer.
fn is_public_base58(token: &str) -> bool {
    const BASE58: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    let base58 = token.bytes().all(|b| BASE58.contains(&b));
    let ipfs = token.len() == 46 && token.starts_with("Qm");
    let bitcoin = (25..=35).contains(&token.len()) && token.starts_with(['1', '3']);
    base58 && (ipfs || bitcoin)
}

/// Shannon entropy of the bytes of `token`, in bits per byte.
pub(super) fn shannon_entropy(token: &str) -> f64 {
    let mut counts = [0_u32; 256];
    for b in token.bytes() {
        if let Some(count) = counts.get_mut(usize::from(b)) {
            *count += 1;
        }
    }
    let total = f64::from(u32::try_from(token.len()).unwrap_or(u32::MAX));
    if total == 0.0 {
        return 0.0;
    }
    counts
        .iter()
        .filter(|&&count| count > 0)
        .map(|&count| {
            let p = f64::from(count) / total;
            -p * p.log2()
        })
        .sum()
}

/// At most the last `max` bytes of `text`, starting on a character boundary.
fn tail(text: &str, max: usize) -> &str {
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    text.get(start..).unwrap_or_default()
}

/// Whether the text has upper case, lower case and digits.
fn classes(value: &str) -> (bool, bool, bool) {
    (
        value.bytes().any(|b| b.is_ascii_uppercase()),
        value.bytes().any(|b| b.is_ascii_lowercase()),
        value.bytes().any(|b| b.is_ascii_digit()),
    )
}

/// Whether the text is non-empty and all hexadecimal digits.
fn is_hex(value: &str) -> bool {
    !value.is_empty() && value.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Splits a label into lowercase words at separators and case changes: `AccountKey` gives
/// `account`, `key`; `OPENAI_API_KEY` gives `openai`, `api`, `key`; `APIKey` gives `api`, `key`.
pub(super) fn label_words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let previous = i.checked_sub(1).and_then(|p| chars.get(p)).copied();
        let next = chars.get(i + 1).copied();
        let boundary = c.is_ascii_uppercase()
            && previous.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
            });
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// How strict to be with the value of a label, or `None` if the label does not name a credential.
pub(super) fn label_tier(name: &str) -> Option<LabelTier> {
    let words = label_words(name);
    if words.iter().any(|w| matches!(w.as_str(), "public" | "pub" | "publishable")) {
        return None;
    }
    // `SECRET_KEY_BASE`, `API_TOKEN_VALUE`: a trailing word that only says how the value is
    // written is skipped.
    let words = match words.split_last() {
        Some((last, rest))
            if !rest.is_empty()
                && matches!(
                    last.as_str(),
                    "value" | "base" | "data" | "b64" | "base64" | "hex" | "string"
                ) =>
        {
            rest
        }
        _ => words.as_slice(),
    };
    let last = words.last()?.as_str();
    let previous = words.len().checked_sub(2).and_then(|i| words.get(i)).map(String::as_str);
    match last {
        "password" | "passwd" | "pwd" | "pass" | "passphrase" | "passcode" => Some(LabelTier::Password),
        "secret" | "secrets" | "token" | "credential" | "credentials" | "apikey" | "accesskey"
        | "secretkey" | "privatekey" | "clientsecret" | "accesstoken" | "authtoken" | "sig" => {
            Some(LabelTier::Secret)
        }
        "key" | "keys" => match previous {
            Some(
                "api" | "access" | "secret" | "private" | "account" | "shared" | "master" | "signing"
                | "encryption" | "client" | "auth" | "service" | "app" | "license" | "subscription" | "admin"
                | "deploy" | "session" | "webhook",
            ) => Some(LabelTier::Secret),
            _ => Some(LabelTier::Generic),
        },
        "auth" => Some(LabelTier::Generic),
        // Words run together: `PGPASSWORD`, `dbpassword`, `jwtsecret`, `slacktoken`.
        _ if ["password", "passwd", "passphrase"].iter().any(|w| last.ends_with(w)) => {
            Some(LabelTier::Password)
        }
        _ if ["secret", "token", "apikey", "secretkey", "privatekey", "accesskey"]
            .iter()
            .any(|w| last.ends_with(w)) =>
        {
            Some(LabelTier::Secret)
        }
        _ => None,
    }
}

/// What one labelled match holds.
enum Labelled {
    /// A secret value at this byte range.
    Secret(usize, usize),
    /// A value its label calls public, at this byte range.
    Public(usize, usize),
    /// Nothing to redact or protect.
    Nothing,
}

/// Sorts one labelled match into a secret value, a public value or nothing.
fn labelled_value(text: &str, caps: &Captures<'_>) -> Labelled {
    let Some((start, end, public)) = labelled_range(text, caps) else { return Labelled::Nothing };
    if public { Labelled::Public(start, end) } else { Labelled::Secret(start, end) }
}

/// The byte range of the value of one labelled match and whether its label calls it public, or
/// `None` if the label or the value rules it out.
fn labelled_range(text: &str, caps: &Captures<'_>) -> Option<(usize, usize, bool)> {
    let name = caps.name("name")?;
    // "the age public key is …": the word before the label counts too.
    let before = text.get(..name.start()).map(|b| tail(b, 12).to_ascii_lowercase()).unwrap_or_default();
    let public = before.contains("public")
        || before.contains("publishable")
        || label_words(name.as_str()).iter().any(|w| matches!(w.as_str(), "public" | "pub" | "publishable"));
    let spoken = caps
        .name("sep")
        .is_some_and(|sep| sep.as_str().trim().len() > 1 && !sep.as_str().contains(['=', ':']));
    let quoted = caps.name("dq").or_else(|| caps.name("sq")).or_else(|| caps.name("bq"));
    let (value, quoted) = match (quoted, caps.name("bare")) {
        (Some(v), _) => (v, true),
        (None, Some(v)) => (v, false),
        (None, None) => return None,
    };
    let tier = label_tier(name.as_str());
    let mut end = value.end();
    if !quoted {
        let raw = value.as_str();
        // In a query string the next parameter starts at `&`.
        let in_query = text.get(..name.start()).is_some_and(|b| b.ends_with(['?', '&']));
        let cut = if in_query { raw.find('&').unwrap_or(raw.len()) } else { raw.len() };
        let kept = raw.get(..cut)?;
        // Generated tokens never end in punctuation, so a trailing `.` or `)` belongs to the
        // sentence. A password may well end in `!` or `.`, so its value is kept whole: redacting a
        // full stop too costs less than leaving the last character of a password behind.
        let kept = match tier {
            Some(LabelTier::Password) if !spoken => kept,
            Some(LabelTier::Password) => kept.trim_end_matches(['.', ',', ';', ':', '?', ')']),
            _ => kept.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']', '}']),
        };
        end = value.start() + kept.len();
    }
    let candidate = text.get(value.start()..end)?;
    let trimmed = candidate.trim();
    let offset = candidate.find(trimmed).unwrap_or(0);
    let start = value.start() + offset;
    if public {
        return Some((start, start + trimmed.len(), true));
    }
    // A lone `pass:` is as often prose ("how to pass: --verbose") as a label, so it gets the
    // stricter check of a spoken label.
    let strict = spoken || name.as_str().eq_ignore_ascii_case("pass");
    usable_value(trimmed, tier?, strict).then_some((start, start + trimmed.len(), false))
}

/// Whether a labelled value is a plausible credential for the tier of its label.
pub(super) fn usable_value(value: &str, tier: LabelTier, spoken: bool) -> bool {
    // A value after `-` is a command-line flag, and one after `:` means the separator was half of
    // a `::` path (`FactPass::verify`).
    if value.is_empty()
        || value.starts_with(['-', ':'])
        || is_placeholder(value)
        || looks_like_code_or_path(value)
    {
        return false;
    }
    let (upper, lower, digit) = classes(value);
    let symbol = value.chars().any(|c| c.is_ascii_punctuation() && c != '-');
    let long = value.chars().count();
    match (tier, spoken) {
        (LabelTier::Password, false) => long >= 6 || (long >= 4 && (digit || symbol)),
        (LabelTier::Password, true) => long >= 4 && (digit || symbol),
        // A long single word of letters counts too (`JWT_SECRET: supersecretvalue`), but not
        // words joined by hyphens or spaces (`secret: keep-it-between-us`).
        (LabelTier::Secret, false) => {
            long >= 8
                && (digit
                    || (upper && lower)
                    || (long >= 12 && value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')))
        }
        (LabelTier::Secret, true) => long >= 8 && digit,
        // A generic key is often a name or a path (`object key is uploads/2024/report.pdf`), so
        // a value with two slashes or a file extension is left alone, and after a spoken label
        // only a value that mixes upper case, lower case and digits counts.
        (LabelTier::Generic, spoken) => {
            let path_like = value.matches('/').count() >= 2 || has_file_extension(value);
            let random = (upper && lower && digit && shannon_entropy(value) >= 3.0)
                || (!spoken && is_hex(value) && long >= 32 && digit && (upper || lower))
                || (!spoken && shannon_entropy(value) >= 4.0);
            long >= 16 && !value.starts_with("AAAA") && !path_like && random
        }
    }
}

/// Whether a value is a placeholder from documentation or a template rather than a secret.
pub(super) fn is_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let one_repeated_char = value.chars().next().is_some_and(|first| value.chars().all(|c| c == first));
    let masked = value.chars().all(|c| matches!(c, '*' | 'x' | 'X' | '•' | '.' | '#' | '-' | '_'));
    let has_digit = value.bytes().any(|b| b.is_ascii_digit());
    let worded = !has_digit && PLACEHOLDER_WORDS.iter().any(|w| lower.contains(w));
    // `MY_DB_PASSWORD`: the name of a variable that holds the value, not the value.
    let variable_name =
        !has_digit && value.contains('_') && value.bytes().all(|b| b.is_ascii_uppercase() || b == b'_');
    value.starts_with(['$', '<', '{', '%', '[', '(', '!', '*', '&'])
        || value.starts_with("[REDACTED:")
        || one_repeated_char
        || masked
        || worded
        || variable_name
        || PLACEHOLDERS.iter().any(|p| p.eq_ignore_ascii_case(value))
        || LABEL_STOPWORDS.iter().any(|p| p.eq_ignore_ascii_case(value))
}

/// Whether a value ends in a short file extension such as `.pdf` or `.json`.
fn has_file_extension(value: &str) -> bool {
    value.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && (2..=4).contains(&ext.len()) && ext.bytes().all(|b| b.is_ascii_lowercase())
    })
}

/// Whether a value is code (`os.environ["X"]`, `getenv(…)`), a file path or a URL.
fn looks_like_code_or_path(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let windows_drive = value.as_bytes().get(1..3) == Some(b":\\".as_slice());
    value.contains(['(', '[', '{'])
        || lower.contains("process.env")
        || lower.contains("os.environ")
        || lower.contains("://")
        || value.starts_with(['/', '~'])
        || value.starts_with("./")
        || value.starts_with("../")
        || windows_drive
}

/// The byte range to replace for one pattern match, or `None` if the match is a look-alike.
pub(super) fn secret_span(check: Check, text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let value = text.get(start..end)?;
    let whole = Some((start, end));
    // A quoted value ends at its quote, so trailing punctuation inside the quotes is part of it.
    let quoted = text.get(end..).is_some_and(|rest| rest.starts_with(['"', '\'', '\u{201D}']));
    // A `!` is kept: it ends passwords more often than it ends facts, and redacting one too many
    // characters is the safer mistake.
    let trim =
        |v: &str| if quoted { v.len() } else { v.trim_end_matches(['.', ',', ';', ':', '?', ')']).len() };
    let (upper, lower, digit) = classes(value);
    match check {
        Check::Exact => whole,
        Check::Random => whole.filter(|_| upper && lower && digit),
        Check::RandomOrHex => {
            let body = value.rsplit(['-', '_']).next().unwrap_or(value);
            let hex = is_hex(body) && body.len() >= 32 && body.bytes().any(|b| b.is_ascii_digit());
            whole.filter(|_| (upper && lower && digit) || hex)
        }
        Check::HasDigit => whole.filter(|_| digit),
        Check::NotPlaceholder => whole.filter(|_| !is_placeholder(value)),
        Check::LabelValue => {
            let trimmed = value.get(..trim(value))?;
            let code = trimmed.contains(['(', '[', '{']);
            let stopword = LABEL_STOPWORDS.iter().any(|w| w.eq_ignore_ascii_case(trimmed));
            (trimmed.len() >= 6 && !code && !stopword && !is_placeholder(trimmed))
                .then_some((start, start + trimmed.len()))
        }
        Check::SpokenValue => {
            let trimmed = value.get(..trim(value))?;
            let telling =
                trimmed.chars().any(|c| c.is_ascii_digit() || (c.is_ascii_punctuation() && c != '-'));
            let code = trimmed.contains(['(', '[', '{']) || trimmed.contains("://");
            (trimmed.len() >= 4 && telling && !code).then_some((start, start + trimmed.len()))
        }
    }
}

//! The scan's compiled rules and the checks built on them: hidden characters and terminal escapes, injection phrases and exfiltration. Secret redaction lives in [`secrets`](super::secrets).

use crate::lazy::Regex;

use super::gate::{Gate, Hits, Spot};
use super::patterns::*;
use super::secrets::SecretRules;
use super::{Finding, Threat, Verdict};

/// One compiled injection phrase.
pub(super) struct PhraseRule {
    regex: Spot,
    negatable: bool,
    /// A shape honest text often has: a weak finding, never a strong one.
    weak: bool,
}

/// Every compiled pattern.
pub(super) struct Rules {
    injection: Vec<PhraseRule>,
    /// Which injection phrases can match a text, in one pass per set.
    injection_gate: Gate,
    negation: Regex,
    secrets: SecretRules,
    url: Regex,
    email: Regex,
    domain: Regex,
    ipv4: Regex,
    send_verb: Regex,
    sensitive_object: Regex,
    benign_compound: Regex,
    toward: Regex,
    downloader: Regex,
    file_transfer: Regex,
    code_request: Regex,
    theft_verb: Regex,
    upload_marker: Regex,
    pipe_to_shell: Regex,
    shell_substitution: Regex,
    md_image: Regex,
    html_image: Regex,
    blob: Regex,
    dns_subshell: Regex,
    reverse_shell: Regex,
    emoji_before_joiner: Regex,
    emoji_after_joiner: Regex,
    joining_script: Regex,
}

/// Compiles one pattern with ASCII word boundaries.
pub(super) fn compile(pattern: &str) -> Option<Regex> {
    Some(Regex::new(&ascii_boundaries(pattern)))
}

impl Rules {
    /// Compiles every pattern, or returns `None` if any fails (see the comment on [`RULES`](super::RULES)).
    pub(super) fn compile() -> Option<Self> {
        let injection = INJECTION
            .iter()
            .map(|&(pattern, negatable)| {
                Spot::new(&injection_source(pattern)).map(|regex| PhraseRule {
                    regex,
                    negatable,
                    weak: WEAK_INJECTION.contains(&pattern),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let sources: Vec<&str> = injection.iter().map(|rule| rule.regex.as_str()).collect();
        let injection_gate = Gate::cached(&sources, &[])?;
        Some(Self {
            injection,
            injection_gate,
            negation: compile(NEGATION)?,
            secrets: SecretRules::compile()?,
            url: compile(URL)?,
            email: compile(EMAIL)?,
            domain: compile(DOMAIN)?,
            ipv4: compile(IPV4)?,
            send_verb: compile(SEND_VERB)?,
            sensitive_object: compile(SENSITIVE_OBJECT)?,
            benign_compound: compile(BENIGN_COMPOUND)?,
            toward: compile(TOWARD)?,
            downloader: compile(DOWNLOADER)?,
            file_transfer: compile(FILE_TRANSFER)?,
            code_request: compile(CODE_REQUEST)?,
            theft_verb: compile(THEFT_VERB)?,
            upload_marker: compile(UPLOAD_MARKER)?,
            pipe_to_shell: compile(PIPE_TO_SHELL)?,
            shell_substitution: compile(SHELL_SUBSTITUTION)?,
            md_image: compile(MD_IMAGE)?,
            html_image: compile(HTML_IMAGE)?,
            blob: compile(BLOB)?,
            dns_subshell: compile(DNS_SUBSHELL)?,
            reverse_shell: compile(REVERSE_SHELL)?,
            emoji_before_joiner: compile(EMOJI_BEFORE_JOINER)?,
            emoji_after_joiner: compile(EMOJI_AFTER_JOINER)?,
            joining_script: compile(JOINING_SCRIPT)?,
        })
    }

    // -----------------------------------------------------------------------------------------
    // Hidden characters
    // -----------------------------------------------------------------------------------------

    /// The first invisible format character that is not part of a legitimate sequence.
    pub(super) fn find_hidden(&self, text: &str) -> Option<Threat> {
        let mut previous: Option<char> = None;
        for (index, c) in text.char_indices() {
            let hidden = match c {
                '\u{200C}' => !self.between_joining_letters(text, index, c),
                '\u{200D}' => {
                    !self.between_joining_letters(text, index, c) && !self.between_emoji(text, index, c)
                }
                '\u{E0000}'..='\u{E007F}' => !in_flag_tag_sequence(text, index),
                // One variation selector after a character is how emoji and CJK variants are
                // chosen; a second one in a row carries nothing visible and is a known way to
                // smuggle bytes.
                '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => {
                    previous.is_some_and(is_variation_selector)
                }
                // Directional marks only settle the direction of neutral characters next to them
                // (a phone number inside Hebrew text); they reorder and hide nothing.
                '\u{200E}' | '\u{200F}' | '\u{061C}' => false,
                // A soft hyphen inside a word is a hyphenation hint ("Donau\u{AD}dampf"). The
                // matching views drop it, so it cannot split a cue either.
                '\u{00AD}' => !between_letters(text, index, c),
                _ => is_invisible_format(c),
            };
            if hidden {
                return Some(Threat::HiddenCharacter { codepoint: u32::from(c), index });
            }
            previous = Some(c);
        }
        None
    }

    /// Whether the joiner at `index` sits between two letters of a script that uses joiners.
    pub(super) fn between_joining_letters(&self, text: &str, index: usize, joiner: char) -> bool {
        let (before, after) = neighbours(text, index, joiner);
        before.is_some_and(|c| self.joining_script.is_match(c.encode_utf8(&mut [0; 4])))
            && after.is_some_and(|c| self.joining_script.is_match(c.encode_utf8(&mut [0; 4])))
    }

    /// Whether the zero-width joiner at `index` glues two emoji together (👩‍💻).
    pub(super) fn between_emoji(&self, text: &str, index: usize, joiner: char) -> bool {
        let (before, after) = neighbours(text, index, joiner);
        before.is_some_and(|c| self.emoji_before_joiner.is_match(c.encode_utf8(&mut [0; 4])))
            && after.is_some_and(|c| self.emoji_after_joiner.is_match(c.encode_utf8(&mut [0; 4])))
    }

    // -----------------------------------------------------------------------------------------
    // Prompt injection
    // -----------------------------------------------------------------------------------------

    /// The first injection phrase that is not negated.
    pub(super) fn find_injection(&self, text: &str) -> Option<Finding> {
        self.find_injection_among(text, &self.injection_gate.hits(text))
    }

    /// [`find_injection`](Self::find_injection) with every phrase searched on its own, for the gate's tests.
    #[cfg(test)]
    pub(super) fn find_injection_ungated(&self, text: &str) -> Option<Finding> {
        self.find_injection_among(text, &Hits::anywhere(self.injection.len()))
    }

    /// How many injection phrases the gate always lets through, and how many there are.
    #[cfg(test)]
    pub(super) fn injection_gate_size(&self) -> (usize, usize) {
        (self.injection_gate.ungated(), self.injection.len())
    }

    /// The first injection phrase, searched where `hits` says it can match, that is not negated
    /// and not quoted; else the first quoted one, as a weak finding (see [`quoted`]).
    fn find_injection_among(&self, text: &str, hits: &Hits) -> Option<Finding> {
        let mut weak = None;
        for (index, rule) in self.injection.iter().enumerate() {
            let reach = hits.reach(index);
            let mut at = 0;
            while let Some(found) = rule.regex.find_from(text, reach, at) {
                // Matches are never empty (each starts with a literal), so this moves on.
                at = found.end().max(found.start() + 1);
                let before = text.get(..found.start()).unwrap_or_default();
                if rule.negatable && self.negation.is_match(tail(before, 32)) {
                    continue;
                }
                let threat = Threat::PromptInjection { phrase: readable(found.as_str()) };
                if !rule.weak && !quoted(text, found.start(), found.end()) {
                    return Some(Finding::Strong(threat));
                }
                weak = weak.or(Some(Finding::Weak(threat)));
            }
        }
        weak
    }

    // -----------------------------------------------------------------------------------------
    // Exfiltration
    // -----------------------------------------------------------------------------------------

    /// The first exfiltration pattern that matches.
    pub(super) fn find_exfiltration(&self, text: &str) -> Option<Threat> {
        let pattern = self
            .command_line_exfiltration(text)
            .or_else(|| self.image_exfiltration(text))
            .or_else(|| self.url_payload(text))
            .or_else(|| clauses(text).find_map(|clause| self.clause_exfiltration(clause)))?;
        Some(Threat::Exfiltration { pattern })
    }

    /// Shell one-liners: uploads with curl and friends, download-and-run, DNS and socket tricks.
    pub(super) fn command_line_exfiltration(&self, text: &str) -> Option<&'static str> {
        if self.dns_subshell.is_match(text) {
            return Some("dns_subshell");
        }
        let remote_socket = self
            .reverse_shell
            .captures_iter(text)
            .any(|caps| caps.get(1).is_none_or(|host| !is_local_authority(host.as_str())));
        if remote_socket {
            return Some("reverse_shell");
        }
        if self.shell_substitution.is_match(text) && self.has_remote_host(text) {
            return Some("remote_script_pipe");
        }
        for line in text.lines() {
            if self.file_transfer.is_match(line)
                && self.sensitive_object.is_match(line)
                && self.has_remote_host(line)
            {
                return Some("file_transfer");
            }
            if self.code_request.is_match(line)
                && self.sensitive_object.is_match(line)
                && self.has_remote_host(line)
            {
                return Some("code_upload");
            }
            let Some(command) = self.downloader.find(line) else { continue };
            let rest = &line[command.start()..];
            if !self.has_remote_host(rest) {
                continue;
            }
            if self.pipe_to_shell.is_match(rest) {
                return Some("remote_script_pipe");
            }
            if self.upload_marker.is_match(line) {
                // Posting a literal body ("-d '{\"hello\":\"world\"}'") is how APIs are tried out;
                // posting a file, the environment, a variable or anything sensitive is an upload.
                let payload = self.sensitive_object.is_match(line)
                    || line.contains(['$', '@'])
                    || line.contains("env |")
                    || line.contains("printenv");
                return Some(if payload { "http_upload" } else { "http_post" });
            }
        }
        None
    }

    /// Whether the text names a host that is not this machine (URL, bare domain or IPv4).
    pub(super) fn has_remote_host(&self, text: &str) -> bool {
        self.url
            .captures_iter(text)
            .any(|caps| caps.get(1).is_some_and(|host| !is_local_authority(host.as_str())))
            || self
                .domain
                .captures_iter(text)
                .any(|caps| caps.get(1).is_some_and(|d| !is_local_host(d.as_str())))
            || self
                .ipv4
                .captures_iter(text)
                .any(|caps| caps.get(1).is_some_and(|ip| !is_local_host(ip.as_str())))
    }

    /// Markdown or HTML images whose URL carries data to a remote host (rendering the image
    /// sends the request).
    pub(super) fn image_exfiltration(&self, text: &str) -> Option<&'static str> {
        let urls = self
            .md_image
            .captures_iter(text)
            .chain(self.html_image.captures_iter(text))
            .filter_map(|caps| caps.get(1).map(|m| m.as_str()));
        for url in urls {
            let without_scheme = url.split_once("//").map_or(url, |(_, rest)| rest);
            let (authority, after_host) = without_scheme
                .find(['/', '?', '#'])
                .map_or((without_scheme, ""), |at| (&without_scheme[..at], &without_scheme[at..]));
            if is_local_authority(authority) {
                continue;
            }
            if after_host.contains(['{', '}', '[', ']', '<', '>', '$']) {
                return Some("markdown_image_query");
            }
            let suspicious = query_pairs(after_host).any(|(name, value)| {
                let name = name.to_ascii_lowercase();
                (value.len() >= 16 && !TRACKING_PARAMS.contains(&name.as_str()))
                    || (PAYLOAD_PARAMS.contains(&name.as_str()) && !value.is_empty())
            });
            if suspicious {
                return Some("markdown_image_query");
            }
        }
        None
    }

    /// A remote URL whose query string carries a base64 blob.
    pub(super) fn url_payload(&self, text: &str) -> Option<&'static str> {
        for url in self.url.captures_iter(text) {
            let (Some(whole), Some(authority)) = (url.get(0), url.get(1)) else { continue };
            if is_local_authority(authority.as_str()) {
                continue;
            }
            let after_host = &whole.as_str()[authority.end() - whole.start()..];
            let carries_blob = query_pairs(after_host).any(|(name, value)| {
                let name = name.to_ascii_lowercase();
                !TRACKING_PARAMS.contains(&name.as_str())
                    && !SIGNATURE_PARAMS.contains(&name.as_str())
                    && self.blob.find_iter(value).any(|blob| looks_like_payload(blob.as_str()))
            });
            if carries_blob {
                return Some("base64_to_url");
            }
        }
        None
    }

    /// A sentence that tells someone to send sensitive data, or a base64 blob, to a remote place.
    pub(super) fn clause_exfiltration(&self, clause: &str) -> Option<&'static str> {
        if !self.send_verb.is_match(clause) || !self.has_remote_destination(clause) {
            return None;
        }
        if self.theft_verb.is_match(clause) {
            return Some("send_sensitive_data");
        }
        let names_sensitive_object = self.sensitive_object.find_iter(clause).any(|found| {
            let compound = found.as_str().chars().last().is_some_and(|c| c.is_ascii_alphabetic())
                && self.benign_compound.is_match(&clause[found.end()..]);
            !compound
        });
        if names_sensitive_object {
            return Some("send_sensitive_data");
        }
        // URL matches do not overlap and come in order, so the one that could contain a blob is
        // the last one starting at or before it.
        let url_spans: Vec<(usize, usize)> =
            self.url.find_iter(clause).map(|m| (m.start(), m.end())).collect();
        let blob_outside_urls = self.blob.find_iter(clause).any(|blob| {
            let before = url_spans.partition_point(|&(start, _)| start <= blob.start());
            let inside_url =
                before > 0 && url_spans.get(before - 1).is_some_and(|&(_, end)| blob.end() <= end);
            looks_like_payload(blob.as_str()) && !inside_url
        });
        blob_outside_urls.then_some("base64_to_url")
    }

    /// Whether the clause has a remote URL, email address, domain or IP that something is sent to.
    pub(super) fn has_remote_destination(&self, clause: &str) -> bool {
        let toward = |start: usize| self.toward.is_match(tail(&clause[..start], 80));
        self.url.captures_iter(clause).any(|caps| match (caps.get(0), caps.get(1)) {
            (Some(whole), Some(authority)) => {
                !is_local_authority(authority.as_str()) && toward(whole.start())
            }
            _ => false,
        }) || self.email.captures_iter(clause).any(|caps| match (caps.get(0), caps.get(1)) {
            (Some(whole), Some(domain)) => !is_local_host(domain.as_str()) && toward(whole.start()),
            _ => false,
        }) || self.domain.captures_iter(clause).any(|caps| match (caps.get(0), caps.get(1)) {
            (Some(whole), Some(domain)) => !is_local_host(domain.as_str()) && toward(whole.start()),
            _ => false,
        }) || self.ipv4.captures_iter(clause).any(|caps| match (caps.get(0), caps.get(1)) {
            (Some(whole), Some(ip)) => !is_local_host(ip.as_str()) && toward(whole.start()),
            _ => false,
        })
    }

    // -----------------------------------------------------------------------------------------
    // Secrets
    // -----------------------------------------------------------------------------------------

    /// Replaces every secret, or returns `Clean` if there is none.
    pub(super) fn redact(&self, text: &str) -> Verdict {
        self.secrets.redact(text)
    }
}

/// The first terminal escape: ESC, or an 8-bit C1 introducer (CSI, OSC, DCS, SOS, PM, APC).
pub(super) fn find_escape(text: &str) -> Option<Threat> {
    let mut from = 0;
    while let Some(offset) = text.get(from..).and_then(|rest| {
        rest.find(|c: char| {
            matches!(c, '\u{1B}' | '\u{90}' | '\u{98}' | '\u{9B}' | '\u{9D}' | '\u{9E}' | '\u{9F}')
        })
    }) {
        let index = from + offset;
        match colour_sequence(text.get(index..).unwrap_or_default()) {
            Some(len) => from = index + len,
            None => return Some(Threat::AnsiEscape { index }),
        }
    }
    None
}

/// The length of a colour sequence (`ESC [ 1;31 m`: SGR with digits and semicolons) at the start
/// of `text`, if there is one and it does not conceal text (attribute 8). Coloured tool output is
/// common and harmless; every other escape (cursor moves, screen clears, window titles, a
/// conceal) can hide or rewrite what a reader sees and is rejected.
fn colour_sequence(text: &str) -> Option<usize> {
    let params = text.strip_prefix("\u{1B}[")?;
    let len = params.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
    let (digits, rest) = params.split_at(len);
    if !rest.starts_with('m') || digits.len() > 32 {
        return None;
    }
    let conceals = digits.split(';').any(|p| p.trim_start_matches('0') == "8");
    (!conceals).then_some(2 + len + 1)
}

/// Whether the character at `index` sits between two letters.
fn between_letters(text: &str, index: usize, c: char) -> bool {
    let before = text.get(..index).and_then(|b| b.chars().next_back());
    let after = text.get(index + c.len_utf8()..).and_then(|a| a.chars().next());
    before.is_some_and(char::is_alphabetic) && after.is_some_and(char::is_alphabetic)
}

/// Characters that render as nothing and have no place in a fact. Joiners, tag characters and
/// variation selectors are handled with their context in [`Rules::find_hidden`].
pub(super) fn is_invisible_format(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}' // soft hyphen
            | '\u{061C}' // Arabic letter mark (a bidi control)
            | '\u{180E}' // Mongolian vowel separator
            | '\u{200B}'..='\u{200F}' // zero-width space, LRM, RLM (ZWNJ and ZWJ are matched earlier)
            | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
            | '\u{2060}'..='\u{206F}' // word joiner, invisible operators, bidi isolates, deprecated formats
            | '\u{3164}' // Hangul filler
            | '\u{FEFF}' // zero-width no-break space / byte-order mark
            | '\u{FFA0}' // half-width Hangul filler
            | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation controls
            | '\u{1D173}'..='\u{1D17A}' // invisible musical formatting
    )
}

pub(super) fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

/// The characters right before and after the character at `index`.
pub(super) fn neighbours(text: &str, index: usize, at: char) -> (Option<char>, Option<char>) {
    let before = text.get(..index).and_then(|s| s.chars().next_back());
    let after = text.get(index + at.len_utf8()..).and_then(|s| s.chars().next());
    (before, after)
}

/// Whether the tag character at `index` belongs to a subdivision flag such as 🏴󠁧󠁢󠁳󠁣󠁴󠁿: a black
/// flag, two to six tag letters or digits, and a cancel tag. Such a sequence can hide at most six
/// lowercase characters, so it is allowed; any other tag character is rejected.
pub(super) fn in_flag_tag_sequence(text: &str, index: usize) -> bool {
    const BLACK_FLAG: char = '\u{1F3F4}';
    const CANCEL_TAG: char = '\u{E007F}';
    let is_tag_spec = |c: char| matches!(c, '\u{E0030}'..='\u{E0039}' | '\u{E0061}'..='\u{E007A}');
    let Some(here) = text.get(index..).and_then(|s| s.chars().next()) else { return false };
    // Walk back over the spec to the flag, at most six characters.
    let mut before = 0;
    let mut back = text.get(..index).map(|s| s.chars().rev()).into_iter().flatten();
    let found_flag = loop {
        match back.next() {
            Some(BLACK_FLAG) => break true,
            Some(c) if is_tag_spec(c) && before < 6 => before += 1,
            _ => break false,
        }
    };
    if !found_flag {
        return false;
    }
    if here == CANCEL_TAG {
        return (2..=6).contains(&before);
    }
    if !is_tag_spec(here) {
        return false;
    }
    // Walk forward over the rest of the spec to the cancel tag.
    let rest = text.get(index + here.len_utf8()..).into_iter().flat_map(str::chars);
    for (count, c) in (before + 1..).zip(rest) {
        if c == CANCEL_TAG {
            return (2..=6).contains(&count);
        }
        if !is_tag_spec(c) || count >= 6 {
            return false;
        }
    }
    false
}

/// At most the last `max` bytes of `text`, starting on a character boundary.
pub(super) fn tail(text: &str, max: usize) -> &str {
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// How far back, in bytes, [`quoted`] looks for an opening mark on the match's line.
const QUOTE_REACH: usize = 1024;

/// Whether `text[start..end]` sits inside quotation marks: it is mentioned ("attackers write
/// 'ignore previous instructions'"), not used. Double quotes and the paired marks (“ ” « » „ 「 」
/// 『 』 ‹ ›) count when one opens before the match, on the same line, with none closing in
/// between, and one closes within 240 bytes after it. A single quote counts only as a mark that
/// opens (after a space or a bracket, before a letter) and closes (after a letter, not before
/// one), so the apostrophe of "don't" is never taken for one.
///
/// The marks before the match are looked for in at most [`QUOTE_REACH`] bytes, so that a text of
/// one long line with many matches costs time in proportion to its length, not to its square.
pub(super) fn quoted(text: &str, start: usize, end: usize) -> bool {
    let (Some(before), Some(after)) = (text.get(..start), text.get(end..)) else { return false };
    let before = tail(before, QUOTE_REACH);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let before = &before[line_start..];
    let after = &after[..after.char_indices().nth(240).map_or(after.len(), |(i, _)| i)];
    let after = after.split('\n').next().unwrap_or_default();
    let pairs: [(char, char); 8] =
        [('"', '"'), ('“', '”'), ('«', '»'), ('„', '“'), ('「', '」'), ('『', '』'), ('‹', '›'), ('»', '«')];
    let paired = pairs.iter().any(|&(open, close)| {
        if open == close {
            before.chars().filter(|&c| c == open).count() % 2 == 1 && after.contains(close)
        } else {
            before.rfind(open).is_some_and(|o| !before[o..].contains(close)) && after.contains(close)
        }
    });
    paired || single_quoted(before, after)
}

/// [`quoted`] for single quotes (' and ‘ ’), told apart from apostrophes by what is around them.
fn single_quoted(before: &str, after: &str) -> bool {
    let is_quote = |c: char| matches!(c, '\'' | '‘' | '’');
    let chars: Vec<(usize, char)> = before.char_indices().collect();
    // The last opening quote before the match, with no closing quote after it.
    let mut open = None;
    for (k, &(_, c)) in chars.iter().enumerate() {
        if !is_quote(c) {
            continue;
        }
        let prev = k.checked_sub(1).map(|j| chars[j].1);
        let next = chars.get(k + 1).map(|&(_, c)| c);
        let opens = prev.is_none_or(|p| p.is_whitespace() || matches!(p, '(' | '[' | ':' | '—'))
            && next.is_none_or(char::is_alphanumeric);
        let closes = prev.is_some_and(|p| p.is_alphanumeric() || matches!(p, '.' | '!' | '?'))
            && next.is_none_or(|n| !n.is_alphanumeric());
        if opens {
            open = Some(k);
        } else if closes {
            open = None;
        }
    }
    if open.is_none() {
        return false;
    }
    let after: Vec<char> = after.chars().collect();
    after.iter().enumerate().any(|(k, &c)| {
        is_quote(c)
            && k.checked_sub(1)
                .is_none_or(|j| after[j].is_alphanumeric() || matches!(after[j], '.' | '!' | '?' | ','))
            && after.get(k + 1).is_none_or(|n| !n.is_alphanumeric())
    })
}

/// A matched phrase for an error message: whitespace runs collapsed, at most 120 characters.
pub(super) fn readable(phrase: &str) -> String {
    let collapsed = phrase.split_whitespace().collect::<Vec<_>>().join(" ");
    match collapsed.char_indices().nth(120) {
        Some((cut, _)) => format!("{}…", &collapsed[..cut]),
        None => collapsed,
    }
}

/// Splits a text into sentences: after `.`, `!` or `?` followed by whitespace, and at blank lines.
pub(super) fn clauses(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut cuts = Vec::new();
    for i in 0..bytes.len() {
        let next = bytes.get(i + 1).copied();
        let sentence_end =
            matches!(bytes[i], b'.' | b'!' | b'?') && next.is_some_and(|b| b.is_ascii_whitespace());
        let blank_line = bytes[i] == b'\n' && matches!(next, Some(b'\n' | b'\r'));
        if sentence_end || blank_line {
            cuts.push((start, i + 1));
            start = i + 1;
        }
    }
    cuts.push((start, bytes.len()));
    // Cuts sit right after an ASCII byte, so they are always character boundaries.
    cuts.into_iter().filter_map(move |(s, e)| text.get(s..e))
}

/// The `name=value` pairs of the query string in the part of a URL after its host.
pub(super) fn query_pairs(after_host: &str) -> impl Iterator<Item = (&str, &str)> {
    let query = after_host.split_once('?').map_or("", |(_, q)| q);
    let query = query.split_once('#').map_or(query, |(q, _)| q);
    query
        .split(['&', ';'])
        .filter(|pair| !pair.is_empty())
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
}

/// Whether a base64-looking run is likely encoded data rather than a word, an id or a hash:
/// it mixes upper case, lower case and digits, and is not plain hex.
pub(super) fn looks_like_payload(blob: &str) -> bool {
    let upper = blob.bytes().any(|b| b.is_ascii_uppercase());
    let lower = blob.bytes().any(|b| b.is_ascii_lowercase());
    let digit = blob.bytes().any(|b| b.is_ascii_digit());
    let hex = blob.bytes().all(|b| b.is_ascii_hexdigit());
    upper && lower && digit && !hex
}

/// Whether the authority part of a URL (`user@host:port`) points at this machine.
pub(super) fn is_local_authority(authority: &str) -> bool {
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    let host = if let Some(bracketed) = host_port.strip_prefix('[') {
        bracketed.split_once(']').map_or(bracketed, |(h, _)| h)
    } else {
        host_port.split_once(':').map_or(host_port, |(h, _)| h)
    };
    is_local_host(host)
}

/// Whether a host name or address is the loopback interface. Private networks count as remote:
/// a fact has no reason to send data anywhere but to this machine.
pub(super) fn is_local_host(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host == "::1"
        || host == "0:0:0:0:0:0:0:1"
        || host == "0.0.0.0"
        || host == "::ffff:127.0.0.1"
        || host.strip_prefix("127.").is_some_and(|rest| rest.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
}

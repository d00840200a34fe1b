//! The value checks of the secret scan: what makes a match a credential rather than a hash, an
//! id, a name, a path or a placeholder, and the small text measures they use (entropy, character
//! classes, label words). Used by [`SecretRules`](super::secrets::SecretRules).

use regex::Captures;

use super::secret_patterns::{LABEL_STOPWORDS, PLACEHOLDER_WORDS, PLACEHOLDERS};

/// How a secret match is told apart from a harmless look-alike.
#[derive(Clone, Copy, Debug)]
pub(super) enum Check {
    /// The pattern is specific enough on its own.
    Exact,
    /// Generated keys mix upper case, lower case and digits; long hyphenated names do not. A
    /// generated body can lack digits by chance (a 34-letter body does once in a few hundred), so
    /// a letter run of 20 or more with upper case on 30-70% of its letters also counts, which
    /// camel-case names (upper case only at word starts) stay under.
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

/// How many bytes at the start of `rest` continue a token: letters, digits and `_`, and single
/// hyphens between them (so `-----BEGIN` or ` - ` after a key is not swallowed).
pub(super) fn token_tail_len(rest: &str) -> usize {
    let bytes = rest.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut len = 0;
    while let Some(&b) = bytes.get(len) {
        let joins = b == b'-' && bytes.get(len + 1).is_some_and(|&n| word(n)) && len > 0;
        if !(word(b) || joins) {
            break;
        }
        len += 1;
    }
    len
}

/// Whether the token sits inside one of the quiet spans (disjoint and sorted by start).
pub(super) fn in_quiet_span(quiet: &[(usize, usize)], start: usize, end: usize) -> bool {
    let before = quiet.partition_point(|&(s, _)| s <= start);
    before.checked_sub(1).and_then(|i| quiet.get(i)).is_some_and(|&(_, e)| e >= end)
}

/// Whether a token could be a generated credential rather than an id, a hash or a name: upper
/// case, lower case and digits, not hexadecimal (with or without a two-letter prefix such as the
/// `AC` of a Twilio account id), not an SSH key body and not a digest written as `sha512-…`.
pub(super) fn looks_generated(token: &str) -> bool {
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
pub(super) fn is_public_base58(token: &str) -> bool {
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
pub(super) fn tail(text: &str, max: usize) -> &str {
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    text.get(start..).unwrap_or_default()
}

/// Whether the text has upper case, lower case and digits.
pub(super) fn classes(value: &str) -> (bool, bool, bool) {
    (
        value.bytes().any(|b| b.is_ascii_uppercase()),
        value.bytes().any(|b| b.is_ascii_lowercase()),
        value.bytes().any(|b| b.is_ascii_digit()),
    )
}

/// Whether the text is non-empty and all hexadecimal digits.
pub(super) fn is_hex(value: &str) -> bool {
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
pub(super) enum Labelled {
    /// A secret value at this byte range.
    Secret(usize, usize),
    /// A value its label calls public, at this byte range.
    Public(usize, usize),
    /// Nothing to redact or protect.
    Nothing,
}

/// Sorts one labelled match into a secret value, a public value or nothing.
pub(super) fn labelled_value(text: &str, caps: &Captures<'_>) -> Labelled {
    let Some((start, end, public)) = labelled_range(text, caps) else { return Labelled::Nothing };
    if public { Labelled::Public(start, end) } else { Labelled::Secret(start, end) }
}

/// The byte range of the value of one labelled match and whether its label calls it public, or
/// `None` if the label or the value rules it out.
pub(super) fn labelled_range(text: &str, caps: &Captures<'_>) -> Option<(usize, usize, bool)> {
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

/// Whether the longest run of letters in `value` is at least 20 long with upper case on 30-70% of
/// its letters: a generated body with no digit in it, not a camel-case name.
pub(super) fn random_letters(value: &str) -> bool {
    value.split(|c: char| !c.is_ascii_alphabetic()).any(|run| {
        let upper = run.bytes().filter(u8::is_ascii_uppercase).count();
        run.len() >= 20 && (3 * run.len()..=7 * run.len()).contains(&(10 * upper))
    })
}

/// Whether a value ends in a short file extension such as `.pdf` or `.json`.
pub(super) fn has_file_extension(value: &str) -> bool {
    value.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && (2..=4).contains(&ext.len()) && ext.bytes().all(|b| b.is_ascii_lowercase())
    })
}

/// Whether a value is code (`os.environ["X"]`, `getenv(…)`), a file path or a URL.
pub(super) fn looks_like_code_or_path(value: &str) -> bool {
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
        Check::Random => whole.filter(|_| upper && lower && (digit || random_letters(value))),
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

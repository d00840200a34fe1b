//! The pattern sources of the secret scan: provider token formats, the labelled-value shape, and
//! the word lists that tell a real value from a placeholder. Compiled once by
//! [`SecretRules`](super::secrets::SecretRules).
//!
//! The provider list follows the services that the gitleaks project covers, but every pattern
//! here is written for this crate from the providers' published token formats. Each pattern is
//! kept as plain as the format allows: a fixed prefix, a character class and a bounded length,
//! so that the `regex` crate can run it as a finite automaton.

use super::SecretKind;
use super::secret_checks::Check;

/// Provider formats, most specific first: where two overlap, the earlier one wins. The number is
/// the capture group to replace (0 for the whole match); the [`Check`] weeds out look-alikes.
pub(super) const PROVIDERS: &[(SecretKind, &str, usize, Check)] = &[
    // Key blocks and tokens with their own structure come first, so a key inside them is not
    // reported twice.
    (
        SecretKind::PrivateKey,
        r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)",
        0,
        Check::Exact,
    ),
    (SecretKind::AgeSecretKey, r"\bAGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}\b", 0, Check::Exact),
    (SecretKind::Jwt, r"\beyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]*", 0, Check::Exact),
    // Webhook URLs work as credentials on their own.
    (
        SecretKind::SlackWebhook,
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{20,}",
        0,
        Check::Exact,
    ),
    (
        SecretKind::DiscordToken,
        r"https://(?:canary\.|ptb\.)?discord(?:app)?\.com/api/webhooks/\d{5,20}/[A-Za-z0-9_\-]{40,}",
        0,
        Check::Exact,
    ),
    // AI providers.
    (SecretKind::AnthropicKey, r"\bsk-ant-[A-Za-z0-9_\-]{20,}", 0, Check::Random),
    (
        SecretKind::OpenAiKey,
        r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,}",
        0,
        Check::RandomOrHex,
    ),
    (SecretKind::HuggingFaceToken, r"\bhf_[A-Za-z0-9]{34,40}\b", 0, Check::Random),
    (SecretKind::HuggingFaceToken, r"\bapi_org_[A-Za-z0-9]{34}\b", 0, Check::Random),
    (SecretKind::ServiceToken, r"\bgsk_[A-Za-z0-9]{48,56}\b", 0, Check::Random),
    (SecretKind::ServiceToken, r"\bxai-[A-Za-z0-9]{70,90}\b", 0, Check::Random),
    (SecretKind::ServiceToken, r"\bpplx-[A-Za-z0-9]{40,56}\b", 0, Check::HasDigit),
    (SecretKind::ServiceToken, r"\br8_[A-Za-z0-9]{37}\b", 0, Check::HasDigit),
    // Source forges and package registries.
    (SecretKind::GithubToken, r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b", 0, Check::Exact),
    (SecretKind::GithubToken, r"\bgithub_pat_[A-Za-z0-9_]{22,255}\b", 0, Check::Exact),
    (
        SecretKind::GitlabToken,
        r"\bgl(?:pat|dt|rt|ptt|ft|imt|cbt|soat|oas|agent|wt|ffct)-[A-Za-z0-9_\-]{20,}",
        0,
        Check::Exact,
    ),
    (SecretKind::GitlabToken, r"\bGR1348941[A-Za-z0-9_\-]{20,}", 0, Check::Exact),
    (SecretKind::NpmToken, r"\bnpm_[A-Za-z0-9]{36}\b", 0, Check::Exact),
    (SecretKind::PypiToken, r"\bpypi-AgE[A-Za-z0-9_\-]{50,}", 0, Check::Exact),
    (SecretKind::AtlassianToken, r"\bAT(?:ATT|CTT|OAT)3[A-Za-z0-9_\-=]{50,}", 0, Check::Exact),
    (SecretKind::ServiceToken, r"\bsntry[su]_[A-Za-z0-9+/=_]{30,}", 0, Check::Exact),
    (SecretKind::ServiceToken, r"\bfigd_[A-Za-z0-9_\-]{38,44}\b", 0, Check::Exact),
    (SecretKind::ServiceToken, r"\bpul-[a-f0-9]{40}\b", 0, Check::Exact),
    (SecretKind::ServiceToken, r"\bsbp_[a-f0-9]{40}\b", 0, Check::Exact),
    (SecretKind::ServiceToken, r"\b[a-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,70}\b", 0, Check::Exact),
    (
        SecretKind::ServiceToken,
        r"\btskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9_\-]{16,}",
        0,
        Check::HasDigit,
    ),
    (SecretKind::ServiceToken, r"\bfo1_[A-Za-z0-9_\-]{43}\b", 0, Check::Exact),
    // Chat and messaging.
    (SecretKind::SlackToken, r"\bxox[abcdeoprs]-[A-Za-z0-9\-]{10,}", 0, Check::HasDigit),
    (SecretKind::SlackToken, r"\bxoxe(?:\.xox[bp])?-\d-[A-Za-z0-9\-]{20,}", 0, Check::HasDigit),
    (SecretKind::SlackToken, r"\bxapp-\d-[A-Za-z0-9\-]{10,}", 0, Check::HasDigit),
    (
        SecretKind::DiscordToken,
        r"\b[MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38}\b",
        0,
        Check::Random,
    ),
    (SecretKind::TelegramBotToken, r"\b(\d{8,10}:[A-Za-z0-9_\-]{35})(?:[^A-Za-z0-9_\-]|$)", 1, Check::Random),
    // Payments, email and commerce.
    (SecretKind::StripeKey, r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}", 0, Check::Exact),
    (SecretKind::StripeKey, r"\bwhsec_[A-Za-z0-9]{24,}", 0, Check::Exact),
    (SecretKind::SendgridKey, r"\bSG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{30,50}", 0, Check::Exact),
    (SecretKind::TwilioKey, r"\bSK[0-9a-fA-F]{32}\b", 0, Check::HasDigit),
    (SecretKind::MailgunKey, r"\bkey-[0-9a-zA-Z]{32}\b", 0, Check::HasDigit),
    (SecretKind::MailgunKey, r"\b[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}\b", 0, Check::HasDigit),
    (SecretKind::MailchimpKey, r"\b[0-9a-f]{32}-us\d{1,2}\b", 0, Check::Exact),
    (SecretKind::ShopifyToken, r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b", 0, Check::Exact),
    (SecretKind::ServiceToken, r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b", 0, Check::HasDigit),
    (SecretKind::ServiceToken, r"\bsk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{10,}", 0, Check::Exact),
    (SecretKind::ServiceToken, r"\bsq0(?:atp|csp)-[A-Za-z0-9_\-]{22,60}", 0, Check::Exact),
    // Cloud providers.
    (
        SecretKind::AwsAccessKeyId,
        r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA|A3T[A-Z0-9])[0-9A-Z]{16}\b",
        0,
        Check::Exact,
    ),
    (
        SecretKind::AwsSecretKey,
        r#"(?i)\b(?:aws[\s_\-]?secret(?:[\s_\-]?access)?[\s_\-]?key|secret[\s_\-]?access[\s_\-]?key)(?:[\s_\-]?id)?["']?(?:\s*(?:[:=]|=>|\bis\b)\s*|\s+)["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)"#,
        1,
        Check::Exact,
    ),
    (SecretKind::GoogleApiKey, r"\bAIza[0-9A-Za-z_\-]{35,}", 0, Check::Exact),
    (SecretKind::GoogleOauthSecret, r"\bGOCSPX-[A-Za-z0-9_\-]{28}\b", 0, Check::Exact),
    (SecretKind::GoogleOauthSecret, r"\bya29\.[A-Za-z0-9_\-]{30,}", 0, Check::Exact),
    (
        SecretKind::AzureKey,
        r"(?i)\b(?:AccountKey|SharedAccessKey|PrimaryKey|SecondaryKey)\s*=\s*([A-Za-z0-9+/]{20,}={0,2})",
        1,
        Check::Exact,
    ),
    (SecretKind::AzureKey, r"(?i)[?&]sig=([A-Za-z0-9%+/=_\-]{20,})", 1, Check::Exact),
    (
        SecretKind::AzureKey,
        r"(?:^|[^A-Za-z0-9_~.\-])([A-Za-z0-9_~.]{3}\d[Q8]~[A-Za-z0-9_~.\-]{31,34})(?:[^A-Za-z0-9_~.\-]|$)",
        1,
        Check::Random,
    ),
    (SecretKind::DigitalOceanToken, r"\bdo[opr]_v1_[a-f0-9]{64}\b", 0, Check::Exact),
    (SecretKind::HerokuKey, r"\bHRKU-[A-Za-z0-9_\-]{40,}", 0, Check::Exact),
    (
        SecretKind::HerokuKey,
        r"(?i)\bheroku[^\n]{0,48}?\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b",
        1,
        Check::Exact,
    ),
    (SecretKind::DatabricksToken, r"\bdapi[a-f0-9]{32}(?:-\d)?\b", 0, Check::HasDigit),
    // Developer tools.
    (SecretKind::DopplerToken, r"\bdp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}\b", 0, Check::Exact),
    (SecretKind::LinearKey, r"\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b", 0, Check::Exact),
    (SecretKind::NotionToken, r"\bsecret_[A-Za-z0-9]{43}\b", 0, Check::Random),
    (SecretKind::NotionToken, r"\bntn_[A-Za-z0-9]{40,50}\b", 0, Check::HasDigit),
    (SecretKind::VaultToken, r"\bhv[sbr]\.[A-Za-z0-9_\-]{24,}", 0, Check::Exact),
    (SecretKind::GrafanaToken, r"\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b", 0, Check::Exact),
    (SecretKind::GrafanaToken, r"\bglc_[A-Za-z0-9+/]{32,}={0,2}", 0, Check::Exact),
    (SecretKind::PostmanKey, r"\bPMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}\b", 0, Check::Exact),
    (SecretKind::NewRelicKey, r"\bNR(?:AK|JS|II)-[A-Za-z0-9]{19,32}\b", 0, Check::HasDigit),
];

/// Patterns of the value forms that come after the providers: passwords in URLs, values after a
/// spoken label ("the password is …"), PINs, and `Bearer` / `Basic` credentials.
pub(super) const VALUE_FORMS: &[(SecretKind, &str, usize, Check)] = &[
    // The password of `scheme://user:password@host`, in any scheme (mysql, redis, amqp,
    // mongodb+srv, ftp, smtp, …) and with an empty user (`redis://:password@host`).
    (
        SecretKind::UrlPassword,
        r"(?i)\b[a-z][a-z0-9+.\-]{0,30}://[^\s:/?#@\[\]]*:([^\s/?#]+)@",
        1,
        Check::NotPlaceholder,
    ),
    // "the wifi password is hunter2", "reset the password to …": only values with a digit or a symbol, so prose ("the password
    // is stored in the vault") stays untouched.
    (
        SecretKind::LabelledSecret,
        r#"(?i)\b(?:password|passwd|passphrase|pw)\s+(?:(?:itself|now|still|currently|today)\s+)?(?:is|was|=|to)\s+["'\x{201C}]?([^\s"'\x{201D}]{4,})"#,
        1,
        Check::SpokenValue,
    ),
    // "the password for the staging box is …", "the Wi-Fi key for the guest network is …": a
    // short phrase between the label and "is". Unquoted values need a digit or a symbol; a
    // quoted value may be a passphrase of several words.
    (
        SecretKind::LabelledSecret,
        r#"(?i)\b(?:password|passwd|passphrase|pw|passcode|(?:wi-?fi|wlan|wpa2?|network) key)\s+(?:for|of|to|on)\s+(?:[A-Za-z0-9_'\-]+\s+){1,4}?(?:is|was)\s*[:=]?\s+([^\s"'\x{201C}\x{201D}]{4,})"#,
        1,
        Check::SpokenValue,
    ),
    (
        SecretKind::LabelledSecret,
        r#"(?i)\b(?:password|passwd|passphrase|pw|passcode|(?:wi-?fi|wlan|wpa2?|network) key)\s+(?:for|of|to|on)\s+(?:[A-Za-z0-9_'\-]+\s+){1,4}?(?:is|was)\s*[:=]?\s+["\x{201C}]([^"\x{201D}\n]{4,})["\x{201D}]"#,
        1,
        Check::LabelValue,
    ),
    // "log in with password …", "using the password …".
    (
        SecretKind::LabelledSecret,
        r#"(?i)\b(?:with|using)\s+(?:the\s+)?(?:password|passwd|passphrase)\s+["'\x{201C}]?([^\s"'\x{201D}]{4,})"#,
        1,
        Check::SpokenValue,
    ),
    // A one-time-password seed in base32: "TOTP seed: JBSWY3DP…".
    (
        SecretKind::LabelledSecret,
        r#"(?i)\b(?:totp|otp|2fa|mfa|authenticator)\s+(?:seed|secret|key)\b["']?\s*(?:is|was|[:=])?\s*["']?((?-i:[A-Z2-7]{16,})=*)"#,
        1,
        Check::HasDigit,
    ),
    // A PIN only counts when it is all digits, so "the pin is 10mm long" stays.
    (
        SecretKind::LabelledSecret,
        r"(?i)\b(?:pin|pin code|passcode)\s+(?:is|was|=|:)\s+(\d{4,8})\b",
        1,
        Check::Exact,
    ),
    (SecretKind::LabelledSecret, r"(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{20,}=*)", 1, Check::LabelValue),
    (
        SecretKind::LabelledSecret,
        r#"(?i)\bauthorization\s*["']?\s*[:=]\s*["']?basic\s+([A-Za-z0-9+/]{8,}={0,2})"#,
        1,
        Check::Exact,
    ),
    // Passwords given to command-line clients: `mysql -pSECRET`, `docker login -p SECRET`.
    (
        SecretKind::LabelledSecret,
        r#"(?i)\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]*?\s-p([^\s\-"'][^\s"']{3,})"#,
        1,
        Check::LabelValue,
    ),
    (
        SecretKind::LabelledSecret,
        r#"(?i)\b(?:docker|podman|helm|oras)\s+(?:registry\s+)?login\b[^\n|;&]*?\s(?:-p|--password)[\s=]+["']?([^\s\-"'][^\s"']{3,})"#,
        1,
        Check::LabelValue,
    ),
    // A `.netrc` line: `machine host login name password value`.
    (
        SecretKind::LabelledSecret,
        r"(?i)\bmachine\s+\S+\s+login\s+\S+\s+password\s+(\S+)",
        1,
        Check::LabelValue,
    ),
    // `curl -u user:password`, `curl --user user:password` (but not `docker run -u www-data:www-data`).
    (
        SecretKind::LabelledSecret,
        r#"(?i)\b(?:curl|http|https|xh)\b[^\n|;&]*?\s(?:-u|--user)\s*["']?[^\s:"']+:([^\s"'@]{4,})"#,
        1,
        Check::LabelValue,
    ),
    // Command-line flags with the value after a space: `--password hunter2`, `--token …`.
    (
        SecretKind::LabelledSecret,
        r#"(?i)(?:^|\s)--?(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|auth-token|access-token)\s+["']?([^\s"'\-][^\s"']{3,})"#,
        1,
        Check::LabelValue,
    ),
];

/// A label and its value: `password=…`, `"api_key": "…"`, `export GITHUB_TOKEN=…`,
/// `Password=…;` in a connection string, `api key: …`. Group `name` is the label, which must end
/// in a credential word; the code then splits it into words and decides from the last one how
/// strict to be with the value (see [`LabelTier`](super::secret_checks::LabelTier)). Group `sep` is the
/// separator; the value is in `dq` (double-quoted), `sq` (single-quoted), `bq` (in backticks) or
/// `bare`. Markdown bold around the label (`**Password:** …`) is allowed.
pub(super) const LABELLED: &str = concat!(
    r#"(?i)(?P<name>\b(?:api|access|secret|auth|private|client|account|app|master|signing|encryption)[ ](?:key|token|secret)s?"#,
    r#"|[A-Za-z0-9_.\-]{0,40}?(?:password|passwd|pwd|pass|passphrase|passcode|secret|token|key|credentials?|auth|sig)"#,
    r#"(?:[_.\-]?(?:value|base|data|b64|base64|hex|string))?)"#,
    r#"(?:\*\*|__)?["']?[ \t]{0,8}(?P<sep>:=|=>|=|:|[ \t](?:is|was)[ \t])(?:\*\*|__)?[ \t]{0,8}"#,
    r#"(?:"(?P<dq>[^"\r\n]*)"|'(?P<sq>[^'\r\n]*)'|`(?P<bq>[^`\r\n]*)`|(?P<bare>[^\s"'`,;<>]+))"#,
);

/// A .NET or Java XML setting: `<add key="ApiSecret" value="…" />`. Same groups as [`LABELLED`].
pub(super) const XML_SETTING: &str =
    r#"(?i)\b(?:key|name)\s*=\s*["'](?P<name>[A-Za-z0-9_.:\-]{1,64})["']\s+value\s*=\s*"(?P<dq>[^"\r\n]*)""#;

/// A credential word shortly before a token, with no separator: "token 7Gx…", "my OpenAI key
/// q8Z…". The gap may not cross a bracket, so the word `key` inside an earlier
/// `[REDACTED:twilio_key]` marker does not reach the next token when a redacted text is scanned
/// again. Matched against the last [`NEAR_WINDOW`](super::secrets::NEAR_WINDOW) bytes before it.
pub(super) const CREDENTIAL_NEAR: &str = r"(?i)\b(?:tokens?|keys?|secrets?|passwords?|passwd|passphrase|credentials?|creds|auth|bearer|api|apikey|pat)\b[^\n.;!?\[\]]{0,32}\z";

/// Words that mark a hexadecimal string as a hash or an id rather than a key, when they appear
/// shortly before it: "token for commit 9fceb02…".
pub(super) const HASH_NEAR: &str = r"(?i)\b(?:commit|commits|sha\d*|hash|hashes|digest|checksum|revision|rev|id|ids|fingerprint|build|object|blob|tree|etag|hmac|signature|md5|crc)\b";

/// A run of token characters, the candidates of the entropy detectors. Slashes are left out so
/// that file paths and URL paths break into short pieces, and `=` may only end a run (base64
/// padding), so `NAME=value` splits into its two halves.
pub(super) const TOKEN_RUN: &str = r"[A-Za-z0-9+_\-]{20,}={0,2}";

/// A word-like run inside a token: a lowercase word with an optional capital (`Proxy`, `user`)
/// or a run of four capitals (`HTTP`). See [`MAX_WORD_SHARE`](super::secrets::MAX_WORD_SHARE).
pub(super) const WORD: &str = r"[A-Z]?[a-z]{3,}|[A-Z]{4,}";

/// A run of base64 characters, for the AWS secret key next to its key id.
pub(super) const BASE64_RUN: &str = r"[A-Za-z0-9/+]{40,}";

/// Spans where the entropy detectors stay quiet because the text there is public or structured:
/// URLs (their passwords and query secrets are caught by the rules above), `data:` URIs, public
/// key and certificate blocks, SSH public keys, and digests written with their algorithm.
pub(super) const QUIET_SPANS: &[&str] = &[
    r#"(?i)\b[a-z][a-z0-9+.\-]{1,30}://[^\s<>"'`]+"#,
    r"(?i)\bdata:[a-z0-9.+/\-]+(?:;[a-z0-9=\-]+)*;base64,[A-Za-z0-9+/=]+",
    r"-----BEGIN [A-Z0-9 ]+-----(?s:.*?)(?:-----END [A-Z0-9 ]+-----|\z)",
    r"\b(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)\s+AAAA[A-Za-z0-9+/]+=*",
    r"(?i)\b(?:sha1|sha224|sha256|sha384|sha512|md5|blake2b|blake3)[:\-][A-Za-z0-9+/=]+",
];

/// Values of a labelled secret that are words from documentation, not secrets.
pub(super) const LABEL_STOPWORDS: &[&str] = &[
    "required",
    "optional",
    "string",
    "null",
    "nil",
    "none",
    "undefined",
    "redacted",
    "hidden",
    "unknown",
    "example",
    "true",
    "false",
    "empty",
    "default",
    "secret",
    "password",
    "token",
    "masked",
    "omitted",
    "removed",
    "unset",
    "notset",
    "not_set",
];

/// Values that are placeholders from documentation and templates, compared without case. A value
/// made of one repeated character (`xxxxxxxx`, `********`) is a placeholder too, and so is a value
/// without digits that contains one of [`PLACEHOLDER_WORDS`].
///
/// `changeme` and the other well-known defaults are on this list on purpose: they are printed in
/// every installation guide, so a fact that mentions one gives nothing away, and redacting them
/// would make notes like "the default password is changeme" useless.
pub(super) const PLACEHOLDERS: &[&str] = &[
    "password",
    "pass",
    "passwd",
    "pwd",
    "secret",
    "yourpassword",
    "your_password",
    "your-password",
    "mypassword",
    "pw",
    "changeme",
    "change_me",
    "change-me",
    "changeit",
    "admin",
    "root",
    "test",
    "testing",
    "foobar",
    "token",
    "apikey",
    "api_key",
    "secretkey",
    "placeholder",
    "dummy",
    "sample",
    "todo",
    "tbd",
    "fixme",
    "none",
    "null",
];

/// Words that mark a digit-free value as a template placeholder: `your-api-key-here`,
/// `INSERT_TOKEN`, `replace_me`.
pub(super) const PLACEHOLDER_WORDS: &[&str] =
    &["your", "here", "replace", "insert", "change", "placeholder", "example", "dummy", "sample", "redacted"];

//! Exfiltration shapes beyond the command-line and sentence checks of `rules.rs`: links and images
//! that template conversation data into their URL, raw sockets to a remote host, paste and
//! request-capture services that data is sent to, and DNS lookups that carry data in the name.
//!
//! The checks run on the lower-case views, so every pattern is written in lower case.

use crate::lazy::Regex;

use super::patterns::{SEND_VERB, SENSITIVE_OBJECT};
use super::rules::{clauses, is_local_authority, is_local_host, query_pairs, tail};

/// A markdown link or image; group 1 is `!` for an image, group 2 the URL.
const MD_LINK: &str = r"(!?)\[[^\]\n]{0,200}\]\(\s*<?((?:https?:)?//[^\s)>]+)";
/// A remote URL with a scheme; group 1 is the authority.
const URL: &str = r#"\b(?:https?|wss?)://([^\s/?#<>"'()\[\]{}|\\^`]+)[^\s<>"'`)]*"#;
/// A template placeholder in a URL: `{x}`, `{{x}}`, `${x}`, `$x`, `<x>`, `[x]`, `%7bx%7d`.
const PLACEHOLDER: &str = r"\{\{?\s*([^{}\s]{1,40})\s*\}\}?|\$\{?([a-z_][a-z0-9_]{0,39})|<([^<>\s]{1,40})>|\[([a-z_ ]{2,40})\]|%7b%7b?([^%]{1,40})%7d";
/// Placeholder names that stand for conversation data or secrets.
const DATA_NAME: &str = r"conv|chat|hist|messag|msg|context|memor|secret|passw|token|key|cred|prompt|summar|transcript|email|input|data|query|answer|info|payload|text|content|session|cookie|reply|response|question|env";
/// An order to put conversation data into something.
const APPEND_ORDER: &str = r"(?:\b(?:append(?:ing)?|add(?:ing)?|attach(?:ing)?|include|including|put|insert|fill(?: in)?|replace|substitut\w*|concatenat\w*|with|plus|followed by|url-?encod\w*|encod\w*)|\+)\s+(?:(?:the|a|an|all|every|each|of|user'?s?|our|this|current|entire|full|whole|latest|last|previous|recent|most recent|summary|summari[sz]ed|copy|contents?|text|first|\d+|words?|chars?|characters?) \s*)*(?:conversation|chat|history|messages?|context|memor(?:y|ies)|secrets?|passwords?|tokens?|api keys?|credentials|system prompt|prompt|transcript|user input|input|repl(?:y|ies)|answers?|response|data|questions?|query)\b";
/// An order to add something to the URL that follows ("append it to https://…?u=").
const APPEND_TO: &str = r"\b(?:append|add|attach|concatenat|put|insert|paste|tack)\w*\s+(?:it|them|this|that|(?:[\w'’]+\s+){0,6}?(?:emails?|address\w*|tokens?|keys?|secrets?|passwords?|messages?|answers?|repl(?:y|ies)|summar\w*|data|results?|conversation|chat|history|names?|phone\w*|input|output))\s+(?:to|onto|into|at the end of)\s*\z";
/// Command-line data piped into a raw TCP client; group 1 the host.
const PIPE_SOCKET: &str = r"\|\s*(?:sudo\s+)?(?:nc|ncat|netcat)\b(?:\s+-[a-z0-9]+(?:\s+\d+)?)*\s+(\[[0-9a-f:]+\]|[a-z0-9][a-z0-9.\-]*)\s+\d{1,5}\b";
/// A raw TCP client fed from a file or told to run a shell; group 1 the host.
const REDIRECT_SOCKET: &str = r"\b(?:nc|ncat|netcat)\b(?:\s+-[a-z0-9]+(?:\s+\d+)?)*\s+(\[[0-9a-f:]+\]|[a-z0-9][a-z0-9.\-]*)\s+\d{1,5}\s*(?:<|-e\b|-c\b|--exec|--sh-exec)";
/// `socat` to a remote TCP or UDP address; group 1 the host.
const SOCAT: &str = r"\bsocat\b[^\n]*?\b(?:tcp|udp|tcp4|tcp6|udp4|openssl|ssl)(?:-connect|-sendto)?:(\[[0-9a-f:]+\]|[a-z0-9][a-z0-9.\-]*):\d{1,5}";
/// What makes a `socat` line send data: a pipe into it, a file or a program as the other end.
const SOCAT_SOURCE: &str = r"\|\s*(?:sudo\s+)?socat\b|\bsocat\b[^\n]*\b(?:file|open|exec|system|stdin|gopen):|\bsocat\b\s+(?:-\S*\s+)*-\s";
/// A socket opened in code (Python, Node, Ruby, PowerShell) towards a host; group 1 the host.
const CODE_SOCKET: &str = r#"(?:socket|create_connection|connect|net\.connect|createconnection|tcpsocket\.new|tcpclient)\s*\(\s*\(?\s*['"]([a-z0-9.\-]+|\[[0-9a-f:]+\])['"]\s*,\s*\d{1,5}"#;
/// Code that writes to a socket it opened.
const CODE_SEND: &str = r"\.(?:send|sendall|sendto|write|puts)\s*\(";
/// Paste, file-drop and request-capture services.
const PASTE_SERVICE: &str = r"\b(?:pastebin(?:\.com)?|hastebin(?:\.com)?|paste\.ee|transfer\.sh|0x0\.st|termbin(?:\.com)?|gist\.github(?:usercontent)?\.com|ghostbin(?:\.\w+)?|dpaste(?:\.com|\.org)?|webhook\.site|requestbin(?:\.\w+)?|[a-z0-9\-.]*pipedream\.net|pipedream|[a-z0-9\-]+\.ngrok(?:-free)?\.(?:io|app|dev)|ngrok|[a-z0-9\-]*\.?serveo\.net|ix\.io|sprunge\.us|file\.io|requestcatcher\.com|beeceptor\.com|interactsh(?:\.com)?|burpcollaborator\.net|oastify\.com|canarytokens?(?:\.com)?|controlc\.com|rentry\.(?:co|org)|paste\.rs|bpa\.st|(?:public|secret|new)\s+gists?\b|gh\s+gist\b)";
/// Command-line constructs that upload.
const UPLOAD: &str = r#"(?:\s-d(?:\s|['"@])|\s--data(?:-binary|-raw|-urlencode|-ascii)?(?:[\s=]|$)|\s-f\s*['"]?[a-z_]+=@|\s--form[\s=]|\s-t\s|\s--upload-file[\s=]|--post-(?:data|file)|\|\s*(?:sudo\s+)?(?:curl|wget|nc|ncat|netcat|socat)\b|\s@[^\s]|<\s*\S)"#;
/// Words that forbid what the clause describes: "company policy forbids pasting logs into
/// pastebin" is a rule, not an order.
const PROHIBITED: &str = r"\b(?:forbid\w*|prohibit\w*|bann?(?:ed|s)?|block(?:s|ed)|not allowed|never|don't|do not|dont|must not|mustn't|should not|shouldn't|avoid\w*|disallow\w*|against (?:the )?(?:policy|rules))\b";
/// Things whose sending to a paste service is an attack.
const PASTE_OBJECT: &str = r"\b(?:it|this|them|everything|output|results?|answers?|responses?|logs?|contents?|data|files?|conversation|chat|history|messages?|transcript|memory|summary|keys?|secrets?|credentials|tokens?|passwords?|env|screenshots?|screen|clipboard|recordings?)\b";
/// A DNS lookup with a variable or command output in the name.
const DNS_LOOKUP: &str = r"\b(?:nslookup|dig|host|drill|ping|resolvectl\s+query|getent\s+hosts)\b[^\n|;&`]{0,80}?(?:\$\(|`[^`\n]{1,80}`[.\-]|\$\{?[a-z_][a-z0-9_]*\}?[.\-])";
/// Prose that tells someone to smuggle data through DNS names.
const DNS_PROSE: &str = r"\b(?:encod\w*|embed\w*|leak\w*|smuggl\w*|exfiltrat\w*|stash\w*|hide|hiding|send\w*|append\w*|prepend\w*|chunk\w*|put)\b[^.\n]{0,80}?\b(?:as|in|into|inside|within|via|through)\s+(?:(?:a|the|dns|multiple|separate|random|its|their|own)\s+)*(?:sub-?domains?|dns (?:queries|query|lookups?|requests?|labels?|names?|records?)|hostnames?)\b";

/// A placeholder or a concatenated variable right after a URL: `https://h/?q=<summary>`,
/// `'https://h/?c=' + document.cookie`; group 1, 2 or 3 names it.
const AFTER_URL: &str =
    r#"\A(?:<([^<>\n]{1,40})>|\{\{?\s*([^{}\n]{1,40}?)\s*\}\}?|['"]?\s*\+\s*([a-z_][\w.]{0,40}))"#;
/// The title of a markdown link right after its URL: `[docs](https://h "key_here")`; group 1.
const LINK_TITLE: &str = r#"\A\s+["']([^"'\n]{1,60})["']\s*\)"#;
/// An order to put data in a named parameter of the URL that follows.
const PARAM_OF: &str = r#"\b(?:put|place|insert|add|set|pass|send|encode)\w*\s+(?:it|them|this|that|the\s+(?:result|output|value|string|contents?))\s+(?:in|into|as)\s+(?:the\s+)?['"]?[\w-]{1,30}['"]?\s+(?:query\s+)?(?:parameter|param|field|value)\s+(?:of|on|in)\s*\z"#;
/// A host name built from a placeholder: `<api_key>.t.attacker.example`; group 1, 2 or 3 names it.
const DNS_TEMPLATE: &str = r"(?:<([^<>\s]{1,40})>|\{\{?\s*([^{}\s]{1,40}?)\s*\}\}?|\$\{?([a-z_][a-z0-9_]{0,39})\}?)\.(?:[a-z0-9-]+\.)+[a-z]{2,}\b";
/// Places that publish what is put there: webhooks of chat services, public buckets, gists,
/// public repositories and issues.
const PUBLIC_SINK: &str = r"\b(?:discord|slack|teams|telegram|mattermost|zapier)\s+(?:incoming\s+)?webhooks?\b|hooks\.slack\.com|discord(?:app)?\.com/api/webhooks|\b(?:s3|gs|az)://|\bpublic\s+(?:s3\s+|gcs\s+|storage\s+|cloud\s+)?buckets?\b|\b(?:public|secret|new|a)\s+gists?\b|\bgh\s+gist\b|\bpublic\s+(?:repos?|repositor(?:y|ies)|issues?|channels?|pastes?|forums?)\b|\bas\s+a\s+comment\s+on\s+https?://";
/// Verbs that put something somewhere, beyond the send verbs.
const PUT_VERB: &str = r"\b(?:write|writes|writing|put|puts|store|stores|save|saves|create|creates|publish|publishes|commit|commits)\b";

/// The compiled exfiltration shapes.
pub(super) struct Exfil {
    md_link: Regex,
    url: Regex,
    placeholder: Regex,
    data_name: Regex,
    append_order: Regex,
    append_to: Regex,
    pipe_socket: Regex,
    redirect_socket: Regex,
    socat: Regex,
    socat_source: Regex,
    code_socket: Regex,
    code_send: Regex,
    paste_service: Regex,
    /// See [`PROHIBITED`].
    prohibited: Regex,
    upload: Regex,
    paste_object: Regex,
    send_verb: Regex,
    sensitive_object: Regex,
    dns_lookup: Regex,
    dns_prose: Regex,
    after_url: Regex,
    link_title: Regex,
    param_of: Regex,
    dns_template: Regex,
    public_sink: Regex,
    put_verb: Regex,
}

/// Every pattern source with its name, for the compile test.
#[cfg(test)]
pub(super) const SOURCES: &[&str] = &[
    MD_LINK,
    URL,
    PLACEHOLDER,
    DATA_NAME,
    APPEND_ORDER,
    APPEND_TO,
    PIPE_SOCKET,
    REDIRECT_SOCKET,
    SOCAT,
    SOCAT_SOURCE,
    CODE_SOCKET,
    CODE_SEND,
    PASTE_SERVICE,
    PROHIBITED,
    UPLOAD,
    PASTE_OBJECT,
    DNS_LOOKUP,
    DNS_PROSE,
    AFTER_URL,
    LINK_TITLE,
    PARAM_OF,
    DNS_TEMPLATE,
    PUBLIC_SINK,
    PUT_VERB,
];

impl Exfil {
    /// Compiles the shapes, or `None` if one fails (a unit test makes sure none does).
    pub(super) fn compile() -> Option<Self> {
        // The patterns are English and ASCII: ASCII word boundaries mean the same for them and keep
        // the lazy DFA usable on text with non-ASCII letters (a Unicode boundary makes it give up
        // there, and the captures then ran on the slow engine over the whole view).
        let c = super::rules::compile;
        Some(Self {
            md_link: c(MD_LINK)?,
            url: c(URL)?,
            placeholder: c(PLACEHOLDER)?,
            data_name: c(DATA_NAME)?,
            append_order: c(APPEND_ORDER)?,
            append_to: c(APPEND_TO)?,
            pipe_socket: c(PIPE_SOCKET)?,
            redirect_socket: c(REDIRECT_SOCKET)?,
            socat: c(SOCAT)?,
            socat_source: c(SOCAT_SOURCE)?,
            code_socket: c(CODE_SOCKET)?,
            code_send: c(CODE_SEND)?,
            paste_service: c(PASTE_SERVICE)?,
            prohibited: c(PROHIBITED)?,
            upload: c(UPLOAD)?,
            paste_object: c(PASTE_OBJECT)?,
            send_verb: c(SEND_VERB)?,
            sensitive_object: c(SENSITIVE_OBJECT)?,
            dns_lookup: c(DNS_LOOKUP)?,
            dns_prose: c(DNS_PROSE)?,
            after_url: c(AFTER_URL)?,
            link_title: c(LINK_TITLE)?,
            param_of: c(PARAM_OF)?,
            dns_template: c(DNS_TEMPLATE)?,
            public_sink: c(PUBLIC_SINK)?,
            put_verb: c(PUT_VERB)?,
        })
    }

    /// The name of the first exfiltration shape in a lower-case view.
    pub(super) fn find(&self, view: &str) -> Option<&'static str> {
        self.templated_link(view)
            .or_else(|| self.raw_socket(view))
            .or_else(|| self.paste(view))
            .or_else(|| self.dns(view))
            .or_else(|| self.public_sink(view))
    }

    /// Whether the placeholder or variable right after a URL (or a link's title) names data.
    fn names_data(&self, caps: &regex::Captures<'_>) -> bool {
        caps.iter().skip(1).flatten().any(|name| self.data_name.is_match(name.as_str()))
    }

    /// Conversation data or secrets written to a place that publishes it.
    fn public_sink(&self, view: &str) -> Option<&'static str> {
        if !self.public_sink.is_match(view) {
            return None;
        }
        clauses(view)
            .any(|clause| {
                self.public_sink.is_match(clause)
                    && (self.send_verb.is_match(clause) || self.put_verb.is_match(clause))
                    && self.sensitive_object.is_match(clause)
            })
            .then_some("public_sink")
    }

    /// Whether a placeholder in `url` names conversation data or a secret.
    fn data_placeholder(&self, url: &str) -> bool {
        self.placeholder
            .captures_iter(url)
            .any(|caps| caps.iter().skip(1).flatten().any(|name| self.data_name.is_match(name.as_str())))
    }

    /// Links and images whose URL is a template for conversation data, or that the text tells the
    /// model to extend with it.
    fn templated_link(&self, view: &str) -> Option<&'static str> {
        let ordered = self.append_order.is_match(view);
        for caps in self.md_link.captures_iter(view) {
            let (Some(bang), Some(url)) = (caps.get(1), caps.get(2)) else { continue };
            let url = url.as_str();
            let (authority, after_host) = split_url(url);
            if is_local_authority(authority) {
                continue;
            }
            let image = !bang.as_str().is_empty();
            let title = caps.get(0).and_then(|whole| view.get(whole.end()..)).and_then(|after| {
                self.link_title.captures(after).and_then(|t| t.get(1)).map(|t| t.as_str().to_owned())
            });
            let title_variable = title.is_some_and(|title| {
                (title.contains('_')
                    && title.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
                    && self.data_name.is_match(&title))
                    || self.data_placeholder(&title)
            });
            if title_variable
                || self.data_placeholder(after_host)
                || (image && self.placeholder.is_match(after_host))
            {
                return Some(if image { "markdown_image_query" } else { "markdown_link_exfil" });
            }
            // A value spelled like a template variable (SUMMARY_OF_CHAT, last_message) that names data.
            let variable = query_pairs(after_host).any(|(_, value)| {
                value.contains('_')
                    && value.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
                    && self.data_name.is_match(value)
            });
            if variable {
                return Some(if image { "markdown_image_query" } else { "markdown_link_exfil" });
            }
            let empty_value = query_pairs(after_host).last().is_some_and(|(_, value)| value.is_empty())
                && after_host.contains('=');
            if ordered && empty_value {
                return Some(if image { "markdown_image_query" } else { "markdown_link_exfil" });
            }
        }
        for caps in self.url.captures_iter(view) {
            let (Some(whole), Some(authority)) = (caps.get(0), caps.get(1)) else { continue };
            if is_local_authority(authority.as_str()) {
                continue;
            }
            let after_host = &whole.as_str()[authority.end() - whole.start()..];
            if self.data_placeholder(after_host) {
                return Some("url_template");
            }
            let following = view.get(whole.end()..).and_then(|after| self.after_url.captures(after));
            if following.is_some_and(|caps| self.names_data(&caps)) {
                return Some("url_template");
            }
            let empty_value = after_host.contains('?') && after_host.ends_with('=');
            let appended = view.get(..whole.start()).is_some_and(|before| {
                let before = tail(before, 120);
                self.append_to.is_match(before) || self.param_of.is_match(before)
            });
            if empty_value && (ordered || appended) {
                return Some("url_template");
            }
        }
        None
    }

    /// Data sent into a raw TCP or UDP socket on another machine.
    fn raw_socket(&self, view: &str) -> Option<&'static str> {
        let remote = |caps: regex::Captures<'_>| caps.get(1).is_some_and(|h| !is_local_host(h.as_str()));
        let piped = self.pipe_socket.captures_iter(view).any(remote);
        let redirected = self.redirect_socket.captures_iter(view).any(remote);
        let socat = self.socat_source.is_match(view) && self.socat.captures_iter(view).any(remote);
        let code = self.code_send.is_match(view) && self.code_socket.captures_iter(view).any(remote);
        (piped || redirected || socat || code).then_some("raw_socket")
    }

    /// Data sent to a paste or request-capture service.
    fn paste(&self, view: &str) -> Option<&'static str> {
        if !self.paste_service.is_match(view) {
            return None;
        }
        for line in view.lines() {
            if self.paste_service.is_match(line) && self.upload.is_match(line) {
                return Some("paste_service");
            }
        }
        clauses(view)
            .any(|clause| {
                self.paste_service.is_match(clause)
                    && self.send_verb.is_match(clause)
                    && (self.paste_object.is_match(clause) || self.sensitive_object.is_match(clause))
                    && !self.prohibited.is_match(clause)
            })
            .then_some("paste_service")
    }

    /// Data carried in DNS names.
    fn dns(&self, view: &str) -> Option<&'static str> {
        let templated = self.dns_template.captures_iter(view).any(|caps| self.names_data(&caps));
        (templated || self.dns_lookup.is_match(view) || self.dns_prose.is_match(view))
            .then_some("dns_exfiltration")
    }
}

/// The authority of a URL and everything after it.
fn split_url(url: &str) -> (&str, &str) {
    let without_scheme = url.split_once("//").map_or(url, |(_, rest)| rest);
    without_scheme
        .find(['/', '?', '#'])
        .map_or((without_scheme, ""), |at| (&without_scheme[..at], &without_scheme[at..]))
}

//! A line classifier that tells source code, stack traces, JSON, diffs and shell sessions from prose, so that no fact is read out of them.

use std::sync::LazyLock;

use regex::Regex;

/// Openings and whole-line shapes that only code, traces, diffs and shell sessions have.
///
/// Each alternative is a shape, not a phrase: a keyword that opens a
/// definition or statement in a common language and is followed by an
/// identifier, a numbered source listing, a `path:line:` grep hit, a stack
/// frame, a diff header, a shell or REPL prompt, or an exception line.
const CODE_SHAPES: &str = r"(?x) ^ (?:
    (?: def | fn | func ) \s+ [A-Za-z_]
    | (?: class | struct | enum | impl | trait | mod | function | interface | module | type ) \s+
      [A-Za-z_]\w* (?: <[^>]*> )? \s* [:({<;=]
    | (?: pub (?: \([a-z]+\) )? | async | export | static | unsafe ) \s+ (?: fn | struct | enum | trait | mod
      | const | static | use | type | impl | async | function | class | default ) \b
    | (?: let | const | var | mut ) \s+ (?: mut\s+ )? [A-Za-z_][\w]* \s* (?: : [^=]+ )? =
    | (?: import \s+ [\w.{*] | from \s+ [\w.]+ \s+ import \b | use \s+ [\w]+ :: | \#include \b | package \s+ [\w.]+ ; )
    | (?: return | yield | raise | throw | await ) \s+ [\w.]+ \s* ;? $
    | (?: if | elif | while | for | with | except | try | else | finally | match | case ) \b [^.!?]* : $
    | (?: else | try | finally | do ) \s* [:{] $
    | [\]\[{}()]+ [,;]? $
    | @ [A-Za-z_][\w.]* (?: \( | $ )
    | // | /\* | \*/ | \#! | <!-- | -- \s | \#\s*(?: define | ifdef | endif | pragma ) \b
    | \d+ \s* \| | \d+ : \s
    | [\w./-]+ \. [A-Za-z]{1,5} : \d+ (?: : | \s | $ )
    | Traceback \b | File \s+ \x22 [^\x22]+ \x22 , \s+ line \s+ \d+
    | at \s+ [\w$.<>]+ \( [^)]* \) \s* $
    | (?: [A-Z]\w* (?: Error | Exception | Panic ) | panicked \s+ at | thread \s+ '[^']*' \s+ panicked ) \b
    | (?: diff \s+ --git | index \s+ [0-9a-f]+ \.\. | @@ \s | \+\+\+ \s | --- \s [ab/] )
    | [+-] (?: [^\s+-] | \s{2,} \S )
    | (?: error | warning | warn | info | debug | trace | fatal ) (?: \[ [\w-]+ \] )? : \s
    | (?: ERROR | WARN | WARNING | INFO | DEBUG | TRACE | FATAL | CRITICAL ) \b
    | \[? \d{4}-\d{2}-\d{2} [T\s] \d{2}:\d{2}
    | [$\#%] \s+ [a-z./~] | > > > \s | \.\.\. \s | In \s* \[ \d* \] : | PS \s+ [A-Z]:\\
    | < /? [A-Za-z][\w-]* (?: \s[^>]* )? /? > \s* $
    | \x22 [\w\s-]+ \x22 \s* : \s*
    )";

/// Shapes that are code wherever they appear in a line.
const CODE_MARKS: &str = r"(?x)
    \bself \s* [.,)] | \( \s* self \b | \bthis \. [a-z_] | :: [A-Za-z_<] | -> | => | == | != | <= | >= | && | \|\|
    | [A-Za-z_\]\)] \s* [+\-*/%|&^]? = \s* [\w\x22'\[({-] (?: [^=] | $ )
    | \b[A-Za-z_][\w]* \. [A-Za-z_]\w* \( | \b[a-z_]\w*_\w* \( | \b[a-z]+[A-Z]\w* \(
    | ; \s* $ | \{ \s* $ | \) \s* : \s* $ | \) \s* \{ | ^ \s* \}";

static CODE_SHAPE: LazyLock<Option<Regex>> = LazyLock::new(|| super::rules::compile(CODE_SHAPES));
static CODE_MARK: LazyLock<Option<Regex>> = LazyLock::new(|| super::rules::compile(CODE_MARKS));

/// Whether `line` looks like code, a stack trace, JSON, a diff or a shell session rather than prose.
///
/// A line is code when it has one of the shapes only code has (a definition
/// keyword before an identifier, a stack frame, a prompt, a diff marker, a
/// numbered listing, …), when it carries a code mark (`self.`, `::`, `->`,
/// `==`, an assignment, a method call, a trailing `;` or `{`), or when more
/// than a fifth of its visible characters are brackets, quotes and operators.
/// Inline code between backticks is not counted: prose may quote code.
pub(super) fn looks_like_code(line: &str) -> bool {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return false;
    }
    // Addresses ("https://host/a?b=1") carry operators of their own.
    let prose: Vec<&str> = trimmed.split(' ').filter(|word| !word.contains("://")).collect();
    let prose = without_inline_code(&prose.join(" "));
    let prose = prose.trim();
    if prose.split_whitespace().all(|word| word == "code") {
        // A line that is only inline code.
        return true;
    }
    let matches = |regex: &LazyLock<Option<Regex>>| regex.as_ref().is_some_and(|regex| regex.is_match(prose));
    if matches(&CODE_SHAPE) || matches(&CODE_MARK) {
        return true;
    }
    let (mut visible, mut symbols) = (0_usize, 0_usize);
    for c in prose.chars().filter(|c| !c.is_whitespace()) {
        visible += 1;
        if matches!(
            c,
            '(' | ')'
                | '{'
                | '}'
                | '['
                | ']'
                | '<'
                | '>'
                | '='
                | ';'
                | '"'
                | '\\'
                | '|'
                | '&'
                | '*'
                | '$'
                | '#'
                | '^'
                | '~'
        ) {
            symbols += 1;
        }
    }
    visible >= 4 && symbols * 5 > visible
}

/// Whether `line` is indented like the body of a block (four spaces or a tab).
pub(super) fn indented(line: &str) -> bool {
    line.starts_with('\t') || line.starts_with("    ")
}

/// `line` with every span between a pair of backticks replaced by a placeholder word.
fn without_inline_code(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    let mut closed = line.matches('`').count() / 2 * 2;
    for c in line.chars() {
        if c == '`' && closed > 0 {
            closed -= 1;
            if !in_code {
                out.push_str("code");
            }
            in_code = !in_code;
        } else if !in_code {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_is_recognised() {
        for line in [
            "def n(self, line):",
            "    return line.strip().split(':')",
            "fn main() -> Result<(), Error> {",
            "pub fn load(&self) -> Vec<u8>",
            "let token_1 = compute(\"token\", 1197);",
            "  12 | let merge_4 = compute(\"merge\", 7317);",
            "src/lexer.rs:17: unwrap()",
            "Traceback (most recent call last):",
            "  File \"app/main.py\", line 42, in handle",
            "ValueError: invalid literal for int() with base 10: 'x'",
            "    at com.acme.Server.run(Server.java:88)",
            "thread 'main' panicked at src/main.rs:3:5:",
            "diff --git a/src/lib.rs b/src/lib.rs",
            "@@ -1,4 +1,5 @@",
            "+    retries: 5,",
            "-let x = 1;",
            "$ cargo test --workspace",
            ">>> import os",
            "{\"id\": \"INC-20931\", \"status\": \"created\"}",
            "  \"port\": 5432,",
            "}",
            "import numpy as np",
            "from typing import Optional",
            "use std::collections::HashMap;",
            "if self.port == 5432:",
            "for line in lines:",
            "config.port = 6432",
            "@app.route(\"/health\")",
            "x = parse_line(buf)",
            "`cargo build --release`",
            "<div class=\"note\">",
            "return None",
            "raise ValueError;",
            "error: the port is 5432 but the service is called api-3",
            "WARN retry budget exhausted for db-7",
            "2026-11-23T19:30:02Z started worker 4",
        ] {
            assert!(looks_like_code(line), "{line:?} is code");
        }
    }

    #[test]
    fn prose_is_not_code() {
        for line in [
            "My employee number is 88123.",
            "Our production Postgres listens on port 6432.",
            "Correction: the deadline moved to 14 March.",
            "I prefer tabs over spaces.",
            "Run `kubectl get pods` in the right namespace.",
            "Edit main.rs, e.g. the loop.",
            "See https://example.com/a.b?x=1 now?",
            "My timezone is UTC+2.",
            "By the way, my pronouns are they/them.",
            "- I prefer tabs",
            "Use `x.y. z` here.",
            "Created branch fix/retry-backoff-7781 and pushed it.",
            "If it fails again, call me: I'm on call until 6 pm.",
            "The invoice was sent on March 3 (a Tuesday).",
            "好的。我喜欢Rust！",
            "Q3 numbers are in; the report goes to finance.",
            "return the parcel to the sender please",
            "For the record, the staging box is called orion-2.",
            "Let's go with the managed Redis instance.",
        ] {
            assert!(!looks_like_code(line), "{line:?} is prose");
        }
    }

    #[test]
    fn inline_code_is_set_aside() {
        assert_eq!(without_inline_code("use `a == b` here"), "use code here");
        assert_eq!(without_inline_code("a ` b"), "a ` b");
        assert!(indented("    x") && indented("\tx") && !indented("  x"));
    }
}

//! Unit tests of the strategy helpers: text capping and the checks of `run_checked`.

use std::num::NonZeroU32;

use tidemark_core::{CompactionError, Message, Outcome, TokenCounter};

use super::*;

/// One token per byte, no overheads: easy to reason about.
struct Bytes;

impl TokenCounter for Bytes {
    fn name(&self) -> &str {
        "bytes"
    }
    fn count_text(&self, text: &str) -> u32 {
        u32::try_from(text.len()).unwrap_or(u32::MAX)
    }
    fn count(&self, message: &Message) -> u32 {
        self.count_text(&message.text())
    }
}

fn budget(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).expect("non-zero")
}

#[test]
fn cap_text_cuts_at_a_character_boundary_within_the_limit() {
    let check = |text: &str, max: u32, expected: &str| assert_eq!(cap_text(text, max, &Bytes), expected);
    check("hello", 10, "hello");
    check("hello", 3, "hel");
    check("héllo", 2, "h");
    check("héllo", 3, "hé");
    check("🦀🦀", 5, "🦀");
    check("abc", 0, "");
}

#[test]
fn cap_bytes_never_splits_a_character() {
    assert_eq!(cap_bytes("héllo", 2), "h");
    assert_eq!(cap_bytes("héllo", 3), "hé");
    assert_eq!(cap_bytes("abc", 9), "abc");
}

/// A strategy that returns a fixed history, to test the checks.
struct Returns(Vec<Message>);

impl CompactionStrategy for Returns {
    fn name(&self) -> &str {
        "fixed"
    }

    async fn compact(
        &self,
        history: &[Message],
        budget: NonZeroU32,
        counter: &dyn TokenCounter,
    ) -> Result<Compacted, CompactionError> {
        let report = Report::new(self.name(), Outcome::Applied, history, &self.0, budget, counter);
        Ok(Compacted::new(self.0.clone(), report))
    }
}

fn checked(output: Vec<Message>, input: &[Message], min_gain: u32) -> Compacted {
    futures::executor::block_on(run_checked(&Returns(output), input, budget(100), &Bytes, min_gain))
        .expect("no error")
}

#[test]
fn run_checked_discards_outputs_that_break_a_guarantee() {
    let input = vec![Message::user("a long question about the build"), Message::assistant("answer")];
    let grown =
        checked(vec![Message::user("a much longer question about the whole build system")], &input, 0);
    assert_eq!((grown.report.outcome, &grown.history), (Outcome::Skipped, &input));
    assert!(grown.report.note.as_deref().is_some_and(|note| note.contains("grew")));

    let broken = checked(vec![Message::tool_result("x", "y")], &input, 0);
    assert_eq!((broken.report.outcome, &broken.history), (Outcome::Skipped, &input));
    assert!(broken.report.note.as_deref().is_some_and(|note| note.contains("broke the history")));

    let small = checked(vec![Message::user("a long question about the build")], &input, 10);
    assert_eq!(small.report.outcome, Outcome::Skipped, "6 tokens freed is under the minimum of 10");

    let good = checked(vec![Message::assistant("answer")], &input, 10);
    assert_eq!((good.report.outcome, good.history.len()), (Outcome::Applied, 1));
    assert_eq!(good.report.gain(), 31);
}

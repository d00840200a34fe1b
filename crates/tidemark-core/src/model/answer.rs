//! Reading a summarizer's answer: what counts as a usable summary, a refusal, or an error worth another try.
//!
//! Every summarizer goes through these functions (the compactors of
//! `tidemark-compaction` and the merge writers of `tidemark-facts`), so they
//! all agree that an empty answer or a refusal is a failure and never a
//! summary. The rules are pure text checks, which is why they live in core.

use crate::error::{CompactionError, CompletionError};

/// Openings of answers that decline the task instead of summarizing.
///
/// The check is deliberately narrow: a refusal is short and starts with one of
/// these, while a real summary that mentions an apology further in is kept.
const REFUSAL_OPENINGS: &[&str] = &[
    "i'm sorry",
    "i am sorry",
    "i’m sorry",
    "sorry, i can",
    "sorry, but i",
    "i can't",
    "i can’t",
    "i cannot",
    "i can not",
    "i won't",
    "i won’t",
    "i will not",
    "i'm unable",
    "i’m unable",
    "i am unable",
    "as an ai",
];

/// Answers longer than this are taken as summaries whatever their opening.
const REFUSAL_MAX_CHARS: usize = 300;

/// Whether `text` reads as a refusal rather than a summary.
pub fn looks_like_refusal(text: &str) -> bool {
    let text = text.trim_start();
    if text.chars().count() > REFUSAL_MAX_CHARS {
        return false;
    }
    let opening: String = text.chars().take(20).collect::<String>().to_lowercase();
    REFUSAL_OPENINGS.iter().any(|refusal| opening.starts_with(refusal))
}

/// Whether a model error may pass if the call is made again (rate limits, timeouts, server and connection errors).
pub fn is_transient(error: &CompletionError) -> bool {
    matches!(
        error,
        CompletionError::RateLimited { .. }
            | CompletionError::Timeout { .. }
            | CompletionError::Server { .. }
            | CompletionError::Transport { .. }
    )
}

/// The summary in a model's answer, trimmed, or the failure the answer stands for.
///
/// # Errors
///
/// [`CompactionError::EmptySummary`] for an empty or blank answer and
/// [`CompactionError::Refused`] for one that [`looks_like_refusal`].
pub fn read_answer(text: &str) -> Result<String, CompactionError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(CompactionError::EmptySummary);
    }
    if looks_like_refusal(text) {
        return Err(CompactionError::Refused { reason: text.to_owned() });
    }
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_recognised_narrowly() {
        let cases = [
            ("I'm sorry, but I can't help with that.", true),
            ("  I cannot summarize this conversation.", true),
            ("As an AI language model, I won't do that.", true),
            ("I’m sorry, I can’t do that.", true),
            ("Sorry, but I won't summarize this.", true),
            ("I can not do that.", true),
            ("I’m unable to help.", true),
            ("The user apologised: I'm sorry about the delay. Goal: ship v2.", false),
            ("Goal: migrate the database. Decisions: use Postgres 16.", false),
            ("", false),
        ];
        for (text, refusal) in cases {
            assert_eq!(looks_like_refusal(text), refusal, "{text:?}");
        }
        let long = format!("I'm sorry to report the build failed. {}", "Details follow. ".repeat(30));
        assert!(!looks_like_refusal(&long), "a long answer is a summary");
    }

    #[test]
    fn answers_are_read_strictly() {
        assert!(matches!(read_answer("  \n "), Err(CompactionError::EmptySummary)));
        assert!(matches!(read_answer("I can't do that."), Err(CompactionError::Refused { .. })));
        assert_eq!(read_answer("  Goal: ship.  ").ok().as_deref(), Some("Goal: ship."));
    }

    #[test]
    fn only_passing_failures_are_transient() {
        use std::time::Duration;
        assert!(is_transient(&CompletionError::RateLimited { attempts: 1, retry_after: None }));
        assert!(is_transient(&CompletionError::Timeout { limit: Duration::from_secs(1), attempts: 1 }));
        assert!(!is_transient(&CompletionError::BadRequest { message: "bad".into() }));
        assert!(!is_transient(&CompletionError::EmptyResponse));
    }
}

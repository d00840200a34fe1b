//! [`LlmCompactor`]: a rolling summary that a chat model rewrites on every roll, merging the previous summary with the evicted messages.

use std::num::NonZeroU32;

use serde::{Deserialize, Serialize};
use tidemark_core::error::chain_text;
use tidemark_core::{
    CompactionError, Compactor, Completion, CompletionError, CompletionModel, CompletionRequest,
    ConversationId, FinishReason, Message,
};

use super::prompt::{self, DEFAULT_INSTRUCTION};
use crate::answer::{is_transient, read_answer};
use crate::strategy::cap_bytes;
use crate::transcript::{self, Style};

/// The default cap on the answer, in tokens.
const DEFAULT_MAX_TOKENS: u32 = 1024;
/// The default sampling temperature: low, because a summary should be faithful rather than inventive.
const DEFAULT_TEMPERATURE: f32 = 0.2;
/// The default cap on the stored summary, in bytes: room for a full answer of
/// [`DEFAULT_MAX_TOKENS`] in English (about four bytes a token) with some to spare.
const DEFAULT_MAX_BYTES: usize = 6_000;
/// The default number of calls made before a transient failure is returned.
const DEFAULT_MAX_ATTEMPTS: NonZeroU32 = NonZeroU32::new(3).expect("3 is not zero");
/// The default cap on each part of an evicted message in the transcript, in bytes.
const DEFAULT_TRANSCRIPT_PART_BYTES: usize = 8_000;

/// The artifact of [`LlmCompactor`]: the summary's text and how many rolls wrote it.
///
/// ```
/// use tidemark_compaction::LlmSummary;
///
/// let summary = LlmSummary::new("## Goal\nShip 1.4 on Friday.", 2);
/// let json = serde_json::to_string(&summary)?;
/// assert_eq!(json, r###"{"text":"## Goal\nShip 1.4 on Friday.","rolls":2}"###);
/// assert_eq!(serde_json::from_str::<LlmSummary>(&json)?, summary);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LlmSummary {
    /// The summary, as the model wrote it (trimmed and capped).
    pub text: String,
    /// How many rolls have rewritten the summary: 1 after the first.
    #[serde(default)]
    pub rolls: u32,
}

impl LlmSummary {
    /// A summary with `text` after `rolls` rolls.
    pub fn new(text: impl Into<String>, rolls: u32) -> Self {
        Self { text: text.into(), rolls }
    }
}

/// A [`Compactor`] that asks a [`CompletionModel`] to rewrite the rolling summary with the evicted messages folded in.
///
/// # The request
///
/// One system message with the instruction ([`DEFAULT_INSTRUCTION`] unless
/// [`with_system_prompt`](Self::with_system_prompt) replaces it) and one user
/// message with the previous summary, the memory layer's hint and the evicted
/// messages flattened by [`transcript::flatten`], each under its own heading.
/// The request therefore carries text only: no tool calls or results, so any
/// model accepts it whatever the history held.
///
/// # The answer
///
/// - The text is trimmed; an empty one is [`CompactionError::EmptySummary`].
/// - A refusal is [`CompactionError::Refused`]: the model's
///   [`CompletionError::Refused`], an answer stopped by a content filter, or a
///   short text that [`looks_like_refusal`](crate::answer::looks_like_refusal).
/// - An answer cut off at `max_tokens` ([`FinishReason::Length`]) is kept,
///   with a warning logged.
/// - The text is cut at a character boundary to
///   [`max_bytes`](Self::with_max_bytes), so the summary stays bounded over any
///   number of rolls.
/// - Transient failures ([`CompletionError::RateLimited`], `Timeout`, `Server`
///   and `Transport`) are tried again, up to
///   [`max_attempts`](Self::with_max_attempts) calls in all, at once: waiting
///   between attempts is the model client's business. Other failures are
///   returned after the first call.
///
/// Every failure is an error: no placeholder text ever becomes a summary.
///
/// # Example
///
/// ```
/// use futures::executor::block_on;
/// use tidemark_compaction::LlmCompactor;
/// use tidemark_core::{Compactor, ConversationId, Message};
/// use tidemark_testkit::scripted::ScriptedModel;
///
/// let model = ScriptedModel::new().answer("## Goal\nShip 1.4.\n## Identifiers\n- deploy key: secret/ci/deploy");
/// let compactor = LlmCompactor::new(model.clone()).with_max_tokens(Some(512));
/// let id = ConversationId::new("demo")?;
/// let evicted = [Message::user("The deploy key is in vault path secret/ci/deploy.")];
///
/// let summary = block_on(compactor.compact(&id, &evicted, None, Some("keep paths verbatim")))?;
/// assert_eq!(summary.rolls, 1);
/// assert!(compactor.render(&summary).text().starts_with("Summary of earlier conversation:\n## Goal"));
///
/// // The model read the evicted message and the hint as plain text.
/// let request = &model.requests()[0];
/// assert_eq!(request.max_tokens, Some(512));
/// let prompt = request.messages[1].text();
/// assert!(prompt.contains("user: The deploy key is in vault path secret/ci/deploy."));
/// assert!(prompt.contains("keep paths verbatim"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct LlmCompactor<M> {
    model: M,
    settings: Settings,
}

/// Everything but the model, kept apart so the request and answer handling need not be generic.
#[derive(Clone, Debug)]
struct Settings {
    instruction: String,
    max_tokens: Option<u32>,
    temperature: Option<f32>,
    max_bytes: Option<usize>,
    max_attempts: NonZeroU32,
    transcript: Style,
}

impl<M: CompletionModel> LlmCompactor<M> {
    /// A compactor that asks `model`, with the defaults: the [`DEFAULT_INSTRUCTION`],
    /// at most 1024 answer tokens, temperature 0.2, summaries capped at 6,000
    /// bytes, 3 attempts, and each part of an evicted message (text, tool
    /// arguments, tool result) cut to 8,000 bytes in the transcript so that one
    /// huge tool output cannot push the request past the model's context.
    pub fn new(model: M) -> Self {
        let mut transcript = Style::FULL;
        transcript.max_part_bytes = Some(DEFAULT_TRANSCRIPT_PART_BYTES);
        Self {
            model,
            settings: Settings {
                instruction: DEFAULT_INSTRUCTION.to_owned(),
                max_tokens: Some(DEFAULT_MAX_TOKENS),
                temperature: Some(DEFAULT_TEMPERATURE),
                max_bytes: Some(DEFAULT_MAX_BYTES),
                max_attempts: DEFAULT_MAX_ATTEMPTS,
                transcript,
            },
        }
    }
}

impl<M> LlmCompactor<M> {
    /// The same compactor asking for at most `max_tokens` answer tokens (`None`: the provider's default).
    #[must_use]
    pub fn with_max_tokens(mut self, max_tokens: Option<u32>) -> Self {
        self.settings.max_tokens = max_tokens;
        self
    }

    /// The same compactor sampling at `temperature` (`None`: the provider's default, for models that accept no other).
    #[must_use]
    pub fn with_temperature(mut self, temperature: Option<f32>) -> Self {
        self.settings.temperature = temperature;
        self
    }

    /// The same compactor keeping at most `max_bytes` of each summary (`None`: whatever the model wrote).
    ///
    /// The cut falls on a character boundary. A cap so small that nothing is
    /// left (such as `Some(0)`) makes every roll fail with
    /// [`CompactionError::EmptySummary`].
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: Option<usize>) -> Self {
        self.settings.max_bytes = max_bytes;
        self
    }

    /// The same compactor making at most `max_attempts` calls when the model fails transiently.
    #[must_use]
    pub fn with_max_attempts(mut self, max_attempts: NonZeroU32) -> Self {
        self.settings.max_attempts = max_attempts;
        self
    }

    /// The same compactor with `instruction` as the system message instead of [`DEFAULT_INSTRUCTION`].
    ///
    /// An instruction that is empty or only whitespace sends no system message at all.
    #[must_use]
    pub fn with_system_prompt(mut self, instruction: impl Into<String>) -> Self {
        self.settings.instruction = instruction.into();
        self
    }

    /// The same compactor flattening evicted messages in `style` (tool calls and results always become text).
    #[must_use]
    pub fn with_transcript_style(mut self, style: Style) -> Self {
        self.settings.transcript = style;
        self
    }

    /// The model.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The model, giving up the compactor.
    pub fn into_model(self) -> M {
        self.model
    }

    /// The instruction sent as the system message.
    pub fn system_prompt(&self) -> &str {
        &self.settings.instruction
    }

    /// The cap on the answer, in tokens.
    pub fn max_tokens(&self) -> Option<u32> {
        self.settings.max_tokens
    }

    /// The sampling temperature.
    pub fn temperature(&self) -> Option<f32> {
        self.settings.temperature
    }

    /// The cap on a summary, in bytes.
    pub fn max_bytes(&self) -> Option<usize> {
        self.settings.max_bytes
    }

    /// The most calls made for one roll.
    pub fn max_attempts(&self) -> NonZeroU32 {
        self.settings.max_attempts
    }

    /// How evicted messages are flattened.
    pub fn transcript_style(&self) -> Style {
        self.settings.transcript
    }
}

impl<M: CompletionModel> LlmCompactor<M> {
    /// Call the model, trying again at once after a transient failure while attempts remain.
    async fn complete(&self, request: CompletionRequest) -> Result<Completion, CompletionError> {
        let max_attempts = self.settings.max_attempts.get();
        let mut attempt = 1;
        loop {
            match self.model.complete(request.clone()).await {
                Ok(completion) => return Ok(completion),
                Err(error) if attempt < max_attempts && is_transient(&error) => {
                    tracing::warn!(
                        attempt,
                        max_attempts,
                        error = %chain_text(&error),
                        "the summary model failed transiently; trying again"
                    );
                    attempt += 1;
                }
                Err(error) => return Err(error),
            }
        }
    }
}

impl<M: CompletionModel> Compactor for LlmCompactor<M> {
    type Artifact = LlmSummary;

    fn name(&self) -> &str {
        "llm"
    }

    async fn compact(
        &self,
        _conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&LlmSummary>,
        hint: Option<&str>,
    ) -> Result<LlmSummary, CompactionError> {
        let request = self.settings.request(evicted, carry_over, hint);
        let completion = self.complete(request).await?;
        let text = self.settings.accept(completion)?;
        let rolls = carry_over.map_or(0, |summary| summary.rolls).saturating_add(1);
        Ok(LlmSummary { text, rolls })
    }

    fn render(&self, artifact: &LlmSummary) -> Message {
        Message::system(format!("Summary of earlier conversation:\n{}", artifact.text))
    }
}

impl Settings {
    /// The request for one roll: the instruction, then the previous summary, hint and transcript as one user message.
    fn request(
        &self,
        evicted: &[Message],
        carry_over: Option<&LlmSummary>,
        hint: Option<&str>,
    ) -> CompletionRequest {
        let transcript = transcript::flatten(evicted, self.transcript);
        let previous = carry_over.map(|summary| summary.text.as_str());
        let user = prompt::user_text(previous, hint, &transcript, self.max_tokens);
        let mut messages = Vec::with_capacity(2);
        if !self.instruction.trim().is_empty() {
            messages.push(Message::system(self.instruction.clone()));
        }
        messages.push(Message::user(user));
        let mut request = CompletionRequest::new(messages);
        if let Some(max_tokens) = self.max_tokens {
            request = request.with_max_tokens(max_tokens);
        }
        if let Some(temperature) = self.temperature {
            request = request.with_temperature(temperature);
        }
        request
    }

    /// The summary text in `completion`, or why there is none.
    fn accept(&self, completion: Completion) -> Result<String, CompactionError> {
        if completion.finish_reason == FinishReason::ContentFilter {
            // Whatever came before the filter stopped the answer is a fragment
            // of an unknown part of the summary; storing it would lose the rest silently.
            return Err(CompactionError::Refused {
                reason: String::from("a content filter stopped the answer"),
            });
        }
        let text = read_answer(&completion.text)?;
        if completion.finish_reason == FinishReason::Length {
            tracing::warn!(
                max_tokens = self.max_tokens,
                "the summary reached max_tokens and is cut off; keeping what was written"
            );
        }
        let Some(max_bytes) = self.max_bytes else { return Ok(text) };
        let capped = cap_bytes(&text, max_bytes).trim_end();
        if capped.is_empty() {
            return Err(CompactionError::EmptySummary);
        }
        Ok(capped.to_owned())
    }
}

#[cfg(test)]
mod tests;

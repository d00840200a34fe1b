//! A deterministic [`CompletionModel`] for tests: it plays back a script of answers and failures and records every request.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tidemark_core::{Completion, CompletionError, CompletionModel, CompletionRequest, FinishReason, Usage};

/// What the scripted model does for one call.
enum Step {
    Answer(Completion),
    Fail(Box<dyn Fn() -> CompletionError + Send + Sync>),
}

/// A function that computes an answer from a request.
type Responder = Box<dyn Fn(&CompletionRequest) -> Result<Completion, CompletionError> + Send + Sync>;

/// What the model does once its script is used up.
enum Fallback {
    /// Fail with [`CompletionError::Backend`] saying the script ran out.
    Exhausted,
    /// Compute the answer from the request.
    Respond(Responder),
}

struct Inner {
    script: VecDeque<Step>,
    fallback: Fallback,
    requests: Vec<CompletionRequest>,
}

/// A [`CompletionModel`] that answers from a script, then from a fallback, and keeps every request it received.
///
/// Clones share the script and the request log, so a test can hand one clone to
/// the code under test and inspect another.
///
/// ```
/// use tidemark_core::{CompletionError, CompletionModel, CompletionRequest, Message};
/// use tidemark_testkit::scripted::ScriptedModel;
///
/// let model = ScriptedModel::new()
///     .answer("first summary")
///     .fail_with(|| CompletionError::EmptyResponse);
/// let request = || CompletionRequest::new(vec![Message::user("summarize")]);
/// futures::executor::block_on(async {
///     assert_eq!(model.complete(request()).await.unwrap().text, "first summary");
///     assert!(matches!(model.complete(request()).await, Err(CompletionError::EmptyResponse)));
///     // The script is used up and no fallback was set.
///     assert!(matches!(model.complete(request()).await, Err(CompletionError::Backend { .. })));
/// });
/// assert_eq!(model.requests().len(), 3);
/// ```
#[derive(Clone)]
pub struct ScriptedModel {
    inner: Arc<Mutex<Inner>>,
}

impl Default for ScriptedModel {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for ScriptedModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inner = self.lock();
        f.debug_struct("ScriptedModel")
            .field("steps_left", &inner.script.len())
            .field("requests", &inner.requests.len())
            .finish()
    }
}

impl ScriptedModel {
    /// A model with an empty script that fails every call.
    pub fn new() -> Self {
        Self {
            inner: Arc::new(Mutex::new(Inner {
                script: VecDeque::new(),
                fallback: Fallback::Exhausted,
                requests: Vec::new(),
            })),
        }
    }

    /// A model that answers every call with a short deterministic digest of the request.
    ///
    /// The digest names how many messages the request had and quotes the first
    /// 40 characters of the last one, so tests can see what reached the model.
    pub fn digest() -> Self {
        Self::new().otherwise(|request| {
            let last = request.messages.last().map(|m| m.text().chars().take(40).collect::<String>());
            let text =
                format!("digest of {} messages; last: {}", request.messages.len(), last.unwrap_or_default());
            Ok(Completion::new(text, FinishReason::Stop, Usage::new(0, 0)))
        })
    }

    /// Add an answer with `text` to the script.
    #[must_use]
    pub fn answer(self, text: impl Into<String>) -> Self {
        self.push(Step::Answer(Completion::new(text, FinishReason::Stop, Usage::new(0, 0))))
    }

    /// Add a full completion (finish reason and usage included) to the script.
    #[must_use]
    pub fn completion(self, completion: Completion) -> Self {
        self.push(Step::Answer(completion))
    }

    /// Add a failure to the script; `error` builds the error each time it is played.
    #[must_use]
    pub fn fail_with(self, error: impl Fn() -> CompletionError + Send + Sync + 'static) -> Self {
        self.push(Step::Fail(Box::new(error)))
    }

    /// Once the script is used up, answer with `respond` instead of failing.
    #[must_use]
    pub fn otherwise(
        self,
        respond: impl Fn(&CompletionRequest) -> Result<Completion, CompletionError> + Send + Sync + 'static,
    ) -> Self {
        self.lock().fallback = Fallback::Respond(Box::new(respond));
        self
    }

    /// Every request received so far, oldest first.
    pub fn requests(&self) -> Vec<CompletionRequest> {
        self.lock().requests.clone()
    }

    /// How many calls were made.
    pub fn calls(&self) -> usize {
        self.lock().requests.len()
    }

    /// How many scripted steps are left.
    pub fn steps_left(&self) -> usize {
        self.lock().script.len()
    }

    fn push(self, step: Step) -> Self {
        self.lock().script.push_back(step);
        self
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // The critical sections cannot panic half-way (they only push and pop),
        // so a poisoned lock still guards consistent data.
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl CompletionModel for ScriptedModel {
    async fn complete(&self, request: CompletionRequest) -> Result<Completion, CompletionError> {
        let mut inner = self.lock();
        let step = inner.script.pop_front();
        let outcome = match step {
            Some(Step::Answer(completion)) => Ok(completion),
            Some(Step::Fail(error)) => Err(error()),
            None => match &inner.fallback {
                Fallback::Respond(respond) => respond(&request),
                Fallback::Exhausted => {
                    Err(CompletionError::Backend { source: "the model's script is used up".into() })
                }
            },
        };
        inner.requests.push(request);
        outcome
    }
}

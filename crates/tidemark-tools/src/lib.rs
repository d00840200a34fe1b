//! Memory the model can call: tidemark's history search, exact turns and long-term facts as tools.
//!
//! A memory adapter decides alone what the model sees: the window, a summary,
//! the facts and passages it guesses are relevant. With these tools the model
//! can also reach for what it needs, the way Letta's conversation search or
//! Anthropic's memory tool let it:
//!
//! - [`search_history`](definitions::SEARCH_HISTORY): passages of earlier
//!   turns below the window, best first, with their turn numbers; with a user,
//!   the user's other conversations too. The same search, security scan and
//!   redaction as the recall block of a load ([`Recall::search`]).
//! - [`read_history`](definitions::READ_HISTORY): exact stored turns by
//!   number, bounded in count and tokens, scanned as recall scans them.
//! - [`remember`](definitions::REMEMBER), [`forget`](definitions::FORGET) and
//!   [`search_facts`](definitions::SEARCH_FACTS): the long-term facts, through
//!   the [`FactCoordinator`]'s write-time scan and the store's budgets.
//!
//! [`definitions()`] gives each tool's JSON Schema, in OpenAI's strict function
//! form and Anthropic's tool form, and [`MemoryTools::call`] answers a call
//! (its name and JSON arguments) with a [`ToolOutput`]. A bad argument, a
//! refused write or a failing store is an error result the model can read:
//! the dispatcher never panics and changes nothing when it refuses. The
//! conversation and the user come from the application, never from the
//! model's arguments, so a model cannot widen its own scope.
//!
//! ```
//! use tidemark_core::{ConversationId, ConversationStore, Message, NewMessage, ToolCall};
//! use tidemark_memory::InMemoryStore;
//! use tidemark_tools::MemoryTools;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let store = InMemoryStore::new();
//! let id = ConversationId::new("support/dana")?;
//! let turns = [Message::user("My order number is 88-1203."), Message::assistant("Noted.")];
//! store.append(&id, turns.map(|turn| NewMessage::new(turn, 10)).into()).await?;
//!
//! let tools = MemoryTools::new(store);
//! let openai_tools: Vec<_> = tools.definitions().iter().map(|tool| tool.openai()).collect();
//! assert_eq!(openai_tools.len(), 6);
//!
//! // The model asks for turns 0 to 1.
//! let call = ToolCall::with_raw_arguments("call_1", "read_history", r#"{"from": 0, "to": 1}"#);
//! let answer = tools.answer(&id, &call).await;
//! assert!(answer.text().is_empty()); // a tool result, not text
//! let result = answer.tool_results().next().expect("one result");
//! assert!(!result.is_error && result.content.contains("88-1203"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # }).unwrap();
//! ```

pub mod definitions;
mod history;
pub mod notes;
mod reset;
mod search;

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tidemark_core::{
    Completion, ConversationId, ConversationStore, FactId, FactStore, HeuristicCounter, Message, NewFact,
    TokenCounter, ToolCall,
};
use tidemark_facts::scan::{Scanner, Verdict};
use tidemark_facts::{FactCoordinator, Recall, RememberError};

pub use definitions::{ToolDefinition, definitions};
pub use reset::ContextReset;

/// What a tool call returns: the text the model reads, and whether it reports an error.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolOutput {
    /// The result: JSON for an answer (text for `memory`, as Anthropic's memory tool answers), one sentence for an error.
    pub content: String,
    /// Whether the call failed (bad arguments, a refused write, a store error).
    pub is_error: bool,
}

impl ToolOutput {
    fn ok(value: &Value) -> Self {
        Self { content: value.to_string(), is_error: false }
    }

    fn error(text: impl Into<String>) -> Self {
        Self { content: text.into(), is_error: true }
    }
}

/// The bounds the dispatcher holds every call to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The most bytes of JSON arguments a call may carry.
    pub max_argument_bytes: usize,
    /// The most characters of a search query.
    pub max_query_chars: usize,
    /// The most passages or facts one search returns.
    pub max_results: usize,
    /// How many a search returns when the model does not say.
    pub default_results: usize,
    /// The most turns one `read_history` call returns.
    pub max_turns: u64,
    /// How many turns `read_history` returns when the model gives no end.
    pub default_turns: u64,
    /// The most tokens of quoted text one result holds.
    pub max_result_tokens: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_argument_bytes: 64 << 10,
            max_query_chars: 2_000,
            max_results: 20,
            default_results: 5,
            max_turns: 20,
            default_turns: 10,
            max_result_tokens: 4_000,
        }
    }
}

/// The memory tools over one store; see the [crate docs](crate).
pub struct MemoryTools<S> {
    store: S,
    recall: Recall<S>,
    facts: FactCoordinator<S>,
    scanner: Scanner,
    counter: Arc<dyn TokenCounter>,
    limits: Limits,
    read_only: bool,
    /// The memory `new_context` resets, if the application gave one.
    reset: Option<Arc<dyn ContextReset>>,
    /// The user served, whose notes directory is shared by their conversations.
    user: Option<ConversationId>,
}

impl<S> std::fmt::Debug for MemoryTools<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryTools")
            .field("limits", &self.limits)
            .field("read_only", &self.read_only)
            .field("user", &self.recall.user())
            .finish_non_exhaustive()
    }
}

impl<S: Clone> MemoryTools<S> {
    /// The tools over `store`, for conversations without a user, writing facts in each conversation's scope.
    pub fn new(store: S) -> Self {
        let limits = Limits::default();
        Self {
            recall: Recall::new(store.clone()),
            facts: FactCoordinator::new(store.clone()),
            store,
            scanner: Scanner::default(),
            counter: Arc::new(HeuristicCounter::default()),
            limits,
            read_only: false,
            reset: None,
            user: None,
        }
    }

    /// The same tools serving `user`: history searches reach the user's other conversations, facts about the user and the `memory` notes are shared by them.
    ///
    /// It makes a new [`Recall`] and [`FactCoordinator`] for the user: call it
    /// before [`with_recall`](Self::with_recall) or [`with_facts`](Self::with_facts).
    #[must_use]
    pub fn for_user(mut self, user: ConversationId) -> Self {
        self.recall = Recall::new(self.store.clone()).for_user(user.clone());
        self.facts = FactCoordinator::new(self.store.clone()).for_user(user.clone());
        self.user = Some(user);
        self
    }
}

impl<S> MemoryTools<S> {
    /// The same tools with `facts` as the fact coordinator (its scanner, budgets and user), such as the one a memory injects from.
    #[must_use]
    pub fn with_facts(mut self, facts: FactCoordinator<S>) -> Self {
        self.facts = facts;
        self
    }

    /// The same tools searching with `recall` (its user, scanner and limit).
    #[must_use]
    pub fn with_recall(mut self, recall: Recall<S>) -> Self {
        self.recall = recall;
        self
    }

    /// The same tools counting quoted text with `counter` for [`Limits::max_result_tokens`].
    #[must_use]
    pub fn with_counter(mut self, counter: impl TokenCounter + 'static) -> Self {
        self.counter = Arc::new(counter);
        self
    }

    /// The same tools offering `new_context` over `memory`: the model can start a fresh window of the conversation it serves.
    ///
    /// Without it `new_context` is neither defined nor answered. Pass the
    /// memory the agent loads its prompts from (a `CompactingMemory` or
    /// `BackgroundMemory` in an `Arc`), over the same store.
    #[must_use]
    pub fn with_reset(mut self, memory: Arc<dyn ContextReset>) -> Self {
        self.reset = Some(memory);
        self
    }

    /// The same tools with other bounds.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The same tools without the ones that write ([`definitions::WRITERS`]): they leave the definitions and are refused.
    #[must_use]
    pub fn read_only(mut self) -> Self {
        self.read_only = true;
        self
    }

    /// The store the tools read and write.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The fact coordinator the fact tools go through.
    pub fn facts(&self) -> &FactCoordinator<S> {
        &self.facts
    }

    /// Whether the tools are read-only.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// The bounds in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The definitions of the tools these serve: every tool, or the readers alone when read-only.
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        definitions().into_iter().filter(|tool| self.offers(tool.name)).collect()
    }

    /// The definitions of the tools these serve as [`ToolSpec`](tidemark_core::ToolSpec)s, for [`CompletionRequest::with_tools`](tidemark_core::CompletionRequest::with_tools).
    pub fn specs(&self) -> Vec<tidemark_core::ToolSpec> {
        self.definitions().iter().map(ToolDefinition::spec).collect()
    }

    /// Whether the tool `name` is offered: a reader always, a writer unless read-only, `new_context` only with a memory to reset.
    fn offers(&self, name: &str) -> bool {
        if self.read_only && definitions::WRITERS.contains(&name) {
            return false;
        }
        name != definitions::NEW_CONTEXT || self.reset.is_some()
    }
}

/// The arguments of `search_history` and `search_facts`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Search {
    query: String,
    #[serde(default)]
    limit: Option<u64>,
}

/// The arguments of `read_history`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Read {
    from: u64,
    #[serde(default)]
    to: Option<u64>,
}

/// The arguments of `remember`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Remember {
    text: String,
}

/// The arguments of `new_context`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NewContext {
    handoff: String,
}

/// The arguments of `forget`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Forget {
    id: u64,
}

/// `arguments` read as `T`, or the error result that says why they are not.
fn parse<T: DeserializeOwned>(tool: &str, arguments: &Value) -> Result<T, ToolOutput> {
    T::deserialize(arguments).map_err(|error| ToolOutput::error(format!("bad arguments for {tool}: {error}")))
}

impl<S: ConversationStore + FactStore> MemoryTools<S> {
    /// Answer the call of tool `name` with JSON `arguments` in `conversation`; see the [crate docs](crate).
    ///
    /// Never fails: an unknown tool, bad arguments, a refused write and a store
    /// error are all error outputs, and nothing changes when one is returned.
    pub async fn call(&self, conversation: &ConversationId, name: &str, arguments: &str) -> ToolOutput {
        match self.dispatch(conversation, name, arguments).await {
            Ok(output) | Err(output) => output,
        }
    }

    /// What to append after the model's `completion`: its assistant message (text and tool calls), then one result per memory tool call, in order.
    ///
    /// Calls of tools that are not memory tools are answered with an error
    /// result too, so the history stays valid (every call has its result);
    /// an agent with tools of its own answers those itself and calls
    /// [`answer`](Self::answer) for the rest. The loop goes on while
    /// `completion.tool_calls` is not empty.
    pub async fn respond(&self, conversation: &ConversationId, completion: &Completion) -> Vec<Message> {
        let mut messages = Vec::with_capacity(1 + completion.tool_calls.len());
        messages.push(completion.message());
        for call in &completion.tool_calls {
            messages.push(self.answer(conversation, call).await);
        }
        messages
    }

    /// Answer `call` as a tool-result message for the history: the result of [`call`](Self::call), marked as an error when it is one.
    pub async fn answer(&self, conversation: &ConversationId, call: &ToolCall) -> Message {
        let output = self.call(conversation, &call.name, &call.arguments).await;
        if output.is_error {
            Message::tool_error(call.id.clone(), output.content)
        } else {
            Message::tool_result(call.id.clone(), output.content)
        }
    }

    async fn dispatch(
        &self,
        conversation: &ConversationId,
        name: &str,
        arguments: &str,
    ) -> Result<ToolOutput, ToolOutput> {
        if !definitions::ALL.contains(&name) {
            return Err(ToolOutput::error(format!(
                "there is no memory tool named {:?}; the tools are {}",
                name.chars().take(64).collect::<String>(),
                self.definitions().iter().map(|tool| tool.name).collect::<Vec<_>>().join(", ")
            )));
        }
        if self.read_only && definitions::WRITERS.contains(&name) {
            return Err(ToolOutput::error(format!("{name} is not available: this memory is read-only")));
        }
        if !self.offers(name) {
            return Err(ToolOutput::error(format!(
                "{name} is not available: this memory has no window to reset"
            )));
        }
        if arguments.len() > self.limits.max_argument_bytes {
            return Err(ToolOutput::error(format!(
                "the arguments of {name} are {} bytes; at most {} are accepted",
                arguments.len(),
                self.limits.max_argument_bytes
            )));
        }
        let text = if arguments.trim().is_empty() { "{}" } else { arguments };
        let value: Value = serde_json::from_str(text)
            .map_err(|error| ToolOutput::error(format!("the arguments of {name} are not JSON: {error}")))?;
        if !value.is_object() {
            return Err(ToolOutput::error(format!("the arguments of {name} must be a JSON object")));
        }
        match name {
            definitions::SEARCH_HISTORY => self.search_history(conversation, parse(name, &value)?).await,
            definitions::READ_HISTORY => self.read_history(conversation, parse(name, &value)?).await,
            definitions::REMEMBER => self.remember(conversation, parse(name, &value)?).await,
            definitions::FORGET => self.forget(conversation, parse(name, &value)?).await,
            definitions::NEW_CONTEXT => self.new_context(conversation, parse(name, &value)?).await,
            definitions::MEMORY => self.memory(conversation, parse(name, &value)?).await,
            _ => self.search_facts(conversation, parse(name, &value)?).await,
        }
    }

    /// The query and limit of a search, checked against the bounds.
    fn search_bounds(&self, tool: &str, search: &Search) -> Result<usize, ToolOutput> {
        let chars = search.query.chars().count();
        if search.query.trim().is_empty() {
            return Err(ToolOutput::error(format!("{tool} needs a query with some words in it")));
        }
        if chars > self.limits.max_query_chars {
            return Err(ToolOutput::error(format!(
                "the query is {chars} characters; at most {} are accepted",
                self.limits.max_query_chars
            )));
        }
        let max = self.limits.max_results;
        match search.limit {
            None => Ok(self.limits.default_results.min(max)),
            Some(limit) if limit >= 1 && limit <= max as u64 => Ok(limit as usize),
            Some(limit) => {
                Err(ToolOutput::error(format!("limit must be between 1 and {max}; it was {limit}")))
            }
        }
    }

    async fn search_history(
        &self,
        conversation: &ConversationId,
        search: Search,
    ) -> Result<ToolOutput, ToolOutput> {
        let limit = self.search_bounds(definitions::SEARCH_HISTORY, &search)?;
        self.search_history_with(conversation, &search.query, limit).await
    }

    async fn read_history(
        &self,
        conversation: &ConversationId,
        read: Read,
    ) -> Result<ToolOutput, ToolOutput> {
        history::read(self, conversation, read.from, read.to).await
    }

    async fn remember(
        &self,
        conversation: &ConversationId,
        remember: Remember,
    ) -> Result<ToolOutput, ToolOutput> {
        let chars = remember.text.chars().count();
        if remember.text.trim().is_empty() {
            return Err(ToolOutput::error("remember needs a text to keep"));
        }
        if chars > NewFact::MAX_CHARS {
            return Err(ToolOutput::error(format!(
                "the note is {chars} characters; at most {} are accepted: keep one short statement per call",
                NewFact::MAX_CHARS
            )));
        }
        match self.facts.note(conversation, &remember.text).await {
            Ok(remembered) => {
                let fact = remembered.put.fact();
                let mut answer = json!({"id": fact.id.0, "stored": remembered.put.inserted()});
                if !remembered.put.inserted() {
                    answer["note"] = Value::from("the same fact was already kept");
                }
                if !remembered.redacted.is_empty() {
                    let kinds: Vec<&str> = remembered.redacted.iter().map(|kind| kind.as_str()).collect();
                    answer["redacted"] = Value::from(kinds);
                }
                Ok(ToolOutput::ok(&answer))
            }
            Err(RememberError::Rejected(threat)) => Err(ToolOutput::error(format!(
                "the security scan refused this note ({}); nothing was stored",
                threat.kind()
            ))),
            Err(error) => Err(ToolOutput::error(format!("the note was not stored: {}", chain(&error)))),
        }
    }

    async fn forget(&self, conversation: &ConversationId, forget: Forget) -> Result<ToolOutput, ToolOutput> {
        match self.facts.forget(conversation, FactId(forget.id)).await {
            Ok(true) => Ok(ToolOutput::ok(&json!({"forgotten": forget.id}))),
            Ok(false) => Err(ToolOutput::error(format!("there is no fact {} in this memory", forget.id))),
            Err(error) => Err(store_error(&error)),
        }
    }

    async fn new_context(
        &self,
        conversation: &ConversationId,
        args: NewContext,
    ) -> Result<ToolOutput, ToolOutput> {
        let chars = args.handoff.chars().count();
        if args.handoff.trim().is_empty() {
            return Err(ToolOutput::error(
                "new_context needs a hand-off note: what the next context must know",
            ));
        }
        if chars > reset::MAX_HANDOFF_CHARS {
            return Err(ToolOutput::error(format!(
                "the hand-off note is {chars} characters; at most {} are accepted",
                reset::MAX_HANDOFF_CHARS
            )));
        }
        let Some(memory) = &self.reset else {
            return Err(ToolOutput::error(
                "new_context is not available: this memory has no window to reset",
            ));
        };
        // The note reaches every later prompt: secrets are redacted, and what reads as planted orders is refused.
        let note = match self.scanner.scan(&args.handoff) {
            Verdict::Clean => args.handoff,
            Verdict::Redacted { text, .. } => text,
            _ => {
                return Err(ToolOutput::error(
                    "the security scan refused this hand-off note; nothing was changed",
                ));
            }
        };
        reset::run(&**memory, conversation, &note).await
    }

    async fn search_facts(
        &self,
        conversation: &ConversationId,
        search: Search,
    ) -> Result<ToolOutput, ToolOutput> {
        let limit = self.search_bounds(definitions::SEARCH_FACTS, &search)?;
        let facts = self
            .facts
            .search(conversation, &search.query, limit)
            .await
            .map_err(|error| store_error(&error))?;
        let facts: Vec<Value> = facts
            .iter()
            .map(|fact| json!({"id": fact.id.0, "kind": fact.tier.as_str(), "text": fact.text}))
            .collect();
        Ok(ToolOutput::ok(&json!({"facts": facts})))
    }
}

/// An error's message with its sources, on one line.
fn chain(error: &dyn std::error::Error) -> String {
    tidemark_core::error::chain_text(error)
}

/// The error result for a failing store: the model learns that the memory failed, not its internals.
fn store_error(error: &dyn std::error::Error) -> ToolOutput {
    tracing::warn!(error = %chain(error), "a memory tool's store call failed");
    ToolOutput::error("the memory could not be read or written just now; try again later")
}

/// The crate's README, whose example runs as a doctest so that it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

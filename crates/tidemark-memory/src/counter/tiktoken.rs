//! [`TiktokenCounter`]: exact token counts for OpenAI models with tiktoken-rs, one shared table per encoding.

use std::error::Error;
use std::fmt;
use std::sync::{Arc, OnceLock};

use tidemark_core::counter::chat_tokens;
use tidemark_core::{Message, TokenCounter};
use tiktoken_rs::CoreBPE;

use super::{CounterError, saturate};

/// An OpenAI byte-pair encoding that [`TiktokenCounter`] supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Encoding {
    /// `o200k_base`: GPT-4o, GPT-4.1, GPT-4.5, GPT-5 and the o1, o3 and o4 reasoning models.
    O200kBase,
    /// `cl100k_base`: GPT-4 and GPT-3.5 Turbo.
    Cl100kBase,
}

impl Encoding {
    /// OpenAI's name of the encoding, such as `"o200k_base"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::O200kBase => "o200k_base",
            Encoding::Cl100kBase => "cl100k_base",
        }
    }

    /// The encoding of an OpenAI chat model, or `None` for a model outside the supported families.
    ///
    /// A model belongs to a family when its name is the family's name or continues
    /// it with `-` (dated snapshots and sizes, such as `gpt-4o-2024-08-06` or
    /// `o4-mini`); GPT-5 point releases such as `gpt-5.1` belong to `gpt-5`.
    /// Fine-tuned names (`ft:gpt-4o-mini-2024-07-18:org::id`) map like their base model.
    /// Families: `gpt-5`, `gpt-4.5`, `gpt-4.1`, `gpt-4o`, `chatgpt-4o`, `o1`, `o3`
    /// and `o4` use `o200k_base`; `gpt-4`, `gpt-3.5-turbo` and Azure's
    /// `gpt-35-turbo` use `cl100k_base`.
    pub fn for_model(model: &str) -> Option<Self> {
        let base = match model.strip_prefix("ft:") {
            Some(fine_tuned) => fine_tuned.split(':').next().unwrap_or(fine_tuned),
            None => model,
        };
        FAMILIES.iter().find(|family| family.contains(base)).map(|family| family.encoding)
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Token counts for OpenAI models: every string encoded exactly as OpenAI's tiktoken does, in OpenAI's chat accounting.
///
/// A message is priced as what a request sends for it: the OpenAI
/// chat-completions messages that `tidemark-providers`' `wire::message_to_wire`
/// writes for it, each counted by the rule of OpenAI's cookbook (*How to count
/// tokens with tiktoken*): 3 tokens per message, the tokens of every string
/// field, 1 more for a `name`, and 3 per prompt to prime the reply.
/// [`chat_tokens`] keeps the mapping; a test in `tidemark-providers` checks it
/// against the wire's own output, and the benchmark checks the counts against
/// OpenAI's Python tiktoken on every recorded transcript in the repository.
///
/// | Part | Tokens | Source of the rule |
/// | --- | --- | --- |
/// | every wire message | 3, plus the tokens of its role (`"user"`, `"tool"`, …; one token each) | cookbook: `tokens_per_message` and the `role` field |
/// | participant `name` | its tokens + 1 | cookbook: `tokens_per_name` |
/// | text, as a plain string `content` | its tokens | cookbook: every string field |
/// | text, as one of several content parts | its tokens + those of `"text"` (1) | wire: an array part `{"type":"text","text":…}` |
/// | `content: null` (an assistant turn that only calls tools) | 0 | wire: null is no string |
/// | each tool call | the tokens of its id, of `"function"` (1), of the function name and of the arguments text | wire: the `tool_calls` entry `{"id","type","function":{"name","arguments"}}` |
/// | each tool result | a wire message of its own: 3 + role + the tokens of `tool_call_id` and of the content (+ the name and 1, when the message has one) | wire: one `tool` message per result |
/// | a tool result outside a tool message | the tokens of `"text"` and of `[result of {id}] {content}` | wire: the text form it is sent as |
/// | each attachment | [`ATTACHMENT_TOKENS`](super::ATTACHMENT_TOKENS) (85) | OpenAI's vision pricing: the base cost of an image |
/// | reply priming, once per prompt | 3 ([`prompt_overhead`](TokenCounter::prompt_overhead)) | cookbook: `<|start|>assistant<|message|>` |
///
/// An attachment is priced at 85 whatever it holds, rather than by the tokens
/// of its URL or base64 text, because providers price an image by its size and
/// detail level and never tokenize its bytes as text; 85 is the low-detail
/// cost, so a large image sent at high detail costs more than counted.
/// Pinning and the error flag of a tool result are never sent, so they cost
/// nothing, and a tool message with no result sends nothing and costs 0.
/// The tool definitions of a request cost tokens too, which no message
/// carries, and the API may frame tool calls in its own undocumented way, so
/// counts of tool traffic remain the documented accounting, not a promise of
/// the API's `usage`.
///
/// Strings are encoded as *ordinary* text: `<|endoftext|>` written in a message
/// counts as the plain characters it is made of, never as a special token, so a
/// message that quotes one is counted like any other text.
/// [`count_text`](TokenCounter::count_text) is that plain count, with no framing.
///
/// The byte-pair tables of each encoding take a while to build, so they are built
/// once per process on first use and shared by every counter: constructing and
/// cloning counters is cheap.
///
/// ```
/// use tidemark_core::{Message, ToolCall, TokenCounter};
/// use tidemark_memory::counter::TiktokenCounter;
///
/// let counter = TiktokenCounter::o200k()?;
/// assert_eq!(counter.count_text("Hello world"), 2);
/// let call = ToolCall::with_raw_arguments("call_1", "read_file", r#"{"path":"a.rs"}"#);
/// let message = Message::assistant_tool_calls([call]);
/// let expected = 3
///     + counter.count_text("assistant")
///     + counter.count_text("call_1")
///     + counter.count_text("function")
///     + counter.count_text("read_file")
///     + counter.count_text(r#"{"path":"a.rs"}"#);
/// assert_eq!(counter.count(&message), expected);
/// // The tool message of issue 17: its long call id is a third of its cost.
/// let result = Message::tool_result("call_aHFvcOCBnUSBGb47m72g1qAH", "957.0");
/// assert_eq!(counter.count(&result), 23);
/// # Ok::<(), tidemark_memory::counter::CounterError>(())
/// ```
#[derive(Clone, Copy)]
pub struct TiktokenCounter {
    encoding: Encoding,
    // Visible to the unit tests, which check that counters share one table.
    pub(super) bpe: &'static CoreBPE,
}

impl TiktokenCounter {
    /// A counter for `encoding`, building its shared tables if this is the first use in the process.
    ///
    /// # Errors
    ///
    /// Returns [`CounterError::LoadEncoding`] if tiktoken-rs cannot build the tables
    /// (they are compiled into the binary, so this means a broken build; the failure is
    /// remembered and every later call returns it too).
    pub fn new(encoding: Encoding) -> Result<Self, CounterError> {
        Ok(Self { encoding, bpe: shared_tables(encoding)? })
    }

    /// A counter for `o200k_base`, the encoding of GPT-4o and later models.
    ///
    /// # Errors
    ///
    /// As for [`TiktokenCounter::new`].
    pub fn o200k() -> Result<Self, CounterError> {
        Self::new(Encoding::O200kBase)
    }

    /// A counter for `cl100k_base`, the encoding of GPT-4 and GPT-3.5 Turbo.
    ///
    /// # Errors
    ///
    /// As for [`TiktokenCounter::new`].
    pub fn cl100k() -> Result<Self, CounterError> {
        Self::new(Encoding::Cl100kBase)
    }

    /// A counter for an OpenAI chat model, by the families of [`Encoding::for_model`].
    ///
    /// # Errors
    ///
    /// Returns [`CounterError::UnknownModel`] for a model outside the supported families,
    /// and otherwise as for [`TiktokenCounter::new`].
    pub fn for_model(model: &str) -> Result<Self, CounterError> {
        let encoding = Encoding::for_model(model)
            .ok_or_else(|| CounterError::UnknownModel { model: model.to_owned() })?;
        Self::new(encoding)
    }

    /// The encoding this counter uses.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }
}

impl fmt::Debug for TiktokenCounter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TiktokenCounter").field("encoding", &self.encoding).finish_non_exhaustive()
    }
}

impl TokenCounter for TiktokenCounter {
    /// The encoding's name and the version of the accounting, such as `o200k_base/chat-v2`.
    ///
    /// `chat-v2` prices the wire form of a message (call ids, the tool-call
    /// type, content-part types and one framing per tool result); `chat-v1`
    /// left those out, so counts cached under the old name are not reused.
    fn name(&self) -> &str {
        match self.encoding {
            Encoding::O200kBase => "o200k_base/chat-v2",
            Encoding::Cl100kBase => "cl100k_base/chat-v2",
        }
    }

    fn count_text(&self, text: &str) -> u32 {
        saturate(self.bpe.encode_ordinary(text).len())
    }

    fn count(&self, message: &Message) -> u32 {
        chat_tokens(message, FRAMING, self.count_text(message.role.as_str()), |text| self.count_text(text))
    }

    fn prompt_overhead(&self) -> u32 {
        REPLY_PRIMING
    }
}

/// Tokens that frame every message in OpenAI's chat format (start, separator, end).
const FRAMING: u32 = 3;

/// Tokens that open the reply at the end of every prompt (start, `assistant`, separator).
const REPLY_PRIMING: u32 = 3;

/// A family of model names and its encoding; see [`Encoding::for_model`].
struct Family {
    name: &'static str,
    encoding: Encoding,
    /// Whether `name.N` point releases belong to the family (only for `gpt-5`,
    /// since `gpt-4.1` and `gpt-4.5` are not GPT-4 snapshots).
    point_releases: bool,
}

impl Family {
    const fn new(name: &'static str, encoding: Encoding, point_releases: bool) -> Self {
        Self { name, encoding, point_releases }
    }

    fn contains(&self, model: &str) -> bool {
        model.strip_prefix(self.name).is_some_and(|rest| {
            rest.is_empty() || rest.starts_with('-') || (self.point_releases && rest.starts_with('.'))
        })
    }
}

/// The supported model families, tried in order.
const FAMILIES: &[Family] = &[
    Family::new("gpt-5", Encoding::O200kBase, true),
    Family::new("gpt-4.5", Encoding::O200kBase, false),
    Family::new("gpt-4.1", Encoding::O200kBase, false),
    Family::new("gpt-4o", Encoding::O200kBase, false),
    Family::new("chatgpt-4o", Encoding::O200kBase, false),
    Family::new("o1", Encoding::O200kBase, false),
    Family::new("o3", Encoding::O200kBase, false),
    Family::new("o4", Encoding::O200kBase, false),
    Family::new("gpt-4", Encoding::Cl100kBase, false),
    Family::new("gpt-3.5-turbo", Encoding::Cl100kBase, false),
    Family::new("gpt-35-turbo", Encoding::Cl100kBase, false),
];

/// Built tables, or why building them failed; kept for the life of the process.
type Loaded = Result<CoreBPE, Arc<dyn Error + Send + Sync>>;

/// The process-wide tables of `encoding`, built on first use.
///
/// tiktoken-rs's own singletons panic when building fails, so the tables are
/// kept here instead, with the failure as a value.
fn shared_tables(encoding: Encoding) -> Result<&'static CoreBPE, CounterError> {
    static O200K_BASE: OnceLock<Loaded> = OnceLock::new();
    static CL100K_BASE: OnceLock<Loaded> = OnceLock::new();
    let loaded = match encoding {
        Encoding::O200kBase => O200K_BASE.get_or_init(|| tiktoken_rs::o200k_base().map_err(shared)),
        Encoding::Cl100kBase => CL100K_BASE.get_or_init(|| tiktoken_rs::cl100k_base().map_err(shared)),
    };
    loaded.as_ref().map_err(|source| CounterError::LoadEncoding { encoding, source: Arc::clone(source) })
}

/// A tiktoken-rs error as a shareable standard error, keeping its chain of causes.
fn shared(error: impl Into<Box<dyn Error + Send + Sync>>) -> Arc<dyn Error + Send + Sync> {
    Arc::from(error.into())
}

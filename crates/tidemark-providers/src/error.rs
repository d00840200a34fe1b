//! The errors of tidemark-providers' own constructors; model calls fail with the core `CompletionError`.

/// A configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A required environment variable is not set.
    #[error("environment variable {name} is not set: {why}")]
    Missing {
        /// The variable.
        name: &'static str,
        /// What it is for.
        why: &'static str,
    },
    /// The base URL cannot be parsed or is not http(s).
    #[error("base url {url:?} is not a valid http or https url")]
    BaseUrl {
        /// The URL given.
        url: String,
    },
    /// The model name is empty.
    #[error("the model name is empty")]
    EmptyModel,
    /// The HTTP client could not be built.
    #[error("the http client could not be built")]
    Client {
        /// What the HTTP library reported.
        #[source]
        source: reqwest::Error,
    },
}

/// A transcript in a provider's format that cannot be read or written: where, and what is wrong.
///
/// ```
/// use tidemark_providers::anthropic::ClaudeTranscript;
/// use tidemark_providers::{Place, TranscriptProblem};
///
/// let json = r#"{"messages":[{"role":"user","content":[{"type":"thinking","thinking":"x","signature":"c2ln"}]}]}"#;
/// let error = ClaudeTranscript::from_json(json).unwrap_err();
/// assert_eq!(error.place, Place::Block { message: 0, block: 0 });
/// assert!(matches!(error.problem, TranscriptProblem::Misplaced { .. }));
/// assert_eq!(error.to_string(), "messages[0].content[0]: a thinking block cannot be in a user message");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{place}: {problem}")]
#[non_exhaustive]
pub struct TranscriptError {
    /// Where the problem is.
    pub place: Place,
    /// What is wrong.
    pub problem: TranscriptProblem,
}

impl TranscriptError {
    pub(crate) fn new(place: Place, problem: TranscriptProblem) -> Self {
        Self { place, problem }
    }
}

/// A place in a transcript, in the terms of its format (or of tidemark's messages, when writing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Place {
    /// The transcript as a whole.
    Transcript,
    /// The top-level `system` field (Anthropic).
    System,
    /// One block of the top-level `system` field (Anthropic).
    SystemBlock(usize),
    /// A message of `messages` (Anthropic).
    Message(usize),
    /// A content block of a message (Anthropic).
    Block {
        /// The message's index in `messages`.
        message: usize,
        /// The block's index in its `content`.
        block: usize,
    },
    /// An item of the input list (OpenAI Responses).
    Item(usize),
    /// A line of a JSON-lines session file (from 1).
    Line(usize),
    /// A part of one of tidemark's messages, when writing.
    Part {
        /// The message's index in the history written.
        message: usize,
        /// The part's index in the message.
        part: usize,
    },
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Transcript => f.write_str("the transcript"),
            Place::System => f.write_str("system"),
            Place::SystemBlock(block) => write!(f, "system[{block}]"),
            Place::Message(message) => write!(f, "messages[{message}]"),
            Place::Block { message, block } => write!(f, "messages[{message}].content[{block}]"),
            Place::Item(item) => write!(f, "input[{item}]"),
            Place::Line(line) => write!(f, "line {line}"),
            Place::Part { message, part } => write!(f, "message {message} part {part}"),
        }
    }
}

/// What is wrong at a [`Place`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TranscriptProblem {
    /// The text is not JSON, or not of the shape the format has at this place.
    #[error("malformed JSON: {0}")]
    Json(String),
    /// A required field is absent.
    #[error("missing `{0}`")]
    Missing(&'static str),
    /// A field that carries a provider's sealed bytes (a signature, an encrypted payload) is empty or not base64, which the provider would refuse.
    #[error("`{0}` must be non-empty base64")]
    NotBase64(&'static str),
    /// A field has the wrong JSON type.
    #[error("`{field}` must be {expected}")]
    WrongType {
        /// The field.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// A role the format does not have.
    #[error("unknown role {0:?}")]
    UnknownRole(String),
    /// A block of a kind the turn's role may not hold.
    #[error("a {kind} block cannot be in {role} message")]
    Misplaced {
        /// The block's type.
        kind: String,
        /// The role of the message, with its article (`"a user"`).
        role: &'static str,
    },
    /// A user turn has a tool result after other content; the API wants the results first.
    #[error("tool results must come before any other content of a user turn")]
    ResultAfterContent,
    /// A tool call's arguments are not a JSON object, which the format requires.
    #[error("the arguments of tool call {0:?} are not a JSON object")]
    ArgumentsNotObject(String),
    /// The part cannot be written in the target format without losing it.
    #[error("{kind} has no lossless form in {format}")]
    Lossy {
        /// What the part is, such as `the thinking block (from anthropic)`.
        kind: String,
        /// The target format.
        format: &'static str,
    },
}

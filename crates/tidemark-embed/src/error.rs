//! Why a model could not be loaded.

use std::path::PathBuf;

/// Why [`StaticModel::from_folder`](crate::StaticModel::from_folder) could not load a model.
///
/// Every variant names the file at fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EmbedError {
    /// A file of the model could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The folder has no tokenizer: neither `tokenizer.json` nor `vocab.txt`.
    #[error("{folder} holds neither tokenizer.json nor vocab.txt")]
    NoTokenizer {
        /// The folder.
        folder: PathBuf,
    },
    /// The tensor file is not a well-formed safetensors file.
    #[error("{path} is not a well-formed safetensors file")]
    Tensors {
        /// The file.
        path: PathBuf,
        /// What the safetensors reader found.
        #[source]
        source: safetensors::SafeTensorError,
    },
    /// `tokenizer.json` is not JSON of the expected shape.
    #[error("{path} is not a readable tokenizer file")]
    Json {
        /// The file.
        path: PathBuf,
        /// What the JSON reader found.
        #[source]
        source: serde_json::Error,
    },
    /// The tokenizer is of a kind this crate does not implement.
    #[error("{path}: the tokenizer's {part} is {found}, but only {supported} is supported")]
    UnsupportedTokenizer {
        /// The file.
        path: PathBuf,
        /// Which part of the tokenizer: `model`, `normalizer` or `pre_tokenizer`.
        part: &'static str,
        /// The kind found, such as `"BPE"`, or `none`.
        found: String,
        /// The kind that would have been accepted.
        supported: &'static str,
    },
    /// A file is well-formed but its content cannot make a model.
    #[error("{path}: {problem}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: Problem,
    },
}

/// What is wrong with a model file that is well-formed: one part of [`EmbedError::Invalid`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Problem {
    /// A tensor the model needs is missing.
    #[error("there is no tensor named `{name}`")]
    MissingTensor {
        /// Its name.
        name: &'static str,
    },
    /// The file holds a tensor this crate does not know how to use.
    #[error("the tensor `{name}` is not supported (only `embeddings` and `scales` are)")]
    UnexpectedTensor {
        /// Its name.
        name: String,
    },
    /// A tensor has an element type this crate does not read.
    #[error("the tensor `{name}` holds {found} values, but {expected} is needed")]
    WrongType {
        /// The tensor.
        name: &'static str,
        /// The element type found.
        found: String,
        /// The element types accepted.
        expected: &'static str,
    },
    /// A tensor's shape does not fit the model.
    #[error("the tensor `{name}` has shape {found:?}, but {expected} is needed")]
    WrongShape {
        /// The tensor.
        name: &'static str,
        /// The shape found.
        found: Vec<usize>,
        /// The shape that fits, in words.
        expected: String,
    },
    /// The embeddings have too few or too many dimensions.
    #[error("the embeddings have {found} dimensions, but 1 to {max} are supported")]
    Dimensions {
        /// How many dimensions they have.
        found: usize,
        /// The most an embedding may have.
        max: usize,
    },
    /// The tensor's rows and the vocabulary do not match in number.
    #[error("the embeddings have {rows} rows, but the vocabulary has {entries} entries")]
    VocabularySize {
        /// How many rows the tensor has.
        rows: usize,
        /// How many entries the vocabulary has.
        entries: usize,
    },
    /// A vocabulary id points past the last row.
    #[error("the token {token:?} has id {id}, past the last row ({rows} rows)")]
    IdOutOfRange {
        /// The token.
        token: String,
        /// Its id.
        id: u64,
        /// How many rows the tensor has.
        rows: usize,
    },
    /// A value is infinite or not a number.
    #[error("the tensor `{name}` has a value that is not finite in row {row}")]
    NotFinite {
        /// The tensor.
        name: &'static str,
        /// The row that holds it.
        row: usize,
    },
    /// The vocabulary is empty.
    #[error("the vocabulary is empty")]
    EmptyVocabulary,
    /// The vocabulary file is not UTF-8.
    #[error("the vocabulary is not valid UTF-8 (at byte {at})")]
    NotUtf8 {
        /// The offset of the first invalid byte.
        at: usize,
    },
}

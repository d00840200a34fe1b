//! Reading model files: the tensors of a safetensors file, a `vocab.txt` and a `tokenizer.json`.
//!
//! Every reader takes bytes and the path they came from (for the errors), and
//! checks everything it reads: element types, shapes, sizes, ids and values.
//! None of them panics, whatever the bytes; the unit tests feed them
//! truncated and corrupted files to make sure.

use std::path::Path;

use safetensors::{Dtype, SafeTensors};
use serde::Deserialize;
use serde_json::Value;
use tidemark_core::recall::MAX_DIMENSIONS;

use crate::error::{EmbedError, Problem};
use crate::tokenizer::{MAX_WORD_CHARS, Normalization, WordPiece};

/// The vectors of a model: one row per vocabulary entry.
#[derive(Clone)]
pub(crate) struct Rows {
    /// How many values a row has.
    pub(crate) dimensions: usize,
    /// How many rows there are.
    pub(crate) count: usize,
    pub(crate) values: Values,
}

/// How the rows are stored.
#[derive(Clone)]
pub(crate) enum Values {
    /// Eight-bit integers, row after row, and one scale per row: value = integer × scale.
    Quantized { values: Box<[i8]>, scales: Box<[f32]> },
    /// Plain floats, row after row.
    Float(Box<[f32]>),
}

impl Rows {
    /// Adds row `id` to `sum`; an id past the last row adds nothing.
    ///
    /// The sum is kept in `f64`, so that no sum of finite rows overflows, and
    /// each product of an 8-bit integer and its `f32` scale is exact.
    pub(crate) fn add_to(&self, id: u32, sum: &mut [f64]) {
        let Ok(id) = usize::try_from(id) else { return };
        let start = id.saturating_mul(self.dimensions);
        let end = start.saturating_add(self.dimensions);
        match &self.values {
            Values::Quantized { values, scales } => {
                if let (Some(row), Some(scale)) = (values.get(start..end), scales.get(id)) {
                    let scale = f64::from(*scale);
                    for (total, value) in sum.iter_mut().zip(row) {
                        *total += f64::from(*value) * scale;
                    }
                }
            }
            Values::Float(values) => {
                if let Some(row) = values.get(start..end) {
                    for (total, value) in sum.iter_mut().zip(row) {
                        *total += f64::from(*value);
                    }
                }
            }
        }
    }
}

impl Rows {
    /// The squared length of each row, as the cosine of [`cosine`](Rows::cosine) needs it.
    pub(crate) fn squares(&self) -> Box<[f64]> {
        (0..self.count)
            .map(|id| {
                let start = id * self.dimensions;
                let end = start + self.dimensions;
                match &self.values {
                    Values::Quantized { values, .. } => values.get(start..end).map_or(0.0, |row| {
                        row.iter().map(|v| f64::from(i32::from(*v) * i32::from(*v))).sum()
                    }),
                    Values::Float(values) => values
                        .get(start..end)
                        .map_or(0.0, |row| row.iter().map(|v| f64::from(*v).powi(2)).sum()),
                }
            })
            .collect()
    }

    /// Read a byte of each end of the rows `ids` (and their squares and scales), so that the
    /// processor fetches them side by side: a table of 30,000 rows does not stay in a cache, and the
    /// cosines that follow would otherwise each wait for their rows in turn. Ids past the last row
    /// are passed over.
    pub(crate) fn touch(&self, ids: &[u32], squares: &[f64]) {
        let mut touched = 0u64;
        for id in ids {
            let Ok(id) = usize::try_from(*id) else { continue };
            let first = id.saturating_mul(self.dimensions);
            let last = first.saturating_add(self.dimensions.saturating_sub(1));
            touched ^= squares.get(id).map_or(0, |square| square.to_bits());
            match &self.values {
                Values::Quantized { values, scales } => {
                    let bytes = [values.get(first), values.get(last)];
                    touched ^= bytes
                        .into_iter()
                        .flatten()
                        .fold(0, |sum, byte| sum ^ u64::from(byte.to_ne_bytes()[0]));
                    touched ^= scales.get(id).map_or(0, |scale| u64::from(scale.to_bits()));
                }
                Values::Float(values) => {
                    let ends = [values.get(first), values.get(last)];
                    touched ^=
                        ends.into_iter().flatten().fold(0, |sum, value| sum ^ u64::from(value.to_bits()));
                }
            }
        }
        std::hint::black_box(touched);
    }

    /// The cosine of rows `a` and `b`, given the [`squares`](Rows::squares); 0 for an id past the last row or a row of zeros.
    ///
    /// For eight-bit rows the dot product is an exact integer and the scales
    /// count only by their sign, so the answer is the same on every machine.
    pub(crate) fn cosine(&self, a: u32, b: u32, squares: &[f64]) -> f64 {
        let (Ok(a), Ok(b)) = (usize::try_from(a), usize::try_from(b)) else { return 0.0 };
        let (Some(square_a), Some(square_b)) = (squares.get(a), squares.get(b)) else { return 0.0 };
        if *square_a == 0.0 || *square_b == 0.0 {
            return 0.0;
        }
        let row = |id: usize| id * self.dimensions..(id + 1) * self.dimensions;
        let dot = match &self.values {
            Values::Quantized { values, scales } => {
                let (Some(x), Some(y)) = (values.get(row(a)), values.get(row(b))) else { return 0.0 };
                let sign = match (scales.get(a), scales.get(b)) {
                    (Some(p), Some(q)) if (*p > 0.0) == (*q > 0.0) => 1.0,
                    (Some(_), Some(_)) => -1.0,
                    _ => return 0.0,
                };
                // At most 127² per product and 4,096 products: an i32 sum is exact.
                let sum: i32 = x.iter().zip(y).map(|(p, q)| i32::from(*p) * i32::from(*q)).sum();
                sign * f64::from(sum)
            }
            Values::Float(values) => {
                let (Some(x), Some(y)) = (values.get(row(a)), values.get(row(b))) else { return 0.0 };
                x.iter().zip(y).map(|(p, q)| f64::from(*p) * f64::from(*q)).sum()
            }
        };
        let cosine = dot / (square_a * square_b).sqrt();
        if cosine.is_finite() { cosine.clamp(-1.0, 1.0) } else { 0.0 }
    }
}

/// The rows of a safetensors file: a tensor `embeddings` of shape `[rows, dimensions]`, and `scales` of shape `[rows]`.
///
/// `embeddings` may hold `I8` values, which need `scales`, or `F32`, `F16`
/// or `BF16` values, which `scales` multiplies if present. No other tensor
/// may be there: a file with more than these is another kind of model, and
/// using only part of it would give wrong embeddings without a word.
pub(crate) fn read_rows(bytes: &[u8], path: &Path) -> Result<Rows, EmbedError> {
    let invalid = |problem| EmbedError::Invalid { path: path.to_owned(), problem };
    let tensors = SafeTensors::deserialize(bytes)
        .map_err(|source| EmbedError::Tensors { path: path.to_owned(), source })?;
    let mut names = tensors.names();
    names.sort_unstable();
    if let Some(name) = names.into_iter().find(|name| !matches!(*name, "embeddings" | "scales")) {
        return Err(invalid(Problem::UnexpectedTensor { name: name.to_owned() }));
    }
    let embeddings =
        tensors.tensor("embeddings").map_err(|_| invalid(Problem::MissingTensor { name: "embeddings" }))?;
    let (count, dimensions) = match *embeddings.shape() {
        [count, dimensions] if count > 0 => (count, dimensions),
        _ => {
            return Err(invalid(Problem::WrongShape {
                name: "embeddings",
                found: embeddings.shape().to_vec(),
                expected: "[rows, dimensions] with at least one row".to_owned(),
            }));
        }
    };
    if dimensions == 0 || dimensions > MAX_DIMENSIONS {
        return Err(invalid(Problem::Dimensions { found: dimensions, max: MAX_DIMENSIONS }));
    }
    let scales = match tensors.tensor("scales") {
        Ok(scales) => {
            if scales.dtype() != Dtype::F32 {
                return Err(invalid(Problem::WrongType {
                    name: "scales",
                    found: format!("{:?}", scales.dtype()),
                    expected: "F32",
                }));
            }
            if scales.shape() != [count] {
                return Err(invalid(Problem::WrongShape {
                    name: "scales",
                    found: scales.shape().to_vec(),
                    expected: format!("[{count}], one per row"),
                }));
            }
            let scales: Box<[f32]> = floats(scales.data(), Dtype::F32).collect();
            if let Some(row) = scales.iter().position(|scale| !scale.is_finite()) {
                return Err(invalid(Problem::NotFinite { name: "scales", row }));
            }
            Some(scales)
        }
        Err(_) => None,
    };
    let values = match (embeddings.dtype(), scales) {
        (Dtype::I8, Some(scales)) => Values::Quantized {
            values: embeddings.data().iter().map(|byte| i8::from_le_bytes([*byte])).collect(),
            scales,
        },
        (Dtype::I8, None) => return Err(invalid(Problem::MissingTensor { name: "scales" })),
        (dtype @ (Dtype::F32 | Dtype::F16 | Dtype::BF16), scales) => {
            let mut values: Box<[f32]> = floats(embeddings.data(), dtype).collect();
            if let Some(scales) = scales {
                for (row, scale) in values.chunks_exact_mut(dimensions).zip(scales.iter()) {
                    row.iter_mut().for_each(|value| *value *= scale);
                }
            }
            if let Some(at) = values.iter().position(|value| !value.is_finite()) {
                return Err(invalid(Problem::NotFinite { name: "embeddings", row: at / dimensions }));
            }
            Values::Float(values)
        }
        (dtype, _) => {
            return Err(invalid(Problem::WrongType {
                name: "embeddings",
                found: format!("{dtype:?}"),
                expected: "I8, F32, F16 or BF16",
            }));
        }
    };
    Ok(Rows { dimensions, count, values })
}

/// The floats stored little-endian in `bytes` as `dtype` (one of `F32`, `F16`, `BF16`).
fn floats(bytes: &[u8], dtype: Dtype) -> impl Iterator<Item = f32> + '_ {
    let width = if dtype == Dtype::F32 { 4 } else { 2 };
    bytes.chunks_exact(width).map(move |chunk| match (dtype, chunk) {
        (Dtype::F32, &[a, b, c, d]) => f32::from_le_bytes([a, b, c, d]),
        (Dtype::BF16, &[a, b]) => f32::from_bits(u32::from(u16::from_le_bytes([a, b])) << 16),
        (_, &[a, b]) => f16_to_f32(u16::from_le_bytes([a, b])),
        _ => f32::NAN,
    })
}

/// The value of an IEEE 754 half-precision float, given its bits.
pub(crate) fn f16_to_f32(bits: u16) -> f32 {
    let exponent = (bits >> 10) & 0x1F;
    let fraction = u32::from(bits & 0x3FF);
    let magnitude = match exponent {
        // Subnormal: fraction × 2^-24, exact in f32.
        0 => fraction as f32 / 16_777_216.0,
        0x1F if fraction == 0 => f32::INFINITY,
        0x1F => f32::NAN,
        // Normal: move the exponent from a bias of 15 to 127 and widen the fraction.
        _ => f32::from_bits(((u32::from(exponent) + 112) << 23) | (fraction << 13)),
    };
    if bits & 0x8000 == 0 { magnitude } else { -magnitude }
}

/// The special tokens BERT's vocabulary files name, matched whole in the raw text.
const BERT_SPECIAL: [&str; 5] = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

/// A tokenizer from a `vocab.txt`: one entry per line, the line's number its id, with BERT's uncased settings.
///
/// Returns the tokenizer and how many lines (ids) the file has. Trailing
/// whitespace is trimmed from each line, as the reference does.
pub(crate) fn read_vocab_txt(bytes: &[u8], path: &Path) -> Result<(WordPiece, usize), EmbedError> {
    let invalid = |problem| EmbedError::Invalid { path: path.to_owned(), problem };
    let text =
        std::str::from_utf8(bytes).map_err(|error| invalid(Problem::NotUtf8 { at: error.valid_up_to() }))?;
    let entries: Vec<(&str, u32)> =
        text.lines().zip(0u32..).map(|(line, id)| (line.trim_end(), id)).collect();
    if entries.is_empty() {
        return Err(invalid(Problem::EmptyVocabulary));
    }
    let special: Vec<(&str, u32)> =
        entries.iter().filter(|(piece, _)| BERT_SPECIAL.contains(piece)).copied().collect();
    let count = entries.len();
    let tokenizer = WordPiece::new(entries, "##", "[UNK]", special, Normalization::UNCASED, MAX_WORD_CHARS);
    Ok((tokenizer, count))
}

/// The parts of a `tokenizer.json` this crate reads.
#[derive(Deserialize)]
struct TokenizerFile {
    model: Value,
    #[serde(default)]
    normalizer: Value,
    #[serde(default)]
    pre_tokenizer: Value,
    #[serde(default)]
    added_tokens: Vec<AddedToken>,
}

/// The `model` of a WordPiece `tokenizer.json`.
#[derive(Deserialize)]
struct WordPieceModel {
    vocab: std::collections::HashMap<String, u64>,
    #[serde(default = "default_unknown")]
    unk_token: String,
    #[serde(default = "default_prefix")]
    continuing_subword_prefix: String,
    #[serde(default = "default_max_word_chars")]
    max_input_chars_per_word: usize,
}

fn default_unknown() -> String {
    "[UNK]".to_owned()
}

fn default_prefix() -> String {
    "##".to_owned()
}

fn default_max_word_chars() -> usize {
    MAX_WORD_CHARS
}

/// An entry of `added_tokens`.
#[derive(Deserialize)]
struct AddedToken {
    id: u64,
    content: String,
    #[serde(default)]
    normalized: bool,
}

/// The highest bound on a word's length a `tokenizer.json` may set; a higher one is lowered to this.
const LONGEST_WORD_BOUND: usize = 1000;

/// A tokenizer from a Hugging Face `tokenizer.json` whose model is WordPiece, for a tensor of `rows` rows.
///
/// Its normalizer must be a BERT normalizer, whose settings are read, or be
/// absent (BERT's uncased settings are assumed then); its pre-tokenizer must
/// be BERT's. Added tokens that are matched on the raw text (`"normalized":
/// false`) are matched here too; the others are left out. The bound on a
/// word's length (`max_input_chars_per_word`, 100 if absent) is read, up to
/// 1,000 characters.
pub(crate) fn read_tokenizer_json(bytes: &[u8], path: &Path, rows: usize) -> Result<WordPiece, EmbedError> {
    let json = |source| EmbedError::Json { path: path.to_owned(), source };
    let invalid = |problem| EmbedError::Invalid { path: path.to_owned(), problem };
    let unsupported = |part, found: &Value, supported| EmbedError::UnsupportedTokenizer {
        path: path.to_owned(),
        part,
        found: match found {
            Value::Null => "none".to_owned(),
            Value::String(kind) => format!("{kind:?}"),
            other => format!("{:?}", other.to_string()),
        },
        supported,
    };
    let file: TokenizerFile = serde_json::from_slice(bytes).map_err(json)?;

    let kind = file.model.get("type").unwrap_or(&Value::Null);
    if *kind != "WordPiece" {
        return Err(unsupported("model", kind, "\"WordPiece\""));
    }
    let model: WordPieceModel = serde_json::from_value(file.model).map_err(json)?;

    let normalizer_kind = file.normalizer.get("type").unwrap_or(&Value::Null);
    let normalization = if file.normalizer.is_null() {
        Normalization::UNCASED
    } else if *normalizer_kind == "BertNormalizer" {
        let flag = |name: &str| file.normalizer.get(name).and_then(Value::as_bool);
        let lowercase = flag("lowercase").unwrap_or(true);
        Normalization {
            clean: flag("clean_text").unwrap_or(true),
            cjk: flag("handle_chinese_chars").unwrap_or(true),
            strip_accents: flag("strip_accents").unwrap_or(lowercase),
            lowercase,
        }
    } else {
        return Err(unsupported("normalizer", normalizer_kind, "\"BertNormalizer\""));
    };
    let pre_kind = file.pre_tokenizer.get("type").unwrap_or(&Value::Null);
    if *pre_kind != "BertPreTokenizer" {
        return Err(unsupported("pre_tokenizer", pre_kind, "\"BertPreTokenizer\""));
    }

    if model.vocab.is_empty() {
        return Err(invalid(Problem::EmptyVocabulary));
    }
    if model.vocab.len() != rows {
        return Err(invalid(Problem::VocabularySize { rows, entries: model.vocab.len() }));
    }
    let id_of = |token: &str, id: u64| {
        u32::try_from(id)
            .ok()
            .filter(|id| usize::try_from(*id).is_ok_and(|id| id < rows))
            .ok_or_else(|| invalid(Problem::IdOutOfRange { token: token.to_owned(), id, rows }))
    };
    let mut entries: Vec<(&str, u32)> = Vec::with_capacity(model.vocab.len());
    for (token, id) in &model.vocab {
        entries.push((token, id_of(token, *id)?));
    }
    let mut special: Vec<(&str, u32)> = Vec::new();
    for token in file.added_tokens.iter().filter(|token| !token.normalized) {
        special.push((&token.content, id_of(&token.content, token.id)?));
    }
    Ok(WordPiece::new(
        entries,
        &model.continuing_subword_prefix,
        &model.unk_token,
        special,
        normalization,
        // A word of more characters than this costs more work than it is worth; any larger bound is lowered to it.
        model.max_input_chars_per_word.min(LONGEST_WORD_BOUND),
    ))
}

//! The static model: a tokenizer, one vector per vocabulary entry, and the sum of a text's vectors.

use std::fmt;
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use tidemark_core::recall::{Embedder, Embedding};

use crate::error::{EmbedError, Problem};
use crate::load::{self, Rows};
use crate::tokenizer::{Fnv, WordPiece};

/// The name of the model shipped with the crate, which [`StaticModel::bundled`] returns.
pub const BUNDLED_NAME: &str = "tidemark-minilm-static-128@1";

/// The most vocabulary pieces of a text that count: the first ones, up to this many.
///
/// The cap keeps the cost of an embedding bounded, whatever the text's
/// length: tokenizing stops once it has this many pieces. About 2,048 pieces
/// are 1,500 English words; a passage longer than that is placed by its
/// beginning.
pub const MAX_PIECES: usize = 2048;

/// A static embedding model: a WordPiece tokenizer, a table of one vector per vocabulary entry, and a sum.
///
/// A text's embedding is the sum of the vectors of its pieces (each piece
/// counted as often as it occurs), turned into an [`Embedding`], which keeps
/// only its direction. The weights of a weighted mean are already part of
/// the vectors, so a plain sum is that mean, up to its length. Pieces with a
/// zero vector (the unknown token, special tokens, unused entries) count for
/// nothing; a text with no other piece has no embedding.
///
/// There is no attention and no context: "dog bites man" and "man bites dog"
/// get the same embedding. That is what makes the model small and fast (a
/// few microseconds for a sentence), and weaker than the transformer it was
/// distilled from.
///
/// ```
/// use tidemark_core::recall::Embedder;
/// use tidemark_embed::StaticModel;
///
/// let model = StaticModel::bundled();
/// let fact = model.embed("We host everything in Frankfurt.").expect("known words");
/// let near = model.embed("Which city are our servers in?").expect("known words");
/// let far = model.embed("The cat sleeps on the sofa all afternoon.").expect("known words");
/// assert!(fact.similarity(&near) > fact.similarity(&far));
/// assert_eq!(model.embed("\u{1F600}"), None); // only an unknown symbol
/// ```
pub struct StaticModel {
    name: String,
    tokenizer: WordPiece,
    rows: Rows,
    /// Each row's squared length, worked out at the first [`Embedder::piece_similarity`].
    squares: OnceLock<Box<[f64]>>,
    /// The pieces of texts [`Embedder::pieces`] was asked for lately, by text: a search weighs
    /// much the same passages turn after turn, and cutting each of them again would cost more
    /// than the rest of the weighing.
    seen: PiecesSeen,
}

/// Texts and their pieces, at most [`PIECES_SEEN_BYTES`] of them, each text at most [`PIECES_SEEN_TEXT`] bytes.
type PiecesSeen = quick_cache::sync::Cache<Box<str>, Arc<[u32]>, ByBytes>;

/// How many bytes of texts and pieces a model keeps for [`Embedder::pieces`].
const PIECES_SEEN_BYTES: u64 = 4 << 20;

/// The longest text whose pieces a model keeps: a passage is shorter, and a longer text is rarely asked twice.
const PIECES_SEEN_TEXT: usize = 2 << 10;

/// Weighs a kept text by its bytes and those of its pieces.
#[derive(Clone, Copy, Debug)]
struct ByBytes;

impl quick_cache::Weighter<Box<str>, Arc<[u32]>> for ByBytes {
    fn weight(&self, text: &Box<str>, pieces: &Arc<[u32]>) -> u64 {
        (text.len() + 4 * pieces.len() + 64) as u64
    }
}

fn pieces_seen() -> PiecesSeen {
    quick_cache::sync::Cache::with_weighter(8_192, PIECES_SEEN_BYTES, ByBytes)
}

impl StaticModel {
    /// The model shipped with this crate: 30,522 BERT pieces, 128 dimensions, distilled from all-MiniLM-L6-v2.
    ///
    /// It is read from bytes compiled into the crate the first time it is
    /// asked for (a few milliseconds), and shared from then on. Its name is
    /// [`BUNDLED_NAME`].
    pub fn bundled() -> Arc<StaticModel> {
        static BUNDLED: OnceLock<Arc<StaticModel>> = OnceLock::new();
        Arc::clone(BUNDLED.get_or_init(|| {
            // The bytes are constants of the crate, so this works every time or never; the unit test
            // `bundled_model_loads` shows that it works.
            Arc::new(bundled_model().expect("the bundled model is well-formed"))
        }))
    }

    /// A model from the files in `folder`.
    ///
    /// Two layouts are read:
    ///
    /// - this crate's: `model.safetensors` with an `I8` tensor `embeddings`
    ///   of shape `[entries, dimensions]` and an `F32` tensor `scales` of
    ///   shape `[entries]` (row `i` is `embeddings[i] × scales[i]`), beside a
    ///   BERT `vocab.txt` (one entry per line, the line number its id);
    /// - a model2vec-style static model: `model.safetensors` with an `F32`,
    ///   `F16` or `BF16` tensor `embeddings` of shape `[entries, dimensions]`,
    ///   beside a Hugging Face `tokenizer.json` whose model is WordPiece (its
    ///   `vocab`, `unk_token` and `continuing_subword_prefix` are read), whose
    ///   normalizer is BERT's (its settings are read; an absent normalizer
    ///   counts as BERT's uncased one) and whose pre-tokenizer is BERT's.
    ///
    /// When both `tokenizer.json` and `vocab.txt` are there, `tokenizer.json`
    /// is used. The model is refused, with an error naming the file and what
    /// is wrong, when a file cannot be read or parsed, the tokenizer is of
    /// another kind, the rows and the vocabulary differ in number, the
    /// dimensions are not between 1 and
    /// [`MAX_DIMENSIONS`](tidemark_core::recall::MAX_DIMENSIONS), or a value
    /// is infinite or not a number.
    ///
    /// The model's name is `folder:` followed by a 64-bit FNV-1a hash of the
    /// two files' bytes, in hex. It changes whenever a file does, so a store
    /// that kept embeddings made with an earlier version of the files makes
    /// them again.
    pub fn from_folder(folder: impl AsRef<Path>) -> Result<StaticModel, EmbedError> {
        from_folder(folder.as_ref())
    }

    /// How many values an embedding of this model has.
    pub fn dimensions(&self) -> usize {
        self.rows.dimensions
    }

    /// How many entries the vocabulary has (one row of the table each).
    pub fn vocabulary_len(&self) -> usize {
        self.rows.count
    }

    /// The vocabulary ids of `text`, in order: the pieces [`embed`](Embedder::embed) sums, at most [`MAX_PIECES`].
    ///
    /// No `[CLS]` or `[SEP]` is added. A word that cannot be cut into known
    /// pieces appears as the unknown token's id.
    ///
    /// ```
    /// use tidemark_embed::StaticModel;
    ///
    /// let model = StaticModel::bundled();
    /// // "Héllo, wörld!" is cleaned to "hello , world !": 7592, 1010, 2088, 999 in BERT's vocabulary.
    /// assert_eq!(model.tokens("Héllo, wörld!"), [7592, 1010, 2088, 999]);
    /// ```
    pub fn tokens(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        self.tokenizer.tokenize(text, MAX_PIECES, &mut ids);
        ids
    }
}

impl Embedder for StaticModel {
    fn name(&self) -> &str {
        &self.name
    }

    fn embed(&self, text: &str) -> Option<Embedding> {
        let mut sum = vec![0.0f64; self.rows.dimensions];
        for id in self.tokens(text) {
            self.rows.add_to(id, &mut sum);
        }
        // Scale the sum so that its largest value is ±1 before narrowing it to f32: a sum of large
        // rows may not fit in an f32, and the embedding keeps only the direction anyway.
        let peak = sum.iter().fold(0.0f64, |peak, value| peak.max(value.abs()));
        if !(peak.is_finite() && peak > 0.0) {
            return None;
        }
        let values: Vec<f32> = sum.iter().map(|value| (value / peak) as f32).collect();
        Embedding::from_f32(&values)
    }

    /// The token ids of `text` ([`tokens`](StaticModel::tokens)): each a row of the table, so a piece's vector is its row.
    /// The same ids as [`tokens`](StaticModel::tokens); those of a text asked for lately are kept, not cut again.
    fn pieces(&self, text: &str) -> Vec<u32> {
        if text.len() > PIECES_SEEN_TEXT {
            return self.tokens(text);
        }
        if let Some(pieces) = self.seen.get(text) {
            return pieces.to_vec();
        }
        let pieces = self.tokens(text);
        self.seen.insert(text.into(), pieces.as_slice().into());
        pieces
    }

    /// The cosine of two rows, exact for an eight-bit table (an integer dot product).
    fn piece_similarity(&self, a: u32, b: u32) -> f64 {
        let squares = self.squares.get_or_init(|| self.rows.squares());
        self.rows.cosine(a, b, squares)
    }

    /// The same cosines as [`piece_similarity`](Embedder::piece_similarity), with the rows of `others` fetched together first.
    fn piece_similarities(&self, piece: u32, others: &[u32]) -> Vec<f64> {
        let squares = self.squares.get_or_init(|| self.rows.squares());
        self.rows.touch(others, squares);
        others.iter().map(|other| self.rows.cosine(piece, *other, squares)).collect()
    }
}

impl fmt::Debug for StaticModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticModel")
            .field("name", &self.name)
            .field("dimensions", &self.rows.dimensions)
            .field("vocabulary_len", &self.rows.count)
            .finish_non_exhaustive()
    }
}

/// The bundled tensors: `model/model.safetensors`.
pub(crate) const BUNDLED_TENSORS: &[u8] = include_bytes!("../model/model.safetensors");

/// The bundled vocabulary: `model/vocab.txt`.
pub(crate) const BUNDLED_VOCABULARY: &str = include_str!("../model/vocab.txt");

/// The model shipped with the crate, read from its bytes.
pub(crate) fn bundled_model() -> Result<StaticModel, EmbedError> {
    from_bytes(
        BUNDLED_TENSORS,
        Path::new("model/model.safetensors"),
        Tokenizer::VocabTxt(BUNDLED_VOCABULARY.as_bytes()),
        Path::new("model/vocab.txt"),
        BUNDLED_NAME.to_owned(),
    )
}

/// Which file the tokenizer comes from, and its bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Tokenizer<'a> {
    /// A BERT `vocab.txt`.
    VocabTxt(&'a [u8]),
    /// A Hugging Face `tokenizer.json`.
    TokenizerJson(&'a [u8]),
}

/// A model from the bytes of its files: what both [`StaticModel::bundled`] and [`StaticModel::from_folder`] use.
///
/// The paths only name the files in errors.
pub(crate) fn from_bytes(
    tensors: &[u8],
    tensors_path: &Path,
    tokenizer: Tokenizer<'_>,
    tokenizer_path: &Path,
    name: String,
) -> Result<StaticModel, EmbedError> {
    let rows = load::read_rows(tensors, tensors_path)?;
    let tokenizer = match tokenizer {
        Tokenizer::VocabTxt(bytes) => {
            let (tokenizer, entries) = load::read_vocab_txt(bytes, tokenizer_path)?;
            if entries != rows.count {
                return Err(EmbedError::Invalid {
                    path: tokenizer_path.to_owned(),
                    problem: Problem::VocabularySize { rows: rows.count, entries },
                });
            }
            tokenizer
        }
        Tokenizer::TokenizerJson(bytes) => load::read_tokenizer_json(bytes, tokenizer_path, rows.count)?,
    };
    Ok(StaticModel { name, tokenizer, rows, squares: OnceLock::new(), seen: pieces_seen() })
}

fn from_folder(folder: &Path) -> Result<StaticModel, EmbedError> {
    let read = |path: PathBuf| match std::fs::read(&path) {
        Ok(bytes) => Ok(Some((bytes, path))),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(EmbedError::Read { path, source }),
    };
    let (tokenizer_bytes, tokenizer_path, json) = match read(folder.join("tokenizer.json"))? {
        Some((bytes, path)) => (bytes, path, true),
        None => match read(folder.join("vocab.txt"))? {
            Some((bytes, path)) => (bytes, path, false),
            None => return Err(EmbedError::NoTokenizer { folder: folder.to_owned() }),
        },
    };
    let tensors_path = folder.join("model.safetensors");
    let tensors = std::fs::read(&tensors_path)
        .map_err(|source| EmbedError::Read { path: tensors_path.clone(), source })?;
    let tokenizer =
        if json { Tokenizer::TokenizerJson(&tokenizer_bytes) } else { Tokenizer::VocabTxt(&tokenizer_bytes) };
    let name = folder_name(&tensors, &tokenizer_bytes);
    from_bytes(&tensors, &tensors_path, tokenizer, &tokenizer_path, name)
}

/// `folder:` and a 64-bit FNV-1a hash of the tensor file and then the tokenizer file, in hex.
///
/// Each file's length goes into the hash before its bytes, so that moving
/// bytes from the end of one file to the start of the other changes the name.
pub(crate) fn folder_name(tensors: &[u8], tokenizer: &[u8]) -> String {
    let mut hash = Fnv::new();
    for bytes in [tensors, tokenizer] {
        hash.write(&(bytes.len() as u64).to_le_bytes());
        hash.write(bytes);
    }
    format!("folder:{:016x}", hash.finish())
}

//! A small static embedding model in pure Rust, for tidemark's recall by meaning.
//!
//! [`StaticModel`] implements [`tidemark_core::recall::Embedder`]: it cuts a
//! text into BERT's WordPiece pieces, looks up one vector per piece and adds
//! them up. The sum's direction is the text's [`Embedding`]. There is no
//! neural network to run, so an embedding takes microseconds and no GPU,
//! network or runtime download.
//!
//! The crate ships one model, [`StaticModel::bundled`]: 30,522 pieces
//! (BERT's uncased vocabulary) of 128 dimensions each, stored as 8-bit
//! integers with a scale per row (3.9 MB, compiled into the binary). It was
//! distilled from the sentence encoder all-MiniLM-L6-v2: each vocabulary
//! entry was run through the encoder alone, the outputs were projected on
//! their 128 principal components, and each row was weighed down the more
//! common its piece is. `model/README.md` says how to rebuild it. Being
//! static, it sees words, not word order or context: it finds "where do our
//! servers live?" for "we host everything in Frankfurt" less surely than the
//! transformer would, and it knows only English well.
//!
//! [`StaticModel::from_folder`] loads another model of the same kind: this
//! crate's format, or a model2vec-style folder (float embeddings and a
//! WordPiece `tokenizer.json`).
//!
//! ```
//! use tidemark_core::recall::Embedder;
//! use tidemark_embed::StaticModel;
//!
//! let model = StaticModel::bundled();
//! assert_eq!(model.name(), "tidemark-minilm-static-128@1");
//! assert_eq!(model.dimensions(), 128);
//!
//! let fact = model.embed("The deploy failed because the database password expired.").expect("known words");
//! let question = model.embed("Why did the release break?").expect("known words");
//! let unrelated = model.embed("My favourite fruit is a ripe mango.").expect("known words");
//! assert!(fact.similarity(&question) > fact.similarity(&unrelated));
//! ```
//!
//! The tokenizer gives the ids Hugging Face's BERT tokenizer gives (a test
//! compares them on a few hundred texts); see [`StaticModel::tokens`].
//! Only the first [`MAX_PIECES`] pieces of a text count.

mod error;
mod load;
mod model;
mod tokenizer;

pub use error::{EmbedError, Problem};
pub use model::{BUNDLED_NAME, MAX_PIECES, StaticModel};
#[doc(no_inline)]
pub use tidemark_core::recall::{Embedder, Embedding};

#[cfg(test)]
mod tests;

/// The crate's README, whose example runs as a doctest so that it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

//! Embedders for tests: deterministic, tiny, and easy to reason about, so that recall by meaning can be checked without a real model.

use tidemark_core::recall::{Embedder, Embedding, terms};

/// Each search term of a text points along one of a few axes, chosen by a hash of the term; a text's embedding is the sum.
///
/// Two texts sharing terms point alike, and terms listed as synonyms in
/// [`with_synonyms`](HashedTerms::with_synonyms) share their axis, so a test
/// can write a "paraphrase" the keyword ranking cannot find and this
/// embedder can. It is a pure function of the text, as [`Embedder`] requires.
///
/// ```
/// use tidemark_core::recall::Embedder;
/// use tidemark_testkit::embedders::HashedTerms;
///
/// let embedder = HashedTerms::new(64).with_synonyms(&[("servers", "frankfurt")]);
/// let fact = embedder.embed("frankfurt").expect("has a term");
/// let question = embedder.embed("servers?").expect("has a term");
/// assert!(fact.similarity(&question) > 0.99);
/// assert!(embedder.embed("?!").is_none());
/// // Its pieces are terms, and a synonym is its word's piece.
/// assert_eq!(embedder.pieces("frankfurt"), embedder.pieces("servers"));
/// assert_eq!(embedder.piece_similarity(embedder.pieces("servers")[0], embedder.pieces("servers")[0]), 1.0);
/// ```
#[derive(Clone, Debug)]
pub struct HashedTerms {
    dimensions: usize,
    synonyms: Vec<(String, String)>,
    name: String,
}

impl HashedTerms {
    /// An embedder with `dimensions` axes (at least 2, at most 4,096).
    pub fn new(dimensions: usize) -> Self {
        let dimensions = dimensions.clamp(2, tidemark_core::recall::MAX_DIMENSIONS);
        Self { dimensions, synonyms: Vec::new(), name: format!("testkit-hashed-terms-{dimensions}") }
    }

    /// The same embedder, where each pair's second term points along its first term's axis.
    pub fn with_synonyms(mut self, pairs: &[(&str, &str)]) -> Self {
        for (word, synonym) in pairs {
            self.synonyms.push((synonym.to_lowercase(), word.to_lowercase()));
            self.name.push_str(&format!("+{word}={synonym}"));
        }
        self
    }

    /// A term's hash, after its synonym is replaced by the word it stands for.
    fn hash(&self, term: &str) -> u64 {
        let term = self.synonyms.iter().find(|(synonym, _)| synonym == term).map_or(term, |(_, word)| word);
        // FNV-1a: stable across processes and platforms, unlike the standard library's hasher.
        term.bytes().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    }

    fn axis(&self, term: &str) -> (usize, f32) {
        let hash = self.hash(term);
        let axis = (hash % self.dimensions as u64) as usize;
        let sign = if hash >> 63 == 0 { 1.0 } else { -1.0 };
        (axis, sign)
    }
}

impl Embedder for HashedTerms {
    fn name(&self) -> &str {
        &self.name
    }

    fn embed(&self, text: &str) -> Option<Embedding> {
        let mut values = vec![0.0f32; self.dimensions];
        for term in terms(text) {
            let (axis, sign) = self.axis(&term);
            values[axis] += sign;
        }
        Embedding::from_f32(&values)
    }

    /// Each term is a piece, known by its hash: a synonym is the same piece as its word.
    fn pieces(&self, text: &str) -> Vec<u32> {
        terms(text).iter().map(|term| (self.hash(term) >> 32) as u32).collect()
    }

    /// 1 for the same piece, 0 otherwise: only a term or its synonym is alike.
    fn piece_similarity(&self, a: u32, b: u32) -> f64 {
        if a == b { 1.0 } else { 0.0 }
    }
}

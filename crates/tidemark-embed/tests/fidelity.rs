//! The bundled model against the reference, on fixtures written by the Python scripts in `tests/data`.
//!
//! `wordpiece.jsonl` holds the ids Hugging Face's BERT tokenizer gives for a
//! few hundred texts; `reference.jsonl` the embeddings NumPy computes for some
//! of them from the same tensor file. Both are checked in, so these tests need
//! no Python.

use serde::Deserialize;
use tidemark_embed::{Embedder, StaticModel};

#[derive(Deserialize)]
struct Tokenized {
    text: String,
    ids: Vec<u32>,
}

#[derive(Deserialize)]
struct Embedded {
    text: String,
    /// The embedding's values, or `None` when the text has no embedding.
    values: Option<Vec<i8>>,
}

fn lines<T: for<'de> Deserialize<'de>>(fixture: &str) -> Vec<T> {
    fixture.lines().map(|line| serde_json::from_str(line).expect("a fixture line")).collect()
}

#[test]
fn tokens_match_the_reference_tokenizer() {
    let model = StaticModel::bundled();
    let cases: Vec<Tokenized> = lines(include_str!("data/wordpiece.jsonl"));
    assert!(cases.len() >= 300, "{} cases", cases.len());
    let differ: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let ids = model.tokens(&case.text);
            (ids != case.ids).then(|| format!("{:?}: expected {:?}, got {:?}", case.text, case.ids, ids))
        })
        .collect();
    assert!(differ.is_empty(), "{} of {} differ:\n{}", differ.len(), cases.len(), differ.join("\n"));
}

#[test]
fn embeddings_match_the_reference_computation() {
    let model = StaticModel::bundled();
    let cases: Vec<Embedded> = lines(include_str!("data/reference.jsonl"));
    assert!(cases.len() >= 50, "{} cases", cases.len());
    let mut embedded = 0;
    for case in &cases {
        let got: Option<Vec<i8>> = model.embed(&case.text).map(|embedding| embedding.values().collect());
        assert_eq!(got, case.values, "{:?}", case.text);
        embedded += usize::from(got.is_some());
    }
    assert!(embedded >= 45, "only {embedded} texts have an embedding");
}

//! Properties of the bundled model on any text: no panic, a pure function, bounded work, sane similarities.

use proptest::prelude::*;
use tidemark_embed::{Embedder, MAX_PIECES, StaticModel};

/// Characters that stress the tokenizer: controls, whitespace of all kinds, lone and stacked
/// combining marks, punctuation, CJK, emoji and its joiners, private use, and plain letters.
fn awkward_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::char::range('a', 'z'),
        1 => prop::char::range('A', 'Z'),
        1 => prop::char::range('\u{0}', '\u{1F}'),
        1 => prop::sample::select(vec![' ', '\t', '\n', '\r', '\u{85}', '\u{A0}', '\u{2028}', '\u{3000}', '\u{180E}']),
        2 => prop::char::range('\u{300}', '\u{36F}'),
        1 => prop::sample::select(vec!['\u{200B}', '\u{200D}', '\u{FEFF}', '\u{FFFD}', '\u{E000}', '\u{10FFFF}', '\u{E0041}']),
        2 => prop::sample::select(vec!['.', ',', '!', '#', '[', ']', '-', '\u{2014}', '\u{3002}', '\u{FF01}', '\u{AB}']),
        1 => prop::char::range('\u{4E00}', '\u{4E20}'),
        1 => prop::char::range('\u{1F600}', '\u{1F64F}'),
        1 => prop::sample::select(vec!['é', 'ß', 'İ', 'Σ', 'ﬁ', 'Å', 'ǅ', '\u{903}', '\u{1D165}']),
        1 => any::<char>(),
    ]
}

fn awkward_text() -> impl Strategy<Value = String> {
    prop::collection::vec(awkward_char(), 0..300).prop_map(|chars| chars.into_iter().collect())
}

/// A short piece repeated up to tens of thousands of times: long texts, and single words far past 100 characters.
fn long_text() -> impl Strategy<Value = String> {
    (awkward_text(), 1usize..40_000)
        .prop_map(|(piece, times)| piece.repeat(times.min(400_000 / piece.len().max(1))))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_embeds_without_panic_and_the_same_way_twice(text in prop_oneof![any::<String>(), awkward_text()]) {
        let model = StaticModel::bundled();
        let first = model.embed(&text);
        // Equal embeddings have equal bytes: the bytes are what a store keeps.
        prop_assert_eq!(&first, &model.embed(&text));
        if let Some(embedding) = first {
            prop_assert_eq!(embedding.dimensions(), model.dimensions());
        }
        let tokens = model.tokens(&text);
        prop_assert!(tokens.len() <= MAX_PIECES);
        prop_assert!(tokens.iter().all(|id| (*id as usize) < model.vocabulary_len()));
        prop_assert_eq!(tokens, model.tokens(&text));
    }

    #[test]
    fn similarities_are_numbers_between_minus_one_and_one(a in awkward_text(), b in awkward_text()) {
        let model = StaticModel::bundled();
        if let (Some(a), Some(b)) = (model.embed(&a), model.embed(&b)) {
            let similarity = a.similarity(&b);
            prop_assert!((-1.0..=1.0).contains(&similarity), "{}", similarity);
            prop_assert!((a.similarity(&a) - 1.0).abs() < 1e-9);
        }
    }

    /// Pieces compare as cosines: symmetric, within -1 and 1, 1 with themselves, 0 for ids past the table.
    #[test]
    fn piece_similarities_are_cosines(a in awkward_text(), b in awkward_text(), stray in any::<u32>()) {
        let model = StaticModel::bundled();
        let (left, right) = (model.pieces(&a), model.pieces(&b));
        prop_assert_eq!(&left, &model.tokens(&a));
        for x in left.iter().take(16) {
            prop_assert!((model.piece_similarity(*x, *x) - 1.0).abs() < 1e-9 || model.piece_similarity(*x, *x) == 0.0);
            for y in right.iter().take(16) {
                let similarity = model.piece_similarity(*x, *y);
                prop_assert!((-1.0..=1.0).contains(&similarity), "{}", similarity);
                prop_assert_eq!(similarity.to_bits(), model.piece_similarity(*y, *x).to_bits());
            }
        }
        if stray as usize >= model.vocabulary_len() {
            prop_assert_eq!(model.piece_similarity(stray, 1996), 0.0);
        }
    }

    /// Tokenizing keeps one word at a time and stops at the cap, so texts of any length are safe.
    #[test]
    fn long_texts_embed_within_the_cap(text in long_text()) {
        let model = StaticModel::bundled();
        prop_assert!(model.tokens(&text).len() <= MAX_PIECES);
        let _ = model.embed(&text);
    }
}

#[test]
fn texts_with_nothing_known_have_no_embedding() {
    let model = StaticModel::bundled();
    for text in
        ["", " \n\t ", "\u{1F600}\u{1F601}", "[CLS] [SEP] [PAD]", "\u{200B}\u{FEFF}", &"x".repeat(101)]
    {
        assert_eq!(model.embed(text), None, "{text:?}");
    }
}

#[test]
fn only_the_first_pieces_count() {
    let model = StaticModel::bundled();
    let head = "the quick brown fox jumps over the lazy dog ".repeat(MAX_PIECES / 9 + 1);
    let tail = "completely different words about databases and servers";
    assert!(model.tokens(&head).len() == MAX_PIECES);
    assert_eq!(model.embed(&head), model.embed(&format!("{head} {tail}")));
    // Ten million characters without a single space: one unknown word, read once.
    assert_eq!(model.tokens(&"a".repeat(10_000_000)), [100]);
}

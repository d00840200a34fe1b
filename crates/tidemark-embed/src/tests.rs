//! Unit tests of the model: loading the bundled and corrupted model files, embedding, naming.

use std::path::Path;

use proptest::prelude::*;
use tidemark_core::recall::Embedder;

use crate::error::{EmbedError, Problem};
use crate::load::f16_to_f32;
use crate::model::{BUNDLED_TENSORS, BUNDLED_VOCABULARY, Tokenizer, bundled_model, folder_name, from_bytes};
use crate::{BUNDLED_NAME, StaticModel};

fn load(tensors: &[u8], vocabulary: &[u8]) -> Result<StaticModel, EmbedError> {
    from_bytes(
        tensors,
        Path::new("model.safetensors"),
        Tokenizer::VocabTxt(vocabulary),
        Path::new("vocab.txt"),
        "test".to_owned(),
    )
}

#[test]
fn bundled_model_loads() {
    let model = bundled_model().expect("the bundled files are well-formed");
    assert_eq!(model.name(), BUNDLED_NAME);
    assert_eq!((model.vocabulary_len(), model.dimensions()), (30_522, 128));
    assert!(model.embed("hello world").is_some());
}

#[test]
fn half_floats_convert_exactly() {
    let cases: [(u16, f32); 9] = [
        (0x0000, 0.0),
        (0x3C00, 1.0),
        (0xC000, -2.0),
        (0x3555, 0.333_251_95),
        (0x7BFF, 65_504.0),
        (0x0001, 5.960_464_5e-8),
        (0x03FF, 6.097_555e-5),
        (0x0400, 6.103_515_6e-5),
        (0xFC00, f32::NEG_INFINITY),
    ];
    for (bits, value) in cases {
        assert_eq!(f16_to_f32(bits), value, "{bits:#06x}");
    }
    assert!(f16_to_f32(0x7E00).is_nan());
    assert!(f16_to_f32(0x8000).is_sign_negative());
}

#[test]
fn folder_names_follow_the_bytes() {
    assert_eq!(folder_name(b"ab", b"c"), folder_name(b"ab", b"c"));
    assert_ne!(folder_name(b"ab", b"c"), folder_name(b"a", b"bc"));
    assert_ne!(folder_name(b"ab", b"c"), folder_name(b"ab", b"d"));
    assert!(folder_name(b"", b"").starts_with("folder:") && folder_name(b"", b"").len() == 23);
}

#[test]
fn a_vocabulary_of_another_size_is_refused() {
    let short = BUNDLED_VOCABULARY.lines().skip(1).collect::<Vec<_>>().join("\n");
    let error = load(BUNDLED_TENSORS, short.as_bytes()).expect_err("one entry short");
    assert!(matches!(
        error,
        EmbedError::Invalid { problem: Problem::VocabularySize { rows: 30_522, entries: 30_521 }, .. }
    ));
    assert!(matches!(
        load(BUNDLED_TENSORS, b""),
        Err(EmbedError::Invalid { problem: Problem::EmptyVocabulary, .. })
    ));
    assert!(matches!(
        load(BUNDLED_TENSORS, b"\xFF\n"),
        Err(EmbedError::Invalid { problem: Problem::NotUtf8 { at: 0 }, .. })
    ));
}

/// The length of the bundled file's header, with its 8-byte length prefix.
fn header_len() -> usize {
    let mut prefix = [0u8; 8];
    prefix.copy_from_slice(&BUNDLED_TENSORS[..8]);
    8 + usize::try_from(u64::from_le_bytes(prefix)).expect("small")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Cutting the tensor file short anywhere gives an error, not a panic.
    #[test]
    fn truncated_tensors_are_refused(cut in 0usize..4_029_264) {
        prop_assert!(load(&BUNDLED_TENSORS[..cut], BUNDLED_VOCABULARY.as_bytes()).is_err());
    }

    /// Changing bytes of the header (where the types, shapes and offsets are) gives an error or a model, never a panic.
    #[test]
    fn corrupted_headers_never_panic(changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut bytes = BUNDLED_TENSORS.to_vec();
        let header = header_len();
        for (at, byte) in changes {
            bytes[at.index(header)] = byte;
        }
        if let Ok(model) = load(&bytes, BUNDLED_VOCABULARY.as_bytes()) {
            let _ = model.embed("the header changed but still reads");
        }
    }

    /// Changing the bytes of the data, including the scales, never panics, and a model that loads still embeds.
    #[test]
    fn corrupted_data_never_panics(changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..64)) {
        let mut bytes = BUNDLED_TENSORS.to_vec();
        let header = header_len();
        let data = bytes.len() - header;
        for (at, byte) in changes {
            bytes[header + at.index(data)] = byte;
        }
        if let Ok(model) = load(&bytes, BUNDLED_VOCABULARY.as_bytes()) {
            let _ = model.embed("the data changed but still reads");
        }
    }

    /// Arbitrary bytes as either file are refused without a panic.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        prop_assert!(load(&bytes, BUNDLED_VOCABULARY.as_bytes()).is_err());
        let _ = load(BUNDLED_TENSORS, &bytes);
        let _ = from_bytes(
            BUNDLED_TENSORS,
            Path::new("model.safetensors"),
            Tokenizer::TokenizerJson(&bytes),
            Path::new("tokenizer.json"),
            "test".to_owned(),
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The pieces of a text are its tokens, whether they were cut now or kept from an earlier ask,
    /// and a kept text never answers for another.
    #[test]
    fn kept_pieces_are_the_tokens(
        texts in prop::collection::vec(
            prop_oneof![
                4 => "[a-zA-Z0-9 .,'éü-]{0,60}",
                1 => "[a-z ]{1,8}".prop_map(|word| word.repeat(400)),
            ],
            1..12,
        ),
        rounds in 1usize..4,
    ) {
        let model = StaticModel::bundled();
        for _ in 0..rounds {
            for text in &texts {
                prop_assert_eq!(model.pieces(text), model.tokens(text), "{:?}", text);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Asked together, the pieces' likenesses are the ones asked one by one, ids past the vocabulary included.
    #[test]
    fn likenesses_together_are_likenesses_one_by_one(
        piece in prop_oneof![0u32..30_522, Just(u32::MAX)],
        others in prop::collection::vec(prop_oneof![8 => 0u32..30_522, 1 => 30_522u32..=u32::MAX], 0..64),
    ) {
        let model = StaticModel::bundled();
        let together = model.piece_similarities(piece, &others);
        let one_by_one: Vec<f64> = others.iter().map(|other| model.piece_similarity(piece, *other)).collect();
        prop_assert_eq!(
            together.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            one_by_one.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
    }
}

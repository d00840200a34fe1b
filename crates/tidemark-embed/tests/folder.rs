//! `StaticModel::from_folder`: this crate's format, model2vec-style folders, and every way a folder can be wrong.

use std::path::Path;

use proptest::prelude::*;
use tidemark_embed::{EmbedError, Embedder, Embedding, Problem, StaticModel};

const TENSORS: &[u8] = include_bytes!("../model/model.safetensors");
const VOCABULARY: &str = include_str!("../model/vocab.txt");

/// A safetensors file holding `tensors` (name, element type, shape, little-endian bytes), written by hand.
fn safetensors(tensors: &[(&str, &str, &[usize], Vec<u8>)]) -> Vec<u8> {
    let mut header = serde_json::Map::new();
    let mut data = Vec::new();
    for (name, dtype, shape, bytes) in tensors {
        let offsets = [data.len(), data.len() + bytes.len()];
        header.insert(
            (*name).to_owned(),
            serde_json::json!({"dtype": dtype, "shape": shape, "data_offsets": offsets}),
        );
        data.extend_from_slice(bytes);
    }
    let header = serde_json::Value::Object(header).to_string();
    let mut file = (header.len() as u64).to_le_bytes().to_vec();
    file.extend_from_slice(header.as_bytes());
    file.extend_from_slice(&data);
    file
}

/// A folder holding `files` (name and bytes).
fn folder(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).expect("written");
    }
    dir
}

fn load(files: &[(&str, &[u8])]) -> Result<StaticModel, EmbedError> {
    StaticModel::from_folder(folder(files).path())
}

fn problem(result: Result<StaticModel, EmbedError>) -> Problem {
    match result {
        Err(EmbedError::Invalid { problem, .. }) => problem,
        other => panic!("expected an invalid file, got {other:?}"),
    }
}

fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|value| value.to_le_bytes()).collect()
}

#[test]
fn the_bundled_files_load_from_a_folder_and_embed_alike() {
    let model = load(&[("model.safetensors", TENSORS), ("vocab.txt", VOCABULARY.as_bytes())]).expect("loads");
    let bundled = StaticModel::bundled();
    assert_eq!((model.dimensions(), model.vocabulary_len()), (128, 30_522));
    for text in ["where do our servers live?", "Ça coûte 12,50 €", "fn main() {}"] {
        assert_eq!(model.embed(text), bundled.embed(text));
    }
    // The name is the files' hash: stable, and different as soon as a byte is.
    let name = model.name().to_owned();
    assert!(name.starts_with("folder:") && name.len() == 23, "{name}");
    let again = load(&[("model.safetensors", TENSORS), ("vocab.txt", VOCABULARY.as_bytes())]).expect("loads");
    assert_eq!(again.name(), name);
    let edited = VOCABULARY.replacen("[unused0]", "[unused9]", 1);
    let edited = load(&[("model.safetensors", TENSORS), ("vocab.txt", edited.as_bytes())]).expect("loads");
    assert_ne!(edited.name(), name);
}

#[test]
fn missing_files_are_named() {
    assert!(matches!(load(&[("model.safetensors", TENSORS)]), Err(EmbedError::NoTokenizer { .. })));
    match load(&[("vocab.txt", VOCABULARY.as_bytes())]) {
        Err(EmbedError::Read { path, .. }) => assert!(path.ends_with("model.safetensors")),
        other => panic!("expected a read error, got {other:?}"),
    }
    let error = StaticModel::from_folder(Path::new("/no/such/folder")).expect_err("nothing there");
    assert!(error.to_string().contains("/no/such/folder"), "{error}");
}

/// A vocabulary of `rows` entries: the four special tokens BERT needs, then `w0`, `w1`, …
fn vocab_txt(rows: usize) -> String {
    let mut lines = vec!["[PAD]".to_owned(), "[UNK]".to_owned(), "[CLS]".to_owned(), "[SEP]".to_owned()];
    lines.extend((4..rows).map(|index| format!("w{index}")));
    lines.join("\n") + "\n"
}

#[test]
fn tensors_that_do_not_fit_are_refused() {
    let vocabulary = vocab_txt(6);
    let check = |tensors: Vec<u8>, expected: Problem| {
        assert_eq!(
            problem(load(&[("model.safetensors", &tensors), ("vocab.txt", vocabulary.as_bytes())])),
            expected
        );
    };
    let ones = |count: usize| vec![1u8; count];
    let scales = |count: usize| f32s(&vec![0.5; count]);
    check(
        safetensors(&[("embeddings", "I8", &[5, 2], ones(10)), ("scales", "F32", &[5], scales(5))]),
        Problem::VocabularySize { rows: 5, entries: 6 },
    );
    check(safetensors(&[("embeddings", "I8", &[6, 2], ones(12))]), Problem::MissingTensor { name: "scales" });
    check(safetensors(&[("scales", "F32", &[6], scales(6))]), Problem::MissingTensor { name: "embeddings" });
    check(
        safetensors(&[("embeddings", "I8", &[6, 2], ones(12)), ("scales", "F32", &[5], scales(5))]),
        Problem::WrongShape { name: "scales", found: vec![5], expected: "[6], one per row".to_owned() },
    );
    check(
        safetensors(&[("embeddings", "I8", &[12], ones(12)), ("scales", "F32", &[6], scales(6))]),
        Problem::WrongShape {
            name: "embeddings",
            found: vec![12],
            expected: "[rows, dimensions] with at least one row".to_owned(),
        },
    );
    check(
        safetensors(&[("embeddings", "I8", &[6, 0], vec![]), ("scales", "F32", &[6], scales(6))]),
        Problem::Dimensions { found: 0, max: 4096 },
    );
    check(
        safetensors(&[("embeddings", "I8", &[6, 4097], ones(6 * 4097)), ("scales", "F32", &[6], scales(6))]),
        Problem::Dimensions { found: 4097, max: 4096 },
    );
    check(
        safetensors(&[("embeddings", "I16", &[6, 2], ones(24))]),
        Problem::WrongType { name: "embeddings", found: "I16".to_owned(), expected: "I8, F32, F16 or BF16" },
    );
    check(
        safetensors(&[("embeddings", "I8", &[6, 2], ones(12)), ("scales", "F16", &[6], ones(12))]),
        Problem::WrongType { name: "scales", found: "F16".to_owned(), expected: "F32" },
    );
    let mut values = vec![0.25f32; 12];
    values[7] = f32::NAN;
    check(
        safetensors(&[("embeddings", "F32", &[6, 2], f32s(&values))]),
        Problem::NotFinite { name: "embeddings", row: 3 },
    );
    let mut bad_scales = vec![0.5f32; 6];
    bad_scales[4] = f32::INFINITY;
    check(
        safetensors(&[("embeddings", "I8", &[6, 2], ones(12)), ("scales", "F32", &[6], f32s(&bad_scales))]),
        Problem::NotFinite { name: "scales", row: 4 },
    );
    // Finite rows whose scaled values overflow are refused too.
    check(
        safetensors(&[
            ("embeddings", "F32", &[6, 2], f32s(&[3e38; 12])),
            ("scales", "F32", &[6], f32s(&[10.0; 6])),
        ]),
        Problem::NotFinite { name: "embeddings", row: 0 },
    );
    check(
        safetensors(&[("embeddings", "F32", &[6, 2], f32s(&[0.5; 12])), ("mapping", "I32", &[6], ones(24))]),
        Problem::UnexpectedTensor { name: "mapping".to_owned() },
    );
}

#[test]
fn the_bundled_rows_with_a_nan_are_refused() {
    // Rows are integers here, so a NaN can only come through a scale: the scale of row 2000.
    let header =
        8 + usize::try_from(u64::from_le_bytes(TENSORS[..8].try_into().expect("8 bytes"))).expect("small");
    let text = std::str::from_utf8(&TENSORS[8..header]).expect("a JSON header");
    let info: serde_json::Value = serde_json::from_str(text).expect("JSON");
    let start = info["scales"]["data_offsets"][0].as_u64().expect("an offset") as usize;
    let mut bytes = TENSORS.to_vec();
    bytes[header + start + 4 * 2000..][..4].copy_from_slice(&f32::NAN.to_le_bytes());
    let found = problem(load(&[("model.safetensors", &bytes), ("vocab.txt", VOCABULARY.as_bytes())]));
    assert_eq!(found, Problem::NotFinite { name: "scales", row: 2000 });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A tensor file cut short anywhere is refused, not a panic.
    #[test]
    fn truncated_files_are_refused(cut in 0usize..4_029_264) {
        let result = load(&[("model.safetensors", &TENSORS[..cut]), ("vocab.txt", VOCABULARY.as_bytes())]);
        prop_assert!(result.is_err());
    }

    /// Flipped bytes anywhere in the tensor file, or in the vocabulary, give a model or an error, never a panic.
    #[test]
    fn flipped_bytes_never_panic(
        tensor_flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..16),
        header_flips in prop::collection::vec((0usize..200, any::<u8>()), 0..4),
        vocabulary_flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
    ) {
        let mut tensors = TENSORS.to_vec();
        let len = tensors.len();
        for (at, flip) in tensor_flips {
            tensors[at.index(len)] ^= flip;
        }
        for (at, flip) in header_flips {
            tensors[at] ^= flip;
        }
        let mut vocabulary = VOCABULARY.as_bytes().to_vec();
        let len = vocabulary.len();
        for (at, flip) in vocabulary_flips {
            vocabulary[at.index(len)] ^= flip;
        }
        if let Ok(model) = load(&[("model.safetensors", &tensors), ("vocab.txt", &vocabulary)]) {
            let _ = model.embed("still a model");
        }
    }
}

/// A model2vec-style `tokenizer.json` over `vocab` (piece → id), with the given normalizer and pre-tokenizer.
fn tokenizer_json(
    vocab: &[(&str, u32)],
    normalizer: serde_json::Value,
    pre_tokenizer: serde_json::Value,
) -> Vec<u8> {
    let vocab: serde_json::Map<String, serde_json::Value> =
        vocab.iter().map(|(piece, id)| ((*piece).to_owned(), (*id).into())).collect();
    serde_json::json!({
        "version": "1.0",
        "added_tokens": [
            {"id": 0, "content": "[PAD]", "special": true, "normalized": false},
            {"id": 1, "content": "[UNK]", "special": true, "normalized": false},
        ],
        "normalizer": normalizer,
        "pre_tokenizer": pre_tokenizer,
        "model": {
            "type": "WordPiece",
            "unk_token": "[UNK]",
            "continuing_subword_prefix": "##",
            "max_input_chars_per_word": 100,
            "vocab": vocab,
        },
    })
    .to_string()
    .into_bytes()
}

const TINY_VOCABULARY: [(&str, u32); 6] =
    [("[PAD]", 0), ("[UNK]", 1), ("hello", 2), ("world", 3), ("##s", 4), ("Hello", 5)];

/// Rows of the tiny model: every value a small binary fraction, so that F32, F16 and BF16 hold it exactly.
const TINY_ROWS: [[f32; 3]; 6] = [
    [0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
    [1.0, 0.5, 0.0],
    [0.0, -0.25, 2.0],
    [0.125, 0.0, 0.0],
    [-1.0, 0.0, 0.0],
];

fn bert_normalizer(lowercase: bool) -> serde_json::Value {
    serde_json::json!({"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": null, "lowercase": lowercase})
}

fn tiny_folder(dtype: &str, tokenizer: &[u8]) -> Result<StaticModel, EmbedError> {
    let values: Vec<f32> = TINY_ROWS.iter().flatten().copied().collect();
    let bytes: Vec<u8> = match dtype {
        "F32" => f32s(&values),
        "F16" => values.iter().flat_map(|value| f16_bits(*value).to_le_bytes()).collect(),
        _ => values.iter().flat_map(|value| ((value.to_bits() >> 16) as u16).to_le_bytes()).collect(),
    };
    let tensors = safetensors(&[("embeddings", dtype, &[6, 3], bytes)]);
    load(&[("model.safetensors", &tensors), ("tokenizer.json", tokenizer)])
}

/// The half-precision bits of the few values the tiny model uses.
fn f16_bits(value: f32) -> u16 {
    match value {
        0.0 => 0x0000,
        0.125 => 0x3000,
        0.5 => 0x3800,
        -0.25 => 0xB400,
        1.0 => 0x3C00,
        -1.0 => 0xBC00,
        2.0 => 0x4000,
        other => panic!("no half-precision bits written for {other}"),
    }
}

/// The embedding of the sum of the tiny model's rows `ids`.
fn expected(ids: &[usize]) -> Option<Embedding> {
    let mut sum = [0.0f32; 3];
    for id in ids {
        for (total, value) in sum.iter_mut().zip(TINY_ROWS[*id]) {
            *total += value;
        }
    }
    Embedding::from_f32(&sum)
}

#[test]
fn a_model2vec_folder_loads_in_every_float_type() {
    let tokenizer = tokenizer_json(
        &TINY_VOCABULARY,
        bert_normalizer(true),
        serde_json::json!({"type": "BertPreTokenizer"}),
    );
    for dtype in ["F32", "F16", "BF16"] {
        let model = tiny_folder(dtype, &tokenizer).expect(dtype);
        assert_eq!((model.dimensions(), model.vocabulary_len()), (3, 6));
        assert_eq!(model.tokens("Hello, worlds! [PAD]"), [2, 1, 3, 4, 1, 0], "{dtype}");
        assert_eq!(model.embed("Hello worlds"), expected(&[2, 3, 4]), "{dtype}");
        assert_eq!(model.embed("HELLO hello"), expected(&[2, 2]), "{dtype}");
        assert_eq!(model.embed("nothing known"), None, "{dtype}");
        assert!(model.name().starts_with("folder:"));
    }
}

#[test]
fn the_normalizer_settings_are_read() {
    let cased = tokenizer_json(
        &TINY_VOCABULARY,
        bert_normalizer(false),
        serde_json::json!({"type": "BertPreTokenizer"}),
    );
    let model = tiny_folder("F32", &cased).expect("loads");
    assert_eq!(model.tokens("Hello hello HELLO"), [5, 2, 1]);
    assert_eq!(model.embed("Hello"), expected(&[5]));
    // No normalizer at all counts as BERT's uncased one.
    let bare = tokenizer_json(
        &TINY_VOCABULARY,
        serde_json::Value::Null,
        serde_json::json!({"type": "BertPreTokenizer"}),
    );
    assert_eq!(tiny_folder("F32", &bare).expect("loads").tokens("HELLO"), [2]);
}

#[test]
fn the_word_length_bound_is_read() {
    let tokenizer = tokenizer_json(
        &TINY_VOCABULARY,
        bert_normalizer(true),
        serde_json::json!({"type": "BertPreTokenizer"}),
    );
    let mut tokenizer: serde_json::Value = serde_json::from_slice(&tokenizer).expect("JSON");
    tokenizer["model"]["max_input_chars_per_word"] = 5.into();
    let model = tiny_folder("F32", tokenizer.to_string().as_bytes()).expect("loads");
    assert_eq!(model.tokens("hello worlds"), [2, 1]);
}

#[test]
fn other_tokenizers_are_refused() {
    let bert = serde_json::json!({"type": "BertPreTokenizer"});
    let unsupported = |tokenizer: Vec<u8>| match tiny_folder("F32", &tokenizer) {
        Err(EmbedError::UnsupportedTokenizer { part, found, .. }) => (part, found),
        other => panic!("expected an unsupported tokenizer, got {other:?}"),
    };
    let mut bpe: serde_json::Value =
        serde_json::from_slice(&tokenizer_json(&TINY_VOCABULARY, bert_normalizer(true), bert.clone()))
            .expect("JSON");
    bpe["model"]["type"] = "BPE".into();
    assert_eq!(unsupported(bpe.to_string().into_bytes()), ("model", "\"BPE\"".to_owned()));
    let lowercase = serde_json::json!({"type": "Lowercase"});
    assert_eq!(
        unsupported(tokenizer_json(&TINY_VOCABULARY, lowercase, bert.clone())),
        ("normalizer", "\"Lowercase\"".to_owned())
    );
    let whitespace = serde_json::json!({"type": "Whitespace"});
    assert_eq!(
        unsupported(tokenizer_json(&TINY_VOCABULARY, bert_normalizer(true), whitespace)),
        ("pre_tokenizer", "\"Whitespace\"".to_owned())
    );
    assert_eq!(
        unsupported(tokenizer_json(&TINY_VOCABULARY, bert_normalizer(true), serde_json::Value::Null)),
        ("pre_tokenizer", "none".to_owned())
    );
    assert!(matches!(tiny_folder("F32", b"{not json"), Err(EmbedError::Json { .. })));
    assert!(matches!(
        tiny_folder("F32", b"{\"model\": {\"type\": \"WordPiece\"}}"),
        Err(EmbedError::Json { .. })
    ));
}

#[test]
fn vocabularies_that_do_not_fit_the_rows_are_refused() {
    let bert = serde_json::json!({"type": "BertPreTokenizer"});
    let short = tokenizer_json(&TINY_VOCABULARY[..5], bert_normalizer(true), bert.clone());
    assert_eq!(problem(tiny_folder("F32", &short)), Problem::VocabularySize { rows: 6, entries: 5 });
    let mut far = TINY_VOCABULARY;
    far[5].1 = 6;
    let far = tokenizer_json(&far, bert_normalizer(true), bert);
    assert_eq!(
        problem(tiny_folder("F32", &far)),
        Problem::IdOutOfRange { token: "Hello".to_owned(), id: 6, rows: 6 }
    );
}

#[test]
fn errors_name_the_file_and_the_fault() {
    let tensors = safetensors(&[("embeddings", "F32", &[2, 2], f32s(&[0.5; 4]))]);
    let error =
        load(&[("model.safetensors", &tensors), ("vocab.txt", vocab_txt(6).as_bytes())]).expect_err("6 ≠ 2");
    let message = error.to_string();
    assert!(
        message.contains("vocab.txt: the embeddings have 2 rows, but the vocabulary has 6 entries"),
        "{message}"
    );
}

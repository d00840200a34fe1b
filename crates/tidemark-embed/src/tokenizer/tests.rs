//! Unit tests of the tokenizer: normalization, splitting and WordPiece on small vocabularies.

use super::*;

/// A tokenizer over a handful of pieces, ids in the order given, with BERT's uncased settings.
fn tiny(pieces: &[&str]) -> WordPiece {
    let entries = pieces.iter().copied().zip(0u32..);
    let special = pieces.iter().copied().zip(0u32..).filter(|(piece, _)| piece.starts_with('['));
    WordPiece::new(entries, "##", "[UNK]", special, Normalization::UNCASED, MAX_WORD_CHARS)
}

fn check(model: &WordPiece, text: &str, expected: &[u32]) {
    let mut ids = Vec::new();
    model.tokenize(text, usize::MAX, &mut ids);
    assert_eq!(ids, expected, "{text:?}");
}

#[test]
fn tables_are_sorted_and_disjoint() {
    for table in [tables::CONTROL, tables::NONSPACING_MARK, tables::PUNCTUATION] {
        assert!(table.iter().all(|(start, end)| start <= end && *start >= 0x80));
        assert!(table.windows(2).all(|pair| pair[0].1 < pair[1].0));
    }
}

#[test]
fn character_classes() {
    assert!(is_control('\u{7}') && is_control('\u{7F}') && is_control('\u{200B}') && is_control('\u{E000}'));
    assert!(!is_control('\t') && !is_control('a') && !is_control('\u{378}'));
    assert!(is_nonspacing_mark('\u{301}') && !is_nonspacing_mark('e') && !is_nonspacing_mark('\u{903}'));
    assert!(
        is_punctuation('!')
            && is_punctuation('$')
            && is_punctuation('\u{2014}')
            && is_punctuation('\u{3002}')
    );
    assert!(!is_punctuation('a') && !is_punctuation('\u{A9}') && !is_punctuation('\u{B0}'));
    assert!(is_cjk('中') && !is_cjk('の') && !is_cjk('한'));
    assert!(is_whitespace('\u{3000}') && is_whitespace('\n') && !is_whitespace('\u{200B}'));
}

#[test]
fn words_are_cut_into_the_longest_pieces() {
    let model = tiny(&["[UNK]", "[SEP]", "un", "##aff", "##able", "unaff", "a", "##b", ",", "!"]);
    check(&model, "unaffable", &[5, 4]);
    check(&model, "UnAffable, ab!", &[5, 4, 8, 6, 7, 9]);
    // A word with a part no piece matches is unknown as a whole.
    check(&model, "unaffablex a", &[0, 6]);
    check(&model, "x[SEP]a", &[0, 1, 6]);
    check(&model, "", &[]);
    check(&model, " \t\n ", &[]);
}

#[test]
fn text_is_normalized_first() {
    let model = tiny(&["[UNK]", "cafe", "σασ", "中", "文", "ab", "i"]);
    check(&model, "CAFÉ", &[1]);
    check(&model, "Cafe\u{301}", &[1]);
    check(&model, "ΣΑΣ", &[2]);
    check(&model, "中文", &[3, 4]);
    check(&model, "a\u{200B}b", &[5]);
    check(&model, "a\u{0}b\u{FFFD}", &[5]);
    check(&model, "İ", &[6]);
}

#[test]
fn long_words_are_unknown() {
    let model = tiny(&["[UNK]", "a", "##a"]);
    check(&model, &"a".repeat(MAX_WORD_CHARS), &[[1].as_slice(), &[2; MAX_WORD_CHARS - 1]].concat());
    check(&model, &"a".repeat(MAX_WORD_CHARS + 1), &[0]);
    check(&model, &format!("{} a", "a".repeat(100_000)), &[0, 1]);
}

#[test]
fn tokenizing_stops_at_the_limit() {
    let model = tiny(&["[UNK]", "a", "b"]);
    let mut ids = Vec::new();
    model.tokenize(&"a b ".repeat(10_000), 5, &mut ids);
    assert_eq!(ids, [1, 2, 1, 2, 1]);
    ids.clear();
    model.tokenize("[UNK][UNK][UNK]", 2, &mut ids);
    assert_eq!(ids, [0, 0]);
}

#[test]
fn a_vocabulary_without_an_unknown_token_drops_unknown_words() {
    let model = tiny(&["a"]);
    check(&model, "a xyz a", &[0, 0]);
}

#[test]
fn fnv_matches_its_published_values() {
    let hash = |bytes: &[u8]| {
        let mut fnv = Fnv::new();
        fnv.write(bytes);
        fnv.finish()
    };
    assert_eq!(hash(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(hash(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(hash(b"foobar"), 0x8594_4171_f739_67e8);
}

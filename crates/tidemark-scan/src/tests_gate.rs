//! The gates leave the verdicts as they were: the cues, markers, injection phrases and signal
//! families they let through give the same first finding as searching every pattern on its own.

use proptest::prelude::*;

use super::*;

/// Every text of the development corpora, malicious and benign.
fn corpus() -> Vec<String> {
    [
        include_str!("../tests/data/scan/malicious.jsonl"),
        include_str!("../tests/data/scan/benign.jsonl"),
        include_str!("../tests/data/scan/dev-cues-malicious.jsonl"),
        include_str!("../tests/data/scan/dev-cues-benign.jsonl"),
        include_str!("../tests/data/scan/batch3/malicious.jsonl"),
        include_str!("../tests/data/scan/batch3/benign.jsonl"),
        include_str!("../tests/data/scan/batch4/malicious.jsonl"),
        include_str!("../tests/data/scan/batch4/benign.jsonl"),
    ]
    .iter()
    .flat_map(|file| file.lines())
    .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
    .filter_map(|value| value.get("text").and_then(|text| text.as_str()).map(str::to_owned))
    .collect()
}

/// The texts the cues read: the text and its normalised views.
fn views(text: &str) -> Vec<String> {
    let view = normalize::view(text);
    let folded = normalize::folded(&view);
    let joined = normalize::joined(&folded);
    vec![text.to_owned(), view, folded, joined]
}

#[track_caller]
fn assert_same(text: &str) {
    let (Some(rules), Some(view_rules)) = (RULES.as_ref(), VIEW_RULES.as_ref()) else {
        panic!("the scan's patterns compile");
    };
    for view in views(text) {
        assert_eq!(view_rules.cues.find(&view), view_rules.cues.find_ungated(&view), "cues on {view:?}");
        assert_eq!(
            view_rules.signals.find(&view),
            view_rules.signals.find_ungated(&view),
            "signals on {view:?}"
        );
        assert_eq!(
            rules.find_injection(&view),
            rules.find_injection_ungated(&view),
            "injection phrases on {view:?}"
        );
    }
}

#[test]
fn the_gate_never_hides_a_match() {
    let texts = corpus();
    assert!(texts.len() > 500, "the corpora are read: {}", texts.len());
    let mut found = 0;
    for text in &texts {
        assert_same(text);
        found += usize::from(
            views(text).iter().any(|view| VIEW_RULES.as_ref().and_then(|v| v.cues.find(view)).is_some()),
        );
    }
    // The comparison means something only if the corpora make the cues fire.
    assert!(found > 100, "cues found in only {found} texts");
    let moves = texts
        .iter()
        .filter(|text| {
            views(text).iter().any(|view| VIEW_RULES.as_ref().and_then(|v| v.signals.find(view)).is_some())
        })
        .count();
    assert!(moves > 100, "signal combinations found in only {moves} texts");
}

/// The signals' gate rests on this: if a set of families is an attack, so is every larger set.
#[test]
fn more_signals_never_make_an_attack_harmless() {
    let all = 1u16 << signals::FAMILIES;
    let mut attacks = 0;
    for mask in 0..all {
        if signals::attack_of(mask).is_none() {
            continue;
        }
        attacks += 1;
        for more in 0..all {
            assert!(
                signals::attack_of(mask | more).is_some(),
                "{mask:#b} is an attack, {:#b} is not",
                mask | more
            );
        }
    }
    assert!(attacks > 0 && attacks < all, "{attacks} of {all} sets are attacks");
}

/// Words the cues are made of, in several languages, to build texts near the patterns.
const WORDS: &[&str] = &[
    "ignore",
    "all",
    "previous",
    "instructions",
    "the",
    "system",
    "prompt",
    "reveal",
    "you",
    "are",
    "now",
    "developer",
    "mode",
    "enabled",
    "safety",
    "rules",
    "no",
    "longer",
    "apply",
    "olvida",
    "las",
    "instrucciones",
    "anteriores",
    "ignoriere",
    "alle",
    "vorherigen",
    "Anweisungen",
    "忽略",
    "之前",
    "的",
    "指示",
    "以前の指示を無視して",
    "игнорируй",
    "предыдущие",
    "инструкции",
    "تجاهل",
    "التعليمات",
    "निर्देशों",
    "को",
    "अनदेखा",
    "[SYSTEM]",
    "<|im_start|>",
    "###",
    "System:",
    "not",
    "don't",
    "never",
    "de",
    "montaje",
    "linter",
    "warning",
    "root",
    "confirmation",
    "asking",
    "before",
    "deleting",
    "user",
    "has",
    "rights",
    "assistant,",
    "silently",
    "delete",
    "files",
    "forward",
    "credentials",
    "without",
    "telling",
    "permanent",
    "memory",
    "admin",
    "override",
    "bulk_delete",
    "tool",
    "\n",
    ",",
    ".",
    ":",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn gated_and_ungated_searches_agree(
        picks in prop::collection::vec(0..WORDS.len(), 0..24),
        noise in "[a-z \\n]{0,12}",
    ) {
        let mut text: String = picks.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" ");
        text.push_str(&noise);
        assert_same(&text);
    }
}

#[test]
fn most_patterns_are_gated() {
    let (Some(rules), Some(view_rules)) = (RULES.as_ref(), VIEW_RULES.as_ref()) else {
        panic!("the scan's patterns compile");
    };
    let (cues, total) = view_rules.cues.gate_size();
    eprintln!("cues: {cues} of {total} searched whatever the text");
    let (phrases, all_phrases) = rules.injection_gate_size();
    eprintln!("injection phrases: {phrases} of {all_phrases} searched whatever the text");
    let (families, all_families) = view_rules.signals.gate_size();
    eprintln!("signal families: {families} of {all_families} searched whatever the text");
    // A gate that lets everything through would cost a pass and save nothing.
    assert!(families * 10 < all_families, "{families} of {all_families} signal families are not gated");
    assert!(cues * 10 < total, "{cues} of {total} cues are not gated");
    assert!(phrases * 10 < all_phrases, "{phrases} of {all_phrases} phrases are not gated");
}

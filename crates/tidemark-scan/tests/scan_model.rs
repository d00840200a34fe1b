//! The built-in injection classifier is what its training corpus gives, bit for bit.
//!
//! `src/classifier.bin` is not written by hand: it is [`Classifier::train`] run with the
//! default options on the training files listed in [`TRAINING`], in that order. This test
//! retrains it and compares the bytes, so the shipped model cannot drift from the corpus in the
//! repository. After a change to the corpus, the features or the options, write the new model
//! with `cargo xtask train-scan` (which runs this test with `TIDEMARK_BLESS_SCAN_MODEL=1`, in
//! release mode) and commit it with the change.
//!
//! The held-out split (`data/scan/heldout/`) and the blind batches 5 to 12 (`data/scan/batch5/`
//! to `batch12/`) are never in [`TRAINING`]: they measure the model on texts it was not fitted to
//! (`tests/scan_heldout.rs`, `tests/scan_batch6.rs`).

#[allow(dead_code, reason = "only the JSON-lines reader of the shared split helpers is used here")]
mod scan_split;

use scan_split::parse;
use serde::Deserialize;
use tidemark_scan::{Classifier, TrainOptions};

/// The fields training reads; the files have more.
#[derive(Deserialize)]
struct Sample {
    text: String,
    /// `reject` or `redact` on malicious lines, absent on benign ones.
    #[serde(default)]
    expect: Option<String>,
}

/// The training files, malicious and benign side by side.
const TRAINING: &[(&str, &str, &str)] = &[
    ("development", include_str!("data/scan/malicious.jsonl"), include_str!("data/scan/benign.jsonl")),
    (
        "dev-cues",
        include_str!("data/scan/dev-cues-malicious.jsonl"),
        include_str!("data/scan/dev-cues-benign.jsonl"),
    ),
    (
        "dev-secrets",
        include_str!("data/scan/dev-secrets-malicious.jsonl"),
        include_str!("data/scan/dev-secrets-benign.jsonl"),
    ),
    (
        "batch3",
        include_str!("data/scan/batch3/malicious.jsonl"),
        include_str!("data/scan/batch3/benign.jsonl"),
    ),
    (
        "batch4",
        include_str!("data/scan/batch4/malicious.jsonl"),
        include_str!("data/scan/batch4/benign.jsonl"),
    ),
    (
        "train/w1",
        include_str!("data/scan/train/w1/malicious.jsonl"),
        include_str!("data/scan/train/w1/benign.jsonl"),
    ),
    (
        "train/w2",
        include_str!("data/scan/train/w2/malicious.jsonl"),
        include_str!("data/scan/train/w2/benign.jsonl"),
    ),
    (
        "train/w3",
        include_str!("data/scan/train/w3/malicious.jsonl"),
        include_str!("data/scan/train/w3/benign.jsonl"),
    ),
    (
        "train/w4",
        include_str!("data/scan/train/w4/malicious.jsonl"),
        include_str!("data/scan/train/w4/benign.jsonl"),
    ),
    (
        "train/w5",
        include_str!("data/scan/train/w5/malicious.jsonl"),
        include_str!("data/scan/train/w5/benign.jsonl"),
    ),
    (
        "train/w6",
        include_str!("data/scan/train/w6/malicious.jsonl"),
        include_str!("data/scan/train/w6/benign.jsonl"),
    ),
    (
        "train/w7",
        include_str!("data/scan/train/w7/malicious.jsonl"),
        include_str!("data/scan/train/w7/benign.jsonl"),
    ),
    (
        "train/w8",
        include_str!("data/scan/train/w8/malicious.jsonl"),
        include_str!("data/scan/train/w8/benign.jsonl"),
    ),
    (
        "train/w9",
        include_str!("data/scan/train/w9/malicious.jsonl"),
        include_str!("data/scan/train/w9/benign.jsonl"),
    ),
    (
        "train/w10",
        include_str!("data/scan/train/w10/malicious.jsonl"),
        include_str!("data/scan/train/w10/benign.jsonl"),
    ),
    (
        "train/w11",
        include_str!("data/scan/train/w11/malicious.jsonl"),
        include_str!("data/scan/train/w11/benign.jsonl"),
    ),
];

/// Every training text with its label: `reject` samples are injections; benign samples and the
/// `redact` samples (harmless texts that carry a secret) are not.
fn samples() -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for (name, malicious, benign) in TRAINING {
        for sample in parse::<Sample>(name, malicious) {
            let reject = sample.expect.as_deref() == Some("reject");
            out.push((sample.text, reject));
        }
        for sample in parse::<Sample>(name, benign) {
            assert!(sample.expect.is_none(), "{name}: a benign sample with an `expect`: {}", sample.text);
            out.push((sample.text, false));
        }
    }
    out
}

#[test]
fn the_builtin_model_is_what_the_training_corpus_gives() {
    let samples = samples();
    let (model, report) =
        Classifier::train(samples.iter().map(|(t, m)| (t.as_str(), *m)), &TrainOptions::default())
            .expect("two classes");
    println!(
        "out of fold: {}/{} malicious caught, {}/{} benign flagged, threshold {:.3}, lone signal {:.3}, confirming {:.3}",
        report.caught.0,
        report.caught.1,
        report.flagged.0,
        report.flagged.1,
        report.threshold,
        report.lone,
        report.confirm
    );
    let bytes = model.to_bytes();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/classifier.bin");
    if std::env::var_os("TIDEMARK_BLESS_SCAN_MODEL").is_some() {
        std::fs::write(path, &bytes).expect("write the model");
        return;
    }
    let shipped = std::fs::read(path).expect("read the shipped model");
    assert!(
        shipped == bytes,
        "src/classifier.bin is not what the training corpus gives; run `cargo xtask train-scan`"
    );
    let builtin = Classifier::builtin().expect("the shipped model loads");
    assert_eq!(builtin.to_bytes(), bytes);
}

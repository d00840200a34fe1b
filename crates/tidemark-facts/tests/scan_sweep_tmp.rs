use serde::Deserialize;
use tidemark_facts::scan::{Classifier, TrainOptions};

/// The fields training reads; the files have more.
#[derive(Deserialize)]
struct Sample {
    text: String,
    /// `reject` or `redact` on malicious lines, absent on benign ones.
    #[serde(default)]
    expect: Option<String>,
}

fn parse(name: &str, source: &str) -> Vec<Sample> {
    source
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(number, line)| {
            serde_json::from_str(line).unwrap_or_else(|error| panic!("{name} line {}: {error}", number + 1))
        })
        .collect()
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
];

/// Every training text with its label: `reject` samples are injections; benign samples and the
/// `redact` samples (harmless texts that carry a secret) are not.
fn samples() -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for (name, malicious, benign) in TRAINING {
        for sample in parse(name, malicious) {
            let reject = sample.expect.as_deref() == Some("reject");
            out.push((sample.text, reject));
        }
        for sample in parse(name, benign) {
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
        "out of fold: {}/{} malicious caught, {}/{} benign flagged, threshold {:.3}",
        report.caught.0, report.caught.1, report.flagged.0, report.flagged.1, report.threshold
    );
    let bytes = model.to_bytes();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/scan/classifier.bin");
    if std::env::var_os("TIDEMARK_BLESS_SCAN_MODEL").is_some() {
        std::fs::write(path, &bytes).expect("write the model");
        return;
    }
    let shipped = std::fs::read(path).expect("read the shipped model");
    assert!(
        shipped == bytes,
        "src/scan/classifier.bin is not what the training corpus gives; run `cargo xtask train-scan`"
    );
    let builtin = Classifier::builtin().expect("the shipped model loads");
    assert_eq!(builtin.to_bytes(), bytes);
}

#[test]
fn sweep() {
    let samples = samples();
    for epochs in [6u32, 12, 24] {
        for lr in [0.1f32, 0.4, 1.0] {
            for l2 in [0.0f32, 1e-5, 1e-4] {
                let mut o = TrainOptions::default();
                o.epochs = epochs;
                o.learning_rate = lr;
                o.l2 = l2;
                let (_, r) = Classifier::train(samples.iter().map(|(t, m)| (t.as_str(), *m)), &o).unwrap();
                println!(
                    "e{epochs} lr{lr} l2{l2}: {}/{} caught, {}/{} flagged",
                    r.caught.0, r.caught.1, r.flagged.0, r.flagged.1
                );
            }
        }
    }
}

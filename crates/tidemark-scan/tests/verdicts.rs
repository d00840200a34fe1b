//! Every text of the scan corpus gets the verdict recorded in `data/verdicts.txt`, with the
//! shipped classifier and with the rules alone.
//!
//! The file was written before the scan learned to start at once (patterns compiled on first use,
//! gates read from shipped tables), by the scanner as it was then, and must not change when only
//! the scanner's speed does. A change that means to change verdicts writes the file again with
//! `TIDEMARK_BLESS_SCAN_VERDICTS=1 cargo test -p tidemark-scan --release --test verdicts` and
//! says why in its commit.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use tidemark_scan::Scanner;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

/// Every `.jsonl` file below `dir`, in a stable order.
fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the corpus folder reads")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            corpus_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "jsonl") {
            out.push(path);
        }
    }
}

/// One line per corpus text: where it is, its verdict, and its verdict by the rules alone.
fn verdicts() -> (String, usize) {
    let mut files = Vec::new();
    corpus_files(&Path::new(DATA).join("scan"), &mut files);
    let (full, rules) = (Scanner::new(), Scanner::new().without_classifier());
    let mut out = String::new();
    let mut count = 0;
    for file in files {
        let name = file.strip_prefix(DATA).expect("below the data folder").display().to_string();
        let text = std::fs::read_to_string(&file).expect("a corpus file reads");
        for (number, line) in text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
            let value: serde_json::Value = serde_json::from_str(line).expect("a corpus line is JSON");
            let sample = value["text"].as_str().expect("a corpus line has a text");
            let _ = writeln!(out, "{name}:{}\t{:?}\t{:?}", number + 1, full.scan(sample), rules.scan(sample));
            count += 1;
        }
    }
    (out, count)
}

#[test]
fn every_corpus_text_keeps_its_verdict() {
    let (now, count) = verdicts();
    assert!(count > 10_000, "only {count} corpus texts were found");
    let path = Path::new(DATA).join("verdicts.txt");
    if std::env::var_os("TIDEMARK_BLESS_SCAN_VERDICTS").is_some() {
        std::fs::write(&path, &now).expect("write the verdicts");
        return;
    }
    let recorded = std::fs::read_to_string(&path).expect("tests/data/verdicts.txt reads");
    let changed: Vec<String> = recorded
        .lines()
        .zip(now.lines())
        .filter(|(before, after)| before != after)
        .take(10)
        .map(|(before, after)| format!("before: {before}\nnow:    {after}"))
        .collect();
    assert!(changed.is_empty(), "verdicts changed:\n{}", changed.join("\n"));
    assert_eq!(recorded.lines().count(), count, "the corpus and the recorded verdicts differ in length");
}

//! The shipped derivations (`derived.bin`) are what today's patterns give, a table survives its
//! byte form, and every pattern a scanner holds compiles.

use super::Scanner;
use super::gate::{self, Gate};
use super::lazy::{self, registry::Engine};
use super::shipped::{self, Kind, registry::Asked};

/// Derives every entry a scanner asks for again, and compares the file they make with the shipped
/// one; with `TIDEMARK_BLESS_SCAN_GATES` set, writes it instead (`cargo xtask scan-gates`).
#[test]
fn shipped_derivations_are_fresh() {
    assert!(!matches!(Scanner::new().scan("builds every part"), super::Verdict::Rejected(_)));
    let asked = shipped::registry::asked();
    let gates = asked.iter().filter(|asked| matches!(asked, Asked::Gate { .. })).count();
    assert_eq!(gates, 3, "the cue, injection and signal gates");
    let mut entries = Vec::new();
    for asked in &asked {
        match asked {
            Asked::Gate { sources, word_starts } => {
                let table = gate::derive_table(sources, word_starts).expect("every gate's patterns parse");
                let bytes = table.to_bytes();
                assert_eq!(gate::Table::from_bytes(&bytes).as_ref(), Some(&table), "a table round-trips");
                entries.push((Kind::Gate, gate::gate_key(sources, word_starts), bytes));
            }
            Asked::Split { source } => {
                let split = gate::split_ungated(source).expect("every signal family parses");
                entries.push((
                    Kind::Split,
                    shipped::fingerprint([source.as_bytes()]),
                    gate::split_to_bytes(&split),
                ));
            }
        }
    }
    let fresh = shipped::file(&entries);
    if std::env::var_os("TIDEMARK_BLESS_SCAN_GATES").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/derived.bin");
        std::fs::write(path, &fresh).expect("write src/derived.bin");
        return;
    }
    assert!(
        fresh == shipped::shipped(),
        "src/derived.bin is not what the scan's patterns give ({} entries); run `cargo xtask scan-gates`",
        entries.len()
    );
}

#[test]
fn a_malformed_table_is_refused() {
    let sources = [r"(?i)\bignore (?:all )?rules", r"\s*x+", "忽略指示"];
    let table = gate::derive_table(&sources.map(str::to_owned), &[true, false, false]).expect("parses");
    let bytes = table.to_bytes();
    for cut in 0..bytes.len() {
        assert_eq!(gate::Table::from_bytes(&bytes[..cut]), None, "cut at {cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(gate::Table::from_bytes(&longer), None, "trailing bytes");
}

/// A gate whose patterns have no shipped table is derived on the spot, and is the same gate.
#[test]
fn a_gate_without_a_shipped_table_is_derived() {
    let sources = [r"\bnot shipped anywhere\b", r"(?i)other words"];
    let cached = Gate::shipped_or_derived(&sources, &[]).expect("builds");
    let derived = Gate::new(&sources).expect("builds");
    for text in ["not shipped anywhere", "OTHER words", "nothing"] {
        assert_eq!(cached.live(text), derived.live(text), "{text}");
    }
}

#[test]
fn every_lazy_pattern_compiles() {
    let _ = Scanner::new();
    let made = lazy::registry::made();
    assert!(made.len() > 1_000, "only {} patterns were made", made.len());
    let failures: Vec<String> = made
        .iter()
        .filter_map(|(engine, source)| {
            let error = match engine {
                Engine::Regex => regex::Regex::new(source).err().map(|error| error.to_string()),
                Engine::Set => regex::RegexSet::new([source]).err().map(|error| error.to_string()),
                Engine::Meta => regex_automata::meta::Regex::new(source).err().map(|error| error.to_string()),
            }?;
            Some(format!("{source}: {error}"))
        })
        .collect();
    assert!(failures.is_empty(), "patterns that do not compile:\n{}", failures.join("\n"));
    assert!(!lazy::broken());
}

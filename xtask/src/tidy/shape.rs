//! Tidy checks on the shape of the sources: no file too long to read, and no public type that cannot grow without breaking its users.

use std::path::Path;

use syn::{Attribute, Fields, Item, Visibility};

use super::{SOURCE_DIRS, read, relative, rust_files};

/// The longest a source file may be before it must be split (the house style's rule 13).
const MAX_LINES: usize = 800;

/// Public types that are complete by nature and stay exhaustive on purpose, each with the reason.
///
/// Everything else public with public fields, and every public enum, is
/// `#[non_exhaustive]`, so that a field or a variant can be added in a minor
/// release; a type lands here only when adding to it would change what it is.
const EXHAUSTIVE: &[(&str, &str)] = &[
    (
        "PutDecision",
        "a put either finds the fact stored or inserts it; backends match it so a new rule breaks them",
    ),
    (
        "FactColumns",
        "one field per column of the fact table: a new column is a schema change every SQL backend must fill",
    ),
    ("RestoreStep", "a rollback only removes merged facts and restores sources; backends match every step"),
    ("SeqRange", "a half-open range of sequence numbers: a start and an end are all it can hold"),
    ("Scope", "facts belong to a conversation or to a user; a third owner would be a new contract"),
    ("Tier", "the two fact tiers are stored by name and budgeted apart; a third is a schema change"),
];

/// Whether a file is test code, which the length rule leaves alone.
fn is_test_file(path: &Path) -> bool {
    path.components().any(|part| part.as_os_str() == "tests")
        || path.file_name().is_some_and(|name| name == "tests.rs")
}

/// The files over [`MAX_LINES`], as `path: N lines`.
fn long_files<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    files
        .into_iter()
        .filter(|(path, _)| !is_test_file(Path::new(path)))
        .filter_map(|(path, source)| {
            let lines = source.lines().count();
            (lines > MAX_LINES).then(|| format!("{path}: {lines} lines"))
        })
        .collect()
}

#[test]
fn no_source_file_is_over_800_lines() {
    let files: Vec<(String, String)> =
        rust_files(SOURCE_DIRS).iter().map(|path| (relative(path), read(path))).collect();
    assert!(files.len() > 50, "found only {} Rust files; the walk is broken", files.len());
    let long = long_files(files.iter().map(|(path, source)| (path.as_str(), source.as_str())));
    assert!(
        long.is_empty(),
        "split these files (tests aside, {MAX_LINES} lines at most):\n  {}",
        long.join("\n  ")
    );
}

#[test]
fn the_length_rule_fires_and_spares_tests() {
    let long = "//! x\n".repeat(MAX_LINES + 1);
    let short = "//! x\n".repeat(MAX_LINES);
    assert_eq!(long_files([("crates/a/src/big.rs", long.as_str())]), ["crates/a/src/big.rs: 801 lines"]);
    assert!(long_files([("crates/a/src/fine.rs", short.as_str())]).is_empty());
    assert!(long_files([("crates/a/tests/big.rs", long.as_str())]).is_empty());
    assert!(long_files([("crates/a/src/unit/tests.rs", long.as_str())]).is_empty());
}

/// The public types in `source` that should be `#[non_exhaustive]` and are not, as `struct Name` or `enum Name`.
///
/// A struct counts when it has a public named field (a tuple struct is a
/// deliberate newtype); every public enum counts. Test modules are skipped.
fn missing_non_exhaustive(source: &str) -> Result<Vec<String>, syn::Error> {
    let file = syn::parse_file(source)?;
    let mut missing = Vec::new();
    walk(&file.items, &mut missing);
    Ok(missing)
}

fn walk(items: &[Item], missing: &mut Vec<String>) {
    for item in items {
        match item {
            Item::Struct(item) if is_public(&item.vis) => {
                let public_field = matches!(&item.fields, Fields::Named(fields)
                    if fields.named.iter().any(|field| is_public(&field.vis)));
                if public_field && !non_exhaustive(&item.attrs) {
                    missing.push(format!("struct {}", item.ident));
                }
            }
            Item::Enum(item) if is_public(&item.vis) && !non_exhaustive(&item.attrs) => {
                missing.push(format!("enum {}", item.ident));
            }
            Item::Mod(module) if !is_test_module(&module.attrs) => {
                if let Some((_, items)) = &module.content {
                    walk(items, missing);
                }
            }
            _ => {}
        }
    }
}

/// Plain `pub`: `pub(crate)` and narrower are not part of the public surface.
fn is_public(visibility: &Visibility) -> bool {
    matches!(visibility, Visibility::Public(_))
}

fn non_exhaustive(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| attr.path().is_ident("non_exhaustive"))
}

fn is_test_module(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg") && attr.parse_args::<syn::Ident>().is_ok_and(|ident| ident == "test")
    })
}

#[test]
fn public_types_can_grow() {
    let files: Vec<_> = rust_files(&["crates"])
        .into_iter()
        .filter(|path| path.components().any(|part| part.as_os_str() == "src") && !is_test_file(path))
        .collect();
    assert!(files.len() > 50, "found only {} library files; the walk is broken", files.len());
    let mut offenders = Vec::new();
    for path in files {
        let found = missing_non_exhaustive(&read(&path))
            .unwrap_or_else(|error| panic!("{} does not parse: {error}", relative(&path)));
        offenders.extend(
            found
                .into_iter()
                .filter(|name| {
                    !EXHAUSTIVE.iter().any(|(allowed, _)| name.split(' ').nth(1) == Some(*allowed))
                })
                .map(|name| format!("{}: {name}", relative(&path))),
        );
    }
    assert!(
        offenders.is_empty(),
        "mark these #[non_exhaustive] (and give them constructors), or list them in EXHAUSTIVE with a reason:\n  {}",
        offenders.join("\n  ")
    );
}

#[test]
fn the_non_exhaustive_rule_fires_where_it_should() {
    let source = r"
        pub struct Open { pub a: u8 }
        #[non_exhaustive]
        pub struct Closed { pub a: u8 }
        pub struct Private { a: u8 }
        pub struct Newtype(pub u8);
        pub(crate) struct Internal { pub a: u8 }
        pub enum Grows { A }
        #[derive(Debug)]
        #[non_exhaustive]
        pub enum Marked { A }
        pub mod inner { pub enum Nested { A } }
        #[cfg(test)]
        mod tests { pub enum InTests { A } }
    ";
    assert_eq!(missing_non_exhaustive(source).expect("parses"), ["struct Open", "enum Grows", "enum Nested"]);
    assert!(missing_non_exhaustive("pub struct {").is_err(), "broken source is an error, not a pass");
}

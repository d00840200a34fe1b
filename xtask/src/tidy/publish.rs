//! The rules that keep every publishable crate publishable: licence files, a README, a declared
//! Rust version, versions on internal dependencies, no internal dev-dependency that carries one
//! (which would put a cycle into the published manifests), no test data in a package, and a
//! package the registry accepts.
//!
//! `cargo xtask ci` also packages every crate and builds each from its package (the `package`
//! step); these checks catch what packaging alone lets through and say which rule broke.

use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::LIBRARY_KINDS;
use crate::util::{cargo_program, workspace_root};

/// The licence every crate carries, and the files that hold its two texts.
const LICENSE: &str = "MIT OR Apache-2.0";
const LICENSE_FILES: &[&str] = &["LICENSE-MIT", "LICENSE-APACHE"];

/// The largest `.crate` file crates.io accepts.
const REGISTRY_LIMIT: u64 = 10 * 1024 * 1024;

/// The heading of the changelog's section for what is not released yet.
const UNRELEASED: &str = "## [Unreleased]";

/// What the rules read of one package: its manifest in `cargo metadata`, and its folder.
#[derive(Debug, Clone)]
struct Manifest {
    name: String,
    /// The folder holding its Cargo.toml.
    dir: PathBuf,
    publishable: bool,
    license: Option<String>,
    readme: Option<String>,
    rust_version: Option<String>,
    description: Option<String>,
    repository: Option<String>,
    /// Each dependency's name, kind (`None` for a normal one) and version requirement.
    dependencies: Vec<(String, Option<String>, String)>,
    /// The root source file of its library target, if it has one.
    lib: Option<PathBuf>,
    /// Whether its README holds a Rust example that no doctest of its library runs.
    untested_readme: bool,
    /// The files `cargo package --list` names, relative to the package, with their sizes.
    packed: Vec<(String, u64)>,
    /// The licence files beside the manifest whose text differs from the workspace root's.
    stale_licenses: Vec<String>,
}

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

/// Reads the workspace packages from `cargo metadata` output, with nothing known of their folders yet.
fn manifests(metadata: &Value) -> Result<Vec<Manifest>, String> {
    let packages = metadata["packages"].as_array().ok_or("cargo metadata output has no `packages` array")?;
    packages
        .iter()
        .map(|package| {
            let name = text(&package["name"]).ok_or("a package in cargo metadata has no name")?;
            let manifest_path = text(&package["manifest_path"])
                .ok_or_else(|| format!("package {name} has no manifest_path"))?;
            let dependencies = package["dependencies"]
                .as_array()
                .ok_or_else(|| format!("package {name} has no `dependencies` array"))?
                .iter()
                .map(|dependency| {
                    let dependency_name = text(&dependency["name"])
                        .ok_or_else(|| format!("a dependency of {name} has no name"))?;
                    let req = text(&dependency["req"]).ok_or_else(|| {
                        format!("the dependency of {name} on {dependency_name} has no `req`")
                    })?;
                    Ok((dependency_name, text(&dependency["kind"]), req))
                })
                .collect::<Result<_, String>>()?;
            let lib = package["targets"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|target| {
                    target["kind"].as_array().is_some_and(|kinds| {
                        kinds
                            .iter()
                            .any(|kind| kind.as_str().is_some_and(|kind| LIBRARY_KINDS.contains(&kind)))
                    })
                })
                .map(|target| text(&target["src_path"]).map(PathBuf::from))
                .map(|path| path.ok_or_else(|| format!("the library target of {name} has no src_path")))
                .transpose()?;
            Ok(Manifest {
                dir: Path::new(&manifest_path).parent().map(Path::to_path_buf).unwrap_or_default(),
                // `publish` is null when publishing is allowed anywhere, a list of registries otherwise.
                publishable: package["publish"].as_array().is_none_or(|registries| !registries.is_empty()),
                license: text(&package["license"]),
                readme: text(&package["readme"]),
                rust_version: text(&package["rust_version"]),
                description: text(&package["description"]),
                repository: text(&package["repository"]),
                dependencies,
                lib,
                untested_readme: false,
                packed: Vec::new(),
                stale_licenses: Vec::new(),
                name,
            })
        })
        .collect()
}

/// Every broken rule of the publishable manifests.
fn problems(manifests: &[Manifest]) -> Vec<String> {
    let internal: Vec<&str> = manifests.iter().map(|manifest| manifest.name.as_str()).collect();
    let mut problems = Vec::new();
    for manifest in manifests.iter().filter(|manifest| manifest.publishable) {
        let name = &manifest.name;
        let packs = |file: &str| manifest.packed.iter().any(|(path, _)| path == file);
        if manifest.license.as_deref() != Some(LICENSE) {
            problems.push(format!("{name}: license must be `{LICENSE}`"));
        }
        for file in LICENSE_FILES {
            if !packs(file) {
                problems.push(format!("{name}: {file} is not in its package; copy it beside its Cargo.toml"));
            }
        }
        for file in &manifest.stale_licenses {
            problems.push(format!("{name}: {file} differs from the one at the workspace root"));
        }
        match &manifest.readme {
            Some(readme) if packs(readme) => {}
            Some(readme) => problems.push(format!("{name}: its readme {readme} is not in its package")),
            None => problems.push(format!("{name}: `readme` is not set")),
        }
        if manifest.untested_readme {
            problems.push(format!(
                "{name}: its README's Rust example runs in no doctest; end its lib.rs with `#[cfg(doctest)] #[doc = include_str!(\"../README.md\")] struct ReadmeDoctests;`"
            ));
        }
        for (field, value) in [
            ("rust-version", &manifest.rust_version),
            ("description", &manifest.description),
            ("repository", &manifest.repository),
        ] {
            if value.is_none() {
                problems.push(format!("{name}: `{field}` is not set"));
            }
        }
        for (dependency, kind, req) in &manifest.dependencies {
            if !internal.contains(&dependency.as_str()) {
                continue;
            }
            let versioned = req != "*";
            match kind.as_deref() {
                Some("dev") if versioned => problems.push(format!(
                    "{name}: the dev-dependency on {dependency} carries a version; declare it by path alone, so the published manifest drops it"
                )),
                Some("dev") => {}
                _ if !versioned => {
                    problems.push(format!("{name}: the dependency on {dependency} needs a version to be published"))
                }
                _ => {}
            }
        }
        let data: Vec<&str> =
            manifest.packed.iter().map(|(path, _)| path.as_str()).filter(|path| is_test_data(path)).collect();
        if let Some(first) = data.first() {
            problems.push(format!(
                "{name}: its package holds {} file(s) of test data, such as {first}; add their folder to `exclude`",
                data.len()
            ));
        }
        let size = archive_bound(&manifest.packed);
        if size >= REGISTRY_LIMIT {
            problems.push(format!(
                "{name}: its package may reach {size} bytes, over the registry's {REGISTRY_LIMIT}"
            ));
        }
    }
    problems
}

/// Whether a packaged path is test data: anything in a `data` folder under `tests/`.
fn is_test_data(path: &str) -> bool {
    let mut parts = path.split('/');
    parts.next() == Some("tests") && parts.rev().skip(1).any(|folder| folder == "data")
}

/// The most the `.crate` of these files can weigh, which is what the registry measures.
///
/// The archive holds a 512-byte header per file, each file padded to 512 bytes, and two closing
/// blocks; gzip then shrinks it, or at worst, on data it cannot shrink, stores it in blocks of
/// 65,535 bytes with 5 bytes each, behind a header and a trailer well under 64 bytes.
fn archive_bound(packed: &[(String, u64)]) -> u64 {
    let archive = packed.iter().map(|(_, bytes)| 512 + bytes.div_ceil(512) * 512).sum::<u64>() + 1024;
    archive + archive.div_ceil(65_535) * 5 + 64
}

/// Whether a README holds a code block rustdoc would run: one marked `rust` (with or without
/// attributes such as `no_run`) or not marked at all, which rustdoc takes for Rust.
fn has_rust_example(readme: &str) -> bool {
    let mut in_block = false;
    for line in readme.lines().map(str::trim_start) {
        let Some(info) = line.strip_prefix("```") else { continue };
        if !in_block {
            let language = info.split(',').next().unwrap_or_default().trim();
            if language.is_empty() || language == "rust" {
                return true;
            }
        }
        in_block = !in_block;
    }
    false
}

/// Whether `source`, a file in `dir`, includes `file` with `include_str!`, as the README's doctests do.
fn includes(source: &str, dir: &Path, file: &Path) -> bool {
    source
        .split("include_str!(\"")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(path, _)| path))
        .any(|path| lexical(&dir.join(path)) == lexical(file))
}

/// A path with its `.` and `..` parts resolved by their names alone.
fn lexical(path: &Path) -> PathBuf {
    let mut resolved = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                resolved.pop();
            }
            other => resolved.push(other),
        }
    }
    resolved
}

/// What is wrong with the changelog: it needs the unreleased section and must name every publishable crate.
fn changelog_problems(changelog: &str, manifests: &[Manifest]) -> Vec<String> {
    let mut problems = Vec::new();
    if !changelog.lines().any(|line| line.trim_end() == UNRELEASED) {
        problems.push(format!("CHANGELOG.md: no `{UNRELEASED}` section"));
    }
    for manifest in manifests.iter().filter(|manifest| manifest.publishable) {
        if !changelog.contains(&format!("`{}`", manifest.name)) {
            problems.push(format!("CHANGELOG.md: `{}` is never named; say what it holds", manifest.name));
        }
    }
    problems
}

/// Fills in what the rules need from a package's folder: what `cargo package --list` packs, and
/// whether its licence files are the root's.
fn read_folder(manifest: &mut Manifest) {
    let root = workspace_root();
    // Listing neither builds nor writes anything; `--offline` keeps the test off the network, and
    // a tree with uncommitted work is listed as it is.
    let output = Command::new(cargo_program())
        .args(["package", "--list", "--offline", "--allow-dirty", "--package", &manifest.name])
        .current_dir(&root)
        .output()
        .expect("cargo package could not be started");
    assert!(
        output.status.success(),
        "cargo package --list --package {} failed:\n{}",
        manifest.name,
        String::from_utf8_lossy(&output.stderr)
    );
    manifest.packed = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|path| {
            // Files cargo writes itself are counted at the size of their source: the package's
            // lock file is a part of the workspace's, and its Cargo.toml a rewrite of the crate's.
            let source = if path == "Cargo.toml.orig" { "Cargo.toml" } else { path };
            let source = match manifest.dir.join(source) {
                beside if beside.is_file() => beside,
                _ => root.join(source),
            };
            (path.to_owned(), fs::metadata(&source).map_or(0, |meta| meta.len()))
        })
        .collect();
    if let Some(readme) = manifest.readme.as_ref().map(|readme| manifest.dir.join(readme)) {
        let example = fs::read_to_string(&readme).is_ok_and(|text| has_rust_example(&text));
        let tested = manifest.lib.as_ref().is_some_and(|lib| {
            let dir = lib.parent().unwrap_or(Path::new(""));
            fs::read_to_string(lib).is_ok_and(|source| includes(&source, dir, &readme))
        });
        manifest.untested_readme = example && !tested;
    }
    manifest.stale_licenses = LICENSE_FILES
        .iter()
        .filter(|file| {
            let copy = fs::read(manifest.dir.join(file));
            copy.is_ok() && copy.ok() != fs::read(root.join(file)).ok()
        })
        .map(|file| (*file).to_owned())
        .collect();
}

#[test]
fn every_publishable_crate_keeps_the_publishing_rules() {
    let output = Command::new(cargo_program())
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(workspace_root())
        .output()
        .expect("cargo metadata could not be started");
    assert!(output.status.success(), "cargo metadata failed");
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("cargo metadata printed JSON");
    let mut manifests = manifests(&metadata).unwrap_or_else(|error| panic!("{error}"));
    assert!(
        manifests.iter().filter(|manifest| manifest.publishable).count() >= 10,
        "too few publishable crates"
    );
    for manifest in manifests.iter_mut().filter(|manifest| manifest.publishable) {
        read_folder(manifest);
    }
    let changelog = fs::read_to_string(workspace_root().join("CHANGELOG.md"))
        .expect("CHANGELOG.md must exist at the workspace root");
    let mut problems = problems(&manifests);
    problems.extend(changelog_problems(&changelog, &manifests));
    assert!(problems.is_empty(), "publishing rules broken:\n  {}", problems.join("\n  "));
}

/// A package as `cargo metadata` prints it, keeping every rule, with `changes` written over it.
fn metadata_package(name: &str, changes: &Value) -> Value {
    let mut package = serde_json::json!({
        "name": name,
        "manifest_path": format!("/w/crates/{name}/Cargo.toml"),
        "publish": null,
        "license": LICENSE,
        "readme": "README.md",
        "rust_version": "1.95",
        "description": "d",
        "repository": "r",
        "dependencies": [{"name": "serde", "kind": null, "req": "^1.0"}],
        "targets": [
            {"kind": ["lib"], "src_path": format!("/w/crates/{name}/src/lib.rs")},
            {"kind": ["test"], "src_path": format!("/w/crates/{name}/tests/it.rs")},
        ],
    });
    for (key, value) in changes.as_object().into_iter().flatten() {
        package[key] = value.clone();
    }
    package
}

/// The manifest of one package of synthetic metadata, whose folder packs a complete crate.
fn good(name: &str, changes: Value) -> Manifest {
    let metadata = serde_json::json!({"packages": [metadata_package(name, &changes)]});
    let mut manifest = manifests(&metadata).expect("the synthetic metadata parses").remove(0);
    manifest.packed = ["Cargo.toml", "src/lib.rs", "README.md", "LICENSE-MIT", "LICENSE-APACHE"]
        .map(|path| (path.to_owned(), 2_000))
        .to_vec();
    manifest
}

/// Runs the rules over `input` and compares the problems, in order, with `expected`.
fn check(input: &[Manifest], expected: &[&str]) {
    assert_eq!(problems(input), expected, "unexpected problems for input {input:#?}");
}

#[test]
fn the_publishing_rules_fire_one_by_one() {
    check(&[good("a", Value::Null)], &[]);
    check(&[good("a", serde_json::json!({"license": "MIT"}))], &["a: license must be `MIT OR Apache-2.0`"]);
    check(&[good("a", serde_json::json!({"license": null}))], &["a: license must be `MIT OR Apache-2.0`"]);
    check(&[good("a", serde_json::json!({"readme": null}))], &["a: `readme` is not set"]);
    check(
        &[good("a", serde_json::json!({"readme": "docs/README.md"}))],
        &["a: its readme docs/README.md is not in its package"],
    );
    check(&[good("a", serde_json::json!({"rust_version": null}))], &["a: `rust-version` is not set"]);
    check(
        &[good("a", serde_json::json!({"description": null, "repository": null}))],
        &["a: `description` is not set", "a: `repository` is not set"],
    );
    // A crate that may go to some registry is held to the rules; `publish = false` is an empty list.
    check(
        &[good("b", serde_json::json!({"publish": ["internal"], "readme": null}))],
        &["b: `readme` is not set"],
    );
    check(&[good("a", serde_json::json!({"publish": [], "license": null, "readme": null}))], &[]);
}

#[test]
fn internal_dependencies_carry_versions_and_dev_dependencies_none() {
    let on_b = |kind: Value, req: &str| serde_json::json!({"dependencies": [{"name": "b", "kind": kind, "req": req, "path": "/w/crates/b"}]});
    let b = good("b", Value::Null);
    check(&[good("a", on_b("dev".into(), "*")), b.clone()], &[]);
    check(&[good("a", on_b(Value::Null, "^0.1.0")), b.clone()], &[]);
    check(
        &[good("a", on_b("dev".into(), "^0.1.0")), b.clone()],
        &[
            "a: the dev-dependency on b carries a version; declare it by path alone, so the published manifest drops it",
        ],
    );
    check(
        &[good("a", on_b(Value::Null, "*")), b.clone()],
        &["a: the dependency on b needs a version to be published"],
    );
    // A build dependency is in the published manifest like a normal one.
    check(
        &[good("a", on_b("build".into(), "*")), b.clone()],
        &["a: the dependency on b needs a version to be published"],
    );
    // A crate outside the workspace is not held to it.
    check(&[good("a", on_b(Value::Null, "*"))], &[]);
}

#[test]
fn packages_hold_both_licences_and_no_test_data() {
    let without = |file: &str| {
        let mut manifest = good("a", Value::Null);
        manifest.packed.retain(|(path, _)| path != file);
        manifest
    };
    check(
        &[without("LICENSE-APACHE")],
        &["a: LICENSE-APACHE is not in its package; copy it beside its Cargo.toml"],
    );
    check(
        &[without("LICENSE-MIT")],
        &["a: LICENSE-MIT is not in its package; copy it beside its Cargo.toml"],
    );
    check(&[without("README.md")], &["a: its readme README.md is not in its package"]);
    check(
        &[Manifest { untested_readme: true, ..good("a", Value::Null) }],
        &[
            "a: its README's Rust example runs in no doctest; end its lib.rs with `#[cfg(doctest)] #[doc = include_str!(\"../README.md\")] struct ReadmeDoctests;`",
        ],
    );
    check(
        &[Manifest { stale_licenses: vec!["LICENSE-MIT".to_owned()], ..good("a", Value::Null) }],
        &["a: LICENSE-MIT differs from the one at the workspace root"],
    );

    let packing = |paths: &[&str]| {
        let mut manifest = good("a", Value::Null);
        manifest.packed.extend(paths.iter().map(|path| ((*path).to_owned(), 100)));
        manifest
    };
    check(&[packing(&["tests/sqlite.rs", "tests/support/mod.rs", "src/data/table.rs", "data/x.json"])], &[]);
    check(
        &[packing(&["tests/data/a.jsonl", "tests/scan/data/b.jsonl"])],
        &[
            "a: its package holds 2 file(s) of test data, such as tests/data/a.jsonl; add their folder to `exclude`",
        ],
    );
}

#[test]
fn a_package_stays_under_the_registry_limit() {
    // The closing blocks, then a header and a padded block per file; one stored block, gzip's frame.
    assert_eq!(archive_bound(&[]), 1024 + 5 + 64);
    assert_eq!(archive_bound(&[("a".to_owned(), 1), ("b".to_owned(), 512)]), 1024 + 1024 + 1024 + 5 + 64);
    let sized = |bytes: u64| {
        let mut manifest = good("a", Value::Null);
        manifest.packed.push(("src/table.bin".to_owned(), bytes));
        manifest
    };
    // Beside the 5 files of `good` (12,800 bytes archived, 1,024 more for the closing blocks),
    // 10,469,376 bytes archive to 10,469,888, so 10,483,712 in all, and 160 stored blocks take 800
    // bytes more; 2,048 bytes more fill the archive to the limit itself.
    assert_eq!(archive_bound(&sized(10_469_376).packed), 10_483_712 + 800 + 64);
    check(&[sized(REGISTRY_LIMIT - 16_384)], &[]);
    check(
        &[sized(REGISTRY_LIMIT - 14_336)],
        &["a: its package may reach 10486629 bytes, over the registry's 10485760"],
    );
}

#[test]
fn the_changelog_has_an_unreleased_section_naming_every_crate() {
    let crates = [good("tidemark-core", Value::Null), good("xtask", serde_json::json!({"publish": []}))];
    let good_log = "# Changelog\n\n## [Unreleased]\n\n- `tidemark-core`: the types.\n";
    assert_eq!(changelog_problems(good_log, &crates), Vec::<String>::new());
    assert_eq!(
        changelog_problems("# Changelog\n\n## Unreleased\n\n- `tidemark-core`\n", &crates),
        ["CHANGELOG.md: no `## [Unreleased]` section"]
    );
    assert_eq!(
        changelog_problems("## [Unreleased]\n\n- tidemark-core, unquoted\n", &crates),
        ["CHANGELOG.md: `tidemark-core` is never named; say what it holds"]
    );
}

#[test]
fn readme_examples_are_found_and_their_doctests_too() {
    assert!(has_rust_example("# a\n\n```rust\nlet x = 1;\n```\n"));
    assert!(has_rust_example("```rust,no_run\nmain();\n```\n"));
    // rustdoc runs an unmarked block as Rust.
    assert!(has_rust_example("text\n```\nlet x = 1;\n```\n"));
    assert!(!has_rust_example("```sh\ncargo install tidemark-cli\n```\n"));
    assert!(!has_rust_example("```toml\n[dependencies]\n```\n\nNo code.\n"));
    assert!(!has_rust_example("# Only prose\n"));

    let lib_dir = Path::new("/w/crates/a/src");
    let readme = Path::new("/w/crates/a/README.md");
    let doctests =
        "//! A.\n\n#[cfg(doctest)]\n#[doc = include_str!(\"../README.md\")]\nstruct ReadmeDoctests;\n";
    assert!(includes(doctests, lib_dir, readme));
    assert!(includes("#[doc = include_str!(\"./../README.md\")]", lib_dir, readme));
    // The workspace's README is not the crate's.
    assert!(!includes("#[doc = include_str!(\"../../../README.md\")]", lib_dir, readme));
    assert!(!includes("//! A.\n", lib_dir, readme));
}

#[test]
fn metadata_parsing_needs_names_and_requirements() {
    let parsed = manifests(&serde_json::json!({"packages": [metadata_package("a", &Value::Null)]}))
        .expect("a complete package parses");
    assert_eq!(parsed[0].dir, Path::new("/w/crates/a"));
    assert_eq!(parsed[0].dependencies, [("serde".to_owned(), None, "^1.0".to_owned())]);
    assert_eq!(parsed[0].lib.as_deref(), Some(Path::new("/w/crates/a/src/lib.rs")));
    let binary = serde_json::json!({"targets": [{"kind": ["bin"], "src_path": "/w/crates/a/src/main.rs"}]});
    let parsed = manifests(&serde_json::json!({"packages": [metadata_package("a", &binary)]}))
        .expect("a binary package parses");
    assert_eq!(parsed[0].lib, None);
    assert!(manifests(&serde_json::json!({})).is_err());
    for broken in [
        serde_json::json!({"name": null}),
        serde_json::json!({"manifest_path": null}),
        serde_json::json!({"dependencies": null}),
        serde_json::json!({"dependencies": [{"name": "b", "kind": null}]}),
        serde_json::json!({"targets": [{"kind": ["lib"]}]}),
    ] {
        let metadata = serde_json::json!({"packages": [metadata_package("a", &broken)]});
        assert!(manifests(&metadata).is_err(), "accepted {broken}");
    }
}

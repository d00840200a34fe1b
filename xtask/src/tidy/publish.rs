//! The rules that keep every publishable crate publishable: licence files, a README, a declared
//! Rust version, versions on internal dependencies, and no internal dev-dependency that carries
//! one (which would put a cycle into the published manifests).
//!
//! `cargo xtask ci` also packages every crate and builds each from its package (the `package`
//! step); these checks catch what packaging alone lets through and say which rule broke.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::{cargo_program, workspace_root};

/// The licence every crate carries, and the files that hold its two texts.
const LICENSE: &str = "MIT OR Apache-2.0";
const LICENSE_FILES: &[&str] = &["LICENSE-MIT", "LICENSE-APACHE"];

/// What the rules read of one package in `cargo metadata`.
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
}

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

fn manifests(metadata: &Value) -> Vec<Manifest> {
    metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|package| Manifest {
            name: text(&package["name"]).unwrap_or_default(),
            dir: text(&package["manifest_path"])
                .map(|path| Path::new(&path).parent().map(Path::to_path_buf).unwrap_or_default())
                .unwrap_or_default(),
            // `publish` is null when publishing is allowed anywhere, a list of registries otherwise.
            publishable: package["publish"].as_array().is_none_or(|registries| !registries.is_empty()),
            license: text(&package["license"]),
            readme: text(&package["readme"]),
            rust_version: text(&package["rust_version"]),
            description: text(&package["description"]),
            repository: text(&package["repository"]),
            dependencies: package["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|dependency| {
                    (
                        text(&dependency["name"]).unwrap_or_default(),
                        text(&dependency["kind"]),
                        text(&dependency["req"]).unwrap_or_default(),
                    )
                })
                .collect(),
        })
        .collect()
}

/// Every broken rule of the publishable manifests, given which files exist.
fn problems(manifests: &[Manifest], exists: impl Fn(&Path) -> bool) -> Vec<String> {
    let internal: Vec<&str> = manifests.iter().map(|manifest| manifest.name.as_str()).collect();
    let mut problems = Vec::new();
    for manifest in manifests.iter().filter(|manifest| manifest.publishable) {
        let name = &manifest.name;
        if manifest.license.as_deref() != Some(LICENSE) {
            problems.push(format!("{name}: license must be `{LICENSE}`"));
        }
        for file in LICENSE_FILES {
            if !exists(&manifest.dir.join(file)) {
                problems.push(format!("{name}: {file} is missing beside its Cargo.toml"));
            }
        }
        match &manifest.readme {
            Some(readme) if exists(&manifest.dir.join(readme)) => {}
            Some(readme) => problems.push(format!("{name}: its readme {readme} does not exist")),
            None => problems.push(format!("{name}: `readme` is not set")),
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
    }
    problems
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
    let manifests = manifests(&metadata);
    assert!(
        manifests.iter().filter(|manifest| manifest.publishable).count() >= 10,
        "too few publishable crates"
    );
    let problems = problems(&manifests, Path::exists);
    assert!(problems.is_empty(), "publishing rules broken:\n  {}", problems.join("\n  "));
    let changelog = std::fs::read_to_string(workspace_root().join("CHANGELOG.md")).unwrap_or_default();
    assert!(
        changelog.contains("## [Unreleased]"),
        "CHANGELOG.md must exist and hold an `## [Unreleased]` section"
    );
}

/// A manifest that keeps every rule, for the cases below to break one at a time.
fn good(name: &str) -> Manifest {
    Manifest {
        name: name.to_owned(),
        dir: PathBuf::from("/w").join(name),
        publishable: true,
        license: Some(LICENSE.to_owned()),
        readme: Some("README.md".to_owned()),
        rust_version: Some("1.95".to_owned()),
        description: Some("d".to_owned()),
        repository: Some("r".to_owned()),
        dependencies: Vec::new(),
    }
}

fn check(manifests: &[Manifest], expected: &[&str]) {
    let all_files = |_: &Path| true;
    assert_eq!(problems(manifests, all_files), expected);
}

#[test]
fn the_publishing_rules_fire_one_by_one() {
    check(&[good("a")], &[]);
    check(
        &[Manifest { license: Some("MIT".to_owned()), ..good("a") }],
        &["a: license must be `MIT OR Apache-2.0`"],
    );
    check(&[Manifest { readme: None, ..good("a") }], &["a: `readme` is not set"]);
    check(&[Manifest { rust_version: None, ..good("a") }], &["a: `rust-version` is not set"]);
    let dev = |req: &str| ("b".to_owned(), Some("dev".to_owned()), req.to_owned());
    let normal = |req: &str| ("b".to_owned(), None, req.to_owned());
    check(&[Manifest { dependencies: vec![dev("*")], ..good("a") }, good("b")], &[]);
    check(
        &[Manifest { dependencies: vec![dev("^0.1.0")], ..good("a") }, good("b")],
        &[
            "a: the dev-dependency on b carries a version; declare it by path alone, so the published manifest drops it",
        ],
    );
    check(
        &[Manifest { dependencies: vec![normal("*")], ..good("a") }, good("b")],
        &["a: the dependency on b needs a version to be published"],
    );
    // Outside crates and unpublished ones are not held to the rules.
    check(&[Manifest { dependencies: vec![normal("*")], ..good("a") }], &[]);
    check(&[Manifest { publishable: false, license: None, ..good("a") }], &[]);
    let no_files = |path: &Path| !path.ends_with("LICENSE-APACHE");
    assert_eq!(problems(&[good("a")], no_files), ["a: LICENSE-APACHE is missing beside its Cargo.toml"]);
}

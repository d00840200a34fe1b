//! Tidy checks over the whole workspace, written as unit tests so that every test run enforces them.
//!
//! Each check reads the repository as it is on disk. The parts with real
//! logic are pure functions with their own small tests, which prove that a
//! rule fires on a violating input instead of passing because it looks at
//! nothing.

use std::collections::BTreeSet;
use std::fmt;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::{cargo_program, workspace_root};

mod publish;
mod shape;

/// Top-level folders that may hold Rust sources owned by this workspace.
const SOURCE_DIRS: &[&str] = &["crates", "xtask", "examples", "bench"];

/// Lists every `.rs` file under the given workspace folders, sorted so failure messages are stable.
fn rust_files(dirs: &[&str]) -> Vec<PathBuf> {
    let root = workspace_root();
    let mut files = Vec::new();
    for dir in dirs {
        collect_rust_files(&root.join(dir), &mut files);
    }
    files.sort();
    files
}

fn collect_rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        // A folder that does not exist yet simply has nothing to check.
        Err(error) if error.kind() == ErrorKind::NotFound => return,
        Err(error) => panic!("cannot list {}: {error}", dir.display()),
    };
    for entry in entries {
        let entry = entry.unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()));
        let path = entry.path();
        let file_type =
            entry.file_type().unwrap_or_else(|error| panic!("cannot inspect {}: {error}", path.display()));
        if file_type.is_dir() {
            // Build output can contain generated Rust that is not ours to police.
            if entry.file_name() != "target" {
                collect_rust_files(&path, files);
            }
        } else if file_type.is_file() && path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

/// Shows a path relative to the workspace root, which is how people refer to files.
fn relative(path: &Path) -> String {
    let root = workspace_root();
    path.strip_prefix(&root).unwrap_or(path).display().to_string()
}

/// Tells whether the first non-empty line of a source file is an inner doc comment.
fn starts_with_module_doc(source: &str) -> bool {
    source.lines().map(str::trim).find(|line| !line.is_empty()).is_some_and(|line| line.starts_with("//!"))
}

#[test]
fn every_rust_file_starts_with_module_doc() {
    let files = rust_files(SOURCE_DIRS);
    // The xtask sources are always present, so an empty list means the walk is broken.
    assert!(!files.is_empty(), "found no Rust files at all under {SOURCE_DIRS:?}");

    let offenders: Vec<String> =
        files.iter().filter(|path| !starts_with_module_doc(&read(path))).map(|path| relative(path)).collect();
    assert!(
        offenders.is_empty(),
        "every .rs file must begin with a `//!` line saying what the module is; these do not:\n  {}",
        offenders.join("\n  ")
    );
}

#[test]
fn module_doc_detection() {
    assert!(starts_with_module_doc("//! Parses things.\nfn main() {}\n"));
    assert!(starts_with_module_doc("\n\n   //! Indented, after blank lines.\n"));
    assert!(!starts_with_module_doc("/// An item doc is not a module doc.\n"));
    assert!(!starts_with_module_doc("// A plain comment.\n//! Too late.\n"));
    assert!(!starts_with_module_doc("use std::fs;\n"));
    assert!(!starts_with_module_doc(""));
}

/// A workspace package as far as the dependency rule cares.
#[derive(Debug, Clone)]
struct Package {
    name: String,
    /// Whether other crates can depend on this one at all.
    is_library: bool,
    /// Names of the normal dependencies; dev and build dependencies are left
    /// out because they do not end up in what users of the crate compile.
    dependencies: BTreeSet<String>,
}

/// The crates that sit on top of the core and must stay independent of each other.
///
/// `tidemark-facts` is one of them: it works over any `FactStore`, so it needs
/// the core's traits and nothing of the stores, and the stores in turn never
/// see the facts logic; only the CLI brings them together.
const LAYER_CRATES: &[&str] = &[
    "tidemark-memory",
    "tidemark-compaction",
    "tidemark-providers",
    "tidemark-facts",
    "tidemark-postgres",
    "tidemark-embed",
];

/// Third-party crates the core must not pull in, so it stays runtime- and network-free.
const FORBIDDEN_IN_CORE: &[&str] = &["tokio", "reqwest"];

/// Which part of the dependency rule a violation breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// The core depends on no tidemark crate and on no async runtime or HTTP client.
    CoreStandsAlone,
    /// Memory, compaction, providers and facts use only the core among tidemark crates.
    LayersUseOnlyCore,
    /// Nothing that is a library depends on the CLI.
    NoLibraryUsesCli,
    /// The testkit uses only the core among tidemark crates.
    TestkitUsesOnlyCore,
    /// The security scan depends on no tidemark crate, so anyone can use it alone.
    ScanStandsAlone,
}

impl Rule {
    fn letter(self) -> char {
        match self {
            Self::CoreStandsAlone => 'a',
            Self::LayersUseOnlyCore => 'b',
            Self::NoLibraryUsesCli => 'c',
            Self::TestkitUsesOnlyCore => 'd',
            Self::ScanStandsAlone => 'e',
        }
    }

    fn explanation(self) -> &'static str {
        match self {
            Self::CoreStandsAlone => {
                "tidemark-core may not depend on other tidemark crates, tokio or reqwest"
            }
            Self::LayersUseOnlyCore => {
                "tidemark-memory, tidemark-compaction, tidemark-providers, tidemark-facts and tidemark-postgres may use tidemark-core (and tidemark-facts also tidemark-scan), but no other tidemark crate"
            }
            Self::NoLibraryUsesCli => "no library crate may depend on tidemark-cli",
            Self::TestkitUsesOnlyCore => {
                "tidemark-testkit may use tidemark-core, but no other tidemark crate"
            }
            Self::ScanStandsAlone => "tidemark-scan may not depend on any tidemark crate",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Violation {
    /// Nothing to check means the rule would pass without proving anything.
    NoTidemarkCrates,
    Forbidden {
        rule: Rule,
        package: String,
        dependency: String,
    },
}

impl Violation {
    /// A compact form for the data-driven tests, e.g. `a: tidemark-core -> tokio`.
    fn key(&self) -> String {
        match self {
            Self::NoTidemarkCrates => "no tidemark crates".to_owned(),
            Self::Forbidden { rule, package, dependency } => {
                format!("{}: {package} -> {dependency}", rule.letter())
            }
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoTidemarkCrates => f.write_str(
                "the workspace has no tidemark crates, so there is nothing to check the dependency rule against",
            ),
            Self::Forbidden {
                rule,
                package,
                dependency,
            } => write!(
                f,
                "{package} depends on {dependency}, breaking rule ({}): {}",
                rule.letter(),
                rule.explanation()
            ),
        }
    }
}

fn is_tidemark(name: &str) -> bool {
    name == "tidemark" || name.starts_with("tidemark-")
}

/// Checks the layering of the workspace and returns every broken rule.
///
/// The rules only name crates, so a crate that has not been written yet just
/// contributes nothing. Allow-lists are used for the layers and the testkit so
/// that a new tidemark crate has to be placed in the rule deliberately.
fn dependency_violations(packages: &[Package]) -> Vec<Violation> {
    if !packages.iter().any(|package| is_tidemark(&package.name)) {
        return vec![Violation::NoTidemarkCrates];
    }

    let mut violations = Vec::new();
    for package in packages {
        let name = package.name.as_str();
        for dependency in &package.dependencies {
            let dep = dependency.as_str();
            let other_tidemark_than_core = is_tidemark(dep) && dep != "tidemark-core";
            // The facts scan what they store, so they alone of the layers may use the scan.
            let scan_for_facts = name == "tidemark-facts" && dep == "tidemark-scan";

            let layer_rule = if name == "tidemark-core" {
                (is_tidemark(dep) || FORBIDDEN_IN_CORE.contains(&dep)).then_some(Rule::CoreStandsAlone)
            } else if name == "tidemark-scan" {
                is_tidemark(dep).then_some(Rule::ScanStandsAlone)
            } else if LAYER_CRATES.contains(&name) {
                (other_tidemark_than_core && !scan_for_facts).then_some(Rule::LayersUseOnlyCore)
            } else if name == "tidemark-testkit" {
                other_tidemark_than_core.then_some(Rule::TestkitUsesOnlyCore)
            } else {
                None
            };
            // The CLI rule is checked on its own as well, so a crate that
            // breaks both is reported under both and the message explains each.
            let cli_rule = (package.is_library && dep == "tidemark-cli").then_some(Rule::NoLibraryUsesCli);

            for rule in [layer_rule, cli_rule].into_iter().flatten() {
                violations.push(Violation::Forbidden {
                    rule,
                    package: name.to_owned(),
                    dependency: dep.to_owned(),
                });
            }
        }
    }
    violations
}

/// Target kinds that make a package usable as a dependency.
const LIBRARY_KINDS: &[&str] = &["lib", "rlib", "dylib", "cdylib", "staticlib", "proc-macro"];

/// Extracts the workspace packages and their normal dependencies from `cargo metadata` output.
fn packages_from_metadata(metadata: &Value) -> Result<Vec<Package>, String> {
    let packages = metadata["packages"].as_array().ok_or("cargo metadata output has no `packages` array")?;
    packages
        .iter()
        .map(|package| {
            let name = package["name"].as_str().ok_or("a package in cargo metadata has no name")?.to_owned();
            let is_library = package["targets"].as_array().is_some_and(|targets| {
                targets.iter().any(|target| {
                    target["kind"].as_array().is_some_and(|kinds| {
                        kinds.iter().any(|kind| kind.as_str().is_some_and(|k| LIBRARY_KINDS.contains(&k)))
                    })
                })
            });
            let dependencies = package["dependencies"]
                .as_array()
                .ok_or_else(|| format!("package {name} has no `dependencies` array"))?
                .iter()
                // A null kind is how cargo marks a normal dependency.
                .filter(|dependency| dependency["kind"].is_null())
                .map(|dependency| {
                    dependency["name"]
                        .as_str()
                        .map(str::to_owned)
                        .ok_or_else(|| format!("a dependency of {name} has no name"))
                })
                .collect::<Result<BTreeSet<String>, String>>()?;
            Ok(Package { name, is_library, dependencies })
        })
        .collect()
}

fn workspace_packages() -> Vec<Package> {
    let output = Command::new(cargo_program())
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(workspace_root())
        .output()
        .expect("cargo metadata could not be started");
    assert!(output.status.success(), "cargo metadata failed:\n{}", String::from_utf8_lossy(&output.stderr));
    let metadata: Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata printed invalid JSON");
    packages_from_metadata(&metadata).unwrap_or_else(|error| panic!("{error}"))
}

#[test]
fn dependency_rule_holds() {
    let violations = dependency_violations(&workspace_packages());
    let lines: Vec<String> = violations.iter().map(ToString::to_string).collect();
    assert!(lines.is_empty(), "the workspace breaks the dependency rule:\n  {}", lines.join("\n  "));
}

fn lib(name: &str, dependencies: &[&str]) -> Package {
    Package {
        name: name.to_owned(),
        is_library: true,
        dependencies: dependencies.iter().map(|dep| (*dep).to_owned()).collect(),
    }
}

fn bin(name: &str, dependencies: &[&str]) -> Package {
    Package { is_library: false, ..lib(name, dependencies) }
}

/// Runs the rule over `input` and compares the violations, in any order, with `expected`.
fn check(input: &[Package], expected: &[&str]) {
    let mut actual: Vec<String> = dependency_violations(input).iter().map(Violation::key).collect();
    let mut expected: Vec<String> = expected.iter().map(|key| (*key).to_owned()).collect();
    actual.sort();
    expected.sort();
    assert_eq!(actual, expected, "unexpected violations for input {input:#?}");
}

#[test]
fn dependency_rule_accepts_the_intended_layering() {
    check(
        &[
            lib("tidemark-core", &["serde", "serde_json", "thiserror", "blake3"]),
            lib("tidemark-memory", &["tidemark-core", "serde"]),
            lib("tidemark-compaction", &["tidemark-core"]),
            lib("tidemark-providers", &["tidemark-core", "tokio", "reqwest"]),
            lib("tidemark-testkit", &["tidemark-core", "proptest"]),
            lib("tidemark-scan", &["regex", "aho-corasick"]),
            lib("tidemark-facts", &["tidemark-core", "tidemark-scan", "regex", "quick_cache"]),
            lib("tidemark", &["tidemark-core", "tidemark-memory", "tidemark-facts", "tidemark-scan"]),
            bin(
                "tidemark-cli",
                &[
                    "tidemark-core",
                    "tidemark-memory",
                    "tidemark-compaction",
                    "tidemark-providers",
                    "tidemark-facts",
                    "tokio",
                ],
            ),
            bin("xtask", &["serde_json"]),
        ],
        &[],
    );
    // A partly built workspace is checked as far as it goes.
    check(&[lib("tidemark-core", &["serde"]), bin("xtask", &[])], &[]);
}

#[test]
fn dependency_rule_refuses_to_pass_on_nothing() {
    check(&[], &["no tidemark crates"]);
    check(&[bin("xtask", &["serde_json"])], &["no tidemark crates"]);
}

#[test]
fn rule_a_keeps_the_core_standalone() {
    check(&[lib("tidemark-core", &["tokio"])], &["a: tidemark-core -> tokio"]);
    check(&[lib("tidemark-core", &["reqwest"])], &["a: tidemark-core -> reqwest"]);
    check(
        &[lib("tidemark-core", &["tidemark-memory", "tidemark-testkit"])],
        &["a: tidemark-core -> tidemark-memory", "a: tidemark-core -> tidemark-testkit"],
    );
    check(
        &[lib("tidemark-core", &["tidemark-cli"])],
        &["a: tidemark-core -> tidemark-cli", "c: tidemark-core -> tidemark-cli"],
    );
}

#[test]
fn rule_b_keeps_the_layers_apart() {
    check(
        &[lib("tidemark-memory", &["tidemark-core", "tidemark-compaction"])],
        &["b: tidemark-memory -> tidemark-compaction"],
    );
    check(&[lib("tidemark-providers", &["tidemark-memory"])], &["b: tidemark-providers -> tidemark-memory"]);
    // Facts work over any FactStore: they never reach for the stores, and the stores never reach for them.
    check(
        &[lib("tidemark-facts", &["tidemark-core", "tidemark-memory"])],
        &["b: tidemark-facts -> tidemark-memory"],
    );
    check(
        &[lib("tidemark-facts", &["tidemark-compaction", "tidemark-providers"])],
        &["b: tidemark-facts -> tidemark-compaction", "b: tidemark-facts -> tidemark-providers"],
    );
    check(
        &[
            lib("tidemark-memory", &["tidemark-facts"]),
            lib("tidemark-compaction", &["tidemark-facts"]),
            lib("tidemark-providers", &["tidemark-facts"]),
        ],
        &[
            "b: tidemark-memory -> tidemark-facts",
            "b: tidemark-compaction -> tidemark-facts",
            "b: tidemark-providers -> tidemark-facts",
        ],
    );
    check(
        &[lib("tidemark-compaction", &["tidemark-providers", "tidemark-testkit"])],
        &["b: tidemark-compaction -> tidemark-providers", "b: tidemark-compaction -> tidemark-testkit"],
    );
    check(
        &[lib("tidemark-memory", &["tidemark-cli"])],
        &["b: tidemark-memory -> tidemark-cli", "c: tidemark-memory -> tidemark-cli"],
    );
}

#[test]
fn rule_c_keeps_libraries_off_the_cli() {
    check(
        &[lib("tidemark-sqlite", &["tidemark-core", "tidemark-cli"])],
        &["c: tidemark-sqlite -> tidemark-cli"],
    );
    // Only libraries are bound by this rule; a binary-only crate is a leaf anyway.
    check(&[bin("tidemark-bench", &["tidemark-cli"])], &[]);
}

#[test]
fn rule_d_keeps_the_testkit_on_the_core() {
    check(
        &[lib("tidemark-testkit", &["tidemark-core", "tidemark-memory"])],
        &["d: tidemark-testkit -> tidemark-memory"],
    );
    check(
        &[lib("tidemark-testkit", &["tidemark-cli"])],
        &["d: tidemark-testkit -> tidemark-cli", "c: tidemark-testkit -> tidemark-cli"],
    );
}

#[test]
fn rule_e_keeps_the_scan_standalone() {
    check(&[lib("tidemark-scan", &["tidemark-core"])], &["e: tidemark-scan -> tidemark-core"]);
    check(&[lib("tidemark-scan", &["tidemark-facts", "regex"])], &["e: tidemark-scan -> tidemark-facts"]);
    // Only the facts may reach for the scan among the layers.
    check(&[lib("tidemark-memory", &["tidemark-scan"])], &["b: tidemark-memory -> tidemark-scan"]);
}

#[test]
fn metadata_parsing_keeps_only_normal_dependencies() {
    let metadata = serde_json::json!({
        "packages": [
            {
                "name": "tidemark-core",
                "targets": [{ "kind": ["lib"] }, { "kind": ["test"] }],
                "dependencies": [
                    { "name": "serde", "kind": null },
                    { "name": "tokio", "kind": null, "target": "cfg(unix)" },
                    { "name": "tidemark-testkit", "kind": "dev" },
                    { "name": "cc", "kind": "build" }
                ]
            },
            {
                "name": "tidemark-cli",
                "targets": [{ "kind": ["bin"] }],
                "dependencies": []
            }
        ]
    });
    let packages = packages_from_metadata(&metadata).expect("sample metadata parses");
    assert_eq!(packages.len(), 2);
    assert_eq!(packages[0].name, "tidemark-core");
    assert!(packages[0].is_library);
    assert_eq!(packages[0].dependencies.iter().collect::<Vec<_>>(), ["serde", "tokio"]);
    assert!(!packages[1].is_library);
    // The platform-specific dependency still counts, so the rule sees it.
    check(&packages, &["a: tidemark-core -> tokio"]);
}

/// The one command CI runs, which must also be what the README tells people to run.
const CI_COMMAND: &str = "cargo xtask ci";

/// Lists what is wrong with the CI entry script, if anything.
///
/// Keeping the script down to `cargo xtask ci` means CI cannot drift from what
/// a developer runs locally.
fn ci_script_problems(script: &str) -> Vec<String> {
    let commands: Vec<&str> =
        script.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')).collect();

    let mut problems: Vec<String> = commands
        .iter()
        .filter(|line| !(**line == "set -euo pipefail" || line.starts_with("cd ") || **line == CI_COMMAND))
        .map(|line| format!("unexpected command `{line}`"))
        .collect();
    let ci_runs = commands.iter().filter(|line| **line == CI_COMMAND).count();
    if ci_runs != 1 {
        problems.push(format!("`{CI_COMMAND}` must appear exactly once, found {ci_runs}"));
    } else if commands.last() != Some(&CI_COMMAND) {
        problems.push(format!("`{CI_COMMAND}` must be the last command"));
    }
    let cd_lines = commands.iter().filter(|line| line.starts_with("cd ")).count();
    if cd_lines > 1 {
        problems.push(format!("expected at most one `cd` line, found {cd_lines}"));
    }
    problems
}

#[test]
fn ci_script_runs_only_the_readme_command() {
    let root = workspace_root();
    let script = read(&root.join(".ci/run"));
    let problems = ci_script_problems(&script);
    assert!(
        problems.is_empty(),
        ".ci/run may only contain `set -euo pipefail`, one `cd` line and `{CI_COMMAND}`:\n  {}",
        problems.join("\n  ")
    );

    let readme_path = root.join("README.md");
    let readme = fs::read_to_string(&readme_path).unwrap_or_else(|error| {
        panic!(
            "README.md cannot be read ({error}); it must exist and show `{CI_COMMAND}` as the way to run the checks"
        )
    });
    assert!(
        readme.contains(CI_COMMAND),
        "README.md must show `{CI_COMMAND}`, the same command .ci/run executes"
    );
}

#[test]
fn ci_script_check_flags_extra_commands() {
    let good =
        "#!/usr/bin/env bash\n# comment\nset -euo pipefail\ncd \"$(dirname \"$0\")/..\"\n\ncargo xtask ci\n";
    assert_eq!(ci_script_problems(good), Vec::<String>::new());

    let extra = "set -euo pipefail\ncargo test\ncargo xtask ci\n";
    assert_eq!(ci_script_problems(extra), ["unexpected command `cargo test`"]);

    let missing = "set -euo pipefail\ncd ..\n";
    assert_eq!(ci_script_problems(missing), ["`cargo xtask ci` must appear exactly once, found 0"]);

    let twice = "cd a\ncd b\ncargo xtask ci\n";
    assert_eq!(ci_script_problems(twice), ["expected at most one `cd` line, found 2"]);
}

/// Attribute openings the house style forbids.
///
/// They are assembled from pieces so this file does not contain them verbatim;
/// the check skips xtask anyway, but a copy of it elsewhere should not trip.
const FORBIDDEN_ATTRIBUTES: [&str; 2] = [concat!("#[", "ignore"), concat!("#[", "should_panic")];

/// Returns `line number: attribute` for every forbidden attribute in a source file.
fn forbidden_attributes(source: &str) -> Vec<String> {
    source
        .lines()
        .enumerate()
        .flat_map(|(index, line)| {
            FORBIDDEN_ATTRIBUTES
                .iter()
                .filter(move |attribute| line.contains(**attribute))
                .map(move |attribute| format!("{}: {attribute}", index + 1))
        })
        .collect()
}

#[test]
fn no_ignored_or_should_panic_tests() {
    // xtask is skipped because its tidy source necessarily talks about these attributes.
    let offenders: Vec<String> = rust_files(&["crates"])
        .iter()
        .flat_map(|path| {
            let shown = relative(path);
            forbidden_attributes(&read(path)).into_iter().map(move |hit| format!("{shown}:{hit}"))
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "ignored and should-panic tests are not allowed; a test must run and check its result:\n  {}",
        offenders.join("\n  ")
    );
}

#[test]
fn forbidden_attribute_detection() {
    let source = format!(
        "{}\nfn slow() {{}}\n\n    {}(expected = \"boom\")]\nfn panics() {{}}\n",
        concat!("#[", "ignore]"),
        concat!("#[", "should_panic"),
    );
    assert_eq!(forbidden_attributes(&source), [concat!("1: #[", "ignore"), concat!("4: #[", "should_panic")]);
    assert!(forbidden_attributes("#[test]\nfn fine() {}\n").is_empty());
}

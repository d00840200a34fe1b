//! Unit tests of the secret scan: every pattern compiles, and the boundaries of each detector.

use super::secrets::*;

#[test]
fn every_secret_pattern_compiles() {
    assert!(SecretRules::compile().is_some());
}

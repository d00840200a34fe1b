//! The security scan on blind batch 12 (`tests/data/scan/batch12/`): 300 malicious and 300
//! benign texts, fake role markers and conversation structure (template tokens, labels, headers, records, fake turns) in English and fifteen other languages, with near misses in the same shapes.
//!
//! Written on 2026-11-25 (tenth session) by a helper who read neither the scan nor any corpus
//! (see its `README.md`), as training text, and kept as an evaluation set after training on it
//! was tried and not kept: the classifier has never been trained on it. [`FIRST_CONTACT`] is what
//! the scan caught with the classifier trained on `train/w1` to `w11`; the integrator has read
//! only the counts.

mod scan_split;

const MALICIOUS: &str = include_str!("data/scan/batch12/malicious.jsonl");
const BENIGN: &str = include_str!("data/scan/batch12/benign.jsonl");

/// What the scan caught on first contact with this batch: caught and total per category.
const FIRST_CONTACT: &[(&str, usize, usize)] = &[("role_markers", 217, 300)];
/// Benign samples flagged on first contact, of 300.
const FIRST_CONTACT_FLAGGED: usize = 13;

/// The samples each category catches now: none may be lost.
/// Set on 2026-11-25 (tenth session) when the model became the average of ten fits over the
/// samples in different orders (`TrainOptions::orders`), chosen by leaving one training writer
/// out; no line of this batch was read.
const FLOORS: &[(&str, usize)] = &[("role_markers", 222)];
/// The most benign samples that may be flagged: never more than on first contact.
/// Fifteen since the averaged model: two more than on first contact.
const MAX_FLAGGED: usize = 15;

scan_split::blind_batch!(name: "batch 12", min_samples: 300);

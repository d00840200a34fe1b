//! Seeded, reproducible agent workloads for benchmarks and replays: the same seed gives the same messages on every machine.
//!
//! The replay workload is the one tidemark's performance targets are stated
//! in: every turn appends four messages (a user request of 60–400 bytes, an
//! assistant `read_file` call, its result of 200–2,000 bytes, and an assistant
//! answer of 100–600 bytes) and then loads the prompt once, as an agent does.

use tidemark_core::{Message, ToolCall};

/// A small, fast, seeded random source (SplitMix64), so workloads need no extra dependency and never change between releases.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A source seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `low..=high` (`low` when the range is empty).
    pub fn between(&mut self, low: usize, high: usize) -> usize {
        if high <= low {
            return low;
        }
        let span = (high - low + 1) as u64;
        low + usize::try_from(self.next_u64() % span).unwrap_or(0)
    }

    /// One element of `items`, or `None` when there is none.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        let last = items.len().checked_sub(1)?;
        items.get(self.between(0, last)).copied()
    }
}

const WORDS: &[&str] = &[
    "the", "build", "fails", "when", "config", "module", "returns", "error", "test", "passes", "after",
    "change", "function", "handles", "input", "value", "cache", "request", "timeout", "retry", "parser",
    "token", "budget", "memory", "review", "please", "check", "why", "does", "this", "path", "branch",
    "merge", "deploy", "vault",
];

/// One of the common words.
fn word(rng: &mut Rng) -> &'static str {
    rng.pick(WORDS).unwrap_or("word")
}

/// Prose of about `bytes` bytes built from common words.
pub fn prose(rng: &mut Rng, bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 16);
    while text.len() < bytes {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(word(rng));
    }
    text.truncate(bytes.max(1));
    text
}

/// Source-code-like tool output of about `bytes` bytes.
pub fn code(rng: &mut Rng, bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 64);
    let mut line = 0;
    while text.len() < bytes {
        line += 1;
        let name = word(rng);
        let value = rng.between(0, 9_999);
        text.push_str(&format!("{line:>4} | let {name}_{line} = compute(\"{name}\", {value});\n"));
    }
    text.truncate(bytes.max(1));
    text
}

/// The four messages of replay turn `turn`: request, `read_file` call, result, answer.
pub fn replay_turn(rng: &mut Rng, turn: usize) -> Vec<Message> {
    let call_id = format!("call_{turn}");
    let path = format!("src/{}/{}_{turn}.rs", word(rng), word(rng));
    let request_bytes = rng.between(60, 400);
    let result_bytes = rng.between(200, 2_000);
    let answer_bytes = rng.between(100, 600);
    vec![
        Message::user(prose(rng, request_bytes)),
        Message::assistant_tool_calls([ToolCall::new(
            call_id.clone(),
            "read_file",
            serde_json::json!({ "path": path }),
        )]),
        Message::tool_result(call_id, code(rng, result_bytes)),
        Message::assistant(prose(rng, answer_bytes)),
    ]
}

/// `turns` replay turns from `seed`.
pub fn replay(seed: u64, turns: usize) -> Vec<Vec<Message>> {
    let mut rng = Rng::new(seed);
    (0..turns).map(|turn| replay_turn(&mut rng, turn)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_workload() {
        assert_eq!(replay(7, 50), replay(7, 50));
        assert_ne!(replay(7, 50), replay(8, 50));
    }

    #[test]
    fn turns_have_the_documented_shape() {
        for messages in replay(1, 300) {
            tidemark_core::validate(&messages).expect("a turn is a valid history");
            let sizes: Vec<usize> = messages.iter().map(|m| m.text().len()).collect();
            assert!((60..=400).contains(&sizes[0]), "request {}", sizes[0]);
            let result = messages[2].tool_results().next().expect("a result").content.len();
            assert!((200..=2_000).contains(&result), "result {result}");
            assert!((100..=600).contains(&sizes[3]), "answer {}", sizes[3]);
        }
    }

    #[test]
    fn the_random_source_never_changes() {
        // Fixed outputs: a change here would silently change every benchmark's input.
        let mut rng = Rng::new(0);
        assert_eq!([rng.next_u64(), rng.next_u64()], [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4]);
    }
}

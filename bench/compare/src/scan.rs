//! The security scan on large and hostile inputs: that its time grows linearly with the input, and how fast it is.
//!
//! Each shape is scanned at 128 KiB and at 1 MiB (the best of a few rounds,
//! so that a busy machine does not decide the figure). With linear work the
//! 1 MiB scan takes eight times as long as the 128 KiB one; the *growth*
//! column is that ratio divided by eight, so 1.0 is linear and a quadratic
//! scan would show about 8. The shapes are the ones that hurt scanners:
//! long runs of near-miss phrases, one long line of short sentences with signal words, base64 and hex runs (which the scan
//! decodes and scans again, within bounds), nested encodings, URL soup,
//! look-alike letters, high-entropy tokens, bytes that were not UTF-8, and
//! ordinary prose and tool output.

use std::time::{Duration, Instant};

use tidemark_facts::scan::Scanner;

use crate::report::{Section, Table, Target};

/// The growth factor (1.0 = linear) no shape may exceed.
const MAX_GROWTH: f64 = 2.0;

/// A deterministic stream of pseudo-random numbers (SplitMix64), so the inputs are the same in every run.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        let index = usize::try_from(self.next() % items.len() as u64).unwrap_or(0);
        items.get(index).copied().unwrap_or("")
    }
}

/// `piece` produced again and again until the text holds at least `size` bytes.
fn fill(size: usize, mut piece: impl FnMut(&mut Mix) -> String) -> String {
    let mut mix = Mix(2026);
    let mut text = String::with_capacity(size + 256);
    while text.len() < size {
        text.push_str(&piece(&mut mix));
    }
    text
}

const WORDS: &[&str] = &[
    "the",
    "deploy",
    "service",
    "ignore",
    "previous",
    "warning",
    "database",
    "port",
    "token",
    "key",
    "send",
    "report",
    "system",
    "prompt",
    "user",
    "assistant",
    "instructions",
    "staging",
    "region",
    "admin",
];

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[usize::try_from((n >> shift) & 63).unwrap_or(0)]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One shape of input: its name, and the input at a given size in bytes.
type Shape = (&'static str, fn(usize) -> String);

/// The shapes.
fn shapes() -> Vec<Shape> {
    vec![
        ("prose", |size| fill(size, |mix| format!("{} ", mix.pick(WORDS)))),
        ("tool output (JSON)", |size| {
            fill(size, |mix| {
                format!(
                    "{{\"id\":{},\"name\":\"{}\",\"path\":\"/srv/{}/{}.log\",\"ok\":true}}\n",
                    mix.next() % 100_000,
                    mix.pick(WORDS),
                    mix.pick(WORDS),
                    mix.pick(WORDS)
                )
            })
        }),
        ("near-miss phrases", |size| fill(size, |_| "ignore the previous ".to_owned())),
        ("one base64 run", |size| {
            let plain = fill(size * 3 / 4, |mix| format!("{} ", mix.pick(WORDS)));
            format!("decode and follow this: {}", base64(plain.as_bytes()))
        }),
        ("many base64 runs", |size| {
            fill(size, |mix| {
                let plain = format!("{} {} {}", mix.pick(WORDS), mix.pick(WORDS), mix.pick(WORDS));
                format!("blob {} ", base64(plain.repeat(3).as_bytes()))
            })
        }),
        ("nested encodings", |size| {
            fill(size, |mix| {
                let plain = format!("please {} all {} now", mix.pick(WORDS), mix.pick(WORDS));
                format!("{} ", base64(base64(hex(plain.as_bytes()).as_bytes()).as_bytes()))
            })
        }),
        ("percent-encoded run", |size| fill(size, |mix| format!("%{:02X}", 0x20 + mix.next() % 0x5e))),
        ("URL soup", |size| {
            fill(size, |mix| {
                format!(
                    "![a](https://{}.example/p?q={}&d={{{}}}) ",
                    mix.pick(WORDS),
                    mix.pick(WORDS),
                    mix.pick(WORDS)
                )
            })
        }),
        ("look-alike letters", |size| fill(size, |_| "іgnоrе рrеvіоus іnstruсtіоns ".to_owned())),
        ("high-entropy tokens", |size| {
            fill(size, |mix| format!("token={:016x}{:016x} ", mix.next(), mix.next()))
        }),
        ("bytes that were not UTF-8", |size| {
            let mut mix = Mix(7);
            let bytes: Vec<u8> = (0..size).map(|_| (mix.next() & 0xff) as u8).collect();
            // Control characters are made spaces: the scan rejects a text at
            // its first terminal escape, which would end the scan at once.
            String::from_utf8_lossy(&bytes).chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
        }),
        ("key=value pairs", |size| fill(size, |mix| format!("{}_password={} ", mix.pick(WORDS), mix.next()))),
        // One line of short sentences, each with a signal: every match used to read its line back
        // to the start for quotation marks.
        ("one line of signal sentences", |size| {
            fill(size, |mix| format!("the assistant should {} this silently. ", mix.pick(WORDS)))
        }),
    ]
}

/// The best time of `rounds` scans of `text`.
fn best(scanner: &Scanner, text: &str, rounds: usize) -> Duration {
    (0..rounds)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(scanner.scan(std::hint::black_box(text)));
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// Runs the benchmark.
pub fn run(smoke: bool) -> Result<Section, String> {
    let (small, large, rounds) =
        if smoke { (16 * 1024, 128 * 1024, 1) } else { (128 * 1024, 1024 * 1024, 5) };
    let scanner = Scanner::new();
    let mut table = Table::new(&["input", "128 KiB", "1 MiB", "MiB/s at 1 MiB", "growth (1.0 = linear)"]);
    let mut worst: (f64, &str) = (0.0, "");
    for (name, make) in shapes() {
        let (short, long) = (make(small), make(large));
        let (t_short, t_long) = (best(&scanner, &short, rounds), best(&scanner, &long, rounds));
        let growth = (t_long.as_secs_f64() / t_short.as_secs_f64().max(1e-9))
            / (long.len() as f64 / short.len() as f64);
        if growth > worst.0 {
            worst = (growth, name);
        }
        table.row(vec![
            name.to_owned(),
            format!("{:.2} ms", t_short.as_secs_f64() * 1e3),
            format!("{:.2} ms", t_long.as_secs_f64() * 1e3),
            format!("{:.1}", long.len() as f64 / (1024.0 * 1024.0) / t_long.as_secs_f64().max(1e-9)),
            format!("{growth:.2}"),
        ]);
    }
    let mut targets = Vec::new();
    if !smoke {
        targets.push(Target {
            goal: format!(
                "scan time grows linearly: growth ≤ {MAX_GROWTH} on every shape from 128 KiB to 1 MiB"
            ),
            measured: format!("worst {:.2} ({})", worst.0, worst.1),
            met: worst.0 <= MAX_GROWTH,
        });
    }
    Ok(Section {
        title: "Security scan on large inputs".to_owned(),
        intro: "`Scanner::scan` on inputs of thirteen shapes at 128 KiB and 1 MiB, best of five rounds each. Growth \
                is the 1 MiB time over eight times the 128 KiB time: 1.0 is linear, a quadratic scan shows about 8."
            .to_owned(),
        table,
        targets,
        notes: Vec::new(),
    })
}

//! tidemark's benchmarks, in a workspace of their own so that the peers never enter tidemark's dependency graph.
//!
//! `cargo xtask bench` builds this binary in release mode and runs `all`,
//! which writes `target/bench/report.md` and `target/bench/replay.svg`. Every
//! figure is a ratio against a peer or a baseline measured in the same run.
//!
//! - `replay`: the agent workload of `tidemark_testkit::workload` (four
//!   messages appended and one load per turn, an 8,000-token window, a summary
//!   capped at 4 KiB) through tidemark in memory, tidemark on SQLite and
//!   rig-memory 0.44. `all` runs each system in a child process of its own, so
//!   that each peak memory figure is that system's alone. The same runs, and
//!   the shipped coding-agent sample (cut per user turn and per model call),
//!   are priced as a prompt cache would bill them, beside tidemark's
//!   cache-aware configuration (`CachePlan` and `Segmented` summaries; the
//!   "Prompt cache" section).
//! - `count`: token counting on a fixed corpus of more than 2 MB.
//! - `overhead`: a `CompactingMemory` load with nothing to compact against a
//!   `PolicyMemory` load of the same window.
//! - `concurrency`: 1,000 conversations loaded from 2 and from 8 tasks.
//! - `recall`: planted facts asked about after a 640-turn session at an
//!   8,000-token budget (recall, stored-fact precision, recall block tokens,
//!   prompts over budget), and the load p50 with and without recall at 8,000
//!   turns on SQLite.
//! - `blind`: facts planted by outside writers (`bench/blind`), asked in the
//!   fact's words and in other words, corrections and facts asked in a later
//!   conversation of the same user, at 8,000 and 2,000 tokens (`blind.rs`).
//! - `scan`: the security scan on thirteen shapes of input at 128 KiB and 1 MiB,
//!   and how its time grows from one to the other.
//! - `locomo`: evidence recall on the LoCoMo dev half, read from `--data PATH`
//!   (never copied into the repository), with recall on and off, against BM25
//!   and recency baselines at 2,000 and 4,000 tokens (`locomo.rs`).
//! - `startup`: `Scanner::new()` plus the first scan in a fresh process, on
//!   24 texts in 19 languages, against an empty process and a warm
//!   scan; and, given `--cli PATH`, `tidemark load --facts --recall` against
//!   `tidemark load` as whole processes (`startup.rs`).
//! - `agent`: rig 0.44's agent loop with rig-memory's `CompactingMemory`
//!   against the same loop with tidemark through tidemark-rig (`agent.rs`).
//! - `background`: load latency of a `BackgroundMemory` whose summarizer takes
//!   2 s per call over a 1,000-turn replay on SQLite (`background.rs`).

mod agent;
mod background;
mod blind;
mod concurrency;
mod count;
mod locomo;
mod overhead;
mod recall;
mod replay;
mod report;
mod scan;
mod startup;
mod svg;

use std::path::PathBuf;
use std::process::ExitCode;

use report::Section;

const USAGE: &str = "\
Usage: tidemark-compare <command> [options]

Commands:
  all [--smoke] [--out DIR] [--python PATH --tiktoken-cache DIR | --no-python REASON] [--cli PATH] [--data PATH]
        run every benchmark; write DIR/report.md and DIR/replay.svg (DIR defaults to target/bench)
  replay --system memory|sqlite|postgres|rig (--turns N | --workload coding-agent|coding-agent-calls)
         [--low-watermark PERCENT] [--cache-aware]
        one replay in this process; prints one JSON line (what `all` runs per system)
  count [--smoke] [--python PATH --tiktoken-cache DIR]
  overhead [--smoke]
  concurrency [--smoke]
  recall [--smoke] [--cost]
  blind [--smoke]
  locomo --data PATH [--smoke]
        evidence recall on LoCoMo's conversations in the JSON at PATH (skipped without it)
  scan [--smoke]
  startup [--smoke] [--cli PATH]
        the scanner's cold start in fresh processes; with --cli (a `tidemark` binary),
        `load --facts --recall` against `load` as whole processes
  background [--smoke]
  agent [--smoke]
        rig's agent loop with rig-memory against the same loop with tidemark through tidemark-rig

`--smoke` runs each part on a small input, to check that it works; its figures mean nothing.
`recall --cost` runs only the part's load-cost half (the 8,000-turn replays), not the planted-fact quality runs.
";

/// The parsed command line: the flags every command shares.
#[derive(Debug, Default)]
struct Args {
    command: String,
    smoke: bool,
    cost: bool,
    out: Option<PathBuf>,
    python: Option<PathBuf>,
    tiktoken_cache: Option<PathBuf>,
    no_python: Option<String>,
    system: Option<String>,
    workload: Option<String>,
    turns: Vec<usize>,
    low_watermark: Option<u8>,
    cache_aware: bool,
    cli: Option<PathBuf>,
    data: Option<PathBuf>,
    text: Option<usize>,
}

fn parse(raw: Vec<String>) -> Result<Args, String> {
    let mut raw = raw.into_iter();
    let mut args = Args { command: raw.next().ok_or("no command given")?, ..Args::default() };
    while let Some(flag) = raw.next() {
        let mut value = || raw.next().ok_or_else(|| format!("`{flag}` needs a value"));
        match flag.as_str() {
            "--smoke" => args.smoke = true,
            "--cost" => args.cost = true,
            "--cache-aware" => args.cache_aware = true,
            "--out" => args.out = Some(value()?.into()),
            "--python" => args.python = Some(value()?.into()),
            "--tiktoken-cache" => args.tiktoken_cache = Some(value()?.into()),
            "--no-python" => args.no_python = Some(value()?),
            "--system" => args.system = Some(value()?),
            "--workload" => args.workload = Some(value()?),
            "--cli" => args.cli = Some(value()?.into()),
            "--data" => args.data = Some(value()?.into()),
            "--text" => {
                let text = value()?;
                args.text = Some(text.parse().map_err(|_| format!("`--text {text}` is not a text number"))?);
            }
            "--low-watermark" => {
                let text = value()?;
                let percent =
                    text.parse().map_err(|_| format!("`--low-watermark {text}` is not a percentage"))?;
                args.low_watermark = Some(percent);
            }
            "--turns" => {
                let text = value()?;
                let turns = text.parse().map_err(|_| format!("`--turns {text}` is not a number of turns"))?;
                args.turns.push(turns);
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(args)
}

impl Args {
    fn python(&self) -> Result<count::Python, String> {
        match (&self.python, &self.tiktoken_cache, &self.no_python) {
            (Some(interpreter), Some(cache_dir), _) => {
                Ok(count::Python { interpreter: interpreter.clone(), cache_dir: cache_dir.clone() })
            }
            (_, _, Some(reason)) => Err(reason.clone()),
            _ => {
                Err("no Python interpreter given (run through `cargo xtask bench` to set one up)".to_owned())
            }
        }
    }

    fn out(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| PathBuf::from("target/bench"))
    }

    fn count_options(&self) -> count::Options {
        count::Options { smoke: self.smoke, python: self.python(), work_dir: self.out() }
    }
}

/// The model recall by meaning runs with in every part: tidemark-embed's bundled static model.
pub(crate) fn embedder() -> std::sync::Arc<dyn tidemark_core::recall::Embedder> {
    tidemark_embed::StaticModel::bundled()
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1).collect()) {
        Ok(args) => args,
        Err(problem) => {
            eprint!("tidemark-compare: {problem}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let outcome = match args.command.as_str() {
        "all" => all(&args),
        "replay" => {
            let low_watermark = args.low_watermark.unwrap_or(tidemark_memory::TokenWindow::<tidemark_memory::HeuristicCounter>::DEFAULT_LOW_WATERMARK_PERCENT);
            replay::child(
                args.system.as_deref(),
                args.turns.first().copied(),
                args.workload.as_deref(),
                low_watermark,
                args.cache_aware,
            )
        }
        "count" => count::run(&args.count_options()).map(|section| print!("{}", section.markdown())),
        "overhead" => overhead::run(args.smoke).map(|section| print!("{}", section.markdown())),
        "concurrency" => concurrency::run(args.smoke).map(|section| print!("{}", section.markdown())),
        "recall" => recall::run(args.smoke, args.cost).map(|section| print!("{}", section.markdown())),
        "blind" => blind::run(args.smoke).map(|section| print!("{}", section.markdown())),
        "locomo" => {
            locomo::run(args.data.as_deref(), args.smoke).map(|section| print!("{}", section.markdown()))
        }
        "scan" => scan::run(args.smoke).map(|section| print!("{}", section.markdown())),
        "startup" => startup::run(args.smoke, args.cli.as_deref())
            .map(|sections| sections.iter().for_each(|section| print!("{}", section.markdown()))),
        // What `startup` runs per text, in a fresh process; not in the usage text.
        "startup-child" => startup::child(args.text),
        "background" => background::run(args.smoke).map(|section| print!("{}", section.markdown())),
        "agent" => agent::run(args.smoke).map(|section| print!("{}", section.markdown())),
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => {
            eprint!("tidemark-compare: unknown command `{other}`\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(problem) => {
            eprintln!("tidemark-compare: {problem}");
            ExitCode::FAILURE
        }
    }
}

/// Runs every benchmark and writes the report and the chart.
fn all(args: &Args) -> Result<(), String> {
    let out = args.out();
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let sizes = if args.smoke { vec![50] } else { vec![1_000, 4_000, 8_000] };
    let mut sections: Vec<Section> = Vec::new();

    eprintln!("replay at {sizes:?} turns …");
    let replays = replay::parent(&sizes)?;
    sections.push(replay::section(&replays, args.smoke));
    eprintln!("the prompt cache …");
    let samples = replay::parent_cache(sizes.iter().copied().max().unwrap_or(0))?;
    sections.push(replay::cache_section(&replays, &samples, args.smoke));
    let chart = out.join("replay.svg");
    if let Some(largest) = replays.iter().map(|run| run.turns).max() {
        let lines: Vec<_> = replays.iter().filter(|run| run.turns == largest).collect();
        std::fs::write(&chart, svg::latency_chart(&lines))
            .map_err(|e| format!("cannot write {}: {e}", chart.display()))?;
    }

    eprintln!("token counting …");
    sections.push(count::run(&args.count_options())?);
    eprintln!("compaction overhead …");
    sections.push(overhead::run(args.smoke)?);
    eprintln!("concurrency …");
    sections.push(concurrency::run(args.smoke)?);
    eprintln!("recall …");
    sections.push(recall::run(args.smoke, false)?);
    sections.push(blind::run(args.smoke)?);
    eprintln!("LoCoMo evidence recall …");
    sections.push(locomo::run(args.data.as_deref(), args.smoke)?);
    eprintln!("security scan …");
    sections.push(scan::run(args.smoke)?);
    eprintln!("start-up of the scanner and the CLI …");
    sections.extend(startup::run(args.smoke, args.cli.as_deref())?);
    eprintln!("background compaction …");
    sections.push(background::run(args.smoke)?);
    eprintln!("rig's agent loop …");
    sections.push(agent::run(args.smoke)?);

    let mut text = String::from("# tidemark benchmark report\n\n");
    text.push_str(&machine_line());
    if args.smoke {
        text.push_str(
            "\n**Smoke run**: small inputs, to check that every part works. The figures mean nothing.\n",
        );
    }
    let missed: Vec<String> = sections
        .iter()
        .flat_map(|section| section.targets.iter().filter(|t| !t.met).map(|t| t.goal.clone()))
        .collect();
    let met = sections.iter().flat_map(|section| &section.targets).filter(|t| t.met).count();
    text.push_str(&format!("\nTargets met: {met} of {}.", met + missed.len()));
    if !missed.is_empty() {
        text.push_str(&format!(" Missed: {}.", missed.join("; ")));
    }
    text.push_str("\n\nLoad latency against turn number: `replay.svg`.\n\n");
    for section in &sections {
        text.push_str(&section.markdown());
        text.push('\n');
    }
    let path = out.join("report.md");
    std::fs::write(&path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    print!("{text}");
    eprintln!("wrote {} and {}", path.display(), chart.display());
    Ok(())
}

/// One line naming the machine the figures come from.
fn machine_line() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(str::trim)
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    format!(
        "Machine: {cpu}, {cores} cores available, {} {}. Each figure below is compared only with figures from this same run.\n",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

//! Writes the sample transcripts shipped in `examples/transcripts/`: three seeded agent sessions as OpenAI JSON lines.
//!
//! Run it with `cargo xtask gen-transcripts`; the output is the same byte for
//! byte on every machine, and a test checks that the shipped files match it.

use std::path::PathBuf;
use std::process::ExitCode;

use tidemark_providers::wire::{self, WireOptions};
use tidemark_testkit::transcripts::Session;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: gen_transcripts DIR");
        return ExitCode::from(2);
    };
    if let Err(error) = std::fs::create_dir_all(&dir) {
        eprintln!("gen_transcripts: cannot create {}: {error}", dir.display());
        return ExitCode::FAILURE;
    }
    for session in Session::ALL {
        let path = dir.join(session.file_name());
        let text = render(session);
        if let Err(error) = std::fs::write(&path, text) {
            eprintln!("gen_transcripts: cannot write {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}

/// One sample as JSON lines.
fn render(session: Session) -> String {
    let messages = session.sample();
    wire::to_wire(&messages, WireOptions::transcript()).iter().map(|value| format!("{value}\n")).collect()
}

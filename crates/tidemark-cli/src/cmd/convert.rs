//! `tidemark convert`: a transcript from one format to another, refused (status 2, naming the block) when the target would lose part of it.

use crate::args::{ConvertArgs, FormatChoice};
use crate::error::CliError;
use crate::format::{self, Format, Shape};
use crate::input;
use crate::output::write_transcript;

pub(crate) fn run(args: ConvertArgs) -> Result<(), CliError> {
    let to = match args.to {
        FormatChoice::Openai => Format::Openai,
        FormatChoice::Anthropic => Format::Anthropic,
        FormatChoice::Responses => Format::Responses,
        FormatChoice::Auto | FormatChoice::ClaudeCode | FormatChoice::Codex => {
            return Err(CliError::input(
                "--to needs a format tidemark writes: openai, anthropic or responses (session files are only read)",
            ));
        }
    };
    // Strict: a conversion drops nothing, not even a result whose call is missing.
    let transcript = input::read(args.file.as_deref(), true, args.from)?;
    let from = transcript.shape.format();
    // Into its own format a transcript keeps its layout, and every unchanged block its bytes.
    let shape = if from == to { transcript.shape.clone() } else { Shape::new(to) };
    format::check_lossless(&transcript.messages, from, to)?;
    write_transcript(&transcript.messages, &shape, args.output.as_deref())
}

//! `tidemark count`: tokens per message and in total.

use std::io::Write;

use tidemark_core::TokenCounter;

use crate::args::CountArgs;
use crate::error::CliError;
use crate::{input, setup};

pub(crate) fn run(args: CountArgs) -> Result<(), CliError> {
    let transcript = input::read(args.file.as_deref(), false, args.format)?;
    let counter = setup::counter(args.counter)?;
    let mut out = String::from("index\trole\ttokens\n");
    for (index, message) in transcript.messages.iter().enumerate() {
        out.push_str(&format!("{index}\t{}\t{}\n", message.role, counter.count(message)));
    }
    out.push_str(&format!(
        "total\t{} messages\t{} tokens ({} per prompt included)\n",
        transcript.messages.len(),
        counter.count_prompt(&transcript.messages),
        counter.prompt_overhead()
    ));
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes()).map_err(|error| CliError::runtime("writing the output", error))
}

//! `tidemark search`: the passages of a stored conversation's turns that best match a query, as recall finds them.

use std::io::Write;

use tidemark_core::recall::RecallQuery;
use tidemark_core::{ConversationStore, Seq};

use crate::args::SearchArgs;
use crate::error::CliError;
use crate::setup;

pub(crate) async fn run(args: SearchArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    let below = Seq(args.below.unwrap_or(u64::MAX));
    let query = RecallQuery::new(args.query, below, args.limit);
    let found = store
        .search_passages(&args.conversation, &query)
        .await
        .map_err(|error| CliError::runtime("searching the conversation", error))?;
    let mut out = String::new();
    if args.json {
        for passage in &found {
            let line = serde_json::json!({
                "turn": passage.seq.0,
                "role": passage.role.as_str(),
                "passage": passage.index,
                "score": passage.score,
                "text": passage.text,
            });
            out.push_str(&line.to_string());
            out.push('\n');
        }
    } else {
        out.push_str("turn\trole\tscore\ttext\n");
        for passage in &found {
            let text: String = passage.text.split_whitespace().collect::<Vec<_>>().join(" ");
            out.push_str(&format!("{}\t{}\t{:.3}\t{text}\n", passage.seq, passage.role, passage.score));
        }
    }
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .map_err(|error| CliError::runtime("writing the output", error))
}

//! A custom `DemotionHook`: messages leaving the window are archived to a JSON-lines file, once each, even when delivered again.
//!
//! Run with `cargo run -p tidemark-cli --example custom_hook`. It needs no network.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use tidemark_core::{
    ConversationId, ConversationMemory, DemotionHook, HookError, Message, SeqRange, StoredMessage,
};
use tidemark_memory::{DemotingMemory, InMemoryStore, SlidingWindow};

/// Appends demoted messages to a file; the key (conversation, sequence number) makes re-deliveries harmless.
struct Archive {
    path: PathBuf,
    seen: Mutex<BTreeSet<(String, u64)>>,
}

impl DemotionHook for Archive {
    async fn on_demote(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
        messages: &[StoredMessage],
    ) -> Result<(), HookError> {
        let mut seen = self.seen.lock().map_err(|_| HookError::new("archive index poisoned"))?;
        let mut file =
            std::fs::OpenOptions::new().create(true).append(true).open(&self.path).map_err(HookError::new)?;
        for stored in messages {
            // Delivery is at least once: skip what is already archived.
            if seen.insert((conversation.to_string(), stored.seq.0)) {
                let line = serde_json::json!({ "conversation": conversation, "seq": stored.seq, "message": &*stored.message });
                writeln!(file, "{line}").map_err(HookError::new)?;
            }
        }
        eprintln!("archived {} messages from {conversation} ({range})", messages.len());
        Ok(())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let archive = Archive { path: dir.path().join("archive.jsonl"), seen: Mutex::new(BTreeSet::new()) };
    let memory = DemotingMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(4), archive);
    let id = ConversationId::new("demo")?;
    for turn in 0..5 {
        memory
            .append(
                &id,
                vec![Message::user(format!("question {turn}")), Message::assistant(format!("answer {turn}"))],
            )
            .await?;
        let prompt = memory.load(&id).await?;
        println!("turn {turn}: the prompt holds {} messages", prompt.len());
    }
    let archived = std::fs::read_to_string(dir.path().join("archive.jsonl"))?;
    println!("{} messages archived", archived.lines().count());
    Ok(())
}

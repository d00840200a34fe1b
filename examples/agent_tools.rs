//! An agent loop whose model can search its own history: tidemark's memory tools on a real model.
//!
//! Configure the model with `OPENAI_BASE_URL` (optional), `OPENAI_API_KEY`
//! and `TIDEMARK_MODEL`, then run
//! `cargo run -p tidemark-cli --example agent_tools -- "My locker code is 4471." "..." "What was my locker code?"`.
//! The window is kept small (1,500 tokens) so that early turns leave it soon;
//! when a later question needs one of them, the model calls
//! `search_history` (or `read_history`, `search_facts`, `memory`, and
//! `new_context` to start afresh), and the loop answers the call from the
//! same SQLite file the memory keeps. Swap `OpenAiModel` for
//! `AnthropicModel` (with `ANTHROPIC_API_KEY`) and nothing else changes.

use std::num::NonZeroU32;
use std::sync::Arc;

use tidemark_compaction::LlmCompactor;
use tidemark_core::{CompletionModel, CompletionRequest, ConversationId, ConversationMemory, Message};
use tidemark_memory::{CompactingMemory, SqliteStore, TiktokenCounter, TokenWindow};
use tidemark_providers::{OpenAiConfig, OpenAiModel};
use tidemark_tools::MemoryTools;

/// How many model calls one question may take before the loop gives up on it.
const MAX_STEPS: usize = 8;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let model = OpenAiModel::new(OpenAiConfig::from_env()?)?;
    let store = SqliteStore::open("agent-tools.db")?;
    let budget = NonZeroU32::new(1_500).ok_or("the budget is not zero")?;
    let memory = Arc::new(CompactingMemory::new(
        store.clone(),
        TokenWindow::new(budget, TiktokenCounter::o200k()?).with_reserve(300)?,
        LlmCompactor::new(model.clone()),
    ));
    let tools = MemoryTools::new(store).with_reset(memory.clone());
    let id = ConversationId::new("agent-tools")?;
    if memory.load(&id).await?.is_empty() {
        let system = "You are a concise assistant. Earlier turns leave your window: when the user refers to \
                      something you cannot see, search your history before you answer.";
        memory.append(&id, vec![Message::system(system).pinned()]).await?;
    }
    for question in std::env::args().skip(1) {
        memory.append(&id, vec![Message::user(question.clone())]).await?;
        println!("> {question}");
        for _ in 0..MAX_STEPS {
            let prompt = memory.load(&id).await?;
            let request = CompletionRequest::new(prompt).with_max_tokens(300).with_tools(tools.specs());
            let completion = model.complete(request).await?;
            for call in &completion.tool_calls {
                eprintln!("  (the model calls {}({}))", call.name, call.arguments);
            }
            // The model's message, then a result for each of its calls: one whole tool unit.
            memory.append(&id, tools.respond(&id, &completion).await).await?;
            if completion.tool_calls.is_empty() {
                println!("{}\n", completion.text);
                break;
            }
        }
    }
    Ok(())
}

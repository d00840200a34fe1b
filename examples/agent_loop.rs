//! An agent loop on an OpenAI-compatible model, with its memory in an SQLite file that a rolling summary keeps within budget.
//!
//! Configure the model with `OPENAI_BASE_URL` (optional), `OPENAI_API_KEY`
//! and `TIDEMARK_MODEL`, then run
//! `cargo run -p tidemark-cli --example agent_loop -- "first question" "second question"`.
//! Run it again: the memory file picks up where the last run stopped.
//!
//! After every call the loop reports the usage the model returned
//! (`observe_usage`): a model whose tokenizer counts differently from
//! tidemark's o200k counter (Llama, Qwen, Claude through a proxy) teaches
//! the memory its ratio, kept in the file with the conversation, and later
//! prompts fit the budget by the model's own count.
//!
//! When the model rejects a prompt as too long anyway (the first calls, before
//! it reported anything, or a context smaller than the budget), the loop
//! recovers in one retry: the typed `ContextOverflow` error gives a lower
//! budget, and `load_within` compacts the conversation to fit it.

use std::num::NonZeroU32;

use tidemark_compaction::LlmCompactor;
use tidemark_core::{CompletionModel, CompletionRequest, ConversationId, ConversationMemory, Message};
use tidemark_memory::{CompactingMemory, SqliteStore, TiktokenCounter, TokenWindow};
use tidemark_providers::{OpenAiConfig, OpenAiModel};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let model = OpenAiModel::new(OpenAiConfig::from_env()?)?;
    let budget = NonZeroU32::new(8_000).ok_or("the budget is not zero")?;
    let memory = CompactingMemory::new(
        SqliteStore::open("agent-memory.db")?,
        TokenWindow::new(budget, TiktokenCounter::o200k()?).with_reserve(1_000)?,
        LlmCompactor::new(model.clone()),
    );
    let id = ConversationId::new("agent-loop")?;
    if memory.load(&id).await?.is_empty() {
        memory.append(&id, vec![Message::system("You are a concise assistant.").pinned()]).await?;
    }
    // The prompt may take the budget less the reserve for the answer.
    let prompt_budget = NonZeroU32::new(7_000).ok_or("the budget is not zero")?;
    let request = |prompt: Vec<Message>| CompletionRequest::new(prompt).with_max_tokens(500);
    for question in std::env::args().skip(1) {
        memory.append(&id, vec![Message::user(question.clone())]).await?;
        let mut prompt = memory.load(&id).await?;
        let answer = match model.complete(request(prompt.clone())).await {
            Ok(answer) => answer,
            // Too long for the model: load within a lower budget (compacting what leaves) and retry once.
            Err(error) => {
                let Some(lower) = error.retry_budget(prompt_budget) else { return Err(error.into()) };
                eprintln!("the model rejected the prompt ({error}); retrying within {lower} tokens");
                prompt = memory.load_within(&id, lower).await?;
                model.complete(request(prompt.clone())).await?
            }
        };
        // What the model counted for the prompt it answered: the memory learns its ratio.
        let calibration = memory.observe_usage(&id, &prompt, answer.usage).await?;
        eprintln!("the model counts {} tokens per token of the memory", calibration.ratio());
        println!("> {question}\n{}\n", answer.text);
        memory.append(&id, vec![Message::assistant(answer.text)]).await?;
    }
    Ok(())
}

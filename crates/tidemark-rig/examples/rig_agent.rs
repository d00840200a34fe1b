//! A rig agent with a tool, talking to an OpenAI-compatible server, its memory an SQLite file through tidemark.
//!
//! ```text
//! OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_API_KEY=unused MODEL=qwen2.5 \
//!     cargo run -p tidemark-rig --example rig_agent -- agent.db
//! ```
//!
//! Run it twice on the same file: the second run starts from the first run's
//! summary, facts and window, and compacts nothing the first run compacted.
//! This build of rig speaks plain HTTP (a local server such as Ollama,
//! llama.cpp or vLLM); for an `https` endpoint, enable rig-core's `rustls`
//! feature in your own project.

use rig_agent::prelude::*;
use rig_core::providers::openai::OpenAIConfig;
use rig_core::tool::PortableTool;
use tidemark::{ConversationId, ConversationMemory, Memory};
use tidemark_rig::RigMemory;

/// The agent's tool: the time in a city, from a fixed table (enough to make the model call a tool).
struct CityTime;

#[derive(serde::Deserialize)]
struct CityArgs {
    city: String,
}

impl PortableTool for CityTime {
    const NAME: &'static str = "city_time";
    type Args = CityArgs;
    type Output = String;
    type Error = std::convert::Infallible;

    fn description(&self) -> String {
        "The UTC offset of a city".into()
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
    }

    async fn call(&self, args: Self::Args) -> Result<Self::Output, Self::Error> {
        let offset = match args.city.to_lowercase().as_str() {
            "berlin" | "frankfurt" => "+01:00",
            "new york" => "-05:00",
            "tokyo" => "+09:00",
            _ => "unknown",
        };
        Ok(format!("{}: UTC{offset}", args.city))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| "rig-agent.db".to_owned());
    let base = std::env::var("OPENAI_BASE_URL").unwrap_or_else(|_| "http://localhost:11434/v1".to_owned());
    let key = std::env::var("OPENAI_API_KEY").unwrap_or_else(|_| "unused".to_owned());
    let name = std::env::var("MODEL").unwrap_or_else(|_| "qwen2.5".to_owned());

    let memory = std::sync::Arc::new(Memory::builder().sqlite(&path).budget(8_000).facts().recall().build()?);
    let id = ConversationId::new("example/thread-1")?;
    let before = memory.load(&id).await?;
    println!("{path}: {} messages in the prompt before this run", before.len());

    let model = OpenAIConfig::new(key).with_base_url(base).client().chat(name);
    let agent = AgentBuilder::new(model)
        .preamble("You are a terse assistant. Use the city_time tool for time zones.")
        .memory(RigMemory::new(memory.clone()))
        .tool(CityTime)
        .default_max_turns(4)
        .build();
    for question in [
        "Our on-call engineer is Priya and she works from Tokyo. Remember that.",
        "What is the UTC offset where our on-call engineer works?",
        "Who is on call, and in which city?",
    ] {
        let answer = agent.prompt(question).conversation(id.as_str()).await?;
        println!("> {question}\n{}\n", answer.output());
    }
    Ok(())
}

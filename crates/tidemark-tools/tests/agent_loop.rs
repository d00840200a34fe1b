//! An agent loop in which the model answers a question about something that left the window by
//! calling `search_history`: the model is scripted, the memory, the tools and the loop are real.

use std::num::NonZeroU32;

use tidemark_core::{
    Completion, CompletionModel, CompletionRequest, ConversationId, ConversationMemory, FinishReason,
    Message, Role, ToolCall, Usage,
};
use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, TokenWindow};
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_testkit::scripted::ScriptedModel;
use tidemark_tools::MemoryTools;

/// Every text a prompt holds, tool results included.
fn everything(prompt: &[Message]) -> String {
    prompt
        .iter()
        .map(|message| {
            let results: Vec<&str> = message.tool_results().map(|result| result.content.as_str()).collect();
            format!("{}\n{}", message.text(), results.join("\n"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn the_model_finds_what_left_the_window_by_searching_its_history() {
    let store = InMemoryStore::new();
    let policy = TokenWindow::new(NonZeroU32::new(500).expect("not zero"), HeuristicCounter::default());
    let memory = CompactingMemory::new(store.clone(), policy, ConcatCompactor::capped(200));
    let tools = MemoryTools::new(store.clone());
    let id = ConversationId::new("support/dana").expect("a valid id");

    memory
        .append(&id, vec![Message::user("My order number is 88-1203."), Message::assistant("Noted.")])
        .await
        .expect("append");
    for turn in 0..40 {
        let exchange = vec![
            Message::user(format!("Question {turn} about shipping times.")),
            Message::assistant("Two days."),
        ];
        memory.append(&id, exchange).await.expect("append");
        memory.load(&id).await.expect("load");
    }

    // The model: first it searches, then it answers from what the search returned.
    let search =
        ToolCall::with_raw_arguments("call_1", "search_history", r#"{"query": "order number", "limit": 3}"#);
    let model = ScriptedModel::new()
        .completion(
            Completion::new("", FinishReason::ToolCalls, Usage::new(0, 0)).with_tool_calls(vec![search]),
        )
        .answer("Your order number is 88-1203.");

    // The loop: load, call the model with the tools, answer its calls, until it answers in text.
    memory.append(&id, vec![Message::user("What was my order number again?")]).await.expect("append");
    let answer = loop {
        let prompt = memory.load(&id).await.expect("load");
        let completion =
            model.complete(CompletionRequest::new(prompt).with_tools(tools.specs())).await.expect("scripted");
        memory.append(&id, tools.respond(&id, &completion).await).await.expect("append");
        if completion.tool_calls.is_empty() {
            break completion.text;
        }
    };

    assert_eq!(answer, "Your order number is 88-1203.");
    let requests = model.requests();
    assert_eq!(requests.len(), 2);
    let offered: Vec<&str> = requests[0].tools.iter().map(|tool| tool.name.as_str()).collect();
    assert!(offered.contains(&"search_history"), "{offered:?}");
    // The number had left the window: the first prompt lacks it, the second has it from the tool.
    assert!(!everything(&requests[0].messages).contains("88-1203"), "{:#?}", requests[0].messages);
    let second = &requests[1].messages;
    let result =
        second.iter().find(|message| message.role == Role::Tool).expect("the tool result is in the prompt");
    assert!(everything(std::slice::from_ref(result)).contains("88-1203"), "{result:?}");
    assert!(tidemark_core::validate(second).is_ok(), "the call and its result form one unit");
}

//! The facade with no optional feature: a memory in this process, counted by the heuristic
//! counter, compacted by the template, within its budget.

use tidemark::{ConversationId, ConversationMemory, Memory, Message, Store};

#[tokio::test]
async fn the_smallest_build_keeps_prompts_within_the_budget() {
    let memory = Memory::builder().store(Store::in_memory()).budget(400).build().expect("builds");
    let conversation = ConversationId::new("agent/1").expect("a valid id");
    for step in 0..80 {
        let text = format!("step {step}: migrate table {step} and report the row count");
        memory
            .append(&conversation, vec![Message::user(text), Message::assistant("Done.")])
            .await
            .expect("append");
        let prompt = memory.load(&conversation).await.expect("load");
        assert!(memory.counter().count_prompt(&prompt) <= 400, "step {step}");
        assert!(prompt.last().is_some_and(|message| message.text() == "Done."));
    }
    assert_eq!(memory.store().backend(), "memory");
}

#[tokio::test]
async fn a_store_that_is_not_built_in_is_an_error() {
    let error = Store::open("postgres://localhost/none").await;
    if cfg!(feature = "postgres") {
        // With the feature the URL is tried, and nothing listens there.
        assert!(error.is_err());
    } else {
        assert!(matches!(error, Err(tidemark::OpenError::NoPostgres(_))), "{error:?}");
    }
}

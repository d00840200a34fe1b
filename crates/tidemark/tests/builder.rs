//! The facade's builder: each part wired once, facts both kept and put back, errors for bad
//! settings, and a memory in the background that flushes.

use tidemark::core::FactStore;
use tidemark::{BuildError, ConversationId, ConversationMemory, Memory, Message};

fn id(name: &str) -> ConversationId {
    ConversationId::new(name).expect("a valid id")
}

/// Appends a preference, then enough turns for it to leave the window, loading after each.
async fn push_out_a_preference(memory: &Memory, conversation: &ConversationId) {
    memory
        .append(
            conversation,
            vec![Message::user("I prefer answers in metric units."), Message::assistant("Noted.")],
        )
        .await
        .expect("append");
    for step in 0..40 {
        let text = format!("Step {step}: the router still drops the signal upstairs after a reboot.");
        memory
            .append(conversation, vec![Message::user(text), Message::assistant("Try another channel.")])
            .await
            .expect("append");
        memory.load(conversation).await.expect("load");
    }
}

/// One builder call plugs the fact coordinator in twice: it keeps the fact when its turn is
/// compacted (observer) and puts it back into the prompt (context source).
#[tokio::test]
async fn a_builder_with_facts_has_the_coordinator_observing_and_injecting() {
    let memory = Memory::builder().budget(600).facts().build().expect("builds");
    let conversation = id("support/dana");
    push_out_a_preference(&memory, &conversation).await;
    let facts = memory.facts().expect("the memory keeps facts");
    let kept = facts.store().search(None, "metric units", 5).await.expect("search");
    assert!(
        kept.iter().any(|fact| fact.text.contains("metric units")),
        "the observer kept the fact: {kept:?}"
    );

    memory
        .append(&conversation, vec![Message::user("Which units should the signal report use?")])
        .await
        .expect("append");
    let prompt = memory.load(&conversation).await.expect("load");
    let block = prompt.iter().find(|message| message.text().starts_with(tidemark::facts::coordinator::OPEN));
    let block = block.expect("the context source put a facts block into the prompt");
    assert!(block.text().contains("metric units"));
    assert!(
        !prompt.iter().skip(1).any(|m| m.text() == "I prefer answers in metric units."),
        "the turn itself left the window"
    );
    assert!(memory.counter().count_prompt(&prompt) <= 600);
}

/// A memory built for one user keeps what the user says about themselves for the user: a
/// conversation started later sees it, and a memory for another user on the same store does not.
#[tokio::test]
async fn a_users_profile_follows_them_into_a_new_conversation() {
    let store = tidemark::Store::in_memory();
    let dana =
        Memory::builder().store(store.clone()).budget(600).facts().user(id("dana")).build().expect("builds");
    push_out_a_preference(&dana, &id("support/first")).await;

    let later = id("support/second");
    dana.append(&later, vec![Message::user("Which units should the signal report use?")])
        .await
        .expect("append");
    let prompt = dana.load(&later).await.expect("load");
    let block = prompt.iter().find(|message| message.text().starts_with(tidemark::facts::coordinator::OPEN));
    let block = block.expect("the profile fact is shown in the user's new conversation");
    assert!(block.text().contains("metric units"), "{}", block.text());

    let erin = Memory::builder().store(store).budget(600).facts().user(id("erin")).build().expect("builds");
    let hers = id("support/erin");
    erin.append(&hers, vec![Message::user("Which units should the signal report use?")])
        .await
        .expect("append");
    let prompt = erin.load(&hers).await.expect("load");
    assert!(
        !prompt.iter().any(|message| message.text().contains("metric units")),
        "another user's profile stays theirs"
    );
}

#[tokio::test]
async fn without_facts_nothing_is_kept_or_injected() {
    let memory = Memory::builder().budget(600).build().expect("builds");
    let conversation = id("support/erin");
    push_out_a_preference(&memory, &conversation).await;
    assert!(memory.facts().is_none());
    let prompt = memory.load(&conversation).await.expect("load");
    assert!(!prompt.iter().any(|message| message.text().starts_with(tidemark::facts::coordinator::OPEN)));
}

#[tokio::test]
async fn recall_quotes_an_earlier_turn_within_the_budget() {
    let memory = Memory::builder().budget(800).recall().build().expect("builds");
    let conversation = id("ops/7");
    memory
        .append(
            &conversation,
            vec![Message::user("The staging database listens on port 6543."), Message::assistant("Noted.")],
        )
        .await
        .expect("append");
    for step in 0..60 {
        memory
            .append(
                &conversation,
                vec![
                    Message::user(format!("Step {step}: run the next migration.")),
                    Message::assistant("Done."),
                ],
            )
            .await
            .expect("append");
        memory.load(&conversation).await.expect("load");
    }
    memory
        .append(&conversation, vec![Message::user("Which port does the staging database listen on?")])
        .await
        .expect("append");
    let prompt = memory.load(&conversation).await.expect("load");
    assert!(memory.counter().count_prompt(&prompt) <= 800);
    assert!(
        prompt.iter().any(|m| m.text().starts_with("<recalled-turns>") && m.text().contains("port 6543"))
    );
}

/// With the `meaning` feature (default), a question that shares no word with the turn that answers it still finds that turn.
#[cfg(feature = "meaning")]
#[tokio::test]
async fn recall_by_meaning_finds_a_question_in_other_words() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let memory =
        Memory::builder().sqlite(dir.path().join("agent.db")).budget(800).recall().build().expect("builds");
    let conversation = id("ops/8");
    memory
        .append(
            &conversation,
            vec![
                Message::user("We host everything in Frankfurt, on two racks."),
                Message::assistant("Noted."),
            ],
        )
        .await
        .expect("append");
    let chores =
        ["rename the helper", "bump the lint version", "fix the flaky unit test", "tidy the changelog"];
    for step in 0..60 {
        let chore = chores[step % chores.len()];
        memory
            .append(
                &conversation,
                vec![Message::user(format!("Step {step}: {chore}.")), Message::assistant("Done.")],
            )
            .await
            .expect("append");
        memory.load(&conversation).await.expect("load");
    }
    // "servers", "live" and "located" appear in no stored turn: only meaning can find the answer.
    let question = "In which city are our servers located and where do they live?";
    memory.append(&conversation, vec![Message::user(question)]).await.expect("append");
    let prompt = memory.load(&conversation).await.expect("load");
    assert!(memory.counter().count_prompt(&prompt) <= 800);
    let block =
        prompt.iter().find(|m| m.text().starts_with("<recalled-turns>")).map(|m| m.text().into_owned());
    assert!(block.as_deref().is_some_and(|text| text.contains("Frankfurt")), "{block:?}");
}

#[tokio::test]
async fn a_users_memory_follows_them_into_their_next_conversation() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("agent.db");
    let for_user = |user: &str| {
        Memory::builder().sqlite(&path).budget(800).recall().user(id(user)).build().expect("builds")
    };
    let (ann, bo) = (for_user("ann"), for_user("bo"));
    let monday = id("ann/monday");
    ann.append(
        &monday,
        vec![Message::user("Our invoices go out under project code HLD-0923."), Message::assistant("Noted.")],
    )
    .await
    .expect("append");
    ann.load(&monday).await.expect("load");
    let tuesday = id("ann/tuesday");
    ann.append(&tuesday, vec![Message::user("Which project code goes on the invoices?")])
        .await
        .expect("append");
    let prompt = ann.load(&tuesday).await.expect("load");
    assert!(ann.counter().count_prompt(&prompt) <= 800);
    let block =
        prompt.iter().find(|m| m.text().starts_with("<recalled-turns>")).map(|m| m.text().into_owned());
    assert!(
        block.as_deref().is_some_and(|text| text.contains("- conversation ann/monday, turn 0 (user)")),
        "{block:?}"
    );
    // Another user's memory over the same store never quotes it.
    let theirs = id("bo/tuesday");
    bo.append(&theirs, vec![Message::user("Which project code goes on the invoices?")])
        .await
        .expect("append");
    let prompt = bo.load(&theirs).await.expect("load");
    assert!(!prompt.iter().any(|m| m.text().contains("HLD-0923")), "{prompt:?}");
}

#[test]
fn bad_settings_are_errors() {
    assert!(matches!(Memory::builder().budget(0).build(), Err(BuildError::ZeroBudget)));
    let over = Memory::builder().budget(1_000).facts_tokens(600).recall_tokens(500).build();
    assert!(matches!(over, Err(BuildError::Allowance { block: "recall", .. })), "{over:?}");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let missing = dir.path().join("no/such/folder/agent.db");
    let error = Memory::builder().sqlite(&missing).build().expect_err("the folder does not exist");
    assert!(matches!(error, BuildError::Store(_)), "{error:?}");
    assert!(error.to_string().contains("sqlite"), "{error}");
}

/// The summary, window and facts live in the file: a new memory on it serves what the old one did.
#[tokio::test]
async fn a_memory_on_a_file_survives_a_restart() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("agent.db");
    let conversation = id("support/fox");
    let before = {
        let memory = Memory::builder().sqlite(&path).budget(600).facts().build().expect("builds");
        push_out_a_preference(&memory, &conversation).await;
        memory.load(&conversation).await.expect("load")
    };
    let memory = Memory::builder().sqlite(&path).budget(600).facts().build().expect("builds again");
    assert_eq!(memory.load(&conversation).await.expect("load"), before);
    let kept = memory.facts().expect("facts").store().search(None, "metric", 5).await.expect("search");
    assert!(!kept.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_memory_in_the_background_serves_at_once_and_flushes() {
    let memory = Memory::builder().budget(300).background().build().expect("builds");
    let conversation = id("agent/7");
    for step in 0..40 {
        let text = format!("step {step}: run the migration for table {step}");
        memory.append(&conversation, vec![Message::user(text)]).await.expect("append");
        let prompt = memory.load(&conversation).await.expect("load");
        assert!(prompt.last().is_some_and(|m| m.text().starts_with(&format!("step {step}:"))));
        assert!(memory.counter().count_prompt(&prompt) <= 300);
    }
    memory.flush().await;
    let prompt = memory.load(&conversation).await.expect("load");
    assert!(memory.counter().count_prompt(&prompt) <= 300);
}

//! Unit tests of the coordinator's bounded per-conversation state.

use tidemark_core::Seq;
use tidemark_memory::InMemoryStore;

use super::*;

fn id(index: usize) -> ConversationId {
    ConversationId::new(format!("conversation-{index}")).expect("test setup")
}

#[tokio::test]
async fn many_conversations_stay_within_the_bound() {
    let coordinator = FactCoordinator::new(InMemoryStore::new()).with_conversation_capacity(16);
    assert_eq!(coordinator.conversation_capacity(), 16);
    for index in 0..2_000 {
        let conversation = id(index);
        coordinator.count(&conversation, |counters| counters.compactions += 1);
        let _ = coordinator.inject(&conversation, "anything at all").await.expect("in-memory store");
        if index % 3 == 0 {
            coordinator.on_session_switch(&id(index + 1), Some(&conversation), false).await.expect("switch");
        }
        assert!(locked(&coordinator.sessions).len() <= 16, "sessions grew past the bound at {index}");
        assert!(locked(&coordinator.snapshots).len() <= 16, "snapshots grew past the bound at {index}");
    }
    // The most recent conversation is still tracked.
    let last = id(1_999);
    coordinator.count(&last, |counters| counters.injected += 1);
    assert_eq!(coordinator.counters(&last).injected, 1);
}

#[test]
fn the_default_bound_is_documented_and_a_zero_bound_is_raised_to_one() {
    let coordinator = FactCoordinator::new(InMemoryStore::new());
    assert_eq!(coordinator.conversation_capacity(), FactCoordinator::<InMemoryStore>::DEFAULT_CONVERSATIONS);
    assert_eq!(coordinator.with_conversation_capacity(0).conversation_capacity(), 1);
}

#[tokio::test]
async fn as_a_context_source_the_block_fits_the_memorys_allowance() {
    let coordinator = FactCoordinator::new(InMemoryStore::new());
    let conversation = id(0);
    for text in [
        "The user prefers answers in metric units.",
        "The user's router is an AX-300 in the hallway.",
        "The user works night shifts and reads replies in the morning.",
    ] {
        let fact = NewFact::new(Scope::Conversation(conversation.clone()), Tier::UserProfile, text);
        coordinator.remember(fact).await.expect("stored");
    }
    let counter = tidemark_core::HeuristicCounter::default();
    let full = coordinator.inject(&conversation, "router").await.expect("read").expect("a block");
    let full_tokens = counter.count(&full);
    for max_tokens in [0, full_tokens / 2, full_tokens, 10_000] {
        let request = ContextRequest::new(&conversation, "router", max_tokens, &counter);
        let block = coordinator.context(&request).await.expect("read");
        match block {
            Some(block) => {
                assert!(counter.count(&block) <= max_tokens, "{max_tokens}");
                assert!(block.text().starts_with(OPEN) && block.text().ends_with(CLOSE));
            }
            None => assert!(max_tokens < full_tokens, "a block that fits is offered"),
        }
    }
    // Through an Arc, as a memory holds it.
    let shared = std::sync::Arc::new(coordinator);
    let request = ContextRequest::new(&conversation, "router", 10_000, &counter);
    assert!(
        shared.context(&request).await.expect("read").is_some_and(|block| block.text().contains("AX-300"))
    );
}

#[tokio::test]
async fn a_later_turn_that_changes_a_value_retires_the_fact_it_changes() {
    let store = InMemoryStore::new();
    let user = ConversationId::new("bridget").expect("test setup");
    let coordinator = FactCoordinator::new(store.clone()).for_user(user.clone());
    let conversation = id(0);
    for text in [
        "About the user: \"my day rate is £425 for animation and £360 for illustration\"",
        "About the user: \"my studio is in Leeds, near the station\"",
    ] {
        coordinator
            .remember(NewFact::new(Scope::User(user.clone()), Tier::UserProfile, text))
            .await
            .expect("stored");
    }
    // No change marker, or another subject: nothing is retired.
    let unrelated = [
        Message::user("My day rate for animation is something clients ask about a lot."),
        Message::user("The render farm moved to 4 nodes instead of 2."),
    ];
    coordinator
        .on_pre_compress(&conversation, SeqRange::new(Seq(0), Seq(2)), &unrelated)
        .await
        .expect("extract");
    assert_eq!(coordinator.counters(&conversation).replaced, 0);
    let change = [
        Message::user("Decision made: from January my animation day rate goes up to £460."),
        Message::assistant("Noted, £460 a day for animation from January."),
    ];
    coordinator
        .on_pre_compress(&conversation, SeqRange::new(Seq(2), Seq(4)), &change)
        .await
        .expect("extract");
    assert_eq!(coordinator.counters(&conversation).replaced, 1);
    let active = store.list(&FactFilter::scope(Scope::User(user.clone()))).await.expect("listed");
    assert!(active.iter().all(|fact| !fact.text.contains("£425")), "{active:?}");
    assert!(active.iter().any(|fact| fact.text.contains("Leeds")), "an unchanged fact stays");
    let superseded = coordinator.superseded(Some(Scope::User(user.clone()))).await.expect("listed");
    let old = superseded.iter().find(|fact| fact.text.contains("£425")).expect("kept as history");
    assert!(old.valid_to_ms().is_some_and(|to| to >= old.valid_from_ms()), "{old:?}");
    assert!(coordinator.quarantined(Some(Scope::User(user))).await.expect("listed").is_empty());
    let block = coordinator.inject(&conversation, "What is my day rate?").await.expect("read");
    assert!(block.is_none_or(|block| !block.text().contains("£425")));
}

//! The [`ConversationMemory`] conformance suite: histories appended step by step as an agent would, with the prompt-shape rules checked after every load.

use std::future::Future;
use std::num::NonZeroU32;

use tidemark_core::calibration::Ratio;
use tidemark_core::{ConversationId, ConversationMemory, MemoryError, Message, Role, Usage, validate};

use super::{Failure, Ids, Report, Samples, chain, ensure, fail_on};
use crate::strategies::{HistoryConfig, arb_history_with};

/// What the memory suite generates and what it may expect.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct MemoryConfig {
    /// How many generated histories to replay.
    pub cases: usize,
    /// The shape of the generated histories.
    pub history: HistoryConfig,
    /// Whether the memory keeps everything for these histories, so every load must equal what was appended.
    pub lossless: bool,
}

impl Default for MemoryConfig {
    fn default() -> Self {
        Self { cases: 24, history: HistoryConfig::default(), lossless: false }
    }
}

impl MemoryConfig {
    /// The default configuration for a memory that keeps everything it is given.
    pub fn lossless() -> Self {
        Self { lossless: true, ..Self::default() }
    }

    /// The same configuration with `cases` histories.
    #[must_use]
    pub fn with_cases(mut self, cases: usize) -> Self {
        self.cases = cases;
        self
    }

    /// The same configuration with histories shaped by `history`.
    #[must_use]
    pub fn with_history(mut self, history: HistoryConfig) -> Self {
        self.history = history;
        self
    }
}

/// Run every memory check; `make` returns a fresh memory each time it is called.
///
/// # Errors
///
/// Returns the first [`Failure`].
pub async fn run<M, F, Fut>(mut make: F, config: &MemoryConfig) -> Result<Report, Failure>
where
    M: ConversationMemory,
    F: FnMut() -> Fut,
    Fut: Future<Output = M>,
{
    let mut ids = Ids::new("memory");
    unknown_conversations_load_empty(&make().await, &mut ids).await?;
    appends_get_consecutive_ranges(&make().await, &mut ids).await?;
    clear_forgets_and_starts_over(&make().await, &mut ids).await?;
    conversations_are_isolated(&make().await, &mut ids).await?;
    let mut histories = Samples::new(arb_history_with(config.history.clone()));
    for case in 0..config.cases {
        let memory = make().await;
        let history = histories.draw();
        replay_keeps_prompt_shape(&memory, &mut ids, &history, case, config.lossless).await?;
        loads_within_keep_prompt_shape(&make().await, &mut ids, &history, case).await?;
    }
    usage_reports_keep_prompt_shape(&make().await, &mut ids).await?;
    Ok(Report { checks: 7, cases: config.cases })
}

async fn unknown_conversations_load_empty<M: ConversationMemory>(
    memory: &M,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "unknown_conversations_load_empty";
    let loaded = fail_on(CHECK, memory.load(&ids.fresh("unknown")).await)?;
    ensure!(loaded.is_empty(), CHECK, "a conversation never appended to loaded {loaded:?}");
    Ok(())
}

async fn appends_get_consecutive_ranges<M: ConversationMemory>(
    memory: &M,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "appends_get_consecutive_ranges";
    let id = ids.fresh("ranges");
    let first = fail_on(CHECK, memory.append(&id, vec![Message::user("a"), Message::assistant("b")]).await)?;
    let second = fail_on(CHECK, memory.append(&id, vec![Message::user("c")]).await)?;
    ensure!(
        first.len() == 2 && second.len() == 1 && second.start == first.end,
        CHECK,
        "appends of 2 then 1 messages returned {first} and {second}"
    );
    Ok(())
}

async fn clear_forgets_and_starts_over<M: ConversationMemory>(
    memory: &M,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "clear_forgets_and_starts_over";
    let id = ids.fresh("clear");
    fail_on(
        CHECK,
        memory.append(&id, vec![Message::user("old question"), Message::assistant("old answer")]).await,
    )?;
    fail_on(CHECK, memory.load(&id).await)?;
    fail_on(CHECK, memory.clear(&id).await)?;
    let loaded = fail_on(CHECK, memory.load(&id).await)?;
    ensure!(loaded.is_empty(), CHECK, "after clear the memory loaded {loaded:?}");
    fail_on(CHECK, memory.append(&id, vec![Message::user("new question")]).await)?;
    let loaded = fail_on(CHECK, memory.load(&id).await)?;
    ensure!(
        loaded == [Message::user("new question")],
        CHECK,
        "after clear and one append the memory loaded {loaded:?}"
    );
    Ok(())
}

async fn conversations_are_isolated<M: ConversationMemory>(memory: &M, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "conversations_are_isolated";
    let (a, b) = (ids.fresh("a"), ids.fresh("b"));
    fail_on(CHECK, memory.append(&a, vec![Message::user("for a")]).await)?;
    fail_on(CHECK, memory.append(&b, vec![Message::user("for b")]).await)?;
    fail_on(CHECK, memory.clear(&a).await)?;
    let loaded = fail_on(CHECK, memory.load(&b).await)?;
    ensure!(
        loaded == [Message::user("for b")],
        CHECK,
        "conversation b loaded {loaded:?} after a was cleared"
    );
    Ok(())
}

/// Reports of usage, plausible or absurd, leave every later load a prompt of the same shape, and a calibration within the bound.
async fn usage_reports_keep_prompt_shape<M: ConversationMemory>(
    memory: &M,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "usage_reports_keep_prompt_shape";
    let id = ids.fresh("usage");
    let mut appended = vec![Message::system("Answer in one line.").pinned()];
    for turn in 0..30 {
        appended.push(Message::user(format!(
            "question {turn}: which runner built release {turn} of the service?"
        )));
        appended.push(Message::assistant(format!("answer {turn}: runner {turn} built it in {turn} minutes")));
    }
    fail_on(CHECK, memory.append(&id, appended.clone()).await)?;
    for reported in [u32::MAX, 0, 1, 5_000] {
        let prompt = fail_on(CHECK, memory.load(&id).await)?;
        if let Err(problem) = check_prompt(&prompt, &appended, false) {
            return Err(Failure::new(CHECK, format!("after a report of {reported}: {problem}")));
        }
        let calibration = fail_on(CHECK, memory.observe_usage(&id, &prompt, Usage::new(reported, 1)).await)?;
        let ratio = calibration.ratio();
        ensure!(
            (Ratio::MIN..=Ratio::MAX).contains(&ratio),
            CHECK,
            "a report of {reported} tokens gave a ratio of {ratio}, outside the bound"
        );
    }
    let within = fail_on(CHECK, memory.load_within(&id, NonZeroU32::MAX).await)?;
    if let Err(problem) = check_prompt(&within, &appended, false) {
        return Err(Failure::new(
            CHECK,
            format!("a load within an unlimited budget after reports: {problem}"),
        ));
    }
    fail_on(CHECK, memory.clear(&id).await)?;
    let loaded = fail_on(CHECK, memory.load(&id).await)?;
    ensure!(loaded.is_empty(), CHECK, "after reports and a clear the memory loaded {loaded:?}");
    Ok(())
}

/// Whether `needle` occurs in `haystack` in order (not necessarily contiguously).
fn is_subsequence(needle: &[Message], haystack: &[Message]) -> bool {
    let mut rest = haystack.iter();
    needle.iter().all(|wanted| rest.any(|candidate| candidate == wanted))
}

/// Check one loaded prompt against everything appended so far.
fn check_prompt(loaded: &[Message], appended: &[Message], lossless: bool) -> Result<(), String> {
    if let Err(violation) = validate(loaded) {
        return Err(format!("the loaded history is invalid: {violation}"));
    }
    if lossless {
        return if loaded == appended {
            Ok(())
        } else {
            Err("a lossless memory lost or changed messages".into())
        };
    }
    if loaded.last() != appended.last() {
        return Err("the newest appended message is not last".into());
    }
    // Everything but one summary, first or right after the leading system
    // messages, must come from the history, in order.
    let without: Vec<Message>;
    let from_history: &[Message] = if is_subsequence(loaded, appended) {
        loaded
    } else {
        let leading = loaded.iter().take_while(|m| m.role == Role::System).count();
        let place = (0..=leading.min(loaded.len().saturating_sub(1))).find(|&at| {
            let rest: Vec<Message> =
                loaded.iter().enumerate().filter(|(i, _)| *i != at).map(|(_, m)| m.clone()).collect();
            is_subsequence(&rest, appended)
        });
        let Some(at) = place else {
            return Err("the loaded messages are not the appended ones in order".into());
        };
        let summary = &loaded[at];
        if summary.role == Role::Tool || summary.has_tool_calls() || summary.has_tool_results() {
            return Err(format!("the summary carries tool parts: {summary:?}"));
        }
        if summary.text().trim().is_empty() {
            return Err("the summary is empty".into());
        }
        without = loaded.iter().enumerate().filter(|(i, _)| *i != at).map(|(_, m)| m.clone()).collect();
        &without
    };
    let must_keep: Vec<Message> =
        appended.iter().filter(|m| m.pinned || m.role == Role::System).cloned().collect();
    if !is_subsequence(&must_keep, from_history) {
        return Err("a pinned or system message was dropped".into());
    }
    task_kept_before_older(from_history, appended)
}

/// The newest human instruction ([`tidemark_core::task`]) is never left out while an older message
/// outside pinned units and system messages is kept: a memory that leaves messages out drops
/// older ones first, and keeps the task in view longest.
fn task_kept_before_older(from_history: &[Message], appended: &[Message]) -> Result<(), String> {
    let Some(task) = tidemark_core::task::instruction(appended) else { return Ok(()) };
    // Where each kept message stands in the history: the first match in order, as a subsequence is found.
    let mut places = Vec::with_capacity(from_history.len());
    let mut from = 0;
    for message in from_history {
        let Some(offset) = appended[from..].iter().position(|candidate| candidate == message) else {
            return Ok(()); // not a subsequence: reported by the caller's check
        };
        places.push(from + offset);
        from += offset + 1;
    }
    // Messages of pinned units and system messages stay whatever their age.
    let mut protected = vec![false; appended.len()];
    for unit in tidemark_core::units(appended) {
        if unit.is_pinned(appended) || appended[unit.start()].role == Role::System {
            protected[unit.range()].fill(true);
        }
    }
    let older_kept = places.iter().any(|&place| place < task && !protected[place]);
    let task_kept = places.contains(&task) || from_history.iter().any(|message| *message == appended[task]);
    if older_kept && !task_kept {
        return Err(format!(
            "the newest instruction (message {task}) was left out while older messages were kept"
        ));
    }
    Ok(())
}

async fn replay_keeps_prompt_shape<M: ConversationMemory>(
    memory: &M,
    ids: &mut Ids,
    history: &[Message],
    case: usize,
    lossless: bool,
) -> Result<(), Failure> {
    const CHECK: &str = "replay_keeps_prompt_shape";
    let id: ConversationId = ids.fresh("replay");
    // Append one message at a time, as an agent does while tools run, and load
    // whenever the history is at a point where an agent would call the model.
    for end in 1..=history.len() {
        let message = history[end - 1].clone();
        memory.append(&id, vec![message]).await.map_err(|error| {
            Failure::new(
                CHECK,
                format!("case {case}: appending message {} failed: {}", end - 1, chain(&error)),
            )
        })?;
        let next_is_result = history.get(end).is_some_and(|next| next.role == Role::Tool);
        if next_is_result {
            continue;
        }
        let loaded = memory.load(&id).await.map_err(|error| {
            Failure::new(CHECK, format!("case {case}: load after {end} messages failed: {}", chain(&error)))
        })?;
        if let Err(problem) = check_prompt(&loaded, &history[..end], lossless) {
            return Err(Failure::new(
                CHECK,
                format!(
                    "case {case}, after {end} messages: {problem}\n  loaded: {loaded:#?}\n  appended: {:#?}",
                    &history[..end]
                ),
            ));
        }
    }
    Ok(())
}

/// `load_within` at budgets from tiny to unlimited: a prompt of the same shape as `load`'s, or `OverBudget`; an unlimited budget always fits.
async fn loads_within_keep_prompt_shape<M: ConversationMemory>(
    memory: &M,
    ids: &mut Ids,
    history: &[Message],
    case: usize,
) -> Result<(), Failure> {
    const CHECK: &str = "loads_within_keep_prompt_shape";
    if history.is_empty() {
        return Ok(());
    }
    let id: ConversationId = ids.fresh("within");
    memory.append(&id, history.to_vec()).await.map_err(|error| {
        Failure::new(CHECK, format!("case {case}: appending the history failed: {}", chain(&error)))
    })?;
    for budget in [
        NonZeroU32::MAX,
        NonZeroU32::MIN,
        NonZeroU32::new(64).unwrap_or(NonZeroU32::MIN),
        NonZeroU32::new(512).unwrap_or(NonZeroU32::MIN),
    ] {
        match memory.load_within(&id, budget).await {
            Ok(loaded) => {
                if let Err(problem) = check_prompt(&loaded, history, false) {
                    return Err(Failure::new(
                        CHECK,
                        format!("case {case}, within {budget}: {problem}\n  loaded: {loaded:#?}"),
                    ));
                }
            }
            Err(MemoryError::OverBudget { budget: asked, tokens })
                if budget != NonZeroU32::MAX && asked == budget.get() && tokens > asked => {}
            Err(error) => {
                return Err(Failure::new(
                    CHECK,
                    format!("case {case}: load within {budget} failed: {}", chain(&error)),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use tidemark_core::Message;

    use super::task_kept_before_older;

    #[test]
    fn leaving_the_instruction_out_before_older_messages_is_caught() {
        let history = [
            Message::user("Earlier question."),
            Message::assistant("Earlier answer."),
            Message::user("The task: fix the build."),
            Message::assistant("Working on it."),
        ];
        // Oldest first, or everything: fine.
        assert!(task_kept_before_older(&history[2..], &history).is_ok());
        assert!(task_kept_before_older(&history[3..], &history).is_ok());
        assert!(task_kept_before_older(&history, &history).is_ok());
        // The instruction dropped while an older message stays: caught.
        let dropped = [history[0].clone(), history[1].clone(), history[3].clone()];
        assert!(task_kept_before_older(&dropped, &history).is_err());
        // A pinned older message may stay.
        let pinned =
            [history[0].clone().pinned(), history[1].clone(), history[2].clone(), history[3].clone()];
        let kept = [pinned[0].clone(), pinned[3].clone()];
        assert!(task_kept_before_older(&kept, &pinned).is_ok());
    }
}

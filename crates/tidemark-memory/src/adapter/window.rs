//! The load path the adapters share: read the window from the store, let the policy choose, and plan the new state.

use std::borrow::Cow;
use std::num::NonZeroU32;

use super::context::Contexts;
use super::cut_summary::keeps_all_within;
use super::within::tighten;
use crate::policy::must_keep;
use tidemark_core::{
    CompactionState, ConversationId, ConversationStore, MemoryPolicy, Message, Ratio, Selection, Seq,
    SeqRange, StoreError, StoredMessage, StoredSummary, TokenCounter, Window, units,
};

/// What a load sees: the stored state, the messages still in the window and the conversation's calibrated ratio.
pub(crate) struct View {
    pub(crate) state: CompactionState,
    /// Retained messages below the watermark, then every message from the watermark on.
    pub(crate) stored: Vec<StoredMessage>,
    pub(crate) messages: Vec<Message>,
    /// The stored counts, in the memory's counter's tokens.
    pub(crate) tokens: Vec<u32>,
    /// How many tokens the provider counts for each of the memory's (see `tidemark_core::calibration`):
    /// every count is scaled by it when the window is fitted.
    pub(crate) ratio: Ratio,
}

impl View {
    /// Read the window of `id`: a state read, a calibration read and two range reads, whatever the conversation's length.
    pub(crate) async fn read<S: ConversationStore>(
        store: &S,
        id: &ConversationId,
    ) -> Result<Self, StoreError> {
        let state = store.state(id).await?;
        let ratio = store.calibration(id).await?.ratio();
        Self::read_under(store, id, state, ratio).await
    }

    /// Bring a view read before a lock was taken up to date, reading messages only if the state moved.
    ///
    /// Appends never change the state, so a view whose generation is still
    /// the stored one describes the state exactly; it may miss messages
    /// appended since, which the next load sees, and which cannot be evicted
    /// before they were seen anyway. When the generation moved (another load
    /// or process compacted, or a clear), the window is read afresh. The
    /// calibrated ratio is the one read with the view: a report that arrived
    /// since is used by the next load.
    pub(crate) async fn refresh<S: ConversationStore>(
        self,
        store: &S,
        id: &ConversationId,
    ) -> Result<Self, StoreError> {
        let state = store.state(id).await?;
        if state.generation == self.state.generation {
            return Ok(self);
        }
        Self::read_under(store, id, state, self.ratio).await
    }

    /// The window as it stands once `state` (just written) replaced this view's state after applying `selection`.
    ///
    /// No read is needed: the kept messages are those of this view.
    pub(crate) fn applied(self, selection: &Selection, state: CompactionState) -> Self {
        let mut kept = selection.kept().peekable();
        let mut view = Self {
            state,
            stored: Vec::with_capacity(selection.kept_len()),
            messages: Vec::with_capacity(selection.kept_len()),
            tokens: Vec::with_capacity(selection.kept_len()),
            ratio: self.ratio,
        };
        for (index, ((stored, message), tokens)) in
            self.stored.into_iter().zip(self.messages).zip(self.tokens).enumerate()
        {
            if kept.next_if_eq(&index).is_some() {
                view.stored.push(stored);
                view.messages.push(message);
                view.tokens.push(tokens);
            }
        }
        view
    }

    /// Read the messages of the window that `state` describes.
    async fn read_under<S: ConversationStore>(
        store: &S,
        id: &ConversationId,
        state: CompactionState,
        ratio: Ratio,
    ) -> Result<Self, StoreError> {
        let mut stored =
            if state.retained.is_empty() { Vec::new() } else { store.load_seqs(id, &state.retained).await? };
        stored.extend(store.load_range(id, SeqRange::from(state.watermark)).await?);
        let messages = stored.iter().map(|s| Message::clone(&s.message)).collect();
        let tokens = stored.iter().map(|s| s.tokens).collect();
        Ok(Self { state, stored, messages, tokens, ratio })
    }

    /// Tokens always in the prompt: the summary and the counter's per-prompt overhead.
    pub(crate) fn fixed_tokens(&self, counter: &dyn TokenCounter) -> u32 {
        let summary = self.state.summary.as_ref().map_or(0, |summary| summary.tokens);
        summary.saturating_add(counter.prompt_overhead())
    }

    /// [`fixed_tokens`](View::fixed_tokens) as the provider counts them: each part scaled by the ratio on its own.
    ///
    /// Each part is scaled apart, as a [`CalibratedCounter`](tidemark_core::CalibratedCounter)
    /// counts the composed prompt, so that the last check of a load within a
    /// budget counts what the fit counted.
    fn calibrated_fixed(&self, counter: &dyn TokenCounter) -> u32 {
        let summary = self.state.summary.as_ref().map_or(0, |summary| summary.tokens);
        self.ratio.scale(summary).saturating_add(self.ratio.scale(counter.prompt_overhead()))
    }

    /// The stored counts as the provider counts them: borrowed unchanged while the ratio is one.
    fn calibrated_tokens(&self) -> Cow<'_, [u32]> {
        if self.ratio == Ratio::ONE {
            Cow::Borrowed(&self.tokens)
        } else {
            Cow::Owned(self.tokens.iter().map(|&tokens| self.ratio.scale(tokens)).collect())
        }
    }

    /// Let `policy` choose from this window, with the allowances of as many leading context sources as fit reserved.
    ///
    /// The allowances are fixed tokens to the policy, so a budget policy
    /// leaves room for them. When the newest turn cannot fit beside all of
    /// them (the selection is over budget), the last sources are given up one
    /// by one, and with none the window is chosen as without context: a
    /// context block never costs the window its newest turn.
    ///
    /// With `within`, a lower budget for this load, the policy's selection is
    /// cut further until the fixed tokens, the allowances and the kept
    /// messages fit it (see [`tighten`]).
    ///
    /// Every count the policy and `tighten` see (the messages', the summary's,
    /// the overhead and the allowances) is scaled by the calibrated ratio, so
    /// the window fits the budget by the provider's count; with no calibration
    /// the ratio is one and the counts are the stored ones.
    pub(crate) fn choose<P: MemoryPolicy>(
        &self,
        policy: &P,
        counter: &dyn TokenCounter,
        contexts: &Contexts,
        within: Option<NonZeroU32>,
    ) -> Chosen {
        let fixed = self.calibrated_fixed(counter);
        let tokens = self.calibrated_tokens();
        let budget = match (policy.prompt_budget(), within) {
            (Some(budget), Some(within)) => Some(budget.min(within.get())),
            (budget, within) => budget.or(within.map(NonZeroU32::get)),
        };
        let overhead = self.ratio.scale(counter.prompt_overhead());
        let mut granted = contexts.len();
        loop {
            let reserved = contexts.reserve(granted, self.ratio);
            let fixed = fixed.saturating_add(reserved);
            let window = Window::new(&self.messages).with_tokens(&tokens).with_fixed_tokens(fixed);
            let selection = policy.select(&window);
            let selection = match within {
                Some(budget) => tighten(&self.messages, &tokens, selection, fixed, budget),
                None => selection,
            };
            if granted == 0 || !selection.over_budget() {
                let limit = budget.map(|budget| budget.saturating_sub(reserved).saturating_sub(overhead));
                return Chosen { selection, granted, limit };
            }
            granted -= 1;
        }
    }

    /// The prompt tokens of this window as it stands (summary, overhead and every message).
    pub(crate) fn prompt_tokens(&self, counter: &dyn TokenCounter) -> u64 {
        u64::from(self.fixed_tokens(counter)) + self.tokens.iter().map(|&t| u64::from(t)).sum::<u64>()
    }

    /// What applying `selection` changes: the demoted messages, the range the watermark moves past, and the state to write.
    pub(crate) fn plan(&self, selection: &Selection, summary: Option<StoredSummary>) -> Plan {
        let old = self.state.watermark;
        let watermark = self.window_start(selection);
        let retained: Vec<Seq> =
            selection.kept().map(|index| self.stored[index].seq).filter(|seq| *seq < watermark).collect();
        let demoted: Vec<StoredMessage> =
            selection.demoted().map(|index| self.stored[index].clone()).collect();
        let start = demoted.first().map_or(old, |first| first.seq.min(old));
        Plan {
            range: SeqRange::new(start, watermark),
            demoted,
            state: CompactionState::new(watermark, retained, summary),
        }
    }

    /// The kept messages with the stored summary (if any) in front: the prompt when nothing new is written.
    pub(crate) fn serve(self, chosen: &Chosen) -> Served {
        let summary = self.state.summary.clone();
        self.assemble(summary.as_ref(), chosen)
    }

    /// Every message of the view with the stored summary after its leading system messages, without room for context.
    pub(crate) fn into_prompt(self) -> Served {
        let chosen = Chosen { selection: Selection::keep_all(self.messages.len()), granted: 0, limit: None };
        self.serve(&chosen)
    }

    /// The kept messages with `summary` in front, moving them out of the view.
    pub(crate) fn assemble(self, summary: Option<&StoredSummary>, chosen: &Chosen) -> Served {
        let selection = &chosen.selection;
        let below = self.window_start(selection);
        let mut window = Vec::with_capacity(selection.kept_len());
        let mut in_prompt = Vec::new();
        let mut retained = selection.retained().iter().copied().peekable();
        // What the summary and the kept messages take, as the fit counted them.
        let mut used = summary.map_or(0, |summary| self.ratio.scale(summary.tokens));
        for (index, (message, stored)) in self.messages.into_iter().zip(&self.stored).enumerate() {
            if index >= selection.cut() || retained.next_if_eq(&index).is_some() {
                if stored.seq < below {
                    in_prompt.push(stored.seq);
                }
                used =
                    used.saturating_add(self.tokens.get(index).map_or(0, |&tokens| self.ratio.scale(tokens)));
                window.push(message);
            }
        }
        in_prompt.sort_unstable();
        Served {
            summary: summary.map(|summary| summary.message.clone()),
            window,
            below,
            in_prompt,
            granted: chosen.granted,
            room: chosen.limit.map_or(0, |limit| limit.saturating_sub(used)),
            ratio: self.ratio,
        }
    }

    /// The first sequence number of the window `selection` keeps: every stored message from it on is in the prompt.
    ///
    /// It is where [`plan`](View::plan) moves the watermark, so it is never below the stored watermark.
    pub(crate) fn window_start(&self, selection: &Selection) -> Seq {
        let old = self.state.watermark;
        let cut_seq = self.stored.get(selection.cut()).map_or_else(
            || self.stored.last().map_or(old, |last| last.seq.after(1)),
            |first_kept| first_kept.seq,
        );
        cut_seq.max(old)
    }
}

impl View {
    /// `selection` with its cut moved on, whole units at a time, until the window starts at `floor` or later.
    ///
    /// A background compaction uses it to fold in every message a load left
    /// out of its prompt meanwhile: `floor` is where such a load's window
    /// started, a unit boundary there and so here. Pinned and system units
    /// the cut passes are retained, as every policy retains them; the newest
    /// human instruction is not, since a load left it out and so it must reach
    /// the summary. With the
    /// window already starting at `floor` or later, `selection` is returned as it is.
    pub(crate) fn reach(&self, selection: Selection, floor: Seq) -> Selection {
        if self.window_start(&selection) >= floor {
            return selection;
        }
        let mut cut = selection.cut();
        let mut retained = selection.retained().to_vec();
        for unit in units(&self.messages).filter(|unit| unit.start() >= selection.cut()) {
            if self.stored[unit.start()].seq >= floor {
                break;
            }
            if must_keep(&unit, &self.messages) {
                retained.extend(unit.range());
            }
            cut = unit.end();
        }
        Selection::new(self.messages.len(), cut, retained)
    }
}

/// A policy's selection, and how many of the memory's context sources (the first ones) have their allowance reserved in it.
pub(crate) struct Chosen {
    pub(crate) selection: Selection,
    pub(crate) granted: usize,
    /// What the summary and the window may take under the policy's prompt budget (or the lower
    /// budget of this load), once the granted allowances and the overhead are set aside; `None`
    /// for a policy without a token budget.
    pub(crate) limit: Option<u32>,
}

/// A prompt before its context blocks: the summary, the window, and which messages the window holds.
pub(crate) struct Served {
    pub(crate) summary: Option<Message>,
    pub(crate) window: Vec<Message>,
    /// The window's first sequence number: every message from it on is in the window.
    pub(crate) below: Seq,
    /// The messages below `below` that the window holds anyway (retained ones), ascending.
    pub(crate) in_prompt: Vec<Seq>,
    /// How many context sources, in order, have room reserved.
    pub(crate) granted: usize,
    /// The tokens the budget still has beside the summary, the window and the allowances (as the
    /// window was fitted, with the calibrated ratio), lent to the granted sources.
    pub(crate) room: u32,
    /// The calibrated ratio the window was fitted with.
    pub(crate) ratio: Ratio,
}

impl Served {
    /// The prompt without context blocks.
    pub(crate) fn into_messages(self) -> Vec<Message> {
        let leading = leading_system(&self.window);
        let mut prompt = Vec::with_capacity(self.window.len() + 1);
        let mut window = self.window.into_iter();
        prompt.extend(window.by_ref().take(leading));
        prompt.extend(self.summary);
        prompt.extend(window);
        prompt
    }
}

/// What a policy made of a window: the prompt when every message stays, or the view and the selection to act on.
pub(crate) enum Fit {
    /// Nothing leaves: the prompt to return.
    Fits(Served),
    /// Something must leave: the view it was chosen from and the choice.
    Evicts(View, Chosen),
}

impl View {
    /// Let `policy` choose (see [`choose`](View::choose)), and serve the window at once when it keeps every message.
    pub(crate) fn fit<P: MemoryPolicy>(
        self,
        policy: &P,
        counter: &dyn TokenCounter,
        contexts: &Contexts,
        within: Option<NonZeroU32>,
    ) -> Fit {
        let chosen = self.choose(policy, counter, contexts, within);
        if !chosen.selection.keeps_all() {
            return Fit::Evicts(self, chosen);
        }
        if !chosen.selection.over_budget() || self.state.summary.is_none() {
            return Fit::Fits(self.serve(&chosen));
        }
        // Nothing is left to evict and the summary leaves the window over budget: cut this prompt's copy of it.
        match self.serve_with_summary_cut(policy, counter, contexts, within, keeps_all_within) {
            Ok(served) => Fit::Fits(served),
            Err(view) => Fit::Fits(view.serve(&chosen)),
        }
    }

    /// The prompt as the store holds it, whatever the policy would evict: [`fit`](View::fit) without acting on it.
    pub(crate) fn serve_as_is<P: MemoryPolicy>(
        self,
        policy: &P,
        counter: &dyn TokenCounter,
        contexts: &Contexts,
        within: Option<NonZeroU32>,
    ) -> Served {
        match self.fit(policy, counter, contexts, within) {
            Fit::Fits(served) => served,
            Fit::Evicts(view, chosen) => view.serve(&chosen),
        }
    }
}

/// The effect of one selection on the stored state.
pub(crate) struct Plan {
    /// The sequence numbers the watermark moves past.
    pub(crate) range: SeqRange,
    /// The messages leaving the window, in order.
    pub(crate) demoted: Vec<StoredMessage>,
    /// The state to write (its generation is set by the store).
    pub(crate) state: CompactionState,
}

/// Count and wrap messages for appending, after checking that they can extend a valid history.
///
/// Leading tool messages answer calls made by an earlier append, which this
/// check cannot see, so only their shape is checked; the rest of the batch
/// must be valid on its own.
pub(crate) fn prepare_append(
    messages: Vec<Message>,
    counter: &dyn TokenCounter,
) -> Result<Vec<tidemark_core::NewMessage>, tidemark_core::Violation> {
    let leading = messages.iter().take_while(|m| m.role == tidemark_core::Role::Tool).count();
    for (index, message) in messages[..leading].iter().enumerate() {
        let only_results =
            message.parts.iter().all(|part| matches!(part, tidemark_core::Part::ToolResult(_)));
        if message.parts.is_empty() || !only_results {
            return Err(tidemark_core::Violation::new(
                index,
                tidemark_core::ViolationKind::MalformedToolMessage,
            ));
        }
    }
    tidemark_core::validate(&messages[leading..])
        .map_err(|violation| tidemark_core::Violation::new(violation.index + leading, violation.kind))?;
    Ok(messages
        .into_iter()
        .map(|message| {
            let tokens = counter.count(&message);
            tidemark_core::NewMessage::new(message, tokens)
        })
        .collect())
}

/// How many system messages lead `window` and go before the summary: the agent's own instructions.
///
/// A pinned system prompt is retained below the watermark for ever and always
/// leads the window. It goes first and the summary after it, so that what a
/// provider's prompt cache keeps across a compaction (which rewrites the
/// summary and everything after it) includes the whole system prompt. The
/// newest message is never among them, even when it is a system message: it
/// stays last in the prompt.
pub(crate) fn leading_system(window: &[Message]) -> usize {
    let leading = window.iter().take_while(|message| message.role == tidemark_core::Role::System).count();
    leading.min(window.len().saturating_sub(1))
}

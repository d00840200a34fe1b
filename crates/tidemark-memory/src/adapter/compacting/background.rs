//! [`BackgroundMemory`]: a [`CompactingMemory`] whose loads never wait for the compactor, which runs in a Tokio task instead.

use std::collections::HashMap;
use std::fmt;
use std::num::NonZeroU32;
use std::pin::pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tidemark_core::error::chain_text;
use tidemark_core::{
    Calibration, CompactionEvent, CompactionObserver, Compactor, ConversationId, ConversationMemory,
    ConversationStore, MemoryError, MemoryPolicy, Message, Outcome, Selection, Seq, SeqRange, Usage,
};
use tokio::runtime::Handle;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use super::super::Settings;
use super::super::window::{Chosen, Fit, View};
use super::{CompactingMemory, Reset, Step, Undone};

/// A [`CompactingMemory`] whose loads never wait for a summarizer.
///
/// Built with [`CompactingMemory::in_background`]. When the policy wants
/// messages to leave, a load does not run the compactor: it serves the
/// previous summary and the policy's window at once, and starts the
/// compaction in a Tokio task. The next load after that task has written the
/// new summary serves it.
///
/// - **Within budget, valid.** The prompt a load serves while a compaction is
///   pending is the one [`WaitMode::ReturnPrevious`](crate::WaitMode::ReturnPrevious)
///   serves: the stored summary and the policy's window fitted beside it, cut
///   at whole tool units, with the context blocks. Messages between the
///   stored watermark and that cut are in neither for a while.
/// - **Nothing lost, nothing twice.** Those messages are still above the
///   stored watermark. Each load that leaves some out tells the pending
///   compaction where its window started; the compaction reads the window
///   afresh under the conversation's lease, round after round, and compacts
///   at least up to there before it ends, so every message a served prompt
///   left out is in a summary before the compaction is over (with
///   [`WaitMode::ReturnPrevious`](crate::WaitMode::ReturnPrevious) and the
///   lease held by another memory, the task leaves the work to that memory,
///   and what it compacts is up to its own policy). The summary and the
///   watermark are written in one compare-and-swap, as in a waiting load, so
///   each message is summarized once, also across processes sharing the
///   store, and stays in the store for recall.
/// - **Single flight.** At most one background compaction per conversation
///   runs in this memory, under the same in-process gate and store lease as
///   a waiting load: a lease held by another process is waited for
///   ([`WaitMode::Wait`](crate::WaitMode::Wait)) or left to its holder
///   ([`WaitMode::ReturnPrevious`](crate::WaitMode::ReturnPrevious)) in the task, never in a load.
/// - **Stale turns are reported.** Every load that serves the previous summary
///   while the policy wants a compaction emits a [`CompactionEvent`] with
///   [`Outcome::Deferred`], naming the newest message it served
///   ([`served_through`](CompactionEvent::served_through)).
/// - **Failures.** A load has returned by the time a compaction fails, so a
///   failure is never returned: it is emitted as a `failed` event (or
///   `degraded`, with [`FailureMode::Degrade`](crate::FailureMode::Degrade))
///   and logged, the watermark stays, and the next load that needs it starts
///   the compaction again.
/// - **Shutdown.** [`flush`](BackgroundMemory::flush) waits until no
///   compaction is pending; [`abandon`](BackgroundMemory::abandon) cancels the
///   pending ones and releases their leases; dropping the memory cancels them
///   and leaves their leases to expire. A cancelled compaction writes
///   nothing: its only write is the compare-and-swap, whole or not at all.
///
/// Loads outside a Tokio runtime, with no runtime given by
/// [`with_runtime`](BackgroundMemory::with_runtime), cannot start a task:
/// they compact and wait as a [`CompactingMemory`] does, and log a warning.
///
/// ```
/// use std::num::NonZeroU32;
/// use tidemark_core::{ConversationId, ConversationMemory, Message, TokenCounter};
/// use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, TokenWindow};
/// use tidemark_testkit::reference::ConcatCompactor;
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let counter = HeuristicCounter::default();
/// let policy = TokenWindow::new(NonZeroU32::new(200).unwrap(), counter);
/// let memory = CompactingMemory::new(InMemoryStore::new(), policy, ConcatCompactor::capped(400)).in_background();
/// let id = ConversationId::new("demo")?;
/// for turn in 0..20 {
///     memory.append(&id, vec![Message::user(format!("question {turn}: what changed in the build?"))]).await?;
/// }
/// // The policy wants older turns to leave: this load serves a cut window
/// // within the budget at once and starts the compaction in the background.
/// let prompt = memory.load(&id).await?;
/// assert!(counter.count_prompt(&prompt) <= 200);
/// assert!(!prompt[0].text().starts_with("Summary of earlier messages"));
///
/// // Once it is written, the next load serves the new summary.
/// memory.flush().await;
/// let prompt = memory.load(&id).await?;
/// assert!(prompt[0].text().starts_with("Summary of earlier messages"));
/// assert_eq!(prompt.last(), Some(&Message::user("question 19: what changed in the build?")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
pub struct BackgroundMemory<S, P, C, O = ()> {
    memory: Arc<CompactingMemory<S, P, C, O>>,
    pending: Arc<Pending>,
    runtime: Option<Handle>,
}

/// The background compactions of one memory: one open task per conversation at most.
#[derive(Debug, Default)]
struct Pending {
    tasks: Mutex<HashMap<ConversationId, Task>>,
    /// Told whenever a task ends, for [`BackgroundMemory::flush`].
    ended: Notify,
    next: AtomicU64,
}

/// A running background compaction; `token` tells it apart from a later one of the same conversation.
#[derive(Debug)]
struct Task {
    token: u64,
    /// The task, once spawned (it is registered just before).
    handle: Option<JoinHandle<()>>,
    /// Where the latest window a load served while this task was pending starts: the task compacts up to it.
    floor: Seq,
    /// Whether the task has compacted up to `floor` and is only releasing its lease: a load then starts a new task.
    closed: bool,
}

/// Held by a task while it runs: dropping it (at the end, on a panic or a cancellation) removes the task's entry.
struct Running {
    pending: Arc<Pending>,
    id: ConversationId,
    token: u64,
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut tasks = self.pending.tasks.lock().unwrap_or_else(PoisonError::into_inner);
        if tasks.get(&self.id).is_some_and(|task| task.token == self.token) {
            tasks.remove(&self.id);
        }
        drop(tasks);
        self.pending.ended.notify_waiters();
    }
}

impl Pending {
    fn len(&self) -> usize {
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// Whether a compaction of `id` is pending.
    fn has(&self, id: &ConversationId) -> bool {
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner).contains_key(id)
    }

    /// The floor of task `token` of `id`; `None` once it was abandoned.
    fn floor(&self, id: &ConversationId, token: u64) -> Option<Seq> {
        let tasks = self.tasks.lock().unwrap_or_else(PoisonError::into_inner);
        tasks.get(id).filter(|task| task.token == token).map(|task| task.floor)
    }

    /// Close task `token` of `id` if its floor is still `reached`; `false` when a load raised it meanwhile.
    ///
    /// Loads raise a floor under the same lock, so once this returns `true`
    /// no load counts on the task any more: a later one starts a new task.
    fn close(&self, id: &ConversationId, token: u64, reached: Seq) -> bool {
        let mut tasks = self.tasks.lock().unwrap_or_else(PoisonError::into_inner);
        match tasks.get_mut(id).filter(|task| task.token == token) {
            Some(task) if task.floor > reached => false,
            Some(task) => {
                task.closed = true;
                true
            }
            None => true,
        }
    }
}

impl<S, P, C, O> CompactingMemory<S, P, C, O> {
    /// The same memory compacting in the background: loads never wait for the compactor (see [`BackgroundMemory`]).
    ///
    /// The settings keep their meaning for the background task: it waits for
    /// another memory's lease or leaves the work to it
    /// ([`WaitMode`](crate::WaitMode)), and its failures are `failed` or
    /// `degraded` events ([`FailureMode`](crate::FailureMode)).
    #[must_use]
    pub fn in_background(self) -> BackgroundMemory<S, P, C, O> {
        BackgroundMemory { memory: Arc::new(self), pending: Arc::default(), runtime: None }
    }
}

impl<S, P, C, O> BackgroundMemory<S, P, C, O> {
    /// The same memory starting its compactions on `runtime` rather than on the runtime of the load.
    #[must_use]
    pub fn with_runtime(mut self, runtime: Handle) -> Self {
        self.runtime = Some(runtime);
        self
    }

    /// The store.
    pub fn get_ref(&self) -> &S {
        self.memory.get_ref()
    }

    /// The policy.
    pub fn policy(&self) -> &P {
        self.memory.policy()
    }

    /// The compactor.
    pub fn compactor(&self) -> &C {
        self.memory.compactor()
    }

    /// The observer.
    pub fn observer(&self) -> &O {
        self.memory.observer()
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        self.memory.settings()
    }

    /// How many conversations have a background compaction pending now.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// How many conversations hold this memory's in-process gate now (for leak checks).
    pub fn in_flight(&self) -> usize {
        self.memory.in_flight()
    }

    /// Wait until no background compaction is pending: every one started before, or while, this waits has written its summary or failed.
    ///
    /// Call it before a process exits to leave every summary written; loads
    /// may go on meanwhile, and a compaction they start is waited for too.
    pub async fn flush(&self) {
        loop {
            let mut ended = pin!(self.pending.ended.notified());
            // Registered before looking, so a task ending in between is not missed.
            ended.as_mut().enable();
            if self.pending.len() == 0 {
                return;
            }
            ended.await;
        }
    }

    /// Cancel every background compaction pending now; loads may start new ones afterwards.
    ///
    /// A cancelled compaction writes nothing (its one write is a
    /// compare-and-swap, whole or not at all), so its messages stay above the
    /// watermark and the next compaction summarizes them. Its lease on the
    /// store is released, so other processes need not wait for it to expire.
    pub async fn abandon(&self)
    where
        S: ConversationStore,
        P: MemoryPolicy,
        C: Compactor,
        O: CompactionObserver,
    {
        let tasks: Vec<(ConversationId, Task)> =
            self.pending.tasks.lock().unwrap_or_else(PoisonError::into_inner).drain().collect();
        for (id, task) in tasks {
            // A task not spawned yet finds its entry gone and ends at once.
            if let Some(handle) = task.handle {
                handle.abort();
                // Cancelled or finished, it is over; a panic was logged by the task's runtime.
                let _ = handle.await;
            }
            // Under the gate, so a compaction started since cannot lose its lease to this release.
            let _flight = self.memory.gates.claim(&id).acquire().await;
            self.memory.release(&id).await;
        }
        self.pending.ended.notify_waiters();
    }
}

impl<S, P, C, O> BackgroundMemory<S, P, C, O>
where
    S: ConversationStore + 'static,
    P: MemoryPolicy + 'static,
    C: Compactor + 'static,
    O: CompactionObserver + 'static,
{
    /// A load that never runs the compactor, fitted `within` a lower budget when one is given.
    async fn load_inner(
        &self,
        conversation: &ConversationId,
        within: Option<NonZeroU32>,
    ) -> Result<Vec<Message>, MemoryError> {
        let Some(runtime) = self.runtime.clone().or_else(|| Handle::try_current().ok()) else {
            tracing::warn!(
                conversation = %conversation,
                "no Tokio runtime to compact in the background; this load compacts and waits"
            );
            return self.memory.load_inner(conversation, within).await;
        };
        let memory = &*self.memory;
        let (view, chosen) = match memory.parts.look(conversation, within).await? {
            Fit::Fits(served) => return memory.parts.finish(conversation, served, within).await,
            Fit::Evicts(view, chosen) => (view, chosen),
        };
        let floor = view.window_start(&chosen.selection);
        memory.emit(&deferred_event(memory, conversation, &view, &chosen));
        let served = if chosen.selection.over_budget() {
            // The stored summary leaves even the policy's cut over budget: cut this prompt's copy of it.
            let (policy, contexts) = (&memory.parts.policy, &memory.parts.contexts);
            let fits = |selection: &Selection| !selection.over_budget();
            view.serve_with_summary_cut(policy, memory.counter(), contexts, within, fits)
                .unwrap_or_else(|view| view.serve(&chosen))
        } else {
            view.serve(&chosen)
        };
        // The task folds in every message this prompt leaves out, wherever its window starts.
        self.start(&runtime, conversation, floor.max(served.below));
        memory.parts.finish(conversation, served, within).await
    }

    /// Make sure a task compacts `id` up to `floor`: the pending one, or a new one on `runtime`.
    fn start(&self, runtime: &Handle, id: &ConversationId, floor: Seq) {
        let token = {
            let mut tasks = self.pending.tasks.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(task) = tasks.get_mut(id).filter(|task| !task.closed) {
                task.floor = task.floor.max(floor);
                return;
            }
            let token = self.pending.next.fetch_add(1, Ordering::Relaxed);
            tasks.insert(id.clone(), Task { token, handle: None, floor, closed: false });
            token
        };
        // Spawned without the lock: a task that cannot start (its runtime shut
        // down) is dropped at once, and its `Running` takes the lock to leave.
        let running = Running { pending: Arc::clone(&self.pending), id: id.clone(), token };
        let memory = Arc::clone(&self.memory);
        let handle = runtime.spawn(async move {
            let running = running;
            run(&memory, &running).await;
        });
        let mut tasks = self.pending.tasks.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(task) = tasks.get_mut(id).filter(|task| task.token == token) {
            task.handle = Some(handle);
        }
    }
}

/// The event of a load that served the previous summary and `chosen`'s cut of `view` instead of waiting for a compaction.
fn deferred_event<S, P, C, O>(
    memory: &CompactingMemory<S, P, C, O>,
    id: &ConversationId,
    view: &View,
    chosen: &Chosen,
) -> CompactionEvent
where
    S: ConversationStore,
    P: MemoryPolicy,
    C: Compactor,
    O: CompactionObserver,
{
    let counter = memory.counter();
    let summary = view.state.summary.as_ref();
    let kept: u64 = chosen
        .selection
        .kept()
        .filter_map(|index| view.tokens.get(index))
        .map(|&tokens| u64::from(tokens))
        .sum();
    let event = CompactionEvent::new(id.clone(), memory.compactor.name(), Outcome::Deferred)
        .with_messages(
            view.messages.len() + usize::from(summary.is_some()),
            chosen.selection.kept_len() + usize::from(summary.is_some()),
        )
        .with_tokens(
            view.prompt_tokens(counter),
            u64::from(view.fixed_tokens(counter)) + kept,
            summary.map_or(0, |summary| u64::from(summary.tokens)),
        );
    match view.stored.last() {
        Some(newest) => event.with_served_through(newest.seq),
        None => event,
    }
}

/// The body of a background task: the gate, the lease, compactions up to the floor, and failures reported instead of returned.
async fn run<S, P, C, O>(memory: &CompactingMemory<S, P, C, O>, running: &Running)
where
    S: ConversationStore,
    P: MemoryPolicy,
    C: Compactor,
    O: CompactionObserver,
{
    let id = &running.id;
    let result = async {
        let _flight = memory.gates.claim(id).acquire().await;
        if !memory.lease(id).await? {
            // Another memory holds the lease and this one does not wait: the work is left to it.
            return Ok(());
        }
        let folded = memory.fold(id, running).await;
        memory.release(id).await;
        folded
    }
    .await;
    match result {
        Ok(()) => {}
        // The compaction's own event already says so.
        Err(MemoryError::Compaction(error)) => {
            tracing::warn!(conversation = %id, error = %chain_text(&error), "background compaction failed; the next load tries again");
        }
        Err(error) => {
            tracing::warn!(conversation = %id, error = %chain_text(&error), "background compaction failed; the next load tries again");
            memory.emit(
                &CompactionEvent::new(id.clone(), memory.compactor.name(), Outcome::Failed)
                    .with_error(&error),
            );
        }
    }
}

/// How many compactions one background task runs at most before it leaves the rest to the next load.
const MAX_FOLDS: usize = 16;

impl<S, P, C, O> CompactingMemory<S, P, C, O>
where
    S: ConversationStore,
    P: MemoryPolicy,
    C: Compactor,
    O: CompactionObserver,
{
    /// Under the gate and the lease: compact what the policy evicts and everything below the task's floor, until neither leaves anything.
    ///
    /// Each round reads the window afresh, so that it sees the messages
    /// appended and the floor raised while the compactor ran. A state moved
    /// under a compaction (a clear, another process) or a degraded one ends
    /// the task; the next load looks again.
    async fn fold(&self, id: &ConversationId, running: &Running) -> Result<(), MemoryError> {
        for _ in 0..MAX_FOLDS {
            let Some(floor) = running.pending.floor(id, running.token) else {
                return Ok(()); // abandoned
            };
            let view = View::read(&self.parts.inner, id).await?;
            let chosen = view.choose(&self.parts.policy, self.counter(), &self.parts.contexts, None);
            let selection = view.reach(chosen.selection, floor);
            if selection.keeps_all() {
                if running.pending.close(id, running.token, floor) {
                    return Ok(());
                }
                continue;
            }
            let chosen = Chosen { selection, ..chosen };
            match self.compact(id, view, chosen).await? {
                Step::Applied(_) => {}
                Step::Serve(_) | Step::Conflict => return Ok(()),
            }
        }
        tracing::warn!(conversation = %id, "a background compaction still had work after {MAX_FOLDS} rounds; the next load goes on");
        Ok(())
    }
}

impl<S, P, C, O> Drop for BackgroundMemory<S, P, C, O> {
    fn drop(&mut self) {
        // Cancelled tasks write nothing; their leases expire on their own (`abandon` releases them at once).
        // They are taken out first, so that no task leaves (and takes the lock) while it is held here.
        let tasks: Vec<Task> = self
            .pending
            .tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain()
            .map(|(_, task)| task)
            .collect();
        for handle in tasks.into_iter().filter_map(|task| task.handle) {
            handle.abort();
        }
    }
}

impl<S: fmt::Debug, P: fmt::Debug, C: fmt::Debug, O: fmt::Debug> fmt::Debug for BackgroundMemory<S, P, C, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BackgroundMemory")
            .field("memory", &self.memory)
            .field("pending", &self.pending.len())
            .finish_non_exhaustive()
    }
}

impl<S, P, C, O> ConversationMemory for BackgroundMemory<S, P, C, O>
where
    S: ConversationStore + 'static,
    P: MemoryPolicy + 'static,
    C: Compactor + 'static,
    O: CompactionObserver + 'static,
{
    async fn load(&self, conversation: &ConversationId) -> Result<Vec<Message>, MemoryError> {
        self.load_inner(conversation, None).await
    }

    async fn load_within(
        &self,
        conversation: &ConversationId,
        budget: NonZeroU32,
    ) -> Result<Vec<Message>, MemoryError> {
        self.load_inner(conversation, Some(budget)).await
    }

    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<Message>,
    ) -> Result<SeqRange, MemoryError> {
        self.memory.append(conversation, messages).await
    }

    async fn observe_usage(
        &self,
        conversation: &ConversationId,
        prompt: &[Message],
        usage: Usage,
    ) -> Result<Calibration, MemoryError> {
        self.memory.observe_usage(conversation, prompt, usage).await
    }

    async fn clear(&self, conversation: &ConversationId) -> Result<(), MemoryError> {
        self.memory.clear(conversation).await
    }
}

impl<S, P, C, O> BackgroundMemory<S, P, C, O>
where
    S: ConversationStore,
    P: MemoryPolicy,
    C: Compactor,
    O: CompactionObserver,
{
    /// Start a fresh window now, as [`CompactingMemory::new_context`] does; [`MemoryError::Busy`] while a background compaction of the conversation is pending.
    ///
    /// # Errors
    ///
    /// As [`CompactingMemory::new_context`], and [`MemoryError::Busy`] when a
    /// compaction of `id` is pending here: nothing is changed then.
    pub async fn new_context(&self, id: &ConversationId, note: &str) -> Result<Reset, MemoryError> {
        if self.pending.has(id) {
            return Err(MemoryError::Busy);
        }
        self.memory.new_context(id, note).await
    }

    /// Take the last compaction back, as [`CompactingMemory::undo`] does; [`MemoryError::Busy`] while a background compaction of the conversation is pending.
    ///
    /// # Errors
    ///
    /// As [`CompactingMemory::undo`], and [`MemoryError::Busy`] when a
    /// compaction of `id` is pending here: nothing is changed then.
    pub async fn undo(&self, id: &ConversationId) -> Result<Undone, MemoryError> {
        if self.pending.has(id) {
            return Err(MemoryError::Busy);
        }
        self.memory.undo(id).await
    }

    /// Make an earlier epoch's state current again, as [`CompactingMemory::restore`] does; [`MemoryError::Busy`] while a background compaction is pending.
    ///
    /// # Errors
    ///
    /// As [`CompactingMemory::restore`], and [`MemoryError::Busy`] as for [`undo`](Self::undo).
    pub async fn restore(&self, id: &ConversationId, target: Option<u64>) -> Result<Undone, MemoryError> {
        if self.pending.has(id) {
            return Err(MemoryError::Busy);
        }
        self.memory.restore(id, target).await
    }

    /// Fork `source` at `at` into `target`, as [`CompactingMemory::fork`] does; a compaction of `source` pending here is either wholly in the fork or not at all.
    ///
    /// # Errors
    ///
    /// As [`CompactingMemory::fork`].
    pub async fn fork(
        &self,
        source: &ConversationId,
        at: tidemark_core::Seq,
        target: &ConversationId,
    ) -> Result<(), MemoryError> {
        self.memory.fork(source, at, target).await
    }

    /// The compaction history of `id`, as [`CompactingMemory::history`] gives it.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub async fn history(
        &self,
        id: &ConversationId,
    ) -> Result<Vec<tidemark_core::history::Epoch>, MemoryError> {
        self.memory.history(id).await
    }

    /// The prompt served when `seq` was the newest message, rebuilt as [`CompactingMemory::load_as_of`] does and fitted by the policy.
    ///
    /// A background load never waits for the compactor: while a compaction
    /// is pending it serves the stored summary with the policy's window,
    /// which may leave out messages above the watermark. So the rebuilt
    /// window goes through the policy too, with the context sources'
    /// allowances and the conversation's calibration as they are now; the
    /// prompt is the one served when those have not changed since. Context
    /// blocks are not part of it, as for [`CompactingMemory::load_as_of`].
    ///
    /// # Errors
    ///
    /// As [`CompactingMemory::load_as_of`].
    pub async fn load_as_of(
        &self,
        id: &ConversationId,
        seq: tidemark_core::Seq,
    ) -> Result<Vec<Message>, MemoryError> {
        let view = self.memory.view_as_of(id, seq).await?;
        let parts = &self.memory.parts;
        Ok(view.serve_as_is(&parts.policy, parts.counter(), &parts.contexts, None).into_messages())
    }
}

//! Count-based policies: [`SlidingWindow`] keeps the last messages, [`LastTurns`] the last user turns.

use std::num::NonZeroUsize;

use tidemark_core::{MemoryPolicy, Role, Selection, Unit, Window, units};

use super::{must_keep, retained_before, staying};

/// Keeps the most recent messages, up to a count, in whole tool units.
///
/// Pinned units and system messages are kept on top of the count. The newest
/// unit is kept even when it alone holds more messages than the count.
///
/// ```
/// use tidemark_core::{MemoryPolicy, Message, Window};
/// use tidemark_memory::policy::SlidingWindow;
///
/// let history = vec![Message::system("rules"), Message::user("a"), Message::assistant("b"), Message::user("c")];
/// let selection = SlidingWindow::last_messages(2).select(&Window::new(&history));
/// assert_eq!(selection.kept().collect::<Vec<_>>(), vec![0, 2, 3]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlidingWindow {
    max_messages: NonZeroUsize,
}

impl SlidingWindow {
    /// Keep at most `n` messages besides pinned and system ones; `n = 0` keeps the newest unit only.
    pub fn last_messages(n: usize) -> Self {
        Self { max_messages: NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN) }
    }

    /// The message count kept.
    pub fn max_messages(&self) -> usize {
        self.max_messages.get()
    }
}

impl MemoryPolicy for SlidingWindow {
    fn select(&self, window: &Window<'_>) -> Selection {
        let messages = window.messages();
        let all: Vec<Unit> = units(messages).collect();
        // The instruction counts as any message does, and is retained when the cut passes it.
        let stays = staying(&all, messages, &[], None);
        let limit = self.max_messages.get();
        let mut counted = 0;
        let mut cut = 0;
        // Walk from the newest unit back, counting only units that could be dropped.
        for (position, unit) in all.iter().enumerate().rev() {
            if must_keep(unit, messages) {
                continue;
            }
            let newest = position + 1 == all.len();
            if newest || counted + unit.len() <= limit {
                counted += unit.len();
            } else {
                cut = unit.end();
                break;
            }
        }
        Selection::new(messages.len(), cut, retained_before(&all, &stays, cut))
    }
}

/// Keeps the last `n` user turns: everything from the `n`-th most recent user message on.
///
/// A turn starts at a user message and runs until the next one, tool calls
/// included. Pinned units and system messages before the cut are kept.
///
/// ```
/// use tidemark_core::{MemoryPolicy, Message, Window};
/// use tidemark_memory::policy::LastTurns;
///
/// let history = vec![Message::user("a"), Message::assistant("b"), Message::user("c"), Message::assistant("d")];
/// let selection = LastTurns::new(1).select(&Window::new(&history));
/// assert_eq!(selection.kept().collect::<Vec<_>>(), vec![2, 3]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastTurns {
    turns: NonZeroUsize,
}

impl LastTurns {
    /// Keep the last `n` user turns; `n = 0` keeps the last one.
    pub fn new(n: usize) -> Self {
        Self { turns: NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN) }
    }

    /// The number of turns kept.
    pub fn turns(&self) -> usize {
        self.turns.get()
    }
}

impl MemoryPolicy for LastTurns {
    fn select(&self, window: &Window<'_>) -> Selection {
        let messages = window.messages();
        let all: Vec<Unit> = units(messages).collect();
        let stays = staying(&all, messages, &[], None);
        let mut seen = 0;
        let mut cut = 0;
        for unit in all.iter().rev() {
            if messages[unit.start()].role == Role::User {
                seen += 1;
                if seen == self.turns.get() {
                    cut = unit.start();
                    break;
                }
            }
        }
        Selection::new(messages.len(), cut, retained_before(&all, &stays, cut))
    }
}

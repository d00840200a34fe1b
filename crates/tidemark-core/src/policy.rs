//! The window contract: [`MemoryPolicy`] decides which messages stay in the prompt.

use crate::counter::TokenCounter;
use crate::message::Message;

/// The messages a policy chooses from, with their token counts.
///
/// `fixed_tokens` are tokens the prompt carries whatever the policy keeps: the
/// summary in front of the window and the reply-priming tokens of the provider's
/// chat format. A token-budget policy counts them against its budget.
#[derive(Clone, Copy, Debug)]
pub struct Window<'a> {
    messages: &'a [Message],
    tokens: Option<&'a [u32]>,
    fixed_tokens: u32,
}

impl<'a> Window<'a> {
    /// A window over `messages` with no known token counts and no fixed tokens.
    pub fn new(messages: &'a [Message]) -> Self {
        Self { messages, tokens: None, fixed_tokens: 0 }
    }

    /// The same window with per-message token counts, one per message.
    ///
    /// Counts of the wrong length are not used: [`Window::tokens`] then returns
    /// `None` and a policy counts for itself.
    #[must_use]
    pub fn with_tokens(mut self, tokens: &'a [u32]) -> Self {
        self.tokens = (tokens.len() == self.messages.len()).then_some(tokens);
        self
    }

    /// The same window with `fixed_tokens` always present in the prompt.
    #[must_use]
    pub fn with_fixed_tokens(mut self, fixed_tokens: u32) -> Self {
        self.fixed_tokens = fixed_tokens;
        self
    }

    /// The candidate messages, oldest first.
    pub fn messages(&self) -> &'a [Message] {
        self.messages
    }

    /// Token counts matching [`Window::messages`] one to one, if known.
    pub fn tokens(&self) -> Option<&'a [u32]> {
        self.tokens
    }

    /// Tokens the prompt carries besides the messages.
    pub fn fixed_tokens(&self) -> u32 {
        self.fixed_tokens
    }

    /// The number of candidate messages.
    pub fn len(&self) -> usize {
        self.messages.len()
    }

    /// Whether there are no candidate messages.
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}

/// A policy's choice: the messages from `cut` on, plus `retained` earlier ones, stay; the rest are demoted.
///
/// Kept and demoted messages together are the input, each in input order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    len: usize,
    cut: usize,
    retained: Vec<usize>,
    over_budget: bool,
}

impl Selection {
    /// Keep all `len` messages.
    pub fn keep_all(len: usize) -> Self {
        Self { len, cut: 0, retained: Vec::new(), over_budget: false }
    }

    /// Keep messages `cut..len` and the `retained` indices before `cut`.
    ///
    /// The input is normalised: `cut` is capped at `len`, and `retained` is sorted,
    /// deduplicated and stripped of indices at or after `cut`.
    pub fn new(len: usize, cut: usize, mut retained: Vec<usize>) -> Self {
        let cut = cut.min(len);
        retained.retain(|&index| index < cut);
        retained.sort_unstable();
        retained.dedup();
        Self { len, cut, retained, over_budget: false }
    }

    /// The same selection, marked as exceeding the policy's budget (a single unit was too large to fit).
    #[must_use]
    pub fn with_over_budget(mut self, over_budget: bool) -> Self {
        self.over_budget = over_budget;
        self
    }

    /// The number of input messages.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the input was empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The index of the first message of the kept tail.
    pub fn cut(&self) -> usize {
        self.cut
    }

    /// Indices before the cut that are kept anyway, ascending.
    pub fn retained(&self) -> &[usize] {
        &self.retained
    }

    /// Whether the kept messages exceed the policy's budget.
    pub fn over_budget(&self) -> bool {
        self.over_budget
    }

    /// Whether nothing is demoted.
    pub fn keeps_all(&self) -> bool {
        self.retained.len() == self.cut
    }

    /// The kept indices, ascending.
    pub fn kept(&self) -> impl Iterator<Item = usize> + '_ {
        self.retained.iter().copied().chain(self.cut..self.len)
    }

    /// The demoted indices, ascending.
    pub fn demoted(&self) -> impl Iterator<Item = usize> + '_ {
        let mut retained = self.retained.iter().copied().peekable();
        (0..self.cut).filter(move |&index| {
            if retained.peek() == Some(&index) {
                retained.next();
                false
            } else {
                true
            }
        })
    }

    /// How many messages are kept.
    pub fn kept_len(&self) -> usize {
        self.retained.len() + (self.len - self.cut)
    }

    /// How many messages are demoted.
    pub fn demoted_len(&self) -> usize {
        self.cut - self.retained.len()
    }

    /// Split `items` (one per input message) into kept and demoted, each in input order.
    ///
    /// Items beyond the selection's length are kept.
    pub fn split<'a, T>(&self, items: &'a [T]) -> (Vec<&'a T>, Vec<&'a T>) {
        let mut kept = Vec::with_capacity(self.kept_len());
        let mut demoted = Vec::with_capacity(self.demoted_len());
        let mut retained = self.retained.iter().copied().peekable();
        for (index, item) in items.iter().enumerate() {
            if index >= self.cut || retained.next_if_eq(&index).is_some() {
                kept.push(item);
            } else {
                demoted.push(item);
            }
        }
        (kept, demoted)
    }
}

/// Chooses which messages stay in the prompt window and which are demoted.
///
/// # Contract
///
/// - The choice respects tool units ([`units`](crate::units)): a unit is kept
///   or demoted whole, so the kept messages are valid whenever the input is, and
///   the kept tail never starts with a tool result.
/// - Pinned and system messages before the cut are retained at their place.
/// - Applying the policy to its own kept output keeps everything (idempotence).
/// - A policy with a budget marks the selection [`Selection::over_budget`] when
///   the newest unit alone exceeds it; it keeps that unit rather than return an
///   empty window.
///
/// The `tidemark-testkit` policy conformance suite checks these properties.
///
/// # Example
///
/// A policy that keeps the last `n` units, retaining pinned and system messages:
///
/// ```
/// use tidemark_core::{MemoryPolicy, Message, Role, Selection, Window, units};
///
/// struct LastUnits(usize);
///
/// impl MemoryPolicy for LastUnits {
///     fn select(&self, window: &Window<'_>) -> Selection {
///         let messages = window.messages();
///         let starts: Vec<usize> = units(messages).map(|unit| unit.start()).collect();
///         let cut = starts.len().checked_sub(self.0).map_or(0, |first| starts[first]);
///         let retained = units(&messages[..cut])
///             .filter(|unit| unit.is_pinned(messages) || messages[unit.start()].role == Role::System)
///             .flat_map(|unit| unit.range())
///             .collect();
///         Selection::new(messages.len(), cut, retained)
///     }
/// }
///
/// let history = vec![Message::system("rules"), Message::user("a"), Message::assistant("b"), Message::user("c")];
/// let selection = LastUnits(2).select(&Window::new(&history));
/// assert_eq!(selection.kept().collect::<Vec<_>>(), vec![0, 2, 3]);
/// assert_eq!(selection.demoted().collect::<Vec<_>>(), vec![1]);
/// ```
pub trait MemoryPolicy: Send + Sync {
    /// Choose the kept and demoted messages of `window`.
    fn select(&self, window: &Window<'_>) -> Selection;

    /// The counter whose counts this policy budgets with, if it has one.
    ///
    /// Memory adapters record every appended message's tokens with this counter
    /// (or their own default when there is none), so the counts handed to the
    /// policy in [`Window::tokens`] are the ones it expects.
    fn token_counter(&self) -> Option<&dyn TokenCounter> {
        None
    }

    /// The most tokens a prompt may hold under this policy (its budget less what it keeps for the answer), if it budgets tokens.
    ///
    /// Memory adapters lend the room a prompt leaves under it to their
    /// context sources, so that a short window does not leave the budget
    /// half empty: a policy that budgets tokens should say so here. A policy
    /// without a token budget (counting messages, say) answers `None`, the
    /// default, and its context sources get their allowances alone.
    fn prompt_budget(&self) -> Option<u32> {
        None
    }
}

crate::forward! {
    impl MemoryPolicy {
        fn select(&self, window: &Window<'_>) -> Selection {
            (**self).select(window)
        }

        fn token_counter(&self) -> Option<&dyn TokenCounter> {
            (**self).token_counter()
        }

        fn prompt_budget(&self) -> Option<u32> {
            (**self).prompt_budget()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(len: usize, cut: usize, retained: Vec<usize>, kept: &[usize], demoted: &[usize]) {
        let selection = Selection::new(len, cut, retained);
        assert_eq!(selection.kept().collect::<Vec<_>>(), kept);
        assert_eq!(selection.demoted().collect::<Vec<_>>(), demoted);
        assert_eq!(selection.kept_len(), kept.len());
        assert_eq!(selection.demoted_len(), demoted.len());
        let items: Vec<usize> = (0..len).collect();
        let (k, d) = selection.split(&items);
        assert_eq!(k.into_iter().copied().collect::<Vec<_>>(), kept);
        assert_eq!(d.into_iter().copied().collect::<Vec<_>>(), demoted);
    }

    #[test]
    fn selections_partition_their_input() {
        check(0, 0, vec![], &[], &[]);
        check(5, 0, vec![], &[0, 1, 2, 3, 4], &[]);
        check(5, 3, vec![], &[3, 4], &[0, 1, 2]);
        check(5, 3, vec![0, 2], &[0, 2, 3, 4], &[1]);
        // Normalisation: unsorted, duplicated and out-of-range retained indices, cut beyond len.
        check(4, 9, vec![3, 1, 1, 7], &[1, 3], &[0, 2]);
        check(5, 3, vec![4, 3], &[3, 4], &[0, 1, 2]);
    }

    #[test]
    fn window_ignores_token_counts_of_the_wrong_length() {
        let messages = [Message::user("a"), Message::user("b")];
        assert_eq!(Window::new(&messages).with_tokens(&[1, 2]).tokens(), Some(&[1, 2][..]));
        assert_eq!(Window::new(&messages).with_tokens(&[1]).tokens(), None);
    }
}

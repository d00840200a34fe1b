//! The last resort of a load whose summary outgrew the room the budget leaves: serve this prompt's copy of the summary cut short.

use std::num::NonZeroU32;

use tidemark_core::{MemoryPolicy, Message, Part, Selection, TokenCounter, task};

use super::context::Contexts;
use super::window::{Served, View};

/// Whether `selection` keeps every message of the window within the budget: a load that cannot evict accepts no less.
pub(crate) fn keeps_all_within(selection: &Selection) -> bool {
    selection.keeps_all() && !selection.over_budget()
}

/// The first line of a summary cut to fit a prompt.
pub(crate) const CUT_NOTE: &str = "(Older parts of this summary were left out to fit the prompt's budget.)";

impl View {
    /// This view served with the most of its summary that lets `accept` take the policy's selection, or the view back (boxed) when even no summary does.
    ///
    /// A summary can outgrow the room a budget leaves: a compactor's cap
    /// larger than what a long system prompt leaves, or segments at a small
    /// budget. A prompt over its budget is one the provider refuses, so the
    /// prompt's copy of the summary is cut instead: its oldest parts
    /// (segments) first, then the oldest lines of the part left, behind
    /// [`CUT_NOTE`], then all of it but a carried instruction (its last part), and
    /// at last the summary is left out. The stored summary
    /// is unchanged, and the next compaction folds into all of it.
    pub(crate) fn serve_with_summary_cut<P: MemoryPolicy>(
        mut self,
        policy: &P,
        counter: &dyn TokenCounter,
        contexts: &Contexts,
        within: Option<NonZeroU32>,
        accept: impl Fn(&Selection) -> bool,
    ) -> Result<Served, Box<View>> {
        let Some(stored) = self.state.summary.clone() else { return Err(Box::new(self)) };
        // A carried instruction stays in every cut: the compactor's parts give way first.
        let carried = carried_part(&stored.message);
        let mut whole = stored.message.clone();
        if carried.is_some() {
            whole.parts.pop();
        }
        let keeping = |mut parts: Vec<Part>| {
            parts.extend(carried.clone());
            with_parts(&whole, parts)
        };
        let try_with = |view: &mut View, message: Option<Message>| {
            view.state.summary = message.map(|message| {
                let mut summary = stored.clone();
                summary.tokens = counter.count(&message);
                summary.message = message;
                summary
            });
            let chosen = view.choose(policy, counter, contexts, within);
            accept(&chosen.selection).then_some(chosen)
        };
        // The newest segments alone, oldest left out first.
        for skip in 1..whole.parts.len() {
            let message = keeping(whole.parts[skip..].to_vec());
            if let Some(chosen) = try_with(&mut self, Some(message)) {
                return Ok(self.serve(&chosen));
            }
        }
        // The newest lines of the last part: the most that fit, found by halving.
        let last = whole.parts.last().map(|part| match part {
            Part::Text { text } => text.lines().map(str::to_owned).collect::<Vec<_>>(),
            _ => Vec::new(),
        });
        let lines = last.unwrap_or_default();
        let cut = |keep: usize| {
            let mut text = String::from(CUT_NOTE);
            for line in &lines[lines.len() - keep..] {
                text.push('\n');
                text.push_str(line);
            }
            keeping(vec![Part::text(text)])
        };
        let (mut fits, mut over) = (0, lines.len());
        while over - fits > 1 {
            let keep = fits + (over - fits) / 2;
            match try_with(&mut self, Some(cut(keep))) {
                Some(_) => fits = keep,
                None => over = keep,
            }
        }
        // The last try may have been a cut that did not fit: set the best one again.
        if fits > 0
            && let Some(chosen) = try_with(&mut self, Some(cut(fits)))
        {
            return Ok(self.serve(&chosen));
        }
        // The carried instruction alone, then no summary at all.
        if carried.is_some()
            && let Some(chosen) = try_with(&mut self, Some(keeping(Vec::new())))
        {
            return Ok(self.serve(&chosen));
        }
        match try_with(&mut self, None) {
            Some(chosen) => Ok(self.serve(&chosen)),
            None => {
                self.state.summary = Some(stored);
                Err(Box::new(self))
            }
        }
    }
}

/// `message` with `parts` instead of its own.
fn with_parts(message: &Message, parts: Vec<Part>) -> Message {
    let mut cut = message.clone();
    cut.parts = parts;
    cut
}

/// The last part of a rendered summary when it carries the newest instruction ([`tidemark_core::task`]).
pub(crate) fn carried_part(summary: &Message) -> Option<Part> {
    summary
        .parts
        .last()
        .filter(|part| matches!(part, Part::Text { text } if text.starts_with(task::INSTRUCTION_HEADER)))
        .cloned()
}

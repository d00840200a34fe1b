//! Window policies: keep the last messages, the last user turns, or what fits a token budget.
//!
//! Every policy here follows the [`MemoryPolicy`](tidemark_core::MemoryPolicy)
//! contract: it cuts only between tool units, retains pinned units and system
//! messages from before the cut at their place, always keeps the newest unit,
//! and keeps everything when applied to its own output. The unit of the newest
//! human instruction ([`tidemark_core::task`]) is retained as a pinned one is
//! (for [`TokenWindow`], when it fits beside the units that must stay). Those properties are
//! checked by the testkit's policy conformance suite.

mod count;
mod plan;
mod token;

pub use count::{LastTurns, SlidingWindow};
pub use plan::CachePlan;
pub use token::TokenWindow;

use tidemark_core::task::{self, Protected};
use tidemark_core::{Message, Role, Unit};

/// Whether a unit must stay whatever the policy: it is pinned, or it is a system message.
pub(crate) fn must_keep(unit: &Unit, messages: &[Message]) -> bool {
    unit.is_pinned(messages) || messages[unit.start()].role == Role::System
}

/// Which units no cut may remove: pinned and system units, and the unit of the newest human
/// instruction ([`tidemark_core::task`]) when `room` tokens hold it beside them and the newest unit
/// (always, for a policy that counts messages and gives no `room`). The newest unit itself is left
/// to the policy, which always keeps it.
pub(crate) fn staying(all: &[Unit], messages: &[Message], tokens: &[u32], room: Option<u64>) -> Vec<bool> {
    let mut stays: Vec<bool> = all.iter().map(|unit| must_keep(unit, messages)).collect();
    let newest = all.len().checked_sub(1);
    let held = task::instruction(messages)
        .and_then(|index| all.iter().position(|unit| unit.range().contains(&index)));
    let Some(position) = held.filter(|position| Some(*position) != newest) else { return stays };
    let keep = match room {
        None => true,
        Some(room) => {
            let tokens: Vec<u64> = tokens.iter().map(|&t| u64::from(t)).collect();
            Protected::new(messages, all, &tokens, room).instruction_kept
        }
    };
    if let Some(flag) = stays.get_mut(position) {
        *flag |= keep;
    }
    stays
}

/// The indices of the staying units (see [`staying`]) that lie before `cut`.
fn retained_before(units: &[Unit], stays: &[bool], cut: usize) -> Vec<usize> {
    units
        .iter()
        .zip(stays)
        .take_while(|(unit, _)| unit.end() <= cut)
        .filter(|(_, stays)| **stays)
        .flat_map(|(unit, _)| unit.range())
        .collect()
}

#[cfg(test)]
mod tests;

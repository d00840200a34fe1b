//! Window policies: keep the last messages, the last user turns, or what fits a token budget.
//!
//! Every policy here follows the [`MemoryPolicy`](tidemark_core::MemoryPolicy)
//! contract: it cuts only between tool units, retains pinned units and system
//! messages from before the cut at their place, always keeps the newest unit,
//! and keeps everything when applied to its own output. Those properties are
//! checked by the testkit's policy conformance suite.

mod count;
mod plan;
mod token;

pub use count::{LastTurns, SlidingWindow};
pub use plan::CachePlan;
pub use token::TokenWindow;

use tidemark_core::{Message, Role, Unit};

/// Whether a unit must stay whatever the policy: it is pinned, or it is a system message.
pub(crate) fn must_keep(unit: &Unit, messages: &[Message]) -> bool {
    unit.is_pinned(messages) || messages[unit.start()].role == Role::System
}

/// The indices of the must-keep units that lie before `cut`.
fn retained_before(units: &[Unit], messages: &[Message], cut: usize) -> Vec<usize> {
    units
        .iter()
        .take_while(|unit| unit.end() <= cut)
        .filter(|unit| must_keep(unit, messages))
        .flat_map(Unit::range)
        .collect()
}

#[cfg(test)]
mod tests;

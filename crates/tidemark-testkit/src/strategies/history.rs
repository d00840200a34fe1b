//! Generation of histories that `tidemark_core::validate` accepts, assembled unit by unit from random plans.
//!
//! A strategy first draws a plan for every unit (texts, calls, the order in
//! which results arrive and how they are grouped into tool messages) and then
//! assembles the messages in one pass. Call ids are derived from the unit's
//! position while assembling, so they are unique across the whole history by
//! construction, whatever the random parts of the plan are.

use std::mem;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::strategy::Union;
use tidemark_core::{Attachment, Message, Part, Role, ToolCall, ToolResult};

use super::{arb_attachment, arb_call_without_id, arb_text};

/// The shape of the histories [`arb_history_with`] generates.
///
/// Start from the default and change what matters:
///
/// ```
/// use tidemark_testkit::strategies::{HistoryConfig, arb_history_with};
///
/// let long_and_parallel = arb_history_with(HistoryConfig::default().with_max_units(100).with_max_parallel_calls(8));
/// # let _ = long_and_parallel;
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct HistoryConfig {
    /// The most units a history has, counting the leading system message and a
    /// trailing open exchange; the number is drawn uniformly up to this bound.
    pub max_units: usize,
    /// The most tool calls one assistant message makes (values below 1 count as 1).
    pub max_parallel_calls: usize,
    /// The probability that a message is pinned, between 0 and 1.
    pub pinned_ratio: f64,
    /// The probability that a unit after the first is a system message, between 0 and 1.
    pub system_ratio: f64,
    /// The probability that a text message carries a participant name, between 0 and 1.
    pub name_ratio: f64,
    /// Whether a history may end with an assistant message whose tool calls have
    /// only some or none of their results yet (the state while tools run).
    pub allow_trailing_open_exchange: bool,
}

impl Default for HistoryConfig {
    fn default() -> Self {
        Self {
            max_units: 24,
            max_parallel_calls: 4,
            pinned_ratio: 0.1,
            system_ratio: 0.05,
            name_ratio: 0.1,
            allow_trailing_open_exchange: true,
        }
    }
}

impl HistoryConfig {
    /// The same shape with at most `units` units.
    #[must_use]
    pub fn with_max_units(mut self, units: usize) -> Self {
        self.max_units = units;
        self
    }

    /// The same shape with at most `calls` tool calls per assistant message.
    #[must_use]
    pub fn with_max_parallel_calls(mut self, calls: usize) -> Self {
        self.max_parallel_calls = calls;
        self
    }

    /// The same shape with `ratio` of the messages pinned.
    #[must_use]
    pub fn with_pinned_ratio(mut self, ratio: f64) -> Self {
        self.pinned_ratio = ratio;
        self
    }

    /// The same shape with `ratio` of the units after the first being system messages.
    #[must_use]
    pub fn with_system_ratio(mut self, ratio: f64) -> Self {
        self.system_ratio = ratio;
        self
    }

    /// The same configuration with text messages named with probability `ratio`.
    #[must_use]
    pub fn with_name_ratio(mut self, ratio: f64) -> Self {
        self.name_ratio = ratio;
        self
    }

    /// The same shape, allowing a trailing open exchange or not.
    #[must_use]
    pub fn with_trailing_open_exchange(mut self, allow: bool) -> Self {
        self.allow_trailing_open_exchange = allow;
        self
    }
}

/// Valid histories of the default shape; see [`arb_history_with`].
pub fn arb_history() -> impl Strategy<Value = Vec<Message>> {
    arb_history_with(HistoryConfig::default())
}

/// Histories that [`tidemark_core::validate`] accepts, shaped by `config`.
///
/// A history is an optional leading system message followed by units: user
/// messages (some with a name or an attachment), assistant texts, rare system
/// messages, and tool exchanges. An exchange is an assistant message making
/// one or more calls (sometimes after a text part) followed by all results, in
/// a shuffled order, spread over one or more tool messages; some results report
/// errors. Call ids look like OpenAI's (`call_…`) or Anthropic's (`toolu_…`)
/// and are unique across the history. When the config allows it, the history
/// may end with an exchange that lacks some or all of its results.
pub fn arb_history_with(config: HistoryConfig) -> impl Strategy<Value = Vec<Message>> {
    let max_units = config.max_units;
    let max_calls = config.max_parallel_calls.max(1);
    let pinned = probability(config.pinned_ratio);
    let named = probability(config.name_ratio);
    let trailing_chance = if config.allow_trailing_open_exchange { 0.3 } else { 0.0 };
    (
        prop::bool::weighted(0.5),
        text_plan(Role::System, pinned, named),
        vec(unit_plan(probability(config.system_ratio), max_calls, pinned, named), 0..=max_units),
        prop::bool::weighted(trailing_chance),
        exchange_plan(max_calls, pinned),
        any::<Index>(),
    )
        .prop_map(move |(has_leading, leading, mut body, has_trailing, trailing, delivered)| {
            // Keep the total within `max_units`, giving up body units first,
            // then the trailing exchange, then the leading system message.
            let mut budget = max_units;
            let has_leading = has_leading && budget > 0;
            budget -= usize::from(has_leading);
            let has_trailing = has_trailing && budget > 0;
            budget -= usize::from(has_trailing);
            body.truncate(budget);

            let mut history = Vec::new();
            let mut unit = 0;
            if has_leading {
                history.push(leading.into_message());
                unit += 1;
            }
            for plan in body {
                match plan {
                    UnitPlan::Text(text) => history.push(text.into_message()),
                    UnitPlan::Exchange(exchange) => exchange.emit(unit, None, &mut history),
                }
                unit += 1;
            }
            if has_trailing {
                // An index is below the number of calls, so at least one call
                // stays unanswered and the exchange is really open.
                let arrived = delivered.index(trailing.calls.len());
                trailing.emit(unit, Some(arrived), &mut history);
            }
            history
        })
}

/// A probability made safe for proptest, which panics outside `0..=1`.
fn probability(value: f64) -> f64 {
    if value.is_nan() { 0.0 } else { value.clamp(0.0, 1.0) }
}

/// The plan of one unit in the body of a history.
#[derive(Clone, Debug)]
enum UnitPlan {
    Text(TextPlan),
    Exchange(ExchangePlan),
}

/// A message holding text (and, for users, sometimes an attachment).
#[derive(Clone, Debug)]
struct TextPlan {
    role: Role,
    text: String,
    name: Option<String>,
    attachment: Option<Attachment>,
    pinned: bool,
}

impl TextPlan {
    fn into_message(self) -> Message {
        let mut message = Message::new(self.role, vec![Part::text(self.text)]);
        // Only users send files in the conversations this imitates.
        if self.role == Role::User {
            message.name = self.name;
            if let Some(attachment) = self.attachment {
                message.parts.push(Part::Attachment(attachment));
            }
        }
        message.pinned = self.pinned;
        message
    }
}

/// An assistant message with calls and the tool messages answering them.
#[derive(Clone, Debug)]
struct ExchangePlan {
    /// Text the assistant writes before its calls.
    lead: Option<String>,
    /// The calls, with ids still empty.
    calls: Vec<ToolCall>,
    /// The content of each call's result and whether it reports an error, by call index.
    results: Vec<(String, bool)>,
    /// The call indices in the order their results arrive.
    order: Vec<usize>,
    /// Whether a tool message ends after the result at each arrival position.
    breaks: Vec<bool>,
    /// Whether ids follow Anthropic's style rather than OpenAI's.
    anthropic: bool,
    /// Whether the assistant message is pinned.
    call_pinned: bool,
    /// Whether the tool message ending at each arrival position is pinned.
    result_pinned: Vec<bool>,
}

impl ExchangePlan {
    /// Append the exchange as unit number `unit`, with only the first `delivered`
    /// results when given (an open exchange) or all of them.
    fn emit(self, unit: usize, delivered: Option<usize>, history: &mut Vec<Message>) {
        let ids: Vec<String> = (0..self.calls.len())
            .map(|k| if self.anthropic { format!("toolu_{unit}_{k}") } else { format!("call_{unit}_{k}") })
            .collect();
        let mut parts: Vec<Part> = self.lead.into_iter().map(Part::text).collect();
        for (mut call, id) in self.calls.into_iter().zip(&ids) {
            call.id.clone_from(id);
            parts.push(Part::ToolCall(call));
        }
        let mut call_message = Message::new(Role::Assistant, parts);
        call_message.pinned = self.call_pinned;
        history.push(call_message);

        let count = delivered.unwrap_or(ids.len()).min(ids.len());
        let mut pending: Vec<Part> = Vec::new();
        for (position, &k) in self.order.iter().take(count).enumerate() {
            let (content, failed) = &self.results[k];
            let result = if *failed {
                ToolResult::error(ids[k].as_str(), content.as_str())
            } else {
                ToolResult::new(ids[k].as_str(), content.as_str())
            };
            pending.push(Part::ToolResult(result));
            if self.breaks[position] || position + 1 == count {
                let mut tool_message = Message::new(Role::Tool, mem::take(&mut pending));
                tool_message.pinned = self.result_pinned[position];
                history.push(tool_message);
            }
        }
    }
}

/// Plans for the body's units, with system messages at the given probability.
fn unit_plan(system: f64, max_calls: usize, pinned: f64, named: f64) -> impl Strategy<Value = UnitPlan> {
    // Proptest's unions take integer weights, so work in thousandths.
    let system_weight = (system * 1000.0).round() as u32;
    let rest = 1000 - system_weight;
    let user_weight = rest * 30 / 100;
    let assistant_weight = rest * 25 / 100;
    let exchange_weight = rest - user_weight - assistant_weight;
    let options: Vec<(u32, BoxedStrategy<UnitPlan>)> = vec![
        (system_weight, text_plan(Role::System, pinned, named).prop_map(UnitPlan::Text).boxed()),
        (user_weight, text_plan(Role::User, pinned, named).prop_map(UnitPlan::Text).boxed()),
        (assistant_weight, text_plan(Role::Assistant, pinned, named).prop_map(UnitPlan::Text).boxed()),
        (exchange_weight, exchange_plan(max_calls, pinned).prop_map(UnitPlan::Exchange).boxed()),
    ];
    // The weights add up to 1000, so at least one survives this filter.
    Union::new_weighted(options.into_iter().filter(|(weight, _)| *weight > 0).collect())
}

/// A participant name with probability `named` (`option::weighted` refuses a probability of 0).
fn names(named: f64) -> BoxedStrategy<Option<&'static str>> {
    if named > 0.0 {
        proptest::option::weighted(named, select(&["alice", "bob", "Zoë", "ops-bot"][..])).boxed()
    } else {
        Just(None).boxed()
    }
}

/// Plans for a text message of `role`.
fn text_plan(role: Role, pinned: f64, named: f64) -> impl Strategy<Value = TextPlan> {
    (
        arb_text(),
        names(named),
        proptest::option::weighted(0.15, arb_attachment()),
        prop::bool::weighted(pinned),
    )
        .prop_map(move |(text, name, attachment, pinned)| TextPlan {
            role,
            text,
            name: name.map(str::to_owned),
            attachment,
            pinned,
        })
}

/// Plans for a tool exchange of 1 to `max_calls` calls.
fn exchange_plan(max_calls: usize, pinned: f64) -> impl Strategy<Value = ExchangePlan> {
    (1..=max_calls).prop_flat_map(move |n| {
        (
            proptest::option::weighted(0.3, arb_text()),
            vec(arb_call_without_id(), n),
            vec((arb_text(), prop::bool::weighted(0.2)), n),
            Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
            vec(any::<bool>(), n),
            any::<bool>(),
            prop::bool::weighted(pinned),
            vec(prop::bool::weighted(pinned), n),
        )
            .prop_map(
                |(lead, calls, results, order, breaks, anthropic, call_pinned, result_pinned)| ExchangePlan {
                    lead,
                    calls,
                    results,
                    order,
                    breaks,
                    anthropic,
                    call_pinned,
                    result_pinned,
                },
            )
    })
}

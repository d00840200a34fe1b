//! Generated transcripts in providers' own formats, as compact JSON text: Claude histories (Anthropic Messages) and OpenAI Responses item lists.
//!
//! The texts are what a format's reader must give back byte for byte: they
//! are laid out as tidemark's writers lay out a transcript (compact, `role`
//! before `content`), while the blocks inside keep the providers' field
//! orders and carry what tidemark does not model (`cache_control`, nested
//! tool-result content, signatures, encrypted reasoning). Every transcript is a
//! valid history: turns alternate, every result answers a call of the turn
//! before it, parallel calls are answered in a shuffled order, and the last
//! exchange may stop anywhere, even while tools are running.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

use super::arb_text;

/// Tool names, so that a history reuses a few tools as agents do.
const TOOLS: &[&str] = &["read_file", "run_tests", "grep", "fetch_url"];

/// `text` as a JSON string literal.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("a string always encodes as JSON")
}

/// A signature or an encrypted payload: base64 text of the length a provider sends, roughly.
fn arb_sealed() -> impl Strategy<Value = String> {
    "([A-Za-z0-9+/]{4}){3,16}([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?"
}

/// One reasoning block (`thinking` with its signature, or `redacted_thinking`) or reasoning item.
#[derive(Clone, Debug)]
struct Thought {
    redacted: bool,
    text: String,
    sealed: String,
}

fn arb_thought() -> impl Strategy<Value = Thought> {
    (prop::bool::weighted(0.25), arb_text(), arb_sealed()).prop_map(|(redacted, text, sealed)| Thought {
        redacted,
        text,
        sealed,
    })
}

/// How one tool result is written.
#[derive(Clone, Debug)]
struct ResultStyle {
    error: bool,
    nested: bool,
    cached: bool,
    output: String,
}

fn arb_result_style() -> impl Strategy<Value = ResultStyle> {
    (prop::bool::weighted(0.2), prop::bool::weighted(0.3), prop::bool::weighted(0.2), arb_text())
        .prop_map(|(error, nested, cached, output)| ResultStyle { error, nested, cached, output })
}

/// A user turn, an assistant turn (reasoning, text, parallel calls), the results and the reply.
#[derive(Clone, Debug)]
struct Exchange {
    user: String,
    user_blocks: bool,
    image: bool,
    thoughts: Vec<Thought>,
    lead: Option<String>,
    calls: Vec<(&'static str, String)>,
    results: Vec<ResultStyle>,
    rotate: usize,
    reversed: bool,
    trailing: Option<String>,
    reply_thought: Option<Thought>,
    reply: String,
}

fn arb_exchange() -> impl Strategy<Value = Exchange> {
    (
        (arb_text(), any::<bool>(), prop::bool::weighted(0.15)),
        (vec(arb_thought(), 0..=2), option::of(arb_text())),
        (vec((select(TOOLS), arb_text()), 0..=3), vec(arb_result_style(), 3), 0usize..3, any::<bool>()),
        (option::weighted(0.2, arb_text()), option::of(arb_thought()), arb_text()),
    )
        .prop_map(
            |((user, user_blocks, image), (thoughts, lead), (calls, results, rotate, reversed), tail)| {
                let (trailing, reply_thought, reply) = tail;
                Exchange {
                    user,
                    user_blocks,
                    image,
                    thoughts,
                    lead,
                    calls,
                    results,
                    rotate,
                    reversed,
                    trailing,
                    reply_thought,
                    reply,
                }
            },
        )
}

impl Exchange {
    /// The order the results come back in: the calls' indices, rotated and maybe reversed.
    fn answer_order(&self) -> Vec<usize> {
        let count = self.calls.len();
        let mut order: Vec<usize> = (0..count).map(|k| (k + self.rotate) % count.max(1)).collect();
        if self.reversed {
            order.reverse();
        }
        order
    }
}

/// Where the last exchange stops: 0 after the user turn, 1 after the calls, 2 after the results, 3 complete.
fn arb_ending() -> impl Strategy<Value = u8> {
    prop_oneof![1 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8), 3 => Just(3u8)]
}

/// A Claude history as the compact JSON text of a request body (sometimes with `model` and a system prompt) or of a bare array of messages.
///
/// ```
/// use proptest::prelude::*;
/// use tidemark_testkit::strategies::arb_claude_transcript;
///
/// proptest!(|(json in arb_claude_transcript())| {
///     let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
///     prop_assert!(value.is_object() || value.is_array());
/// });
/// ```
pub fn arb_claude_transcript() -> impl Strategy<Value = String> {
    (0u8..4, option::of((arb_text(), any::<bool>(), any::<bool>())), vec(arb_exchange(), 1..6), arb_ending())
        .prop_map(|(layout, system, exchanges, ending)| {
            let mut messages = Vec::new();
            let last = exchanges.len() - 1;
            for (number, exchange) in exchanges.iter().enumerate() {
                let stop = if number == last { ending } else { 3 };
                claude_exchange(number, exchange, stop, &mut messages);
            }
            let list = format!("[{}]", messages.join(","));
            let system = system.map(|(text, blocks, cached)| match (blocks, cached) {
                (false, _) => quoted(&text),
                (true, false) => format!("[{{\"type\":\"text\",\"text\":{}}}]", quoted(&text)),
                (true, true) => format!(
                    "[{{\"type\":\"text\",\"text\":{},\"cache_control\":{{\"type\":\"ephemeral\"}}}}]",
                    quoted(&text)
                ),
            });
            match (layout, system) {
                (0, None) => list,
                (1, None) => format!("{{\"messages\":{list}}}"),
                (_, None) => format!("{{\"model\":\"claude-test\",\"messages\":{list},\"max_tokens\":512}}"),
                (0 | 1, Some(system)) => format!("{{\"system\":{system},\"messages\":{list}}}"),
                (_, Some(system)) => {
                    format!("{{\"model\":\"claude-test\",\"system\":{system},\"messages\":{list}}}")
                }
            }
        })
}

fn thinking_block(thought: &Thought) -> String {
    if thought.redacted {
        format!("{{\"type\":\"redacted_thinking\",\"data\":{}}}", quoted(&thought.sealed))
    } else {
        format!(
            "{{\"type\":\"thinking\",\"thinking\":{},\"signature\":{}}}",
            quoted(&thought.text),
            quoted(&thought.sealed)
        )
    }
}

fn claude_exchange(number: usize, exchange: &Exchange, stop: u8, out: &mut Vec<String>) {
    let text_block = |text: &str| format!("{{\"type\":\"text\",\"text\":{}}}", quoted(text));
    let user = if exchange.user_blocks || exchange.image {
        let mut blocks = vec![text_block(&exchange.user)];
        if exchange.image {
            blocks.push(
                r#"{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}"#.into(),
            );
        }
        format!("[{}]", blocks.join(","))
    } else {
        quoted(&exchange.user)
    };
    out.push(format!("{{\"role\":\"user\",\"content\":{user}}}"));
    if stop == 0 {
        return;
    }
    let mut blocks: Vec<String> = exchange.thoughts.iter().map(thinking_block).collect();
    let id = |k: usize| format!("toolu_{number}_{k}");
    if exchange.calls.is_empty() {
        blocks.push(text_block(exchange.lead.as_deref().unwrap_or(&exchange.reply)));
        out.push(format!("{{\"role\":\"assistant\",\"content\":[{}]}}", blocks.join(",")));
        return;
    }
    if let Some(lead) = &exchange.lead {
        blocks.push(text_block(lead));
    }
    for (k, (name, argument)) in exchange.calls.iter().enumerate() {
        blocks.push(format!(
            "{{\"type\":\"tool_use\",\"id\":{},\"name\":{},\"input\":{{\"query\":{}}}}}",
            quoted(&id(k)),
            quoted(name),
            quoted(argument)
        ));
    }
    out.push(format!("{{\"role\":\"assistant\",\"content\":[{}]}}", blocks.join(",")));
    if stop == 1 {
        return;
    }
    let mut results = Vec::new();
    for k in exchange.answer_order() {
        let style = &exchange.results[k % exchange.results.len()];
        let content =
            if style.nested { format!("[{}]", text_block(&style.output)) } else { quoted(&style.output) };
        let mut block =
            format!("{{\"type\":\"tool_result\",\"tool_use_id\":{},\"content\":{content}", quoted(&id(k)));
        if style.error {
            block.push_str(",\"is_error\":true");
        }
        if style.cached {
            block.push_str(",\"cache_control\":{\"type\":\"ephemeral\"}");
        }
        block.push('}');
        results.push(block);
    }
    if let Some(trailing) = &exchange.trailing {
        results.push(text_block(trailing));
    }
    out.push(format!("{{\"role\":\"user\",\"content\":[{}]}}", results.join(",")));
    if stop == 2 {
        return;
    }
    let mut reply: Vec<String> = exchange.reply_thought.iter().map(thinking_block).collect();
    reply.push(text_block(&exchange.reply));
    out.push(format!("{{\"role\":\"assistant\",\"content\":[{}]}}", reply.join(",")));
}

/// A Responses history as the compact JSON text of an item list, bare or in a request body with `model`.
///
/// ```
/// use proptest::prelude::*;
/// use tidemark_testkit::strategies::arb_responses_transcript;
///
/// proptest!(|(json in arb_responses_transcript())| {
///     let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
///     prop_assert!(value.is_object() || value.is_array());
/// });
/// ```
pub fn arb_responses_transcript() -> impl Strategy<Value = String> {
    (any::<bool>(), option::of(arb_text()), vec(arb_exchange(), 1..6), arb_ending()).prop_map(
        |(body, system, exchanges, ending)| {
            let mut items = Vec::new();
            if let Some(system) = system {
                items.push(format!(
                    "{{\"type\":\"message\",\"role\":\"developer\",\"content\":{}}}",
                    quoted(&system)
                ));
            }
            let last = exchanges.len() - 1;
            for (number, exchange) in exchanges.iter().enumerate() {
                let stop = if number == last { ending } else { 3 };
                responses_exchange(number, exchange, stop, &mut items);
            }
            let list = format!("[{}]", items.join(","));
            if body { format!("{{\"model\":\"gpt-test\",\"input\":{list},\"store\":false}}") } else { list }
        },
    )
}

fn reasoning_item(id: &str, thought: &Thought) -> String {
    let summary = if thought.redacted {
        String::from("[]")
    } else {
        format!("[{{\"type\":\"summary_text\",\"text\":{}}}]", quoted(&thought.text))
    };
    format!(
        "{{\"type\":\"reasoning\",\"id\":{},\"summary\":{summary},\"encrypted_content\":{}}}",
        quoted(id),
        quoted(&thought.sealed)
    )
}

fn assistant_item(id: &str, text: &str) -> String {
    format!(
        "{{\"type\":\"message\",\"id\":{},\"role\":\"assistant\",\"status\":\"completed\",\"content\":[{{\"type\":\"output_text\",\"text\":{},\"annotations\":[]}}]}}",
        quoted(id),
        quoted(text)
    )
}

fn responses_exchange(number: usize, exchange: &Exchange, stop: u8, out: &mut Vec<String>) {
    if exchange.user_blocks {
        out.push(format!(
            "{{\"type\":\"message\",\"role\":\"user\",\"content\":[{{\"type\":\"input_text\",\"text\":{}}}]}}",
            quoted(&exchange.user)
        ));
    } else {
        out.push(format!("{{\"role\":\"user\",\"content\":{}}}", quoted(&exchange.user)));
    }
    if stop == 0 {
        return;
    }
    for (k, thought) in exchange.thoughts.iter().enumerate() {
        out.push(reasoning_item(&format!("rs_{number}_{k}"), thought));
    }
    if exchange.calls.is_empty() {
        out.push(assistant_item(
            &format!("msg_{number}"),
            exchange.lead.as_deref().unwrap_or(&exchange.reply),
        ));
        return;
    }
    if let Some(lead) = &exchange.lead {
        out.push(assistant_item(&format!("msg_{number}_lead"), lead));
    }
    let call_id = |k: usize| format!("call_{number}_{k}");
    for (k, (name, argument)) in exchange.calls.iter().enumerate() {
        let arguments = format!("{{\"query\":{}}}", quoted(argument));
        out.push(format!(
            "{{\"type\":\"function_call\",\"id\":\"fc_{number}_{k}\",\"call_id\":{},\"name\":{},\"arguments\":{},\"status\":\"completed\"}}",
            quoted(&call_id(k)),
            quoted(name),
            quoted(&arguments)
        ));
    }
    if stop == 1 {
        return;
    }
    for k in exchange.answer_order() {
        let style = &exchange.results[k % exchange.results.len()];
        out.push(format!(
            "{{\"type\":\"function_call_output\",\"call_id\":{},\"output\":{}}}",
            quoted(&call_id(k)),
            quoted(&style.output)
        ));
    }
    if stop == 2 {
        return;
    }
    if let Some(thought) = &exchange.reply_thought {
        out.push(reasoning_item(&format!("rs_{number}_reply"), thought));
    }
    out.push(assistant_item(&format!("msg_{number}_reply"), &exchange.reply));
}

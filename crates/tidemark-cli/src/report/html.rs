//! The replay report as one self-contained HTML page: the cost figures, the prompt's composition per turn as stacked areas against the budget with compaction and cache-break marks, the prompt beside the whole history, and the compaction events; no scripts, no external resources.

use std::fmt::Write as _;

use super::{Compaction, Point, Summary, thousands};

/// The page's width, which every chart fills.
const WIDTH: f64 = 960.0;
/// The plot area's left edge: room for the token labels.
const LEFT: f64 = 78.0;
/// The plot area's right edge.
const RIGHT: f64 = WIDTH - 20.0;
/// Colours of the composition layers, in [`Parts::layers`](super::Parts::layers) order.
const LAYER_COLOURS: [&str; 5] = ["#7f8c8d", "#8e44ad", "#16a085", "#d4ac0d", "#2e86c1"];
const COMPACTION: &str = "#e67e22";
const CACHE_BREAK: &str = "#c0392b";
const BUDGET: &str = "#222222";

/// The whole page.
pub(crate) fn html(summary: &Summary, points: &[Point], compactions: &[Compaction]) -> String {
    let file = escape(&summary.file);
    let cards = cards(summary);
    let composition = composition_chart(summary, points);
    let history = history_chart(points);
    let key: String = super::Parts::default()
        .layers()
        .iter()
        .zip(LAYER_COLOURS)
        .map(|((name, _), colour)| {
            format!(r#"<span class="swatch" style="background:{colour}"></span>{name}"#)
        })
        .collect();
    let rows: String = summary
        .rows()
        .into_iter()
        .map(|(name, value)| format!("<tr><th>{name}</th><td>{}</td></tr>", escape(&value)))
        .collect();
    let events = events_table(compactions);
    format!(
        r##"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tidemark replay: {file}</title>
<style>
body{{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:{WIDTH}px}}
h1{{font-size:22px;margin:0 0 4px}}h2{{font-size:16px;margin:22px 0 6px}}p{{margin:4px 0}}
.file{{color:#555;font-size:13px}}
.cards{{display:flex;gap:10px;margin:14px 0 4px}}
.card{{flex:1;border:1px solid #ddd;border-radius:6px;padding:8px 10px}}
.card b{{display:block;font-size:22px;font-weight:600}}.card span{{font-size:12px;color:#555}}
.key{{font-size:12px;color:#333}}.swatch{{display:inline-block;width:12px;height:12px;margin:0 5px -2px 14px;border-radius:2px}}
.key .swatch:first-child{{margin-left:0}}
table{{border-collapse:collapse;font-size:13px}}th,td{{padding:2px 12px 2px 0;text-align:left}}th{{font-weight:600}}
.events{{max-height:260px;overflow:auto;border:1px solid #eee}}.events td,.events th{{text-align:right;padding:2px 10px}}
.events thead th{{position:sticky;top:0;background:#f6f6f6}}
.note{{font-size:12px;color:#555}}
</style>
</head><body>
<h1>tidemark replay</h1>
<p class="file">{file}</p>
{cards}
<h2>What each prompt is made of</h2>
<p class="key">{key}<span class="swatch" style="background:{BUDGET};height:2px"></span>budget<span class="swatch" style="background:{COMPACTION};width:3px"></span>compaction<span class="swatch" style="background:{CACHE_BREAK};width:3px"></span>cache break (the prompt no longer starts with the previous one)</p>
{composition}
<h2>The prompt beside the whole history</h2>
<p class="key"><span class="swatch" style="background:#95a5a6"></span>raw history tokens (nothing ever removed)<span class="swatch" style="background:#2e86c1"></span>prompt tokens</p>
{history}
<h2>Figures</h2>
<table>{rows}</table>
<p class="note">Cost against no caching: every prompt billed at the read price for the messages it shares at its start with the previous prompt and at the write price for the rest, divided by the same tokens at the plain input price.</p>
<h2>Compactions</h2>
{events}
</body></html>
"##
    )
}

/// The headline figures, each in a box.
fn cards(summary: &Summary) -> String {
    let cache = &summary.cache;
    let share = |value: Option<f64>| value.map_or_else(|| "n/a".to_owned(), |v| format!("{:.0}%", 100.0 * v));
    let cards = [
        (
            cache.cost_ratio().map_or_else(|| "n/a".to_owned(), |ratio| format!("{ratio:.2}×")),
            format!("input cost against no caching ({})", summary.prices()),
        ),
        (share(cache.extension_share()), "of prompts extend the previous one".to_owned()),
        (share(cache.cached_share()), "of input tokens read from the cache".to_owned()),
        (
            format!("{:.0}%", 100.0 * summary.mean_share()),
            format!("mean prompt of the {}-token budget", thousands(u64::from(summary.budget))),
        ),
        (
            thousands(summary.compactions as u64),
            format!("compactions in {} turns", thousands(summary.turns as u64)),
        ),
    ];
    let inner: String = cards
        .iter()
        .map(|(figure, label)| {
            format!(r#"<div class="card"><b>{figure}</b><span>{}</span></div>"#, escape(label))
        })
        .collect();
    format!(r#"<div class="cards">{inner}</div>"#)
}

/// Round tick values from zero: a step of 1, 2 or 5 times a power of ten giving about `count` ticks, and the first tick at or above `max`.
pub(super) fn ticks(max: f64, count: u32) -> (f64, f64) {
    let raw = (max.max(1.0) / f64::from(count.max(1))).max(1.0);
    let power = 10_f64.powf(raw.log10().floor());
    let step = match raw / power {
        f if f <= 1.0 => power,
        f if f <= 2.0 => 2.0 * power,
        f if f <= 5.0 => 5.0 * power,
        _ => 10.0 * power,
    };
    (step, (max.max(1.0) / step).ceil() * step)
}

/// The turn axis: from turn 0 to the last turn, whose round ticks stop at or before the last.
fn turn_scale(points: &[Point]) -> (Scale, f64) {
    let last = points.last().map_or(1, |point| point.turn).max(1) as f64;
    (Scale { top: last, from: LEFT, to: RIGHT }, ticks(last, 10).0)
}

/// A linear scale from `0..=top` onto the pixels `from..=to`.
#[derive(Clone, Copy)]
struct Scale {
    top: f64,
    from: f64,
    to: f64,
}

impl Scale {
    fn at(self, value: f64) -> f64 {
        self.from + (value / self.top.max(1.0)) * (self.to - self.from)
    }
}

/// At most about `columns` points in turn order, keeping the lowest and highest prompt of each run so that a sawtooth keeps its teeth.
pub(super) fn sample(points: &[Point], columns: usize) -> Vec<&Point> {
    let per = points.len().div_ceil(columns.max(1)).max(1);
    if per <= 2 {
        return points.iter().collect();
    }
    let mut kept = Vec::with_capacity(2 * columns);
    for chunk in points.chunks(per) {
        let low = chunk.iter().min_by_key(|point| point.prompt);
        let high = chunk.iter().max_by_key(|point| point.prompt);
        if let (Some(low), Some(high)) = (low, high) {
            let (first, second) = if low.turn <= high.turn { (low, high) } else { (high, low) };
            kept.push(first);
            if second.turn != first.turn {
                kept.push(second);
            }
        }
    }
    kept
}

/// The axes, round ticks and grid of a chart; `bottom` is the plot's lower edge.
fn axes(svg: &mut String, x: Scale, y: Scale, (x_step, y_step): (f64, f64), bottom: f64) {
    let top = y.to;
    let mut value = 0.0;
    while value <= y.top + 0.5 {
        let ty = y.at(value);
        let _ = write!(
            svg,
            r##"<line x1="{LEFT}" y1="{ty:.1}" x2="{RIGHT}" y2="{ty:.1}" stroke="#ececec"/><text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end" fill="#444">{}</text>"##,
            LEFT - 6.0,
            ty + 4.0,
            thousands(value as u64)
        );
        value += y_step;
    }
    let mut turn = 0.0;
    while turn <= x.top + 0.5 {
        let tx = x.at(turn);
        let _ = write!(
            svg,
            r##"<line x1="{tx:.1}" y1="{bottom}" x2="{tx:.1}" y2="{:.1}" stroke="#444"/><text x="{tx:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#444">{}</text>"##,
            bottom + 4.0,
            bottom + 16.0,
            thousands(turn as u64)
        );
        turn += x_step;
    }
    let _ = write!(
        svg,
        r##"<line x1="{LEFT}" y1="{bottom}" x2="{RIGHT}" y2="{bottom}" stroke="#444"/><line x1="{LEFT}" y1="{bottom}" x2="{LEFT}" y2="{top}" stroke="#444"/>"##
    );
}

/// The stacked composition of every prompt against the budget, with a row of compaction marks and a row of cache-break marks under the turn axis.
fn composition_chart(summary: &Summary, points: &[Point]) -> String {
    const HEIGHT: f64 = 400.0;
    const BOTTOM: f64 = 300.0;
    let largest = points.iter().map(|point| point.parts.total()).max().unwrap_or(0);
    let (y_step, y_top) = ticks(largest.max(u64::from(summary.budget)) as f64 * 1.05, 5);
    let (x, x_step) = turn_scale(points);
    let y = Scale { top: y_top, from: BOTTOM, to: 16.0 };
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="prompt tokens per turn by part, against the budget"><rect width="100%" height="100%" fill="#ffffff"/>"##
    );
    axes(&mut svg, x, y, (x_step, y_step), BOTTOM);
    let shown = sample(points, (RIGHT - LEFT) as usize);
    let mut below = vec![0_u64; shown.len()];
    for (layer, colour) in LAYER_COLOURS.iter().enumerate() {
        let above: Vec<u64> =
            shown.iter().zip(&below).map(|(point, base)| base + point.parts.layers()[layer].1).collect();
        if above != below {
            let upper = shown.iter().zip(&above).map(|(point, tokens)| (point.turn, *tokens));
            let lower = shown.iter().zip(&below).rev().map(|(point, tokens)| (point.turn, *tokens));
            let outline: Vec<String> = upper
                .chain(lower)
                .map(|(turn, tokens)| format!("{:.1},{:.1}", x.at(turn as f64), y.at(tokens as f64)))
                .collect();
            let _ = write!(
                svg,
                r##"<polygon fill="{colour}" fill-opacity="0.85" points="{}"/>"##,
                outline.join(" ")
            );
        }
        below = above;
    }
    let budget = y.at(f64::from(summary.budget));
    let _ = write!(
        svg,
        r##"<line x1="{LEFT}" y1="{budget:.1}" x2="{RIGHT}" y2="{budget:.1}" stroke="{BUDGET}" stroke-width="1.5" stroke-dasharray="6 4"/><text x="{RIGHT}" y="{:.1}" font-size="11" text-anchor="end" fill="{BUDGET}">budget {}</text>"##,
        budget - 5.0,
        thousands(u64::from(summary.budget))
    );
    let rows = [
        ("compaction", COMPACTION, 326.0, points.iter().filter(|point| point.compacted).collect::<Vec<_>>()),
        ("cache break", CACHE_BREAK, 348.0, points.iter().filter(|point| point.breaks_cache()).collect()),
    ];
    for (label, colour, row, marked) in rows {
        let _ = write!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end" fill="{colour}">{label}</text><rect x="{LEFT}" y="{row}" width="{:.1}" height="14" fill="#f7f7f7"/>"##,
            LEFT - 6.0,
            row + 11.0,
            RIGHT - LEFT
        );
        for point in marked {
            let tx = x.at(point.turn as f64);
            let _ = write!(
                svg,
                r##"<line x1="{tx:.1}" y1="{row}" x2="{tx:.1}" y2="{:.1}" stroke="{colour}" stroke-width="1.5"><title>turn {}: {label}</title></line>"##,
                row + 14.0,
                point.turn
            );
        }
    }
    let _ = write!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#333">turn</text><text x="16" y="{:.1}" font-size="12" fill="#333" transform="rotate(-90 16 {:.1})" text-anchor="middle">prompt tokens</text></svg>"##,
        (LEFT + RIGHT) / 2.0,
        HEIGHT - 16.0,
        BOTTOM / 2.0,
        BOTTOM / 2.0
    );
    svg
}

/// The raw history's tokens and the prompt's on one scale: how much the memory leaves out.
fn history_chart(points: &[Point]) -> String {
    const HEIGHT: f64 = 220.0;
    const BOTTOM: f64 = 190.0;
    let largest = points.iter().map(|point| point.raw.max(point.prompt)).max().unwrap_or(0);
    let (y_step, y_top) = ticks(largest as f64, 4);
    let (x, x_step) = turn_scale(points);
    let y = Scale { top: y_top, from: BOTTOM, to: 12.0 };
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="raw history tokens and prompt tokens per turn"><rect width="100%" height="100%" fill="#ffffff"/>"##
    );
    axes(&mut svg, x, y, (x_step, y_step), BOTTOM);
    let shown = sample(points, (RIGHT - LEFT) as usize);
    for (colour, pick) in
        [("#95a5a6", (|p: &Point| p.raw) as fn(&Point) -> u64), ("#2e86c1", |p: &Point| p.prompt)]
    {
        let line: Vec<String> = shown
            .iter()
            .map(|point| format!("{:.1},{:.1}", x.at(point.turn as f64), y.at(pick(point) as f64)))
            .collect();
        let _ = write!(
            svg,
            r##"<polyline fill="none" stroke="{colour}" stroke-width="2" points="{}"/>"##,
            line.join(" ")
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Every compaction: its turn, the prompt before and after it, and the summary it left.
fn events_table(compactions: &[Compaction]) -> String {
    if compactions.is_empty() {
        return "<p>No compaction ran.</p>".to_owned();
    }
    let mut rows = String::new();
    for Compaction { turn, event } in compactions {
        let _ = write!(
            rows,
            "<tr><td>{}</td><td>{}</td><td>{} → {}</td><td>{}</td><td>{} → {}</td><td>{}</td><td>{}</td></tr>",
            thousands(*turn as u64),
            escape(&event.outcome.to_string()),
            event.messages_before,
            event.messages_after,
            thousands(event.tokens_before.saturating_sub(event.tokens_after)),
            thousands(event.tokens_before),
            thousands(event.tokens_after),
            thousands(event.summary_tokens),
            format_args!("{:.1} ms", event.duration.as_secs_f64() * 1e3),
        );
    }
    format!(
        r#"<div class="events"><table><thead><tr><th>turn</th><th>outcome</th><th>prompt messages</th><th>tokens out of the prompt</th><th>prompt tokens</th><th>summary tokens</th><th>time</th></tr></thead><tbody>{rows}</tbody></table></div>
<p class="note">Messages and tokens are the prompt's before and after the compaction; what left it, less what the summary grew by, is the tokens out of the prompt.</p>"#
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

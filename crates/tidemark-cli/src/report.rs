//! The replay report: a summary table for the terminal and a self-contained HTML page with an SVG chart of prompt tokens against raw history tokens.

use std::fmt::Write as _;
use std::time::Duration;

/// One turn of a replay.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Point {
    pub(crate) turn: usize,
    /// Tokens of the whole history so far, as if nothing were ever removed.
    pub(crate) raw: u64,
    /// Tokens of the prompt the memory loaded.
    pub(crate) prompt: u64,
    /// Whether this turn's load compacted.
    pub(crate) compacted: bool,
}

/// The figures of a whole replay.
#[derive(Clone, Debug)]
pub(crate) struct Summary {
    pub(crate) turns: usize,
    pub(crate) raw_tokens: u64,
    pub(crate) largest_prompt: u64,
    pub(crate) budget: u32,
    pub(crate) compactions: usize,
    pub(crate) summarizer_calls: usize,
    pub(crate) p50: Duration,
    pub(crate) p99: Duration,
    pub(crate) total: Duration,
    pub(crate) file: String,
    /// What recall did, when the replay used it.
    pub(crate) recall: Option<tidemark_facts::RecallCounters>,
}

impl Summary {
    fn rows(&self) -> Vec<(&'static str, String)> {
        let mut rows = vec![
            ("turns", self.turns.to_string()),
            ("raw history tokens", self.raw_tokens.to_string()),
            ("largest prompt", format!("{} (budget {})", self.largest_prompt, self.budget)),
            ("compactions", self.compactions.to_string()),
            ("summarizer calls", self.summarizer_calls.to_string()),
            ("p50 load", format!("{:.1} µs", self.p50.as_secs_f64() * 1e6)),
            ("p99 load", format!("{:.1} µs", self.p99.as_secs_f64() * 1e6)),
            ("total", format!("{:.1} ms", self.total.as_secs_f64() * 1e3)),
        ];
        if let Some(recall) = &self.recall {
            rows.push(("recall hits", format!("{} of {} loads", recall.hits, recall.loads)));
            rows.push(("passages quoted", recall.quoted.to_string()));
            rows.push(("passages withheld", format!("{} (security scan)", recall.withheld)));
        }
        rows
    }

    /// The table printed at the end of a replay.
    pub(crate) fn table(&self) -> String {
        let mut table = String::new();
        for (name, value) in self.rows() {
            let _ = writeln!(table, "{name:<20} {value}");
        }
        table.trim_end().to_owned()
    }
}

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 420.0;
const MARGIN: f64 = 60.0;

/// A self-contained HTML page: the summary and an SVG line chart, no scripts, no external resources.
pub(crate) fn html(summary: &Summary, points: &[Point]) -> String {
    let max_turn = points.last().map_or(1, |p| p.turn).max(1) as f64;
    let max_tokens = points.iter().map(|p| p.raw.max(p.prompt)).max().unwrap_or(1).max(1) as f64;
    let x = |turn: usize| MARGIN + (turn as f64 / max_turn) * (WIDTH - 2.0 * MARGIN);
    let y = |tokens: u64| HEIGHT - MARGIN - (tokens as f64 / max_tokens) * (HEIGHT - 2.0 * MARGIN);
    let line = |pick: fn(&Point) -> u64| {
        points.iter().map(|p| format!("{:.1},{:.1}", x(p.turn), y(pick(p)))).collect::<Vec<_>>().join(" ")
    };
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="prompt tokens against raw history tokens per turn">"##
    );
    let _ = write!(svg, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    // Axes with a few labelled ticks.
    let (left, bottom, right, top) = (MARGIN, HEIGHT - MARGIN, WIDTH - MARGIN, MARGIN);
    let _ = write!(svg, r##"<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#333"/>"##);
    let _ = write!(svg, r##"<line x1="{left}" y1="{bottom}" x2="{left}" y2="{top}" stroke="#333"/>"##);
    for step in 0..=4 {
        let tokens = (max_tokens * f64::from(step) / 4.0) as u64;
        let ty = y(tokens);
        let _ = write!(
            svg,
            r##"<line x1="{left}" y1="{ty:.1}" x2="{right}" y2="{ty:.1}" stroke="#eee"/><text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end" fill="#333">{tokens}</text>"##,
            left - 6.0,
            ty + 4.0
        );
        let turn = (max_turn * f64::from(step) / 4.0) as usize;
        let _ = write!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#333">{turn}</text>"##,
            x(turn),
            bottom + 16.0
        );
    }
    let budget = y(u64::from(summary.budget));
    let _ = write!(
        svg,
        r##"<line x1="{left}" y1="{budget:.1}" x2="{right}" y2="{budget:.1}" stroke="#c0392b" stroke-dasharray="6 4"/><text x="{:.1}" y="{:.1}" font-size="11" fill="#c0392b" text-anchor="end">budget {}</text>"##,
        right,
        budget - 6.0,
        summary.budget
    );
    let _ = write!(
        svg,
        r##"<polyline fill="none" stroke="#7f8c8d" stroke-width="2" points="{}"/>"##,
        line(|p| p.raw)
    );
    let _ = write!(
        svg,
        r##"<polyline fill="none" stroke="#2471a3" stroke-width="2" points="{}"/>"##,
        line(|p| p.prompt)
    );
    for point in points.iter().filter(|p| p.compacted) {
        let _ = write!(
            svg,
            r##"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="#e67e22"><title>turn {}: compacted</title></circle>"##,
            x(point.turn),
            y(point.prompt),
            point.turn
        );
    }
    let _ = write!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#333">turn</text><text x="14" y="{:.1}" font-size="12" fill="#333" transform="rotate(-90 14 {:.1})" text-anchor="middle">tokens</text>"##,
        WIDTH / 2.0,
        HEIGHT - 18.0,
        HEIGHT / 2.0,
        HEIGHT / 2.0
    );
    svg.push_str("</svg>");
    let rows: String = summary
        .rows()
        .into_iter()
        .map(|(name, value)| format!("<tr><th>{name}</th><td>{value}</td></tr>"))
        .collect();
    format!(
        r##"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tidemark replay: {file}</title>
<style>body{{font-family:system-ui,sans-serif;margin:2em;color:#222}}table{{border-collapse:collapse}}th,td{{padding:2px 12px;text-align:left}}th{{font-weight:600}}.key span{{display:inline-block;width:14px;height:3px;margin:0 6px 3px 16px;vertical-align:middle}}</style>
</head><body>
<h1>tidemark replay</h1>
<p>{file}</p>
<p class="key"><span style="background:#7f8c8d"></span>raw history tokens<span style="background:#2471a3"></span>prompt tokens<span style="background:#e67e22;height:7px;width:7px;border-radius:4px"></span>compaction<span style="background:#c0392b"></span>budget</p>
{svg}
<table>{rows}</table>
</body></html>
"##,
        file = escape(&summary.file),
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

//! `replay.svg`: load latency against turn number, one line per system, on a logarithmic latency axis.
//!
//! The systems differ by orders of magnitude, so the latency axis is
//! logarithmic. Each line plots the median of consecutive buckets of turns,
//! which keeps the file small and the shape readable.

use std::fmt::Write as _;
use std::time::Duration;

use crate::replay::Run;

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 520.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 220.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 60.0;
/// At most this many points per line.
const POINTS: usize = 200;
const COLOURS: [&str; 4] = ["#1b9e77", "#7570b3", "#d95f02", "#e7298a"];

/// The median of each bucket of consecutive loads: (turn at the bucket's middle, latency in µs).
fn buckets(loads: &[Duration]) -> Vec<(f64, f64)> {
    let size = loads.len().div_ceil(POINTS).max(1);
    loads
        .chunks(size)
        .enumerate()
        .map(|(index, chunk)| {
            let mut sorted = chunk.to_vec();
            sorted.sort_unstable();
            let median = sorted[sorted.len() / 2].as_secs_f64() * 1e6;
            ((index * size) as f64 + chunk.len() as f64 / 2.0, median.max(0.01))
        })
        .collect()
}

/// Draws the chart for runs of one size.
pub fn latency_chart(runs: &[&Run]) -> String {
    let lines: Vec<(&str, Vec<(f64, f64)>)> =
        runs.iter().map(|run| (run.label(), buckets(&run.loads))).collect();
    let turns = runs.iter().map(|run| run.loads.len()).max().unwrap_or(1).max(1) as f64;
    let values = lines.iter().flat_map(|(_, points)| points.iter().map(|(_, y)| *y));
    let (low, high) = values.fold((f64::MAX, f64::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)));
    let (low, high) = if low > high { (1.0, 10.0) } else { (low, high) };
    let (decade_low, decade_high) =
        (low.log10().floor() as i32, high.log10().ceil().max(low.log10().floor() + 1.0) as i32);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |turn: f64| LEFT + plot_w * turn / turns;
    let y = |micros: f64| {
        let span = f64::from(decade_high - decade_low);
        TOP + plot_h * (1.0 - (micros.log10() - f64::from(decade_low)) / span)
    };

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="22" font-size="15" text-anchor="middle">Load latency against turn ({} turns, median of each bucket of {} turns)</text>"#,
        LEFT + plot_w / 2.0,
        turns,
        (turns as usize).div_ceil(POINTS).max(1)
    );
    for decade in decade_low..=decade_high {
        let value = 10f64.powi(decade);
        let at = y(value);
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" x2="{}" y1="{at:.1}" y2="{at:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT + plot_w,
            LEFT - 8.0,
            at + 4.0,
            label_micros(value)
        );
    }
    for step in 0..=5 {
        let turn = turns * f64::from(step) / 5.0;
        let at = x(turn);
        let _ = writeln!(
            svg,
            r##"<line x1="{at:.1}" x2="{at:.1}" y1="{TOP}" y2="{}" stroke="#eee"/><text x="{at:.1}" y="{}" text-anchor="middle">{}</text>"##,
            TOP + plot_h,
            TOP + plot_h + 18.0,
            turn.round()
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">turn</text><text x="18" y="{}" text-anchor="middle" transform="rotate(-90 18 {})">load latency (log scale)</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 16.0,
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#444"/>"##
    );
    for (index, (label, points)) in lines.iter().enumerate() {
        let colour = COLOURS[index % COLOURS.len()];
        let path: Vec<String> = points.iter().map(|(t, v)| format!("{:.1},{:.1}", x(*t), y(*v))).collect();
        let _ = writeln!(
            svg,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="2" points="{}"/>"#,
            path.join(" ")
        );
        let legend_y = TOP + 20.0 + 22.0 * index as f64;
        let legend_x = LEFT + plot_w + 16.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{legend_x}" x2="{}" y1="{legend_y}" y2="{legend_y}" stroke="{colour}" stroke-width="3"/><text x="{}" y="{}">{}</text>"#,
            legend_x + 24.0,
            legend_x + 30.0,
            legend_y + 4.0,
            escape(label)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

fn label_micros(value: f64) -> String {
    if value >= 1e6 {
        format!("{} s", value / 1e6)
    } else if value >= 1e3 {
        format!("{} ms", value / 1e3)
    } else if value >= 1.0 {
        format!("{value} µs")
    } else {
        format!("{} ns", value * 1e3)
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

//! The pieces of `report.md`: one section per measurement, each a table plus the targets it was held to.

use std::fmt::Write as _;

/// A markdown table: a header row and the rows under it, cells already formatted.
#[derive(Debug, Default)]
pub struct Table {
    /// Column titles.
    pub header: Vec<String>,
    /// Rows of cells, as many as the header.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column titles and no rows yet.
    pub fn new(header: &[&str]) -> Self {
        Self { header: header.iter().map(|title| (*title).to_owned()).collect(), rows: Vec::new() }
    }

    /// Adds one row.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    fn markdown(&self, out: &mut String) {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        out.push_str(&line(&self.header));
        let rule: Vec<String> =
            (0..self.header.len()).map(|i| if i == 0 { "---".into() } else { "---:".into() }).collect();
        out.push_str(&line(&rule));
        for row in &self.rows {
            out.push_str(&line(row));
        }
    }
}

/// A target from the issue, with the figure measured against it in this run.
#[derive(Debug)]
pub struct Target {
    /// What was aimed for, e.g. "cached ≥ 50× cold".
    pub goal: String,
    /// What this run measured, e.g. "212×".
    pub measured: String,
    /// Whether the measured figure meets the goal.
    pub met: bool,
}

/// One measurement's part of the report.
#[derive(Debug)]
pub struct Section {
    /// The heading.
    pub title: String,
    /// A sentence or two on what was measured and how.
    pub intro: String,
    /// The figures.
    pub table: Table,
    /// The targets, each with its verdict.
    pub targets: Vec<Target>,
    /// Anything else a reader should know: skipped parts and why, count checks.
    pub notes: Vec<String>,
}

impl Section {
    /// Renders the section as markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "## {}\n\n{}\n", self.title, self.intro);
        self.table.markdown(&mut out);
        if !self.targets.is_empty() {
            out.push('\n');
            for target in &self.targets {
                let verdict = if target.met { "met" } else { "MISSED" };
                let _ = writeln!(out, "- target {}: measured {} — {verdict}", target.goal, target.measured);
            }
        }
        if !self.notes.is_empty() {
            out.push('\n');
            for note in &self.notes {
                let _ = writeln!(out, "- {note}");
            }
        }
        out
    }
}

/// An integer with comma thousands separators, such as `2,097,152`.
pub fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

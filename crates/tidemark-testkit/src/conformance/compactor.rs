//! The [`Compactor`] conformance suite: rolling summaries over generated histories, with the artifact's storage and rendering rules checked on every roll.

use tidemark_core::{Compactor, ConversationId, Message, Role, units};

use super::{Failure, Ids, Report, Samples, chain, ensure};
use crate::strategies::{HistoryConfig, arb_history_with};

/// What the compactor suite generates.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CompactorConfig {
    /// How many generated histories to compact.
    pub cases: usize,
    /// The shape of the generated histories.
    pub history: HistoryConfig,
    /// How many units each roll evicts.
    pub units_per_roll: usize,
}

impl Default for CompactorConfig {
    fn default() -> Self {
        Self { cases: 24, history: HistoryConfig::default(), units_per_roll: 3 }
    }
}

impl CompactorConfig {
    /// The same configuration with `cases` histories.
    #[must_use]
    pub fn with_cases(mut self, cases: usize) -> Self {
        self.cases = cases;
        self
    }
}

/// Check `compactor` by rolling a summary over `config.cases` generated histories, a few units per roll.
///
/// Every roll must succeed; its artifact must survive a JSON round trip
/// unchanged and render the same afterwards; the rendered message must be a
/// non-empty text message without tool calls or results, and not a tool message.
///
/// # Errors
///
/// Returns the first [`Failure`].
pub async fn run<C: Compactor>(compactor: &C, config: &CompactorConfig) -> Result<Report, Failure> {
    let mut ids = Ids::new("compactor");
    let mut histories = Samples::new(arb_history_with(config.history.clone()));
    let mut rolls = 0;
    for case in 0..config.cases {
        let history = histories.draw();
        let id = ids.fresh("rolls");
        rolls += roll_over(compactor, &id, &history, config.units_per_roll.max(1), case).await?;
    }
    Ok(Report { checks: 3, cases: rolls })
}

async fn roll_over<C: Compactor>(
    compactor: &C,
    id: &ConversationId,
    history: &[Message],
    units_per_roll: usize,
    case: usize,
) -> Result<usize, Failure> {
    let all: Vec<_> = units(history).collect();
    let mut carry: Option<C::Artifact> = None;
    let mut rolls = 0;
    for chunk in all.chunks(units_per_roll) {
        let (start, end) = (chunk[0].start(), chunk[chunk.len() - 1].end());
        let evicted = &history[start..end];
        let hint = (rolls % 2 == 1).then_some("keep identifiers verbatim");
        let artifact = compactor.compact(id, evicted, carry.as_ref(), hint).await.map_err(|error| {
            Failure::new("compact_succeeds", format!("case {case}, roll {rolls}: {}", chain(&error)))
        })?;
        check_artifact(compactor, &artifact, case, rolls)?;
        carry = Some(artifact);
        rolls += 1;
    }
    Ok(rolls)
}

fn check_artifact<C: Compactor>(
    compactor: &C,
    artifact: &C::Artifact,
    case: usize,
    roll: usize,
) -> Result<(), Failure> {
    const STORE: &str = "artifact_round_trips_through_json";
    const RENDER: &str = "rendered_summary_is_plain_text";
    let json = serde_json::to_value(artifact)
        .map_err(|error| Failure::new(STORE, format!("case {case}, roll {roll}: cannot encode: {error}")))?;
    let back: C::Artifact = serde_json::from_value(json.clone()).map_err(|error| {
        Failure::new(STORE, format!("case {case}, roll {roll}: cannot decode {json}: {error}"))
    })?;
    let again = serde_json::to_value(&back).map_err(|error| {
        Failure::new(STORE, format!("case {case}, roll {roll}: cannot re-encode: {error}"))
    })?;
    ensure!(again == json, STORE, "case {case}, roll {roll}: {json} came back as {again}");
    let rendered = compactor.render(artifact);
    ensure!(
        compactor.render(&back) == rendered,
        STORE,
        "case {case}, roll {roll}: the decoded artifact renders differently"
    );
    ensure!(
        rendered.role != Role::Tool && !rendered.has_tool_calls() && !rendered.has_tool_results(),
        RENDER,
        "case {case}, roll {roll}: the summary carries tool parts or the tool role: {rendered:?}"
    );
    ensure!(!rendered.text().trim().is_empty(), RENDER, "case {case}, roll {roll}: the summary has no text");
    Ok(())
}

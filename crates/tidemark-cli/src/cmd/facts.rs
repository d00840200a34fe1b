//! `tidemark facts …`: list, search, add, delete and consolidate long-term facts in the store file, and roll a consolidation back.

use std::io::Write;

use tidemark_core::{Fact, FactError, FactFilter, FactId, FactStore, NewFact, RunId, StatusFilter};
use tidemark_facts::pass::{ConsolidationPass, PassError, PassRunner};
use tidemark_facts::{FactCoordinator, RememberError};

use crate::args::{
    FactsAddArgs, FactsCommand, FactsConsolidateArgs, FactsDeleteArgs, FactsListArgs, FactsRollbackArgs,
    FactsRunsArgs, FactsSearchArgs,
};
use crate::error::CliError;
use crate::setup;

/// Runs one `facts` subcommand.
pub(crate) async fn run(command: FactsCommand) -> Result<(), CliError> {
    match command {
        FactsCommand::List(args) => list(args).await,
        FactsCommand::Search(args) => search(args).await,
        FactsCommand::Add(args) => add(args).await,
        FactsCommand::Delete(args) => delete(args).await,
        FactsCommand::Consolidate(args) => consolidate(args).await,
        FactsCommand::Rollback(args) => rollback(args).await,
        FactsCommand::Runs(args) => runs(args).await,
    }
}

async fn runs(args: FactsRunsArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    let mut out = String::from("run\tpass\tstatus\tmerges\tcreated_ms\n");
    for run in store.runs().await.map_err(read)? {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\n",
            run.id,
            run.pass,
            run.status.as_str(),
            run.merges,
            run.created_ms
        ));
    }
    emit(&out)
}

async fn consolidate(args: FactsConsolidateArgs) -> Result<(), CliError> {
    if !(0.0..=1.0).contains(&args.threshold) {
        return Err(CliError::input(format!("--threshold {} is not between 0 and 1", args.threshold)));
    }
    let store = setup::store(&args.store.store).await?;
    let pass = ConsolidationPass::template().with_threshold(args.threshold);
    let report = PassRunner::new(store)
        .dry_run(args.dry_run)
        .run(&pass, args.scope.as_ref())
        .await
        .map_err(|error| CliError::runtime("consolidating the facts", error))?;
    let mut out = String::new();
    for run in &report.recovered {
        out.push_str(&format!("rolled back run {run}, left unverified by an interrupted consolidation\n"));
    }
    let verb = if report.dry_run { "would merge" } else { "merged" };
    for planned in &report.planned {
        let ids: Vec<String> = planned.sources.iter().map(|fact| fact.id.to_string()).collect();
        out.push_str(&format!("{verb} facts {} into: {}\n", ids.join(", "), planned.text));
    }
    for skipped in &report.skipped {
        let ids: Vec<String> = skipped.facts.iter().map(ToString::to_string).collect();
        out.push_str(&format!("skipped facts {}: {}\n", ids.join(", "), skipped.reason));
    }
    if let Some(reason) = &report.rollback_reason {
        out.push_str(&format!("the run failed verification and was rolled back: {reason}\n"));
    }
    out.push_str(&format!(
        "{} group(s) found, {} consolidated, {} skipped, {} rolled back",
        report.groups,
        report.consolidated,
        report.skipped.len(),
        report.rolled_back
    ));
    match report.run {
        Some(run) if report.rolled_back == 0 => {
            out.push_str(&format!("; run {run} (undo: tidemark facts rollback {run})\n"))
        }
        _ if report.dry_run => out.push_str("; dry run, nothing written\n"),
        _ => out.push('\n'),
    }
    emit(&out)
}

async fn rollback(args: FactsRollbackArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    match PassRunner::new(store).rollback(RunId(args.run)).await {
        Ok(done) => emit(&format!(
            "run {}: {} fact(s) restored, {} merged fact(s) removed\n",
            args.run, done.restored, done.removed
        )),
        Err(PassError::Store(FactError::RunNotFound(run))) => {
            Err(CliError::input(format!("no consolidation run {run}")))
        }
        Err(error) => Err(CliError::runtime("rolling back the run", error)),
    }
}

fn read(error: tidemark_core::FactError) -> CliError {
    CliError::runtime("reading the facts", error)
}

async fn list(args: FactsListArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    let status = match (args.quarantined, args.superseded, args.all || args.as_of.is_some()) {
        (true, _, _) => StatusFilter::Quarantined,
        (_, true, _) => StatusFilter::Superseded,
        (_, _, true) => StatusFilter::Any,
        _ => StatusFilter::Active,
    };
    let filter = FactFilter::new(args.scope, args.tier, status);
    let mut facts = store.list(&filter).await.map_err(read)?;
    if let Some(ms) = args.as_of {
        facts.retain(|fact| {
            fact.valid_at(ms) && !matches!(fact.status, tidemark_core::FactStatus::Quarantined(_))
        });
    }
    print(&facts, args.json)
}

async fn search(args: FactsSearchArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    let facts = store.search(args.scope.as_ref(), &args.query, args.limit).await.map_err(read)?;
    print(&facts, args.json)
}

async fn add(args: FactsAddArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    let coordinator = FactCoordinator::new(store);
    match coordinator.remember(NewFact::new(args.scope, args.tier, args.text)).await {
        Ok(remembered) => {
            let fact = remembered.put.fact();
            let what = if remembered.put.inserted() { "added" } else { "already stored as" };
            let mut line = format!("{what} fact {}", fact.id);
            if !remembered.redacted.is_empty() {
                let kinds: Vec<&str> = remembered.redacted.iter().map(|kind| kind.as_str()).collect();
                line.push_str(&format!(" (redacted: {})", kinds.join(", ")));
            }
            emit(&format!("{line}\n"))
        }
        Err(RememberError::Rejected(threat)) => Err(CliError::input(format!("fact rejected: {threat}"))),
        Err(RememberError::Store(error @ tidemark_core::FactError::OverBudget { .. }))
        | Err(RememberError::Store(error @ tidemark_core::FactError::Invalid { .. })) => {
            Err(CliError::input(format!("fact refused: {error}")))
        }
        Err(RememberError::Store(error)) => Err(CliError::runtime("storing the fact", error)),
        Err(other) => Err(CliError::runtime("storing the fact", other)),
    }
}

async fn delete(args: FactsDeleteArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    let mut out = String::new();
    let mut missing = Vec::new();
    for id in args.ids {
        if store.delete(FactId(id)).await.map_err(|error| CliError::runtime("deleting a fact", error))? {
            out.push_str(&format!("deleted fact {id}\n"));
        } else {
            missing.push(id.to_string());
        }
    }
    emit(&out)?;
    if missing.is_empty() {
        Ok(())
    } else {
        Err(CliError::input(format!("no fact with id {}", missing.join(", "))))
    }
}

fn print(facts: &[Fact], json: bool) -> Result<(), CliError> {
    let mut out = String::new();
    if json {
        for fact in facts {
            let line =
                serde_json::to_string(fact).map_err(|error| CliError::runtime("writing JSON", error))?;
            out.push_str(&line);
            out.push('\n');
        }
    } else {
        out.push_str("id\tscope\ttier\tstatus\ttext\n");
        for fact in facts {
            let status = match &fact.status {
                tidemark_core::FactStatus::Active => "active".to_owned(),
                tidemark_core::FactStatus::Quarantined(reason) => format!("quarantined ({reason})"),
                tidemark_core::FactStatus::Superseded(reason) => {
                    format!("superseded at {} ({reason})", fact.updated_ms)
                }
                // A status added after this build was written: show it as it is rather than guess.
                other => format!("{other:?}"),
            };
            let text: String = fact.text.split_whitespace().collect::<Vec<_>>().join(" ");
            out.push_str(&format!("{}\t{}\t{}\t{status}\t{text}\n", fact.id, fact.scope, fact.tier));
        }
    }
    emit(&out)
}

fn emit(text: &str) -> Result<(), CliError> {
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|error| CliError::runtime("writing the output", error))
}

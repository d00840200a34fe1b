//! `tidemark facts …`: list, search, add and delete long-term facts in the store file.

use std::io::Write;

use tidemark_core::{Fact, FactFilter, FactId, FactStore, NewFact, StatusFilter};
use tidemark_memory::facts::{FactCoordinator, RememberError};

use crate::args::{FactsAddArgs, FactsCommand, FactsDeleteArgs, FactsListArgs, FactsSearchArgs};
use crate::error::CliError;
use crate::setup;

/// Runs one `facts` subcommand.
pub(crate) async fn run(command: FactsCommand) -> Result<(), CliError> {
    match command {
        FactsCommand::List(args) => list(args).await,
        FactsCommand::Search(args) => search(args).await,
        FactsCommand::Add(args) => add(args).await,
        FactsCommand::Delete(args) => delete(args).await,
    }
}

fn read(error: tidemark_core::FactError) -> CliError {
    CliError::runtime("reading the facts", error)
}

async fn list(args: FactsListArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store)?;
    let status = match (args.quarantined, args.all) {
        (true, _) => StatusFilter::Quarantined,
        (_, true) => StatusFilter::Any,
        _ => StatusFilter::Active,
    };
    let filter = FactFilter { scope: args.scope, tier: args.tier, status };
    let facts = store.list(&filter).await.map_err(read)?;
    print(&facts, args.json)
}

async fn search(args: FactsSearchArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store)?;
    let facts = store.search(args.scope.as_ref(), &args.query, args.limit).await.map_err(read)?;
    print(&facts, args.json)
}

async fn add(args: FactsAddArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store)?;
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
    let store = setup::store(&args.store.store)?;
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

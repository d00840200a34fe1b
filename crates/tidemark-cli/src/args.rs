//! The command line: subcommands and their options.

use std::num::{NonZeroU32, NonZeroUsize};
use std::path::PathBuf;

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use tidemark_core::ConversationId;

/// Keep an agent's conversation within a token budget without losing what matters.
#[derive(Debug, Parser)]
#[command(name = "tidemark", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Compact a transcript once, without a store, and print the result as JSON lines.
    Compact(CompactArgs),
    /// Append a transcript's messages to a stored conversation.
    Append(AppendArgs),
    /// Print the prompt-ready history of a stored conversation, compacting it as needed.
    Load(LoadArgs),
    /// Forget a stored conversation.
    Clear(ClearArgs),
    /// Take the last compaction of a stored conversation back (or restore an earlier epoch): the next load serves the summary and window from before it.
    Undo(UndoArgs),
    /// Start a new conversation as a branch of a stored one: its messages up to a point, with the summary and window of then; each goes on alone.
    Fork(ForkArgs),
    /// Show the stored conversations, or one conversation's state.
    Inspect(InspectArgs),
    /// Count the tokens of a transcript, per message and in total.
    Count(CountArgs),
    /// Convert a transcript between formats, refusing (status 2) what the target cannot hold.
    Convert(ConvertArgs),
    /// Replay a transcript turn by turn as an agent would, and report what the memory did.
    Replay(ReplayArgs),
    /// Search a stored conversation's earlier turns for passages, best match first.
    Search(SearchArgs),
    /// List, search, add and delete long-term facts.
    #[command(subcommand)]
    Facts(FactsCommand),
    /// Serve the memory tools (history search, exact turns, facts) to an MCP client over standard input and output.
    #[cfg(feature = "mcp")]
    Mcp(McpArgs),
}

/// `tidemark mcp`: one conversation's memory, served to a Model Context Protocol client.
#[cfg(feature = "mcp")]
#[derive(Debug, Args)]
pub(crate) struct McpArgs {
    /// The conversation the tools serve; the model's arguments cannot name another.
    #[arg(long, value_parser = conversation_id, env = "TIDEMARK_CONVERSATION")]
    pub(crate) conversation: ConversationId,
    /// The user the conversation belongs to: history searches reach the user's other conversations, and facts about the user are shared by them.
    #[arg(long, value_parser = conversation_id, env = "TIDEMARK_USER")]
    pub(crate) user: Option<ConversationId>,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// Serve only the tools that read: no fact is written or deleted.
    #[arg(long)]
    pub(crate) read_only: bool,
}

/// The `facts` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum FactsCommand {
    /// List facts, in id order (active ones unless told otherwise).
    List(FactsListArgs),
    /// Search active facts by keywords, best match first.
    Search(FactsSearchArgs),
    /// Add a fact by hand; it passes the same security scan and budget as extracted facts.
    Add(FactsAddArgs),
    /// Delete facts by id.
    Delete(FactsDeleteArgs),
    /// Merge near-duplicate facts (same scope and tier) into one, verified, with a rollback record.
    Consolidate(FactsConsolidateArgs),
    /// Undo an earlier consolidation run: every source back exactly as it was.
    Rollback(FactsRollbackArgs),
    /// List the consolidation runs, oldest first, with their status.
    Runs(FactsRunsArgs),
}

/// Where the runs are.
#[derive(Debug, Args)]
pub(crate) struct FactsRunsArgs {
    #[command(flatten)]
    pub(crate) store: StoreArgs,
}

/// A consolidation run.
#[derive(Debug, Args)]
pub(crate) struct FactsConsolidateArgs {
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// Only this scope: `conversation:ID` or `user:ID`.
    #[arg(long, value_parser = scope)]
    pub(crate) scope: Option<tidemark_core::Scope>,
    /// Keyword Jaccard similarity from which two facts count as near-duplicates (0 to 1).
    #[arg(long, default_value_t = 0.55)]
    pub(crate) threshold: f64,
    /// Report what would be merged and write nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
}

/// A run to undo.
#[derive(Debug, Args)]
pub(crate) struct FactsRollbackArgs {
    /// The run id, as `facts consolidate` printed it.
    pub(crate) run: u64,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
}

/// Which facts to show.
#[derive(Debug, Args)]
pub(crate) struct FactsListArgs {
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// Only this scope: `conversation:ID` or `user:ID`.
    #[arg(long, value_parser = scope)]
    pub(crate) scope: Option<tidemark_core::Scope>,
    /// Only this tier.
    #[arg(long, value_parser = tier)]
    pub(crate) tier: Option<tidemark_core::Tier>,
    /// Show the quarantined facts (set aside for review) instead of the active ones.
    #[arg(long, conflicts_with_all = ["all", "superseded", "as_of"])]
    pub(crate) quarantined: bool,
    /// Show the superseded facts: values a later statement replaced, each with when it stopped holding.
    #[arg(long, conflicts_with_all = ["all", "as_of"])]
    pub(crate) superseded: bool,
    /// Show every fact, whatever its status.
    #[arg(long, conflicts_with = "as_of")]
    pub(crate) all: bool,
    /// Show the facts that held at this time, in milliseconds since the Unix epoch: stored by then
    /// and not yet superseded (quarantined ones left out).
    #[arg(long, value_name = "MS")]
    pub(crate) as_of: Option<u64>,
    /// Print JSON lines instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
}

/// A keyword search.
#[derive(Debug, Args)]
pub(crate) struct FactsSearchArgs {
    /// The words to look for.
    pub(crate) query: String,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// Only this scope: `conversation:ID` or `user:ID`.
    #[arg(long, value_parser = scope)]
    pub(crate) scope: Option<tidemark_core::Scope>,
    /// At most this many facts.
    #[arg(long, default_value_t = 10)]
    pub(crate) limit: usize,
    /// Print JSON lines instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
}

/// A fact to add.
#[derive(Debug, Args)]
pub(crate) struct FactsAddArgs {
    /// The fact's text.
    pub(crate) text: String,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// Its scope: `conversation:ID` or `user:ID`.
    #[arg(long, value_parser = scope)]
    pub(crate) scope: tidemark_core::Scope,
    /// Its tier.
    #[arg(long, value_parser = tier, default_value = "agent_notes")]
    pub(crate) tier: tidemark_core::Tier,
}

/// Facts to delete.
#[derive(Debug, Args)]
pub(crate) struct FactsDeleteArgs {
    /// The ids, as `facts list` shows them.
    #[arg(required = true)]
    pub(crate) ids: Vec<u64>,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
}

/// The tokenizer used to count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum CounterChoice {
    /// OpenAI's o200k_base (gpt-4o and later).
    O200k,
    /// OpenAI's cl100k_base (gpt-4, gpt-3.5).
    Cl100k,
    /// A byte heuristic: fast, approximate.
    Heuristic,
}

/// The compaction strategy of `compact`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum StrategyChoice {
    /// Clear old tool output, then summarize, then truncate, stopping once it fits.
    Auto,
    /// Drop the oldest turns.
    Truncate,
    /// Replace old tool output with placeholders.
    ClearTools,
    /// Summarize the oldest turns.
    Summarize,
}

/// What writes summaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SummarizerChoice {
    /// No model: a bounded list of what was said.
    Template,
    /// An OpenAI-compatible model configured by OPENAI_BASE_URL, OPENAI_API_KEY and TIDEMARK_MODEL.
    Openai,
    /// An Anthropic model over the Messages API, configured by ANTHROPIC_API_KEY, ANTHROPIC_MODEL and ANTHROPIC_BASE_URL.
    Anthropic,
    /// No summary: evicted messages are only dropped from the prompt (load and replay).
    None,
}

/// How statistics are printed on standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum StatsFormat {
    /// A line for people.
    Text,
    /// One JSON object.
    Json,
}

/// The size of the prompt: a token budget or a message count.
#[derive(Clone, Copy, Debug, Args)]
#[group(required = true, multiple = false)]
pub(crate) struct Window {
    /// The most tokens the prompt may have, reply priming included.
    #[arg(long, value_name = "TOKENS")]
    pub(crate) budget: Option<NonZeroU32>,
    /// Keep the last N messages (in whole tool units), plus pinned and system messages.
    #[arg(long, value_name = "N")]
    pub(crate) last: Option<NonZeroUsize>,
}

/// [`Window`] for `load`, where `--as-of` needs no window: one of `--budget` and `--last` unless it is given.
#[derive(Clone, Copy, Debug, Args)]
#[group(required = false, multiple = false)]
pub(crate) struct LoadWindow {
    /// The most tokens the prompt may have, reply priming included.
    #[arg(long, value_name = "TOKENS", required_unless_present_any = ["last", "as_of"])]
    pub(crate) budget: Option<NonZeroU32>,
    /// Keep the last N messages (in whole tool units), plus pinned and system messages.
    #[arg(long, value_name = "N")]
    pub(crate) last: Option<NonZeroUsize>,
}

impl From<LoadWindow> for Window {
    fn from(window: LoadWindow) -> Self {
        Self { budget: window.budget, last: window.last }
    }
}

/// Where the conversations are stored.
#[derive(Clone, Debug, Args)]
pub(crate) struct StoreArgs {
    /// Where the conversations and facts are: an SQLite file, or a PostgreSQL database as
    /// `postgres://user@host:port/database`.
    #[arg(long, value_name = "PATH|URL", env = "TIDEMARK_STORE", default_value = "tidemark.db")]
    pub(crate) store: String,
}

#[derive(Debug, Args)]
pub(crate) struct CompactArgs {
    /// The transcript: a JSON array, JSON lines, or a request body with `messages`; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) window: Window,
    /// How to compact.
    #[arg(long, value_enum, default_value = "auto")]
    pub(crate) strategy: StrategyChoice,
    /// What writes summaries.
    #[arg(long, value_enum, default_value = "template")]
    pub(crate) summarizer: SummarizerChoice,
    /// How tokens are counted.
    #[arg(long, value_enum, default_value = "o200k")]
    pub(crate) counter: CounterChoice,
    /// Never drop or summarize the last N messages.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) preserve_last: usize,
    /// Refuse tool results whose call is missing instead of dropping them.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Print statistics on standard error.
    #[arg(long, value_enum)]
    pub(crate) stats: Option<StatsFormat>,
    /// Write the result here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// The transcript format: OpenAI chat, Anthropic Messages, OpenAI Responses, or detected from the input.
    #[arg(long, value_enum, default_value = "auto")]
    pub(crate) format: FormatChoice,
    /// Write the result even when it is still over the budget, and exit 0 (the statistics say `over_budget`).
    ///
    /// Without it, a result over the budget is not written and the command exits with status 3.
    #[arg(long)]
    pub(crate) best_effort: bool,
}

#[derive(Debug, Args)]
pub(crate) struct AppendArgs {
    /// The conversation to append to.
    #[arg(long, value_parser = conversation_id)]
    pub(crate) conversation: ConversationId,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// The messages to append, in any transcript format; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    /// Refuse tool results whose call is missing instead of dropping them.
    #[arg(long)]
    pub(crate) strict: bool,
    /// How tokens are counted (recorded with each message).
    #[arg(long, value_enum, default_value = "o200k")]
    pub(crate) counter: CounterChoice,
    /// The transcript format: OpenAI chat, Anthropic Messages, OpenAI Responses, or detected from the input.
    #[arg(long, value_enum, default_value = "auto")]
    pub(crate) format: FormatChoice,
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("remembering").args(["facts", "recall"]).multiple(true)))]
pub(crate) struct LoadArgs {
    /// The conversation to load.
    #[arg(long, value_parser = conversation_id)]
    pub(crate) conversation: ConversationId,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    #[command(flatten)]
    pub(crate) window: LoadWindow,
    /// What writes the rolling summary.
    #[arg(long, value_enum, default_value = "template")]
    pub(crate) summarizer: SummarizerChoice,
    /// How tokens are counted.
    #[arg(long, value_enum, default_value = "o200k")]
    pub(crate) counter: CounterChoice,
    /// Print statistics on standard error.
    #[arg(long, value_enum)]
    pub(crate) stats: Option<StatsFormat>,
    /// Keep facts from the turns this load compacts in the store's long-term memory, and put the
    /// facts relevant to the latest user message in the prompt, as one system message within the budget.
    #[arg(long)]
    pub(crate) facts: bool,
    /// The most tokens the facts may take [default: 10% of --budget, or 400 with --last].
    #[arg(long, value_name = "TOKENS", requires = "facts")]
    pub(crate) facts_tokens: Option<u32>,
    /// The user the conversation is with: with --facts, what the user says about themselves (their
    /// name, where they live, their preferences) is kept for the user and shown in every
    /// conversation loaded with the same --user; with --recall, the user's other conversations
    /// (the eight most recently loaded with this --user) are searched too.
    #[arg(long, value_name = "USER", value_parser = conversation_id, requires = "remembering")]
    pub(crate) user: Option<ConversationId>,
    #[command(flatten)]
    pub(crate) recall: RecallArgs,
    /// The format the history is printed in (`auto`: the one its messages were appended in, else OpenAI chat).
    #[arg(long, value_enum, default_value = "auto")]
    pub(crate) format: FormatChoice,
    /// Print the summary and window a load served when message SEQ was the newest, from the stored
    /// compaction history, and change nothing (facts and recalled passages are not part of it).
    #[arg(long, value_name = "SEQ", conflicts_with_all = ["facts", "recall", "stats"])]
    pub(crate) as_of: Option<u64>,
}

/// Recall: passages of earlier turns that left the window, quoted when they bear on the latest user message.
#[derive(Clone, Copy, Debug, Args)]
pub(crate) struct RecallArgs {
    /// Quote the passages of earlier turns, no longer in the prompt, that best match the latest user
    /// message, as one system message within the budget.
    #[arg(long)]
    pub(crate) recall: bool,
    /// The most tokens the quoted passages may take [default: 15% of the budget, or 600 with --last].
    #[arg(long, value_name = "TOKENS", requires = "recall")]
    pub(crate) recall_tokens: Option<u32>,
}

#[derive(Debug, Args)]
pub(crate) struct SearchArgs {
    /// The words to look for.
    pub(crate) query: String,
    /// The conversation to search.
    #[arg(long, value_parser = conversation_id)]
    pub(crate) conversation: ConversationId,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// At most this many passages.
    #[arg(long, default_value_t = 10)]
    pub(crate) limit: usize,
    /// Only turns (sequence numbers) below this one.
    #[arg(long, value_name = "TURN")]
    pub(crate) below: Option<u64>,
    /// Print JSON lines instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
}

/// `tidemark fork`: a new conversation branched from a stored one.
#[derive(Debug, Args)]
pub(crate) struct ForkArgs {
    /// The conversation to branch from.
    #[arg(long, value_parser = conversation_id)]
    pub(crate) conversation: ConversationId,
    /// The new conversation; it must not exist yet.
    #[arg(long, value_parser = conversation_id)]
    pub(crate) into: ConversationId,
    /// Branch before message SEQ: the fork holds the messages numbered below it [default: all of them].
    #[arg(long, value_name = "SEQ")]
    pub(crate) at: Option<u64>,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
}

/// `tidemark undo`: an earlier compaction state made current again.
#[derive(Debug, Args)]
pub(crate) struct UndoArgs {
    /// The conversation whose compaction to take back.
    #[arg(long, value_parser = conversation_id)]
    pub(crate) conversation: ConversationId,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// Restore this epoch (a generation `inspect --history` lists) instead of the one before the current state; an undone epoch comes back, which redoes it.
    #[arg(long, value_name = "EPOCH", conflicts_with = "initial")]
    pub(crate) to: Option<u64>,
    /// Restore the initial state: nothing compacted, every stored message in the window again.
    #[arg(long)]
    pub(crate) initial: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ClearArgs {
    /// The conversation to forget.
    #[arg(long, value_parser = conversation_id)]
    pub(crate) conversation: ConversationId,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
}

#[derive(Debug, Args)]
pub(crate) struct InspectArgs {
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// Show this conversation's state and summary instead of the list.
    #[arg(long, value_parser = conversation_id)]
    pub(crate) conversation: Option<ConversationId>,
    /// With `--conversation`: what the compactions dropped, the identifiers (paths, ids, numbers,
    /// names) of the messages below the watermark that neither the summary, the window nor the
    /// conversation's facts still hold.
    #[arg(long, requires = "conversation")]
    pub(crate) dropped: bool,
    /// With `--dropped`: what the compaction of this epoch (a generation `--history` lists) dropped,
    /// the messages it evicted against its summary, its window and the facts.
    #[arg(long, value_name = "EPOCH", requires = "dropped")]
    pub(crate) epoch: Option<u64>,
    /// With `--conversation`: the compaction history, one epoch per line (generation, what wrote it,
    /// the epoch an undo goes back to, the next sequence number then, watermark, summary tokens, time).
    #[arg(long, requires = "conversation", conflicts_with = "dropped")]
    pub(crate) history: bool,
}

/// A conversion between formats.
#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
    /// The transcript; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    /// The input's format.
    #[arg(long, value_enum, default_value = "auto")]
    pub(crate) from: FormatChoice,
    /// The output's format.
    #[arg(long, value_enum)]
    pub(crate) to: FormatChoice,
    /// Write the result here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
}

/// A transcript format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatChoice {
    /// Detect the format from the input (OpenAI chat when nothing tells them apart).
    Auto,
    /// OpenAI chat completions messages: a JSON array, JSON lines or a body with `messages`.
    Openai,
    /// Anthropic Messages: a body with `system` and `messages`, or an array of messages.
    Anthropic,
    /// OpenAI Responses input items: a body with `input`, or an array of items.
    Responses,
    /// A Claude Code session file (JSON lines under `~/.claude/projects`); read only, written as Anthropic Messages.
    ClaudeCode,
    /// A Codex CLI rollout file (JSON lines under `~/.codex/sessions`); read only, written as Responses items.
    Codex,
}

#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    /// The transcript; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    /// How tokens are counted.
    #[arg(long, value_enum, default_value = "o200k")]
    pub(crate) counter: CounterChoice,
    /// The transcript format: OpenAI chat, Anthropic Messages, OpenAI Responses, or detected from the input.
    #[arg(long, value_enum, default_value = "auto")]
    pub(crate) format: FormatChoice,
}

#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// The transcript to replay.
    pub(crate) file: PathBuf,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// The conversation to replay into (cleared first).
    #[arg(long, value_parser = conversation_id, default_value = "replay")]
    pub(crate) conversation: ConversationId,
    /// The prompt budget in tokens.
    #[arg(long, value_name = "TOKENS", default_value = "8000")]
    pub(crate) budget: NonZeroU32,
    /// What writes the rolling summary.
    #[arg(long, value_enum, default_value = "template")]
    pub(crate) summarizer: SummarizerChoice,
    /// How tokens are counted.
    #[arg(long, value_enum, default_value = "o200k")]
    pub(crate) counter: CounterChoice,
    /// Write a self-contained HTML report with a chart here.
    #[arg(long, value_name = "FILE.html")]
    pub(crate) report: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) recall: RecallArgs,
    #[command(flatten)]
    pub(crate) cache: CacheArgs,
    /// Compact in the background, as `CompactingMemory::in_background` does: a load never waits
    /// for the summarizer and serves the previous summary meanwhile; the replay waits for the last
    /// compaction before it reports.
    #[arg(long)]
    pub(crate) background: bool,
    /// Compact for the prompt cache: cuts chosen by their cost at the cache prices (`CachePlan`)
    /// instead of a fixed 60% low watermark, and each summary added as a segment behind the
    /// earlier ones (`Segmented`) instead of rewriting one rolling summary.
    #[arg(long)]
    pub(crate) cache_aware: bool,
    /// Load before every model call (each assistant message that follows a user message or a tool
    /// result) instead of once per user turn, as an agent that answers with tool calls calls again.
    #[arg(long)]
    pub(crate) per_call: bool,
    /// Print the figures as one JSON object instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
    /// The transcript format: OpenAI chat, Anthropic Messages, OpenAI Responses, or detected from the input.
    #[arg(long, value_enum, default_value = "auto")]
    pub(crate) format: FormatChoice,
}

/// How the provider's prompt cache is priced, in multiples of its plain input price.
#[derive(Clone, Copy, Debug, Args)]
pub(crate) struct CacheArgs {
    /// The provider's cache prices; `--cache-read`, `--cache-write` and `--cache-min-prefix` change one of them.
    #[arg(long, value_enum, default_value = "default")]
    pub(crate) cache_prices: CachePreset,
    /// The price of an input token read from the cache [default: the preset's].
    #[arg(long, value_name = "MULTIPLE")]
    pub(crate) cache_read: Option<f64>,
    /// The price of an input token not read from the cache, which is written to it [default: the preset's].
    #[arg(long, value_name = "MULTIPLE")]
    pub(crate) cache_write: Option<f64>,
    /// The shortest shared prefix the provider caches, in tokens [default: the preset's].
    #[arg(long, value_name = "TOKENS")]
    pub(crate) cache_min_prefix: Option<u64>,
}

/// A provider's prompt-cache prices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum CachePreset {
    /// Reads at 0.1, writes at 1.25, any prefix cached.
    Default,
    /// Anthropic's five-minute cache: reads at 0.1, writes at 1.25, prefixes from 1,024 tokens.
    #[value(name = "anthropic-5m")]
    Anthropic5m,
    /// Anthropic's one-hour cache: reads at 0.1, writes at 2, prefixes from 1,024 tokens.
    #[value(name = "anthropic-1h")]
    Anthropic1h,
}

/// Parse and validate a conversation id, so that a bad one is a usage error (status 2).
fn scope(text: &str) -> Result<tidemark_core::Scope, String> {
    let (kind, id) = text.split_once(':').ok_or("a scope is `conversation:ID` or `user:ID`")?;
    let id = ConversationId::new(id).map_err(|error| format!("invalid scope id: {error}"))?;
    match kind {
        "conversation" => Ok(tidemark_core::Scope::Conversation(id)),
        "user" => Ok(tidemark_core::Scope::User(id)),
        other => Err(format!("unknown scope kind `{other}`: use `conversation:ID` or `user:ID`")),
    }
}

fn tier(text: &str) -> Result<tidemark_core::Tier, String> {
    text.parse().map_err(|_| format!("unknown tier `{text}`: use `user_profile` or `agent_notes`"))
}

fn conversation_id(text: &str) -> Result<ConversationId, String> {
    ConversationId::new(text).map_err(|error| format!("invalid conversation id: {error}"))
}

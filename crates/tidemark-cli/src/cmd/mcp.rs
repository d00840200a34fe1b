//! `tidemark mcp`: the memory tools of `tidemark-tools` as a Model Context Protocol server over standard input and output.
//!
//! The server serves one conversation (and, with `--user`, the user it
//! belongs to), fixed when it starts: every tool call is answered for that
//! conversation, whatever the arguments say, and the tools' own bounds and
//! scans apply. Two resources describe it: `tidemark://conversation` (where
//! the window starts, the stored summary and the latest turns) and
//! `tidemark://facts` (the facts the conversation may be shown). Standard
//! output carries only protocol messages; the server ends when its input
//! closes.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use tidemark_core::{ConversationId, ConversationStore, Seq, SeqRange};
use tidemark_tools::MemoryTools;

use crate::args::McpArgs;
use crate::error::CliError;
use crate::setup::{self, AnyStore};

/// The resource describing the served conversation.
const CONVERSATION_URI: &str = "tidemark://conversation";
/// The resource listing the facts the conversation may be shown.
const FACTS_URI: &str = "tidemark://facts";

/// How many of the latest turns the conversation resource quotes.
const RECENT_TURNS: u64 = 20;

struct Server {
    tools: MemoryTools<AnyStore>,
    conversation: ConversationId,
    user: Option<ConversationId>,
}

pub(crate) async fn run(args: McpArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    let mut tools = MemoryTools::new(store);
    if let Some(user) = &args.user {
        tools = tools.for_user(user.clone());
    }
    if args.read_only {
        tools = tools.read_only();
    }
    let server = Server { tools, conversation: args.conversation, user: args.user };
    let service = server
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|error| CliError::runtime("starting the MCP server", error))?;
    service.waiting().await.map_err(|error| CliError::runtime("serving MCP", error))?;
    Ok(())
}

impl Server {
    fn instructions(&self) -> String {
        let mut text = format!(
            "Long-term memory of conversation {}: search its earlier turns that are out of view \
             (search_history), read turns exactly by number (read_history)",
            self.conversation
        );
        if self.tools.is_read_only() {
            text.push_str(" and search the facts kept for it (search_facts). This server is read-only.");
        } else {
            text.push_str(", and keep, search and delete long-term facts (remember, search_facts, forget).");
        }
        if let Some(user) = &self.user {
            text.push_str(&format!(" Searches also reach the other conversations of user {user}."));
        }
        text
    }

    /// What `tidemark://conversation` holds: where the window starts, the stored summary and the latest turns, scanned as the tools scan them.
    async fn conversation_resource(&self) -> Result<Value, ErrorData> {
        let store = self.tools.store();
        let failed = |error: &dyn std::error::Error| {
            eprintln!(
                "tidemark mcp: reading the conversation failed: {}",
                tidemark_core::error::chain_text(error)
            );
            ErrorData::internal_error("the memory could not be read just now", None)
        };
        let state = store.state(&self.conversation).await.map_err(|error| failed(&error))?;
        let window = store
            .load_range(&self.conversation, SeqRange::from(state.watermark))
            .await
            .map_err(|error| failed(&error))?;
        let last = window.last().map(|stored| stored.seq).filter(|seq| *seq >= state.watermark);
        let recent = match last {
            Some(Seq(last)) => {
                let from = last.saturating_sub(RECENT_TURNS - 1);
                let arguments = json!({"from": from, "to": last}).to_string();
                let read = self.tools.call(&self.conversation, "read_history", &arguments).await;
                serde_json::from_str::<Value>(&read.content)
                    .map_or(Value::Null, |value| value["turns"].clone())
            }
            None => Value::Array(Vec::new()),
        };
        Ok(json!({
            "conversation": self.conversation.as_str(),
            "user": self.user.as_ref().map(ConversationId::as_str),
            "window_starts_at_turn": state.watermark.0,
            "summary": state.summary.as_ref().map(|summary| summary.message.text().into_owned()),
            "recent_turns": recent,
        }))
    }

    async fn facts_resource(&self) -> Result<Value, ErrorData> {
        let facts = self.tools.facts().visible(&self.conversation).await.map_err(|error| {
            eprintln!("tidemark mcp: reading the facts failed: {}", tidemark_core::error::chain_text(&error));
            ErrorData::internal_error("the facts could not be read just now", None)
        })?;
        let facts: Vec<Value> = facts
            .iter()
            .map(|fact| json!({"id": fact.id.0, "kind": fact.tier.as_str(), "scope": fact.scope.kind(), "text": fact.text}))
            .collect();
        Ok(json!({"facts": facts}))
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
            .with_server_info(Implementation::new("tidemark", env!("CARGO_PKG_VERSION")))
            .with_instructions(self.instructions())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self
            .tools
            .definitions()
            .into_iter()
            .filter_map(|tool| match tool.parameters {
                Value::Object(schema) => Some(Tool::new(tool.name, tool.description, Arc::new(schema))),
                _ => None,
            })
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.unwrap_or_default()).to_string();
        let output = self.tools.call(&self.conversation, &request.name, &arguments).await;
        let content = vec![ContentBlock::text(output.content)];
        let result =
            if output.is_error { CallToolResult::error(content) } else { CallToolResult::success(content) };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new(CONVERSATION_URI, "conversation")
                .with_description(
                    "Where the served conversation's window starts, its stored summary and its latest turns",
                )
                .with_mime_type("application/json"),
            Resource::new(FACTS_URI, "facts")
                .with_description("The long-term facts the served conversation may be shown")
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let value = match request.uri.as_str() {
            CONVERSATION_URI => self.conversation_resource().await?,
            FACTS_URI => self.facts_resource().await?,
            other => {
                let shown: String = other.chars().take(100).collect();
                return Err(ErrorData::resource_not_found(format!("no resource {shown}"), None));
            }
        };
        let contents = ResourceContents::text(value.to_string(), request.uri.clone());
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}

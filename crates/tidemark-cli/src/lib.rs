//! The library target of the `tidemark` command: it exists so that the examples of the README and the guides are compiled and run as doctests.
//!
//! The command itself lives in `main.rs`; this crate depends on every other
//! tidemark crate, which is what those examples use.

/// The README, whose code blocks run as this crate's doctests, so that they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The memory guide's examples, as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/guides/memory.md")]
pub struct MemoryGuideDoctests;

/// The facts and recall guide's examples, as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/guides/facts-and-recall.md")]
pub struct FactsGuideDoctests;

/// The tools and MCP guide's examples, as doctests (the tools come with the `mcp` feature).
#[cfg(all(doctest, feature = "mcp"))]
#[doc = include_str!("../../../docs/guides/tools-and-mcp.md")]
pub struct ToolsGuideDoctests;

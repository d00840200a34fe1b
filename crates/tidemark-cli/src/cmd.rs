//! The subcommands, one module each (`append`, `load`, `clear` and `inspect` share the store module).

pub(crate) mod compact;
pub(crate) mod convert;
pub(crate) mod count;
pub(crate) mod facts;
pub(crate) mod history;
#[cfg(feature = "mcp")]
pub(crate) mod mcp;
pub(crate) mod replay;
pub(crate) mod search;
pub(crate) mod store;

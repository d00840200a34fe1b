//! The errors of tidemark-providers' own constructors; model calls fail with the core `CompletionError`.

/// A configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A required environment variable is not set.
    #[error("environment variable {name} is not set: {why}")]
    Missing {
        /// The variable.
        name: &'static str,
        /// What it is for.
        why: &'static str,
    },
    /// The base URL cannot be parsed or is not http(s).
    #[error("base url {url:?} is not a valid http or https url")]
    BaseUrl {
        /// The URL given.
        url: String,
    },
    /// The model name is empty.
    #[error("the model name is empty")]
    EmptyModel,
    /// The HTTP client could not be built.
    #[error("the http client could not be built")]
    Client {
        /// What the HTTP library reported.
        #[source]
        source: reqwest::Error,
    },
}

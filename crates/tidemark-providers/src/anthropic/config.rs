//! [`AnthropicConfig`]: where Claude is, who we are, which API version we speak, and how patient to be.

use super::cache::PromptCache;
use crate::config::Secret;
use crate::error::ConfigError;
use crate::http::{Patience, Variables, endpoint, from_variables, patience_setters};

/// Anthropic's own endpoint, used when no base URL is given.
pub const ANTHROPIC_BASE_URL: &str = "https://api.anthropic.com";

/// The `anthropic-version` header sent unless another is set.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// The answer's length limit when neither the request nor the settings give one; the Messages API requires a limit.
const DEFAULT_MAX_TOKENS: u32 = 4_096;

/// The settings of an [`AnthropicModel`](crate::AnthropicModel).
///
/// The base URL may be given with or without a trailing `/v1` or slash:
/// `https://api.anthropic.com`, `https://api.anthropic.com/` and
/// `https://api.anthropic.com/v1` all post to
/// `https://api.anthropic.com/v1/messages`.
///
/// ```
/// use std::time::Duration;
/// use tidemark_providers::AnthropicConfig;
///
/// let config = AnthropicConfig::new("http://localhost:4000/", "claude-sonnet-4-5")?
///     .with_api_key("sk-ant-test")
///     .with_max_tokens(1_024)
///     .with_request_timeout(Duration::from_secs(30));
/// assert_eq!(config.endpoint(), "http://localhost:4000/v1/messages");
/// assert_eq!(config.version(), "2023-06-01");
///
/// let lookup = |name: &str| match name {
///     "ANTHROPIC_MODEL" => Some("claude-haiku-4-5".to_owned()),
///     "ANTHROPIC_API_KEY" => Some("sk-ant-test".to_owned()),
///     _ => None,
/// };
/// let config = AnthropicConfig::from_lookup(lookup)?;
/// assert_eq!(config.endpoint(), "https://api.anthropic.com/v1/messages");
/// assert!(!format!("{config:?}").contains("sk-ant-test"));
/// # Ok::<(), tidemark_providers::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct AnthropicConfig {
    endpoint: String,
    api_key: Option<Secret>,
    model: String,
    version: String,
    max_tokens: u32,
    prompt_cache: PromptCache,
    pub(crate) patience: Patience,
}

impl AnthropicConfig {
    /// Settings for `model` at `base_url`, with no API key, API version [`ANTHROPIC_VERSION`], answers of at most 4,096 tokens, five-minute prompt-cache breakpoints ([`PromptCache::FiveMinutes`]), and the default timeouts and retries.
    ///
    /// # Errors
    ///
    /// [`ConfigError::BaseUrl`] for a URL that is not http(s), [`ConfigError::EmptyModel`] for an empty model name.
    pub fn new(base_url: &str, model: impl Into<String>) -> Result<Self, ConfigError> {
        let model = model.into();
        if model.trim().is_empty() {
            return Err(ConfigError::EmptyModel);
        }
        Ok(Self {
            endpoint: endpoint(base_url, "/messages")?,
            api_key: None,
            model,
            version: ANTHROPIC_VERSION.to_owned(),
            max_tokens: DEFAULT_MAX_TOKENS,
            prompt_cache: PromptCache::default(),
            patience: Patience::default(),
        })
    }

    /// Settings from `ANTHROPIC_BASE_URL` (default Anthropic's), `ANTHROPIC_API_KEY` (required for Anthropic's own endpoint) and `ANTHROPIC_MODEL`.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] naming the variable that is missing or invalid.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// [`from_env`](Self::from_env) with another source of variables.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] naming the variable that is missing or invalid.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let names = Variables {
            base: "ANTHROPIC_BASE_URL",
            model: "ANTHROPIC_MODEL",
            key: "ANTHROPIC_API_KEY",
            default_base: ANTHROPIC_BASE_URL,
            own_endpoint: "https://api.anthropic.com/",
            why_key: "Anthropic's endpoint needs an API key",
        };
        let (mut config, key) = from_variables(lookup, &names, Self::new, |config: &Self| &config.endpoint)?;
        config.api_key = key.map(Secret::new);
        Ok(config)
    }

    /// The same settings with an API key, sent in the `x-api-key` header.
    #[must_use]
    pub fn with_api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(Secret::new(key));
        self
    }

    /// The same settings sending `version` as the `anthropic-version` header.
    #[must_use]
    pub fn with_version(mut self, version: impl Into<String>) -> Self {
        self.version = version.into();
        self
    }

    /// The same settings limiting answers to `max_tokens` (at least one) when a request sets no limit of its own.
    #[must_use]
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = max_tokens.max(1);
        self
    }

    /// The same settings marking prompt-cache breakpoints as `cache` says (see [`PromptCache`] for where they go).
    ///
    /// ```
    /// use tidemark_providers::AnthropicConfig;
    /// use tidemark_providers::anthropic::PromptCache;
    ///
    /// // A summarizer's prompts are never repeated: caching them would only add the write price.
    /// let summarizer = AnthropicConfig::new("https://api.anthropic.com", "claude-haiku-4-5")?
    ///     .with_prompt_cache(PromptCache::Off);
    /// assert_eq!(summarizer.prompt_cache(), PromptCache::Off);
    /// # Ok::<(), tidemark_providers::ConfigError>(())
    /// ```
    #[must_use]
    pub fn with_prompt_cache(mut self, cache: PromptCache) -> Self {
        self.prompt_cache = cache;
        self
    }

    patience_setters!();

    /// The URL requests are posted to.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The model name.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The API key, if any.
    pub fn api_key(&self) -> Option<&Secret> {
        self.api_key.as_ref()
    }

    /// The `anthropic-version` header's value.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The answer's length limit for requests that set none.
    pub fn max_tokens(&self) -> u32 {
        self.max_tokens
    }

    /// Whether and for how long requests ask for their prefix to be cached.
    pub fn prompt_cache(&self) -> PromptCache {
        self.prompt_cache
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn lookup<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| pairs.iter().find(|(key, _)| *key == name).map(|(_, value)| (*value).to_owned())
    }

    fn missing(result: Result<AnthropicConfig, ConfigError>) -> Option<&'static str> {
        match result {
            Err(ConfigError::Missing { name, .. }) => Some(name),
            _ => None,
        }
    }

    #[test]
    fn the_environment_names_what_is_missing() {
        assert_eq!(missing(AnthropicConfig::from_lookup(lookup(&[]))), Some("ANTHROPIC_MODEL"));
        assert_eq!(
            missing(AnthropicConfig::from_lookup(lookup(&[("ANTHROPIC_MODEL", "claude")]))),
            Some("ANTHROPIC_API_KEY")
        );
        assert_eq!(
            missing(AnthropicConfig::from_lookup(lookup(&[
                ("ANTHROPIC_MODEL", "claude"),
                ("ANTHROPIC_API_KEY", "  ")
            ]))),
            Some("ANTHROPIC_API_KEY"),
            "a blank key is no key"
        );
        // The OpenAI variables are not read.
        assert_eq!(
            missing(AnthropicConfig::from_lookup(lookup(&[
                ("TIDEMARK_MODEL", "claude"),
                ("OPENAI_API_KEY", "sk")
            ]))),
            Some("ANTHROPIC_MODEL")
        );
        assert!(matches!(
            AnthropicConfig::from_lookup(lookup(&[("ANTHROPIC_MODEL", "m"), ("ANTHROPIC_BASE_URL", "nope")])),
            Err(ConfigError::BaseUrl { .. })
        ));
        assert!(matches!(AnthropicConfig::new("http://h", " "), Err(ConfigError::EmptyModel)));
    }

    #[test]
    fn the_environment_sets_model_key_and_base() {
        let config = AnthropicConfig::from_lookup(lookup(&[
            ("ANTHROPIC_MODEL", "claude-haiku-4-5"),
            ("ANTHROPIC_API_KEY", "sk-ant-1"),
        ]))
        .expect("complete");
        assert_eq!(config.endpoint(), "https://api.anthropic.com/v1/messages");
        assert_eq!(config.model(), "claude-haiku-4-5");
        assert_eq!(config.api_key().map(Secret::expose), Some("sk-ant-1"));
        assert_eq!((config.version(), config.max_tokens()), (ANTHROPIC_VERSION, DEFAULT_MAX_TOKENS));

        let gateway = AnthropicConfig::from_lookup(lookup(&[
            ("ANTHROPIC_MODEL", "m"),
            ("ANTHROPIC_BASE_URL", "http://127.0.0.1:4000/v1/"),
        ]))
        .expect("a gateway needs no key");
        assert_eq!(gateway.endpoint(), "http://127.0.0.1:4000/v1/messages");
        assert!(gateway.api_key().is_none());
    }

    #[test]
    fn setters_keep_their_floors() {
        let config = AnthropicConfig::new("http://h", "m")
            .expect("valid")
            .with_max_tokens(0)
            .with_max_attempts(0)
            .with_backoff(Duration::from_secs(2), Duration::from_secs(1))
            .with_version("2099-01-01");
        assert_eq!((config.max_tokens(), config.patience.max_attempts), (1, 1));
        assert_eq!(config.patience.backoff_max, Duration::from_secs(2));
        assert_eq!(config.version(), "2099-01-01");
    }

    #[test]
    fn the_key_never_shows_in_debug_output() {
        let config = AnthropicConfig::new("http://h", "m").map(|c| c.with_api_key("sk-ant-very-secret"));
        let text = format!("{config:?}");
        assert!(!text.contains("sk-ant-very-secret") && text.contains("***"), "{text}");
    }
}

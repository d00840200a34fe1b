//! [`OpenAiConfig`]: where the model is, who we are, and how patient to be.

use std::fmt;

use crate::error::ConfigError;
use crate::http::{Patience, Variables, endpoint, from_variables, patience_setters};

/// OpenAI's own endpoint, used when no base URL is given.
pub const OPENAI_BASE_URL: &str = "https://api.openai.com/v1";

/// A secret string whose `Debug` output never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wrap a secret.
    pub fn new(secret: impl Into<String>) -> Self {
        Self(secret.into())
    }

    /// The secret itself, for the one place that sends it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// The settings of an [`OpenAiModel`](crate::OpenAiModel).
///
/// The base URL may be given with or without a trailing `/v1` or slash:
/// `http://host:8080`, `http://host:8080/` and `http://host:8080/v1/` all
/// post to `http://host:8080/v1/chat/completions`. A base whose path ends in
/// anything else keeps its path and gets `/v1/chat/completions` appended,
/// unless it already ends in `/v1`.
///
/// ```
/// use std::time::Duration;
/// use tidemark_providers::OpenAiConfig;
///
/// let config = OpenAiConfig::new("http://localhost:11434/", "llama3.2")?
///     .with_request_timeout(Duration::from_secs(30))
///     .with_max_attempts(5);
/// assert_eq!(config.endpoint(), "http://localhost:11434/v1/chat/completions");
///
/// let lookup = |name: &str| match name {
///     "TIDEMARK_MODEL" => Some("gpt-4o-mini".to_owned()),
///     "OPENAI_API_KEY" => Some("sk-test".to_owned()),
///     _ => None,
/// };
/// let config = OpenAiConfig::from_lookup(lookup)?;
/// assert_eq!(config.endpoint(), "https://api.openai.com/v1/chat/completions");
/// assert!(!format!("{config:?}").contains("sk-test"));
/// # Ok::<(), tidemark_providers::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct OpenAiConfig {
    endpoint: String,
    api_key: Option<Secret>,
    model: String,
    pub(crate) patience: Patience,
}

impl OpenAiConfig {
    /// Settings for `model` at `base_url`, with no API key and the default timeouts and retries.
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
            endpoint: endpoint(base_url, "/chat/completions")?,
            api_key: None,
            model,
            patience: Patience::default(),
        })
    }

    /// Settings from `OPENAI_BASE_URL` (default OpenAI's), `OPENAI_API_KEY` (required for OpenAI's own endpoint) and `TIDEMARK_MODEL`.
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
            base: "OPENAI_BASE_URL",
            model: "TIDEMARK_MODEL",
            key: "OPENAI_API_KEY",
            default_base: OPENAI_BASE_URL,
            own_endpoint: "https://api.openai.com/",
            why_key: "OpenAI's endpoint needs an API key",
        };
        let (mut config, key) = from_variables(lookup, &names, Self::new, |config: &Self| &config.endpoint)?;
        config.api_key = key.map(Secret::new);
        Ok(config)
    }

    /// The same settings with an API key, sent as a bearer token.
    #[must_use]
    pub fn with_api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(Secret::new(key));
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| pairs.iter().find(|(key, _)| *key == name).map(|(_, value)| (*value).to_owned())
    }

    #[test]
    fn the_environment_names_what_is_missing() {
        let missing = |name: &'static str| Err::<(), _>(name);
        let name_of = |result: Result<OpenAiConfig, ConfigError>| match result {
            Err(ConfigError::Missing { name, .. }) => Err(name),
            Ok(_) => Ok(()),
            Err(other) => panic!("unexpected {other:?}"),
        };
        assert_eq!(name_of(OpenAiConfig::from_lookup(lookup(&[]))), missing("TIDEMARK_MODEL"));
        assert_eq!(
            name_of(OpenAiConfig::from_lookup(lookup(&[("TIDEMARK_MODEL", "gpt-4o")]))),
            missing("OPENAI_API_KEY")
        );
        let local = OpenAiConfig::from_lookup(lookup(&[
            ("TIDEMARK_MODEL", "m"),
            ("OPENAI_BASE_URL", "http://127.0.0.1:9"),
        ]));
        assert!(local.is_ok_and(|config| config.api_key().is_none()), "local servers need no key");
        assert!(matches!(
            OpenAiConfig::from_lookup(lookup(&[("TIDEMARK_MODEL", "m"), ("OPENAI_BASE_URL", "nope")])),
            Err(ConfigError::BaseUrl { .. })
        ));
        assert!(matches!(OpenAiConfig::new("http://h", " "), Err(ConfigError::EmptyModel)));
    }

    #[test]
    fn the_key_never_shows_in_debug_output() {
        let config = OpenAiConfig::new("http://h", "m").map(|c| c.with_api_key("sk-very-secret"));
        let text = format!("{config:?}");
        assert!(!text.contains("sk-very-secret") && text.contains("***"), "{text}");
    }
}

//! `config.yaml`: install settings, the default token target, priority weights, and which
//! policy component serves each interface (with per-call limits).
//!
//! What it is for: parsing and validating the file the user edits, and turning it into the
//! values the rest of the host needs. `dossier init` writes the commented default from
//! `assets/config.yaml` once and never rewrites it.
//!
//! Not for: harness registration files (`~/.claude*`), which a later module owns.
//!
//! Invariant: the `priority` and `policy` sections reject unknown keys, so a misspelt
//! interface name is an error instead of a silent fallback to the default component.
//! Unknown top-level keys are kept for forward compatibility.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{Code, DossierError, Result};
use crate::policy::{Interface, Limits, Weights};

/// The shipped default, written by `dossier init` when no config exists.
pub const DEFAULT_CONFIG: &str = include_str!("../../assets/config.yaml");

#[derive(Clone, Debug, Deserialize)]
pub struct Config {
    #[serde(default = "default_version")]
    pub version: u32,
    #[serde(default = "default_token_target")]
    pub token_target: u64,
    #[serde(default)]
    pub priority: PriorityConfig,
    #[serde(default)]
    pub policy: PolicyConfig,
    #[serde(default)]
    pub tokens: TokensConfig,
}

/// Token estimation settings (docs/tokenizer.md).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokensConfig {
    /// Claude tokens per counted BPE token.
    #[serde(default = "default_calibration")]
    pub calibration: f64,
}

fn default_calibration() -> f64 {
    crate::tokens::DEFAULT_CALIBRATION
}

impl Default for TokensConfig {
    fn default() -> Self {
        TokensConfig { calibration: default_calibration() }
    }
}

fn default_version() -> u32 {
    1
}
fn default_token_target() -> u64 {
    100_000
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriorityConfig {
    #[serde(default)]
    pub weights: WeightsConfig,
}

/// See `Weights` in `wit/priority.wit` and `docs/policy-components.md` for what a weight means.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightsConfig {
    #[serde(default = "default_importance")]
    pub importance: u32,
    #[serde(default = "default_urgency")]
    pub urgency: u32,
    #[serde(default)]
    pub due_window_days: Option<u32>,
}

fn default_importance() -> u32 {
    2
}
fn default_urgency() -> u32 {
    1
}

impl Default for WeightsConfig {
    fn default() -> Self {
        WeightsConfig { importance: default_importance(), urgency: default_urgency(), due_window_days: None }
    }
}

impl WeightsConfig {
    pub fn to_weights(&self) -> Weights {
        Weights { importance: self.importance, urgency: self.urgency, due_window_days: self.due_window_days }
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyConfig {
    pub priority: Option<PathBuf>,
    pub ranking: Option<PathBuf>,
    pub merge: Option<PathBuf>,
    pub distill: Option<PathBuf>,
    pub learning: Option<PathBuf>,
    #[serde(default)]
    pub limits: LimitsConfig,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsConfig {
    #[serde(default = "default_fuel")]
    pub fuel: u64,
    #[serde(default = "default_memory_mib")]
    pub memory_mib: u64,
}

fn default_fuel() -> u64 {
    Limits::default().fuel
}
fn default_memory_mib() -> u64 {
    (Limits::default().memory_bytes >> 20) as u64
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig { fuel: default_fuel(), memory_mib: default_memory_mib() }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            version: default_version(),
            token_target: default_token_target(),
            priority: PriorityConfig::default(),
            policy: PolicyConfig::default(),
            tokens: TokensConfig::default(),
        }
    }
}

impl Config {
    /// Parse `text` (the contents of `path`, used in messages).
    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        let config: Config = serde_saphyr::from_str(text).map_err(|e| {
            DossierError::new(Code::InvalidConfig, format!("{} does not parse: {e}", path.display())).with_next(
                format!("fix {} (or move it aside and run `dossier init` for a fresh default)", path.display()),
            )
        })?;
        if !(config.tokens.calibration.is_finite() && config.tokens.calibration > 0.0) {
            return Err(DossierError::new(
                Code::InvalidConfig,
                format!("{}: tokens.calibration must be a positive number", path.display()),
            ));
        }
        if config.policy.limits.fuel == 0 || config.policy.limits.memory_mib == 0 {
            return Err(DossierError::new(
                Code::InvalidConfig,
                format!("{}: policy.limits.fuel and policy.limits.memory_mib must be positive", path.display()),
            ));
        }
        Ok(config)
    }

    /// Read the config at `path`; a missing file is the default configuration.
    pub fn load(path: &Path) -> Result<Config> {
        match std::fs::read_to_string(path) {
            Ok(text) => Config::parse(&text, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(e) => Err(DossierError::io("read", path, e)),
        }
    }

    /// Alternate components per interface, with relative paths resolved against
    /// `base` (the store root) and a leading `~/` against the home directory.
    pub fn policy_overrides(&self, base: &Path) -> HashMap<Interface, PathBuf> {
        let p = &self.policy;
        [
            (Interface::Priority, &p.priority),
            (Interface::Ranking, &p.ranking),
            (Interface::Merge, &p.merge),
            (Interface::Distill, &p.distill),
            (Interface::Learning, &p.learning),
        ]
        .into_iter()
        .filter_map(|(i, path)| path.as_ref().map(|path| (i, resolve(base, path))))
        .collect()
    }

    pub fn limits(&self) -> Limits {
        Limits {
            fuel: self.policy.limits.fuel,
            memory_bytes: usize::try_from(self.policy.limits.memory_mib.saturating_mul(1 << 20)).unwrap_or(usize::MAX),
        }
    }
}

fn resolve(base: &Path, path: &Path) -> PathBuf {
    if let Ok(rest) = path.strip_prefix("~")
        && let Some(home) = std::env::home_dir()
    {
        return home.join(rest);
    }
    if path.is_absolute() { path.to_path_buf() } else { base.join(path) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_default_parses_to_the_defaults() {
        let c = Config::parse(DEFAULT_CONFIG, Path::new("config.yaml")).unwrap();
        assert_eq!(c.token_target, 100_000);
        assert_eq!(c.priority.weights.importance, 2);
        assert_eq!(c.priority.weights.urgency, 1);
        assert!(c.policy_overrides(Path::new("/s")).is_empty());
        assert_eq!(c.limits(), Limits::default());
    }

    #[test]
    fn misspelt_interface_is_an_error_not_a_fallback() {
        let e = Config::parse("policy:\n  rankng: x.wasm\n", Path::new("config.yaml")).unwrap_err();
        assert_eq!(e.code, Code::InvalidConfig);
        assert!(e.message.contains("rankng"), "{}", e.message);
    }

    #[test]
    fn relative_policy_paths_resolve_against_the_store() {
        let c = Config::parse("policy:\n  priority: policies/p.wasm\n", Path::new("config.yaml")).unwrap();
        assert_eq!(
            c.policy_overrides(Path::new("/store"))[&Interface::Priority],
            PathBuf::from("/store/policies/p.wasm")
        );
    }

    #[test]
    fn unknown_top_level_keys_are_kept_compatible() {
        Config::parse("harness:\n  claude_code: {}\n", Path::new("config.yaml")).unwrap();
    }
}

//! `config.yaml`: install settings, the default token target, priority weights, and which
//! policy component serves each interface (with per-call limits).
//!
//! What it is for: parsing and validating the file the user edits, and turning it into the
//! values the rest of the host needs. `dossier init` writes the commented default from
//! `assets/config.yaml` once and never rewrites the user's part; the only thing it writes
//! afterwards is the machine block after [`HARNESS_MARKER`] at the end of the file (the
//! Claude Code capability report), which it replaces as a whole.
//!
//! Not for: harness registration files (`~/.claude*`; see `claude`).
//!
//! Invariant: the `priority` and `policy` sections reject unknown keys, so a misspelt
//! interface name is an error instead of a silent fallback to the default component.
//! Unknown top-level keys are kept for forward compatibility.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Code, DossierError, Result};
use crate::policy::{Interface, Limits, Weights};

/// The shipped default, written by `dossier init` when no config exists.
pub use crate::assets::DEFAULT_CONFIG;

#[derive(Clone, Debug, Deserialize)]
pub struct Config {
    #[serde(default = "default_version")]
    pub version: u32,
    #[serde(default = "default_token_target")]
    pub token_target: u64,
    /// The capability report `dossier init` records in its machine block (never user-set;
    /// one this build cannot read is ignored, never an error).
    #[serde(default, deserialize_with = "lenient_harness")]
    pub harness: Option<HarnessConfig>,
    #[serde(default)]
    pub priority: PriorityConfig,
    #[serde(default)]
    pub policy: PolicyConfig,
    #[serde(default)]
    pub tokens: TokensConfig,
    #[serde(default)]
    pub hooks: HooksConfig,
    #[serde(default)]
    pub codecall: CodecallConfig,
    #[serde(default)]
    pub privacy: PrivacyConfig,
    #[serde(default)]
    pub sync: SyncConfig,
}

/// `dossier sync` from the hooks (docs/sync.md, "sync.auto"): shared with every machine, like
/// the rest of the user's part of `config.yaml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyncConfig {
    /// Off by default. On, in a synced store: SessionStart starts a background `dossier sync`
    /// (a pull; the hook never waits on the network) and SessionEnd / PreCompact start one after
    /// the transcript capture (the push).
    #[serde(default)]
    pub auto: bool,
    /// SessionStart starts no background sync when the last attempt (or the last one it
    /// started) is less than this many minutes old; 0 starts one every session.
    #[serde(default = "default_sync_min_interval")]
    pub min_interval_minutes: u64,
    /// A background sync (started by the hooks or `dossier sync --background`) still running
    /// after this many seconds is stopped with the git it runs, and the failure recorded: a
    /// remote that hangs never holds `.sync/lock` for good. 0: no limit.
    #[serde(default = "default_sync_time_limit")]
    pub background_time_limit_seconds: u64,
}

fn default_sync_min_interval() -> u64 {
    5
}

fn default_sync_time_limit() -> u64 {
    600
}

impl Default for SyncConfig {
    fn default() -> Self {
        SyncConfig {
            auto: false,
            min_interval_minutes: default_sync_min_interval(),
            background_time_limit_seconds: default_sync_time_limit(),
        }
    }
}

/// Secret redaction (issue 20, docs/privacy.md): whether every text entering the store (and
/// handed to a model by codecall) goes through the redaction policy, and what it leaves alone.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrivacyConfig {
    /// Redact secrets before anything is stored (default). `false` stores text verbatim; the
    /// SessionStart hook and `dossier doctor` warn while it is off.
    #[serde(default = "default_true")]
    pub redact: bool,
    /// Literal strings: a secret whose matched value contains one of them is kept as it is.
    #[serde(default)]
    pub allow: Vec<String>,
}

impl Default for PrivacyConfig {
    fn default() -> Self {
        PrivacyConfig { redact: true, allow: Vec::new() }
    }
}

/// codecall in Claude Code (docs/codecall.md, docs/codecall-card.md).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodecallConfig {
    /// The Stop hook shows a one-line card when the session's changes are worth a learning
    /// session (`recommend` only, once per concept set per session).
    #[serde(default = "default_true")]
    pub recommendation_cards: bool,
    /// Save every completed session's summary to the agent session's bound Dossier (the §19
    /// hand-off; a session can also opt in alone with `save_summary` at start). Default off.
    #[serde(default)]
    pub save_summaries: bool,
    /// `local-only` (default): lessons are checked against project-local and installed-package
    /// documentation only. `allow-doc-fetch`: a session started with the user's consent may also
    /// fetch official documentation pages of the pinned packages from allowlisted sites
    /// (docs/privacy.md, "Documentation fetch").
    #[serde(default)]
    pub privacy_mode: PrivacyMode,
    /// Documentation sites for `allow-doc-fetch`; empty: the built-in ones (docs.rs,
    /// www.npmjs.com, pypi.org, pkg.go.dev).
    #[serde(default)]
    pub doc_sites: Vec<DocSite>,
    /// Per page: the whole request's timeout and the largest body.
    #[serde(default = "default_doc_timeout_ms")]
    pub doc_fetch_timeout_ms: u64,
    #[serde(default = "default_doc_max_bytes")]
    pub doc_fetch_max_bytes: u64,
}

/// `codecall.privacy_mode` (ARCHITECTURE §4 `privacyMode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PrivacyMode {
    #[default]
    LocalOnly,
    AllowDocFetch,
}

/// One documentation site: the page of a package (`{name}`, `{version}` replaced) and the hosts
/// it may be fetched from (exact match).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocSite {
    /// `cargo`, `npm`, `python` or `go`.
    pub ecosystem: String,
    pub url_template: String,
    pub allowed_domains: Vec<String>,
}

fn default_true() -> bool {
    true
}

fn default_doc_timeout_ms() -> u64 {
    5_000
}

fn default_doc_max_bytes() -> u64 {
    512 * 1024
}

impl Default for CodecallConfig {
    fn default() -> Self {
        CodecallConfig {
            recommendation_cards: true,
            save_summaries: false,
            privacy_mode: PrivacyMode::LocalOnly,
            doc_sites: Vec::new(),
            doc_fetch_timeout_ms: default_doc_timeout_ms(),
            doc_fetch_max_bytes: default_doc_max_bytes(),
        }
    }
}

/// Claude Code hook behaviour (docs/harness-capabilities.md).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HooksConfig {
    /// The Stop hook asks the agent to save once the transcript has grown by this many
    /// bytes since the bound Dossier was last saved (0 turns the reminder off).
    #[serde(default = "default_save_reminder_bytes")]
    pub save_reminder_bytes: u64,
}

fn default_save_reminder_bytes() -> u64 {
    150_000
}

impl Default for HooksConfig {
    fn default() -> Self {
        HooksConfig { save_reminder_bytes: default_save_reminder_bytes() }
    }
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
    pub redaction: Option<PathBuf>,
    #[serde(default)]
    pub limits: LimitsConfig,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsConfig {
    #[serde(default = "default_time_ms")]
    pub time_ms: u64,
    /// Accepted and ignored: stores initialised before calls were bounded by time
    /// (`time_ms`) have `fuel:` here. `dossier doctor` says to remove it.
    #[serde(default)]
    pub fuel: Option<u64>,
    #[serde(default = "default_memory_mib")]
    pub memory_mib: u64,
}

fn default_time_ms() -> u64 {
    Limits::default().time_ms
}
fn default_memory_mib() -> u64 {
    (Limits::default().memory_bytes >> 20) as u64
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig { time_ms: default_time_ms(), fuel: None, memory_mib: default_memory_mib() }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            version: default_version(),
            token_target: default_token_target(),
            harness: None,
            priority: PriorityConfig::default(),
            policy: PolicyConfig::default(),
            tokens: TokensConfig::default(),
            hooks: HooksConfig::default(),
            codecall: CodecallConfig::default(),
            privacy: PrivacyConfig::default(),
            sync: SyncConfig::default(),
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
        if let Some(empty) = config.privacy.allow.iter().position(|a| a.is_empty()) {
            return Err(DossierError::new(
                Code::InvalidConfig,
                format!(
                    "{}: privacy.allow[{empty}] is empty; an empty string would allow every secret",
                    path.display()
                ),
            )
            .with_next(format!("remove the empty entry from privacy.allow in {}", path.display())));
        }
        if config.policy.limits.time_ms == 0 || config.policy.limits.memory_mib == 0 {
            return Err(DossierError::new(
                Code::InvalidConfig,
                format!("{}: policy.limits.time_ms and policy.limits.memory_mib must be positive", path.display()),
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

    /// [`Config::load`] of `path`, with the `harness:` of the machine file `machine`
    /// (`config.machine.yaml`, a synced store's per-machine part: docs/sync.md) replacing
    /// `config.yaml`'s own block when that file exists.
    pub fn load_with_machine(path: &Path, machine: &Path) -> Result<Config> {
        let mut config = Config::load(path)?;
        match std::fs::read_to_string(machine) {
            Ok(text) => {
                let m = Config::parse(&text, machine)?;
                if m.harness.is_some() {
                    config.harness = m.harness;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(DossierError::io("read", machine, e)),
        }
        Ok(config)
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
            (Interface::Redaction, &p.redaction),
        ]
        .into_iter()
        .filter_map(|(i, path)| path.as_ref().map(|path| (i, resolve(base, path))))
        .collect()
    }

    pub fn limits(&self) -> Limits {
        Limits {
            time_ms: self.policy.limits.time_ms,
            memory_bytes: usize::try_from(self.policy.limits.memory_mib.saturating_mul(1 << 20)).unwrap_or(usize::MAX),
        }
    }
}

/// The first line of the machine-written block at the end of `config.yaml`. Everything from
/// this line to the end of the file belongs to `dossier init`; everything above it is the
/// user's and is never rewritten.
pub const HARNESS_MARKER: &str = "# --- harness: written by dossier init; re-run init to refresh ---";

/// `harness:` in `config.yaml`: what `dossier init` last found about each harness.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct HarnessConfig {
    #[serde(default)]
    pub claude_code: Option<ClaudeCodeRecord>,
}

/// The Claude Code capability report (SPEC §13.1) as recorded by `dossier init`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct ClaudeCodeRecord {
    pub detected: bool,
    #[serde(default)]
    pub version: Option<String>,
    pub mcp: bool,
    pub session_start_hook: bool,
    pub session_end_hook: bool,
    pub pre_compaction_hook: bool,
    #[serde(default)]
    pub stop_hook: bool,
    pub transcript_capture: bool,
    /// When this state was first recorded (a re-run that finds the same state keeps it).
    pub checked_at: String,
}

impl ClaudeCodeRecord {
    /// The same capabilities, whenever they were checked.
    pub fn same_state(&self, other: &ClaudeCodeRecord) -> bool {
        ClaudeCodeRecord { checked_at: String::new(), ..self.clone() }
            == ClaudeCodeRecord { checked_at: String::new(), ..other.clone() }
    }
}

fn lenient_harness<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<HarnessConfig>, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    Ok(serde_json::from_value(value).ok())
}

/// Split `config.yaml` into the user's part and the machine block (from [`HARNESS_MARKER`]
/// on), dropping the one blank line [`with_harness_block`] puts between them.
pub fn split_harness_block(text: &str) -> (&str, Option<&str>) {
    let start = if text.starts_with(HARNESS_MARKER) {
        Some(0)
    } else {
        text.find(&format!("\n{HARNESS_MARKER}")).map(|i| i + 1)
    };
    match start {
        None => (text, None),
        Some(i) => {
            let user = &text[..i];
            let user = if user.ends_with("\n\n") { &user[..user.len() - 1] } else { user };
            (user, Some(&text[i..]))
        }
    }
}

/// Whether the user's part of `config.yaml` has its own top-level `harness:` key (then the
/// machine block would duplicate it, so init does not write one).
pub fn user_defines_harness(user: &str) -> bool {
    user.lines().any(|l| l.strip_prefix("harness").is_some_and(|rest| rest.trim_start().starts_with(':')))
}

/// `text` with its machine block replaced by (or extended with) one recording `harness`.
pub fn with_harness_block(text: &str, harness: &HarnessConfig) -> String {
    let (user, _) = split_harness_block(text);
    let mut out = user.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(HARNESS_MARKER);
    out.push_str("\nharness:\n");
    if let Some(c) = &harness.claude_code {
        let quoted = |s: &str| serde_json::to_string(s).expect("strings serialize");
        out.push_str("  claude_code:\n");
        out.push_str(&format!("    detected: {}\n", c.detected));
        out.push_str(&format!("    version: {}\n", c.version.as_deref().map(quoted).unwrap_or_else(|| "null".into())));
        for (key, value) in [
            ("mcp", c.mcp),
            ("session_start_hook", c.session_start_hook),
            ("session_end_hook", c.session_end_hook),
            ("pre_compaction_hook", c.pre_compaction_hook),
            ("stop_hook", c.stop_hook),
            ("transcript_capture", c.transcript_capture),
        ] {
            out.push_str(&format!("    {key}: {value}\n"));
        }
        out.push_str(&format!("    checked_at: {}\n", quoted(&c.checked_at)));
    }
    out
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
        assert!(c.codecall.recommendation_cards);
    }

    #[test]
    fn recommendation_cards_can_be_turned_off_and_typos_are_errors() {
        let c = Config::parse("codecall:\n  recommendation_cards: false\n", Path::new("config.yaml")).unwrap();
        assert!(!c.codecall.recommendation_cards);
        let e = Config::parse("codecall:\n  recommendation_card: false\n", Path::new("config.yaml")).unwrap_err();
        assert!(e.message.contains("recommendation_card"), "{}", e.message);
    }

    #[test]
    fn privacy_defaults_on_and_refuses_unknown_keys_and_types() {
        let c = Config::parse(DEFAULT_CONFIG, Path::new("config.yaml")).unwrap();
        assert!(c.privacy.redact);
        assert!(c.privacy.allow.is_empty());
        let c = Config::parse("privacy:\n  redact: false\n  allow: [EXAMPLEKEY, sk_test_]\n", Path::new("c")).unwrap();
        assert!(!c.privacy.redact);
        assert_eq!(c.privacy.allow, ["EXAMPLEKEY", "sk_test_"]);
        for bad in [
            "privacy:\n  redacted: false\n",
            "privacy:\n  redact: sometimes\n",
            "privacy:\n  allow: EXAMPLE\n",
            "privacy:\n  allow: [\"\"]\n",
        ] {
            let e = Config::parse(bad, Path::new("config.yaml")).unwrap_err();
            assert_eq!(e.code, Code::InvalidConfig, "{bad}");
        }
        let e = Config::parse("privacy:\n  redacted: false\n", Path::new("config.yaml")).unwrap_err();
        assert!(e.message.contains("redacted"), "{}", e.message);
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

    fn record(mcp: bool, version: Option<&str>) -> HarnessConfig {
        HarnessConfig {
            claude_code: Some(ClaudeCodeRecord {
                detected: true,
                version: version.map(str::to_string),
                mcp,
                session_start_hook: true,
                session_end_hook: false,
                pre_compaction_hook: false,
                stop_hook: true,
                transcript_capture: false,
                checked_at: "2026-11-30T07:23:00Z".into(),
            }),
        }
    }

    #[test]
    fn harness_block_parses_back_and_replaces_only_itself() {
        let user = "# mine\ntoken_target: 5000\n";
        let once = with_harness_block(user, &record(true, Some("2.1.328 (Claude \"Code\")")));
        assert!(once.starts_with(user), "{once}");
        let c = Config::parse(&once, Path::new("config.yaml")).unwrap();
        assert_eq!(c.token_target, 5000);
        assert_eq!(c.harness, Some(record(true, Some("2.1.328 (Claude \"Code\")"))));
        assert_eq!(split_harness_block(&once).0, user);

        let twice = with_harness_block(&once, &record(false, None));
        assert!(twice.starts_with(user));
        assert_eq!(twice.matches(HARNESS_MARKER).count(), 1);
        assert_eq!(Config::parse(&twice, Path::new("config.yaml")).unwrap().harness, Some(record(false, None)));
        // The shipped default plus a block is still the shipped default above the marker.
        let default = with_harness_block(DEFAULT_CONFIG, &record(true, None));
        assert_eq!(split_harness_block(&default).0, DEFAULT_CONFIG);
        Config::parse(&default, Path::new("config.yaml")).unwrap();
    }

    #[test]
    fn a_synced_stores_machine_file_replaces_the_block_and_either_alone_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let (config, machine) = (dir.path().join("config.yaml"), dir.path().join("config.machine.yaml"));
        // Before `sync init`: the block at the end of config.yaml.
        std::fs::write(&config, with_harness_block("token_target: 5000\n", &record(true, None))).unwrap();
        let c = Config::load_with_machine(&config, &machine).unwrap();
        assert_eq!((c.token_target, c.harness), (5000, Some(record(true, None))));
        // After: config.yaml is the user's part only, the machine file holds the block.
        std::fs::write(&config, "token_target: 5000\n").unwrap();
        std::fs::write(&machine, with_harness_block("", &record(false, Some("2.1")))).unwrap();
        let c = Config::load_with_machine(&config, &machine).unwrap();
        assert_eq!((c.token_target, c.harness), (5000, Some(record(false, Some("2.1")))));
        // Both during the transition (another machine's old block synced in): this machine's wins.
        std::fs::write(&config, with_harness_block("token_target: 5000\n", &record(true, None))).unwrap();
        let c = Config::load_with_machine(&config, &machine).unwrap();
        assert_eq!(c.harness, Some(record(false, Some("2.1"))));
    }

    #[test]
    fn a_users_own_harness_key_is_detected() {
        assert!(user_defines_harness("a: 1\nharness:\n  x: 1\n"));
        assert!(!user_defines_harness("a: 1\n  harness: 2\nharnesses: 3\n"));
    }

    #[test]
    fn unknown_top_level_keys_are_kept_compatible() {
        Config::parse("harness:\n  claude_code: {}\n", Path::new("config.yaml")).unwrap();
        // A block another build wrote differently is ignored, not an error.
        let c = Config::parse("harness:\n  claude_code: {detected: maybe}\n  other: 1\n", Path::new("c")).unwrap();
        assert_eq!(c.harness, None);
    }
}

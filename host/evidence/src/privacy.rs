//! Sensitive paths: the globs naming files the collector never reads, and the rules for matching
//! them against repository-relative paths.
//!
//! A sensitive path can appear in a pack only as a name in the changed-file list, marked
//! "sensitive path, not read": no diff, no line counts, no excerpt, no search hit. The collector
//! checks every path against these rules *before* asking git for its content or opening it, at
//! every level. A rename or copy is sensitive when either side is.
//!
//! Matching: a pattern without a `/` matches any single path component (so `.env` also withholds
//! everything under a directory named `.env`); a pattern with a `/` matches the whole
//! repository-relative path (`**/` matches any number of leading directories, `*` never crosses a
//! `/`); a leading `/` anchors at the repository root; a trailing `/` means "everything under".
//! Matching is case-insensitive. An `allow` pattern exempts a path that a deny pattern matched
//! (matched against the file name when it has no `/`, else against the whole path).
//!
//! Not for: detecting secrets *inside* files (that is `redact.rs`) or honouring `.gitignore`
//! (that is the walker's job in `search.rs`; ignored files are skipped there, sensitive or not).

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use serde::{Deserialize, Serialize};

use crate::EvidenceError;

/// The default deny list. Extend it with [`PrivacyRules::deny`], exempt paths with
/// [`PrivacyRules::allow`], or drop it with `use_defaults: false`.
pub const DEFAULT_DENY: &[&str] = &[
    // Environment files.
    ".env",
    ".env.*",
    "*.env",
    ".envrc",
    // Keys and certificates.
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "*.kdbx",
    "*.asc",
    "*.gpg",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    // Credential stores and tool configs that carry tokens.
    "credentials*",
    "secrets.*",
    "secret.*",
    ".npmrc",
    ".pypirc",
    ".netrc",
    "_netrc",
    ".git-credentials",
    ".htpasswd",
    ".dockercfg",
    ".pgpass",
    "*.tfstate",
    "*.tfstate.*",
    "*.tfvars",
    "**/.aws/**",
    "**/.ssh/**",
    "**/.gnupg/**",
    "**/.docker/config.json",
    "**/.kube/config",
];

/// Which paths are sensitive, as declared in a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PrivacyRules {
    /// Start from [`DEFAULT_DENY`] (default `true`).
    pub use_defaults: bool,
    /// More deny globs.
    pub deny: Vec<String>,
    /// Globs that exempt a path a deny glob matched (e.g. `.env.example`).
    pub allow: Vec<String>,
}

impl Default for PrivacyRules {
    fn default() -> Self {
        PrivacyRules { use_defaults: true, deny: Vec::new(), allow: Vec::new() }
    }
}

/// Compiled [`PrivacyRules`].
#[derive(Clone, Debug)]
pub struct SensitivePaths {
    deny_component: GlobSet,
    deny_path: GlobSet,
    allow_name: GlobSet,
    allow_path: GlobSet,
}

impl SensitivePaths {
    pub fn new(rules: &PrivacyRules) -> Result<Self, EvidenceError> {
        let mut deny: Vec<&str> = Vec::new();
        if rules.use_defaults {
            deny.extend(DEFAULT_DENY);
        }
        deny.extend(rules.deny.iter().map(String::as_str));
        let (deny_component, deny_path) = compile(&deny)?;
        let allow: Vec<&str> = rules.allow.iter().map(String::as_str).collect();
        let (allow_name, allow_path) = compile(&allow)?;
        Ok(SensitivePaths { deny_component, deny_path, allow_name, allow_path })
    }

    /// Is this repository-relative path (with `/` separators) sensitive?
    pub fn is_sensitive(&self, path: &str) -> bool {
        let path = path.trim_start_matches('/');
        let denied = self.deny_path.is_match(path) || path.split('/').any(|c| self.deny_component.is_match(c));
        if !denied {
            return false;
        }
        let name = path.rsplit('/').next().unwrap_or(path);
        !(self.allow_name.is_match(name) || self.allow_path.is_match(path))
    }
}

/// Split patterns into component patterns and whole-path patterns, and compile each set.
fn compile(patterns: &[&str]) -> Result<(GlobSet, GlobSet), EvidenceError> {
    let mut components = GlobSetBuilder::new();
    let mut paths = GlobSetBuilder::new();
    for raw in patterns {
        let pattern = raw.trim();
        if pattern.is_empty() {
            return Err(EvidenceError::invalid("empty privacy glob"));
        }
        let (pattern, dir) = match pattern.strip_suffix('/') {
            Some(p) => (p, true),
            None => (pattern, false),
        };
        let anchored = pattern.starts_with('/');
        let pattern = pattern.trim_start_matches('/');
        if !anchored && !dir && !pattern.contains('/') {
            components.add(glob(pattern, raw)?);
            continue;
        }
        let mut full =
            if anchored || pattern.starts_with("**/") { pattern.to_owned() } else { format!("**/{pattern}") };
        if dir {
            full.push_str("/**");
        }
        paths.add(glob(&full, raw)?);
    }
    let build = |b: GlobSetBuilder| b.build().map_err(|e| EvidenceError::invalid(format!("privacy globs: {e}")));
    Ok((build(components)?, build(paths)?))
}

fn glob(pattern: &str, raw: &str) -> Result<Glob, EvidenceError> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .case_insensitive(true)
        .backslash_escape(true)
        .build()
        .map_err(|e| EvidenceError::invalid(format!("privacy glob `{raw}`: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> SensitivePaths {
        SensitivePaths::new(&PrivacyRules::default()).unwrap()
    }

    #[test]
    fn default_denies() {
        let s = defaults();
        for p in [
            ".env",
            "app/.env",
            ".env.production",
            "config/prod.env",
            "certs/server.pem",
            "tls.KEY",
            "home/.ssh/id_rsa",
            "id_rsa.pub",
            "keys/id_ed25519",
            "store.p12",
            "x.pfx",
            "credentials.json",
            "deploy/credentials",
            "secrets.yaml",
            ".npmrc",
            "pkg/.pypirc",
            ".netrc",
            ".aws/credentials",
            "x/.aws/config",
            ".ssh/config",
            "a/b/.ssh/known_hosts",
            ".env/lib/site.py",
        ] {
            assert!(s.is_sensitive(p), "{p} should be sensitive");
        }
        for p in ["src/main.rs", "environment.rs", "README.md", "src/keyboard.rs", "docs/secret-sharing.md", "envs/x"] {
            assert!(!s.is_sensitive(p), "{p} should not be sensitive");
        }
    }

    #[test]
    fn extend_and_allow() {
        let rules = PrivacyRules {
            use_defaults: true,
            deny: vec!["internal/".into(), "/top.txt".into(), "*.sql".into()],
            allow: vec![".env.example".into(), "fixtures/certs/*.pem".into()],
        };
        let s = SensitivePaths::new(&rules).unwrap();
        assert!(s.is_sensitive("internal/a.rs"));
        assert!(s.is_sensitive("x/internal/a.rs"));
        assert!(s.is_sensitive("top.txt"));
        assert!(!s.is_sensitive("sub/top.txt"));
        assert!(s.is_sensitive("db/dump.sql"));
        assert!(!s.is_sensitive(".env.example"));
        assert!(s.is_sensitive(".env.local"));
        assert!(!s.is_sensitive("fixtures/certs/test.pem"));
        assert!(s.is_sensitive("certs/test.pem"));
    }

    #[test]
    fn override_defaults() {
        let rules = PrivacyRules { use_defaults: false, deny: vec!["*.secret".into()], allow: vec![] };
        let s = SensitivePaths::new(&rules).unwrap();
        assert!(!s.is_sensitive(".env"));
        assert!(s.is_sensitive("a/b.secret"));
    }

    #[test]
    fn bad_glob_is_an_error() {
        let rules = PrivacyRules { use_defaults: true, deny: vec!["a[".into()], allow: vec![] };
        assert!(matches!(SensitivePaths::new(&rules), Err(EvidenceError::InvalidRequest { .. })));
    }
}

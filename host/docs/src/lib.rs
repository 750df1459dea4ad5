//! `dossier-docs`: codecall's documentation resolver (ARCHITECTURE §13). For one concept of a
//! learning unit it finds documentation a lesson can cite, ranks it, and returns bounded,
//! content-addressed excerpts — so the lesson's general claims can be checked against a named
//! source, and a replay needs none of the providers again.
//!
//! Providers ([`DocumentationProvider`]: `can_resolve`, `search(query, budget)`, `fetch(id)`):
//! - [`project::ProjectDocs`]: the repository's README, `docs/`, ADRs, CHANGELOG, and the doc
//!   comments of the changed symbols;
//! - [`packages`]: installed packages, offline, at the versions the lockfiles pin — Cargo
//!   (`Cargo.lock` → `$CARGO_HOME/registry/src/*/<name>-<version>/`), npm (`package-lock.json`
//!   → `node_modules/<name>/`), Python (`poetry.lock`/`uv.lock`/`requirements*.txt` →
//!   `site-packages/<name>-<version>.dist-info`), Go (`go.mod` → the module cache);
//! - [`web::WebDocs`]: official documentation over the network — never built unless the caller
//!   was allowed to (config `privacy_mode: allow-doc-fetch` and the session's consent, decided by
//!   the host), with a per-provider domain allowlist, a timeout and a byte limit; pages are reduced
//!   to text and treated as data.
//!
//! Ranking ([`Factors`], [`rank`]): every candidate gets five factors in 0..=1 — authority
//! (official docs 1.0, a package's own docs 0.9, a standard 0.9, project docs 0.7), concept match
//! (how many of the concept's terms the source names), version match (1.0 at the pinned version,
//! 0.5 when the version is unknown, 0.2 when the installed copy differs from the pin), stability
//! (README and crate docs 1.0, ADRs and `docs/` 0.9, doc comments 0.8, CHANGELOG 0.5) and
//! accessibility (on this machine 1.0, over the network 0.6). The score is
//! `0.30·authority + 0.30·concept + 0.15·version + 0.10·stability + 0.15·accessibility`;
//! ties break on the source id. §13's default order (official docs, standards, project docs,
//! model knowledge) is the authority factor; a source that does not match the concept at all is
//! never returned, whatever its authority.
//!
//! Not for: writing lessons, deciding whether a citation is acceptable (codecall's validation
//! does, against what this crate resolved), storing anything, or network access it was not
//! handed: no provider here opens a connection except [`web::WebDocs`].

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

pub mod packages;
pub mod project;
pub mod text;
pub mod web;

/// What kind of source a document is (the citation kinds of codecall's lesson contract).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// A language's, framework's or package's official documentation site.
    OfficialDocs,
    /// A package's own documentation as installed (README, crate docs), at the pinned version.
    PackageDocs,
    /// A standard or RFC.
    Standard,
    /// The repository's own documentation or doc comments.
    ProjectDocs,
}

impl SourceKind {
    pub fn name(self) -> &'static str {
        match self {
            SourceKind::OfficialDocs => "official_docs",
            SourceKind::PackageDocs => "package_docs",
            SourceKind::Standard => "standard",
            SourceKind::ProjectDocs => "project_docs",
        }
    }
}

/// The concept to find documentation for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConceptQuery {
    pub concept_id: String,
    pub label: String,
    /// The concept's canonical identity (`oauth2-refresh-token`).
    pub canonical_id: String,
    pub description: String,
    /// Text of the implementation excerpts the concept cites (imports name packages).
    pub code: String,
}

impl ConceptQuery {
    /// The concept's words: label, canonical id and description, lowercased, stop words out.
    pub fn terms(&self) -> Vec<String> {
        let mut t = text::words(&format!("{} {} {}", self.label, self.canonical_id, self.description));
        t.sort();
        t.dedup();
        t
    }
}

/// Limits of one search or fetch.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Candidates a provider returns at most.
    pub max_results: usize,
    /// Bytes of an excerpt at most.
    pub max_excerpt_bytes: usize,
    /// Stop looking after this instant.
    pub deadline: Instant,
}

impl Budget {
    pub fn new(max_results: usize, max_excerpt_bytes: usize, time: Duration) -> Budget {
        Budget { max_results, max_excerpt_bytes, deadline: Instant::now() + time }
    }
    pub fn expired(&self) -> bool {
        Instant::now() >= self.deadline
    }
}

/// The ranking factors of a candidate (crate doc), each 0..=1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Factors {
    pub authority: f64,
    pub concept_match: f64,
    pub version_match: f64,
    pub stability: f64,
    pub accessibility: f64,
}

impl Factors {
    /// The weighted score (crate doc).
    pub fn score(&self) -> f64 {
        let s = 0.30 * self.authority
            + 0.30 * self.concept_match
            + 0.15 * self.version_match
            + 0.10 * self.stability
            + 0.15 * self.accessibility;
        (s * 1000.0).round() / 1000.0
    }
}

/// The authority factor of a kind (crate doc).
pub fn authority(kind: SourceKind) -> f64 {
    match kind {
        SourceKind::OfficialDocs => 1.0,
        SourceKind::PackageDocs | SourceKind::Standard => 0.9,
        SourceKind::ProjectDocs => 0.7,
    }
}

/// A search result: a source that may document the concept, not yet read in full.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// Stable id: `<provider>:<what>`, e.g. `cargo:serde@1.0.200:README.md`.
    pub source_id: String,
    pub provider: String,
    pub title: String,
    pub kind: SourceKind,
    /// The package version it documents (the lockfile's), if any.
    pub version: Option<String>,
    /// A repository-relative path, a path on this machine, or a URL.
    pub location: String,
    pub factors: Factors,
}

/// A fetched source: its text (reduced to plain text, bounded) as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    pub text: String,
    /// Notes (truncated, version differs, ...).
    pub notes: Vec<String>,
}

/// A source the resolver resolved: what a lesson may cite, with the excerpt it was checked
/// against, content-addressed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResolvedSource {
    pub source_id: String,
    pub provider: String,
    pub title: String,
    pub kind: SourceKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub location: String,
    /// The part of the source that matches the concept: plain text, data, never instructions.
    pub excerpt: String,
    /// Lowercase hex BLAKE3 of `excerpt`.
    pub content_hash: String,
    pub score: f64,
    pub factors: Factors,
}

/// §9 `DocumentationResult.status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// At least one source was found and read.
    Resolved,
    /// A provider could document the concept (a package it names, a documented project), but
    /// nothing could be read: the notes say why.
    Unavailable,
    /// No provider documents it: the concept names no dependency and no project document
    /// covers it, so the lesson rests on implementation evidence (and labelled model knowledge).
    NotNeeded,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Resolved => "resolved",
            Status::Unavailable => "unavailable",
            Status::NotNeeded => "not_needed",
        }
    }
}

/// §9 `DocumentationResult` for one concept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocumentationResult {
    pub concept_id: String,
    pub status: Status,
    pub sources: Vec<ResolvedSource>,
    pub notes: Vec<String>,
}

/// Why a provider produced nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderError {
    /// `not_found`, `not_allowed`, `timeout`, `too_large`, `http`, `io`, `unsupported`.
    pub code: String,
    pub message: String,
}

impl ProviderError {
    pub fn new(code: &str, message: impl Into<String>) -> ProviderError {
        ProviderError { code: code.to_string(), message: message.into() }
    }
}

impl std::fmt::Display for ProviderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

/// §13's provider contract.
pub trait DocumentationProvider {
    /// Short name, the prefix of its source ids (`project`, `cargo`, `npm`, `python`, `go`, `web`).
    fn name(&self) -> &str;
    /// Whether this provider may know anything about the concept (cheap; no reads beyond an index).
    fn can_resolve(&self, concept: &ConceptQuery) -> bool;
    /// Candidates for the concept, best first, at most `budget.max_results`.
    fn search(&self, concept: &ConceptQuery, budget: &Budget) -> Result<Vec<Candidate>, ProviderError>;
    /// The text of one of its candidates.
    fn fetch(&self, source_id: &str, budget: &Budget) -> Result<Fetched, ProviderError>;
}

/// Sort candidates by score (highest first), then source id.
pub fn rank(candidates: &mut [Candidate]) {
    candidates.sort_by(|a, b| {
        b.factors
            .score()
            .partial_cmp(&a.factors.score())
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.source_id.cmp(&b.source_id))
    });
}

/// Where the offline providers look.
#[derive(Clone, Debug, Default)]
pub struct Locations {
    /// The repository root.
    pub repo: PathBuf,
    /// `CARGO_HOME` (default: `$CARGO_HOME`, else `~/.cargo`).
    pub cargo_home: Option<PathBuf>,
    /// Python `site-packages` directories (default: `.venv`/`venv` under the repository).
    pub site_packages: Vec<PathBuf>,
    /// The Go module cache (default: `$GOMODCACHE`, else `$GOPATH/pkg/mod`, else `~/go/pkg/mod`).
    pub go_mod_cache: Option<PathBuf>,
    /// Changed files and the symbols on their changed lines (doc comments are read for these).
    pub changed_symbols: Vec<(String, Vec<String>)>,
}

impl Locations {
    /// `repo` with every other location from the environment.
    pub fn from_env(repo: impl Into<PathBuf>) -> Locations {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let cargo_home =
            std::env::var_os("CARGO_HOME").map(PathBuf::from).or_else(|| home.as_ref().map(|h| h.join(".cargo")));
        let go_mod_cache = std::env::var_os("GOMODCACHE")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("GOPATH").map(|p| PathBuf::from(p).join("pkg/mod")))
            .or_else(|| home.as_ref().map(|h| h.join("go/pkg/mod")));
        Locations {
            repo: repo.into(),
            cargo_home,
            site_packages: Vec::new(),
            go_mod_cache,
            changed_symbols: Vec::new(),
        }
    }
}

/// Limits of one resolution.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Sources kept per concept.
    pub max_sources: usize,
    /// Bytes of each excerpt.
    pub max_excerpt_bytes: usize,
    /// Time for the whole resolution of a concept.
    pub time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_sources: 3, max_excerpt_bytes: 1_500, time: Duration::from_secs(5) }
    }
}

/// The registry of providers, in registration order (the order breaks no ties: ranking does).
pub struct Resolver {
    providers: Vec<Box<dyn DocumentationProvider + Send + Sync>>,
    limits: Limits,
}

impl Resolver {
    /// No providers.
    pub fn empty() -> Resolver {
        Resolver { providers: Vec::new(), limits: Limits::default() }
    }

    /// The offline providers: project-local and installed packages (Cargo, npm, Python, Go).
    pub fn offline(loc: &Locations) -> Resolver {
        Resolver::empty()
            .with(project::ProjectDocs::new(&loc.repo, loc.changed_symbols.clone()))
            .with(packages::CargoDocs::new(&loc.repo, loc.cargo_home.clone()))
            .with(packages::NpmDocs::new(&loc.repo))
            .with(packages::PythonDocs::new(&loc.repo, loc.site_packages.clone()))
            .with(packages::GoDocs::new(&loc.repo, loc.go_mod_cache.clone()))
    }

    pub fn with(mut self, p: impl DocumentationProvider + Send + Sync + 'static) -> Resolver {
        self.providers.push(Box::new(p));
        self
    }

    pub fn with_limits(mut self, limits: Limits) -> Resolver {
        self.limits = limits;
        self
    }

    /// The providers' names.
    pub fn providers(&self) -> Vec<String> {
        self.providers.iter().map(|p| p.name().to_string()).collect()
    }

    /// Resolve one concept: search every provider that can resolve it, rank, fetch the best
    /// until `max_sources` are read, and cut each to the part matching the concept.
    pub fn resolve(&self, concept: &ConceptQuery) -> DocumentationResult {
        let budget = Budget::new(self.limits.max_sources * 3, self.limits.max_excerpt_bytes, self.limits.time);
        let mut notes = Vec::new();
        let mut candidates = Vec::new();
        let mut any = false;
        for p in &self.providers {
            if !p.can_resolve(concept) {
                continue;
            }
            any = true;
            match p.search(concept, &budget) {
                Ok(c) => candidates.extend(c.into_iter().map(|c| (p.as_ref(), c))),
                Err(e) => notes.push(format!("{}: {e}", p.name())),
            }
        }
        candidates.sort_by(|(_, a), (_, b)| {
            b.factors
                .score()
                .partial_cmp(&a.factors.score())
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.source_id.cmp(&b.source_id))
        });
        let terms = concept.terms();
        let mut sources = Vec::new();
        for (p, c) in candidates {
            if sources.len() >= self.limits.max_sources {
                break;
            }
            if budget.expired() {
                notes.push(format!("time limit reached before {} was read", c.source_id));
                break;
            }
            match p.fetch(&c.source_id, &budget) {
                Ok(f) => {
                    notes.extend(f.notes.into_iter().map(|n| format!("{}: {n}", c.source_id)));
                    let excerpt = text::best_excerpt(&f.text, &terms, self.limits.max_excerpt_bytes);
                    if excerpt.trim().is_empty() {
                        notes.push(format!("{}: empty after reduction to text", c.source_id));
                        continue;
                    }
                    sources.push(ResolvedSource {
                        content_hash: blake3::hash(excerpt.as_bytes()).to_hex().to_string(),
                        excerpt,
                        score: c.factors.score(),
                        source_id: c.source_id,
                        provider: c.provider,
                        title: c.title,
                        kind: c.kind,
                        version: c.version,
                        location: c.location,
                        factors: c.factors,
                    });
                }
                Err(e) => notes.push(format!("{}: {e}", c.source_id)),
            }
        }
        let status = if !sources.is_empty() {
            Status::Resolved
        } else if any {
            if notes.is_empty() {
                notes.push("no source of the providers that know the concept matched it".into());
            }
            Status::Unavailable
        } else {
            notes.push(
                "no provider documents this concept: it names no dependency and no project document covers it".into(),
            );
            Status::NotNeeded
        };
        DocumentationResult { concept_id: concept.concept_id.clone(), status, sources, notes }
    }
}

//! What the runtime derives from an evidence pack without a model: opportunity signals from
//! changed paths and symbols, whether the pack is degraded (a budget stopped the ladder), whether
//! it is inspectable at all, and the slices of it a work order shows.
//!
//! **Derived signals** (ARCHITECTURE §10) are keyword rules over the words of each changed,
//! non-sensitive path and of the symbols the collector found on changed lines: `auth`, `oauth`,
//! `jwt`, `session`, … → a security boundary; `middleware`, `interceptor`, `pipeline` → a
//! cross-component flow; `migration`, `alembic` → a persisted-schema contract; `openapi`,
//! `proto`, `webhook` → an external API contract; `retry`, `backoff`, `timeout` → a reliability
//! boundary; `invalidate`, `evict`, `stale` → a consequential (freshness) tradeoff; `cache`,
//! `memoize`, `ttl` → a reusable pattern; `config`, `settings` → operational configuration; CI and
//! deployment files → deployment; `logging`, `metrics`, `tracing` → observability; `validate`,
//! `sanitize` → validation; `test`, `spec`, `fixtures` → test strategy; a changed dependency
//! manifest next to changed code → a connected dependency relationship. One signal per rule,
//! citing up to three excerpts. They are *candidates*: they are counted together with the agent's
//! signals unless the agent disputes one with a reason (a formatting-only edit of `auth.rs` is not
//! a security change). Words are whole path components split on `/ . _ -` and camelCase, so
//! `author.rs` is not `auth`.
//!
//! Not for: judging learning value (the policy does, from these and the agent's signals) or reading
//! the repository (the pack is all there is).

use dossier_evidence::{EvidencePack, Excerpt, LevelStatus, SearchHit};
use serde::{Deserialize, Serialize};

use crate::contract::{EvidenceRef, SignalKind};
use crate::event::DerivedSignal;

struct Rule {
    slug: &'static str,
    kind: SignalKind,
    concept: &'static str,
    words: &'static [&'static str],
}

const RULES: &[Rule] = &[
    Rule {
        slug: "security",
        kind: SignalKind::SecurityBoundary,
        concept: "authentication and authorization boundary",
        words: &[
            "auth",
            "oauth",
            "oauth2",
            "authn",
            "authz",
            "authenticate",
            "authentication",
            "authorize",
            "authorization",
            "login",
            "logout",
            "jwt",
            "oidc",
            "saml",
            "sso",
            "session",
            "sessions",
            "permission",
            "permissions",
            "acl",
            "rbac",
            "csrf",
            "password",
            "credential",
            "credentials",
            "token",
            "tokens",
        ],
    },
    Rule {
        slug: "pipeline",
        kind: SignalKind::ArchitectureFlow,
        concept: "middleware and request pipeline",
        words: &["middleware", "middlewares", "interceptor", "interceptors", "pipeline", "gateway", "pubsub", "broker"],
    },
    Rule {
        slug: "migration",
        kind: SignalKind::ExternalContract,
        concept: "schema migration of persisted data",
        words: &["migration", "migrations", "migrate", "alembic", "flyway", "liquibase"],
    },
    Rule {
        slug: "api-contract",
        kind: SignalKind::ExternalContract,
        concept: "external API contract",
        words: &["openapi", "swagger", "proto", "protobuf", "graphql", "grpc", "webhook", "webhooks"],
    },
    Rule {
        slug: "reliability",
        kind: SignalKind::ReliabilityBoundary,
        concept: "retries, backoff and failure handling",
        words: &[
            "retry",
            "retries",
            "retrying",
            "backoff",
            "timeout",
            "timeouts",
            "circuit",
            "breaker",
            "idempotent",
            "idempotency",
            "ratelimit",
            "throttle",
            "failover",
            "jitter",
        ],
    },
    Rule {
        slug: "invalidation",
        kind: SignalKind::ConsequentialTradeoff,
        concept: "cache invalidation and staleness",
        words: &["invalidate", "invalidates", "invalidation", "evict", "eviction", "stale", "staleness"],
    },
    Rule {
        slug: "caching",
        kind: SignalKind::ReusablePattern,
        concept: "caching pattern",
        words: &["cache", "caches", "caching", "cached", "memo", "memoize", "lru", "ttl"],
    },
    Rule {
        slug: "config",
        kind: SignalKind::OperationalConfig,
        concept: "operational configuration",
        words: &["config", "configs", "configuration", "settings", "featureflag", "featureflags"],
    },
    Rule {
        slug: "deployment",
        kind: SignalKind::Deployment,
        concept: "CI and deployment",
        words: &[
            "dockerfile",
            "docker",
            "k8s",
            "kubernetes",
            "helm",
            "terraform",
            "deploy",
            "deployment",
            "workflows",
            "jenkinsfile",
            "ci",
            "circleci",
            "buildkite",
        ],
    },
    Rule {
        slug: "observability",
        kind: SignalKind::Observability,
        concept: "observability",
        words: &["logging", "logger", "metrics", "tracing", "telemetry", "otel", "opentelemetry", "prometheus"],
    },
    Rule {
        slug: "validation",
        kind: SignalKind::Validation,
        concept: "input validation",
        words: &["validate", "validation", "validator", "validators", "sanitize", "sanitizer"],
    },
    Rule {
        slug: "tests",
        kind: SignalKind::TestStrategy,
        concept: "test strategy",
        words: &["test", "tests", "spec", "specs", "testing", "fixture", "fixtures", "e2e"],
    },
];

/// Dependency manifests (a change to one next to code changes is a connected dependency).
const MANIFESTS: &[&str] = &[
    "cargo.toml",
    "package.json",
    "go.mod",
    "requirements.txt",
    "pyproject.toml",
    "gemfile",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "composer.json",
];

/// Lock files: generated, never a signal on their own.
const LOCKFILES: &[&str] =
    &["cargo.lock", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "go.sum", "poetry.lock", "gemfile.lock"];

/// The lowercase words of a path or identifier: split on non-alphanumerics and camelCase humps.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            cur.extend(c.to_lowercase());
        } else {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn file_name(path: &str) -> String {
    path.rsplit('/').next().unwrap_or(path).to_lowercase()
}

/// The first excerpt of `path` in the pack, as a contract ref.
fn excerpt_ref(pack: &EvidencePack, path: &str) -> Option<EvidenceRef> {
    pack.excerpts.iter().find(|e| e.evidence.path == path).map(|e| to_ref(&e.evidence))
}

pub fn to_ref(r: &dossier_evidence::EvidenceRef) -> EvidenceRef {
    EvidenceRef {
        path: r.path.clone(),
        revision: r.revision.clone(),
        start_line: r.start_line,
        end_line: r.end_line,
        content_hash: Some(r.content_hash.clone()),
    }
}

/// One changed file as the signal rules see it: its repository-relative path, whether it is a
/// sensitive path (never a signal), the symbols defined on or around its changed lines, and the
/// evidence ref a signal from it cites, when there is one.
#[derive(Clone, Debug, Default)]
pub struct ChangedPath<'a> {
    pub path: &'a str,
    pub sensitive: bool,
    pub symbols: &'a [String],
    pub evidence: Option<EvidenceRef>,
}

/// Signals derived from the pack (see the module doc), in rule order.
pub fn derive_signals(pack: &EvidencePack) -> Vec<DerivedSignal> {
    let files: Vec<ChangedPath<'_>> = pack
        .files
        .iter()
        .map(|f| ChangedPath {
            path: &f.path,
            sensitive: f.sensitive,
            symbols: &f.symbols,
            evidence: excerpt_ref(pack, &f.path),
        })
        .collect();
    derive_signals_from(&files)
}

/// Signals derived from changed paths and their symbols (the same rules as [`derive_signals`],
/// for callers without an evidence pack, e.g. the Stop hook's recommendation card, which knows
/// the session's changed paths and text from its transcript). In rule order.
pub fn derive_signals_from(changed: &[ChangedPath<'_>]) -> Vec<DerivedSignal> {
    let files: Vec<&ChangedPath<'_>> = changed.iter().filter(|f| !f.sensitive).collect();
    let mut out = Vec::new();
    for rule in RULES {
        let mut matches: Vec<String> = Vec::new();
        let mut evidence: Vec<EvidenceRef> = Vec::new();
        for f in &files {
            let path_hit = words(f.path).into_iter().find(|w| rule.words.contains(&w.as_str()));
            let symbol_hit = f
                .symbols
                .iter()
                .find_map(|s| words(s).into_iter().find(|w| rule.words.contains(&w.as_str())).map(|w| (s, w)));
            let note = match (path_hit, symbol_hit) {
                (Some(w), _) => format!("changed path `{}` ({w})", f.path),
                (None, Some((s, w))) => format!("symbol `{s}` in `{}` ({w})", f.path),
                (None, None) => continue,
            };
            if matches.len() < 3 {
                matches.push(note);
            }
            if evidence.len() < 3
                && let Some(r) = &f.evidence
                && !evidence.contains(r)
            {
                evidence.push(r.clone());
            }
        }
        if !matches.is_empty() {
            out.push(DerivedSignal {
                id: format!("derived-{}", rule.slug),
                kind: rule.kind,
                concept: rule.concept.to_string(),
                reason: format!("{}: {}", kind_phrase(rule.kind), matches.join("; ")),
                evidence,
            });
        }
    }
    let manifest: Vec<_> = files.iter().filter(|f| is_manifest(f.path)).collect();
    let code = files.iter().any(|f| !is_manifest(f.path) && !is_lockfile(f.path));
    if let Some(m) = manifest.first()
        && code
    {
        out.push(DerivedSignal {
            id: "derived-dependency".into(),
            kind: SignalKind::DependencyRelationship,
            concept: "connected dependency change".into(),
            reason: format!(
                "{}: manifest `{}` changed together with code",
                kind_phrase(SignalKind::DependencyRelationship),
                m.path
            ),
            evidence: m.evidence.clone().into_iter().collect(),
        });
    }
    out
}

/// A dependency manifest (`Cargo.toml`, `package.json`, ...), by file name.
pub fn is_manifest(path: &str) -> bool {
    MANIFESTS.contains(&file_name(path).as_str())
}

/// A dependency lock file (generated; never a signal on its own), by file name.
pub fn is_lockfile(path: &str) -> bool {
    LOCKFILES.contains(&file_name(path).as_str())
}

/// A test file, by the test-strategy rule's words (`test`, `tests`, `spec`, `fixtures`, ...)
/// among its path words, or a test-file suffix (`foo_test.go`, `foo.test.ts`, `foo.spec.js`).
pub fn is_test_path(path: &str) -> bool {
    let tests = RULES.iter().find(|r| r.slug == "tests").expect("the test-strategy rule exists");
    words(path).iter().any(|w| tests.words.contains(&w.as_str()))
}

/// Test infrastructure rather than test cases: fixtures, shared helpers, harnesses, mocks,
/// factories, `conftest.py` (a change to one may carry a transferable test strategy).
pub fn is_test_infrastructure(path: &str) -> bool {
    const WORDS: &[&str] = &[
        "fixture",
        "fixtures",
        "support",
        "helper",
        "helpers",
        "harness",
        "conftest",
        "mock",
        "mocks",
        "factory",
        "factories",
        "testutil",
        "testutils",
        "testing",
    ];
    words(path).iter().any(|w| WORDS.contains(&w.as_str()))
}

/// Prose rather than code: Markdown, reStructuredText, AsciiDoc, plain text, and the usual
/// top-level prose files (`README`, `CHANGELOG`, `LICENSE`, ...), by name.
pub fn is_documentation(path: &str) -> bool {
    let name = file_name(path);
    let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or_default();
    matches!(ext, "md" | "mdx" | "markdown" | "rst" | "adoc" | "txt")
        || ["readme", "changelog", "license", "notice", "authors", "contributing"]
            .iter()
            .any(|p| name == *p || name.strip_prefix(p).is_some_and(|r| r.starts_with('.')))
}

/// A generated file by its name or directory: lock files, `*.generated.*`, `*.pb.go`,
/// `*_pb2.py`, minified bundles, `generated/` and `__generated__/` directories. (Content
/// markers such as `@generated` are the caller's to check: this looks at the path only.)
pub fn is_generated_path(path: &str) -> bool {
    let name = file_name(path);
    const SUFFIXES: &[&str] = &[
        ".pb.go",
        "_pb2.py",
        "_pb2_grpc.py",
        ".pb.rs",
        ".pb.h",
        ".pb.cc",
        ".g.dart",
        ".freezed.dart",
        ".min.js",
        ".min.css",
        ".designer.cs",
    ];
    is_lockfile(path)
        || name.contains(".generated.")
        || name.contains("_generated.")
        || SUFFIXES.iter().any(|s| name.ends_with(s))
        || path.split('/').any(|c| matches!(c.to_ascii_lowercase().as_str(), "generated" | "__generated__"))
}

fn kind_phrase(kind: SignalKind) -> &'static str {
    match kind {
        SignalKind::ExternalContract => "an external or persisted contract",
        SignalKind::ArchitectureFlow => "a cross-component flow",
        SignalKind::SecurityBoundary => "a security boundary",
        SignalKind::ReliabilityBoundary => "a reliability boundary",
        SignalKind::ConsequentialTradeoff => "a consequential tradeoff",
        SignalKind::ReusablePattern => "a reusable pattern",
        SignalKind::DependencyRelationship => "a dependency relationship",
        SignalKind::OperationalConfig => "operational configuration",
        SignalKind::Observability => "observability",
        SignalKind::Validation => "validation",
        SignalKind::TestStrategy => "test strategy",
        SignalKind::Deployment => "deployment",
    }
}

/// The pack has something to inspect: a non-sensitive changed file or the task text (§10).
pub fn inspectable(pack: &EvidencePack) -> bool {
    pack.files.iter().any(|f| !f.sensitive) || pack.locator.task.as_deref().is_some_and(|t| !t.trim().is_empty())
}

/// Why the pack cannot ground a lesson, when it holds nothing citable: no changed file at all, or
/// changed files but no excerpt and no search hit (all sensitive, binary, or cut by a budget).
/// `None` when at least one excerpt or hit can be cited.
pub fn evidence_shortfall(pack: &EvidencePack) -> Option<String> {
    if !pack.excerpts.is_empty() || !pack.search.hits.is_empty() {
        return None;
    }
    let rule = pack.locator.located.as_ref().map(|l| format!(" (locate rule `{}`)", l.rule)).unwrap_or_default();
    let what = match (pack.locator.mode.as_str(), &pack.locator.head) {
        ("revisions", Some(head)) => format!("{}..{}", pack.locator.base.requested, head.requested),
        _ if pack.locator.base.requested == "HEAD" => "the working tree against HEAD".to_string(),
        _ => format!("the working tree against {}", pack.locator.base.requested),
    };
    Some(if pack.files.is_empty() {
        format!("no changed files in {what}{rule}")
    } else {
        let sensitive = pack.files.iter().filter(|f| f.sensitive).count();
        format!(
            "{} changed file(s) in {what}{rule}, but no excerpt could be cut from them ({} sensitive, the rest \
             binary, unreadable or over a budget)",
            pack.files.len(),
            sensitive
        )
    })
}

/// What would let a session find evidence, for a pack with a [`evidence_shortfall`].
pub fn evidence_help() -> Vec<String> {
    vec![
        "name the revisions of the work: start again with base and head (e.g. base=<the commit before the work> \
         head=HEAD)"
            .to_string(),
        "say what was implemented: start again with the task text".to_string(),
        "point at the code: start again with repo=<a path inside the repository that holds the change>".to_string(),
    ]
}

/// Why the pack is degraded, when a budget stopped the ladder or a level stopped short.
pub fn pack_degradation(pack: &EvidencePack) -> Option<Vec<String>> {
    let mut details = Vec::new();
    if let Some(stop) = &pack.budget.stopped {
        details.push(format!(
            "the {} budget stopped level {} ({}): {}",
            stop.limit.as_str(),
            stop.level as u8,
            stop.level.as_str(),
            stop.detail
        ));
    }
    for l in &pack.levels {
        if matches!(l.status, LevelStatus::Partial | LevelStatus::Skipped)
            && let Some(limit) = l.stopped_by
        {
            let d = format!(
                "level {} ({}) {:?} by the {} limit",
                l.level as u8,
                l.level.as_str(),
                l.status,
                limit.as_str()
            )
            .to_lowercase();
            details.push(d);
        }
    }
    if details.is_empty() { None } else { Some(details) }
}

/// A changed file as a work order shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileBrief {
    pub path: String,
    pub status: String,
    pub added: Option<u64>,
    pub removed: Option<u64>,
    pub sensitive: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub symbols: Vec<String>,
}

/// The part of the pack a work order carries. Every string in it was redacted by the collector.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceView {
    /// The revision new-side refs carry (a commit id or `worktree`).
    pub revision: String,
    pub task: Option<String>,
    pub files: Vec<FileBrief>,
    /// Citable excerpts: cite with their `evidence` ref, or a sub-span of it.
    pub excerpts: Vec<Excerpt>,
    pub search_hits: Vec<SearchHit>,
    /// What the collector left out or could not read.
    pub limitations: Vec<String>,
}

fn briefs(pack: &EvidencePack) -> Vec<FileBrief> {
    pack.files
        .iter()
        .map(|f| FileBrief {
            path: f.path.clone(),
            status: serde_json::to_value(f.status).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default(),
            added: f.added,
            removed: f.removed,
            sensitive: f.sensitive,
            note: f.note.clone(),
            symbols: f.symbols.clone(),
        })
        .collect()
}

/// What a pack does not contain, in words (for work orders and the summary's limitations).
pub fn pack_limitations(pack: &EvidencePack) -> Vec<String> {
    let mut out = pack_degradation(pack).unwrap_or_default();
    if !pack.sensitive_paths.is_empty() {
        out.push(format!("{} sensitive path(s) withheld, never read", pack.sensitive_paths.len()));
    }
    // Sensitive paths are counted once, above, not again as omissions.
    let omitted: u64 =
        pack.budget.omission_counts.iter().filter(|(k, _)| !k.ends_with("/sensitive")).map(|(_, n)| n).sum();
    if omitted > 0 {
        out.push(format!("{omitted} item(s) omitted by budgets or caps"));
    }
    let redacted: u64 = pack.redactions.values().sum();
    if redacted > 0 {
        out.push(format!("{redacted} secret(s) redacted from the evidence"));
    }
    out
}

/// The whole pack, for concept extraction.
pub fn full_view(pack: &EvidencePack) -> EvidenceView {
    EvidenceView {
        revision: pack.locator.revision.clone(),
        task: pack.locator.task.clone(),
        files: briefs(pack),
        excerpts: pack.excerpts.clone(),
        search_hits: pack.search.hits.clone(),
        limitations: pack_limitations(pack),
    }
}

fn overlaps(a: &dossier_evidence::EvidenceRef, b: &EvidenceRef) -> bool {
    a.path == b.path && a.revision == b.revision && a.start_line <= b.end_line && b.start_line <= a.end_line
}

/// The excerpts and hits overlapping `refs` (all excerpts when none do), for a unit's work.
pub fn focused_view(pack: &EvidencePack, refs: &[EvidenceRef]) -> EvidenceView {
    let excerpts: Vec<Excerpt> =
        pack.excerpts.iter().filter(|e| refs.iter().any(|r| overlaps(&e.evidence, r))).cloned().collect();
    let hits: Vec<SearchHit> =
        pack.search.hits.iter().filter(|h| refs.iter().any(|r| overlaps(&h.evidence, r))).cloned().collect();
    let (excerpts, search_hits) =
        if excerpts.is_empty() && hits.is_empty() { (pack.excerpts.clone(), Vec::new()) } else { (excerpts, hits) };
    EvidenceView {
        revision: pack.locator.revision.clone(),
        task: pack.locator.task.clone(),
        files: briefs(pack),
        excerpts,
        search_hits,
        limitations: pack_limitations(pack),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_paths_and_camel_case() {
        assert_eq!(words("src/auth/OAuthMiddleware.rs"), ["src", "auth", "oauth", "middleware", "rs"]);
        assert_eq!(words("retry_with_backoff"), ["retry", "with", "backoff"]);
        assert_eq!(words("migrations/002_add-index.sql"), ["migrations", "002", "add", "index", "sql"]);
        assert!(!words("src/author.rs").contains(&"auth".to_string()));
    }
}

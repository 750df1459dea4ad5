//! `dossier doctor` (SPEC §7.2, §13.2): checks of the store, its config, the policy
//! components, the context files, each Dossier (frontmatter, sections and provenance through
//! the distill policy — its errors and warnings, grouped per kind so output stays bounded —
//! audit log as JSONL, every artifact the audit log recorded, secrets stored in its files
//! through the store's redaction scan; an `ok` line per Dossier that passed and a count of
//! those checked), `privacy.redact: false` as a warning, the
//! harness registration, and our own stale temp files. Each problem has a code, the file
//! (and line when there is one), and a suggested fix (a command when one exists).
//!
//! [`run`] never writes. [`repair`] is `doctor --fix`: it applies only the repairs a check
//! marked safe and idempotent ([`Repair`]: regenerate a context file, install a missing
//! guide, remove a temp file of ours older than [`TEMP_GRACE`]); everything else is left
//! for the user, with its fix.
//!
//! Not for: changing Dossier data. No repair touches a `dossier.md`, an artifact or an
//! audit log.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::Serialize;

use crate::policy::{CacheOutcome, Interface};
use dossier_store::config::Config;
use dossier_store::context;
use dossier_store::error::Result;
use dossier_store::layout::{self, Store};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Ok,
    Warning,
    Error,
}

#[derive(Clone, Debug, Serialize)]
pub struct Check {
    /// What was checked, e.g. `store`, `config`, `policy.priority`.
    pub check: String,
    pub severity: Severity,
    /// Stable problem code (`ok` when fine).
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// 1-based line in `file`, when the problem has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    /// For a grouped finding (the rest of one kind in one Dossier, after the first
    /// [`SHOWN_PER_KIND`]): how many, and their lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<u32>,
    /// What `doctor --fix` would do about it; `None`: nothing safe to do automatically.
    #[serde(skip)]
    pub repair: Option<Repair>,
}

/// A repair `doctor --fix` may apply: safe (touches no Dossier data) and idempotent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Repair {
    /// Regenerate `context/library.md`.
    RefreshLibrary,
    /// Install the shipped Distillation Guide where none is.
    InstallGuide,
    /// Remove a temp file an interrupted atomic write of ours left behind.
    RemoveTempFile(PathBuf),
}

/// Findings of one kind in one Dossier shown one by one; the rest are one grouped check.
pub const SHOWN_PER_KIND: usize = 3;

/// A temp file younger than this may belong to a write in progress: never reported.
pub const TEMP_GRACE: Duration = Duration::from_secs(3600);

impl Check {
    fn ok(check: impl Into<String>, message: impl Into<String>) -> Check {
        Check {
            check: check.into(),
            severity: Severity::Ok,
            code: "ok".into(),
            message: message.into(),
            file: None,
            line: None,
            fix: None,
            count: None,
            lines: Vec::new(),
            repair: None,
        }
    }
    fn problem(severity: Severity, check: impl Into<String>, code: &str, message: impl Into<String>) -> Check {
        Check {
            check: check.into(),
            severity,
            code: code.into(),
            message: message.into(),
            file: None,
            line: None,
            fix: None,
            count: None,
            lines: Vec::new(),
            repair: None,
        }
    }
    fn file(mut self, f: PathBuf) -> Check {
        self.file = Some(f);
        self
    }
    fn line(mut self, l: u32) -> Check {
        self.line = (l > 0).then_some(l);
        self
    }
    fn fix(mut self, f: impl Into<String>) -> Check {
        self.fix = Some(f.into());
        self
    }
    /// A problem `doctor --fix` repairs; its suggested fix says so.
    fn repair(mut self, r: Repair) -> Check {
        self.fix = Some("dossier doctor --fix".into());
        self.repair = Some(r);
        self
    }
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub store: PathBuf,
    pub checks: Vec<Check>,
}

impl Report {
    pub fn errors(&self) -> usize {
        self.checks.iter().filter(|c| c.severity == Severity::Error).count()
    }
    pub fn warnings(&self) -> usize {
        self.checks.iter().filter(|c| c.severity == Severity::Warning).count()
    }
}

pub fn run() -> Result<Report> {
    let store = Store::locate()?;
    let mut checks = Vec::new();
    if !store.exists() {
        checks.push(
            Check::problem(
                Severity::Error,
                "store",
                "store_missing",
                format!("no store at {}", store.root().display()),
            )
            .fix("dossier init"),
        );
        return Ok(Report { store: store.root().to_path_buf(), checks });
    }
    checks.push(Check::ok("store", format!("{} exists", store.root().display())));

    let config_path = store.config_path();
    let config = if config_path.is_file() {
        match Config::load_with_machine(&config_path, &store.machine_config_path()) {
            Ok(c) => {
                checks.push(Check::ok("config", "config.yaml parses"));
                if c.policy.limits.fuel.is_some() {
                    checks.push(
                        Check::problem(
                            Severity::Warning,
                            "config",
                            "obsolete_setting",
                            "policy.limits.fuel is ignored: policy calls are bounded by policy.limits.time_ms",
                        )
                        .file(config_path.clone())
                        .fix(format!(
                            "replace `fuel:` with `time_ms: 5000` under policy.limits in {}",
                            config_path.display()
                        )),
                    );
                }
                c
            }
            Err(e) => {
                checks.push(
                    Check::problem(Severity::Error, "config", "invalid_config", e.message)
                        .file(config_path.clone())
                        .fix(format!("fix {} by hand; doctor checked the defaults instead", config_path.display())),
                );
                Config::default()
            }
        }
    } else {
        checks.push(
            Check::problem(
                Severity::Warning,
                "config",
                "config_missing",
                "config.yaml is missing; defaults are in use",
            )
            .file(config_path)
            .fix("dossier init"),
        );
        Config::default()
    };

    if !config.privacy.redact {
        checks.push(
            Check::problem(
                Severity::Warning,
                "config.privacy",
                "redaction_off",
                "privacy.redact is false: captures and saves store secrets verbatim",
            )
            .file(store.config_path())
            .fix(format!("set `privacy.redact: true` in {}", store.config_path().display())),
        );
    }
    let app = crate::app::with(store, config);
    match crate::app::policies(&app) {
        Ok(policies) => {
            for interface in Interface::ALL {
                let name = format!("policy.{}", interface.name());
                match policies.check(interface) {
                    Ok(r) => {
                        let cache = match r.cache {
                            CacheOutcome::Hit => "compiled artifact cached",
                            CacheOutcome::Compiled { stored: true } | CacheOutcome::Rebuilt { stored: true, .. } => {
                                "compiled now and cached"
                            }
                            _ => "compiled now; cache not writable",
                        };
                        checks.push(Check::ok(name, format!("loads from {} ({cache})", r.source)));
                    }
                    Err(e) => checks.push(
                        Check::problem(Severity::Error, name, "policy_unavailable", e.to_string())
                            .file(app.store.config_path())
                            .fix(format!("fix or remove `policy.{}` in config.yaml", interface.name())),
                    ),
                }
            }
        }
        Err(e) => checks.push(Check::problem(Severity::Error, "policy", "policy_unavailable", e.message)),
    }

    let guide = app.store.guide_path();
    match std::fs::read_to_string(&guide) {
        Ok(text) if text == context::GUIDE => checks.push(Check::ok("context.guide", "Distillation Guide installed")),
        Ok(_) => checks.push(
            Check::problem(
                Severity::Warning,
                "context.guide",
                "guide_modified",
                "guide.md differs from the shipped Distillation Guide",
            )
            .file(guide)
            .fix("move it aside and run `dossier init` to install the shipped guide"),
        ),
        Err(_) => checks.push(
            Check::problem(
                Severity::Warning,
                "context.guide",
                "guide_missing",
                "the Distillation Guide is not installed",
            )
            .file(guide)
            .repair(Repair::InstallGuide),
        ),
    }

    let policy_loads = !checks.iter().any(|c| c.check == "policy.distill" && c.severity == Severity::Error);
    // Symbolic links that would lead a Dossier's reads and writes out of the store (SPEC
    // §3.2): each one, with its target and fix. Such a Dossier is not read further here.
    for link in app.store.links() {
        checks.push(
            Check::problem(Severity::Error, "dossier.links", "symlink_in_dossier", link.message())
                .file(link.path.clone())
                .fix(link.fix()),
        );
    }
    let (mut checked, mut passed) = (0usize, 0usize);
    let files = app.store.dossier_files()?;
    // Secrets already stored, scanned for every Dossier in one pass (the policy is set up once
    // per batch of files, not once per Dossier): each Dossier's findings, or the scan's error.
    let readable: Vec<PathBuf> = files
        .iter()
        .filter_map(|f| f.parent().map(PathBuf::from))
        .filter(|d| layout::entry_links(d).is_empty())
        .collect();
    let mut scanned: std::collections::HashMap<PathBuf, Vec<dossier_store::redact::Found>> = Default::default();
    if policy_loads {
        match dossier_store::redact::scan_dirs(&dossier_store::redact::Redactor::scanner(&app), &readable) {
            Ok(found) => scanned = readable.iter().cloned().zip(found).collect(),
            Err(e) => checks.push(Check::problem(Severity::Error, "dossier.secrets", e.code.as_str(), e.message)),
        }
    }
    for file in files {
        let dir = file.parent().map(PathBuf::from).unwrap_or_default();
        checked += 1;
        if !layout::entry_links(&dir).is_empty() {
            continue;
        }
        let start = checks.len();
        let name = match layout::read_frontmatter(&file) {
            Ok((f, _)) => f.name,
            Err(e) => {
                checks.push(
                    Check::problem(Severity::Error, "dossier.frontmatter", "invalid_frontmatter", e.message)
                        .file(file.clone())
                        .fix(format!("edit the frontmatter of {}", file.display())),
                );
                continue;
            }
        };
        // The audit log is JSON Lines, append-only: a line that does not parse is reported,
        // never rewritten.
        match dossier_store::audit::read(&dir) {
            Ok((events, bad)) => {
                checks.extend(artifact_checks(&dir, &events));
                for n in bad {
                    checks.push(
                        Check::problem(
                            Severity::Error,
                            "dossier.audit",
                            "corrupt_audit_line",
                            format!("audit.log line {n} is not a JSON audit event"),
                        )
                        .file(dossier_store::audit::log_path(&dir))
                        .line(n as u32)
                        .fix("leave it (the log is append-only); later events still read; investigate what wrote it"),
                    );
                }
            }
            Err(e) => checks.push(Check::problem(Severity::Error, "dossier.audit", e.code.as_str(), e.message)),
        }
        // Sections and provenance, by the distill policy (docs/distill.md, SPEC §13.2,
        // §14.3): errors (unknown artifacts, malformed or out-of-range citations, missing
        // sections) and warnings (missing provenance, decisions without rationale or
        // attribution, empty Next Steps), grouped per kind.
        let slug = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if policy_loads {
            match dossier_store::distill::findings(&app, &dir) {
                Ok(findings) => checks.extend(distill_checks(&file, &slug, &findings)),
                Err(e) => checks.push(Check::problem(Severity::Error, "dossier.distill", e.code.as_str(), e.message)),
            }
        }
        // Secrets already stored (a store written before redaction, or with it off): file,
        // line and kind, never the value; the fix rewrites them through the Save path.
        if let Some(found) = scanned.get(&dir) {
            checks.extend(secret_checks(found, Some(&slug)));
        }
        // One line per Dossier that passed, so a user sees it was checked.
        if checks[start..].iter().all(|c| c.severity == Severity::Ok) {
            passed += 1;
            let what = if scanned.contains_key(&dir) {
                "frontmatter, audit log, archive, sections, provenance and secrets"
            } else if policy_loads {
                "frontmatter, audit log, archive, sections and provenance"
            } else {
                "frontmatter, audit log and archive"
            };
            checks.push(Check::ok("dossier", format!("{slug} ({name}): {what}")));
        }
    }
    // The store's own files that can hold captured or model-written text (context/, sessions/,
    // learning/, the frontmatter cache).
    if policy_loads {
        match dossier_store::redact::scan_store(&dossier_store::redact::Redactor::scanner(&app)) {
            Ok(found) => checks.extend(secret_checks(&found, None)),
            Err(e) => checks.push(Check::problem(Severity::Error, "dossier.secrets", e.code.as_str(), e.message)),
        }
    }
    let plural = if checked == 1 { "" } else { "s" };
    checks.push(Check::ok(
        "dossiers",
        format!("{checked} Dossier{plural} checked: {passed} passed, {} with findings", checked - passed),
    ));

    // A synced store (docs/sync.md): the last sync's result and the conflicts it left open.
    if app.store.is_synced() {
        checks.extend(sync_checks(&app));
    }

    let library = app.store.library_path();
    let policy_ok = !checks.iter().any(|c| c.check.starts_with("policy") && c.severity == Severity::Error);
    match std::fs::read_to_string(&library) {
        Err(_) => checks.push(
            Check::problem(Severity::Warning, "context.library", "library_missing", "context/library.md is missing")
                .file(library)
                .repair(Repair::RefreshLibrary),
        ),
        Ok(text) if policy_ok => match context::current_library(&app) {
            Ok(current) if current == text => checks.push(Check::ok("context.library", "library.md is current")),
            Ok(_) => checks.push(
                Check::problem(
                    Severity::Warning,
                    "context.library",
                    "library_stale",
                    "context/library.md is out of date",
                )
                .file(library)
                .repair(Repair::RefreshLibrary),
            ),
            Err(e) => checks.push(Check::problem(Severity::Error, "context.library", e.code.as_str(), e.message)),
        },
        Ok(_) => {}
    }

    // Harness registration (SPEC §6.1): what Claude Code has registered now, and whether
    // the report recorded in config.yaml (which context/library.md repeats) still says so.
    match crate::claude_code::inspect_current() {
        Some(r) => {
            // dossier init's registration and the plugin both present (docs/plugin.md).
            let doubles = r.double_registration();
            for w in &doubles {
                let fix = match r.plugin_installs.iter().find(|i| i.enabled && w.contains(&i.id)) {
                    Some(i) => format!(
                        "dossier init --remove (keep the plugin), or claude plugin uninstall {}{} (keep dossier init's)",
                        i.id,
                        if i.scope == "user" { String::new() } else { format!(" --scope {}", i.scope) }
                    ),
                    None => "dossier init --remove (keep the plugin), or stop loading the plugin".to_string(),
                };
                checks.push(
                    Check::problem(Severity::Warning, "harness.claude_code", "double_registration", w.clone()).fix(fix),
                );
            }
            for w in r.warnings().into_iter().filter(|w| !doubles.contains(w)) {
                checks.push(
                    Check::problem(Severity::Warning, "harness.claude_code", "harness_capability_unavailable", w)
                        .fix("dossier init"),
                );
            }
            if r.complete() && doubles.is_empty() {
                let by = match r.serving_plugin() {
                    Some(p) if !r.init_registered() => format!(" (by the plugin {p})"),
                    _ => String::new(),
                };
                checks.push(Check::ok("harness.claude_code", format!("MCP server and hooks registered{by}")));
            }
            let recorded = app.config.harness.as_ref().and_then(|h| h.claude_code.as_ref());
            let live = crate::claude_code::ClaudeCode::registered();
            let matches = recorded.is_some_and(|c| {
                c.mcp == live.mcp
                    && c.session_start_hook == live.session_start_hook
                    && c.session_end_hook == live.session_end_hook
                    && c.pre_compaction_hook == live.pre_compaction_hook
                    && c.transcript_capture == live.transcript_capture
            });
            if !matches {
                checks.push(
                    Check::problem(
                        Severity::Warning,
                        "harness.record",
                        "capability_report_stale",
                        "the capability report in config.yaml does not match what Claude Code has registered now",
                    )
                    .file(app.store.config_path())
                    .fix("dossier init"),
                );
            }
        }
        None => checks.push(Check::problem(
            Severity::Warning,
            "harness.claude_code",
            "harness_capability_unavailable",
            "HOME is not set: cannot check Claude Code's registration",
        )),
    }

    checks.extend(temp_file_checks(app.store.root(), SystemTime::now()));

    Ok(Report { store: app.store.root().to_path_buf(), checks })
}

/// The fix for a secret stored in `file`: `dossier redact` rewrites a Dossier's own files
/// (`slug`'s, or every Dossier's for a store-level file, which is regenerated from them); an
/// append-only log is never rewritten, so its secret must be rotated.
fn secret_fix(file: &Path, slug: Option<&str>) -> String {
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let in_dir = |d: &str| file.parent().is_some_and(|p| p.ends_with(d));
    if name == "audit.log" || in_dir("learning") {
        return format!(
            "rotate this secret: {} is append-only and Dossier never rewrites it",
            if name == "audit.log" { "the audit log" } else { "codecall's log" }
        );
    }
    match slug {
        Some(slug) => format!("dossier redact {slug}"),
        None if in_dir(".cache") => {
            format!("dossier redact --all, then delete {} (derived; rebuilt on the next read)", file.display())
        }
        None if in_dir("context") => "dossier redact --all (context/ is regenerated after it)".to_string(),
        None => format!("dossier redact --all, then rotate this secret (Dossier keeps {} as written)", file.display()),
    }
}

/// `dossier sync`'s state: a failed last attempt is a warning naming its error, a success says
/// when; open conflicts a sync merge created are a warning with the command that resolves them.
fn sync_checks(app: &dossier_store::App) -> Vec<Check> {
    let state = dossier_store::sync::machine::read_state(&app.store);
    let state_file = dossier_store::sync::machine::sync_dir(&app.store).join("state.json");
    let mut checks = Vec::new();
    match (&state.last_error, &state.last_success_at) {
        (Some(e), _) => checks.push(
            Check::problem(
                Severity::Warning,
                "sync",
                "sync_failed",
                format!(
                    "the last `dossier sync` (at {}) failed: {e}",
                    state.last_attempt_at.as_deref().unwrap_or("an unknown time")
                ),
            )
            .file(state_file)
            .fix("dossier sync"),
        ),
        (None, Some(at)) => checks.push(Check::ok("sync", format!("synced; last sync at {at}"))),
        (None, None) => checks.push(
            Check::problem(Severity::Warning, "sync", "never_synced", "the store is a repository but has never synced")
                .fix("dossier sync"),
        ),
    }
    if let Ok(open) = dossier_store::conflicts::list(app, None, false) {
        for c in open.iter().filter(|c| {
            c.kind == "concurrent_edit"
                && std::fs::read_to_string(&c.path).is_ok_and(|t| t.contains("\norigin: sync\n"))
        }) {
            checks.push(
                Check::problem(
                    Severity::Warning,
                    "sync.conflicts",
                    "sync_conflict_open",
                    format!("{}: the Distilled State diverged on two machines ({})", c.slug, c.id),
                )
                .file(c.path.clone())
                .fix(format!("dossier conflicts resolve {} --keep current|proposal", c.id)),
            );
        }
    }
    checks
}

/// Secrets found in one Dossier's files (`slug`) or in the store's own files (`None`) as
/// checks: per file and kind, the first [`SHOWN_PER_KIND`] with their line, the rest as one
/// check with their count and lines.
fn secret_checks(found: &[dossier_store::redact::Found], slug: Option<&str>) -> Vec<Check> {
    let check = if slug.is_some() { "dossier.secrets" } else { "store.secrets" };
    let mut groups: Vec<((&Path, &str), Vec<u32>)> = Vec::new();
    for f in found {
        let key = (f.file.as_path(), f.kind.as_str());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, lines)) => lines.push(f.line),
            None => groups.push((key, vec![f.line])),
        }
    }
    let mut checks = Vec::new();
    for ((file, kind), lines) in groups {
        let fix = secret_fix(file, slug);
        for &l in lines.iter().take(SHOWN_PER_KIND) {
            checks.push(
                Check::problem(
                    Severity::Warning,
                    check,
                    "secret_stored",
                    format!("a secret ({kind}) is stored in plain text"),
                )
                .file(file.to_path_buf())
                .line(l)
                .fix(fix.clone()),
            );
        }
        if lines.len() > SHOWN_PER_KIND {
            let rest = lines[SHOWN_PER_KIND..].to_vec();
            let mut c = Check::problem(
                Severity::Warning,
                check,
                "secret_stored",
                format!("{} more secrets ({kind}) stored in plain text", rest.len()),
            )
            .file(file.to_path_buf())
            .fix(fix.clone());
            c.count = Some(rest.len());
            c.lines = rest;
            checks.push(c);
        }
    }
    checks
}

/// The distill policy's findings for one Dossier as checks: errors as errors, warnings as
/// warnings (info findings are not shown), each kind's first [`SHOWN_PER_KIND`] with its line,
/// the rest as one check with their count and lines, so output stays bounded.
fn distill_checks(file: &Path, slug: &str, findings: &[dossier_store::policy::Finding]) -> Vec<Check> {
    use dossier_store::policy::Severity as S;
    let mut kinds: Vec<(&str, S, Vec<&dossier_store::policy::Finding>)> = Vec::new();
    for f in findings {
        if f.severity == S::Info {
            continue;
        }
        match kinds.iter_mut().find(|(code, sev, _)| *code == f.code && *sev == f.severity) {
            Some((_, _, all)) => all.push(f),
            None => kinds.push((&f.code, f.severity, vec![f])),
        }
    }
    // The policy's errors first. All are warnings to doctor, as before: the Distillation
    // Guide's findings are advice (docs/distill.md), and a structural problem of one Dossier
    // does not make the store unhealthy.
    kinds.sort_by_key(|(_, sev, _)| *sev != S::Error);
    let mut checks = Vec::new();
    for (code, _, all) in kinds {
        let severity = Severity::Warning;
        let fix = distill_fix(code, slug);
        for f in all.iter().take(SHOWN_PER_KIND) {
            checks.push(
                Check::problem(severity, "dossier.distill", code, format!("{code}: {}", f.message))
                    .file(file.to_path_buf())
                    .line(f.line)
                    .fix(fix.clone()),
            );
        }
        if all.len() > SHOWN_PER_KIND {
            let rest = &all[SHOWN_PER_KIND..];
            let mut c = Check::problem(
                severity,
                "dossier.distill",
                code,
                format!("{code}: {} more in `{slug}` (`dossier doctor --json` lists every line)", rest.len()),
            )
            .file(file.to_path_buf())
            .fix(fix);
            c.count = Some(rest.len());
            c.lines = rest.iter().map(|f| f.line).collect();
            checks.push(c);
        }
    }
    checks
}

/// What to do about a distill finding of `code` in Dossier `slug`.
fn distill_fix(code: &str, slug: &str) -> String {
    let what = match code {
        "missing-provenance" => {
            "cite the claim's source ([src:<art-id>] or [src:<art-id>#L<a>-L<b>]; `dossier save --artifact` archives one) or mark it `Assumption:`"
        }
        "decision-without-rationale" => "say why it was decided (because, so that, to avoid …)",
        "decision-without-attribution" => "say who decided (decided by <Name>, approved by <Name>, @handle)",
        "empty-next-steps" => "add at least one next step under `## Next Steps`",
        _ => "correct it",
    };
    format!("{what}, in the next dossier_save of `{slug}` (see docs/distill.md)")
}

/// Every artifact the audit log says was captured must still be in the archive (nothing
/// is ever deleted), with readable metadata.
fn artifact_checks(dir: &Path, events: &[dossier_store::model::AuditEvent]) -> Vec<Check> {
    let mut checks = Vec::new();
    let (listed, problems) = dossier_store::archive::list(dir);
    let present: std::collections::HashSet<&str> = listed.iter().map(|a| a.id.as_str()).collect();
    for id in events.iter().flat_map(|e| e.artifacts_added.iter()) {
        if present.contains(id.as_str()) {
            continue;
        }
        let adir = dir.join("artifacts");
        if ["md", "json", "txt"].iter().any(|ext| adir.join(format!("{id}.{ext}")).exists()) {
            continue; // present, metadata unreadable: reported below as `artifact_unreadable`
        }
        checks.push(
            Check::problem(
                Severity::Error,
                "dossier.archive",
                "artifact_missing",
                format!("artifact {id} was captured (audit.log) but is missing from the archive"),
            )
            .file(adir.join(id))
                .fix("restore it from a backup or version control: Dossier never deletes artifacts, and citations to it no longer resolve"),
        );
    }
    for p in problems {
        checks.push(
            Check::problem(Severity::Error, "dossier.archive", "artifact_unreadable", p)
                .fix("restore the artifact's metadata (frontmatter or .meta.yaml sidecar) from a backup"),
        );
    }
    checks
}

/// Temp files of ours (`tempfile`'s `.tmp??????` names, from atomic writes) older than
/// [`TEMP_GRACE`], in the directories the store writes: root, `context/`, `sessions/`,
/// `.cache/`, each Dossier and its `artifacts/` and `conflicts/`.
fn temp_file_checks(root: &Path, now: SystemTime) -> Vec<Check> {
    let mut dirs = vec![root.to_path_buf(), root.join("context"), root.join("sessions"), root.join(".cache")];
    if let Ok(entries) = std::fs::read_dir(root) {
        for e in entries.flatten() {
            let p = e.path();
            if p.join("dossier.md").is_file() {
                dirs.extend([p.join("artifacts"), p.join("conflicts")]);
                dirs.push(p);
            }
        }
    }
    let mut checks = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            let ours =
                name.len() == 10 && name.starts_with(".tmp") && name[4..].bytes().all(|b| b.is_ascii_alphanumeric());
            let Ok(meta) = e.metadata() else { continue };
            let old =
                meta.modified().ok().and_then(|m| now.duration_since(m).ok()).is_some_and(|age| age >= TEMP_GRACE);
            if ours && meta.is_file() && old {
                checks.push(
                    Check::problem(
                        Severity::Warning,
                        "store.temp",
                        "stale_temp_file",
                        format!("{name} was left by an interrupted write ({} bytes)", meta.len()),
                    )
                    .file(e.path())
                    .repair(Repair::RemoveTempFile(e.path())),
                );
            }
        }
    }
    checks
}

/// What `doctor --fix` did: one line per repair applied, and per repair that failed.
#[derive(Debug, Default, Serialize)]
pub struct Repairs {
    pub applied: Vec<String>,
    pub failed: Vec<String>,
}

/// Apply the safe repairs `report` marked. Idempotent: a second run finds nothing to do.
pub fn repair(report: &Report) -> Result<Repairs> {
    let mut out = Repairs::default();
    let mut todo: Vec<&Repair> = report.checks.iter().filter_map(|c| c.repair.as_ref()).collect();
    todo.dedup();
    if todo.is_empty() {
        return Ok(out);
    }
    let store = Store::locate()?;
    for r in todo {
        let done = match r {
            // The library renders priorities with the config's weights: with a config that
            // does not parse, it is left for the user to fix first.
            Repair::RefreshLibrary => crate::app::open()
                .and_then(|app| context::refresh_library(&app))
                .map(|_| "regenerated context/library.md".to_string())
                .map_err(|e| format!("context/library.md not regenerated: {}", e.message)),
            Repair::InstallGuide => dossier_store::files::write_once(&store.guide_path(), context::GUIDE)
                .map(|_| "installed context/guide.md".to_string())
                .map_err(|e| e.message),
            Repair::RemoveTempFile(p) => std::fs::remove_file(p)
                .map(|_| format!("removed {}", p.display()))
                .map_err(|e| format!("could not remove {}: {e}", p.display())),
        };
        match done {
            Ok(m) => out.applied.push(m),
            Err(m) => out.failed.push(m),
        }
    }
    Ok(out)
}

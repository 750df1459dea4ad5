//! `dossier doctor` (SPEC §7.2, §13.2): read-only checks of the store, its config, the
//! policy components, the context files and each Dossier's frontmatter. Each problem has
//! a code, the file, and a suggested fix (a command when one exists).
//!
//! Not for: repairing anything. Doctor never writes.
//! Baseline today: later issues add sections, provenance, audit-log and harness checks.

use std::path::PathBuf;

use serde::Serialize;

use crate::app::App;
use crate::config::Config;
use crate::context;
use crate::error::Result;
use crate::policy::{CacheOutcome, Interface};
use crate::store::{self, Store};

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
}

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
        match Config::load(&config_path) {
            Ok(c) => {
                checks.push(Check::ok("config", "config.yaml parses"));
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

    let app = App::with(store, config);
    match app.policies() {
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
            .fix("dossier init"),
        ),
    }

    let policy_loads = !checks.iter().any(|c| c.check == "policy.distill" && c.severity == Severity::Error);
    for file in app.store.dossier_files()? {
        let dir = file.parent().map(PathBuf::from).unwrap_or_default();
        if let Err(e) = store::read_frontmatter(&file) {
            checks.push(
                Check::problem(Severity::Error, "dossier.frontmatter", "invalid_frontmatter", e.message)
                    .file(file.clone())
                    .fix(format!("edit the frontmatter of {}", file.display())),
            );
            continue;
        }
        // The audit log is JSON Lines, append-only: a line that does not parse is reported,
        // never rewritten.
        match crate::audit::read(&dir) {
            Ok((_, bad)) => {
                for n in bad {
                    checks.push(
                        Check::problem(
                            Severity::Error,
                            "dossier.audit",
                            "corrupt_audit_line",
                            format!("audit.log line {n} is not a JSON audit event"),
                        )
                        .file(crate::audit::log_path(&dir))
                        .line(n as u32)
                        .fix("leave it (the log is append-only); later events still read; investigate what wrote it"),
                    );
                }
            }
            Err(e) => checks.push(Check::problem(Severity::Error, "dossier.audit", e.code.as_str(), e.message)),
        }
        // Sections and provenance, by the distill policy (docs/distill.md): its errors
        // (unknown artifacts, malformed or out-of-range citations, missing sections) here.
        if policy_loads {
            match crate::distill::findings(&app, &dir) {
                Ok(findings) => {
                    for f in findings.iter().filter(|f| f.severity == crate::policy::Severity::Error) {
                        checks.push(
                            Check::problem(Severity::Warning, "dossier.distill", &f.code, f.message.clone())
                                .file(file.clone())
                                .line(f.line)
                                .fix(format!(
                                    "correct it in the next dossier_save of `{}` (see docs/distill.md)",
                                    dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
                                )),
                        );
                    }
                }
                Err(e) => checks.push(Check::problem(Severity::Error, "dossier.distill", e.code.as_str(), e.message)),
            }
        }
    }

    let library = app.store.library_path();
    let policy_ok = !checks.iter().any(|c| c.check.starts_with("policy") && c.severity == Severity::Error);
    match std::fs::read_to_string(&library) {
        Err(_) => checks.push(
            Check::problem(Severity::Warning, "context.library", "library_missing", "context/library.md is missing")
                .file(library)
                .fix("dossier context refresh"),
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
                .fix("dossier context refresh"),
            ),
            Err(e) => checks.push(Check::problem(Severity::Error, "context.library", e.code.as_str(), e.message)),
        },
        Ok(_) => {}
    }

    // Harness registration (SPEC §6.1): what Claude Code has registered now, and whether
    // the report recorded in config.yaml (which context/library.md repeats) still says so.
    match crate::claude::inspect_current() {
        Some(r) => {
            for w in r.warnings() {
                checks.push(
                    Check::problem(Severity::Warning, "harness.claude_code", "harness_capability_unavailable", w)
                        .fix("dossier init"),
                );
            }
            if r.complete() {
                checks.push(Check::ok("harness.claude_code", "MCP server and hooks registered"));
            }
            let recorded = app.config.harness.as_ref().and_then(|h| h.claude_code.as_ref());
            let live = crate::sessions::Capabilities::current();
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

    Ok(Report { store: app.store.root().to_path_buf(), checks })
}

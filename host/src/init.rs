//! `dossier init`, store part (SPEC §7.2, §13.1): create the store layout, write the
//! default config once, install the Distillation Guide, generate the context library, and
//! warm the policy compile cache. Idempotent: a second run changes nothing, and never
//! touches a file the user edited.
//!
//! Not for: Claude Code registration (MCP server, hooks, the capability report recorded at
//! the end of `config.yaml`), which is `claude_code`; the CLI runs both parts.

use std::fs;

use serde::Serialize;

use crate::policy::{CacheOutcome, Interface};
use crate::progress::{Progress, Unit};
use dossier_store::config::{self, Config, DEFAULT_CONFIG};
use dossier_store::context::{self, GUIDE};
use dossier_store::error::{DossierError, Result};
use dossier_store::files::{self, FileOutcome};

#[derive(Debug, Serialize)]
pub struct InitReport {
    pub store: String,
    /// (path, outcome) for each file and directory init manages.
    pub files: Vec<(String, String)>,
    /// (interface, component, cache outcome).
    pub policies: Vec<(String, String, String)>,
    pub warnings: Vec<String>,
}

/// Make the store, reporting its steps to `progress` (compiling the policy component on a cold
/// cache is the slow one).
pub fn run(progress: &dyn Progress) -> Result<InitReport> {
    progress.start("preparing the store", 0, Unit::Steps);
    let store = dossier_store::layout::Store::locate()?;
    let mut report = InitReport {
        store: store.root().display().to_string(),
        files: Vec::new(),
        policies: Vec::new(),
        warnings: Vec::new(),
    };
    for dir in [store.root().to_path_buf(), store.context_dir(), store.sessions_dir()] {
        let existed = dir.is_dir();
        fs::create_dir_all(&dir).map_err(|e| DossierError::io("create", &dir, e))?;
        let outcome = if existed { "exists" } else { "created" };
        report.files.push((format!("{}/", dir.display()), outcome.to_string()));
    }

    let config_path = store.config_path();
    let outcome = write_config_once(&config_path)?;
    report.files.push((config_path.display().to_string(), outcome.as_str().to_string()));
    // A config the user broke is reported, never replaced.
    let config = Config::load_with_machine(&config_path, &store.machine_config_path())?;

    let guide = store.guide_path();
    let outcome = files::write_once(&guide, GUIDE)?;
    if outcome == FileOutcome::KeptUserEdits {
        report.warnings.push(format!(
            "{} differs from the guide shipped with this version; kept yours (move it aside and re-run init to get the shipped one)",
            guide.display()
        ));
    }
    report.files.push((guide.display().to_string(), outcome.as_str().to_string()));

    let app = crate::app::with(store, config);
    let library = app.store.library_path();
    let outcome = files::write_if_changed(&library, &context::current_library(&app)?)?;
    report.files.push((library.display().to_string(), outcome.as_str().to_string()));

    progress.start("loading the policy components", Interface::ALL.len() as u64, Unit::Steps);
    let policies = crate::app::policies(&app)?;
    for interface in Interface::ALL {
        let r = policies.check(interface)?;
        progress.advance(1);
        let cache = match &r.cache {
            CacheOutcome::Hit => "cache warm".to_string(),
            CacheOutcome::Compiled { stored: true } => "compiled and cached".to_string(),
            CacheOutcome::Compiled { stored: false } => "compiled (cache not writable)".to_string(),
            CacheOutcome::Rebuilt { reason, .. } => format!("cache rebuilt: {reason}"),
            CacheOutcome::Uncached => "compiled (no cache)".to_string(),
        };
        report.policies.push((interface.name().to_string(), r.source.to_string(), cache));
    }
    progress.finish();
    Ok(report)
}

/// `config.yaml` is the user's once written. The machine block `dossier init` keeps at its
/// end (`config::HARNESS_MARKER`) does not count as an edit.
fn write_config_once(path: &std::path::Path) -> Result<FileOutcome> {
    match fs::read(path) {
        Ok(existing) if config::split_harness_block(&String::from_utf8_lossy(&existing)).0 == DEFAULT_CONFIG => {
            Ok(FileOutcome::Unchanged)
        }
        Ok(_) => Ok(FileOutcome::KeptUserEdits),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            files::write_atomic(path, DEFAULT_CONFIG.as_bytes())?;
            Ok(FileOutcome::Created)
        }
        Err(e) => Err(DossierError::io("read", path, e)),
    }
}

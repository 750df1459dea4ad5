//! `dossier init`: create the store, then register with (or, with `--remove`, unregister from)
//! Claude Code, asking on the terminal first; and the report of both.
//!
//! Not for: creating the store (`crate::init`) or reading and editing Claude Code's
//! configuration (`crate::claude_code`).

use serde_json::Value;

use crate::claude_code as claude;
use crate::init;
use crate::progress::{self, Progress};
use dossier_store::context;
use dossier_store::error::Result;
use dossier_store::model;

use super::render::Output;

pub(super) fn cmd_init(yes: bool, remove: bool, no_self_install: bool) -> Result<Output> {
    use std::io::IsTerminal;
    let consent = if yes {
        claude::Consent::Yes
    } else if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        claude::Consent::Ask
    } else {
        claude::Consent::PlanOnly
    };
    let mut human = String::new();
    let mut warnings = Vec::new();
    let mut data = serde_json::Map::new();

    // The store part runs whatever is decided about Claude Code (not for --remove).
    if !remove {
        let report = init::run(progress::for_cli().as_ref())?;
        human.push_str(&format!("Dossier initialized at {}\n\n", report.store));
        for (path, outcome) in &report.files {
            human.push_str(&format!("  {outcome:<22} {path}\n"));
        }
        human.push_str("\nPolicy components:\n");
        for (iface, source, cache) in &report.policies {
            human.push_str(&format!("  {iface:<9} {source} ({cache})\n"));
        }
        human.push('\n');
        warnings.extend(report.warnings.iter().cloned());
        if let Value::Object(m) = serde_json::to_value(&report).expect("report serializes") {
            data.extend(m);
        }
    }

    let Some(paths) = claude::Paths::from_env() else {
        warnings.push("HOME is not set, so Claude Code's configuration was not looked at.".to_string());
        let mut out = Output::new(Value::Object(data), human);
        out.warnings = warnings;
        return Ok(out);
    };
    let exe = claude::running_binary()?;
    let opts = claude::Options { mode_remove: remove, consent, self_install: !no_self_install, exe };
    // Detection, migrating stale entries, backups and the self-install copy. When init asks
    // on the terminal, no bar is drawn over the questions.
    let bar: Box<dyn Progress> =
        if matches!(opts.consent, claude::Consent::Ask) { Box::new(progress::Silent) } else { progress::for_cli() };
    bar.start("registering with Claude Code", 0, progress::Unit::Steps);
    let outcome = claude::run(&paths, &opts, &mut ask_on_terminal);
    bar.finish();

    if let Some(si) = &outcome.self_install {
        let line = match si.outcome.as_str() {
            "installed" | "updated" => {
                format!("Installed dossier to {} (from {}).", si.to.display(), si.from.display())
            }
            "unchanged" => format!("dossier is installed at {} (same build).", si.to.display()),
            "planned" => {
                format!("Would install dossier to {} (from {}, {}).", si.to.display(), si.from.display(), si.reason)
            }
            "declined" => format!("Not installed; registering {} where it is.", si.from.display()),
            _ => format!("Installing to {} failed; registering {} where it is.", si.to.display(), si.from.display()),
        };
        human.push_str(&line);
        human.push('\n');
    }
    let target = if remove { "removal from" } else { "registration with" };
    match outcome.decision {
        claude::Decision::Applied => {
            human.push_str("Updated Claude Code's configuration");
            if !outcome.backups.is_empty() {
                let backups: Vec<String> = outcome.backups.iter().map(|b| b.display().to_string()).collect();
                human.push_str(&format!(" (backups: {})", backups.join(", ")));
            }
            human.push_str(":\n");
            for c in &outcome.changes {
                human.push_str(&format!("  {}: {}\n", c.file.display(), c.describe()));
            }
            if remove {
                human.push_str("The dossier binary and the store were left in place.\n");
            }
        }
        claude::Decision::UpToDate => human.push_str(&format!("Claude Code {target} dossier: nothing to change.\n")),
        claude::Decision::PlanOnly => {
            let apply = if remove { "dossier init --remove --yes" } else { "dossier init --yes" };
            human.push_str(&format!(
                "Planned changes for Claude Code {target} dossier (not applied: no terminal to ask on; run `{apply}` to \
                 apply them):\n{}",
                outcome.plan_text
            ));
        }
        claude::Decision::Declined => human.push_str("Claude Code's configuration was not changed (declined).\n"),
        claude::Decision::Changed => human.push_str("Claude Code's configuration was not changed.\n"),
        claude::Decision::NotDetected => {}
        claude::Decision::PluginInstalled => human.push_str(
            "The dossier plugin provides Claude Code's MCP server and hooks; dossier init registered nothing.\n",
        ),
    }
    human.push_str("\nClaude Code integration:\n");
    for line in &outcome.report {
        human.push_str(line);
        human.push('\n');
    }
    warnings.extend(outcome.warnings.iter().cloned());

    // Record the report in config.yaml's machine block, and refresh the library whose
    // warnings depend on it (only where a store exists: --remove creates none).
    if let Ok(store) = dossier_store::layout::Store::locate()
        && store.config_path().is_file()
    {
        let record = outcome.registration.record(&outcome.detection, model::now_timestamp());
        // A synced store keeps the report in its per-machine file (docs/sync.md).
        let target = if store.is_synced() || store.machine_config_path().is_file() {
            store.machine_config_path()
        } else {
            store.config_path()
        };
        match claude::record(&target, record) {
            Ok((_, Some(w))) => warnings.push(w),
            Ok(_) => {}
            Err(e) => warnings.push(format!("the capability report was not recorded: {}", e.message)),
        }
        if let Ok(app) = crate::app::open()
            && let Err(e) = context::refresh_library(&app)
        {
            warnings.push(format!("context/library.md was not refreshed: {}", e.message));
        }
    }

    let next_actions = outcome.next_actions.clone();
    data.insert("claude_code".to_string(), serde_json::to_value(&outcome).expect("outcome serializes"));
    let mut out = Output::new(Value::Object(data), human);
    out.warnings = warnings;
    out.next_actions = next_actions;
    Ok(out)
}

/// Ask on the terminal (stderr, so `--json` stdout stays one document); yes only for y/yes.
fn ask_on_terminal(question: &str) -> bool {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "{question}");
    let _ = err.flush();
    let mut line = String::new();
    if std::io::stdin().read_line(&mut line).is_err() {
        return false;
    }
    matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes")
}

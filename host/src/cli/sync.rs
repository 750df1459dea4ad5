//! `dossier sync [init <remote> | clone <remote>]`: the store synced through the user's git
//! (docs/sync.md). Prints what came in, what went out and what needs the user; "synced" only
//! when it happened.
//!
//! Not for: the sync itself (`crate::ops::sync`, `dossier_store::sync`).

use dossier_store::error::{Code, DossierError, Result};
use dossier_store::sync::SyncOutcome;

use super::args::SyncCommand;
use super::render::{Output, json_of};

pub(super) fn cmd_sync(background: bool, command: Option<SyncCommand>) -> Result<Output> {
    if background {
        return cmd_background(command.is_some());
    }
    match command {
        Some(SyncCommand::Init { remote, allow_secrets, join }) => {
            // The secret scan calls the redaction policy once per stored file (thousands):
            // pooled instances keep its memory resident between calls instead of mapping
            // and faulting it in for each (as the MCP server does).
            crate::policy::use_pooled_instances();
            let app = crate::app::open()?;
            let o = crate::ops::sync::init(&app, &remote, allow_secrets, join)?;
            Ok(Output::of(o, json_of, |r| {
                let mut text = format!(
                    "synced: {} Dossier(s) pushed to {} ({}, {})\n",
                    r.dossiers,
                    r.remote,
                    r.branch,
                    short(&r.head)
                );
                if r.adopted {
                    text.push_str("the store was a git repository already: kept its history and branch\n");
                }
                if r.machine_config_moved {
                    text.push_str("this machine's part of config.yaml moved to config.machine.yaml (not synced)\n");
                }
                if let Some(j) = &r.joined {
                    text.push_str("joined the store the remote already held:\n");
                    for line in human(j).lines().skip(1) {
                        text.push_str(line);
                        text.push('\n');
                    }
                }
                text
            }))
        }
        Some(SyncCommand::Clone { remote }) => {
            let store = dossier_store::Store::locate()?;
            let o = crate::ops::sync::clone(&store, &remote)?;
            Ok(Output::of(o, json_of, |r| {
                format!(
                    "cloned {} Dossier(s) from {} into {} ({}, {})\n",
                    r.dossiers,
                    r.remote,
                    r.root.display(),
                    r.branch,
                    short(&r.head)
                )
            }))
        }
        None => {
            let app = crate::app::open()?;
            crate::ops::sync::arm_time_limit(&app.store);
            let o = crate::ops::sync::sync(&app)?;
            Ok(Output::of(o, json_of, human))
        }
    }
}

/// `dossier sync --background`: start it detached (as the `sync.auto` hooks do) and say so.
fn cmd_background(with_subcommand: bool) -> Result<Output> {
    if with_subcommand {
        return Err(DossierError::new(
            Code::InvalidInput,
            "--background runs `dossier sync` itself, not `sync init` or `sync clone`",
        )
        .with_details(serde_json::json!({ "field": "--background", "expected": "`dossier sync --background` alone" }))
        .with_next("dossier sync --background"));
    }
    let app = crate::app::open()?;
    dossier_store::sync::git::check_version()?;
    if !app.store.is_synced() {
        // The same refusal a foreground sync gives (exit 7, with the way to set it up).
        crate::ops::sync::sync(&app)?;
    }
    let started = crate::ops::sync::start_background(&app, None)?;
    let log = crate::ops::sync::background_log(&app.store);
    let (json, text) = match started {
        crate::ops::sync::Background::Started(pid) => (
            serde_json::json!({ "started": true, "pid": pid, "log": log }),
            format!(
                "a background `dossier sync` started (pid {pid}); output: {}; result: `dossier doctor`\n",
                log.display()
            ),
        ),
        _ => (
            serde_json::json!({ "started": false, "running": true, "log": log }),
            "a `dossier sync` is already running; none started\n".to_string(),
        ),
    };
    Ok(Output::new(json, text))
}

fn short(oid: &str) -> &str {
    &oid[..oid.len().min(10)]
}

fn list(names: &[String]) -> String {
    if names.is_empty() { "nothing".to_string() } else { names.join(", ") }
}

fn human(r: &SyncOutcome) -> String {
    let mut text = format!("synced with {} ({}, {})\n", r.remote, r.branch, short(&r.head));
    text.push_str(&format!("  in:  {}\n", list(&r.came_in)));
    text.push_str(&format!("  out: {}\n", list(&r.went_out)));
    let m = &r.merge;
    if m.conflicts.is_empty() && m.clashes.is_empty() && r.incoming_conflicts.is_empty() {
        text.push_str("  needs you: nothing\n");
    } else {
        text.push_str("  needs you:\n");
        for c in &m.conflicts {
            text.push_str(&format!(
                "    {} in {}: the Distilled State diverged; `dossier conflicts resolve {} --keep current|proposal`\n",
                c.conflict_id, c.slug, c.conflict_id
            ));
        }
        for c in &r.incoming_conflicts {
            text.push_str(&format!(
                "    {} in {}: came in from another machine ({}); `dossier conflicts resolve {} --keep current|proposal`\n",
                c.id, c.slug, c.summary, c.id
            ));
        }
        for c in &m.clashes {
            text.push_str(&format!("    {} differed on two machines; the other version is {}\n", c.path, c.other));
        }
    }
    for s in &m.auto_merged {
        text.push_str(&format!("  auto-merged: {s} (fields changed on different machines)\n"));
    }
    for x in &m.renamed {
        text.push_str(&format!("  renamed: {} is now {} (same slug created on two machines)\n", x.from, x.to));
    }
    text
}

//! The Claude Code step of `dossier init` (SPEC §7.2, §13.1): detect Claude Code, offer to
//! install a volatile binary somewhere stable, plan the registration (or `--remove`), ask per
//! the consent given, apply, install the `/codecall` user command, and report what is
//! registered; and record that report in `config.yaml`'s machine block ([`record`]).
//!
//! Invariants: [`run`] never fails (anything that goes wrong is a warning); what was approved
//! is planned again from the files as they are now, and written only if unchanged; nothing is
//! registered when the dossier plugin already serves this user (every hook would run twice);
//! a `/codecall` file that is not byte-for-byte ours is never touched.
//!
//! Not for: the store part of `dossier init` (`crate::init`), editing the settings files
//! (`register`), or talking to the terminal (the CLI passes an `ask` function in).

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::claude_code::detect::{Detection, detect};
use crate::claude_code::entries::CODECALL_COMMAND;
use crate::claude_code::inspect::{Registration, inspect};
use crate::claude_code::install::{on_path, self_install, volatile_reason};
use crate::claude_code::jsonc::FileProblem;
use crate::claude_code::paths::{INSTALL_DIR, Paths};
use crate::claude_code::plugin;
use crate::claude_code::register::{Applied, Change, Mode, Plan, apply, backup_stamp, plan};
use dossier_store::config::{self, ClaudeCodeRecord, HarnessConfig};
use dossier_store::error::{DossierError, Result};
use dossier_store::files::{self, FileOutcome};

/// How init may change things.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consent {
    /// `--yes`: change without asking.
    Yes,
    /// A terminal: show the plan and ask.
    Ask,
    /// Neither: print the plan, change nothing.
    PlanOnly,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub mode_remove: bool,
    pub consent: Consent,
    /// Offer to install a volatile binary to ~/.local/bin first (`--no-self-install` turns it off).
    pub self_install: bool,
    /// The running binary.
    pub exe: PathBuf,
}

/// How the registration step ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Changes were written.
    Applied,
    /// Nothing to change.
    UpToDate,
    /// The user said no.
    Declined,
    /// No terminal and no `--yes`: the plan was printed, nothing changed.
    PlanOnly,
    /// Claude Code is not installed; nothing registered.
    NotDetected,
    /// The dossier plugin is installed and enabled for this user; nothing registered (it
    /// would run every hook twice).
    PluginInstalled,
    /// The files changed while the user was deciding; nothing written.
    Changed,
}

#[derive(Clone, Debug, Serialize)]
pub struct SelfInstall {
    pub from: PathBuf,
    pub to: PathBuf,
    /// Why `from` is volatile.
    pub reason: String,
    /// `installed`, `updated`, `unchanged`, `planned`, `declined` or `failed`.
    pub outcome: String,
    /// Whether `to`'s directory is on PATH.
    pub on_path: bool,
}

/// Everything the registration step did, for the CLI to print (and `--json`).
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// `register` or `remove`.
    pub mode: &'static str,
    pub detection: Detection,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub self_install: Option<SelfInstall>,
    /// The binary the registration runs (register mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary: Option<PathBuf>,
    /// The changes planned from the files as they were.
    pub plan: Vec<Change>,
    /// The plan as printed.
    #[serde(skip)]
    pub plan_text: String,
    pub decision: Decision,
    /// The changes written.
    pub changes: Vec<Change>,
    pub backups: Vec<PathBuf>,
    /// What is registered now.
    pub registration: Registration,
    /// The `/codecall` user command (`~/.claude/commands/codecall.md`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<CommandInstall>,
    /// The SPEC §13.1 lines.
    pub report: Vec<String>,
    pub warnings: Vec<String>,
    pub next_actions: Vec<String>,
}

/// Detect, (self-install,) plan, ask per `opts.consent`, apply, and report. Never fails:
/// anything that goes wrong is a warning (SPEC §7.2). `ask` shows a question and returns
/// the answer (only called with [`Consent::Ask`]).
pub fn run(paths: &Paths, opts: &Options, ask: &mut dyn FnMut(&str) -> bool) -> Outcome {
    let detection = detect(paths);
    let mut warnings = Vec::new();
    let mut next_actions = Vec::new();
    let mut self_install = None;
    let register = !opts.mode_remove;
    let mut binary = fs::canonicalize(&opts.exe).unwrap_or_else(|_| opts.exe.clone());

    // The plugin, installed and enabled for this user, already provides everything.
    let plugin =
        if register { plugin::installs(paths).into_iter().find(plugin::Install::serves_everywhere) } else { None };
    if let Some(p) = &plugin {
        warnings.push(format!(
            "The dossier plugin {} is installed and enabled for this user, so dossier init registered nothing with \
             Claude Code (both would run every hook twice). To use dossier init's registration instead: `claude \
             plugin uninstall {}`, then `dossier init`.",
            p.id, p.id
        ));
    }
    let skip = register && (!detection.detected || plugin.is_some());
    if register && !detection.detected {
        warnings.push(
            "Claude Code was not found (no ~/.claude, no ~/.claude.json, no `claude` on PATH), so nothing was registered. \
             Install Claude Code, then run `dossier init` again."
                .to_string(),
        );
    }

    if register
        && !skip
        && let Some(reason) = volatile_reason(&binary)
    {
        if opts.self_install {
            let to = paths.install_target();
            let question = format!(
                "dossier is running from {} ({reason}), which may disappear.\nInstall it to {} and register that path? \
                 [y/N] ",
                binary.display(),
                to.display()
            );
            let outcome = match opts.consent {
                Consent::PlanOnly => "planned".to_string(),
                Consent::Yes => install(&binary, &to, &mut warnings),
                Consent::Ask if ask(&question) => install(&binary, &to, &mut warnings),
                Consent::Ask => "declined".to_string(),
            };
            let on_path = to.parent().is_some_and(on_path);
            if matches!(outcome.as_str(), "installed" | "updated" | "unchanged" | "planned") {
                if !on_path {
                    warnings.push(format!(
                        "{} is not on your PATH: add it (e.g. `export PATH=\"$HOME/{INSTALL_DIR}:$PATH\"`) to run \
                         `dossier` by name. Claude Code runs it by its full path either way.",
                        to.parent().unwrap_or(&to).display()
                    ));
                }
                binary = to.clone();
            } else {
                warnings.push(format!(
                    "Registering {} ({reason}): Claude Code's MCP server and hooks break when it disappears. \
                     Install dossier somewhere stable and run `dossier init` from there.",
                    binary.display()
                ));
            }
            self_install = Some(SelfInstall { from: opts.exe.clone(), to, reason, outcome, on_path });
        } else {
            warnings.push(format!(
                "Registering {} ({reason}) as is (--no-self-install): Claude Code's MCP server and hooks break when it \
                 disappears.",
                binary.display()
            ));
        }
    }

    let mode = if register { Mode::Register { binary: binary.clone() } } else { Mode::Remove };
    let planned = if skip { Plan::default() } else { plan(paths, &mode) };
    warnings.extend(planned.warnings.iter().cloned());
    let plan_changes = planned.changes();
    let plan_text = planned.render();

    let mut applied = Applied::default();
    let decision = if plugin.is_some() {
        Decision::PluginInstalled
    } else if skip {
        Decision::NotDetected
    } else if planned.is_empty() {
        Decision::UpToDate
    } else {
        match opts.consent {
            Consent::PlanOnly => {
                next_actions
                    .push(if register { "dossier init --yes" } else { "dossier init --remove --yes" }.to_string());
                Decision::PlanOnly
            }
            Consent::Yes => {
                applied = apply(&planned, &backup_stamp());
                Decision::Applied
            }
            Consent::Ask => {
                let verb = if register { "Register dossier with" } else { "Remove dossier from" };
                let question = format!(
                    "{verb} Claude Code by making these changes (a backup of each file comes first)?\n{plan_text}Apply? [y/N] "
                );
                if !ask(&question) {
                    Decision::Declined
                } else {
                    // Claude Code rewrites ~/.claude.json often: plan again from the files as
                    // they are now, and write only if that is still what was approved.
                    let fresh = plan(paths, &mode);
                    if fresh.changes() == plan_changes {
                        applied = apply(&fresh, &backup_stamp());
                        Decision::Applied
                    } else {
                        warnings.push(
                            "The Claude Code config files changed while you were deciding; nothing was written. Run \
                             `dossier init` again."
                                .to_string(),
                        );
                        Decision::Changed
                    }
                }
            }
        }
    };
    warnings.append(&mut applied.failures);

    if let Ok(store_home) = std::env::var("DOSSIER_HOME")
        && !store_home.is_empty()
        && register
        && !skip
        && Path::new(&store_home) != paths.home.join(".dossier")
    {
        warnings.push(format!(
            "DOSSIER_HOME is {store_home}, but Claude Code starts `dossier mcp` and the hooks without it, so they use {}. \
             Add DOSSIER_HOME to mcpServers.dossier.env and the hook commands, or use the default location.",
            paths.home.join(".dossier").display()
        ));
    }

    let command = match decision {
        Decision::Applied | Decision::UpToDate => Some(codecall_command(paths, register, &mut warnings)),
        Decision::PlanOnly if register => Some(CommandInstall { path: paths.codecall_command(), outcome: "planned" }),
        _ => None,
    };
    let registration = inspect(paths);
    let mut report = registration.report_lines(Some(&detection));
    if let Some(c) = &command {
        report.push(format!("/codecall command: {} ({})", c.outcome, c.path.display()));
    }
    // Files the plan could not edit (a section of the wrong shape) that still parse.
    for p in planned.problems.iter().filter(|p| !registration.problems.iter().any(|q| q.file == p.file)) {
        warnings.push(p.warning());
    }
    if register {
        warnings.extend(registration.warnings());
        if plugin.is_some() && registration.init_registered() {
            next_actions.push("dossier init --remove --yes".to_string());
        }
    } else {
        // After a removal, what is missing is what was asked for; only file problems matter.
        warnings.extend(registration.problems.iter().map(FileProblem::warning));
    }
    Outcome {
        mode: if register { "register" } else { "remove" },
        detection,
        self_install,
        binary: register.then_some(binary),
        plan: plan_changes,
        plan_text,
        decision,
        changes: applied.changes,
        backups: applied.backups,
        registration,
        command,
        report,
        warnings,
        next_actions,
    }
}

/// What init did with the `/codecall` user command.
#[derive(Clone, Debug, Serialize)]
pub struct CommandInstall {
    pub path: PathBuf,
    /// `installed`, `present` (ours, unchanged), `kept` (someone else's file: never
    /// overwritten), `removed` (ours, on `--remove`), `absent`, `planned` or `failed`.
    pub outcome: &'static str,
}

/// Install (or, on `--remove`, remove) `~/.claude/commands/codecall.md`. A file of that name
/// that is not byte-for-byte ours is never touched: it is the user's.
fn codecall_command(paths: &Paths, register: bool, warnings: &mut Vec<String>) -> CommandInstall {
    let path = paths.codecall_command();
    let ours = CODECALL_COMMAND.as_bytes();
    let outcome = match (fs::read(&path), register) {
        (Ok(bytes), true) if bytes == ours => "present",
        (Ok(bytes), false) if bytes == ours => match fs::remove_file(&path) {
            Ok(()) => {
                // The directory too if that left it empty (init created it; an empty
                // directory holds nothing of anyone's).
                if let Some(dir) = path.parent() {
                    let _ = fs::remove_dir(dir);
                }
                "removed"
            }
            Err(e) => {
                warnings.push(format!("could not remove {}: {e}", path.display()));
                "failed"
            }
        },
        (Ok(_), _) => {
            if register {
                warnings.push(format!(
                    "{} exists and is not dossier's, so it was left alone: `/codecall` runs your file. dossier's                      is also available as the MCP prompt /mcp__dossier__codecall.",
                    path.display()
                ));
            }
            "kept"
        }
        (Err(_), false) => "absent",
        (Err(_), true) => {
            let written = path
                .parent()
                .map_or(Ok(()), |d| fs::create_dir_all(d).map_err(|e| DossierError::io("create", d, e)))
                .and_then(|()| files::write_atomic(&path, ours));
            match written {
                Ok(()) => "installed",
                Err(e) => {
                    warnings.push(format!(
                        "could not install the /codecall command at {}: {}",
                        path.display(),
                        e.message
                    ));
                    "failed"
                }
            }
        }
    };
    CommandInstall { path, outcome }
}

fn install(exe: &Path, to: &Path, warnings: &mut Vec<String>) -> String {
    match self_install(exe, to) {
        Ok(FileOutcome::Unchanged) => "unchanged".to_string(),
        Ok(FileOutcome::Updated) => "updated".to_string(),
        Ok(_) => "installed".to_string(),
        Err(e) => {
            warnings.push(format!("could not install dossier to {}: {}", to.display(), e.message));
            "failed".to_string()
        }
    }
}

/// Record the capability report in `config.yaml`'s machine block (the user's part above it
/// is never touched). Unchanged when the recorded state is the same (whenever it was
/// checked); skipped with a warning when the user's part has its own `harness:` key.
pub fn record(config_path: &Path, record: ClaudeCodeRecord) -> Result<(FileOutcome, Option<String>)> {
    let text = match fs::read_to_string(config_path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(DossierError::io("read", config_path, e)),
    };
    let (user, block) = config::split_harness_block(&text);
    if block.is_none() && config::user_defines_harness(user) {
        return Ok((
            FileOutcome::KeptUserEdits,
            Some(format!(
                "{} has its own `harness:` key, so the Claude Code capability report was not recorded there",
                config_path.display()
            )),
        ));
    }
    let existing = config::Config::parse(&text, config_path).ok().and_then(|c| c.harness).and_then(|h| h.claude_code);
    if block.is_some() && existing.as_ref().is_some_and(|e| e.same_state(&record)) {
        return Ok((FileOutcome::Unchanged, None));
    }
    let new = config::with_harness_block(&text, &HarnessConfig { claude_code: Some(record) });
    if let Err(e) = config::Config::parse(&new, config_path) {
        return Ok((
            FileOutcome::Unchanged,
            Some(format!("the capability report was not recorded in {}: {}", config_path.display(), e.message)),
        ));
    }
    files::write_if_changed(config_path, &new).map(|o| (o, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claude_code::inspect::Capability;

    #[test]
    fn asking_shows_the_plan_and_a_no_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::new(dir.path());
        std::fs::create_dir_all(paths.claude_dir()).unwrap();
        std::fs::write(&paths.claude_json, "{\n  \"theme\": \"dark\"\n}\n").unwrap();
        // A binary named dossier (never run here); in the temp dir, so self-install is off.
        let exe = dir.path().join("bin").join("dossier");
        std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
        }
        let opts = Options { mode_remove: false, consent: Consent::Ask, self_install: false, exe: exe.clone() };
        let mut questions = Vec::new();
        let out = run(&paths, &opts, &mut |q| {
            questions.push(q.to_string());
            false
        });
        assert_eq!(out.decision, Decision::Declined);
        assert_eq!(questions.len(), 1);
        assert!(questions[0].contains("+ mcpServers.dossier = ") && questions[0].contains("hook session-start"));
        assert_eq!(std::fs::read_to_string(&paths.claude_json).unwrap(), "{\n  \"theme\": \"dark\"\n}\n");
        assert!(!paths.settings_json.exists());

        let out = run(&paths, &opts, &mut |_| true);
        assert_eq!(out.decision, Decision::Applied);
        assert_eq!(out.backups.len(), 1);
        let r = inspect(&paths);
        assert!(r.complete() && r.transcript_capture && r.warnings().is_empty(), "{r:?}");
        let canonical = std::fs::canonicalize(&exe).unwrap();
        assert_eq!(r.mcp, Capability::Available { command: canonical.display().to_string() });
    }
}

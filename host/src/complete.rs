//! Shell completions and the man page.
//!
//! Completions are clap_complete's dynamic engine (`CompleteEnv`): the script that
//! `dossier completions <shell>` prints only registers a function that calls the binary
//! back (`DOSSIER_COMPLETE=<shell> dossier -- <words>`) at each TAB, so subcommands and flags always
//! match the installed binary, and arguments that name a Dossier are completed with the
//! slugs in the store. Slugs are read the way `dossier ls` reads the store
//! ([`dossier_store::listing::names`]: the same discovery and frontmatter cache, no policy, no
//! body), so a TAB costs one `stat` per Dossier. A missing or broken store offers no slugs;
//! completion never prints an error into the shell (every failure is an empty list).
//!
//! Not for: parsing or running commands (`cli`), or anything that writes.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use clap_complete::engine::{ArgValueCompleter, CompletionCandidate};
use clap_complete::env::{EnvCompleter, Shells};

use dossier_store::error::{Code, DossierError, Result};

/// The environment variable that switches the binary into completion mode. Ours, not
/// clap_complete's generic `COMPLETE`, so no variable meant for another program can turn a
/// hook or `dossier mcp` into a completion answer.
pub const VAR: &str = "DOSSIER_COMPLETE";

/// Shells `dossier completions` prints a script for.
pub const SHELLS: [&str; 5] = ["bash", "zsh", "fish", "elvish", "powershell"];

/// Answer a completion request when `DOSSIER_COMPLETE` is set (then the process must exit with the
/// returned code); `None` for a normal run. Errors become an empty answer (exit 1, nothing on
/// stderr): a shell shows no candidates rather than a message in the middle of a line.
pub fn answer_if_requested(factory: fn() -> clap::Command) -> Option<std::process::ExitCode> {
    let var = std::env::var_os(VAR)?;
    if var.is_empty() || var == "0" {
        return None;
    }
    let args: Vec<OsString> = std::env::args_os().collect();
    let current_dir = std::env::current_dir().ok();
    match clap_complete::CompleteEnv::with_factory(factory).var(VAR).try_complete(args, current_dir.as_deref()) {
        Ok(true) => Some(std::process::ExitCode::SUCCESS),
        Ok(false) => None,
        Err(_) => Some(std::process::ExitCode::FAILURE),
    }
}

/// The registration script for `shell`: it calls `completer` (this binary) at each TAB.
pub fn script(shell: &str, completer: &str) -> Result<String> {
    let builtins = Shells::builtins();
    let sh: &dyn EnvCompleter = builtins.completer(shell).ok_or_else(|| {
        DossierError::new(Code::InvalidInput, format!("no completions for the shell `{shell}`"))
            .with_details(serde_json::json!({ "parameter": "shell", "expected": SHELLS, "did_you_mean": null }))
            .with_next(format!("dossier completions <{}>", SHELLS.join("|")))
    })?;
    let mut buf = Vec::new();
    sh.write_registration(VAR, "dossier", "dossier", completer, &mut buf)
        .map_err(|e| DossierError::new(Code::Io, format!("could not write the {shell} script: {e}")))?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// The binary the script should call: how this process was started, made absolute when it
/// was started by a relative path with a directory (`./target/debug/dossier`); a bare name
/// is looked up on `PATH` by the shell, as when the user types it.
pub fn completer_path() -> String {
    let argv0 = std::env::args_os().next().map(PathBuf::from).unwrap_or_else(|| PathBuf::from("dossier"));
    let path = if argv0.components().count() > 1 && argv0.is_relative() {
        std::env::current_dir().map(|d| d.join(&argv0)).unwrap_or(argv0)
    } else {
        argv0
    };
    path.to_string_lossy().into_owned()
}

/// Completes a Dossier slug (or an id, when the word starts with `dos_`).
pub fn dossier_slugs() -> ArgValueCompleter {
    ArgValueCompleter::new(complete_dossier)
}

/// Completes the id of a conflict file (open ones first).
pub fn conflict_ids() -> ArgValueCompleter {
    ArgValueCompleter::new(complete_conflict)
}

/// Completes a Claude Code session id that has a binding in the store.
pub fn session_ids() -> ArgValueCompleter {
    ArgValueCompleter::new(complete_session)
}

/// Completes a codecall learning session id from the store's default logs.
pub fn learning_session_ids() -> ArgValueCompleter {
    ArgValueCompleter::new(complete_learning_session)
}

fn store() -> Option<dossier_store::layout::Store> {
    dossier_store::layout::Store::locate().ok().filter(|s| s.exists())
}

fn complete_dossier(current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(current) = current.to_str() else { return Vec::new() };
    let Some(store) = store() else { return Vec::new() };
    let by_id = current.starts_with("dos_");
    let mut names = dossier_store::listing::names(&store);
    // Open work first, then resolved and archived; each alphabetical (listing order).
    names.sort_by_key(|n| !dossier_store::model::Status::OPEN.contains(&n.status));
    names
        .into_iter()
        .filter_map(|n| {
            let value = if by_id { n.id } else { n.slug };
            value.starts_with(current).then(|| {
                CompletionCandidate::new(value).help(Some(format!("{} ({})", n.name, n.status.as_str()).into()))
            })
        })
        .collect()
}

fn complete_conflict(current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(current) = current.to_str() else { return Vec::new() };
    let Some(store) = store() else { return Vec::new() };
    let Ok(files) = store.dossier_files() else { return Vec::new() };
    let mut found: Vec<(bool, CompletionCandidate)> = Vec::new();
    for file in files {
        let Some(dir) = file.parent() else { continue };
        for path in dossier_store::merge::conflict_files(dir) {
            let Some(c) = dossier_store::conflicts::read(&path) else { continue };
            if c.id.starts_with(current) {
                let help = format!("{} {}: {}", c.slug, if c.resolved { "resolved" } else { "open" }, c.summary);
                found.push((c.resolved, CompletionCandidate::new(c.id).help(Some(help.into()))));
            }
        }
    }
    found.sort_by_key(|(resolved, _)| *resolved);
    found.into_iter().map(|(_, c)| c).collect()
}

/// File stems in `dir` with `ext`, starting with `current`, sorted.
fn stems(dir: &Path, ext: &str, current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(current) = current.to_str() else { return Vec::new() };
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(ext).filter(|s| !s.starts_with('.') && s.starts_with(current)).map(str::to_string)
        })
        .collect();
    out.sort();
    out.into_iter().map(CompletionCandidate::new).collect()
}

fn complete_session(current: &OsStr) -> Vec<CompletionCandidate> {
    store().map(|s| stems(&s.sessions_dir(), ".json", current)).unwrap_or_default()
}

fn complete_learning_session(current: &OsStr) -> Vec<CompletionCandidate> {
    store().map(|s| stems(&s.learning_dir(), ".jsonl", current)).unwrap_or_default()
}

/// Every (sub)command's man page: `dossier.1`, `dossier-<sub>.1`, `dossier-<sub>-<sub>.1`…,
/// as (file name, roff text), in command-tree order.
pub fn man_pages(cmd: clap::Command) -> Result<Vec<(String, Vec<u8>)>> {
    fn walk(cmd: clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
        let man = clap_mangen::Man::new(cmd.clone()).manual("Dossier Manual");
        let mut buf = Vec::new();
        man.render(&mut buf)?;
        out.push((man.get_filename(), buf));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
            walk(sub, out)?;
        }
        Ok(())
    }
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    let mut out = Vec::new();
    walk(cmd, &mut out).map_err(|e| DossierError::new(Code::Io, format!("could not render the man page: {e}")))?;
    Ok(out)
}

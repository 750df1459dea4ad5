//! The command-line interface (SPEC §7): argument parsing (clap derive, `args`), dispatch to
//! one module per command group, and output — a readable text for people, the MCP envelope
//! (`ok`, `data`/`error`, `warnings`, `next_actions`) for `--json`.
//!
//! Modules: `args` (the grammar), `render` (the [`render::Output`] every command returns and
//! the shared renderings), then one per command group: `init`, `list` (ls, path), `read`
//! (show, recall, search), `promote` (promote, link), `edit` (status, lead, next, questions,
//! priority, archive, save), `session` (active, switch), `merge`, `conflicts`, `context`,
//! `doctor`, `plugin`, `codecall`, `man` (man, completions), `serve` (tui, mcp), `sync`. Command
//! modules use `args` and `render`, never this module or each other (except the shared
//! capture helpers of `edit` and the plugin's stand-down rule).
//!
//! Not for: behaviour. Each command calls the one operation that MCP and hooks also use.

mod args;
mod codecall;
mod conflicts;
mod context;
mod doctor;
mod edit;
mod init;
mod list;
mod man;
mod merge;
mod plugin;
mod promote;
mod read;
mod redact;
mod render;
mod serve;
mod session;
mod sync;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use serde_json::json;

use crate::complete;
use crate::hooks;
use crate::progress;
use dossier_store::error::Result;

pub use args::{
    Cli, CodecallCommand, Command, ConflictsCommand, ContextCommand, KeepArg, LevelArg, LogArg, PluginCommand,
    QuestionsOp, StatusArg, StatusFilter, SyncCommand,
};
use render::Output;

pub fn run() -> ExitCode {
    // A shell asking for completions (`DOSSIER_COMPLETE=<shell> dossier -- <words>`): answer and stop.
    if let Some(code) = complete::answer_if_requested(Cli::command) {
        return code;
    }
    let cli = Cli::parse();
    let json = cli.json;
    progress::set_quiet(cli.quiet);
    // Hooks speak Claude Code's protocol, not the envelope, and always exit 0.
    if let Command::Hook { event } = &cli.command {
        emit(&hooks::run(event, std::io::stdin().lock()).render());
        return ExitCode::SUCCESS;
    }
    match dispatch(cli.command, json) {
        Ok(out) => {
            if json {
                let envelope = json!({
                    "ok": out.exit == 0,
                    "data": out.data,
                    "warnings": out.warnings,
                    "next_actions": out.next_actions,
                });
                emit(&format!("{}\n", serde_json::to_string_pretty(&envelope).expect("JSON values serialize")));
            } else {
                emit(&out.human);
                if !progress::quiet() {
                    for w in &out.warnings {
                        eprintln!("warning: {w}");
                    }
                }
            }
            ExitCode::from(out.exit)
        }
        Err(e) => {
            if json {
                let envelope = json!({
                    "ok": false,
                    "error": e,
                    "warnings": [],
                    "next_actions": e.next_actions(crate::ops::Surface::Cli),
                });
                emit(&format!("{}\n", serde_json::to_string_pretty(&envelope).expect("JSON values serialize")));
            } else {
                eprintln!("error[{}]: {}", e.code.as_str(), e.message);
                for n in &e.next_actions(crate::ops::Surface::Cli) {
                    eprintln!("  next: {n}");
                }
            }
            ExitCode::from(e.code.exit_code())
        }
    }
}

/// Write to stdout; a closed pipe (`dossier ls | head`) ends output quietly.
fn emit(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error[io_error]: could not write output: {e}");
    }
}

fn dispatch(command: Command, json: bool) -> Result<Output> {
    match command {
        Command::Init { yes, remove, no_self_install } => init::cmd_init(yes, remove, no_self_install),
        Command::Ls { status } => list::cmd_ls(&status),
        Command::Path { target } => list::cmd_path(target.as_deref()),
        Command::Context { command: ContextCommand::Refresh } => context::cmd_context_refresh(),
        Command::Doctor { fix } => doctor::cmd_doctor(fix),
        Command::Show { target } => read::cmd_show(&target),
        Command::Promote { name, from_file, create } => promote::cmd_promote(name, from_file, create),
        Command::Link { target, from_file } => promote::cmd_link(target.as_deref(), from_file),
        Command::Status { target, status } => edit::cmd_status(&target, status),
        Command::Lead { target, lead } => edit::cmd_lead(&target, lead),
        Command::Next { target, action } => edit::cmd_next(&target, action),
        Command::Questions { target, op, questions } => edit::cmd_questions(&target, op, questions),
        Command::Priority { target, importance, urgency, due } => edit::cmd_priority(&target, importance, urgency, due),
        Command::Archive { target } => edit::cmd_archive(&target),
        Command::Redact { target, all: _ } => redact::cmd_redact(target.as_deref()),
        Command::Save { target, base_revision, from_file, next, status, artifact, artifact_type } => {
            edit::cmd_save(&target, base_revision, from_file, next, status, &artifact, artifact_type.into())
        }
        Command::Recall { target, page } => read::cmd_recall(&target, page),
        Command::Search { query, dossier, literal, regex, limit, offset } => {
            if literal || regex {
                read::cmd_search(&query, dossier.as_deref(), regex, limit.unwrap_or(50))
            } else {
                read::cmd_ranked(&query, dossier.as_deref(), limit.unwrap_or(10), offset)
            }
        }
        Command::Merge { source, target, resolve, resolutions, keep_both_possible } => {
            merge::cmd_merge(&source, &target, &resolve, resolutions.as_deref(), keep_both_possible, json)
        }
        Command::Conflicts { command } => conflicts::cmd_conflicts(command),
        Command::Sync { background, command } => sync::cmd_sync(background, command),
        Command::Active { session } => session::cmd_active(session.as_deref()),
        Command::Switch { target, session } => session::cmd_switch(&target, session.as_deref()),
        Command::Tui { session } => serve::cmd_tui(session.as_deref(), json),
        Command::Mcp => serve::cmd_mcp(),
        Command::Hook { .. } => unreachable!("handled before dispatch"),
        Command::Codecall { command } => codecall::cmd_codecall(command),
        Command::Plugin { command: PluginCommand::Export { dir, binary } } => plugin::cmd_plugin_export(&dir, binary),
        Command::Completions { shell } => man::cmd_completions(shell),
        Command::Man { out_dir } => man::cmd_man(out_dir.as_deref()),
    }
}

//! The command-line interface (SPEC §7): argument parsing (clap derive), dispatch to the
//! operation modules, and rendering — a readable table for people, the MCP envelope
//! (`ok`, `data`/`error`, `warnings`, `next_actions`) for `--json`.
//!
//! Not for: behaviour. Each command calls the one operation that MCP and hooks also use.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};

use crate::app::App;
use crate::archive;
use crate::claude_code as claude;
use crate::complete;
use crate::context;
use crate::doctor::{self, Severity};
use crate::error::{Code, DossierError, Result};
use crate::hooks;
use crate::init;
use crate::listing::{self, Listing};
use crate::model::{self, ArtifactType, ContentFormat, Level, Provenance, Status};
use crate::progress::{self, Progress};
use crate::save::{self, ArtifactContent, CreateRequest, FrontmatterUpdates, NewArtifact, SaveOutcome, SaveRequest};
use crate::term;

#[derive(Debug, Parser)]
#[command(
    name = "dossier",
    version,
    about = "Durable, provenance-carrying memory for long-running agent work.",
    long_about = "Durable, provenance-carrying memory for long-running agent work.\n\n\
                  The store lives in $DOSSIER_HOME, else ~/.dossier. Every read command takes --json.",
    after_help = "Exit codes: 0 ok, 1 failed check, 2 usage, 3 not_found, 4 conflict/ambiguity, 5 invalid input, \
                  6 policy_unavailable, 7 store_unavailable, 8 capability/target warning, 9 codecall session refuses \
                  the request now, 65 corrupt codecall log, 74 I/O."
)]
pub struct Cli {
    /// Print the result as JSON (the MCP envelope: ok, data or error, warnings, next_actions).
    #[arg(long, global = true)]
    pub json: bool,
    /// No progress bars and no warning notes on stderr (errors are still printed; --json keeps
    /// its warnings).
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatusFilter {
    Active,
    Waiting,
    Blocked,
    Resolved,
    Archived,
    All,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LevelArg {
    #[value(alias = "h")]
    High,
    #[value(alias = "l")]
    Low,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum QuestionsOp {
    Add,
    Set,
    Clear,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create the store, default config, Distillation Guide and context library, and register
    /// the MCP server and hooks with Claude Code (asks first on a terminal; idempotent).
    Init {
        /// Answer yes to every question (for scripts): self-install and register without asking.
        /// Without a terminal and without --yes, init prints the planned changes and makes none.
        #[arg(long)]
        yes: bool,
        /// Remove dossier's MCP server and hooks from Claude Code's config (only ours, after a backup).
        #[arg(long)]
        remove: bool,
        /// Register the running binary where it is, even from a temporary or cargo build directory.
        #[arg(long)]
        no_self_install: bool,
    },
    /// List open work in priority order.
    Ls {
        /// Statuses to show (repeatable); default active, waiting, blocked.
        #[arg(long, value_enum, num_args = 1..)]
        status: Vec<StatusFilter>,
    },
    /// Show a Dossier's frontmatter, token estimate and artifacts.
    Show {
        #[arg(add = complete::dossier_slugs())]
        target: String,
    },
    /// Create a new Dossier (checks for likely existing matches first).
    Promote {
        #[arg(long)]
        name: Option<String>,
        /// Session content to capture (and its `# ` title as the name).
        #[arg(long)]
        from_file: Option<PathBuf>,
        /// Create even when an existing Dossier matches with high confidence.
        #[arg(long)]
        create: bool,
    },
    /// Attach session content to a Dossier; without a target, list the top candidates.
    Link {
        #[arg(add = complete::dossier_slugs())]
        target: Option<String>,
        /// The session content to attach (or to find candidates for).
        #[arg(long)]
        from_file: Option<PathBuf>,
    },
    /// Merge SOURCE into TARGET (the survivor). On a terminal, asks about each conflict;
    /// otherwise conflicts come back as `conflict_detected` (exit 4) for --resolve.
    Merge {
        #[arg(add = complete::dossier_slugs())]
        source: String,
        #[arg(add = complete::dossier_slugs())]
        target: String,
        /// Resolve a conflict: ID=keep-target|keep-source|keep-both|custom:<text> (repeatable).
        #[arg(long, value_name = "ID=CHOICE")]
        resolve: Vec<String>,
        /// A JSON file with resolutions: [{"conflict_id", "choice", "text"?}].
        #[arg(long, value_name = "FILE")]
        resolutions: Option<PathBuf>,
    },
    /// Conflict files: concurrent edits and merge conflicts kept in `conflicts/`.
    Conflicts {
        #[command(subcommand)]
        command: ConflictsCommand,
    },
    /// Print the full Distilled State (never truncated; over-target warns).
    Recall {
        #[arg(add = complete::dossier_slugs())]
        target: String,
        /// Return only this page (1-based) of at most 40,000 bytes, split on line boundaries.
        #[arg(long)]
        page: Option<usize>,
    },
    /// Full-text search across every Dossier and artifact (archived ones too).
    Search {
        query: String,
        /// Only this Dossier.
        #[arg(long, add = complete::dossier_slugs())]
        dossier: Option<String>,
        /// Treat the query as a regular expression (default: literal text).
        #[arg(long)]
        regex: bool,
        /// At most this many hits.
        #[arg(long, default_value_t = 50)]
        limit: usize,
    },
    /// Set lifecycle status.
    Status {
        #[arg(add = complete::dossier_slugs())]
        target: String,
        status: Status,
    },
    /// Set the lead.
    Lead {
        #[arg(add = complete::dossier_slugs())]
        target: String,
        lead: String,
    },
    /// Set the next action.
    Next {
        #[arg(add = complete::dossier_slugs())]
        target: String,
        action: String,
    },
    /// Edit open questions.
    Questions {
        #[arg(add = complete::dossier_slugs())]
        target: String,
        op: QuestionsOp,
        questions: Vec<String>,
    },
    /// Set importance, urgency and due date.
    Priority {
        #[arg(add = complete::dossier_slugs())]
        target: String,
        #[arg(long, value_enum)]
        importance: LevelArg,
        #[arg(long, value_enum)]
        urgency: LevelArg,
        #[arg(long)]
        due: Option<String>,
    },
    /// Show the session's active Dossier.
    Active {
        #[arg(long, add = complete::session_ids())]
        session: Option<String>,
    },
    /// Bind a Dossier to the session.
    Switch {
        #[arg(add = complete::dossier_slugs())]
        target: String,
        #[arg(long, add = complete::session_ids())]
        session: Option<String>,
    },
    /// Save a new Distilled State and/or fields against a base revision (the CLI form of
    /// the `dossier_save` tool; see docs/cli.md).
    Save {
        #[arg(add = complete::dossier_slugs())]
        target: String,
        /// The revision your change started from (`dossier show --json` → data.revision).
        #[arg(long)]
        base_revision: Option<String>,
        /// A file holding the new Distilled State body (Markdown, without frontmatter).
        #[arg(long)]
        from_file: Option<PathBuf>,
        /// Set the next action.
        #[arg(long)]
        next: Option<String>,
        /// Set the status.
        #[arg(long, value_enum)]
        status: Option<Status>,
        /// Capture a file as an artifact (repeatable).
        #[arg(long)]
        artifact: Vec<PathBuf>,
        /// Type of the captured artifacts.
        #[arg(long, value_enum, default_value = "file-snapshot")]
        artifact_type: ArtifactType,
    },
    /// Print the store root, or a Dossier's directory.
    Path {
        #[arg(add = complete::dossier_slugs())]
        target: Option<String>,
    },
    /// Archive a Dossier (hides it from the default view; deletes nothing).
    Archive {
        #[arg(add = complete::dossier_slugs())]
        target: String,
    },
    /// Context files.
    Context {
        #[command(subcommand)]
        command: ContextCommand,
    },
    /// Check the store, config, policy components, every Dossier, context files and harness.
    Doctor {
        /// Apply the safe, idempotent repairs (regenerate context files, install a missing
        /// guide, remove our own stale temp files), then check again. Never touches Dossier data.
        #[arg(long)]
        fix: bool,
    },
    /// Browse open work in a terminal UI: filter, read a Dossier and its archive, bind one to
    /// the session, merge, and resolve conflicts (keyboard only; keys in docs/cli.md).
    Tui {
        /// The session to bind Dossiers to (default: CLAUDE_CODE_SESSION_ID; without either,
        /// binding is unavailable and everything else works).
        #[arg(long)]
        session: Option<String>,
    },
    /// Run the MCP server over stdio.
    Mcp,
    /// Handle a Claude Code hook event (reads the event JSON on stdin; always exits 0).
    Hook {
        /// session-start, session-end, pre-compact or stop.
        event: String,
    },
    /// The Claude Code plugin (an alternative to `dossier init`'s registration; docs/plugin.md).
    Plugin {
        #[command(subcommand)]
        command: PluginCommand,
    },
    /// Print the shell completion script (Dossier slugs are completed from the store); see
    /// docs/cli.md for where each shell loads it from.
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (dossier.1), or write one page per command into a directory.
    Man {
        /// Write dossier.1 and dossier-<command>.1 for every subcommand here (created if missing).
        #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
        out_dir: Option<PathBuf>,
    },
    /// codecall: a learning session about a finished implementation. The agent answers work
    /// orders (`submit`), the user answers gates (`answer`); see docs/cli.md.
    Codecall {
        #[command(subcommand)]
        command: CodecallCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum PluginCommand {
    /// Write the plugin directory (also a one-plugin marketplace) into DIR: plugin.json,
    /// marketplace.json, hooks/hooks.json, .mcp.json, commands/codecall.md, bin/dossier.
    Export {
        dir: PathBuf,
        /// Copy this dossier binary into DIR/bin/dossier (instead of a launcher that runs the
        /// dossier installed on the machine).
        #[arg(long)]
        binary: bool,
    },
}

/// Where a codecall command finds the event log.
#[derive(Debug, clap::Args)]
pub struct LogArg {
    /// The event log file (all sessions in one JSONL file) instead of `<store>/learning/<session>.jsonl`.
    #[arg(long, value_name = "PATH")]
    pub log: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum CodecallCommand {
    /// Start a session: collect evidence from the repository and return the first work order.
    Start {
        /// The repository (any directory inside its work tree); default: the current directory.
        #[arg(long, value_name = "PATH")]
        repo: Option<PathBuf>,
        /// The implementation is the diff BASE..HEAD (both needed); default: working-tree changes.
        #[arg(long, value_name = "REV", requires = "head")]
        base: Option<String>,
        #[arg(long, value_name = "REV", requires = "base")]
        head: Option<String>,
        /// The task or result text of the conversation (redacted before it is recorded).
        #[arg(long, value_name = "TEXT")]
        task: Option<String>,
        /// The session id to use (`lrn_` + 26 lowercase letters or digits); default: a new one.
        #[arg(long, value_name = "ID")]
        session_id: Option<String>,
        /// Time budget of the session, in minutes (1 to 480).
        #[arg(long, value_name = "N", default_value_t = dossier_codecall::event::DEFAULT_MAX_MINUTES)]
        max_minutes: u32,
        /// Idempotency key: the same id again returns the same session (default: a new ULID).
        /// Without --session-id, the session id is derived from it.
        #[arg(long, value_name = "ID")]
        operation_id: Option<String>,
        /// Save the summary, when the session completes, to the Dossier this agent session is
        /// bound to (`CLAUDE_CODE_SESSION_ID`); `codecall.save_summaries` in config.yaml does it
        /// for every session.
        #[arg(long)]
        save_summary: bool,
        /// Save the summary, when the session completes, to this Dossier (slug or id).
        #[arg(long, value_name = "DOSSIER", conflicts_with = "save_summary", add = complete::dossier_slugs())]
        save_summary_to: Option<String>,
        /// Print the work order's prompt template, input, evidence and result schema.
        #[arg(long)]
        show_work_order: bool,
        #[command(flatten)]
        log: LogArg,
    },
    /// Hand in the agent's result for the pending work order (or report that it has none).
    #[command(group(clap::ArgGroup::new("outcome").required(true).multiple(false)))]
    Submit {
        /// The session id (`lrn_…`).
        #[arg(add = complete::learning_session_ids())]
        session: String,
        /// The work order's id.
        #[arg(long, value_name = "ID")]
        checkpoint: String,
        /// The result, a JSON file valid against the work order's result_schema (`-`: stdin).
        #[arg(long, value_name = "FILE", group = "outcome")]
        result_file: Option<PathBuf>,
        /// The agent could not produce a result, and why.
        #[arg(long, value_name = "REASON", group = "outcome")]
        failure: Option<String>,
        /// Idempotency key (default: a new ULID); a corrected result needs a new one.
        #[arg(long, value_name = "ID")]
        operation_id: Option<String>,
        /// Print the next work order's prompt template, input, evidence and result schema.
        #[arg(long)]
        show_work_order: bool,
        #[command(flatten)]
        log: LogArg,
    },
    /// Answer the pending gate: Start/Skip, confidence per unit, lesson read, or a question.
    #[command(group(clap::ArgGroup::new("answer").required(true).multiple(false)))]
    Answer {
        /// The session id (`lrn_…`).
        #[arg(add = complete::learning_session_ids())]
        session: String,
        /// The gate's checkpoint (the decision/confidence gate, lesson or question id).
        #[arg(long, value_name = "ID")]
        checkpoint: String,
        /// Start the recommended session.
        #[arg(long, group = "answer")]
        accept: bool,
        /// Skip it (the session is cancelled as declined).
        #[arg(long, group = "answer")]
        decline: bool,
        /// Confidence per unit: UNIT=expert|comfortable|heard_of_it|never_learned (units left out: neutral).
        #[arg(long, value_name = "UNIT=LEVEL", num_args = 1.., group = "answer")]
        confidence: Vec<String>,
        /// Use the default (neutral) confidence for every unit.
        #[arg(long, group = "answer")]
        default_confidence: bool,
        /// The lesson was read.
        #[arg(long, group = "answer")]
        acknowledge: bool,
        /// The chosen choice of the shown question.
        #[arg(long, value_name = "ID", group = "answer")]
        choice: Option<String>,
        /// Idempotency key (default: a new ULID).
        #[arg(long, value_name = "ID")]
        operation_id: Option<String>,
        /// Print the next work order's prompt template, input, evidence and result schema.
        #[arg(long)]
        show_work_order: bool,
        #[command(flatten)]
        log: LogArg,
    },
    /// Cancel the session (any state but completed, cancelled or failed).
    Cancel {
        /// The session id (`lrn_…`).
        #[arg(add = complete::learning_session_ids())]
        session: String,
        /// Why (redacted before it is recorded).
        #[arg(long, value_name = "TEXT")]
        note: Option<String>,
        /// Idempotency key (default: a new ULID).
        #[arg(long, value_name = "ID")]
        operation_id: Option<String>,
        #[command(flatten)]
        log: LogArg,
    },
    /// Reconnect: finish a step a crash interrupted and show the current step.
    Resume {
        /// The session id (`lrn_…`).
        #[arg(add = complete::learning_session_ids())]
        session: String,
        /// Also return the events after this sequence number.
        #[arg(long, value_name = "N")]
        after_sequence: Option<u64>,
        /// Print the work order's prompt template, input, evidence and result schema.
        #[arg(long)]
        show_work_order: bool,
        #[command(flatten)]
        log: LogArg,
    },
    /// The session's current step (records nothing).
    Show {
        /// The session id (`lrn_…`).
        #[arg(add = complete::learning_session_ids())]
        session: String,
        /// Print the work order's prompt template, input, evidence and result schema.
        #[arg(long)]
        show_work_order: bool,
        #[command(flatten)]
        log: LogArg,
    },
    /// Re-derive every decision of a session's log with the policy, without a model or the
    /// repository, and report any difference (exit 1).
    Replay {
        /// A session id, or the path of a log file (every session in it) or directory.
        #[arg(add = complete::learning_session_ids())]
        session_or_log: String,
        #[command(flatten)]
        log: LogArg,
    },
}

#[derive(Debug, Subcommand)]
pub enum ContextCommand {
    /// Regenerate context/library.md.
    Refresh,
}

/// What a successful command prints.
struct Output {
    data: Value,
    human: String,
    warnings: Vec<String>,
    next_actions: Vec<String>,
    exit: u8,
}

impl Output {
    fn new(data: Value, human: String) -> Output {
        Output { data, human, warnings: Vec::new(), next_actions: Vec::new(), exit: 0 }
    }
}

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
                    "next_actions": e.next_actions,
                });
                emit(&format!("{}\n", serde_json::to_string_pretty(&envelope).expect("JSON values serialize")));
            } else {
                eprintln!("error[{}]: {}", e.code.as_str(), e.message);
                for n in &e.next_actions {
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
        Command::Init { yes, remove, no_self_install } => cmd_init(yes, remove, no_self_install),
        Command::Ls { status } => cmd_ls(&status),
        Command::Path { target } => cmd_path(target.as_deref()),
        Command::Context { command: ContextCommand::Refresh } => cmd_context_refresh(),
        Command::Doctor { fix } => cmd_doctor(fix),
        Command::Show { target } => cmd_show(&target),
        Command::Promote { name, from_file, create } => cmd_promote(name, from_file, create),
        Command::Link { target, from_file } => cmd_link(target.as_deref(), from_file),
        Command::Status { target, status } => {
            update(&target, FrontmatterUpdates { status: Some(status), ..Default::default() })
        }
        Command::Lead { target, lead } => {
            update(&target, FrontmatterUpdates { lead: Some(lead), ..Default::default() })
        }
        Command::Next { target, action } => {
            update(&target, FrontmatterUpdates { next_action: Some(action), ..Default::default() })
        }
        Command::Questions { target, op, questions } => {
            let updates = match op {
                QuestionsOp::Add if questions.is_empty() => {
                    return Err(DossierError::new(Code::InvalidInput, "`questions add` needs at least one question"));
                }
                QuestionsOp::Add => FrontmatterUpdates { add_open_questions: Some(questions), ..Default::default() },
                QuestionsOp::Set => FrontmatterUpdates { open_questions: Some(questions), ..Default::default() },
                QuestionsOp::Clear if !questions.is_empty() => {
                    return Err(DossierError::new(Code::InvalidInput, "`questions clear` takes no questions"));
                }
                QuestionsOp::Clear => FrontmatterUpdates { open_questions: Some(Vec::new()), ..Default::default() },
            };
            update(&target, updates)
        }
        Command::Priority { target, importance, urgency, due } => update(
            &target,
            FrontmatterUpdates {
                importance: Some(importance.into()),
                urgency: Some(urgency.into()),
                due_date: due,
                ..Default::default()
            },
        ),
        Command::Archive { target } => {
            update(&target, FrontmatterUpdates { status: Some(Status::Archived), ..Default::default() })
        }
        Command::Save { target, base_revision, from_file, next, status, artifact, artifact_type } => {
            let distilled_state = match &from_file {
                Some(p) => Some(std::fs::read_to_string(p).map_err(|e| DossierError::io("read", p, e))?),
                None => None,
            };
            let artifacts = artifact.iter().map(|p| file_artifact(p, artifact_type)).collect();
            let req = SaveRequest {
                base_revision,
                distilled_state,
                updates: FrontmatterUpdates { next_action: next, status, ..Default::default() },
                artifacts,
                actor: ACTOR.to_string(),
                session_id: None,
                calibration: 0.0,
                token_target: 0,
                event: None,
            };
            let app = App::open()?;
            let req = SaveRequest {
                calibration: app.config.tokens.calibration,
                token_target: app.config.token_target,
                ..req
            };
            saved(save::save_with_progress(&app.store, &target, req, progress::for_cli().as_ref())?, &app)
        }
        Command::Recall { target, page } => cmd_recall(&target, page),
        Command::Search { query, dossier, regex, limit } => cmd_search(&query, dossier.as_deref(), regex, limit),
        Command::Merge { source, target, resolve, resolutions } => {
            cmd_merge(&source, &target, &resolve, resolutions.as_deref(), json)
        }
        Command::Conflicts { command } => cmd_conflicts(command, json),
        Command::Active { session } => cmd_active(session.as_deref()),
        Command::Switch { target, session } => cmd_switch(&target, session.as_deref()),
        Command::Tui { session } => {
            if json {
                return Err(DossierError::new(
                    Code::InvalidInput,
                    "`dossier tui` is interactive and has no --json form",
                )
                .with_next("dossier ls --json"));
            }
            crate::tui::run(session.as_deref())?;
            Ok(Output::new(json!({}), String::new()))
        }
        Command::Mcp => {
            plugin_mcp_stands_down()?;
            crate::policy::use_pooled_instances();
            crate::mcp::serve(App::open()?)?;
            std::process::exit(0)
        }
        Command::Hook { .. } => unreachable!("handled before dispatch"),
        Command::Codecall { command } => cmd_codecall(command),
        Command::Plugin { command: PluginCommand::Export { dir, binary } } => cmd_plugin_export(&dir, binary),
        Command::Completions { shell } => {
            let script = complete::script(&shell.to_string(), &complete::completer_path())?;
            Ok(Output::new(json!({ "shell": shell.to_string(), "script": script }), script))
        }
        Command::Man { out_dir } => cmd_man(out_dir.as_deref()),
    }
}

/// `dossier man`: dossier.1 on stdout, or every page written into `dir`.
fn cmd_man(dir: Option<&Path>) -> Result<Output> {
    let pages = complete::man_pages(Cli::command())?;
    let Some(dir) = dir else {
        let (name, text) = pages.into_iter().next().expect("the top-level page comes first");
        let text = String::from_utf8_lossy(&text).into_owned();
        return Ok(Output::new(json!({ "page": name, "roff": text }), text));
    };
    std::fs::create_dir_all(dir).map_err(|e| DossierError::io("create", dir, e))?;
    let mut written = Vec::new();
    for (name, text) in &pages {
        let path = dir.join(name);
        crate::files::write_atomic(&path, text)?;
        written.push(path);
    }
    let human = format!("wrote {} man pages to {}\n", written.len(), dir.display());
    Ok(Output::new(json!({ "pages": written }), human))
}

/// Run one codecall operation over the log and render the step it returns.
fn codecall_step(
    app: &App,
    log: Option<PathBuf>,
    show_work_order: bool,
    f: impl FnOnce(&mut dossier_codecall::Runtime<'_>) -> dossier_codecall::error::Result<dossier_codecall::Step>,
) -> Result<Output> {
    let target = crate::codecall::log_target(app, log.as_deref())?;
    let ran = crate::codecall::run(app, target, "user:cli", f)?;
    let mut r = crate::codecall::render(&ran.step, ran.log.as_deref(), show_work_order);
    let mut human = r.human;
    if let Some(h) = &ran.hand_off {
        r.data["hand_off"] = json!(h);
        human.push_str(&format!("summary saved to Dossier {} as artifact {}\n", h.dossier_id, h.artifact_id));
    }
    let mut out = Output::new(r.data, human);
    out.warnings = r.warnings;
    out.warnings.extend(ran.warnings);
    out.next_actions = r.next_actions;
    Ok(out)
}

fn cmd_codecall(command: CodecallCommand) -> Result<Output> {
    use crate::codecall as cc;
    use dossier_codecall::{
        Answer, AnswerRequest, CancelReason, CancelRequest, ResumeRequest, SubmitOutcome, SubmitRequest,
    };
    let app = App::open()?;
    let op = |id: Option<String>| id.unwrap_or_else(cc::new_operation_id);
    match command {
        CodecallCommand::Start {
            repo,
            base,
            head,
            task,
            session_id,
            max_minutes,
            operation_id,
            save_summary,
            save_summary_to,
            show_work_order,
            log,
        } => {
            let input = cc::StartInput {
                repo,
                base,
                head,
                task,
                session_id,
                max_minutes: Some(max_minutes),
                operation_id,
                save_summary: save_summary.then_some(true),
                harness_session: std::env::var("CLAUDE_CODE_SESSION_ID").ok(),
                save_summary_to,
                ..Default::default()
            };
            let (req, warnings) = cc::start_request(&app, input)?;
            let mut out = codecall_step(&app, log.log, show_work_order, |rt| rt.start(req))?;
            out.warnings.splice(0..0, warnings);
            Ok(out)
        }
        CodecallCommand::Submit { session, checkpoint, result_file, failure, operation_id, show_work_order, log } => {
            let outcome = match (result_file, failure) {
                (Some(file), _) => SubmitOutcome::Result { result: read_result(&file)? },
                (None, Some(reason)) => SubmitOutcome::Failure { reason },
                (None, None) => unreachable!("clap requires one of --result-file and --failure"),
            };
            let req = SubmitRequest { session_id: session, operation_id: op(operation_id), checkpoint, outcome };
            codecall_step(&app, log.log, show_work_order, |rt| rt.submit(req))
        }
        CodecallCommand::Answer {
            session,
            checkpoint,
            accept,
            decline,
            confidence,
            default_confidence,
            acknowledge,
            choice,
            operation_id,
            show_work_order,
            log,
        } => {
            let answer = if accept || decline {
                Answer::Decision { accept }
            } else if default_confidence {
                Answer::Confidence { levels: Default::default() }
            } else if !confidence.is_empty() {
                Answer::Confidence { levels: parse_confidence(&confidence)? }
            } else if acknowledge {
                Answer::Acknowledge
            } else if let Some(choice_id) = choice {
                Answer::Choice { choice_id }
            } else {
                unreachable!("clap requires one answer")
            };
            let req = AnswerRequest { session_id: session, operation_id: op(operation_id), checkpoint, answer };
            codecall_step(&app, log.log, show_work_order, |rt| rt.answer(req))
        }
        CodecallCommand::Cancel { session, note, operation_id, log } => {
            let req = CancelRequest {
                session_id: session,
                operation_id: op(operation_id),
                reason: CancelReason::UserCancelled,
                note,
                actor: dossier_codecall::Actor::User,
            };
            codecall_step(&app, log.log, false, |rt| rt.cancel(req))
        }
        CodecallCommand::Resume { session, after_sequence, show_work_order, log } => {
            let req = ResumeRequest { session_id: session, after_sequence };
            codecall_step(&app, log.log, show_work_order, |rt| rt.resume(req))
        }
        CodecallCommand::Show { session, show_work_order, log } => {
            codecall_step(&app, log.log, show_work_order, |rt| rt.show(&session))
        }
        CodecallCommand::Replay { session_or_log, log } => {
            let (target, only) = if dossier_codecall::valid_session_id(&session_or_log) {
                let target = match &log.log {
                    Some(p) => dossier_codecall::LogTarget::File(p.clone()),
                    None => {
                        app.store.require()?;
                        dossier_codecall::LogTarget::File(dossier_codecall::log::session_log_path(
                            &app.store.learning_dir(),
                            &session_or_log,
                        ))
                    }
                };
                (target, Some(session_or_log))
            } else {
                let p = PathBuf::from(&session_or_log);
                if p.is_dir() {
                    (dossier_codecall::LogTarget::Directory(p), None)
                } else if p.is_file() {
                    (dossier_codecall::LogTarget::File(p), None)
                } else {
                    return Err(DossierError::new(
                        Code::InvalidInput,
                        format!("`{session_or_log}` is neither a session id (`lrn_…`) nor a log file or directory"),
                    ));
                }
            };
            if let dossier_codecall::LogTarget::File(p) = &target
                && !p.is_file()
            {
                return Err(cc::error(dossier_codecall::RuntimeError::new(
                    dossier_codecall::ErrorCode::UnknownSession,
                    format!("no event log at {}", p.display()),
                )));
            }
            let mut report = cc::replay(&app, &target)?;
            if let Some(sid) = &only {
                report.sessions.retain(|s| &s.session_id == sid);
                if report.sessions.is_empty() {
                    return Err(cc::error(dossier_codecall::RuntimeError::new(
                        dossier_codecall::ErrorCode::UnknownSession,
                        format!("no session `{sid}` in the event log"),
                    )));
                }
            }
            let identical = report.is_identical();
            let mut data = serde_json::to_value(&report).expect("replay reports serialize");
            data["identical"] = json!(identical);
            let mut out = Output::new(data, cc::render_replay(&report));
            if !identical {
                out.exit = 1;
            }
            Ok(out)
        }
    }
}

/// A worker result file (`-`: stdin) as JSON. Not JSON at all is the caller's mistake, not a
/// worker result, so nothing is recorded.
fn read_result(file: &Path) -> Result<Value> {
    let text = if file == Path::new("-") {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| DossierError::io("read", Path::new("stdin"), e))?;
        s
    } else {
        std::fs::read_to_string(file).map_err(|e| DossierError::io("read", file, e))?
    };
    serde_json::from_str(&text).map_err(|e| {
        DossierError::new(Code::InvalidInput, format!("{} is not JSON: {e}; nothing was recorded", file.display()))
    })
}

/// `UNIT=LEVEL` pairs (levels as in the confidence gate; `-` and `_` both accepted).
fn parse_confidence(
    pairs: &[String],
) -> Result<std::collections::BTreeMap<String, dossier_codecall::contract::ConfidenceLevel>> {
    pairs
        .iter()
        .map(|pair| {
            let bad = || {
                DossierError::new(
                    Code::InvalidInput,
                    format!(
                        "--confidence `{pair}`: expected UNIT=LEVEL with LEVEL one of expert, comfortable, heard_of_it, \
                         never_learned, neutral"
                    ),
                )
            };
            let (unit, level) = pair.split_once('=').ok_or_else(bad)?;
            let level = serde_json::from_value(json!(level.trim().replace('-', "_"))).map_err(|_| bad())?;
            Ok((unit.trim().to_string(), level))
        })
        .collect()
}

/// Who the audit log names for CLI mutations.
const ACTOR: &str = "user:cli";

impl From<LevelArg> for Level {
    fn from(l: LevelArg) -> Level {
        match l {
            LevelArg::High => Level::High,
            LevelArg::Low => Level::Low,
        }
    }
}

/// A file captured as an artifact; its format follows its extension.
fn file_artifact(path: &std::path::Path, artifact_type: ArtifactType) -> NewArtifact {
    let content_format = match path.extension().and_then(|e| e.to_str()) {
        Some("md" | "markdown") => ContentFormat::Markdown,
        Some("json") => ContentFormat::Json,
        _ => ContentFormat::Text,
    };
    NewArtifact {
        artifact_type,
        title: path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| path.display().to_string()),
        content_format,
        content: ArtifactContent::File(path.to_path_buf()),
        provenance: Provenance {
            origin: Some("file".into()),
            captured_by: Some("dossier cli".into()),
            ..Default::default()
        },
        extraction: None,
    }
}

/// A field edit through the Save path, applied to the current revision under the lock.
fn update(target: &str, updates: FrontmatterUpdates) -> Result<Output> {
    let app = App::open()?;
    let req = SaveRequest {
        updates,
        actor: ACTOR.to_string(),
        calibration: app.config.tokens.calibration,
        token_target: app.config.token_target,
        ..Default::default()
    };
    saved(save::save(&app.store, target, req)?, &app)
}

fn saved(outcome: SaveOutcome, app: &App) -> Result<Output> {
    let mut warnings = outcome.warnings.clone();
    // A new Distilled State is checked against the Distillation Guide (advice, not a gate).
    if outcome.token_estimate.is_some() {
        warnings.extend(crate::distill::warnings(app, &outcome.path));
    }
    // The open-work list may have changed: keep the context library current.
    warnings.extend(context::after_mutation(app));
    let human = format!("{} {} ({})\n", event_verb(outcome.event), outcome.slug, outcome.revision);
    let mut out = Output::new(serde_json::to_value(&outcome).expect("outcome serializes"), human);
    out.warnings = warnings;
    Ok(out)
}

fn event_verb(kind: model::EventKind) -> &'static str {
    match kind {
        model::EventKind::Create | model::EventKind::Promote => "created",
        model::EventKind::Archived => "archived",
        model::EventKind::StatusChanged => "status changed:",
        _ => "saved",
    }
}

fn suggestion_lines(suggestions: &[crate::suggest::Suggestion]) -> String {
    suggestions.iter().map(|s| format!("  {:<6} {:<32} {}\n", s.confidence, s.slug, s.reason)).collect()
}

fn cmd_link(target: Option<&str>, from_file: Option<PathBuf>) -> Result<Output> {
    let app = App::open()?;
    app.store.require()?;
    let Some(path) = from_file else {
        return Err(DossierError::new(Code::InvalidInput, "link needs the session content: --from-file <path>"));
    };
    let Some(target) = target else {
        let content = std::fs::read_to_string(&path).map_err(|e| DossierError::io("read", &path, e))?;
        let candidates = crate::suggest::suggest(&app, &content, crate::listing::now_millis())?;
        let mut human = String::from("Which Dossier does this belong to? (nothing was linked)\n");
        human.push_str(&suggestion_lines(&candidates));
        let mut out = Output::new(json!({ "candidates": candidates, "requires_selection": true }), human);
        out.next_actions = candidates
            .iter()
            .map(|c| format!("dossier link {} --from-file {}", c.slug, path.display()))
            .chain([format!("dossier promote --from-file {} --create", path.display())])
            .collect();
        return Ok(out);
    };
    let mut art = file_artifact(&path, ArtifactType::SourceSnapshot);
    art.title = format!("Linked from {}", art.title);
    let req = SaveRequest {
        artifacts: vec![art],
        actor: ACTOR.to_string(),
        calibration: app.config.tokens.calibration,
        token_target: app.config.token_target,
        event: Some(model::EventKind::Link),
        ..Default::default()
    };
    saved(save::save_with_progress(&app.store, target, req, progress::for_cli().as_ref())?, &app)
}

fn cmd_promote(name: Option<String>, from_file: Option<PathBuf>, create: bool) -> Result<Output> {
    let app = App::open()?;
    app.store.require()?;
    let mut req = CreateRequest { actor: ACTOR.to_string(), promote: true, ..Default::default() };
    let mut name = name;
    let mut file_text = None;
    if let Some(path) = &from_file {
        let mut art = file_artifact(path, ArtifactType::SourceSnapshot);
        art.title = format!("Promoted from {}", art.title);
        file_text = std::fs::read(path).ok().and_then(|b| String::from_utf8(b).ok());
        if let Some(text) = &file_text {
            if name.is_none() {
                name = text.lines().find_map(|l| l.strip_prefix("# ")).map(|t| t.trim().to_string());
            }
            if text.lines().any(|l| l.trim() == "## Situation") {
                req.distilled_state = Some(text.clone());
            }
        }
        if name.is_none() {
            name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        }
        req.artifacts.push(art);
    }
    req.name = name.ok_or_else(|| {
        DossierError::new(Code::InvalidInput, "promote needs --name <name> or --from-file <path>")
            .with_next("dossier promote --name \"<name>\"")
    })?;
    // Guard against duplicates: the name and any content, ranked against existing Dossiers.
    let query = match &file_text {
        Some(text) => format!("{}\n{text}", req.name),
        None => req.name.clone(),
    };
    let next = |c: &crate::suggest::Suggestion| match &from_file {
        Some(p) => format!("dossier link {} --from-file {}", c.slug, p.display()),
        None => format!("dossier show {}", c.slug),
    };
    let candidates =
        crate::suggest::guard_new(&app, &query, create, next, "add --create to make a new Dossier anyway")?;
    let outcome = save::create_with_progress(&app.store, req, progress::for_cli().as_ref())?;
    let mut out = saved(outcome, &app)?;
    for c in &candidates {
        out.warnings.push(format!("possibly related ({} confidence): {} — {}", c.confidence, c.slug, c.reason));
    }
    out.warnings.push(
        "transcript_unavailable: no transcript was captured (the CLI has no session transcript; inside Claude Code the session-end and pre-compact hooks capture it)"
            .to_string(),
    );
    Ok(out)
}

fn cmd_active(session: Option<&str>) -> Result<Output> {
    let app = App::open()?;
    app.store.require()?;
    let sid = crate::sessions::session_id(session)?;
    let binding = crate::sessions::read(&app.store, &sid)?;
    let human = match binding.as_ref().and_then(|b| b.dossier_id.clone()) {
        Some(id) => format!("session {sid}: {id}\n"),
        None => format!("session {sid}: no active Dossier\n"),
    };
    let mut out = Output::new(json!({ "session_id": sid, "binding": binding }), human);
    out.warnings = crate::sessions::Capabilities::current().warnings();
    Ok(out)
}

fn cmd_switch(target: &str, session: Option<&str>) -> Result<Output> {
    let app = App::open()?;
    let sid = crate::sessions::session_id(session)?;
    let (binding, r, mut warnings, next) = crate::sessions::switch(&app, &sid, target)?;
    warnings.extend(binding.capabilities.warnings());
    let human =
        format!("session {sid} now works on {} ({}, ~{} tokens)\n", r.slug, r.revision, r.token_estimate.tokens);
    let mut out = Output::new(
        json!({ "binding": binding, "slug": r.slug, "revision": r.revision, "token_estimate": r.token_estimate, "page_count": r.page_count }),
        human,
    );
    out.warnings = warnings;
    out.next_actions = next;
    out.next_actions.insert(0, format!("dossier recall {}", r.slug));
    Ok(out)
}

fn cmd_recall(target: &str, page: Option<usize>) -> Result<Output> {
    let app = App::open()?;
    let (recall, warnings, next_actions) = crate::recall::recall(&app, target, page)?;
    let human = recall.content.clone();
    let mut out = Output::new(serde_json::to_value(&recall).expect("recall serializes"), human);
    out.warnings = warnings;
    out.next_actions = next_actions;
    Ok(out)
}

fn cmd_search(query: &str, dossier: Option<&str>, regex: bool, limit: usize) -> Result<Output> {
    let app = App::open()?;
    let q = crate::search::Query { text: query, regex, dossier, limit };
    let result = crate::search::search_with_progress(&app, &q, progress::for_cli().as_ref())?;
    let mut human = String::new();
    for group in &result.results {
        human.push_str(&format!("{} ({})\n", group.dossier_name, group.slug));
        for h in &group.hits {
            let place = match (&h.artifact_id, &h.artifact_title) {
                (Some(id), Some(title)) => format!("{id} \"{title}\""),
                (Some(id), None) => id.clone(),
                _ => "dossier.md".to_string(),
            };
            human.push_str(&format!("  {place}:{}: {}\n", h.line, h.snippet));
        }
    }
    if result.results.is_empty() {
        human.push_str(&format!("no matches for `{query}` in {} file(s)\n", result.files_searched));
    }
    // On a terminal each line fits its width (snippets are last, so they are what is cut).
    let human = term::fit_lines(&human, term::stdout_width());
    let mut out = Output::new(serde_json::to_value(&result).expect("search result serializes"), human);
    if result.truncated {
        out.warnings.push(format!(
            "showing {} of {} matching lines; use --limit or --dossier to see more",
            result.returned, result.total_hits
        ));
    }
    Ok(out)
}

fn cmd_show(target: &str) -> Result<Output> {
    let app = App::open()?;
    app.store.require()?;
    let dir = app.store.resolve(target)?;
    let file = dir.join("dossier.md");
    let text = std::fs::read_to_string(&file).map_err(|e| DossierError::io("read", &file, e))?;
    let doc = model::DossierDoc::parse(&text, &file)?;
    let revision = save::revision(&dir)?;
    let estimate = crate::tokens::estimate(&text, app.config.tokens.calibration);
    let token_target = doc.frontmatter.token_target.unwrap_or(app.config.token_target);
    let (artifacts, problems) = archive::list(&dir);
    let conflicts = std::fs::read_dir(dir.join("conflicts")).map(|d| d.count()).unwrap_or(0);
    let fm = &doc.frontmatter;
    let mut human = String::new();
    let _ = writeln!(human, "{} ({})", fm.name, fm.slug);
    let _ = writeln!(human, "  id:            {}", fm.id);
    let _ = writeln!(human, "  revision:      {revision}");
    let _ = writeln!(human, "  status:        {}", fm.status.as_str());
    let _ = writeln!(human, "  importance:    {}", fm.importance.as_str());
    let _ = writeln!(human, "  urgency:       {}", fm.urgency.as_str());
    if let Some(l) = &fm.lead {
        let _ = writeln!(human, "  lead:          {l}");
    }
    if let Some(d) = &fm.due_date {
        let _ = writeln!(human, "  due:           {d}");
    }
    let _ = writeln!(human, "  next action:   {}", fm.next_action);
    let _ = writeln!(human, "  updated:       {}", fm.updated_at);
    let _ = writeln!(human, "  path:          {}", dir.display());
    if !fm.open_questions.is_empty() {
        human.push_str("  open questions:\n");
        for q in &fm.open_questions {
            let _ = writeln!(human, "    - {q}");
        }
    }
    let _ = writeln!(human, "  tokens:        ~{} (estimate; target {token_target})", estimate.tokens);
    let _ = writeln!(human, "  artifacts:     {}", artifacts.len());
    for a in &artifacts {
        let kind = serde_json::to_value(a.artifact_type).expect("enum serializes");
        let _ = writeln!(human, "    {}  {:<16} {}", a.id, kind.as_str().unwrap_or(""), a.title);
    }
    if conflicts > 0 {
        let _ = writeln!(human, "  conflicts:     {conflicts} in {}", dir.join("conflicts").display());
    }
    let mut warnings = problems;
    warnings.extend(model::body_structure_warnings(&doc.body));
    if estimate.tokens > token_target {
        warnings.push(format!(
            "over_token_target: ~{} tokens (estimate) is over the target of {token_target}",
            estimate.tokens
        ));
    }
    let data = json!({
        "frontmatter": fm,
        "revision": revision,
        "token_estimate": estimate,
        "token_target": token_target,
        "path": dir,
        "artifacts": artifacts,
        "conflicts": conflicts,
    });
    let mut out = Output::new(data, human);
    out.warnings = warnings;
    Ok(out)
}

fn cmd_init(yes: bool, remove: bool, no_self_install: bool) -> Result<Output> {
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
        let report = init::run_with_progress(progress::for_cli().as_ref())?;
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
    if let Ok(store) = crate::store::Store::locate()
        && store.config_path().is_file()
    {
        let record = outcome.registration.record(&outcome.detection, model::now_timestamp());
        match claude::record(&store.config_path(), record) {
            Ok((_, Some(w))) => warnings.push(w),
            Ok(_) => {}
            Err(e) => warnings.push(format!("the capability report was not recorded: {}", e.message)),
        }
        if let Ok(app) = App::open()
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

fn cmd_plugin_export(dir: &Path, binary: bool) -> Result<Output> {
    let exe = if binary { Some(claude::running_binary()?) } else { None };
    let exported = claude::plugin::export(dir, exe.as_deref())?;
    let mut human = format!("Claude Code plugin written to {}\n", dir.display());
    for (path, outcome) in &exported.files {
        human.push_str(&format!("  {outcome:<10} {path}\n"));
    }
    if let Some(b) = &exported.binary {
        human.push_str(&format!("bin/dossier is a copy of {}.\n", b.display()));
    } else {
        human.push_str("bin/dossier runs the dossier installed on this machine (--binary bundles this one).\n");
    }
    let shown = dir.display();
    human.push_str(&format!(
        "Install: claude plugin marketplace add {shown} && claude plugin install dossier@dossier\n\
         One session: claude --plugin-dir {shown}\n\
         Use either the plugin or `dossier init`'s registration (remove it with `dossier init --remove`).\n"
    ));
    let mut out = Output::new(serde_json::to_value(&exported).expect("export serializes"), human);
    out.next_actions = vec![
        format!("claude plugin marketplace add {shown}"),
        format!("claude plugin install {}@{}", claude::plugin::PLUGIN_NAME, claude::plugin::MARKETPLACE_NAME),
    ];
    if claude::inspect_current().is_some_and(|r| r.init_registered()) {
        out.warnings.push(
            "dossier init's registration is present: remove it (`dossier init --remove`) before installing the plugin, \
             or Claude Code runs every hook twice."
                .to_string(),
        );
    }
    Ok(out)
}

/// The dossier plugin's MCP server does not start when `dossier init`'s is registered and
/// working too (the session gets one set of dossier tools; docs/plugin.md).
fn plugin_mcp_stands_down() -> Result<()> {
    let Some(root) = claude::plugin::launched_from() else { return Ok(()) };
    let Some(paths) = claude::Paths::from_env() else { return Ok(()) };
    let registration = claude::inspect_with(&paths, Some(root));
    if !matches!(registration.mcp, claude::Capability::Available { .. }) {
        return Ok(());
    }
    Err(DossierError::new(
        Code::HarnessCapabilityUnavailable,
        format!(
            "the dossier plugin's MCP server stands down: dossier init registered mcpServers.dossier in {} too, and \
             that one serves this session. {}",
            paths.claude_json.display(),
            registration.double_registration().join(" ")
        ),
    ))
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

fn statuses(filter: &[StatusFilter]) -> Vec<Status> {
    if filter.is_empty() {
        return Status::OPEN.to_vec();
    }
    if filter.contains(&StatusFilter::All) {
        return vec![Status::Active, Status::Waiting, Status::Blocked, Status::Resolved, Status::Archived];
    }
    filter
        .iter()
        .map(|f| match f {
            StatusFilter::Active => Status::Active,
            StatusFilter::Waiting => Status::Waiting,
            StatusFilter::Blocked => Status::Blocked,
            StatusFilter::Resolved => Status::Resolved,
            StatusFilter::Archived | StatusFilter::All => Status::Archived,
        })
        .collect()
}

fn cmd_ls(filter: &[StatusFilter]) -> Result<Output> {
    let app = App::open()?;
    app.store.require()?;
    let listing = listing::list(&app, &statuses(filter), listing::now_millis())?;
    let human = render_table(&listing, term::stdout_width());
    let mut out = Output::new(json!({ "dossiers": listing.dossiers }), human);
    out.warnings = listing.warnings;
    Ok(out)
}

/// The open-work table. Off a terminal (`width` None) every value is complete; on one, the
/// slug column keeps whole slugs while the next action keeps at least 16 columns, and the
/// next action (a display column) takes the rest, shortened with `…`.
fn render_table(listing: &Listing, width: Option<usize>) -> String {
    if listing.dossiers.is_empty() {
        return term::fit_lines("No dossiers match. Create one with `dossier promote --name <name>`.\n", width);
    }
    // "PRI STATUS   STALE  " before the slug, one space after it.
    const FIXED: usize = 3 + 1 + 8 + 1 + 5 + 2 + 1;
    const MIN_NEXT: usize = 16;
    let slug_full = listing.dossiers.iter().map(|d| term::width(&d.slug)).max().unwrap_or(0).max("DOSSIER".len());
    let (slug_w, next_w) = match width {
        None => (slug_full, usize::MAX),
        Some(w) => {
            let room = w.saturating_sub(FIXED);
            let slug_w = slug_full.min(room.saturating_sub(MIN_NEXT)).max("DOSSIER".len().min(room));
            (slug_w, room.saturating_sub(slug_w))
        }
    };
    let row = |pri: &str, status: &str, stale: &str, slug: &str, next: &str| {
        let line = format!(
            "{pri:<3} {status:<8} {stale:>5}  {} {}",
            term::pad(&term::fit(slug, slug_w), slug_w),
            term::fit(next, next_w)
        );
        let line = line.trim_end().to_string();
        // Narrower than the fixed columns: the line itself is cut (terminal only).
        let line = match width {
            Some(w) => term::fit(&line, w),
            None => line,
        };
        format!("{line}\n")
    };
    let mut s = row("PRI", "STATUS", "STALE", "DOSSIER", "NEXT ACTION");
    for d in &listing.dossiers {
        s.push_str(&row(
            &d.priority_score.to_string(),
            d.status.as_str(),
            &format!("{}d", d.staleness_days),
            &d.slug,
            &d.next_action,
        ));
    }
    s
}

fn cmd_path(target: Option<&str>) -> Result<Output> {
    let app = App::open()?;
    let path = match target {
        None => app.store.root().to_path_buf(),
        Some(t) => {
            app.store.require()?;
            app.store.resolve(t)?
        }
    };
    Ok(Output::new(json!({ "path": path }), format!("{}\n", path.display())))
}

fn cmd_context_refresh() -> Result<Output> {
    let app = App::open()?;
    app.store.require()?;
    let path = app.store.library_path();
    let outcome = context::refresh_library(&app)?;
    Ok(Output::new(
        json!({ "path": path, "outcome": outcome.as_str() }),
        format!("{} {}\n", outcome.as_str(), path.display()),
    ))
}

fn cmd_doctor(fix: bool) -> Result<Output> {
    let mut report = doctor::run()?;
    let mut human = format!("dossier doctor: {}\n", report.store.display());
    let mut repairs = None;
    if fix {
        let done = doctor::repair(&report)?;
        for m in &done.applied {
            human.push_str(&format!("fixed {m}\n"));
        }
        for m in &done.failed {
            human.push_str(&format!("NOT FIXED {m}\n"));
        }
        if done.applied.is_empty() && done.failed.is_empty() {
            human.push_str("nothing to fix automatically\n");
        }
        report = doctor::run()?;
        repairs = Some(done);
    }
    for c in &report.checks {
        let tag = match c.severity {
            Severity::Ok => "ok   ",
            Severity::Warning => "warn ",
            Severity::Error => "ERROR",
        };
        human.push_str(&format!("{tag} {:<20} {}\n", c.check, c.message));
        if let Some(f) = &c.file
            && c.severity != Severity::Ok
        {
            match c.line {
                Some(l) => human.push_str(&format!("      file: {}:{l}\n", f.display())),
                None => human.push_str(&format!("      file: {}\n", f.display())),
            }
        }
        if let Some(fix) = &c.fix {
            human.push_str(&format!("      fix:  {fix}\n"));
        }
    }
    human.push_str(&format!("{} error(s), {} warning(s)\n", report.errors(), report.warnings()));
    let exit = if report.errors() > 0 { 1 } else { 0 };
    let mut data = serde_json::to_value(&report).expect("report serializes");
    if let Some(r) = repairs {
        data["repairs"] = serde_json::to_value(r).expect("repairs serialize");
    }
    let mut out = Output::new(data, human);
    out.exit = exit;
    Ok(out)
}

#[derive(Debug, Subcommand)]
pub enum ConflictsCommand {
    /// Conflict files of one Dossier, or of every Dossier.
    List {
        #[arg(add = complete::dossier_slugs())]
        target: Option<String>,
        /// Include resolved ones.
        #[arg(long)]
        all: bool,
    },
    /// Print one conflict file.
    Show {
        #[arg(add = complete::conflict_ids())]
        conflict_id: String,
    },
    /// Resolve a concurrent-edit conflict: keep the current state, or save the proposal (or
    /// your own text) on top of it through the Save path. Merge conflicts are resolved by
    /// `dossier merge`.
    Resolve {
        #[arg(add = complete::conflict_ids())]
        conflict_id: String,
        /// keep-current | keep-proposal
        #[arg(long, value_enum, conflicts_with = "from_file")]
        keep: Option<KeepArg>,
        /// Save this file's Distilled State instead.
        #[arg(long)]
        from_file: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KeepArg {
    Current,
    Proposal,
}

fn cmd_merge(source: &str, target: &str, flags: &[String], file: Option<&Path>, json: bool) -> Result<Output> {
    use std::io::IsTerminal;
    let app = App::open()?;
    let mut resolutions: Vec<crate::merge::ResolutionInput> =
        flags.iter().map(|f| crate::merge::parse_resolve_flag(f)).collect::<Result<_>>()?;
    if let Some(f) = file {
        let text = std::fs::read_to_string(f).map_err(|e| DossierError::io("read", f, e))?;
        let more: Vec<crate::merge::ResolutionInput> = serde_json::from_str(&text).map_err(|e| {
            DossierError::new(Code::InvalidInput, format!("{}: not a JSON list of resolutions: {e}", f.display()))
                .with_next(r#"[{"conflict_id": "conf-...", "choice": "keep_target"}]"#)
        })?;
        resolutions.extend(more);
    }
    let interactive =
        !json && resolutions.is_empty() && std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if interactive {
        let conflicts = crate::merge::conflicts(&app, source, target)?;
        for (i, c) in conflicts.iter().enumerate() {
            resolutions.push(ask_resolution(i + 1, conflicts.len(), c)?);
        }
    }
    let o = crate::merge::merge_with_progress(
        &app,
        source,
        target,
        &resolutions,
        "user:cli",
        &None,
        progress::for_cli().as_ref(),
    )?;
    let human = if o.already_merged {
        format!("{} was already merged into {}; nothing to do\n", o.source_slug, o.target_slug)
    } else {
        format!(
            "merged {} into {} ({} artifact(s) copied, {} conflict(s) resolved); {} is archived, its files kept\n",
            o.source_slug,
            o.target_slug,
            o.artifacts_copied.len(),
            o.conflicts_resolved.len(),
            o.source_slug
        )
    };
    let mut out = Output::new(crate::merge::outcome_json(&o), human);
    if let Some(w) = context::after_mutation(&app) {
        out.warnings.push(w);
    }
    out.next_actions.push(format!("dossier show {}", o.target_slug));
    Ok(out)
}

/// Walk one conflict on the terminal (stderr prompts, stdin answers).
fn ask_resolution(n: usize, total: usize, c: &crate::merge::ConflictView) -> Result<crate::merge::ResolutionInput> {
    use crate::merge::{ChoiceInput, ResolutionInput};
    use std::io::{BufRead, Write};
    let mut err = std::io::stderr().lock();
    let at = |l: u32| if l == 0 { "frontmatter".to_string() } else { format!("line {l}") };
    let _ = writeln!(err, "\nConflict {n}/{total} [{}] {}", c.kind, c.subject);
    let _ = writeln!(err, "  target ({}): {}", at(c.target.line), c.target.text.trim());
    let _ = writeln!(err, "  source ({}): {}", at(c.source.line), c.source.text.trim());
    let stdin = std::io::stdin();
    loop {
        let _ = write!(err, "Keep [t]arget, [s]ource, [b]oth, or [w]rite your own? ");
        let _ = err.flush();
        let mut line = String::new();
        if stdin.lock().read_line(&mut line).map_err(|e| DossierError::io("read", Path::new("stdin"), e))? == 0 {
            return Err(DossierError::new(Code::InvalidInput, "no answer (end of input); nothing was merged"));
        }
        let choice = match line.trim().to_ascii_lowercase().as_str() {
            "t" | "target" => ChoiceInput::KeepTarget,
            "s" | "source" => ChoiceInput::KeepSource,
            "b" | "both" => ChoiceInput::KeepBoth,
            "w" | "write" => {
                let _ =
                    writeln!(err, "Type the replacement (keep [src:...] markers); end with a line holding only `.`:");
                let mut text = String::new();
                for l in stdin.lock().lines() {
                    let l = l.map_err(|e| DossierError::io("read", Path::new("stdin"), e))?;
                    if l == "." {
                        break;
                    }
                    text.push_str(&l);
                    text.push('\n');
                }
                return Ok(ResolutionInput {
                    conflict_id: c.id.clone(),
                    choice: ChoiceInput::Custom,
                    text: Some(text),
                });
            }
            _ => continue,
        };
        return Ok(ResolutionInput { conflict_id: c.id.clone(), choice, text: None });
    }
}

fn cmd_conflicts(command: ConflictsCommand, _json: bool) -> Result<Output> {
    let app = App::open()?;
    match command {
        ConflictsCommand::List { target, all } => {
            let mut items = Vec::new();
            let mut human = String::new();
            for c in crate::conflicts::list(&app, target.as_deref(), all)? {
                human.push_str(&format!(
                    "{:<34} {:<15} {:<9} {}\n",
                    c.id,
                    c.kind,
                    if c.resolved { "resolved" } else { "open" },
                    c.summary
                ));
                items.push(serde_json::to_value(&c).expect("conflict serializes"));
            }
            if items.is_empty() {
                human.push_str("no open conflicts\n");
            }
            // On a terminal each line fits its width (the summary is last, so it is what is cut).
            let human = term::fit_lines(&human, term::stdout_width());
            Ok(Output::new(json!({ "conflicts": items }), human))
        }
        ConflictsCommand::Show { conflict_id } => {
            let (path, c) = crate::conflicts::find(&app, &conflict_id)?;
            let text = std::fs::read_to_string(&path).map_err(|e| DossierError::io("read", &path, e))?;
            let mut v = serde_json::to_value(&c).expect("conflict serializes");
            v["content"] = json!(text);
            Ok(Output::new(v, text))
        }
        ConflictsCommand::Resolve { conflict_id, keep, from_file } => {
            let choice = match (keep, from_file) {
                (Some(KeepArg::Current), _) => crate::conflicts::Choice::KeepCurrent,
                (Some(KeepArg::Proposal), _) => crate::conflicts::Choice::KeepProposal,
                (None, Some(f)) => crate::conflicts::Choice::Text(
                    std::fs::read_to_string(&f).map_err(|e| DossierError::io("read", &f, e))?,
                ),
                (None, None) => {
                    return Err(DossierError::new(Code::InvalidInput, "say how to resolve it")
                        .with_next(format!("dossier conflicts resolve {conflict_id} --keep current|proposal"))
                        .with_next(format!("dossier conflicts resolve {conflict_id} --from-file STATE.md")));
                }
            };
            let r = crate::conflicts::resolve(&app, &conflict_id, choice, "user:cli", &None)?;
            let human = format!("resolved {} ({}); {} is at {}\n", r.conflict_id, r.resolution, r.slug, r.revision);
            let mut out = Output::new(serde_json::to_value(&r).expect("resolution serializes"), human);
            if let Some(w) = context::after_mutation(&app) {
                out.warnings.push(w);
            }
            Ok(out)
        }
    }
}

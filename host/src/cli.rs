//! The command-line interface (SPEC §7): argument parsing (clap derive), dispatch to the
//! operation modules, and rendering — a readable table for people, the MCP envelope
//! (`ok`, `data`/`error`, `warnings`, `next_actions`) for `--json`.
//!
//! Not for: behaviour. Each command calls the one operation that MCP and hooks also use.
//! Commands of the SPEC's tree that later issues own say "not yet available" and exit 69;
//! they never pretend to succeed.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};

use crate::app::App;
use crate::context;
use crate::doctor::{self, Severity};
use crate::error::{Code, DossierError, Result};
use crate::files;
use crate::init;
use crate::listing::{self, Listing};
use crate::model::Status;

#[derive(Debug, Parser)]
#[command(
    name = "dossier",
    version,
    about = "Durable, provenance-carrying memory for long-running agent work.",
    long_about = "Durable, provenance-carrying memory for long-running agent work.\n\n\
                  The store lives in $DOSSIER_HOME, else ~/.dossier. Every read command takes --json.",
    after_help = "Exit codes: 0 ok, 1 failed check, 2 usage, 3 not_found, 4 conflict/ambiguity, 5 invalid input, \
                  6 policy_unavailable, 7 store_unavailable, 8 capability/target warning, 69 not yet available, 74 I/O."
)]
pub struct Cli {
    /// Print the result as JSON (the MCP envelope: ok, data or error, warnings, next_actions).
    #[arg(long, global = true)]
    pub json: bool,
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
    /// Create the store, default config, Distillation Guide and context library (idempotent).
    Init {
        /// Answer yes to every question (for scripts).
        #[arg(long)]
        yes: bool,
    },
    /// List open work in priority order.
    Ls {
        /// Statuses to show (repeatable); default active, waiting, blocked.
        #[arg(long, value_enum, num_args = 1..)]
        status: Vec<StatusFilter>,
    },
    /// Show a Dossier's frontmatter, token estimate and artifacts.
    Show { target: String },
    /// Create a new Dossier.
    Promote {
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        from_file: Option<PathBuf>,
    },
    /// Attach session content to a Dossier (candidates when no target is given).
    Link {
        target: Option<String>,
        #[arg(long)]
        from_file: Option<PathBuf>,
    },
    /// Merge SOURCE into TARGET (the survivor).
    Merge { source: String, target: String },
    /// Print the full Distilled State.
    Recall { target: String },
    /// Full-text search across every Dossier and artifact.
    Search {
        query: String,
        #[arg(long)]
        dossier: Option<String>,
    },
    /// Set lifecycle status.
    Status { target: String, status: Status },
    /// Set the lead.
    Lead { target: String, lead: String },
    /// Set the next action.
    Next { target: String, action: String },
    /// Edit open questions.
    Questions { target: String, op: QuestionsOp, questions: Vec<String> },
    /// Set importance, urgency and due date.
    Priority {
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
        #[arg(long)]
        session: Option<String>,
    },
    /// Bind a Dossier to the session.
    Switch {
        target: String,
        #[arg(long)]
        session: Option<String>,
    },
    /// Print the store root, or a Dossier's directory.
    Path { target: Option<String> },
    /// Archive a Dossier (hides it from the default view; deletes nothing).
    Archive { target: String },
    /// Context files.
    Context {
        #[command(subcommand)]
        command: ContextCommand,
    },
    /// Check the store, config, policy components and context files.
    Doctor,
    /// Run the MCP server over stdio.
    Mcp,
    /// Handle a Claude Code hook event (reads the event JSON on stdin).
    Hook { event: String },
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
    let cli = Cli::parse();
    let json = cli.json;
    match dispatch(cli.command) {
        Ok(out) => {
            if json {
                let envelope = json!({
                    "ok": out.exit == 0,
                    "data": out.data,
                    "warnings": out.warnings,
                    "next_actions": out.next_actions,
                });
                println!("{}", serde_json::to_string_pretty(&envelope).expect("JSON values serialize"));
            } else {
                print!("{}", out.human);
                for w in &out.warnings {
                    eprintln!("warning: {w}");
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
                println!("{}", serde_json::to_string_pretty(&envelope).expect("JSON values serialize"));
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

fn not_yet(command: &str, owner: &str) -> Result<Output> {
    Err(DossierError::new(
        Code::NotYetAvailable,
        format!("`dossier {command}` is not yet available in this build ({owner}); nothing was changed"),
    ))
}

fn dispatch(command: Command) -> Result<Output> {
    match command {
        Command::Init { yes: _ } => cmd_init(),
        Command::Ls { status } => cmd_ls(&status),
        Command::Path { target } => cmd_path(target.as_deref()),
        Command::Context { command: ContextCommand::Refresh } => cmd_context_refresh(),
        Command::Doctor => cmd_doctor(),
        Command::Show { .. } => not_yet("show", "arrives with the file store"),
        Command::Promote { .. } => not_yet("promote", "arrives with the file store"),
        Command::Status { .. } => not_yet("status", "arrives with the file store"),
        Command::Lead { .. } => not_yet("lead", "arrives with the file store"),
        Command::Next { .. } => not_yet("next", "arrives with the file store"),
        Command::Questions { .. } => not_yet("questions", "arrives with the file store"),
        Command::Priority { .. } => not_yet("priority", "arrives with the file store"),
        Command::Archive { .. } => not_yet("archive", "arrives with the file store"),
        Command::Recall { .. } => not_yet("recall", "arrives with recall and token estimation"),
        Command::Search { .. } => not_yet("search", "arrives with full-text search"),
        Command::Link { .. } => not_yet("link", "arrives with suggestion ranking"),
        Command::Merge { .. } => not_yet("merge", "arrives with merge conflict detection"),
        Command::Active { .. } => not_yet("active", "arrives with session binding"),
        Command::Switch { .. } => not_yet("switch", "arrives with session binding"),
        Command::Mcp => not_yet("mcp", "arrives with the MCP server"),
        Command::Hook { .. } => not_yet("hook", "arrives with the Claude Code integration"),
    }
}

fn cmd_init() -> Result<Output> {
    let report = init::run()?;
    let mut human = format!("Dossier initialized at {}\n\n", report.store);
    for (path, outcome) in &report.files {
        human.push_str(&format!("  {outcome:<22} {path}\n"));
    }
    human.push_str("\nPolicy components:\n");
    for (iface, source, cache) in &report.policies {
        human.push_str(&format!("  {iface:<9} {source} ({cache})\n"));
    }
    human.push_str(
        "\nClaude Code integration:\n  - not registered by this build (MCP server and hooks are not yet available)\n",
    );
    let warnings = report.warnings.clone();
    let mut out = Output::new(serde_json::to_value(&report).expect("report serializes"), human);
    out.warnings = warnings;
    Ok(out)
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
    let human = render_table(&listing);
    let mut out = Output::new(json!({ "dossiers": listing.dossiers }), human);
    out.warnings = listing.warnings;
    Ok(out)
}

fn truncate(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(width.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

fn render_table(listing: &Listing) -> String {
    if listing.dossiers.is_empty() {
        return "No dossiers match. Create one with `dossier promote --name <name>`.\n".to_string();
    }
    let mut s = format!("{:<3} {:<8} {:>5}  {:<28} {}\n", "PRI", "STATUS", "STALE", "DOSSIER", "NEXT ACTION");
    for d in &listing.dossiers {
        s.push_str(&format!(
            "{:<3} {:<8} {:>4}d  {:<28} {}\n",
            d.priority_score,
            d.status.as_str(),
            d.staleness_days,
            truncate(&d.slug, 28),
            truncate(&d.next_action, 60)
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
    let outcome = files::write_if_changed(&path, &context::current_library(&app)?)?;
    Ok(Output::new(
        json!({ "path": path, "outcome": outcome.as_str() }),
        format!("{} {}\n", outcome.as_str(), path.display()),
    ))
}

fn cmd_doctor() -> Result<Output> {
    let report = doctor::run()?;
    let mut human = format!("dossier doctor: {}\n", report.store.display());
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
            human.push_str(&format!("      file: {}\n", f.display()));
        }
        if let Some(fix) = &c.fix {
            human.push_str(&format!("      fix:  {fix}\n"));
        }
    }
    human.push_str(&format!("{} error(s), {} warning(s)\n", report.errors(), report.warnings()));
    let exit = if report.errors() > 0 { 1 } else { 0 };
    let mut out = Output::new(serde_json::to_value(&report).expect("report serializes"), human);
    out.exit = exit;
    Ok(out)
}

//! The command line's grammar: the clap derive definitions of `dossier` and every
//! subcommand (names, flags, help text, value enums, completion hooks), and the conversions
//! from the CLI's value enums to the data model's types.
//!
//! Not for: running a command (each command group's module does that) or rendering. `--help`,
//! the man pages and the shell completions are generated from these definitions, so every
//! change here is a user-visible change.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::complete;
use dossier_store::model::{ArtifactType, Level, Status};

#[derive(Debug, Parser)]
#[command(
    name = "dossier",
    version,
    about = "Durable, provenance-carrying memory for long-running agent work.",
    long_about = "Durable, provenance-carrying memory for long-running agent work.\n\n\
                  The store lives in $DOSSIER_HOME, else ~/.dossier. Every read command takes --json.",
    after_help = "Exit codes: 0 ok, 1 failed check, 2 usage, 3 not_found, 4 conflict/ambiguity, 5 invalid input, \
                  6 policy_unavailable, 7 store_unavailable, 8 capability/target warning, 9 codecall session refuses \
                  the request now, 10 sync remote unreachable, 11 sync push rejected, 12 another sync running, \
                  65 corrupt codecall log, 74 I/O."
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

/// A lifecycle status as the command line spells it (`dossier status`, `dossier save
/// --status`): the five values of [`Status`], which the data model keeps free of clap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatusArg {
    Active,
    Waiting,
    Blocked,
    Resolved,
    Archived,
}

/// Artifact types on the command line (`dossier_store::model::ArtifactType` without clap).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ArtifactTypeArg {
    Transcript,
    SourceSnapshot,
    FileSnapshot,
    Link,
    Query,
    DecisionEvidence,
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
        /// The Dossier: its slug or `dos_` id.
        #[arg(add = complete::dossier_slugs())]
        target: String,
    },
    /// Create a new Dossier (checks for likely existing matches first).
    Promote {
        /// The new Dossier's display name (its slug is made from it).
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
        /// The Dossier to attach to (slug or id); omit it to see the top candidates.
        #[arg(add = complete::dossier_slugs())]
        target: Option<String>,
        /// The session content to attach (or to find candidates for).
        #[arg(long)]
        from_file: Option<PathBuf>,
    },
    /// Merge SOURCE into TARGET (the survivor). On a terminal, asks about each certain
    /// conflict, then shows the possible ones as one checklist (both kept unless picked);
    /// otherwise conflicts come back as `conflict_detected` (exit 4) for --resolve.
    Merge {
        /// The Dossier merged away (slug or id); it is archived afterwards, never deleted.
        #[arg(add = complete::dossier_slugs())]
        source: String,
        /// The surviving Dossier (slug or id).
        #[arg(add = complete::dossier_slugs())]
        target: String,
        /// Resolve a conflict: ID=keep-target|keep-source|keep-both|custom:<text> (repeatable).
        #[arg(long, value_name = "ID=CHOICE")]
        resolve: Vec<String>,
        /// A JSON file with resolutions: [{"conflict_id", "choice", "text"?}].
        #[arg(long, value_name = "FILE")]
        resolutions: Option<PathBuf>,
        /// Keep both claims of every possible conflict (related claims) not resolved
        /// otherwise; certain conflicts still need --resolve.
        #[arg(long)]
        keep_both_possible: bool,
    },
    /// Conflict files: concurrent edits and merge conflicts kept in `conflicts/`.
    Conflicts {
        #[command(subcommand)]
        command: ConflictsCommand,
    },
    /// Print the full Distilled State (never truncated; over-target warns).
    Recall {
        /// The Dossier: its slug or `dos_` id.
        #[arg(add = complete::dossier_slugs())]
        target: String,
        /// Return only this page (1-based) of at most 40,000 bytes, split on line boundaries.
        #[arg(long)]
        page: Option<usize>,
    },
    /// Search every Dossier and artifact (archived ones too): ranked by relevance, or exact.
    ///
    /// Ranked (default): words in any order and form, "quoted phrases", -exclusions and the
    /// filters status:<status>, dossier:<slug>, in:<section> (situation, decisions, findings,
    /// current-state, next-steps, name, next-action, open-questions), kind:artifact|dossier.
    Search {
        /// What to find (ranked query; exact text with --literal, a regular expression with --regex).
        query: String,
        /// Only this Dossier.
        #[arg(long, add = complete::dossier_slugs())]
        dossier: Option<String>,
        /// Exact text, smart case, every matching line (no ranking).
        #[arg(long, conflicts_with = "regex")]
        literal: bool,
        /// A regular expression, smart case, every matching line (no ranking).
        #[arg(long)]
        regex: bool,
        /// At most this many Dossiers (ranked, default 10) or hits (exact, default 50).
        #[arg(long)]
        limit: Option<usize>,
        /// Ranked: skip this many Dossiers (the next page).
        #[arg(long, default_value_t = 0, conflicts_with_all = ["literal", "regex"])]
        offset: usize,
    },
    /// Set lifecycle status.
    Status {
        /// The Dossier: its slug or `dos_` id.
        #[arg(add = complete::dossier_slugs())]
        target: String,
        /// The new status.
        status: StatusArg,
    },
    /// Set the lead.
    Lead {
        /// The Dossier: its slug or `dos_` id.
        #[arg(add = complete::dossier_slugs())]
        target: String,
        /// Who leads the work.
        lead: String,
    },
    /// Set the next action.
    Next {
        /// The Dossier: its slug or `dos_` id.
        #[arg(add = complete::dossier_slugs())]
        target: String,
        /// The next action.
        action: String,
    },
    /// Edit open questions.
    Questions {
        /// The Dossier: its slug or `dos_` id.
        #[arg(add = complete::dossier_slugs())]
        target: String,
        /// add appends, set replaces the list, clear empties it.
        op: QuestionsOp,
        /// The questions (for add and set).
        questions: Vec<String>,
    },
    /// Set importance, urgency and due date.
    Priority {
        /// The Dossier: its slug or `dos_` id.
        #[arg(add = complete::dossier_slugs())]
        target: String,
        /// high or low (h, l).
        #[arg(long, value_enum)]
        importance: LevelArg,
        /// high or low (h, l).
        #[arg(long, value_enum)]
        urgency: LevelArg,
        /// Due date, YYYY-MM-DD.
        #[arg(long)]
        due: Option<String>,
    },
    /// Show the session's active Dossier.
    Active {
        /// The harness session id (default: CLAUDE_CODE_SESSION_ID).
        #[arg(long, add = complete::session_ids())]
        session: Option<String>,
    },
    /// Bind a Dossier to the session.
    Switch {
        /// The Dossier to bind (slug or id).
        #[arg(add = complete::dossier_slugs())]
        target: String,
        /// The harness session id (default: CLAUDE_CODE_SESSION_ID).
        #[arg(long, add = complete::session_ids())]
        session: Option<String>,
    },
    /// Save a new Distilled State and/or fields against a base revision (the CLI form of
    /// the `dossier_save` tool; see `dossier save --help`).
    Save {
        /// The Dossier: its slug or `dos_` id.
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
        status: Option<StatusArg>,
        /// Capture a file as an artifact (repeatable).
        #[arg(long)]
        artifact: Vec<PathBuf>,
        /// Type of the captured artifacts.
        #[arg(long, value_enum, default_value = "file-snapshot")]
        artifact_type: ArtifactTypeArg,
    },
    /// Print the store root, or a Dossier's directory.
    Path {
        /// A Dossier (slug or id); default: the store root.
        #[arg(add = complete::dossier_slugs())]
        target: Option<String>,
    },
    /// Archive a Dossier (hides it from the default view; deletes nothing).
    Archive {
        /// The Dossier: its slug or `dos_` id.
        #[arg(add = complete::dossier_slugs())]
        target: String,
    },
    /// Replace the secrets already stored in a Dossier with redaction markers (the fix
    /// `dossier doctor` names).
    ///
    /// Rewrites its `dossier.md`, text artifacts and conflict files through the Save path: one
    /// new revision, audited as `artifact_redacted`. Artifacts keep their ids and line numbers;
    /// nothing is removed. A second run changes nothing.
    #[command(group(clap::ArgGroup::new("which").required(true).args(["target", "all"])))]
    Redact {
        /// The Dossier: its slug or `dos_` id.
        #[arg(add = complete::dossier_slugs())]
        target: Option<String>,
        /// Every Dossier of the store.
        #[arg(long)]
        all: bool,
    },
    /// Sync the store through your own git (docs/sync.md): with no subcommand, commit this
    /// machine's changes, fetch, merge with Dossier's rules (never last-write-wins for a
    /// Distilled State: a divergence becomes a conflict file), and push (never forced).
    /// Exit codes: 0 synced, 7 not synced, 8 git missing or too old, 10 remote unreachable,
    /// 11 push rejected, 12 another sync is running.
    Sync {
        /// Start the sync as a detached process and return at once (what the `sync.auto` hooks
        /// do); its output goes to .sync/background.log, its result to `dossier doctor`.
        #[arg(long)]
        background: bool,
        #[command(subcommand)]
        command: Option<SyncCommand>,
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
    /// the session, merge, and resolve conflicts (keyboard only; each screen's footer lists its keys).
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
    /// Print the shell completion script (Dossier slugs are completed from the store), e.g.
    /// `source <(dossier completions bash)` in ~/.bashrc.
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
    /// orders (`submit`), the user answers gates (`answer`); `dossier codecall <command> --help`
    /// for each command, or `dossier man` for the manual.
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
        /// The directory to write the plugin into (created if missing).
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
        /// The implementation is BASE..HEAD, or with BASE alone the work since BASE (its commits
        /// and the uncommitted changes); default: located (this agent session's starting HEAD,
        /// its edited files, the uncommitted changes, else the last commit).
        #[arg(long, value_name = "REV")]
        base: Option<String>,
        /// The implementation is the diff BASE..HEAD (needs --base).
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
        /// Consent to fetching the pinned packages' official documentation pages for this
        /// session (only when `codecall.privacy_mode` is `allow-doc-fetch`; default: offline).
        #[arg(long)]
        allow_doc_fetch: bool,
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

#[derive(Debug, Subcommand)]
pub enum SyncCommand {
    /// First machine: make the store a git repository (or adopt it), write .gitignore for this
    /// machine's state, commit, add the remote as `origin` and push. Refuses while stored
    /// secrets would be pushed (exit 4) and when the remote already holds another history
    /// (unless `--join`).
    Init {
        /// The remote: any URL or path your git can push to (ssh://, https://, file://).
        remote: String,
        /// Push secrets `dossier doctor` finds stored in plain text instead of refusing.
        #[arg(long)]
        allow_secrets: bool,
        /// The remote already holds another store's history: merge this store's Dossiers with
        /// it (the same slug on both: one renamed, SPEC §12.2; nothing is lost), then push.
        #[arg(long)]
        join: bool,
    },
    /// Another machine: make the store (DOSSIER_HOME, absent or empty) from the remote; then
    /// run `dossier init` to register the hooks.
    Clone {
        /// The remote the first machine ran `dossier sync init` with.
        remote: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum ConflictsCommand {
    /// Conflict files of one Dossier, or of every Dossier.
    List {
        /// Only this Dossier's conflicts (slug or id).
        #[arg(add = complete::dossier_slugs())]
        target: Option<String>,
        /// Include resolved ones.
        #[arg(long)]
        all: bool,
    },
    /// Print one conflict file.
    Show {
        /// The conflict's id (`dossier conflicts list` shows them).
        #[arg(add = complete::conflict_ids())]
        conflict_id: String,
    },
    /// Resolve a concurrent-edit conflict: keep the current state, or save the proposal (or
    /// your own text) on top of it through the Save path. Merge conflicts are resolved by
    /// `dossier merge`.
    Resolve {
        /// The concurrent-edit conflict's id (`dossier conflicts list` shows them).
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

impl From<LevelArg> for Level {
    fn from(l: LevelArg) -> Level {
        match l {
            LevelArg::High => Level::High,
            LevelArg::Low => Level::Low,
        }
    }
}

impl From<ArtifactTypeArg> for ArtifactType {
    fn from(t: ArtifactTypeArg) -> ArtifactType {
        match t {
            ArtifactTypeArg::Transcript => ArtifactType::Transcript,
            ArtifactTypeArg::SourceSnapshot => ArtifactType::SourceSnapshot,
            ArtifactTypeArg::FileSnapshot => ArtifactType::FileSnapshot,
            ArtifactTypeArg::Link => ArtifactType::Link,
            ArtifactTypeArg::Query => ArtifactType::Query,
            ArtifactTypeArg::DecisionEvidence => ArtifactType::DecisionEvidence,
        }
    }
}

impl From<StatusArg> for Status {
    fn from(s: StatusArg) -> Status {
        match s {
            StatusArg::Active => Status::Active,
            StatusArg::Waiting => Status::Waiting,
            StatusArg::Blocked => Status::Blocked,
            StatusArg::Resolved => Status::Resolved,
            StatusArg::Archived => Status::Archived,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command line accepts exactly the data model's statuses, spelled as stored, in order.
    #[test]
    fn status_arg_values_are_the_model_statuses() {
        let names: Vec<String> =
            StatusArg::value_variants().iter().map(|v| v.to_possible_value().unwrap().get_name().to_string()).collect();
        let model: Vec<&str> = Status::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, model);
        for v in StatusArg::value_variants() {
            let name = v.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(Status::from(*v).as_str(), name);
        }
    }
}

#[cfg(test)]
mod help_tests {
    use clap::CommandFactory;

    /// Every argument of every subcommand (`<TARGET>`, `--name`, `--due`, ...) says what it is
    /// in `--help` (issue 18 defect 14).
    #[test]
    fn every_argument_has_help_text() {
        fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for a in cmd.get_arguments() {
                let id = a.get_id().as_str();
                if a.is_hide_set() || id == "help" || id == "version" {
                    continue;
                }
                if a.get_help().is_none() && a.get_long_help().is_none() {
                    missing.push(format!("{path} {id}"));
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut missing = Vec::new();
        walk(&super::Cli::command(), "dossier", &mut missing);
        assert!(missing.is_empty(), "arguments without help text:\n{}", missing.join("\n"));
    }
}

//! Registering dossier in Claude Code's config files and removing it again: [`plan`] reads
//! both files and plans the edits of our entries (`dossier init`, `dossier init --remove`);
//! [`apply`] writes them, each changed file backed up first, then replaced atomically.
//!
//! Invariants:
//! - **Never clobber.** Only our entries (see `entries`) are added, changed or removed;
//!   everything else in both files survives byte for byte (edits go through the CST; one
//!   limit: an object or array written on a single line that we add to is re-flowed).
//! - **Recognised by command, updated in place.** A changed binary path rewrites our entry
//!   instead of adding a second; duplicates are removed; an older build's entry in the wrong
//!   file is moved (only when both files can be edited).
//! - **Backup, then atomic write**; a plan that changes nothing writes nothing.
//! - A file that cannot be read or edited is a [`FileProblem`] and left alone; the other
//!   file may still be planned.
//!
//! Not for: asking the user, self-install or the report (`init`), or reading what is
//! registered (`inspect`).

use std::fs;
use std::path::{Path, PathBuf};

use jsonc_parser::cst::{CstArray, CstInputValue, CstObject, CstObjectProp};
use serde::Serialize;
use serde_json::{Value, json};

use crate::claude_code::entries::{
    HookEvent, OurHook, SERVER_NAME, hook_command, hook_entry, is_our_server, mcp_entry, our_hook,
};
use crate::claude_code::jsonc::{
    Doc, EditResult, FileProblem, Loaded, input, load, new_doc, object_at, prop_value, string_of,
};
use crate::claude_code::paths::Paths;
use crate::claude_code::shell_words::shell_quote;
use dossier_store::error::{DossierError, Result};
use dossier_store::files;

/// What `dossier init` is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Register the MCP server and hooks running `binary`.
    Register { binary: PathBuf },
    /// Remove our entries (`init --remove`).
    Remove,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Add,
    Update,
    Remove,
}

/// One planned (or applied) change to one of our entries.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    pub file: PathBuf,
    pub action: Action,
    /// Where, as a JSON path: `mcpServers.dossier`, `hooks.SessionStart`, ....
    pub at: String,
    /// The entry added or removed, or an update's new value.
    pub value: Value,
    /// An update's previous value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous: Option<Value>,
    /// Why, when it is not plain (`moved to ...`, `duplicate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Change {
    /// One line: `+ mcpServers.dossier = {...}`, `~ ... : "old" -> "new"`, `- ...`.
    pub fn describe(&self) -> String {
        let value = compact(&self.value);
        let reason = self.reason.as_ref().map(|r| format!(" ({r})")).unwrap_or_default();
        match self.action {
            Action::Add => format!("+ {} = {value}{reason}", self.at),
            Action::Update => {
                format!("~ {}: {} -> {value}{reason}", self.at, self.previous.as_ref().map(compact).unwrap_or_default())
            }
            Action::Remove => format!("- {} = {value}{reason}", self.at),
        }
    }
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).expect("JSON values serialize")
}

/// Planned edits of both files.
#[derive(Debug, Default)]
pub struct Plan {
    pub files: Vec<FilePlan>,
    /// Files left alone because they could not be read or edited.
    pub problems: Vec<FileProblem>,
    /// Things the plan deliberately does not touch (e.g. a foreign `mcpServers.dossier`).
    pub warnings: Vec<String>,
}

impl Plan {
    pub fn changes(&self) -> Vec<Change> {
        self.files.iter().flat_map(|f| f.changes.iter().cloned()).collect()
    }

    pub fn is_empty(&self) -> bool {
        self.files.iter().all(|f| f.changes.is_empty())
    }

    /// The plan as people read it: per file, one line per change.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for f in self.files.iter().filter(|f| !f.changes.is_empty()) {
            let note = if f.original.is_none() { " (will be created)" } else { "" };
            s.push_str(&format!("  {}{note}\n", f.path.display()));
            for c in &f.changes {
                s.push_str(&format!("    {}\n", c.describe()));
            }
        }
        s
    }
}

/// One file's edit.
#[derive(Debug)]
pub struct FilePlan {
    /// The path Claude Code reads.
    pub path: PathBuf,
    /// The file actually replaced (a symlink's target).
    pub write_to: PathBuf,
    /// `None`: the file does not exist yet.
    pub original: Option<String>,
    pub text: String,
    pub changes: Vec<Change>,
    permissions: Option<fs::Permissions>,
}

/// Edits of one document, collected.
struct Edits<'a> {
    file: &'a Path,
    changes: Vec<Change>,
    warnings: Vec<String>,
}

impl Edits<'_> {
    fn push(&mut self, action: Action, at: String, value: Value, previous: Option<Value>, reason: Option<String>) {
        self.changes.push(Change { file: self.file.to_path_buf(), action, at, value, previous, reason });
    }
}

/// `mcpServers.dossier` added, or its command updated in place.
fn ensure_mcp(obj: &CstObject, binary: &str, carried_env: Option<Value>, edits: &mut Edits) -> EditResult {
    let mut entry = mcp_entry(Path::new(binary));
    if let Some(env) = carried_env {
        entry["env"] = env;
    }
    let at = format!("mcpServers.{SERVER_NAME}");
    let Some((_, servers)) = object_at(obj, "mcpServers", "mcpServers")? else {
        obj.append("mcpServers", CstInputValue::Object(vec![(SERVER_NAME.to_string(), input(&entry))]));
        edits.push(Action::Add, at, entry, None, None);
        return Ok(());
    };
    let Some(prop) = servers.get(SERVER_NAME) else {
        servers.append(SERVER_NAME, input(&entry));
        edits.push(Action::Add, at, entry, None, None);
        return Ok(());
    };
    if !is_our_server(&prop_value(&prop)) {
        edits.warnings.push(format!(
            "{}: mcpServers.{SERVER_NAME} is not an entry dossier wrote (it does not run `dossier mcp`), so it was left \
             alone and the dossier MCP server is not registered. Rename or remove it, then run `dossier init` again.",
            edits.file.display()
        ));
        return Ok(());
    }
    let server = prop.object_value().expect("is_our_server saw an object");
    match server.get("command") {
        Some(c) if string_of(c.value()).as_deref() == Some(binary) => {}
        Some(c) => {
            let previous = prop_value(&c);
            c.set_value(CstInputValue::String(binary.to_string()));
            edits.push(Action::Update, format!("{at}.command"), json!(binary), Some(previous), None);
        }
        None => {
            server.append("command", CstInputValue::String(binary.to_string()));
            edits.push(Action::Add, format!("{at}.command"), json!(binary), None, None);
        }
    }
    Ok(())
}

/// Remove our `mcpServers.dossier`; returns its `env` (carried over when it moves).
fn remove_mcp(obj: &CstObject, reason: Option<String>, edits: &mut Edits) -> Option<Value> {
    let servers_prop = obj.get("mcpServers")?;
    let servers = servers_prop.object_value()?;
    let prop = servers.get(SERVER_NAME)?;
    let value = prop_value(&prop);
    if !is_our_server(&value) {
        return None;
    }
    prop.remove();
    if servers.properties().is_empty() {
        servers_prop.remove();
    }
    let env = value.get("env").cloned();
    edits.push(Action::Remove, format!("mcpServers.{SERVER_NAME}"), value, None, reason);
    env
}

/// One of our commands inside a hook entry of an event's array.
struct FoundHook {
    entry: CstObject,
    inner: CstArray,
    item: CstObject,
    command_prop: CstObjectProp,
    command: String,
    parsed: OurHook,
}

fn our_hooks_in(arr: &CstArray) -> Vec<FoundHook> {
    let mut found = Vec::new();
    for el in arr.elements() {
        let Some(entry) = el.as_object() else { continue };
        let Some(inner) = entry.get("hooks").and_then(|p| p.array_value()) else { continue };
        for it in inner.elements() {
            let Some(item) = it.as_object() else { continue };
            let Some(command_prop) = item.get("command") else { continue };
            let Some(command) = string_of(command_prop.value()) else { continue };
            if let Some(parsed) = our_hook(&command) {
                found.push(FoundHook {
                    entry: entry.clone(),
                    inner: inner.clone(),
                    item,
                    command_prop,
                    command,
                    parsed,
                });
            }
        }
    }
    found
}

/// Remove one of our commands; drop its entry if that left the entry's `hooks` empty.
/// Returns what was removed (the entry, or just the command's object).
fn remove_found(f: FoundHook) -> Value {
    let entry = f.entry.to_serde_value().unwrap_or(Value::Null);
    let item = f.item.to_serde_value().unwrap_or(Value::Null);
    f.item.remove();
    if f.inner.elements().is_empty() {
        f.entry.remove();
        entry
    } else {
        item
    }
}

/// Our hook for `event` added, or its binary updated in place; duplicates removed.
fn ensure_hook(obj: &CstObject, event: HookEvent, binary: &str, edits: &mut Edits) -> EditResult {
    let command = hook_command(Path::new(binary), event);
    let entry = hook_entry(&command);
    let at = format!("hooks.{}", event.key());
    let Some((_, hooks)) = object_at(obj, "hooks", "hooks")? else {
        obj.append("hooks", CstInputValue::Object(vec![(event.key().to_string(), input(&json!([entry])))]));
        edits.push(Action::Add, at, entry, None, None);
        return Ok(());
    };
    let arr = match hooks.get(event.key()) {
        None => {
            hooks.append(event.key(), input(&json!([entry])));
            edits.push(Action::Add, at, entry, None, None);
            return Ok(());
        }
        Some(prop) => prop.array_value().ok_or_else(|| format!("has `{at}` that is not a JSON array"))?,
    };
    let mut found = our_hooks_in(&arr).into_iter().filter(|f| f.parsed.event == event.arg());
    let Some(first) = found.next() else {
        arr.append(input(&entry));
        edits.push(Action::Add, at, entry, None, None);
        return Ok(());
    };
    let duplicates: Vec<FoundHook> = found.collect();
    if first.parsed.binary != binary {
        let (a, b) = first.parsed.span;
        let updated = format!("{}{}{}", &first.command[..a], shell_quote(binary), &first.command[b..]);
        first.command_prop.set_value(CstInputValue::String(updated.clone()));
        edits.push(Action::Update, format!("{at}[].hooks[].command"), json!(updated), Some(json!(first.command)), None);
    }
    let mut removed: Vec<Value> = duplicates.into_iter().rev().map(remove_found).collect();
    removed.reverse();
    for value in removed {
        edits.push(Action::Remove, at.clone(), value, None, Some("duplicate".into()));
    }
    Ok(())
}

/// Remove every one of our hook commands (any event) under `hooks`, dropping what that
/// empties: the entry, the event's array, `hooks` itself.
fn remove_hooks(obj: &CstObject, reason: Option<String>, edits: &mut Edits) {
    let Some(hooks_prop) = obj.get("hooks") else { return };
    let Some(hooks) = hooks_prop.object_value() else { return };
    let mut removed_any = false;
    for prop in hooks.properties() {
        let Some(arr) = prop.array_value() else { continue };
        let key = prop.decoded_name().unwrap_or_default();
        let found = our_hooks_in(&arr);
        if found.is_empty() {
            continue;
        }
        removed_any = true;
        let mut removed: Vec<Value> = found.into_iter().rev().map(remove_found).collect();
        removed.reverse();
        for value in removed {
            edits.push(Action::Remove, format!("hooks.{key}"), value, None, reason.clone());
        }
        if arr.elements().is_empty() {
            prop.remove();
        }
    }
    if removed_any && hooks.properties().is_empty() {
        hooks_prop.remove();
    }
}

/// Plan the edits of both files for `mode`. Reads the files; writes nothing.
pub fn plan(paths: &Paths, mode: &Mode) -> Plan {
    let first = plan_once(paths, mode, true, true);
    // A move needs both ends: if either file cannot be edited, keep what is in the other.
    let failed = |f: &Path| first.problems.iter().any(|p| p.file == f);
    let (claude_failed, settings_failed) = (failed(&paths.claude_json), failed(&paths.settings_json));
    if matches!(mode, Mode::Register { .. }) && (claude_failed || settings_failed) {
        plan_once(paths, mode, !claude_failed, !settings_failed)
    } else {
        first
    }
}

/// One planning pass. `move_mcp`: take our server out of settings.json (it goes to
/// ~/.claude.json); `move_hooks`: take our hooks out of ~/.claude.json (they go to
/// settings.json).
fn plan_once(paths: &Paths, mode: &Mode, move_mcp: bool, move_hooks: bool) -> Plan {
    let mut plan = Plan::default();
    let settings = load(&paths.settings_json);
    let claude = load(&paths.claude_json);
    let mut carried_env = None;

    // settings.json first: an MCP entry an older build put there moves to ~/.claude.json.
    let settings_doc = match (settings, mode) {
        (Loaded::Problem(p), _) => {
            plan.problems.push(p);
            None
        }
        (Loaded::Missing, Mode::Remove) => None,
        (Loaded::Missing, Mode::Register { .. }) => Some(new_doc(&paths.settings_json)),
        (Loaded::Doc(d), _) => Some(d),
    };
    if let Some(doc) = settings_doc {
        let mut edits = Edits { file: &paths.settings_json, changes: Vec::new(), warnings: Vec::new() };
        let obj = doc.root.object_value_or_set();
        let result: EditResult<Option<Value>> = (|| {
            let moved = format!("moved to {}", paths.claude_json.display());
            match mode {
                Mode::Register { binary } => {
                    let env = if move_mcp { remove_mcp(&obj, Some(moved), &mut edits) } else { None };
                    let binary = binary.to_string_lossy();
                    for event in HookEvent::ALL {
                        ensure_hook(&obj, event, &binary, &mut edits)?;
                    }
                    Ok(env)
                }
                Mode::Remove => {
                    remove_mcp(&obj, None, &mut edits);
                    remove_hooks(&obj, None, &mut edits);
                    Ok(None)
                }
            }
        })();
        match result {
            Ok(env) => {
                carried_env = env;
                plan.warnings.append(&mut edits.warnings);
                plan.files.push(finish(doc, edits.changes));
            }
            Err(problem) => plan.problems.push(FileProblem { file: paths.settings_json.clone(), problem }),
        }
    }

    let claude_doc = match (claude, mode) {
        (Loaded::Problem(p), _) => {
            plan.problems.push(p);
            None
        }
        (Loaded::Missing, Mode::Remove) => None,
        (Loaded::Missing, Mode::Register { .. }) => Some(new_doc(&paths.claude_json)),
        (Loaded::Doc(d), _) => Some(d),
    };
    if let Some(doc) = claude_doc {
        let mut edits = Edits { file: &paths.claude_json, changes: Vec::new(), warnings: Vec::new() };
        let obj = doc.root.object_value_or_set();
        let result: EditResult = (|| {
            match mode {
                Mode::Register { binary } => {
                    // Hooks an older build put here move to settings.json.
                    if move_hooks {
                        remove_hooks(&obj, Some(format!("moved to {}", paths.settings_json.display())), &mut edits);
                    }
                    ensure_mcp(&obj, &binary.to_string_lossy(), carried_env, &mut edits)?;
                }
                Mode::Remove => {
                    remove_hooks(&obj, None, &mut edits);
                    remove_mcp(&obj, None, &mut edits);
                }
            }
            Ok(())
        })();
        match result {
            Ok(()) => {
                plan.warnings.append(&mut edits.warnings);
                plan.files.push(finish(doc, edits.changes));
            }
            Err(problem) => plan.problems.push(FileProblem { file: paths.claude_json.clone(), problem }),
        }
    }
    // ~/.claude.json first in every listing: it is the file people know.
    plan.files.reverse();
    plan
}

fn finish(doc: Doc, changes: Vec<Change>) -> FilePlan {
    let mut text = doc.root.to_string();
    if doc.original.is_none() && !text.ends_with('\n') {
        text.push('\n');
    }
    let changes = if doc.original.as_deref() == Some(text.as_str()) { Vec::new() } else { changes };
    FilePlan {
        path: doc.path,
        write_to: doc.write_to,
        original: doc.original,
        text,
        changes,
        permissions: doc.permissions,
    }
}

/// The backup file name for `path` at `stamp` (`<file>.dossier-backup-<stamp>`), one that
/// does not exist yet.
fn backup_path(path: &Path, stamp: &str) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let base = path.with_file_name(format!("{name}.dossier-backup-{stamp}"));
    let mut candidate = base.clone();
    let mut n = 1;
    while fs::symlink_metadata(&candidate).is_ok() {
        n += 1;
        candidate = PathBuf::from(format!("{}-{n}", base.display()));
    }
    candidate
}

/// `20261130T072300Z`: the current UTC time for backup names.
pub fn backup_stamp() -> String {
    let now = time::OffsetDateTime::now_utc();
    now.format(time::macros::format_description!("[year][month][day]T[hour][minute][second]Z"))
        .expect("UTC timestamps format")
}

/// What [`apply`] wrote.
#[derive(Debug, Default, Serialize)]
pub struct Applied {
    pub changes: Vec<Change>,
    pub backups: Vec<PathBuf>,
    /// Files that could not be written (the other file may still have been).
    pub failures: Vec<String>,
}

/// Write `plan`: per changed file, a backup of the current content next to it, then the new
/// content atomically (keeping the file's permissions).
pub fn apply(plan: &Plan, stamp: &str) -> Applied {
    let mut applied = Applied::default();
    for f in plan.files.iter().filter(|f| !f.changes.is_empty()) {
        let result = (|| -> Result<Option<PathBuf>> {
            let mut backup = None;
            if let Some(original) = &f.original {
                let b = backup_path(&f.path, stamp);
                files::write_atomic(&b, original.as_bytes())?;
                backup = Some(b);
            } else if let Some(dir) = f.write_to.parent() {
                fs::create_dir_all(dir).map_err(|e| DossierError::io("create", dir, e))?;
            }
            files::write_atomic_with_permissions(&f.write_to, f.text.as_bytes(), f.permissions.clone())?;
            Ok(backup)
        })();
        match result {
            Ok(backup) => {
                applied.backups.extend(backup);
                applied.changes.extend(f.changes.iter().cloned());
            }
            Err(e) => applied.failures.push(format!("{} was not updated: {}", f.path.display(), e.message)),
        }
    }
    applied
}

//! Sync through the user's git (issue 23, docs/sync.md): `init`, `clone` and `sync` as use
//! cases — the store's `dossier_store::sync` does the work; this adds what follows (the context
//! library refreshed after the working tree moved, the conflicts to resolve as next steps) —
//! and `sync.auto`'s side: the detached background sync the hooks start
//! ([`start_background`]), its time limit ([`arm_time_limit`]), and what a session start says
//! about the last sync ([`session_start_status`]).
//!
//! Not for: the merge rules or git (`dossier_store::sync`), parsing or rendering.

use dossier_store::error::{DossierError, Result};
use dossier_store::model;
use dossier_store::sync::{self, CloneOutcome, InitOutcome, SyncOutcome};
use dossier_store::{App, Store, context};

use super::{Next, Outcome};

pub fn init(app: &App, remote: &str, allow_secrets: bool, join: bool) -> Result<Outcome<InitOutcome>> {
    let r = sync::init(app, remote, allow_secrets, join)?;
    let mut out = Outcome::new(r);
    if let Some(joined) = &out.data.joined {
        if !joined.came_in.is_empty() {
            out.warnings.extend(context::after_mutation(app));
        }
        let (w, n) = merge_notes(&joined.merge);
        out.warnings.extend(w);
        out.next.extend(n);
    }
    if out.data.secrets_allowed > 0 {
        out.warnings.push(format!(
            "{} secret(s) stored in plain text were pushed (--allow-secrets); `dossier doctor` lists them",
            out.data.secrets_allowed
        ));
    }
    out.next.push(Next::say(format!("on another machine: dossier sync clone {remote}, then dossier init")));
    Ok(out)
}

pub fn clone(store: &Store, remote: &str) -> Result<Outcome<CloneOutcome>> {
    let mut out = Outcome::new(sync::clone(store, remote)?);
    out.next.push(Next::say("dossier init  (registers the MCP server and hooks on this machine)"));
    Ok(out)
}

pub fn sync(app: &App) -> Result<Outcome<SyncOutcome>> {
    let r = sync::sync(app)?;
    let mut out = Outcome::new(r);
    if !out.data.came_in.is_empty() {
        out.warnings.extend(context::after_mutation(app));
    }
    let (w, n) = merge_notes(&out.data.merge);
    out.warnings.extend(w);
    out.next.extend(n);
    for c in &out.data.incoming_conflicts {
        out.warnings
            .push(format!("{}: an open conflict came in from another machine: {} ({})", c.slug, c.id, c.summary));
        out.next.push(Next::say(format!("dossier conflicts resolve {} --keep current|proposal", c.id)));
    }
    Ok(out)
}

/// What a sync merge did that the user must know, as warnings and next steps.
fn merge_notes(m: &sync::merge::Report) -> (Vec<String>, Vec<Next>) {
    let (mut warnings, mut next) = (Vec::new(), Vec::new());
    for c in &m.conflicts {
        warnings.push(format!(
            "{}: the Distilled State diverged on two machines; the other version is kept in {}",
            c.slug, c.path
        ));
        next.push(Next::say(format!("dossier conflicts resolve {} --keep current|proposal", c.conflict_id)));
    }
    for c in &m.clashes {
        warnings.push(format!(
            "{} had different contents on two machines: one is kept there, the other in {} (nothing was overwritten)",
            c.path, c.other
        ));
    }
    for r in &m.renamed {
        warnings.push(format!(
            "the slug {} was created on two machines: {} is now {} (SPEC 12.2)",
            r.from, r.dossier_id, r.to
        ));
    }
    (warnings, next)
}

/// The background `dossier sync` the hooks start (`sync.auto`, docs/sync.md), or that `dossier
/// sync --background` starts: what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Background {
    /// A `dossier sync` was started (its process id); it runs on after this process exits.
    Started(u32),
    /// Another sync holds `.sync/lock`: none was started.
    Running,
    /// The last attempt (or the last background start) was this many minutes ago, less than
    /// `sync.min_interval_minutes`: none was started.
    Recent(u64),
}

/// Where the last background sync writes its output (this machine's, never synced).
pub fn background_log(store: &Store) -> std::path::PathBuf {
    sync::machine::sync_dir(store).join("background.log")
}

fn spawned_at_path(store: &Store) -> std::path::PathBuf {
    sync::machine::sync_dir(store).join("background.started")
}

/// Seconds since an RFC 3339 timestamp (`None` when it does not parse).
pub fn seconds_since(ts: &str) -> Option<i64> {
    let t = time::OffsetDateTime::parse(ts, &time::format_description::well_known::Rfc3339).ok()?;
    Some((time::OffsetDateTime::now_utc() - t).whole_seconds().max(0))
}

/// Start `dossier sync` as a detached process: its own session (`setsid`: no terminal, so an
/// ssh that would prompt fails instead of stopping), stdin from /dev/null, stdout and stderr to
/// [`background_log`]; never waited for. Not started while another sync holds the lock, nor —
/// with `min_interval` — when the last attempt or background start is more recent than that.
/// The caller must not block on anything but the `fork`/`exec`. A start that fails is recorded
/// in `.sync/state.json` as the last attempt's error (doctor and the next session start show
/// it) and returned.
pub fn start_background(app: &App, min_interval: Option<std::time::Duration>) -> Result<Background> {
    let store = &app.store;
    match sync::machine::try_lock(store)? {
        None => return Ok(Background::Running),
        Some(lock) => drop(lock),
    }
    if let Some(min) = min_interval.filter(|m| !m.is_zero()) {
        let state = sync::machine::read_state(store);
        let spawned = std::fs::read_to_string(spawned_at_path(store)).ok();
        let recent = [state.last_attempt_at.as_deref(), spawned.as_deref().map(str::trim)]
            .into_iter()
            .flatten()
            .filter_map(seconds_since)
            .min();
        if let Some(secs) = recent
            && (secs as u64) < min.as_secs()
        {
            return Ok(Background::Recent(secs as u64 / 60));
        }
    }
    match spawn_background(store, app.config.sync.background_time_limit_seconds) {
        Ok(pid) => {
            let _ = dossier_store::files::write_atomic(&spawned_at_path(store), model::now_timestamp().as_bytes());
            Ok(Background::Started(pid))
        }
        Err(e) => {
            // Recorded as the last attempt, so doctor and the next session start show it too.
            let mut state = sync::machine::read_state(store);
            state.last_attempt_at = Some(model::now_timestamp());
            state.last_error = Some(format!("{}: the background sync could not start: {}", e.code.as_str(), e.message));
            let _ = sync::machine::write_state(store, &state);
            Err(e)
        }
    }
}

/// The variable [`spawn_background`] hands its child: the time limit in seconds
/// (`sync.background_time_limit_seconds`), armed by [`arm_time_limit`].
pub const TIME_LIMIT_ENV: &str = "DOSSIER_SYNC_TIME_LIMIT_SECS";

/// Spawn the detached `dossier sync` (see [`start_background`]), with its time limit in
/// seconds (0: none); its process id.
fn spawn_background(store: &Store, time_limit: u64) -> Result<u32> {
    use std::os::unix::process::CommandExt as _;
    let log_path = background_log(store);
    let log = std::fs::File::create(&log_path).map_err(|e| DossierError::io("create", &log_path, e))?;
    let err = log.try_clone().map_err(|e| DossierError::io("open", &log_path, e))?;
    let exe = std::env::current_exe().map_err(|e| DossierError::io("find", std::path::Path::new("dossier"), e))?;
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("sync")
        .env("DOSSIER_HOME", store.root())
        .env(TIME_LIMIT_ENV, time_limit.to_string())
        .stdin(std::process::Stdio::null())
        .stdout(log)
        .stderr(err);
    // SAFETY: `setsid` is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = cmd.spawn().map_err(|e| DossierError::io("start", std::path::Path::new("dossier sync"), e))?;
    Ok(child.id())
}

/// In a background sync — a process [`spawn_background`] started, which leads its own process
/// group — stop the sync once it has run for the time limit its starter handed it: this
/// process and every git and ssh it runs (the group) are killed, after the reason is recorded
/// in `.sync/state.json` as the attempt's error (doctor and the next session start show it). The
/// next sync puts right what the stop left, as after any kill (`dossier_store::sync::recover`).
/// Nothing happens in any other process: a `dossier sync` typed in a terminal is never stopped.
pub fn arm_time_limit(store: &Store) {
    let Some(secs) = std::env::var(TIME_LIMIT_ENV).ok().and_then(|v| v.parse::<u64>().ok()).filter(|s| *s > 0) else {
        return;
    };
    // SAFETY: getpgrp and getpid have no preconditions and touch no memory.
    if unsafe { libc::getpgrp() != libc::getpid() } {
        return;
    }
    let store = store.clone();
    let started = model::now_timestamp();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(secs));
        let mut state = sync::machine::read_state(&store);
        state.last_attempt_at = Some(started);
        state.last_error = Some(format!(
            "remote_unavailable: the background sync was still running after {secs} s \
             (sync.background_time_limit_seconds) and was stopped with the git it ran: the remote \
             or git hung; local work is intact and the next `dossier sync` completes it"
        ));
        let _ = sync::machine::write_state(&store, &state);
        // SAFETY: kill(2) on this process's own group: the sync, its git and ssh.
        unsafe {
            libc::kill(0, libc::SIGKILL);
        }
    });
}

/// How long ago, for a person: `12 min`, `3 h`, `2 days`.
pub fn ago(secs: i64) -> String {
    match secs {
        s if s < 60 => "under a minute".to_string(),
        s if s < 3_600 => format!("{} min", s / 60),
        s if s < 172_800 => format!("{} h", s / 3_600),
        s => format!("{} days", s / 86_400),
    }
}

/// What a session start says about the store's sync: warning lines and note lines.
#[derive(Clone, Debug, Default)]
pub struct Status {
    pub warnings: Vec<String>,
    pub notes: Vec<String>,
}

/// What a session start says about the store's sync (docs/sync.md): a warning when the last
/// attempt failed (shown whether `sync.auto` is on or not), otherwise a note saying when it
/// last synced; with `sync.auto` on, a background sync is started first (never waited for) and
/// the line says so. Nothing for a store that is not synced. Never fails: a sync that could not
/// start is a warning.
pub fn session_start_status(app: &App) -> Status {
    let mut s = Status::default();
    if !app.store.is_synced() {
        return s;
    }
    let state = sync::machine::read_state(&app.store);
    let background = if app.config.sync.auto {
        let every = std::time::Duration::from_secs(app.config.sync.min_interval_minutes.saturating_mul(60));
        match start_background(app, Some(every)) {
            Ok(Background::Started(_)) => Some("a background sync started".to_string()),
            Ok(Background::Running) => Some("a sync is running".to_string()),
            Ok(Background::Recent(_)) => None,
            Err(e) => {
                s.warnings.push(format!(
                    "sync.auto: the background sync could not start ({}); run `dossier sync`",
                    e.message
                ));
                None
            }
        }
    } else {
        None
    };
    let when = |ts: &Option<String>| ts.as_deref().and_then(seconds_since).map(ago);
    let tail = background.map(|b| format!(" ({b})")).unwrap_or_default();
    match (&state.last_error, when(&state.last_attempt_at), when(&state.last_success_at)) {
        (Some(e), at, _) => {
            let code = e.split(':').next().unwrap_or(e);
            s.warnings.push(format!(
                "last sync FAILED {} ago: {code} — run `dossier sync` (`dossier doctor` has the details){tail}",
                at.unwrap_or_else(|| "some time".into())
            ));
        }
        (None, _, Some(ok)) => s.notes.push(format!("Store synced {ok} ago{tail}.")),
        (None, _, None) => s.notes.push(format!("Store never synced: run `dossier sync`{tail}.")),
    }
    s
}

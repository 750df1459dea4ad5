//! What of a store is this machine's and never syncs (docs/sync.md, "What is shared"): the
//! `.gitignore` and `.gitattributes` `sync init` writes, the sync's own state directory
//! (`.sync/`: the lock and the last result), and moving the machine block of `config.yaml`
//! (`dossier init`'s Claude Code capability report) into the ignored `config.machine.yaml`.
//!
//! Not for: reading the config (`crate::config` reads both files) or running git.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config;
use crate::error::{DossierError, Result};
use crate::files;
use crate::layout::Store;

/// The lines `.gitignore` must hold (anchored at the store root).
pub const IGNORED: [&str; 9] =
    ["/sessions/", "/.cache/", "/context/", "/.sync/", "/config.machine.yaml", ".lock", ".tmp*", "*.tmp", "*.lock"];

const GITIGNORE_HEADER: &str = "# Written by `dossier sync init`: this machine's state, never synced (docs/sync.md).\n";

/// Bytes are kept as they are: no line-ending conversion on any machine.
pub const GITATTRIBUTES: &str =
    "# Written by `dossier sync init` (docs/sync.md): files keep their exact bytes.\n* -text\n";

/// The sync's own per-machine directory.
pub fn sync_dir(store: &Store) -> PathBuf {
    store.root().join(".sync")
}

/// `.gitignore` with every line of [`IGNORED`] (a user's own lines are kept; missing ones are
/// appended).
pub fn gitignore(existing: Option<&str>) -> String {
    let mut text = existing.map(str::to_string).unwrap_or_else(|| GITIGNORE_HEADER.to_string());
    let have: Vec<&str> = existing.unwrap_or_default().lines().map(str::trim).collect();
    let missing: Vec<&str> = IGNORED.iter().copied().filter(|l| !have.contains(l)).collect();
    if !missing.is_empty() && !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    for l in missing {
        text.push_str(l);
        text.push('\n');
    }
    text
}

/// Write `.gitignore` and `.gitattributes` at the store root.
pub fn write_ignore_files(store: &Store) -> Result<()> {
    let path = store.root().join(".gitignore");
    let existing = match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(DossierError::io("read", &path, e)),
    };
    files::write_if_changed(&path, &gitignore(existing.as_deref()))?;
    let attrs = store.root().join(".gitattributes");
    if !attrs.exists() {
        files::write_atomic(&attrs, GITATTRIBUTES.as_bytes())?;
    }
    Ok(())
}

/// Move the machine block at the end of `config.yaml` to `config.machine.yaml` (an existing
/// machine file is kept: it is newer). Whether anything moved.
pub fn split_config(store: &Store) -> Result<bool> {
    let path = store.config_path();
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(DossierError::io("read", &path, e)),
    };
    let (user, block) = config::split_harness_block(&text);
    let Some(block) = block else { return Ok(false) };
    let machine = store.machine_config_path();
    if !machine.exists() {
        files::write_atomic(&machine, block.as_bytes())?;
    }
    files::write_atomic(&path, user.as_bytes())?;
    Ok(true)
}

/// The last sync's result, kept in `.sync/state.json` (for session start and doctor).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct State {
    pub last_attempt_at: Option<String>,
    pub last_success_at: Option<String>,
    /// The error code and message of the last attempt, if it failed.
    pub last_error: Option<String>,
}

pub fn read_state(store: &Store) -> State {
    std::fs::read(sync_dir(store).join("state.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

pub fn write_state(store: &Store, state: &State) -> Result<()> {
    let dir = sync_dir(store);
    std::fs::create_dir_all(&dir).map_err(|e| DossierError::io("create", &dir, e))?;
    let text = serde_json::to_string_pretty(state).expect("state serializes");
    files::write_atomic(&dir.join("state.json"), text.as_bytes())
}

/// Record a sync (or `init`/`clone`) that completed at `now`.
pub fn write_success(store: &Store, now: &str) -> Result<()> {
    write_state(
        store,
        &State { last_attempt_at: Some(now.to_string()), last_success_at: Some(now.to_string()), last_error: None },
    )
}

/// The exclusive sync lock (`.sync/lock`), held until dropped or the process dies.
pub struct SyncLock {
    _file: std::fs::File,
}

/// Take the sync lock without waiting; `None` when another process holds it.
pub fn try_lock(store: &Store) -> Result<Option<SyncLock>> {
    let dir = sync_dir(store);
    std::fs::create_dir_all(&dir).map_err(|e| DossierError::io("create", &dir, e))?;
    let path = dir.join("lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| DossierError::io("open", &path, e))?;
    match file.try_lock() {
        Ok(()) => Ok(Some(SyncLock { _file: file })),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => Err(DossierError::io("lock", &path, e)),
    }
}

/// git keeps no file modes but the executable bit, so a key that came in through git is as
/// readable as the umask makes it: give `.keys/` and the key their owner-only modes again
/// (0700, 0600), as `crate::redact::key` creates them; any other file in `.keys/` (the key
/// `sync init --join` kept from before) is 0600 too.
pub fn protect_key(store: &Store) -> Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let key = store.redaction_key_path();
    let dir = key.parent().expect("the key file is inside the store");
    // Every file in `.keys/` (the key, and the one `sync init --join` kept from before) is a key.
    let mut paths = vec![(dir.to_path_buf(), 0o700), (key.clone(), 0o600)];
    if let Ok(entries) = std::fs::read_dir(dir) {
        paths.extend(entries.flatten().map(|e| e.path()).filter(|p| *p != key).map(|p| (p, 0o600)));
    }
    for (path, mode) in &paths {
        match std::fs::symlink_metadata(path) {
            Ok(m) if (m.is_file() || m.is_dir()) && m.permissions().mode() & 0o777 != *mode => {
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(*mode))
                    .map_err(|e| DossierError::io("set permissions of", path, e))?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether `path` (relative to the store, `/`-separated) is this machine's state.
pub fn is_machine_path(path: &str) -> bool {
    let first = path.split('/').next().unwrap_or_default();
    let name = Path::new(path).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    ["sessions", ".cache", "context", ".sync"].contains(&first)
        || path == "config.machine.yaml"
        || name == ".lock"
        || name.ends_with(".lock")
        || name.starts_with(".tmp")
        || name.ends_with(".tmp")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitignore_keeps_the_users_lines_and_adds_ours_once() {
        let fresh = gitignore(None);
        for l in IGNORED {
            assert!(fresh.lines().any(|x| x == l), "{l}");
        }
        let mine = "notes/\n/sessions/";
        let merged = gitignore(Some(mine));
        assert!(merged.starts_with("notes/\n/sessions/\n"), "{merged}");
        assert_eq!(merged.matches("/sessions/").count(), 1);
        assert_eq!(gitignore(Some(&merged)), merged);
    }

    #[test]
    fn machine_paths() {
        for p in ["sessions/a.json", ".cache/frontmatter.json", "context/library.md", "a/.lock", "config.machine.yaml"]
        {
            assert!(is_machine_path(p), "{p}");
        }
        for p in ["a/dossier.md", "a/audit.log", "config.yaml", ".keys/redaction.key", "learning/x.jsonl"] {
            assert!(!is_machine_path(p), "{p}");
        }
    }
}

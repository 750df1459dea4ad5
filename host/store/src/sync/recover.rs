//! What a killed `dossier sync` leaves behind, and how the next sync puts it right before it
//! commits anything (docs/sync.md, "Failure modes").
//!
//! Two things can be left:
//!
//! - **git's lock files**: a killed `add`, `commit`, `fetch`, `merge` or `push` keeps its
//!   `*.lock` under `.git/`, and every later git call would fail ([`remove_locks`]).
//! - **a checkout cut short**: the working tree moves only by `git merge --ff-only` to a commit
//!   the sync made or fetched (`super::run`), and git rewrites the files it checks out in place
//!   before it moves the branch. Killed mid-way, some files are the new commit's, one may be
//!   missing or empty, and the branch still names the old commit; the next sync would commit
//!   that working tree as this machine's own changes, and the merge would then take a cut-short
//!   `audit.log` or a missing `dossier.md` for a real edit (an audit line lost for good, a
//!   Dossier read as deleted). So before the checkout starts the sync records, in
//!   `.sync/moving`, the commit it leaves and the one it moves to ([`begin_checkout`]); found by
//!   the next sync while the branch still names the commit it left, every path the checkout
//!   could have touched is put back as that commit has it ([`undo_checkout`]), and the sync
//!   then makes its merge again.
//!
//! Invariant: recovery discards nothing but what the interrupted checkout wrote. A file that is
//! neither the old commit's, the new commit's, a cut-short copy of the new commit's, nor absent
//! was changed since by something else and is kept as it is (it is committed as a local change);
//! an `audit.log` is put back as the old commit's lines followed by every complete line no
//! commit holds (lines appended since are kept).
//!
//! Not for: the order of a sync (`super::run`) or the merge rules (`super::merge`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::git::Git;
use super::machine;
use crate::error::{Code, DossierError, Result};
use crate::layout::Store;

/// The commit a checkout leaves and the one it moves to (`.sync/moving`).
#[derive(Debug, Serialize, Deserialize)]
struct Moving {
    from: String,
    to: String,
}

fn moving_path(store: &Store) -> PathBuf {
    machine::sync_dir(store).join("moving")
}

/// A checkout under way: its record is removed when this is dropped (git returned, however it
/// ended). A sync killed meanwhile leaves the record for [`undo_checkout`].
#[must_use = "the record is removed when the guard is dropped"]
pub struct Checkout {
    path: PathBuf,
}

impl Drop for Checkout {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Record that the working tree is about to move from commit `from` to commit `to`.
pub fn begin_checkout(store: &Store, from: &str, to: &str) -> Result<Checkout> {
    let path = moving_path(store);
    let record = Moving { from: from.to_string(), to: to.to_string() };
    crate::files::write_atomic(&path, &serde_json::to_vec(&record).expect("a record serializes"))?;
    Ok(Checkout { path })
}

/// git's lock files (every `*.lock` under `.git/`: `index.lock`, and the ref locks a killed
/// `commit`, `fetch`, `merge` or `push` holds while it moves a branch, such as
/// `refs/remotes/origin/<branch>.lock`) and the merge step's private index, removed. A git the
/// killed sync started may still be finishing (only `dossier` was killed): its locks are given
/// a moment to go first. Whether anything was removed.
pub fn remove_locks(store: &Store) -> Result<bool> {
    let dot_git = store.root().join(".git");
    let mut left = git_locks(&dot_git);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while !left.is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        left.retain(|p| p.exists());
    }
    let private = dot_git.join("dossier-sync-index");
    if private.exists() {
        left.push(private);
    }
    let mut removed = false;
    for p in left {
        match std::fs::remove_file(&p) {
            Ok(()) => removed = true,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(DossierError::io("remove", &p, e)),
        }
    }
    Ok(removed)
}

/// Every `*.lock` file under `dot_git` (objects are never locked files, so `objects/` is not
/// walked but for its `info/`).
fn git_locks(dot_git: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dot_git.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                let objects = dir == dot_git && e.file_name() == "objects";
                if !objects {
                    todo.push(p);
                } else {
                    todo.push(p.join("info"));
                }
            } else if p.extension().is_some_and(|x| x == "lock") {
                found.push(p);
            }
        }
    }
    found.sort();
    found
}

/// Undo a checkout a killed sync left cut short (see the module doc): the store paths put back,
/// sorted (empty when there was no such checkout, or it had finished). Run under the sync lock,
/// after [`remove_locks`].
pub fn undo_checkout(store: &Store, git: &Git) -> Result<Vec<String>> {
    let record = moving_path(store);
    let moving: Moving = match std::fs::read(&record) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
            DossierError::new(
                Code::Io,
                format!("{} (the record of a checkout a killed sync left) cannot be read: {e}", record.display()),
            )
            .with_details(json!({ "file": record }))
            .with_next(format!(
                "check `git -C {} status` for files a checkout left half written, then remove {} and `dossier sync` again",
                store.root().display(),
                record.display()
            ))
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(DossierError::io("read", &record, e)),
    };
    let mut put_back = Vec::new();
    // Only while the branch still names the commit the checkout left: had it moved, the checkout
    // finished (its git ran on after `dossier` was killed) and there is nothing to undo.
    if git.rev_parse("HEAD")?.as_deref() == Some(moving.from.as_str()) {
        let undone = put_back_paths(store, git, &moving)?;
        // A git that outlived the killed sync by more than `remove_locks`' wait may still have
        // finished meanwhile and moved the branch: the paths put back then get the new commit's
        // version again (with what was appended since), and nothing stays undone.
        if git.rev_parse("HEAD")?.as_deref() == Some(moving.to.as_str()) {
            for (path, forward) in &undone {
                set_file(store, path, forward.as_deref())?;
            }
        } else {
            put_back = undone.into_iter().map(|(path, _)| path).collect();
        }
        // The killed checkout may have written its index (the new commit's) without moving the
        // branch: the index is made the branch's again; the working tree is left as it is now.
        git.run(["reset", "-q"])?;
    }
    match std::fs::remove_file(&record) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(DossierError::io("remove", &record, e)),
    }
    Ok(put_back)
}

/// Put back every path the checkout from `moving.from` to `moving.to` could have touched (see
/// the module doc): the paths put back, each with what it would hold had the checkout finished
/// (for [`undo_checkout`]'s second look).
#[allow(clippy::type_complexity)]
fn put_back_paths(store: &Store, git: &Git, moving: &Moving) -> Result<Vec<(String, Option<Vec<u8>>)>> {
    let diff = git.run(["diff", "--name-only", "-z", "--no-renames", &moving.from, &moving.to])?;
    let paths: Vec<&str> = diff.split('\0').filter(|p| !p.is_empty()).collect();
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let (old, new) = (git.tree(Some(&moving.from))?, git.tree(Some(&moving.to))?);
    // The lock of every Dossier the checkout touched, in path order, as the checkout held them.
    let dirs: BTreeSet<&str> = paths.iter().filter_map(|p| p.split_once('/').map(|(top, _)| top)).collect();
    let mut locks = Vec::new();
    for top in dirs {
        let dir = store.root().join(top);
        if dir.join("dossier.md").is_file() {
            locks.push(crate::save::lock_dossier(&dir)?);
        }
    }
    let mut put_back = Vec::new();
    for path in paths {
        let file = store.root().join(path);
        let now = match std::fs::read(&file) {
            Ok(b) => Some(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(DossierError::io("read", &file, e)),
        };
        let blob = |tree: &super::git::Tree| tree.get(path).map(|e| git.blob(&e.oid)).transpose();
        let (was, goes) = (blob(&old)?, blob(&new)?);
        let (back, forward) = if Path::new(path).file_name().is_some_and(|n| n == "audit.log") {
            (
                audit_back(was.as_deref(), now.as_deref(), goes.as_deref()),
                audit_back(goes.as_deref(), now.as_deref(), was.as_deref()),
            )
        } else if now == was {
            continue;
        } else if now.as_ref().is_none_or(|n| goes.as_ref().is_some_and(|g| g.starts_with(n))) {
            (was, goes)
        } else {
            continue; // changed since by something else: kept, committed as a local change
        };
        if back == now {
            continue;
        }
        set_file(store, path, back.as_deref())?;
        put_back.push((path.to_string(), forward));
    }
    drop(locks);
    Ok(put_back)
}

/// Make the store file `path` hold `bytes` (`None`: no such file; directories left empty go).
fn set_file(store: &Store, path: &str, bytes: Option<&[u8]>) -> Result<()> {
    let file = store.root().join(path);
    match bytes {
        Some(bytes) => {
            if let Some(parent) = file.parent() {
                std::fs::create_dir_all(parent).map_err(|e| DossierError::io("create", parent, e))?;
            }
            crate::files::write_atomic(&file, bytes)
        }
        None => match std::fs::remove_file(&file) {
            Ok(()) => {
                remove_empty_parents(store.root(), &file);
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(DossierError::io("remove", &file, e)),
        },
    }
}

/// An `audit.log` put back: the old commit's bytes, then every complete line of the file as it
/// is now that neither commit holds (appended since the kill), in their order. `None`: the old
/// commit had none and nothing was appended.
fn audit_back(was: Option<&[u8]>, now: Option<&[u8]>, goes: Option<&[u8]>) -> Option<Vec<u8>> {
    let lines = |x: Option<&[u8]>| -> BTreeSet<Vec<u8>> {
        x.unwrap_or_default().split(|&c| c == b'\n').map(<[u8]>::to_vec).collect()
    };
    let known: BTreeSet<Vec<u8>> = lines(was).into_iter().chain(lines(goes)).collect();
    let now = now.unwrap_or_default();
    // Only lines ended by a newline: a line without one is a write the kill cut short.
    let complete = match now.iter().rposition(|&c| c == b'\n') {
        Some(end) => &now[..end],
        None => &[][..],
    };
    let appended: Vec<&[u8]> = complete
        .split(|&c| c == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace) && !known.contains(*l))
        .collect();
    if was.is_none() && appended.is_empty() {
        return None;
    }
    let mut out = was.unwrap_or_default().to_vec();
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    for l in appended {
        out.extend_from_slice(l);
        out.push(b'\n');
    }
    Some(out)
}

/// Remove the now empty directories above `file`, up to (not including) `root`.
fn remove_empty_parents(root: &Path, file: &Path) {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d == root || !d.starts_with(root) || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_audit_log_goes_back_to_the_old_lines_and_keeps_what_was_appended_since() {
        let was = b"{\"a\":1}\n{\"a\":2}\n";
        let goes = b"{\"a\":1}\n{\"a\":2}\n{\"b\":3}\n{\"b\":4}\n";
        // Cut short inside the checkout's write: the old lines come back, the part goes.
        assert_eq!(audit_back(Some(was), Some(b"{\"a\":1}\n{\"a\":2}\n{\"b\":3}\n{\"b"), Some(goes)).unwrap(), was);
        // Empty or missing (git unlinks, then writes): the old lines.
        assert_eq!(audit_back(Some(was), Some(b""), Some(goes)).unwrap(), was);
        assert_eq!(audit_back(Some(was), None, Some(goes)).unwrap(), was);
        // A line appended after the kill (a save) is kept after the old ones.
        let now = b"{\"a\":1}\n{\"a\":2}\n{\"b\":3}\n{\"c\":5}\n";
        assert_eq!(audit_back(Some(was), Some(now), Some(goes)).unwrap(), b"{\"a\":1}\n{\"a\":2}\n{\"c\":5}\n");
        // Had the checkout finished after all (its git outlived the kill): the new commit's lines,
        // and what was appended since.
        assert_eq!(
            audit_back(Some(goes), Some(now), Some(was)).unwrap(),
            b"{\"a\":1}\n{\"a\":2}\n{\"b\":3}\n{\"b\":4}\n{\"c\":5}\n"
        );
        // A log the old commit did not have: gone, unless something was appended.
        assert_eq!(audit_back(None, Some(b"{\"b\":3}\n"), Some(goes)), None);
        assert_eq!(audit_back(None, Some(b"{\"b\":3}\n{\"c\":5}\n"), Some(goes)).unwrap(), b"{\"c\":5}\n");
    }
}

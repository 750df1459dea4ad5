//! Cheap read-only probes a host uses to *choose* the changes before collecting them (codecall's
//! locate rules, docs/codecall.md): the HEAD and dirtiness of a work tree (recorded when an agent
//! session starts), whether a [`Changes`] selects anything, and where the run of recent commits
//! touching a set of files begins. Each runs git like the collector does (read-only, no optional
//! locks, no external diff drivers) and reads no file content.
//!
//! Not for: collecting evidence (`collect`), or deciding which rule applies (the host's).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::EvidenceError;
use crate::git::{Fail, Git, GitResult};
use crate::request::Changes;

/// Commits looked at when finding the start of a session's run of commits.
const MAX_RUN: usize = 20;

/// A work tree's state at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkState {
    /// The work tree's root, as git reports it.
    pub root: PathBuf,
    /// `HEAD`'s commit id (`None` in a repository without commits).
    pub head: Option<String>,
    /// Uncommitted changes to tracked files, or untracked files that are not ignored.
    pub dirty: bool,
}

fn git(repo: &Path) -> Result<Git, EvidenceError> {
    Git::discover(Path::new("git"), repo)
}

fn done<T>(r: GitResult<T>) -> Result<T, EvidenceError> {
    match r {
        Ok(v) => Ok(v),
        Err(Fail::Error(e)) => Err(e),
        Err(Fail::TimedOut) => unreachable!("probes run without a deadline"),
    }
}

/// The state of the work tree containing `repo`, with one git process (`git status
/// --porcelain=v2 --branch`; it runs on every agent session start). The root is the nearest
/// ancestor holding `.git` (a directory, or a file in a linked worktree): outside a work tree
/// no process is started at all.
pub fn work_state(repo: &Path) -> Result<WorkState, EvidenceError> {
    let Some(root) = repo.ancestors().find(|d| d.join(".git").exists()) else {
        return Err(EvidenceError::NotARepository {
            path: repo.to_owned(),
            reason: "not inside a git work tree".to_owned(),
        });
    };
    let g = Git::at(Path::new("git"), root);
    let (head, dirty) = done(g.status_head())?;
    Ok(WorkState { root: root.to_owned(), head, dirty })
}

/// What an agent session's start records ([`start_state`]): cheaper than [`WorkState`], and
/// the dirtiness may be unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartState {
    /// The work tree's root: the nearest ancestor holding `.git`.
    pub root: PathBuf,
    /// `HEAD`'s commit id (`None` in a repository without commits).
    pub head: Option<String>,
    /// Uncommitted changes to tracked files; `None` when git did not answer within the timeout.
    pub dirty: Option<bool>,
}

/// The state an agent session's start records, paid on every session start (the SessionStart
/// hook's target is 15 ms, docs/performance.md): `HEAD` read from the repository's own files
/// (`.git/HEAD`, the loose ref or `packed-refs`; linked worktrees through their `gitdir` and
/// `commondir`) with no process, and — only when `HEAD` could not be read that way (a reftable
/// repository, a symbolic ref chain) — `git status` as [`work_state`] runs it; dirtiness of
/// tracked files from one `git status --untracked-files=no` killed after `timeout` (then
/// `dirty` is `None`: unknown, never a wait). Untracked files are not looked for.
pub fn start_state(repo: &Path, timeout: std::time::Duration) -> Result<StartState, EvidenceError> {
    let deadline = std::time::Instant::now() + timeout;
    let Some(root) = repo.ancestors().find(|d| d.join(".git").exists()) else {
        return Err(EvidenceError::NotARepository {
            path: repo.to_owned(),
            reason: "not inside a git work tree".to_owned(),
        });
    };
    let g = Git::at(Path::new("git"), root);
    let head = match head_from_files(root) {
        Some(head) => head,
        None => done(g.status_head())?.0,
    };
    let dirty = match g.tracked_dirty(deadline) {
        Ok(d) => Some(d),
        Err(Fail::TimedOut) => None,
        Err(Fail::Error(e)) => return Err(e),
    };
    Ok(StartState { root: root.to_owned(), head, dirty })
}

fn is_oid(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `HEAD`'s commit id read from the files of the repository at `root`: `Some(None)` for an
/// unborn branch, `None` for a layout this does not read (then git is asked).
fn head_from_files(root: &Path) -> Option<Option<String>> {
    let dotgit = root.join(".git");
    let gitdir = if dotgit.is_dir() {
        dotgit
    } else {
        let text = std::fs::read_to_string(&dotgit).ok()?;
        root.join(text.trim().strip_prefix("gitdir:")?.trim())
    };
    let common = match std::fs::read_to_string(gitdir.join("commondir")) {
        Ok(c) => gitdir.join(c.trim()),
        Err(_) => gitdir.clone(),
    };
    if common.join("reftable").exists() {
        return None;
    }
    let head = std::fs::read_to_string(gitdir.join("HEAD")).ok()?;
    let head = head.trim();
    if is_oid(head) {
        return Some(Some(head.to_owned()));
    }
    let name = head.strip_prefix("ref:")?.trim();
    if !name.starts_with("refs/") || name.split('/').any(|c| c.is_empty() || c == "..") {
        return None;
    }
    for dir in [&gitdir, &common] {
        if let Ok(text) = std::fs::read_to_string(dir.join(name)) {
            let text = text.trim();
            return is_oid(text).then(|| Some(text.to_owned()));
        }
    }
    if let Ok(packed) = std::fs::read_to_string(common.join("packed-refs")) {
        for line in packed.lines().filter(|l| !l.starts_with('#') && !l.starts_with('^')) {
            if let Some((oid, r)) = line.split_once(' ')
                && r.trim() == name
            {
                return is_oid(oid).then(|| Some(oid.to_owned()));
            }
        }
    }
    Some(None)
}

/// Whether `changes` selects at least one changed file in the work tree containing `repo`.
/// An unknown revision is an error ([`EvidenceError::UnknownRevision`]).
pub fn has_changes(repo: &Path, changes: &Changes) -> Result<bool, EvidenceError> {
    let g = git(repo)?;
    let untracked = |only: Option<&HashSet<&str>>| -> Result<bool, EvidenceError> {
        Ok(done(g.untracked(None))?
            .iter()
            .any(|p| only.is_none_or(|o| o.contains(String::from_utf8_lossy(p).as_ref()))))
    };
    match changes {
        Changes::Revisions { base, head } => {
            let base = done(g.resolve_commit(base, None))?;
            let head = done(g.resolve_commit(head, None))?;
            Ok(!done(g.changed_between(&base, &head, None))?.is_empty())
        }
        Changes::WorkingTree => {
            let base = match done(g.head_commit(None))? {
                Some(h) => h,
                None => done(g.empty_tree(None))?,
            };
            Ok(!done(g.dirty_against(&base, None))?.is_empty() || untracked(None)?)
        }
        Changes::Since { base, paths } => {
            let base = done(g.resolve_commit(base, None))?;
            let only: Option<HashSet<&str>> = (!paths.is_empty()).then(|| paths.iter().map(String::as_str).collect());
            let dirty = done(g.dirty_against(&base, None))?;
            Ok(dirty.iter().any(|p| only.as_ref().is_none_or(|o| o.contains(p.as_str()))) || untracked(only.as_ref())?)
        }
    }
}

/// The commit a session's work on `paths` starts from: walking `HEAD`'s first-parent history
/// (at most 20 commits), the first commit that touches none of `paths` — so the run of recent
/// commits that did touch them, plus the working tree, is the work. `HEAD` itself when the last
/// commit touches none of them (the work, if any, is uncommitted); the root commit when the run
/// reaches it. `None` in a repository without commits.
pub fn session_base(repo: &Path, paths: &[String]) -> Result<Option<String>, EvidenceError> {
    let g = git(repo)?;
    if done(g.head_commit(None))?.is_none() {
        return Ok(None);
    }
    let chain = done(g.first_parents(MAX_RUN, &[], None))?;
    let touching: HashSet<String> = done(g.first_parents(MAX_RUN, paths, None))?.into_iter().collect();
    let run = chain.iter().take_while(|c| touching.contains(*c)).count();
    Ok(chain.get(run).or(chain.last()).cloned())
}

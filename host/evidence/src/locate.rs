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

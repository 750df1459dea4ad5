//! Resolving the implementation locator before the ladder runs: base and head revisions to
//! commit ids (or, in worktree mode, `HEAD` or git's empty tree) and the diff they select.
//!
//! Not for: checking the request's own shape (`mod.rs` validates slice paths) or running any
//! level; resolution runs without a deadline and reads no content.

use crate::EvidenceError;
use crate::git::{self, DiffSpec, Fail, Git};
use crate::pack::ResolvedRevision;
use crate::refs::WORKTREE;
use crate::request::Changes;

/// The locator after resolution.
pub(super) struct Resolved {
    pub(super) spec: DiffSpec,
    pub(super) worktree: bool,
    pub(super) base: ResolvedRevision,
    pub(super) head: Option<ResolvedRevision>,
    /// Revision label for the new side: head commit id or `"worktree"`.
    pub(super) revision: String,
}

pub(super) fn resolve(git: &Git, changes: &Changes) -> Result<Resolved, EvidenceError> {
    let unwrap = |r: git::GitResult<String>| match r {
        Ok(v) => Ok(v),
        Err(Fail::Error(e)) => Err(e),
        Err(Fail::TimedOut) => unreachable!("resolution runs without a deadline"),
    };
    match changes {
        Changes::Revisions { base, head } => {
            let base_id = unwrap(git.resolve_commit(base, None))?;
            let head_id = unwrap(git.resolve_commit(head, None))?;
            Ok(Resolved {
                spec: DiffSpec::Trees { base: base_id.clone(), head: head_id.clone() },
                worktree: false,
                base: ResolvedRevision { requested: base.clone(), commit: base_id },
                revision: head_id.clone(),
                head: Some(ResolvedRevision { requested: head.clone(), commit: head_id }),
            })
        }
        Changes::Since { base, .. } => {
            let base_id = unwrap(git.resolve_commit(base, None))?;
            Ok(Resolved {
                spec: DiffSpec::Worktree { base: base_id.clone() },
                worktree: true,
                base: ResolvedRevision { requested: base.clone(), commit: base_id },
                head: None,
                revision: WORKTREE.to_owned(),
            })
        }
        Changes::WorkingTree => {
            let head = match git.head_commit(None) {
                Ok(h) => h,
                Err(Fail::Error(e)) => return Err(e),
                Err(Fail::TimedOut) => unreachable!("resolution runs without a deadline"),
            };
            let base = match head {
                Some(id) => id,
                None => unwrap(git.empty_tree(None))?,
            };
            Ok(Resolved {
                spec: DiffSpec::Worktree { base: base.clone() },
                worktree: true,
                base: ResolvedRevision { requested: "HEAD".to_owned(), commit: base },
                head: None,
                revision: WORKTREE.to_owned(),
            })
        }
    }
}

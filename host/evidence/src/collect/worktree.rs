//! Reading files of the working tree safely: never through a symlink (neither the file nor a
//! parent directory may lead outside the repository root), never beyond a size limit, and git's
//! NUL-byte test for binary content.
//!
//! Not for: reading blobs from git (`crate::git`) or deciding whether a path may be read at all
//! (privacy rules are checked by the levels before they call this).

use std::path::Path;

/// git's heuristic: a NUL in the first 8,000 bytes.
pub(super) fn is_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(8000)].contains(&0)
}

pub(super) enum WorktreeRead {
    Content(Vec<u8>),
    TooLarge(u64),
    NotAFile,
    Missing,
}

/// Read a file of the work tree, never through a symlink (neither the file nor a parent
/// directory may lead outside the root).
pub(super) fn read_worktree(root: &Path, real_root: &Path, rel: &str, max: u64) -> WorktreeRead {
    let path = root.join(rel);
    let Ok(meta) = std::fs::symlink_metadata(&path) else { return WorktreeRead::Missing };
    if !meta.is_file() {
        return WorktreeRead::NotAFile;
    }
    if meta.len() > max {
        return WorktreeRead::TooLarge(meta.len());
    }
    let Some(Ok(real_parent)) = path.parent().map(Path::canonicalize) else {
        return WorktreeRead::Missing;
    };
    if !real_parent.starts_with(real_root) {
        return WorktreeRead::NotAFile;
    }
    match std::fs::read(&path) {
        Ok(b) if b.len() as u64 <= max => WorktreeRead::Content(b),
        Ok(b) => WorktreeRead::TooLarge(b.len() as u64),
        Err(_) => WorktreeRead::Missing,
    }
}

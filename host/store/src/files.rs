//! Whole-file writes for the files the host manages: atomic replacement (temp file in the
//! same directory, fsync, rename, fsync of the directory), write-if-changed for generated
//! files, and write-once for files that become the user's after creation.
//!
//! Not for: Dossier content. Distilled State and artifacts go through the Save path,
//! which adds concurrency checks and audit on top of [`write_atomic`].

use std::fs;
use std::path::Path;

use crate::error::{DossierError, Result};

/// What happened to a file we manage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileOutcome {
    Created,
    Updated,
    Unchanged,
    /// The user changed it; we kept their version.
    KeptUserEdits,
}

impl FileOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            FileOutcome::Created => "created",
            FileOutcome::Updated => "updated",
            FileOutcome::Unchanged => "unchanged",
            FileOutcome::KeptUserEdits => "kept (edited by you)",
        }
    }
}

/// Write `content` to `path` atomically unless it already holds exactly that.
pub fn write_if_changed(path: &Path, content: &str) -> Result<FileOutcome> {
    let outcome = match fs::read(path) {
        Ok(existing) if existing == content.as_bytes() => return Ok(FileOutcome::Unchanged),
        Ok(_) => FileOutcome::Updated,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => FileOutcome::Created,
        Err(e) => return Err(DossierError::io("read", path, e)),
    };
    write_atomic(path, content.as_bytes())?;
    Ok(outcome)
}

/// Write a file that belongs to the user once created: never overwrite it.
pub fn write_once(path: &Path, content: &str) -> Result<FileOutcome> {
    match fs::read(path) {
        Ok(existing) if existing == content.as_bytes() => Ok(FileOutcome::Unchanged),
        Ok(_) => Ok(FileOutcome::KeptUserEdits),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            write_atomic(path, content.as_bytes())?;
            Ok(FileOutcome::Created)
        }
        Err(e) => Err(DossierError::io("read", path, e)),
    }
}

/// Temp file in the same directory, fsync, rename over the target.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with_permissions(path, bytes, None)
}

/// [`write_atomic`], giving the new file `permissions` (a temp file is owner-only; pass the
/// replaced file's permissions to keep them).
pub fn write_atomic_with_permissions(path: &Path, bytes: &[u8], permissions: Option<fs::Permissions>) -> Result<()> {
    use std::io::Write;
    let dir = path.parent().expect("store paths have a parent");
    let mut tmp =
        tempfile::NamedTempFile::new_in(dir).map_err(|e| DossierError::io("create a temp file in", dir, e))?;
    tmp.write_all(bytes).map_err(|e| DossierError::io("write", tmp.path(), e))?;
    if let Some(p) = permissions {
        tmp.as_file().set_permissions(p).map_err(|e| DossierError::io("set permissions of", tmp.path(), e))?;
    }
    tmp.as_file().sync_all().map_err(|e| DossierError::io("sync", tmp.path(), e))?;
    tmp.persist(path).map_err(|e| DossierError::io("replace", path, e.error))?;
    // Make the rename durable. Directories cannot be fsynced on every platform; where
    // opening one fails, the rename is still atomic, only its durability is weaker.
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

//! What every write of the Save path shares: a Dossier's revision (content-addressed over
//! `dossier.md` and the artifact manifest), its lock, and the audit event it records.
//!
//! Not for: appending to the audit log (`crate::audit`) or deciding anything.

use std::fs;
use std::path::Path;

use indexmap::IndexMap;

use crate::error::{DossierError, Result};
use crate::model::{self, AuditEvent, EventKind};

/// The revision of a Dossier: a hash of canonical `dossier.md` (CRLF normalised) plus the
/// artifact manifest (each file name and size under `artifacts/`, sorted). Artifacts are
/// immutable once written, so name and size identify them without hashing the archive.
pub fn revision(dir: &Path) -> Result<String> {
    let file = dir.join("dossier.md");
    let text = fs::read(&file).map_err(|e| DossierError::io("read", &file, e))?;
    Ok(revision_of(dir, &text))
}

pub(super) fn revision_of(dir: &Path, dossier_md: &[u8]) -> String {
    let manifest: Vec<(String, u64)> = fs::read_dir(dir.join("artifacts"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (!name.starts_with('.')).then(|| (name, e.metadata().map(|m| m.len()).unwrap_or(0)))
        })
        .collect();
    revision_from(dossier_md, manifest)
}

/// The revision of a `dossier.md` with this artifact manifest (names under `artifacts/` and
/// sizes, any order; names starting with `.` are left out by the caller): what
/// [`revision`] computes from the files, for a Dossier held elsewhere (a git tree, `sync`).
pub fn revision_from(dossier_md: &[u8], mut manifest: Vec<(String, u64)>) -> String {
    let mut h = blake3::Hasher::new();
    h.update(b"dossier-revision-v1\0");
    let mut canonical = Vec::with_capacity(dossier_md.len());
    let mut i = 0;
    while i < dossier_md.len() {
        if dossier_md[i] == b'\r' && dossier_md.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        canonical.push(dossier_md[i]);
        i += 1;
    }
    h.update(&(canonical.len() as u64).to_le_bytes());
    h.update(&canonical);
    manifest.sort();
    for (name, len) in manifest {
        h.update(name.as_bytes());
        h.update(b"\0");
        h.update(&len.to_le_bytes());
    }
    format!("rev_{}", &h.finalize().to_hex()[..32])
}

/// An exclusive lock on one Dossier, held for a whole save (released on drop or on
/// process death).
pub struct DossierLock {
    _file: fs::File,
}

/// Every writer takes it, so it is also where writes check that no entry of the Dossier is
/// a symbolic link ([`crate::layout::check_entries`]); the lock file is opened without
/// following one.
pub(super) fn lock(dir: &Path) -> Result<DossierLock> {
    use std::os::unix::fs::OpenOptionsExt as _;
    crate::layout::check_entries(dir)?;
    let path = dir.join(".lock");
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(&path)
        .map_err(|e| DossierError::io("open", &path, e))?;
    file.lock().map_err(|e| DossierError::io("lock", &path, e))?;
    Ok(DossierLock { _file: file })
}

/// [`lock`] for a writer outside the Save path that replaces a Dossier's files as a whole
/// (`dossier sync` bringing another machine's writes in), so no save is mid-way meanwhile.
/// Callers holding several take them in path order, as a merge does.
pub fn lock_dossier(dir: &Path) -> Result<DossierLock> {
    lock(dir)
}

/// A blank audit event of `kind` stamped now (callers fill in the details).
pub fn event(kind: EventKind, dossier_id: &str, actor: &str, session_id: &Option<String>) -> AuditEvent {
    AuditEvent {
        ts: model::now_timestamp(),
        event: kind,
        dossier_id: dossier_id.to_string(),
        actor: actor.to_string(),
        session_id: session_id.clone(),
        before_revision: None,
        after_revision: None,
        artifacts_added: Vec::new(),
        token_estimate: None,
        fields_changed: Vec::new(),
        body_changed: false,
        details: IndexMap::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn write(dir: &Path, text: &str) -> String {
        fs::write(dir.join("dossier.md"), text).unwrap();
        revision(dir).unwrap()
    }

    proptest! {
        #[test]
        fn revisions_are_stable_and_content_addressed(body in "[ -~\n]{0,400}", other in "[ -~]{1,20}") {
            let dir = tempfile::tempdir().unwrap();
            let a = write(dir.path(), &body);
            prop_assert!(a.starts_with("rev_") && a.len() == 36);
            prop_assert_eq!(&write(dir.path(), &body), &a, "same content, same revision");
            prop_assert_eq!(&write(dir.path(), &body.replace('\n', "\r\n")), &a, "line endings are canonicalised");
            let changed = format!("{body}{other}");
            prop_assert_ne!(&write(dir.path(), &changed), &a);
            write(dir.path(), &body);
            fs::create_dir_all(dir.path().join("artifacts")).unwrap();
            fs::write(dir.path().join("artifacts/art_1.txt"), "x").unwrap();
            prop_assert_ne!(&revision(dir.path()).unwrap(), &a, "the artifact manifest is part of the revision");
        }
    }
}

//! The per-Dossier audit log (SPEC §4.4): `<slug>/audit.log`, append-only JSON Lines.
//!
//! Invariants: each event is one line written with a single `write` on a file opened with
//! `O_APPEND`, so concurrent appenders never interleave within a line; nothing ever
//! rewrites or truncates the log. Reading tolerates (and reports) a torn last line left
//! by a crash.
//!
//! Not for: deciding what to audit (the Save path does).

use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};

use crate::error::{DossierError, Result};
use crate::model::AuditEvent;

pub fn log_path(dossier_dir: &Path) -> PathBuf {
    dossier_dir.join("audit.log")
}

/// Append one event as one line.
pub fn append(dossier_dir: &Path, event: &AuditEvent) -> Result<()> {
    let path = log_path(dossier_dir);
    let mut line = serde_json::to_vec(event).expect("audit events serialize");
    line.push(b'\n');
    // Never through a symbolic link (SPEC §3.2): a linked log fails to open.
    crate::layout::check_entries(dossier_dir)?;
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(&path)
        .map_err(|e| DossierError::io("open", &path, e))?;
    f.write_all(&line).map_err(|e| DossierError::io("append to", &path, e))?;
    Ok(())
}

/// Every parseable event, in order, and the 1-based line numbers of lines that do not parse.
pub fn read(dossier_dir: &Path) -> Result<(Vec<AuditEvent>, Vec<usize>)> {
    let path = log_path(dossier_dir);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(e) => return Err(DossierError::io("read", &path, e)),
    };
    let mut events = Vec::new();
    let mut bad = Vec::new();
    for (n, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        match serde_json::from_slice::<AuditEvent>(line) {
            Ok(e) => events.push(e),
            Err(_) => bad.push(n + 1),
        }
    }
    Ok((events, bad))
}

//! The append-only JSONL event log, owned by the caller (ARCHITECTURE §15, DESIGN §3 gate 5):
//! a file the caller names, a directory with one `<session-id>.jsonl` per session (the host's
//! `<store>/learning/`), or memory only.
//!
//! Invariants:
//! - **One event, one line, one write.** Each event is serialized to a single line and written
//!   with one `write` on a file opened for appending; nothing is ever rewritten or truncated.
//! - **Exclusive while deciding.** A public operation holds an exclusive lock on the file
//!   (`File::lock`) from reading the latest events to appending its own, so two processes never
//!   decide from the same stale state.
//! - **Torn lines are tolerated and reported.** A crash can leave the last line cut short. The
//!   reader skips a line that does not parse and reports it ([`LogIssue`]); the next append
//!   starts on a fresh line. A skipped line cannot hide a lost event: sequence numbers must be
//!   contiguous, and the reducer refuses a gap.
//!
//! Not for: deciding what an event means (the reducer) or which events exist (the runtime).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Result, RuntimeError};
use crate::event::Event;

/// Where the event log lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogTarget {
    /// Events kept in memory only: lost with the process (the "memory-only option").
    Memory,
    /// One JSONL file holding every session's events.
    File(PathBuf),
    /// One `<session-id>.jsonl` per session in this directory (created when needed).
    Directory(PathBuf),
}

/// A line of the log that was skipped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogIssue {
    pub path: PathBuf,
    /// 1-based line number.
    pub line: u64,
    /// Byte offset of the line's start.
    pub offset: u64,
    /// The last line of the file, without its newline: a write cut short by a crash.
    pub torn_tail: bool,
    pub message: String,
}

/// One JSONL file and how far it has been read.
#[derive(Debug)]
pub(crate) struct LogFile {
    pub path: PathBuf,
    offset: u64,
    lines: u64,
    /// The file does not end with a newline (a torn or unterminated last line).
    needs_newline: bool,
}

/// A log file opened and locked for one operation; the lock is released on drop.
pub(crate) struct Locked<'a> {
    file: File,
    log: &'a mut LogFile,
}

impl LogFile {
    pub fn new(path: PathBuf) -> LogFile {
        LogFile { path, offset: 0, lines: 0, needs_newline: false }
    }

    /// Open (creating it and its directory if `create`) and lock exclusively.
    pub fn lock(&mut self, create: bool) -> Result<Locked<'_>> {
        if create && let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| RuntimeError::log("create the directory of", &self.path, e))?;
        }
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(create)
            .open(&self.path)
            .map_err(|e| RuntimeError::log("open", &self.path, e))?;
        file.lock().map_err(|e| RuntimeError::log("lock", &self.path, e))?;
        Ok(Locked { file, log: self })
    }
}

impl Locked<'_> {
    /// Events appended since the last read (by this or another process), and skipped lines.
    pub fn read_new(&mut self) -> Result<(Vec<Event>, Vec<LogIssue>)> {
        let path = self.log.path.clone();
        self.file.seek(SeekFrom::Start(self.log.offset)).map_err(|e| RuntimeError::log("read", &path, e))?;
        let mut bytes = Vec::new();
        self.file.read_to_end(&mut bytes).map_err(|e| RuntimeError::log("read", &path, e))?;
        // After an unterminated line, the newline that seals it ends that line, not a new one.
        let skip = usize::from(self.log.needs_newline && bytes.first() == Some(&b'\n'));
        let parsed = parse(&path, &bytes[skip..], self.log.offset + skip as u64, self.log.lines);
        self.log.offset += bytes.len() as u64;
        self.log.lines = parsed.lines;
        if !bytes.is_empty() {
            self.log.needs_newline = parsed.unterminated;
        }
        Ok((parsed.events, parsed.issues))
    }

    /// Append one event as one line, with one write.
    pub fn append(&mut self, event: &Event) -> Result<()> {
        let mut line = Vec::with_capacity(512);
        if self.log.needs_newline {
            line.push(b'\n');
        }
        serde_json::to_writer(&mut line, event).expect("events serialize");
        line.push(b'\n');
        self.file.write_all(&line).map_err(|e| RuntimeError::log("append to", &self.log.path, e))?;
        self.log.offset += line.len() as u64;
        self.log.lines += 1;
        self.log.needs_newline = false;
        Ok(())
    }

    /// Flush appended events to stable storage (once per operation).
    pub fn sync(&mut self) -> Result<()> {
        self.file.sync_data().map_err(|e| RuntimeError::log("sync", &self.log.path, e))
    }
}

struct Parsed {
    events: Vec<Event>,
    issues: Vec<LogIssue>,
    /// Lines seen in total.
    lines: u64,
    /// The bytes end inside a line.
    unterminated: bool,
}

/// Parse `bytes`, which start at byte `offset` after `lines` lines of the file at `path`.
fn parse(path: &Path, bytes: &[u8], offset: u64, mut lines: u64) -> Parsed {
    let mut events = Vec::new();
    let mut issues = Vec::new();
    let mut start = 0usize;
    let mut unterminated = false;
    while start < bytes.len() {
        let (line, terminated) = match bytes[start..].iter().position(|&b| b == b'\n') {
            Some(n) => (&bytes[start..start + n], true),
            None => (&bytes[start..], false),
        };
        lines += 1;
        let trimmed = line.strip_suffix(b"\r").unwrap_or(line);
        if !trimmed.iter().all(u8::is_ascii_whitespace) {
            match serde_json::from_slice::<Event>(trimmed) {
                Ok(e) => events.push(e),
                Err(e) => issues.push(LogIssue {
                    path: path.to_path_buf(),
                    line: lines,
                    offset: offset + start as u64,
                    torn_tail: !terminated,
                    message: if terminated {
                        format!("not an event ({e}); skipped")
                    } else {
                        format!("torn last line ({} bytes, {e}); skipped", line.len())
                    },
                }),
            }
        }
        start += line.len() + usize::from(terminated);
        unterminated = !terminated;
    }
    Parsed { events, issues, lines, unterminated }
}

/// Every event and skipped line of a JSONL file, read under a shared lock (for replay and
/// tools; a read-only file is fine).
pub fn read_log(path: &Path) -> Result<(Vec<Event>, Vec<LogIssue>)> {
    let mut file = File::open(path).map_err(|e| RuntimeError::log("open", path, e))?;
    file.lock_shared().map_err(|e| RuntimeError::log("lock", path, e))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| RuntimeError::log("read", path, e))?;
    let parsed = parse(path, &bytes, 0, 0);
    Ok((parsed.events, parsed.issues))
}

/// The log file of `session_id` in a directory target.
pub fn session_log_path(dir: &Path, session_id: &str) -> PathBuf {
    dir.join(format!("{session_id}.jsonl"))
}

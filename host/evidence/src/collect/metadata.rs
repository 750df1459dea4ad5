//! Level 1, metadata: the task text, then one record per changed file from `git diff --raw`
//! (status, rename similarity, entry kind, line counts and `-U0` hunks from one patch that
//! excludes every unreadable path), and in worktree mode the untracked files. Each record is
//! charged to the budget as it is listed.
//!
//! Classification happens here: sensitive, non-UTF-8, symlink, submodule, type-changed,
//! unmerged and oversized entries are marked unreadable with a note *before* any content request.
//!
//! Not for: reading content for excerpts (level 2, `excerpts.rs`) or git plumbing (`git.rs`).

use crate::EvidenceError;
use crate::budget::{Limit, Omission, OmissionReason};
use crate::git::{self, Fail, RawEntry};
use crate::level::Level;
use crate::pack::{ChangedFile, EntryKind, FileStatus, Hunk};
use crate::request::Changes;

use super::collector::{Collector, Entry, NOTE_SENSITIVE, Outcome};
use super::worktree::{WorktreeRead, is_binary, read_worktree};

/// The changed-file listing may use at most 1/`LISTING_SHARE` of the byte and token budget.
const LISTING_SHARE: u64 = 3;

impl<'r, 'c> Collector<'r, 'c> {
    pub(super) fn level1(&mut self) {
        self.level(Level::Metadata, |c| match c.metadata() {
            Ok(outcome) => outcome,
            Err(Fail::TimedOut) => Outcome::Stopped(Limit::Time, "git was stopped at the deadline".to_owned()),
            Err(Fail::Error(e)) => {
                c.error = Some(e);
                Outcome::Complete(Some("failed".to_owned()))
            }
        });
    }

    fn metadata(&mut self) -> git::GitResult<Outcome> {
        let level = Level::Metadata;
        if let Some(task) = &self.request.locator.task {
            let task = self.redact(task);
            let cost = self.tracker.cost(&task);
            if let Err(limit) = self.tracker.try_charge(None, &cost) {
                self.omit(level, OmissionReason::Budget, Some(limit), None, "task text".to_owned());
                return Ok(Outcome::Stopped(limit, "the task text does not fit".to_owned()));
            }
            self.task = Some(task);
        }
        let raw = self.git.diff_raw(&self.resolved.spec, Some(self.deadline()))?;
        let mut entries: Vec<Entry> = Vec::with_capacity(raw.len());
        // Past the deadline, the remaining entries are listed without being examined.
        let mut timed_out = false;
        let only = self.only_paths();
        let wanted = |e: &Entry| {
            only.as_ref().is_none_or(|o| {
                o.contains(e.file.path.as_str()) || e.file.old_path.as_deref().is_some_and(|p| o.contains(p))
            })
        };
        for r in raw {
            timed_out = timed_out || self.tracker.timed_out();
            let entry = self.classify(r, !timed_out)?;
            if wanted(&entry) {
                entries.push(entry);
            }
        }
        if !timed_out {
            match self.patch(&mut entries) {
                Ok(()) => {}
                Err(Fail::TimedOut) => {
                    timed_out = true;
                    for e in entries.iter_mut().filter(|e| e.readable) {
                        e.readable = false;
                        e.file.note = Some("diff not computed before the deadline".to_owned());
                    }
                }
                Err(e) => return Err(e),
            }
        }
        if self.resolved.worktree && !timed_out {
            match self.git.untracked(Some(self.deadline())) {
                Ok(mut untracked) => {
                    untracked.sort();
                    for p in untracked {
                        let entry = self.untracked_entry(p);
                        if wanted(&entry) {
                            entries.push(entry);
                        }
                    }
                }
                Err(Fail::TimedOut) => timed_out = true,
                Err(e) => return Err(e),
            }
        }
        let total = entries.len();
        // The listing may use at most its share of the budget, so that excerpts always have room
        // (a 300-file change must not spend the whole budget on file records). Past the share,
        // the files are listed in excerpt priority order and the rest are summarised.
        let mut records = Vec::with_capacity(total);
        for mut entry in entries {
            entry.file.path = self.redact(&entry.file.path);
            entry.file.old_path = entry.file.old_path.take().map(|p| self.redact(&p));
            let json = serde_json::to_string(&entry.file).expect("a changed-file record serialises");
            let cost = self.tracker.cost(&json);
            records.push((entry, cost));
        }
        let budget = &self.request.budget;
        let (cap_bytes, cap_tokens) = (budget.max_bytes / LISTING_SHARE, budget.max_tokens / LISTING_SHARE);
        let used = self.tracker.usage();
        let (all_bytes, all_tokens) =
            records.iter().fold((used.bytes, used.tokens), |(b, t), (_, c)| (b + c.bytes, t + c.tokens));
        if all_bytes > cap_bytes || all_tokens > cap_tokens {
            records.sort_by_key(|(e, _)| super::excerpts::priority(&e.file));
            // The first file in priority order that fits the whole budget is always listed, so
            // that it can be excerpted; then files while the listing stays within its share.
            let room = |b: u64, t: u64, c: &crate::budget::Cost| {
                b + c.bytes <= budget.max_bytes && t + c.tokens <= budget.max_tokens
            };
            let first = records.iter().position(|(_, c)| room(used.bytes, used.tokens, c));
            let mut listed = Vec::new();
            let mut summarised = Vec::new();
            let (mut bytes, mut tokens) = (used.bytes, used.tokens);
            for (i, (entry, cost)) in records.into_iter().enumerate() {
                let within = bytes + cost.bytes <= cap_bytes && tokens + cost.tokens <= cap_tokens;
                if (Some(i) == first || (within && summarised.is_empty())) && room(bytes, tokens, &cost) {
                    bytes += cost.bytes;
                    tokens += cost.tokens;
                    listed.push((entry, cost));
                } else {
                    summarised.push(entry.file.path);
                }
            }
            if let Some(path) = summarised.first() {
                let left = summarised.len();
                self.tracker.omit_many(
                    Omission {
                        level,
                        reason: OmissionReason::ListingCap,
                        limit: None,
                        path: Some(path.clone()),
                        detail: format!(
                            "{left} of {total} changed-file records from this one on (in excerpt priority order) are \
                             summarised, not listed: the listing keeps room for excerpts"
                        ),
                    },
                    left as u64,
                );
                self.summarised = Some((left as u64, total as u64));
            }
            records = listed;
        }
        for (i, (entry, cost)) in records.into_iter().enumerate() {
            if let Err(limit) = self.tracker.try_charge(None, &cost) {
                let left = (total - i) as u64;
                self.tracker.omit_many(
                    Omission {
                        level,
                        reason: OmissionReason::Budget,
                        limit: Some(limit),
                        path: Some(entry.file.path.clone()),
                        detail: format!("{left} changed-file records from this one on are not listed"),
                    },
                    left,
                );
                return Ok(Outcome::Stopped(limit, format!("{i} of {total} changed files listed")));
            }
            self.entries.push(entry);
        }
        if let Some((left, total)) = self.summarised {
            let listed = total - left;
            return Ok(Outcome::Complete(Some(format!(
                "{listed} of {total} changed files listed; {left} summarised to keep room for excerpts"
            ))));
        }
        if timed_out {
            let detail = "the deadline passed while examining changes; later entries are listed unread (untracked files \
                          are not listed in worktree mode)";
            return Ok(Outcome::Stopped(Limit::Time, detail.to_owned()));
        }
        Ok(Outcome::Complete(None))
    }

    /// The files a `Changes::Since` with `paths` is limited to (`None`: every changed file).
    fn only_paths(&self) -> Option<std::collections::HashSet<String>> {
        match &self.request.locator.changes {
            Changes::Since { paths, .. } if !paths.is_empty() => Some(paths.iter().cloned().collect()),
            _ => None,
        }
    }

    /// Build the changed-file record for a raw entry; `examine`: look up sizes (else the entry is
    /// left unread, the deadline having passed).
    fn classify(&mut self, r: RawEntry, examine: bool) -> git::GitResult<Entry> {
        let status = match r.status {
            b'A' => FileStatus::Added,
            b'M' => FileStatus::Modified,
            b'D' => FileStatus::Deleted,
            b'R' => FileStatus::Renamed,
            b'C' => FileStatus::Copied,
            b'T' => FileStatus::TypeChanged,
            b'U' => FileStatus::Unmerged,
            _ => FileStatus::Unknown,
        };
        let deleted = status == FileStatus::Deleted;
        let mode = if deleted { &r.old_mode } else { &r.new_mode };
        let entry_kind = match mode.as_str() {
            "120000" => EntryKind::Symlink,
            "160000" => EntryKind::Submodule,
            _ => EntryKind::File,
        };
        let utf8 = std::str::from_utf8(&r.path).is_ok()
            && r.old_path.as_deref().is_none_or(|p| std::str::from_utf8(p).is_ok());
        let path = String::from_utf8_lossy(&r.path).into_owned();
        let old_path = r.old_path.as_deref().map(|p| String::from_utf8_lossy(p).into_owned());
        let sensitive =
            self.privacy.is_sensitive(&path) || old_path.as_deref().is_some_and(|p| self.privacy.is_sensitive(p));
        let either_mode_special = [&r.old_mode, &r.new_mode].iter().any(|m| *m == "120000" || *m == "160000");
        let note = if sensitive {
            Some(NOTE_SENSITIVE.to_owned())
        } else if !utf8 {
            Some("path is not valid UTF-8, not read".to_owned())
        } else if entry_kind == EntryKind::Symlink || either_mode_special && entry_kind == EntryKind::File {
            Some("symlink or submodule entry, not followed".to_owned())
        } else if entry_kind == EntryKind::Submodule {
            Some("submodule, not read".to_owned())
        } else if status == FileStatus::TypeChanged {
            Some("type change, not read".to_owned())
        } else if matches!(status, FileStatus::Unmerged | FileStatus::Unknown) {
            Some("unmerged or unknown status, not read".to_owned())
        } else if !examine {
            Some("not examined before the deadline, not read".to_owned())
        } else {
            None
        };
        let mut readable = note.is_none();
        let mut note = note;
        if readable && let Some(size) = self.largest_side(&r, deleted)? {
            let max = self.request.limits.max_file_read_bytes;
            if size > max {
                readable = false;
                note = Some(format!("larger than {max} bytes, not read"));
                self.omit(Level::Metadata, OmissionReason::TooLarge, None, Some(&path), format!("{size} bytes"));
            }
        }
        if sensitive {
            self.omit(Level::Metadata, OmissionReason::Sensitive, None, Some(&path), NOTE_SENSITIVE.to_owned());
        }
        Ok(Entry {
            file: ChangedFile {
                path,
                old_path,
                status,
                similarity: if matches!(status, FileStatus::Renamed | FileStatus::Copied) { r.score } else { None },
                entry: entry_kind,
                added: None,
                removed: None,
                binary: false,
                sensitive,
                note,
                hunks: Vec::new(),
                symbols: Vec::new(),
            },
            raw_path: r.path,
            raw_old: r.old_path,
            old_oid: r.old_oid,
            new_oid: r.new_oid,
            readable,
            content: None,
        })
    }

    /// The larger of the two sides' sizes, as far as known without reading content.
    fn largest_side(&mut self, r: &RawEntry, deleted: bool) -> git::GitResult<Option<u64>> {
        let mut largest: Option<u64> = None;
        let mut consider = |s: Option<u64>| largest = largest.max(s);
        if !git::is_null_oid(&r.old_oid) {
            consider(self.blobs()?.size(&r.old_oid).map_err(|e| EvidenceError::io("git cat-file", e))?);
        }
        if !deleted {
            if self.resolved.worktree {
                let path = self.git.root().join(String::from_utf8_lossy(&r.path).as_ref());
                if let Ok(meta) = std::fs::symlink_metadata(&path) {
                    consider(Some(meta.len()));
                }
            } else if !git::is_null_oid(&r.new_oid) {
                consider(self.blobs()?.size(&r.new_oid).map_err(|e| EvidenceError::io("git cat-file", e))?);
            }
        }
        Ok(largest)
    }

    /// Hunks, line counts and binary flags for readable entries, from one `-U0` patch that
    /// excludes every unreadable path.
    fn patch(&mut self, entries: &mut [Entry]) -> git::GitResult<()> {
        let readable: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].readable).collect();
        if readable.is_empty() {
            return Ok(());
        }
        let excluded: Vec<&[u8]> = entries
            .iter()
            .filter(|e| !e.readable)
            .flat_map(|e| std::iter::once(e.raw_path.as_slice()).chain(e.raw_old.as_deref()))
            .collect();
        let patches = self.git.diff_patch(&self.resolved.spec, None, &excluded, Some(self.deadline()))?;
        let aligned = patches.len() == readable.len()
            && readable.iter().zip(&patches).all(|(&i, p)| patch_matches(&entries[i], p));
        if aligned {
            for (&i, p) in readable.iter().zip(patches) {
                apply_patch(&mut entries[i], p);
            }
            return Ok(());
        }
        // git's order surprised us (e.g. a rename paired differently): one call per entry.
        for &i in &readable {
            let e = &entries[i];
            let mut include: Vec<&[u8]> = vec![e.raw_path.as_slice()];
            include.extend(e.raw_old.as_deref());
            let mut patches = self.git.diff_patch(&self.resolved.spec, Some(&include), &[], Some(self.deadline()))?;
            if patches.len() == 1 {
                let p = patches.pop().expect("one patch");
                apply_patch(&mut entries[i], p);
            } else {
                entries[i].file.note = Some("diff could not be attributed, hunks unknown".to_owned());
            }
        }
        Ok(())
    }

    fn untracked_entry(&mut self, raw_path: Vec<u8>) -> Entry {
        let path = String::from_utf8_lossy(&raw_path).into_owned();
        let utf8 = std::str::from_utf8(&raw_path).is_ok();
        let sensitive = self.privacy.is_sensitive(&path);
        let mut file = ChangedFile {
            path: path.clone(),
            old_path: None,
            status: FileStatus::Untracked,
            similarity: None,
            entry: EntryKind::File,
            added: None,
            removed: None,
            binary: false,
            sensitive,
            note: None,
            hunks: Vec::new(),
            symbols: Vec::new(),
        };
        let mut content = None;
        if sensitive {
            file.note = Some(NOTE_SENSITIVE.to_owned());
            self.omit(Level::Metadata, OmissionReason::Sensitive, None, Some(&path), NOTE_SENSITIVE.to_owned());
        } else if !utf8 {
            file.note = Some("path is not valid UTF-8, not read".to_owned());
        } else {
            match read_worktree(self.git.root(), &self.real_root, &path, self.request.limits.max_file_read_bytes) {
                WorktreeRead::Content(bytes) => {
                    if is_binary(&bytes) {
                        file.binary = true;
                    } else {
                        let n = crate::refs::line_count(&String::from_utf8_lossy(&bytes));
                        file.added = Some(u64::from(n));
                        file.removed = Some(0);
                        if n > 0 {
                            file.hunks.push(Hunk { old_start: 0, old_lines: 0, new_start: 1, new_lines: n });
                        }
                        content = Some(bytes);
                    }
                }
                WorktreeRead::TooLarge(size) => {
                    let max = self.request.limits.max_file_read_bytes;
                    file.note = Some(format!("larger than {max} bytes, not read"));
                    self.omit(Level::Metadata, OmissionReason::TooLarge, None, Some(&path), format!("{size} bytes"));
                }
                WorktreeRead::NotAFile => {
                    file.entry = EntryKind::Symlink;
                    file.note = Some("symlink or special file, not followed".to_owned());
                }
                WorktreeRead::Missing => file.note = Some("vanished while collecting".to_owned()),
            }
        }
        let readable = content.is_some();
        Entry { file, raw_path, raw_old: None, old_oid: String::new(), new_oid: String::new(), readable, content }
    }
}

/// Does patch `p` belong to entry `e`? Checks the blob ids and the unquoted path where git
/// printed them.
fn patch_matches(e: &Entry, p: &git::FilePatch) -> bool {
    let oid_ok = |raw: &str, seen: &Option<String>| match seen {
        Some(seen) if !git::is_null_oid(raw) => raw == seen,
        _ => true,
    };
    let path_ok = match &p.path_hint {
        Some(hint) => *hint == e.raw_path || e.raw_old.as_deref() == Some(hint.as_slice()),
        None => true,
    };
    oid_ok(&e.old_oid, &p.index_old) && oid_ok(&e.new_oid, &p.index_new) && path_ok
}

fn apply_patch(e: &mut Entry, p: git::FilePatch) {
    if p.binary {
        e.file.binary = true;
        e.file.note.get_or_insert_with(|| "binary, not read".to_owned());
        return;
    }
    e.file.added = Some(p.hunks.iter().map(|h| u64::from(h.new_lines)).sum());
    e.file.removed = Some(p.hunks.iter().map(|h| u64::from(h.old_lines)).sum());
    e.file.hunks = p.hunks;
}

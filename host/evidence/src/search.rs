//! Level 3: find where the changed symbols are defined and used, across the repository's working
//! tree, with ripgrep's library crates: `ignore` walks (honouring `.gitignore`, `.ignore`,
//! `.git/info/exclude` and the global excludes file; skipping hidden entries; never following a
//! symlink), `grep-searcher` + `grep-regex` match whole words, in sorted path order.
//!
//! Every candidate file is checked against the sensitive-path rules before it is opened, and
//! against the size cap before it is read. A file with hits is redacted whole before its lines
//! are taken, so a hit inside a private key block shows the redaction, not the key.
//!
//! Not for: choosing which hits enter the pack (the budget does that in `collect/search.rs`), or
//! searching a revision other than the working tree: refs say `"worktree"` unless the file is
//! known to equal the head commit's version (see [`Labeler`]).

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::Path;
use std::time::Instant;

use grep_regex::RegexMatcherBuilder;
use grep_searcher::{BinaryDetection, SearcherBuilder, sinks};
use ignore::WalkBuilder;

use crate::budget::{Omission, OmissionReason};
use crate::excerpt::Lines;
use crate::level::Level;
use crate::pack::{HitKind, LineSpan};
use crate::privacy::SensitivePaths;
use crate::redactor::{Redact, Redaction};
use crate::refs::WORKTREE;
use crate::request::Limits;
use crate::symbols;

/// Which revision a file read from the working tree may claim.
pub(crate) enum Labeler {
    /// Worktree mode: everything is `"worktree"`.
    Worktree,
    /// Revisions mode: a file tracked in `commit` and unchanged in the working tree carries the
    /// commit id; anything else is `"worktree"`.
    Head { commit: String, tracked: HashSet<String>, dirty: HashSet<String> },
}

impl Labeler {
    pub fn label(&self, path: &str) -> String {
        match self {
            Labeler::Worktree => WORKTREE.to_owned(),
            Labeler::Head { commit, tracked, dirty } => {
                if tracked.contains(path) && !dirty.contains(path) {
                    commit.clone()
                } else {
                    WORKTREE.to_owned()
                }
            }
        }
    }
}

/// A matching line that may become a hit.
pub(crate) struct Candidate {
    pub path: String,
    pub revision: String,
    pub line: u32,
    /// The redacted line, terminator kept.
    pub text: String,
    pub symbol: usize,
    pub kind: HitKind,
    /// Redactions on this line.
    pub redactions: Vec<String>,
}

pub(crate) struct Scan {
    pub candidates: Vec<Candidate>,
    pub files_scanned: u64,
    pub lines_matched: u64,
    pub omissions: Vec<(Omission, u64)>,
    pub timed_out: bool,
}

pub(crate) struct ScanInput<'a> {
    pub root: &'a Path,
    pub symbols: &'a [String],
    pub privacy: &'a SensitivePaths,
    pub limits: &'a Limits,
    pub labeler: &'a Labeler,
    /// Lines already in the pack as excerpts, by (path, revision).
    pub covered: &'a HashMap<(String, String), Vec<LineSpan>>,
    pub deadline: Instant,
    /// Each file with hits is redacted whole before its lines are taken.
    pub redactor: &'a dyn Redact,
}

/// Repository-relative path with `/` separators, or `None` if not UTF-8 or outside `root`.
pub(crate) fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let mut out = String::new();
    for c in rel.components() {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(c.as_os_str().to_str()?);
    }
    (!out.is_empty()).then_some(out)
}

/// A sorted, filtered walk of `start` (inside `root`): regular files only.
pub(crate) fn walk(start: &Path) -> ignore::Walk {
    WalkBuilder::new(start)
        .hidden(true)
        .follow_links(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(true)
        .require_git(false)
        .sort_by_file_path(|a, b| a.cmp(b))
        .build()
}

pub(crate) fn scan(input: &ScanInput<'_>) -> Result<Scan, crate::EvidenceError> {
    let mut scan =
        Scan { candidates: Vec::new(), files_scanned: 0, lines_matched: 0, omissions: Vec::new(), timed_out: false };
    if input.symbols.is_empty() {
        return Ok(scan);
    }
    let alternation: Vec<String> = input.symbols.iter().map(|s| regex::escape(s)).collect();
    let pattern = format!(r"(?-u:\b)(?:{})(?-u:\b)", alternation.join("|"));
    let matcher = RegexMatcherBuilder::new()
        .line_terminator(Some(b'\n'))
        .build(&pattern)
        .map_err(|e| crate::EvidenceError::invalid(format!("search pattern: {e}")))?;
    let finder = regex::Regex::new(&pattern).map_err(|e| crate::EvidenceError::invalid(format!("search: {e}")))?;
    let index: HashMap<&str, usize> = input.symbols.iter().enumerate().map(|(i, s)| (s.as_str(), i)).collect();
    let mut searcher = SearcherBuilder::new().binary_detection(BinaryDetection::quit(0)).line_number(true).build();
    let per_symbol = input.limits.max_hits_per_symbol as usize;
    let mut kept: Vec<[usize; 2]> = vec![[0, 0]; input.symbols.len()];
    let mut too_large = 0u64;
    let mut hit_cap = 0u64;
    let mut long_lines = 0u64;
    let mut not_scanned = 0u64;

    for entry in walk(input.root) {
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Some(rel) = relative(input.root, entry.path()) else { continue };
        if input.privacy.is_sensitive(&rel) {
            continue;
        }
        if Instant::now() >= input.deadline {
            scan.timed_out = true;
            break;
        }
        if scan.files_scanned >= input.limits.max_scan_files {
            not_scanned += 1;
            continue;
        }
        let Ok(meta) = entry.metadata() else { continue };
        if meta.len() > input.limits.max_file_read_bytes {
            too_large += 1;
            continue;
        }
        let bytes = match std::fs::read(entry.path()) {
            Ok(b) => b,
            Err(_) => continue,
        };
        scan.files_scanned += 1;
        if bytes.contains(&0) {
            // Binary (git's heuristic looks for a NUL too).
            continue;
        }
        let mut matched: Vec<u32> = Vec::new();
        let _ = searcher.search_slice(
            &matcher,
            &bytes,
            sinks::Bytes(|lnum, _| {
                matched.push(lnum as u32);
                Ok::<bool, io::Error>(true)
            }),
        );
        if matched.is_empty() {
            continue;
        }
        scan.lines_matched += matched.len() as u64;
        let text = String::from_utf8_lossy(&bytes);
        let redacted = input.redactor.redact(&text).map_err(|reason| crate::EvidenceError::Redaction { reason })?;
        let (redacted, redactions) = (redacted.text, redacted.found);
        let lines = Lines::new(&redacted);
        let revision = input.labeler.label(&rel);
        let covered = input.covered.get(&(rel.clone(), revision.clone()));
        let lang = symbols::language(&rel);
        for n in matched {
            if n == 0 || n > lines.len() {
                continue;
            }
            if covered.is_some_and(|spans| spans.iter().any(|s| s.start <= n && n <= s.end)) {
                continue;
            }
            let line = lines.line(n);
            let def = symbols::definition(lang, line).and_then(|(name, _)| index.get(name).copied());
            let (symbol, kind) = match def {
                Some(i) => (i, HitKind::Definition),
                None => match finder.find_iter(line).find_map(|m| index.get(m.as_str()).copied()) {
                    Some(i) => (i, HitKind::Reference),
                    // The match was inside a secret the redactor replaced.
                    None => continue,
                },
            };
            let slot = usize::from(kind == HitKind::Reference);
            if kept[symbol][slot] >= per_symbol {
                hit_cap += 1;
                continue;
            }
            let full = lines.text(LineSpan { start: n, end: n });
            if full.len() > input.limits.max_line_bytes as usize {
                long_lines += 1;
                continue;
            }
            kept[symbol][slot] += 1;
            scan.candidates.push(Candidate {
                path: rel.clone(),
                revision: revision.clone(),
                line: n,
                text: full,
                symbol,
                kind,
                redactions: on_line(&redactions, n),
            });
        }
    }
    let omission = |reason, detail: String| Omission { level: Level::Search, reason, limit: None, path: None, detail };
    if too_large > 0 {
        let detail = format!("{too_large} files larger than {} bytes not searched", input.limits.max_file_read_bytes);
        scan.omissions.push((omission(OmissionReason::TooLarge, detail), too_large));
    }
    if not_scanned > 0 {
        let detail =
            format!("{not_scanned} files beyond max_scan_files ({}) not searched", input.limits.max_scan_files);
        scan.omissions.push((omission(OmissionReason::ScanCap, detail), not_scanned));
    }
    if hit_cap > 0 {
        let detail = format!("{hit_cap} matching lines beyond max_hits_per_symbol ({per_symbol}) per kind");
        scan.omissions.push((omission(OmissionReason::HitCap, detail), hit_cap));
    }
    if long_lines > 0 {
        let detail = format!("{long_lines} matching lines longer than {} bytes", input.limits.max_line_bytes);
        scan.omissions.push((omission(OmissionReason::LongLine, detail), long_lines));
    }
    Ok(scan)
}

pub(crate) fn on_line(redactions: &[Redaction], line: u32) -> Vec<String> {
    redactions.iter().filter(|r| r.first_line <= line && line <= r.last_line).map(|r| r.kind.clone()).collect()
}

/// Order candidates for charging: every symbol's definitions first (symbol priority order),
/// then references round-robin across symbols.
pub(crate) fn order(mut candidates: Vec<Candidate>) -> Vec<Candidate> {
    let mut rank: HashMap<(usize, bool), usize> = HashMap::new();
    let mut keyed: Vec<(usize, usize, usize, Candidate)> = candidates
        .drain(..)
        .map(|c| {
            let is_ref = c.kind == HitKind::Reference;
            let r = rank.entry((c.symbol, is_ref)).or_default();
            let k = *r;
            *r += 1;
            (usize::from(is_ref), k, c.symbol, c)
        })
        .collect();
    keyed.sort_by_key(|a| (a.0, a.1, a.2));
    keyed.into_iter().map(|(_, _, _, c)| c).collect()
}

//! Full-text search across the store (SPEC §11.3), no index and no external binary. Ranked
//! by default (`ranked`: the query language and BM25F of `dossier_core::lexical::search`
//! over an aho-corasick prefilter, docs/search.md); this file is the exact-match mode
//! (`--literal`, `--regex`): a file scan with ripgrep's own library crates (grep-searcher,
//! grep-regex).
//!
//! Searches every Dossier, archived ones included: `dossier.md` (frontmatter and Distilled
//! State) and artifacts (`.md` with their frontmatter, `.json`, `.txt`, and the
//! `.meta.yaml` sidecars that hold the titles of JSON and text artifacts). Files with NUL
//! bytes are binary and skipped whole. Literal by default, `regex` optional, smart case
//! (case-insensitive unless the query has an uppercase letter). Non-UTF-8 bytes are
//! replaced in snippets, never a panic.
//!
//! Order is predictable: Dossiers by slug; within one, `dossier.md` first, then artifacts by
//! id (capture order), lines ascending. Files are searched in parallel, results placed by
//! file, so the order never depends on scheduling.
//!
//! Not for: suggestion ranking (a policy) or loading artifacts for any other purpose.

pub mod ranked;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use grep_matcher::Matcher;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkMatch};
use serde::Serialize;

use crate::app::App;
use crate::archive;
use crate::error::{Code, DossierError, Result};
use crate::layout;
use crate::model::Status;
use crate::progress::{Progress, Unit};

/// Longest snippet, in characters.
const SNIPPET_CHARS: usize = 200;

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum HitKind {
    /// In `dossier.md` (frontmatter or Distilled State).
    Dossier,
    /// In an artifact's content (or a Markdown artifact's frontmatter).
    Artifact,
    /// In a JSON or text artifact's metadata sidecar (its title, provenance, ...).
    ArtifactMetadata,
}

#[derive(Clone, Debug, Serialize)]
pub struct Hit {
    pub kind: HitKind,
    pub path: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact_title: Option<String>,
    pub line: u64,
    pub snippet: String,
    /// Ranked mode: where in the Dossier (`situation` … `next-steps`, `name`, `next-action`,
    /// `open-questions`, `frontmatter`; absent for artifacts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// Ranked mode, artifacts: the citation for this line, `[src:<art-id>#L<n>]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cite: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct DossierHits {
    pub dossier_id: String,
    pub dossier_name: String,
    pub slug: String,
    pub status: Option<Status>,
    /// Archived Dossiers are searched too, and marked.
    pub archived: bool,
    /// Ranked mode: the Dossier's relevance score (higher is better).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    pub hits: Vec<Hit>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SearchResult {
    pub query: String,
    pub regex: bool,
    pub case_insensitive: bool,
    /// Matching lines in all searched files.
    pub total_hits: u64,
    /// Hits returned (at most `limit`).
    pub returned: usize,
    pub truncated: bool,
    pub files_searched: usize,
    pub binary_files_skipped: usize,
    pub results: Vec<DossierHits>,
    /// Dossiers skipped (a symbolic link inside them), one message each; reported in the
    /// envelope's `warnings`, not in `data`.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

pub struct Query<'a> {
    pub text: &'a str,
    pub regex: bool,
    pub dossier: Option<&'a str>,
    pub limit: usize,
}

/// One file to search and what it belongs to.
struct Target {
    dossier: usize,
    path: PathBuf,
    kind: HitKind,
    artifact_id: Option<String>,
}

#[derive(Default)]
struct FileHits {
    hits: Vec<(u64, String)>,
    count: u64,
    binary: bool,
}

struct Collect<'a> {
    matcher: &'a RegexMatcher,
    out: FileHits,
    cap: usize,
}

impl Sink for Collect<'_> {
    type Error = io::Error;

    fn matched(&mut self, _: &Searcher, m: &SinkMatch<'_>) -> std::result::Result<bool, io::Error> {
        self.out.count += 1;
        if self.out.hits.len() < self.cap {
            let start = self.matcher.find(m.bytes()).ok().flatten().map(|r| r.start()).unwrap_or(0);
            self.out.hits.push((m.line_number().unwrap_or(0), snippet(m.bytes(), start)));
        }
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, _: u64) -> std::result::Result<bool, io::Error> {
        self.out.binary = true;
        Ok(false)
    }
}

/// The line around byte offset `at`, trimmed, at most [`SNIPPET_CHARS`] characters, with
/// invalid UTF-8 replaced.
fn snippet(line: &[u8], at: usize) -> String {
    let text = String::from_utf8_lossy(line);
    let text = text.trim_end_matches(['\n', '\r']);
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= SNIPPET_CHARS {
        return text.trim().to_string();
    }
    // Map the byte offset to a char index (approximately, on the lossy text).
    let at_char = String::from_utf8_lossy(&line[..at.min(line.len())]).chars().count();
    let begin = at_char.saturating_sub(SNIPPET_CHARS / 3).min(chars.len() - SNIPPET_CHARS);
    let mut s: String = chars[begin..begin + SNIPPET_CHARS].iter().collect();
    if begin > 0 {
        s.insert(0, '…');
    }
    if begin + SNIPPET_CHARS < chars.len() {
        s.push('…');
    }
    s.trim().to_string()
}

fn matcher(q: &Query<'_>) -> Result<RegexMatcher> {
    RegexMatcherBuilder::new().case_smart(true).fixed_strings(!q.regex).build(q.text).map_err(|e| {
        DossierError::new(Code::InvalidInput, format!("`{}` is not a valid regular expression: {e}", q.text))
            .with_details(
                serde_json::json!({ "field": "query", "expected": "a valid regular expression (with regex)" }),
            )
            .with_next(crate::next::Next::per(
                "drop --regex to search for the literal text",
                "call dossier_search again with regex=false to search for the literal text",
            ))
    })
}

/// The Dossier directories to search (one, or all), and a warning per Dossier skipped.
/// Never through a symbolic link (SPEC §3.2): a Dossier with one is skipped, with a warning.
pub(crate) fn dossier_dirs(app: &App, dossier: Option<&str>) -> Result<(Vec<PathBuf>, Vec<String>)> {
    Ok(match dossier {
        Some(t) => (vec![app.store.resolve(t)?], Vec::new()),
        None => {
            let (files, mut warnings) = app.store.dossier_files_checked()?;
            let mut dirs = Vec::with_capacity(files.len());
            for (f, _) in files {
                let dir = f.parent().expect("has parent").to_path_buf();
                match layout::check_entries(&dir) {
                    Ok(()) => dirs.push(dir),
                    Err(e) => warnings.push(e.message),
                }
            }
            (dirs, warnings)
        }
    })
}

/// Each file searched is reported to `progress` (the CLI's bar on a terminal).
pub fn search(app: &App, q: &Query<'_>, progress: &dyn Progress) -> Result<SearchResult> {
    app.store.require()?;
    if q.text.is_empty() {
        return Err(DossierError::new(Code::InvalidInput, "the search query is empty")
            .with_details(serde_json::json!({ "field": "query", "expected": "non-empty text" })));
    }
    let matcher = matcher(q)?;
    let case_insensitive = !q.text.chars().any(char::is_uppercase);
    let (dirs, warnings) = dossier_dirs(app, q.dossier)?;
    let mut targets = Vec::new();
    for (i, dir) in dirs.iter().enumerate() {
        targets.push(Target { dossier: i, path: dir.join("dossier.md"), kind: HitKind::Dossier, artifact_id: None });
        let Ok(entries) = std::fs::read_dir(dir.join("artifacts")) else { continue };
        let mut names: Vec<String> =
            entries.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        for name in names {
            let (id, kind) = if let Some(id) = name.strip_suffix(".meta.yaml") {
                (id, HitKind::ArtifactMetadata)
            } else if let Some(id) =
                name.strip_suffix(".md").or_else(|| name.strip_suffix(".json")).or_else(|| name.strip_suffix(".txt"))
            {
                (id, HitKind::Artifact)
            } else {
                continue; // not a supported artifact format
            };
            if name.starts_with('.') {
                continue;
            }
            let path = dir.join("artifacts").join(&name);
            targets.push(Target { dossier: i, path, kind, artifact_id: Some(id.to_string()) });
        }
    }

    progress.start("searching", targets.len() as u64, Unit::Files);
    let per_file = scan(&matcher, &targets, q.limit.max(1), progress);
    progress.finish();

    let mut total = 0u64;
    let mut binary = 0usize;
    let mut groups: Vec<Option<DossierHits>> = vec![None; dirs.len()];
    let mut returned = 0usize;
    for (t, found) in targets.iter().zip(per_file) {
        if found.binary {
            binary += 1;
            continue;
        }
        total += found.count;
        if found.hits.is_empty() || returned >= q.limit {
            continue;
        }
        let group = groups[t.dossier].get_or_insert_with(|| dossier_header(&dirs[t.dossier]));
        let title = t.artifact_id.as_ref().and_then(|id| artifact_title(&dirs[t.dossier], id));
        for (line, snippet) in found.hits.into_iter().take(q.limit - returned) {
            group.hits.push(Hit {
                kind: t.kind.clone(),
                path: t.path.clone(),
                artifact_id: t.artifact_id.clone(),
                artifact_title: title.clone(),
                line,
                snippet,
                section: None,
                cite: None,
            });
            returned += 1;
        }
    }
    Ok(SearchResult {
        query: q.text.to_string(),
        regex: q.regex,
        case_insensitive,
        total_hits: total,
        returned,
        truncated: (returned as u64) < total,
        files_searched: targets.len(),
        binary_files_skipped: binary,
        results: groups.into_iter().flatten().collect(),
        warnings,
    })
}

/// Search every target, in parallel, keeping at most `cap` hits per file.
fn scan(matcher: &RegexMatcher, targets: &[Target], cap: usize, progress: &dyn Progress) -> Vec<FileHits> {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).clamp(1, 8);
    let next = AtomicUsize::new(0);
    let mut slots: Vec<FileHits> = (0..targets.len()).map(|_| FileHits::default()).collect();
    let results: Vec<Vec<(usize, FileHits)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut searcher = SearcherBuilder::new()
                        .binary_detection(BinaryDetection::quit(b'\x00'))
                        .line_number(true)
                        .build();
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(t) = targets.get(i) else { break };
                        let mut sink = Collect { matcher, out: FileHits::default(), cap };
                        // An unreadable file (removed mid-search, permissions) has no hits.
                        let _ = searcher.search_path(matcher, &t.path, &mut sink);
                        progress.advance(1);
                        done.push((i, sink.out));
                    }
                    done
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("search worker panicked")).collect()
    });
    for (i, hits) in results.into_iter().flatten() {
        slots[i] = hits;
    }
    slots
}

pub(crate) fn dossier_header(dir: &Path) -> DossierHits {
    let slug = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    match layout::read_frontmatter(&dir.join("dossier.md")) {
        Ok((fm, _)) => DossierHits {
            dossier_id: fm.id,
            dossier_name: fm.name,
            slug: fm.slug,
            archived: fm.status == Status::Archived,
            status: Some(fm.status),
            score: None,
            hits: Vec::new(),
        },
        // A Dossier with broken frontmatter is still searchable; say what we know.
        Err(_) => DossierHits {
            dossier_id: String::new(),
            dossier_name: slug.clone(),
            slug,
            status: None,
            archived: false,
            score: None,
            hits: Vec::new(),
        },
    }
}

pub(crate) fn artifact_title(dir: &Path, id: &str) -> Option<String> {
    archive::read_meta(dir, id).map(|m| m.title)
}

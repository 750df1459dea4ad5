//! Ranked search (SPEC §11.3, issue 22), the default mode: BM25F over documents — each
//! Dossier's frontmatter fields (name, next action, open questions, other values), each of
//! its Distilled State sections, each artifact (title, metadata, body) — with the query
//! language and scoring of the one lexical engine (`dossier_core::lexical`, compiled in
//! natively; docs/search.md says why not in the component).
//!
//! How a search runs. Pass 1 (statistics and records): every file is read once and run
//! through an aho-corasick automaton of the query's terms (ASCII case-insensitive prefixes
//! of the stems, and their spaced/hyphenated splits for compounds); only the files it
//! matches are tokenised and analysed — document frequencies, matching documents, bytes for
//! the mean body length, a flag per file and per Dossier, and for each matching document a
//! compact scoring record (sparse per-group, per-field counts, field lengths, proximity
//! cover, adjacent pairs: everything of its score that needs no collection statistics).
//! When pass 1 ends, the records are scored with the finished statistics, a Dossier at a
//! time, and only the best `offset + limit` Dossiers are kept (a bounded top list);
//! snippets are made by re-reading the page's Dossiers only. The records live in
//! [`RECORD_BUDGET`]; a search that overruns it drops them and reads the matching files
//! again (pass 2), with the same result. Memory is thus bounded by the budget plus the
//! page, not by the number of matching documents. Both passes run in parallel.
//!
//! Order is deterministic: score (rounded to 1e-9), then most recently touched, then slug.
//!
//! Not for: exact lookups (`--literal`, `--regex`: `search::search`) or suggestion ranking.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use aho_corasick::AhoCorasick;
use dossier_core::lexical::search::{self as lx, FIELDS, Field, Kind, Place, Presence, Scorer};
use dossier_core::lexical::{self, Terms, section_of_heading};
use serde::Serialize;

use super::{DossierHits, Hit, HitKind, artifact_title, dossier_dirs, dossier_header};
use crate::app::App;
use crate::error::{Code, DossierError, Result};
use crate::progress::{Progress, Unit};

/// Longest snippet, in characters (before marks).
const SNIPPET_CHARS: usize = 200;
/// Snippets per Dossier.
const SNIPPETS: usize = 3;
const SECTION_NAMES: [&str; 5] = ["situation", "decisions", "findings", "current-state", "next-steps"];

pub struct RankedQuery<'a> {
    pub text: &'a str,
    /// Only this Dossier (the CLI's `--dossier`, MCP's `dossier`; the `dossier:` filter too).
    pub dossier: Option<&'a str>,
    /// At most this many Dossiers.
    pub limit: usize,
    /// Skip this many Dossiers (paging).
    pub offset: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct RankedResult {
    pub query: String,
    /// Always `ranked` (the exact-match modes return their own shape).
    pub mode: &'static str,
    /// Matching documents (sections, frontmatter, artifacts) in all Dossiers.
    pub total_hits: u64,
    /// Matching Dossiers.
    pub total_dossiers: usize,
    pub offset: usize,
    /// Dossiers returned (at most `limit`).
    pub returned: usize,
    /// More Dossiers match after this page.
    pub truncated: bool,
    pub files_searched: usize,
    /// Files the prefilter passed to the tokeniser.
    pub candidate_files: usize,
    pub binary_files_skipped: usize,
    pub results: Vec<DossierHits>,
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// Which document of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DocRef {
    Frontmatter,
    Section(usize),
    Artifact,
}

/// One file to read: a Dossier's `dossier.md`, or an artifact's content file with its
/// metadata sidecar (JSON and text artifacts).
struct Target {
    dossier: usize,
    path: PathBuf,
    sidecar: Option<PathBuf>,
    artifact_id: Option<String>,
}

fn invalid(e: lx::QueryError) -> DossierError {
    DossierError::new(Code::InvalidInput, e.message)
        .with_details(serde_json::json!({ "field": e.field, "valid": e.valid }))
        .with_next(crate::next::Next::per(
            "filters: status:<status> dossier:<slug> in:<section> kind:artifact; \"quoted phrase\"; -exclusion",
            "filters: status:, dossier:, in:<section>, kind:artifact; \"phrase\"; -word",
        ))
}

/// Ranked search; each file read is reported to `progress`.
pub fn search(app: &App, q: &RankedQuery<'_>, progress: &dyn Progress) -> Result<RankedResult> {
    app.store.require()?;
    if q.text.trim().is_empty() {
        return Err(DossierError::new(Code::InvalidInput, "the search query is empty")
            .with_details(serde_json::json!({ "field": "query", "expected": "non-empty text" })));
    }
    let query = lx::parse(q.text).map_err(invalid)?;
    let only = match (q.dossier, query.dossier.as_deref()) {
        (Some(a), Some(b)) if a != b => {
            return Err(DossierError::new(
                Code::InvalidInput,
                format!("--dossier {a} and the filter dossier:{b} name different Dossiers; give one"),
            )
            .with_details(serde_json::json!({ "field": "dossier" })));
        }
        (a, b) => a.or(b),
    };
    let (mut dirs, warnings) = dossier_dirs(app, only)?;
    if !query.statuses.is_empty() {
        let files: Vec<PathBuf> = dirs.iter().map(|d| d.join("dossier.md")).collect();
        let fms = crate::layout::read_frontmatters(&files);
        dirs = dirs
            .into_iter()
            .zip(fms)
            .filter(|(_, fm)| fm.as_ref().is_ok_and(|(fm, _)| query.statuses.iter().any(|s| s == fm.status.as_str())))
            .map(|(d, _)| d)
            .collect();
    }
    let targets = targets(&dirs, &query);
    let matcher = query.matcher();
    let automaton = prefilter(&query);

    let keep = q.offset.saturating_add(q.limit);
    let Scan { stats, scorer, top, total_dossiers, .. } =
        scan(&targets, &dirs, &query, &automaton, keep, RECORD_BUDGET, progress);

    let page: Vec<&Ranked> = top.iter().skip(q.offset).take(q.limit).collect();
    let marks = {
        // The query's words, and the compounds their neighbours make ("sign in" marks
        // "sign-in"); adjacent marks merge into one span.
        let mut m: Vec<String> = query.mark.iter().map(|w| lexical::stem(w)).collect();
        m.extend(query.groups.iter().flat_map(|g| &g.alternatives).filter(|a| a.len() == 1).map(|a| a[0].clone()));
        Terms::new(&m)
    };
    let mut results = Vec::with_capacity(page.len());
    for r in page {
        let mut header = dossier_header(&dirs[r.dossier]);
        header.score = Some((r.score * 1000.0).round() / 1000.0);
        let mut shown = 0usize;
        for s in &r.docs {
            if shown >= SNIPPETS {
                break;
            }
            let t = &targets[s.target];
            let take = if shown == 0 { 2 } else { 1 };
            for hit in snippets(t, s.doc, &dirs[r.dossier], &query, &matcher, &scorer, &marks, take) {
                header.hits.push(hit);
                shown += 1;
            }
        }
        results.push(header);
    }
    Ok(RankedResult {
        query: q.text.to_string(),
        mode: "ranked",
        total_hits: stats.total_hits,
        total_dossiers,
        offset: q.offset,
        returned: results.len(),
        truncated: q.offset + results.len() < total_dossiers,
        files_searched: targets.len(),
        candidate_files: stats.candidates,
        binary_files_skipped: stats.binary,
        results,
        warnings,
    })
}

/// The files in scope: `dossier.md` unless `kind:artifact`; artifacts unless `kind:dossier`
/// or an `in:` filter (which names places in the Distilled State).
fn targets(dirs: &[PathBuf], q: &lx::Query) -> Vec<Target> {
    let mut out = Vec::new();
    for (i, dir) in dirs.iter().enumerate() {
        if q.kind != Some(Kind::Artifact) {
            out.push(Target { dossier: i, path: dir.join("dossier.md"), sidecar: None, artifact_id: None });
        }
        if q.kind == Some(Kind::Dossier) || !q.places.is_empty() {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(dir.join("artifacts")) else { continue };
        let mut names: Vec<String> =
            entries.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        for name in &names {
            if name.starts_with('.') || name.ends_with(".meta.yaml") {
                continue;
            }
            let Some(id) =
                name.strip_suffix(".md").or_else(|| name.strip_suffix(".json")).or_else(|| name.strip_suffix(".txt"))
            else {
                continue;
            };
            let meta = format!("{id}.meta.yaml");
            let sidecar = names.binary_search(&meta).ok().map(|_| dir.join("artifacts").join(&meta));
            out.push(Target {
                dossier: i,
                path: dir.join("artifacts").join(name),
                sidecar,
                artifact_id: Some(id.to_string()),
            });
        }
    }
    out
}

/// The prefilter: for each alternative, its longest term's stem minus its last letter
/// ("polici" → "polic", matching "policy"), and for a compound-length term its splits with
/// a space or hyphen ("sign in" for "signin"); ASCII case-insensitive.
fn prefilter(q: &lx::Query) -> AhoCorasick {
    let mut pats: Vec<String> = Vec::new();
    for g in q.groups.iter().chain(&q.exclusions) {
        for (i, alt) in g.alternatives.iter().enumerate() {
            let Some(t) = alt.iter().max_by_key(|t| t.len()) else { continue };
            let chars: Vec<char> = t.chars().collect();
            let keep = if chars.len() > 3 { chars.len() - 1 } else { chars.len() };
            pats.push(chars[..keep].iter().collect());
            // Splits for the group's own word only: the other alternatives are joins with a
            // neighbour, or the words of a compound, each met by its own pattern.
            if i == 0 && t.is_ascii() && (5..=14).contains(&t.len()) && alt.len() == 1 {
                for k in 3..t.len() - 1 {
                    let tail = &t[k..t.len() - 1];
                    for sep in [" ", "-"] {
                        pats.push(format!("{}{sep}{tail}", &t[..k]));
                    }
                }
            }
        }
    }
    pats.sort();
    pats.dedup();
    AhoCorasick::builder().ascii_case_insensitive(true).build(&pats).expect("literal patterns always build")
}

/// Memory for pass 1's scoring records ([`Record`], [`Tf`]): within it a search is one read
/// of the store; a search whose matching documents need more (about 60 bytes each, so some
/// 500,000 documents) drops its records and takes the re-read path ([`rank`]). Memory is
/// thus bounded by this budget plus the page, whatever the number of matches.
pub const RECORD_BUDGET: usize = 32 << 20;

/// What a search found: the statistics, the scorer made from them, the best `keep`
/// Dossiers (best first) and how many Dossiers match in all.
struct Scan {
    stats: Stats,
    scorer: Scorer,
    top: Vec<Ranked>,
    total_dossiers: usize,
    /// Ranked from pass 1's records (within the budget), not by a second read (the tests
    /// check which path ran).
    #[cfg_attr(not(test), allow(dead_code))]
    from_records: bool,
}

/// Both passes: the statistics (pass 1, which also keeps each matching document's scoring
/// record while they fit in `budget` bytes), then the ranking, from the records when they
/// fit, else by reading the matching files again (pass 2). Either way gives the same order,
/// scores and documents.
fn scan(
    targets: &[Target],
    dirs: &[PathBuf],
    query: &lx::Query,
    automaton: &AhoCorasick,
    keep: usize,
    budget: usize,
    progress: &dyn Progress,
) -> Scan {
    // Pass 1, statistics: counts (document frequencies, matching documents, bytes), which
    // files have a matching document, which Dossiers an exclusion drops, and the records.
    progress.start("searching", targets.len() as u64, Unit::Files);
    let mut stats = statistics(targets, dirs.len(), query, automaton, budget, progress);
    progress.finish();

    let (mut docs_n, mut body_docs) = (0u64, 0u64);
    for t in targets {
        if t.artifact_id.is_some() {
            docs_n += 1;
            body_docs += 1;
        } else {
            docs_n += 6;
            body_docs += 5;
        }
    }
    let mut avg = [0.0; FIELDS];
    avg[Field::Body as usize] = stats.bytes as f64 / body_docs.max(1) as f64;
    let scorer = Scorer::new(docs_n, &stats.df, avg);

    // Scoring: each Dossier scored from its documents and kept only if it can be on the
    // page (a bounded top list); from the records, or (over budget) pass 2's second read.
    progress.start("ranking", stats.matched_files as u64, Unit::Files);
    let from_records = stats.records.is_some();
    let (top, total_dossiers) = match stats.records.take() {
        Some(records) => rank_records(records, targets, dirs, &stats, query, &scorer, keep, progress),
        None => rank(targets, dirs, &stats, query, &scorer, keep, progress),
    };
    progress.finish();
    Scan { stats, scorer, top, total_dossiers, from_records }
}

/// Pass 1's answer: counts only, whatever the number of matching documents, and the
/// scoring records when they fit the budget.
struct Stats {
    /// Per query group, the documents that have it.
    df: Vec<u64>,
    /// Matching documents.
    total_hits: u64,
    /// Bytes of every file read (for the mean body length).
    bytes: u64,
    candidates: usize,
    binary: usize,
    /// Per target: it has a matching document (pass 2 reads only these).
    matched: Vec<bool>,
    matched_files: usize,
    /// Per Dossier: one of its documents has an exclusion (pass 2 skips it).
    excluded: Vec<bool>,
    /// Every matching document's record, per worker thread (each in target order), or
    /// `None` when they did not fit the budget (or the query cannot be recorded).
    records: Option<Vec<Records>>,
}

/// One matching document's part of the score that does not depend on the collection (no
/// df, idf, document count or mean length): what [`Scorer::contributions`] and
/// [`Scorer::bonus`] read of its [`lx::DocStats`], its term counts kept sparse in
/// [`Records::tf`].
struct Record {
    target: u32,
    /// Its [`DocRef`]: 0 the frontmatter, 1 + s section s, `u8::MAX` an artifact.
    doc: u8,
    tf_len: u16,
    tf_start: u32,
    /// [`lx::DocStats::cover`].
    cover: u32,
    /// [`lx::DocStats::adjacent`], a bit per pair.
    adjacent: u64,
    /// [`lx::DocStats::len`].
    len: [u32; FIELDS],
}

/// A non-zero term count: group, field, occurrences.
#[derive(Clone, Copy)]
struct Tf {
    group: u16,
    field: u8,
    n: u32,
}

/// One worker's records, in the order it read them (targets ascending, documents in file
/// order).
#[derive(Default)]
struct Records {
    list: Vec<Record>,
    tf: Vec<Tf>,
}

impl Records {
    fn bytes(&self) -> usize {
        self.list.capacity() * std::mem::size_of::<Record>() + self.tf.capacity() * std::mem::size_of::<Tf>()
    }

    fn push(&mut self, target: usize, doc: DocRef, st: &lx::DocStats) {
        let tf_start = self.tf.len() as u32;
        for (g, per_field) in st.tf.iter().enumerate() {
            for (f, &n) in per_field.iter().enumerate() {
                if n > 0 {
                    self.tf.push(Tf { group: g as u16, field: f as u8, n });
                }
            }
        }
        let adjacent = st.adjacent.iter().enumerate().fold(0u64, |b, (i, &a)| b | u64::from(a) << i);
        self.list.push(Record {
            target: target as u32,
            doc: match doc {
                DocRef::Frontmatter => 0,
                DocRef::Section(s) => 1 + s as u8,
                DocRef::Artifact => u8::MAX,
            },
            tf_len: (self.tf.len() as u32 - tf_start) as u16,
            tf_start,
            cover: st.cover,
            adjacent,
            len: st.len,
        });
    }

    /// The record's stats again, as [`lx::Query::analyse`] gave them (exclusions aside:
    /// pass 1 flagged those per Dossier).
    fn stats(&self, r: &Record, groups: usize) -> (DocRef, lx::DocStats) {
        let mut tf = vec![[0u32; FIELDS]; groups];
        for t in &self.tf[r.tf_start as usize..r.tf_start as usize + r.tf_len as usize] {
            tf[t.group as usize][t.field as usize] = t.n;
        }
        let adjacent = (0..groups.saturating_sub(1)).map(|i| r.adjacent >> i & 1 == 1).collect();
        let doc = match r.doc {
            0 => DocRef::Frontmatter,
            u8::MAX => DocRef::Artifact,
            s => DocRef::Section(s as usize - 1),
        };
        (doc, lx::DocStats { tf, excluded: Vec::new(), len: r.len, cover: r.cover, adjacent })
    }
}

fn threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).clamp(1, 8)
}

/// Pass 1: read and prefilter every target, find which query groups and exclusions each
/// candidate document has, in parallel. While the records fit `budget` bytes, each
/// candidate document is analysed in full and a matching one's [`Record`] kept; past it
/// (or for a query of more than 64 groups) the records are dropped and a document's scan
/// stops once every group and exclusion has been seen (counts only).
fn statistics(
    targets: &[Target],
    dossiers: usize,
    q: &lx::Query,
    ac: &AhoCorasick,
    budget: usize,
    progress: &dyn Progress,
) -> Stats {
    let next = AtomicUsize::new(0);
    let matched: Vec<AtomicBool> = (0..targets.len()).map(|_| AtomicBool::new(false)).collect();
    let excluded: Vec<AtomicBool> = (0..dossiers).map(|_| AtomicBool::new(false)).collect();
    // Bytes the workers' records hold (their vectors' capacity), and whether they overran.
    let held = AtomicUsize::new(0);
    let over = AtomicBool::new(q.groups.len() > 64 || targets.len() > u32::MAX as usize);
    struct Local {
        df: Vec<u64>,
        hits: u64,
        bytes: u64,
        candidates: usize,
        binary: usize,
        matched: usize,
        records: Records,
    }
    let locals: Vec<Local> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads())
            .map(|_| {
                s.spawn(|| {
                    // Each thread has its own matcher scratch space.
                    let m = q.matcher();
                    let presence = Presence::new(q, &m);
                    let mut l = Local {
                        df: vec![0; q.groups.len()],
                        hits: 0,
                        bytes: 0,
                        candidates: 0,
                        binary: 0,
                        matched: 0,
                        records: Records::default(),
                    };
                    let mut mine = 0usize; // bytes of `l.records` counted in `held`
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(t) = targets.get(i) else { break };
                        progress.advance(1);
                        let (content, sidecar) = match read(t, Some(ac)) {
                            Read::Unreadable => continue,
                            Read::Rejected(n) => {
                                l.bytes += n;
                                continue;
                            }
                            Read::Binary(n) => {
                                l.bytes += n;
                                l.candidates += 1;
                                l.binary += 1;
                                continue;
                            }
                            Read::Text(c, side) => (c, side),
                        };
                        l.bytes += content.len() as u64;
                        l.candidates += 1;
                        let text = String::from_utf8_lossy(&content);
                        let side = sidecar.as_ref().map(|s| String::from_utf8_lossy(s));
                        let mut any = false;
                        for (doc, fields) in documents(t, &text, side.as_deref(), q) {
                            let fields: Vec<(Field, &str)> = fields.iter().map(|(f, s, _)| (*f, *s)).collect();
                            let recording = !over.load(Ordering::Relaxed);
                            let found = if recording {
                                let st = q.analyse(&m, &fields);
                                if st.matches() {
                                    l.records.push(i, doc, &st);
                                }
                                let groups = (0..q.groups.len()).filter(|&g| st.has(g)).fold(0u64, |b, g| b | 1 << g);
                                lx::Found { groups, excluded: st.excluded.iter().any(|&e| e) }
                            } else {
                                presence.find(q, &m, &fields)
                            };
                            if found.matches() {
                                l.hits += 1;
                                any = true;
                                for (g, d) in l.df.iter_mut().enumerate() {
                                    *d += u64::from(found.has(g));
                                }
                            }
                            if found.excluded {
                                excluded[t.dossier].store(true, Ordering::Relaxed);
                            }
                        }
                        if any {
                            matched[i].store(true, Ordering::Relaxed);
                            l.matched += 1;
                        }
                        // Account for the records' growth; past the budget every worker
                        // drops its records and counts only from here on.
                        if over.load(Ordering::Relaxed) {
                            if mine > 0 {
                                l.records = Records::default();
                                mine = 0;
                            }
                        } else if l.records.bytes() != mine {
                            let now = l.records.bytes();
                            let total = held.fetch_add(now - mine, Ordering::Relaxed) + now - mine;
                            mine = now;
                            if total > budget {
                                over.store(true, Ordering::Relaxed);
                                l.records = Records::default();
                                mine = 0;
                            }
                        }
                    }
                    l
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("search worker panicked")).collect()
    });
    let over = over.into_inner();
    let mut st = Stats {
        df: vec![0; q.groups.len()],
        total_hits: 0,
        bytes: 0,
        candidates: 0,
        binary: 0,
        matched: matched.into_iter().map(AtomicBool::into_inner).collect(),
        matched_files: 0,
        excluded: excluded.into_iter().map(AtomicBool::into_inner).collect(),
        records: (!over).then(Vec::new),
    };
    for l in locals {
        for (a, b) in st.df.iter_mut().zip(&l.df) {
            *a += b;
        }
        st.total_hits += l.hits;
        st.bytes += l.bytes;
        st.candidates += l.candidates;
        st.binary += l.binary;
        st.matched_files += l.matched;
        if let Some(r) = st.records.as_mut() {
            r.push(l.records);
        }
    }
    st
}

/// One matching document of a kept Dossier: enough to make its snippets.
struct Scored {
    target: usize,
    doc: DocRef,
    total: f64,
}

/// A Dossier on the bounded top list.
struct Ranked {
    dossier: usize,
    /// Rounded to 1e-9.
    score: f64,
    /// Last touched, read only when two scores are equal (the tie-breaker).
    touched: Option<i64>,
    /// Its matching documents, best first.
    docs: Vec<Scored>,
}

/// Whether `a` ranks before `b`: higher score; equal scores by most recently touched, then
/// slug (the same store and query give the same order).
fn before(dirs: &[PathBuf], a: &mut Ranked, b: &mut Ranked) -> bool {
    match a.score.total_cmp(&b.score) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => {
            let touched = |d: usize| {
                crate::layout::read_frontmatter(&dirs[d].join("dossier.md"))
                    .map(|(_, t)| t.last_touched_at)
                    .unwrap_or(0)
            };
            let ta = *a.touched.get_or_insert_with(|| touched(a.dossier));
            let tb = *b.touched.get_or_insert_with(|| touched(b.dossier));
            if ta != tb { ta > tb } else { dirs[a.dossier].file_name() < dirs[b.dossier].file_name() }
        }
    }
}

/// The best `keep` Dossiers seen so far, best first: memory bounded by the page (offset +
/// limit), not by the number of matches. The order is total (slugs differ), so what it
/// keeps never depends on the order Dossiers arrive in.
struct Top<'a> {
    keep: usize,
    list: Vec<Ranked>,
    dirs: &'a [PathBuf],
}

impl Top<'_> {
    fn insert(&mut self, mut r: Ranked) {
        if self.keep == 0 {
            return;
        }
        if self.list.len() == self.keep && !before(self.dirs, &mut r, self.list.last_mut().expect("non-empty")) {
            return;
        }
        let mut i = self.list.len();
        while i > 0 && before(self.dirs, &mut r, &mut self.list[i - 1]) {
            i -= 1;
        }
        self.list.insert(i, r);
        self.list.truncate(self.keep);
    }
}

/// Pass 2: read each Dossier's matching files again (in parallel, a Dossier at a time),
/// analyse and score its documents, and keep the best `keep` Dossiers. Returns them best
/// first, and how many Dossiers match in all.
fn rank(
    targets: &[Target],
    dirs: &[PathBuf],
    stats: &Stats,
    q: &lx::Query,
    scorer: &Scorer,
    keep: usize,
    progress: &dyn Progress,
) -> (Vec<Ranked>, usize) {
    // Targets are listed a Dossier at a time: Dossier d's are starts[d]..starts[d + 1].
    let mut starts = vec![targets.len(); dirs.len() + 1];
    for (i, t) in targets.iter().enumerate().rev() {
        starts[t.dossier] = i;
    }
    for d in (0..dirs.len()).rev() {
        starts[d] = starts[d].min(starts[d + 1]);
    }
    let next = AtomicUsize::new(0);
    let done: Vec<(Top<'_>, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads())
            .map(|_| {
                s.spawn(|| {
                    let m = q.matcher();
                    let mut top = Top { keep, list: Vec::new(), dirs };
                    let mut count = 0usize;
                    loop {
                        let d = next.fetch_add(1, Ordering::Relaxed);
                        if d >= dirs.len() {
                            break;
                        }
                        let files: Vec<usize> = (starts[d]..starts[d + 1]).filter(|&i| stats.matched[i]).collect();
                        if files.is_empty() {
                            continue;
                        }
                        progress.advance(files.len() as u64);
                        if stats.excluded[d] {
                            continue;
                        }
                        if let Some(r) = score_dossier(d, &files, targets, q, &m, scorer) {
                            count += 1;
                            top.insert(r);
                        }
                    }
                    (top, count)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("search worker panicked")).collect()
    });
    let mut top = Top { keep, list: Vec::new(), dirs };
    let mut total = 0;
    for (t, n) in done {
        total += n;
        for r in t.list {
            top.insert(r);
        }
    }
    (top.list, total)
}

/// Rank from pass 1's records, without reading a file again: each worker's records are in
/// target order and a target's are all one worker's, so merging the lists by target meets
/// each Dossier's documents together, in the order [`rank`] reads them. Each Dossier is
/// scored exactly as [`score_dossier`] scores it and kept only if it can be on the page.
#[allow(clippy::too_many_arguments)]
fn rank_records(
    lists: Vec<Records>,
    targets: &[Target],
    dirs: &[PathBuf],
    stats: &Stats,
    q: &lx::Query,
    scorer: &Scorer,
    keep: usize,
    progress: &dyn Progress,
) -> (Vec<Ranked>, usize) {
    let groups = q.groups.len();
    let mut top = Top { keep, list: Vec::new(), dirs };
    let mut total = 0usize;
    let mut at = vec![0usize; lists.len()];
    // The current Dossier's documents: (target, doc, contributions, bonus), groups seen.
    let mut current: Option<usize> = None;
    let mut docs: Vec<Scored> = Vec::new();
    let mut parts: Vec<(Vec<f64>, f64)> = Vec::new();
    let mut has_group = vec![false; groups];
    let mut files = 0u64;
    let mut flush =
        |d: usize, docs: &mut Vec<Scored>, parts: &mut Vec<(Vec<f64>, f64)>, has: &mut [bool], files: u64| {
            progress.advance(files);
            let scored = !stats.excluded[d]
                && !docs.is_empty()
                && !q.groups.iter().enumerate().any(|(g, grp)| grp.required && !has[g]);
            if scored {
                let score = (lx::dossier_score(parts) * 1e9).round() / 1e9;
                let mut list = std::mem::take(docs);
                list.sort_by(|a, b| b.total.total_cmp(&a.total).then(a.target.cmp(&b.target)));
                total += 1;
                top.insert(Ranked { dossier: d, score, touched: None, docs: list });
            }
            docs.clear();
            parts.clear();
            has.iter_mut().for_each(|h| *h = false);
        };
    loop {
        // The worker whose next record has the lowest target.
        let next =
            (0..lists.len()).filter_map(|w| lists[w].list.get(at[w]).map(|r| (r.target, w))).min_by_key(|&(t, _)| t);
        let Some((target, w)) = next else { break };
        let ti = target as usize;
        let d = targets[ti].dossier;
        if current.is_some_and(|c| c != d) {
            flush(current.expect("checked"), &mut docs, &mut parts, &mut has_group, files);
            files = 0;
        }
        current = Some(d);
        files += 1;
        while let Some(r) = lists[w].list.get(at[w]).filter(|r| r.target == target) {
            at[w] += 1;
            if stats.excluded[d] {
                continue;
            }
            let (doc, st) = lists[w].stats(r, groups);
            for (g, h) in has_group.iter_mut().enumerate() {
                *h |= st.has(g);
            }
            let contributions = scorer.contributions(&st);
            let bonus = scorer.bonus(&st);
            let total = contributions.iter().sum::<f64>() + bonus;
            docs.push(Scored { target: ti, doc, total });
            parts.push((contributions, bonus));
        }
    }
    if let Some(d) = current {
        flush(d, &mut docs, &mut parts, &mut has_group, files);
    }
    (top.list, total)
}

/// Score one Dossier from its matching files; `None` when an exclusion drops it or a
/// required phrase is missing.
fn score_dossier(
    d: usize,
    files: &[usize],
    targets: &[Target],
    q: &lx::Query,
    m: &Terms,
    scorer: &Scorer,
) -> Option<Ranked> {
    let mut docs: Vec<Scored> = Vec::new();
    let mut parts: Vec<(Vec<f64>, f64)> = Vec::new();
    let mut has_group = vec![false; q.groups.len()];
    for &ti in files {
        let t = &targets[ti];
        let Read::Text(content, sidecar) = read(t, None) else { continue };
        let text = String::from_utf8_lossy(&content);
        let side = sidecar.as_ref().map(|s| String::from_utf8_lossy(s));
        for (doc, fields) in documents(t, &text, side.as_deref(), q) {
            let fields: Vec<(Field, &str)> = fields.iter().map(|(f, s, _)| (*f, *s)).collect();
            let st = q.analyse(m, &fields);
            if st.excluded.iter().any(|&e| e) {
                return None; // changed since pass 1
            }
            if !st.matches() {
                continue;
            }
            for (g, h) in has_group.iter_mut().enumerate() {
                *h |= st.has(g);
            }
            let contributions = scorer.contributions(&st);
            let bonus = scorer.bonus(&st);
            let total = contributions.iter().sum::<f64>() + bonus;
            docs.push(Scored { target: ti, doc, total });
            parts.push((contributions, bonus));
        }
    }
    if docs.is_empty() || q.groups.iter().enumerate().any(|(g, grp)| grp.required && !has_group[g]) {
        return None;
    }
    let score = (lx::dossier_score(&parts) * 1e9).round() / 1e9;
    docs.sort_by(|a, b| b.total.total_cmp(&a.total).then(a.target.cmp(&b.target)));
    Some(Ranked { dossier: d, score, touched: None, docs })
}

/// A target's bytes, read.
enum Read {
    /// Removed mid-search, permissions: no hits.
    Unreadable,
    /// The prefilter rejected it (its length).
    Rejected(u64),
    /// It has a NUL byte (its length).
    Binary(u64),
    /// Content and sidecar.
    Text(Vec<u8>, Option<Vec<u8>>),
}

/// Read a target (with its sidecar) and, given the prefilter, reject it when no query term
/// can be in it.
fn read(t: &Target, ac: Option<&AhoCorasick>) -> Read {
    let Ok(content) = std::fs::read(&t.path) else { return Read::Unreadable };
    let sidecar = t.sidecar.as_ref().and_then(|p| std::fs::read(p).ok());
    // The prefilter's patterns are folded ASCII: a word written with a diacritic ("résumé",
    // "Zoë") never matches them, so a file holding one is always analysed, where folding
    // runs. Those letters' UTF-8 lead bytes are 0xC3–0xCF (Latin-1 to Greek and Cyrillic)
    // and 0xE1 (Latin Extended Additional, Greek Extended); punctuation such as "—" is not.
    // Checked a block at a time without short-circuiting inside it, which the compiler
    // vectorises (~18 GB/s against ~1.5 GB/s for a byte-by-byte `any`, measured 2026-12-01).
    let folds = |b: &[u8]| {
        b.chunks(4096).any(|c| c.iter().fold(false, |acc, &x| acc | (x.wrapping_sub(0xC3) <= 0x0C) | (x == 0xE1)))
    };
    if let Some(ac) = ac
        && !ac.is_match(&content[..])
        && !sidecar.as_ref().is_some_and(|s| ac.is_match(&s[..]))
        && !folds(&content)
        && !sidecar.as_deref().is_some_and(folds)
    {
        return Read::Rejected(content.len() as u64);
    }
    if memchr::memchr(0, &content).is_some() {
        return Read::Binary(content.len() as u64);
    }
    Read::Text(content, sidecar)
}

/// A field's text and the line (1-based) it starts on: in `dossier.md` the file's line, in
/// an artifact the line of its content (a Markdown artifact's frontmatter not counted).
type FieldText<'a> = (Field, &'a str, u64);

/// Frontmatter keys that carry no words worth finding.
const SKIPPED_KEYS: &[&str] = &[
    "id",
    "dossier_id",
    "created_at",
    "updated_at",
    "last_touched_at",
    "captured_at",
    "refreshed_at",
    "status",
    "importance",
    "urgency",
    "token_target",
    "base_revision",
    "frozen",
    "content_format",
    "source_size_bytes",
    "binary_source",
    "type",
];

/// Split `---` frontmatter from the rest: (frontmatter lines, body, body's first line).
fn split_frontmatter(text: &str) -> (&str, &str, u64) {
    if let Some(rest) = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n")) {
        let mut at = 0;
        for line in rest.split_inclusive('\n') {
            if line.trim_end() == "---" {
                let fm = &rest[..at];
                let body = &rest[at + line.len()..];
                let lines = 2 + fm.matches('\n').count() as u64;
                return (fm, body, lines + 1);
            }
            at += line.len();
        }
    }
    ("", text, 1)
}

/// The values of frontmatter lines, by field: `name`/`slug` → Name, `next_action`,
/// `open_questions` items, `title` → Title, other keys → Meta (bookkeeping keys skipped).
fn frontmatter_fields<'a>(fm: &'a str, first_line: u64, out: &mut Vec<FieldText<'a>>) {
    let mut list: Option<Field> = None;
    for (n, line) in fm.split_inclusive('\n').enumerate() {
        let ln = first_line + n as u64;
        let trimmed = line.trim_start();
        let indented = line.starts_with([' ', '\t']);
        if let Some(item) = trimmed.strip_prefix("- ")
            && (indented || line.starts_with("- "))
        {
            if let Some(f) = list {
                out.push((f, item, ln));
            }
            continue;
        }
        if indented {
            if let Some(f) = list {
                out.push((f, trimmed, ln));
            }
            continue;
        }
        let Some((key, value)) = line.split_once(':') else { continue };
        let key = key.trim();
        let field = match key {
            "name" | "slug" => Some(Field::Name),
            "next_action" => Some(Field::NextAction),
            "open_questions" => Some(Field::OpenQuestions),
            "title" => Some(Field::Title),
            k if SKIPPED_KEYS.contains(&k) => None,
            _ => Some(Field::Meta),
        };
        list = field;
        if let Some(f) = field
            && !value.trim().is_empty()
        {
            out.push((f, value, ln));
        }
    }
}

/// The documents of one target with their fields, filtered by the query's `in:` places.
fn documents<'a>(
    t: &Target,
    text: &'a str,
    sidecar: Option<&'a str>,
    q: &lx::Query,
) -> Vec<(DocRef, Vec<FieldText<'a>>)> {
    let mut docs = Vec::new();
    let (fm, body, body_line) = split_frontmatter(text);
    if t.artifact_id.is_some() {
        let mut fields = Vec::new();
        frontmatter_fields(fm, 2, &mut fields);
        if let Some(s) = sidecar {
            frontmatter_fields(s, 1, &mut fields);
        }
        // Artifact lines are the content's own, as `dossier show` reads it (a Markdown
        // artifact's frontmatter and the blank lines after it not counted).
        fields.push((Field::Body, body.trim_start_matches('\n'), 1));
        docs.push((DocRef::Artifact, fields));
        let _ = body_line;
        return docs;
    }
    let mut fields = Vec::new();
    frontmatter_fields(fm, 2, &mut fields);
    let allowed = |p: Place| q.places.is_empty() || q.places.contains(&p);
    fields.retain(|(f, _, _)| match f {
        Field::Name => allowed(Place::Name),
        Field::NextAction => allowed(Place::NextAction),
        Field::OpenQuestions => allowed(Place::OpenQuestions),
        _ => q.places.is_empty(),
    });
    docs.push((DocRef::Frontmatter, fields));
    // Sections: from a fixed heading to the next one; text before the first is the title.
    let mut current: Option<(usize, usize, u64)> = None; // (section, start byte, first line)
    let mut at = 0usize;
    let close = |cur: Option<(usize, usize, u64)>, end: usize, docs: &mut Vec<(DocRef, Vec<FieldText<'a>>)>| {
        if let Some((s, start, l)) = cur
            && allowed(Place::Section(s))
        {
            docs.push((DocRef::Section(s), vec![(Field::Body, &body[start..end], l)]));
        }
    };
    for (k, l) in body.split_inclusive('\n').enumerate() {
        if l.starts_with('#')
            && let Some(s) = section_of_heading(l)
        {
            close(current.take(), at, &mut docs);
            current = Some((s, at + l.len(), body_line + k as u64 + 1));
        }
        at += l.len();
    }
    close(current.take(), body.len(), &mut docs);
    docs
}

/// Up to `take` snippets of one document: its best lines (most query weight, then earliest).
#[allow(clippy::too_many_arguments)]
fn snippets(
    t: &Target,
    doc: DocRef,
    dir: &Path,
    q: &lx::Query,
    m: &Terms,
    scorer: &Scorer,
    marks: &Terms,
    take: usize,
) -> Vec<Hit> {
    let Ok(content) = std::fs::read(&t.path) else { return Vec::new() };
    let side = t.sidecar.as_ref().and_then(|p| std::fs::read(p).ok());
    let text = String::from_utf8_lossy(&content);
    let side = side.as_ref().map(|s| String::from_utf8_lossy(s));
    let docs = documents(t, &text, side.as_deref(), q);
    let Some((_, fields)) = docs.into_iter().find(|(d, _)| *d == doc) else { return Vec::new() };
    // Candidate lines: (weight, field order, line number, text).
    let mut lines: Vec<(f64, usize, u64, &str, Field)> = Vec::new();
    for (fi, (field, ftext, first)) in fields.iter().enumerate() {
        for (k, line) in ftext.split_inclusive('\n').enumerate() {
            if *field == Field::Name && dir.file_name().is_some_and(|n| line.trim() == n.to_string_lossy()) {
                continue; // the slug: the name says it better
            }
            let st = q.analyse(m, &[(*field, line)]);
            if !st.matches() {
                continue;
            }
            let w: f64 = (0..q.groups.len()).filter(|&g| st.has(g)).map(|g| scorer.idf[g]).sum::<f64>()
                * lx::WEIGHTS[*field as usize];
            lines.push((w, fi, first + k as u64, line, *field));
        }
    }
    lines.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let title = t.artifact_id.as_ref().and_then(|id| artifact_title(dir, id));
    lines
        .into_iter()
        .take(take)
        .map(|(_, _, line, text, field)| {
            let section = match (doc, field) {
                (DocRef::Artifact, _) => None,
                (DocRef::Section(s), _) => Some(SECTION_NAMES[s].to_string()),
                (DocRef::Frontmatter, Field::Name) => Some("name".into()),
                (DocRef::Frontmatter, Field::NextAction) => Some("next-action".into()),
                (DocRef::Frontmatter, Field::OpenQuestions) => Some("open-questions".into()),
                (DocRef::Frontmatter, _) => Some("frontmatter".into()),
            };
            let (kind, cite) = match (&t.artifact_id, field) {
                (Some(id), Field::Body) => (HitKind::Artifact, Some(format!("[src:{id}#L{line}]"))),
                (Some(_), _) => (HitKind::ArtifactMetadata, None),
                (None, _) => (HitKind::Dossier, None),
            };
            let path = match (&t.sidecar, kind == HitKind::ArtifactMetadata) {
                (Some(s), true) => s.clone(),
                _ => t.path.clone(),
            };
            Hit {
                kind,
                path,
                artifact_id: t.artifact_id.clone(),
                artifact_title: title.clone(),
                line,
                snippet: marked(text, marks),
                section,
                cite,
            }
        })
        .collect()
}

/// The line with every query word marked `**like this**`, cut to about
/// [`SNIPPET_CHARS`] characters around the first mark.
fn marked(line: &str, marks: &Terms) -> String {
    let line = line.trim_end_matches(['\n', '\r']);
    let spans: Vec<(usize, usize)> = {
        let mut v: Vec<(usize, usize)> = Vec::new();
        lexical::find_terms(line, marks, |h| {
            match v.last_mut() {
                Some(l) if h.start < l.1 => l.1 = l.1.max(h.end),
                _ => v.push((h.start, h.end)),
            }
            std::ops::ControlFlow::Continue(())
        });
        v
    };
    let first = spans.first().map_or(0, |s| s.0);
    let chars = line.chars().count();
    let (mut from, mut to) = (0usize, line.len());
    if chars > SNIPPET_CHARS {
        let before: usize = line[..first].chars().count();
        let begin = before.saturating_sub(SNIPPET_CHARS / 3).min(chars - SNIPPET_CHARS);
        from = line.char_indices().nth(begin).map_or(0, |(i, _)| i);
        to = line.char_indices().nth(begin + SNIPPET_CHARS).map_or(line.len(), |(i, _)| i);
    }
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    let mut at = from;
    for (s, e) in spans {
        if s < from || e > to {
            continue;
        }
        out.push_str(&line[at..s]);
        out.push_str("**");
        out.push_str(&line[s..e]);
        out.push_str("**");
        at = e;
    }
    out.push_str(&line[at..to]);
    if to < line.len() {
        out.push('…');
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bounded list keeps exactly the first `keep` of the whole order, whatever order the
    /// Dossiers arrive in, ties (equal scores: touched, then slug) included.
    #[test]
    fn the_top_list_keeps_the_first_of_the_whole_order_in_any_arrival_order() {
        // No dossier.md: every touched time reads as 0, so ties fall to the slug.
        let dirs: Vec<PathBuf> =
            (0..40).map(|i| PathBuf::from(format!("/nonexistent/d{:02}", (i * 17) % 40))).collect();
        let score = |d: usize| -> f64 { [1.5, 2.0, 2.0, 3.25, 2.0][d % 5] };
        let whole = {
            let mut all: Vec<usize> = (0..dirs.len()).collect();
            all.sort_by(|&a, &b| score(b).total_cmp(&score(a)).then(dirs[a].cmp(&dirs[b])));
            all
        };
        for keep in [0, 1, 3, 8, 17, 40, 100] {
            for stride in [1usize, 7, 13, 39] {
                let mut top = Top { keep, list: Vec::new(), dirs: &dirs };
                for k in 0..dirs.len() {
                    let d = (k * stride) % dirs.len();
                    top.insert(Ranked { dossier: d, score: score(d), touched: None, docs: Vec::new() });
                }
                let got: Vec<usize> = top.list.iter().map(|r| r.dossier).collect();
                assert_eq!(got, whole[..keep.min(whole.len())].to_vec(), "keep {keep}, stride {stride}");
            }
        }
    }

    /// Over the record budget (none at all, or overrun part-way through the scan) a search
    /// re-reads the matching files; it ranks exactly as the records do: the same Dossiers,
    /// scores, documents and their order, counts and document frequencies.
    #[test]
    fn the_over_budget_re_read_ranks_exactly_as_the_in_budget_records() {
        let dir = tempfile::tempdir().unwrap();
        let spec = crate::generate::Spec { dossiers: 40, artifacts_per_dossier: 4, body_bytes: 1_500, seed: 7 };
        crate::generate::generate(dir.path(), &spec).unwrap();
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("dossier.md").is_file())
            .collect();
        dirs.sort();
        // A rare word in the first artifact of every fifth Dossier.
        for d in dirs.iter().step_by(5) {
            let mut arts: Vec<PathBuf> =
                std::fs::read_dir(d.join("artifacts")).unwrap().map(|e| e.unwrap().path()).collect();
            arts.retain(|p| p.extension().is_some_and(|e| e == "md" || e == "txt"));
            arts.sort();
            let mut text = std::fs::read_to_string(&arts[0]).unwrap();
            text.push_str("\nThe Zephyrine cutover is scheduled.\n");
            std::fs::write(&arts[0], text).unwrap();
        }
        type Shape = (usize, Vec<(usize, f64, Vec<(usize, DocRef, f64)>)>, u64, Vec<u64>, usize);
        let run = |query: &lx::Query, keep: usize, budget: usize| -> (Shape, bool) {
            let targets = targets(&dirs, query);
            let s = scan(&targets, &dirs, query, &prefilter(query), keep, budget, &crate::progress::SILENT);
            let top = s
                .top
                .iter()
                .map(|r| (r.dossier, r.score, r.docs.iter().map(|d| (d.target, d.doc, d.total)).collect()))
                .collect();
            ((s.total_dossiers, top, s.stats.total_hits, s.stats.df, s.stats.matched_files), s.from_records)
        };
        for text in [
            "failover",
            "failover replica timeout",
            "\"failover replica\" alerting",
            "failover -zephyrine",
            "zephyrine",
            "zephyrine failover",
            "in:decisions failover",
            "kind:artifact design export",
        ] {
            let query = lx::parse(text).unwrap();
            for keep in [1, 5, 1_000] {
                let (within, recorded) = run(&query, keep, usize::MAX);
                assert!(recorded, "{text}: the records fit an unlimited budget");
                assert!(within.0 > 0 && within.2 > 0, "{text}: the generated store matches it");
                for budget in [0, 2_000] {
                    let (over, recorded) = run(&query, keep, budget);
                    // 2,000 bytes hold some 30 records: overrun part-way for the frequent words.
                    if budget == 0 || within.2 > 100 {
                        assert!(!recorded, "{text}: {budget} bytes is over budget");
                    }
                    assert_eq!(over, within, "{text}, keep {keep}, budget {budget}");
                }
            }
        }
    }
}

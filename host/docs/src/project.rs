//! The project-local provider: the repository's own documentation — `README*`, `CHANGELOG*`
//! (and `HISTORY*`, `CHANGES*`) at the root, Markdown/reStructuredText/text under `docs/`,
//! `doc/`, `adr/`, `adrs/` and `architecture/` (ADRs live there, or in `docs/adr`, `docs/decisions`)
//! — and the doc comments of the changed symbols (`///`, `//!`, `/** */`, `#` above a definition,
//! a Python docstring below it).
//!
//! Bounded: at most [`MAX_DOC_FILES`] files of at most [`MAX_DOC_BYTES`] each, read once per
//! provider; the rest of the repository is never walked, so a large repository costs what its
//! documentation costs.
//!
//! Not for: the repository's code as evidence (that is `dossier-evidence`), or package docs.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::{
    Budget, Candidate, ConceptQuery, DocumentationProvider, Factors, Fetched, ProviderError, SourceKind, text,
};

pub const MAX_DOC_FILES: usize = 300;
pub const MAX_DOC_BYTES: u64 = 256 * 1024;
const DOC_DIRS: &[&str] = &["docs", "doc", "adr", "adrs", "architecture"];
const DOC_EXT: &[&str] = &["md", "markdown", "rst", "txt", "adoc"];

struct Doc {
    /// Repository-relative, `/`-separated.
    path: String,
    title: String,
    stability: f64,
    text: String,
}

pub struct ProjectDocs {
    repo: PathBuf,
    changed: Vec<(String, Vec<String>)>,
    docs: OnceLock<Vec<Doc>>,
}

impl ProjectDocs {
    pub fn new(repo: &Path, changed_symbols: Vec<(String, Vec<String>)>) -> ProjectDocs {
        ProjectDocs { repo: repo.to_path_buf(), changed: changed_symbols, docs: OnceLock::new() }
    }

    fn docs(&self) -> &[Doc] {
        self.docs.get_or_init(|| index(&self.repo, &self.changed))
    }
}

fn stability_of(path: &str) -> f64 {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    if name.starts_with("changelog") || name.starts_with("history") || name.starts_with("changes") {
        0.5
    } else if name.starts_with("readme") && !lower.contains('/') {
        1.0
    } else if lower.starts_with("doc:") {
        0.8
    } else {
        0.9
    }
}

fn read_bounded(p: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(p).ok()?;
    if !meta.is_file() || meta.len() > MAX_DOC_BYTES {
        return None;
    }
    std::fs::read_to_string(p).ok()
}

fn title_of(path: &str, text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with('#') && l.trim_start_matches('#').trim().len() > 1)
        .map(|l| format!("{} — {}", path, l.trim_start_matches('#').trim()))
        .unwrap_or_else(|| path.to_string())
}

fn index(repo: &Path, changed: &[(String, Vec<String>)]) -> Vec<Doc> {
    let mut docs = Vec::new();
    let mut push = |path: String, text: String| {
        if docs.len() < MAX_DOC_FILES {
            docs.push(Doc { title: title_of(&path, &text), stability: stability_of(&path), path, text });
        }
    };
    if let Ok(rd) = std::fs::read_dir(repo) {
        let mut names: Vec<String> =
            rd.filter_map(|e| e.ok()).filter_map(|e| e.file_name().into_string().ok()).collect();
        names.sort();
        for n in names {
            let l = n.to_ascii_lowercase();
            if ["readme", "changelog", "history", "changes"].iter().any(|p| l.starts_with(p))
                && let Some(t) = read_bounded(&repo.join(&n))
            {
                push(n, t);
            }
        }
    }
    for d in DOC_DIRS {
        let mut stack = vec![(repo.join(d), d.to_string(), 0)];
        while let Some((dir, rel, depth)) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&dir) else { continue };
            let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).collect();
            entries.sort_by_key(|e| std::cmp::Reverse(e.file_name()));
            for e in entries {
                let Ok(name) = e.file_name().into_string() else { continue };
                let Ok(ft) = e.file_type() else { continue };
                let r = format!("{rel}/{name}");
                if ft.is_dir() && depth < 4 && !name.starts_with('.') {
                    stack.push((e.path(), r, depth + 1));
                } else if ft.is_file()
                    && DOC_EXT.iter().any(|x| name.to_ascii_lowercase().ends_with(&format!(".{x}")))
                    && let Some(t) = read_bounded(&e.path())
                {
                    push(r, t);
                }
            }
        }
    }
    for (path, symbols) in changed {
        if path.contains("..") || path.starts_with('/') {
            continue;
        }
        let Some(src) = read_bounded(&repo.join(path)) else { continue };
        for sym in symbols {
            if let Some(doc) = doc_comment(&src, sym) {
                push(format!("doc:{path}#{sym}"), format!("{sym} ({path})\n\n{doc}"));
            }
        }
    }
    docs
}

const DEF_WORDS: &[&str] = &[
    "fn",
    "struct",
    "enum",
    "trait",
    "type",
    "impl",
    "mod",
    "const",
    "static",
    "def",
    "class",
    "function",
    "interface",
    "func",
];

/// The doc comment of `symbol`'s definition in `src`: comment lines right above it, or a Python
/// docstring right below it.
pub fn doc_comment(src: &str, symbol: &str) -> Option<String> {
    let lines: Vec<&str> = src.lines().collect();
    let def = lines.iter().position(|l| {
        let w: Vec<&str> = l.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
        w.windows(2).any(|p| DEF_WORDS.contains(&p[0]) && p[1] == symbol)
    })?;
    let mut above = Vec::new();
    let mut i = def;
    while i > 0 {
        let l = lines[i - 1].trim();
        let body = if let Some(r) = l.strip_prefix("///").or_else(|| l.strip_prefix("//!")) {
            r
        } else if let Some(r) = l.strip_prefix("/**").or_else(|| l.strip_prefix("*/")).or_else(|| l.strip_prefix('*')) {
            r.trim_end_matches("*/")
        } else if l.starts_with("#[") || l.starts_with('@') {
            i -= 1;
            continue;
        } else if let Some(r) = l.strip_prefix('#') {
            r
        } else if let Some(r) = l.strip_prefix("//") {
            r
        } else {
            break;
        };
        above.push(body.trim().to_string());
        i -= 1;
    }
    above.reverse();
    let mut doc: Vec<String> = above.into_iter().filter(|l| !l.is_empty()).collect();
    if doc.is_empty() {
        // A Python docstring right below the definition.
        let next = lines.get(def + 1)?.trim();
        for q in ["\"\"\"", "'''"] {
            if let Some(rest) = next.strip_prefix(q) {
                if let Some(one) = rest.strip_suffix(q) {
                    doc.push(one.trim().to_string());
                } else {
                    doc.push(rest.trim().to_string());
                    for l in &lines[def + 2..] {
                        if let Some(end) = l.trim().strip_suffix(q) {
                            doc.push(end.trim().to_string());
                            break;
                        }
                        doc.push(l.trim().to_string());
                    }
                }
            }
        }
    }
    let doc = doc.join("\n").trim().to_string();
    (!doc.is_empty()).then_some(doc)
}

impl DocumentationProvider for ProjectDocs {
    fn name(&self) -> &str {
        "project"
    }

    fn can_resolve(&self, concept: &ConceptQuery) -> bool {
        !concept.terms().is_empty() && !self.docs().is_empty()
    }

    fn search(&self, concept: &ConceptQuery, budget: &Budget) -> Result<Vec<Candidate>, ProviderError> {
        let terms = concept.terms();
        let mut out: Vec<Candidate> = self
            .docs()
            .iter()
            .filter_map(|d| {
                let m = text::concept_match(&terms, &format!("{}\n{}", d.path, d.text));
                (m > 0.0).then(|| Candidate {
                    source_id: format!("project:{}", d.path),
                    provider: "project".into(),
                    title: d.title.clone(),
                    kind: SourceKind::ProjectDocs,
                    version: None,
                    location: d.path.trim_start_matches("doc:").to_string(),
                    factors: Factors {
                        authority: crate::authority(SourceKind::ProjectDocs),
                        concept_match: m,
                        version_match: 1.0,
                        stability: d.stability,
                        accessibility: 1.0,
                    },
                })
            })
            .collect();
        crate::rank(&mut out);
        out.truncate(budget.max_results);
        Ok(out)
    }

    fn fetch(&self, source_id: &str, _: &Budget) -> Result<Fetched, ProviderError> {
        let path = source_id.strip_prefix("project:").unwrap_or(source_id);
        self.docs()
            .iter()
            .find(|d| d.path == path)
            .map(|d| Fetched { text: d.text.clone(), notes: Vec::new() })
            .ok_or_else(|| ProviderError::new("not_found", format!("{source_id} is not a project document")))
    }
}

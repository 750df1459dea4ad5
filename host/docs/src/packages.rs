//! Installed-package providers, offline: a package's own documentation as installed on this
//! machine, at the version the repository's lockfile pins.
//!
//! | Provider | Lockfile | Where the package is | Documents |
//! |---|---|---|---|
//! | [`CargoDocs`] (`cargo`) | `Cargo.lock` (registry packages) | `$CARGO_HOME/registry/src/*/<name>-<version>/` | README, crate docs (`//!` of `src/lib.rs`) |
//! | [`NpmDocs`] (`npm`) | `package-lock.json` (v1–v3) | `node_modules/<name>/` (its `package.json` version) | README |
//! | [`PythonDocs`] (`python`) | `poetry.lock`, `uv.lock`, `pdm.lock`, `requirements*.txt` (`==`) | `site-packages/<name>-<version>.dist-info` | `METADATA` (summary and description) |
//! | [`GoDocs`] (`go`) | `go.mod` | the module cache `<module>@<version>/` | README, `doc.go` |
//!
//! A package is a candidate for a concept when its name (case-insensitive, `_` = `-`) is one of
//! the concept's words (concept match 1.0) or is imported by the code the concept cites (0.6).
//! A package installed at another version than the pin is still offered, with version match 0.2
//! and a note; one that is not installed is a note, not a source.
//!
//! Not for: fetching anything (no network here), or packages the lockfiles do not pin.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::{
    Budget, Candidate, ConceptQuery, DocumentationProvider, Factors, Fetched, ProviderError, SourceKind, text,
};

const MAX_FILE_BYTES: u64 = 512 * 1024;

/// One pinned package and what is installed of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Package {
    pub name: String,
    /// The lockfile's version.
    pub version: String,
    /// Its installed directory, if found.
    pub dir: Option<PathBuf>,
    /// The installed version, if it differs from the pin.
    pub installed_other: Option<String>,
}

/// A name normalised for matching: lowercase, `_` and `.` as `-`.
pub fn norm(name: &str) -> String {
    name.to_ascii_lowercase().replace(['_', '.'], "-")
}

fn tokens(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '@')))
        .filter(|t| !t.is_empty())
        .flat_map(|t| {
            let t = t.trim_matches(|c| matches!(c, '.' | '/' | '-' | '@'));
            let mut v = vec![norm(t)];
            // `@scope/pkg` and `a.b` forms also match by their whole; a Go path matches whole.
            if let Some((_, last)) = t.rsplit_once('/')
                && !t.contains('.')
            {
                v.push(norm(last));
            }
            v
        })
        .collect()
}

/// How well `name` matches the concept: 1.0 named by the concept, 0.6 imported by its code.
pub fn package_match(name: &str, concept: &ConceptQuery) -> f64 {
    let n = norm(name);
    if n.len() < 2 {
        return 0.0;
    }
    let named = tokens(&format!("{} {} {}", concept.label, concept.canonical_id, concept.description));
    if named.contains(&n) {
        return 1.0;
    }
    if tokens(&concept.code).contains(&n) { 0.6 } else { 0.0 }
}

fn read_bounded(p: &Path) -> Option<String> {
    let meta = std::fs::metadata(p).ok()?;
    (meta.is_file() && meta.len() <= MAX_FILE_BYTES).then(|| std::fs::read_to_string(p).ok()).flatten()
}

/// `[[package]]` blocks of a TOML lockfile (Cargo, Poetry, uv, PDM): (name, version, source).
pub fn toml_packages(text: &str) -> Vec<(String, String, Option<String>)> {
    let mut out = Vec::new();
    let mut cur: Option<(Option<String>, Option<String>, Option<String>)> = None;
    let value = |l: &str| l.split_once('=').map(|(_, v)| v.trim().trim_matches('"').to_string());
    let mut flush = |c: Option<(Option<String>, Option<String>, Option<String>)>| {
        if let Some((Some(n), Some(v), s)) = c {
            out.push((n, v, s));
        }
    };
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            let taken = cur.take();
            flush(taken);
            if l == "[[package]]" {
                cur = Some((None, None, None));
            }
            continue;
        }
        if let Some(c) = cur.as_mut() {
            if l.starts_with("name ") || l.starts_with("name=") {
                c.0 = value(l);
            } else if l.starts_with("version ") || l.starts_with("version=") {
                c.1 = value(l);
            } else if l.starts_with("source ") || l.starts_with("source=") {
                c.2 = value(l);
            }
        }
    }
    flush(cur);
    out
}

/// The README of a package directory (any case, any extension).
fn readme(dir: &Path) -> Option<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.to_ascii_lowercase().starts_with("readme"))
        .collect();
    names.sort();
    names.into_iter().next()
}

/// The common part of the four providers: pinned packages, their candidate files, fetching.
struct Installed {
    name: &'static str,
    packages: OnceLock<Vec<Package>>,
    load: Box<dyn Fn() -> Vec<Package> + Send + Sync>,
    /// Documents of an installed package: (file relative to its dir, title suffix, stability).
    files: fn(&Path) -> Vec<(String, String, f64)>,
    /// Text of one file.
    read: fn(&Path, &str) -> Option<String>,
}

impl Installed {
    fn packages(&self) -> &[Package] {
        self.packages.get_or_init(|| (self.load)())
    }

    fn matching<'a>(&'a self, concept: &ConceptQuery) -> Vec<(&'a Package, f64)> {
        self.packages().iter().map(|p| (p, package_match(&p.name, concept))).filter(|(_, m)| *m > 0.0).collect()
    }

    fn can_resolve(&self, concept: &ConceptQuery) -> bool {
        !self.matching(concept).is_empty()
    }

    fn search(&self, concept: &ConceptQuery, budget: &Budget) -> Result<Vec<Candidate>, ProviderError> {
        let mut out = Vec::new();
        let mut missing = Vec::new();
        for (p, m) in self.matching(concept) {
            let Some(dir) = &p.dir else {
                missing.push(format!("{}@{}", p.name, p.version));
                continue;
            };
            for (file, what, stability) in (self.files)(dir) {
                out.push(Candidate {
                    source_id: format!("{}:{}@{}:{file}", self.name, p.name, p.version),
                    provider: self.name.to_string(),
                    title: format!("{} {} — {what}", p.name, p.installed_other.as_deref().unwrap_or(&p.version)),
                    kind: SourceKind::PackageDocs,
                    version: Some(p.version.clone()),
                    location: dir.join(&file).to_string_lossy().into_owned(),
                    factors: Factors {
                        authority: crate::authority(SourceKind::PackageDocs),
                        concept_match: m,
                        version_match: if p.installed_other.is_some() { 0.2 } else { 1.0 },
                        stability,
                        accessibility: 1.0,
                    },
                });
            }
        }
        if out.is_empty() && !missing.is_empty() {
            return Err(ProviderError::new(
                "not_found",
                format!("{} pinned by the lockfile but not installed on this machine", missing.join(", ")),
            ));
        }
        crate::rank(&mut out);
        out.truncate(budget.max_results);
        Ok(out)
    }

    fn fetch(&self, source_id: &str) -> Result<Fetched, ProviderError> {
        let rest = source_id.strip_prefix(self.name).and_then(|r| r.strip_prefix(':')).unwrap_or("");
        let (pkg, file) = rest.split_once(':').unwrap_or((rest, ""));
        let p = self
            .packages()
            .iter()
            .find(|p| format!("{}@{}", p.name, p.version) == pkg)
            .ok_or_else(|| ProviderError::new("not_found", format!("{source_id}: no such pinned package")))?;
        let dir = p.dir.as_ref().ok_or_else(|| ProviderError::new("not_found", format!("{pkg} is not installed")))?;
        let text = (self.read)(dir, file)
            .ok_or_else(|| ProviderError::new("not_found", format!("{source_id}: the file cannot be read")))?;
        let mut notes = Vec::new();
        if let Some(other) = &p.installed_other {
            notes.push(format!("installed version {other} differs from the lockfile's {}", p.version));
        }
        Ok(Fetched { text, notes })
    }
}

fn plain_read(dir: &Path, file: &str) -> Option<String> {
    if file.contains("..") {
        return None;
    }
    read_bounded(&dir.join(file))
}

macro_rules! provider {
    ($ty:ident) => {
        impl DocumentationProvider for $ty {
            fn name(&self) -> &str {
                self.0.name
            }
            fn can_resolve(&self, concept: &ConceptQuery) -> bool {
                self.0.can_resolve(concept)
            }
            fn search(&self, concept: &ConceptQuery, budget: &Budget) -> Result<Vec<Candidate>, ProviderError> {
                self.0.search(concept, budget)
            }
            fn fetch(&self, source_id: &str, _: &Budget) -> Result<Fetched, ProviderError> {
                self.0.fetch(source_id)
            }
        }
        impl $ty {
            /// The pinned packages and where they are installed.
            pub fn packages(&self) -> &[Package] {
                self.0.packages()
            }
        }
    };
}

// ------------------------------------------------------------------ Cargo

/// Crates pinned by `Cargo.lock`, read from the registry sources under `CARGO_HOME`.
pub struct CargoDocs(Installed);
provider!(CargoDocs);

impl CargoDocs {
    pub fn new(repo: &Path, cargo_home: Option<PathBuf>) -> CargoDocs {
        let repo = repo.to_path_buf();
        CargoDocs(Installed {
            name: "cargo",
            packages: OnceLock::new(),
            load: Box::new(move || {
                let Some(lock) = read_bounded(&repo.join("Cargo.lock")) else { return Vec::new() };
                let roots: Vec<PathBuf> = cargo_home
                    .as_ref()
                    .and_then(|h| std::fs::read_dir(h.join("registry/src")).ok())
                    .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
                    .unwrap_or_default();
                toml_packages(&lock)
                    .into_iter()
                    .filter(|(_, _, source)| {
                        source.as_deref().is_some_and(|s| s.starts_with("registry+") || s.starts_with("sparse+"))
                    })
                    .map(|(name, version, _)| {
                        let dir = roots.iter().map(|r| r.join(format!("{name}-{version}"))).find(|d| d.is_dir());
                        Package { name, version, dir, installed_other: None }
                    })
                    .collect()
            }),
            files: |dir| {
                let mut v = Vec::new();
                if let Some(r) = readme(dir) {
                    v.push((r, "README".to_string(), 1.0));
                }
                if dir.join("src/lib.rs").is_file() {
                    v.push(("src/lib.rs".to_string(), "crate documentation".to_string(), 1.0));
                }
                v
            },
            read: |dir, file| {
                let t = plain_read(dir, file)?;
                if file.ends_with(".rs") {
                    let doc: Vec<&str> = t
                        .lines()
                        .map(str::trim_start)
                        .skip_while(|l| !l.starts_with("//!"))
                        .take_while(|l| l.starts_with("//!") || l.is_empty())
                        .map(|l| l.trim_start_matches("//!").strip_prefix(' ').unwrap_or(l.trim_start_matches("//!")))
                        .collect();
                    let doc = doc.join("\n");
                    (!doc.trim().is_empty()).then_some(doc)
                } else {
                    Some(t)
                }
            },
        })
    }
}

// ------------------------------------------------------------------ npm

/// Packages pinned by `package-lock.json`, read from `node_modules/`.
pub struct NpmDocs(Installed);
provider!(NpmDocs);

impl NpmDocs {
    pub fn new(repo: &Path) -> NpmDocs {
        let repo = repo.to_path_buf();
        NpmDocs(Installed {
            name: "npm",
            packages: OnceLock::new(),
            load: Box::new(move || {
                let Some(lock) = read_bounded(&repo.join("package-lock.json")) else { return Vec::new() };
                let Ok(v) = serde_json::from_str::<serde_json::Value>(&lock) else { return Vec::new() };
                let mut pinned: Vec<(String, String)> = Vec::new();
                if let Some(pkgs) = v["packages"].as_object() {
                    for (k, p) in pkgs {
                        let Some(name) = k.strip_prefix("node_modules/") else { continue };
                        if name.contains("/node_modules/") {
                            continue;
                        }
                        if let Some(ver) = p["version"].as_str() {
                            pinned.push((name.to_string(), ver.to_string()));
                        }
                    }
                } else if let Some(deps) = v["dependencies"].as_object() {
                    for (name, p) in deps {
                        if let Some(ver) = p["version"].as_str() {
                            pinned.push((name.clone(), ver.to_string()));
                        }
                    }
                }
                pinned
                    .into_iter()
                    .filter(|(n, _)| !n.contains("..") && !n.starts_with('/'))
                    .map(|(name, version)| {
                        let d = repo.join("node_modules").join(&name);
                        let installed = read_bounded(&d.join("package.json"))
                            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                            .and_then(|j| j["version"].as_str().map(str::to_string));
                        let (dir, other) = match installed {
                            Some(iv) if iv == version => (Some(d), None),
                            Some(iv) => (Some(d), Some(iv)),
                            None => (None, None),
                        };
                        Package { name, version, dir, installed_other: other }
                    })
                    .collect()
            }),
            files: |dir| readme(dir).map(|r| vec![(r, "README".to_string(), 1.0)]).unwrap_or_default(),
            read: plain_read,
        })
    }
}

// ------------------------------------------------------------------ Python

/// Distributions pinned by `poetry.lock`, `uv.lock`, `pdm.lock` or `requirements*.txt` (`==`),
/// read from `site-packages/*.dist-info/METADATA`.
pub struct PythonDocs(Installed);
provider!(PythonDocs);

fn dist_name(name: &str) -> String {
    name.to_ascii_lowercase().replace(['-', '.'], "_")
}

impl PythonDocs {
    pub fn new(repo: &Path, site_packages: Vec<PathBuf>) -> PythonDocs {
        let repo = repo.to_path_buf();
        PythonDocs(Installed {
            name: "python",
            packages: OnceLock::new(),
            load: Box::new(move || {
                let mut pinned: Vec<(String, String)> = Vec::new();
                for f in ["poetry.lock", "uv.lock", "pdm.lock"] {
                    if let Some(t) = read_bounded(&repo.join(f)) {
                        pinned.extend(toml_packages(&t).into_iter().map(|(n, v, _)| (n, v)));
                    }
                }
                if pinned.is_empty()
                    && let Ok(rd) = std::fs::read_dir(&repo)
                {
                    let mut reqs: Vec<PathBuf> = rd
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| {
                            p.file_name()
                                .and_then(|n| n.to_str())
                                .is_some_and(|n| n.starts_with("requirements") && n.ends_with(".txt"))
                        })
                        .collect();
                    reqs.sort();
                    for r in reqs {
                        for line in read_bounded(&r).unwrap_or_default().lines() {
                            let line = line.split('#').next().unwrap_or("").trim();
                            if let Some((n, v)) = line.split_once("==") {
                                let n = n.split('[').next().unwrap_or(n).trim();
                                pinned.push((n.to_string(), v.split(';').next().unwrap_or(v).trim().to_string()));
                            }
                        }
                    }
                }
                let mut sites = site_packages.clone();
                for venv in [".venv", "venv", "env"] {
                    if let Ok(rd) = std::fs::read_dir(repo.join(venv).join("lib")) {
                        sites.extend(
                            rd.filter_map(|e| e.ok()).map(|e| e.path().join("site-packages")).filter(|p| p.is_dir()),
                        );
                    }
                }
                let mut dists: Vec<(String, String, PathBuf)> = Vec::new();
                for s in &sites {
                    let Ok(rd) = std::fs::read_dir(s) else { continue };
                    for e in rd.filter_map(|e| e.ok()) {
                        let Ok(n) = e.file_name().into_string() else { continue };
                        if let Some(stem) = n.strip_suffix(".dist-info")
                            && let Some((name, ver)) = stem.rsplit_once('-')
                        {
                            dists.push((dist_name(name), ver.to_string(), e.path()));
                        }
                    }
                }
                pinned
                    .into_iter()
                    .map(|(name, version)| {
                        let dn = dist_name(&name);
                        let exact = dists.iter().find(|(n, v, _)| *n == dn && *v == version);
                        let any = dists.iter().find(|(n, _, _)| *n == dn);
                        let (dir, other) = match (exact, any) {
                            (Some((_, _, d)), _) => (Some(d.clone()), None),
                            (None, Some((_, v, d))) => (Some(d.clone()), Some(v.clone())),
                            _ => (None, None),
                        };
                        Package { name, version, dir, installed_other: other }
                    })
                    .collect()
            }),
            files: |dir| {
                if dir.join("METADATA").is_file() {
                    vec![("METADATA".into(), "package metadata".into(), 1.0)]
                } else {
                    Vec::new()
                }
            },
            read: |dir, file| {
                let t = plain_read(dir, file)?;
                // Headers, a blank line, then the long description.
                let (head, body) = t.split_once("\n\n").unwrap_or((&t, ""));
                let summary = head
                    .lines()
                    .find_map(|l| l.strip_prefix("Summary:"))
                    .map(str::trim)
                    .unwrap_or_default()
                    .to_string();
                Some(format!("{summary}\n\n{body}"))
            },
        })
    }
}

// ------------------------------------------------------------------ Go

/// Modules required by `go.mod`, read from the module cache.
pub struct GoDocs(Installed);
provider!(GoDocs);

/// The module cache's escaping: an upper-case letter becomes `!` and its lower case.
pub fn escape_module(path: &str) -> String {
    let mut s = String::new();
    for c in path.chars() {
        if c.is_ascii_uppercase() {
            s.push('!');
            s.push(c.to_ascii_lowercase());
        } else {
            s.push(c);
        }
    }
    s
}

impl GoDocs {
    pub fn new(repo: &Path, cache: Option<PathBuf>) -> GoDocs {
        let repo = repo.to_path_buf();
        GoDocs(Installed {
            name: "go",
            packages: OnceLock::new(),
            load: Box::new(move || {
                let Some(gomod) = read_bounded(&repo.join("go.mod")) else { return Vec::new() };
                let mut pinned = Vec::new();
                let mut block = false;
                for line in gomod.lines() {
                    let l = line.split("//").next().unwrap_or("").trim();
                    if l.starts_with("require (") {
                        block = true;
                        continue;
                    }
                    if block && l == ")" {
                        block = false;
                        continue;
                    }
                    let spec = if block { Some(l) } else { l.strip_prefix("require ") };
                    if let Some(spec) = spec {
                        let mut it = spec.split_whitespace();
                        if let (Some(m), Some(v)) = (it.next(), it.next()) {
                            pinned.push((m.to_string(), v.to_string()));
                        }
                    }
                }
                pinned
                    .into_iter()
                    .filter(|(m, _)| !m.contains(".."))
                    .map(|(name, version)| {
                        let dir = cache
                            .as_ref()
                            .map(|c| c.join(format!("{}@{version}", escape_module(&name))))
                            .filter(|d| d.is_dir());
                        Package { name, version, dir, installed_other: None }
                    })
                    .collect()
            }),
            files: |dir| {
                let mut v = Vec::new();
                if let Some(r) = readme(dir) {
                    v.push((r, "README".to_string(), 1.0));
                }
                if dir.join("doc.go").is_file() {
                    v.push(("doc.go".to_string(), "package documentation".to_string(), 1.0));
                }
                v
            },
            read: |dir, file| {
                let t = plain_read(dir, file)?;
                if file.ends_with(".go") {
                    let doc: Vec<&str> = t
                        .lines()
                        .take_while(|l| !l.starts_with("package "))
                        .map(|l| l.trim_start_matches("//").trim())
                        .collect();
                    Some(doc.join("\n"))
                } else {
                    Some(t)
                }
            },
        })
    }
}

/// Words of a package's text that match the concept (used by tests and diagnostics).
pub fn matched_words(concept: &ConceptQuery, text_: &str) -> Vec<String> {
    let have = text::word_set(text_);
    concept.terms().into_iter().filter(|t| have.contains(t)).collect()
}

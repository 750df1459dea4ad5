//! The one place the store redacts secrets (issue 20, docs/privacy.md): text goes through the
//! redaction policy ([`Policy::redact`]) with this store's options — its marker key and the
//! `privacy.allow` list of `config.yaml` — and comes back with its markers, the hits and the
//! counts per kind. The Save path calls it on everything it writes (Distilled State, fields,
//! artifact contents and metadata), doctor on what a store already holds, and the binary hands
//! it to codecall's evidence collector.
//!
//! The key: 32 bytes from the OS random source, generated the first time a text is redacted,
//! kept in `<store>/.keys/redaction.key` (mode 0600, never printed) so the same secret gets the
//! same marker in this store — and on every machine the store travels to.
//!
//! Not for: finding secrets (the policy) or deciding what is stored (the Save path).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::app::App;
use crate::error::{Code, DossierError, Result};
use crate::layout::Store;
use crate::policy::Policy;
pub use crate::policy::{RedactionHit as Hit, RedactionOptions};

/// Secrets replaced, per kind.
pub type Counts = BTreeMap<String, u32>;

/// Length of the per-store marker key.
pub const KEY_BYTES: usize = 32;

/// A text after redaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redacted {
    /// The text with its markers (the input itself when nothing was found).
    pub text: String,
    /// Every secret found, in input order (kind, lines, marker; never the value).
    pub hits: Vec<Hit>,
}

impl Redacted {
    /// The hits counted per kind.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::new();
        add_hits(&mut counts, &self.hits);
        counts
    }
}

/// Count `hits` into `counts`.
pub fn add_hits(counts: &mut Counts, hits: &[Hit]) {
    for h in hits {
        *counts.entry(h.kind.clone()).or_default() += 1;
    }
}

/// Add `more` into `counts`.
pub fn add_counts(counts: &mut Counts, more: &Counts) {
    for (k, n) in more {
        *counts.entry(k.clone()).or_default() += n;
    }
}

/// "3 secrets redacted (github_token ×2, jwt)"; `None` when nothing was.
pub fn summary(counts: &Counts) -> Option<String> {
    let total: u32 = counts.values().sum();
    if total == 0 {
        return None;
    }
    let kinds: Vec<String> =
        counts.iter().map(|(k, n)| if *n == 1 { k.clone() } else { format!("{k} ×{n}") }).collect();
    let noun = if total == 1 { "secret" } else { "secrets" };
    Some(format!("{total} {noun} redacted ({})", kinds.join(", ")))
}

/// The warning every surface shows while `privacy.redact` is off.
pub fn off_warning(store: &Store) -> String {
    format!(
        "redaction_off: privacy.redact is false in {}: transcripts, artifacts and Distilled States are \
         stored verbatim, secrets included; set it to true (and run `dossier doctor`)",
        store.config_path().display()
    )
}

/// The redaction of one [`App`]: its policy and options, the key read (or created) on first use.
pub struct Redactor<'a> {
    policy: &'a dyn Policy,
    store: &'a Store,
    on: bool,
    allow: Vec<String>,
    key: OnceLock<[u8; KEY_BYTES]>,
    /// Scanning only (doctor): never create the key; without one, markers use a throw-away key.
    read_only: bool,
}

impl<'a> Redactor<'a> {
    /// The store's redaction as `config.yaml` sets it (`privacy.redact`, `privacy.allow`).
    pub fn new(app: &'a App) -> Redactor<'a> {
        Redactor {
            policy: app.policy(),
            store: &app.store,
            on: app.config.privacy.redact,
            allow: app.config.privacy.allow.clone(),
            key: OnceLock::new(),
            read_only: false,
        }
    }

    /// The same rules for scanning what the store holds, whether redaction is on or off, and
    /// without writing anything (no key is created; hits' markers are then not the store's).
    pub fn scanner(app: &'a App) -> Redactor<'a> {
        Redactor { on: true, read_only: true, ..Redactor::new(app) }
    }

    /// The rules applied whatever `privacy.redact` says: `dossier redact`, which the user asks
    /// for explicitly.
    pub fn forced(app: &'a App) -> Redactor<'a> {
        Redactor { on: true, ..Redactor::new(app) }
    }

    /// Whether texts are redacted at all (`privacy.redact`).
    pub fn is_on(&self) -> bool {
        self.on
    }

    fn options(&self) -> Result<RedactionOptions> {
        let key = match self.key.get() {
            Some(k) => *k,
            None => {
                let k = if self.read_only {
                    read_key(self.store)?.unwrap_or_else(|| {
                        let mut k = [0u8; KEY_BYTES];
                        // A scan's markers are never written; a failed RNG read leaves zeros.
                        let _ = getrandom::fill(&mut k);
                        k
                    })
                } else {
                    key(self.store)?
                };
                *self.key.get_or_init(|| k)
            }
        };
        Ok(RedactionOptions { key: key.to_vec(), allow: self.allow.clone() })
    }

    /// `text` through the policy (unchanged, no hits, when redaction is off or `text` is empty).
    pub fn redact(&self, text: &str) -> Result<Redacted> {
        if !self.on || text.is_empty() {
            return Ok(Redacted { text: text.to_string(), hits: Vec::new() });
        }
        let r = self.policy.redact(text, &self.options()?)?;
        Ok(Redacted { text: r.text.unwrap_or_else(|| text.to_string()), hits: r.hits })
    }

    /// [`Self::redact`] for each of `texts`, in order, in one policy call (a scan of thousands of
    /// files sets the policy up once per call, not once per file). Callers bound the texts'
    /// total size ([`crate::policy::REDACT_BATCH_BYTES`]).
    pub fn redact_many(&self, texts: &[&str]) -> Result<Vec<Redacted>> {
        if !self.on {
            return Ok(texts.iter().map(|t| Redacted { text: t.to_string(), hits: Vec::new() }).collect());
        }
        let found = self.policy.redact_many(texts, &self.options()?)?;
        Ok(texts
            .iter()
            .zip(found)
            .map(|(text, r)| Redacted { text: r.text.unwrap_or_else(|| text.to_string()), hits: r.hits })
            .collect())
    }

    /// Redact `text` in place, counting into `counts`.
    pub fn apply(&self, text: &mut String, counts: &mut Counts) -> Result<()> {
        if !self.on || text.is_empty() {
            return Ok(());
        }
        let r = self.policy.redact(text, &self.options()?)?;
        add_hits(counts, &r.hits);
        if let Some(t) = r.text {
            *text = t;
        }
        Ok(())
    }
}

/// A secret found in a file the store already holds (never its value).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Found {
    pub file: PathBuf,
    pub line: u32,
    pub last_line: u32,
    pub kind: String,
}

/// The files of the Dossier in `dir` that hold text the redaction policy reads: `dossier.md`,
/// every text artifact and its sidecar, every conflict file. Sorted; binary notes included
/// (they are text).
pub fn text_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = vec![dir.join("dossier.md")];
    for sub in ["artifacts", "conflicts"] {
        let Ok(entries) = fs::read_dir(dir.join(sub)) else { continue };
        let mut names: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.path())
            .filter(|p| {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                !name.starts_with('.') && [".md", ".json", ".txt", ".yaml"].iter().any(|x| name.ends_with(x))
            })
            .collect();
        names.sort();
        files.extend(names);
    }
    files
}

/// Scan every text file of the Dossier in `dir` with `redactor` (doctor: [`Redactor::scanner`]):
/// each secret's file, lines and kind — the files [`text_files`] lists (which `dossier redact`
/// rewrites) and the append-only `audit.log` (which nothing rewrites). A file that is not UTF-8
/// is skipped (the Save path stores none).
pub fn scan(redactor: &Redactor<'_>, dir: &Path) -> Result<Vec<Found>> {
    let mut files = text_files(dir);
    files.push(crate::audit::log_path(dir));
    scan_files(redactor, &files)
}

/// The store-level files that can hold text captured or written by a model, outside the
/// Dossiers: `context/` (the library lists names and next actions), `sessions/` (bindings
/// and codecall cards), `learning/` (codecall's logs) and the frontmatter cache. Sorted,
/// missing ones left out.
pub fn store_files(store: &Store) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let dirs = [
        (store.root().join("context"), ".md"),
        (store.sessions_dir(), ".json"),
        (store.sessions_dir().join("cards"), ".json"),
        (store.learning_dir(), ".jsonl"),
    ];
    for (dir, ext) in dirs {
        let Ok(entries) = fs::read_dir(&dir) else { continue };
        let mut names: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.path())
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().ends_with(ext)))
            .collect();
        names.sort();
        files.extend(names);
    }
    let cache = store.frontmatter_cache_path();
    if cache.is_file() {
        files.push(cache);
    }
    files
}

/// Scan the store-level files ([`store_files`]) like [`scan`] does a Dossier's.
pub fn scan_store(redactor: &Redactor<'_>) -> Result<Vec<Found>> {
    scan_files(redactor, &store_files(redactor.store))
}

/// [`scan`] for each of `dirs` (Dossier directories), in one pass: the findings of each, in
/// order. The files of many Dossiers share the policy's set-up (doctor, `sync init`).
pub fn scan_dirs(redactor: &Redactor<'_>, dirs: &[PathBuf]) -> Result<Vec<Vec<Found>>> {
    let (mut files, mut owner) = (Vec::new(), Vec::new());
    for (i, dir) in dirs.iter().enumerate() {
        for f in text_files(dir).into_iter().chain([crate::audit::log_path(dir)]) {
            files.push(f);
            owner.push(i);
        }
    }
    let mut out = vec![Vec::new(); dirs.len()];
    for (k, found) in scan_each(redactor, &files)?.into_iter().enumerate() {
        out[owner[k]].extend(found);
    }
    Ok(out)
}

fn scan_files(redactor: &Redactor<'_>, files: &[PathBuf]) -> Result<Vec<Found>> {
    Ok(scan_each(redactor, files)?.into_iter().flatten().collect())
}

/// What each of `files` holds, in order: read and handed to the policy a batch at a time (at
/// most [`crate::policy::REDACT_BATCH_BYTES`] of text, or one larger file), so a store of any
/// size is scanned with one policy set-up per batch. Unreadable or non-UTF-8 files hold
/// nothing here (the Save path stores none).
fn scan_each(redactor: &Redactor<'_>, files: &[PathBuf]) -> Result<Vec<Vec<Found>>> {
    let mut out: Vec<Vec<Found>> = vec![Vec::new(); files.len()];
    let (mut batch, mut size): (Vec<(usize, String)>, usize) = (Vec::new(), 0);
    let mut flush = |batch: &mut Vec<(usize, String)>| -> Result<()> {
        let texts: Vec<&str> = batch.iter().map(|(_, t)| t.as_str()).collect();
        for ((k, _), r) in batch.iter().zip(redactor.redact_many(&texts)?) {
            out[*k] = r
                .hits
                .into_iter()
                .map(|h| Found { file: files[*k].clone(), line: h.first_line, last_line: h.last_line, kind: h.kind })
                .collect();
        }
        batch.clear();
        Ok(())
    };
    for (k, file) in files.iter().enumerate() {
        let Ok(text) = fs::read_to_string(file) else { continue };
        if text.is_empty() {
            continue;
        }
        // A file that would take the batch over the bound starts the next one (a larger file
        // goes alone).
        if !batch.is_empty() && size + text.len() > crate::policy::REDACT_BATCH_BYTES {
            flush(&mut batch)?;
            size = 0;
        }
        size += text.len();
        batch.push((k, text));
    }
    if !batch.is_empty() {
        flush(&mut batch)?;
    }
    Ok(out)
}

/// Redact `text` with `app`'s store options: the store-level entry point.
pub fn redact(app: &App, text: &str) -> Result<Redacted> {
    Redactor::new(app).redact(text)
}

/// The store's marker key, created on first use (`.keys/redaction.key`, 32 random bytes from
/// the OS, mode 0600). Two processes creating it at once agree: the file is linked into place
/// only if absent, and the loser reads the winner's.
pub fn key(store: &Store) -> Result<[u8; KEY_BYTES]> {
    if let Some(k) = read_key(store)? {
        return Ok(k);
    }
    let path = store.redaction_key_path();
    let dir = path.parent().expect("the key file is inside the store");
    create_private_dir(dir)?;
    let mut k = [0u8; KEY_BYTES];
    getrandom::fill(&mut k).map_err(|e| {
        DossierError::new(Code::Io, format!("could not read the OS random source for the redaction key: {e}"))
    })?;
    let tmp = dir.join(format!(".redaction.key.{}.tmp", std::process::id()));
    write_private(&tmp, &k)?;
    let linked = fs::hard_link(&tmp, &path);
    let _ = fs::remove_file(&tmp);
    match linked {
        Ok(()) => {
            if let Ok(d) = fs::File::open(dir) {
                let _ = d.sync_all();
            }
            Ok(k)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            read_key(store)?.ok_or_else(|| DossierError::io("read", &path, e))
        }
        Err(e) => Err(DossierError::io("create", &path, e)),
    }
}

/// The key if the store has one; a key file of the wrong length is an error naming it.
pub fn read_key(store: &Store) -> Result<Option<[u8; KEY_BYTES]>> {
    let path = store.redaction_key_path();
    match fs::read(&path) {
        Ok(bytes) => <[u8; KEY_BYTES]>::try_from(bytes.as_slice()).map(Some).map_err(|_| {
            DossierError::new(
                Code::InvalidConfig,
                format!("{} holds {} bytes; a redaction key is {KEY_BYTES}", path.display(), bytes.len()),
            )
            .with_next(format!(
                "restore {} from the store's backup (moving it aside makes new markers for every secret)",
                path.display()
            ))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(DossierError::io("read", &path, e)),
    }
}

fn create_private_dir(dir: &Path) -> Result<()> {
    let mut b = fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir).map_err(|e| DossierError::io("create", dir, e))
}

fn write_private(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write as _;
    let mut o = fs::OpenOptions::new();
    o.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let mut f = o.open(path).map_err(|e| DossierError::io("create", path, e))?;
    f.write_all(bytes).map_err(|e| DossierError::io("write", path, e))?;
    f.sync_all().map_err(|e| DossierError::io("sync", path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_names_kinds_and_counts() {
        assert_eq!(summary(&Counts::new()), None);
        let mut c = Counts::new();
        c.insert("jwt".into(), 1);
        assert_eq!(summary(&c).unwrap(), "1 secret redacted (jwt)");
        c.insert("github_token".into(), 2);
        assert_eq!(summary(&c).unwrap(), "3 secrets redacted (github_token ×2, jwt)");
    }

    #[test]
    fn the_key_is_made_once_private_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path().to_path_buf());
        assert_eq!(read_key(&store).unwrap(), None);
        let k = key(&store).unwrap();
        assert_eq!(key(&store).unwrap(), k, "the second call reads the same key");
        assert_ne!(k, [0u8; KEY_BYTES]);
        let path = store.redaction_key_path();
        assert_eq!(fs::read(&path).unwrap(), k);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
            assert_eq!(fs::metadata(path.parent().unwrap()).unwrap().permissions().mode() & 0o777, 0o700);
        }
        // Nothing but the key is left in `.keys/`.
        let names: Vec<_> = fs::read_dir(path.parent().unwrap()).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(names, [std::ffi::OsString::from("redaction.key")]);
        // Another store has another key.
        let other = tempfile::tempdir().unwrap();
        assert_ne!(key(&Store::at(other.path().to_path_buf())).unwrap(), k);
    }

    #[test]
    fn a_damaged_key_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path().to_path_buf());
        fs::create_dir_all(store.redaction_key_path().parent().unwrap()).unwrap();
        fs::write(store.redaction_key_path(), b"short").unwrap();
        let e = key(&store).unwrap_err();
        assert_eq!(e.code, Code::InvalidConfig);
        assert!(e.message.contains("redaction.key"), "{}", e.message);
        assert_eq!(fs::read(store.redaction_key_path()).unwrap(), b"short", "never overwritten");
    }
}

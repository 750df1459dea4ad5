//! The local store (SPEC §3.2): where it is, its layout, and reading the Dossiers in it.
//!
//! Layout under the root (`DOSSIER_HOME`, else `~/.dossier`):
//! `config.yaml`, `context/{library.md,guide.md}`, `sessions/`, `learning/` (codecall's event
//! logs), one directory per Dossier named by its slug, and `.cache/` for derived caches
//! (compiled policy components). Dot directories and the reserved names `context`, `sessions`
//! and `learning` are never Dossiers.
//!
//! Not for: writing Dossiers. Every mutation goes through the single Save path (its own
//! module, with the file-store issue); this module only reads.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::error::{Code, DossierError, Result};
use crate::model::{self, Frontmatter, Times};

/// Directory names at the store root that are not Dossiers.
pub const RESERVED_NAMES: [&str; 3] = ["context", "sessions", "learning"];

#[derive(Clone, Debug)]
pub struct Store {
    root: PathBuf,
}

impl Store {
    /// The store named by `DOSSIER_HOME`, else `~/.dossier`.
    pub fn locate() -> Result<Store> {
        if let Some(dir) = std::env::var_os("DOSSIER_HOME").filter(|v| !v.is_empty()) {
            return Ok(Store::at(PathBuf::from(dir)));
        }
        match std::env::home_dir() {
            Some(home) => Ok(Store::at(home.join(".dossier"))),
            None => {
                Err(DossierError::new(Code::StoreUnavailable, "no home directory found and DOSSIER_HOME is not set")
                    .with_next("set DOSSIER_HOME=/path/to/store"))
            }
        }
    }

    pub fn at(root: PathBuf) -> Store {
        Store { root }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn config_path(&self) -> PathBuf {
        self.root.join("config.yaml")
    }
    /// This machine's part of the config in a synced store (`dossier init`'s capability
    /// report; never synced: docs/sync.md).
    pub fn machine_config_path(&self) -> PathBuf {
        self.root.join("config.machine.yaml")
    }
    /// Whether the store is a git repository (`dossier sync init` or `clone` made it one).
    pub fn is_synced(&self) -> bool {
        self.root.join(".git").exists()
    }
    pub fn context_dir(&self) -> PathBuf {
        self.root.join("context")
    }
    pub fn guide_path(&self) -> PathBuf {
        self.context_dir().join("guide.md")
    }
    pub fn library_path(&self) -> PathBuf {
        self.context_dir().join("library.md")
    }
    pub fn sessions_dir(&self) -> PathBuf {
        self.root.join("sessions")
    }
    /// codecall's event logs, one `<session-id>.jsonl` per learning session (created by the
    /// first `dossier codecall start` that uses the default log).
    pub fn learning_dir(&self) -> PathBuf {
        self.root.join("learning")
    }
    /// Compiled policy components (derived; safe to remove).
    /// The frontmatter cache shared between processes (derived; see `FrontmatterCache`).
    pub fn frontmatter_cache_path(&self) -> PathBuf {
        self.root.join(".cache").join("frontmatter.json")
    }

    pub fn policy_cache_dir(&self) -> PathBuf {
        self.root.join(".cache").join("policy")
    }

    /// The per-store redaction marker key (`crate::redact`; travels with the store).
    pub fn redaction_key_path(&self) -> PathBuf {
        self.root.join(".keys").join("redaction.key")
    }

    pub fn exists(&self) -> bool {
        self.root.is_dir()
    }

    /// Fail with `store_unavailable` unless the store has been initialised.
    pub fn require(&self) -> Result<()> {
        if self.exists() {
            Ok(())
        } else {
            Err(DossierError::new(Code::StoreUnavailable, format!("no Dossier store at {}", self.root.display()))
                .with_next(crate::next::Next::per(
                    "dossier init",
                    "ask the user to create the store: `dossier init` in a terminal",
                )))
        }
    }

    /// Every `<slug>/dossier.md` in the store, sorted by slug (a deterministic order the
    /// priority sort then refines).
    pub fn dossier_files(&self) -> Result<Vec<PathBuf>> {
        Ok(self.dossier_files_stamped()?.into_iter().map(|(p, _)| p).collect())
    }

    /// [`Store::dossier_files`] with each file's stamp (inode, size, mtime) from the same
    /// `stat`, so a cached listing costs one `stat` per Dossier. Stats run on two threads
    /// (they are syscall-bound).
    pub fn dossier_files_stamped(&self) -> Result<Vec<(PathBuf, FileStamp)>> {
        Ok(self.dossier_files_checked()?.0)
    }

    /// [`Store::dossier_files_stamped`] and a warning for each Dossier left out because of a
    /// symbolic link (SPEC §3.2: nothing is read through a link): a Dossier directory that
    /// is a link leading out of the store, or a `dossier.md` that is a link. Both come from
    /// the same directory listing and `stat`s, so the check costs nothing extra.
    pub fn dossier_files_checked(&self) -> Result<CheckedFiles> {
        let entries = match fs::read_dir(&self.root) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
            Err(e) => return Err(DossierError::io("list", &self.root, e)),
        };
        let mut warnings = Vec::new();
        let mut names: Vec<std::ffi::OsString> = entries
            .filter_map(|e| e.ok())
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                !name.starts_with('.') && !RESERVED_NAMES.contains(&name.as_ref())
            })
            .filter(|e| match e.file_type() {
                Ok(t) if t.is_dir() => true,
                Ok(t) if t.is_symlink() => {
                    if let Some(link) = self.outside_dossier_link(&e.path()) {
                        warnings.push(link.message());
                    }
                    false
                }
                _ => false,
            })
            .map(|e| e.file_name())
            .collect();
        // Sorting names (bytes) orders the paths exactly as sorting them would, far cheaper.
        names.sort_unstable();
        let candidates: Vec<PathBuf> = names.iter().map(|n| self.root.join(n).join("dossier.md")).collect();
        // Stat `<name>/dossier.md` relative to the store's directory: two path components
        // to resolve per Dossier instead of the whole path.
        let root_fd = rustix::fs::open(
            &self.root,
            rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .ok();
        let stat_one = |name: &std::ffi::OsString, path: &PathBuf| -> Option<FileStamp> {
            let Some(fd) = &root_fd else { return file_stamp(path) };
            // Never through a link: a linked `dossier.md` is left out (and reported below).
            let st = rustix::fs::statat(fd, Path::new(name).join("dossier.md"), rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
                .ok()?;
            if rustix::fs::FileType::from_raw_mode(st.st_mode) != rustix::fs::FileType::RegularFile {
                return None;
            }
            let mtime = std::time::UNIX_EPOCH
                .checked_add(std::time::Duration::new(st.st_mtime as u64, st.st_mtime_nsec as u32));
            Some((st.st_ino, st.st_size as u64, mtime))
        };
        let stat_all = |names: &[std::ffi::OsString], paths: &[PathBuf]| -> Vec<Option<FileStamp>> {
            names.iter().zip(paths).map(|(n, p)| stat_one(n, p)).collect()
        };
        let stamps: Vec<Option<FileStamp>> = if candidates.len() < 256 {
            stat_all(&names, &candidates)
        } else {
            let mid = candidates.len() / 2;
            let (a, b) = (&candidates[..mid], &candidates[mid..]);
            let (na, nb) = (&names[..mid], &names[mid..]);
            std::thread::scope(|s| {
                let h = s.spawn(|| stat_all(nb, b));
                let mut first = stat_all(na, a);
                first.extend(h.join().expect("stat thread panicked"));
                first
            })
        };
        let mut files = Vec::with_capacity(candidates.len());
        for (path, st) in candidates.into_iter().zip(stamps) {
            match st {
                Some(st) => files.push((path, st)),
                None => {
                    if let Some(link) = EntryLink::at(&path) {
                        warnings.push(link.message());
                    }
                }
            }
        }
        Ok((files, warnings))
    }

    /// The link at `path` (an entry of the store root) when it leads to a Dossier directory
    /// outside the store.
    fn outside_dossier_link(&self, path: &Path) -> Option<EntryLink> {
        let real = fs::canonicalize(path).ok()?;
        let root = fs::canonicalize(&self.root).ok()?;
        (!real.starts_with(&root) && real.join("dossier.md").exists()).then(|| EntryLink {
            path: path.to_path_buf(),
            target: real,
            dossier_dir: true,
        })
    }

    /// Every symbolic link that leads a Dossier out of the store (`dossier doctor`): Dossier
    /// directories that are links out of it, and links among a Dossier's own entries
    /// ([`DOSSIER_ENTRIES`]), by path.
    pub fn links(&self) -> Vec<EntryLink> {
        let Ok(entries) = fs::read_dir(&self.root) else { return Vec::new() };
        let mut out = Vec::new();
        for e in entries.filter_map(|e| e.ok()) {
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || RESERVED_NAMES.contains(&name.as_ref()) {
                continue;
            }
            match e.file_type() {
                Ok(t) if t.is_symlink() => out.extend(self.outside_dossier_link(&e.path())),
                Ok(t) if t.is_dir() && fs::symlink_metadata(e.path().join("dossier.md")).is_ok() => {
                    out.extend(entry_links(&e.path()))
                }
                _ => {}
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }
}

/// The entries of a Dossier directory the host reads or writes. None of them may be a
/// symbolic link (SPEC §3.2): a link would lead reads and writes out of the store.
pub const DOSSIER_ENTRIES: [&str; 5] = ["dossier.md", "artifacts", "conflicts", "audit.log", ".lock"];

/// A symbolic link where the store needs a real file or directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryLink {
    /// The link itself.
    pub path: PathBuf,
    /// What it points to (as written in the link; resolved for a Dossier directory).
    pub target: PathBuf,
    /// The link is a Dossier directory at the store root (not an entry inside one).
    pub dossier_dir: bool,
}

impl EntryLink {
    /// The link at `path`, if it is one.
    pub fn at(path: &Path) -> Option<EntryLink> {
        let meta = fs::symlink_metadata(path).ok()?;
        if !meta.file_type().is_symlink() {
            return None;
        }
        // Relative targets are relative to the link's directory: absolute, the fix's `cp`
        // runs from anywhere.
        let target = fs::read_link(path).unwrap_or_default();
        let target = match path.parent() {
            Some(parent) if target.is_relative() => parent.join(target),
            _ => target,
        };
        Some(EntryLink { path: path.to_path_buf(), target, dossier_dir: false })
    }

    /// What is wrong, for a warning or an error message.
    pub fn message(&self) -> String {
        if self.dossier_dir {
            format!(
                "{} is a symbolic link to {}, outside the store; that Dossier is not listed or read",
                self.path.display(),
                self.target.display()
            )
        } else {
            format!(
                "{} is a symbolic link (to {}); Dossier never reads or writes through a link inside a Dossier",
                self.path.display(),
                self.target.display()
            )
        }
    }

    /// How to fix it: a shell command.
    pub fn fix(&self) -> String {
        let (p, t) = (self.path.display(), self.target.display());
        if self.dossier_dir {
            format!("move the Dossier into the store: rm {p} && mv {t} {p}")
        } else if self.path.file_name().is_some_and(|n| n == ".lock") {
            format!("remove the link (the next save recreates the lock file): rm {p}")
        } else {
            format!("replace the link with a real file or directory holding a copy: rm {p} && cp -R {t} {p}")
        }
    }
}

/// The symbolic links among the entries ([`DOSSIER_ENTRIES`]) of the Dossier in `dir`.
pub fn entry_links(dir: &Path) -> Vec<EntryLink> {
    DOSSIER_ENTRIES.iter().filter_map(|e| EntryLink::at(&dir.join(e))).collect()
}

/// Fail with `invalid_input` if any entry of the Dossier in `dir` is a symbolic link: the
/// one check every reader and writer of a Dossier makes ([`Store::resolve`], the Save path's
/// lock, artifact writes), so nothing is read or written through a link.
pub fn check_entries(dir: &Path) -> Result<()> {
    let links = entry_links(dir);
    if links.is_empty() {
        return Ok(());
    }
    let message = links.iter().map(EntryLink::message).collect::<Vec<_>>().join("; ");
    let mut err = DossierError::new(Code::InvalidInput, format!("{message}; nothing was read or written"))
        .with_details(serde_json::json!({
            "field": "target",
            "links": links.iter().map(|l| serde_json::json!({ "path": l.path, "target": l.target })).collect::<Vec<_>>(),
        }));
    for l in &links {
        err = err.with_next(l.fix());
    }
    Err(err)
}

/// Read only the frontmatter block of `file` (the body is never loaded) and validate it.
pub fn read_frontmatter(file: &Path) -> Result<(Frontmatter, Times)> {
    let f = fs::File::open(file).map_err(|e| DossierError::io("open", file, e))?;
    let mut reader = BufReader::new(f);
    let mut line = String::new();
    let invalid = |line: usize, msg: &str| {
        DossierError::new(Code::InvalidFrontmatter, format!("{}:{line}: {msg}", file.display()))
            .with_details(serde_json::json!({ "file": file, "line": line }))
    };
    reader.read_line(&mut line).map_err(|e| DossierError::io("read", file, e))?;
    if line.trim_end() != "---" {
        return Err(invalid(1, "expected `---` opening the YAML frontmatter"));
    }
    let mut yaml = String::new();
    let mut lineno = 1;
    loop {
        line.clear();
        let n = reader.read_line(&mut line).map_err(|e| DossierError::io("read", file, e))?;
        lineno += 1;
        if n == 0 {
            return Err(invalid(lineno, "frontmatter is not closed by `---`"));
        }
        if line.trim_end() == "---" {
            break;
        }
        yaml.push_str(&line);
    }
    let fm = model::parse_frontmatter(&yaml, file)?;
    let times = fm.validate(file)?;
    Ok((fm, times))
}

/// Frontmatter already read, keyed by file and validated by (inode, size, mtime): a
/// long-running server (`dossier mcp`) re-reads only Dossiers that changed, and with a disk
/// file (`<store>/.cache/frontmatter.json`) a short-lived process (a hook, `ls`) starts from
/// what the previous one read, so it stats every `dossier.md` but parses only changed ones.
/// Every write replaces `dossier.md` by rename, so a changed file always has a new inode; a
/// hand edit changes size or mtime.
///
/// The disk file is derived data: unreadable, from another build, or half-written, it is
/// ignored; failing to write it is not an error.
#[derive(Default)]
pub struct FrontmatterCache {
    entries: std::sync::Mutex<std::collections::HashMap<PathBuf, (FileStamp, Frontmatter, Times)>>,
    disk: Option<PathBuf>,
    loaded: std::sync::OnceLock<()>,
}

/// What identifies a version of a file: (inode, size, mtime).
pub type FileStamp = (u64, u64, Option<std::time::SystemTime>);

/// Every readable `dossier.md` with its stamp, and a warning per Dossier left out because
/// of a symbolic link ([`Store::dossier_files_checked`]).
pub type CheckedFiles = (Vec<(PathBuf, FileStamp)>, Vec<String>);

/// The stamp of a regular file (following symlinks), or None.
pub fn file_stamp(file: &Path) -> Option<FileStamp> {
    use std::os::unix::fs::MetadataExt;
    let m = fs::metadata(file).ok().filter(|m| m.is_file())?;
    Some((m.ino(), m.len(), m.modified().ok()))
}

/// The disk form of the cache, tied to the build that wrote it.
#[derive(serde::Serialize, serde::Deserialize)]
struct DiskCache {
    build: String,
    entries: Vec<(PathBuf, FileStamp, Frontmatter, Times)>,
}

fn build_id() -> String {
    format!("dossier {}", env!("CARGO_PKG_VERSION"))
}

impl FrontmatterCache {
    /// A cache persisted at `file` between processes.
    pub fn persistent(file: PathBuf) -> FrontmatterCache {
        FrontmatterCache { disk: Some(file), ..Default::default() }
    }

    fn load_disk(&self) {
        let Some(file) = &self.disk else { return };
        let Ok(bytes) = fs::read(file) else { return };
        let Ok(disk) = serde_json::from_slice::<DiskCache>(&bytes) else { return };
        if disk.build != build_id() {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        for (path, st, fm, t) in disk.entries {
            entries.entry(path).or_insert((st, fm, t));
        }
    }

    fn store_disk(&self) {
        let Some(file) = &self.disk else { return };
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let disk = DiskCache {
            build: build_id(),
            entries: entries.iter().map(|(p, (st, fm, t))| (p.clone(), *st, fm.clone(), *t)).collect(),
        };
        drop(entries);
        if let Some(dir) = file.parent()
            && fs::create_dir_all(dir).is_ok()
        {
            let _ = crate::files::write_atomic(file, &serde_json::to_vec(&disk).expect("cache serializes"));
        }
    }

    /// [`read_frontmatters`], reusing entries whose file has not changed.
    pub fn read(&self, files: &[PathBuf]) -> Vec<Result<(Frontmatter, Times)>> {
        let stamps: Vec<Option<FileStamp>> = files.iter().map(|f| file_stamp(f)).collect();
        self.read_stamped(files, &stamps)
    }

    /// [`FrontmatterCache::read`] with the files' stamps already known (from
    /// [`Store::dossier_files_stamped`]).
    pub fn read_stamped(&self, files: &[PathBuf], stamps: &[Option<FileStamp>]) -> Vec<Result<(Frontmatter, Times)>> {
        self.loaded.get_or_init(|| self.load_disk());
        let mut out: Vec<Option<Result<(Frontmatter, Times)>>> = Vec::with_capacity(files.len());
        let mut missing = Vec::new();
        {
            let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            for (i, f) in files.iter().enumerate() {
                match (entries.get(f), &stamps[i]) {
                    (Some((st, fm, t)), Some(now)) if st == now => out.push(Some(Ok((fm.clone(), *t)))),
                    _ => {
                        out.push(None);
                        missing.push(i);
                    }
                }
            }
        }
        let paths: Vec<PathBuf> = missing.iter().map(|&i| files[i].clone()).collect();
        let fresh = read_frontmatters(&paths);
        let mut learned = false;
        {
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            for (&i, r) in missing.iter().zip(fresh) {
                if let (Ok((fm, t)), Some(st)) = (&r, &stamps[i]) {
                    entries.insert(files[i].clone(), (*st, fm.clone(), *t));
                    learned = true;
                }
                out[i] = Some(r);
            }
        }
        if learned {
            self.store_disk();
        }
        out.into_iter().map(|r| r.expect("every slot filled")).collect()
    }
}

/// [`read_frontmatter`] for many files, spread over the available cores (frontmatter scans
/// are dominated by per-file open/read latency). Results are in input order.
pub fn read_frontmatters(files: &[PathBuf]) -> Vec<Result<(Frontmatter, Times)>> {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(8);
    if threads < 2 || files.len() < 64 {
        return files.iter().map(|f| read_frontmatter(f)).collect();
    }
    let chunk = files.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().map(|f| read_frontmatter(f)).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("frontmatter reader panicked")).collect()
    })
}

/// Check that `target` can name a directory in the store: one path component, no `..`,
/// no separators, not absolute, no NUL.
pub fn validate_component(target: &str) -> Result<()> {
    let bad = target.is_empty()
        || target == "."
        || target == ".."
        || target.contains(['/', '\\', '\0'])
        || Path::new(target).is_absolute();
    if bad {
        return Err(DossierError::new(
            Code::InvalidInput,
            format!(
                "`{target}` is not a Dossier slug or id (slugs are single path components without `..` or separators)"
            ),
        )
        .with_details(serde_json::json!({ "field": "target", "value": target, "expected": "a Dossier slug or id" })));
    }
    Ok(())
}

impl Store {
    /// The directory of the Dossier named by `target` (slug or id). Rejects names that
    /// would build a path outside the store, symlinks that lead out of it, and Dossiers with
    /// a link among their entries ([`check_entries`]).
    pub fn resolve(&self, target: &str) -> Result<PathBuf> {
        validate_component(target)?;
        let direct = self.root.join(target);
        if direct.join("dossier.md").is_file() && !RESERVED_NAMES.contains(&target) && !target.starts_with('.') {
            self.check_inside(&direct)?;
            check_entries(&direct)?;
            return Ok(direct);
        }
        for file in self.dossier_files()? {
            if let Ok((fm, _)) = read_frontmatter(&file)
                && (fm.id == target || fm.slug == target)
            {
                let dir = file.parent().expect("dossier.md has a parent").to_path_buf();
                self.check_inside(&dir)?;
                check_entries(&dir)?;
                return Ok(dir);
            }
        }
        Err(DossierError::new(Code::NotFound, format!("no Dossier with slug or id `{target}`"))
            .with_details(serde_json::json!({ "target": target }))
            .with_next(crate::next::Next::op(crate::next::Op::List).with(crate::next::Arg {
                cli: Some("--status all".into()),
                mcp: Some(r#"status=["active","waiting","blocked","resolved","archived"]"#.into()),
            }))
            .with_next(crate::next::Next::per(
                format!("dossier search \"{target}\""),
                format!("call dossier_search query=\"{target}\""),
            )))
    }

    /// Fail unless `dir`, with symlinks resolved, is inside the store root.
    pub fn check_inside(&self, dir: &Path) -> Result<()> {
        let root = fs::canonicalize(&self.root).map_err(|e| DossierError::io("resolve", &self.root, e))?;
        let real = fs::canonicalize(dir).map_err(|e| DossierError::io("resolve", dir, e))?;
        if !real.starts_with(&root) {
            return Err(DossierError::new(
                Code::InvalidInput,
                format!("{} leads outside the store (to {}); refusing to use it", dir.display(), real.display()),
            )
            .with_details(serde_json::json!({ "field": "target", "path": dir, "leads_to": real })));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_components_are_validated() {
        for bad in ["", ".", "..", "../x", "a/b", "a\\b", "/etc", "a\0b"] {
            assert_eq!(validate_component(bad).unwrap_err().code, Code::InvalidInput, "{bad:?}");
        }
        validate_component("pricing-model-refresh").unwrap();
        validate_component("dos_01jz8").unwrap();
    }
}

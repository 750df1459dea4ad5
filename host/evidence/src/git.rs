//! The `git` command line, run through `std::process::Command`: repository discovery, revision
//! resolution, the raw diff, the `-U0` patch (hunk ranges), untracked files, tree listings and
//! blob reads (`cat-file --batch-command`, git ≥ 2.36).
//!
//! Every invocation is hardened so that neither the environment nor the repository can make git
//! do more than read: `GIT_DIR`-style variables and `-c` parameters inherited from the caller are
//! removed; external diff drivers and textconv filters are off (`--no-ext-diff`,
//! `--no-textconv`), so a `.gitattributes` in the repository cannot run a command; the fsmonitor
//! hook is off; optional locks are off (no index refresh writes); messages are in the C locale.
//! Paths are passed as `:(literal)` pathspecs, revisions after `--end-of-options`. A deadline
//! kills a git process that is still running when the budget's time is up.
//!
//! Not for: interpreting content (this module returns bytes and ranges) or deciding what may be
//! read: callers exclude sensitive paths before asking for a patch or a blob.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Instant;

use crate::EvidenceError;
use crate::pack::Hunk;

/// Variables that would point git at another repository, index or object store, or inject
/// configuration, if the host process happened to have them (e.g. when run from a git hook).
const SCRUBBED_ENV: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_EXTERNAL_DIFF",
    "GIT_DIFF_OPTS",
    "GIT_PAGER",
    "GIT_ATTR_SOURCE",
    "GIT_REPLACE_REF_BASE",
    "GIT_QUARANTINE_PATH",
    "GIT_TRACE",
    "GIT_TRACE2",
    "GIT_TRACE2_EVENT",
    "GIT_TRACE2_PERF",
];

/// Configuration forced on every invocation.
const FORCED_CONFIG: &[&str] = &[
    "core.fsmonitor=false",
    "core.quotepath=off",
    "diff.noprefix=false",
    "diff.mnemonicPrefix=false",
    "diff.relative=false",
    "diff.external=",
    "color.ui=never",
];

/// The all-zero object id git uses for "no object" / "not hashed yet".
pub(crate) fn is_null_oid(oid: &str) -> bool {
    !oid.is_empty() && oid.bytes().all(|b| b == b'0')
}

/// Why a git call produced no result.
pub(crate) enum Fail {
    /// Killed at the budget's deadline.
    TimedOut,
    Error(EvidenceError),
}

impl From<EvidenceError> for Fail {
    fn from(e: EvidenceError) -> Self {
        Fail::Error(e)
    }
}

pub(crate) type GitResult<T> = Result<T, Fail>;

/// A repository's work tree and the git program to query it with.
pub(crate) struct Git {
    program: PathBuf,
    root: PathBuf,
}

struct Finished {
    success: bool,
    code: String,
    stdout: Vec<u8>,
    stderr: String,
}

impl Git {
    /// Find the work tree containing `repo`.
    pub fn discover(program: &Path, repo: &Path) -> Result<Git, EvidenceError> {
        if !repo.is_dir() {
            return Err(EvidenceError::NotARepository {
                path: repo.to_owned(),
                reason: "no such directory".to_owned(),
            });
        }
        let probe = Git { program: program.to_owned(), root: repo.to_owned() };
        let out = match probe.exec(&["rev-parse", "--show-toplevel"], None) {
            Ok(out) => out,
            Err(Fail::TimedOut) => unreachable!("no deadline"),
            Err(Fail::Error(e)) => return Err(e),
        };
        if !out.success {
            let lower = out.stderr.to_ascii_lowercase();
            let reason = if lower.contains("not a git repository") {
                "not inside a git work tree".to_owned()
            } else if lower.contains("must be run in a work tree") {
                "a bare repository (a work tree is needed)".to_owned()
            } else {
                return Err(EvidenceError::GitFailed {
                    command: "rev-parse --show-toplevel".to_owned(),
                    code: out.code,
                    stderr: out.stderr,
                });
            };
            return Err(EvidenceError::NotARepository { path: repo.to_owned(), reason });
        }
        let top = String::from_utf8_lossy(&out.stdout).trim_end_matches(['\n', '\r']).to_owned();
        if top.is_empty() {
            return Err(EvidenceError::NotARepository {
                path: repo.to_owned(),
                reason: "git reported no work tree".to_owned(),
            });
        }
        Ok(Git { program: program.to_owned(), root: PathBuf::from(top) })
    }

    /// A work tree whose root is already known (no process started).
    pub fn at(program: &Path, root: &Path) -> Git {
        Git { program: program.to_owned(), root: root.to_owned() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `HEAD`'s commit id (`None` without commits) and whether the tree has uncommitted changes
    /// or untracked files that are not ignored, from one `git status --porcelain=v2 --branch`.
    pub fn status_head(&self) -> GitResult<(Option<String>, bool)> {
        let out = self.run(&["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal"], None)?;
        let mut head = None;
        let mut dirty = false;
        for entry in split_z(&out) {
            match entry.strip_prefix(b"# branch.oid ") {
                Some(oid) if oid != b"(initial)" => head = Some(String::from_utf8_lossy(oid).into_owned()),
                Some(_) => {}
                None if entry.starts_with(b"# ") => {}
                None => dirty = true,
            }
        }
        Ok((head, dirty))
    }

    /// Whether tracked files have uncommitted changes (staged or not), from one `git status
    /// --porcelain=v2 -z --untracked-files=no`: no walk for untracked files, the half of
    /// `status`'s cost that grows with the tree's directories. Killed at `deadline`.
    pub fn tracked_dirty(&self, deadline: Instant) -> GitResult<bool> {
        let out = self.run(
            &["status", "--porcelain=v2", "-z", "--untracked-files=no", "--ignore-submodules=all"],
            Some(deadline),
        )?;
        Ok(split_z(&out).any(|e| !e.starts_with(b"# ")))
    }

    fn command<S: AsRef<OsStr>>(&self, args: &[S]) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.current_dir(&self.root);
        for var in SCRUBBED_ENV {
            cmd.env_remove(var);
        }
        cmd.env("LC_ALL", "C").env("LANGUAGE", "C").env("GIT_OPTIONAL_LOCKS", "0").env("GIT_TERMINAL_PROMPT", "0");
        cmd.env("GIT_NO_REPLACE_OBJECTS", "1");
        for c in FORCED_CONFIG {
            cmd.arg("-c").arg(c);
        }
        cmd.args(args);
        cmd
    }

    /// Run git to completion (or until `deadline`), collecting stdout and stderr.
    fn exec<S: AsRef<OsStr>>(&self, args: &[S], deadline: Option<Instant>) -> GitResult<Finished> {
        let mut cmd = self.command(args);
        cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|e| self.spawn_error(e))?;
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let child = Arc::new(Mutex::new(child));
        let killed = Arc::new(AtomicBool::new(false));
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let watchdog = deadline.map(|deadline| {
            let child = Arc::clone(&child);
            let killed = Arc::clone(&killed);
            std::thread::spawn(move || {
                let wait = deadline.saturating_duration_since(Instant::now());
                if let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(wait) {
                    killed.store(true, Ordering::SeqCst);
                    if let Ok(mut c) = child.lock() {
                        let _ = c.kill();
                    }
                }
            })
        });
        let err_reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = (&mut stderr).take(16 * 1024).read_to_end(&mut buf);
            let _ = std::io::copy(&mut stderr, &mut std::io::sink());
            buf
        });
        let mut out = Vec::new();
        let read = stdout.read_to_end(&mut out);
        let err = err_reader.join().unwrap_or_default();
        let status = child.lock().expect("child lock").wait();
        drop(done_tx);
        if let Some(w) = watchdog {
            let _ = w.join();
        }
        if killed.load(Ordering::SeqCst) {
            return Err(Fail::TimedOut);
        }
        read.map_err(|e| EvidenceError::io("git output", e))?;
        let status = status.map_err(|e| EvidenceError::io("waiting for git", e))?;
        Ok(Finished {
            success: status.success(),
            code: status.code().map_or_else(|| "signal".to_owned(), |c| c.to_string()),
            stdout: out,
            stderr: String::from_utf8_lossy(&err).trim().to_owned(),
        })
    }

    fn spawn_error(&self, e: std::io::Error) -> EvidenceError {
        if e.kind() == std::io::ErrorKind::NotFound || e.kind() == std::io::ErrorKind::PermissionDenied {
            EvidenceError::GitNotFound { program: self.program.clone(), reason: e.to_string() }
        } else {
            EvidenceError::io(format!("starting {}", self.program.display()), e)
        }
    }

    /// Run git; a non-zero exit is an error naming the command.
    fn run<S: AsRef<OsStr>>(&self, args: &[S], deadline: Option<Instant>) -> GitResult<Vec<u8>> {
        let out = self.exec(args, deadline)?;
        if !out.success {
            let command: Vec<String> = args.iter().take(3).map(|a| a.as_ref().to_string_lossy().into_owned()).collect();
            return Err(Fail::Error(EvidenceError::GitFailed {
                command: command.join(" "),
                code: out.code,
                stderr: out.stderr,
            }));
        }
        Ok(out.stdout)
    }

    /// The full commit id `rev` names.
    pub fn resolve_commit(&self, rev: &str, deadline: Option<Instant>) -> GitResult<String> {
        if rev.is_empty() || rev.starts_with('-') || rev.contains(['\0', '\n', '\r']) {
            return Err(EvidenceError::invalid(format!("revision `{rev}` is empty or not a revision name")).into());
        }
        let spec = format!("{rev}^{{commit}}");
        let out = self.exec(&["rev-parse", "--verify", "--quiet", "--end-of-options", &spec], deadline)?;
        let id = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if !out.success || id.is_empty() {
            return Err(EvidenceError::UnknownRevision { rev: rev.to_owned() }.into());
        }
        Ok(id)
    }

    /// `HEAD`'s commit id, or `None` in a repository without commits.
    pub fn head_commit(&self, deadline: Option<Instant>) -> GitResult<Option<String>> {
        let out = self.exec(&["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], deadline)?;
        let id = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        Ok(if out.success && !id.is_empty() { Some(id) } else { None })
    }

    /// The id of the empty tree in this repository's hash algorithm.
    pub fn empty_tree(&self, deadline: Option<Instant>) -> GitResult<String> {
        let out = self.run(&["hash-object", "-t", "tree", "--stdin"], deadline)?;
        Ok(String::from_utf8_lossy(&out).trim().to_owned())
    }

    /// `git diff --raw -z -M` for `spec`.
    pub fn diff_raw(&self, spec: &DiffSpec, deadline: Option<Instant>) -> GitResult<Vec<RawEntry>> {
        let mut args: Vec<OsString> =
            ["diff", "--raw", "-z", "-M", "--no-abbrev", "--no-ext-diff", "--no-textconv", "--ignore-submodules=none"]
                .iter()
                .map(OsString::from)
                .collect();
        spec.push_args(&mut args);
        let out = self.run(&args, deadline)?;
        parse_raw(&out)
            .map_err(|e| Fail::Error(EvidenceError::invalid(format!("unexpected git diff --raw output: {e}"))))
    }

    /// `git diff -p -U0` for `spec`, excluding `excluded` paths. One [`FilePatch`] per remaining
    /// raw entry, in git's order.
    pub fn diff_patch(
        &self,
        spec: &DiffSpec,
        include: Option<&[&[u8]]>,
        excluded: &[&[u8]],
        deadline: Option<Instant>,
    ) -> GitResult<Vec<FilePatch>> {
        let mut args: Vec<OsString> = [
            "diff",
            "-p",
            "-U0",
            "--inter-hunk-context=0",
            "--full-index",
            "-M",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--ignore-submodules=none",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        spec.push_args(&mut args);
        args.push("--".into());
        match include {
            Some(paths) => args.extend(paths.iter().map(|p| pathspec(":(literal)", p))),
            None => args.push(".".into()),
        }
        args.extend(excluded.iter().map(|p| pathspec(":(exclude,literal)", p)));
        let out = self.run(&args, deadline)?;
        Ok(parse_patch(&out))
    }

    /// Untracked, not-ignored files (worktree mode).
    pub fn untracked(&self, deadline: Option<Instant>) -> GitResult<Vec<Vec<u8>>> {
        let out = self.run(&["ls-files", "--others", "--exclude-standard", "-z"], deadline)?;
        Ok(split_z(&out).map(<[u8]>::to_vec).collect())
    }

    /// Paths tracked in `commit`'s tree.
    pub fn tree_paths(&self, commit: &str, deadline: Option<Instant>) -> GitResult<HashSet<String>> {
        let out = self.run(&["ls-tree", "-r", "-z", "--name-only", "--full-tree", commit], deadline)?;
        Ok(split_z(&out).map(|p| String::from_utf8_lossy(p).into_owned()).collect())
    }

    /// Paths whose working-tree content differs from `commit` (tracked files only).
    pub fn dirty_against(&self, commit: &str, deadline: Option<Instant>) -> GitResult<HashSet<String>> {
        let out = self.run(
            &["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", commit, "--"],
            deadline,
        )?;
        Ok(split_z(&out).map(|p| String::from_utf8_lossy(p).into_owned()).collect())
    }

    /// Paths that differ between two commits.
    pub fn changed_between(&self, base: &str, head: &str, deadline: Option<Instant>) -> GitResult<Vec<String>> {
        let out = self.run(
            &["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", base, head, "--"],
            deadline,
        )?;
        Ok(split_z(&out).map(|p| String::from_utf8_lossy(p).into_owned()).collect())
    }

    /// At most `n` commits of `HEAD`'s first-parent history, newest first; with `paths`, only
    /// those that touch one of them.
    pub fn first_parents(&self, n: usize, paths: &[String], deadline: Option<Instant>) -> GitResult<Vec<String>> {
        let mut args: Vec<OsString> = ["rev-list", "--first-parent"].iter().map(OsString::from).collect();
        args.push(format!("--max-count={n}").into());
        args.push("HEAD".into());
        args.push("--".into());
        args.extend(paths.iter().map(|p| pathspec(":(literal)", p.as_bytes())));
        let out = self.run(&args, deadline)?;
        Ok(String::from_utf8_lossy(&out).lines().map(str::to_owned).collect())
    }

    /// A `cat-file --batch-command` process for reading blobs.
    pub fn blob_reader(&self) -> Result<BlobReader, EvidenceError> {
        let mut cmd = self.command(&["cat-file", "--batch-command"]);
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = cmd.spawn().map_err(|e| self.spawn_error(e))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Ok(BlobReader { child, stdin: Some(stdin), stdout })
    }
}

fn pathspec(magic: &str, path: &[u8]) -> OsString {
    let mut s = OsString::from(magic);
    s.push(bytes_to_os(path));
    s
}

#[cfg(unix)]
fn bytes_to_os(b: &[u8]) -> OsString {
    use std::os::unix::ffi::OsStrExt;
    OsStr::from_bytes(b).to_owned()
}

#[cfg(not(unix))]
fn bytes_to_os(b: &[u8]) -> OsString {
    OsString::from(String::from_utf8_lossy(b).into_owned())
}

/// What to diff.
pub(crate) enum DiffSpec {
    /// Two commits.
    Trees { base: String, head: String },
    /// A tree-ish against the working tree.
    Worktree { base: String },
}

impl DiffSpec {
    fn push_args(&self, args: &mut Vec<OsString>) {
        match self {
            DiffSpec::Trees { base, head } => {
                args.push(base.into());
                args.push(head.into());
            }
            DiffSpec::Worktree { base } => args.push(base.into()),
        }
    }
}

/// One line of `git diff --raw -z`.
#[derive(Clone, Debug)]
pub(crate) struct RawEntry {
    pub old_mode: String,
    pub new_mode: String,
    pub old_oid: String,
    pub new_oid: String,
    /// `A`, `M`, `D`, `R`, `C`, `T`, `U`, `X`.
    pub status: u8,
    pub score: Option<u8>,
    pub old_path: Option<Vec<u8>>,
    pub path: Vec<u8>,
}

fn split_z(out: &[u8]) -> impl Iterator<Item = &[u8]> {
    out.split(|&b| b == 0).filter(|s| !s.is_empty())
}

fn parse_raw(out: &[u8]) -> Result<Vec<RawEntry>, String> {
    let mut tokens = out.split(|&b| b == 0);
    let mut entries = Vec::new();
    while let Some(meta) = tokens.next() {
        if meta.is_empty() {
            continue;
        }
        let meta = std::str::from_utf8(meta).map_err(|_| "non-UTF-8 metadata".to_owned())?;
        let meta = meta.strip_prefix(':').ok_or_else(|| format!("expected ':' in `{meta}`"))?;
        let fields: Vec<&str> = meta.split(' ').collect();
        if fields.len() != 5 || fields[4].is_empty() {
            return Err(format!("malformed raw entry `{meta}`"));
        }
        let status = fields[4].as_bytes()[0];
        let score = fields[4][1..].parse::<u8>().ok();
        let first = tokens.next().ok_or("missing path")?.to_vec();
        let (old_path, path) = if matches!(status, b'R' | b'C') {
            let second = tokens.next().ok_or("missing rename target")?.to_vec();
            (Some(first), second)
        } else {
            (None, first)
        };
        entries.push(RawEntry {
            old_mode: fields[0].to_owned(),
            new_mode: fields[1].to_owned(),
            old_oid: fields[2].to_owned(),
            new_oid: fields[3].to_owned(),
            status,
            score,
            old_path,
            path,
        });
    }
    Ok(entries)
}

/// One file's part of a `-U0` patch.
#[derive(Clone, Debug, Default)]
pub(crate) struct FilePatch {
    pub binary: bool,
    pub hunks: Vec<Hunk>,
    pub index_old: Option<String>,
    pub index_new: Option<String>,
    /// The path on the `+++` (or, for a deletion, `---`) line, when git did not quote it.
    pub path_hint: Option<Vec<u8>>,
}

fn parse_patch(out: &[u8]) -> Vec<FilePatch> {
    let mut patches: Vec<FilePatch> = Vec::new();
    let mut in_body = false;
    for line in out.split(|&b| b == b'\n') {
        if line.starts_with(b"diff --git ") {
            patches.push(FilePatch::default());
            in_body = false;
            continue;
        }
        let Some(cur) = patches.last_mut() else { continue };
        if line.starts_with(b"@@ -") {
            in_body = true;
            if let Some(h) = parse_hunk_header(line) {
                cur.hunks.push(h);
            }
            continue;
        }
        if in_body {
            continue;
        }
        if let Some(rest) = line.strip_prefix(b"index ") {
            let rest = String::from_utf8_lossy(rest);
            let ids = rest.split(' ').next().unwrap_or("");
            if let Some((a, b)) = ids.split_once("..") {
                cur.index_old = Some(a.to_owned());
                cur.index_new = Some(b.to_owned());
            }
        } else if line.starts_with(b"Binary files ") || line == b"GIT binary patch" {
            cur.binary = true;
        } else if let Some(p) = line.strip_prefix(b"+++ ") {
            if let Some(p) = p.strip_prefix(b"b/") {
                cur.path_hint = Some(trim_tab(p).to_vec());
            }
        } else if let Some(p) = line.strip_prefix(b"--- ")
            && let Some(p) = p.strip_prefix(b"a/")
        {
            cur.path_hint.get_or_insert_with(|| trim_tab(p).to_vec());
        }
    }
    patches
}

/// git appends a tab to `---`/`+++` paths that contain a space.
fn trim_tab(p: &[u8]) -> &[u8] {
    p.strip_suffix(b"\t").unwrap_or(p)
}

fn parse_hunk_header(line: &[u8]) -> Option<Hunk> {
    let s = std::str::from_utf8(line).ok()?;
    let inner = s.strip_prefix("@@ -")?;
    let (old, rest) = inner.split_once(" +")?;
    let (new, _) = rest.split_once(" @@")?;
    let range = |r: &str| -> Option<(u32, u32)> {
        match r.split_once(',') {
            Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
            None => Some((r.parse().ok()?, 1)),
        }
    };
    let (old_start, old_lines) = range(old)?;
    let (new_start, new_lines) = range(new)?;
    Some(Hunk { old_start, old_lines, new_start, new_lines })
}

/// A running `git cat-file --batch-command`, killed when dropped.
pub(crate) struct BlobReader {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl BlobReader {
    fn command(&mut self, cmd: &str, oid: &str) -> std::io::Result<Option<(String, u64)>> {
        let stdin = self.stdin.as_mut().ok_or_else(|| std::io::Error::other("cat-file closed"))?;
        writeln!(stdin, "{cmd} {oid}")?;
        stdin.flush()?;
        let mut header = String::new();
        if self.stdout.read_line(&mut header)? == 0 {
            return Err(std::io::Error::other("cat-file ended early"));
        }
        let fields: Vec<&str> = header.trim_end().split(' ').collect();
        match fields.as_slice() {
            [_, "missing"] | [_, "ambiguous"] => Ok(None),
            [_, kind, size] => {
                let size = size.parse().map_err(|_| std::io::Error::other(format!("bad cat-file header {header}")))?;
                Ok(Some(((*kind).to_owned(), size)))
            }
            _ => Err(std::io::Error::other(format!("bad cat-file header {}", header.trim_end()))),
        }
    }

    /// The size of blob `oid`, or `None` if it is not a blob in the repository.
    pub fn size(&mut self, oid: &str) -> std::io::Result<Option<u64>> {
        Ok(self.command("info", oid)?.filter(|(kind, _)| kind == "blob").map(|(_, size)| size))
    }

    /// The content of blob `oid` (callers check [`size`](Self::size) first).
    pub fn read(&mut self, oid: &str) -> std::io::Result<Option<Vec<u8>>> {
        let Some((kind, size)) = self.command("contents", oid)? else { return Ok(None) };
        let mut buf = vec![0u8; size as usize];
        self.stdout.read_exact(&mut buf)?;
        let mut nl = [0u8; 1];
        self.stdout.read_exact(&mut nl)?;
        Ok((kind == "blob").then_some(buf))
    }
}

impl Drop for BlobReader {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_git_still_running_at_the_deadline_is_killed() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("slow-git");
        std::fs::write(&script, "#!/bin/sh\nexec sleep 30\n").unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        let git = Git { program: script, root: dir.path().to_owned() };
        let t0 = Instant::now();
        let r = git.run(&["status"], Some(Instant::now() + std::time::Duration::from_millis(200)));
        assert!(matches!(r, Err(Fail::TimedOut)));
        assert!(t0.elapsed() < std::time::Duration::from_secs(10), "{:?}", t0.elapsed());
    }

    #[test]
    fn raw_entries() {
        let out = b":100644 100644 aaa bbb M\0a.txt\0:100644 100644 ccc ddd R098\0old name\0new name\0:000000 100644 000 eee A\0n\0";
        let e = parse_raw(out).unwrap();
        assert_eq!(e.len(), 3);
        assert_eq!(e[1].status, b'R');
        assert_eq!(e[1].score, Some(98));
        assert_eq!(e[1].old_path.as_deref(), Some(&b"old name"[..]));
        assert_eq!(e[1].path, b"new name");
        assert_eq!(e[2].status, b'A');
    }

    #[test]
    fn patch_hunks_and_hints() {
        let out = b"diff --git a/x b/x\nindex 111..222 100644\n--- a/x\n+++ b/x\n@@ -2 +2 @@ ctx\n-b\n+B\n@@ -3,0 +4,2 @@\n+++ b/not a header\n+d\ndiff --git a/y b/y\nindex 333..444 100644\nBinary files a/y and b/y differ\ndiff --git a/s p b/s p\ndeleted file mode 100644\nindex 555..000\n--- a/s p\t\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-a\n-b\n-c\n";
        let p = parse_patch(out);
        assert_eq!(p.len(), 3);
        assert_eq!(p[0].hunks.len(), 2);
        assert_eq!(p[0].hunks[1], Hunk { old_start: 3, old_lines: 0, new_start: 4, new_lines: 2 });
        assert_eq!(p[0].path_hint.as_deref(), Some(&b"x"[..]));
        assert!(p[1].binary);
        assert_eq!(p[2].path_hint.as_deref(), Some(&b"s p"[..]));
        assert_eq!(p[2].hunks[0], Hunk { old_start: 1, old_lines: 3, new_start: 0, new_lines: 0 });
        assert_eq!(p[2].index_old.as_deref(), Some("555"));
    }
}

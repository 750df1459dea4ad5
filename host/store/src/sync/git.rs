//! The user's `git`, as a subprocess (docs/sync.md): every call is `git -C <store>` with
//! `GIT_TERMINAL_PROMPT=0` (a credential prompt fails instead of hanging a hook) and stdin
//! closed, so the user's transports, credentials and ssh config apply unchanged.
//!
//! What this is for: running git and turning its failures into the store's errors — git
//! missing or older than [`MIN_VERSION`] is `git_unavailable` naming what to install; a fetch
//! or push that cannot reach the remote is `remote_unavailable`.
//!
//! Not for: deciding anything about a merge (`super::merge`) or the order of a sync
//! (`super::run`).

use std::ffi::OsStr;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::json;

use crate::error::{Code, DossierError, Result};

/// The oldest git this needs: `git init -b` (2.28).
pub const MIN_VERSION: (u32, u32) = (2, 28);

/// One tree entry: mode, object id, size (blobs; 0 otherwise).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mode: String,
    pub oid: String,
    pub size: u64,
}

/// A tree, flattened: path → entry, sorted by path.
pub type Tree = std::collections::BTreeMap<String, Entry>;

/// git at one working directory.
#[derive(Clone, Debug)]
pub struct Git {
    dir: PathBuf,
    /// One `git cat-file --batch` for every blob a merge reads (started on the first read).
    batch: std::rc::Rc<std::cell::RefCell<Option<Batch>>>,
}

/// A running `git cat-file --batch`: object ids in, `<oid> <type> <size>\n<bytes>\n` out.
#[derive(Debug)]
struct Batch {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl Drop for Batch {
    fn drop(&mut self) {
        // Closing its stdin ends it; it is waited for so no zombie is left.
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

fn command(dir: Option<&Path>) -> Command {
    let mut c = Command::new("git");
    if let Some(d) = dir {
        c.arg("-C").arg(d);
    }
    // Auto-maintenance (`gc --auto`) after every commit, fetch, merge and push is one process
    // each; a sync runs it once at its end instead (`Git::maintenance`).
    c.args(["-c", "maintenance.auto=false"]);
    c.env("GIT_TERMINAL_PROMPT", "0")
        .env("LC_ALL", "C")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .stdin(Stdio::null());
    c
}

fn not_installed(detail: &str) -> DossierError {
    DossierError::new(
        Code::GitUnavailable,
        format!("dossier sync needs git {}.{} or newer ({detail})", MIN_VERSION.0, MIN_VERSION.1),
    )
    .with_details(json!({ "needs": format!("git >= {}.{}", MIN_VERSION.0, MIN_VERSION.1) }))
    .with_next(
        "install git (https://git-scm.com/downloads, or your package manager: apt install git, brew install git)",
    )
}

/// Check that git is installed and new enough; its version.
pub fn check_version() -> Result<(u32, u32, u32)> {
    let out =
        command(None).arg("--version").output().map_err(|e| not_installed(&format!("`git` could not be run: {e}")))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let v = parse_version(&text).ok_or_else(|| not_installed(&format!("`git --version` said {:?}", text.trim())))?;
    if (v.0, v.1) < MIN_VERSION {
        return Err(not_installed(&format!("found {}.{}.{}", v.0, v.1, v.2)));
    }
    Ok(v)
}

fn parse_version(text: &str) -> Option<(u32, u32, u32)> {
    let v = text.trim().strip_prefix("git version ")?;
    let mut parts = v.split(|c: char| !c.is_ascii_digit());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    let patch = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    Some((major, minor, patch))
}

impl Git {
    pub fn at(dir: &Path) -> Git {
        Git { dir: dir.to_path_buf(), batch: Default::default() }
    }

    /// What `commit`, `fetch`, `merge` and `push` would have run on their own (here once per
    /// sync that changed something): `git gc --auto`, which does nothing until loose objects pile
    /// up and then packs them in the background.
    pub fn maintenance(&self) {
        let _ = self.output(["gc", "--auto", "--quiet"]);
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `git <args>` with its output; a git that cannot be started is `git_unavailable`.
    pub fn output<I, S>(&self, args: I) -> Result<Output>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.output_env(args, &[])
    }

    pub fn output_env<I, S>(&self, args: I, env: &[(&str, &OsStr)]) -> Result<Output>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut c = command(Some(&self.dir));
        c.args(args);
        for (k, v) in env {
            c.env(k, v);
        }
        c.output().map_err(|e| not_installed(&format!("`git` could not be run: {e}")))
    }

    /// `git <args>`, stdout on success; any failure is an error quoting git's stderr.
    pub fn run<I, S>(&self, args: I) -> Result<String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.run_env(args, &[])
    }

    pub fn run_env<I, S>(&self, args: I, env: &[(&str, &OsStr)]) -> Result<String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<std::ffi::OsString> = args.into_iter().map(|a| a.as_ref().to_os_string()).collect();
        let out = self.output_env(&args, env)?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            Err(failed(&args, &out))
        }
    }

    /// `git <args>` with `input` on stdin.
    pub fn run_input<I, S>(&self, args: I, input: &[u8], env: &[(&str, &OsStr)]) -> Result<String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<std::ffi::OsString> = args.into_iter().map(|a| a.as_ref().to_os_string()).collect();
        let mut c = command(Some(&self.dir));
        c.args(&args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        for (k, v) in env {
            c.env(k, v);
        }
        let mut child = c.spawn().map_err(|e| not_installed(&format!("`git` could not be run: {e}")))?;
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let data = input.to_vec();
        let writer = std::thread::spawn(move || stdin.write_all(&data));
        let out = child.wait_with_output().map_err(|e| DossierError::new(Code::Io, format!("git failed: {e}")))?;
        let _ = writer.join();
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            Err(failed(&args, &out))
        }
    }

    /// Whether `git <args>` succeeds (for questions like "is A an ancestor of B").
    pub fn ok<I, S>(&self, args: I) -> Result<bool>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        Ok(self.output(args)?.status.success())
    }

    /// The object id `rev` names, if it exists.
    pub fn rev_parse(&self, rev: &str) -> Result<Option<String>> {
        let out = self.output(["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")])?;
        Ok(out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string()))
    }

    /// Every blob of `commit`'s tree (`None`: the empty tree), recursively, with sizes.
    pub fn tree(&self, commit: Option<&str>) -> Result<Tree> {
        let Some(commit) = commit else { return Ok(Tree::new()) };
        let out = self.run(["ls-tree", "-r", "-l", "-z", "--full-tree", commit])?;
        let mut tree = Tree::new();
        for rec in out.split('\0').filter(|r| !r.is_empty()) {
            let Some((meta, path)) = rec.split_once('\t') else { continue };
            let mut f = meta.split_whitespace();
            let (Some(mode), Some(_kind), Some(oid), Some(size)) = (f.next(), f.next(), f.next(), f.next()) else {
                continue;
            };
            tree.insert(
                path.to_string(),
                Entry { mode: mode.to_string(), oid: oid.to_string(), size: size.parse().unwrap_or(0) },
            );
        }
        Ok(tree)
    }

    /// A blob's bytes (through one `git cat-file --batch` per `Git`, not a process per blob).
    pub fn blob(&self, oid: &str) -> Result<Vec<u8>> {
        use std::io::{BufRead as _, Read as _};
        let mut slot = self.batch.borrow_mut();
        if slot.is_none() {
            let mut c = command(Some(&self.dir));
            c.args(["cat-file", "--batch"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
            let mut child = c.spawn().map_err(|e| not_installed(&format!("`git` could not be run: {e}")))?;
            let stdin = child.stdin.take().expect("stdin is piped");
            let stdout = std::io::BufReader::new(child.stdout.take().expect("stdout is piped"));
            *slot = Some(Batch { child, stdin: Some(stdin), stdout });
        }
        let b = slot.as_mut().expect("just started");
        let broken = |e: std::io::Error| {
            DossierError::new(Code::Io, format!("`git cat-file --batch` failed reading {oid}: {e}"))
        };
        let read = (|| -> std::io::Result<Option<Vec<u8>>> {
            let stdin = b.stdin.as_mut().expect("open until drop");
            stdin.write_all(format!("{oid}\n").as_bytes())?;
            stdin.flush()?;
            let mut header = String::new();
            b.stdout.read_line(&mut header)?;
            let mut f = header.split_whitespace();
            let (Some(_), Some(kind), Some(size)) = (f.next(), f.next(), f.next()) else { return Ok(None) };
            let size: usize = size.parse().map_err(|_| std::io::Error::other(header.trim().to_string()))?;
            let mut bytes = vec![0; size + 1];
            b.stdout.read_exact(&mut bytes)?;
            bytes.pop();
            Ok((kind == "blob").then_some(bytes))
        })();
        match read {
            Ok(Some(bytes)) => Ok(bytes),
            Ok(None) => Err(DossierError::new(Code::Io, format!("git has no blob {oid}"))
                .with_details(json!({ "git": ["cat-file", "--batch"], "object": oid }))),
            Err(e) => {
                *slot = None;
                Err(broken(e))
            }
        }
    }

    /// Store `bytes` as a blob; its object id.
    pub fn write_blob(&self, bytes: &[u8]) -> Result<String> {
        Ok(self.run_input(["hash-object", "-w", "--stdin"], bytes, &[])?.trim().to_string())
    }
}

/// An error for a failed git call, quoting its stderr.
pub fn failed(args: &[std::ffi::OsString], out: &Output) -> DossierError {
    let args: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    DossierError::new(Code::Io, format!("`git {}` failed: {stderr}", args.join(" ")))
        .with_details(json!({ "git": args, "stderr": stderr, "status": out.status.code() }))
}

/// Turn a failed fetch, push or ls-remote into `remote_unavailable`, keeping git's words.
pub fn unreachable(remote: &str, err: DossierError) -> DossierError {
    let stderr = err.details.get("stderr").and_then(|s| s.as_str()).unwrap_or(&err.message).to_string();
    DossierError::new(
        Code::RemoteUnavailable,
        format!("the remote {remote} could not be reached: {stderr}; local work is intact and committed locally"),
    )
    .with_details(json!({ "remote": remote, "stderr": stderr }))
    .with_next("check the remote's URL (`git -C $DOSSIER_HOME remote -v`), the network and your credentials, then `dossier sync` again")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse() {
        assert_eq!(parse_version("git version 2.47.3\n"), Some((2, 47, 3)));
        assert_eq!(parse_version("git version 2.39.5 (Apple Git-154)"), Some((2, 39, 5)));
        assert_eq!(parse_version("git version 2.45.1.windows.1"), Some((2, 45, 1)));
        assert_eq!(parse_version("nope"), None);
    }
}

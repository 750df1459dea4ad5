//! The sync use cases (docs/sync.md): `init` (the first machine makes its store a repository
//! and pushes it; with `join`, a store onto a remote holding another store's history: the two
//! merged over an empty base, then pushed), `clone` (another machine's store from the remote) and `sync` (commit, fetch,
//! merge with Dossier semantics, push, bounded retry).
//!
//! What this is for: the order of the steps and what each failure means. Nothing is ever
//! forced or rewritten: commits only add to history, the push is a plain push, and the working
//! tree moves only by `git merge --ff-only` to a commit whose tree the merge step built (so no
//! file ever holds conflict markers and no `git merge` is left in progress).
//!
//! Not for: the merge rules (`super::merge`), the per-machine layout (`super::machine`) or
//! running git (`super::git`).

use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};

use serde::Serialize;
use serde_json::json;

use super::git::{self, Git, Tree};
use super::machine;
use super::merge::{self, Report};
use super::recover;
use crate::app::App;
use crate::error::{Code, DossierError, Result};
use crate::layout::Store;
use crate::model;

/// How many times `sync` commits, merges and pushes before it gives up on a remote that keeps
/// moving.
pub const ATTEMPTS: u32 = 3;

/// The remote's name in the store's repository.
pub const REMOTE: &str = "origin";

#[derive(Clone, Debug, Serialize)]
pub struct InitOutcome {
    pub remote: String,
    pub branch: String,
    /// The store was a git repository already.
    pub adopted: bool,
    /// The machine block of `config.yaml` moved to `config.machine.yaml`.
    pub machine_config_moved: bool,
    pub dossiers: usize,
    pub head: String,
    /// Secrets stored in plain text that `--allow-secrets` let through (never values).
    pub secrets_allowed: usize,
    /// `--join`: the remote held another store's history, merged with this one (an empty
    /// base) and pushed; what that sync did.
    pub joined: Option<SyncOutcome>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CloneOutcome {
    pub remote: String,
    pub branch: String,
    pub root: std::path::PathBuf,
    pub dossiers: usize,
    pub head: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SyncOutcome {
    pub remote: String,
    pub branch: String,
    /// The commit of this machine's changes, when there were any.
    pub committed: Option<String>,
    /// Dossiers (slugs) the remote changed here, and store files (not in a Dossier).
    pub came_in: Vec<String>,
    /// Dossiers (slugs) and store files this sync gave the remote.
    pub went_out: Vec<String>,
    pub merged: bool,
    pub pushed: bool,
    pub attempts: u32,
    pub head: String,
    /// What the merge did that the user should know (conflicts to resolve, clashes, renames).
    pub merge: Report,
    /// A previous sync had been killed; what it left was put right first (its git locks removed,
    /// a checkout it cut short undone: `super::recover`).
    pub recovered: bool,
    /// Open conflicts that came in from another machine (in the Dossiers the remote changed),
    /// other than those this sync's merge created (`merge.conflicts`): another machine's sync
    /// made them, and this machine's user must resolve them too.
    pub incoming_conflicts: Vec<crate::conflicts::ConflictInfo>,
}

/// `git` identity for Dossier's commits when the user has none configured; asked of git only
/// when a commit is made (a sync with nothing to commit costs no `git config` call).
struct Identity<'a> {
    git: &'a Git,
    env: std::cell::OnceCell<Vec<(&'static str, OsString)>>,
}

impl<'a> Identity<'a> {
    fn new(git: &'a Git) -> Identity<'a> {
        Identity { git, env: std::cell::OnceCell::new() }
    }

    fn env(&self) -> Result<Vec<(&'static str, &OsStr)>> {
        if self.env.get().is_none() {
            let mut env = Vec::new();
            // One `git config` call for both keys (exit 1 when neither is set).
            let out = self.git.output(["config", "--get-regexp", r"^user\.(name|email)$"])?;
            let set = String::from_utf8_lossy(&out.stdout).into_owned();
            let get = |k: &str| -> Result<bool> { Ok(set.lines().any(|l| l.split_whitespace().next() == Some(k))) };
            if !get("user.name")? {
                env.push(("GIT_AUTHOR_NAME", OsString::from("Dossier")));
                env.push(("GIT_COMMITTER_NAME", OsString::from("Dossier")));
            }
            if !get("user.email")? {
                env.push(("GIT_AUTHOR_EMAIL", OsString::from("dossier@localhost")));
                env.push(("GIT_COMMITTER_EMAIL", OsString::from("dossier@localhost")));
            }
            let _ = self.env.set(env);
        }
        Ok(env_refs(self.env.get().expect("just set")))
    }
}

fn env_refs<'a>(env: &'a [(&'static str, OsString)]) -> Vec<(&'static str, &'a OsStr)> {
    env.iter().map(|(k, v)| (*k, v.as_os_str())).collect()
}

/// The slugs (and store files) a list of paths touches, sorted.
fn touched(paths: impl IntoIterator<Item = String>) -> Vec<String> {
    let set: BTreeSet<String> = paths
        .into_iter()
        .map(|p| match p.split_once('/') {
            Some((top, _)) if !top.starts_with('.') && !crate::layout::RESERVED_NAMES.contains(&top) => top.to_string(),
            _ => p,
        })
        .collect();
    set.into_iter().collect()
}

fn split_z(out: &str) -> Vec<String> {
    out.split('\0').filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// Stage everything but this machine's files; the staged paths. A clean store (`git status`
/// shows nothing: no change in the working tree, none staged) costs that one git process.
fn stage(git: &Git) -> Result<Vec<String>> {
    if git.run(["status", "--porcelain", "-z", "--untracked-files=all"])?.is_empty() {
        return Ok(Vec::new());
    }
    git.run(["add", "-A"])?;
    let staged = split_z(&git.run(["diff", "--cached", "--name-only", "-z", "--no-renames"])?);
    // `.gitignore` keeps these out; a user's edit of it must not push them anyway.
    let machine: Vec<&String> = staged.iter().filter(|p| machine::is_machine_path(p)).collect();
    if machine.is_empty() {
        return Ok(staged);
    }
    let mut args: Vec<&str> = vec!["rm", "--cached", "-q", "-r", "--ignore-unmatch", "--"];
    args.extend(machine.iter().map(|s| s.as_str()));
    git.run(args)?;
    Ok(split_z(&git.run(["diff", "--cached", "--name-only", "-z", "--no-renames"])?))
}

/// Commit what is staged, naming the Dossiers changed; the commit, if anything was staged.
fn commit_local(git: &Git, id: &Identity<'_>) -> Result<Option<String>> {
    let staged = stage(git)?;
    if staged.is_empty() {
        return Ok(None);
    }
    let names = touched(staged);
    let shown: Vec<&str> = names.iter().take(8).map(String::as_str).collect();
    let more = if names.len() > 8 { format!(" (+{} more)", names.len() - 8) } else { String::new() };
    let message = format!("dossier: {}{more}\n\nChanged: {}\n", shown.join(", "), names.join(", "));
    git.run_env(["commit", "-q", "-m", &message], &id.env()?)?;
    git.rev_parse("HEAD")
}

fn branch(git: &Git) -> Result<String> {
    Ok(git.run(["symbolic-ref", "--short", "HEAD"])?.trim().to_string())
}

fn remote_url(git: &Git) -> Result<Option<String>> {
    let out = git.output(["remote", "get-url", REMOTE])?;
    Ok(out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string()))
}

/// The store must be synced: a repository with the remote.
fn require_synced(store: &Store, git: &Git) -> Result<String> {
    store.require()?;
    let url = if store.is_synced() { remote_url(git)? } else { None };
    url.ok_or_else(|| {
        DossierError::new(
            Code::StoreUnavailable,
            format!("the store at {} is not synced (no git repository with a remote)", store.root().display()),
        )
        .with_next("dossier sync init <remote>  (the first machine)")
        .with_next("dossier sync clone <remote>  (another machine, into an empty DOSSIER_HOME)")
    })
}

/// Branch heads on `remote` (`git ls-remote --heads`): name → object id.
fn remote_heads(git: &Git, remote: &str) -> Result<Vec<(String, String)>> {
    let out = git.run(["ls-remote", "--heads", remote]).map_err(|e| git::unreachable(remote, e))?;
    Ok(out
        .lines()
        .filter_map(|l| {
            let (oid, name) = l.split_once('\t')?;
            Some((name.strip_prefix("refs/heads/")?.to_string(), oid.to_string()))
        })
        .collect())
}

/// The branch `sync clone` checks out. A bare repository made with a plain `git init --bare`
/// names `master` as its HEAD whatever branch the first machine pushed (`main`), and a plain
/// `git clone` of it then checks out nothing: the remote's HEAD when it names a branch that
/// exists, else its only branch, else `main` or `master`; several others are refused, named.
fn clone_branch(git: &Git, remote: &str, heads: &[(String, String)]) -> Result<String> {
    let has = |name: &str| heads.iter().any(|(h, _)| h == name);
    let symref = git.run(["ls-remote", "--symref", remote, "HEAD"]).map_err(|e| git::unreachable(remote, e))?;
    let named =
        symref.lines().find_map(|l| l.strip_prefix("ref: refs/heads/")?.strip_suffix("\tHEAD").map(str::to_string));
    if let Some(name) = named.filter(|n| has(n)) {
        return Ok(name);
    }
    if let [(only, _)] = heads {
        return Ok(only.clone());
    }
    if let Some(name) = ["main", "master"].into_iter().find(|n| has(n)) {
        return Ok(name.to_string());
    }
    let names: Vec<&str> = heads.iter().map(|(h, _)| h.as_str()).collect();
    Err(DossierError::new(
        Code::InvalidInput,
        format!("the remote {remote} has several branches ({}) and its HEAD names none of them", names.join(", ")),
    )
    .with_details(json!({ "field": "remote", "got": names, "expected": "a remote whose HEAD names the store's branch" }))
    .with_next("set the remote's HEAD to the store's branch (`git symbolic-ref HEAD refs/heads/<branch>` in the bare repository), then clone again"))
}

/// How a push ended.
enum Pushed {
    Done,
    /// The remote moved (fetch first / non-fast-forward): merge again.
    Moved,
}

fn push(git: &Git, remote: &str, branch: &str) -> Result<Pushed> {
    let refspec = format!("HEAD:refs/heads/{branch}");
    let out = git.output(["push", "--porcelain", REMOTE, &refspec])?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    if out.status.success() {
        return Ok(Pushed::Done);
    }
    let line = stdout.lines().find(|l| l.starts_with('!')).unwrap_or_default().to_string();
    if line.contains("[rejected]") && (line.contains("fetch first") || line.contains("non-fast-forward")) {
        return Ok(Pushed::Moved);
    }
    // The remote moved between git's look at it and the update (another machine's push landed
    // in between): the ref was not where the push expected it.
    if line.contains("[remote rejected]")
        && (line.contains("failed to update ref")
            || stderr.contains("but expected")
            || stderr.contains("cannot lock ref"))
    {
        return Ok(Pushed::Moved);
    }
    if line.contains("[remote rejected]") || line.contains("[rejected]") {
        let reason = line.rsplit('\t').next().unwrap_or(&line).to_string();
        return Err(DossierError::new(
            Code::PushRejected,
            format!(
                "the remote {remote} refused the push: {reason}; your commits are kept locally, nothing was forced"
            ),
        )
        .with_details(json!({ "remote": remote, "branch": branch, "status": line, "stderr": stderr }))
        .with_next(
            "fix what the remote refuses (its hooks, permissions or branch protection), then `dossier sync` again",
        ));
    }
    let args: Vec<OsString> = ["push", "--porcelain", REMOTE, &refspec].iter().map(OsString::from).collect();
    let e = git::failed(&args, &out);
    Err(lock_error(&e).unwrap_or_else(|| git::unreachable(remote, e)))
}

/// Move the branch and the working tree to `commit` (a descendant of HEAD) with `git merge
/// --ff-only`, holding the lock of every Dossier it changes (in path order, as a merge takes
/// two), so no save is mid-way while its files are replaced. `Ok(false)`: git refused because
/// a file changed since it was committed (the caller commits it and tries again).
fn fast_forward(store: &Store, git: &Git, commit: &str, last_attempt: bool) -> Result<bool> {
    let head = git.rev_parse("HEAD")?;
    let changed = touched(diff(git, head.as_deref(), commit)?);
    let mut locks = Vec::new();
    for slug in &changed {
        let dir = store.root().join(slug);
        if dir.join("dossier.md").is_file() {
            locks.push(crate::save::lock_dossier(&dir)?);
        }
    }
    // A sync killed while git checks out leaves this record: the next one puts back what the
    // checkout wrote before the branch moved (`recover::undo_checkout`).
    let checkout = head.as_deref().map(|from| recover::begin_checkout(store, from, commit)).transpose()?;
    let out = git.output(["merge", "--ff-only", "-q", commit])?;
    drop(checkout);
    drop(locks);
    if out.status.success() {
        return Ok(true);
    }
    if last_attempt {
        let args: Vec<OsString> = ["merge", "--ff-only", commit].iter().map(OsString::from).collect();
        let e = git::failed(&args, &out);
        return Err(DossierError::new(
            Code::Io,
            format!(
                "the merged changes could not be brought into the store's files after {ATTEMPTS} attempts: {}",
                e.details["stderr"].as_str().unwrap_or_default()
            ),
        )
        .with_details(*e.details)
        .with_next("dossier sync  (again, once no other process is writing the store)"));
    }
    Ok(false)
}

/// Build `tree` as a git tree (in a private index, never the store's).
fn write_tree(git: &Git, tree: &Tree) -> Result<String> {
    let index = git.dir().join(".git").join("dossier-sync-index");
    let _ = std::fs::remove_file(&index);
    let env = [("GIT_INDEX_FILE", index.as_os_str())];
    let mut input = Vec::new();
    for (path, e) in tree {
        input.extend_from_slice(format!("{} {}\t{path}\0", e.mode, e.oid).as_bytes());
    }
    git.run_input(["update-index", "-z", "--index-info"], &input, &env)?;
    let oid = git.run_env(["write-tree"], &env)?.trim().to_string();
    let _ = std::fs::remove_file(&index);
    Ok(oid)
}

/// The paths that differ between two commits (`None`: the empty tree).
fn diff(git: &Git, from: Option<&str>, to: &str) -> Result<Vec<String>> {
    match from {
        Some(f) => Ok(split_z(&git.run(["diff", "--name-only", "-z", "--no-renames", f, to])?)),
        None => Ok(git.tree(Some(to))?.into_keys().collect()),
    }
}

/// `dossier sync init <remote>` (see the module doc and docs/sync.md).
pub fn init(app: &App, remote: &str, allow_secrets: bool, join: bool) -> Result<InitOutcome> {
    let store = &app.store;
    store.require()?;
    git::check_version()?;
    let git = Git::at(store.root());
    // Everything that can refuse comes first: nothing is written on a refusal.
    let secrets = stored_secrets(app)?;
    if !secrets.is_empty() && !allow_secrets {
        return Err(secrets_error(store, remote, &secrets));
    }
    let adopted = store.is_synced();
    if adopted && let Some(url) = remote_url(&git)?.filter(|u| u != remote) {
        return Err(DossierError::new(
            Code::InvalidInput,
            format!("the store's repository already syncs with {url}, not {remote}"),
        )
        .with_details(json!({ "field": "remote", "got": remote, "expected": url }))
        .with_next(format!("dossier sync init {url}"))
        .with_next(format!("git -C {} remote set-url origin {remote}  (to move it)", store.root().display())));
    }
    let heads = remote_heads(&git, remote)?;
    let mut branch = if adopted { branch(&git)? } else { "main".to_string() };
    // `--join`: the remote holds another store's history; this store's is merged into it.
    let mut joining = false;
    if let Some((theirs, oid)) = heads.iter().find(|(b, _)| *b == branch).or(heads.first()) {
        let known = adopted && git.ok(["cat-file", "-e", &format!("{oid}^{{commit}}")])?;
        if !known && !join {
            return Err(DossierError::new(
                Code::InvalidInput,
                format!("the remote {remote} already holds a store's history; `sync init` starts an empty one unless told to join it"),
            )
            .with_details(json!({ "field": "remote", "got": remote, "expected": "an empty repository, or --join" }))
            .with_next(format!("dossier sync init {remote} --join  (merge this store's Dossiers with the remote's; nothing is lost)"))
            .with_next(format!("dossier sync clone {remote}  (on a machine whose DOSSIER_HOME is empty or absent)")));
        }
        if !known {
            if adopted && *theirs != branch {
                return Err(DossierError::new(
                    Code::InvalidInput,
                    format!(
                        "the store's branch is `{branch}` but the remote's is `{theirs}`; `--join` merges one branch"
                    ),
                )
                .with_details(json!({ "field": "branch", "got": branch, "expected": theirs }))
                .with_next(format!(
                    "git -C {} branch -m {theirs}  (then the same `sync init --join`)",
                    store.root().display()
                )));
            }
            branch = theirs.clone();
            joining = true;
        }
    }

    if !adopted {
        git.run(["init", "-q", "-b", &branch])?;
    }
    if remote_url(&git)?.is_none() {
        git.run(["remote", "add", REMOTE, remote])?;
    }
    if joining {
        // The joined store's key becomes this one's (markers stay equal on every machine).
        let tracking = format!("refs/remotes/{REMOTE}/{branch}");
        git.run(["fetch", "-q", REMOTE, &format!("+refs/heads/{branch}:{tracking}")])
            .map_err(|e| git::unreachable(remote, e))?;
        adopt_key(store, &git, &tracking)?;
    }
    // The redaction key travels with the store, so markers stay equal on every machine.
    crate::redact::key(store)?;
    machine::write_ignore_files(store)?;
    let machine_config_moved = machine::split_config(store)?;
    let id = Identity::new(&git);
    let staged = stage(&git)?;
    let dossiers = store.dossier_files()?.len();
    if !staged.is_empty() || git.rev_parse("HEAD")?.is_none() {
        let message = format!("dossier sync init: {dossiers} Dossier{}", if dossiers == 1 { "" } else { "s" });
        git.run_env(["commit", "-q", "--allow-empty", "-m", &message], &id.env()?)?;
    }
    git.run(["config", &format!("branch.{branch}.remote"), REMOTE])?;
    git.run(["config", &format!("branch.{branch}.merge"), &format!("refs/heads/{branch}")])?;
    if joining {
        // The two histories share no commit: `dossier sync`'s merge step with an empty base
        // (the same slug on both sides is renamed by SPEC §12.2; nothing is dropped), then the push.
        let Some(_lock) = machine::try_lock(store)? else {
            return Err(DossierError::new(Code::SyncBusy, "another `dossier sync` is running on this store")
                .with_next(format!("dossier sync init {remote} --join  (once it is done)")));
        };
        let joined = sync_locked(store, &git, remote)?;
        machine::protect_key(store)?;
        machine::write_success(store, &model::now_timestamp())?;
        return Ok(InitOutcome {
            remote: remote.to_string(),
            branch,
            adopted,
            machine_config_moved,
            dossiers: store.dossier_files()?.len(),
            head: joined.head.clone(),
            secrets_allowed: secrets.len(),
            joined: Some(joined),
        });
    }
    match push(&git, remote, &branch)? {
        Pushed::Done => {}
        Pushed::Moved => {
            return Err(DossierError::new(
                Code::PushRejected,
                format!("the remote {remote} gained commits while `sync init` ran"),
            )
            .with_next("dossier sync"));
        }
    }
    let head = git.rev_parse("HEAD")?.unwrap_or_default();
    machine::write_success(store, &model::now_timestamp())?;
    Ok(InitOutcome {
        remote: remote.to_string(),
        branch,
        adopted,
        machine_config_moved,
        dossiers,
        head,
        secrets_allowed: secrets.len(),
        joined: None,
    })
}

/// `--join`: take the redaction key of the store being joined (its `.keys/redaction.key` at
/// `tracking`), so the same secret gets the same marker on every machine from now on. This
/// store's own key, if different, is kept beside it as `.keys/redaction.key.before-join` (the
/// markers already written with it stay as they are; nothing is re-keyed or lost).
fn adopt_key(store: &Store, git: &Git, tracking: &str) -> Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let path = store.redaction_key_path();
    let rel = path.strip_prefix(store.root()).map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
    let Some(entry) = git.tree(Some(tracking))?.remove(&rel) else { return Ok(()) };
    let theirs = git.blob(&entry.oid)?;
    let ours = match std::fs::read(&path) {
        Ok(b) => Some(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(DossierError::io("read", &path, e)),
    };
    if ours.as_deref() == Some(theirs.as_slice()) {
        return Ok(());
    }
    let dir = path.parent().expect("the key file is inside the store");
    std::fs::create_dir_all(dir).map_err(|e| DossierError::io("create", dir, e))?;
    if let Some(ours) = ours {
        let kept = dir.join("redaction.key.before-join");
        crate::files::write_atomic(&kept, &ours)?;
        std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| DossierError::io("set permissions of", &kept, e))?;
    }
    crate::files::write_atomic(&path, &theirs)?;
    machine::protect_key(store)
}

/// Secrets the doctor's scan finds in what `sync init` would push (Dossiers and `learning/`).
fn stored_secrets(app: &App) -> Result<Vec<crate::redact::Found>> {
    let redactor = crate::redact::Redactor::scanner(app);
    let dirs: Vec<std::path::PathBuf> =
        app.store.dossier_files()?.iter().filter_map(|f| f.parent().map(std::path::Path::to_path_buf)).collect();
    let mut found: Vec<crate::redact::Found> =
        crate::redact::scan_dirs(&redactor, &dirs)?.into_iter().flatten().collect();
    found.extend(
        crate::redact::scan_store(&redactor)?.into_iter().filter(|f| f.file.starts_with(app.store.learning_dir())),
    );
    Ok(found)
}

fn secrets_error(store: &Store, remote: &str, found: &[crate::redact::Found]) -> DossierError {
    let rel = |p: &std::path::Path| p.strip_prefix(store.root()).unwrap_or(p).display().to_string();
    let slugs: BTreeSet<String> = found
        .iter()
        .filter_map(|f| rel(&f.file).split_once('/').map(|(s, _)| s.to_string()))
        .filter(|s| s != "learning")
        .collect();
    let mut e = DossierError::new(
        Code::SecretsInStore,
        format!(
            "{} secret{} stored in plain text would be pushed to {remote}; nothing was changed",
            found.len(),
            if found.len() == 1 { " is" } else { "s are" }
        ),
    )
    .with_details(json!({
        "found": found.iter().map(|f| json!({ "file": rel(&f.file), "line": f.line, "kind": f.kind })).collect::<Vec<_>>(),
    }));
    for s in &slugs {
        e = e.with_next(format!("dossier redact {s}"));
    }
    e.with_next(format!("dossier sync init {remote} --allow-secrets  (push them as they are)"))
}

/// `dossier sync clone <remote>` into `store`, which must be absent or empty.
pub fn clone(store: &Store, remote: &str) -> Result<CloneOutcome> {
    git::check_version()?;
    let root = store.root();
    let non_empty = std::fs::read_dir(root).map(|mut d| d.next().is_some()).unwrap_or(false);
    if non_empty {
        return Err(DossierError::new(
            Code::InvalidInput,
            format!("{} is not empty; `sync clone` makes a new store", root.display()),
        )
        .with_details(json!({ "field": "DOSSIER_HOME", "got": root, "expected": "an absent or empty directory" }))
        .with_next("set DOSSIER_HOME to a new directory, or run `dossier sync` in this store if it is synced"));
    }
    let parent = root.parent().unwrap_or(root);
    std::fs::create_dir_all(parent).map_err(|e| DossierError::io("create", parent, e))?;
    let git = Git::at(parent);
    let heads = remote_heads(&git, remote)?;
    if heads.is_empty() {
        return Err(DossierError::new(Code::InvalidInput, format!("the remote {remote} is empty: nothing to clone"))
            .with_details(json!({ "field": "remote", "got": remote, "expected": "a remote a store was pushed to" }))
            .with_next(format!("dossier sync init {remote}  (on the machine that has the store)")));
    }
    let branch = clone_branch(&git, remote, &heads)?;
    git.run([
        OsStr::new("clone"),
        OsStr::new("-q"),
        OsStr::new("--branch"),
        OsStr::new(&branch),
        OsStr::new(remote),
        root.as_os_str(),
    ])
    .map_err(|e| git::unreachable(remote, e))?;
    let git = Git::at(root);
    machine::protect_key(store)?;
    let head = git.rev_parse("HEAD")?.ok_or_else(|| {
        DossierError::new(Code::StoreUnavailable, format!("the clone of {remote} has no commit on `{branch}`"))
            .with_next(format!("check the remote's branches with `git ls-remote {remote}`"))
    })?;
    machine::write_success(store, &model::now_timestamp())?;
    Ok(CloneOutcome {
        remote: remote.to_string(),
        branch,
        root: root.to_path_buf(),
        dossiers: store.dossier_files()?.len(),
        head,
    })
}

/// `dossier sync` (see the module doc and docs/sync.md). The result, success or not, is
/// recorded in `.sync/state.json`.
pub fn sync(app: &App) -> Result<SyncOutcome> {
    let store = &app.store;
    git::check_version()?;
    let git = Git::at(store.root());
    let remote = require_synced(store, &git)?;
    let Some(_lock) = machine::try_lock(store)? else {
        return Err(DossierError::new(Code::SyncBusy, "another `dossier sync` is running on this store")
            .with_details(json!({ "lock": machine::sync_dir(store).join("lock") }))
            .with_next("wait for it to finish, then `dossier sync` again"));
    };
    let started = model::now_timestamp();
    // `.sync/running` exists while a sync runs; found at the start (under the lock), the
    // previous sync was killed, and git's index lock it may have left is its own.
    let running = machine::sync_dir(store).join("running");
    let mut recovered = running.exists() && recover::remove_locks(store)?;
    recovered |= !recover::undo_checkout(store, &git)?.is_empty();
    crate::files::write_atomic(&running, std::process::id().to_string().as_bytes())?;
    let mut result = sync_locked(store, &git, &remote);
    let _ = std::fs::remove_file(&running);
    if result.is_ok() {
        machine::protect_key(store)?;
    }
    if let Ok(r) = result.as_mut() {
        r.recovered = recovered;
        r.incoming_conflicts = incoming_conflicts(app, r);
    }
    let mut state = machine::read_state(store);
    state.last_attempt_at = Some(started);
    match &result {
        Ok(_) => {
            state.last_success_at = state.last_attempt_at.clone();
            state.last_error = None;
        }
        Err(e) => state.last_error = Some(format!("{}: {}", e.code.as_str(), e.message)),
    }
    machine::write_state(store, &state)?;
    result
}

/// The open conflict files of the Dossiers `r` brought in that its own merge did not create.
/// Only the Dossiers that came in are read, so a sync with nothing to do reads none.
fn incoming_conflicts(app: &App, r: &SyncOutcome) -> Vec<crate::conflicts::ConflictInfo> {
    let created: BTreeSet<&str> = r.merge.conflicts.iter().map(|c| c.conflict_id.as_str()).collect();
    r.came_in
        .iter()
        .filter(|slug| !slug.contains('/') && !slug.starts_with('.'))
        .filter_map(|slug| crate::conflicts::list(app, Some(slug), false).ok())
        .flatten()
        .filter(|c| !created.contains(c.id.as_str()))
        .collect()
}

/// A git failure that names one of its lock files ("Unable to create '…/x.lock': File
/// exists"): another git holds the repository (or one crashed outside a sync), a local
/// problem, never the remote's.
fn lock_error(err: &DossierError) -> Option<DossierError> {
    let stderr = err.details.get("stderr").and_then(|s| s.as_str()).unwrap_or(&err.message);
    let start = stderr.find("Unable to create '")? + "Unable to create '".len();
    let path = &stderr[start..][..stderr[start..].find('\'')?];
    path.ends_with(".lock").then(|| {
        DossierError::new(
            Code::Io,
            format!(
                "git's lock file {path} exists: another git process is using the store's repository, or one crashed"
            ),
        )
        .with_details((*err.details).clone())
        .with_next("wait for the other git to finish, then `dossier sync` again")
        .with_next(format!("rm {path}  (if no git is running)"))
    })
}

fn sync_locked(store: &Store, git: &Git, remote: &str) -> Result<SyncOutcome> {
    let branch = branch(git)?;
    let id = Identity::new(git);
    let tracking = format!("refs/remotes/{REMOTE}/{branch}");
    let mut committed = None;
    let mut merged = false;
    let mut report = Report::default();
    let mut local_start: Option<Option<String>> = None;
    let mut remote_start: Option<Option<String>> = None;
    for attempt in 1..=ATTEMPTS {
        let made = commit_local(git, &id)?;
        if made.is_some() {
            committed = made.clone();
        }
        let local = match made {
            Some(c) => Some(c),
            None => git.rev_parse("HEAD")?,
        };
        let local = local.ok_or_else(|| {
            DossierError::new(Code::StoreUnavailable, "the store's repository has no commit yet")
                .with_next(format!("dossier sync init {remote}"))
        })?;
        let fetch = git.output(["fetch", "-q", REMOTE, &format!("+refs/heads/{branch}:{tracking}")])?;
        if !fetch.status.success() {
            let stderr = String::from_utf8_lossy(&fetch.stderr);
            // A remote without the branch yet (emptied, or a new branch) is pushed to as it is.
            if !stderr.contains("couldn't find remote ref") {
                let args: Vec<OsString> = ["fetch", REMOTE].iter().map(OsString::from).collect();
                let e = git::failed(&args, &fetch);
                return Err(lock_error(&e).unwrap_or_else(|| git::unreachable(remote, e)));
            }
        }
        let theirs = git.rev_parse(&tracking)?;
        local_start.get_or_insert(Some(local.clone()));
        remote_start.get_or_insert(theirs.clone());
        // One `git merge-base` tells the three cases apart: theirs is an ancestor (push), ours
        // is (fast-forward), or neither (merge from their common base, or none).
        let base = match &theirs {
            Some(t) if *t != local => {
                let out = git.output(["merge-base", &local, t])?;
                out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
            }
            _ => None,
        };
        let needs_push = match &theirs {
            None => true,
            Some(t) if *t == local => false,
            Some(t) if base.as_deref() == Some(t.as_str()) => true,
            Some(t) if base.as_deref() == Some(local.as_str()) => {
                if !fast_forward(store, git, t, attempt == ATTEMPTS)? {
                    continue; // a file changed during the sync: commit it and try again
                }
                false
            }
            Some(t) => {
                let m = merge::merge(git, &git.tree(base.as_deref())?, &git.tree(Some(&local))?, &git.tree(Some(t))?)?;
                let tree = write_tree(git, &m.tree)?;
                let message = merge_message(&branch, &m.report);
                let commit = git
                    .run_env(["commit-tree", &tree, "-p", &local, "-p", t, "-m", &message], &id.env()?)?
                    .trim()
                    .to_string();
                if !fast_forward(store, git, &commit, attempt == ATTEMPTS)? {
                    continue; // a file changed during the sync: commit it and merge again
                }
                merged = true;
                merge_reports(&mut report, m.report);
                true
            }
        };
        let pushed = if needs_push {
            match push(git, remote, &branch)? {
                Pushed::Done => true,
                Pushed::Moved => continue,
            }
        } else {
            false
        };
        let head = git.rev_parse("HEAD")?.unwrap_or_default();
        let local0 = local_start.clone().flatten();
        let remote0 = remote_start.clone().flatten();
        let came_in = if local0.as_deref() == Some(head.as_str()) {
            Vec::new()
        } else {
            touched(diff(git, local0.as_deref(), &head)?)
        };
        let went_out = if pushed { touched(diff(git, remote0.as_deref(), &head)?) } else { Vec::new() };
        if committed.is_some() || merged || pushed || !came_in.is_empty() {
            git.maintenance();
        }
        return Ok(SyncOutcome {
            remote: remote.to_string(),
            branch,
            committed,
            came_in,
            went_out,
            merged,
            pushed,
            attempts: attempt,
            head,
            merge: report,
            recovered: false,
            incoming_conflicts: Vec::new(),
        });
    }
    Err(DossierError::new(
        Code::PushRejected,
        format!("the remote {remote} kept moving: {ATTEMPTS} attempts to merge and push did not land; your commits are kept locally"),
    )
    .with_details(json!({ "remote": remote, "branch": branch, "attempts": ATTEMPTS }))
    .with_next("dossier sync"))
}

fn merge_reports(into: &mut Report, r: Report) {
    into.conflicts.extend(r.conflicts);
    into.auto_merged.extend(r.auto_merged);
    into.clashes.extend(r.clashes);
    into.renamed.extend(r.renamed);
    into.kept_over_delete.extend(r.kept_over_delete);
}

fn merge_message(branch: &str, r: &Report) -> String {
    let mut m = format!("dossier sync: merge {REMOTE}/{branch}\n");
    let mut lines = Vec::new();
    for c in &r.conflicts {
        lines.push(format!("conflict {} in {}", c.conflict_id, c.slug));
    }
    for s in &r.auto_merged {
        lines.push(format!("auto-merged {s}"));
    }
    for c in &r.clashes {
        lines.push(format!("clash {} (other kept as {})", c.path, c.other));
    }
    for x in &r.renamed {
        lines.push(format!("renamed {} to {}", x.from, x.to));
    }
    if !lines.is_empty() {
        m.push('\n');
        m.push_str(&lines.join("\n"));
        m.push('\n');
    }
    m
}

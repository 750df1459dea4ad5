//! `dossier sync` (issue 23, docs/sync.md) through the real binary and the real git: two
//! machines (two stores, two HOMEs) and a bare repository on local disk as the remote
//! (`file://`). Convergence of non-overlapping edits, the audit and artifact unions, divergent
//! Distilled States as one conflict file on both machines, the same slug created twice, a
//! remote that rejects the push, an unreachable remote, the lock, and per-machine files that
//! never reach the remote.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::{TempStore, json_of};

/// One machine: its own store and HOME. Shared with `sync_daemon` and `sync_kill`.
pub(crate) struct Machine {
    pub(crate) store: TempStore,
}

impl Machine {
    pub(crate) fn new() -> Machine {
        Machine { store: TempStore::new(crate::DOSSIER) }
    }

    pub(crate) fn root(&self) -> &Path {
        self.store.root()
    }

    fn cmd(&self) -> assert_cmd::Command {
        let mut c = self.store.cmd();
        c.env("GIT_CONFIG_NOSYSTEM", "1");
        c
    }

    /// The binary as a `std` command (to spawn and kill it).
    pub(crate) fn cmd_std(&self) -> Command {
        let mut c = self.store.cmd_std();
        c.env("GIT_CONFIG_NOSYSTEM", "1");
        c
    }

    pub(crate) fn run(&self, args: &[&str]) -> Output {
        self.cmd().args(args).output().unwrap()
    }

    /// A first machine: a store holding `alpha-work`, `sync init` to `url`.
    pub(crate) fn first(url: &str) -> Machine {
        let a = Machine::new();
        a.store.init();
        a.ok(&["promote", "--name", "Alpha work"]);
        a.ok(&["sync", "init", url]);
        a
    }

    /// Another machine: `sync clone` from `url`, then `dossier init`.
    pub(crate) fn cloned(url: &str) -> Machine {
        let b = Machine::new();
        b.ok(&["sync", "clone", url]);
        b.cmd().args(["init", "--yes", "--no-self-install"]).assert().success();
        b
    }

    /// `args` must succeed; its `--json` envelope.
    pub(crate) fn ok(&self, args: &[&str]) -> serde_json::Value {
        let mut a = args.to_vec();
        a.push("--json");
        let out = self.run(&a);
        assert!(
            out.status.success(),
            "dossier {args:?} failed ({:?}): {}{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        json_of(&out)
    }

    pub(crate) fn sync(&self) -> serde_json::Value {
        self.ok(&["sync"])["data"].clone()
    }

    pub(crate) fn git(&self, args: &[&str]) -> String {
        git_in(self.root(), args)
    }

    pub(crate) fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }
}

pub(crate) fn git_in(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A bare repository as the remote.
struct Remote {
    dir: tempfile::TempDir,
}

impl Remote {
    fn new() -> Remote {
        let dir = tempfile::tempdir().unwrap();
        git_in(dir.path(), &["init", "-q", "--bare", "-b", "main", "remote.git"]);
        Remote { dir }
    }

    fn path(&self) -> PathBuf {
        self.dir.path().join("remote.git")
    }

    fn url(&self) -> String {
        format!("file://{}", self.path().display())
    }

    /// Every path in the remote's `main`.
    fn files(&self) -> Vec<String> {
        if git_in(&self.path(), &["branch", "--list", "main"]).trim().is_empty() {
            return Vec::new();
        }
        git_in(&self.path(), &["ls-tree", "-r", "--name-only", "main"]).lines().map(str::to_string).collect()
    }

    fn show(&self, path: &str) -> String {
        git_in(&self.path(), &["show", &format!("main:{path}")])
    }
}

/// Machine A with a store holding `alpha-work`, synced to `remote`; machine B cloned from it.
fn two_machines(remote: &Remote) -> (Machine, Machine) {
    let a = Machine::new();
    a.store.init();
    a.ok(&["promote", "--name", "Alpha work"]);
    a.ok(&["sync", "init", &remote.url()]);
    let b = Machine::new();
    b.ok(&["sync", "clone", &remote.url()]);
    b.cmd().args(["init", "--yes", "--no-self-install"]).assert().success();
    (a, b)
}

fn show(m: &Machine, target: &str) -> serde_json::Value {
    m.ok(&["show", target])["data"].clone()
}

/// The codes of `dossier doctor`'s checks named `check`.
fn doctor_codes(m: &Machine, check: &str) -> Vec<String> {
    let v = json_of(&m.run(&["doctor", "--json"]));
    v["data"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["check"] == check)
        .map(|c| c["code"].as_str().unwrap().to_string())
        .collect()
}

fn audit_lines(m: &Machine, slug: &str) -> Vec<serde_json::Value> {
    m.read(&format!("{slug}/audit.log")).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Both stores hold the same bytes in every synced file, and both working trees are clean.
pub(crate) fn assert_converged(a: &Machine, b: &Machine) {
    assert_eq!(a.git(&["rev-parse", "HEAD^{tree}"]), b.git(&["rev-parse", "HEAD^{tree}"]), "same tree");
    for m in [a, b] {
        assert_eq!(m.git(&["status", "--porcelain"]), "", "clean working tree in {}", m.root().display());
        assert!(!m.root().join(".git/MERGE_HEAD").exists(), "no merge in progress");
    }
    for f in a.git(&["ls-files"]).lines() {
        assert_eq!(std::fs::read(a.root().join(f)).unwrap(), std::fs::read(b.root().join(f)).unwrap(), "{f}");
        let bytes = std::fs::read(a.root().join(f)).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains("<<<<<<<"), "{f} holds conflict markers");
    }
}

#[test]
fn issue_23_non_overlapping_edits_converge_on_both_machines_with_the_audit_union() {
    let remote = Remote::new();
    let (a, b) = two_machines(&remote);
    assert_eq!(show(&b, "alpha-work")["frontmatter"]["name"], "Alpha work");

    a.ok(&["lead", "alpha-work", "Alice"]);
    b.ok(&["next", "alpha-work", "Ask Bob about pricing"]);
    let out = a.sync();
    assert_eq!(out["went_out"], serde_json::json!(["alpha-work"]));
    let out = b.sync();
    assert_eq!(out["merged"], true, "{out}");
    assert_eq!(out["came_in"], serde_json::json!(["alpha-work"]));
    assert_eq!(out["merge"]["auto_merged"], serde_json::json!(["alpha-work"]));
    assert_eq!(out["merge"]["conflicts"], serde_json::json!([]));
    let out = a.sync();
    assert_eq!(out["came_in"], serde_json::json!(["alpha-work"]), "{out}");
    assert_converged(&a, &b);

    for m in [&a, &b] {
        let fm = &show(m, "alpha-work")["frontmatter"];
        assert_eq!(fm["lead"], "Alice");
        assert_eq!(fm["next_action"], "Ask Bob about pricing");
    }
    // The audit log holds both machines' lines, each once, in timestamp order, and the merge's.
    let lines = audit_lines(&a, "alpha-work");
    let saves: Vec<&serde_json::Value> =
        lines.iter().filter(|l| l["event"] == "save" && l["actor"] == "user:cli").collect();
    assert_eq!(saves.len(), 2, "{lines:#?}");
    let fields: Vec<&str> = saves.iter().map(|l| l["fields_changed"][0].as_str().unwrap()).collect();
    assert!(fields.contains(&"lead") && fields.contains(&"next_action"), "{fields:?}");
    let merged: Vec<&serde_json::Value> = lines.iter().filter(|l| l["actor"] == "sync").collect();
    assert_eq!(merged.len(), 1, "{lines:#?}");
    assert_eq!(merged[0]["auto_merged"], true);
    let mut seen = std::collections::HashSet::new();
    for l in &lines {
        assert!(seen.insert(l.to_string()), "duplicate audit line {l}");
    }
    let user_ts: Vec<&str> = lines.iter().filter(|l| l["actor"] != "sync").map(|l| l["ts"].as_str().unwrap()).collect();
    assert!(user_ts.windows(2).all(|w| w[0] <= w[1]), "timestamp order: {user_ts:?}");
    // A sync with nothing to do changes nothing and says so.
    let out = b.sync();
    assert_eq!(out["came_in"], serde_json::json!([]));
    assert_eq!(out["went_out"], serde_json::json!([]));
    assert_eq!(out["pushed"], false);
}

#[test]
fn issue_23_artifacts_captured_on_both_machines_are_all_kept() {
    let remote = Remote::new();
    let (a, b) = two_machines(&remote);
    let src = tempfile::tempdir().unwrap();
    let fa = src.path().join("from-a.md");
    let fb = src.path().join("from-b.md");
    std::fs::write(&fa, "# Notes from A\n\nline one\n").unwrap();
    std::fs::write(&fb, "# Notes from B\n\nline two\n").unwrap();
    let art_a = a.ok(&["save", "alpha-work", "--artifact", fa.to_str().unwrap()])["data"]["artifacts_added"][0]
        .as_str()
        .unwrap()
        .to_string();
    let art_b = b.ok(&["save", "alpha-work", "--artifact", fb.to_str().unwrap()])["data"]["artifacts_added"][0]
        .as_str()
        .unwrap()
        .to_string();
    a.sync();
    b.sync();
    a.sync();
    assert_converged(&a, &b);
    for m in [&a, &b] {
        let ids: Vec<String> = show(m, "alpha-work")["artifacts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["id"].as_str().unwrap().to_string())
            .collect();
        assert!(ids.contains(&art_a) && ids.contains(&art_b), "{ids:?}");
        // Still a consistent Dossier: doctor finds no error in it.
        let out = m.run(&["doctor", "--json"]);
        let v = json_of(&out);
        let errors: Vec<&serde_json::Value> = v["data"]["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["severity"] == "error" && c["check"].as_str().unwrap_or("").starts_with("dossier"))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }
}

#[test]
fn issue_23_per_machine_files_never_reach_the_remote() {
    let remote = Remote::new();
    let (a, b) = two_machines(&remote);
    // Per-machine state on both: session bindings, caches, locks, the machine config.
    a.ok(&["switch", "alpha-work", "--session", "sess-a"]);
    b.ok(&["switch", "alpha-work", "--session", "sess-b"]);
    a.ok(&["lead", "alpha-work", "Alice"]);
    b.ok(&["next", "alpha-work", "Ship it"]);
    a.sync();
    b.sync();
    a.sync();
    assert!(a.root().join("sessions").read_dir().unwrap().next().is_some(), "A has session files");
    assert!(b.root().join("config.machine.yaml").is_file(), "B's init wrote its machine file");
    assert!(a.root().join("config.machine.yaml").is_file(), "sync init moved A's machine block");
    let files = remote.files();
    for f in &files {
        let first = f.split('/').next().unwrap();
        assert!(
            !["sessions", ".cache", "context", ".sync"].contains(&first)
                && f != "config.machine.yaml"
                && !f.ends_with(".lock")
                && !f.contains(".tmp"),
            "per-machine file {f} reached the remote: {files:?}"
        );
    }
    // What is shared did: the Dossier, the user's config, the redaction key.
    for shared in ["alpha-work/dossier.md", "alpha-work/audit.log", "config.yaml", ".keys/redaction.key", ".gitignore"]
    {
        assert!(files.iter().any(|f| f == shared), "{shared} missing from the remote: {files:?}");
    }
    assert!(!remote.show("config.yaml").contains("harness:"), "the machine block stayed out of config.yaml");
    // Both machines read their own capability report.
    assert_eq!(
        std::fs::read(a.root().join(".keys/redaction.key")).unwrap(),
        std::fs::read(b.root().join(".keys/redaction.key")).unwrap(),
        "one redaction key on both machines"
    );
    use std::os::unix::fs::PermissionsExt as _;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&b.root().join(".keys")), 0o700, "the cloned key's directory is owner-only");
    assert_eq!(mode(&b.root().join(".keys/redaction.key")), 0o600, "the cloned key is owner-only");
}

#[test]
fn issue_23_sync_init_refuses_stored_secrets_and_writes_nothing() {
    let remote = Remote::new();
    let a = Machine::new();
    a.store.init();
    a.ok(&["promote", "--name", "Alpha work"]);
    let fakes = support::secrets::Fakes::new(23);
    // A secret stored in plain text (written before redaction existed).
    let md = a.root().join("alpha-work/dossier.md");
    let text = std::fs::read_to_string(&md)
        .unwrap()
        .replace("## Findings\n", &format!("## Findings\n\ntoken {}\n", fakes.github));
    std::fs::write(&md, text).unwrap();
    let before = support::snapshot(a.root());
    let out = a.run(&["sync", "init", &remote.url(), "--json"]);
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "secrets_in_store");
    assert_eq!(v["error"]["details"]["found"][0]["file"], "alpha-work/dossier.md");
    let next = v["next_actions"].to_string();
    assert!(next.contains("dossier redact alpha-work") && next.contains("--allow-secrets"), "{next}");
    assert!(!v.to_string().contains(&fakes.github), "the secret is never printed");
    assert_eq!(support::snapshot(a.root()), before, "nothing written");
    assert!(remote.files().is_empty());
    // The fix it names works.
    a.ok(&["redact", "alpha-work"]);
    a.ok(&["sync", "init", &remote.url()]);
    assert!(!remote.show("alpha-work/dossier.md").contains(&fakes.github));
}

#[test]
fn issue_23_sync_errors_name_the_fix() {
    let remote = Remote::new();
    let a = Machine::new();
    a.store.init();
    // Not synced yet.
    let out = a.run(&["sync", "--json"]);
    assert_eq!(out.status.code(), Some(7));
    assert!(json_of(&out)["next_actions"].to_string().contains("dossier sync init"));
    // No git at all: the error names what to install.
    let out = a
        .cmd()
        .env("PATH", a.store.dir.path().join("no-bin"))
        .args(["sync", "init", &remote.url(), "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(8), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "git_unavailable");
    assert!(v["next_actions"].to_string().contains("install git"), "{v}");
    assert!(!a.root().join(".git").exists(), "nothing written");
    // Clone into a non-empty store.
    let out = a.run(&["sync", "clone", &remote.url(), "--json"]);
    assert_eq!(out.status.code(), Some(5));
    assert_eq!(json_of(&out)["error"]["code"], "invalid_input");
    // Clone of an empty remote.
    let b = Machine::new();
    let out = b.run(&["sync", "clone", &remote.url(), "--json"]);
    assert_eq!(json_of(&out)["error"]["code"], "invalid_input");
    assert!(!b.root().exists(), "nothing written");
    // A second machine's init onto a remote that already holds a store.
    a.ok(&["sync", "init", &remote.url()]);
    let c = Machine::new();
    c.store.init();
    let out = c.run(&["sync", "init", &remote.url(), "--json"]);
    assert_eq!(out.status.code(), Some(5));
    let next = json_of(&out)["next_actions"].to_string();
    assert!(next.contains("dossier sync clone") && next.contains("--join"), "{next}");
    assert!(!c.root().join(".git").exists(), "nothing written");
}

/// Save a new Distilled State on `m` from its current revision.
pub(crate) fn save_state(m: &Machine, slug: &str, findings: &str) {
    let rev = show(m, slug)["revision"].as_str().unwrap().to_string();
    let f = m.store.dir.path().join("state.md");
    std::fs::write(
        &f,
        format!(
            "# Alpha work\n\n## Situation\n\nShared.\n\n## Decisions\n\n## Findings\n\n- {findings}\n\n## Current State\n\n## Next Steps\n"
        ),
    )
    .unwrap();
    m.ok(&["save", slug, "--base-revision", &rev, "--from-file", f.to_str().unwrap()]);
}

pub(crate) fn conflict_files(m: &Machine, slug: &str) -> Vec<(String, Vec<u8>)> {
    let dir = m.root().join(slug).join("conflicts");
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect();
    v.sort();
    v
}

/// A copy of machine `m` (store, repository and all) whose `origin` is `url`.
fn copy_of(m: &Machine, url: &str) -> Machine {
    let c = Machine::new();
    let st = Command::new("cp").arg("-a").arg(m.root()).arg(c.root()).status().unwrap();
    assert!(st.success());
    c.git(&["remote", "set-url", "origin", url]);
    c
}

#[test]
fn issue_23_divergent_distilled_states_give_the_same_conflict_file_on_both_machines() {
    let remote = Remote::new();
    let (a, b) = two_machines(&remote);
    save_state(&a, "alpha-work", "Finding written on A.");
    save_state(&b, "alpha-work", "Finding written on B.");
    a.sync();
    // Another machine merging the same two versions on its own (a copy of B syncing with a copy
    // of the remote) must write the same conflict file: ids and contents come from the inputs.
    let spare = tempfile::tempdir().unwrap();
    let st = Command::new("cp").arg("-a").arg(remote.path()).arg(spare.path().join("r.git")).status().unwrap();
    assert!(st.success());
    let b2 = copy_of(&b, &format!("file://{}", spare.path().join("r.git").display()));

    let out = b.sync();
    let conflicts = out["merge"]["conflicts"].as_array().unwrap().clone();
    assert_eq!(conflicts.len(), 1, "{out}");
    let id = conflicts[0]["conflict_id"].as_str().unwrap().to_string();
    assert!(id.starts_with("conf_") && id.len() == 31, "{id}");
    let out2 = b2.sync();
    assert_eq!(out2["merge"]["conflicts"][0]["conflict_id"], id.as_str());
    assert_eq!(conflict_files(&b, "alpha-work"), conflict_files(&b2, "alpha-work"), "same bytes on both");
    assert_eq!(b.git(&["rev-parse", "HEAD^{tree}"]), b2.git(&["rev-parse", "HEAD^{tree}"]));

    // A's user is told too: the conflict B's sync made came in (found by hand: "needs you:
    // nothing" while an open conflict arrived).
    let pulled = a.sync();
    assert_eq!(pulled["incoming_conflicts"][0]["id"], id.as_str(), "{pulled}");
    assert_eq!(pulled["incoming_conflicts"].as_array().unwrap().len(), 1, "{pulled}");
    assert_converged(&a, &b);
    assert_eq!(conflict_files(&a, "alpha-work"), conflict_files(&b, "alpha-work"));
    // Never last-write-wins: one version is the head, the other is in the conflict file.
    let head = a.read("alpha-work/dossier.md");
    let file = String::from_utf8(conflict_files(&a, "alpha-work")[0].1.clone()).unwrap();
    // The proposal is the file's body, after its header.
    let body = file[4..].split_once("\n---\n").unwrap().1.to_string();
    let (on_a, on_b) = ("Finding written on A.", "Finding written on B.");
    assert!(
        (head.contains(on_a) && body.contains(on_b) && !body.contains(on_a))
            || (head.contains(on_b) && body.contains(on_a) && !body.contains(on_b)),
        "head:\n{head}\nconflict file:\n{file}"
    );
    for m in [&a, &b] {
        let listed = m.ok(&["conflicts", "list"])["data"]["conflicts"].clone();
        assert_eq!(listed[0]["id"], id.as_str(), "{listed}");
        assert_eq!(listed[0]["kind"], "concurrent_edit");
        let created: Vec<serde_json::Value> =
            audit_lines(m, "alpha-work").into_iter().filter(|l| l["event"] == "conflict_created").collect();
        assert_eq!(created.len(), 1, "{created:?}");
        assert_eq!(created[0]["conflict_id"], id.as_str());
    }
    // Doctor shows it with the command that resolves it; so do `ls` (and its --json count) and
    // session start, on both machines.
    assert_eq!(doctor_codes(&a, "sync.conflicts"), ["sync_conflict_open"]);
    for m in [&a, &b] {
        let item = m.ok(&["ls"])["data"]["dossiers"][0].clone();
        assert_eq!(item["open_conflicts"], 1, "{item}");
        let table = String::from_utf8_lossy(&m.run(&["ls"]).stdout).into_owned();
        assert!(table.contains("!1 Alpha work"), "{table}");
        assert!(table.contains("dossier conflicts resolve <id>"), "{table}");
        let (out, _) = hook(m, "session-start", &serde_json::json!({ "session_id": "c1", "source": "startup" }));
        assert!(
            out.contains(&format!("Warning: 1 open conflict(s): {id} in alpha-work"))
                && out.contains("`dossier conflicts resolve <id> --keep current|proposal`"),
            "{out}"
        );
    }
    // The conflict file keeps both revisions and the base.
    assert!(file.contains("base_state:") && file.contains("current_state:") && file.contains("proposal_revision:"));

    // Resolved on B (keeping the proposal), the resolution reaches A.
    let proposal_had = if body.contains(on_b) { on_b } else { on_a };
    b.ok(&["conflicts", "resolve", &id, "--keep", "proposal"]);
    assert!(b.sync()["incoming_conflicts"].as_array().unwrap().is_empty());
    let pulled = a.sync();
    assert!(pulled["incoming_conflicts"].as_array().unwrap().is_empty(), "resolved: nothing to do: {pulled}");
    assert_converged(&a, &b);
    for m in [&a, &b] {
        assert!(m.ok(&["conflicts", "list"])["data"]["conflicts"].as_array().unwrap().is_empty());
        assert!(doctor_codes(m, "sync.conflicts").is_empty());
        assert_eq!(m.ok(&["ls"])["data"]["dossiers"][0]["open_conflicts"], 0);
        let (out, _) = hook(m, "session-start", &serde_json::json!({ "session_id": "c2", "source": "startup" }));
        assert!(!out.contains("open conflict"), "{out}");
        let state = m.read("alpha-work/dossier.md");
        assert!(state.contains(proposal_had), "{state}");
    }
}

#[test]
fn issue_23_spec_12_2_the_same_slug_created_on_two_machines_keeps_both() {
    let remote = Remote::new();
    let (a, b) = two_machines(&remote);
    let ida = a.ok(&["promote", "--name", "Beta plan"])["data"]["id"].as_str().unwrap().to_string();
    let idb = b.ok(&["promote", "--name", "Beta plan", "--create"])["data"]["id"].as_str().unwrap().to_string();
    a.sync();
    let out = b.sync();
    assert_eq!(out["merge"]["renamed"].as_array().unwrap().len(), 1, "{out}");
    a.sync();
    assert_converged(&a, &b);
    for m in [&a, &b] {
        let slugs = m.store.ls_slugs(&[]);
        let beta: Vec<&String> = slugs.iter().filter(|s| s.starts_with("beta-plan")).collect();
        assert_eq!(beta.len(), 2, "{slugs:?}");
        let ids: Vec<String> =
            beta.iter().map(|s| show(m, s)["frontmatter"]["id"].as_str().unwrap().to_string()).collect();
        assert!(ids.contains(&ida) && ids.contains(&idb), "{ids:?}");
        for s in beta {
            assert_eq!(show(m, s)["frontmatter"]["slug"], s.as_str(), "slug matches its directory");
            if s != "beta-plan" {
                let renamed_id = show(m, s)["frontmatter"]["id"].as_str().unwrap().to_string();
                assert_eq!(*s, format!("beta-plan-{}", &renamed_id[renamed_id.len() - 6..]), "§12.2 suffix");
            }
        }
    }
}

#[test]
fn issue_23_the_same_artifact_id_with_different_bytes_is_reported_and_both_are_kept() {
    let remote = Remote::new();
    let (a, b) = two_machines(&remote);
    // Written by hand (ids are unique, so only a hand edit or a bug can do this).
    for (m, text) in [(&a, "version A\n"), (&b, "version B\n")] {
        let dir = m.root().join("alpha-work/artifacts");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("art_01jz8clash0000000000000000.txt"), text).unwrap();
    }
    a.sync();
    let out = b.sync();
    let clashes = out["merge"]["clashes"].as_array().unwrap().clone();
    assert_eq!(clashes.len(), 1, "{out}");
    assert_eq!(clashes[0]["kind"], "artifact");
    let other = clashes[0]["other"].as_str().unwrap().to_string();
    a.sync();
    assert_converged(&a, &b);
    let kept = a.read("alpha-work/artifacts/art_01jz8clash0000000000000000.txt");
    let moved = a.read(&other);
    let mut both = [kept, moved];
    both.sort();
    assert_eq!(both, ["version A\n".to_string(), "version B\n".to_string()]);
    // Loud: the human output says so.
    let out = b.run(&["sync"]);
    assert!(out.status.success());
}

#[test]
fn issue_23_a_remote_that_rejects_the_push_fails_loudly_and_keeps_local_work() {
    let remote = Remote::new();
    let (a, _b) = two_machines(&remote);
    let hook = remote.path().join("hooks/pre-receive");
    std::fs::write(&hook, "#!/bin/sh\necho 'protected: no pushes today' >&2\nexit 1\n").unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    a.ok(&["lead", "alpha-work", "Alice"]);
    let remote_head = git_in(&remote.path(), &["rev-parse", "main"]);
    let out = a.run(&["sync", "--json"]);
    assert_eq!(out.status.code(), Some(11), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"]["code"], "push_rejected");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("\"synced"), "never says synced");
    assert_eq!(git_in(&remote.path(), &["rev-parse", "main"]), remote_head, "the remote is unchanged");
    // Local work is committed and intact; the failure is recorded.
    assert_eq!(a.git(&["status", "--porcelain"]), "");
    assert!(a.git(&["log", "-1", "--format=%s"]).contains("alpha-work"));
    assert_eq!(show(&a, "alpha-work")["frontmatter"]["lead"], "Alice");
    assert!(a.read(".sync/state.json").contains("push_rejected"));
    // Once the remote accepts again, the next sync delivers it.
    std::fs::remove_file(&hook).unwrap();
    let out = a.sync();
    assert_eq!(out["pushed"], true);
    assert!(remote.show("alpha-work/dossier.md").contains("lead: Alice"));
}

#[test]
fn issue_23_an_unreachable_remote_fails_loudly_and_keeps_local_work() {
    let remote = Remote::new();
    let (a, _b) = two_machines(&remote);
    let gone = tempfile::tempdir().unwrap();
    a.git(&["remote", "set-url", "origin", &format!("file://{}/missing.git", gone.path().display())]);
    a.ok(&["next", "alpha-work", "Offline edit"]);
    let out = a.run(&["sync", "--json"]);
    assert_eq!(out.status.code(), Some(10), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "remote_unavailable");
    assert!(v["error"]["message"].as_str().unwrap().contains("local work is intact"));
    let human = a.run(&["sync"]);
    assert_eq!(human.status.code(), Some(10));
    assert!(String::from_utf8_lossy(&human.stderr).contains("error[remote_unavailable]"));
    assert_eq!(show(&a, "alpha-work")["frontmatter"]["next_action"], "Offline edit");
    assert_eq!(a.git(&["status", "--porcelain"]), "");
    assert!(a.read(".sync/state.json").contains("remote_unavailable"));
    assert_eq!(doctor_codes(&a, "sync"), ["sync_failed"], "doctor shows the failure");
    a.git(&["remote", "set-url", "origin", &remote.url()]);
    a.sync();
    assert_eq!(doctor_codes(&a, "sync"), ["ok"]);
    assert!(remote.show("alpha-work/dossier.md").contains("Offline edit"));
}

#[test]
fn issue_23_two_syncs_at_once_on_one_machine_one_waits_its_turn() {
    let remote = Remote::new();
    let (a, _b) = two_machines(&remote);
    // Another sync holds the lock (this process stands in for it).
    let lock =
        std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(a.root().join(".sync/lock")).unwrap();
    lock.lock().unwrap();
    a.ok(&["lead", "alpha-work", "Alice"]);
    let out = a.run(&["sync", "--json"]);
    assert_eq!(out.status.code(), Some(12));
    assert_eq!(json_of(&out)["error"]["code"], "sync_busy");
    assert!(a.git(&["status", "--porcelain"]).contains("alpha-work"), "nothing committed while busy");
    drop(lock);
    // Real concurrency: two syncs started together both end well (one may be told it is busy).
    let mut kids: Vec<std::process::Child> = (0..2)
        .map(|_| {
            let mut c = a.store.cmd_std();
            c.env("GIT_CONFIG_NOSYSTEM", "1").args(["sync", "--json"]);
            c.spawn().unwrap()
        })
        .collect();
    let codes: Vec<Option<i32>> = kids.iter_mut().map(|k| k.wait().unwrap().code()).collect();
    assert!(codes.contains(&Some(0)), "{codes:?}");
    assert!(codes.iter().all(|c| *c == Some(0) || *c == Some(12)), "{codes:?}");
    assert_eq!(a.git(&["status", "--porcelain"]), "");
    assert!(remote.show("alpha-work/dossier.md").contains("lead: Alice"));
}

#[test]
fn issue_23_a_remote_that_moves_during_the_push_is_merged_and_pushed_again() {
    let remote = Remote::new();
    let (a, b) = two_machines(&remote);
    a.ok(&["lead", "alpha-work", "Alice"]);
    b.ok(&["next", "alpha-work", "From B"]);
    // A's first push: just before it lands, B's sync pushes (a pre-push hook stands in for the
    // other machine being faster), so A's push finds the remote moved and A merges again.
    let marker = a.store.dir.path().join("b-pushed");
    let hook = a.root().join(".git/hooks/pre-push");
    std::fs::write(
        &hook,
        format!(
            "#!/bin/sh\n[ -e '{marker}' ] && exit 0\ntouch '{marker}'\nDOSSIER_HOME='{broot}' HOME='{bhome}' GIT_CONFIG_NOSYSTEM=1 '{bin}' sync -q >/dev/null\n",
            marker = marker.display(),
            broot = b.root().display(),
            bhome = b.store.dir.path().join("home").display(),
            bin = crate::DOSSIER,
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = a.sync();
    assert!(marker.exists(), "the hook ran");
    assert_eq!(out["attempts"], 2, "{out}");
    assert_eq!(out["merged"], true);
    assert_eq!(out["pushed"], true);
    let md = remote.show("alpha-work/dossier.md");
    assert!(md.contains("lead: Alice") && md.contains("next_action: From B"), "{md}");
    b.sync();
    assert_converged(&a, &b);
}

#[test]
fn issue_23_merges_and_archives_replicate() {
    let remote = Remote::new();
    let (a, b) = two_machines(&remote);
    a.ok(&["promote", "--name", "Gamma notes"]);
    a.ok(&["promote", "--name", "Delta plan"]);
    a.sync();
    b.sync();
    // A merges one Dossier into another and archives a third; B edits the merged target's lead.
    a.ok(&["merge", "gamma-notes", "alpha-work"]);
    a.ok(&["archive", "delta-plan"]);
    b.ok(&["lead", "alpha-work", "Bea"]);
    a.sync();
    b.sync();
    a.sync();
    assert_converged(&a, &b);
    for m in [&a, &b] {
        let md = m.read("alpha-work/dossier.md");
        assert!(md.contains("merged_from:") && md.contains("lead: Bea"), "{md}");
        assert!(m.read("gamma-notes/dossier.md").contains("merged_into:"));
        assert_eq!(show(m, "delta-plan")["frontmatter"]["status"], "archived");
        assert!(!m.store.ls_slugs(&[]).contains(&"delta-plan".to_string()));
    }
}

#[test]
fn issue_23_a_killed_sync_does_not_stop_the_next_one() {
    let remote = Remote::new();
    let (a, _b) = two_machines(&remote);
    a.ok(&["lead", "alpha-work", "Alice"]);
    // What a sync killed inside `git commit` leaves: its marker and git's index lock.
    std::fs::create_dir_all(a.root().join(".sync")).unwrap();
    std::fs::write(a.root().join(".sync/running"), "12345").unwrap();
    std::fs::write(a.root().join(".git/index.lock"), "").unwrap();
    let out = a.sync();
    assert_eq!(out["recovered"], true, "{out}");
    assert_eq!(out["pushed"], true);
    assert!(!a.root().join(".sync/running").exists());
    assert!(remote.show("alpha-work/dossier.md").contains("lead: Alice"));
    // An index lock with no killed sync behind it (a git the user is running) is left alone:
    // the sync fails loudly with git's words instead.
    std::fs::write(a.root().join(".git/index.lock"), "").unwrap();
    a.ok(&["lead", "alpha-work", "Bea"]);
    let out = a.run(&["sync", "--json"]);
    assert!(!out.status.success());
    assert!(json_of(&out)["error"]["message"].as_str().unwrap().contains("index.lock"));
    assert!(a.root().join(".git/index.lock").exists());
}

/// A remote made with a plain `git init --bare` names `master` as its HEAD, while the first
/// machine's store pushes `main`: `sync clone` still checks out the store (found by hand: a
/// plain `git clone` checked out nothing and the clone reported 0 Dossiers as a success).
#[test]
fn issue_23_sync_clone_checks_out_the_stores_branch_from_a_plain_bare_remote() {
    let dir = tempfile::tempdir().unwrap();
    git_in(dir.path(), &["init", "-q", "--bare", "-b", "master", "remote.git"]);
    let url = format!("file://{}", dir.path().join("remote.git").display());
    let a = Machine::new();
    a.store.init();
    a.ok(&["promote", "--name", "Alpha work"]);
    a.ok(&["sync", "init", &url]);
    let b = Machine::new();
    let cloned = b.ok(&["sync", "clone", &url]);
    assert_eq!(cloned["data"]["branch"], "main", "{cloned:#}");
    assert_eq!(cloned["data"]["dossiers"], 1, "{cloned:#}");
    assert_eq!(show(&b, "alpha-work")["frontmatter"]["name"], "Alpha work");
    b.ok(&["sync"]);
    assert_converged(&a, &b);
}

/// `dossier hook <event>` on `m` as Claude Code runs it (the event's JSON on stdin); stdout and
/// the hook's wall time. Hooks always exit 0.
fn hook(m: &Machine, event: &str, input: &serde_json::Value) -> (String, std::time::Duration) {
    let t = std::time::Instant::now();
    let out = m.cmd().args(["hook", event]).write_stdin(input.to_string()).output().unwrap();
    let took = t.elapsed();
    assert!(out.status.success(), "hooks always exit 0: {out:?}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), took)
}

/// Turn `sync.auto` on in `m`'s config.yaml (the shared part), starting a background sync at
/// every session start (`min_interval_minutes`).
fn auto_on(m: &Machine, min_interval_minutes: u64) {
    let path = m.root().join("config.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut text = text.split("\nsync:\n").next().unwrap().to_string();
    text.push_str(&format!("\nsync:\n  auto: true\n  min_interval_minutes: {min_interval_minutes}\n"));
    std::fs::write(&path, text).unwrap();
}

/// Whether a `dossier sync` holds `m`'s sync lock now.
fn sync_running(m: &Machine) -> bool {
    let f =
        std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(m.root().join(".sync/lock")).unwrap();
    matches!(f.try_lock(), Err(std::fs::TryLockError::WouldBlock))
}

/// Poll `what` every 100 ms for at most 60 s.
fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let t = std::time::Instant::now();
    while !done() {
        assert!(t.elapsed() < std::time::Duration::from_secs(60), "waited 60 s for {what}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

fn wait_idle(m: &Machine) {
    wait_until("the background sync to finish", || !sync_running(m));
}

#[test]
fn issue_23_sync_auto_session_start_syncs_in_the_background_and_says_when_the_store_last_synced() {
    let remote = Remote::new();
    let (a, b) = two_machines(&remote);
    // Off (the default): session start starts nothing, and says when the store last synced.
    let (out, _) = hook(&a, "session-start", &serde_json::json!({ "session_id": "s0", "source": "startup" }));
    assert!(out.contains("Store synced under a minute ago."), "{out}");
    assert!(!a.root().join(".sync/background.started").exists(), "auto is off: nothing started");
    // On, with the default interval: the sync `init` just made is recent, so none starts.
    auto_on(&a, 5);
    let (out, _) = hook(&a, "session-start", &serde_json::json!({ "session_id": "s1", "source": "startup" }));
    assert!(!out.contains("background sync started"), "{out}");
    assert!(!a.root().join(".sync/background.started").exists());

    // On, every session: A's edit goes out and B's comes in, without the hook waiting for it.
    auto_on(&a, 0);
    a.ok(&["lead", "alpha-work", "Alice"]);
    b.ok(&["next", "alpha-work", "Written on B"]);
    b.sync();
    let (out, _) = hook(&a, "session-start", &serde_json::json!({ "session_id": "s2", "source": "startup" }));
    assert!(out.contains("(a background sync started)"), "{out}");
    wait_until("A's edit on the remote", || remote.show("alpha-work/dossier.md").contains("lead: Alice"));
    wait_idle(&a);
    assert!(a.read("alpha-work/dossier.md").contains("next_action: Written on B"), "pulled");
    // Its output (printed once the lock is released) is in the log.
    wait_until("the background sync's output", || a.read(".sync/background.log").contains("synced with"));
    assert_eq!(doctor_codes(&a, "sync"), ["ok"]);
    b.sync();
    assert_converged(&a, &b);

    // `dossier sync --background` is the same start, from the command line.
    a.ok(&["lead", "alpha-work", "Anna"]);
    let v = a.ok(&["sync", "--background"]);
    assert_eq!(v["data"]["started"], true, "{v}");
    wait_until("the --background sync's push", || remote.show("alpha-work/dossier.md").contains("lead: Anna"));
    wait_idle(&a);
}

#[test]
fn issue_23_sync_auto_session_end_pushes_the_captured_transcript_in_the_background() {
    let remote = Remote::new();
    let (a, _b) = two_machines(&remote);
    auto_on(&a, 5);
    a.cmd().args(["switch", "alpha-work", "--session", "s-end"]).assert().success();
    let t = a.store.dir.path().join("transcript.jsonl");
    std::fs::write(&t, "{\"type\":\"user\",\"message\":\"hello\"}\n").unwrap();
    let input = serde_json::json!({ "session_id": "s-end", "transcript_path": t, "reason": "other" });
    let (out, took) = hook(&a, "session-end", &input);
    assert!(!out.contains("could not start"), "{out}");
    // Claude Code's SessionEnd budget is 1.5 s; the hook measures ~0.15 s (docs/sync.md), and a
    // loaded test machine gets some room.
    assert!(took < std::time::Duration::from_secs(3), "the SessionEnd budget holds: {took:?}");
    // The interval only spaces out session starts: the push after a capture always starts.
    wait_until("the transcript artifact on the remote", || {
        remote.files().iter().any(|f| f.starts_with("alpha-work/artifacts/") && f.ends_with(".txt"))
    });
    wait_idle(&a);
    assert_eq!(a.git(&["status", "--porcelain"]), "");
}

#[test]
fn issue_23_sync_auto_never_waits_on_a_hanging_remote_and_its_failure_shows_at_the_next_session_start() {
    let remote = Remote::new();
    let (a, _b) = two_machines(&remote);
    auto_on(&a, 0);
    // An ssh remote whose connection hangs (a host that drops packets), then times out: git
    // waits on it inside the fetch.
    let ssh = a.store.dir.path().join("hanging-ssh");
    std::fs::write(
        &ssh,
        "#!/bin/sh\nsleep 8\necho 'ssh: connect to host dossier.invalid port 22: Connection timed out' >&2\nexit 255\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    a.git(&["config", "core.sshCommand", ssh.to_str().unwrap()]);
    a.git(&["remote", "set-url", "origin", "ssh://dossier.invalid/srv/dossier.git"]);
    a.ok(&["next", "alpha-work", "Offline edit"]);

    let (out, took) = hook(&a, "session-start", &serde_json::json!({ "session_id": "h1", "source": "startup" }));
    assert!(out.contains("(a background sync started)"), "{out}");
    assert!(out.contains("1 open dossier(s): Alpha work"), "the normal nudge: {out}");
    assert!(took < std::time::Duration::from_secs(4), "the hook never waits on the network (8 s): {took:?}");
    assert!(sync_running(&a), "the background sync is still waiting on the remote when the hook is done");
    // A second session meanwhile starts none (the lock) and says one is running.
    let (out, _) = hook(&a, "session-start", &serde_json::json!({ "session_id": "h2", "source": "startup" }));
    assert!(out.contains("(a sync is running)"), "{out}");

    wait_idle(&a);
    assert!(a.read(".sync/state.json").contains("remote_unavailable"));
    a.git(&["config", "--unset", "core.sshCommand"]);
    // The failure is in the next session's context and in doctor, with the fix.
    auto_on(&a, 60);
    let (out, _) = hook(&a, "session-start", &serde_json::json!({ "session_id": "h3", "source": "startup" }));
    assert!(
        out.contains("Warning: last sync FAILED")
            && out.contains("remote_unavailable")
            && out.contains("run `dossier sync`"),
        "{out}"
    );
    assert_eq!(doctor_codes(&a, "sync"), ["sync_failed"]);
    // The local edit is intact and committed.
    assert_eq!(show(&a, "alpha-work")["frontmatter"]["next_action"], "Offline edit");
    assert!(a.git(&["log", "-1", "--format=%s"]).contains("alpha-work"), "committed locally");
}

/// A background sync whose remote never answers is stopped after
/// `sync.background_time_limit_seconds`, with the git and ssh it runs: the lock is free again,
/// the failure is recorded for the next session start, and the next sync completes.
#[test]
fn issue_23_a_background_sync_that_hangs_is_stopped_at_its_time_limit_and_the_next_sync_completes() {
    let remote = Remote::new();
    let (a, _b) = two_machines(&remote);
    auto_on(&a, 0);
    let path = a.root().join("config.yaml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("  background_time_limit_seconds: 2\n");
    std::fs::write(&path, text).unwrap();
    // An ssh that never gives up (a host that drops packets, no ConnectTimeout).
    let ssh = a.store.dir.path().join("endless-ssh");
    let marker = a.store.dir.path().join("ssh-still-running");
    std::fs::write(&ssh, format!("#!/bin/sh\ntouch {}\nsleep 300\n", marker.display())).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    a.git(&["config", "core.sshCommand", ssh.to_str().unwrap()]);
    let url = a.git(&["remote", "get-url", "origin"]).trim().to_string();
    a.git(&["remote", "set-url", "origin", "ssh://dossier.invalid/srv/dossier.git"]);
    a.ok(&["next", "alpha-work", "Edit while the remote hangs"]);

    let started = std::time::Instant::now();
    let (out, _) = hook(&a, "session-start", &serde_json::json!({ "session_id": "t1", "source": "startup" }));
    assert!(out.contains("(a background sync started)"), "{out}");
    wait_until("the hanging ssh to start", || marker.exists());
    wait_idle(&a);
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(30), "stopped at its 2 s limit, not by ssh's 300 s: {took:?}");
    let state = a.read(".sync/state.json");
    assert!(state.contains("was stopped") && state.contains("background_time_limit_seconds"), "{state}");
    // The ssh the sync ran went with it (its process group).
    let alive = std::process::Command::new("pgrep").args(["-f", ssh.to_str().unwrap()]).output().unwrap();
    assert!(alive.stdout.is_empty(), "the hanging ssh was left running: {}", String::from_utf8_lossy(&alive.stdout));
    // The next session start says so.
    auto_on(&a, 60);
    let (out, _) = hook(&a, "session-start", &serde_json::json!({ "session_id": "t2", "source": "startup" }));
    assert!(out.contains("Warning: last sync FAILED") && out.contains("run `dossier sync`"), "{out}");
    // A sync typed by hand with the remote back completes, and the edit reaches the remote.
    a.git(&["config", "--unset", "core.sshCommand"]);
    a.git(&["remote", "set-url", "origin", &url]);
    let out = a.sync();
    assert_eq!(out["pushed"], true, "{out}");
    assert!(remote.show("alpha-work/dossier.md").contains("Edit while the remote hangs"));
}

#[test]
fn issue_23_sync_auto_a_background_sync_that_cannot_start_is_a_warning_and_the_hook_still_answers() {
    let remote = Remote::new();
    let (a, _b) = two_machines(&remote);
    auto_on(&a, 0);
    // The log cannot be created (a directory in its place): the start fails.
    std::fs::create_dir_all(a.root().join(".sync/background.log")).unwrap();
    let (out, _) = hook(&a, "session-start", &serde_json::json!({ "session_id": "x1", "source": "startup" }));
    assert!(out.contains("Warning: sync.auto: the background sync could not start"), "{out}");
    assert!(out.contains("run `dossier sync`"), "{out}");
    assert!(out.contains("1 open dossier(s): Alpha work"), "the normal nudge: {out}");
    assert!(!sync_running(&a));
    a.cmd().args(["switch", "alpha-work", "--session", "x1"]).assert().success();
    let t = a.store.dir.path().join("transcript.jsonl");
    std::fs::write(&t, "{\"type\":\"user\",\"message\":\"hello\"}\n").unwrap();
    let (out, _) =
        hook(&a, "session-end", &serde_json::json!({ "session_id": "x1", "transcript_path": t, "reason": "other" }));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["systemMessage"].as_str().unwrap().contains("background sync could not start"), "{out}");
    let captured = std::fs::read_dir(a.root().join("alpha-work/artifacts")).unwrap().count();
    assert!(captured >= 1, "the transcript was captured all the same");
    // Recorded as the last attempt: doctor shows it too.
    assert_eq!(doctor_codes(&a, "sync"), ["sync_failed"]);
}

#[test]
fn issue_23_sync_init_join_merges_two_existing_stores_and_keeps_both_same_slug_dossiers() {
    use std::os::unix::fs::PermissionsExt as _;
    let remote = Remote::new();
    let a = Machine::new();
    a.store.init();
    let shared_a = a.ok(&["promote", "--name", "Shared plan"])["data"]["id"].as_str().unwrap().to_string();
    a.ok(&["promote", "--name", "Only on A", "--create"]);
    a.ok(&["sync", "init", &remote.url()]);
    // Another machine with its own store (its own key), sharing a slug and one of its own.
    let b = Machine::new();
    b.store.init();
    let shared_b = b.ok(&["promote", "--name", "Shared plan"])["data"]["id"].as_str().unwrap().to_string();
    b.ok(&["promote", "--name", "Only on B", "--create"]);
    let before = support::snapshot(b.root());
    let key_b = std::fs::read(b.root().join(".keys/redaction.key")).unwrap();
    // Without the flag: refused, naming it, nothing written.
    let out = b.run(&["sync", "init", &remote.url(), "--json"]);
    assert_eq!(out.status.code(), Some(5));
    assert!(json_of(&out)["next_actions"].to_string().contains(&format!("dossier sync init {} --join", remote.url())));
    assert_eq!(support::snapshot(b.root()), before, "nothing written on the refusal");

    let v = b.ok(&["sync", "init", &remote.url(), "--join"]);
    let joined = &v["data"]["joined"];
    assert_eq!(joined["pushed"], true, "{v}");
    assert_eq!(joined["merge"]["renamed"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["data"]["dossiers"], 4);
    assert!(v["warnings"].to_string().contains("SPEC 12.2"), "{v}");
    a.sync();
    assert_converged(&a, &b);
    for m in [&a, &b] {
        let slugs = m.store.ls_slugs(&[]);
        assert_eq!(slugs.len(), 4, "{slugs:?}");
        assert!(slugs.contains(&"only-on-a".to_string()) && slugs.contains(&"only-on-b".to_string()), "{slugs:?}");
        let shared: Vec<&String> = slugs.iter().filter(|s| s.starts_with("shared-plan")).collect();
        let ids: Vec<String> =
            shared.iter().map(|s| show(m, s)["frontmatter"]["id"].as_str().unwrap().to_string()).collect();
        assert!(ids.contains(&shared_a) && ids.contains(&shared_b), "both kept: {ids:?}");
        for s in shared {
            assert_eq!(show(m, s)["frontmatter"]["slug"], s.as_str());
        }
        // One key from now on (the joined store's); B's own is kept beside it, owner-only.
        let key = |m: &Machine| std::fs::read(m.root().join(".keys/redaction.key")).unwrap();
        assert_eq!(key(m), key(&a));
        let kept = m.root().join(".keys/redaction.key.before-join");
        assert_eq!(std::fs::read(&kept).unwrap(), key_b);
        assert_eq!(std::fs::metadata(&kept).unwrap().permissions().mode() & 0o777, 0o600);
    }
    // A second `--join` onto its own history is a plain init (nothing to join).
    let v = b.ok(&["sync", "init", &remote.url(), "--join"]);
    assert!(v["data"]["joined"].is_null(), "{v}");
}

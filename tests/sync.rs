//! `dossier sync` (issue 23, docs/sync.md) through the real binary and the real git: two
//! machines (two stores, two HOMEs) and a bare repository on local disk as the remote
//! (`file://`). Convergence of non-overlapping edits, the audit and artifact unions, divergent
//! Distilled States as one conflict file on both machines, the same slug created twice, a
//! remote that rejects the push, an unreachable remote, the lock, and per-machine files that
//! never reach the remote.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::{TempStore, json_of};

/// One machine: its own store and HOME.
struct Machine {
    store: TempStore,
}

impl Machine {
    fn new() -> Machine {
        Machine { store: TempStore::new(crate::DOSSIER) }
    }

    fn root(&self) -> &Path {
        self.store.root()
    }

    fn cmd(&self) -> assert_cmd::Command {
        let mut c = self.store.cmd();
        c.env("GIT_CONFIG_NOSYSTEM", "1");
        c
    }

    fn run(&self, args: &[&str]) -> Output {
        self.cmd().args(args).output().unwrap()
    }

    /// `args` must succeed; its `--json` envelope.
    fn ok(&self, args: &[&str]) -> serde_json::Value {
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

    fn sync(&self) -> serde_json::Value {
        self.ok(&["sync"])["data"].clone()
    }

    fn git(&self, args: &[&str]) -> String {
        git_in(self.root(), args)
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }
}

fn git_in(dir: &Path, args: &[&str]) -> String {
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

fn audit_lines(m: &Machine, slug: &str) -> Vec<serde_json::Value> {
    m.read(&format!("{slug}/audit.log")).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Both stores hold the same bytes in every synced file, and both working trees are clean.
fn assert_converged(a: &Machine, b: &Machine) {
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
    assert!(json_of(&out)["next_actions"].to_string().contains("dossier sync clone"));
    assert!(!c.root().join(".git").exists(), "nothing written");
}

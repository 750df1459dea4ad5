//! `dossier sync` over `git daemon` on loopback (issue 23, docs/sync.md): the remote is a
//! `git://127.0.0.1:<port>/remote.git` served by a real `git daemon` (push enabled), so the
//! transport is git's own network protocol rather than `file://`. Two machines (two stores,
//! two HOMEs) converge on non-overlapping edits, a divergent Distilled State gives the same
//! conflict file on both, and a daemon killed mid-way is `remote_unavailable` with local work
//! intact.
//!
//! `git daemon` must be installed: Debian and Ubuntu ship it in the `git` package; Fedora,
//! RHEL, Arch and Alpine split it into `git-daemon` (Arch: part of `git`). A missing daemon
//! fails these tests saying what to install; it never skips them.
//!
//! The machines and their checks are `sync`'s (`crate::sync`).

use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use support::json_of;

use crate::sync::{Machine, assert_converged, conflict_files, git_in, save_state};

/// A `git daemon` serving a bare `remote.git` on a free loopback port, receive-pack enabled;
/// killed on drop.
pub(crate) struct Daemon {
    pub(crate) base: tempfile::TempDir,
    pub(crate) port: u16,
    child: Option<Child>,
}

impl Daemon {
    pub(crate) fn start() -> Daemon {
        let base = tempfile::tempdir().unwrap();
        git_in(base.path(), &["init", "-q", "--bare", "-b", "main", "remote.git"]);
        let mut d = Daemon { base, port: 0, child: None };
        d.spawn();
        d
    }

    /// The bare repository on disk.
    pub(crate) fn path(&self) -> PathBuf {
        self.base.path().join("remote.git")
    }

    pub(crate) fn url(&self) -> String {
        format!("git://127.0.0.1:{}/remote.git", self.port)
    }

    /// Start the daemon (on a new free port the first time, the same port after a `kill`) and
    /// wait until the port accepts connections.
    pub(crate) fn spawn(&mut self) {
        assert!(self.child.is_none(), "the daemon is running");
        if self.port == 0 {
            let l = TcpListener::bind("127.0.0.1:0").unwrap();
            self.port = l.local_addr().unwrap().port();
        }
        let base = self.base.path();
        let child = Command::new("git")
            .arg("daemon")
            .arg("--export-all")
            .arg("--enable=receive-pack")
            .arg(format!("--base-path={}", base.display()))
            .arg("--listen=127.0.0.1")
            .arg(format!("--port={}", self.port))
            .arg("--reuseaddr")
            .arg(base)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", base)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            // Its own process group: `kill` ends the connections it forked too.
            .process_group(0)
            .spawn()
            .expect("git on PATH");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            if let Some(status) = self.child.as_mut().unwrap().try_wait().unwrap() {
                let mut err = String::new();
                use std::io::Read as _;
                let _ = self.child.take().unwrap().stderr.unwrap().read_to_string(&mut err);
                panic!(
                    "`git daemon` exited ({status}) before listening on 127.0.0.1:{}: {err}\n\
                     These tests need git's daemon: on Debian/Ubuntu it is part of the `git` package \
                     (`apt-get install git`); on Fedora/RHEL/Alpine install `git-daemon` \
                     (`dnf install git-daemon`, `apk add git-daemon`).",
                    self.port
                );
            }
            assert!(Instant::now() < deadline, "`git daemon` did not listen on 127.0.0.1:{} within 20 s", self.port);
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The shell command that kills the daemon and every connection it serves (SIGKILL to its
    /// process group).
    pub(crate) fn kill_command(&self) -> String {
        format!("kill -9 -{}", self.child.as_ref().expect("the daemon is running").id())
    }

    /// Kill the daemon (and its connections) and wait until the port refuses connections.
    pub(crate) fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = Command::new("sh").arg("-c").arg(format!("kill -9 -{} 2>/dev/null", c.id())).status();
            let _ = c.kill();
            let _ = c.wait();
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
            assert!(Instant::now() < deadline, "the port still accepts after the daemon was killed");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = Command::new("sh").arg("-c").arg(format!("kill -9 -{} 2>/dev/null", c.id())).status();
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

#[test]
fn issue_23_over_git_daemon_edits_converge_and_a_divergent_state_gives_one_conflict_file_on_both() {
    let daemon = Daemon::start();
    let url = daemon.url();
    let a = Machine::first(&url);
    let b = Machine::cloned(&url);
    assert_eq!(b.ok(&["show", "alpha-work"])["data"]["frontmatter"]["name"], "Alpha work");
    assert_eq!(b.git(&["remote", "get-url", "origin"]).trim(), url, "B syncs over git://");

    // Non-overlapping edits converge.
    a.ok(&["lead", "alpha-work", "Alice"]);
    b.ok(&["next", "alpha-work", "Ask Bob about pricing"]);
    assert_eq!(a.sync()["pushed"], true);
    let out = b.sync();
    assert_eq!(out["merged"], true, "{out}");
    assert_eq!(out["merge"]["auto_merged"], serde_json::json!(["alpha-work"]));
    assert_eq!(out["pushed"], true);
    a.sync();
    assert_converged(&a, &b);
    for m in [&a, &b] {
        let fm = &m.ok(&["show", "alpha-work"])["data"]["frontmatter"];
        assert_eq!(fm["lead"], "Alice");
        assert_eq!(fm["next_action"], "Ask Bob about pricing");
    }
    // The bare repository behind the daemon holds it.
    let md = git_in(&daemon.path(), &["show", "main:alpha-work/dossier.md"]);
    assert!(md.contains("lead: Alice") && md.contains("next_action: Ask Bob about pricing"), "{md}");

    // A divergent Distilled State: one conflict file, the same bytes on both machines.
    save_state(&a, "alpha-work", "Finding written on A.");
    save_state(&b, "alpha-work", "Finding written on B.");
    a.sync();
    let out = b.sync();
    let conflicts = out["merge"]["conflicts"].as_array().unwrap().clone();
    assert_eq!(conflicts.len(), 1, "{out}");
    let id = conflicts[0]["conflict_id"].as_str().unwrap().to_string();
    a.sync();
    assert_converged(&a, &b);
    let (fa, fb) = (conflict_files(&a, "alpha-work"), conflict_files(&b, "alpha-work"));
    assert_eq!(fa.len(), 1, "{fa:?}");
    assert_eq!(fa, fb, "the same conflict file on both");
    assert!(fa[0].0.starts_with(&id), "{} names {id}", fa[0].0);
    for m in [&a, &b] {
        assert_eq!(m.ok(&["conflicts", "list"])["data"]["conflicts"][0]["id"], id.as_str());
    }
    // Resolved on A, the resolution reaches B over the daemon.
    a.ok(&["conflicts", "resolve", &id, "--keep", "proposal"]);
    a.sync();
    b.sync();
    assert_converged(&a, &b);
    assert!(b.ok(&["conflicts", "list"])["data"]["conflicts"].as_array().unwrap().is_empty());
}

#[test]
fn issue_23_over_git_daemon_a_daemon_killed_mid_way_is_remote_unavailable_with_local_work_intact() {
    let mut daemon = Daemon::start();
    let url = daemon.url();
    let a = Machine::first(&url);
    let b = Machine::cloned(&url);
    let remote_head = git_in(&daemon.path(), &["rev-parse", "main"]);

    // The daemon goes away between two syncs.
    daemon.kill();
    a.ok(&["next", "alpha-work", "Offline edit"]);
    std::fs::write(a.root().join("alpha-work/artifacts/art_01jz8daemon0000000000000000.txt"), "captured offline\n")
        .unwrap();
    let out = a.run(&["sync", "--json"]);
    assert_eq!(out.status.code(), Some(10), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"]["code"], "remote_unavailable");
    assert!(v["error"]["message"].as_str().unwrap().contains("local work is intact"), "{v}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("\"synced"), "never says synced");
    // Local work is committed locally and intact; nothing reached the remote.
    assert_eq!(a.git(&["status", "--porcelain"]), "");
    assert!(a.git(&["log", "-1", "--format=%s"]).contains("alpha-work"));
    assert_eq!(a.ok(&["show", "alpha-work"])["data"]["frontmatter"]["next_action"], "Offline edit");
    assert_eq!(a.read("alpha-work/artifacts/art_01jz8daemon0000000000000000.txt"), "captured offline\n");
    assert!(a.read(".sync/state.json").contains("remote_unavailable"));
    assert_eq!(git_in(&daemon.path(), &["rev-parse", "main"]), remote_head);

    // Back up: A delivers.
    daemon.spawn();
    assert_eq!(a.sync()["pushed"], true);

    // Killed mid-way through B's sync: after B fetched and merged A's edit, just before its
    // push, the daemon and its connections are SIGKILLed (B's pre-push hook does it).
    b.ok(&["lead", "alpha-work", "Bea"]);
    let hook = b.root().join(".git/hooks/pre-push");
    std::fs::write(&hook, format!("#!/bin/sh\n{}\nsleep 0.2\n", daemon.kill_command())).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = b.run(&["sync", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(10),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json_of(&out)["error"]["code"], "remote_unavailable");
    daemon.kill();
    std::fs::remove_file(&hook).unwrap();
    // B's work and A's merged edit are in B's store, committed; the remote has A's only.
    assert_eq!(b.git(&["status", "--porcelain"]), "");
    let md = b.read("alpha-work/dossier.md");
    assert!(md.contains("next_action: Offline edit") && md.contains("lead: Bea"), "{md}");
    assert!(!git_in(&daemon.path(), &["show", "main:alpha-work/dossier.md"]).contains("lead: Bea"));
    assert!(b.read(".sync/state.json").contains("remote_unavailable"));

    // Back up: B delivers, and both converge.
    daemon.spawn();
    let out = b.sync();
    assert_eq!(out["pushed"], true, "{out}");
    a.sync();
    assert_converged(&a, &b);
    let md = a.read("alpha-work/dossier.md");
    assert!(md.contains("next_action: Offline edit") && md.contains("lead: Bea"), "{md}");
    assert_eq!(b.read("alpha-work/artifacts/art_01jz8daemon0000000000000000.txt"), "captured offline\n");
}

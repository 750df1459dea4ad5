//! Hook benchmarks (figures in docs/performance.md):
//! - `session_start_unbound_1000`: the whole `dossier hook session-start` process for an
//!   unbound session over 1,000 Dossiers, warm compile cache, Claude Code registered (so no
//!   capability warnings): goal ≤ 15 ms median. Its output's token estimate is printed once.
//! - `session_start_git_2000_files_50_modified`: the same hook process with its cwd inside a
//!   generated 2,000-file git repository with 50 modified files, a new session each sample, so
//!   it also records the session's starting HEAD and dirtiness (issue 21; one git spawn): goal
//!   ≤ 15 ms median. `git_status_session_start_repo` (reference): one `git status --porcelain`
//!   spawn in that repository.
//! - `process_spawn_floor`: spawning `true` (reference).
//! - `stop_card_2000_files`: the whole `dossier hook stop` process on codecall's card path in a
//!   generated 2,000-file git repository, with a ~1.5 MB transcript of 30 turns (Claude Code's
//!   bookkeeping lines, Reads, Bash calls, and 40 Write/Edit calls over 20 files, among them an
//!   OAuth middleware). Each iteration is a new session, so it reads the whole transcript,
//!   scores the opportunity through the policy component, shows the card and records it: the
//!   worst case (a later Stop reads only the new lines). Goal ≤ 30 ms median.
//! - `stop_card_nothing_new`: the same Stop again in a session that has read everything.
//! - `git_status_2000_files` (reference): one `git status --porcelain` spawn in that repository,
//!   what a git-based card would pay at least once.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use divan::Bencher;

fn main() {
    divan::main();
}

/// A HOME with Claude Code "installed" (~/.claude), `dossier init --yes` run against it,
/// and 1,000 generated Dossiers in its default store.
fn home() -> &'static Path {
    static H: OnceLock<PathBuf> = OnceLock::new();
    H.get_or_init(|| {
        let home = tempfile::tempdir().unwrap().keep();
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        let store = home.join(".dossier");
        let out = Command::new(env!("CARGO_BIN_EXE_dossier"))
            .args(["init", "--yes", "--no-self-install"])
            .env("HOME", &home)
            .env_remove("DOSSIER_HOME")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
        let spec =
            dossier_store::generate::Spec { dossiers: 1_000, artifacts_per_dossier: 0, body_bytes: 4_000, seed: 11 };
        dossier_store::generate::generate(&store, &spec).unwrap();
        let text = session_start(&home);
        let tokens = dossier_store::tokens::estimate(&text, dossier_store::tokens::DEFAULT_CALIBRATION);
        eprintln!("session-start output ({} bytes, ~{} tokens): {text}", text.len(), tokens.tokens);
        home
    })
}

fn session_start(home: &Path) -> String {
    hook(
        "session-start",
        home,
        home,
        br#"{"session_id":"bench-unbound","source":"startup","hook_event_name":"SessionStart"}"#,
    )
}

/// `dossier hook <event>` in `cwd` with `HOME=home` (the default store), `input` on stdin.
fn hook(event: &str, cwd: &Path, home: &Path, input: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dossier"))
        .args(["hook", event])
        .current_dir(cwd)
        .env("HOME", home)
        .env_remove("DOSSIER_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[divan::bench(sample_count = 50)]
fn session_start_unbound_1000(bencher: Bencher) {
    let home = home();
    bencher.bench_local(|| session_start(home));
}

/// A generated 2,000-file git repository (40-line Rust files) with 50 of them modified.
fn dirty_repo() -> &'static Path {
    static R: OnceLock<PathBuf> = OnceLock::new();
    R.get_or_init(|| {
        let repo = tempfile::tempdir().unwrap().keep().join("repo");
        let path = |i: usize| repo.join(format!("src/area{}/m{:03}/file_{i}.rs", i % 10, i / 20));
        for i in 0..2_000 {
            std::fs::create_dir_all(path(i).parent().unwrap()).unwrap();
            let body: String = (0..40).map(|l| format!("pub fn f_{i}_{l}(x: u32) -> u32 {{ x + {l} }}\n")).collect();
            std::fs::write(path(i), body).unwrap();
        }
        let git = |args: &[&str]| {
            let out = Command::new("git").args(args).current_dir(&repo).output().unwrap();
            assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        git(&["init", "-q"]);
        git(&["add", "."]);
        git(&["-c", "user.email=b@example.invalid", "-c", "user.name=b", "commit", "-qm", "generated"]);
        for i in (0..2_000).step_by(40) {
            let mut text = std::fs::read_to_string(path(i)).unwrap();
            text.push_str("pub fn changed() {}\n");
            std::fs::write(path(i), text).unwrap();
        }
        let out = Command::new("git").args(["status", "--porcelain"]).current_dir(&repo).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 50, "50 modified files");
        repo
    })
}

#[divan::bench(sample_count = 50)]
fn session_start_git_2000_files_50_modified(bencher: Bencher) {
    let home = home();
    let repo = dirty_repo();
    static N: AtomicU64 = AtomicU64::new(0);
    let input = || {
        let id = N.fetch_add(1, Ordering::Relaxed);
        format!(r#"{{"session_id":"bench-git-{id}","source":"startup","hook_event_name":"SessionStart"}}"#)
    };
    let probe = input();
    hook("session-start", repo, home, probe.as_bytes());
    let id = probe.split('"').nth(3).unwrap().to_string();
    let binding: serde_json::Value =
        serde_json::from_slice(&std::fs::read(home.join(format!(".dossier/sessions/{id}.json"))).unwrap()).unwrap();
    assert_eq!(binding["work_start"]["dirty"], true, "the hook recorded the dirty HEAD: {binding}");
    bencher.with_inputs(input).bench_local_values(|i| hook("session-start", repo, home, i.as_bytes()));
}

#[divan::bench(sample_count = 50)]
fn git_status_session_start_repo(bencher: Bencher) {
    let repo = dirty_repo();
    bencher.bench_local(|| {
        let out = Command::new("git").args(["status", "--porcelain"]).current_dir(repo).output().unwrap();
        assert!(out.status.success());
        out
    });
}

#[divan::bench(sample_count = 50)]
fn process_spawn_floor(bencher: Bencher) {
    bencher.bench_local(|| Command::new("true").output().unwrap());
}

/// A generated 2,000-file git repository, a HOME with an initialised store (warm compile
/// cache), and a realistic transcript of a session that edited it.
struct CardFixture {
    home: PathBuf,
    repo: PathBuf,
    transcript: PathBuf,
}

fn card_fixture() -> &'static CardFixture {
    static F: OnceLock<CardFixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let home = dir.join("home");
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_dossier"))
            .args(["init", "--yes", "--no-self-install"])
            .env("HOME", &home)
            .env_remove("DOSSIER_HOME")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
        let repo = dir.join("repo");
        let areas = ["api", "billing", "search", "storage", "ui", "jobs", "reports", "users", "net", "util"];
        for i in 0..2_000 {
            let area = areas[i % areas.len()];
            let path = repo.join(format!("src/{area}/m{:03}/file_{i}.rs", i / 20));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let body: String = (0..40).map(|l| format!("pub fn f_{i}_{l}(x: u32) -> u32 {{ x + {l} }}\n")).collect();
            std::fs::write(&path, body).unwrap();
        }
        let git = |args: &[&str]| {
            let out = Command::new("git").args(args).current_dir(&repo).output().unwrap();
            assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        git(&["init", "-q"]);
        git(&["add", "."]);
        git(&["-c", "user.email=b@example.invalid", "-c", "user.name=b", "commit", "-qm", "generated"]);
        let transcript = dir.join("transcript.jsonl");
        std::fs::write(&transcript, transcript_text(&repo)).unwrap();
        let size = std::fs::metadata(&transcript).unwrap().len();
        let first = stop(&home, &repo, &transcript, "bench-probe");
        eprintln!("stop card fixture: 2,000 files, transcript {size} bytes; output: {first}");
        assert!(first.contains("codecall: "), "the bench measures the card path: {first}");
        CardFixture { home, repo, transcript }
    })
}

/// 30 turns as Claude Code records them: an API request line carrying the prompt (~40 KB), the
/// user's prompt, Reads with file contents, a Bash call, and Write/Edit calls with results.
fn transcript_text(repo: &Path) -> String {
    use serde_json::json;
    let mut out = String::new();
    let mut push = |v: serde_json::Value| {
        out.push_str(&v.to_string());
        out.push('\n');
    };
    let pad = "You are an agent working with the user toward their goals. ".repeat(680);
    let mut id = 0;
    let mut tool = |push: &mut dyn FnMut(serde_json::Value), name: &str, input: serde_json::Value, result: &str| {
        id += 1;
        let tid = format!("toolu_{id:04}");
        push(
            json!({"parentUuid": null, "isSidechain": false, "type": "assistant", "message": {"id": "msg", "type": "message",
            "role": "assistant", "model": "claude", "content": [{"type": "tool_use", "id": tid, "name": name, "input": input}],
            "stop_reason": "tool_use"}, "cwd": repo, "sessionId": "s", "version": "2.1.328"}),
        );
        push(json!({"parentUuid": null, "isSidechain": false, "type": "user", "message": {"role": "user", "content": [
            {"tool_use_id": tid, "type": "tool_result", "content": result}]}, "toolUseResult": {"filePath": input["file_path"]},
            "cwd": repo, "sessionId": "s", "version": "2.1.328"}));
    };
    let file_text = "pub fn f(x: u32) -> u32 { x + 1 }\n".repeat(100);
    for turn in 0..30 {
        push(json!({"type": "api-request", "sessionId": "s", "params": {"system": pad}}));
        push(
            json!({"type": "user", "message": {"role": "user", "content": format!("Turn {turn}: keep going")}, "cwd": repo}),
        );
        for r in 0..3 {
            let path = repo.join(format!("src/api/m{:03}/file_{}.rs", r, r * 20));
            tool(&mut push, "Read", json!({"file_path": path}), &file_text);
        }
        tool(&mut push, "Bash", json!({"command": "cargo test"}), "test result: ok. 12 passed");
        let area = ["net", "billing", "storage", "jobs"][turn % 4];
        let path = repo.join(format!("src/{area}/edited_{}.rs", turn % 5));
        let code = format!("pub fn handler_{turn}(x: u32) -> u32 {{\n    x * {turn}\n}}\n").repeat(20);
        // The files exist as the tools left them (the card reads their first bytes).
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, code.replacen(&format!("    x * {turn}\n"), &format!("    x * {turn} + 1\n"), 1))
            .unwrap();
        tool(&mut push, "Write", json!({"file_path": path, "content": code}), "File created successfully");
        tool(
            &mut push,
            "Edit",
            json!({"replace_all": false, "file_path": path, "old_string": format!("    x * {turn}\n"), "new_string": format!("    x * {turn} + 1\n")}),
            "The file has been updated successfully.",
        );
        if turn == 29 {
            let path = repo.join("src/api/auth/oauth_middleware.rs");
            let code = "pub struct OAuthMiddleware;\n\nimpl OAuthMiddleware {\n    pub fn check(token: &str) -> bool {\n        token.starts_with(\"Bearer \")\n    }\n}\n";
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, code).unwrap();
            tool(&mut push, "Write", json!({"file_path": path, "content": code}), "File created successfully");
        }
        push(
            json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "Done with this step."}]}}),
        );
    }
    out
}

fn stop(home: &Path, repo: &Path, transcript: &Path, session: &str) -> String {
    let input = serde_json::json!({
        "session_id": session, "transcript_path": transcript, "cwd": repo, "permission_mode": "default",
        "hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "Done."
    });
    hook("stop", repo, home, input.to_string().as_bytes())
}

#[divan::bench(sample_count = 50)]
fn stop_card_2000_files(bencher: Bencher) {
    let f = card_fixture();
    static N: AtomicU64 = AtomicU64::new(0);
    bencher.bench_local(|| {
        let session = format!("bench-card-{}", N.fetch_add(1, Ordering::Relaxed));
        stop(&f.home, &f.repo, &f.transcript, &session)
    });
}

#[divan::bench(sample_count = 50)]
fn stop_card_nothing_new(bencher: Bencher) {
    let f = card_fixture();
    stop(&f.home, &f.repo, &f.transcript, "bench-card-seen");
    bencher.bench_local(|| stop(&f.home, &f.repo, &f.transcript, "bench-card-seen"));
}

#[divan::bench(sample_count = 50)]
fn git_status_2000_files(bencher: Bencher) {
    let f = card_fixture();
    bencher.bench_local(|| {
        let out = Command::new("git").args(["status", "--porcelain"]).current_dir(&f.repo).output().unwrap();
        assert!(out.status.success());
        out
    });
}

//! Fixture repositories for the collector's tests: real `git init` / `git commit` in a temp dir,
//! with a hermetic git configuration (no system or global config, fixed identity and dates).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use dossier_evidence::{
    Changes, EvidenceError, EvidencePack, EvidenceRequest, ImplementationLocator, Redact, Redacted, Redaction,
    TokenCounter,
};

/// The redaction policy's rules natively (`dossier-core`, the code the component runs): what
/// the binary hands the collector, without the store.
pub struct Native;

impl Redact for Native {
    fn redact(&self, text: &str) -> Result<Redacted, String> {
        let options = dossier_core::redact::Options { key: &[7u8; 32], allow: &[] };
        let r = dossier_core::redact::redact(text, &options).map_err(|e| e.to_string())?;
        Ok(Redacted {
            text: r.text.unwrap_or_else(|| text.to_owned()),
            found: r
                .hits
                .into_iter()
                .map(|h| Redaction { kind: h.kind.to_string(), first_line: h.first_line, last_line: h.last_line })
                .collect(),
        })
    }
}

/// [`dossier_evidence::collect`] with the native rules.
pub fn collect(request: &EvidenceRequest) -> Result<EvidencePack, EvidenceError> {
    dossier_evidence::collect(request, &Native)
}

/// [`dossier_evidence::collect_with`] with the native rules.
pub fn collect_with(request: &EvidenceRequest, counter: &dyn TokenCounter) -> Result<EvidencePack, EvidenceError> {
    dossier_evidence::collect_with(request, counter, &Native)
}

pub struct Repo {
    pub dir: tempfile::TempDir,
}

impl Repo {
    pub fn new() -> Repo {
        let dir = tempfile::tempdir().expect("temp dir");
        let repo = Repo { dir };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new("git");
        cmd.current_dir(self.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "Test")
            .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
            .env("GIT_COMMITTER_NAME", "Test")
            .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .args(["-c", "commit.gpgsign=false", "-c", "core.autocrlf=false"])
            .args(args);
        cmd
    }

    /// Run git; panic with its stderr on failure; return stdout.
    pub fn git(&self, args: &[&str]) -> String {
        let out = self.command(args).output().expect("run git");
        assert!(out.status.success(), "git {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) {
        let path = self.path().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(path, content).expect("write");
    }

    pub fn remove(&self, rel: &str) {
        std::fs::remove_file(self.path().join(rel)).expect("remove");
    }

    /// Stage everything and commit; returns the commit id.
    pub fn commit(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.git(&["rev-parse", "HEAD"])
    }

    pub fn worktree_request(&self) -> EvidenceRequest {
        EvidenceRequest::new(ImplementationLocator {
            repo: self.path().to_owned(),
            changes: Changes::WorkingTree,
            task: None,
            located: None,
        })
    }

    pub fn range_request(&self, base: &str, head: &str) -> EvidenceRequest {
        EvidenceRequest::new(ImplementationLocator {
            repo: self.path().to_owned(),
            changes: Changes::Revisions { base: base.to_owned(), head: head.to_owned() },
            task: None,
            located: None,
        })
    }
}

pub fn repo_path(repo: &Repo) -> PathBuf {
    repo.path().to_owned()
}

/// The whole pack as JSON: what would leave the crate.
pub fn json(pack: &EvidencePack) -> String {
    serde_json::to_string_pretty(pack).expect("pack serialises")
}

/// A small Rust module with a few functions; `n` varies the body.
pub fn rust_module(name: &str, n: usize) -> String {
    let mut s = format!("//! Module {name}.\n\nuse std::collections::HashMap;\n\n");
    for i in 0..n {
        s.push_str(&format!(
            "pub fn {name}_step_{i}(input: &str) -> usize {{\n    let mut total = 0;\n    for c in input.chars() {{\n        total += c as usize * {i};\n    }}\n    total\n}}\n\n"
        ));
    }
    s
}

/// Every excerpt and hit ref verifies against the pack.
pub fn assert_refs_verify(pack: &EvidencePack) {
    for e in &pack.excerpts {
        pack.verify(&e.evidence).unwrap_or_else(|err| panic!("excerpt ref does not verify: {err}"));
    }
    for h in &pack.search.hits {
        pack.verify(&h.evidence).unwrap_or_else(|err| panic!("hit ref does not verify: {err}"));
    }
}

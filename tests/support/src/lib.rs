//! Shared helpers for the `dossier` crate's integration tests (tests/main.rs): a temp store,
//! writing real Dossier files, running the real `dossier` binary, and building the fixture
//! policy components. Also the workspace's module import-cycle check ([`cycles`]), whose
//! unit tests run over every crate's `src/`.
//!
//! Not for: product code (nothing outside tests depends on it), or finding the binary under
//! test: only the integration test knows `env!("CARGO_BIN_EXE_dossier")`, so it passes the
//! path in ([`TempStore::new`]).

pub mod claude;
pub mod cycles;
pub mod mcp;
pub mod secrets;
pub mod terminal;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The workspace root: this crate lives at `tests/support/`.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).unwrap().to_path_buf()
}

/// Build every fixture component under `tests/fixtures/policies` (once per test process)
/// and return the directory holding `<name>.wasm`.
pub fn fixture_policies() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = workspace_root();
        let target = root.join("target").join("fixture-policies");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| env!("CARGO").to_string());
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "--release", "--examples", "--target", "wasm32-wasip2"])
            .arg("--manifest-path")
            .arg(root.join("tests/fixtures/policies/Cargo.toml"))
            .arg("--target-dir")
            .arg(&target)
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("CARGO_BUILD_TARGET");
        let out = cmd.output().expect("run cargo to build fixture policies");
        assert!(
            out.status.success(),
            "building fixture policy components failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        target.join("wasm32-wasip2").join("release").join("examples")
    })
}

pub fn fixture(name: &str) -> PathBuf {
    let p = fixture_policies().join(format!("{name}.wasm"));
    assert!(p.is_file(), "fixture {} missing", p.display());
    p
}

/// A temporary store directory (not yet initialised).
pub struct TempStore {
    pub dir: tempfile::TempDir,
    root: PathBuf,
    bin: PathBuf,
}

impl TempStore {
    /// A new temp store whose commands run `dossier`, the binary under test (the
    /// integration test's `env!("CARGO_BIN_EXE_dossier")`).
    pub fn new(dossier: impl AsRef<Path>) -> TempStore {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("store");
        TempStore { dir, root, bin: dossier.as_ref().to_path_buf() }
    }

    /// The binary under test.
    pub fn bin(&self) -> &Path {
        &self.bin
    }

    /// The store root; it does not exist until `init`.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `dossier` with this store as `DOSSIER_HOME` and a clean HOME.
    pub fn cmd(&self) -> assert_cmd::Command {
        let mut c = assert_cmd::Command::new(&self.bin);
        c.env("DOSSIER_HOME", self.root()).env("HOME", self.dir.path().join("home")).env_remove("NO_COLOR");
        c
    }

    /// The same as `cmd`, as a `std::process::Command` (for spawning and killing).
    pub fn cmd_std(&self) -> std::process::Command {
        let mut c = std::process::Command::new(&self.bin);
        c.env("DOSSIER_HOME", self.root()).env("HOME", self.dir.path().join("home"));
        c.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
        c
    }

    pub fn init(&self) {
        self.cmd().args(["init", "--yes", "--no-self-install"]).assert().success();
    }

    pub fn write_config(&self, yaml: &str) {
        std::fs::write(self.root().join("config.yaml"), yaml).unwrap();
    }

    /// Write a real `dossier.md` with the SPEC's frontmatter.
    pub fn write_dossier(&self, d: &DossierSpec) {
        let dir = self.root().join(d.slug);
        std::fs::create_dir_all(dir.join("artifacts")).unwrap();
        let due = d.due_date.map(|d| format!("due_date: {d}\n")).unwrap_or_default();
        let text = format!(
            "---\nid: dos_{slug_id}\nname: {name}\nslug: {slug}\ncreated_at: 2026-01-01T00:00:00Z\n\
             updated_at: {updated}\nlast_touched_at: {touched}\nstatus: {status}\nlead: \"Alice\"\n\
             next_action: \"Next step for {name}\"\nopen_questions: []\nimportance: {imp}\nurgency: {urg}\n{due}---\n\n\
             # {name}\n\n## Situation\n\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n",
            slug_id = d.slug.replace('-', "").to_uppercase(),
            name = d.name,
            slug = d.slug,
            updated = d.updated_at,
            touched = d.last_touched_at,
            status = d.status,
            imp = d.importance,
            urg = d.urgency,
        );
        std::fs::write(dir.join("dossier.md"), text).unwrap();
    }

    /// `dossier ls --json` slugs in order.
    pub fn ls_slugs(&self, extra: &[&str]) -> Vec<String> {
        let out = self.cmd().args(["ls", "--json"]).args(extra).output().unwrap();
        assert!(out.status.success(), "ls failed: {}", String::from_utf8_lossy(&out.stdout));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["data"]["dossiers"].as_array().unwrap().iter().map(|d| d["slug"].as_str().unwrap().to_string()).collect()
    }
}

pub struct DossierSpec<'a> {
    pub slug: &'a str,
    pub name: &'a str,
    pub status: &'a str,
    pub importance: &'a str,
    pub urgency: &'a str,
    pub last_touched_at: &'a str,
    pub updated_at: &'a str,
    pub due_date: Option<&'a str>,
}

impl<'a> DossierSpec<'a> {
    pub fn new(slug: &'a str, importance: &'a str, urgency: &'a str) -> Self {
        DossierSpec {
            slug,
            name: slug,
            status: "active",
            importance,
            urgency,
            last_touched_at: "2026-01-02T00:00:00Z",
            updated_at: "2026-01-02T00:00:00Z",
            due_date: None,
        }
    }
}

pub fn json_of(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

/// Every file under `root` except the derived policy cache, with its bytes, sorted: for
/// asserting that an operation wrote nothing (or exactly what it should).
pub fn snapshot(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.ends_with(".cache") {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.strip_prefix(root).unwrap().display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// A tmux server on its own socket with one session `t`, killed on drop: the real terminal
/// the interactive tests type into (`send-keys`) and read (`capture-pane`).
pub struct Tmux {
    pub socket: String,
}

impl Tmux {
    /// Start `command` in a `width`×`height` window.
    pub fn start(name: &str, width: u16, height: u16, command: &str) -> Tmux {
        let tmux = Tmux { socket: format!("dossier-{name}-{}", std::process::id()) };
        let ok = tmux
            .cmd()
            .args(["new-session", "-d", "-s", "t", "-x", &width.to_string(), "-y", &height.to_string(), command])
            .status()
            .expect("tmux runs (the README's test command installs it)");
        assert!(ok.success(), "tmux new-session");
        tmux
    }

    pub fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket]);
        c
    }

    /// Send keys by tmux name (`Enter`, `Escape`, `C-c`, `Down`, or a plain character).
    pub fn keys(&self, keys: &[&str]) {
        for k in keys {
            assert!(self.cmd().args(["send-keys", "-t", "t", k]).status().unwrap().success());
            std::thread::sleep(std::time::Duration::from_millis(150));
        }
    }

    /// Type `text` literally.
    pub fn type_text(&self, text: &str) {
        assert!(self.cmd().args(["send-keys", "-t", "t", "-l", "--", text]).status().unwrap().success());
        std::thread::sleep(std::time::Duration::from_millis(150));
    }

    pub fn screen(&self) -> String {
        let out = self.cmd().args(["capture-pane", "-p", "-t", "t"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The screen with its colours and attributes as escape sequences.
    pub fn screen_escaped(&self) -> String {
        let out = self.cmd().args(["capture-pane", "-p", "-e", "-t", "t"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A tmux format of the pane, e.g. `#{alternate_on}`.
    pub fn pane(&self, format: &str) -> String {
        let out = self.cmd().args(["display-message", "-p", "-t", "t", format]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Wait until the screen satisfies `pred` (a generous bound: a slow machine is not a
    /// failure, a screen that never shows it is).
    pub fn wait(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let start = std::time::Instant::now();
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            assert!(start.elapsed().as_secs() < 60, "never saw {what} on screen:\n{s}");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }

    pub fn wait_for(&self, text: &str) -> String {
        self.wait(&format!("{text:?}"), |s| s.contains(text))
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").status();
    }
}

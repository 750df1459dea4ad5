//! The real Claude Code CLI, offline (technique in ../shared/DESIGN.md §4): the pinned binary,
//! the scripted Messages API on loopback (tests/e2e/scripted_api.py), and `claude` runs in a
//! clean environment with a temporary HOME. Shared by tests/claude_code.rs and tests/plugin.rs.
//! Not for: installing Claude Code (the README's test command does) or talking to the real API.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The pinned `claude` (tests/e2e/package.json).
pub fn claude() -> PathBuf {
    let p = super::workspace_root().join("tests/e2e/node_modules/.bin/claude");
    assert!(p.exists(), "{} missing: run the README's test command (npm ci --prefix tests/e2e)", p.display());
    p
}

/// The scripted API process, killed on drop.
pub struct Api(std::process::Child);

impl Drop for Api {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Start the scripted Messages API logging to `log` (`scenario` and `slug` select the
/// script); returns it and its port.
pub fn scripted_api(log: &Path, scenario: &[&str]) -> (Api, String) {
    let port_file = log.with_extension("port");
    let _ = std::fs::remove_file(&port_file);
    let api = Api(Command::new("python3")
        .arg(super::workspace_root().join("tests/e2e/scripted_api.py"))
        .arg(&port_file)
        .arg(log)
        .args(scenario)
        .stdout(Stdio::null())
        .spawn()
        .expect("start the scripted API"));
    let start = Instant::now();
    let port = loop {
        if let Ok(p) = std::fs::read_to_string(&port_file)
            && !p.is_empty()
        {
            break p;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "scripted API did not start");
        std::thread::sleep(Duration::from_millis(50));
    };
    (api, port)
}

/// The PATH `claude` runs with.
pub const PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// `claude -p` offline in `project` with `home`, against the API on `port`.
pub fn run_claude(home: &Path, project: &Path, port: &str, args: &[&str]) -> std::process::Output {
    run_claude_env(home, project, port, args, &[])
}

/// [`run_claude`] with extra environment variables (`PATH` among them replaces [`PATH`]).
pub fn run_claude_env(
    home: &Path,
    project: &Path,
    port: &str,
    args: &[&str],
    env: &[(&str, String)],
) -> std::process::Output {
    let mut cmd = Command::new(claude());
    cmd.args(args)
        .current_dir(project)
        .env_clear()
        .env("HOME", home)
        .env("PATH", PATH)
        .env("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{port}"))
        .env("ANTHROPIC_API_KEY", "sk-ant-e2e-dummy")
        .env("DISABLE_AUTOUPDATER", "1")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run claude")
}

/// A `claude` subcommand (`plugin install ...`) offline with `home`; asserts success.
pub fn claude_cli(home: &Path, args: &[&str]) -> String {
    let out = Command::new(claude())
        .args(args)
        .env_clear()
        .env("HOME", home)
        .env("PATH", PATH)
        .env("DISABLE_AUTOUPDATER", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run claude");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "claude {args:?} failed: {text}");
    text
}

/// A temporary `~/.claude.json` for `home`: onboarding done, `project` trusted (what makes
/// print mode run offline), plus `extra` keys.
pub fn seed_home(home: &Path, project: &Path, extra: serde_json::Value) {
    std::fs::create_dir_all(home).unwrap();
    std::fs::create_dir_all(project).unwrap();
    let mut config = serde_json::json!({
        "hasCompletedOnboarding": true,
        "theme": "dark",
        "projects": { project.display().to_string(): { "hasTrustDialogAccepted": true } },
    });
    if let serde_json::Value::Object(m) = extra {
        config.as_object_mut().unwrap().extend(m);
    }
    std::fs::write(home.join(".claude.json"), serde_json::to_vec_pretty(&config).unwrap()).unwrap();
}

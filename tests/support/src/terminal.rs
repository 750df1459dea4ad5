//! Running a command on a real terminal: a tmux server on its own socket, a pane of a
//! chosen size, and the raw bytes the program wrote to it (`pipe-pane`), escape sequences
//! included, so a test can see what a person's terminal received. Not for: the TUI tests'
//! single-session shell ([`crate::Tmux`]).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server on its own socket, killed on drop.
pub struct Tmux {
    pub socket: String,
}

impl Tmux {
    pub fn new(tag: &str) -> Tmux {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Tmux { socket: format!("dossier-{tag}-{}-{n}", std::process::id()) }
    }

    pub fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket]);
        c
    }

    /// Type `keys` (tmux key names, or literal text with `literal`) into pane `target`.
    pub fn send(&self, target: &str, keys: &[&str], literal: bool) {
        for k in keys {
            let mut c = self.cmd();
            c.args(["send-keys", "-t", target]);
            if literal {
                c.arg("-l");
            }
            assert!(c.arg(k).status().unwrap().success(), "tmux send-keys {k}");
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    pub fn screen(&self, target: &str) -> String {
        let out = self.cmd().args(["capture-pane", "-p", "-t", target]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn wait_for(&self, target: &str, text: &str, secs: u64) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen(target);
            if s.contains(text) {
                return s;
            }
            assert!(start.elapsed() < Duration::from_secs(secs), "never saw {text:?} on screen:\n{s}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Start `program` (an interactive shell, ...) in a new `width`×`height` session `name`.
    pub fn start(&self, name: &str, width: u16, height: u16, cwd: &Path, program: &str) {
        let ok = self
            .cmd()
            .args(["new-session", "-d", "-s", name, "-x", &width.to_string(), "-y", &height.to_string(), "-c"])
            .arg(cwd)
            .arg(program)
            .status()
            .unwrap();
        assert!(ok.success(), "tmux new-session {program}");
    }

    /// Run `script` (sh) on a `width`-column terminal with only `env` (plus PATH) in its
    /// environment, and return every byte it wrote to the terminal. The script starts only
    /// once the pane's output is being recorded.
    pub fn run_raw(&self, dir: &Path, width: u16, env: &[(&str, &str)], script: &str) -> Vec<u8> {
        let n = {
            static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        };
        let name = format!("run{n}");
        let log = dir.join(format!("{name}.raw"));
        let body = dir.join(format!("{name}.sh"));
        let vars: String = env.iter().map(|(k, v)| format!("{k}={} ", shell_quote(v))).collect();
        std::fs::write(
            &body,
            format!(
                "read go\nenv -i PATH=/usr/local/bin:/usr/bin:/bin {vars}sh -c {}\necho \"__END__$?\"\nsleep 600\n",
                shell_quote(script)
            ),
        )
        .unwrap();
        self.start(&name, width, 40, dir, &format!("sh {}", shell_quote(&body.display().to_string())));
        let piped = self
            .cmd()
            .args(["pipe-pane", "-o", "-t", &name])
            .arg(format!("cat >> {}", shell_quote(&log.display().to_string())))
            .status()
            .unwrap();
        assert!(piped.success(), "tmux pipe-pane");
        std::thread::sleep(Duration::from_millis(300));
        self.send(&name, &["Enter"], false);
        let start = Instant::now();
        loop {
            let raw = std::fs::read(&log).unwrap_or_default();
            if raw.windows(7).any(|w| w == b"__END__") {
                let _ = self.cmd().args(["kill-session", "-t", &name]).stderr(std::process::Stdio::null()).status();
                return raw;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "the command never finished:\n{}",
                String::from_utf8_lossy(&raw)
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").stderr(std::process::Stdio::null()).status();
    }
}

/// `s` quoted for sh.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

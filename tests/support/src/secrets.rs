//! Synthetic secrets for issue 20's tests: format-valid values of well-known kinds (a GitHub
//! token, an AWS access key id, a PEM private key, a password in a `.env`, credentials in a
//! URL), built at run time from a seeded generator — never real credentials, never a literal a
//! secret scanner would flag in this repository — and a walk of a whole store that says which
//! file holds which of them.
//!
//! Not for: measuring the policy's coverage (core's calibration corpus and the held-out
//! evaluation do that).

use std::path::Path;

const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `n` characters of `alphabet`, pseudo-random from `seed`.
pub fn chars(seed: u64, n: usize, alphabet: &[u8]) -> String {
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            alphabet[((x >> 33) % alphabet.len() as u64) as usize] as char
        })
        .collect()
}

/// One set of fake secrets.
pub struct Fakes {
    pub github: String,
    pub aws_id: String,
    pub password: String,
    pub url_password: String,
    pub key_lines: Vec<String>,
}

impl Fakes {
    pub fn new(seed: u64) -> Fakes {
        Fakes {
            github: format!("ghp_{}", chars(seed, 36, ALNUM)),
            aws_id: format!("AKIA{}", chars(seed + 1, 16, UPPER)),
            password: chars(seed + 2, 18, ALNUM),
            url_password: chars(seed + 3, 14, ALNUM),
            key_lines: (0..4).map(|i| chars(seed + 10 + i, 64, B64)).collect(),
        }
    }

    /// A PEM private key block (6 lines, newline-terminated).
    pub fn pem(&self) -> String {
        format!("-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----\n", self.key_lines.join("\n"))
    }

    /// Every value that must never reach a file of the store.
    pub fn values(&self) -> Vec<String> {
        let mut v = vec![self.github.clone(), self.aws_id.clone(), self.password.clone(), self.url_password.clone()];
        v.extend(self.key_lines.iter().cloned());
        v
    }

    /// A `.env` file holding all of them (11 lines: the key on lines 5–10).
    pub fn env_file(&self) -> String {
        format!(
            "# deploy settings\nAPP_NAME=billing\nDB_PASSWORD={}\nAWS_ACCESS_KEY_ID={}\n{}GITHUB_TOKEN={}\n",
            self.password,
            self.aws_id,
            self.pem(),
            self.github
        )
    }

    /// A clone URL with credentials in it.
    pub fn url(&self) -> String {
        format!("https://deploy:{}@git.corp.test/billing.git", self.url_password)
    }
}

/// Every file under `root` (recursively, caches included) holding one of `values`: (path
/// relative to `root`, the value's index). Empty: no file holds any.
pub fn leaks(root: &Path, values: &[String]) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
            for (i, v) in values.iter().enumerate() {
                if text.contains(v.as_str()) {
                    out.push((p.strip_prefix(root).unwrap().display().to_string(), i));
                }
            }
        }
    }
    out.sort();
    out
}

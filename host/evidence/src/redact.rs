//! Secret redaction: every string that leaves the crate (excerpts, search hits, paths, symbol
//! names, the task text, error messages) goes through [`Redactor::redact`] first.
//!
//! A match is replaced by `[REDACTED:<kind>]` followed by as many newlines as it spanned, so line
//! numbers after a multi-line match (a private key block) stay true. Whole files are redacted
//! before excerpts are cut from them, so a window that starts in the middle of a key block cannot
//! show its tail. Kinds: `private_key`, `aws_access_key_id`, `aws_secret_access_key`,
//! `github_token`, `gitlab_token`, `slack_token`, `slack_webhook`, `stripe_key`,
//! `anthropic_key`, `openai_key`, `google_api_key`, `npm_token`, `jwt`, `url_credentials`, and
//! `assignment` (a value assigned to a key named like `password`, `secret`, `token`, `api_key`,
//! ..., when it looks random: at least 8 characters (10 unquoted), letters and digits, Shannon
//! entropy ≥ 3 bits per character, not a `$`/`%`/`{` template and not a call).
//!
//! Not for: guaranteeing that no secret ever passes. The rules are patterns for well-known token
//! formats plus one entropy heuristic; a low-entropy password, a secret in an unknown format or a
//! key split across strings passes through. Sensitive *files* are withheld by `privacy.rs`, which
//! is the stronger guarantee.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::{Captures, Regex};

/// One rule: a pattern and, optionally, the capture group that holds the secret (else the whole
/// match is the secret) and a check the secret must pass.
struct Rule {
    kind: &'static str,
    pattern: &'static str,
    groups: &'static [&'static str],
    check: Option<fn(&Captures<'_>, &str) -> bool>,
}

const RULES: &[Rule] = &[
    Rule {
        kind: "private_key",
        pattern: r"(?s)-----BEGIN[A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----.*?(?:-----END[A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|\z)",
        groups: &[],
        check: None,
    },
    Rule {
        kind: "aws_access_key_id",
        pattern: r"(?-u:\b)(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16}(?-u:\b)",
        groups: &[],
        check: None,
    },
    Rule {
        kind: "aws_secret_access_key",
        pattern: r#"(?im)(?:aws[_\-.]?)?secret[_\-.]?(?:access[_\-.]?)?key["']?\s*(?::=|=>|=|:)\s*["']?(?P<secret>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)"#,
        groups: &["secret"],
        check: None,
    },
    Rule {
        kind: "github_token",
        pattern: r"(?-u:\b)(?:(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255})(?-u:\b)",
        groups: &[],
        check: None,
    },
    Rule {
        kind: "gitlab_token",
        pattern: r"(?-u:\b)(?:glpat|gldt|glrt|glptt|glft|glsoat|glcbt|glimt|glagent)-[A-Za-z0-9_\-]{20,}",
        groups: &[],
        check: None,
    },
    Rule { kind: "slack_token", pattern: r"(?-u:\b)xox[abeoprs]-[A-Za-z0-9\-]{10,}", groups: &[], check: None },
    Rule {
        kind: "slack_webhook",
        pattern: r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_\-]+",
        groups: &[],
        check: None,
    },
    Rule {
        kind: "stripe_key",
        pattern: r"(?-u:\b)(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})(?-u:\b)",
        groups: &[],
        check: None,
    },
    Rule { kind: "anthropic_key", pattern: r"(?-u:\b)sk-ant-[A-Za-z0-9_\-]{20,}", groups: &[], check: None },
    Rule {
        kind: "openai_key",
        pattern: r"(?-u:\b)sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}",
        groups: &[],
        check: Some(has_letter_and_digit),
    },
    Rule { kind: "google_api_key", pattern: r"(?-u:\b)AIza[0-9A-Za-z_\-]{35}", groups: &[], check: None },
    Rule { kind: "npm_token", pattern: r"(?-u:\b)npm_[A-Za-z0-9]{36}(?-u:\b)", groups: &[], check: None },
    Rule {
        kind: "jwt",
        pattern: r"(?-u:\b)eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]*",
        groups: &[],
        check: None,
    },
    Rule {
        kind: "url_credentials",
        pattern: r#"(?i)(?-u:\b)[a-z][a-z0-9+.\-]*://[^\s/:@"'<>]+:(?P<secret>[^\s/@"'<>]+)@"#,
        groups: &["secret"],
        check: Some(not_a_placeholder),
    },
    Rule {
        kind: "assignment",
        pattern: r#"(?i)(?:password|passwd|pwd|secret|token|api[_\-]?key|apikey|access[_\-]?key|auth[_\-]?key|private[_\-]?key|client[_\-]?secret|credential)s?[A-Za-z0-9_.\-]*["']?\s*(?::=|=>|=|:)\s*(?:["'](?P<quoted>[^"'\s]{8,})["']|(?P<bare>[^\s"',;(){}\[\]<>]{10,})(?P<call>\()?)"#,
        groups: &["quoted", "bare"],
        check: Some(random_looking_assignment),
    },
];

fn has_letter_and_digit(_: &Captures<'_>, s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_digit()) && s.bytes().any(|b| b.is_ascii_alphabetic())
}

fn not_a_placeholder(_: &Captures<'_>, s: &str) -> bool {
    !(s.starts_with('$') || s.starts_with('{') || s.starts_with('%') || s.starts_with('<') || s == "*" || s.is_empty())
}

fn random_looking_assignment(caps: &Captures<'_>, value: &str) -> bool {
    if caps.name("call").is_some() {
        return false;
    }
    if value.starts_with(['$', '%', '{', '<', '@']) || value.contains("[REDACTED:") {
        return false;
    }
    has_letter_and_digit(caps, value) && shannon_entropy(value) >= 3.0
}

/// Bits per character of `s`.
pub fn shannon_entropy(s: &str) -> f64 {
    let mut counts: BTreeMap<char, usize> = BTreeMap::new();
    let mut n = 0usize;
    for c in s.chars() {
        *counts.entry(c).or_default() += 1;
        n += 1;
    }
    if n == 0 {
        return 0.0;
    }
    counts
        .values()
        .map(|&k| {
            let p = k as f64 / n as f64;
            -p * p.log2()
        })
        .sum()
}

/// The compiled rules.
pub struct Redactor {
    regexes: Vec<Regex>,
}

static DEFAULT: LazyLock<Redactor> = LazyLock::new(Redactor::compile);

impl Redactor {
    /// The shared, compiled default rules.
    pub fn global() -> &'static Redactor {
        &DEFAULT
    }

    fn compile() -> Redactor {
        let regexes = RULES.iter().map(|r| Regex::new(r.pattern).expect("redaction pattern compiles")).collect();
        Redactor { regexes }
    }

    /// `text` with every secret replaced, and where: one [`Redaction`] per replacement, with the
    /// lines it covers (line numbers are the same before and after, replacements keep them).
    pub fn redact_text<'t>(&self, text: &'t str) -> (Cow<'t, str>, Vec<Redaction>) {
        let mut found = Vec::new();
        let mut out = Cow::Borrowed(text);
        for (rule, re) in RULES.iter().zip(&self.regexes) {
            if !re.is_match(&out) {
                continue;
            }
            let current: &str = &out;
            let mut starts: Option<Vec<usize>> = None;
            let mut hits = Vec::new();
            let replaced = re.replace_all(current, |caps: &Captures<'_>| {
                let whole = caps.get(0).expect("group 0");
                let secret = rule.groups.iter().find_map(|g| caps.name(g)).unwrap_or(whole);
                if let Some(check) = rule.check
                    && !check(caps, secret.as_str())
                {
                    return whole.as_str().to_owned();
                }
                let starts = starts.get_or_insert_with(|| line_starts(current));
                let first = starts.partition_point(|&s| s <= secret.start()) as u32;
                let newlines = secret.as_str().matches('\n').count() as u32;
                hits.push(Redaction { kind: rule.kind, first_line: first, last_line: first + newlines });
                let mut s = String::with_capacity(whole.len());
                s.push_str(&whole.as_str()[..secret.start() - whole.start()]);
                s.push_str("[REDACTED:");
                s.push_str(rule.kind);
                s.push(']');
                for _ in 0..newlines {
                    s.push('\n');
                }
                s.push_str(&whole.as_str()[secret.end() - whole.start()..]);
                s
            });
            if !hits.is_empty() {
                let replaced = replaced.into_owned();
                found.extend(hits);
                out = Cow::Owned(replaced);
            }
        }
        found.sort_by_key(|r| (r.first_line, r.kind));
        (out, found)
    }

    /// `text` with every secret replaced; `counts[kind]` is incremented per replacement.
    pub fn redact<'t>(&self, text: &'t str, counts: &mut BTreeMap<String, u64>) -> Cow<'t, str> {
        let (out, found) = self.redact_text(text);
        for r in found {
            *counts.entry(r.kind.to_owned()).or_default() += 1;
        }
        out
    }
}

/// One replacement: its kind and the 1-based lines the secret covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Redaction {
    pub kind: &'static str,
    pub first_line: u32,
    pub last_line: u32,
}

/// Byte offsets at which lines start.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
}

/// Redact a message (an error, a requested revision name) with no counting.
pub(crate) fn redact_message(text: &str) -> String {
    Redactor::global().redact(text, &mut BTreeMap::new()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> (String, BTreeMap<String, u64>) {
        let mut counts = BTreeMap::new();
        let out = Redactor::global().redact(text, &mut counts).into_owned();
        (out, counts)
    }

    #[test]
    fn known_token_formats() {
        let cases = [
            ("key = AKIAIOSFODNN7EXAMPLE;", "aws_access_key_id", "AKIAIOSFODNN7EXAMPLE"),
            (
                "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
                "aws_secret_access_key",
                "wJalrXUtnFEMI",
            ),
            ("t = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'", "github_token", "ghp_abcdef"),
            ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_token", "github_pat_11"),
            ("glpat-abcdefghij0123456789xy", "gitlab_token", "glpat-"),
            ("xoxb-1234567890-abcdefghij", "slack_token", "xoxb-"),
            ("https://hooks.slack.com/services/T000/B000/XXXXXXXX", "slack_webhook", "hooks.slack"),
            ("sk_live_abcdefghijklmnop1234", "stripe_key", "sk_live_"),
            ("sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345", "anthropic_key", "sk-ant-"),
            ("sk-proj-abcdefghijklmnop1234567890", "openai_key", "sk-proj-"),
            ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "google_api_key", "AIzaSy"),
            ("npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm_token", "npm_abc"),
            (
                "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
                "jwt",
                "eyJhbGci",
            ),
            ("postgres://admin:s3cr3tP4ss@db:5432/x", "url_credentials", "s3cr3tP4ss"),
            ("DB_PASSWORD=Xk9mP2qL7wZ", "assignment", "Xk9mP2qL7wZ"),
            ("api_key: \"a8f5f167f44f4964e6c998dee827110c\"", "assignment", "a8f5f167"),
        ];
        for (text, kind, leaked) in cases {
            let (out, counts) = run(text);
            assert!(!out.contains(leaked), "{kind}: {out}");
            assert!(out.contains(&format!("[REDACTED:{kind}]")), "{kind}: {out}");
            assert_eq!(counts.get(kind), Some(&1), "{kind}: {counts:?}");
        }
    }

    #[test]
    fn private_key_block_keeps_line_count() {
        let text = "a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabcdef\n-----END RSA PRIVATE KEY-----\nb\n";
        let (out, counts) = run(text);
        assert_eq!(out, "a\n[REDACTED:private_key]\n\n\n\nb\n");
        assert_eq!(counts["private_key"], 1);
        // An unterminated block is redacted to the end.
        let (out, _) = run("x\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\nmore\n");
        assert_eq!(out, "x\n[REDACTED:private_key]\n\n\n");
    }

    #[test]
    fn redactions_report_their_lines() {
        let text = "a\nkey = AKIAIOSFODNN7EXAMPLE\n-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\nb\n";
        let (out, found) = Redactor::global().redact_text(text);
        assert_eq!(out.lines().count(), text.lines().count());
        assert_eq!(
            found,
            [
                Redaction { kind: "aws_access_key_id", first_line: 2, last_line: 2 },
                Redaction { kind: "private_key", first_line: 3, last_line: 5 },
            ]
        );
    }

    #[test]
    fn ordinary_code_is_left_alone() {
        for text in [
            "let token = lexer.next_token();",
            "token = os.environ.get(\"TOKEN\")",
            "password = prompt_password2(user)",
            "max_tokens: 4096",
            "secret: ${{ secrets.DEPLOY_KEY }}",
            "password = \"changeme\"",
            "fn tokenize(input: &str) -> Vec<Token> {",
            "const PASSWORD_MIN_LENGTH = 12;",
            "https://example.com/path:with@sign",
            "task-list-component-with-a-long-name-2024",
        ] {
            let (out, counts) = run(text);
            assert_eq!(out, text, "{counts:?}");
        }
    }

    #[test]
    fn entropy() {
        assert_eq!(shannon_entropy(""), 0.0);
        assert_eq!(shannon_entropy("aaaa"), 0.0);
        assert!((shannon_entropy("abcdefgh") - 3.0).abs() < 1e-9);
    }
}

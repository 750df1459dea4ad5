//! Unit tests of the redaction policy: today's evidence rules (same kinds), markers, line
//! preservation, JSON-escaped text, the allowlist, idempotence. The calibration corpus is
//! tested in `core/tests/redaction.rs`.

use super::*;

const KEY: [u8; 32] = [7; 32];

fn run(text: &str) -> Redaction {
    redact(text, &Options { key: &KEY, allow: &[] }).expect("redacts")
}

fn out(text: &str) -> String {
    run(text).text.unwrap_or_else(|| text.to_string())
}

/// A GitHub-shaped token built from parts (push protection).
fn ghp() -> String {
    format!("ghp_{}", "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4")
}

#[test]
fn every_rule_compiles() {
    scan::compile_all();
    assert!(kinds().len() > 40);
}

#[test]
fn the_evidence_rules_formats_keep_their_kinds() {
    let cases = [
        ("key = AKIAIOSFODNN7EXAMPLE;", "aws_access_key_id", "AKIAIOSFODNN7EXAMPLE"),
        (
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
            "aws_secret_access_key",
            "wJalrXUtnFEMI",
        ),
        (&format!("t = '{}'", ghp()), "github_token", "ghp_aB3"),
        ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_token", "github_pat_11"),
        ("glpat-abcdefghij0123456789xy", "gitlab_token", "glpat-"),
        ("xoxb-1234567890-abcdefghij", "slack_token", "xoxb-"),
        (
            "https://hooks.slack.com/services/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",
            "slack_webhook",
            "hooks.slack",
        ),
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
        let r = run(text);
        let o = r.text.clone().unwrap_or_default();
        assert!(!o.contains(leaked), "{kind}: {o}");
        assert!(o.contains(&format!("[REDACTED:{kind}:")), "{kind}: {o}");
        assert_eq!(r.hits.len(), 1, "{kind}: {:?}", r.hits);
        assert_eq!(r.hits[0].kind, kind);
    }
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
        "see art_01J9ZK3M4N5P6Q7R8S9T0V1W2X and dos_01J9ZK3M4N5P6Q7R8S9T0V1W2X",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b",
        "\"integrity\": \"sha512-Q5sHe3l1TZ1+ArUzbPlWm0x3SzC9WHZ4kWdtcnNvZm9vYmFyYmF6cXV4cXV1eA==\"",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

#[test]
fn markers_are_keyed_and_stable() {
    let text = format!("a {} b {}", ghp(), ghp());
    let r = run(&text);
    assert_eq!(r.hits.len(), 2);
    assert_eq!(r.hits[0].marker, r.hits[1].marker);
    let other = redact(&text, &Options { key: &[8; 32], allow: &[] }).unwrap();
    assert_ne!(other.hits[0].marker, r.hits[0].marker);
    let m = &r.hits[0].marker;
    assert_eq!(r.text.unwrap(), format!("a {m} b {m}"));
    assert_eq!(redact("x", &Options { key: &[0; 16], allow: &[] }), Err(Error::KeyLength(16)));
}

const PEM: &str = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1b2c3d4e5f6g7h8i9j0\nZ2V0IHJpZCBvZiB0aGlzIGtleQ==\n-----END RSA PRIVATE KEY-----";

#[test]
fn a_secret_over_n_lines_becomes_n_markers() {
    let text = format!("a\n{PEM}\nb\n");
    let r = run(&text);
    assert_eq!(r.hits.len(), 1);
    let h = &r.hits[0];
    assert_eq!((h.kind, h.first_line, h.last_line), ("private_key", 2, 5));
    let m = &h.marker;
    assert_eq!(r.text.unwrap(), format!("a\n{m}\n{m}\n{m}\n{m}\nb\n"));
    // CRLF lines keep their carriage returns.
    let crlf = format!("a\r\n{}\r\nb", PEM.replace('\n', "\r\n"));
    let o = out(&crlf);
    assert_eq!(o.matches("\r\n").count(), crlf.matches("\r\n").count());
    assert_eq!(o.lines().count(), crlf.lines().count());
    // An unterminated block is redacted over the lines that look like key material only.
    let o = out(
        "x\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nQUJDREVGR0hJSktMTU5PUFFS\nThat was the key.\n",
    );
    assert!(o.ends_with("]\nThat was the key.\n"), "{o}");
    assert_eq!(o.lines().count(), 5);
}

#[test]
fn hits_report_their_lines() {
    let text = "a\nkey = AKIAIOSFODNN7EXAMPLE\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\nb\n";
    let r = run(text);
    let lines: Vec<_> = r.hits.iter().map(|h| (h.kind, h.first_line, h.last_line)).collect();
    assert_eq!(lines, [("aws_access_key_id", 2, 2), ("private_key", 3, 5)]);
    assert_eq!(r.text.unwrap().lines().count(), text.lines().count());
}

#[test]
fn json_escaped_secrets_leave_valid_json() {
    let pem = PEM.replace('\n', "\\n");
    let lines = [
        format!(r#"{{"type":"service_account","private_key":"{pem}\n","client_email":"x@y.iam.gserviceaccount.com"}}"#),
        format!(r#"{{"content":"line one\n{}\nline three"}}"#, ghp()),
        r#"{"content":"export DB_PASSWORD=Xk9mP2qL7wZ\nnext"}"#.to_string(),
        r#"{"content":"{\"api_key\": \"a8f5f167f44f4964e6c998dee827110c\"}"}"#.to_string(),
        r#"{"content":"curl -H \"Authorization: Bearer q8ZrDEF2Lm4pXghiJKL790\" https://api.example.com"}"#.to_string(),
        r#"{"content":"postgres://admin:s3cr3tP4ss\\@db/x and tab\tAKIAIOSFODNN7EXAMPLE\\"}"#.to_string(),
    ];
    for line in lines {
        let r = run(&line);
        let o = r.text.clone().unwrap_or_else(|| panic!("nothing found in {line}"));
        assert!(json_string_ok(&o), "{o}");
        assert!(!o.contains("MIIE") && !o.contains("aB3dE5") && !o.contains("Xk9mP2") && !o.contains("a8f5f1"), "{o}");
        assert!(!o.contains("q8ZrDEF2"), "{o}");
    }
}

/// Every backslash in a JSON string starts a valid escape (what `serde_json` would check;
/// core has no JSON parser: a minimal check of the escapes is enough here).
fn json_string_ok(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            match b.get(i + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                Some(b'u') if b.len() >= i + 6 && b[i + 2..i + 6].iter().all(u8::is_ascii_hexdigit) => i += 6,
                _ => return false,
            }
        } else {
            i += 1;
        }
    }
    true
}

#[test]
fn the_allowlist_keeps_a_value() {
    let text = format!("a {} b AKIAIOSFODNN7EXAMPLE", ghp());
    let allow = vec!["aB3dE5fG".to_string()];
    let r = redact(&text, &Options { key: &KEY, allow: &allow }).unwrap();
    assert_eq!(r.hits.len(), 1);
    assert_eq!(r.hits[0].kind, "aws_access_key_id");
}

#[test]
fn redacting_twice_changes_nothing() {
    let text = format!(
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nurl https://u:Pa55w0rdX@h/\n{PEM}\n{}\nDB_PASSWORD=Xk9mP2qL7wZ\n",
        ghp()
    );
    let once = out(&text);
    assert_ne!(once, text);
    let twice = run(&once);
    assert_eq!(twice.text, None, "{once}\n{:?}", twice.hits);
}

#[test]
fn nothing_on_the_never_list_is_redacted() {
    for text in [
        "artifact: art_01J9ZK3M4N5P6Q7R8S9T0V1W2X",
        "token: sess_01J9ZK3M4N5P6Q7R8S9T0V1W2X",
        "id: rev_01J9ZK3M4N5P6Q7R8S9T0V1W2X, conf_01J9ZK3M4N5P6Q7R8S9T0V1W2X, lrn_01J9ZK3M4N5P6Q7R8S9T0V1W2X",
        "key: 3f786850e387550fdab836ed7e6dc881de23001b",
        "token: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "image: node@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "\"hash\": \"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\"",
        "request_id = 123e4567-e89b-42d3-a456-426614174000",
        "build 01J9ZK3M4N5P6Q7R8S9T0V1W2X version 1.22.0-rc.1",
        "secret_file: /etc/app/secrets/db.key",
        "api_url = https://api.example.com/v1?key=value",
        "Never share your password or API token with anyone.",
        "API_KEY=<your-key>",
        "TOKEN=${GITHUB_TOKEN}",
        "PASSWORD=$(pass show db)",
        "password = \"%s\" % pw",
        "secret: \"{{ .Values.secret }}\"",
        "password: \"***\"",
        "api_key = \"example-api-key-123\"",
        "token = \"dummy-token-12345\"",
        "OPENAI_API_KEY=your_api_key_here",
        "SECRET=aaaaaaaaaaaaaaaaaaaa",
        "password: ********",
        "public_key: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "cache_key: v1-linux-9f86d081884c7d659a2feaa0c55ad015",
        "next_token: eyJvZmZzZXQiOjEwMH0",
        "[REDACTED:github_token:abcdefgh] [REDACTED:aws_secret_access_key:q2w3e4r5]",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

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

/// Each `(text, kind, leaked)`: `leaked` is gone, a hit of `kind` says so, the line count is
/// kept and redacting again finds nothing.
fn assert_caught<T: AsRef<str>>(cases: &[(T, &str, &str)]) {
    for (text, kind, leaked) in cases {
        let text = text.as_ref();
        let r = run(text);
        let o = r.text.clone().unwrap_or_default();
        assert!(!o.contains(leaked), "{kind}: {text}\n-> {o}\n{:?}", r.hits);
        assert!(r.hits.iter().any(|h| h.kind == *kind), "{kind}: {text}\n-> {o}\n{:?}", r.hits);
        assert_eq!(o.matches('\n').count(), text.matches('\n').count());
        assert_eq!(run(&o).text, None, "{kind}: redacting twice: {o}");
    }
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
        ("key = AKIAQ7R4XK2MZT5WB3NE;", "aws_access_key_id", "AKIAQ7R4XK2MZT5WB3NE"),
        ("aws_secret_access_key = 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\n", "aws_secret_access_key", "tG7pLq2Vx9Rz"),
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
    let text = "a\nkey = AKIAQ7R4XK2MZT5WB3NE\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\nb\n";
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
        r#"{"content":"postgres://admin:s3cr3tP4ss\\@db/x and tab\tAKIAQ7R4XK2MZT5WB3NE\\"}"#.to_string(),
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
    let text = format!("a {} b AKIAQ7R4XK2MZT5WB3NE", ghp());
    let allow = vec!["aB3dE5fG".to_string()];
    let r = redact(&text, &Options { key: &KEY, allow: &allow }).unwrap();
    assert_eq!(r.hits.len(), 1);
    assert_eq!(r.hits[0].kind, "aws_access_key_id");
}

#[test]
fn redacting_twice_changes_nothing() {
    let text = format!(
        "aws_secret_access_key = tG7pLq2Vx9Rz/K4mWn8Bc3Yd6Hs/Jf1Ua5Ke0Noi\nurl https://u:Pa55w0rdX@h/\n{PEM}\n{}\nDB_PASSWORD=Xk9mP2qL7wZ\n",
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

/// A provider token built from parts (push protection: no literal in the source is
/// format-valid).
fn tok(prefix: &str, body: &str) -> String {
    format!("{prefix}{body}")
}

/// Second round (issue 20): one case per structural cause of round 1's misses and per family
/// added, each with a value of this file's own.
#[test]
fn second_round_causes_are_caught() {
    let b64 = |s: &str| {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let b = s.as_bytes();
        let mut o = String::new();
        for c in b.chunks(3) {
            let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
            for i in 0..4 {
                if i <= c.len() {
                    o.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
                } else {
                    o.push('=');
                }
            }
        }
        o
    };
    let docker_auth = b64(&format!("ci-bot:{}", tok("dckr_pat_", "Qw3rTy7UiOp9AsDfGhJkL2zXcV")));
    let dockerconfig = b64(&format!(r#"{{"auths":{{"registry.example.test":{{"auth":"{docker_auth}"}}}}}}"#));
    let pem_b64 = b64(&format!("{PEM}\n"));
    let cases: Vec<(String, &str, String)> = vec![
        // Credentials in any URL scheme: an empty user name (`rediss://:pw@`).
        ("REDIS_URL=rediss://:Hq7vLm2XpR9sTw4Z@cache.internal:6380/0".into(), "url_credentials", "Hq7vLm2XpR9sTw4Z".into()),
        ("https://a9Fk2LmQ7pXr4ZtW8vNc3Hs6Jd1Eg5Ub:x-oauth-basic@git.internal/x.git".into(), "url_credentials", "a9Fk2LmQ7pXr4ZtW8vNc3Hs6".into()),
        // Tokens in a URL path of known API and webhook hosts.
        (
            "curl -s https://api.telegram.org/bot7712345678:AAHk3mPq9Zr2XwL5vT8nB4cY7dF1gJ6sK0e/getMe".into(),
            "telegram_bot_token",
            "AAHk3mPq9Zr2XwL5".into(),
        ),
        (
            "https://contoso.webhook.office.com/webhookb2/1f2e3d4c-1111-2222-3333-444455556666@9a8b7c6d-aaaa-bbbb-cccc-ddddeeeeffff/IncomingWebhook/3fa9c2e1b7d84f6a9c0e5b2d1a7f3e8c/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d".into(),
            "webhook_url",
            "3fa9c2e1b7d84f6a".into(),
        ),
        ("POST https://hooks.zapier.com/hooks/catch/4821937/b7xk2qp/".into(), "webhook_url", "b7xk2qp".into()),
        ("https://chat.internal/hooks/k3x9qz7ma1b8rt5wy2ve6hn4dc".into(), "webhook_url", "k3x9qz7ma1b8rt5wy2ve6hn4dc".into()),
        // Sensitive query parameters.
        (
            "https://bucket.s3.amazonaws.com/f.tgz?X-Amz-Expires=600&X-Amz-Signature=9b2f4c7e1a3d5f8b0c2e4a6d8f1b3c5e7a9d2f4b6c8e0a1c3e5f7b9d1f3a5c7e".into(),
            "url_signature",
            "9b2f4c7e1a3d5f8b".into(),
        ),
        ("GET /v2/report?format=csv&access_token=Zp4Kq8Wm2Tx6Rv9Ls3Bn7Hc1".into(), "assignment", "Zp4Kq8Wm2Tx6Rv9Ls3Bn7Hc1".into()),
        // Password arguments on command lines, also in an argv array.
        (r#"command: ["redis-server", "--requirepass", "Tq8mZk3Rv7Wp2Ls9"]"#.into(), "cli_secret", "Tq8mZk3Rv7Wp2Ls9".into()),
        ("redis-server --masterauth Jk4Ns8Qw2Ex6Rt0Y".into(), "cli_secret", "Jk4Ns8Qw2Ex6Rt0Y".into()),
        ("keytool -importkeystore -srcstorepass Wd3Fg7Hj1Kl5 -destkeystore x.jks".into(), "cli_secret", "Wd3Fg7Hj1Kl5".into()),
        ("openssl pkcs12 -in c.p12 -passin pass:Mz8Xc2Vb6Nq4 -nodes".into(), "cli_secret", "Mz8Xc2Vb6Nq4".into()),
        ("sqlcmd -S db.internal -U sa -P 'Rk5Tp9Lw3Qz7' -Q 'select 1'".into(), "cli_secret", "Rk5Tp9Lw3Qz7".into()),
        ("ldapsearch -x -D cn=admin -w Hb6Jn2Mk8Pq4 -b dc=x".into(), "cli_secret", "Hb6Jn2Mk8Pq4".into()),
        ("mysql -u root -p'Gv7Yh3Uj9Ik1' shop".into(), "cli_secret", "Gv7Yh3Uj9Ik1".into()),
        ("PGPASSWORD=Nq3Wx8Ez5Rc2 psql -h db -U app".into(), "assignment", "Nq3Wx8Ez5Rc2".into()),
        // .netrc, .pgpass and git-credentials lines.
        ("machine api.internal login deploy password Fp2Lk7Mz4Qx9".into(), "netrc_password", "Fp2Lk7Mz4Qx9".into()),
        ("machine api.internal\n  login deploy\n  password Fp2Lk7Mz4Qx9\n".into(), "netrc_password", "Fp2Lk7Mz4Qx9".into()),
        ("db.internal:5432:orders:app:Wv8Rt3Yq6Zp1".into(), "pgpass_password", "Wv8Rt3Yq6Zp1".into()),
        ("https://deploy:Cx5Vb9Nm3Kq7Lz2W@git.internal".into(), "url_credentials", "Cx5Vb9Nm3Kq7Lz2W".into()),
        // Headers of any `X-…-(Key|Token|Secret|Auth)` name.
        ("X-Algolia-API-Key: 5d8f2a7c9b1e4f6a3c8d0b2e7f9a1c4d".into(), "api_key_header", "5d8f2a7c9b1e".into()),
        (r#""X-Postmark-Server-Token": "0c9a8b7d-1e2f-4a3b-8c5d-6e7f8a9b0c1d""#.into(), "api_key_header", "0c9a8b7d-1e2f".into()),
        ("X-Hub-Signature: sha1=Zk3Lm8Pq2Rx7".into(), "api_key_header", "Zk3Lm8Pq2Rx7".into()),
        // Nested base64.
        (format!("  .dockerconfigjson: {dockerconfig}"), "base64_secret", dockerconfig[..24].to_string()),
        (format!("  tls.key: {pem_b64}"), "base64_secret", pem_b64[..24].to_string()),
        // Keyword-less tokens in prose.
        ("the integration key `8c1f5e3a9d7b2c4e6f0a1b3d5e7f9c2a` goes in the vault".into(), "prose_secret", "8c1f5e3a9d7b".into()),
        ("staging key AKIAQ7R4XK2MZT5WB3NE with secret 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".into(), "prose_secret", "Zq9/Kx3Lm7Wp".into()),
        ("The API token is Hj8Kl2Zx6Cv4Bn9Mq3Wp7Et1Ry5. Rotate it.".into(), "prose_secret", "Hj8Kl2Zx6Cv4Bn9Mq3Wp7Et1Ry5".into()),
        ("the admin password was Tulip-Harbor-42 until Friday".into(), "prose_secret", "Tulip-Harbor-42".into()),
        ("use Qm4Rz8Tx2Wp6Lk9B as the password for the staging db".into(), "prose_secret", "Qm4Rz8Tx2Wp6Lk9B".into()),
        // Escapes inside a quoted value.
        (r#"  "password": "Lk3\"Vb8\\Mz5q""#.into(), "assignment", r#"Lk3\"Vb8"#.into()),
        (r#"{"content":"{\"db_password\": \"Lk3\\\"Vb8\\\\Mz5q\"}"}"#.into(), "assignment", "Lk3".into()),
        // A dotted token is not code.
        (format!(r#"doppler_token = "{}""#, tok("dp.st.", "prd.Xr4Tq9Lm2Kw7Zp3Vn8Bc5Hs1Jf6Ua0Ke4Noi7Pq2W")), "doppler_token", "Xr4Tq9Lm2Kw7".into()),
        // More leak shapes: XML, key/value attributes, calls, SQL, cookies, config set, CSV.
        ("    <password>Bq7Wn3Xk9Lm2</password>".into(), "assignment", "Bq7Wn3Xk9Lm2".into()),
        (r#"<add key="ClearTextPassword" value="Hy5Tr8Qp2Zm6" />"#.into(), "assignment", "Hy5Tr8Qp2Zm6".into()),
        (r#"ds.setPassword("Jm3Kq8Wz5Xp1");"#.into(), "assignment", "Jm3Kq8Wz5Xp1".into()),
        ("define( 'DB_PASSWORD', 'Vn6Bt2Lq9Rx4' );".into(), "assignment", "Vn6Bt2Lq9Rx4".into()),
        (r#"os.environ.setdefault("API_KEY", "Rq5Lm8Zt2Wx7Kp3Vn9Bc4Hs")"#.into(), "assignment", "Rq5Lm8Zt2Wx7Kp3Vn9Bc4Hs".into()),
        ("CREATE ROLE app WITH LOGIN PASSWORD 'Pq4Zr8Mt2Lx6';".into(), "sql_password", "Pq4Zr8Mt2Lx6".into()),
        ("ALTER USER 'app'@'%' IDENTIFIED BY 'Lw7Kx3Nz9Qb5';".into(), "sql_password", "Lw7Kx3Nz9Qb5".into()),
        ("Cookie: theme=dark; sessionid=k3Zq8Lm2Wx7Rp4Tn9Vb5Hc1Jd6; lang=en".into(), "cookie_secret", "k3Zq8Lm2Wx7Rp4Tn9Vb5".into()),
        ("npm config set //registry.npmjs.org/:_authToken Tz8Kq3Lm7Wp2Rx9Vn4Bc6Hs1".into(), "cli_secret", "Tz8Kq3Lm7Wp2Rx9Vn4Bc6Hs1".into()),
        ("aws configure set aws_secret_access_key Qx7Lm2Kz9Wp4Rt8Vn3Bc6Hs1Jf5Ua0Ke3Noi7Pq".into(), "cli_secret", "Qx7Lm2Kz9Wp4".into()),
        ("User name,Access key ID,Secret access key\nci,AKIAQ7R4XK2MZT5WB3NE,Zq9/Kx3Lm7Wp2Rt8Vn4Bc6Hs1Jf5Ua0Ke3Noi7Pq".into(), "aws_secret_access_key", "Zq9/Kx3Lm7Wp".into()),
        ("mongosh --host db -u admin -p Kd8Wq3Zx7Lm2 admin".into(), "cli_secret", "Kd8Wq3Zx7Lm2".into()),
        ("zip -P Fv6Nq2Lx8Tz4 backup.zip dump.sql".into(), "cli_secret", "Fv6Nq2Lx8Tz4".into()),
        ("cmdkey /generic:build /user:ci /pass:Gt5Lq9Wz3Xm7".into(), "cli_secret", "Gt5Lq9Wz3Xm7".into()),
        (r#"$pw = ConvertTo-SecureString "Hn4Kx8Qz2Lw6" -AsPlainText -Force"#.into(), "cli_secret", "Hn4Kx8Qz2Lw6".into()),
        ("GITHUB_PAT=Lk8Zq3Wm7Xp2Rt9Vn4Bc6Hs1Jf5Ua0Ke".into(), "assignment", "Lk8Zq3Wm7Xp2".into()),
        ("DB_CREDS=Wq3Zx8Lm2Kp7Rt4Vn9Bc".into(), "assignment", "Wq3Zx8Lm2Kp7".into()),
        (tok("xoxc-", "1234567890-1234567890123-abcdefABCDEF0123456789"), "slack_token", "abcdefABCDEF".into()),
        (
            tok("AAAAq8Zt3Lm:APA91b", "Hq7vLm2XpR9sTw4ZKq8Wm2Tx6Rv9Ls3Bn7Hc1Zp4Kq8Wm2Tx6Rv9Ls3Bn7Hc1Zp4Kq8Wm2Tx6Rv9Ls3Bn7Hc1Zp4Kq8Wm2Tx6Rv9Ls3Bn7Hc1Zp4Kq8Wm2Tx6Rv9Ls3Bn7Hc1Z"),
            "fcm_server_key",
            "Hq7vLm2XpR9s".into(),
        ),
        ("machine api.internal login ci password Fp2Lk7Mz4Qx9\nmachine b".into(), "netrc_password", "Fp2Lk7Mz4Qx9".into()),
        // Vendor formats added (docs/privacy.md, "Formats added in the second round").
        (tok("lsv2_pt_", "0123456789abcdef0123456789abcdef_0a1b2c3d4e"), "langsmith_key", "0123456789abcdef0123".into()),
        (tok("pcsk_", "4Xq9z_Lm2Kw7Zp3Vn8Bc5Hs1Jf6Ua0Ke4Noi7Pq2WtR5yU8iO3pA6sD9fG2hJ"), "pinecone_key", "Lm2Kw7Zp3Vn8".into()),
        (tok("tvly-", "Xr4Tq9Lm2Kw7Zp3Vn8Bc5Hs1Jf6Ua0Ke4"), "tavily_key", "Xr4Tq9Lm2Kw7".into()),
        (tok("LTAI", "5tQ9zXk3Lm7Wp2Rt8Vn4"), "alibaba_access_key_id", "5tQ9zXk3Lm7W".into()),
        (tok("pul-", "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"), "pulumi_token", "0a1b2c3d4e5f6071".into()),
        (tok("dt0c01.", "OXYIMCFIP6NZB353Y5MZF5OB.R704YHQGEYYGDVPF57NJE8C5MJ32S9W1IKG8UW56MTJW7S6E68OWPASVORC1QYT0"), "dynatrace_token", "R704YHQGEYYG".into()),
        (tok("CFPAT-", "Xr4Tq9Lm2Kw7Zp3Vn8Bc5Hs1Jf6Ua0Ke4Noi7Pq2WtR"), "contentful_token", "Xr4Tq9Lm2Kw7".into()),
        (tok("figd_", "Xr4Tq9Lm2Kw7Zp3Vn8Bc5Hs1Jf6Ua0Ke4Noi7Pq2WtR"), "figma_token", "Xr4Tq9Lm2Kw7".into()),
        (tok("xkeysib-", "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9-Xr4Tq9Lm2Kw7Zp3V"), "sendinblue_key", "0a1b2c3d4e5f6071".into()),
        (tok("shippo_live_", "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"), "shippo_token", "0a1b2c3d4e5f6071".into()),
        (tok("FLWSECK_TEST-", "0a1b2c3d4e5f60718293a4b5c6d7e8f9-X"), "flutterwave_key", "0a1b2c3d4e5f6071".into()),
        (tok("access-production-", "0a1b2c3d-4e5f-4071-8293-a4b5c6d7e8f9"), "plaid_token", "0a1b2c3d-4e5f".into()),
        (tok("GR1348941", "Xr4Tq9Lm2Kw7Zp3Vn8Bc"), "gitlab_token", "Xr4Tq9Lm2Kw7".into()),
        (tok("0a1b2c3d4e5f60718293a4b5c6d7e8f9abcd", "NRAL"), "newrelic_key", "0a1b2c3d4e5f6071".into()),
        (tok("sgp_", "0a1b2c3d4e5f6071_0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"), "sourcegraph_token", "0a1b2c3d4e5f6071_".into()),
        (tok("pk_", "81234567_XR4TQ9LM2KW7ZP3VN8BC5HS1JF6UA0KE"), "clickup_token", "XR4TQ9LM2KW7".into()),
        (tok("rnd_", "Xr4Tq9Lm2Kw7Zp3Vn8Bc5Hs1Jf6Ua0Ke"), "render_key", "Xr4Tq9Lm2Kw7".into()),
    ];
    for (text, kind, leaked) in &cases {
        let r = run(text);
        let o = r.text.clone().unwrap_or_default();
        assert!(!o.contains(leaked.as_str()), "{kind}: {text}\n-> {o}\n{:?}", r.hits);
        assert!(r.hits.iter().any(|h| h.kind == *kind), "{kind}: {text}\n-> {o}\n{:?}", r.hits);
        assert_eq!(o.matches('\n').count(), text.matches('\n').count());
        assert_eq!(run(&o).text, None, "{kind}: redacting twice: {o}");
    }
}

/// Second round: what the new rules must leave alone (near-misses of each).
#[test]
fn second_round_near_misses_stay() {
    for text in [
        // Documented example keys and public-by-design values.
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "STRIPE_PUBLISHABLE_KEY=pk_live_51Hq7vLm2XpR9sTw4ZKq8Wm2Tx6Rv9Ls3Bn7Hc1Zp4Kq8Wm2Tx6Rv9Ls3Bn7Hc1",
        "\"publishableKey\": \"pk_test_51Hq7vLm2XpR9sTw4ZKq8Wm2Tx6Rv9Ls3Bn7Hc1\"",
        "RECAPTCHA_SITE_KEY=6LdXq8AaAAAAAJk3Lm7Wp2Rt8Vn4Bc6Hs1Jf5Ua0",
        // Prose about keys with identifiers, digests, public keys after the word.
        "the SSH key AAAAC3NzaC1lZDI1NTE5AAAAIHq7vLm2XpR9sTw4ZKq8Wm2Tx6Rv9Ls3Bn7Hc1Zp4K is on the bastion",
        "the public key is age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
        "the cache key v1-linux-9f86d081884c7d659a2feaa0c55ad015 was rebuilt",
        "key sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 signed",
        "the token was dos_01J9ZK3M4N5P6Q7R8S9T0V1W2X in the reply",
        "rotate the key 3f786850e387550fdab836ed7e6dc881de23001b after the merge",
        "the idempotency key 123e4567-e89b-42d3-a456-426614174000 dedupes retries",
        "the password is required-for-login and must be rotated",
        "the password was reset yesterday",
        "tokens are issued by the identity-provider-service on login",
        "use the key management service as the key store",
        "the GPG key 3AA5C34371567BD2 signs releases",
        "monkey ABCDEFGHIJKLMNOPQRST1234",
        // URLs, headers and flags that hold no secret.
        "https://api.telegram.org/bot<token>/getMe",
        "redis://:@localhost:6379/0",
        "X-Idempotency-Key: 7f3c2a1b-0d9e-4f8a-b6c5-d4e3f2a1b0c9",
        "X-Request-Id: 4bf92f3577b34da6a3ce929d0e0e4736",
        "https://example.com/search?q=rust&page=2&sort=desc",
        "redis-server --requirepass ${REDIS_PASSWORD}",
        "curl https://chat.internal/hooks/incoming",
        "localhost:5432:*:postgres:*",
        "  .dockerconfigjson: eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlLnRlc3QiOnt9fX0=",
        "machine api.internal login deploy password changeme",
        "the password manager is 1Password",
        // The new shapes' near-misses.
        "<password>${DB_PASSWORD}</password>",
        "<keyword>rust</keyword> <key>name</key>",
        r#"value = os.getenv("API_KEY", "")"#,
        r#"password = getpass("Password: ")"#,
        "CREATE ROLE app WITH LOGIN PASSWORD NULL;",
        "Cookie: theme=dark; lang=en-GB",
        "Set-Cookie: csrftoken=abc; Path=/",
        "npm config set registry https://registry.npmjs.org/",
        "AKIAIOSFODNN7EXAMPLE,wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "credit_card_last4 = 4242",
        "the credits roll at 9pm",
        "jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        "SLACK_BOT_TOKEN=xoxb-not-a-real-token-this-will-not-work",
        "FILE_PATH=/var/lib/app/data.db",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

/// Third round: contextual secrets, named by the syntax around them (docs/privacy.md,
/// "Third round"), each with its kind; JSON-escaped forms keep their JSON.
#[test]
fn third_round_contextual_secrets_are_caught() {
    let cases: Vec<(&str, &str, &str)> = vec![
        // Directives that name a value with a space.
        ("    SetEnv ACME_AUTH_TOKEN 9f2c4e7a1b3d5f8e0c2a4d6f8b1e3c5a", "assignment", "9f2c4e7a1b3d"),
        ("    SetEnv MAIL_SERVER_TOKEN 3b7d9f1a-2c4e-4a6b-8d0f-1e3a5c7b9d2f", "assignment", "3b7d9f1a-2c4e"),
        ("        set $cf_auth \"0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c\";", "assignment", "0a1b2c3d4e5f"),
        ("proxy_set_header Authorization \"Bearer Xr4Tq9Lm2Kw7Zp3Vn8Bc5Hs1\";", "assignment", "Xr4Tq9Lm2Kw7"),
        // .netrc's password of any shape, .pgpass escapes.
        (
            "machine git.heroku.com login a@b.test password 1b4e494d-1ca8-46da-a46c-e10253bf9e89",
            "netrc_password",
            "1b4e494d",
        ),
        ("replica.internal:6432:*:analytics:0gM9UyY0nc\\:S5i2bQm0swWe", "pgpass_password", "S5i2bQm0swWe"),
        // Names by their parts: a session cookie in JSON (a private key's id is an id since
        // round 4: `fourth_round_near_misses_stay`).
        (
            "\"cookies\": {\"sessionid\": \"8Plch-icEejgu0tvY6e8hWydKjgDQcZVDClVDN-gKES3Op9o\"}",
            "cookie_secret",
            "8Plch-icEejgu0",
        ),
        // Header lists in one string, a vendor header that says neither key nor token.
        ("\"Headers\": \"x-honeycomb-team=v7snqYPP4bFly0FSySvJFU\"", "api_key_header", "v7snqYPP4bFly0"),
        ("OTEL_EXPORTER_OTLP_HEADERS=api-key=Xr4Tq9Lm2Kw7Zp3Vn8Bc5Hs1,x-scope=prod", "api_key_header", "Xr4Tq9Lm2Kw7"),
        ("curl -H 'X-Honeycomb-Team: v7snqYPP4bFly0FSySvJFU' https://api.honeycomb.io", "api_key_header", "v7snqYPP4b"),
        // A call's keyword argument, named with its function.
        ("wandb.login(key=\"2772d8f07aafd255a6108e372c1d5c34470c7703\")", "assignment", "2772d8f07aaf"),
        ("Wandb.login(key: \"2772d8f07aafd255a6108e372c1d5c34470c7703\")", "assignment", "2772d8f07aaf"),
        // OAuth authorization codes in a query string.
        (
            "GET /oauth/callback?code=AoBhV2RNVLIu1obH3Y7BGKcJv3rx4QMVrF6EJBvB&state=0d90359a5e6430dc",
            "oauth_code",
            "AoBhV2RNVLIu",
        ),
        // Key/value siblings: Postman, a Kubernetes env list, a Terraform state.
        (
            "{\n  \"key\": \"x-API-key\",\n  \"value\": \"AQEJ0mfxKuzW8Nw0hE/w018rhyMhsflagh8tkv+oRK2LWu\"\n}",
            "assignment",
            "AQEJ0mfxKuzW",
        ),
        (
            "[{\"key\": \"password\", \"value\": \"E51dpGNLjQWWLS4SvPBQ6vp3UgCgHOk8\", \"type\": \"string\"}]",
            "assignment",
            "E51dpGNLjQWW",
        ),
        ("env:\n  - name: DB_PASSWORD\n    value: \"Hq7#vLm2!XpR9sTw\"\n", "assignment", "Hq7#vLm2"),
        (
            "{\"type\": \"cloudflare_api_token\",\n \"name\": \"dns_edit\",\n \"instances\": [{\"attributes\": {\n  \"id\": \"e9b5a6bd420bddb23d5de95284b0e723\",\n  \"value\": \"nbCuSGg9yod2uPfG0Z4S6U98jGnYZ7XstwRZn50a\"}}]}",
            "assignment",
            "nbCuSGg9yod2",
        ),
        (
            "\"outputs\": {\n  \"db_password\": {\n    \"value\": \"Hq7#vLm2!XpR9sTw\",\n    \"sensitive\": true\n  }\n}",
            "assignment",
            "Hq7#vLm2",
        ),
        // A Sentry event's header pairs.
        ("\"headers\": [[\"Authorization\", \"Bearer Xr4Tq9Lm2Kw7Zp3Vn8Bc5Hs1\"]]", "auth_header", "Xr4Tq9Lm2Kw7"),
        // Key formats: a PuTTY .ppk private block.
        (
            "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nkUxo+v+B/xv2uKg2RBiYu34LP6TBzvYqmdbUv3RABcxfYNdfWD+uQVvA6ZGFwdYC\nPrivate-MAC: 36",
            "private_key",
            "kUxo+v+B",
        ),
    ];
    assert_caught(&cases);
    // The same siblings JSON-escaped in a transcript line stay valid JSON.
    let line = serde_json::json!({"content": "{\n  \"key\": \"x-API-key\",\n  \"value\": \"AQEJ0mfxKuzW8Nw0hE/w018rhyMhsflagh8tkv+oRK2LWu\"\n}"}).to_string();
    let o = out(&line);
    assert!(!o.contains("AQEJ0mfxKuzW"), "{o}");
    assert!(serde_json::from_str::<serde_json::Value>(&o).is_ok(), "{o}");
}

/// Third round: what the new rules leave alone — references, placeholders, ids, public by
/// design values (a Sentry DSN's key, a Supabase anon key, an Algolia search key).
#[test]
fn third_round_near_misses_stay() {
    for text in [
        "    SetEnv APP_ENV production",
        "        proxy_set_header X-Auth-Key $cf_auth;",
        "    SetEnv CACHE_KEY 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
        "GET /search?q=auth&state=0d90359a5e6430dc&code=200 200",
        "  \"session_id\": \"3b7d9f1a-2c4e-4a6b-8d0f-1e3a5c7b9d2f\",",
        "  \"client_key_id\": \"2b0b6d130392bd7e3020e809c8898ae2f5db6ef8\",",
        "  searchKey: \"5450758f68387475176ac5da40893597\",",
        "  firebase: { apiKey: process.env.FIREBASE_API_KEY!, authDomain: \"x.firebaseapp.com\" },",
        "OTEL_EXPORTER_OTLP_HEADERS=x-honeycomb-dataset=api,x-tenant=acme",
        "value = cache.get(key=\"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b\")",
        "dsn: \"https://1d0f4af94fc19f70a8b04fde9c5ebd68@o4820841.ingest.de.sentry.io/31097125\",",
        "{\"key\": \"Idempotency-Key\",\n \"value\": \"e007d105-31f5-47ad-be9c-5d62f1b161ce\"}",
        "{\"key\": \"Content-Type\", \"value\": \"application/json\"}",
        "{\"key\": \"api_key\", \"value\": \"{{apiKey}}\"}",
        "  - name: API_TOKEN\n    valueFrom: {secretKeyRef: {name: api, key: token}}",
        "{\"type\": \"aws_s3_bucket\", \"instances\": [{\"attributes\": {\"value\": \"Xr4Tq9Lm2Kw7Zp3Vn8Bc5Hs1\"}}]}",
        "SUPABASE_ANON_KEY: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZSIsInJlZiI6ImZ0d2Rya2hyZHFrbXpweXNxanV5Iiwicm9sZSI6ImFub24iLCJpYXQiOjE3MzAwMDAwMDAsImV4cCI6MjA0NTU3NjAwMH0.FlXysXftZfaH97OC-oT6ofWLdyPVdhSDAko9f7qVGFU",
        "Private-Lines: 1\nshort",
        "\"db_host\": {\"value\": \"db-9f86d0.internal\"}, \"api_token\": {\"value\": \"${var.api_token}\"}",
        "\"headers\": [[\"Authorization\", \"[Filtered]\"]]",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

/// Fourth round: context beyond the line — a block's or label's name lines above its value,
/// secret words as parts of names, vendors named in prose and table rows, vendor prefixes.
#[test]
fn fourth_round_context_beyond_the_line_is_caught() {
    let cases: Vec<(&str, &str, &str)> = vec![
        // (1) A block whose header names the secret: HCL variable, JSON/YAML object, a label.
        (
            "variable \"api_password\" {\n  type      = string\n  sensitive = true\n  default   = \"Wq3zT8vLm2Xk9Rp4Hn7s\"\n}",
            "assignment",
            "Wq3zT8vLm2Xk",
        ),
        (
            "output \"admin_token\" {\n  sensitive = true\n  value     = \"c7Hq2LmX9vRt4Kp8Wz3Nb6Jd\"\n}",
            "assignment",
            "c7Hq2LmX9vRt",
        ),
        ("smtp_password:\n  value: \"Gx8#qLp2Vz7mTk\"\n  rotate: true", "assignment", "Gx8#qLp2Vz7m"),
        // A service account's key id sits beside its key: a secret (recall first; see scan.rs).
        ("  \"gcp_private_key_id\": \"2b0b6d130392bd7e3020e809c8898ae2f5db6ef8\",", "assignment", "2b0b6d130392"),
        (
            "\"relay_secret\": {\n  \"description\": \"relay\",\n  \"value\": \"Zt5Qw9Lx2Bn7Vc4Mk8Pj3Hr6\"\n}",
            "assignment",
            "Zt5Qw9Lx2Bn7",
        ),
        ("**Deploy token:**\n`Hn4Xq8Lz2Vw7Rt5Kc9Bm3Pj6`", "assignment", "Hn4Xq8Lz2Vw7"),
        ("The new token:\n\n  Yp6Rt2Vn9Xq4Lm8Kz3Wb7Hc5\n", "assignment", "Yp6Rt2Vn9Xq4"),
        ("db_password: |\n  Mv5#Kq8zLx2Tp", "assignment", "Mv5#Kq8zLx2T"),
        ("The Buildkite agent token (revoked):\n  Pz5Kq9Xv2Lm7Rt3Wn8Hc4Bj6", "assignment", "Pz5Kq9Xv2Lm7"),
        ("For the relay, the SMTP password\nis `Hq7#vLm2!XpR9sTw` until Friday.", "assignment", "Hq7#vLm2"),
        ("- **CircleCI**: `Xq7Lm2Vz9Kt4Rp8Wn3Hc6Bj5` (personal token, revoked)", "vendor_token", "Xq7Lm2Vz9Kt4"),
        // A Markdown table whose header names the secret, its column's cells.
        (
            "| service | token |\n|---|---|\n| ci | `Rk7Vz2Xq9Lm4Tn8Wp3Hc6Bj5` |\n| docs | `Lt3Wq8Zx5Vn2Rk9Pm6Hb4Cj7` |",
            "assignment",
            "Lt3Wq8Zx5Vn2",
        ),
        // (2) Secret words as parts of names, any suffix of version or copy.
        ("  \"mail_smtp_password_v4\": \"Bq7lprLFv+ciEHCfI72SmnPbal/q5f8\",", "assignment", "Bq7lprLFv"),
        ("DB_PASSWORD_OLD=Hq7#vLm2!XpR9sTw", "assignment", "Hq7#vLm2"),
        ("smtpPasswordV2: \"Nq4#Lx8vTz2Kp\"", "assignment", "Nq4#Lx8vTz2K"),
        // (3) A vendor named in prose or a table row, the secret word a line above.
        ("Old CI tokens, revoked:\n| TeamCity | `Xv8Kq3Lz7Wn2Rt5Pm9Hc4Bj6` |", "vendor_token", "Xv8Kq3Lz7Wn2"),
        ("the Codecov upload token is Qm4Zt8Xk2Vn7Lp3Rw9Hb5Cj6 (rotate it)", "vendor_token", "Qm4Zt8Xk2Vn7"),
        ("Rotated credentials below.\nTravis: Jw6Rk2Xq8Vm4Lt9Zn3Pb7Hc5", "vendor_token", "Jw6Rk2Xq8Vm4"),
        // Vendor prefixes: CircleCI and Buildkite tokens.
        (
            "export CI_PAT=CCIPAT_Vb7Qs2Lk9Xw4Rn8Tz3Mp6Hc_0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3",
            "circleci_token",
            "Vb7Qs2Lk9Xw4",
        ),
        ("BUILDKITE: bkua_9f2c4e7a1b3d5f8e0c2a4d6f8b1e3c5a7d9f0b2c", "buildkite_token", "9f2c4e7a1b3d"),
    ];
    assert_caught(&cases);
    // The same HCL block JSON-escaped in a transcript line (a `cat -n` tool result) stays JSON.
    let line = serde_json::json!({"content": "     1\u{2192}variable \"api_password\" {\n     2\u{2192}  type = string\n     3\u{2192}  default = \"Wq3zT8vLm2Xk9Rp4Hn7s\"\n     4\u{2192}}"}).to_string();
    let o = out(&line);
    assert!(!o.contains("Wq3zT8vLm2Xk"), "{o}");
    assert!(serde_json::from_str::<serde_json::Value>(&o).is_ok(), "{o}");
}

/// Fourth round: what the new rules leave alone — a block's non-secret members and nested
/// objects, references, placeholders, ids by name (`*_key_id`), documented example keys, a
/// header switch spelled in words, a vendor named without a secret word.
#[test]
fn fourth_round_near_misses_stay() {
    for text in [
        "variable \"db_password\" {\n  type      = string\n  sensitive = true\n}",
        "variable \"api_token\" {\n  default = var.fallback_token\n}",
        "output \"db_password\" {\n  value = aws_db_instance.main.password\n}",
        "\"auth\": {\n  \"type\": \"basic\",\n  \"basic\": [\n    {\"key\": \"username\", \"value\": \"A5U_cu2aVH5SkDdGQ1yyWOg6ruhzN0RxRArtYF\"}\n  ]\n}",
        "token:\n  name: deploy\n  scopes: [read]",
        "password:\n  min_length: 12\n  require_symbols: true",
        "**Token:**\n`<your token here>`",
        "Steps to reset the password for a user:\n1. open the admin page",
        "We rotate every token\nis what the runbook says.",
        "    return token\n  is_valid = check(token)",
        "The token (see the wiki):\nhttps://wiki.example.test/tokens/rotation-guide-2026",
        "| name | key |\n|---|---|\n| primary | `id` |\n| sort | `created_at` |",
        "class TokenStore {\n  value = \"Xr4Tq9Lm2Kw7Zp3Vn8Bc5Hs1\"\n}",
        "  \"signing_key_id\": \"26af4fbd1d49aa693568b2a82aadd68d8732f4ea\",",
        "password_min_length_v2: \"Xq7#Lz2mVt9\"",
        "Stripe's test key `sk_test_4eC39HqLyjWDarjtT1zdp7dc` from the docs.",
        "STRIPE_KEY=sk_test_BQokikJOvBiI2HlWgH4olfQ2",
        "headers = {'X-Atlassian-Token': 'no-check'}",
        "CircleCI built commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b in 3 minutes",
        "Travis: Jw6Rk2Xq8Vm4Lt9Zn3Pb7Hc5 build log attached",
        "Vault token headers: `X-Vault-Token:`, `Ocp-Apim-Subscription-Key:`; Honeycomb's `X-Honeycomb-Team`",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

/// A YAML `- name: "` with no name after its quote (this crate's own rule table holds
/// `"- name: ",`) is not a sibling: redacting it must not panic (it sliced `s..s-1`).
#[test]
fn yaml_name_quote_without_a_name_does_not_panic() {
    for text in ["        \"- name: \",\n", "- name: \"", "- name: \\\"\\\"\n  value: Xr4Tq9Lm2Kw7Zp3Vn8Bc5Hs1"] {
        let _ = run(text);
    }
    let r = run("- name: \"DB_PASSWORD\"\n  value: \"Hq7#vLm2!XpR9sTw\"");
    assert!(!r.text.unwrap_or_default().contains("Hq7#vLm2"));
}

/// Fifth round (heldout4's causes, fixed in general ways): secrets inside JSON structures of
/// generated events (`[name, value]` pairs, a frame's repr-quoted locals), values named by the
/// prose right before them, a Kubernetes Secret's data, a tfstate resource whose type names a
/// secret, Postman's API-key auth list, a CLI flag with a hex value, a vendor's sentence
/// going on on the next line.
#[test]
fn fifth_round_structures_and_prose_are_caught() {
    let k8s = "apiVersion: v1\ndata:\n  DATABASE_URL: cG9zdGdyZXM6Ly9hcHA6VnE3TG0yWGs5UnQ0V3pAZGIuaW50ZXJuYWwuZXhhbXBsZS50ZXN0OjU0MzIvYXBw\n  SIGNING: SHE3dkxtMlhwUjlzVHdRNA==\nkind: Secret\nmetadata:\n  name: app-env\ntype: Opaque\n";
    let cases: Vec<(String, &str, &str)> = vec![
        // `[name, value]` pairs, pretty-printed and on one line.
        (
            "\"headers\": [\n  [\n    \"Accept\",\n    \"application/json\"\n  ],\n  [\n    \"Authorization\",\n    \"Bearer Kq8Vz3Xm7Lt2Rw9Pn4Hb6Cj5-Yd1\"\n  ]\n]".into(),
            "assignment",
            "Kq8Vz3Xm7Lt2",
        ),
        ("\"headers\": [[\"X-Api-Key\", \"c4e1a9f07b3d5e2a8c6f0b1d9e7a3c5f\"]]".into(), "assignment", "c4e1a9f07b3d"),
        // A frame's local variables, repr-quoted inside JSON strings.
        (
            "\"vars\": {\n  \"api_key\": \"'AQEzhmfxLI3Mbx+TrVXxxw3ck3YFgdRiYBI/25t41ET3F+aUSD5Re8HD8Z=chGG'\",\n  \"password\": \"'Tq8#Lm3vZx9.K'\"\n}".into(),
            "assignment",
            "AQEzhmfxLI3M",
        ),
        ("\"vars\": {\"password\": \"'Tq8#Lm3vZx9.K'\"}".into(), "assignment", "Tq8#Lm3vZx9"),
        // A secret word right before the value in prose, a hex token or a UUID too.
        (
            "the old circle token was 3c9e1f7a2b8d4e6f0a1c3e5b7d9f2a4c6e8b0d1f btw, already dead".into(),
            "prose_secret",
            "3c9e1f7a2b8d",
        ),
        ("staging admin pw is Rt5#kQ9mZx2 until Friday".into(), "prose_secret", "Rt5#kQ9mZx2"),
        ("the snyk token is 5b2e8c1d-4a7f-4e3b-9c6d-1f0a8e2b7c4d, rotate it".into(), "prose_secret", "5b2e8c1d-4a7f"),
        ("snyk token: 5b2e8c1d-4a7f-4e3b-9c6d-1f0a8e2b7c4d".into(), "assignment", "5b2e8c1d-4a7f"),
        // A vendor named in a sentence that goes on on the next line.
        (
            "The Snyk step failed: `SNYK_TOKEN` is a UUID, and the one the runner had,\n7d3a9e2c-1b5f-4c8e-a6d0-2e9f4b7c1a3d, is gone.".into(),
            "vendor_token",
            "7d3a9e2c-1b5f",
        ),
        // A Kubernetes Secret's data: a value holding a URL with a password, a random value.
        (k8s.into(), "kubernetes_secret", "cG9zdGdyZXM6Ly9hcHA6"),
        (k8s.into(), "kubernetes_secret", "SHE3dkxtMlhwUjlz"),
        (serde_json::json!({"stdout": k8s}).to_string(), "kubernetes_secret", "cG9zdGdyZXM6Ly9hcHA6"),
        ("kind: Secret\nstringData:\n  signing: Hq7vLm2XpR9sTwQ4\n".into(), "kubernetes_secret", "Hq7vLm2XpR9s"),
        // A tfstate resource whose type names a secret: its `key` attribute.
        (
            "{\n  \"type\": \"datadog_api_key\",\n  \"name\": \"main\",\n  \"instances\": [\n    {\n      \"attributes\": {\n        \"id\": \"87ba9598-a803-4fb8-b5d6-d771aa0954f9\",\n        \"key\": \"b7e2c9a4f1d8e3b6a0c5f2d9e4b7a1c3\",\n        \"name\": \"prod\"\n      }\n    }\n  ]\n}".into(),
            "assignment",
            "b7e2c9a4f1d8",
        ),
        // Postman's API-key auth: the `value` entry of an `apikey` list.
        (
            "\"auth\": {\n  \"type\": \"apikey\",\n  \"apikey\": [\n    {\n      \"key\": \"value\",\n      \"value\": \"Zm3Kq8Xv2Lt7Rn4Wp9Hc6Bj5Yd1Vs0Qe3Tu\",\n      \"type\": \"string\"\n    }\n  ]\n}".into(),
            "assignment",
            "Zm3Kq8Xv2Lt7",
        ),
        // A CLI flag named like a secret with a hex value.
        (
            "orchard-release promote --env prod --token 8e2b4d6f1a3c5e7b9d0f2a4c6e8b1d3f5a7c9e0b --sha \"$GIT_SHA\"".into(),
            "cli_secret",
            "8e2b4d6f1a3c",
        ),
    ];
    assert_caught(&cases);
    let line = serde_json::json!({"stdout": k8s}).to_string();
    assert!(serde_json::from_str::<serde_json::Value>(&out(&line)).is_ok());
}

/// Fifth round: what the new rules leave alone — a Secret's user name and settings file, a
/// ConfigMap's data, pairs not named like a secret, a bare `key:` holding a hash, a commit in
/// prose, a non-secret flag, a short hex request id beside a vendor's token header.
#[test]
fn fifth_round_near_misses_stay() {
    for text in [
        "apiVersion: v1\ndata:\n  POSTGRES_USER: YXBwX3VzZXI=\n  settings.yaml: bG9nX2xldmVsOiBpbmZvCnJlZ2lvbjogZXUtd2VzdC0xCg==\nkind: Secret\n",
        "apiVersion: v1\ndata:\n  LOG_LEVEL: info\n  REGION: eu-west-1\nkind: ConfigMap\n---\nkind: Secret\ntype: Opaque\n",
        "\"headers\": [[\"Accept\", \"application/json\"], [\"X-Request-Id\", \"5b2e8c1d-4a7f-4e3b-9c6d-1f0a8e2b7c4d\"]]",
        "[\"token_type\", \"bearer\"]",
        "key: 3f786850e387550fdab836ed7e6dc881de23001b",
        "the commit is 3f786850e387550fdab836ed7e6dc881de23001b",
        "git push --sha 3f786850e387550fdab836ed7e6dc881de23001b",
        "the cache key: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
        "headers = {'X-Atlassian-Token': 'no-check', 'X-Trace': '90f40e3649b0f726'}",
        "\"vars\": {\"self\": \"<orders.Client object at 0x7f3a2c1d9e50>\", \"token\": \"[Filtered]\"}",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

/// Sixth round: a case per class of position, phrased unlike any corpus line — a directive or
/// table row, a protocol's credential command, `CONFIG SET` in any case, `net use`'s bare
/// password, a password flag after a user flag, a relay map line, a JAAS option, a sequence
/// pair over lines (a tuple, a middle element, a `Read` gutter), a session cookie in a
/// name/value object, a framework's salt with spaces and punctuation, a primary key, a value
/// piped to a stdin password reader, Oracle's `user/password@`, an env lookup's fallback, a
/// list of secrets.
#[test]
fn sixth_round_positions_are_caught() {
    let gutter = serde_json::json!({
        "content": "    40→PROBES = [\n    41→    (\"STATUS_TOKEN\",\n    42→     \"Vq7Lm2Zx9Kw4Tn8R\"),\n    43→]"
    })
    .to_string();
    let cases: Vec<(String, &str, &str)> = vec![
        // Directives and table rows.
        ("bind 127.0.0.1\nmasterauth Ze4Rq9Lm2Xw7\nport 6380\n".into(), "assignment", "Ze4Rq9Lm2Xw7"),
        ("NAME            VALUE\napi_secret      Hv7Kp2Zq9Lm4Wx8Tc3Nb\n".into(), "assignment", "Hv7Kp2Zq9Lm4"),
        (serde_json::json!({"stdout": "daemonize no\nrequirepass Pw8Zt2Kq5Lm\n"}).to_string(), "assignment", "Pw8Zt2Kq5Lm"),
        ("│ SMTP_PASSWORD │ Qa5Zm9Lx2Wv   │\n".into(), "assignment", "Qa5Zm9Lx2Wv"),
        ("username ops privilege 15 secret 0 Tn6Wq1Zk8Lp\n".into(), "assignment", "Tn6Wq1Zk8Lp"),
        // A protocol's credential command.
        ("127.0.0.1:6379> auth Jq3Vm8Lz1Xk\nOK\n".into(), "protocol_password", "Jq3Vm8Lz1Xk"),
        ("1733000000.1 [0 unix:/run/redis.sock] \"AUTH\" \"svc\" \"Wr2Nx7Kq4Lz\"\n".into(), "protocol_password", "Wr2Nx7Kq4Lz"),
        ("USER anonymous-no\nPASS Hm4Zq9Wl2Xt\n".into(), "protocol_password", "Hm4Zq9Wl2Xt"),
        ("a001 LOGIN mailer Gx7Lq2Vz9Kp\n".into(), "protocol_password", "Gx7Lq2Vz9Kp"),
        ("redis-cli -h cache CONFIG SET requirepass \"Kc9Wz3Lq7Vm\"\n".into(), "cli_secret", "Kc9Wz3Lq7Vm"),
        // Command lines.
        ("net use T: \\\\build01\\drop Zx8Kq2Lm5Vw /user:CI\\runner\n".into(), "cli_secret", "Zx8Kq2Lm5Vw"),
        ("plink -ssh -l deploy -pw Rv3Lq8Zm2Kx bastion.test\n".into(), "cli_secret", "Rv3Lq8Zm2Kx"),
        ("smbclient -L //nas.test -U backup%Yq5Wz1Lm8Kt\n".into(), "cli_secret", "Yq5Wz1Lm8Kt"),
        ("printf '%s' 'Vz7Kq2Lm9Xw' | podman login quay.test -u bot --password-stdin\n".into(), "cli_secret", "Vz7Kq2Lm9Xw"),
        ("echo 'ops:Hq3Lz8Vm2Kw' | chpasswd\n".into(), "cli_secret", "Hq3Lz8Vm2Kw"),
        ("expdp admin/Kx9Lq2Vm7Zw@PRODDB schemas=HR\n".into(), "connection_string", "Kx9Lq2Vm7Zw"),
        ("ssh-keygen -t ed25519 -f deploy_ci -N 'Qm4Zx8Lw2Vk' -C ci\n".into(), "cli_secret", "Qm4Zx8Lw2Vk"),
        ("wpa_passphrase \"Office 5G\" Zt7Kq2Lm9Wx > /etc/wpa.conf\n".into(), "cli_secret", "Zt7Kq2Lm9Wx"),
        ("rabbitmqctl add_user ingest Wb8Lq3Zm6Vt\n".into(), "cli_secret", "Wb8Lq3Zm6Vt"),
        ("mosquitto_passwd -b /etc/mosquitto/passwd sensor Hk5Zq9Lm2Vx\n".into(), "cli_secret", "Hk5Zq9Lm2Vx"),
        ("CREATE USER reporting IDENTIFIED BY Rq7Zm2Lx9Wk;\n".into(), "sql_password", "Rq7Zm2Lx9Wk"),
        // A relay map line; a JAAS option.
        ("[smtp.mailhost.test]:465 alerts@corp.test:Lw9Zq2Km6Vx\n".into(), "assignment", "Lw9Zq2Km6Vx"),
        (
            "KafkaServer {\n  org.apache.kafka.common.security.plain.PlainLoginModule required\n  user_ingest=\"Mk2Zq8Lw5Vx\";\n};\n".into(),
            "assignment",
            "Mk2Zq8Lw5Vx",
        ),
        // Sequence pairs over lines: a tuple, a middle element, a Read result's gutter.
        ("CREDS = (\n    \"SENTRY_AUTH_TOKEN\",\n    \"c9f2e7a1b4d8e3f6a0c5b2d9e4f7a1c3\",\n)\n".into(), "assignment", "c9f2e7a1b4d8"),
        ("(\"PAGERDUTY_KEY\", \"eu\", \"Qz8Lm3Vx7Kw2Nt5R\")".into(), "assignment", "Qz8Lm3Vx7Kw2"),
        (gutter.clone(), "assignment", "Vq7Lm2Zx9Kw4"),
        // A session cookie in a name/value object.
        (
            "\"cookies\": [\n  {\n    \"name\": \"laravel_session\",\n    \"value\": \"Xk3Lm8Qz2Vw7Nt4Rb9Pc6Hd1\"\n  }\n]".into(),
            "assignment",
            "Xk3Lm8Qz2Vw7",
        ),
        // Frameworks' salts and keys: spaces and punctuation; a primary key.
        ("define('SECURE_AUTH_SALT', 'x]7Lq 2#Vm(9Zk!w4@Tn&8Rb^1Pc*6Hd');".into(), "assignment", "x]7Lq 2#Vm"),
        ("SECRET_KEY = 'dj-k#9z@Lq2!Vm8$Xw4^Tn7&Rb3*Pc6(Hd'\n".into(), "assignment", "dj-k#9z@Lq2"),
        ("active_record_encryption:\n  primary_key: Tz4Lq9Vm2Kx7Wn3Rb8Pc5Hd1Js6Gf0U\n".into(), "assignment", "Tz4Lq9Vm2Kx7"),
        ("{\"keyName\": \"key1\", \"primaryKey\": \"Vq8Lm3Zx7Kw2Tn5Rb9Pc4Hd6Jf1Gs0U\"}".into(), "assignment", "Vq8Lm3Zx7Kw2"),
        // Fallbacks after env lookups; lists of secrets.
        ("token = ENV[\"SLACK_SIGNING_SECRET\"] || \"Lm7Zq2Vx9Kw4Tn8Rb3Pc\"\n".into(), "assignment", "Lm7Zq2Vx9Kw4"),
        ("secret = os.environ.get(\"WEBHOOK_SECRET\") or \"Pq2Lm8Zx5Vw7Kt3N\"\n".into(), "assignment", "Pq2Lm8Zx5Vw7"),
        ("{\"signing_keys\": [\"Kx8Lq3Vm7Zw2Tn5Rb9P\", \"Zw2Tn5Rb9PKx8Lq3Vm7\"]}".into(), "assignment", "Zw2Tn5Rb9PKx8"),
        ("admin_passwords:\n  - Rt6#Lq9Vm2Zx\n  - Wk3!Zq8Lm5Vx\n".into(), "assignment", "Wk3!Zq8Lm5Vx"),
    ];
    assert_caught(&cases);
    assert!(serde_json::from_str::<serde_json::Value>(&out(&gutter)).is_ok());
}

/// Sixth round: what the position rules leave alone — prose about passwords and `AUTH`,
/// ports after `-p`, `-u` without a password, piped variables, `sqlplus /`, env fallbacks that
/// are not secrets, directives with switches, masks and placeholders, non-secret pairs and
/// lists, a database's primary key, a public key, a format string under `key`, JAAS-like
/// options outside a login module, relay-like lines without a password.
#[test]
fn sixth_round_near_misses_stay() {
    for text in [
        "The AUTH command takes a password argument.",
        "Type AUTH and the password interactively.",
        "password reset\ntoken: pending\nThe secret santa list",
        "net use Z: \\\\server\\share /persistent:yes",
        "ssh -p 2222 -l root host\ndocker run -u 1000 -p 8080:80 nginx\npsql -U postgres -p 5432\nmysql -u root -p",
        "echo $DOCKER_TOKEN | docker login -u ci --password-stdin",
        "sqlplus / as sysdba",
        "ssh-keygen -t ed25519 -N '' -f id_ci\nrabbitmqctl add_user\nALTER USER app IDENTIFIED BY VALUES",
        "a user is identified by the token it presents",
        "const env = process.env.NODE_ENV || \"development\"; const port = process.env.PORT || \"3000\"",
        "PasswordAuthentication no\nPubkeyAuthentication yes\ntoken_ttl   768h\npassword    ********\napi_key     <your-api-key>",
        "| Name | Value |\n| TOKEN_TTL | 3600 |",
        "primary_key: id\nself.primary_key = \"account_uuid\"",
        "public_key = \"Xq3$Lm9!Vz2@Kp7#Wt4%Nc8^Rb1&Pd6*\"",
        "key_format = \"%(asctime)s - %(name)s - %(levelname)s - %(message)s\"",
        "description: \"Stores the signing key for JWTs; rotate it every 90 days, please.\"",
        "SERVICES = [\n    (\"API_KEY\", \"X-Api-Key\"),\n    (\"password\", \"string\", \"required\"),\n]",
        "\"keywords\": [\"token\", \"password\", \"secret\", \"api key\"]",
        "allowed_keys:\n  - read\n  - write\n",
        "user_agent=\"Mozilla/5.0 (X11; Linux x86_64)\"\nuser_pool_id=\"us-east-1_AbC123xyz\"",
        "smtp.example.test 10:30\nrelay.example.test host:8080",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

#[test]
fn seventh_round_names_after_and_beside_values_are_caught() {
    let numbered = serde_json::json!({
        "content": "     7\tSECRETS = (\n     8\t    (\n     9\t        \"METRICS_TOKEN\",\n    10\t        # from the vault, 2026-09\n    11\t        \"c41f0a9be27d5e8316af0b72d9e4c85a\",\n    12\t    ),\n    13\t)"
    })
    .to_string();
    let cases: Vec<(String, &str, &str)> = vec![
        // A comment closing the value's line names it.
        ("RELAY = \"Wq4Zx9Lm2Kt7Vb3Nc8Hd\"  # billing relay token\n".into(), "assignment", "Wq4Zx9Lm2Kt7"),
        ("  'Tz8Lq3Vm6Kx1',  -- reporting user password\n".into(), "assignment", "Tz8Lq3Vm6Kx1"),
        ("cfg.upstream = Hb5Kq9Zw2Lm7Xt4Vc8R; // partner api key\n".into(), "assignment", "Hb5Kq9Zw2Lm7"),
        // SQL rows: the name after the value, or in a sibling column.
        (
            "UPDATE app_config SET val = 'Nq7Wz2Lk9Xm4' WHERE name = 'smtp_password';\n".into(),
            "assignment",
            "Nq7Wz2Lk9Xm4",
        ),
        (
            "INSERT INTO settings (k, v) VALUES ('partner_api_token', 'Zr3Kq8Wm1Lx6Vt9Nc2B');\n".into(),
            "assignment",
            "Zr3Kq8Wm1Lx6",
        ),
        // A debugger frame's parameters.
        (
            "#2 0x00005 in open_db (host=0x55d0 \"db.test\", passwd=0x7ffd12 \"Lm4Xq9Zt2Kw\") at db.c:88\n".into(),
            "assignment",
            "Lm4Xq9Zt2Kw",
        ),
        // A wider vocabulary: salts, peppers, HMAC keys.
        ("SESSION_PEPPER=Qk8Zm3Wx7Lt2\n".into(), "assignment", "Qk8Zm3Wx7Lt2"),
        ("webhook_hmac: Vx2Lq9Kz4Wm7Tb5N\n".into(), "assignment", "Vx2Lq9Kz4Wm7"),
        // A generated key whose alphabet holds sigils (a Django key starting with `%`).
        ("SECRET_KEY = '%r7q!k2m$(x9w@z4)l8v#c3n^b6t=h1p+d5s'\n".into(), "assignment", "r7q!k2m"),
        // A comment between a sequence's name and its value (a `cat -n` gutter too).
        (numbered, "assignment", "c41f0a9be27d5e8316af0b72d9e4c85a"),
        // The net: a 17-character random run with one digit.
        ("relay ref Kq7WzLmXtPbNcVhRd end\n".into(), "high_entropy", "Kq7WzLmXtPbNcVhRd"),
    ];
    assert_caught(&cases);
}

#[test]
fn seventh_round_near_misses_stay() {
    for text in [
        "a8f5f167f44f4964e6c998dee827110c  # cache key of the build",
        "ssh-ed25519 AAAAC3 me@host  # my public key",
        "x = 42  # the token count",
        "# rotate the admin password every quarter",
        "UPDATE users SET status = 'disabled' WHERE login = 'old_token_user';",
        "INSERT INTO docs (title, body) VALUES ('password policy', 'at least twelve characters');",
        "#0 0x00007 in hash_key (key=0x55d0 \"user:42\") at map.c:12",
        "SALT_ROUNDS=12\npassword_salt_length: 16\nbcrypt.gensalt(rounds=12)",
        "hmac: HmacSHA256\nsigning_hmac = sha512",
        "SECRET_KEY = '${DJANGO_SECRET_KEY_FROM_THE_ENVIRONMENT}'",
        "value = convertToUtf8String(getUserById2Async(id))",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

/// A JWT of `n` payload characters (a base64url header of a real shape, random-looking rest).
fn long_jwt(n: usize) -> String {
    let body: String = (0..n).map(|i| b"Ab3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY_z-"[(i * 7 + i / 3) % 35] as char).collect();
    format!("eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{body}.{}", &body[..200])
}

/// Found after the seventh held-out corpus was measured (and spent): values longer than a
/// rule's window, and one-case random parts after a dotted vendor prefix.
#[test]
fn long_values_and_dotted_one_case_tokens_are_caught() {
    let jwt = long_jwt(1400);
    let cases: Vec<(String, &str, &str)> = vec![
        // An identity token printed alone by a CLI, far longer than the rule's reach.
        (format!("$ gcloud auth print-identity-token\n{jwt}\n$ echo done\n"), "jwt", &jwt[1200..1260]),
        // The same inside a JSON cache, JSON-escaped line around it.
        (format!("{{\"AccessToken\": {{\"secret\": \"{jwt}\", \"realm\": \"x\"}}}}\n"), "jwt", &jwt[600..660]),
        // A vendor's dotted prefix before hex: one case, but 64 characters of digits and letters.
        ("  POSTMARK_SERVER_TOKEN: pm.4f0a9c2e7b1d83564f0a9c2e7b1d8356af09\n".into(), "assignment", "4f0a9c2e7b1d8356"),
    ];
    assert_caught(&cases);
    for text in [
        "config.database.connection_pool_size = 12",
        "settings.analytics.tracking_endpoint_v2 = \"x\"",
        "token = app.state.session_store_backend_2024",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

/// A bot token found by its structure, with no name beside it (piped into a secret store).
#[test]
fn a_snowflake_bot_token_is_caught_by_its_structure() {
    let token = "OTEyMzQ1Njc4OTAxMjM0NTY3.Gh4kQz.Zr8Lm2Pw9Rt4Vz8Kb3Nc6Hd1Fg5Js0TyXq";
    let text = format!("$ printf %s '{token}' | tee /run/keys/bot\n");
    assert_caught(&[(text.clone(), "high_entropy", "OTEyMzQ1Njc4"), (text, "high_entropy", "Zr8Lm2Pw9R")]);
    // A chat server's access token pasted into a message, no name beside it.
    assert_caught(&[(
        "sent with syt_YWxpY2U_Xq7Lm2Pw9Rt4Vz8Kb3Nc_4fT9aQ as the bearer",
        "matrix_access_token",
        "Xq7Lm2Pw9Rt4",
    )]);
    // A store's REST keys in a database dump's row, tab-separated, no name beside them.
    let row = "7\twoo\tshop.example.test\tcs_5e0b7a9c3d2f18e4b6a0c9d7e1f3a5b7c9d0e2f4\t\\N\n";
    let r = run(row);
    assert!(r.hits.iter().any(|h| h.kind == "woocommerce_key"), "{row}: {:?}", r.hits);
    // A dotted name whose first part is no numeric id stays.
    let text = "see module.Gh4kQz.Zr8Lm2Pw9Rt4Vz8Kb3Nc6Hd1Fg5Js0TyXq here";
    assert_eq!(run(text).text, None, "{text}");
}

/// The bench's reference (`rg -c -f` over the rule table) joins every pattern into one regex:
/// they must compile together (no group name twice), or the ratio to ripgrep cannot be taken.
#[test]
fn the_rule_table_compiles_as_one_ripgrep_pattern() {
    // ripgrep refuses a pattern that can match a line break (it searches line by line).
    // A `\n` inside a negated class (`[^\n]`) cannot match one; anywhere else it can.
    let matches_a_line_break = |p: &str| {
        let (mut chars, mut negated) = (p.char_indices(), false);
        while let Some((i, c)) = chars.next() {
            match c {
                // The escaped character is consumed whether or not it is an `n`.
                '\\' if chars.next().is_some_and(|(_, n)| n == 'n') && !negated => return true,
                '[' if !negated && p[i + 1..].starts_with('^') => negated = true,
                ']' if negated => negated = false,
                _ => {}
            }
        }
        false
    };
    for p in rg_patterns() {
        assert!(!matches_a_line_break(&p), "matches across lines, rg refuses it: {p}");
    }
    let joined = rg_patterns().join("|");
    regex_automata::meta::Regex::builder()
        .syntax(regex_automata::util::syntax::Config::new().unicode(false).utf8(false))
        .configure(regex_automata::meta::Regex::config().nfa_size_limit(None))
        .build(&joined)
        .unwrap_or_else(|e| panic!("the rule table as one pattern: {e}"));
}

/// Round 8: vendor formats the table did not know, each phrased unlike any corpus line
/// (values built from parts where a scanner might stop a push).
#[test]
fn eighth_round_vendor_formats_are_caught() {
    let r40 = "Qm7Wz2Lk9Xt4Vb8Nc3Hd6Jf1Gs5Ka0Pe7Ru2Yi9T";
    let hex40 = "4f0a9c2e7b1d83564f0a9c2e7b1d8356af09c2e7";
    let uuid = "3f6b2c1d-8e9a-4b7c-9d0e-1f2a3b4c5d6e";
    let b64 = "Qm9yZWFsaXMtdGVzdC12YWx1ZS1ub3QtYS1rZXktYXQtYWxsLTIwMjY";
    let cases: Vec<(String, &str, &str)> = vec![
        (format!("cf: {}{r40}a1b2c3d4\n", "cfut_"), "cloudflare_token", &r40[..12]),
        (format!("join with {}-kRt7Pq2Lm9Zx-{r40}\n", "tskey-auth"), "tailscale_key", &r40[..12]),
        (format!("scanner uses {}{hex40}\n", "squ_"), "sonarqube_token", &hex40[..12]),
        (format!("{}{r40}abc\n", "hcaik_"), "honeycomb_key", &r40[..12]),
        (format!("crm {}-{uuid}\n", "pat-na1"), "hubspot_token", &uuid[..12]),
        (format!("dbt job token {}{r40}\n", "dbtc_"), "dbt_cloud_token", &r40[..12]),
        (format!("{}{b64}\n", "ABSKQmVkcm9ja0FQSUtleS"), "aws_bedrock_key", &b64[..12]),
        ("mailer re_Zq81Lk4W_Tm7Xp2Nc9Vb3Hd6Jf1Gs5Ka0P\n".into(), "resend_key", "Tm7Xp2Nc9Vb3"),
        (format!("{}{r40}\n", "napi_"), "neon_key", &r40[..12]),
        (format!("{}{r40}\n", "phx_"), "posthog_key", &r40[..12]),
        (format!("support bot: {}{b64}=\n", "dG9rOj"), "intercom_token", &b64[..12]),
        (format!("{}{b64}\n", "eyJrIjoi"), "grafana_token", &b64[..12]),
        (format!("flag sdk {}-{uuid}\n", "sdk"), "launchdarkly_key", &uuid[..12]),
        ("A3-QX7K2M-9WZ4LT-8RN3P-VB6HD-2JF5G-K0PE7\n".into(), "onepassword_token", "QX7K2M-9WZ4LT"),
        (format!("sf 00D5e000000AbCd!AQ{r40}{r40}{r40}\n"), "salesforce_token", &r40[..12]),
        (format!("X bearer AAAAAAAAAAAAAAAAAAAAAQm7Wz%2B{r40}%3D{r40}\n"), "twitter_bearer_token", &r40[..12]),
        // A private key as one line of base64 DER, its armour gone.
        (
            format!("APNS_KEY_BODY MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg{b64}{r40}\n"),
            "private_key",
            &b64[..12],
        ),
        (format!("registry pw {}{b64}{b64}{b64}\n", "eyJ2ZXIiOjEsImlzdSI6"), "aws_codeartifact_token", &b64[..12]),
        (
            format!(
                "export DEVELOCITY_ACCESS_KEY=ge.corp.example=k{}\n",
                &"abcd1234efgh5678ijkl9012mnop3456qrst7890"[..39]
            ),
            "develocity_access_key",
            "abcd1234efgh5678",
        ),
    ];
    assert_caught(&cases);
    // A public key's DER (a BIT STRING) is not a private key's.
    let text = format!("pub MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{b64}\n");
    assert!(run(&text).hits.iter().all(|h| h.kind != "private_key"), "{text}");
}

/// Round 8: a command, a label or a collection names the value.
#[test]
fn eighth_round_values_named_by_a_command_a_label_or_a_collection_are_caught() {
    let cases: Vec<(String, &str, &str)> = vec![
        // CI logging commands.
        ("run: echo \"::add-mask::Pq4Lz8Wm2Rk7\"\n".into(), "ci_secret", "Pq4Lz8Wm2Rk7"),
        ("##vso[task.setsecret]Tn5Vx9Pc4Jd6\n".into(), "ci_secret", "Tn5Vx9Pc4Jd6"),
        ("echo '##vso[task.setvariable variable=NUGET_API_KEY]kq7wz2lm9xt4vb8nc3hd6jf1'\n".into(), "ci_secret", "kq7wz2lm9xt4"),
        // A vendor CLI's token flag or positional token, a UUID too.
        ("+ ./codecov-linux -f out.xml -t 0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f\n".into(), "cli_secret", "0c1d2e3f-4a5b"),
        ("$ snyk auth 9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d\n".into(), "cli_secret", "9a8b7c6d-5e4f"),
        ("doctl auth init --context ci -t 9c2e7b1d83564f0a9c2e7b1d83564f0a\n".into(), "cli_secret", "9c2e7b1d83564f0a"),
        // A value piped into a secret store.
        ("printf %s 'Harbor-Kettle-77' | npx wrangler secret put SMTP_PASS\n".into(), "cli_secret", "Harbor-Kettle-77"),
        ("echo -n Zr7Kq2Lm9Xw4 | gh secret set DEPLOY_TOKEN -R org/app\n".into(), "cli_secret", "Zr7Kq2Lm9Xw4"),
        // Vocabulary.
        ("RABBITMQ_ERLANG_COOKIE: QWERTYUIOPASDFGHJKLZ\n".into(), "erlang_cookie", "QWERTYUIOPASDFGHJKLZ"),
        (
            "WALLET_SEED_PHRASE=\"maple river stone cloud apple orbit lemon tiger piano velvet ocean candle\"\n".into(),
            "mnemonic_phrase",
            "maple river stone",
        ),
        // A `Value` label under its name's label.
        (
            "  Key: billing/live/partner_token\n  Flags: 0\n  Value: Wq3Lz8Km2Rt7Vn5X\n".into(),
            "assignment",
            "Wq3Lz8Km2Rt7Vn5X",
        ),
        (
            "Failed to bind properties under 'mail'\n    Property: mail.smtp.password\n    Value: \"Otter-Lamp-4417\"\n".into(),
            "assignment",
            "Otter-Lamp-4417",
        ),
        // A database client's grid: a secret-named column's UUID cells.
        (
            " id | vendor  | access_token\n----+---------+--------------------------------------\n  4 | relay   | 7b6a5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d\n(1 row)\n".into(),
            "assignment",
            "7b6a5c4d-3e2f",
        ),
        // The leaves of a collection of secrets.
        ("api_tokens:\n  weather: Hq3Lz8Wm2Rk7Tn5Vx9Pc\n  maps: Lm9Qx2Wr7Tz4Kp8Vn3Hb\n".into(), "assignment", "Lm9Qx2Wr7Tz4"),
        ("{\"passwords\": {\"replica\": \"Quartz-Pillow-93\"}}\n".into(), "assignment", "Quartz-Pillow-93"),
    ];
    assert_caught(&cases);
}

/// Round 8's near-misses: verifiers, ciphertexts, public keys and ids, named leaves and
/// columns that are not secrets.
#[test]
fn eighth_round_near_misses_stay() {
    for text in [
        "CREATE ROLE app LOGIN PASSWORD 'SCRAM-SHA-256$4096:Zm9vYmFyYmF6cXV4$Qk3mP9qLw2Rt7Yv5Bn8Cz1Dh4Fj6Gk0Q=:Xp2Lm8Vn4Tz7Kq1Wb5Hc9Jd3Fg6Rs0A='",
        "userPassword: {SSHA}Xk3mP9qLw2Rt7Yv5Bn8Cz1Dh4Fj6Gk0Q",
        "db_password: ENC[AES256_GCM,data:Qk3mP9qLw2Rt7Yv5,iv:Bn8Cz1Dh4Fj6Gk0QXp2Lm8Vn4Tz7Kq1W=,tag:Hc9Jd3Fg6Rs0A==,type:str]",
        "  app:apiToken:\n    secure: v1:Hc9Jd3Fg6Rs0AbCd:Qk3mP9qLw2Rt7Yv5Bn8Cz1Dh4Fj6Gk0QXp2Lm8Vn4",
        "<password>{Qk3mP9qLw2Rt7Yv5Bn8Cz1Dh4Fj6Gk0QXp2Lm8Vn4Tz7=}</password>",
        "NEXT_PUBLIC_ANALYTICS_KEY=phc_Qk3mP9qLw2Rt7Yv5Bn8Cz1Dh4Fj6Gk0QXp2Lm8Vn4",
        "VITE_PUSHER_APP_KEY=9c2e7b1d83564f0a9c2e",
        "token_accessor    Qk3mP9qLw2Rt7Yv5Bn8Cz1Dh",
        "\"InstrumentationKey\": \"5d8e2c1a-7b3f-4e9a-a1c2-3d4e5f6a7b8c\"",
        "GOOGLE_CLIENT_KEY = \"812345678901-a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6.apps.googleusercontent.com\"",
        "api_keys:\n  searchKey: 9c2e7b1d83564f0a9c2e7b1d83564f0a\n  appId: K3MP9QLW2R\n  docs_url: https://docs.example.test/keys",
        " id | key_id                               | created_at\n----+--------------------------------------+-----------\n  1 | 7b6a5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d | 2026-01-02",
        "Name: build/cache\nValue: eu-west-1-cache-tier",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

/// Round 8: commands whose argument is a password by position, `_pw` names, a value written
/// into a secret's file, `--name`/`--value` pairs, a comment line naming the line below.
#[test]
fn eighth_round_command_positions_and_comment_lines_are_caught() {
    let cases: Vec<(String, &str, &str)> = vec![
        ("aws ssm put-parameter --type SecureString --name /ledger/live/smtp_password --value 'Birch-Canal-5521' --overwrite\n".into(), "cli_secret", "Birch-Canal-5521"),
        ("az keyvault secret set --vault-name kv1 --value Zq7Lm3Xw9Rt2Kp5V --name partner-api-token\n".into(), "cli_secret", "Zq7Lm3Xw9Rt2Kp5V"),
        ("PS> Set-Variable -Name RelayToken -Value 'Zq7Lm3Xw9Rt2Kp5V'\n".into(), "cli_secret", "Zq7Lm3Xw9Rt2Kp5V"),
        ("$ ansible-vault encrypt_string --vault-id prod@prompt 'Birch-Canal-5521' --name smtp_pass\n".into(), "cli_secret", "Birch-Canal-5521"),
        ("htpasswd -nbB ops Birch-Canal-5521 >> .htpasswd\n".into(), "cli_secret", "Birch-Canal-5521"),
        ("openssl aes-256-cbc -d -in dump.enc -out dump.sql -k Birch-Canal-5521\n".into(), "cli_secret", "Birch-Canal-5521"),
        ("printf '%s' 'Birch-Canal-5521' > /run/secrets/smtp_pass\n".into(), "cli_secret", "Birch-Canal-5521"),
        ("MYSQL_ROOT_PW=Birch-Canal-5521\n".into(), "assignment", "Birch-Canal-5521"),
        ("  // relay passphrase, rotated in March\n  relay_phrase = Birch-Canal-5521\n".into(), "assignment", "Birch-Canal-5521"),
    ];
    assert_caught(&cases);
    for text in [
        "docker run --name web --env MODE=prod nginx:1.27",
        "aws ssm put-parameter --name /ledger/live/log_level --value debug",
        "openssl x509 -in cert.pem -noout -text",
        "# the password policy\nMIN_LENGTH = 12",
        "# token lifetime\nTTL: 3600",
        "WIDTH_PW=12",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

/// Round 8: a long value is redacted whole: a pattern's bound or a window used to cut it, and
/// its tail was stored (an STS session token, a 1Password service-account token).
#[test]
fn eighth_round_long_values_are_redacted_to_their_end() {
    let body: String = (0..900).map(|i| b"Ab3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY+z/"[(i * 7 + i / 3) % 35] as char).collect();
    let sts = format!("IQoJb3JpZ2luX2VjEOr//////////wEaCWV1LXdlc3QtMSJIMEYCIQ{body}==");
    let opaque = format!("Zq{body}");
    let cases: Vec<(String, &str, &str)> = vec![
        (format!("{sts}\n"), "aws_session_token", &body[800..860]),
        (format!("  \"SessionToken\": \"{sts}\",\n"), "aws_session_token", &body[800..860]),
        // No format: the generic assignment's value runs on past its bound.
        (format!("LEDGER_RELAY_TOKEN={opaque}\n"), "assignment", &body[800..860]),
    ];
    assert_caught(&cases);
}

/// Round 8: more vendors' header schemes and formats, network devices' shared secrets.
#[test]
fn eighth_round_header_schemes_formats_and_device_secrets_are_caught() {
    let r40 = "Qm7Wz2Lk9Xt4Vb8Nc3Hd6Jf1Gs5Ka0Pe7Ru2Yi9T";
    let cases: Vec<(String, &str, &str)> = vec![
        (
            "wget --header='Authorization: Splunk 0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f' https://hec.test\n".into(),
            "auth_header",
            "0c1d2e3f-4a5b",
        ),
        ("Authorization: GenieKey 9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d\n".into(), "auth_header", "9a8b7c6d-5e4f"),
        (format!("tc = {}{r40}.{r40}\n", "eyJ0eXAiOiAiVENWMiJ9."), "teamcity_token", &r40[..12]),
        (format!("{}{r40}\n", "jina_"), "jina_key", &r40[..12]),
        ("MODAL_SECRET_VALUE as-Zq7Lm3Xw9Rt2Kp5Vb8Nc\n".into(), "modal_token", "Zq7Lm3Xw9Rt2"),
        (format!("RWRTY0Iy{r40}{r40}{r40}==\n"), "private_key", &r40[..12]),
        (" snmp-server community Wr4k-Lq9z RO 10\n".into(), "cli_secret", "Wr4k-Lq9z"),
        ("staging console, creds: ops / Harbor-Kettle-77 (rotate monthly)\n".into(), "assignment", "Harbor-Kettle-77"),
        ("radius-server host 10.0.0.9 auth-port 1812 key 7 Zq7Lm3Xw9R\n".into(), "cli_secret", "Zq7Lm3Xw9R"),
        ("$ snmpwalk -v2c -c Wr4k-Lq9z 10.1.1.1 system\n".into(), "cli_secret", "Wr4k-Lq9z"),
    ];
    assert_caught(&cases);
    for text in [
        "snmpwalk -v2c -c public 10.1.1.1 system",
        "provided as-is without warranty",
        "as-built drawings",
        "login: yes / no",
        "Login: GET /api/v2/session",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

/// Session 13's speed pre-checks (`Pre::Userinfo`, `Pre::DashedName`, `Pre::Hex`, the quoted
/// literal of `Pre::Call`) only keep windows shut where their patterns cannot match: each
/// pattern's secrets are still found, in the shapes at the edge of each check, and the texts
/// the checks now skip stay untouched.
#[test]
fn speed_prechecks_keep_what_the_patterns_find() {
    let user = "u".repeat(128);
    let long_secret = format!("Zq{}", "x9".repeat(120));
    assert_caught(&[
        // A password holding `:` and `@`-free punctuation; the longest name the pattern takes.
        ("psql postgres://app:Pa55:w0rd!x@db.example.test/app".to_string(), "url_credentials", "Pa55:w0rd"),
        (format!("remote = https://{user}:{long_secret}@git.example.test/x.git"), "url_credentials", "x9x9x9"),
        ("\"url\": \"amqp://svc:S3cretPass99@mq.example.test:5672\"".to_string(), "url_credentials", "S3cretPass99"),
        // Header names whose dash is far from the keyword, or right before it, any case.
        (
            "curl -H 'OCP-APIM-Subscription-Key: 0f9e8d7c6b5a49382716a5b4c3d2e1f0'".to_string(),
            "api_key_header",
            "0f9e8d7c6b5a",
        ),
        ("X-APIKEY: Qm7Zp2Lx9Vw4Rt8Ks3Nb6Hc1".to_string(), "api_key_header", "Qm7Zp2Lx9Vw4"),
        ("{\\\"private-token\\\": \\\"glq7Zp2Lx9Vw4Rt8Ks3N\\\"}".to_string(), "api_key_header", "glq7Zp2Lx9Vw4"),
        // A call's literal, quoted after blanks, and JSON-escaped.
        ("client.set_password (  'Vq8!mZ2#pL5x' )".to_string(), "assignment", "Vq8!mZ2#pL5x"),
        ("setApiKey(\\\"Rk29fLq0ZmX7pW3c\\\")".to_string(), "assignment", "Rk29fLq0ZmX7pW3c"),
        // WooCommerce keys with their 40 hex digits, at the end of the text too.
        ("ck_0123456789abcdef0123456789abcdef01234567".to_string(), "woocommerce_key", "0123456789abcdef"),
    ]);
    for text in [
        "docs at https://docs.example.test/guide/setup?page=2 and https://cdn.example.test:8443/a.js",
        "def authenticate(user, password): return check_hash(user.password_hash, password)",
        "let key = format!(\"{}:{}\", user.id, session.id);",
        "fn check_0123456789abcdef0123456789abcdef01234567() {}",
        "stack_frame_size: 4096",
    ] {
        assert_eq!(run(text).text, None, "{text}");
    }
}

#[test]
fn session13_integration_paths_and_vendor_formats_are_caught() {
    let hex32 = "7c1e9a2f4b6d8e0a3c5f7b9d1e2a4c6f";
    let uuid = "6e2d4c8a-1b3f-4a5e-9c7d-0f2e4a6c8b1d";
    let cases: Vec<(String, &str, &str)> = vec![
        // A private conda channel behind anaconda.org's token path.
        (
            "pip index: https://pypi.anaconda.org/t/zk-9wq2lm7xt4vb8nc3hd6j/simple\n".into(),
            "anaconda_token",
            "zk-9wq2lm7xt4vb8",
        ),
        (
            "conda install -c https://conda.anaconda.org/t/Rt7Kq2Lm9Xw4Pz8Vb3Nc/acme pkg\n".into(),
            "anaconda_token",
            "Rt7Kq2Lm9Xw4",
        ),
        // PagerDuty's v1 events endpoint carries its integration key in the path.
        (
            format!("alertmanager url: https://events.pagerduty.com/integration/{hex32}/enqueue\n"),
            "pagerduty_integration_key",
            &hex32[..12],
        ),
        // A Render deploy hook's key.
        (
            "post-merge: wget -qO- 'https://api.render.com/deploy/srv-b7c2k9x4p1?key=Lq3Zt8Wn2Rv'\n".into(),
            "render_deploy_hook",
            "Lq3Zt8Wn2Rv",
        ),
        // An Infisical service token anywhere.
        (format!("infisical export --token=st.{uuid}.{hex32}.{hex32}\n"), "infisical_service_token", &uuid[..13]),
        // A Logz.io token under a name saying so: letters only.
        (
            "logzio:\n  shipping_token: hold\nLOGZ_IO_API_TOKEN='kTqWmRzPxLvNbYcJdHgFsAeUiOoKtQwZ'\n".into(),
            "logzio_token",
            "kTqWmRzPxLvN",
        ),
        // HAProxy adding an upstream's credentials.
        (
            "  http-request add-header Authorization \"Bearer Vb3Nc8Hd6Jf1Gs5Ka0Pe7Ru2Yi9T\"\n".into(),
            "assignment",
            "Vb3Nc8Hd6Jf1",
        ),
        // A YAML list of `- key:` / `value:` pairs (Render's envVars and the like).
        (
            "vars:\n  - key: MAILGUN_SIGNING_KEY\n    value: 4e8c2a6f0b1d3e5a7c9f2b4d6e8a0c1e\n".into(),
            "assignment",
            "4e8c2a6f0b1d",
        ),
        // Postmark's server and account tokens after their names, in prose or assigned.
        (
            "mailer started with Server Token 0d9c8b7a-6f5e-4d3c-a2b1-0f9e8d7c6b5a (outbound stream)\n".into(),
            "postmark_token",
            "0d9c8b7a-6f5e",
        ),
        (
            "POST /templates ok; Account Token 5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d scope=templates\n".into(),
            "postmark_token",
            "5a6b7c8d-9e0f",
        ),
        // A SQL dump's row: its columns in the statement, or in the table's definition above.
        (
            "INSERT INTO public.mfa_devices (user_id, label, totp_secret) VALUES (42, 'phone', 'JBSWY3DPEHPK3PXPQ7RT4KZL');\n".into(),
            "assignment",
            "JBSWY3DPEHPK3PXP",
        ),
        (
            "CREATE TABLE hooks(\n  id int,\n  url text,\n  signing_key text\n);\nINSERT INTO hooks VALUES(3,'https://h.example.test/in','Wq7Zt2Lm9Xr4Pv8N');\n".into(),
            "assignment",
            "Wq7Zt2Lm9Xr4",
        ),
        // XML: a value under its element, a property list's string under its key.
        (
            "<LocalAccount>\n  <Password>\n    <Value>Brisk-Otter-5521</Value>\n".into(),
            "assignment",
            "Brisk-Otter-5521",
        ),
        (
            "<dict>\n  <key>SentryAuthToken</key>\n  <string>qw8ez3rt6yu1io4pa7sd0fg2hj5kl9</string>\n".into(),
            "assignment",
            "qw8ez3rt6yu1",
        ),
    ];
    assert_caught(&cases);
}

#[test]
fn session13_near_misses_stay() {
    for text in [
        // A public search-only key, a conda channel without a token, a Render service URL,
        // a PagerDuty incident link, words after `st.`.
        "  - key: TYPESENSE_SEARCH_API_KEY\n    value: 0f2e4a6c8b1d6e2d4c8a1b3f4a5e9c7d",
        "channels:\n  - https://conda.anaconda.org/conda-forge/linux-64",
        "dashboard: https://dashboard.render.com/web/srv-b7c2k9x4p1/deploys",
        "see https://acme.pagerduty.com/incidents/Q2W3E4R5T6Y7U8",
        "the first.second and last.entry of the list",
        "LOGZIO_REGION: eu",
        "CREATE TABLE accounts (id INTEGER, email TEXT, password_digest TEXT, api_token TEXT);\nINSERT INTO accounts VALUES(2,'ops@example.test','$2b$12$Qk3mP9qLw2Rt7Yv5Bn8CzuDh4Fj6Gk0QXp2Lm8Vn4Tz7Kq1Wb5Hc9','');",
        "server token rotation is tracked in OPS-1182",
        "<Password>\n  <PlainText>false</PlainText>\n</Password>",
        "<dict>\n  <key>CFBundleIdentifier</key>\n  <string>com.example.syncagent</string>\n  <key>ProgramArguments</key>\n  <string>/usr/local/bin/sync-agent</string>",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

/// Tenth round: the vendor formats added from the public catalogues (gitleaks' default rules,
/// TruffleHog's detectors, GitHub's secret-scanning list, Microsoft's identifiable keys),
/// each with an invented value of its documented shape, built from parts.
#[test]
fn round10_catalogue_formats_are_caught() {
    let cases: Vec<(String, &str, &str)> = vec![
        (
            format!("ADOBE_CLIENT_SECRET={}{}\n", "p8e-", "QM20pIfABAkjB3U4ng1UGPGwrKSjzEMX"),
            "adobe_client_secret",
            "QM20pIfABAkj",
        ),
        (
            format!(
                "authress: {}{}\n",
                "sc_", "jjG6lY15UbmB.gSWb9.acc_be8ddsmoeostp7nviuf4.8WfVwjC4JdnfXoQAFgm_4TeMnaxlc5EceEBGZOBIH-Bb"
            ),
            "authress_key",
            "jjG6lY15UbmB",
        ),
        (
            format!("clickhouse secret {}{}\n", "4b1d", "iCdOFOmBVkbpOEK5Zi1MjpL0Jof89p5SSHSAu5"),
            "clickhouse_key",
            "iCdOFOmBVkbp",
        ),
        (
            format!(
                "nebula: {}{}\n",
                "dnkey-", "6LtJRPCyXiI4zUUFEav2RyMTEe-RI20rguc5xYQyff8DVAwgjtDGPsD5EzQRVlH5r9fFoQiCWJfZCTL"
            ),
            "defined_networking_token",
            "6LtJRPCyXiI4",
        ),
        (
            format!(
                "FT_SECRET={}{}\n",
                "s-s4t2ud-", "fbdc352a2fad679e96f4076ddac2468841c04f746968e369417598c69886ea9b"
            ),
            "intra42_secret",
            "fbdc352a2fad",
        ),
        (
            format!("license {}{}\n", "YJ73Ra_", "v7W8F15s2p1fYbU6CvwhsD4r6dMhW_mmk"),
            "maxmind_license_key",
            "v7W8F15s2p1f",
        ),
        (
            format!("oc login --token={}{}\n", "sha256~", "kyphPgee5Y3zinh0SdiHNheMGhTe9jaF0-uU-kTAhcb"),
            "openshift_token",
            "kyphPgee5Y3z",
        ),
        (format!("SETTLEMINT={}{}\n", "sm_pat_", "LEgz187pn8ZqHHwH"), "settlemint_token", "LEgz187pn8Zq"),
        (
            format!("{}{}'\n", "BUNDLE_GEMS__CONTRIBSYS__COM: '", "5350ab76:b5ba7379"),
            "sidekiq_credentials",
            "5350ab76:b5b",
        ),
        (
            format!(
                "iam {}{}\n",
                "t1.",
                "qz-Im2q22C7MFtkeA0CuHPAayS_IXWo2DIyupVdK.K-03yIePkKDdOCEPp26d33w4dwCwNr_fQ110PTHquc0Tqe9e1yPMs7Pw9QGAjruYDGZp-RV-3YKfY2y8iV42ap"
            ),
            "yandex_key",
            "qz-Im2q22C7M",
        ),
        (format!("APIFY={}{}\n", "apify_api_", "wP4j8VlXhPFVhzRBNtmRciAFGlgsmW9kwdih"), "apify_token", "wP4j8VlXhPFV"),
        (
            format!("bb: {}{}\n", "BBDC-", "QoYeK8cznFUxiEbNsPteqhOZHWyhaWyxwBeiG7DV9SDO"),
            "bitbucket_dc_token",
            "QoYeK8cznFUx",
        ),
        (format!("appsync key {}{}\n", "da2-", "xe7nmierno3wc7pbwbl0qpxwny"), "aws_appsync_key", "xe7nmierno3w"),
        (
            format!(
                "rt={}{}\n",
                "0.A",
                "dk2FQwTT0qosBKR4S3XBF2sN_X4Zkg2uqNsTB7CrBpd42hqI_tujOWRnzTDC.AgeiPrrpsQt0nZJwyU501Ic_sHJxXwZzAioH0f8hwhFCkAO6PoCnwgc-PaNZQ8FxPh7Pjvp3tVfik2qVoyIHHG5MQIRLYJg9t7BJ6k8_V98EFHg_cBk8JmVzfhOGbAci0AZFIGn4R3M1gX_vETPfCvdlJ5kttYqbK50bQt-LdFP8I9AVdBl_aWVYYv6Bnht3B9phunQzmF_zXY2Qg--FJ2-Fv3E9M0gADTj_ixhuZ1SAtkePQhhena5W2hS-itNJWziLm9NHZDND55yJXEZGtvCvpesOZlxkhyK9ItXNDkyLw3"
            ),
            "azure_refresh_token",
            "dk2FQwTT0qos",
        ),
        (format!("bannerbear {}{}\n", "bb_pr_", "5bbe5e88e0f14ffb81f32b70b73b74"), "bannerbear_key", "5bbe5e88e0f1"),
        (format!("endor {}{}\n", "endr+", "I7R4eW2FR7wTe03N"), "endorlabs_key", "I7R4eW2FR7wT"),
        (format!("finage {}{}\n", "API_KEY", "RG5RBJLVJRR2KHKY0N0452FDJDC723CB"), "finage_key", "RG5RBJLVJRR2"),
        (format!("fleet {}{}\n", "flb_live_", "tQnaYHREbilgcnKMdl3T"), "fleetbase_key", "tQnaYHREbilg"),
        (
            format!("flexport {}{}\n", "shltm_", "f5PQxp6c64nQDn4it6J5aUAdz848LpGZMD7sVJ2N"),
            "flexport_key",
            "f5PQxp6c64nQ",
        ),
        (
            format!(
                "fs {}{}\n",
                "na1.",
                "76iJ3LT78JzkrooxyIRolxw6gcuFsz+3vDlOM3BBDhztzTttQRd+JUsiHB6nr4fnkRj2aO+oYe0X02J5hztjT2Y6C7iKU3VHEfFR"
            ),
            "fullstory_key",
            "76iJ3LT78Jzk",
        ),
        (format!("LANGFUSE={}{}\n", "sk-lf-", "f846fa0b-5f2a-88ae-9252-96531fc5b961"), "langfuse_key", "f846fa0b-5f2"),
        (format!("nr {}{}\n", "NRIQ-", "DNpybcOvz6KPv411C35j6OuytaSqehOD"), "newrelic_key", "DNpybcOvz6KP"),
        (format!("nightfall {}{}\n", "NF-", "fJ9hL7MBPpycmVnEwjX9ujXzyN9ey1zQ"), "nightfall_key", "fJ9hL7MBPpyc"),
        (
            format!("NGC={}{}\n", "nvapi-", "NTFiFYRkVmCrv_kAaxeUMz0dulcLYrRRunELDiYZkB47f3RocyLKMH40MgZifD51"),
            "nvidia_key",
            "NTFiFYRkVmCr",
        ),
        (format!("pagarme {}{}\n", "ak_live_", "h7RtwDNBtJnynfJdZ5MYJGwrB3tYpO"), "pagarme_key", "h7RtwDNBtJny"),
        (format!("pga {}{}\n", "pgar_", "R6odYPmsWvUqrEQauqmNDZVzeLc"), "pganalyze_key", "R6odYPmsWvUq"),
        (
            format!("pubnub {}{}\n", "sec-c-", "HEWnF25WsuOmXc5HL4w7GJBN0z4W4lr68bOXYicHc99yieZx"),
            "pubnub_secret_key",
            "HEWnF25WsuOm",
        ),
        (
            format!("ramp {}{}\n", "ramp_sec_", "tkNJW1hpjgBvT97X2RBWyLgxbZlyoJPnbShSixAoshZns0Ig"),
            "ramp_secret",
            "tkNJW1hpjgBv",
        ),
        (
            format!("recharge {}{}\n", "sk_2x2_", "0ece219bc9740de734d475ee06aed611daca53b849203b6f81c4ca452e35eae6"),
            "recharge_token",
            "0ece219bc974",
        ),
        (format!("rh {}{}\n", "rh-api-", "98987b5b-e922-6920-f376-ba15534774d1"), "robinhood_key", "98987b5b-e92"),
        (
            format!("rootly {}{}\n", "rootly_", "f21e5328ad7ad9a771ed3fd11dc5f8736bdec0307d85775ea73552edd5e82b8b"),
            "rootly_key",
            "f21e5328ad7a",
        ),
        (
            format!("salad {}{}\n", "salad_cloud_", "i6pPL_A19O4B7AkL9LLURNuCLK5WyVRyQVy89PUaWZaW7n"),
            "saladcloud_key",
            "i6pPL_A19O4B",
        ),
        (
            format!("cody {}{}\n", "slk_", "639de49b984732fa09ae41ed69709f81d14765f6bbd3341ae4b51dd1bb50310d"),
            "sourcegraph_token",
            "639de49b9847",
        ),
        (format!("spectral {}{}\n", "spu-", "wd23lpmhm9xwkfzi8kq22d3a8qcug1id"), "spectralops_token", "wd23lpmhm9xw"),
        (format!("ubidots {}{}\n", "BBFF-", "owVsPW4gp2OQ64k0SEO84CifVfQ8fd"), "ubidots_token", "owVsPW4gp2OQ"),
        (format!("vf {}{}\n", "VF.DM.", "871bb8657767712d9a8b30ad.XNkagEh5Y1ybcCZF"), "voiceflow_key", "871bb8657767"),
        (
            format!("zoho {}{}\n", "1000.", "66012df68d5a6fee634507e2c1054038.fe3f57a10313d2ba584e89e78af7aa00"),
            "zoho_token",
            "66012df68d5a",
        ),
        (format!("klaviyo {}{}\n", "pk_", "3857cf6b27827d8f9f5f2e649113676d5f"), "klaviyo_key", "3857cf6b2782"),
        (
            format!(
                "sf {}{}\n",
                "5AEP861", "nh7dP2CI1XoNf6lhu4OryU4h0Gjum_yYZB5YCCw5daHYpyVuyqhhJ__wlDKM9JWDiDQlQrRtRtzCiWZdUi6MFrNjNd"
            ),
            "salesforce_token",
            "nh7dP2CI1XoN",
        ),
        (
            format!("eventgrid {}{}\n", "D1chNtLyeRbtBDZWBvDt1Xh+pUXPdEPNA", "AZEGy9aT9A="),
            "azure_identifiable_key",
            "AZEGy9aT9A=",
        ),
        (
            format!("search {}{}\n", "nZySjrYRMcUPxIpnVwvkY6OUZAeBGk4ee0LW7R7t9P", "AzSeBKz6lT"),
            "azure_identifiable_key",
            "AzSeBKz6lT",
        ),
        (
            format!(
                "cosmos {}{}\n",
                "5C08Q+A8KAOUmoUJKwCg0eGWpifVC8ECKHhFFgcXnsXN00eoQlVzQqm4IJ/+8q5hde+nQ+c2B8Ph", "ACDbig2HYQ=="
            ),
            "azure_identifiable_key",
            "ACDbig2HYQ==",
        ),
        (
            format!("func {}{}\n", "hLqAnZGqrzl8Bpi7xzzF-ssgsfKXR2p9b89bsaWZx_I9", "AzFu5iEMhg=="),
            "azure_identifiable_key",
            "AzFu5iEMhg==",
        ),
        (
            format!("acr {}{}\n", "PhVPLae7X1qDN2WSwoLRdfoQR4e8MlrUOzIiGIckex", "+ACRC3U6Nl"),
            "azure_identifiable_key",
            "+ACRC3U6Nl",
        ),
        (format!("pg: {}{}\n", "AVNS_", "tKSVsJ8bokr9SzHk1na"), "aiven_password", "tKSVsJ8bokr9"),
        (
            format!(
                "lwa {}{}\n",
                "amzn1.oa2-cs.v1.", "2fc90b31a46c794bc6ef17ca12f63d5cd8eb048e72deab389086dec8cbade815"
            ),
            "amazon_oauth_secret",
            "2fc90b31a46c",
        ),
        (
            format!("onesignal {}{}\n", "os_v2_app_", "rayf7mno6323w66agn5qhr5kwft5u667guscaamvhvdaktq6lksjwvyv"),
            "onesignal_key",
            "rayf7mno6323",
        ),
        (format!("midtrans {}{}\n", "SB-Mid-server-", "qUslRNFgbqzU2tVx2FMllNKF"), "midtrans_key", "qUslRNFgbqzU"),
        (
            format!(
                "mercury {}{}\n",
                "secret-token:mercury_production_", "0up_rZcatRxP9l6g9D2zSJHJrVnzqDlLn3for2kf2kDE_yrucrem"
            ),
            "mercury_token",
            "0up_rZcatRxP",
        ),
        (
            format!("persona {}{}\n", "persona_production_", "42a4e6c4-5c33-f0d6-0410-921dcfef8845"),
            "persona_key",
            "42a4e6c4-5c3",
        ),
        (format!("samsara {}{}\n", "samsara_api_", "3ghuuukXnHLVDPDpc80zrpYR5emXbj"), "samsara_token", "3ghuuukXnHLV"),
        (format!("trigger {}{}\n", "tr_dev_", "vJA4QDl8Zkk6pg3m6WuS"), "trigger_dev_key", "vJA4QDl8Zkk6"),
        (
            format!("dvc {}{}\n", "dvc_server_", "747c1f1d-c04a-210a-1200-b603e3d642b1_hash"),
            "devcycle_key",
            "747c1f1d-c04",
        ),
        (format!("axiom {}{}\n", "xaat-", "9ff5a402-82d6-a7ff-b147-3af97a8894a5"), "axiom_token", "9ff5a402-82d"),
        (
            format!(
                "astra {}{}\n",
                "AstraCS:", "DEdjOgnSNWxtHVrnheaKNPGb:19d160baa62b86d5b8dd45ca9c3cebf73b46e3ec7c2f7f3aea57e511a34965ff"
            ),
            "datastax_token",
            "DEdjOgnSNWxt",
        ),
        (format!("zuplo {}{}\n", "zpka_", "70c71195b385bacf6f1cf40db5c74fc6_ba07a0c8"), "zuplo_key", "70c71195b385"),
        (
            format!("harness {}{}\n", "sat.", "4HiPFmHgExUfvvi1YBXHag.f9be7aa46e1375ce00f3c4aa.22bV9Vvx2sw2dSV6Eo2h"),
            "harness_token",
            "4HiPFmHgExUf",
        ),
        (
            format!("figma {}{}\n", "figp_", "bUrzA42X4XpwT54RNlXDmRtczOZJB4A44JqFMGC3XFlZ"),
            "figma_token",
            "bUrzA42X4Xpw",
        ),
        (format!("flw {}{}\n", "FLWSECK_TEST-", "4b7he947d486"), "flutterwave_key", "4b7he947d486"),
        (
            format!("sonar {}{}\n", "sqco_", "qqPdFlUMhJfzpYk5lE8aVzrbaSWuG5kTTGMG9LFaPexexH0EsabutiVRvWF"),
            "sonarqube_token",
            "qqPdFlUMhJfz",
        ),
        (
            format!(
                "docker swarm join --token {}{}\n",
                "SWMTKN-1-", "a0ymxcadltv307cmjqqqqtk4hnkejrmj3g51m2yxyqleqjjsy9-1k9k1jtglsvfm82kdhubimq8q"
            ),
            "docker_swarm_token",
            "a0ymxcadltv3",
        ),
        (
            format!("unlock key: {}{}\n", "SWMKEY-1-", "kgze4bFjyrwM3amyRCL+XGcJFIKLNZxHVUD1o9fhBQq"),
            "docker_swarm_token",
            "kgze4bFjyrwM",
        ),
        (
            format!("tableau pat {}{}\n", "JyXPIM63SDGGToWRtL7DlG==:", "CsPJIAS7QZKwJkBE4eXOR72hpF1qj67n"),
            "tableau_token",
            "CsPJIAS7QZKw",
        ),
        (format!("WAKATIME={}{}\n", "waka_", "b3d5db5d-31b6-a84c-b08a-ce4e1e7079c6"), "wakatime_key", "b3d5db5d-31b"),
        (
            format!("STYTCH_SECRET={}{}\n", "secret-test-", "Rk8_w2TqLx0vNc5ZbYh3Mj7Pd1Gs9Fa4Ue6"),
            "stytch_secret",
            "Rk8_w2TqLx0v",
        ),
        // The base64 of a JWT (a Kubernetes secret's `token` field pasted decoded once).
        (
            format!(
                "token: {}\n",
                "ZXlKaGJHY2lPaUpJVXpJMU5pSXNJblI1Y0NJNklrcFhWQ0o5LmV5SnpkV0lpT2lKemRtTXRaR1Z3Ykc5NUlpd2lhV0YwSWpveE56QXdNREF3TURBd2ZRLlEzVnpkRzl0VTJsbmJtRjBkWEpsVm1Gc2RXVkJZbU5FWldZ"
            ),
            "base64_secret",
            "ZXlKaGJHY2lPaUpJVXpJ",
        ),
        // Aiven's token scheme in an Authorization header.
        (
            format!("curl -H 'Authorization: aivenv1 {}{}'\n", "Qm9XkT3rLp8Zs2Vd", "Hy6Nc4Jf1Gw7Ue5Ab0Ri"),
            "auth_header",
            "Qm9XkT3rLp8Z",
        ),
    ];
    assert_caught(&cases);
}

/// Tenth round: what the new anchors meet in ordinary text stays.
#[test]
fn round10_catalogue_near_misses_stay() {
    for text in [
        "released 1000.5 and 1000.12.3 last week",
        "see CONF-1234 and INF-2211 for the NF-rules",
        "set API_KEY to the key from the dashboard",
        "class MicrosoftAzureManagementServicesAPIMClientFactory {}",
        "<p>version v1.0.Alpha and 0.About</p>",
        "PUBNUB_PUBLISH_KEY=pub-c-0f2e4a6c-8b1d-6e2d-4c8a-1b3f4a5e9c7d",
        "LANGFUSE_PUBLIC_KEY=pk-lf-0f2e4a6c-8b1d-6e2d-4c8a-1b3f4a5e9c7d",
        "MIDTRANS_CLIENT_KEY=SB-Mid-client-Qm9XkT3rLp8Zs2Vd",
        "RAMP_CLIENT_ID=ramp_id_Qm9XkT3rLp8Zs2VdHy6Nc4Jf1Gw7Ue5Ab0RiQm9XkT3r",
        "the panda2-enabled build and str_dev_mode flags",
        "digest 4b1d5e3a9d7b2c4e6f0a1b3d5e7f9c2a8c1f5e3a9d7b2c4e6f0a1b3d5e7f9c2a",
        "STRIPE_PUBLISHABLE_KEY=pk_live_51HqLyjWDarjtT1zdp7dcXiSlFlDZplJDbaXk",
        "https://example.test/account/password-reset?user=a:b",
    ] {
        let r = run(text);
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}

/// Session 14, after the tenth round: a hyphen after a secret word still names a random token
/// glued to it (the compound rule had dropped them), never a compound.
#[test]
fn a_secret_word_glued_to_a_random_token_is_caught_a_compound_is_not() {
    let tail = "Zq4rT8vLm2XwPk9sNd3Hy7Bc5Jf1Gu6Ae0QiRo8Tz2";
    for text in [
        format!("SERVER_KEY: secret-{tail}"),
        format!("apiKey: secret-{tail}"),
        format!("  \"serverToken\": \"token_{tail}\","),
        format!("the server key is secret-{tail} (prod)"),
    ] {
        let r = run(&text);
        let red = r.text.unwrap_or_default();
        assert!(!red.contains(tail), "{text}: {red}");
    }
    for text in [
        "see /account/password-reset-link-for-user?id=4 and the secret-rotation-v2-plan",
        "the secret-manager-integration doc and password-protected-archive-2026",
        "api_key: your-secret-token-here",
        "STRIPE_SECRET_KEY=sk_live_51Hxxxxxxxxxxxxxxxxxxxxxxxxx",
        "password: MySecretPassword2026",
    ] {
        assert_eq!(run(text).text, None, "{text}");
    }
}

//! The redaction benchmarks' 24 MB Claude Code JSONL transcript (issue 20 item 7): tool results
//! with source code, build output, JSON, prose and usage records, and a few secrets; the same
//! bytes on every run (a fixed LCG). Included by `host/benches/redact.rs` and by
//! `core/examples/redact_profile.rs` (`#[path]`), so both time the same text.

use std::sync::OnceLock;

const SIZE: usize = 24 << 20;

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() as usize) % xs.len()]
    }
    fn alnum(&mut self, n: usize) -> String {
        const A: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        (0..n).map(|_| A[(self.next() as usize) % A.len()] as char).collect()
    }
}

const CODE: &[&str] = &[
    "fn parse(input: &str) -> Result<Vec<Token>, Error> {",
    "    let token = lexer.next_token()?;",
    "    let key = format!(\"{}:{}\", user.id, session.id);",
    "    if password.len() < PASSWORD_MIN_LENGTH { return Err(Error::TooShort); }",
    "    for (i, line) in text.lines().enumerate() {",
    "        map.insert(key.clone(), value);",
    "    }",
    "import { useState, useEffect } from 'react';",
    "const response = await fetch(`${BASE_URL}/api/items?page=${page}`);",
    "def authenticate(user, password): return check_hash(user.password_hash, password)",
    "    headers = {\"Content-Type\": \"application/json\", \"Accept\": \"*/*\"}",
    "SELECT id, name, created_at FROM users WHERE org_id = $1 ORDER BY created_at DESC;",
];
const PROSE: &[&str] = &[
    "I'll read the configuration first and then update the tests so the failing case is covered.",
    "The build failed because the token budget was exceeded; the fix is to page the results.",
    "Rotate the key after the migration and update the secret in the deployment settings.",
    "This function returns the primary key of the inserted row; callers should not rely on order.",
    "See https://docs.example.com/guide/authentication for how API keys are issued.",
    "Let me check the git log: commit 3f786850e387550fdab836ed7e6dc881de23001b changed the parser.",
];
const OUTPUT: &[&str] = &[
    "   Compiling dossier-core v0.1.0 (/work/main/core)",
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 41.20s",
    "test redact::tests::markers_are_keyed_and_stable ... ok",
    "src/main.rs:42:17: warning: unused variable: `token`",
    "\"integrity\": \"sha512-Q5sHe3l1TZ1+ArUzbPlWm0x3SzC9WHZ4kWdtcnNvZm9vYmFyYmF6cXV4cXV1eA==\",",
    "checksum = \"c982642fa9e8606056828ee9a8505737230110bb1099153c79efe865c59d12ba\"",
    "drwxr-xr-x  5 user staff  160 Nov 30 12:01 node_modules/.bin",
];

/// The transcript: one JSON record per line, ~24 MB, with a secret every ~2 MB.
pub fn transcript() -> &'static str {
    static T: OnceLock<String> = OnceLock::new();
    T.get_or_init(|| {
        let mut rng = Lcg(20);
        let mut out = String::with_capacity(SIZE + (64 << 10));
        let mut n = 0u64;
        let mut next_secret = 1 << 20;
        while out.len() < SIZE {
            let mut body = String::new();
            let lines = 5 + rng.next() % 60;
            for _ in 0..lines {
                let table = match rng.next() % 3 {
                    0 => CODE,
                    1 => PROSE,
                    _ => OUTPUT,
                };
                body.push_str(rng.pick(table));
                body.push('\n');
            }
            if out.len() > next_secret {
                next_secret += 2 << 20;
                let secret = match rng.next() % 4 {
                    0 => format!("GITHUB_TOKEN=ghp_{}", rng.alnum(36)),
                    1 => format!("AWS_ACCESS_KEY_ID=AKIA{}", rng.alnum(16).to_uppercase()),
                    2 => format!("DATABASE_URL=postgres://app:{}@db.internal:5432/app", rng.alnum(20)),
                    _ => format!("-----BEGIN PRIVATE KEY-----\n{}\n{}\n-----END PRIVATE KEY-----", rng.alnum(64), rng.alnum(64)),
                };
                body.push_str(&secret);
                body.push('\n');
            }
            n += 1;
            let role = if n.is_multiple_of(2) { "assistant" } else { "user" };
            let record = serde_json::json!({
                "parentUuid": format!("{:08x}-0000-4000-8000-{:012x}", n, n * 7),
                "type": role,
                "message": {"role": role, "content": [{"type": "tool_result", "tool_use_id": format!("toolu_{}", rng.alnum(24)), "content": body}]},
                "usage": {"input_tokens": rng.next() % 100_000, "cache_read_input_tokens": rng.next() % 50_000, "output_tokens": rng.next() % 4000},
                "timestamp": "2026-11-30T12:00:00.000Z",
            });
            out.push_str(&record.to_string());
            out.push('\n');
        }
        out
    })
}

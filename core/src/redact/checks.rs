//! The checks a candidate secret passes before it is redacted: word boundaries that know
//! JSON escapes, placeholders and templates, values that are code or ids rather than
//! secrets, the entropy/shape gate of generic assignments, and what the rules and the net share
//! (base64 decoding, the words before `key`/`token` that make a name something else).
//!
//! Not for: finding candidates (`scan.rs`) or the rule table (`rules.rs`).

/// Bits per character of `s` (Shannon entropy over bytes).
pub fn shannon_entropy(s: &str) -> f64 {
    let mut counts = [0u32; 256];
    for &b in s.as_bytes() {
        counts[b as usize] += 1;
    }
    let n = s.len() as f64;
    if s.is_empty() {
        return 0.0;
    }
    counts
        .iter()
        .filter(|&&k| k > 0)
        .map(|&k| {
            let p = k as f64 / n;
            -p * p.log2()
        })
        .sum()
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Number of backslashes immediately before `at`.
fn backslashes_before(bytes: &[u8], at: usize) -> usize {
    bytes[..at].iter().rev().take_while(|&&b| b == b'\\').count()
}

/// A byte of a key name (`DB_PASSWORD`, `api-key`, `spring.datasource.password`).
pub fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-')
}

/// A line start at `p`: the text's start, after a newline, raw or JSON-escaped (`\n`).
pub fn line_start(bytes: &[u8], p: usize) -> bool {
    p == 0 || bytes[p - 1] == b'\n' || (p >= 2 && bytes[p - 2] == b'\\' && bytes[p - 1] == b'n')
}

/// True when position `at` starts a token: the byte before is not a word character, or it is
/// the letter of a JSON escape (`\n`, `\t`, `\r`, `\u00XX`'s last digit is not handled).
pub fn left_boundary(bytes: &[u8], at: usize) -> bool {
    if at == 0 {
        return true;
    }
    let prev = bytes[at - 1];
    if !is_word(prev) {
        return true;
    }
    matches!(prev, b'n' | b't' | b'r' | b'b' | b'f') && backslashes_before(bytes, at - 1) % 2 == 1
}

/// True when position `at` ends a token: the byte there is not a word character.
pub fn right_boundary(bytes: &[u8], at: usize) -> bool {
    at >= bytes.len() || !is_word(bytes[at])
}

/// Move a span off JSON escapes: a start right after an unpaired backslash skips the
/// escaped character (so `\n` is not split), and an end after an unpaired backslash drops
/// it. Returns `None` when nothing is left.
pub fn off_escapes(bytes: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    let mut s = start;
    if s > 0 && backslashes_before(bytes, s) % 2 == 1 {
        s += if bytes.get(s) == Some(&b'u') { 5 } else { 1 };
    }
    let mut e = end;
    if e > s && backslashes_before(bytes, e) % 2 == 1 {
        e -= 1;
    }
    (s < e && e <= bytes.len()).then_some((s, e))
}

/// Words that make a value a placeholder rather than a secret.
const PLACEHOLDER_WORDS: &[&str] = &[
    "example",
    "dummy",
    "placeholder",
    "changeme",
    "change_me",
    "change-me",
    "your_",
    "your-",
    "yourkey",
    "yourtoken",
    "yoursecret",
    "yourpassword",
    "_here",
    "-here",
    "redacted",
    "xxxxx",
    "*****",
    "sample",
    "replace",
    "insert",
    "fixme",
    "todo",
    "secret",
    "password",
    "passwd",
    "token",
    "foobar",
    "test123",
    "abc123",
    "123456",
    "qwerty",
    "lorem",
    "notreal",
    "not_real",
    "not-real",
    "fake",
];

/// True for an obvious placeholder or template: `<your-key>`, `${VAR}`, `$(cmd)`, `%s`,
/// `{{ x }}`, `***`, `example`, `changeme`, `your_api_key_here`, a run of one character.
pub fn is_placeholder(v: &str) -> bool {
    v.contains('<') || v.contains('>') || is_placeholder_literal(v)
}

/// `is_placeholder` without its `<`/`>` test: a `<…>` inside is a character; at its start it
/// still is a placeholder (round 6's literal rule used it; since round 7 that rule uses
/// [`is_placeholder_generated`], which also reads sigils as characters of a generated key).
fn is_placeholder_literal(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    if v.starts_with(['$', '%', '<', '{', '@', '*', '[', '&'])
        || v.contains("${")
        || v.contains("$(")
        || v.contains("{{")
        || v.contains("%s")
        || v.contains("%(")
        || v.contains("***")
        || v.contains("...")
        || v.contains("…")
    {
        return true;
    }
    if PLACEHOLDER_WORDS.iter().any(|w| lower.contains(w) && !(NAMING_WORDS.contains(w) && generated_run(v.as_bytes())))
    {
        return true;
    }
    repeated(v)
}

/// The placeholder words that vendors also use as a key's prefix (`secret-…`, `token_…`): beside
/// a generated run ([`generated_run`]) they name the key, and the value is not a placeholder.
const NAMING_WORDS: &[&str] = &["secret", "password", "passwd", "token"];

/// Whether `v` holds a run that reads as generated: at least 16 ASCII letters and digits in a
/// row, with a digit, a lower- and an upper-case letter, no character four times running, and
/// the class (upper, lower, digit) changing at least once in three characters, as it does about
/// twice in three in a random base62 string (`Zq4rT8vLm2XwPk9s…`; never `reset`, `rotation-v2`,
/// `51Hxxxxxxxxxxxxxxx`, `MySecretPassword2026`).
pub fn generated_run(v: &[u8]) -> bool {
    let class = |c: &u8| (c.is_ascii_uppercase() as u8) + 2 * (c.is_ascii_digit() as u8);
    v.split(|c| !c.is_ascii_alphanumeric()).any(|t| {
        t.len() >= 16
            && t.iter().any(u8::is_ascii_digit)
            && t.iter().any(u8::is_ascii_lowercase)
            && t.iter().any(u8::is_ascii_uppercase)
            && !t.windows(4).any(|w| w.iter().all(|&c| c == w[0]))
            && t.windows(2).filter(|w| class(&w[0]) != class(&w[1])).count() * 3 >= t.len()
    })
}

/// `is_placeholder_literal` for a framework's generated key (round 7): Django's
/// `get_random_secret_key` and WordPress's salts draw from alphabets with `$ % & * @ ( ) [ ]`,
/// so a leading sigil or a `$(`, `%(`, `%s` inside is a character of the key — one in six
/// Django keys starts with a sigil or holds such a pair. A template is still one: a value that
/// is a sigil and a name (`$SECRET_KEY`, `&anchor`, `@Value`), `<…>` whole, `${NAME}`,
/// `$(cmd)`, `%(name)s`, `{{ … }}`, a placeholder word, a run of one character.
pub fn is_placeholder_generated(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    if PLACEHOLDER_WORDS.iter().any(|w| lower.contains(w)) || repeated(v) {
        return true;
    }
    if ["{{", "***", "...", "…"].iter().any(|t| v.contains(t)) || (v.starts_with('<') && v.ends_with('>')) {
        return true;
    }
    let b = v.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-');
    // A sigil and a name, to the end (a closing bracket allowed).
    if b.first().is_some_and(|c| b"$%{@*[&".contains(c)) {
        let rest = v[1..].trim_start_matches(['{', '(']).trim_end_matches(['}', ')', ']']);
        if !rest.is_empty() && rest.bytes().all(ident) {
            return true;
        }
    }
    // `${NAME}`, `$(cmd …)`, `%(name)s`: an opener, a name of 2+, its closer.
    for (i, w) in b.windows(2).enumerate() {
        let close = match w {
            b"${" => b'}',
            b"$(" | b"%(" => b')',
            _ => continue,
        };
        let name = &b[i + 2..];
        let len = name.iter().take_while(|&&c| ident(c) || c == b' ').count();
        if len >= 2 && name.get(len) == Some(&close) && name[0].is_ascii_alphabetic() {
            return true;
        }
    }
    false
}

/// True when one character makes up most of `v` (`xxxxxxxx`, `0000000000`, `aaaa1111`).
pub fn repeated(v: &str) -> bool {
    let b = v.as_bytes();
    if b.is_empty() {
        return true;
    }
    let mut counts = [0u32; 256];
    for &c in b {
        counts[c as usize] += 1;
    }
    let max = counts.iter().copied().max().unwrap_or(0) as usize;
    max * 2 >= b.len() || (b.len() >= 8 && distinct(b) <= 3)
}

fn distinct(b: &[u8]) -> usize {
    let mut seen = [false; 256];
    b.iter().filter(|&&c| !std::mem::replace(&mut seen[c as usize], true)).count()
}

/// The random part of a provider token is a placeholder when it is one repeated character
/// or spelled out (`ghp_xxxxxxxx…`, `sk-your-key-here`).
pub fn token_placeholder(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    is_documented_example(body)
        || repeated(body)
        || shannon_entropy(body) < 2.0
        || ["xxxxxx", "your", "here", "placeholder", "redacted", "<", ">", "***", "..."]
            .iter()
            .any(|w| lower.contains(w))
}

/// A vendor's documented example credential: the values AWS, Stripe, Twilio and others print
/// in their documentation carry `EXAMPLE` in capitals (`AKIAIOSFODNN7EXAMPLE`,
/// `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`); they were never valid and users keep them in
/// docs and tests. A random token holds `EXAMPLE` with negligible probability.
pub fn is_documented_example(v: &str) -> bool {
    v.contains("EXAMPLE") || DOCUMENTED_EXAMPLES.iter().any(|e| v.contains(e))
}

/// Published example values without `EXAMPLE` in them, each from its vendor's documentation:
/// the signature of jwt.io's example token (jwt.io, the debugger's default), Stripe's API
/// reference test keys (`sk_test_4eC39HqLyjWDarjtT1zdp7dc`, docs.stripe.com/api "Authentication";
/// `sk_test_BQokikJOvBiI2HlWgH4olfQ2`, its earlier docs), Slack's `xoxb-not-a-real-token-…`
/// (api.slack.com samples). A provider rule's match equal to one of them is not a secret.
const DOCUMENTED_EXAMPLES: &[&str] = &[
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "4eC39HqLyjWDarjtT1zdp7dc",
    "BQokikJOvBiI2HlWgH4olfQ2",
    "not-a-real-",
    "not_a_real_",
];

/// Values public by design, whatever key they are assigned to: Stripe publishable keys
/// (`pk_live_`/`pk_test_`, docs.stripe.com/keys), Mapbox public tokens (`pk.eyJ`), Supabase
/// publishable keys (`sb_publishable_`), Flutterwave public keys (`FLWPUBK`), SSH public key
/// blobs (`ssh-ed25519 AAAAC3NzaC1…`, `AAAAB3NzaC1…`, `AAAAE2VjZHNh…`), age recipients
/// (`age1…`).
pub fn is_public_by_design(v: &str) -> bool {
    [
        "pk_live_",
        "pk_test_",
        "pk.eyJ",
        "sb_publishable_",
        "FLWPUBK",
        "ssh-ed25519",
        "ssh-rsa",
        "ecdsa-sha2-",
        "AAAAB3NzaC1",
        "AAAAC3NzaC1",
        "AAAAE2VjZHNh",
        "age1",
    ]
    .iter()
    .any(|p| v.starts_with(p))
}

/// Dossier's own ids (`dos_`, `art_`, ... followed by a ULID): never secrets.
pub fn is_dossier_id(v: &str) -> bool {
    ["dos_", "art_", "rev_", "sess_", "conf_", "lrn_"].iter().any(|p| {
        v.strip_prefix(p).is_some_and(|rest| rest.len() >= 26 && rest.bytes().all(|c| c.is_ascii_alphanumeric()))
    })
}

/// True for a UUID (any version), 8-4-4-4-12 hex.
pub fn is_uuid(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() == 36
        && b.iter()
            .enumerate()
            .all(|(i, &c)| if [8, 13, 18, 23].contains(&i) { c == b'-' } else { c.is_ascii_hexdigit() })
}

/// True for values that are code, paths, versions, numbers or URLs rather than secrets.
pub fn is_not_a_value(v: &str) -> bool {
    // TypeScript's non-null assertion: `process.env.API_KEY!` is a reference.
    let v = match v.strip_suffix('!') {
        Some(r) if r.contains('.') => r,
        _ => v,
    };
    let b = v.as_bytes();
    // A dotted identifier path or a plain identifier: `self.token`, `os.environ`, `next_token`.
    // A part that looks random (long, upper, lower and digits: `dp.st.prd.xr5RZq…`) makes it a
    // dotted token, not code.
    let ident_path = v.split('.').all(|part| {
        let p = part.as_bytes();
        !part.is_empty()
            && p[0].is_ascii_alphabetic()
            && p.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
            && !(p.len() >= 16
                && p.iter().any(u8::is_ascii_uppercase)
                && p.iter().any(u8::is_ascii_lowercase)
                && p.iter().any(u8::is_ascii_digit))
            // One-case random parts too (`mlsn.e1368a87…`, hex or base36 after a vendor's
            // dotted prefix): code's names do not run 20 characters without a `_` and switch
            // between letters and digits 4 times (`backend_2024`, `utf8`, `v1beta1` do not).
            && !(p.len() >= 20
                && !part.contains('_')
                && p.windows(2).filter(|w| w[0].is_ascii_digit() != w[1].is_ascii_digit()).count() >= 4)
    });
    if ident_path && (v.contains('.') || !b.iter().any(u8::is_ascii_digit)) {
        return true;
    }
    // Numbers, versions, dates: digits and separators only.
    if b.iter().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'-' | b'_' | b':' | b'+' | b'v')) {
        return true;
    }
    // Paths and URLs without credentials.
    if v.starts_with('/') || v.starts_with("./") || v.starts_with("~/") || v.contains("://") {
        return true;
    }
    // Digests: `sha256:…`, `sha512-…`.
    let lower = v.to_ascii_lowercase();
    if ["sha1", "sha256", "sha384", "sha512", "md5", "blake3", "blake2"]
        .iter()
        .any(|p| lower.strip_prefix(p).is_some_and(|r| r.starts_with([':', '-', '='])))
    {
        return true;
    }
    is_dossier_id(v)
}

/// The entropy/shape gate of generic assignments: long enough, not one class of character
/// only (digits only, or lowercase words), and random enough for its length.
pub fn random_looking(v: &str) -> bool {
    let b = v.as_bytes();
    let n = b.len();
    if n < 8 {
        return false;
    }
    let lower = b.iter().any(u8::is_ascii_lowercase);
    let upper = b.iter().any(u8::is_ascii_uppercase);
    let digit = b.iter().any(u8::is_ascii_digit);
    let other = b.iter().any(|c| !c.is_ascii_alphanumeric());
    let h = shannon_entropy(v);
    if !(lower || upper) {
        return false;
    }
    if !digit && !other {
        // Letters only: random only when long, mixed case and varied.
        return n >= 16 && lower && upper && h >= 3.5;
    }
    if !digit && !upper {
        // Lowercase words with separators (`my-service-name`).
        return false;
    }
    let needed = if n < 12 {
        2.75
    } else if n < 20 {
        3.0
    } else {
        3.2
    };
    h >= needed
}

/// Decode standard or URL-safe base64 without padding; `None` on a character outside both
/// alphabets or a length that cannot be base64.
pub(super) fn decode_base64(s: &[u8]) -> Option<Vec<u8>> {
    if s.len() % 4 == 1 {
        return None;
    }
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    for chunk in s.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c)? << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    Some(out)
}

/// Words before `key` or `token` that make the name something other than a secret.
pub(super) const NOT_SECRET_BEFORE: &[&str] = &[
    "public",
    "pub",
    "cache",
    "foreign",
    "sort",
    "partition",
    "idempotency",
    "object",
    "lookup",
    "map",
    "dict",
    "hash",
    "row",
    "group",
    "unique",
    "composite",
    "index",
    "i18n",
    "translation",
    "react",
    "list",
    "route",
    "query",
    "next",
    "page",
    "continuation",
    "pagination",
    "cursor",
    "sync",
    "start",
    "end",
    "max",
    "min",
    "num",
    "total",
    "input",
    "output",
    "prompt",
    "completion",
    "eof",
    "lexer",
    "parse",
    "csrf",
    "sort",
    "dedupe",
    "dedup",
    "file",
    "config",
    "registry",
    "s3",
    "bucket",
    "storage",
    "kms",
    "gpg",
    "pgp",
    "ssh",
    "host",
    "known",
    "keyboard",
    "hot",
    "short",
    "shortcut",
    "sign",
    "verify",
    "verification",
    "upload",
    "download",
    "form",
    "publishable",
    "publish",
    "site",
    "recaptcha",
    "search",
    "get",
    "set",
    "pop",
    "has",
    "sorted",
];

/// The words of a key name: `DB_PASSWORD` → db, password; `apiKey` → api, key.
pub(super) fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entropy() {
        assert_eq!(shannon_entropy(""), 0.0);
        assert_eq!(shannon_entropy("aaaa"), 0.0);
        assert!((shannon_entropy("abcdefgh") - 3.0).abs() < 1e-9);
    }

    #[test]
    fn boundaries_know_json_escapes() {
        let t = br#"a\nghp_x"#;
        assert!(left_boundary(t, 3));
        assert!(!left_boundary(b"xghp_", 1));
        assert!(!left_boundary(br"\\nghp_", 3));
        assert_eq!(off_escapes(br"ab\ncd", 3, 6), Some((4, 6)));
        assert_eq!(off_escapes(br"abcd\x", 0, 5), Some((0, 4)));
    }

    #[test]
    fn gate() {
        for v in ["Xk9mP2qL7wZ", "a8f5f167f44f4964e6c998dee827110c", "Tr0ub4dor&3x", "wJalrXUtnFEMIK7MDENGbPxRfiCY"] {
            assert!(random_looking(v), "{v}");
        }
        for v in ["my-service-name", "12345678901", "hello_world", "next_token", "aaaa1111"] {
            assert!(!random_looking(v) || is_placeholder(v) || is_not_a_value(v), "{v}");
        }
        for v in [
            "<your-key>",
            "${API_KEY}",
            "$(pass show x)",
            "%s",
            "{{ secrets.X }}",
            "***",
            "changeme",
            "your_api_key_here",
            "xxxxxxxxxxxx",
        ] {
            assert!(is_placeholder(v), "{v}");
        }
    }
}

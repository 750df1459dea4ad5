//! The high-entropy net (issue 20, fifth round): a token of a random-looking shape that no
//! rule anchored is a secret (`high_entropy`) unless it is a known non-secret shape.
//!
//! How: one byte scan (a 256-entry table, no regex, probing every [`MIN_LEN`] bytes) for runs
//! of token characters
//! (`[A-Za-z0-9+/_-]`, `=` padding at the end); only a run of at least [`MIN_LEN`] bytes is
//! looked at, and only then are the exclusions checked (each with its reason in
//! docs/privacy.md, "Fifth round"):
//! - the shape: upper case, lower case and digits all present (so all-hex — git SHAs,
//!   sha256, md5 — UUIDs and ULIDs are never caught), Shannon entropy at least
//!   [`MIN_ENTROPY`] bits a character, at least [`MIN_DIGITS`] digits and at least
//!   [`MIN_CASE_FLIPS`] case changes (words and identifiers change case rarely);
//! - identifiers: every `_`/`-`-separated part a word (`lower`, `Capital`, `UPPER`, digits);
//! - paths and URLs: a run with a `/` that has a lowercase word part (`/usr/lib/…`), a run
//!   inside a URL (`://` earlier in the same token) or right after `/`, `.`, `\`, `@`, `#`,
//!   `%`, `&`, `?`, `=` of a query string;
//! - digests and integrity values: `sha256:`, `sha512-`, `h1:`, `md5:`, `blake3:` …, `integrity`,
//!   a nonce (`nonce-…`, the word `nonce` just before: a CSP nonce is sent in every response);
//! - public keys: SSH key blobs (`AAAA…` after `ssh-*`/`ecdsa-*`), age recipients, any run
//!   inside a `-----BEGIN …-----` armor block (public keys, certificates, signatures;
//!   private keys are the `private_key` rule's), JWTs (`eyJ…` and the segments after one:
//!   the `jwt` rule decides, a public anon key stays);
//! - base64 of a text with words or spaces (a settings file, a user name): decoded, it is a
//!   structure, not a key;
//! - Dossier ids, publishable keys, vendors' documented examples, placeholders.
//!
//! Not for: tokens a rule found (the net only fills the gaps between the rules' spans).

use super::{checks, public};

/// The kind of the net's markers.
pub const KIND: &str = "high_entropy";
/// The shortest run looked at (round 7: 16, was 20).
pub const MIN_LEN: usize = 16;
/// Bits a character (Shannon) a run must reach (round 7: 3.4, was 3.6).
pub const MIN_ENTROPY: f64 = 3.4;
/// Digits a run must hold (round 7: 1, was 2).
pub const MIN_DIGITS: usize = 1;
/// Changes between lower and upper case (letters only) a run must hold (round 7: 2, was 4).
pub const MIN_CASE_FLIPS: usize = 2;
/// Runs shorter than this that decode (base64) to printable text are text, not a key (round
/// 7: the shorter runs the net now reads hold base64 of words: `UGFzc3dvcmQ6`, "Password:").
const SHORT_TEXT: usize = 20;
/// The longest run (longer: a blob, not a credential).
const MAX_LEN: usize = 512;

/// Token characters of a run.
static TOKEN: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'_' || b == b'-';
        c += 1;
    }
    t
};

/// The net's candidates in `bytes`: `(start, end)` of each random-looking run not excluded.
pub fn find(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Armor lines, found once, the first time a run needs them (`in_armor`).
    let mut armor: Option<Armor> = None;
    let n = bytes.len();
    // Probes every `MIN_LEN` bytes: a run of `MIN_LEN` or more holds a probe, so a probe on a
    // non-token byte skips `MIN_LEN` bytes at once; a probe on a token byte is widened to its
    // run (never left of the previous run's end), and the next probe is `MIN_LEN` past it.
    let mut p = MIN_LEN - 1;
    let mut floor = 0usize;
    while p < n {
        if !TOKEN[bytes[p] as usize] {
            p += MIN_LEN;
            continue;
        }
        let left = bytes[floor..p].iter().rposition(|&c| !TOKEN[c as usize]).map_or(floor, |k| floor + k + 1);
        let right = p + bytes[p..].iter().position(|&c| !TOKEN[c as usize]).unwrap_or(n - p);
        floor = right;
        p = right + MIN_LEN;
        let mut s = left;
        // A JSON escape's letters before the run are not part of it (`\nGd4…`, `\u2192Gd4…`).
        if s > 0 && bytes[s - 1] == b'\\' {
            if matches!(bytes[s], b'n' | b't' | b'r' | b'b' | b'f') {
                s += 1;
            } else if bytes[s] == b'u' {
                s = (s + 5).min(right);
            }
        }
        let mut e = right;
        if e - s < MIN_LEN {
            continue;
        }
        // `=` padding belongs to a base64 run (`a=b` is an assignment, not padding).
        let mut pad = 0;
        while e < n && bytes[e] == b'=' && pad < 2 {
            e += 1;
            pad += 1;
        }
        if pad > 0 && e < n && TOKEN[bytes[e] as usize] {
            e -= pad;
        }
        if e - s > MAX_LEN {
            continue;
        }
        if let Some(end) = snowflake_token(bytes, s, e) {
            out.push((s, end));
            floor = end;
            p = end + MIN_LEN;
            continue;
        }
        if secret_run(bytes, s, e, &mut armor) {
            out.push((s, e));
        }
    }
    out
}

/// Where the text's armor lines start (`-----BEGIN `, `-----END `), in order.
struct Armor {
    begins: Vec<usize>,
    ends: Vec<usize>,
}

/// Type prefixes of object ids that look random (Claude Code's and AI APIs' tool-use,
/// message and request ids; Stripe's object ids): ids, not credentials.
const ID_PREFIXES: &[&[u8]] = &[
    b"toolu_",
    b"srvtoolu_",
    b"msg_",
    b"req_",
    b"call_",
    b"chatcmpl-",
    b"run_",
    b"thread_",
    b"asst_",
    b"file-",
    b"file_",
    b"batch_",
    b"evt_",
    b"cus_",
    b"pi_",
    b"pm_",
    b"ch_",
    b"in_",
    b"sub_",
    b"price_",
    b"prod_",
    b"seti_",
    b"txn_",
    b"acct_",
    b"cs_live_",
    b"cs_test_",
    // Round 7: OpenAI project and organisation ids (ids in every request log).
    b"proj_",
    b"org-",
];

/// Whether the run `s..e` is a secret by its shape and context (cheapest checks first).
fn secret_run(bytes: &[u8], s: usize, e: usize, armor: &mut Option<Armor>) -> bool {
    let run = &bytes[s..e];
    let body = run.strip_suffix(b"==").or_else(|| run.strip_suffix(b"=")).unwrap_or(run);
    if !classes(body) || excluded_before(bytes, s) || ID_PREFIXES.iter().any(|p| body.starts_with(p)) {
        return false;
    }
    if identifier(body) || path(body) || jwt_part(bytes, s, body) || entropy(body) < MIN_ENTROPY {
        return false;
    }
    let Ok(v) = std::str::from_utf8(run) else { return false };
    if checks::is_dossier_id(v)
        || public::is_public(v)
        || checks::is_documented_example(v)
        || checks::is_placeholder(v)
        || checks::is_not_a_value(v)
    {
        return false;
    }
    if in_url(bytes, s) || public_name(bytes, s) || public::sealed_around(bytes, s, e) {
        return false;
    }
    let armor = armor.get_or_insert_with(|| Armor {
        begins: memchr::memmem::find_iter(bytes, b"-----BEGIN ").collect(),
        ends: memchr::memmem::find_iter(bytes, b"-----END ").collect(),
    });
    if in_armor(armor, s) {
        return false;
    }
    if MAGIC.iter().any(|m| body.starts_with(m)) {
        return false;
    }
    !(base64_of_text(body) || (body.len() < SHORT_TEXT && base64_of_printable(body)))
}

/// A bot token whose first part is the base64 of a numeric id (Discord's
/// `<base64 of a 17–20-digit snowflake>.<6>.<27–40>`), found by its structure wherever it is:
/// the net cannot see it otherwise (its first part decodes to digits, its later parts follow a
/// `.`), and no name need stand beside it (`echo "<token>" | wrangler secret put …`). The end
/// of the token, or `None`.
fn snowflake_token(bytes: &[u8], s: usize, e: usize) -> Option<usize> {
    let first = &bytes[s..e];
    if !(23..=28).contains(&first.len()) || bytes.get(e) != Some(&b'.') {
        return None;
    }
    let part = |from: usize| from + bytes[from..].iter().take(48).take_while(|c| TOKEN[**c as usize]).count();
    let second = part(e + 1);
    if second - (e + 1) != 6 || bytes.get(second) != Some(&b'.') {
        return None;
    }
    let end = part(second + 1);
    let third = &bytes[second + 1..end];
    if !(27..=40).contains(&third.len()) || !classes(third) || bytes.get(end).is_some_and(|c| *c == b'.') {
        return None;
    }
    let id = checks::decode_base64(first)?;
    ((17..=20).contains(&id.len()) && id.iter().all(u8::is_ascii_digit)).then_some(end)
}

/// Base64 of a file format's magic bytes: PNG, JPEG, GIF, ICO, WebP, PDF, gzip, zip, a
/// `data:` URI's payload — content, not a key.
const MAGIC: &[&[u8]] = &[b"iVBORw0KGgo", b"/9j/", b"R0lGOD", b"AAABAA", b"UklGR", b"JVBERi0", b"H4sI", b"UEsDB"];

/// The name the run is assigned to (`PublicKey = …`, `"client_id": "…"`, `user=…`; a
/// `value` member: the `key`/`name`/`type` member before it, which, without a secret word,
/// says what the value is) says it is public or an identifier:
/// a `public`/`pub` word, a key the assignment rule calls public (`site_key`, `cache_key`),
/// or a last word `id`, `fingerprint`, `hash`, `digest`, `checksum`,
/// `etag`, `user`, `username`, `login`, `email`.
fn public_name(bytes: &[u8], s: usize) -> bool {
    let Some(name) = name_before(bytes, s) else { return false };
    let name = if name.eq_ignore_ascii_case(b"value") {
        // Postman / Kubernetes env: `{"key": "username", "value": "…"}`, `- name: X` / `value:`.
        let lo = s.saturating_sub(240);
        let hay = &bytes[lo..s];
        let found = [&b"\"key\""[..], b"\"name\"", b"\"type\"", b"name:", b"key:"]
            .iter()
            .filter_map(|m| memchr::memmem::rfind(hay, m).map(|i| (i, m.len())))
            .max();
        let Some((i, l)) = found else { return false };
        let mut p = lo + i + l;
        while p < s && matches!(bytes[p], b' ' | b'\t' | b':' | b'"' | b'\'' | b'\\') {
            p += 1;
        }
        let ns = p;
        while p < s && (bytes[p].is_ascii_alphanumeric() || matches!(bytes[p], b'_' | b'-' | b'.')) {
            p += 1;
        }
        // The structure names the value: a name with no secret word (`username`, a tfstate
        // `aws_s3_bucket`) says what it is; one with a secret word leaves it to the shape.
        let named = &bytes[ns..p];
        let lower = named.to_ascii_lowercase();
        let secret_word = ["pass", "pwd", "secret", "token", "key", "cred", "auth"]
            .iter()
            .any(|w| memchr::memmem::find(&lower, w.as_bytes()).is_some());
        if !named.is_empty() && !secret_word {
            return true;
        }
        named.to_vec()
    } else {
        name
    };
    let w = checks::words(&String::from_utf8_lossy(&name));
    if w.iter().any(|x| x == "public" || x == "pub") || public::is_public_name(&w) {
        return true;
    }
    // A key the assignment rule knows is not a secret's (`RECAPTCHA_SITE_KEY`, `cache_key`).
    let n = w.len();
    if n >= 2
        && matches!(w[n - 1].as_str(), "key" | "token" | "auth")
        && checks::NOT_SECRET_BEFORE.contains(&w[n - 2].as_str())
    {
        return true;
    }
    w.last().is_some_and(|l| {
        matches!(
            l.as_str(),
            "id" | "ids"
                | "fingerprint"
                | "hash"
                | "digest"
                | "checksum"
                | "etag"
                | "nonce"
                | "user"
                | "username"
                | "login"
                | "email"
        )
    })
}

/// The key name right before a value at `s` on its line: back over quotes, spaces and one
/// `=`/`:`, then the name's characters.
fn name_before(bytes: &[u8], s: usize) -> Option<Vec<u8>> {
    let lo = s.saturating_sub(96);
    let mut p = s;
    let mut op = false;
    while p > lo {
        match bytes[p - 1] {
            b' ' | b'\t' | b'"' | b'\'' | b'\\' | b'`' => p -= 1,
            b'=' | b':' if !op => {
                op = true;
                p -= 1;
            }
            _ => break,
        }
    }
    if !op {
        return None;
    }
    let e = p;
    while p > lo && (bytes[p - 1].is_ascii_alphanumeric() || matches!(bytes[p - 1], b'_' | b'-' | b'.')) {
        p -= 1;
    }
    (e > p).then(|| bytes[p..e].to_vec())
}

/// Upper, lower and digits, digits and case flips (one pass; the entropy is taken later,
/// after the cheaper exclusions).
fn classes(b: &[u8]) -> bool {
    let (mut upper, mut lower, mut digits, mut flips) = (false, false, 0usize, 0usize);
    // 0: no letter yet, 1: last letter lower, 2: last letter upper.
    let mut prev = 0u8;
    for &c in b {
        if c.is_ascii_uppercase() {
            upper = true;
            flips += (prev == 1) as usize;
            prev = 2;
        } else if c.is_ascii_lowercase() {
            lower = true;
            flips += (prev == 2) as usize;
            prev = 1;
        } else if c.is_ascii_digit() {
            digits += 1;
        }
    }
    upper && lower && digits >= MIN_DIGITS && flips >= MIN_CASE_FLIPS
}

fn entropy(b: &[u8]) -> f64 {
    // Runs are ASCII token characters.
    let mut counts = [0u16; 128];
    for &c in b {
        counts[(c & 0x7f) as usize] += 1;
    }
    let n = b.len() as f64;
    counts.iter().filter(|&&k| k > 0).map(|&k| -(k as f64 / n) * (k as f64 / n).log2()).sum()
}

/// A word of an identifier: lowercase, Capitalised (digits may follow: `Bean2020`), UPPERCASE
/// or digits.
fn word(p: &[u8]) -> bool {
    let alpha = |c: &u8| c.is_ascii_alphabetic();
    p.iter().all(u8::is_ascii_digit)
        || (p.iter().all(alpha) && p.iter().all(u8::is_ascii_lowercase))
        || (p[0].is_ascii_uppercase() && p[1..].iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()))
        || p.iter().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        || p.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

/// Two-letter words of CamelCase names: with one digit allowed (round 7), a name like
/// `getUserById2Async` would otherwise pass for random.
const TWO_LETTER_WORDS: &[&[u8]] = &[
    b"To", b"By", b"Id", b"Of", b"At", b"In", b"On", b"Is", b"As", b"Or", b"If", b"Up", b"No", b"Do", b"Ok", b"Db",
    b"Io", b"Ui", b"Os", b"Js", b"Go", b"Ip", b"My",
];

/// `snake_case`, `kebab-case`, `CONSTANT_CASE` and `CamelCase` identifiers: every part a word.
fn identifier(b: &[u8]) -> bool {
    if !b.iter().any(|c| matches!(c, b'_' | b'-')) {
        // CamelCase: split before each capital.
        let mut parts = Vec::new();
        let mut start = 0;
        for i in 1..b.len() {
            if b[i].is_ascii_uppercase() && !b[i - 1].is_ascii_uppercase() {
                parts.push(&b[start..i]);
                start = i;
            }
        }
        parts.push(&b[start..]);
        // Round 7: a two-letter word of a method's name (`convertToUtf8String`, `findById2`).
        return parts.iter().all(|p| (p.len() >= 3 || TWO_LETTER_WORDS.contains(p)) && word(p));
    }
    // Round 7: a short part without digits is a name's word too (`PuTTY-User-Key-File-3`).
    b.split(|c| matches!(c, b'_' | b'-'))
        .all(|p| p.is_empty() || word(p) || (p.len() <= 6 && p.iter().all(u8::is_ascii_alphabetic)))
}

/// A path: a `/` and a lowercase word of 3+ letters as a part (`/usr/lib/x86_64-linux-gnu`).
fn path(b: &[u8]) -> bool {
    memchr::memchr(b'/', b).is_some()
        && b.split(|&c| c == b'/').any(|p| p.len() >= 3 && p.iter().all(|c| c.is_ascii_lowercase() || *c == b'.'))
}

/// A JWT's segment: base64 JSON (`eyJ…`) or a segment after one (`eyJ….eyJ….<sig>`).
fn jwt_part(bytes: &[u8], s: usize, b: &[u8]) -> bool {
    if b.starts_with(b"eyJ") || b.starts_with(b"ewog") || b.starts_with(b"ewoJ") {
        return true;
    }
    if s == 0 || bytes[s - 1] != b'.' {
        return false;
    }
    let lo = s.saturating_sub(4096);
    let before = &bytes[lo..s - 1];
    let seg_start = before.iter().rposition(|&c| !(TOKEN[c as usize] || c == b'.')).map_or(0, |i| i + 1);
    before[seg_start..].starts_with(b"eyJ")
}

/// Prefixes right before a run that make it a digest, a public key or a reference.
const NOT_BEFORE: &[&[u8]] = &[
    b"sha1:",
    b"sha256:",
    b"sha384:",
    b"sha512:",
    b"md5:",
    b"blake2b:",
    b"blake3:",
    b"h1:",
    b"ssh-ed25519 ",
    b"ssh-rsa ",
    b"ssh-dss ",
    b"ecdsa-sha2-nistp256 ",
    b"ecdsa-sha2-nistp384 ",
    b"ecdsa-sha2-nistp521 ",
    b"sk-ssh-ed25519@openssh.com ",
];

/// A digest or public-key prefix, an integrity attribute, or a character that makes the run
/// part of a path, a URL or a reference (`/`, `.`, `\`, `@`, `#`, `%`, `&`, `?`, `~`, `$`).
fn excluded_before(bytes: &[u8], s: usize) -> bool {
    if s > 0 && matches!(bytes[s - 1], b'/' | b'.' | b'\\' | b'@' | b'#' | b'%' | b'&' | b'?' | b'~' | b'$') {
        return true;
    }
    let lo = s.saturating_sub(32);
    let before = &bytes[lo..s];
    if NOT_BEFORE.iter().any(|p| before.len() >= p.len() && before[before.len() - p.len()..].eq_ignore_ascii_case(p)) {
        return true;
    }
    let run = &bytes[s..bytes.len().min(s + 8)];
    if [&b"sha1-"[..], b"sha256-", b"sha384-", b"sha512-", b"nonce-"].iter().any(|p| run.starts_with(p)) {
        return true;
    }
    let near = &bytes[s.saturating_sub(24)..s];
    let has = |w: &[u8]| near.windows(w.len()).any(|x| x.eq_ignore_ascii_case(w));
    if has(b"integrity") || has(b"nonce") {
        return true;
    }
    false
}

/// The run is part of a URL: `://` or a query's `?` earlier in the same whitespace-free token.
fn in_url(bytes: &[u8], s: usize) -> bool {
    let lo = s.saturating_sub(2048);
    let mut p = s;
    while p > lo {
        let c = bytes[p - 1];
        if c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b'`' | b'<' | b'>' | b'(' | b')') {
            return false;
        }
        if (c == b'/' && p >= 3 && &bytes[p - 3..p] == b"://") || c == b'?' {
            return true;
        }
        p -= 1;
    }
    false
}

/// Inside a `-----BEGIN …-----` armor block not yet ended (a public key, a certificate, a
/// signature; a private key is its own rule's and wins).
fn in_armor(armor: &Armor, s: usize) -> bool {
    let i = armor.begins.partition_point(|&b| b < s);
    if i == 0 {
        return false;
    }
    let begin = armor.begins[i - 1];
    let j = armor.ends.partition_point(|&e| e < begin);
    armor.ends.get(j).is_none_or(|&e| e > s)
}

/// Base64 whose decoded bytes are text with words (spaces, newlines, `: `): a structure,
/// not a key. Random printable text (a base64 password) is not excluded.
fn base64_of_text(b: &[u8]) -> bool {
    let Some(out) = checks::decode_base64(b) else { return false };
    let printable = out.iter().all(|&c| c == b'\n' || c == b'\t' || c == b'\r' || (0x20..0x7f).contains(&c));
    if !printable {
        return false;
    }
    // Words: spaces or newlines, or three lowercase words of 4+ letters (`retries=on,ledger_v2=off,new_checkout=50%`).
    let lower_words = out.split(|c| !c.is_ascii_lowercase()).filter(|w| w.len() >= 4).count();
    out.iter().any(|&c| c == b' ' || c == b'\n') || lower_words >= 3
}

/// Base64 whose decoded bytes are all printable ASCII (`UGFzc3dvcmQ6` is "Password:"): for a
/// short run, text; a random key decodes to random bytes.
fn base64_of_printable(b: &[u8]) -> bool {
    checks::decode_base64(b).is_some_and(|out| !out.is_empty() && out.iter().all(|&c| (0x20..0x7f).contains(&c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caught(t: &str) -> bool {
        !find(t.as_bytes()).is_empty()
    }

    #[test]
    fn random_runs_are_caught_known_shapes_are_not() {
        for t in [
            "token Zk3Lq8Xv2Mt7Rn4Wp9Hc6Bj5Yd1Vs0Qe3T",
            "x = \"Gd4kP9qLm2XvT7wRz8NcB3hY6sJf1aQe5uK0\"",
            "AQEzhmfxLI3Mbx+TrVXxxw3ck3YFgdRiYBI/25t41ET3F+aUSD5Re8HD8Z",
        ] {
            assert!(caught(t), "{t}");
        }
        for t in [
            "commit 3f786850e387550fdab836ed7e6dc881de23001b",
            "sha256:9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08",
            "id 5b2e8c1d-4a7f-4e3b-9c6d-1f0a8e2b7c4d and 01JDQ2X7Z9K3M5N8P0R4T6V8WA",
            "dos_01JDQ2X7Z9K3M5N8P0R4T6V8WAxyz",
            "integrity sha512-Zk3Lq8Xv2Mt7Rn4Wp9Hc6Bj5Yd1Vs0Qe3TZk3Lq8Xv2Mt7Rn4Wp9Hc6Bj5Yd1Vs0Qe3T==",
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGd4kP9qLm2XvT7wRz8NcB3hY6sJf1aQe5uK0 me@host",
            "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
            "/usr/lib/x86_64-linux-gnu/libGd4kP9qLm2XvT7wRz8NcB3hY6sJf1aQe5uK0.so",
            "https://example.test/files/Gd4kP9qLm2XvT7wRz8NcB3hY6sJf1aQe5uK0",
            "AbstractSingletonProxyFactoryBean2020Impl",
            "my_very_long_identifier_name_for_the_2nd_Test_Case_v2",
            "pk_live_51Gd4kP9qLm2XvT7wRz8NcB3hY6sJf1aQe5uK0",
            "bG9nX2xldmVsOiBpbmZvCnJlZ2lvbjogZXUtd2VzdC0xCg==",
            "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n",
        ] {
            assert!(!caught(t), "{t}: {:?}", find(t.as_bytes()));
        }
    }

    #[test]
    fn seventh_round_shorter_runs_with_one_digit_are_caught() {
        // 16 to 19 characters, one digit, two case changes: a short API secret.
        for t in ["ref: Tb8qWmRzKcLpHvNx", "deploy with yRkPzqWv3TnLmsXc then"] {
            assert!(caught(t), "{t}");
        }
        // Method names with two-letter words, base64 of short words, OpenAI project ids.
        for t in [
            "call convertToUtf8String here",
            "getUserById2Async()",
            "echo b3JkZXJzLWFwaS12Mg== | base64 -d",
            "project proj_Xk4mTq9LwZr2NbVc",
            "MacOS-PuTTY-Agent-Key-v3 loaded",
        ] {
            assert!(!caught(t), "{t}: {:?}", find(t.as_bytes()));
        }
    }
}

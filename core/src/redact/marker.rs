//! Markers: `[REDACTED:<kind>:<mac>]`, `<mac>` the first 40 bits of BLAKE3's keyed hash of
//! the secret under the store's key, as 8 lowercase base32 characters (RFC 4648 alphabet).
//!
//! The same secret gets the same `<mac>` under one key whatever its kind or form: the MAC is
//! taken over the secret with whitespace, backslashes and the letter of a JSON escape
//! (`\n`, `\r`, `\t`) removed, so a private key pasted plainly and the same key JSON-escaped
//! in a transcript line share a marker. Without the key the 40 bits say nothing about the
//! secret; with it they confirm a guess only, and the key never leaves the host.

const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// The literal every marker starts with.
pub const PREFIX: &str = "[REDACTED:";

/// The marker for `secret` of `kind` under `key`.
pub fn marker(kind: &str, secret: &str, key: &[u8; 32]) -> String {
    let normal = normalise(secret.as_bytes());
    let hash = blake3::keyed_hash(key, &normal);
    let b = hash.as_bytes();
    let bits = u64::from_be_bytes([0, 0, 0, b[0], b[1], b[2], b[3], b[4]]);
    let mut out = String::with_capacity(PREFIX.len() + kind.len() + 10);
    out.push_str(PREFIX);
    out.push_str(kind);
    out.push(':');
    for i in (0..8).rev() {
        out.push(ALPHABET[((bits >> (i * 5)) & 31) as usize] as char);
    }
    out.push(']');
    out
}

/// The secret without whitespace, backslashes, or the letter of an escape.
fn normalise(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut after_backslash = false;
    for &c in s {
        if c == b'\\' {
            after_backslash = true;
            continue;
        }
        if after_backslash && matches!(c, b'n' | b'r' | b't') {
            after_backslash = false;
            continue;
        }
        after_backslash = false;
        if !c.is_ascii_whitespace() {
            out.push(c);
        }
    }
    out
}

/// True when `s` (from its start) is a whole marker: the prefix, a snake_case kind, `:`,
/// 8 base32 characters and `]`. Returns the marker's length.
pub fn marker_len(s: &[u8]) -> Option<usize> {
    let rest = s.strip_prefix(PREFIX.as_bytes())?;
    let kind = rest.iter().take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || **c == b'_').count();
    if kind == 0 || rest.get(kind) != Some(&b':') {
        return None;
    }
    let mac = &rest[kind + 1..];
    if mac.len() < 9 || !mac[..8].iter().all(|c| ALPHABET.contains(c)) || mac[8] != b']' {
        return None;
    }
    Some(PREFIX.len() + kind + 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_shape_and_key() {
        let k1 = [1u8; 32];
        let k2 = [2u8; 32];
        let m = marker("jwt", "abc", &k1);
        assert_eq!(marker_len(m.as_bytes()), Some(m.len()), "{m}");
        assert!(m.starts_with("[REDACTED:jwt:") && m.len() == "[REDACTED:jwt:]".len() + 8);
        assert_eq!(m, marker("jwt", "abc", &k1));
        assert_ne!(m, marker("jwt", "abc", &k2));
        assert_ne!(m, marker("jwt", "abd", &k1));
        // Plain and JSON-escaped forms of one multi-line secret share the MAC.
        assert_eq!(marker("k", "AB\nCD", &k1), marker("k", "AB\\nCD", &k1));
        assert_eq!(marker("k", "AB\r\nCD", &k1), marker("k", "AB\\\\nCD", &k1));
    }
}

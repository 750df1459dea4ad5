//! Values random in shape that are not credentials (issue 20, eighth round): a password's
//! verifier or hash, a ciphertext, and a key its vendor publishes by design. Each looks like a
//! key to the high-entropy net and to the assignment gate; none lets anyone in.
//!
//! - **Verifiers and hashes**: a SCRAM verifier (`SCRAM-SHA-256$<iter>:<salt>$<stored>:<server>`,
//!   what `pg_authid` and `pg_dumpall` hold), an LDAP `{SSHA}`/`{SHA}`/`{CRYPT}`/`{PBKDF2…}`
//!   value, a PostgreSQL `md5<32 hex>` (crypt's `$2b$`, `$6$`, `$argon2…` start with `$`, a
//!   template's sigil, and were never secrets).
//! - **Ciphertexts** (the key is elsewhere): SOPS `ENC[AES256_GCM,…]`, Ansible
//!   `$ANSIBLE_VAULT;…`, Pulumi's `v1:<nonce>:<ciphertext>` (secure config values and the stack
//!   salt), a Fernet token (`gAAAAA…`), Maven's `{…}` encrypted passwords.
//! - **Public keys and ids by design**: PostHog project keys (`phc_`), RevenueCat public SDK
//!   keys (`appl_`, `goog_`, `amzn_`), a Square application id (`sq0idp-`), a Google OAuth client id (`….apps.googleusercontent.com`),
//!   an FCM registration token (`<id>:APA91b…`: it addresses a device), a minisign public key
//!   (base64 of `Ed` + an 8-byte id + 32 bytes), and by name a Pusher app key, an Application
//!   Insights instrumentation key, a Vault token accessor.
//!
//! Not for: keys whose vendor calls them public and that another list already holds
//! (`checks::is_public_by_design`: Stripe `pk_live_`, SSH blobs), placeholders, ids by their
//! name `*_id` (the gates' own).

use super::checks;

/// Whether a value is no credential whatever names it: public by design (the fifth round's
/// list, `checks::is_public_by_design`), a verifier or ciphertext, a vendor's public key or id.
/// What the gates and the net ask.
pub(super) fn is_public(v: &str) -> bool {
    checks::is_public_by_design(v) || is_sealed(v) || is_public_value(v)
}

/// The value's own prefix says it is a verifier, a hash or a ciphertext.
pub(super) fn is_sealed(v: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "SCRAM-SHA-1$",
        "SCRAM-SHA-256$",
        "SCRAM-SHA-512$",
        "{SSHA}",
        "{SSHA256}",
        "{SSHA512}",
        "{SHA}",
        "{SHA256}",
        "{SHA512}",
        "{SMD5}",
        "{MD5}",
        "{CRYPT}",
        "{PBKDF2",
        "{ARGON2}",
        "{BCRYPT}",
        "ENC[",
        "$ANSIBLE_VAULT;",
    ];
    if PREFIXES.iter().any(|p| v.starts_with(p)) {
        return true;
    }
    let b = v.as_bytes();
    // PostgreSQL's md5 verifier: `md5` + md5(password || user).
    if b.len() == 35 && v.starts_with("md5") && b[3..].iter().all(|c| c.is_ascii_hexdigit()) {
        return true;
    }
    // Pulumi: `v1:<base64 nonce>:<base64 ciphertext>` (a secure value; the stack's
    // `encryptionsalt` adds `:v1:…`).
    if let Some(rest) = v.strip_prefix("v1:")
        && let Some((nonce, body)) = rest.split_once(':')
        && (12..=24).contains(&nonce.len())
        && !body.is_empty()
        && nonce
            .bytes()
            .chain(body.bytes())
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=' | b':'))
    {
        return true;
    }
    // A Fernet token: version byte 0x80 and a timestamp's zero high bytes (`gAAAAA`).
    if v.starts_with("gAAAAA") && b.len() >= 80 {
        return true;
    }
    // Maven's `settings-security` ciphertext: base64 in braces, the whole value.
    b.len() >= 26
        && b[0] == b'{'
        && b[b.len() - 1] == b'}'
        && b[1..b.len() - 1].iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='))
}

/// A key or id its vendor publishes by design (browser SDK keys, client ids).
pub(super) fn is_public_value(v: &str) -> bool {
    // Tenth round: the public halves of the catalogue formats (Midtrans client keys, Langfuse
    // public keys, PubNub publish and subscribe keys, Ramp client ids, DevCycle client and
    // mobile SDK keys).
    [
        "phc_",
        "appl_",
        "goog_",
        "amzn_",
        "sq0idp-",
        "Mid-client-",
        "SB-Mid-client-",
        "pk-lf-",
        "pub-c-",
        "sub-c-",
        "ramp_id_",
        "dvc_client_",
        "dvc_mobile_",
    ]
    .iter()
    .any(|p| v.starts_with(p))
        || v.ends_with(".apps.googleusercontent.com")
        || (v.contains(":APA91b") && !v.starts_with("AAAA"))
        || minisign_public_key(v.as_bytes())
}

/// A minisign public key: base64 of 42 bytes starting `Ed` (its secret key is 158 bytes).
fn minisign_public_key(b: &[u8]) -> bool {
    b.len() == 56
        && b.starts_with(b"RW")
        && checks::decode_base64(b).is_some_and(|d| d.len() == 42 && d.starts_with(b"Ed"))
}

/// A name (its words, as `checks::words` splits them) for a value public by design: a Pusher
/// app key (shipped to browsers; its secret is `*_SECRET`), an Application Insights
/// instrumentation key (Microsoft: not a secret), a Vault token accessor (it cannot
/// authenticate); session 13: a search-only API key (`ALGOLIA_SEARCH_API_KEY`,
/// `searchApiKey`: Algolia's and Typesense's are made for front ends; `search` right before
/// `key` was already a non-secret's word, `checks::NOT_SECRET_BEFORE`, this reaches past `api`).
pub(super) fn is_public_name(w: &[String]) -> bool {
    let Some(last) = w.last() else { return false };
    if last == "accessor" {
        return true;
    }
    let n = w.len();
    if last == "key" && n >= 3 && w[n - 2] == "api" && w[n - 3] == "search" {
        return true;
    }
    last == "key" && w.iter().any(|x| x == "pusher" || x == "instrumentation" || x == "instrumentationkey")
}

/// The net's look around a run at `s..e`: the whitespace-delimited token it belongs to is a
/// verifier, a ciphertext or a public value (`SCRAM-SHA-256$4096:<salt>$…`, `ENC[AES256_GCM,
/// data:…]`, `{<base64>}`), or the word before it is an accessor's name (Vault's `token_accessor
/// <value>` table).
pub(super) fn sealed_around(bytes: &[u8], s: usize, e: usize) -> bool {
    let stop = |c: u8| c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b'`' | b'>' | b'<');
    let lo = s.saturating_sub(256);
    let start = bytes[lo..s].iter().rposition(|&c| stop(c)).map_or(lo, |i| lo + i + 1);
    let hi = bytes.len().min(e + 512);
    let end = bytes[e..hi].iter().position(|&c| stop(c)).map_or(hi, |i| e + i);
    // A JSON-escaped quote (`\"`) ends the token too.
    let tok = &bytes[start..end];
    let tok = tok.strip_suffix(b"\\").unwrap_or(tok);
    if let Ok(t) = std::str::from_utf8(tok) {
        let t = t.trim_end_matches([',', ';', ')']);
        if is_sealed(t) || is_public_value(t) || is_public_value(std::str::from_utf8(&bytes[s..e]).unwrap_or("")) {
            return true;
        }
    }
    // The word before the run, past blanks, `=`/`:` and quotes.
    let mut p = s;
    let floor = s.saturating_sub(64);
    while p > floor && matches!(bytes[p - 1], b' ' | b'\t' | b'"' | b'\'' | b':' | b'=' | b'\\') {
        p -= 1;
    }
    let name_end = p;
    while p > floor && (bytes[p - 1].is_ascii_alphanumeric() || matches!(bytes[p - 1], b'_' | b'-' | b'.')) {
        p -= 1;
    }
    name_end > p && bytes[p..name_end].to_ascii_lowercase().ends_with(b"accessor")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verifiers_ciphertexts_and_public_keys_are_recognised() {
        assert!(is_sealed("SCRAM-SHA-256$4096:c2FsdHNhbHQ=$c3RvcmVk:c2VydmVy"));
        assert!(is_sealed("{SSHA512}q8f0Zm9vYmFyYmF6cXV1eA=="));
        assert!(is_sealed("md5a3c1f09b2e4d5c6b7a8091a2b3c4d5e6"));
        assert!(is_sealed("ENC[AES256_GCM,data:Zm9v,iv:YmFy,tag:YmF6,type:str]"));
        assert!(is_sealed("v1:Q2xq3vR9tLm0aB1c:Zk9wQ3hYeUtMbW5PcFFy"));
        assert!(is_sealed("{Xk3mP9qLw2Rt7Yv5Bn8Cz1Dh4Fj6Gk0Q=}"));
        assert!(is_public_value("phc_Wq3LmZ8vTk1RbX9nYc4Hd7Jf2Gp5Ks0Aue6Mi"));
        assert!(is_public_value("4711-abcdef0123456789abcdef0123456789.apps.googleusercontent.com"));
        // The secret sides stay secrets.
        assert!(!is_sealed("Zq3Lm8vTk1RbX9nYc4Hd7Jf2Gp5Ks0Au"));
        assert!(!is_sealed("v1.0-a1b2c3"));
        assert!(!is_public_value("phx_Wq3LmZ8vTk1RbX9nYc4Hd7Jf2Gp5Ks0Aue6MiPq"));
        assert!(!is_sealed("{Xk3mP9qLw2Rt}"));
    }

    #[test]
    fn names_of_public_values() {
        let w = |s: &str| checks::words(s);
        assert!(is_public_name(&w("MIX_PUSHER_APP_KEY")));
        assert!(is_public_name(&w("InstrumentationKey")));
        assert!(is_public_name(&w("vault_token_accessor")));
        assert!(!is_public_name(&w("PUSHER_APP_SECRET")));
        assert!(!is_public_name(&w("DD_APP_KEY")));
        assert!(is_public_name(&w("typesenseSearchApiKey")));
        assert!(!is_public_name(&w("MEILI_ADMIN_API_KEY")));
        assert!(!is_public_name(&w("SEARCH_API_KEY_ROTATION_SECRET")));
    }
}

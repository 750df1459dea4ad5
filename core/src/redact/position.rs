//! Round 6: secrets named by where they stand, not by a key. The cheap looks the prefilter
//! takes at an anchor before the rules of these classes run (`rules.rs`, "Round 6:
//! positions"):
//!
//! - a **directive or a two-column row**: a line that is `<secret-named word> <value>`
//!   (`requirepass <pw>` in a server config, a `vault kv get` table's `password  <value>`);
//! - a **JAAS option** `user_<name>="<pw>"`, which is a password only inside a login
//!   module's configuration.
//!
//! The other position classes (protocol commands, `net use`, a user flag then a password flag,
//! relay map lines) have literal anchors of their own and need no look.
//!
//! Not for: matching or gating the values (`scan.rs`, `checks.rs`); key/value assignments
//! (`=`, `:`), which are the generic rules'.

/// A byte of a key name.
fn name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')
}

/// `Pre::Directive` at a keyword hit `a..b`: the name around it starts its line (after
/// indentation or a shell/REPL prompt ending in `>`, `$` or `#`; a JSON-escaped `\n` is a
/// line start too), and blanks then a value follow it (not `=` or `:`: those are
/// assignments, another rule's).
pub(super) fn directive_plausible(bytes: &[u8], a: usize, b: usize) -> bool {
    let lo = a.saturating_sub(64);
    let mut p = a;
    while p > lo && name_byte(bytes[p - 1]) {
        p -= 1;
    }
    while p > 0 && matches!(bytes[p - 1], b' ' | b'\t') {
        p -= 1;
    }
    let starts_line = p == 0
        || bytes[p - 1] == b'\n'
        || (p >= 2 && bytes[p - 2] == b'\\' && bytes[p - 1] == b'n')
        || (p < a && matches!(bytes[p - 1], b'>' | b'$' | b'#'));
    if !starts_line {
        return false;
    }
    let n = bytes.len();
    let mut q = b;
    while q < n && q - b < 64 && name_byte(bytes[q]) {
        q += 1;
    }
    let blanks = q;
    while q < n && matches!(bytes[q], b' ' | b'\t') {
        q += 1;
    }
    q > blanks && q < n && !matches!(bytes[q], b'\r' | b'\n' | b'=' | b':' | b'\\')
}

/// `Pre::Jaas` at a `user_` hit `a`: a JAAS `LoginModule` line within the 2 KB before (the
/// options of one login module span a few lines).
pub(super) fn jaas_plausible(bytes: &[u8], a: usize) -> bool {
    let lo = a.saturating_sub(2048);
    memchr::memmem::rfind(&bytes[lo..a], b"LoginModule").is_some()
}

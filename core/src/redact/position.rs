//! Round 6: secrets named by where they stand, not by a key. The cheap looks the prefilter
//! takes at an anchor before the rules of these classes run (`rules.rs`, "Round 6:
//! positions"):
//!
//! - a **directive or a two-column row**: a line that is `<secret-named word> <value>`
//!   (`requirepass <pw>` in a server config, a `vault kv get` table's `password  <value>`);
//! - a **JAAS option** `user_<name>="<pw>"`, which is a password only inside a login
//!   module's configuration;
//! - (tenth round) a **typed declaration**'s literal, `apiKey: String = "…"`, `API_KEY: &str
//!   = "…"`, `apiKey string = "…"` (`typed_plausible`);
//!
//! and the items of a **list under a secret name** (`"api_keys": ["…", "…"]`, a YAML
//! sequence), which the block rule (`scan::block`) gates one by one.
//!
//! The other position classes (protocol commands, `net use`, a user flag then a password flag,
//! relay map lines, piped passwords, Oracle connects) have literal anchors of their own and need
//! no look; sequence pairs over lines are `scan::pair`'s.
//!
//! Not for: matching or gating the values (`scan.rs`, `checks.rs`); key/value assignments
//! (`=`, `:`), which are the generic rules'.

use super::checks;

/// A table's cell separator at `p` (`|`, or the box-drawing `│` of CLI tables): its length.
fn separator(bytes: &[u8], p: usize) -> usize {
    match bytes.get(p) {
        Some(b'|') => 1,
        Some(0xE2) if bytes.get(p + 1) == Some(&0x94) && bytes.get(p + 2) == Some(&0x82) => 3,
        _ => 0,
    }
}

/// Past blanks and cell separators from `q`.
fn skip_cells(bytes: &[u8], mut q: usize) -> usize {
    loop {
        if matches!(bytes.get(q), Some(b' ' | b'\t')) {
            q += 1;
        } else if separator(bytes, q) > 0 {
            q += separator(bytes, q);
        } else {
            return q;
        }
    }
}

/// A line end at `p`: the text's end, a newline, or a JSON-escaped `\n`/`\r` or closing quote.
fn at_line_end(bytes: &[u8], p: usize) -> bool {
    match bytes.get(p) {
        None | Some(b'\r' | b'\n') => true,
        Some(b'\\') => matches!(bytes.get(p + 1), Some(b'n' | b'r' | b'"')),
        Some(b'"') => matches!(bytes.get(p + 1), Some(b',' | b'}' | b']')),
        _ => false,
    }
}

/// `Pre::Directive` at a keyword hit `a..b`: the name around it is on a line of at most five
/// words before it (a prompt, a command such as `setx`, a device config's `username admin
/// privilege 15`) or a table row's first cell, then blanks or a cell separator, an optional
/// one-digit type (`password 0 <pw>`), a value of 4+ bytes, and the line's end (a closing
/// separator allowed). Not `=` or `:` after the name: those are assignments, another rule's.
pub(super) fn directive_plausible(bytes: &[u8], a: usize, b: usize) -> bool {
    // Forward first (most hits fail here at once: `"token":`, `api_key=`, `tokens.`).
    let n = bytes.len();
    let mut q = b;
    while q < n && q - b < 64 && checks::is_name_byte(bytes[q]) {
        q += 1;
    }
    let name_end = q;
    q = skip_cells(bytes, q);
    if q == name_end {
        return false;
    }
    if bytes.get(q).is_some_and(u8::is_ascii_digit) && matches!(bytes.get(q + 1), Some(b' ' | b'\t')) {
        q += 2;
        while matches!(bytes.get(q), Some(b' ' | b'\t')) {
            q += 1;
        }
    }
    let vs = q;
    while q < n
        && q - vs <= 260
        && !bytes[q].is_ascii_whitespace()
        && separator(bytes, q) == 0
        && !at_line_end(bytes, q)
    {
        q += 1;
    }
    if q - vs < 4 || matches!(bytes[vs], b'=' | b':') {
        return false;
    }
    q = skip_cells(bytes, q);
    if !at_line_end(bytes, q) {
        return false;
    }
    // Back to the line's start over at most five words.
    let lo = a.saturating_sub(64);
    let mut p = a;
    while p > lo && checks::is_name_byte(bytes[p - 1]) {
        p -= 1;
    }
    let floor = p.saturating_sub(240);
    let mut words = 0;
    loop {
        while p > floor && matches!(bytes[p - 1], b' ' | b'\t' | b'|') {
            p -= 1;
        }
        if p >= floor + 3 && bytes[p - 3..p] == [0xE2, 0x94, 0x82] {
            p -= 3;
            continue;
        }
        if checks::line_start(bytes, p) {
            return true;
        }
        if p <= floor || words == 5 {
            return false;
        }
        let end = p;
        while p > floor && !bytes[p - 1].is_ascii_whitespace() && end - p < 40 {
            p -= 1;
        }
        if p > floor && !bytes[p - 1].is_ascii_whitespace() {
            return false;
        }
        words += 1;
    }
}

/// `Pre::Jaas` at a `user_` hit `a`: a JAAS `LoginModule` line within the 2 KB before (the
/// options of one login module span a few lines).
pub(super) fn jaas_plausible(bytes: &[u8], a: usize) -> bool {
    let lo = a.saturating_sub(2048);
    memchr::memmem::rfind(&bytes[lo..a], b"LoginModule").is_some()
}

/// Past a name ending at `ne`: its closing quotes (plain or escaped), blanks and one of the
/// operators `ops`; the position after the operator.
fn after_operator(bytes: &[u8], ne: usize, ops: &[u8]) -> Option<usize> {
    let n = bytes.len();
    let mut p = ne;
    while p < n && p - ne < 4 && matches!(bytes[p], b'"' | b'\'' | b'\\') {
        p += 1;
    }
    while matches!(bytes.get(p), Some(b' ' | b'\t')) {
        p += 1;
    }
    bytes.get(p).is_some_and(|c| ops.contains(c)).then_some(p + 1)
}

/// A list under a secret-named key whose name ends at `ne` (after its closing quotes): a JSON
/// or flow array of strings, `"api_keys": ["…", "…"]` (over lines too), or a YAML sequence,
/// `client_secrets:` then `- …` lines: the items' spans, at most `MAX_ITEMS`.
pub(super) fn list_items(bytes: &[u8], ne: usize) -> Vec<Range> {
    const MAX_ITEMS: usize = 16;
    let n = bytes.len();
    let mut out = Vec::new();
    let Some(p) = after_operator(bytes, ne, b":=") else { return out };
    let limit = n.min(p + 4096);
    let mut q = p;
    while q < limit && bytes[q].is_ascii_whitespace() {
        q += 1;
    }
    if bytes.get(q) == Some(&b'[') {
        q += 1;
        while out.len() < MAX_ITEMS {
            while q < limit && (bytes[q].is_ascii_whitespace() || bytes[q] == b',') {
                q += 1;
            }
            let Some(&quote @ (b'"' | b'\'')) = bytes.get(q) else { break };
            let vs = q + 1;
            let Some(len) = memchr::memchr2(quote, b'\n', &bytes[vs..limit]) else { break };
            if bytes[vs + len] != quote {
                break;
            }
            out.push((vs, vs + len));
            q = vs + len + 1;
        }
        return out;
    }
    // YAML: the name's line ends, then `- item` lines at one indentation.
    if bytes[p..q].iter().all(|&c| c != b'\n') {
        return out;
    }
    let mut ls = p + memchr::memchr(b'\n', &bytes[p..q]).unwrap_or(0) + 1;
    let mut indent: Option<usize> = None;
    while out.len() < MAX_ITEMS && ls < limit {
        let mut c = ls;
        while c < limit && matches!(bytes[c], b' ' | b'\t') {
            c += 1;
        }
        if *indent.get_or_insert(c - ls) != c - ls || !bytes[c..].starts_with(b"- ") {
            break;
        }
        let vs = c + 2;
        let le = vs + memchr::memchr(b'\n', &bytes[vs..limit]).unwrap_or(limit - vs);
        let mut ve = le;
        while ve > vs && matches!(bytes[ve - 1], b'\r' | b' ' | b'\t') {
            ve -= 1;
        }
        let (mut s, mut e) = (vs, ve);
        if e > s + 1 && matches!(bytes[s], b'"' | b'\'') && bytes[e - 1] == bytes[s] {
            s += 1;
            e -= 1;
        }
        if e > s && !bytes[s..e].contains(&b' ') {
            out.push((s, e));
        }
        ls = le + 1;
    }
    out
}

/// Round 8: the leaves of a mapping under a plural secret name whose name ends at `ne`: a
/// YAML block (`api_keys:` then `cohere: …` lines, one level deeper too: `credentials:` /
/// `pagerduty:` / `prod: …`) or a JSON object (`"tokens": {"github": "…", "slack": "…"}`, over
/// lines too): each leaf's key and value spans, at most `MAX_ITEMS`. A leaf holding a blank
/// (prose, a command) is not a value.
pub(super) fn map_items(bytes: &[u8], ne: usize) -> Vec<(Range, Range)> {
    const MAX_ITEMS: usize = 16;
    const MAX_LINES: usize = 24;
    let n = bytes.len();
    let mut out = Vec::new();
    let Some(p) = after_operator(bytes, ne, b":") else { return out };
    let limit = n.min(p + 4096);
    let mut q = p;
    while q < limit && bytes[q].is_ascii_whitespace() {
        q += 1;
    }
    if bytes.get(q) == Some(&b'{') {
        // JSON: each `"name": "value"` member, nested objects too, to the object's close.
        let mut depth = 0usize;
        let mut key = false;
        let mut last: Range = (q, q);
        while q < limit && out.len() < MAX_ITEMS {
            match bytes[q] {
                b'{' => {
                    depth += 1;
                    key = false;
                }
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b':' => key = true,
                b',' => key = false,
                b'"' => {
                    let vs = q + 1;
                    let mut e = vs;
                    while e < limit && bytes[e] != b'"' && bytes[e] != b'\n' {
                        e += if bytes[e] == b'\\' { 2 } else { 1 };
                    }
                    if e >= limit || bytes[e] != b'"' {
                        break;
                    }
                    if key && e > vs && !bytes[vs..e].contains(&b' ') {
                        out.push((last, (vs, e)));
                    } else if !key {
                        last = (vs, e);
                    }
                    key = false;
                    q = e;
                }
                _ => {}
            }
            q += 1;
        }
        return out;
    }
    // YAML: the name's line ends; the lines below, deeper than the name, are `key: value`.
    if bytes[p..q].iter().all(|&c| c != b'\n') {
        return out;
    }
    let line = memchr::memrchr(b'\n', &bytes[..ne]).map_or(0, |i| i + 1);
    let base = bytes[line..ne].iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    let mut ls = p + memchr::memchr(b'\n', &bytes[p..q]).unwrap_or(0) + 1;
    for _ in 0..MAX_LINES {
        if out.len() >= MAX_ITEMS || ls >= limit {
            break;
        }
        let le = ls + memchr::memchr(b'\n', &bytes[ls..limit]).unwrap_or(limit - ls);
        let mut c = ls;
        while c < le && matches!(bytes[c], b' ' | b'\t') {
            c += 1;
        }
        let next = le + 1;
        if c == le || bytes[c] == b'\r' || bytes[c] == b'#' {
            ls = next;
            continue;
        }
        if c - ls <= base || bytes[c] == b'-' {
            break;
        }
        let Some(colon) = memchr::memchr(b':', &bytes[c..le]).map(|i| c + i) else { break };
        if !bytes[c..colon].iter().all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'"' | b'\''))
        {
            break;
        }
        let mut vs = colon + 1;
        while vs < le && matches!(bytes[vs], b' ' | b'\t') {
            vs += 1;
        }
        let mut ve = le;
        while ve > vs && matches!(bytes[ve - 1], b'\r' | b' ' | b'\t') {
            ve -= 1;
        }
        if ve > vs + 1 && matches!(bytes[vs], b'"' | b'\'') && bytes[ve - 1] == bytes[vs] {
            vs += 1;
            ve -= 1;
        }
        if ve > vs && !bytes[vs..ve].contains(&b' ') && !matches!(bytes[vs], b'|' | b'>' | b'&' | b'*' | b'{' | b'[') {
            out.push(((c, colon), (vs, ve)));
        }
        ls = next;
    }
    out
}

type Range = (usize, usize);

/// Tenth round: a keyword hit ending at `b` inside a typed declaration's name, then its type
/// and a quoted literal — `apiKey: String = "…"` (Swift, Kotlin, TypeScript), `API_KEY: &str =
/// "…"`, `API_KEY: &'static str = "…"` (Rust), `apiKey string = "…"` (Go). Necessary for
/// the typed rule's pattern: the rest of the name, `:` and a type or ` string`, `=`, a quote.
pub(super) fn typed_plausible(bytes: &[u8], b: usize) -> bool {
    let n = bytes.len();
    let mut q = b;
    while q < n && q - b < 48 && (bytes[q].is_ascii_alphanumeric() || bytes[q] == b'_') {
        q += 1;
    }
    let spaces = |q: &mut usize| {
        while *q < n && matches!(bytes[*q], b' ' | b'\t') {
            *q += 1;
        }
    };
    let name_end = q;
    spaces(&mut q);
    if bytes.get(q) == Some(&b':') {
        q += 1;
        spaces(&mut q);
        let ts = q;
        while q < n && q - ts < 48 && !matches!(bytes[q], b'=' | b'\n' | b'"' | b';' | b',' | b'{' | b'(') {
            q += 1;
        }
        if q == ts {
            return false;
        }
    } else if q > name_end && bytes[q..].starts_with(b"string") {
        q += 6;
        spaces(&mut q);
    } else {
        return false;
    }
    if bytes.get(q) != Some(&b'=') || bytes.get(q + 1) == Some(&b'=') {
        return false;
    }
    q += 1;
    spaces(&mut q);
    if bytes.get(q) == Some(&b'\\') {
        q += 1;
    }
    matches!(bytes.get(q), Some(b'"' | b'\''))
}

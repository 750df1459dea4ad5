//! Round 8: a value whose name is on a label line above it, not beside it. Tools that print a
//! record one field a line put the name under one label and the value under another:
//! `aws ssm get-parameter` (`"Name": "/prod/db/password"` … `"Value": "…"`, JSON or YAML,
//! two lines apart), a Spring Boot binding failure (`Property: app.webhook.hmac-key` /
//! `Value: "…"`), `consul kv get -detailed` (`Key  service/api/token` / `Value  …`).
//!
//! How: at a `Value` label (`Value:`, `"Value":`, `Value` and blanks, at its line's start
//! after indentation), back over at most [`LINES`] lines for a `Name`/`Key`/`Property`/
//! `Parameter` label; its value's last segment (after `/`, `.` or `:`: a parameter path, a
//! property's dotted name) is the name, which must read as a secret's. The value is gated by
//! `scan` as a structured pair's (`Gate::Structured`).
//!
//! And a **comment line naming the line below** (`# admin password for the console` over
//! `ADMIN = "…"`): the comment's words up to its secret word are the name of the next line's
//! value when that line's own name says nothing (`comment_above`).
//!
//! Session 13: the XML forms (`xml_pair`): a Windows answer file's `<Password>` over
//! `<Value>…</Value>`, a property list's `<key>NAME</key>` over `<string>…</string>`.
//!
//! Not for: `key`/`value` siblings on one line or the next (`scan::sibling_value`), a name and
//! its value on one line (the generic rules'), a comment closing the value's line (`after.rs`).

/// Lines above a `Value` label its name's label may be.
const LINES: usize = 4;

/// Labels that name the record a `Value` belongs to.
const NAME_LABELS: &[&[u8]] = &[b"Name", b"Key", b"Property", b"Parameter", b"name", b"key"];

/// At a `Value` anchor `a..b`: the name (its last segment) and the value's span.
pub(super) fn label_pair(bytes: &[u8], a: usize, b: usize) -> Option<((usize, usize), (usize, usize))> {
    if bytes[a] == b'<' {
        return xml_pair(bytes, a, b);
    }
    let json = bytes[a] == b'"';
    // The label starts its line (after indentation).
    let ls = line_start(bytes, a);
    if !bytes[ls..a].iter().all(|c| matches!(c, b' ' | b'\t')) {
        return None;
    }
    let (vs, ve) = value_after(bytes, b, json)?;
    let mut end = ls;
    for _ in 0..LINES {
        if end == 0 {
            return None;
        }
        let start = line_start(bytes, end - 1);
        let line = &bytes[start..end - 1];
        if let Some(name) = label_name(bytes, start, line.len(), json) {
            return Some((name, (vs, ve)));
        }
        // A nested object or a blank line ends the record.
        if line.iter().all(u8::is_ascii_whitespace) || line.contains(&b'{') || line.contains(&b'}') {
            return None;
        }
        end = start;
    }
    None
}

fn line_start(bytes: &[u8], p: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..p]).map_or(0, |i| i + 1)
}

/// The value after a `Value` label ending at `b`: past `"`, `:` and blanks, up to its closing
/// quote or the first blank.
fn value_after(bytes: &[u8], b: usize, json: bool) -> Option<(usize, usize)> {
    let n = bytes.len();
    let mut p = b;
    while p < n && matches!(bytes[p], b' ' | b'\t' | b':') {
        p += 1;
    }
    if p == b || (json && !bytes[b..p].contains(&b':')) {
        return None;
    }
    let quote = matches!(bytes.get(p), Some(b'"' | b'\''));
    if quote {
        p += 1;
    }
    let s = p;
    while p < n
        && p - s < 4096
        && !matches!(bytes[p], b'\n' | b'\r' | b'"' | b'\'')
        && (quote || !matches!(bytes[p], b' ' | b'\t' | b','))
    {
        p += 1;
    }
    (p > s).then_some((s, p))
}

/// A name label on the line `start..start + len`: `Name: x`, `"Name": "x"`, `Key   x`; the
/// span of the value's last segment.
fn label_name(bytes: &[u8], start: usize, len: usize, json: bool) -> Option<(usize, usize)> {
    let end = start + len;
    let mut p = start;
    while p < end && matches!(bytes[p], b' ' | b'\t') {
        p += 1;
    }
    if json {
        if bytes.get(p) != Some(&b'"') {
            return None;
        }
        p += 1;
    }
    let label = NAME_LABELS.iter().find(|l| bytes[p..end].starts_with(l))?;
    p += label.len();
    if json {
        if bytes.get(p) != Some(&b'"') {
            return None;
        }
        p += 1;
    }
    let q = p;
    while p < end && matches!(bytes[p], b' ' | b'\t' | b':' | b'"' | b'\'') {
        p += 1;
    }
    if p == q {
        return None;
    }
    let s = p;
    while p < end && !matches!(bytes[p], b'"' | b'\'' | b',' | b' ' | b'\t' | b'\r') {
        p += 1;
    }
    let v = &bytes[s..p];
    let seg = v.iter().rposition(|c| matches!(c, b'/' | b'.' | b':')).map_or(0, |i| i + 1);
    (p > s + seg).then_some((s + seg, p))
}

/// Session 13: the same in XML, at a `<Value>` or `<string>` element starting its line (after
/// indentation), its text closed on the line: the name is the element opened alone on the
/// line above (a Windows answer file's `<Password>` / `<AdministratorPassword>` over
/// `<Value>…</Value>`), or a property list's `<key>NAME</key>` on the line above `<string>…`
/// (launchd agents, `Info.plist`). Not for: `<password>…</password>` on one line (the generic
/// rules'), attributes (`<add key="…" value="…">`: `Pre::KeyValue`).
fn xml_pair(bytes: &[u8], a: usize, b: usize) -> Option<((usize, usize), (usize, usize))> {
    let ls = line_start(bytes, a);
    if ls == 0 || !bytes[ls..a].iter().all(|c| matches!(c, b' ' | b'\t')) {
        return None;
    }
    let plist = bytes[a..b] == *b"<string>";
    let close: &[u8] = if plist { b"</string>" } else { b"</Value>" };
    let hi = bytes.len().min(b + 4096);
    let le = memchr::memchr(b'\n', &bytes[b..hi]).map_or(hi, |i| b + i);
    let ve = b + memchr::memmem::find(&bytes[b..le], close)?;
    if ve == b || bytes[b..ve].contains(&b'<') {
        return None;
    }
    // The line above, trimmed.
    let above_start = line_start(bytes, ls - 1);
    let mut line = &bytes[above_start..ls - 1];
    let lead = line.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    line = &line[lead..];
    while let [rest @ .., b' ' | b'\t' | b'\r'] = line {
        line = rest;
    }
    let at = above_start + lead;
    let name = if plist {
        let inner = line.strip_prefix(b"<key>")?.strip_suffix(b"</key>")?;
        (at + 5, at + 5 + inner.len())
    } else {
        let inner = line.strip_prefix(b"<")?.strip_suffix(b">")?;
        if inner.is_empty()
            || !inner.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':'))
        {
            return None;
        }
        (at + 1, at + 1 + inner.len())
    };
    (name.1 > name.0).then_some((name, (b, ve)))
}

/// How far into its comment line a secret word may be.
const COMMENT_REACH: usize = 120;

/// Words of a comment that name the line below a secret's.
const COMMENT_WORDS: &[&[u8]] = &[b"password", b"passphrase", b"secret", b"token", b"api key", b"credential"];

/// At a comment marker `a..b` (`# `, `// `, `-- `) starting its line (after indentation): a
/// secret word in the comment (its words up to and including it are the name), and the
/// value of the next line when it is an assignment (`NAME = …`, `name: …`) whose name holds
/// no secret word (those are the generic rules') and whose value is one token.
pub(super) fn comment_above(bytes: &[u8], a: usize, b: usize) -> Option<((usize, usize), (usize, usize))> {
    let mut c = a;
    while c > 0 && matches!(bytes[c - 1], b' ' | b'\t') {
        c -= 1;
    }
    if c > 0 && bytes[c - 1] != b'\n' {
        return None;
    }
    let hi = bytes.len().min(b + COMMENT_REACH);
    let le = b + memchr::memchr(b'\n', &bytes[b..hi])?;
    let comment = &bytes[b..le];
    let lower = comment.to_ascii_lowercase();
    let word_end = COMMENT_WORDS.iter().filter_map(|w| memchr::memmem::find(&lower, w).map(|i| i + w.len())).min()?;
    let name = (b, b + word_end);
    let ns = le + 1;
    let ne = bytes.len().min(ns + 400);
    let next = &bytes[ns..ne];
    let nl = memchr::memchr(b'\n', next).unwrap_or(next.len());
    let line = &next[..nl];
    let mut p = line.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    let start = p;
    while p < line.len() && (line[p].is_ascii_alphanumeric() || matches!(line[p], b'_' | b'-' | b'.')) {
        p += 1;
    }
    let key = &line[start..p];
    if key.is_empty() || key.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let lower = key.to_ascii_lowercase();
    if ["pass", "pwd", "secret", "token", "key", "cred", "auth"]
        .iter()
        .any(|w| memchr::memmem::find(&lower, w.as_bytes()).is_some())
    {
        return None;
    }
    while p < line.len() && matches!(line[p], b' ' | b'\t' | b'"' | b'\'') {
        p += 1;
    }
    if !matches!(line.get(p), Some(b'=' | b':')) {
        return None;
    }
    p += 1;
    while p < line.len() && matches!(line[p], b' ' | b'\t') {
        p += 1;
    }
    let quote = matches!(line.get(p), Some(b'"' | b'\''));
    if quote {
        p += 1;
    }
    let vs = p;
    while p < line.len() && !matches!(line[p], b'"' | b'\'' | b' ' | b'\t' | b'\r' | b',' | b';') {
        p += 1;
    }
    // One token, closing the line (or its quote).
    let mut q = p;
    if quote && matches!(line.get(q), Some(b'"' | b'\'')) {
        q += 1;
    }
    while q < line.len() && matches!(line[q], b' ' | b'\t' | b'\r' | b',' | b';') {
        q += 1;
    }
    (p > vs && q == line.len()).then_some((name, (ns + vs, ns + p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(t: &str) -> Option<(String, String)> {
        let b = t.as_bytes();
        let a = t.find("\"Value\"").or_else(|| t.find("Value"))?;
        let end = if b[a] == b'"' { a + 7 } else { a + 5 };
        let ((ns, ne), (vs, ve)) = label_pair(b, a, end)?;
        Some((t[ns..ne].to_string(), t[vs..ve].to_string()))
    }

    #[test]
    fn a_comment_line_names_the_line_below() {
        let at = |t: &str| {
            let a = t.find("# ").unwrap();
            comment_above(t.as_bytes(), a, a + 2)
                .map(|((ns, ne), (vs, ve))| (t[ns..ne].to_string(), t[vs..ve].to_string()))
        };
        let t = "x: 1\n  # staging console admin password\n  CONSOLE_ADMIN = \"Lark-Window-8812\"\n";
        assert_eq!(at(t), Some(("staging console admin password".into(), "Lark-Window-8812".into())));
        // A line whose own name is a secret's is the generic rules'; a sentence goes on; a
        // `#` inside a line is no comment line.
        assert_eq!(at("# the relay token\nRELAY_TOKEN=abc123def456\n"), None);
        assert_eq!(at("# rotate the password yearly\nNOTE = see the wiki page\n"), None);
        assert_eq!(at("url = x # password below\nA = Lark-Window-8812\n"), None);
    }

    #[test]
    fn a_value_under_a_name_label_lines_above() {
        let yaml = "Parameter:\n  Name: /shop/live/smtp_password\n  Type: SecureString\n  Value: q7Rw2kLm9Xv4Tz8N\n";
        assert_eq!(pair(yaml), Some(("smtp_password".into(), "q7Rw2kLm9Xv4Tz8N".into())));
        let spring = "    Property: orders.signing.hmac-key\n    Value: \"0a1b2c3d4e5f60718293a4b5c6d7e8f9\"\n";
        assert_eq!(pair(spring), Some(("hmac-key".into(), "0a1b2c3d4e5f60718293a4b5c6d7e8f9".into())));
        let json = "{\n  \"Name\": \"/svc/api_token\",\n  \"Type\": \"SecureString\",\n  \"Value\": \"Zx81Lq\",\n";
        assert_eq!(pair(json), Some(("api_token".into(), "Zx81Lq".into())));
        // Prose, or a value whose record has no name label, is not a pair.
        assert_eq!(pair("The Value of the key is here\n"), None);
        assert_eq!(pair("Type: String\n\nValue: 42\n"), None);
    }

    #[test]
    fn an_xml_value_under_its_element_or_a_plist_key() {
        let at = |t: &str, tag: &str| {
            let a = t.find(tag).unwrap();
            label_pair(t.as_bytes(), a, a + tag.len())
                .map(|((ns, ne), (vs, ve))| (t[ns..ne].to_string(), t[vs..ve].to_string()))
        };
        let unattend = "<UserAccounts>\n  <AdministratorPassword>\n    <Value>Kr8-Lupin-Tide</Value>\n";
        assert_eq!(at(unattend, "<Value>"), Some(("AdministratorPassword".into(), "Kr8-Lupin-Tide".into())));
        let plist = "<dict>\n\t<key>SlackBotToken</key>\n\t<string>Zq81Lk4WTm7Xp2Nc</string>\n";
        assert_eq!(at(plist, "<string>"), Some(("SlackBotToken".into(), "Zq81Lk4WTm7Xp2Nc".into())));
        // An element opened with text beside it, a value on its opening's line, markup inside.
        assert_eq!(at("<Name>svc</Name>\n<Value>abc</Value>\n", "<Value>"), None);
        assert_eq!(at("<Password><Value>abc</Value>\n", "<Value>"), None);
        assert_eq!(at("<Password>\n  <Value><![CDATA[x]]></Value>\n", "<Value>"), None);
    }
}

//! Session 13: a SQL dump's `INSERT` rows, each value named by its column. `sqlite3 .dump`
//! writes `INSERT INTO users VALUES(1,'a@b','…','<seed>');` under the table's `CREATE TABLE
//! users (id INTEGER, email TEXT, …, otp_secret TEXT);`; `pg_dump --inserts` and `mysqldump
//! --complete-insert` name the columns in the statement (`INSERT INTO t (a, b) VALUES (…)`).
//! A column whose name is a secret's (`otp_secret`, `api_token`, `password`) names its
//! value: a TOTP seed, a token stored in plain text.
//!
//! How: at `INSERT INTO ` (either case), the table's name, then its columns — the statement's
//! own list, else the nearest `CREATE TABLE <name> (` above (within [`REACH`] bytes) — and
//! the first row's values split on commas outside quotes; each quoted value yields `(column,
//! value)` for `scan` to gate by the column's name (`Gate::Structured`: a hash or a verifier,
//! `$2a$…`, stays). Not for: SQL in code (`cursor.execute("INSERT …", (token,))`: the value
//! is not in the statement), `UPDATE … SET col = '…'` (the generic assignment rules).

/// How far above an `INSERT` its `CREATE TABLE` may be.
const REACH: usize = 64 * 1024;
/// Longest statement line read.
const LINE: usize = 8 * 1024;

/// At an `INSERT INTO ` anchor ending at `b`: `(column name span, value span)` of each quoted
/// value in the first row.
pub(super) fn insert_values(bytes: &[u8], b: usize) -> Vec<((usize, usize), (usize, usize))> {
    let mut out = Vec::new();
    let n = bytes.len().min(b + LINE);
    let mut p = b;
    let ident = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'"' | b'`' | b'[' | b']');
    let ts = p;
    while p < n && ident(bytes[p]) {
        p += 1;
    }
    if p == ts {
        return out;
    }
    let table = trim_quotes(&bytes[ts..p]);
    skip_blanks(bytes, &mut p, n);
    let columns: Vec<(usize, usize)> = if bytes.get(p) == Some(&b'(') {
        let Some(close) = memchr::memchr(b')', &bytes[p..n]) else { return out };
        let list = (p + 1, p + close);
        p += close + 1;
        split_names(bytes, list.0, list.1)
    } else {
        match create_table(bytes, b, table) {
            Some(c) => c,
            None => return out,
        }
    };
    skip_blanks(bytes, &mut p, n);
    if !bytes[p..n].get(..6).is_some_and(|v| v.eq_ignore_ascii_case(b"values")) {
        return out;
    }
    p += 6;
    skip_blanks(bytes, &mut p, n);
    if bytes.get(p) != Some(&b'(') {
        return out;
    }
    p += 1;
    let mut i = 0;
    while p < n && i < columns.len() {
        skip_blanks(bytes, &mut p, n);
        if bytes.get(p) == Some(&b'\'') {
            let s = p + 1;
            let mut q = s;
            // `''` is a quote inside the string.
            while q < n && bytes[q] != b'\n' {
                if bytes[q] == b'\'' {
                    if bytes.get(q + 1) == Some(&b'\'') {
                        q += 2;
                        continue;
                    }
                    break;
                }
                q += 1;
            }
            if bytes.get(q) != Some(&b'\'') {
                return out;
            }
            if q > s {
                out.push((columns[i], (s, q)));
            }
            p = q + 1;
        } else {
            while p < n && !matches!(bytes[p], b',' | b')' | b'\n') {
                p += 1;
            }
        }
        skip_blanks(bytes, &mut p, n);
        match bytes.get(p) {
            Some(b',') => p += 1,
            _ => break,
        }
        i += 1;
    }
    out
}

fn skip_blanks(bytes: &[u8], p: &mut usize, n: usize) {
    while *p < n && matches!(bytes[*p], b' ' | b'\t') {
        *p += 1;
    }
}

fn trim_quotes(v: &[u8]) -> &[u8] {
    let v = v.strip_prefix(b"\"").or_else(|| v.strip_prefix(b"`")).or_else(|| v.strip_prefix(b"[")).unwrap_or(v);
    v.strip_suffix(b"\"").or_else(|| v.strip_suffix(b"`")).or_else(|| v.strip_suffix(b"]")).unwrap_or(v)
}

/// Column names of a comma-separated list `s..e` (a statement's `(a, b)` or a `CREATE TABLE`'s
/// definitions: each definition's first word; constraints — `PRIMARY KEY (…)`, `UNIQUE`,
/// `FOREIGN KEY`, `CONSTRAINT` — end nothing but are skipped as columns would not be, so a
/// table with one before its columns yields no list).
fn split_names(bytes: &[u8], s: usize, e: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = s;
    for q in s..=e {
        let c = if q < e { bytes[q] } else { b',' };
        match c {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                let mut a = start;
                while a < q && bytes[a].is_ascii_whitespace() {
                    a += 1;
                }
                let mut z = a;
                while z < q && !bytes[z].is_ascii_whitespace() && bytes[z] != b',' {
                    z += 1;
                }
                let word = trim_quotes(&bytes[a..z]);
                let upper = word.to_ascii_uppercase();
                if ["PRIMARY", "UNIQUE", "FOREIGN", "CONSTRAINT", "CHECK", "KEY", "INDEX"]
                    .iter()
                    .any(|k| upper == k.as_bytes())
                {
                    start = q + 1;
                    continue;
                }
                let off = bytes[a..z].len() - word.len();
                let a = a + usize::from(off > 0);
                out.push((a, a + word.len()));
                start = q + 1;
            }
            _ => {}
        }
    }
    out
}

/// The columns of `CREATE TABLE <table> (…);` above `b` (the nearest, within [`REACH`]).
fn create_table(bytes: &[u8], b: usize, table: &[u8]) -> Option<Vec<(usize, usize)>> {
    let lo = b.saturating_sub(REACH);
    let hay = &bytes[lo..b];
    let mut end = hay.len();
    while let Some(i) = memchr::memmem::rfind(&hay[..end], b"CREATE TABLE ") {
        end = i;
        let mut p = lo + i + 13;
        let n = bytes.len().min(p + 256);
        let prefix = b"IF NOT EXISTS ";
        if bytes[p..n].starts_with(prefix) {
            p += prefix.len();
        }
        let ts = p;
        while p < n && !matches!(bytes[p], b' ' | b'\t' | b'(' | b'\n') {
            p += 1;
        }
        if trim_quotes(&bytes[ts..p]) != table {
            continue;
        }
        skip_blanks(bytes, &mut p, n);
        if bytes.get(p) != Some(&b'(') {
            return None;
        }
        // The definitions up to the matching `)`, over lines too.
        let open = p + 1;
        let hi = bytes.len().min(open + LINE);
        let mut depth = 1usize;
        let mut q = open;
        while q < hi {
            match bytes[q] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(split_names(bytes, open, q));
                    }
                }
                _ => {}
            }
            q += 1;
        }
        return None;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(t: &str) -> Vec<(String, String)> {
        let a = t.find("INSERT INTO ").unwrap();
        insert_values(t.as_bytes(), a + 12)
            .into_iter()
            .map(|((ns, ne), (vs, ve))| (t[ns..ne].to_string(), t[vs..ve].to_string()))
            .collect()
    }

    #[test]
    fn a_rows_values_are_named_by_their_columns() {
        let dump = "CREATE TABLE \"devices\" (\n  id INTEGER PRIMARY KEY,\n  label TEXT,\n  push_token TEXT\n);\nINSERT INTO \"devices\" VALUES(7,'it''s mine','Zr7Kq2Lm9Xw4');\n";
        assert_eq!(
            pairs(dump),
            vec![("label".into(), "it''s mine".into()), ("push_token".into(), "Zr7Kq2Lm9Xw4".into())]
        );
        let pg = "INSERT INTO public.keys (owner, api_token) VALUES ('ops', 'Vb3Nc8Hd6Jf1');";
        assert_eq!(pairs(pg), vec![("owner".into(), "ops".into()), ("api_token".into(), "Vb3Nc8Hd6Jf1".into())]);
        // No column list and no table above: nothing.
        assert!(pairs("INSERT INTO t VALUES('a','b');").is_empty());
    }
}

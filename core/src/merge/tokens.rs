//! Tokens: a claim's text split into words, numbers and punctuation, lower-cased into one
//! reused buffer, each word tagged with its classes; the `[src:...]` provenance markers; and the
//! canonical keys of words (plurals folded) and numbers (`10k` = `10,000`).
//!
//! What it is for: the lexical layer under normalised-text keys (`ids`), typed values
//! (`values`) and claim analysis (`analysis`).
//!
//! What it is not for: Markdown structure (sections, list items, fences: `claims`) or any
//! judgement about what the words mean.

use super::words::{MONTH_SHIFT, W_ARTICLE, W_MONTH, W_SYNONYM, synonym_of, word_flags};
use crate::hash::{FNV64_OFFSET, Key128, fnv64, fnv64_from};

/// If a provenance marker starts at byte `p` — `[src:`, then anything but brackets, then `]`
/// — the index after it.
fn marker_end(bytes: &[u8], p: usize) -> Option<usize> {
    if !bytes[p..].starts_with(b"[src:") {
        return None;
    }
    let e = p + 5 + bytes[p + 5..].iter().position(|&b| b == b']' || b == b'[')?;
    (bytes[e] == b']').then_some(e + 1)
}

/// The `[src:...]` markers in `text`, in order.
pub(super) fn markers(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            let p = at + bytes[at..].iter().position(|&b| b == b'[')?;
            match marker_end(bytes, p) {
                Some(e) => {
                    at = e;
                    return Some(&text[p..e]);
                }
                None => at = p + 1,
            }
        }
    })
}

/// A number at the start of a lowercase token: digits with `,` grouping and at most one `.`;
/// returns the value and the suffix (`k`, `x`, `ms`, ...). `None` for versions (`1.2.3`).
pub(super) fn parse_num(w: &str) -> Option<(f64, &str)> {
    let n = w.bytes().take_while(|b| b.is_ascii_digit() || *b == b',' || *b == b'.').count();
    if n == 0 {
        return None;
    }
    let (digits, suffix) = w.split_at(n);
    if digits.bytes().filter(|&b| b == b'.').count() > 1 {
        return None;
    }
    // Without the `,` grouping, in a stack buffer (no allocation on this path).
    let mut buf = [0u8; 48];
    let mut len = 0;
    for c in digits.bytes().filter(|&c| c != b',') {
        *buf.get_mut(len)? = c;
        len += 1;
    }
    let v = std::str::from_utf8(&buf[..len]).ok()?.parse::<f64>().ok()?;
    Some((v, suffix))
}

/// The length in bytes of a possessive `'s` (or `’s`) at byte `i` that ends a word, if there
/// is one.
fn possessive_s(text: &str, i: usize) -> Option<usize> {
    let rest = text.get(i..)?;
    let n = if rest.starts_with('\'') {
        1
    } else if rest.starts_with('’') {
        '’'.len_utf8()
    } else {
        return None;
    };
    let after = rest.get(n..)?;
    (after.starts_with('s') && !after[1..].chars().next().is_some_and(char::is_alphanumeric)).then_some(n + 1)
}

/// `10k` → 10000, `2.5m` → 2500000, `3bn` → 3e9: the value and the suffix left.
pub(super) fn scaled(v: f64, suffix: &str) -> (f64, &str) {
    match suffix {
        "k" => (v * 1e3, ""),
        "m" | "mm" | "mn" => (v * 1e6, ""),
        "b" | "bn" => (v * 1e9, ""),
        s => (v, s),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tk {
    /// Starts with a letter (`launch`, `v1.2`, `p95`, `don't`).
    Word,
    /// Starts with a digit (`10,000`, `3.5x`, `14th`, `1.2.3`).
    Num,
    Punct(char),
}

#[derive(Clone, Copy)]
pub(super) struct Tok {
    pub(super) kind: Tk,
    pub(super) a: u32,
    pub(super) b: u32,
    /// Whitespace (or a stripped provenance marker) before it.
    pub(super) space: bool,
    /// First letter upper-case in the original.
    pub(super) cap: bool,
    /// Word classes (words only).
    pub(super) flags: u64,
    /// FNV-1a of the lower-cased text, | 1.
    pub(super) h: u64,
}

/// Tokens, lower-cased into one buffer. `[src:...]` markers and emphasis (`*`, `_`, `` ` ``)
/// are skipped. Reused across claims (no allocation per word).
#[derive(Default)]
pub(super) struct Toks {
    low: String,
    pub(super) toks: Vec<Tok>,
}

impl Toks {
    pub(super) fn clear(&mut self) {
        self.low.clear();
        self.toks.clear();
    }

    /// Append the tokens of `text` (as if after whitespace).
    pub(super) fn push_text(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        let mut space = true;
        while i < bytes.len() {
            let c = bytes[i];
            if c == b'['
                && let Some(e) = marker_end(bytes, i)
            {
                i = e;
                space = true;
                continue;
            }
            if c < 0x80 {
                if c.is_ascii_whitespace() {
                    space = true;
                    i += 1;
                } else if matches!(c, b'*' | b'_' | b'`') {
                    i += 1;
                } else if c.is_ascii_alphanumeric() {
                    i = self.word(text, i, space);
                    space = false;
                } else {
                    let at = self.low.len() as u32;
                    self.toks.push(Tok { kind: Tk::Punct(c as char), a: at, b: at, space, cap: false, flags: 0, h: 0 });
                    i += 1;
                    space = false;
                }
                continue;
            }
            let ch = text[i..].chars().next().expect("in bounds");
            if ch.is_whitespace() {
                space = true;
                i += ch.len_utf8();
            } else if ch.is_alphanumeric() {
                i = self.word(text, i, space);
                space = false;
            } else {
                let at = self.low.len() as u32;
                self.toks.push(Tok { kind: Tk::Punct(ch), a: at, b: at, space, cap: false, flags: 0, h: 0 });
                i += ch.len_utf8();
                space = false;
            }
        }
    }

    /// Read the word or number starting at byte `i`; returns the index after it.
    pub(super) fn word(&mut self, text: &str, mut i: usize, space: bool) -> usize {
        let bytes = text.as_bytes();
        let a = self.low.len();
        let first = text[i..].chars().next().expect("in bounds");
        let num = first.is_ascii_digit();
        // Capitalised, or a name in camel case ("iNaturalist", "eBay", "iOS").
        let mut cap = first.is_uppercase();
        let (mut last_digit, mut last_alpha) = (false, false);
        let next_is = |j: usize, f: fn(char) -> bool| text.get(j..).and_then(|t| t.chars().next()).is_some_and(f);
        while i < bytes.len() {
            let run = bytes[i..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
            if run > 0 {
                cap |= !num && text.as_bytes()[i + 1..i + run].iter().any(u8::is_ascii_uppercase);
                let from = self.low.len();
                self.low.push_str(&text[i..i + run]);
                self.low[from..].make_ascii_lowercase();
                i += run;
                last_digit = bytes[i - 1].is_ascii_digit();
                last_alpha = !last_digit;
                continue;
            }
            let c = bytes[i];
            // Ninth round: a number's possessive ("Line 3's interlock") is the number, so that
            // "Line 3's interlock" and "the interlock on line 3" name one subject.
            if last_digit && let Some(n) = possessive_s(text, i) {
                i += n;
                break;
            }
            if (c == b'.' || c == b',') && last_digit && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                self.low.push(c as char);
                i += 1;
            } else if c == b'\'' && last_alpha && next_is(i + 1, char::is_alphabetic) {
                self.low.push('\'');
                last_alpha = false;
                i += 1;
            } else if c >= 0x80 {
                let ch = text[i..].chars().next().expect("in bounds");
                let n = ch.len_utf8();
                if ch.is_alphanumeric() {
                    self.low.extend(ch.to_lowercase());
                    last_alpha = ch.is_alphabetic();
                    last_digit = false;
                    i += n;
                } else if ch == '’' && last_alpha && next_is(i + n, char::is_alphabetic) {
                    self.low.push('\'');
                    last_alpha = false;
                    i += n;
                } else {
                    break;
                }
            } else {
                break;
            }
        }
        let h = fnv64(&self.low.as_bytes()[a..]) | 1;
        let flags = if num { 0 } else { word_flags(h, &self.low[a..]) };
        let kind = if num { Tk::Num } else { Tk::Word };
        self.toks.push(Tok { kind, a: a as u32, b: self.low.len() as u32, space, cap, flags, h });
        i
    }

    pub(super) fn len(&self) -> usize {
        self.toks.len()
    }

    pub(super) fn w(&self, i: usize) -> &str {
        let t = &self.toks[i];
        &self.low[t.a as usize..t.b as usize]
    }

    /// Token `i` is the word `word`.
    pub(super) fn is(&self, i: usize, word: &str) -> bool {
        i < self.len() && self.toks[i].kind == Tk::Word && self.w(i) == word
    }

    /// Token `i` is one of `words`.
    pub(super) fn is_any(&self, i: usize, words: &[&str]) -> bool {
        i < self.len() && self.toks[i].kind == Tk::Word && words.contains(&self.w(i))
    }

    /// Token `i` is a word in class `flag`.
    pub(super) fn has(&self, i: usize, flag: u64) -> bool {
        i < self.len() && self.toks[i].flags & flag != 0
    }

    pub(super) fn punct(&self, i: usize) -> Option<char> {
        match self.toks.get(i)?.kind {
            Tk::Punct(c) => Some(c),
            _ => None,
        }
    }

    pub(super) fn is_text(&self, i: usize) -> bool {
        i < self.len() && matches!(self.toks[i].kind, Tk::Word | Tk::Num)
    }

    pub(super) fn month(&self, i: usize) -> Option<u8> {
        self.has(i, W_MONTH).then(|| (self.toks[i].flags >> MONTH_SHIFT) as u8 & 0xf)
    }

    /// Feed the normalised text to `h`: words and canonical numbers, in order, articles and
    /// punctuation dropped. Returns how many were fed.
    pub(super) fn norm_into(&self, h: &mut Key128) -> usize {
        let mut n = 0;
        for (i, t) in self.toks.iter().enumerate() {
            match t.kind {
                Tk::Punct(_) => continue,
                Tk::Word if t.flags & W_ARTICLE != 0 => continue,
                Tk::Word => h.push(t.h),
                Tk::Num => h.push(self.num_key(i)),
            }
            n += 1;
        }
        n
    }

    /// A number's key: its value after `k`/`m`/`bn` scaling and its suffix (`10,000` = `10k`),
    /// or its text when it is not a number (`1.2.3`).
    fn num_key(&self, i: usize) -> u64 {
        let w = self.w(i);
        match parse_num(w) {
            Some((v, suffix)) => {
                let (v, suffix) = scaled(v, suffix);
                fnv64_from(fnv64_from(fnv64(&[1]), &v.to_bits().to_le_bytes()), suffix.as_bytes()) | 1
            }
            None => self.toks[i].h,
        }
    }

    /// A content word's key: canonical number, or the word with its plural folded, or its
    /// synonym table row's first word (`db` = `database`).
    pub(super) fn key(&self, i: usize) -> u64 {
        match self.toks[i].kind {
            Tk::Num => self.num_key(i),
            _ => {
                let w = self.w(i);
                if self.toks[i].flags & W_SYNONYM != 0
                    && let Some(canon) = synonym_of(w)
                {
                    return fold_hash(canon);
                }
                let folds = w.ends_with('s')
                    || (w.len() > 5 && ["ise", "ised", "ising", "iser", "isation"].iter().any(|e| w.ends_with(e)));
                if folds { fold_hash(w) } else { self.toks[i].h }
            }
        }
    }
}

/// Hash of `w` with common English plural endings folded, so "renewals" meets "renewal"
/// (`-ies` → `-y`; `-ses`, `-xes`, `-ches`, `-shes` → drop `es`; `-s` → drop, except after
/// `s`, `u`, `i`; words of 3 letters or fewer and non-ASCII words as they are).
///
/// British *-ise* spellings read as *-ize* ("prioritise" = "prioritize", "organisations" =
/// "organizations"): *is* followed by *e, ed, es, er, ers, ing, ation, ations* at the end,
/// after at least 3 letters.
pub(super) fn fold_hash(w: &str) -> u64 {
    if w.is_ascii() && w.len() > 5 {
        for end in ["isations", "isation", "ising", "isers", "iser", "ised", "ises", "ise"] {
            if let Some(stem) = w.strip_suffix(end)
                && stem.len() >= 3
            {
                let mut z = String::with_capacity(w.len());
                z.push_str(stem);
                z.push_str("iz");
                z.push_str(&end[2..]);
                return fold_plural(&z);
            }
        }
    }
    fold_plural(w)
}

fn fold_plural(w: &str) -> u64 {
    let b = w.as_bytes();
    let len = b.len();
    let h = if !w.is_ascii() || len <= 3 {
        fnv64(b)
    } else if len > 4 && w.ends_with("ies") {
        fnv64_from(fnv64(&b[..len - 3]), b"y")
    } else if len > 4 && (w.ends_with("ses") || w.ends_with("xes") || w.ends_with("ches") || w.ends_with("shes")) {
        fnv64(&b[..len - 2])
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        fnv64(&b[..len - 1])
    } else {
        fnv64(b)
    };
    h | 1
}

/// Hash of a sorted, deduplicated word list (0 for none).
pub(super) fn words_key(words: &[u64]) -> u64 {
    if words.is_empty() {
        return 0;
    }
    let mut h = FNV64_OFFSET;
    for w in words {
        h = fnv64_from(h, &w.to_le_bytes());
    }
    h | 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::words::*;

    #[test]
    fn word_table_classifies_every_listed_word() {
        for (flag, words) in WORD_CLASSES {
            for w in *words {
                let f = word_flags(fnv64(w.as_bytes()) | 1, w);
                assert_eq!(f & flag, *flag, "{w}");
            }
        }
        assert_eq!(word_flags(fnv64(b"pricing") | 1, "pricing"), 0);
        let mut tk = Toks::default();
        tk.push_text("The Launch in July, not June");
        assert!(tk.has(0, W_ARTICLE | W_STOP) && tk.toks[1].flags == 0 && tk.month(3) == Some(7));
        assert!(tk.has(5, W_NEG) && tk.month(6) == Some(6));
    }
}

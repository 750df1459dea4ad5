//! The one lexical engine: how text becomes terms, for suggestion ranking (SPEC §11.2) and
//! ranked search (§11.3) alike (docs/search.md).
//!
//! - **Words** are maximal runs of alphanumeric characters (`char::is_alphanumeric`, so
//!   every script), found by the SIMD word scanner (`scan`); a run of CJK ideographs or
//!   kana is one term per character (those scripts do not separate words with spaces).
//! - **Folding**: lowercase, canonical decomposition with combining marks dropped
//!   ("Café" → "cafe", "Ångström" → "angstrom"), and a few letters that do not decompose
//!   (ß → ss, æ → ae, œ → oe, ø → o, ł → l, đ/ð → d, þ → th, ı → i). Idempotent.
//! - **Stemming**: a light English suffix stemmer ([`stem`]): plurals, `-ing`, `-ed`,
//!   `-ion` after `t`/`s`, `-ment`, final `-e`, `-y` → `-i`, to a fixpoint, so
//!   "migrations", "migrated" and "migrate" are one term. Only words of ASCII letters.
//! - **Stop words**: one English list ([`is_stop_word`]), checked on the folded word.
//!   One-character terms are dropped, except ideographs.
//! - **Compounds**: "sign-in" also yields the joined term "signin" (at the first word's
//!   position); [`find_terms`] also joins a word with the next one across one space or
//!   hyphen when together they are a wanted term, so "sign-in" = "sign in" = "signin".
//! - **Section headings**: the Distilled State's fixed headings are not content
//!   ([`content_segments`], [`section_of_heading`]): the one heading-noise rule.
//!
//! Not for: scoring (`ranking`, `search`) or reading files (the host does I/O).

pub(crate) mod scan;
pub mod search;

use std::ops::ControlFlow;

use crate::distill::REQUIRED_SECTIONS;

use scan::{EVERY_WORD, LengthFilter, WordMap, for_each_word, word_str};

/// English stop words, sorted (binary search; a test checks the order).
const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does",
    "doing", "done", "down", "during", "each", "few", "for", "from", "further", "get", "got", "had", "has", "have",
    "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself",
    "just", "let", "like", "make", "me", "more", "most", "my", "need", "new", "no", "nor", "not", "now", "of", "off",
    "on", "once", "one", "only", "or", "other", "our", "ours", "out", "over", "own", "please", "same", "she", "should",
    "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "thing",
    "things", "this", "those", "through", "to", "too", "under", "until", "up", "us", "use", "very", "want", "was",
    "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "work", "would",
    "yes", "yet", "you", "your", "yours",
];

/// Whether a folded word is an English stop word.
pub fn is_stop_word(folded: &str) -> bool {
    STOP_WORDS.binary_search(&folded).is_ok()
}

/// Whether `c` is written without spaces between words (CJK ideographs and kana): each
/// such character is a term of its own.
fn is_ideograph(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FFFF)
}

/// Fold `word` into `buf`: lowercase, accents dropped, a few letters spelled out.
pub fn fold_into(word: &str, buf: &mut String) {
    buf.clear();
    if word.is_ascii() {
        buf.push_str(word);
        buf.make_ascii_lowercase();
        return;
    }
    for c in word.chars() {
        unicode_normalization::char::decompose_canonical(c, |d| {
            if unicode_normalization::char::is_combining_mark(d) {
                return;
            }
            for l in d.to_lowercase() {
                if unicode_normalization::char::is_combining_mark(l) {
                    continue;
                }
                match l {
                    'ß' => buf.push_str("ss"),
                    'æ' => buf.push_str("ae"),
                    'œ' => buf.push_str("oe"),
                    'ø' => buf.push('o'),
                    'ł' => buf.push('l'),
                    'đ' | 'ð' => buf.push('d'),
                    'þ' => buf.push_str("th"),
                    'ı' => buf.push('i'),
                    _ => buf.push(l),
                }
            }
        });
    }
}

/// `word` folded (see [`fold_into`]).
pub fn fold(word: &str) -> String {
    let mut s = String::new();
    fold_into(word, &mut s);
    s
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// One pass of the light stemmer; true when it changed the word.
fn stem_step(w: &mut String) -> bool {
    let b = w.as_bytes();
    let n = b.len();
    if n <= 3 {
        return false;
    }
    let ends = |s: &str| w.ends_with(s);
    let vowel_in = |k: usize| b[..k].iter().any(|&c| is_vowel(c) || c == b'y');
    if ends("sses") || (ends("ies") && n > 4) {
        w.truncate(n - 2);
    } else if ends("s") {
        if ends("ss") || ends("us") || ends("is") {
            return false;
        }
        w.truncate(n - 1);
    } else if ends("eed") {
        return false;
    } else if ends("ing") && n - 3 >= 3 && vowel_in(n - 3) {
        w.truncate(n - 3);
        undouble(w);
    } else if ends("ed") && n - 2 >= 3 && vowel_in(n - 2) {
        w.truncate(n - 2);
        undouble(w);
    } else if ends("ion") && n - 3 >= 4 && matches!(b[n - 4], b't' | b's') {
        w.truncate(n - 3);
        if w.ends_with("izat") {
            w.truncate(w.len() - 2);
        }
    } else if ends("id") && n >= 5 {
        // "decid" → "decis", meeting "decision" ("provide"/"provision", "divide"/"division").
        w.truncate(n - 1);
        w.push('s');
    } else if ends("ment") && n - 4 >= 5 {
        w.truncate(n - 4);
    } else if ends("e") {
        w.truncate(n - 1);
    } else if ends("y") && !is_vowel(b[n - 2]) {
        w.truncate(n - 1);
        w.push('i');
    } else {
        return false;
    }
    true
}

/// "runn" → "run", "stopp" → "stop" (not l, s, z: "spell", "pass", "buzz").
fn undouble(w: &mut String) {
    let b = w.as_bytes();
    let n = b.len();
    if n >= 4 && b[n - 1] == b[n - 2] && !is_vowel(b[n - 1]) && !matches!(b[n - 1], b'l' | b's' | b'z') {
        w.truncate(n - 1);
    }
}

/// Stem a folded word in place (light English stemmer, applied to a fixpoint, so stemming a
/// stem changes nothing). Words with anything but ASCII letters are left alone.
pub fn stem_in_place(w: &mut String) {
    if !w.bytes().all(|b| b.is_ascii_lowercase()) {
        return;
    }
    while stem_step(w) {}
}

/// `word` (already folded) stemmed.
pub fn stem(word: &str) -> String {
    let mut s = word.to_string();
    stem_in_place(&mut s);
    s
}

/// The term of one word: folded then stemmed (no stop-word check).
pub fn term_of(word: &str) -> String {
    let mut s = fold(word);
    stem_in_place(&mut s);
    s
}

/// Fold common English plural endings ("renewals" → "renewal", "policies" → "policy"): the
/// readable form shown for a term (reasons, shared terms), never used for matching.
pub fn singular(word: &str) -> String {
    let mut w = word.to_string();
    let len = w.len();
    if len > 4 && w.ends_with("ies") {
        w.truncate(len - 3);
        w.push('y');
    } else if len > 4 && (w.ends_with("ses") || w.ends_with("xes") || w.ends_with("ches") || w.ends_with("shes")) {
        w.truncate(len - 2);
    } else if len > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") {
        w.truncate(len - 1);
    }
    w
}

/// One term of a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The term: folded and stemmed.
    pub term: String,
    /// The folded word (before stemming), e.g. for display.
    pub folded: String,
    /// Word position (every word counts, stop words too); a joined compound has its first
    /// word's position.
    pub pos: u32,
    /// Byte range in the text.
    pub start: usize,
    pub end: usize,
    pub stop: bool,
}

/// Every token of `text` in order, stop words included (flagged), one-character tokens
/// (other than ideographs) dropped, hyphenated compounds also joined ("sign-in" → sign, in,
/// signin). The definition [`find_terms`] is tested against.
pub fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut map = WordMap::default();
    let mut extra = 0u32;
    // The previous word: (start and end byte, folded, position).
    let mut prev: Option<(usize, usize, String, u32)> = None;
    for_each_word(text, &EVERY_WORD, &mut map, |word, _, ordinal| {
        let start = word.as_ptr() as usize - text.as_ptr() as usize;
        let s = word_str(word);
        let pos = ordinal + extra;
        if s.chars().any(is_ideograph) {
            // Split ideographs out; other runs inside stay words.
            let mut run_start: Option<usize> = None;
            let mut k = 0u32;
            let flush = |a: usize, b: usize, k: &mut u32, out: &mut Vec<Token>| {
                let folded = fold(&s[a..b]);
                if folded.chars().nth(1).is_some() {
                    let mut term = folded.clone();
                    stem_in_place(&mut term);
                    let stop = is_stop_word(&folded);
                    out.push(Token { term, folded, pos: pos + *k, start: start + a, end: start + b, stop });
                }
                *k += 1;
            };
            for (i, c) in s.char_indices() {
                if is_ideograph(c) {
                    if let Some(a) = run_start.take() {
                        flush(a, i, &mut k, &mut out);
                    }
                    let folded = fold(c.encode_utf8(&mut [0; 4]));
                    out.push(Token {
                        term: folded.clone(),
                        folded,
                        pos: pos + k,
                        start: start + i,
                        end: start + i + c.len_utf8(),
                        stop: false,
                    });
                    k += 1;
                } else if run_start.is_none() {
                    run_start = Some(i);
                }
            }
            if let Some(a) = run_start {
                flush(a, s.len(), &mut k, &mut out);
            }
            extra += k.saturating_sub(1);
            prev = None;
            return ControlFlow::Continue(());
        }
        let folded = fold(s);
        if let Some((pstart, pend, pfolded, ppos)) = prev.take()
            && pend + 1 == start
            && text.as_bytes()[pend] == b'-'
        {
            let mut joined = format!("{pfolded}{folded}");
            let jf = joined.clone();
            stem_in_place(&mut joined);
            out.push(Token { term: joined, folded: jf, pos: ppos, start: pstart, end: start + s.len(), stop: false });
        }
        prev = Some((start, start + s.len(), folded.clone(), pos));
        if folded.chars().nth(1).is_some() {
            let mut term = folded.clone();
            stem_in_place(&mut term);
            let stop = is_stop_word(&folded);
            out.push(Token { term, folded, pos, start, end: start + s.len(), stop });
        }
        ControlFlow::Continue(())
    });
    out
}

/// Normalised terms of `text`, in order: stop words and one-character tokens removed,
/// hyphenated compounds also joined.
pub fn terms(text: &str) -> Vec<String> {
    tokens(text).into_iter().filter(|t| !t.stop).map(|t| t.term).collect()
}

/// A set of wanted terms, and how to find them in text fast: most words are rejected by
/// their first byte, the rest by a prefix compare, before any folding or stemming.
pub struct Terms {
    /// Sorted, distinct terms (folded and stemmed): a term's index is its place here.
    terms: Vec<String>,
    /// First bytes (either case) of the ASCII terms: other ASCII words are skipped.
    filter: Box<LengthFilter>,
    /// Scratch space reused across texts.
    scratch: std::cell::RefCell<(WordMap, String)>,
}

impl Terms {
    /// `terms` must already be terms (folded, stemmed); they are sorted and deduplicated.
    pub fn new<S: AsRef<str>>(terms: &[S]) -> Terms {
        let mut t: Vec<String> = terms.iter().map(|s| s.as_ref().to_string()).filter(|s| !s.is_empty()).collect();
        t.sort();
        t.dedup();
        let mut filter = Box::new([0u64; 256]);
        for s in &t {
            let b = s.as_bytes()[0];
            if b.is_ascii() {
                filter[b as usize] = u64::MAX;
                filter[b.to_ascii_uppercase() as usize] = u64::MAX;
            }
        }
        Terms { terms: t, filter, scratch: Default::default() }
    }

    pub fn terms(&self) -> &[String] {
        &self.terms
    }

    pub fn index(&self, term: &str) -> Option<usize> {
        self.terms.binary_search_by(|t| t.as_str().cmp(term)).ok()
    }
}

/// One occurrence of a wanted term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Index into [`Terms::terms`].
    pub term: usize,
    /// Word position (as in [`tokens`]).
    pub pos: u32,
    pub start: usize,
    pub end: usize,
}

/// Calls `f` with each occurrence in `text` of a term of `wanted`, in text order, with the
/// number of words in `text` at the end (the return value). `f` returns `Break` to stop.
/// Besides [`tokens`]' terms, a word followed by one space or hyphen and another word is
/// joined with it when the join is a wanted term ("sign in" → signin).
pub fn find_terms(text: &str, wanted: &Terms, mut f: impl FnMut(Hit) -> ControlFlow<()>) -> u32 {
    if wanted.terms.is_empty() {
        return 0;
    }
    let mut guard = wanted.scratch.borrow_mut();
    let (map, buf) = &mut *guard;
    let mut extra = 0u32;
    let mut last = 0u32;
    let bytes = text.as_bytes();
    for_each_word(text, &wanted.filter, map, |word, ascii, ordinal| {
        let start = word.as_ptr() as usize - text.as_ptr() as usize;
        let end = start + word.len();
        let pos = ordinal + extra;
        last = ordinal + 1;
        let s = word_str(word);
        if !ascii && s.chars().any(is_ideograph) {
            let mut run = 0;
            for t in tokens(s) {
                if let Some(i) = wanted.index(&t.term) {
                    f(Hit { term: i, pos: pos + t.pos, start: start + t.start, end: start + t.end })?;
                }
                run = run.max(t.pos);
            }
            extra += run;
            return ControlFlow::Continue(());
        }
        fold_into(s, buf);
        if buf.chars().nth(1).is_none() {
            return ControlFlow::Continue(());
        }
        // Could the word itself be a wanted term? A stem keeps all but at most its last
        // letter ("policy" → "polici"), so the folded word starts with the term minus one.
        let mut join_with: bool = false;
        let mut hit = None;
        for (i, t) in wanted.terms.iter().enumerate() {
            let tb = t.as_bytes();
            let keep = t.char_indices().last().map_or(0, |(k, _)| k).max(1).min(tb.len());
            if buf.as_bytes().starts_with(&tb[..keep]) && hit.is_none() {
                let mut st = buf.clone();
                stem_in_place(&mut st);
                if st == *t {
                    hit = Some(i);
                }
            }
            if tb.len() > buf.len() && tb.starts_with(buf.as_bytes()) {
                join_with = true;
            }
        }
        if let Some(i) = hit {
            f(Hit { term: i, pos, start, end })?;
        }
        if join_with && end + 1 < bytes.len() && matches!(bytes[end], b' ' | b'-') {
            let next_len = text[end + 1..].find(|c: char| !c.is_alphanumeric()).unwrap_or(text.len() - end - 1);
            if next_len > 0 {
                let mut joined = buf.clone();
                let mut nb = String::new();
                fold_into(&text[end + 1..end + 1 + next_len], &mut nb);
                joined.push_str(&nb);
                stem_in_place(&mut joined);
                if let Some(i) = wanted.index(&joined)
                    && Some(i) != hit
                {
                    f(Hit { term: i, pos, start, end: end + 1 + next_len })?;
                }
            }
        }
        ControlFlow::Continue(())
    });
    last + extra
}

/// Whether `line` is a Markdown heading (`#` to `######`) naming one of the Distilled State's
/// fixed sections, and which (its index in [`REQUIRED_SECTIONS`]), in any case.
pub fn section_of_heading(line: &str) -> Option<usize> {
    let line = line.trim();
    let text = line.trim_start_matches('#');
    let level = line.len() - text.len();
    if !(1..=6).contains(&level) || !text.starts_with([' ', '\t']) {
        return None;
    }
    let text = text.trim().trim_end_matches('#').trim_end();
    REQUIRED_SECTIONS.iter().position(|s| s.eq_ignore_ascii_case(text))
}

/// The parts of `text` that count as content: everything except the lines that are fixed
/// section headings, which every Distilled State shares and so say nothing about its topic.
/// Cut at line boundaries, so no word is split; the same words elsewhere still count.
pub fn content_segments(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut at) = (0, 0);
    for line in text.split_inclusive('\n') {
        let end = at + line.len();
        if line.trim_start().starts_with('#') && section_of_heading(line).is_some() {
            if at > start {
                out.push(&text[start..at]);
            }
            start = end;
        }
        at = end;
    }
    if text.len() > start {
        out.push(&text[start..]);
    }
    out
}

#[cfg(test)]
mod tests;

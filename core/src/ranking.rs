//! Suggestion ranking for promote and link (SPEC §11.2): lexical, explainable, deterministic.
//!
//! Text is lowercased, split into words on anything that is not a letter or digit, stripped
//! of English stop words and one-character tokens, and plural `-s`/`-es`/`-ies` endings are
//! folded. A candidate earns, for each distinct query term it contains, the weight of the
//! best field the term appears in — name/slug 3.0, next action and open questions 2.0,
//! artifact titles 1.5, Distilled State body 1.0 — times the term's rarity among the
//! candidates (`1 + ln(N / df)`). A query that contains the candidate's whole name (or slug)
//! as a phrase adds 10. Recency multiplies the score by at most 1.1 (half-life 30 days), so
//! it breaks near-ties and never outranks content.
//!
//! Confidence (thresholds calibrated on `tests` below and documented in docs/ranking.md):
//! - `high`: the whole name or slug appears in the query, or at least 4 shared terms of
//!   which at least 2 are in the name, next action or open questions ("strong exact or
//!   repeated domain match");
//! - `medium`: at least 2 shared terms, one of them in a strong field, or at least 3 shared;
//! - `low`: any other overlap. Candidates sharing no term are never suggested.
//!
//! Not for: deciding to link or create — the host asks unless confidence is high, and never
//! links silently.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::ops::ControlFlow;

/// Milliseconds since the Unix epoch, UTC.
pub type Timestamp = i64;

#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub name: String,
    pub slug: String,
    pub next_action: String,
    pub open_questions: Vec<String>,
    pub body: String,
    pub artifact_titles: Vec<String>,
    pub last_touched_at: Timestamp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Confidence {
    High,
    Medium,
    Low,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    pub index: u32,
    pub score: f64,
    pub confidence: Confidence,
    pub reason: String,
    pub shared_terms: Vec<String>,
}

const W_NAME: f64 = 3.0;
const W_STRONG: f64 = 2.0;
const W_TITLE: f64 = 1.5;
const W_BODY: f64 = 1.0;
const EXACT_BONUS: f64 = 10.0;
const RECENCY_MAX_BOOST: f64 = 0.1;
const RECENCY_HALF_LIFE_DAYS: f64 = 30.0;

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

/// Fold common English plural endings in place so "renewals" meets "renewal".
fn fold_in_place(word: &mut String) {
    let len = word.len();
    if len > 4 && word.ends_with("ies") {
        word.truncate(len - 3);
        word.push('y');
    } else if len > 4
        && (word.ends_with("ses") || word.ends_with("xes") || word.ends_with("ches") || word.ends_with("shes"))
    {
        word.truncate(len - 2);
    } else if len > 3 && word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") {
        word.truncate(len - 1);
    }
}

fn fold(word: &str) -> String {
    let mut w = word.to_string();
    fold_in_place(&mut w);
    w
}

/// Normalised terms of `text`, in order (stop words and 1-character tokens removed).
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |t| {
        if STOP_WORDS.binary_search(&t).is_err() {
            out.push(t.to_string());
        }
    });
    out
}

/// Whether `phrase` (as terms) occurs contiguously in `haystack` (as terms).
fn contains_phrase(haystack: &[String], phrase: &[String]) -> bool {
    !phrase.is_empty() && haystack.windows(phrase.len()).any(|w| w == phrase)
}

/// Bitmaps over the bytes of a text, 64 bytes per `u64`, bit `k` of word `j` for byte
/// `64 j + k`: `alnum` marks bytes of alphanumeric characters (word bytes), `multi` marks
/// bytes of non-ASCII characters. One extra zero word at the end ends every run.
#[derive(Default)]
struct WordMap {
    alnum: Vec<u64>,
    multi: Vec<u64>,
    /// Whether the text has any non-ASCII byte (else `multi` is all zeros).
    any_multi: bool,
}

const HIGH: u64 = 0x8080_8080_8080_8080;

const fn splat(b: u8) -> u64 {
    b as u64 * 0x0101_0101_0101_0101
}

/// High bit of each byte of `x` (all bytes < 0x80) set when the byte is in `lo..=hi`.
fn in_range(x: u64, lo: u8, hi: u8) -> u64 {
    (x + splat(0x80 - lo)) & !(x + splat(0x7f - hi)) & HIGH
}

/// The high bits of the 8 bytes of a chunk gathered into bits 0..8 (byte k → bit k).
fn gather(high: u64) -> u64 {
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// Classify 16 bytes: (bit k set when byte k is an ASCII letter or digit, bit k set when
/// byte k is non-ASCII). SIMD where the target has it (SSE2 is baseline on x86_64; the
/// policy component is built with wasm `simd128`), eight bytes at a time otherwise.
#[cfg(target_arch = "x86_64")]
fn classify16(chunk: &[u8; 16]) -> (u16, u16) {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always available;
    // the load reads exactly the 16 bytes of `chunk` (unaligned load).
    unsafe {
        let x = _mm_loadu_si128(chunk.as_ptr().cast());
        // Signed compares: non-ASCII bytes are negative, so neither digits nor letters.
        let within = |v: __m128i, lo: u8, hi: u8| {
            _mm_and_si128(
                _mm_cmpgt_epi8(v, _mm_set1_epi8(lo as i8 - 1)),
                _mm_cmplt_epi8(v, _mm_set1_epi8(hi as i8 + 1)),
            )
        };
        let lower = _mm_or_si128(x, _mm_set1_epi8(0x20));
        let alnum = _mm_or_si128(within(x, b'0', b'9'), within(lower, b'a', b'z'));
        (_mm_movemask_epi8(alnum) as u16, _mm_movemask_epi8(x) as u16)
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn classify16(chunk: &[u8; 16]) -> (u16, u16) {
    use std::arch::wasm32::*;
    // SAFETY: reads exactly the 16 bytes of `chunk`; wasm `v128.load` has no alignment
    // requirement.
    let x = unsafe { v128_load(chunk.as_ptr().cast::<v128>()) };
    // Signed compares: non-ASCII bytes are negative, so they are neither digits nor letters.
    let within =
        |v: v128, lo: u8, hi: u8| v128_and(i8x16_ge(v, i8x16_splat(lo as i8)), i8x16_le(v, i8x16_splat(hi as i8)));
    let lower = v128_or(x, i8x16_splat(0x20));
    let alnum = v128_or(within(x, b'0', b'9'), within(lower, b'a', b'z'));
    (i8x16_bitmask(alnum), i8x16_bitmask(x))
}

#[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
fn classify16(chunk: &[u8; 16]) -> (u16, u16) {
    classify16_swar(chunk)
}

/// The portable classification (and the reference the SIMD versions are tested against).
#[cfg_attr(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")), allow(dead_code))]
fn classify16_swar(chunk: &[u8; 16]) -> (u16, u16) {
    let (mut alnum, mut multi) = (0u16, 0u16);
    for k in 0..2 {
        let x = u64::from_le_bytes(chunk[k * 8..k * 8 + 8].try_into().expect("8 bytes"));
        let high = x & HIGH;
        let ascii = x & !HIGH;
        let word = (in_range(ascii, b'0', b'9') | in_range(ascii | splat(0x20), b'a', b'z')) & !high;
        alnum |= (gather(word) as u16) << (k * 8);
        multi |= (gather(high) as u16) << (k * 8);
    }
    (alnum, multi)
}

impl WordMap {
    /// Classify `bytes` (a whole `str`) eight bytes at a time; non-ASCII characters (rare)
    /// are decoded.
    fn build(&mut self, bytes: &[u8]) {
        self.alnum.clear();
        self.multi.clear();
        let blocks = bytes.chunks_exact(64);
        let mut last = [0u8; 64];
        last[..blocks.remainder().len()].copy_from_slice(blocks.remainder());
        let mut any_multi = false;
        for block in blocks.chain(std::iter::once(&last[..])) {
            let (mut alnum, mut multi) = (0u64, 0u64);
            for (k, chunk) in block.chunks_exact(16).enumerate() {
                let (a, m) = classify16(chunk.try_into().expect("chunks of 16"));
                alnum |= u64::from(a) << (k * 16);
                multi |= u64::from(m) << (k * 16);
            }
            any_multi |= multi != 0;
            self.alnum.push(alnum);
            self.multi.push(multi);
        }
        self.any_multi = any_multi;
        if !any_multi {
            return;
        }
        // Mark the bytes of alphanumeric non-ASCII characters.
        for (j, &m) in self.multi.iter().enumerate() {
            let mut m = m;
            while m != 0 {
                let p = j * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                // Pieces are whole `str`s: a lead byte (not 0b10xx_xxxx) starts a character.
                if bytes[p] & 0xc0 == 0x80 {
                    continue;
                }
                let len = match bytes[p] {
                    ..0xe0 => 2,
                    0xe0..0xf0 => 3,
                    _ => 4,
                };
                let c = word_str(&bytes[p..p + len]).chars().next().expect("p starts a character");
                if c.is_alphanumeric() {
                    for q in p..p + c.len_utf8() {
                        self.alnum[q / 64] |= 1 << (q % 64);
                    }
                }
            }
        }
    }

    /// Whether any byte in `start..end` is non-ASCII.
    fn has_multi(&self, start: usize, end: usize) -> bool {
        self.any_multi
            && (start / 64..=(end - 1) / 64).any(|j| {
                let lo = if j == start / 64 { u64::MAX << (start % 64) } else { u64::MAX };
                let hi = if j == (end - 1) / 64 { u64::MAX >> (63 - (end - 1) % 64) } else { u64::MAX };
                self.multi[j] & lo & hi != 0
            })
    }
}

/// Per first byte, a bitmask of word lengths worth looking at (lengths ≥ 63 share bit
/// 63). [`for_each_word`] skips ASCII words that fail it without calling back.
type LengthFilter = [u64; 256];

/// Every word passes.
const EVERY_WORD: LengthFilter = [u64::MAX; 256];

fn length_bit(len: usize) -> u64 {
    1 << len.min(63)
}

/// Calls `f` with each word of `text` (a maximal run of alphanumeric characters) and
/// whether it is pure ASCII, except ASCII words whose first byte and length `filter`
/// rules out; `f` returns `Break` to stop early. `map` is scratch space. A word is given
/// as bytes: it is always a whole `str` (see [`word_str`]).
///
/// Text is classified in pieces of about [`PIECE`] bytes, cut at an ASCII space (never
/// inside a word), so stopping early skips the rest of a long text.
fn for_each_word(
    text: &str,
    filter: &LengthFilter,
    map: &mut WordMap,
    mut f: impl FnMut(&[u8], bool) -> ControlFlow<()>,
) {
    let mut rest = text;
    while !rest.is_empty() {
        let cut = rest.as_bytes().iter().skip(PIECE).position(|&b| b == b' ').map_or(rest.len(), |p| PIECE + p);
        let (piece, tail) = rest.split_at(cut);
        if words_of_piece(piece.as_bytes(), filter, map, &mut f).is_break() {
            return;
        }
        rest = tail;
    }
}

const PIECE: usize = 1024;

/// Words start where a word byte follows a non-word byte and end where one precedes a
/// non-word byte; starts and ends alternate, so they are paired in one pass.
fn words_of_piece(
    bytes: &[u8],
    filter: &LengthFilter,
    map: &mut WordMap,
    f: &mut impl FnMut(&[u8], bool) -> ControlFlow<()>,
) -> ControlFlow<()> {
    map.build(bytes);
    let n = map.alnum.len();
    let mut carry = 0u64;
    let mut open = 0usize;
    for j in 0..n {
        let a = map.alnum[j];
        let next = if j + 1 < n { map.alnum[j + 1] & 1 } else { 0 };
        let mut starts = a & !((a << 1) | carry);
        let mut ends = a & !((a >> 1) | (next << 63));
        // The block begins inside a word opened in an earlier block: its first end is that word's.
        let mut continuing = carry & a & 1 != 0;
        carry = a >> 63;
        while ends != 0 {
            let start = if continuing {
                continuing = false;
                open
            } else {
                let s = j * 64 + starts.trailing_zeros() as usize;
                starts &= starts - 1;
                s
            };
            let end = j * 64 + ends.trailing_zeros() as usize + 1;
            ends &= ends - 1;
            let ascii = !map.has_multi(start, end);
            if ascii && filter[bytes[start] as usize] & length_bit(end - start) == 0 {
                continue;
            }
            f(&bytes[start..end], ascii)?;
        }
        if starts != 0 {
            open = j * 64 + starts.trailing_zeros() as usize;
        }
    }
    ControlFlow::Continue(())
}

/// A word from [`for_each_word`] as text: words start and end on character boundaries.
fn word_str(word: &[u8]) -> &str {
    std::str::from_utf8(word).expect("words are whole characters")
}

/// Lowercases and folds a non-ASCII (or any) word into `buf` the way [`terms`] does;
/// false when the result is a one-character token.
fn normalise_into(word: &str, buf: &mut String) -> bool {
    buf.clear();
    if word.is_ascii() {
        buf.push_str(word);
        buf.make_ascii_lowercase();
    } else {
        buf.push_str(&word.to_lowercase());
    }
    if buf.chars().nth(1).is_none() {
        return false;
    }
    fold_in_place(buf);
    true
}

/// Calls `f` with each normalised term of `text` (as `terms` would produce, minus the
/// stop-word filter). The reference for [`Matcher`], and used for short texts.
fn for_each_term(text: &str, mut f: impl FnMut(&str)) {
    let mut buf = String::new();
    for_each_word(text, &EVERY_WORD, &mut WordMap::default(), |word, _| {
        if normalise_into(word_str(word), &mut buf) {
            f(&buf);
        }
        ControlFlow::Continue(())
    });
}

/// Finds which query terms occur in candidate text without normalising every word.
///
/// A word normalises to term `t` exactly when it is one of `t`'s surface forms: `t`,
/// `t+"s"`, `t+"es"` or (for `t` ending in `y`) `t` minus `y` plus `"ies"`, each kept only
/// if folding it really gives `t`. ASCII words are compared case-insensitively against the
/// forms sharing their first letter and length — most words are rejected by a table lookup;
/// other words take the slow path (lowercase, fold, binary search).
struct Matcher<'q> {
    /// The query terms, sorted: a term's bit is its index here.
    terms: &'q [&'q str],
    /// Surface forms `(form, term index)` grouped by lowercase first byte.
    forms: Vec<(String, usize)>,
    /// `first[b]..first[b + 1]` is the range of `forms` starting with byte `b` (< 128).
    first: [u16; 129],
    /// The first bytes (either case) and lengths of the forms: other ASCII words are skipped.
    filter: Box<LengthFilter>,
    /// Scratch bitmaps reused across texts.
    map: RefCell<WordMap>,
}

impl<'q> Matcher<'q> {
    fn new(terms: &'q [&'q str]) -> Matcher<'q> {
        let mut forms: Vec<(String, usize)> = Vec::new();
        for (i, t) in terms.iter().enumerate() {
            if !t.is_ascii() {
                continue; // found through the slow path only (words with non-ASCII letters)
            }
            let mut surfaces = vec![t.to_string(), format!("{t}s"), format!("{t}es")];
            if let Some(stem) = t.strip_suffix('y') {
                surfaces.push(format!("{stem}ies"));
            }
            for s in surfaces {
                if fold(&s) == *t && !forms.iter().any(|(f, _)| *f == s) {
                    forms.push((s, i));
                }
            }
        }
        forms.sort_by(|a, b| a.0.as_bytes()[0].cmp(&b.0.as_bytes()[0]).then(a.0.len().cmp(&b.0.len())));
        let mut first = [0u16; 129];
        for b in 0..128usize {
            first[b + 1] = first[b] + forms.iter().filter(|(f, _)| f.as_bytes()[0] as usize == b).count() as u16;
        }
        let mut filter = Box::new([0u64; 256]);
        for (f, _) in &forms {
            let b = f.as_bytes()[0];
            filter[b as usize] |= length_bit(f.len());
            filter[b.to_ascii_uppercase() as usize] |= length_bit(f.len());
        }
        Matcher { terms, forms, first, filter, map: RefCell::default() }
    }

    /// Set the bit of every query term in `texts`, stopping once every term in `wanted`
    /// (a bitset) has been found.
    fn find(&self, texts: &[&str], wanted: &[u64], found: &mut [u64]) {
        if wanted.iter().all(|w| *w == 0) {
            return;
        }
        let mut buf = String::new();
        let mut map = self.map.borrow_mut();
        let mut missing: u32 = wanted.iter().map(|w| w.count_ones()).sum();
        for text in texts {
            for_each_word(text, &self.filter, &mut map, |word, ascii| {
                let hit = if ascii {
                    let b = word[0].to_ascii_lowercase() as usize;
                    self.forms[self.first[b] as usize..self.first[b + 1] as usize]
                        .iter()
                        .find(|(f, _)| f.len() == word.len() && f.as_bytes().eq_ignore_ascii_case(word))
                        .map(|(_, i)| *i)
                } else if normalise_into(word_str(word), &mut buf) {
                    self.terms.binary_search(&buf.as_str()).ok()
                } else {
                    None
                };
                if let Some(i) = hit
                    && !has(found, i)
                {
                    set(found, i);
                    if has(wanted, i) {
                        missing -= 1;
                        if missing == 0 {
                            return ControlFlow::Break(());
                        }
                    }
                }
                ControlFlow::Continue(())
            });
            if missing == 0 {
                return;
            }
        }
    }
}

/// Which query terms (by index into the sorted query terms) occur in each field of a
/// candidate, as bitsets: scanning records a bit instead of inserting into a set.
struct Fields {
    name: Vec<u64>,
    strong: Vec<u64>,
    title: Vec<u64>,
    body: Vec<u64>,
    name_terms: Vec<String>,
    slug_terms: Vec<String>,
}

fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn has(bits: &[u64], i: usize) -> bool {
    bits[i / 64] & (1 << (i % 64)) != 0
}

impl Fields {
    fn of(c: &Candidate, m: &Matcher) -> Fields {
        let words = m.terms.len().div_ceil(64);
        let name_terms = terms(&c.name);
        let slug_terms = terms(&c.slug.replace('-', " "));
        let mut name = vec![0u64; words];
        for t in name_terms.iter().chain(&slug_terms) {
            if let Ok(i) = m.terms.binary_search(&t.as_str()) {
                set(&mut name, i);
            }
        }
        // Each weaker field only needs the terms no stronger field holds: a scan stops
        // as soon as it has found them all (the score takes the best field per term).
        let mut wanted: Vec<u64> = (0..words)
            .map(|w| {
                let bits = (m.terms.len() - w * 64).min(64);
                (if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 }) & !name[w]
            })
            .collect();
        let scan = |texts: &[&str], wanted: &mut Vec<u64>| {
            let mut found = vec![0u64; words];
            m.find(texts, wanted, &mut found);
            for (w, f) in wanted.iter_mut().zip(&found) {
                *w &= !f;
            }
            found
        };
        let mut strong_texts: Vec<&str> = vec![&c.next_action];
        strong_texts.extend(c.open_questions.iter().map(String::as_str));
        let strong = scan(&strong_texts, &mut wanted);
        let titles: Vec<&str> = c.artifact_titles.iter().map(String::as_str).collect();
        let title = scan(&titles, &mut wanted);
        let body = scan(&[&c.body], &mut wanted);
        Fields { name, strong, title, body, name_terms, slug_terms }
    }

    /// The weight of the best field containing query term `i` (0 when none does).
    fn weight(&self, i: usize) -> f64 {
        if has(&self.name, i) {
            W_NAME
        } else if has(&self.strong, i) {
            W_STRONG
        } else if has(&self.title, i) {
            W_TITLE
        } else if has(&self.body, i) {
            W_BODY
        } else {
            0.0
        }
    }
}

/// Rank `candidates` against `query`; at most `limit` suggestions, best first.
pub fn rank(query: &str, candidates: &[Candidate], limit: usize, now: Timestamp) -> Vec<Suggestion> {
    let query_terms = terms(query);
    let q: BTreeSet<String> = query_terms.iter().cloned().collect();
    if q.is_empty() || candidates.is_empty() || limit == 0 {
        return Vec::new();
    }
    // Sorted (BTreeSet order), so a term's index is found by binary search.
    let q_terms: Vec<&str> = q.iter().map(String::as_str).collect();
    let matcher = Matcher::new(&q_terms);
    let fields: Vec<Fields> = candidates.iter().map(|c| Fields::of(c, &matcher)).collect();
    let n = candidates.len() as f64;
    let df: Vec<usize> = (0..q_terms.len()).map(|i| fields.iter().filter(|f| f.weight(i) > 0.0).count()).collect();

    // Score every candidate; explain only the ones returned.
    let rarity: Vec<f64> = df.iter().map(|&d| if d == 0 { 0.0 } else { 1.0 + (n / d as f64).ln() }).collect();
    let mut scored: Vec<Scored> = Vec::new();
    for (i, (c, f)) in candidates.iter().zip(&fields).enumerate() {
        let (mut score, mut shared, mut strong_shared) = (0.0, 0usize, 0usize);
        for (ti, r) in rarity.iter().enumerate() {
            let w = f.weight(ti);
            if w == 0.0 {
                continue;
            }
            shared += 1;
            if w >= W_STRONG {
                strong_shared += 1;
            }
            score += w * r;
        }
        if shared == 0 {
            continue;
        }
        let exact = contains_phrase(&query_terms, &f.name_terms) || contains_phrase(&query_terms, &f.slug_terms);
        if exact {
            score += EXACT_BONUS;
        }
        let age_days = ((now - c.last_touched_at).max(0) as f64) / 86_400_000.0;
        score *= 1.0 + RECENCY_MAX_BOOST * (0.5f64).powf(age_days / RECENCY_HALF_LIFE_DAYS);
        let confidence = if exact || (shared >= 4 && strong_shared >= 2) {
            Confidence::High
        } else if (shared >= 2 && strong_shared >= 1) || shared >= 3 {
            Confidence::Medium
        } else {
            Confidence::Low
        };
        scored.push(Scored { index: i, score, confidence, exact });
    }
    let order = |a: &Scored, b: &Scored| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| candidates[b.index].last_touched_at.cmp(&candidates[a.index].last_touched_at))
            .then(a.index.cmp(&b.index))
    };
    if scored.len() > limit {
        scored.select_nth_unstable_by(limit - 1, order);
        scored.truncate(limit);
    }
    scored.sort_by(order);
    scored
        .into_iter()
        .map(|s| {
            let f = &fields[s.index];
            let mut contributions: Vec<(f64, &str)> = (0..q_terms.len())
                .filter(|&ti| f.weight(ti) > 0.0)
                .map(|ti| (f.weight(ti) * rarity[ti], q_terms[ti]))
                .collect();
            contributions.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
            let shared_terms: Vec<String> = contributions.iter().map(|(_, t)| t.to_string()).collect();
            let shown: Vec<&str> = shared_terms.iter().take(5).map(String::as_str).collect();
            let mut reason = format!("shared terms: {}", shown.join(", "));
            if shared_terms.len() > 5 {
                reason.push_str(&format!(" (+{} more)", shared_terms.len() - 5));
            }
            if s.exact {
                reason = format!("name match: \"{}\"; {reason}", candidates[s.index].name);
            }
            Suggestion { index: s.index as u32, score: s.score, confidence: s.confidence, reason, shared_terms }
        })
        .collect()
}

/// A candidate's score before it is explained.
struct Scored {
    index: usize,
    score: f64,
    confidence: Confidence,
    exact: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;

    const DAY: i64 = 86_400_000;

    fn cand(
        name: &str,
        next: &str,
        questions: &[&str],
        body: &str,
        titles: &[&str],
        touched_days_ago: i64,
    ) -> Candidate {
        Candidate {
            name: name.into(),
            slug: name.to_lowercase().replace(' ', "-"),
            next_action: next.into(),
            open_questions: questions.iter().map(|s| s.to_string()).collect(),
            body: body.into(),
            artifact_titles: titles.iter().map(|s| s.to_string()).collect(),
            last_touched_at: 1_000 * DAY - touched_days_ago * DAY,
        }
    }

    /// The calibration set: realistic open work, similar pairs and unrelated topics.
    fn library() -> Vec<Candidate> {
        vec![
            cand(
                "Pricing model refresh",
                "Compare revised pricing scenarios with sales feedback",
                &["Does Sales prefer account-tier or usage-tier packaging?"],
                "Enterprise renewals move to annual commits. Monthly stays for self-serve.",
                &["Slack thread: pricing approval"],
                2,
            ),
            cand(
                "Enterprise renewal playbook",
                "Draft renewal email templates",
                &["Who signs off on discounts above 20%?"],
                "Renewal discounts and legal review of contract terms.",
                &["Legal review notes"],
                10,
            ),
            cand(
                "Database migration to Postgres",
                "Backfill the orders table",
                &["Can we run dual writes for a week?"],
                "Schema changes, replica lag and failover drills.",
                &["Migration runbook"],
                1,
            ),
            cand(
                "Q3 launch plan",
                "Confirm launch date with marketing",
                &["Is July still realistic?"],
                "The launch moved to July. Press kit pending.",
                &["Launch thread"],
                30,
            ),
            cand(
                "Hiring loop redesign",
                "Calibrate interview rubric",
                &[],
                "Structured interviews and a take-home exercise.",
                &[],
                5,
            ),
            cand(
                "Latency regression in search API",
                "Profile the ranking endpoint",
                &["Is the cache hit rate lower since Tuesday?"],
                "p99 latency doubled after the index rebuild.",
                &["Grafana snapshot"],
                0,
            ),
        ]
    }

    fn top(query: &str) -> Vec<(String, Confidence)> {
        let lib = library();
        rank(query, &lib, 3, 1_000 * DAY).iter().map(|s| (lib[s.index as usize].name.clone(), s.confidence)).collect()
    }

    #[test]
    fn exact_name_is_high_and_first() {
        let t = top("Let's continue the pricing model refresh: sales wants usage tiers");
        assert_eq!(t[0], ("Pricing model refresh".to_string(), Confidence::High));
    }

    #[test]
    fn repeated_domain_match_is_high_without_the_name() {
        let t = top("Sales feedback on packaging: account tier vs usage tier, and the revised pricing scenarios");
        assert_eq!(t[0], ("Pricing model refresh".to_string(), Confidence::High));
    }

    #[test]
    fn plausible_overlap_is_medium() {
        let t = top("We should look at renewal discounts again");
        assert_eq!(t[0].0, "Enterprise renewal playbook");
        assert_eq!(t[0].1, Confidence::Medium);
    }

    #[test]
    fn weak_overlap_is_low_and_unrelated_is_absent() {
        let t = top("press coverage for the offsite");
        assert_eq!(t, vec![("Q3 launch plan".to_string(), Confidence::Low)]);
        assert!(top("bake sourdough bread in the oven").is_empty());
        // A single incidental word is still only `low`: "home" from a take-home exercise.
        assert_eq!(top("bread at home"), vec![("Hiring loop redesign".to_string(), Confidence::Low)]);
        assert!(top("the and of to").is_empty(), "stop words alone match nothing");
    }

    #[test]
    fn near_duplicates_are_told_apart() {
        // Both mention renewals; the pricing one owns "annual commits" and "self-serve".
        let t = top("annual commits for enterprise renewals, monthly for self-serve");
        assert_eq!(t[0].0, "Pricing model refresh");
        assert_eq!(t[1].0, "Enterprise renewal playbook");
        let t = top("postgres replica failover drill and dual writes");
        assert_eq!(t[0], ("Database migration to Postgres".to_string(), Confidence::High));
    }

    #[test]
    fn recency_breaks_ties_but_never_outranks_content() {
        let old = cand("Alpha", "", &[], "widget gadget", &[], 300);
        let new = cand("Beta", "", &[], "widget gadget", &[], 0);
        let r = rank("widget gadget", &[old.clone(), new.clone()], 3, 1_000 * DAY);
        assert_eq!(r[0].index, 1, "the recent one wins a tie");
        let stronger_old = cand("Alpha", "widget gadget", &[], "widget gadget", &[], 300);
        let r = rank("widget gadget", &[stronger_old, new], 3, 1_000 * DAY);
        assert_eq!(r[0].index, 0, "content beats recency");
    }

    #[test]
    fn reasons_name_the_shared_terms_and_limit_holds() {
        let lib = library();
        let r = rank("pricing sales packaging", &lib, 3, 1_000 * DAY);
        assert!(r[0].reason.starts_with("shared terms: "), "{}", r[0].reason);
        for t in ["pricing", "sale", "packaging"] {
            assert!(r[0].shared_terms.iter().any(|s| s == t), "{:?}", r[0].shared_terms);
        }
        assert!(rank("renewal pricing latency launch hiring migration", &lib, 3, 0).len() <= 3);
        assert!(rank("x", &lib, 0, 0).is_empty());
    }

    /// The terms of `text` that are in `query`, through the matcher (every field wanted).
    fn matched(text: &str, query: &str) -> BTreeSet<String> {
        let q: BTreeSet<String> = terms(query).into_iter().collect();
        let q: Vec<&str> = q.iter().map(String::as_str).collect();
        let m = Matcher::new(&q);
        let wanted = vec![u64::MAX; q.len().div_ceil(64)];
        let mut found = vec![0u64; q.len().div_ceil(64)];
        m.find(&[text], &wanted, &mut found);
        q.iter().enumerate().filter(|(i, _)| has(&found, *i)).map(|(_, t)| t.to_string()).collect()
    }

    /// The same by normalising every word (the definition).
    fn matched_slowly(text: &str, query: &str) -> BTreeSet<String> {
        let q: BTreeSet<String> = terms(query).into_iter().collect();
        let mut out = BTreeSet::new();
        for_each_term(text, |t| {
            if q.contains(t) {
                out.insert(t.to_string());
            }
        });
        out
    }

    #[test]
    fn the_matcher_finds_surface_forms_in_any_case() {
        let text = "RENEWALS, Policies & boxes: CAFÉS status economies cross passes 2026";
        let found = matched(text, "renewal policy box café status economy cross pass 2026");
        let expected: BTreeSet<String> =
            ["renewal", "policy", "box", "café", "status", "economy", "cross", "pass", "2026"].map(String::from).into();
        assert_eq!(found, expected);
        assert!(matched("statu renewa polic", "status renewal policy").is_empty());
    }

    /// Words by `for_each_word`, and whether each is ASCII.
    fn words(text: &str) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        for_each_word(text, &EVERY_WORD, &mut WordMap::default(), |w, ascii| {
            out.push((word_str(w).to_string(), ascii));
            ControlFlow::Continue(())
        });
        out
    }

    /// The definition: maximal runs of alphanumeric characters.
    fn words_by_split(text: &str) -> Vec<(String, bool)> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| (w.to_string(), w.is_ascii()))
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn simd_and_portable_classification_agree(bytes in proptest::array::uniform16(proptest::num::u8::ANY)) {
            proptest::prop_assert_eq!(classify16(&bytes), classify16_swar(&bytes));
        }
    }

    #[test]
    fn words_cross_chunk_and_block_boundaries() {
        for len in [1usize, 7, 8, 9, 63, 64, 65, 127, 128, 129, 200] {
            for pad in 0..10 {
                let text = format!("{}{}-Zz9 {}", " ".repeat(pad), "a".repeat(len), "é".repeat(len / 2 + 1));
                assert_eq!(words(&text), words_by_split(&text), "len {len} pad {pad}");
            }
        }
        assert_eq!(gather(0x80), 1);
        assert_eq!(gather(0x8000_0000_0000_0000), 0x80);
        assert_eq!(gather(HIGH), 0xff);
    }

    const WORDS: &str = "(renewal|Renewals|policy|POLICIES|box|boxes|status|statuses|café|Cafés|cross|crosses|bus|buses|ies|es|s|é|[a-zA-Z]{1,7}|[0-9]{1,3})";

    proptest::proptest! {
        #[test]
        fn the_matcher_equals_normalising_every_word(
            text in proptest::collection::vec(WORDS, 0..20).prop_map(|w| w.join(" ")),
            query in proptest::collection::vec(WORDS, 1..8).prop_map(|w| w.join(", ")),
        ) {
            proptest::prop_assert_eq!(matched(&text, &query), matched_slowly(&text, &query));
        }

        #[test]
        fn words_are_maximal_alphanumeric_runs(text in "\\PC{0,300}") {
            proptest::prop_assert_eq!(words(&text), words_by_split(&text));
        }

        #[test]
        fn words_are_maximal_runs_in_mostly_ascii_text(text in "([a-zA-Z0-9]{0,70}[ ,.\\-—é’ßİ]{0,3}){0,12}") {
            proptest::prop_assert_eq!(words(&text), words_by_split(&text));
        }

        #[test]
        fn the_matcher_equals_normalising_every_word_on_any_text(text in "\\PC{0,80}", query in "\\PC{1,40}") {
            proptest::prop_assert_eq!(matched(&text, &query), matched_slowly(&text, &query));
        }
    }

    #[test]
    fn stop_words_are_sorted_and_unique() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn terms_normalise_case_plurals_and_stop_words() {
        assert_eq!(terms("The Renewals, and the Discounts!"), vec!["renewal", "discount"]);
        assert_eq!(terms("policies boxes status"), vec!["policy", "box", "status"]);
    }
}

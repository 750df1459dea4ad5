//! Terms: the normalised words of a text (lowercased, English stop words and one-character
//! tokens removed, plurals folded), the text that counts as content (every line but the
//! Distilled State's fixed section headings, [`content_segments`]), and the [`Matcher`] that
//! finds which query terms a candidate's text holds without normalising every word.
//!
//! What it is for: [`terms`] (public) and the matcher `rank` scans candidates with; the
//! matcher is checked against normalising every word ([`for_each_term`], the definition).
//!
//! What it is not for: finding word boundaries in bytes (`scan`) or weighting fields and
//! scoring (`ranking`).

use std::cell::RefCell;
use std::ops::ControlFlow;

use crate::distill::REQUIRED_SECTIONS;

use super::scan::{EVERY_WORD, LengthFilter, WordMap, for_each_word, length_bit, word_str};

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

/// Whether `line` is a Markdown heading (`#` to `######`) naming one of the Distilled State's
/// fixed sections (Situation, Decisions, Findings, Current State, Next Steps), in any case.
fn is_section_heading(line: &str) -> bool {
    let line = line.trim();
    let text = line.trim_start_matches('#');
    let level = line.len() - text.len();
    if !(1..=6).contains(&level) || !text.starts_with([' ', '\t']) {
        return false;
    }
    let text = text.trim().trim_end_matches('#').trim_end();
    REQUIRED_SECTIONS.iter().any(|s| s.eq_ignore_ascii_case(text))
}

/// The parts of `text` that count as content: everything except the lines that are fixed
/// section headings, which every Distilled State shares and so say nothing about its topic.
/// Cut at line boundaries, so no word is split; the same words elsewhere still count.
pub(super) fn content_segments(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut at) = (0, 0);
    for line in text.split_inclusive('\n') {
        let end = at + line.len();
        if line.trim_start().starts_with('#') && is_section_heading(line) {
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
pub(super) struct Matcher<'q> {
    /// The query terms, sorted: a term's bit is its index here.
    pub(super) terms: &'q [&'q str],
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
    pub(super) fn new(terms: &'q [&'q str]) -> Matcher<'q> {
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
    pub(super) fn find(&self, texts: &[&str], wanted: &[u64], found: &mut [u64]) {
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

pub(super) fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

pub(super) fn has(bits: &[u64], i: usize) -> bool {
    bits[i / 64] & (1 << (i % 64)) != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;
    use std::collections::BTreeSet;

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
        fn the_matcher_equals_normalising_every_word_on_any_text(text in "\\PC{0,80}", query in "\\PC{1,40}") {
            proptest::prop_assert_eq!(matched(&text, &query), matched_slowly(&text, &query));
        }
    }

    #[test]
    fn section_headings_are_not_content() {
        let text =
            "# Plan\n## Situation\nnext tile\n### next steps ##\n## Next Stepsx\n  ## current STATE  \n#Findings\nend";
        assert_eq!(content_segments(text), vec!["# Plan\n", "next tile\n", "## Next Stepsx\n", "#Findings\nend"]);
        assert_eq!(content_segments("## Decisions"), Vec::<&str>::new());
        assert_eq!(content_segments("plain"), vec!["plain"]);
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

//! Terms for suggestion ranking, from the one lexical engine (`crate::lexical`: folding,
//! stemming, stop words, compounds and the section-heading rule), and the [`Matcher`] that
//! finds which query terms a candidate's text holds without normalising every word.
//!
//! What it is for: [`terms`] (public) and the matcher `rank` scans candidates with; the
//! matcher is checked against normalising every word (the definition).
//!
//! What it is not for: the engine itself (`lexical`) or weighting fields and scoring
//! (`ranking`).

use std::ops::ControlFlow;

use crate::lexical::{self, Terms, find_terms};

pub use crate::lexical::content_segments;
pub use crate::lexical::terms;

/// Finds which query terms occur in candidate text (through [`lexical::find_terms`]).
pub(super) struct Matcher<'q> {
    /// The query terms, sorted: a term's bit is its index here.
    pub(super) terms: &'q [&'q str],
    inner: Terms,
}

impl<'q> Matcher<'q> {
    pub(super) fn new(terms: &'q [&'q str]) -> Matcher<'q> {
        Matcher { terms, inner: Terms::new(terms) }
    }

    /// Set the bit of every query term in `texts`, stopping once every term in `wanted`
    /// (a bitset) has been found.
    pub(super) fn find(&self, texts: &[&str], wanted: &[u64], found: &mut [u64]) {
        let mut missing: u32 = wanted.iter().map(|w| w.count_ones()).sum();
        if missing == 0 {
            return;
        }
        for text in texts {
            find_terms(text, &self.inner, |h| {
                // `inner`'s order is `terms`' order (both sorted, distinct).
                let i = h.term;
                if !has(found, i) {
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

/// The readable form of each query term: the first query word it came from, singular.
pub(super) fn display_forms(query: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for seg in content_segments(query) {
        for t in lexical::tokens(seg) {
            if !t.stop && !out.iter().any(|(term, _)| *term == t.term) {
                out.push((t.term, lexical::singular(&t.folded)));
            }
        }
    }
    out
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
        for t in lexical::tokens(text) {
            if q.contains(&t.term) {
                out.insert(t.term);
            }
        }
        out
    }

    #[test]
    fn the_matcher_finds_surface_forms_in_any_case() {
        let text = "RENEWALS, Policies & boxes: CAFÉS status economies cross passes 2026";
        let found = matched(text, "renewal policy box café status economy cross pass 2026");
        let expected: BTreeSet<String> =
            ["renewal", "polici", "box", "caf", "status", "economi", "cross", "pass", "2026"].map(String::from).into();
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
    fn section_headings_are_not_content_in_one_place() {
        let text =
            "# Plan\n## Situation\nnext tile\n### next steps ##\n## Next Stepsx\n  ## current STATE  \n#Findings\nend";
        assert_eq!(content_segments(text), vec!["# Plan\n", "next tile\n", "## Next Stepsx\n", "#Findings\nend"]);
        assert_eq!(content_segments("## Decisions"), Vec::<&str>::new());
        assert_eq!(content_segments("plain"), vec!["plain"]);
    }

    #[test]
    fn terms_normalise_case_plurals_and_stop_words() {
        assert_eq!(terms("The Renewals, and the Discounts!"), vec!["renewal", "discount"]);
        // Stems (light English stemmer): "policies" and "policy" are one term.
        assert_eq!(terms("policies boxes status"), vec!["polici", "box", "status"]);
        assert_eq!(terms("policy"), vec!["polici"]);
    }
}

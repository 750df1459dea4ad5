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

use std::collections::BTreeSet;

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

const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does",
    "doing", "done", "down", "during", "each", "few", "for", "from", "further", "get", "got", "had", "has", "have",
    "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself",
    "just", "let", "like", "me", "more", "most", "my", "need", "new", "no", "nor", "not", "now", "of", "off", "on",
    "once", "one", "only", "or", "other", "our", "ours", "out", "over", "own", "please", "same", "she", "should", "so",
    "some", "such", "than", "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "this",
    "those", "through", "to", "too", "under", "until", "up", "us", "use", "very", "was", "we", "were", "what", "when",
    "where", "which", "while", "who", "whom", "why", "will", "with", "would", "yes", "yet", "you", "your", "yours",
    "want", "make", "work", "thing", "things",
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
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() > 1 && !STOP_WORDS.contains(&w.as_str()))
        .map(|w| fold(&w))
        .collect()
}

/// Whether `phrase` (as terms) occurs contiguously in `haystack` (as terms).
fn contains_phrase(haystack: &[String], phrase: &[String]) -> bool {
    !phrase.is_empty() && haystack.windows(phrase.len()).any(|w| w == phrase)
}

/// Calls `f` with each normalised term of `text` (as `terms` would produce, minus the
/// stop-word filter), reusing one buffer: no allocation per token. Used on candidate text,
/// which can be large, where only membership in the (stop-word-free) query set matters.
/// With `filter` (see [`QueryFilter`]), ASCII words that cannot fold into any query term —
/// judged by first letter and length alone — are skipped before any work.
fn for_each_term(text: &str, filter: Option<&QueryFilter>, mut f: impl FnMut(&str)) {
    let bytes = text.as_bytes();
    let mut buf = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() && !b.is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        // Scan one word: ASCII alphanumerics fast, anything else decoded.
        let start = i;
        let mut ascii = true;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii() {
                if !b.is_ascii_alphanumeric() {
                    break;
                }
                i += 1;
            } else {
                let c = text[i..].chars().next().expect("i is on a char boundary");
                if !c.is_alphanumeric() {
                    break;
                }
                ascii = false;
                i += c.len_utf8();
            }
        }
        if i == start {
            // A non-ASCII separator.
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let word = &text[start..i];
        if let Some(filter) = filter
            && ascii
            && !filter.may_match(word)
        {
            continue;
        }
        buf.clear();
        if ascii {
            buf.push_str(word);
            buf.make_ascii_lowercase();
        } else {
            buf.extend(word.chars().flat_map(char::to_lowercase));
        }
        if buf.chars().nth(1).is_none() {
            continue;
        }
        fold_in_place(&mut buf);
        f(&buf);
    }
}

/// A cheap test of whether an ASCII word could normalise to one of the query terms:
/// folding keeps the first letter and shortens a word by at most two bytes, so a word can
/// only match a term with the same (lowercased) first letter and a length of L, L-1 or L-2.
struct QueryFilter {
    /// Per first ASCII byte, a bitmask of query-term lengths (lengths ≥ 63 share bit 63).
    lengths: [u64; 128],
}

impl QueryFilter {
    fn new(q: &BTreeSet<String>) -> QueryFilter {
        let mut lengths = [0u64; 128];
        for t in q {
            if let Some(b) = t.bytes().next().filter(u8::is_ascii) {
                lengths[b as usize] |= 1u64 << t.len().min(63);
            }
        }
        QueryFilter { lengths }
    }

    fn may_match(&self, word: &str) -> bool {
        let mask = self.lengths[word.as_bytes()[0].to_ascii_lowercase() as usize];
        if mask == 0 {
            return false;
        }
        let l = word.len();
        if l >= 63 {
            return true;
        }
        let mut want = 1u64 << l;
        if l >= 1 {
            want |= 1u64 << (l - 1);
        }
        if l >= 2 {
            want |= 1u64 << (l - 2);
        }
        mask & want != 0
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
    fn of(c: &Candidate, q: &[&str], filter: &QueryFilter) -> Fields {
        let words = q.len().div_ceil(64);
        let present = |texts: &[&str]| {
            let mut found = vec![0u64; words];
            for text in texts {
                for_each_term(text, Some(filter), |t| {
                    if let Ok(i) = q.binary_search(&t) {
                        set(&mut found, i);
                    }
                });
            }
            found
        };
        let name_terms = terms(&c.name);
        let slug_terms = terms(&c.slug.replace('-', " "));
        let mut name = vec![0u64; words];
        for t in name_terms.iter().chain(&slug_terms) {
            if let Ok(i) = q.binary_search(&t.as_str()) {
                set(&mut name, i);
            }
        }
        let mut strong_texts: Vec<&str> = vec![&c.next_action];
        strong_texts.extend(c.open_questions.iter().map(String::as_str));
        let titles: Vec<&str> = c.artifact_titles.iter().map(String::as_str).collect();
        Fields {
            name,
            strong: present(&strong_texts),
            title: present(&titles),
            body: present(&[&c.body]),
            name_terms,
            slug_terms,
        }
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
    let filter = QueryFilter::new(&q);
    // Sorted (BTreeSet order), so a term's index is found by binary search.
    let q_terms: Vec<&str> = q.iter().map(String::as_str).collect();
    let fields: Vec<Fields> = candidates.iter().map(|c| Fields::of(c, &q_terms, &filter)).collect();
    let n = candidates.len() as f64;
    let df: Vec<usize> = (0..q_terms.len()).map(|i| fields.iter().filter(|f| f.weight(i) > 0.0).count()).collect();

    let mut out = Vec::new();
    for (i, (c, f)) in candidates.iter().zip(&fields).enumerate() {
        let mut contributions: Vec<(f64, &str)> = Vec::new();
        let mut strong_shared = 0usize;
        for (ti, t) in q_terms.iter().enumerate() {
            let w = f.weight(ti);
            if w == 0.0 {
                continue;
            }
            if w >= W_STRONG {
                strong_shared += 1;
            }
            let rarity = 1.0 + (n / df[ti] as f64).ln();
            contributions.push((w * rarity, *t));
        }
        if contributions.is_empty() {
            continue;
        }
        let exact = contains_phrase(&query_terms, &f.name_terms) || contains_phrase(&query_terms, &f.slug_terms);
        let mut score: f64 = contributions.iter().map(|(s, _)| s).sum();
        if exact {
            score += EXACT_BONUS;
        }
        let age_days = ((now - c.last_touched_at).max(0) as f64) / 86_400_000.0;
        score *= 1.0 + RECENCY_MAX_BOOST * (0.5f64).powf(age_days / RECENCY_HALF_LIFE_DAYS);
        let shared = contributions.len();
        let confidence = if exact || (shared >= 4 && strong_shared >= 2) {
            Confidence::High
        } else if (shared >= 2 && strong_shared >= 1) || shared >= 3 {
            Confidence::Medium
        } else {
            Confidence::Low
        };
        contributions.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        let shared_terms: Vec<String> = contributions.iter().map(|(_, t)| t.to_string()).collect();
        let shown: Vec<&str> = shared_terms.iter().take(5).map(String::as_str).collect();
        let mut reason = format!("shared terms: {}", shown.join(", "));
        if shared_terms.len() > 5 {
            reason.push_str(&format!(" (+{} more)", shared_terms.len() - 5));
        }
        if exact {
            reason = format!("name match: \"{}\"; {reason}", c.name);
        }
        out.push(Suggestion { index: i as u32, score, confidence, reason, shared_terms });
    }
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| {
                candidates[b.index as usize].last_touched_at.cmp(&candidates[a.index as usize].last_touched_at)
            })
            .then(a.index.cmp(&b.index))
    });
    out.truncate(limit);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn streaming_terms_match_terms_without_stop_words() {
        let text = "The Renewals, policies & boxes: Café STATUS of the économies in 2026 x y";
        let mut streamed = Vec::new();
        for_each_term(text, None, |t| streamed.push(t.to_string()));
        let expected: Vec<String> = streamed.iter().filter(|t| !STOP_WORDS.contains(&t.as_str())).cloned().collect();
        assert_eq!(terms(text), expected);
    }

    proptest::proptest! {
        #[test]
        fn the_filter_never_drops_a_matching_word(text in "[A-Za-z ]{0,80}", query in "[A-Za-z ]{1,40}") {
            let q: BTreeSet<String> = terms(&query).into_iter().collect();
            let filter = QueryFilter::new(&q);
            let (mut all, mut filtered) = (Vec::new(), Vec::new());
            for_each_term(&text, None, |t| if q.contains(t) { all.push(t.to_string()) });
            for_each_term(&text, Some(&filter), |t| if q.contains(t) { filtered.push(t.to_string()) });
            proptest::prop_assert_eq!(all, filtered);
        }

        #[test]
        fn streaming_terms_equal_terms_for_any_text(text in "\\PC{0,80}") {
            let mut streamed = Vec::new();
            for_each_term(&text, None, |t| streamed.push(t.to_string()));
            let expected: Vec<String> = streamed.iter().filter(|t| !STOP_WORDS.contains(&t.as_str())).cloned().collect();
            proptest::prop_assert_eq!(terms(&text), expected);
        }
    }

    #[test]
    fn terms_normalise_case_plurals_and_stop_words() {
        assert_eq!(terms("The Renewals, and the Discounts!"), vec!["renewal", "discount"]);
        assert_eq!(terms("policies boxes status"), vec!["policy", "box", "status"]);
    }
}

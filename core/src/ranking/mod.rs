//! Suggestion ranking for promote and link (SPEC §11.2): lexical, explainable, deterministic.
//!
//! Text becomes terms through the one lexical engine (`crate::lexical`: Unicode words,
//! case and diacritic folding, light English stemming, one stop-word list, compounds). The
//! Distilled State's fixed section headings (`## Situation` … `## Next Steps`) are not
//! content (`lexical::content_segments`, the one heading-noise rule): every state has them,
//! so they are skipped in the query and the body alike (the same words elsewhere still
//! count). Shared terms are shown as the query's words, singular. A candidate earns, for each distinct query term it contains, the weight of the
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
//! The module `matching` (terms, and the matcher that finds query terms in candidate text
//! without normalising every word) sits on `lexical`; this file scores and explains.
//!
//! Not for: deciding to link or create — the host asks unless confidence is high, and never
//! links silently.

mod matching;

pub use matching::terms;

use std::collections::BTreeSet;

use matching::{Matcher, content_segments, display_forms, has, set};

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

/// Whether `phrase` (as terms) occurs contiguously in `haystack` (as terms).
fn contains_phrase(haystack: &[String], phrase: &[String]) -> bool {
    !phrase.is_empty() && haystack.windows(phrase.len()).any(|w| w == phrase)
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
        let body = scan(&content_segments(&c.body), &mut wanted);
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
    let query_terms: Vec<String> = content_segments(query).into_iter().flat_map(terms).collect();
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
    let forms = display_forms(query);
    let shown_as = |t: &str| forms.iter().find(|(term, _)| term == t).map_or(t.to_string(), |(_, f)| f.clone());
    scored
        .into_iter()
        .map(|s| {
            let f = &fields[s.index];
            let mut contributions: Vec<(f64, String)> = (0..q_terms.len())
                .filter(|&ti| f.weight(ti) > 0.0)
                .map(|ti| (f.weight(ti) * rarity[ti], shown_as(q_terms[ti])))
                .collect();
            contributions.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            let shared_terms: Vec<String> = contributions.into_iter().map(|(_, t)| t).collect();
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
}

#[cfg(test)]
mod heading_tests {
    use super::*;

    /// A Distilled State as the guide shapes it: title, the five fixed sections, real content.
    fn state(name: &str, situation: &str, decision: &str, finding: &str, current: &str, next: &str) -> String {
        format!(
            "# {name}\n\n## Situation\n\n{situation}\n\n## Decisions\n\n- {decision}\n\n## Findings\n\n- {finding}\n\n\
             ## Current State\n\n{current}\n\n## Next Steps\n\n1. {next}\n"
        )
    }

    #[test]
    fn spec_11_2_fixed_section_headings_are_not_shared_terms() {
        let kitchen = Candidate {
            name: "Kitchen renovation".into(),
            slug: "kitchen-renovation".into(),
            next_action: "Book the plumber for the sink move".into(),
            open_questions: vec!["Oak or walnut worktops?".into()],
            body: state(
                "Kitchen renovation",
                "Gutting the kitchen to move the sink under the window.",
                "Quartz splashback, because tiles chip around the hob.",
                "The wall behind the fridge is load-bearing (surveyor report).",
                "Cabinets ordered; delivery in three weeks.",
                "Book the plumber for the sink move.",
            ),
            artifact_titles: vec!["Surveyor report".into()],
            last_touched_at: 0,
        };
        let quantum = state(
            "Quantum chip tapeout",
            "Taping out the 64-qubit test die at the foundry.",
            "Tunable couplers over fixed, because crosstalk dominated the last run.",
            "Qubit coherence drops 20% above 15 mK on the cryostat.",
            "Mask set frozen; DRC clean except two waivers.",
            "Send the GDS to the foundry by Friday.",
        );
        let r = rank(&format!("Quantum chip tapeout\n{quantum}"), &[kitchen], 3, 0);
        for s in &r {
            assert_eq!(s.confidence, Confidence::Low, "{:?}", s);
            for h in ["situation", "decision", "finding", "current", "state", "next", "step"] {
                assert!(!s.shared_terms.iter().any(|t| t == h), "heading word `{h}` counted: {:?}", s.shared_terms);
            }
        }
        // The same words as content still count.
        let r = rank("the next situation", &[cand_with_body("Next situation review")], 3, 0);
        assert_eq!(r[0].shared_terms, vec!["next", "situation"]);
        let r = rank("decisions and findings", &[cand_with_body("Decisions were made; findings logged.")], 3, 0);
        assert_eq!(r[0].shared_terms, vec!["decision", "finding"]);
    }

    fn cand_with_body(body: &str) -> Candidate {
        Candidate {
            name: "Other".into(),
            slug: "other".into(),
            next_action: String::new(),
            open_questions: vec![],
            body: format!("## Situation\n\n{body}\n\n## Next Steps\n\n1. Later.\n"),
            artifact_titles: vec![],
            last_touched_at: 0,
        }
    }
}

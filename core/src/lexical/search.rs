//! Ranked search (SPEC §11.3, issue 22): the query language and BM25F scoring, pure. The
//! host reads the files, prefilters them and hands each candidate document's fields here;
//! docs/search.md has the model, the weights and why scoring runs natively.
//!
//! - [`parse`] turns query text into a [`Query`]: terms, `"quoted phrases"` (required),
//!   `-exclusions` (a Dossier mentioning one is dropped), and the filters `status:`,
//!   `dossier:`, `in:<place>` and `kind:artifact|dossier`. An unknown filter is an error
//!   naming the valid ones.
//! - [`Query::analyse`] finds the query's terms in one document's fields ([`DocStats`]).
//! - [`Scorer`] turns the collection's statistics and one document's stats into its BM25F
//!   score, and [`dossier_score`] combines a Dossier's documents.
//!
//! Not for: file access, snippets' line numbers or result rendering (the host's).

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use super::{Terms, find_terms, fold, stem_in_place, tokens};

/// The fields a document can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    /// A Dossier's name and slug.
    Name = 0,
    NextAction = 1,
    OpenQuestions = 2,
    /// An artifact's title.
    Title = 3,
    /// Other frontmatter values (lead, provenance, ...).
    Meta = 4,
    /// A section's or an artifact's text.
    Body = 5,
}

pub const FIELDS: usize = 6;

/// Field weights (BM25F boosts): name above next action and open questions above artifact
/// titles above body text; other metadata below body.
pub const WEIGHTS: [f64; FIELDS] = [3.0, 2.0, 2.0, 2.0, 0.5, 1.0];
/// Length normalisation per field (only long fields are normalised).
pub const B: [f64; FIELDS] = [0.0, 0.0, 0.0, 0.0, 0.0, 0.75];
pub const K1: f64 = 1.2;
/// Bonus, in units of the mean idf of the query's terms, when all of a document's query
/// terms occur within [`WINDOW`] words of each other (scaled by how many of them).
pub const PROXIMITY: f64 = 0.6;
pub const WINDOW: u32 = 8;
/// Bonus per pair of consecutive query terms found next to each other, in order (at most
/// one stop word between), in units of the pair's mean idf.
pub const PHRASE: f64 = 0.4;

/// Where `in:` can point: a Distilled State section (by index into
/// `distill::REQUIRED_SECTIONS`) or a Dossier field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    Section(usize),
    Name,
    NextAction,
    OpenQuestions,
}

/// The `in:` values, in the order the error message lists them.
pub const PLACES: &[(&str, Place)] = &[
    ("situation", Place::Section(0)),
    ("decisions", Place::Section(1)),
    ("findings", Place::Section(2)),
    ("current-state", Place::Section(3)),
    ("next-steps", Place::Section(4)),
    ("name", Place::Name),
    ("next-action", Place::NextAction),
    ("open-questions", Place::OpenQuestions),
];

pub const FILTERS: &[&str] = &["status", "dossier", "in", "kind"];
pub const STATUSES: &[&str] = &["active", "waiting", "blocked", "resolved", "archived"];
pub const KINDS: &[&str] = &["artifact", "dossier"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Artifact,
    Dossier,
}

/// One thing the query looks for: any of its alternatives, each a sequence of terms that
/// must be consecutive (one term, or a phrase).
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub alternatives: Vec<Vec<String>>,
    /// Quoted: a Dossier must contain it.
    pub required: bool,
    /// The words as written (folded), for display.
    pub display: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Query {
    pub groups: Vec<Group>,
    pub exclusions: Vec<Group>,
    pub statuses: Vec<String>,
    pub dossier: Option<String>,
    pub places: Vec<Place>,
    pub kind: Option<Kind>,
    /// The folded words a snippet marks (every word of every positive group).
    pub mark: Vec<String>,
    terms: Vec<String>,
}

/// Why a query was refused: the message, the filter at fault and the accepted values.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryError {
    pub message: String,
    pub field: String,
    pub valid: Vec<String>,
}

fn refuse(message: String, field: &str, valid: &[&str]) -> QueryError {
    QueryError { message, field: field.to_string(), valid: valid.iter().map(|s| s.to_string()).collect() }
}

/// Split query text into chunks: whitespace-separated, a `"…"` (optionally after `-` or
/// `name:`) kept whole. An unclosed quote runs to the end.
fn chunks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in text.chars() {
        if c == '"' {
            quoted = !quoted;
            cur.push(c);
        } else if c.is_whitespace() && !quoted {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Terms of a phrase: every word (stop words too), no joined compounds.
fn phrase_terms(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut last_pos = None;
    for t in tokens(text) {
        if Some(t.pos) == last_pos {
            continue; // a joined compound shares its first word's position
        }
        last_pos = Some(t.pos);
        out.push(t.term);
    }
    out
}

/// Plain words of a chunk: (folded word, term, stop) per word, joined compounds aside.
fn words(text: &str) -> (Vec<(String, String, bool)>, Option<String>) {
    let mut out = Vec::new();
    let mut joined = None;
    let mut last_pos = None;
    for t in tokens(text) {
        if Some(t.pos) == last_pos {
            joined = Some(t.term);
            continue;
        }
        last_pos = Some(t.pos);
        out.push((t.folded, t.term, t.stop));
    }
    // A chunk of several hyphenated words ("end-to-end") is one compound.
    if out.len() > 2 {
        let mut all: String = out.iter().map(|w| w.0.as_str()).collect();
        stem_in_place(&mut all);
        joined = Some(all);
    }
    (out, joined)
}

/// Parse query text. Errors are invalid input: an unknown filter (naming the valid ones),
/// a filter value that is not one of its values, `in:` together with `kind:artifact`, or a
/// query with nothing to look for.
pub fn parse(text: &str) -> Result<Query, QueryError> {
    let mut q = Query::default();
    // Plain words in order (folded, term, stop, chunk index) to build groups from.
    let mut plain: Vec<(String, String, bool, usize, Option<String>)> = Vec::new();
    for (ci, chunk) in chunks(text).into_iter().enumerate() {
        let (negated, body) = match chunk.strip_prefix('-') {
            Some(rest) if !rest.is_empty() => (true, rest),
            _ => (false, chunk.as_str()),
        };
        if let Some(inner) = body.strip_prefix('"') {
            let inner = inner.strip_suffix('"').unwrap_or(inner);
            let terms = phrase_terms(inner);
            if terms.is_empty() {
                continue;
            }
            let g = Group { alternatives: vec![terms], required: !negated, display: fold(inner) };
            if negated {
                q.exclusions.push(g)
            } else {
                q.groups.push(g)
            }
            continue;
        }
        if let Some((name, value)) = body.split_once(':')
            && !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'_')
        {
            let name_l = name.to_ascii_lowercase();
            let value = value.trim_matches('"');
            if negated {
                return Err(refuse(
                    format!("the filter `{name}:` cannot be negated; use -word to exclude a word"),
                    "query",
                    FILTERS,
                ));
            }
            let value_l = value.to_lowercase();
            match name_l.as_str() {
                "status" => {
                    if !STATUSES.contains(&value_l.as_str()) {
                        return Err(refuse(format!("`status:{value}` is not a status"), "status", STATUSES));
                    }
                    q.statuses.push(value_l);
                }
                "dossier" => {
                    if value.is_empty() {
                        return Err(refuse("`dossier:` needs a slug or id".into(), "dossier", &[]));
                    }
                    q.dossier = Some(value.to_string());
                }
                "in" => match PLACES.iter().find(|(n, _)| *n == value_l) {
                    Some((_, p)) => q.places.push(*p),
                    None => {
                        let names: Vec<&str> = PLACES.iter().map(|(n, _)| *n).collect();
                        return Err(refuse(format!("`in:{value}` is not a section or field"), "in", &names));
                    }
                },
                "kind" => match value_l.as_str() {
                    "artifact" => q.kind = Some(Kind::Artifact),
                    "dossier" => q.kind = Some(Kind::Dossier),
                    _ => return Err(refuse(format!("`kind:{value}` is not a kind"), "kind", KINDS)),
                },
                _ => {
                    return Err(refuse(
                        format!(
                            "unknown filter `{name}:`; the filters are status:, dossier:, in:, kind: (quote the \
                             word to search for it as text)"
                        ),
                        "query",
                        FILTERS,
                    ));
                }
            }
            continue;
        }
        let (ws, joined) = words(body);
        if negated {
            // -word excludes it (all its words, as a phrase when several).
            let terms: Vec<String> = ws.iter().map(|w| w.1.clone()).collect();
            if !terms.is_empty() {
                let mut alternatives = vec![terms];
                alternatives.extend(joined.map(|j| vec![j]));
                q.exclusions.push(Group { alternatives, required: false, display: fold(body) });
            }
            continue;
        }
        let n = ws.len();
        if n >= 2 && joined.is_some() {
            // A hyphenated compound is one group: the joined word, which the finder also
            // meets spaced or hyphenated ("sign in", "sign-in"); longer ones also as the
            // words in order (the finder joins pairs only).
            let joined = joined.clone().expect("checked");
            let mut alternatives = vec![vec![joined.clone()]];
            if n > 2 {
                alternatives.push(ws.iter().map(|w| w.1.clone()).collect());
            }
            q.groups.push(Group { alternatives, required: false, display: fold(body) });
            q.mark.push(joined);
            continue;
        }
        for (folded, term, stop) in ws {
            plain.push((folded, term, stop, ci, None));
        }
    }
    if q.kind == Some(Kind::Artifact) && !q.places.is_empty() {
        return Err(refuse(
            "`in:` names places in a Dossier's state and `kind:artifact` asks for artifacts only; use one".into(),
            "query",
            FILTERS,
        ));
    }
    // Plain words: stop words drop out, unless the query has nothing else.
    let has_content = plain.iter().any(|w| !w.2) || !q.groups.is_empty();
    for i in 0..plain.len() {
        let (folded, term, stop, _, _) = plain[i].clone();
        if stop && has_content {
            continue;
        }
        let mut alternatives = vec![vec![term.clone()]];
        // Two neighbouring words may be one compound elsewhere ("sign in" = "signin").
        for j in [i.wrapping_sub(1), i + 1] {
            if let Some(other) = plain.get(j)
                && (j > i || other.2)
            {
                let mut joined = if j > i { format!("{folded}{}", other.0) } else { format!("{}{folded}", other.0) };
                stem_in_place(&mut joined);
                alternatives.push(vec![joined]);
            }
        }
        q.mark.push(folded.clone());
        if !q.groups.iter().any(|g| g.alternatives[0] == alternatives[0]) {
            q.groups.push(Group { alternatives, required: false, display: folded });
        }
    }
    for g in &q.groups {
        if g.required {
            q.mark.extend(g.display.split_whitespace().map(str::to_string));
        }
    }
    if q.groups.is_empty() {
        return Err(refuse(
            "the query has no words to look for (only filters or exclusions); add a word".into(),
            "query",
            &[],
        ));
    }
    let mut all = BTreeSet::new();
    for g in q.groups.iter().chain(&q.exclusions) {
        for a in &g.alternatives {
            all.extend(a.iter().cloned());
        }
    }
    q.terms = all.into_iter().collect();
    Ok(q)
}

/// What the query found in one document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DocStats {
    /// Per positive group, occurrences per field.
    pub tf: Vec<[u32; FIELDS]>,
    /// Per exclusion, whether the document has it.
    pub excluded: Vec<bool>,
    /// Field lengths in bytes.
    pub len: [u32; FIELDS],
    /// Most distinct groups found within [`WINDOW`] words in one field.
    pub cover: u32,
    /// Pairs of consecutive groups found adjacent (per pair index `i`: groups `i`, `i+1`).
    pub adjacent: Vec<bool>,
}

impl DocStats {
    pub fn matches(&self) -> bool {
        self.tf.iter().any(|t| t.iter().any(|&n| n > 0))
    }

    pub fn has(&self, group: usize) -> bool {
        self.tf[group].iter().any(|&n| n > 0)
    }
}

impl Query {
    /// Every term the query needs found (positive, phrases' words, exclusions).
    pub fn terms(&self) -> &[String] {
        &self.terms
    }

    /// The matcher over [`Query::terms`], built once per search.
    pub fn matcher(&self) -> Terms {
        Terms::new(&self.terms)
    }

    /// Find the query in a document's fields.
    pub fn analyse(&self, m: &Terms, fields: &[(Field, &str)]) -> DocStats {
        let mut st = DocStats {
            tf: vec![[0; FIELDS]; self.groups.len()],
            excluded: vec![false; self.exclusions.len()],
            adjacent: vec![false; self.groups.len().saturating_sub(1)],
            ..Default::default()
        };
        // Per term index, positions in the current field.
        let mut pos: Vec<Vec<u32>> = vec![Vec::new(); m.terms().len()];
        for (field, text) in fields {
            let f = *field as usize;
            st.len[f] += text.len() as u32;
            for p in pos.iter_mut() {
                p.clear();
            }
            let mut any = false;
            find_terms(text, m, |h| {
                pos[h.term].push(h.pos);
                any = true;
                ControlFlow::Continue(())
            });
            if !any {
                continue;
            }
            let at = |g: &Group| -> Vec<u32> { group_positions(g, m, &pos) };
            let mut found: Vec<(u32, usize)> = Vec::new();
            let mut firsts: Vec<Vec<u32>> = Vec::with_capacity(self.groups.len());
            for (gi, g) in self.groups.iter().enumerate() {
                let ps = at(g);
                st.tf[gi][f] += ps.len() as u32;
                found.extend(ps.iter().map(|&p| (p, gi)));
                firsts.push(ps);
            }
            for (ei, g) in self.exclusions.iter().enumerate() {
                if !at(g).is_empty() {
                    st.excluded[ei] = true;
                }
            }
            found.sort_unstable();
            st.cover = st.cover.max(best_cover(&found, self.groups.len()));
            for i in 0..st.adjacent.len() {
                if st.adjacent[i] {
                    continue;
                }
                let (a, b) = (&firsts[i], &firsts[i + 1]);
                st.adjacent[i] = a.iter().any(|&p| b.iter().any(|&q| q > p && q <= p + 2));
            }
        }
        st
    }
}

/// Which groups and exclusions a document has, without positions or counts: what the
/// statistics pass of a search needs (document frequencies, exclusions). Exactly
/// [`DocStats::has`] and [`DocStats::excluded`] of [`Query::analyse`], but a document's
/// scan stops once every group and exclusion has been seen. Queries with a phrase (an
/// alternative of several terms) or more than 64 groups are analysed in full instead.
pub struct Presence {
    /// Per matcher term: the groups and the exclusions it alone satisfies.
    by_term: Vec<(u64, u64)>,
    all_groups: u64,
    all_exclusions: u64,
    simple: bool,
}

/// [`Presence::find`]'s answer: a bit per group, and whether any exclusion was seen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Found {
    pub groups: u64,
    pub excluded: bool,
}

impl Found {
    pub fn has(&self, group: usize) -> bool {
        self.groups >> group & 1 == 1
    }

    pub fn matches(&self) -> bool {
        self.groups != 0
    }
}

impl Presence {
    pub fn new(q: &Query, m: &Terms) -> Presence {
        let mut by_term = vec![(0u64, 0u64); m.terms().len()];
        let single = |g: &Group| g.alternatives.iter().all(|a| a.len() == 1);
        let simple =
            q.groups.len() <= 64 && q.exclusions.len() <= 64 && q.groups.iter().chain(&q.exclusions).all(single);
        if simple {
            for (gi, g) in q.groups.iter().enumerate() {
                for t in g.alternatives.iter().filter_map(|a| m.index(&a[0])) {
                    by_term[t].0 |= 1 << gi;
                }
            }
            for (ei, g) in q.exclusions.iter().enumerate() {
                for t in g.alternatives.iter().filter_map(|a| m.index(&a[0])) {
                    by_term[t].1 |= 1 << ei;
                }
            }
        }
        let bits = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        Presence { by_term, all_groups: bits(q.groups.len()), all_exclusions: bits(q.exclusions.len()), simple }
    }

    /// The groups and exclusions found in a document's fields.
    pub fn find(&self, q: &Query, m: &Terms, fields: &[(Field, &str)]) -> Found {
        if !self.simple {
            let st = q.analyse(m, fields);
            let groups = (0..q.groups.len()).filter(|&g| st.has(g)).fold(0u64, |b, g| b | 1 << g);
            return Found { groups, excluded: st.excluded.iter().any(|&e| e) };
        }
        let (mut groups, mut excl) = (0u64, 0u64);
        for (_, text) in fields {
            if groups == self.all_groups && excl == self.all_exclusions {
                break;
            }
            find_terms(text, m, |h| {
                let (g, e) = self.by_term[h.term];
                groups |= g;
                excl |= e;
                if groups == self.all_groups && excl == self.all_exclusions {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
        }
        Found { groups, excluded: excl != 0 }
    }
}

/// Positions where any alternative of `g` starts, deduplicated.
fn group_positions(g: &Group, m: &Terms, pos: &[Vec<u32>]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for alt in &g.alternatives {
        let idx: Option<Vec<usize>> = alt.iter().map(|t| m.index(t)).collect();
        let Some(idx) = idx else { continue };
        let Some(first) = idx.first() else { continue };
        for &p in &pos[*first] {
            if idx.iter().enumerate().skip(1).all(|(k, &ti)| pos[ti].binary_search(&(p + k as u32)).is_ok()) {
                out.push(p);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Most distinct groups among `found` (sorted by position) within [`WINDOW`] words.
fn best_cover(found: &[(u32, usize)], groups: usize) -> u32 {
    if groups < 2 {
        return u32::from(!found.is_empty());
    }
    let mut counts = vec![0u32; groups];
    let (mut distinct, mut best, mut lo) = (0u32, 0u32, 0usize);
    for hi in 0..found.len() {
        let (p, g) = found[hi];
        if counts[g] == 0 {
            distinct += 1;
        }
        counts[g] += 1;
        while found[lo].0 + WINDOW < p {
            let gl = found[lo].1;
            counts[gl] -= 1;
            if counts[gl] == 0 {
                distinct -= 1;
            }
            lo += 1;
        }
        best = best.max(distinct);
    }
    best
}

/// Collection statistics: the number of documents, each group's document frequency and the
/// mean length of each field.
#[derive(Clone, Debug)]
pub struct Scorer {
    pub idf: Vec<f64>,
    pub avg_len: [f64; FIELDS],
}

impl Scorer {
    pub fn new(docs: u64, df: &[u64], avg_len: [f64; FIELDS]) -> Scorer {
        let n = docs.max(1) as f64;
        let idf = df
            .iter()
            .map(|&d| {
                let d = (d as f64).min(n);
                (1.0 + (n - d + 0.5) / (d + 0.5)).ln()
            })
            .collect();
        Scorer { idf, avg_len }
    }

    /// Each group's BM25F contribution in a document (0 where absent).
    pub fn contributions(&self, st: &DocStats) -> Vec<f64> {
        st.tf
            .iter()
            .zip(&self.idf)
            .map(|(tf, idf)| {
                let mut t = 0.0;
                for f in 0..FIELDS {
                    if tf[f] == 0 {
                        continue;
                    }
                    let norm = if B[f] > 0.0 && self.avg_len[f] > 0.0 {
                        1.0 - B[f] + B[f] * f64::from(st.len[f]) / self.avg_len[f]
                    } else {
                        1.0
                    };
                    t += WEIGHTS[f] * f64::from(tf[f]) / norm;
                }
                if t == 0.0 { 0.0 } else { idf * t * (K1 + 1.0) / (K1 + t) }
            })
            .collect()
    }

    /// Proximity and phrase bonus of a document.
    pub fn bonus(&self, st: &DocStats) -> f64 {
        let g = self.idf.len();
        if g < 2 {
            return 0.0;
        }
        let mean = self.idf.iter().sum::<f64>() / g as f64;
        let mut b = 0.0;
        if st.cover >= 2 {
            b += PROXIMITY * mean * f64::from(st.cover - 1) / (g - 1) as f64;
        }
        for (i, &adj) in st.adjacent.iter().enumerate() {
            if adj {
                b += PHRASE * (self.idf[i] + self.idf[i + 1]) / 2.0;
            }
        }
        b
    }
}

/// A Dossier's score from its documents' (contributions, bonus): each group counts with its
/// best document (so a Dossier covering the query across sections ranks above one that
/// repeats one word), plus the best document's bonus, plus a little for every further
/// matching document (at most three).
pub fn dossier_score(docs: &[(Vec<f64>, f64)]) -> f64 {
    if docs.is_empty() {
        return 0.0;
    }
    let groups = docs[0].0.len();
    let mut best_per_group = vec![0.0f64; groups];
    let mut totals: Vec<f64> = Vec::with_capacity(docs.len());
    let mut best_bonus = 0.0f64;
    for (c, bonus) in docs {
        for (b, v) in best_per_group.iter_mut().zip(c) {
            *b = b.max(*v);
        }
        best_bonus = best_bonus.max(*bonus);
        totals.push(c.iter().sum::<f64>() + bonus);
    }
    totals.sort_by(|a, b| b.total_cmp(a));
    let rest: f64 = totals.iter().skip(1).take(3).sum();
    best_per_group.iter().sum::<f64>() + best_bonus + 0.1 * rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_terms_phrases_exclusions_and_filters() {
        let q = parse(r#"Migrations "sign in" -legacy status:active in:decisions kind:dossier dossier:alpha"#).unwrap();
        assert_eq!(q.groups.len(), 2);
        assert_eq!(q.groups[0].alternatives[0], vec!["sign", "in"]);
        assert!(q.groups[0].required);
        assert_eq!(q.groups[1].alternatives[0], vec!["migrat"]);
        assert_eq!(q.exclusions[0].alternatives[0], vec!["legacy".to_string().replace('y', "i")]);
        assert_eq!(q.statuses, vec!["active"]);
        assert_eq!(q.places, vec![Place::Section(1)]);
        assert_eq!(q.kind, Some(Kind::Dossier));
        assert_eq!(q.dossier.as_deref(), Some("alpha"));
    }

    #[test]
    fn unknown_filters_and_bad_values_are_refused_by_name() {
        let e = parse("owner:bob pricing").unwrap_err();
        assert!(e.message.contains("owner:"), "{}", e.message);
        assert_eq!(e.valid, vec!["status", "dossier", "in", "kind"]);
        let e = parse("in:body pricing").unwrap_err();
        assert!(e.valid.contains(&"next-steps".to_string()));
        assert!(parse("status:open x").is_err());
        assert!(parse("kind:artifact in:name x").is_err());
        assert!(parse("status:active").is_err(), "filters alone look for nothing");
        assert!(parse("-x").is_err());
        // Not filters: a time, a quoted URL.
        assert!(parse("12:30 standup").is_ok());
        assert!(parse("\"https://example.com\"").is_ok());
    }

    #[test]
    fn stop_words_drop_unless_they_are_all_there_is() {
        assert_eq!(parse("the pricing").unwrap().groups.len(), 1);
        assert_eq!(parse("the").unwrap().groups.len(), 1);
    }

    #[test]
    fn compounds_match_spaced_hyphenated_and_joined() {
        let fields = |t: &'static str| vec![(Field::Body, t)];
        for q in ["sign-in", "signin", "sign in"] {
            let q = parse(q).unwrap();
            let m = q.matcher();
            for text in ["the sign-in page", "the signin page", "the sign in page", "Sign In page"] {
                assert!(q.analyse(&m, &fields(text)).matches(), "{q:?} in {text}");
            }
        }
    }

    #[test]
    fn adjacency_and_cover_are_seen() {
        let q = parse("database migration plan").unwrap();
        let m = q.matcher();
        let st = q.analyse(&m, &[(Field::Body, "We planned the database migrations for May.")]);
        assert_eq!(st.cover, 3);
        assert_eq!(st.adjacent, vec![true, false]);
        let far = q.analyse(&m, &[(Field::Body, &format!("database {} migration", "x ".repeat(20)))]);
        assert_eq!(far.cover, 1);
    }

    #[test]
    fn presence_is_exactly_what_analyse_finds() {
        let texts = [
            "We migrated the billing database; the sign-in page was slow.",
            "Sign in, then migrations. Legacy billing.",
            "nothing here at all",
            "signin migrate legacy legacy database",
            "Café résumé billing",
        ];
        for q in [
            "migration database",
            "sign-in -legacy",
            "billing -cafe resume",
            "\"billing database\" sign in",
            "end-to-end migrations",
            "the",
        ] {
            let q = parse(q).unwrap();
            let m = q.matcher();
            let p = Presence::new(&q, &m);
            for a in texts {
                for b in texts {
                    let fields = [(Field::Name, a), (Field::Body, b)];
                    let st = q.analyse(&m, &fields);
                    let f = p.find(&q, &m, &fields);
                    for g in 0..q.groups.len() {
                        assert_eq!(f.has(g), st.has(g), "{q:?} group {g} in {a:?} / {b:?}");
                    }
                    assert_eq!(f.matches(), st.matches());
                    assert_eq!(f.excluded, st.excluded.iter().any(|&e| e), "{q:?} in {a:?} / {b:?}");
                }
            }
        }
    }

    #[test]
    fn bm25f_prefers_strong_fields_and_rare_terms() {
        let s = Scorer::new(100, &[2, 50], [0.0, 0.0, 0.0, 0.0, 0.0, 500.0]);
        let mut name = DocStats { tf: vec![[1, 0, 0, 0, 0, 0], [0; 6]], ..Default::default() };
        name.len[0] = 10;
        let mut body = DocStats { tf: vec![[0, 0, 0, 0, 0, 1], [0; 6]], ..Default::default() };
        body.len[5] = 500;
        assert!(s.contributions(&name)[0] > s.contributions(&body)[0]);
        let mut common = DocStats { tf: vec![[0; 6], [0, 0, 0, 0, 0, 1]], ..Default::default() };
        common.len[5] = 500;
        assert!(s.contributions(&body)[0] > s.contributions(&common)[1]);
    }
}

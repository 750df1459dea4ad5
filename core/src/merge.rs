//! Merge of two Dossiers' Distilled States (SPEC §2.5, §7.2 `merge`, §8.7, §14.5): converge
//! the source into the surviving target and surface every conflict a human has to resolve.
//!
//! What it is for: given both sides (status, next action, Distilled State body) and the
//! user's resolutions so far, produce the converged Distilled State, next action and status,
//! plus the conflicts still unresolved. It is pure and deterministic: the same inputs give the
//! same output and the same conflict ids, on every machine, natively and in the component.
//!
//! - **Converged state.** The target's title, then the five sections in the canonical order
//!   (then any other `##` sections, target's first). In each section the target's claims come
//!   first, then the source's new ones, each exactly as written. A claim is a top-level list
//!   item (with its continuation lines and nested items) or a paragraph. Duplicates — equal
//!   after normalisation (case, whitespace, punctuation, `[src:...]` markers, list markers,
//!   articles and number formatting such as `10k` = `10,000` ignored) — are kept once, the
//!   first occurrence, with the union of both claims' provenance markers.
//! - **Conflicts** (SPEC §8.7): `contradictory-decision`, `divergent-next-action`,
//!   `incompatible-lifecycle`, `incompatible-value`. Only a source claim that is new (not a
//!   duplicate of a target claim) can conflict, and only with a target claim: disagreements
//!   inside one side are that side's business. Claims are indexed by subject and by their
//!   polarity-free word set in hash maps, so detection is near-linear: two claims are compared
//!   only when they share a key. The rules, exactly, are in docs/merge.md and on the functions
//!   below (`Scratch::analyse`, `subject_conflict`, `same_words_conflict`,
//!   [`material_next_action`], [`lifecycle`]).
//! - **Ids** are `conf-` + 16 hex digits of FNV-1a 64 over the kind, the subject key and both
//!   claims' normalised texts (as hashes): stable across runs and independent of unrelated
//!   claims and of provenance.
//! - **Resolutions**: `keep-source` puts the source's claim where the target's was,
//!   `keep-target` drops the source's, `keep-both` keeps the target's in place and adds the
//!   source's after the target's claims, `custom(text)` puts the text where the target's claim
//!   was and drops both. While a conflict is unresolved the converged state has the target's
//!   side only, so it is complete exactly when `unresolved` is empty.
//!
//! What it is not for: judging which side is right (a human does), reading files or the
//! Archive (the host passes the bodies and writes conflict files), or semantic understanding.
//! The detection is lexical; docs/merge.md lists what it misses and what it over-reports.

use std::collections::HashMap as StdHashMap;
use std::collections::HashSet as StdHashSet;

use crate::maps::{HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use crate::distill::{self, REQUIRED_SECTIONS};

/// Dossier lifecycle status (SPEC §4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Active,
    Waiting,
    Blocked,
    Resolved,
    Archived,
}

impl Status {
    pub const ALL: [Status; 5] = [Status::Active, Status::Waiting, Status::Blocked, Status::Resolved, Status::Archived];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Waiting => "waiting",
            Status::Blocked => "blocked",
            Status::Resolved => "resolved",
            Status::Archived => "archived",
        }
    }

    /// Case-insensitive, surrounding whitespace ignored.
    pub fn parse(s: &str) -> Option<Status> {
        let s = s.trim();
        Status::ALL.into_iter().find(|st| st.as_str().eq_ignore_ascii_case(s))
    }

    /// Open work (`active`, `waiting`, `blocked`) as opposed to closed (`resolved`, `archived`).
    pub fn is_open(self) -> bool {
        matches!(self, Status::Active | Status::Waiting | Status::Blocked)
    }
}

/// One side of a merge: what the host knows of a Dossier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeSide {
    pub id: String,
    pub name: String,
    pub status: Status,
    pub next_action: String,
    /// The Distilled State body (Markdown). Frontmatter, if present, is skipped; line numbers
    /// in conflicts count from the first line of this string.
    pub distilled_state: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConflictKind {
    ContradictoryDecision,
    DivergentNextAction,
    IncompatibleLifecycle,
    IncompatibleValue,
}

impl ConflictKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ConflictKind::ContradictoryDecision => "contradictory-decision",
            ConflictKind::DivergentNextAction => "divergent-next-action",
            ConflictKind::IncompatibleLifecycle => "incompatible-lifecycle",
            ConflictKind::IncompatibleValue => "incompatible-value",
        }
    }
}

/// One side of a conflict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictSide {
    /// The claim as written (list marker removed), provenance markers included.
    pub text: String,
    /// The `[src:...]` markers found on the claim, in order.
    pub provenance: Vec<String>,
    /// 1-based line in that side's Distilled State; 0 for the status and the next action.
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// `conf-` + 16 hex digits; the same for the same disagreement on every run.
    pub id: String,
    pub kind: ConflictKind,
    /// What the two sides disagree about, e.g. "launch date".
    pub subject: String,
    pub source: ConflictSide,
    pub target: ConflictSide,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    KeepSource,
    KeepTarget,
    KeepBoth,
    /// Replacement text written by the user (provenance markers included).
    Custom(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    pub conflict_id: String,
    pub choice: Choice,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergePlan {
    /// The converged Distilled State; complete only when `unresolved` is empty.
    pub converged_state: String,
    pub converged_next_action: String,
    pub converged_status: Status,
    /// Conflicts the resolutions did not cover, in the target's reading order (status and
    /// next action first).
    pub unresolved: Vec<Conflict>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// The input broke a precondition: a resolution names an unknown conflict, a conflict is
    /// resolved twice in different ways, a custom status is not a status, a custom next
    /// action is empty, a custom claim contains a section heading, a body's frontmatter is
    /// never closed, or a Dossier is merged into itself.
    InvalidInput(String),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::InvalidInput(m) => write!(f, "invalid input: {m}"),
        }
    }
}

impl std::error::Error for MergeError {}

/// Merge `source` into `target` (the survivor), applying `resolutions`.
pub fn merge(source: &MergeSide, target: &MergeSide, resolutions: &[Resolution]) -> Result<MergePlan, MergeError> {
    if !source.id.is_empty() && source.id == target.id {
        return Err(MergeError::InvalidInput(format!("`{}` cannot be merged into itself", source.id)));
    }
    let mut secs = Sections::new();
    let mut scratch = Scratch::default();

    // Converge: target's blocks, then the source's new ones, duplicates folded into the first.
    // Claims that may conflict are analysed while parsing, from the same tokens: every
    // eligible target claim, and the source's claims that are not duplicates of the target's.
    let t = parse(&target.distilled_state, &mut secs, "target", &mut scratch, eligible)?;
    let mut out: Vec<Vec<Entry>> = (0..secs.names.len()).map(|_| Vec::new()).collect();
    let mut seen: KeyMap<(usize, u128), (usize, usize)> = KeyMap::default();
    seen.reserve(t.blocks.len() * 2);
    let mut t_first = Vec::new(); // target blocks that are entries (first occurrences)
    for (i, b) in t.blocks.iter().enumerate() {
        match seen.get(&(b.sec, b.key)) {
            Some(&(sec, e)) => {
                let own = &t.blocks[out[sec][e].block].markers;
                union_provenance(&mut out[sec][e], own, &b.markers);
            }
            None => {
                seen.insert((b.sec, b.key), (b.sec, out[b.sec].len()));
                out[b.sec].push(Entry { side: Side::Target, block: i, extra: Vec::new() });
                t_first.push(i);
            }
        }
    }
    let s = parse(&source.distilled_state, &mut secs, "source", &mut scratch, |b| {
        eligible(b) && !seen.contains_key(&(b.sec, b.key))
    })?;
    out.resize_with(secs.names.len(), Vec::new);
    let mut s_new = Vec::new(); // source blocks that are entries
    for (i, b) in s.blocks.iter().enumerate() {
        match seen.get(&(b.sec, b.key)) {
            Some(&(sec, e)) => {
                let entry = &mut out[sec][e];
                let own = match entry.side {
                    Side::Source => &s.blocks[entry.block].markers,
                    _ => &t.blocks[entry.block].markers,
                };
                union_provenance(entry, own, &b.markers);
            }
            None => {
                seen.insert((b.sec, b.key), (b.sec, out[b.sec].len()));
                out[b.sec].push(Entry { side: Side::Source, block: i, extra: Vec::new() });
                s_new.push(i);
            }
        }
    }

    // Detect.
    let mut conflicts: Vec<Found> = Vec::new();
    let status = lifecycle(source.status, target.status);
    if status.is_none() {
        let (st, tt) = (source.status.as_str(), target.status.as_str());
        conflicts.push(Found {
            kind: ConflictKind::IncompatibleLifecycle,
            key: fnv64(b"status"),
            subject: "status".into(),
            source: ConflictSide { text: st.into(), provenance: Vec::new(), line: 0 },
            target: ConflictSide { text: tt.into(), provenance: Vec::new(), line: 0 },
            norms: (norm_hash(st), norm_hash(tt)),
            pairs: Vec::new(),
            order: (0, 0, 0),
        });
    }
    let (s_next, s_next_line) = effective_next_action(&source.next_action, &s);
    let (t_next, t_next_line) = effective_next_action(&target.next_action, &t);
    if material_next_action(&s_next, &t_next) {
        let provenance = |text: &str| markers(text).map(str::to_string).collect();
        conflicts.push(Found {
            kind: ConflictKind::DivergentNextAction,
            key: fnv64(b"next action"),
            subject: "next action".into(),
            source: ConflictSide { text: s_next.clone(), provenance: provenance(&s_next), line: s_next_line },
            target: ConflictSide { text: t_next.clone(), provenance: provenance(&t_next), line: t_next_line },
            norms: (norm_hash(&s_next), norm_hash(&t_next)),
            pairs: Vec::new(),
            order: (1, 0, 0),
        });
    }
    detect_claims(&t, &s, &t_first, &s_new, &mut scratch, &mut conflicts);

    // Ids, grouping of identical disagreements, order.
    let mut by_id: HashMap<String, usize> = HashMap::default();
    let mut found: Vec<Found> = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for f in conflicts {
        let id = conflict_id(f.kind, f.key, f.norms.0, f.norms.1);
        match by_id.get(&id) {
            Some(&k) => found[k].pairs.extend(f.pairs),
            None => {
                by_id.insert(id.clone(), found.len());
                found.push(f);
                ids.push(id);
            }
        }
    }
    let mut order: Vec<usize> = (0..found.len()).collect();
    order.sort_by_key(|&k| (found[k].order, found[k].kind));

    // Resolutions.
    let mut chosen: HashMap<&str, &Choice> = HashMap::default();
    let mut unknown: Vec<&str> = Vec::new();
    for r in resolutions {
        if !by_id.contains_key(r.conflict_id.as_str()) {
            if !unknown.contains(&r.conflict_id.as_str()) {
                unknown.push(&r.conflict_id);
            }
            continue;
        }
        if let Some(prev) = chosen.insert(&r.conflict_id, &r.choice)
            && prev != &r.choice
        {
            return Err(MergeError::InvalidInput(format!(
                "conflict {} is resolved twice, in different ways",
                r.conflict_id
            )));
        }
    }
    if !unknown.is_empty() {
        return Err(MergeError::InvalidInput(format!(
            "resolution names unknown conflict id(s): {} (this merge has {} conflict(s); ids come from a merge's `unresolved`)",
            unknown.join(", "),
            ids.len()
        )));
    }

    let mut converged_status = status.unwrap_or(target.status);
    let mut converged_next = if t_next.is_empty() { s_next.clone() } else { t_next.clone() };
    let mut extra_next_step: Option<String> = None;
    let mut fate = Fate::default();
    let mut unresolved = Vec::new();
    for &k in &order {
        let f = &found[k];
        let id = &ids[k];
        let Some(choice) = chosen.get(id.as_str()).copied() else {
            for &(si, _) in &f.pairs {
                fate.source_unresolved.insert(si);
            }
            unresolved.push(Conflict {
                id: id.clone(),
                kind: f.kind,
                subject: f.subject.clone(),
                source: f.source.clone(),
                target: f.target.clone(),
            });
            continue;
        };
        match f.kind {
            ConflictKind::IncompatibleLifecycle => {
                converged_status = match choice {
                    Choice::KeepSource => source.status,
                    Choice::KeepTarget | Choice::KeepBoth => target.status,
                    Choice::Custom(text) => Status::parse(text).ok_or_else(|| {
                        MergeError::InvalidInput(format!(
                            "custom resolution of {id} (status) must be one of active, waiting, blocked, resolved, archived; got `{text}`"
                        ))
                    })?,
                }
            }
            ConflictKind::DivergentNextAction => match choice {
                Choice::KeepSource => converged_next = s_next.clone(),
                Choice::KeepTarget => converged_next = t_next.clone(),
                Choice::KeepBoth => {
                    converged_next = t_next.clone();
                    extra_next_step = Some(s_next.clone());
                }
                Choice::Custom(text) => {
                    if text.trim().is_empty() {
                        return Err(MergeError::InvalidInput(format!(
                            "custom resolution of {id} (next action) is empty; a Dossier needs a next action"
                        )));
                    }
                    converged_next = text.trim().to_string();
                }
            },
            _ => {
                if let Choice::Custom(text) = choice
                    && text.lines().any(|l| heading_level(l).is_some_and(|n| n <= 2))
                {
                    return Err(MergeError::InvalidInput(format!(
                        "custom resolution of {id} contains a `#`/`##` heading line; a replacement is one claim"
                    )));
                }
                for &(si, ti) in &f.pairs {
                    fate.apply(si, ti, choice);
                }
            }
        }
    }

    // Render.
    if let Some(step) = extra_next_step {
        let key = norm_hash(&step);
        let present = out[NEXT_STEPS].iter().any(|e| match e.side {
            Side::Target => t.blocks[e.block].key == key,
            Side::Source => s.blocks[e.block].key == key,
            Side::Extra(_) => false,
        });
        if !present {
            out[NEXT_STEPS].push(Entry { side: Side::Extra(step), block: 0, extra: Vec::new() });
        }
    }
    let title = t
        .title
        .map(str::to_string)
        .or_else(|| (!target.name.trim().is_empty()).then(|| target.name.trim().to_string()))
        .or_else(|| s.title.map(str::to_string))
        .unwrap_or_else(|| source.name.trim().to_string());
    let converged_state = render(&title, &secs, &out, &t, &s, &fate);
    Ok(MergePlan { converged_state, converged_next_action: converged_next, converged_status, unresolved })
}

// ---------------------------------------------------------------------------------------------
// Lifecycle and next action.

/// The lifecycle compatibility table. `None` means incompatible (a conflict); otherwise the
/// converged status.
///
/// | source \ target | open (`active`, `waiting`, `blocked`) | closed (`resolved`, `archived`) |
/// |---|---|---|
/// | open | compatible: the more restrictive, `blocked` > `waiting` > `active` | **conflict** |
/// | closed | **conflict** | compatible: the target's |
///
/// Equal statuses are always compatible. Open vs closed is a conflict because one side says
/// the work goes on and the other that it is over; which is true after the merge is the
/// user's call. Among open states, a merged Dossier is blocked if either part is blocked
/// (the blocker's claims come along), else waiting if either waits.
pub fn lifecycle(source: Status, target: Status) -> Option<Status> {
    if source == target {
        return Some(target);
    }
    match (source.is_open(), target.is_open()) {
        (true, true) => {
            let rank = |s: Status| match s {
                Status::Blocked => 2,
                Status::Waiting => 1,
                _ => 0,
            };
            Some(if rank(source) > rank(target) { source } else { target })
        }
        (false, false) => Some(target),
        _ => None,
    }
}

/// A side's next action: its frontmatter `next_action`, or when that is empty the first item
/// of its `## Next Steps` (with that item's line).
fn effective_next_action(next_action: &str, doc: &Doc) -> (String, u32) {
    if !next_action.trim().is_empty() {
        return (next_action.trim().to_string(), 0);
    }
    match doc.blocks.iter().find(|b| b.sec == NEXT_STEPS && matches!(b.kind, Kind::Item | Kind::Paragraph)) {
        Some(b) => (doc.own_parts(b).collect::<Vec<_>>().join(" "), doc.lines[b.start].0),
        None => (String::new(), 0),
    }
}

/// Whether two next actions differ materially. Not when either is empty or they are equal
/// after normalisation. Otherwise, with `A`, `B` their content-word sets (stop words,
/// negations and typed values removed, plurals folded): yes when their typed values are
/// incompatible (dates, numbers, versions, yes/no), or when one is negated and the other not
/// while one word set contains the other; no when one word set contains the other (a more
/// detailed restatement); otherwise yes when `|A ∩ B| / |A ∪ B| < 0.5`.
pub fn material_next_action(source: &str, target: &str) -> bool {
    if source.trim().is_empty() || target.trim().is_empty() || norm_hash(source) == norm_hash(target) {
        return false;
    }
    let mut scratch = Scratch::default();
    let a = scratch.analyse([source].into_iter(), false, false);
    let b = scratch.analyse([target].into_iter(), false, false);
    if values_incompatible(&a.values, &b.values) {
        return true;
    }
    let (wa, wb) = (&a.pol_words, &b.pol_words);
    let nested = subset(wa, wb) || subset(wb, wa);
    if a.negated != b.negated && nested {
        return true;
    }
    if nested {
        return false;
    }
    let inter = wa.iter().filter(|w| wb.binary_search(w).is_ok()).count();
    let union = wa.len() + wb.len() - inter;
    (inter as f64) < 0.5 * union as f64
}

// ---------------------------------------------------------------------------------------------
// Claim conflicts.

/// A detected disagreement before ids and grouping.
struct Found {
    kind: ConflictKind,
    /// Hash of the normalised subject (bucket key), part of the id.
    key: u64,
    subject: String,
    source: ConflictSide,
    target: ConflictSide,
    /// Hashes of both claims' normalised texts.
    norms: (u128, u128),
    /// (source block, target block) pairs this conflict covers (none for status/next action).
    pairs: Vec<(usize, usize)>,
    /// Sort key: (group, target line, source line).
    order: (u8, u32, u32),
}

/// Blocks whose content can conflict: claims (items and paragraphs) outside the preamble
/// and `Next Steps`.
fn eligible(b: &Block) -> bool {
    matches!(b.kind, Kind::Item | Kind::Paragraph) && b.sec != PREAMBLE && b.sec != NEXT_STEPS
}

fn detect_claims(t: &Doc, s: &Doc, t_first: &[usize], s_new: &[usize], scratch: &mut Scratch, out: &mut Vec<Found>) {
    let mut by_subject: KeyMap<u64, Vec<usize>> = KeyMap::default();
    let mut by_words: KeyMap<u64, Vec<usize>> = KeyMap::default();
    for &i in t_first {
        let Some(a) = &t.blocks[i].an else { continue };
        if let Some(subj) = a.subject {
            by_subject.entry(subj).or_default().push(i);
        }
        if a.pol_key != 0 {
            by_words.entry(a.pol_key).or_default().push(i);
        }
    }
    let mut pairs_seen: StdHashSet<(usize, usize), BuildHasherDefault<KeyHasher>> = StdHashSet::default();
    for &si in s_new {
        let sb = &s.blocks[si];
        let Some(sa) = &sb.an else { continue };
        let mut hits: Vec<(usize, ConflictKind, u64, bool)> = Vec::new();
        let target_an = |ti: usize| t.blocks[ti].an.as_ref().expect("indexed blocks are analysed");
        if let Some(subj) = sa.subject
            && let Some(tis) = by_subject.get(&subj)
        {
            for &ti in tis {
                if let Some(kind) = subject_conflict(sa, target_an(ti)) {
                    hits.push((ti, kind, subj, true));
                }
            }
        }
        if sa.pol_key != 0
            && let Some(tis) = by_words.get(&sa.pol_key)
        {
            for &ti in tis {
                if let Some(kind) = same_words_conflict(sa, target_an(ti)) {
                    hits.push((ti, kind, sa.pol_key, false));
                }
            }
        }
        for (ti, kind, key, by_subject) in hits {
            if !pairs_seen.insert((si, ti)) {
                continue;
            }
            let tb = &t.blocks[ti];
            // Only conflicts need the words for display.
            let shown = scratch.analyse(t.own_parts(tb), tb.sec == DECISIONS, true);
            out.push(Found {
                kind,
                key,
                subject: if by_subject { shown.subject_display } else { shown.pol_display },
                source: s.side(sb),
                target: t.side(tb),
                norms: (sb.key, tb.key),
                pairs: vec![(si, ti)],
                order: (2, t.lines[tb.start].0, s.lines[sb.start].0),
            });
        }
    }
}

/// Two claims with the same subject key. Not a conflict when both name qualifiers ("for
/// enterprise", "in the EU") and neither's qualifier words contain the other's ("in the EU"
/// vs "in the US", "in the launch region" vs "in the hiring region"): they are about
/// different things. Between two
/// decisions: a conflict when one is negated and the other not, when their choices differ
/// (both non-empty and neither contains the other), or when their typed values are
/// incompatible. Otherwise: a conflict when the typed values are incompatible, or when one is
/// negated and the other not while one's predicate words contain the other's.
fn subject_conflict(s: &Analysis, t: &Analysis) -> Option<ConflictKind> {
    if !s.qualifiers.is_empty()
        && !t.qualifiers.is_empty()
        && !subset(&s.qualifiers, &t.qualifiers)
        && !subset(&t.qualifiers, &s.qualifiers)
    {
        return None;
    }
    if s.decision && t.decision {
        let differ = !s.choice.is_empty()
            && !t.choice.is_empty()
            && !subset(&s.choice, &t.choice)
            && !subset(&t.choice, &s.choice);
        if s.negated != t.negated || differ || values_incompatible(&s.values, &t.values) {
            return Some(ConflictKind::ContradictoryDecision);
        }
        return None;
    }
    if values_incompatible(&s.values, &t.values) {
        return Some(ConflictKind::IncompatibleValue);
    }
    if s.negated != t.negated && (subset(&s.choice, &t.choice) || subset(&t.choice, &s.choice)) {
        return Some(ConflictKind::IncompatibleValue);
    }
    None
}

/// Two claims with the same polarity-free word set (same content words once negations and
/// typed values are set aside): a conflict when one is negated and the other not ("We will
/// ship X" / "We will not ship X") or their typed values are incompatible ("churn 3x" /
/// "churn 4x"). Contradictory decision when both are decisions, incompatible value otherwise.
fn same_words_conflict(s: &Analysis, t: &Analysis) -> Option<ConflictKind> {
    if s.negated != t.negated || values_incompatible(&s.values, &t.values) {
        Some(if s.decision && t.decision {
            ConflictKind::ContradictoryDecision
        } else {
            ConflictKind::IncompatibleValue
        })
    } else {
        None
    }
}

/// Whether sorted `a` is contained in sorted `b`.
fn subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().all(|x| b.binary_search(x).is_ok())
}

// ---------------------------------------------------------------------------------------------
// Resolutions.

#[derive(Default)]
struct Fate {
    /// Source blocks in at least one unresolved conflict: left out.
    source_unresolved: HashSet<usize>,
    /// Source blocks in any conflict.
    source_in_conflict: HashSet<usize>,
    /// Source blocks a resolution dropped (keep-target, custom).
    source_dropped: HashSet<usize>,
    /// Source blocks some resolution said keep-both for.
    source_both: HashSet<usize>,
    /// Source blocks already placed at a target claim's position (keep-source).
    source_placed: HashSet<usize>,
    /// Target blocks replaced, with what goes in their place.
    replaced: HashMap<usize, Vec<Replacement>>,
}

enum Replacement {
    Source(usize),
    Custom(String),
}

impl Fate {
    fn apply(&mut self, si: usize, ti: usize, choice: &Choice) {
        self.source_in_conflict.insert(si);
        match choice {
            Choice::KeepTarget => {
                self.source_dropped.insert(si);
            }
            Choice::KeepBoth => {
                self.source_both.insert(si);
            }
            Choice::KeepSource => {
                let r = self.replaced.entry(ti).or_default();
                if self.source_placed.insert(si) {
                    r.push(Replacement::Source(si));
                }
            }
            Choice::Custom(text) => {
                self.source_dropped.insert(si);
                let r = self.replaced.entry(ti).or_default();
                if !text.trim().is_empty() && !r.iter().any(|x| matches!(x, Replacement::Custom(c) if c == text)) {
                    r.push(Replacement::Custom(text.clone()));
                }
            }
        }
    }

    /// Whether a new source block is rendered where it stands (after the target's claims).
    fn source_kept(&self, si: usize) -> bool {
        if !self.source_in_conflict.contains(&si) {
            return !self.source_unresolved.contains(&si);
        }
        self.source_both.contains(&si)
            && !self.source_unresolved.contains(&si)
            && !self.source_dropped.contains(&si)
            && !self.source_placed.contains(&si)
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing: sections and blocks.

const PREAMBLE: usize = 0;
const DECISIONS: usize = 2;
const NEXT_STEPS: usize = 5;

/// The section table shared by both sides: 0 is the preamble (between the title and the first
/// section), 1..=5 the canonical sections, then other `##` sections in order of appearance.
struct Sections {
    names: Vec<String>,
    by_key: HashMap<String, usize>,
}

impl Sections {
    fn new() -> Sections {
        let mut names = vec![String::new()];
        let mut by_key = HashMap::default();
        for (i, r) in REQUIRED_SECTIONS.iter().enumerate() {
            names.push(r.to_string());
            by_key.insert(r.to_ascii_lowercase(), i + 1);
        }
        Sections { names, by_key }
    }

    fn get(&mut self, heading: &str) -> usize {
        let heading = heading.trim();
        let key = heading.to_lowercase();
        if let Some(&i) = self.by_key.get(&key) {
            return i;
        }
        self.names.push(heading.to_string());
        self.by_key.insert(key, self.names.len() - 1);
        self.names.len() - 1
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A list item with its continuation lines and nested items.
    Item,
    Paragraph,
    /// `###` and deeper headings, a second `#` heading, or an indented heading.
    Heading,
    /// A fenced code block at the top level of a section.
    Code,
}

/// A claim or other top-level unit of a section: lines `start..=end` of the document,
/// `start..=own_end` being its own text (before nested items and loose paragraphs).
struct Block<'a> {
    sec: usize,
    kind: Kind,
    start: usize,
    end: usize,
    own_end: usize,
    blank_before: bool,
    /// Hash of the normalised text (duplicate detection, ids).
    key: u128,
    /// `[src:...]` markers on the block.
    markers: Vec<&'a str>,
    /// What the claim says, for blocks `parse` was asked to analyse.
    an: Option<Analysis>,
    /// A code fence in the block that the document never closes (it ends with the block):
    /// its marker, so the converged state closes it instead of swallowing what follows.
    open_fence: Option<&'a str>,
}

struct Doc<'a> {
    /// (1-based line number, text) of each line after any frontmatter.
    lines: Vec<(u32, &'a str)>,
    title: Option<&'a str>,
    blocks: Vec<Block<'a>>,
}

impl<'a> Doc<'a> {
    /// The block's own text, line by line: the first without its list marker, all trimmed.
    fn own_parts<'s>(&'s self, b: &Block) -> impl Iterator<Item = &'a str> + use<'a, 's> {
        let (lines, start) = (&self.lines, b.start);
        (start..=b.own_end).map(move |i| if i == start { strip_marker(lines[i].1).trim() } else { lines[i].1.trim() })
    }

    /// The block as written, its first line without list marker or indentation.
    fn written(&self, b: &Block) -> String {
        let mut out = String::new();
        for i in b.start..=b.end {
            let line = self.lines[i].1;
            if i == b.start {
                out.push_str(strip_marker(line).trim());
            } else {
                out.push('\n');
                out.push_str(line.trim_end());
            }
        }
        out
    }

    fn side(&self, b: &Block) -> ConflictSide {
        ConflictSide {
            text: self.written(b),
            provenance: b.markers.iter().map(|m| m.to_string()).collect(),
            line: self.lines[b.start].0,
        }
    }
}

fn strip_marker(line: &str) -> &str {
    match distill::list_marker(line) {
        Some((_, rest)) => rest,
        None => line.trim_start(),
    }
}

fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// An ATX heading at column 0: `#`s then a space (or nothing).
fn heading_level(line: &str) -> Option<usize> {
    let n = line.bytes().take_while(|&b| b == b'#').count();
    (n > 0 && n <= 6 && (line.len() == n || line.as_bytes()[n] == b' ')).then_some(n)
}

/// Leading spaces and tabs (Markdown indentation; other Unicode spaces are text).
fn indent_of(line: &str) -> usize {
    line.bytes().take_while(|&b| b == b' ' || b == b'\t').count()
}

/// Split a Distilled State into its title and blocks, and analyse the blocks `analyse` asks
/// for (it sees each block's section, kind and key). Uses the distill policy's line
/// classification (frontmatter skipped, 1-based numbers) and list-marker syntax.
fn parse<'a>(
    text: &'a str,
    secs: &mut Sections,
    side: &str,
    scratch: &mut Scratch,
    analyse: impl Fn(&Block) -> bool,
) -> Result<Doc<'a>, MergeError> {
    let mut findings = Vec::new();
    let classified = distill::classify(text, &mut findings);
    if findings.iter().any(|f| f.code == "unclosed-frontmatter") {
        return Err(MergeError::InvalidInput(format!(
            "the {side}'s Distilled State starts with `---` frontmatter that is never closed"
        )));
    }
    let mut doc = Doc { lines: Vec::with_capacity(classified.len()), title: None, blocks: Vec::new() };
    let mut sec = PREAMBLE;
    let mut open = false; // the last block takes continuation lines
    let mut own_open = false; // ... as part of its own text
    let mut blank = false; // a blank line since the last block line
    let mut fence = false;
    let mut first = true; // no block yet in this section (its blank line follows the heading)
    let mut title_at = 0; // line of the title: nothing attaches across it
    for l in &classified {
        let idx = doc.lines.len();
        doc.lines.push((l.no, l.text));
        let text = l.text;
        if fence {
            let b = doc.blocks.last_mut().expect("a fence opens a block");
            b.end = idx;
            if is_fence(text) {
                fence = false;
                open = false;
                own_open = false;
            }
            continue;
        }
        if text.trim().is_empty() {
            blank = true;
            open = false;
            own_open = false;
            continue;
        }
        // Deeper than the item before (in this section, after the title): part of that item.
        let indent = indent_of(text);
        let inside_item = doc.blocks.last().is_some_and(|b| {
            b.sec == sec && b.kind == Kind::Item && b.start >= title_at && indent > indent_of(doc.lines[b.start].1)
        });
        if is_fence(text) {
            fence = true;
            if inside_item && (open || blank) {
                doc.blocks.last_mut().expect("checked").end = idx;
            } else {
                doc.blocks.push(new_block(sec, Kind::Code, idx, blank && !first));
                first = false;
            }
            own_open = false;
            blank = false;
            continue;
        }
        if (1..=3).contains(&indent) && heading_level(&text[indent..]).is_some() {
            // An indented heading (CommonMark allows up to 3 spaces): a heading block, never a
            // section or the title (as for the distill policy), never part of a claim.
            doc.blocks.push(new_block(sec, Kind::Heading, idx, !first));
            first = false;
            open = false;
            own_open = false;
            blank = false;
            continue;
        }
        if let Some(level) = heading_level(text) {
            open = false;
            own_open = false;
            blank = false;
            if level == 1 && doc.title.is_none() {
                doc.title = Some(text[1..].trim());
                first = true;
                title_at = idx;
            } else if level == 2 {
                sec = secs.get(&text[2..]);
                first = true;
            } else {
                doc.blocks.push(new_block(sec, Kind::Heading, idx, !first));
                first = false;
            }
            continue;
        }
        if distill::list_marker(text).is_some() {
            if inside_item && (open || blank) {
                doc.blocks.last_mut().expect("checked").end = idx;
                own_open = false;
            } else {
                doc.blocks.push(new_block(sec, Kind::Item, idx, blank && !first));
                first = false;
                own_open = true;
            }
            open = true;
        } else if open {
            let b = doc.blocks.last_mut().expect("open implies a block");
            b.end = idx;
            if own_open {
                b.own_end = idx;
            }
        } else if blank && inside_item {
            doc.blocks.last_mut().expect("checked").end = idx;
            own_open = false;
            open = true;
        } else {
            doc.blocks.push(new_block(sec, Kind::Paragraph, idx, blank && !first));
            first = false;
            own_open = true;
            open = true;
        }
        blank = false;
    }
    if fence {
        let b = doc.blocks.last_mut().expect("a fence opens a block");
        let opening = (b.start..=b.end).rev().map(|i| doc.lines[i].1.trim_start()).find(|l| is_fence(l));
        b.open_fence = opening.map(|l| &l[..3]);
    }
    let Doc { lines, blocks, .. } = &mut doc;
    for b in blocks.iter_mut() {
        let own_tokens = block_key(lines, b, scratch);
        if analyse(b) {
            scratch.tk.toks.truncate(own_tokens);
            b.an = Some(scratch.analyse_tokens(b.sec == DECISIONS, false));
        }
    }
    Ok(doc)
}

fn new_block<'a>(sec: usize, kind: Kind, idx: usize, blank_before: bool) -> Block<'a> {
    Block {
        sec,
        kind,
        start: idx,
        end: idx,
        own_end: idx,
        blank_before,
        key: 0,
        markers: Vec::new(),
        an: None,
        open_fence: None,
    }
}

/// Set a block's key (hash of its normalised text) and provenance markers, leaving its tokens
/// in `scratch`; returns how many of them are its own text's. Code blocks are keyed by their
/// exact text (and carry no provenance); a block whose normalised text is empty (only
/// punctuation or markers) is keyed by its trimmed text.
fn block_key<'a>(lines: &[(u32, &'a str)], b: &mut Block<'a>, scratch: &mut Scratch) -> usize {
    let body = &lines[b.start..=b.end];
    let tk = &mut scratch.tk;
    tk.clear();
    if b.kind == Kind::Code {
        // The content relative to the opening fence, not the fences: an unclosed or indented
        // block and its closed, dedented rendering are equal.
        let mut h = Key128::new(b"code");
        let base = indent_of(body[0].1);
        for (_, l) in body.iter().filter(|(_, l)| !is_fence(l)) {
            h.push(fnv64(l[indent_of(l).min(base)..].trim_end().as_bytes()));
        }
        b.key = h.finish();
        return 0;
    }
    let mut own_tokens = 0;
    for (k, (_, l)) in body.iter().enumerate() {
        let l = strip_marker(l);
        let l = if b.kind == Kind::Heading { l.trim_start_matches('#') } else { l };
        tk.push_text(l);
        if b.start + k == b.own_end {
            own_tokens = tk.len();
        }
        for m in markers(l) {
            if !b.markers.contains(&m) {
                b.markers.push(m);
            }
        }
    }
    let mut h = Key128::new(b"text");
    let words = tk.norm_into(&mut h);
    if words == 0 {
        let mut raw = Key128::new(b"raw");
        for (_, l) in body.iter().filter(|(_, l)| !is_fence(l)) {
            raw.push(fnv64(l.trim().as_bytes()));
        }
        b.key = raw.finish();
    } else {
        b.key = h.finish();
    }
    own_tokens
}

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
fn markers(text: &str) -> impl Iterator<Item = &str> {
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

/// Hash of the normalised text: `[src:...]` markers removed, lowercase words (letters,
/// digits, inner apostrophes; digits joined across `.`/`,`), numbers canonical (`10,000` =
/// `10k` = `10000`, `1.50` = `1.5`), articles dropped.
fn norm_hash(text: &str) -> u128 {
    let mut tk = Toks::default();
    tk.push_text(text);
    let mut h = Key128::new(b"text");
    tk.norm_into(&mut h);
    h.finish()
}

/// A number at the start of a lowercase token: digits with `,` grouping and at most one `.`;
/// returns the value and the suffix (`k`, `x`, `ms`, ...). `None` for versions (`1.2.3`).
fn parse_num(w: &str) -> Option<(f64, &str)> {
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

/// `10k` → 10000, `2.5m` → 2500000, `3bn` → 3e9: the value and the suffix left.
fn scaled(v: f64, suffix: &str) -> (f64, &str) {
    match suffix {
        "k" => (v * 1e3, ""),
        "m" | "mm" | "mn" => (v * 1e6, ""),
        "b" | "bn" => (v * 1e9, ""),
        s => (v, s),
    }
}

// ---------------------------------------------------------------------------------------------
// Hashing.

const FNV64_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV64_PRIME: u64 = 0x0000_0100_0000_01b3;

const fn fnv64_from(mut h: u64, bytes: &[u8]) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(FNV64_PRIME);
        i += 1;
    }
    h
}

/// FNV-1a, 64 bits.
const fn fnv64(bytes: &[u8]) -> u64 {
    fnv64_from(FNV64_OFFSET, bytes)
}

/// 128-bit key of a sequence of word hashes (normalised texts: duplicates, ids): two
/// multiply-rotate lanes over the words' FNV-1a hashes, in order.
struct Key128 {
    a: u64,
    b: u64,
}

impl Key128 {
    fn new(tag: &[u8]) -> Key128 {
        let mut k = Key128 { a: FNV64_OFFSET, b: 0x6c62_272e_07bb_0142 };
        k.push(fnv64(tag));
        k
    }

    fn push(&mut self, h: u64) {
        self.a = (self.a.rotate_left(5) ^ h).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.b = (self.b ^ h.rotate_left(32)).wrapping_mul(0xff51_afd7_ed55_8ccd).rotate_left(27);
    }

    fn finish(&self) -> u128 {
        ((self.a as u128) << 64) | self.b as u128
    }
}

/// Hasher for map keys that are already hashes (and small integers): a multiply-rotate mix.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = fnv64_from(self.0 ^ FNV64_OFFSET, bytes);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type KeyMap<K, V> = StdHashMap<K, V, BuildHasherDefault<KeyHasher>>;

// ---------------------------------------------------------------------------------------------
// Word classes: one compile-time table, looked up once per token by its hash.

const W_STOP: u64 = 1 << 0;
const W_NEG: u64 = 1 << 1;
/// Dropped from subject keys.
const W_NOISE: u64 = 1 << 2;
/// Leading label when followed by `:`.
const W_LABEL: u64 = 1 << 3;
/// Ends the main clause after punctuation or before by/with/on/in/at/during/upon.
const W_ATTRIBUTION: u64 = 1 << 4;
/// Always ends the main clause.
const W_CUT: u64 = 1 << 5;
/// Ends the main clause after punctuation or before `:`.
const W_REASON: u64 = 1 << 6;
/// Ends the main clause with the right next word (due to, so that, given that, to avoid, signed off).
const W_PAIR_CUT: u64 = 1 << 7;
const W_LINK1: u64 = 1 << 8;
const W_LINK_TO: u64 = 1 << 9;
const W_LINK_BE: u64 = 1 << 10;
const W_HAVE: u64 = 1 << 11;
const W_DEC_PREFIX: u64 = 1 << 12;
const W_DEC_VERB: u64 = 1 << 13;
const W_DEC_WITH: u64 = 1 << 14;
const W_DEC_TO: u64 = 1 << 15;
const W_DEC_ON: u64 = 1 << 16;
const W_DEC_FOR: u64 = 1 << 17;
const W_SUBJECT_PREP: u64 = 1 << 18;
const W_QUAL_STOP: u64 = 1 << 19;
const W_HISTORY: u64 = 1 << 20;
const W_ARTICLE: u64 = 1 << 21;
/// Opens a past value in parentheses: "(was June 30)".
const W_PAST: u64 = 1 << 22;
const W_LEAD_VERB: u64 = 1 << 23;
const W_LEAD_WORD: u64 = 1 << 24;
const W_LEAD_PARTICLE: u64 = 1 << 25;
/// Ends a rejected alternative after its first word.
const W_ALT_STOP: u64 = 1 << 26;
/// `for`/`in`: start qualifiers.
const W_FOR_IN: u64 = 1 << 27;
const W_MONTH: u64 = 1 << 28;
const MONTH_SHIFT: u32 = 56;

/// Stop words. Negations are not stop words.
const STOP: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "being", "both",
    "but", "by", "can", "could", "did", "do", "does", "doing", "during", "each", "for", "from", "had", "has", "have",
    "having", "he", "her", "here", "his", "i", "if", "in", "into", "is", "it", "it's", "its", "just", "let's", "lets",
    "may", "me", "might", "must", "my", "of", "on", "onto", "or", "our", "over", "per", "shall", "she", "should", "so",
    "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to",
    "too", "up", "upon", "us", "very", "via", "was", "we", "we'll", "were", "what", "when", "where", "which", "while",
    "who", "whom", "whose", "will", "with", "would", "yes", "you", "your",
];

const NEGATIONS: &[&str] = &[
    "aren't",
    "can't",
    "cannot",
    "cant",
    "couldn't",
    "didn't",
    "doesn't",
    "doesnt",
    "don't",
    "dont",
    "hasn't",
    "haven't",
    "isn't",
    "isnt",
    "mustn't",
    "never",
    "no",
    "none",
    "nor",
    "not",
    "shouldn't",
    "wasn't",
    "weren't",
    "won't",
    "wont",
    "wouldn't",
];

/// Value-type nouns and modifiers that do not change what a claim is about ("launch date" ≡
/// "launch", "current budget" ≡ "budget").
const SUBJECT_NOISE: &[&str] = &[
    "amount",
    "count",
    "current",
    "currently",
    "date",
    "day",
    "estimated",
    "expected",
    "figure",
    "final",
    "latest",
    "level",
    "new",
    "now",
    "number",
    "official",
    "planned",
    "rate",
    "revised",
    "total",
    "updated",
    "value",
];

const MONTHS: [&[&str]; 12] = [
    &["january", "jan"],
    &["february", "feb"],
    &["march", "mar"],
    &["april", "apr"],
    &["may"],
    &["june", "jun"],
    &["july", "jul"],
    &["august", "aug"],
    &["september", "sept", "sep"],
    &["october", "oct"],
    &["november", "nov"],
    &["december", "dec"],
];

const fn month_flag(m: u64) -> u64 {
    W_MONTH | (m << MONTH_SHIFT)
}

const WORD_CLASSES: &[(u64, &[&str])] = &[
    (W_STOP, STOP),
    (W_NEG, NEGATIONS),
    (W_NOISE, SUBJECT_NOISE),
    (W_LABEL, &["agreed", "assumption", "decided", "decision", "fact", "finding", "note", "update"]),
    (W_ATTRIBUTION, &["agreed", "approved", "confirmed", "decided"]),
    (W_CUT, &["because", "if", "since", "unless", "until"]),
    (W_REASON, &["rationale", "reason"]),
    (W_PAIR_CUT, &["due", "given", "signed", "so", "to"]),
    (
        W_LINK1,
        &[
            "are", "become", "becomes", "costs", "equals", "is", "remain", "remains", "stay", "stays", "takes", "was",
            "were",
        ],
    ),
    (
        W_LINK_TO,
        &[
            "bumped",
            "changed",
            "changes",
            "cut",
            "decreased",
            "dropped",
            "grew",
            "increased",
            "lowered",
            "move",
            "moved",
            "moves",
            "pushed",
            "raised",
            "reduced",
            "set",
            "shifted",
            "shifts",
            "slipped",
            "slips",
        ],
    ),
    (W_LINK_BE, &["can", "could", "may", "might", "must", "shall", "should", "will", "would"]),
    (W_HAVE, &["had", "has", "have"]),
    (
        W_DEC_PREFIX,
        &[
            "also", "always", "are", "continue", "do", "does", "going", "i", "let's", "lets", "now", "shall", "should",
            "still", "team", "the", "to", "we", "we'll", "will",
        ],
    ),
    (
        W_DEC_VERB,
        &[
            "adopt",
            "adopted",
            "adopting",
            "adopts",
            "choose",
            "chooses",
            "chose",
            "chosen",
            "keep",
            "keeping",
            "keeps",
            "kept",
            "pick",
            "picked",
            "picks",
            "prefer",
            "preferred",
            "prefers",
            "select",
            "selected",
            "selects",
            "use",
            "used",
            "uses",
            "using",
        ],
    ),
    (
        W_DEC_WITH,
        &[
            "go", "goes", "going", "gone", "went", "stay", "stayed", "staying", "stays", "stick", "sticking", "sticks",
            "stuck",
        ],
    ),
    (
        W_DEC_TO,
        &[
            "migrate",
            "migrated",
            "migrates",
            "migrating",
            "move",
            "moved",
            "moves",
            "moving",
            "switch",
            "switched",
            "switches",
            "switching",
        ],
    ),
    (W_DEC_ON, &["settle", "settled", "standardise", "standardised", "standardize", "standardized"]),
    (W_DEC_FOR, &["opt", "opted", "opting"]),
    (W_SUBJECT_PREP, &["across", "as", "for", "in", "on", "within"]),
    (W_QUAL_STOP, &["across", "after", "at", "before", "by", "during", "for", "from", "in", "on", "until", "within"]),
    (
        W_HISTORY,
        &[
            "formerly",
            "from",
            "originally",
            "previously",
            "replaced",
            "replaces",
            "replacing",
            "superseded",
            "supersedes",
            "was",
            "were",
        ],
    ),
    (W_ARTICLE, &["a", "an", "the"]),
    (W_PAST, &["formerly", "originally", "previously", "was", "were"]),
    (W_LEAD_VERB, &["agreed", "chose", "decided", "opted", "resolved"]),
    (W_LEAD_WORD, &["all", "finally", "has", "have", "i", "jointly", "team", "the", "we"]),
    (W_LEAD_PARTICLE, &["on", "that", "to", "upon"]),
    (W_ALT_STOP, &["and", "as", "because", "but", "for", "in", "on", "since", "to"]),
    (W_FOR_IN, &["for", "in"]),
    (month_flag(1), MONTHS[0]),
    (month_flag(2), MONTHS[1]),
    (month_flag(3), MONTHS[2]),
    (month_flag(4), MONTHS[3]),
    (month_flag(5), MONTHS[4]),
    (month_flag(6), MONTHS[5]),
    (month_flag(7), MONTHS[6]),
    (month_flag(8), MONTHS[7]),
    (month_flag(9), MONTHS[8]),
    (month_flag(10), MONTHS[9]),
    (month_flag(11), MONTHS[10]),
    (month_flag(12), MONTHS[11]),
];

const TABLE_SIZE: usize = 1024;

struct WordTable {
    hash: [u64; TABLE_SIZE],
    word: [&'static str; TABLE_SIZE],
    flags: [u64; TABLE_SIZE],
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Built at compile time: open addressing on the FNV-1a hash, flags of every list a word is in.
const fn build_table() -> WordTable {
    let mut t = WordTable { hash: [0; TABLE_SIZE], word: [""; TABLE_SIZE], flags: [0; TABLE_SIZE] };
    let mut c = 0;
    while c < WORD_CLASSES.len() {
        let (flag, words) = WORD_CLASSES[c];
        let mut k = 0;
        while k < words.len() {
            let w = words[k];
            let h = fnv64(w.as_bytes()) | 1;
            let mut i = h as usize & (TABLE_SIZE - 1);
            loop {
                if t.hash[i] == 0 {
                    t.hash[i] = h;
                    t.word[i] = w;
                    t.flags[i] = flag;
                    break;
                }
                if t.hash[i] == h && str_eq(t.word[i], w) {
                    t.flags[i] |= flag;
                    break;
                }
                i = (i + 1) & (TABLE_SIZE - 1);
            }
            k += 1;
        }
        c += 1;
    }
    t
}

static WORD_TABLE: WordTable = build_table();

/// The classes of lowercase word `w` whose FNV-1a hash (| 1) is `h`.
fn word_flags(h: u64, w: &str) -> u64 {
    let t = &WORD_TABLE;
    let mut i = h as usize & (TABLE_SIZE - 1);
    loop {
        if t.hash[i] == 0 {
            return 0;
        }
        if t.hash[i] == h && t.word[i] == w {
            return t.flags[i];
        }
        i = (i + 1) & (TABLE_SIZE - 1);
    }
}

// ---------------------------------------------------------------------------------------------
// Tokens.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tk {
    /// Starts with a letter (`launch`, `v1.2`, `p95`, `don't`).
    Word,
    /// Starts with a digit (`10,000`, `3.5x`, `14th`, `1.2.3`).
    Num,
    Punct(char),
}

#[derive(Clone, Copy)]
struct Tok {
    kind: Tk,
    a: u32,
    b: u32,
    /// Whitespace (or a stripped provenance marker) before it.
    space: bool,
    /// First letter upper-case in the original.
    cap: bool,
    /// Word classes (words only).
    flags: u64,
    /// FNV-1a of the lower-cased text, | 1.
    h: u64,
}

/// Tokens, lower-cased into one buffer. `[src:...]` markers and emphasis (`*`, `_`, `` ` ``)
/// are skipped. Reused across claims (no allocation per word).
#[derive(Default)]
struct Toks {
    low: String,
    toks: Vec<Tok>,
}

impl Toks {
    fn clear(&mut self) {
        self.low.clear();
        self.toks.clear();
    }

    /// Append the tokens of `text` (as if after whitespace).
    fn push_text(&mut self, text: &str) {
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
    fn word(&mut self, text: &str, mut i: usize, space: bool) -> usize {
        let bytes = text.as_bytes();
        let a = self.low.len();
        let first = text[i..].chars().next().expect("in bounds");
        let num = first.is_ascii_digit();
        let cap = first.is_uppercase();
        let (mut last_digit, mut last_alpha) = (false, false);
        let next_is = |j: usize, f: fn(char) -> bool| text.get(j..).and_then(|t| t.chars().next()).is_some_and(f);
        while i < bytes.len() {
            let run = bytes[i..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
            if run > 0 {
                let from = self.low.len();
                self.low.push_str(&text[i..i + run]);
                self.low[from..].make_ascii_lowercase();
                i += run;
                last_digit = bytes[i - 1].is_ascii_digit();
                last_alpha = !last_digit;
                continue;
            }
            let c = bytes[i];
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

    fn len(&self) -> usize {
        self.toks.len()
    }

    fn w(&self, i: usize) -> &str {
        let t = &self.toks[i];
        &self.low[t.a as usize..t.b as usize]
    }

    /// Token `i` is the word `word`.
    fn is(&self, i: usize, word: &str) -> bool {
        i < self.len() && self.toks[i].kind == Tk::Word && self.w(i) == word
    }

    /// Token `i` is one of `words`.
    fn is_any(&self, i: usize, words: &[&str]) -> bool {
        i < self.len() && self.toks[i].kind == Tk::Word && words.contains(&self.w(i))
    }

    /// Token `i` is a word in class `flag`.
    fn has(&self, i: usize, flag: u64) -> bool {
        i < self.len() && self.toks[i].flags & flag != 0
    }

    fn punct(&self, i: usize) -> Option<char> {
        match self.toks.get(i)?.kind {
            Tk::Punct(c) => Some(c),
            _ => None,
        }
    }

    fn is_text(&self, i: usize) -> bool {
        i < self.len() && matches!(self.toks[i].kind, Tk::Word | Tk::Num)
    }

    fn month(&self, i: usize) -> Option<u8> {
        self.has(i, W_MONTH).then(|| (self.toks[i].flags >> MONTH_SHIFT) as u8 & 0xf)
    }

    /// Feed the normalised text to `h`: words and canonical numbers, in order, articles and
    /// punctuation dropped. Returns how many were fed.
    fn norm_into(&self, h: &mut Key128) -> usize {
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

    /// A content word's key: canonical number, or the word with its plural folded.
    fn key(&self, i: usize) -> u64 {
        match self.toks[i].kind {
            Tk::Num => self.num_key(i),
            _ => {
                let w = self.w(i);
                if w.ends_with('s') { fold_hash(w) } else { self.toks[i].h }
            }
        }
    }
}

/// Hash of `w` with common English plural endings folded, so "renewals" meets "renewal"
/// (`-ies` → `-y`; `-ses`, `-xes`, `-ches`, `-shes` → drop `es`; `-s` → drop, except after
/// `s`, `u`, `i`; words of 3 letters or fewer and non-ASCII words as they are).
fn fold_hash(w: &str) -> u64 {
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
fn words_key(words: &[u64]) -> u64 {
    if words.is_empty() {
        return 0;
    }
    let mut h = FNV64_OFFSET;
    for w in words {
        h = fnv64_from(h, &w.to_le_bytes());
    }
    h | 1
}

// ---------------------------------------------------------------------------------------------
// Claim analysis.

/// A typed value found in a claim.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    /// 0 = not given.
    Date {
        y: u16,
        m: u8,
        d: u8,
    },
    Quarter {
        q: u8,
        y: u16,
    },
    /// Up to 4 numeric components.
    Version {
        parts: [u32; 4],
        n: u8,
    },
    Bool(bool),
    /// A number in a unit ([`unit`] hashes: `%`, `x`, `usd`/`eur`/`gbp`, `s` — durations are
    /// converted to seconds —, `th`, another word following the number, folded; 0 for none).
    Num {
        unit: u64,
        v: f64,
    },
}

/// Unit keys.
const fn unit(name: &str) -> u64 {
    fnv64(name.as_bytes()) | 1
}
const U_PERCENT: u64 = unit("%");
const U_TIMES: u64 = unit("x");
const U_SECONDS: u64 = unit("s");
const U_ORDINAL: u64 = unit("th");
const U_USD: u64 = unit("usd");
const U_EUR: u64 = unit("eur");
const U_GBP: u64 = unit("gbp");

/// What a claim says, for conflict detection. Words are hashes of their folded forms.
#[derive(Clone, Debug, Default)]
struct Analysis {
    decision: bool,
    /// Key of the subject's content words (sorted), or `None` when no subject was found.
    subject: Option<u64>,
    /// Sorted content words of the whole main clause, negations and typed values set aside.
    pol_words: Vec<u64>,
    /// Key of `pol_words` (0 when empty).
    pol_key: u64,
    /// An odd number of negations in the main clause.
    negated: bool,
    /// Sorted content words of the predicate (the choice, for a decision), values and
    /// qualifiers excluded.
    choice: Vec<u64>,
    /// Words after `for`/`in` in the predicate ("for enterprise", "in the EU"), sorted.
    qualifiers: Vec<u64>,
    /// Typed values of the predicate, past ones ("was June 30") excluded.
    values: Vec<Value>,
    /// Only when asked for (conflicts): the subject's words, and the main clause's content words.
    subject_display: String,
    pol_display: String,
}

/// Role of a token in the main clause.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Other,
    Subject,
    Predicate,
}

/// Buffers reused across claims.
#[derive(Default)]
struct Scratch {
    tk: Toks,
    skip: Vec<bool>,
    role: Vec<Role>,
    used: Vec<bool>,
    qual: Vec<bool>,
}

impl Scratch {
    /// Analyse a claim's own text, given as its lines (`decision`: it is under `## Decisions`).
    ///
    /// 1. Tokens: words, numbers, punctuation; `[src:...]` and emphasis dropped.
    /// 2. Leading labels (`Assumption:`, `Decision:`, `Note:` ...) and decision leads ("We
    ///    decided to", "Team agreed on") are skipped.
    /// 3. The **main clause** ends at `;`, `—`, a sentence end (`.` then a capital), a
    ///    condition (*until*, *unless*, *if*) or what starts a rationale or attribution
    ///    (*because*, *since*, *due to*, *so that*, *given that*, *to avoid*;
    ///    *rationale*/*reason* before `:` or after punctuation; *decided*, *agreed*,
    ///    *approved*, *confirmed* before *by/with/on/in/at/during/upon* or after punctuation;
    ///    *signed off*). The rest is ignored.
    /// 4. **Rejected alternatives** are set aside: ", not X", "(not X)", "rather than X",
    ///    "instead of X", "(was X)", and in decisions "A over B"; up to the next punctuation
    ///    or, after its first word, a preposition or conjunction.
    /// 5. **Subject.** Decisions first try "[we will|do not|...] <verb> <choice> for|in|as|on
    ///    <subject>" with verbs *use, adopt, choose, pick, select, prefer, keep, go with, stay
    ///    with, stick with, switch to, move to, migrate to, standardise on, settle on, opt
    ///    for*. Then every claim tries the first `:` (followed by a space), `=`, or link verb
    ///    (*is, are, was, were, stays, remains, becomes, equals, costs, takes*, "<modal> be",
    ///    "has been", "<moved|set|changed|slipped|pushed|raised|...> to|from"): the subject is
    ///    the text before it when that has 1 to 8 content words. Decisions finally try
    ///    "<choice> for <subject>". The subject key is its content words (stop words and
    ///    value-type nouns or modifiers such as *date, value, current, new* removed, plurals
    ///    folded), sorted.
    /// 6. **Values** in the predicate: dates (ISO, "July 14", "14 July 2026", a capitalised
    ///    month alone), quarters (`Q3`, `Q3 2026`), versions (`v1.2`, `1.2.3`),
    ///    yes/no/true/false/enabled/disabled, numbers with units (`%`, `x`, currency,
    ///    durations in seconds, the next word). A value right after *was, were, from,
    ///    previously, formerly, originally, replacing, superseded* is a past one and ignored.
    /// 7. **Qualifiers**: up to 4 content words after `for`/`in` in the predicate.
    fn analyse<'t>(&mut self, parts: impl Iterator<Item = &'t str>, decision: bool, display: bool) -> Analysis {
        self.tk.clear();
        for p in parts {
            self.tk.push_text(p);
        }
        self.analyse_tokens(decision, display)
    }

    /// [`Scratch::analyse`] of the tokens already in `self.tk`.
    fn analyse_tokens(&mut self, decision: bool, display: bool) -> Analysis {
        let Scratch { tk, skip, role, used, qual } = self;
        let tk = &*tk;
        let n = tk.len();
        for v in [&mut *skip, &mut *used, &mut *qual] {
            v.clear();
            v.resize(n, false);
        }
        role.clear();
        role.resize(n, Role::Other);
        let start = lead(tk);
        let end = clause_end(tk, start);
        mark_alternatives(tk, start, end, decision, skip);
        if !(decision && decision_shape(tk, start, end, skip, role)) {
            if let Some((se, ps)) = generic_split(tk, start, end, skip) {
                role[start..se].fill(Role::Subject);
                role[ps..end].fill(Role::Predicate);
            } else if decision && let Some(f) = (start + 1..end).find(|&i| !skip[i] && tk.is(i, "for")) {
                role[start..f].fill(Role::Predicate);
                let m = (f + 1..end)
                    .find(|&i| tk.has(i, W_QUAL_STOP) || matches!(tk.punct(i), Some(',' | '(')))
                    .unwrap_or(end);
                role[f + 1..m].fill(Role::Subject);
                role[m..end].fill(Role::Predicate);
            } else {
                role[start..end].fill(Role::Predicate);
            }
        }
        let mut a = Analysis { decision, ..Analysis::default() };

        // Subject.
        let mut subject: Vec<u64> = Vec::new();
        let mut any_subject = false;
        for i in start..end {
            if role[i] != Role::Subject || skip[i] || !tk.is_text(i) {
                continue;
            }
            if display && !(a.subject_display.is_empty() && tk.has(i, W_ARTICLE)) {
                if !a.subject_display.is_empty() {
                    a.subject_display.push(' ');
                }
                a.subject_display.push_str(tk.w(i));
            }
            any_subject = true;
            if !tk.has(i, W_STOP | W_NEG | W_NOISE) {
                subject.push(tk.key(i));
            }
        }
        if any_subject && !subject.is_empty() {
            subject.sort_unstable();
            subject.dedup();
            a.subject = Some(words_key(&subject));
        }

        // Values, then qualifiers and choice words in the predicate.
        values(tk, start, end, skip, role, used, &mut a.values);
        let mut i = start;
        while i < end {
            if role[i] == Role::Predicate && !skip[i] && tk.has(i, W_FOR_IN) {
                let mut j = i + 1;
                let mut taken = 0;
                while j < end && taken < 4 && tk.toks[j].kind == Tk::Word && !skip[j] && !used[j] {
                    if tk.has(j, W_ARTICLE) {
                        j += 1;
                        continue;
                    }
                    // A capitalised stop word is a name here ("in the US").
                    if (tk.has(j, W_STOP) && !tk.toks[j].cap) || tk.has(j, W_NEG | W_MONTH) {
                        break;
                    }
                    qual[j] = true;
                    a.qualifiers.push(tk.key(j));
                    taken += 1;
                    j += 1;
                }
                i = j.max(i + 1);
            } else {
                i += 1;
            }
        }
        a.qualifiers.sort_unstable();
        a.qualifiers.dedup();
        let mut negations = 0;
        a.pol_words.reserve_exact(end - start);
        a.choice.reserve_exact(end - start);
        for i in start..end {
            if skip[i] || used[i] || !tk.is_text(i) {
                continue;
            }
            if tk.has(i, W_NEG) {
                negations += 1;
                continue;
            }
            if tk.has(i, W_STOP) {
                continue;
            }
            let k = tk.key(i);
            if role[i] == Role::Predicate && !qual[i] {
                a.choice.push(k);
            }
            a.pol_words.push(k);
            if display && a.pol_words.len() <= 10 {
                if !a.pol_display.is_empty() {
                    a.pol_display.push(' ');
                }
                a.pol_display.push_str(tk.w(i));
            }
        }
        a.negated = negations % 2 == 1;
        a.choice.sort_unstable();
        a.choice.dedup();
        a.pol_words.sort_unstable();
        a.pol_words.dedup();
        a.pol_key = words_key(&a.pol_words);
        a
    }
}

/// Index of the first token after leading punctuation, labels and decision leads.
fn lead(tk: &Toks) -> usize {
    let mut i = 0;
    loop {
        while i < tk.len() && tk.punct(i).is_some() {
            i += 1;
        }
        if tk.has(i, W_LABEL) && tk.punct(i + 1) == Some(':') {
            i += 2;
            continue;
        }
        break;
    }
    // "We (have) decided to", "The team agreed on", "Decided to".
    for k in i..(i + 4).min(tk.len()) {
        if tk.has(k, W_LEAD_VERB) && (i..k).all(|j| tk.has(j, W_LEAD_WORD)) {
            let j = k + 1 + usize::from(tk.has(k + 1, W_LEAD_PARTICLE));
            if j < tk.len() {
                return j;
            }
        }
    }
    i
}

/// End (exclusive) of the main clause that starts at `start`.
fn clause_end(tk: &Toks, start: usize) -> usize {
    let n = tk.len();
    for i in start + 1..n {
        let t = &tk.toks[i];
        match t.kind {
            Tk::Punct(';' | '—' | '–') => return i,
            Tk::Punct('.') => {
                let next = tk.toks.get(i + 1);
                let abbrev = tk.is_text(i - 1) && tk.w(i - 1).chars().count() == 1;
                let ends = next.is_none_or(|t| t.space && (t.cap || matches!(t.kind, Tk::Punct(_))));
                if ends && !abbrev {
                    return i;
                }
            }
            Tk::Word if t.flags & (W_CUT | W_REASON | W_ATTRIBUTION | W_PAIR_CUT) != 0 => {
                let after_punct = matches!(tk.punct(i - 1), Some(',' | '(' | '.'));
                let cut = if t.flags & W_CUT != 0 {
                    true
                } else if t.flags & W_REASON != 0 {
                    after_punct || tk.punct(i + 1) == Some(':')
                } else if t.flags & W_ATTRIBUTION != 0 {
                    after_punct || tk.is_any(i + 1, &["by", "with", "on", "in", "at", "during", "upon"])
                } else {
                    match tk.w(i) {
                        "due" => tk.is(i + 1, "to"),
                        "so" | "given" => tk.is(i + 1, "that"),
                        "to" => tk.is(i + 1, "avoid"),
                        "signed" => tk.is(i + 1, "off"),
                        _ => false,
                    }
                };
                if cut {
                    return i;
                }
            }
            _ => {}
        }
    }
    n
}

/// Set aside rejected alternatives and past values in parentheses: the marker words and the
/// phrase after them, up to punctuation (`,;):.`) or, after its first word, a preposition or
/// conjunction.
fn mark_alternatives(tk: &Toks, start: usize, end: usize, decision: bool, skip: &mut [bool]) {
    let mut i = start;
    while i < end {
        // (first skipped token, first token of the alternative itself)
        let found = match tk.toks[i].kind {
            Tk::Punct(',' | '(') if tk.is(i + 1, "not") => Some((i + 1, i + 2)),
            Tk::Punct('(') if tk.has(i + 1, W_PAST) => Some((i + 1, i + 2)),
            Tk::Word => {
                let w = tk.w(i);
                if (w == "rather" && tk.is(i + 1, "than")) || (w == "instead" && tk.is(i + 1, "of")) {
                    Some((i, i + 2))
                } else if decision
                    && w == "over"
                    && i > start
                    && tk.toks[i - 1].kind == Tk::Word
                    && tk.toks.get(i + 1).is_some_and(|t| t.kind == Tk::Word)
                {
                    Some((i, i + 1))
                } else {
                    None
                }
            }
            _ => None,
        };
        let Some((from, body)) = found else {
            i += 1;
            continue;
        };
        let mut j = from;
        while j < end {
            let stop = match tk.toks[j].kind {
                Tk::Punct(c) => matches!(c, ',' | ';' | ')' | '.' | ':'),
                Tk::Word => j > body && tk.has(j, W_ALT_STOP),
                Tk::Num => false,
            };
            if j >= body && stop {
                break;
            }
            skip[j] = true;
            j += 1;
        }
        i = j.max(i + 1);
    }
}

/// "<lead> <decision verb> <choice> <prep> <subject> [<qualifiers>]": sets roles and
/// returns true when it matches.
fn decision_shape(tk: &Toks, start: usize, end: usize, skip: &[bool], role: &mut [Role]) -> bool {
    let mut i = start;
    while i < end && i < start + 5 && tk.has(i, W_DEC_PREFIX | W_NEG) {
        i += 1;
    }
    if i >= end || tk.toks[i].kind != Tk::Word {
        return false;
    }
    let particle = [(W_DEC_WITH, "with"), (W_DEC_TO, "to"), (W_DEC_ON, "on"), (W_DEC_FOR, "for")]
        .into_iter()
        .find(|&(f, p)| tk.has(i, f) && tk.is(i + 1, p));
    let choice_start = if particle.is_some() {
        i + 2
    } else if tk.has(i, W_DEC_VERB) {
        i + 1
    } else {
        return false;
    };
    if choice_start >= end {
        return false;
    }
    let prep = (choice_start + 1..end).find(|&k| !skip[k] && tk.has(k, W_SUBJECT_PREP));
    role[choice_start..end].fill(Role::Predicate);
    if let Some(p) = prep {
        let m = (p + 1..end)
            .find(|&k| tk.has(k, W_QUAL_STOP) || matches!(tk.punct(k), Some(',' | '(' | ':')))
            .unwrap_or(end);
        role[p] = Role::Other;
        role[p + 1..m].fill(Role::Subject);
    }
    true
}

/// The first `:`/`=`/link verb after at least one token: (end of subject, start of predicate),
/// when the subject has 1 to 8 content words.
fn generic_split(tk: &Toks, start: usize, end: usize, skip: &[bool]) -> Option<(usize, usize)> {
    let mut found = None;
    for (i, t) in tk.toks.iter().enumerate().take(end).skip(start + 1) {
        if skip[i] {
            continue;
        }
        found = match t.kind {
            Tk::Punct(':') if tk.toks.get(i + 1).is_none_or(|t| t.space) => Some((i, i + 1)),
            Tk::Punct('=') => Some((i, i + 1)),
            Tk::Word if t.flags & (W_LINK1 | W_LINK_BE | W_HAVE | W_LINK_TO) != 0 => {
                if t.flags & W_LINK1 != 0 {
                    Some((i, i + 1))
                } else if (t.flags & W_LINK_BE != 0 && tk.is(i + 1, "be"))
                    || (t.flags & W_HAVE != 0 && tk.is(i + 1, "been"))
                    || (t.flags & W_LINK_TO != 0 && tk.is(i + 1, "to"))
                {
                    Some((i, i + 2))
                } else if t.flags & W_LINK_TO != 0 && tk.is(i + 1, "from") {
                    // "moved from June 30 to July 14": the predicate keeps `from` (a past value).
                    Some((i, i + 1))
                } else {
                    None
                }
            }
            _ => None,
        };
        if found.is_some() {
            break;
        }
    }
    let (se, ps) = found?;
    let words = (start..se).filter(|&k| !skip[k] && tk.is_text(k) && !tk.has(k, W_STOP | W_NEG)).count();
    (1..=8).contains(&words).then_some((se, ps.min(end)))
}

/// Typed values among the predicate tokens; marks the tokens they use.
fn values(tk: &Toks, start: usize, end: usize, skip: &[bool], role: &[Role], used: &mut [bool], out: &mut Vec<Value>) {
    let ok = |k: usize| k < end && role[k] == Role::Predicate && !skip[k];
    let first_pred = (start..end).find(|&k| ok(k) && tk.is_text(k));
    let mut i = start;
    while i < end {
        if !ok(i) || !tk.is_text(i) {
            i += 1;
            continue;
        }
        let Some((value, next)) = value_at(tk, i, end, first_pred == Some(i)) else {
            i += 1;
            continue;
        };
        let past = i > start && {
            let mut p = i - 1;
            while p > start && matches!(tk.punct(p), Some('$' | '€' | '£' | '(')) {
                p -= 1;
            }
            tk.has(p, W_HISTORY)
        };
        used[i..next].fill(true);
        if !past {
            out.push(value);
        }
        i = next;
    }
}

fn version(s: &str) -> Option<Value> {
    let mut parts = [0u32; 4];
    let mut n = 0;
    for p in s.split('.') {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if n < 4 {
            parts[n] = p.parse::<u32>().unwrap_or(u32::MAX);
            n += 1;
        }
    }
    Some(Value::Version { parts, n: n as u8 })
}

/// The value starting at token `i` (a word or number), with the index after it.
fn value_at(tk: &Toks, i: usize, end: usize, first: bool) -> Option<(Value, usize)> {
    let w = tk.w(i);
    let tight = |k: usize| k < end && !tk.toks[k].space;
    let num_at = |k: usize| (k < end && tk.toks[k].kind == Tk::Num).then(|| tk.w(k));
    let year_at = |k: usize| {
        num_at(k).filter(|y| y.len() == 4 && y.bytes().all(|b| b.is_ascii_digit())).and_then(|y| y.parse::<u16>().ok())
    };
    let day_at = |k: usize| {
        num_at(k).and_then(|d| {
            let digits = d.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 || digits > 2 || !matches!(&d[digits..], "" | "st" | "nd" | "rd" | "th") {
                return None;
            }
            d[..digits].parse::<u8>().ok().filter(|d| (1..=31).contains(d))
        })
    };
    match tk.toks[i].kind {
        Tk::Word => {
            if let Some(m) = tk.month(i) {
                let mut k = i + 1;
                if tk.punct(k) == Some('.') && tight(k) {
                    k += 1; // "Jul."
                }
                let d = day_at(k);
                if d.is_some() {
                    k += 1;
                }
                let comma = usize::from(tk.punct(k) == Some(','));
                let y = year_at(k + comma);
                if y.is_some() {
                    k += comma + 1;
                }
                let accept = d.is_some() || y.is_some() || (tk.toks[i].cap && w.len() > 3);
                return accept.then_some((Value::Date { y: y.unwrap_or(0), m, d: d.unwrap_or(0) }, k));
            }
            let b = w.as_bytes();
            if b.len() == 2 && b[0] == b'q' && matches!(b[1], b'1'..=b'4') {
                let y = year_at(i + 1);
                return Some((Value::Quarter { q: b[1] - b'0', y: y.unwrap_or(0) }, i + 1 + usize::from(y.is_some())));
            }
            if b.len() > 1 && b[0] == b'v' && b[1].is_ascii_digit() {
                return version(&w[1..]).map(|v| (v, i + 1));
            }
            let alone = first && (i + 1 >= end || tk.punct(i + 1).is_some());
            let b = match w {
                "true" | "enabled" => Some(true),
                "false" | "disabled" => Some(false),
                "yes" if first => Some(true),
                "no" if alone => Some(false),
                "on" if alone && i + 1 >= end => Some(true),
                "off" if alone && i + 1 >= end => Some(false),
                _ => None,
            };
            b.map(|b| (Value::Bool(b), i + 1))
        }
        Tk::Num => {
            // ISO dates: 2026-06-30, 2026/06/30, 2026-06.
            if let Some(y) = year_at(i)
                && matches!(tk.punct(i + 1), Some('-' | '/'))
                && tight(i + 1)
                && tight(i + 2)
                && let Some(m) = num_at(i + 2).and_then(|m| m.parse::<u8>().ok()).filter(|m| (1..=12).contains(m))
            {
                if matches!(tk.punct(i + 3), Some('-' | '/'))
                    && tight(i + 3)
                    && tight(i + 4)
                    && let Some(d) = day_at(i + 4)
                {
                    return Some((Value::Date { y, m, d }, i + 5));
                }
                return Some((Value::Date { y, m, d: 0 }, i + 3));
            }
            if w.bytes().filter(|&b| b == b'.').count() >= 2 {
                return version(w).map(|v| (v, i + 1));
            }
            // 14 July (2026).
            if let Some(d) = day_at(i)
                && let Some(m) = tk.month(i + 1).filter(|_| i + 1 < end)
            {
                let y = year_at(i + 2);
                return Some((Value::Date { y: y.unwrap_or(0), m, d }, i + 2 + usize::from(y.is_some())));
            }
            let (v, suffix) = parse_num(w)?;
            let (mut v, suffix) = scaled(v, suffix);
            let mut unit_key = 0;
            match suffix {
                "" => {}
                "x" => unit_key = U_TIMES,
                "st" | "nd" | "rd" | "th" => unit_key = U_ORDINAL,
                s => match duration(s) {
                    Some(f) => {
                        v *= f;
                        unit_key = U_SECONDS;
                    }
                    None => unit_key = fold_hash(s),
                },
            }
            if tight(i) {
                match tk.punct(i - 1) {
                    Some('$') => unit_key = U_USD,
                    Some('€') => unit_key = U_EUR,
                    Some('£') => unit_key = U_GBP,
                    _ => {}
                }
            }
            let mut k = i + 1;
            if tk.punct(k) == Some('%') && tight(k) {
                unit_key = U_PERCENT;
                k += 1;
            } else if tk.punct(k) == Some('×') {
                unit_key = U_TIMES;
                k += 1;
            }
            // A scale word, then a unit word, after the number.
            let is_currency = matches!(unit_key, U_USD | U_EUR | U_GBP);
            if k < end && (unit_key == 0 || is_currency) && tk.toks[k].kind == Tk::Word {
                let scale = match tk.w(k) {
                    "k" | "thousand" => 1e3,
                    "million" | "mn" => 1e6,
                    "bn" | "billion" => 1e9,
                    _ => 0.0,
                };
                if scale > 0.0 {
                    v *= scale;
                    k += 1;
                }
            }
            if k < end && tk.toks[k].kind == Tk::Word {
                let u = tk.w(k);
                if unit_key == 0 {
                    if let Some(f) = duration(u) {
                        v *= f;
                        unit_key = U_SECONDS;
                        k += 1;
                    } else if let Some(c) = currency(u) {
                        unit_key = c;
                        k += 1;
                    } else if matches!(u, "percent" | "pct") {
                        unit_key = U_PERCENT;
                        k += 1;
                    } else if matches!(u, "x" | "times") {
                        unit_key = U_TIMES;
                        k += 1;
                    } else if !tk.has(k, W_STOP | W_NEG | W_MONTH | W_HISTORY) {
                        unit_key = tk.key(k);
                        k += 1;
                    }
                } else if currency(u) == Some(unit_key) {
                    k += 1; // "$10k USD"
                }
            }
            Some((Value::Num { unit: unit_key, v }, k))
        }
        Tk::Punct(_) => None,
    }
}

/// Seconds per unit for duration words (months and years are not converted).
fn duration(u: &str) -> Option<f64> {
    Some(match u {
        "ms" | "msec" | "millisecond" | "milliseconds" => 1e-3,
        "s" | "sec" | "secs" | "second" | "seconds" => 1.0,
        "min" | "mins" | "minute" | "minutes" => 60.0,
        "h" | "hr" | "hrs" | "hour" | "hours" => 3600.0,
        "d" | "day" | "days" => 86400.0,
        "w" | "wk" | "wks" | "week" | "weeks" => 604800.0,
        _ => return None,
    })
}

fn currency(u: &str) -> Option<u64> {
    Some(match u {
        "usd" | "dollar" | "dollars" => U_USD,
        "eur" | "euro" | "euros" => U_EUR,
        "gbp" | "pound" | "pounds" => U_GBP,
        _ => return None,
    })
}

/// Whether two claims' typed values cannot both hold. Per kind — dates, quarters, versions,
/// booleans — when both claims have values of that kind and no value of one is compatible
/// with a value of the other (dates agree on the fields both give; versions when one is a
/// prefix of the other). Numbers are compared per unit the same way; when the two claims
/// share no unit, each has exactly one number and one of them has no unit, those two are
/// compared.
fn values_incompatible(a: &[Value], b: &[Value]) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    fn compatible(x: &Value, y: &Value) -> bool {
        let agree = |p: u16, q: u16| p == 0 || q == 0 || p == q;
        match (x, y) {
            (Value::Date { y: y1, m: m1, d: d1 }, Value::Date { y: y2, m: m2, d: d2 }) => {
                agree(*y1, *y2) && agree(*m1 as u16, *m2 as u16) && agree(*d1 as u16, *d2 as u16)
            }
            (Value::Quarter { q: q1, y: y1 }, Value::Quarter { q: q2, y: y2 }) => q1 == q2 && agree(*y1, *y2),
            (Value::Version { parts: p, n: np }, Value::Version { parts: q, n: nq }) => {
                let m = (*np).min(*nq) as usize;
                p[..m] == q[..m]
            }
            (Value::Bool(p), Value::Bool(q)) => p == q,
            (Value::Num { v: p, .. }, Value::Num { v: q, .. }) => (p - q).abs() <= 1e-9 * p.abs().max(q.abs()).max(1.0),
            _ => false,
        }
    }
    fn class(v: &Value) -> u8 {
        match v {
            Value::Date { .. } => 0,
            Value::Quarter { .. } => 1,
            Value::Version { .. } => 2,
            Value::Bool(_) => 3,
            Value::Num { .. } => 4,
        }
    }
    fn of(s: &[Value], c: u8) -> impl Iterator<Item = &Value> {
        s.iter().filter(move |v| class(v) == c)
    }
    fn unit(v: &Value) -> u64 {
        match v {
            Value::Num { unit, .. } => *unit,
            _ => 0,
        }
    }
    for c in 0..4 {
        if of(a, c).next().is_some()
            && of(b, c).next().is_some()
            && !of(a, c).any(|x| of(b, c).any(|y| compatible(x, y)))
        {
            return true;
        }
    }
    let mut shared = false;
    for x in of(a, 4) {
        let u = unit(x);
        if !of(b, 4).any(|y| unit(y) == u) {
            continue;
        }
        shared = true;
        if !of(a, 4).filter(|x| unit(x) == u).any(|x| of(b, 4).filter(|y| unit(y) == u).any(|y| compatible(x, y))) {
            return true;
        }
    }
    if !shared
        && let ([x], [y]) = (&of(a, 4).collect::<Vec<_>>()[..], &of(b, 4).collect::<Vec<_>>()[..])
        && (unit(x) == 0 || unit(y) == 0)
        && !compatible(x, y)
    {
        return true;
    }
    false
}

// ---------------------------------------------------------------------------------------------
// Converged state.

enum Side {
    Target,
    Source,
    /// A line added by a resolution (keep-both on the next action).
    Extra(String),
}

struct Entry<'a> {
    side: Side,
    block: usize,
    /// Provenance markers from duplicates, appended to the claim's own text.
    extra: Vec<&'a str>,
}

/// Add to entry `e` (whose block carries `own` markers) the markers it lacks.
fn union_provenance<'a>(e: &mut Entry<'a>, own: &[&'a str], markers: &[&'a str]) {
    for m in markers {
        if !own.contains(m) && !e.extra.contains(m) {
            e.extra.push(m);
        }
    }
}

/// Writes pieces of one section, with a blank line before a piece that had one where it came
/// from, and around anything that is not a list item.
struct Writer<'o> {
    o: &'o mut String,
    prev_list: Option<bool>,
}

impl Writer<'_> {
    fn separate(&mut self, list: bool, blank_before: bool) {
        match self.prev_list {
            None => self.o.push('\n'),
            Some(prev) if blank_before || !prev || !list => self.o.push('\n'),
            _ => {}
        }
        self.prev_list = Some(list);
    }

    /// A block as written, dedented to its first line (so that it cannot become part of the
    /// item before it; unless that would turn a paragraph into a heading), with `extra`
    /// markers appended to its own text.
    fn block(&mut self, doc: &Doc, b: &Block, extra: &[&str], blank_before: bool) {
        self.separate(b.kind == Kind::Item, blank_before);
        let first = doc.lines[b.start].1;
        let mut base = indent_of(first);
        if heading_level(&first[base..]).is_some() {
            base = 0;
        }
        // Nested items, fences, lines after a blank line and lines that would read as headings
        // stay indented, so they stay what they are, in the block.
        // Code inside a fence is literal.
        let (mut blank, mut code) = (false, is_fence(first));
        for i in b.start + 1..=b.end {
            let l = doc.lines[i].1;
            if code {
                code = !is_fence(l);
                continue;
            }
            if l.trim().is_empty() {
                blank = true;
                continue;
            }
            if blank || distill::list_marker(l).is_some() || is_fence(l) || heading_level(&l[indent_of(l)..]).is_some()
            {
                base = base.min(indent_of(l).saturating_sub(1));
            }
            code = is_fence(l);
            blank = false;
        }
        for i in b.start..=b.end {
            let l = doc.lines[i].1;
            let cut = indent_of(l).min(base);
            if i == b.own_end && !extra.is_empty() {
                self.o.push_str(l[cut..].trim_end());
                for m in extra {
                    self.o.push(' ');
                    self.o.push_str(m);
                }
            } else {
                self.o.push_str(&l[cut..]);
            }
            self.o.push('\n');
        }
        if let Some(f) = b.open_fence {
            self.o.push_str(f);
            self.o.push('\n');
        }
    }

    /// A custom replacement in the place of target block `b`: a list item when `b` was one.
    fn custom(&mut self, text: &str, b: &Block) {
        let text = text.trim();
        let item = b.kind == Kind::Item;
        self.separate(item || distill::list_marker(text).is_some(), b.blank_before);
        for (k, l) in text.lines().enumerate() {
            let l = l.trim_end();
            if !item || (k == 0 && distill::list_marker(l).is_some_and(|(i, _)| i == 0)) {
                self.o.push_str(l);
            } else if k == 0 {
                self.o.push_str("- ");
                self.o.push_str(l);
            } else if !l.is_empty() {
                self.o.push_str("  ");
                self.o.push_str(l.trim_start());
            }
            self.o.push('\n');
        }
    }
}

fn render(title: &str, secs: &Sections, out: &[Vec<Entry>], t: &Doc, s: &Doc, fate: &Fate) -> String {
    let mut o =
        String::with_capacity(t.lines.iter().chain(s.lines.iter()).map(|(_, l)| l.len() + 1).sum::<usize>() + 64);
    o.push_str("# ");
    o.push_str(title);
    o.push('\n');
    for (sec, entries) in out.iter().enumerate() {
        if sec != PREAMBLE {
            o.push_str("\n## ");
            o.push_str(&secs.names[sec]);
            o.push('\n');
        }
        let mut w = Writer { o: &mut o, prev_list: None };
        for e in entries {
            match &e.side {
                Side::Target => {
                    let b = &t.blocks[e.block];
                    match fate.replaced.get(&e.block) {
                        None => w.block(t, b, &e.extra, b.blank_before),
                        Some(rs) => {
                            for r in rs {
                                match r {
                                    Replacement::Source(si) => w.block(s, &s.blocks[*si], &[], b.blank_before),
                                    Replacement::Custom(text) => w.custom(text, b),
                                }
                            }
                        }
                    }
                }
                Side::Source => {
                    if fate.source_kept(e.block) {
                        let b = &s.blocks[e.block];
                        w.block(s, b, &e.extra, b.blank_before);
                    }
                }
                Side::Extra(text) => {
                    w.separate(true, false);
                    w.o.push_str("- ");
                    w.o.push_str(text.trim());
                    w.o.push('\n');
                }
            }
        }
    }
    o
}

// ---------------------------------------------------------------------------------------------
// Ids.

/// `conf-` + 16 hex digits of FNV-1a 64 over the kind, the subject key and both normalised
/// texts' hashes.
fn conflict_id(kind: ConflictKind, subject: u64, source: u128, target: u128) -> String {
    let mut h = fnv64(kind.as_str().as_bytes());
    for part in [&subject.to_le_bytes()[..], &source.to_le_bytes(), &target.to_le_bytes()] {
        h = fnv64_from(h, &[0xff]);
        h = fnv64_from(h, part);
    }
    format!("conf-{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(id: &str, status: Status, next: &str, body: &str) -> MergeSide {
        MergeSide { id: id.into(), name: "X".into(), status, next_action: next.into(), distilled_state: body.into() }
    }

    fn state(decisions: &str, findings: &str) -> String {
        format!(
            "# Pricing\n\n## Situation\n\nPricing refresh.\n\n## Decisions\n\n{decisions}\n## Findings\n\n{findings}\n## Current State\n\nDraft. [src:art_01a]\n\n## Next Steps\n\n- Compare.\n"
        )
    }

    fn run(s: &str, t: &str) -> MergePlan {
        merge(&side("dos_s", Status::Active, "Go.", s), &side("dos_t", Status::Active, "Go.", t), &[]).unwrap()
    }

    fn kinds(p: &MergePlan) -> Vec<(ConflictKind, String)> {
        p.unresolved.iter().map(|c| (c.kind, c.subject.clone())).collect()
    }

    fn an(text: &str, decision: bool) -> Analysis {
        Scratch::default().analyse([text].into_iter(), decision, true)
    }

    fn key(words: &[&str]) -> u64 {
        let mut k: Vec<u64> = words.iter().map(|w| fold_hash(w)).collect();
        k.sort_unstable();
        words_key(&k)
    }

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

    #[test]
    fn subjects_values_and_polarity() {
        let a = an("Launch date: July 14, 2026 [src:art_01a#L1-L2]", false);
        assert_eq!((a.subject, a.subject_display.as_str()), (Some(key(&["launch"])), "launch date"));
        assert_eq!(a.values, vec![Value::Date { y: 2026, m: 7, d: 14 }]);
        let a = an("Launch moved to July 14 (was June 30) because legal review slipped.", false);
        assert_eq!(a.subject, Some(key(&["launch"])));
        assert_eq!(a.values, vec![Value::Date { y: 0, m: 7, d: 14 }]);
        let a = an("p95 latency is 250 ms after the fix", false);
        assert_eq!(a.subject, Some(key(&["latency", "p95"])));
        assert_eq!(a.values, vec![Value::Num { unit: U_SECONDS, v: 0.25 }]);
        let a = an("Budget: $50k", false);
        assert_eq!(a.values, vec![Value::Num { unit: U_USD, v: 50000.0 }]);
        assert_eq!(an("The budget is 50,000 dollars.", false).values, a.values);
        let a = an("Use Postgres, not SQLite, for the event store because of joins. Decided by Alice.", true);
        assert_eq!(a.subject_display, "event store");
        assert_eq!(a.choice, vec![fold_hash("postgres")]);
        assert!(!a.negated);
        let a = an("We will not ship the beta to EU customers.", true);
        assert!(a.negated);
        assert_eq!(a.pol_display, "ship beta eu customers");
        assert_eq!(a.pol_key, key(&["ship", "beta", "eu", "customer"]));
        let a = an("SSO required for enterprise: no", false);
        assert_eq!(a.subject, Some(key(&["sso", "required", "enterprise"])));
        assert_eq!(a.values, vec![Value::Bool(false)]);
        let a = an("Target runtime: Node v20.1", false);
        assert_eq!(a.values, vec![Value::Version { parts: [20, 1, 0, 0], n: 2 }]);
        assert_eq!(an("Launch is July 14 in the US", false).qualifiers, vec![fold_hash("us")]);
        let a = an("Discount cap is 20%, not 25%", false);
        assert_eq!(a.values, vec![Value::Num { unit: U_PERCENT, v: 20.0 }]);
        assert_eq!(an("Launch: Q3 2026", false).values, vec![Value::Quarter { q: 3, y: 2026 }]);
        assert_eq!(an("Renewal date is 2026-06-30.", false).values, vec![Value::Date { y: 2026, m: 6, d: 30 }]);
        // Plurals, case and number formats meet.
        assert_eq!(an("Renewals are 10k", false).subject, an("renewal is 10,000", false).subject);
    }

    #[test]
    fn values_compare_by_kind_and_unit() {
        let v = |s: &str| an(s, false).values;
        assert!(values_incompatible(&v("X is July 14"), &v("X is June 30")));
        assert!(!values_incompatible(&v("X is July 14"), &v("X is 14 July 2026")));
        assert!(!values_incompatible(&v("X is $10k"), &v("X is $10,000")));
        assert!(values_incompatible(&v("X is 5 engineers"), &v("X is 6 engineers")));
        assert!(values_incompatible(&v("X is 5"), &v("X is 6 engineers")));
        assert!(!values_incompatible(&v("X is 3x annual over 12 months"), &v("X is 3x annual")));
        assert!(!values_incompatible(&v("X is 24 months"), &v("X is 2 years")));
        assert!(values_incompatible(&v("X: yes"), &v("X: no")));
        assert!(!values_incompatible(&v("X is v1.2"), &v("X is v1.2.3")));
        assert!(values_incompatible(&v("X is v1.2"), &v("X is v1.3")));
        assert!(!values_incompatible(&v("X is 250ms"), &v("X is 0.25 seconds")));
        assert!(!values_incompatible(&v("X is 16.2"), &v("X is 16.20")));
    }

    #[test]
    fn contradictory_decisions_are_detected() {
        let t = state("- Use Postgres for the event store because joins. Decided by Alice. [src:art_01a#L1-L2]\n", "");
        let s =
            state("- Use SQLite for the event store because it is simple. Decided by Bob. [src:art_01b#L3-L4]\n", "");
        let p = run(&s, &t);
        assert_eq!(kinds(&p), vec![(ConflictKind::ContradictoryDecision, "event store".into())]);
        assert_eq!(p.unresolved[0].target.line, 9);
        assert_eq!(p.unresolved[0].source.provenance, vec!["[src:art_01b#L3-L4]".to_string()]);
        // While unresolved, only the target's side is in the converged state.
        assert!(p.converged_state.contains("Use Postgres"));
        assert!(!p.converged_state.contains("Use SQLite"));
    }

    #[test]
    fn restatements_and_duplicates_are_not_conflicts() {
        let t = state(
            "- Use Postgres for the event store because joins. Decided by Alice. [src:art_01a#L1-L2]\n",
            "- Budget: $50k [src:art_01a#L5-L5]\n- Churn on monthly deals is 3x annual. [src:art_01a#L7-L8]\n",
        );
        let s = state(
            "- Event store: Postgres (decided by Alice, 2026-06-12). [src:art_01c]\n",
            "- budget:  $50K   [src:art_01b#L9-L9]\n- The budget is 50,000 dollars. [src:art_01d]\n- Churn on monthly deals is 3x annual, measured over 12 months. [src:art_01e]\n",
        );
        let p = run(&s, &t);
        assert_eq!(kinds(&p), vec![]);
        // Exact duplicate merged with both markers; restatements kept.
        assert!(
            p.converged_state.contains("- Budget: $50k [src:art_01a#L5-L5] [src:art_01b#L9-L9]\n"),
            "{}",
            p.converged_state
        );
        assert!(p.converged_state.contains("The budget is 50,000 dollars."));
    }

    #[test]
    fn blocks_are_items_with_their_nested_lines_paragraphs_headings_and_code() {
        let body = "# T\n\nIntro line.\n\n## Findings\n\n- A claim [src:art_01a]\n  continued.\n  - nested [src:art_01b]\n\n  loose paragraph of A\n- B\n\nA paragraph\non two lines.\n\n### Sub\n\n```\n- not an item\n```\n\n## Extra\n\n1. numbered\n";
        let mut secs = Sections::new();
        let doc = parse(body, &mut secs, "target", &mut Scratch::default(), eligible).unwrap();
        let shape: Vec<(usize, Kind, u32, u32, u32)> = doc
            .blocks
            .iter()
            .map(|b| (b.sec, b.kind, doc.lines[b.start].0, doc.lines[b.own_end].0, doc.lines[b.end].0))
            .collect();
        assert_eq!(
            shape,
            vec![
                (PREAMBLE, Kind::Paragraph, 3, 3, 3),
                (3, Kind::Item, 7, 8, 11),
                (3, Kind::Item, 12, 12, 12),
                (3, Kind::Paragraph, 14, 15, 15),
                (3, Kind::Heading, 17, 17, 17),
                (3, Kind::Code, 19, 19, 21),
                (6, Kind::Item, 25, 25, 25),
            ]
        );
        assert_eq!(doc.title, Some("T"));
        assert_eq!(doc.blocks[1].markers, vec!["[src:art_01a]", "[src:art_01b]"]);
        assert!(doc.blocks[1].an.is_some() && doc.blocks[5].an.is_none(), "code is not a claim");
        assert_eq!(secs.names[6], "Extra");
        // Rendering the parsed state again changes nothing but the canonical layout.
        let plan =
            merge(&side("dos_s", Status::Active, "Go.", "# S\n"), &side("dos_t", Status::Active, "Go.", body), &[])
                .unwrap();
        assert!(
            plan.converged_state
                .starts_with("# T\n\nIntro line.\n\n## Situation\n\n## Decisions\n\n## Findings\n\n- A claim")
        );
        assert!(
            plan.converged_state
                .contains("  - nested [src:art_01b]\n\n  loose paragraph of A\n- B\n\nA paragraph\non two lines.\n")
        );
        assert!(
            plan.converged_state.ends_with("## Next Steps\n\n## Extra\n\n1. numbered\n"),
            "{}",
            plan.converged_state
        );
    }

    #[test]
    fn custom_replacements_render_as_the_claim_they_replace() {
        let t = state("", "- Launch date: June 30. [src:art_01a]\n- Other. [src:art_01c]\n");
        let s = state("", "- Launch date: July 14. [src:art_01b]\n");
        let (ss, ts) = (side("dos_s", Status::Active, "Go.", &s), side("dos_t", Status::Active, "Go.", &t));
        let id = merge(&ss, &ts, &[]).unwrap().unresolved[0].id.clone();
        let custom =
            Choice::Custom("Launch date: July 14 in the US,\nJune 30 elsewhere. [src:art_01a] [src:art_01b]".into());
        let p = merge(&ss, &ts, &[Resolution { conflict_id: id, choice: custom }]).unwrap();
        assert!(
            p.converged_state.contains("## Findings\n\n- Launch date: July 14 in the US,\n  June 30 elsewhere. [src:art_01a] [src:art_01b]\n- Other. [src:art_01c]\n"),
            "{}",
            p.converged_state
        );
    }

    #[test]
    fn documented_examples_hold() {
        let conflict = |s: &str, t: &str, decision: bool| {
            let (a, b) = (an(s, decision), an(t, decision));
            let by_subject = (a.subject.is_some() && a.subject == b.subject).then(|| subject_conflict(&a, &b));
            let by_words = (a.pol_key != 0 && a.pol_key == b.pol_key).then(|| same_words_conflict(&a, &b));
            by_subject.flatten().or(by_words.flatten())
        };
        use ConflictKind::{ContradictoryDecision as D, IncompatibleValue as V};
        assert_eq!(conflict("SSO is required", "SSO is not required for enterprise", false), Some(V));
        assert_eq!(
            conflict("Monthly deals churn 3x annual ones", "Monthly deals churn 4x annual ones", false),
            Some(V)
        );
        assert_eq!(conflict("Headcount: 6 engineers", "Headcount is 5", false), Some(V));
        assert_eq!(conflict("Launch is July 14 in the US", "Launch is July 21 in the EU", false), None);
        assert_eq!(conflict("Use Postgres for the event store", "Use SQLite for the event store", true), Some(D));
        assert_eq!(conflict("Use Postgres for the event store", "Event store: Postgres 16 on RDS", true), None);
        assert_eq!(
            conflict(
                "We will ship the beta to EU customers in Q3",
                "We will not ship the beta to EU customers until the DPA is signed",
                true
            ),
            Some(D)
        );
        assert_eq!(conflict("Launch moved to July 14 (was June 30)", "Launch date: July 14", false), None);
        assert_eq!(conflict("Launch moved from June 30 to July 14", "Launch date: June 30", false), Some(V));
        assert_eq!(conflict("Cap is 25%, not 20%", "Cap: 20%", false), Some(V));
    }

    #[test]
    fn lifecycle_table() {
        use Status::*;
        assert_eq!(lifecycle(Active, Blocked), Some(Blocked));
        assert_eq!(lifecycle(Waiting, Active), Some(Waiting));
        assert_eq!(lifecycle(Resolved, Archived), Some(Archived));
        assert_eq!(lifecycle(Archived, Resolved), Some(Resolved));
        assert_eq!(lifecycle(Active, Resolved), None);
        assert_eq!(lifecycle(Archived, Blocked), None);
    }

    #[test]
    fn next_actions() {
        assert!(!material_next_action(
            "Compare revised pricing scenarios with sales feedback.",
            "Compare pricing scenarios with the sales team's feedback"
        ));
        assert!(material_next_action("Email Sales the revised deck", "Benchmark Postgres replication lag"));
        assert!(material_next_action("Send the deck by June 30", "Send the deck by July 14"));
        assert!(!material_next_action("Send the deck", "Send the deck to Sales by June 30"));
        assert!(!material_next_action("", "Anything"));
    }

    #[test]
    fn next_steps_first_item_stands_in_for_an_empty_next_action() {
        let t = state("", "");
        let s = state("", "").replace("- Compare.", "- Call the vendor about the renewal quote.");
        let p = merge(&side("dos_s", Status::Active, "", &s), &side("dos_t", Status::Active, "", &t), &[]).unwrap();
        assert_eq!(kinds(&p), vec![(ConflictKind::DivergentNextAction, "next action".into())]);
        assert_eq!((p.unresolved[0].source.line, p.unresolved[0].target.line), (19, 19));
        assert_eq!(p.converged_next_action, "Compare.");
    }

    #[test]
    fn unknown_and_double_resolutions_are_invalid_input() {
        let t = state("- Use Postgres for the event store. Decided by Alice because joins. [src:art_01a]\n", "");
        let s = state("- Use SQLite for the event store. Decided by Bob because simple. [src:art_01b]\n", "");
        let (ss, ts) = (side("dos_s", Status::Active, "Go.", &s), side("dos_t", Status::Active, "Go.", &t));
        let bad = [Resolution { conflict_id: "conf-0000000000000000".into(), choice: Choice::KeepBoth }];
        let err = merge(&ss, &ts, &bad).unwrap_err();
        assert!(err.to_string().contains("conf-0000000000000000"), "{err}");
        let id = merge(&ss, &ts, &[]).unwrap().unresolved[0].id.clone();
        let twice = [
            Resolution { conflict_id: id.clone(), choice: Choice::KeepBoth },
            Resolution { conflict_id: id, choice: Choice::KeepSource },
        ];
        assert!(merge(&ss, &ts, &twice).is_err());
        assert!(merge(&ts, &ts, &[]).is_err(), "a Dossier merged into itself");
    }

    #[test]
    fn frontmatter_never_closed_is_invalid_input() {
        let t = side("dos_t", Status::Active, "Go.", "---\nid: x\n# T\n");
        assert!(merge(&side("dos_s", Status::Active, "Go.", "# S\n"), &t, &[]).is_err());
    }

    #[test]
    fn ids_are_fnv1a_and_shaped() {
        // FNV-1a 64 of "" is the offset basis; of "a" the published test vector.
        assert_eq!(fnv64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv64(b"a"), 0xaf63_dc4c_8601_ec8c);
        let id = conflict_id(ConflictKind::IncompatibleValue, 1, 2, 3);
        assert!(id.starts_with("conf-") && id.len() == 21, "{id}");
        assert_ne!(id, conflict_id(ConflictKind::IncompatibleValue, 1, 3, 2));
        assert_eq!(norm_hash("Budget: $10k [src:art_01a]"), norm_hash("budget  10,000"));
        assert_ne!(norm_hash("Budget: $10k"), norm_hash("Budget: $12k"));
    }
}

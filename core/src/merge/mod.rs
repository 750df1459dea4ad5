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
//! - **Conflicts** (SPEC §8.7), in two tiers: *certain* — `contradictory-decision`,
//!   `divergent-next-action`, `incompatible-lifecycle`, `incompatible-value`, a rule says the
//!   claims cannot both hold — and *possible* — `related-claims`, a new source claim related
//!   to a target claim (shared subject, head word or enough content words) that is neither a
//!   duplicate nor a restatement, with `keep-both` the neutral answer (`detection::related`). Only a source claim that is new (not a
//!   duplicate of a target claim) can conflict, and only with a target claim: disagreements
//!   inside one side are that side's business. Claims are indexed by subject and by their
//!   polarity-free word set in hash maps, so detection is near-linear: two claims are compared
//!   only when they share a key. The rules, exactly, are in docs/merge.md and on the functions
//!   of the modules below (`analysis::Scratch::analyse`, `detection::subject_conflict`,
//!   `detection::same_words_conflict`, [`material_next_action`], [`lifecycle`]).
//! - **Ids** are `conf_` + 26 lowercase Crockford base32 digits (SPEC §12.3's shape) made from
//!   FNV-1a 64 over the kind, the subject key and both claims' normalised texts (as hashes):
//!   stable across runs and independent of unrelated claims and of provenance. Resolutions may
//!   name the older `conf-<16 hex>` form of the same hash ([`canonical_conflict_id`]).
//! - **Resolutions**: `keep-source` puts the source's claim where the target's was,
//!   `keep-target` drops the source's, `keep-both` keeps the target's in place and adds the
//!   source's after the target's claims, `custom(text)` puts the text where the target's claim
//!   was and drops both. While a conflict is unresolved the converged state has the target's
//!   side only, so it is complete exactly when `unresolved` is empty.
//! - **Changed claims and flagged pairs** (eleventh round): the plan lists each side's claims
//!   the other lacks, with stable ids; [`merge_flagged`] turns a reviewer's pairs of them into
//!   `flagged-by-reviewer` conflicts (`review`).
//!
//! What it is not for: judging which side is right (a human does), reading files or the
//! Archive (the host passes the bodies and writes conflict files), or semantic understanding.
//! The detection is lexical; docs/merge.md lists what it misses and what it over-reports.
//!
//! The modules, from the bottom up: `types` (inputs and outputs), `words` (the word-class
//! table), `tokens`, `ids` (normalised-text keys, conflict ids), `values` (typed values),
//! `analysis` (what one claim says), `claims` (Markdown sections and blocks), `classes` (the
//! classes of compatible pairs and the opposition between two claims), `detection`,
//! `counterparts` (the claims two states changed, compared with each other: tenth round),
//! `review` (the changed claims with their ids, and a reviewer's flagged pairs: eleventh round),
//! `resolution`, `render` (the converged state); this file runs them in order. Each uses only
//! modules before it.

mod analysis;
mod claims;
mod classes;
mod counterparts;
mod detection;
mod ids;
mod render;
mod resolution;
mod review;
mod tokens;
mod types;
mod values;
mod weak;
mod words;

pub use detection::{lifecycle, material_next_action, next_action_conflict, next_action_relation};
pub use ids::canonical_conflict_id;
pub use types::{
    Certainty, ChangedClaim, Choice, Conflict, ConflictKind, ConflictSide, FlaggedPair, MergeError, MergePlan,
    MergeSide, Resolution, Status,
};

use crate::hash::fnv64;
use crate::maps::{HashMap, KeyMap, KeySet};
use analysis::Scratch;
use claims::{NEXT_STEPS, Sections, heading_level, parse};
use detection::{Found, detect_claims, doc_words, effective_next_action, eligible};
use ids::{conflict_id, norm_hash};
use render::{Entry, Side, render, union_provenance};
use resolution::Fate;
use tokens::markers;

/// Merge `source` into `target` (the survivor), applying `resolutions`.
pub fn merge(source: &MergeSide, target: &MergeSide, resolutions: &[Resolution]) -> Result<MergePlan, MergeError> {
    merge_flagged(source, target, resolutions, &[])
}

/// [`merge`], with a reviewer's `flagged` pairs of changed claims (issue 19, eleventh round):
/// each a `flagged-by-reviewer` conflict (`review`).
pub fn merge_flagged(
    source: &MergeSide,
    target: &MergeSide,
    resolutions: &[Resolution],
    flagged: &[FlaggedPair],
) -> Result<MergePlan, MergeError> {
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
    let mut t_shared: KeySet<usize> = KeySet::default(); // target entries the source has too
    for (i, b) in s.blocks.iter().enumerate() {
        match seen.get(&(b.sec, b.key)) {
            Some(&(sec, e)) => {
                let entry = &mut out[sec][e];
                if matches!(entry.side, Side::Target) {
                    t_shared.insert(entry.block);
                }
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
    // Sixth round: the lifecycle is always compared. Two different statuses the table says
    // are compatible (both open, or both closed) are listed as possible, with the table's
    // answer as the hint; `keep-both` takes it.
    let status_hint = match status {
        Some(st) if source.status != target.status && st.is_open() => {
            Some(format!("both open: the merged Dossier is {}", st.as_str()))
        }
        Some(_) if source.status != target.status => Some("both closed: the target's status is kept".to_string()),
        _ => None,
    };
    if status.is_none() || status_hint.is_some() {
        let (st, tt) = (source.status.as_str(), target.status.as_str());
        conflicts.push(Found {
            kind: ConflictKind::IncompatibleLifecycle,
            key: fnv64(b"status"),
            subject: "status".into(),
            source: ConflictSide { text: st.into(), provenance: Vec::new(), line: 0 },
            target: ConflictSide { text: tt.into(), provenance: Vec::new(), line: 0 },
            norms: (norm_hash(st), norm_hash(tt)),
            pairs: Vec::new(),
            order: (if status_hint.is_some() { 5 } else { 0 }, 0, 0),
            certainty: if status_hint.is_some() { Certainty::Possible } else { Certainty::Certain },
            hint: status_hint,
            strength: u32::MAX,
            units: None,
        });
    }
    let (s_next, s_next_line) = effective_next_action(&source.next_action, &s);
    let (t_next, t_next_line) = effective_next_action(&target.next_action, &t);
    // A possible next-action conflict whose source action is already one of the target's
    // Next Steps (a `keep-both` merged before) is settled: the plan holds both.
    let planned = |text: &str| {
        let key = norm_hash(text);
        t.blocks.iter().any(|b| b.sec == NEXT_STEPS && b.key == key)
    };
    let mut unlisted_related = 0;
    let mut extra_next_step: Option<String> = None;
    let relation =
        next_action_relation(&s_next, &t_next).filter(|&(c, _)| c == Certainty::Certain || !planned(&s_next));
    if let Some((Certainty::Possible, Some(detection::H_SAME_ACTION))) = relation {
        // Seventh round: the same action in other words (one verb class, the same objects) is
        // kept both without a listing: the target's stays the next action, the source's joins
        // the Next Steps (counted in `unlisted_related`).
        unlisted_related += 1;
        extra_next_step = Some(s_next.clone());
    } else if let Some((certainty, hint)) = relation {
        let provenance = |text: &str| markers(text).map(str::to_string).collect();
        conflicts.push(Found {
            kind: ConflictKind::DivergentNextAction,
            key: fnv64(b"next action"),
            subject: "next action".into(),
            source: ConflictSide { text: s_next.clone(), provenance: provenance(&s_next), line: s_next_line },
            target: ConflictSide { text: t_next.clone(), provenance: provenance(&t_next), line: t_next_line },
            norms: (norm_hash(&s_next), norm_hash(&t_next)),
            pairs: Vec::new(),
            order: (
                if hint.is_some() {
                    5
                } else if certainty == Certainty::Certain {
                    1
                } else {
                    3
                },
                0,
                0,
            ),
            certainty,
            hint: hint.map(str::to_string),
            strength: u32::MAX,
            units: None,
        });
    }
    let s_words = doc_words(&s, &source.next_action);
    detect_claims(&t, &s, &t_first, &s_new, &s_words, &mut scratch, &mut conflicts, &mut unlisted_related);
    counterparts::sole_counterparts(&t, &s, &t_first, &s_new, &mut scratch, &mut conflicts, &mut unlisted_related);

    // Eleventh round: the changed claims, and the reviewer's pairs of them.
    let t_changed: Vec<usize> = t_first.iter().copied().filter(|b| !t_shared.contains(b)).collect();
    let (t_stems, s_stems) = (review::stems_of(&t, &t_changed), review::stems_of(&s, &s_new));
    let eligible_of = |blocks: &[usize], doc: &claims::Doc| -> Vec<usize> {
        blocks.iter().copied().filter(|&b| eligible(&doc.blocks[b])).collect()
    };
    let (t_ix, s_ix) = (eligible_of(&t_changed, &t), eligible_of(&s_new, &s));
    let changed_target = review::changed_claims(&t, &t_ix, true, &secs, &s_stems);
    let changed_source = review::changed_claims(&s, &s_ix, false, &secs, &t_stems);
    if !flagged.is_empty() {
        let ct: Vec<(ChangedClaim, usize)> = changed_target.iter().cloned().zip(t_ix.iter().copied()).collect();
        let cs: Vec<(ChangedClaim, usize)> = changed_source.iter().cloned().zip(s_ix.iter().copied()).collect();
        let extra = review::flagged_conflicts(flagged, &t, &s, (&ct, &cs), &conflicts, &mut scratch)?;
        conflicts.extend(extra);
    }

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
    // (An id of the older `conf-<hex>` form names the same conflict.)
    let named: Vec<String> = resolutions.iter().map(|r| canonical_conflict_id(&r.conflict_id)).collect();
    let mut chosen: HashMap<&str, &Choice> = HashMap::default();
    let mut unknown: Vec<&str> = Vec::new();
    for (r, id) in resolutions.iter().zip(&named) {
        if !by_id.contains_key(id.as_str()) {
            if !unknown.contains(&r.conflict_id.as_str()) {
                unknown.push(&r.conflict_id);
            }
            continue;
        }
        if let Some(prev) = chosen.insert(id, &r.choice)
            && prev != &r.choice
        {
            return Err(MergeError::InvalidInput(format!("conflict {id} is resolved twice, in different ways")));
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
                certainty: f.certainty,
                compatible_hint: f.hint.clone(),
            });
            continue;
        };
        match f.kind {
            ConflictKind::IncompatibleLifecycle => {
                converged_status = match choice {
                    Choice::KeepSource => source.status,
                    Choice::KeepTarget => target.status,
                    // Both statuses the table accepts (a possible conflict): the table's.
                    Choice::KeepBoth => status.unwrap_or(target.status),
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
    Ok(MergePlan {
        converged_state,
        converged_next_action: converged_next,
        converged_status,
        unresolved,
        unlisted_related,
        changed_target,
        changed_source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use claims::{Kind, PREAMBLE};

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
    fn fifth_round_later_clauses_and_nested_items_are_read() {
        // A nested item: possible (a sub-claim is read with less context), pointing at its line.
        let t = state("- Board: Nucleo-F4.\n  - RTOS: Zephyr. [src:art_01a]\n", "");
        let s = state("- Board: Nucleo-F4.\n  - RTOS: FreeRTOS. [src:art_01b]\n", "");
        let p = run(&s, &t);
        assert_eq!(p.unresolved.len(), 1, "{:?}", kinds(&p));
        assert_eq!(p.unresolved[0].certainty, Certainty::Possible);
        assert_eq!(p.unresolved[0].target.line, 10);
        // A later sentence, after the claim's first.
        let t = state("- Contributions require a signed CLA. [src:art_01a]\n", "");
        let s =
            state("- The CLA is deprecated; contributors sign off commits under the DCO instead. [src:art_01b]\n", "");
        assert_eq!(run(&s, &t).unresolved.len(), 1);
        // ", as …" is a reason: its negation is not the claim's.
        let t = state("- Extend the greasing interval. [src:art_01a]\n", "");
        let s = state("- Shorten the greasing interval, as the new grease is not holding up. [src:art_01b]\n", "");
        let p = run(&s, &t);
        assert_eq!(kinds(&p).len(), 1);
        assert_eq!(p.unresolved[0].certainty, Certainty::Certain);
        // A table row is a "key: value" claim.
        let t = state("", "| Milestone | Date |\n|---|---|\n| Launch | June 30 |\n| Beta | May 2 |\n");
        let s = state("", "| Milestone | Date |\n|---|---|\n| Launch | July 14 |\n| Beta | May 2 |\n");
        let p = run(&s, &t);
        assert_eq!(p.unresolved.len(), 1, "{:?}", kinds(&p));
        assert_eq!(p.unresolved[0].target.line, 14);
        // Rationales and attributions are not sub-claims.
        let t = state("- Use Postgres. Rationale: joins. Decided by Ana, 2026-01-02. [src:art_01a]\n", "");
        let s = state("- Use Postgres. Rationale: the team knows it. Decided by Bo, 2026-01-03. [src:art_01b]\n", "");
        assert_eq!(kinds(&run(&s, &t)), vec![]);
    }

    #[test]
    fn frontmatter_never_closed_is_invalid_input() {
        let t = side("dos_t", Status::Active, "Go.", "---\nid: x\n# T\n");
        assert!(merge(&side("dos_s", Status::Active, "Go.", "# S\n"), &t, &[]).is_err());
    }
}

/// Issue 19, eleventh round: the changed claims and the reviewer's flagged pairs (`review`).
#[cfg(test)]
mod review_tests {
    use super::*;

    fn side(id: &str, body: &str) -> MergeSide {
        MergeSide {
            id: id.into(),
            name: "X".into(),
            status: Status::Active,
            next_action: "Go.".into(),
            distilled_state: body.into(),
        }
    }

    fn bodies() -> (MergeSide, MergeSide) {
        let t = "# Tram\n\n## Decisions\n\n- Use the east depot. [src:art_01a]\n- The first tram leaves at 05:10. [src:art_01b]\n\n## Findings\n\n- The ticket machines accept cards. [src:art_01c]\n\n## Next Steps\n\n- Print timetables.\n";
        let s = "# Tram\n\n## Decisions\n\n- Use the east depot. [src:art_02a]\n\n## Findings\n\n- The ticket machines accept cards. [src:art_01c]\n- Drivers start their shift an hour later from March. [src:art_02b]\n\n## Next Steps\n\n- Hire drivers.\n";
        (side("dos_s", s), side("dos_t", t))
    }

    fn ids(list: &[ChangedClaim]) -> Vec<(&str, &str)> {
        list.iter().map(|c| (c.section.as_str(), c.text.as_str())).collect()
    }

    fn flag(p: &MergePlan, reason: &str) -> FlaggedPair {
        FlaggedPair {
            target_claim: p.changed_target[0].id.clone(),
            source_claim: p.changed_source[0].id.clone(),
            reason: reason.into(),
        }
    }

    #[test]
    fn the_plan_lists_the_claims_each_side_changes_with_stable_ids() {
        let (s, t) = bodies();
        let p = merge(&s, &t, &[]).unwrap();
        // Duplicates (the depot, the ticket machines) and Next Steps are not changed claims.
        assert_eq!(ids(&p.changed_target), vec![("Decisions", "The first tram leaves at 05:10. [src:art_01b]")]);
        assert_eq!(
            ids(&p.changed_source),
            vec![("Findings", "Drivers start their shift an hour later from March. [src:art_02b]")]
        );
        assert_eq!((p.changed_target[0].line, p.changed_source[0].line), (6, 10));
        assert!(p.changed_target[0].id.starts_with("t_") && p.changed_source[0].id.starts_with("s_"));
        // Stable: the same on every run, and independent of provenance and line numbers.
        let again = merge(&s, &t, &[]).unwrap();
        assert_eq!(again.changed_target, p.changed_target);
        let moved = side(
            "dos_t",
            &t.distilled_state.replace("[src:art_01b]", "[src:art_09z]").replace("# Tram\n", "# Tram\n\nIntro.\n"),
        );
        assert_eq!(merge(&s, &moved, &[]).unwrap().changed_target[0].id, p.changed_target[0].id);
        // The rules pair nothing here: no conflict is listed.
        assert!(p.unresolved.is_empty(), "{:?}", p.unresolved);
    }

    #[test]
    fn a_flagged_pair_is_a_possible_conflict_resolved_like_any_other() {
        let (s, t) = bodies();
        let p = merge(&s, &t, &[]).unwrap();
        let f = [flag(&p, "a later shift start cannot serve a 05:10 first tram")];
        let q = merge_flagged(&s, &t, &[], &f).unwrap();
        assert_eq!(q.unresolved.len(), 1);
        let c = &q.unresolved[0];
        assert_eq!(
            (c.kind, c.certainty, c.compatible_hint.as_deref()),
            (ConflictKind::FlaggedByReviewer, Certainty::Possible, None)
        );
        assert!(c.target.text.contains("05:10") && c.source.text.contains("an hour later"), "{c:?}");
        assert_eq!((c.target.line, c.source.line), (6, 10));
        assert!(!c.subject.trim().is_empty());
        // Stable id, whatever the reason says.
        let other_reason = [FlaggedPair { reason: "timing".into(), ..f[0].clone() }];
        assert_eq!(merge_flagged(&s, &t, &[], &other_reason).unwrap().unresolved[0].id, c.id);
        // Unresolved: the source claim waits, the target claim stays.
        assert!(q.converged_state.contains("05:10") && !q.converged_state.contains("an hour later"));
        let resolve = |choice: Choice| {
            let r = [Resolution { conflict_id: c.id.clone(), choice }];
            let plan = merge_flagged(&s, &t, &r, &f).unwrap();
            assert!(plan.unresolved.is_empty());
            plan.converged_state
        };
        let ks = resolve(Choice::KeepSource);
        assert!(!ks.contains("05:10") && ks.contains("an hour later"), "{ks}");
        // keep-source puts the source claim in the target claim's place.
        assert!(
            ks.contains("## Decisions\n\n- Use the east depot. [src:art_01a] [src:art_02a]\n- Drivers start"),
            "{ks}"
        );
        let kt = resolve(Choice::KeepTarget);
        assert!(kt.contains("05:10") && !kt.contains("an hour later"), "{kt}");
        let kb = resolve(Choice::KeepBoth);
        assert!(kb.contains("05:10") && kb.contains("an hour later"), "{kb}");
        let cu =
            resolve(Choice::Custom("The first tram leaves at 06:10 from March. [src:art_01b] [src:art_02b]".into()));
        assert!(
            cu.contains("- The first tram leaves at 06:10 from March.")
                && !cu.contains("05:10")
                && !cu.contains("an hour later"),
            "{cu}"
        );
        // Without the flagged pair, its id is unknown.
        let r = [Resolution { conflict_id: c.id.clone(), choice: Choice::KeepBoth }];
        assert!(merge(&s, &t, &r).unwrap_err().to_string().contains(&c.id));
    }

    #[test]
    fn bad_flagged_pairs_are_invalid_input_naming_the_valid_ids() {
        let (s, t) = bodies();
        let p = merge(&s, &t, &[]).unwrap();
        let (tid, sid) = (p.changed_target[0].id.clone(), p.changed_source[0].id.clone());
        let err = |target: &str, source: &str, reason: &str| {
            let f = [FlaggedPair { target_claim: target.into(), source_claim: source.into(), reason: reason.into() }];
            merge_flagged(&s, &t, &[], &f).unwrap_err().to_string()
        };
        let e = err("t_nope", &sid, "x");
        assert!(e.contains("t_nope") && e.contains(&tid) && e.contains(&sid), "{e}");
        let e = err(&tid, &tid, "x");
        assert!(e.contains("two claims of one side") && e.contains(&sid), "{e}");
        let e = err(&sid, &tid, "x");
        assert!(e.contains("source claim as target"), "{e}");
        let e = err(&tid, &sid, "  ");
        assert!(e.contains("no reason"), "{e}");
    }

    #[test]
    fn a_flagged_pair_already_listed_is_not_doubled() {
        let t = "# P\n\n## Decisions\n\n- Use Postgres for the event store because joins. Decided by Alice. [src:art_01a]\n";
        let s = "# P\n\n## Decisions\n\n- Use SQLite for the event store because it is simple. Decided by Bob. [src:art_01b]\n";
        let (s, t) = (side("dos_s", s), side("dos_t", t));
        let p = merge(&s, &t, &[]).unwrap();
        assert_eq!(p.unresolved.len(), 1);
        let f = [flag(&p, "two engines"), flag(&p, "the same pair twice")];
        let q = merge_flagged(&s, &t, &[], &f).unwrap();
        assert_eq!(q.unresolved, p.unresolved);
    }
}

/// Issue 19, tenth round: the claims two states changed, compared with each other
/// (`counterparts`), through `merge`.
#[cfg(test)]
mod counterparts_tests {
    use super::{MergePlan, MergeSide, Status, merge};

    fn doc(decisions: &str, state: &str, extra: &str) -> String {
        format!(
            "# Choir tour\n\n## Situation\n\nA spring tour for the chamber choir.\n\n## Decisions\n\n\
             - Rehearse on Thursdays. Decided by Ruth. [src:art_01a]\n{decisions}\n\
             ## Findings\n\n- Four singers cannot travel in April. [src:art_01b]\n\n\
             ## Current State\n\n- The coach is booked. [src:art_01c]\n{state}\n\
             ## Next Steps\n\n- Send the itinerary.\n{extra}"
        )
    }

    fn run(s: &str, t: &str) -> MergePlan {
        let side = |id: &str, body: &str| MergeSide {
            id: id.into(),
            name: "X".into(),
            status: Status::Active,
            next_action: "Send the itinerary.".into(),
            distilled_state: body.into(),
        };
        merge(&side("dos_s", s), &side("dos_t", t), &[]).unwrap()
    }

    /// Whether a conflict shows exactly these two claims (by words of each).
    fn shows(p: &MergePlan, src: &str, tgt: &str) -> bool {
        p.unresolved.iter().any(|c| c.source.text.contains(src) && c.target.text.contains(tgt))
    }

    #[test]
    fn tenth_round_the_only_new_decision_on_each_side_is_compared() {
        // A key-value line against a sentence, nothing in common but the slot.
        let s = doc("- Opening piece: the Byrd motet. Decided by Ruth. [src:art_02a]\n", "", "");
        let t = doc("- We start every concert with Parry's anthem. Decided by Ruth. [src:art_03a]\n", "", "");
        let p = run(&s, &t);
        assert!(shows(&p, "Opening piece", "Parry's anthem"), "{:?}", p.unresolved);
        // Listed for review, not as a certain conflict.
        assert!(p.unresolved.iter().all(|c| c.certainty.as_str() == "possible"));
    }

    #[test]
    fn twelfth_round_the_one_claim_each_side_changed_is_compared_across_sections() {
        // A decision on one side, the same slot written as a note under Current State on the
        // other; nothing else differs.
        let s = doc(
            "",
            "- Ruth's message after the committee: until the vicar replies, the encore is a carol. [src:art_02n]\n",
            "",
        );
        let t =
            doc("- The encore is the Rutter blessing, with a carol as fallback. Ruth, 3 May. [src:art_03n]\n", "", "");
        let p = run(&s, &t);
        assert!(shows(&p, "Ruth's message", "Rutter blessing"), "{:?}", p.unresolved);
        assert!(p.unresolved.iter().all(|c| c.certainty.as_str() == "possible" && c.compatible_hint.is_some()));
        // Two changes on a side: no whole-state pair.
        let s2 = doc(
            "- Robes are collected in June. [src:art_02r]\n",
            "- Ruth's message after the committee: until the vicar replies, the encore is a carol. [src:art_02n]\n",
            "",
        );
        assert!(!shows(&run(&s2, &t), "Ruth's message", "Rutter blessing"));
    }

    #[test]
    fn twelfth_round_a_changed_table_row_is_the_line_shown() {
        let table = |fee: &str| {
            format!(
                "- Coach hire is paid in March. Decided by Ruth. [src:art_02t]\n\
                 | Stop | Coach cost |\n|---|---|\n| Bath | £300 per day |\n| York | {fee} per day |\n"
            )
        };
        let (s, t) = (doc(&table("£540"), "", ""), doc(&table("£610"), "", ""));
        let p = run(&s, &t);
        let line = |text: &str, needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() as u32 + 1;
        assert!(
            p.unresolved.iter().any(|c| c.source.line == line(&s, "£540") && c.target.line == line(&t, "£610")),
            "{:?}",
            p.unresolved
        );
    }

    #[test]
    fn tenth_round_two_states_of_one_moment_are_compared() {
        let s = doc("", "- Every robe has come back from the cleaners. [src:art_02c]\n", "");
        let t = doc("", "- Six gowns are still at the dry cleaner's. [src:art_03c]\n", "");
        assert!(shows(&run(&s, &t), "Every robe", "Six gowns"));
    }

    #[test]
    fn tenth_round_two_unrelated_findings_are_not_a_slot() {
        let f = |x: &str| {
            "# Choir tour\n\n## Situation\n\nA spring tour.\n\n## Findings\n\n- Four singers cannot travel in April. [src:art_01b]\n"
                .to_string()
                + x
                + "\n## Next Steps\n\n- Send the itinerary.\n"
        };
        let s = f("- Ferry tickets cost less midweek. [src:art_02b]\n");
        let t = f("- The cathedral organ was retuned last year. [src:art_03b]\n");
        assert!(!shows(&run(&s, &t), "Ferry tickets", "organ"));
        assert!(
            run(&s, &t).unresolved.iter().all(|c| c.compatible_hint.as_deref() != Some(super::counterparts::H_SOLE))
        );
        // Several new claims on a side: no sole pair is guessed.
        let s2 = doc("- Opening piece: the Byrd motet. [src:art_02a]\n- Robes: black. [src:art_02d]\n", "", "");
        let t2 = doc("- We start every concert with Parry's anthem. [src:art_03a]\n", "", "");
        assert!(
            run(&s2, &t2).unresolved.iter().all(|c| c.compatible_hint.as_deref() != Some(super::counterparts::H_SOLE))
        );
    }

    #[test]
    fn tenth_round_two_causes_of_one_effect_are_compared() {
        let f = |x: &str| {
            "# Choir tour\n\n## Situation\n\nA spring tour.\n\n## Findings\n\n- Four singers cannot travel in April. [src:art_01b]\n"
                .to_string()
                + x
                + "\n## Next Steps\n\n- Send the itinerary.\n"
        };
        let s = f(
            "- The hoarse voices come from the dry air in the coach. [src:art_02b]\n- Tenors want more rests. [src:art_02e]\n",
        );
        let t = f(
            "- We now believe the hoarse voices are caused by the late rehearsals. [src:art_03b]\n- Sopranos sing flat. [src:art_03e]\n",
        );
        assert!(shows(&run(&s, &t), "dry air", "late rehearsals"));
    }

    #[test]
    fn tenth_round_a_question_answered_on_one_side_meets_the_other_sides_claim() {
        let s = doc("", "- The Bristol concert will be in the Lord Mayor's chapel. [src:art_02c]\n", "");
        let t = doc(
            "",
            "- Programmes are printed. [src:art_03c]\n",
            "\n## Open Questions\n\n- Which venue for the Bristol concert? Clifton cathedral, confirmed on Monday. [src:art_03q]\n",
        );
        assert!(shows(&run(&s, &t), "Lord Mayor's chapel", "Clifton cathedral"));
        // An open question without an answer is not a value.
        assert!(super::counterparts::answered("Which venue for Bristol? Clifton cathedral. [src:art_1]"));
        assert!(!super::counterparts::answered("Which venue for the Bristol concert? [src:art_03q]"));
        assert!(!super::counterparts::answered("Is the coach booked?"));
    }
}

//! Merging two Dossiers (SPEC §2.1, §7.2, §8.7, §14.5): the operation shared by
//! `dossier merge`, MCP `dossier_merge` and the TUI.
//!
//! What this is for: turning two Dossiers into the `merge` policy's inputs, its conflicts
//! into the `conflict_detected` error (with every conflict, both sides and their
//! provenance in `details`), and resolutions from JSON or a terminal into the policy's
//! types. The writes — conflict files, the converged target, copied artifacts, the archived
//! source, audit events — are the Save path's ([`crate::save::merge`]).
//!
//! What it is not for: deciding what conflicts (the policy, docs/merge.md) or asking the
//! user (the CLI walks a terminal; MCP returns a form).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::app::App;
use crate::error::{Code, DossierError, Result};
use crate::model::DossierDoc;
use crate::policy::{
    ChangedClaim, Conflict, ConflictSide, FlaggedPair, MergePlan, MergeSide, Resolution, ResolutionChoice,
};
use crate::save::{self, MergeDecision, MergeOutcome, MergeWritten};
pub use crate::save::{Flagged, Reviewed};

/// One conflict as callers see it (JSON in `details.conflicts`, the CLI walk, forms).
#[derive(Clone, Debug, Serialize)]
pub struct ConflictView {
    pub id: String,
    pub kind: &'static str,
    /// `certain` (the user must choose) or `possible` (related claims; keep both suggested).
    pub certainty: &'static str,
    /// For a possible conflict the rules think compatible ("probably compatible"): why, in one
    /// line (issue 19, sixth round). Absent for certain ones and for those that may contradict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compatible_hint: Option<String>,
    pub subject: String,
    pub target: SideView,
    pub source: SideView,
    /// `conflicts/<id>.md` in the target, once preserved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
    /// Who flagged this pair as a contradiction the rules did not pair, and why (issue 19,
    /// eleventh round: `flagged_by_reviewer` conflicts, and a listed pair an agent flagged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flagged: Option<FlagNote>,
}

/// Who flagged a conflict, and why.
#[derive(Clone, Debug, Serialize)]
pub struct FlagNote {
    pub by: String,
    pub reason: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SideView {
    pub text: String,
    pub provenance: Vec<String>,
    /// 1-based line in that Dossier's Distilled State; 0 for a frontmatter field.
    pub line: u32,
    /// The Distilled State section the line is in (`frontmatter` for line 0), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
}

impl SideView {
    /// The `## ` heading `line` falls under in `body` (`frontmatter` for line 0).
    fn locate(&mut self, body: &str) {
        self.section = Some(if self.line == 0 {
            "frontmatter".to_string()
        } else {
            body.lines()
                .take(self.line as usize)
                .filter_map(|l| l.strip_prefix("## "))
                .last()
                .map_or_else(|| "(top)".to_string(), |h| h.trim().to_string())
        });
    }
}

impl ConflictView {
    pub fn new(c: &Conflict, path: Option<PathBuf>) -> ConflictView {
        let side = |s: &ConflictSide| SideView {
            text: s.text.clone(),
            provenance: s.provenance.clone(),
            line: s.line,
            section: None,
        };
        ConflictView {
            id: c.id.clone(),
            kind: save::conflict_kind_name(c.kind),
            certainty: c.certainty.as_str(),
            compatible_hint: c.compatible_hint.clone(),
            subject: c.subject.clone(),
            target: side(&c.target),
            source: side(&c.source),
            path,
            flagged: None,
        }
    }

    /// A possible conflict the agent must judge in the review round: not one it flagged itself.
    pub fn needs_verdict(&self) -> bool {
        self.is_possible() && self.flagged.is_none() && self.kind != "flagged_by_reviewer"
    }

    /// Name the agent's flag on this conflict, if `flagged` has one.
    fn note_flag(&mut self, flagged: &[Flagged]) {
        if let Some(f) = flagged.iter().find(|f| f.conflict_id == self.id) {
            self.flagged = Some(FlagNote { by: f.actor.clone(), reason: f.reason.clone() });
        }
    }

    pub fn is_possible(&self) -> bool {
        self.certainty == "possible"
    }

    /// A possible conflict the rules think compatible (it has a `compatible_hint`).
    pub fn is_probably_compatible(&self) -> bool {
        self.compatible_hint.is_some()
    }

    /// 0 certain, 1 possible that may contradict (or that an agent flagged), 2 possible and
    /// probably compatible.
    pub fn rank(&self) -> u8 {
        u8::from(self.is_possible()) + u8::from(self.is_probably_compatible() && self.flagged.is_none())
    }
}

/// Certain conflicts first, then possible ones that may contradict, then those the rules
/// think compatible, each group in the policy's order (its rank).
fn certain_first(views: &mut [ConflictView]) {
    views.sort_by_key(ConflictView::rank);
}

/// One line for the related pairs a merge did not list, when there are any.
pub fn unlisted_line(unlisted: u32) -> Option<String> {
    (unlisted > 0).then(|| {
        format!(
            "{unlisted} more related pair(s) not listed: the rules show them compatible (a Situation framing, another region or tier, one shared word they explain, a next action reworded) or they rank below a source claim's 2 most related target claims; those pairs are merged keeping both claims"
        )
    })
}

// A resolution as JSON callers send it (`resolved_conflicts` items, `--resolutions` files).
// Plain comments, not docs: a doc would be a schema description (the MCP token budget).
#[derive(Clone, Debug, Deserialize, Serialize, schemars::JsonSchema)]
pub struct ResolutionInput {
    /// From conflict_detected details.
    pub conflict_id: String,
    // keep_target | keep_source | keep_both | custom (the enum says so in the schema).
    pub choice: ChoiceInput,
    /// For custom (keep provenance markers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChoiceInput {
    KeepTarget,
    KeepSource,
    KeepBoth,
    Custom,
}

impl ResolutionInput {
    pub fn to_policy(&self) -> Result<Resolution> {
        let choice = match (self.choice, &self.text) {
            (ChoiceInput::KeepTarget, _) => ResolutionChoice::KeepTarget,
            (ChoiceInput::KeepSource, _) => ResolutionChoice::KeepSource,
            (ChoiceInput::KeepBoth, _) => ResolutionChoice::KeepBoth,
            (ChoiceInput::Custom, Some(t)) if !t.trim().is_empty() => ResolutionChoice::Custom(t.clone()),
            (ChoiceInput::Custom, _) => {
                return Err(DossierError::new(
                    Code::InvalidInput,
                    format!("conflict {}: choice `custom` needs `text`", self.conflict_id),
                )
                .with_details(json!({ "field": "resolved_conflicts.text", "conflict_id": self.conflict_id, "expected": "the replacement text for choice custom" })));
            }
        };
        // The older `conf-<hex>` form of an id names the same conflict (docs/merge.md, Ids).
        Ok(Resolution { conflict_id: crate::ids::canonical_conflict_id(&self.conflict_id), choice })
    }
}

/// Parse `--resolve ID=CHOICE` (CLI): CHOICE is keep-target, keep-source, keep-both, or
/// `custom:<text>`.
pub fn parse_resolve_flag(flag: &str) -> Result<ResolutionInput> {
    let bad = || {
        DossierError::new(Code::InvalidInput, format!("--resolve `{flag}` is not ID=CHOICE"))
            .with_details(json!({ "field": "--resolve", "got": flag, "expected": "ID=keep-target|keep-source|keep-both|custom:<text>" }))
            .with_next("--resolve <conflict-id>=keep-target|keep-source|keep-both|custom:<text>")
    };
    let (id, choice) = flag.split_once('=').ok_or_else(bad)?;
    let (choice, text) = match choice {
        "keep-target" | "keep_target" => (ChoiceInput::KeepTarget, None),
        "keep-source" | "keep_source" => (ChoiceInput::KeepSource, None),
        "keep-both" | "keep_both" => (ChoiceInput::KeepBoth, None),
        c => match c.strip_prefix("custom:") {
            Some(t) => (ChoiceInput::Custom, Some(t.to_string())),
            None => return Err(bad()),
        },
    };
    Ok(ResolutionInput { conflict_id: id.trim().to_string(), choice, text })
}

// An agent's verdict on one possible conflict of a review round (MCP `reviews` items):
// `contradiction` (the claims cannot both hold; the user decides) or `compatible` (both kept).
// Plain comments, not docs: a doc would be a schema description (the MCP token budget).
#[derive(Clone, Debug, Deserialize, Serialize, schemars::JsonSchema)]
pub struct ReviewInput {
    pub conflict_id: String,
    pub verdict: Verdict,
    pub reason: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Contradiction,
    Compatible,
}

// An agent's flagged pair (MCP `flagged` items): a changed target claim and a changed source
// claim (ids from details.changed) that cannot both hold, though no listed conflict pairs them.
// Plain comments, not docs: a doc would be a schema description (the MCP token budget).
#[derive(Clone, Debug, Deserialize, Serialize, schemars::JsonSchema)]
pub struct FlagInput {
    pub target: String,
    pub source: String,
    pub reason: String,
}

/// At most this many changed claims of each side are listed in a review round (the most related
/// to the other side's changed claims first), and at most [`CHANGED_BYTES`] of their text: the
/// rest are counted, with the way to read them (docs/merge.md, "Eleventh round").
pub const MAX_CHANGED_LISTED: usize = 30;

/// The text budget of one side's listed changed claims, in bytes (the MCP reply cap).
pub const CHANGED_BYTES: usize = 9_000;

/// What a merge would raise now, for the review round (nothing is written): the conflicts
/// (with the agent's flagged pairs among them), the count of related pairs not listed, the
/// claims each side changes, and the agent's flags as the conflicts they became.
#[derive(Clone, Debug)]
pub struct Review {
    pub conflicts: Vec<ConflictView>,
    pub unlisted: u32,
    pub changed_target: Vec<ChangedClaim>,
    pub changed_source: Vec<ChangedClaim>,
    pub flagged: Vec<Flagged>,
}

/// The merge of `source` into `target` as the review round sees it, with the agent's `flags`
/// (attributed to `actor`). A flag naming a claim the merge does not change, two claims of
/// one side, or no reason is `invalid_input` naming the valid ids; nothing is written.
pub fn review(app: &App, source: &str, target: &str, flags: &[FlagInput], actor: &str) -> Result<Review> {
    app.store.require()?;
    let (_, sdoc) = read(app, source)?;
    let (tdir, tdoc) = read(app, target)?;
    let (s, t) = (side(&sdoc), side(&tdoc));
    let plain = app.policy().merge(&s, &t, &[], &[])?;
    let pairs = check_flags(flags, &plain)?;
    let plan = if pairs.is_empty() { plain } else { app.policy().merge(&s, &t, &[], &pairs)? };
    let flagged = flagged_conflicts(&pairs, &plan, actor);
    let mut views: Vec<ConflictView> = plan
        .unresolved
        .iter()
        .map(|c| {
            let p = tdir.join("conflicts").join(format!("{}.md", c.id));
            let mut v = ConflictView::new(c, p.exists().then_some(p));
            v.target.locate(&tdoc.body);
            v.source.locate(&sdoc.body);
            v.note_flag(&flagged);
            v
        })
        .collect();
    certain_first(&mut views);
    Ok(Review {
        conflicts: views,
        unlisted: plan.unlisted_related,
        changed_target: plan.changed_target,
        changed_source: plan.changed_source,
        flagged,
    })
}

/// The agent's flags as the policy's pairs, checked against the claims `plan` changes.
fn check_flags(flags: &[FlagInput], plan: &MergePlan) -> Result<Vec<FlaggedPair>> {
    let ids = |l: &[ChangedClaim]| l.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
    let (valid_t, valid_s) = (ids(&plan.changed_target), ids(&plan.changed_source));
    let shown = |l: &[String]| {
        if l.is_empty() {
            "none".to_string()
        } else if l.len() > 40 {
            format!("{} and {} more", l[..40].join(", "), l.len() - 40)
        } else {
            l.join(", ")
        }
    };
    let mut out = Vec::new();
    for f in flags {
        let (t, s) = (f.target.trim(), f.source.trim());
        let known = |id: &str| valid_t.iter().chain(&valid_s).any(|v| v == id);
        let why = if f.reason.trim().is_empty() {
            Some(format!("flagged: the pair ({t}, {s}) has no reason; say in one line why both cannot hold"))
        } else if valid_t.iter().any(|v| v == t) && valid_s.iter().any(|v| v == s) {
            None
        } else if (valid_t.iter().any(|v| v == t) && valid_t.iter().any(|v| v == s))
            || (valid_s.iter().any(|v| v == t) && valid_s.iter().any(|v| v == s))
        {
            Some(format!(
                "flagged: ({t}, {s}) names two claims of one side; pair a target claim (t_…) with a source claim (s_…)"
            ))
        } else if valid_s.iter().any(|v| v == t) && valid_t.iter().any(|v| v == s) {
            Some(format!("flagged: ({t}, {s}) has the sides swapped; target is a t_… id, source an s_… id"))
        } else {
            let unknown: Vec<&str> = [t, s].into_iter().filter(|id| !known(id)).collect();
            Some(format!("flagged: this merge changes no claim {}", unknown.join(", ")))
        };
        if let Some(why) = why {
            let cap = |l: &[String]| l.iter().take(100).cloned().collect::<Vec<_>>();
            return Err(DossierError::new(
                Code::InvalidInput,
                format!("{why}; valid target claims: {}; valid source claims: {}; nothing was written", shown(&valid_t), shown(&valid_s)),
            )
            .with_details(json!({ "field": "flagged", "target": t, "source": s,
                "expected": "a changed target claim id (t_…) and a changed source claim id (s_…) from details.changed, and a reason",
                "valid": { "target": cap(&valid_t), "source": cap(&valid_s) } }))
            .with_next("flag only pairs from details.changed of the review round: {target: t_…, source: s_…, reason}"));
        }
        out.push(FlaggedPair {
            target_claim: t.to_string(),
            source_claim: s.to_string(),
            reason: f.reason.trim().to_string(),
        });
    }
    Ok(out)
}

/// Each flagged pair as the conflict of `plan` it became (a `flagged-by-reviewer` conflict, or
/// the listed conflict on the same two claims), attributed to `actor`; one per conflict.
fn flagged_conflicts(pairs: &[FlaggedPair], plan: &MergePlan, actor: &str) -> Vec<Flagged> {
    let mut out: Vec<Flagged> = Vec::new();
    for p in pairs {
        let text = |l: &[ChangedClaim], id: &str| l.iter().find(|c| c.id == id).map(|c| c.text.clone());
        let (Some(t), Some(s)) =
            (text(&plan.changed_target, &p.target_claim), text(&plan.changed_source, &p.source_claim))
        else {
            continue;
        };
        let on_pair = |c: &&Conflict| c.target.text == t && c.source.text == s;
        let found = plan
            .unresolved
            .iter()
            .filter(on_pair)
            .find(|c| c.kind == crate::policy::ConflictKind::FlaggedByReviewer)
            .or_else(|| plan.unresolved.iter().find(on_pair));
        if let Some(c) = found
            && !out.iter().any(|f| f.conflict_id == c.id)
        {
            out.push(Flagged {
                conflict_id: c.id.clone(),
                target_claim: p.target_claim.clone(),
                source_claim: p.source_claim.clone(),
                actor: actor.to_string(),
                reason: p.reason.clone(),
            });
        }
    }
    out
}

/// The changed claims of one side a review round lists: the most related to the other side
/// first, at most [`MAX_CHANGED_LISTED`] and [`CHANGED_BYTES`] of text, in reading order; and
/// how many are left out.
pub fn listed_changed(claims: &[ChangedClaim]) -> (Vec<&ChangedClaim>, usize) {
    let mut order: Vec<usize> = (0..claims.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(claims[i].related), i));
    let mut chosen = Vec::new();
    let mut bytes = 0;
    for i in order {
        let len = claims[i].text.trim().len();
        if chosen.len() == MAX_CHANGED_LISTED || (!chosen.is_empty() && bytes + len > CHANGED_BYTES) {
            continue;
        }
        bytes += len;
        chosen.push(i);
    }
    chosen.sort_unstable();
    let rest = claims.len() - chosen.len();
    (chosen.into_iter().map(|i| &claims[i]).collect(), rest)
}

/// Whether some pair of a changed target claim and a changed source claim is not a listed
/// conflict (when every pair is, there is nothing left for the agent to pair).
fn unpaired_changes(review: &Review) -> bool {
    let (t, s) = (&review.changed_target, &review.changed_source);
    if t.is_empty() || s.is_empty() {
        return false;
    }
    let tt: std::collections::HashSet<&str> = t.iter().map(|c| c.text.as_str()).collect();
    let st: std::collections::HashSet<&str> = s.iter().map(|c| c.text.as_str()).collect();
    let mut listed: Vec<(&str, &str)> = review
        .conflicts
        .iter()
        .map(|c| (c.target.text.as_str(), c.source.text.as_str()))
        .filter(|(ct, cs)| tt.contains(ct) && st.contains(cs))
        .collect();
    listed.sort_unstable();
    listed.dedup();
    listed.len() < t.len().saturating_mul(s.len())
}

/// The review round (issue 19): while possible conflicts are neither resolved nor reviewed,
/// `conflict_detected` with `details.review` (each pair, both claims, their sections) for the
/// agent to judge before the user is asked. Nothing is written. `None` when nothing awaits
/// review.
pub fn review_round(
    source: &str,
    target: &str,
    review: &Review,
    resolutions: &[ResolutionInput],
) -> Option<DossierError> {
    let all = &review.conflicts;
    let resolved =
        |c: &ConflictView| resolutions.iter().any(|r| crate::ids::canonical_conflict_id(&r.conflict_id) == c.id);
    let pending: Vec<&ConflictView> = all.iter().filter(|c| c.needs_verdict() && !resolved(c)).collect();
    // Eleventh round: the claims each side changes, for the agent to pair what the rules did
    // not — due when some pair of them is not already a listed conflict.
    let changes = unpaired_changes(review);
    if pending.is_empty() && !changes {
        return None;
    }
    let certain: Vec<&str> = all.iter().filter(|c| !c.is_possible() && !resolved(c)).map(|c| c.id.as_str()).collect();
    let side = |s: &SideView| json!({ "text": s.text.trim(), "section": s.section });
    // Every possible pair, those the rules think compatible too, with their hint (sixth round).
    let list: Vec<Value> = pending
        .iter()
        .map(|c| {
            let mut item = json!({ "conflict_id": c.id, "target": side(&c.target), "source": side(&c.source) });
            if let Some(h) = &c.compatible_hint {
                item["compatible_hint"] = json!(h);
            }
            item
        })
        .collect();
    let hinted = pending.iter().filter(|c| c.is_probably_compatible()).count();
    let ids: Vec<&str> = pending.iter().map(|c| c.id.as_str()).collect();
    let (listed_t, rest_t) = listed_changed(&review.changed_target);
    let (listed_s, rest_s) = listed_changed(&review.changed_source);
    let claim = |c: &&ChangedClaim| json!({ "id": c.id, "section": c.section, "text": c.text.trim() });
    let mut details = json!({ "source": source, "target": target, "review": list, "certain": certain,
        "changed": { "target": listed_t.iter().map(claim).collect::<Vec<_>>(), "source": listed_s.iter().map(claim).collect::<Vec<_>>() },
        // Every conflict of both tiers, as `conflict_detected` lists them elsewhere.
        "conflicts": all.iter().filter(|c| !resolved(c)).collect::<Vec<_>>() });
    if rest_t + rest_s > 0 {
        details["changed_unlisted"] = json!({ "target": rest_t, "source": rest_s });
    }
    let mut e = DossierError::new(
        Code::ConflictDetected,
        format!(
            "merging {source} into {target} raised {} possible conflict(s) (related claims that may or may not contradict; {hinted} the rules think probably compatible, with a compatible_hint) for you to review before the user is asked{}, and changes {} target and {} source claim(s) (details.changed) in which you may name contradictions the rules did not pair; nothing was written",
            pending.len(),
            if certain.is_empty() { String::new() } else { format!(", and {} certain one(s) the user decides", certain.len()) },
            review.changed_target.len(),
            review.changed_source.len(),
        ),
    )
    .with_details(details);
    if !pending.is_empty() {
        e = e.with_next(format!(
            "judge each pair in details.review ({}): `contradiction` if both claims cannot hold together, or if you cannot tell (the user decides: one question), `compatible` only if both can hold as written (both are kept, the user is not asked), with a one-line reason; a compatible_hint is the rules' guess, not a verdict",
            ids.join(", ")
        ));
    }
    if changes {
        e = e.with_next(
            "in `flagged`, name every pair of a details.changed target claim and source claim that cannot both hold and is not in details.review or details.conflicts, with a one-line reason; when unsure, flag (the user decides)",
        );
    }
    if rest_t + rest_s > 0 {
        e = e.with_next(format!(
            "details.changed lists the claims most related to the other side; {rest_t} target and {rest_s} source changed claim(s) are not listed (merged as written): dossier_recall id={target} / id={source} reads them"
        ));
    }
    Some(e.with_next(
        "call dossier_merge again with the same arguments, reviews: [{conflict_id, verdict, reason}] and flagged: [{target, source, reason}] (each may be empty)",
    ))
}

/// Apply an agent's `reviews` to the possible conflicts in `all`: a `compatible` pair is
/// resolved `keep_both` (unless `resolutions` already has it), a `contradiction` is left for
/// the user. Returns the pairs judged compatible, attributed to `actor`.
/// `invalid_input` (nothing applied) for a review naming a certain conflict (an agent never
/// resolves one), an id this merge does not raise, an empty reason, or a possible conflict
/// left without a review or a resolution.
pub fn apply_reviews(
    all: &[ConflictView],
    reviews: &[ReviewInput],
    resolutions: &mut Vec<ResolutionInput>,
    actor: &str,
) -> Result<Vec<Reviewed>> {
    // The agent's own flagged pairs need no verdict (they go to the user).
    let possible: Vec<&str> = all.iter().filter(|c| c.needs_verdict()).map(|c| c.id.as_str()).collect();
    let invalid = |message: String, details: Value| {
        Err(DossierError::new(Code::InvalidInput, format!("{message}; nothing was written"))
            .with_details(details)
            .with_next(format!(
                "send one review per possible conflict: {} (verdict contradiction or compatible, with a reason)",
                if possible.is_empty() {
                    "(this merge raises none: omit reviews)".to_string()
                } else {
                    possible.join(", ")
                }
            )))
    };
    for r in reviews {
        let id = crate::ids::canonical_conflict_id(&r.conflict_id);
        match all.iter().find(|c| c.id == id) {
            Some(c) if !c.is_possible() => {
                return invalid(
                    format!(
                        "reviews: {id} is a certain conflict; only the user resolves it (ask them, then send resolved_conflicts)"
                    ),
                    json!({ "field": "reviews.conflict_id", "certain": id, "expected": format!("one of {}", possible.join(", ")), "valid": possible }),
                );
            }
            Some(_) => {}
            None => {
                // A certain conflict the caller named is refused above; an id this merge does
                // not raise at all here.
                return invalid(
                    format!("reviews: this merge raises no possible conflict {id}"),
                    json!({ "field": "reviews.conflict_id", "unknown": id, "expected": format!("one of {}", possible.join(", ")), "valid": possible }),
                );
            }
        }
        if r.reason.trim().is_empty() {
            return invalid(
                format!("reviews: the review of {id} has no reason"),
                json!({ "field": "reviews.reason", "conflict_id": id, "expected": "a one-line reason for the verdict" }),
            );
        }
    }
    let resolved = |id: &str| resolutions.iter().any(|r| crate::ids::canonical_conflict_id(&r.conflict_id) == id);
    let reviewed = |id: &str| reviews.iter().any(|r| crate::ids::canonical_conflict_id(&r.conflict_id) == id);
    let missing: Vec<&str> = possible.iter().copied().filter(|id| !resolved(id) && !reviewed(id)).collect();
    if !missing.is_empty() {
        return invalid(
            format!("reviews: no verdict for possible conflict(s) {}", missing.join(", ")),
            json!({ "field": "reviews", "missing": missing, "expected": format!("a review for each of {}", possible.join(", ")), "valid": possible }),
        );
    }
    let mut kept = Vec::new();
    for r in reviews.iter().filter(|r| r.verdict == Verdict::Compatible) {
        let id = crate::ids::canonical_conflict_id(&r.conflict_id);
        // A pair the agent also flagged goes to the user: the flag wins (recall first).
        if resolved(&id) || !possible.contains(&id.as_str()) || kept.iter().any(|k: &Reviewed| k.conflict_id == id) {
            continue;
        }
        kept.push(Reviewed { conflict_id: id, actor: actor.to_string(), reason: r.reason.trim().to_string() });
    }
    for k in &kept {
        resolutions.push(ResolutionInput {
            conflict_id: k.conflict_id.clone(),
            choice: ChoiceInput::KeepBoth,
            text: None,
        });
    }
    Ok(kept)
}

fn side(doc: &DossierDoc) -> MergeSide {
    MergeSide {
        id: doc.frontmatter.id.clone(),
        name: doc.frontmatter.name.clone(),
        status: crate::suggest::lifecycle(doc.frontmatter.status),
        next_action: doc.frontmatter.next_action.clone(),
        distilled_state: doc.body.clone(),
    }
}

fn read(app: &App, target: &str) -> Result<(PathBuf, DossierDoc)> {
    let dir = app.store.resolve(target)?;
    let file = dir.join("dossier.md");
    let text = std::fs::read_to_string(&file).map_err(|e| DossierError::io("read", &file, e))?;
    Ok((dir, DossierDoc::parse(&text, &file)?))
}

/// The conflicts a merge of `source` into `target` would raise, without writing anything
/// (for walking them on a terminal before the merge).
pub fn conflicts(app: &App, source: &str, target: &str) -> Result<Vec<ConflictView>> {
    Ok(conflicts_counted(app, source, target)?.0)
}

/// [`conflicts`], with the count of related pairs the policy did not list
/// (`unlisted_related`).
pub fn conflicts_counted(app: &App, source: &str, target: &str) -> Result<(Vec<ConflictView>, u32)> {
    // The review round's view without flags: one place reads and locates the conflicts.
    let r = review(app, source, target, &[], "")?;
    Ok((r.conflicts, r.unlisted))
}

/// Merge `source` into `target` with `resolutions` (SPEC §8.7). Unresolved conflicts →
/// `conflict_detected`, each conflict in `details.conflicts`, preserved in the target's
/// `conflicts/`, and no Dossier content changed.
/// The artifact copy is reported to `progress` (the CLI's bar on a terminal).
pub fn merge(
    app: &App,
    source: &str,
    target: &str,
    resolutions: &[ResolutionInput],
    actor: &str,
    session_id: &Option<String>,
    progress: &dyn crate::progress::Progress,
) -> Result<MergeOutcome> {
    merge_reviewed(app, source, target, resolutions, &[], &[], actor, session_id, progress)
}

/// [`merge`], where some resolutions are an agent's `compatible` verdicts on possible
/// conflicts ([`apply_reviews`]): their `conflict_resolved` events name that agent and its
/// reason instead of `actor`. `flagged` are the agent's pairs of changed claims ([`review`]):
/// each is a conflict of this merge, listed with who flagged it and audited as theirs.
#[allow(clippy::too_many_arguments)]
pub fn merge_reviewed(
    app: &App,
    source: &str,
    target: &str,
    resolutions: &[ResolutionInput],
    reviewed: &[Reviewed],
    flagged: &[Flagged],
    actor: &str,
    session_id: &Option<String>,
    progress: &dyn crate::progress::Progress,
) -> Result<MergeOutcome> {
    let mut resolutions: Vec<Resolution> = resolutions.iter().map(ResolutionInput::to_policy).collect::<Result<_>>()?;
    // A custom resolution's text becomes part of the merged Distilled State: redacted like
    // every text the store writes (the two states it merges already were).
    let redactor = crate::redact::Redactor::new(app);
    let mut redacted = crate::redact::Counts::new();
    for r in &mut resolutions {
        if let ResolutionChoice::Custom(text) = &mut r.choice {
            redactor.apply(text, &mut redacted)?;
        }
    }
    // So is an agent's review reason, which its `conflict_resolved` event records.
    let mut reviewed = reviewed.to_vec();
    for r in &mut reviewed {
        redactor.apply(&mut r.reason, &mut redacted)?;
    }
    // And a flag's reason (the policy sees the pair; its reason is the audit log's).
    let mut flagged = flagged.to_vec();
    for f in &mut flagged {
        redactor.apply(&mut f.reason, &mut redacted)?;
    }
    let pairs: Vec<FlaggedPair> = flagged
        .iter()
        .map(|f| FlaggedPair {
            target_claim: f.target_claim.clone(),
            source_claim: f.source_claim.clone(),
            reason: f.reason.clone(),
        })
        .collect();
    let written = save::merge(
        &app.store,
        source,
        target,
        actor,
        session_id,
        &resolutions,
        &reviewed,
        &flagged,
        |s, t| {
            let (s, t) = (side(s), side(t));
            if !pairs.is_empty() {
                // The flags name claims of these documents (read under the lock): checked as
                // the review round checked them, so a stale one is the caller's error.
                let input: Vec<FlagInput> = pairs
                    .iter()
                    .map(|p| FlagInput {
                        target: p.target_claim.clone(),
                        source: p.source_claim.clone(),
                        reason: p.reason.clone(),
                    })
                    .collect();
                check_flags(&input, &app.policy().merge(&s, &t, &[], &[])?)?;
            }
            if !resolutions.is_empty() {
                // Conflicts are found before resolutions apply, so the plan without them names
                // every id this merge raises: an unknown id is the caller's, not the policy's.
                known_ids(&resolutions, &app.policy().merge(&s, &t, &[], &pairs)?.unresolved)?;
            }
            Ok(MergeDecision { plan: app.policy().merge(&s, &t, &resolutions, &pairs)? })
        },
        progress,
    )?;
    match written {
        MergeWritten::Completed(o) => Ok(o),
        MergeWritten::Conflicts(found, unlisted) => Err(conflict_detected(source, target, &found, unlisted, &flagged)),
    }
}

/// Refuse resolutions naming a conflict not in `raised` (the merge's conflicts): `invalid_input`
/// with `details.unknown` and `details.valid`, before the policy sees them.
fn known_ids(resolutions: &[Resolution], raised: &[Conflict]) -> Result<()> {
    let valid: Vec<&str> = raised.iter().map(|c| c.id.as_str()).collect();
    unknown_ids(resolutions.iter().map(|r| r.conflict_id.clone()).collect(), valid)
}

/// The same refusal over conflict views, for surfaces that look at the conflicts before
/// merging (the MCP review round): malformed resolutions and resolutions naming no conflict of
/// this merge are refused first, whatever else is pending.
pub fn check_resolution_ids(resolutions: &[ResolutionInput], all: &[ConflictView]) -> Result<()> {
    for r in resolutions {
        r.to_policy()?; // a malformed resolution (custom without text) is refused first too
    }
    let ids = resolutions.iter().map(|r| crate::ids::canonical_conflict_id(&r.conflict_id)).collect();
    unknown_ids(ids, all.iter().map(|c| c.id.as_str()).collect())
}

fn unknown_ids(ids: Vec<String>, valid: Vec<&str>) -> Result<()> {
    let mut unknown: Vec<&str> = Vec::new();
    for id in &ids {
        if !valid.contains(&id.as_str()) && !unknown.contains(&id.as_str()) {
            unknown.push(id);
        }
    }
    if unknown.is_empty() {
        return Ok(());
    }
    let raises = if valid.is_empty() {
        "this merge raises no conflicts".to_string()
    } else {
        format!("this merge's conflict ids are: {}", valid.join(", "))
    };
    let next = if valid.is_empty() {
        "merge again without resolutions".to_string()
    } else {
        format!("resolve only these conflicts: {} (merge without resolutions to see each one)", valid.join(", "))
    };
    Err(DossierError::new(
        Code::InvalidInput,
        format!(
            "the resolutions name conflict id(s) this merge does not raise: {}; {raises}; nothing was written",
            unknown.join(", ")
        ),
    )
    .with_details(json!({ "field": "resolved_conflicts.conflict_id", "expected": format!("one of {}", valid.join(", ")), "unknown": unknown, "valid": valid }))
    .with_next(next))
}

fn conflict_detected(
    source: &str,
    target: &str,
    found: &[(Conflict, PathBuf)],
    unlisted: u32,
    flagged: &[Flagged],
) -> DossierError {
    let mut views: Vec<ConflictView> = found
        .iter()
        .map(|(c, p)| {
            let mut v = ConflictView::new(c, Some(p.clone()));
            v.note_flag(flagged);
            v
        })
        .collect();
    certain_first(&mut views);
    let list = |rank: u8| {
        views
            .iter()
            .filter(|v| v.rank() == rank)
            .map(|v| match (&v.compatible_hint, &v.flagged) {
                (_, Some(f)) => format!("{}: {} ({}; flagged by {}: {})", v.id, v.subject, v.kind, f.by, f.reason),
                (Some(h), None) => format!("{}: {} ({}; {h})", v.id, v.subject, v.kind),
                (None, None) => format!("{}: {} ({})", v.id, v.subject, v.kind),
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let groups = [
        ("certain", list(0)),
        ("possible, may contradict (related claims, keep both suggested)", list(1)),
        ("possible, probably compatible (keep both suggested)", list(2)),
    ];
    let present: Vec<&(&str, String)> = groups.iter().filter(|g| !g.1.is_empty()).collect();
    let mut tiers = match present.as_slice() {
        [(title, l)] if *title == "certain" => l.clone(),
        _ => present.iter().map(|(title, l)| format!("{title}: {l}")).collect::<Vec<_>>().join("; "),
    };
    if let Some(line) = unlisted_line(unlisted) {
        tiers.push_str(&format!(" ({line})"));
    }
    DossierError::new(
        Code::ConflictDetected,
        format!(
            "merging {source} into {target} needs {} decision(s): {tiers}; each is preserved in the target's conflicts/ and nothing else changed",
            views.len()
        ),
    )
    .with_details(if unlisted > 0 {
        json!({ "source": source, "target": target, "conflicts": views, "unlisted_related": unlisted })
    } else {
        json!({ "source": source, "target": target, "conflicts": views })
    })
    .with_next("ask the user to choose for each conflict (keep_target, keep_source, keep_both, or custom text)")
    .with_next(format!(
        "then call again with resolved_conflicts (CLI: dossier merge {source} {target} --resolve <id>=keep-target ...)"
    ))
}

/// The JSON of a completed merge (CLI `--json` and MCP `data`).
pub fn outcome_json(o: &MergeOutcome) -> Value {
    serde_json::to_value(o).expect("merge outcome serializes")
}

/// The target's conflict files, for `dossier conflicts list` and doctor.
pub fn conflict_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join("conflicts"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    v.sort();
    v
}

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
use crate::policy::{Conflict, ConflictSide, MergeSide, Resolution, ResolutionChoice};
use crate::save::{self, MergeDecision, MergeOutcome, MergeWritten};

/// One conflict as callers see it (JSON in `details.conflicts`, the CLI walk, forms).
#[derive(Clone, Debug, Serialize)]
pub struct ConflictView {
    pub id: String,
    pub kind: &'static str,
    /// `certain` (the user must choose) or `possible` (related claims; keep both suggested).
    pub certainty: &'static str,
    pub subject: String,
    pub target: SideView,
    pub source: SideView,
    /// `conflicts/<id>.md` in the target, once preserved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SideView {
    pub text: String,
    pub provenance: Vec<String>,
    /// 1-based line in that Dossier's Distilled State; 0 for a frontmatter field.
    pub line: u32,
}

impl ConflictView {
    pub fn new(c: &Conflict, path: Option<PathBuf>) -> ConflictView {
        let side = |s: &ConflictSide| SideView { text: s.text.clone(), provenance: s.provenance.clone(), line: s.line };
        ConflictView {
            id: c.id.clone(),
            kind: save::conflict_kind_name(c.kind),
            certainty: c.certainty.as_str(),
            subject: c.subject.clone(),
            target: side(&c.target),
            source: side(&c.source),
            path,
        }
    }
}

/// A resolution as JSON callers send it (`resolved_conflicts` items, `--resolutions` files).
#[derive(Clone, Debug, Deserialize, Serialize, schemars::JsonSchema)]
pub struct ResolutionInput {
    /// The conflict's `id` from `conflict_detected` details.
    pub conflict_id: String,
    /// keep_target | keep_source | keep_both | custom
    pub choice: ChoiceInput,
    /// The replacement text for `custom` (keep provenance markers).
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
    app.store.require()?;
    let (_, sdoc) = read(app, source)?;
    let (tdir, tdoc) = read(app, target)?;
    let plan = app.policy().merge(&side(&sdoc), &side(&tdoc), &[])?;
    Ok(plan
        .unresolved
        .iter()
        .map(|c| {
            let p = tdir.join("conflicts").join(format!("{}.md", c.id));
            ConflictView::new(c, p.exists().then_some(p))
        })
        .collect())
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
    let resolutions: Vec<Resolution> = resolutions.iter().map(ResolutionInput::to_policy).collect::<Result<_>>()?;
    let written = save::merge(
        &app.store,
        source,
        target,
        actor,
        session_id,
        &resolutions,
        |s, t| {
            let (s, t) = (side(s), side(t));
            if !resolutions.is_empty() {
                // Conflicts are found before resolutions apply, so the plan without them names
                // every id this merge raises: an unknown id is the caller's, not the policy's.
                known_ids(&resolutions, &app.policy().merge(&s, &t, &[])?.unresolved)?;
            }
            Ok(MergeDecision { plan: app.policy().merge(&s, &t, &resolutions)? })
        },
        progress,
    )?;
    match written {
        MergeWritten::Completed(o) => Ok(o),
        MergeWritten::Conflicts(found) => Err(conflict_detected(source, target, &found)),
    }
}

/// Refuse resolutions naming a conflict not in `raised` (the merge's conflicts): `invalid_input`
/// with `details.unknown` and `details.valid`, before the policy sees them.
fn known_ids(resolutions: &[Resolution], raised: &[Conflict]) -> Result<()> {
    let valid: Vec<&str> = raised.iter().map(|c| c.id.as_str()).collect();
    let mut unknown: Vec<&str> = Vec::new();
    for r in resolutions {
        if !valid.contains(&r.conflict_id.as_str()) && !unknown.contains(&r.conflict_id.as_str()) {
            unknown.push(&r.conflict_id);
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

fn conflict_detected(source: &str, target: &str, found: &[(Conflict, PathBuf)]) -> DossierError {
    let views: Vec<ConflictView> = found.iter().map(|(c, p)| ConflictView::new(c, Some(p.clone()))).collect();
    let list = views.iter().map(|v| format!("{}: {} ({})", v.id, v.subject, v.kind)).collect::<Vec<_>>().join("; ");
    DossierError::new(
        Code::ConflictDetected,
        format!(
            "merging {source} into {target} needs {} decision(s): {list}; each is preserved in the target's conflicts/ and nothing else changed",
            views.len()
        ),
    )
    .with_details(json!({ "source": source, "target": target, "conflicts": views }))
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

//! Validation at the worker boundary (ARCHITECTURE §9): what a submitted result must satisfy
//! beyond its JSON Schema before anything of it is recorded, with exact, located errors the
//! agent can act on.
//!
//! Order of checks for a submission: secrets are redacted from every string of the JSON
//! ([`redact_json`]); the text must not claim the learner "mastered" anything
//! ([`no_mastery_claim`], DESIGN §3 gate 7); the JSON is decoded strictly into the contract type
//! (code `schema`); then the semantic rules of the step run:
//!
//! - every [`EvidenceRef`] resolves to lines of the session's evidence pack and, when it carries
//!   a hash, to the same BLAKE3 (`evidence_not_in_pack`, `evidence_hash_mismatch`,
//!   `invalid_evidence`); a ref without a hash gets the pack's;
//! - concepts: non-empty fields (`empty_field`), unique ids (`duplicate_id`), known
//!   prerequisites (`unknown_prerequisite`), ranges (`out_of_range`), at least one evidence ref
//!   (`missing_evidence`), disputes name a derived signal (`unknown_signal`), and the policy
//!   accepts the concepts and signals (`policy_rejected`);
//! - lessons: the unit asked for (`unit_mismatch`), all seven §11 parts present
//!   (`lesson_part_missing`), at least one evidence ref, every cited excerpt sharing a word
//!   with the lesson's text (`evidence_unrelated`, see [`stem`]); citations name a source
//!   resolved for the work order (`citation_not_resolved`, `citation_hash_mismatch`), no URL
//!   while network retrieval is off (`retrieval_off`), and `model_knowledge` names no source
//!   (`uncited_with_source`);
//! - questions: the question id, unit and intent asked for (`question_id_mismatch`,
//!   `unit_mismatch`, `intent_mismatch`) and every item-quality rule of the policy's
//!   `check_item` under its own code (`choice-count`, `duplicate-choice-id`,
//!   `correct-choice-missing`, `missing-rationale`, `correct-choice-longest`, ...);
//! - evaluations: the question asked about (`question_id_mismatch`), no misconception on a
//!   correct answer (`misconception_on_correct_answer`), a rationale and feedback.
//!
//! Not for: deciding what is recorded (the runtime records a rejection event with these errors
//! and nothing of the result), or scoring quality that needs judgment (plausible distractors,
//! grounded prose) — the policy's item checks and the agent own those.

use std::collections::{BTreeMap, BTreeSet};

use dossier_evidence::{EvidencePack, Redact, VerifyError};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::contract::{ConceptExtraction, EvaluationResult, EvidenceRef, Lesson, Question, SourceKind};
use crate::event::{DocumentationResolved, ItemWarning, QuestionRequestRecord};
use crate::policy::{self, LearningPolicy, PolicyFailure};

pub use crate::error::ValidationError;

/// Replace secrets in every string (and object key) of `value` with `redactor` (the store's
/// redaction policy in the product); returns counts by kind.
pub fn redact_json(redactor: &dyn Redact, value: &mut Value) -> crate::error::Result<BTreeMap<String, u64>> {
    let mut counts = BTreeMap::new();
    redact_value(redactor, value, &mut counts)?;
    Ok(counts)
}

fn redact_value(
    redactor: &dyn Redact,
    value: &mut Value,
    counts: &mut BTreeMap<String, u64>,
) -> crate::error::Result<()> {
    let one = |s: &str, counts: &mut BTreeMap<String, u64>| -> crate::error::Result<String> {
        let r = redactor.redact(s).map_err(redaction_failed)?;
        for f in &r.found {
            *counts.entry(f.kind.clone()).or_default() += 1;
        }
        Ok(r.text)
    };
    match value {
        Value::String(s) => *s = one(s, counts)?,
        Value::Array(items) => {
            for v in items {
                redact_value(redactor, v, counts)?;
            }
        }
        Value::Object(map) => {
            let entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
            for (k, mut v) in entries {
                redact_value(redactor, &mut v, counts)?;
                map.insert(one(&k, counts)?, v);
            }
        }
        _ => {}
    }
    Ok(())
}

/// Redact one string (task text, notes, failure reasons).
pub fn redact_str(redactor: &dyn Redact, text: &str) -> crate::error::Result<String> {
    redactor.redact(text).map(|r| r.text).map_err(redaction_failed)
}

/// The redactor could not run: nothing is recorded rather than text that may hold secrets.
fn redaction_failed(reason: String) -> crate::error::RuntimeError {
    crate::error::RuntimeError::new(
        crate::error::ErrorCode::PolicyError,
        format!("the redaction policy failed ({reason}); nothing was recorded — fix it, then call again"),
    )
}

/// The word codecall never uses as a claim about the learner.
const MASTERY_CLAIM: &str = "mastered";

/// Every string in `value` that says "mastered" (any case, as a word).
pub fn no_mastery_claim(value: &Value, errors: &mut Vec<ValidationError>) {
    fn walk(v: &Value, path: &str, errors: &mut Vec<ValidationError>) {
        match v {
            Value::String(s) => {
                let lower = s.to_lowercase();
                let hit = lower.match_indices(MASTERY_CLAIM).any(|(i, m)| {
                    let before = lower[..i].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
                    let after = lower[i + m.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric());
                    before && after
                });
                if hit {
                    errors.push(ValidationError::new(
                        "mastery_claim",
                        path,
                        "codecall reports an \"estimated session mastery\", never that something was \"mastered\": \
                         reword this text",
                    ));
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{path}[{i}]"), errors);
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                    walk(item, &p, errors);
                }
            }
            _ => {}
        }
    }
    walk(value, "", errors);
}

/// Decode `value` strictly into `T`. A schema error names where it is: serde reports the field,
/// not its place, so the place is found in `value` (the first object with the unknown field, or
/// missing the missing one, among objects of the same shape); else `$`, the whole result.
pub fn decode<T: DeserializeOwned>(value: Value) -> Result<T, Vec<ValidationError>> {
    serde_json::from_value(value.clone()).map_err(|e| {
        let message = e.to_string();
        vec![ValidationError::new(
            "schema",
            schema_path(&value, &message),
            format!("{message}; the result must match the work order's `result_schema` exactly (no extra fields)"),
        )]
    })
}

/// Where in `value` serde's `message` points (see [`decode`]).
fn schema_path(value: &Value, message: &str) -> String {
    let field = |prefix: &str| {
        let rest = message.strip_prefix(prefix)?;
        let end = rest.find('`')?;
        Some(rest[..end].to_string())
    };
    // Objects in document order, with their paths.
    fn objects<'a>(v: &'a Value, path: String, out: &mut Vec<(String, &'a serde_json::Map<String, Value>)>) {
        match v {
            Value::Object(map) => {
                out.push((path.clone(), map));
                for (k, item) in map {
                    let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                    objects(item, p, out);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    objects(item, format!("{path}[{i}]"), out);
                }
            }
            _ => {}
        }
    }
    let mut all = Vec::new();
    objects(value, String::new(), &mut all);
    let join = |p: &str, k: &str| if p.is_empty() { k.to_string() } else { format!("{p}.{k}") };
    if let Some(k) = field("unknown field `") {
        if let Some((p, _)) = all.iter().find(|(_, m)| m.contains_key(&k)) {
            return join(p, &k);
        }
    } else if let Some(k) = field("missing field `") {
        // Among the objects lacking the field, the one most like those that have it.
        let having: Vec<&serde_json::Map<String, Value>> =
            all.iter().filter(|(_, m)| m.contains_key(&k)).map(|(_, m)| *m).collect();
        let alike = |m: &serde_json::Map<String, Value>| {
            having.iter().map(|h| m.keys().filter(|x| h.contains_key(*x)).count()).max().unwrap_or(0)
        };
        let lacking = all.iter().filter(|(_, m)| !m.contains_key(&k));
        if let Some((p, _)) = lacking.max_by_key(|(p, m)| (alike(m), std::cmp::Reverse(p.len()))) {
            return join(p, &k);
        }
    } else if let Some(x) = field("unknown variant `") {
        // The first string with that value, as an enum field's value.
        fn find(v: &Value, x: &str, path: String) -> Option<String> {
            match v {
                Value::String(s) if s == x => Some(path),
                Value::Object(map) => map.iter().find_map(|(k, item)| {
                    find(item, x, if path.is_empty() { k.clone() } else { format!("{path}.{k}") })
                }),
                Value::Array(items) => {
                    items.iter().enumerate().find_map(|(i, item)| find(item, x, format!("{path}[{i}]")))
                }
                _ => None,
            }
        }
        if let Some(p) = find(value, &x, String::new()).filter(|p| !p.is_empty()) {
            return p;
        }
    }
    "$".to_string()
}

fn nonempty(s: &str, code: &str, path: &str, errors: &mut Vec<ValidationError>) {
    if s.trim().is_empty() {
        errors.push(ValidationError::new(code, path, "must not be empty"));
    }
}

fn nonempty_list(items: &[String], code: &str, path: &str, errors: &mut Vec<ValidationError>) {
    if items.is_empty() {
        errors.push(ValidationError::new(code, path, "needs at least one entry"));
    }
    for (i, s) in items.iter().enumerate() {
        nonempty(s, code, &format!("{path}[{i}]"), errors);
    }
}

/// Resolve `refs` against `pack`: fill in missing hashes, check present ones.
pub fn resolve_refs(refs: &mut [EvidenceRef], pack: &EvidencePack, path: &str, errors: &mut Vec<ValidationError>) {
    for (i, r) in refs.iter_mut().enumerate() {
        let at = format!("{path}[{i}]");
        if r.path.trim().is_empty() || r.start_line == 0 || r.start_line > r.end_line {
            errors.push(ValidationError::new(
                "invalid_evidence",
                at,
                format!("{r}: a ref needs a path and 1 <= start_line <= end_line"),
            ));
            continue;
        }
        match &r.content_hash {
            None => match pack.cite(&r.path, &r.revision, r.start_line, r.end_line) {
                Some(cited) => r.content_hash = Some(cited.content_hash),
                None => errors.push(not_in_pack(&at, r)),
            },
            Some(hash) => {
                let er = dossier_evidence::EvidenceRef {
                    path: r.path.clone(),
                    revision: r.revision.clone(),
                    start_line: r.start_line,
                    end_line: r.end_line,
                    content_hash: hash.clone(),
                };
                match pack.verify(&er) {
                    Ok(_) => {}
                    Err(VerifyError::NotInPack { .. }) => errors.push(not_in_pack(&at, r)),
                    Err(VerifyError::HashMismatch { .. }) => errors.push(ValidationError::new(
                        "evidence_hash_mismatch",
                        at,
                        format!(
                            "{r}: content_hash does not match the pack's text for these lines; copy the excerpt's \
                             ref or leave content_hash out to have it filled in"
                        ),
                    )),
                }
            }
        }
    }
}

fn not_in_pack(at: &str, r: &EvidenceRef) -> ValidationError {
    ValidationError::new(
        "evidence_not_in_pack",
        at,
        format!("{r}: no excerpt or search hit of the evidence pack covers these lines at this revision"),
    )
}

fn policy_rejected(e: PolicyFailure) -> Result<ValidationError, PolicyFailure> {
    match e {
        PolicyFailure::InvalidInput(m) => Ok(ValidationError::new("policy_rejected", "", m)),
        other => Err(other),
    }
}

/// Check a concept extraction (module doc). `derived_ids` are the derived signals' ids.
pub fn validate_extraction(
    x: &mut ConceptExtraction,
    pack: &EvidencePack,
    derived_ids: &[String],
    policy: &dyn LearningPolicy,
    budget_minutes: u32,
) -> Result<Vec<ValidationError>, PolicyFailure> {
    let mut errors = Vec::new();
    let ids: BTreeSet<String> = x.concepts.iter().map(|c| c.id.clone()).collect();
    let mut seen = BTreeSet::new();
    for (i, c) in x.concepts.iter_mut().enumerate() {
        let p = format!("concepts[{i}]");
        for (field, v) in [
            ("id", &c.id),
            ("canonical_id", &c.canonical_id),
            ("label", &c.label),
            ("description", &c.description),
            ("objective", &c.objective),
        ] {
            nonempty(v, "empty_field", &format!("{p}.{field}"), &mut errors);
        }
        if !c.id.trim().is_empty() && !seen.insert(c.id.clone()) {
            errors.push(ValidationError::new("duplicate_id", format!("{p}.id"), format!("`{}` is used twice", c.id)));
        }
        if !(1..=5).contains(&c.difficulty) {
            errors.push(ValidationError::new("out_of_range", format!("{p}.difficulty"), "must be 1..=5"));
        }
        for (field, v) in [("novelty", c.novelty), ("implementation_relevance", c.implementation_relevance)] {
            if !(0.0..=1.0).contains(&v) {
                errors.push(ValidationError::new("out_of_range", format!("{p}.{field}"), "must be within 0..=1"));
            }
        }
        for (j, pre) in c.prerequisites.iter().enumerate() {
            if !ids.contains(pre) {
                errors.push(ValidationError::new(
                    "unknown_prerequisite",
                    format!("{p}.prerequisites[{j}]"),
                    format!("`{pre}` is not the id of a concept in this result"),
                ));
            }
        }
        for (j, m) in c.misconceptions.iter().enumerate() {
            nonempty(m, "empty_field", &format!("{p}.misconceptions[{j}]"), &mut errors);
        }
        if c.evidence.is_empty() {
            errors.push(ValidationError::new(
                "missing_evidence",
                format!("{p}.evidence"),
                "a concept cites at least one excerpt of the evidence pack",
            ));
        }
        resolve_refs(&mut c.evidence, pack, &format!("{p}.evidence"), &mut errors);
    }
    errors.extend(prerequisite_cycles(x));
    for (i, s) in x.signals.iter_mut().enumerate() {
        let p = format!("signals[{i}]");
        nonempty(&s.concept, "empty_field", &format!("{p}.concept"), &mut errors);
        nonempty(&s.reason, "empty_field", &format!("{p}.reason"), &mut errors);
        resolve_refs(&mut s.evidence, pack, &format!("{p}.evidence"), &mut errors);
    }
    let mut disputed = BTreeSet::new();
    for (i, d) in x.disputed.iter().enumerate() {
        let p = format!("disputed[{i}]");
        if !derived_ids.contains(&d.signal_id) {
            errors.push(ValidationError::new(
                "unknown_signal",
                format!("{p}.signal_id"),
                format!("`{}` is not a derived signal of this work order ({})", d.signal_id, derived_ids.join(", ")),
            ));
        } else if !disputed.insert(d.signal_id.clone()) {
            errors.push(ValidationError::new("duplicate_id", format!("{p}.signal_id"), "disputed twice"));
        }
        nonempty(&d.reason, "empty_field", &format!("{p}.reason"), &mut errors);
    }
    if errors.is_empty() {
        let concepts: Vec<_> = x.concepts.iter().map(policy::core_concept).collect();
        if let Err(e) = policy.plan(&concepts, budget_minutes) {
            errors.push(policy_rejected(e)?);
        }
        let input = dossier_core::learning::OpportunityInput {
            completed: true,
            inspectable: true,
            signals: x.signals.iter().map(policy::core_signal).collect(),
            excluded: x.excluded.iter().copied().map(policy::core_exclusion).collect(),
        };
        if let Err(e) = policy.score_opportunity(&input) {
            errors.push(policy_rejected(e)?);
        }
    }
    Ok(errors)
}

/// Prerequisite cycles among the result's concepts (a concept needing itself included): §10
/// orders dependencies topologically, which a cycle makes impossible, so the agent is told which
/// concepts form it and breaks it. One error per cycle, at its first concept's prerequisites.
fn prerequisite_cycles(x: &ConceptExtraction) -> Vec<ValidationError> {
    let index: BTreeMap<&str, usize> = x.concepts.iter().enumerate().map(|(i, c)| (c.id.as_str(), i)).collect();
    let n = x.concepts.len();
    // 0 unvisited, 1 on the path, 2 done; an edge to a concept on the path closes a cycle.
    let mut mark = vec![0u8; n];
    let mut errors = Vec::new();
    let mut seen: BTreeSet<Vec<usize>> = BTreeSet::new();
    fn visit(
        u: usize,
        x: &ConceptExtraction,
        index: &BTreeMap<&str, usize>,
        mark: &mut [u8],
        path: &mut Vec<usize>,
        found: &mut Vec<Vec<usize>>,
    ) {
        mark[u] = 1;
        path.push(u);
        for p in &x.concepts[u].prerequisites {
            let Some(&v) = index.get(p.as_str()) else { continue };
            match mark[v] {
                0 => visit(v, x, index, mark, path, found),
                1 => {
                    let at = path.iter().position(|&w| w == v).expect("on the path");
                    found.push(path[at..].to_vec());
                }
                _ => {}
            }
        }
        path.pop();
        mark[u] = 2;
    }
    let mut found = Vec::new();
    for u in 0..n {
        if mark[u] == 0 {
            visit(u, x, &index, &mut mark, &mut Vec::new(), &mut found);
        }
    }
    for cycle in found {
        let mut key = cycle.clone();
        key.sort_unstable();
        if !seen.insert(key) {
            continue;
        }
        let first = *cycle.iter().min().expect("a cycle has a concept");
        let mut names: Vec<String> = cycle.iter().map(|&i| format!("`{}`", x.concepts[i].id)).collect();
        names.push(names[0].clone());
        errors.push(ValidationError::new(
            "prerequisite_cycle",
            format!("concepts[{first}].prerequisites"),
            format!(
                "the prerequisites form a cycle ({}): a cycle has no teaching order; drop the prerequisite that is \
                 not really needed first, or merge the concepts",
                names.join(" needs ")
            ),
        ));
    }
    errors
}

/// Check a lesson for `unit_id` (module doc), its citations against `docs` (what was resolved
/// for its work order), with network retrieval off when `offline`.
pub fn validate_lesson(
    l: &mut Lesson,
    unit_id: &str,
    pack: &EvidencePack,
    docs: Option<&DocumentationResolved>,
    offline: bool,
) -> Vec<ValidationError> {
    let mut errors = Vec::new();
    if l.unit_id != unit_id {
        errors.push(ValidationError::new(
            "unit_mismatch",
            "unit_id",
            format!("the work order asks for unit `{unit_id}`, not `{}`", l.unit_id),
        ));
    }
    nonempty(&l.objective, "lesson_part_missing", "objective", &mut errors);
    for (field, v) in [
        ("what", &l.what),
        ("why_here", &l.why_here),
        ("failure_mode", &l.failure_mode),
        ("mental_model", &l.mental_model),
    ] {
        nonempty(v, "lesson_part_missing", field, &mut errors);
    }
    nonempty_list(&l.connections, "lesson_part_missing", "connections", &mut errors);
    nonempty_list(&l.misconceptions, "lesson_part_missing", "misconceptions", &mut errors);
    let ex = &l.minimal_example;
    for (field, v) in [("language", &ex.language), ("code", &ex.code), ("explanation", &ex.explanation)] {
        nonempty(v, "lesson_part_missing", &format!("minimal_example.{field}"), &mut errors);
    }
    for (i, a) in l.assumptions.iter().enumerate() {
        nonempty(a, "empty_field", &format!("assumptions[{i}]"), &mut errors);
    }
    check_citations(l, docs, offline, &mut errors);
    if l.evidence.is_empty() {
        errors.push(ValidationError::new(
            "missing_evidence",
            "evidence",
            "a lesson's claims about the implementation cite at least one excerpt",
        ));
    }
    let before = errors.len();
    resolve_refs(&mut l.evidence, pack, "evidence", &mut errors);
    if errors.len() == before {
        check_related(l, pack, &mut errors);
    }
    errors
}

/// The citation rules (module doc): a documentation citation names a source resolved for this
/// work order; `model_knowledge` names none (it is shown as *uncited*); a URL is accepted only
/// as the resolved source's own location, so never while retrieval is off.
fn check_citations(
    l: &mut Lesson,
    docs: Option<&DocumentationResolved>,
    offline: bool,
    errors: &mut Vec<ValidationError>,
) {
    let resolved: Vec<&str> =
        docs.map(|d| d.sources.iter().map(|s| s.source_id.as_str()).collect()).unwrap_or_default();
    let listed =
        if resolved.is_empty() { "none was resolved for this lesson".to_string() } else { resolved.join(", ") };
    for (i, c) in l.citations.iter_mut().enumerate() {
        let at = format!("citations[{i}]");
        nonempty(&c.title, "empty_field", &format!("{at}.title"), errors);
        if c.kind == SourceKind::ModelKnowledge {
            if c.source_id.is_some() || c.url.is_some() {
                errors.push(ValidationError::new(
                    "uncited_with_source",
                    at,
                    "a model_knowledge citation is uncited: give it no source_id or url, or cite the resolved source \
                     with its own kind",
                ));
            }
            continue;
        }
        if let Some(url) = &c.url
            && offline
        {
            errors.push(ValidationError::new(
                "retrieval_off",
                format!("{at}.url"),
                format!(
                    "documentation retrieval over the network is off in this session, so `{url}` was not checked: \
                     cite a source_id from the work order's documentation.sources, or mark the claim model_knowledge \
                     (shown as uncited)"
                ),
            ));
            continue;
        }
        let Some(source) = c.source_id.as_deref().and_then(|id| docs.and_then(|d| d.source(id))) else {
            errors.push(ValidationError::new(
                "citation_not_resolved",
                format!("{at}.source_id"),
                format!(
                    "{} is not a source resolved for this lesson ({listed}); cite one of those by source_id, or mark \
                     the claim model_knowledge (shown as uncited)",
                    c.source_id.as_deref().map_or("a citation without source_id".to_string(), |id| format!("`{id}`"))
                ),
            ));
            continue;
        };
        if let Some(url) = &c.url
            && url != &source.location
        {
            errors.push(ValidationError::new(
                "citation_not_resolved",
                format!("{at}.url"),
                format!("`{url}` is not the location of {} ({}); leave url out", source.source_id, source.location),
            ));
            continue;
        }
        if let Some(h) = &c.content_hash
            && h != &source.content_hash
        {
            errors.push(ValidationError::new(
                "citation_hash_mismatch",
                format!("{at}.content_hash"),
                format!("does not match {}'s excerpt; leave content_hash out to have it filled in", source.source_id),
            ));
            continue;
        }
        c.kind = match source.kind {
            dossier_docs::SourceKind::OfficialDocs => SourceKind::OfficialDocs,
            dossier_docs::SourceKind::PackageDocs => SourceKind::PackageDocs,
            dossier_docs::SourceKind::Standard => SourceKind::Standard,
            dossier_docs::SourceKind::ProjectDocs => SourceKind::ProjectDocs,
        };
        c.location = Some(source.location.clone());
        c.version = source.version.clone();
        c.content_hash = Some(source.content_hash.clone());
    }
}

/// A word reduced to a crude stem, so `retries` and `retry`, `cached` and `cache` meet: one
/// suffix of `ing`, `ed`, `es`, `s`, `e` off (when three letters remain), then a final `y` as `i`.
pub fn stem(word: &str) -> String {
    let mut w = word.to_string();
    for suffix in ["ing", "ed", "es", "s", "e"] {
        if w.len() >= suffix.len() + 3 && w.ends_with(suffix) {
            w.truncate(w.len() - suffix.len());
            break;
        }
    }
    if w.ends_with('y') {
        w.pop();
        w.push('i');
    }
    w
}

fn stems(text: &str) -> BTreeSet<String> {
    dossier_docs::text::words(text).iter().map(|w| stem(w)).collect()
}

/// Issue 21 defect 8: every excerpt a lesson cites shares content with the lesson's claims —
/// at least one word stem (identifiers split at `_` and camelCase, lowercased, words under three
/// letters and common English and keyword stop words out: `dossier_docs::text::words`, then
/// [`stem`]) of the cited lines occurs in the lesson's text (objective, the seven parts, the
/// example and the assumptions). A citation of a closing brace, a blank line or code the lesson
/// never talks about is `evidence_unrelated`.
fn check_related(l: &Lesson, pack: &EvidencePack, errors: &mut Vec<ValidationError>) {
    let claims = [
        l.objective.as_str(),
        &l.what,
        &l.why_here,
        &l.failure_mode,
        &l.mental_model,
        &l.connections.join("\n"),
        &l.misconceptions.join("\n"),
        &l.minimal_example.code,
        &l.minimal_example.explanation,
        &l.assumptions.join("\n"),
    ]
    .join("\n");
    let claim_stems = stems(&claims);
    for (i, r) in l.evidence.iter().enumerate() {
        let Some(hash) = &r.content_hash else { continue };
        let er = dossier_evidence::EvidenceRef {
            path: r.path.clone(),
            revision: r.revision.clone(),
            start_line: r.start_line,
            end_line: r.end_line,
            content_hash: hash.clone(),
        };
        let Ok(cited) = pack.verify(&er) else { continue };
        if stems(cited).is_disjoint(&claim_stems) {
            errors.push(ValidationError::new(
                "evidence_unrelated",
                format!("evidence[{i}]"),
                format!(
                    "{r}: the cited lines share no word with the lesson's text, so they cannot support its claims about \
                     the code; cite the lines the lesson talks about (name what they contain)"
                ),
            ));
        }
    }
}

/// Check a question against its request and the policy's item rules (module doc): the errors
/// that refuse it, and the policy's warnings (recorded, the question is still asked).
pub fn validate_question(
    q: &mut Question,
    question_id: &str,
    request: &QuestionRequestRecord,
    pack: &EvidencePack,
    policy: &dyn LearningPolicy,
) -> Result<(Vec<ValidationError>, Vec<ItemWarning>), PolicyFailure> {
    let mut errors = Vec::new();
    if q.id != question_id {
        errors.push(ValidationError::new(
            "question_id_mismatch",
            "id",
            format!("the work order's question id is `{question_id}`, not `{}`", q.id),
        ));
    }
    if q.unit_id != request.unit_id {
        errors.push(ValidationError::new(
            "unit_mismatch",
            "unit_id",
            format!("the work order asks about unit `{}`, not `{}`", request.unit_id, q.unit_id),
        ));
    }
    if q.intent != request.intent {
        let name = |i: &crate::contract::QuestionIntent| {
            serde_json::to_value(i).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
        };
        errors.push(ValidationError::new(
            "intent_mismatch",
            "intent",
            format!(
                "the work order asks for a `{}` question (input.intent), not `{}`",
                name(&request.intent),
                name(&q.intent)
            ),
        ));
    }
    resolve_refs(&mut q.evidence, pack, "evidence", &mut errors);
    let findings = policy.check_item(&policy::mcq_item(q)).or_else(|e| match e {
        PolicyFailure::InvalidInput(m) => {
            Ok(vec![crate::policy::ItemFinding { code: "policy_rejected".into(), message: m, warning: false }])
        }
        other => Err(other),
    })?;
    let (warnings, refusals): (Vec<_>, Vec<_>) = findings.into_iter().partition(|f| f.warning);
    errors.extend(refusals.into_iter().map(|f| ValidationError::new(&f.code, "", f.message)));
    Ok((errors, warnings.into_iter().map(|f| ItemWarning { code: f.code, message: f.message }).collect()))
}

/// Text compared for repeats: lowercased, every run of non-alphanumerics one space, trimmed.
fn normalised(text: &str) -> String {
    text.to_lowercase().split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ")
}

/// `q` repeats an earlier question on its unit: the same prompt and the same choices (as a set)
/// after normalisation, whatever its id. After a wrong answer the follow-up must be isomorphic
/// (§11: the same reasoning on a different surface), never the missed question again.
pub fn repeated_question(q: &Question, earlier: &[&Question]) -> Option<ValidationError> {
    let choices = |q: &Question| q.choices.iter().map(|c| normalised(&c.text)).collect::<BTreeSet<_>>();
    let (prompt, mine) = (normalised(&q.prompt), choices(q));
    let same = earlier.iter().find(|e| normalised(&e.prompt) == prompt && choices(e) == mine)?;
    Some(ValidationError::new(
        "repeated_question",
        "prompt",
        format!(
            "this repeats question `{}` (the same prompt and choices, up to case, spacing and punctuation); ask the \
             same reasoning about a different surface — other names, numbers or situation",
            same.id
        ),
    ))
}

/// Check an evaluation of the answer to `question_id` (module doc).
pub fn validate_evaluation(e: &EvaluationResult, question_id: &str, correct: bool) -> Vec<ValidationError> {
    let mut errors = Vec::new();
    if e.question_id != question_id {
        errors.push(ValidationError::new(
            "question_id_mismatch",
            "question_id",
            format!("the work order evaluates question `{question_id}`, not `{}`", e.question_id),
        ));
    }
    if correct && !e.diagnosed_misconceptions.is_empty() {
        errors.push(ValidationError::new(
            "misconception_on_correct_answer",
            "diagnosed_misconceptions",
            "the answer is correct: diagnose no misconception",
        ));
    }
    for (i, m) in e.diagnosed_misconceptions.iter().enumerate() {
        nonempty(m, "empty_field", &format!("diagnosed_misconceptions[{i}]"), &mut errors);
    }
    nonempty(&e.rationale, "empty_field", "rationale", &mut errors);
    nonempty(&e.feedback, "empty_field", "feedback", &mut errors);
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mastery_claim_is_a_whole_word() {
        let mut errors = Vec::new();
        no_mastery_claim(
            &serde_json::json!({"a": ["You have Mastered it"], "b": "estimated session mastery"}),
            &mut errors,
        );
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].path, "a[0]");
        let mut errors = Vec::new();
        no_mastery_claim(&serde_json::json!({"a": "unmastered? remastered"}), &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn redaction_reaches_nested_strings() {
        let token = format!("ghp_{}", "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6");
        let mut v = serde_json::json!({"x": [{"y": format!("token {token}")}], token.clone(): 1});
        let counts = redact_json(&crate::NativeRedactor, &mut v).unwrap();
        assert_eq!(counts.get("github_token"), Some(&2), "the value and the key");
        assert!(!v.to_string().contains(&token));
    }

    #[test]
    fn a_failing_redactor_records_nothing() {
        struct Broken;
        impl Redact for Broken {
            fn redact(&self, _: &str) -> Result<dossier_evidence::Redacted, String> {
                Err("no component".into())
            }
        }
        let mut v = serde_json::json!({"x": "text"});
        assert!(redact_json(&Broken, &mut v).is_err());
        assert!(redact_str(&Broken, "text").is_err());
    }
}

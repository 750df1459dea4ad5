//! Documentation for lessons (ARCHITECTURE §13): the [`DocumentationSource`] the runtime resolves
//! through before every lesson work order, the request it builds from the session (the unit's
//! concepts, the code they cite, the changed symbols, whether the session allows the network),
//! and [`LocalDocs`], the default source — `dossier-docs`' offline providers (project-local
//! docs and installed packages at the lockfile versions).
//!
//! What is recorded (`DOCUMENTATION_RESOLVED`) is the resolution itself: every source with its
//! excerpt (redacted by the runtime's redactor, [`redact`], then content-addressed by BLAKE3), so a lesson's citation can be checked
//! against it and replay answers the step from the log, with no provider and no network.
//!
//! Not for: the providers (`dossier-docs`), deciding whether the network may be used (the host
//! decides from its config and the user's consent; a session recorded as offline never asks
//! for it), or citation rules (`validate.rs`).

use std::path::PathBuf;

use dossier_docs::{ConceptQuery, Locations, Resolver, Status};

use crate::event::{ConceptDocumentation, DocumentationResolved};
use crate::state::Session;
use crate::validate;

/// Sources kept for one unit, across its concepts.
pub const MAX_UNIT_SOURCES: usize = 6;

/// What the runtime asks documentation for.
#[derive(Clone, Debug, PartialEq)]
pub struct DocRequest {
    /// The repository root (the recorded locator's).
    pub repo: PathBuf,
    pub concepts: Vec<ConceptQuery>,
    /// Changed files and the symbols on their changed lines (their doc comments are sources).
    pub changed_symbols: Vec<(String, Vec<String>)>,
    /// The session allows network providers (config and consent, decided by the host).
    pub network: bool,
}

/// A resolution, before it becomes an event (the runtime adds the work order and unit).
#[derive(Clone, Debug, PartialEq)]
pub struct DocResolution {
    pub concepts: Vec<ConceptDocumentation>,
    pub sources: Vec<dossier_docs::ResolvedSource>,
    pub notes: Vec<String>,
    pub providers: Vec<String>,
    pub network: bool,
}

/// Where lesson documentation comes from.
pub trait DocumentationSource {
    fn resolve(&self, request: &DocRequest) -> DocResolution;
}

/// The default source: the offline providers, locations from the environment (`CARGO_HOME`,
/// `GOMODCACHE`, a virtualenv in the repository). Never uses the network.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocalDocs;

impl DocumentationSource for LocalDocs {
    fn resolve(&self, request: &DocRequest) -> DocResolution {
        let mut loc = Locations::from_env(&request.repo);
        loc.changed_symbols = request.changed_symbols.clone();
        let mut r = resolve_with(&Resolver::offline(&loc), request, false);
        if request.network {
            r.notes.push("no network provider is configured in this process: resolved offline".into());
        }
        r
    }
}

/// Resolve every concept of `request` with `resolver`; merge the sources (by id, best first,
/// at most [`MAX_UNIT_SOURCES`]). Not yet redacted: the runtime passes every resolution through
/// [`redact`] (with the redactor it is handed) before it becomes an event.
pub fn resolve_with(resolver: &Resolver, request: &DocRequest, network: bool) -> DocResolution {
    let mut concepts = Vec::new();
    let mut sources: Vec<dossier_docs::ResolvedSource> = Vec::new();
    let mut notes = Vec::new();
    for c in &request.concepts {
        let r = resolver.resolve(c);
        let mut ids = Vec::new();
        for s in r.sources {
            ids.push(s.source_id.clone());
            if !sources.iter().any(|x| x.source_id == s.source_id) {
                sources.push(s);
            }
        }
        notes.extend(r.notes.iter().map(|n| format!("{}: {n}", c.concept_id)));
        concepts.push(ConceptDocumentation {
            concept_id: c.concept_id.clone(),
            status: r.status,
            source_ids: ids,
            notes: r.notes.clone(),
        });
    }
    sources.sort_by(|a, b| {
        b.score.partial_cmp(&a.score).unwrap_or(std::cmp::Ordering::Equal).then(a.source_id.cmp(&b.source_id))
    });
    if sources.len() > MAX_UNIT_SOURCES {
        let dropped: Vec<String> = sources.drain(MAX_UNIT_SOURCES..).map(|s| s.source_id).collect();
        for c in &mut concepts {
            c.source_ids.retain(|id| !dropped.contains(id));
        }
        notes.push(format!("{} lower-ranked source(s) left out: {}", dropped.len(), dropped.join(", ")));
    }
    DocResolution { concepts, sources, notes, providers: resolver.providers(), network }
}

/// `r` redacted with `redactor`: every source's excerpt and title (the excerpt re-hashed after,
/// so a citation's `content_hash` is of the text recorded) and every note. A redactor that fails
/// fails the step: nothing is recorded rather than text that may hold secrets. Recorded text
/// (replay) passes through unchanged.
pub fn redact(redactor: &dyn dossier_evidence::Redact, mut r: DocResolution) -> crate::error::Result<DocResolution> {
    for s in &mut r.sources {
        s.excerpt = validate::redact_str(redactor, &s.excerpt)?;
        s.title = validate::redact_str(redactor, &s.title)?;
        s.content_hash = blake3::hash(s.excerpt.as_bytes()).to_hex().to_string();
    }
    for n in &mut r.notes {
        *n = validate::redact_str(redactor, n)?;
    }
    for c in &mut r.concepts {
        for n in &mut c.notes {
            *n = validate::redact_str(redactor, n)?;
        }
    }
    Ok(r)
}

/// The unit's status from its concepts': resolved if any is, else unavailable if any is, else
/// not needed.
pub fn unit_status(concepts: &[ConceptDocumentation]) -> Status {
    if concepts.iter().any(|c| c.status == Status::Resolved) {
        Status::Resolved
    } else if concepts.iter().any(|c| c.status == Status::Unavailable) {
        Status::Unavailable
    } else {
        Status::NotNeeded
    }
}

/// The request for `unit_id`'s lesson in session `s`.
pub fn request_for(s: &Session, unit_id: &str) -> DocRequest {
    let started = s.started.as_ref().expect("a lesson follows the start");
    let pack = s.pack.as_ref().expect("a lesson follows the pack");
    let unit = s.plan.as_ref().and_then(|p| p.unit(unit_id));
    let concepts = unit.map(|u| crate::work_order::unit_concepts(s, u)).unwrap_or_default();
    DocRequest {
        repo: PathBuf::from(&pack.locator.repo_root),
        concepts: concepts
            .iter()
            .map(|c| {
                let code: Vec<String> = pack
                    .excerpts
                    .iter()
                    .filter(|e| c.evidence.iter().any(|r| r.path == e.evidence.path))
                    .map(|e| e.text.clone())
                    .collect();
                ConceptQuery {
                    concept_id: c.id.clone(),
                    label: c.label.clone(),
                    canonical_id: c.canonical_id.clone(),
                    description: c.description.clone(),
                    code: code.join("\n"),
                }
            })
            .collect(),
        changed_symbols: pack
            .files
            .iter()
            .filter(|f| !f.sensitive && !f.symbols.is_empty())
            .map(|f| (f.path.clone(), f.symbols.clone()))
            .collect(),
        network: !started.options.offline,
    }
}

/// The event body for a resolution.
pub fn event(work_order_id: &str, unit_id: &str, r: DocResolution) -> DocumentationResolved {
    DocumentationResolved {
        work_order_id: work_order_id.to_string(),
        unit_id: unit_id.to_string(),
        status: unit_status(&r.concepts),
        concepts: r.concepts,
        sources: r.sources,
        notes: r.notes,
        providers: r.providers,
        network: r.network,
    }
}

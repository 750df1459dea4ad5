//! The single Save path (SPEC §8.4, §11.5, §12.1): every mutation of a Dossier — creation,
//! field edits, Distilled State saves, archive — from the CLI now and from MCP, hooks and
//! merge later, goes through [`create`] or [`save`].
//!
//! Order of a save: validate everything (a rejected input writes nothing) → take the
//! Dossier's lock → read the current revision → compare with `base_revision` → write new
//! artifacts atomically → write `dossier.md` atomically → append one audit line.
//!
//! Concurrency (SPEC §11.5): if the current revision is not the caller's base, and the
//! request only changes frontmatter fields that nobody changed since the base (known from
//! the audit log), the edit is auto-merged and audited; otherwise the proposal is written
//! to `conflicts/<conf-id>.md`, `conflict_created` is audited, and `concurrent_edit` is
//! returned. The Distilled State is never last-write-wins.
//!
//! Not for: deciding what goes in a Distilled State (the agent, guided by the guide) or
//! validating its content beyond structure (the distill policy).

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::audit;
use crate::error::{Code, DossierError, Result};
use crate::files;
use crate::ids::{self, Prefix};
use crate::layout::Store;
use crate::model::{
    self, ArtifactMeta, ArtifactType, AuditEvent, ContentFormat, DossierDoc, EventKind, Frontmatter, Level, Provenance,
    Status,
};
use crate::progress::{Progress, Unit};

/// Largest artifact accepted (SPEC §4.3).
pub const MAX_ARTIFACT_BYTES: u64 = 1 << 30;

/// Frontmatter fields a caller may change. `None` leaves a field alone; for `lead` and
/// `due_date`, an empty string clears the field.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FrontmatterUpdates {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_action: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_questions: Option<Vec<String>>,
    /// Questions to append to `open_questions` (applied under the lock, so concurrent
    /// additions are never lost). Counts as a change of `open_questions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub add_open_questions: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub importance: Option<Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub urgency: Option<Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_target: Option<u64>,
}

impl FrontmatterUpdates {
    /// The frontmatter keys this update touches.
    pub fn fields(&self) -> Vec<&'static str> {
        let mut f = Vec::new();
        let pairs: [(&'static str, bool); 9] = [
            ("name", self.name.is_some()),
            ("status", self.status.is_some()),
            ("lead", self.lead.is_some()),
            ("next_action", self.next_action.is_some()),
            ("open_questions", self.open_questions.is_some() || self.add_open_questions.is_some()),
            ("importance", self.importance.is_some()),
            ("urgency", self.urgency.is_some()),
            ("due_date", self.due_date.is_some()),
            ("token_target", self.token_target.is_some()),
        ];
        for (name, set) in pairs {
            if set {
                f.push(name);
            }
        }
        f
    }

    fn validate(&self) -> Result<()> {
        let invalid = |msg: String| DossierError::new(Code::InvalidFrontmatter, msg);
        if let Some(n) = &self.name
            && n.trim().is_empty()
        {
            return Err(invalid("`name` must not be empty".into()));
        }
        if let Some(d) = &self.due_date
            && !d.is_empty()
            && model::parse_date(d).is_none()
        {
            return Err(invalid(format!("`due_date: {d}` is not a date (YYYY-MM-DD)")));
        }
        if self.token_target == Some(0) {
            return Err(invalid("`token_target` must be positive".into()));
        }
        Ok(())
    }

    fn apply(&self, fm: &mut Frontmatter) {
        if let Some(v) = &self.name {
            fm.name = v.trim().to_string();
        }
        if let Some(v) = self.status {
            fm.status = v;
        }
        if let Some(v) = &self.lead {
            fm.lead = (!v.is_empty()).then(|| v.clone());
        }
        if let Some(v) = &self.next_action {
            fm.next_action = v.clone();
        }
        if let Some(v) = &self.open_questions {
            fm.open_questions = v.clone();
        }
        if let Some(v) = &self.add_open_questions {
            fm.open_questions.extend(v.iter().cloned());
        }
        if let Some(v) = self.importance {
            fm.importance = v;
        }
        if let Some(v) = self.urgency {
            fm.urgency = v;
        }
        if let Some(v) = &self.due_date {
            fm.due_date = (!v.is_empty()).then(|| v.clone());
        }
        if let Some(v) = self.token_target {
            fm.token_target = Some(v);
        }
    }
}

/// Where a new artifact's content comes from.
#[derive(Clone, Debug)]
pub enum ArtifactContent {
    Text(String),
    File(PathBuf),
}

/// An artifact to capture with a save.
#[derive(Clone, Debug)]
pub struct NewArtifact {
    pub artifact_type: ArtifactType,
    pub title: String,
    pub content_format: ContentFormat,
    pub content: ArtifactContent,
    pub provenance: Provenance,
    /// Agent-provided textual extraction or summary, kept when the source is binary.
    pub extraction: Option<String>,
}

/// A change to an existing Dossier.
#[derive(Clone, Debug)]
pub struct SaveRequest {
    /// The revision the caller's change is based on. Required when replacing the Distilled
    /// State; when absent, field updates apply to the current revision.
    pub base_revision: Option<String>,
    /// A new Distilled State body (Markdown without frontmatter).
    pub distilled_state: Option<String>,
    pub updates: FrontmatterUpdates,
    pub artifacts: Vec<NewArtifact>,
    pub actor: String,
    pub session_id: Option<String>,
    /// Token estimate calibration and default target (from config.yaml).
    pub calibration: f64,
    pub token_target: u64,
    /// The audit event to record when the status does not change (default `save`; `link`
    /// when session content is attached by link).
    pub event: Option<EventKind>,
}

impl Default for SaveRequest {
    fn default() -> Self {
        SaveRequest {
            base_revision: None,
            distilled_state: None,
            updates: FrontmatterUpdates::default(),
            artifacts: Vec::new(),
            actor: String::new(),
            session_id: None,
            calibration: crate::tokens::DEFAULT_CALIBRATION,
            token_target: 100_000,
            event: None,
        }
    }
}

/// A new Dossier.
#[derive(Clone, Debug, Default)]
pub struct CreateRequest {
    pub name: String,
    pub distilled_state: Option<String>,
    pub updates: FrontmatterUpdates,
    pub artifacts: Vec<NewArtifact>,
    pub actor: String,
    pub session_id: Option<String>,
    /// Record a `promote` event after `create`.
    pub promote: bool,
}

/// What a successful save did.
#[derive(Clone, Debug, Serialize)]
pub struct SaveOutcome {
    pub id: String,
    pub slug: String,
    pub path: PathBuf,
    pub revision: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before_revision: Option<String>,
    pub event: EventKind,
    pub artifacts_added: Vec<String>,
    pub auto_merged: bool,
    /// Estimated tokens of the saved state, when the Distilled State changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_estimate: Option<u64>,
    /// Reported in the envelope's `warnings`, not in `data`.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// An artifact validated and rendered, ready to write.
struct Prepared {
    meta: ArtifactMeta,
    file_name: String,
    bytes: Vec<u8>,
    sidecar: Option<String>,
    warning: Option<String>,
}

fn prepare(artifacts: &[NewArtifact], dossier_id: &str, now: &str, progress: &dyn Progress) -> Result<Vec<Prepared>> {
    artifacts.iter().map(|a| prepare_one(a, dossier_id, now, progress)).collect()
}

/// Read a file in 1 MiB pieces, reporting bytes to `progress` (a large capture on a terminal).
fn read_reporting(path: &Path, len: u64, what: &str, progress: &dyn Progress) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut f = fs::File::open(path)?;
    let mut out = Vec::with_capacity(len as usize);
    let mut buf = vec![0u8; 1 << 20];
    progress.start(what, len, Unit::Bytes);
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
        progress.advance(n as u64);
    }
    progress.finish();
    Ok(out)
}

fn prepare_one(a: &NewArtifact, dossier_id: &str, now: &str, progress: &dyn Progress) -> Result<Prepared> {
    if a.title.trim().is_empty() {
        return Err(DossierError::new(Code::InvalidInput, "every artifact needs a title"));
    }
    let too_large = |size: u64| {
        DossierError::new(
            Code::ArtifactTooLarge,
            format!("artifact `{}` is {size} bytes; the limit is {MAX_ARTIFACT_BYTES} bytes (1 GiB)", a.title),
        )
        .with_details(json!({ "title": a.title, "size": size, "limit": MAX_ARTIFACT_BYTES }))
        .with_next("capture a link artifact with the path and a summary instead")
    };
    let mut provenance = a.provenance.clone();
    let raw: Vec<u8> = match &a.content {
        ArtifactContent::Text(t) => {
            if t.len() as u64 > MAX_ARTIFACT_BYTES {
                return Err(too_large(t.len() as u64));
            }
            t.clone().into_bytes()
        }
        ArtifactContent::File(path) => {
            let meta = fs::metadata(path).map_err(|e| DossierError::io("read", path, e))?;
            if meta.len() > MAX_ARTIFACT_BYTES {
                return Err(too_large(meta.len()));
            }
            if provenance.path.is_none() {
                provenance.path = Some(path.display().to_string());
            }
            read_reporting(path, meta.len(), &format!("reading {}", a.title), progress)
                .map_err(|e| DossierError::io("read", path, e))?
        }
    };
    let id = ids::new_id(Prefix::Artifact);
    let size = raw.len() as u64;
    let binary = raw.contains(&0) || std::str::from_utf8(&raw).is_err();
    let (format, content, binary_source, warning) = if binary {
        let mut note = format!(
            "Binary source not stored (Dossier keeps text only).\n\n- size: {size} bytes\n- blake3: {}\n",
            blake3::hash(&raw).to_hex()
        );
        if let Some(p) = &provenance.path {
            note.push_str(&format!("- path: {p}\n"));
        }
        if let Some(x) = &a.extraction {
            note.push_str(&format!("\n## Extraction\n\n{x}\n"));
        }
        let warning = format!(
            "binary_artifact_unsupported: `{}` is binary; stored its metadata{} instead of its content",
            a.title,
            if a.extraction.is_some() { " and the extraction" } else { "" }
        );
        (ContentFormat::Markdown, note, Some(true), Some(warning))
    } else {
        let text = String::from_utf8(raw).expect("checked UTF-8");
        if a.content_format == ContentFormat::Json
            && let Err(e) = serde_json::from_str::<serde_json::Value>(&text)
        {
            return Err(DossierError::new(
                Code::InvalidInput,
                format!("artifact `{}` is not valid JSON: {e}", a.title),
            ));
        }
        (a.content_format, text, None, None)
    };
    let meta = ArtifactMeta {
        id: id.clone(),
        dossier_id: dossier_id.to_string(),
        artifact_type: a.artifact_type,
        title: a.title.clone(),
        captured_at: now.to_string(),
        refreshed_at: now.to_string(),
        frozen: false,
        provenance,
        content_format: format,
        source_size_bytes: size,
        binary_source,
        extra: IndexMap::new(),
    };
    let yaml = serde_saphyr::to_string(&meta).expect("artifact metadata serializes");
    let file_name = format!("{id}.{}", format.extension());
    let (bytes, sidecar) = match format {
        ContentFormat::Markdown => (format!("---\n{yaml}---\n\n{content}").into_bytes(), None),
        _ => (content.into_bytes(), Some(yaml)),
    };
    Ok(Prepared { meta, file_name, bytes, sidecar, warning })
}

/// Write prepared artifacts (content before sidecar; each atomically). Returns their ids.
fn write_artifacts(dir: &Path, prepared: &[Prepared]) -> Result<Vec<String>> {
    let adir = dir.join("artifacts");
    fs::create_dir_all(&adir).map_err(|e| DossierError::io("create", &adir, e))?;
    for p in prepared {
        files::write_atomic(&adir.join(&p.file_name), &p.bytes)?;
        if let Some(sidecar) = &p.sidecar {
            files::write_atomic(&adir.join(format!("{}.meta.yaml", p.meta.id)), sidecar.as_bytes())?;
        }
    }
    Ok(prepared.iter().map(|p| p.meta.id.clone()).collect())
}

/// The revision of a Dossier: a hash of canonical `dossier.md` (CRLF normalised) plus the
/// artifact manifest (each file name and size under `artifacts/`, sorted). Artifacts are
/// immutable once written, so name and size identify them without hashing the archive.
pub fn revision(dir: &Path) -> Result<String> {
    let file = dir.join("dossier.md");
    let text = fs::read(&file).map_err(|e| DossierError::io("read", &file, e))?;
    Ok(revision_of(dir, &text))
}

fn revision_of(dir: &Path, dossier_md: &[u8]) -> String {
    let mut h = blake3::Hasher::new();
    h.update(b"dossier-revision-v1\0");
    let mut canonical = Vec::with_capacity(dossier_md.len());
    let mut i = 0;
    while i < dossier_md.len() {
        if dossier_md[i] == b'\r' && dossier_md.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        canonical.push(dossier_md[i]);
        i += 1;
    }
    h.update(&(canonical.len() as u64).to_le_bytes());
    h.update(&canonical);
    let mut manifest: Vec<(String, u64)> = fs::read_dir(dir.join("artifacts"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (!name.starts_with('.')).then(|| (name, e.metadata().map(|m| m.len()).unwrap_or(0)))
        })
        .collect();
    manifest.sort();
    for (name, len) in manifest {
        h.update(name.as_bytes());
        h.update(b"\0");
        h.update(&len.to_le_bytes());
    }
    format!("rev_{}", &h.finalize().to_hex()[..32])
}

/// An exclusive lock on one Dossier, held for a whole save (released on drop or on
/// process death).
struct DossierLock {
    _file: fs::File,
}

fn lock(dir: &Path) -> Result<DossierLock> {
    let path = dir.join(".lock");
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| DossierError::io("open", &path, e))?;
    file.lock().map_err(|e| DossierError::io("lock", &path, e))?;
    Ok(DossierLock { _file: file })
}

/// A blank audit event of `kind` stamped now (callers fill in the details).
pub fn event(kind: EventKind, dossier_id: &str, actor: &str, session_id: &Option<String>) -> AuditEvent {
    AuditEvent {
        ts: model::now_timestamp(),
        event: kind,
        dossier_id: dossier_id.to_string(),
        actor: actor.to_string(),
        session_id: session_id.clone(),
        before_revision: None,
        after_revision: None,
        artifacts_added: Vec::new(),
        token_estimate: None,
        fields_changed: Vec::new(),
        body_changed: false,
        details: IndexMap::new(),
    }
}

/// Create a new Dossier. The slug comes from the name; a taken slug gets a short id suffix.
pub fn create(store: &Store, req: CreateRequest, progress: &dyn Progress) -> Result<SaveOutcome> {
    store.require()?;
    let name = req.name.trim().to_string();
    if name.is_empty() {
        return Err(DossierError::new(Code::InvalidInput, "a Dossier needs a name").with_next("--name <name>"));
    }
    req.updates.validate()?;
    let id = ids::new_id(Prefix::Dossier);
    let now = model::now_timestamp();
    let prepared = prepare(&req.artifacts, &id, &now, progress)?;

    let mut fm = Frontmatter {
        id: id.clone(),
        name: name.clone(),
        slug: String::new(),
        created_at: now.clone(),
        updated_at: now.clone(),
        last_touched_at: now.clone(),
        status: Status::Active,
        lead: None,
        next_action: String::new(),
        open_questions: Vec::new(),
        importance: Level::High,
        urgency: Level::Low,
        due_date: None,
        token_target: None,
        base_revision: None,
        extra: IndexMap::new(),
    };
    req.updates.apply(&mut fm);
    let body = req.distilled_state.clone().unwrap_or_else(|| model::skeleton_body(&fm.name));

    // Claim the slug atomically: `mkdir` fails if it exists.
    let base = ids::slugify(&name);
    let mut slug = base.clone();
    let dir = loop {
        let dir = store.root().join(&slug);
        match fs::create_dir(&dir) {
            Ok(()) => break dir,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && slug == base => {
                slug = ids::with_suffix(&base, &id);
            }
            Err(e) => return Err(DossierError::io("create", &dir, e)),
        }
    };
    fm.slug = slug.clone();
    for sub in ["artifacts", "conflicts"] {
        fs::create_dir_all(dir.join(sub)).map_err(|e| DossierError::io("create", &dir.join(sub), e))?;
    }
    let _lock = lock(&dir)?;
    let artifacts_added = write_artifacts(&dir, &prepared)?;
    let doc = DossierDoc { frontmatter: fm, body };
    let text = doc.render();
    files::write_atomic(&dir.join("dossier.md"), text.as_bytes())?;
    let revision = revision_of(&dir, text.as_bytes());

    let mut ev = event(EventKind::Create, &id, &req.actor, &req.session_id);
    ev.after_revision = Some(revision.clone());
    ev.artifacts_added = artifacts_added.clone();
    ev.body_changed = true;
    ev.details.insert("name".into(), json!(name));
    ev.details.insert("slug".into(), json!(slug));
    audit::append(&dir, &ev)?;
    let mut kind = EventKind::Create;
    if req.promote {
        let mut ev = event(EventKind::Promote, &id, &req.actor, &req.session_id);
        ev.after_revision = Some(revision.clone());
        audit::append(&dir, &ev)?;
        kind = EventKind::Promote;
    }
    let mut warnings: Vec<String> = prepared.iter().filter_map(|p| p.warning.clone()).collect();
    warnings.extend(model::body_structure_warnings(&doc.body));
    Ok(SaveOutcome {
        id,
        slug,
        path: dir,
        revision,
        before_revision: None,
        event: kind,
        artifacts_added,
        auto_merged: false,
        token_estimate: None,
        warnings,
    })
}

/// What changed since `base` according to the audit log: `None` when `base` is unknown.
fn changes_since(events: &[AuditEvent], base: &str) -> Option<(Vec<String>, bool)> {
    let start = events.iter().rposition(|e| e.after_revision.as_deref() == Some(base))?;
    let mut fields = Vec::new();
    let mut body = false;
    for e in &events[start + 1..] {
        if e.after_revision.is_none() {
            continue; // events that did not write dossier.md (conflict_created, ...)
        }
        fields.extend(e.fields_changed.iter().cloned());
        body |= e.body_changed;
        // Artifacts added since base do not conflict with anything.
    }
    Some((fields, body))
}

/// Apply `req` to the Dossier named by `target` (slug or id).
/// Large artifact files are read in pieces, reported to `progress`.
pub fn save(store: &Store, target: &str, req: SaveRequest, progress: &dyn Progress) -> Result<SaveOutcome> {
    store.require()?;
    let dir = store.resolve(target)?;
    req.updates.validate()?;
    if req.distilled_state.is_some() && req.base_revision.is_none() {
        return Err(DossierError::new(
            Code::InvalidInput,
            "replacing the Distilled State needs base_revision (the revision your edit started from)",
        )
        .with_next(format!("dossier show {target} --json  (data.revision)")));
    }
    let file = dir.join("dossier.md");
    let _lock = lock(&dir)?;
    let current_text = fs::read_to_string(&file).map_err(|e| DossierError::io("read", &file, e))?;
    let current = DossierDoc::parse(&current_text, &file)?;
    let id = current.frontmatter.id.clone();
    let now = model::now_timestamp();
    let prepared = prepare(&req.artifacts, &id, &now, progress)?;
    let current_rev = revision_of(&dir, current_text.as_bytes());

    let fields: Vec<String> = req.updates.fields().iter().map(|s| s.to_string()).collect();
    let mut auto_merged = false;
    if let Some(base) = &req.base_revision
        && *base != current_rev
    {
        let (events, _) = audit::read(&dir)?;
        // Only frontmatter-only proposals can merge, and only if nobody changed the same
        // fields since the base. A body change since the base does not overlap them.
        let mergeable = req.distilled_state.is_none()
            && changes_since(&events, base).is_some_and(|(changed, _)| !changed.iter().any(|c| fields.contains(c)));
        if !mergeable {
            return conflict(&dir, &current, &current_rev, base, &req, &prepared);
        }
        auto_merged = true;
    }

    let mut fm = current.frontmatter.clone();
    let before_status = fm.status;
    req.updates.apply(&mut fm);
    fm.updated_at = now.clone();
    fm.last_touched_at = now.clone();
    fm.base_revision = Some(current_rev.clone());
    let body_changed = req.distilled_state.as_ref().is_some_and(|b| *b != current.body);
    let body = req.distilled_state.clone().unwrap_or(current.body);
    let doc = DossierDoc { frontmatter: fm, body };
    let artifacts_added = write_artifacts(&dir, &prepared)?;
    let text = doc.render();
    files::write_atomic(&file, text.as_bytes())?;
    let revision = revision_of(&dir, text.as_bytes());
    // Counting needs the tokenizer (tens of ms to construct): only when the state changed.
    let estimate = body_changed.then(|| crate::tokens::estimate(&text, req.calibration));

    let kind = match req.updates.status {
        Some(Status::Archived) if before_status != Status::Archived => EventKind::Archived,
        Some(s) if s != before_status => EventKind::StatusChanged,
        _ => req.event.unwrap_or(EventKind::Save),
    };
    let mut ev = event(kind, &id, &req.actor, &req.session_id);
    ev.before_revision = Some(current_rev.clone());
    ev.after_revision = Some(revision.clone());
    ev.artifacts_added = artifacts_added.clone();
    ev.fields_changed = fields;
    ev.body_changed = body_changed;
    ev.token_estimate = estimate.map(|e| e.tokens);
    if matches!(kind, EventKind::StatusChanged | EventKind::Archived) {
        ev.details.insert("from".into(), json!(before_status));
        ev.details.insert("to".into(), json!(doc.frontmatter.status));
    }
    if auto_merged {
        ev.details.insert("auto_merged".into(), json!(true));
        ev.details.insert("base_revision".into(), json!(req.base_revision));
    }
    audit::append(&dir, &ev)?;

    let mut warnings: Vec<String> = prepared.iter().filter_map(|p| p.warning.clone()).collect();
    if body_changed {
        warnings.extend(model::body_structure_warnings(&doc.body));
    }
    let token_target = doc.frontmatter.token_target.unwrap_or(req.token_target);
    if let Some(e) = estimate
        && e.tokens > token_target
    {
        warnings.push(format!(
            "over_token_target: the saved Distilled State is ~{} tokens (estimate), over its target of {token_target}; it was saved whole",
            e.tokens
        ));
    }
    if auto_merged {
        warnings.push(format!(
            "auto-merged: the Dossier changed since {} but not in the fields you updated",
            req.base_revision.as_deref().unwrap_or("")
        ));
    }
    Ok(SaveOutcome {
        id,
        slug: doc.frontmatter.slug.clone(),
        path: dir,
        revision,
        before_revision: Some(current_rev),
        event: kind,
        artifacts_added,
        auto_merged,
        token_estimate: estimate.map(|e| e.tokens),
        warnings,
    })
}

/// Preserve a conflicting proposal in `conflicts/<conf-id>.md`, audit it, and return
/// `concurrent_edit`. New artifacts are archived anyway: captured sources are never lost.
fn conflict(
    dir: &Path,
    current: &DossierDoc,
    current_rev: &str,
    base: &str,
    req: &SaveRequest,
    prepared: &[Prepared],
) -> Result<SaveOutcome> {
    let conf_id = ids::new_id(Prefix::Conflict);
    let artifacts_added = write_artifacts(dir, prepared)?;
    let head_rev = if artifacts_added.is_empty() { current_rev.to_string() } else { revision(dir)? };
    let header = json!({
        "id": conf_id,
        "dossier_id": current.frontmatter.id,
        "kind": "concurrent_edit",
        "created_at": model::now_timestamp(),
        "base_revision": base,
        "current_revision": current_rev,
        "actor": req.actor,
        "session_id": req.session_id,
        "frontmatter_updates": req.updates,
        "artifacts_added": artifacts_added,
        "resolved": false,
    });
    let yaml = serde_saphyr::to_string(&header).expect("conflict header serializes");
    let body = match &req.distilled_state {
        Some(b) => b.clone(),
        None => "(No Distilled State change was proposed; see frontmatter_updates.)\n".to_string(),
    };
    let cdir = dir.join("conflicts");
    fs::create_dir_all(&cdir).map_err(|e| DossierError::io("create", &cdir, e))?;
    let path = cdir.join(format!("{conf_id}.md"));
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| DossierError::io("create", &path, e))?;
    f.write_all(format!("---\n{yaml}---\n\n{body}").as_bytes()).map_err(|e| DossierError::io("write", &path, e))?;
    f.sync_all().map_err(|e| DossierError::io("sync", &path, e))?;

    let mut ev = event(EventKind::ConflictCreated, &current.frontmatter.id, &req.actor, &req.session_id);
    ev.before_revision = Some(current_rev.to_string());
    ev.artifacts_added = artifacts_added;
    ev.details.insert("conflict_id".into(), json!(conf_id));
    ev.details.insert("base_revision".into(), json!(base));
    ev.details.insert("path".into(), json!(path));
    audit::append(dir, &ev)?;
    Err(DossierError::new(
        Code::ConcurrentEdit,
        format!(
            "the Dossier changed since {base} (now {head_rev}); your proposal was kept in {} and nothing else changed",
            path.display()
        ),
    )
    .with_details(json!({
        "conflict_id": conf_id,
        "conflict_path": path,
        "base_revision": base,
        "current_revision": head_rev,
    }))
    .with_next(format!(
        "recall the current Distilled State, reapply your change, and save with base_revision {head_rev}"
    )))
}

/// What a merge decided, for [`merge`] to write.
pub struct MergeDecision {
    pub plan: crate::policy::MergePlan,
}

/// What [`merge`] did.
#[derive(Debug)]
pub enum MergeWritten {
    /// Every conflict was resolved (or there were none): the target holds the converged
    /// state and the source's artifacts; the source is archived with `merged_into`.
    Completed(MergeOutcome),
    /// Conflicts remain: each is preserved as `conflicts/<id>.md` in the target (created once)
    /// and nothing else changed but the audit logs.
    Conflicts(Vec<(crate::policy::Conflict, PathBuf)>),
}

#[derive(Clone, Debug, Serialize)]
pub struct MergeOutcome {
    pub source_id: String,
    pub source_slug: String,
    pub target_id: String,
    pub target_slug: String,
    pub target_path: PathBuf,
    pub target_revision: String,
    /// Artifacts copied from the source into the target's archive by this run.
    pub artifacts_copied: Vec<String>,
    pub conflicts_resolved: Vec<String>,
    /// The merge had already completed (a re-run): nothing was written.
    pub already_merged: bool,
}

/// Key in the target's frontmatter listing the ids of the Dossiers merged into it; its
/// presence is the merge's commit point (see [`merge`]).
pub const MERGED_FROM: &str = "merged_from";
/// Key in a merged source's frontmatter naming the Dossier it was merged into.
pub const MERGED_INTO: &str = "merged_into";

#[cfg(debug_assertions)]
fn failpoint(name: &str) {
    // Crash tests: `DOSSIER_FAILPOINT=<name>` exits the process abruptly at that step, as a
    // power cut would. Compiled into debug builds only.
    if std::env::var("DOSSIER_FAILPOINT").is_ok_and(|v| v == name) {
        std::process::exit(86);
    }
}
#[cfg(not(debug_assertions))]
fn failpoint(_: &str) {}

/// Merge `source` into `target` (SPEC §8.7): the one write path of a merge.
///
/// Under both Dossiers' locks (taken in path order): `decide` runs the merge policy on the
/// current documents. Unresolved conflicts → each preserved in `conflicts/`, `merge_conflict`
/// (and `conflict_created` per new file) audited, nothing else written. Otherwise, in this
/// order: `merge_started` in both → copy every source artifact into the target archive
/// (atomic per file, skipped when already there) → write the target's `dossier.md` with the
/// converged state and `merged_from` (the commit point) → `conflict_resolved` per resolution
/// and `merge_completed` in the target → the source's `dossier.md` archived with
/// `merged_into` → `conflict_resolved`, `merge_completed` in the source. Mark the target's
/// merge conflict files resolved.
///
/// Idempotent: a run interrupted before the commit point left the target's `dossier.md`
/// untouched (copied artifacts are reused); after it, a re-run only finishes the source and
/// the events it finds missing. Source files are never deleted.
/// The copy of the source's artifacts is reported to `progress`.
#[allow(clippy::too_many_arguments)]
pub fn merge(
    store: &Store,
    source: &str,
    target: &str,
    actor: &str,
    session_id: &Option<String>,
    resolutions: &[crate::policy::Resolution],
    decide: impl FnOnce(&DossierDoc, &DossierDoc) -> Result<MergeDecision>,
    progress: &dyn Progress,
) -> Result<MergeWritten> {
    store.require()?;
    let sdir = store.resolve(source)?;
    let tdir = store.resolve(target)?;
    if fs::canonicalize(&sdir).ok() == fs::canonicalize(&tdir).ok() {
        return Err(DossierError::new(Code::InvalidInput, "source and target are the same Dossier")
            .with_next("name two different Dossiers: dossier merge <source> <target>"));
    }
    let (_l1, _l2) = if sdir < tdir { (lock(&sdir)?, lock(&tdir)?) } else { (lock(&tdir)?, lock(&sdir)?) };
    let sfile = sdir.join("dossier.md");
    let tfile = tdir.join("dossier.md");
    let stext = fs::read_to_string(&sfile).map_err(|e| DossierError::io("read", &sfile, e))?;
    let ttext = fs::read_to_string(&tfile).map_err(|e| DossierError::io("read", &tfile, e))?;
    let sdoc = DossierDoc::parse(&stext, &sfile)?;
    let tdoc = DossierDoc::parse(&ttext, &tfile)?;
    let (sid, tid) = (sdoc.frontmatter.id.clone(), tdoc.frontmatter.id.clone());

    let merged_into = sdoc.frontmatter.extra.get(MERGED_INTO).and_then(|v| v.as_str()).map(str::to_string);
    if let Some(into) = &merged_into
        && *into != tid
    {
        return Err(DossierError::new(
            Code::InvalidInput,
            format!("{} was already merged into {into}", sdoc.frontmatter.slug),
        )
        .with_next(format!("dossier show {into}")));
    }
    let committed = merged_from(&tdoc.frontmatter).contains(&sid);
    let mut outcome = MergeOutcome {
        source_id: sid.clone(),
        source_slug: sdoc.frontmatter.slug.clone(),
        target_id: tid.clone(),
        target_slug: tdoc.frontmatter.slug.clone(),
        target_path: tdir.clone(),
        target_revision: revision_of(&tdir, ttext.as_bytes()),
        artifacts_copied: Vec::new(),
        conflicts_resolved: resolutions.iter().map(|r| r.conflict_id.clone()).collect(),
        already_merged: false,
    };
    let source_done = merged_into.is_some() && sdoc.frontmatter.status == Status::Archived;
    let source_recorded = audit::read(&sdir)?.0.iter().any(|e| {
        e.event == EventKind::MergeCompleted && e.details.get("target_id").and_then(|v| v.as_str()) == Some(&tid)
    });
    if committed && source_done && source_recorded {
        outcome.already_merged = true;
        outcome.conflicts_resolved.clear();
        return Ok(MergeWritten::Completed(outcome));
    }

    let details = |ev: &mut AuditEvent| {
        ev.details.insert("source_id".into(), json!(sid));
        ev.details.insert("target_id".into(), json!(tid));
    };
    if !committed {
        let decision = decide(&sdoc, &tdoc)?;
        let plan = decision.plan;
        if !plan.unresolved.is_empty() {
            let cdir = tdir.join("conflicts");
            fs::create_dir_all(&cdir).map_err(|e| DossierError::io("create", &cdir, e))?;
            let mut out = Vec::new();
            let mut created = Vec::new();
            for c in plan.unresolved {
                let path = cdir.join(format!("{}.md", c.id));
                if !path.exists() {
                    files::write_atomic(&path, render_merge_conflict(&c, &sdoc, &tdoc).as_bytes())?;
                    created.push((c.id.clone(), path.clone()));
                }
                out.push((c, path));
            }
            let ids: Vec<&str> = out.iter().map(|(c, _)| c.id.as_str()).collect();
            for (dir, id) in [(&tdir, &tid), (&sdir, &sid)] {
                let mut ev = event(EventKind::MergeConflict, id, actor, session_id);
                details(&mut ev);
                ev.details.insert("conflict_ids".into(), json!(ids));
                audit::append(dir, &ev)?;
            }
            // The file lives in the target; both Dossiers' logs record it.
            for (conf, path) in created {
                for (dir, id) in [(&tdir, &tid), (&sdir, &sid)] {
                    let mut ev = event(EventKind::ConflictCreated, id, actor, session_id);
                    details(&mut ev);
                    ev.details.insert("conflict_id".into(), json!(conf));
                    ev.details.insert("kind".into(), json!("merge"));
                    ev.details.insert("path".into(), json!(path));
                    audit::append(dir, &ev)?;
                }
            }
            return Ok(MergeWritten::Conflicts(out));
        }
        for (dir, id) in [(&tdir, &tid), (&sdir, &sid)] {
            let mut ev = event(EventKind::MergeStarted, id, actor, session_id);
            details(&mut ev);
            audit::append(dir, &ev)?;
        }
        failpoint("merge_after_started");
        outcome.artifacts_copied = copy_artifacts(&sdir, &tdir, progress)?;
        failpoint("merge_after_artifacts");

        let mut fm = tdoc.frontmatter.clone();
        let now = model::now_timestamp();
        let before_rev = revision_of(&tdir, ttext.as_bytes());
        let fields_before = (fm.next_action.clone(), fm.status, fm.open_questions.clone());
        fm.next_action = plan.converged_next_action.clone();
        fm.status = status_of(plan.converged_status);
        for q in &sdoc.frontmatter.open_questions {
            if !fm.open_questions.iter().any(|o| o.trim().eq_ignore_ascii_case(q.trim())) {
                fm.open_questions.push(q.clone());
            }
        }
        let mut from = merged_from(&fm);
        from.push(sid.clone());
        fm.extra.insert(MERGED_FROM.into(), json!(from));
        fm.updated_at = now.clone();
        fm.last_touched_at = now;
        fm.base_revision = Some(before_rev.clone());
        let mut fields = vec![MERGED_FROM.to_string()];
        if fields_before.0 != fm.next_action {
            fields.push("next_action".into());
        }
        if fields_before.1 != fm.status {
            fields.push("status".into());
        }
        if fields_before.2 != fm.open_questions {
            fields.push("open_questions".into());
        }
        let doc = DossierDoc { frontmatter: fm, body: plan.converged_state };
        let text = doc.render();
        files::write_atomic(&tfile, text.as_bytes())?;
        failpoint("merge_after_target");
        let after_rev = revision_of(&tdir, text.as_bytes());
        outcome.target_revision = after_rev.clone();
        for r in resolutions {
            let mut ev = event(EventKind::ConflictResolved, &tid, actor, session_id);
            details(&mut ev);
            ev.details.insert("conflict_id".into(), json!(r.conflict_id));
            ev.details.insert("resolution".into(), resolution_json(&r.choice));
            audit::append(&tdir, &ev)?;
        }
        let mut ev = event(EventKind::MergeCompleted, &tid, actor, session_id);
        details(&mut ev);
        ev.before_revision = Some(before_rev);
        ev.after_revision = Some(after_rev);
        ev.artifacts_added = outcome.artifacts_copied.clone();
        ev.fields_changed = fields;
        ev.body_changed = doc.body != tdoc.body;
        audit::append(&tdir, &ev)?;
    } else {
        // Re-run after the commit point: the target's state is written; copy anything
        // missing (nothing, unless the archive was tampered with), record the target's
        // events if the interrupted run did not get to them, and finish the source.
        outcome.artifacts_copied = copy_artifacts(&sdir, &tdir, progress)?;
        let (events, _) = audit::read(&tdir)?;
        let recorded = events.iter().any(|e| {
            e.event == EventKind::MergeCompleted && e.details.get("source_id").and_then(|v| v.as_str()) == Some(&sid)
        });
        if !recorded {
            for r in resolutions {
                let mut ev = event(EventKind::ConflictResolved, &tid, actor, session_id);
                details(&mut ev);
                ev.details.insert("conflict_id".into(), json!(r.conflict_id));
                ev.details.insert("resolution".into(), resolution_json(&r.choice));
                audit::append(&tdir, &ev)?;
            }
            let mut ev = event(EventKind::MergeCompleted, &tid, actor, session_id);
            details(&mut ev);
            ev.after_revision = Some(outcome.target_revision.clone());
            ev.details.insert("resumed".into(), json!(true));
            audit::append(&tdir, &ev)?;
        }
    }
    mark_merge_conflicts_resolved(&tdir, &sid, resolutions)?;

    // The source: archived, pointing at the survivor; its files stay. (A re-run finds it
    // written and records only the events the interrupted run did not.)
    if !source_recorded {
        let before_rev = revision_of(&sdir, stext.as_bytes());
        let before_status = sdoc.frontmatter.status;
        let text = if source_done {
            stext.clone()
        } else {
            let mut fm = sdoc.frontmatter.clone();
            fm.status = Status::Archived;
            fm.extra.insert(MERGED_INTO.into(), json!(tid));
            fm.updated_at = model::now_timestamp();
            fm.base_revision = Some(before_rev.clone());
            let text = DossierDoc { frontmatter: fm, body: sdoc.body.clone() }.render();
            files::write_atomic(&sfile, text.as_bytes())?;
            failpoint("merge_after_source");
            text
        };
        for r in resolutions {
            let mut ev = event(EventKind::ConflictResolved, &sid, actor, session_id);
            details(&mut ev);
            ev.details.insert("conflict_id".into(), json!(r.conflict_id));
            ev.details.insert("resolution".into(), resolution_json(&r.choice));
            audit::append(&sdir, &ev)?;
        }
        let mut ev = event(EventKind::MergeCompleted, &sid, actor, session_id);
        details(&mut ev);
        ev.before_revision = Some(before_rev);
        ev.after_revision = Some(revision_of(&sdir, text.as_bytes()));
        ev.fields_changed = vec!["status".into(), MERGED_INTO.into()];
        ev.details.insert("from".into(), json!(before_status));
        ev.details.insert("to".into(), json!(Status::Archived));
        audit::append(&sdir, &ev)?;
    }
    Ok(MergeWritten::Completed(outcome))
}

fn merged_from(fm: &Frontmatter) -> Vec<String> {
    fm.extra
        .get(MERGED_FROM)
        .and_then(|v| v.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

fn status_of(s: crate::policy::LifecycleStatus) -> Status {
    use crate::policy::LifecycleStatus as L;
    match s {
        L::Active => Status::Active,
        L::Waiting => Status::Waiting,
        L::Blocked => Status::Blocked,
        L::Resolved => Status::Resolved,
        L::Archived => Status::Archived,
    }
}

/// A resolution as recorded in audit events and conflict files.
pub fn resolution_json(c: &crate::policy::ResolutionChoice) -> serde_json::Value {
    use crate::policy::ResolutionChoice as R;
    match c {
        R::KeepSource => json!({ "choice": "keep_source" }),
        R::KeepTarget => json!({ "choice": "keep_target" }),
        R::KeepBoth => json!({ "choice": "keep_both" }),
        R::Custom(text) => json!({ "choice": "custom", "text": text }),
    }
}

/// Copy every artifact file (content and sidecar) of `from` into `to`'s archive, each
/// atomically; files already there with the same bytes are skipped. Returns the ids of the
/// artifacts copied. A file of the same name with different bytes is an error: artifact ids
/// are unique, so it can only be damage, and nothing is overwritten.
fn copy_artifacts(from: &Path, to: &Path, progress: &dyn Progress) -> Result<Vec<String>> {
    let (src, dst) = (from.join("artifacts"), to.join("artifacts"));
    fs::create_dir_all(&dst).map_err(|e| DossierError::io("create", &dst, e))?;
    let mut names: Vec<String> = match fs::read_dir(&src) {
        Ok(entries) => entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect(),
        Err(_) => Vec::new(),
    };
    names.retain(|n| !n.starts_with('.'));
    names.sort();
    let mut copied = Vec::new();
    progress.start("copying the source's artifacts", names.len() as u64, Unit::Files);
    for name in names {
        progress.advance(1);
        let (from_file, to_file) = (src.join(&name), dst.join(&name));
        let bytes = fs::read(&from_file).map_err(|e| DossierError::io("read", &from_file, e))?;
        match fs::read(&to_file) {
            Ok(existing) if existing == bytes => continue,
            Ok(_) => {
                return Err(DossierError::new(
                    Code::InvalidInput,
                    format!("{} already exists with different content; nothing was overwritten", to_file.display()),
                )
                .with_next("run `dossier doctor` on both Dossiers"));
            }
            Err(_) => {}
        }
        files::write_atomic(&to_file, &bytes)?;
        if !name.ends_with(".meta.yaml") {
            let id = name.rsplit_once('.').map_or(name.as_str(), |(stem, _)| stem).to_string();
            copied.push(id);
        }
    }
    progress.finish();
    Ok(copied)
}

/// `conflicts/<id>.md` for a merge conflict: a YAML header and both sides as written.
fn render_merge_conflict(c: &crate::policy::Conflict, source: &DossierDoc, target: &DossierDoc) -> String {
    let header = json!({
        "id": c.id,
        "dossier_id": target.frontmatter.id,
        "kind": "merge",
        "conflict_kind": conflict_kind_name(c.kind),
        "subject": c.subject,
        "source_id": source.frontmatter.id,
        "target_id": target.frontmatter.id,
        "created_at": model::now_timestamp(),
        "resolved": false,
    });
    let yaml = serde_saphyr::to_string(&header).expect("conflict header serializes");
    let side = |label: &str, name: &str, s: &crate::policy::ConflictSide| {
        let at = if s.line == 0 { "frontmatter".to_string() } else { format!("line {}", s.line) };
        format!("## {label}: {name} ({at})\n\n{}\n", s.text.trim_end())
    };
    format!(
        "---\n{yaml}---\n\n# Merge conflict: {}\n\n{}\n{}\nResolve with `dossier merge {} {}` (asks for each conflict), or `dossier_merge` with `resolved_conflicts: [{{\"conflict_id\": \"{}\", \"choice\": \"keep_target | keep_source | keep_both | custom\", \"text\": \"...\"}}]`.\n",
        c.subject,
        side("Target", &target.frontmatter.name, &c.target),
        side("Source", &source.frontmatter.name, &c.source),
        source.frontmatter.slug,
        target.frontmatter.slug,
        c.id,
    )
}

pub fn conflict_kind_name(k: crate::policy::ConflictKind) -> &'static str {
    use crate::policy::ConflictKind as K;
    match k {
        K::ContradictoryDecision => "contradictory_decision",
        K::DivergentNextAction => "divergent_next_action",
        K::IncompatibleLifecycle => "incompatible_lifecycle",
        K::IncompatibleValue => "incompatible_value",
    }
}

/// Set `resolved: true` (and the resolution) in the target's merge conflict files of this
/// source. Conflict files are ours, not Dossier data: rewritten atomically, never deleted.
fn mark_merge_conflicts_resolved(
    tdir: &Path,
    source_id: &str,
    resolutions: &[crate::policy::Resolution],
) -> Result<()> {
    let cdir = tdir.join("conflicts");
    let Ok(entries) = fs::read_dir(&cdir) else { return Ok(()) };
    for e in entries.flatten() {
        let path = e.path();
        let Ok(text) = fs::read_to_string(&path) else { continue };
        let Some((mut header, body)) = split_conflict(&text) else { continue };
        if header.get("kind").and_then(|v| v.as_str()) != Some("merge")
            || header.get("source_id").and_then(|v| v.as_str()) != Some(source_id)
            || header.get("resolved").and_then(|v| v.as_bool()) == Some(true)
        {
            continue;
        }
        let id = header.get("id").and_then(|v| v.as_str()).unwrap_or_default().to_string();
        header.insert("resolved".into(), json!(true));
        header.insert("resolved_at".into(), json!(model::now_timestamp()));
        if let Some(r) = resolutions.iter().find(|r| r.conflict_id == id) {
            header.insert("resolution".into(), resolution_json(&r.choice));
        }
        let yaml = serde_saphyr::to_string(&header).expect("conflict header serializes");
        files::write_atomic(&path, format!("---\n{yaml}---\n{body}").as_bytes())?;
    }
    Ok(())
}

/// Mark one conflict file resolved (header `resolved: true`, `resolution`, `resolved_at`)
/// and audit `conflict_resolved`, under the Dossier's lock. The file is kept.
pub fn mark_conflict_resolved(
    dir: &Path,
    path: &Path,
    resolution: serde_json::Value,
    actor: &str,
    session_id: &Option<String>,
) -> Result<()> {
    let _lock = lock(dir)?;
    let text = fs::read_to_string(path).map_err(|e| DossierError::io("read", path, e))?;
    let (mut header, body) = split_conflict(&text)
        .ok_or_else(|| DossierError::new(Code::InvalidInput, format!("{} is not a conflict file", path.display())))?;
    let id = header.get("id").and_then(|v| v.as_str()).unwrap_or_default().to_string();
    let dossier_id = header.get("dossier_id").and_then(|v| v.as_str()).unwrap_or_default().to_string();
    header.insert("resolved".into(), json!(true));
    header.insert("resolved_at".into(), json!(model::now_timestamp()));
    header.insert("resolution".into(), resolution.clone());
    let yaml = serde_saphyr::to_string(&header).expect("conflict header serializes");
    files::write_atomic(path, format!("---\n{yaml}---\n{body}").as_bytes())?;
    let mut ev = event(EventKind::ConflictResolved, &dossier_id, actor, session_id);
    ev.details.insert("conflict_id".into(), json!(id));
    ev.details.insert("resolution".into(), resolution);
    audit::append(dir, &ev)
}

/// A conflict file's YAML header (as a map, keys in order) and the rest of the file.
pub fn split_conflict(text: &str) -> Option<(IndexMap<String, serde_json::Value>, &str)> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    let header = serde_saphyr::from_str(&rest[..end + 1]).ok()?;
    Some((header, &rest[end + 5..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn write(dir: &Path, text: &str) -> String {
        fs::write(dir.join("dossier.md"), text).unwrap();
        revision(dir).unwrap()
    }

    proptest! {
        #[test]
        fn revisions_are_stable_and_content_addressed(body in "[ -~\n]{0,400}", other in "[ -~]{1,20}") {
            let dir = tempfile::tempdir().unwrap();
            let a = write(dir.path(), &body);
            prop_assert!(a.starts_with("rev_") && a.len() == 36);
            prop_assert_eq!(&write(dir.path(), &body), &a, "same content, same revision");
            prop_assert_eq!(&write(dir.path(), &body.replace('\n', "\r\n")), &a, "line endings are canonicalised");
            let changed = format!("{body}{other}");
            prop_assert_ne!(&write(dir.path(), &changed), &a);
            write(dir.path(), &body);
            fs::create_dir_all(dir.path().join("artifacts")).unwrap();
            fs::write(dir.path().join("artifacts/art_1.txt"), "x").unwrap();
            prop_assert_ne!(&revision(dir.path()).unwrap(), &a, "the artifact manifest is part of the revision");
        }
    }
}

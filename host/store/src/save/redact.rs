//! `dossier redact <slug>` on the Save path (issue 20): rewrite what a Dossier already holds —
//! its `dossier.md` (Distilled State and free-text fields), every text artifact (content and
//! metadata) and every conflict file — with the redaction policy's markers in place of its
//! secrets, as one new revision audited as `artifact_redacted` with the counts per kind.
//!
//! Artifacts keep their ids, file names and line counts (the policy keeps lines: a secret over
//! n lines becomes n markers), so `[src:art_…#L…]` citations still resolve. Nothing is deleted;
//! a second run finds nothing and writes nothing. Everything is read, parsed and redacted
//! before the first write: a Dossier whose files do not parse is refused untouched.
//!
//! Not for: finding secrets (the policy, through `crate::redact`) or new content (`super::save`
//! redacts what it writes).

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Value, json};

use super::revision::{event, lock, revision_of};
use crate::app::App;
use crate::audit;
use crate::error::{Code, DossierError, Result};
use crate::files;
use crate::model::{self, ArtifactMeta, DossierDoc, EventKind};
use crate::redact::{Counts, Redactor, text_files};

/// What a `dossier redact` did to one Dossier.
#[derive(Clone, Debug, Serialize)]
pub struct RedactOutcome {
    pub id: String,
    pub slug: String,
    pub path: PathBuf,
    /// The revision now (the same as `before_revision` when nothing changed).
    pub revision: String,
    pub before_revision: String,
    /// Whether anything was rewritten.
    pub changed: bool,
    /// Files rewritten, relative to the Dossier's directory.
    pub files: Vec<String>,
    /// Artifacts whose content or metadata was rewritten (ids kept).
    pub artifacts: Vec<String>,
    /// Secrets replaced, per kind.
    pub redactions: Counts,
}

/// Rewrite the Dossier `target` (slug or id) with its secrets redacted: the rules run whatever
/// `privacy.redact` says (the user asked for this).
pub fn redact_stored(app: &App, target: &str, actor: &str, session_id: &Option<String>) -> Result<RedactOutcome> {
    let store = &app.store;
    store.require()?;
    let dir = store.resolve(target)?;
    crate::layout::check_entries(&dir)?;
    let _lock = lock(&dir)?;
    let redactor = Redactor::forced(app);
    let mut counts = Counts::new();

    let file = dir.join("dossier.md");
    let current_text = fs::read_to_string(&file).map_err(|e| DossierError::io("read", &file, e))?;
    let current = DossierDoc::parse(&current_text, &file)?;
    let current_rev = revision_of(&dir, current_text.as_bytes());
    let mut doc = current.clone();
    redactor.apply(&mut doc.body, &mut counts)?;
    let fm = &mut doc.frontmatter;
    for v in [&mut fm.name, &mut fm.next_action].into_iter().chain(fm.lead.as_mut()).chain(fm.open_questions.iter_mut())
    {
        redactor.apply(v, &mut counts)?;
    }
    let fields: Vec<String> = [
        ("name", doc.frontmatter.name != current.frontmatter.name),
        ("lead", doc.frontmatter.lead != current.frontmatter.lead),
        ("next_action", doc.frontmatter.next_action != current.frontmatter.next_action),
        ("open_questions", doc.frontmatter.open_questions != current.frontmatter.open_questions),
    ]
    .into_iter()
    .filter(|(_, changed)| *changed)
    .map(|(f, _)| f.to_string())
    .collect();
    let body_changed = doc.body != current.body;

    // Every other text file, rewritten in memory first.
    let mut rewrites: Vec<(PathBuf, String)> = Vec::new();
    for path in text_files(&dir).into_iter().skip(1) {
        let Ok(text) = fs::read_to_string(&path) else { continue }; // not UTF-8: never stored by a save
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let in_conflicts = path.parent().is_some_and(|p| p.ends_with("conflicts"));
        let new = if in_conflicts {
            redact_with_frontmatter(
                &text,
                &path,
                &mut counts,
                |yaml, counts| {
                    let mut header: Value = serde_saphyr::from_str(yaml).map_err(|e| unreadable(&path, e))?;
                    let before = header.clone();
                    redact_value(&redactor, &mut header, counts)?;
                    Ok(if header == before {
                        yaml.to_string()
                    } else {
                        serde_saphyr::to_string(&header).expect("conflict header serializes")
                    })
                },
                &redactor,
            )?
        } else if name.ends_with(".meta.yaml") {
            redact_meta(&redactor, &text, &path, &mut counts)?
        } else if name.ends_with(".md") {
            redact_with_frontmatter(
                &text,
                &path,
                &mut counts,
                |yaml, counts| redact_meta(&redactor, yaml, &path, counts),
                &redactor,
            )?
        } else {
            let mut t = text.clone();
            redactor.apply(&mut t, &mut counts)?;
            t
        };
        if new != text {
            rewrites.push((path, new));
        }
    }

    let slug = current.frontmatter.slug.clone();
    let id = current.frontmatter.id.clone();
    if rewrites.is_empty() && fields.is_empty() && !body_changed {
        return Ok(RedactOutcome {
            id,
            slug,
            path: dir,
            revision: current_rev.clone(),
            before_revision: current_rev,
            changed: false,
            files: Vec::new(),
            artifacts: Vec::new(),
            redactions: Counts::new(),
        });
    }
    let rel = |p: &Path| p.strip_prefix(&dir).unwrap_or(p).to_string_lossy().into_owned();
    let mut artifacts: Vec<String> = rewrites
        .iter()
        .filter(|(p, _)| p.parent().is_some_and(|d| d.ends_with("artifacts")))
        .filter_map(|(p, _)| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .map(|n| n.split('.').next().unwrap_or_default().to_string())
        .collect();
    artifacts.dedup();
    let mut files_changed: Vec<String> = rewrites.iter().map(|(p, _)| rel(p)).collect();

    // Artifacts and conflict files before dossier.md; the audit line last.
    crate::layout::check_entries(&dir)?;
    for (path, text) in &rewrites {
        files::write_atomic(path, text.as_bytes())?;
    }
    let now = model::now_timestamp();
    doc.frontmatter.updated_at = now;
    doc.frontmatter.base_revision = Some(current_rev.clone());
    let text = doc.render();
    files::write_atomic(&file, text.as_bytes())?;
    files_changed.insert(0, "dossier.md".into());
    let revision = revision_of(&dir, text.as_bytes());

    let mut ev = event(EventKind::ArtifactRedacted, &id, actor, session_id);
    ev.before_revision = Some(current_rev.clone());
    ev.after_revision = Some(revision.clone());
    ev.fields_changed = fields;
    ev.body_changed = body_changed;
    ev.details.insert("redactions".into(), json!(counts));
    ev.details.insert("artifacts".into(), json!(artifacts));
    ev.details.insert("files".into(), json!(files_changed));
    audit::append(&dir, &ev)?;
    Ok(RedactOutcome {
        id,
        slug,
        path: dir,
        revision,
        before_revision: current_rev,
        changed: true,
        files: files_changed,
        artifacts,
        redactions: counts,
    })
}

fn unreadable(path: &Path, e: impl std::fmt::Display) -> DossierError {
    DossierError::new(
        Code::InvalidFrontmatter,
        format!("{} does not parse ({e}); nothing was rewritten", path.display()),
    )
    .with_details(json!({ "path": path }))
    .with_next(format!("fix {} by hand (or move it aside), then run `dossier redact` again", path.display()))
}

/// An artifact's metadata (a sidecar, or a `.md` artifact's frontmatter) with its free-text
/// fields redacted; the original text when nothing was found.
fn redact_meta(redactor: &Redactor<'_>, yaml: &str, path: &Path, counts: &mut Counts) -> Result<String> {
    let mut meta: ArtifactMeta = serde_saphyr::from_str(yaml).map_err(|e| unreadable(path, e))?;
    let before = meta.clone();
    redactor.apply(&mut meta.title, counts)?;
    let p = &mut meta.provenance;
    for v in [&mut p.origin, &mut p.url, &mut p.path, &mut p.captured_by].into_iter().flatten() {
        redactor.apply(v, counts)?;
    }
    Ok(if meta == before { yaml.to_string() } else { serde_saphyr::to_string(&meta).expect("metadata serializes") })
}

/// A `---` frontmatter file: its YAML through `header`, its body through the redactor.
fn redact_with_frontmatter(
    text: &str,
    path: &Path,
    counts: &mut Counts,
    header: impl FnOnce(&str, &mut Counts) -> Result<String>,
    redactor: &Redactor<'_>,
) -> Result<String> {
    let Some(rest) = text.strip_prefix("---\n") else {
        return Err(unreadable(path, "no frontmatter"));
    };
    let Some(end) = rest.find("\n---\n") else {
        return Err(unreadable(path, "frontmatter is not closed"));
    };
    let yaml = &rest[..end + 1];
    let mut body = rest[end + 5..].to_string();
    let new_yaml = header(yaml, counts)?;
    redactor.apply(&mut body, counts)?;
    Ok(format!("---\n{new_yaml}---\n{body}"))
}

/// Every string in `v`, redacted in place.
fn redact_value(redactor: &Redactor<'_>, v: &mut Value, counts: &mut Counts) -> Result<()> {
    match v {
        Value::String(s) => redactor.apply(s, counts),
        Value::Array(items) => items.iter_mut().try_for_each(|i| redact_value(redactor, i, counts)),
        Value::Object(map) => map.values_mut().try_for_each(|i| redact_value(redactor, i, counts)),
        _ => Ok(()),
    }
}

//! Artifacts on their way into the Archive: validated and rendered before anything is
//! written (a rejected input writes nothing), written atomically, and copied between Dossiers
//! by a merge (never moved, never overwritten).
//!
//! Not for: reading the Archive (`crate::archive`).

use std::fs;
use std::path::Path;

use indexmap::IndexMap;
use serde_json::json;

use super::request::{ArtifactContent, MAX_ARTIFACT_BYTES, NewArtifact};
use crate::error::{Code, DossierError, Result};
use crate::files;
use crate::ids::{self, Prefix};
use crate::model::{ArtifactMeta, ContentFormat};
use crate::progress::{Progress, Unit};
use crate::redact::{Counts, Redactor};

/// An artifact validated and rendered, ready to write.
pub(super) struct Prepared {
    pub(super) meta: ArtifactMeta,
    pub(super) file_name: String,
    pub(super) bytes: Vec<u8>,
    pub(super) sidecar: Option<String>,
    pub(super) warning: Option<String>,
}

/// An artifact read and validated, not yet redacted or rendered.
pub(super) struct Staged {
    meta: ArtifactMeta,
    content: String,
    warning: Option<String>,
}

/// Read and validate every artifact (a rejected input writes nothing, not even the
/// redaction key), then redact each one's content and metadata through `redactor`, counting
/// into `counts`, and render it. A binary source is never stored, so only its metadata and
/// extraction are redacted.
pub(super) fn prepare(
    artifacts: &[NewArtifact],
    dossier_id: &str,
    now: &str,
    progress: &dyn Progress,
    redactor: &Redactor<'_>,
    counts: &mut Counts,
) -> Result<Vec<Prepared>> {
    let staged: Vec<Staged> =
        artifacts.iter().map(|a| prepare_one(a, dossier_id, now, progress)).collect::<Result<_>>()?;
    staged.into_iter().map(|s| s.redact(redactor, counts).map(Staged::render)).collect()
}

impl Staged {
    fn redact(mut self, redactor: &Redactor<'_>, counts: &mut Counts) -> Result<Staged> {
        redactor.apply(&mut self.content, counts)?;
        redactor.apply(&mut self.meta.title, counts)?;
        let p = &mut self.meta.provenance;
        for field in [&mut p.origin, &mut p.url, &mut p.path, &mut p.captured_by] {
            if let Some(v) = field.as_mut() {
                redactor.apply(v, counts)?;
            }
        }
        Ok(self)
    }

    fn render(self) -> Prepared {
        let Staged { meta, content, warning } = self;
        let yaml = serde_saphyr::to_string(&meta).expect("artifact metadata serializes");
        let file_name = format!("{}.{}", meta.id, meta.content_format.extension());
        let (bytes, sidecar) = match meta.content_format {
            ContentFormat::Markdown => (format!("---\n{yaml}---\n\n{content}").into_bytes(), None),
            _ => (content.into_bytes(), Some(yaml)),
        };
        Prepared { meta, file_name, bytes, sidecar, warning }
    }
}

/// Read a file in 1 MiB pieces, reporting bytes to `progress` (a large capture on a terminal).
pub(super) fn read_reporting(path: &Path, len: u64, what: &str, progress: &dyn Progress) -> std::io::Result<Vec<u8>> {
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

/// The refusal of an artifact over [`MAX_ARTIFACT_BYTES`]: one wording for every path that
/// checks (the Save path here, and callers that check a file's size before reading it).
pub fn artifact_too_large(title: &str, size: u64) -> DossierError {
    DossierError::new(
        Code::ArtifactTooLarge,
        format!("artifact `{title}` is {size} bytes; the limit is {MAX_ARTIFACT_BYTES} bytes (1 GiB)"),
    )
    .with_details(json!({ "title": title, "size": size, "limit": MAX_ARTIFACT_BYTES }))
    .with_next("capture a link artifact with the path and a summary instead")
}

fn prepare_one(a: &NewArtifact, dossier_id: &str, now: &str, progress: &dyn Progress) -> Result<Staged> {
    if a.title.trim().is_empty() {
        return Err(DossierError::new(Code::InvalidInput, "every artifact needs a title")
            .with_details(serde_json::json!({ "field": "artifacts.title", "expected": "a non-empty title" })));
    }
    let too_large = |size: u64| artifact_too_large(&a.title, size);
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
            )
            .with_details(serde_json::json!({ "field": "artifacts.content", "title": a.title, "expected": "JSON (content_format json)" })));
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
    Ok(Staged { meta, content, warning })
}

/// Write prepared artifacts (content before sidecar; each atomically). Returns their ids.
pub(super) fn write_artifacts(dir: &Path, prepared: &[Prepared]) -> Result<Vec<String>> {
    // Never through a symbolic link (SPEC §3.2), checked again right before writing.
    crate::layout::check_entries(dir)?;
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

/// Copy every artifact file (content and sidecar) of `from` into `to`'s archive, each
/// atomically; files already there with the same bytes are skipped. Returns the ids of the
/// artifacts copied. A file of the same name with different bytes is an error: artifact ids
/// are unique, so it can only be damage, and nothing is overwritten.
pub(super) fn copy_artifacts(from: &Path, to: &Path, progress: &dyn Progress) -> Result<Vec<String>> {
    crate::layout::check_entries(from)?;
    crate::layout::check_entries(to)?;
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
                .with_details(serde_json::json!({ "field": "artifacts", "path": to_file }))
                .with_next(crate::next::Next::per(
                    "run `dossier doctor` on both Dossiers",
                    "ask the user to run `dossier doctor`: an artifact file differs between the two Dossiers",
                )));
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

//! The Archive (SPEC §4.3): reading the metadata of a Dossier's captured artifacts.
//!
//! `.md` artifacts carry their metadata as frontmatter; `.json` and `.txt` artifacts have a
//! `<id>.meta.yaml` sidecar. Only metadata is read here: artifact content is never loaded
//! to list or show a Dossier.
//!
//! [`read_content`] loads one artifact's text, for the TUI's archive browser only.
//!
//! Not for: writing artifacts (the Save path does).

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::model::{ArtifactMeta, ArtifactType, ContentFormat};

#[derive(Clone, Debug, Serialize)]
pub struct ArtifactSummary {
    pub id: String,
    #[serde(rename = "type")]
    pub artifact_type: ArtifactType,
    pub title: String,
    pub content_format: ContentFormat,
    pub captured_at: String,
    pub size_bytes: u64,
    pub path: PathBuf,
}

/// Metadata of every artifact of the Dossier in `dir`, oldest first (ids are time-ordered),
/// and a message for each artifact whose metadata could not be read.
pub fn list(dir: &Path) -> (Vec<ArtifactSummary>, Vec<String>) {
    let adir = dir.join("artifacts");
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let Ok(entries) = fs::read_dir(&adir) else { return (out, problems) };
    let mut names: Vec<String> =
        entries.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    for name in names {
        let path = adir.join(&name);
        let meta = if name.ends_with(".meta.yaml") || name.starts_with('.') {
            continue;
        } else if name.ends_with(".md") {
            read_md_meta(&path)
        } else if let Some(stem) = name.strip_suffix(".json").or_else(|| name.strip_suffix(".txt")) {
            fs::read_to_string(adir.join(format!("{stem}.meta.yaml")))
                .map_err(|e| e.to_string())
                .and_then(|y| serde_saphyr::from_str::<ArtifactMeta>(&y).map_err(|e| e.to_string()))
        } else {
            Err("not a .md, .json or .txt artifact".to_string())
        };
        match meta {
            Ok(m) => out.push(ArtifactSummary {
                id: m.id,
                artifact_type: m.artifact_type,
                title: m.title,
                content_format: m.content_format,
                captured_at: m.captured_at,
                size_bytes: fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
                path,
            }),
            Err(e) => problems.push(format!("{}: {e}", path.display())),
        }
    }
    (out, problems)
}

/// Metadata of one artifact by id, from its frontmatter or sidecar.
pub fn read_meta(dir: &Path, id: &str) -> Option<ArtifactMeta> {
    let adir = dir.join("artifacts");
    let md = adir.join(format!("{id}.md"));
    if md.is_file() {
        return read_md_meta(&md).ok();
    }
    let y = fs::read_to_string(adir.join(format!("{id}.meta.yaml"))).ok()?;
    serde_saphyr::from_str(&y).ok()
}

/// One artifact's content as text (a `.md` artifact without its metadata frontmatter), for
/// reading it whole; never on listing or recall paths.
pub fn read_content(a: &ArtifactSummary) -> Result<String, String> {
    let bytes = fs::read(&a.path).map_err(|e| format!("could not read {}: {e}", a.path.display()))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if a.path.extension().is_some_and(|e| e == "md")
        && let Some(rest) = text.strip_prefix("---\n")
        && let Some(end) = rest.find("\n---\n")
    {
        return Ok(rest[end + 5..].trim_start_matches('\n').to_string());
    }
    Ok(text)
}

fn read_md_meta(path: &Path) -> Result<ArtifactMeta, String> {
    let f = fs::File::open(path).map_err(|e| e.to_string())?;
    let mut lines = BufReader::new(f).lines();
    if lines.next().transpose().map_err(|e| e.to_string())?.as_deref() != Some("---") {
        return Err("no frontmatter".into());
    }
    let mut yaml = String::new();
    for line in lines {
        let line = line.map_err(|e| e.to_string())?;
        if line == "---" {
            return serde_saphyr::from_str(&yaml).map_err(|e| e.to_string());
        }
        yaml.push_str(&line);
        yaml.push('\n');
    }
    Err("frontmatter is not closed".into())
}

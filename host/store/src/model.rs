//! The data model of SPEC §4: Dossier frontmatter and the Distilled State body, artifact
//! metadata, and audit events — their types, parsing, validation and canonical rendering.
//!
//! What it is for: turning bytes on disk into typed values and back, reporting
//! `invalid_frontmatter` with the file and line, and keeping keys a user added that we do
//! not know (they are re-emitted after the known keys, in their original order; YAML
//! comments inside frontmatter are not preserved).
//!
//! Not for: reading or writing files (see `store`, `save`, `audit`) or policy decisions.

use std::path::Path;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::error::{Code, DossierError, Result};

/// Lifecycle status (SPEC §4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Active,
    Waiting,
    Blocked,
    Resolved,
    Archived,
}

impl Status {
    pub const OPEN: [Status; 3] = [Status::Active, Status::Waiting, Status::Blocked];
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
}

/// Importance or urgency as written in frontmatter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    High,
    Low,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::High => "high",
            Level::Low => "low",
        }
    }
}

impl From<Level> for crate::policy::Level {
    fn from(l: Level) -> Self {
        match l {
            Level::High => crate::policy::Level::High,
            Level::Low => crate::policy::Level::Low,
        }
    }
}

/// Dossier frontmatter (SPEC §4.1). Field order here is the canonical order on disk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frontmatter {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub created_at: String,
    pub updated_at: String,
    pub last_touched_at: String,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<String>,
    pub next_action: String,
    pub open_questions: Vec<String>,
    pub importance: Level,
    pub urgency: Level,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_target: Option<u64>,
    /// The revision this content was written on top of (a hash chain through saves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_revision: Option<String>,
    /// Keys we do not know, kept as written.
    #[serde(flatten)]
    pub extra: IndexMap<String, serde_json::Value>,
}

/// Parsed times of a Dossier, in milliseconds since the epoch.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Times {
    pub updated_at: i64,
    pub last_touched_at: i64,
    pub due_date: Option<i64>,
}

fn millis(t: time::OffsetDateTime) -> i64 {
    (t.unix_timestamp_nanos() / 1_000_000) as i64
}

pub fn parse_timestamp(value: &str) -> Option<i64> {
    time::OffsetDateTime::parse(value, &time::format_description::well_known::Rfc3339).ok().map(millis)
}

pub fn parse_date(value: &str) -> Option<i64> {
    let fmt = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(value, &fmt).ok().map(|d| millis(d.midnight().assume_utc()))
}

/// Now as an RFC 3339 UTC timestamp with second precision (the on-disk form).
pub fn now_timestamp() -> String {
    let now = time::OffsetDateTime::now_utc().replace_nanosecond(0).expect("0 is a valid nanosecond");
    now.format(&time::format_description::well_known::Rfc3339).expect("UTC timestamps format")
}

impl Frontmatter {
    /// Check the values the types cannot (timestamps, date, non-empty name), naming the
    /// field and the file.
    pub fn validate(&self, file: &Path) -> Result<Times> {
        let bad = |field: &str, value: &str, what: &str| {
            DossierError::new(Code::InvalidFrontmatter, format!("{}: `{field}: {value}` is not {what}", file.display()))
                .with_details(serde_json::json!({ "file": file, "field": field }))
        };
        for (field, value) in [("created_at", &self.created_at), ("updated_at", &self.updated_at)] {
            parse_timestamp(value).ok_or_else(|| bad(field, value, "an RFC 3339 timestamp"))?;
        }
        let updated_at = parse_timestamp(&self.updated_at).expect("checked above");
        let last_touched_at = parse_timestamp(&self.last_touched_at)
            .ok_or_else(|| bad("last_touched_at", &self.last_touched_at, "an RFC 3339 timestamp"))?;
        let due_date = match &self.due_date {
            None => None,
            Some(d) => Some(parse_date(d).ok_or_else(|| bad("due_date", d, "a date (YYYY-MM-DD)"))?),
        };
        if self.name.trim().is_empty() {
            return Err(bad("name", &self.name, "a non-empty name"));
        }
        Ok(Times { updated_at, last_touched_at, due_date })
    }

    /// Canonical YAML for this frontmatter (without the `---` fences).
    pub fn to_yaml(&self) -> String {
        serde_saphyr::to_string(self).expect("frontmatter serializes")
    }
}

/// The required Distilled State sections, in order (SPEC §4.2).
pub const SECTIONS: [&str; 5] = ["Situation", "Decisions", "Findings", "Current State", "Next Steps"];

/// An empty Distilled State body with the required structure.
pub fn skeleton_body(name: &str) -> String {
    let mut s = format!("# {name}\n");
    for section in SECTIONS {
        s.push_str(&format!("\n## {section}\n"));
    }
    s
}

/// Structural problems of a Distilled State body: missing title, missing or out-of-order
/// required sections. Advisory: saves commit and return these as warnings.
pub fn body_structure_warnings(body: &str) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut found: Vec<(usize, &str)> = Vec::new();
    let mut has_title = false;
    let mut in_fence = false;
    for (n, line) in body.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if line.starts_with("# ") {
            has_title = true;
        } else if let Some(h) = line.strip_prefix("## ")
            && let Some(s) = SECTIONS.iter().find(|s| s.eq_ignore_ascii_case(h.trim()))
        {
            found.push((n + 1, s));
        }
    }
    if !has_title {
        warnings.push("Distilled State has no `# <Dossier Name>` title".to_string());
    }
    for s in SECTIONS {
        if !found.iter().any(|(_, f)| *f == s) {
            warnings.push(format!("Distilled State is missing the required section `## {s}`"));
        }
    }
    let order: Vec<usize> =
        found.iter().map(|(_, f)| SECTIONS.iter().position(|s| s == f).expect("found from SECTIONS")).collect();
    if order.windows(2).any(|w| w[0] > w[1]) {
        warnings.push(format!("Distilled State sections are out of order; required order: {}", SECTIONS.join(", ")));
    }
    warnings
}

/// A whole `dossier.md`: frontmatter and body.
#[derive(Clone, Debug, PartialEq)]
pub struct DossierDoc {
    pub frontmatter: Frontmatter,
    pub body: String,
}

/// Split `text` into its YAML frontmatter block and body. Returns the YAML and the body.
pub fn split_frontmatter<'a>(text: &'a str, file: &Path) -> Result<(&'a str, &'a str)> {
    let invalid = |line: usize, msg: &str| {
        DossierError::new(Code::InvalidFrontmatter, format!("{}:{line}: {msg}", file.display()))
            .with_details(serde_json::json!({ "file": file, "line": line }))
    };
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or_else(|| invalid(1, "expected `---` opening the YAML frontmatter"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']) == "---" {
            let yaml = &rest[..offset];
            let body = &rest[offset + line.len()..];
            return Ok((yaml, body));
        }
        offset += line.len();
    }
    Err(invalid(text.lines().count(), "frontmatter is not closed by `---`"))
}

/// Parse frontmatter YAML; errors carry the file and one line number, the file's (issue 18:
/// the parser's own, relative to the YAML block, is taken out of its message).
pub fn parse_frontmatter(yaml: &str, file: &Path) -> Result<Frontmatter> {
    serde_saphyr::from_str::<Frontmatter>(yaml).map_err(|e| {
        let msg = one_line(&e.to_string());
        let (reason, line) = match e.location().filter(|l| l.line() > 0) {
            Some(l) => {
                let (line, column) = (l.line() as usize, l.column() as usize);
                let reason = msg.replacen(&format!("line {line} column {column}: "), "", 1).replacen(
                    &format!("line {line} column {column}"),
                    "",
                    1,
                );
                let reason = reason.strip_prefix("error: ").unwrap_or(&reason).to_string();
                let line = where_the_mistake_is(yaml, &reason, line, column);
                (reason, Some(line))
            }
            None => (msg.strip_prefix("error: ").unwrap_or(&msg).to_string(), None),
        };
        // The YAML block starts on the file's line 2.
        let line = line.map(|l| l + 1);
        let at = line.map(|l| format!(":{l}")).unwrap_or_default();
        DossierError::new(Code::InvalidFrontmatter, format!("{}{at}: invalid frontmatter: {reason}", file.display()))
            .with_details(serde_json::json!({ "file": file, "line": line }))
    })
}

/// The YAML line (1-based) to name for a parse error the parser places at `line`:`column`:
/// for an unclosed quote the line where the quoted value opened (the parser notices only where
/// the next quote closes it), for a tab the line holding the tab (the parser names the start
/// of the value it was scanning), else `line`.
fn where_the_mistake_is(yaml: &str, reason: &str, line: usize, column: usize) -> usize {
    let line_of = |offset: usize| yaml[..offset].matches('\n').count() + 1;
    let start: usize = yaml.split_inclusive('\n').take(line - 1).map(str::len).sum();
    if start > yaml.len() {
        return line;
    }
    let offset = yaml[start..].char_indices().nth(column.saturating_sub(1)).map_or(yaml.len(), |(i, _)| start + i);
    for (quote, what) in [('"', "double-quoted"), ('\'', "single-quoted")] {
        if reason.contains(what) {
            let before = &yaml[..offset];
            let Some(closing) = before.rfind(quote) else { return line };
            let mut opening = &before[..closing];
            while let Some(i) = opening.rfind(quote) {
                if quote == '"' && opening[..i].ends_with('\\') {
                    opening = &opening[..i];
                    continue;
                }
                return line_of(i);
            }
            return line;
        }
    }
    if reason.contains("tab")
        && let Some(i) = yaml[start..].find('\t')
    {
        return line_of(start + i);
    }
    line
}

fn one_line(msg: &str) -> String {
    msg.lines().next().unwrap_or(msg).to_string()
}

impl DossierDoc {
    pub fn parse(text: &str, file: &Path) -> Result<DossierDoc> {
        let (yaml, body) = split_frontmatter(text, file)?;
        let frontmatter = parse_frontmatter(yaml, file)?;
        frontmatter.validate(file)?;
        let body = body.strip_prefix('\n').unwrap_or(body);
        Ok(DossierDoc { frontmatter, body: body.to_string() })
    }

    /// The canonical bytes of `dossier.md`.
    pub fn render(&self) -> String {
        // Line ends become `\n`, with every `\r` before it dropped, the final newline included
        // (added first): so rendering what was read gives the same bytes again (a single
        // `\r\n` -> `\n` pass would leave `\r\n` of `\r\r\n`, one `\r` fewer per rewrite).
        let mut text = self.body.clone();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        let mut body = String::with_capacity(text.len());
        for line in text.split_inclusive('\n') {
            body.push_str(line.trim_end_matches('\n').trim_end_matches('\r'));
            body.push('\n');
        }
        format!("---\n{}---\n\n{}", self.frontmatter.to_yaml(), body)
    }
}

/// Artifact types (SPEC §4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ArtifactType {
    Transcript,
    SourceSnapshot,
    FileSnapshot,
    Link,
    Query,
    DecisionEvidence,
}

/// How an artifact's content is stored: `.md` (with frontmatter), `.json`, or `.txt` (both
/// with a `<id>.meta.yaml` sidecar holding the same metadata).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContentFormat {
    Markdown,
    Json,
    Text,
}

impl ContentFormat {
    pub fn extension(self) -> &'static str {
        match self {
            ContentFormat::Markdown => "md",
            ContentFormat::Json => "json",
            ContentFormat::Text => "txt",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<String>,
    #[serde(flatten)]
    pub extra: IndexMap<String, serde_json::Value>,
}

/// Artifact metadata (SPEC §4.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArtifactMeta {
    pub id: String,
    pub dossier_id: String,
    #[serde(rename = "type")]
    pub artifact_type: ArtifactType,
    pub title: String,
    pub captured_at: String,
    pub refreshed_at: String,
    pub frozen: bool,
    pub provenance: Provenance,
    pub content_format: ContentFormat,
    pub source_size_bytes: u64,
    /// Set when the source was binary: only metadata (and any extraction) is stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binary_source: Option<bool>,
    #[serde(flatten)]
    pub extra: IndexMap<String, serde_json::Value>,
}

/// Audit event types (SPEC §4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    Create,
    Save,
    Promote,
    Link,
    MergeStarted,
    MergeCompleted,
    MergeConflict,
    StatusChanged,
    Archived,
    SnapshotRefreshed,
    SnapshotFrozen,
    AmbiguityConfirmed,
    ConflictCreated,
    ConflictResolved,
    TranscriptCaptureUnavailable,
    InstallWarning,
    /// `dossier redact`: stored files rewritten with their secrets replaced (issue 20).
    ArtifactRedacted,
}

/// One line of `audit.log`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditEvent {
    pub ts: String,
    pub event: EventKind,
    pub dossier_id: String,
    pub actor: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before_revision: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_revision: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub artifacts_added: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_estimate: Option<u64>,
    /// Frontmatter fields this event changed (used to auto-merge non-overlapping edits).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields_changed: Vec<String>,
    /// Whether this event replaced the Distilled State body.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub body_changed: bool,
    /// Event-specific details (conflict id, statuses, ...).
    #[serde(flatten)]
    pub details: IndexMap<String, serde_json::Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the frontmatter fuzz target (fuzz/regressions/frontmatter): a body ending in
    /// a lone `\r` rendered as `\r\n`, which the next render turned into `\n`, so rendering
    /// what was read changed the file's bytes.
    #[test]
    fn render_is_a_fixed_point_for_a_body_ending_in_a_carriage_return() {
        let file = Path::new("dossier.md");
        let doc = DossierDoc { frontmatter: sample(), body: "# X\n\nlast line\r".into() };
        let once = doc.render();
        let twice = DossierDoc::parse(&once, file).unwrap().render();
        assert_eq!(twice, once);
    }

    /// Found by the frontmatter fuzz target too: `\r\r\n` lost one `\r` per render.
    #[test]
    fn render_is_a_fixed_point_for_carriage_returns_before_a_newline() {
        let file = Path::new("dossier.md");
        let doc = DossierDoc { frontmatter: sample(), body: "# X\n\na\r\r\r\nb\r\n".into() };
        let once = doc.render();
        let twice = DossierDoc::parse(&once, file).unwrap().render();
        assert_eq!(twice, once);
    }

    fn sample() -> Frontmatter {
        Frontmatter {
            id: "dos_01jz8example000000000000000".into(),
            name: "Pricing model refresh".into(),
            slug: "pricing-model-refresh".into(),
            created_at: "2026-06-14T15:40:00-07:00".into(),
            updated_at: "2026-06-14T16:10:00-07:00".into(),
            last_touched_at: "2026-06-14T16:10:00-07:00".into(),
            status: Status::Active,
            lead: Some("Alice".into()),
            next_action: "Compare revised pricing scenarios: with sales feedback.".into(),
            open_questions: vec!["Does Sales prefer account-tier or usage-tier packaging?".into()],
            importance: Level::High,
            urgency: Level::Low,
            due_date: Some("2026-06-21".into()),
            token_target: Some(100000),
            base_revision: None,
            extra: IndexMap::new(),
        }
    }

    #[test]
    fn spec_example_round_trips() {
        let doc = DossierDoc { frontmatter: sample(), body: skeleton_body("Pricing model refresh") };
        let text = doc.render();
        let back = DossierDoc::parse(&text, Path::new("d.md")).unwrap();
        assert_eq!(back, doc);
        assert_eq!(back.render(), text, "rendering is canonical");
        assert!(body_structure_warnings(&doc.body).is_empty());
    }

    #[test]
    fn unknown_keys_survive_a_rewrite() {
        let text = "---\nid: dos_1\nname: N\nslug: n\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\n\
                    last_touched_at: 2026-01-01T00:00:00Z\nstatus: active\nnext_action: x\nopen_questions: []\n\
                    importance: high\nurgency: low\nmy_team: platform\nlabels:\n  - a\n  - b\n---\n\n# N\n";
        let doc = DossierDoc::parse(text, Path::new("d.md")).unwrap();
        assert_eq!(doc.frontmatter.extra["my_team"], "platform");
        let again = DossierDoc::parse(&doc.render(), Path::new("d.md")).unwrap();
        assert_eq!(again.frontmatter.extra["labels"], serde_json::json!(["a", "b"]));
    }

    #[test]
    fn invalid_frontmatter_names_file_and_line() {
        let e = DossierDoc::parse("---\nid: x\nstatus: [\n---\n", Path::new("/s/a/dossier.md")).unwrap_err();
        assert_eq!(e.code, Code::InvalidFrontmatter);
        assert!(e.message.starts_with("/s/a/dossier.md:"), "{}", e.message);
        let e = DossierDoc::parse("no frontmatter", Path::new("f.md")).unwrap_err();
        assert_eq!(e.message, "f.md:1: expected `---` opening the YAML frontmatter");
        let mut fm = sample();
        fm.status = Status::Active;
        let text =
            DossierDoc { frontmatter: fm, body: String::new() }.render().replace("status: active", "status: paused");
        let e = DossierDoc::parse(&text, Path::new("f.md")).unwrap_err();
        assert_eq!(e.code, Code::InvalidFrontmatter);
        assert!(e.message.contains("paused") || e.message.contains("status"), "{}", e.message);
        let text = DossierDoc { frontmatter: sample(), body: String::new() }.render().replace("2026-06-21", "June 21");
        let e = DossierDoc::parse(&text, Path::new("f.md")).unwrap_err();
        assert!(e.message.contains("due_date"), "{}", e.message);
    }

    #[test]
    fn structure_warnings_name_missing_and_misordered_sections() {
        let w = body_structure_warnings("# T\n\n## Findings\n\n## Situation\n");
        assert!(w.iter().any(|w| w.contains("`## Decisions`")));
        assert!(w.iter().any(|w| w.contains("out of order")));
        assert!(body_structure_warnings("## Situation\n").iter().any(|w| w.contains("title")));
        let fenced = format!("{}\n```\n## Situation\n```\n", skeleton_body("T"));
        assert!(body_structure_warnings(&fenced).is_empty());
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        fn text() -> impl Strategy<Value = String> {
            // Printable text including YAML-significant characters.
            "[ -~]{0,40}".prop_map(|s| s)
        }

        proptest! {
            #[test]
            fn frontmatter_round_trips(name in "[A-Za-z0-9][ -~]{0,30}", next in text(), lead in proptest::option::of(text()),
                                       qs in proptest::collection::vec(text(), 0..4), body in "[ -~\n]{0,200}") {
                let mut fm = sample();
                fm.name = name.clone();
                fm.next_action = next;
                fm.lead = lead;
                fm.open_questions = qs;
                let doc = DossierDoc { frontmatter: fm, body };
                let text = doc.render();
                let back = DossierDoc::parse(&text, Path::new("d.md")).unwrap();
                prop_assert_eq!(&back.frontmatter, &doc.frontmatter);
                prop_assert_eq!(back.render(), text);
            }
        }
    }
}

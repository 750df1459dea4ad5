//! The SessionEnd and PreCompact hooks (SPEC §5.2): capture the new part of the session's
//! transcript (whole lines only) as a `transcript` artifact of the bound Dossier through the
//! Save path; SessionEnd with `reason: clear` then clears the binding (the Dossier on disk is
//! untouched). Unbound sessions capture nothing; an unavailable transcript is recorded in the
//! Dossier's audit log and said in one warning. With `sync.auto` on in a synced store, a
//! background `dossier sync` is started after the capture (the push; never waited for).
//!
//! Not for: the save cadence (`stop`), or what a transcript artifact is (`dossier_store::save`).

use serde_json::json;

use crate::app::App;
use crate::hooks::input::{HookInput, bound_dossier};
use crate::hooks::output::{HookOutput, warnings_output};
use dossier_store::audit;
use dossier_store::context;
use dossier_store::error::Result;
use dossier_store::model::{ArtifactType, ContentFormat, EventKind, Provenance};
use dossier_store::save::{self, ArtifactContent, NewArtifact, SaveRequest};
use dossier_store::sessions::{self, TranscriptCapture};

/// SessionEnd: capture, then `/clear` unbinds the session.
pub(crate) fn session_end(app: &App, input: &HookInput) -> Result<HookOutput> {
    let mut warnings = capture_transcript(app, input, "hook:session-end")?;
    push_in_background(app, &mut warnings);
    if input.reason.as_deref() == Some("clear")
        && let Some(b) = sessions::read(&app.store, &input.session_id)?
        && b.dossier_id.is_some()
    {
        // `/clear` removes the Dossier from the session, never from disk (SPEC §5.2).
        sessions::write(app, &input.session_id, None, None)?;
    }
    Ok(warnings_output(&warnings))
}

/// PreCompact: capture what the compaction is about to summarise away.
pub(crate) fn pre_compact(app: &App, input: &HookInput) -> Result<HookOutput> {
    let mut warnings = capture_transcript(app, input, "hook:pre-compact")?;
    push_in_background(app, &mut warnings);
    Ok(warnings_output(&warnings))
}

/// `sync.auto` (docs/sync.md): after the capture, a background `dossier sync` pushes it; the
/// hook never waits for it (the SessionEnd budget holds). A sync already running is left to
/// finish (the next one carries what it missed); one that cannot start is a warning.
fn push_in_background(app: &App, warnings: &mut Vec<String>) {
    if !app.config.sync.auto || !app.store.is_synced() {
        return;
    }
    if let Err(e) = crate::ops::sync::start_background(app, None) {
        warnings.push(format!("sync.auto: the background sync could not start ({}); run `dossier sync`", e.message));
    }
}

/// Archive the part of the session's transcript not yet captured (whole lines only).
/// Unbound sessions capture nothing. Returns warnings for the user.
fn capture_transcript(app: &App, input: &HookInput, actor: &str) -> Result<Vec<String>> {
    let Some((mut binding, id)) = bound_dossier(app, &input.session_id)? else { return Ok(Vec::new()) };
    let unavailable = |reason: String| -> Result<Vec<String>> {
        let dir = app.store.resolve(&id)?;
        let session = (!input.session_id.is_empty()).then(|| input.session_id.clone());
        let mut ev = save::event(EventKind::TranscriptCaptureUnavailable, &id, actor, &session);
        ev.details.insert("reason".into(), json!(reason));
        audit::append(&dir, &ev)?;
        Ok(vec![format!("transcript not captured for {}: {reason}", crate::ops::list::label(app, &id))])
    };
    let Some(path) = input.transcript_path.clone().filter(|p| !p.as_os_str().is_empty()) else {
        return unavailable("Claude Code sent no transcript_path".into());
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => return unavailable(format!("{} is not readable: {e}", path.display())),
    };
    let path_text = path.display().to_string();
    let already = match &binding.transcript {
        Some(t) if t.path == path_text && t.captured_bytes <= bytes.len() as u64 => t.captured_bytes as usize,
        _ => 0,
    };
    // Only whole lines: a line still being written is captured next time.
    let end = bytes[already..].iter().rposition(|&b| b == b'\n').map_or(already, |p| already + p + 1);
    if end == already {
        return Ok(Vec::new());
    }
    let text = String::from_utf8_lossy(&bytes[already..end]).into_owned();
    let first_line = bytes[..already].iter().filter(|&&b| b == b'\n').count() + 1;
    let last_line = first_line + text.matches('\n').count() - 1;
    let artifact = NewArtifact {
        artifact_type: ArtifactType::Transcript,
        title: format!("Claude Code transcript {} (lines {first_line}-{last_line})", input.session_id),
        content_format: ContentFormat::Text,
        content: ArtifactContent::Text(text),
        provenance: Provenance {
            origin: Some("Claude Code".into()),
            path: Some(path_text.clone()),
            captured_by: Some(format!("dossier {actor}")),
            harness: Some("claude-code".into()),
            ..Provenance::default()
        },
        extraction: None,
    };
    let req = SaveRequest {
        artifacts: vec![artifact],
        actor: actor.to_string(),
        session_id: Some(input.session_id.clone()),
        calibration: app.config.tokens.calibration,
        token_target: app.config.token_target,
        ..SaveRequest::default()
    };
    let outcome = match save::save(app, &id, req, &crate::progress::SILENT) {
        Ok(o) => o,
        Err(e) => return unavailable(format!("saving the transcript failed: {}", e.message)),
    };
    let mut artifacts =
        binding.transcript.take().filter(|t| t.path == path_text).map(|t| t.artifacts).unwrap_or_default();
    artifacts.extend(outcome.artifacts_added.iter().cloned());
    binding.transcript = Some(TranscriptCapture { path: path_text, captured_bytes: end as u64, artifacts });
    // Archiving the transcript is not the agent saving its work: the save cadence keeps
    // measuring from the agent's last save.
    if let Some(check) = binding.save_check.as_mut()
        && outcome.before_revision.as_deref() == Some(check.revision.as_str())
    {
        check.revision = outcome.revision.clone();
    }
    sessions::update(&app.store, &binding)?;
    let mut warnings = outcome.warnings;
    if let Some(s) = dossier_store::redact::summary(&outcome.redactions) {
        warnings.push(format!("transcript archived; {s}"));
    }
    if let Some(w) = context::after_mutation(app) {
        warnings.push(w);
    }
    Ok(warnings)
}

//! Claude Code hook handlers: `dossier hook <event>` with the event's JSON on stdin
//! (SPEC §9, §5.2; docs/harness-capabilities.md for what Claude Code sends and accepts).
//!
//! - `session-start`: unbound session → the one-line nudge of SPEC §9.1 (paid on every
//!   session, so kept to ~60 tokens); bound session (after `resume`/`compact`) → the guide
//!   pointer and the active Distilled State in full when it fits under Claude Code's
//!   ~10,000-character hook cap, otherwise a compact header and the exact calls that load
//!   it in pages. Never output that Claude Code would cut to a preview.
//! - `session-end`, `pre-compact`: capture the new part of the transcript as a `transcript`
//!   artifact of the bound Dossier through the Save path; `reason: clear` then clears the
//!   binding (the Dossier on disk is untouched).
//! - `stop`: the save cadence — ask the agent once to save when the transcript has grown
//!   by `hooks.save_reminder_bytes` since the bound Dossier last changed — and codecall's
//!   recommendation card (`card`): one non-blocking `systemMessage` line when the session's
//!   changes are worth a learning session.
//!
//! Invariants: a hook always exits 0 and never prints a stack trace into the session; an
//! internal failure becomes one visible warning line. Each event has a deadline (SessionEnd
//! shares Claude Code's 1.5 s budget) after which the process says so and exits. Nothing
//! on this path compiles the policy component (a cold cache degrades the nudge's order and
//! says so).
//!
//! Not for: registration (see `claude`), or deciding what a Distilled State says.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde_json::json;

use crate::app::App;
use crate::audit;
use crate::context;
use crate::error::{Code, DossierError, Result};
use crate::listing;
use crate::model::{self, ArtifactType, ContentFormat, EventKind, Provenance, Status};
use crate::recall;
use crate::save::{self, ArtifactContent, NewArtifact, SaveRequest};
use crate::sessions::{self, SaveCheck, TranscriptCapture};

/// Claude Code injects session-start output up to about this many characters in full; a
/// longer output is saved to a file and the model sees a 2 KB preview (DESIGN.md §4).
pub const HOOK_OUTPUT_CAP: usize = 10_000;
/// What we allow ourselves under that cap (headroom for Claude Code's own prefix).
const HOOK_OUTPUT_BUDGET: usize = 9_500;

/// The events Claude Code sends, by the names `dossier hook` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    SessionStart,
    SessionEnd,
    PreCompact,
    Stop,
}

impl Event {
    pub const ALL: [Event; 4] = [Event::SessionStart, Event::SessionEnd, Event::PreCompact, Event::Stop];

    pub fn parse(name: &str) -> Option<Event> {
        Event::ALL.into_iter().find(|e| e.arg() == name)
    }

    /// The argument of `dossier hook`.
    pub fn arg(self) -> &'static str {
        match self {
            Event::SessionStart => "session-start",
            Event::SessionEnd => "session-end",
            Event::PreCompact => "pre-compact",
            Event::Stop => "stop",
        }
    }

    /// Claude Code's name for the event (settings.json key, `hook_event_name`).
    pub fn claude_name(self) -> &'static str {
        match self {
            Event::SessionStart => "SessionStart",
            Event::SessionEnd => "SessionEnd",
            Event::PreCompact => "PreCompact",
            Event::Stop => "Stop",
        }
    }

    /// The registration that runs this handler (`dossier init`'s and the plugin's).
    pub fn hook_event(self) -> crate::claude::HookEvent {
        use crate::claude::HookEvent;
        match self {
            Event::SessionStart => HookEvent::SessionStart,
            Event::SessionEnd => HookEvent::SessionEnd,
            Event::PreCompact => HookEvent::PreCompact,
            Event::Stop => HookEvent::Stop,
        }
    }

    /// How long the handler may take before it gives up with a warning.
    fn deadline(self) -> Duration {
        match self {
            // Claude Code gives all SessionEnd hooks 1.5 s together.
            Event::SessionEnd => Duration::from_millis(1_200),
            Event::PreCompact => Duration::from_secs(10),
            Event::SessionStart => Duration::from_secs(5),
            Event::Stop => Duration::from_secs(3),
        }
    }
}

/// The fields of Claude Code's hook input that Dossier uses (others are ignored).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct HookInput {
    #[serde(default)]
    pub session_id: String,
    #[serde(default)]
    pub transcript_path: Option<PathBuf>,
    /// SessionStart: `startup`, `resume`, `clear` or `compact`.
    #[serde(default)]
    pub source: Option<String>,
    /// SessionEnd: `clear`, `logout`, `prompt_input_exit`, `other`, ...
    #[serde(default)]
    pub reason: Option<String>,
    /// Stop: true when Claude Code is already continuing because of a Stop hook.
    #[serde(default)]
    pub stop_hook_active: bool,
    /// The session's working directory (every event).
    #[serde(default)]
    pub cwd: Option<PathBuf>,
}

/// What a hook prints on stdout (always with exit code 0).
#[derive(Clone, Debug, PartialEq)]
pub enum HookOutput {
    Silent,
    /// Plain text: for SessionStart, injected into the model's context.
    Text(String),
    /// A JSON object Claude Code interprets (`decision`, `reason`, `systemMessage`).
    Json(serde_json::Value),
}

impl HookOutput {
    pub fn render(&self) -> String {
        match self {
            HookOutput::Silent => String::new(),
            HookOutput::Text(t) => t.clone(),
            HookOutput::Json(v) => format!("{v}\n"),
        }
    }

    /// A one-line warning the user sees, in the form the event allows.
    fn warning(event: Event, message: &str) -> HookOutput {
        let line = format!("dossier: {}", message.lines().next().unwrap_or("hook failed"));
        match event {
            // SessionStart stdout reaches the model; say it there too.
            Event::SessionStart => HookOutput::Text(format!("Warning: {line}\n")),
            _ => HookOutput::Json(json!({ "systemMessage": line })),
        }
    }
}

/// Run the handler for `event_name` with Claude Code's JSON on `stdin`, within the event's
/// deadline. Never fails: every error becomes a warning output.
pub fn run(event_name: &str, mut stdin: impl Read) -> HookOutput {
    let Some(event) = Event::parse(event_name) else {
        let names: Vec<&str> = Event::ALL.iter().map(|e| e.arg()).collect();
        return HookOutput::Json(json!({
            "systemMessage": format!("dossier: unknown hook event `{event_name}` (known: {}); re-run `dossier init`", names.join(", "))
        }));
    };
    let mut raw = String::new();
    if let Err(e) = stdin.read_to_string(&mut raw) {
        return HookOutput::warning(event, &format!("could not read the hook input: {e}"));
    }
    let input: HookInput = match serde_json::from_str(&raw) {
        Ok(i) => i,
        Err(e) => return HookOutput::warning(event, &format!("hook input is not the JSON Claude Code sends: {e}")),
    };
    if let Some(out) = plugin_stands_down(event) {
        return out;
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let out = std::panic::catch_unwind(|| handle(event, &input))
            .unwrap_or_else(|_| Err(DossierError::new(Code::InvalidInput, "internal error in the hook handler")));
        let _ = tx.send(out);
    });
    match rx.recv_timeout(event.deadline()) {
        Ok(Ok(out)) => out,
        Ok(Err(e)) => HookOutput::warning(event, &e.message),
        Err(_) => HookOutput::warning(
            event,
            &format!(
                "the {} hook did not finish within {} ms and was skipped; run `dossier doctor`",
                event.arg(),
                event.deadline().as_millis()
            ),
        ),
    }
}

/// When the dossier plugin started this hook and `dossier init`'s hook for the same event is
/// registered and working too, Claude Code runs both: init's does the work, this one stands
/// down (silent, except one warning line at session start saying how to keep one).
fn plugin_stands_down(event: Event) -> Option<HookOutput> {
    let root = crate::plugin::launched_from()?;
    let paths = crate::claude::Paths::from_env()?;
    let registration = crate::claude::inspect_with(&paths, Some(root));
    if !matches!(registration.hook(event.hook_event()), crate::claude::Capability::Available { .. }) {
        return None;
    }
    Some(match event {
        Event::SessionStart => {
            let w = registration.double_registration();
            HookOutput::Text(w.iter().map(|w| format!("Warning: dossier: {w}\n")).collect())
        }
        _ => HookOutput::Silent,
    })
}

fn handle(event: Event, input: &HookInput) -> Result<HookOutput> {
    let app = crate::app::open()?;
    if !app.store.exists() {
        return Ok(match event {
            Event::SessionStart => HookOutput::Text(format!(
                "Dossier: no store at {} yet; run `dossier init`.\n",
                app.store.root().display()
            )),
            _ => HookOutput::Silent,
        });
    }
    // Hooks never compile the policy component: a cold cache is reported, not paid for.
    crate::app::forbid_compile(&app);
    match event {
        Event::SessionStart => session_start(&app, input),
        Event::SessionEnd => {
            let warnings = capture_transcript(&app, input, "hook:session-end")?;
            if input.reason.as_deref() == Some("clear")
                && let Some(b) = sessions::read(&app.store, &input.session_id)?
                && b.dossier_id.is_some()
            {
                // `/clear` removes the Dossier from the session, never from disk (SPEC §5.2).
                sessions::write(&app, &input.session_id, None, None)?;
            }
            Ok(warnings_output(&warnings))
        }
        Event::PreCompact => {
            let warnings = capture_transcript(&app, input, "hook:pre-compact")?;
            Ok(warnings_output(&warnings))
        }
        Event::Stop => {
            // The codecall card never depends on (or changes) the save cadence's outcome.
            let card = crate::card::check(&app, input);
            with_card(stop(&app, input), card)
        }
    }
}

/// The Stop hook's output with the codecall card added as (or to) its `systemMessage`: the
/// card is for the user only, and never turns a stop into a block or a block into a stop.
fn with_card(out: Result<HookOutput>, card: Option<String>) -> Result<HookOutput> {
    let Some(card) = card else { return out };
    let mut value = match out {
        Ok(HookOutput::Json(v)) if v.is_object() => v,
        Ok(_) => json!({}),
        Err(e) => match HookOutput::warning(Event::Stop, &e.message) {
            HookOutput::Json(v) => v,
            _ => json!({}),
        },
    };
    let message = match value.get("systemMessage").and_then(|m| m.as_str()) {
        Some(m) if !m.is_empty() => format!("{m}\n{card}"),
        _ => card,
    };
    value["systemMessage"] = json!(message);
    Ok(HookOutput::Json(value))
}

fn warnings_output(warnings: &[String]) -> HookOutput {
    if warnings.is_empty() {
        HookOutput::Silent
    } else {
        HookOutput::Json(json!({ "systemMessage": format!("dossier: {}", warnings.join("; ")) }))
    }
}

/// The bound Dossier of a session, if any.
fn bound_dossier(app: &App, session_id: &str) -> Result<Option<(sessions::Binding, String)>> {
    if session_id.is_empty() {
        return Ok(None);
    }
    let Some(binding) = sessions::read(&app.store, session_id)? else { return Ok(None) };
    let Some(id) = binding.dossier_id.clone() else { return Ok(None) };
    Ok(Some((binding, id)))
}

fn session_start(app: &App, input: &HookInput) -> Result<HookOutput> {
    // Live: what is registered now (the session-start hook itself proves little else).
    let mut warnings = crate::claude::current_warnings();
    if let Some(p) = &input.transcript_path
        && !p.as_os_str().is_empty()
        && std::fs::metadata(p).is_err()
        && input.source.as_deref() != Some("startup")
    {
        warnings.push(format!("Transcript {} is not readable; transcript capture will fail.", p.display()));
    }
    if let Some((_, id)) = bound_dossier(app, &input.session_id)? {
        match bound_payload(app, &id, &warnings) {
            Ok(text) => return Ok(HookOutput::Text(text)),
            Err(e) => warnings.push(format!("the bound Dossier `{id}` could not be loaded: {}", e.message)),
        }
    }
    Ok(HookOutput::Text(nudge(app, &warnings)))
}

/// The unbound payload: one line (plus any capability warnings), names in priority order
/// while they fit the token budget.
pub fn nudge(app: &App, warnings: &[String]) -> String {
    let mut out = String::new();
    for w in warnings {
        out.push_str(&format!("Warning: {w}\n"));
    }
    let (names, order_note) = match listing::list(app, &Status::OPEN, listing::now_millis()) {
        Ok(l) => (l.dossiers.into_iter().map(|d| d.name).collect::<Vec<_>>(), None),
        Err(e) => (open_names_unordered(app), Some(e.message)),
    };
    if let Some(note) = order_note {
        out.push_str(&format!("Warning: open dossiers are not in priority order ({note}).\n"));
    }
    let guide = tilde(&app.store.guide_path());
    if names.is_empty() {
        out.push_str(&format!("Dossier: no open dossiers; dossier_promote starts one. Guide: {guide}\n"));
        return out;
    }
    let line = |shown: usize| {
        let mut list = names[..shown].join("; ");
        if shown < names.len() {
            list.push_str(&format!("; +{}", names.len() - shown));
        }
        format!(
            "Dossier: {} open: {list} (dossier_list). Resume: dossier_session. New: dossier_promote. Guide: {guide}\n",
            names.len()
        )
    };
    // Names while the line stays within the budget (at least one name). The budget is in
    // characters: loading the tokenizer costs more than this whole hook may take.
    let mut shown = 1;
    while shown < names.len() && line(shown + 1).chars().count() <= NUDGE_CHARS {
        shown += 1;
    }
    out.push_str(&line(shown));
    out
}

/// Character budget of the unbound nudge line (it is paid on every session): at the
/// ~2.6 characters per estimated Claude token measured on such lines, ≤ 60 tokens
/// (tests/hooks.rs checks the estimate with the real tokenizer).
pub const NUDGE_CHARS: usize = 155;

fn open_names_unordered(app: &App) -> Vec<String> {
    let Ok(files) = app.store.dossier_files() else { return Vec::new() };
    app.frontmatter
        .read(&files)
        .into_iter()
        .filter_map(|r| r.ok())
        .filter(|(fm, _)| Status::OPEN.contains(&fm.status))
        .map(|(fm, _)| fm.name)
        .collect()
}

/// `~/...` for paths under the home directory (shorter in every session's context).
fn tilde(p: &Path) -> String {
    match std::env::var_os("HOME").map(PathBuf::from) {
        Some(home) if !home.as_os_str().is_empty() => match p.strip_prefix(&home) {
            Ok(rest) => format!("~/{}", rest.display()),
            Err(_) => p.display().to_string(),
        },
        _ => p.display().to_string(),
    }
}

/// The bound payload: the Distilled State in full when it fits under the hook cap,
/// otherwise a header and the exact calls that load it.
fn bound_payload(app: &App, id: &str, warnings: &[String]) -> Result<String> {
    let r = recall::recall(app, id, None)?;
    let recall_warnings = r.warnings.clone();
    let mut head = String::new();
    head.push_str(&format!("# Dossier: {} (bound to this session)\n\n", r.name));
    for w in warnings.iter().chain(&recall_warnings) {
        head.push_str(&format!("Warning: {w}\n"));
    }
    head.push_str(&format!(
        "Follow the Distillation Guide ({}) and save with dossier_save (id `{}`, base_revision `{}`).\n\n",
        tilde(&app.store.guide_path()),
        r.slug,
        r.revision
    ));
    let full = format!("{head}{}", r.content);
    if full.chars().count() <= HOOK_OUTPUT_BUDGET {
        return Ok(full);
    }
    let doc = model::DossierDoc::parse(&r.content, &r.path.join("dossier.md"))?;
    let fm = &doc.frontmatter;
    let mut s = head;
    s.push_str(&format!("Status: {}\n", fm.status.as_str()));
    s.push_str(&format!("Next action: {}\n", fm.next_action));
    if !fm.open_questions.is_empty() {
        s.push_str("Open questions:\n");
        for q in &fm.open_questions {
            s.push_str(&format!("- {q}\n"));
        }
    }
    s.push_str(&format!(
        "\nThe Distilled State ({} bytes, ~{} tokens, {} page(s)) is larger than the ~{} characters a session-start hook can deliver whole, so it is not shown here. Load it now: call dossier_session with id `{}` (guide and page 1), then dossier_recall with id `{}` and page 2..{}.\n",
        r.bytes,
        r.token_estimate.tokens,
        r.page_count,
        HOOK_OUTPUT_CAP,
        r.slug,
        r.slug,
        r.page_count.max(2),
    ));
    // A header with very many open questions must still fit; say so rather than be cut.
    if s.chars().count() > HOOK_OUTPUT_BUDGET {
        let cut: String = s.chars().take(HOOK_OUTPUT_BUDGET - 200).collect();
        s = format!(
            "{cut}\n[header shortened to fit the hook cap; call dossier_session with id `{}` for everything]\n",
            r.slug
        );
    }
    Ok(s)
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
        Ok(vec![format!("transcript not captured for `{id}`: {reason}")])
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
    let outcome = match save::save(&app.store, &id, req, &crate::progress::SILENT) {
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
    if let Some(w) = context::after_mutation(app) {
        warnings.push(w);
    }
    Ok(warnings)
}

/// The save cadence: once the transcript has grown by `hooks.save_reminder_bytes` since the
/// bound Dossier's revision last changed, block the stop once and ask for a save.
fn stop(app: &App, input: &HookInput) -> Result<HookOutput> {
    let threshold = app.config.hooks.save_reminder_bytes;
    if input.stop_hook_active || threshold == 0 {
        return Ok(HookOutput::Silent);
    }
    let Some((mut binding, id)) = bound_dossier(app, &input.session_id)? else { return Ok(HookOutput::Silent) };
    let Some(path) = input.transcript_path.as_ref() else { return Ok(HookOutput::Silent) };
    let Ok(meta) = std::fs::metadata(path) else { return Ok(HookOutput::Silent) };
    let size = meta.len();
    let dir = app.store.resolve(&id)?;
    let revision = save::revision(&dir)?;
    let grown = match &binding.save_check {
        Some(c) if c.revision == revision => Some(size.saturating_sub(c.transcript_bytes)),
        _ => None,
    };
    let remind = grown.is_some_and(|g| g >= threshold);
    if grown.is_none() || remind {
        binding.save_check = Some(SaveCheck { revision: revision.clone(), transcript_bytes: size });
        sessions::update(&app.store, &binding)?;
    }
    if !remind {
        return Ok(HookOutput::Silent);
    }
    let slug = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or(id);
    Ok(HookOutput::Json(json!({
        "decision": "block",
        "reason": format!(
            "Dossier `{slug}` has not been saved while this session's transcript grew by {} KB. Save it now: distill the session into its Distilled State per the Distillation Guide and call dossier_save with id `{slug}` and base_revision `{revision}`. Then stop.",
            grown.unwrap_or(0) / 1000
        ),
    })))
}

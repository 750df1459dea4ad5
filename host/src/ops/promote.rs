//! Promote (SPEC §7.2, §8.5): a new Dossier from a name and, optionally, a Distilled State and
//! captured sources — after the duplicate guard: content that an existing Dossier likely covers
//! already is refused with `ambiguous_target` and its candidates, unless the caller says it
//! means a new one.
//!
//! Not for: gathering the input (the CLI reads a file, MCP takes parameters) or the Save path
//! (`dossier_store::save::create`).

use dossier_store::App;
use dossier_store::error::{Code, DossierError, Result};
use dossier_store::progress::Progress;
use dossier_store::save::NewArtifact;
use dossier_store::save::{self, CreateRequest, SaveOutcome};
use dossier_store::suggest::{self, Suggestion};

use super::{Caller, Next, Op, Outcome, Surface};

/// What to promote.
#[derive(Debug, Default)]
pub struct Promote {
    pub name: Option<String>,
    pub distilled_state: Option<String>,
    /// Captured sources: session content, a file, a transcript.
    pub artifacts: Vec<NewArtifact>,
    /// Content the duplicate guard ranks beside the name.
    pub content: Option<String>,
    /// The caller means a new Dossier even where an existing one likely covers it.
    pub create: bool,
    /// A transcript is among `artifacts`.
    pub has_transcript: bool,
    /// The CLI's source file, so a likely duplicate's next step can link it instead.
    pub from_file: Option<String>,
}

pub fn promote(app: &App, caller: &Caller, p: Promote, progress: &dyn Progress) -> Result<Outcome<SaveOutcome>> {
    app.store.require()?;
    let details = serde_json::json!({ "field": "name", "expected": "a non-empty name" });
    let name = p.name.filter(|n| !n.trim().is_empty()).ok_or_else(|| match caller.surface {
        Surface::Cli => DossierError::new(Code::InvalidInput, "promote needs --name <name> or --from-file <path>")
            .with_details(details.clone())
            .with_next("dossier promote --name \"<name>\""),
        Surface::Mcp => DossierError::new(Code::InvalidInput, "a Dossier needs a name")
            .with_details(details.clone())
            .with_next("call dossier_promote with a non-empty name"),
    })?;
    let query = match &p.content {
        Some(text) => format!("{name}\n{text}"),
        None => name.clone(),
    };
    let surface = caller.surface;
    let from_file = p.from_file.clone();
    let next = |c: &Suggestion| match (surface, &from_file) {
        (Surface::Cli, Some(f)) => Next::call(Op::Link, &c.slug).arg("from-file", "from_file", f).render(surface),
        (Surface::Cli, None) => Next::call(Op::Show, &c.slug).render(surface),
        (Surface::Mcp, _) => format!("ask the user, then dossier_link id={}", c.slug),
    };
    let override_hint = match surface {
        Surface::Cli => "add --create to make a new Dossier anyway",
        Surface::Mcp => "dossier_promote with create=true",
    };
    let candidates = suggest::guard_new(app, &query, p.create, next, override_hint)?;
    let req = CreateRequest {
        name,
        distilled_state: p.distilled_state,
        artifacts: p.artifacts,
        actor: caller.actor.to_string(),
        session_id: caller.session_id.clone(),
        promote: true,
        calibration: app.config.tokens.calibration,
        token_target: app.config.token_target,
        ..Default::default()
    };
    let mut out = super::save::saved(app, save::create(app, req, progress)?);
    // Work on it in this session: bound, the session's saves and transcript captures go to it
    // (issue 18, defect 15). Suggested, not done: the session may be bound to other work.
    out.next.insert(0, Next::call(Op::Switch, &out.data.slug));
    for c in &candidates {
        out.warnings.push(format!("possibly related ({} confidence): {} — {}", c.confidence, c.slug, c.reason));
    }
    if !p.has_transcript {
        out.warnings.push(match surface {
            Surface::Cli => "transcript_unavailable: no transcript was captured (the CLI has no session transcript; inside Claude Code the session-end and pre-compact hooks capture it)".to_string(),
            Surface::Mcp => "transcript_unavailable: no transcript was captured for this promote".to_string(),
        });
    }
    Ok(out)
}

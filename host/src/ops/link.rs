//! Link (SPEC §7.2, §8.6): attach session content to an existing Dossier through the Save path,
//! or, without a target, rank the store and hand back the candidates for the user to choose
//! from (an ambiguous link always asks; nothing is linked).
//!
//! Not for: gathering the content (a file on the CLI, parameters in MCP).

use dossier_store::App;
use dossier_store::error::{Code, DossierError, Result};
use dossier_store::model::EventKind;
use dossier_store::progress::Progress;
use dossier_store::save::NewArtifact;
use dossier_store::save::SaveOutcome;
use dossier_store::suggest::Suggestion;

use super::{Caller, Next, Op, Outcome, Surface};

/// What to link.
#[derive(Debug, Default)]
pub struct Link {
    pub target: Option<String>,
    /// The content to rank when there is no target.
    pub content: String,
    pub artifacts: Vec<NewArtifact>,
    pub distilled_state: Option<String>,
    pub base_revision: Option<String>,
    /// The CLI's source file, named in the candidates' next steps.
    pub from_file: Option<String>,
}

pub enum Linked {
    /// No target: the user chooses among these (or promotes a new Dossier).
    Candidates(Vec<Suggestion>),
    Saved(SaveOutcome),
}

pub fn link(app: &App, caller: &Caller, l: Link, progress: &dyn Progress) -> Result<Outcome<Linked>> {
    app.store.require()?;
    let Some(target) = l.target else {
        if l.content.trim().is_empty() {
            return Err(DossierError::new(Code::InvalidInput, "pass session_content to find candidates")
                .with_details(serde_json::json!({ "field": "session_content", "expected": "the session's content" })));
        }
        let candidates = super::suggest::suggest(app, &l.content)?.data;
        let next = match (caller.surface, &l.from_file) {
            (Surface::Cli, Some(f)) => candidates
                .iter()
                .map(|c| Next::call(Op::Link, &c.slug).arg("from-file", "from_file", f))
                .chain([Next::Call { op: Op::Promote, target: None, args: Vec::new(), note: None }
                    .arg("from-file", "from_file", f)
                    .switch("create", "create")])
                .collect(),
            _ => vec![Next::say("ask the user which Dossier this belongs to, then call dossier_link with its id")],
        };
        return Ok(Outcome { data: Linked::Candidates(candidates), warnings: Vec::new(), next });
    };
    let mut req = caller.save_request(app);
    req.event = Some(EventKind::Link);
    req.base_revision = l.base_revision;
    req.distilled_state = l.distilled_state;
    req.artifacts = l.artifacts;
    Ok(super::save::save(app, &target, req, progress)?.map(Linked::Saved))
}

//! What a hook is given: the fields of Claude Code's hook input that Dossier uses, and the
//! Dossier the hook's session is bound to.
//!
//! Not for: what a hook prints (`output`), or writing bindings (`dossier_store::sessions`).

use std::path::PathBuf;

use serde::Deserialize;

use crate::app::App;
use dossier_store::error::Result;
use dossier_store::sessions;

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

/// The bound Dossier of a session, if any.
pub(crate) fn bound_dossier(app: &App, session_id: &str) -> Result<Option<(sessions::Binding, String)>> {
    if session_id.is_empty() {
        return Ok(None);
    }
    let Some(binding) = sessions::read(&app.store, session_id)? else { return Ok(None) };
    let Some(id) = binding.dossier_id.clone() else { return Ok(None) };
    Ok(Some((binding, id)))
}

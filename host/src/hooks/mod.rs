//! Claude Code hook handlers: `dossier hook <event>` with the event's JSON on stdin
//! (SPEC §9, §5.2; docs/harness-capabilities.md for what Claude Code sends and accepts).
//!
//! - `session-start`: unbound session → the `# Dossier Library` block of SPEC §9.1 (header,
//!   capability warnings, one nudge line; paid on every session, so kept to ~120 tokens);
//!   bound session (after `resume`/`compact`) → that block, the Distillation Guide and the
//!   active Distilled State in full when they fit under Claude Code's ~10,000-character hook
//!   cap, otherwise the explicit pointer (the calls that load what is not shown). Never
//!   output that Claude Code would cut to a preview. Either way it records, once per session,
//!   the HEAD of the cwd's repository and whether its tracked files were dirty (codecall's
//!   `session_head` locate rule; silent when there is no repository).
//! - `session-end`, `pre-compact`: capture the new part of the transcript as a `transcript`
//!   artifact of the bound Dossier through the Save path; `reason: clear` then clears the
//!   binding (the Dossier on disk is untouched).
//! - `stop`: the save cadence — ask the agent once to save when the transcript has grown
//!   by `hooks.save_reminder_bytes` since the bound Dossier last changed — and codecall's
//!   recommendation card (`card`): one non-blocking `systemMessage` line when the session's
//!   changes are worth a learning session.
//!
//! This file runs a hook (parse, deadline, plugin stand-down, dispatch); each event is its
//! own module (`session_start`, `transcript` for session-end and pre-compact, `stop`), over
//! `input` (what Claude Code sends) and `output` (what a hook prints). No child module uses
//! this file, and `card` takes only what it needs as parameters.
//!
//! Invariants: a hook always exits 0 and never prints a stack trace into the session; an
//! internal failure becomes one visible warning line. Each event has a deadline (SessionEnd
//! shares Claude Code's 1.5 s budget) after which the process says so and exits. Nothing
//! on this path compiles the policy component (a cold cache degrades the nudge's order and
//! says so).
//!
//! Not for: registration (`crate::claude_code`, which also owns the one [`HookEvent`] list), or
//! deciding what a Distilled State says.

use std::io::Read;
use std::time::Duration;

use serde_json::json;

use crate::claude_code::{self, Capability, HookEvent};
use dossier_store::error::{Code, DossierError, Result};

pub mod card;
mod input;
mod output;
mod session_start;
mod stop;
mod transcript;

pub use input::HookInput;
pub use output::HookOutput;
pub use session_start::{HOOK_OUTPUT_CAP, NUDGE_NAMES_CHARS, NUDGE_TOKENS, nudge};

/// How long the handler for `event` may take before it gives up with a warning.
fn deadline(event: HookEvent) -> Duration {
    match event {
        // Claude Code gives all SessionEnd hooks 1.5 s together.
        HookEvent::SessionEnd => Duration::from_millis(1_200),
        HookEvent::PreCompact => Duration::from_secs(10),
        HookEvent::SessionStart => Duration::from_secs(5),
        HookEvent::Stop => Duration::from_secs(3),
    }
}

/// Run the handler for `event_name` with Claude Code's JSON on `stdin`, within the event's
/// deadline. Never fails: every error becomes a warning output.
pub fn run(event_name: &str, mut stdin: impl Read) -> HookOutput {
    let Some(event) = HookEvent::parse(event_name) else {
        let names: Vec<&str> = HookEvent::ALL.iter().map(|e| e.arg()).collect();
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
    match rx.recv_timeout(deadline(event)) {
        Ok(Ok(out)) => out,
        Ok(Err(e)) => HookOutput::warning(event, &e.message),
        Err(_) => HookOutput::warning(
            event,
            &format!(
                "the {} hook did not finish within {} ms and was skipped; run `dossier doctor`",
                event.arg(),
                deadline(event).as_millis()
            ),
        ),
    }
}

/// When the dossier plugin started this hook and `dossier init`'s hook for the same event is
/// registered and working too, Claude Code runs both: init's does the work, this one stands
/// down (silent, except one warning line at session start saying how to keep one).
fn plugin_stands_down(event: HookEvent) -> Option<HookOutput> {
    let root = claude_code::plugin::launched_from()?;
    let paths = claude_code::Paths::from_env()?;
    let registration = claude_code::inspect_with(&paths, Some(root));
    if !matches!(registration.hook(event), Capability::Available { .. }) {
        return None;
    }
    Some(match event {
        HookEvent::SessionStart => {
            let w = registration.double_registration();
            HookOutput::Text(w.iter().map(|w| format!("Warning: dossier: {w}\n")).collect())
        }
        _ => HookOutput::Silent,
    })
}

fn handle(event: HookEvent, input: &HookInput) -> Result<HookOutput> {
    let app = crate::app::open()?;
    if !app.store.exists() {
        return Ok(match event {
            HookEvent::SessionStart => HookOutput::Text(format!(
                "Dossier: no store at {} yet; run `dossier init`.\n",
                app.store.root().display()
            )),
            _ => HookOutput::Silent,
        });
    }
    // Hooks never compile the policy component: a cold cache is reported, not paid for.
    crate::app::forbid_compile(&app);
    match event {
        HookEvent::SessionStart => session_start::session_start(&app, input),
        HookEvent::SessionEnd => transcript::session_end(&app, input),
        HookEvent::PreCompact => transcript::pre_compact(&app, input),
        HookEvent::Stop => stop::stop(&app, input),
    }
}

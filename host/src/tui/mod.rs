//! `dossier tui`: the terminal UI over the same operations as the CLI (SPEC §3.1: list,
//! select, merge) — the open-work list with filters, a Dossier's Distilled State and archive,
//! binding a Dossier to a session, merges and conflict resolution.
//!
//! This module owns the terminal: raw mode and the alternate screen (ratatui's crossterm
//! backend), restored on every way out — `q`, Ctrl-C (a key in raw mode), an error, and a
//! panic (ratatui's panic hook restores the terminal before the panic message prints).
//! It refuses to start unless stdin and stdout are terminals.
//!
//! Not for: behaviour (`state.rs` calls the shared operations) or drawing (`render.rs`).

mod render;
pub mod state;

pub use render::wrap;
pub use state::State;

use std::io::IsTerminal;

use ratatui::crossterm::event::{self, Event};

use dossier_store::error::{Code, DossierError, Result};

/// Run the TUI until the user quits. `session`: `--session`, else `CLAUDE_CODE_SESSION_ID`;
/// without either, binding is unavailable (said on screen) and everything else works.
pub fn run(session: Option<&str>) -> Result<()> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(DossierError::new(
            Code::InvalidInput,
            "`dossier tui` needs a terminal on stdin and stdout; for scripts and pipes use the CLI",
        )
        .with_details(serde_json::json!({ "field": "stdin", "expected": "a terminal" }))
        .with_next("dossier ls")
        .with_next("dossier ls --json"));
    }
    let app = crate::app::open()?;
    app.store.require()?;
    let session = dossier_store::sessions::session_id(session).ok();
    let mut state = State::new(app, session);

    let mut terminal = ratatui::try_init().map_err(|e| {
        ratatui::restore();
        DossierError::new(Code::Io, format!("could not set up the terminal: {e}"))
    })?;
    let result = event_loop(&mut terminal, &mut state);
    ratatui::restore();
    result
}

fn event_loop(terminal: &mut ratatui::DefaultTerminal, state: &mut State) -> Result<()> {
    let io = |e: std::io::Error| DossierError::new(Code::Io, format!("terminal: {e}"));
    let mut drawn = false;
    while !state.quit {
        terminal.draw(|f| render::draw(f, state)).map_err(io)?;
        if !drawn {
            drawn = true;
            failpoint();
        }
        match event::read().map_err(io)? {
            Event::Key(k) => state.key(k),
            Event::Resize(..) => {}
            _ => {}
        }
    }
    Ok(())
}

/// Tests: `DOSSIER_FAILPOINT=tui_panic` panics after the first frame, to check that the
/// terminal is restored on a panic. Debug builds only.
#[cfg(debug_assertions)]
fn failpoint() {
    if std::env::var("DOSSIER_FAILPOINT").is_ok_and(|v| v == "tui_panic") {
        panic!("tui_panic failpoint");
    }
}
#[cfg(not(debug_assertions))]
fn failpoint() {}

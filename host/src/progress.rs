//! Progress as the CLI draws it: the store's operations report phases and increments to a
//! [`Progress`] (the trait is `dossier_store::progress`'s, re-exported here); this module is
//! the terminal's side of it.
//!
//! The CLI passes [`for_cli`], which draws an indicatif bar on stderr only when stderr is a
//! terminal and `--quiet` is off; MCP and hooks pass [`SILENT`] (they never print
//! progress: MCP's stdout carries only protocol, hooks' output is Claude Code's). With
//! `NO_COLOR` set (or `TERM=dumb`) the bar has no colour and no ANSI escape at all: it is
//! redrawn with a carriage return and spaces only.
//!
//! Not for: deciding whether an operation is long (every instrumented operation reports;
//! drawing is rate-limited), or any output other than progress.

use std::io::Write as _;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use unicode_width::UnicodeWidthChar as _;

pub use dossier_store::progress::{Progress, SILENT, Silent, Unit};

/// Colour and escape sequences are allowed on stderr: `NO_COLOR` unset (any value, even
/// empty, disables them, as no-color.org says) and `TERM` not `dumb`.
pub fn escapes_allowed() -> bool {
    std::env::var_os("NO_COLOR").is_none() && std::env::var("TERM").map(|t| t != "dumb").unwrap_or(true)
}

/// `--quiet`, set once by the CLI for the process (a flag of the whole invocation, so it is
/// not threaded through every command).
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, std::sync::atomic::Ordering::Relaxed);
}

pub fn quiet() -> bool {
    QUIET.load(std::sync::atomic::Ordering::Relaxed)
}

/// The CLI's progress: a bar on stderr when stderr is a terminal and `--quiet` is off, else
/// silent.
pub fn for_cli() -> Box<dyn Progress> {
    use std::io::IsTerminal;
    if quiet() || !std::io::stderr().is_terminal() {
        return Box::new(Silent);
    }
    Box::new(Bar::new(escapes_allowed()))
}

/// An indicatif bar on stderr.
pub struct Bar {
    bar: ProgressBar,
    escapes: bool,
}

impl Bar {
    fn new(escapes: bool) -> Bar {
        let target = if escapes {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::term_like_with_hz(Box::new(PlainStderr::default()), 20)
        };
        let bar = ProgressBar::with_draw_target(None, target);
        Bar { bar, escapes }
    }

    fn style(&self, total: u64, unit: Unit) -> ProgressStyle {
        let (bar, spinner) =
            if self.escapes { ("{bar:30.cyan/blue}", "{spinner:.green}") } else { ("{bar:30}", "{spinner}") };
        let template = match (total, unit) {
            (0, _) => format!("{spinner} {{msg}} {{elapsed}}"),
            (_, Unit::Bytes) => format!("{spinner} {{msg}} [{bar}] {{bytes}}/{{total_bytes}} {{eta}}"),
            (_, Unit::Files) => format!("{spinner} {{msg}} [{bar}] {{pos}}/{{len}} files {{eta}}"),
            (_, Unit::Steps) => format!("{spinner} {{msg}} [{bar}] {{pos}}/{{len}}"),
        };
        ProgressStyle::with_template(&template).expect("progress templates are valid").progress_chars("=> ")
    }
}

impl Progress for Bar {
    fn start(&self, what: &str, total: u64, unit: Unit) {
        self.bar.set_message(what.to_string());
        self.bar.set_style(self.style(total, unit));
        if total == 0 {
            self.bar.unset_length();
        } else {
            self.bar.set_length(total);
        }
        self.bar.set_position(0);
    }

    fn advance(&self, n: u64) {
        self.bar.inc(n);
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        if !self.bar.is_finished() {
            self.bar.finish_and_clear();
        }
    }
}

/// stderr for a bar that must not write escape sequences: one line, redrawn after a
/// carriage return, erased with spaces. Multi-line moves are never needed for one bar.
#[derive(Debug, Default)]
struct PlainStderr {
    /// Width of what is on the line now, to blank it.
    drawn: Mutex<usize>,
}

impl TermLike for PlainStderr {
    fn width(&self) -> u16 {
        terminal_size::terminal_size_of(std::io::stderr()).map(|(w, _)| w.0).unwrap_or(80)
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.write_str(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        let mut drawn = self.drawn.lock().unwrap_or_else(|e| e.into_inner());
        if s.contains('\r') {
            *drawn = 0;
        }
        let visible = s.rsplit('\r').next().unwrap_or_default();
        *drawn += visible.chars().filter(|c| !c.is_control()).map(|c| c.width().unwrap_or(0)).sum::<usize>();
        std::io::stderr().write_all(s.as_bytes())
    }
    fn clear_line(&self) -> std::io::Result<()> {
        let mut drawn = self.drawn.lock().unwrap_or_else(|e| e.into_inner());
        let blank = format!("\r{}\r", " ".repeat((*drawn).min(usize::from(self.width()))));
        *drawn = 0;
        std::io::stderr().write_all(blank.as_bytes())
    }
    fn flush(&self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_style_template_parses() {
        for escapes in [true, false] {
            let b = Bar { bar: ProgressBar::hidden(), escapes };
            for unit in [Unit::Files, Unit::Bytes, Unit::Steps] {
                for total in [0, 10] {
                    let _ = b.style(total, unit);
                }
            }
        }
    }
}

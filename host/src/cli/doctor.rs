//! `dossier doctor [--fix]`: run the checks (and the safe repairs), render one line per check
//! with its file and fix, and exit 1 on any error.
//!
//! Not for: the checks or repairs themselves (`crate::doctor`).

use crate::doctor::{self, Severity};
use dossier_store::error::Result;

use super::render::Output;

pub(super) fn cmd_doctor(fix: bool) -> Result<Output> {
    let mut report = doctor::run()?;
    let mut human = format!("dossier doctor: {}\n", report.store.display());
    let mut repairs = None;
    if fix {
        let done = doctor::repair(&report)?;
        for m in &done.applied {
            human.push_str(&format!("fixed {m}\n"));
        }
        for m in &done.failed {
            human.push_str(&format!("NOT FIXED {m}\n"));
        }
        if done.applied.is_empty() && done.failed.is_empty() {
            human.push_str("nothing to fix automatically\n");
        }
        report = doctor::run()?;
        repairs = Some(done);
    }
    for c in &report.checks {
        let tag = match c.severity {
            Severity::Ok => "ok   ",
            Severity::Warning => "warn ",
            Severity::Error => "ERROR",
        };
        human.push_str(&format!("{tag} {:<20} {}\n", c.check, c.message));
        if let Some(f) = &c.file
            && c.severity != Severity::Ok
        {
            match c.line {
                Some(l) => human.push_str(&format!("      file: {}:{l}\n", f.display())),
                None => human.push_str(&format!("      file: {}\n", f.display())),
            }
        }
        // A grouped finding: its first lines only (`--json` has them all).
        if !c.lines.is_empty() {
            const SHOWN: usize = 10;
            let first: Vec<String> = c.lines.iter().take(SHOWN).map(u32::to_string).collect();
            let more = c.lines.len().saturating_sub(SHOWN);
            let tail = if more > 0 { format!(", … ({more} more)") } else { String::new() };
            human.push_str(&format!("      lines: {}{tail}\n", first.join(", ")));
        }
        if let Some(fix) = &c.fix {
            human.push_str(&format!("      fix:  {fix}\n"));
        }
    }
    human.push_str(&format!("{} error(s), {} warning(s)\n", report.errors(), report.warnings()));
    let exit = if report.errors() > 0 { 1 } else { 0 };
    let mut data = serde_json::to_value(&report).expect("report serializes");
    if let Some(r) = repairs {
        data["repairs"] = serde_json::to_value(r).expect("repairs serialize");
    }
    let mut out = Output::new(data, human);
    out.exit = exit;
    Ok(out)
}

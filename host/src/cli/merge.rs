//! `dossier merge SOURCE TARGET`: resolutions from flags or a file, or asked on the terminal
//! one conflict at a time, then one merge through the store.
//!
//! Not for: conflict files (`cli::conflicts`) or the merge itself (`dossier_store::merge`).

use std::path::Path;

use crate::progress;
use dossier_store::error::{Code, DossierError, Result};

use super::render::Output;
use crate::ops::Caller;

pub(super) fn cmd_merge(
    source: &str,
    target: &str,
    flags: &[String],
    file: Option<&Path>,
    keep_both_possible: bool,
    json: bool,
) -> Result<Output> {
    use std::io::IsTerminal;
    let app = crate::app::open()?;
    let mut resolutions: Vec<dossier_store::merge::ResolutionInput> =
        flags.iter().map(|f| dossier_store::merge::parse_resolve_flag(f)).collect::<Result<_>>()?;
    if let Some(f) = file {
        let text = std::fs::read_to_string(f).map_err(|e| DossierError::io("read", f, e))?;
        let more: Vec<dossier_store::merge::ResolutionInput> = serde_json::from_str(&text).map_err(|e| {
            DossierError::new(Code::InvalidInput, format!("{}: not a JSON list of resolutions: {e}", f.display()))
                .with_details(serde_json::json!({ "field": "--resolutions", "path": f, "expected": "a JSON list of {conflict_id, choice, text?}" }))
                .with_next(r#"[{"conflict_id": "conf_...", "choice": "keep_target"}]"#)
        })?;
        resolutions.extend(more);
    }
    let interactive =
        !json && resolutions.is_empty() && std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if interactive || keep_both_possible {
        let (conflicts, unlisted) = dossier_store::merge::conflicts_counted(&app, source, target)?;
        let (possible, certain): (Vec<_>, Vec<_>) = conflicts.iter().partition(|c| c.is_possible());
        if interactive {
            // Certain conflicts one by one, then the possible ones as one checklist.
            for (i, c) in certain.iter().enumerate() {
                resolutions.push(ask_resolution(&format!("Conflict {}/{}", i + 1, certain.len()), c)?);
            }
            if !keep_both_possible && !possible.is_empty() {
                let picked = ask_checklist(&possible, unlisted)?;
                for (i, c) in picked.iter().enumerate() {
                    resolutions.push(ask_resolution(&format!("Possible conflict {}/{}", i + 1, picked.len()), c)?);
                }
            }
        }
        // Keep both for every possible conflict not answered otherwise (the checklist's
        // default, or --keep-both-possible).
        for c in possible {
            if !resolutions.iter().any(|r| r.conflict_id == c.id) {
                resolutions.push(dossier_store::merge::ResolutionInput {
                    conflict_id: c.id.clone(),
                    choice: dossier_store::merge::ChoiceInput::KeepBoth,
                    text: None,
                });
            }
        }
    }
    let o = crate::ops::merge::merge(&app, &Caller::cli(), source, target, &resolutions, progress::for_cli().as_ref())
        .map_err(|e| for_cli(e, source, target, json))?;
    Ok(Output::of(o, dossier_store::merge::outcome_json, |o| {
        if o.already_merged {
            format!("{} was already merged into {}; nothing to do\n", o.source_slug, o.target_slug)
        } else {
            format!(
                "merged {} into {} ({} artifact(s) copied, {} conflict(s) resolved); {} is archived, its files kept\n",
                o.source_slug,
                o.target_slug,
                o.artifacts_copied.len(),
                o.conflicts_resolved.len(),
                o.source_slug
            )
        }
    }))
}

/// `conflict_detected` in the CLI's words: each conflict's id and what it is about (in the
/// message, on a terminal), and the exact `--resolve` command, instead of the MCP parameter.
fn for_cli(mut e: DossierError, source: &str, target: &str, json: bool) -> DossierError {
    if e.code != Code::ConflictDetected {
        return e;
    }
    let conflicts = e.details["conflicts"].as_array().cloned().unwrap_or_default();
    let s = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    if !json {
        let short = |side: &serde_json::Value| {
            // Short: provenance markers left out (`dossier conflicts show <id>` has them).
            let mut text = s(&side["text"]);
            while let Some(i) = text.find("[src:") {
                let end = text[i..].find(']').map_or(text.len(), |e| i + e + 1);
                text.replace_range(i..end, "");
            }
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            let text = if text.chars().count() > 100 {
                format!("{}…", text.chars().take(99).collect::<String>())
            } else {
                text
            };
            let at = match side["line"].as_u64() {
                Some(0) | None => "frontmatter".to_string(),
                Some(l) => format!("line {l}"),
            };
            format!("({at}): {text}")
        };
        let mut msg = format!(
            "merging {source} into {target} needs {} decision(s); each is preserved in the target's conflicts/ and nothing else changed:",
            conflicts.len()
        );
        let possible = |c: &&serde_json::Value| c["certainty"] == "possible";
        let hinted = |c: &&serde_json::Value| c["compatible_hint"].is_string();
        let tiers = [
            ("certain (choose for each)", conflicts.iter().filter(|c| !possible(c)).collect::<Vec<_>>()),
            (
                "possible, may contradict: related claims the rules cannot tell apart (keep both with --keep-both-possible, or choose)",
                conflicts.iter().filter(|c| possible(c) && !hinted(c)).collect(),
            ),
            (
                "possible, probably compatible: related claims the rules think compatible, and why (kept both by --keep-both-possible too)",
                conflicts.iter().filter(|c| possible(c) && hinted(c)).collect(),
            ),
        ];
        // Headings only where possible conflicts are (certain-only output reads as before).
        let plain = tiers[1].1.is_empty() && tiers[2].1.is_empty();
        for (title, tier) in tiers.iter().filter(|(_, t)| !t.is_empty()) {
            if !plain {
                msg.push_str(&format!("\n{title}:"));
            }
            for c in tier {
                msg.push_str(&format!("\n  {}  {}: {}", s(&c["id"]), s(&c["kind"]), s(&c["subject"])));
                if let Some(h) = c["compatible_hint"].as_str() {
                    msg.push_str(&format!(" — probably compatible: {h}"));
                }
                msg.push_str(&format!("\n      target {}", short(&c["target"])));
                msg.push_str(&format!("\n      source {}", short(&c["source"])));
            }
        }
        if let Some(line) =
            dossier_store::merge::unlisted_line(e.details["unlisted_related"].as_u64().unwrap_or(0) as u32)
        {
            msg.push_str(&format!("\n{line}"));
        }
        e.message = msg;
    }
    let (possible, certain): (Vec<_>, Vec<_>) = conflicts.iter().partition(|c| c["certainty"] == "possible");
    let mut flags: String = certain.iter().map(|c| format!(" --resolve {}=CHOICE", s(&c["id"]))).collect();
    if !possible.is_empty() {
        flags.push_str(" --keep-both-possible");
    }
    // CLI-only words: this error is rewritten for the terminal and never reaches MCP.
    e.next = vec![
        "choose for each conflict: CHOICE is keep-target, keep-source, keep-both, or custom:<your text>".into(),
        format!("dossier merge {source} {target}{flags}").into(),
    ];
    if !possible.is_empty() {
        e.next.push(
            "--keep-both-possible keeps both claims of every possible conflict; --resolve <id>=CHOICE decides one yourself"
                .into(),
        );
    }
    e.next.extend([
        format!("or run `dossier merge {source} {target}` on a terminal to be asked about each conflict").into(),
        "see one in full (with provenance): dossier conflicts show <id>".into(),
    ]);
    e
}

/// The possible conflicts as one checklist on the terminal, in two groups — those that may
/// contradict, then those the rules think probably compatible, each with why — every one kept
/// both unless the user toggles it (by its number) to decide it; Enter alone accepts. Returns
/// the toggled ones. `unlisted` related pairs not listed are counted under the list.
fn ask_checklist<'a>(
    possible: &[&'a dossier_store::merge::ConflictView],
    unlisted: u32,
) -> Result<Vec<&'a dossier_store::merge::ConflictView>> {
    use std::io::{BufRead, Write};
    let mut err = std::io::stderr().lock();
    let mut ask = vec![false; possible.len()];
    let stdin = std::io::stdin();
    loop {
        let _ = writeln!(
            err,
            "\nPossible conflicts ({}): related claims that may not contradict; both are kept unless you pick one to decide.",
            possible.len()
        );
        let mut group = None;
        for (i, c) in possible.iter().enumerate() {
            if group != Some(c.is_probably_compatible()) {
                group = Some(c.is_probably_compatible());
                let title = if c.is_probably_compatible() { "Probably compatible" } else { "May contradict" };
                let _ = writeln!(err, " {title}:");
            }
            let mark = if ask[i] { "[x] decide" } else { "[ ] keep both" };
            match &c.compatible_hint {
                Some(h) => {
                    let _ = writeln!(err, "  {}. {mark}  {}: {} — {h}", i + 1, c.id, c.subject);
                }
                None => {
                    let _ = writeln!(err, "  {}. {mark}  {}: {}", i + 1, c.id, c.subject);
                }
            }
            let _ = writeln!(err, "       target ({}): {}", place(&c.target), c.target.text.trim());
            let _ = writeln!(err, "       source ({}): {}", place(&c.source), c.source.text.trim());
        }
        if let Some(line) = dossier_store::merge::unlisted_line(unlisted) {
            let _ = writeln!(err, " {line}");
        }
        let _ = write!(err, "Toggle by number (e.g. 1 3) to decide those yourself, Enter to continue: ");
        let _ = err.flush();
        let mut line = String::new();
        if stdin.lock().read_line(&mut line).map_err(|e| DossierError::io("read", Path::new("stdin"), e))? == 0 {
            return Err(end_of_input());
        }
        if line.trim().is_empty() {
            break;
        }
        for w in line.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()) {
            match w.parse::<usize>() {
                Ok(n) if (1..=possible.len()).contains(&n) => ask[n - 1] = !ask[n - 1],
                _ => {
                    let _ = writeln!(err, "`{w}` is not a number from 1 to {}", possible.len());
                }
            }
        }
    }
    Ok(possible.iter().zip(ask).filter(|(_, a)| *a).map(|(c, _)| *c).collect())
}

/// Where a side's claim is: its section and line, or the frontmatter.
fn place(s: &dossier_store::merge::SideView) -> String {
    match (s.line, &s.section) {
        (0, _) => "frontmatter".to_string(),
        (l, Some(sec)) => format!("{sec}, line {l}"),
        (l, None) => format!("line {l}"),
    }
}

fn end_of_input() -> DossierError {
    DossierError::new(Code::InvalidInput, "no answer (end of input); nothing was merged")
        .with_details(serde_json::json!({ "field": "stdin", "expected": "t, s, b or w for each conflict" }))
}

/// Walk one conflict on the terminal (stderr prompts, stdin answers).
fn ask_resolution(
    label: &str,
    c: &dossier_store::merge::ConflictView,
) -> Result<dossier_store::merge::ResolutionInput> {
    use dossier_store::merge::{ChoiceInput, ResolutionInput};
    use std::io::{BufRead, Write};
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "\n{label} [{}] {}", c.kind, c.subject);
    let _ = writeln!(err, "  target ({}): {}", place(&c.target), c.target.text.trim());
    let _ = writeln!(err, "  source ({}): {}", place(&c.source), c.source.text.trim());
    let stdin = std::io::stdin();
    loop {
        let _ = write!(err, "Keep [t]arget, [s]ource, [b]oth, or [w]rite your own? ");
        let _ = err.flush();
        let mut line = String::new();
        if stdin.lock().read_line(&mut line).map_err(|e| DossierError::io("read", Path::new("stdin"), e))? == 0 {
            return Err(end_of_input());
        }
        let choice = match line.trim().to_ascii_lowercase().as_str() {
            "t" | "target" => ChoiceInput::KeepTarget,
            "s" | "source" => ChoiceInput::KeepSource,
            "b" | "both" => ChoiceInput::KeepBoth,
            "w" | "write" => {
                let _ =
                    writeln!(err, "Type the replacement (keep [src:...] markers); end with a line holding only `.`:");
                let mut text = String::new();
                for l in stdin.lock().lines() {
                    let l = l.map_err(|e| DossierError::io("read", Path::new("stdin"), e))?;
                    if l == "." {
                        break;
                    }
                    text.push_str(&l);
                    text.push('\n');
                }
                return Ok(ResolutionInput {
                    conflict_id: c.id.clone(),
                    choice: ChoiceInput::Custom,
                    text: Some(text),
                });
            }
            _ => continue,
        };
        return Ok(ResolutionInput { conflict_id: c.id.clone(), choice, text: None });
    }
}

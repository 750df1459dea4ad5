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
    if interactive {
        let conflicts = dossier_store::merge::conflicts(&app, source, target)?;
        for (i, c) in conflicts.iter().enumerate() {
            resolutions.push(ask_resolution(i + 1, conflicts.len(), c)?);
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
        for c in &conflicts {
            msg.push_str(&format!("\n  {}  {}: {}", s(&c["id"]), s(&c["kind"]), s(&c["subject"])));
            msg.push_str(&format!("\n      target {}", short(&c["target"])));
            msg.push_str(&format!("\n      source {}", short(&c["source"])));
        }
        e.message = msg;
    }
    let flags: String = conflicts.iter().map(|c| format!(" --resolve {}=CHOICE", s(&c["id"]))).collect();
    // CLI-only words: this error is rewritten for the terminal and never reaches MCP.
    e.next = vec![
        "choose for each conflict: CHOICE is keep-target, keep-source, keep-both, or custom:<your text>".into(),
        format!("dossier merge {source} {target}{flags}").into(),
        format!("or run `dossier merge {source} {target}` on a terminal to be asked about each conflict").into(),
        "see one in full (with provenance): dossier conflicts show <id>".into(),
    ];
    e
}

/// Walk one conflict on the terminal (stderr prompts, stdin answers).
fn ask_resolution(
    n: usize,
    total: usize,
    c: &dossier_store::merge::ConflictView,
) -> Result<dossier_store::merge::ResolutionInput> {
    use dossier_store::merge::{ChoiceInput, ResolutionInput};
    use std::io::{BufRead, Write};
    let mut err = std::io::stderr().lock();
    let at = |l: u32| if l == 0 { "frontmatter".to_string() } else { format!("line {l}") };
    let _ = writeln!(err, "\nConflict {n}/{total} [{}] {}", c.kind, c.subject);
    let _ = writeln!(err, "  target ({}): {}", at(c.target.line), c.target.text.trim());
    let _ = writeln!(err, "  source ({}): {}", at(c.source.line), c.source.text.trim());
    let stdin = std::io::stdin();
    loop {
        let _ = write!(err, "Keep [t]arget, [s]ource, [b]oth, or [w]rite your own? ");
        let _ = err.flush();
        let mut line = String::new();
        if stdin.lock().read_line(&mut line).map_err(|e| DossierError::io("read", Path::new("stdin"), e))? == 0 {
            return Err(DossierError::new(Code::InvalidInput, "no answer (end of input); nothing was merged")
                .with_details(serde_json::json!({ "field": "stdin", "expected": "t, s, b or w for each conflict" })));
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

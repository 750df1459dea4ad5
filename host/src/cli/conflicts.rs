//! `dossier conflicts list|show|resolve`: the conflict files kept in `conflicts/`, and resolving
//! a concurrent-edit conflict through the Save path.
//!
//! Not for: merge conflicts' resolution (`cli::merge`) or the conflict files themselves
//! (`dossier_store::conflicts`).

use serde_json::json;

use crate::term;
use dossier_store::error::{Code, DossierError, Result};

use super::args::{ConflictsCommand, KeepArg};
use super::render::{Output, json_of};
use crate::ops::Caller;

pub(super) fn cmd_conflicts(command: ConflictsCommand) -> Result<Output> {
    let app = crate::app::open()?;
    match command {
        ConflictsCommand::List { target, all } => {
            let mut items = Vec::new();
            let mut human = String::new();
            for c in dossier_store::conflicts::list(&app, target.as_deref(), all)? {
                human.push_str(&format!(
                    "{:<34} {:<15} {:<9} {}\n",
                    c.id,
                    c.kind,
                    if c.resolved { "resolved" } else { "open" },
                    c.summary
                ));
                items.push(serde_json::to_value(&c).expect("conflict serializes"));
            }
            if items.is_empty() {
                human.push_str("no open conflicts\n");
            }
            // On a terminal each line fits its width (the summary is last, so it is what is cut).
            let human = term::fit_lines(&human, term::stdout_width());
            Ok(Output::new(json!({ "conflicts": items }), human))
        }
        ConflictsCommand::Show { conflict_id } => {
            let (path, c) = dossier_store::conflicts::find(&app, &conflict_id)?;
            let text = std::fs::read_to_string(&path).map_err(|e| DossierError::io("read", &path, e))?;
            let mut v = serde_json::to_value(&c).expect("conflict serializes");
            v["content"] = json!(text);
            Ok(Output::new(v, text))
        }
        ConflictsCommand::Resolve { conflict_id, keep, from_file } => {
            let choice = match (keep, from_file) {
                (Some(KeepArg::Current), _) => dossier_store::conflicts::Choice::KeepCurrent,
                (Some(KeepArg::Proposal), _) => dossier_store::conflicts::Choice::KeepProposal,
                (None, Some(f)) => dossier_store::conflicts::Choice::Text(
                    std::fs::read_to_string(&f).map_err(|e| DossierError::io("read", &f, e))?,
                ),
                (None, None) => {
                    return Err(DossierError::new(Code::InvalidInput, "say how to resolve it")
                        .with_details(serde_json::json!({
                            "parameter": "--keep",
                            "expected": "--keep current|proposal or --from-file STATE.md",
                        }))
                        .with_next(format!("dossier conflicts resolve {conflict_id} --keep current|proposal"))
                        .with_next(format!("dossier conflicts resolve {conflict_id} --from-file STATE.md")));
                }
            };
            let o = crate::ops::resolve::resolve(&app, &Caller::cli(), &conflict_id, choice)?;
            Ok(Output::of(o, json_of, |r| {
                format!("resolved {} ({}); {} is at {}\n", r.conflict_id, r.resolution, r.slug, r.revision)
            }))
        }
    }
}

//! `dossier codecall start|submit|answer|cancel|resume|show|replay`: the CLI's requests to a
//! codecall learning session, and the rendering of the step each returns.
//!
//! Not for: the session runtime (`dossier_codecall`) or the host's glue around it (log
//! location, evidence, summaries: `crate::codecall`).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::app::App;
use dossier_store::error::{Code, DossierError, Result};

use super::args::CodecallCommand;
use super::render::Output;

/// Run one codecall operation over the log and render the step it returns.
fn codecall_step(
    app: &App,
    log: Option<PathBuf>,
    show_work_order: bool,
    f: impl FnOnce(&mut dossier_codecall::Runtime<'_>) -> dossier_codecall::error::Result<dossier_codecall::Step>,
) -> Result<Output> {
    let target = crate::codecall::log_target(app, log.as_deref())?;
    let ran = crate::codecall::run(app, target, crate::ops::actor::CLI, f)?;
    let mut r = crate::codecall::render(&ran.step, ran.log.as_deref(), show_work_order);
    let mut human = r.human;
    if let Some(h) = &ran.hand_off {
        r.data["hand_off"] = json!(h);
        human.push_str(&format!("summary saved to Dossier {} as artifact {}\n", h.dossier_id, h.artifact_id));
    }
    let mut out = Output::new(r.data, human);
    out.warnings = r.warnings;
    out.warnings.extend(ran.warnings);
    out.next_actions = r.next_actions;
    Ok(out)
}

pub(super) fn cmd_codecall(command: CodecallCommand) -> Result<Output> {
    use crate::codecall as cc;
    use dossier_codecall::{
        Answer, AnswerRequest, CancelReason, CancelRequest, ResumeRequest, SubmitOutcome, SubmitRequest,
    };
    let app = crate::app::open()?;
    let op = |id: Option<String>| id.unwrap_or_else(cc::new_operation_id);
    match command {
        CodecallCommand::Start {
            repo,
            base,
            head,
            task,
            session_id,
            max_minutes,
            operation_id,
            save_summary,
            save_summary_to,
            allow_doc_fetch,
            show_work_order,
            log,
        } => {
            let input = cc::StartInput {
                repo,
                base,
                head,
                task,
                session_id,
                max_minutes: Some(max_minutes),
                operation_id,
                save_summary: save_summary.then_some(true),
                harness_session: std::env::var("CLAUDE_CODE_SESSION_ID").ok(),
                save_summary_to,
                allow_doc_fetch,
                ..Default::default()
            };
            let (req, warnings) = cc::start_request(&app, input)?;
            let mut out = codecall_step(&app, log.log, show_work_order, |rt| rt.start(req))?;
            out.warnings.splice(0..0, warnings);
            Ok(out)
        }
        CodecallCommand::Submit { session, checkpoint, result_file, failure, operation_id, show_work_order, log } => {
            let outcome = match (result_file, failure) {
                (Some(file), _) => SubmitOutcome::Result { result: read_result(&file)? },
                (None, Some(reason)) => SubmitOutcome::Failure { reason },
                (None, None) => unreachable!("clap requires one of --result-file and --failure"),
            };
            let req = SubmitRequest { session_id: session, operation_id: op(operation_id), checkpoint, outcome };
            codecall_step(&app, log.log, show_work_order, |rt| rt.submit(req))
        }
        CodecallCommand::Answer {
            session,
            checkpoint,
            accept,
            decline,
            confidence,
            default_confidence,
            acknowledge,
            choice,
            operation_id,
            show_work_order,
            log,
        } => {
            let answer = if accept || decline {
                Answer::Decision { accept }
            } else if default_confidence {
                Answer::Confidence { levels: Default::default() }
            } else if !confidence.is_empty() {
                Answer::Confidence { levels: parse_confidence(&confidence)? }
            } else if acknowledge {
                Answer::Acknowledge
            } else if let Some(choice_id) = choice {
                Answer::Choice { choice_id }
            } else {
                unreachable!("clap requires one answer")
            };
            let req = AnswerRequest { session_id: session, operation_id: op(operation_id), checkpoint, answer };
            codecall_step(&app, log.log, show_work_order, |rt| rt.answer(req))
        }
        CodecallCommand::Cancel { session, note, operation_id, log } => {
            let req = CancelRequest {
                session_id: session,
                operation_id: op(operation_id),
                reason: CancelReason::UserCancelled,
                note,
                actor: dossier_codecall::Actor::User,
            };
            codecall_step(&app, log.log, false, |rt| rt.cancel(req))
        }
        CodecallCommand::Resume { session, after_sequence, show_work_order, log } => {
            let req = ResumeRequest { session_id: session, after_sequence };
            codecall_step(&app, log.log, show_work_order, |rt| rt.resume(req))
        }
        CodecallCommand::Show { session, show_work_order, log } => {
            codecall_step(&app, log.log, show_work_order, |rt| rt.show(&session))
        }
        CodecallCommand::Replay { session_or_log, log } => {
            let (target, only) = if dossier_codecall::valid_session_id(&session_or_log) {
                let target = match &log.log {
                    Some(p) => dossier_codecall::LogTarget::File(p.clone()),
                    None => {
                        app.store.require()?;
                        dossier_codecall::LogTarget::File(dossier_codecall::log::session_log_path(
                            &app.store.learning_dir(),
                            &session_or_log,
                        ))
                    }
                };
                (target, Some(session_or_log))
            } else {
                let p = PathBuf::from(&session_or_log);
                if p.is_dir() {
                    (dossier_codecall::LogTarget::Directory(p), None)
                } else if p.is_file() {
                    (dossier_codecall::LogTarget::File(p), None)
                } else {
                    return Err(DossierError::new(
                        Code::InvalidInput,
                        format!("`{session_or_log}` is neither a session id (`lrn_…`) nor a log file or directory"),
                    )
                    .with_details(serde_json::json!({
                        "parameter": "session",
                        "expected": "a session id (`lrn_…`) or a log file or directory",
                    })));
                }
            };
            if let dossier_codecall::LogTarget::File(p) = &target
                && !p.is_file()
            {
                return Err(cc::error(dossier_codecall::RuntimeError::new(
                    dossier_codecall::ErrorCode::UnknownSession,
                    format!("no event log at {}", p.display()),
                )));
            }
            let mut report = cc::replay(&app, &target)?;
            if let Some(sid) = &only {
                report.sessions.retain(|s| &s.session_id == sid);
                if report.sessions.is_empty() {
                    return Err(cc::error(dossier_codecall::RuntimeError::new(
                        dossier_codecall::ErrorCode::UnknownSession,
                        format!("no session `{sid}` in the event log"),
                    )));
                }
            }
            let identical = report.is_identical();
            let mut data = serde_json::to_value(&report).expect("replay reports serialize");
            data["identical"] = json!(identical);
            let mut out = Output::new(data, cc::render_replay(&report));
            if !identical {
                out.exit = 1;
            }
            Ok(out)
        }
    }
}

/// A worker result file (`-`: stdin) as JSON. Not JSON at all is the caller's mistake, not a
/// worker result, so nothing is recorded.
fn read_result(file: &Path) -> Result<Value> {
    let text = if file == Path::new("-") {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| DossierError::io("read", Path::new("stdin"), e))?;
        s
    } else {
        std::fs::read_to_string(file).map_err(|e| DossierError::io("read", file, e))?
    };
    serde_json::from_str(&text).map_err(|e| {
        DossierError::new(Code::InvalidInput, format!("{} is not JSON: {e}; nothing was recorded", file.display()))
            .with_details(serde_json::json!({ "parameter": "--result-file", "expected": "a JSON file", "file": file }))
    })
}

/// `UNIT=LEVEL` pairs (levels as in the confidence gate; `-` and `_` both accepted).
fn parse_confidence(
    pairs: &[String],
) -> Result<std::collections::BTreeMap<String, dossier_codecall::contract::ConfidenceLevel>> {
    pairs
        .iter()
        .map(|pair| {
            let bad = || {
                DossierError::new(
                    Code::InvalidInput,
                    format!(
                        "--confidence `{pair}`: expected UNIT=LEVEL with LEVEL one of expert, comfortable, heard_of_it, \
                         never_learned, neutral"
                    ),
                )
                .with_details(json!({
                    "parameter": "--confidence",
                    "expected": "UNIT=LEVEL, LEVEL one of expert, comfortable, heard_of_it, never_learned, neutral",
                }))
            };
            let (unit, level) = pair.split_once('=').ok_or_else(bad)?;
            let level = serde_json::from_value(json!(level.trim().replace('-', "_"))).map_err(|_| bad())?;
            Ok((unit.trim().to_string(), level))
        })
        .collect()
}

//! codecall's MCP tools (`codecall_start`, `codecall_submit`, `codecall_answer`,
//! `codecall_cancel`, `codecall_resume`) and the `codecall` prompt, on the same server as the
//! `dossier_*` tools and with the same envelope. Each tool runs one runtime operation through
//! `codecall::run` (the path the CLI uses, with the Dossier hand-off) and returns the step: the
//! events it recorded (sequence and type; the log on disk has them whole) and what comes next.
//!
//! User gates: when the next step is the Start/Skip decision, the confidence gate or a
//! question, and the client speaks the multi-round-trip protocol (Claude Code does), the tool
//! answers with an `InputRequiredResult` form asked of the user; the client calls the tool
//! again with the form's response, which is recorded as the user's answer
//! (`codecall::forms`), and the session goes on, possibly to the next form. The retried call's
//! `requestState` says the operation itself already ran, so it never runs twice. When the form
//! is dismissed or forms are unavailable, the result's `next_actions` tell the agent what to
//! ask and which tool to call with the answer.
//!
//! Not for: session logic (the runtime), form contents (`codecall::forms`), rendering for
//! people (the agent shows lessons and questions as the views give them).

use std::collections::BTreeMap;

use dossier_codecall::contract::ConfidenceLevel;
use dossier_codecall::{
    Answer, AnswerRequest, CancelReason, CancelRequest, Next, ResumeRequest, Runtime, RuntimeError, Step,
    SubmitOutcome, SubmitRequest,
};
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, GetPromptResult, InputRequests, InputRequiredResult, PromptMessage, ProtocolVersion, Role,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{prompt, prompt_router, schemars, tool, tool_router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{ACTOR, DossierServer, envelope};
use crate::app::App;
use crate::claude_code::CODECALL_COMMAND;
use crate::codecall::{self as cc, forms};
use dossier_store::error::{Code, DossierError, Result};

/// The key of the one form a codecall round asks.
const FORM_KEY: &str = "codecall_gate";

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct StartParams {
    /// Repository path (default: working directory).
    pub repo: Option<String>,
    /// What was implemented and why.
    pub task: Option<String>,
    /// base..head, or alone the work since base (default: located).
    pub base: Option<String>,
    pub head: Option<String>,
    /// Save the summary to the bound Dossier.
    pub save_summary: Option<bool>,
    /// User consents to doc fetching (privacy_mode allow-doc-fetch).
    pub allow_doc_fetch: Option<bool>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SubmitParams {
    pub session_id: String,
    /// The work order's id.
    pub checkpoint: String,
    /// JSON valid against the work order's result_schema.
    pub result: Option<Value>,
    /// Instead of result: why none.
    pub failure: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AnswerParams {
    pub session_id: String,
    pub checkpoint: String,
    /// Start (true) or Skip (false).
    pub accept: Option<bool>,
    /// Unit id → expert|comfortable|heard_of_it|never_learned; {} = default.
    pub confidence: Option<BTreeMap<String, String>>,
    /// The lesson was shown.
    pub acknowledge: Option<bool>,
    /// The label the user chose.
    pub choice_id: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SessionParams {
    pub session_id: String,
    /// Cancel reason.
    pub note: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PromptParams {
    /// What was implemented.
    pub about: Option<String>,
}

/// What a codecall tool keeps in `requestState` while a form is out: the gate it asks about,
/// and what the earlier rounds did. Untrusted (the client echoes it) and needs no sealing: the
/// answer is checked against the session's *current* gate, and the rest is only reported.
#[derive(Debug, Default, Serialize, Deserialize)]
struct GateState {
    session_id: String,
    checkpoint: String,
    events: Vec<String>,
    answered: Vec<String>,
    warnings: Vec<String>,
}

/// A runtime operation to run, boxed so every tool shares one round loop.
type Op = Box<dyn FnOnce(&mut Runtime<'_>) -> std::result::Result<Step, RuntimeError> + Send>;

/// The runtime's error for an MCP caller: codes and details verbatim; the next actions name
/// tools, not CLI commands.
fn tool_error(e: DossierError) -> DossierError {
    if e.code == Code::UnavailableSource {
        // Words, not commands: they say what to change before starting again.
        return e;
    }
    let sid = e.details.get("session_id").and_then(Value::as_str).map(str::to_string);
    let mut e = DossierError { next: Vec::new(), ..e };
    let Some(sid) = sid else {
        if e.code == Code::UnknownSession {
            e = e.with_next("codecall_start");
        }
        return e;
    };
    let state = e.details.get("state").and_then(Value::as_str).map(str::to_string);
    let checkpoint = e.details.get("checkpoint").and_then(Value::as_str).map(str::to_string);
    match e.code {
        // A third rejected extraction handed the session to the user's Start/Skip decision.
        Code::InvalidWorkerResult if state.as_deref() == Some("waiting_for_decision") => e
            .with_next(format!("codecall_resume session_id={sid} (shows the user's Start/Skip card)"))
            .with_next(format!(
                "ask the user, then codecall_answer session_id={sid} checkpoint={} accept=<true|false>",
                checkpoint.unwrap_or_default()
            )),
        Code::InvalidWorkerResult => e.with_next(format!(
            "fix exactly the errors in error.details and call codecall_submit session_id={sid} with the corrected result"
        )),
        Code::PolicyError => e.with_next("run `dossier doctor`").with_next(format!("codecall_resume session_id={sid}")),
        _ => e.with_next(format!("codecall_resume session_id={sid} (shows where the session is)")),
    }
}

fn parse_level(unit: &str, level: &str) -> Result<Option<ConfidenceLevel>> {
    Ok(Some(match level {
        "expert" => ConfidenceLevel::Expert,
        "comfortable" => ConfidenceLevel::Comfortable,
        "heard_of_it" => ConfidenceLevel::HeardOfIt,
        "never_learned" => ConfidenceLevel::NeverLearned,
        "default" | "neutral" => return Ok(None),
        other => {
            return Err(DossierError::new(
                Code::InvalidInput,
                format!(
                    "confidence for `{unit}`: `{other}` is not one of expert, comfortable, heard_of_it, never_learned"
                ),
            )
            .with_details(json!({
                "field": format!("confidence.{unit}"),
                "expected": "one of expert, comfortable, heard_of_it, never_learned",
            })));
        }
    }))
}

impl AnswerParams {
    fn answer(self) -> Result<Answer> {
        let given =
            [self.accept.is_some(), self.confidence.is_some(), self.acknowledge.is_some(), self.choice_id.is_some()];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(DossierError::new(
                Code::InvalidInput,
                "pass exactly one of accept, confidence, acknowledge, choice_id (the one the gate asks for)",
            )
            .with_details(
                json!({ "field": null, "expected": "exactly one of accept, confidence, acknowledge, choice_id" }),
            ));
        }
        Ok(if let Some(accept) = self.accept {
            Answer::Decision { accept }
        } else if let Some(c) = self.confidence {
            let mut levels = BTreeMap::new();
            for (unit, level) in c {
                if let Some(l) = parse_level(&unit, &level)? {
                    levels.insert(unit, l);
                }
            }
            Answer::Confidence { levels }
        } else if let Some(choice_id) = self.choice_id {
            Answer::Choice { choice_id }
        } else {
            Answer::Acknowledge
        })
    }
}

/// What the agent does next for `step`, as tool calls.
fn next_actions(step: &Step, dismissed: bool) -> Vec<String> {
    let sid = &step.session_id;
    let mut out = Vec::new();
    if step.feedback.is_some() {
        out.push("tell the user the feedback on their answer (data.feedback) first".to_string());
    }
    match &step.next {
        Next::WorkOrder(o) => out.push(format!(
            "do the work order (data.next.template is the prompt; ground it in data.next.evidence), then \
             codecall_submit session_id={sid} checkpoint={} result=<JSON valid against data.next.result_schema>",
            o.id
        )),
        Next::Decision(card) if !card.teachable && !card.help.is_empty() => {
            out.push(
                "no qualifying evidence: tell the user why (data.next.reasons) and what would help (data.next.help)"
                    .to_string(),
            );
            out.push(format!(
                "then codecall_answer session_id={sid} checkpoint={} accept=false, and start again with what the user \
                 gives (base, task or repo)",
                card.checkpoint
            ));
        }
        Next::Decision(card) if !card.teachable => out.push(format!(
            "nothing to teach: codecall_answer session_id={sid} checkpoint={} accept=false",
            card.checkpoint
        )),
        Next::Lesson(l) => out.push(format!(
            "show the user the lesson (data.next.lesson) as written, then codecall_answer session_id={sid} \
             checkpoint={} acknowledge=true",
            l.checkpoint
        )),
        Next::Summary(_) => out.push("show the user the summary (data.next)".to_string()),
        Next::Interrupted { .. } => out.push(format!("codecall_resume session_id={sid}")),
        next => {
            if let Some(ask) = forms::ask_in_conversation(sid, next) {
                if dismissed {
                    out.push("the user dismissed the form: ask them in the conversation instead".to_string());
                }
                out.push(ask);
            }
        }
    }
    out
}

fn event_names(step: &Step) -> Vec<String> {
    step.events.iter().map(|e| format!("{} {}", e.sequence, e.body.kind().name())).collect()
}

impl DossierServer {
    /// One codecall tool call: either a form round (the call retried with the user's answer to
    /// the gate in `state`) or `op`; then, while the session waits at a user gate and forms
    /// work, a form; otherwise the step as an envelope.
    fn codecall_round(
        &self,
        op: impl FnOnce(&App) -> Result<(Op, Vec<String>)>,
        state: Option<String>,
        responses: Option<rmcp::model::InputResponses>,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let app = self.app.lock().unwrap_or_else(|e| e.into_inner());
        let forms_work = context.protocol_version().is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
            && context.client_capabilities().is_none_or(|c| c.elicitation.is_some());
        let mut gate: GateState = state.as_deref().and_then(|s| serde_json::from_str(s).ok()).unwrap_or_default();
        let mut dismissed = false;
        let ran = (|| -> Result<cc::Ran> {
            let target = cc::log_target(&app, None)?;
            if gate.session_id.is_empty() {
                let (op, warnings) = op(&app)?;
                gate.warnings.extend(warnings);
                return cc::run(&app, target, ACTOR, op);
            }
            // A form round: the operation ran in an earlier round; record the user's answer
            // if the session still waits at that gate.
            let sid = gate.session_id.clone();
            let current = cc::run(&app, target.clone(), ACTOR, |rt| rt.show(&sid))?;
            if forms::gate_checkpoint(&current.step.next) != Some(gate.checkpoint.as_str()) {
                return Ok(current);
            }
            let response = responses.as_ref().and_then(|r| r.get(FORM_KEY));
            let Some(answer) = forms::answer(&current.step.next, response) else {
                dismissed = true;
                return Ok(current);
            };
            gate.answered.push(forms::describe(&answer));
            let req = AnswerRequest {
                session_id: sid,
                operation_id: cc::new_operation_id(),
                checkpoint: gate.checkpoint.clone(),
                answer,
            };
            cc::run(&app, target, ACTOR, |rt| rt.answer(req))
        })();
        let ran = match ran {
            Ok(r) => r,
            Err(e) => return envelope(Err(tool_error(e))).into(),
        };
        gate.events.extend(event_names(&ran.step));
        gate.warnings.extend(ran.warnings.iter().cloned());
        if forms_work
            && !dismissed
            && let (Some(form), Some(cp)) = (forms::form(&ran.step.next), forms::gate_checkpoint(&ran.step.next))
        {
            let state = GateState {
                session_id: ran.step.session_id.clone(),
                checkpoint: cp.to_string(),
                events: gate.events,
                answered: gate.answered,
                warnings: gate.warnings,
            };
            let mut requests = InputRequests::new();
            requests.insert(FORM_KEY.into(), form);
            let state = serde_json::to_string(&state).expect("gate state serializes");
            return InputRequiredResult::new(Some(requests), Some(state)).into();
        }
        let step = &ran.step;
        let mut data = json!({
            "session_id": step.session_id,
            "state": step.state,
            "last_sequence": step.last_sequence,
            "events": gate.events,
            "answered_by_user": gate.answered,
            "next": step.next,
            "log": ran.log,
        });
        if let Some(f) = &step.feedback {
            data["feedback"] = json!(f);
        }
        if let Some(r) = &step.recovered {
            data["recovered"] = json!(r);
        }
        if let Some(h) = &ran.hand_off {
            data["hand_off"] = json!(h);
        }
        if step.replayed {
            gate.warnings.push("this operation was already recorded: nothing new was recorded".into());
        }
        envelope(Ok((data, gate.warnings, next_actions(step, dismissed)))).into()
    }
}

#[tool_router(router = codecall_router, vis = "pub(super)")]
impl DossierServer {
    #[tool(description = "Start a codecall learning session about the repo's latest implementation.")]
    fn codecall_start(
        &self,
        Parameters(p): Parameters<StartParams>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let op = |app: &App| -> Result<(Op, Vec<String>)> {
            let input = cc::StartInput {
                repo: p.repo.map(Into::into),
                base: p.base,
                head: p.head,
                task: p.task,
                save_summary: p.save_summary,
                allow_doc_fetch: p.allow_doc_fetch.unwrap_or(false),
                harness_session: std::env::var("CLAUDE_CODE_SESSION_ID").ok(),
                ..Default::default()
            };
            let (req, warnings) = cc::start_request(app, input)?;
            Ok((Box::new(move |rt: &mut Runtime<'_>| rt.start(req)), warnings))
        };
        self.codecall_round(op, state, responses, &context)
    }

    #[tool(description = "Hand in the result of a codecall work order.")]
    fn codecall_submit(
        &self,
        Parameters(p): Parameters<SubmitParams>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let op = |_: &App| -> Result<(Op, Vec<String>)> {
            let outcome = match (p.result, p.failure) {
                (Some(result), None) => SubmitOutcome::Result { result },
                (None, Some(reason)) => SubmitOutcome::Failure { reason },
                _ => {
                    return Err(DossierError::new(Code::InvalidInput, "pass exactly one of result and failure")
                        .with_details(json!({ "field": null, "expected": "exactly one of result, failure" })));
                }
            };
            let req = SubmitRequest {
                session_id: p.session_id,
                operation_id: cc::new_operation_id(),
                checkpoint: p.checkpoint,
                outcome,
            };
            Ok((Box::new(move |rt: &mut Runtime<'_>| rt.submit(req)), Vec::new()))
        };
        self.codecall_round(op, state, responses, &context)
    }

    #[tool(description = "Answer a codecall gate (Start/Skip, confidence, lesson read, question).")]
    fn codecall_answer(
        &self,
        Parameters(p): Parameters<AnswerParams>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let op = |_: &App| -> Result<(Op, Vec<String>)> {
            let session_id = p.session_id.clone();
            let checkpoint = p.checkpoint.clone();
            let answer = p.answer()?;
            let req = AnswerRequest { session_id, operation_id: cc::new_operation_id(), checkpoint, answer };
            Ok((Box::new(move |rt: &mut Runtime<'_>| rt.answer(req)), Vec::new()))
        };
        self.codecall_round(op, state, responses, &context)
    }

    #[tool(description = "Cancel a codecall session.")]
    fn codecall_cancel(
        &self,
        Parameters(p): Parameters<SessionParams>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let op = |_: &App| -> Result<(Op, Vec<String>)> {
            let req = CancelRequest {
                session_id: p.session_id,
                operation_id: cc::new_operation_id(),
                reason: CancelReason::UserCancelled,
                note: p.note,
                actor: dossier_codecall::Actor::User,
            };
            Ok((Box::new(move |rt: &mut Runtime<'_>| rt.cancel(req)), Vec::new()))
        };
        self.codecall_round(op, state, responses, &context)
    }

    #[tool(description = "Where a codecall session is; finishes a step a crash interrupted.")]
    fn codecall_resume(
        &self,
        Parameters(p): Parameters<SessionParams>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let op = |_: &App| -> Result<(Op, Vec<String>)> {
            let req = ResumeRequest { session_id: p.session_id, after_sequence: None };
            Ok((Box::new(move |rt: &mut Runtime<'_>| rt.resume(req)), Vec::new()))
        };
        self.codecall_round(op, state, responses, &context)
    }
}

/// The `/codecall` command's instructions with the user's note in place of `$ARGUMENTS`
/// (frontmatter dropped: it is for Claude Code's command loader, not the model).
pub fn command_prompt(about: Option<&str>) -> String {
    let body = match CODECALL_COMMAND.strip_prefix("---\n").and_then(|rest| rest.split_once("\n---\n")) {
        Some((_, body)) => body,
        None => CODECALL_COMMAND,
    };
    body.trim_start().replace("$ARGUMENTS", about.filter(|a| !a.trim().is_empty()).unwrap_or("none"))
}

#[prompt_router(router = "codecall_prompts", vis = "pub(super)")]
impl DossierServer {
    #[prompt(name = "codecall", description = "Start a codecall learning session about the latest implementation.")]
    async fn codecall_prompt(&self, Parameters(p): Parameters<PromptParams>) -> GetPromptResult {
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, command_prompt(p.about.as_deref()))])
            .with_description("Start a codecall learning session")
    }
}

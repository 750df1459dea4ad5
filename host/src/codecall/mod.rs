//! codecall's operations as the host runs them: the `dossier-codecall` runtime over the store's
//! event log (`<store>/learning/<session-id>.jsonl`, or a file the caller names), deciding with
//! the policy component ([`ComponentLearningPolicy`]) and collecting evidence with the host's
//! tokenizer counting the budget; the runtime's errors as [`DossierError`]s (codes verbatim);
//! and a short human rendering of a [`Step`] for the CLI.
//!
//! One path for CLI and MCP: [`start_request`] builds a start from either's arguments, and
//! [`run`] runs an operation and then the Dossier hand-off ([`handoff`]); the user gates as
//! MCP forms are in [`forms`].
//!
//! Not for: session logic (the runtime), policy (the component), or argument parsing (`crate::cli`).
//! Nothing here reads the repository except through `dossier-evidence`, and nothing prints a
//! question's answer key: views come from the runtime, which never puts it in a question.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use dossier_codecall::step::{ConfidenceGate, LessonView, QuestionView, RecommendationView};
use dossier_codecall::{
    CollectFailure, ErrorCode, EvidenceSource, LogTarget, Next, ReplayReport, Runtime, RuntimeError, Step, WorkOrder,
};
use dossier_evidence::{EvidencePack, EvidenceRequest, TokenCounter};
use serde_json::{Value, json};

pub mod edits;
pub mod forms;
pub mod handoff;
pub mod locate;
mod text;

use text::{cite, wire};

use crate::app::App;
use crate::policy::ComponentLearningPolicy;
use dossier_store::error::{Code, DossierError, Result};

/// The host's tokenizer (`tokens.rs`: cl100k_base × the configured calibration) as the
/// collector's token counter, so evidence budgets are in the same tokens as everything else.
pub struct HostTokens {
    calibration: f64,
    name: String,
}

impl HostTokens {
    pub fn new(calibration: f64) -> Self {
        HostTokens { calibration, name: format!("{}×{calibration}", dossier_store::tokens::TOKENIZER) }
    }
}

impl TokenCounter for HostTokens {
    fn name(&self) -> &str {
        &self.name
    }
    fn count(&self, text: &str) -> u64 {
        dossier_store::tokens::estimate(text, self.calibration).tokens
    }
}

/// `dossier_evidence::collect_with` counting with [`HostTokens`] (git, read-only, redacted by
/// the store's redaction policy).
pub struct HostEvidence<'a> {
    tokens: HostTokens,
    redactor: &'a StoreRedactor<'a>,
}

impl EvidenceSource for HostEvidence<'_> {
    fn collect(&self, request: &EvidenceRequest) -> std::result::Result<EvidencePack, CollectFailure> {
        dossier_evidence::collect_with(request, &self.tokens, self.redactor)
            .map_err(|e| dossier_codecall::source::classify(&e))
    }
}

/// The store's redaction (the policy component, the store's key and `privacy` settings) as
/// the redactor codecall and its evidence collector are handed: one set of rules for what the
/// store keeps and what a model is shown.
pub struct StoreRedactor<'a>(pub dossier_store::redact::Redactor<'a>);

impl dossier_evidence::Redact for StoreRedactor<'_> {
    fn redact(&self, text: &str) -> std::result::Result<dossier_evidence::Redacted, String> {
        let r = self.0.redact(text).map_err(|e| e.message)?;
        Ok(dossier_evidence::Redacted {
            text: r.text,
            found: r
                .hits
                .into_iter()
                .map(|h| dossier_evidence::Redaction { kind: h.kind, first_line: h.first_line, last_line: h.last_line })
                .collect(),
        })
    }
}

/// A fresh operation id (`op_` + a lowercase ULID).
pub fn new_operation_id() -> String {
    format!("op_{}", ulid::Ulid::generate().to_string().to_lowercase())
}

/// The session id a `start` with a caller-given operation id and no session id gets: `lrn_` and
/// 26 lowercase base-32 digits of BLAKE3(operation id). A retried start (same operation id) thus
/// names the same session, whose log a new process reads before deciding (a directory log is read
/// per session, so a generated id could not be found again); the same operation id with another
/// request is `operation_conflict`.
pub fn session_id_for_operation(operation_id: &str) -> String {
    const DIGITS: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
    let hash = blake3::hash(operation_id.as_bytes());
    let bits = u128::from_be_bytes(hash.as_bytes()[..16].try_into().expect("16 bytes"));
    let id: String = (0..26).map(|i| DIGITS[((bits >> (125 - 5 * i)) & 31) as usize] as char).collect();
    format!("lrn_{id}")
}

/// A start as the CLI's flags or the MCP tool's arguments give it.
#[derive(Clone, Debug, Default)]
pub struct StartInput {
    /// Any directory inside the work tree; default: the current directory.
    pub repo: Option<PathBuf>,
    /// The implementation is `base..head`; `base` alone: the work since `base`; neither: the
    /// locate rules ([`locate`]).
    pub base: Option<String>,
    pub head: Option<String>,
    pub task: Option<String>,
    pub session_id: Option<String>,
    pub max_minutes: Option<u32>,
    pub operation_id: Option<String>,
    pub invocation: dossier_codecall::Invocation,
    /// Hand the summary to the bound Dossier (`None`: `codecall.save_summaries`).
    pub save_summary: Option<bool>,
    /// The agent session (`CLAUDE_CODE_SESSION_ID`) whose bound Dossier receives the summary.
    pub harness_session: Option<String>,
    /// Hand the summary to this Dossier (slug or id) instead of the bound one.
    pub save_summary_to: Option<String>,
    /// The user consents to fetching official documentation pages for this session (honoured
    /// only when `codecall.privacy_mode` is `allow-doc-fetch`).
    pub allow_doc_fetch: bool,
}

/// Whether a session may fetch documentation over the network: the config allows it *and* the
/// user consented for this session. Otherwise offline, with a warning when only one was given.
pub fn doc_fetch_allowed(app: &App, consent: bool) -> (bool, Option<String>) {
    let allowed = app.config.codecall.privacy_mode == dossier_store::config::PrivacyMode::AllowDocFetch;
    match (allowed, consent) {
        (true, true) => (true, None),
        (false, true) => (
            false,
            Some(
                "documentation stays offline: codecall.privacy_mode in config.yaml is local-only (set it to \
                 allow-doc-fetch to let a consented session fetch official documentation)"
                    .into(),
            ),
        ),
        _ => (false, None),
    }
}

/// The host's documentation source: the offline providers, plus the network provider
/// ([`dossier_docs::web::WebDocs`]) for a session recorded as allowed to fetch (the runtime asks
/// with `network: true` only then).
pub struct HostDocs {
    web: dossier_docs::web::WebConfig,
}

impl HostDocs {
    pub fn new(config: &dossier_store::config::CodecallConfig) -> HostDocs {
        let mut web = dossier_docs::web::WebConfig::default();
        if !config.doc_sites.is_empty() {
            web.sites = config
                .doc_sites
                .iter()
                .map(|s| dossier_docs::web::Site {
                    ecosystem: s.ecosystem.clone(),
                    url_template: s.url_template.clone(),
                    allowed_domains: s.allowed_domains.clone(),
                })
                .collect();
        }
        web.timeout = std::time::Duration::from_millis(config.doc_fetch_timeout_ms);
        web.max_bytes = config.doc_fetch_max_bytes;
        HostDocs { web }
    }
}

impl dossier_codecall::docs::DocumentationSource for HostDocs {
    fn resolve(&self, request: &dossier_codecall::docs::DocRequest) -> dossier_codecall::docs::DocResolution {
        let mut loc = dossier_docs::Locations::from_env(&request.repo);
        loc.changed_symbols = request.changed_symbols.clone();
        let mut resolver = dossier_docs::Resolver::offline(&loc);
        if request.network {
            resolver = resolver.with(dossier_docs::web::WebDocs::new(self.web.clone(), &request.repo));
        }
        dossier_codecall::docs::resolve_with(&resolver, request, request.network)
    }
}

/// The runtime's start request for `input`, and warnings (a hand-off asked for with nothing
/// bound). The repository is recorded absolute, so `resume` elsewhere collects the same one.
pub fn start_request(app: &App, input: StartInput) -> Result<(dossier_codecall::StartRequest, Vec<String>)> {
    let repo = match input.repo {
        Some(r) => r,
        None => std::env::current_dir().map_err(|e| DossierError::io("read", Path::new("."), e))?,
    };
    let repo = std::fs::canonicalize(&repo).map_err(|e| {
        DossierError::new(Code::InvalidInput, format!("repository {}: {e}", repo.display()))
            .with_details(serde_json::json!({ "field": "repo", "expected": "a path inside a git work tree" }))
            .with_next("pass a path inside a git work tree as the repository")
    })?;
    let location = locate::locate(app, &repo, input.harness_session.as_deref(), input.base, input.head)?;
    let (save_summary_to, warning) = match &input.save_summary_to {
        Some(named) => (Some(handoff::dossier_id(app, named)?), None),
        None => handoff::target(app, input.save_summary, input.harness_session.as_deref()),
    };
    let (fetch, fetch_warning) = doc_fetch_allowed(app, input.allow_doc_fetch);
    let options = dossier_codecall::StartOptions {
        max_minutes: input.max_minutes.unwrap_or(dossier_codecall::event::DEFAULT_MAX_MINUTES),
        save_summary_to,
        offline: !fetch,
        ..Default::default()
    };
    // A caller-given operation id without a session id names the session after it, so a
    // retried start finds the session it started.
    let session_id = input.session_id.or_else(|| input.operation_id.as_deref().map(session_id_for_operation));
    let req = dossier_codecall::StartRequest {
        operation_id: input.operation_id.unwrap_or_else(new_operation_id),
        session_id,
        invocation: input.invocation,
        locator: dossier_evidence::ImplementationLocator {
            repo,
            changes: location.changes,
            task: input.task,
            located: Some(location.located),
        },
        completed: true,
        options,
        actor: dossier_codecall::Actor::User,
    };
    Ok((req, warning.into_iter().chain(location.warning).chain(fetch_warning).collect()))
}

/// What [`run`] did: the step, the log file, and the summary hand-off if there was one.
pub struct Ran {
    pub step: Step,
    pub log: Option<PathBuf>,
    pub hand_off: Option<handoff::HandOff>,
    pub warnings: Vec<String>,
}

/// Run one operation over `target`, then, when the session is completed and opted in to the
/// hand-off, save its summary to its Dossier (once; see [`handoff`]). A failed hand-off is a
/// warning: the session itself completed and its log holds the summary.
pub fn run(
    app: &App,
    target: LogTarget,
    actor: &str,
    f: impl FnOnce(&mut Runtime<'_>) -> std::result::Result<Step, RuntimeError>,
) -> Result<Ran> {
    let (step, hand_off_to) = with_runtime(app, target.clone(), |rt| {
        let step = f(rt)?;
        let to = rt
            .session(&step.session_id)
            .and_then(|s| s.started.as_ref())
            .and_then(|s| s.options.save_summary_to.clone());
        Ok((step, to))
    })?;
    let log = log_file(&target, &step.session_id);
    if let Some(e) = failed_collection(&step, log.as_deref()) {
        return Err(e);
    }
    let mut warnings = Vec::new();
    let mut hand_off = None;
    if let (Next::Summary(summary), Some(dossier)) = (&step.next, hand_off_to) {
        let harness = std::env::var("CLAUDE_CODE_SESSION_ID").ok();
        match handoff::save_summary(app, &dossier, &step.session_id, summary, log.as_deref(), actor, harness) {
            Ok(h) => hand_off = Some(h),
            Err(e) => warnings.push(format!(
                "the summary could not be saved to Dossier {dossier}: {} (it is in the session log; `dossier codecall \
                 show {}` retries)",
                e.message, step.session_id
            )),
        }
    }
    Ok(Ran { step, log, hand_off, warnings })
}

/// When this operation ended the session because its evidence could not be collected (an
/// unknown revision, not a repository, git missing or failing): an `unavailable_source` error
/// with the collector's message and what to do, never a success. The session's log keeps what
/// happened (`OPERATION_FAILED`, `SESSION_FAILED`).
fn failed_collection(step: &Step, log: Option<&Path>) -> Option<DossierError> {
    use dossier_codecall::event::{EventBody, RecoveryCause};
    let failed = step.events.iter().find_map(|e| match &e.body {
        EventBody::SessionFailed(f) if f.cause == RecoveryCause::UnavailableSource => Some(f),
        _ => None,
    })?;
    let cause = step.events.iter().rev().find_map(|e| match &e.body {
        EventBody::OperationFailed(f) if f.checkpoint.is_none() => Some(f),
        _ => None,
    });
    let (code, message) = cause.map_or(("unknown", failed.message.as_str()), |f| (f.code.as_str(), f.message.as_str()));
    let todo = match code {
        "unknown_revision" => {
            "check the revision names (`git log --oneline` lists them), then start again; or start without base and \
             head to let codecall locate the work"
        }
        "not_a_repository" => "start again with repo set to a directory inside a git work tree",
        "git_not_found" => "install git (or put it on PATH), then start again",
        _ => "check the repository and the revisions, then start again",
    };
    Some(
        DossierError::new(Code::UnavailableSource, format!("the codecall session could not start: {message}; {todo}"))
            .with_details(json!({
                "learning_session": step.session_id,
                "state": step.state,
                "cause": code,
                "log": log,
            }))
            .with_next(todo.to_string()),
    )
}

/// Where the log is: the file given, else the store's `learning/` directory (the store must
/// exist: a learning session is not a reason to create one).
pub fn log_target(app: &App, log: Option<&Path>) -> Result<LogTarget> {
    match log {
        Some(p) => Ok(LogTarget::File(p.to_path_buf())),
        None => {
            app.store.require()?;
            Ok(LogTarget::Directory(app.store.learning_dir()))
        }
    }
}

/// The file holding `session_id`'s events under `target`.
pub fn log_file(target: &LogTarget, session_id: &str) -> Option<PathBuf> {
    match target {
        LogTarget::File(p) => Some(p.clone()),
        LogTarget::Directory(d) => Some(dossier_codecall::log::session_log_path(d, session_id)),
        LogTarget::Memory => None,
    }
}

/// Run `f` on a runtime over `target` with the component policy and the host's evidence source.
pub fn with_runtime<R>(
    app: &App,
    target: LogTarget,
    f: impl FnOnce(&mut Runtime<'_>) -> std::result::Result<R, RuntimeError>,
) -> Result<R> {
    let policy = ComponentLearningPolicy::new(crate::app::policies(app)?);
    let redactor = StoreRedactor(dossier_store::redact::Redactor::new(app));
    let evidence = HostEvidence { tokens: HostTokens::new(app.config.tokens.calibration), redactor: &redactor };
    let mut rt = Runtime::open(target, &policy, &redactor)
        .map_err(error)?
        .with_evidence_source(evidence)
        .with_documentation_source(HostDocs::new(&app.config.codecall));
    f(&mut rt).map_err(error)
}

/// Replay `target` with the component policy (and the store's redaction, which recorded text
/// already went through: a second pass changes nothing).
pub fn replay(app: &App, target: &LogTarget) -> Result<ReplayReport> {
    let policy = ComponentLearningPolicy::new(crate::app::policies(app)?);
    let redactor = StoreRedactor(dossier_store::redact::Redactor::new(app));
    dossier_codecall::replay(target, &policy, &redactor).map_err(error)
}

/// The runtime's error with its code verbatim; `details` carries the session, its state, the
/// checkpoint to use next and (for a rejected result) every validation error.
pub fn error(e: RuntimeError) -> DossierError {
    let code = match e.code {
        ErrorCode::InvalidRequest => Code::InvalidRequest,
        ErrorCode::InvalidWorkerResult => Code::InvalidWorkerResult,
        ErrorCode::IllegalTransition => Code::IllegalTransition,
        ErrorCode::UnknownSession => Code::UnknownSession,
        ErrorCode::StaleOperation => Code::StaleOperation,
        ErrorCode::OperationConflict => Code::OperationConflict,
        ErrorCode::SessionEnded => Code::SessionEnded,
        ErrorCode::NothingToTeach => Code::NothingToTeach,
        ErrorCode::PolicyError => Code::PolicyError,
        ErrorCode::LogError => Code::LogError,
        ErrorCode::CorruptLog => Code::CorruptLog,
    };
    let mut details = serde_json::to_value(&e).expect("runtime errors serialize");
    if let Some(map) = details.as_object_mut() {
        map.remove("code");
        map.remove("message");
    }
    let mut out = DossierError::new(code, e.message.clone());
    if details.as_object().is_some_and(|m| !m.is_empty()) {
        out = out.with_details(details);
    }
    if let Some(sid) = &e.session_id {
        match (e.code, &e.checkpoint) {
            // A third rejected extraction handed the session to the user: show the card, answer it.
            (ErrorCode::InvalidWorkerResult, Some(cp))
                if e.state == Some(dossier_codecall::SessionState::WaitingForDecision) =>
            {
                out = out
                    .with_next(format!("dossier codecall show {sid}"))
                    .with_next(format!("dossier codecall answer {sid} --checkpoint {cp} --accept"))
                    .with_next(format!("dossier codecall answer {sid} --checkpoint {cp} --decline"))
            }
            (ErrorCode::InvalidWorkerResult, Some(cp)) => {
                out =
                    out.with_next(format!("dossier codecall submit {sid} --checkpoint {cp} --result-file RESULT.json"))
            }
            (ErrorCode::PolicyError, _) => {
                out = out.with_next("dossier doctor").with_next(format!("dossier codecall resume {sid}"))
            }
            _ => out = out.with_next(format!("dossier codecall show {sid}")),
        }
    } else if e.code == ErrorCode::UnknownSession {
        out = out.with_next("dossier codecall start");
    }
    out
}

/// What the CLI prints for a step.
pub struct Rendered {
    pub data: Value,
    pub human: String,
    pub warnings: Vec<String>,
    pub next_actions: Vec<String>,
}

/// The step as JSON (`data`), a short human text, warnings and the next commands.
pub fn render(step: &Step, log: Option<&Path>, show_work_order: bool) -> Rendered {
    let sid = &step.session_id;
    let mut data = serde_json::to_value(step).expect("steps serialize");
    if let Some(map) = data.as_object_mut() {
        map.insert("log".into(), json!(log));
    }
    let mut h = format!("codecall session {sid}: {}\n", wire(&step.state));
    let mut warnings = Vec::new();
    let mut next_actions = Vec::new();
    if step.replayed {
        warnings.push(
            "this operation id was already recorded: nothing new was recorded, this is what it recorded then".into(),
        );
    }
    if let Some(r) = &step.recovered {
        if let Some(op) = &r.completed_operation {
            warnings.push(format!(
                "finished operation `{op}`, which was interrupted ({} event(s) recorded)",
                r.events_completed
            ));
        }
        for issue in &r.log_issues {
            warnings.push(format!("log line {} of {} skipped: {}", issue.line, issue.path.display(), issue.message));
        }
    }
    if let Some(f) = &step.feedback {
        if f.correct {
            let _ = writeln!(h, "\nCorrect ({}).", f.chosen_choice_id);
        } else {
            let _ =
                writeln!(h, "\nNot quite: you chose {}, the answer was {}.", f.chosen_choice_id, f.correct_choice_id);
        }
        if !f.feedback.is_empty() {
            let _ = writeln!(h, "{}", f.feedback);
        }
        if !f.correct_rationale.is_empty() {
            let _ = writeln!(h, "Why: {}", f.correct_rationale);
        }
    }
    h.push('\n');
    let answer = |cp: &str, rest: &str| format!("dossier codecall answer {sid} --checkpoint {cp} {rest}");
    match &step.next {
        Next::WorkOrder(order) => {
            render_work_order(&mut h, order, show_work_order);
            if !show_work_order {
                next_actions.push(format!("dossier codecall show {sid} --show-work-order"));
            }
            next_actions
                .push(format!("dossier codecall submit {sid} --checkpoint {} --result-file RESULT.json", order.id));
            next_actions.push(format!("dossier codecall submit {sid} --checkpoint {} --failure \"REASON\"", order.id));
        }
        Next::Decision(card) => {
            render_card(&mut h, card);
            if card.teachable {
                next_actions.push(answer(&card.checkpoint, "--accept"));
            }
            next_actions.push(answer(&card.checkpoint, "--decline"));
        }
        Next::Confidence(gate) => {
            render_confidence(&mut h, gate);
            let example: Vec<String> = gate.units.iter().map(|u| format!("{}=comfortable", u.id)).collect();
            next_actions.push(answer(&gate.checkpoint, &format!("--confidence {}", example.join(" "))));
            next_actions.push(answer(&gate.checkpoint, "--default-confidence"));
        }
        Next::Lesson(lesson) => {
            render_lesson(&mut h, lesson);
            next_actions.push(answer(&lesson.checkpoint, "--acknowledge"));
        }
        Next::Question(q) => {
            render_question(&mut h, q);
            next_actions.push(answer(&q.checkpoint, "--choice ID"));
        }
        Next::Summary(s) => {
            let _ = writeln!(h, "Session completed: {}", s.message);
            let e = &s.estimated_session_mastery;
            let _ = writeln!(
                h,
                "Estimated session mastery: {} of {} objective unit(s) evidenced in this session.",
                e.objective_units_evidenced, e.objective_units
            );
            for c in &s.concepts {
                let m = &c.estimated_session_mastery;
                let _ = writeln!(
                    h,
                    "  {:<12} {} ({} of {} answers correct; declared {})",
                    wire(&m.level),
                    c.label,
                    m.correct_answers,
                    m.answers,
                    wire(&c.declared_confidence)
                );
            }
            let list = |h: &mut String, title: &str, items: &[String]| {
                if !items.is_empty() {
                    let _ = writeln!(h, "{title}:");
                    for i in items {
                        let _ = writeln!(h, "  - {i}");
                    }
                }
            };
            let weak = handoff::weak_areas(s);
            list(&mut h, "Weak areas", &weak);
            list(&mut h, "Takeaways", &s.takeaways);
            list(&mut h, "Points to remember", &s.points_to_remember);
            list(&mut h, "Edge cases for other projects", &s.edge_cases_for_other_projects);
            list(&mut h, "Limitations", &s.limitations);
            let _ = writeln!(
                h,
                "{} question(s) answered, about {} minute(s).",
                s.questions_answered, s.minutes_spent_estimate
            );
        }
        Next::Cancelled { reason } => {
            let _ = writeln!(h, "Session cancelled ({}).", wire(reason));
        }
        Next::Failed { cause } => {
            let _ = writeln!(h, "Session failed ({}); nothing more can happen in it.", wire(cause));
            next_actions.push("dossier codecall start".into());
        }
        Next::Interrupted { message } => {
            let _ = writeln!(h, "Interrupted: {message}");
            next_actions.push(format!("dossier codecall resume {sid}"));
        }
    }
    if !next_actions.is_empty() {
        h.push('\n');
        for a in &next_actions {
            let _ = writeln!(h, "next: {a}");
        }
    }
    if let Some(p) = log {
        let _ = writeln!(h, "log: {}", p.display());
    }
    Rendered { data, human: h, warnings, next_actions }
}

fn render_work_order(h: &mut String, order: &WorkOrder, full: bool) {
    let _ = writeln!(
        h,
        "Waiting for the agent: work order {} ({}, attempt {}).",
        order.id,
        order.step.name(),
        order.attempt
    );
    let _ = writeln!(
        h,
        "  prompt template: {} (embedded); result schema: the work order's `result_schema`",
        order.template.name
    );
    if !order.previous_errors.is_empty() {
        let _ = writeln!(h, "  the last submission was rejected:");
        for e in &order.previous_errors {
            let _ = writeln!(h, "    - {e}");
        }
    }
    if full {
        let _ = writeln!(h, "\n--- prompt template {} ---", order.template.name);
        h.push_str(&order.template.text);
        if !order.template.text.ends_with('\n') {
            h.push('\n');
        }
        let mut rest = serde_json::to_value(order).expect("work orders serialize");
        if let Some(map) = rest.as_object_mut() {
            map.remove("template");
        }
        let _ = writeln!(h, "--- work order (input, evidence, result_schema, submit) ---");
        let _ = writeln!(h, "{}", serde_json::to_string_pretty(&rest).expect("JSON values serialize"));
    } else {
        let _ = writeln!(h, "  (the template, input, evidence and schema: --show-work-order, or --json)");
    }
}

fn render_card(h: &mut String, card: &RecommendationView) {
    let _ = writeln!(
        h,
        "Learning opportunity: {} (score {:.2}, confidence {:.2}), about {} minute(s){}.",
        card.recommendation,
        card.score,
        card.confidence,
        card.estimated_minutes,
        if card.degraded { ", degraded plan" } else { "" }
    );
    for r in &card.reasons {
        let _ = writeln!(h, "  - {r}");
    }
    if card.units.is_empty() {
        let _ = writeln!(h, "Nothing to teach in this change.");
    } else {
        let _ = writeln!(h, "Units, in order:");
        for (i, u) in card.units.iter().enumerate() {
            let _ = writeln!(h, "  {}. {} [{}] — {}", i + 1, u.label, wire(&u.role), u.objective);
        }
    }
    for o in &card.omitted {
        let _ = writeln!(h, "  omitted {} ({}): {}", o.concept_id, wire(&o.kind), o.reason);
    }
    for c in &card.cycles {
        let _ = writeln!(h, "  note: {} depend on each other; they are taught together", c.join(", "));
    }
    if !card.help.is_empty() {
        let _ = writeln!(h, "What would help:");
        for line in &card.help {
            let _ = writeln!(h, "  - {line}");
        }
    }
    let _ = writeln!(h, "{}", if card.teachable { "Start or skip?" } else { "Skip it (decline)." });
}

fn render_confidence(h: &mut String, gate: &ConfidenceGate) {
    let levels: Vec<String> = gate.levels.iter().map(wire).collect();
    let _ = writeln!(
        h,
        "How well do you know each unit? ({}; or use a default: {})",
        levels.join(", "),
        wire(&gate.default)
    );
    for u in &gate.units {
        let _ = writeln!(h, "  {:<10} {} — {}", u.id, u.label, u.objective);
    }
}

fn render_lesson(h: &mut String, v: &LessonView) {
    let l = &v.lesson;
    let _ = writeln!(
        h,
        "{} on {} ({}):",
        if wire(&v.kind) == "reinforcement" { "Reinforcement" } else { "Lesson" },
        v.unit.label,
        v.unit.id
    );
    let _ = writeln!(h, "Objective: {}", l.objective);
    let _ = writeln!(h, "\nWhat: {}", l.what);
    let _ = writeln!(h, "\nWhy here: {}", l.why_here);
    let _ = writeln!(h, "\nWhen it fails: {}", l.failure_mode);
    let _ = writeln!(h, "\nMental model: {}", l.mental_model);
    let _ = writeln!(h, "\nConnections:");
    for c in &l.connections {
        let _ = writeln!(h, "  - {c}");
    }
    let _ = writeln!(h, "Misconceptions:");
    for m in &l.misconceptions {
        let _ = writeln!(h, "  - {m}");
    }
    let ex = &l.minimal_example;
    let _ = writeln!(h, "\nExample ({}):", ex.language);
    for line in ex.code.lines() {
        let _ = writeln!(h, "    {line}");
    }
    let _ = writeln!(h, "{}", ex.explanation);
    for a in &l.assumptions {
        let _ = writeln!(h, "Assumption: {a}");
    }
    let refs: Vec<String> = l.evidence.iter().map(cite).collect();
    let _ = writeln!(h, "\nEvidence: {}", refs.join(", "));
    if !l.citations.is_empty() {
        let _ = writeln!(h, "Sources:");
        for c in &l.citations {
            if c.is_uncited() {
                let _ = writeln!(h, "  - uncited (model knowledge): {}", c.title);
            } else {
                let at = c.location.as_deref().or(c.url.as_deref()).unwrap_or("");
                let version = c.version.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
                let id = c.source_id.as_deref().unwrap_or("");
                let _ = writeln!(h, "  - [{}] {}{version} — {id} ({at})", wire(&c.kind), c.title);
            }
        }
    }
    let _ = writeln!(h, "{}", v.documentation_note);
}

fn render_question(h: &mut String, q: &QuestionView) {
    let _ = writeln!(h, "Question {} ({}) on {}:", q.question_id, wire(&q.intent), q.unit.label);
    let _ = writeln!(h, "{}", q.prompt);
    for c in &q.choices {
        let _ = writeln!(h, "  {}) {}", c.id, c.text);
    }
}

/// A replay report: one line per session, and every divergence.
pub fn render_replay(report: &ReplayReport) -> String {
    let mut h = format!("replayed with {}\n", report.policy_version);
    for s in &report.sessions {
        let verdict = if s.divergences.is_empty() && s.error.is_none() {
            "identical decisions".to_string()
        } else {
            format!("{} divergence(s)", s.divergences.len())
        };
        let _ = writeln!(
            h,
            "{}: {} events, {} re-derived, {} taken as recorded, {}: {verdict}",
            s.session_id,
            s.events,
            s.rederived,
            s.taken_as_recorded,
            wire(&s.final_state)
        );
        for d in &s.divergences {
            let _ = writeln!(h, "  event {} ({}): {} differs", d.sequence, d.event, d.field);
        }
        if let Some(e) = &s.error {
            let _ = writeln!(h, "  stopped: {e}");
        }
    }
    for issue in &report.log_issues {
        let _ = writeln!(h, "log line {} of {} skipped: {}", issue.line, issue.path.display(), issue.message);
    }
    h
}

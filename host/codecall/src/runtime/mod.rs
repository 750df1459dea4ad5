//! The public operations (ARCHITECTURE §4): [`Runtime::start`], [`Runtime::submit`] (a worker
//! result from the agent), [`Runtime::answer`] (the user at a gate), [`Runtime::cancel`],
//! [`Runtime::resume`] and [`Runtime::show`], over a caller-owned event log.
//!
//! Every operation runs the same way: lock the log and read what other processes appended; for
//! `submit` and `answer`, first finish a runtime step a crash may have interrupted; if the
//! operation id was seen before, return what it recorded then (a retry never duplicates a lesson
//! or an answer); otherwise decide the one event the input causes (`decide.rs`), check it with
//! the reducer, append it, apply it, and let the runtime take its own steps (collect evidence,
//! score, plan, pick the next move, summarise) until the session waits for the agent or the user.
//! Each event is appended before it is applied, so what is in memory is never ahead of the log.
//! The operations' input types are in `requests.rs` (re-exported here).
//!
//! Not for: transport (CLI, MCP, hooks are the host's thin adapters over these calls), policy
//! logic (the [`LearningPolicy`] implementation), or judging content (the agent, through work
//! orders).

use std::collections::BTreeMap;

use crate::decide::{self, Ctx};
use crate::error::{ErrorCode, Result, RuntimeError};
use crate::event::{Actor, Event, EventBody, LocatorRecord, RecoveryCause};
use crate::log::{Locked, LogFile, LogIssue, LogTarget, session_log_path};
use crate::policy::LearningPolicy;
use crate::source::{EvidenceSource, GitEvidence};
use crate::state::{Awaiting, Session};
use crate::step::{self, Recovered, Step};
use crate::validate;

mod requests;

pub use requests::{AnswerRequest, CancelRequest, ResumeRequest, StartRequest, SubmitRequest};

/// The runtime never takes more than this many steps of its own in one call.
const MAX_HOPS: usize = 64;
/// Longest session budget accepted, minutes.
pub const MAX_SESSION_MINUTES: u32 = 480;

/// Timestamps for events.
pub trait Clock {
    /// RFC 3339, UTC.
    fn now(&self) -> String;
}

/// The system clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> String {
        time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)
            .expect("the current time formats as RFC 3339")
    }
}

/// A new session id: `lrn_` + a lowercase ULID.
pub fn new_session_id() -> String {
    format!("lrn_{}", ulid::Ulid::generate().to_string().to_lowercase())
}

/// `lrn_` + 26 lowercase base-32 characters (safe as a file name).
pub fn valid_session_id(id: &str) -> bool {
    id.strip_prefix("lrn_")
        .is_some_and(|rest| rest.len() == 26 && rest.bytes().all(|b| b.is_ascii_digit() || b.is_ascii_lowercase()))
}

struct Slot {
    session: Session,
    events: Vec<Event>,
    corrupt: Option<String>,
}

enum Sink<'a> {
    Memory,
    Missing,
    File(Locked<'a>),
}

impl Sink<'_> {
    fn append(&mut self, event: &Event) -> Result<()> {
        match self {
            Sink::Memory => Ok(()),
            Sink::Missing => Err(RuntimeError::new(
                ErrorCode::LogError,
                "the session's log file is missing; it cannot be appended to",
            )),
            Sink::File(l) => l.append(event),
        }
    }
}

/// The codecall runtime over one event log.
pub struct Runtime<'p> {
    policy: &'p dyn LearningPolicy,
    redactor: &'p dyn dossier_evidence::Redact,
    source: Box<dyn EvidenceSource + 'p>,
    docs: Box<dyn crate::docs::DocumentationSource + 'p>,
    clock: Box<dyn Clock + 'p>,
    ids: Box<dyn FnMut() -> String + 'p>,
    target: LogTarget,
    file: Option<LogFile>,
    files: BTreeMap<String, LogFile>,
    sessions: BTreeMap<String, Slot>,
    starts: BTreeMap<String, String>,
    issues: Vec<LogIssue>,
}

impl<'p> Runtime<'p> {
    /// A runtime over `log`, deciding with `policy`, collecting evidence with git, and
    /// redacting with `redactor` every text it records or hands a model (the task, results,
    /// notes, and the evidence itself). A `File` log that exists is read now (torn lines are
    /// reported by [`Runtime::log_issues`]); a `Directory` log loads each session's file when
    /// the session is first named.
    pub fn open(
        log: LogTarget,
        policy: &'p dyn LearningPolicy,
        redactor: &'p dyn dossier_evidence::Redact,
    ) -> Result<Runtime<'p>> {
        let mut rt = Runtime {
            policy,
            redactor,
            source: Box::new(GitEvidence { redactor }),
            docs: Box::new(crate::docs::LocalDocs),
            clock: Box::new(SystemClock),
            ids: Box::new(new_session_id),
            file: None,
            files: BTreeMap::new(),
            sessions: BTreeMap::new(),
            starts: BTreeMap::new(),
            issues: Vec::new(),
            target: log.clone(),
        };
        if let LogTarget::File(path) = &log {
            let mut file = LogFile::new(path.clone());
            if path.exists() {
                let (events, issues) = file.lock(false)?.read_new()?;
                rt.issues.extend(issues);
                rt.ingest(events);
            }
            rt.file = Some(file);
        }
        Ok(rt)
    }

    /// Collect evidence through `source` instead of git (tests, tools).
    pub fn with_evidence_source(mut self, source: impl EvidenceSource + 'p) -> Self {
        self.source = Box::new(source);
        self
    }

    /// Resolve lesson documentation through `docs` instead of the offline providers (the host
    /// passes one with a network provider when the config and the user allowed it; tests).
    pub fn with_documentation_source(mut self, docs: impl crate::docs::DocumentationSource + 'p) -> Self {
        self.docs = Box::new(docs);
        self
    }

    /// Stamp events with `clock`.
    pub fn with_clock(mut self, clock: impl Clock + 'p) -> Self {
        self.clock = Box::new(clock);
        self
    }

    /// Generate session ids with `ids` (each must be a valid `lrn_` id).
    pub fn with_session_ids(mut self, ids: impl FnMut() -> String + 'p) -> Self {
        self.ids = Box::new(ids);
        self
    }

    /// Lines of the log skipped so far (torn or unreadable), across sessions.
    pub fn log_issues(&self) -> &[LogIssue] {
        &self.issues
    }

    /// A loaded session's events.
    pub fn events(&self, session_id: &str) -> Option<&[Event]> {
        self.sessions.get(session_id).map(|s| s.events.as_slice())
    }

    /// A loaded session.
    pub fn session(&self, session_id: &str) -> Option<&Session> {
        self.sessions.get(session_id).map(|s| &s.session)
    }

    /// Ids of the loaded sessions.
    pub fn session_ids(&self) -> Vec<String> {
        self.sessions.keys().cloned().collect()
    }

    fn ingest(&mut self, events: Vec<Event>) {
        for e in events {
            let slot = self.sessions.entry(e.session_id.clone()).or_insert_with(|| Slot {
                session: Session::idle(e.session_id.clone()),
                events: Vec::new(),
                corrupt: None,
            });
            if slot.corrupt.is_some() {
                continue;
            }
            match slot.session.apply(&e) {
                Ok(()) => {
                    if matches!(e.body, EventBody::SessionStarted(_)) {
                        self.starts.insert(e.operation_id.clone(), e.session_id.clone());
                    }
                    slot.events.push(e);
                }
                Err(err) => slot.corrupt = Some(format!("event {} ({}): {err}", e.sequence, e.kind())),
            }
        }
    }

    // ------------------------------------------------------------------ log plumbing

    fn check_session_id(&self, id: &str) -> Result<()> {
        if matches!(self.target, LogTarget::Directory(_)) && !valid_session_id(id) {
            return Err(RuntimeError::invalid_request(format!(
                "`{id}` is not a session id (expected `lrn_` and 26 lowercase letters or digits)"
            )));
        }
        if id.trim().is_empty() {
            return Err(RuntimeError::invalid_request("the session id is empty"));
        }
        Ok(())
    }

    /// Run `f` with the session's log locked and refreshed.
    fn with_log<R>(
        &mut self,
        sid: &str,
        create: bool,
        f: impl FnOnce(&mut Self, &mut Sink<'_>) -> Result<R>,
    ) -> Result<R> {
        let mut file = match &self.target {
            LogTarget::Memory => None,
            LogTarget::File(p) => Some(self.file.take().unwrap_or_else(|| LogFile::new(p.clone()))),
            LogTarget::Directory(d) => {
                Some(self.files.remove(sid).unwrap_or_else(|| LogFile::new(session_log_path(d, sid))))
            }
        };
        let result = self.run_locked(&mut file, create, f);
        match (&self.target, file) {
            (LogTarget::File(_), Some(f)) => self.file = Some(f),
            (LogTarget::Directory(_), Some(f)) => {
                self.files.insert(sid.to_string(), f);
            }
            _ => {}
        }
        result
    }

    fn run_locked<R>(
        &mut self,
        file: &mut Option<LogFile>,
        create: bool,
        f: impl FnOnce(&mut Self, &mut Sink<'_>) -> Result<R>,
    ) -> Result<R> {
        let mut sink = match file {
            None => Sink::Memory,
            Some(lf) if !create && !lf.path.exists() => Sink::Missing,
            Some(lf) => Sink::File(lf.lock(create)?),
        };
        if let Sink::File(l) = &mut sink {
            let (events, issues) = l.read_new()?;
            self.issues.extend(issues);
            self.ingest(events);
        }
        let result = f(self, &mut sink);
        if let Sink::File(l) = &mut sink {
            l.sync()?;
        }
        result
    }

    fn require(&self, sid: &str) -> Result<&Session> {
        let Some(slot) = self.sessions.get(sid) else {
            return Err(RuntimeError::new(
                ErrorCode::UnknownSession,
                format!("no session `{sid}` in the event log ({}); start a session first", target_name(&self.target)),
            ));
        };
        if let Some(why) = &slot.corrupt {
            return Err(RuntimeError::new(
                ErrorCode::CorruptLog,
                format!(
                    "the log of session `{sid}` has an event the reducer refuses: {why}; the session cannot continue"
                ),
            ));
        }
        Ok(&slot.session)
    }

    /// Stamp, check, append, apply.
    fn emit(
        &mut self,
        sink: &mut Sink<'_>,
        sid: &str,
        operation_id: &str,
        caller: Actor,
        input_hash: Option<&str>,
        body: EventBody,
    ) -> Result<Event> {
        let timestamp = self.clock.now();
        let slot = self.sessions.get_mut(sid).expect("emit on a loaded session");
        let s = &slot.session;
        let event = Event {
            session_id: sid.to_string(),
            sequence: s.last_sequence + 1,
            timestamp,
            operation_id: operation_id.to_string(),
            actor: decide::actor(&body, caller),
            contract_version: crate::contract::CONTRACT_VERSION,
            correlation_id: decide::correlation(s, &body),
            input_hash: if s.operations.contains_key(operation_id) { None } else { input_hash.map(str::to_string) },
            body,
        };
        s.check(&event).map_err(|e| {
            RuntimeError::new(ErrorCode::IllegalTransition, format!("{e}; call resume to see the current step"))
                .in_session(sid, s.state, s.pending.checkpoint())
        })?;
        sink.append(&event)?;
        slot.session.apply(&event).expect("checked above");
        slot.events.push(event.clone());
        if matches!(event.body, EventBody::SessionStarted(_)) {
            self.starts.insert(operation_id.to_string(), sid.to_string());
        }
        Ok(event)
    }

    /// Let the runtime take its own steps until someone else must act.
    fn advance(&mut self, sink: &mut Sink<'_>, sid: &str, operation_id: &str) -> Result<Vec<Event>> {
        let mut out = Vec::new();
        for _ in 0..MAX_HOPS {
            let s = &self.sessions[sid].session;
            if s.pending.awaiting() != Awaiting::Runtime {
                return Ok(out);
            }
            let ctx = Ctx { policy: self.policy, source: &*self.source, redactor: self.redactor, docs: &*self.docs };
            let body = decide::hop(&ctx, s)?;
            out.push(self.emit(sink, sid, operation_id, Actor::Runtime, None, body)?);
        }
        Err(RuntimeError::new(
            ErrorCode::PolicyError,
            format!("the runtime took {MAX_HOPS} steps without waiting for anyone; the policy is looping"),
        ))
    }

    /// Finish a step a crash interrupted, under the interrupted operation's id.
    fn settle(&mut self, sink: &mut Sink<'_>, sid: &str) -> Result<(Option<String>, Vec<Event>)> {
        let slot = &self.sessions[sid];
        if slot.session.pending.awaiting() != Awaiting::Runtime {
            return Ok((None, Vec::new()));
        }
        let op = slot.events.last().map(|e| e.operation_id.clone()).unwrap_or_default();
        let events = self.advance(sink, sid, &op)?;
        Ok((Some(op), events))
    }

    fn step(&self, sid: &str, events: Vec<Event>, replayed: bool) -> Step {
        let s = &self.sessions[sid].session;
        Step {
            session_id: sid.to_string(),
            state: s.state,
            last_sequence: s.last_sequence,
            feedback: step::feedback(s, &events),
            next: step::next(s),
            events,
            replayed,
            recovered: None,
        }
    }

    /// The recorded outcome of `operation_id`, if it ran before.
    fn replayed(&self, sid: &str, operation_id: &str, input_hash: &str) -> Result<Option<Step>> {
        let slot = &self.sessions[sid];
        let Some(op) = slot.session.operations.get(operation_id) else { return Ok(None) };
        if op.input_hash.as_deref() != Some(input_hash) {
            return Err(RuntimeError::new(
                ErrorCode::OperationConflict,
                format!(
                    "operation id `{operation_id}` was already used for a different request in this session; use a \
                     new operation id for a new request"
                ),
            )
            .in_session(sid, slot.session.state, slot.session.pending.checkpoint()));
        }
        let events: Vec<Event> = slot
            .events
            .iter()
            .filter(|e| (op.first_sequence..=op.last_sequence).contains(&e.sequence))
            .cloned()
            .collect();
        if let Some(err) = events.first().and_then(|e| self.rejection(sid, e)) {
            return Err(err);
        }
        Ok(Some(self.step(sid, events, true)))
    }

    /// The error a rejected worker result returns (the first time and on a retry).
    fn rejection(&self, sid: &str, event: &Event) -> Option<RuntimeError> {
        let EventBody::OperationFailed(f) = &event.body else { return None };
        if f.cause != RecoveryCause::InvalidWorkerResult {
            return None;
        }
        let s = &self.sessions[sid].session;
        let cp = f.checkpoint.clone().unwrap_or_default();
        let still = s.pending.checkpoint() == Some(cp.as_str());
        let listed: Vec<String> = f.errors.iter().take(5).map(ToString::to_string).collect();
        let limit = crate::state::MAX_EXTRACTION_FAILURES;
        let next = match &s.pending {
            _ if still => {
                let mut next =
                    format!("fix every listed error and submit again with checkpoint `{cp}` and a new operation id");
                if matches!(s.pending, crate::state::Pending::Extraction { .. }) && f.attempt + 1 == limit {
                    next.push_str(&format!(
                        "; this was attempt {} of {limit}: one more rejection replaces your concepts with a degraded \
                         plan built only from the change's path and symbol signals",
                        f.attempt
                    ));
                }
                next
            }
            crate::state::Pending::Decision { checkpoint } => format!(
                "concept extraction is over after {limit} rejected results: the session now waits for the user's \
                 decision on a degraded plan built from the change's path and symbol signals; show the user the \
                 card (`show`) and record their Start or Skip at checkpoint `{checkpoint}` — nothing more is \
                 submitted for `{cp}`"
            ),
            _ if s.state.is_terminal() => format!(
                "the session has ended ({}): no more results are taken; `show` gives its outcome, and a new session \
                 can be started",
                s.state
            ),
            _ => format!("the session moved on (it is {}); call resume for the current step", s.state),
        };
        let mut err = RuntimeError::new(
            ErrorCode::InvalidWorkerResult,
            format!(
                "the result for `{cp}` was rejected (attempt {}): {}{}; {next}",
                f.attempt,
                listed.join("; "),
                if f.errors.len() > 5 { format!("; and {} more", f.errors.len() - 5) } else { String::new() }
            ),
        )
        .in_session(sid, s.state, s.pending.checkpoint());
        err.errors = f.errors.clone();
        Some(err)
    }

    // ------------------------------------------------------------------ operations

    /// Start a session: record the request, collect evidence, and return the concept-extraction
    /// work order (or the session's failure).
    pub fn start(&mut self, req: StartRequest) -> Result<Step> {
        require_operation_id(&req.operation_id)?;
        if !(1..=MAX_SESSION_MINUTES).contains(&req.options.max_minutes) {
            return Err(RuntimeError::invalid_request(format!(
                "options.max_minutes is {}; a session budget is 1 to {MAX_SESSION_MINUTES} minutes",
                req.options.max_minutes
            )));
        }
        if let Some(id) = &req.session_id
            && !valid_session_id(id)
        {
            return Err(RuntimeError::invalid_request(format!(
                "`{id}` is not a session id (expected `lrn_` and 26 lowercase letters or digits)"
            )));
        }
        let locator = LocatorRecord {
            repo: req.locator.repo.to_string_lossy().into_owned(),
            changes: req.locator.changes.clone(),
            task: req.locator.task.as_deref().map(|t| validate::redact_str(self.redactor, t)).transpose()?,
            located: req
                .locator
                .located
                .clone()
                .map(|mut l| -> Result<_, _> {
                    l.note = l.note.as_deref().map(|n| validate::redact_str(self.redactor, n)).transpose()?;
                    Ok(l)
                })
                .transpose()?,
        };
        let options = req.options.clone();
        let hash = input_hash(&serde_json::json!({
            "start": {
                "invocation": req.invocation,
                "locator": locator,
                "completed": req.completed,
                "options": options,
                "session_id": req.session_id,
            }
        }));
        if let Some(sid) = self.starts.get(&req.operation_id).cloned() {
            return self.with_log(&sid, false, |rt, sink| {
                rt.require(&sid)?;
                let (_, mut events) = rt.settle(sink, &sid)?;
                let mut step = rt.replayed(&sid, &req.operation_id, &hash)?.expect("a recorded start");
                events.retain(|e| !step.events.iter().any(|x| x.sequence == e.sequence));
                step.events.extend(events);
                Ok(step)
            });
        }
        let sid = req.session_id.clone().unwrap_or_else(|| (self.ids)());
        self.check_session_id(&sid)?;
        let op = req.operation_id.clone();
        self.with_log(&sid, true, |rt, sink| {
            if rt.sessions.contains_key(&sid) {
                rt.require(&sid)?;
                let (_, _) = rt.settle(sink, &sid)?;
                return match rt.replayed(&sid, &op, &hash)? {
                    Some(step) => Ok(step),
                    None => Err(RuntimeError::new(
                        ErrorCode::OperationConflict,
                        format!("session `{sid}` already exists; start with a new session id"),
                    )),
                };
            }
            rt.sessions
                .insert(sid.clone(), Slot { session: Session::idle(sid.clone()), events: Vec::new(), corrupt: None });
            let body = decide::session_started(rt.policy, req.invocation, locator, req.completed, options);
            let first = match rt.emit(sink, &sid, &op, req.actor, Some(&hash), body) {
                Ok(e) => e,
                Err(e) => {
                    rt.sessions.remove(&sid);
                    return Err(e);
                }
            };
            let mut events = vec![first];
            events.extend(rt.advance(sink, &sid, &op)?);
            Ok(rt.step(&sid, events, false))
        })
    }

    /// Hand in the agent's result for the pending work order. A result that fails validation is
    /// recorded as a rejection only and returns `invalid_worker_result` with every error.
    pub fn submit(&mut self, req: SubmitRequest) -> Result<Step> {
        require_operation_id(&req.operation_id)?;
        self.check_session_id(&req.session_id)?;
        let hash = input_hash(&serde_json::json!({"submit": {"checkpoint": req.checkpoint, "outcome": req.outcome}}));
        let sid = req.session_id.clone();
        self.with_log(&sid, false, |rt, sink| {
            rt.require(&sid)?;
            let (_, mut events) = rt.settle(sink, &sid)?;
            if let Some(step) = rt.replayed(&sid, &req.operation_id, &hash)? {
                return Ok(step);
            }
            let s = rt.require(&sid)?;
            let ctx = Ctx { policy: rt.policy, source: &*rt.source, redactor: rt.redactor, docs: &*rt.docs };
            let body = decide::submit(&ctx, s, &req.checkpoint, &req.outcome)?;
            let first = rt.emit(sink, &sid, &req.operation_id, Actor::Agent, Some(&hash), body)?;
            let rejected = first.clone();
            events.push(first);
            events.extend(rt.advance(sink, &sid, &req.operation_id)?);
            // Worded after the runtime's own steps, which a third rejected extraction starts.
            if let Some(mut err) = rt.rejection(&sid, &rejected) {
                // The state may have moved on (three failed extractions start a recovery).
                let s = &rt.sessions[&sid].session;
                err.state = Some(s.state);
                err.checkpoint = s.pending.checkpoint().map(str::to_string);
                return Err(err);
            }
            Ok(rt.step(&sid, events, false))
        })
    }

    /// Record the user's input at the pending gate.
    pub fn answer(&mut self, req: AnswerRequest) -> Result<Step> {
        require_operation_id(&req.operation_id)?;
        self.check_session_id(&req.session_id)?;
        let hash = input_hash(&serde_json::json!({"answer": {"checkpoint": req.checkpoint, "answer": req.answer}}));
        let sid = req.session_id.clone();
        self.with_log(&sid, false, |rt, sink| {
            rt.require(&sid)?;
            let (_, mut events) = rt.settle(sink, &sid)?;
            if let Some(step) = rt.replayed(&sid, &req.operation_id, &hash)? {
                return Ok(step);
            }
            let s = rt.require(&sid)?;
            let body = decide::answer(s, &req.checkpoint, &req.answer)?;
            events.push(rt.emit(sink, &sid, &req.operation_id, Actor::User, Some(&hash), body)?);
            events.extend(rt.advance(sink, &sid, &req.operation_id)?);
            Ok(rt.step(&sid, events, false))
        })
    }

    /// Cancel the session, whatever it is doing (an interrupted step is not finished first).
    pub fn cancel(&mut self, req: CancelRequest) -> Result<Step> {
        require_operation_id(&req.operation_id)?;
        self.check_session_id(&req.session_id)?;
        let hash = input_hash(&serde_json::json!({"cancel": {"reason": req.reason, "note": req.note}}));
        let sid = req.session_id.clone();
        self.with_log(&sid, false, |rt, sink| {
            rt.require(&sid)?;
            if let Some(step) = rt.replayed(&sid, &req.operation_id, &hash)? {
                return Ok(step);
            }
            let s = rt.require(&sid)?;
            let body = decide::cancel(rt.redactor, s, req.reason, req.note.as_deref())?;
            let e = rt.emit(sink, &sid, &req.operation_id, req.actor, Some(&hash), body)?;
            Ok(rt.step(&sid, vec![e], false))
        })
    }

    /// Reconnect after a crash or disconnect: re-read the log, finish an interrupted runtime step
    /// (recorded under the interrupted operation's id, so the log reads as if nothing happened),
    /// and return the current step.
    pub fn resume(&mut self, req: ResumeRequest) -> Result<Step> {
        self.check_session_id(&req.session_id)?;
        let sid = req.session_id.clone();
        self.with_log(&sid, false, |rt, sink| {
            rt.require(&sid)?;
            let (op, completed) = rt.settle(sink, &sid)?;
            let n = completed.len();
            let events = match req.after_sequence {
                Some(after) => rt.sessions[&sid].events.iter().filter(|e| e.sequence > after).cloned().collect(),
                None => completed,
            };
            let mut step = rt.step(&sid, events, false);
            step.recovered = Some(Recovered {
                cause: op.as_ref().map(|_| RecoveryCause::ProviderDisconnect),
                completed_operation: op,
                events_completed: n,
                log_issues: rt.issues.clone(),
            });
            Ok(step)
        })
    }

    /// The session's current step, recording nothing.
    pub fn show(&mut self, session_id: &str) -> Result<Step> {
        self.check_session_id(session_id)?;
        self.with_log(session_id, false, |rt, _| {
            rt.require(session_id)?;
            Ok(rt.step(session_id, Vec::new(), false))
        })
    }
}

fn require_operation_id(id: &str) -> Result<()> {
    if id.trim().is_empty() {
        return Err(RuntimeError::invalid_request(
            "operation_id is empty: every call needs an idempotency key (a new one per distinct request)",
        ));
    }
    Ok(())
}

fn input_hash(v: &serde_json::Value) -> String {
    blake3::hash(decide::canonical_json(v).as_bytes()).to_hex().to_string()
}

fn target_name(t: &LogTarget) -> String {
    match t {
        LogTarget::Memory => "memory".into(),
        LogTarget::File(p) => p.display().to_string(),
        LogTarget::Directory(d) => d.display().to_string(),
    }
}

//! Test harness: fixture git repositories built in temp dirs, a caching evidence source (so a
//! re-collection after a crash yields the identical pack), a scripted agent that answers work
//! orders with valid results, and a driver that plays a whole session as agent and user.
#![allow(dead_code)]

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;
use std::rc::Rc;

use dossier_codecall::step::QuestionView;
use dossier_codecall::*;
use dossier_evidence::{Changes, EvidencePack, EvidenceRequest, ImplementationLocator};
use serde_json::{Value, json};
use tempfile::TempDir;

// ------------------------------------------------------------------ fixture repositories

pub struct Fixture {
    pub dir: TempDir,
    pub base: String,
    pub head: String,
    pub task: String,
}

pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn write(dir: &Path, path: &str, text: &str) {
    let p = dir.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A repository with `before` committed as the base and `after` (written over it) as the head.
pub fn fixture(task: &str, before: &[(&str, &str)], after: &[(&str, &str)]) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    for (p, t) in before {
        write(dir.path(), p, t);
    }
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    let base = git(dir.path(), &["rev-parse", "HEAD"]);
    for (p, t) in after {
        write(dir.path(), p, t);
    }
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "change"]);
    let head = git(dir.path(), &["rev-parse", "HEAD"]);
    Fixture { dir, base, head, task: task.to_string() }
}

const LIB: &str = "pub mod app;\n";
const APP: &str = "pub fn run() -> u32 {\n    42\n}\n";

/// OAuth middleware: a new middleware that checks bearer tokens and refreshes expired ones.
pub fn oauth() -> Fixture {
    fixture(
        "Add OAuth2 bearer-token middleware that refreshes expired access tokens",
        &[("src/lib.rs", LIB), ("src/app.rs", APP)],
        &[
            ("src/lib.rs", "pub mod app;\npub mod middleware;\n"),
            (
                "src/middleware/oauth.rs",
                "use std::time::{Duration, Instant};\n\npub struct AccessToken {\n    pub value: String,\n    pub expires_at: Instant,\n}\n\npub struct OAuthMiddleware {\n    token: AccessToken,\n    skew: Duration,\n}\n\nimpl OAuthMiddleware {\n    pub fn authorize(&mut self, now: Instant) -> Result<String, String> {\n        if now + self.skew >= self.token.expires_at {\n            self.token = refresh_token(&self.token)?;\n        }\n        Ok(format!(\"Bearer {}\", self.token.value))\n    }\n}\n\nfn refresh_token(old: &AccessToken) -> Result<AccessToken, String> {\n    Ok(AccessToken { value: format!(\"{}-refreshed\", old.value), expires_at: old.expires_at + Duration::from_secs(3600) })\n}\n",
            ),
        ],
    )
}

/// Cache invalidation: entries are invalidated on write instead of expiring by TTL only.
pub fn cache() -> Fixture {
    let before = "use std::collections::HashMap;\n\npub struct Cache {\n    entries: HashMap<String, String>,\n}\n\nimpl Cache {\n    pub fn get(&self, key: &str) -> Option<&String> {\n        self.entries.get(key)\n    }\n}\n";
    let after = "use std::collections::HashMap;\n\npub struct Cache {\n    entries: HashMap<String, String>,\n}\n\nimpl Cache {\n    pub fn get(&self, key: &str) -> Option<&String> {\n        self.entries.get(key)\n    }\n\n    pub fn invalidate(&mut self, key: &str) {\n        self.entries.remove(key);\n    }\n\n    pub fn write_through(&mut self, key: &str, value: String, store: &mut HashMap<String, String>) {\n        store.insert(key.to_string(), value);\n        self.invalidate(key);\n    }\n}\n";
    fixture(
        "Invalidate cache entries when the underlying record is written",
        &[("src/lib.rs", "pub mod cache;\n"), ("src/cache.rs", before)],
        &[("src/cache.rs", after)],
    )
}

/// Async retries with exponential backoff around an HTTP call.
pub fn retry() -> Fixture {
    let before = "pub async fn fetch(url: &str) -> Result<String, String> {\n    send(url).await\n}\n\nasync fn send(url: &str) -> Result<String, String> {\n    Err(format!(\"unreachable {url}\"))\n}\n";
    let after = "use std::time::Duration;\n\npub async fn fetch(url: &str) -> Result<String, String> {\n    retry_with_backoff(url, 5, Duration::from_millis(100)).await\n}\n\npub async fn retry_with_backoff(url: &str, attempts: u32, base: Duration) -> Result<String, String> {\n    let mut delay = base;\n    let mut last = String::new();\n    for _ in 0..attempts {\n        match send(url).await {\n            Ok(body) => return Ok(body),\n            Err(e) => last = e,\n        }\n        sleep(delay).await;\n        delay *= 2;\n    }\n    Err(last)\n}\n\nasync fn sleep(_d: Duration) {}\n\nasync fn send(url: &str) -> Result<String, String> {\n    Err(format!(\"unreachable {url}\"))\n}\n";
    fixture(
        "Retry failed HTTP calls with exponential backoff",
        &[("src/lib.rs", "pub mod client;\n"), ("src/client.rs", before)],
        &[("src/client.rs", after)],
    )
}

/// A schema migration adding a column and an index.
pub fn migration() -> Fixture {
    fixture(
        "Add an email column with a unique index to users",
        &[("migrations/001_create_users.sql", "CREATE TABLE users (\n    id BIGINT PRIMARY KEY\n);\n")],
        &[(
            "migrations/002_add_email.sql",
            "ALTER TABLE users ADD COLUMN email TEXT;\nUPDATE users SET email = id || '@example.invalid';\nALTER TABLE users ALTER COLUMN email SET NOT NULL;\nCREATE UNIQUE INDEX users_email ON users (email);\n",
        )],
    )
}

/// A formatting-only change to a neutral file.
pub fn formatting() -> Fixture {
    fixture(
        "Run the formatter over the report module",
        &[(
            "src/report.rs",
            "pub fn render_report(rows: &[u32]) -> String {\n  rows.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(\",\")\n}\n",
        )],
        &[(
            "src/report.rs",
            "pub fn render_report(rows: &[u32]) -> String {\n    rows.iter()\n        .map(|r| r.to_string())\n        .collect::<Vec<_>>()\n        .join(\",\")\n}\n",
        )],
    )
}

pub const AWS_KEY: &str = "AKIAZ3MPLEKEY0000017";
pub const GITHUB_TOKEN: &str = "ghp_Zq81bXk2Lm9Np0Qr4St7Uv3Wx6Yz5Ab1Cd2E";
pub const PRIVATE_KEY_BODY: &str = "MIIEowIBAAKCAQEAzq7uniqueplantedkeybody0123456789";

/// A retry change whose files carry planted secrets, plus a sensitive `.env`.
pub fn secrets() -> Fixture {
    let after = format!(
        "use std::time::Duration;\n\nconst AWS_ACCESS_KEY_ID: &str = \"{AWS_KEY}\";\nconst GITHUB: &str = \"{GITHUB_TOKEN}\";\nconst KEY: &str = \"-----BEGIN RSA PRIVATE KEY-----\n{PRIVATE_KEY_BODY}\n-----END RSA PRIVATE KEY-----\";\n\npub async fn retry_with_backoff(attempts: u32, base: Duration) -> Result<(), String> {{\n    let mut delay = base;\n    for _ in 0..attempts {{\n        delay *= 2;\n    }}\n    let _ = (AWS_ACCESS_KEY_ID, GITHUB, KEY, delay);\n    Err(\"gave up\".into())\n}}\n"
    );
    fixture(
        &format!("Retry with backoff; deploy token {GITHUB_TOKEN}"),
        &[("src/lib.rs", "pub mod client;\n"), ("src/client.rs", "pub fn noop() {}\n")],
        &[("src/client.rs", &after), (".env", &format!("AWS_ACCESS_KEY_ID={AWS_KEY}\nGITHUB_TOKEN={GITHUB_TOKEN}\n"))],
    )
}

pub fn start_request(f: &Fixture, operation_id: &str, session_id: &str) -> StartRequest {
    StartRequest {
        operation_id: operation_id.into(),
        session_id: Some(session_id.into()),
        invocation: Invocation::Manual,
        locator: ImplementationLocator {
            repo: f.dir.path().to_path_buf(),
            changes: Changes::Revisions { base: f.base.clone(), head: f.head.clone() },
            task: Some(f.task.clone()),
            located: None,
        },
        completed: true,
        options: StartOptions::default(),
        actor: Actor::User,
    }
}

/// A valid session id from a number.
pub fn sid(n: u32) -> String {
    format!("lrn_{n:026}")
}

// ------------------------------------------------------------------ runtime plumbing

/// Collects through git once per request and returns the same pack afterwards.
#[derive(Clone, Default)]
pub struct Cached {
    cache: Rc<RefCell<HashMap<String, Result<EvidencePack, CollectFailure>>>>,
    pub calls: Rc<Cell<u32>>,
}

impl EvidenceSource for Cached {
    fn collect(&self, request: &EvidenceRequest) -> Result<EvidencePack, CollectFailure> {
        self.calls.set(self.calls.get() + 1);
        let key = serde_json::to_string(request).unwrap();
        if let Some(hit) = self.cache.borrow().get(&key) {
            return hit.clone();
        }
        let result = GitEvidence { redactor: &dossier_codecall::NativeRedactor }.collect(request);
        self.cache.borrow_mut().insert(key, result.clone());
        result
    }
}

/// Fails the first `fail` collections (retryable), then delegates.
pub struct Flaky<S> {
    pub inner: S,
    pub fail: Cell<u32>,
    pub retryable: bool,
}

impl<S: EvidenceSource> EvidenceSource for Flaky<S> {
    fn collect(&self, request: &EvidenceRequest) -> Result<EvidencePack, CollectFailure> {
        if self.fail.get() > 0 {
            self.fail.set(self.fail.get() - 1);
            return Err(CollectFailure {
                code: if self.retryable { "git_failed" } else { "not_a_repository" }.into(),
                message: "simulated failure".into(),
                retryable: self.retryable,
            });
        }
        self.inner.collect(request)
    }
}

pub struct FixedClock;

impl Clock for FixedClock {
    fn now(&self) -> String {
        "2026-01-01T00:00:00Z".into()
    }
}

pub fn memory_runtime<'p>(policy: &'p dyn LearningPolicy, source: Cached) -> Runtime<'p> {
    Runtime::open(LogTarget::Memory, policy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(source)
        .with_clock(FixedClock)
}

// ------------------------------------------------------------------ the scripted agent

/// The agent's behaviour.
#[derive(Clone, Default)]
pub struct Agent {
    /// Put this text into every lesson (an agent echoing a secret from its context).
    pub echo: Option<String>,
}

/// Words of the first excerpt: what a lesson citing it talks about (its claims share content
/// with the cited lines, issue 21 defect 8).
fn cited_words(order: &Value) -> String {
    let text = order["evidence"]["excerpts"][0]["text"].as_str().unwrap_or_default();
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.len() > 3)
        .take(12)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first excerpt's ref, as the work order gives it.
pub fn first_ref(order: &Value) -> Value {
    order["evidence"]["excerpts"][0]["evidence"].clone()
}

/// A valid result for the work order.
pub fn agent_result(order: &WorkOrder, agent: &Agent) -> Value {
    let o = serde_json::to_value(order).unwrap();
    let input = &o["input"];
    match o["step"].as_str().unwrap() {
        "concepts" => {
            let derived = input["derived_signals"].as_array().unwrap();
            if derived.is_empty() {
                return json!({"concepts": [], "signals": [], "excluded": ["formatting"]});
            }
            let concepts: Vec<Value> = derived
                .iter()
                .take(2)
                .enumerate()
                .map(|(i, d)| {
                    let mut evidence = d["evidence"].clone();
                    if evidence.as_array().is_none_or(|a| a.is_empty()) {
                        evidence = json!([first_ref(&o)]);
                    }
                    json!({
                        "id": format!("c{i}"),
                        "canonical_id": d["concept"],
                        "label": d["concept"],
                        "category": if i == 0 { "concept" } else { "architecture_decision" },
                        "description": format!("How this change handles {}", d["concept"].as_str().unwrap()),
                        "objective": format!("Explain why the change needs {}", d["concept"].as_str().unwrap()),
                        "prerequisites": if i == 0 { json!([]) } else { json!(["c0"]) },
                        "difficulty": 2,
                        "novelty": 0.6,
                        "implementation_relevance": 0.8,
                        "evidence": evidence,
                        "misconceptions": [format!("{} only matters under load", d["concept"].as_str().unwrap())],
                    })
                })
                .collect();
            json!({"concepts": concepts, "signals": [], "excluded": [], "disputed": []})
        }
        "lesson" => {
            let echo = agent.echo.clone().unwrap_or_default();
            json!({
                "unit_id": input["unit"]["id"],
                "objective": input["unit"]["objective"],
                "what": format!("What {} is. {echo}", input["unit"]["label"].as_str().unwrap()),
                "why_here": format!("The change calls it on every request path shown in the excerpt ({}).", cited_words(&o)),
                "failure_mode": "Without it the first transient error becomes a user-visible failure.",
                "connections": ["It feeds the next unit's decision about when to give up."],
                "misconceptions": ["That it only matters under heavy load."],
                "mental_model": "A gate that lets work through only when its precondition holds.",
                "minimal_example": {"language": "rust", "code": "fn gate(ok: bool) -> bool { ok }", "explanation": "The smallest gate."},
                "evidence": [first_ref(&o)],
                "citations": [{"title": "General engineering knowledge", "kind": "model_knowledge"}],
                "assumptions": []
            })
        }
        "question" => {
            let mut sub = first_ref(&o);
            let start = sub["start_line"].as_u64().unwrap();
            sub["end_line"] = json!(start);
            sub.as_object_mut().unwrap().remove("content_hash");
            json!({
                "id": input["question_id"],
                "unit_id": input["unit"]["id"],
                "prompt": format!(
                    "In this change, what does {} do after a failure (check {})?",
                    input["unit"]["label"].as_str().unwrap(),
                    input["question_id"].as_str().unwrap()
                ),
                "choices": [
                    {"id": "a", "text": "It retries immediately without any delay between attempts", "rationale": "Wrong: the code waits between attempts."},
                    {"id": "b", "text": "It waits longer after each failure so the server can recover", "rationale": "Right: the delay doubles after each failure."},
                    {"id": "c", "text": "It gives up after the first timeout and reports the error", "rationale": "Wrong: it tries several times."},
                    {"id": "d", "text": "It sends every attempt in parallel to reduce total latency", "rationale": "Wrong: attempts are sequential."}
                ],
                "correct_choice_id": "b",
                "evidence": [sub],
                "intent": input["intent"]
            })
        }
        "evaluation" => {
            let correct = input["correct"].as_bool().unwrap();
            json!({
                "question_id": input["question"]["id"],
                "diagnosed_misconceptions": if correct { json!([]) } else { json!(["believes retries need no delay"]) },
                "rationale": if correct { "The delay doubles after each failure." } else { "The chosen answer ignores the delay." },
                "feedback": if correct { "Right." } else { "Look at how the delay changes between attempts." }
            })
        }
        other => panic!("unknown step {other}"),
    }
}

// ------------------------------------------------------------------ the driver

/// How the scripted user behaves.
#[derive(Clone)]
pub struct User {
    pub accept: bool,
    /// Answer wrongly the first time each unit is asked.
    pub first_wrong: bool,
    pub confidence: BTreeMap<String, ConfidenceLevel>,
}

impl Default for User {
    fn default() -> Self {
        User { accept: true, first_wrong: false, confidence: BTreeMap::new() }
    }
}

use dossier_codecall::contract::ConfidenceLevel;

/// Operation ids derived from the checkpoint, so a retried step after a crash reuses them.
pub struct Driver {
    pub agent: Agent,
    pub user: User,
    pub steps: Vec<Step>,
}

impl Driver {
    pub fn new(agent: Agent, user: User) -> Driver {
        Driver { agent, user, steps: Vec::new() }
    }

    /// One action for `step` (None when the session ended).
    pub fn act(&mut self, rt: &mut Runtime<'_>, step: &Step) -> Option<Step> {
        let sid = step.session_id.clone();
        let next = match &step.next {
            Next::WorkOrder(order) => rt
                .submit(SubmitRequest {
                    session_id: sid,
                    operation_id: format!("submit-{}", order.id),
                    checkpoint: order.id.clone(),
                    outcome: SubmitOutcome::Result { result: agent_result(order, &self.agent) },
                })
                .expect("the scripted agent's results are valid"),
            Next::Decision(d) => rt
                .answer(AnswerRequest {
                    session_id: sid,
                    operation_id: format!("answer-{}", d.checkpoint),
                    checkpoint: d.checkpoint.clone(),
                    answer: Answer::Decision { accept: self.user.accept },
                })
                .unwrap(),
            Next::Confidence(c) => rt
                .answer(AnswerRequest {
                    session_id: sid,
                    operation_id: format!("answer-{}", c.checkpoint),
                    checkpoint: c.checkpoint.clone(),
                    answer: Answer::Confidence { levels: self.user.confidence.clone() },
                })
                .unwrap(),
            Next::Lesson(l) => rt
                .answer(AnswerRequest {
                    session_id: sid,
                    operation_id: format!("answer-{}", l.checkpoint),
                    checkpoint: l.checkpoint.clone(),
                    answer: Answer::Acknowledge,
                })
                .unwrap(),
            Next::Question(q) => {
                let choice = self.choose(rt, &sid, q);
                rt.answer(AnswerRequest {
                    session_id: sid,
                    operation_id: format!("answer-{}", q.checkpoint),
                    checkpoint: q.checkpoint.clone(),
                    answer: Answer::Choice { choice_id: choice },
                })
                .unwrap()
            }
            Next::Interrupted { .. } => rt.resume(ResumeRequest { session_id: sid, after_sequence: None }).unwrap(),
            Next::Summary(_) | Next::Cancelled { .. } | Next::Failed { .. } => return None,
        };
        Some(next)
    }

    /// Wrong on a unit's first question when `first_wrong` (decided from the session, so a
    /// driver restarted after a crash makes the same choices).
    fn choose(&mut self, rt: &Runtime<'_>, sid: &str, q: &QuestionView) -> String {
        let s = rt.session(sid).unwrap();
        let first = s.questions.iter().filter(|x| x.request.unit_id == q.unit.id).count() == 1;
        let agent_id = if self.user.first_wrong && first { "a" } else { "b" };
        label_for(s, q, agent_id)
    }

    /// Play from `step` to the end; returns the last step.
    pub fn run(&mut self, rt: &mut Runtime<'_>, mut step: Step) -> Step {
        for _ in 0..200 {
            match self.act(rt, &step) {
                Some(next) => {
                    self.steps.push(step);
                    step = next;
                }
                None => return step,
            }
        }
        panic!("the session did not end in 200 steps; last: {:?}", step.next)
    }
}

/// A full session in memory; returns the runtime's events and the last step.
pub fn full_session(f: &Fixture, policy: &dyn LearningPolicy, user: User) -> (Vec<Event>, Step) {
    full_session_as(f, policy, user, 1)
}

/// [`full_session`] with session id `sid(n)`.
pub fn full_session_as(f: &Fixture, policy: &dyn LearningPolicy, user: User, n: u32) -> (Vec<Event>, Step) {
    let mut rt = memory_runtime(policy, Cached::default());
    let step = rt.start(start_request(f, "start", &sid(n))).unwrap();
    let mut d = Driver::new(Agent::default(), user);
    let last = d.run(&mut rt, step);
    (rt.events(&sid(n)).unwrap().to_vec(), last)
}

/// Events without timestamps, as JSON (for comparing logs).
pub fn comparable(events: &[Event]) -> Vec<Value> {
    events
        .iter()
        .map(|e| {
            let mut v = serde_json::to_value(e).unwrap();
            v.as_object_mut().unwrap().remove("timestamp");
            v
        })
        .collect()
}

pub fn kinds(events: &[Event]) -> Vec<EventKind> {
    events.iter().map(|e| e.kind()).collect()
}

// ------------------------------------------------------------------ scenarios

/// Play to the end, submitting one invalid result before each lesson, question and evaluation.
pub fn run_with_rejections(rt: &mut Runtime<'_>, step: Step) -> Step {
    run_with_rejections_as(rt, step, User::default())
}

/// [`run_with_rejections`] with a given user. Whether a work order was rejected already is read
/// from the session, so a driver restarted after a crash behaves the same.
pub fn run_with_rejections_as(rt: &mut Runtime<'_>, mut step: Step, user: User) -> Step {
    let mut d = Driver::new(Agent::default(), user);
    for _ in 0..300 {
        if let Next::WorkOrder(order) = &step.next
            && order.step != dossier_codecall::prompts::WorkStep::Concepts
            && !rt.session(&step.session_id).unwrap().rejections.contains_key(&order.id)
        {
            let err = rt
                .submit(SubmitRequest {
                    session_id: step.session_id.clone(),
                    operation_id: format!("bad-{}", order.id),
                    checkpoint: order.id.clone(),
                    outcome: SubmitOutcome::Result { result: json!({"unexpected": true}) },
                })
                .unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidWorkerResult);
            step = rt.show(&step.session_id).unwrap();
            continue;
        }
        match d.act(rt, &step) {
            Some(next) => step = next,
            None => return step,
        }
    }
    panic!("did not end")
}

/// Logs covering every state and transition: normal, reinforcement, expert, decline, context
/// retry and failure, degraded context, degraded plan, rejections in every work-order state.
pub fn scenario_logs() -> Vec<Vec<Event>> {
    let policy = NativePolicy;
    let mut logs = Vec::new();
    logs.push(full_session_as(&oauth(), &policy, User { first_wrong: true, ..User::default() }, 11).0);
    let mut expert = BTreeMap::new();
    expert.insert("unit-c0".to_string(), ConfidenceLevel::Expert);
    let user = User { confidence: expert, first_wrong: true, ..User::default() };
    logs.push(full_session_as(&retry(), &policy, user, 12).0);
    logs.push(full_session_as(&formatting(), &policy, User { accept: false, ..User::default() }, 13).0);

    // Context: a retryable failure, a narrower retry, then the whole session.
    let f = retry();
    let source = Flaky { inner: Cached::default(), fail: Cell::new(1), retryable: true };
    let mut rt = Runtime::open(LogTarget::Memory, &policy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(source);
    let step = rt.start(start_request(&f, "s", &sid(1))).unwrap();
    Driver::new(Agent::default(), User::default()).run(&mut rt, step);
    logs.push(rt.events(&sid(1)).unwrap().to_vec());

    // Context: unrecoverable.
    let source = Flaky { inner: Cached::default(), fail: Cell::new(9), retryable: false };
    let mut rt = Runtime::open(LogTarget::Memory, &policy, &dossier_codecall::NativeRedactor)
        .unwrap()
        .with_evidence_source(source);
    rt.start(start_request(&f, "s", &sid(2))).unwrap();
    logs.push(rt.events(&sid(2)).unwrap().to_vec());

    // A tiny evidence budget: the context is degraded.
    let mut rt = memory_runtime(&policy, Cached::default());
    let mut req = start_request(&f, "s", &sid(3));
    req.options.evidence_budget.max_bytes = 600;
    let step = rt.start(req).unwrap();
    Driver::new(Agent::default(), User::default()).run(&mut rt, step);
    logs.push(rt.events(&sid(3)).unwrap().to_vec());

    // Concept extraction rejected three times: a degraded plan, then the session.
    let mut rt = memory_runtime(&policy, Cached::default());
    let step = rt.start(start_request(&f, "s", &sid(4))).unwrap();
    let Next::WorkOrder(order) = &step.next else { panic!() };
    for i in 0..3 {
        let _ = rt.submit(SubmitRequest {
            session_id: sid(4),
            operation_id: format!("bad-{i}"),
            checkpoint: order.id.clone(),
            outcome: SubmitOutcome::Result { result: json!([]) },
        });
    }
    let step = rt.show(&sid(4)).unwrap();
    Driver::new(Agent::default(), User::default()).run(&mut rt, step);
    logs.push(rt.events(&sid(4)).unwrap().to_vec());

    // No change at all: no qualifying evidence, so no concepts work order; `skip`, declined.
    let mut rt = memory_runtime(&policy, Cached::default());
    let mut req = start_request(&f, "s", &sid(6));
    req.locator.changes = Changes::Revisions { base: f.head.clone(), head: f.head.clone() };
    let step = rt.start(req).unwrap();
    Driver::new(Agent::default(), User { accept: false, ..User::default() }).run(&mut rt, step);
    logs.push(rt.events(&sid(6)).unwrap().to_vec());

    // Rejections while teaching, quizzing and evaluating.
    let mut rt = memory_runtime(&policy, Cached::default());
    let step = rt.start(start_request(&cache(), "s", &sid(5))).unwrap();
    run_with_rejections(&mut rt, step);
    logs.push(rt.events(&sid(5)).unwrap().to_vec());
    logs
}

/// The display label under which `q` shows the agent's choice `agent_id` (answers name labels).
pub fn label_for(s: &dossier_codecall::Session, q: &QuestionView, agent_id: &str) -> String {
    let record = s.question(&q.question_id).unwrap();
    dossier_codecall::step::label_of(&record.display_order, agent_id).unwrap()
}

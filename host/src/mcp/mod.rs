//! `dossier mcp`: the MCP server over stdio (rmcp). Nine `dossier_*` tools (SPEC §8.1), each
//! a thin adapter over the same operations the CLI uses — `listing`, `recall`, `search`,
//! `save` (the single Save path), `suggest`, `sessions` — returning the SPEC §8.2 envelope
//! (`ok`, `data`/`error`, `warnings`, `next_actions`) as structured content and as text.
//!
//! Robustness: bad parameters (an unknown field at any level, a wrong type, a missing required
//! field) are the envelope with `invalid_input` naming the field, checked against the schemas
//! generated from the types below before a tool runs ([`params`]), so nothing is written; an
//! operation error is an envelope with `ok: false`, never a crash; stdout carries only
//! protocol (diagnostics go to stderr).
//! Every result stays under Claude Code's ~48 KB cap: lists and searches are limited and say
//! how to get more, recall and session payloads are paged, and [`cap`] bounds every envelope
//! (repeated findings grouped, an over-long list cut with a warning saying how to get the rest).
//!
//! codecall's five tools and its `codecall` prompt are in [`codecall`], on this same server.
//! Tool schemas are compacted ([`compact_schema`]) before they are listed: Claude Code's model
//! sees them all, and together they must fit a token budget (tested below).
//!
//! Not for: behaviour of its own. If a tool needs logic, it belongs in the operation module.

use std::sync::{Arc, Mutex};

use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, Implementation, InitializeResult, InputRequests, InputRequiredResult,
    ProtocolVersion, ServerCapabilities,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt, prompt_handler, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::App;
use crate::ops;
use crate::progress::SILENT;
use dossier_store::error::{Code, DossierError, Result};
use dossier_store::model::{ArtifactType, ContentFormat, Level, Provenance, Status};
use dossier_store::save::{ArtifactContent, FrontmatterUpdates, NewArtifact, SaveRequest};
use dossier_store::{context, recall, search, sessions};

mod cap;
pub mod codecall;
mod merge_form;
pub mod params;

/// The key of the one form a `dossier_merge` round asks.
const MERGE_FORM_KEY: &str = "merge_conflict";

/// The audit actor for MCP mutations.
const ACTOR: &str = ops::actor::MCP;

#[derive(Clone)]
pub struct DossierServer {
    app: Arc<Mutex<App>>,
    /// The binding `dossier_session` keeps when the harness exposes no session id (SPEC §5.1:
    /// held in context only, for this server's lifetime; never written).
    context_binding: Arc<Mutex<Option<dossier_store::sessions::Binding>>>,
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
}

/// Drop what a schema spends tokens on without telling a caller anything: the `$schema`
/// dialect, `null` as an alternative type of optional fields (omitting one is how to leave it
/// out), integer `format`s with their implied `minimum: 0`, and the indirection of a `$defs`
/// entry referred to once (inlined where it is used: the same schema). Recursive.
pub fn compact_schema(v: &mut Value) {
    inline_single_defs(v);
    match v {
        Value::Object(map) => {
            map.remove("$schema");
            if let Some(Value::Array(types)) = map.get("type")
                && types.len() == 2
                && types.iter().any(|t| t == "null")
                && let Some(other) = types.iter().find(|t| *t != "null").cloned()
            {
                map.insert("type".into(), other);
            }
            if let Some(Value::Array(any)) = map.get("anyOf")
                && any.len() == 2
                && any.iter().any(|s| s.get("type").is_some_and(|t| t == "null"))
                && let Some(Value::Object(inner)) =
                    any.iter().find(|s| !s.get("type").is_some_and(|t| t == "null")).cloned()
            {
                map.remove("anyOf");
                for (k, x) in inner {
                    map.entry(k).or_insert(x);
                }
            }
            if map.get("format").and_then(Value::as_str).is_some_and(|f| f.starts_with("uint") || f.starts_with("int"))
            {
                map.remove("format");
                if map.get("minimum").is_some_and(|m| m == 0) {
                    map.remove("minimum");
                }
            }
            for x in map.values_mut() {
                compact_schema(x);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(compact_schema),
        _ => {}
    }
}

/// Inline each `$defs` entry of `v` that is referred to exactly once (and not from itself), and
/// drop `$defs` when nothing is left in it.
fn inline_single_defs(v: &mut Value) {
    loop {
        let Some(Value::Object(defs)) = v.get("$defs") else { return };
        let text = v.to_string();
        let once = defs.iter().find(|(name, def)| {
            let r = format!("\"#/$defs/{name}\"");
            text.matches(&r).count() == 1 && !def.to_string().contains(&r)
        });
        let Some(name) = once.map(|(n, _)| n.clone()) else { return };
        let Some(def) = v.get_mut("$defs").and_then(Value::as_object_mut).and_then(|d| d.remove(&name)) else {
            return;
        };
        replace_ref(v, &format!("#/$defs/{name}"), &def);
        if v.get("$defs").and_then(Value::as_object).is_some_and(|d| d.is_empty())
            && let Some(map) = v.as_object_mut()
        {
            map.remove("$defs");
        }
    }
}

/// Replace the one `{"$ref": r, ...}` in `v` by `def`'s keys (the referring object's own keys,
/// such as a description, kept). Whether it was found.
fn replace_ref(v: &mut Value, r: &str, def: &Value) -> bool {
    match v {
        Value::Object(map) => {
            if map.get("$ref").and_then(Value::as_str) == Some(r) {
                map.remove("$ref");
                if let Value::Object(d) = def {
                    for (k, x) in d {
                        map.entry(k.clone()).or_insert_with(|| x.clone());
                    }
                }
                return true;
            }
            map.values_mut().any(|x| replace_ref(x, r, def))
        }
        Value::Array(items) => items.iter_mut().any(|x| replace_ref(x, r, def)),
        _ => false,
    }
}

/// Every tool's name and its input schema as generated, before compaction: what
/// [`params::check`] checks a call's arguments against (for the tests and the fuzz targets).
pub fn input_schemas() -> Vec<(String, Value)> {
    let router = DossierServer::tool_router() + DossierServer::codecall_router();
    let mut out: Vec<(String, Value)> = router
        .map
        .values()
        .map(|route| (route.attr.name.to_string(), Value::Object((*route.attr.input_schema).clone())))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Every tool (Dossier's and codecall's) with compacted schemas, each guarded by
/// [`params::guard`]: arguments are checked against the tool's schema before it runs.
fn all_tools() -> ToolRouter<DossierServer> {
    let mut router = DossierServer::tool_router() + DossierServer::codecall_router();
    for route in router.map.values_mut() {
        let mut schema = Value::Object((*route.attr.input_schema).clone());
        params::guard(route, schema.clone(), |e| envelope(Err(e)));
        compact_schema(&mut schema);
        if let Value::Object(map) = schema {
            route.attr.input_schema = Arc::new(map);
        }
    }
    router
}

/// The SPEC §8.2 envelope of every tool's result, bounded under the reply cap ([`cap::bound`]).
fn envelope(r: Result<(Value, Vec<String>, Vec<String>)>) -> CallToolResult {
    match r {
        Ok((data, warnings, next_actions)) => {
            let mut env = json!({ "ok": true, "data": data, "warnings": warnings, "next_actions": next_actions });
            cap::bound(&mut env);
            CallToolResult::structured(env)
        }
        Err(e) => {
            let mut env =
                json!({ "ok": false, "error": e, "warnings": [], "next_actions": e.next_actions(ops::Surface::Mcp) });
            cap::bound(&mut env);
            CallToolResult::structured_error(env)
        }
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ListParams {
    /// Statuses to include; default active, waiting, blocked.
    pub status: Option<Vec<Status>>,
    /// Default 50.
    pub limit: Option<usize>,
    /// Capability warnings per item; default true.
    pub include_warnings: Option<bool>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RecallParams {
    /// Slug or id.
    pub id: String,
    /// 1-based page (default 1); each page ≤ 40,000 bytes.
    pub page: Option<usize>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SearchParams {
    pub query: String,
    /// Slug or id.
    pub dossier: Option<String>,
    /// Exact lines.
    pub literal: Option<bool>,
    /// Exact lines, regex.
    pub regex: Option<bool>,
    /// Default 10.
    pub limit: Option<usize>,
    pub offset: Option<usize>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ArtifactParam {
    #[serde(rename = "type")]
    pub artifact_type: ArtifactType,
    pub title: String,
    pub content_format: ContentFormat,
    pub content: String,
    pub provenance: Option<ProvenanceParam>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ProvenanceParam {
    pub origin: Option<String>,
    pub url: Option<String>,
    pub path: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SaveParams {
    pub id: String,
    /// Revision your edit started from (from recall/list).
    pub base_revision: String,
    /// New Distilled State body (no frontmatter).
    pub distilled_state_markdown: Option<String>,
    pub frontmatter_updates: Option<FrontmatterUpdates>,
    pub artifacts: Option<Vec<ArtifactParam>>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct UpdateParams {
    pub id: String,
    pub name: Option<String>,
    pub status: Option<Status>,
    pub lead: Option<String>,
    pub next_action: Option<String>,
    pub open_questions: Option<Vec<String>>,
    pub importance: Option<Level>,
    pub urgency: Option<Level>,
    /// YYYY-MM-DD; "" clears.
    pub due_date: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PromoteParams {
    pub name: String,
    pub distilled_state_markdown: Option<String>,
    pub session_content: Option<String>,
    pub transcript: Option<String>,
    pub harness: Option<String>,
    /// Create even if an existing Dossier matches with high confidence.
    pub create: Option<bool>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct LinkParams {
    /// Target; omit to get candidates.
    pub id: Option<String>,
    pub base_revision: Option<String>,
    pub distilled_state_markdown: Option<String>,
    pub session_content: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SessionParams {
    /// Defaults to CLAUDE_CODE_SESSION_ID.
    pub session_id: Option<String>,
    /// Dossier to bind (switch); omit to report.
    pub id: Option<String>,
    /// Unbind.
    pub clear: Option<bool>,
    /// When switching: the current Dossier's latest Distilled State, saved first.
    pub current_distilled_state_markdown: Option<String>,
    /// Base revision for that save.
    pub current_base_revision: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct MergeParams {
    /// Slug or id of the Dossier merged away (archived, files kept).
    pub source_id: String,
    /// Slug or id of the survivor.
    pub target_id: String,
    /// The user's decision for each conflict of a previous conflict_detected.
    pub resolved_conflicts: Option<Vec<dossier_store::merge::ResolutionInput>>,
    /// Your verdict on each details.review pair.
    pub reviews: Option<Vec<dossier_store::merge::ReviewInput>>,
    /// details.changed pairs that cannot both hold.
    pub flagged: Option<Vec<dossier_store::merge::FlagInput>>,
}

/// What `dossier_merge` keeps in an MCP `requestState` between form rounds: the choices made
/// so far and the conflict the pending form asks about. It is untrusted (the client echoes
/// it), and needs no sealing: it holds nothing a caller could not send as
/// `resolved_conflicts` directly.
#[derive(Debug, Default, Deserialize, serde::Serialize)]
struct MergeFormState {
    resolutions: Vec<dossier_store::merge::ResolutionInput>,
    pending: Option<String>,
}

/// The harness in an audit actor (`agent:<harness>`): the MCP client's name, lowercase,
/// anything but letters, digits and `-` as `-` (Claude Code says `claude-code`).
fn harness_name(client: &str) -> String {
    let n: String =
        client.trim().chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    if n.is_empty() { "mcp".into() } else { n }
}

fn text_artifact(t: ArtifactType, title: &str, format: ContentFormat, content: String, harness: &str) -> NewArtifact {
    NewArtifact {
        artifact_type: t,
        title: title.to_string(),
        content_format: format,
        content: ArtifactContent::Text(content),
        provenance: Provenance {
            origin: Some("agent session".into()),
            captured_by: Some("dossier mcp".into()),
            harness: Some(harness.to_string()),
            ..Default::default()
        },
        extraction: None,
    }
}

/// An operation's outcome as the envelope's parts, its data as JSON and its next steps as
/// tool calls.
fn reply<T>(o: ops::Outcome<T>, data: impl FnOnce(T) -> Value) -> Result<(Value, Vec<String>, Vec<String>)> {
    let next = o.next_actions(ops::Surface::Mcp);
    Ok((data(o.data), o.warnings, next))
}

fn json_of<T: serde::Serialize>(t: T) -> Value {
    serde_json::to_value(t).expect("outcomes serialize")
}

impl DossierServer {
    pub fn new(app: App) -> Self {
        DossierServer {
            app: Arc::new(Mutex::new(app)),
            context_binding: Arc::new(Mutex::new(None)),
            tool_router: all_tools(),
            prompt_router: Self::codecall_prompts(),
        }
    }

    fn with_app<T>(&self, f: impl FnOnce(&App) -> T) -> T {
        let app = self.app.lock().unwrap_or_else(|e| e.into_inner());
        f(&app)
    }

    fn save_request(app: &App) -> SaveRequest {
        ops::Caller::mcp().save_request(app)
    }
}

#[tool_router]
impl DossierServer {
    #[tool(description = "List Dossiers in priority order.")]
    fn dossier_list(&self, Parameters(p): Parameters<ListParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            let statuses = p.status.unwrap_or_else(|| Status::OPEN.to_vec());
            let o = ops::list::list(app, &statuses, Some(p.limit.unwrap_or(50)), p.include_warnings.unwrap_or(true))?;
            reply(o, |page| json!({ "dossiers": page.dossiers, "total": page.total }))
        }))
    }

    #[tool(description = "Full Distilled State, paged (≤40 KB), with token estimate.")]
    fn dossier_recall(&self, Parameters(p): Parameters<RecallParams>) -> CallToolResult {
        envelope(self.with_app(|app| reply(ops::recall::recall(app, &p.id, Some(p.page.unwrap_or(1)))?, json_of)))
    }

    #[tool(
        description = "Ranked search of all Dossiers: words, \"phrase\", -word, status: dossier: in:<section> kind:artifact"
    )]
    fn dossier_search(&self, Parameters(p): Parameters<SearchParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            let regex = p.regex.unwrap_or(false);
            if regex || p.literal.unwrap_or(false) {
                let q = search::Query {
                    text: &p.query,
                    regex,
                    dossier: p.dossier.as_deref(),
                    limit: p.limit.unwrap_or(20),
                };
                return reply(ops::search::search(app, &q, &SILENT)?, json_of);
            }
            let q = search::ranked::RankedQuery {
                text: &p.query,
                dossier: p.dossier.as_deref(),
                limit: p.limit.unwrap_or(10),
                offset: p.offset.unwrap_or(0),
            };
            reply(ops::search::ranked(app, &q, &SILENT)?, json_of)
        }))
    }

    #[tool(description = "Save Distilled State, fields, artifacts against base_revision.")]
    fn dossier_save(&self, Parameters(p): Parameters<SaveParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            let harness = "claude-code";
            let req = SaveRequest {
                base_revision: Some(p.base_revision),
                distilled_state: p.distilled_state_markdown,
                updates: p.frontmatter_updates.unwrap_or_default(),
                artifacts: p
                    .artifacts
                    .unwrap_or_default()
                    .into_iter()
                    .map(|a| {
                        let mut art = text_artifact(a.artifact_type, &a.title, a.content_format, a.content, harness);
                        if let Some(prov) = a.provenance {
                            art.provenance.origin = prov.origin.or(art.provenance.origin);
                            art.provenance.url = prov.url;
                            art.provenance.path = prov.path;
                        }
                        art
                    })
                    .collect(),
                ..Self::save_request(app)
            };
            reply(ops::save::save(app, &p.id, req, &SILENT)?, json_of)
        }))
    }

    #[tool(description = "Update name, status, lead, next_action, open_questions or priority.")]
    fn dossier_update(&self, Parameters(p): Parameters<UpdateParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            let updates = FrontmatterUpdates {
                name: p.name,
                status: p.status,
                lead: p.lead,
                next_action: p.next_action,
                open_questions: p.open_questions,
                importance: p.importance,
                urgency: p.urgency,
                due_date: p.due_date,
                ..Default::default()
            };
            reply(ops::save::update(app, &ops::Caller::mcp(), &p.id, updates)?, json_of)
        }))
    }

    #[tool(description = "Create a Dossier; flags likely duplicates (create=true overrides).")]
    fn dossier_promote(&self, Parameters(p): Parameters<PromoteParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            let harness = p.harness.clone().unwrap_or_else(|| "claude-code".into());
            let content = [p.session_content.as_deref(), p.distilled_state_markdown.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("\n");
            let mut artifacts = Vec::new();
            if let Some(c) = p.session_content {
                artifacts.push(text_artifact(
                    ArtifactType::SourceSnapshot,
                    "Session content",
                    ContentFormat::Markdown,
                    c,
                    &harness,
                ));
            }
            let has_transcript = p.transcript.is_some();
            if let Some(t) = p.transcript {
                artifacts.push(text_artifact(
                    ArtifactType::Transcript,
                    "Session transcript",
                    ContentFormat::Text,
                    t,
                    &harness,
                ));
            }
            let promote = ops::promote::Promote {
                name: Some(p.name),
                distilled_state: p.distilled_state_markdown,
                artifacts,
                content: (!content.is_empty()).then_some(content),
                create: p.create.unwrap_or(false),
                has_transcript,
                from_file: None,
            };
            reply(ops::promote::promote(app, &ops::Caller::mcp(), promote, &SILENT)?, json_of)
        }))
    }

    #[tool(description = "Attach session content; without id, returns top-3 candidates.")]
    fn dossier_link(&self, Parameters(p): Parameters<LinkParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            let content = [p.session_content.as_deref(), p.distilled_state_markdown.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("\n");
            let artifacts = p
                .session_content
                .into_iter()
                .map(|c| {
                    text_artifact(
                        ArtifactType::SourceSnapshot,
                        "Linked session content",
                        ContentFormat::Markdown,
                        c,
                        "claude-code",
                    )
                })
                .collect();
            let link = ops::link::Link {
                target: p.id,
                content,
                artifacts,
                distilled_state: p.distilled_state_markdown,
                base_revision: p.base_revision,
                from_file: None,
            };
            reply(ops::link::link(app, &ops::Caller::mcp(), link, &SILENT)?, |linked| match linked {
                ops::link::Linked::Candidates(c) => json!({ "candidates": c, "requires_selection": true }),
                ops::link::Linked::Saved(o) => json_of(o),
            })
        }))
    }

    #[tool(description = "Report, bind (switch) or clear this session's active Dossier.")]
    fn dossier_session(&self, Parameters(p): Parameters<SessionParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            app.store.require()?;
            // Without a session id the binding is kept in context only (SPEC §5.1), here.
            let sid = sessions::session_id(p.session_id.as_deref()).ok();
            let mut held = self.context_binding.lock().unwrap_or_else(|e| e.into_inner());
            let slot = match &sid {
                Some(sid) => ops::session::Slot::File(sid),
                None => ops::session::Slot::Context(&mut held),
            };
            if p.clear.unwrap_or(false) {
                return reply(ops::session::clear_in(app, slot)?, |b| json!({ "binding": b }));
            }
            let Some(target) = p.id else {
                return reply(ops::session::active_in(app, slot)?, |b| json!({ "binding": b }));
            };
            let previous = p.current_distilled_state_markdown.zip(p.current_base_revision);
            let mut o = ops::session::switch_in(app, &ops::Caller::mcp(), slot, &target, previous)?;
            let guide = context::GUIDE;
            let r = &o.data.recall;
            // Guide and state together must stay under the transport cap; otherwise page.
            let state = if r.page_count == 1 && guide.len() + r.content.len() <= recall::PAGE_BYTES {
                Some(r.content.clone())
            } else {
                let first = ops::Next::call(ops::Op::Recall, &r.slug)
                    .arg("page", "page", 1)
                    .note(format!("of {}, for the Distilled State", r.page_count));
                o.next.insert(0, first);
                None
            };
            reply(o, |s| {
                json!({
                    "binding": s.binding,
                    "guide": guide,
                    "distilled_state": state,
                    "revision": s.recall.revision,
                    "token_estimate": s.recall.token_estimate,
                    "page_count": s.recall.page_count,
                    "saved_previous": s.saved_previous,
                })
            })
        }))
    }

    #[tool(
        description = "Merge source into target (kept). On conflict_detected ask the user, retry with resolved_conflicts."
    )]
    fn dossier_merge(
        &self,
        Parameters(p): Parameters<MergeParams>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let app = self.app.lock().unwrap_or_else(|e| e.into_inner());
        let mut form: MergeFormState = state.as_deref().and_then(|s| serde_json::from_str(s).ok()).unwrap_or_default();
        let mut resolutions = p.resolved_conflicts.clone().unwrap_or_default();
        resolutions.append(&mut form.resolutions);
        let mut dismissed = false;
        if let (Some(pending), Some(responses)) = (form.pending.take(), responses) {
            match merge_form::form_answer(&pending, responses.get(MERGE_FORM_KEY)) {
                Some(r) => resolutions.push(r),
                None => dismissed = true,
            }
        }
        // The review round (issue 19): the agent judges the possible conflicts first, and may
        // flag pairs of changed claims the rules did not pair; the compatible ones are kept
        // both as its decision, the rest (and its flags) go to the user.
        let harness = context.client_info().map_or_else(|| "mcp".to_string(), |i| harness_name(&i.name));
        let agent = format!("agent:{harness}");
        let flags = p.flagged.clone().unwrap_or_default();
        let view = match ops::merge::review(&app, &p.source_id, &p.target_id, &flags, &agent) {
            Err(e) if e.code == Code::InvalidInput => return envelope(Err(e)).into(),
            view => view,
        };
        let mut reviewed = Vec::new();
        let mut flagged = Vec::new();
        if let Ok(view) = &view {
            if let Err(e) = dossier_store::merge::check_resolution_ids(&resolutions, &view.conflicts) {
                return envelope(Err(e)).into();
            }
            let r = if p.reviews.is_none() && p.flagged.is_none() {
                dossier_store::merge::review_round(&p.source_id, &p.target_id, view, &resolutions).map_or(Ok(()), Err)
            } else {
                let reviews = p.reviews.clone().unwrap_or_default();
                dossier_store::merge::apply_reviews(&view.conflicts, &reviews, &mut resolutions, &agent)
                    .map(|kept| reviewed = kept)
            };
            if let Err(e) = r {
                return envelope(Err(e)).into();
            }
            flagged = view.flagged.clone();
        }
        // Forms need the multi-round-trip protocol (Claude Code speaks it; print mode
        // cancels every form, which lands in `dismissed`).
        let forms = context.protocol_version().is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
            && context.client_capabilities().is_none_or(|c| c.elicitation.is_some());
        if forms && !dismissed {
            let pending =
                view.map(|v| v.conflicts.into_iter().find(|c| !resolutions.iter().any(|r| r.conflict_id == c.id)));
            if let Ok(Some(next)) = pending {
                // The agent's `compatible` verdicts are re-applied from `reviews` each round
                // (so they stay the agent's in the audit log), not carried as the user's.
                resolutions.retain(|r| !reviewed.iter().any(|k| k.conflict_id == r.conflict_id));
                let reason = match &next.flagged {
                    Some(f) => Some(f.reason.as_str()),
                    None => p.reviews.iter().flatten().find(|r| r.conflict_id == next.id).map(|r| r.reason.as_str()),
                };
                let state = MergeFormState { resolutions, pending: Some(next.id.clone()) };
                let mut requests = InputRequests::new();
                requests.insert(MERGE_FORM_KEY.into(), merge_form::form_request(&next, reason));
                let state = serde_json::to_string(&state).expect("form state serializes");
                return InputRequiredResult::new(Some(requests), Some(state)).into();
            }
        }
        let r = ops::merge::merge_reviewed(
            &app,
            &ops::Caller::mcp(),
            &p.source_id,
            &p.target_id,
            &resolutions,
            &reviewed,
            &flagged,
            &SILENT,
        )
        .and_then(|o| reply(o, |o| dossier_store::merge::outcome_json(&o)))
        .map_err(|e| {
            if dismissed && e.code == Code::ConflictDetected {
                e.with_next("the user dismissed the form: ask them in the conversation instead")
            } else {
                e
            }
        });
        envelope(r).into()
    }
}

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = self.prompt_router)]
impl ServerHandler for DossierServer {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().enable_prompts().build())
            .with_server_info(Implementation::new("dossier", env!("CARGO_PKG_VERSION")))
            .with_instructions("Dossier: durable memory for long-running work. dossier_list to see open work, dossier_session to resume one. codecall_start: a learning session about what was just built.")
    }
}

/// Serve MCP on stdin/stdout until the client disconnects.
pub fn serve(app: App) -> Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| DossierError::new(Code::Io, e.to_string()))?;
    rt.block_on(async move {
        let service = DossierServer::new(app)
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| DossierError::new(Code::Io, format!("MCP handshake failed: {e}")))?;
        service.waiting().await.map_err(|e| DossierError::new(Code::Io, format!("MCP server stopped: {e}")))?;
        Ok(())
    })
}

/// The JSON of every tool definition as a client receives it from `tools/list`.
pub fn tool_definitions() -> Value {
    serde_json::to_value(all_tools().list_all()).expect("tool definitions serialize")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Claude Code shows the model only tool names until it loads them; all schemas together
    /// (the nine Dossier tools and codecall's five) must stay within 3,000 (estimated Claude)
    /// tokens. A size budget, not a timing.
    #[test]
    fn all_tool_schemas_fit_the_token_budget() {
        let defs = tool_definitions();
        let tools = defs.as_array().unwrap();
        assert_eq!(tools.len(), 14);
        let text = defs.to_string();
        let estimate = dossier_store::tokens::estimate(&text, dossier_store::tokens::DEFAULT_CALIBRATION);
        eprintln!(
            "tool schemas: {} bytes, {} raw tokens, ~{} estimated tokens",
            text.len(),
            estimate.raw_tokens,
            estimate.tokens
        );
        assert!(estimate.tokens <= 3_000, "{} estimated tokens", estimate.tokens);
        for t in tools {
            let d = t["description"].as_str().unwrap();
            assert!(d.len() <= 100, "description too long: {d}");
            let per =
                dossier_store::tokens::estimate(&t.to_string(), dossier_store::tokens::DEFAULT_CALIBRATION).tokens;
            eprintln!("  {:<18} ~{per} estimated tokens", t["name"].as_str().unwrap());
        }
    }

    #[test]
    fn compacting_keeps_meaning_and_drops_only_noise() {
        let mut s = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "page": { "type": ["integer", "null"], "format": "uint", "minimum": 0, "description": "1-based" },
                "when": { "anyOf": [{ "$ref": "#/$defs/Level" }, { "type": "null" }], "description": "x" },
                "name": { "type": "string" }
            },
            "required": ["name"],
            "$defs": { "Level": { "type": "string", "enum": ["low", "high"] } }
        });
        compact_schema(&mut s);
        assert_eq!(
            s,
            json!({
                "type": "object",
                "properties": {
                    "page": { "type": "integer", "description": "1-based" },
                    "when": { "type": "string", "enum": ["low", "high"], "description": "x" },
                    "name": { "type": "string" }
                },
                "required": ["name"]
            })
        );
        // A definition used twice stays one.
        let mut s = json!({
            "type": "object",
            "properties": { "a": { "$ref": "#/$defs/L" }, "b": { "$ref": "#/$defs/L" } },
            "$defs": { "L": { "type": "string" } }
        });
        let before = s.clone();
        compact_schema(&mut s);
        assert_eq!(s, before);
    }

    // Bad parameters (issue 18, defects 2 and 13): checked against each tool's own schema.

    fn schema_of(tool: &str) -> Value {
        let router = DossierServer::tool_router() + DossierServer::codecall_router();
        Value::Object((*router.map[tool].attr.input_schema).clone())
    }

    fn refused(tool: &str, args: Value) -> DossierError {
        params::check(&schema_of(tool), args.as_object().unwrap()).expect_err("refused")
    }

    #[test]
    fn spec_8_2_unknown_nested_parameter_is_refused_with_the_nearest_name() {
        let e = refused(
            "dossier_save",
            json!({"id": "a", "base_revision": "r", "frontmatter_updates": {"next_actoin": "x"}}),
        );
        assert_eq!(e.code, Code::InvalidInput);
        assert_eq!(e.details["field"], "frontmatter_updates.next_actoin");
        assert_eq!(e.details["did_you_mean"], "next_action");
        assert!(e.message.contains("did you mean `next_action`?"), "{}", e.message);
    }

    #[test]
    fn spec_8_2_unknown_top_level_parameter_is_refused() {
        let e = refused("dossier_session", json!({"sesion_id": "s"}));
        assert_eq!(e.details["field"], "sesion_id");
        assert_eq!(e.details["did_you_mean"], "session_id");
        let e = refused("dossier_save", json!({"id": "a", "base_revision": "r", "extra_key": 1}));
        assert_eq!(e.details["field"], "extra_key");
        assert!(e.details["did_you_mean"].is_null());
        let e = refused(
            "dossier_save",
            json!({"id": "a", "base_revision": "r", "artifacts": [{"type": "decision_evidence", "titel": "t",
                "content_format": "markdown", "content": "c"}]}),
        );
        assert_eq!(e.details["field"], "artifacts[0].titel");
        assert_eq!(e.details["did_you_mean"], "title");
    }

    #[test]
    fn spec_8_2_wrong_type_and_missing_field_say_what_was_expected() {
        let e = refused("dossier_recall", json!({"id": "a", "page": "two"}));
        assert_eq!(e.details["field"], "page");
        assert!(e.details["expected"].as_str().unwrap().contains("integer"), "{}", e.details);
        let e = refused("dossier_recall", json!({"id": "a", "page": -1}));
        assert_eq!(e.details["field"], "page");
        let e = refused("dossier_recall", json!({}));
        assert_eq!(e.details["field"], "id");
        assert!(e.message.contains("missing"), "{}", e.message);
        let e = refused("dossier_update", json!({"id": "a", "importance": "hgh"}));
        assert_eq!(e.details["field"], "importance");
        assert!(e.details["expected"].as_str().unwrap().contains("\"high\""), "{}", e.details);
        let e = refused("codecall_answer", json!({"session_id": "s", "checkpoint": "c", "confidence": {"u": 3}}));
        assert_eq!(e.details["field"], "confidence.u");
    }

    #[test]
    fn valid_parameters_pass_including_nulls_for_optional_fields() {
        let ok = |tool: &str, args: Value| params::check(&schema_of(tool), args.as_object().unwrap());
        ok("dossier_list", json!({})).unwrap();
        ok("dossier_list", json!({"status": ["active", "waiting"], "limit": 5})).unwrap();
        ok("dossier_recall", json!({"id": "a", "page": null})).unwrap();
        ok(
            "dossier_save",
            json!({"id": "a", "base_revision": "r", "distilled_state_markdown": "x",
                "frontmatter_updates": {"next_action": "x", "importance": "high", "due_date": ""},
                "artifacts": [{"type": "decision_evidence", "title": "t", "content_format": "markdown", "content": "c",
                    "provenance": {"origin": "o"}}]}),
        )
        .unwrap();
        ok(
            "dossier_merge",
            json!({"source_id": "a", "target_id": "b", "resolved_conflicts": [{"conflict_id": "c", "choice": "custom", "text": "t"}]}),
        )
        .unwrap();
        ok("codecall_submit", json!({"session_id": "s", "checkpoint": "c", "result": {"any": ["thing"]}})).unwrap();
        ok("codecall_answer", json!({"session_id": "s", "checkpoint": "c", "confidence": {"u": "expert"}})).unwrap();
    }
}

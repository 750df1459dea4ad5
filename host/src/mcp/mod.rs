//! `dossier mcp`: the MCP server over stdio (rmcp). Nine `dossier_*` tools (SPEC §8.1), each
//! a thin adapter over the same operations the CLI uses — `listing`, `recall`, `search`,
//! `save` (the single Save path), `suggest`, `sessions` — returning the SPEC §8.2 envelope
//! (`ok`, `data`/`error`, `warnings`, `next_actions`) as structured content and as text.
//!
//! Robustness: malformed parameters are JSON-RPC invalid-params errors (rmcp validates them
//! against the schemas generated from the types below); an operation error is an envelope
//! with `ok: false`, never a crash; stdout carries only protocol (diagnostics go to stderr).
//! Every result stays under Claude Code's ~48 KB cap: lists and searches are limited and say
//! how to get more, recall and session payloads are paged.
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
use crate::error::{Code, DossierError, Result};
use crate::model::{self, ArtifactType, ContentFormat, Level, Provenance, Status};
use crate::save::{self, ArtifactContent, CreateRequest, FrontmatterUpdates, NewArtifact, SaveRequest};
use crate::{context, listing, recall, search, sessions, suggest};

pub mod codecall;
mod merge_form;

/// The key of the one form a `dossier_merge` round asks.
const MERGE_FORM_KEY: &str = "merge_conflict";

/// The audit actor for MCP mutations.
const ACTOR: &str = "agent:mcp";

#[derive(Clone)]
pub struct DossierServer {
    app: Arc<Mutex<App>>,
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
}

/// Drop what a schema spends tokens on without telling a caller anything: the `$schema`
/// dialect, `null` as an alternative type of optional fields (omitting one is how to leave it
/// out), and integer `format`s with their implied `minimum: 0`. Recursive.
pub fn compact_schema(v: &mut Value) {
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

/// Every tool (Dossier's and codecall's) with compacted schemas.
fn all_tools() -> ToolRouter<DossierServer> {
    let mut router = DossierServer::tool_router() + DossierServer::codecall_router();
    for route in router.map.values_mut() {
        let mut schema = Value::Object((*route.attr.input_schema).clone());
        compact_schema(&mut schema);
        if let Value::Object(map) = schema {
            route.attr.input_schema = Arc::new(map);
        }
    }
    router
}

fn envelope(r: Result<(Value, Vec<String>, Vec<String>)>) -> CallToolResult {
    match r {
        Ok((data, warnings, next_actions)) => CallToolResult::structured(
            json!({ "ok": true, "data": data, "warnings": warnings, "next_actions": next_actions }),
        ),
        Err(e) => CallToolResult::structured_error(
            json!({ "ok": false, "error": e, "warnings": [], "next_actions": e.next_actions }),
        ),
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ListParams {
    /// Statuses to include; default active, waiting, blocked.
    pub status: Option<Vec<Status>>,
    /// Default 50.
    pub limit: Option<usize>,
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
    /// Only this Dossier (slug or id).
    pub dossier: Option<String>,
    /// Treat query as a regex.
    pub regex: Option<bool>,
    /// Default 20.
    pub limit: Option<usize>,
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
    pub resolved_conflicts: Option<Vec<crate::merge::ResolutionInput>>,
}

/// What `dossier_merge` keeps in an MCP `requestState` between form rounds: the choices made
/// so far and the conflict the pending form asks about. It is untrusted (the client echoes
/// it), and needs no sealing: it holds nothing a caller could not send as
/// `resolved_conflicts` directly.
#[derive(Debug, Default, Deserialize, serde::Serialize)]
struct MergeFormState {
    resolutions: Vec<crate::merge::ResolutionInput>,
    pending: Option<String>,
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

fn outcome(app: &App, o: save::SaveOutcome) -> Result<(Value, Vec<String>, Vec<String>)> {
    let mut warnings = o.warnings.clone();
    // A new Distilled State is checked against the Distillation Guide (advice, not a gate).
    if o.token_estimate.is_some() {
        warnings.extend(crate::distill::warnings(app, &o.path));
    }
    warnings.extend(context::after_mutation(app));
    Ok((serde_json::to_value(&o).expect("outcome serializes"), warnings, Vec::new()))
}

impl DossierServer {
    pub fn new(app: App) -> Self {
        DossierServer {
            app: Arc::new(Mutex::new(app)),
            tool_router: all_tools(),
            prompt_router: Self::codecall_prompts(),
        }
    }

    fn with_app<T>(&self, f: impl FnOnce(&App) -> T) -> T {
        let app = self.app.lock().unwrap_or_else(|e| e.into_inner());
        f(&app)
    }

    fn save_request(app: &App) -> SaveRequest {
        SaveRequest {
            actor: ACTOR.to_string(),
            session_id: std::env::var("CLAUDE_CODE_SESSION_ID").ok(),
            calibration: app.config.tokens.calibration,
            token_target: app.config.token_target,
            ..Default::default()
        }
    }
}

#[tool_router]
impl DossierServer {
    #[tool(description = "List Dossiers in priority order (default: active, waiting, blocked).")]
    fn dossier_list(&self, Parameters(p): Parameters<ListParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            app.store.require()?;
            let statuses = p.status.unwrap_or_else(|| Status::OPEN.to_vec());
            let limit = p.limit.unwrap_or(50);
            let l = listing::list(app, &statuses, listing::now_millis())?;
            let total = l.dossiers.len();
            let items: Vec<_> = l.dossiers.into_iter().take(limit).collect();
            let mut next = Vec::new();
            if total > items.len() {
                next.push(format!(
                    "{} more: call dossier_list with a larger limit or a status filter",
                    total - items.len()
                ));
            }
            Ok((json!({ "dossiers": items, "total": total }), l.warnings, next))
        }))
    }

    #[tool(description = "Full Distilled State of a Dossier, paged (≤40 KB per page), with token estimate.")]
    fn dossier_recall(&self, Parameters(p): Parameters<RecallParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            let (r, w, mut n) = recall::recall(app, &p.id, Some(p.page.unwrap_or(1)))?;
            if r.page < r.page_count {
                n.retain(|a| !a.starts_with("dossier recall"));
                n.insert(
                    0,
                    format!("call dossier_recall with page {} (page {} of {})", r.page + 1, r.page, r.page_count),
                );
            }
            Ok((serde_json::to_value(&r).expect("recall serializes"), w, n))
        }))
    }

    #[tool(description = "Search all Dossiers and their archives (literal, smart case).")]
    fn dossier_search(&self, Parameters(p): Parameters<SearchParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            let q = search::Query {
                text: &p.query,
                regex: p.regex.unwrap_or(false),
                dossier: p.dossier.as_deref(),
                limit: p.limit.unwrap_or(20),
            };
            let r = search::search(app, &q)?;
            let mut next = Vec::new();
            if r.truncated {
                next.push(format!("{} of {} hits shown: raise limit or pass dossier", r.returned, r.total_hits));
            }
            Ok((serde_json::to_value(&r).expect("search serializes"), Vec::new(), next))
        }))
    }

    #[tool(description = "Save a Distilled State, fields and artifacts against base_revision.")]
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
            outcome(app, save::save(&app.store, &p.id, req)?)
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
            if updates.fields().is_empty() {
                return Err(DossierError::new(Code::InvalidInput, "nothing to update: pass at least one field"));
            }
            outcome(app, save::save(&app.store, &p.id, SaveRequest { updates, ..Self::save_request(app) })?)
        }))
    }

    #[tool(description = "Create a Dossier; flags likely duplicates (set create=true to override).")]
    fn dossier_promote(&self, Parameters(p): Parameters<PromoteParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            app.store.require()?;
            let harness = p.harness.clone().unwrap_or_else(|| "claude-code".into());
            let query = [Some(p.name.as_str()), p.session_content.as_deref(), p.distilled_state_markdown.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("\n");
            let candidates = suggest::guard_new(
                app,
                &query,
                p.create.unwrap_or(false),
                |c| format!("ask the user, then dossier_link id={}", c.slug),
                "dossier_promote with create=true",
            )?;
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
            let req = CreateRequest {
                name: p.name,
                distilled_state: p.distilled_state_markdown,
                artifacts,
                actor: ACTOR.to_string(),
                session_id: std::env::var("CLAUDE_CODE_SESSION_ID").ok(),
                promote: true,
                ..Default::default()
            };
            let o = save::create(&app.store, req)?;
            let (data, mut w, n) = outcome(app, o)?;
            if !has_transcript {
                w.push("transcript_unavailable: no transcript was captured for this promote".into());
            }
            for c in candidates {
                w.push(format!("possibly related ({}): {} — {}", c.confidence, c.slug, c.reason));
            }
            Ok((data, w, n))
        }))
    }

    #[tool(description = "Attach session content to a Dossier; without id, returns top-3 candidates.")]
    fn dossier_link(&self, Parameters(p): Parameters<LinkParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            app.store.require()?;
            let Some(id) = p.id else {
                let content = [p.session_content.as_deref(), p.distilled_state_markdown.as_deref()]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join("\n");
                if content.trim().is_empty() {
                    return Err(DossierError::new(Code::InvalidInput, "pass session_content to find candidates"));
                }
                let candidates = suggest::suggest(app, &content, listing::now_millis())?;
                let next =
                    vec!["ask the user which Dossier this belongs to, then call dossier_link with its id".to_string()];
                return Ok((json!({ "candidates": candidates, "requires_selection": true }), Vec::new(), next));
            };
            let mut req = Self::save_request(app);
            req.event = Some(model::EventKind::Link);
            req.base_revision = p.base_revision;
            req.distilled_state = p.distilled_state_markdown;
            if let Some(c) = p.session_content {
                req.artifacts.push(text_artifact(
                    ArtifactType::SourceSnapshot,
                    "Linked session content",
                    ContentFormat::Markdown,
                    c,
                    "claude-code",
                ));
            }
            outcome(app, save::save(&app.store, &id, req)?)
        }))
    }

    #[tool(description = "Report, bind (switch) or clear this session's active Dossier.")]
    fn dossier_session(&self, Parameters(p): Parameters<SessionParams>) -> CallToolResult {
        envelope(self.with_app(|app| {
            app.store.require()?;
            let sid = sessions::session_id(p.session_id.as_deref())?;
            let caps = crate::harness::ClaudeCode::in_mcp_server();
            if p.clear.unwrap_or(false) {
                let b = sessions::write(app, &sid, None, None)?;
                return Ok((json!({ "binding": b }), caps.warnings(), Vec::new()));
            }
            let Some(target) = p.id else {
                let b = sessions::read(&app.store, &sid)?;
                let next = if b.as_ref().and_then(|b| b.dossier_id.as_ref()).is_none() {
                    vec!["call dossier_list, then dossier_session with id to bind one".to_string()]
                } else {
                    Vec::new()
                };
                return Ok((json!({ "binding": b }), caps.warnings(), next));
            };
            // Switching saves the current Dossier first where the agent gave us its state.
            let mut saved_previous = None;
            if let (Some(state), Some(base)) = (p.current_distilled_state_markdown, p.current_base_revision)
                && let Some(current) = sessions::read(&app.store, &sid)?.and_then(|b| b.dossier_id)
            {
                let req =
                    SaveRequest { base_revision: Some(base), distilled_state: Some(state), ..Self::save_request(app) };
                saved_previous = Some(save::save(&app.store, &current, req)?);
            }
            let (b, r, mut w, mut n) = sessions::switch(app, &sid, &target)?;
            if let Some(prev) = &saved_previous {
                w.extend(prev.warnings.iter().cloned());
            }
            w.extend(caps.warnings());
            let guide = context::GUIDE;
            // Guide and state together must stay under the transport cap; otherwise page.
            let state = if r.page_count == 1 && guide.len() + r.content.len() <= recall::PAGE_BYTES {
                Some(r.content.clone())
            } else {
                n.insert(
                    0,
                    format!("call dossier_recall id={} page=1 (of {}) for the Distilled State", r.slug, r.page_count),
                );
                None
            };
            let data = json!({
                "binding": b,
                "guide": guide,
                "distilled_state": state,
                "revision": r.revision,
                "token_estimate": r.token_estimate,
                "page_count": r.page_count,
                "saved_previous": saved_previous,
            });
            Ok((data, w, n))
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
        // Forms need the multi-round-trip protocol (Claude Code speaks it; print mode
        // cancels every form, which lands in `dismissed`).
        let forms = context.protocol_version().is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
            && context.client_capabilities().is_none_or(|c| c.elicitation.is_some());
        if forms && !dismissed {
            let pending = crate::merge::conflicts(&app, &p.source_id, &p.target_id)
                .map(|all| all.into_iter().find(|c| !resolutions.iter().any(|r| r.conflict_id == c.id)));
            if let Ok(Some(next)) = pending {
                let state = MergeFormState { resolutions, pending: Some(next.id.clone()) };
                let mut requests = InputRequests::new();
                requests.insert(MERGE_FORM_KEY.into(), merge_form::form_request(&next));
                let state = serde_json::to_string(&state).expect("form state serializes");
                return InputRequiredResult::new(Some(requests), Some(state)).into();
            }
        }
        let r = crate::merge::merge(
            &app,
            &p.source_id,
            &p.target_id,
            &resolutions,
            ACTOR,
            &std::env::var("CLAUDE_CODE_SESSION_ID").ok(),
        )
        .map(|o| {
            let mut w = Vec::new();
            if let Some(x) = context::after_mutation(&app) {
                w.push(x);
            }
            (crate::merge::outcome_json(&o), w, vec![format!("dossier_recall id={}", o.target_slug)])
        })
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
        let estimate = crate::tokens::estimate(&text, crate::tokens::DEFAULT_CALIBRATION);
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
            let per = crate::tokens::estimate(&t.to_string(), crate::tokens::DEFAULT_CALIBRATION).tokens;
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
            "required": ["name"]
        });
        compact_schema(&mut s);
        assert_eq!(
            s,
            json!({
                "type": "object",
                "properties": {
                    "page": { "type": "integer", "description": "1-based" },
                    "when": { "$ref": "#/$defs/Level", "description": "x" },
                    "name": { "type": "string" }
                },
                "required": ["name"]
            })
        );
    }
}

"""A scripted Anthropic Messages API on loopback, for driving the real Claude Code CLI offline.

Usage: python3 scripted_api.py <port-file> <log-file> [<scenario> <slug>]
Binds 127.0.0.1 on a free port (written to <port-file>), answers POST /v1/messages with a
text/event-stream reply, and appends every request body as one JSON line to <log-file>.

Scenarios: `promote` (the default: promote, list, bind, save), `plugin` (the same through the
tool names Claude Code gives the dossier plugin's server, `mcp__plugin_dossier_dossier__*`), `bind` (load
dossier_session, bind <slug>, then answer in text: the hooks do the rest), `merge`
(<slug> is `<source>,<target>`: call dossier_merge; on a review list, call again with
`reviews` — the first pair a contradiction, the rest compatible; read the conflicts from the
conflict_detected result, call again resolving each with keep_target) and `codecall`
(<slug> is `<dossier>,<repo>`: bind the Dossier, start a codecall session on the repo with
save_summary, then act on each result like an agent: do each work order (the first concepts
result deliberately invalid, then corrected), and answer each gate the forms did not: accept,
default confidence, acknowledge, choice `b`; stop at the summary), `edit` (<slug> is
the project directory: Write an OAuth middleware file, Edit it, then a failing Edit of a file
that does not exist; the codecall card test) and `commit` (<slug> is the project directory:
Write a retry change to src/client.rs and commit it with Bash; once the `/codecall` command's
text is in the conversation, load and call codecall_start on the project; issue 21) and
`commit_docs` (the same, then drive the session like an agent up to the first lesson: its
first lesson cites a project document nobody resolved, and once refused, the project-local
source the lesson work order carries; stop when the lesson is shown).
The script (what the "model" does) depends only on the conversation so far: it counts the
tool_use blocks already in `messages` and returns the next step. Requests without our tools
(title generation and other helper calls) get a short text reply. It stops itself after
300 s or 200 requests, whichever comes first.
"""

import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT_FILE, LOG_FILE = sys.argv[1], sys.argv[2]
SCENARIO = sys.argv[3] if len(sys.argv) > 3 else "promote"
SLUG = sys.argv[4] if len(sys.argv) > 4 else "e2e-pricing-refresh"
PREFIX = "mcp__dossier__"
if SCENARIO == "plugin":
    SCENARIO, PREFIX = "promote", "mcp__plugin_dossier_dossier__"
STATE = ("# E2E pricing refresh\n\n## Situation\n\nSales prefers annual commits. [src:art_e2e]\n\n"
         "## Decisions\n\n## Findings\n\n## Current State\n\nSaved from Claude Code.\n\n## Next Steps\n")


def tool_uses(messages):
    out = []
    for m in messages:
        if m.get("role") == "assistant" and isinstance(m.get("content"), list):
            out += [b for b in m["content"] if b.get("type") == "tool_use"]
    return out


def tool_results(messages):
    out = []
    for m in messages:
        if m.get("role") == "user" and isinstance(m.get("content"), list):
            for b in m["content"]:
                if b.get("type") == "tool_result":
                    c = b.get("content")
                    if isinstance(c, list):
                        c = "".join(x.get("text", "") for x in c if isinstance(x, dict))
                    out.append(str(c))
    return out


def cited_words(order):
    """Words of the first excerpt: a lesson's claims share content with the lines it cites."""
    import re
    text = order["evidence"]["excerpts"][0]["text"]
    return " ".join([w for w in re.split(r"[^A-Za-z0-9_]+", text) if len(w) > 3][:12])


def first_ref(order):
    return order["evidence"]["excerpts"][0]["evidence"]


def agent_result(order):
    """A valid worker result for a work order (the shapes of tests/codecall.rs `agent_result`)."""
    inp = order["input"]
    step = order["step"]
    if step == "concepts":
        derived = inp["derived_signals"]
        if not derived:
            return {"concepts": [], "signals": [], "excluded": ["formatting"]}
        concepts = []
        for i, d in enumerate(derived[:2]):
            c = d["concept"]
            evidence = d.get("evidence") or [first_ref(order)]
            concepts.append({
                "id": f"c{i}", "canonical_id": c, "label": c,
                "category": "concept" if i == 0 else "architecture_decision",
                "description": f"How this change handles {c}",
                "objective": f"Explain why the change needs {c}",
                "prerequisites": [] if i == 0 else ["c0"], "difficulty": 2, "novelty": 0.6,
                "implementation_relevance": 0.8, "evidence": evidence,
                "misconceptions": [f"{c} only matters under load"]})
        return {"concepts": concepts, "signals": [], "excluded": [], "disputed": []}
    if step == "lesson":
        unit = inp["unit"]
        return {"unit_id": unit["id"], "objective": unit["objective"], "what": f"What {unit['label']} is.",
                "why_here": "The change calls it on every request path shown in the excerpt ("
                            + cited_words(order) + ").",
                "failure_mode": "Without it the first transient error becomes a user-visible failure.",
                "connections": ["It feeds the next unit's decision about when to give up."],
                "misconceptions": ["That it only matters under heavy load."],
                "mental_model": "A gate that lets work through only when its precondition holds.",
                "minimal_example": {"language": "rust", "code": "fn gate(ok: bool) -> bool { ok }",
                                    "explanation": "The smallest gate."},
                "evidence": [first_ref(order)],
                "citations": [{"title": "General engineering knowledge", "kind": "model_knowledge"}],
                "assumptions": []}
    if step == "question":
        sub = dict(first_ref(order))
        sub["end_line"] = sub["start_line"]
        sub.pop("content_hash", None)
        label = inp["unit"]["label"]
        return {"id": inp["question_id"], "unit_id": inp["unit"]["id"],
                "prompt": f"In this change, what does {label} do after a failure (check {inp['question_id']})?",
                "choices": [
                    {"id": "a", "text": "It retries immediately without any delay between attempts",
                     "rationale": "Wrong: the code waits between attempts."},
                    {"id": "b", "text": "It waits longer after each failure so the server can recover",
                     "rationale": "Right: the delay doubles after each failure."},
                    {"id": "c", "text": "It gives up after the first timeout and reports the error",
                     "rationale": "Wrong: it tries several times."},
                    {"id": "d", "text": "It sends every attempt in parallel to reduce total latency",
                     "rationale": "Wrong: attempts are sequential."}],
                "correct_choice_id": "b", "evidence": [sub], "intent": inp["intent"]}
    if step == "evaluation":
        correct = inp["correct"]
        return {"question_id": inp["question"]["id"],
                "diagnosed_misconceptions": [] if correct else ["believes retries need no delay"],
                "rationale": "The delay doubles after each failure." if correct else "The chosen answer ignores the delay.",
                "feedback": "Right." if correct else "Look at how the delay changes between attempts."}
    raise ValueError(f"unknown step {step}")


def codecall_next(result, memo):
    """The agent's next call after a codecall tool result, or None when the session is over."""
    try:
        env = json.loads(result)
    except ValueError:
        return None
    call = lambda tool, args: (PREFIX + tool, args)
    if not env.get("ok"):
        if env.get("error", {}).get("code") == "invalid_worker_result" and memo.get("order"):
            order = memo["order"]
            return call("codecall_submit", {"session_id": order["session_id"], "checkpoint": order["id"],
                                            "result": agent_result(order)})
        return None
    data = env["data"]
    sid, n = data["session_id"], data["next"]
    kind = n["kind"]
    if kind == "work_order":
        memo["order"] = n
        result = agent_result(n)
        if n["step"] == "concepts" and not memo.get("bad_sent") and result["concepts"]:
            memo["bad_sent"] = True
            result = json.loads(json.dumps(result))
            result["concepts"][0]["difficulty"] = 9
        return call("codecall_submit", {"session_id": sid, "checkpoint": n["id"], "result": result})
    if kind == "decision":
        return call("codecall_answer", {"session_id": sid, "checkpoint": n["checkpoint"], "accept": True})
    if kind == "confidence":
        return call("codecall_answer", {"session_id": sid, "checkpoint": n["checkpoint"], "confidence": {}})
    if kind == "lesson":
        return call("codecall_answer", {"session_id": sid, "checkpoint": n["checkpoint"], "acknowledge": True})
    if kind == "question":
        # Answers name the display label the question shows the right choice under.
        right = next(c["id"] for c in n["choices"] if c["text"].startswith("It waits longer"))
        return call("codecall_answer", {"session_id": sid, "checkpoint": n["checkpoint"], "choice_id": right})
    return None


def results_by_call(messages):
    """Tool result text by our call index (tool_use ids are `toolu_<index>`)."""
    out = {}
    for m in messages:
        if m.get("role") == "user" and isinstance(m.get("content"), list):
            for b in m["content"]:
                if b.get("type") == "tool_result" and str(b.get("tool_use_id", "")).startswith("toolu_"):
                    c = b.get("content")
                    if isinstance(c, list):
                        c = "".join(x.get("text", "") for x in c if isinstance(x, dict))
                    try:
                        out[int(b["tool_use_id"][6:])] = str(c)
                    except ValueError:
                        pass
    return out


COMMITTED_CLIENT = (
    "use std::time::Duration;\n\npub async fn fetch(url: &str) -> Result<String, String> {\n"
    "    retry_with_backoff(url, 5, Duration::from_millis(100)).await\n}\n\n"
    "pub async fn retry_with_backoff(url: &str, attempts: u32, base: Duration) -> Result<String, String> {\n"
    "    let mut delay = base;\n    let mut last = String::new();\n    for _ in 0..attempts {\n"
    "        match send(url).await {\n            Ok(body) => return Ok(body),\n            Err(e) => last = e,\n"
    "        }\n        delay *= 2;\n    }\n    Err(last)\n}\n\n"
    "async fn send(url: &str) -> Result<String, String> {\n    Err(format!(\"unreachable {url}\"))\n}\n")


def cited_lesson(order, memo):
    """`commit_docs`'s lesson: first one citing a project document nobody resolved (refused with
    citation_not_resolved), then one citing the project-local source the work order carries
    (read from the order, never assumed)."""
    lesson = agent_result(order)
    if not memo.get("unresolved_sent"):
        memo["unresolved_sent"] = True
        lesson["citations"] = [{"title": "Retry notes", "kind": "project_docs",
                                "source_id": "project:docs/no-such-page.md"}]
        return lesson
    sources = order["input"]["documentation"]["sources"]
    local = next((x for x in sources if x["source_id"].startswith("project:")), None)
    if local is None:
        return lesson
    lesson["citations"] = [{"title": local["title"], "kind": "project_docs", "source_id": local["source_id"]}]
    return lesson


def commit_docs_next(result, memo):
    """`commit_docs`: the agent's next codecall call, or None once the lesson was accepted."""
    try:
        env = json.loads(result)
    except ValueError:
        return None
    call = lambda tool, args: (PREFIX + tool, args)
    order = memo.get("order")
    if not env.get("ok"):
        if env.get("error", {}).get("code") == "invalid_worker_result" and order and order["step"] == "lesson":
            return call("codecall_submit", {"session_id": order["session_id"], "checkpoint": order["id"],
                                            "result": cited_lesson(order, memo)})
        return None
    n = env["data"]["next"]
    if n["kind"] == "work_order" and n["step"] == "lesson":
        memo["order"] = n
        return call("codecall_submit", {"session_id": env["data"]["session_id"], "checkpoint": n["id"],
                                        "result": cited_lesson(n, memo)})
    if n["kind"] == "lesson":
        return None
    memo["bad_sent"] = True
    return codecall_next(result, memo)


def steps(results, by_call=None, codecall_asked=False):
    """The scripted sequence; later steps read earlier tool results."""
    if SCENARIO == "commit_docs":
        s = [("Write", {"file_path": f"{SLUG}/src/client.rs", "content": COMMITTED_CLIENT}),
             ("Bash", {"command": "git -c user.name=Agent -c user.email=agent@example.invalid "
                                  "-c commit.gpgsign=false commit -qam 'Retry with backoff'",
                       "description": "Commit the retry change"})]
        if codecall_asked:
            s += [("ToolSearch", {"query": f"select:{PREFIX}{t}"})
                  for t in ("codecall_start", "codecall_submit", "codecall_answer")]
            s.append((f"{PREFIX}codecall_start", {"repo": SLUG, "task": "Retry failed HTTP calls with backoff"}))
            memo = {}
            i = len(s) - 1
            while i in (by_call or {}) and len(s) < 60:
                nxt = commit_docs_next(by_call[i], memo)
                if nxt is None:
                    break
                s.append(nxt)
                i += 1
        return s
    if SCENARIO == "commit":
        s = [("Write", {"file_path": f"{SLUG}/src/client.rs", "content": COMMITTED_CLIENT}),
             ("Bash", {"command": "git -c user.name=Agent -c user.email=agent@example.invalid "
                                  "-c commit.gpgsign=false commit -qam 'Retry with backoff'",
                       "description": "Commit the retry change"})]
        if codecall_asked:
            s += [("ToolSearch", {"query": f"select:{PREFIX}codecall_start"}),
                  (f"{PREFIX}codecall_start", {"repo": SLUG, "task": "Retry failed HTTP calls with backoff"})]
        return s
    if SCENARIO == "codecall":
        slug, repo = SLUG.split(",", 1)
        s = [("ToolSearch", {"query": f"select:{PREFIX}{t}"})
             for t in ("dossier_session", "codecall_start", "codecall_submit", "codecall_answer")]
        s.append((f"{PREFIX}dossier_session", {"id": slug}))
        s.append((f"{PREFIX}codecall_start", {
            "repo": repo, "task": "Retry failed HTTP calls with exponential backoff", "save_summary": True}))
        memo = {}
        i = len(s) - 1
        while i in (by_call or {}) and len(s) < 120:
            nxt = codecall_next(by_call[i], memo)
            if nxt is None:
                break
            s.append(nxt)
            i += 1
        return s
    if SCENARIO == "merge":
        source, target = SLUG.split(",")
        s = [("ToolSearch", {"query": f"select:{PREFIX}dossier_merge"}),
             (f"{PREFIX}dossier_merge", {"source_id": source, "target_id": target})]
        ids, reviews = [], None
        for r in results:
            try:
                env = json.loads(r)
            except ValueError:
                continue
            details = env.get("error", {}).get("details", {})
            if details.get("review") and reviews is None:
                # The review round: the first pair is a contradiction, the others compatible.
                reviews = [{"conflict_id": item["conflict_id"],
                            "verdict": "contradiction" if n == 0 else "compatible",
                            "reason": "both cannot hold" if n == 0 else "both can hold: additive figures"}
                           for n, item in enumerate(details["review"])]
            ids = [c["id"] for c in details.get("conflicts", [])] or ids
        again = {"source_id": source, "target_id": target}
        if reviews is not None:
            again["reviews"] = reviews
            s.append((f"{PREFIX}dossier_merge", dict(again)))
        if ids:
            again["resolved_conflicts"] = [{"conflict_id": i, "choice": "keep_target"} for i in ids]
            s.append((f"{PREFIX}dossier_merge", again))
        return s
    if SCENARIO == "edit":
        path = f"{SLUG}/src/auth/oauth_middleware.rs"
        return [("Write", {"file_path": path,
                           "content": "pub struct OAuthMiddleware;\n\npub fn check(token: &str) -> bool {\n    !token.is_empty()\n}\n"}),
                ("Edit", {"file_path": path, "old_string": "    !token.is_empty()",
                          "new_string": "    token.starts_with(\"Bearer \")"}),
                ("Edit", {"file_path": f"{SLUG}/src/missing.rs", "old_string": "a", "new_string": "b"})]
    if SCENARIO == "bind":
        return [("ToolSearch", {"query": f"select:{PREFIX}dossier_session"}),
                (f"{PREFIX}dossier_session", {"id": SLUG})]
    rev = None
    for r in results:
        m = re.search(r'"revision"\s*:\s*"(rev_[0-9a-f]+)"', r)
        if m:
            rev = m.group(1)
    s = [("ToolSearch", {"query": f"select:{PREFIX}{t}"})
         for t in ("dossier_promote", "dossier_list", "dossier_session", "dossier_save")]
    s += [
        (f"{PREFIX}dossier_promote", {"name": "E2E pricing refresh",
                                           "session_content": "Sales prefers annual commits for enterprise."}),
        (f"{PREFIX}dossier_list", {}),
        (f"{PREFIX}dossier_session", {"id": SLUG}),
        (f"{PREFIX}dossier_save", {"id": SLUG, "base_revision": rev or "missing",
                                         "distilled_state_markdown": STATE}),
    ]
    return s


def sse(events):
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


def reply(content_blocks, stop_reason):
    msg = {"id": f"msg_{time.time_ns()}", "type": "message", "role": "assistant", "model": "claude-scripted",
           "content": [], "stop_reason": None, "stop_sequence": None,
           "usage": {"input_tokens": 10, "output_tokens": 1}}
    events = [{"type": "message_start", "message": msg}]
    for i, b in enumerate(content_blocks):
        if b["type"] == "text":
            events.append({"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}})
            events.append({"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": b["text"]}})
        else:
            events.append({"type": "content_block_start", "index": i,
                           "content_block": {"type": "tool_use", "id": b["id"], "name": b["name"], "input": {}}})
            events.append({"type": "content_block_delta", "index": i,
                           "delta": {"type": "input_json_delta", "partial_json": json.dumps(b["input"])}})
        events.append({"type": "content_block_stop", "index": i})
    events.append({"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                   "usage": {"output_tokens": 5}})
    events.append({"type": "message_stop"})
    return sse(events)


count = 0
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        global count
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        with lock:
            count += 1
            with open(LOG_FILE, "a") as f:
                f.write(body.decode("utf-8", "replace").replace("\n", " ") + "\n")
        if not self.path.startswith("/v1/messages") or self.path.startswith("/v1/messages/count_tokens"):
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"input_tokens": 10}')
            return
        req = json.loads(body or b"{}")
        names = {t.get("name") for t in req.get("tools", []) if isinstance(t, dict)}
        if SCENARIO in ("edit", "commit", "commit_docs"):
            scripted = "Write" in names
        else:
            scripted = "ToolSearch" in names or any(n and n.startswith(PREFIX) for n in names)
        if not scripted:
            out = reply([{"type": "text", "text": "E2E"}], "end_turn")
        else:
            done = len(tool_uses(req.get("messages", [])))
            msgs = req.get("messages", [])
            asked = "Call the `codecall_start` tool" in json.dumps(msgs)
            plan = steps(tool_results(msgs), results_by_call(msgs), asked)
            if done < len(plan):
                name, args = plan[done]
                out = reply([{"type": "tool_use", "id": f"toolu_{done:02d}", "name": name, "input": args}], "tool_use")
            else:
                out = reply([{"type": "text", "text": "All done."}], "end_turn")
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.end_headers()
        self.wfile.write(out)
        self.wfile.flush()


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(PORT_FILE, "w") as f:
    f.write(str(server.server_address[1]))
threading.Timer(300, server.shutdown).start()
server.serve_forever()

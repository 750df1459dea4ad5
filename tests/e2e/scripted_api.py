"""A scripted Anthropic Messages API on loopback, for driving the real Claude Code CLI offline.

Usage: python3 scripted_api.py <port-file> <log-file> [<scenario> <slug>]
Binds 127.0.0.1 on a free port (written to <port-file>), answers POST /v1/messages with a
text/event-stream reply, and appends every request body as one JSON line to <log-file>.

Scenarios: `promote` (the default: promote, list, bind, save), `bind` (load
dossier_session, bind <slug>, then answer in text: the hooks do the rest), `merge`
(<slug> is `<source>,<target>`: call dossier_merge, read the conflicts from the
conflict_detected result, call again resolving each with keep_target) and `edit` (<slug> is
the project directory: Write an OAuth middleware file, Edit it, then a failing Edit of a file
that does not exist; the codecall card test).
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


def steps(results):
    """The scripted sequence; later steps read earlier tool results."""
    if SCENARIO == "merge":
        source, target = SLUG.split(",")
        s = [("ToolSearch", {"query": "select:mcp__dossier__dossier_merge"}),
             ("mcp__dossier__dossier_merge", {"source_id": source, "target_id": target})]
        ids = []
        for r in results:
            try:
                env = json.loads(r)
            except ValueError:
                continue
            ids = [c["id"] for c in env.get("error", {}).get("details", {}).get("conflicts", [])] or ids
        if ids:
            s.append(("mcp__dossier__dossier_merge", {
                "source_id": source, "target_id": target,
                "resolved_conflicts": [{"conflict_id": i, "choice": "keep_target"} for i in ids]}))
        return s
    if SCENARIO == "edit":
        path = f"{SLUG}/src/auth/oauth_middleware.rs"
        return [("Write", {"file_path": path,
                           "content": "pub struct OAuthMiddleware;\n\npub fn check(token: &str) -> bool {\n    !token.is_empty()\n}\n"}),
                ("Edit", {"file_path": path, "old_string": "    !token.is_empty()",
                          "new_string": "    token.starts_with(\"Bearer \")"}),
                ("Edit", {"file_path": f"{SLUG}/src/missing.rs", "old_string": "a", "new_string": "b"})]
    if SCENARIO == "bind":
        return [("ToolSearch", {"query": "select:mcp__dossier__dossier_session"}),
                ("mcp__dossier__dossier_session", {"id": SLUG})]
    rev = None
    for r in results:
        m = re.search(r'"revision"\s*:\s*"(rev_[0-9a-f]+)"', r)
        if m:
            rev = m.group(1)
    s = [("ToolSearch", {"query": f"select:mcp__dossier__{t}"})
         for t in ("dossier_promote", "dossier_list", "dossier_session", "dossier_save")]
    s += [
        ("mcp__dossier__dossier_promote", {"name": "E2E pricing refresh",
                                           "session_content": "Sales prefers annual commits for enterprise."}),
        ("mcp__dossier__dossier_list", {}),
        ("mcp__dossier__dossier_session", {"id": SLUG}),
        ("mcp__dossier__dossier_save", {"id": SLUG, "base_revision": rev or "missing",
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
        if SCENARIO == "edit":
            scripted = "Write" in names
        else:
            scripted = "ToolSearch" in names or any(n and n.startswith("mcp__dossier__") for n in names)
        if not scripted:
            out = reply([{"type": "text", "text": "E2E"}], "end_turn")
        else:
            done = len(tool_uses(req.get("messages", [])))
            plan = steps(tool_results(req.get("messages", [])))
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

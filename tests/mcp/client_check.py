"""Drives `dossier mcp` through the official Python MCP SDK over stdio.

Run by tests/mcp.rs as `python3 tests/mcp/client_check.py <dossier-binary> <store-dir>`, and
with a third argument `context-only` for SPEC §5.1 without a session id (`context_only_checks`),
or `reply-cap` for replies under the 48 KB cap on large states (`reply_cap_checks`).
Exits non-zero (with the failed assertion) if any check fails. Checks: the nine Dossier tools
and codecall's five are listed with schemas; each tool answers with the SPEC envelope; error
codes; bad parameters are the invalid_input envelope naming the field, nothing written, and the
server keeps serving; results stay under 48 KB; the `codecall` prompt; a codecall session
started, a rejected result, cancel.
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

TOOLS = {
    "dossier_list", "dossier_recall", "dossier_search", "dossier_save", "dossier_update",
    "dossier_promote", "dossier_link", "dossier_session", "dossier_merge",
    "codecall_start", "codecall_submit", "codecall_answer", "codecall_cancel", "codecall_resume",
}
CAP = 48 * 1024


def envelope(result):
    assert result.content, "a text rendering is present"
    text = result.content[0].text
    assert len(text.encode()) < CAP, f"result of {len(text)} bytes exceeds the 48 KB cap"
    env = result.structured_content if getattr(result, "structured_content", None) else json.loads(text)
    assert set(env) >= {"ok", "warnings", "next_actions"}, env
    assert ("data" in env) if env["ok"] else ("error" in env), env
    if not env["ok"]:
        # Issue 18 defect 13: an MCP error's next steps are tool calls or words, never CLI
        # commands; every invalid_input says which field or parameter and what was expected.
        assert not any(a.startswith("dossier ") for a in env["next_actions"]), env["next_actions"]
        if env["error"]["code"] == "invalid_input":
            d = env["error"].get("details") or {}
            assert "field" in d or "parameter" in d, env["error"]
    return env


async def main(binary, store):
    env = dict(os.environ, DOSSIER_HOME=store, CLAUDE_CODE_SESSION_ID="sess-test-1")
    params = StdioServerParameters(command=binary, args=["mcp"], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            names = {t.name for t in tools.tools}
            assert names == TOOLS, names
            schemas = json.dumps([t.input_schema if hasattr(t, "input_schema") else t.inputSchema for t in tools.tools])
            print(f"tool schemas: {len(schemas)} bytes", file=sys.stderr)

            call = session.call_tool
            e = envelope(await call("dossier_promote", {"name": "Pricing model refresh",
                                                        "session_content": "Sales prefers annual commits."}))
            assert e["ok"], e
            slug = e["data"]["slug"]
            assert any(w.startswith("transcript_unavailable") for w in e["warnings"]), e["warnings"]

            e = envelope(await call("dossier_promote", {"name": "Pricing model refresh"}))
            assert not e["ok"] and e["error"]["code"] == "ambiguous_target", e
            assert e["error"]["details"]["candidates"][0]["slug"] == slug

            e = envelope(await call("dossier_list", {}))
            assert e["ok"] and e["data"]["dossiers"][0]["slug"] == slug, e
            item = e["data"]["dossiers"][0]
            for key in ("id", "name", "status", "staleness_days", "priority_score", "path", "warnings"):
                assert key in item, key
            # SPEC §7.2/§8.3: inside a Claude Code session without hooks, every item carries the
            # capability warnings; include_warnings: false leaves them out.
            assert any("Transcript archive is unavailable" in w for w in item["warnings"]), item
            e = envelope(await call("dossier_list", {"include_warnings": False}))
            assert e["ok"] and e["data"]["dossiers"][0]["warnings"] == [], e
            e = envelope(await call("dossier_list", {"include_warnings": True}))
            assert e["data"]["dossiers"][0]["warnings"] == item["warnings"], e

            e = envelope(await call("dossier_session", {"id": slug}))
            assert e["ok"], e
            assert e["data"]["binding"]["session_id"] == "sess-test-1"
            assert "Distillation Guide" in e["data"]["guide"]
            assert e["data"]["distilled_state"].startswith("---\n")
            rev = e["data"]["revision"]
            assert os.path.isfile(os.path.join(store, "sessions", "sess-test-1.json"))

            e = envelope(await call("dossier_session", {}))
            assert e["data"]["binding"]["dossier_id"], e

            state = "# Pricing model refresh\n\n## Situation\n\nAnnual commits. [src:art_x]\n\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n"
            e = envelope(await call("dossier_save", {"id": slug, "base_revision": rev, "distilled_state_markdown": state,
                                                     "artifacts": [{"type": "decision_evidence", "title": "Call notes",
                                                                    "content_format": "markdown", "content": "notes"}]}))
            assert e["ok"], e
            new_rev = e["data"]["revision"]
            assert len(e["data"]["artifacts_added"]) == 1

            e = envelope(await call("dossier_save", {"id": slug, "base_revision": rev, "distilled_state_markdown": state + "x\n"}))
            assert not e["ok"] and e["error"]["code"] == "concurrent_edit", e
            assert os.path.isfile(e["error"]["details"]["conflict_path"])

            e = envelope(await call("dossier_update", {"id": slug, "next_action": "Call Sales", "importance": "high", "urgency": "high"}))
            assert e["ok"], e
            e = envelope(await call("dossier_update", {"id": slug}))
            assert e["error"]["code"] == "invalid_input", e

            e = envelope(await call("dossier_recall", {"id": slug}))
            assert e["ok"] and "Annual commits." in e["data"]["content"], e
            assert e["data"]["page_count"] == 1

            # A state over one page: the next step is the next page, as a tool call.
            e = envelope(await call("dossier_promote", {"name": "Paged ledger", "create": True}))
            big_slug = e["data"]["slug"]
            big = "# Paged ledger\n\n## Situation\n\n" + "".join(
                f"- Ledger line {i} about warehouse pallets and forklifts.\n" for i in range(2000)) + \
                "\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n"
            e = envelope(await call("dossier_save", {"id": big_slug, "base_revision": e["data"]["revision"],
                                                     "distilled_state_markdown": big}))
            assert e["ok"], e
            e = envelope(await call("dossier_recall", {"id": big_slug}))
            assert e["ok"] and e["data"]["page_count"] > 1, e["data"]["page_count"]
            assert e["next_actions"][0] == f"call dossier_recall id={big_slug} page=2 (page 1 of {e['data']['page_count']})", e["next_actions"]
            assert not any(a.startswith("dossier ") for a in e["next_actions"]), e["next_actions"]

            # Over its target, a paged recall says the state is delivered in pages (SPEC §14.2),
            # not "returned whole", and gives the steps back under the target.
            ledger = os.path.join(store, big_slug, "dossier.md")
            with open(ledger) as f:
                text = f.read()
            with open(ledger, "w") as f:
                f.write(text.replace("importance:", "token_target: 1000\nimportance:", 1))
            e = envelope(await call("dossier_recall", {"id": big_slug}))
            n = e["data"]["page_count"]
            assert e["ok"] and e["data"]["over_token_target"], e["data"]["over_token_target"]
            w = [x for x in e["warnings"] if x.startswith("over_token_target:")]
            assert len(w) == 1 and f"delivered in {n} pages of at most 40,000 bytes (page 1 of {n})" in w[0], e["warnings"]
            assert "returned whole" not in w[0] and "never truncated" in w[0], w
            assert any(a.startswith(f"distill {big_slug}") for a in e["next_actions"]), e["next_actions"]
            assert any("raise token_target" in a for a in e["next_actions"]), e["next_actions"]
            # Re-saving it unchanged writes nothing and still says it is over target (SPEC §11.4).
            e = envelope(await call("dossier_save", {"id": big_slug, "base_revision": e["data"]["revision"],
                                                     "distilled_state_markdown": big}))
            assert e["ok"], e
            assert any(x.startswith("nothing changed") for x in e["warnings"]), e["warnings"]
            assert any(x.startswith("over_token_target:") for x in e["warnings"]), e["warnings"]
            assert any(a.startswith(f"distill {big_slug}") for a in e["next_actions"]), e["next_actions"]

            e = envelope(await call("dossier_search", {"query": "annual"}))
            assert e["ok"] and e["data"]["total_hits"] >= 2, e

            e = envelope(await call("dossier_link", {"session_content": "annual commits pricing model with sales"}))
            assert e["ok"] and e["data"]["requires_selection"] is True, e
            assert e["data"]["candidates"][0]["slug"] == slug
            e = envelope(await call("dossier_link", {"id": slug, "session_content": "more notes"}))
            assert e["ok"] and e["data"]["event"] == "link", e

            e = envelope(await call("dossier_recall", {"id": "no-such-dossier"}))
            assert e["error"]["code"] == "not_found", e
            all_statuses = 'status=["active","waiting","blocked","resolved","archived"]'
            assert e["next_actions"] == [f"call dossier_list {all_statuses}",
                                         'call dossier_search query="no-such-dossier"'], e["next_actions"]
            e = envelope(await call("dossier_merge", {"source_id": "a", "target_id": "b"}))
            assert e["error"]["code"] == "not_found", e
            assert e["next_actions"][0] == f"call dossier_list {all_statuses}", e["next_actions"]
            await error_detail_checks(session, slug)

            await bad_parameter_checks(session, store, slug)
            e = envelope(await call("dossier_list", {}))
            assert e["ok"], "server still serving after malformed calls"

            # Unknown tool: an error, and the server keeps serving.
            try:
                r = await call("dossier_delete", {"id": slug})
                assert getattr(r, "is_error", getattr(r, "isError", False)), r
            except Exception as exc:
                print(f"unknown tool rejected: {exc}", file=sys.stderr)

            # Switching saves the current Dossier first when its state is given.
            e = envelope(await call("dossier_promote", {"name": "Hiring loop", "create": True}))
            other = e["data"]["slug"]
            # SPEC §5: a promoted Dossier is offered to this session (issue 18, defect 15).
            assert e["next_actions"][0] == f"call dossier_session id={other}", e["next_actions"]
            cur = envelope(await call("dossier_recall", {"id": slug}))["data"]["revision"]
            e = envelope(await call("dossier_session", {"id": other, "current_base_revision": cur,
                                                        "current_distilled_state_markdown": state + "Saved on switch.\n"}))
            assert e["ok"] and e["data"]["saved_previous"]["slug"] == slug, e
            assert "Saved on switch." in envelope(await call("dossier_recall", {"id": slug}))["data"]["content"]
            assert envelope(await call("dossier_session", {}))["data"]["binding"]["dossier_id"] == e["data"]["binding"]["dossier_id"]

            e = envelope(await call("dossier_session", {"clear": True}))
            assert e["ok"] and e["data"]["binding"]["dossier_id"] is None, e

            # Merge: contradictory decisions. This client speaks no multi-round-trip forms, so
            # the conflicts come back as conflict_detected; resolutions complete the merge.
            async def topic(name, decision):
                e = envelope(await call("dossier_promote", {"name": name, "create": True}))
                s = e["data"]["slug"]
                r = envelope(await call("dossier_recall", {"id": s}))["data"]["revision"]
                body = (f"# {name}\n\n## Situation\n\nQueue design.\n\n## Decisions\n\n- {decision} "
                        "Decided by Ana. [src:art_x]\n\n## Findings\n\n## Current State\n\n## Next Steps\n\n- Ship.\n")
                e = envelope(await call("dossier_save", {"id": s, "base_revision": r, "distilled_state_markdown": body}))
                assert e["ok"], e
                return s
            target = await topic("Queue store", "Use Postgres for the job queue because we need transactions.")
            source = await topic("Queue notes", "Use Redis for the job queue because latency matters most.")
            e = envelope(await call("dossier_merge", {"source_id": source, "target_id": target}))
            assert not e["ok"] and e["error"]["code"] == "conflict_detected", e
            conflicts = e["error"]["details"]["conflicts"]
            assert any(c["kind"] == "contradictory_decision" for c in conflicts), conflicts
            for c in conflicts:
                assert os.path.isfile(c["path"]), c
            resolved = [{"conflict_id": c["id"], "choice": "keep_target"} for c in conflicts]
            e = envelope(await call("dossier_merge", {"source_id": source, "target_id": target,
                                                      "resolved_conflicts": resolved}))
            assert e["ok"] and e["data"]["target_slug"] == target, e
            assert sorted(e["data"]["conflicts_resolved"]) == sorted(c["id"] for c in conflicts), e
            # Next steps are tool calls here, never CLI commands (ops::Next rendered for MCP).
            assert e["next_actions"] == [f"call dossier_recall id={target}"], e["next_actions"]
            content = envelope(await call("dossier_recall", {"id": target}))["data"]["content"]
            assert "Postgres" in content and "Redis" not in content, content

            await codecall_checks(session)
    print("mcp client checks passed")


def refused(e, field, expected=None, hint=None):
    """`e` is the invalid_input envelope naming `field` (details.field, details.expected) and,
    when given, the nearest valid name."""
    assert not e["ok"] and e["error"]["code"] == "invalid_input", e
    d = e["error"]["details"]
    assert d["field"] == field, d
    assert d["expected"], d
    if expected:
        assert expected in d["expected"], d
    assert f"`{field}`" in e["error"]["message"], e["error"]["message"]
    if hint:
        assert d["did_you_mean"] == hint, d
        assert f"did you mean `{hint}`?" in e["error"]["message"], e["error"]["message"]
    assert e["next_actions"], e


async def bad_parameter_checks(session, store, slug):
    """Bad parameters (issue 18, defects 2 and 13): unknown fields at every level, wrong types
    and missing required fields come back as the invalid_input envelope naming the field and
    what was expected (and the nearest valid name), never as plain text; nothing is written."""
    call = session.call_tool
    files = [os.path.join(store, slug, "dossier.md"), os.path.join(store, slug, "audit.log"),
             os.path.join(store, "sessions", "sess-test-1.json")]
    snapshot = lambda: [open(f, "rb").read() if os.path.exists(f) else None for f in files]
    before_files = snapshot()
    rev = envelope(await call("dossier_recall", {"id": slug}))["data"]["revision"]

    e = envelope(await call("dossier_save", {"id": slug, "base_revision": rev,
                                             "frontmatter_updates": {"next_actoin": "x"}}))
    refused(e, "frontmatter_updates.next_actoin", "next_action", hint="next_action")
    e = envelope(await call("dossier_save", {"id": slug, "base_revision": rev,
                                             "frontmatter_updates": {"next_action": "x"}, "extra_key": 1}))
    refused(e, "extra_key", "base_revision")
    e = envelope(await call("dossier_save", {"id": slug, "base_revision": rev, "artifacts": [
        {"type": "decision_evidence", "titel": "t", "content_format": "markdown", "content": "c"}]}))
    refused(e, "artifacts[0].titel", hint="title")
    e = envelope(await call("dossier_save", {"id": slug, "base_revision": rev, "artifacts": [
        {"type": "decision_evidence", "title": "t", "content_format": "markdown", "content": "c",
         "provenance": {"origin": "o", "uri": "x"}}]}))
    refused(e, "artifacts[0].provenance.uri", hint="url")
    e = envelope(await call("dossier_session", {"sesion_id": "sess-other", "id": slug}))
    refused(e, "sesion_id", hint="session_id")
    assert not os.path.exists(os.path.join(store, "sessions", "sess-other.json"))
    # Wrong types and missing required fields.
    e = envelope(await call("dossier_recall", {"id": slug, "page": "not a number"}))
    refused(e, "page", "integer")
    e = envelope(await call("dossier_recall", {"page": 1}))
    refused(e, "id", "string")
    e = envelope(await call("dossier_update", {"id": slug, "importance": "hgh"}))
    refused(e, "importance", "high")
    e = envelope(await call("dossier_save", {"id": slug, "base_revision": rev,
                                             "frontmatter_updates": {"open_questions": "one"}}))
    refused(e, "frontmatter_updates.open_questions", "array")
    e = envelope(await call("dossier_merge", {"source_id": "a", "target_id": "b",
                                              "resolved_conflicts": [{"conflict_id": "c", "choise": "keep_target"}]}))
    refused(e, "resolved_conflicts[0].choise", hint="choice")

    after = envelope(await call("dossier_recall", {"id": slug}))["data"]["revision"]
    assert after == rev, (rev, after)
    assert snapshot() == before_files, "a refused call wrote something"


def grouped(e, slug, kind="distill warning missing-provenance", keep=3):
    """The repeated `kind` findings of `e` are grouped: the first `keep` with their lines, then
    one line with the count of the rest and the tool call that shows them all."""
    lines = [w for w in e["warnings"] if w.startswith(kind + " line ")]
    assert len(lines) == keep, e["warnings"][:10]
    more = [w for w in e["warnings"] if w.startswith("… and ") and f"more `{kind}` findings" in w]
    assert len(more) == 1, e["warnings"][:10]
    assert f"call dossier_recall id={slug}" in more[0], more[0]
    assert "dossier doctor" not in more[0], more[0]
    return int(more[0].split()[2])


async def reply_cap_main(binary, store):
    """The reply-cap checks on their own server (`reply-cap` mode, test spec_8_2_replies_stay_under_the_cap)."""
    env = dict(os.environ, DOSSIER_HOME=store, CLAUDE_CODE_SESSION_ID="sess-cap")
    params = StdioServerParameters(command=binary, args=["mcp"], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await reply_cap_checks(session)
    print("mcp reply cap checks passed")


async def reply_cap_checks(session):
    """Issue 18, defect 4: every reply stays under the 48 KB cap (`envelope` asserts it): a
    save with 300 uncited claims groups its findings; a 500 KB state's save, recall and search
    stay under the cap and say how to get the rest."""
    call = session.call_tool
    e = envelope(await call("dossier_promote", {"name": "Vendor quotes", "create": True}))
    slug, rev = e["data"]["slug"], e["data"]["revision"]
    claims = "".join(f"- The vendor quoted {i} dollars per seat for tier {i}.\n" for i in range(300))
    body = ("# Vendor quotes\n\n## Situation\n\nQuotes.\n\n## Decisions\n\n## Findings\n\n" + claims +
            "\n## Current State\n\n## Next Steps\n\n- Ship.\n")
    assert 5_000 < len(body) < 20_000, len(body)
    e = envelope(await call("dossier_save", {"id": slug, "base_revision": rev, "distilled_state_markdown": body}))
    assert e["ok"], e
    assert grouped(e, slug) == 297, e["warnings"]

    e = envelope(await call("dossier_promote", {"name": "Warehouse ledger", "create": True}))
    slug, rev = e["data"]["slug"], e["data"]["revision"]
    claims = "".join(f"- Pallet {i} moved to bay {i % 50} at a cost of {i} dollars.\n" for i in range(9000))
    big = ("# Warehouse ledger\n\n## Situation\n\nLedger.\n\n## Decisions\n\n## Findings\n\n" + claims +
           "\n## Current State\n\n## Next Steps\n\n- Ship.\n")
    assert len(big) > 500_000, len(big)
    e = envelope(await call("dossier_save", {"id": slug, "base_revision": rev, "distilled_state_markdown": big}))
    assert e["ok"], e
    assert grouped(e, slug) == 9000 - 3, e["warnings"][:6]
    assert any(x.startswith("over_token_target:") for x in e["warnings"]), e["warnings"]
    e = envelope(await call("dossier_recall", {"id": slug}))
    n = e["data"]["page_count"]
    assert n > 10 and e["next_actions"][0] == f"call dossier_recall id={slug} page=2 (page 1 of {n})", e["next_actions"]
    e = envelope(await call("dossier_recall", {"id": slug, "page": n}))
    assert e["ok"] and "- Ship." in e["data"]["content"], e["data"]["page"]
    e = envelope(await call("dossier_search", {"query": "pallet", "dossier": slug, "limit": 5000, "literal": True}))
    assert e["ok"] and e["data"]["total_hits"] >= 9000, e["data"]["total_hits"]
    shown = sum(len(r["hits"]) for r in e["data"]["results"])
    assert shown < 5000, shown
    cut = [w for w in e["warnings"] if w.startswith("reply_capped:")]
    assert len(cut) == 1 and f"{shown} of" in cut[0] and "limit" in cut[0], e["warnings"]
    e = envelope(await call("dossier_list", {"limit": 100000}))
    assert e["ok"], e


async def error_detail_checks(session, slug):
    """Issue 18 defect 13 (a, c): invalid_input errors name the field or parameter and what was
    expected; their next steps are tool calls (`envelope` checks no CLI command is suggested)."""
    call = session.call_tool
    e = envelope(await call("dossier_update", {"id": slug}))
    assert e["error"]["code"] == "invalid_input" and e["error"]["details"]["field"] is None, e
    assert "next_action" in e["error"]["details"]["expected"], e["error"]
    e = envelope(await call("dossier_recall", {"id": slug, "page": 99}))
    d = e["error"]["details"]
    assert e["error"]["code"] == "invalid_input" and d["parameter"] == "page" and d["expected"] == "1 to 1", e
    assert e["next_actions"] == [f"call dossier_recall id={slug} page=1"], e["next_actions"]
    e = envelope(await call("dossier_search", {"query": ""}))
    assert e["error"]["details"]["field"] == "query", e
    e = envelope(await call("dossier_search", {"query": "(", "regex": True}))
    assert e["error"]["details"]["field"] == "query", e
    assert e["next_actions"] == ["call dossier_search again with regex=false to search for the literal text"], e
    e = envelope(await call("dossier_promote", {"name": "  "}))
    assert e["error"]["details"]["field"] == "name", e
    e = envelope(await call("dossier_save", {"id": "../etc", "base_revision": "r"}))
    assert e["error"]["code"] == "invalid_input" and e["error"]["details"]["field"] == "target", e
    e = envelope(await call("dossier_link", {}))
    assert e["error"]["details"]["field"] == "session_content", e


def retry_repo():
    """A git repository whose uncommitted change adds retries with exponential backoff."""
    repo = tempfile.mkdtemp()
    git = lambda *a: subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid",
                                     "-c", "commit.gpgsign=false", *a], cwd=repo, check=True, capture_output=True)
    os.makedirs(os.path.join(repo, "src"))
    path = os.path.join(repo, "src", "client.rs")
    with open(path, "w") as f:
        f.write("pub async fn fetch(url: &str) -> Result<String, String> {\n    send(url).await\n}\n")
    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    with open(path, "w") as f:
        f.write("pub async fn fetch(url: &str) -> Result<String, String> {\n"
                "    retry_with_backoff(url, 5).await\n}\n\n"
                "pub async fn retry_with_backoff(url: &str, attempts: u32) -> Result<String, String> {\n"
                "    let mut delay = 100;\n    for _ in 0..attempts {\n"
                "        if let Ok(b) = send(url).await { return Ok(b); }\n"
                "        sleep(delay).await;\n        delay *= 2;\n    }\n    Err(url.into())\n}\n")
    return repo


async def codecall_checks(session):
    """codecall through MCP with a client that speaks no forms: the prompt, a start, a
    rejected result with its exact errors and the tool to call, a malformed answer, cancel."""
    call = session.call_tool
    prompts = await session.list_prompts()
    assert "codecall" in {p.name for p in prompts.prompts}, prompts
    p = await session.get_prompt("codecall", {"about": "the retry change"})
    text = p.messages[0].content.text
    assert "codecall_start" in text and "the retry change" in text and "---" not in text.splitlines()[0], text

    e = envelope(await call("codecall_start", {"repo": retry_repo(), "task": "Retry with backoff"}))
    assert e["ok"], e
    sid, n = e["data"]["session_id"], e["data"]["next"]
    assert n["kind"] == "work_order" and n["step"] == "concepts", n
    assert n["result_schema"] and n["template"]["text"], n
    assert any("codecall_submit session_id=" + sid in a for a in e["next_actions"]), e["next_actions"]
    assert os.path.isfile(e["data"]["log"]), e["data"]["log"]
    assert all(" " in ev and ev.split()[1].isupper() for ev in e["data"]["events"]), e["data"]["events"]

    e = envelope(await call("codecall_submit", {"session_id": sid, "checkpoint": n["id"],
                                                "result": {"concepts": "not a list"}}))
    assert not e["ok"] and e["error"]["code"] == "invalid_worker_result", e
    assert e["error"]["details"]["errors"], e
    assert any("codecall_submit" in a for a in e["next_actions"]), e["next_actions"]
    assert all(x["path"] for x in e["error"]["details"]["errors"]), e

    # Issue 21: the second rejection warns; the third hands the session to the user's decision,
    # and the next actions name what works then (no more codecall_submit).
    e = envelope(await call("codecall_submit", {"session_id": sid, "checkpoint": n["id"],
                                                "result": {"concepts": "still not a list"}}))
    assert "one more rejection" in e["error"]["message"], e
    e = envelope(await call("codecall_submit", {"session_id": sid, "checkpoint": n["id"],
                                                "result": {"concepts": "never a list"}}))
    assert not e["ok"] and e["error"]["details"]["state"] == "waiting_for_decision", e
    assert "waits for the user's decision" in e["error"]["message"], e
    assert not any("codecall_submit" in a for a in e["next_actions"]), e["next_actions"]
    assert any("codecall_answer session_id=" + sid in a for a in e["next_actions"]), e["next_actions"]

    e = envelope(await call("codecall_answer", {"session_id": sid, "checkpoint": "gate-1",
                                                "accept": True, "choice_id": "a"}))
    assert not e["ok"] and e["error"]["code"] == "invalid_input", e

    e = envelope(await call("codecall_cancel", {"session_id": sid, "nte": "later"}))
    refused(e, "nte", hint="note")
    e = envelope(await call("codecall_answer", {"session_id": sid, "checkpoint": "gate-1", "accept": "yes"}))
    refused(e, "accept", "boolean")
    e = envelope(await call("codecall_cancel", {"session_id": sid, "note": "later"}))
    assert e["ok"] and e["data"]["state"] == "cancelled" and e["data"]["next"]["kind"] == "cancelled", e

    e = envelope(await call("codecall_resume", {"session_id": "lrn_00000000000000000000000000"}))
    assert not e["ok"] and e["error"]["code"] == "unknown_session", e
    assert e["next_actions"] == ["codecall_start"], e


CONTEXT_ONLY = "lives only in this conversation's context"


async def context_only_checks(binary, store):
    """SPEC §5.1: with no CLAUDE_CODE_SESSION_ID and no `session_id`, dossier_session reports,
    binds (switching saves the previous Dossier first) and clears with the binding held in
    context only, a warning saying so on each answer, and nothing written under sessions/."""
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_CODE_SESSION_ID"}
    env["DOSSIER_HOME"] = store
    params = StdioServerParameters(command=binary, args=["mcp"], env=env)
    sessions = os.path.join(store, "sessions")
    before = sorted(os.listdir(sessions)) if os.path.isdir(sessions) else []

    def context_only(e):
        assert e["ok"], e
        assert any(CONTEXT_ONLY in w for w in e["warnings"]), e["warnings"]
        assert any("session_id" in w for w in e["warnings"]), e["warnings"]
        now = sorted(os.listdir(sessions)) if os.path.isdir(sessions) else []
        assert now == before, f"written under sessions/: {now}"
        return e

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            call = session.call_tool
            first = envelope(await call("dossier_promote", {"name": "Kitchen renovation", "create": True}))["data"]
            second = envelope(await call("dossier_promote", {"name": "Quantum chip tapeout", "create": True}))["data"]

            e = context_only(envelope(await call("dossier_session", {})))
            assert e["data"]["binding"] is None, e
            assert any("dossier_list" in a for a in e["next_actions"]), e["next_actions"]

            e = context_only(envelope(await call("dossier_session", {"id": first["slug"]})))
            b = e["data"]["binding"]
            assert b["dossier_id"] == first["id"] and b["session_id"] == "", b
            assert b["last_seen_revision"] == e["data"]["revision"], e
            assert "Distillation Guide" in e["data"]["guide"]
            assert e["data"]["distilled_state"].startswith("---\n"), e
            rev = e["data"]["revision"]

            e = context_only(envelope(await call("dossier_session", {})))
            assert e["data"]["binding"]["dossier_id"] == first["id"], e

            # A switch saves the Dossier bound in context first (SPEC §5.2 step 1).
            state = ("# Kitchen renovation\n\n## Situation\n\nCabinets ordered.\n\n## Decisions\n\n"
                     "## Findings\n\n## Current State\n\n## Next Steps\n")
            e = context_only(envelope(await call("dossier_session", {
                "id": second["slug"], "current_base_revision": rev, "current_distilled_state_markdown": state})))
            assert e["data"]["binding"]["dossier_id"] == second["id"], e
            assert e["data"]["saved_previous"]["slug"] == first["slug"], e
            recalled = envelope(await call("dossier_recall", {"id": first["slug"]}))["data"]["content"]
            assert "Cabinets ordered." in recalled, recalled

            e = context_only(envelope(await call("dossier_session", {"clear": True})))
            assert e["data"]["binding"]["dossier_id"] is None, e
            e = context_only(envelope(await call("dossier_session", {})))
            assert e["data"]["binding"]["dossier_id"] is None, e

            # An explicit session_id still persists the binding.
            e = envelope(await call("dossier_session", {"session_id": "sess-explicit", "id": first["slug"]}))
            assert e["ok"] and not any(CONTEXT_ONLY in w for w in e["warnings"]), e
            assert os.path.isfile(os.path.join(sessions, "sess-explicit.json"))
    print("mcp context-only session checks passed")


async def dead_binding_checks(binary, store):
    """A binding whose Dossier folder was removed by hand: dossier_session reports it (ok, the
    binding as stored) with a warning naming the Dossier and next actions to bind another or
    clear; clearing works."""
    env = dict(os.environ, DOSSIER_HOME=store, CLAUDE_CODE_SESSION_ID="sess-dead")
    params = StdioServerParameters(command=binary, args=["mcp"], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            call = session.call_tool
            gone = envelope(await call("dossier_promote", {"name": "Gone topic", "create": True}))["data"]
            envelope(await call("dossier_promote", {"name": "Kept topic", "create": True}))
            e = envelope(await call("dossier_session", {"id": gone["slug"]}))
            assert e["ok"], e
            e = envelope(await call("dossier_session", {}))
            assert e["ok"] and not any("no longer exists" in w for w in e["warnings"]), e
            import shutil
            shutil.rmtree(os.path.join(store, gone["slug"]))
            e = envelope(await call("dossier_session", {}))
            assert e["ok"], e
            assert e["data"]["binding"]["dossier_id"] == gone["id"], e
            dead = [w for w in e["warnings"] if "no longer exists" in w]
            assert dead, e["warnings"]
            assert "Gone topic" in dead[0] and gone["id"] in dead[0], dead
            assert any("dossier_list" in a for a in e["next_actions"]), e["next_actions"]
            assert any("clear" in a for a in e["next_actions"]), e["next_actions"]
            e = envelope(await call("dossier_session", {"clear": True}))
            assert e["ok"] and e["data"]["binding"]["dossier_id"] is None, e
            e = envelope(await call("dossier_session", {}))
            assert not any("no longer exists" in w for w in e["warnings"]), e
    print("mcp dead binding checks passed")


async def list_warning_checks(binary, store):
    """SPEC §7.2/§8.3: dossier_list inside a Claude Code session (its session variable set, no
    hooks installed in HOME) gives every item the capability warnings; `include_warnings: false`
    leaves them out; outside a session there are none; a non-boolean is refused."""
    async def items(env, args):
        params = StdioServerParameters(command=binary, args=["mcp"], env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                e = envelope(await session.call_tool("dossier_promote", {"name": "Kitchen renovation", "create": True}))
                return [envelope(await session.call_tool("dossier_list", a)) for a in args]

    base = {k: v for k, v in os.environ.items() if k != "CLAUDE_CODE_SESSION_ID"}
    base["DOSSIER_HOME"] = store
    inside, off, bad = await items(dict(base, CLAUDE_CODE_SESSION_ID="sess-list"),
                                   [{}, {"include_warnings": False}, {"include_warnings": "yes"}])
    w = inside["data"]["dossiers"][0]["warnings"]
    assert any("Transcript archive is unavailable" in x for x in w), inside
    assert any("save backstops" in x for x in w), inside
    assert off["data"]["dossiers"][0]["warnings"] == [], off
    assert not bad["ok"] and bad["error"]["code"] == "invalid_input", bad
    (outside,) = await items(base, [{"include_warnings": True}])
    assert all(d["warnings"] == [] for d in outside["data"]["dossiers"]), outside
    print("mcp list warning checks passed")


async def ranked_search_checks(binary, store):
    """Issue 22: dossier_search ranks by default (Dossiers best first, marked snippets),
    pages with offset and a next_actions step, refuses an unknown filter naming the valid
    ones, stays under the cap, and keeps exact lines with literal=true."""
    env = dict(os.environ, DOSSIER_HOME=store, CLAUDE_CODE_SESSION_ID="sess-ranked")
    params = StdioServerParameters(command=binary, args=["mcp"], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            call = session.call_tool
            for i in range(25):
                e = envelope(await call("dossier_promote", {"name": f"Ledger reconciliation {i}", "create": True}))
                assert e["ok"], e
            e = envelope(await call("dossier_promote", {"name": "Warehouse migrations", "create": True}))
            slug, rev = e["data"]["slug"], e["data"]["revision"]
            state = ("# Warehouse migrations\n\n## Situation\n\nWe migrated the warehouse ledger to Postgres.\n\n"
                     "## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n")
            e = envelope(await call("dossier_save", {"id": slug, "base_revision": rev, "distilled_state_markdown": state}))
            assert e["ok"], e
            e = envelope(await call("dossier_search", {"query": "postgres migration ledger"}))
            assert e["ok"] and e["data"]["mode"] == "ranked", e
            top = e["data"]["results"][0]
            assert top["slug"] == slug, [r["slug"] for r in e["data"]["results"]]
            assert any("**migrated**" in h["snippet"] for h in top["hits"]), top
            # Paging: 26 Dossiers mention "ledger"; 10 a page, the next page is a tool call.
            seen = []
            offset = 0
            while True:
                args = {"query": "ledger"} if offset == 0 else {"query": "ledger", "offset": offset}
                e = envelope(await call("dossier_search", args))
                assert e["ok"] and e["data"]["total_dossiers"] == 26, e["data"]
                seen += [r["slug"] for r in e["data"]["results"]]
                if not e["data"]["truncated"]:
                    assert e["next_actions"] == [], e["next_actions"]
                    break
                offset += e["data"]["returned"]
                assert e["next_actions"] == [f"10 of 26 Dossiers shown (from {offset - 9}): call dossier_search "
                                             f"with offset={offset} for more"], e["next_actions"]
            assert len(seen) == 26 and len(set(seen)) == 26, seen
            e = envelope(await call("dossier_search", {"query": "ledger", "limit": 100000}))
            assert e["ok"] and e["data"]["returned"] == 26, e["data"]["returned"]
            # Unknown filter: invalid_input naming it and the valid ones.
            e = envelope(await call("dossier_search", {"query": "owner:bob ledger"}))
            assert e["error"]["code"] == "invalid_input" and "owner:" in e["error"]["message"], e
            assert e["error"]["details"]["valid"] == ["status", "dossier", "in", "kind"], e["error"]
            # Exact lookups stay exact.
            e = envelope(await call("dossier_search", {"query": "migrated the warehouse", "literal": True}))
            assert e["ok"] and e["data"]["total_hits"] == 1 and "mode" not in e["data"], e
    print("mcp ranked search checks passed")


if __name__ == "__main__":
    if sys.argv[3:] == ["ranked-search"]:
        asyncio.run(ranked_search_checks(sys.argv[1], sys.argv[2]))
    elif sys.argv[3:] == ["reply-cap"]:
        asyncio.run(reply_cap_main(sys.argv[1], sys.argv[2]))
    elif sys.argv[3:] == ["context-only"]:
        asyncio.run(context_only_checks(sys.argv[1], sys.argv[2]))
    elif sys.argv[3:] == ["dead-binding"]:
        asyncio.run(dead_binding_checks(sys.argv[1], sys.argv[2]))
    elif sys.argv[3:] == ["list-warnings"]:
        asyncio.run(list_warning_checks(sys.argv[1], sys.argv[2]))
    else:
        asyncio.run(main(sys.argv[1], sys.argv[2]))

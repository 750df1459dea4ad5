#!/usr/bin/env python3
"""Write the seed corpora under fuzz/corpus/<target>/ from the project's own files
(assets/examples, assets/config.yaml) and inputs in the formats the tests use (Claude Code's
JSONL transcript lines, MCP tool arguments, conflict files). Rerun after a format change;
the fuzzer adds what it finds next to these seeds (fuzz/run.sh keeps only seeds committed)."""
import hashlib, json, pathlib

root = pathlib.Path(__file__).resolve().parent.parent
out = root / "fuzz" / "corpus"

def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    (d / ("seed-" + hashlib.sha1(data).hexdigest()[:12])).write_bytes(data)

examples = sorted((root / "assets" / "examples").glob("*/dossier.md"))
for p in examples:
    text = p.read_text()
    put("frontmatter", text)
    put("provenance", text)
    put("provenance", text.split("---\n", 2)[-1])
put("frontmatter", "---\nid: dos_01\nname: X\n---\n")
put("frontmatter", "---\r\nname: X\r\n---\r\nbody\r\n")

put("config", (root / "assets" / "config.yaml").read_text())
put("config", "token_target: 4000\ntokens:\n  calibration: 1.1\npolicy:\n  limits:\n    time_ms: 50\n    memory_mib: 16\n")
put("config", "# dossier: machine block\nharness:\n  claude_code:\n    version: \"2.1\"\n")

conflict = ("---\nid: conf_01ABC\nkind: concurrent_edit\ndossier_id: dos_01XYZ\nbase_revision: rev_a\n"
            "current_revision: rev_b\nresolved: false\ncreated_at: 2026-11-01T10:00:00Z\n"
            "frontmatter_updates:\n  next_action: ship\n---\n\n# Proposal\n\nMine.\n")
put("conflict_file", conflict)
put("conflict_file", conflict.replace("concurrent_edit", "merge").replace("frontmatter_updates:\n  next_action: ship\n",
                                      "conflict_kind: section\nsubject: Decisions\n"))
put("conflict_file", conflict.replace("resolved: false", "resolved: true"))

def tool_use(i, name, inp):
    return {"parentUuid": None, "isSidechain": False, "type": "assistant",
            "message": {"id": f"msg_{i}", "type": "message", "role": "assistant",
                        "content": [{"type": "tool_use", "id": f"toolu_{i}", "name": name, "input": inp}],
                        "stop_reason": "tool_use"}}

def result(i, error):
    block = {"tool_use_id": f"toolu_{i}", "type": "tool_result", "content": "ok"}
    if error:
        block.update(is_error=True, content="<tool_use_error>no</tool_use_error>")
    return {"type": "user", "message": {"role": "user", "content": [block]}}

lines = [
    {"type": "queue-operation", "operation": "enqueue", "content": "Add OAuth"},
    {"type": "user", "message": {"role": "user", "content": "Add the OAuth middleware"}},
    tool_use(1, "Edit", {"file_path": "/r/src/a.rs", "old_string": "a", "new_string": "b"}), result(1, False),
    tool_use(2, "MultiEdit", {"file_path": "/r/b.rs", "edits": [{"old_string": "x", "new_string": "y"}]}), result(2, True),
    tool_use(3, "Write", {"file_path": "/r/c.md", "content": "# c\n"}), result(3, False),
    tool_use(4, "NotebookEdit", {"notebook_path": "/r/n.ipynb", "new_source": "print(1)"}),
]
jsonl = "".join(json.dumps(l) + "\n" for l in lines)
put("transcript", jsonl)
put("transcript", jsonl[: len(jsonl) // 2])
put("transcript", "not json\n" + json.dumps(lines[2]) + "\n\u0000\u0001\n")

# MCP arguments: the first byte picks the tool (in name order, modulo the tool count).
args = [
    {"id": "a", "base_revision": "r", "distilled_state_markdown": "# A\n", "frontmatter_updates": {"next_action": "x", "due_date": "2026-12-31"},
     "artifacts": [{"type": "decision_evidence", "title": "t", "content_format": "markdown", "content": "c"}]},
    {"id": "a", "page": 2},
    {"session_id": "s", "id": "a"},
    {"query": "pricing", "limit": 5},
    {"name": "New one", "distilled_state_markdown": "# New\n"},
    {"source": "a", "target": "b", "resolved_conflicts": [{"id": "conf_1", "choice": "keep_current"}]},
    {},
]
for pick in range(32):
    put("mcp_params", bytes([pick]) + json.dumps(args[pick % len(args)]).encode())

"""A scripted session of the official Python MCP SDK against `dossier mcp`, for the conformance
tests (tests/conformance/): `python3 tests/mcp/driver.py <dossier-binary>` reads one JSON object
on stdin, `{"env": {NAME: value|null}, "calls": [[tool, arguments], ...]}`, starts the server
with the test's environment plus `env` (null removes a variable), makes the calls in order in
one session, and prints one JSON array: per call `{"envelope": <the reply's JSON>, "bytes": <size
of its text>, "is_error": bool}`. The tool `"list_tools"` answers `{"tools": [{name,
input_schema}]}` instead. A call that raises is `{"exception": "<text>"}`.

Not for: checking anything — the Rust test asserts on what this prints (tests/mcp/client_check.py
is the standalone end-to-end check).
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def run(binary, script):
    env = dict(os.environ)
    for name, value in script.get("env", {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    params = StdioServerParameters(command=binary, args=["mcp"], env=env)
    out = []
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for tool, arguments in script["calls"]:
                try:
                    if tool == "list_tools":
                        tools = await session.list_tools()
                        out.append({"envelope": {"tools": [
                            {"name": t.name, "input_schema": getattr(t, "input_schema", None) or t.inputSchema}
                            for t in tools.tools]}, "bytes": 0, "is_error": False})
                        continue
                    result = await session.call_tool(tool, arguments)
                    text = result.content[0].text if result.content else ""
                    structured = getattr(result, "structured_content", None) or getattr(result, "structuredContent", None)
                    try:
                        envelope = structured or json.loads(text)
                    except ValueError:
                        envelope = {"text": text}
                    out.append({"envelope": envelope, "bytes": len(text.encode()),
                                "is_error": bool(getattr(result, "is_error", None) or getattr(result, "isError", False))})
                except Exception as e:  # reported to the Rust test, which decides
                    out.append({"exception": repr(e)})
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], json.load(sys.stdin)))

//! The official Python MCP client as a library for tests: [`McpSession`] runs a script of tool
//! calls through `tests/mcp/driver.py` (one real `dossier mcp` server over stdio, the SDK's
//! `ClientSession`) and hands back each reply's envelope, so a conformance test can assert on
//! what a real client sees.
//!
//! Not for: a fake server or a hand-written JSON-RPC client (never test against those), or the
//! standalone end-to-end check (tests/mcp/client_check.py).

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::{TempStore, workspace_root};

/// One reply as the client saw it.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The SPEC envelope (`ok`, `data` | `error`, `warnings`, `next_actions`).
    pub envelope: Value,
    /// Size of the reply's text content in bytes (Claude Code previews replies over ~48 KB).
    pub bytes: usize,
    /// The MCP `isError` flag.
    pub is_error: bool,
}

impl Reply {
    pub fn ok(&self) -> bool {
        self.envelope["ok"] == true
    }

    pub fn data(&self) -> &Value {
        assert!(self.ok(), "expected ok, got {:#}", self.envelope);
        &self.envelope["data"]
    }

    /// The error code of a failed reply.
    pub fn code(&self) -> &str {
        assert!(!self.ok(), "expected an error, got {:#}", self.envelope);
        self.envelope["error"]["code"].as_str().unwrap_or("")
    }

    pub fn warnings(&self) -> Vec<String> {
        strings(&self.envelope["warnings"])
    }

    /// The next actions rendered as text (each either a string or an object's JSON).
    pub fn next_actions(&self) -> Vec<String> {
        self.envelope["next_actions"]
            .as_array()
            .map(|a| a.iter().map(|v| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())).collect())
            .unwrap_or_default()
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|v| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())).collect())
        .unwrap_or_default()
}

/// A scripted MCP session against a temp store: the server's environment is the store's
/// (`DOSSIER_HOME`, `HOME`) plus a session id unless [`McpSession::without_session_id`].
pub struct McpSession<'a> {
    store: &'a TempStore,
    env: serde_json::Map<String, Value>,
    calls: Vec<Value>,
}

impl<'a> McpSession<'a> {
    /// A session whose harness session id is `session_id`.
    pub fn new(store: &'a TempStore, session_id: &str) -> Self {
        let mut env = serde_json::Map::new();
        env.insert("DOSSIER_HOME".into(), json!(store.root()));
        env.insert("HOME".into(), json!(store.dir.path().join("home")));
        env.insert("CLAUDE_CODE_SESSION_ID".into(), json!(session_id));
        McpSession { store, env, calls: Vec::new() }
    }

    /// No `CLAUDE_CODE_SESSION_ID` in the server's environment.
    pub fn without_session_id(mut self) -> Self {
        self.env.insert("CLAUDE_CODE_SESSION_ID".into(), Value::Null);
        self
    }

    /// Set (or with `None` remove) a variable in the server's environment.
    pub fn env(mut self, name: &str, value: Option<&str>) -> Self {
        self.env.insert(name.into(), value.map_or(Value::Null, |v| json!(v)));
        self
    }

    /// Queue a tool call.
    pub fn call(mut self, tool: &str, arguments: Value) -> Self {
        self.calls.push(json!([tool, arguments]));
        self
    }

    /// Run the queued calls in one server session; one reply per call, in order. Panics (the
    /// test fails) if Python or its `mcp` package is missing: the README's test command installs it.
    pub fn run(self) -> Vec<Reply> {
        let script = json!({"env": self.env, "calls": self.calls});
        let mut child = Command::new("python3")
            .arg(workspace_root().join("tests/mcp/driver.py"))
            .arg(self.store.bin())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("python3 runs (the README's test command installs it and the mcp package)");
        child.stdin.take().unwrap().write_all(script.to_string().as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "the MCP driver failed:\nstdout:\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let replies: Vec<Value> = serde_json::from_slice(&out.stdout).expect("the driver prints JSON");
        replies
            .into_iter()
            .map(|r| {
                assert!(r.get("exception").is_none(), "a tool call raised in the client: {r}");
                Reply {
                    envelope: r["envelope"].clone(),
                    bytes: r["bytes"].as_u64().unwrap_or(0) as usize,
                    is_error: r["is_error"] == true,
                }
            })
            .collect()
    }
}

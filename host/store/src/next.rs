//! Next steps as values: which operation to call with which arguments, or an instruction in
//! words. The CLI renders a step as a command line (`dossier recall pricing --page 2`), MCP as a
//! tool call (`call dossier_recall id=pricing page=2`), so neither surface is told to run the
//! other's commands.
//!
//! Successes' steps are built by the operation layer (`ops` in the binary, which re-exports these
//! types); errors carry theirs ([`crate::error::DossierError::next`]) and are rendered the same
//! way, so an MCP error suggests tool calls and a CLI error commands. A plain string is a
//! [`Next::Say`]: words that must hold on every surface.
//!
//! Not for: deciding what comes next (the operations and the errors' sites do).

/// The surface a step is rendered for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    Cli,
    Mcp,
}

/// An operation a step can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Show,
    Recall,
    List,
    Link,
    Promote,
    Switch,
    Merge,
    Search,
}

impl Op {
    fn cli(self) -> &'static str {
        match self {
            Op::Show => "show",
            Op::Recall => "recall",
            Op::List => "ls",
            Op::Link => "link",
            Op::Promote => "promote",
            Op::Switch => "switch",
            Op::Merge => "merge",
            Op::Search => "search",
        }
    }

    fn tool(self) -> &'static str {
        match self {
            Op::Show | Op::Recall => "dossier_recall",
            Op::List => "dossier_list",
            Op::Link => "dossier_link",
            Op::Promote => "dossier_promote",
            Op::Switch => "dossier_session",
            Op::Merge => "dossier_merge",
            Op::Search => "dossier_search",
        }
    }
}

/// One argument: a positional target (the Dossier), or a named one. `cli` is the flag (with
/// its value, or alone for a boolean), `mcp` the tool parameter; either may be absent where
/// that surface has no such argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    pub cli: Option<String>,
    pub mcp: Option<String>,
}

/// A next step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Call `op` on `target` with `args`; `note` is said after it, in parentheses.
    Call { op: Op, target: Option<String>, args: Vec<Arg>, note: Option<String> },
    /// Say what to do, in words that hold on every surface.
    Say(String),
    /// Words for one surface and words for the other (what the user does differs).
    Per { cli: String, mcp: String },
}

impl From<String> for Next {
    fn from(text: String) -> Next {
        Next::Say(text)
    }
}

impl From<&str> for Next {
    fn from(text: &str) -> Next {
        Next::Say(text.to_string())
    }
}

impl Next {
    /// `op` with no target (`dossier ls`, `call dossier_list`).
    pub fn op(op: Op) -> Next {
        Next::Call { op, target: None, args: Vec::new(), note: None }
    }

    /// Words for the CLI and words for MCP.
    pub fn per(cli: impl Into<String>, mcp: impl Into<String>) -> Next {
        Next::Per { cli: cli.into(), mcp: mcp.into() }
    }

    pub fn call(op: Op, target: impl Into<String>) -> Next {
        Next::Call { op, target: Some(target.into()), args: Vec::new(), note: None }
    }

    pub fn say(text: impl Into<String>) -> Next {
        Next::Say(text.into())
    }

    /// Add an argument named `--flag value` on the CLI and `param=value` in MCP.
    pub fn arg(self, flag: &str, param: &str, value: impl std::fmt::Display) -> Next {
        self.with(Arg { cli: Some(format!("--{flag} {value}")), mcp: Some(format!("{param}={value}")) })
    }

    /// Add a boolean switch (`--flag`, `param=true`).
    pub fn switch(self, flag: &str, param: &str) -> Next {
        self.with(Arg { cli: Some(format!("--{flag}")), mcp: Some(format!("{param}=true")) })
    }

    pub fn with(mut self, a: Arg) -> Next {
        if let Next::Call { args, .. } = &mut self {
            args.push(a);
        }
        self
    }

    pub fn note(mut self, text: impl Into<String>) -> Next {
        if let Next::Call { note, .. } = &mut self {
            *note = Some(text.into());
        }
        self
    }

    /// The step in `surface`'s words.
    pub fn render(&self, surface: Surface) -> String {
        match self {
            Next::Say(text) => text.clone(),
            Next::Per { cli, mcp } => match surface {
                Surface::Cli => cli.clone(),
                Surface::Mcp => mcp.clone(),
            },
            Next::Call { op, target, args, note } => {
                let mut s = match surface {
                    Surface::Cli => {
                        let mut s = format!("dossier {}", op.cli());
                        if let Some(t) = target {
                            s.push(' ');
                            s.push_str(t);
                        }
                        for a in args.iter().filter_map(|a| a.cli.as_ref()) {
                            s.push(' ');
                            s.push_str(a);
                        }
                        s
                    }
                    Surface::Mcp => {
                        let mut s = format!("call {}", op.tool());
                        if let Some(t) = target {
                            s.push_str(&format!(" id={t}"));
                        }
                        for a in args.iter().filter_map(|a| a.mcp.as_ref()) {
                            s.push(' ');
                            s.push_str(a);
                        }
                        s
                    }
                };
                if let Some(n) = note {
                    s.push_str(&format!(" ({n})"));
                }
                s
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_reads_as_a_command_on_the_cli_and_a_tool_call_in_mcp() {
        let n = Next::call(Op::Recall, "pricing").arg("page", "page", 2).note("page 1 of 3");
        assert_eq!(n.render(Surface::Cli), "dossier recall pricing --page 2 (page 1 of 3)");
        assert_eq!(n.render(Surface::Mcp), "call dossier_recall id=pricing page=2 (page 1 of 3)");
        let p = Next::Call { op: Op::Promote, target: None, args: Vec::new(), note: None }.switch("create", "create");
        assert_eq!(p.render(Surface::Cli), "dossier promote --create");
        assert_eq!(p.render(Surface::Mcp), "call dossier_promote create=true");
        assert_eq!(Next::say("ask the user").render(Surface::Mcp), "ask the user");
    }
}

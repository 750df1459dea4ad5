//! The session's own edits, read from its Claude Code transcript: the assistant's `Edit`,
//! `MultiEdit`, `Write` and `NotebookEdit` tool calls whose results are not errors, folded into
//! one changed-file set per session (repository-relative path → how it changed and the names
//! defined on its changed lines). The **one** changed-file set that codecall's Stop-hook card
//! scores (`hooks/card.rs`) and that `codecall_start` falls back on when the session's
//! starting HEAD shows nothing (`locate.rs`, rule `session_edits`), so the card's promise
//! and the session's content come from the same function ([`update`]).
//!
//! Reading is incremental (from a byte offset, whole lines only, at most [`MAX_READ_BYTES`] of
//! backlog) and cheap: only lines that can hold an edit or its result are parsed. No git, no
//! model, no tokenizer. Paths outside the repository (`~/.claude/...`, plan files) are ignored;
//! sensitive paths (the evidence collector's deny list) are recorded by name only, never read.
//!
//! Not for: scoring (the card, the runtime) or choosing the changes (`locate`).

use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// At most this much new transcript is read per Stop; a longer backlog (a long session that
/// predates the card, or a huge first turn) is read from its last this-many bytes.
pub const MAX_READ_BYTES: u64 = 32 << 20;
/// Text scanned per edit for definitions and generated-file markers.
const MAX_SCAN_BYTES: usize = 64 << 10;
/// The tools whose calls change files, as their names appear quoted in a transcript line.
const EDIT_TOOLS: [&str; 4] = ["\"Edit\"", "\"MultiEdit\"", "\"Write\"", "\"NotebookEdit\""];

/// How a file was changed in the session.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FileChange {
    pub change: Change,
    /// Listed by name only: never read, never a signal.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sensitive: bool,
    /// A generated-file marker was seen in its header or written text.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub generated: bool,
    /// Names defined on its changed lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<String>,
}

/// The strongest kind of edit a file received (ordered: a code change wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    #[default]
    Formatting,
    Comments,
    Code,
}

/// One edit tool call, as read from the transcript.
#[derive(Clone, Debug, PartialEq)]
pub struct Edit {
    pub tool_use_id: String,
    pub path: PathBuf,
    /// `(old, new)` text pairs; `old` is `None` when the call wrote whole content (Write,
    /// NotebookEdit), so nothing can be compared.
    pub pairs: Vec<(Option<String>, String)>,
}

/// What one [`update`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    /// The offset after the whole lines read.
    pub end: u64,
    /// Successful edit calls in them (inside the repository or not).
    pub edits: usize,
    /// At least one of them changed a file of the repository.
    pub in_repository: bool,
}

/// Fold the session's edits in the transcript's whole lines after `offset` into `files` (keyed
/// by path relative to the repository holding `cwd`). `None` when the transcript cannot be read,
/// or an edited file exists but cannot be read (then nothing should be recorded).
pub fn update(files: &mut BTreeMap<String, FileChange>, transcript: &Path, offset: u64, cwd: &Path) -> Option<Fold> {
    let (edits, end) = read_new_edits(transcript, offset)?;
    let mut read = Fold { end, edits: edits.len(), in_repository: false };
    if edits.is_empty() {
        return Some(read);
    }
    let root = repository_root(cwd);
    let sensitive = dossier_evidence::SensitivePaths::new(&Default::default()).ok()?;
    for e in &edits {
        let Some(rel) = relative(&root, &e.path) else { continue };
        let file = files.entry(rel.clone()).or_default();
        merge_edit(file, &root, &rel, e, sensitive.is_sensitive(&rel)).ok()?;
        read.in_repository = true;
    }
    Some(read)
}

/// Every file the session changed, from its whole transcript (its last [`MAX_READ_BYTES`]).
pub fn session_files(transcript: &Path, cwd: &Path) -> Option<BTreeMap<String, FileChange>> {
    let mut files = BTreeMap::new();
    update(&mut files, transcript, 0, cwd)?;
    Some(files)
}

/// The successful edits in the whole lines of `path` after byte `offset` (from the start again
/// when the file is now shorter), and the offset after those lines. Streams the file through a
/// fixed buffer: the transcript is never held in memory whole.
fn read_new_edits(path: &Path, offset: u64) -> Option<(Vec<Edit>, u64)> {
    let mut f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    let mut start = if offset > len { 0 } else { offset };
    let skip_partial = len - start > MAX_READ_BYTES;
    if skip_partial {
        start = len - MAX_READ_BYTES;
    }
    f.seek(SeekFrom::Start(start)).ok()?;
    let mut reader = std::io::BufReader::with_capacity(256 << 10, f.take(len - start));
    let mut scanner = Scanner::default();
    let mut line = Vec::new();
    let mut end = start;
    let mut first = true;
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line).ok()?;
        // Only whole lines: a line still being written is read next time.
        if n == 0 || line.last() != Some(&b'\n') {
            break;
        }
        end += n as u64;
        if !(first && skip_partial) {
            scanner.line(&line);
        }
        first = false;
    }
    Some((scanner.finish(), end))
}

/// The successful edit tool calls in transcript `text` (JSONL as Claude Code writes it).
pub fn edits_in(text: &[u8]) -> Vec<Edit> {
    let mut scanner = Scanner::default();
    for line in text.split(|&b| b == b'\n') {
        scanner.line(line);
    }
    scanner.finish()
}

/// Collects edit calls and their results line by line. An edit counts only once its result
/// is read and is not an error: an edit whose result Claude Code has not written yet (or that
/// failed) changed nothing we know of. Only lines that can hold one are parsed: an assistant
/// line with an edit tool's `tool_use`, or a user line with a `tool_result` (a substring
/// test first: most of a transcript is bookkeeping that is never parsed).
struct Scanner {
    tool_use: memchr::memmem::Finder<'static>,
    tool_result: memchr::memmem::Finder<'static>,
    tools: Vec<memchr::memmem::Finder<'static>>,
    edits: Vec<Edit>,
    succeeded: HashSet<String>,
}

impl Default for Scanner {
    fn default() -> Self {
        Scanner {
            tool_use: memchr::memmem::Finder::new(b"\"tool_use\""),
            tool_result: memchr::memmem::Finder::new(b"\"tool_result\""),
            tools: EDIT_TOOLS.iter().map(|t| memchr::memmem::Finder::new(t.as_bytes())).collect(),
            edits: Vec::new(),
            succeeded: HashSet::new(),
        }
    }
}

impl Scanner {
    fn line(&mut self, line: &[u8]) {
        let maybe_edit = self.tool_use.find(line).is_some() && self.tools.iter().any(|t| t.find(line).is_some());
        // A result is parsed only when it can answer an edit still waiting for one (its id
        // is in the line): most results are reads and shell output, often large, and the
        // Stop hook runs after every turn.
        let maybe_result = self.tool_result.find(line).is_some()
            && self.edits.iter().any(|e| {
                !self.succeeded.contains(&e.tool_use_id)
                    && !e.tool_use_id.is_empty()
                    && memchr::memmem::find(line, e.tool_use_id.as_bytes()).is_some()
            });
        if !(maybe_edit || maybe_result) {
            return;
        }
        let Ok(v) = serde_json::from_slice::<Value>(line) else { return };
        let Some(blocks) = v.pointer("/message/content").and_then(Value::as_array) else { return };
        match v.get("type").and_then(Value::as_str) {
            Some("assistant") => {
                for b in blocks {
                    if b.get("type").and_then(Value::as_str) == Some("tool_use")
                        && let Some(e) = edit_of(b)
                    {
                        self.edits.push(e);
                    }
                }
            }
            Some("user") => {
                for b in blocks {
                    if b.get("type").and_then(Value::as_str) == Some("tool_result")
                        && b.get("is_error").and_then(Value::as_bool) != Some(true)
                        && let Some(id) = b.get("tool_use_id").and_then(Value::as_str)
                    {
                        self.succeeded.insert(id.to_string());
                    }
                }
            }
            _ => {}
        }
    }

    fn finish(mut self) -> Vec<Edit> {
        self.edits.retain(|e| self.succeeded.contains(&e.tool_use_id));
        self.edits
    }
}

fn edit_of(block: &Value) -> Option<Edit> {
    let name = block.get("name")?.as_str()?;
    let input = block.get("input")?;
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let (path, pairs) = match name {
        "Edit" => (s(input, "file_path")?, vec![(Some(s(input, "old_string")?), s(input, "new_string")?)]),
        "MultiEdit" => {
            let pairs = input
                .get("edits")?
                .as_array()?
                .iter()
                .filter_map(|e| Some((Some(s(e, "old_string")?), s(e, "new_string")?)))
                .collect();
            (s(input, "file_path")?, pairs)
        }
        "Write" => (s(input, "file_path")?, vec![(None, s(input, "content")?)]),
        "NotebookEdit" => (s(input, "notebook_path")?, vec![(None, s(input, "new_source").unwrap_or_default())]),
        _ => return None,
    };
    Some(Edit { tool_use_id: s(block, "id").unwrap_or_default(), path: PathBuf::from(path), pairs })
}

/// The nearest ancestor of `cwd` holding `.git` (a directory, or a file in a worktree), else
/// `cwd` itself. No git process.
fn repository_root(cwd: &Path) -> PathBuf {
    cwd.ancestors().find(|d| d.join(".git").exists()).unwrap_or(cwd).to_path_buf()
}

/// `path` relative to `root` with `/` separators; `None` outside the repository (an edit of
/// `~/.claude/...` or a plan file is not part of the implementation).
fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Option<_>>()?;
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Fold one edit into what is known of its file. Fails only when the file exists but cannot
/// be read (then the card stays silent).
fn merge_edit(file: &mut FileChange, root: &Path, rel: &str, edit: &Edit, sensitive: bool) -> std::io::Result<()> {
    if sensitive {
        file.sensitive = true;
        file.change = Change::Code;
        return Ok(());
    }
    for (old, new) in &edit.pairs {
        let change = classify(rel, old.as_deref(), new);
        file.change = file.change.max(change);
        if change != Change::Code {
            continue;
        }
        let added = match old {
            Some(old) => added_lines(old, new),
            None => new.clone(),
        };
        let scan = truncate(&added, MAX_SCAN_BYTES);
        for name in dossier_evidence::defined_in(rel, scan) {
            if !file.symbols.contains(&name) && file.symbols.len() < 50 {
                file.symbols.push(name);
            }
        }
        if old.is_none() && has_generated_marker(truncate(new, 2_048)) {
            file.generated = true;
        }
    }
    if file.change == Change::Code && !file.generated {
        file.generated = generated_header(&root.join(rel))?;
    }
    Ok(())
}

fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The first 2 KB of the file on disk carry a generated-file marker (a file that no longer
/// exists carries none).
fn generated_header(path: &Path) -> std::io::Result<bool> {
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    let mut head = vec![0; 2_048];
    let n = f.read(&mut head)?;
    Ok(has_generated_marker(&String::from_utf8_lossy(&head[..n])))
}

fn has_generated_marker(text: &str) -> bool {
    ["@generated", "DO NOT EDIT", "Code generated", "auto-generated", "autogenerated", "AUTO-GENERATED"]
        .iter()
        .any(|m| text.contains(m))
}

/// What one `(old, new)` pair of `path` is: whitespace-only, only comment lines, or code.
pub fn classify(path: &str, old: Option<&str>, new: &str) -> Change {
    let Some(old) = old else { return Change::Code };
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    if squeeze(old) == squeeze(new) {
        return Change::Formatting;
    }
    let (removed, added) = line_diff(old, new);
    if !(removed.is_empty() && added.is_empty()) && removed.iter().chain(&added).all(|l| is_comment(path, l)) {
        Change::Comments
    } else {
        Change::Code
    }
}

/// Trimmed non-blank lines only in `old` and only in `new` (as multisets).
fn line_diff<'a>(old: &'a str, new: &'a str) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
    for l in old.lines().map(str::trim).filter(|l| !l.is_empty()) {
        *counts.entry(l).or_default() += 1;
    }
    for l in new.lines().map(str::trim).filter(|l| !l.is_empty()) {
        *counts.entry(l).or_default() -= 1;
    }
    let removed = counts.iter().filter(|(_, c)| **c > 0).map(|(l, _)| *l).collect();
    let added = counts.iter().filter(|(_, c)| **c < 0).map(|(l, _)| *l).collect();
    (removed, added)
}

/// The lines of `new` that `old` does not have, in order.
fn added_lines(old: &str, new: &str) -> String {
    let mut have: BTreeMap<&str, usize> = BTreeMap::new();
    for l in old.lines().map(str::trim) {
        *have.entry(l).or_default() += 1;
    }
    let mut out = String::new();
    for l in new.lines() {
        match have.get_mut(l.trim()) {
            Some(n) if *n > 0 => *n -= 1,
            _ => {
                out.push_str(l);
                out.push('\n');
            }
        }
    }
    out
}

/// A comment line in the language of `path` (by extension; unknown languages have none).
fn is_comment(path: &str, line: &str) -> bool {
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    let slashes = ["//", "/*", "*/", "* "];
    let hash = ["#"];
    let dashes = ["--"];
    let markers: &[&str] = match ext.as_str() {
        "rs" | "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "go" | "java" | "kt" | "kts" | "scala" | "cs" | "c"
        | "h" | "cc" | "cpp" | "hpp" | "swift" | "dart" | "php" | "css" | "scss" | "groovy" => &slashes,
        "py" | "rb" | "sh" | "bash" | "zsh" | "yaml" | "yml" | "toml" | "pl" | "r" | "cfg" | "ini" | "tf" => &hash,
        "sql" | "lua" | "hs" => &dashes,
        _ => &[],
    };
    // `#[...]`/`#!` are Rust attributes and shebangs, never in a `#`-comment language's list above.
    markers.iter().any(|m| line.starts_with(m)) || (line == "*" && markers == slashes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_whitespace_comments_and_code() {
        assert_eq!(classify("a.rs", Some("fn a(){1}"), "fn a() {\n    1\n}\n"), Change::Formatting);
        assert_eq!(classify("a.rs", Some("let x = 1;\n"), "// why\nlet x = 1;\n"), Change::Comments);
        assert_eq!(classify("a.py", Some("x = 1\n"), "x = 1  \n# why\n"), Change::Comments);
        assert_eq!(classify("a.rs", Some("let x = 1;\n"), "let x = 2;\n"), Change::Code);
        assert_eq!(classify("a.rs", Some("#[derive(Debug)]\n"), "#[derive(Clone)]\n"), Change::Code);
        assert_eq!(classify("a.txt", Some("// a\n"), "// b\n"), Change::Code, "no comment syntax known");
        assert_eq!(classify("a.rs", Some("a();\nb();\n"), "b();\na();\n"), Change::Code, "a reorder is a change");
        assert_eq!(classify("a.rs", None, ""), Change::Code);
    }

    #[test]
    fn added_lines_are_the_new_side_only() {
        assert_eq!(added_lines("a\nb\n", "a\nfn c() {}\nb\n"), "fn c() {}\n");
    }

    #[test]
    fn edits_count_once_their_result_is_read_and_failed_or_pending_calls_are_dropped() {
        let lines = [
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/r/src/a.rs","content":"fn a() {}\n"}}]}}"#,
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Edit","input":{"file_path":"/r/src/b.rs","old_string":"x","new_string":"y"}}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"<tool_use_error>File does not exist.</tool_use_error>","is_error":true,"tool_use_id":"t2"}]}}"#,
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t3","name":"Read","input":{"file_path":"/r/src/Edit.rs"}}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"File created successfully at: /r/src/a.rs"}]}}"#,
            // An edit whose result is not written yet changed nothing we know of.
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t4","name":"Edit","input":{"file_path":"/r/src/c.rs","old_string":"x","new_string":"y"}}]}}"#,
        ]
        .join("\n");
        let edits = edits_in(lines.as_bytes());
        assert_eq!(edits.len(), 1, "{edits:?}");
        assert_eq!(edits[0].path, PathBuf::from("/r/src/a.rs"));
        assert_eq!(edits[0].pairs, [(None, "fn a() {}\n".to_string())]);
    }
}

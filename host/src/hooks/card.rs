//! codecall's recommendation card (ARCHITECTURE §10, gate 1): after the agent finishes a turn
//! that changed code, the Stop hook scores the learning opportunity of the **session's changes**
//! and, only for `recommend`, returns one line for the hook's `systemMessage`:
//! `codecall: <concepts> — /codecall to start, ~N min`.
//!
//! Input: the session's own `Edit`, `MultiEdit`, `Write` and `NotebookEdit` tool calls, read
//! incrementally from the Claude Code transcript (`transcript_path`; the byte offset read so far
//! is kept per session). They give exactly the paths this session changed and the text it
//! changed, without spawning git (10–35 ms per spawn here; see docs/codecall-card.md for the
//! measurements behind this choice). A call whose tool result is an error changed nothing and
//! is ignored. Changes made through `Bash` (formatters, `sed -i`, code generators) are not seen.
//!
//! The check, all deterministic (no model, no tokenizer):
//! - each edit is classified: whitespace-only (`formatting`), only comment lines (`comments`),
//!   or a code change; a file's class is its strongest edit's;
//! - signals come from the same rules as the runtime's ([`derive::derive_signals_from`]): words
//!   of the changed paths and names defined on the changed lines;
//! - exclusions are detected from paths and text: an isolated dependency bump (only manifests and
//!   lock files), generated-only (generated paths or an `@generated`/`DO NOT EDIT` header),
//!   documentation only (`copy-text`: no signals), tests-only without test infrastructure
//!   (`tests-without-strategy`: no signals);
//! - `completed` is true (Claude Code fires Stop when the agent finished its turn, not on an
//!   interrupt); `inspectable` is whether a non-sensitive file of the repository was changed;
//! - the policy component's `score-opportunity` decides (loaded from the compile cache only).
//!
//! State, per Claude Code session id, in `sessions/cards/<session-id>.json` (atomic writes):
//! the transcript offset, the session's changed files so far, and the concept fingerprints
//! already shown: each is shown once per session.
//!
//! Invariants: it never starts a codecall session, never blocks the stop, and every failure
//! (no transcript, an unreadable file, a policy failure, a corrupt state file) is silence, with
//! nothing recorded.
//!
//! Takes only what it needs: the store context and the [`Turn`]'s fields (never the hook's
//! input type, never a call back into `hooks`).
//!
//! Not for: the codecall session itself (`crate::codecall`), or the save cadence of the Stop
//! hook (`hooks::stop`).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::{BufRead, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use dossier_codecall::LearningPolicy;
use dossier_codecall::derive::{self, ChangedPath};
use dossier_codecall::policy::core_signal_kind;
use dossier_core::learning as l;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::app::App;
use crate::policy::ComponentLearningPolicy;
use dossier_store::files;

/// At most this much new transcript is read per Stop; a longer backlog (a long session that
/// predates the card, or a huge first turn) is read from its last this-many bytes.
pub const MAX_READ_BYTES: u64 = 32 << 20;
/// At most this many concepts are named on the card.
const MAX_CONCEPTS: usize = 3;
/// Text scanned per edit for definitions and generated-file markers.
const MAX_SCAN_BYTES: usize = 64 << 10;
/// The tools whose calls change files, as their names appear quoted in a transcript line.
const EDIT_TOOLS: [&str; 4] = ["\"Edit\"", "\"MultiEdit\"", "\"Write\"", "\"NotebookEdit\""];

/// What one session's card has seen so far.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CardState {
    /// The transcript read, and how many bytes of it (always whole lines).
    pub transcript: String,
    pub offset: u64,
    /// The session's changed files so far, by repository-relative path.
    pub files: BTreeMap<String, FileChange>,
    /// Concept fingerprints whose card was shown in this session.
    pub shown: Vec<String>,
}

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

/// The agent turn a Stop hook reports: what the card reads of Claude Code's hook input.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// Claude Code's session id (names the card's state file).
    pub session_id: &'a str,
    /// The session's transcript (`transcript_path`).
    pub transcript: Option<&'a Path>,
    /// The session's working directory (`cwd`); the process's when absent.
    pub cwd: Option<&'a Path>,
    /// Claude Code is already continuing because of a Stop hook.
    pub stop_hook_active: bool,
}

/// The card line for this Stop, or `None` (most Stops). Never fails: see the module doc.
pub fn check(app: &App, turn: &Turn<'_>) -> Option<String> {
    if !app.config.codecall.recommendation_cards || turn.stop_hook_active || turn.session_id.is_empty() {
        return None;
    }
    let transcript = turn.transcript.filter(|p| !p.as_os_str().is_empty())?;
    let state_path = state_path(app, turn.session_id)?;
    let mut state = read_state(&state_path).unwrap_or_default();
    let transcript_text = transcript.display().to_string();
    if state.transcript != transcript_text {
        state.transcript = transcript_text;
        state.offset = 0;
    }
    let (edits, end) = read_new_edits(transcript, state.offset)?;
    if end == state.offset {
        return None;
    }
    state.offset = end;
    if edits.is_empty() {
        write_state(&state_path, &state)?;
        return None;
    }
    let cwd = turn.cwd.map(Path::to_path_buf).or_else(|| std::env::current_dir().ok())?;
    let root = repository_root(&cwd);
    let sensitive = dossier_evidence::SensitivePaths::new(&Default::default()).ok()?;
    let mut in_repository = false;
    for e in &edits {
        let Some(rel) = relative(&root, &e.path) else { continue };
        let file = state.files.entry(rel.clone()).or_default();
        merge_edit(file, &root, &rel, e, sensitive.is_sensitive(&rel)).ok()?;
        in_repository = true;
    }
    if !in_repository {
        // Only edits outside the repository (plans, settings): no change to score.
        write_state(&state_path, &state)?;
        return None;
    }
    let (input_signals, excluded, inspectable) = opportunity_input(&state.files);
    let opportunity = ComponentLearningPolicy::new(crate::app::policies(app).ok()?)
        .score_opportunity(&l::OpportunityInput {
            completed: true,
            inspectable,
            signals: input_signals.clone(),
            excluded,
        })
        .ok()?;
    let card = (opportunity.recommendation == l::Recommendation::Recommend
        && !state.shown.contains(&opportunity.fingerprint))
    .then(|| card_line(&input_signals, &opportunity));
    if card.is_some() {
        state.shown.push(opportunity.fingerprint);
    }
    // Shown only once it is recorded as shown.
    write_state(&state_path, &state)?;
    card
}

/// `sessions/cards/<session-id>.json`, for a session id that is a usable file name.
fn state_path(app: &App, session_id: &str) -> Option<PathBuf> {
    dossier_store::layout::validate_component(session_id).ok()?;
    Some(app.store.sessions_dir().join("cards").join(format!("{session_id}.json")))
}

fn read_state(path: &Path) -> Option<CardState> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

fn write_state(path: &Path, state: &CardState) -> Option<()> {
    std::fs::create_dir_all(path.parent()?).ok()?;
    files::write_atomic(path, &serde_json::to_vec(state).ok()?).ok()
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

/// The opportunity input for the session's changes so far (see the module doc): signals,
/// exclusions, and whether anything is inspectable.
pub fn opportunity_input(files: &BTreeMap<String, FileChange>) -> (Vec<l::Signal>, Vec<l::ExcludedKind>, bool) {
    let visible: Vec<(&String, &FileChange)> = files.iter().filter(|(_, f)| !f.sensitive).collect();
    let inspectable = !visible.is_empty();
    let mut excluded = BTreeSet::new();
    if visible.iter().any(|(_, f)| f.change == Change::Formatting) {
        excluded.insert(l::ExcludedKind::Formatting);
    }
    if visible.iter().any(|(_, f)| f.change == Change::Comments) {
        excluded.insert(l::ExcludedKind::Comments);
    }
    let code: Vec<(&String, &FileChange)> = visible.iter().copied().filter(|(_, f)| f.change == Change::Code).collect();
    let generated = |p: &str, f: &FileChange| f.generated || derive::is_generated_path(p);
    let from: Vec<(&String, &FileChange)> = if code.is_empty() {
        Vec::new()
    } else if code.iter().all(|(p, _)| derive::is_manifest(p) || derive::is_lockfile(p))
        && code.iter().any(|(p, _)| derive::is_manifest(p))
    {
        excluded.insert(l::ExcludedKind::DependencyBump);
        code.clone()
    } else {
        let source: Vec<_> = code.iter().copied().filter(|(p, f)| !generated(p, f)).collect();
        let prose = |p: &str| derive::is_documentation(p);
        if source.is_empty() {
            excluded.insert(l::ExcludedKind::GeneratedOnly);
            code.clone()
        } else if source.iter().all(|(p, _)| prose(p)) {
            excluded.insert(l::ExcludedKind::CopyText);
            Vec::new()
        } else if source.iter().all(|(p, _)| derive::is_test_path(p))
            && !source.iter().any(|(p, _)| derive::is_test_infrastructure(p))
        {
            excluded.insert(l::ExcludedKind::TestsWithoutStrategy);
            Vec::new()
        } else {
            // Prose next to code gives no signal of its own (the code does).
            source.into_iter().filter(|(p, _)| !prose(p)).collect()
        }
    };
    let changed: Vec<ChangedPath<'_>> = from
        .iter()
        .map(|(p, f)| ChangedPath { path: p, sensitive: false, symbols: &f.symbols, evidence: None })
        .collect();
    let signals = derive::derive_signals_from(&changed)
        .into_iter()
        .map(|d| l::Signal {
            kind: core_signal_kind(d.kind),
            concept: d.concept,
            reason: d.reason,
            evidence: Vec::new(),
        })
        .collect();
    (signals, excluded.into_iter().collect(), inspectable)
}

/// `codecall: <concepts> — /codecall to start, ~N min`, strong concepts first.
fn card_line(signals: &[l::Signal], o: &l::Opportunity) -> String {
    let counted = |k: &l::SignalKind| o.matched_strong.contains(k) || o.matched_moderate.contains(k);
    let mut concepts: Vec<&str> = Vec::new();
    for strong in [true, false] {
        for s in signals.iter().filter(|s| counted(&s.kind) && s.kind.is_strong() == strong) {
            if !concepts.contains(&s.concept.as_str()) {
                concepts.push(&s.concept);
            }
        }
    }
    let mut named = concepts.iter().take(MAX_CONCEPTS).copied().collect::<Vec<_>>().join(", ");
    if concepts.len() > MAX_CONCEPTS {
        named.push_str(&format!(" (+{} more)", concepts.len() - MAX_CONCEPTS));
    }
    format!("codecall: {named} — /codecall to start, ~{} min", o.estimated_minutes.max(1))
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

    fn code(symbols: &[&str]) -> FileChange {
        FileChange {
            change: Change::Code,
            symbols: symbols.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    fn input(files: &[(&str, FileChange)]) -> (Vec<l::Signal>, Vec<l::ExcludedKind>, bool) {
        opportunity_input(&files.iter().map(|(p, f)| (p.to_string(), f.clone())).collect())
    }

    #[test]
    fn exclusions_are_detected_from_paths_and_classes() {
        let (s, e, i) = input(&[("src/auth/oauth_middleware.rs", code(&[]))]);
        assert!(i && e.is_empty());
        let kinds: Vec<_> = s.iter().map(|s| s.kind).collect();
        assert_eq!(kinds, [l::SignalKind::SecurityBoundary, l::SignalKind::ArchitectureFlow]);

        let (s, e, _) = input(&[("Cargo.toml", code(&[])), ("Cargo.lock", code(&[]))]);
        assert!(s.is_empty() && e == [l::ExcludedKind::DependencyBump], "{s:?} {e:?}");

        let (_, e, _) = input(&[("src/api/auth_pb2.py", code(&[]))]);
        assert_eq!(e, [l::ExcludedKind::GeneratedOnly]);

        let (s, e, _) = input(&[("tests/auth_test.rs", code(&["test_login"]))]);
        assert!(s.is_empty() && e == [l::ExcludedKind::TestsWithoutStrategy], "{s:?} {e:?}");
        let (s, e, _) = input(&[("tests/support/fixtures.rs", code(&[]))]);
        assert!(!s.is_empty() && e.is_empty(), "test infrastructure may carry a strategy");

        let fmt = FileChange { change: Change::Formatting, ..Default::default() };
        let (s, e, _) = input(&[("docs/auth.md", code(&[])), ("README.md", code(&[]))]);
        assert!(s.is_empty() && e == [l::ExcludedKind::CopyText], "{s:?} {e:?}");
        let (s, _, _) = input(&[("docs/cache.md", code(&[])), ("src/auth.rs", code(&[]))]);
        assert_eq!(s.len(), 1, "prose next to code gives no signal of its own: {s:?}");

        let (s, e, i) = input(&[("src/auth/oauth_middleware.rs", fmt)]);
        assert!(i && s.is_empty() && e == [l::ExcludedKind::Formatting], "{s:?} {e:?}");

        let secret = FileChange { change: Change::Code, sensitive: true, ..Default::default() };
        let (s, _, i) = input(&[(".env", secret)]);
        assert!(!i && s.is_empty());
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

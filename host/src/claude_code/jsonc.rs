//! Claude Code's JSON-with-comments config files: read as a value ([`read_value`]: absent,
//! parsed, or a [`FileProblem`]), or loaded as a concrete syntax tree to edit in place
//! (jsonc-parser's CST: comments, whitespace and key order of everything not edited survive),
//! with the value conversions and lookups the edits need.
//!
//! Accepts JSON plus comments and trailing commas, nothing looser (Claude Code would not read
//! it either). A file that is not UTF-8, does not parse, or is not an object is a
//! [`FileProblem`], never an error: it is left alone.
//!
//! Not for: deciding what to edit (`register`) or what an entry means (`entries`, `inspect`).

use std::fs;
use std::path::{Path, PathBuf};

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstNode, CstObject, CstObjectProp, CstRootNode};
use serde::Serialize;
use serde_json::{Value, json};

/// A Claude Code config file dossier could not read or edit; it is left alone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileProblem {
    pub file: PathBuf,
    pub problem: String,
}

impl FileProblem {
    pub fn warning(&self) -> String {
        format!(
            "{} {}; dossier did not change it and cannot register anything in it. Fix the file (or move it aside), \
             then run `dossier init` again.",
            self.file.display(),
            self.problem
        )
    }
}

/// A JSON (or JSONC) object file: `Ok(None)` when absent.
pub(crate) fn read_value(path: &Path) -> Result<Option<Value>, FileProblem> {
    let problem = |p: String| FileProblem { file: path.to_path_buf(), problem: p };
    let text = match fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| problem("is not UTF-8 text".into()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(problem(format!("could not be read ({e})"))),
    };
    if text.trim().is_empty() {
        return Ok(Some(json!({})));
    }
    let value: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(_) => jsonc_parser::parse_to_serde_value(&text, &parse_options())
            .map_err(|e| problem(format!("does not parse as JSON ({e})")))?,
    };
    if !value.is_object() {
        return Err(problem("does not hold a JSON object".into()));
    }
    Ok(Some(value))
}

pub(crate) fn parse_options() -> ParseOptions {
    // JSON plus comments and trailing commas (what people put in settings files); anything
    // looser Claude Code would not read either.
    ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// A parsed file, ready to edit.
pub(crate) struct Doc {
    pub path: PathBuf,
    pub write_to: PathBuf,
    pub original: Option<String>,
    pub permissions: Option<fs::Permissions>,
    pub root: CstRootNode,
}

pub(crate) enum Loaded {
    Missing,
    Doc(Doc),
    Problem(FileProblem),
}

pub(crate) fn load(path: &Path) -> Loaded {
    let problem = |p: String| Loaded::Problem(FileProblem { file: path.to_path_buf(), problem: p });
    let text = match fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(_) => return problem("is not UTF-8 text".into()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Loaded::Missing,
        Err(e) => return problem(format!("could not be read ({e})")),
    };
    let root = match CstRootNode::parse(if text.trim().is_empty() { "{}\n" } else { &text }, &parse_options()) {
        Ok(r) => r,
        Err(e) => return problem(format!("does not parse as JSON ({e})")),
    };
    if root.object_value().is_none() {
        return problem("does not hold a JSON object".into());
    }
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let write_to =
        if is_link { fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()) } else { path.to_path_buf() };
    Loaded::Doc(Doc {
        path: path.to_path_buf(),
        write_to,
        permissions: fs::metadata(path).ok().map(|m| m.permissions()),
        original: Some(text),
        root,
    })
}

pub(crate) fn new_doc(path: &Path) -> Doc {
    Doc {
        path: path.to_path_buf(),
        write_to: path.to_path_buf(),
        original: None,
        permissions: None,
        root: CstRootNode::parse("{}\n", &parse_options()).expect("an empty object parses"),
    }
}

pub(crate) type EditResult<T = ()> = std::result::Result<T, String>;

pub(crate) fn input(v: &Value) -> CstInputValue {
    match v {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(a) => CstInputValue::Array(a.iter().map(input).collect()),
        Value::Object(o) => CstInputValue::Object(o.iter().map(|(k, v)| (k.clone(), input(v))).collect()),
    }
}

pub(crate) fn prop_value(prop: &CstObjectProp) -> Value {
    prop.value().and_then(|v| v.to_serde_value()).unwrap_or(Value::Null)
}

pub(crate) fn string_of(node: Option<CstNode>) -> Option<String> {
    node?.as_string_lit()?.decoded_value().ok()
}

/// The object under `key`: `None` if absent, an error if it is something else.
pub(crate) fn object_at(obj: &CstObject, key: &str, path: &str) -> EditResult<Option<(CstObjectProp, CstObject)>> {
    match obj.get(key) {
        None => Ok(None),
        Some(prop) => match prop.object_value() {
            Some(o) => Ok(Some((prop, o))),
            None => Err(format!("has `{path}` that is not a JSON object")),
        },
    }
}

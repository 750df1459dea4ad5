//! Tidy checks over the source tree (as rust-analyzer's `tidy` test): every non-test Rust
//! source file of every crate (`core/src`, `host/src`, `host/*/src`, any depth) opens with a
//! `//!` module doc, after optional `#![...]` attributes. The failure names every offending
//! file. Not for: the docs' wording, or test code (`tests/`, `benches/`, `examples/`).

use std::path::{Path, PathBuf};

/// Does `text` open with a `//!` doc (blank lines and `#![...]` attributes, which may span
/// lines, allowed before it)?
fn opens_with_module_doc(text: &str) -> bool {
    let mut open_attribute = 0i32;
    for line in text.lines() {
        let t = line.trim();
        if open_attribute > 0 {
            open_attribute += brackets(t);
            continue;
        }
        if t.is_empty() {
            continue;
        }
        if t.starts_with("#![") {
            open_attribute = brackets(t);
            continue;
        }
        return t.starts_with("//!");
    }
    false
}

/// `[` minus `]` on a line.
fn brackets(line: &str) -> i32 {
    line.chars().map(|c| (c == '[') as i32 - (c == ']') as i32).sum()
}

/// The `src/` directory of every crate in the workspace tree (a directory with a
/// `Cargo.toml` beside it), outside `tests/` and build output.
fn crate_sources(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        if dir.join("Cargo.toml").is_file() && dir.join("src").is_dir() {
            found.push(dir.join("src"));
        }
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            let name = e.file_name();
            let name = name.to_string_lossy();
            if e.file_type().unwrap().is_dir()
                && !name.starts_with('.')
                && !["target", "tests", "src", "node_modules", "benches", "examples"].contains(&name.as_ref())
            {
                stack.push(e.path());
            }
        }
    }
    found.sort();
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_source_file_opens_with_a_module_doc() {
    let root = support::workspace_root();
    let sources = crate_sources(&root);
    for expected in ["core/src", "host/src", "host/codecall/src", "host/evidence/src"] {
        assert!(sources.contains(&root.join(expected)), "{expected} not among the crates found: {sources:?}");
    }
    let mut files = Vec::new();
    for src in &sources {
        rust_files(src, &mut files);
    }
    assert!(files.len() > 50, "found only {} source files under {sources:?}", files.len());
    let mut missing: Vec<String> = files
        .iter()
        .filter(|f| !opens_with_module_doc(&std::fs::read_to_string(f).unwrap()))
        .map(|f| f.strip_prefix(&root).unwrap().display().to_string())
        .collect();
    missing.sort();
    assert!(
        missing.is_empty(),
        "{} source file(s) do not open with a `//!` module doc saying what they are for and not for:\n  {}",
        missing.len(),
        missing.join("\n  ")
    );
}

#[test]
fn the_module_doc_check_accepts_attributes_first_and_rejects_anything_else() {
    assert!(opens_with_module_doc("//! What this is for.\n\nuse std::fs;\n"));
    assert!(opens_with_module_doc("#![allow(dead_code)]\n\n//! Docs.\n"));
    assert!(opens_with_module_doc("#![cfg_attr(\n    docsrs,\n    feature(doc_cfg)\n)]\n//! Docs.\n"));
    assert!(!opens_with_module_doc("use std::fs;\n//! Too late.\n"));
    assert!(!opens_with_module_doc("// A plain comment.\n//! Docs.\n"));
    assert!(!opens_with_module_doc("/// An item doc.\nfn f() {}\n"));
    assert!(!opens_with_module_doc(""));
}

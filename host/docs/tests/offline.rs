//! The offline providers over real directory layouts.

use std::path::Path;

use dossier_docs::{ConceptQuery, Locations, Resolver, SourceKind, Status};

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn concept(label: &str, description: &str, code: &str) -> ConceptQuery {
    ConceptQuery {
        concept_id: "c0".into(),
        label: label.into(),
        canonical_id: label.to_lowercase().replace(' ', "-"),
        description: description.into(),
        code: code.into(),
    }
}

const CARGO_LOCK: &str = "version = 4\n\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\ndependencies = [\"serde\"]\n\n\
[[package]]\nname = \"serde\"\nversion = \"1.0.200\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n\
checksum = \"ab\"\n";

/// A Rust repository pinning serde 1.0.200, and a CARGO_HOME holding 1.0.200 and 1.0.100.
fn cargo_fixture() -> (tempfile::TempDir, tempfile::TempDir) {
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "Cargo.lock", CARGO_LOCK);
    write(repo.path(), "src/lib.rs", "use serde::Deserialize;\n");
    let home = tempfile::tempdir().unwrap();
    let src = "registry/src/index.crates.io-1949cf8c6b5b557f";
    write(
        home.path(),
        &format!("{src}/serde-1.0.200/README.md"),
        "# Serde\n\nSerde is a framework for serializing and deserializing Rust data structures.\n\n\
         Derive `Deserialize` to read a struct from any data format.\n",
    );
    write(
        home.path(),
        &format!("{src}/serde-1.0.200/src/lib.rs"),
        "//! # Serde\n//!\n//! Serde is a framework for *ser*ializing and *de*serializing.\n\n#![no_std]\n",
    );
    write(home.path(), &format!("{src}/serde-1.0.100/README.md"), "# Serde OLD\n\nserde 1.0.100 text\n");
    (repo, home)
}

#[test]
fn cargo_docs_are_read_from_cargo_home_at_the_cargo_lock_version() {
    let (repo, home) = cargo_fixture();
    let loc = Locations { repo: repo.path().into(), cargo_home: Some(home.path().into()), ..Default::default() };
    let r = Resolver::offline(&loc).resolve(&concept("serde deserialization", "Deserialize derive", ""));
    assert_eq!(r.status, Status::Resolved, "{r:#?}");
    let ids: Vec<&str> = r.sources.iter().map(|s| s.source_id.as_str()).collect();
    assert!(ids.contains(&"cargo:serde@1.0.200:README.md"), "{ids:?}");
    assert!(ids.contains(&"cargo:serde@1.0.200:src/lib.rs"), "{ids:?}");
    assert!(r.sources.iter().all(|s| !s.excerpt.contains("1.0.100")), "the unpinned version is never read");
    let readme = r.sources.iter().find(|s| s.source_id.ends_with("README.md")).unwrap();
    assert_eq!(readme.kind, SourceKind::PackageDocs);
    assert_eq!(readme.version.as_deref(), Some("1.0.200"));
    assert_eq!(readme.content_hash, blake3::hash(readme.excerpt.as_bytes()).to_hex().to_string());
    let crate_docs = r.sources.iter().find(|s| s.source_id.ends_with("lib.rs")).unwrap();
    assert!(crate_docs.excerpt.contains("framework") && !crate_docs.excerpt.contains("no_std"), "{crate_docs:?}");
}

#[test]
fn a_package_only_imported_by_the_cited_code_matches_weaker_than_one_the_concept_names() {
    let (repo, home) = cargo_fixture();
    let loc = Locations { repo: repo.path().into(), cargo_home: Some(home.path().into()), ..Default::default() };
    let r = Resolver::offline(&loc).resolve(&concept("wire format", "Reading config", "use serde::Deserialize;"));
    assert_eq!(r.status, Status::Resolved, "{r:#?}");
    assert!(r.sources.iter().all(|s| s.factors.concept_match == 0.6), "{r:#?}");
}

#[test]
fn a_pinned_crate_missing_from_cargo_home_is_unavailable_with_a_note() {
    let (repo, _home) = cargo_fixture();
    let empty = tempfile::tempdir().unwrap();
    let loc = Locations { repo: repo.path().into(), cargo_home: Some(empty.path().into()), ..Default::default() };
    let r = Resolver::offline(&loc).resolve(&concept("serde", "serialization", ""));
    assert_eq!(r.status, Status::Unavailable, "{r:#?}");
    assert!(r.notes.iter().any(|n| n.contains("serde@1.0.200") && n.contains("not installed")), "{:?}", r.notes);
}

#[test]
fn npm_readme_is_read_from_node_modules_at_the_package_lock_version() {
    let repo = tempfile::tempdir().unwrap();
    write(
        repo.path(),
        "package-lock.json",
        r#"{"name":"web","lockfileVersion":3,"packages":{"":{"name":"web"},
            "node_modules/left-pad":{"version":"1.3.0"},"node_modules/p-retry":{"version":"6.2.0"}}}"#,
    );
    write(repo.path(), "node_modules/left-pad/package.json", r#"{"name":"left-pad","version":"1.3.0"}"#);
    write(repo.path(), "node_modules/left-pad/README.md", "# left-pad\n\nPads a string on the left.\n");
    write(repo.path(), "node_modules/p-retry/package.json", r#"{"name":"p-retry","version":"5.0.0"}"#);
    write(repo.path(), "node_modules/p-retry/readme.md", "# p-retry\n\nRetry a promise-returning function.\n");
    let loc = Locations { repo: repo.path().into(), ..Default::default() };
    let r = Resolver::offline(&loc).resolve(&concept("left-pad", "padding strings", ""));
    assert_eq!(r.status, Status::Resolved, "{r:#?}");
    assert_eq!(r.sources[0].source_id, "npm:left-pad@1.3.0:README.md");
    assert_eq!(r.sources[0].factors.version_match, 1.0);
    // Installed at another version than the lock pins: offered, ranked down, with a note.
    let r = Resolver::offline(&loc).resolve(&concept("p-retry", "retrying promises", ""));
    assert_eq!(r.sources[0].factors.version_match, 0.2, "{r:#?}");
    assert!(r.notes.iter().any(|n| n.contains("installed version 5.0.0 differs")), "{:?}", r.notes);
}

#[test]
fn python_metadata_is_read_from_the_dist_info_of_the_pinned_version() {
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "requirements.txt", "requests==2.31.0  # http\nflask>=2\n");
    write(
        repo.path(),
        ".venv/lib/python3.12/site-packages/requests-2.31.0.dist-info/METADATA",
        "Metadata-Version: 2.1\nName: requests\nVersion: 2.31.0\nSummary: Python HTTP for Humans.\n\n\
         # Requests\n\nRequests is a simple HTTP library with sessions and retries.\n",
    );
    let loc = Locations { repo: repo.path().into(), ..Default::default() };
    let r = Resolver::offline(&loc).resolve(&concept("requests sessions", "HTTP sessions", ""));
    assert_eq!(r.status, Status::Resolved, "{r:#?}");
    assert_eq!(r.sources[0].source_id, "python:requests@2.31.0:METADATA");
    assert!(r.sources[0].excerpt.contains("sessions"), "{:?}", r.sources[0].excerpt);
}

#[test]
fn go_docs_are_read_from_the_module_cache_at_the_go_mod_version() {
    let repo = tempfile::tempdir().unwrap();
    write(
        repo.path(),
        "go.mod",
        "module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/BurntSushi/toml v1.3.2\n)\n",
    );
    let cache = tempfile::tempdir().unwrap();
    write(
        cache.path(),
        "github.com/!burnt!sushi/toml@v1.3.2/README.md",
        "# TOML\n\nTOML parser for Go with reflection.\n",
    );
    let loc = Locations { repo: repo.path().into(), go_mod_cache: Some(cache.path().into()), ..Default::default() };
    let r = Resolver::offline(&loc).resolve(&concept(
        "config parsing",
        "decoding TOML files",
        "import \"github.com/BurntSushi/toml\"",
    ));
    assert_eq!(r.status, Status::Resolved, "{r:#?}");
    assert_eq!(r.sources[0].source_id, "go:github.com/BurntSushi/toml@v1.3.2:README.md");
}

#[test]
fn project_docs_adrs_and_changed_symbols_doc_comments_are_ranked() {
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "README.md", "# App\n\nA small service.\n");
    write(repo.path(), "CHANGELOG.md", "# Changelog\n\n- added retry with backoff\n");
    write(
        repo.path(),
        "docs/adr/0003-retry-backoff.md",
        "# Retry with backoff\n\nWe retry with exponential backoff.\n",
    );
    write(
        repo.path(),
        "src/net.rs",
        "/// Retries `send` with exponential backoff, doubling the delay.\n#[inline]\npub fn retry_with_backoff() {}\n",
    );
    let loc = Locations {
        repo: repo.path().into(),
        changed_symbols: vec![("src/net.rs".into(), vec!["retry_with_backoff".into()])],
        ..Default::default()
    };
    let r = Resolver::offline(&loc).resolve(&concept("retry backoff", "exponential backoff between attempts", ""));
    assert_eq!(r.status, Status::Resolved, "{r:#?}");
    let ids: Vec<&str> = r.sources.iter().map(|s| s.source_id.as_str()).collect();
    assert_eq!(ids[0], "project:docs/adr/0003-retry-backoff.md", "an ADR outranks the changelog: {ids:?}");
    assert!(ids.contains(&"project:doc:src/net.rs#retry_with_backoff"), "{ids:?}");
    assert!(!ids.contains(&"project:README.md"), "a document that does not match is never returned: {ids:?}");
    let doc = r.sources.iter().find(|s| s.source_id.contains("#retry")).unwrap();
    assert!(doc.excerpt.contains("doubling the delay"), "{doc:?}");
}

#[test]
fn a_concept_no_provider_documents_is_not_needed() {
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "src/lib.rs", "pub fn f() {}\n");
    let loc = Locations { repo: repo.path().into(), ..Default::default() };
    let r = Resolver::offline(&loc).resolve(&concept("local invariant", "why f is pure", ""));
    assert_eq!(r.status, Status::NotNeeded);
    assert!(r.sources.is_empty());
    assert!(!r.notes.is_empty());
}

#[test]
fn a_python_docstring_and_a_hash_comment_are_doc_comments() {
    let py = "def fetch(url):\n    \"\"\"Fetch with retries.\"\"\"\n    pass\n";
    assert_eq!(dossier_docs::project::doc_comment(py, "fetch").as_deref(), Some("Fetch with retries."));
    let rb = "# Clears the cache entry.\ndef invalidate(key)\nend\n";
    assert_eq!(dossier_docs::project::doc_comment(rb, "invalidate").as_deref(), Some("Clears the cache entry."));
}

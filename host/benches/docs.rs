//! codecall documentation resolution benchmarks (figures in docs/performance.md, "codecall
//! documentation resolution"): the offline resolver as the runtime runs it before one lesson
//! work order — a fresh registry (nothing cached across units), two concepts, the merge of
//! `dossier_codecall::docs::resolve_with`, then the runtime's redaction and hashing
//! (`dossier_codecall::docs::redact`, here with the native redactor) — on a generated repository
//! of 2,000 files: 1,900 Rust sources, 60 Markdown files under `docs/` (10 of them ADRs), a
//! README and CHANGELOG, a `Cargo.lock` pinning 200 registry crates whose sources (README and
//! `src/lib.rs`) sit in a fake `CARGO_HOME`, and a `package-lock.json` with 30 packages in
//! `node_modules`. Target: ≤ 50 ms per unit.
//!
//! - `resolve_unit_2000_files`: one unit, its concepts naming a pinned crate and a topic the
//!   project documents;
//! - `read_dir_2000_files` (reference): listing every directory of the repository once — the
//!   floor of any approach that walks the whole tree.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use dossier_codecall::docs::{DocRequest, redact, resolve_with};
use dossier_docs::{ConceptQuery, Locations, Resolver};

fn main() {
    divan::main();
}

struct Fixture {
    repo: PathBuf,
    cargo_home: PathBuf,
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let root = tempfile::tempdir().unwrap().keep();
        let repo = root.join("repo");
        let cargo_home = root.join("cargo");
        let mut files = 0;
        for i in 0..1_900 {
            write(&repo, &format!("src/m{}/f{i}.rs", i % 40), &format!("/// Item {i}.\npub fn f{i}() -> u32 {{\n    {i}\n}}\n"));
            files += 1;
        }
        for i in 0..50 {
            write(&repo, &format!("docs/guide/topic{i}.md"), &format!("# Topic {i}\n\nHow part {i} of the service works.\n\n{}\n", "Details. ".repeat(200)));
            files += 1;
        }
        for i in 0..10 {
            let body = if i == 3 { "Calls to the upstream retry with exponential backoff." } else { "A decision." };
            write(&repo, &format!("docs/adr/{i:04}-decision.md"), &format!("# ADR {i}\n\n{body}\n"));
            files += 1;
        }
        write(&repo, "README.md", "# Service\n\nA service with retries.\n");
        write(&repo, "CHANGELOG.md", "# Changelog\n\n- retry with backoff\n");
        files += 2;
        let mut lock = String::from("version = 4\n");
        let src = "registry/src/index.crates.io-1949cf8c6b5b557f";
        for i in 0..200 {
            let name = if i == 0 { "tokio-retry".to_string() } else { format!("crate{i}") };
            lock.push_str(&format!(
                "\n[[package]]\nname = \"{name}\"\nversion = \"1.{i}.0\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
            ));
            write(&cargo_home, &format!("{src}/{name}-1.{i}.0/README.md"), &format!("# {name}\n\n{name} does retry and backoff things.\n"));
            write(&cargo_home, &format!("{src}/{name}-1.{i}.0/src/lib.rs"), &format!("//! {name}: crate docs.\n"));
        }
        write(&repo, "Cargo.lock", &lock);
        files += 1;
        let mut pkgs = Vec::new();
        for i in 0..30 {
            pkgs.push(format!("\"node_modules/pkg{i}\":{{\"version\":\"2.{i}.0\"}}"));
            write(&repo, &format!("node_modules/pkg{i}/package.json"), &format!("{{\"name\":\"pkg{i}\",\"version\":\"2.{i}.0\"}}"));
            write(&repo, &format!("node_modules/pkg{i}/README.md"), &format!("# pkg{i}\n"));
        }
        write(&repo, "package-lock.json", &format!("{{\"lockfileVersion\":3,\"packages\":{{{}}}}}", pkgs.join(",")));
        files += 1;
        assert!(files >= 1_964, "{files}");
        // Pad to 2,000 files outside the documentation folders.
        for i in files..2_000 {
            write(&repo, &format!("assets/a{i}.txt"), "x\n");
        }
        Fixture { repo, cargo_home }
    })
}

fn request(f: &Fixture) -> DocRequest {
    let concept = |id: &str, label: &str, code: &str| ConceptQuery {
        concept_id: id.into(),
        label: label.into(),
        canonical_id: label.replace(' ', "-"),
        description: format!("How the change handles {label}"),
        code: code.into(),
    };
    DocRequest {
        repo: f.repo.clone(),
        concepts: vec![
            concept("c0", "retry backoff", "use tokio_retry::strategy::ExponentialBackoff;"),
            concept("c1", "upstream decision", ""),
        ],
        changed_symbols: vec![("src/m0/f0.rs".into(), vec!["f0".into()])],
        network: false,
    }
}

#[divan::bench(sample_count = 30)]
fn resolve_unit_2000_files(b: divan::Bencher) {
    let f = fixture();
    let req = request(f);
    b.bench(|| {
        let loc = Locations {
            repo: f.repo.clone(),
            cargo_home: Some(f.cargo_home.clone()),
            changed_symbols: req.changed_symbols.clone(),
            ..Default::default()
        };
        let r = redact(&dossier_codecall::NativeRedactor, resolve_with(&Resolver::offline(&loc), &req, false)).unwrap();
        assert!(r.sources.iter().any(|s| s.source_id == "cargo:tokio-retry@1.0.0:README.md"), "{:?}", r.notes);
        r
    });
}

#[divan::bench(sample_count = 30)]
fn read_dir_2000_files(b: divan::Bencher) {
    let f = fixture();
    b.bench(|| {
        let mut n = 0usize;
        let mut stack = vec![f.repo.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                if e.file_type().unwrap().is_dir() {
                    stack.push(e.path());
                } else {
                    n += 1;
                }
            }
        }
        assert!(n >= 2_000);
        n
    });
}

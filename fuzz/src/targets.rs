//! One function per parser that reads input the project did not write (issue 18): each takes
//! arbitrary bytes, runs the parser's public entry point, and asserts what must hold on any
//! input: no panic, a rejection is the SPEC §8.2 code of that parser (never another), and
//! where a rendering exists, rendering what parsed is a fixed point of parse-then-render.
//!
//! Used by the libFuzzer targets (`fuzz/fuzz_targets/`) and, through `#[path]`, by the test
//! suite's corpus replay (`tests/fuzz.rs`), so the CI run and the long run check the same
//! properties.
//!
//! Not for: writes through the store (the "nothing written on rejection" properties are
//! proptests in `host/store/tests/fuzz_props.rs`, with a real temp store).

use std::path::Path;
use std::sync::OnceLock;

use dossier_store::error::Code;

/// Bytes as the store reads a text file: `read_to_string` refuses what is not UTF-8, so only
/// UTF-8 reaches the parsers (invalid UTF-8 is still fed, lossily, to the byte-level ones).
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// `dossier.md`: frontmatter (split, YAML, validation) and body. A rejection is
/// `invalid_frontmatter`; an accepted document renders to bytes that parse back to the same
/// document, and rendering is idempotent.
pub fn frontmatter(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let file = Path::new("dossier.md");
    match dossier_store::model::DossierDoc::parse(text, file) {
        Err(e) => assert_eq!(e.code, Code::InvalidFrontmatter, "{e:?}"),
        Ok(doc) => {
            let _ = dossier_store::model::body_structure_warnings(&doc.body);
            let rendered = doc.render();
            let again = dossier_store::model::DossierDoc::parse(&rendered, file)
                .unwrap_or_else(|e| panic!("a rendered document does not parse: {e:?}\n{rendered}"));
            assert_eq!(again.frontmatter, doc.frontmatter, "frontmatter changed through render");
            assert_eq!(again.render(), rendered, "render is not a fixed point");
        }
    }
}

/// Provenance markers (`[src:...]` citations) and the rest of the distill checks: findings
/// only, never a panic; every finding's line is in the document (0 for the whole document).
pub fn provenance(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let artifacts = [
        dossier_core::distill::ArtifactInfo { id: "art_01".into(), line_count: Some(40) },
        dossier_core::distill::ArtifactInfo { id: "art_02".into(), line_count: None },
    ];
    let lines = text.lines().count() as u32;
    for f in dossier_core::distill::validate(&text, &artifacts) {
        assert!(f.line <= lines.max(1), "finding {f:?} past the last line ({lines})");
        assert!(!f.message.is_empty(), "finding without a message: {f:?}");
    }
}

/// A conflict file (`conflicts/*.md`): YAML header between `---` fences, then the proposal.
/// `split_conflict` answers `None` for what is not one; `conflicts::read` (the listing's
/// reader) on the same bytes in a real file agrees with it.
pub fn conflict_file(data: &[u8]) {
    if let Some(text) = text(data)
        && let Some((_, rest)) = dossier_store::save::split_conflict(text)
    {
        assert!(text.ends_with(rest), "the rest is not a suffix of the file");
    }
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let d = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(d.path().join("some-dossier/conflicts")).expect("conflicts dir");
        d
    });
    let path = dir.path().join("some-dossier/conflicts/conf_fuzz.md");
    std::fs::write(&path, data).expect("write the conflict file");
    let info = dossier_store::conflicts::read(&path);
    let split = text(data).and_then(dossier_store::save::split_conflict).is_some();
    assert_eq!(info.is_some(), split, "conflicts::read and split_conflict disagree");
    if let Some(info) = info {
        assert_eq!(info.slug, "some-dossier");
    }
}

/// `config.yaml`: a rejection is `invalid_config` with a next step; an accepted config's
/// derived values (limits, weights, policy paths) are computed without a panic, and the
/// harness block round-trips through `split_harness_block`.
pub fn config(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let path = Path::new("/store/config.yaml");
    match dossier_store::config::Config::parse(text, path) {
        Err(e) => assert_eq!(e.code, Code::InvalidConfig, "{e:?}"),
        Ok(c) => {
            let _ = c.limits();
            let _ = c.tokens.calibration;
            let _ = c.policy_overrides(Path::new("/store"));
        }
    }
    let (user, block) = dossier_store::config::split_harness_block(text);
    assert!(text.starts_with(user.trim_end_matches('\n')) || user.is_empty());
    if let Some(b) = block {
        assert!(text.ends_with(b));
    }
    let _ = dossier_store::config::user_defines_harness(user);
}

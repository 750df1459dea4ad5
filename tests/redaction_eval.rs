//! Issue 20's held-out redaction evaluation, through the product: every file of the corpus
//! `tests/fixtures/redaction/heldout/` (written by a separate author, never used to tune a rule;
//! `labels.json` names every secret and near-miss) is captured with `dossier save --artifact`
//! into a fresh store; the archived copies are scored by the corpus's own scorer
//! (`tests/fixtures/redaction/score.py`, value level), and every file of the store is searched
//! for every labelled secret value ("no secret of a common format reaches any file of the
//! store").
//!
//! The figures are recorded in docs/privacy.md ("Held-out evaluation"); the bars below are
//! that one run's figures, so the test fails on a regression. Nothing here is calibration: a
//! rule is never written or changed against this corpus.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use support::secrets::leaks;
use support::{TempStore, json_of};

/// Bars from the one run after issue 20's rules (2026-12-01, docs/privacy.md): 110 of 118
/// secrets caught (the target is all of them: not met), 3 of 107 near-misses redacted
/// (target at most 1 in 10: met), 8 labelled secret lines' values found in the store.
const MIN_SECRETS_CAUGHT: u64 = 110;
const MAX_NEAR_MISS_FALSE_POSITIVES: u64 = 3;
const MAX_LEAKED_VALUES: usize = 8;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/redaction/heldout")
}

/// An archived artifact's text as the corpus file it came from: a Markdown artifact carries its
/// metadata as frontmatter and a blank line, which are dropped (the lines its citations count,
/// as `dossier_store::distill` does); JSON and text artifacts are the capture itself.
fn captured_text(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    if path.extension().is_some_and(|e| e == "md") {
        if let Some(rest) = text.strip_prefix("---\n") {
            if let Some((_, body)) = rest.split_once("\n---\n") {
                return body.strip_prefix('\n').unwrap_or(body).to_string();
            }
        }
    }
    text
}

#[test]
fn redaction_heldout_corpus_through_save_artifact() {
    let labels: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(corpus().join("labels.json")).unwrap()).unwrap();
    let files: BTreeSet<String> = labels.iter().map(|l| l["file"].as_str().unwrap().to_string()).collect();
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let out = s.cmd().args(["promote", "--json", "--create", "--name", "Redaction held-out"]).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let slug = json_of(&out)["data"]["slug"].as_str().unwrap().to_string();
    let copies = tempfile::tempdir().unwrap();
    let artifacts = s.root().join(&slug).join("artifacts");
    for name in &files {
        let mut out = s.cmd().args(["save", &slug, "--json", "--artifact"]).arg(corpus().join(name)).output().unwrap();
        if !out.status.success() && json_of(&out)["error"]["details"]["expected"] == "JSON (content_format json)" {
            // A `.json` file that is not strict JSON (comments, as .NET's appsettings allow) is
            // refused as a JSON artifact; the user's next move is to capture it as text.
            let as_text = copies.path().join(format!("{name}.txt"));
            std::fs::copy(corpus().join(name), &as_text).unwrap();
            out = s.cmd().args(["save", &slug, "--json", "--artifact"]).arg(&as_text).output().unwrap();
            std::fs::remove_file(&as_text).unwrap();
            println!("redaction_heldout: {name} is not strict JSON, captured as text");
        }
        assert!(out.status.success(), "{name}: {out:?}");
        let v = json_of(&out);
        let audit = std::fs::read_to_string(s.root().join(&slug).join("audit.log")).unwrap();
        let last: Value = serde_json::from_str(audit.lines().last().unwrap()).unwrap();
        let id = last["artifacts_added"][0].as_str().unwrap_or_else(|| panic!("{name}: {v:#}")).to_string();
        let stored = std::fs::read_dir(&artifacts)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                let f = p.file_name().unwrap().to_string_lossy().into_owned();
                f.starts_with(&id) && !f.ends_with(".meta.yaml")
            })
            .unwrap_or_else(|| panic!("{name}: no archived file for {id}"));
        std::fs::write(copies.path().join(name), captured_text(&stored)).unwrap();
    }

    // The corpus's scorer, value level.
    let score = std::process::Command::new("python3")
        .arg(corpus().parent().unwrap().join("score.py"))
        .arg("--json")
        .arg(copies.path())
        .output()
        .expect("python3 runs the corpus's scorer (the README's test set-up installs it)");
    assert!(score.status.success(), "{score:?}");
    let fig: Value = serde_json::from_slice(&score.stdout).unwrap();
    println!("redaction_heldout: {}", serde_json::to_string(&fig).unwrap());
    // Only the totals are printed: the misses are not for reading by whoever writes rules next
    // (`python3 tests/fixtures/redaction/score.py -v <dir>` lists them, for auditing labels).

    // No labelled secret value anywhere in the store.
    let values: Vec<String> = labels
        .iter()
        .filter(|l| l["secret"].as_bool().unwrap())
        .map(|l| l["value"].as_str().unwrap().to_string())
        .filter(|v| v.len() >= 8)
        .collect();
    let leaked: BTreeSet<usize> = leaks(s.root(), &values).into_iter().map(|(_, i)| i).collect();
    println!("redaction_heldout: leaked_values={} of {}", leaked.len(), values.len());

    assert!(fig["secrets_caught"].as_u64().unwrap() >= MIN_SECRETS_CAUGHT, "{fig:#}");
    assert!(fig["near_miss_false_positives"].as_u64().unwrap() <= MAX_NEAR_MISS_FALSE_POSITIVES, "{fig:#}");
    assert!(leaked.len() <= MAX_LEAKED_VALUES, "leaked: {leaked:?}");
}

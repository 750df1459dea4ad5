//! Issue 20's redaction evaluations, through the product: a runner over a corpus directory
//! under `tests/fixtures/redaction/` (files + `labels.json` naming every secret and
//! near-miss): every file is captured with `dossier save --artifact` into a fresh store; the
//! archived copies are scored by the corpus scorer (`tests/fixtures/redaction/score.py
//! --corpus <dir>`, value level), and every file of the store is searched for every labelled
//! secret value ("no secret of a common format reaches any file of the store").
//!
//! One test per corpus, each with its bars (the figures of its recorded run, so a regression
//! fails): adding a corpus is one `#[test]` calling [`run_corpus`]. The figures are recorded in
//! docs/privacy.md ("Held-out evaluation", "Second round").
//!
//! `heldout/` (round 1's held-out corpus) is now a **development set**: the second round read
//! its misses and fixed their causes, so its figures no longer measure rules on unseen text.
//! `heldout2/` (a new author's, never opened by the rules' authors) is the measurement; the
//! lead adds its entry and scores it once after the rules' last change.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use support::secrets::leaks;
use support::{TempStore, json_of};

/// What a corpus's run must reach: at least `min_caught` secrets caught, at most
/// `max_false_positives` near-misses redacted, at most `max_leaked` labelled secret values
/// found anywhere in the store.
struct Bars {
    min_caught: u64,
    max_false_positives: u64,
    max_leaked: usize,
}

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/redaction").join(name)
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

/// Development set (round 1's held-out corpus, spent by the second round, 2026-12-01): round 1
/// caught 110 of 118 secrets and redacted 3 of 107 near-misses, 8 values reached the store;
/// after the second round's rules 118 of 118, 0 of 107, 0 (docs/privacy.md, "Second round":
/// development figures, not a measurement); after the third, 116 of 118 with 2 values stored:
/// its two Sentry DSN public keys, which the third round keeps as public by design (Sentry
/// documents DSNs as safe to expose; the later corpora's authors label them near-misses).
#[test]
fn redaction_heldout_corpus_through_save_artifact() {
    run_corpus("heldout", Bars { min_caught: 116, max_false_positives: 0, max_leaked: 2 });
}

/// The second held-out corpus (`redacteval2`, 2026-12-01): measured once on the second round's
/// rules (132 of 146 caught, 4 near-misses, 14 values stored; docs/privacy.md, "Second held-out
/// corpus, scored"), then the third round's development set: the bars are its development
/// figures since (after the fifth round: 1 near-miss, an Auth0 client id as a bare command
/// argument, which the high-entropy net takes for a secret).
#[test]
fn redaction_heldout2_corpus_through_save_artifact() {
    run_corpus("heldout2", Bars { min_caught: 146, max_false_positives: 1, max_leaked: 0 });
}

/// The third held-out corpus (`redacteval3`, 2026-12-01): measured once on the third round's
/// rules (146 of 150 caught, 4 near-misses, 4 values stored; docs/privacy.md, "Third held-out
/// corpus, scored"), then the fourth round's development set: the bars are its development
/// figures since (its author labelled a service account's `private_key_id` a near-miss; the
/// rules redact it, as the second corpus's author wanted).
#[test]
fn redaction_heldout3_corpus_through_save_artifact() {
    run_corpus("heldout3", Bars { min_caught: 150, max_false_positives: 2, max_leaked: 0 });
}

/// The fourth held-out corpus (`redacteval4`, 2026-12-01; written while the fourth round's rules
/// were written, never opened by their author): measured once on the fourth round's rules (142
/// of 153 caught, 3 near-misses, 11 values stored; docs/privacy.md, "Fourth held-out corpus"),
/// then the fifth round's development set: the bars are its development figures since (the
/// eighth round: 2 near-misses, was 3 — an instrumentation key is public by design).
#[test]
fn redaction_heldout4_corpus_through_save_artifact() {
    run_corpus("heldout4", Bars { min_caught: 153, max_false_positives: 2, max_leaked: 0 });
}

/// The fifth held-out corpus (`redacteval5`, 2026-12-01; written while the fifth round's rules
/// were written, never opened by their author): measured once on the fifth round's rules (177
/// of 187 caught, 7 of 158 near-misses redacted, 10 labelled values stored; docs/privacy.md,
/// "Fifth held-out corpus"), then the sixth round's validation set, run for its figures only
/// (never opened; it chose which rules were kept, so it is spent): the bars are the sixth
/// round's figures (docs/privacy.md, "Sixth round"): 185 caught, 7 near-misses, 2 stored;
/// since the seventh round (a development set, its two misses' causes fixed as classes:
/// docs/privacy.md, "Seventh round"): 187 caught, 7 near-misses, 0 stored; since the eighth
/// round: 3 near-misses (an `{SSHA}` hash, a SOPS ciphertext, a Pusher key and a Vault accessor
/// are not credentials: docs/privacy.md, "Eighth round"); since the tenth round: 2 near-misses
/// (`jwt.token-validity-seconds=900`: a hyphenated compound is not a secret word and its value,
/// docs/privacy.md, "Tenth round").
#[test]
fn redaction_heldout5_corpus_through_save_artifact() {
    run_corpus("heldout5", Bars { min_caught: 187, max_false_positives: 2, max_leaked: 0 });
}

/// Capture every file of the corpus `corpus_name` into a fresh store, score the archived copies and
/// search the store for every labelled value; assert `bars`.
fn run_corpus(corpus_name: &str, bars: Bars) {
    let dir = corpus(corpus_name);
    let corpus = || dir.clone();
    let labels: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(corpus().join("labels.json")).unwrap()).unwrap();
    let files: BTreeSet<String> = labels.iter().map(|l| l["file"].as_str().unwrap().to_string()).collect();
    let s = TempStore::new(crate::DOSSIER);
    s.init();
    let out = s
        .cmd()
        .args(["promote", "--json", "--create", "--name", &format!("Redaction {corpus_name}")])
        .output()
        .unwrap();
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
            println!("redaction_{corpus_name}: {name} is not strict JSON, captured as text");
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
        .arg("--corpus")
        .arg(corpus())
        .arg(copies.path())
        .output()
        .expect("python3 runs the corpus's scorer (the README's test set-up installs it)");
    assert!(score.status.success(), "{score:?}");
    let fig: Value = serde_json::from_slice(&score.stdout).unwrap();
    println!("redaction_{corpus_name}: {}", serde_json::to_string(&fig).unwrap());
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
    println!("redaction_{corpus_name}: leaked_values={} of {}", leaked.len(), values.len());

    assert!(fig["secrets_caught"].as_u64().unwrap() >= bars.min_caught, "{fig:#}");
    assert!(fig["near_miss_false_positives"].as_u64().unwrap() <= bars.max_false_positives, "{fig:#}");
    assert!(leaked.len() <= bars.max_leaked, "leaked: {leaked:?}");
}

/// The sixth held-out corpus (`redacteval6`, session 11, 2026-12-02; written while the sixth
/// round's rules were written, never opened by their author): the measurement (docs/privacy.md,
/// "Sixth held-out corpus, scored"). Bars: its figures, the same before and after the sixth
/// round: 193 of 203 caught, 8 of 171 near-misses redacted, 10 labelled values stored. Then
/// the seventh round's validation set, run for its figures only (never opened; it chose which
/// rules were kept, so it is spent): 195 caught, 8 near-misses, 8 stored (docs/privacy.md,
/// "Seventh round"). Since the eighth round (a development set): 202 caught, 0 near-misses,
/// 1 stored (docs/privacy.md, "Eighth round").
#[test]
fn redaction_heldout6_corpus_through_save_artifact() {
    run_corpus("heldout6", Bars { min_caught: 202, max_false_positives: 0, max_leaked: 1 });
}

/// The seventh held-out corpus (`redacteval7`, session 12, 2026-12-02; written while the seventh
/// round's rules were written, never opened by their author): the measurement (docs/privacy.md,
/// "Seventh held-out corpus, scored"). Bars: its figures after the seventh round (227 of 235
/// caught before it, 228 after; 17 of 177 near-misses redacted both times; 10 then 9 labelled
/// values stored). Since the eighth round (a development set): 234 caught, 4 near-misses, 1
/// stored (docs/privacy.md, "Eighth round").
#[test]
fn redaction_heldout7_corpus_through_save_artifact() {
    run_corpus("heldout7", Bars { min_caught: 234, max_false_positives: 4, max_leaked: 1 });
}

/// The eighth held-out corpus (`redacteval8`, session 12, 2026-12-02; written after the seventh
/// round and session 12's fixes, by an author who read no rule, no corpus file and not
/// docs/privacy.md): the measurement (docs/privacy.md, "Eighth held-out corpus, scored").
/// Bars: its one run's figures (193 of 201 caught, 10 of 208 near-misses redacted, 8 labelled
/// values stored); then the eighth round's validation set, run for its counts only (never
/// opened): 195 caught, 7 near-misses, at most 6 stored (docs/privacy.md, "Eighth round").
#[test]
fn redaction_heldout8_corpus_through_save_artifact() {
    run_corpus("heldout8", Bars { min_caught: 195, max_false_positives: 7, max_leaked: 6 });
}

/// The ninth held-out corpus (`redacteval9`, session 13, 2026-12-02; written while the eighth
/// round's rules were written, by an author who read no rule, no corpus file and not
/// docs/privacy.md; never opened by the round's builder): the measurement (docs/privacy.md,
/// "Ninth held-out corpus, scored"). Bars: its figures after the eighth round (193 of 207
/// caught before and after it; 18 then 13 of 205 near-misses redacted; 14 labelled values
/// stored both times); raised after session 13's development round on it (docs/privacy.md,
/// "After the ninth corpus": 204 caught, 13 near-misses, 3 stored — development figures,
/// the corpus spent).
#[test]
fn redaction_heldout9_corpus_through_save_artifact() {
    run_corpus("heldout9", Bars { min_caught: 204, max_false_positives: 13, max_leaked: 3 });
}

/// The tenth held-out corpus (`redacteval10`, session 14, 2026-12-02; written while the tenth
/// round's rules were written, by an author who read no rule, no corpus file and not
/// docs/privacy.md; never opened by the round's builder): the measurement (docs/privacy.md,
/// "Tenth and eleventh held-out corpora, scored"). Its fresh figures, natively: 168 of 186
/// caught and 13 of 163 near-misses redacted before the tenth round, 169 and 14 after it. Bars:
/// after session 14's fix for keys named by a glued secret word (found on this corpus's misses,
/// so it is spent): 170 caught, 14 near-misses, 31 labelled values (lines) stored.
#[test]
fn redaction_heldout10_corpus_through_save_artifact() {
    run_corpus("heldout10", Bars { min_caught: 170, max_false_positives: 14, max_leaked: 31 });
}

/// The eleventh held-out corpus (`redacteval11`, session 14, 2026-12-02), written beside the
/// tenth by another author under the same rules: the measurement (docs/privacy.md, "Tenth and
/// eleventh held-out corpora, scored"). Its fresh figures, natively: 169 of 192 caught and 17
/// of 157 near-misses redacted before the tenth round, 168 and 16 after it. Bars: after session
/// 14's fix (spent, as heldout10): 170 caught, 16 near-misses, 22 labelled values stored.
#[test]
fn redaction_heldout11_corpus_through_save_artifact() {
    run_corpus("heldout11", Bars { min_caught: 170, max_false_positives: 16, max_leaked: 22 });
}

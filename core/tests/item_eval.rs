//! The item-writing-flaw evaluation of `check_item` (issue 21, item 4): MCQ items under
//! `tests/item_eval/<set>/*.json`, each `{"item": {…mcq-item fields, snake_case…}, "flaws":
//! [codes], "why": "…"}`, written by a separate author. An item with flaw F is *caught* when
//! `check_item` raises F's finding (the map [`FLAWS`]); a *false finding* is a flaw finding on
//! a sound item (`"flaws": []`), and a sound item is *refused* when one of them is an error.
//!
//! [`score_dir`] scores one directory and prints the figures as `<prefix>: key=value` lines (a
//! stable format); `item_eval_dev_set` scores the development set (`tests/item_eval/dev/`,
//! used for tuning) and fails when a figure falls below the bars recorded in
//! docs/learning-policy.md ("Evaluation"). A held-out set is scored by the same function on
//! its own directory, with its own prefix.
//!
//! Run: `cargo test -p dossier-core --offline --test main -- item_eval_dev --nocapture`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use dossier_core::distill::Severity;
use dossier_core::learning::{Choice, EvidenceRef, McqItem, QuestionIntent, check_item};
use serde_json::Value;

/// The set's flaw codes and the finding that catches each.
pub const FLAWS: &[(&str, &str)] = &[
    ("negative-stem", "negative-stem"),
    ("combination-option", "combination-option"),
    ("all-or-none-of-the-above", "all-or-none-of-the-above"),
    ("absolute-terms", "absolute-terms"),
    ("vague-qualifier", "vague-qualifier"),
    ("stem-cue", "stem-cue"),
    ("convergence", "convergence"),
    ("grammar-cue", "grammar-cue"),
    ("short-distractor", "short-distractor"),
    ("longest-answer", "correct-choice-longest"),
    ("duplicate-choice", "duplicate-choice-text"),
];

fn finding_for(flaw: &str) -> &'static str {
    FLAWS.iter().find(|(f, _)| *f == flaw).map(|(_, c)| *c).unwrap_or_else(|| panic!("unknown flaw code `{flaw}`"))
}

/// Figures of one set.
#[derive(Debug, Default)]
pub struct Scores {
    /// Per flaw code: (items with the flaw, items caught).
    pub per_flaw: BTreeMap<&'static str, (usize, usize)>,
    pub sound: usize,
    /// Sound items with at least one flaw finding, and with at least one flaw error.
    pub sound_flagged: usize,
    pub sound_refused: usize,
    /// Per finding code: flaw findings raised on sound items.
    pub false_findings: BTreeMap<&'static str, usize>,
    /// Per finding code: findings raised on flawed items that do not carry that flaw.
    pub extra_findings: BTreeMap<&'static str, usize>,
}

impl Scores {
    pub fn caught(&self, flaw: &str) -> usize {
        self.per_flaw.get(flaw).map_or(0, |(_, c)| *c)
    }
    pub fn false_total(&self) -> usize {
        self.false_findings.values().sum()
    }
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

fn intent(s: &str) -> QuestionIntent {
    match s.replace('-', "_").as_str() {
        "causal_reasoning" => QuestionIntent::CausalReasoning,
        "tradeoff" => QuestionIntent::Tradeoff,
        "debugging" => QuestionIntent::Debugging,
        "system_design" => QuestionIntent::SystemDesign,
        _ => QuestionIntent::Scenario,
    }
}

/// The item of one file; fields the set leaves out get neutral values (they are not flaws).
fn item(v: &Value) -> McqItem {
    let choices = v
        .get("choices")
        .and_then(Value::as_array)
        .map(|cs| {
            cs.iter()
                .map(|c| Choice { id: text(c, "id"), text: text(c, "text"), rationale: text(c, "rationale") })
                .collect()
        })
        .unwrap_or_default();
    let evidence = v
        .get("evidence")
        .and_then(Value::as_array)
        .map(|es| {
            es.iter()
                .map(|e| EvidenceRef {
                    path: text(e, "path"),
                    revision: text(e, "revision"),
                    start_line: e.get("start_line").and_then(Value::as_u64).unwrap_or(1) as u32,
                    end_line: e.get("end_line").and_then(Value::as_u64).unwrap_or(1) as u32,
                    content_hash: text(e, "content_hash"),
                })
                .collect()
        })
        .unwrap_or_default();
    McqItem {
        unit_id: text(v, "unit_id"),
        prompt: text(v, "prompt"),
        choices,
        correct_choice_id: text(v, "correct_choice_id"),
        intent: intent(&text(v, "intent")),
        evidence,
    }
}

/// Score every `*.json` file of `dir` and print the figures, each line prefixed `<prefix>:`.
/// Panics when the directory holds no item.
pub fn score_dir(dir: &Path, prefix: &str) -> Scores {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: no item files", dir.display());
    let flaw_codes: Vec<&'static str> = FLAWS.iter().map(|(_, c)| *c).collect();
    let mut s = Scores::default();
    for (flaw, _) in FLAWS {
        s.per_flaw.insert(flaw, (0, 0));
    }
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let raw = fs::read_to_string(file).unwrap();
        let v: Value = serde_json::from_str(&raw).unwrap_or_else(|e| panic!("{name}: {e}"));
        let flaws: Vec<String> = v["flaws"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: no `flaws` list"))
            .iter()
            .map(|f| f.as_str().unwrap().to_string())
            .collect();
        let expected: Vec<&'static str> = flaws.iter().map(|f| finding_for(f)).collect();
        let findings: Vec<_> =
            check_item(&item(&v["item"])).into_iter().filter(|f| flaw_codes.contains(&f.code)).collect();
        let raised = |code: &str| findings.iter().any(|f| f.code == code);
        for f in &flaws {
            let entry = s.per_flaw.get_mut(FLAWS.iter().find(|(x, _)| x == f).unwrap().0).unwrap();
            entry.0 += 1;
            if raised(finding_for(f)) {
                entry.1 += 1;
            } else {
                println!("{prefix}: missed file={name} flaw={f}");
            }
        }
        if flaws.is_empty() {
            s.sound += 1;
            if !findings.is_empty() {
                s.sound_flagged += 1;
            }
            if findings.iter().any(|f| f.severity == Severity::Error) {
                s.sound_refused += 1;
            }
        }
        let mut seen: Vec<&str> = Vec::new();
        for f in &findings {
            if expected.contains(&f.code) || seen.contains(&f.code) {
                continue;
            }
            seen.push(f.code);
            let kind = if flaws.is_empty() { "false" } else { "extra" };
            println!("{prefix}: {kind} file={name} code={} severity={:?} message={}", f.code, f.severity, f.message);
            let map = if flaws.is_empty() { &mut s.false_findings } else { &mut s.extra_findings };
            *map.entry(f.code).or_default() += 1;
        }
    }
    println!("{prefix}: files={} sound={}", files.len(), s.sound);
    for (flaw, (n, caught)) in &s.per_flaw {
        println!("{prefix}: flaw={flaw} items={n} caught={caught}");
    }
    for (code, n) in &s.false_findings {
        println!("{prefix}: false_findings code={code} n={n}");
    }
    for (code, n) in &s.extra_findings {
        println!("{prefix}: extra_findings code={code} n={n}");
    }
    println!(
        "{prefix}: sound_flagged={} sound_refused={} false_findings={}",
        s.sound_flagged,
        s.sound_refused,
        s.false_total()
    );
    s
}

fn set(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/item_eval").join(name)
}

/// Development-set bars (docs/learning-policy.md, "Evaluation"): per flaw, the items caught
/// at the last rule change (2026-12-01, 60 items: 25 sound, 5 per flaw, 6 all/none); a
/// figure below its bar fails the test. Paraphrased duplicates are not caught (0 of 5): only
/// verbatim ones are a rule's to find.
const DEV_CAUGHT: &[(&str, usize)] = &[
    ("negative-stem", 5),
    ("combination-option", 5),
    ("all-or-none-of-the-above", 6),
    ("absolute-terms", 5),
    ("vague-qualifier", 5),
    ("stem-cue", 5),
    ("convergence", 5),
    ("grammar-cue", 5),
    ("short-distractor", 5),
    ("longest-answer", 5),
    ("duplicate-choice", 0),
];
/// At most this many sound dev items with a flaw finding, and with a flaw error (measured: 0
/// and 0 of 25).
const DEV_MAX_SOUND_FLAGGED: usize = 0;
const DEV_MAX_SOUND_REFUSED: usize = 0;

#[test]
fn item_eval_dev_set() {
    let s = score_dir(&set("dev"), "item_dev");
    for (flaw, bar) in DEV_CAUGHT {
        assert!(s.caught(flaw) >= *bar, "{flaw}: caught {} < bar {bar}", s.caught(flaw));
    }
    assert!(at_most(s.sound_flagged, DEV_MAX_SOUND_FLAGGED), "sound items flagged: {}", s.sound_flagged);
    assert!(at_most(s.sound_refused, DEV_MAX_SOUND_REFUSED), "sound items refused: {}", s.sound_refused);
}

/// `value <= bar` (a function, so a bar of 0 reads as a bar).
fn at_most(value: usize, bar: usize) -> bool {
    value <= bar
}

/// The held-out set (`tests/item_eval/heldout/`, 94 items by the same author, written after the
/// development set on other topics and phrasings; never used to tune a rule). Scored the same
/// way, prefix `item_heldout:`.
/// Bars: the one run after the last rule change (2026-12-01, docs/learning-policy.md).
const HELDOUT_CAUGHT: &[(&str, usize)] = &[
    ("negative-stem", 7),
    ("combination-option", 6),
    ("all-or-none-of-the-above", 7),
    ("absolute-terms", 7),
    ("vague-qualifier", 7),
    ("stem-cue", 6),
    ("convergence", 6),
    ("grammar-cue", 4),
    ("short-distractor", 7),
    ("longest-answer", 7),
    ("duplicate-choice", 0),
];
const HELDOUT_MAX_SOUND_FLAGGED: usize = 8;
const HELDOUT_MAX_SOUND_REFUSED: usize = 0;

#[test]
fn item_eval_heldout_set() {
    let s = score_dir(&set("heldout"), "item_heldout");
    for (flaw, bar) in HELDOUT_CAUGHT {
        assert!(s.caught(flaw) >= *bar, "heldout {flaw}: caught {} < bar {bar}", s.caught(flaw));
    }
    assert!(at_most(s.sound_flagged, HELDOUT_MAX_SOUND_FLAGGED), "heldout sound items flagged: {}", s.sound_flagged);
    assert!(at_most(s.sound_refused, HELDOUT_MAX_SOUND_REFUSED), "heldout sound items refused: {}", s.sound_refused);
}

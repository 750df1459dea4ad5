//! The merge policy's held-out evaluation (issue 19): pairs of Distilled States under
//! `tests/merge_eval/heldout/<NNN-name>/{target,source}.md`, each with an `expect.json` saying
//! whether the pair holds exactly one contradiction (and of which kind) or is compatible.
//!
//! The set was written by a separate author who did not read the rules, before any rule
//! change; it is never used to tune a rule (calibration belongs in `tests/merge/`, checked by
//! `merge_fixtures`). This runner only scores: a contradiction is *caught* when the merge raises
//! any conflict on the pair, and *located* when some raised conflict's source and target lines
//! contain the expected snippets; a compatible pair *alarms* when any conflict is raised.
//!
//! Run: `cargo test -p dossier-core --offline --test main -- merge_eval --nocapture`. It prints
//! a table per kind and totals, then the same figures as `merge_eval: key=value` lines (a
//! stable format), and fails when a figure falls below the baseline recorded in
//! `docs/merge.md` ("Held-out evaluation (issue 19)").
//!
//! The development sets (`tests/merge_dev/`, issue 19's second round, and `tests/merge_dev2/`,
//! its third) are scored the same way by `merge_eval_dev_set` and `merge_eval_dev2_set`,
//! printed with the prefixes `merge_dev:` and `merge_dev2:`; unlike the held-out set they are
//! used for tuning.
//!
//! The third development set (`tests/merge_dev3/`, issue 19's fourth round) is scored by
//! `merge_eval_dev3_set`, prefix `merge_dev3:`.
//!
//! A second held-out set (`tests/merge_eval/heldout2/`, a fresh author, written after round 2
//! so that round 3 is measured on pairs nobody had seen) is scored by `merge_eval_heldout2_set`,
//! prefix `merge_eval2:`; a third (`tests/merge_eval/heldout3/`, written after round 3 for round 4)
//! by `merge_eval_heldout3_set`, prefix `merge_eval3:`. Since issue 19's fifth round these three
//! are development sets too (measured and spent); the fourth (`heldout4/`) is one since the
//! sixth round, the fifth (`heldout5/`) since the seventh; a sixth held-out set is measured by
//! the lead.
//!
//! Since the sixth round the possible tier lists every related pair, and the compatible filters
//! give a pair a `compatible_hint` instead of dropping it. On compatible pairs the runner
//! reports certain alarms, "may contradict" prompts (a possible conflict without a hint, and no
//! certain one), "probably compatible" listings only (hinted possible conflicts, nothing else),
//! any, and the burden (conflicts listed per compatible pair); since the seventh round the
//! burden has a ceiling per set too. `MERGE_EVAL_NO_BARS=1` prints the figures without holding
//! any set to its bars; `MERGE_EVAL_ONLY=<substring>` scores only the pairs whose name contains
//! it (with `MERGE_EVAL_VERBOSE=1`, to read one pair's conflicts).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use dossier_core::merge::{self, Conflict, MergeSide, Status};

/// The contradiction kinds the set must cover (issue 19's list plus the classic ones).
const CONTRADICTION_KINDS: &[&str] = &[
    "opposite-direction",
    "mirrored-clauses",
    "next-action",
    "bare-decision",
    "textual-value",
    "number-words-and-units",
    "current-state",
    "lifecycle",
    "classic-choice",
    "numeric-value",
];

/// The compatible kinds (`compatible:<kind>` in `expect.json`).
const COMPATIBLE_KINDS: &[&str] =
    &["restatement", "added-detail", "qualifier", "additive", "equal-units", "progress-log", "next-action-reworded"];

/// Bars from the run after issue 19's sixth round (2026-12-01, `core19f`, docs/merge.md,
/// "Development sets (sixth round)"; the set is a development set since the fifth round). The
/// test fails if a figure regresses. Contradictions (of 54): caught by a certain conflict, by
/// any (54 of 54), located by any.
const BASELINE_CAUGHT_CERTAIN: usize = 38; // ninth round (was 37)
const BASELINE_CAUGHT_ANY: usize = 54;
const BASELINE_LOCATED: usize = 53; // ninth round (52 since the sixth, 51 before)
/// Compatible pairs (of 29): certain alarms held to the issue's target, at most 1 in 6 (3 =
/// 10.3 %); "may contradict" prompts (a possible conflict without a compatible hint, no certain
/// one) to the measured figure: 7 = 24.1 % since the eighth round (8 before). Certain alarms,
/// since the eighth round, also to the measured figure: 0 (3 before).
const BASELINE_MAX_POSSIBLE_ALARMS: usize = 7;
const BASELINE_MAX_CERTAIN_ALARMS: usize = 0;
/// Conflicts listed on its compatible pairs together, at most (seventh round; 42 in the sixth).
const BASELINE_MAX_LISTED: usize = 34; // tenth round: sole counterparts, hinted (28 in the ninth, 29 in the seventh)

/// Bars for the development set (`tests/merge_dev/`, 96 pairs: 61 contradictions, 35
/// compatible): the figures after issue 19's sixth round (2026-12-01, docs/merge.md,
/// "Development sets (sixth round)"). Of 61 contradictions: caught by a certain conflict, by
/// any, located by any; of 35 compatible pairs, at most this many certain alarms and "may
/// contradict" prompts.
const DEV_CAUGHT_CERTAIN: usize = 31; // ninth round (was 30)
const DEV_CAUGHT_ANY: usize = 61; // sixth round (was 59)
const DEV_LOCATED: usize = 60; // sixth round (was 58)
const DEV_MAX_CERTAIN_ALARMS: usize = 0;
const DEV_MAX_POSSIBLE_ALARMS: usize = 1; // fifth round (was 0)
const DEV_MAX_LISTED: usize = 33; // tenth round: sole counterparts, hinted (26 since the seventh, 56 in the sixth)

/// Bars for the second development set (`tests/merge_dev2/`, issue 19's third round; the bars
/// are rates, as when its author was still adding pairs): the sixth round's measured figures on
/// its 62 pairs (2026-12-01) — 20 of 20 contradictions reaching the user (100 %), 0 of 42
/// compatible pairs with a certain alarm, 4 of 42 (9.5 %) with a "may contradict" prompt.
const DEV2_MIN_REACHING_PCT: usize = 100; // sixth round (was 97, the third round's goal)
const DEV2_MAX_CERTAIN_PCT: usize = 0; // sixth round (was 10)
const DEV2_MAX_POSSIBLE_PCT: usize = 5; // ninth round: 2 of 42 (10 since the sixth, 20 before)
const DEV2_MAX_LISTED: usize = 55; // tenth round: sole counterparts, hinted (52 since the seventh, 76 in the sixth)

/// `MERGE_EVAL_NO_BARS=1` (a "before" run) or `MERGE_EVAL_ONLY=<substring>` (some pairs):
/// print the figures, hold no set to its bars.
fn figures_only() -> bool {
    std::env::var_os("MERGE_EVAL_NO_BARS").is_some() || std::env::var_os("MERGE_EVAL_ONLY").is_some()
}

/// A conflict's tier (issue 19: every conflict carries `certainty`).
fn is_certain(c: &Conflict) -> bool {
    c.certainty == merge::Certainty::Certain
}

/// What `expect.json` says about a pair.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    contradiction: bool,
    kind: String,
    target_snippet: Option<String>,
    source_snippet: Option<String>,
    why: String,
}

/// One loaded pair: its directory name, both files' full text, the sides, the expectation.
struct Pair {
    name: String,
    target_text: String,
    source_text: String,
    target: MergeSide,
    source: MergeSide,
    expect: Expect,
}

fn heldout_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge_eval/heldout")
}

/// Loads one side as `merge_fixtures`' `load` does: frontmatter gives status and next action,
/// the body after it is the Distilled State.
fn load_side(dir: &Path, name: &str, which: &str) -> (String, MergeSide) {
    let path = dir.join(format!("{which}.md"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rest = text.strip_prefix("---\n").expect("a pair file starts with frontmatter");
    let (fm, body) = rest.split_once("\n---\n").expect("frontmatter is closed");
    let mut status = Status::Active;
    let mut next_action = String::new();
    for l in fm.lines() {
        if let Some(v) = l.strip_prefix("status:") {
            status = Status::parse(v.trim()).expect("a status");
        } else if let Some(v) = l.strip_prefix("next_action:") {
            next_action = v.trim().to_string();
        }
    }
    let side = MergeSide {
        id: format!("dos_{which}_{}", name.replace('-', "_")),
        name: name.into(),
        status,
        next_action,
        distilled_state: body.into(),
    };
    (text, side)
}

fn dev_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge_dev")
}

fn load_all(root: &Path) -> Vec<Pair> {
    let mut names: Vec<String> = fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| e.file_name().into_string().unwrap())
        .collect();
    names.sort();
    // `MERGE_EVAL_ONLY=<substring>` scores only the pairs whose directory name contains it (for
    // reading one pair's conflicts with `MERGE_EVAL_VERBOSE`; the bars are then skipped).
    if let Some(only) = std::env::var_os("MERGE_EVAL_ONLY") {
        names.retain(|n| n.contains(only.to_string_lossy().as_ref()));
    }
    names
        .into_iter()
        .map(|name| {
            let dir = root.join(&name);
            let (target_text, target) = load_side(&dir, &name, "target");
            let (source_text, source) = load_side(&dir, &name, "source");
            let json =
                fs::read_to_string(dir.join("expect.json")).unwrap_or_else(|e| panic!("{name}/expect.json: {e}"));
            let expect = parse_expect(&json).unwrap_or_else(|e| panic!("{name}/expect.json: {e}"));
            Pair { name, target_text, source_text, target, source, expect }
        })
        .collect()
}

/// `expect.json`, refused when a key is unknown or a `why` is missing.
fn parse_expect(s: &str) -> Result<Expect, String> {
    let e: Expect = serde_json::from_str(s).map_err(|e| e.to_string())?;
    if e.why.trim().is_empty() {
        return Err("why: expected a one-line reason".into());
    }
    Ok(e)
}

/// The text a conflict points at on one side: line 0 is the frontmatter (status and next
/// action); otherwise the 1-based body line and its continuation lines (a wrapped claim).
fn claim_text(side: &MergeSide, line: u32) -> String {
    if line == 0 {
        return format!("status: {}\nnext_action: {}", status_word(side.status), side.next_action);
    }
    let lines: Vec<&str> = side.distilled_state.lines().collect();
    let i = line as usize - 1;
    let Some(first) = lines.get(i) else { return String::new() };
    let mut text = first.to_string();
    for l in &lines[i + 1..] {
        if l.starts_with("  ") && !l.trim_start().starts_with("- ") {
            text.push('\n');
            text.push_str(l);
        } else {
            break;
        }
    }
    text
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Active => "active",
        Status::Waiting => "waiting",
        Status::Blocked => "blocked",
        Status::Resolved => "resolved",
        Status::Archived => "archived",
    }
}

/// Whether a raised conflict points at the expected claims (a null snippet matches any line).
fn located(c: &Conflict, p: &Pair) -> bool {
    let hit = |side: &MergeSide, line: u32, snippet: &Option<String>| {
        snippet.as_ref().is_none_or(|s| claim_text(side, line).contains(s.as_str()))
    };
    hit(&p.source, c.source.line, &p.expect.source_snippet) && hit(&p.target, c.target.line, &p.expect.target_snippet)
}

/// Figures for one kind (or the totals).
#[derive(Default, Clone, Copy)]
struct Row {
    pairs: usize,
    /// Contradictions: caught by a certain conflict / by any conflict / located by any.
    caught_certain: usize,
    caught_any: usize,
    located: usize,
    /// Compatible pairs: raised a certain conflict / a "may contradict" prompt (a possible
    /// conflict without a compatible hint, and no certain one) / only "probably compatible"
    /// listings (possible conflicts with a hint, nothing else) / anything. Sixth round: the
    /// possible tier lists every related pair, the compatible filters demote with a hint.
    certain_alarm: usize,
    possible_alarm: usize,
    hinted_only: usize,
    any_alarm: usize,
    /// Compatible pairs: conflicts listed in all (the burden: their mean per pair).
    listed: usize,
}

fn pct(n: usize, d: usize) -> String {
    if d == 0 { "-".into() } else { format!("{:.1}%", 100.0 * n as f64 / d as f64) }
}

/// Checks every pair's labels (known kinds, snippets present in their files) and that every
/// kind is present (`all_kinds`).
fn check_shape(pairs: &[Pair], all_kinds: bool) {
    for p in pairs {
        let e = &p.expect;
        match e.kind.strip_prefix("compatible:") {
            Some(k) => {
                assert!(!e.contradiction, "{}: a compatible kind on a contradiction", p.name);
                assert!(COMPATIBLE_KINDS.contains(&k), "{}: unknown compatible kind {k:?}", p.name);
            }
            None => {
                assert!(e.contradiction, "{}: a contradiction kind on a compatible pair", p.name);
                assert!(CONTRADICTION_KINDS.contains(&e.kind.as_str()), "{}: unknown kind {:?}", p.name, e.kind);
            }
        }
        for (snippet, text, which) in
            [(&e.target_snippet, &p.target_text, "target"), (&e.source_snippet, &p.source_text, "source")]
        {
            if let Some(s) = snippet {
                assert!(
                    text.lines().any(|l| l.contains(s.as_str())),
                    "{}: {which}.md has no line containing {s:?}",
                    p.name
                );
            }
        }
    }
    if !all_kinds {
        return;
    }
    for k in CONTRADICTION_KINDS {
        assert!(pairs.iter().any(|p| p.expect.kind == *k), "no pair of kind {k}");
    }
    for k in COMPATIBLE_KINDS {
        assert!(pairs.iter().any(|p| p.expect.kind == format!("compatible:{k}")), "no pair of kind compatible:{k}");
    }
}

/// Scores a set and prints its table and `<prefix>: key=value` lines; returns the totals
/// (contradictions, compatible pairs).
fn score(pairs: &[Pair], title: &str, prefix: &str) -> (Row, Row) {
    let contradictions = pairs.iter().filter(|p| p.expect.contradiction).count();
    let compatible = pairs.len() - contradictions;
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let (mut contra_total, mut compat_total) = (Row::default(), Row::default());
    for p in pairs {
        let plan = merge::merge(&p.source, &p.target, &[]).unwrap_or_else(|e| panic!("{}: merge failed: {e}", p.name));
        let raised = &plan.unresolved;
        if std::env::var_os("MERGE_EVAL_VERBOSE").is_some() {
            // For auditing the set's labels (is a raised conflict a real one the author missed?):
            // `MERGE_EVAL_VERBOSE=1` lists every pair's raised conflicts.
            println!("{} [{}]: {} conflict(s)", p.name, p.expect.kind, raised.len());
            for c in raised {
                println!(
                    "    {}{}{} {:?} {:?}\n      source {}: {:?}\n      target {}: {:?}",
                    if p.expect.contradiction && located(c, p) { "* " } else { "" },
                    c.certainty.as_str(),
                    c.compatible_hint.as_ref().map(|h| format!(" [{h}]")).unwrap_or_default(),
                    c.kind,
                    c.subject,
                    c.source.line,
                    claim_text(&p.source, c.source.line),
                    c.target.line,
                    claim_text(&p.target, c.target.line)
                );
            }
        }
        let certain = raised.iter().any(is_certain);
        let may = raised.iter().any(|c| !is_certain(c) && c.compatible_hint.is_none());
        let any = !raised.is_empty();
        let row = rows.entry(p.expect.kind.clone()).or_default();
        let total = if p.expect.contradiction { &mut contra_total } else { &mut compat_total };
        for r in [row, total] {
            r.pairs += 1;
            if p.expect.contradiction {
                r.caught_certain += certain as usize;
                r.caught_any += any as usize;
                r.located += raised.iter().any(|c| located(c, p)) as usize;
            } else {
                r.certain_alarm += certain as usize;
                r.possible_alarm += (may && !certain) as usize;
                r.hinted_only += (any && !may && !certain) as usize;
                r.any_alarm += any as usize;
                r.listed += raised.len();
            }
        }
    }

    // Report: a table, then the same figures in a stable `<prefix>: key=value` format.
    println!("\n{title}: {} pairs ({contradictions} contradictions, {compatible} compatible)", pairs.len());
    println!(
        "{:<36} {:>5} {:>8} {:>8} {:>8} {:>8}",
        "contradiction kind", "pairs", "certain", "any", "located", "recall"
    );
    for k in CONTRADICTION_KINDS {
        let r = rows.get(*k).copied().unwrap_or_default();
        println!(
            "{k:<36} {:>5} {:>8} {:>8} {:>8} {:>8}",
            r.pairs,
            r.caught_certain,
            r.caught_any,
            r.located,
            pct(r.caught_any, r.pairs)
        );
    }
    let t = contra_total;
    println!(
        "{:<36} {:>5} {:>8} {:>8} {:>8} {:>8}",
        "ALL CONTRADICTIONS",
        t.pairs,
        t.caught_certain,
        t.caught_any,
        t.located,
        pct(t.caught_any, t.pairs)
    );
    println!(
        "{:<36} {:>5} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "compatible kind", "pairs", "certain", "may", "probably", "any", "listed"
    );
    for k in COMPATIBLE_KINDS {
        let r = rows.get(&format!("compatible:{k}")).copied().unwrap_or_default();
        println!(
            "{:<36} {:>5} {:>8} {:>8} {:>8} {:>8} {:>8}",
            format!("compatible:{k}"),
            r.pairs,
            r.certain_alarm,
            r.possible_alarm,
            r.hinted_only,
            r.any_alarm,
            r.listed
        );
    }
    let c = compat_total;
    println!(
        "{:<36} {:>5} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "ALL COMPATIBLE", c.pairs, c.certain_alarm, c.possible_alarm, c.hinted_only, c.any_alarm, c.listed
    );
    for (kind, r) in &rows {
        if kind.starts_with("compatible:") {
            println!(
                "{prefix}: kind={kind} pairs={} certain_alarm={} may_contradict={} probably_compatible={} any_alarm={} listed={}",
                r.pairs, r.certain_alarm, r.possible_alarm, r.hinted_only, r.any_alarm, r.listed
            );
        } else {
            println!(
                "{prefix}: kind={kind} pairs={} caught_certain={} caught_any={} located={}",
                r.pairs, r.caught_certain, r.caught_any, r.located
            );
        }
    }
    println!(
        "{prefix}: total contradictions={} caught_certain={} caught_any={} located={} recall_certain={} recall_any={}",
        t.pairs,
        t.caught_certain,
        t.caught_any,
        t.located,
        pct(t.caught_certain, t.pairs),
        pct(t.caught_any, t.pairs)
    );
    println!(
        "{prefix}: total compatible={} certain_alarm={} may_contradict={} probably_compatible={} any_alarm={} certain_alarm_rate={} may_contradict_rate={} listed={} burden={:.2}",
        c.pairs,
        c.certain_alarm,
        c.possible_alarm,
        c.hinted_only,
        c.any_alarm,
        pct(c.certain_alarm, c.pairs),
        pct(c.possible_alarm, c.pairs),
        c.listed,
        if c.pairs == 0 { 0.0 } else { c.listed as f64 / c.pairs as f64 }
    );
    (t, c)
}

#[allow(clippy::absurd_extreme_comparisons)] // a bar may be 0 (certain alarms since the eighth round)
#[test]
fn merge_eval_heldout_set() {
    let pairs = load_all(&heldout_dir());
    if figures_only() {
        score(&pairs, "merge held-out evaluation", "merge_eval");
        return;
    }

    // The set's shape.
    let contradictions = pairs.iter().filter(|p| p.expect.contradiction).count();
    let compatible = pairs.len() - contradictions;
    assert!(pairs.len() >= 70, "at least 70 pairs, found {}", pairs.len());
    assert!(contradictions >= 46, "at least 46 contradictions, found {contradictions}");
    assert!(compatible >= 24, "at least 24 compatible pairs, found {compatible}");
    check_shape(&pairs, true);

    let (t, c) = score(&pairs, "merge held-out evaluation", "merge_eval");

    // Never below the baseline.
    assert!(
        t.caught_certain >= BASELINE_CAUGHT_CERTAIN,
        "certain recall regressed: {} < {BASELINE_CAUGHT_CERTAIN}",
        t.caught_certain
    );
    assert!(
        t.caught_any >= BASELINE_CAUGHT_ANY,
        "fewer contradictions reach the user: {} < {BASELINE_CAUGHT_ANY} of {}",
        t.caught_any,
        t.pairs
    );
    assert!(t.located >= BASELINE_LOCATED, "located conflicts regressed: {} < {BASELINE_LOCATED}", t.located);
    assert!(
        6 * c.certain_alarm <= c.pairs,
        "certain alarms on compatible pairs above 1 in 6: {} of {}",
        c.certain_alarm,
        c.pairs
    );
    assert!(
        c.certain_alarm <= BASELINE_MAX_CERTAIN_ALARMS,
        "certain alarms on compatible pairs grew: {} > {BASELINE_MAX_CERTAIN_ALARMS}",
        c.certain_alarm
    );
    assert!(
        c.possible_alarm <= BASELINE_MAX_POSSIBLE_ALARMS,
        "possible prompts on compatible pairs grew: {} > {BASELINE_MAX_POSSIBLE_ALARMS}",
        c.possible_alarm
    );
    assert!(c.listed <= BASELINE_MAX_LISTED, "listed on compatible pairs grew: {} > {BASELINE_MAX_LISTED}", c.listed);
}

/// The development set (`tests/merge_dev/`, issue 19's second round): written by another
/// author who did not read the rules, and used to tune them — unlike the held-out set. Scored
/// the same way; its bars are the figures after the last rule change (docs/merge.md).
#[test]
#[allow(clippy::absurd_extreme_comparisons)] // a bar may be 0 (certain alarms today)
fn merge_eval_dev_set() {
    let pairs = load_all(&dev_dir());
    if figures_only() {
        score(&pairs, "merge development set", "merge_dev");
        return;
    }
    assert!(pairs.len() >= 90, "at least 90 pairs, found {}", pairs.len());
    check_shape(&pairs, true);
    let (t, c) = score(&pairs, "merge development set", "merge_dev");
    assert!(
        t.caught_certain >= DEV_CAUGHT_CERTAIN,
        "dev: certain recall regressed: {} < {DEV_CAUGHT_CERTAIN}",
        t.caught_certain
    );
    assert!(t.caught_any >= DEV_CAUGHT_ANY, "dev: recall regressed: {} < {DEV_CAUGHT_ANY}", t.caught_any);
    assert!(t.located >= DEV_LOCATED, "dev: located conflicts regressed: {} < {DEV_LOCATED}", t.located);
    assert!(
        c.certain_alarm <= DEV_MAX_CERTAIN_ALARMS,
        "dev: certain alarms on compatible pairs grew: {} > {DEV_MAX_CERTAIN_ALARMS}",
        c.certain_alarm
    );
    assert!(
        c.possible_alarm <= DEV_MAX_POSSIBLE_ALARMS,
        "dev: possible prompts on compatible pairs grew: {} > {DEV_MAX_POSSIBLE_ALARMS}",
        c.possible_alarm
    );
    assert!(c.listed <= DEV_MAX_LISTED, "dev: listed on compatible pairs grew: {} > {DEV_MAX_LISTED}", c.listed);
}

fn dev2_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge_dev2")
}

/// The second development set (`tests/merge_dev2/`, issue 19's third round): compatible-heavy,
/// written by another author who did not read the rules, used for tuning like the first.
/// Scored the same way (prefix `merge_dev2:`); its bars are the figures after the last rule
/// change of the third round (docs/merge.md, "Development set (third round)").
#[test]
fn merge_eval_dev2_set() {
    if !dev2_dir().is_dir() {
        println!("merge_dev2: no set at {}", dev2_dir().display());
        return;
    }
    let pairs = load_all(&dev2_dir());
    if figures_only() {
        score(&pairs, "merge second development set", "merge_dev2");
        return;
    }
    check_shape(&pairs, false);
    let (t, c) = score(&pairs, "merge second development set", "merge_dev2");
    assert!(
        100 * t.caught_any >= DEV2_MIN_REACHING_PCT * t.pairs,
        "dev2: below {DEV2_MIN_REACHING_PCT} % of contradictions reaching the user: {} of {}",
        t.caught_any,
        t.pairs
    );
    assert!(
        100 * c.certain_alarm <= DEV2_MAX_CERTAIN_PCT * c.pairs,
        "dev2: certain alarms on compatible pairs above {DEV2_MAX_CERTAIN_PCT} %: {} of {}",
        c.certain_alarm,
        c.pairs
    );
    assert!(
        100 * c.possible_alarm <= DEV2_MAX_POSSIBLE_PCT * c.pairs,
        "dev2: possible prompts on compatible pairs above {DEV2_MAX_POSSIBLE_PCT} %: {} of {}",
        c.possible_alarm,
        c.pairs
    );
    assert!(c.listed <= DEV2_MAX_LISTED, "dev2: listed on compatible pairs grew: {} > {DEV2_MAX_LISTED}", c.listed);
}

fn dev3_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge_dev3")
}

/// Bars for the third development set (`tests/merge_dev3/`, issue 19's fourth round: 105 pairs,
/// 57 contradictions and 48 compatible, longer states with realistic overlap): the figures
/// after the sixth round (2026-12-01, docs/merge.md, "Development sets (sixth round)"). "May
/// contradict" prompts stay above the fourth round's aim on this set (20 %): the bars hold what
/// was reached, not what was aimed at.
const DEV3_CAUGHT_CERTAIN: usize = 28;
const DEV3_CAUGHT_ANY: usize = 57; // sixth round (was 56; 53 in the fourth)
const DEV3_LOCATED: usize = 57; // tenth round (56 in the ninth, 55 since the sixth, 54 before)
const DEV3_MAX_CERTAIN_ALARMS: usize = 1;
const DEV3_MAX_POSSIBLE_ALARMS: usize = 9; // thirteenth round (10 in the ninth, 12 in the eighth, 13 before)
const DEV3_MAX_LISTED: usize = 66; // tenth round: sole counterparts, hinted (63 in the ninth, 134 in the sixth)

/// The third development set (`tests/merge_dev3/`, issue 19's fourth round): written by another
/// author who did not read the rules, used for tuning like the first two. Its first run, on the
/// third round's rules before any change, is the fourth round's "before" row (docs/merge.md).
#[test]
fn merge_eval_dev3_set() {
    if !dev3_dir().is_dir() {
        println!("merge_dev3: no set at {}", dev3_dir().display());
        return;
    }
    let pairs = load_all(&dev3_dir());
    check_shape(&pairs, false);
    let (t, c) = score(&pairs, "merge third development set", "merge_dev3");
    if figures_only() {
        return; // a "before" run: figures only
    }
    assert!(
        t.caught_certain >= DEV3_CAUGHT_CERTAIN,
        "dev3: certain recall regressed: {} < {DEV3_CAUGHT_CERTAIN}",
        t.caught_certain
    );
    assert!(t.caught_any >= DEV3_CAUGHT_ANY, "dev3: recall regressed: {} < {DEV3_CAUGHT_ANY}", t.caught_any);
    assert!(t.located >= DEV3_LOCATED, "dev3: located conflicts regressed: {} < {DEV3_LOCATED}", t.located);
    assert!(
        c.certain_alarm <= DEV3_MAX_CERTAIN_ALARMS,
        "dev3: certain alarms on compatible pairs grew: {} > {DEV3_MAX_CERTAIN_ALARMS}",
        c.certain_alarm
    );
    assert!(
        c.possible_alarm <= DEV3_MAX_POSSIBLE_ALARMS,
        "dev3: possible prompts on compatible pairs grew: {} > {DEV3_MAX_POSSIBLE_ALARMS}",
        c.possible_alarm
    );
    assert!(c.listed <= DEV3_MAX_LISTED, "dev3: listed on compatible pairs grew: {} > {DEV3_MAX_LISTED}", c.listed);
}

#[test]
fn merge_eval_expect_json_is_read_strictly() {
    let e = parse_expect(
        r#"{"contradiction": true, "kind": "lifecycle", "target_snippet": "a \"b\"", "source_snippet": null, "why": "x"}"#,
    )
    .unwrap();
    assert!(e.contradiction);
    assert_eq!(e.kind, "lifecycle");
    assert_eq!(e.target_snippet.as_deref(), Some("a \"b\""));
    assert_eq!(e.source_snippet, None);
    assert!(parse_expect(r#"{"contradiction": true, "kind": "x", "why": "y", "extra": null}"#).is_err());
}

/// A held-out set's bars: its minimum composition, then floors for recall (of its
/// contradictions: caught by a certain conflict, by any, located by any) and ceilings for the
/// alarms on its compatible pairs (certain alarms, possible prompts). The test fails if a
/// figure regresses past its bar.
struct Bars {
    pairs: usize,
    contradictions: usize,
    compatible: usize,
    caught_certain: usize,
    caught_any: usize,
    located: usize,
    max_certain_alarms: usize,
    max_possible_alarms: usize,
}

/// Seventh round: the conflicts listed on a held-out set's compatible pairs together, at most
/// (the burden), for the sets measured after it; `None` for a set without one.
fn max_listed(name: &str) -> Option<usize> {
    match name {
        // Ninth round: heldout2 94 (one more weakly related pair, hinted: "apply" and
        // "application" now share a stem), heldout4 75. Tenth round: the sole counterparts,
        // answered questions and rival causes (`merge::counterparts`), all hinted, list more.
        // Twelfth round: the whole-state counterpart (hinted) lists one more on heldout3 and
        // heldout6, two more on heldout10.
        // Thirteenth round: lengths and masses read in metres and kilograms relate one more
        // pair each on heldout2 and heldout9 (both hinted: "other measures of one thing", "a
        // decision and an observation of it"), the price of reading "4 cm" = "40 mm".
        "heldout2" => Some(104), // 103 in the twelfth, 94 in the ninth, 93 in the seventh round, 167 in the sixth
        "heldout3" => Some(54),  // thirteenth round (56 in the twelfth, 55 in the tenth and the ninth, 124)
        "heldout4" => Some(79),  // 75 in the ninth, 76 in the seventh round, 118 in the sixth
        "heldout5" => Some(67),  // 58 in the ninth, 82
        "heldout6" => Some(103), // 102 in the tenth, 95 at its one fresh run, after the seventh round
        "heldout7" => Some(45),  // 42 at its fresh run, after the eighth round
        "heldout8" => Some(54),  // 50 at its fresh run, after the ninth round
        "heldout9" => Some(37),  // thirteenth round (36 at its fresh run, after the tenth round; 32 before it)
        "heldout10" => Some(40), // thirteenth round (41 in the twelfth, 38 at its fresh run)
        "heldout11" => Some(46), // its fresh run, before and after the twelfth round
        "heldout12" => Some(56), // its fresh runs, before and after the thirteenth round
        "heldout13" => Some(64), // its fresh runs, before and after the thirteenth round
        "heldout14" => Some(67), // its fresh run, before the fourteenth round
        "heldout15" => Some(46), // its fresh run, before the fourteenth round
        _ => None,
    }
}

/// The section a line of a Distilled State is in (`## Heading`), or "frontmatter" for line 0
/// (status and next action), as `dossier_merge`'s review list names it.
fn section_of(side: &MergeSide, line: u32) -> String {
    if line == 0 {
        return "frontmatter".into();
    }
    let lines: Vec<&str> = side.distilled_state.lines().collect();
    lines[..(line as usize).min(lines.len())]
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("## "))
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

/// The agent's review round (issue 19, item 3), measured with a real model as the reviewer.
///
/// `MERGE_EVAL_REVIEW_DUMP=<file>` writes, one JSON line per pair, what `dossier_merge` hands
/// the agent for that merge — every possible conflict with both claims, their sections and the
/// rules' compatible hint — and nothing of the set's labels (pairs are named `p<n>`). A reviewer
/// who has not seen the set answers each pair `contradiction` or `compatible` with a reason, as
/// `{"p<n>": {"<conflict id>": {"verdict": "...", "reason": "..."}}}` in a file;
/// `MERGE_EVAL_REVIEWS=<file>` then scores what reaches the user: a certain conflict, or a
/// possible one the reviewer marked a contradiction (the user's form); a pair marked compatible
/// is merged keeping both, named in one line of the result.
///
/// Since issue 19's eleventh round the dump also holds each merge's changed claims (`changed`:
/// the target's claims the source lacks and the source's the merge adds, each `{id, section,
/// text}`, at most [`CHANGED_LISTED`] per side, the most related to the other side first, as
/// `dossier_merge` lists them), and a pair's entry in the verdict file may hold, besides the
/// verdicts, `"flagged": [{"target": id, "source": id, "reason": "..."}]`: pairs of changed
/// claims the reviewer says cannot both hold. Each becomes a conflict (`merge_flagged`) that
/// reaches the user like a pair marked `contradiction`; a listed pair it flags reaches the user
/// whatever its verdict. A flagged pair locates the contradiction when the expected snippets are
/// in its two claims (a flag names whole claims: a table, an item with its nested lines). A
/// verdict file without `flagged` scores exactly as before. Since session 13 the dump also
/// lists the certain conflicts (`certain_conflicts`, as `details.conflicts` shows them), so a
/// reviewer sees what the user is asked anyway.
fn review_round(pairs: &[Pair], prefix: &str) {
    if let Some(path) = std::env::var_os("MERGE_EVAL_REVIEW_DUMP") {
        let mut out = String::new();
        for (i, p) in pairs.iter().enumerate() {
            let plan = merge::merge(&p.source, &p.target, &[]).unwrap();
            let side = |m: &MergeSide, c: &dossier_core::merge::ConflictSide| serde_json::json!({ "text": claim_text(m, c.line).trim(), "section": section_of(m, c.line) });
            let review: Vec<serde_json::Value> = plan
                .unresolved
                .iter()
                .filter(|c| !is_certain(c))
                .map(|c| {
                    let mut item = serde_json::json!({ "conflict_id": c.id, "target": side(&p.target, &c.target), "source": side(&p.source, &c.source) });
                    if let Some(h) = &c.compatible_hint {
                        item["compatible_hint"] = serde_json::json!(h);
                    }
                    item
                })
                .collect();
            let certain = plan.unresolved.iter().filter(|c| is_certain(c)).count();
            // The certain conflicts the user is asked anyway, as `dossier_merge` shows them in
            // `details.conflicts` (a reviewer who cannot see them may flag one again).
            let certain_conflicts: Vec<serde_json::Value> = plan
                .unresolved
                .iter()
                .filter(|c| is_certain(c))
                .map(|c| serde_json::json!({ "conflict_id": c.id, "target": side(&p.target, &c.target), "source": side(&p.source, &c.source) }))
                .collect();
            let changed = |l: &[merge::ChangedClaim]| -> Vec<serde_json::Value> {
                listed_changed(l)
                    .into_iter()
                    .map(|c| serde_json::json!({ "id": c.id, "section": c.section, "text": c.text.trim() }))
                    .collect()
            };
            out.push_str(
                &serde_json::json!({ "pair": format!("p{}", i + 1), "certain": certain, "certain_conflicts": certain_conflicts, "review": review,
                    "changed": { "target": changed(&plan.changed_target), "source": changed(&plan.changed_source) } })
                .to_string(),
            );
            out.push('\n');
        }
        fs::write(&path, out).unwrap();
    }
    let Some(path) = std::env::var_os("MERGE_EVAL_REVIEWS") else { return };
    let verdicts: BTreeMap<String, BTreeMap<String, serde_json::Value>> =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let (mut reach, mut located_after, mut contra) = (0, 0, 0);
    let (mut compat, mut certain_alarm, mut possible_prompt, mut unreviewed) = (0, 0, 0, 0);
    let (mut flags, mut bad_flags, mut flags_on_compatible, mut located_by_flag) = (0, 0, 0, 0);
    let mut marked_compatible_contradictions = Vec::new();
    for (i, p) in pairs.iter().enumerate() {
        let plain = merge::merge(&p.source, &p.target, &[]).unwrap();
        let mine = verdicts.get(&format!("p{}", i + 1));
        // The reviewer's flagged pairs of changed claims (eleventh round); one the merge refuses
        // (an unknown id, two claims of one side, no reason) is counted and left out.
        let mut flagged: Vec<merge::FlaggedPair> = Vec::new();
        for f in mine.and_then(|m| m.get("flagged")).and_then(|f| f.as_array()).into_iter().flatten() {
            let pair = merge::FlaggedPair {
                target_claim: f["target"].as_str().unwrap_or_default().to_string(),
                source_claim: f["source"].as_str().unwrap_or_default().to_string(),
                reason: f["reason"].as_str().unwrap_or_default().to_string(),
            };
            flags += 1;
            if merge::merge_flagged(&p.source, &p.target, &[], std::slice::from_ref(&pair)).is_ok() {
                flagged.push(pair);
            } else {
                bad_flags += 1;
            }
        }
        let plan = merge::merge_flagged(&p.source, &p.target, &[], &flagged).unwrap();
        let text = |l: &[merge::ChangedClaim], id: &str| l.iter().find(|c| c.id == id).map(|c| c.text.clone());
        let flagged_texts: Vec<(String, String)> = flagged
            .iter()
            .filter_map(|f| {
                Some((text(&plain.changed_target, &f.target_claim)?, text(&plain.changed_source, &f.source_claim)?))
            })
            .collect();
        let by_flag = |c: &Conflict| {
            c.kind == merge::ConflictKind::FlaggedByReviewer
                || flagged_texts.iter().any(|(t, s)| *t == c.target.text && *s == c.source.text)
        };
        let mut asked = |c: &Conflict| {
            is_certain(c) || by_flag(c) || {
                let v = mine.and_then(|m| m.get(&c.id)).and_then(|v| v["verdict"].as_str());
                if v.is_none() {
                    unreviewed += 1;
                }
                v != Some("compatible")
            }
        };
        let shown: Vec<&Conflict> = plan.unresolved.iter().filter(|c| asked(c)).collect();
        // A flagged pair names two whole claims (a table, an item with its nested lines): it is
        // the contradicting pair when the snippets are in those claims.
        let has = |text: &str, snippet: &Option<String>| snippet.as_ref().is_none_or(|s| text.contains(s.as_str()));
        let hit = |c: &Conflict| {
            located(c, p)
                || (by_flag(c)
                    && has(&c.target.text, &p.expect.target_snippet)
                    && has(&c.source.text, &p.expect.source_snippet))
        };
        if p.expect.contradiction {
            contra += 1;
            reach += (!shown.is_empty()) as usize;
            let found = shown.iter().any(|c| hit(c));
            located_after += found as usize;
            located_by_flag += (found && !shown.iter().any(|c| !by_flag(c) && located(c, p))) as usize;
            if shown.is_empty() && !plan.unresolved.is_empty() {
                marked_compatible_contradictions.push(format!("p{} ({})", i + 1, p.expect.kind));
            }
        } else {
            compat += 1;
            flags_on_compatible += (!flagged.is_empty()) as usize;
            let certain = shown.iter().any(|c| is_certain(c));
            certain_alarm += certain as usize;
            possible_prompt += (!certain && !shown.is_empty()) as usize;
        }
    }
    println!(
        "{prefix}: after_review reaching={reach}/{contra} located={located_after}/{contra} certain_alarms={certain_alarm}/{compat} possible_prompts={possible_prompt}/{compat} unreviewed_possible={unreviewed}"
    );
    if flags > 0 {
        println!(
            "{prefix}: flagged pairs={flags} refused={bad_flags} located_only_by_a_flag={located_by_flag}/{contra} compatible_pairs_with_a_flag={flags_on_compatible}/{compat}"
        );
    }
    println!("{prefix}: contradictions the reviewer kept both on: {marked_compatible_contradictions:?}");
}

/// As many changed claims of a side as `dossier_merge`'s review round lists
/// (`dossier_store::merge::listed_changed`): the most related to the other side first, at most
/// [`CHANGED_LISTED`] and [`CHANGED_BYTES`] of text, in reading order.
fn listed_changed(claims: &[merge::ChangedClaim]) -> Vec<&merge::ChangedClaim> {
    let mut order: Vec<usize> = (0..claims.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(claims[i].related), i));
    let (mut chosen, mut bytes) = (Vec::new(), 0);
    for i in order {
        let len = claims[i].text.trim().len();
        if chosen.len() == CHANGED_LISTED || (!chosen.is_empty() && bytes + len > CHANGED_BYTES) {
            continue;
        }
        bytes += len;
        chosen.push(i);
    }
    chosen.sort_unstable();
    chosen.into_iter().map(|i| &claims[i]).collect()
}

/// `dossier_store::merge::MAX_CHANGED_LISTED` and `CHANGED_BYTES` (the store is not a
/// dependency of the core's tests; docs/merge.md, "Eleventh round", names both).
const CHANGED_LISTED: usize = 30;
const CHANGED_BYTES: usize = 9_000;

/// Score the held-out set `tests/merge_eval/<name>/` and hold it to `bars`.
fn run_heldout(name: &str, title: &str, prefix: &str, bars: Bars) {
    let pairs = load_all(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge_eval").join(name));
    review_round(&pairs, prefix);
    if figures_only() {
        score(&pairs, title, prefix);
        return;
    }
    let contradictions = pairs.iter().filter(|p| p.expect.contradiction).count();
    let compatible = pairs.len() - contradictions;
    assert!(pairs.len() >= bars.pairs, "{name}: at least {} pairs, found {}", bars.pairs, pairs.len());
    assert!(
        contradictions >= bars.contradictions,
        "{name}: at least {} contradictions, found {contradictions}",
        bars.contradictions
    );
    assert!(compatible >= bars.compatible, "{name}: at least {} compatible pairs, found {compatible}", bars.compatible);
    check_shape(&pairs, true);
    let (t, c) = score(&pairs, title, prefix);
    assert!(
        t.caught_certain >= bars.caught_certain,
        "{name}: certain recall regressed: {} < {}",
        t.caught_certain,
        bars.caught_certain
    );
    assert!(t.caught_any >= bars.caught_any, "{name}: recall regressed: {} < {}", t.caught_any, bars.caught_any);
    assert!(t.located >= bars.located, "{name}: located regressed: {} < {}", t.located, bars.located);
    assert!(
        c.certain_alarm <= bars.max_certain_alarms,
        "{name}: certain alarms on compatible pairs grew: {} > {}",
        c.certain_alarm,
        bars.max_certain_alarms
    );
    assert!(
        c.possible_alarm <= bars.max_possible_alarms,
        "{name}: possible prompts on compatible pairs grew: {} > {}",
        c.possible_alarm,
        bars.max_possible_alarms
    );
    if let Some(max) = max_listed(name) {
        assert!(c.listed <= max, "{name}: listed on compatible pairs grew: {} > {max}", c.listed);
    }
}

/// The second held-out set (`tests/merge_eval/heldout2/`, 90 pairs: 54 contradictions, 36
/// compatible), written by a fresh author after round 2 so that round 3 is measured on pairs
/// nobody had seen (docs/merge.md, "Second held-out set"). Bars: the sixth round's figures
/// (2026-12-01; a development set since the fifth round; round 4 reached 51 caught and 45
/// located, round 5 54 and 49).
#[test]
fn merge_eval_heldout2_set() {
    let bars = Bars {
        pairs: 84,
        contradictions: 50,
        compatible: 34,
        caught_certain: 24, // ninth round (was 23)
        caught_any: 54,
        located: 52,            // ninth round (was 51)
        max_certain_alarms: 3,  // eighth round (was 6)
        max_possible_alarms: 9, // ninth round (was 14)
    };
    run_heldout("heldout2", "merge second held-out evaluation", "merge_eval2", bars);
}

/// The third held-out set (`tests/merge_eval/heldout3/`, 103 pairs: 61 contradictions, 42
/// compatible), written by a fresh author after round 3 so that round 4 is measured on pairs
/// nobody had seen (docs/merge.md, "Third held-out set"). Bars: the sixth round's figures
/// (2026-12-01; a development set since the fifth round; round 4 reached 25 certain, 53
/// caught, 49 located and 10 possible prompts; round 5 60 caught and 56 located).
#[test]
fn merge_eval_heldout3_set() {
    let bars = Bars {
        pairs: 100,
        contradictions: 60,
        compatible: 40,
        caught_certain: 30, // twelfth round (ninth round 29, was 26)
        caught_any: 61,
        located: 59,
        max_certain_alarms: 0, // thirteenth round: °C read (twelfth round 1, 2 in the eighth, 3 before)
        // Thirteenth round: 8, a temperature range in other words is the same value (twelfth
        // round 9, the ninth round's 8, 10 in the eighth, 11 before).
        max_possible_alarms: 8,
    };
    run_heldout("heldout3", "merge third held-out evaluation", "merge_eval3", bars);
}

/// The fourth held-out set (`tests/merge_eval/heldout4/`, 104 pairs: 62 contradictions, 42
/// compatible), written by a fresh author (`mergeeval4`) after round 4 so that round 5 is
/// measured on pairs nobody had seen (docs/merge.md, "Fourth held-out set"). Its one run after
/// the fifth round's last rule change (2026-12-01): 46 of 62 contradictions reached the user
/// (74.2 %), 12 by a certain conflict, 39 located; of 42 compatible pairs, 4 certain alarms and
/// 13 possible prompts. Spent since, a development set of the sixth round; bars: the seventh
/// round's figures (62 of 62 reaching, 12 certain, 59 located; 4 certain alarms, 13 "may
/// contradict" prompts, 76 conflicts listed on its compatible pairs).
#[test]
fn merge_eval_heldout4_set() {
    let bars = Bars {
        pairs: 100,
        contradictions: 60,
        compatible: 40,
        caught_certain: 13, // ninth round (was 12)
        caught_any: 62,
        located: 60, // tenth round (59 since the seventh, 48 in the sixth)
        max_certain_alarms: 4,
        max_possible_alarms: 7, // ninth round (12 in the eighth, 13 before)
    };
    run_heldout("heldout4", "merge fourth held-out evaluation", "merge_eval4", bars);
}

/// The fifth held-out set (`tests/merge_eval/heldout5/`, 91 pairs: 57 contradictions, 34
/// compatible), written by a fresh author while the sixth round's rules were written, never
/// opened by their author (docs/merge.md, "Fifth held-out set"). Its one run (2026-12-01,
/// after the sixth round's last rule change): 56 of 57 reaching the user, 14 certain, 46
/// located; of 34 compatible pairs 1 certain alarm, 10 "may contradict", 23 more listing only
/// "probably compatible" pairs. A development set of the seventh round since; bars: its figures
/// (57 reaching, 14 certain, 53 located; 1 certain alarm, 10 "may contradict", 58 listed).
#[test]
fn merge_eval_heldout5_set() {
    let bars = Bars {
        pairs: 91,
        contradictions: 57,
        compatible: 34,
        caught_certain: 16, // twelfth round (ninth round 15, was 14)
        caught_any: 57,     // seventh round (56 at its one fresh run, in the sixth)
        located: 56,        // tenth round (53 since the seventh, 46)
        max_certain_alarms: 1,
        max_possible_alarms: 8, // eighth round (was 10)
    };
    run_heldout("heldout5", "merge fifth held-out evaluation", "merge_eval5", bars);
}

/// The sixth held-out set (`tests/merge_eval/heldout6/`, 91 pairs: 56 contradictions, 35
/// compatible), written by a fresh author while the seventh round's rules were written, never
/// opened by their author (docs/merge.md, "Sixth held-out set"). Bars: its one run's figures
/// (2026-12-02, after the seventh round's last rule change: 56 of 56 reaching the user, 14
/// certain, 43 located; of 35 compatible pairs 6 certain alarms, 20 "may contradict", 95
/// conflicts listed); since the eighth round, whose rules were checked against it (figures
/// only, per kind), 15 "may contradict" (docs/merge.md, "Development sets (eighth round)"); a
/// development set of the ninth round, whose figures are its bars (15 certain, 47 located, 12
/// "may contradict").
#[test]
fn merge_eval_heldout6_set() {
    let bars = Bars {
        pairs: 91,
        contradictions: 56,
        compatible: 35,
        caught_certain: 15, // ninth round (was 14)
        caught_any: 56,
        located: 50,           // tenth round (47 in the ninth, 43 at its fresh run)
        max_certain_alarms: 5, // twelfth round (was 6)
        // Thirteenth round: 11, a log entry beside a standing fact and one thing named in two
        // findings (twelfth round 13, ninth round 12, 15 at the eighth round's validation run,
        // 20 fresh).
        max_possible_alarms: 11,
    };
    run_heldout("heldout6", "merge sixth held-out evaluation", "merge_eval6", bars);
}

/// The seventh held-out set (`tests/merge_eval/heldout7/`, 90 pairs: 55 contradictions, 35
/// compatible), written by a seventh fresh author (helper `mergeeval7`, session 11) who never
/// opened the rules, docs/merge.md or another set's pairs; never opened by the eighth round's
/// builder (docs/merge.md, "Seventh held-out set"). Bars: its figures after the eighth round
/// (2026-12-02: 54 of 55 reaching the user, 22 certain, 49 located; of 35 compatible pairs 5
/// certain alarms, 14 "may contradict", 42 conflicts listed; the seventh round's rules gave
/// the same but 15 "may contradict"). Since the ninth round, whose rules were checked against
/// it by its totals only (its pairs and per-pair lines never read; docs/merge.md, "Development
/// sets (ninth round)"), 11 "may contradict", the rest unchanged. A development set of the
/// tenth round (its pairs read): 55 reaching, 53 located.
#[test]
fn merge_eval_heldout7_set() {
    let bars = Bars {
        pairs: 90,
        contradictions: 55,
        compatible: 35,
        caught_certain: 22,
        caught_any: 55,        // tenth round (54 before)
        located: 53,           // tenth round (49 before)
        max_certain_alarms: 4, // twelfth round (was 5)
        // Thirteenth round: 9 (log entries beside facts, a duration unit in brackets; twelfth
        // round 12, the ninth round's validation run 11, 14 at its fresh run).
        max_possible_alarms: 9,
    };
    run_heldout("heldout7", "merge seventh held-out evaluation", "merge_eval7", bars);
}

/// The eighth held-out set (`tests/merge_eval/heldout8/`, 90 pairs: 55 contradictions, 35
/// compatible), written by an eighth fresh author (helper `mergeeval8`, session 12) who never
/// opened the rules, docs/merge.md or another set's pairs; never opened by the ninth round's
/// builder (docs/merge.md, "Eighth held-out set"). Its fresh run after the ninth round: 55 of
/// 55 reaching the user, 14 certain, 48 located; of 35 compatible pairs 3 certain alarms, 11
/// "may contradict", 50 listed. A development set of the tenth round (its pairs read): bars
/// are that round's figures (54 located, 54 listed).
#[test]
fn merge_eval_heldout8_set() {
    let bars = Bars {
        pairs: 90,
        contradictions: 55,
        compatible: 35,
        caught_certain: 15, // twelfth round (14 before)
        caught_any: 55,
        located: 54,            // tenth round (48 at its fresh run)
        max_certain_alarms: 1,  // twelfth round (was 3)
        max_possible_alarms: 7, // thirteenth round (11 before)
    };
    run_heldout("heldout8", "merge eighth held-out evaluation", "merge_eval8", bars);
}

/// The ninth held-out set (`tests/merge_eval/heldout9/`, 90 pairs: 55 contradictions, 35
/// compatible), written by a ninth fresh author (helper `mergeeval9`, session 12) who never
/// opened the rules, docs/merge.md or another set's pairs; never opened by the tenth round's
/// builder (docs/merge.md, "Ninth held-out set"). Bars: its figures after the tenth round
/// (2026-12-02: 54 of 55 reaching the user, 21 certain, 50 located; of 35 compatible pairs 1
/// certain alarm, 3 "may contradict", 36 listed; the ninth round's rules gave the same but 32
/// listed).
#[test]
fn merge_eval_heldout9_set() {
    let bars = Bars {
        pairs: 90,
        contradictions: 55,
        compatible: 35,
        caught_certain: 21,
        caught_any: 54,
        located: 50,
        max_certain_alarms: 1,
        max_possible_alarms: 2, // thirteenth round: "50-yard" = "50 yards" (3 before)
    };
    run_heldout("heldout9", "merge ninth held-out evaluation", "merge_eval9", bars);
}

/// The tenth held-out set (`tests/merge_eval/heldout10/`, 90 pairs: 55 contradictions, 35
/// compatible), written by a tenth fresh author (helper `mergeeval10`, session 13) who never
/// opened the rules, docs/merge.md or another set's pairs; measured once on the tenth round's
/// rules (no rule changed in session 13) and with the review round, before and after the
/// eleventh round's flagging (docs/merge.md, "Tenth held-out set"). Its fresh figures were:
/// reach 52, located 39, certain alarms 6, "may contradict" 5, listed 38. Spent since: a
/// development set of the twelfth round, whose figures are its bars (12 certain, 53 reaching,
/// 44 located; 3 certain alarms, 5 "may contradict", 41 listed).
#[test]
fn merge_eval_heldout10_set() {
    let bars = Bars {
        pairs: 90,
        contradictions: 55,
        compatible: 35,
        caught_certain: 12,
        caught_any: 53,         // twelfth round (52 at its fresh run)
        located: 44,            // twelfth round (39 at its fresh run)
        max_certain_alarms: 2,  // thirteenth round: °C read (3 in the twelfth, 6 at its fresh run)
        max_possible_alarms: 4, // thirteenth round (5 before)
    };
    run_heldout("heldout10", "merge tenth held-out evaluation", "merge_eval10", bars);
}

/// The eleventh held-out set (`tests/merge_eval/heldout11/`, 90 pairs: 55 contradictions, 35
/// compatible), written by an eleventh fresh author (helper `mergeeval11`, session 13) who
/// never opened the rules, docs/merge.md or another set's pairs; never opened by the twelfth
/// round's builder (docs/merge.md, "Eleventh held-out set"). Bars: its figures after the
/// twelfth round (53 of 55 reaching the user, 13 certain, 47 located — 44 before the round —;
/// of 35 compatible pairs no certain alarm, 12 "may contradict", 46 listed).
#[test]
fn merge_eval_heldout11_set() {
    let bars = Bars {
        pairs: 90,
        contradictions: 55,
        compatible: 35,
        caught_certain: 13,
        caught_any: 53,
        located: 47,
        max_certain_alarms: 0,
        max_possible_alarms: 12,
    };
    run_heldout("heldout11", "merge eleventh held-out evaluation", "merge_eval11", bars);
}

/// The twelfth held-out set (`tests/merge_eval/heldout12/`, 90 pairs: 55 contradictions, 35
/// compatible), written by a twelfth fresh author (helper `mergeeval12`, session 14) who never
/// opened the rules, docs/merge.md or another set's pairs; never opened by the thirteenth
/// round's builder (docs/merge.md, "Twelfth and thirteenth held-out sets"). Bars: its fresh
/// figures with the twelfth round's rules (55 of 55 reaching the user, 11 certain, 53 located;
/// of 35 compatible pairs 2 certain alarms, 12 "may contradict", 56 listed); after the
/// thirteenth round 10 "may contradict", the rest unchanged.
#[test]
fn merge_eval_heldout12_set() {
    let bars = Bars {
        pairs: 90,
        contradictions: 55,
        compatible: 35,
        caught_certain: 11,
        caught_any: 55,
        located: 53,
        max_certain_alarms: 2,
        max_possible_alarms: 10, // thirteenth round (12 before it)
    };
    run_heldout("heldout12", "merge twelfth held-out evaluation", "merge_eval12", bars);
}

/// The thirteenth held-out set (`tests/merge_eval/heldout13/`, 90 pairs: 55 contradictions, 35
/// compatible), written by a thirteenth fresh author (helper `mergeeval13`, session 14), in
/// fuller prose; same rules of authorship as heldout12. Bars: its fresh figures with the
/// twelfth round's rules (54 of 55 reaching the user, 9 certain, 47 located; of 35 compatible
/// pairs 3 certain alarms, 15 "may contradict", 64 listed); after the thirteenth round 48
/// located, the rest unchanged.
#[test]
fn merge_eval_heldout13_set() {
    let bars = Bars {
        pairs: 90,
        contradictions: 55,
        compatible: 35,
        caught_certain: 9,
        caught_any: 54,
        located: 48, // thirteenth round (47 before it)
        max_certain_alarms: 3,
        max_possible_alarms: 15,
    };
    run_heldout("heldout13", "merge thirteenth held-out evaluation", "merge_eval13", bars);
}

/// The fifteenth held-out set (`tests/merge_eval/heldout15/`, 90 pairs: 55 contradictions, 35
/// compatible), written by a fifteenth fresh author (helper `mergeeval15`, session 14) in mixed
/// styles (terse notes against full prose about the same facts); never opened by the
/// fourteenth round's builder (docs/merge.md, "Fourteenth and fifteenth held-out sets"). Bars:
/// its fresh figures with the thirteenth round's rules (50 of 55 reaching the user, 9 certain,
/// 42 located; of 35 compatible pairs no certain alarm, 11 "may contradict", 46 listed).
#[test]
fn merge_eval_heldout15_set() {
    let bars = Bars {
        pairs: 90,
        contradictions: 55,
        compatible: 35,
        caught_certain: 9,
        caught_any: 50,
        located: 42,
        max_certain_alarms: 0,
        max_possible_alarms: 11,
    };
    run_heldout("heldout15", "merge fifteenth held-out evaluation", "merge_eval15", bars);
}

/// The fourteenth held-out set (`tests/merge_eval/heldout14/`, 90 pairs: 55 contradictions, 35
/// compatible), written by a fourteenth fresh author (helper `mergeeval14`, session 14) in full
/// prose; never opened by the fourteenth round's builder (docs/merge.md, "Fourteenth and
/// fifteenth held-out sets"). Bars: its fresh figures with the thirteenth round's rules (54 of
/// 55 reaching the user, 13 certain, 48 located; of 35 compatible pairs no certain alarm, 13
/// "may contradict", 67 listed).
#[test]
fn merge_eval_heldout14_set() {
    let bars = Bars {
        pairs: 90,
        contradictions: 55,
        compatible: 35,
        caught_certain: 13,
        caught_any: 54,
        located: 48,
        max_certain_alarms: 0,
        max_possible_alarms: 13,
    };
    run_heldout("heldout14", "merge fourteenth held-out evaluation", "merge_eval14", bars);
}

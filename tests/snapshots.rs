//! Snapshot tests (insta) of the human-facing text of the real binary: `dossier ls`, `show`,
//! `doctor` (clean and with problems), the SessionStart hook's payloads (unbound and bound),
//! a merge's conflict rendering without a terminal, `dossier conflicts list`, and open conflicts
//! as `ls` and session start show them. A wording
//! change is then a reviewed diff of a committed `tests/snapshots/*.snap` file.
//!
//! Ids, times, temp paths and the version are redacted so the snapshots are stable. A
//! mismatch fails the test: insta fails on any difference unless told to accept it
//! (`INSTA_UPDATE=always`/`new`, `INSTA_FORCE_PASS`); CI sets `CI=true`, where insta never
//! writes a snapshot. `the_snapshot_assertions_fail_on_a_mismatch` checks exactly that. To
//! accept a reviewed change: `INSTA_UPDATE=always cargo test -p dossier --test main --
//! snapshots::` (or `cargo insta review`), then commit the `.snap` files.

use std::process::Output;

use serde_json::json;
use support::{DossierSpec, TempStore};

/// `text` with a regex's special characters escaped.
fn literal(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// insta settings for `store`: snapshots under tests/snapshots/, named without the module
/// path, and redactions for everything that changes from run to run.
fn settings(store: &TempStore) -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("snapshots");
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    let tmp = store.dir.path().display().to_string();
    s.add_filter(&literal(&tmp), "[TMP]");
    if let Ok(canonical) = std::fs::canonicalize(store.dir.path()) {
        s.add_filter(&literal(&canonical.display().to_string()), "[TMP]");
    }
    s.add_filter(&literal(&format!("dossier {}", env!("CARGO_PKG_VERSION"))), "dossier [VERSION]");
    s.add_filter(r"\b(dos|art|rev|sess|conf|cf)_[0-9A-Za-z]{8,}\b", "${1}_[ID]");
    s.add_filter(r"\bconf-[0-9A-Za-z-]{6,}\b", "conf-[ID]");
    // A token estimate counts the ids and times too, so it varies by a few tokens.
    s.add_filter(r"~\d+ \(estimate", "~[N] (estimate");
    s.add_filter(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})", "[TIME]");
    s
}

/// The binary with `store`, and nothing from the environment that changes what it prints
/// (a Claude Code session around the test run, a terminal width, a `claude` on PATH).
fn run(store: &TempStore, args: &[&str]) -> Output {
    store
        .cmd()
        .args(args)
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env_remove("COLUMNS")
        .env_remove("CLAUDE_CODE_SESSION_ID")
        .env_remove("CLAUDE_PLUGIN_ROOT")
        .env_remove("CLAUDE_PROJECT_DIR")
        .output()
        .unwrap()
}

/// Exit code, stdout and stderr, as one text to snapshot.
fn shown(out: &Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().map_or("signal".to_string(), |c| c.to_string()),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn now() -> String {
    time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap()
}

/// A store with five Dossiers of different priorities and statuses (one resolved), touched
/// now (so `STALE` is `0d`), written as files (context/library.md is then out of date).
fn five(store: &TempStore) {
    store.init();
    let now = now();
    for (slug, name, imp, urg, status) in [
        ("pricing-refresh", "Pricing refresh", "high", "high", "active"),
        ("q3-launch", "Q3 launch", "high", "low", "active"),
        ("postgres-migration", "Postgres migration", "low", "high", "waiting"),
        ("board-deck", "Board deck", "low", "low", "blocked"),
        ("hiring-loop", "Hiring loop", "high", "high", "resolved"),
    ] {
        let mut d = DossierSpec::new(slug, imp, urg);
        d.name = name;
        d.status = status;
        d.last_touched_at = &now;
        d.updated_at = &now;
        store.write_dossier(&d);
    }
}

fn promote(store: &TempStore, name: &str) -> String {
    let out = run(store, &["promote", "--json", "--create", "--name", name]);
    assert!(out.status.success(), "{}", shown(&out));
    support::json_of(&out)["data"]["slug"].as_str().unwrap().to_string()
}

#[test]
fn ls() {
    let store = TempStore::new(crate::DOSSIER);
    five(&store);
    settings(&store).bind(|| {
        insta::assert_snapshot!("ls", shown(&run(&store, &["ls"])));
        insta::assert_snapshot!("ls_status_all", shown(&run(&store, &["ls", "--status", "all"])));
    });
}

#[test]
fn show() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let slug = promote(&store, "Pricing refresh");
    let out = run(&store, &["save", &slug, "--next", "Compare the three pricing scenarios"]);
    assert!(out.status.success(), "{}", shown(&out));
    settings(&store).bind(|| insta::assert_snapshot!("show", shown(&run(&store, &["show", &slug]))));
}

/// A store made through the CLI only, each Dossier saved with a Next Step and no uncited
/// claim: an `ok` line per Dossier, and doctor's one finding is that this temp HOME has no
/// Claude Code (as `cli::doctor_on_a_fresh_store_is_clean_and_fails_without_a_store`).
#[test]
fn doctor_clean() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    for name in ["Pricing refresh", "Q3 launch"] {
        let slug = promote(&store, name);
        let base = support::json_of(&run(&store, &["show", &slug, "--json"]))["data"]["revision"]
            .as_str()
            .unwrap()
            .to_string();
        let file = store.dir.path().join(format!("{slug}.md"));
        std::fs::write(
            &file,
            format!(
                "# {name}\n\n## Situation\n\nJust started.\n\n## Decisions\n\n## Findings\n\n\
                 ## Current State\n\nAssumption: nothing known yet.\n\n## Next Steps\n\n- Gather the facts.\n"
            ),
        )
        .unwrap();
        let out = run(&store, &["save", &slug, "--base-revision", &base, "--from-file", file.to_str().unwrap()]);
        assert!(out.status.success(), "{}", shown(&out));
    }
    settings(&store).bind(|| insta::assert_snapshot!("doctor_clean", shown(&run(&store, &["doctor"]))));
}

#[test]
fn doctor_with_problems() {
    let store = TempStore::new(crate::DOSSIER);
    five(&store);
    std::fs::remove_file(store.root().join("context/library.md")).unwrap();
    store.write_config("policy:\n  rankng: x.wasm\n");
    let broken = store.root().join("board-deck/dossier.md");
    let text = std::fs::read_to_string(&broken).unwrap().replace("status: blocked", "status: sleeping");
    std::fs::write(&broken, text).unwrap();
    settings(&store).bind(|| insta::assert_snapshot!("doctor_with_problems", shown(&run(&store, &["doctor"]))));
}

fn session_start(store: &TempStore, session: &str) -> Output {
    store
        .cmd()
        .args(["hook", "session-start"])
        .env("HOME", store.dir.path())
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env_remove("CLAUDE_CODE_SESSION_ID")
        .env_remove("CLAUDE_PLUGIN_ROOT")
        .write_stdin(json!({ "session_id": session, "source": "startup" }).to_string())
        .output()
        .unwrap()
}

#[test]
fn session_start_unbound() {
    let store = TempStore::new(crate::DOSSIER);
    five(&store);
    settings(&store).bind(|| insta::assert_snapshot!("session_start_unbound", shown(&session_start(&store, "s-1"))));
}

#[test]
fn session_start_bound() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let slug = promote(&store, "Pricing refresh");
    let out = run(&store, &["save", &slug, "--next", "Compare the three pricing scenarios"]);
    assert!(out.status.success(), "{}", shown(&out));
    let out = run(&store, &["switch", &slug, "--session", "s-2"]);
    assert!(out.status.success(), "{}", shown(&out));
    settings(&store).bind(|| insta::assert_snapshot!("session_start_bound", shown(&session_start(&store, "s-2"))));
}

/// A concurrent edit kept as a conflict file (SPEC §11.5): `ls` marks the Dossier (`!1`) with a
/// note naming the fix, and session start names the conflict with the fix, unbound and bound.
#[test]
fn open_conflicts_in_ls_and_session_start() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let slug = promote(&store, "Shared topic");
    promote(&store, "Quiet topic");
    let base =
        support::json_of(&run(&store, &["show", &slug, "--json"]))["data"]["revision"].as_str().unwrap().to_string();
    for (who, text) in [("theirs", "Schema reviewed."), ("ours", "Schema rejected.")] {
        let file = store.dir.path().join(format!("{who}.md"));
        std::fs::write(&file, format!("# Shared topic\n\n## Situation\n\n{text}\n")).unwrap();
        run(&store, &["save", &slug, "--base-revision", &base, "--from-file", file.to_str().unwrap()]);
    }
    let out = run(&store, &["switch", &slug, "--session", "s-c"]);
    assert!(out.status.success(), "{}", shown(&out));
    settings(&store).bind(|| {
        insta::assert_snapshot!("ls_open_conflicts", shown(&run(&store, &["ls"])));
        insta::assert_snapshot!("session_start_open_conflicts", shown(&session_start(&store, "s-u")));
        insta::assert_snapshot!("session_start_bound_open_conflicts", shown(&session_start(&store, "s-c")));
    });
}

#[test]
fn merge_conflicts_and_the_conflicts_list() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target, _, _) = crate::merge::pair(&store, true);
    let merged = run(&store, &["merge", &source, &target]);
    assert_eq!(merged.status.code(), Some(4), "{}", shown(&merged));
    // And a concurrent edit: someone else saved first, our save on the old base is kept
    // as a conflict file.
    let (shared, _) = crate::merge::make(&store, "Shared topic", "Go", "# Shared topic\n", &[]);
    let base =
        support::json_of(&run(&store, &["show", &shared, "--json"]))["data"]["revision"].as_str().unwrap().to_string();
    for (who, text) in [("theirs", "Schema reviewed."), ("ours", "Schema rejected.")] {
        let file = store.dir.path().join(format!("{who}.md"));
        std::fs::write(&file, format!("# Shared topic\n\n## Situation\n\n{text}\n")).unwrap();
        run(&store, &["save", &shared, "--base-revision", &base, "--from-file", file.to_str().unwrap()]);
    }
    let listed = run(&store, &["conflicts", "list"]);
    let ids = support::json_of(&run(&store, &["conflicts", "list", "--json"]))["data"]["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect::<Vec<_>>();
    // The merge raises the contradictory decision (certain) and a possible one: the source's
    // finding "Replays must finish …" shares the stem *event* with the target's decision, and
    // each names something the other side never mentions (the widened tier reads the
    // capitalised first word as a name; docs/merge.md, "Limits, honestly"). Since issue 19's
    // sixth round, those the rules think compatible were listed with their hint too; since the
    // seventh round the two Situation sentences (framing) are kept both without a listing, and
    // the same finding against "Peak load is 1,200 events per second" (other measures of one
    // thing) is far weaker than its first pair: both counted in "N more related pair(s) not
    // listed". Since the tenth round that finding is the only new claim of the source's
    // Findings, and the peak-load one the target's: the sole counterparts list them as a pair,
    // with a hint (docs/merge.md, "Tenth round").
    assert_eq!(ids.len(), 4, "three merge conflicts and one concurrent edit: {}", shown(&listed));
    let shown_each: Vec<Output> = ids.iter().map(|id| run(&store, &["conflicts", "show", id])).collect();
    settings(&store).bind(|| {
        insta::assert_snapshot!("merge_conflicts", shown(&merged));
        insta::assert_snapshot!("conflicts_list", shown(&listed));
        for (i, out) in shown_each.iter().enumerate() {
            insta::assert_snapshot!(format!("conflicts_show_{i}"), shown(out));
        }
    });
}

/// The snapshot assertions above can fail: a value that differs from its stored snapshot
/// panics (here against a snapshot written to a temp dir, so nothing in tests/ changes).
/// Fails when the environment makes insta accept changes (`INSTA_UPDATE=always`,
/// `INSTA_FORCE_PASS`): a run that cannot fail is not a test run.
#[test]
fn the_snapshot_assertions_fail_on_a_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("probe.snap"), "---\nsource: tests/snapshots.rs\n---\nthe stored text\n").unwrap();
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(dir.path());
    s.set_prepend_module_to_snapshot(false);
    let matched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        s.bind(|| insta::assert_snapshot!("probe", "the stored text"))
    }));
    assert!(matched.is_ok(), "an equal value passes");
    let differed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        s.bind(|| insta::assert_snapshot!("probe", "another text"))
    }));
    assert!(
        differed.is_err(),
        "a snapshot mismatch passed: unset INSTA_UPDATE / INSTA_FORCE_PASS (they accept every change)"
    );
}

//! The `dossier` binary as a user meets it: init, doctor, ls, path, context refresh,
//! version/help, and the commands that later issues own.

use predicates::prelude::*;
use support::{DossierSpec, TempStore, json_of, snapshot};

#[test]
fn init_creates_the_store_layout_and_is_idempotent() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let root = store.root();
    for p in ["config.yaml", "context/guide.md", "context/library.md"] {
        assert!(root.join(p).is_file(), "{p} missing");
    }
    for d in ["context", "sessions"] {
        assert!(root.join(d).is_dir(), "{d}/ missing");
    }
    assert!(std::fs::read_dir(root.join(".cache/policy")).unwrap().count() >= 1, "policy cache warmed");

    // The user edits config and guide; a second init keeps both and changes nothing else.
    let config = "# mine\ntoken_target: 5000\n";
    std::fs::write(root.join("config.yaml"), config).unwrap();
    std::fs::write(root.join("context/guide.md"), "my guide\n").unwrap();
    let before = snapshot(root);
    let out = store.cmd().args(["init", "--yes", "--json"]).output().unwrap();
    assert!(out.status.success());
    let v = json_of(&out);
    assert_eq!(v["ok"], true);
    // config.yaml keeps the user's text; init only (re)writes its capability block after it.
    let after = snapshot(root);
    let is_config = |(p, _): &&(String, Vec<u8>)| p == "config.yaml";
    assert_eq!(
        after.iter().filter(|f| !is_config(f)).collect::<Vec<_>>(),
        before.iter().filter(|f| !is_config(f)).collect::<Vec<_>>()
    );
    let written = std::fs::read_to_string(root.join("config.yaml")).unwrap();
    assert!(written.starts_with(config) && written.contains("\n# --- harness: written by dossier init"), "{written}");
    assert!(v["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().contains("guide.md differs")));
    store.cmd().args(["init", "--yes"]).assert().success();
    assert_eq!(snapshot(root), after, "third init changed files");
}

#[test]
fn doctor_on_a_fresh_store_is_clean_and_fails_without_a_store() {
    let store = TempStore::new(crate::DOSSIER);
    let out = store.cmd().arg("doctor").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("fix:  dossier init"));

    store.init();
    let out = store.cmd().args(["doctor", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    let checks = v["data"]["checks"].as_array().unwrap();
    for iface in ["priority", "ranking", "merge", "distill", "learning"] {
        let c = checks.iter().find(|c| c["check"] == format!("policy.{iface}")).unwrap();
        assert_eq!(c["severity"], "ok");
        assert!(c["message"].as_str().unwrap().contains("embedded default policy"));
    }
    // The temp HOME has no Claude Code: that, and only that, is a (visible) warning.
    assert!(
        checks.iter().filter(|c| !c["check"].as_str().unwrap().starts_with("harness")).all(|c| c["severity"] == "ok"),
        "{checks:?}"
    );
    let harness = checks.iter().find(|c| c["check"] == "harness.claude_code").unwrap();
    assert_eq!(harness["severity"], "warning");
    assert!(harness["message"].as_str().unwrap().contains("MCP server"), "{harness}");
}

#[test]
fn doctor_reports_problems_with_file_and_fix_but_warnings_exit_zero() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    std::fs::remove_file(store.root().join("context/library.md")).unwrap();
    let out = store.cmd().arg("doctor").output().unwrap();
    assert!(out.status.success(), "a warning alone does not fail doctor");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("warn  context.library") && text.contains("fix:  dossier doctor --fix"), "{text}");

    store.write_config("policy:\n  rankng: x.wasm\n");
    let out = store.cmd().args(["doctor", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v = json_of(&out);
    let c = v["data"]["checks"].as_array().unwrap().iter().find(|c| c["check"] == "config").unwrap().clone();
    assert_eq!(c["code"], "invalid_config");
    assert!(c["message"].as_str().unwrap().contains("rankng"));
    assert!(c["file"].as_str().unwrap().ends_with("config.yaml"));
}

#[test]
fn doctor_never_writes() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    std::fs::remove_file(store.root().join("context/library.md")).unwrap();
    let before = snapshot(store.root());
    store.cmd().arg("doctor").assert().success();
    assert_eq!(snapshot(store.root()), before);
}

#[test]
fn ls_sorts_by_priority_then_oldest_touch_and_filters_status() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let mut a = DossierSpec::new("b-plan-recent", "high", "low");
    a.last_touched_at = "2026-03-01T00:00:00Z";
    store.write_dossier(&a);
    let mut b = DossierSpec::new("a-plan-old", "high", "low");
    b.last_touched_at = "2026-02-01T00:00:00Z";
    store.write_dossier(&b);
    store.write_dossier(&DossierSpec::new("low-low", "low", "low"));
    let mut r = DossierSpec::new("done", "high", "high");
    r.status = "resolved";
    store.write_dossier(&r);
    let mut w = DossierSpec::new("waiting-one", "low", "high");
    w.status = "waiting";
    store.write_dossier(&w);

    assert_eq!(store.ls_slugs(&[]), ["a-plan-old", "b-plan-recent", "waiting-one", "low-low"]);
    assert_eq!(store.ls_slugs(&["--status", "resolved"]), ["done"]);
    assert_eq!(store.ls_slugs(&["--status", "all"]).len(), 5);

    let out = store.cmd().args(["ls", "--json"]).output().unwrap();
    let v = json_of(&out);
    let first = &v["data"]["dossiers"][0];
    for key in [
        "id",
        "name",
        "slug",
        "status",
        "lead",
        "next_action",
        "open_questions",
        "importance",
        "urgency",
        "staleness_days",
        "priority_score",
        "path",
        "warnings",
        "open_conflicts",
    ] {
        assert!(first.get(key).is_some(), "item lacks {key}: {first}");
    }
    assert!(first["staleness_days"].as_i64().unwrap() > 200, "touched 2026-02-01");

    let human = store.cmd().arg("ls").output().unwrap();
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(text.lines().next().unwrap().starts_with("PRI STATUS"), "{text}");
}

#[test]
fn ls_reports_an_unreadable_dossier_without_failing() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    store.write_dossier(&DossierSpec::new("good", "high", "high"));
    std::fs::create_dir_all(store.root().join("broken")).unwrap();
    std::fs::write(store.root().join("broken/dossier.md"), "---\nid: [unclosed\n---\n").unwrap();
    let out = store.cmd().args(["ls", "--json"]).output().unwrap();
    assert!(out.status.success());
    let v = json_of(&out);
    assert_eq!(v["data"]["dossiers"].as_array().unwrap().len(), 1);
    assert!(v["warnings"][0].as_str().unwrap().contains("broken/dossier.md"), "{v}");
    let doctor = store.cmd().args(["doctor", "--json"]).output().unwrap();
    assert_eq!(doctor.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&doctor.stdout).contains("invalid_frontmatter"));
}

#[test]
fn ls_without_a_store_says_to_init() {
    let store = TempStore::new(crate::DOSSIER);
    let missing = store.root();
    let out = store.cmd().args(["ls", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(7));
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "store_unavailable");
    assert_eq!(v["next_actions"][0], "dossier init");
    assert!(!missing.exists(), "a read command created the store");
}

#[test]
fn library_lists_open_work_in_priority_order_and_refresh_updates_it() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    store.write_dossier(&DossierSpec::new("second", "high", "low"));
    store.write_dossier(&DossierSpec::new("first", "high", "high"));
    store.cmd().args(["context", "refresh"]).assert().success().stdout(predicate::str::starts_with("updated"));
    let lib = std::fs::read_to_string(store.root().join("context/library.md")).unwrap();
    let (a, b) = (lib.find("**first**").unwrap(), lib.find("**second**").unwrap());
    assert!(a < b, "{lib}");
    assert!(lib.contains("Warning: The dossier MCP server is not registered"), "{lib}");
    assert!(lib.contains("context/guide.md"));
    store.cmd().args(["context", "refresh"]).assert().success().stdout(predicate::str::starts_with("unchanged"));
}

#[test]
fn path_prints_store_root_and_dossier_dirs() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    store.write_dossier(&DossierSpec::new("alpha", "high", "high"));
    store.cmd().arg("path").assert().success().stdout(format!("{}\n", store.root().display()));
    store
        .cmd()
        .args(["path", "alpha"])
        .assert()
        .success()
        .stdout(format!("{}\n", store.root().join("alpha").display()));
    store
        .cmd()
        .args(["path", "dos_ALPHA"])
        .assert()
        .success()
        .stdout(format!("{}\n", store.root().join("alpha").display()));
    let out = store.cmd().args(["path", "../etc", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(5), "a path outside the store is rejected, not looked up");
    assert_eq!(json_of(&out)["error"]["code"], "invalid_input");
    let out = store.cmd().args(["path", "nope", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(json_of(&out)["error"]["code"], "not_found");
}

#[test]
fn version_and_help() {
    let store = TempStore::new(crate::DOSSIER);
    store.cmd().arg("--version").assert().success().stdout(predicate::str::starts_with("dossier 0."));
    let help = store.cmd().arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    for cmd in [
        "init",
        "ls",
        "show",
        "promote",
        "link",
        "merge",
        "recall",
        "search",
        "status",
        "lead",
        "next",
        "questions",
        "priority",
        "active",
        "switch",
        "path",
        "archive",
        "context",
        "doctor",
    ] {
        assert!(text.contains(&format!("  {cmd} ")) || text.contains(&format!("  {cmd}\n")), "help lacks {cmd}");
    }
    assert!(!text.lines().any(|l| l.trim_start().starts_with("delete")), "no delete command exists");
}

#[test]
fn no_database_file_is_created() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    store.write_dossier(&DossierSpec::new("alpha", "high", "high"));
    store.cmd().arg("ls").assert().success();
    store.cmd().arg("doctor").assert().success();
    // Every kind of operation, then look for anything database-like in the store.
    store.cmd().args(["promote", "--name", "Beta work"]).assert().success();
    store.cmd().args(["next", "beta-work", "Write it down"]).assert().success();
    store.cmd().args(["archive", "alpha"]).assert().success();
    store.cmd().args(["search", "write"]).assert().success();
    store.cmd().args(["recall", "beta-work"]).assert().success();
    store.cmd().args(["context", "refresh"]).assert().success();
    for (path, bytes) in snapshot(store.root()) {
        assert!(!bytes.starts_with(b"SQLite format"), "{path} is a database");
        assert!(![".db", ".sqlite", ".sqlite3"].iter().any(|ext| path.ends_with(ext)), "{path}");
    }
}

#[test]
fn doctor_reports_a_corrupt_audit_line_and_a_dangling_citation_with_file_line_and_fix() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let out = store.cmd().args(["promote", "--json", "--create", "--name", "Doctor topic"]).output().unwrap();
    let slug = json_of(&out)["data"]["slug"].as_str().unwrap().to_string();
    let dir = store.root().join(&slug);
    let rev = json_of(&store.cmd().args(["show", &slug, "--json"]).output().unwrap())["data"]["revision"]
        .as_str()
        .unwrap()
        .to_string();
    let state = "# Doctor topic\n\n## Situation\n\nContext.\n\n## Decisions\n\n## Findings\n\n\
- Cites a ghost. [src:art_01ghost]\n\n## Current State\n\nAssumption: fine.\n\n## Next Steps\n\n- Go.\n";
    let file = store.dir.path().join("state.md");
    std::fs::write(&file, state).unwrap();
    store.cmd().args(["save", &slug, "--base-revision", &rev, "--from-file"]).arg(&file).assert().success();
    {
        use std::io::Write;
        let mut log = std::fs::OpenOptions::new().append(true).open(dir.join("audit.log")).unwrap();
        log.write_all(b"{ this is not json\n").unwrap();
    }
    let lines = std::fs::read_to_string(dir.join("audit.log")).unwrap().lines().count();
    let before = snapshot(store.root());
    let out = store.cmd().args(["doctor", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "a corrupt audit line is an error");
    let v = json_of(&out);
    let checks = v["data"]["checks"].as_array().unwrap();
    let audit = checks.iter().find(|c| c["code"] == "corrupt_audit_line").expect("corrupt audit line reported");
    assert_eq!(audit["line"], lines);
    assert!(audit["file"].as_str().unwrap().ends_with("audit.log"));
    assert!(audit["fix"].is_string());
    let ghost_line = state.lines().position(|l| l.contains("ghost")).unwrap();
    let cite = checks.iter().find(|c| c["code"] == "unknown-artifact").expect("dangling citation reported");
    assert!(cite["file"].as_str().unwrap().ends_with("dossier.md"));
    let saved = std::fs::read_to_string(dir.join("dossier.md")).unwrap();
    assert_eq!(cite["line"], saved.lines().position(|l| l.contains("ghost")).unwrap() + 1, "{ghost_line}");
    assert!(cite["fix"].as_str().unwrap().contains("dossier_save"));
    assert_eq!(snapshot(store.root()), before, "doctor changes nothing");
}

fn doctor_checks(store: &TempStore, args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let out = store.cmd().arg("doctor").args(args).arg("--json").output().unwrap();
    (out.status.code(), json_of(&out))
}

fn find<'a>(v: &'a serde_json::Value, code: &str) -> Option<&'a serde_json::Value> {
    v["data"]["checks"].as_array().unwrap().iter().find(|c| c["code"] == code)
}

#[test]
fn doctor_reports_a_missing_artifact_and_an_unparseable_frontmatter_with_file_and_fix() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let out = store.cmd().args(["promote", "--json", "--create", "--name", "Archive topic"]).output().unwrap();
    let slug = json_of(&out)["data"]["slug"].as_str().unwrap().to_string();
    let note = store.dir.path().join("notes.txt");
    std::fs::write(&note, "a note\n").unwrap();
    let out = store.cmd().args(["save", &slug, "--json", "--artifact"]).arg(&note).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let id = json_of(&out)["data"]["artifacts_added"][0].as_str().unwrap().to_string();
    let (code, v) = doctor_checks(&store, &[]);
    assert!(find(&v, "artifact_missing").is_none(), "{v}");
    assert_eq!(code, Some(0), "{v}");

    std::fs::remove_file(store.root().join(&slug).join(format!("artifacts/{id}.txt"))).unwrap();
    let (code, v) = doctor_checks(&store, &[]);
    assert_eq!(code, Some(1), "a missing artifact is an error");
    let c = find(&v, "artifact_missing").expect("missing artifact reported");
    assert!(c["message"].as_str().unwrap().contains(&id), "{c}");
    assert!(c["file"].as_str().unwrap().contains(&format!("artifacts/{id}")), "{c}");
    assert!(c["fix"].as_str().unwrap().contains("restore it"), "{c}");
    // --fix does not pretend to repair Dossier data.
    let (code, v) = doctor_checks(&store, &["--fix"]);
    assert_eq!(code, Some(1));
    assert!(find(&v, "artifact_missing").is_some());

    std::fs::write(store.root().join(&slug).join("dossier.md"), "---\nid: [unclosed\n---\n# T\n").unwrap();
    let (_, v) = doctor_checks(&store, &[]);
    let c = find(&v, "invalid_frontmatter").expect("unparseable frontmatter reported");
    assert!(c["file"].as_str().unwrap().ends_with("dossier.md"), "{c}");
    assert!(c["fix"].as_str().unwrap().starts_with("edit the frontmatter"), "{c}");
}

#[test]
fn doctor_fix_regenerates_context_files_and_removes_only_our_stale_temp_files_idempotently() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    store.write_dossier(&DossierSpec::new("alpha", "high", "high"));
    // A stale library (the open-work list changed behind dossier's back), a missing guide,
    // a temp file left by an interrupted write an hour ago, a fresh one (a write in
    // progress, maybe) and a user's file that only looks similar.
    std::fs::write(store.root().join("context/library.md"), "# old\n").unwrap();
    std::fs::remove_file(store.root().join("context/guide.md")).unwrap();
    let stale = store.root().join("alpha/.tmpAb12Cd");
    let fresh = store.root().join("alpha/.tmpZz99Yy");
    let users = store.root().join("alpha/.tmp-notes");
    for f in [&stale, &fresh, &users] {
        std::fs::write(f, "partial").unwrap();
    }
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 3600);
    for f in [&stale, &users] {
        std::fs::File::options().write(true).open(f).unwrap().set_modified(old).unwrap();
    }

    let before = snapshot(store.root());
    let (code, v) = doctor_checks(&store, &[]);
    assert_eq!(code, Some(0), "only warnings: {v}");
    assert_eq!(snapshot(store.root()), before, "doctor without --fix changes nothing");
    for code in ["library_stale", "guide_missing", "stale_temp_file"] {
        let c = find(&v, code).unwrap_or_else(|| panic!("{code} not reported: {v}"));
        assert_eq!(c["fix"], "dossier doctor --fix", "{c}");
    }
    let temp = v["data"]["checks"].as_array().unwrap().iter().filter(|c| c["code"] == "stale_temp_file").count();
    assert_eq!(temp, 1, "only the stale temp file of ours: {v}");

    let (code, v) = doctor_checks(&store, &["--fix"]);
    assert_eq!(code, Some(0));
    let applied: Vec<&str> =
        v["data"]["repairs"]["applied"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    assert_eq!(applied.len(), 3, "{applied:?}");
    for code in ["library_stale", "guide_missing", "stale_temp_file"] {
        assert!(find(&v, code).is_none(), "{code} still reported after --fix: {v}");
    }
    assert!(!stale.exists() && fresh.exists() && users.exists());
    assert_eq!(std::fs::read_to_string(store.root().join("context/guide.md")).unwrap(), dossier_store::context::GUIDE);

    let after = snapshot(store.root());
    let out = store.cmd().args(["doctor", "--fix"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("nothing to fix automatically"));
    assert_eq!(snapshot(store.root()), after, "a second --fix is a no-op");
}

#[test]
fn doctor_warns_about_an_obsolete_fuel_limit_but_still_loads_the_config() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    store.write_config("policy:\n  limits:\n    fuel: 2000000000\n");
    let (code, v) = doctor_checks(&store, &[]);
    assert_eq!(code, Some(0), "{v}");
    let c = find(&v, "obsolete_setting").expect("obsolete fuel reported");
    assert!(c["fix"].as_str().unwrap().contains("time_ms"), "{c}");
}

/// assets/examples: every material claim cited, every citation resolving (SPEC §14.3).
#[test]
fn sample_dossiers_validate_clean() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let examples = support::workspace_root().join("assets/examples");
    let mut samples = Vec::new();
    for entry in std::fs::read_dir(&examples).unwrap() {
        let src = entry.unwrap().path();
        if !src.join("dossier.md").is_file() {
            continue;
        }
        let dst = store.root().join(src.file_name().unwrap());
        copy_tree(&src, &dst);
        samples.push(dst);
    }
    assert!(samples.len() >= 2, "samples: {samples:?}");
    let app = dossier::app::with(
        dossier_store::layout::Store::at(store.root().to_path_buf()),
        dossier_store::config::Config::default(),
    );
    for dir in &samples {
        let findings = dossier_store::distill::findings(&app, dir).unwrap();
        assert!(findings.is_empty(), "{}: {findings:?}", dir.display());
        let (artifacts, problems) = dossier_store::archive::list(dir);
        assert!(problems.is_empty() && artifacts.len() >= 3, "{problems:?}");
        let state = std::fs::read_to_string(dir.join("dossier.md")).unwrap();
        for a in &artifacts {
            assert!(state.contains(&format!("[src:{}", a.id)), "{} is never cited", a.id);
        }
    }
    let (code, v) = doctor_checks(&store, &["--fix"]);
    assert_eq!(code, Some(0), "{v}");
    let problems: Vec<&serde_json::Value> = v["data"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["severity"] != "ok" && !c["check"].as_str().unwrap().starts_with("harness"))
        .collect();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(store.ls_slugs(&[]).len(), samples.len());
}

fn copy_tree(src: &std::path::Path, dst: &std::path::Path) {
    std::fs::create_dir_all(dst).unwrap();
    for entry in std::fs::read_dir(src).unwrap() {
        let p = entry.unwrap().path();
        let to = dst.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &to)
        } else {
            std::fs::copy(&p, &to).unwrap();
        }
    }
}

/// Promote `name` and save `state` as its Distilled State; the slug.
fn promote_with_state(store: &TempStore, name: &str, state: &str) -> String {
    let out = store.cmd().args(["promote", "--json", "--create", "--name", name]).output().unwrap();
    let slug = json_of(&out)["data"]["slug"].as_str().unwrap().to_string();
    let rev = json_of(&store.cmd().args(["show", &slug, "--json"]).output().unwrap())["data"]["revision"]
        .as_str()
        .unwrap()
        .to_string();
    let file = store.dir.path().join(format!("{slug}.state.md"));
    std::fs::write(&file, state).unwrap();
    store.cmd().args(["save", &slug, "--base-revision", &rev, "--from-file"]).arg(&file).assert().success();
    slug
}

/// SPEC §14.3 "dossier doctor reports missing provenance": an uncited material claim is a
/// warning with the Dossier's file, the claim's line and how to fix it; a Dossier without
/// findings gets an `ok` line, and a summary says how many Dossiers were checked.
#[test]
fn spec_14_3_doctor_reports_missing_provenance() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let clean = promote_with_state(
        &store,
        "Clean topic",
        "# Clean topic\n\n## Situation\n\nContext.\n\n## Decisions\n\n## Findings\n\n- Assumption: it holds.\n\n\
## Current State\n\nAssumption: fine.\n\n## Next Steps\n\n- Go.\n",
    );
    let state = "# Uncited topic\n\n## Situation\n\nContext.\n\n## Decisions\n\n## Findings\n\n\
- Churn fell by 12% after the price change.\n\n## Current State\n\nAssumption: fine.\n\n## Next Steps\n\n- Go.\n";
    let slug = promote_with_state(&store, "Uncited topic", state);
    let file = store.root().join(&slug).join("dossier.md");
    let line = std::fs::read_to_string(&file).unwrap().lines().position(|l| l.contains("Churn fell")).unwrap() + 1;
    let before = snapshot(store.root());

    let (code, v) = doctor_checks(&store, &[]);
    assert_eq!(code, Some(0), "missing provenance is a warning: {v}");
    let c = find(&v, "missing-provenance").unwrap_or_else(|| panic!("missing provenance not reported: {v:#}"));
    assert_eq!(c["severity"], "warning", "{c}");
    assert_eq!(c["file"].as_str().unwrap(), file.display().to_string(), "{c}");
    assert_eq!(c["line"], line, "{c}");
    let fix = c["fix"].as_str().unwrap();
    assert!(fix.contains("[src:") && fix.contains("Assumption:") && fix.contains(&slug), "{fix}");
    let checks = v["data"]["checks"].as_array().unwrap();
    let ok = checks.iter().find(|c| c["check"] == "dossier" && c["severity"] == "ok").expect("an ok line");
    assert!(ok["message"].as_str().unwrap().contains(&clean), "{ok}");
    assert!(
        !checks.iter().any(|c| c["check"] == "dossier"
            && c["message"].as_str().unwrap().contains(&slug)
            && c["severity"] == "ok"),
        "the Dossier with a finding did not pass"
    );

    let out = store.cmd().arg("doctor").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("warn  dossier.distill") && text.contains("missing-provenance"), "{text}");
    assert!(text.contains(&format!("file: {}:{line}", file.display())), "{text}");
    assert!(text.contains(&format!("ok    dossier              {clean}")), "{text}");
    assert!(text.contains("2 Dossiers checked"), "{text}");
    assert_eq!(snapshot(store.root()), before, "doctor changes nothing");
}

/// Many findings of one kind in a Dossier: the first few with their lines, then one line
/// with the count (and the remaining lines in `--json`), so the output stays bounded.
#[test]
fn spec_14_3_doctor_groups_many_findings_with_a_count() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let claims: String = (1..=300).map(|i| format!("- Claim number {i} holds.\n")).collect();
    let state = format!(
        "# Many claims\n\n## Situation\n\nContext.\n\n## Decisions\n\n## Findings\n\n{claims}\n\
## Current State\n\nAssumption: fine.\n\n## Next Steps\n\n- Go.\n"
    );
    let slug = promote_with_state(&store, "Many claims", &state);
    let (code, v) = doctor_checks(&store, &[]);
    assert_eq!(code, Some(0), "{v}");
    let found: Vec<&serde_json::Value> =
        v["data"]["checks"].as_array().unwrap().iter().filter(|c| c["code"] == "missing-provenance").collect();
    assert!(found.len() <= 4, "bounded: {} checks", found.len());
    assert!(found.iter().take(3).all(|c| c["line"].is_u64()), "{found:#?}");
    let rest = found.last().unwrap();
    assert_eq!(rest["count"], 297, "{rest}");
    assert_eq!(rest["lines"].as_array().unwrap().len(), 297, "{rest}");
    assert!(rest["message"].as_str().unwrap().contains("297 more"), "{rest}");
    assert!(rest["message"].as_str().unwrap().contains(&slug), "{rest}");

    let out = store.cmd().arg("doctor").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().count() < 60, "bounded human output:\n{text}");
    assert!(text.contains("297 more"), "{text}");
}

/// SPEC §7.2 `dossier ls`: "Includes capability warning column if invoked inside a known
/// harness/session". Inside a Claude Code session (its session variable set) in a home without
/// hooks, `ls` has a WARNINGS column and every `--json` item carries the capability warnings;
/// outside a session there is no column and no per-item warning.
#[test]
fn spec_7_2_ls_has_a_capability_warning_column_inside_a_session() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    store.write_dossier(&DossierSpec::new("pricing", "high", "low"));

    let inside = store.cmd().env("CLAUDE_CODE_SESSION_ID", "sess-ls").arg("ls").output().unwrap();
    let text = String::from_utf8_lossy(&inside.stdout);
    assert!(inside.status.success(), "{text}");
    let header = text.lines().next().unwrap();
    assert!(header.contains("WARNINGS"), "a warning column inside a session:\n{text}");
    let row = text.lines().find(|l| l.contains("pricing")).unwrap();
    assert!(row.contains("no transcript"), "{row}");
    let v = json_of(&store.cmd().env("CLAUDE_CODE_SESSION_ID", "sess-ls").args(["ls", "--json"]).output().unwrap());
    let w = v["data"]["dossiers"][0]["warnings"].as_array().unwrap();
    assert!(w.iter().any(|w| w.as_str().unwrap().contains("Transcript archive is unavailable")), "{w:?}");

    let outside = store.cmd().env_remove("CLAUDE_CODE_SESSION_ID").arg("ls").output().unwrap();
    let text = String::from_utf8_lossy(&outside.stdout);
    assert!(!text.contains("WARNINGS") && !text.contains("no transcript"), "{text}");
    let v = json_of(&store.cmd().env_remove("CLAUDE_CODE_SESSION_ID").args(["ls", "--json"]).output().unwrap());
    assert_eq!(v["data"]["dossiers"][0]["warnings"], serde_json::json!([]), "{v}");
}

const ENTERPRISE: (&str, &str) = ("pricing-model-enterprise", "Pricing model, enterprise");
const STARTUPS: (&str, &str) = ("pricing-model-startups", "Pricing model, startups");

fn two_pricing_dossiers() -> TempStore {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    for (slug, name) in [ENTERPRISE, STARTUPS] {
        store.write_dossier(&DossierSpec { name, ..DossierSpec::new(slug, "high", "low") });
        store.cmd().args(["next", slug, "Call the account team about the renewal terms"]).assert().success();
    }
    store
}

/// `dossier ls` on a real terminal of `width` columns: the table's lines.
fn ls_on_terminal(store: &TempStore, width: &str) -> Vec<String> {
    let tmux = support::terminal::Tmux::new("ls-names");
    let root = store.root().display().to_string();
    let home = store.dir.path().join("home").display().to_string();
    let env = [("DOSSIER_HOME", root.as_str()), ("HOME", home.as_str()), ("TERM", "xterm"), ("COLUMNS", width)];
    let script = format!("{} ls", support::terminal::shell_quote(crate::DOSSIER));
    let raw = String::from_utf8_lossy(&tmux.run_raw(store.dir.path(), 200, &env, &script)).into_owned();
    raw.split('\n')
        .map(|l| l.trim_end_matches('\r').to_string())
        .filter(|l| !l.is_empty() && !l.contains("__END__"))
        .collect()
}

/// Issue 18 defect 14: `ls` shows each Dossier's name as well as its slug, uses the terminal's
/// width (at 100 columns nothing of either is cut), and when it must shorten them keeps the
/// characters that tell two Dossiers apart (at 50 columns they no longer both read
/// `pricing-mode…`).
#[test]
fn ls_shows_names_and_keeps_dossiers_distinguishable_at_any_width() {
    let store = two_pricing_dossiers();
    let wide = ls_on_terminal(&store, "100");
    for (slug, name) in [ENTERPRISE, STARTUPS] {
        let row = wide.iter().find(|l| l.contains(slug)).unwrap_or_else(|| panic!("{slug} in full: {wide:#?}"));
        assert!(row.contains(name), "the name in full at 100 columns: {row:?}");
    }
    let narrow = ls_on_terminal(&store, "50");
    assert!(narrow.iter().all(|l| l.chars().count() <= 50), "{narrow:#?}");
    let rows: Vec<&String> = narrow.iter().filter(|l| !l.starts_with("PRI")).collect();
    assert_eq!(rows.len(), 2, "{narrow:#?}");
    // Each row keeps a distinguishing end of its name and of its slug.
    let tails: Vec<&str> =
        rows.iter().map(|r| ["ise", "ups"].into_iter().find(|t| r.matches(t).count() >= 2).unwrap_or("")).collect();
    assert!(tails.contains(&"ise") && tails.contains(&"ups"), "{rows:#?}");
}

/// A next action with newlines (MCP accepts them) stays on its row: each newline is shown as ⏎.
#[test]
fn ls_keeps_a_next_action_with_newlines_on_one_row() {
    let store = two_pricing_dossiers();
    store.cmd().args(["next", ENTERPRISE.0, "first line\nsecond line"]).assert().success();
    let out = store.cmd().env_remove("CLAUDE_CODE_SESSION_ID").arg("ls").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 3, "a header and two rows:\n{text}");
    let row = text.lines().find(|l| l.contains(ENTERPRISE.0)).unwrap();
    assert!(row.contains("first line ⏎ second line"), "{row}");
    let v = json_of(&store.cmd().args(["ls", "--json"]).output().unwrap());
    let next: Vec<&str> =
        v["data"]["dossiers"].as_array().unwrap().iter().map(|d| d["next_action"].as_str().unwrap()).collect();
    assert!(next.contains(&"first line\nsecond line"), "--json keeps the value: {next:?}");
}

/// `dossier active` names the bound Dossier as `Name (slug)`, not only by its `dos_` id.
#[test]
fn active_names_the_dossier_by_name_and_slug() {
    let store = two_pricing_dossiers();
    store.cmd().args(["switch", ENTERPRISE.0, "--session", "sess-a"]).assert().success();
    let out = store.cmd().args(["active", "--session", "sess-a"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(&format!("{} ({})", ENTERPRISE.1, ENTERPRISE.0)), "{text}");
}

/// The session-end hook's message about a transcript it could not capture names the bound
/// Dossier as `Name (slug)`, not by its `dos_` id.
#[test]
fn the_hook_message_names_the_bound_dossier_by_name_and_slug() {
    let store = two_pricing_dossiers();
    store.cmd().args(["switch", STARTUPS.0, "--session", "sess-h"]).assert().success();
    let out = store
        .cmd()
        .args(["hook", "session-end"])
        .write_stdin(r#"{"session_id": "sess-h", "hook_event_name": "SessionEnd", "reason": "other"}"#)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("transcript not captured for {} ({})", STARTUPS.1, STARTUPS.0)), "{text}");
    assert!(!text.contains("dos_"), "{text}");
}

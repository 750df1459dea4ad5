//! The file store and the Save path through the real binary: create, every field command,
//! show, archive, error codes, conflicts and auto-merge, concurrency across processes, and
//! crash safety under SIGKILL.

use std::path::{Path, PathBuf};
use std::process::Output;

use support::{TempStore, json_of, snapshot};

fn promote(store: &TempStore, name: &str) -> serde_json::Value {
    let out = store.cmd().args(["promote", "--name", name, "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    json_of(&out)
}

fn show(store: &TempStore, target: &str) -> serde_json::Value {
    let out = store.cmd().args(["show", target, "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    json_of(&out)["data"].clone()
}

fn audit(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("audit.log"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("audit line does not parse ({e}): {l}")))
        .collect()
}

fn code(out: &Output) -> String {
    json_of(out)["error"]["code"].as_str().unwrap_or("").to_string()
}

#[test]
fn promote_creates_the_layout_and_slugs_never_collide() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let v = promote(&store, "Pricing model refresh");
    assert_eq!(v["data"]["slug"], "pricing-model-refresh");
    let dir = store.root().join("pricing-model-refresh");
    assert!(dir.join("dossier.md").is_file() && dir.join("artifacts").is_dir() && dir.join("audit.log").is_file());
    let text = std::fs::read_to_string(dir.join("dossier.md")).unwrap();
    assert!(text.starts_with("---\nid: dos_"), "{text}");
    for section in
        ["# Pricing model refresh", "## Situation", "## Decisions", "## Findings", "## Current State", "## Next Steps"]
    {
        assert!(text.contains(section), "missing {section}");
    }
    let events: Vec<String> = audit(&dir).iter().map(|e| e["event"].as_str().unwrap().to_string()).collect();
    assert_eq!(events, ["create", "promote"]);
    assert!(
        v["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().starts_with("transcript_unavailable"))
    );

    let out = store.cmd().args(["promote", "--name", "Pricing model refresh", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(4), "a likely duplicate needs explicit create intent");
    assert_eq!(json_of(&out)["error"]["code"], "ambiguous_target");
    let out = store.cmd().args(["promote", "--name", "Pricing model refresh", "--create", "--json"]).output().unwrap();
    assert!(out.status.success());
    let second = json_of(&out);
    let slug = second["data"]["slug"].as_str().unwrap();
    let id = second["data"]["id"].as_str().unwrap();
    assert_eq!(slug, format!("pricing-model-refresh-{}", &id[id.len() - 6..]));
    assert_eq!(promote(&store, "Context")["data"]["slug"], "context-dossier", "reserved names are never slugs");
}

#[test]
fn field_commands_go_through_save_and_are_audited() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Alpha");
    let t = "alpha";
    store.cmd().args(["next", t, "Call Sales"]).assert().success();
    store.cmd().args(["lead", t, "Alice"]).assert().success();
    store.cmd().args(["questions", t, "add", "Tier?", "Usage?"]).assert().success();
    store.cmd().args(["questions", t, "add", "Region?"]).assert().success();
    store.cmd().args(["priority", t, "--importance", "l", "--urgency", "h", "--due", "2026-12-24"]).assert().success();
    store.cmd().args(["status", t, "blocked"]).assert().success();
    let d = show(&store, t);
    let fm = &d["frontmatter"];
    assert_eq!(fm["next_action"], "Call Sales");
    assert_eq!(fm["lead"], "Alice");
    assert_eq!(fm["open_questions"], serde_json::json!(["Tier?", "Usage?", "Region?"]));
    assert_eq!(
        (fm["importance"].as_str(), fm["urgency"].as_str(), fm["due_date"].as_str()),
        (Some("low"), Some("high"), Some("2026-12-24"))
    );
    assert_eq!(fm["status"], "blocked");
    store.cmd().args(["questions", t, "set", "Only this?"]).assert().success();
    assert_eq!(show(&store, t)["frontmatter"]["open_questions"], serde_json::json!(["Only this?"]));
    store.cmd().args(["questions", t, "clear"]).assert().success();
    assert_eq!(show(&store, t)["frontmatter"]["open_questions"], serde_json::json!([]));

    let dir = store.root().join(t);
    let events = audit(&dir);
    let kinds: Vec<&str> = events.iter().map(|e| e["event"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["create", "promote", "save", "save", "save", "save", "save", "status_changed", "save", "save"]);
    let sc = &events[7];
    assert_eq!((sc["from"].as_str(), sc["to"].as_str()), (Some("active"), Some("blocked")));
    // The revision chain is unbroken: each event's before is the previous after.
    for w in events[2..].windows(2) {
        assert_eq!(w[1]["before_revision"], w[0]["after_revision"]);
    }
    assert_eq!(events.last().unwrap()["after_revision"], show(&store, t)["revision"]);
}

#[test]
fn archive_hides_from_default_ls_and_deletes_nothing() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Old thing");
    promote(&store, "New thing");
    let before: Vec<String> =
        snapshot(store.root()).into_iter().map(|(p, _)| p).filter(|p| p.contains("old-thing")).collect();
    let out = store.cmd().args(["archive", "old-thing", "--json"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(json_of(&out)["data"]["event"], "archived");
    assert_eq!(store.ls_slugs(&[]), ["new-thing"]);
    assert!(store.ls_slugs(&["--status", "archived"]).contains(&"old-thing".to_string()));
    let after: Vec<String> = snapshot(store.root()).into_iter().map(|(p, _)| p).collect();
    for p in before {
        assert!(after.contains(&p), "{p} was removed");
    }
    let lib = std::fs::read_to_string(store.root().join("context/library.md")).unwrap();
    assert!(
        !lib.contains("**Old thing**") && lib.contains("**New thing**"),
        "library refreshed after the mutation: {lib}"
    );
}

#[test]
fn rename_changes_the_display_name_only() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "First name");
    let s = dossier_store::layout::Store::at(store.root().to_path_buf());
    let req = dossier_store::save::SaveRequest {
        updates: dossier_store::save::FrontmatterUpdates { name: Some("Second name".into()), ..Default::default() },
        actor: "test".into(),
        ..Default::default()
    };
    let app = dossier::app::with(s, dossier_store::config::Config::default());
    let out = dossier_store::save::save(&app, "first-name", req, &dossier_store::progress::SILENT).unwrap();
    assert_eq!(out.slug, "first-name");
    assert_eq!(out.path, store.root().join("first-name"));
    let d = show(&store, "first-name");
    assert_eq!(
        (d["frontmatter"]["name"].as_str(), d["frontmatter"]["slug"].as_str()),
        (Some("Second name"), Some("first-name"))
    );
}

#[test]
fn show_lists_artifacts_and_path_resolves_ids() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let src = store.dir.path().join("notes.md");
    std::fs::write(&src, "# Launch plan\n\nThe launch moved to July.\n").unwrap();
    let out = store.cmd().args(["promote", "--from-file"]).arg(&src).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    assert_eq!(v["data"]["slug"], "launch-plan", "name taken from the file's title");
    let id = v["data"]["id"].as_str().unwrap().to_string();
    let d = show(&store, &id);
    let arts = d["artifacts"].as_array().unwrap();
    assert_eq!(arts.len(), 1);
    assert_eq!(arts[0]["type"], "source_snapshot");
    assert_eq!(arts[0]["content_format"], "markdown");
    let art_path = PathBuf::from(arts[0]["path"].as_str().unwrap());
    let art = std::fs::read_to_string(&art_path).unwrap();
    assert!(art.contains(&format!("dossier_id: {id}")) && art.ends_with("The launch moved to July.\n"), "{art}");
    store
        .cmd()
        .args(["path", &id])
        .assert()
        .success()
        .stdout(format!("{}\n", store.root().join("launch-plan").display()));
}

#[test]
fn json_and_text_artifacts_get_sidecars_and_bad_json_is_rejected() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Data");
    let rev = show(&store, "data")["revision"].as_str().unwrap().to_string();
    let json_file = store.dir.path().join("q.json");
    std::fs::write(&json_file, r#"{"rows": [1, 2, 3]}"#).unwrap();
    let txt = store.dir.path().join("t.txt");
    std::fs::write(&txt, "plain text\n").unwrap();
    let out = store
        .cmd()
        .args(["save", "data", "--artifact"])
        .arg(&json_file)
        .arg("--artifact")
        .arg(&txt)
        .args(["--artifact-type", "query", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let added = json_of(&out)["data"]["artifacts_added"].as_array().unwrap().clone();
    assert_eq!(added.len(), 2);
    let adir = store.root().join("data/artifacts");
    for a in &added {
        assert!(adir.join(format!("{}.meta.yaml", a.as_str().unwrap())).is_file());
    }
    assert_ne!(show(&store, "data")["revision"], rev, "new artifacts change the revision");

    std::fs::write(&json_file, "{not json").unwrap();
    let before = snapshot(store.root());
    let out = store.cmd().args(["save", "data", "--artifact"]).arg(&json_file).arg("--json").output().unwrap();
    assert_eq!(out.status.code(), Some(5));
    assert_eq!(code(&out), "invalid_input");
    assert_eq!(snapshot(store.root()), before, "a rejected input writes nothing");
}

#[test]
fn oversized_artifacts_are_rejected_and_nothing_is_written() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Big");
    let big = store.dir.path().join("big.txt");
    // Sparse: 1 GiB + 1 byte without using the disk.
    std::fs::File::create(&big).unwrap().set_len((1 << 30) + 1).unwrap();
    let before = snapshot(store.root());
    let out = store.cmd().args(["save", "big", "--artifact"]).arg(&big).arg("--json").output().unwrap();
    assert_eq!(out.status.code(), Some(5));
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "artifact_too_large");
    assert_eq!(v["error"]["details"]["size"], (1u64 << 30) + 1);
    assert_eq!(snapshot(store.root()), before);
}

#[test]
fn binary_artifacts_keep_metadata_not_content() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Bin");
    let bin = store.dir.path().join("diagram.png");
    std::fs::write(&bin, [0x89u8, b'P', b'N', b'G', 0, 0, 0, 13, 0xff, 0xfe]).unwrap();
    let out = store.cmd().args(["save", "bin", "--artifact"]).arg(&bin).arg("--json").output().unwrap();
    assert!(out.status.success());
    let v = json_of(&out);
    assert!(
        v["warnings"][0].as_str().unwrap().starts_with("binary_artifact_unsupported: `diagram.png` is binary"),
        "{v}"
    );
    let id = v["data"]["artifacts_added"][0].as_str().unwrap();
    let stored = std::fs::read(store.root().join(format!("bin/artifacts/{id}.md"))).unwrap();
    assert!(!stored.contains(&0u8), "binary bytes were stored");
    let text = String::from_utf8(stored).unwrap();
    assert!(
        text.contains("binary_source: true") && text.contains("- size: 10 bytes") && text.contains("diagram.png"),
        "{text}"
    );
}

#[test]
fn errors_have_codes_and_change_nothing() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Alpha");
    let before = snapshot(store.root());
    let cases: &[(&[&str], i32, &str)] = &[
        (&["show", "nope"], 3, "not_found"),
        (&["next", "nope", "x"], 3, "not_found"),
        (&["status", "../alpha", "active"], 5, "invalid_input"),
        (&["priority", "alpha", "--importance", "h", "--urgency", "l", "--due", "next week"], 5, "invalid_frontmatter"),
        (&["questions", "alpha", "add"], 5, "invalid_input"),
        (&["promote"], 5, "invalid_input"),
        (&["promote", "--name", "   "], 5, "invalid_input"),
    ];
    for (args, exit, expected) in cases {
        let out = store.cmd().args(*args).arg("--json").output().unwrap();
        assert_eq!(out.status.code(), Some(*exit), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
        assert_eq!(code(&out), *expected, "{args:?}");
        assert!(!json_of(&out)["error"]["message"].as_str().unwrap().is_empty());
    }
    assert_eq!(snapshot(store.root()), before);
}

#[test]
fn invalid_frontmatter_is_reported_with_file_and_line() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Broken");
    let file = store.root().join("broken/dossier.md");
    let text = std::fs::read_to_string(&file).unwrap().replace("status: active", "status: paused");
    std::fs::write(&file, text).unwrap();
    let out = store.cmd().args(["show", "broken", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(5));
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "invalid_frontmatter");
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(msg.starts_with(&format!("{}:", file.display())), "{msg}");
    assert!(v["error"]["details"]["line"].as_u64().is_some(), "{v}");
    let out = store.cmd().args(["next", "broken", "x", "--json"]).output().unwrap();
    assert_eq!(code(&out), "invalid_frontmatter", "a save never overwrites a file it cannot parse");
}

/// Issue 18 defect 14: the error named the file's line and, inside the message, the YAML
/// parser's own (one less, and for an unclosed quote the line where parsing gave up).
#[test]
fn spec_4_1_an_invalid_frontmatter_error_gives_one_correct_line() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Broken");
    let file = store.root().join("broken/dossier.md");
    let good = std::fs::read_to_string(&file).unwrap();
    let line4 = good.lines().nth(3).unwrap().to_string();
    let (key, value) = line4.split_once(": ").unwrap();
    for (what, bad) in [("an unclosed quote", format!("{key}: \"{value}")), ("a tab", format!("\t{line4}"))] {
        std::fs::write(&file, good.replacen(&format!("{line4}\n"), &format!("{bad}\n"), 1)).unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap().lines().nth(3), Some(bad.as_str()));
        let before = snapshot(store.root());
        for args in [&["show", "broken"][..], &["recall", "broken"], &["next", "broken", "x"]] {
            let out = store.cmd().args(args).arg("--json").output().unwrap();
            let v = json_of(&out);
            assert_eq!(v["error"]["code"], "invalid_frontmatter", "{what} {args:?}: {v}");
            let msg = v["error"]["message"].as_str().unwrap();
            assert!(msg.starts_with(&format!("{}:4:", file.display())), "{what} {args:?}: line 4 is named: {msg}");
            assert_eq!(msg.matches("line").count(), 0, "{what}: no second line number: {msg}");
            assert_eq!(v["error"]["details"]["line"], 4, "{what}: {v}");
            let human = store.cmd().args(args).output().unwrap();
            let human = String::from_utf8_lossy(&human.stderr).to_string();
            assert!(human.contains(":4:") && !human.contains("line "), "{what}: {human}");
        }
        assert_eq!(snapshot(store.root()), before, "{what}: nothing written");
    }
}

#[test]
fn unknown_frontmatter_keys_survive_cli_edits() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Keep");
    let file = store.root().join("keep/dossier.md");
    let text = std::fs::read_to_string(&file).unwrap().replacen("---\n", "---\nteam: platform\nlabels:\n- a\n- b\n", 1);
    std::fs::write(&file, text).unwrap();
    store.cmd().args(["next", "keep", "Ship it"]).assert().success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("team: platform")
            && text.contains("labels:\n- a\n- b\n")
            && text.contains("next_action: Ship it"),
        "{text}"
    );
}

#[test]
fn symlinks_leading_out_of_the_store_are_refused() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let outside = store.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("dossier.md"), "---\nid: dos_x\n---\n").unwrap();
    std::os::unix::fs::symlink(&outside, store.root().join("evil")).unwrap();
    let out = store.cmd().args(["next", "evil", "x", "--json"]).output().unwrap();
    assert_eq!(code(&out), "invalid_input", "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(std::fs::read_to_string(outside.join("dossier.md")).unwrap(), "---\nid: dos_x\n---\n");
}

/// Every file under `dir`, recursively (relative paths).
fn files_under(dir: &Path) -> Vec<String> {
    snapshot(dir).into_iter().map(|(p, _)| p).collect()
}

/// Issue 18 defect 1, the issue's own steps: `artifacts/` replaced by a link to a directory
/// outside the store, then `save --artifact`: refused with `invalid_input` naming the link
/// and its fix, nothing written outside or inside; `doctor` reports the link.
#[test]
fn spec_3_2_symlinks_never_lead_out_of_the_store() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Safe one");
    let dir = store.root().join("safe-one");
    // The revision before the link (`show` itself refuses a Dossier with one).
    let rev = show(&store, "safe-one")["revision"].as_str().unwrap().to_string();
    let out_dir = store.dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    std::fs::remove_dir_all(dir.join("artifacts")).unwrap();
    std::os::unix::fs::symlink(&out_dir, dir.join("artifacts")).unwrap();
    let a = store.dir.path().join("a.txt");
    std::fs::write(&a, "hi\n").unwrap();
    let before = snapshot(store.root());

    let out = store
        .cmd()
        .args(["save", "safe-one", "--base-revision", &rev, "--artifact"])
        .arg(&a)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "invalid_input");
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("artifacts") && msg.contains("symbolic link") && msg.contains(&out_dir.display().to_string()),
        "{msg}"
    );
    assert!(v["next_actions"].to_string().contains("cp -R"), "{v}");
    assert!(
        files_under(&out_dir).is_empty(),
        "the artifact was written outside the store: {:?}",
        files_under(&out_dir)
    );
    assert_eq!(snapshot(store.root()), before, "nothing written in the store either");

    let out = store.cmd().args(["doctor", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "a link is an error");
    let report = json_of(&out);
    let link = report["data"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "symlink_in_dossier")
        .unwrap_or_else(|| panic!("doctor says nothing about the link: {report}"))
        .clone();
    assert_eq!(link["file"], dir.join("artifacts").display().to_string());
    assert!(link["message"].as_str().unwrap().contains(&out_dir.display().to_string()), "{link}");
    assert!(link["fix"].as_str().unwrap().contains("rm "), "{link}");
}

/// `dossier.md` linked to a Dossier file outside the store: recall and search never return
/// its content; a Dossier directory linked out of the store is named by `ls`, not dropped.
#[test]
fn spec_3_2_reads_never_follow_a_link_out_of_the_store_and_ls_names_it() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Leaky");
    promote(&store, "Away");
    let dir = store.root().join("leaky");
    let outside = store.dir.path().join("outside.md");
    let text = std::fs::read_to_string(dir.join("dossier.md"))
        .unwrap()
        .replace("## Situation", "## Situation\n\nSECRET-OUTSIDE");
    std::fs::write(&outside, text).unwrap();
    std::fs::remove_file(dir.join("dossier.md")).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("dossier.md")).unwrap();

    let out = store.cmd().args(["recall", "leaky", "--json"]).output().unwrap();
    assert_eq!(code(&out), "invalid_input", "{}", String::from_utf8_lossy(&out.stdout));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("SECRET-OUTSIDE"));
    let out = store.cmd().args(["search", "SECRET-OUTSIDE", "--json"]).output().unwrap();
    assert!(out.status.success());
    let v = json_of(&out);
    assert_eq!(v["data"]["total_hits"], 0, "outside content returned: {v}");
    assert!(v["warnings"].to_string().contains("leaky"), "{v}");

    let elsewhere = store.dir.path().join("elsewhere");
    std::fs::rename(store.root().join("away"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, store.root().join("away")).unwrap();
    let out = store.cmd().args(["ls"]).output().unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("warning:") && stderr.contains("away") && stderr.contains("outside the store"), "{stderr}");
    assert!(stderr.contains("leaky"), "{stderr}");
}

#[test]
fn stale_distilled_state_save_creates_a_conflict_and_never_overwrites() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Race");
    let base = show(&store, "race")["revision"].as_str().unwrap().to_string();
    let mine = store.dir.path().join("mine.md");
    std::fs::write(&mine, "# Race\n\n## Situation\n\nMine.\n").unwrap();
    // Another writer replaced the Distilled State since the base (a field change alone would
    // auto-merge: spec_11_5_a_status_change_by_another_writer_auto_merges_with_a_body_save).
    let theirs = store.dir.path().join("theirs.md");
    std::fs::write(&theirs, "# Race\n\n## Situation\n\nSomeone else moved on.\n").unwrap();
    store.cmd().args(["save", "race", "--base-revision", &base, "--from-file"]).arg(&theirs).assert().success();
    let head_before = std::fs::read(store.root().join("race/dossier.md")).unwrap();

    let out = store
        .cmd()
        .args(["save", "race", "--base-revision", &base, "--from-file"])
        .arg(&mine)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "concurrent_edit");
    let path = PathBuf::from(v["error"]["details"]["conflict_path"].as_str().unwrap());
    let conflict = std::fs::read_to_string(&path).unwrap();
    assert!(
        conflict.contains(&format!("base_revision: {base}")) && conflict.ends_with("## Situation\n\nMine.\n"),
        "{conflict}"
    );
    assert_eq!(std::fs::read(store.root().join("race/dossier.md")).unwrap(), head_before, "head untouched");
    let events = audit(&store.root().join("race"));
    let last = events.last().unwrap();
    assert_eq!(last["event"], "conflict_created");
    assert_eq!(last["conflict_id"], v["error"]["details"]["conflict_id"]);
    assert!(
        v["next_actions"][0].as_str().unwrap().contains(v["error"]["details"]["current_revision"].as_str().unwrap())
    );

    // Without a base revision, replacing the state is refused (never last-write-wins).
    let out = store.cmd().args(["save", "race", "--from-file"]).arg(&mine).arg("--json").output().unwrap();
    assert_eq!(code(&out), "invalid_input");
}

#[test]
fn non_overlapping_frontmatter_edits_auto_merge() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Merge me");
    let base = show(&store, "merge-me")["revision"].as_str().unwrap().to_string();
    store.cmd().args(["lead", "merge-me", "Bob"]).assert().success();
    // Stale base, but `next_action` was not touched since: merges.
    let out = store
        .cmd()
        .args(["save", "merge-me", "--base-revision", &base, "--next", "Merged next", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    assert_eq!(v["data"]["auto_merged"], true);
    let fm = show(&store, "merge-me")["frontmatter"].clone();
    assert_eq!((fm["lead"].as_str(), fm["next_action"].as_str()), (Some("Bob"), Some("Merged next")));
    let last = audit(&store.root().join("merge-me")).last().unwrap().clone();
    assert_eq!(last["auto_merged"], true);
    // Overlapping field since base: conflict.
    let out =
        store.cmd().args(["save", "merge-me", "--base-revision", &base, "--next", "Other", "--json"]).output().unwrap();
    assert_eq!(code(&out), "concurrent_edit");
    // Unknown base revision: conflict, never a guess.
    let out = store
        .cmd()
        .args(["save", "merge-me", "--base-revision", "rev_unknown", "--status", "waiting", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), "concurrent_edit");
}

/// 16 processes × 50 saves, mostly from stale bases: no proposal is lost.
#[test]
fn concurrent_saves_lose_no_proposal() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Hot");
    let base = show(&store, "hot")["revision"].as_str().unwrap().to_string();
    let bodies = store.dir.path().join("bodies");
    std::fs::create_dir_all(&bodies).unwrap();
    let results: Vec<(String, Result<String, PathBuf>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..16)
            .map(|p| {
                let (store, base, bodies) = (&store, base.clone(), bodies.clone());
                s.spawn(move || {
                    let mut seen = base.clone();
                    let mut out = Vec::new();
                    for i in 0..50 {
                        let marker = format!("proposal-{p}-{i}");
                        let file = bodies.join(format!("{marker}.md"));
                        std::fs::write(&file, format!("# Hot\n\n## Situation\n\n{marker}\n")).unwrap();
                        // Alternate a stale base with the latest revision this worker has seen.
                        let b = if i % 2 == 0 { base.clone() } else { seen.clone() };
                        let o = store
                            .cmd()
                            .args(["save", "hot", "--base-revision", &b, "--from-file"])
                            .arg(&file)
                            .arg("--json")
                            .output()
                            .unwrap();
                        let v = json_of(&o);
                        if v["ok"] == true {
                            seen = v["data"]["revision"].as_str().unwrap().to_string();
                            out.push((marker, Ok(seen.clone())));
                        } else {
                            assert_eq!(v["error"]["code"], "concurrent_edit", "{v}");
                            seen = v["error"]["details"]["current_revision"].as_str().unwrap().to_string();
                            out.push((
                                marker,
                                Err(PathBuf::from(v["error"]["details"]["conflict_path"].as_str().unwrap())),
                            ));
                        }
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(results.len(), 800);
    let dir = store.root().join("hot");
    let events = audit(&dir);
    let saved_revs: Vec<&str> =
        events.iter().filter(|e| e["event"] == "save").map(|e| e["after_revision"].as_str().unwrap()).collect();
    let mut ok = 0;
    for (marker, r) in &results {
        match r {
            Ok(rev) => {
                ok += 1;
                assert!(saved_revs.contains(&rev.as_str()), "{marker} saved as {rev} but not audited");
            }
            Err(path) => {
                let text = std::fs::read_to_string(path).unwrap();
                assert!(text.contains(marker.as_str()), "{marker} missing from its conflict file");
            }
        }
    }
    assert!(ok >= 1, "some saves from the current revision succeed");
    assert_eq!(saved_revs.len(), ok, "one audit line per successful save");
    let conflicts = std::fs::read_dir(dir.join("conflicts")).unwrap().count();
    assert_eq!(conflicts, 800 - ok);
    assert_eq!(events.iter().filter(|e| e["event"] == "conflict_created").count(), 800 - ok);
    // The head is the last successful proposal, whole.
    let head = std::fs::read_to_string(dir.join("dossier.md")).unwrap();
    let last_ok =
        events.iter().rev().find(|e| e["event"] == "save").unwrap()["after_revision"].as_str().unwrap().to_string();
    let (marker, _) = results.iter().find(|(_, r)| r.as_ref().is_ok_and(|rev| *rev == last_ok)).unwrap();
    assert!(head.contains(marker.as_str()));
    let stray: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tmp"))
        .collect();
    assert!(stray.is_empty(), "stray temp files: {stray:?}");
}

/// A save killed with SIGKILL at random points leaves `dossier.md` whole: old or new.
#[test]
fn sigkill_during_save_never_leaves_a_partial_dossier() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Crash");
    let file = store.root().join("crash/dossier.md");
    let mut x: u64 = 12345;
    let mut known = vec![std::fs::read_to_string(&file).unwrap()];
    let mut killed = 0;
    for trial in 0..200 {
        let rev = show_rev(&store);
        let body_file = store.dir.path().join("body.md");
        // ~300 KB so the write takes long enough to be interrupted.
        let filler = format!("- claim {trial} [src:art_x]\n").repeat(12_000);
        std::fs::write(&body_file, format!("# Crash\n\n## Situation\n\ntrial {trial}\n{filler}")).unwrap();
        let mut child = store
            .cmd_std()
            .args(["save", "crash", "--base-revision", &rev, "--from-file"])
            .arg(&body_file)
            .spawn()
            .unwrap();
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        std::thread::sleep(std::time::Duration::from_micros((x >> 33) % 12_000));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            killed += 1;
        }
        child.wait().unwrap();
        let now = std::fs::read_to_string(&file).unwrap();
        let doc = dossier_store::model::DossierDoc::parse(&now, &file).unwrap_or_else(|e| panic!("trial {trial}: {e}"));
        let is_old = known.contains(&now);
        let is_new = doc.body.contains(&format!("trial {trial}\n")) && doc.body.ends_with(&filler);
        assert!(is_old || is_new, "trial {trial}: dossier.md is neither the old nor the new revision");
        if is_new {
            known.push(now);
        }
    }
    assert!(killed > 20, "the test must actually interrupt saves (killed {killed})");
}

fn show_rev(store: &TempStore) -> String {
    dossier_store::save::revision(&store.root().join("crash")).unwrap()
}

/// A save commits whatever the state says, and returns the Distillation Guide's findings
/// (distill policy through the component) as warnings with lines.
#[test]
fn a_save_returns_distillation_findings_as_warnings_and_still_commits() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let out = store.cmd().args(["promote", "--json", "--create", "--name", "Findings topic"]).output().unwrap();
    let slug = json_of(&out)["data"]["slug"].as_str().unwrap().to_string();
    let shown = json_of(&store.cmd().args(["show", &slug, "--json"]).output().unwrap());
    let rev = shown["data"]["revision"].as_str().unwrap().to_string();
    let state = "# Findings topic\n\n## Situation\n\nContext.\n\n## Decisions\n\n- Annual commits.\n\n## Findings\n\n\
- Cites a ghost. [src:art_01ghost]\n\n## Current State\n\nDrafting. Assumption: on track.\n\n## Next Steps\n\n- Send it.\n";
    let file = store.dir.path().join("state.md");
    std::fs::write(&file, state).unwrap();
    let out = store
        .cmd()
        .args(["save", &slug, "--json", "--base-revision", &rev, "--from-file"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "findings never block a save: {}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    let warnings: Vec<String> =
        v["warnings"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_string()).collect();
    let body_line = |needle: &str| {
        let saved = std::fs::read_to_string(store.root().join(&slug).join("dossier.md")).unwrap();
        saved.lines().position(|l| l.contains(needle)).unwrap() + 1
    };
    let decision = body_line("- Annual commits.");
    let ghost = body_line("Cites a ghost");
    for expected in [
        format!("distill warning decision-without-rationale line {decision}:"),
        format!("distill warning missing-provenance line {decision}:"),
        format!("distill error unknown-artifact line {ghost}:"),
    ] {
        assert!(warnings.iter().any(|w| w.starts_with(&expected)), "{expected} not in {warnings:#?}");
    }
    assert!(std::fs::read_to_string(store.root().join(&slug).join("dossier.md")).unwrap().contains("Annual commits."));
}

fn save_file(store: &TempStore, target: &str, base: &str, file: &Path) -> Output {
    store.cmd().args(["save", target, "--base-revision", base, "--from-file"]).arg(file).arg("--json").output().unwrap()
}

/// SPEC §11.5 (issue 18, defect 10): `R=$(rev safe-one); dossier status safe-one waiting;
/// dossier save safe-one --base-revision $R --from-file state.md` — only a frontmatter field
/// the save does not touch changed since the base, so the body save auto-merges and is
/// audited instead of being `concurrent_edit`.
#[test]
fn spec_11_5_a_status_change_by_another_writer_auto_merges_with_a_body_save() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Safe one");
    let base = show(&store, "safe-one")["revision"].as_str().unwrap().to_string();
    store.cmd().args(["status", "safe-one", "waiting"]).assert().success();
    let state = store.dir.path().join("state.md");
    let body = "# Safe one\n\n## Situation\n\nThe body save after a status change.\n";
    std::fs::write(&state, body).unwrap();
    let out = save_file(&store, "safe-one", &base, &state);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    assert_eq!(v["data"]["auto_merged"], true, "{v}");
    assert!(v["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().starts_with("auto-merged")), "{v}");
    let d = show(&store, "safe-one");
    assert_eq!(d["frontmatter"]["status"], "waiting", "the other writer's status is kept");
    let text = std::fs::read_to_string(store.root().join("safe-one/dossier.md")).unwrap();
    assert!(text.ends_with(body), "{text}");
    let last = audit(&store.root().join("safe-one")).last().unwrap().clone();
    assert_eq!((last["event"].as_str(), last["auto_merged"].as_bool()), (Some("save"), Some(true)), "{last}");
    assert_eq!(last["base_revision"], base.as_str());
    assert!(!store.root().join("safe-one/conflicts").read_dir().unwrap().any(|_| true), "no conflict file");

    // The body changed since that base too: still a conflict, never last-write-wins.
    std::fs::write(&state, "# Safe one\n\n## Situation\n\nA stale body.\n").unwrap();
    let out = save_file(&store, "safe-one", &base, &state);
    assert_eq!((out.status.code(), code(&out).as_str()), (Some(4), "concurrent_edit"));
    assert!(std::fs::read_to_string(store.root().join("safe-one/dossier.md")).unwrap().ends_with(body));
}

/// SPEC §12.1 (issue 18, defect 15): saving the Distilled State a Dossier already has makes no
/// new revision — nothing is written, no audit line, the same revision with "nothing changed" —
/// so every other session's base stays current.
#[test]
fn spec_12_1_a_save_that_changes_nothing_keeps_the_revision_and_writes_nothing() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Safe one");
    let base = show(&store, "safe-one")["revision"].as_str().unwrap().to_string();
    let state = store.dir.path().join("state.md");
    std::fs::write(&state, "# Safe one\n\n## Situation\n\nSaved once.\n").unwrap();
    let out = save_file(&store, "safe-one", &base, &state);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let rev = json_of(&out)["data"]["revision"].as_str().unwrap().to_string();
    let before = snapshot(store.root());
    for args in [vec!["save", "safe-one", "--base-revision", &rev, "--from-file"], vec!["status", "safe-one", "active"]]
    {
        let mut cmd = store.cmd();
        cmd.args(&args);
        if args[0] == "save" {
            cmd.arg(&state);
        }
        let out = cmd.arg("--json").output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
        let v = json_of(&out);
        assert_eq!(v["data"]["revision"], rev.as_str(), "{args:?}: {v}");
        assert!(
            v["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().starts_with("nothing changed")),
            "{args:?}: {v}"
        );
        assert_eq!(snapshot(store.root()), before, "{args:?}: nothing written");
    }
    assert_eq!(show(&store, "safe-one")["revision"], rev.as_str());
}

/// Issue 18 defect 13 (a, c), the CLI half: `--json` errors' `invalid_input` carries `details`
/// naming the field or parameter and what was expected, and next steps are CLI commands (the
/// MCP half is in tests/mcp/client_check.py: the same errors suggest tool calls).
#[test]
fn spec_8_2_cli_errors_carry_details_and_suggest_commands() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    promote(&store, "Pricing model refresh");
    let out = store.cmd().args(["recall", "no-such-dossier", "--json"]).output().unwrap();
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "not_found");
    assert_eq!(v["next_actions"], serde_json::json!(["dossier ls --status all", "dossier search \"no-such-dossier\""]));
    let out = store.cmd().args(["recall", "pricing-model-refresh", "--page", "9", "--json"]).output().unwrap();
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "invalid_input");
    assert_eq!(v["error"]["details"], serde_json::json!({"parameter": "page", "expected": "1 to 1"}));
    assert_eq!(v["next_actions"], serde_json::json!(["dossier recall pricing-model-refresh --page 1"]));
    let out = store.cmd().args(["search", "(", "--regex", "--json"]).output().unwrap();
    let v = json_of(&out);
    assert_eq!(v["error"]["details"]["field"], "query", "{v}");
    assert_eq!(v["next_actions"], serde_json::json!(["drop --regex to search for the literal text"]));
    let out = store.cmd().args(["show", "../etc", "--json"]).output().unwrap();
    let v = json_of(&out);
    assert_eq!(v["error"]["code"], "invalid_input");
    assert_eq!(v["error"]["details"]["field"], "target", "{v}");
}

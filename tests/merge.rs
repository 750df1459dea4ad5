//! Merge and conflict resolution through the real binary (SPEC §7.2, §8.7, §11.5, §14.5,
//! §14.8): converged state, copied archive, archived source, conflict files, resolutions,
//! audit events in order, and idempotent re-runs after a crash at every step.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use support::{TempStore, json_of, snapshot};

/// Create a Dossier with `artifacts` (name, content) and a Distilled State in which
/// `{0}`, `{1}`, ... stand for the captured artifacts' ids. Returns (slug, artifact ids).
pub(crate) fn make(
    store: &TempStore,
    name: &str,
    next: &str,
    state: &str,
    artifacts: &[(&str, &str)],
) -> (String, Vec<String>) {
    let out = store.cmd().args(["promote", "--json", "--create", "--name", name]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let slug = json_of(&out)["data"]["slug"].as_str().unwrap().to_string();
    let mut cmd = store.cmd();
    cmd.args(["save", &slug, "--json", "--next", next]);
    for (file, content) in artifacts {
        let p = store.dir.path().join(format!("{slug}-{file}"));
        std::fs::write(&p, content).unwrap();
        cmd.arg("--artifact").arg(p);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    let ids: Vec<String> =
        v["data"]["artifacts_added"].as_array().unwrap().iter().map(|i| i.as_str().unwrap().to_string()).collect();
    let mut body = state.to_string();
    for (i, id) in ids.iter().enumerate() {
        body = body.replace(&format!("{{{i}}}"), id);
    }
    let file = store.dir.path().join(format!("{slug}-state.md"));
    std::fs::write(&file, body).unwrap();
    let rev = v["data"]["revision"].as_str().unwrap().to_string();
    let out = store
        .cmd()
        .args(["save", &slug, "--json", "--base-revision", &rev, "--from-file"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    (slug, ids)
}

const LOG: &str = "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\n";

pub(crate) fn target_state(decision: &str) -> String {
    format!(
        "# Event ingestion\n\n## Situation\n\nPartner webhooks go into one event store.\n\n## Decisions\n\n\
- {decision} Decided by Alice. [src:{{0}}#L1-L3]\n\n## Findings\n\n\
- Peak load is 1,200 events per second during invoicing runs. [src:{{0}}#L4-L5]\n\n\
## Current State\n\nSchema draft reviewed. [src:{{0}}#L6-L6]\n\n## Next Steps\n\n- Benchmark write throughput.\n"
    )
}

fn source_state(decision: &str) -> String {
    format!(
        "# Webhook pipeline\n\n## Situation\n\nWebhooks are stored for replay.\n\n## Decisions\n\n\
- {decision} Decided by Alice. [src:{{0}}#L2-L4]\n\n## Findings\n\n\
- Replays must finish within 10 minutes for a day of events. [src:{{0}}#L7-L8]\n\n\
## Current State\n\nReplay tool prototyped. [src:{{0}}#L9-L10]\n\n## Next Steps\n\n- Benchmark write throughput.\n"
    )
}

const PG: &str = "Use Postgres for the event store because billing needs transactional joins.";
const SQLITE: &str = "Use SQLite for the event store since a single writer is enough.";

/// A pair that merges cleanly (same decision restated, distinct findings) or, with
/// `contradict`, with a contradictory decision.
pub(crate) fn pair(store: &TempStore, contradict: bool) -> (String, String, Vec<String>, Vec<String>) {
    let (target, tids) =
        make(store, "Event ingestion", "Benchmark write throughput", &target_state(PG), &[("evt.txt", LOG)]);
    let decision = if contradict { SQLITE } else { PG };
    let (source, sids) =
        make(store, "Webhook pipeline", "Benchmark write throughput", &source_state(decision), &[("hook.txt", LOG)]);
    (source, target, sids, tids)
}

fn merge(store: &TempStore, args: &[&str]) -> (Option<i32>, Value) {
    let out = store.cmd().arg("merge").args(args).arg("--json").output().unwrap();
    (out.status.code(), json_of(&out))
}

fn events(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("audit.log"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["event"].as_str().unwrap().to_string())
        .collect()
}

fn frontmatter(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("dossier.md")).unwrap();
    let yaml = text.strip_prefix("---\n").unwrap().split("\n---\n").next().unwrap();
    serde_json::to_value(serde_saphyr::from_str::<BTreeMap<String, Value>>(yaml).unwrap()).unwrap()
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    v.sort();
    v
}

#[test]
fn a_clean_merge_converges_copies_the_archive_and_archives_the_source_without_deleting_it() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target, sids, tids) = pair(&store, false);
    let (sdir, tdir) = (store.root().join(&source), store.root().join(&target));
    let source_files: Vec<(PathBuf, Vec<u8>)> = files_under(&sdir.join("artifacts"))
        .into_iter()
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    let source_body_before = std::fs::read_to_string(sdir.join("dossier.md")).unwrap();

    // Issue 19, sixth round: related claims are never silent; this pair's are all probably
    // compatible (the Situation framing), kept both by the flag.
    let (code, v) = merge(&store, &[&source, &target, "--keep-both-possible"]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["data"]["target_slug"], target);
    assert_eq!(v["data"]["artifacts_copied"].as_array().unwrap().len(), sids.len());

    // The converged state has both Dossiers' claims, each with its provenance, once.
    let state = std::fs::read_to_string(tdir.join("dossier.md")).unwrap();
    assert_eq!(state.matches("Use Postgres for the event store").count(), 1, "{state}");
    assert!(
        state.contains(&format!("Replays must finish within 10 minutes for a day of events. [src:{}#L7-L8]", sids[0]))
    );
    assert!(state.contains(&format!("[src:{}#L4-L5]", tids[0])));
    // Every source artifact is in the target's archive, byte for byte; the source keeps its own.
    for (p, bytes) in &source_files {
        assert_eq!(&std::fs::read(tdir.join("artifacts").join(p.file_name().unwrap())).unwrap(), bytes);
        assert_eq!(&std::fs::read(p).unwrap(), bytes, "source artifact changed");
    }
    // Every citation in the converged state resolves.
    let doctor = json_of(&store.cmd().args(["doctor", "--json"]).output().unwrap());
    let bad: Vec<&Value> = doctor["data"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["check"].as_str().unwrap().starts_with("dossier") && c["severity"] != "ok")
        .collect();
    assert!(bad.is_empty(), "{bad:?}");

    let sfm = frontmatter(&sdir);
    assert_eq!(sfm["status"], "archived");
    assert_eq!(sfm["merged_into"], frontmatter(&tdir)["id"]);
    assert!(frontmatter(&tdir)["merged_from"].as_array().unwrap().contains(&sfm["id"]));
    let source_body_after = std::fs::read_to_string(sdir.join("dossier.md")).unwrap();
    assert_eq!(
        source_body_after.split("\n---\n").nth(1),
        source_body_before.split("\n---\n").nth(1),
        "the source's Distilled State is kept as it was"
    );

    // merge_started, one conflict_resolved per probably-compatible pair kept both, merge_completed.
    for log in [events(&tdir), events(&sdir)] {
        let start = log.iter().rposition(|e| e == "merge_started").unwrap_or_else(|| panic!("{log:?}"));
        let tail = &log[start + 1..];
        assert_eq!(tail.last().map(String::as_str), Some("merge_completed"), "{log:?}");
        assert!(tail[..tail.len() - 1].iter().all(|e| e == "conflict_resolved"), "{log:?}");
    }
    // The default view no longer lists the source.
    assert!(!store.ls_slugs(&[]).contains(&source));

    // A second run is a no-op.
    let before = snapshot(store.root());
    let (code, v) = merge(&store, &[&source, &target]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["data"]["already_merged"], true);
    let after = snapshot(store.root());
    let changed: Vec<&String> =
        after.iter().filter(|f| !before.contains(f)).map(|(p, _)| p).filter(|p| !p.contains("context/")).collect();
    assert!(changed.is_empty(), "{changed:?}");
}

#[test]
fn a_contradictory_decision_is_detected_preserved_and_resolved_with_audit_events_in_order() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target, _, _) = pair(&store, true);
    let (sdir, tdir) = (store.root().join(&source), store.root().join(&target));
    let states = |d: &Path| std::fs::read(d.join("dossier.md")).unwrap();
    let (s0, t0) = (states(&sdir), states(&tdir));

    let (code, v) = merge(&store, &[&source, &target]);
    assert_eq!(code, Some(4), "{v}");
    assert_eq!(v["error"]["code"], "conflict_detected");
    let conflicts = v["error"]["details"]["conflicts"].as_array().unwrap().clone();
    let decision = conflicts
        .iter()
        .find(|c| c["kind"] == "contradictory_decision")
        .unwrap_or_else(|| panic!("no contradictory decision in {conflicts:?}"));
    assert!(decision["target"]["text"].as_str().unwrap().contains("Postgres"), "{decision}");
    assert!(decision["source"]["text"].as_str().unwrap().contains("SQLite"), "{decision}");
    assert!(decision["target"]["line"].as_u64().unwrap() > 0);
    assert!(!decision["source"]["provenance"].as_array().unwrap().is_empty());
    let id = decision["id"].as_str().unwrap().to_string();
    let path = tdir.join("conflicts").join(format!("{id}.md"));
    assert!(path.is_file(), "conflict preserved in the target's conflicts/");
    assert_eq!((states(&sdir), states(&tdir)), (s0.clone(), t0.clone()), "nothing else changed");
    assert_eq!(events(&tdir).iter().filter(|e| *e == "conflict_created").count(), conflicts.len());

    // Asking again gives the same ids and creates no second file.
    let (_, again) = merge(&store, &[&source, &target]);
    let ids = |v: &Value| {
        v["error"]["details"]["conflicts"].as_array().unwrap().iter().map(|c| c["id"].clone()).collect::<Vec<_>>()
    };
    assert_eq!(ids(&again), ids(&v));
    assert_eq!(events(&tdir).iter().filter(|e| *e == "conflict_created").count(), conflicts.len());

    // An unknown id is refused and writes nothing.
    let before = snapshot(store.root());
    let (code, bad) = merge(&store, &[&source, &target, "--resolve", "conf-nope=keep-source"]);
    assert_ne!(code, Some(0), "{bad}");
    assert_eq!(snapshot(store.root()), before);

    let mut args = vec![source.clone(), target.clone()];
    for c in &conflicts {
        let choice = if c["id"] == id.as_str() { "keep-source" } else { "keep-target" };
        args.extend(["--resolve".to_string(), format!("{}={choice}", c["id"].as_str().unwrap())]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, done) = merge(&store, &args);
    assert_eq!(code, Some(0), "{done}");
    let state = std::fs::read_to_string(tdir.join("dossier.md")).unwrap();
    assert!(state.contains("Use SQLite for the event store"), "{state}");
    assert!(!state.contains("Use Postgres for the event store"), "{state}");
    let conflict_file = std::fs::read_to_string(&path).unwrap();
    assert!(conflict_file.contains("resolved: true") && conflict_file.contains("keep_source"), "{conflict_file}");

    let order = |evs: &[String], names: &[&str]| {
        let pos: Vec<usize> = names.iter().map(|n| evs.iter().position(|e| e == n).unwrap()).collect();
        assert!(pos.windows(2).all(|w| w[0] < w[1]), "{evs:?} not in order {names:?}");
    };
    let t = events(&tdir);
    order(&t, &["merge_conflict", "conflict_created", "merge_started", "conflict_resolved", "merge_completed"]);
    let s = events(&sdir);
    order(&s, &["merge_conflict", "conflict_created", "merge_started", "conflict_resolved", "merge_completed"]);
    assert_eq!(frontmatter(&sdir)["status"], "archived");
}

#[test]
fn keep_both_and_custom_resolutions_are_applied() {
    for (choice, expect) in [
        ("keep-both", vec!["Postgres", "SQLite"]),
        (
            "custom:Use Postgres 16 for the event store; SQLite only for local replay. [src:art_none]",
            vec!["Postgres 16"],
        ),
    ] {
        let store = TempStore::new(crate::DOSSIER);
        store.init();
        let (source, target, _, _) = pair(&store, true);
        let (_, v) = merge(&store, &[&source, &target]);
        let mut args = vec![source.clone(), target.clone()];
        for c in v["error"]["details"]["conflicts"].as_array().unwrap() {
            let id = c["id"].as_str().unwrap();
            let ch = if c["kind"] == "contradictory_decision" { choice.to_string() } else { "keep-target".to_string() };
            args.extend(["--resolve".to_string(), format!("{id}={ch}")]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, done) = merge(&store, &args);
        assert_eq!(code, Some(0), "{choice}: {done}");
        let state = std::fs::read_to_string(store.root().join(&target).join("dossier.md")).unwrap();
        for e in expect {
            assert!(state.contains(e), "{choice}: {state}");
        }
    }
}

/// A crash (process exit) after each step, then a plain re-run: the same end state as an
/// uninterrupted merge, the target never half-written, the source's files all kept.
#[test]
fn a_merge_interrupted_at_any_step_converges_when_re_run() {
    let reference = {
        let store = TempStore::new(crate::DOSSIER);
        store.init();
        let (source, target, _, _) = pair(&store, false);
        assert_eq!(merge(&store, &[&source, &target, "--keep-both-possible"]).0, Some(0));
        let body = |d: &str| {
            let t = std::fs::read_to_string(store.root().join(d).join("dossier.md")).unwrap();
            t.split("\n---\n").nth(1).unwrap().to_string()
        };
        (ids_masked(&body(&target)), files_under(&store.root().join(&target).join("artifacts")).len())
    };
    for step in ["merge_after_started", "merge_after_artifacts", "merge_after_target", "merge_after_source"] {
        let store = TempStore::new(crate::DOSSIER);
        store.init();
        let (source, target, _, _) = pair(&store, false);
        let out = store
            .cmd()
            .args(["merge", &source, &target, "--keep-both-possible"])
            .env("DOSSIER_FAILPOINT", step)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(86), "{step}: the failpoint did not fire");
        // Whatever happened, the target parses (atomic writes).
        assert!(store.cmd().args(["show", &target, "--json"]).output().unwrap().status.success(), "{step}");
        let (code, v) = merge(&store, &[&source, &target, "--keep-both-possible"]);
        assert_eq!(code, Some(0), "{step}: {v}");
        let t = std::fs::read_to_string(store.root().join(&target).join("dossier.md")).unwrap();
        assert_eq!(ids_masked(t.split("\n---\n").nth(1).unwrap()), reference.0, "{step}");
        assert_eq!(files_under(&store.root().join(&target).join("artifacts")).len(), reference.1, "{step}");
        let sdir = store.root().join(&source);
        assert_eq!(frontmatter(&sdir)["status"], "archived", "{step}");
        assert!(sdir.join("dossier.md").is_file() && !files_under(&sdir.join("artifacts")).is_empty());
        let t = events(&store.root().join(&target));
        assert_eq!(t.iter().filter(|e| *e == "merge_completed").count(), 1, "{step}: {t:?}");
        let s = events(&sdir);
        assert_eq!(s.iter().filter(|e| *e == "merge_completed").count(), 1, "{step}: {s:?}");
    }
}

/// Artifact ids differ between stores: number them by first appearance.
fn ids_masked(text: &str) -> String {
    let mut seen: Vec<String> = Vec::new();
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("art_") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find(|c: char| !c.is_ascii_alphanumeric() && c != '_').map_or(rest.len(), |e| i + e);
        let id = rest[i..end].to_string();
        let n = seen.iter().position(|s| *s == id).unwrap_or_else(|| {
            seen.push(id.clone());
            seen.len() - 1
        });
        out.push_str(&format!("<art{n}>"));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn merge_refuses_the_same_dossier_and_unknown_ones_without_writing() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, _, _, _) = pair(&store, false);
    let before = snapshot(store.root());
    let (code, v) = merge(&store, &[&source, &source]);
    assert_eq!(code, Some(5), "{v}");
    let (code, v) = merge(&store, &[&source, "nope"]);
    assert_eq!(code, Some(3), "{v}");
    assert_eq!(snapshot(store.root()), before);
}

#[test]
fn concurrent_edit_conflicts_are_listed_shown_and_resolved_through_the_save_path() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (slug, _) = make(&store, "Shared topic", "Go", &target_state(PG), &[("evt.txt", LOG)]);
    let show = json_of(&store.cmd().args(["show", &slug, "--json"]).output().unwrap());
    let base = show["data"]["revision"].as_str().unwrap().to_string();
    // Someone else saves first; our save on the old base becomes a conflict file.
    let theirs = store.dir.path().join("theirs.md");
    std::fs::write(&theirs, target_state(PG).replace("{0}", "art_x").replace("Schema draft reviewed", "Schema merged"))
        .unwrap();
    let ours = store.dir.path().join("ours.md");
    std::fs::write(&ours, target_state(PG).replace("{0}", "art_x").replace("Schema draft reviewed", "Schema rejected"))
        .unwrap();
    assert!(
        store
            .cmd()
            .args(["save", &slug, "--base-revision", &base, "--from-file"])
            .arg(&theirs)
            .output()
            .unwrap()
            .status
            .success()
    );
    let out = store
        .cmd()
        .args(["save", &slug, "--json", "--base-revision", &base, "--from-file"])
        .arg(&ours)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let conf = json_of(&out)["error"]["details"]["conflict_id"].as_str().unwrap().to_string();

    let list = json_of(&store.cmd().args(["conflicts", "list", "--json"]).output().unwrap());
    let items = list["data"]["conflicts"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{list}");
    assert_eq!(items[0]["id"], conf.as_str());
    assert_eq!(items[0]["kind"], "concurrent_edit");
    let shown = json_of(&store.cmd().args(["conflicts", "show", &conf, "--json"]).output().unwrap());
    assert!(shown["data"]["content"].as_str().unwrap().contains("Schema rejected"));

    let out = store.cmd().args(["conflicts", "resolve", &conf, "--keep", "proposal", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let state = std::fs::read_to_string(store.root().join(&slug).join("dossier.md")).unwrap();
    assert!(state.contains("Schema rejected"), "{state}");
    let evs = events(&store.root().join(&slug));
    assert_eq!(evs.last().unwrap(), "conflict_resolved", "{evs:?}");
    assert!(
        json_of(&store.cmd().args(["conflicts", "list", "--json"]).output().unwrap())["data"]["conflicts"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let again = store.cmd().args(["conflicts", "resolve", &conf, "--keep", "current", "--json"]).output().unwrap();
    assert_eq!(again.status.code(), Some(5));
    // The file is kept, marked resolved.
    let file = std::fs::read_to_string(store.root().join(&slug).join("conflicts").join(format!("{conf}.md"))).unwrap();
    assert!(file.contains("resolved: true") && file.contains("keep_proposal"), "{file}");
}

/// The terminal walk (`dossier merge` on a TTY), driven under tmux: each conflict is shown
/// with both sides, the answers typed at the prompts become the resolutions.
#[test]
fn merge_on_a_terminal_asks_about_each_conflict_and_applies_the_answers() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target, _, _) = pair(&store, true);
    let socket = format!("dossier-merge-{}", std::process::id());
    let tmux = |args: &[&str]| {
        std::process::Command::new("tmux").args(["-L", &socket]).args(args).output().expect("tmux runs")
    };
    struct Kill<'a>(&'a dyn Fn(&[&str]) -> std::process::Output);
    impl Drop for Kill<'_> {
        fn drop(&mut self) {
            (self.0)(&["kill-server"]);
        }
    }
    let _kill = Kill(&tmux);
    let done = store.dir.path().join("done");
    let cmd = format!(
        "DOSSIER_HOME={} {} merge {source} {target}; echo $? > {}; sleep 60",
        store.root().display(),
        crate::DOSSIER,
        done.display()
    );
    assert!(tmux(&["new-session", "-d", "-s", "m", "-x", "160", "-y", "50", &cmd]).status.success());
    let screen = || String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-t", "m"]).stdout).into_owned();
    let wait = |text: &str| {
        let start = std::time::Instant::now();
        loop {
            let s = screen();
            if s.matches(text).count() > 0 {
                return s;
            }
            assert!(start.elapsed().as_secs() < 60, "never saw {text:?}:\n{s}");
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    };
    let mut answered = 0;
    // One prompt per conflict; the contradictory decision gets "s" (keep the source's),
    // anything else "t".
    loop {
        let s = wait("Keep [t]arget");
        let prompts = s.matches("Keep [t]arget").count();
        if prompts <= answered {
            if done.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
            continue;
        }
        let last = s.rfind("Conflict ").map(|i| &s[i..]).unwrap_or_default();
        let key = if last.contains("contradictory_decision") { "s" } else { "t" };
        tmux(&["send-keys", "-t", "m", key, "Enter"]);
        answered += 1;
        if last.contains(&format!("Conflict {answered}/{answered}")) {
            break;
        }
    }
    let start = std::time::Instant::now();
    let mut checklist_answered = false;
    while !done.exists() {
        // Possible conflicts come after the certain ones as one checklist: Enter keeps both.
        if !checklist_answered && screen().contains("Enter to continue:") {
            tmux(&["send-keys", "-t", "m", "Enter"]);
            checklist_answered = true;
        }
        assert!(start.elapsed().as_secs() < 60, "merge never finished:\n{}", screen());
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    assert_eq!(std::fs::read_to_string(&done).unwrap().trim(), "0", "{}", screen());
    let state = std::fs::read_to_string(store.root().join(&target).join("dossier.md")).unwrap();
    assert!(state.contains("Use SQLite for the event store") && !state.contains("Use Postgres"), "{state}");
    assert!(screen().contains("merged "), "{}", screen());
}

/// SPEC §8.7, §8.2 (issue 18, defect 6): `--resolve` with a conflict id this merge does not
/// raise is `invalid_input` (exit 5) listing the unknown and the valid ids — not
/// `policy_unavailable` — and writes nothing (no conflict file, no audit line).
#[test]
fn spec_8_7_an_unknown_conflict_id_is_invalid_input_listing_the_valid_ids() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target, _, _) = pair(&store, true);
    let before = snapshot(store.root());
    let (code, v) = merge(&store, &[&source, &target, "--resolve", "conf_nope=keep-source"]);
    assert_eq!((code, v["error"]["code"].as_str()), (Some(5), Some("invalid_input")), "{v}");
    assert_eq!(v["error"]["details"]["unknown"], serde_json::json!(["conf_nope"]), "{v}");
    assert_eq!(snapshot(store.root()), before, "nothing written");
    let out = store.cmd().args(["merge", &source, &target, "--resolve", "conf_nope=keep-source"]).output().unwrap();
    let human = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(5), "{human}");
    assert!(!human.contains("doctor"), "not a broken policy: {human}");

    // The valid ids are the conflicts this merge raises.
    let (_, raised) = merge(&store, &[&source, &target]);
    let ids: Vec<Value> =
        raised["error"]["details"]["conflicts"].as_array().unwrap().iter().map(|c| c["id"].clone()).collect();
    assert!(!ids.is_empty(), "{raised}");
    assert_eq!(v["error"]["details"]["valid"], Value::Array(ids.clone()), "{v}");
    for id in &ids {
        assert!(human.contains(id.as_str().unwrap()), "the ids --resolve needs are printed: {human}");
    }
}

/// SPEC §12.3: conflict ids are `conf_` + 26 lowercase Crockford base32 characters (the ULID
/// shape), content-derived so that a merge asked again names the same ids; the older
/// `conf-<16 hex>` form (the same hash) is still accepted in resolutions.
#[test]
fn spec_12_3_conflict_ids_are_conf_prefixed() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target, _, _) = pair(&store, true);
    let tdir = store.root().join(&target);
    let (code, v) = merge(&store, &[&source, &target]);
    assert_eq!(code, Some(4), "{v}");
    let ids: Vec<String> = v["error"]["details"]["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect();
    assert!(!ids.is_empty(), "{v}");
    const CROCKFORD: &str = "0123456789abcdefghjkmnpqrstvwxyz";
    for id in &ids {
        let rest = id.strip_prefix("conf_").unwrap_or_else(|| panic!("`{id}` is not conf_-prefixed"));
        assert_eq!(rest.len(), 26, "{id}");
        assert!(rest.chars().all(|c| CROCKFORD.contains(c)), "{id}");
        assert!(rest.as_bytes()[0] <= b'7', "{id}: 128 bits, as a ULID");
        assert!(tdir.join("conflicts").join(format!("{id}.md")).is_file(), "{id}");
    }
    let (_, again) = merge(&store, &[&source, &target]);
    assert_eq!(again["error"]["details"]["conflicts"], v["error"]["details"]["conflicts"], "the same ids again");

    // A resolution written with the older `conf-<hex>` form still resolves the same conflict.
    let legacy = |id: &str| {
        let n = id[5..].chars().fold(0u128, |n, c| (n << 5) | CROCKFORD.find(c).unwrap() as u128);
        format!("conf-{:016x}", (n >> 64) as u64)
    };
    let mut args = vec![source.clone(), target.clone()];
    for id in &ids {
        args.extend(["--resolve".to_string(), format!("{}=keep-source", legacy(id))]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, done) = merge(&store, &args);
    assert_eq!(code, Some(0), "{done}");
    assert_eq!(done["data"]["conflicts_resolved"], serde_json::json!(ids), "recorded under the new ids: {done}");
    let state = std::fs::read_to_string(tdir.join("dossier.md")).unwrap();
    assert!(state.contains("Use SQLite for the event store"), "{state}");
}

/// SPEC §8.7 (issue 18 defect 13): the human `dossier merge` error prints each conflict's id,
/// what it is about, and the exact `--resolve` command; not the MCP parameter name.
#[test]
fn spec_8_7_the_human_merge_error_prints_each_conflict_id_and_the_resolve_command() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target, _, _) = pair(&store, true);
    let out = store.cmd().args(["merge", &source, &target]).output().unwrap();
    let human = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(4), "{human}");
    let (_, v) = merge(&store, &[&source, &target]);
    let conflicts = v["error"]["details"]["conflicts"].as_array().unwrap().clone();
    assert!(!conflicts.is_empty());
    for c in &conflicts {
        let id = c["id"].as_str().unwrap();
        let line = human.lines().find(|l| l.contains(id)).unwrap_or_else(|| panic!("{id} is printed: {human}"));
        assert!(line.contains(c["subject"].as_str().unwrap()), "what it is about, with the id: {human}");
    }
    let resolve = format!("dossier merge {source} {target} --resolve {}=", conflicts[0]["id"].as_str().unwrap());
    assert!(human.contains(&resolve), "the exact command: {human}");
    assert!(human.contains("keep-target") && human.contains("keep-source") && human.contains("custom:"), "{human}");
    assert!(!human.contains("resolved_conflicts"), "the CLI's words, not MCP's: {human}");

    // The command as printed works: pick each conflict's first listed choice.
    let cmd = human.lines().find(|l| l.contains(&resolve)).unwrap();
    let cmd = &cmd[cmd.find("dossier merge").unwrap()..];
    let mut args: Vec<String> = Vec::new();
    for word in cmd.split_whitespace().skip(2) {
        args.push(match word.split_once('=') {
            Some((id, _)) => format!("{id}=keep-source"),
            None => word.to_string(),
        });
    }
    let out = store.cmd().arg("merge").args(&args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Issue 19: a pair with both tiers — one certain conflict (the event store: Postgres against
/// SQLite) and two possible ones (related Findings): "180 tenants are still on the cron jobs" /
/// "Cron jobs disabled for migrated tenants" (a contradiction in fact) and the annual renewals
/// next to a churn figure (compatible).
pub(crate) fn tiered_pair(store: &TempStore) -> (String, String) {
    let findings =
        |a: &str, b: &str| format!("- Peak load is 1,200 events per second. [src:{{0}}#L4-L5]\n- {a}\n- {b}\n");
    // Since issue 19's seventh round the Situation framing is kept both without a listing: the
    // pair the rules think compatible and still list is two other measures of one kitchen.
    let t = target_state(PG).replace(
        "- Peak load is 1,200 events per second during invoicing runs. [src:{0}#L4-L5]\n",
        &(findings("180 tenants are still on the cron jobs.", "Enterprise renewals move to annual.")
            + "- Average ticket time at the Briggate kitchen is 14 minutes.\n"),
    );
    let s = source_state(SQLITE).replace(
        "- Replays must finish within 10 minutes for a day of events. [src:{0}#L7-L8]\n",
        &(findings(
            "Cron jobs disabled for migrated tenants.",
            "Monthly enterprise deals churn at 3x the annual rate.",
        ) + "- Food waste at the Briggate kitchen is 6 % of purchases.\n"),
    );
    let (target, _) = make(store, "Event ingestion", "Benchmark write throughput", &t, &[("evt.txt", LOG)]);
    let (source, _) = make(store, "Webhook pipeline", "Benchmark write throughput", &s, &[("hook.txt", LOG)]);
    (source, target)
}

/// The tiered pair's conflicts from `--json`: (certain ids, possible ids), checking that
/// every conflict says its certainty and the certain ones come first, then the possible ones
/// that may contradict, then those with a `compatible_hint` (issue 19, sixth round).
pub(crate) fn tiers(v: &Value) -> (Vec<String>, Vec<String>) {
    let conflicts = v["error"]["details"]["conflicts"].as_array().unwrap_or_else(|| panic!("{v}"));
    let rank = |c: &Value| match (c["certainty"].as_str().unwrap(), c["compatible_hint"].is_string()) {
        ("certain", false) => 0,
        ("possible", false) => 1,
        ("possible", true) => 2,
        _ => panic!("a certain conflict with a hint: {c}"),
    };
    let ranks: Vec<u8> = conflicts.iter().map(rank).collect();
    let mut sorted = ranks.clone();
    sorted.sort();
    assert_eq!(ranks, sorted, "certain first, then may contradict, then probably compatible: {v}");
    let ids = |tier: &str| {
        conflicts.iter().filter(|c| c["certainty"] == tier).map(|c| c["id"].as_str().unwrap().to_string()).collect()
    };
    (ids("certain"), ids("possible"))
}

/// SPEC §8.7 (issue 19): without a terminal, `conflict_detected` lists both tiers, each
/// conflict with its `certainty`, certain first; `--keep-both-possible` keeps both claims of
/// every possible conflict, while a certain one still needs `--resolve`.
#[test]
fn spec_8_7_conflict_detected_lists_both_tiers_and_keep_both_possible_answers_only_the_possible() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target) = tiered_pair(&store);
    let (code, v) = merge(&store, &[&source, &target]);
    assert_eq!(code, Some(4), "{v}");
    let (certain, possible) = tiers(&v);
    // Two that may contradict, and one the rules think compatible, listed with its hint (sixth
    // round: it was dropped before; the Situation framing is kept both since the seventh).
    assert_eq!((certain.len(), possible.len()), (1, 3), "{v}");
    let hinted: Vec<&Value> = v["error"]["details"]["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["compatible_hint"].is_string())
        .collect();
    assert_eq!(hinted.len(), 1, "{v}");
    assert_eq!(hinted[0]["compatible_hint"], "other measures of one thing");
    assert!(hinted[0]["source"]["text"].as_str().unwrap().contains("Food waste at the Briggate kitchen"), "{v}");
    let tdir = store.root().join(&target);
    let before = std::fs::read_to_string(tdir.join("dossier.md")).unwrap();

    // The flag alone: the certain conflict is still the user's; nothing merged.
    let (code, v) = merge(&store, &[&source, &target, "--keep-both-possible"]);
    assert_eq!(code, Some(4), "{v}");
    assert_eq!(tiers(&v), (certain.clone(), vec![]), "only the certain conflict is left: {v}");
    assert_eq!(std::fs::read_to_string(tdir.join("dossier.md")).unwrap(), before, "nothing merged");

    let resolve = format!("{}=keep-source", certain[0]);
    let (code, v) = merge(&store, &[&source, &target, "--resolve", &resolve, "--keep-both-possible"]);
    assert_eq!(code, Some(0), "{v}");
    let resolved: Vec<&str> =
        v["data"]["conflicts_resolved"].as_array().unwrap().iter().map(|i| i.as_str().unwrap()).collect();
    for id in certain.iter().chain(&possible) {
        assert!(resolved.contains(&id.as_str()), "{id} resolved: {v}");
    }
    let state = std::fs::read_to_string(tdir.join("dossier.md")).unwrap();
    assert!(state.contains("Use SQLite") && !state.contains("Use Postgres"), "{state}");
    for both in [
        "still on the cron jobs",
        "Cron jobs disabled",
        "renewals move to annual",
        "3x the annual rate",
        "Webhooks are stored for replay",
        "Food waste at the Briggate kitchen",
    ] {
        assert!(state.contains(both), "both claims kept ({both}): {state}");
    }
}

/// SPEC §8.7 (issue 19): the human error shows the tiers separately, and the command it
/// prints (`--resolve` for the certain one, `--keep-both-possible` for the rest) works.
#[test]
fn spec_8_7_the_human_merge_error_shows_the_certain_and_possible_tiers_separately() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target) = tiered_pair(&store);
    let (_, v) = merge(&store, &[&source, &target]);
    let (certain, possible) = tiers(&v);
    let out = store.cmd().args(["merge", &source, &target]).output().unwrap();
    let human = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(4), "{human}");
    let at = |text: &str| human.find(text).unwrap_or_else(|| panic!("{text:?} in: {human}"));
    let (c, p, q) = (at("certain (choose"), at("possible, may contradict"), at("possible, probably compatible"));
    assert!(c < at(&certain[0]) && at(&certain[0]) < p, "the certain one under its heading: {human}");
    for id in &possible[..2] {
        assert!(at(id) > p && at(id) < q, "{id} under the may-contradict heading: {human}");
    }
    assert!(at(&possible[2]) > q, "the hinted one under the probably-compatible heading: {human}");
    assert!(at("probably compatible: other measures of one thing") > at(&possible[2]), "its hint: {human}");
    assert!(human.contains("2 more related pair(s) not listed"), "the capped pairs are counted: {human}");
    let cmd = human.lines().find(|l| l.contains("--keep-both-possible") && l.contains("dossier merge")).unwrap();
    assert!(!possible.iter().any(|id| cmd.contains(id.as_str())), "possible ones are covered by the flag: {cmd}");
    let cmd = &cmd[cmd.find("dossier merge").unwrap()..];
    let args: Vec<String> = cmd
        .split_whitespace()
        .skip(2)
        .map(|w| match w.split_once('=') {
            Some((id, _)) => format!("{id}=keep-target"),
            None => w.to_string(),
        })
        .collect();
    let out = store.cmd().arg("merge").args(&args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// SPEC §8.7, §2.5 (issue 19): on a terminal, `dossier merge` walks the certain conflicts one
/// by one, then shows the possible ones as ONE checklist, each kept both unless toggled; a
/// toggled one is then asked about like a certain one. Driven under tmux.
#[test]
fn spec_8_7_a_terminal_merge_walks_certain_conflicts_then_one_checklist_of_possible_ones() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target) = tiered_pair(&store);
    let t = support::terminal::Tmux::new("merge-checklist");
    struct Kill<'a>(&'a support::terminal::Tmux);
    impl Drop for Kill<'_> {
        fn drop(&mut self) {
            let _ = self.0.cmd().arg("kill-server").status();
        }
    }
    let _kill = Kill(&t);
    let done = store.dir.path().join("done");
    let cmd = format!(
        "DOSSIER_HOME={} {} merge {source} {target}; echo $? > {}; sleep 60",
        store.root().display(),
        crate::DOSSIER,
        done.display()
    );
    t.start("m", 160, 60, store.dir.path(), &cmd);
    let s = t.wait_for("m", "Keep [t]arget", 60);
    assert!(s.contains("Conflict 1/1 [contradictory_decision]"), "the certain conflict first, alone: {s}");
    assert!(!s.contains("Possible conflicts"), "the checklist comes after: {s}");
    t.send("m", &["s", "Enter"], false);
    let s = t.wait_for("m", "Toggle by number", 60);
    assert!(s.contains("Possible conflicts (3)"), "{s}");
    assert_eq!(s.matches("[ ] keep both").count(), 3, "keep both preselected: {s}");
    // Two groups: those that may contradict, then those probably compatible, with why.
    let (may, probably) = (s.find(" May contradict:").unwrap(), s.find(" Probably compatible:").unwrap());
    assert!(
        may < s.find("still on the cron jobs").unwrap() && s.find("still on the cron jobs").unwrap() < probably,
        "{s}"
    );
    assert!(s[probably..].contains("— other measures of one thing"), "{s}");
    assert!(s.contains("2 more related pair(s) not listed"), "{s}");
    let usage = s.lines().position(|l| l.contains("still on the cron jobs")).unwrap();
    let n =
        s.lines().take(usage).filter(|l| l.contains("[ ] keep both")).last().unwrap().trim().chars().next().unwrap();
    t.send("m", &[&n.to_string(), "Enter"], false);
    let s = t.wait_for("m", "[x] decide", 60);
    assert_eq!(s.matches("[ ] keep both").count(), 5, "toggled one, the others still kept both: {s}");
    t.send("m", &["Enter"], false);
    let s = t.wait_for("m", "Possible conflict 1/1 [related_claims]", 60);
    assert!(s[s.rfind("Possible conflict 1/1").unwrap()..].contains("still on the cron jobs"), "{s}");
    t.send("m", &["t", "Enter"], false);
    let start = std::time::Instant::now();
    while !done.exists() {
        assert!(start.elapsed().as_secs() < 60, "merge never finished:\n{}", t.screen("m"));
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    assert_eq!(std::fs::read_to_string(&done).unwrap().trim(), "0", "{}", t.screen("m"));
    let state = std::fs::read_to_string(store.root().join(&target).join("dossier.md")).unwrap();
    assert!(state.contains("Use SQLite") && !state.contains("Use Postgres"), "{state}");
    assert!(
        state.contains("still on the cron jobs") && !state.contains("Cron jobs disabled"),
        "the toggled one as answered: {state}"
    );
    assert!(
        state.contains("renewals move to annual") && state.contains("3x the annual rate"),
        "the other kept both: {state}"
    );
}

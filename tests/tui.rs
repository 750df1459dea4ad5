//! `dossier tui` on a real terminal: tmux at 80×24 running a shell, the TUI started from it,
//! keys sent with `send-keys` and the screen read with `capture-pane`. Checks the list order
//! against `dossier ls`, filters, opening a Dossier, binding a session, resolving a
//! concurrent-edit conflict and a merge conflict (files on disk afterwards), and that the
//! terminal is restored (same `stty` settings, alternate screen left, the shell usable) after
//! `q`, Ctrl-C and a panic.

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::{TempStore, Tmux, json_of};

const PROMPT: &str = "tuitest$";

/// A shell in tmux at 80×24 with the store's environment and a fixed prompt.
fn shell(store: &TempStore, name: &str) -> Tmux {
    let command = format!(
        "env -i PATH=/usr/local/bin:/usr/bin:/bin HOME={} DOSSIER_HOME={} TERM=screen-256color PS1='{PROMPT} ' \
         bash --norc --noprofile",
        store.dir.path().join("home").display(),
        store.root().display()
    );
    let t = Tmux::start(name, 80, 24, &command);
    t.wait_for(PROMPT);
    t
}

fn run(t: &Tmux, line: &str) {
    t.type_text(line);
    t.keys(&["Enter"]);
}

fn bin() -> &'static str {
    crate::DOSSIER
}

/// Record the terminal settings, start the TUI, and wait for its first frame.
fn start_tui(t: &Tmux, store: &TempStore, args: &str, env: &str) -> PathBuf {
    let before = store.dir.path().join("stty-before");
    run(t, &format!("stty -g > {}", before.display()));
    run(t, &format!("clear; {env} {} tui {args}; echo tui-exit=$?", bin()));
    before
}

/// After the TUI exited with `code`: the alternate screen is left, the terminal settings are
/// the ones from before, the shell prompt is back, and a command typed there runs.
fn assert_restored(t: &Tmux, store: &TempStore, before: &Path, code: &str) {
    t.wait_for(&format!("tui-exit={code}"));
    assert_eq!(t.pane("#{alternate_on}"), "0", "the alternate screen was left");
    let after = store.dir.path().join("stty-after");
    run(t, &format!("stty -g > {}", after.display()));
    run(t, "echo ok-$((40+2))");
    t.wait_for("ok-42");
    assert_eq!(
        std::fs::read_to_string(before).unwrap(),
        std::fs::read_to_string(&after).unwrap(),
        "the terminal settings (stty -g) are restored"
    );
    assert!(t.screen().contains(PROMPT));
}

fn cli(store: &TempStore, args: &[&str]) -> Value {
    let out = store.cmd().args(args).arg("--json").output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
    json_of(&out)
}

fn promote(store: &TempStore, name: &str, next: &str, imp: &str, urg: &str, status: &str) -> String {
    let v = cli(store, &["promote", "--create", "--name", name]);
    let slug = v["data"]["slug"].as_str().unwrap().to_string();
    cli(store, &["next", &slug, next]);
    cli(store, &["priority", &slug, "--importance", imp, "--urgency", urg]);
    if status != "active" {
        cli(store, &["status", &slug, status]);
    }
    slug
}

/// Save `state` as the Distilled State of `slug` (on its current revision).
fn save_state(store: &TempStore, slug: &str, state: &str) {
    let rev = cli(store, &["show", slug])["data"]["revision"].as_str().unwrap().to_string();
    let file = store.dir.path().join(format!("{slug}-state.md"));
    std::fs::write(&file, state).unwrap();
    cli(store, &["save", slug, "--base-revision", &rev, "--from-file", file.to_str().unwrap()]);
}

/// The slugs among `known` in the order they appear on `screen`'s lines.
fn order_on(screen: &str, known: &[String]) -> Vec<String> {
    screen
        .lines()
        .filter_map(|l| known.iter().find(|k| l.split_whitespace().any(|w| w == k.as_str())).cloned())
        .collect()
}

fn five(store: &TempStore) -> Vec<String> {
    vec![
        promote(store, "Docs cleanup", "Sweep old pages", "low", "low", "active"),
        promote(store, "Pricing refresh", "Compare scenarios with sales", "high", "high", "active"),
        promote(store, "Onboarding emails", "Wait for legal review", "low", "high", "blocked"),
        promote(store, "Event ingestion", "Benchmark writes", "high", "low", "waiting"),
        promote(store, "Old migration", "Nothing left", "high", "high", "resolved"),
    ]
}

#[test]
fn the_list_filters_open_and_bind_work_and_q_restores_the_terminal() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let all = five(&store);
    let long: Vec<String> = (1..=30).map(|i| format!("word{i:02}")).collect();
    let mut state = format!(
        "# Pricing refresh\n\n## Situation\n\nA long line: {} [src:art_x]\n\n## Decisions\n\n## Findings\n\n",
        long.join(" ")
    );
    for i in 1..=40 {
        state.push_str(&format!("- Finding number {i}.\n"));
    }
    state.push_str("\n## Current State\n\nEND-OF-STATE-MARKER\n\n## Next Steps\n");
    save_state(&store, "pricing-refresh", &state);

    let t = shell(&store, "tui-list");
    let before = start_tui(&t, &store, "--session tui-sess", "");
    let screen = t.wait_for("show: 1+active");
    assert_eq!(t.pane("#{alternate_on}"), "1", "the TUI draws on the alternate screen");
    assert!(screen.contains("session tui-sess: nothing bound"), "{screen}");
    for l in screen.lines() {
        assert!(l.chars().count() <= 80, "fits 80 columns: {l:?}");
    }

    // The list is `dossier ls`'s order, with status, staleness, next action and tokens.
    let ls = store.ls_slugs(&[]);
    assert_eq!(order_on(&screen, &all), ls, "{screen}");
    assert_eq!(ls, ["pricing-refresh", "event-ingestion", "onboarding-emails", "docs-cleanup"]);
    let row = screen.lines().find(|l| l.contains("event-ingestion")).unwrap();
    assert!(row.contains("waiting") && row.contains("0d") && row.contains("Benchmark writes"), "{row}");
    assert!(row.split_whitespace().any(|w| w.parse::<u64>().is_ok_and(|n| n > 100)), "a token estimate: {row}");

    // Filters: 3 hides blocked, 4 shows resolved — the same lists `ls --status` gives.
    t.keys(&["3"]);
    let s = t.wait("blocked hidden", |s| !s.contains("onboarding-emails") && s.contains("3-blocked"));
    assert_eq!(order_on(&s, &all), store.ls_slugs(&["--status", "active", "waiting"]));
    t.keys(&["4"]);
    let s = t.wait("resolved shown", |s| s.contains("old-migration"));
    assert_eq!(order_on(&s, &all), store.ls_slugs(&["--status", "active", "waiting", "resolved"]));
    t.keys(&["0"]);
    t.wait("open work again", |s| s.contains("onboarding-emails") && !s.contains("old-migration"));

    // Open the first row: the Distilled State, long lines wrapped, scrollable to the end.
    t.keys(&["Home", "Enter"]);
    let s = t.wait_for("Pricing refresh (pricing-refresh)");
    for w in &long {
        assert!(s.contains(w.as_str()), "{w} is on screen (wrapped, not cut):\n{s}");
    }
    assert!(!s.contains("END-OF-STATE-MARKER"), "the state is longer than the screen");
    t.keys(&["End"]);
    let s = t.wait_for("END-OF-STATE-MARKER");
    assert!(s.contains("Finding number 40."), "{s}");

    // Bind it to the session: the binding file names it, and the CLI agrees.
    t.keys(&["b"]);
    let s = t.wait_for("now works on pricing-refresh");
    assert!(
        s.contains("session tui-sess → Pricing refresh (pricing-refresh)"),
        "the binding is shown by name and slug:\n{s}"
    );
    let id = cli(&store, &["show", "pricing-refresh"])["data"]["frontmatter"]["id"].clone();
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(store.root().join("sessions/tui-sess.json")).unwrap()).unwrap();
    assert_eq!(file["dossier_id"], id);
    assert_eq!(cli(&store, &["active", "--session", "tui-sess"])["data"]["binding"]["dossier_id"], id);

    // The archive tab lists the captured artifacts (none yet here).
    t.keys(&["Tab"]);
    t.wait_for("No artifacts captured yet.");
    t.keys(&["Escape"]);
    t.wait_for("show: 1+active");
    t.keys(&["q"]);
    assert_restored(&t, &store, &before, "0");
}

#[test]
fn ctrl_c_and_a_panic_restore_the_terminal() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    five(&store);
    let t = shell(&store, "tui-ctrlc");
    let before = start_tui(&t, &store, "", "");
    let s = t.wait_for("show: 1+active");
    assert!(s.contains("no session"), "without a session the title says so:\n{s}");
    t.keys(&["C-c"]);
    assert_restored(&t, &store, &before, "0");

    run(&t, "clear");
    let before = start_tui(&t, &store, "", "DOSSIER_FAILPOINT=tui_panic");
    assert_restored(&t, &store, &before, "101");
    assert!(t.screen().contains("tui_panic failpoint"), "the panic message prints on the restored screen");
}

#[test]
fn without_a_terminal_the_tui_refuses_and_points_at_ls() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let out = store.cmd().arg("tui").output().unwrap();
    assert_eq!(out.status.code(), Some(5));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid_input") && err.contains("dossier ls"), "{err}");
    let out = store.cmd().args(["tui", "--json"]).output().unwrap();
    assert_eq!(json_of(&out)["error"]["code"], "invalid_input");
}

fn state_with(title: &str, current: &str) -> String {
    format!(
        "# {title}\n\n## Situation\n\nPartner webhooks go into one event store.\n\n## Decisions\n\n## Findings\n\n\
         ## Current State\n\n{current}\n\n## Next Steps\n\n- Benchmark write throughput.\n"
    )
}

fn audit_events(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("audit.log"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["event"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_concurrent_edit_conflict_is_resolved_with_the_users_own_text() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let slug = promote(&store, "Shared topic", "Go", "high", "high", "active");
    save_state(&store, &slug, &state_with("Shared topic", "Schema draft."));
    let base = cli(&store, &["show", &slug])["data"]["revision"].as_str().unwrap().to_string();
    let theirs = store.dir.path().join("theirs.md");
    std::fs::write(&theirs, state_with("Shared topic", "Schema merged.")).unwrap();
    let ours = store.dir.path().join("ours.md");
    std::fs::write(&ours, state_with("Shared topic", "Schema rejected.")).unwrap();
    cli(&store, &["save", &slug, "--base-revision", &base, "--from-file", theirs.to_str().unwrap()]);
    let out = store
        .cmd()
        .args(["save", &slug, "--json", "--base-revision", &base, "--from-file", ours.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let conf = json_of(&out)["error"]["details"]["conflict_id"].as_str().unwrap().to_string();

    let t = shell(&store, "tui-edit");
    let before = start_tui(&t, &store, "", "");
    let s = t.wait_for("show: 1+active");
    assert!(s.contains("!1 Shared topic"), "the list marks the open conflict as `dossier ls` does:\n{s}");
    t.keys(&["c"]);
    t.wait_for("Open conflicts: 1");
    assert!(t.screen().contains("concurrent_edit") && t.screen().contains(&conf));
    t.keys(&["Enter"]);
    let s = t.wait_for("Proposal");
    assert!(s.contains("Current (rev_") && s.contains("proposed by user:cli"), "both sides with provenance:\n{s}");
    assert!(s.contains("Schema merged.") && s.contains("Schema rejected."), "{s}");
    // Write our own: the editor starts from the proposal; add a line at its end and save.
    t.keys(&["w"]);
    t.wait_for("Ctrl-S save");
    assert!(t.cmd().args(["send-keys", "-t", "t", "-N", "40", "Down"]).status().unwrap().success());
    t.keys(&["End", "Enter"]);
    t.type_text("- Settled in the TUI.");
    t.keys(&["C-s"]);
    let s = t.wait_for(&format!("resolved {conf} (custom)"));
    assert!(s.contains("No open conflicts."), "{s}");

    let state = std::fs::read_to_string(store.root().join(&slug).join("dossier.md")).unwrap();
    assert!(state.contains("Schema rejected.") && state.contains("- Settled in the TUI."), "{state}");
    assert!(!state.contains("Schema merged."), "{state}");
    let file = std::fs::read_to_string(store.root().join(&slug).join("conflicts").join(format!("{conf}.md"))).unwrap();
    assert!(file.contains("resolved: true") && file.contains("custom"), "{file}");
    let events = audit_events(&store.root().join(&slug));
    assert_eq!(events.last().map(String::as_str), Some("conflict_resolved"), "{events:?}");
    t.keys(&["Escape"]);
    let s = t.wait_for("show: 1+active");
    assert!(s.contains("Shared topic") && !s.contains("!1 Shared topic"), "resolved: no mark\n{s}");
    t.keys(&["q"]);
    assert_restored(&t, &store, &before, "0");
}

const LOG: &str = "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\n";

/// A Dossier whose Decisions cite a captured artifact.
fn with_decision(store: &TempStore, name: &str, decision: &str) -> String {
    let slug = promote(store, name, "Benchmark write throughput", "high", "high", "active");
    let log = store.dir.path().join(format!("{slug}.txt"));
    std::fs::write(&log, LOG).unwrap();
    let v = cli(store, &["save", &slug, "--artifact", log.to_str().unwrap()]);
    let art = v["data"]["artifacts_added"][0].as_str().unwrap().to_string();
    save_state(
        store,
        &slug,
        &format!(
            "# {name}\n\n## Situation\n\nWebhooks are stored.\n\n## Decisions\n\n- {decision} Decided by Alice. [src:{art}#L1-L3]\n\n\
             ## Findings\n\n## Current State\n\nDrafted. [src:{art}#L4-L4]\n\n## Next Steps\n\n- Benchmark write throughput.\n"
        ),
    );
    slug
}

#[test]
fn a_merge_conflict_is_walked_from_the_conflicts_view_and_the_merge_applied() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let target =
        with_decision(&store, "Event ingestion", "Use Postgres for the event store because billing needs joins.");
    let source =
        with_decision(&store, "Webhook pipeline", "Use SQLite for the event store since one writer is enough.");
    // The CLI raises the conflicts (kept in the target's conflicts/); the TUI resolves them.
    let out = store.cmd().args(["merge", &source, &target, "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stdout));
    let conflicts = json_of(&out)["error"]["details"]["conflicts"].as_array().unwrap().clone();
    let n = conflicts.len();
    let decision = conflicts.iter().find(|c| c["kind"] == "contradictory_decision").expect("a contradiction");
    let decision_id = decision["id"].as_str().unwrap().to_string();

    let t = shell(&store, "tui-merge");
    let before = start_tui(&t, &store, "", "");
    t.wait_for("show: 1+active");
    t.keys(&["c"]);
    t.wait_for(&format!("Open conflicts: {n}"));
    t.keys(&["Enter"]);
    t.wait_for(&format!("Merge {source} → {target}"));
    for decided in 0..n {
        let s = t.wait_for(&format!("{decided} of {n} decided"));
        assert!(s.contains("[t] Target: event-ingestion") && s.contains("[s] Source: webhook-pipeline"), "{s}");
        if s.contains("contradictory decision —") {
            assert!(s.contains("Postgres") && s.contains("SQLite") && s.contains("provenance: [src:art_"), "{s}");
            t.keys(&["w"]);
            t.wait_for("Ctrl-S use this wording");
            t.keys(&["End"]);
            t.type_text(" Reviewed in the TUI.");
            t.keys(&["C-s"]);
        } else {
            t.keys(&["t"]);
        }
    }
    t.wait_for(&format!("Merge {source} into {target} with {n} decision(s)?"));
    t.keys(&["y"]);
    t.wait_for(&format!("merged {source} into {target}"));
    t.keys(&["q"]);
    assert_restored(&t, &store, &before, "0");

    let state = std::fs::read_to_string(store.root().join(&target).join("dossier.md")).unwrap();
    assert!(state.contains("Reviewed in the TUI.") && !state.contains("SQLite"), "{state}");
    let source_md = std::fs::read_to_string(store.root().join(&source).join("dossier.md")).unwrap();
    assert!(source_md.contains("status: archived") && source_md.contains("merged_into:"), "{source_md}");
    let file = std::fs::read_to_string(store.root().join(&target).join("conflicts").join(format!("{decision_id}.md")))
        .unwrap();
    assert!(file.contains("resolved: true") && file.contains("custom"), "{file}");
    let events = audit_events(&store.root().join(&target));
    assert_eq!(events.last().map(String::as_str), Some("merge_completed"), "{events:?}");
}

/// SPEC §8.7, §2.5 (issue 19): the TUI's merge walks the certain conflicts one by one, then
/// shows the possible ones as ONE checklist with keep both preselected; a toggled one is
/// walked like a certain one, the others are kept both.
#[test]
fn spec_8_7_the_tui_merge_walks_certain_conflicts_then_one_checklist_of_possible_ones() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let (source, target) = crate::merge::tiered_pair(&store);
    let out = store.cmd().args(["merge", &source, &target, "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stdout));

    let t = shell(&store, "tui-checklist");
    let before = start_tui(&t, &store, "", "");
    t.wait_for("show: 1+active");
    t.keys(&["c"]);
    t.wait_for("Open conflicts: 4");
    t.keys(&["Enter"]);
    let s = t.wait_for(&format!("Merge {source} → {target}: conflict 1/1"));
    assert!(s.contains("contradictory decision —") && s.contains("0 of 1 decided"), "the certain one first: {s}");
    t.keys(&["s"]);
    let s = t.wait_for("possible conflicts (3)");
    assert_eq!(s.matches("[ ] keep both").count(), 3, "keep both preselected: {s}");
    // Two groups (issue 19, sixth round): may contradict, then probably compatible with why.
    let (may, probably) = (s.find("May contradict").unwrap(), s.find("Probably compatible").unwrap());
    assert!(may < s.find("cron").unwrap() && s.find("cron").unwrap() < probably, "{s}");
    assert!(s[probably..].contains("— other measures"), "{s}");
    assert!(s.contains("2 more related pair(s) not listed"), "{s}");
    let first = s.lines().find(|l| l.contains("> [ ] keep both")).unwrap().to_string();
    if !first.contains("cron") {
        t.keys(&["Down"]);
    }
    t.keys(&["Space"]);
    let s = t.wait_for("[x] decide");
    assert!(s.lines().any(|l| l.contains("[x] decide") && l.contains("cron")), "{s}");
    assert!(s.contains("1 to decide, the rest keep both"), "{s}");
    t.keys(&["Enter"]);
    let s = t.wait_for("conflict 2/2");
    assert!(s.contains("related claims —") && s.contains("still on the cron jobs"), "{s}");
    t.keys(&["t"]);
    t.wait_for(&format!("Merge {source} into {target} with 4 decision(s)?"));
    t.keys(&["y"]);
    t.wait_for(&format!("merged {source} into {target}"));
    t.keys(&["q"]);
    assert_restored(&t, &store, &before, "0");

    let state = std::fs::read_to_string(store.root().join(&target).join("dossier.md")).unwrap();
    assert!(state.contains("Use SQLite") && !state.contains("Use Postgres"), "{state}");
    assert!(
        state.contains("still on the cron jobs") && !state.contains("Cron jobs disabled"),
        "the toggled one as decided: {state}"
    );
    assert!(
        state.contains("renewals move to annual") && state.contains("3x the annual rate"),
        "the other kept both: {state}"
    );
}

/// Issue 18 defect 14: the TUI's list shows each Dossier's name and slug, grows with the
/// terminal (at 100 columns nothing of either is cut), and on a narrow one cuts them in the
/// middle so two similar Dossiers stay distinguishable; a next action with newlines stays on
/// its row.
#[test]
fn the_list_shows_names_and_keeps_similar_dossiers_distinguishable() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let a = promote(&store, "Pricing model, enterprise", "Call the account team", "high", "low", "active");
    let b = promote(&store, "Pricing model, startups", "one\ntwo", "high", "low", "active");
    let tui = |width: u16| {
        let command = format!(
            "env -i PATH=/usr/local/bin:/usr/bin:/bin HOME={} DOSSIER_HOME={} TERM=screen-256color {} tui",
            store.dir.path().join("home").display(),
            store.root().display(),
            bin()
        );
        let t = Tmux::start(&format!("names{width}"), width, 24, &command);
        let screen = t.wait_for("SLUG");
        t.keys(&["q"]);
        screen
    };
    let wide = tui(100);
    for (slug, name) in [(&a, "Pricing model, enterprise"), (&b, "Pricing model, startups")] {
        let row = wide.lines().find(|l| l.contains(slug.as_str())).unwrap_or_else(|| panic!("{slug}:\n{wide}"));
        assert!(row.contains(name), "{row:?}\n{wide}");
    }
    assert!(wide.contains("one ⏎ two"), "{wide}");
    let narrow = tui(60);
    let rows: Vec<&str> = narrow.lines().filter(|l| l.contains(" active ")).collect();
    assert_eq!(rows.len(), 2, "{narrow}");
    for tail in ["ise", "ups"] {
        assert!(rows.iter().any(|r| r.matches(tail).count() >= 2), "`{tail}` in a name and slug:\n{narrow}");
    }
}

#[test]
fn spec_11_3_tui_search_shows_ranked_results_and_opens_one() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    five(&store);
    save_state(
        &store,
        "event-ingestion",
        "# Event ingestion\n\n## Situation\n\nWe migrated the ingestion writers to batched inserts.\n\n## Decisions\n\n\
         ## Findings\n\n## Current State\n\n## Next Steps\n",
    );
    let t = shell(&store, "tui-search");
    let before = start_tui(&t, &store, "", "");
    t.wait_for("show: 1+active");
    t.keys(&["/"]);
    t.wait_for("Search (ranked");
    // Typed keys are the query (q does not quit while typing).
    t.type_text("ingestion migrations");
    t.keys(&["Enter"]);
    let s = t.wait_for("Dossiers, best first");
    // Best first: both words beat one ("Old migration" has only the second).
    assert!(s.contains("2 of 2 Dossiers"), "{s}");
    let at = |slug: &str| s.lines().position(|l| l.contains(&format!("({slug})"))).expect(slug);
    assert!(at("event-ingestion") < at("old-migration"), "{s}");
    assert!(!s.contains("name:4: old-migration"), "the slug line is not a snippet: {s}");
    assert!(s.contains("We migrated the ingestion writers"), "the snippet is shown: {s}");
    // Enter opens it; Esc returns to the results, Esc again to the list.
    t.keys(&["Enter"]);
    t.wait_for("Event ingestion (event-ingestion)");
    t.keys(&["Escape"]);
    t.wait_for("Dossiers, best first");
    // Esc while editing the query cancels the edit: the previous query and results stay.
    t.keys(&["/"]);
    t.type_text(" zzz");
    t.wait_for("ingestion migrations zzz");
    t.keys(&["Escape"]);
    let s = t.wait("the edit cancelled", |s| !s.contains("zzz"));
    assert!(s.contains("2 of 2 Dossiers, best first"), "the results stay: {s}");
    assert!(s.contains("ingestion migrations") && !s.contains("migrations█"), "the last query, not typing: {s}");
    t.keys(&["Escape"]);
    t.wait_for("show: 1+active");
    t.keys(&["q"]);
    assert_restored(&t, &store, &before, "0");
}

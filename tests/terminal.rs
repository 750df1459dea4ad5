//! What the CLI writes to a real terminal (tmux, raw bytes through `pipe-pane`): progress
//! on stderr for a large search, a merge and a large capture, only when stderr is a
//! terminal and never with `--quiet`; no escape sequence at all with `NO_COLOR`; human
//! tables fitted to the width (`COLUMNS` or the terminal's) while piped output and `--json`
//! stay complete.

use support::terminal::{Tmux, shell_quote};
use support::{DossierSpec, TempStore, json_of};

fn bin() -> String {
    shell_quote(crate::DOSSIER)
}

/// A store of 120 generated Dossiers with 10 artifacts each (about 2,000 files to search).
fn large_store() -> TempStore {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    let spec = dossier_store::generate::Spec { dossiers: 120, artifacts_per_dossier: 10, body_bytes: 2_000, seed: 7 };
    dossier_store::generate::generate(store.root(), &spec).unwrap();
    store
}

/// `script` on a terminal `width` columns wide, with the store's environment (and `extra`);
/// the raw bytes written to the terminal and the script's exit code.
fn on_terminal(store: &TempStore, width: u16, extra: &[(&str, &str)], script: &str) -> (String, i32) {
    let tmux = Tmux::new("term");
    let root = store.root().display().to_string();
    let home = store.dir.path().join("home").display().to_string();
    let mut env = vec![("DOSSIER_HOME", root.as_str()), ("HOME", home.as_str()), ("TERM", "xterm-256color")];
    env.extend_from_slice(extra);
    let raw = tmux.run_raw(store.dir.path(), width, &env, script);
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let code = raw.rsplit_once("__END__").and_then(|(_, c)| c.trim().parse().ok()).expect("the exit code");
    (raw, code)
}

const SEARCH_BAR: &str = "searching [";

#[test]
fn search_progress_is_drawn_on_a_terminal_and_never_when_stderr_is_piped_or_quiet() {
    let store = large_store();
    let search = format!("{} search pricing --limit 5", bin());

    let (raw, code) = on_terminal(&store, 120, &[], &search);
    assert_eq!(code, 0, "{raw}");
    assert!(raw.contains(SEARCH_BAR) && raw.contains(" files"), "the bar was drawn:\n{raw}");
    assert!(raw.contains('\u{1b}'), "a colour terminal gets the styled bar:\n{raw}");

    // stdout on the terminal, stderr to a file: no bar anywhere.
    let (raw, code) = on_terminal(&store, 120, &[], &format!("{search} 2>stderr.txt"));
    assert_eq!(code, 0, "{raw}");
    let stderr = std::fs::read_to_string(store.dir.path().join("stderr.txt")).unwrap();
    assert!(!raw.contains(SEARCH_BAR) && !stderr.contains("searching"), "{raw}\n--- stderr:\n{stderr}");
    assert!(stderr.contains("warning: showing 5 of"), "the warning is still printed: {stderr}");

    // --quiet on a terminal: no bar, and no warning notes.
    let (raw, code) = on_terminal(&store, 120, &[], &format!("{search} --quiet"));
    assert_eq!(code, 0, "{raw}");
    assert!(!raw.contains(SEARCH_BAR) && !raw.contains("warning:"), "{raw}");
    assert!(raw.contains("pricing"), "results are still printed: {raw}");

    // Fully piped.
    let out = store.cmd().args(["search", "pricing", "--limit", "5"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !stderr.contains("searching"), "{stderr}");
}

#[test]
fn init_merge_and_a_large_capture_show_progress_on_a_terminal() {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    // One name, so one next action ("Next step for Queue"): a clean merge (differing next
    // actions are a conflict the terminal would ask about, docs/merge.md).
    store.write_dossier(&DossierSpec { name: "Queue", ..DossierSpec::new("queue-notes", "high", "low") });
    store.write_dossier(&DossierSpec { name: "Queue", ..DossierSpec::new("queue-store", "high", "low") });
    let files = store.dir.path().join("notes");
    std::fs::create_dir_all(&files).unwrap();
    let mut save = vec!["save".to_string(), "queue-notes".to_string()];
    for i in 0..40 {
        let f = files.join(format!("note-{i}.txt"));
        std::fs::write(&f, format!("note {i}\n")).unwrap();
        save.extend(["--artifact".to_string(), f.display().to_string()]);
    }
    store.cmd().args(&save).assert().success();
    // A 24 MB transcript-like file, captured from the CLI.
    let big = store.dir.path().join("session.jsonl");
    let line = format!("{{\"type\":\"user\",\"text\":\"{}\"}}\n", "x".repeat(200));
    std::fs::write(&big, line.repeat(24 * 1024 * 1024 / line.len())).unwrap();

    let script = format!(
        "{b} init --yes --no-self-install && {b} merge queue-notes queue-store && \
         {b} save queue-store --artifact {f} --artifact-type transcript",
        b = bin(),
        f = shell_quote(&big.display().to_string())
    );
    let (raw, code) = on_terminal(&store, 120, &[], &script);
    assert_eq!(code, 0, "{raw}");
    assert!(raw.contains("loading the policy components"), "init progress:\n{raw}");
    assert!(raw.contains("copying the source's artifacts"), "merge progress:\n{raw}");
    assert!(raw.contains("merged queue-notes into queue-store (40 artifact(s) copied"), "{raw}");
    assert!(raw.contains("reading session.jsonl"), "capture progress:\n{raw}");
    assert!(raw.contains("MiB"), "bytes are counted:\n{raw}");
    let copied = std::fs::read_dir(store.root().join("queue-store/artifacts")).unwrap().count();
    assert!(copied >= 41, "{copied}");
}

#[test]
fn no_color_means_no_escape_sequence_at_all_even_with_a_progress_bar() {
    let store = large_store();
    let script = format!("{b} search pricing --limit 5 && {b} ls && {b} --help && {b} nope", b = bin());
    let (raw, _) = on_terminal(&store, 120, &[("NO_COLOR", "1")], &script);
    assert!(raw.contains(SEARCH_BAR), "progress is still shown, plainly:\n{raw}");
    assert!(raw.contains("Usage:") && raw.contains("PRI STATUS"), "{raw}");
    assert!(!raw.contains('\u{1b}'), "no ANSI escape with NO_COLOR:\n{:?}", raw);
    // The same commands without NO_COLOR do colour the terminal (so the check above can fail).
    let (raw, _) = on_terminal(&store, 120, &[], &script);
    assert!(raw.contains('\u{1b}'), "{raw:?}");
}

/// Lines the program wrote (terminal line endings removed), without the harness's own.
fn lines(raw: &str) -> Vec<String> {
    raw.split('\n').map(|l| l.trim_end_matches('\r').to_string()).filter(|l| !l.contains("__END__")).collect()
}

fn columns(line: &str) -> usize {
    line.chars().count()
}

const LONG_SLUG: &str = "renewal-playbook-for-enterprise-customers-with-annual-commits";
const LONG_NEXT: &str = "Compare the pricing scenarios with the sales team's feedback from the last three quarters";

fn table_store() -> TempStore {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    store.write_dossier(&DossierSpec::new(LONG_SLUG, "high", "high"));
    store.write_dossier(&DossierSpec::new("pricing", "low", "low"));
    store.cmd().args(["next", LONG_SLUG, LONG_NEXT]).assert().success();
    store
}

#[test]
fn ls_fits_the_terminal_width_while_piped_output_and_json_stay_complete() {
    let store = table_store();
    for width in ["60", "80"] {
        let (raw, code) = on_terminal(&store, 200, &[("COLUMNS", width)], &format!("{} ls", bin()));
        assert_eq!(code, 0, "{raw}");
        let w: usize = width.parse().unwrap();
        let table: Vec<String> = lines(&raw).into_iter().filter(|l| !l.is_empty()).collect();
        assert!(table.iter().any(|l| l.starts_with("PRI STATUS")), "{raw}");
        for l in &table {
            assert!(columns(l) <= w, "COLUMNS={width}: {} columns: {l:?}", columns(l));
        }
        assert!(table.iter().any(|l| l.ends_with('…')), "the long next action was shortened: {table:?}");
    }
    // Without COLUMNS, the terminal's own width.
    let (raw, _) = on_terminal(&store, 70, &[], &format!("{} ls", bin()));
    for l in lines(&raw) {
        assert!(columns(&l) <= 70, "{l:?}");
    }
    // Piped: nothing shortened, whatever COLUMNS says.
    let out = store.cmd().env("COLUMNS", "60").arg("ls").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(LONG_SLUG) && text.contains(LONG_NEXT) && !text.contains('…'), "{text}");
    // --json on a terminal: complete values.
    let (raw, _) = on_terminal(&store, 200, &[("COLUMNS", "60")], &format!("{} ls --json", bin()));
    assert!(raw.contains(LONG_SLUG) && raw.contains(LONG_NEXT), "{raw}");
    let out = store.cmd().env("COLUMNS", "60").args(["ls", "--json"]).output().unwrap();
    let v = json_of(&out);
    let next: Vec<&str> =
        v["data"]["dossiers"].as_array().unwrap().iter().map(|d| d["next_action"].as_str().unwrap()).collect();
    assert!(next.contains(&LONG_NEXT), "{next:?}");
}

#[test]
fn search_results_and_the_conflicts_list_fit_the_terminal_width() {
    let store = table_store();
    let dir = store.root().join(LONG_SLUG);
    let body = std::fs::read_to_string(dir.join("dossier.md")).unwrap();
    let long_line = format!("- Pricing: {} [src:art_01]\n", "annual commits and tiered discounts ".repeat(6));
    std::fs::write(dir.join("dossier.md"), body.replace("## Findings\n", &format!("## Findings\n\n{long_line}")))
        .unwrap();
    let (raw, code) =
        on_terminal(&store, 200, &[("COLUMNS", "60")], &format!("{} search discounts 2>/dev/null", bin()));
    assert_eq!(code, 0, "{raw}");
    let out: Vec<String> = lines(&raw).into_iter().filter(|l| !l.is_empty()).collect();
    assert!(out.iter().any(|l| l.contains("dossier.md:")), "{raw}");
    for l in &out {
        assert!(columns(l) <= 60, "{l:?}");
    }
    let piped = store.cmd().env("COLUMNS", "60").args(["search", "discounts"]).output().unwrap();
    let text = String::from_utf8(piped.stdout).unwrap();
    assert!(text.lines().any(|l| columns(l) > 60), "piped search lines are complete: {text}");

    // A concurrent-edit conflict (a save on a stale base revision), then the list.
    let state = store.dir.path().join("state.md");
    std::fs::write(
        &state,
        "# X\n\n## Situation\n\nChanged.\n\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n",
    )
    .unwrap();
    let stale = "rev_00000000000000000000000000000000";
    store.cmd().args(["save", LONG_SLUG, "--base-revision", stale, "--from-file"]).arg(&state).assert().code(4);
    let (raw, code) = on_terminal(&store, 200, &[("COLUMNS", "60")], &format!("{} conflicts list", bin()));
    assert_eq!(code, 0, "{raw}");
    let out: Vec<String> = lines(&raw).into_iter().filter(|l| !l.is_empty()).collect();
    assert!(out.iter().any(|l| l.contains("concurrent_edit")), "{raw}");
    for l in &out {
        assert!(columns(l) <= 60, "{l:?}");
    }
    let piped = store.cmd().env("COLUMNS", "60").args(["conflicts", "list"]).output().unwrap();
    let text = String::from_utf8(piped.stdout).unwrap();
    assert!(text.contains(&format!("proposal on {stale} (now rev_")), "piped: the whole summary: {text}");
}

//! Shell completions and the man page, checked with the real shells: the scripts parse in
//! bash, zsh and fish; completing `dossier show <TAB>` (and every other argument that names
//! a Dossier) offers the store's slugs in bash, fish and an interactive zsh; no store means
//! no slugs and no error in the shell. The man page names every subcommand and renders
//! without a groff warning.
//!
//! bash, zsh, fish, tmux and groff must be installed (the README's test command installs
//! them); a missing one fails the test.

use std::path::Path;
use std::process::{Command, Output};

use support::terminal::{Tmux, shell_quote};
use support::{DossierSpec, TempStore};

fn bin() -> &'static str {
    crate::DOSSIER
}

/// Run a system tool; a missing one is a failure that says how to install it.
fn tool(name: &str, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut c = Command::new(name);
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap_or_else(|e| {
        panic!("`{name}` could not be run ({e}); the README's test command installs it (apt-get install {name})")
    })
}

/// A store with two Dossiers (one archived) and a conflict-free layout.
fn two_dossiers() -> TempStore {
    let store = TempStore::new(crate::DOSSIER);
    store.init();
    store.write_dossier(&DossierSpec {
        name: "Pricing model refresh",
        ..DossierSpec::new("pricing-refresh", "high", "high")
    });
    store.write_dossier(&DossierSpec {
        name: "Hiring loop",
        status: "archived",
        ..DossierSpec::new("hiring-loop", "low", "low")
    });
    store
}

fn script(store: &TempStore, shell: &str) -> String {
    let out = store.cmd().args(["completions", shell]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "completions print nothing on stderr");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn completion_scripts_parse_in_bash_zsh_and_fish() {
    let store = TempStore::new(crate::DOSSIER);
    for (shell, check) in [("bash", vec!["-n"]), ("zsh", vec!["-n"]), ("fish", vec!["--no-execute"])] {
        let text = script(&store, shell);
        assert!(text.contains(bin()), "{shell}: the script calls this binary back:\n{text}");
        let file = store.dir.path().join(format!("dossier.{shell}"));
        std::fs::write(&file, &text).unwrap();
        let mut args = check.clone();
        let path = file.display().to_string();
        args.push(&path);
        let out = tool(shell, &args, &[]);
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{shell} {args:?} rejected the script: {}\n{text}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // A shell clap_complete does not know is a usage error, not a script.
    store.cmd().args(["completions", "tcsh"]).assert().code(2);
    // Completion mode is our own variable: clap_complete's generic `COMPLETE`, meant for some
    // other program, leaves a normal run (a hook, `dossier mcp`) alone.
    let out = store.cmd().env("COMPLETE", "bash").arg("path").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), store.root().display().to_string());
    let out = store.cmd().env("DOSSIER_COMPLETE", "bash").output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), script(&store, "bash"), "the variable alone prints the script");
}

/// `bash` runs the registered completion function for each command line (the last word
/// being completed) and prints what it offered, one block per line.
fn bash_complete(store: &TempStore, lines: &[&[&str]]) -> (String, String) {
    let mut sh = String::from("source <(\"$DOSSIER_BIN\" completions bash)\n");
    for words in lines {
        let quoted: Vec<String> = words.iter().map(|w| shell_quote(w)).collect();
        let n = words.len() - 1;
        sh.push_str(&format!(
            "COMP_WORDS=({}); COMP_CWORD={n}; COMP_LINE={line}; COMP_POINT=${{#COMP_LINE}}; COMP_TYPE=9; COMPREPLY=()\n\
             _clap_complete_dossier dossier \"${{COMP_WORDS[{n}]}}\" \"${{COMP_WORDS[{prev}]}}\"\n\
             echo \"== {line_plain}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
            quoted.join(" "),
            line = shell_quote(&words.join(" ")),
            prev = n - 1,
            line_plain = words.join(" ").replace('"', ""),
        ));
    }
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &sh])
        .env("DOSSIER_BIN", bin())
        .env("DOSSIER_HOME", store.root())
        .env("HOME", store.dir.path().join("home"))
        .output()
        .expect("bash is installed");
    assert!(out.status.success(), "bash: {}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// The candidates bash offered for one command line.
fn block<'a>(all: &'a str, line: &str) -> Vec<&'a str> {
    let start = all.find(&format!("== {line}\n")).unwrap_or_else(|| panic!("no block for {line}:\n{all}"));
    all[start..].lines().skip(1).take_while(|l| !l.starts_with("== ")).filter(|l| !l.is_empty()).collect()
}

#[test]
fn bash_completes_dossier_slugs_wherever_an_argument_names_a_dossier() {
    let store = two_dossiers();
    let slug_lines: Vec<Vec<&str>> = vec![
        vec!["dossier", "show", ""],
        vec!["dossier", "recall", ""],
        vec!["dossier", "link", ""],
        vec!["dossier", "merge", ""],
        vec!["dossier", "merge", "pricing-refresh", ""],
        vec!["dossier", "switch", ""],
        vec!["dossier", "conflicts", "list", ""],
        vec!["dossier", "search", "--dossier", ""],
        vec!["dossier", "status", ""],
        vec!["dossier", "next", ""],
        vec!["dossier", "lead", ""],
        vec!["dossier", "questions", ""],
        vec!["dossier", "priority", ""],
        vec!["dossier", "save", ""],
        vec!["dossier", "path", ""],
        vec!["dossier", "archive", ""],
    ];
    let mut lines: Vec<&[&str]> = slug_lines.iter().map(|l| l.as_slice()).collect();
    lines.push(&["dossier", "show", "pri"]);
    lines.push(&["dossier", "show", "dos_PRICING"]);
    lines.push(&["dossier", "sh"]);
    let (out, err) = bash_complete(&store, &lines);
    assert!(err.is_empty(), "nothing printed into the shell: {err}");
    for words in &slug_lines {
        let line = words.join(" ");
        let offered = block(&out, &line);
        for slug in ["pricing-refresh", "hiring-loop"] {
            assert!(offered.contains(&slug), "`{line}<TAB>` offers {slug}: {offered:?}");
        }
        // Open work first, archived after.
        let (p, h) =
            (offered.iter().position(|s| *s == "pricing-refresh"), offered.iter().position(|s| *s == "hiring-loop"));
        assert!(p < h, "open before archived: {offered:?}");
    }
    assert_eq!(block(&out, "dossier show pri"), ["pricing-refresh"]);
    assert_eq!(block(&out, "dossier show dos_PRICING"), ["dos_PRICINGREFRESH"], "ids complete too");
    assert_eq!(block(&out, "dossier sh"), ["show"], "subcommands complete");
}

#[test]
fn without_a_store_completion_offers_no_slugs_and_prints_nothing_into_the_shell() {
    let store = TempStore::new(crate::DOSSIER); // never initialised
    let (out, err) = bash_complete(&store, &[&["dossier", "show", ""], &["dossier", "show", "x"]]);
    assert!(err.is_empty(), "{err}");
    assert!(block(&out, "dossier show x").is_empty(), "{out}");
    assert!(!out.contains("pricing"), "{out}");
    assert!(!store.root().exists(), "completion created no store");
    // A broken config does not matter to completion (it reads no config).
    let store = two_dossiers();
    std::fs::write(store.root().join("config.yaml"), "policy: [not: valid").unwrap();
    let (out, err) = bash_complete(&store, &[&["dossier", "show", ""]]);
    assert!(err.is_empty(), "{err}");
    assert!(block(&out, "dossier show ").contains(&"pricing-refresh"), "{out}");
}

#[test]
fn fish_completes_dossier_slugs_with_their_names() {
    let store = two_dossiers();
    let sh = "\"$DOSSIER_BIN\" completions fish | source\ncomplete -C 'dossier show '\necho ==\ncomplete -C 'dossier merge pricing-refresh h'";
    let out = Command::new("fish")
        .args(["--no-config", "-c", sh])
        .env("DOSSIER_BIN", bin())
        .env("DOSSIER_HOME", store.root())
        .env("HOME", store.dir.path().join("home"))
        .output()
        .unwrap_or_else(|e| panic!("fish could not be run ({e}); the README's test command installs it"));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let (show, merge) = text.split_once("==\n").unwrap();
    assert!(show.contains("pricing-refresh\tPricing model refresh (active)"), "{show}");
    assert!(show.contains("hiring-loop\tHiring loop (archived)"), "{show}");
    assert_eq!(merge.trim(), "hiring-loop\tHiring loop (archived)");
}

/// zsh's completion system only runs inside its line editor: a real interactive zsh under
/// tmux, TAB pressed after `dossier show `.
#[test]
fn interactive_zsh_lists_both_slugs_on_tab() {
    let store = two_dossiers();
    let dir = store.dir.path();
    let rc = dir.join("zdotdir");
    std::fs::create_dir_all(&rc).unwrap();
    std::fs::write(
        rc.join(".zshrc"),
        format!(
            "PS1='%% '\nautoload -Uz compinit && compinit -u -d {}/.zcompdump\nsource <({} completions zsh)\n",
            rc.display(),
            shell_quote(bin())
        ),
    )
    .unwrap();
    let tmux = Tmux::new("zsh");
    let cmd = format!(
        "env -i PATH=/usr/local/bin:/usr/bin:/bin TERM=xterm-256color HOME={} ZDOTDIR={} DOSSIER_HOME={} zsh -i",
        shell_quote(&dir.join("home").display().to_string()),
        shell_quote(&rc.display().to_string()),
        shell_quote(&store.root().display().to_string())
    );
    tool("tmux", &["-V"], &[]);
    tmux.start("z", 120, 30, dir, &cmd);
    tmux.wait_for("z", "%", 60);
    tmux.send("z", &["dossier show "], true);
    tmux.send("z", &["Tab"], false);
    let screen = tmux.wait_for("z", "hiring-loop", 60);
    assert!(screen.contains("pricing-refresh"), "{screen}");
    // Narrow it down: one candidate is inserted in the line.
    tmux.send("z", &["C-u"], false);
    tmux.send("z", &["dossier show pri"], true);
    tmux.send("z", &["Tab"], false);
    let screen = tmux.wait_for("z", "dossier show pricing-refresh", 60);
    assert!(!screen.contains("hiring-loop"), "{screen}");
}

/// The subcommand names `dossier --help` lists.
fn subcommands(args: &[&str]) -> Vec<String> {
    let out = Command::new(bin()).args(args).arg("--help").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let start = text.find("Commands:\n").expect("a Commands section");
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // Wrapped descriptions continue on lines indented further.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|n| n != "help")
        .collect()
}

#[test]
fn the_man_page_names_every_subcommand_and_renders_without_warnings() {
    let store = TempStore::new(crate::DOSSIER);
    let out = store.cmd().arg("man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(
        page.starts_with(".ie \\n(.g .ds Aq") || page.contains(".TH dossier 1"),
        "{}",
        &page[..200.min(page.len())]
    );
    let top = subcommands(&[]);
    assert!(top.len() >= 25 && top.contains(&"completions".to_string()) && top.contains(&"man".to_string()), "{top:?}");
    for sub in &top {
        assert!(page.contains(&format!("dossier\\-{sub}(1)")), "dossier.1 names `{sub}`");
    }

    let dir = store.dir.path().join("man");
    store.cmd().args(["man", "--out-dir"]).arg(&dir).assert().success();
    let mut expected = vec!["dossier.1".to_string()];
    for sub in &top {
        expected.push(format!("dossier-{sub}.1"));
        if ["conflicts", "context", "codecall"].contains(&sub.as_str()) {
            for nested in subcommands(&[sub.as_str()]) {
                expected.push(format!("dossier-{sub}-{nested}.1"));
            }
        }
    }
    for name in &expected {
        let file = dir.join(name);
        assert!(file.is_file(), "{name} written");
        let path = file.display().to_string();
        let r = tool("groff", &["-k", "-man", "-Tutf8", "-ww", "-z", &path], &[]);
        assert!(
            r.status.success() && r.stderr.is_empty(),
            "{name}: groff warned: {}",
            String::from_utf8_lossy(&r.stderr)
        );
    }
    assert!(
        std::fs::read_to_string(dir.join("dossier.1")).unwrap() == page,
        "--out-dir's dossier.1 is the printed page"
    );
    let rendered = tool("groff", &["-k", "-man", "-Tutf8", &dir.join("dossier-merge.1").display().to_string()], &[]);
    let text = String::from_utf8_lossy(&rendered.stdout);
    assert!(text.contains("SOURCE") || text.contains("source"), "{text}");
}

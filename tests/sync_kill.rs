//! `dossier sync` SIGKILLed at random points (issue 23, docs/sync.md "Failure modes"): at
//! least 300 trials on two machines and a bare remote on local disk. Each trial makes local
//! changes on machine A (and, every other trial, remote changes from machine B, so the merge
//! step runs), starts A's `dossier sync`, SIGKILLs it after a random delay drawn from
//! `[0, duration of such a sync]` (measured first), then checks that no file holds conflict
//! markers, that the next `dossier sync` completes and leaves no `.git/index.lock`, that both
//! machines converge on the same tree, and that nothing either side ever wrote (Dossiers,
//! artifacts, audit lines, frontmatter edits) is lost.
//!
//! Two ways to die, alternating: `dossier` alone (its git child finishes on its own, as after
//! a parent crash), or `dossier` together with the git it is running (as a machine's processes
//! dying; the remote side, another machine in real life, is left to finish). Which git
//! subcommand was running at the kill is counted per phase and printed.
//!
//! The seed is printed; `DOSSIER_SYNC_KILL_SEED=<n>` replays its delays (timing still varies),
//! `DOSSIER_SYNC_KILL_TRIALS=<n>` changes the number of trials (300 by default).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::sync::{Machine, git_in};

/// splitmix64: a small seeded generator (no dependency, same numbers everywhere).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, max]`.
    fn upto(&mut self, max: Duration) -> Duration {
        let n = max.as_micros() as u64;
        Duration::from_micros(if n == 0 { 0 } else { self.next() % (n + 1) })
    }
}

/// A process: its parent and command line (from /proc).
struct Proc {
    ppid: u32,
    args: Vec<String>,
}

fn processes() -> BTreeMap<u32, Proc> {
    let mut all = BTreeMap::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { continue };
        // `pid (comm) state ppid ...`: comm may hold spaces, so split after its last ')'.
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let mut f = rest.split_whitespace();
        let state = f.next().unwrap_or("");
        if state == "Z" {
            continue;
        }
        let Some(ppid) = f.next().and_then(|p| p.parse().ok()) else { continue };
        let args = std::fs::read(e.path().join("cmdline"))
            .map(|b| {
                b.split(|c| *c == 0)
                    .filter(|a| !a.is_empty())
                    .map(|a| String::from_utf8_lossy(a).into_owned())
                    .collect()
            })
            .unwrap_or_default();
        all.insert(pid, Proc { ppid, args });
    }
    all
}

/// `pid`'s children and all their descendants.
fn descendants(all: &BTreeMap<u32, Proc>, pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut todo = vec![pid];
    while let Some(p) = todo.pop() {
        for (c, proc_) in all {
            if proc_.ppid == p {
                out.push(*c);
                todo.push(*c);
            }
        }
    }
    out
}

/// The phase a git child's command line names: its subcommand (`git -C <dir> add -A` → `add`).
fn phase(args: &[String]) -> String {
    let mut a = args.iter().map(String::as_str);
    let first = a.next().unwrap_or("");
    if !first.ends_with("git") {
        return Path::new(first).file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    }
    while let Some(x) = a.next() {
        if x == "-C" || x == "-c" {
            a.next();
            continue;
        }
        if x.starts_with('-') {
            continue;
        }
        return match x {
            "remote" => format!("{x} {}", a.next().unwrap_or("")),
            "merge-base" if a.next() == Some("--is-ancestor") => "merge-base --is-ancestor".into(),
            "cat-file" if a.next() == Some("--batch") => "cat-file --batch".into(),
            _ => x.into(),
        };
    }
    "git".into()
}

fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => !matches!(s.rsplit_once(')').and_then(|(_, r)| r.split_whitespace().next()), Some("Z")),
        Err(_) => false,
    }
}

fn sigkill(pids: &[u32]) {
    if pids.is_empty() {
        return;
    }
    let mut c = Command::new("kill");
    c.arg("-9").args(pids.iter().map(u32::to_string));
    let _ = c.stderr(std::process::Stdio::null()).status();
}

/// Every file under `root` but `.git/`, with conflict markers.
fn files_with_markers(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                if e.file_name() != ".git" {
                    todo.push(p);
                }
            } else if let Ok(bytes) = std::fs::read(&p) {
                let text = String::from_utf8_lossy(&bytes);
                if text.contains("\n<<<<<<< ") || text.starts_with("<<<<<<< ") || text.contains("\n>>>>>>> ") {
                    found.push(p.display().to_string());
                }
            }
        }
    }
    found
}

fn audit(m: &Machine, slug: &str) -> BTreeSet<String> {
    std::fs::read_to_string(m.root().join(slug).join("audit.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

fn run_sync(m: &Machine) -> Duration {
    let t = Instant::now();
    m.sync();
    t.elapsed()
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// A local change on `m` in trial `i`, as a user or another process makes it: a new artifact,
/// a frontmatter field set (`field: value`, the line replaced atomically) and an audit line.
/// With `real`, the field is set by the `dossier` command instead (the Save path's own audit).
/// What it wrote: the artifact's path and the audit line (if written here).
fn edit(m: &Machine, i: u64, side: &str, field: &str, value: &str, real: bool) -> (String, Option<String>) {
    let slug = "alpha-work";
    let art = format!("{slug}/artifacts/art_killtrial{i:05}{side}.txt");
    std::fs::write(m.root().join(&art), format!("captured on {side} in trial {i}\n")).unwrap();
    if real {
        let cmd = if field == "lead" { "lead" } else { "next" };
        m.ok(&[cmd, slug, value]);
        return (art, None);
    }
    let md_path = m.root().join(slug).join("dossier.md");
    let md = std::fs::read_to_string(&md_path).unwrap();
    let prefix = format!("{field}: ");
    let md: String = md
        .lines()
        .map(|l| if l.starts_with(&prefix) { format!("{prefix}{value}") } else { l.to_string() })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    let tmp = md_path.with_extension("md.tmpkill");
    std::fs::write(&tmp, md).unwrap();
    std::fs::rename(&tmp, &md_path).unwrap();
    let line = format!(
        r#"{{"ts":"2030-01-01T{:02}:{:02}:{:02}Z","event":"save","actor":"user:killtrial","fields_changed":["{field}"],"trial":{i},"side":"{side}"}}"#,
        i / 3600,
        i / 60 % 60,
        i % 60
    );
    use std::io::Write as _;
    let mut f = std::fs::OpenOptions::new().append(true).open(m.root().join(slug).join("audit.log")).unwrap();
    writeln!(f, "{line}").unwrap();
    (art, Some(line))
}

/// What one worker's trials saw.
#[derive(Default)]
struct Stats {
    phases: BTreeMap<String, u32>,
    recovered: u32,
    /// The edits (and B's push), the killed syncs, the next syncs, the checks.
    spent: [Duration; 4],
    durations: Vec<(Duration, Duration)>,
}

/// The fresh-clone CI at 45b25484 found a loss here (seed 1796177199773328839, worker 2, trial
/// 48: `dossier sync` and its git SIGKILLed inside the merge's `git merge --ff-only`, which
/// rewrites files in place; the next sync committed what the killed checkout left, and an audit
/// line was gone). Fixed by undoing a checkout cut short (`sync::recover`); the deterministic
/// regression is `issue_23_a_sync_killed_inside_its_checkout_loses_nothing` below.
#[test]
fn issue_23_sync_sigkilled_at_300_random_points_stays_consistent_and_loses_nothing() {
    let trials = env_u64("DOSSIER_SYNC_KILL_TRIALS").unwrap_or(300);
    // Independent pairs of machines (each its own remote) run their trials side by side: a
    // trial mostly waits on git processes, so two cores keep three busy.
    let workers = env_u64("DOSSIER_SYNC_KILL_WORKERS").unwrap_or(3).max(1);
    let seed = env_u64("DOSSIER_SYNC_KILL_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    });
    eprintln!(
        "sync_kill: seed {seed} (DOSSIER_SYNC_KILL_SEED={seed} replays the delays), {trials} trials on {workers} pairs of machines"
    );
    let started = Instant::now();
    let handles: Vec<_> = (0..workers)
        .map(|w| {
            let n = trials / workers + u64::from(w < trials % workers);
            std::thread::spawn(move || run_trials(w, n, seed.wrapping_add(w)))
        })
        .collect();
    let mut total = Stats::default();
    for h in handles {
        let s = h.join().expect("a worker's trial failed (its message is above)");
        for (k, v) in s.phases {
            *total.phases.entry(k).or_default() += v;
        }
        total.recovered += s.recovered;
        for k in 0..4 {
            total.spent[k] += s.spent[k];
        }
        total.durations.extend(s.durations);
    }
    eprintln!("sync_kill: a sync takes (local changes only, with the merge step): {:?}", total.durations);
    eprintln!(
        "sync_kill: time in edits {:?}, killed syncs {:?}, next syncs {:?}, checks {:?} (summed over workers)",
        total.spent[0], total.spent[1], total.spent[2], total.spent[3]
    );
    eprintln!(
        "sync_kill: {trials} trials in {:?}; {} next syncs removed what a killed one left; killed in: {:?}",
        started.elapsed(),
        total.recovered,
        total.phases
    );
    assert_eq!(total.phases.values().map(|v| u64::from(*v)).sum::<u64>(), trials);
}

/// A bare remote on local disk (its temp dir and path), machine A (`Machine::first`) and machine
/// B cloned from it, both synced, `alpha-work` with `lead` and `next_action` set (the trials'
/// edits replace their lines).
fn synced_pair() -> (tempfile::TempDir, std::path::PathBuf, Machine, Machine) {
    let remote = tempfile::tempdir().unwrap();
    git_in(remote.path(), &["init", "-q", "--bare", "-b", "main", "remote.git"]);
    let bare = remote.path().join("remote.git");
    let url = format!("file://{}", bare.display());
    let a = Machine::first(&url);
    let b = Machine::cloned(&url);
    a.ok(&["lead", "alpha-work", "none"]);
    a.ok(&["next", "alpha-work", "none"]);
    a.sync();
    b.sync();
    (remote, bare, a, b)
}

/// `trials` trials on one pair of machines and its remote.
fn run_trials(worker: u64, trials: u64, seed: u64) -> Stats {
    let mut rng = Rng(seed);
    let mut stats = Stats::default();
    let (_remote, bare, a, b) = synced_pair();
    let slug = "alpha-work";

    // What either side ever wrote, checked after every trial (B: at every full check).
    let mut artifacts: Vec<String> = Vec::new();
    let mut slugs: Vec<String> = vec![slug.to_string()];
    let mut lines: BTreeSet<String> = BTreeSet::new();

    // How long a sync takes, without and with the merge step (the kill delays' ranges).
    artifacts.push(edit(&a, 99_998, "a", "next_action", "A99998", true).0);
    let plain = run_sync(&a);
    b.sync();
    artifacts.push(edit(&b, 99_999, "b", "lead", "B99999", true).0);
    b.sync();
    artifacts.push(edit(&a, 99_999, "a", "next_action", "A99999", true).0);
    let merging = run_sync(&a);
    b.sync();
    // The field values each side set last (A sets its own in every trial).
    let mut last_b = "B99999".to_string();
    stats.durations.push((plain, merging));
    for i in 1..=trials {
        let t0 = Instant::now();
        // One trial in three, the other machine pushed first, so the merge step runs. B pushes
        // with plain git (fast), every tenth such trial with `dossier sync`.
        let merge = rng.next().is_multiple_of(3);
        let real = i.is_multiple_of(10);
        let with_git = i.is_multiple_of(2);
        if merge {
            if !real {
                git_in(b.root(), &["fetch", "-q", "origin"]);
                git_in(b.root(), &["merge", "-q", "--ff-only", "origin/main"]);
            }
            last_b = format!("B{i}");
            let (art, line) = edit(&b, i, "b", "lead", &last_b, real);
            artifacts.push(art);
            lines.extend(line);
            if real {
                b.sync();
            } else {
                git_in(b.root(), &["add", "-A"]);
                git_in(b.root(), &["-c", "user.name=B", "-c", "user.email=b@localhost", "commit", "-q", "-m", "B"]);
                git_in(b.root(), &["push", "-q", "origin", "HEAD:main"]);
            }
        }
        let last_a = format!("A{i}");
        let (art, line) = edit(&a, i, "a", "next_action", &last_a, real);
        artifacts.push(art);
        lines.extend(line);
        if i.is_multiple_of(50) {
            // Now and then a new Dossier.
            let s = a.ok(&["promote", "--name", &format!("Trial {i}")])["data"]["slug"].as_str().unwrap().to_string();
            slugs.push(s);
        }
        for s in &slugs {
            lines.extend(audit(&a, s));
        }

        let t1 = Instant::now();
        let delay = rng.upto(if merge { merging } else { plain });
        let mut child = a.cmd_std().args(["sync", "--json"]).spawn().unwrap();
        let pid = child.id();
        std::thread::sleep(delay);
        let all = processes();
        let tree = descendants(&all, pid);
        let running = child.try_wait().unwrap().is_none();
        let name = if !running {
            "finished".to_string()
        } else {
            // The git it is waiting for: its newest child (the merge step's `cat-file --batch`
            // stays beside the others until the sync ends).
            let kids: Vec<&Proc> = all.values().filter(|p| p.ppid == pid).collect();
            let batch = |p: &&Proc| phase(&p.args) == "cat-file --batch";
            match kids.iter().rev().find(|p| !batch(p)).or(kids.last()).map(|p| ((), *p)) {
                Some((_, p)) if p.args.is_empty() => "spawning git".to_string(),
                Some((_, p)) => phase(&p.args),
                None => "dossier".to_string(),
            }
        };
        if with_git {
            let mut pids: Vec<u32> =
                tree.iter().copied().filter(|c| all.get(c).is_some_and(|p| p.ppid == pid)).collect();
            pids.push(pid);
            sigkill(&pids);
        } else {
            let _ = child.kill();
        }
        let _ = child.wait();
        // What was left running (a git alone, or the remote's side) finishes on its own: every
        // process that was below the sync, or that works in either repository.
        let deadline = Instant::now() + Duration::from_secs(20);
        let (root, bare_s) = (a.root().display().to_string(), bare.display().to_string());
        let me = std::process::id();
        let busy = || {
            tree.iter().any(|p| alive(*p))
                || processes()
                    .iter()
                    .any(|(p, x)| *p != me && x.args.iter().any(|arg| arg.contains(&root) || arg.contains(&bare_s)))
        };
        while busy() {
            assert!(
                Instant::now() < deadline,
                "worker {worker}, trial {i}: orphaned git processes still running after 20 s"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        *stats.phases.entry(format!("{name}{}", if with_git { " +git" } else { "" })).or_default() += 1;

        let t2 = Instant::now();
        let ctx = format!(
            "worker {worker}, trial {i} (seed {seed}, delay {delay:?}, killed in {name}, with its git: {with_git})"
        );
        let marked = files_with_markers(a.root());
        assert!(marked.is_empty(), "{ctx}: conflict markers in {marked:?}");
        let out = a.run(&["sync", "--json"]);
        assert!(
            out.status.success(),
            "{ctx}: the next sync failed ({:?}): {}{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if support::json_of(&out)["data"]["recovered"] == true {
            stats.recovered += 1;
        }
        let t3 = Instant::now();
        assert!(!a.root().join(".git/index.lock").exists(), "{ctx}: .git/index.lock left");
        assert!(!a.root().join(".sync/running").exists(), "{ctx}: .sync/running left");
        assert_eq!(a.git(&["status", "--porcelain"]), "", "{ctx}: A is not clean");
        assert_eq!(
            git_in(&bare, &["rev-parse", "main"]),
            a.git(&["rev-parse", "HEAD"]),
            "{ctx}: the remote does not hold A's head"
        );
        let full = i.is_multiple_of(10) || i == trials;
        let machines: &[&Machine] = if full { &[&a, &b] } else { &[&a] };
        if full {
            // Both machines converge: B syncs too, and both hold the same tree.
            b.sync();
            let (ta, tb) = (a.git(&["rev-parse", "HEAD^{tree}"]), b.git(&["rev-parse", "HEAD^{tree}"]));
            assert_eq!(ta, tb, "{ctx}: the machines did not converge");
            assert_eq!(b.git(&["status", "--porcelain"]), "", "{ctx}: B is not clean");
            assert!(files_with_markers(b.root()).is_empty(), "{ctx}: conflict markers on B");
        }
        for m in machines {
            for f in &artifacts {
                assert!(m.root().join(f).is_file(), "{ctx}: {f} lost on {}", m.root().display());
            }
            for s in &slugs {
                assert!(m.root().join(s).join("dossier.md").is_file(), "{ctx}: Dossier {s} lost");
            }
            let have: BTreeSet<String> = slugs.iter().flat_map(|s| audit(m, s)).collect();
            let lost: Vec<&String> = lines.difference(&have).collect();
            assert!(lost.is_empty(), "{ctx}: audit lines lost on {}: {lost:#?}", m.root().display());
            let md = m.read(&format!("{slug}/dossier.md"));
            assert!(md.contains(&format!("next_action: {last_a}\n")), "{ctx}: A's edit {last_a} lost:\n{md}");
            assert!(md.contains(&format!("lead: {last_b}\n")), "{ctx}: B's edit {last_b} lost:\n{md}");
        }
        for (k, d) in [t1 - t0, t2 - t1, t3 - t2, t3.elapsed()].into_iter().enumerate() {
            stats.spent[k] += d;
        }
    }
    // The remote holds it all too.
    let listed = git_in(&bare, &["ls-tree", "-r", "--name-only", "main"]);
    for f in &artifacts {
        assert!(listed.lines().any(|l| l == f), "{f} is not on the remote");
    }
    stats
}

/// The random kills above land inside git's checkout (the merge's `git merge --ff-only`) only
/// about once in a hundred trials, and the loss they found was there: this test aims at it.
/// Every trial the other machine pushes a change touching many files (an audit line, a field,
/// 120 artifacts), so checking it out takes a while; this machine makes its own edit, starts
/// `dossier sync`, watches for its `git merge`, and SIGKILLs both after a random part of a
/// checkout's measured duration. Then the same checks as above: the next sync completes, no
/// line, artifact or edit of either side is lost, both machines converge.
/// `DOSSIER_SYNC_CHECKOUT_TRIALS` (default 24) and `DOSSIER_SYNC_KILL_SEED` as above.
#[test]
fn issue_23_sync_sigkilled_inside_its_checkout_loses_nothing() {
    let trials = env_u64("DOSSIER_SYNC_CHECKOUT_TRIALS").unwrap_or(24);
    let seed = env_u64("DOSSIER_SYNC_KILL_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    });
    eprintln!("sync_kill checkout: seed {seed}, {trials} trials");
    let mut rng = Rng(seed);
    let (_remote, _bare, a, b) = synced_pair();
    let slug = "alpha-work";
    let mut artifacts: Vec<String> = Vec::new();
    let mut lines: BTreeSet<String> = BTreeSet::new();
    let filler = "captured text, long enough that writing it takes git a moment\n".repeat(40);
    // B pushes a change of many files: an audit line, a field, and 120 artifacts.
    let push_from_b = |i: u64, artifacts: &mut Vec<String>, lines: &mut BTreeSet<String>| {
        git_in(b.root(), &["fetch", "-q", "origin"]);
        git_in(b.root(), &["merge", "-q", "--ff-only", "origin/main"]);
        std::fs::create_dir_all(b.root().join(slug).join("artifacts")).unwrap();
        for k in 0..120 {
            let art = format!("{slug}/artifacts/art_checkout{i:03}{k:03}b.txt");
            std::fs::write(b.root().join(&art), format!("trial {i}, artifact {k}\n{filler}")).unwrap();
            artifacts.push(art);
        }
        let (art, line) = edit(&b, 10_000 + i, "b", "lead", &format!("B{i}"), false);
        artifacts.push(art);
        lines.extend(line);
        git_in(b.root(), &["add", "-A"]);
        git_in(b.root(), &["-c", "user.name=B", "-c", "user.email=b@localhost", "commit", "-q", "-m", "B"]);
        git_in(b.root(), &["push", "-q", "origin", "HEAD:main"]);
    };
    // `dossier sync` on A, and the pid of its `git merge` once it runs (None: it never did).
    let start_and_watch = || {
        let mut child = a.cmd_std().args(["sync", "--json"]).spawn().unwrap();
        let pid = child.id();
        let t = Instant::now();
        loop {
            let all = processes();
            if let Some((p, _)) = all.iter().find(|(_, x)| x.ppid == pid && phase(&x.args) == "merge") {
                return (child, pid, Some((*p, Instant::now())));
            }
            if child.try_wait().unwrap().is_some() || t.elapsed() > Duration::from_secs(30) {
                return (child, pid, None);
            }
        }
    };

    // How long a checkout of such a change lasts, seen from here (the kills' range).
    push_from_b(0, &mut artifacts, &mut lines);
    std::fs::create_dir_all(a.root().join(slug).join("artifacts")).unwrap();
    let (_, line) = edit(&a, 20_000, "a", "next_action", "A0", false);
    lines.extend(line);
    let (mut child, _, merge) = start_and_watch();
    let (mpid, seen) = merge.expect("the first sync runs a merge");
    while alive(mpid) {
        std::thread::sleep(Duration::from_micros(200));
    }
    let checkout = seen.elapsed().max(Duration::from_millis(2));
    assert!(child.wait().unwrap().success());
    eprintln!("sync_kill checkout: a checkout of 122 files lasts ~{checkout:?} seen from here");

    let mut inside = 0;
    for i in 1..=trials {
        push_from_b(i, &mut artifacts, &mut lines);
        let last_a = format!("A{i}");
        let (art, line) = edit(&a, 20_000 + i, "a", "next_action", &last_a, false);
        artifacts.push(art);
        lines.extend(line);
        lines.extend(audit(&a, slug));

        let (mut child, pid, merge) = start_and_watch();
        let delay = rng.upto(checkout);
        let mut ctx = format!("trial {i} (seed {seed}, delay {delay:?})");
        if let Some((mpid, _)) = merge {
            std::thread::sleep(delay);
            let was_inside = alive(mpid);
            sigkill(&[pid, mpid]);
            if was_inside {
                inside += 1;
                ctx.push_str(", killed inside the checkout");
            }
            let deadline = Instant::now() + Duration::from_secs(20);
            while alive(mpid) {
                assert!(Instant::now() < deadline, "{ctx}: git merge still running 20 s after SIGKILL");
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        let _ = child.wait();

        let marked = files_with_markers(a.root());
        assert!(marked.is_empty(), "{ctx}: conflict markers in {marked:?}");
        let out = a.run(&["sync", "--json"]);
        assert!(
            out.status.success(),
            "{ctx}: the next sync failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(a.git(&["status", "--porcelain"]), "", "{ctx}: A is not clean");
        assert!(!a.root().join(".sync/moving").exists(), "{ctx}: .sync/moving left");
        let full = i.is_multiple_of(10) || i == trials;
        if full {
            b.sync();
            crate::sync::assert_converged(&a, &b);
        }
        let machines: &[&Machine] = if full { &[&a, &b] } else { &[&a] };
        for m in machines {
            let missing: Vec<&String> = artifacts.iter().filter(|f| !m.root().join(f).is_file()).collect();
            assert!(missing.is_empty(), "{ctx}: artifacts lost on {}: {missing:?}", m.root().display());
            let have = audit(m, slug);
            let lost: Vec<&String> = lines.difference(&have).collect();
            assert!(lost.is_empty(), "{ctx}: audit lines lost on {}: {lost:#?}", m.root().display());
            let md = m.read(&format!("{slug}/dossier.md"));
            assert!(md.contains(&format!("next_action: {last_a}\n")), "{ctx}: A's edit lost:\n{md}");
            assert!(md.contains(&format!("lead: B{i}\n")), "{ctx}: B's edit lost:\n{md}");
        }
    }
    eprintln!("sync_kill checkout: {inside} of {trials} kills landed while git's checkout ran");
    assert!(inside * 8 >= trials, "too few kills landed inside the checkout ({inside} of {trials}) to test it");
}

/// Found by the trials above (the fresh-clone CI at 45b25484, seed 1796177199773328839): a sync
/// killed inside the merge's `git merge --ff-only`, which rewrites files in place before it moves
/// the branch, left `audit.log` empty (created, not yet written) and the branch on the commit it
/// was leaving; the next sync committed that as this machine's change and the merge's union then
/// lost the audit line only this machine had. Built here as the kill leaves it, deterministically:
/// the new commit's `dossier.md` written, `audit.log` empty, another file not yet written, the
/// index already the new commit's, the branch not moved.
#[test]
fn issue_23_a_sync_killed_inside_its_checkout_loses_nothing() {
    let remote = tempfile::tempdir().unwrap();
    git_in(remote.path(), &["init", "-q", "--bare", "-b", "main", "remote.git"]);
    let url = format!("file://{}", remote.path().join("remote.git").display());
    let a = Machine::first(&url);
    let b = Machine::cloned(&url);
    b.ok(&["next", "alpha-work", "From B"]);
    b.ok(&["promote", "--name", "Beta work"]);
    b.sync();
    a.ok(&["lead", "alpha-work", "Alice"]);
    let a_line =
        std::fs::read_to_string(a.root().join("alpha-work/audit.log")).unwrap().lines().last().unwrap().to_string();

    // The sync's first steps, as `dossier sync` runs them: commit, fetch, a merge commit.
    a.git(&["add", "-A"]);
    a.git(&["-c", "user.name=A", "-c", "user.email=a@example.test", "commit", "-q", "-m", "local"]);
    let from = a.git(&["rev-parse", "HEAD"]).trim().to_string();
    a.git(&["fetch", "-q", "origin", "+refs/heads/main:refs/remotes/origin/main"]);
    let theirs = a.git(&["rev-parse", "origin/main"]).trim().to_string();
    let tree = a.git(&["rev-parse", &format!("{theirs}^{{tree}}")]).trim().to_string();
    let to = a
        .git(&[
            "-c",
            "user.name=A",
            "-c",
            "user.email=a@example.test",
            "commit-tree",
            &tree,
            "-p",
            &from,
            "-p",
            &theirs,
            "-m",
            "merge",
        ])
        .trim()
        .to_string();
    // Killed mid-checkout: some files written, one empty, one not there yet; the index is the
    // new commit's, the branch still the old one.
    let show = |path: &str| a.git(&["show", &format!("{to}:{path}")]);
    std::fs::write(a.root().join("alpha-work/dossier.md"), show("alpha-work/dossier.md")).unwrap();
    std::fs::write(a.root().join("alpha-work/audit.log"), "").unwrap();
    a.git(&["read-tree", &to]);
    assert!(!a.root().join("beta-work/dossier.md").exists());
    std::fs::write(a.root().join(".sync/running"), "12345").unwrap();
    std::fs::write(a.root().join(".sync/moving"), format!("{{\"from\":\"{from}\",\"to\":\"{to}\"}}")).unwrap();

    let out = a.sync();
    assert_eq!(out["recovered"], true, "{out}");
    assert_eq!(out["merged"], true, "the merge is made again: {out}");
    assert!(!a.root().join(".sync/moving").exists());
    b.sync();
    crate::sync::assert_converged(&a, &b);
    for m in [&a, &b] {
        let log = m.read("alpha-work/audit.log");
        assert!(log.lines().any(|l| l == a_line), "A's audit line is lost on {}:\n{log}", m.root().display());
        let md = m.read("alpha-work/dossier.md");
        assert!(md.contains("lead: Alice") && md.contains("next_action: From B"), "{md}");
        assert!(m.root().join("beta-work/dossier.md").is_file());
    }

    // A record of a checkout that finished (the branch moved) changes nothing.
    let head = a.git(&["rev-parse", "HEAD"]).trim().to_string();
    std::fs::write(a.root().join(".sync/running"), "12345").unwrap();
    std::fs::write(a.root().join(".sync/moving"), format!("{{\"from\":\"{from}\",\"to\":\"{head}\"}}")).unwrap();
    let out = a.sync();
    assert_eq!(out["came_in"], serde_json::json!([]), "{out}");
    assert_eq!(out["committed"], serde_json::Value::Null, "{out}");
    assert!(!a.root().join(".sync/moving").exists());
}

/// Found by the trials above: a sync killed with its `git push` (or `fetch`, `commit`, `merge`)
/// leaves git's ref locks (`refs/remotes/origin/main.lock`, `refs/heads/main.lock`,
/// `HEAD.lock`), not only `index.lock`; the next sync removed only the index lock and then
/// failed on every run ("cannot lock ref", reported as `remote_unavailable`).
#[test]
fn issue_23_a_sync_killed_while_git_held_ref_locks_does_not_stop_the_next_one() {
    let remote = tempfile::tempdir().unwrap();
    git_in(remote.path(), &["init", "-q", "--bare", "-b", "main", "remote.git"]);
    let bare = remote.path().join("remote.git");
    let a = Machine::first(&format!("file://{}", bare.display()));
    a.ok(&["lead", "alpha-work", "Alice"]);
    // What a sync killed inside git leaves: its marker and git's lock files.
    std::fs::create_dir_all(a.root().join(".sync")).unwrap();
    std::fs::write(a.root().join(".sync/running"), "12345").unwrap();
    let locks =
        [".git/refs/remotes/origin/main.lock", ".git/refs/heads/main.lock", ".git/HEAD.lock", ".git/index.lock"];
    for l in locks {
        std::fs::write(a.root().join(l), "").unwrap();
    }
    let out = a.sync();
    assert_eq!(out["recovered"], true, "{out}");
    assert_eq!(out["pushed"], true, "{out}");
    for l in locks {
        assert!(!a.root().join(l).exists(), "{l} left");
    }
    assert!(git_in(&bare, &["show", "main:alpha-work/dossier.md"]).contains("lead: Alice"));

    // Without the marker, a ref lock belongs to a git someone is running: left alone, and the
    // sync fails saying so (not as an unreachable remote) once the fetch needs that ref.
    let b = Machine::cloned(&format!("file://{}", bare.display()));
    b.ok(&["next", "alpha-work", "From B"]);
    b.sync();
    std::fs::write(a.root().join(".git/refs/remotes/origin/main.lock"), "").unwrap();
    a.ok(&["lead", "alpha-work", "Bea"]);
    let out = a.run(&["sync", "--json"]);
    assert!(!out.status.success());
    let v = support::json_of(&out);
    assert_ne!(v["error"]["code"], "remote_unavailable", "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("main.lock"), "{v}");
    assert!(a.root().join(".git/refs/remotes/origin/main.lock").exists());
    assert_eq!(a.git(&["status", "--porcelain"]), "", "the edit is committed locally");
}

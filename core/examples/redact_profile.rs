//! Ad-hoc native timing of the redaction policy on the bench's 24 MB transcript (issue 20
//! item 7): `cargo run --release -p dossier-core --example redact_profile [out.jsonl]`.
//! Writes the transcript to the path given (for `rg -c -f`), then prints MB/s, best of 5.

#[path = "../../host/benches/support/redact_transcript.rs"]
mod redact_transcript;
use redact_transcript::transcript;

fn main() {
    let key = [5u8; 32];
    let opts = dossier_core::redact::Options { key: &key, allow: &[] };
    // `DUMP=a,b,…`: print each file's redaction (text and hits), for comparing two builds.
    if let Ok(list) = std::env::var("DUMP") {
        for path in list.split(',') {
            let text = std::fs::read_to_string(path).unwrap().replace("⟦⟧", "");
            let r = dossier_core::redact::redact(&text, &opts).unwrap();
            println!("== {path}\n{:?}\n{}", r.hits, r.text.unwrap_or_default());
        }
        return;
    }
    let text = transcript();
    if let Some(path) = std::env::args().nth(1) {
        std::fs::write(&path, text).unwrap();
        std::fs::write(format!("{path}.patterns"), dossier_core::redact::rg_patterns().join("\n") + "\n").unwrap();
    }
    let runs: usize = std::env::var("RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let mut best = f64::MAX;
    let mut hits = 0;
    for _ in 0..runs {
        let t = std::time::Instant::now();
        let r = dossier_core::redact::redact(text, &opts).unwrap();
        best = best.min(t.elapsed().as_secs_f64());
        hits = r.hits.len();
    }
    println!("{} bytes, {hits} hits, best {:.3} s = {:.1} MB/s", text.len(), best, text.len() as f64 / best / 1e6);
    // The high-entropy net's own share (it runs inside `redact` too).
    let mut net = f64::MAX;
    for _ in 0..runs {
        let t = std::time::Instant::now();
        std::hint::black_box(dossier_core::redact::net_only(text));
        net = net.min(t.elapsed().as_secs_f64());
    }
    println!("of which the high-entropy net alone: best {:.3} s = {:.1} MB/s", net, text.len() as f64 / net / 1e6);
}

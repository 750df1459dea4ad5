//! Redacted copies of a directory's files, for scoring a corpus with its `score.py`
//! (`tests/fixtures/redaction/score.py <out>`): `cargo run -p dossier-core --example
//! redact_dir -- <in> <out>`. `⟦⟧` (the calibration corpus's push-protection breaks) is
//! removed first. Prints each file's hit count by kind. `NET_ONLY=1`: the high-entropy net
//! alone (no rule), each run it takes replaced by `[NET]`.

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(src), Some(dst)) = (args.next(), args.next()) else {
        eprintln!("usage: redact_dir <in> <out>");
        std::process::exit(2);
    };
    let key = [5u8; 32];
    let opts = dossier_core::redact::Options { key: &key, allow: &[] };
    std::fs::create_dir_all(&dst).unwrap();
    let mut names: Vec<_> = std::fs::read_dir(&src).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    for p in names {
        if !p.is_file() {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&p) else { continue };
        let text = text.replace("⟦⟧", "");
        let name = p.file_name().unwrap();
        if std::env::var_os("NET_ONLY").is_some() {
            // The high-entropy net alone, each run replaced by `[NET]`.
            let mut out = String::new();
            let mut at = 0;
            let runs = dossier_core::redact::net_only(&text);
            for &(s, e) in &runs {
                out.push_str(&text[at..s]);
                out.push_str("[NET]");
                at = e;
            }
            out.push_str(&text[at..]);
            println!("{}: {} runs", name.to_string_lossy(), runs.len());
            std::fs::write(std::path::Path::new(&dst).join(name), out).unwrap();
            continue;
        }
        let r = dossier_core::redact::redact(&text, &opts).unwrap();
        println!("{}: {} hits", name.to_string_lossy(), r.hits.len());
        std::fs::write(std::path::Path::new(&dst).join(name), r.text.unwrap_or(text)).unwrap();
    }
}

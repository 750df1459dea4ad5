//! Generate a synthetic store for benchmarks: `cargo run --release -p dossier --example
//! gen_store -- <dir> <dossiers> <artifacts-per-dossier> [body-bytes] [seed]`. Run
//! `dossier init` on the directory first (or let this do it by creating the layout).

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: gen_store <dir> <dossiers> <artifacts-per-dossier> [body-bytes] [seed]");
        std::process::exit(2);
    }
    let root = std::path::PathBuf::from(&args[1]);
    let spec = dossier_store::generate::Spec {
        dossiers: args[2].parse().expect("dossiers"),
        artifacts_per_dossier: args[3].parse().expect("artifacts"),
        body_bytes: args.get(4).map(|s| s.parse().expect("body-bytes")).unwrap_or(4_000),
        seed: args.get(5).map(|s| s.parse().expect("seed")).unwrap_or(1),
    };
    for d in ["context", "sessions"] {
        std::fs::create_dir_all(root.join(d)).expect("create store layout");
    }
    dossier_store::generate::generate(&root, &spec).expect("generate store");
}

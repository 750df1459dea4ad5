//! Measures one tokenizer in a fresh process: construction time, count time and token count
//! for a file. Used by `tests/bench/tokenizer.sh` to choose the tokenizer (docs/tokenizer.md).
//!
//! `cargo run --release -p dossier --example tokenizer_probe -- <tokenizer> <file>` where
//! tokenizer is one of tiktoken-o200k, tiktoken-cl100k, bpe-o200k, bpe-cl100k.
//! Prints: `<tokenizer> load_ms=<f> count_ms=<f> second_count_ms=<f> tokens=<n> bytes=<n>`.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (which, file) = (&args[1], &args[2]);
    let text = std::fs::read_to_string(file).expect("read text");
    let t0 = Instant::now();
    let count: Box<dyn Fn(&str) -> usize> = match which.as_str() {
        "tiktoken-o200k" => {
            let bpe = tiktoken_rs::o200k_base_singleton();
            Box::new(move |t| bpe.count_ordinary(t))
        }
        "tiktoken-cl100k" => {
            let bpe = tiktoken_rs::cl100k_base_singleton();
            Box::new(move |t| bpe.count_ordinary(t))
        }
        "bpe-o200k" => {
            let bpe = bpe_openai::o200k_base();
            Box::new(move |t| bpe.count(t))
        }
        "bpe-cl100k" => {
            let bpe = bpe_openai::cl100k_base();
            Box::new(move |t| bpe.count(t))
        }
        other => panic!("unknown tokenizer {other}"),
    };
    // Force construction of lazily built tokenizers before timing the count.
    let _ = count("warm");
    let load = t0.elapsed();
    let t1 = Instant::now();
    let tokens = count(&text);
    let first = t1.elapsed();
    let t2 = Instant::now();
    let again = count(&text);
    let second = t2.elapsed();
    assert_eq!(tokens, again);
    println!(
        "{which} load_ms={:.1} count_ms={:.1} second_count_ms={:.1} tokens={tokens} bytes={}",
        load.as_secs_f64() * 1e3,
        first.as_secs_f64() * 1e3,
        second.as_secs_f64() * 1e3,
        text.len()
    );
}

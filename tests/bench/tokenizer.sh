#!/usr/bin/env bash
# Tokenizer choice (docs/tokenizer.md): each candidate measured in fresh processes on the same
# text, interleaved so machine noise hits all of them alike. Prints one line per run.
# Usage: tests/bench/tokenizer.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-7}
cargo build --release -p dossier --example tokenizer_probe --example gen_store >/dev/null
corpus=$(mktemp)
# ~340 KB: this repository's Rust sources and docs (code + English prose).
cat host/src/*.rs host/src/policy/*.rs core/src/*.rs docs/*.md README.md assets/guide.md > "$corpus"
while [ "$(stat -c %s "$corpus")" -lt 340000 ]; do cat host/src/save.rs docs/ARCHITECTURE.md >> "$corpus"; done
for _ in $(seq "$runs"); do
  for t in tiktoken-o200k tiktoken-cl100k bpe-o200k bpe-cl100k; do
    target/release/examples/tokenizer_probe "$t" "$corpus"
  done
done
rm -f "$corpus"

#!/usr/bin/env bash
# The coverage-guided run (issue 18): each libFuzzer target for <seconds-per-target>, one
# after another (JOBS=2: two at a time), niced, on the stable toolchain.
#
#   fuzz/run.sh 600              # >= 10 CPU-minutes per target (docs/conformance.md)
#   TARGETS="config frontmatter" fuzz/run.sh 30
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`, ~1.5 min); the build uses
# RUSTC_BOOTSTRAP=1 because cargo-fuzz passes `-Z` flags, and no sanitizer (`-s none`: ASan
# is nightly-only), so what is caught is Rust panics (assertions, overflow, index, unwrap),
# aborts, timeouts and runaway memory. The two targets of the `dossier` crate (mcp_params,
# transcript) link wasmtime: the first build takes a while.
#
# Inputs: the committed seeds (fuzz/corpus/<target>, from fuzz/seeds.py); the run's corpus
# grows in fuzz/work/<target> (not committed) and is merged (-merge=1, coverage-minimal) back
# into fuzz/corpus/<target> at the end, so the committed corpus is what the CI replay
# (tests/fuzz.rs) runs. A crash lands in fuzz/artifacts/<target>/: copy it to
# fuzz/regressions/<target>/ with the fix. A summary line per target goes to
# fuzz/work/summary.tsv (target, seconds, cpu seconds, executions, coverage, features,
# corpus files, crashes).
set -euo pipefail
cd "$(dirname "$0")"
SECS=${1:?usage: fuzz/run.sh <seconds-per-target>}
ALL="frontmatter provenance conflict_file config mcp_params transcript"
TARGETS=${TARGETS:-$ALL}
JOBS=${JOBS:-1}
TARGET_DIR=${FUZZ_TARGET_DIR:-$PWD/target}
export RUSTC_BOOTSTRAP=1

features=()
case " $TARGETS " in *" mcp_params "*|*" transcript "*) features=(--features host) ;; esac
nice -n 10 cargo fuzz build -s none --target-dir "$TARGET_DIR" "${features[@]}"
BIN=$TARGET_DIR/x86_64-unknown-linux-gnu/release

mkdir -p work artifacts
run_one() {
    local t=$1
    mkdir -p "work/$t" "artifacts/$t"
    local log=work/$t.log
    local start=$(date +%s)
    /usr/bin/time -f '%U %S' -o "work/$t.time" nice -n 10 "$BIN/$t" "work/$t" "corpus/$t" \
        -max_total_time="$SECS" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
        -artifact_prefix="artifacts/$t/" -print_final_stats=1 >"$log" 2>&1 || true
    local cpu=$(awk '{printf "%.0f", $1+$2}' "work/$t.time")
    local execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    local last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    local cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo 0)
    local ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo 0)
    # Keep a coverage-minimal corpus: merge what the run found into the committed seeds.
    "$BIN/$t" -merge=1 "corpus/$t" "work/$t" >>"$log" 2>&1 || true
    local files=$(ls "corpus/$t" | wc -l)
    local crashes=$(ls "artifacts/$t" | wc -l)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$(( $(date +%s) - start ))" "$cpu" "$execs" "$cov" "$ft" "$files" "$crashes" \
        | tee -a work/summary.tsv
}
running=0
for t in $TARGETS; do
    run_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait

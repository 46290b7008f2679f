#!/usr/bin/env bash
# A newcomer's first test run (BENCHMARKS.md, "Newcomer test time"): a fresh
# clone of COMMIT, an empty cargo home, the README's main command, then the
# README's test command, each timed. Run it on a quiet machine, once per commit
# to compare, in one session: the figures are wall-clock times, and the first
# includes fetching every crate.
#
#   bash benches/newcomer/run.sh COMMIT [COMMIT...]
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
for commit in "$@"; do
    scratch=$(mktemp -d)
    git clone -q "$repo" "$scratch/repo" && git -C "$scratch/repo" checkout -q "$commit" || exit 1
    (
        cd "$scratch/repo" || exit 1
        export CARGO_HOME=$scratch/cargo-home
        # As a newcomer runs them: none of CI's settings.
        unset CI SEOZOOM_SLOW_TESTS CARGO_INCREMENTAL CARGO_PROFILE_DEV_DEBUG CARGO_TARGET_DIR
        timed() {
            local start=$SECONDS
            "$@" >"$scratch/out" 2>"$scratch/err"
            local status=$?
            echo "  $((SECONDS - start)) s (exit $status): $*"
            grep -h '^    Finished' "$scratch/err" | sed 's/^ */    /'
        }
        echo "$commit"
        timed cargo run --release --bin seozoom -- --sandbox --format table keywords metrics --keyword "scarpe running" --keyword "mutuo casa"
        timed cargo test --workspace
        grep -h '^test result' "$scratch/out" |
            awk '{p += $4; f += $6; i += $8} END {print "    tests: " p " passed, " f " failed, " i " ignored"}'
    )
    rm -rf "$scratch"
done

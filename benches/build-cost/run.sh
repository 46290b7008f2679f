#!/usr/bin/env bash
# Compile cost of seozoom for its users (BENCHMARKS.md, "Build cost"): a release
# binary making one call through seozoom, against the same binary written on
# reqwest + serde + serde_json + tokio. Each is built from a clean target
# directory, one right after the other, with `--timings`. Run it on a quiet
# machine: the figures are wall-clock times.
#
#   bash benches/build-cost/run.sh [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-1}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export CARGO_INCREMENTAL=0
for dir in plain with-seozoom; do
    (cd "$here/$dir" && cargo generate-lockfile -q && cargo fetch -q)
done
build() {
    local dir=$1 target="$scratch/$1"
    rm -rf "$target"
    local start end
    start=$(date +%s%N)
    # A consumer that does not build would be timed as a quick failure.
    (cd "$here/$dir" && CARGO_TARGET_DIR="$target" cargo build --release -q --timings) ||
        { echo "the $dir consumer does not build" >&2; exit 1; }
    end=$(date +%s%N)
    cp "$target"/cargo-timings/cargo-timing.html "$scratch/$dir-timing.html" 2>/dev/null || true
    echo $(((end - start) / 1000000))
}
for round in $(seq "$rounds"); do
    plain=$(build plain)
    with=$(build with-seozoom)
    python3 -c "import sys; p, w = int(sys.argv[1]) / 1000, int(sys.argv[2]) / 1000; print(f'round {sys.argv[3]}: plain {p:.1f} s, with seozoom {w:.1f} s, ratio {w / p:.2f}x')" "$plain" "$with" "$round"
    # The slowest units of the seozoom build, from cargo's timing data.
    python3 - "$scratch/with-seozoom-timing.html" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", text, re.S).group(1))
units.sort(key=lambda u: -u["duration"])
for u in units[:12]:
    kind = " (build script)" if "build-script" in u.get("target", "") or u.get("mode") == "run-custom-build" else ""
    print(f"  {u['duration']:6.1f} s  {u['name']} {u['version']}{kind}")
PY
done
for dir in plain with-seozoom; do rm -f "$here/$dir/Cargo.lock"; done

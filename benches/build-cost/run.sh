#!/usr/bin/env bash
# Compile cost of seozoom for its users (BENCHMARKS.md, "Build cost"): a release
# binary making one call through seozoom, against the same binary written on
# reqwest + serde + serde_json + tokio. Each is built from a clean target
# directory, one right after the other, with `--timings`. It prints wall-clock
# and CPU seconds: run it on a quiet machine.
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
# Wall-clock seconds, then CPU seconds (user and system, of cargo and every
# rustc and build script under it).
build() {
    local dir=$1 target="$scratch/$1"
    rm -rf "$target"
    # A consumer that does not build would be timed as a quick failure.
    python3 - "$here/$dir" "$target" <<'PY' || { echo "the $dir consumer does not build" >&2; exit 1; }
import os, resource, subprocess, sys, time
start = time.monotonic()
env = {**os.environ, "CARGO_TARGET_DIR": sys.argv[2]}
done = subprocess.run(["cargo", "build", "--release", "-q", "--timings"], cwd=sys.argv[1], env=env,
                      stderr=subprocess.DEVNULL)
wall = time.monotonic() - start
cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.exit(done.returncode) if done.returncode else print(wall, cpu.ru_utime, cpu.ru_stime)
PY
    cp "$target"/cargo-timings/cargo-timing.html "$scratch/$dir-timing.html" 2>/dev/null || true
}
for round in $(seq "$rounds"); do
    plain=$(build plain)
    with=$(build with-seozoom)
    python3 - "$round" $plain $with <<'PY'
import sys
r, (pw, pu, ps, ww, wu, ws) = sys.argv[1], map(float, sys.argv[2:])
print(f"round {r}: plain {pw:.1f} s, with seozoom {ww:.1f} s, ratio {ww / pw:.3f}x;"
      f" CPU {pu + ps:.1f} s and {wu + ws:.1f} s, ratio {(wu + ws) / (pu + ps):.3f}x")
PY
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

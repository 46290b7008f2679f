#!/usr/bin/env python3
"""Where the `seozoom` crate's LLVM IR goes (BENCHMARKS.md, "Build cost").

Emits the crate's IR before optimisation (as `cargo llvm-lines` counts it) with
v0 symbol names, so that a generic instance names its types, and prints the
share of the largest functions, of async state machines, of serde, and of the
default behaviour the crate promises, grouped by symbol name. Needs `rustfilt`
(`cargo install rustfilt`).

    python3 benches/build-cost/ir_shares.py
"""
import collections, glob, os, re, shutil, subprocess, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# First matching group wins; a symbol is matched on its whole demangled name.
GROUPS = [
    ("the cache, ledger and budgets with their store",
     r"seozoom::store::|store_use|::cached|cache_|remember|decode_hits|record_cached_hit|serve_cached"
     r"|cached_answer|CachedAnswer|::hold|budget|Budget|learned|usage|Usage|::account|ledger|Ledger"
     r"|release|admit|settle_slot|take_slot|record_with|record_hit|charge::|client::items"),
    ("drift", r"drift"),
    ("the checks that refuse before sending", r"seozoom::request|check_length|operation_table::Param|same_input"),
    ("limits, waits and retries", r"rate_limits|seozoom::wait|retry|hold_window"),
    ("the lenient decode", r"lenient|record::unknown|kept_value|Unreported|UnknownMembers|RawRow|raw_row"),
]


def functions(ll):
    """(name, lines) of every function defined in the IR file `ll`."""
    name = None
    for line in open(ll):
        if line.startswith("define "):
            name, lines = re.search(r'@"?([^"(\s]+)"?\(', line).group(1), 0
        elif name is not None:
            lines += 1
            if line.startswith("}"):
                yield name, lines
                name = None


def main():
    target = tempfile.mkdtemp()
    consumer = os.path.join(HERE, "with-seozoom")
    flags = "--emit=llvm-ir -Cno-prepopulate-passes -Cpasses=name-anon-globals -Csymbol-mangling-version=v0"
    subprocess.run(["cargo", "rustc", "-q", "--release", "-p", "seozoom", "--", *flags.split()],
                   cwd=consumer, env={**os.environ, "CARGO_TARGET_DIR": target}, check=True)
    (ll,) = glob.glob(os.path.join(target, "release", "deps", "seozoom-*.ll"))
    names, sizes = zip(*functions(ll))
    plain = subprocess.run(["rustfilt"], input="\n".join(names), capture_output=True, text=True, check=True)
    demangled = [re.sub(r"\[[0-9a-f]+\]", "", d) for d in plain.stdout.split("\n")]
    total = sum(sizes)

    def share(lines):
        return f"{100 * lines / total:5.1f}%"

    print(f"{total} lines of IR in {len(sizes)} functions")
    for lines, name in sorted(zip(sizes, demangled), reverse=True)[:5]:
        print(f"  {share(lines)}  {name[:110]}")
    machines = sum(n for d, n in zip(demangled, sizes) if re.search(r"\{closure#0\}>?$|drop_in_place::<.*\{closure", d))
    serde = sum(n for d, n in zip(demangled, sizes) if "serde" in d)
    print(f"{share(machines)}  async state machines and their drops")
    print(f"{share(serde)}  serde and serde_json")
    grouped = collections.Counter()
    for d, n in zip(demangled, sizes):
        group = next((g for g, pattern in GROUPS if "seozoom::" in d and re.search(pattern, d)), "the rest")
        grouped[group] += n
    for group, lines in grouped.most_common():
        print(f"{share(lines)}  {group}")
    shutil.rmtree(target)


if __name__ == "__main__":
    main()

"""The first-call walkthroughs of spec/other-languages.md, ready to run as written, for
.ci/publish-checks.

  readme_blocks.py README FLOW DIR

A fenced block right after `<!-- ci: FLOW file NAME -->` is written to DIR/NAME;
the block after `<!-- ci: FLOW commands -->` becomes DIR/run.sh, its lines run in
order as written. After a line that starts a server in the background
(`... --port N &`), run.sh waits until the port answers, as a reader waits for
the server's first line; on exit it stops what it started and waits for it. Fails when the flow
has no commands or more than four.
"""

import os
import re
import sys

MARKER = re.compile(r"<!-- ci: (\w+) (commands|file ([\w.-]+)) -->\n```\w*\n(.*?)```", re.S)
MAX_COMMANDS = 4


def main(readme, flow, out):
    text = open(readme).read()
    commands = None
    files = 0
    for name, kind, filename, body in MARKER.findall(text):
        if name != flow:
            continue
        if kind == "commands":
            commands = [line for line in body.splitlines() if line.strip()]
        else:
            with open(os.path.join(out, filename), "w") as f:
                f.write(body)
            files += 1
    if not commands:
        sys.exit(f"{readme}: no `<!-- ci: {flow} commands -->` block")
    if len(commands) > MAX_COMMANDS:
        sys.exit(f"{readme}: the {flow} walkthrough has {len(commands)} commands, more than {MAX_COMMANDS}")
    # On exit, stop what the flow started and wait until it has gone: the next
    # flow's server takes the same port, and a check of that port must not be
    # answered by this one while it shuts down.
    script = ["set -euo pipefail", "trap 'kill $(jobs -p) 2>/dev/null || true; wait' EXIT"]
    for line in commands:
        script.append(f"echo '$ '{quote(line)}")
        script.append(line)
        port = re.search(r"--port (\d+)\s*&\s*$", line)
        if port:
            script.append(
                f"until (exec 3<>/dev/tcp/127.0.0.1/{port.group(1)}) 2>/dev/null; do sleep 0.2; done"
            )
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write("\n".join(script) + "\n")
    print(f"{readme} ({flow}): {len(commands)} commands, {files} files")


def quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])

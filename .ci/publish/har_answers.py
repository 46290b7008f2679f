"""What a schemathesis run received, from its HAR report, for .ci/publish-checks.

  har_answers.py HAR [--no-units-refusal] [--bodies-of MEDIA_TYPE]

Prints the answers by status. Fails when the report holds no answer, and:

- with `--no-units-refusal`, when any answer is a 403: the sandbox answers
  403 only when its balance cannot cover a call, and such a case tests
  nothing (the run must start the sandbox with a balance it does not spend);
- with `--bodies-of MEDIA_TYPE`, when no 200 answer came labelled
  MEDIA_TYPE: the run's body checks then had nothing to check.
"""

import collections
import json
import sys

UNITS_REFUSAL = 403


def main(har, no_units_refusal=False, media=None):
    entries = json.load(open(har))["log"]["entries"]
    if not entries:
        sys.exit(f"{har}: no answer recorded")
    statuses = collections.Counter(e["response"]["status"] for e in entries)
    labelled = sum(
        1
        for e in entries
        if e["response"]["status"] == 200
        and media is not None
        and any(
            h["name"].lower() == "content-type" and h["value"].split(";")[0].strip() == media
            for h in e["response"]["headers"]
        )
    )
    shown = ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items()))
    print(f"{len(entries)} answers: {shown}")
    if no_units_refusal and statuses[UNITS_REFUSAL]:
        sys.exit(f"{statuses[UNITS_REFUSAL]} answers were 403: the sandbox ran out of units")
    if media is not None:
        if not labelled:
            sys.exit(f"no 200 answer labelled {media}: no body was checked")
        print(f"{labelled} answers of 200 labelled {media}, each body checked against its schema")


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    har, rest = args[0], args[1:]
    no_units = "--no-units-refusal" in rest
    media = rest[rest.index("--bodies-of") + 1] if "--bodies-of" in rest else None
    main(har, no_units, media)

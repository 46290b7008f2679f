"""Pydantic models from datamodel-code-generator decode every sandbox answer in
strict mode, for .ci/publish-checks.

  pydantic_models.py ACTIONS_DIR BODIES_DIR WORK_DIR

For each per-action document in ACTIONS_DIR, generate pydantic v2 models
(`datamodel-codegen --input-file-type openapi`, into WORK_DIR; a warning
fails), then decode every sandbox answer of that action written by the Rust
test (BODIES_DIR/GROUP.ACTION.N.json) with the action's envelope model, and
every "no match" answer (BODIES_DIR/no_data/GROUP.ACTION.json) with the error
model, each with `model_validate_json(..., strict=True)`. A decoded body must
write back what it read (`model_dump(by_alias=True, exclude_unset=True)`), so
nothing was dropped.

The sandbox writes some integers as integral floats (`12.0`), as the service
does; the bodies must hold some, or the check would not test what it is for.
"""

import glob
import importlib
import json
import os
import subprocess
import sys

from actions import load


class Floats:
    """Counts the integral floats of the bodies it parses."""

    def __init__(self):
        self.integral = 0

    def parse(self, text):
        value = float(text)
        if value.is_integer():
            self.integral += 1
        return value


def generate(action, work):
    module = "models_" + action.operation_id
    run = subprocess.run(
        ["datamodel-codegen", "--input", action.path, "--input-file-type", "openapi",
         "--output-model-type", "pydantic_v2.BaseModel", "--formatters", "builtin",
         "--output", os.path.join(work, module + ".py")],
        capture_output=True, text=True,
    )
    if run.returncode != 0 or "warn" in (run.stdout + run.stderr).lower():
        sys.exit(f"{action}: datamodel-codegen:\n{run.stdout}{run.stderr}")
    return importlib.import_module(module)


def decode(action, model, path, floats):
    text = open(path).read()
    try:
        decoded = model.model_validate_json(text, strict=True)
    except Exception as error:  # pydantic's ValidationError, with every member named
        sys.exit(f"{action}: {model.__name__} refuses {path} in strict mode:\n{error}")
    body = json.loads(text, parse_float=floats.parse)
    back = decoded.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if back != body:
        sys.exit(f"{action}: {model.__name__} does not write back {path}:\n{back}\n{body}")


def main(actions_dir, bodies, work):
    os.makedirs(work, exist_ok=True)
    sys.path.insert(0, work)
    floats = Floats()
    answers = no_match = 0
    for action in load(actions_dir):
        models = generate(action, work)
        name = os.path.basename(action.path).removesuffix(".openapi.json")
        paths = sorted(glob.glob(os.path.join(bodies, f"{name}.*.json")))
        if not paths:
            sys.exit(f"{action}: no sandbox answer in {bodies}")
        for path in paths:
            decode(action, getattr(models, action.model), path, floats)
            answers += 1
        path = os.path.join(bodies, "no_data", f"{name}.json")
        if os.path.exists(path):
            decode(action, getattr(models, action.error_model), path, floats)
            no_match += 1
    if floats.integral == 0:
        sys.exit("no integral float in the sandbox's answers: the check tests nothing")
    print(
        f"pydantic strict: {answers} answers and {no_match} no-match answers decoded, "
        f"{floats.integral} integral floats among them"
    )


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])

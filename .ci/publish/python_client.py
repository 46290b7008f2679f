"""The Python client that openapi-python-client generated imports, and reads the
published examples, for .ci/publish-checks.

  python_client.py PACKAGE OPENAPI

Imports every module of PACKAGE, then for every action of OPENAPI builds the
envelope model named in `x-actions` from the action's example (`from_dict`) and
checks that it writes the same JSON back (`to_dict`).
"""

import importlib
import json
import pkgutil
import sys


def main(package, openapi):
    root = importlib.import_module(package)
    modules = [m.name for m in pkgutil.walk_packages(root.__path__, package + ".")]
    for name in modules:
        importlib.import_module(name)
    models = importlib.import_module(package + ".models")
    doc = json.load(open(openapi))
    count = 0
    for path, item in sorted(doc["paths"].items()):
        op = item["get"]
        examples = op["responses"]["200"]["content"]["application/json"]["examples"]
        for action, entry in op["x-actions"].items():
            schema = entry["response"]["$ref"].rsplit("/", 1)[1]
            value = examples[action]["value"]
            model = getattr(models, schema).from_dict(value)
            if model.to_dict() != value:
                sys.exit(f"{path} {action}: {schema} does not write its example back")
            count += 1
    print(f"{package}: {len(modules)} modules imported, {count} examples read and written back")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

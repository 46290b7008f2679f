"""Examples of the published OpenAPI documents, for .ci/publish-checks.

  examples.py split OPENAPI DIR   write each 200 example to DIR/GROUP.ACTION.json and
                                  each 400 example to DIR/no_data/GROUP.json
  examples.py typescript OPENAPI  print a TypeScript module that assigns every 200
                                  example to the type openapi-typescript made for its
                                  action's envelope (and to the operation's response
                                  type), so that `tsc --strict` checks them

Only the standard library; the schemas are checked by check-jsonschema and tsc.
"""

import json
import os
import sys


def operations(doc):
    for path, item in sorted(doc["paths"].items()):
        op = item["get"]
        group = path.rstrip("/").rsplit("/", 1)[1]
        yield path, group, op


def split(openapi, out):
    doc = json.load(open(openapi))
    os.makedirs(os.path.join(out, "no_data"), exist_ok=True)
    count = 0
    for _, group, op in operations(doc):
        examples = op["responses"]["200"]["content"]["application/json"]["examples"]
        for action in op["x-actions"]:
            with open(os.path.join(out, f"{group}.{action}.json"), "w") as f:
                json.dump(examples[action]["value"], f)
            count += 1
        no_data = op["responses"]["400"]["content"]["application/json"]["examples"]
        with open(os.path.join(out, "no_data", f"{group}.json"), "w") as f:
            json.dump(no_data["no_data"]["value"], f)
    print(f"{openapi}: {count} action examples")


def typescript(openapi):
    doc = json.load(open(openapi))
    lines = ['import type { components, paths } from "./schema";', ""]
    for path, group, op in operations(doc):
        examples = op["responses"]["200"]["content"]["application/json"]["examples"]
        for action, entry in op["x-actions"].items():
            schema = entry["response"]["$ref"].rsplit("/", 1)[1]
            name = f"{group}_{action}"
            value = json.dumps(examples[action]["value"], indent=2)
            lines.append(f'export const {name}: components["schemas"]["{schema}"] = {value};')
            lines.append(
                f'export const {name}_response: paths["{path}"]["get"]["responses"][200]'
                f'["content"]["application/json"] = {name};'
            )
    print("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "split":
        split(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "typescript":
        typescript(sys.argv[2])
    else:
        sys.exit(__doc__)

"""Clients from @hey-api/openapi-ts and orval for one action of each group,
with the settings spec/other-languages.md gives them, for .ci/publish-checks.

  typescript_generators.py README ACTIONS_DIR OUT_DIR BASE_URL NAME=NODE,OPENAPI_TS,ORVAL...

Each NAME=NODE,OPENAPI_TS,ORVAL is one release of each generator (the pinned
ones, today's), run by that Node binary from those scripts. For one action of
each group (its first that takes a list, else its first), from its per-action
document, and for each release:

- generates a @hey-api/openapi-ts client (`openapi-ts ... -c @hey-api/client-fetch`)
  and an orval fetch client (`orval --config`, with the `override` of the
  README's orval configuration and its mutator file, `seozoom-fetch.ts`),
  as the README does;
- writes OUT_DIR/calls.ts, which calls the action through both with the
  example query (lists of two values) and the README's settings: the
  `client.setConfig({...})` of its hey-api program, verbatim, and its orval
  mutator, verbatim but for the sandbox's URL. Run (`node out/calls.js NAME`),
  it checks that the URL each client hands to `fetch` carries every list as
  one `|`-joined value, and that each answer is 200, decoded as JSON (an
  object, not a string) into the action's envelope, with every list value
  answered;
- and shows what the settings are for: a hey-api client without `parseAs`
  gets the body as a string, and the URL an orval client builds without the
  README's `override` (repeated keys from orval 7, a comma-joined value from
  orval 8) gets a 400 from the sandbox.

`tsc --strict` compiles everything once (the shell script runs it). Nothing
here names an action or a parameter.
"""

import json
import os
import re
import subprocess
import sys

from actions import load

README_URL = "http://127.0.0.1:18080"
BLOCK = re.compile(r"<!-- ci: (\w+) file ([\w.-]+) -->\n```\w*\n(.*?)```", re.S)
SEPARATOR = "|"


def readme_files(readme):
    return {(flow, name): body for flow, name, body in BLOCK.findall(open(readme).read())}


def hey_settings(files):
    """The object the README's hey-api program gives `client.setConfig`."""
    programs = [body for (flow, name), body in files.items() if flow == "heyapi" and name.endswith(".ts")]
    for body in programs:
        found = re.search(r"client\.setConfig\((\{.*?\})\);", body, re.S)
        if found:
            return found.group(1)
    sys.exit("spec/other-languages.md: no `client.setConfig({...});` in the hey-api program")


def orval_override(files, out, node):
    """The `override` of the README's orval configuration, as node reads it,
    and the files it names: (override, {file: text})."""
    configs = [(name, body) for (flow, name), body in files.items() if flow == "orval" and name.startswith("orval.config")]
    if len(configs) != 1:
        sys.exit("spec/other-languages.md: not one orval configuration")
    name, body = configs[0]
    path = os.path.join(out, name)
    with open(path, "w") as f:
        f.write(body)
    read = "const c = require(process.argv[1]); console.log(JSON.stringify(Object.values(c)[0].output.override));"
    done = subprocess.run([node, "-e", read, os.path.abspath(path)], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"spec/other-languages.md: {name}: {done.stderr}")
    os.remove(path)
    override = json.loads(done.stdout)
    named = {v["path"] for v in override.values() if isinstance(v, dict) and "path" in v}
    if not named:
        sys.exit(f"spec/other-languages.md: {name} names no mutator file")
    texts = {}
    for file in named:
        text = files.get(("orval", file))
        if text is None or README_URL not in text:
            sys.exit(f"spec/other-languages.md: no orval file {file} naming {README_URL}")
        texts[file] = text
    return override, texts


def camel(operation_id):
    head, *rest = operation_id.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def chosen(actions):
    """One action per group: its first that takes a list, else its first."""
    picks = {}
    for action in actions:
        has_list = any(p["schema"].get("type") == "array" for p in action.params)
        current = picks.get(action.group)
        if current is None or (has_list and not current[1]):
            picks[action.group] = (action, has_list)
    return [a for a, _ in picks.values()]


def run(command, cwd):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)}:\n{done.stdout}{done.stderr}")


def releases(specs):
    """NAME=NODE,OPENAPI_TS,ORVAL arguments as (name, node, openapi_ts, orval)."""
    found = []
    for spec in specs:
        name, _, tools = spec.partition("=")
        parts = tools.split(",")
        if not re.fullmatch(r"\w+", name) or len(parts) != 3:
            sys.exit(f"not NAME=NODE,OPENAPI_TS,ORVAL: {spec}")
        found.append((name, *parts))
    return found


HEADER = """// Generated by .ci/publish/typescript_generators.py. Run: node out/calls.js RELEASE
{imports}

const BASE_URL = {base_url};

function fail(message: string): never {{
  throw new Error(message);
}}

// Every URL a client hands to fetch, as it goes on the wire.
const sent: string[] = [];
const wireFetch = globalThis.fetch;
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {{
  sent.push(input instanceof Request ? input.url : String(input));
  return wireFetch(input, init);
}}) as typeof fetch;

/** The last request's query carries each list once, its values joined by `|`. */
function expectWire(what: string, lists: Record<string, string[]>): void {{
  const url = sent[sent.length - 1] ?? fail(`${{what}}: nothing sent`);
  const query = new URL(url).searchParams;
  for (const [name, values] of Object.entries(lists)) {{
    const got = query.getAll(name);
    if (got.length !== 1 || got[0] !== values.join({separator})) {{
      fail(`${{what}}: ${{name}} went out as ${{JSON.stringify(got)}}, not ${{JSON.stringify(values.join({separator}))}}: ${{url}}`);
    }}
  }}
}}

/** The body decoded as JSON (an object), of the action's envelope, with every list value answered. */
function expectEnvelope(what: string, status: number | undefined, data: unknown, values: string[]): void {{
  if (status !== 200) fail(`${{what}}: HTTP ${{status}}: ${{JSON.stringify(data)}}`);
  if (typeof data !== "object" || data === null) fail(`${{what}}: the body is ${{typeof data}}, not JSON`);
  const envelope = data as {{ response?: unknown; ResultRows?: unknown }};
  if (!Array.isArray(envelope.response) || typeof envelope.ResultRows !== "number") {{
    fail(`${{what}}: not an envelope: ${{JSON.stringify(data).slice(0, 200)}}`);
  }}
  const text = JSON.stringify(envelope.response);
  for (const value of values) {{
    if (!text.includes(value)) fail(`${{what}}: ${{value}} not answered: ${{text.slice(0, 300)}}`);
  }}
}}
"""

CALL = """
async function {fn}(): Promise<void> {{
  hey_{fn}.setConfig({settings});
  hey_{fn}.setConfig({{ baseUrl: BASE_URL }});
  const hey = await heyCall_{fn}({{ query: {query} }});
  expectWire("hey-api {label}", {lists});
  const heyData: hey_{fn}_types.{model} | undefined = hey.data;
  expectEnvelope("hey-api {label}", hey.response?.status, heyData, {values});

  const orval = await orvalCall_{fn}({query});
  expectWire("orval {label}", {lists});
  if (orval.status === 200) {{
    const orvalData: orval_{fn}.{model} = orval.data;
    expectEnvelope("orval {label}", orval.status, orvalData, {values});
  }} else {{
    fail(`orval {label}: HTTP ${{orval.status}}: ${{JSON.stringify(orval.data)}}`);
  }}
  console.log("{label}: @hey-api/openapi-ts and orval, lists |-joined on the wire, 200, JSON rows");
}}
"""

# What the settings are for, shown on the first action that takes a list.
WITHOUT = """
async function {fn}(): Promise<void> {{
  // hey-api follows the answer's Content-Type (`text/html`): without `parseAs` the body is a string.
  const plain = createHeyClient_{fn}(createHeyConfig_{fn}({{ baseUrl: BASE_URL, auth: () => "sandbox" }}));
  const hey = await heyCall_{fn}({{ client: plain, query: {query} }});
  if (typeof hey.data !== "string") fail(`hey-api {release} without parseAs: ${{typeof hey.data}}`);
  // The URL orval builds without the README's override: the sandbox refuses its lists.
  const raw = await fetch(`${{BASE_URL}}${{orvalUrl_{fn}({query})}}&api_key=sandbox`);
  const body = await raw.text();
  if (raw.status !== 400) fail(`orval {release} without its override: HTTP ${{raw.status}}: ${{body}}`);
  console.log(`{release}, without the settings: hey-api reads a string, orval's lists get a 400 (${{body}})`);
}}
"""

MAIN = """
const RELEASES: Record<string, () => Promise<void>> = {{
{releases}
}};

async function main(): Promise<void> {{
  const release = (globalThis as unknown as {{ process: {{ argv: string[] }} }}).process.argv[2];
  const calls = RELEASES[release] ?? fail(`no release ${{release}}; one of ${{Object.keys(RELEASES)}}`);
  await calls();
}}
main().catch((error: unknown) => {{
  console.error(error);
  (globalThis as unknown as {{ process: {{ exitCode: number }} }}).process.exitCode = 1;
}});
"""


def generate(release, picks, files, out, base_url):
    """Generate both clients of one release into OUT/NAME; the TypeScript that calls them."""
    name, node, openapi_ts, orval = release
    home = os.path.join(out, name)
    os.makedirs(home, exist_ok=True)
    settings = hey_settings(files)
    override, mutators = orval_override(files, home, node)
    for file, text in mutators.items():
        with open(os.path.join(home, file), "w") as f:
            f.write(text.replace(README_URL, base_url))

    config, imports, bodies, calls = {}, [], [], []
    for action in picks:
        i = action.operation_id
        fn = camel(i)
        run([node, openapi_ts, "-s", "-i", os.path.abspath(action.path), "-o", f"hey/{i}", "-c", "@hey-api/client-fetch"], home)
        config[i] = {
            "input": {"target": os.path.abspath(action.path)},
            "output": {"target": f"orval/{i}.ts", "client": "fetch", "override": override},
        }
        tag = f"{name}_{fn}"
        imports += [
            f'import {{ client as hey_{tag} }} from "./{name}/hey/{i}/client.gen";',
            f'import {{ {fn} as heyCall_{tag} }} from "./{name}/hey/{i}/sdk.gen";',
            f'import type * as hey_{tag}_types from "./{name}/hey/{i}/types.gen";',
            f'import {{ {fn} as orvalCall_{tag} }} from "./{name}/orval/{i}";',
            f'import type * as orval_{tag} from "./{name}/orval/{i}";',
        ]
        fixed, value = action.fixed()
        query = dict({fixed: value}, **action.example_query())
        lists = {k: v for k, v in query.items() if isinstance(v, list)}
        bodies.append(
            CALL.format(
                fn=tag,
                label=f"{name} {i}",
                settings=settings,
                query=json.dumps(query),
                lists=json.dumps(lists),
                model=action.model,
                values=json.dumps([item for v in lists.values() for item in v]),
            )
        )
        calls.append(f"await {tag}();")

    # One client of the first action that takes a list, without the README's override.
    first = next(a for a in picks if any(isinstance(v, list) for v in a.example_query().values()))
    i = first.operation_id
    fn = camel(i)
    config[f"{i}_plain"] = {
        "input": {"target": os.path.abspath(first.path)},
        "output": {"target": f"orval-plain/{i}.ts", "client": "fetch"},
    }
    with open(os.path.join(home, "orval.config.cjs"), "w") as f:
        f.write("module.exports = " + json.dumps(config, indent=2) + ";\n")
    run([node, orval, "--config", "orval.config.cjs"], home)

    fixed, value = first.fixed()
    query = dict({fixed: value}, **first.example_query())
    tag = f"{name}_without"
    imports += [
        f'import {{ createClient as createHeyClient_{tag}, createConfig as createHeyConfig_{tag} }} from "./{name}/hey/{i}/client";',
        f'import {{ {fn} as heyCall_{tag} }} from "./{name}/hey/{i}/sdk.gen";',
        f'import {{ get{fn[:1].upper() + fn[1:]}Url as orvalUrl_{tag} }} from "./{name}/orval-plain/{i}";',
    ]
    bodies.append(WITHOUT.format(fn=tag, release=name, query=json.dumps(query)))
    calls.append(f"await {tag}();")
    calls.append(f'console.log("{name}: @hey-api/openapi-ts and orval called {len(picks)} actions against the sandbox");')
    entry = f"  {name}: async () => {{\n" + "".join(f"    {c}\n" for c in calls) + "  },"
    return imports, bodies, entry



def main(readme, actions_dir, out, base_url, *specs):
    if not specs:
        sys.exit(__doc__)
    files = readme_files(readme)
    picks = chosen(load(actions_dir))
    if len(picks) < 4:
        sys.exit(f"only {len(picks)} actions picked; the check wants at least 4")
    os.makedirs(out, exist_ok=True)
    imports, bodies, entries = [], [], []
    for release in releases(specs):
        more_imports, more_bodies, entry = generate(release, picks, files, out, base_url)
        imports += more_imports
        bodies += more_bodies
        entries.append(entry)
    with open(os.path.join(out, "calls.ts"), "w") as f:
        f.write(HEADER.format(imports="\n".join(imports), base_url=json.dumps(base_url), separator=json.dumps(SEPARATOR)))
        f.write("".join(bodies))
        f.write(MAIN.format(releases="\n".join(entries)))
    names = ", ".join(r[0] for r in releases(specs))
    print(f"{out}/calls.ts: {len(picks)} actions ({', '.join(a.operation_id for a in picks)}), two generators each, releases {names}")


if __name__ == "__main__":
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    main(*sys.argv[1:])

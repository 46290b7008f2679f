// The official MCP TypeScript SDK as an agent's client of `seozoom mcp`, over
// stdio and over streamable HTTP (--http), against a strict sandbox
// (`seozoom sandbox --strict`) whose rate window is lowered to 4 s.
//
// Usage: node agent_client.mjs SEOZOOM_BINARY
//
// For each transport:
//   1. a 1,800-keyword call fills 18 of the 20 slots of `keywords metrics` in
//      the window; then a 3,000-keyword job (30 requests) is called with a
//      progress handler: its first two requests go at once, the third waits
//      for the window. The progress notifications count the requests (of 30)
//      and name the wait; after the second the client cancels (the SDK sends
//      notifications/cancelled). Once a window has passed, the strict
//      sandbox's log shows at most one more request than the two; `more` with
//      no arguments lists the rows paid for, and `more` hands them out;
//      `usage` counts only the requests sent. The sandbox answered no 429.
//   2. edge inputs, each followed by a `ping` that still answers: a
//      70,000-character keyword and a number in a keyword list (tool errors
//      naming `keyword`), and over HTTP a body that is not JSON (-32700);
//      The held result's `resume` is a handle (`{resume: ID}`) and the
//      resource `seozoom://held/ID/missing` the keywords not answered; called
//      with the handle, the tool sends exactly the missing requests; `usage`
//      stays under 4 KB.
//   3. a call, then the same call in a second session on one SQLite store:
//      from_cache true and 0 units, and `usage` shows the key's cache hit and
//      the balance last reported;
//   4. `fields` and resources: a 50-row call with two fields answers 20 rows
//      (the default cap) of exactly those columns, valid against the tool's
//      outputSchema (the SDK checks), a text that is a summary and a table,
//      and a `resource_link` to the held rows; the server said the resource
//      list changed, and `resources/read` of the link gives all 50 rows with
//      every column; `more` hands out the next ones with the two columns;
//   5. `max_wait_s`: a 21-request job whose last request would wait for the
//      rate window past `max_wait_s` stops there in an answer under 4 KB whose
//      `resume` is a handle, its text naming it and a larger `max_wait_s`,
//      its rows held with the same handle; called with the handle and a
//      longer bound, the tool sends exactly the last 100 keywords;
//   6. over --http, two sessions of one server kept apart: `usage` at the top
//      level is each session's own (the second, which sent nothing, counts
//      nothing; `process` counts the first's call), and the second neither
//      lists nor reads (`more`, `resources/read`) the first's held result,
//      whose id is unguessable; and a prompt listed and filled in;
//   8. schemas that teach, against a drifting sandbox (`seozoom sandbox
//      --drift`): `fields` of `domains_keywords` has a description and lists
//      the output schema's row names (`items.anyOf[0].enum`), `type` says
//      what each value means; a call whose `fields` name `drift_metric` (a
//      member the spec does not know) gets that column, and a misspelt one is
//      refused naming the tool and the names there are;
//   7. `mcp --confirm-over 100`: a 300-keyword call is refused before sending
//      to a client without elicitation; a client with it is asked
//      (`elicitation/create`): declined, nothing is sent or charged; accepted,
//      the call goes.
//
// Exits non-zero on the first failed check.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema, ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const bin = process.argv[2];
// Long enough that the 18-request filler ends inside the window on a loaded
// machine, so that the job's third request waits for it.
const WINDOW_SECS = 8;
const children = [];

function check(condition, message) {
  if (!condition) {
    throw new Error(`check failed: ${message}`);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const keywords = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);

/** Spawn `seozoom ARGS`; resolves with the child once it printed its first stdout line. */
function spawnServing(args, onStderrLine) {
  const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  createInterface({ input: child.stderr }).on("line", onStderrLine ?? ((line) => process.stderr.write(`${line}\n`)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", (line) => resolve({ child, url: line.trim() }));
    child.once("exit", (code) => reject(new Error(`seozoom ${args.join(" ")} exited with ${code}`)));
  });
}

/** A strict sandbox, and the requests its log says it received. */
async function strictSandbox() {
  let received = 0;
  let refused = 0;
  const { child, url } = await spawnServing(
    ["sandbox", "--strict", "--port", "0", "--rate-window", String(WINDOW_SECS)],
    (line) => {
      const count = /^sandbox: (\d+) request\(s\) received so far/.exec(line);
      if (count) received = Number(count[1]);
      if (/refused with 429/.test(line)) refused += 1;
    },
  );
  // The log is written every 200 ms: wait for it to settle.
  const requests = async () => {
    await sleep(500);
    return received;
  };
  return { url, requests, refused: () => refused, stop: () => child.kill() };
}

/** An MCP session with `seozoom GLOBAL mcp` over `transport`. */
async function connect(transport, global) {
  const client = new Client({ name: "seozoom-ci-agent", version: "1.0.0" });
  if (transport === "stdio") {
    await client.connect(
      new StdioClientTransport({ command: bin, args: [...global, "mcp"], stderr: "inherit" }),
    );
    return { client, close: () => client.close() };
  }
  const { child, url } = await spawnServing([...global, "mcp", "--http", "127.0.0.1:0"]);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    client,
    url,
    close: async () => {
      await client.close();
      child.kill();
    },
  };
}

async function structured(client, name, args) {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  check(!result.isError, `${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

async function cancelStopsSpending(transport) {
  const sandbox = await strictSandbox();
  const { client, close } = await connect(transport, [
    "--base-url", sandbox.url, "--api-key", "sandbox",
    "--rate-window", String(WINDOW_SECS), "--store", "none",
  ]);
  const filler = await structured(client, "keywords_metrics", { keyword: keywords("filler", 1800) });
  check(filler.rows.total === 1800, `filler rows: ${JSON.stringify(filler.rows)}`);
  check((await sandbox.requests()) === 18, "the filler is 18 requests");

  const progress = [];
  const controller = new AbortController();
  let outcome;
  try {
    await client.callTool(
      { name: "keywords_metrics", arguments: { keyword: keywords("kw", 3000) } },
      undefined,
      {
        signal: controller.signal,
        timeout: 120_000,
        onprogress: (p) => {
          progress.push(p);
          if (progress.length === 2) controller.abort("the agent gave up");
        },
      },
    );
    outcome = "answered";
  } catch (error) {
    outcome = `cancelled: ${error}`;
  }
  check(outcome.startsWith("cancelled"), `the call was ${outcome}`);
  check(progress.length >= 2, `progress: ${JSON.stringify(progress)}`);
  check(progress[1].progress === 2 && progress[1].total === 30, `progress: ${JSON.stringify(progress[1])}`);
  check(/waiting \d+ s for the rate window/.test(progress[1].message ?? ""), `message: ${progress[1].message}`);

  let stopped;
  for (let i = 0; i < 50 && !stopped; i += 1) {
    const listed = await structured(client, "more", {});
    stopped = (listed.held ?? []).find((h) => h.complete === false);
    if (!stopped) await sleep(100);
  }
  check(stopped, "the rows of the cancelled job are held");
  // A whole window passes: a request the cancel did not stop would go now.
  await sleep(WINDOW_SECS * 1000 + 500);
  const sent = (await sandbox.requests()) - 18;
  check(sent >= 2 && sent <= 3, `${sent} requests of the job were sent after a cancel at the second`);
  check(stopped.items === sent * 100, `held: ${JSON.stringify(stopped)}`);
  const rows = await structured(client, "more", { result: stopped.result, start: 0, count: 20 });
  check(rows.rows.total === sent * 100 && rows.response.length === 20, `more: ${JSON.stringify(rows.rows)}`);
  const usage = await structured(client, "usage", {});
  check(usage.calls === 18 + sent, `usage calls: ${JSON.stringify(usage)}`);
  check(usage.units_used === filler.UnitsUsed + stopped.units, `usage units: ${JSON.stringify(usage)}`);
  // Resume with exactly the missing part.
  const missing = keywords("kw", 3000).slice(sent * 100);
  check(JSON.stringify(stopped.resume) === JSON.stringify({ resume: stopped.result }) && stopped.missing === missing.length, `resume: ${JSON.stringify(stopped).slice(0, 300)}`);
  const listed = JSON.parse((await client.readResource({ uri: `seozoom://held/${stopped.result}/missing` })).contents[0].text);
  check(JSON.stringify(listed.arguments) === JSON.stringify({ keyword: missing }), `missing: ${JSON.stringify(listed).slice(0, 200)}`);
  check(JSON.stringify(usage).length < 4096, `usage is small: ${JSON.stringify(usage).length} bytes`);
  const resumed = await structured(client, "keywords_metrics", stopped.resume);
  check(resumed.rows.total === missing.length, `resumed: ${JSON.stringify(resumed.rows)}`);
  check((await sandbox.requests()) - 18 - sent === 30 - sent, "the resume sent exactly the missing requests");
  check(sandbox.refused() === 0, "the strict sandbox answered 429");
  await close();
  sandbox.stop();
  console.log(`${transport}: progress ${progress.map((p) => `"${p.message}"`).join(", ")}; cancel after 2 requests, ${sent} sent; ${stopped.items} rows held for more; usage ${usage.units_used} units`);
}

async function edgeInputs(transport) {
  const { client, close, url } = await connect(transport, ["--sandbox", "--store", "none"]);
  const refused = async (args, pieces) => {
    const result = await client.callTool({ name: "keywords_metrics", arguments: args });
    const text = result.content.map((c) => c.text).join("\n");
    check(result.isError === true, `not refused: ${text.slice(0, 200)}`);
    for (const piece of pieces) check(text.includes(piece), `${piece} not in ${text.slice(0, 300)}`);
    await client.ping();
  };
  await refused({ keyword: ["x".repeat(70_000)] }, ["`keyword`", "32768", "Nothing was sent"]);
  await refused({ keyword: ["scarpe", 42] }, ["`keyword`", "42"]);
  if (url) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: '{"jsonrpc": "2.0", "id": 1, "method": ',
    });
    const body = await response.json();
    check(response.status === 400 && body.error?.code === -32700 && body.id === null, `malformed body: ${JSON.stringify(body)}`);
    await client.ping();
  }
  await close();
  console.log(`${transport}: edge inputs refused, naming the parameter${url ? ", -32700 for a body that is not JSON" : ""}; ping still answers`);
}

async function cacheAcrossSessions(transport) {
  const dir = mkdtempSync(join(tmpdir(), "seozoom-mcp-"));
  // One service for both sessions: the cache is kept per origin, and each
  // `--sandbox` run would start a sandbox on a port of its own.
  const sandbox = await spawnServing(["sandbox", "--port", "0"]);
  const global = [
    "--base-url", sandbox.url, "--api-key", "sandbox",
    "--store", `sqlite:${join(dir, "store.sqlite3")}`,
  ];
  const args = { keyword: ["scarpe running", "mutuo casa"] };
  try {
    const first = await connect(transport, global);
    const paid = await structured(first.client, "keywords_metrics", args);
    check(paid.from_cache === false && paid.UnitsUsed > 0, `first: ${JSON.stringify(paid)}`);
    await first.close();
    const second = await connect(transport, global);
    const cached = await structured(second.client, "keywords_metrics", args);
    check(cached.from_cache === true && cached.UnitsUsed === 0, `second: ${JSON.stringify(cached)}`);
    let usage;
    for (let i = 0; i < 30; i += 1) {
      usage = await structured(second.client, "usage", {});
      if (usage.key.cache_hits >= 1) break;
      await sleep(100);
    }
    check(usage.key.cache_hits >= 1, `usage: ${JSON.stringify(usage)}`);
    check(usage.key.last_balance?.units_remaining === paid.UnitsRemaining, `usage: ${JSON.stringify(usage)}`);
    check(usage.cache_hits === 1 && usage.units_used === 0, `usage: ${JSON.stringify(usage)}`);
    await second.close();
    console.log(`${transport}: a repeat call in a second session came from the store (0 units); usage shows the hit and the balance`);
  } finally {
    sandbox.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function fieldsAndResources(transport) {
  const { client, close } = await connect(transport, ["--sandbox", "--store", "none"]);
  let changed = 0;
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    changed += 1;
  });
  const fields = ["keyword", "search_volume"];
  const result = await client.callTool(
    { name: "domains_keywords", arguments: { domain: "example.it", type: "best", limit: 50, fields } },
    undefined,
    { timeout: 120_000 },
  );
  check(!result.isError, `fields: ${JSON.stringify(result.content)}`);
  const answer = result.structuredContent;
  check(answer.rows.total === 50 && answer.response.length === 20, `rows: ${JSON.stringify(answer.rows)}`);
  for (const row of answer.response) {
    check(JSON.stringify(Object.keys(row)) === JSON.stringify(fields), `row: ${JSON.stringify(row)}`);
  }
  const text = result.content.find((c) => c.type === "text")?.text ?? "";
  const lines = text.split("\n");
  check(lines[0].startsWith("domains_keywords: 50 rows (1-20 shown)."), `summary: ${lines[0]}`);
  check(lines[1] === fields.join("\t") && lines.length === 22, `table: ${text.slice(0, 300)}`);
  const link = result.content.find((c) => c.type === "resource_link");
  check(link && link.uri === `seozoom://held/${answer.more.result}`, `link: ${JSON.stringify(result.content.slice(1))}`);
  for (let i = 0; i < 20 && changed === 0; i += 1) await sleep(50);
  check(changed >= 1, "no notifications/resources/list_changed after a result was held");
  const listed = await client.listResources();
  check(listed.resources.some((r) => r.uri === link.uri), `resources/list: ${JSON.stringify(listed.resources.map((r) => r.uri))}`);
  const read = await client.readResource({ uri: link.uri });
  const whole = JSON.parse(read.contents[0].text);
  check(whole.length === 50 && Object.keys(whole[0]).length > fields.length, `read: ${read.contents[0].text.slice(0, 200)}`);
  check(whole[0].keyword === answer.response[0].keyword, "the resource's first row is the answer's");
  const rest = await structured(client, "more", { result: answer.more.result, start: answer.more.start });
  check(rest.response.length === 20 && Object.keys(rest.response[0]).length === 2, `more: ${JSON.stringify(rest.response[0])}`);
  await close();
  console.log(`${transport}: fields gave ${fields.length} columns; resource_link ${link.uri} read whole (${whole.length} rows); list_changed sent`);
}

async function maxWait(transport) {
  const { client, close } = await connect(transport, ["--sandbox", "--store", "none", "--rate-window", "6"]);
  const all = keywords("attesa", 2100);
  const result = await client.callTool(
    { name: "keywords_metrics", arguments: { keyword: all, max_wait_s: 0.5 } },
    undefined,
    { timeout: 120_000 },
  );
  const text = result.content.map((c) => c.text ?? "").join("\n");
  check(result.isError === true && text.includes("The job stopped part-way"), `max_wait_s: ${text.slice(0, 300)}`);
  check(JSON.stringify(result).length < 4096, `a small answer: ${JSON.stringify(result).length} bytes`);
  const handle = result.structuredContent?.resume;
  check(typeof handle?.resume === "string" && result.structuredContent.missing === 100, `resume: ${JSON.stringify(result.structuredContent)}`);
  check(text.includes(`call \`keywords_metrics\` with ${JSON.stringify(handle)}`) && text.includes("larger `max_wait_s`"), `no handle in: ${text.slice(0, 400)}`);
  const held = (await structured(client, "more", {})).held.find((h) => h.complete === false);
  check(held && held.items === 2000 && JSON.stringify(held.resume) === JSON.stringify(handle), `held: ${JSON.stringify(held).slice(0, 200)}`);
  // Going on by the handle, with a bound long enough for the rate window:
  // exactly the 100 keywords missing are sent.
  const resumed = await client.callTool(
    { name: "keywords_metrics", arguments: { ...handle, max_wait_s: 30 } },
    undefined,
    { timeout: 120_000 },
  );
  check(!resumed.isError && resumed.structuredContent.rows.total === 100, `resumed: ${JSON.stringify(resumed).slice(0, 300)}`);
  check(resumed.structuredContent.response[0].keyword === all[2000], `resumed from: ${JSON.stringify(resumed.structuredContent.response[0])}`);
  await close();
  console.log(`${transport}: max_wait_s 0.5 stopped a job at its 21st request; 2000 rows held; its handle sent exactly the last 100 keywords`);
}

async function sessionsKeptApart() {
  const { child, url } = await spawnServing(["--sandbox", "--store", "none", "mcp", "--http", "127.0.0.1:0"]);
  const open = async () => {
    const client = new Client({ name: "seozoom-ci-agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  };
  const a = await open();
  const b = await open();
  const paid = await structured(a, "keywords_metrics", { keyword: keywords("scarpe", 30) });
  const held = paid.more?.result;
  check(typeof held === "string" && /^r1-[0-9a-f]{32}$/.test(held), `a cut result with an unguessable id: ${JSON.stringify(paid.more)}`);
  const usageA = await structured(a, "usage", {});
  const usageB = await structured(b, "usage", {});
  check(usageA.units_used === paid.UnitsUsed && usageA.calls === 1 && usageA.held.length === 1, `usage A: ${JSON.stringify(usageA)}`);
  check(usageB.units_used === 0 && usageB.calls === 0 && usageB.held.length === 0, `usage B: ${JSON.stringify(usageB)}`);
  check(usageB.process.units_used === paid.UnitsUsed, `process-wide: ${JSON.stringify(usageB.process)}`);
  const theirs = await b.callTool({ name: "more", arguments: { result: held } });
  check(theirs.isError === true, `B read A's rows: ${JSON.stringify(theirs).slice(0, 200)}`);
  let refused = false;
  try {
    await b.readResource({ uri: `seozoom://held/${held}` });
  } catch (error) {
    refused = error.code === -32002;
  }
  check(refused, "B read A's held resource");
  // A prompt: a workflow with the budget in mind, filled in.
  const prompts = await a.listPrompts();
  check(prompts.prompts.some((p) => p.name === "keyword_research_for_domain"), `prompts: ${JSON.stringify(prompts)}`);
  const prompt = await a.getPrompt({ name: "keyword_research_for_domain", arguments: { site: "example.it", budget: "2000" } });
  const words = prompt.messages[0].content.text;
  check(words.includes("example.it") && words.includes("at most 2000 units") && words.includes("`estimate`"), `prompt: ${words}`);
  await a.close();
  await b.close();
  child.kill();
  console.log("http: each session's usage is its own; another session's held result reads as unknown; a prompt filled in");
}

async function fieldsTeach(transport) {
  const sandbox = await spawnServing(["sandbox", "--drift", "--port", "0"]);
  const { client, close } = await connect(transport, [
    "--base-url", sandbox.url, "--api-key", "sandbox", "--store", "none",
  ]);
  try {
    const { tools } = await client.listTools();
    const keywordsTool = tools.find((t) => t.name === "domains_keywords");
    const fields = keywordsTool.inputSchema.properties.fields;
    const columns = fields?.items?.anyOf?.[0]?.enum ?? [];
    const rowNames = Object.keys(keywordsTool.outputSchema.properties.response.items.properties);
    check(fields?.description && JSON.stringify(columns) === JSON.stringify(rowNames), `fields: ${JSON.stringify(fields)}`);
    check(fields.items.anyOf[1]?.type === "string", `fields takes other names: ${JSON.stringify(fields.items)}`);
    const kind = keywordsTool.inputSchema.properties.type.description;
    check(kind.includes("`withtraffic` ") && kind.includes("`bypage` "), `type: ${kind}`);
    const wanted = { keyword: ["mutuo", "casa", "scarpe"], fields: ["keyword", "drift_metric"] };
    const cut = await structured(client, "keywords_metrics", wanted);
    check(cut.response.some((row) => typeof row.drift_metric === "number"), `drift_metric: ${JSON.stringify(cut.response)}`);
    check(cut.response.every((row) => Object.keys(row).every((k) => wanted.fields.includes(k))), `columns: ${JSON.stringify(cut.response)}`);
    const typo = await client.callTool({ name: "keywords_metrics", arguments: { ...wanted, fields: ["drift_metrik"] } });
    const text = typo.content.map((c) => c.text ?? "").join("\n");
    check(typo.isError === true && text.includes("`keywords_metrics`") && text.includes("drift_metric") && text.includes("search_volume"), `typo: ${text.slice(0, 400)}`);
  } finally {
    await close();
    sandbox.child.kill();
  }
  console.log(`${transport}: fields lists the columns and took drift_metric, a member the spec does not know; a misspelt name refused`);
}

async function confirmOver() {
  const args = ["--sandbox", "--store", "none", "mcp", "--confirm-over", "100"];
  const large = { keyword: keywords("conferma", 300) };
  // A client without elicitation: refused before sending, the option named.
  const plain = new Client({ name: "seozoom-ci-agent", version: "1.0.0" });
  await plain.connect(new StdioClientTransport({ command: bin, args, stderr: "inherit" }));
  const refused = await plain.callTool({ name: "keywords_metrics", arguments: large });
  const refusedText = refused.content[0].text;
  check(refused.isError && refusedText.startsWith("Not sent") && refusedText.includes("--confirm-over 100"), `no elicitation: ${refusedText}`);
  check((await structured(plain, "usage", {})).calls === 0, "a refused call sent nothing");
  await plain.close();
  // A client with elicitation: asked; declined sends nothing, accepted sends.
  const asking = new Client({ name: "seozoom-ci-agent", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const answers = ["decline", "accept"];
  const asked = [];
  asking.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: answers.shift() };
  });
  await asking.connect(new StdioClientTransport({ command: bin, args, stderr: "inherit" }));
  const declined = await asking.callTool({ name: "keywords_metrics", arguments: large });
  check(declined.isError && declined.content[0].text.includes("declined") && declined.content[0].text.includes("Nothing was charged"), `declined: ${declined.content[0].text}`);
  check((await structured(asking, "usage", {})).units_used === 0, "a declined call charged nothing");
  const accepted = await structured(asking, "keywords_metrics", large);
  check(accepted.rows.total === 300 && accepted.UnitsUsed > 100, `accepted: ${JSON.stringify(accepted.rows)}`);
  check(asked.length === 2 && asked[0].includes("3 requests"), `asked: ${JSON.stringify(asked)}`);
  await asking.close();
  console.log(`stdio: --confirm-over 100 refused without elicitation; asked "${asked[0]}": declined sent nothing, accepted sent`);
}

try {
  await confirmOver();
  await sessionsKeptApart();
  for (const transport of ["stdio", "http"]) {
    await maxWait(transport);
    await cancelStopsSpending(transport);
    await edgeInputs(transport);
    await cacheAcrossSessions(transport);
    await fieldsAndResources(transport);
    await fieldsTeach(transport);
  }
} finally {
  for (const child of children) child.kill();
}

//! An action added to the spec appears everywhere, with no other edit.
//!
//! The test copies the workspace sources (manifests, lock file, spec, generator,
//! client, command line and this package) to a scratch directory, appends the
//! `keywords suggestions` action and its `keyword_suggestion` record
//! (`codegen/tests/fixtures/keywords-suggestions.toml`) to the copy's spec, and in
//! that copy:
//!
//! - runs the generator, whose output has the new builder `KeywordsSuggestions`, the
//!   record `KeywordSuggestion` and the accessor `client.keywords().suggestions(..)`;
//! - builds the command line (which compiles the regenerated client) and runs
//!   `seozoom --sandbox --format json keywords suggestions --keyword scarpe --limit 5`:
//!   5 rows, each with `serp_affinity`;
//! - reads `seozoom keywords suggestions --help`, which lists `--keyword` and `--limit`;
//! - lists the tools of `seozoom --sandbox mcp`, which has `keywords_suggestions`
//!   with both parameters, and calls it;
//! - builds the Python extension; `seozoom-codegen python --check` finds the
//!   committed typed surface stale, and `seozoom-codegen python` writes it
//!   anew (the step CONTRIBUTING.md lists): its stub has
//!   `def suggestions(self, keyword: str, limit: int, ...)` and the
//!   `KeywordSuggestion` TypedDict, and Python (`python3`, the package folder
//!   with the built extension beside it) calls
//!   `client.keywords.suggestions("scarpe", 5)` on a sandbox: 5 typed rows;
//! - checks that building wrote nothing into the sources, and that at the end
//!   every copied file is still byte for byte the original but the spec and
//!   the two files `seozoom-codegen python` wrote;
//! - then, in the same copy, the drift loop end to end (`spec/README.md`,
//!   "Drift"): the copy's spec claims that a project overview always sends
//!   `monitored_keywords`; a drifting sandbox (`seozoom sandbox --drift`)
//!   leaves it out and adds `drift_metric`, so the command line's
//!   `projects overview` and Python's `client.projects.overview` fail (the
//!   body is kept in the store) and the store records the drift;
//!   `seozoom drift --patch`, `seozoom-codegen apply` on the copy's spec,
//!   `seozoom-codegen diff` (breaking: the member became `Option`), and the
//!   regeneration build: `drift_metric` is a typed field in Rust and in the
//!   Python stub, and the calls that failed decode from the store, sending
//!   nothing.
//!
//! A slow test: it runs only with `SEOZOOM_SLOW_TESTS=1` (`.ci/run` sets it), and
//! is otherwise skipped with a note (a failure under `CI=true`).
//!
//! The copy builds offline from the copied `Cargo.lock` (`--frozen`) into a
//! target directory kept under this workspace's (`<target>/regeneration`), so
//! its dependencies are built once and later runs only rebuild the workspace
//! crates. It is a separate directory so that the copy's binaries never replace
//! this workspace's.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

/// This workspace's root.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

/// `<target>/tmp`, this package's scratch space.
fn scratch() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

/// Where the copy builds: beside the scratch space, under this workspace's target
/// directory, and kept between runs.
fn copy_target_dir() -> PathBuf {
    scratch().parent().map_or_else(
        || scratch().join("regeneration-target"),
        |t| t.join("regeneration"),
    )
}

/// What is copied, relative to the root: the files and directories the copy's
/// workspace needs to load and build.
const COPIED: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "spec",
    "codegen",
    "client",
    "cli",
    "mcp",
    "python",
    // Workspace members the copy's manifest lists (not built by this test).
    "tests",
    "compile-fail",
    "benches",
    "test-support",
];

const SPEC: &str = "spec/seozoom-v2.toml";

/// The Python package's typed surface, committed and written by
/// `seozoom-codegen python`.
const PYTHON_SURFACE: [&str; 2] = [
    "python/seozoom/_generated.py",
    "python/seozoom/_generated.pyi",
];

/// Files Python writes beside the sources (its byte code): neither copied nor
/// compared.
fn built_into_sources(path: &Path) -> bool {
    path.file_name().is_some_and(|name| name == "__pycache__")
}

/// Copies `from` to `to`: files by content, directories recursively (skipping
/// `target`, hidden entries and what a build writes into the sources). The tree holds no symbolic links since the
/// spec and the generator reach the client as crates.
fn copy(from: &Path, to: &Path) {
    if from.is_dir() {
        fs::create_dir_all(to).expect("directory created");
        let mut entries: Vec<_> = fs::read_dir(from)
            .expect("readable directory")
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            let name = entry.file_name().expect("a named entry");
            if name == "target"
                || name.to_string_lossy().starts_with('.')
                || built_into_sources(&entry)
            {
                continue;
            }
            copy(&entry, &to.join(name));
        }
    } else {
        fs::copy(from, to).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
}

/// Every regular file under `root` (not following links), by path relative to it.
fn contents(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in fs::read_dir(dir).expect("readable directory") {
            let path = entry.expect("directory entry").path();
            let meta = fs::symlink_metadata(&path).expect("metadata");
            if built_into_sources(&path) {
                continue;
            }
            if meta.is_dir() {
                walk(root, &path, out);
            } else if meta.is_file() {
                let relative = path.strip_prefix(root).expect("under root").to_path_buf();
                out.insert(relative, fs::read(&path).expect("readable file"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

fn run(program: impl AsRef<OsStr>, args: &[&str], dir: &Path, target: &Path) -> Output {
    let program = program.as_ref();
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        // Intermediate artifacts go with the copy's target directory too: shared
        // with this workspace's, the copy's crates (same names, same relative
        // paths) would overwrite this workspace's.
        .env_remove("CARGO_BUILD_BUILD_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        // The binary runs without a store: a test never writes to the user's
        // data directory.
        .env("SEOZOOM_STORE", "none")
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", Path::new(program).display()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn assert_success(what: &str, output: &Output) {
    assert!(
        output.status.success(),
        "{what} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        text(&output.stdout),
        text(&output.stderr)
    );
}

/// The text of the item that starts at `start` in `code`, up to its closing
/// brace at the start of a line.
fn item<'c>(code: &'c str, start: &str) -> &'c str {
    let at = code
        .find(start)
        .unwrap_or_else(|| panic!("no `{start}` in the generated code"));
    // The item ends at the first `}` line indented as its first line (items
    // sit in the generated modules).
    let line_start = code[..at].rfind('\n').map_or(0, |i| i + 1);
    let close = format!("\n{}}}\n", &code[line_start..at]);
    let end = code[at..]
        .find(&close)
        .map_or(code.len(), |i| at + i + close.len());
    &code[at..end]
}

/// `seozoom --sandbox mcp` of the copy, over stdio with JSON-RPC: `tools/list`
/// has `keywords_suggestions` with `keyword` and `limit` in its input schema, and
/// calling it gives 5 rows.
fn mcp_has_the_added_tool(bin: &Path, dir: &Path) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;

    let mut child = Command::new(bin)
        .args(["--sandbox", "mcp"])
        .current_dir(dir)
        .env("SEOZOOM_STORE", "none")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("seozoom mcp starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
    let mut request = |id: u64, method: &str, params: serde_json::Value| {
        let message =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{message}").expect("the server reads");
        if method == "initialize" {
            writeln!(
                stdin,
                r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
            )
            .expect("the server reads");
        }
        loop {
            let mut line = String::new();
            assert!(
                stdout.read_line(&mut line).expect("readable") > 0,
                "no answer to {method}"
            );
            let answer: serde_json::Value = serde_json::from_str(&line).expect("JSON-RPC");
            if answer["id"] == id {
                return answer;
            }
        }
    };
    let client = serde_json::json!({"name": "regeneration", "version": "0"});
    request(
        1,
        "initialize",
        serde_json::json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client}),
    );
    let list = request(2, "tools/list", serde_json::json!({}));
    let tools = list["result"]["tools"].as_array().expect("a tool list");
    let tool = tools
        .iter()
        .find(|t| t["name"] == "keywords_suggestions")
        .unwrap_or_else(|| panic!("no keywords_suggestions in tools/list: {list}"));
    let properties = &tool["inputSchema"]["properties"];
    assert!(properties["keyword"].is_object(), "{tool}");
    assert_eq!(properties["limit"]["maximum"], 10000, "{tool}");
    let call = request(
        3,
        "tools/call",
        serde_json::json!({"name": "keywords_suggestions", "arguments": {"keyword": "scarpe", "limit": 5}}),
    );
    let content = &call["result"]["structuredContent"];
    assert_eq!(content["ResultRows"], 5, "{call}");
    drop(stdin);
    assert!(child.wait().expect("the server ends").success());
}

/// The Python package of the copy: its committed typed surface is stale until
/// `seozoom-codegen python` writes it anew; the package folder with the
/// extension built beside it imports as `seozoom`, and its new method answers
/// typed rows on a sandbox.
fn python_has_the_added_method(copy_root: &Path, target: &Path) {
    let codegen = target.join("debug").join("seozoom-codegen");
    let check = run(&codegen, &["python", "--check"], copy_root, target);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check.stderr));
    assert!(
        text(&check.stderr).contains("_generated.pyi: differs from the spec"),
        "{}",
        text(&check.stderr)
    );
    assert_success(
        "seozoom-codegen python",
        &run(&codegen, &["python"], copy_root, target),
    );
    let package = copy_root.join("python/seozoom");
    let stub = fs::read_to_string(package.join("_generated.pyi")).expect("the stub was generated");
    let keywords = item(&stub, "class Keywords:");
    let method = &keywords[keywords
        .find("    def suggestions(")
        .unwrap_or_else(|| panic!("no `suggestions` in the stub's `Keywords`:\n{keywords}"))..];
    let signature = &method[..method.find("):").expect("a signature")];
    assert!(
        signature.contains("keyword: str,")
            && signature.contains("limit: int,")
            && method.contains("-> Result[List[KeywordSuggestion]]"),
        "{signature}"
    );
    assert!(stub.contains("class KeywordSuggestion(TypedDict):"));
    assert!(
        stub.contains("    serp_affinity: Optional[float]\n"),
        "{stub}"
    );

    let site = site(copy_root, target);
    let script = r#"
import typing
import seozoom
with seozoom.Sandbox() as sb:
    client = seozoom.Client(base_url=sb.url, api_key="sandbox", store="memory")
    result = client.keywords.suggestions("scarpe", 5)
    keys = list(typing.get_type_hints(seozoom.KeywordSuggestion))
    assert len(result.rows) == 5, result
    for row in result.rows:
        assert list(row) == keys, (list(row), keys)
        assert isinstance(row["serp_affinity"], float) and isinstance(row["jan"], int), row
    print(len(result.rows), "rows")
"#;
    let ran = python(&site, script);
    assert_success("python3: client.keywords.suggestions", &ran);
    assert_eq!(text(&ran.stdout).trim(), "5 rows");
}

/// The copy's Python package as maturin lays it out (the Python files and the
/// extension built last), in a scratch folder for `PYTHONPATH`.
fn site(copy_root: &Path, target: &Path) -> PathBuf {
    let site = scratch().join("regeneration").join("site");
    if site.exists() {
        fs::remove_dir_all(&site).expect("old site removed");
    }
    copy(&copy_root.join("python/seozoom"), &site.join("seozoom"));
    fs::copy(
        target.join("debug").join("lib_native.so"),
        site.join("seozoom").join("_native.abi3.so"),
    )
    .expect("the extension was built");
    site
}

/// `script` run by `python3` on the package in `site`.
fn python(site: &Path, script: &str) -> Output {
    Command::new("python3")
        .args(["-c", script])
        .env("PYTHONPATH", site)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(site)
        .output()
        .expect("python3 runs (it is needed to test the Python package)")
}

/// The member of a single-object record the copy's spec claims is always
/// sent, for the drift loop: a drifting sandbox leaves out the first such
/// member of an answer's first row, so that one object cannot be typed.
const CLAIMED: &str = r#"{ wire = "monitored_keywords", type = "integer", presence = "unstated","#;

/// The spec with `monitored_keywords` of a project overview claimed always
/// sent (what names the row), as a spec that trusted the reference too much.
fn claim_always_sent(spec: &str) -> String {
    // The project list's record has a member of the same name: the overview's
    // is the first after its record's name.
    let record = spec
        .find("name = \"project_overview\"")
        .expect("the spec has the project overview's record");
    let at = record
        + spec[record..]
            .find(CLAIMED)
            .unwrap_or_else(|| panic!("the project overview has no `{CLAIMED}`"));
    format!(
        "{}{}{}",
        &spec[..at],
        r#"{ wire = "monitored_keywords", type = "integer", presence = "names_the_row","#,
        &spec[at + CLAIMED.len()..]
    )
}

/// `seozoom sandbox --drift --port 0` of the copy, killed when dropped.
struct DriftingSandbox(std::process::Child, String);

impl DriftingSandbox {
    fn start(bin: &Path) -> DriftingSandbox {
        use std::io::BufRead;
        let mut child = Command::new(bin)
            .args(["sandbox", "--drift", "--port", "0"])
            .env("SEOZOOM_STORE", "none")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("seozoom sandbox starts");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().expect("stdout is piped"))
            .read_line(&mut line)
            .expect("the sandbox prints its URL");
        let url = line.trim().to_owned();
        assert!(url.starts_with("http://127.0.0.1:"), "{line}");
        DriftingSandbox(child, url)
    }
}

impl Drop for DriftingSandbox {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The drift loop in the built copy: calls that fail on the drifting
/// sandbox's answer, `drift --patch`, `apply`, `diff`, the regeneration
/// build, and the same calls answered from the store at no cost.
fn the_drift_loop(copy_root: &Path, target: &Path, build: &dyn Fn()) {
    let bin = |name: &str| target.join("debug").join(name);
    let sandbox = DriftingSandbox::start(&bin("seozoom"));
    let work = scratch().join("regeneration").join("drift");
    if work.exists() {
        fs::remove_dir_all(&work).expect("old drift files removed");
    }
    fs::create_dir_all(&work).expect("drift directory created");
    let store = format!("sqlite:{}", work.join("store.sqlite3").display());
    let seozoom = |args: &[&str]| {
        let mut all = vec![
            "--base-url",
            &sandbox.1,
            "--api-key",
            "sandbox",
            "--store",
            &store,
        ];
        all.extend_from_slice(args);
        run(bin("seozoom"), &all, copy_root, target)
    };
    let overview = ["--format", "json", "projects", "overview", "--id", "7"];

    // (f) The command line: the one object lacks what the spec says it always
    // sends; the call fails, charged, and its body is kept.
    let failed = seozoom(&overview);
    assert_eq!(failed.status.code(), Some(1), "{}", text(&failed.stderr));
    assert!(
        text(&failed.stderr).contains("monitored_keywords"),
        "{}",
        text(&failed.stderr)
    );

    // (g) Python, on the same store: the same failure, and the drift recorded.
    let before_site = site(copy_root, target);
    let before = format!(
        r#"
import seozoom
client = seozoom.Client(base_url="{url}", api_key="sandbox", store="{store}")
try:
    client.projects.overview(8)
    raise SystemExit("a row without what the spec says it always sends was typed")
except seozoom.DecodeError:
    pass
report = client.drift()
seen = sorted((o["member"], o["kind"]) for o in report["observations"] if o["action"] == "overview")
print(seen)
"#,
        url = sandbox.1
    );
    let ran = python(&before_site, &before);
    assert_success("python3: the drifting answer", &ran);
    let seen = text(&ran.stdout);
    assert!(
        seen.contains("('drift_metric', 'unknown_member')"),
        "{seen}"
    );
    assert!(seen.contains("('monitored_keywords', 'missing')"), "{seen}");

    // (h) The patch, merged into the copy's spec, and its semver effect.
    let patch = seozoom(&["drift", "--patch"]);
    assert_success("seozoom drift --patch", &patch);
    let patch_file = work.join("drift.toml");
    fs::write(&patch_file, &patch.stdout).expect("patch written");
    let old_spec = work.join("before.toml");
    fs::copy(copy_root.join(SPEC), &old_spec).expect("spec saved");
    let codegen = bin("seozoom-codegen");
    let patch_path = patch_file.to_string_lossy().into_owned();
    let applied = run(&codegen, &["apply", &patch_path, SPEC], copy_root, target);
    assert_success("seozoom-codegen apply", &applied);
    let spec = fs::read_to_string(copy_root.join(SPEC)).expect("the spec is readable");
    assert!(spec.contains(r#"wire = "drift_metric""#) && spec.contains(r#"source = "observed""#));
    assert!(spec.contains("# ----"), "the spec's comments are kept");
    let old_path = old_spec.to_string_lossy().into_owned();
    let diff = run(&codegen, &["diff", &old_path, SPEC], copy_root, target);
    assert_eq!(
        diff.status.code(),
        Some(3),
        "breaking: {}",
        text(&diff.stdout)
    );
    let diff = text(&diff.stdout);
    assert!(
        diff.contains("drift_metric") && diff.contains("monitored_keywords"),
        "{diff}"
    );
    assert!(diff.contains("semver: breaking"), "{diff}");

    // (i) The regeneration build: the new member is typed in Rust and Python.
    build();
    let generated = run(&codegen, &[SPEC], copy_root, target);
    assert_success("seozoom-codegen", &generated);
    let code = text(&generated.stdout);
    let record = item(&code, "pub struct ProjectOverview {");
    // Seen in every row: a plain number (a patch widens presence only where
    // rows lacked a member or held null).
    assert!(record.contains("pub drift_metric: f64,"), "{record}");
    assert!(
        record.contains("pub monitored_keywords: ::core::option::Option<i64>,"),
        "{record}"
    );
    assert_success(
        "seozoom-codegen python",
        &run(&codegen, &["python"], copy_root, target),
    );
    let stub =
        fs::read_to_string(copy_root.join("python/seozoom/_generated.pyi")).expect("the stub");
    let class = &stub[stub
        .find("class ProjectOverview(TypedDict):")
        .expect("the record's TypedDict")..];
    let class = &class[..class[1..]
        .find("\nclass ")
        .map_or(class.len(), |end| end + 1)];
    assert!(class.contains("    drift_metric: float\n"), "{class}");

    // (j) The calls that failed decode from the store: nothing sent, nothing
    // charged.
    let again = seozoom(&overview);
    assert_success("projects overview after the regeneration", &again);
    let answer: serde_json::Value = serde_json::from_slice(&again.stdout).expect("JSON");
    assert!(answer["response"]["drift_metric"].is_number(), "{answer}");
    let after_site = site(copy_root, target);
    let after = format!(
        r#"
import seozoom
client = seozoom.Client(base_url="{url}", api_key="sandbox", store="{store}")
result = client.projects.overview(8)
assert result.from_cache and result.units_used == 0, result
row = result.rows[0] if isinstance(result.rows, list) else result.rows
assert isinstance(row["drift_metric"], float), row
print("decoded from the store")
"#,
        url = sandbox.1
    );
    let ran = python(&after_site, &after);
    assert_success("python3: the kept answer", &ran);
    let usage = seozoom(&["--format", "json", "usage"]);
    assert_success("seozoom usage", &usage);
    let usage: serde_json::Value = serde_json::from_slice(&usage.stdout).expect("JSON");
    let overview = usage
        .as_array()
        .expect("a list")
        .iter()
        .find(|row| row["action"] == "overview")
        .unwrap_or_else(|| panic!("{usage}"));
    assert_eq!(
        (&overview["calls"], &overview["cache_hits"]),
        (&serde_json::json!(2), &serde_json::json!(2)),
        "two calls sent and charged, two answered from the store: {overview}"
    );
    drop(sandbox);
    fs::remove_dir_all(&work).expect("drift files removed");
}

#[test]
fn an_action_added_to_the_spec_appears_everywhere_with_no_other_edit() {
    // Minutes of building: a slow test (`SEOZOOM_SLOW_TESTS=1`; never skipped under CI=true).
    if !seozoom_test_support::slow_tests("the regeneration test is skipped") {
        return;
    }
    let started = Instant::now();
    let root = workspace();
    let copy_root = scratch().join("regeneration").join("workspace");
    if copy_root.exists() {
        fs::remove_dir_all(&copy_root).expect("old copy removed");
    }
    fs::create_dir_all(&copy_root).expect("copy directory created");
    for name in COPIED {
        copy(&root.join(name), &copy_root.join(name));
    }
    let addition =
        fs::read_to_string(root.join("codegen/tests/fixtures/keywords-suggestions.toml"))
            .expect("the fixture is readable");
    let spec = fs::read_to_string(root.join(SPEC)).expect("the spec is readable");
    let spec = claim_always_sent(&spec);
    fs::write(copy_root.join(SPEC), format!("{spec}\n{addition}")).expect("spec written");
    // Every copied file as it is now: the originals but for the spec.
    let snapshot = contents(&copy_root);
    let differing: Vec<&PathBuf> = snapshot
        .iter()
        .filter(|(path, bytes)| fs::read(root.join(path)).ok().as_ref() != Some(bytes))
        .map(|(path, _)| path)
        .collect();
    assert_eq!(
        differing,
        [Path::new(SPEC)],
        "copied files that differ from the workspace"
    );
    let target = copy_target_dir();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());

    // Build the generator and the command line; the client's build script
    // regenerates it from the copy's spec.
    let build = || {
        let build = run(
            &cargo,
            &[
                "build",
                "--frozen",
                "-p",
                "seozoom-codegen",
                "-p",
                "seozoom-cli",
                "-p",
                "seozoom-python",
            ],
            &copy_root,
            &target,
        );
        assert_success("building the copy", &build);
    };
    build();
    let built = started.elapsed();
    let written: Vec<PathBuf> = contents(&copy_root)
        .into_iter()
        .filter(|(path, bytes)| snapshot.get(path) != Some(bytes))
        .map(|(path, _)| path)
        .collect();
    assert!(
        written.is_empty(),
        "the build wrote into the sources: {written:?}"
    );
    let bin = |name: &str| target.join("debug").join(name);

    // (a) The generated code has the builder, the record and the accessor.
    let generated = run(bin("seozoom-codegen"), &[SPEC], &copy_root, &target);
    assert_success("seozoom-codegen", &generated);
    let code = text(&generated.stdout);
    let builder = item(&code, "pub struct KeywordsSuggestions {");
    assert!(
        builder.contains("keyword: ::std::string::String,"),
        "{builder}"
    );
    assert!(builder.contains("limit: i64,"), "{builder}");
    let record = item(&code, "pub struct KeywordSuggestion {");
    for field in [
        "pub keyword: ::std::string::String,",
        "pub search_volume: ::core::option::Option<i64>,",
        "pub serp_affinity: ::core::option::Option<f64>,",
        "pub jan: ::core::option::Option<i64>,",
        "pub dec: ::core::option::Option<i64>,",
    ] {
        assert!(record.contains(field), "no `{field}` in:\n{record}");
    }
    let accessor = item(&code, "impl Keywords<'_> {");
    let suggestions = &accessor[accessor
        .find("pub fn suggestions(")
        .unwrap_or_else(|| panic!("no `suggestions` on `client.keywords()`:\n{accessor}"))..];
    let signature = &suggestions[..suggestions.find('{').expect("a body")];
    assert!(
        signature.contains("keyword: impl ::core::convert::Into<::std::string::String>")
            && signature.contains("limit: i64")
            && signature.contains("-> KeywordsSuggestions"),
        "{signature}"
    );
    assert!(code.contains("pub static KEYWORDS_SUGGESTIONS: Operation"));

    // (b) The command line calls it, here on the built-in sandbox.
    let call = run(
        bin("seozoom"),
        &[
            "--sandbox",
            "--format",
            "json",
            "keywords",
            "suggestions",
            "--keyword",
            "scarpe",
            "--limit",
            "5",
        ],
        &copy_root,
        &target,
    );
    assert_success("seozoom keywords suggestions", &call);
    let body: serde_json::Value = serde_json::from_slice(&call.stdout).expect("the output is JSON");
    assert_eq!(body["ResultRows"], 5, "{body}");
    let rows = body["response"].as_array().expect("an array of rows");
    assert_eq!(rows.len(), 5, "{body}");
    for row in rows {
        assert!(row["serp_affinity"].is_number(), "{row}");
        assert!(row["keyword"].is_string(), "{row}");
        assert!(row["search_volume"].is_i64(), "{row}");
        assert!(row["jan"].is_i64() && row["dec"].is_i64(), "{row}");
    }

    // (c) Its help lists its parameters.
    let help = run(
        bin("seozoom"),
        &["keywords", "suggestions", "--help"],
        &copy_root,
        &target,
    );
    assert_success("seozoom keywords suggestions --help", &help);
    let help = text(&help.stdout);
    assert!(help.contains("--keyword"), "{help}");
    assert!(help.contains("--limit"), "{help}");

    // (d) The MCP server lists it as a tool, with its parameters, and calls it.
    mcp_has_the_added_tool(&bin("seozoom"), &copy_root);

    // (e) Python has it as a typed method, and calls it.
    python_has_the_added_method(&copy_root, &target);

    // Running wrote nothing into the copy's sources but what `seozoom-codegen
    // python` writes (`--frozen` also keeps the lock file as it is).
    let after = contents(&copy_root);
    let changed: BTreeSet<&Path> = snapshot
        .keys()
        .chain(after.keys())
        .filter(|path| snapshot.get(*path) != after.get(*path))
        .map(PathBuf::as_path)
        .collect();
    assert_eq!(
        changed,
        BTreeSet::from(PYTHON_SURFACE.map(Path::new)),
        "files changed after the copy was made"
    );

    // (f)-(j) The drift loop, in the same copy.
    the_drift_loop(&copy_root, &target, &build);

    eprintln!(
        "regeneration: copy built in {:.1?}, whole test {:.1?}",
        built,
        started.elapsed()
    );
}

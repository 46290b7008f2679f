//! `seozoom mcp` as a command: the global options it takes or refuses, its
//! own arguments checked at start, and a session over the process's real
//! stdio, with the key in nothing it prints. What the server does in a
//! session is tested in its own crate (`mcp/tests/`).

use crate::support;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use serde_json::{Value, json};
use support::KEY;

#[test]
fn the_command_refuses_what_it_cannot_serve() {
    for (args, piece) in [
        (&["mcp"][..], "no API key"),
        (&["--dry-run", "--sandbox", "mcp"][..], "estimate"),
        // Options of a command's output are refused, not ignored: they would
        // shape nothing, and the user should learn that.
        (
            &["--sandbox", "--columns", "keyword", "mcp"][..],
            "--columns does not apply to `mcp`",
        ),
        (
            &["--sandbox", "--format", "json", "mcp"][..],
            "--format does not apply to `mcp`",
        ),
        (&["--sandbox", "mcp", "--http", "0.0.0.0:0"][..], "loopback"),
        (&["--sandbox", "--db", "xx", "mcp"][..], "--db xx"),
        (&["mcp", "--conformance-fixture"][..], "only with --sandbox"),
        (
            &["--sandbox", "mcp", "--tools", "keywords,nosuch"][..],
            "--tools nosuch",
        ),
    ] {
        let run = support::run(args);
        run.expect_code(2);
        assert!(run.stderr.contains(piece), "{args:?}: {}", run.stderr);
    }
}

/// A session over stdio, the key given in the environment and the library's
/// debug log on stderr: a call answered, the end of stdin ends the server
/// with 0, and the key is in nothing printed.
#[test]
fn a_session_over_stdio_prints_the_key_nowhere() {
    let mut child = support::binary()
        .args(["--sandbox", "mcp"])
        .env("SEOZOOM_API_KEY", KEY)
        .env("SEOZOOM_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
    let mut received = Vec::new();
    let mut exchange = |message: Value| -> Value {
        writeln!(stdin, "{message}").expect("the server reads stdin");
        stdin.flush().expect("stdin flushed");
        loop {
            let mut line = String::new();
            let read = stdout.read_line(&mut line).expect("stdout is readable");
            assert!(
                read > 0,
                "the server closed stdout before answering {message}"
            );
            received.push(line.clone());
            let answer: Value = serde_json::from_str(&line).expect("JSON-RPC");
            if answer["id"] == message["id"] {
                return answer;
            }
        }
    };
    let init = exchange(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "seozoom-tests", "version": "0"},
        }}),
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "seozoom", "{init}");
    let call = exchange(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "keywords_metrics",
            "arguments": {"keyword": ["scarpe running"]},
        }}),
    );
    assert_eq!(
        call["result"]["structuredContent"]["rows"]["total"], 1,
        "{call}"
    );
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).expect("stdout readable");
    received.push(rest);
    let output = child.wait_with_output().expect("the server ends");
    assert_eq!(output.status.code(), Some(0), "the end of stdin ends it");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    for text in received.iter().chain([&stderr]) {
        assert!(!text.contains(KEY), "the key was printed: {text}");
    }
}

/// `seozoom <args> mcp --http 127.0.0.1:0`, its endpoint's URL read from
/// stdout; killed when dropped.
struct HttpServer {
    child: std::process::Child,
    /// `host:port` of the endpoint.
    authority: String,
}

impl HttpServer {
    fn start(args: &[&str]) -> HttpServer {
        let mut child = support::binary()
            .args(args)
            .args(["mcp", "--http", "127.0.0.1:0"])
            .env("SEOZOOM_API_KEY", KEY)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut url = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped"))
            .read_line(&mut url)
            .expect("the URL is printed");
        let authority = url
            .trim()
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
            .to_owned();
        HttpServer { child, authority }
    }

    /// POST `body` to the endpoint with these extra headers; the status,
    /// the response's head and its body (an event stream's `data:` joined).
    fn post(&self, headers: &[(&str, &str)], body: &Value) -> (u16, String, String) {
        use std::io::Read;
        let body = body.to_string();
        let mut stream =
            std::net::TcpStream::connect(&self.authority).expect("the endpoint listens");
        let extra: String = headers
            .iter()
            .map(|(name, value)| format!("{name}: {value}\r\n"))
            .collect();
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.authority,
            body.len()
        )
        .expect("the request is written");
        let mut response = String::new();
        stream
            .read_to_string(&mut response)
            .expect("the response is read");
        let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or(0);
        let data: Vec<&str> = body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim)
            .filter(|data| data.starts_with('{'))
            .collect();
        let body = if data.is_empty() {
            body.to_owned()
        } else {
            data.join("\n")
        };
        (status, head.to_owned(), body)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `initialize` request of a client named `name`.
fn initialize(name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": name, "version": "0"},
    }})
}

/// Over `--http`, a request whose `Origin` is a page elsewhere is answered
/// 403 with a JSON-RPC error, before anything is served; one from this
/// machine's pages, or with no `Origin`, is served.
#[test]
fn a_foreign_origin_gets_403_over_http() {
    let server = HttpServer::start(&["--sandbox"]);
    let (status, _, body) = server.post(&[("Origin", "http://evil.example")], &initialize("evil"));
    assert_eq!(status, 403, "{body}");
    let error: Value = serde_json::from_str(&body).expect("a JSON-RPC error");
    assert_eq!(error["id"], Value::Null, "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("http://evil.example")),
        "{error}"
    );
    let local = format!(
        "http://localhost:{}",
        server.authority.rsplit(':').next().unwrap()
    );
    for headers in [&[("Origin", local.as_str())][..], &[][..]] {
        let (status, _, body) = server.post(headers, &initialize("local"));
        assert_eq!(status, 200, "{headers:?}: {body}");
        assert!(body.contains("serverInfo"), "{body}");
    }
}

/// Over `--http`, a request that names no session and is not `initialize`
/// is told, in JSON-RPC, to initialize first.
#[test]
fn a_request_before_initialize_over_http_is_told_to_initialize() {
    let server = HttpServer::start(&["--sandbox"]);
    let request = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {}});
    let (status, _, body) = server.post(&[], &request);
    assert_eq!(status, 400, "{body}");
    let error: Value = serde_json::from_str(&body).expect("a JSON-RPC error");
    assert_eq!(error["id"], 7, "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("not initialized")),
        "{error}"
    );
}

impl HttpServer {
    /// A session initialized by a client named `name`: its id.
    fn session(&self, name: &str) -> String {
        let (status, head, body) = self.post(&[], &initialize(name));
        assert_eq!(status, 200, "{body}");
        let id = head
            .lines()
            .find_map(|line| {
                let (header, value) = line.split_once(':')?;
                header
                    .eq_ignore_ascii_case("mcp-session-id")
                    .then(|| value.trim().to_owned())
            })
            .unwrap_or_else(|| panic!("no session id in: {head}"));
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        self.post(&[("Mcp-Session-Id", &id)], &initialized);
        id
    }

    /// The answer of `method` with `params` in session `id`.
    fn request(&self, id: &str, method: &str, params: Value) -> Value {
        let request = json!({"jsonrpc": "2.0", "id": 2, "method": method, "params": params});
        let (_, _, body) = self.post(&[("Mcp-Session-Id", id)], &request);
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
    }

    /// The answer of tool `name` with `arguments` in session `id`.
    fn call(&self, id: &str, name: &str, arguments: Value) -> Value {
        let answer = self.request(
            id,
            "tools/call",
            json!({"name": name, "arguments": arguments}),
        );
        answer["result"].clone()
    }
}

/// Over `--http`, each session sees its own spending at the top of `usage`
/// and only the results it holds: another session's held id reads as an
/// unknown one, through `more` and `resources/read` alike.
#[test]
fn http_sessions_are_kept_apart() {
    let server = HttpServer::start(&["--sandbox", "--store", "none"]);
    let a = server.session("a");
    let b = server.session("b");
    let keywords: Vec<String> = (0..30).map(|n| format!("scarpe {n}")).collect();
    let paid = server.call(&a, "keywords_metrics", json!({"keyword": keywords}));
    let held = paid["structuredContent"]["more"]["result"]
        .as_str()
        .unwrap_or_else(|| panic!("a cut result: {paid}"))
        .to_owned();
    let units = &paid["structuredContent"]["UnitsUsed"];
    let own = server.call(&a, "more", json!({"result": held}));
    assert_ne!(own["isError"], true, "{own}");

    let text = |answer: &Value| {
        answer["content"][0]["text"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    let theirs = server.call(&b, "more", json!({"result": held}));
    let unknown_id = format!("r1-{}", "0".repeat(32));
    let unknown = server.call(&b, "more", json!({"result": unknown_id}));
    assert_eq!(theirs["isError"], true, "{theirs}");
    assert_eq!(
        text(&theirs).replace(&held, "ID"),
        text(&unknown).replace(&unknown_id, "ID"),
        "another session's id reads as an unknown one"
    );
    let read = server.request(
        &b,
        "resources/read",
        json!({"uri": format!("seozoom://held/{held}")}),
    );
    assert_eq!(read["error"]["code"], -32002, "{read}");
    let listed = server.request(&b, "resources/list", json!({}));
    assert!(!listed.to_string().contains(&held), "{listed}");

    let usage_a = &server.call(&a, "usage", json!({}))["structuredContent"];
    let usage_b = &server.call(&b, "usage", json!({}))["structuredContent"];
    assert_eq!(&usage_a["units_used"], units, "{usage_a}");
    assert_eq!(
        usage_a["held"].as_array().map(Vec::len),
        Some(1),
        "{usage_a}"
    );
    assert_eq!(usage_b["units_used"], 0, "B spent nothing: {usage_b}");
    assert_eq!(usage_b["calls"], 0, "{usage_b}");
    assert_eq!(usage_b["held"], json!([]), "{usage_b}");
    assert_eq!(&usage_b["process"]["units_used"], units, "{usage_b}");
}

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

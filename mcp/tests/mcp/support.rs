//! The server run in process, as `seozoom mcp` runs it, with a client that
//! speaks JSON-RPC to it one line at a time over in-memory streams; and the
//! command line's words for a session (`--sandbox`, `--budget 30`, `mcp
//! --max-result-rows 60`) read into its options, the subcommand's own by the
//! crate's own parser.

use std::thread::JoinHandle;
use std::time::Duration;

use seozoom_mcp::{Ended, Options, Settings};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tracing_subscriber::filter::LevelFilter;

pub use seozoom_test_support::Server;
pub use seozoom_test_support::table_samples::{
    envelope, expected_query, sample_params, sample_response,
};

/// The key the tests pass; it must never be received.
pub const KEY: &str = "SECRET-MCP-KEY-991";

/// Room of each in-memory stream: a writer waits when it is full.
const PIPE: usize = 64 * 1024;

/// The options `seozoom <args> mcp <more args>` asks for, with `KEY` as the
/// key given and no store unless one is named (the tests count what reaches
/// their servers, and must not write to the user's data directory).
pub fn options(args: &[&str]) -> Options {
    let split = args
        .iter()
        .position(|a| *a == "mcp")
        .expect("args name `mcp`");
    let (global, own) = (&args[..split], &args[split..]);
    let mut settings = Settings {
        api_key: Some(KEY.to_owned()),
        base_url: seozoom::operations::SERVICE.base_url.to_owned(),
        sandbox: false,
        database: "it".to_owned(),
        budget: None,
        store: Some("none".to_owned()),
        refresh: false,
        store_fallback: false,
        rate_window: None,
        max_wait: None,
        fit_budget: false,
        log_level: LevelFilter::WARN,
    };
    let mut words = global.iter();
    while let Some(word) = words.next() {
        let mut value = || words.next().expect("a value after the option").to_string();
        match *word {
            "--sandbox" => settings.sandbox = true,
            "--base-url" => settings.base_url = value(),
            "--db" => settings.database = value(),
            "--budget" => settings.budget = Some(value().parse().expect("a budget")),
            "--store" => settings.store = Some(value()),
            "--refresh" => settings.refresh = true,
            "--rate-window" => {
                settings.rate_window =
                    Some(Duration::from_secs_f64(value().parse().expect("seconds")));
            }
            "--max-wait" => {
                settings.max_wait =
                    Some(Duration::from_secs_f64(value().parse().expect("seconds")));
            }
            "--fit-budget" => settings.fit_budget = true,
            other => panic!("a global option the tests do not read: {other}"),
        }
    }
    let sub = seozoom_mcp::subcommand()
        .try_get_matches_from(own)
        .unwrap_or_else(|e| panic!("{own:?}: {e}"));
    seozoom_mcp::read(&sub, settings).unwrap_or_else(|(_, message)| panic!("{message}"))
}

/// A running server, initialized, and everything it sent.
pub struct Mcp {
    /// Drives the client's side of the streams.
    runtime: tokio::runtime::Runtime,
    input: Option<DuplexStream>,
    output: BufReader<DuplexStream>,
    server: Option<JoinHandle<Ended>>,
    next_id: u64,
    /// Every line received.
    received: Vec<String>,
}

impl Mcp {
    /// Start the server `seozoom <args>` asks for (`args` name `mcp`) and
    /// initialize a session.
    pub fn start(args: &[&str]) -> Mcp {
        let mut mcp = Mcp::serve(options(args));
        let init = mcp.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "seozoom-tests", "version": "0"},
            }),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "seozoom", "{init}");
        assert!(
            init["result"]["capabilities"]["tools"].is_object(),
            "{init}"
        );
        mcp.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        mcp
    }

    /// Serve `options` on a thread of its own, as `seozoom mcp` serves them
    /// on one thread; nothing sent yet.
    pub fn serve(options: Options) -> Mcp {
        let (input, server_input) = tokio::io::duplex(PIPE);
        let (server_output, output) = tokio::io::duplex(PIPE);
        let server = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime")
                .block_on(seozoom_mcp::serve_on(options, server_input, server_output))
        });
        Mcp {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime"),
            input: Some(input),
            output: BufReader::new(output),
            server: Some(server),
            next_id: 0,
            received: Vec::new(),
        }
    }

    /// Write one line as it is (a malformed message, say).
    pub fn write_line(&mut self, line: &str) {
        let input = self.input.as_mut().expect("the input is open");
        self.runtime
            .block_on(async {
                input.write_all(line.as_bytes()).await?;
                input.write_all(b"\n").await?;
                input.flush().await
            })
            .expect("the server reads its input");
    }

    /// Send one message.
    pub fn send(&mut self, message: &Value) {
        self.write_line(&message.to_string());
    }

    /// Send a request; its response (notifications in between are skipped).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        loop {
            let message = self.next_message();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    /// Send a request without waiting; its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The next message the server sends.
    pub fn next_message(&mut self) -> Value {
        let mut line = String::new();
        let read = self
            .runtime
            .block_on(self.output.read_line(&mut line))
            .expect("the output is readable");
        assert!(read > 0, "the server closed its output");
        self.received.push(line.clone());
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON-RPC ({e}): {line}"))
    }

    /// Every line received so far.
    pub fn received(&self) -> &[String] {
        &self.received
    }

    /// The tools listed.
    pub fn tools(&mut self) -> Vec<Value> {
        let list = self.request("tools/list", json!({}));
        list["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("no tools: {list}"))
            .clone()
    }

    /// Call a tool; the result (which may be an error result).
    pub fn call(&mut self, name: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": name, "arguments": arguments}));
        assert!(
            response.get("error").is_none(),
            "{name}: a protocol error: {response}"
        );
        response["result"].clone()
    }

    /// Call a tool that must succeed; its structured content.
    #[track_caller]
    pub fn structured(&mut self, name: &str, arguments: Value) -> Value {
        let result = self.call(name, arguments.clone());
        assert_ne!(result["isError"], true, "{name} {arguments}: {result}");
        let content = result["structuredContent"].clone();
        assert!(
            content.is_object(),
            "{name}: no structured content: {result}"
        );
        let text = result["content"][0]["text"].as_str().expect("a text block");
        match serde_json::from_str::<Value>(text) {
            // The server's own tools other than `more`: their text is their
            // structured content.
            Ok(json) => assert_eq!(json, content, "{name}: the text is not the content"),
            // A row answer: a summary line, then a header and a line per row
            // shown.
            Err(_) => {
                let shown = content["rows"]["returned"].as_u64().expect("rows");
                let lines = text.lines().count() as u64;
                let table = if shown == 0 { 0 } else { shown + 1 };
                assert!(
                    text.starts_with(content.get("tool").and_then(Value::as_str).unwrap_or(name)),
                    "{name}: {text}"
                );
                assert_eq!(lines, 1 + table, "{name}: {shown} rows shown: {text}");
            }
        }
        content
    }

    /// Call a tool that must fail; the error text.
    #[track_caller]
    pub fn error(&mut self, name: &str, arguments: Value) -> String {
        let result = self.call(name, arguments.clone());
        assert_eq!(result["isError"], true, "{name} {arguments}: {result}");
        result["content"][0]["text"]
            .as_str()
            .expect("a text block")
            .to_owned()
    }

    /// `ping` still answers.
    #[track_caller]
    pub fn ping(&mut self) {
        let pong = self.request("ping", json!({}));
        assert_eq!(pong["result"], json!({}), "{pong}");
    }

    /// Close the input, read the rest, wait for the end; how the server
    /// ended. The key must be in nothing received.
    pub fn finish(mut self) -> Ended {
        drop(self.input.take());
        let mut rest = String::new();
        self.runtime
            .block_on(tokio::io::AsyncReadExt::read_to_string(
                &mut self.output,
                &mut rest,
            ))
            .expect("the output is readable");
        self.received.push(rest);
        let ended = self
            .server
            .take()
            .expect("a server")
            .join()
            .expect("the server ends without a panic");
        for text in &self.received {
            assert!(!text.contains(KEY), "the key was received: {text}");
        }
        ended
    }
}

/// Held by the tests whose assertions depend on a rate window's timing (a
/// job that must wait for the window it filled): they run one at a time, so
/// that another's work on the same cores cannot stretch a job past its
/// window. The servers run in this process, which runs the tests in
/// parallel.
pub fn one_timed_test_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static TIMED: std::sync::Mutex<()> = std::sync::Mutex::new(());
    TIMED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A sandbox on loopback started from `builder` (it serves on its own
/// threads), for a session to call and for the test to count its requests.
pub fn start_sandbox(builder: seozoom::sandbox::SandboxBuilder) -> seozoom::sandbox::Sandbox {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(builder.start())
        .expect("the sandbox starts")
}

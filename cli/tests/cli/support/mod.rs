//! Shared by the CLI tests: running the real binary, a loopback HTTP server that
//! records every request, and sample inputs and bodies derived from the
//! operation table, so a new action of the spec is covered with no edit here.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use seozoom::operation_table::Operation;
use seozoom::operation_table::{FieldKind, ParamKind, RecordInfo, Shape};
use seozoom::operations::RECORDS;
use serde_json::{Map, Value, json};

/// The key the tests pass; it must never be printed.
pub const KEY: &str = "SECRET-CLI-KEY-991";

/// The CLI's outcome.
#[derive(Debug)]
pub struct Run {
    /// Exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// Assert the exit code, showing the output when it differs.
    #[track_caller]
    pub fn expect_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "exit code\nstdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        self
    }

    /// Assert that the key appears nowhere in the output.
    #[track_caller]
    pub fn expect_no_key(&self) -> &Self {
        assert!(
            !self.stdout.contains(KEY) && !self.stderr.contains(KEY),
            "the key was printed\nstdout: {}\nstderr: {}",
            self.stdout,
            self.stderr
        );
        self
    }

    /// The standard output as JSON.
    #[track_caller]
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }
}

/// Run the binary with these arguments and a clean environment for its own
/// variables.
pub fn run<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    run_with_env(args, &[])
}

/// Run the binary with these arguments and these environment variables.
pub fn run_with_env<I, S>(args: I, env: &[(&str, &str)]) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut command = binary();
    command.args(args);
    for (name, value) in env {
        command.env(name, value);
    }
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().expect("the binary runs");
    Run {
        code: status.code().expect("exited, not killed"),
        stdout: String::from_utf8(stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
    }
}

/// The binary, with a clean environment for its own variables, and no store
/// unless a test names one: the tests count what reaches their servers (a
/// cache would answer repeated calls), and must not write to the user's data
/// directory.
pub fn binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_seozoom"));
    command
        .env_remove("SEOZOOM_API_KEY")
        .env_remove("SEOZOOM_BASE_URL")
        .env_remove("SEOZOOM_RATE_WINDOW")
        .env_remove("RUST_LOG")
        .env("SEOZOOM_STORE", "none")
        // Tables fit the terminal's width: none unless a test sets one.
        .env_remove("COLUMNS");
    command
}

/// A sandbox on loopback started from `builder` (the sandbox serves on its own
/// threads), for a run of the binary to call and for the test to count its
/// requests.
pub fn start_sandbox(builder: seozoom::sandbox::SandboxBuilder) -> seozoom::sandbox::Sandbox {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(builder.start())
        .unwrap()
}

/// One request as the server saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// Path, e.g. `/api/v2/domains/`.
    pub path: String,
    /// Raw query string, exactly as sent.
    pub query: String,
}

/// A loopback HTTP/1.1 server answering every request with one canned response
/// and recording the request line. It stops when dropped.
pub struct Server {
    port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    arrivals: Arc<Mutex<Vec<std::time::Instant>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Answer every request with this status and JSON body.
    pub fn start(status: u16, body: impl Into<String>) -> Server {
        Server::with_headers(status, &[], body)
    }

    /// Answer every request with this status, these extra headers and body.
    pub fn with_headers(status: u16, headers: &[(&str, &str)], body: impl Into<String>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let arrivals = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let body: Arc<str> = body.into().into();
        let extra: String = headers
            .iter()
            .map(|(name, value)| format!("{name}: {value}\r\n"))
            .collect();
        let thread = {
            let seen = Arc::clone(&seen);
            let arrivals = Arc::clone(&arrivals);
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    if let Ok(stream) = stream {
                        arrivals.lock().unwrap().push(std::time::Instant::now());
                        answer(stream, status, &extra, &body, &seen);
                    }
                }
            })
        };
        Server {
            port,
            seen,
            arrivals,
            stop,
            thread: Some(thread),
        }
    }

    /// When each request arrived.
    pub fn arrivals(&self) -> Vec<std::time::Instant> {
        self.arrivals.lock().unwrap().clone()
    }

    /// Answer `200` with this JSON body.
    pub fn json(body: impl Into<String>) -> Server {
        Server::start(200, body)
    }

    /// The base URL to pass with `--base-url`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every request seen so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so that it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn answer(stream: TcpStream, status: u16, extra: &str, body: &str, seen: &Mutex<Vec<Seen>>) {
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut reader = BufReader::new(stream);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() || request_line.is_empty() {
        return;
    }
    // The rest of the head; a GET has no body.
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line == "\r\n" || line == "\n" => break,
            Ok(_) => {}
        }
    }
    let target = request_line.split(' ').nth(1).unwrap_or_default();
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    seen.lock().unwrap().push(Seen {
        path: path.to_owned(),
        query: query.to_owned(),
    });
    let mut stream = reader.into_inner();
    let response = format!(
        "HTTP/1.1 {status} Canned\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(response.as_bytes());
    let _ = stream.flush();
    // Let the client read everything before the socket closes.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.read(&mut [0u8; 64]);
}

/// A base URL where nothing listens.
pub fn closed_port_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

/// The operation `group action`.
pub fn op(group: &str, action: &str) -> &'static Operation {
    Operation::find(group, action).unwrap_or_else(|| panic!("no operation {group} {action}"))
}

/// The long flag of a parameter.
pub fn flag(wire: &str) -> String {
    format!("--{}", wire.replace('_', "-"))
}

/// Sample values for every parameter of `op` (optional ones too), chosen by the
/// parameter's kind and within its limits, and consistent with its rules: a text
/// value with characters that must be percent-encoded, two values for a list,
/// `3` clamped to the integer's range, a fixed date, an enum's first value.
pub fn sample_params(op: &Operation) -> Vec<(&'static str, Vec<String>)> {
    let mut params: Vec<(&'static str, Vec<String>)> = op
        .params
        .iter()
        .filter(|p| !p.implicit)
        .map(|p| {
            let one = |i: usize| match p.kind {
                ParamKind::Text => format!("{}{i} x&y", p.wire),
                ParamKind::Integer => {
                    let low = p.min.map_or(i64::MIN, |m| m.value);
                    let high = p.max.map_or(i64::MAX, |m| m.value);
                    3i64.clamp(low, high).to_string()
                }
                ParamKind::Date => "2024-03-04".to_owned(),
                ParamKind::Enum { values, .. } => values[0].to_owned(),
                _ => panic!("a parameter kind the tests do not know: {:?}", p.kind),
            };
            let count = if p.list {
                2.min(p.max_items.map_or(2, |m| m.value as usize))
            } else {
                1
            };
            (p.wire, (1..=count).map(one).collect())
        })
        .collect();
    for rule in op.rules {
        let triggered = params.iter().any(|(w, v)| {
            *w == rule.if_param && v.first().map(String::as_str) == Some(rule.if_value)
        });
        if let (true, Some(wanted)) = (triggered, rule.equal_to) {
            for (w, v) in &mut params {
                if *w == rule.require {
                    *v = vec![wanted.to_owned()];
                }
            }
        }
    }
    params
}

/// The flags for these parameter values.
pub fn param_args(params: &[(&'static str, Vec<String>)]) -> Vec<String> {
    params
        .iter()
        .flat_map(|(wire, values)| values.iter().flat_map(move |v| [flag(wire), v.clone()]))
        .collect()
}

/// RFC 3986 percent-encoding of a query value (unreserved characters kept), as
/// the runtime is specified to send it.
pub fn encode(value: &str) -> String {
    let mut out = String::new();
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The raw query the runtime must send for these values: key, database, action,
/// then every parameter in spec order, lists joined by a literal `|`.
pub fn expected_query(
    op: &Operation,
    key: &str,
    db: &str,
    params: &[(&'static str, Vec<String>)],
) -> String {
    let mut query = format!("api_key={}&db={db}&action={}", encode(key), op.action);
    for param in op.params.iter().filter(|p| !p.implicit) {
        let values: Vec<String> = match params.iter().find(|(w, _)| *w == param.wire) {
            Some((_, values)) => values.iter().map(|v| encode(v)).collect(),
            None => match param.default {
                Some(default) => vec![encode(default)],
                None => continue,
            },
        };
        query.push_str(&format!("&{}={}", param.wire, values.join("|")));
    }
    query
}

/// The record of the spec with this name.
pub fn record(name: &str) -> Option<&'static RecordInfo> {
    RECORDS.iter().find(|r| r.name == name)
}

/// A search-result list on the wire.
pub fn sample_serp() -> Value {
    json!({"2": "https://b.example/", "1": "https://a.example/page"})
}

/// A sample value of a field of this kind, in the wire format (and such that it
/// is re-encoded unchanged).
fn sample_field(kind: FieldKind, wire: &str) -> Value {
    match kind {
        FieldKind::Integer | FieldKind::Flag => json!(1),
        FieldKind::Number => json!(1.5),
        FieldKind::Text => json!(format!("{wire}-text")),
        FieldKind::BoolWord => json!("true"),
        FieldKind::Date => json!("2024-03-04"),
        FieldKind::DateTime => json!("2024-03-04 05:06:07"),
        FieldKind::Time => json!("05:06:07"),
        FieldKind::Serp => sample_serp(),
        FieldKind::CommaList { values } if values.len() >= 2 => {
            json!(format!("{},{}", values[0], values[1]))
        }
        FieldKind::CommaList { .. } => json!("a,b"),
        FieldKind::List { record: name } => {
            let inner = sample_payload(name);
            json!([inner.clone(), inner])
        }
        _ => panic!("a field kind the tests do not know: {kind:?}"),
    }
}

/// A sample row of a payload (a record or a SERP).
pub fn sample_payload(payload: &str) -> Value {
    match record(payload) {
        Some(record) => Value::Object(
            record
                .fields
                .iter()
                .map(|f| (f.wire.to_owned(), sample_field(f.kind, f.wire)))
                .collect::<Map<_, _>>(),
        ),
        None if payload == "serp" => sample_serp(),
        None => panic!("a payload the tests do not know: {payload}"),
    }
}

/// A sample `response` for `op` given these parameter values: two rows for an
/// array, one payload for a single object, a payload per key value for a map.
pub fn sample_response(op: &Operation, params: &[(&'static str, Vec<String>)]) -> Value {
    let payload = sample_payload(op.response.payload);
    match op.response.shape {
        Shape::Array => json!([payload.clone(), payload]),
        Shape::Map { key } => {
            let keys = &params.iter().find(|(w, _)| *w == key).unwrap().1;
            Value::Object(keys.iter().map(|k| (k.clone(), payload.clone())).collect())
        }
        _ => payload,
    }
}

/// A canned envelope around a response.
pub fn envelope(response: &Value) -> String {
    json!({"ResultRows": 2, "UnitsUsed": 20, "UnitsRemaining": 980, "response": response})
        .to_string()
}

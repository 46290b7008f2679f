//! Every operation against the built-in sandbox (`--sandbox`) in every format,
//! nested lists flattened, and the standalone `seozoom sandbox --port N`.

use crate::support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use seozoom::operation_table::Shape;
use seozoom::operations::OPERATIONS;
use support::{Run, op, param_args, run, sample_params};

/// Sample parameters for the sandbox: as for the loopback server, but text values
/// that read as real inputs (a domain, a URL, a keyword).
fn sandbox_params(op: &seozoom::operation_table::Operation) -> Vec<String> {
    let params: Vec<(&'static str, Vec<String>)> = sample_params(op)
        .into_iter()
        .map(|(wire, values)| {
            let param = op.param(wire).unwrap();
            let values = match param.kind {
                seozoom::operation_table::ParamKind::Text => values
                    .iter()
                    .enumerate()
                    .map(|(i, _)| format!("example{i}.it"))
                    .collect(),
                _ => values,
            };
            (wire, values)
        })
        .collect();
    param_args(&params)
}

fn sandbox_call(format: &str, op: &seozoom::operation_table::Operation, params: &[String]) -> Run {
    let mut args = vec![
        "--sandbox".to_owned(),
        "--format".to_owned(),
        format.to_owned(),
        op.group.to_owned(),
        op.action.to_owned(),
    ];
    args.extend(params.iter().cloned());
    run(&args)
}

#[test]
fn every_operation_runs_against_the_sandbox_in_every_format() {
    for op in OPERATIONS {
        let params = sandbox_params(op);
        let json = sandbox_call("json", op, &params);
        json.expect_code(0);
        let envelope = json.json();
        let object = envelope.as_object().unwrap();
        let members: Vec<&str> = object.keys().map(String::as_str).collect();
        assert_eq!(
            members,
            ["ResultRows", "UnitsUsed", "UnitsRemaining", "response"],
            "{}",
            op.label()
        );
        let response = &envelope["response"];
        match op.response.shape {
            Shape::Array => assert!(response.is_array(), "{}", op.label()),
            _ => assert!(response.is_object(), "{}", op.label()),
        }
        assert!(envelope["UnitsUsed"].as_i64().unwrap() >= 0);

        for format in ["csv", "table"] {
            let rows = sandbox_call(format, op, &params);
            rows.expect_code(0);
            assert!(
                rows.stdout.lines().count() >= 2,
                "{} {format}: {}",
                op.label(),
                rows.stdout
            );
            assert!(rows.stderr.contains("units used:"), "{}", rows.stderr);
        }
    }
}

/// Nested lists come out one line per inner record, the outer domain on each.
#[track_caller]
fn flattened_with_the_outer_domain(action: &str, list_field: &str) {
    let op = op("domains", action);
    let mut args: Vec<String> = ["--sandbox", "--format", "csv", "domains", action]
        .map(String::from)
        .to_vec();
    for (wire, values) in sample_params(op) {
        for (i, value) in values.iter().enumerate() {
            args.push(support::flag(wire));
            args.push(if wire == "domain" {
                ["alpha.it", "beta.it"][i].to_owned()
            } else if wire == "limit" {
                "5".to_owned()
            } else {
                value.clone()
            });
        }
    }
    let run = run(&args);
    run.expect_code(0);
    let mut reader = csv::Reader::from_reader(run.stdout.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(header[0], "domain");
    assert!(
        header[1].starts_with(&format!("{list_field}.")),
        "{header:?}"
    );
    let lines: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let outer: Vec<&str> = lines.iter().map(|l| &l[0]).collect();
    assert!(
        outer.iter().all(|d| ["alpha.it", "beta.it"].contains(d)),
        "{outer:?}"
    );
    assert!(outer.contains(&"alpha.it") && outer.contains(&"beta.it"));

    // As many lines as inner records in the JSON answer (the sandbox is
    // deterministic), and no more than `limit` per domain.
    let json_args: Vec<String> = args
        .iter()
        .map(|a| {
            if a == "csv" {
                "json".to_owned()
            } else {
                a.clone()
            }
        })
        .collect();
    let json = support::run(&json_args).json();
    let inner: usize = json["response"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row[list_field].as_array().unwrap().len().max(1))
        .sum();
    assert_eq!(lines.len(), inner, "{}", run.stdout);
    assert!(
        lines.len() > 2,
        "nested lists were not flattened: {}",
        run.stdout
    );
}

#[test]
fn niches_are_flattened_with_the_outer_domain() {
    flattened_with_the_outer_domain("niches", "niches");
}

#[test]
fn competitors_are_flattened_with_the_outer_domain() {
    flattened_with_the_outer_domain("competitor", "competitor");
}

#[test]
fn no_data_from_the_sandbox_is_an_empty_result() {
    let run = run([
        "--sandbox",
        "--format",
        "json",
        "domains",
        "metrics",
        "--domain",
        "zzz.it",
    ]);
    run.expect_code(0);
    assert_eq!(run.json()["response"], serde_json::json!([]));
}

#[test]
fn refusals_exit_2_with_the_sandbox_too() {
    let run = run([
        "--sandbox",
        "domains",
        "bestpages",
        "--domain",
        "a.it",
        "--limit",
        "0",
    ]);
    run.expect_code(2);
    assert!(
        run.stderr.contains("parameter `limit` = 0"),
        "{}",
        run.stderr
    );
}

/// A standalone sandbox, ended when dropped.
struct Standalone(Child);

impl Drop for Standalone {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_standalone_sandbox_serves_other_invocations() {
    let child = support::binary()
        .args(["sandbox", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut standalone = Standalone(child);
    let mut line = String::new();
    BufReader::new(standalone.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base_url = line.trim();
    assert!(base_url.starts_with("http://127.0.0.1:"), "{line}");

    let call = |keyword: &str| {
        run([
            "--base-url",
            base_url,
            "--api-key",
            "sandbox",
            "--format",
            "json",
            "keywords",
            "metrics",
            "--keyword",
            keyword,
        ])
    };
    let first = call("mutuo");
    first.expect_code(0);
    let second = call("casa");
    second.expect_code(0);
    // One balance for every client of the sandbox.
    let (first, second) = (first.json(), second.json());
    assert_eq!(
        second["UnitsRemaining"].as_i64().unwrap(),
        first["UnitsRemaining"].as_i64().unwrap() - second["UnitsUsed"].as_i64().unwrap()
    );
}

#[test]
fn the_standalone_sandbox_reports_a_port_in_use() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let run = run(["sandbox", "--port", &port]);
    run.expect_code(1);
    assert!(
        run.stderr.contains("cannot start the sandbox"),
        "{}",
        run.stderr
    );
}

/// `seozoom sandbox --strict --rate-window SECS`: its base URL, and what it has
/// written on stderr so far (read by a thread as it comes).
fn strict_sandbox(secs: &str) -> (Standalone, String, Arc<Mutex<String>>) {
    let child = Command::new(env!("CARGO_BIN_EXE_seozoom"))
        .args(["sandbox", "--port", "0", "--strict", "--rate-window", secs])
        .env_remove("SEOZOOM_RATE_WINDOW")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut standalone = Standalone(child);
    let mut line = String::new();
    BufReader::new(standalone.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let stderr = Arc::new(Mutex::new(String::new()));
    let mut pipe = standalone.0.stderr.take().unwrap();
    let gathered = Arc::clone(&stderr);
    std::thread::spawn(move || {
        let mut chunk = [0u8; 512];
        while let Ok(n @ 1..) = pipe.read(&mut chunk) {
            gathered
                .lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&chunk[..n]));
        }
    });
    (standalone, line.trim().to_owned(), stderr)
}

/// The HTTP status of one raw `keywords metrics` GET (no client, no limiter).
fn raw_status(base_url: &str) -> u16 {
    let addr = base_url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /api/v2/keywords/?api_key=sandbox&action=metrics&keyword=mutuo&db=it HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|status| status.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer}"))
}

/// Wait up to 5 s for `text` on the gathered stderr.
#[track_caller]
fn wait_for(stderr: &Mutex<String>, text: &str) {
    let until = Instant::now() + Duration::from_secs(5);
    while !stderr.lock().unwrap().contains(text) {
        assert!(
            Instant::now() < until,
            "no {text:?} in: {}",
            stderr.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_strict_sandbox_refuses_past_the_figure_and_a_job_with_the_same_window_never_trips_it() {
    let (_sandbox, base_url, stderr) = strict_sandbox("2");
    wait_for(&stderr, "strict");

    // 2,100 keywords: 21 requests of 100, one more than `keywords metrics`
    // takes in a window. With the sandbox's window (here from the environment)
    // the command line holds the figure and is never refused.
    let figure = op("keywords", "metrics").cost.requests_per_minute.value;
    let per_request = op("keywords", "metrics").cost.per_request.value;
    let keywords: Vec<String> = (0..(figure + 1) * per_request)
        .map(|i| format!("scarpe {i}"))
        .collect();
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("strict-keywords.txt");
    std::fs::write(&file, keywords.join("\n")).unwrap();
    let job = support::run_with_env(
        [
            "--base-url",
            &base_url,
            "--api-key",
            "sandbox",
            "--format",
            "json",
            "keywords",
            "metrics",
            "--keyword-file",
            file.to_str().unwrap(),
        ],
        &[("SEOZOOM_RATE_WINDOW", "2")],
    );
    job.expect_code(0);
    assert_eq!(
        job.json()["response"].as_array().unwrap().len(),
        keywords.len()
    );
    // The sandbox reports a 429 within 200 ms; give it time to say nothing.
    std::thread::sleep(Duration::from_millis(600));
    assert!(
        !stderr.lock().unwrap().contains("refused with 429"),
        "{}",
        stderr.lock().unwrap()
    );

    // Raw requests past the figure, in a window the job has not used (another
    // window has begun): the one over the figure is answered 429, and reported.
    std::thread::sleep(Duration::from_secs(2));
    let statuses: Vec<u16> = (0..=figure).map(|_| raw_status(&base_url)).collect();
    assert!(
        statuses[..figure as usize].iter().all(|s| *s == 200),
        "{statuses:?}"
    );
    assert_eq!(statuses[figure as usize], 429, "{statuses:?}");
    wait_for(&stderr, "1 request(s) refused with 429");
}

#[test]
fn a_bad_rate_window_is_a_usage_error() {
    for bad in ["0", "-1", "soon", "inf"] {
        let option = format!("--rate-window={bad}");
        let run = run([option.as_str(), "--sandbox", "projects", "list"]);
        run.expect_code(2);
        assert!(
            run.stderr.contains("--rate-window"),
            "{bad}: {}",
            run.stderr
        );
    }
}

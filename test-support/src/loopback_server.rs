//! A loopback HTTP/1.1 server that answers every request with one canned
//! response and records what it was asked: for tests that check the exact
//! request a client sent. Std only.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

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

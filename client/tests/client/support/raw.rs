//! Raw TCP servers for the faults HTTP cannot script: a reset, a response cut
//! short, a server that never answers.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use seozoom::Client;
use seozoom::config::RetryPolicy;

use super::KEY;

/// What a [`RawServer`] does with each request.
#[derive(Clone, Copy)]
pub enum Misbehaviour {
    /// Read the request, then close with a TCP reset.
    Reset,
    /// Read the request, send headers promising more body than follows, close.
    CutShort,
    /// Read the request and never answer, holding the connection open.
    Silent,
}

/// A loopback TCP server that misbehaves; counts the connections it accepted.
pub struct RawServer {
    port: u16,
    accepted: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

/// Read what the client sent, up to the end of the request head.
async fn read_request(stream: &tokio::net::TcpStream) {
    let mut request = Vec::new();
    let mut buf = [0u8; 4096];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
        if stream.readable().await.is_err() {
            return;
        }
        match stream.try_read(&mut buf) {
            Ok(0) => return,
            Ok(n) => request.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(_) => return,
        }
    }
}

async fn write_all(stream: &tokio::net::TcpStream, mut data: &[u8]) {
    while !data.is_empty() {
        if stream.writable().await.is_err() {
            return;
        }
        match stream.try_write(data) {
            Ok(n) => data = &data[n..],
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(_) => return,
        }
    }
}

impl RawServer {
    /// Accept connections and misbehave on each.
    pub async fn start(behaviour: Misbehaviour) -> RawServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let accepted = Arc::new(AtomicUsize::new(0));
        let count = Arc::clone(&accepted);
        let task = tokio::spawn(async move {
            // Silent connections are kept here, open, until the server is dropped.
            let mut held = Vec::new();
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                count.fetch_add(1, Ordering::SeqCst);
                read_request(&stream).await;
                match behaviour {
                    Misbehaviour::Reset => {
                        // SO_LINGER 0: closing sends RST instead of FIN.
                        let _ = stream.set_zero_linger();
                        drop(stream);
                    }
                    Misbehaviour::CutShort => {
                        let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n";
                        write_all(&stream, head.as_bytes()).await;
                        write_all(&stream, br#"{"ResultRows":1,"UnitsUsed":10,"Units"#).await;
                        drop(stream);
                    }
                    Misbehaviour::Silent => held.push(stream),
                }
            }
        });
        RawServer {
            port,
            accepted,
            task,
        }
    }

    /// A client of this server with the test key.
    pub fn client(&self, retry: RetryPolicy, timeout: Duration) -> Client {
        // No store: a cache would answer the tests' repeated calls.
        Client::builder()
            .api_key(KEY)
            .base_url(format!("http://127.0.0.1:{}", self.port))
            .store(seozoom::store::Store::none())
            .retry(retry)
            .timeout(timeout)
            .build()
            .unwrap()
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }
}

impl Drop for RawServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

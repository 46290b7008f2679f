//! A real `redis-server` for tests: started on a free loopback port with no
//! persistence, killed when dropped.
//!
//! Where `redis-server` is not installed, [`RedisServer::start`] returns
//! `None` after saying that the test is skipped; under `CI=true` it panics
//! instead, so that CI never passes without having run the Redis tests.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `redis-server`.
pub struct RedisServer {
    child: Child,
    port: u16,
}

impl RedisServer {
    /// Start one, ready to answer; `None` (the test to be skipped) where
    /// `redis-server` is not installed, outside CI.
    pub fn start() -> Option<RedisServer> {
        let installed = Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !installed {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "redis-server is not installed, and CI=true: the Redis tests cannot be skipped"
            );
            eprintln!(
                "note: redis-server is not installed: this Redis test is skipped \
                 (install it: apt-get install redis-server; under CI=true this fails)"
            );
            return None;
        }
        // A free port may be taken between finding it and the server binding
        // it: try a few.
        let mut last = String::new();
        for _ in 0..5 {
            match RedisServer::start_on(free_port()) {
                Ok(server) => return Some(server),
                Err(e) => last = e,
            }
        }
        panic!("redis-server did not start: {last}");
    }

    fn start_on(port: u16) -> Result<RedisServer, String> {
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        let mut server = RedisServer { child, port };
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = server.child.try_wait() {
                return Err(format!("exited with {status}"));
            }
            if server.answers() {
                return Ok(server);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err("no answer in 10 s".to_owned())
    }

    /// Whether it answers `PING`.
    fn answers(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        let mut reply = [0u8; 7];
        stream.write_all(b"PING\r\n").is_ok()
            && stream.read_exact(&mut reply).is_ok()
            && &reply == b"+PONG\r\n"
    }

    /// Its URL (database 0).
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Kill it (`SIGKILL`), as a crash would, and wait until it is gone.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Kill it and start a new one on the same port (empty: nothing is
    /// persisted), as a restarted server is to its clients.
    pub fn restart(&mut self) {
        self.kill();
        let mut last = String::new();
        // The port may take a moment to be free again.
        for _ in 0..50 {
            match RedisServer::start_on(self.port) {
                Ok(server) => {
                    // The dead one, dropped, is killed no more: it was waited for.
                    *self = server;
                    return;
                }
                Err(e) => last = e,
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!(
            "redis-server did not start again on port {}: {last}",
            self.port
        );
    }

    /// Close every client connection but the caller's (`CLIENT KILL TYPE
    /// normal`), as a server, a proxy or an idle timeout may: the clients
    /// find out on their next command.
    pub fn kill_clients(&self) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("redis answers");
        let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
        stream
            .write_all(b"CLIENT KILL TYPE normal SKIPME yes\r\n")
            .expect("redis takes the command");
        let mut reply = [0u8; 64];
        let n = stream.read(&mut reply).expect("redis answers CLIENT KILL");
        assert!(
            reply[..n].starts_with(b":"),
            "CLIENT KILL: {:?}",
            String::from_utf8_lossy(&reply[..n])
        );
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A loopback port nothing listens on (now).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

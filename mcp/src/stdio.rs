//! The stdio transport (on standard input and output, or any pair of byte
//! streams): one JSON-RPC message per line, as `rmcp`'s, except
//! that a line that is not JSON is answered with a JSON-RPC parse error
//! (-32700, `id` null), as JSON-RPC 2.0 asks, and the session goes on. (`rmcp`
//! drops such a line without a word, and the client waits for an answer that
//! never comes.) A request `rmcp` cannot read, or of a method not served, is
//! answered with its id ([`protocol::answered_here`]); other JSON that is not
//! a message gets -32600.

use std::sync::Arc;

use super::jsonrpc::{self, INVALID_REQUEST, PARSE_ERROR};
use super::protocol;
use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// The longest line read (16 MiB); a longer one is answered with -32700 and
/// skipped, so that a runaway client cannot exhaust the memory.
const MAX_LINE: usize = 16 << 20;

/// The piece of an over-long line read at a time while it is skipped.
const SKIPPED_PIECE: u64 = 64 * 1024;

/// A byte stream in and one out (standard input and output) as a
/// line-delimited JSON-RPC transport.
pub struct Stdio<R, W> {
    input: BufReader<R>,
    line: Vec<u8>,
    output: Arc<Mutex<W>>,
    /// Whether `initialize` was received: a request before it is answered
    /// here ([`protocol::answered_here`]).
    initialized: bool,
}

impl<R, W> Stdio<R, W> {
    /// Messages read from `input` and written to `output`.
    pub fn new(input: R, output: W) -> Stdio<R, W>
    where
        R: AsyncRead,
    {
        Stdio {
            input: BufReader::new(input),
            line: Vec::new(),
            output: Arc::new(Mutex::new(output)),
            initialized: false,
        }
    }
}

/// Write one message and a newline, and flush.
async fn write_line<W: AsyncWrite + Unpin>(
    output: &Mutex<W>,
    text: serde_json::Result<Vec<u8>>,
) -> std::io::Result<()> {
    let mut text = text?;
    text.push(b'\n');
    let mut output = output.lock().await;
    output.write_all(&text).await?;
    output.flush().await
}

impl<R, W> Transport<RoleServer> for Stdio<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let output = Arc::clone(&self.output);
        let text = serde_json::to_vec(&item);
        async move { write_line(&output, text).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            // `rmcp` polls this inside a `select!` and drops it when something
            // else is ready: a line read part-way stays in `self.line`, and
            // the next call goes on with it (it is cleared once whole).
            let room = (MAX_LINE + 1).saturating_sub(self.line.len()) as u64;
            let read = (&mut self.input)
                .take(room)
                .read_until(b'\n', &mut self.line)
                .await;
            match read {
                Ok(0) | Err(_) => return None,
                Ok(_) if !self.line.ends_with(b"\n") && self.line.len() <= MAX_LINE => {
                    // End of input without a newline: the last message.
                }
                Ok(_) => {}
            }
            let too_long = self.line.len() > MAX_LINE && !self.line.ends_with(b"\n");
            if too_long {
                // Skip the rest of the line, a bounded piece at a time.
                let mut rest = Vec::new();
                loop {
                    rest.clear();
                    match (&mut self.input)
                        .take(SKIPPED_PIECE)
                        .read_until(b'\n', &mut rest)
                        .await
                    {
                        Ok(0) | Err(_) => return None,
                        Ok(_) if rest.ends_with(b"\n") => break,
                        Ok(_) => {}
                    }
                }
            }
            let line = std::mem::take(&mut self.line);
            let text = line.trim_ascii();
            if text.is_empty() {
                continue;
            }
            let (code, message) = if too_long {
                (
                    PARSE_ERROR,
                    format!("Parse error: a line longer than {MAX_LINE} bytes"),
                )
            } else {
                match serde_json::from_slice::<serde_json::Value>(text) {
                    Err(error) => (PARSE_ERROR, format!("Parse error: {error}")),
                    Ok(value) => {
                        if let Some(reply) = protocol::answered_here(&value, self.initialized) {
                            if write_line(&self.output, serde_json::to_vec(&reply))
                                .await
                                .is_err()
                            {
                                return None;
                            }
                            continue;
                        }
                        if !self.initialized {
                            self.initialized =
                                value.get("method").and_then(|m| m.as_str()) == Some("initialize");
                        }
                        match serde_json::from_value(value) {
                            Ok(message) => return Some(message),
                            Err(error) => (INVALID_REQUEST, format!("Invalid request: {error}")),
                        }
                    }
                }
            };
            let reply = jsonrpc::error_without_id(code, message);
            if write_line(&self.output, serde_json::to_vec(&reply))
                .await
                .is_err()
            {
                return None;
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.output.lock().await.flush().await
    }
}

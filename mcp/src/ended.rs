//! How a session ended, for the host program to turn into its exit code:
//! the server says what happened, the host decides the number.

/// How [`serve`](crate::serve) ended. The reason has been printed on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The client closed the session (stdio), or the server was stopped.
    Normally,
    /// Refused before serving, sending nothing: no key, an address that
    /// cannot be listened on, a store or budget that cannot be used.
    Refused,
    /// The server could not start or stopped abnormally.
    Failed,
}

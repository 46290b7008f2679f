//! What the library logs, on stderr: its warnings by default, more or none
//! with `SEOZOOM_LOG`. Its long waits are told from the run's progress
//! events ([`crate::waits::Announcer`]), whatever the level.

/// The library's warnings (a store falling back, a cache entry ignored) on
/// stderr; `SEOZOOM_LOG=info` or `debug` shows more, `off` none.
pub fn init() {
    use tracing_subscriber::Layer as _;
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    let level = stderr_log_level();
    let log = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .without_time()
        .with_target(false)
        .with_ansi(false)
        .with_filter(level);
    // Once per process: a host that runs the command line twice keeps the first.
    let _ = tracing_subscriber::registry().with(log).try_init();
}

/// The level of the library's messages on stderr: `SEOZOOM_LOG`, else warnings.
pub fn stderr_log_level() -> tracing_subscriber::filter::LevelFilter {
    std::env::var("SEOZOOM_LOG")
        .ok()
        .and_then(|level| level.parse().ok())
        .unwrap_or(tracing_subscriber::filter::LevelFilter::WARN)
}

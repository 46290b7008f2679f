//! The progress bar of a long job on stderr.

use std::io::IsTerminal;

/// A progress bar on stderr for a job of `total` steps (requests, rows), when
/// there is more than one and stderr is a terminal.
pub fn bar(total: usize, what: &str) -> Option<indicatif::ProgressBar> {
    if total < 2 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(&format!(
        "{{spinner}} [{{bar:30}}] {{pos}}/{{len}} {what} {{elapsed}}"
    )) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    Some(bar)
}

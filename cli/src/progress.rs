//! How a run goes, on stderr: a progress bar of a long job (the requests of a
//! batched job, the rows of a paged one) when stderr is a terminal, the note
//! of a row cap fitted to the budget, and its long waits
//! ([`crate::waits::Announcer`]), from the library's progress events
//! ([`seozoom::job::Progress`]).

use std::io::IsTerminal;
use std::sync::{Arc, Mutex, PoisonError};

use seozoom::job::{Progress, RunOptions};

/// What a run shows as it goes; clones share the bar.
#[derive(Clone, Default)]
pub struct Shown {
    /// What tells the long waits.
    waits: crate::waits::Announcer,
    /// The bar, once the first event said how long the job is (`None`
    /// inside when there is none to show).
    bar: Arc<Mutex<Option<Option<indicatif::ProgressBar>>>>,
}

impl Shown {
    /// Nothing shown yet.
    pub fn new() -> Self {
        Shown::default()
    }

    /// The run's options: the row cap, fitting it to the budget, and this
    /// display as the progress callback.
    pub fn options(&self, max_rows: Option<usize>, fit_budget: bool) -> RunOptions {
        let shown = self.clone();
        let mut options = RunOptions::new()
            .fit_budget(fit_budget)
            .on_progress(move |progress| shown.show(progress));
        if let Some(max_rows) = max_rows {
            options = options.max_rows(max_rows);
        }
        options
    }

    /// Show one event.
    fn show(&self, progress: Progress) {
        match progress {
            Progress::Fitted(fitted) => crate::fit_budget::note(&fitted),
            Progress::Requests { done, total } => self.at(done, total, "requests"),
            Progress::Rows { done, max } => self.at(done, max, "rows"),
            other => self.waits.show(&other),
        }
    }

    /// The bar at `done` of `total` steps (made at the first event).
    fn at(&self, done: usize, total: usize, what: &str) {
        let mut bar = self.bar.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(bar) = bar.get_or_insert_with(|| self::bar(total, what)) {
            bar.set_position(done as u64);
        }
    }

    /// The run is over: the bar goes.
    pub fn finish(&self) {
        let mut bar = self.bar.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(Some(bar)) = bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// A progress bar on stderr for a job of `total` steps (requests, rows), when
/// there is more than one and stderr is a terminal.
fn bar(total: usize, what: &str) -> Option<indicatif::ProgressBar> {
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

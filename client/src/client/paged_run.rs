//! A paged job carried out as its plan says: pages one after another until a
//! short page, the cap, a failure or the stop; each page kept, or handed to
//! the run's sink as it comes (so that memory stays one page's).

use std::ops::ControlFlow;
use std::sync::Arc;

use super::merge::InputOrder;
use super::output::{Erased, Part};
use super::pages::PageFns;
use super::plan::{Plan, Sends};
use super::progress::Progress;
use super::reduce::{Failed, Ran, Stopped};
use super::run_options::RunOptions;
use super::{Client, JobHold};
use crate::envelope::Envelope;
use crate::error::partial::Missing;
use crate::error::{Error, ErrorKind};
use crate::operation_table::Operation;
use crate::request::Request;

/// A run's sink: the rows handed over as they come.
pub(super) type Sink<'a> = &'a mut (dyn FnMut(Part) -> ControlFlow<()> + Send);

/// The pages of a paged job received so far, added up.
struct Pages {
    erased: Erased,
    ran: Ran<Part>,
    kept: Vec<Part>,
    rows: usize,
    units: i64,
    /// Whether some page did not report the balance.
    unknown_balance: bool,
}

impl Pages {
    fn new(op: &Operation, erased: Erased) -> Self {
        Pages {
            erased,
            ran: Ran::nothing((erased.nothing)(op)),
            kept: Vec::new(),
            rows: 0,
            units: 0,
            unknown_balance: false,
        }
    }

    /// One more page, its rows kept or handed to `sink`; whether the sink
    /// will take no more.
    fn add(&mut self, page: Envelope<Part>, sink: Option<&mut Sink<'_>>) -> bool {
        self.ran.tally.answered(&page);
        let envelope = &mut self.ran.envelope;
        if let Some(at) = page.fetched_at {
            envelope.fetched_at = Some(envelope.fetched_at.map_or(at, |old| old.min(at)));
        }
        match page.units_remaining {
            _ if page.no_data => {}
            Some(balance) => self.ran.reported = Some(balance),
            None => self.unknown_balance = true,
        }
        envelope.unreported.units_used |= page.unreported.units_used;
        envelope.extras.extend(page.extras);
        envelope.raw_rows.extend(page.raw_rows);
        self.units = self.units.saturating_add(page.units_used.max(0));
        self.rows = self.rows.saturating_add((self.erased.rows)(&page.response));
        match sink {
            Some(sink) => sink(page.response).is_break(),
            None => {
                self.kept.push(page.response);
                false
            }
        }
    }

    /// The pages as one result: rows joined, units summed, the latest
    /// balance (a page that did not report it leaves it unknown unless a
    /// later one did; a job that asked nothing new has the last one known).
    fn finish(mut self, known_balance: Option<i64>) -> Ran<Part> {
        let envelope = &mut self.ran.envelope;
        envelope.result_rows = i64::try_from(self.rows).unwrap_or(i64::MAX);
        envelope.units_used = self.units;
        envelope.units_remaining = match self.unknown_balance {
            true => self.ran.reported,
            false => self.ran.reported.or(known_balance),
        };
        // Nothing found and nothing paid: "no data found", or no page at all.
        envelope.no_data = self.rows == 0 && self.units == 0;
        if !self.kept.is_empty() {
            envelope.response = (self.erased.merge)(self.kept, &InputOrder::default());
        }
        self.ran
    }
}

impl Client {
    /// A paged job carried out: its pages fetched under `hold` until a short
    /// page, the cap, a failure or the stop, each kept or handed to `sink`.
    pub(super) async fn run_pages(
        &self,
        (request, plan): (Request, Plan),
        (hold, options): (Arc<JobHold>, &RunOptions),
        erased: Erased,
        mut sink: Option<Sink<'_>>,
    ) -> Result<Ran<Part>, Failed<Part>> {
        let op = request.operation();
        let Sends::Pages { pages: plan, .. } = plan.kind else {
            return Ok(Ran::nothing((erased.nothing)(op)));
        };
        let (start, page_size) = (plan.start(), plan.page_size());
        let max_rows = plan.max_rows().unwrap_or(usize::MAX);
        let page = PageFns {
            decode: erased.decode,
            rows: erased.rows,
            truncate: erased.truncate,
        };
        let mut pager = self.pager(request, (plan, hold), page);
        let mut pages = Pages::new(op, erased);
        let mut failure = None;
        while let Some(page) = pager.next_page().await {
            let page = match page {
                Ok(page) => page,
                Err(error) => {
                    failure = Some(error);
                    break;
                }
            };
            let broke = pages.add(page, sink.as_mut());
            options.tell(Progress::Rows {
                done: pages.rows,
                max: max_rows,
            });
            if broke && pager.has_more() {
                // The caller will take no more: stopped, as by its stop.
                failure = Some(Error::new(op.label(), ErrorKind::Stopped));
                break;
            }
        }
        // The job has ended (its holds are given back) before it is reported.
        pager.end().await;
        let cap = (start, page_size, max_rows);
        stopped_part_way(op, pages, failure, cap, self.units().remaining)
    }
}

/// A paged job's result; or, when it failed or was stopped, what it
/// received with the rows still missing (every page before was full: the
/// next starts after them), or the error alone when nothing was answered.
fn stopped_part_way(
    op: &Operation,
    mut pages: Pages,
    failure: Option<Error>,
    (start, page_size, max_rows): (i64, i64, usize),
    known_balance: Option<i64>,
) -> Result<Ran<Part>, Failed<Part>> {
    let answered = pages.ran.tally.requests_answered();
    if let Some(error) = &failure {
        pages.ran.tally.failed(error);
    }
    let rows = pages.rows;
    let mut ran = pages.finish(known_balance);
    let Some(cause) = failure else {
        return Ok(ran);
    };
    if answered == 0 {
        return Err(Failed::Error(cause));
    }
    let size = usize::try_from(page_size.max(1)).unwrap_or(usize::MAX);
    let left = max_rows.saturating_sub(rows);
    let missing_pages = left.div_ceil(size);
    let missing = Missing::Rows {
        param: op.paging().map_or("", |p| p.offset.wire),
        offset: start.saturating_add(i64::try_from(rows).unwrap_or(i64::MAX)),
        rows: left,
        pages: missing_pages,
    };
    // Interrupted or failed, the result is no "no data": rows may follow.
    ran.envelope.no_data = false;
    Err(Failed::Part(Box::new(Stopped {
        received: ran,
        missing,
        requests: answered + missing_pages,
        cause,
    })))
}

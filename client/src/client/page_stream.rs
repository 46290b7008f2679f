//! A paged job's rows as a stream ([`Client::pages`]): planned and held
//! against the budget when first polled, then its pages fetched one at a
//! time and their rows handed out.

use futures_core::Stream;
use futures_util::stream::{self, StreamExt};
use serde::de::DeserializeOwned;

use super::job::Job;
use super::output::Part;
use super::pages::{PageFns, Pager};
use super::plan::{Purpose, Sends};
use super::{Bounds, Client};
use crate::decode::decode_rows;
use crate::envelope::Envelope;
use crate::error::{Error, ErrorKind};
use crate::operation_table::Operation;
use crate::request::Request;

impl Client {
    /// The rows of a paged operation ([`Operation::paging`](crate::operation_table::Operation::paging)) as a stream, page by
    /// page: each request asks for `page_size` rows (fewer for a last page that
    /// reaches `max_rows`) from where the previous page ended, starting at the
    /// request's own offset (its default when not set). The request's limit is
    /// replaced by `page_size`. Paging stops when a page comes back short (or
    /// "no data found"), or when `max_rows` rows have come; `None` sets no cap.
    ///
    /// When a rule of the operation pins the offset for this request (domains
    /// `keywords` with `newentry`: the service does not page it), one page is
    /// fetched.
    ///
    /// Before the first request, the pages are validated and the whole job's
    /// maximum estimate ([`Job::Pages`](super::Job::Pages)) is held against the budget until the
    /// last page (or until the stream is dropped); a job
    /// without a row cap has no finite maximum, so under a budget it is refused.
    /// A refusal or a failed page is the stream's last item.
    ///
    /// Pages are fetched one at a time (whether there is a next one depends on
    /// the last), under the operation's rate limit.
    ///
    /// A row that cannot be typed is not in the stream (it is logged and its
    /// drift recorded): a [`run`](Self::run) with a row cap keeps such rows
    /// raw beside the typed rows.
    pub fn pages<T>(
        &self,
        request: Request,
        page_size: i64,
        max_rows: Option<usize>,
    ) -> impl Stream<Item = Result<T, Error>> + Send + Unpin + use<T>
    where
        T: DeserializeOwned + Send + 'static,
    {
        let client = self.clone();
        let job = Job::Pages {
            page_size,
            max_rows,
        };
        let page = PageFns {
            decode: decode_page::<T>,
            rows: |page| page.downcast_ref::<Vec<T>>().map_or(0, Vec::len),
            truncate: |page, rows| {
                if let Some(page) = page.downcast_mut::<Vec<T>>() {
                    page.truncate(rows);
                }
            },
        };
        stream::once(async move { client.start_pages(request, job, page).await })
            .flat_map(|started| match started {
                Ok(pager) => pager.into_stream().left_stream(),
                Err(error) => stream::iter([Err(error)]).right_stream(),
            })
            .flat_map(|page| {
                stream::iter(match page {
                    Ok(page) => {
                        if !page.raw_rows.is_empty() {
                            tracing::warn!(
                                rows = page.raw_rows.len(),
                                "rows of a page could not be typed and are left out of the stream (a run keeps them)"
                            );
                        }
                        let rows = page.response.downcast::<Vec<T>>();
                        rows.map_or_else(|_| Vec::new(), |rows| rows.into_iter().map(Ok).collect())
                    }
                    Err(error) => vec![Err(error)],
                })
            })
            .boxed()
    }

    /// A stream's paged job planned, validated and held against the budget:
    /// its pager.
    async fn start_pages(&self, request: Request, job: Job, page: PageFns) -> Result<Pager, Error> {
        let op = request.operation();
        let learned = self.learned_for_budget(op).await;
        let plan = self.plan_job(&request, job, learned, Purpose::Run).await?;
        let hold = self.hold(op, &plan, Bounds::default()).await?;
        let Sends::Pages { pages, .. } = plan.kind else {
            // A job of pages is planned as pages: not reached.
            return Err(Error::new(op.label(), ErrorKind::Stopped));
        };
        Ok(self.pager(request, (pages, hold), page))
    }
}

/// A page of `T` rows decoded, as a [`Part`].
fn decode_page<T: DeserializeOwned + Send + 'static>(
    op: &Operation,
    status: u16,
    body: &[u8],
) -> Result<Envelope<Part>, Error> {
    let envelope = decode_rows::<T>(op, status, body)?;
    Ok(envelope.map(|rows| Box::new(rows) as Part))
}

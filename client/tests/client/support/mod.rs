//! Shared support of the client's tests: the one scripted loopback server
//! ([`Server`], [`Reply`]), raw TCP servers that misbehave ([`RawServer`]) and
//! small helpers.

// Each test module uses part of it (and some only with the `sandbox` feature).
#![allow(dead_code, unused_imports)]

mod raw;
mod server;

use seozoom::Envelope;

pub use raw::{Misbehaviour, RawServer};
pub use server::{ECHO, Reply, Seen, Server};

/// The key every test client sends: distinctive enough that finding it in any
/// output is a leak.
pub const KEY: &str = "TEST-KEY-123";

/// Every rendering of an error and of each error in its source chain:
/// `Display`, `Debug` and alternate `Debug` (where a kept cause could leak
/// what the error's own texts hide).
pub fn renderings(error: &(dyn std::error::Error + 'static)) -> Vec<String> {
    let mut all = Vec::new();
    let mut next = Some(error);
    while let Some(e) = next {
        all.extend([format!("{e}"), format!("{e:?}"), format!("{e:#?}")]);
        next = e.source();
    }
    all
}

/// The `T` in an error's source chain, if any.
pub fn source_of<'a, T: std::error::Error + 'static>(
    error: &'a (dyn std::error::Error + 'static),
) -> Option<&'a T> {
    std::iter::successors(error.source(), |e| e.source()).find_map(|e| e.downcast_ref::<T>())
}

/// The envelope figures: `(ResultRows, UnitsUsed, UnitsRemaining)`.
pub fn units<T>(envelope: &Envelope<T>) -> (i64, i64, Option<i64>) {
    (
        envelope.result_rows,
        envelope.units_used,
        envelope.units_remaining,
    )
}

/// What a whole job of `request` costs, as if the cache answered nothing:
/// the plan's `whole`. A paged job's page size is the request's limit; one
/// without a row cap is planned with the largest.
pub async fn whole_estimate(
    client: &seozoom::Client,
    request: &seozoom::request::Request,
    job: seozoom::Job,
) -> Result<seozoom::units::Estimate, seozoom::Error> {
    use seozoom::job::RunOptions;
    let mut request = request.clone();
    let options = match job {
        seozoom::Job::Pages {
            page_size,
            max_rows,
        } => {
            let paging = request.operation().paging();
            if let Some(paging) = paging {
                request.one(paging.limit.wire, &page_size);
            }
            RunOptions::new().max_rows(max_rows.unwrap_or(usize::MAX))
        }
        _ => RunOptions::new(),
    };
    Ok(client.plan(&request, &options).await?.whole)
}

//! The one runner, `Client::run`, on real HTTP over loopback against the
//! sandbox: the table decides single, batched or paged; "no data found" is an
//! empty result for every kind of result, fresh or from the cache; the
//! figures are exact (`from_cache` only when nothing was sent, the items and
//! requests the cache answered, the units of the run's own requests, no
//! balance made up); a stop ends every wait of every kind of job at once and
//! sends nothing more; a run's bound on waits refuses a longer wait; a paged
//! job that stops part-way keeps its rows and says where the rest start.

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support;
use seozoom::config::RetryPolicy;
use seozoom::error::ErrorKind;
use seozoom::job::{Missing, Progress, RunOptions, Stop};
use seozoom::sandbox::{Fault, FaultPlan, Sandbox};
use seozoom::store::Store;
use seozoom::types::{ByKey, DomainKeyword, KeywordMetrics, KeywordType, Serp};
use seozoom::{Client, Job};

fn client(sandbox: &Sandbox) -> Client {
    Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .store(Store::memory())
        .build()
        .unwrap()
}

/// Give `stop` after `after`, while the run waits.
fn stop_after(stop: &Stop, after: Duration) {
    let stop = stop.clone();
    tokio::spawn(async move {
        tokio::time::sleep(after).await;
        stop.stop();
    });
}

#[tokio::test]
async fn a_batched_job_half_in_the_cache_says_exactly_what_was_sent() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let none = RunOptions::new();
    let first = c.keywords().metrics(["mutuo", "scarpe"]).request();
    let first = c
        .run::<Vec<KeywordMetrics>>(first, none.clone())
        .await
        .unwrap();
    assert!(!first.figures.from_cache);
    assert_eq!(first.figures.requests_sent, 1);
    assert_eq!(first.figures.units_used, first.envelope.units_used);
    assert!(first.figures.units_used > 0);

    // Half of it cached is not "from the cache": a request was still sent.
    let half = c.keywords().metrics(["mutuo", "brand new kw"]).request();
    let half = c
        .run::<Vec<KeywordMetrics>>(half, none.clone())
        .await
        .unwrap();
    assert_eq!(sandbox.requests(), 2);
    let f = half.figures;
    assert!(!f.from_cache, "{f:?}");
    assert_eq!(
        (f.cached_items, f.cached_requests, f.requests_sent),
        (1, 0, 1)
    );
    assert!(f.units_used > 0 && f.units_remaining == Some(sandbox.units_remaining()));
    let keywords: Vec<&str> = half
        .envelope
        .response
        .iter()
        .map(|r| r.keyword.as_str())
        .collect();
    assert_eq!(keywords, ["mutuo", "brand new kw"], "input order");

    // All of it cached: nothing sent, from the cache.
    let all = c.keywords().metrics(["scarpe", "mutuo"]).request();
    let all = c
        .run::<Vec<KeywordMetrics>>(all, none.clone())
        .await
        .unwrap();
    assert_eq!(sandbox.requests(), 2);
    let f = all.figures;
    assert!(
        f.from_cache && f.requests_sent == 0 && f.units_used == 0,
        "{f:?}"
    );
    assert_eq!(f.cached_items, 2);
}

#[tokio::test]
async fn a_call_answered_whole_from_the_cache_is_one_cached_request() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let request = || c.domains().keywords("example.it", KeywordType::Best, 10);
    let none = RunOptions::new();
    let fresh = c.run::<Vec<DomainKeyword>>(request().request(), none.clone());
    let fresh = fresh.await.unwrap();
    assert_eq!(fresh.figures.requests_sent, 1);
    let again = c.run::<Vec<DomainKeyword>>(request().request(), none.clone());
    let again = again.await.unwrap();
    let f = again.figures;
    assert!(f.from_cache && f.cached_requests == 1 && f.requests_sent == 0);
    assert_eq!(again.envelope.response, fresh.envelope.response);
    assert_eq!(sandbox.requests(), 1);
}

#[tokio::test]
async fn no_data_is_the_empty_result_of_every_kind_fresh_or_cached() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let none = RunOptions::new();

    // A list: empty, no balance made up before any was reported.
    let list = c.keywords().metrics(["zzz nothing"]).request();
    let list = c
        .run::<Vec<KeywordMetrics>>(list, none.clone())
        .await
        .unwrap();
    assert!(list.figures.no_data && list.envelope.response.is_empty());
    assert_eq!(
        list.figures.units_remaining, None,
        "never a fake 0: no balance was reported"
    );
    assert_eq!(list.figures.requests_sent, 1);

    // One object: `None`, not an error.
    let date = seozoom::types::Date::new(2024, 1, 15).unwrap();
    let day = c.keywords().serp_history("zzz nothing", date);
    let one = c
        .run::<Option<Serp>>(day.request(), none.clone())
        .await
        .unwrap();
    assert!(one.figures.no_data && one.envelope.response.is_none());

    // A map: empty.
    let map = c.keywords().serp(["zzz nothing"]).request();
    let map = c.run::<ByKey<Serp>>(map, none.clone()).await.unwrap();
    assert!(map.figures.no_data && map.envelope.response.is_empty());

    // The same input answered from a batch's cache is
    // "no data" too, and the balance is the one last reported.
    let batch = c.keywords().metrics(["zzz other", "mutuo"]).request();
    c.run::<Vec<KeywordMetrics>>(batch, none.clone())
        .await
        .unwrap();
    let sent = sandbox.requests();
    let cached = c.keywords().metrics(["zzz other"]).request();
    let cached = c
        .run::<Vec<KeywordMetrics>>(cached, none.clone())
        .await
        .unwrap();
    assert_eq!(sandbox.requests(), sent, "answered from the batch's cache");
    let f = cached.figures;
    assert!(f.from_cache && f.no_data, "{f:?}");
    assert_eq!(f.units_remaining, Some(sandbox.units_remaining()));
    let both = c.keywords().metrics(["zzz other", "zzz more"]).request();
    let both = c
        .run::<Vec<KeywordMetrics>>(both, none.clone())
        .await
        .unwrap();
    assert!(both.figures.no_data && !both.figures.from_cache);
}

#[tokio::test]
async fn a_paged_job_with_a_row_cap_counts_its_own_pages() {
    let sandbox = Sandbox::builder().paged_rows(1_000).start().await.unwrap();
    let c = client(&sandbox);
    let progress = Arc::new(Mutex::new(Vec::new()));
    let told = Arc::clone(&progress);
    let options = RunOptions::new()
        .max_rows(25)
        .on_progress(move |p| told.lock().unwrap().push(p));
    let rows = c.domains().keywords("example.it", KeywordType::Best, 10);
    let ran = c.run::<Vec<DomainKeyword>>(rows.request(), options.clone());
    let ran = ran.await.unwrap();
    assert_eq!(ran.envelope.response.len(), 25);
    assert_eq!(ran.envelope.result_rows, 25);
    assert_eq!(ran.figures.requests_sent, 3);
    assert_eq!(sandbox.requests(), 3);
    assert_eq!(
        ran.figures.units_used,
        1_000_000 - sandbox.units_remaining()
    );
    let rows_told: Vec<usize> = progress
        .lock()
        .unwrap()
        .iter()
        .filter_map(|p| match p {
            Progress::Rows { done, max: 25 } => Some(*done),
            _ => None,
        })
        .collect();
    assert_eq!(rows_told, [10, 20, 25]);
    // The same job again: every page from the cache.
    let again = c.run::<Vec<DomainKeyword>>(rows.request(), options.clone());
    let again = again.await.unwrap();
    assert!(again.figures.from_cache && again.figures.cached_requests == 3);
    assert_eq!(again.envelope.response, ran.envelope.response);
}

#[tokio::test]
async fn a_stop_ends_a_paged_jobs_retry_after_wait_at_once() {
    // The third page is answered 429 with a Retry-After of 30 s.
    let faults = FaultPlan::none()
        .on("offset", "20", Fault::RateLimitedRetryAfter)
        .retry_after(30);
    let sandbox = Sandbox::builder()
        .paged_rows(1_000)
        .faults(faults)
        .start()
        .await
        .unwrap();
    let c = client(&sandbox);
    let stop = Stop::new();
    let options = RunOptions::new().max_rows(50).stop(stop.clone());
    stop_after(&stop, Duration::from_millis(500));
    let started = Instant::now();
    let rows = c.domains().keywords("example.it", KeywordType::Best, 10);
    let error = c.run::<Vec<DomainKeyword>>(rows.request(), options.clone());
    let error = error.await.unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(sandbox.requests(), 3, "nothing sent after the stop");
    let partial = error.into_partial().expect("two pages received");
    let (received, missing, cause) = partial.into_outcome::<Vec<DomainKeyword>>().unwrap();
    assert!(matches!(cause.kind(), ErrorKind::Stopped), "{cause}");
    assert_eq!(received.envelope.response.len(), 20);
    assert_eq!(
        received.figures.requests_sent, 3,
        "the 429 reached the service"
    );
    match missing {
        Missing::Rows {
            param,
            offset,
            rows,
            pages,
            ..
        } => assert_eq!((param, offset, rows, pages), ("offset", 20, 30, 3)),
        other => panic!("expected missing rows, got {other:?}"),
    }
}

#[tokio::test]
async fn a_stop_ends_a_wait_for_a_rate_limit_slot_in_every_kind_of_job() {
    // A window of 4 s: the figure's requests in it, then a wait for a slot.
    let window = Duration::from_secs(4);
    let sandbox = Sandbox::builder()
        .paged_rows(100_000)
        .rate_window(window)
        .start()
        .await
        .unwrap();
    let c = Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .store(Store::none())
        .rate_window(window)
        .build()
        .unwrap();
    let op = seozoom::operation_table::Operation::find("domains", "keywords").unwrap();
    let figure = usize::try_from(op.cost.requests_per_minute.value).unwrap();

    // A paged job with more pages than the window takes.
    let stop = Stop::new();
    let options = RunOptions::new()
        .max_rows(10 * (figure + 5))
        .stop(stop.clone());
    let c2 = c.clone();
    let watch = stop.clone();
    tokio::spawn(async move {
        // Stop once the figure's requests went out and the next waits.
        while c2.units().calls < figure as u64 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        watch.stop();
    });
    let started = Instant::now();
    let rows = c.domains().keywords("example.it", KeywordType::Best, 10);
    let error = c.run::<Vec<DomainKeyword>>(rows.request(), options.clone());
    let error = error.await.unwrap_err();
    let took = started.elapsed();
    assert!(took < window, "the stop ended the wait: {took:?}");
    assert_eq!(sandbox.requests(), figure as u64, "nothing after the stop");
    let partial = error.into_partial().expect("pages received");
    assert!(matches!(partial.cause().kind(), ErrorKind::Stopped));
    assert_eq!(partial.result_rows(), 10 * figure as i64);
    assert_eq!(sandbox.rate_limited(), 0);

    // One call waiting for its slot (the window is still full): stopped
    // before it is sent.
    let stop = Stop::new();
    stop_after(&stop, Duration::from_millis(200));
    let one = c.domains().keywords("other.it", KeywordType::Best, 10);
    let started = Instant::now();
    let error = c
        .run::<Vec<DomainKeyword>>(one.request(), RunOptions::new().stop(stop))
        .await
        .unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::Stopped), "{error}");
    assert!(error.is_refused(), "nothing was sent or charged");
    assert!(started.elapsed() < window);
    assert_eq!(sandbox.requests(), figure as u64);
}

#[tokio::test]
async fn a_stop_ends_a_single_calls_backoff() {
    let faults = FaultPlan::none().on("keyword", "boom", Fault::ServerError);
    let sandbox = Sandbox::builder().faults(faults).start().await.unwrap();
    let c = Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .retry(RetryPolicy {
            max_attempts: 5,
            initial_backoff: Duration::from_secs(20),
            max_backoff: Duration::from_secs(20),
            ..RetryPolicy::default()
        })
        .build()
        .unwrap();
    let stop = Stop::new();
    stop_after(&stop, Duration::from_millis(300));
    let started = Instant::now();
    let request = c.keywords().serp(["boom"]).request();
    let error = c
        .run::<ByKey<Serp>>(request, RunOptions::new().stop(stop))
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(matches!(error.kind(), ErrorKind::Stopped), "{error}");
    assert_eq!(sandbox.requests(), 1, "the first attempt only");
}

#[tokio::test]
async fn a_wait_longer_than_the_runs_bound_is_not_begun() {
    let faults = FaultPlan::none()
        .on("keyword", "busy", Fault::RateLimitedRetryAfter)
        .retry_after(30);
    let sandbox = Sandbox::builder().faults(faults).start().await.unwrap();
    let c = client(&sandbox);
    let options = RunOptions::new().max_wait(Duration::from_secs(3));
    let started = Instant::now();
    let request = c.keywords().metrics(["busy"]).request();
    let error = c.run::<Vec<KeywordMetrics>>(request, options.clone());
    let error = error.await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(3));
    match error.kind() {
        ErrorKind::WaitedTooLong { wait, max_wait, .. } => {
            assert_eq!(*max_wait, Duration::from_secs(3));
            assert_eq!(*wait, Duration::from_secs(30));
        }
        other => panic!("expected WaitedTooLong, got {other:?}"),
    }
    // The run's bound is at most the client's.
    let short = Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .max_wait(Duration::from_secs(1))
        .build()
        .unwrap();
    let request = short.keywords().metrics(["busy"]).request();
    let options = RunOptions::new().max_wait(Duration::from_secs(3_600));
    let error = short.run::<Vec<KeywordMetrics>>(request, options.clone());
    match error.await.unwrap_err().kind() {
        ErrorKind::WaitedTooLong { max_wait, .. } => {
            assert_eq!(*max_wait, Duration::from_secs(1));
        }
        other => panic!("expected WaitedTooLong, got {other:?}"),
    }
}

#[tokio::test]
async fn a_paged_job_fitted_to_the_budget_says_so_before_its_first_request() {
    let sandbox = Sandbox::builder().paged_rows(1_000).start().await.unwrap();
    let c = Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .budget(100)
        .build()
        .unwrap();
    let progress = Arc::new(Mutex::new(Vec::new()));
    let told = Arc::clone(&progress);
    let options = RunOptions::new()
        .max_rows(1_000)
        .fit_budget(true)
        .on_progress(move |p| told.lock().unwrap().push(p));
    let rows = c.domains().keywords("example.it", KeywordType::Best, 10);
    let ran = c.run::<Vec<DomainKeyword>>(rows.request(), options.clone());
    let ran = ran.await.unwrap();
    let progress = progress.lock().unwrap().clone();
    let Some(Progress::Fitted(fit)) = progress.first().cloned() else {
        panic!("the fit is told first: {progress:?}");
    };
    assert!(fit.is_cut() && fit.rows < 1_000 && fit.rows > 0, "{fit:?}");
    assert_eq!(ran.envelope.response.len(), fit.rows);
    assert!(ran.figures.units_used <= 100);
    // Without fitting, the same job is refused whole.
    let refused = c.run::<Vec<DomainKeyword>>(rows.request(), RunOptions::new().max_rows(1_000));
    assert!(refused.await.unwrap_err().is_refused());
}

#[tokio::test]
async fn pages_handed_over_as_they_come_and_a_break_stops_the_job() {
    let sandbox = Sandbox::builder().paged_rows(1_000).start().await.unwrap();
    let c = client(&sandbox);
    let rows = c.domains().keywords("example.it", KeywordType::Best, 10);
    let mut pages = Vec::new();
    let options = RunOptions::new().max_rows(45);
    let ran = c
        .run_each(
            rows.request(),
            options.clone(),
            |page: serde_json::Value| {
                pages.push(page.as_array().map_or(0, Vec::len));
                ControlFlow::Continue(())
            },
        )
        .await
        .unwrap();
    assert_eq!(pages, [10, 10, 10, 10, 5]);
    assert_eq!(ran.envelope.response, serde_json::json!([]), "not kept");
    assert_eq!(ran.envelope.result_rows, 45);

    // A reader that goes away after the second page: no more pages.
    let sent = sandbox.requests();
    let mut taken = 0;
    let other = c.domains().keywords("other.it", KeywordType::Best, 10);
    let error = c
        .run_each(other.request(), options, |_: serde_json::Value| {
            taken += 1;
            match taken {
                2 => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            }
        })
        .await
        .unwrap_err();
    assert_eq!(sandbox.requests(), sent + 2);
    let partial = error.into_partial().unwrap();
    assert!(matches!(partial.cause().kind(), ErrorKind::Stopped));
    assert_eq!(partial.missing().requests(), 3);
}

#[tokio::test]
async fn a_row_cap_on_an_operation_that_does_not_page_is_refused() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let request = c.keywords().metrics(["mutuo"]).request();
    assert!(Job::of(&request, Some(10)).is_err());
    let error = c.run::<Vec<KeywordMetrics>>(request, RunOptions::new().max_rows(10));
    let error = error.await.unwrap_err();
    assert!(error.is_refused(), "{error}");
    assert_eq!(sandbox.requests(), 0);
}

#[tokio::test]
async fn estimates_and_usage_serialize_in_one_form() {
    let unknown = serde_json::to_value(seozoom::units::Estimate::UNKNOWN).unwrap();
    assert_eq!(
        unknown,
        serde_json::json!({
            "min": 0, "max": null, "unknown": true, "basis": "spec",
            "learned": null, "per_row": null, "per_request": null
        })
    );
    let c = Client::new("k").unwrap();
    let rows = c.domains().keywords("example.it", KeywordType::Best, 100);
    let uncapped = Job::Pages {
        page_size: 100,
        max_rows: None,
    };
    let unbounded = support::whole_estimate(&c, &rows.request(), uncapped).await;
    let unbounded = serde_json::to_value(unbounded.unwrap()).unwrap();
    assert_eq!(unbounded["max"], serde_json::Value::Null, "no i64::MAX");
    assert_eq!(unbounded["unknown"], false);
    let units = serde_json::to_value(c.units()).unwrap();
    assert_eq!(
        units,
        serde_json::json!({"used": 0, "remaining": null, "calls": 0})
    );
}

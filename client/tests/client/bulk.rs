//! Bulk jobs on real HTTP over loopback, against the sandbox: auto-batching of
//! list parameters (fewest requests, input order, duplicates sent once, units
//! summed), pagination as a stream, the whole job's cost estimated and held
//! against the budget before anything is sent.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::support;
use futures_util::{FutureExt, StreamExt};
use seozoom::error::ErrorKind;
use seozoom::job::RunOptions;
use seozoom::sandbox::Sandbox;
use seozoom::{
    Client, Job, config::RetryPolicy, request::Request, types::KeywordType, units::Estimate,
};

/// A client of the sandbox with the spec's rate limits (the default) and no
/// retries, and a unit budget when given.
fn client_of(base_url: &str, budget: Option<i64>) -> Client {
    // No store: these tests count requests, and a cache would answer repeated
    // ones (the `store` module covers the cache).
    let mut builder = Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(base_url)
        .store(seozoom::store::Store::none())
        .retry(RetryPolicy::none());
    if let Some(budget) = budget {
        builder = builder.budget(budget);
    }
    builder.build().unwrap()
}

fn client(sandbox: &Sandbox) -> Client {
    client_of(&sandbox.base_url(), None)
}

/// 250 distinct keywords in no sorted order.
fn keywords() -> Vec<String> {
    (0..250)
        .map(|i| format!("scarpe {:03}", (i * 37) % 250))
        .collect()
}

/// The keywords with 60 repeats mixed in: exact copies and copies with spaces
/// around them. Without deduplication they would need 4 requests of 100.
fn keywords_with_repeats() -> Vec<String> {
    let unique = keywords();
    let mut inputs = Vec::new();
    for (i, keyword) in unique.iter().enumerate() {
        inputs.push(keyword.clone());
        if i % 4 == 1 {
            let earlier = &unique[i / 2];
            inputs.push(if i % 8 == 1 {
                earlier.clone()
            } else {
                format!("  {earlier} ")
            });
        }
    }
    inputs.extend(unique[..2].iter().cloned());
    assert!(inputs.len() > 300, "{} inputs", inputs.len());
    inputs
}

#[tokio::test]
async fn keywords_in_three_requests_in_input_order_units_summed() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let inputs = keywords_with_repeats();
    let builder = c.keywords().metrics(inputs.clone());

    let estimate = support::whole_estimate(&c, &builder.request(), Job::Batched)
        .await
        .unwrap();
    let result = builder.send_all().await.unwrap();

    assert_eq!(
        sandbox.requests(),
        3,
        "250 distinct keywords: 100 + 100 + 50"
    );
    let got: Vec<&str> = result.response.iter().map(|r| r.keyword.as_str()).collect();
    assert_eq!(
        got,
        keywords(),
        "one row per distinct keyword, in input order"
    );
    assert_eq!(result.result_rows, 250);
    assert!(!result.no_data);
    let spent = Sandbox::STARTING_UNITS - sandbox.units_remaining();
    assert_eq!(result.units_used, spent, "units summed over the requests");
    assert_eq!(result.units_remaining, Some(sandbox.units_remaining()));
    assert_eq!(c.units().used, spent);
    assert_eq!(c.units().calls, 3);
    assert!(
        estimate.min <= spent && spent <= estimate.max,
        "{estimate:?}"
    );
}

#[tokio::test]
async fn duplicates_are_sent_once_with_the_text_of_their_first_occurrence() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let inputs = keywords_with_repeats();
    let batches = c.keywords().metrics(inputs).request().batches();
    let sent: Vec<String> = batches
        .iter()
        .flat_map(|b| b.get("keyword").unwrap().to_vec())
        .collect();
    assert_eq!(sent, keywords());
    assert_eq!(
        batches
            .iter()
            .map(|b| b.get("keyword").unwrap().len())
            .collect::<Vec<_>>(),
        [100, 100, 50]
    );
    // A repeat whose first occurrence has spaces keeps them: that text is sent.
    let request = c
        .keywords()
        .metrics([" mutuo ", "mutuo", "casa"])
        .request()
        .batches();
    assert_eq!(request.len(), 1);
    assert_eq!(request[0].get("keyword").unwrap(), [" mutuo ", "casa"]);
    assert_eq!(sandbox.requests(), 0);
}

#[tokio::test]
async fn niches_of_25_domains_in_three_requests_of_at_most_10() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let domains: Vec<String> = (0..25).map(|i| format!("site{}.it", 24 - i)).collect();
    let builder = c.domains().niches(domains.clone(), 3);
    let batches = builder.request().batches();
    assert_eq!(
        batches
            .iter()
            .map(|b| b.get("domain").unwrap().len())
            .collect::<Vec<_>>(),
        [10, 10, 5]
    );
    let result = builder.send_all().await.unwrap();
    assert_eq!(sandbox.requests(), 3);
    let got: Vec<&str> = result.response.iter().map(|r| r.domain.as_str()).collect();
    assert_eq!(got, domains);
    assert!(result.response.iter().all(|r| r.niches.len() <= 3));
    assert_eq!(
        result.units_used,
        Sandbox::STARTING_UNITS - sandbox.units_remaining()
    );
}

#[tokio::test]
async fn a_map_result_merges_its_keys() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let inputs: Vec<String> = (0..150).map(|i| format!("mutuo {i}")).collect();
    let result = c.keywords().serp(inputs.clone()).send_all().await.unwrap();
    assert_eq!(sandbox.requests(), 2);
    assert_eq!(result.response.len(), 150);
    assert!(inputs.iter().all(|k| result.response.contains_key(k)));
    assert_eq!(result.result_rows, 150);
    assert_eq!(
        result.units_used,
        Sandbox::STARTING_UNITS - sandbox.units_remaining()
    );
}

#[tokio::test]
async fn a_batch_with_no_data_adds_nothing() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    // The first request's keywords are all unknown to the sandbox: "no data".
    let mut inputs: Vec<String> = (0..100).map(|i| format!("zzz {i}")).collect();
    inputs.extend((0..30).map(|i| format!("casa {i}")));
    let result = c.keywords().metrics(inputs).send_all().await.unwrap();
    assert_eq!(sandbox.requests(), 2);
    assert!(!result.no_data);
    assert_eq!(result.response.len(), 30);
    assert_eq!(result.result_rows, 30);
    assert_eq!(
        result.units_used,
        Sandbox::STARTING_UNITS - sandbox.units_remaining()
    );

    let unknown: Vec<String> = (0..120).map(|i| format!("zzz {i}")).collect();
    let none = c.keywords().metrics(unknown).send_all().await.unwrap();
    assert!(none.no_data);
    assert!(none.response.is_empty());
    assert_eq!((none.result_rows, none.units_used), (0, 0));
}

/// A loopback proxy in front of the sandbox that reverses every `response`
/// array and respells each row's `domain` (`WWW.` and upper case, trailing `/`),
/// as a service free to reorder and normalise rows might.
struct Reorderer {
    base_url: String,
    requests: Arc<AtomicU64>,
    _task: tokio::task::JoinHandle<()>,
}

async fn reorderer(upstream: String) -> Reorderer {
    use axum::http::Uri;
    let requests = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&requests);
    let app = axum::Router::new().fallback(move |uri: Uri| {
        let upstream = upstream.clone();
        let counter = Arc::clone(&counter);
        async move {
            counter.fetch_add(1, Ordering::SeqCst);
            let body = reqwest::get(format!("{upstream}{uri}"))
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            let mut value: serde_json::Value = serde_json::from_str(&body).unwrap();
            if let Some(rows) = value
                .get_mut("response")
                .and_then(serde_json::Value::as_array_mut)
            {
                rows.reverse();
                for row in rows {
                    if let Some(domain) = row.get("domain").and_then(|d| d.as_str()) {
                        row["domain"] = format!("WWW.{}/", domain.to_uppercase()).into();
                    }
                }
            }
            value.to_string()
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    Reorderer {
        base_url,
        requests,
        _task: task,
    }
}

#[tokio::test]
async fn rows_the_service_reorders_are_matched_back_by_their_key() {
    let sandbox = Sandbox::start().await.unwrap();
    let proxy = reorderer(sandbox.base_url()).await;
    let c = client_of(&proxy.base_url, None);
    let domains: Vec<String> = (0..120)
        .map(|i| format!("shop{}.it", (i * 7) % 120))
        .collect();
    let result = c
        .domains()
        .metrics(domains.clone())
        .send_all()
        .await
        .unwrap();
    assert_eq!(proxy.requests.load(Ordering::SeqCst), 3, "50 + 50 + 20");
    let got: Vec<String> = result
        .response
        .iter()
        .map(|r| {
            r.domain
                .trim_start_matches("WWW.")
                .trim_end_matches('/')
                .to_lowercase()
        })
        .collect();
    assert_eq!(got, domains);
    assert_eq!(result.result_rows, 120);
}

#[tokio::test]
async fn the_batched_estimate_is_the_sum_of_its_requests() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let request = c.keywords().metrics(keywords_with_repeats()).request();
    let sum = request
        .batches()
        .iter()
        .map(|b| c.estimate(b).unwrap())
        .fold(Estimate::ZERO, Estimate::plus);
    let job = support::whole_estimate(&c, &request, Job::Batched)
        .await
        .unwrap();
    assert_eq!(job, sum);
    let figure = request.operation().cost.units[0];
    assert_eq!(job.max, 250 * figure);
    // More than one request takes is refused by a plain send, and by the estimate
    // of one request.
    assert!(c.estimate(&request).unwrap_err().is_refused());
    assert_eq!(sandbox.requests(), 0);
}

#[tokio::test]
async fn a_batched_job_over_budget_sends_nothing() {
    let sandbox = Sandbox::start().await.unwrap();
    let probe = client(&sandbox);
    let request = probe.keywords().metrics(keywords()).request();
    let job = support::whole_estimate(&probe, &request, Job::Batched)
        .await
        .unwrap();
    let one = probe.estimate(&request.batches()[0]).unwrap();
    // Enough for any one request, not for the job.
    let c = client_of(&sandbox.base_url(), Some(job.max - 1));
    assert!(one.max < job.max - 1);
    let err = c
        .keywords()
        .metrics(keywords())
        .send_all()
        .await
        .unwrap_err();
    match err.kind() {
        ErrorKind::OverBudget { estimate_max, .. } => {
            assert_eq!(*estimate_max, job.max);
            let operation = err.operation().unwrap_or_default();
            assert!(operation.contains("3 requests"), "{operation}");
        }
        other => panic!("expected OverBudget, got {other:?}"),
    }
    assert!(err.is_refused());
    assert_eq!(sandbox.requests(), 0, "nothing sent");
    assert_eq!(c.units().used, 0);

    // A budget that covers the job lets it run.
    let c = client_of(&sandbox.base_url(), Some(job.max));
    c.keywords().metrics(keywords()).send_all().await.unwrap();
    assert_eq!(sandbox.requests(), 3);
}

#[tokio::test]
async fn a_running_job_holds_its_estimate_against_calls_on_clones() {
    let sandbox = Sandbox::start().await.unwrap();
    let probe = client(&sandbox);
    let request = probe.keywords().metrics(keywords()).request();
    let job_max = support::whole_estimate(&probe, &request, Job::Batched)
        .await
        .unwrap()
        .max;
    let extra = probe.keywords().metrics(["extra"]).request();
    let one = probe.estimate(&extra).unwrap().max;
    // The job fits, and so would the extra call on its own, but not both.
    let c = client_of(&sandbox.base_url(), Some(job_max + one - 1));
    let clone = c.clone();

    let job = c.keywords().metrics(keywords()).send_all();
    let mut job = std::pin::pin!(job);
    // Started: the job is admitted and its first requests are in flight.
    assert!(job.as_mut().now_or_never().is_none());
    let err = clone
        .keywords()
        .metrics(["extra"])
        .send()
        .await
        .unwrap_err();
    match err.kind() {
        ErrorKind::OverBudget {
            estimate_max,
            budget_left,
            ..
        } => {
            assert_eq!(*estimate_max, one);
            assert_eq!(*budget_left, one - 1, "all but the job's hold");
        }
        other => panic!("expected OverBudget, got {other:?}"),
    }
    // The job was not starved by the call: it runs to the end.
    let metrics = job.await.unwrap();
    assert_eq!(metrics.response.len(), 250);
    assert_eq!(sandbox.requests(), 3, "the extra call was never sent");
}

#[tokio::test]
async fn a_job_frees_what_it_held_and_did_not_spend() {
    let sandbox = Sandbox::start().await.unwrap();
    let probe = client(&sandbox);
    let request = probe
        .domains()
        .keywords("example.it", KeywordType::Best, 1)
        .request();
    // Far more rows than the sandbox has for the query: the job ends at a short
    // page having spent less than it held.
    let job = Job::Pages {
        page_size: 100,
        max_rows: Some(1_000),
    };
    let held = support::whole_estimate(&probe, &request, job)
        .await
        .unwrap()
        .max;
    let c = client_of(&sandbox.base_url(), Some(held));
    let rows: Vec<_> = c
        .pages::<seozoom::types::DomainKeyword>(request.clone(), 100, Some(1_000))
        .collect()
        .await;
    assert!(rows.iter().all(Result::is_ok));
    let spent = c.units().used;
    assert!(spent > 0 && spent < held, "{spent} of {held}");
    // What is left of the budget is free again for one call of that size.
    let rest = held - spent;
    let fits = c.estimate(&request).unwrap().max;
    assert!(fits <= rest);
    c.run::<Vec<seozoom::types::DomainKeyword>>(request.clone(), RunOptions::one_request())
        .await
        .unwrap();

    // A stream dropped after its first page frees the rest as well.
    let c = client_of(&sandbox.base_url(), Some(held));
    let mut pages = c.pages::<seozoom::types::DomainKeyword>(request.clone(), 100, Some(1_000));
    pages.next().await.unwrap().unwrap();
    drop(pages);
    let after_one_page = c.units().used;
    let mut last = request.clone();
    let left = held - after_one_page;
    let per_row = seozoom::operations::DOMAINS_KEYWORDS.cost.units[0];
    last.one("limit", &(left / per_row));
    c.run::<Vec<seozoom::types::DomainKeyword>>(last, RunOptions::one_request())
        .await
        .unwrap();
}

#[tokio::test]
async fn an_invalid_input_refuses_the_whole_job() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let mut inputs = keywords();
    inputs.push("a|b".into());
    let err = c.keywords().metrics(inputs).send_all().await.unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::InvalidInput(_)), "{err:?}");
    assert_eq!(sandbox.requests(), 0);
}

#[tokio::test]
async fn a_stream_of_25_rows_in_pages_of_10_is_3_requests() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let rows: Vec<_> = c
        .domains()
        .keywords("example.it", KeywordType::Best, 1)
        .pages(10, Some(25))
        .collect()
        .await;
    assert_eq!(sandbox.requests(), 3, "limits 10, 10 and 5");
    let rows: Vec<_> = rows.into_iter().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 25);
    let spent = Sandbox::STARTING_UNITS - sandbox.units_remaining();
    assert_eq!(c.units().used, spent);
    assert_eq!(spent, 25 * 10, "10 units a row, 25 rows");

    // The same rows as one request of 25 from offset 0.
    let whole = c
        .domains()
        .keywords("example.it", KeywordType::Best, 25)
        .send()
        .await
        .unwrap();
    assert_eq!(rows, whole.response);
}

#[tokio::test]
async fn json_pages_are_the_typed_rows_with_the_apis_field_names() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let request = c
        .domains()
        .keywords("example.it", KeywordType::Best, 1)
        .request();
    let typed: Vec<seozoom::types::DomainKeyword> = c
        .pages(request.clone(), 10, Some(25))
        .map(Result::unwrap)
        .collect()
        .await;
    let mut paged = request;
    paged.one("limit", &10);
    let json = c
        .run::<serde_json::Value>(paged, RunOptions::new().max_rows(25))
        .await
        .unwrap()
        .into_response();
    let json = json.as_array().cloned().unwrap_or_default();
    assert_eq!(sandbox.requests(), 6, "3 pages each");
    assert_eq!(json.len(), 25);
    assert_eq!(
        json,
        serde_json::to_value(&typed).unwrap().as_array().unwrap()[..]
    );
    // Field names are the wire's, whatever the Rust names.
    assert!(json[0].get("extimated_traffic").is_some(), "{}", json[0]);
}

#[tokio::test]
async fn pages_start_at_the_builders_offset() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let paged: Vec<_> = c
        .domains()
        .ai_keywords("example.it", 1)
        .offset(5)
        .pages(4, Some(10))
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(sandbox.requests(), 3, "limits 4, 4 and 2");
    let whole = c
        .domains()
        .ai_keywords("example.it", 10)
        .offset(5)
        .send()
        .await
        .unwrap();
    assert_eq!(paged, whole.response);
}

#[tokio::test]
async fn paging_stops_at_a_short_page() {
    // How many rows the sandbox has for this query (it is fixed by the query).
    let probe = Sandbox::start().await.unwrap();
    let available = client(&probe)
        .domains()
        .keywords("paging.it", KeywordType::Up, 10_000)
        .send()
        .await
        .unwrap()
        .response
        .len();
    assert!(available >= 20, "{available}");
    // Three pages: two full, the third short.
    let page_size = available / 3 + 1;

    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let rows: Vec<_> = c
        .domains()
        .keywords("paging.it", KeywordType::Up, 1)
        .pages(page_size as i64, None)
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(rows.len(), available);
    assert_eq!(sandbox.requests(), 3);
}

#[tokio::test]
async fn newentry_is_one_page() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let request = c
        .domains()
        .keywords("example.it", KeywordType::NewEntry, 1)
        .request();
    let job = Job::Pages {
        page_size: 10,
        max_rows: Some(50),
    };
    assert_eq!(
        support::whole_estimate(&c, &request, job)
            .await
            .unwrap()
            .max,
        10 * 10,
        "one page of 10 rows at 10 units"
    );
    let rows: Vec<_> = c
        .domains()
        .keywords("example.it", KeywordType::NewEntry, 1)
        .pages(10, Some(50))
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(sandbox.requests(), 1);
    assert_eq!(rows.len(), 10);
}

#[tokio::test]
async fn the_paged_estimate_is_the_sum_of_its_pages() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let base = c
        .domains()
        .keywords("example.it", KeywordType::Best, 1)
        .request();
    let page = |offset: i64, limit: i64| {
        let mut r: Request = base.clone();
        r.one("offset", &offset);
        r.one("limit", &limit);
        c.estimate(&r).unwrap()
    };
    let sum = page(0, 10).plus(page(10, 10)).plus(page(20, 5));
    let job = Job::Pages {
        page_size: 10,
        max_rows: Some(25),
    };
    assert_eq!(support::whole_estimate(&c, &base, job).await.unwrap(), sum);
    let uncapped = Job::Pages {
        page_size: 10,
        max_rows: None,
    };
    let uncapped = support::whole_estimate(&c, &base, uncapped).await;
    assert_eq!(uncapped.unwrap().max, i64::MAX);
    // A page size outside the limit's range is refused like any request, whatever
    // the cap.
    for page_size in [10_001, 0, -3] {
        let job = Job::Pages {
            page_size,
            max_rows: Some(25),
        };
        let err = support::whole_estimate(&c, &base, job).await.unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::InvalidInput(i) if i.param == "limit"),
            "{err:?}"
        );
    }
    let items: Vec<_> = c
        .domains()
        .keywords("example.it", KeywordType::Best, 1)
        .pages(0, Some(25))
        .collect()
        .await;
    assert!(
        matches!(&items[..], [Err(e)] if matches!(e.kind(), ErrorKind::InvalidInput(_))),
        "{items:?}"
    );
    assert_eq!(sandbox.requests(), 0);
}

#[tokio::test]
async fn a_paged_job_over_budget_sends_nothing() {
    let sandbox = Sandbox::start().await.unwrap();
    // 25 rows at 10 units may cost 250; one page of 10 only 100.
    let c = client_of(&sandbox.base_url(), Some(200));
    let items: Vec<_> = c
        .domains()
        .keywords("example.it", KeywordType::Best, 1)
        .pages(10, Some(25))
        .collect()
        .await;
    assert_eq!(items.len(), 1);
    assert!(
        matches!(
            items[0].as_ref().map_err(|e| e.kind()),
            Err(ErrorKind::OverBudget {
                estimate_max: 250,
                ..
            })
        ),
        "{items:?}"
    );
    // No cap: no finite maximum, so under a budget it is refused too.
    let items: Vec<_> = c
        .domains()
        .keywords("example.it", KeywordType::Best, 1)
        .pages(10, None)
        .collect()
        .await;
    assert!(
        matches!(&items[..], [Err(e)] if matches!(e.kind(), ErrorKind::OverBudget { .. })),
        "{items:?}"
    );
    assert_eq!(sandbox.requests(), 0, "nothing sent");
}

#[tokio::test]
async fn a_failed_page_ends_the_stream_with_its_error() {
    // Nothing listens there: the first page fails to connect.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let c = client_of(&url, None);
    let items: Vec<_> = c
        .domains()
        .keywords("example.it", KeywordType::Best, 1)
        .pages(10, Some(25))
        .collect()
        .await;
    assert!(
        matches!(&items[..], [Err(e)] if matches!(e.kind(), ErrorKind::Transport { .. })),
        "{items:?}"
    );
}

/// Batched jobs and page streams can be spawned: their futures and streams are
/// `Send` (and the streams `'static`).
#[test]
fn jobs_are_send() {
    fn send<T: Send>(_: &T) {}
    fn spawnable<T: Send + 'static>(_: &T) {}
    let c = client_of("http://127.0.0.1:9", None);
    send(&c.keywords().metrics(["a"]).send_all());
    let metrics = c.keywords().metrics(["a"]).request();
    send(&c.run::<serde_json::Value>(metrics, RunOptions::new()));
    spawnable(
        &c.domains()
            .keywords("example.it", KeywordType::Best, 1)
            .pages(10, None),
    );
    let request = c
        .domains()
        .keywords("example.it", KeywordType::Best, 1)
        .request();
    let options = seozoom::job::RunOptions::new().max_rows(10);
    send(&c.run::<serde_json::Value>(request.clone(), options.clone()));
    send(&c.run::<Vec<seozoom::types::DomainKeyword>>(request, options));
}

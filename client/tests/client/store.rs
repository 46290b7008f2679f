//! The key-wide store through the library, against the sandbox on loopback:
//! cached answers cost nothing and send nothing, batched jobs ask only for
//! the items the cache lacks, paged jobs resume, the ledger counts, and a
//! budget per day holds across clients sharing a store.

use std::time::{Duration, SystemTime};

use futures_util::StreamExt;
use seozoom::error::ErrorKind;
use seozoom::sandbox::Sandbox;
use seozoom::store::{BudgetWindow, Store};
use seozoom::types::KeywordType;
use seozoom::{Client, config::RetryPolicy};

pub(crate) fn client_on(sandbox: &Sandbox, store: &Store) -> Client {
    Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .retry(RetryPolicy::none())
        .store(store.clone())
        .build()
        .unwrap()
}

fn keywords(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("scarpe {:04}", (i * 37) % n))
        .collect()
}

#[tokio::test]
async fn the_same_call_twice_sends_one_request_and_the_second_costs_nothing() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = Store::memory();
    let c = client_on(&sandbox, &store);

    let first = c
        .domains()
        .authority(["a.it", "b.it"])
        .send()
        .await
        .unwrap();
    let before = SystemTime::now();
    let second = c
        .domains()
        .authority(["a.it", "b.it"])
        .send()
        .await
        .unwrap();

    assert_eq!(sandbox.requests(), 1);
    assert_eq!(second.response, first.response);
    assert!(first.units_used > 0);
    assert_eq!(first.fetched_at, None, "the first came from the service");
    assert_eq!(second.units_used, 0, "a cached answer is charged nothing");
    assert_eq!(
        second.units_remaining, first.units_remaining,
        "the balance last reported"
    );
    let fetched = second.fetched_at.expect("the second came from the cache");
    assert!(
        fetched <= before,
        "fetched when the first call was answered"
    );

    // Another client on the same store and key finds it too.
    let other = client_on(&sandbox, &store);
    other
        .domains()
        .authority(["a.it", "b.it"])
        .send()
        .await
        .unwrap();
    assert_eq!(sandbox.requests(), 1);

    let usage = c.usage(0).await.unwrap();
    assert_eq!(usage.len(), 1);
    let authority = &usage[0];
    assert_eq!((authority.calls, authority.cache_hits), (1, 2));
    assert_eq!(authority.units_used, first.units_used);
    assert_eq!(authority.units_saved, 2 * first.units_used);
}

#[tokio::test]
async fn refresh_sends_again_and_none_remembers_nothing() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = Store::memory();
    let c = client_on(&sandbox, &store);
    c.domains().authority(["a.it"]).send().await.unwrap();

    let refreshing = Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .store(store.clone())
        .refresh(true)
        .build()
        .unwrap();
    let fresh = refreshing
        .domains()
        .authority(["a.it"])
        .send()
        .await
        .unwrap();
    assert_eq!(sandbox.requests(), 2);
    assert_eq!(fresh.fetched_at, None);

    let none = Store::none();
    let forgetful = client_on(&sandbox, &none);
    forgetful
        .domains()
        .authority(["a.it"])
        .send()
        .await
        .unwrap();
    forgetful
        .domains()
        .authority(["a.it"])
        .send()
        .await
        .unwrap();
    assert_eq!(sandbox.requests(), 4);
    assert!(forgetful.usage(0).await.unwrap().is_empty());
}

#[tokio::test]
async fn two_keys_never_share_answers() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = Store::memory();
    let c = client_on(&sandbox, &store);
    c.domains().authority(["a.it"]).send().await.unwrap();
    let other_key = Client::builder()
        .api_key("another-key")
        .base_url(sandbox.base_url())
        .store(store.clone())
        .build()
        .unwrap();
    // The sandbox refuses a key it does not know: the call was sent, not
    // answered from the first key's cache.
    let _ = other_key.domains().authority(["a.it"]).send().await;
    assert_eq!(sandbox.requests(), 2);
}

#[tokio::test]
async fn a_zero_time_to_live_caches_nothing() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .cache_ttl(Duration::ZERO)
        .build()
        .unwrap();
    c.domains().authority(["a.it"]).send().await.unwrap();
    c.domains().authority(["a.it"]).send().await.unwrap();
    assert_eq!(sandbox.requests(), 2);
}

#[tokio::test]
async fn a_job_of_1000_keywords_900_of_them_cached_sends_one_request_of_100() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = Store::memory();
    let c = client_on(&sandbox, &store);
    let all = keywords(1_000);

    let warm = c
        .keywords()
        .metrics(all[..900].to_vec())
        .send_all()
        .await
        .unwrap();
    assert_eq!(sandbox.requests(), 9);
    assert_eq!(warm.response.len(), 900);
    let units_before = sandbox.units_remaining();

    let whole = c.keywords().metrics(all.clone()).send_all().await.unwrap();

    assert_eq!(
        sandbox.requests(),
        10,
        "one more request, for the 100 not cached"
    );
    let charged = units_before - sandbox.units_remaining();
    assert_eq!(
        whole.units_used, charged,
        "only the request sent is charged"
    );
    let per_row = warm.units_used / 900;
    assert_eq!(charged, 100 * per_row, "a request of 100 keywords");
    let got: Vec<&str> = whole.response.iter().map(|r| r.keyword.as_str()).collect();
    assert_eq!(got, all, "every row, in input order");
    assert!(whole.fetched_at.is_some(), "some rows came from the cache");
    // The cached rows are the rows the service sent for them.
    assert_eq!(whole.response[..].len(), 1_000);
    for row in &warm.response {
        assert!(whole.response.contains(row), "{row:?}");
    }
}

#[tokio::test]
async fn a_paged_job_stopped_after_3_of_10_pages_sends_7_when_run_again() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = Store::memory();
    let c = client_on(&sandbox, &store);
    let job = || {
        c.domains()
            .keywords("example.it", KeywordType::Best, 1)
            .pages(10, Some(100))
    };

    // Stopped (dropped) after three pages.
    let first: Vec<_> = job().take(30).collect().await;
    assert_eq!(first.len(), 30);
    assert_eq!(sandbox.requests(), 3);

    let all: Vec<_> = job().collect().await;
    assert_eq!(
        sandbox.requests(),
        10,
        "7 more pages sent, 3 from the cache"
    );
    let all: Vec<_> = all.into_iter().map(Result::unwrap).collect();
    assert_eq!(all.len(), 100);
    let first: Vec<_> = first.into_iter().map(Result::unwrap).collect();
    assert_eq!(
        all[..30],
        first[..],
        "the cached pages are the rows received"
    );
}

#[tokio::test]
async fn a_budget_per_day_holds_across_clients_sharing_the_store() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = Store::memory();
    let on_budget = || {
        Client::builder()
            .api_key(Sandbox::API_KEY)
            .base_url(sandbox.base_url())
            .store(store.clone())
            .budget_per(50, BudgetWindow::Day)
            .build()
            .unwrap()
    };
    // `domains authority` costs 10 units a domain.
    let (a, b, c) = (on_budget(), on_budget(), on_budget());
    a.domains()
        .authority(["a.it", "b.it"])
        .send()
        .await
        .unwrap();
    b.domains()
        .authority(["c.it", "d.it"])
        .send()
        .await
        .unwrap();
    let error = c
        .domains()
        .authority(["e.it", "f.it"])
        .send()
        .await
        .unwrap_err();
    assert!(
        matches!(
            error.kind(),
            ErrorKind::OverWindowBudget {
                spent: 40,
                budget: 50,
                window: BudgetWindow::Day,
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.is_refused());
    assert_eq!(
        sandbox.requests(),
        2,
        "the third was refused before sending"
    );
    // What fits is still admitted.
    c.domains().authority(["e.it"]).send().await.unwrap();
    assert_eq!(sandbox.requests(), 3);
}

#[tokio::test]
async fn a_budget_per_day_on_no_store_refuses_with_a_clear_error() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .store(Store::none())
        .budget_per(50, BudgetWindow::Month)
        .build()
        .unwrap();
    let error = c.domains().authority(["a.it"]).send().await.unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::Store { .. }), "{error:?}");
    assert!(error.to_string().contains("needs a store"), "{error}");
    assert_eq!(sandbox.requests(), 0);
}

/// What a job would send is read from the store without spending: the items
/// the cache answers cost nothing, a dry run's estimate agrees with what the
/// job holds, and a run answered wholly from the cache knows the balance.
#[tokio::test]
async fn a_job_plan_counts_what_the_cache_answers_and_spends_nothing() {
    use seozoom::job::Counted;
    use seozoom::job::RunOptions;
    let sandbox = Sandbox::start().await.unwrap();
    let store = Store::memory();
    let first = client_on(&sandbox, &store);
    let paid = first
        .keywords()
        .metrics(["a", "b"])
        .send_all()
        .await
        .unwrap();

    let other = client_on(&sandbox, &store);
    let request = other.keywords().metrics(["a", "b"]).request();
    let plan = other.plan(&request, &RunOptions::new()).await.unwrap();
    assert_eq!(plan.counted, Counted::Items);
    assert_eq!((plan.total, plan.cached, plan.to_send), (2, 2, 0));
    assert_eq!(plan.request_count, 0);
    assert_eq!((plan.estimate.min, plan.estimate.max), (0, 0));
    assert_eq!(
        other.units().remaining,
        paid.units_remaining,
        "the store's last balance"
    );
    assert_eq!(sandbox.requests(), 1, "a plan sends nothing");

    let three = other.keywords().metrics(["a", "b", "c"]).request();
    let plan = other.plan(&three, &RunOptions::new()).await.unwrap();
    assert_eq!((plan.total, plan.cached, plan.to_send), (3, 2, 1));
    assert_eq!(plan.request_count, 1);
    assert_eq!(plan.requests[0].get("keyword").unwrap(), ["c"]);
    let one = other.estimate(&plan.requests[0]).unwrap();
    assert_eq!(plan.estimate, one);

    // A fresh client answered wholly from the cache knows the balance.
    let cached = client_on(&sandbox, &store);
    assert_eq!(cached.units().remaining, None);
    let again = cached
        .keywords()
        .metrics(["a", "b"])
        .send_all()
        .await
        .unwrap();
    assert_eq!(again.units_used, 0);
    assert_eq!(cached.units().remaining, paid.units_remaining);
    assert_eq!(sandbox.requests(), 1);

    // A budget that covers none of it admits a job the cache answers whole:
    // the budget counts what will be sent, as the plan does.
    let budgeted = Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .store(store.clone())
        .budget(1)
        .build()
        .unwrap();
    for keywords in [vec!["a"], vec!["a", "b"]] {
        let answer = budgeted
            .keywords()
            .metrics(keywords)
            .send_all()
            .await
            .unwrap();
        assert_eq!(answer.units_used, 0);
    }
    assert_eq!(sandbox.requests(), 1);
}

/// A Redis store whose connection Redis closed between two jobs (`CLIENT
/// KILL`, a restart of Redis) fails neither: each store call is made again,
/// once, on a new connection. (The second job was refused: "Redis cannot be
/// reached (broken pipe)".)
#[tokio::test]
async fn jobs_survive_redis_closing_or_restarting_under_them() {
    let Some(mut redis) = seozoom_test_support::RedisServer::start() else {
        return;
    };
    let sandbox = Sandbox::start().await.unwrap();
    let store = Store::open(&redis.url()).unwrap();
    let c = client_on(&sandbox, &store);
    let all = keywords(300);
    let first = c
        .keywords()
        .metrics(all[..150].to_vec())
        .send_all()
        .await
        .unwrap();
    assert_eq!(first.response.len(), 150);

    redis.kill_clients();
    let second = c.keywords().metrics(all.clone()).send_all().await.unwrap();
    assert_eq!(second.response.len(), 300);
    assert_eq!(
        sandbox.requests(),
        2 + 2,
        "the 150 cached were not asked again"
    );
    let usage = c.usage(0).await.unwrap();
    assert_eq!((usage[0].calls, usage[0].cache_hits), (4, 1), "{usage:?}");

    // Restarted (empty: nothing is persisted here): the job is sent whole.
    redis.restart();
    let third = c
        .keywords()
        .metrics(all[..100].to_vec())
        .send_all()
        .await
        .unwrap();
    assert_eq!(third.response.len(), 100);
    assert_eq!(sandbox.requests(), 5);
}

/// A sandbox is one origin wherever it listens: a second sandbox,
/// on another port, answers from the first one's cache, goes on from its
/// balance (which never rises after spending), and neither touches the
/// balance or ledger the same key has with the service.
#[tokio::test]
async fn a_sandbox_started_again_keeps_its_cache_and_its_balance_apart() {
    let store = Store::memory();
    let builder = || {
        Client::builder()
            .retry(RetryPolicy::none())
            .store(store.clone())
    };
    let (first, client) = Sandbox::builder()
        .start_with_client(builder())
        .await
        .unwrap();
    let paid = client
        .keywords()
        .metrics(["scarpe running"])
        .send()
        .await
        .unwrap();
    assert!(paid.units_used > 0);
    let port = first.local_addr().port();
    drop(first);

    let (second, client) = Sandbox::builder()
        .start_with_client(builder())
        .await
        .unwrap();
    assert_ne!(second.local_addr().port(), port, "another port");
    let again = client
        .keywords()
        .metrics(["scarpe running"])
        .send()
        .await
        .unwrap();
    assert!(
        again.fetched_at.is_some(),
        "answered from the first's cache"
    );
    assert_eq!(second.requests(), 0);
    let fresh = client
        .keywords()
        .metrics(["mutuo casa"])
        .send()
        .await
        .unwrap();
    assert_eq!(
        fresh.units_remaining,
        paid.units_remaining.map(|paid| paid - fresh.units_used),
        "the second goes on from the first's balance"
    );

    // The same key with the service (here a plain sandbox, as a service
    // would be reached by its URL) has a ledger and balance of its own.
    let service = Sandbox::start().await.unwrap();
    let direct = client_on(&service, &store);
    assert_eq!(direct.last_balance().await.unwrap(), None);
    assert!(direct.usage(0).await.unwrap().is_empty());
    let via_sandbox = client.last_balance().await.unwrap().unwrap();
    assert_eq!(Some(via_sandbox.units_remaining), fresh.units_remaining);
}

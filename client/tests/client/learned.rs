//! The ledger learns an operation's charge per row: `keywords related`, whose
//! cost the spec does not know, is estimated from what the sandbox charged for
//! it before on the same store and key, marked observed, and admitted under a
//! budget; a store that has not seen it refuses it as before. An operation
//! printed with two figures keeps the spec's range as its bound.

use seozoom::error::ErrorKind;
use seozoom::job::RunOptions;
use seozoom::sandbox::Sandbox;
use seozoom::store::{BudgetWindow, Store};
use seozoom::units::{Basis, Estimate, Learned};
use seozoom::{Client, ClientBuilder, config::RetryPolicy};

fn builder(sandbox: &Sandbox, store: &Store) -> ClientBuilder {
    Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .retry(RetryPolicy::none())
        .store(store.clone())
}

/// Calls of `keywords related` without a budget, on `store`: one keyword
/// each (distinct, so none is answered from the cache), `rows` rows each.
async fn related_calls(client: &Client, keywords: &[&str], rows: i64) -> i64 {
    let mut units = 0;
    for keyword in keywords {
        let answer = client
            .keywords()
            .related(*keyword, rows)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.response.len() as i64, rows);
        units += answer.units_used;
    }
    units
}

#[tokio::test]
async fn an_unknown_cost_is_estimated_from_what_was_observed_and_admitted_under_a_budget() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = Store::memory();
    let free = builder(&sandbox, &store).build().unwrap();
    let request = free.keywords().related("scarpe nuove", 10).request();

    // Nothing seen yet: unknown, as the spec says.
    let before = observed_estimate(&free, &request).await;
    assert!(before.unknown, "{before:?}");
    assert_eq!(before.learned, None);

    let units = related_calls(&free, &["scarpe", "borse", "cappelli"], 5).await;
    assert!(units > 0, "the sandbox charges for rows");
    let per_row = (units + 14) / 15;

    let observed = observed_estimate(&free, &request).await;
    assert!(!observed.unknown, "{observed:?}");
    assert_eq!(observed.basis, Basis::Observed);
    assert_eq!(observed.learned, Some(Learned { per_row, rows: 15 }));
    assert_eq!((observed.min, observed.max), (0, per_row * 10));
    let unit = if per_row == 1 { "unit" } else { "units" };
    assert_eq!(
        observed.to_string(),
        format!(
            "0..{} units (observed: {per_row} {unit} a row over 15 rows)",
            per_row * 10
        )
    );
    // The synchronous estimate stays the spec's.
    assert!(free.estimate(&request).unwrap().unknown);
    // An observed estimate plus a spec one is observed.
    let sum = observed.plus(Estimate::range(1, 2));
    assert_eq!(sum.basis, Basis::Observed);
    assert_eq!((sum.min, sum.max), (1, per_row * 10 + 2));

    // Under a budget of this command, on the same store and key: admitted.
    let sent = sandbox.requests();
    let budgeted = builder(&sandbox, &store).budget(1_000).build().unwrap();
    let answer = budgeted
        .keywords()
        .related("scarpe nuove", 10)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.response.len(), 10);
    assert_eq!(sandbox.requests(), sent + 1);
    assert_eq!(budgeted.units().used, answer.units_used);

    // A batched job's hold uses the observed estimate too.
    let job = budgeted.keywords().related("scarpe vecchie", 4).request();
    let envelope = budgeted
        .run::<serde_json::Value>(job, RunOptions::new())
        .await
        .unwrap()
        .envelope;
    assert_eq!(envelope.result_rows, 4);

    // A budget under the observed maximum refuses it as over the budget, not
    // as of unknown cost, and sends nothing.
    let sent = sandbox.requests();
    let small = builder(&sandbox, &store)
        .budget(per_row * 10 - 1)
        .build()
        .unwrap();
    let err = small
        .keywords()
        .related("scarpe blu", 10)
        .send()
        .await
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::OverBudget { estimate_max, .. } if *estimate_max == per_row * 10),
        "{err}"
    );
    assert_eq!(sandbox.requests(), sent);

    // A budget per day, kept in the store: admitted as well.
    let daily = builder(&sandbox, &store)
        .budget_per(1_000, BudgetWindow::Day)
        .build()
        .unwrap();
    daily
        .keywords()
        .related("scarpe rosse", 10)
        .send()
        .await
        .unwrap();
    assert_eq!(sandbox.requests(), sent + 1);
}

#[tokio::test]
async fn a_store_that_has_not_seen_an_unknown_cost_refuses_it_under_a_budget() {
    let sandbox = Sandbox::start().await.unwrap();
    // Calls on another store teach this one nothing.
    let other = Store::memory();
    related_calls(
        &builder(&sandbox, &other).build().unwrap(),
        &["scarpe", "borse"],
        5,
    )
    .await;
    let sent = sandbox.requests();

    let fresh = Store::memory();
    for client in [
        builder(&sandbox, &fresh).budget(1_000).build().unwrap(),
        builder(&sandbox, &fresh)
            .budget_per(1_000, BudgetWindow::Day)
            .build()
            .unwrap(),
    ] {
        let err = client
            .keywords()
            .related("scarpe", 5)
            .send()
            .await
            .unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnknownCost { budget: 1_000 }),
            "{err}"
        );
    }
    assert_eq!(sandbox.requests(), sent, "nothing is sent");

    // Another key on the same store has its own ledger.
    let other_key = Client::builder()
        .api_key("another-key")
        .base_url(sandbox.base_url())
        .store(other.clone())
        .build()
        .unwrap();
    let request = other_key.keywords().related("scarpe", 5).request();
    assert!(observed_estimate(&other_key, &request).await.unknown);
}

#[tokio::test]
async fn two_figures_keep_the_spec_range_as_the_bound_and_report_the_observed_charge() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = Store::memory();
    let client = builder(&sandbox, &store).build().unwrap();
    let request = client
        .urls()
        .intent_gap("https://www.example.it/scarpe/", 5)
        .request();
    let spec = client.estimate(&request).unwrap();
    assert_eq!(observed_estimate(&client, &request).await, spec);

    let answer = client
        .urls()
        .intent_gap("https://www.example.it/borse/", 5)
        .send()
        .await
        .unwrap();
    assert!(answer.result_rows > 0);

    let observed = observed_estimate(&client, &request).await;
    assert_eq!((observed.min, observed.max), (spec.min, spec.max));
    assert_eq!(observed.basis, Basis::Spec);
    let learned = observed.learned.expect("the charge was learned");
    assert_eq!(learned.rows, answer.result_rows);
    assert_eq!(
        learned.per_row,
        (answer.units_used + answer.result_rows - 1) / answer.result_rows
    );
    assert!(
        observed
            .to_string()
            .starts_with(&format!("{spec} (the spec's bound; observed: ")),
        "{observed}"
    );
    // A one-figure operation learns nothing: the store is not consulted.
    let authority = client.domains().authority(["a.it"]).request();
    client.domains().authority(["b.it"]).send().await.unwrap();
    let estimate = observed_estimate(&client, &authority).await;
    assert_eq!(estimate, client.estimate(&authority).unwrap());
}

/// A request's estimate with what the ledger learned: its plan as one
/// request.
async fn observed_estimate(client: &Client, request: &seozoom::request::Request) -> Estimate {
    let plan = client.plan(request, &RunOptions::one_request()).await;
    plan.unwrap().whole
}

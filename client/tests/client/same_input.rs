//! What counts as the same input, through the library against the sandbox on
//! a real SQLite store: deduplication, the per-item cache, matching rows back
//! to inputs and the estimate follow the spec's one rule per parameter
//! (`compare.fold`), so a job gets exactly the rows of the inputs asked for,
//! each once, whatever the cache holds.

use std::path::PathBuf;

use crate::store::client_on;

use seozoom::job::RunOptions;
use seozoom::operation_table::Operation;
use seozoom::sandbox::Sandbox;
use seozoom::store::Store;

/// A SQLite store in a directory of its own, removed when dropped.
pub struct SqliteStore {
    dir: PathBuf,
    pub store: Store,
}

impl SqliteStore {
    pub fn new(name: &str) -> SqliteStore {
        let dir = std::env::temp_dir().join(format!(
            "seozoom-same-input-{name}-{}-{}",
            std::process::id(),
            fastrand::u64(..)
        ));
        let store =
            Store::open(&format!("sqlite:{}", dir.join("store.sqlite3").display())).unwrap();
        SqliteStore { dir, store }
    }
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|v| (*v).to_owned()).collect()
}

/// `Mutuo` and `mutuo` are one keyword: asked once, and a later job for
/// `mutuo` gets its row from the cache. (It got 2 rows, then 0 rows
/// "answered from the cache": both rows had been cut into `Mutuo`'s entry.)
#[tokio::test]
async fn keywords_differing_in_case_are_one_keyword_asked_and_cached_once() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = SqliteStore::new("case");
    let client = client_on(&sandbox, &store.store);
    let both = client
        .keywords()
        .metrics(strings(&["Mutuo", "mutuo"]))
        .send_all()
        .await
        .unwrap();
    let keywords: Vec<&str> = both.response.iter().map(|r| r.keyword.as_str()).collect();
    assert_eq!(keywords, ["Mutuo"], "one keyword, sent as first given");
    assert_eq!(sandbox.requests(), 1);

    let again = client
        .keywords()
        .metrics(strings(&["mutuo"]))
        .send_all()
        .await
        .unwrap();
    assert_eq!(again.response.len(), 1, "{:?}", again.response);
    assert_eq!(again.response[0].keyword.to_lowercase(), "mutuo");
    assert!(again.fetched_at.is_some(), "from the cache");
    assert_eq!(sandbox.requests(), 1, "nothing sent");
}

/// `www.example.it` is `example.it`: the reference says a row's `domain` is
/// the domain "as requested or as stored" and `maindomain` is it without the
/// `www` prefix. (A later job for `example.it` got 2 rows, one for
/// `www.example.it`.)
#[tokio::test]
async fn a_domain_with_and_without_www_is_one_domain() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = SqliteStore::new("www");
    let client = client_on(&sandbox, &store.store);
    let both = client
        .domains()
        .metrics(strings(&["example.it", "www.example.it"]))
        .send_all()
        .await
        .unwrap();
    assert_eq!(both.response.len(), 1, "{:?}", both.response);

    let again = client
        .domains()
        .metrics(strings(&["example.it"]))
        .send_all()
        .await
        .unwrap();
    let domains: Vec<&str> = again.response.iter().map(|r| r.domain.as_str()).collect();
    assert_eq!(domains, ["example.it"]);
    assert_eq!(sandbox.requests(), 1, "answered from the cache");

    // And the other way round: asked with `www.` first, found without.
    let with_www = client
        .domains()
        .metrics(strings(&["WWW.Other.it", "a.it"]))
        .send_all()
        .await
        .unwrap();
    assert_eq!(with_www.response.len(), 2);
    let bare = client
        .domains()
        .metrics(strings(&["other.it"]))
        .send_all()
        .await
        .unwrap();
    assert_eq!(bare.response.len(), 1);
    assert!(bare.fetched_at.is_some(), "from the cache");
    assert_eq!(sandbox.requests(), 2);
}

/// Spaces and letter case alike: `" mutuo "`, `"MUTUO"` and `"mutuo"` are
/// one keyword, charged once. (`" mutuo "` was merged into `"mutuo"`, but
/// `"MUTUO"` was charged separately.)
#[tokio::test]
async fn spaces_and_case_are_both_one_keyword_charged_once() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = SqliteStore::new("charged");
    let client = client_on(&sandbox, &store.store);
    let before = sandbox.units_remaining();
    let one = client
        .keywords()
        .metrics(strings(&[" mutuo ", "MUTUO", "mutuo"]))
        .send_all()
        .await
        .unwrap();
    assert_eq!(one.response.len(), 1);
    let per_keyword = Operation::find("keywords", "metrics").unwrap().cost.units[0];
    assert_eq!(
        before - sandbox.units_remaining(),
        per_keyword,
        "one keyword charged"
    );
    assert_eq!(one.units_used, per_keyword);
}

/// The estimate counts inputs as the job sends them: one.
#[tokio::test]
async fn the_estimate_counts_the_same_input_once() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = SqliteStore::new("estimate");
    let client = client_on(&sandbox, &store.store);
    let request = client
        .keywords()
        .metrics(strings(&["Mutuo", " mutuo", "MUTUO "]))
        .request();
    let plan = client.plan(&request, &RunOptions::new()).await.unwrap();
    let per_keyword = Operation::find("keywords", "metrics").unwrap().cost.units[0];
    assert_eq!((plan.total, plan.to_send), (1, 1));
    assert_eq!(plan.estimate.max, per_keyword);
    let batches = request.batches();
    assert_eq!(batches.len(), 1);
    assert_eq!(batches[0].get("keyword").unwrap(), ["Mutuo"]);
}

/// `keywords serp`'s map keeps the order of the inputs, fresh or cached, in
/// the typed result and in JSON. (It came back sorted by key; and in JSON
/// the cached members came first.)
#[tokio::test]
async fn a_map_keeps_its_inputs_order_whatever_the_cache_answers() {
    let sandbox = Sandbox::start().await.unwrap();
    let store = SqliteStore::new("order");
    let client = client_on(&sandbox, &store.store);
    client
        .keywords()
        .serp(strings(&["mid tre"]))
        .send_all()
        .await
        .unwrap();
    let asked = strings(&["zeta uno", "alpha due", "MID TRE"]);
    let typed = client
        .keywords()
        .serp(asked.clone())
        .send_all()
        .await
        .unwrap();
    assert!(typed.fetched_at.is_some(), "one of them from the cache");
    let keys: Vec<&str> = typed.response.keys().map(String::as_str).collect();
    assert_eq!(keys, ["zeta uno", "alpha due", "mid tre"]);
    let json = serde_json::to_string(&typed.response).unwrap();
    let at = |key: &str| json.find(&format!("\"{key}\"")).unwrap();
    assert!(
        at("zeta uno") < at("alpha due") && at("alpha due") < at("mid tre"),
        "{json}"
    );
    assert_eq!(sandbox.requests(), 2);
}

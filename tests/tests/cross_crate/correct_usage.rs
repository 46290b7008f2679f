//! The correct forms of the calls the compile-fail cases get wrong
//! (`compile-fail/tests/compile_fail.rs`): they compile (this module is built with the test
//! binary) and run without network, so those cases fail for the reason they
//! name and not because of a typo.
//!
//! An ordinary test rather than trybuild's `pass` case: one `pass` case makes
//! trybuild build (not only check) every dependency a second time in its own
//! target directory, the largest cost of a newcomer's first `cargo test` after
//! the workspace's own build.

use seozoom::types::Date;
use seozoom::{Client, Db, types::KeywordType};

#[test]
fn the_correct_forms_compile_and_run() {
    let client = Client::new("test-key").expect("a client with a key builds");

    // Required parameters given, single values and lists where each is allowed.
    let keywords = client
        .domains()
        .keywords("example.it", KeywordType::Best, 100)
        .offset(0)
        .db(Db::Es)
        .request();
    let serp_history = client
        .keywords()
        .serp_history("scarpe running", Date::new(2024, 5, 1).expect("a day"))
        .request();
    let best_pages = client.domains().best_pages("example.it", 10).request();
    let pza = client.urls().pza("https://example.it/").request();
    let domain = String::from("example.it");
    let owned = client.domains().best_pages(domain, 10).request();

    // List parameters accept arrays, vectors and iterators of strings.
    let metrics = client.domains().metrics(["a.it", "b.it"]).request();
    let competitors = client
        .domains()
        .competitors(vec![String::from("a.it")], 5)
        .request();
    let keyword_metrics = client
        .keywords()
        .metrics(["mutuo", "scarpe running"].iter().copied())
        .request();
    let serp = client
        .keywords()
        .serp(["mutuo"])
        .google_ext(".it")
        .local_code("Roma")
        .request();
    let history = client
        .domains()
        .metrics_history(["example.it"], Date::new(2024, 1, 31).expect("a day"))
        .request();
    let project = client.projects().best_pages(1, 50).request();
    let url_keywords = client.urls().keywords("https://example.it/", 20).request();

    for request in [
        keywords,
        serp_history,
        best_pages,
        pza,
        owned,
        metrics,
        competitors,
        keyword_metrics,
        serp,
        history,
        project,
        url_keywords,
    ] {
        assert!(!request.operation().action.is_empty());
    }
}

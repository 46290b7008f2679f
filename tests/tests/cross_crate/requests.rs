//! A builder's `request()` carries exactly the values it was given, as wire text,
//! under the parameters' wire names; nothing is sent.

use seozoom::types::Date;
use seozoom::{Client, Db, request::Request, types::KeywordType};

/// A day of the calendar (the tests' dates are literals).
fn date(year: i32, month: u8, day: u8) -> Date {
    Date::new(year, month, day).expect("a day of the calendar")
}

fn client() -> Client {
    Client::new("test-key").expect("a client with a key builds")
}

/// The wire values of `wire` in `request`, as `&str`s.
fn values<'r>(request: &'r Request, wire: &str) -> Option<Vec<&'r str>> {
    request
        .get(wire)
        .map(|values| values.iter().map(String::as_str).collect())
}

#[test]
fn domains_keywords_carries_required_and_optional_values() {
    let request = client()
        .domains()
        .keywords("example.it", KeywordType::ByPage, 100)
        .page(2)
        .offset(300)
        .request();
    assert_eq!(request.operation().group, "domains");
    assert_eq!(request.operation().action, "keywords");
    assert_eq!(values(&request, "domain"), Some(vec!["example.it"]));
    assert_eq!(values(&request, "type"), Some(vec!["bypage"]));
    assert_eq!(values(&request, "limit"), Some(vec!["100"]));
    assert_eq!(values(&request, "page"), Some(vec!["2"]));
    assert_eq!(values(&request, "offset"), Some(vec!["300"]));
    // Optional parameters not set are not in the request.
    assert_eq!(values(&request, "position"), None);
}

#[test]
fn optional_values_left_unset_are_absent() {
    let request = client()
        .domains()
        .keywords("example.it", KeywordType::Best, 10)
        .request();
    assert_eq!(values(&request, "offset"), None);
    assert_eq!(values(&request, "page"), None);
    assert_eq!(values(&request, "position"), None);
}

#[test]
fn every_keyword_type_is_sent_as_its_wire_text() {
    for &keyword_type in KeywordType::ALL {
        let request = client()
            .domains()
            .keywords("example.it", keyword_type, 10)
            .request();
        assert_eq!(values(&request, "type"), Some(vec![keyword_type.as_str()]));
    }
}

#[test]
fn serp_history_carries_keyword_and_date() {
    let request = client()
        .keywords()
        .serp_history("scarpe running", date(2024, 5, 1))
        .request();
    assert_eq!(request.operation().action, "serphistory");
    assert_eq!(values(&request, "keyword"), Some(vec!["scarpe running"]));
    assert_eq!(values(&request, "date"), Some(vec!["2024-05-01"]));
}

#[test]
fn single_value_parameters_carry_one_value() {
    let best_pages = client().domains().best_pages("example.it", 25).request();
    assert_eq!(values(&best_pages, "domain"), Some(vec!["example.it"]));
    assert_eq!(values(&best_pages, "limit"), Some(vec!["25"]));

    let pza = client().urls().pza("https://example.it/page").request();
    assert_eq!(pza.operation().action, "urlpza");
    assert_eq!(values(&pza, "url"), Some(vec!["https://example.it/page"]));
}

#[test]
fn list_parameters_keep_every_value_in_order() {
    let metrics = client()
        .domains()
        .metrics(["b.it", "a.it", "c.it"])
        .request();
    assert_eq!(
        values(&metrics, "domain"),
        Some(vec!["b.it", "a.it", "c.it"])
    );

    let keywords = client()
        .keywords()
        .metrics(vec![String::from("mutuo"), String::from("scarpe running")])
        .request();
    assert_eq!(
        values(&keywords, "keyword"),
        Some(vec!["mutuo", "scarpe running"])
    );

    let history = client()
        .domains()
        .metrics_history(["a.it", "b.it"], date(2023, 12, 31))
        .request();
    assert_eq!(values(&history, "domain"), Some(vec!["a.it", "b.it"]));
    assert_eq!(values(&history, "date"), Some(vec!["2023-12-31"]));
}

#[test]
fn serp_optional_text_uses_its_wire_name() {
    let request = client()
        .keywords()
        .serp(["mutuo"])
        .google_ext(".co.uk")
        .local_code("London")
        .request();
    assert_eq!(values(&request, "keyword"), Some(vec!["mutuo"]));
    assert_eq!(values(&request, "google_ext"), Some(vec![".co.uk"]));
    assert_eq!(values(&request, "localcode"), Some(vec!["London"]));
}

#[test]
fn project_id_is_sent_as_id() {
    let request = client().projects().best_pages(42, 50).request();
    assert_eq!(request.operation().group, "projects");
    assert_eq!(values(&request, "id"), Some(vec!["42"]));
    assert_eq!(values(&request, "limit"), Some(vec!["50"]));
}

#[test]
fn database_override_shows_in_the_url_not_as_a_parameter() {
    let client = client();
    let default = client.domains().best_pages("example.it", 10).request();
    let spanish = client
        .domains()
        .best_pages("example.it", 10)
        .db(Db::Es)
        .request();
    // The database is not one of the operation's parameters.
    assert_eq!(values(&spanish, "db"), None);
    let default_url = client.redacted_url(&default).expect("valid request");
    let spanish_url = client.redacted_url(&spanish).expect("valid request");
    let default_db = format!("db={}", client.default_database());
    assert!(default_url.contains(&default_db), "{default_url}");
    assert!(spanish_url.contains("db=es"), "{spanish_url}");
}

//! The sandbox over real HTTP: every operation through its typed builder and
//! through the operation table, determinism, paging, positions, "no data",
//! units, refusals sent raw, the service's quirks, and bad queries.

use std::collections::BTreeSet;

use seozoom::error::ErrorKind;
use seozoom::job::RunOptions;
use seozoom::operation_table::{Charged, Operation, Param, ParamKind};
use seozoom::operations::{OPERATIONS, SERVICE};
use seozoom::sandbox::Sandbox;
use seozoom::types::Date;
use seozoom::{
    Client, Db, config::RateLimitMode, config::RetryPolicy, request::Request, types::KeywordType,
};

/// A day of the calendar (the tests' dates are literals).
fn date(year: i32, month: u8, day: u8) -> Date {
    Date::new(year, month, day).expect("a day of the calendar")
}

/// A typed client of the sandbox: no client-side rate limit, no retries.
/// A client that sends every call it is given: no rate limits, no retries,
/// and no store (a cache would answer the tests' repeated calls).
fn client(sandbox: &Sandbox) -> Client {
    Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .store(seozoom::store::Store::none())
        .rate_limit(RateLimitMode::Off)
        .retry(RetryPolicy::none())
        .build()
        .unwrap()
}

/// GET a raw path and query (no client-side validation): status, content type, body.
async fn raw(sandbox: &Sandbox, path_and_query: &str) -> (u16, String, String) {
    let response = reqwest::get(format!("{}{path_and_query}", sandbox.base_url()))
        .await
        .unwrap();
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (status, content_type, response.text().await.unwrap())
}

/// The `message` of an error body.
fn message(body: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(body).unwrap();
    value["message"].as_str().unwrap().to_owned()
}

/// What the sandbox charges: the spec's highest figure once or per row; one
/// unit per row when the spec knows no cost (the sandbox's documented stand-in).
fn charged(op: &Operation, rows: i64) -> i64 {
    match op.cost.charged {
        Charged::Unknown => rows,
        Charged::PerCall => op.cost.units.iter().copied().max().unwrap(),
        _ => op.cost.units.iter().copied().max().unwrap() * rows,
    }
}

#[tokio::test]
async fn every_operation_decodes_through_its_typed_builder() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let day = date(2024, 3, 1);

    let p = c.projects();
    assert!(!p.list().send().await.unwrap().response.is_empty());
    let overview = p.overview(48213).send().await.unwrap();
    assert_eq!(overview.result_rows, 1);
    assert!(!p.keywords(48213).send().await.unwrap().response.is_empty());
    assert_eq!(
        p.best_pages(48213, 7).send().await.unwrap().response.len(),
        7
    );
    let more = p.pages_with_more_keywords(48213, 7).send().await.unwrap();
    assert_eq!(more.response.len(), 7);
    let potential = p.pages_with_potential(48213, 7).send().await.unwrap();
    assert_eq!(potential.response.len(), 7);
    assert_eq!(
        p.winner_pages(48213, 7)
            .send()
            .await
            .unwrap()
            .response
            .len(),
        7
    );
    assert_eq!(
        p.loser_pages(48213, 7).send().await.unwrap().response.len(),
        7
    );

    let d = c.domains();
    let metrics = d
        .metrics(["example.it", "www.shop.it"])
        .send()
        .await
        .unwrap();
    let domains: Vec<&str> = metrics.response.iter().map(|m| m.domain.as_str()).collect();
    assert_eq!(domains, ["example.it", "www.shop.it"]);
    assert_eq!(metrics.response[1].main_domain.as_deref(), Some("shop.it"));
    let history = d.metrics_history(["example.it"], day).send().await.unwrap();
    assert_eq!(history.response.len(), 1);
    let authority = d
        .authority(["example.it", "b.it", "c.it"])
        .send()
        .await
        .unwrap();
    assert_eq!(authority.result_rows, 3);
    assert!(
        authority
            .response
            .iter()
            .all(|a| a.za.is_some_and(|za| (0..=100).contains(&za)))
    );
    let niches = d.niches(["example.it", "b.it"], 3).send().await.unwrap();
    assert_eq!(niches.result_rows, 2);
    assert!(
        niches
            .response
            .iter()
            .all(|n| (1..=3).contains(&n.niches.len()))
    );
    let best = d.best_pages("example.it", 5).send().await.unwrap();
    assert!(
        best.response
            .iter()
            .all(|b| b.url.starts_with("https://example.it/"))
    );
    let keywords = d
        .keywords("example.it", KeywordType::Best, 5)
        .send()
        .await
        .unwrap();
    assert_eq!(keywords.response.len(), 5);
    assert!(
        keywords
            .response
            .iter()
            .all(|k| k.language.as_deref() == Some("it") && k.google_ext.as_deref() == Some(".it"))
    );
    assert_eq!(
        d.ai_keywords("example.it", 4)
            .send()
            .await
            .unwrap()
            .response
            .len(),
        4
    );
    let competitors = d.competitors(["example.it"], 2).send().await.unwrap();
    assert_eq!(competitors.response[0].domain, "example.it");
    assert!((1..=2).contains(&competitors.response[0].competitors.len()));

    let u = c.urls();
    let pza = u.pza("https://example.it/a/").send().await.unwrap();
    assert_eq!(pza.response.len(), 1);
    let url_metrics = u
        .metrics(["https://example.it/a/", "https://example.it/b/"])
        .send()
        .await
        .unwrap();
    assert_eq!(url_metrics.response[0].url, "https://example.it/a/");
    assert_eq!(
        u.keywords("https://example.it/a/", 6)
            .send()
            .await
            .unwrap()
            .response
            .len(),
        6
    );
    let gap = u
        .intent_gap("https://example.it/a/", 6)
        .send()
        .await
        .unwrap();
    assert_eq!(gap.response.len(), 6);

    let k = c.keywords();
    let kw = k
        .metrics(["scarpe running", "caffè & latte"])
        .db(Db::Uk)
        .send()
        .await
        .unwrap();
    let names: Vec<&str> = kw.response.iter().map(|m| m.keyword.as_str()).collect();
    assert_eq!(names, ["scarpe running", "caffè & latte"]);
    assert!(
        kw.response
            .iter()
            .all(|m| m.language.as_deref() == Some("en")
                && m.google_ext.as_deref() == Some(".co.uk"))
    );
    let serp = k
        .serp(["mutuo", "a+b=c"])
        .local_code("Milano")
        .send()
        .await
        .unwrap();
    assert_eq!(serp.result_rows, 2);
    // In the order asked for (they were sorted by key).
    assert_eq!(serp.response.keys().collect::<Vec<_>>(), ["mutuo", "a+b=c"]);
    for list in serp.response.values() {
        assert!((10..=50).contains(&list.len()));
        let positions: Vec<u32> = list.iter().map(|r| r.position).collect();
        assert_eq!(positions, (1..=list.len() as u32).collect::<Vec<_>>());
        assert!(
            list.iter()
                .any(|r| r.url.contains('&') && !r.url.contains("&amp;"))
        );
    }
    let one = k.serp_history("mutuo", day).send().await.unwrap();
    assert!(!one.response.is_empty());
    let related = k.related("mutuo", 4).send().await.unwrap();
    assert_eq!(related.response.len(), 4);
    assert!(related.response.iter().all(|r| r.keyword != "mutuo"));

    assert_eq!(OPERATIONS.len(), 24);
    assert_eq!(sandbox.requests(), 24);
}

/// Minimal valid wire values for a parameter, from the table alone.
fn minimal(param: &Param) -> Vec<String> {
    let value = match param.kind {
        ParamKind::Text => "example.it".to_owned(),
        ParamKind::Integer => {
            let low = param.min.map_or(1, |m| m.value.max(1));
            param.max.map_or(low, |m| low.min(m.value)).to_string()
        }
        ParamKind::Date => "2024-03-01".to_owned(),
        ParamKind::Enum { values, .. } => values[0].to_owned(),
        _ => panic!("a parameter kind the test does not know: {param:?}"),
    };
    vec![value]
}

/// A request for `op` with minimal values for every required parameter, and
/// the rules of the operation satisfied.
fn minimal_request(op: &'static Operation) -> Request {
    let mut request = Request::new(op, None);
    for param in op.params.iter().filter(|p| p.required) {
        request.set(param.wire, minimal(param));
    }
    for rule in op.rules {
        if request.get(rule.if_param) == Some(&[rule.if_value.to_owned()][..]) {
            let value = match rule.equal_to {
                Some(v) => vec![v.to_owned()],
                None => minimal(op.param(rule.require).unwrap()),
            };
            request.set(rule.require, value);
        }
    }
    request
}

#[tokio::test]
async fn every_operation_of_the_table_answers_generically() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let mut spent = 0;
    for op in OPERATIONS {
        let envelope = c
            .run::<serde_json::Value>(minimal_request(op), RunOptions::one_request())
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", op.label()))
            .envelope;
        assert!(!envelope.no_data, "{}", op.label());
        assert!(envelope.result_rows >= 1, "{}", op.label());
        assert_eq!(
            envelope.units_used,
            charged(op, envelope.result_rows),
            "{}",
            op.label()
        );
        spent += envelope.units_used;
        assert_eq!(
            envelope.units_remaining,
            Some(Sandbox::STARTING_UNITS - spent)
        );

        // The aliases reach the same operation with the same data.
        let query = minimal_request(op).validate(&SERVICE, "it").unwrap();
        let mut responses = Vec::new();
        for name in [&op.action].into_iter().chain(op.aliases) {
            let pairs: Vec<String> = query
                .iter()
                .map(|(wire, value)| match *wire == SERVICE.action.wire {
                    true => format!("{wire}={name}"),
                    false => format!("{wire}={value}"),
                })
                .collect();
            let path = format!("{}?api_key=k&{}", op.path, pairs.join("&"));
            let (status, _, body) = raw(&sandbox, &path).await;
            assert_eq!(status, 200, "{name}: {body}");
            let value: serde_json::Value = serde_json::from_str(&body).unwrap();
            responses.push(value["response"].clone());
            spent += value["UnitsUsed"].as_i64().unwrap();
        }
        assert!(responses.windows(2).all(|w| w[0] == w[1]), "{}", op.label());
    }
    assert_eq!(sandbox.units_remaining(), Sandbox::STARTING_UNITS - spent);
}

#[tokio::test]
async fn the_same_query_gives_the_same_rows() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let call = || {
        c.domains()
            .keywords("example.it", KeywordType::Up, 30)
            .send()
    };
    let (first, second) = (call().await.unwrap(), call().await.unwrap());
    assert_eq!(first.response, second.response);
    assert!(
        first.response.iter().all(|k| k.last_variation > Some(0)),
        "type=up gives gains"
    );

    // Another sandbox gives the same data too.
    let other = Sandbox::start().await.unwrap();
    let third = client(&other)
        .domains()
        .keywords("example.it", KeywordType::Up, 30)
        .send()
        .await
        .unwrap();
    assert_eq!(first.response, third.response);

    // Another type, database or domain gives other rows.
    let down = c
        .domains()
        .keywords("example.it", KeywordType::Down, 30)
        .send()
        .await
        .unwrap();
    assert_ne!(first.response, down.response);
    assert!(down.response.iter().all(|k| k.last_variation < Some(0)));
    let es = c
        .domains()
        .keywords("example.it", KeywordType::Up, 30)
        .db(Db::Es)
        .send()
        .await
        .unwrap();
    assert_ne!(first.response, es.response);
    let a = c.domains().metrics(["a.it"]).send().await.unwrap();
    let b = c.domains().metrics(["b.it"]).send().await.unwrap();
    assert_ne!(a.response, b.response);

    // A domain's row is the same alone or among others.
    let both = c.domains().metrics(["b.it", "a.it"]).send().await.unwrap();
    assert_eq!(both.response[1], a.response[0]);
}

#[tokio::test]
async fn limit_and_offset_are_honoured() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let keywords = |offset, limit| {
        c.domains()
            .keywords("example.it", KeywordType::Best, limit)
            .offset(offset)
            .send()
    };
    let twenty = keywords(0, 20).await.unwrap();
    assert_eq!(twenty.response.len(), 20);
    assert_eq!(twenty.result_rows, 20);
    let second_ten = keywords(10, 10).await.unwrap();
    assert_eq!(second_ten.response, twenty.response[10..20]);

    // The rows run out: past the end is "no data", near it a short page.
    let all = keywords(0, 10_000).await.unwrap();
    let available = all.response.len();
    assert!((20..=500).contains(&available), "{available}");
    let tail = keywords(available as i64 - 3, 10).await.unwrap();
    assert_eq!(tail.response, all.response[available - 3..]);
    let past = keywords(available as i64, 10).await.unwrap();
    assert!(past.no_data && past.response.is_empty());

    // The same for any limited operation, e.g. the AI overview keywords.
    let ai = |offset, limit| {
        c.domains()
            .ai_keywords("example.it", limit)
            .offset(offset)
            .send()
    };
    let (whole, part) = (ai(0, 8).await.unwrap(), ai(5, 3).await.unwrap());
    assert_eq!(part.response, whole.response[5..8]);
}

#[tokio::test]
async fn page_and_position_are_honoured() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    for page in 1..=5 {
        let rows = c
            .domains()
            .keywords("example.it", KeywordType::ByPage, 50)
            .page(page)
            .send()
            .await
            .unwrap();
        let range = (page - 1) * 10 + 1..=page * 10;
        assert_eq!(rows.response.len(), 50);
        assert!(
            rows.response
                .iter()
                .all(|k| k.ranking_position.is_some_and(|p| range.contains(&p)))
        );
    }
    let at_seven = c
        .domains()
        .keywords("example.it", KeywordType::ByPosition, 25)
        .position(7)
        .send()
        .await
        .unwrap();
    assert!(
        at_seven
            .response
            .iter()
            .all(|k| k.ranking_position == Some(7))
    );
    let positions: BTreeSet<i64> = c
        .domains()
        .keywords("example.it", KeywordType::Best, 200)
        .send()
        .await
        .unwrap()
        .response
        .iter()
        .filter_map(|k| k.ranking_position)
        .collect();
    assert!(positions.iter().all(|p| (1..=50).contains(p)));
    assert!(positions.len() > 20, "positions vary without page/position");
}

#[tokio::test]
async fn unknown_inputs_give_the_typed_no_data_outcome() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);

    let none = c.domains().metrics(["shop.invalid"]).send().await.unwrap();
    assert!(none.no_data && none.response.is_empty());
    assert_eq!(none.units_used, 0);
    let none = c
        .domains()
        .keywords("shop.invalid", KeywordType::Best, 10)
        .send()
        .await
        .unwrap();
    assert!(none.no_data && none.response.is_empty());
    let none = c
        .urls()
        .keywords("https://www.shop.invalid/p/", 10)
        .send()
        .await
        .unwrap();
    assert!(none.no_data);
    let none = c.keywords().serp(["zzz nothing"]).send().await.unwrap();
    assert!(none.no_data && none.response.is_empty());
    match c
        .keywords()
        .serp_history("zzz nothing", date(2024, 1, 1))
        .send()
        .await
    {
        Err(e) if matches!(e.kind(), ErrorKind::NoData) => {
            assert_eq!(e.operation(), Some("keywords serphistory"))
        }
        other => panic!("expected ErrorKind::NoData, got {other:?}"),
    }
    assert_eq!(
        sandbox.units_remaining(),
        Sandbox::STARTING_UNITS,
        "no data is free"
    );

    // In a list only the known items give rows, and only they are charged.
    let some = c
        .domains()
        .metrics(["shop.invalid", "example.it", "zzz.it"])
        .send()
        .await
        .unwrap();
    assert_eq!(some.result_rows, 1);
    assert_eq!(some.response[0].domain, "example.it");
    assert_eq!(some.units_used, 20);
    let serp = c.keywords().serp(["zzz", "mutuo"]).send().await.unwrap();
    assert_eq!(serp.response.keys().collect::<Vec<_>>(), ["mutuo"]);

    let (status, content_type, body) = raw(
        &sandbox,
        "/api/v2/domains/?api_key=k&action=authority&domain=a.invalid|b.invalid",
    )
    .await;
    assert_eq!(
        (status, content_type.as_str()),
        (400, "text/html; charset=UTF-8")
    );
    assert_eq!(body, r#"{"status":400,"message":"No data found!"}"#);
}

#[tokio::test]
async fn units_are_charged_by_the_spec() {
    let sandbox = Sandbox::start().await.unwrap();
    let c = client(&sandbox);
    let mut expected = Sandbox::STARTING_UNITS;

    let page = c
        .domains()
        .keywords("example.it", KeywordType::Best, 15)
        .send()
        .await
        .unwrap();
    assert_eq!((page.result_rows, page.units_used), (15, 150));
    expected -= 150;
    assert_eq!(page.units_remaining, Some(expected));
    assert_eq!(sandbox.units_remaining(), expected);

    // Per call: the figure whatever the rows.
    let projects = c.projects().list().send().await.unwrap();
    assert!(projects.result_rows > 1);
    assert_eq!(projects.units_used, 100);
    expected -= 100;

    // Two figures ("20 and 30"): the higher one per row.
    let history = c
        .domains()
        .metrics_history(["a.it", "b.it"], date(2024, 1, 1))
        .send()
        .await
        .unwrap();
    assert_eq!(history.units_used, 60);
    expected -= 60;

    // Nested rows are not charged: niches are charged per domain.
    let niches = c
        .domains()
        .niches(["a.it", "b.it", "c.it"], 5)
        .send()
        .await
        .unwrap();
    assert_eq!(niches.units_used, 3 * 40);
    expected -= 120;

    // A SERP per keyword.
    let serp = c.keywords().serp(["a", "b"]).send().await.unwrap();
    assert_eq!(serp.units_used, 200);
    expected -= 200;

    assert_eq!(serp.units_remaining, Some(expected));
    assert_eq!(sandbox.units_remaining(), expected);
    assert_eq!(c.units().remaining, Some(expected));
}

#[tokio::test]
async fn an_exhausted_balance_is_refused() {
    let sandbox = Sandbox::start().await.unwrap();
    let keywords: Vec<String> = (0..100).map(|i| format!("k{i}")).collect();
    let query = format!(
        "/api/v2/keywords/?api_key=k&action=serp&keyword={}",
        keywords.join("|")
    );
    // 100 keywords at 100 units: 10 000 a call, 100 calls.
    for _ in 0..100 {
        let (status, _, _) = raw(&sandbox, &query).await;
        assert_eq!(status, 200);
    }
    assert_eq!(sandbox.units_remaining(), 0);
    let (status, _, body) = raw(&sandbox, &query).await;
    assert_eq!(status, 403);
    assert_eq!(body, r#"{"status":403,"message":"Insufficient units"}"#);
    assert_eq!(sandbox.units_remaining(), 0);

    // The typed client sees the service's refusal; no data is still free.
    let c = client(&sandbox);
    match c.keywords().metrics(["a"]).send().await {
        Err(e) => assert_eq!(e.status(), Some(403), "{e}"),
        Ok(ok) => panic!("expected a refusal, got {ok:?}"),
    }
    assert!(
        c.domains()
            .metrics(["a.invalid"])
            .send()
            .await
            .unwrap()
            .no_data
    );
}

#[tokio::test]
async fn invalid_parameters_sent_raw_are_refused_like_the_client() {
    let sandbox = Sandbox::start().await.unwrap();
    let keywords = "/api/v2/domains/?api_key=k&action=keywords&domain=example.it";
    let cases = [
        (
            format!("{keywords}&type=bypage&limit=10&page=9"),
            "`page` = 9",
            "above the maximum 5",
        ),
        (
            format!("{keywords}&type=bypage&limit=10"),
            "`page` = (none)",
            "required when type=bypage",
        ),
        (
            format!("{keywords}&type=best&limit=0"),
            "`limit` = 0",
            "below the minimum 1",
        ),
        (
            format!("{keywords}&type=best&limit=ten"),
            "`limit` = ten",
            "whole number",
        ),
        (
            format!("{keywords}&type=sideways&limit=5"),
            "`type` = sideways",
            "must be one of",
        ),
        (
            format!("{keywords}&type=newentry&limit=5&offset=3"),
            "`offset` = 3",
            "must be 0",
        ),
        (format!("{keywords}&limit=5"), "`type` = (none)", "missing"),
        (
            format!("{keywords}&type=best&limit=5&db=xx"),
            "`db` = xx",
            "must be one of",
        ),
        (
            format!("{keywords}&type=best&limit=5&colour=red"),
            "`colour`",
            "unknown parameter",
        ),
        (
            "/api/v2/domains/?api_key=k&action=niches&limit=1&domain=a|b|c|d|e|f|g|h|i|j|k".into(),
            "`domain`",
            "at most 10",
        ),
        (
            "/api/v2/keywords/?api_key=k&action=metrics&keyword=a||b".into(),
            "`keyword`",
            "must not be empty",
        ),
        (
            "/api/v2/keywords/?api_key=k&action=serphistory&keyword=a&date=2024-13-01".into(),
            "`date`",
            "yyyy-MM-dd",
        ),
    ];
    for (query, param, problem) in cases {
        let (status, content_type, body) = raw(&sandbox, &query).await;
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(content_type, "text/html; charset=UTF-8");
        let message = message(&body);
        assert!(message.contains(param), "{query}: {message}");
        assert!(message.contains(problem), "{query}: {message}");
    }

    // The message is the client's own.
    let mut request = Request::new(&seozoom::operations::DOMAINS_KEYWORDS, None);
    request.set("domain", vec!["example.it".into()]);
    request.set("type", vec!["bypage".into()]);
    request.set("limit", vec!["10".into()]);
    request.set("page", vec!["9".into()]);
    let expected = request.validate(&SERVICE, "it").unwrap_err().to_string();
    let (_, _, body) = raw(&sandbox, &format!("{keywords}&type=bypage&limit=10&page=9")).await;
    assert_eq!(message(&body), expected);
    assert_eq!(sandbox.units_remaining(), Sandbox::STARTING_UNITS);
}

#[tokio::test]
async fn keys_paths_and_actions_are_checked() {
    let sandbox = Sandbox::start().await.unwrap();
    let cases = [
        ("/api/v2/projects/?action=list", 401, "Invalid API key"),
        (
            "/api/v2/projects/?api_key=&action=list",
            401,
            "Invalid API key",
        ),
        (
            "/api/v2/projects/?api_key=+&action=list",
            401,
            "Invalid API key",
        ),
        ("/api/v2/nowhere/?api_key=k&action=list", 404, "Not found"),
        ("/api/v2/projects?api_key=k&action=list", 404, "Not found"),
        ("/?api_key=k", 404, "Not found"),
        (
            "/api/v2/projects/?api_key=k&action=teleport",
            404,
            "Unknown action `teleport`",
        ),
        ("/api/v2/projects/?api_key=k", 404, "Missing action"),
        (
            "/api/v2/projects/?api_key=k&action=metrics",
            404,
            "Unknown action `metrics`",
        ),
    ];
    for (query, status, text) in cases {
        let (got, content_type, body) = raw(&sandbox, query).await;
        assert_eq!(got, status, "{query}: {body}");
        assert_eq!(content_type, "text/html; charset=UTF-8");
        let value: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(value["status"], status);
        assert!(message(&body).contains(text), "{query}: {body}");
    }
    let post = reqwest::Client::new()
        .post(format!(
            "{}/api/v2/projects/?api_key=k&action=list",
            sandbox.base_url()
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(post.status().as_u16(), 405);
    assert_eq!(post.headers()["allow"], "GET");
    assert_eq!(sandbox.requests(), cases.len() as u64 + 1);

    // Through the typed client, a wrong key is the service's error.
    let c = Client::builder()
        .api_key(" ")
        .base_url(sandbox.base_url())
        .build();
    assert!(c.is_err(), "the client refuses a blank key itself");
}

#[tokio::test]
async fn bodies_have_the_service_quirks() {
    let sandbox = Sandbox::start().await.unwrap();
    let (status, content_type, body) = raw(
        &sandbox,
        "/api/v2/keywords/?api_key=k&action=serp&keyword=scarpe%20running|mutuo",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(content_type, "text/html; charset=UTF-8");
    assert!(
        body.starts_with(r#"{"ResultRows":2,"UnitsUsed":200,"UnitsRemaining":999800,"response":{"#)
    );
    assert!(body.contains(r#""1":"https:\/\/"#), "{body}");
    assert!(body.contains("&amp;"));
    assert!(!body.contains("://"), "every slash is escaped");
    // Positions come in numeric order: "9" before "10".
    let nine = body.find(r#""9":"#).unwrap();
    assert!(nine < body.find(r#""10":"#).unwrap());

    // Records: members in spec order, string booleans, nulls, decimals and
    // integral floats appear across rows.
    let (_, _, body) = raw(
        &sandbox,
        &format!(
            "/api/v2/keywords/?api_key=k&action=metrics&keyword={}",
            (0..100)
                .map(|i| format!("kw{i}"))
                .collect::<Vec<_>>()
                .join("|")
        ),
    )
    .await;
    assert!(body.contains(r#""has_ai_overview":"true""#));
    assert!(body.contains(r#""has_ai_overview":"false""#));
    assert!(body.contains(r#"{"keyword":"kw0","lang":"it","google_ext":".it","localcode":"#));
    let value: serde_json::Value = serde_json::from_str(&body).unwrap();
    let rows = value["response"].as_array().unwrap();
    assert!(rows.iter().any(|r| r.get("has_ai_overview").is_none()));
    assert!(rows.iter().any(|r| r["KD"].is_f64()), "integral floats");
    assert!(
        rows.iter()
            .any(|r| r["cpcapprox"].as_f64().is_some_and(|x| x.fract() != 0.0))
    );
    let intents: BTreeSet<&str> = rows
        .iter()
        .flat_map(|r| r["search_intent"].as_str().unwrap().split(','))
        .collect();
    assert_eq!(
        intents,
        BTreeSet::from(["informational", "navigational", "transactional"])
    );

    let (_, _, body) = raw(&sandbox, "/api/v2/projects/?api_key=k&action=keywords&id=7").await;
    let value: serde_json::Value = serde_json::from_str(&body).unwrap();
    let mut seen_null = false;
    for id in 1..40 {
        let (_, _, body) = raw(
            &sandbox,
            &format!("/api/v2/projects/?api_key=k&action=keywords&id={id}"),
        )
        .await;
        seen_null |= body.contains(r#""url":null"#);
    }
    assert!(seen_null, "nullable fields are null now and then");
    let rows = value["response"].as_array().unwrap();
    let urls: BTreeSet<String> = rows
        .iter()
        .filter_map(|r| r["url"].as_str())
        .filter_map(|u| u.split('/').nth(2).map(str::to_owned))
        .collect();
    assert_eq!(
        urls.len(),
        1,
        "a project's URLs are on one domain: {urls:?}"
    );
}

#[tokio::test]
async fn bad_queries_never_break_the_server() {
    let sandbox = Sandbox::start().await.unwrap();
    let queries = [
        "/api/v2/domains/?api_key=k&action=metrics&domain=%FF%FE",
        "/api/v2/domains/?api_key=k&action=metrics&domain=%",
        "/api/v2/domains/?api_key=k&action=metrics&domain=%zz",
        "/api/v2/domains/?api_key=k&action=metrics&domain",
        "/api/v2/domains/?api_key=k&action=metrics&domain=|",
        "/api/v2/domains/?api_key=k&action=metrics&=&&=x",
        "/api/v2/domains/?api_key=k&action=keywords&domain=a.it&type=best&limit=99999999999999999999",
        "/api/v2/domains/?api_key=k&action=keywords&domain=a.it&type=best&limit=-1",
        "/api/v2/domains/?api_key=k&action=keywords&domain=a.it&type=best&limit=10&offset=9223372036854775807",
        "/api/v2/domains/?api_key=k&action=keywords&domain=a.it&type=bypage&limit=10&page=-9223372036854775808",
        "/api/v2/urls/?api_key=k&action=urlpza&url=http://[::1]:99999/",
        "/api/v2/urls/?api_key=k&action=urlpza&url=%00",
        "/api/v2/keywords/?api_key=k&action=serp&keyword=%E2%82%AC%F0%9F%98%80",
        "/api/v2/keywords/?api_key=k&action[]=serp",
        "/api/v2/projects/?api_key=k&action=overview&id=0x10",
        "/api/v2/projects/?api_key=k&action=list&db=",
    ];
    for query in queries {
        let (status, _, body) = raw(&sandbox, query).await;
        assert!(status < 500, "{query}: {status} {body}");
        let value: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert!(value.is_object(), "{query}: {body}");
    }
    // Still serving.
    let (status, _, _) = raw(&sandbox, "/api/v2/projects/?api_key=k&action=list").await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn starts_on_a_given_port_and_stops_when_dropped() {
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let sandbox = Sandbox::start_on(port).await.unwrap();
    assert_eq!(sandbox.base_url(), format!("http://127.0.0.1:{port}"));
    assert_eq!(sandbox.local_addr().port(), port);
    assert!(format!("{sandbox:?}").contains("units_remaining"));
    let (status, _, _) = raw(&sandbox, "/api/v2/projects/?api_key=k&action=list").await;
    assert_eq!(status, 200);
    // The port is taken while it runs.
    assert!(Sandbox::start_on(port).await.is_err());
    drop(sandbox);

    let url = format!("http://127.0.0.1:{port}/api/v2/projects/?api_key=k&action=list");
    let mut refused = false;
    for _ in 0..50 {
        if reqwest::get(&url).await.is_err() {
            refused = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(refused, "a dropped sandbox stops accepting connections");
}

#[test]
fn works_from_a_current_thread_runtime_and_a_blocking_caller() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let sandbox = runtime.block_on(Sandbox::start()).unwrap();
    let c = client(&sandbox);
    let rows = runtime
        .block_on(c.urls().metrics(["https://example.it/"]).send())
        .unwrap();
    assert_eq!(rows.response[0].url, "https://example.it/");
}

/// `keywords related` has no printed cost: its estimate is unknown (never 0),
/// a budget refuses it before sending, and without one the units it reports
/// are counted as usual.
#[tokio::test]
async fn an_unknown_cost_is_estimated_as_unknown_and_refused_under_a_budget() {
    let sandbox = Sandbox::start().await.unwrap();
    let build = |budget: Option<i64>| {
        let builder = Client::builder()
            .api_key(Sandbox::API_KEY)
            .base_url(sandbox.base_url());
        match budget {
            Some(units) => builder.budget(units),
            None => builder,
        }
        .build()
        .unwrap()
    };
    let client = build(None);
    let request = client.keywords().related("scarpe running", 5).request();
    let estimate = client.estimate(&request).unwrap();
    assert!(estimate.unknown, "{estimate:?}");
    assert_eq!(estimate.max, i64::MAX);
    assert_eq!(
        estimate.to_string(),
        "unknown (the reference prints no unit cost)"
    );
    assert!(estimate.plus(seozoom::units::Estimate::range(1, 2)).unknown);

    let budgeted = build(Some(1_000_000));
    let err = budgeted
        .keywords()
        .related("scarpe running", 5)
        .send()
        .await
        .unwrap_err();
    assert!(err.is_refused(), "{err}");
    assert!(
        matches!(
            err.kind(),
            ErrorKind::UnknownCost {
                budget: 1_000_000,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(sandbox.requests(), 0, "nothing is sent");

    let answer = client
        .keywords()
        .related("scarpe running", 5)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.response.len(), 5);
    assert!(
        answer
            .response
            .iter()
            .all(|r| r.serp_affinity.is_some_and(|a| (0..=100).contains(&a)))
    );
    assert_eq!(client.units().used, answer.units_used);
    assert!(answer.units_used > 0);
}

// ---------------------------------------------------------------------------
// Strict mode: the requests-per-minute figures held as the service holds them
// ---------------------------------------------------------------------------

/// `keywords metrics`, and its requests-per-minute figure from the table.
fn metrics_figure() -> usize {
    let op = Operation::find("keywords", "metrics").unwrap();
    usize::try_from(op.cost.requests_per_minute.value).unwrap()
}

/// A raw `keywords metrics` request with `key`: status, `Retry-After`, body.
async fn raw_metrics(sandbox: &Sandbox, key: &str) -> (u16, Option<u64>, String) {
    let url = format!(
        "{}/api/v2/keywords/?api_key={key}&action=metrics&keyword=mutuo&db=it",
        sandbox.base_url()
    );
    let response = reqwest::get(url).await.unwrap();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse().unwrap());
    (
        response.status().as_u16(),
        retry_after,
        response.text().await.unwrap(),
    )
}

#[tokio::test]
async fn a_strict_sandbox_answers_429_past_the_figure_and_not_before() {
    let window = std::time::Duration::from_secs(2);
    let sandbox = Sandbox::builder()
        .rate_window(window)
        .start()
        .await
        .unwrap();
    let client = client(&sandbox);
    let figure = metrics_figure();

    for n in 1..=figure {
        client
            .keywords()
            .metrics(["mutuo"])
            .send()
            .await
            .unwrap_or_else(|e| panic!("request {n} of {figure} refused: {e}"));
    }
    assert_eq!(sandbox.rate_limited(), 0, "the figure itself is allowed");

    let err = client
        .keywords()
        .metrics(["mutuo"])
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(429), "{err}");
    assert_eq!(sandbox.rate_limited(), 1);

    // As the service answers it: a JSON error body and a Retry-After in whole
    // seconds, no longer than the window.
    let (status, retry_after, body) = raw_metrics(&sandbox, Sandbox::API_KEY).await;
    assert_eq!(status, 429);
    assert_eq!(message(&body), "Too Many Requests");
    let retry_after = retry_after.expect("a Retry-After header");
    assert!((1..=2).contains(&retry_after), "{retry_after}");

    // Per key and per operation: another key, another operation still pass.
    assert_eq!(raw_metrics(&sandbox, "another-key").await.0, 200);
    client
        .domains()
        .metrics(["example.it"])
        .send()
        .await
        .unwrap();
    assert_eq!(sandbox.rate_limited(), 2);

    // Refused requests took no slot: once the window has moved on, it passes.
    tokio::time::sleep(std::time::Duration::from_secs(retry_after)).await;
    client.keywords().metrics(["mutuo"]).send().await.unwrap();
    assert_eq!(sandbox.rate_limited(), 2);
}

#[tokio::test]
async fn a_client_that_holds_the_figures_never_trips_a_strict_sandbox() {
    let window = std::time::Duration::from_secs(1);
    let sandbox = Sandbox::builder()
        .rate_window(window)
        .start()
        .await
        .unwrap();
    // The same window on both sides; no retries: a 429 would be an error here.
    let client = Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .rate_window(window)
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let calls = 3 * metrics_figure();

    let results = futures_util::future::join_all((0..calls).map(|i| {
        let client = client.clone();
        async move {
            let keyword = format!("mutuo {i}");
            client.keywords().metrics([keyword]).send().await
        }
    }))
    .await;

    let failed: Vec<String> = results
        .iter()
        .filter_map(|r| r.as_ref().err().map(ToString::to_string))
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(sandbox.requests(), calls as u64);
    assert_eq!(sandbox.rate_limited(), 0);
}

#[tokio::test]
async fn without_its_limiter_a_client_waits_out_the_429s_of_a_strict_sandbox() {
    let window = std::time::Duration::from_secs(1);
    let sandbox = Sandbox::builder()
        .rate_window(window)
        .start()
        .await
        .unwrap();
    let client = Client::builder()
        .api_key(Sandbox::API_KEY)
        .base_url(sandbox.base_url())
        .rate_limit(RateLimitMode::Off)
        .rate_window(window)
        .build()
        .unwrap();
    let calls = metrics_figure() + 5;

    for i in 0..calls {
        client
            .keywords()
            .metrics([format!("mutuo {i}")])
            .send()
            .await
            .unwrap_or_else(|e| panic!("call {i}: {e}"));
    }
    assert!(sandbox.rate_limited() > 0, "the figure was passed");
}

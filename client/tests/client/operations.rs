//! Every operation of the spec over real HTTP on loopback: the exact path and raw
//! query string sent, and a realistic body decoded into typed records. Then the
//! inputs refused before sending, and the service's errors (bodies of an
//! unexpected shape are `lenient.rs`'s).

use crate::support;

use seozoom::error::ErrorKind;
use seozoom::types::{Date, DateTime, Time};
use seozoom::{Db, error::InvalidInput, types::KeywordType, types::SearchIntent};
use support::{Server, units};

/// A day of the calendar (the tests' dates are literals).
fn date(year: i32, month: u8, day: u8) -> Date {
    Date::new(year, month, day).expect("a day of the calendar")
}

/// A time of day (a literal).
fn time(hour: u8, minute: u8, second: u8) -> Time {
    Time::new(hour, minute, second).expect("a time of day")
}

/// One operation over the wire per case: the loopback server gives `answer`,
/// the client sends `call`, and the test checks the exact path and raw query
/// string sent, the envelope's `(ResultRows, UnitsUsed, UnitsRemaining)` and
/// then the typed records (`check`). Each case is its own test, named after it.
macro_rules! wire_cases {
    ($(
        $name:ident {
            answer: $answer:expr,
            call: |$client:ident| $call:expr,
            sent: ($path:expr, $query:expr $(,)?),
            units: $units:expr,
            check: |$page:ident| $check:block $(,)?
        }
    )*) => {$(
        #[tokio::test]
        async fn $name() {
            let server = $answer.await;
            let $client = server.client();
            let $page = $call.send().await.unwrap();
            server.assert_sent($path, $query);
            let (rows, used, remaining) = $units;
            let reported = (rows, used, Some(remaining));
            assert_eq!(units(&$page), reported, "{}: units", stringify!($name));
            $check
        }
    )*};
}

wire_cases! {
    // ---------------------------------------------------------------------------
    // projects
    // ---------------------------------------------------------------------------

    // `\/` escapes, `tags` with empty segments and null, `category` null, an
    // integral float (`ZA`), an unknown extra member.
    projects_list {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":100,"UnitsRemaining":49900,"response":[
        {"project_id":48213,"is_live":1,"creation_date":"2023-05-10 09:12:00","project_name":"Example Shop",
         "tags":"seo,,blog,","url":"https:\/\/www.example.it\/","category":"SHOPPING_FASHION","ZA":35.0,
         "keywords_up":42,"keywords_down":17,"keywords_stable":241,"monitored_keywords":300,
         "avg_search_volume_last_week":1830,"avg_search_volume_last_month":1795,"volume_attuale":1902,
         "project_last_update":"2024-03-04","project_last_update_time":"06:30:15",
         "monthly_trend":2.35,"weekly_trend":-0.8,"owner_email":"ignored@example.it"},
        {"project_id":50977,"is_live":0,"creation_date":"2024-01-02 18:45:30","project_name":"Blog",
         "tags":null,"url":"https:\/\/blog.example.it\/","category":null,"ZA":12,
         "keywords_up":0,"keywords_down":0,"keywords_stable":15,"monitored_keywords":15,
         "avg_search_volume_last_week":90,"avg_search_volume_last_month":110,"volume_attuale":95,
         "project_last_update":"2024-03-03","project_last_update_time":"23:59:59",
         "monthly_trend":0,"weekly_trend":0.0}]}"#,
        ),
        call: |client| client.projects().list(),
        sent: (
            "/api/v2/projects/",
            "api_key=TEST-KEY-123&db=it&action=list",
        ),
        units: (2, 100, 49900),
        check: |page| {
            let [shop, blog] = &page.response[..] else {
                panic!("two projects expected: {:?}", page.response)
            };
            assert_eq!(shop.project_id, 48213);
            assert_eq!(shop.is_live, Some(true));
            assert_eq!(shop.creation_date, Some(DateTime::new(date(2023, 5, 10), time(9, 12, 0))));
            assert_eq!(shop.project_name.as_deref(), Some("Example Shop"));
            assert_eq!(shop.tags, ["seo", "blog"]);
            assert_eq!(shop.url.as_deref(), Some("https://www.example.it/"));
            assert_eq!(shop.category.as_deref(), Some("SHOPPING_FASHION"));
            assert_eq!(shop.za, Some(35));
            assert_eq!(
                (shop.keywords_up, shop.keywords_down, shop.keywords_stable),
                (Some(42), Some(17), Some(241))
            );
            assert_eq!(shop.current_volume, Some(1902));
            assert_eq!(shop.project_last_update, Some(date(2024, 3, 4)));
            assert_eq!(shop.project_last_update_time, Some(time(6, 30, 15)));
            assert_eq!((shop.monthly_trend, shop.weekly_trend), (Some(2.35), Some(-0.8)));

            assert_eq!(blog.project_id, 50977);
            assert_eq!(blog.is_live, Some(false));
            assert!(blog.tags.is_empty());
            assert_eq!(blog.category, None);
            assert_eq!(blog.creation_date, Some(DateTime::new(date(2024, 1, 2), time(18, 45, 30))));
        },
    }

    projects_overview {
        answer: Server::json(
            r#"{"ResultRows":1,"UnitsUsed":100,"UnitsRemaining":49800,"response":{
        "monitored_keywords":300,"monitored_keywords_traffic":15420,"monitored_keywords_prev_traffic":14980,
        "monitored_keywords_traffic_variation":2.94,"monitored_keywords_up":42,"monitored_keywords_down":17,
        "monitored_keywords_stable":241,"domain_traffic":98200,"domain_traffic_variation":-1350,
        "za":35,"trust":31,"stability":40,"opportunity":27,"zero_traffic_pages":118,
        "zero_traffic_pages_perc":23.6}}"#,
        ),
        call: |client| client.projects().overview(48213),
        sent: (
            "/api/v2/projects/",
            "api_key=TEST-KEY-123&db=it&action=overview&id=48213",
        ),
        units: (1, 100, 49800),
        check: |page| {
            let o = &page.response;
            assert_eq!(o.monitored_keywords, Some(300));
            assert_eq!(
                (
                    o.monitored_keywords_traffic,
                    o.monitored_keywords_previous_traffic
                ),
                (Some(15420), Some(14980))
            );
            assert_eq!(o.monitored_keywords_traffic_variation, Some(2.94));
            assert_eq!(o.domain_traffic_variation, Some(-1350));
            assert_eq!(
                (o.za, o.trust, o.stability, o.opportunity),
                (Some(35), Some(31), Some(40), Some(27))
            );
            assert_eq!(o.zero_traffic_pages, Some(118));
            assert_eq!(o.zero_traffic_pages_percent, Some(23.6));
        },
    }

    // `url` / `old_url` null on one row, set (and changed) on the other; `KD` as 35.0.
    projects_keywords {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":100,"UnitsRemaining":49700,"response":[
        {"keyword":"scarpe running","lang":"it","google_ext":".it","localcode":"","search_volume":33100,
         "ppc_competitiveness":0.87,"cpcapprox":0.64,"indexed_pages":1520000,"KD":35.0,"KO":48,
         "jan":40500,"feb":33100,"mar":33100,"apr":33100,"may":40500,"jun":33100,
         "jul":27100,"aug":22200,"sep":33100,"oct":33100,"nov":40500,"dec":33100,
         "initial_position":14,"actual_position":6,"avg_position":7.25,"last_variation":-2,"tag":"",
         "url":"https:\/\/www.example.it\/scarpe-running\/","old_url":"https:\/\/www.example.it\/blog\/scarpe\/",
         "url_changed":1,"extimated_monthly_traffic":1820},
        {"keyword":"calze tecniche","lang":"it","google_ext":".it","localcode":"Milano","search_volume":880,
         "ppc_competitiveness":0.4,"cpcapprox":0.31,"indexed_pages":98000,"KD":12,"KO":20,
         "jan":720,"feb":880,"mar":880,"apr":880,"may":880,"jun":720,
         "jul":590,"aug":480,"sep":880,"oct":1000,"nov":1300,"dec":1600,
         "initial_position":0,"actual_position":0,"avg_position":0.0,"last_variation":0,"tag":"accessori",
         "url":null,"old_url":null,"url_changed":0,"extimated_monthly_traffic":0}]}"#,
        ),
        call: |client| client.projects().keywords(48213),
        sent: (
            "/api/v2/projects/",
            "api_key=TEST-KEY-123&db=it&action=keywords&id=48213",
        ),
        units: (2, 100, 49700),
        check: |page| {
            let [ranked, unranked] = &page.response[..] else {
                panic!("two keywords expected: {:?}", page.response)
            };
            assert_eq!(ranked.keyword, "scarpe running");
            assert_eq!(
                (
                    ranked.language.as_deref().unwrap_or_default(),
                    ranked.google_ext.as_deref().unwrap_or_default(),
                    ranked.local_code.as_deref().unwrap_or_default()
                ),
                ("it", ".it", "")
            );
            assert_eq!(ranked.search_volume, Some(33100));
            assert_eq!(
                (ranked.ppc_competitiveness, ranked.cpc_approx),
                (Some(0.87), Some(0.64))
            );
            assert_eq!(
                (ranked.keyword_difficulty, ranked.keyword_opportunity),
                (Some(35), Some(48))
            );
            assert_eq!((ranked.jan, ranked.aug, ranked.dec), (Some(40500), Some(22200), Some(33100)));
            assert_eq!((ranked.initial_position, ranked.actual_position), (Some(14), Some(6)));
            assert_eq!(ranked.avg_position, Some(7.25));
            assert_eq!(ranked.last_variation, Some(-2));
            assert_eq!(ranked.tag.as_deref(), Some(""));
            assert_eq!(
                ranked.url.as_deref(),
                Some("https://www.example.it/scarpe-running/")
            );
            assert_eq!(
                ranked.old_url.as_deref(),
                Some("https://www.example.it/blog/scarpe/")
            );
            assert_eq!(ranked.url_changed, Some(true));
            assert_eq!(ranked.estimated_monthly_traffic, Some(1820));

            assert_eq!(unranked.local_code.as_deref(), Some("Milano"));
            assert_eq!(unranked.tag.as_deref(), Some("accessori"));
            assert_eq!(
                (unranked.url.as_deref(), unranked.old_url.as_deref()),
                (None, None)
            );
            assert_eq!(unranked.url_changed, Some(false));
        },
    }

    projects_best_pages {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":100,"UnitsRemaining":49600,"response":[
        {"url":"https:\/\/www.example.it\/","pza":52,"total_keywords":1840},
        {"url":"https:\/\/www.example.it\/scarpe-running\/","pza":44,"total_keywords":615}]}"#,
        ),
        call: |client| client.projects().best_pages(48213, 2),
        sent: (
            "/api/v2/projects/",
            "api_key=TEST-KEY-123&db=it&action=bestpages&id=48213&limit=2",
        ),
        units: (2, 100, 49600),
        check: |page| {
            assert_eq!(page.response[0].url, "https://www.example.it/");
            assert_eq!(
                (page.response[0].pza, page.response[0].total_keywords),
                (Some(52), Some(1840))
            );
            assert_eq!(
                page.response[1].url,
                "https://www.example.it/scarpe-running/"
            );
            assert_eq!(
                (page.response[1].pza, page.response[1].total_keywords),
                (Some(44), Some(615))
            );
        },
    }

    projects_pages_with_more_keywords {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":100,"UnitsRemaining":49500,"response":[
        {"url":"https:\/\/www.example.it\/guide\/scarpe\/","extimated_traffic":5230,"total_keywords":912},
        {"url":"https:\/\/www.example.it\/outlet\/","extimated_traffic":4100.0,"total_keywords":780}]}"#,
        ),
        call: |client| client.projects().pages_with_more_keywords(48213, 2),
        sent: (
            "/api/v2/projects/",
            "api_key=TEST-KEY-123&db=it&action=pageswithmorekeywords&id=48213&limit=2",
        ),
        units: (2, 100, 49500),
        check: |page| {
            assert_eq!(page.response[0].url, "https://www.example.it/guide/scarpe/");
            assert_eq!(
                (
                    page.response[0].estimated_traffic,
                    page.response[0].total_keywords
                ),
                (Some(5230), Some(912))
            );
            assert_eq!(
                (
                    page.response[1].estimated_traffic,
                    page.response[1].total_keywords
                ),
                (Some(4100), Some(780))
            );
        },
    }

    projects_pages_with_potential {
        answer: Server::json(
            r#"{"ResultRows":1,"UnitsUsed":50,"UnitsRemaining":49450,"response":[
        {"url":"https:\/\/www.example.it\/trail-running\/","potential_traffic":7400,"total_keywords":233}]}"#,
        ),
        call: |client| client.projects().pages_with_potential(48213, 5),
        sent: (
            "/api/v2/projects/",
            "api_key=TEST-KEY-123&db=it&action=pageswithpotential&id=48213&limit=5",
        ),
        units: (1, 50, 49450),
        check: |page| {
            let row = &page.response[0];
            assert_eq!(row.url, "https://www.example.it/trail-running/");
            assert_eq!((row.potential_traffic, row.total_keywords), (Some(7400), Some(233)));
        },
    }

    projects_winner_pages {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":100,"UnitsRemaining":49350,"response":[
        {"url":"https:\/\/www.example.it\/saldi\/","traffic_variation":2310},
        {"url":"https:\/\/www.example.it\/scarpe-running\/","traffic_variation":845}]}"#,
        ),
        call: |client| client.projects().winner_pages(48213, 10),
        sent: (
            "/api/v2/projects/",
            "api_key=TEST-KEY-123&db=it&action=winnerpages&id=48213&limit=10",
        ),
        units: (2, 100, 49350),
        check: |page| {
            let got: Vec<(&str, Option<i64>)> = page
                .response
                .iter()
                .map(|p| (p.url.as_str(), p.traffic_variation))
                .collect();
            assert_eq!(
                got,
                [
                    ("https://www.example.it/saldi/", Some(2310)),
                    ("https://www.example.it/scarpe-running/", Some(845))
                ]
            );
        },
    }

    // The service may label its JSON `text/html`; the body is decoded all the same.
    projects_loser_pages_served_as_text_html {
        answer: Server::start(
            200,
            "text/html; charset=UTF-8",
            r#"{"ResultRows":2,"UnitsUsed":100,"UnitsRemaining":49250,"response":[
        {"url":"https:\/\/www.example.it\/blog\/maratona-2019\/","traffic_variation":-1780},
        {"url":"https:\/\/www.example.it\/outlet\/collezione-2022\/","traffic_variation":-96}]}"#,
        ),
        call: |client| client.projects().loser_pages(48213, 2),
        sent: (
            "/api/v2/projects/",
            "api_key=TEST-KEY-123&db=it&action=loserpages&id=48213&limit=2",
        ),
        units: (2, 100, 49250),
        check: |page| {
            assert_eq!(
                page.response[0].url,
                "https://www.example.it/blog/maratona-2019/"
            );
            assert_eq!(page.response[0].traffic_variation, Some(-1780));
            assert_eq!(
                page.response[1].url,
                "https://www.example.it/outlet/collezione-2022/"
            );
            assert_eq!(page.response[1].traffic_variation, Some(-96));
        },
    }

    // ---------------------------------------------------------------------------
    // domains
    // ---------------------------------------------------------------------------

    // Rows come back in a different order from the input.
    domains_metrics {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":40,"UnitsRemaining":49210,"response":[
        {"domain":"www.rivale.it","maindomain":"rivale.it","za":48,"trust":45,"stability":51,"opportunity":39,
         "extimated_traffic":412000,"current_month_traffic":398500,"last_traffic_variation":-13500,
         "total_keywords":58210,"page1":9120,"page2":7430,"page3":6650,"page4":5980,"page5":5120,
         "position_1to3":2210,"position_4to6":3015,"position_7to10":3895,"cpcval":18450.75},
        {"domain":"example.it","maindomain":"example.it","za":35,"trust":31,"stability":40,"opportunity":27,
         "extimated_traffic":98200,"current_month_traffic":101300,"last_traffic_variation":3100,
         "total_keywords":15230,"page1":1840,"page2":1620,"page3":1500,"page4":1410,"page5":1290,
         "position_1to3":402,"position_4to6":611,"position_7to10":827,"cpcval":3120.4}]}"#,
        ),
        call: |client| client.domains().metrics(["example.it", "www.rivale.it"]),
        sent: (
            "/api/v2/domains/",
            "api_key=TEST-KEY-123&db=it&action=metrics&domain=example.it|www.rivale.it",
        ),
        units: (2, 40, 49210),
        check: |page| {
            let rival = &page.response[0];
            assert_eq!(
                (rival.domain.as_str(), rival.main_domain.as_deref().unwrap_or_default()),
                ("www.rivale.it", "rivale.it")
            );
            assert_eq!(
                (rival.za, rival.trust, rival.stability, rival.opportunity),
                (Some(48), Some(45), Some(51), Some(39))
            );
            assert_eq!(
                (rival.estimated_traffic, rival.current_month_traffic),
                (Some(412000), Some(398500))
            );
            assert_eq!(rival.last_traffic_variation, Some(-13500));
            assert_eq!(rival.total_keywords, Some(58210));
            assert_eq!(
                [
                    rival.page_1,
                    rival.page_2,
                    rival.page_3,
                    rival.page_4,
                    rival.page_5
                ],
                [Some(9120), Some(7430), Some(6650), Some(5980), Some(5120)]
            );
            assert_eq!(
                (
                    rival.positions_1_to_3,
                    rival.positions_4_to_6,
                    rival.positions_7_to_10
                ),
                (Some(2210), Some(3015), Some(3895))
            );
            assert_eq!(rival.cpc_value, Some(18450.75));
            assert_eq!(page.response[1].domain, "example.it");
            assert_eq!(page.response[1].last_traffic_variation, Some(3100));
            assert_eq!(page.response[1].cpc_value, Some(3120.4));
        },
    }

    // `last_traffic_variation` is absent in this operation.
    domains_metrics_history {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":60,"UnitsRemaining":49150,"response":[
        {"domain":"example.it","maindomain":"example.it","za":33,"trust":30,"stability":38,"opportunity":25,
         "extimated_traffic":87400,"current_month_traffic":87400,"total_keywords":14120,
         "page1":1700,"page2":1580,"page3":1460,"page4":1390,"page5":1250,
         "position_1to3":380,"position_4to6":590,"position_7to10":730,"cpcval":2890.1},
        {"domain":"rivale.it","maindomain":"rivale.it","za":47,"trust":44,"stability":50,"opportunity":38,
         "extimated_traffic":405000,"current_month_traffic":405000,"total_keywords":57100,
         "page1":9000,"page2":7300,"page3":6600,"page4":5900,"page5":5000,
         "position_1to3":2150,"position_4to6":2990,"position_7to10":3860,"cpcval":18000}]}"#,
        ),
        call: |client| client.domains().metrics_history(["example.it", "rivale.it"], date(2024, 3, 1)),
        sent: (
            "/api/v2/domains/",
            "api_key=TEST-KEY-123&db=it&action=metricshistory&domain=example.it|rivale.it&date=2024-03-01",
        ),
        units: (2, 60, 49150),
        check: |page| {
            let [ours, theirs] = &page.response[..] else {
                panic!("two rows expected: {:?}", page.response)
            };
            assert_eq!(ours.domain, "example.it");
            assert_eq!(ours.last_traffic_variation, None);
            assert_eq!(
                (ours.za, ours.estimated_traffic, ours.total_keywords),
                (Some(33), Some(87400), Some(14120))
            );
            assert_eq!(ours.cpc_value, Some(2890.1));
            assert_eq!(theirs.last_traffic_variation, None);
            assert_eq!(theirs.cpc_value, Some(18000.0));
        },
    }

    domains_authority {
        answer: Server::json(
            r#"{"ResultRows":3,"UnitsUsed":30,"UnitsRemaining":49120,"response":[
        {"domain":"example.it","za":35,"trust":31,"stability":40,"opportunity":27},
        {"domain":"rivale.it","za":48,"trust":45,"stability":51,"opportunity":39},
        {"domain":"corriere.it","za":82.0,"trust":88,"stability":79,"opportunity":60}]}"#,
        ),
        call: |client| client.domains().authority(["example.it", "rivale.it", "corriere.it"]),
        sent: (
            "/api/v2/domains/",
            "api_key=TEST-KEY-123&db=it&action=authority&domain=example.it|rivale.it|corriere.it",
        ),
        units: (3, 30, 49120),
        check: |page| {
            type Scores = [Option<i64>; 4];
            let got: Vec<(&str, Scores)> = page
                .response
                .iter()
                .map(|a| (a.domain.as_str(), [a.za, a.trust, a.stability, a.opportunity]))
                .collect();
            assert_eq!(
                got,
                [
                    ("example.it", [Some(35), Some(31), Some(40), Some(27)]),
                    ("rivale.it", [Some(48), Some(45), Some(51), Some(39)]),
                    ("corriere.it", [Some(82), Some(88), Some(79), Some(60)]),
                ]
            );
        },
    }

    // Two domains asked, one with data: ResultRows counts the domains returned.
    domains_niches {
        answer: Server::json(
            r#"{"ResultRows":1,"UnitsUsed":40,"UnitsRemaining":49080,"response":[
        {"domain":"example.it","niches":[
          {"tza":41,"name":"Sport e fitness","perc":62.5,"keywords":9520,"niche_traffic":61300},
          {"tza":18,"name":"Moda & abbigliamento","perc":21.75,"keywords":3310,"niche_traffic":21400}]}]}"#,
        ),
        call: |client| client.domains().niches(["example.it", "sito-senza-dati.it"], 2),
        sent: (
            "/api/v2/domains/",
            "api_key=TEST-KEY-123&db=it&action=niches&domain=example.it|sito-senza-dati.it&limit=2",
        ),
        units: (1, 40, 49080),
        check: |page| {
            assert_eq!(page.response.len(), 1);
            let entry = &page.response[0];
            assert_eq!(entry.domain, "example.it");
            let [sport, fashion] = &entry.niches[..] else {
                panic!("two niches expected: {:?}", entry.niches)
            };
            assert_eq!(
                (sport.tza, sport.name.as_str(), sport.percent),
                (Some(41), "Sport e fitness", Some(62.5))
            );
            assert_eq!((sport.keywords, sport.niche_traffic), (Some(9520), Some(61300)));
            assert_eq!(
                (fashion.name.as_str(), fashion.percent),
                ("Moda & abbigliamento", Some(21.75))
            );
        },
    }

    domains_best_pages {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":40,"UnitsRemaining":49040,"response":[
        {"url":"https:\/\/www.rivale.it\/","pza":61,"total_keywords":4210},
        {"url":"https:\/\/www.rivale.it\/offerte\/scarpe\/","pza":49,"total_keywords":1377}]}"#,
        ),
        call: |client| client.domains().best_pages("rivale.it", 2),
        sent: (
            "/api/v2/domains/",
            "api_key=TEST-KEY-123&db=it&action=bestpages&domain=rivale.it&limit=2",
        ),
        units: (2, 40, 49040),
        check: |page| {
            assert_eq!(
                page.response[1].url,
                "https://www.rivale.it/offerte/scarpe/"
            );
            assert_eq!(
                (page.response[1].pza, page.response[1].total_keywords),
                (Some(49), Some(1377))
            );
            assert_eq!(page.response[0].pza, Some(61));
        },
    }

    // `db` overridden, the optional `offset` and `page` set; params in spec order
    // (domain, type, offset, limit, page). `search_intent` with an unknown value.
    domains_keywords_by_page_on_another_database {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":20,"UnitsRemaining":49020,"response":[
        {"keyword":"zapatillas running","lang":"es","google_ext":".es","localcode":"","search_volume":49500,
         "ppc_competitiveness":1,"cpcapprox":0.52,"indexed_pages":2300000,"KD":35.0,"KO":41,
         "jan":60500,"feb":49500,"mar":49500,"apr":49500,"may":49500,"jun":40500,
         "jul":33100,"aug":33100,"sep":49500,"oct":49500,"nov":60500,"dec":49500,
         "ranking_position":14,"ranking_url":"https:\/\/www.example.es\/zapatillas\/running\/",
         "last_variation":3,"extimated_traffic":12.5,"search_intent":"transactional,commercial"},
        {"keyword":"mejores zapatillas trail","lang":"es","google_ext":".es","localcode":"","search_volume":5400,
         "ppc_competitiveness":0.66,"cpcapprox":0.41,"indexed_pages":870000,"KD":22,"KO":30,
         "jan":4400,"feb":4400,"mar":5400,"apr":5400,"may":6600,"jun":6600,
         "jul":5400,"aug":4400,"sep":5400,"oct":5400,"nov":4400,"dec":4400,
         "ranking_position":18,"ranking_url":"https:\/\/www.example.es\/blog\/trail\/",
         "last_variation":-4,"extimated_traffic":3,"search_intent":"informational"}]}"#,
        ),
        call: |client| client.domains().keywords("example.es", KeywordType::ByPage, 50).db(Db::Es).offset(100).page(2),
        sent: (
            "/api/v2/domains/",
            "api_key=TEST-KEY-123&db=es&action=keywords&domain=example.es&type=bypage&offset=100&limit=50&page=2",
        ),
        units: (2, 20, 49020),
        check: |page| {
            let [first, second] = &page.response[..] else {
                panic!("two keywords expected: {:?}", page.response)
            };
            assert_eq!(first.keyword, "zapatillas running");
            assert_eq!(
                (
                    first.language.as_deref().unwrap_or_default(),
                    first.google_ext.as_deref().unwrap_or_default(),
                    first.local_code.as_deref().unwrap_or_default()
                ),
                ("es", ".es", "")
            );
            assert_eq!(first.search_volume, Some(49500));
            assert_eq!((first.ppc_competitiveness, first.cpc_approx), (Some(1.0), Some(0.52)));
            assert_eq!(
                (first.keyword_difficulty, first.keyword_opportunity),
                (Some(35), Some(41))
            );
            assert_eq!((first.jan, first.jul, first.nov), (Some(60500), Some(33100), Some(60500)));
            assert_eq!(first.ranking_position, Some(14));
            assert_eq!(
                first.ranking_url.as_deref(),
                Some("https://www.example.es/zapatillas/running/")
            );
            assert_eq!(first.last_variation, Some(3));
            assert_eq!(first.estimated_traffic, Some(12.5));
            assert_eq!(
                first.search_intent,
                [
                    SearchIntent::Transactional,
                    SearchIntent::Other("commercial".into())
                ]
            );
            assert_eq!(second.estimated_traffic, Some(3.0));
            assert_eq!(second.last_variation, Some(-4));
            assert_eq!(second.search_intent, [SearchIntent::Informational]);
        },
    }

    domains_keywords_by_position_sends_offset_zero_by_default {
        answer: Server::json(r#"{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":49020,"response":[]}"#),
        call: |client| client.domains().keywords("example.it", KeywordType::ByPosition, 10).position(7),
        sent: (
            "/api/v2/domains/",
            "api_key=TEST-KEY-123&db=it&action=keywords&domain=example.it&type=byposition&offset=0&limit=10&position=7",
        ),
        units: (0, 0, 49020),
        check: |page| {
            assert!(page.response.is_empty());
        },
    }

    domains_keywords_new_entry_with_the_default_offset {
        answer: Server::json(r#"{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":49020,"response":[]}"#),
        call: |client| client.domains().keywords("example.it", KeywordType::NewEntry, 100),
        sent: (
            "/api/v2/domains/",
            "api_key=TEST-KEY-123&db=it&action=keywords&domain=example.it&type=newentry&offset=0&limit=100",
        ),
        units: (0, 0, 49020),
        check: |page| {},
    }

    // Italian wire names; `offset` not set, so 0 is sent.
    domains_ai_keywords {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":20,"UnitsRemaining":49000,"response":[
        {"keyword":"come scegliere scarpe da running","posizione":2,"volumericerca":2900,"visibility_rank":3,
         "menzioni":5,"menzioni_come_primo_risultato":2,"menzioni_come_primo_risultato_perc":40,
         "visibility":71,"traffico":310,"variazione_traffico":45},
        {"keyword":"scarpe running pronazione","posizione":4,"volumericerca":1600,"visibility_rank":7,
         "menzioni":1,"menzioni_come_primo_risultato":0,"menzioni_come_primo_risultato_perc":0,
         "visibility":22,"traffico":48,"variazione_traffico":-12}]}"#,
        ),
        call: |client| client.domains().ai_keywords("example.it", 2),
        sent: (
            "/api/v2/domains/",
            "api_key=TEST-KEY-123&db=it&action=aikeywords&domain=example.it&offset=0&limit=2",
        ),
        units: (2, 20, 49000),
        check: |page| {
            let k = &page.response[0];
            assert_eq!(k.keyword, "come scegliere scarpe da running");
            assert_eq!(
                (k.position, k.search_volume, k.visibility_rank),
                (Some(2), Some(2900), Some(3))
            );
            assert_eq!(
                (
                    k.mentions,
                    k.mentions_as_first_result,
                    k.mentions_as_first_result_percent
                ),
                (Some(5), Some(2), Some(40))
            );
            assert_eq!(
                (k.visibility, k.traffic, k.traffic_variation),
                (Some(71), Some(310), Some(45))
            );
            assert_eq!(page.response[1].traffic_variation, Some(-12));
            assert_eq!(page.response[1].mentions_as_first_result_percent, Some(0));
        },
    }

    // Position-band members named `1a3`, `4a6`, `7a10`.
    domains_competitors {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":120,"UnitsRemaining":48880,"response":[
        {"domain":"example.it","competitor":[
          {"domain":"rivale.it","za":48,"1a3":2210,"4a6":3015,"7a10":3895,
           "page1":9120,"page2":7430,"page3":6650,"page4":5980,"page5":5120,
           "total_keywords":58210,"common_keywords":4312,"competition_level":67,
           "previous_traffic":412000,"extimated_traffic":398500,"current_month_traffic":401200}]},
        {"domain":"rivale.it","competitor":[
          {"domain":"example.it","za":35,"1a3":402,"4a6":611,"7a10":827,
           "page1":1840,"page2":1620,"page3":1500,"page4":1410,"page5":1290,
           "total_keywords":15230,"common_keywords":4312,"competition_level":23,
           "previous_traffic":95100,"extimated_traffic":98200,"current_month_traffic":101300}]}]}"#,
        ),
        call: |client| client.domains().competitors(["example.it", "rivale.it"], 1),
        sent: (
            "/api/v2/domains/",
            "api_key=TEST-KEY-123&db=it&action=competitor&domain=example.it|rivale.it&limit=1",
        ),
        units: (2, 120, 48880),
        check: |page| {
            assert_eq!(page.response[0].domain, "example.it");
            let c = &page.response[0].competitors[0];
            assert_eq!((c.domain.as_str(), c.za), ("rivale.it", Some(48)));
            assert_eq!(
                (c.positions_1_to_3, c.positions_4_to_6, c.positions_7_to_10),
                (Some(2210), Some(3015), Some(3895))
            );
            assert_eq!([c.page_1, c.page_5], [Some(9120), Some(5120)]);
            assert_eq!(
                (c.total_keywords, c.common_keywords, c.competition_level),
                (Some(58210), Some(4312), Some(67))
            );
            assert_eq!(
                (
                    c.previous_traffic,
                    c.estimated_traffic,
                    c.current_month_traffic
                ),
                (Some(412000), Some(398500), Some(401200))
            );
            assert_eq!(page.response[1].domain, "rivale.it");
            assert_eq!(page.response[1].competitors[0].domain, "example.it");
            assert_eq!(page.response[1].competitors[0].competition_level, Some(23));
        },
    }

    // ---------------------------------------------------------------------------
    // urls
    // ---------------------------------------------------------------------------

    // `:`, `/`, `?`, `=` and `&` inside the URL are percent-encoded.
    urls_pza {
        answer: Server::json(
            r#"{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":48870,"response":[{"pza":41}]}"#,
        ),
        call: |client| client.urls().pza("https://www.example.it/scarpe-running/?colore=blu&taglia=42"),
        sent: (
            "/api/v2/urls/",
            "api_key=TEST-KEY-123&db=it&action=urlpza\
         &url=https%3A%2F%2Fwww.example.it%2Fscarpe-running%2F%3Fcolore%3Dblu%26taglia%3D42",
        ),
        units: (1, 10, 48870),
        check: |page| {
            assert_eq!(page.response.len(), 1);
            assert_eq!(page.response[0].pza, Some(41));
        },
    }

    urls_metrics {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":40,"UnitsRemaining":48830,"response":[
        {"url":"https:\/\/www.example.it\/scarpe-running\/","total_keywords":615,
         "position_1to3":21,"position_4to6":38,"position_7to10":57,
         "page1":116,"page2":94,"page3":88,"page4":71,"page5":60,
         "domain_traffic":98200,"extimated_traffic":5230,"potential_traffic":9100,
         "last_domain_traffic_variation":3100,"ads_coverage":0.35,"ads_total":12.75,
         "pza":44,"za":35,"zt":31,"zs":40,"zo":27},
        {"url":"https:\/\/www.example.it\/","total_keywords":1840,
         "position_1to3":98,"position_4to6":120,"position_7to10":141,
         "page1":359,"page2":300,"page3":280,"page4":260,"page5":240,
         "domain_traffic":98200,"extimated_traffic":21000,"potential_traffic":30500,
         "last_domain_traffic_variation":3100,"ads_coverage":0,"ads_total":0,
         "pza":52,"za":35,"zt":31,"zs":40,"zo":27}]}"#,
        ),
        call: |client| client.urls().metrics(["https://www.example.it/scarpe-running/","https://www.example.it/",]),
        sent: (
            "/api/v2/urls/",
            "api_key=TEST-KEY-123&db=it&action=metrics\
         &url=https%3A%2F%2Fwww.example.it%2Fscarpe-running%2F|https%3A%2F%2Fwww.example.it%2F",
        ),
        units: (2, 40, 48830),
        check: |page| {
            let m = &page.response[0];
            assert_eq!(m.url, "https://www.example.it/scarpe-running/");
            assert_eq!(m.total_keywords, Some(615));
            assert_eq!(
                (m.positions_1_to_3, m.positions_4_to_6, m.positions_7_to_10),
                (Some(21), Some(38), Some(57))
            );
            assert_eq!(
                [m.page_1, m.page_2, m.page_3, m.page_4, m.page_5],
                [Some(116), Some(94), Some(88), Some(71), Some(60)]
            );
            assert_eq!(
                (m.domain_traffic, m.estimated_traffic, m.potential_traffic),
                (Some(98200), Some(5230), Some(9100))
            );
            assert_eq!(m.last_domain_traffic_variation, Some(3100));
            assert_eq!((m.ads_coverage, m.ads_total), (Some(0.35), Some(12.75)));
            assert_eq!(
                (m.pza, m.za, m.trust, m.stability, m.opportunity),
                (Some(44), Some(35), Some(31), Some(40), Some(27))
            );
            assert_eq!(page.response[1].url, "https://www.example.it/");
            assert_eq!(
                (page.response[1].ads_coverage, page.response[1].ads_total),
                (Some(0.0), Some(0.0))
            );
        },
    }

    urls_keywords {
        answer: Server::json(
            r#"{"ResultRows":1,"UnitsUsed":10,"UnitsRemaining":48820,"response":[
        {"keyword":"scarpe running uomo","lang":"it","google_ext":".it","localcode":"","search_volume":12100,
         "ppc_competitiveness":0.91,"cpcapprox":0.58,"indexed_pages":640000,"KD":28,"KO":37.0,
         "jan":14800,"feb":12100,"mar":12100,"apr":12100,"may":14800,"jun":12100,
         "jul":9900,"aug":8100,"sep":12100,"oct":12100,"nov":14800,"dec":12100,
         "ranking_position":5,"last_variation":1,"extimated_traffic":603.75,
         "search_intent":"transactional, navigational,"}]}"#,
        ),
        call: |client| client.urls().keywords("https://www.example.it/scarpe-running/", 1),
        sent: (
            "/api/v2/urls/",
            "api_key=TEST-KEY-123&db=it&action=keywords&url=https%3A%2F%2Fwww.example.it%2Fscarpe-running%2F&limit=1",
        ),
        units: (1, 10, 48820),
        check: |page| {
            let k = &page.response[0];
            assert_eq!(k.keyword, "scarpe running uomo");
            assert_eq!((k.search_volume, k.indexed_pages), (Some(12100), Some(640000)));
            assert_eq!((k.keyword_difficulty, k.keyword_opportunity), (Some(28), Some(37)));
            assert_eq!((k.ppc_competitiveness, k.cpc_approx), (Some(0.91), Some(0.58)));
            assert_eq!((k.may, k.aug), (Some(14800), Some(8100)));
            assert_eq!((k.ranking_position, k.last_variation), (Some(5), Some(1)));
            assert_eq!(k.estimated_traffic, Some(603.75));
            assert_eq!(
                k.search_intent,
                [SearchIntent::Transactional, SearchIntent::Navigational]
            );
        },
    }

    urls_intent_gap {
        answer: Server::json(
            r#"{"ResultRows":2,"UnitsUsed":80,"UnitsRemaining":48740,"response":[
        {"keyword":"scarpe running economiche","search_volume":6600,"ranking_position":23},
        {"keyword":"migliori scarpe running 2024","search_volume":4400,"ranking_position":31}]}"#,
        ),
        call: |client| client.urls().intent_gap("https://www.example.it/scarpe-running/", 2),
        sent: (
            "/api/v2/urls/",
            "api_key=TEST-KEY-123&db=it&action=intentgap&url=https%3A%2F%2Fwww.example.it%2Fscarpe-running%2F&limit=2",
        ),
        units: (2, 80, 48740),
        check: |page| {
            let got: Vec<(&str, Option<i64>, Option<i64>)> = page
                .response
                .iter()
                .map(|g| (g.keyword.as_str(), g.search_volume, g.ranking_position))
                .collect();
            assert_eq!(
                got,
                [
                    ("scarpe running economiche", Some(6600), Some(23)),
                    ("migliori scarpe running 2024", Some(4400), Some(31))
                ]
            );
        },
    }

    // ---------------------------------------------------------------------------
    // keywords
    // ---------------------------------------------------------------------------

    // Spaces, an accented letter and `&` percent-encoded, values joined by a
    // literal `|`; `has_ai_overview` "true", "false" and absent; an unknown intent.
    keywords_metrics {
        answer: Server::json(
            r#"{"ResultRows":3,"UnitsUsed":30,"UnitsRemaining":48710,"response":[
        {"keyword":"scarpe running","lang":"it","google_ext":".it","localcode":"","search_volume":33100,
         "ppc_competitiveness":0.87,"cpcapprox":0.64,"indexed_pages":1520000,"KD":35.0,"KO":48,
         "jan":40500,"feb":33100,"mar":33100,"apr":33100,"may":40500,"jun":33100,
         "jul":27100,"aug":22200,"sep":33100,"oct":33100,"nov":40500,"dec":33100,
         "search_intent":"transactional,commercial","has_ai_overview":"false"},
        {"keyword":"caffè & latte","lang":"it","google_ext":".it","localcode":"","search_volume":2400,
         "ppc_competitiveness":0.12,"cpcapprox":0.09,"indexed_pages":310000,"KD":18,"KO":55,
         "jan":2900,"feb":2400,"mar":2400,"apr":1900,"may":1600,"jun":1300,
         "jul":1000,"aug":880,"sep":1600,"oct":2400,"nov":2900,"dec":3600,
         "search_intent":"informational","has_ai_overview":"true"},
        {"keyword":"mutuo","lang":"it","google_ext":".it","localcode":"","search_volume":90500,
         "ppc_competitiveness":1,"cpcapprox":4.37,"indexed_pages":21000000,"KD":71,"KO":12,
         "jan":110000,"feb":90500,"mar":90500,"apr":90500,"may":90500,"jun":74000,
         "jul":74000,"aug":60500,"sep":90500,"oct":90500,"nov":90500,"dec":74000,
         "search_intent":"informational,transactional","trend_score":7}]}"#,
        ),
        call: |client| client.keywords().metrics(["scarpe running", "caffè & latte", "mutuo"]),
        sent: (
            "/api/v2/keywords/",
            "api_key=TEST-KEY-123&db=it&action=metrics&keyword=scarpe%20running|caff%C3%A8%20%26%20latte|mutuo",
        ),
        units: (3, 30, 48710),
        check: |page| {
            let [shoes, coffee, mortgage] = &page.response[..] else {
                panic!("three keywords expected: {:?}", page.response)
            };
            assert_eq!(shoes.keyword, "scarpe running");
            assert_eq!(shoes.keyword_difficulty, Some(35));
            assert_eq!((shoes.ppc_competitiveness, shoes.cpc_approx), (Some(0.87), Some(0.64)));
            assert_eq!(
                shoes.search_intent,
                [
                    SearchIntent::Transactional,
                    SearchIntent::Other("commercial".into())
                ]
            );
            assert_eq!(shoes.has_ai_overview, Some(false));

            assert_eq!(coffee.keyword, "caffè & latte");
            assert_eq!((coffee.search_volume, coffee.dec), (Some(2400), Some(3600)));
            assert_eq!(coffee.search_intent, [SearchIntent::Informational]);
            assert_eq!(coffee.has_ai_overview, Some(true));

            assert_eq!(mortgage.keyword, "mutuo");
            assert_eq!(
                (mortgage.search_volume, mortgage.jan, mortgage.indexed_pages),
                (Some(90500), Some(110000), Some(21000000))
            );
            assert_eq!(mortgage.cpc_approx, Some(4.37));
            assert_eq!(
                mortgage.search_intent,
                [SearchIntent::Informational, SearchIntent::Transactional]
            );
            assert_eq!(mortgage.has_ai_overview, None);
        },
    }

    // Keys out of numeric order ("10" after "9" in the text, "2" last), `&amp;`
    // in URLs, `google_ext` and `localcode` set, body labelled text/html.
    keywords_serp_served_as_text_html {
        answer: Server::start(
            200,
            "text/html",
            r#"{"ResultRows":2,"UnitsUsed":200,"UnitsRemaining":48510,"response":{
        "scarpe running":{"1":"https:\/\/www.runnersworld.com\/it\/scarpe\/","9":"https:\/\/www.example.it\/scarpe-running\/",
          "10":"https:\/\/www.amazon.it\/s?k=scarpe+running&amp;rh=n%3A4635183031","3":"https:\/\/www.decathlon.it\/browse\/c0-sport\/c1-running\/",
          "2":"https:\/\/www.nike.com\/it\/w\/running-scarpe-37v7jzy7ok"},
        "mutuo prima casa":{"2":"https:\/\/www.mutuionline.it\/mutui-prima-casa\/","1":"https:\/\/www.bancaditalia.it\/?tema=mutui&amp;lang=it"}}}"#,
        ),
        call: |client| client.keywords().serp(["scarpe running", "mutuo prima casa"]).google_ext(".it").local_code("Milano"),
        sent: (
            "/api/v2/keywords/",
            "api_key=TEST-KEY-123&db=it&action=serp&keyword=scarpe%20running|mutuo%20prima%20casa&google_ext=.it&localcode=Milano",
        ),
        units: (2, 200, 48510),
        check: |page| {
            assert_eq!(page.response.len(), 2);

            let shoes = &page.response["scarpe running"];
            let positions: Vec<u32> = shoes.iter().map(|r| r.position).collect();
            assert_eq!(positions, [1, 2, 3, 9, 10]);
            assert_eq!(shoes.at(1), Some("https://www.runnersworld.com/it/scarpe/"));
            assert_eq!(shoes.at(9), Some("https://www.example.it/scarpe-running/"));
            assert_eq!(
                shoes.at(10),
                Some("https://www.amazon.it/s?k=scarpe+running&rh=n%3A4635183031")
            );
            assert_eq!(shoes.at(4), None);

            let mortgage = &page.response["mutuo prima casa"];
            assert_eq!(mortgage.len(), 2);
            assert_eq!(mortgage.results[0].position, 1);
            assert_eq!(
                mortgage.results[0].url,
                "https://www.bancaditalia.it/?tema=mutui&lang=it"
            );
            assert_eq!(
                mortgage.results[1].url,
                "https://www.mutuionline.it/mutui-prima-casa/"
            );
        },
    }

    keywords_serp_history {
        answer: Server::json(
            r#"{"ResultRows":1,"UnitsUsed":120,"UnitsRemaining":48390,"response":{
        "10":"https:\/\/www.giallozafferano.it\/ricette-cat\/bevande\/","1":"https:\/\/it.wikipedia.org\/wiki\/Caff%C3%A8latte",
        "2":"https:\/\/www.cucchiaio.it\/ricetta\/caffelatte\/?utm_source=serp&amp;ref=1","9":"https:\/\/www.example.it\/caffe-latte\/"}}"#,
        ),
        call: |client| client.keywords().serp_history("caffè & latte", date(2024, 1, 15)),
        sent: (
            "/api/v2/keywords/",
            "api_key=TEST-KEY-123&db=it&action=serphistory&keyword=caff%C3%A8%20%26%20latte&date=2024-01-15",
        ),
        units: (1, 120, 48390),
        check: |page| {
            let got: Vec<(u32, &str)> = page
                .response
                .iter()
                .map(|r| (r.position, r.url.as_str()))
                .collect();
            assert_eq!(
                got,
                [
                    (1, "https://it.wikipedia.org/wiki/Caff%C3%A8latte"),
                    (
                        2,
                        "https://www.cucchiaio.it/ricetta/caffelatte/?utm_source=serp&ref=1"
                    ),
                    (9, "https://www.example.it/caffe-latte/"),
                    (10, "https://www.giallozafferano.it/ricette-cat/bevande/"),
                ]
            );
        },
    }
}

// ---------------------------------------------------------------------------
// refused before sending
// ---------------------------------------------------------------------------

/// A body no refused call should ever reach.
const UNREACHED: &str = r#"{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":0,"response":[]}"#;

/// Assert that a refusal names the operation, the parameter, the value given and
/// the limit broken, both in its fields and in its message.
#[track_caller]
fn assert_refusal(err: &InvalidInput, operation: &str, param: &str, value: &str, limit: &str) {
    assert_eq!(
        (
            err.operation.as_str(),
            err.param.as_str(),
            err.value.as_str()
        ),
        (operation, param, value)
    );
    assert!(
        err.problem.contains(limit),
        "`{}` does not say `{limit}`",
        err.problem
    );
    let message = err.to_string();
    assert!(
        message.starts_with(&format!("{operation}: parameter `{param}` = {value}: ")),
        "{message}"
    );
}

/// `count` numbered values: `name 1`, `name 2`, ...
fn numbered(count: usize, name: impl Fn(usize) -> String) -> Vec<String> {
    (1..=count).map(name).collect()
}

/// A refused call per case: the call must send nothing, and its refusal names
/// the operation, the parameter, the value given and the limit broken
/// ([`assert_refusal`]). Each case is its own test, named after it.
macro_rules! refusal_cases {
    ($(
        $name:ident {
            call: |$client:ident| $call:expr,
            refused: ($operation:expr, $param:expr, $value:expr, $limit:expr $(,)?) $(,)?
        }
    )*) => {$(
        #[tokio::test]
        async fn $name() {
            let server = Server::json(UNREACHED).await;
            let $client = server.client();
            let err = server.refused($call.send()).await;
            assert_refusal(&err, $operation, $param, &$value, $limit);
        }
    )*};
}

refusal_cases! {
    refuses_101_keywords_for_keywords_metrics {
        call: |client| client.keywords().metrics(numbered(101, |i| format!("keyword {i}"))),
        refused: (
            "keywords metrics",
            "keyword",
            numbered(101, |i| format!("keyword {i}")).join("|"),
            "101 values given, at most 100 allowed (stated in the reference)",
        ),
    }

    refuses_11_domains_for_niches {
        call: |client| client.domains().niches(numbered(11, |i| format!("site{i}.it")), 5),
        refused: (
            "domains niches",
            "domain",
            numbered(11, |i| format!("site{i}.it")).join("|"),
            "11 values given, at most 10 allowed (stated in the reference)",
        ),
    }

    refuses_page_6 {
        call: |client| client.domains().keywords("example.it", KeywordType::ByPage, 100).page(6),
        refused: (
            "domains keywords",
            "page",
            "6",
            "above the maximum 5 (stated in the reference)",
        ),
    }

    refuses_position_0 {
        call: |client| {
            client.domains().keywords("example.it", KeywordType::ByPosition, 100).position(0)
        },
        refused: (
            "domains keywords",
            "position",
            "0",
            "below the minimum 1 (stated in the reference)",
        ),
    }

    refuses_by_page_without_page {
        call: |client| client.domains().keywords("example.it", KeywordType::ByPage, 100),
        refused: ("domains keywords", "page", "(none)", "required when type=bypage"),
    }

    refuses_new_entry_with_offset_5 {
        call: |client| client.domains().keywords("example.it", KeywordType::NewEntry, 100).offset(5),
        refused: ("domains keywords", "offset", "5", "must be 0 when type=newentry"),
    }

    refuses_a_pipe_inside_a_keyword {
        call: |client| client.keywords().metrics(["scarpe running", "nike|adidas"]),
        refused: ("keywords metrics", "keyword", "nike|adidas", "contains `|`"),
    }

    refuses_an_empty_domain_list {
        call: |client| client.domains().metrics(Vec::<String>::new()),
        refused: (
            "domains metrics",
            "domain",
            "(empty list)",
            "0 values given, at least 1 required",
        ),
    }
}

// ---------------------------------------------------------------------------
// bodies of the wrong shape, service errors
// ---------------------------------------------------------------------------

#[tokio::test]
async fn no_data_found_is_an_empty_result_for_a_list_operation() {
    let server = Server::start(
        400,
        "text/html",
        r#"{"status":400,"message":"No data found!"}"#,
    )
    .await;

    let page = server
        .client()
        .domains()
        .authority(["dominio-inesistente.it"])
        .send()
        .await
        .unwrap();

    server.assert_sent(
        "/api/v2/domains/",
        "api_key=TEST-KEY-123&db=it&action=authority&domain=dominio-inesistente.it",
    );
    assert!(page.no_data);
    assert!(page.response.is_empty());
    assert_eq!((page.result_rows, page.units_used), (0, 0));
}

#[tokio::test]
async fn no_data_found_is_a_no_data_error_for_a_single_object_operation() {
    let server = Server::start(
        400,
        "application/json",
        r#"{"status":400,"message":"No data found!"}"#,
    )
    .await;

    let err = server
        .client()
        .projects()
        .overview(404)
        .send()
        .await
        .unwrap_err();

    match err.kind() {
        ErrorKind::NoData => assert_eq!(err.operation(), Some("projects overview")),
        other => panic!("expected ErrorKind::NoData, got {other:?}"),
    }
    assert!(!err.is_refused());
}

#[tokio::test]
async fn serp_with_no_keyword_results_may_arrive_as_an_empty_array() {
    // PHP encodes an empty map as `[]`.
    let server =
        Server::json(r#"{"ResultRows":0,"UnitsUsed":0,"UnitsRemaining":5000,"response":[]}"#).await;

    let page = server
        .client()
        .keywords()
        .serp(["zzqx"])
        .send()
        .await
        .unwrap();

    assert!(page.response.is_empty());
    assert_eq!(page.units_remaining, Some(5000));
}

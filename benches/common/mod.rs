//! Shared by the bench targets: deterministic bodies shaped like the service's, and
//! where to put what the benches write.
//!
//! The bodies are generated from a fixed seed, so every run (and the Python
//! comparison, `benches/compare.py`, which reads the files written by
//! [`write_bench_data`]) sees the same bytes. They are written as PHP's
//! `json_encode` writes them: no whitespace, every `/` escaped as `\/`, some
//! non-ASCII letters as `\u00e8` escapes and some raw, `&amp;` inside URL query
//! strings, decimals, integral floats (`35.0`) for about one integer in ten,
//! boolean words (`"true"`, `"1"`, ...) where the record has them, and comma lists.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::PathBuf;

/// Row counts of the domain-keyword pages measured.
pub const SIZES: [usize; 3] = [100, 10_000, 100_000];

/// SplitMix64: small, fast and the same on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// True about once in `n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// Words of the keywords; those with accents are written raw or as `\u` escapes.
const WORDS: &[&str] = &[
    "scarpe",
    "running",
    "mutuo",
    "casa",
    "ricetta",
    "pasta",
    "offerte",
    "migliori",
    "prezzo",
    "vendita",
    "online",
    "come",
    "fare",
    "dove",
    "comprare",
    "roma",
    "milano",
    "napoli",
    "torino",
    "bici",
    "elettrica",
    "lavatrice",
    "smartphone",
    "assicurazione",
    "auto",
    "viaggi",
    "hotel",
    "mare",
    "montagna",
    "pizza",
    "forno",
    "legna",
    "giardino",
    "caffè",
    "città",
    "perché",
    "più",
    "così",
    "qualità",
    "noleggio",
    "usato",
    "2025",
    "recensioni",
    "economico",
];

const PATHS: &[&str] = &[
    "blog",
    "offerte",
    "prodotti",
    "categoria",
    "guide",
    "news",
    "shop",
    "ricette",
    "scarpe",
    "sport",
    "casa",
    "tech",
];

const INTENTS: &[&str] = &[
    "informational",
    "transactional",
    "navigational",
    "commercial",
    "informational,commercial",
    "transactional,commercial",
    "navigational,informational",
    "",
];

/// A JSON string as PHP writes it: `/` as `\/`, `"` and `\` escaped, and (when
/// `escape_unicode`) every non-ASCII character as `\uXXXX`.
fn push_str(out: &mut String, text: &str, escape_unicode: bool) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' => out.push_str("\\/"),
            c if c.is_ascii() => out.push(c),
            c if escape_unicode => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// An integer, written as an integral float (`35.0`) about one time in ten.
fn push_int(out: &mut String, value: i64, rng: &mut Rng) {
    if rng.one_in(10) {
        let _ = write!(out, "{value}.0");
    } else {
        let _ = write!(out, "{value}");
    }
}

/// A decimal with at most two places, written the shortest way (`1`, `0.5`, `0.52`).
fn push_decimal(out: &mut String, cents: i64) {
    let value = cents as f64 / 100.0;
    let _ = write!(out, "{value}");
}

fn keyword(rng: &mut Rng) -> String {
    let n = rng.range(1, 4);
    (0..n)
        .map(|_| rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

fn url(rng: &mut Rng, keyword: &str) -> String {
    let domain = ["www.example.it", "shop.rivale.it", "blog.esempio.com"][rng.below(3) as usize];
    let slug: String = keyword
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let mut url = format!("https://{domain}/{}/{slug}/", rng.pick(PATHS));
    if rng.one_in(4) {
        let _ = write!(
            url,
            "?id={}&amp;ref={}",
            rng.range(1, 99_999),
            rng.pick(PATHS)
        );
    }
    url
}

/// The members the domain-keyword and keyword-metrics rows share, up to `dec`.
fn push_keyword_common(out: &mut String, rng: &mut Rng, keyword: &str) {
    out.push_str("\"keyword\":");
    push_str(out, keyword, rng.one_in(2));
    out.push_str(",\"lang\":\"it\",\"google_ext\":\".it\",\"localcode\":");
    push_str(
        out,
        ["", "", "", "", "Milano", "Roma"][rng.below(6) as usize],
        false,
    );
    let volume = [
        10, 20, 30, 50, 90, 140, 260, 480, 880, 1600, 2900, 5400, 9900, 49_500,
    ][rng.below(14) as usize];
    out.push_str(",\"search_volume\":");
    push_int(out, volume, rng);
    out.push_str(",\"ppc_competitiveness\":");
    push_decimal(out, rng.range(0, 100));
    out.push_str(",\"cpcapprox\":");
    push_decimal(out, rng.range(5, 500));
    out.push_str(",\"indexed_pages\":");
    push_int(out, rng.range(1_000, 250_000_000), rng);
    out.push_str(",\"KD\":");
    push_int(out, rng.range(0, 100), rng);
    out.push_str(",\"KO\":");
    push_int(out, rng.range(0, 100), rng);
    for month in [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ] {
        let _ = write!(out, ",\"{month}\":");
        let v = volume * rng.range(50, 150) / 100;
        push_int(out, v, rng);
    }
}

/// `{"ResultRows":..,"UnitsUsed":..,"UnitsRemaining":..,"response":[` .. `]}`.
fn envelope(rows: usize, per_row: usize, unit: i64, row: impl FnMut(&mut String)) -> Vec<u8> {
    let mut row = row;
    let mut out = String::with_capacity(rows * per_row + 128);
    let _ = write!(
        out,
        "{{\"ResultRows\":{rows},\"UnitsUsed\":{},\"UnitsRemaining\":{},\"response\":[",
        rows as i64 * unit,
        9_000_000 - rows as i64 * unit
    );
    for i in 0..rows {
        if i > 0 {
            out.push(',');
        }
        row(&mut out);
    }
    out.push_str("]}");
    out.into_bytes()
}

/// A page of the domains `keywords` operation (record `DomainKeyword`) with `rows` rows.
pub fn domain_keywords(rows: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x5E0_2003 ^ rows as u64);
    envelope(rows, 560, 10, |out| {
        let kw = keyword(&mut rng);
        out.push('{');
        push_keyword_common(out, &mut rng, &kw);
        out.push_str(",\"ranking_position\":");
        push_int(out, rng.range(1, 50), &mut rng);
        out.push_str(",\"ranking_url\":");
        let u = url(&mut rng, &kw);
        push_str(out, &u, false);
        out.push_str(",\"last_variation\":");
        push_int(out, rng.range(-20, 20), &mut rng);
        out.push_str(",\"extimated_traffic\":");
        push_decimal(out, rng.range(0, 2_000_000));
        out.push_str(",\"search_intent\":");
        if rng.one_in(20) {
            out.push_str("null");
        } else {
            push_str(out, rng.pick(INTENTS), false);
        }
        out.push('}');
    })
}

/// `body` (a page of rows that each begin with `"keyword"`) with three members
/// the spec does not know at the start of every row: a number, a text and an
/// array, as a service that moved on from its spec might send them.
pub fn with_unknown_members(body: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(body).expect("a generated body is UTF-8");
    text.replace(
        "{\"keyword\":",
        "{\"x_rank_score\":12.5,\"x_label\":\"brand new\",\"x_flags\":[1,2,3],\"keyword\":",
    )
    .into_bytes()
}

/// A `keywords` `metrics` answer (record `KeywordMetrics`) for `rows` keywords.
pub fn keyword_metrics(rows: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x5E0_2004 ^ rows as u64);
    envelope(rows, 460, 10, |out| {
        let kw = keyword(&mut rng);
        out.push('{');
        push_keyword_common(out, &mut rng, &kw);
        out.push_str(",\"search_intent\":");
        push_str(out, rng.pick(INTENTS), false);
        // A boolean word, present on some rows only.
        if !rng.one_in(3) {
            out.push_str(",\"has_ai_overview\":");
            push_str(
                out,
                ["true", "false", "1", "0", ""][rng.below(5) as usize],
                false,
            );
        }
        out.push('}');
    })
}

/// The keywords of a 100-keyword `metrics` request.
pub fn metrics_keywords(n: usize) -> Vec<String> {
    let mut rng = Rng::new(0x5E0_2005);
    (0..n)
        .map(|i| format!("{} {i}", keyword(&mut rng)))
        .collect()
}

/// The cargo target directory this bench binary was built in
/// (`<target>/release/deps/<bench>` → `<target>`).
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the bench binary's path");
    exe.ancestors()
        .nth(3)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"))
}

/// Write the generated bodies to `<target>/bench-data/` for `benches/compare.py`.
pub fn write_bench_data() -> PathBuf {
    let dir = target_dir().join("bench-data");
    std::fs::create_dir_all(&dir).expect("create bench-data");
    for rows in SIZES {
        let path = dir.join(format!("domain_keywords_{rows}.json"));
        std::fs::write(&path, domain_keywords(rows)).expect("write bench data");
    }
    std::fs::write(dir.join("keyword_metrics_100.json"), keyword_metrics(100))
        .expect("write bench data");
    dir
}

/// Bytes per second as MB/s (10^6 bytes).
pub fn mb_per_s(bytes: usize, ns: f64) -> f64 {
    bytes as f64 / ns * 1e3
}

pub mod server {
    //! A loopback stand-in serving prebuilt pages, on a thread of its own.

    use std::net::{Ipv4Addr, SocketAddr};
    use std::sync::Arc;

    use axum::body::Bytes;
    use axum::extract::{RawQuery, State};
    use axum::http::{StatusCode, header};
    use axum::response::{IntoResponse, Response};

    type Pages = Arc<Vec<(usize, Bytes)>>;

    /// The page whose row count is the request's `limit`, with the service's
    /// content type.
    async fn page(State(pages): State<Pages>, RawQuery(query): RawQuery) -> Response {
        let limit = query
            .as_deref()
            .unwrap_or("")
            .split('&')
            .find_map(|pair| pair.strip_prefix("limit="))
            .and_then(|n| n.parse::<usize>().ok());
        match pages.iter().find(|(rows, _)| Some(*rows) == limit) {
            Some((_, body)) => (
                [(header::CONTENT_TYPE, "text/html; charset=UTF-8")],
                body.clone(),
            )
                .into_response(),
            None => (StatusCode::NOT_FOUND, "no such page").into_response(),
        }
    }

    /// A server on 127.0.0.1; it stops when dropped.
    pub struct Server {
        addr: SocketAddr,
        stop: Option<tokio::sync::oneshot::Sender<()>>,
        thread: Option<std::thread::JoinHandle<()>>,
    }

    impl Server {
        /// Serve `pages` (row count, body) at `/api/v2/domains/`, chosen by `limit`.
        pub fn start(pages: Vec<(usize, Vec<u8>)>) -> Server {
            let pages: Pages = Arc::new(
                pages
                    .into_iter()
                    .map(|(rows, body)| (rows, Bytes::from(body)))
                    .collect(),
            );
            let std_listener =
                std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("bind loopback");
            std_listener.set_nonblocking(true).expect("nonblocking");
            let addr = std_listener.local_addr().expect("address");
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let thread = std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime");
                runtime.block_on(async move {
                    let listener =
                        tokio::net::TcpListener::from_std(std_listener).expect("listener");
                    let app = axum::Router::new()
                        .route("/api/v2/domains/", axum::routing::get(page))
                        .with_state(pages);
                    axum::serve(listener, app)
                        .with_graceful_shutdown(async move {
                            let _ = stopped.await;
                        })
                        .await
                        .expect("serve");
                });
            });
            Server {
                addr,
                stop: Some(stop),
                thread: Some(thread),
            }
        }

        pub fn base_url(&self) -> String {
            format!("http://{}", self.addr)
        }
    }

    impl Drop for Server {
        fn drop(&mut self) {
            if let Some(stop) = self.stop.take() {
                let _ = stop.send(());
            }
            if let Some(thread) = self.thread.take() {
                let _ = thread.join();
            }
        }
    }
}

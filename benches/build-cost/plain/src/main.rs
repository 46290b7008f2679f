//! One `keywords metrics` call, hand-written: the baseline of the build-cost bench.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
struct Envelope {
    #[serde(rename = "UnitsUsed")]
    units_used: i64,
    #[serde(rename = "UnitsRemaining")]
    units_remaining: i64,
    response: Vec<KeywordMetrics>,
}

#[derive(Debug, Deserialize)]
struct KeywordMetrics {
    keyword: String,
    search_volume: i64,
    #[serde(rename = "cpcapprox")]
    cpc_approx: f64,
    #[serde(rename = "KD")]
    keyword_difficulty: i64,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let key = std::env::var("SEOZOOM_API_KEY")?;
    let base = std::env::var("SEOZOOM_BASE_URL").unwrap_or("https://apiv2.seozoom.com".into());
    let body = reqwest::Client::new()
        .get(format!("{base}/api/v2/keywords/"))
        .query(&[("action", "metrics"), ("keyword", "scarpe running"), ("db", "it"), ("api_key", &key)])
        .send()
        .await?
        .text()
        .await?;
    let answer: Envelope = serde_json::from_str(&body)?;
    for row in &answer.response {
        println!("{} {} {} {}", row.keyword, row.search_volume, row.cpc_approx, row.keyword_difficulty);
    }
    println!("{} units used, {} left", answer.units_used, answer.units_remaining);
    Ok(())
}

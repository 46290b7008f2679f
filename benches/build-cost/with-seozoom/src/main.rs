//! One `keywords metrics` call through seozoom: the measured side of the build-cost bench.

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), seozoom::Error> {
    let client = seozoom::Client::builder().build()?;
    let answer = client.keywords().metrics(["scarpe running"]).send().await?;
    for row in &answer.response {
        // The metrics are `Option`s: the service leaves some out of a row.
        println!("{} {:?} {:?} {:?}", row.keyword, row.search_volume, row.cpc_approx, row.keyword_difficulty);
    }
    println!("{} units used, {:?} left", answer.units_used, answer.units_remaining);
    Ok(())
}

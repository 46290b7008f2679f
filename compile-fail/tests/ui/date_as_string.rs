// `date` is a `seozoom::types::Date`: a `YYYY-MM-DD` string must not compile.
use seozoom::Client;

fn main() {
    let client = Client::new("test-key").unwrap();
    let _ = client
        .keywords()
        .serp_history("scarpe running", "2024-05-01");
}

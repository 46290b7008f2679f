// `date` is a required parameter of `keywords serphistory`: leaving it out must not compile.
use seozoom::Client;

fn main() {
    let client = Client::new("test-key").unwrap();
    let _ = client.keywords().serp_history("scarpe running");
}

// `limit` is an integer: a string must not compile.
use seozoom::Client;

fn main() {
    let client = Client::new("test-key").unwrap();
    let _ = client.domains().best_pages("example.it", "10");
}

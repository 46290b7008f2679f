// `domain` is text: an integer must not compile.
use seozoom::Client;

fn main() {
    let client = Client::new("test-key").unwrap();
    let _ = client.domains().best_pages(42, 10);
}

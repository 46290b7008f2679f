// `domains bestpages` takes exactly one domain: a list must not compile.
use seozoom::Client;

fn main() {
    let client = Client::new("test-key").unwrap();
    let _ = client.domains().best_pages(vec!["a.it", "b.it"], 10);
}

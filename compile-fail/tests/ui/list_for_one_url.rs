// `urls urlpza` takes exactly one URL: a list must not compile.
use seozoom::Client;

fn main() {
    let client = Client::new("test-key").unwrap();
    let _ = client.urls().pza(["https://a.it/", "https://b.it/"]);
}

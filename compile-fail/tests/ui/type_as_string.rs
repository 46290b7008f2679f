// `type` is the `KeywordType` enum: its wire text as a string must not compile.
use seozoom::Client;

fn main() {
    let client = Client::new("test-key").unwrap();
    let _ = client.domains().keywords("example.it", "best", 100);
}

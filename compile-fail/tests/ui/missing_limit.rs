// `limit` is a required parameter of `domains keywords`: leaving it out must not compile.
use seozoom::{Client, types::KeywordType};

fn main() {
    let client = Client::new("test-key").unwrap();
    let _ = client.domains().keywords("example.it", KeywordType::Best);
}

//! `--sandbox` is one origin wherever its sandbox listens:
//! two sessions, each starting a sandbox on a port of its own, share one
//! cache on one store, and the balance goes on from one to the next instead
//! of rising after a spend.

use serde_json::json;

use crate::support::Mcp;

#[test]
fn two_sandbox_sessions_share_the_cache_and_one_balance() {
    let dir =
        std::env::temp_dir().join(format!("seozoom-mcp-sandbox-origin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch dir");
    let store = format!("sqlite:{}", dir.join("store.sqlite3").display());
    let args = ["--sandbox", "--store", store.as_str(), "mcp"];
    let call = json!({"keyword": ["scarpe running"]});

    let mut first = Mcp::start(&args);
    let paid = first.structured("keywords_metrics", call.clone());
    assert_eq!(paid["from_cache"], false, "{paid}");
    let after_first = paid["UnitsRemaining"].as_i64().expect("a balance");
    first.finish();

    let mut second = Mcp::start(&args);
    let cached = second.structured("keywords_metrics", call);
    assert_eq!(cached["from_cache"], true, "{cached}");
    assert_eq!(cached["UnitsUsed"], 0, "{cached}");
    let fresh = second.structured("keywords_metrics", json!({"keyword": ["mutuo casa"]}));
    let spent = fresh["UnitsUsed"].as_i64().expect("units");
    assert!(spent > 0, "{fresh}");
    assert_eq!(
        fresh["UnitsRemaining"],
        after_first - spent,
        "the balance goes on from the first session's: {fresh}"
    );
    second.finish();
    std::fs::remove_dir_all(&dir).ok();
}

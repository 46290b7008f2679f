//! Which `Origin` an HTTP request to the endpoint may come from: a page
//! served from this machine (`localhost`, `127.0.0.1`, `[::1]`, any port and
//! scheme), or no page at all (no `Origin` header: an MCP client that is not a
//! browser). Any other origin is a web page elsewhere reaching the loopback
//! endpoint through the user's browser, which the transport says to refuse
//! with 403 (DNS rebinding); the endpoint has no authentication.

use axum::http::Uri;

/// Whether a request with this `Origin` header value may be served.
pub fn is_allowed(origin: &str) -> bool {
    let Ok(uri) = origin.trim().parse::<Uri>() else {
        return false;
    };
    let scheme_ok = matches!(uri.scheme_str(), Some("http" | "https"));
    let host = uri.host().unwrap_or_default();
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    scheme_ok && loopback
}

#[cfg(test)]
mod tests {
    use super::is_allowed;

    #[test]
    fn only_this_machine_is_an_allowed_origin() {
        for local in [
            "http://localhost",
            "http://localhost:6274",
            "https://LOCALHOST:8443",
            "http://127.0.0.1:3000",
            "http://127.8.9.10",
            "http://[::1]:8080",
        ] {
            assert!(is_allowed(local), "{local}");
        }
        for foreign in [
            "http://evil.example",
            "https://evil.example:443",
            "http://localhost.evil.example",
            "http://127.0.0.1.evil.example",
            "null",
            "file://",
            "",
            "http://[::2]",
        ] {
            assert!(!is_allowed(foreign), "{foreign}");
        }
    }
}

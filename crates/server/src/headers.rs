//! The security headers every answer carries: pages, scripts, JSON, errors, the answers
//! the connection layer writes itself (see docs/http-api.md, "Security headers").

use axum::http::{HeaderName, HeaderValue};
use axum::response::Response;

/// The content security policy of the pages: scripts, styles and sockets only from this
/// server, no inline script or event handler, no framing. (Styles set from script through
/// `element.style` are allowed under it; `style="…"` in markup is not, and the pages
/// write none.)
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; \
     frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

/// Every header and its value, in the order they are set.
pub const SECURITY_HEADERS: &[(&str, &str)] = &[
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
];

/// Sets [`SECURITY_HEADERS`] on `response` (replacing any of the same name).
pub fn secure(response: &mut Response) {
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
}

/// The middleware that sets them on every answer of the router under it.
pub async fn security_headers(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let mut response = next.run(request).await;
    secure(&mut response);
    response
}

/// The headers as lines of a raw HTTP/1.1 answer (`name: value\r\n` each), for the
/// answers written to the socket directly.
pub fn raw_lines() -> String {
    SECURITY_HEADERS
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect()
}

//! The page's files, compiled into the server from `tools/web/static/`:
//! nothing is fetched from elsewhere, at build time or at run time.

/// A file of the page.
pub struct Asset {
    /// Its path on the server.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its text.
    pub body: &'static str,
}

/// Every file the page loads.
pub const ASSETS: [Asset; 4] = [
    Asset { path: "/", content_type: "text/html; charset=utf-8", body: include_str!("../static/index.html") },
    Asset { path: "/style.css", content_type: "text/css; charset=utf-8", body: include_str!("../static/style.css") },
    Asset {
        path: "/board.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../static/board.js"),
    },
    Asset { path: "/app.js", content_type: "text/javascript; charset=utf-8", body: include_str!("../static/app.js") },
];

/// The file served at `path`.
pub fn asset(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}

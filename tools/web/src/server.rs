//! The HTTP server: the page's files at their paths, and the WebSocket at
//! `/ws`, one [`crate::session`] per connection. At most
//! [`MAX_SESSIONS`] pages are served at once (each runs two engine
//! processes); another gets an error and is closed.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::assets::asset;
use crate::messages::ServerMsg;
use crate::session::{Config, serve_socket};

/// Pages served at once.
pub const MAX_SESSIONS: usize = 8;

/// The largest message a page may send (a record file to load).
pub const MAX_MESSAGE: usize = 4 << 20;

#[derive(Clone)]
struct AppState {
    config: Arc<Config>,
    sessions: Arc<Semaphore>,
}

/// Serves the board on `listener` until the process ends.
///
/// # Errors
/// The error of the listener.
pub async fn serve(listener: TcpListener, config: Config) -> std::io::Result<()> {
    let state = AppState { config: Arc::new(config), sessions: Arc::new(Semaphore::new(MAX_SESSIONS)) };
    let app = Router::new().route("/ws", get(socket)).fallback(get(file)).with_state(state);
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await
}

async fn file(uri: Uri) -> Response {
    match asset(uri.path()) {
        Some(a) => {
            ([(header::CONTENT_TYPE, a.content_type), (header::CACHE_CONTROL, "no-cache")], a.body).into_response()
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// Whether a WebSocket request comes from a page of this server: a
/// browser sends the page's `Origin`, which must name the host the request
/// was sent to (another site's page may not drive the engines here).
/// Clients that are not browsers send no `Origin`.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host =
        origin.to_str().ok().and_then(|o| o.split_once("://")).map(|(_, rest)| rest.trim_end_matches('/'));
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

async fn socket(
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    State(state): State<AppState>,
) -> Response {
    if !same_origin(&headers) {
        log::warn!("refused a WebSocket from {peer}: origin {:?}", headers.get(header::ORIGIN));
        return (StatusCode::FORBIDDEN, "a page of another site may not use this board").into_response();
    }
    ws.max_message_size(MAX_MESSAGE).on_upgrade(move |mut socket| async move {
        let Ok(permit) = state.sessions.clone().try_acquire_owned() else {
            let busy = ServerMsg::error(format!("the server already serves {MAX_SESSIONS} pages: try again later"));
            let _ = socket.send(Message::Text(busy.to_json().into())).await;
            return;
        };
        log::info!("page connected from {peer}");
        serve_socket(socket, state.config).await;
        log::info!("page from {peer} left");
        drop(permit);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_pages_of_this_server_may_open_the_socket() {
        let with = |origin: Option<&str>, host: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::HOST, host.parse().unwrap());
            if let Some(o) = origin {
                h.insert(header::ORIGIN, o.parse().unwrap());
            }
            same_origin(&h)
        };
        assert!(with(Some("http://127.0.0.1:8080"), "127.0.0.1:8080"));
        assert!(with(None, "127.0.0.1:8080"), "not a browser");
        assert!(!with(Some("https://example.org"), "127.0.0.1:8080"));
        assert!(!with(Some("http://127.0.0.1:9999"), "127.0.0.1:8080"));
        assert!(!with(Some("null"), "127.0.0.1:8080"));
    }
}

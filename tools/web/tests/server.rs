//! The board's server spoken to as its page does, over the WebSocket, with
//! the engine this package builds (`web engine`): whole games against it,
//! the check that a `classic` page is never sent a hidden identity of the
//! engine's pieces, deployments refused with the engine's reason,
//! take-backs and refusals, analysis of positions and records, and the
//! page's files over HTTP.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use luzhanqi::notation::{parse_setup, parse_token};
use luzhanqi::position::Cell;
use luzhanqi::{Colour, Kind, Token};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};
use web::engine::EngineCommand;
use web::session::Config;

async fn server(seed: u64) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let engine = EngineCommand { program: env!("CARGO_BIN_EXE_web").into(), args: vec!["engine".to_owned()] };
    tokio::spawn(web::server::serve(listener, Config { engine, seed: Some(seed) }));
    addr
}

/// A page: its socket and every message it was sent.
struct Page {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    seen: Vec<Value>,
}

impl Page {
    async fn open(addr: SocketAddr) -> Page {
        let (ws, _) = connect_async(format!("ws://{addr}/ws")).await.unwrap();
        let mut page = Page { ws, seen: Vec::new() };
        let hello = page.until(|m| m["type"] == "hello").await;
        assert_eq!(hello["points"].as_array().unwrap().len(), 60);
        page
    }

    async fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string().into())).await.unwrap();
    }

    /// The next message for which `pred` holds (the others are kept in `seen`).
    async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let next = tokio::time::timeout(Duration::from_secs(60), self.ws.next()).await;
            let msg = match next {
                Ok(Some(Ok(Message::Text(t)))) => serde_json::from_str::<Value>(t.as_str()).unwrap(),
                Ok(Some(Ok(_))) => continue,
                other => panic!("no message: {other:?}; seen last: {:?}", self.seen.last()),
            };
            self.seen.push(msg.clone());
            if pred(&msg) {
                return msg;
            }
        }
    }

    /// The next game message where the player moves or the game is over.
    async fn players_turn(&mut self) -> Value {
        self.until(|m| m["type"] == "error" || (m["type"] == "game" && (m["turn"] == "you" || m["phase"] != "play")))
            .await
    }
}

/// A seeded xorshift, for the player's choices.
struct Choice(u64);

impl Choice {
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        &items[(self.0 % items.len() as u64) as usize]
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect()).unwrap_or_default()
}

fn told(game: &Value) -> Vec<String> {
    game["moves"].as_array().unwrap().iter().map(|m| strings(&m["tokens"]).join(" ")).collect()
}

/// Plays random legal actions of the player from `game` (a game message
/// where the player moves) until the game is over or `limit` plies were
/// played; returns the last game message.
async fn play_out(page: &mut Page, mut game: Value, choice: &mut Choice, limit: usize) -> Value {
    loop {
        assert_eq!(game["type"], "game", "{game}");
        if game["phase"] != "play" || told(&game).len() >= limit {
            return game;
        }
        let legal = strings(&game["legal"]);
        assert!(!legal.is_empty(), "the player to move has legal actions: {game}");
        let action = choice.pick(&legal).clone();
        page.send(json!({"type": "play", "action": action})).await;
        game = page.players_turn().await;
    }
}

/// The record's plies, each token with its reveals.
fn record_plies(text: &str) -> Vec<String> {
    let rec = &arena::record::parse_records(text).unwrap()[0];
    rec.plies
        .iter()
        .map(|p| {
            std::iter::once(p.token)
                .chain(p.reveals.iter().copied())
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flip_game_to_the_end_is_the_record_it_gives() {
    let addr = server(1).await;
    let mut page = Page::open(addr).await;
    page.send(json!({"type": "record"})).await;
    let e = page.until(|m| m["type"] == "error").await;
    assert_eq!(e["message"], "no game");
    let new = json!({"type": "new_game", "variant": "flip", "seat": "first", "limit": {"nodes": 30}, "multipv": 2});
    page.send(new).await;
    let first = page.players_turn().await;
    assert_eq!((first["you"].clone(), strings(&first["legal"]).len()), (Value::Null, 50), "50 flips, colour unknown");
    page.send(json!({"type": "record"})).await;
    let e = page.until(|m| m["type"] == "error").await;
    assert!(e["message"].as_str().unwrap().contains("once the game is over"), "{e}");
    let end = play_out(&mut page, first, &mut Choice(7), usize::MAX).await;
    assert_eq!(end["phase"], "over");
    let result = &end["result"];
    assert!(["flag", "noaction", "quietlimit", "maxplies"].contains(&result["termination"].as_str().unwrap()), "{end}");
    page.send(json!({"type": "record"})).await;
    let text = page.until(|m| m["type"] == "record").await["text"].as_str().unwrap().to_owned();
    assert_eq!(record_plies(&text), told(&end), "the move list is the record's plies");
    let rec = &arena::record::parse_records(&text).unwrap()[0];
    assert_eq!(rec.result_text(), result["score"]);
    let mut out = String::new();
    arena::replay::replay_game(rec, &arena::replay::ReplayOptions::default(), &mut out).unwrap();
    let infos = page.seen.iter().filter(|m| m["type"] == "info" && m["context"] == "game").count();
    assert!(infos > 0 && page.seen.iter().any(|m| m["type"] == "rootstat"), "the engine's thinking reached the page");
    assert!(page.seen.iter().any(|m| m["type"] == "info" && m["multipv"] == 2), "MultiPV 2");
}

/// Checks every message a `classic` page was sent while `engine` played:
/// no position names an engine piece but a flag its Marshal's fall
/// revealed, or a piece the player was told it beat; no token names one
/// except those reveals and losers; the engine's words and the record
/// are not sent; beliefs are about the player's pieces.
fn no_leak(messages: &[Value], engine: Colour) {
    for m in messages {
        match m["type"].as_str().unwrap() {
            "game" => {
                let told: Vec<Token> = m["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|t| strings(&t["tokens"]))
                    .map(|t| parse_token(&t).unwrap())
                    .collect();
                let named = |kind: Kind| {
                    told.iter().any(|t| match *t {
                        Token::Show { piece, .. } => piece.colour == engine && piece.kind == Some(kind),
                        Token::Attack { loser: Some(p), .. } => p.colour == engine && p.kind == Some(kind),
                        _ => false,
                    })
                };
                let setup = parse_setup(m["fen"].as_str().unwrap()).unwrap();
                for cell in setup.cells {
                    if let Cell::Piece(p) = cell
                        && p.colour == engine
                        && let Some(k) = p.kind
                    {
                        assert!(k == Kind::Flag && named(k), "the page sees the engine's {k:?}: {}", m["fen"]);
                    }
                }
                for p in &setup.removed {
                    if let (true, Some(k)) = (p.colour == engine, p.kind) {
                        assert!(named(k), "the page knows a removed engine {k:?} it was not told: {}", m["fen"]);
                    }
                }
                if let Some(s) = m["setup"].as_str() {
                    assert!(!s.contains(engine.to_char()), "a proposal holds only the player's pieces: {s}");
                }
            }
            "setup" => assert!(!m["setup"].as_str().unwrap().contains(engine.to_char())),
            "record" | "says" | "loaded" | "position" => panic!("sent during a classic game: {m}"),
            "info" => assert!(strings(&m["pv"]).iter().all(|a| luzhanqi::notation::parse_action(a).is_ok())),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn classic_pages_never_see_the_engines_pieces() {
    let addr = server(5).await;
    let cases = [("first", json!({})), ("second", json!({})), ("first", json!({"WinnerLearnsLoser": "true"}))];
    for (n, (seat, rules)) in cases.into_iter().enumerate() {
        let mut page = Page::open(addr).await;
        let new =
            json!({"type": "new_game", "variant": "classic", "rules": rules, "seat": seat, "limit": {"nodes": 20}});
        page.send(new).await;
        let deploy = page.until(|m| m["type"] == "game").await;
        assert_eq!(deploy["phase"], "deploy", "{deploy}");
        let engine = if seat == "first" { Colour::Blue } else { Colour::Red };
        page.send(json!({"type": "deploy", "setup": deploy["setup"]})).await;
        let start = page.players_turn().await;
        let end = play_out(&mut page, start, &mut Choice(11 + n as u64), 300).await;
        let over = if end["phase"] == "play" {
            page.send(json!({"type": "resign"})).await;
            page.until(|m| m["type"] == "game" && m["phase"] == "over").await
        } else {
            end
        };
        no_leak(&page.seen, engine);
        assert!(page.seen.iter().any(|m| m["type"] == "belief"), "ShowBelief reached the page");
        // After the end the record shows everything; its plies are what the player was told
        // (without WinnerLearnsLoser: the truth has no losers named).
        page.send(json!({"type": "record"})).await;
        let text = page.until(|m| m["type"] == "record").await["text"].as_str().unwrap().to_owned();
        if n < 2 {
            assert_eq!(record_plies(&text), told(&over));
        }
        assert!(text.contains("[BlueSetup \"b"), "{text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deployment_is_refused_with_the_engines_reason() {
    let addr = server(2).await;
    let mut page = Page::open(addr).await;
    let new = json!({"type": "new_game", "variant": "classic", "seat": "second", "limit": {"nodes": 10}});
    page.send(new).await;
    let game = page.until(|m| m["type"] == "game").await;
    assert_eq!((game["you"].as_str(), game["phase"].as_str()), (Some("blue"), Some("deploy")));
    let proposal = game["setup"].as_str().unwrap().to_owned();
    assert!(luzhanqi::notation::parse_deployment(&proposal, Colour::Blue).is_ok(), "{proposal}");
    // Blue's ranks are listed 12 down to 7: the flag swapped onto rank 7 (the front).
    let mut ranks: Vec<String> = proposal.split('/').map(str::to_owned).collect();
    let flag_rank = ranks.iter().position(|r| r.contains("bF")).unwrap();
    let front = ranks[5].clone();
    let first_front = &front[..2];
    ranks[flag_rank] = ranks[flag_rank].replacen("bF", "XX", 1).replacen("XX", first_front, 1);
    ranks[5] = front.replacen(first_front, "bF", 1);
    page.send(json!({"type": "deploy", "setup": ranks.join("/")})).await;
    let e = page.until(|m| m["type"] == "error").await;
    let why = e["message"].as_str().unwrap();
    assert!(why.starts_with("the engine refuses this deployment: flag at ") && why.ends_with("headquarters"), "{why}");
    for bad in ["b9/b8 moves a1-a2", "", "b9b9b9b9b9/5/5/5/5/5"] {
        page.send(json!({"type": "deploy", "setup": bad})).await;
        let e = page.until(|m| m["type"] == "error").await;
        assert!(e["message"].as_str().unwrap().contains("deployment"), "{bad}: {e}");
    }
    page.send(json!({"type": "random_setup"})).await;
    let other = page.until(|m| m["type"] == "setup").await;
    page.send(json!({"type": "deploy", "setup": other["setup"]})).await;
    let game = page.until(|m| m["type"] == "game").await;
    assert_eq!((game["phase"].as_str(), game["turn"].as_str()), (Some("play"), Some("engine")), "Red moves first");
    let game = page.players_turn().await;
    assert_eq!(told(&game).len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_and_refusals() {
    let addr = server(3).await;
    let mut page = Page::open(addr).await;
    page.send(json!({"type": "new_game", "variant": "chess", "limit": {"nodes": 10}})).await;
    assert!(page.until(|m| m["type"] == "error").await["message"].as_str().unwrap().contains("chess"));
    page.ws.send(Message::Text("{\"type\":".into())).await.unwrap();
    assert!(page.until(|m| m["type"] == "error").await["message"].as_str().unwrap().starts_with("bad message"));
    let new = json!({"type": "new_game", "variant": "open", "seat": "first", "limit": {"nodes": 10}});
    page.send(new).await;
    let deploy = page.until(|m| m["type"] == "game").await;
    page.send(json!({"type": "deploy", "setup": deploy["setup"]})).await;
    let mut game = page.players_turn().await;
    assert_eq!(game["you"], "red");
    assert!(!game["can_takeback"].as_bool().unwrap());
    page.send(json!({"type": "play", "action": "a1-a12"})).await;
    let e = page.until(|m| m["type"] == "error").await;
    assert!(e["message"].as_str().unwrap().starts_with("the referee refuses it: a1-a12 is illegal"), "{e}");
    let mut choice = Choice(3);
    for _ in 0..3 {
        let action = choice.pick(&strings(&game["legal"])).clone();
        page.send(json!({"type": "play", "action": action})).await;
        game = page.players_turn().await;
    }
    assert_eq!(told(&game).len(), 6);
    let fen_before = game["fen"].clone();
    page.send(json!({"type": "takeback"})).await;
    let back = page.players_turn().await;
    assert_eq!((told(&back).len(), back["turn"].as_str()), (4, Some("you")), "the player's action and the reply");
    assert_ne!(back["fen"], fen_before);
    page.send(json!({"type": "settings", "limit": {"nodes": 0}, "multipv": 2})).await;
    assert!(page.until(|m| m["type"] == "error").await["message"].as_str().unwrap().contains("limit"));
    page.send(json!({"type": "resign"})).await;
    let over = page.until(|m| m["type"] == "game").await;
    assert_eq!(
        (over["result"]["termination"].as_str(), over["result"]["score"].as_str()),
        (Some("resign"), Some("0-1"))
    );
    page.send(json!({"type": "play", "action": "a6-a7"})).await;
    assert_eq!(page.until(|m| m["type"] == "error").await["message"], "it is not your turn");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_of_a_position_and_of_a_record() {
    let addr = server(4).await;
    let mut page = Page::open(addr).await;
    let analyse = |position: &str| json!({"type": "analyse", "variant": "flip", "position": position, "multipv": 3});
    page.send(analyse("startpos moves c3=r9 a1-a9")).await;
    let e = page.until(|m| m["type"] == "error").await;
    assert!(e["message"].as_str().unwrap().starts_with("the engine refuses this position: position: move 2"), "{e}");
    page.send(analyse("startpos moves c3=r9 c7=b2")).await;
    let pos = page.until(|m| m["type"] == "position").await;
    assert_eq!((pos["side"].as_str(), pos["position"].as_str()), (Some("red"), Some("startpos moves c3=r9 c7=b2")));
    assert!(strings(&pos["legal"]).contains(&"c3-d3".to_owned()));
    let info = page.until(|m| m["type"] == "info").await;
    assert_eq!(info["context"], "analysis");
    page.until(|m| m["type"] == "info" && m["multipv"] == 3).await;
    page.send(json!({"type": "stop"})).await;
    let best = page.until(|m| m["type"] == "bestmove").await;
    assert!(best["action"].is_string());

    // A record: every position before the end gets a point of the graph.
    let red = "r9r1r4r3r6/r51r31r7/r2r21r2r1/r31r41r8/rBr1rMr6rB/rMrFrMr5r7";
    let blue = "bMbFbMb5b7/bBb1bMb6bB/b31b41b8/b2b21b2b1/b51b31b7/b9b4b1b3b6";
    let text = format!(
        "[Game \"1\"]\n[Variant \"classic\"]\n[Red \"a\"]\n[Blue \"b\"]\n[RedSetup \"{red}\"]\n[BlueSetup \"{blue}\"]\n\
         [Result \"1/2-1/2\"]\n[Termination \"maxplies\"]\n[MaxPlies \"3\"]\n[Plies \"3\"]\n\
         1 r c6xc7+ 5\n2 b d7xc7- 5\n3 r a6xa7= 5 b1=rF b12=bF\n"
    );
    page.send(json!({"type": "load", "text": text, "limit": {"nodes": 50}})).await;
    let loaded = page.until(|m| m["type"] == "loaded").await;
    assert_eq!((loaded["positions"].as_u64(), loaded["plies"].as_array().unwrap().len()), (Some(4), 3));
    assert!(strings(&loaded["views"])[1].contains("r?r?r?r?r?"), "Blue's view hides Red: {}", loaded["views"]);
    for ply in 0..4 {
        let g = page.until(|m| m["type"] == "graph").await;
        assert_eq!(g["ply"], ply);
        assert!((0..=1000).contains(&g["red"].as_u64().unwrap()));
    }
    page.send(json!({"type": "goto", "ply": 2, "multipv": 1})).await;
    page.until(|m| m["type"] == "info" && m["context"] == "analysis").await;
    page.send(json!({"type": "stop"})).await;
    page.until(|m| m["type"] == "bestmove").await;
    page.send(json!({"type": "load", "text": text.replace("d7xc7-", "d7xc7+"), "limit": {"nodes": 50}})).await;
    let e = page.until(|m| m["type"] == "error").await;
    assert!(e["message"].as_str().unwrap().contains("ply 2"), "{e}");
}

async fn http_get(addr: SocketAddr, path: &str) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_served_from_the_binary() {
    let addr = server(6).await;
    let index = http_get(addr, "/").await;
    assert!(index.starts_with("HTTP/1.1 200") && index.contains("<svg id=\"board\">"), "{index}");
    assert!(!index.contains("http://") && !index.contains("https://"), "nothing is fetched from elsewhere");
    let js = http_get(addr, "/app.js").await;
    assert!(js.contains("content-type: text/javascript"), "{}", &js[..200]);
    assert!(http_get(addr, "/nope").await.starts_with("HTTP/1.1 404"));
    // A page of another site may not open the socket.
    let mut s = TcpStream::connect(addr).await.unwrap();
    let upgrade = format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: https://example.org\r\n\r\n"
    );
    s.write_all(upgrade.as_bytes()).await.unwrap();
    let mut head = [0u8; 64];
    let n = s.read(&mut head).await.unwrap();
    assert!(head[..n].starts_with(b"HTTP/1.1 403"), "{}", String::from_utf8_lossy(&head[..n]));
}

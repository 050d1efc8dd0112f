//! The engine over WebSocket (the ATSA site's Play page connects that way), one game at a
//! time: a connection while one is served is told it is busy and closed. Each connection's
//! session is summed up in one line on stderr when it ends.

use super::MAX_MESSAGE;
use super::session::{Flow, Session, SessionLog};
use super::settings::Settings;
use crate::atsi::EngineReply;
use std::fmt;
use std::io;
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use taikyoku_core::rules::Rules;
use tungstenite::handshake::server::{NoCallback, ServerHandshake};
use tungstenite::{HandshakeError, Message};

/// Serves ATSI on `listener`'s connections, one game at a time, until it stops accepting
/// (an error of its own address only: a failed connection is passed over).
pub fn websocket(listener: TcpListener, rules: Arc<Rules>, settings: Settings) -> io::Result<()> {
    let bound = listener.local_addr()?;
    eprintln!("taikyoku engine: listening on ws://{bound}");
    let busy = Arc::new(AtomicBool::new(false));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let peer = stream
            .peer_addr()
            .map_or("an unknown peer".to_string(), |a| a.to_string());
        if busy.swap(true, Ordering::SeqCst) {
            eprintln!("taikyoku engine: {peer}: refused, a game is being played");
            std::thread::spawn(move || refuse(stream));
            continue;
        }
        let (rules, settings, busy) = (rules.clone(), settings.clone(), busy.clone());
        std::thread::spawn(move || {
            let session = Session::new(rules, settings, Default::default(), SessionLog::Summary);
            eprintln!("taikyoku engine: {peer}: {}", serve(stream, session));
            busy.store(false, Ordering::SeqCst);
        });
    }
    Ok(())
}

fn ws_config() -> tungstenite::protocol::WebSocketConfig {
    tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
}

/// Tells a second client the engine is busy, and closes.
fn refuse(stream: TcpStream) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
    if let Ok(mut ws) = tungstenite::accept_with_config(stream, Some(ws_config())) {
        let busy = EngineReply::Log("busy: this engine is playing another game".into());
        let _ = ws.send(Message::text(busy.to_line()));
        let _ = ws.close(None);
        let _ = ws.flush();
    }
}

/// A connection that never became a WebSocket.
struct NotWebSocket(Box<HandshakeError<ServerHandshake<TcpStream, NoCallback>>>);

/// How a connection ended.
enum Ended {
    /// The host closed it.
    Closed,
    /// It broke (or the host went away) while reading or writing.
    Lost(tungstenite::Error),
    /// The host sent `quit`.
    Quit,
}

impl fmt::Display for Ended {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ended::Closed => f.write_str("closed by the host"),
            Ended::Lost(e) => write!(f, "connection ended: {e}"),
            Ended::Quit => f.write_str("quit"),
        }
    }
}

/// Plays one connection's session; sums it up in one line (what it did, how it ended).
fn serve(stream: TcpStream, mut session: Session) -> String {
    match play_connection(stream, &mut session) {
        Err(NotWebSocket(e)) => format!("not a WebSocket handshake: {e}"),
        Ok(how) => format!("{}; {how}", session.summary_line()),
    }
}

/// The connection's messages until it ends: how it ended, or why it never began.
fn play_connection(stream: TcpStream, session: &mut Session) -> Result<Ended, NotWebSocket> {
    let _ = stream.set_nodelay(true);
    let mut ws = tungstenite::accept_with_config(stream, Some(ws_config()))
        .map_err(|e| NotWebSocket(Box::new(e)))?;
    loop {
        let mut replies = Vec::new();
        let mut flow = Flow::Continue;
        match ws.read() {
            Ok(Message::Text(text)) => {
                for line in text.lines() {
                    flow = session.handle(line, &mut |r| replies.push(r));
                    if flow == Flow::Quit {
                        break;
                    }
                }
            }
            Ok(Message::Binary(_)) => session.error(
                "a binary message: ATSI messages are text; ignored",
                &mut |r| replies.push(r),
            ),
            Ok(Message::Close(_)) => return Ok(Ended::Closed),
            Ok(_) => continue,
            Err(e) => return Ok(Ended::Lost(e)),
        }
        for r in replies {
            if let Err(e) = ws.send(Message::text(r.to_line())) {
                return Ok(Ended::Lost(e));
            }
        }
        if flow == Flow::Quit {
            let _ = ws.close(None);
            let _ = ws.flush();
            return Ok(Ended::Quit);
        }
    }
}

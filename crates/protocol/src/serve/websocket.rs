//! The engine over WebSocket (the ATSA site's Play page connects that way), one game at a
//! time: a connection while one is served is told it is busy and closed. Each connection's
//! session is summed up in one line on stderr when it ends.
//!
//! What a hostile client or web page cannot do: drive the engine from a page of another
//! origin ([`Origins`]), hold the game's slot without completing its handshake (it is taken
//! after the handshake, which has [`HANDSHAKE_DEADLINE`]), keep a search burning after it
//! leaves (a reader thread sees the close, or `quit`, while the session thinks), or make the
//! engine spin or spawn without bound (at most [`MAX_CONNECTIONS`] at once, and a failed
//! accept, such as a full file table, waits before the next).

use super::MAX_MESSAGE;
use super::interrupt::{Interrupt, ends_search};
use super::origin::Origins;
use super::session::{Flow, Session, SessionLog};
use super::settings::Settings;
use crate::atsi::EngineReply;
use std::fmt;
use std::io;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use taikyoku_core::notation;
use taikyoku_core::rules::Rules;
use tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tungstenite::{HandshakeError, Message, WebSocket};

/// How long a connection has to complete its WebSocket handshake.
pub const HANDSHAKE_DEADLINE: Duration = Duration::from_secs(5);
/// The most connections handled at once (one plays; the others are in their handshake or
/// being told the engine is busy); more are closed at once, without a thread.
pub const MAX_CONNECTIONS: usize = 16;
/// How long a write to a client may wait for it to read.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// How often a playing connection's reader looks for the session's replies.
const POLL: Duration = Duration::from_millis(20);
/// The longest wait after failed accepts in a row.
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// What every connection's thread shares.
struct Shared {
    rules: Arc<Rules>,
    settings: Settings,
    origins: Origins,
    /// A game is being played.
    busy: AtomicBool,
    /// Connections being handled.
    connections: AtomicUsize,
}

/// A place among the [`MAX_CONNECTIONS`], given back when dropped.
struct Place(Arc<Shared>);

impl Place {
    fn take(shared: &Arc<Shared>) -> Option<Place> {
        let n = shared.connections.fetch_add(1, Ordering::SeqCst);
        let place = Place(shared.clone());
        (n < MAX_CONNECTIONS).then_some(place)
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.0.connections.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves ATSI on `listener`'s connections, one game at a time, from the pages `origins`
/// allows; runs until the process ends.
pub fn websocket(
    listener: TcpListener,
    rules: Arc<Rules>,
    settings: Settings,
    origins: Origins,
) -> io::Result<()> {
    let bound = listener.local_addr()?;
    eprintln!("taikyoku engine: listening on ws://{bound}");
    let shared = Arc::new(Shared {
        rules,
        settings,
        origins,
        busy: AtomicBool::new(false),
        connections: AtomicUsize::new(0),
    });
    let mut backoff = Backoff::default();
    let mut turned_away = Quiet::default();
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => {
                backoff.succeeded();
                stream
            }
            Err(e) => {
                backoff.failed(&e);
                continue;
            }
        };
        let Some(place) = Place::take(&shared) else {
            turned_away.say(|n| format!("{n} connection(s) closed: {MAX_CONNECTIONS} at once"));
            continue;
        };
        let spawned = std::thread::Builder::new().spawn(move || connection(stream, place));
        if spawned.is_err() {
            turned_away.say(|n| format!("{n} connection(s) closed: no thread for them"));
        }
    }
}

/// The wait after failed accepts (a full file table: EMFILE), doubled at each failure in a
/// row up to [`MAX_BACKOFF`], so that the accept loop does not spin; said once a streak.
#[derive(Default)]
struct Backoff {
    wait: Duration,
}

impl Backoff {
    fn failed(&mut self, e: &io::Error) {
        if self.wait.is_zero() {
            eprintln!("taikyoku engine: accepting a connection failed: {e}; waiting to retry");
        }
        self.wait = (self.wait * 2).clamp(Duration::from_millis(10), MAX_BACKOFF);
        std::thread::sleep(self.wait);
    }

    fn succeeded(&mut self) {
        self.wait = Duration::ZERO;
    }
}

/// A line said at most once a second, with how many times it happened meanwhile.
#[derive(Default)]
struct Quiet {
    last: Option<Instant>,
    count: u64,
}

impl Quiet {
    fn say(&mut self, line: impl Fn(u64) -> String) {
        self.count += 1;
        if self
            .last
            .is_none_or(|t| t.elapsed() >= Duration::from_secs(1))
        {
            eprintln!("taikyoku engine: {}", line(self.count));
            (self.last, self.count) = (Some(Instant::now()), 0);
        }
    }
}

/// One connection: its handshake, then its game or the news that the engine is busy;
/// summed up in one line.
fn connection(stream: TcpStream, place: Place) {
    let shared = &place.0;
    let peer = stream
        .peer_addr()
        .map_or("an unknown peer".to_string(), |a| a.to_string());
    let line = match handshake(stream, &shared.origins) {
        Err(why) => why.to_string(),
        Ok(ws) if shared.busy.swap(true, Ordering::SeqCst) => {
            refuse(ws);
            "refused, a game is being played".to_string()
        }
        Ok(ws) => {
            let line = play(ws, shared);
            shared.busy.store(false, Ordering::SeqCst);
            line
        }
    };
    eprintln!("taikyoku engine: {peer}: {line}");
}

fn ws_config() -> tungstenite::protocol::WebSocketConfig {
    tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
}

/// Why a connection never became a game's.
enum NoHandshake {
    Failed(tungstenite::Error),
    TimedOut,
    Origin(String),
}

impl fmt::Display for NoHandshake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoHandshake::Failed(e) => write!(f, "not a WebSocket handshake: {e}"),
            NoHandshake::TimedOut => write!(
                f,
                "no WebSocket handshake within {} s: closed",
                HANDSHAKE_DEADLINE.as_secs()
            ),
            NoHandshake::Origin(o) => write!(
                f,
                "refused a page of origin {o:?} (--allow-origin allows it)"
            ),
        }
    }
}

/// A connection whose reads give up at a deadline (the handshake's) however slowly the
/// client trickles its bytes: each read may wait only for what is left of it.
struct Guarded {
    stream: TcpStream,
    deadline: Option<Instant>,
}

impl io::Read for Guarded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(d) = self.deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::ErrorKind::TimedOut.into());
            }
            self.stream.set_read_timeout(Some(left))?;
        }
        self.stream.read(buf)
    }
}

impl io::Write for Guarded {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

type Ws = WebSocket<Guarded>;

/// The handshake's check of the client's `Origin`: refused (403) unless `origins` allows it,
/// the refused origin kept in `refused` for the log.
// The error type is tungstenite's (its `Callback`), not ours to box.
#[allow(clippy::result_large_err)]
fn origin_check(
    origins: &Origins,
    refused: &Arc<Mutex<Option<String>>>,
) -> impl FnOnce(&Request, Response) -> Result<Response, ErrorResponse> {
    let (origins, refused) = (origins.clone(), refused.clone());
    move |req: &Request, resp: Response| {
        let origin = req
            .headers()
            .get("origin")
            .map(|v| v.to_str().unwrap_or("?"));
        if origins.allows(origin) {
            return Ok(resp);
        }
        let origin = notation::shorten(origin.unwrap_or_default());
        *refused.lock().unwrap_or_else(|e| e.into_inner()) = Some(origin);
        let mut no = ErrorResponse::new(Some("this page's origin may not use the engine".into()));
        *no.status_mut() = tungstenite::http::StatusCode::FORBIDDEN;
        Err(no)
    }
}

/// The WebSocket handshake, within [`HANDSHAKE_DEADLINE`] in all, from an origin `origins`
/// allows (else answered 403).
fn handshake(stream: TcpStream, origins: &Origins) -> Result<Ws, NoHandshake> {
    let deadline = Instant::now() + HANDSHAKE_DEADLINE;
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let stream = Guarded {
        stream,
        deadline: Some(deadline),
    };
    let refused = Arc::new(Mutex::new(None));
    let check = origin_check(origins, &refused);
    let mut result = tungstenite::accept_hdr_with_config(stream, check, Some(ws_config()));
    loop {
        match result {
            Ok(mut ws) => {
                ws.get_mut().deadline = None;
                return Ok(ws);
            }
            Err(HandshakeError::Interrupted(_)) if Instant::now() >= deadline => {
                return Err(NoHandshake::TimedOut);
            }
            Err(HandshakeError::Interrupted(mid)) => result = mid.handshake(),
            Err(HandshakeError::Failure(e)) => {
                let origin = refused.lock().unwrap_or_else(|e| e.into_inner()).take();
                return Err(match origin {
                    Some(o) => NoHandshake::Origin(o),
                    None if Instant::now() >= deadline => NoHandshake::TimedOut,
                    None => NoHandshake::Failed(e),
                });
            }
        }
    }
}

/// Tells a second client the engine is busy, and closes.
fn refuse(mut ws: Ws) {
    let busy = EngineReply::Log("busy: this engine is playing another game".into());
    let _ = ws.send(Message::text(busy.to_line()));
    let _ = ws.close(None);
    let _ = ws.flush();
}

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

/// What the connection's reader passes to the session.
enum Input {
    Line(String),
    Binary,
}

/// Plays one connection's session: the session thinks on a thread of its own while this one
/// reads (so a close or `quit` stops its search at once) and writes its replies. Sums it up
/// in one line (what it did, how it ended), once its search has stopped.
fn play(mut ws: Ws, shared: &Shared) -> String {
    let interrupt = Interrupt::default();
    let session = Session::new(
        shared.rules.clone(),
        shared.settings.clone(),
        interrupt.clone(),
        SessionLog::Summary,
    );
    let (input_tx, input_rx) = mpsc::channel();
    let (reply_tx, reply_rx) = mpsc::channel();
    let thinker = std::thread::Builder::new().spawn(move || converse(session, input_rx, reply_tx));
    let Ok(thinker) = thinker else {
        return "no thread for its session: closed".into();
    };
    let how = pump(&mut ws, &interrupt, &input_tx, &reply_rx);
    interrupt.raise();
    drop(input_tx);
    let summary = thinker.join().map(|s| s.summary_line());
    let summary = summary.unwrap_or_else(|_| "the session failed".into());
    format!("{summary}; {how}")
}

/// The session's side: the inputs in turn, the replies sent back, until `quit` or the end.
fn converse(
    mut session: Session,
    inputs: Receiver<Input>,
    replies: Sender<EngineReply>,
) -> Session {
    let mut send = |r| {
        let _ = replies.send(r);
    };
    for input in inputs {
        match input {
            Input::Line(line) => {
                if session.handle(&line, &mut send) == Flow::Quit {
                    break;
                }
            }
            Input::Binary => session.error(
                "a binary message: ATSI messages are text; ignored",
                &mut send,
            ),
        }
    }
    session
}

/// The reader's side: the client's messages to the session (a line that ends a search
/// raises its stop at once), its replies to the client, until either ends.
fn pump(
    ws: &mut Ws,
    interrupt: &Interrupt,
    inputs: &Sender<Input>,
    replies: &Receiver<EngineReply>,
) -> Ended {
    let _ = ws.get_ref().stream.set_read_timeout(Some(POLL));
    loop {
        loop {
            match replies.try_recv() {
                Ok(r) => {
                    if let Err(e) = ws.send(Message::text(r.to_line())) {
                        return Ended::Lost(e);
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    let _ = ws.close(None);
                    let _ = ws.flush();
                    return Ended::Quit;
                }
            }
        }
        let input = match ws.read() {
            Ok(Message::Text(text)) => text.lines().map(|l| Input::Line(l.into())).collect(),
            Ok(Message::Binary(_)) => vec![Input::Binary],
            Ok(Message::Close(_)) => return Ended::Closed,
            Ok(_) => continue,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                continue;
            }
            Err(e) => return Ended::Lost(e),
        };
        for i in input {
            if let Input::Line(l) = &i
                && ends_search(l)
            {
                interrupt.raise();
            }
            let _ = inputs.send(i);
        }
    }
}

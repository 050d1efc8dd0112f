//! `taikyoku engine`: this program as an ATSI v00 engine, over stdin/stdout or, with
//! `--listen`, over WebSocket (the ATSA site's Play page connects that way). One line per
//! message; malformed input is answered with a `log error: …` line (ATSI has no error message;
//! `log` is the one ATSA's host prints) and logged on stderr, never a panic.

use clap::Args;
use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};
use taikyoku_core::geometry::Side;
use taikyoku_core::moves::Move;
use taikyoku_core::notation;
use taikyoku_core::position::Position;
use taikyoku_core::rules::Rules;
use taikyoku_protocol::atsi::{
    self, AtsaHost, AtsiError, EngineReply, HostCommand, Order, ParamType, StartPos,
};
use taikyoku_search::eval::Weights;
use taikyoku_search::{Clock, Computer, Limits, SearchOptions, Stop, players};

/// The longest line (or WebSocket message) read: a TSFEN is about 3 KiB.
pub const MAX_MESSAGE: usize = 64 << 10;

/// `taikyoku engine`'s options; `setparam` changes them during a session.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// How the engine chooses its moves: search (the default), greedy (takes the most
    /// valuable piece it can) or random.
    #[arg(long, value_name = "POLICY", default_value = "search")]
    pub policy: String,
    /// Search at most this many plies deep.
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Search at most this many nodes a move.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Seconds a move (instead of the time manager's share of the clock).
    #[arg(long, value_name = "SECONDS")]
    pub movetime: Option<f64>,
    /// Seed of the greedy and random policies and of the search's tie-breaks.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    pub hash: usize,
    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Weights of the evaluation's terms, NAME=N pairs (mobility, stake, hunt; 0 switches
    /// one off), for A/B matches.
    #[arg(long, value_name = "WEIGHTS", default_value = "")]
    pub eval: String,
    /// Play only moves ATSA's web host can judge (see the README).
    #[arg(long)]
    pub atsa_host_safe: bool,
    /// Serve ATSI over WebSocket on this address (for the ATSA site's Play page), one game at
    /// a time, instead of stdin/stdout.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
    /// Allow --listen on an address other than the loopback (anyone who can reach it can play).
    #[arg(long)]
    pub allow_remote: bool,
}

/// How moves are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Policy {
    Search,
    Greedy,
    Random,
}

const POLICIES: [(&str, Policy); 3] = [
    ("search", Policy::Search),
    ("greedy", Policy::Greedy),
    ("random", Policy::Random),
];

fn policy(s: &str) -> Result<Policy, String> {
    POLICIES
        .iter()
        .find(|(n, _)| *n == s)
        .map(|&(_, p)| p)
        .ok_or_else(|| format!("unknown policy {s:?}: search, greedy or random"))
}

/// The settings `setparam` can change.
#[derive(Clone, Debug)]
struct Settings {
    policy: Policy,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<Duration>,
    seed: u64,
    hash: usize,
    threads: usize,
    host_safe: bool,
    weights: Weights,
}

impl Settings {
    fn from_args(a: &EngineArgs) -> Result<Settings, String> {
        Ok(Settings {
            policy: policy(&a.policy)?,
            depth: a.depth,
            nodes: a.nodes,
            movetime: a.movetime.map(seconds).transpose()?,
            seed: a.seed,
            hash: a.hash.clamp(1, 4096),
            threads: a.threads.clamp(1, 64),
            host_safe: a.atsa_host_safe,
            weights: a.eval.parse().map_err(|e| format!("--eval: {e}"))?,
        })
    }

    /// The `param` lines announcing them.
    fn params() -> Vec<EngineReply> {
        let names: Vec<String> = POLICIES.iter().map(|(n, _)| n.to_string()).collect();
        [
            ("policy", ParamType::Enum(names)),
            ("depth", int(0, 63)),
            ("nodes", int(0, i64::MAX)),
            (
                "movetime",
                ParamType::Number {
                    range: Some((0.0, 3600.0)),
                },
            ),
            ("seed", int(0, i64::MAX)),
            ("hash", int(1, 4096)),
            ("threads", int(1, 64)),
            ("atsa_host_safe", ParamType::Bool),
        ]
        .into_iter()
        .map(|(name, ty)| EngineReply::Param {
            name: name.into(),
            ty,
        })
        .collect()
    }

    /// Applies `setparam NAME VALUE`; 0 lifts a depth, node or time limit.
    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let n = || -> Result<u64, String> {
            value
                .parse()
                .map_err(|_| format!("{name}: {value:?} is not a whole number"))
        };
        match name {
            "policy" => self.policy = policy(value)?,
            "depth" => self.depth = Some(n()?.min(63) as u32).filter(|&d| d > 0),
            "nodes" => self.nodes = Some(n()?).filter(|&v| v > 0),
            "movetime" => {
                self.movetime =
                    Some(seconds(value.parse().map_err(|_| {
                        format!("movetime: {value:?} is not a number of seconds")
                    })?)?)
                    .filter(|t| !t.is_zero())
            }
            "seed" => self.seed = n()?,
            "hash" => self.hash = n()?.clamp(1, 4096) as usize,
            "threads" => self.threads = n()?.clamp(1, 64) as usize,
            "atsa_host_safe" => {
                self.host_safe = match value {
                    "true" | "1" | "on" | "yes" => true,
                    "false" | "0" | "off" | "no" => false,
                    _ => return Err(format!("atsa_host_safe: {value:?} is not true or false")),
                }
            }
            _ => return Err(format!("unknown parameter {name:?}")),
        }
        Ok(())
    }
}

fn int(lo: i64, hi: i64) -> ParamType {
    ParamType::Int {
        range: Some((lo, hi)),
    }
}

fn seconds(s: f64) -> Result<Duration, String> {
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| *d <= Duration::from_secs(3600))
        .ok_or_else(|| format!("{s} is not a number of seconds from 0 to 3600"))
}

/// One game as the engine sees it.
struct Game {
    pos: Position,
    /// Seconds left on our clock and on the opponent's, as the host last said.
    clocks: Option<(f64, f64)>,
}

/// An ATSI session: what the host has told us and the game in progress.
pub struct Session {
    rules: Arc<Rules>,
    settings: Settings,
    computer: Option<Computer>,
    host: AtsaHost,
    initialised: bool,
    side: Option<Side>,
    time: Option<(f64, f64)>,
    game: Option<Game>,
    /// Set (by the stdio reader) when the host ends the game or the session: a search stops.
    stop: Stop,
    /// Where the log lines go: `taikyoku engine: …` on stderr, or, for a WebSocket
    /// connection, nowhere but the one line that sums it up when it ends.
    log: SessionLog,
    /// What the session did, for that line.
    summary: RefCell<Summary>,
}

/// Where a session's log lines go.
enum SessionLog {
    /// On stderr as they happen (the stdio engine: its host keeps them).
    Lines,
    /// Kept back: a WebSocket connection's is summed up in one line when it ends.
    Summary,
}

/// What a session did, told in one line when a WebSocket connection ends.
#[derive(Default)]
struct Summary {
    started: Option<Instant>,
    version: Option<String>,
    games: u32,
    moves: u32,
    /// How the last game ended (`win: royals captured`).
    result: Option<String>,
    errors: u32,
    first_error: Option<String>,
}

impl Summary {
    /// "atsiinit v0, 1 game (loss: royals captured), 42 moves played, no errors, 3.2 s".
    fn line(&self) -> String {
        let mut parts = vec![match &self.version {
            Some(v) => format!("atsiinit {v}"),
            None => "no atsiinit".into(),
        }];
        let games = plural(self.games, "game");
        parts.push(match &self.result {
            Some(r) => format!("{games} (last: {r})"),
            None => games,
        });
        parts.push(format!("{} played", plural(self.moves, "move")));
        parts.push(match &self.first_error {
            Some(e) => format!("{} (first: {e})", plural(self.errors, "error")),
            None => "no errors".into(),
        });
        if let Some(t) = self.started {
            parts.push(format!("{:.1} s", t.elapsed().as_secs_f64()));
        }
        parts.join(", ")
    }
}

/// "1 game", "3 moves".
fn plural(n: u32, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// What the transport does after a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

impl Session {
    fn new(rules: Arc<Rules>, settings: Settings, stop: Stop, log: SessionLog) -> Session {
        Session {
            rules,
            settings,
            computer: None,
            host: AtsaHost::new(),
            initialised: false,
            side: None,
            time: None,
            game: None,
            stop,
            log,
            summary: RefCell::new(Summary {
                started: Some(Instant::now()),
                ..Summary::default()
            }),
        }
    }

    fn log(&self, text: &str) {
        if let SessionLog::Lines = self.log {
            eprintln!("taikyoku engine: {text}");
        }
    }

    /// Handles one line from the host, sending the replies.
    fn handle(&mut self, line: &str, send: &mut dyn FnMut(EngineReply)) -> Flow {
        let command = match HostCommand::parse(line) {
            Ok(c) => c,
            Err(AtsiError::Empty) => return Flow::Continue,
            Err(e) => {
                self.error(&format!("{e} (in {:?})", notation::shorten(line)), send);
                return Flow::Continue;
            }
        };
        if !self.initialised && !matches!(command, HostCommand::AtsiInit { .. } | HostCommand::Quit)
        {
            self.error(
                &format!("{:?} before atsiinit: ignored", notation::shorten(line)),
                send,
            );
            return Flow::Continue;
        }
        match command {
            HostCommand::AtsiInit { version } => {
                self.initialised = true;
                self.log(&format!("atsiinit {version}"));
                self.summary.borrow_mut().version = Some(version);
                send(EngineReply::AtsiOk);
            }
            HostCommand::Identify => {
                send(EngineReply::Info {
                    name: "taikyoku".into(),
                    description: Some(format!(
                        "taikyoku {} ({}, {} rules)",
                        env!("CARGO_PKG_VERSION"),
                        self.rules.game.name,
                        self.rules.rule_set.name
                    )),
                    version: Some(env!("CARGO_PKG_VERSION").into()),
                    author: None,
                    logo: None,
                });
                Settings::params().into_iter().for_each(&mut *send);
            }
            HostCommand::Time { base, increment } => self.time = Some((base, increment)),
            HostCommand::Player(p) => {
                self.side = Some(if p == 0 { Side::Black } else { Side::White })
            }
            HostCommand::StartGame(start) => self.start(start, send),
            HostCommand::OpMove { mv, time, op_time } => {
                self.opponent_moved(&mv, time, op_time, send)
            }
            HostCommand::Win(r) | HostCommand::Loss(r) | HostCommand::Draw(r) => {
                let result = line.split_whitespace().next().unwrap_or("");
                let result = format!(
                    "{result}{}",
                    r.map(|r| format!(": {r}")).unwrap_or_default()
                );
                self.log(&result);
                self.summary.borrow_mut().result = Some(result);
                self.game = None;
            }
            HostCommand::SetParam { name, value } => {
                if let Err(e) = self.settings.set(&name, &value) {
                    self.error(&format!("setparam: {e}"), send);
                } else if matches!(name.as_str(), "hash" | "threads") {
                    self.computer = None;
                }
            }
            HostCommand::Eval => match &self.game {
                Some(g) => {
                    let pos = g.pos.clone();
                    let score = self.score(&pos);
                    send(EngineReply::Eval(score as f64));
                }
                None => self.error("eval: no game in progress", send),
            },
            HostCommand::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    /// A line the host should not have sent: `log error: …` and stderr.
    fn error(&self, text: &str, send: &mut dyn FnMut(EngineReply)) {
        self.log(&format!("error: {text}"));
        let mut summary = self.summary.borrow_mut();
        summary.errors += 1;
        summary
            .first_error
            .get_or_insert_with(|| notation::shorten(text));
        send(EngineReply::Log(format!("error: {text}")));
    }

    fn start(&mut self, start: StartPos, send: &mut dyn FnMut(EngineReply)) {
        let pos = match &start {
            StartPos::Initial => self.rules.start_position(),
            StartPos::Tsfen(t) => match notation::parse_tsfen(&self.rules, t) {
                Ok(p) => p,
                Err(e) => {
                    self.game = None;
                    return self.error(&format!("startgame: bad TSFEN: {e}"), send);
                }
            },
        };
        if self.side.is_none() {
            self.log("startgame before player: playing the first player");
        }
        let clocks = self.time.map(|(base, _)| (base, base));
        self.game = Some(Game { pos, clocks });
        self.summary.borrow_mut().games += 1;
        self.stop.lower();
        if let Some(c) = &mut self.computer {
            c.new_game();
        }
        self.move_if_our_turn(send);
    }

    fn opponent_moved(
        &mut self,
        mv: &atsi::AtsiMove,
        time: f64,
        op_time: f64,
        send: &mut dyn FnMut(EngineReply),
    ) {
        let Some(game) = &mut self.game else {
            return self.error(&format!("opmove {mv}: no game in progress"), send);
        };
        let side = self.side.unwrap_or(Side::Black);
        if game.pos.to_move() == side {
            return self.error(
                &format!("opmove {mv}: it is our move, not the opponent's"),
                send,
            );
        }
        match atsi::move_from_squares(&self.rules, &game.pos, mv, Order::Spec) {
            Ok((m, order)) => {
                if order == Order::StepsAfter {
                    self.log(&format!(
                        "opmove {mv}: read with its steps after the destination"
                    ));
                }
                let game = self.game.as_mut().expect("a game");
                self.rules.play_unchecked(&mut game.pos, &m);
                game.clocks = Some((time, op_time));
                self.move_if_our_turn(send);
            }
            Err(e) => self.error(&format!("opmove: {e}"), send),
        }
    }

    /// Plays our move when it is our turn and the game goes on.
    fn move_if_our_turn(&mut self, send: &mut dyn FnMut(EngineReply)) {
        let side = self.side.unwrap_or(Side::Black);
        let Some(game) = &self.game else { return };
        if game.pos.to_move() != side || self.rules.outcome(&game.pos).is_some() {
            return;
        }
        let pos = game.pos.clone();
        let started = Instant::now();
        let Some((m, score)) = self.choose(&pos) else {
            self.log("no move to play: resigning");
            send(EngineReply::Resign(Some("no legal move".into())));
            return;
        };
        let text = atsi::atsi_move(&self.rules, &pos, &m);
        let game = self.game.as_mut().expect("a game");
        self.rules.play_unchecked(&mut game.pos, &m);
        if let Some((ours, _)) = &mut game.clocks {
            *ours -= started.elapsed().as_secs_f64();
        }
        send(EngineReply::Move(text));
        self.summary.borrow_mut().moves += 1;
        if let Some(score) = score {
            let absolute = if side == Side::Black { score } else { -score };
            send(EngineReply::Eval(absolute as f64));
        }
    }

    /// The move to play and, for a search, its score for the side to move.
    fn choose(&mut self, pos: &Position) -> Option<(Move, Option<i32>)> {
        let s = &self.settings;
        let seed = s.seed;
        let safe = s
            .host_safe
            .then(|| self.host.judged_moves(&self.rules, pos));
        if safe.as_ref().is_some_and(Vec::is_empty) {
            self.log("atsa_host_safe: no move ATSA's host can judge; playing any move");
        }
        let allowed = safe.filter(|m| !m.is_empty());
        let fits = |m: &Move| allowed.as_ref().is_none_or(|a| a.contains(m));
        match self.settings.policy {
            Policy::Random => match &allowed {
                Some(a) => Some((
                    a[taikyoku_search::rng::Rng(seed ^ pos.hash()).below(a.len())],
                    None,
                )),
                None => players::random_move(&self.rules, pos, seed).map(|m| (m, None)),
            },
            Policy::Greedy => match players::greedy_move(&self.rules, pos, seed) {
                Some(m) if fits(&m) => Some((m, None)),
                Some(_) => self.search(pos, allowed, Some(1)),
                None => None,
            },
            Policy::Search => self.search(pos, allowed, None),
        }
    }

    fn search(
        &mut self,
        pos: &Position,
        root_moves: Option<Vec<Move>>,
        depth: Option<u32>,
    ) -> Option<(Move, Option<i32>)> {
        let s = self.settings.clone();
        let clock = self.clock();
        let limits = Limits {
            depth: depth.or(s.depth),
            nodes: s.nodes,
            movetime: s.movetime.or_else(|| {
                (s.depth.is_none() && s.nodes.is_none() && clock.is_none())
                    .then_some(DEFAULT_MOVETIME)
            }),
            clock,
            root_moves,
        };
        let stop = self.stop.clone();
        let result = self.computer().think(pos, &limits, &stop, &mut |_| {});
        self.log(&format!(
            "depth {} score {} nodes {} in {:.2} s",
            result.depth,
            result.score,
            result.nodes,
            result.elapsed.as_secs_f64()
        ));
        result.best.map(|m| (m, Some(result.score)))
    }

    /// The clock the time manager reads: ours and the opponent's as the host last said.
    fn clock(&self) -> Option<Clock> {
        let (base, increment) = self.time?;
        let (ours, theirs) = self.game.as_ref()?.clocks.unwrap_or((base, base));
        let secs = |s: f64| Duration::from_secs_f64(s.clamp(0.0, 1e7));
        Some(Clock {
            remaining: secs(ours),
            increment: secs(increment),
            opponent: Some(secs(theirs)),
        })
    }

    fn computer(&mut self) -> &mut Computer {
        let s = &self.settings;
        let opts = SearchOptions {
            hash_mb: s.hash,
            threads: s.threads,
            seed: s.seed,
        };
        let weights = s.weights;
        self.computer.get_or_insert_with(|| {
            let mut computer = Computer::new(self.rules.clone(), opts);
            computer.set_weights(weights);
            computer
        })
    }

    /// The evaluation of a position for the first player (a short search).
    fn score(&mut self, pos: &Position) -> i32 {
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let r = self
            .computer()
            .think(pos, &limits, &Stop::default(), &mut |_| {});
        if pos.to_move() == Side::Black {
            r.score
        } else {
            -r.score
        }
    }
}

/// The time a move takes when neither a clock nor a limit is given.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(2);

/// Runs `taikyoku engine`.
pub fn run(rules: Rules, args: &EngineArgs) -> Result<(), String> {
    let settings = Settings::from_args(args)?;
    let rules = Arc::new(rules);
    match &args.listen {
        Some(addr) => listen(rules, settings, addr, args.allow_remote),
        None => stdio(rules, settings).map_err(|e| format!("stdin/stdout: {e}")),
    }
}

/// Reads a line of at most [`MAX_MESSAGE`] bytes; a longer one is skipped to its end and
/// reported as an error, so a host cannot make the engine hold unbounded input.
fn read_line(r: &mut impl BufRead) -> std::io::Result<Option<Result<String, String>>> {
    let mut buf = Vec::new();
    let mut too_long = false;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            if buf.is_empty() && !too_long {
                return Ok(None);
            }
            break;
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long && buf.len() + take <= MAX_MESSAGE + 1 {
            buf.extend_from_slice(&chunk[..take]);
        } else {
            too_long = true;
            buf.clear();
        }
        r.consume(take);
        if done {
            break;
        }
    }
    if too_long {
        return Ok(Some(Err(format!(
            "a line longer than {MAX_MESSAGE} bytes: ignored"
        ))));
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(Some(String::from_utf8(buf).map_err(|_| {
        "a line that is not UTF-8: ignored".to_string()
    })))
}

/// The engine on stdin/stdout. A reader thread passes the lines on and stops a search when
/// the host ends the game or the session.
fn stdio(rules: Arc<Rules>, settings: Settings) -> std::io::Result<()> {
    let stop = Stop::default();
    let (tx, rx) = mpsc::channel();
    let reader_stop = stop.clone();
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        loop {
            let line = read_line(&mut input).unwrap_or(None);
            let ends = match &line {
                None => true,
                Some(Ok(l)) => {
                    let word = l.split_whitespace().next().unwrap_or("");
                    matches!(word, "quit" | "win" | "loss" | "draw" | "startgame")
                }
                Some(Err(_)) => false,
            };
            if ends {
                reader_stop.raise();
            }
            let eof = line.is_none();
            if tx.send(line).is_err() || eof {
                break;
            }
        }
    });
    let mut session = Session::new(rules, settings, stop, SessionLog::Lines);
    let mut out = std::io::stdout().lock();
    let mut failed = None;
    while let Ok(Some(line)) = rx.recv() {
        let mut send = |r: EngineReply| {
            if failed.is_none() {
                failed = writeln!(out, "{}", r.to_line())
                    .and_then(|()| out.flush())
                    .err();
            }
        };
        let flow = match line {
            Ok(l) => session.handle(&l, &mut send),
            Err(e) => {
                session.error(&e, &mut send);
                Flow::Continue
            }
        };
        if let Some(e) = failed.take() {
            return Err(e);
        }
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(())
}

/// Resolves `--listen`'s address, refusing one off the loopback unless allowed.
fn listen_addr(addr: &str, allow_remote: bool) -> Result<SocketAddr, String> {
    let a = addr
        .to_socket_addrs()
        .map_err(|e| {
            format!("--listen {addr}: {e} (expected ADDRESS:PORT, such as 127.0.0.1:8080)")
        })?
        .next()
        .ok_or_else(|| format!("--listen {addr}: no address"))?;
    if !a.ip().is_loopback() && !allow_remote {
        return Err(format!(
            "--listen {addr}: not a loopback address; anyone who can reach it could play the \
             engine (add --allow-remote to mean it)"
        ));
    }
    Ok(a)
}

/// Serves ATSI over WebSocket, one game at a time: a connection while one is served is told
/// it is busy and closed.
fn listen(
    rules: Arc<Rules>,
    settings: Settings,
    addr: &str,
    allow_remote: bool,
) -> Result<(), String> {
    let addr = listen_addr(addr, allow_remote)?;
    let listener = TcpListener::bind(addr).map_err(|e| format!("--listen {addr}: {e}"))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
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
        let _ = ws.send(tungstenite::Message::text(busy.to_line()));
        let _ = ws.close(None);
        let _ = ws.flush();
    }
}

/// Plays one connection's session; sums it up in one line (what it did, how it ended).
fn serve(stream: TcpStream, mut session: Session) -> String {
    let ended = play_connection(stream, &mut session);
    match ended {
        Err(e) => e,
        Ok(how) => format!("{}; {how}", session.summary.borrow().line()),
    }
}

/// The connection's messages until it ends: how it ended, or why it never began.
fn play_connection(stream: TcpStream, session: &mut Session) -> Result<String, String> {
    let _ = stream.set_nodelay(true);
    let mut ws = match tungstenite::accept_with_config(stream, Some(ws_config())) {
        Ok(ws) => ws,
        Err(e) => return Err(format!("not a WebSocket handshake: {e}")),
    };
    loop {
        let mut replies = Vec::new();
        let mut flow = Flow::Continue;
        match ws.read() {
            Ok(tungstenite::Message::Text(text)) => {
                for line in text.lines() {
                    flow = session.handle(line, &mut |r| replies.push(r));
                    if flow == Flow::Quit {
                        break;
                    }
                }
            }
            Ok(tungstenite::Message::Binary(_)) => session.error(
                "a binary message: ATSI messages are text; ignored",
                &mut |r| replies.push(r),
            ),
            Ok(tungstenite::Message::Close(_)) => return Ok("closed by the host".into()),
            Ok(_) => continue,
            Err(e) => return Ok(format!("connection ended: {e}")),
        }
        for r in replies {
            if let Err(e) = ws.send(tungstenite::Message::text(r.to_line())) {
                return Ok(format!("connection ended: {e}"));
            }
        }
        if flow == Flow::Quit {
            let _ = ws.close(None);
            let _ = ws.flush();
            return Ok("quit".into());
        }
    }
}

//! Replaying a record: stepping through its moves, going to any move, and playing the moves by
//! themselves. Automatic play runs on a timer thread that posts a message for every move, so
//! the game never waits in a busy loop and keys stay answered at once.

use super::component::{Component, Context, Reply};
use super::keys::{Action, Keymap};
use super::msg::Msg;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;
use taikyoku_records::history::History;

/// The replay component.
#[derive(Debug)]
pub struct Replay {
    /// Time between moves when playing automatically.
    pub interval: Duration,
    autoplay: Option<Autoplay>,
}

/// A running automatic replay: its timer thread stops when `stop` is set (or the game is gone).
#[derive(Debug)]
struct Autoplay {
    stop: Arc<AtomicBool>,
    interval_ms: Arc<AtomicU64>,
}

impl Drop for Autoplay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Autoplay {
    /// Starts the timer: without a channel (in tests) nothing posts, and steps come by hand.
    fn start(interval: Duration, tx: Option<&Sender<Msg>>) -> Autoplay {
        let stop = Arc::new(AtomicBool::new(false));
        let interval_ms = Arc::new(AtomicU64::new(interval.as_millis() as u64));
        if let Some(tx) = tx.cloned() {
            let (stop, interval_ms) = (stop.clone(), interval_ms.clone());
            std::thread::spawn(move || {
                loop {
                    std::thread::sleep(Duration::from_millis(interval_ms.load(Ordering::Relaxed)));
                    if stop.load(Ordering::Relaxed) || tx.send(Msg::AutoplayStep).is_err() {
                        break;
                    }
                }
            });
        }
        Autoplay { stop, interval_ms }
    }
}

impl Default for Replay {
    fn default() -> Replay {
        Replay {
            interval: Duration::from_millis(800),
            autoplay: None,
        }
    }
}

impl Replay {
    /// Whether the moves are playing by themselves.
    pub fn playing(&self) -> bool {
        self.autoplay.is_some()
    }

    /// The replay's part of an action; `None` for the others.
    fn act(&mut self, a: Action, h: &History, tx: Option<&Sender<Msg>>) -> Option<Msg> {
        let (point, n) = (h.point(), h.line().len());
        Some(match a {
            Action::ReplayPrev => Msg::Show(point.saturating_sub(1)),
            Action::ReplayNext => Msg::Show(point + 1),
            Action::ReplayStart => Msg::Show(0),
            Action::ReplayEnd => Msg::Show(n),
            Action::Autoplay => {
                if self.autoplay.take().is_some() {
                    Msg::say("Stopped.")
                } else {
                    self.autoplay = Some(Autoplay::start(self.interval, tx));
                    Msg::say("Playing the moves.")
                }
            }
            Action::Faster | Action::Slower => {
                let ms = self.interval.as_millis() as u64;
                let ms = if a == Action::Faster {
                    (ms / 2).max(50)
                } else {
                    (ms * 2).min(8000)
                };
                self.interval = Duration::from_millis(ms);
                if let Some(p) = &self.autoplay {
                    p.interval_ms.store(ms, Ordering::Relaxed);
                }
                Msg::Say(format!("A move every {:.2} s.", ms as f64 / 1000.0))
            }
            _ => return None,
        })
    }

    /// The next move of an automatic replay, or the end of it.
    fn step(&mut self, h: &History) -> Option<Msg> {
        self.autoplay.as_ref()?;
        if h.point() + 1 >= h.line().len() {
            self.autoplay = None;
        }
        (h.point() < h.line().len()).then(|| Msg::Show(h.point() + 1))
    }

    /// "Move 3 of 40: …", for the status line.
    pub fn position_text(h: &History) -> String {
        let n = h.line().len();
        match h.last() {
            Some(p) => format!("Move {} of {n}: {}.", h.point(), p.text),
            None => format!("The start, before move 1 of {n}."),
        }
    }

    /// The line shown when a replay opens.
    pub fn welcome(h: &History, keys: &Keymap) -> String {
        format!(
            "Replay of {}: {} on, {} back, {} autoplay, {} play on from here.",
            super::text::count(h.line().len(), "move"),
            keys.keys_of(Action::ReplayNext),
            keys.keys_of(Action::ReplayPrev),
            keys.keys_of(Action::Autoplay),
            keys.keys_of(Action::Branch)
        )
    }
}

impl Component for Replay {
    /// Its actions (steps, jumps, autoplay and its speed) and its timer's steps.
    fn handle(&mut self, msg: &Msg, cx: &Context) -> Reply {
        match msg {
            Msg::Act(a) => self
                .act(*a, cx.history, cx.tx)
                .map_or(Reply::Pass, |m| Reply::Done(Some(m))),
            Msg::AutoplayStep => Reply::Done(self.step(cx.history)),
            _ => Reply::Pass,
        }
    }
}

//! The process groups of the running engines, for Ctrl-C: each engine runs in a group of its
//! own (so a signal to the host does not reach it), and the host kills them all when it is
//! interrupted. Async-signal-safe: atomics and kill(2) only.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The process groups of the engines running now, for [`interrupt`] to kill: a fixed table
/// of atomics, which a signal handler may read (a lock it may not take).
static RUNNING: [AtomicI32; 256] = [const { AtomicI32::new(0) }; 256];
/// Set once the host is interrupted: no engine starts or is written to after it.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Notes an engine's process group in [`RUNNING`]; false if the host was interrupted (the
/// caller then stops it).
pub(super) fn register(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return !interrupted();
    };
    // A full table only means this engine is not killed by a signal (its drop still is).
    let _ = RUNNING.iter().find(|slot| {
        slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    });
    !interrupted()
}

pub(super) fn unregister(pid: u32) {
    if let Ok(pid) = i32::try_from(pid) {
        RUNNING.iter().for_each(|slot| {
            let _ = slot.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
        });
    }
}

/// Whether the host was interrupted (every engine then fails with [`HostError::Interrupted`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Kills every running engine's process group and stops new ones: for Ctrl-C, whose signal
/// does not reach the engines (each runs in a process group of its own). Async-signal-safe:
/// atomics and kill(2) only.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    for slot in &RUNNING {
        let pid = slot.load(Ordering::SeqCst);
        if pid > 0 {
            // SAFETY: kill(2) with a negative pid signals the engine's own process group
            // (made at its spawn), nothing else; an error (the group is gone) is harmless.
            #[cfg(unix)]
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
}

/// Makes Ctrl-C (SIGINT), SIGTERM and SIGHUP call [`interrupt`] once; a second signal acts
/// as usual (ends the host at once).
pub fn interrupt_on_signals() {
    #[cfg(unix)]
    {
        extern "C" fn on_signal(_: libc::c_int) {
            interrupt();
        }
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: installs a handler that only touches atomics and calls kill(2), both
            // async-signal-safe; SA_RESETHAND restores the default after the first signal.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
                action.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }
}

/// Kills an engine's process group (made at its spawn, its id the engine's pid) and whatever
/// its shell started; an error (the group is gone) is harmless. For the terminal game too,
/// which kills an engine that thinks while the player takes a move back.
pub fn kill_group(pid: u32) {
    #[cfg(unix)]
    if let Ok(pgid) = libc::pid_t::try_from(pid)
        && pgid > 0
    {
        // SAFETY: kill(2) with a negative pid signals the engine's own process group (made
        // at its spawn), nothing else; an error (the group is gone) is harmless.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

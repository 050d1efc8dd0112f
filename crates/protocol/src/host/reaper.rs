//! What an engine started outside its process group (`setsid`, a double fork) is ended with
//! it. The host is made a child subreaper (Linux's `PR_SET_CHILD_SUBREAPER`), so such an
//! orphan is reparented to the host instead of init; every process an engine starts
//! inherits a tag in its environment ([`TAG_VARIABLE`], one value per engine); ending the
//! engine kills the processes that carry its tag, and their descendants, and reaps those
//! that became the host's children. Elsewhere than Linux only the process group is killed.

use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable that tags an engine's processes.
pub(super) const TAG_VARIABLE: &str = "TAIKYOKU_ENGINE_TAG";

/// A tag no other engine of this host (or of another host) carries.
pub(super) fn new_tag() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    format!("{}-{n}", std::process::id())
}

/// Makes the host the reaper of its orphaned descendants (once).
pub(super) fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        // SAFETY: prctl(2) with PR_SET_CHILD_SUBREAPER takes one integer argument and
        // changes only which process adopts this one's orphans.
        ONCE.call_once(|| unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0);
        });
    }
}

/// The processes that carry `tag`, and their descendants, but `engine` (the engine's own
/// shell, which the host waits for itself): to be found before the engine's group is
/// killed, so that those the kill turns into the host's dead children are reaped.
pub(super) fn tagged(tag: &str, engine: u32) -> Vec<i32> {
    #[cfg(target_os = "linux")]
    {
        let mut found = linux::tagged_and_descendants(&format!("{TAG_VARIABLE}={tag}"));
        found.retain(|&p| p != engine as i32);
        found
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (tag, engine);
        Vec::new()
    }
}

/// Kills `known` and every process that still carries `tag` (and their descendants), but
/// `engine`, and reaps those that are the host's children, for up to about half a second
/// (killing one can orphan others).
pub(super) fn end_tagged(tag: &str, engine: u32, mut known: Vec<i32>) {
    #[cfg(target_os = "linux")]
    for _ in 0..50 {
        let found = tagged(tag, engine);
        for &pid in known.iter().chain(&found) {
            // SAFETY: kill(2) of a process that carries this engine's tag (or descends from
            // one); an error (it is gone) is harmless.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        known.extend(
            found
                .iter()
                .filter(|p| !known.contains(p))
                .collect::<Vec<_>>(),
        );
        known.retain(|&pid| !linux::reaped_or_gone(pid));
        if found.is_empty() && known.is_empty() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (tag, engine, known);
}

#[cfg(target_os = "linux")]
mod linux {
    use std::collections::HashSet;

    /// Every live process: its pid and its parent's.
    fn processes() -> Vec<(i32, i32)> {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
            .filter_map(|pid| {
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                // `pid (comm) state ppid …`: the name may hold spaces and parentheses.
                let mut rest = stat.rsplit_once(')')?.1.split_whitespace();
                let state = rest.next()?;
                let ppid = rest.next()?.parse().ok()?;
                (state != "Z").then_some((pid, ppid))
            })
            .collect()
    }

    /// Whether `pid`'s environment holds `needle` (`NAME=value`).
    fn carries(pid: i32, needle: &str) -> bool {
        std::fs::read(format!("/proc/{pid}/environ"))
            .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == needle.as_bytes()))
    }

    /// The live processes that carry `needle`, and their live descendants.
    pub(super) fn tagged_and_descendants(needle: &str) -> Vec<i32> {
        let all = processes();
        let mut found: HashSet<i32> = all
            .iter()
            .filter(|&&(pid, _)| pid != std::process::id() as i32 && carries(pid, needle))
            .map(|&(pid, _)| pid)
            .collect();
        loop {
            let before = found.len();
            let children: Vec<i32> = (all.iter())
                .filter(|(pid, ppid)| found.contains(ppid) && !found.contains(pid))
                .map(|&(pid, _)| pid)
                .collect();
            found.extend(children);
            if found.len() == before {
                return found.into_iter().collect();
            }
        }
    }

    /// Reaps `pid` if it is a dead child of the host; whether it is reaped or gone (a dead
    /// process of another parent is left to that parent, or to the host once it is orphaned).
    pub(super) fn reaped_or_gone(pid: i32) -> bool {
        let mut status = 0;
        // SAFETY: waitpid(2) on one pid this host killed, without blocking.
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        r == pid || r < 0 && !std::path::Path::new(&format!("/proc/{pid}")).exists()
    }
}

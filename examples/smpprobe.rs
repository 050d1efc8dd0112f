use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use taikyoku::rules::Rules;
use taikyoku::search::{self, Limits, SearchOptions, Searcher};

fn cpu(who: i32) -> f64 {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(who, &mut u) };
    u.ru_utime.tv_sec as f64
        + u.ru_utime.tv_usec as f64 / 1e6
        + u.ru_stime.tv_sec as f64
        + u.ru_stime.tv_usec as f64 / 1e6
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args[1].parse().unwrap();
    let plies: u64 = args[2].parse().unwrap();
    let threads: usize = args[3].parse().unwrap();
    let r = Arc::new(Rules::builtin("taikyoku", "wikipedia").unwrap());
    let mut p = r.start_position();
    for s in 0..plies {
        match search::random_move(&r, &p, s) {
            Some(m) => r.play_unchecked(&mut p, &m),
            None => break,
        }
    }
    for _ in 0..2 {
        let mut s = Searcher::new(
            r.clone(),
            SearchOptions {
                hash_mb: 16,
                threads,
                seed: 1,
            },
        );
        let (t0, c0, p0) = (
            Instant::now(),
            cpu(libc::RUSAGE_THREAD),
            cpu(libc::RUSAGE_SELF),
        );
        let res = s.search(
            &p,
            &Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            &AtomicBool::new(false),
            &mut |_| {},
        );
        println!(
            "depth {depth} plies {plies} threads {threads}: wall {:.3} main-cpu {:.3} process-cpu {:.3} nodes {}",
            t0.elapsed().as_secs_f64(),
            cpu(libc::RUSAGE_THREAD) - c0,
            cpu(libc::RUSAGE_SELF) - p0,
            res.nodes
        );
    }
}

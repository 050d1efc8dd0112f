use taikyoku::rules::{Game, Rules};
fn main() {
    let game = match Game::taikyoku() { Ok(g) => g, Err(e) => { eprintln!("{e}"); std::process::exit(1) } };
    for rs in ["wikipedia", "umebayashi", "atsa"] {
        let rules = match Rules::new(game.clone(), rs) { Ok(r) => r, Err(e) => { eprintln!("{e}"); continue } };
        let pos = rules.start_position();
        let t = std::time::Instant::now();
        let n1 = rules.perft(&pos, 1);
        let n2 = rules.perft(&pos, 2);
        println!("{rs}: pieces {} perft1 {n1} perft2 {n2} in {:?}", pos.pieces().count(), t.elapsed());
    }
}

//! A full redraw of the terminal game at 240×70 (target: at most 2 ms), into a buffer.
//! Run with `cargo bench --bench redraw`.

// The game lives in the binary; the benchmark compiles its modules in directly.
#[allow(dead_code, unused_imports)]
#[path = "../src/analysis.rs"]
mod analysis;
#[allow(dead_code, unused_imports)]
#[path = "../src/atsi_engine.rs"]
mod atsi_engine;
#[allow(dead_code, unused_imports)]
#[path = "../src/cli.rs"]
mod cli;
#[allow(dead_code, unused_imports)]
#[path = "../src/engine_match.rs"]
mod engine_match;
#[allow(dead_code, unused_imports)]
#[path = "../src/text.rs"]
mod text;
#[allow(dead_code, unused_imports)]
#[path = "../src/tui/mod.rs"]
mod tui;

use divan::Bencher;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taikyoku_core::game::Game;
use taikyoku_core::rules::Rules;
use tui::app::App;
use tui::keys::{Action, Keymap};
use tui::msg::Msg;
use tui::theme::Theme;

fn main() {
    divan::main();
}

fn app(zoom: usize) -> App {
    let rules = Rules::new(Game::builtin("taikyoku").expect("data"), "wikipedia").expect("rules");
    let start = rules.start_position();
    let mut app = App::new(
        rules,
        start,
        Keymap::default(),
        Theme::default_theme(),
        false,
    );
    app.board.view.zoom = zoom;
    app.layout(Rect::new(0, 0, 240, 70));
    // Cursor on a pawn, whose move is shown.
    app.board.cursor = (17, 10);
    app.board.refresh_overlay(&app.session.history);
    app
}

#[divan::bench(args = [0, 1, 2])]
fn full_redraw_240x70(bencher: Bencher, zoom: usize) {
    let app = app(zoom);
    let area = Rect::new(0, 0, 240, 70);
    let mut buf = Buffer::empty(area);
    bencher.bench_local(|| {
        buf.reset();
        tui::view::draw(divan::black_box(&app), area, &mut buf);
    });
}

/// Moving the cursor between two pawns: the overlay of the piece under it is computed,
/// nothing else.
#[divan::bench]
fn cursor_step(bencher: Bencher) {
    let mut app = app(1);
    bencher.bench_local(|| {
        app.update(Msg::Act(Action::Right));
        app.update(Msg::Act(Action::Left));
    });
}

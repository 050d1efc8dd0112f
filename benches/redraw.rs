//! A full redraw of the terminal game at 240×70 (target: at most 2 ms), into a buffer; also
//! with the analysis line on.
//! Run with `cargo bench --bench redraw`.

use divan::Bencher;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use taikyoku::tui::analysis::{Line, line_text};
use taikyoku::tui::app::App;
use taikyoku::tui::keys::{Action, Keymap};
use taikyoku::tui::msg::Msg;
use taikyoku::tui::theme::Theme;
use taikyoku_core::game::Game;
use taikyoku_core::rules::Rules;

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
        divan::black_box(&app).render(area, &mut buf);
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

/// With the analysis line on (a line of twelve moves, as a search posts it) beside the move
/// list and the tally, at the default zoom.
#[divan::bench]
fn full_redraw_240x70_analysis_on(bencher: Bencher) {
    let mut app = app(1);
    app.update(Msg::Act(Action::Analysis));
    let h = &app.session.history;
    let pos = h.position().clone();
    let rules = h.rules();
    let mut pv = Vec::new();
    let mut p = pos.clone();
    for _ in 0..12 {
        let Some(m) = rules.legal_moves(&p).into_iter().next() else {
            break;
        };
        rules.play_unchecked(&mut p, &m);
        pv.push(m);
    }
    app.analysis.line = Some(Line {
        depth: 7,
        score: 35,
        side: pos.to_move(),
        moves: line_text(rules, &pos, &pv),
        nodes: 1_234_567,
        done: false,
    });
    let area = Rect::new(0, 0, 240, 70);
    app.layout(area);
    let mut buf = Buffer::empty(area);
    bencher.bench_local(|| {
        buf.reset();
        divan::black_box(&app).render(area, &mut buf);
    });
}

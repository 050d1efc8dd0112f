//! The layout: where each component goes on the screen, and the whole screen drawn by them.

use super::app::App;
use super::board::Geometry;
use super::panels::{Minimap, MoveList};
use super::status;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// The smallest terminal the game draws in.
pub const MIN_WIDTH: u16 = 72;
pub const MIN_HEIGHT: u16 = 20;
const PANEL_WIDTH: u16 = 40;

/// The overlay glyphs, for the legend and the help.
pub const LEGEND: &str = "o move (on a piece: its way back)   * jump   x capture   ! taken on the way   # removed by range capture   + promotes   @ a multi-leg move can pass here   ~ taken by the last move   & royal that can be taken   ^ Black  v White   underlined = promoted";

/// Where the board and the panels go in `area`; the board part of it is what the mouse needs.
pub struct Areas {
    pub board: Rect,
    pub card: Rect,
    pub minimap: Option<Rect>,
    pub moves: Option<Rect>,
    pub status: Rect,
    pub hint: Rect,
}

pub fn areas(area: Rect) -> Areas {
    let [main, status, hint] = Layout::vertical([
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let [board, panel] =
        Layout::horizontal([Constraint::Min(1), Constraint::Length(PANEL_WIDTH)]).areas(main);
    let (card, minimap, moves) = if panel.height >= 42 {
        let [c, m, l] = Layout::vertical([
            Constraint::Min(10),
            Constraint::Length(20),
            Constraint::Length(10),
        ])
        .areas(panel);
        (c, Some(m), Some(l))
    } else if panel.height >= 30 {
        let [c, m] = Layout::vertical([Constraint::Min(10), Constraint::Length(20)]).areas(panel);
        (c, Some(m), None)
    } else {
        (panel, None, None)
    };
    Areas {
        board,
        card,
        minimap,
        moves,
        status,
        hint,
    }
}

/// The board geometry for a terminal of `area` at the app's zoom.
pub fn geometry(app: &App, area: Rect) -> Geometry {
    app.board.geometry(app.board.fit(areas(area).board))
}

/// Draws the whole screen.
pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let msg = format!(
            "The terminal is {}×{}; the board needs at least {}×{}. Make it larger (or press q to quit).",
            area.width, area.height, MIN_WIDTH, MIN_HEIGHT
        );
        Paragraph::new(msg)
            .wrap(Wrap { trim: true })
            .render(area, buf);
        return;
    }
    let (h, t) = (app.history(), &app.theme);
    let a = areas(area);
    app.board.draw(h, t, app.board.fit(a.board), buf);
    app.card.draw(h, &app.board, t, a.card, buf);
    if let Some(m) = a.minimap {
        Minimap::draw(h, &app.board, t, m, buf);
    }
    if let Some(m) = a.moves {
        MoveList::draw(h, app.replay.as_ref(), t, m, buf);
    }
    app.status.draw(h, app.dialog.as_ref(), t, a.status, buf);
    status::draw_hint(&app.keymap, app.replay.is_some(), t, a.hint, buf);
    if let Some(d) = &app.dialog {
        d.draw(&app.keymap, t, area, buf);
    }
}

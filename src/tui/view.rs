//! The layout: where each component goes on the screen, and the whole screen drawn by them.
//! The side panel takes the width the board does not need (at least [`PANEL_WIDTH`]), can be
//! narrowed or hidden, and stacks the card, the minimap (only when the board does not fit) and
//! the move list; when they do not all fit, the one in front comes first and the move list
//! keeps a few rows wherever it can.

use super::app::App;
use super::board::{BoardWidget, Geometry};
use super::dialogs::DialogWidget;
use super::panels::{CardWidget, MinimapWidget, PanelWidth, Section};
use super::status::StatusWidget;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use taikyoku_core::geometry::Side;

/// The smallest terminal the game draws in.
pub const MIN_WIDTH: u16 = 72;
pub const MIN_HEIGHT: u16 = 20;
/// The side panel's usual width, and its width when narrowed.
pub const PANEL_WIDTH: u16 = 40;
const NARROW_WIDTH: u16 = 28;
/// The widest the panel grows on a wide terminal.
const MAX_PANEL_WIDTH: u16 = 90;
/// The fewest rows each part of the panel is shown with.
const CARD_MIN: u16 = 10;
const MOVES_MIN: u16 = 5;
const MOVES_WANT: u16 = 10;

/// Where the board and the panels go in `area`; the board part of it is what the mouse needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Areas {
    pub board: Rect,
    pub card: Option<Rect>,
    pub minimap: Option<Rect>,
    pub moves: Option<Rect>,
    pub status: Rect,
    pub hint: Rect,
}

/// The layout of a terminal of `area`.
pub fn areas(app: &App, area: Rect) -> Areas {
    let [main, status, hint] = Layout::vertical([
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let need = app.board.full_size();
    let width = match app.panel.layout.width {
        PanelWidth::Hidden => 0,
        PanelWidth::Narrow => NARROW_WIDTH,
        // The width the board leaves; narrower than usual if that lets the whole board show.
        PanelWidth::Auto => match main.width.saturating_sub(need.0) {
            spare if spare >= PANEL_WIDTH => spare.min(MAX_PANEL_WIDTH),
            spare if spare >= NARROW_WIDTH => spare,
            _ => PANEL_WIDTH,
        },
    }
    .min(main.width / 2);
    let [board, panel] =
        Layout::horizontal([Constraint::Min(1), Constraint::Length(width)]).areas(main);
    let board_fits = board.width >= need.0 && board.height >= need.1;
    let minimap_rows = app.board.minimap_rows() + 2;
    let want = MOVES_WANT + super::study::rows_wanted(app);
    let rows = (minimap_rows, want);
    let [card, minimap, moves] = stack(app.panel.layout.front, panel, rows, board_fits);
    Areas {
        board,
        card,
        minimap,
        moves,
        status,
        hint,
    }
}

/// The panel's parts, top to bottom: card, minimap, moves. The part in front is shown first,
/// then the others in turn while their fewest rows fit; the card (else the move list) takes
/// the rows left, but half of them go to the move list until it has `moves_want` (with the
/// study's boxes beside the moves: [`super::study`]).
fn stack(
    front: Section,
    panel: Rect,
    (minimap_rows, moves_want): (u16, u16),
    board_fits: bool,
) -> [Option<Rect>; 3] {
    if panel.width == 0 {
        return [None; 3];
    }
    let least = |s: Section| match s {
        Section::Card => CARD_MIN,
        Section::Minimap => minimap_rows,
        Section::Moves => MOVES_MIN,
    };
    let order = std::iter::once(front).chain(Section::ALL.into_iter().filter(|&s| s != front));
    let mut shown = [false; 3];
    let mut used = 0;
    for s in order {
        // The minimap is for a board that does not fit, unless the player asks for it.
        if s == Section::Minimap && board_fits && front != Section::Minimap {
            continue;
        }
        if used + least(s) <= panel.height || s == front {
            shown[s as usize] = true;
            used += least(s);
        }
    }
    let grows = if shown[0] && front != Section::Moves {
        Section::Card
    } else {
        Section::Moves
    };
    let spare = panel.height.saturating_sub(used);
    let moves_extra = if shown[Section::Moves as usize] && grows != Section::Moves {
        (moves_want - MOVES_MIN).min(spare / 2)
    } else {
        0
    };
    let rows = |s: Section| match s {
        _ if s == grows => least(s) + spare - moves_extra,
        Section::Moves => least(s) + moves_extra,
        _ => least(s),
    };
    let mut out = [None; 3];
    let mut y = panel.y;
    for s in Section::ALL {
        if shown[s as usize] {
            let h = rows(s).min(panel.bottom().saturating_sub(y));
            out[s as usize] = Some(Rect::new(panel.x, y, panel.width, h));
            y += h;
        }
    }
    out
}

/// The board geometry for a terminal of `area` at the app's zoom.
pub fn geometry(app: &App, area: Rect) -> Geometry {
    app.board.geometry(app.board.fit(areas(app, area).board))
}

/// The whole screen, drawn by the components' widgets.
impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
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
        let (board, history, theme) = (&self.board, self.history(), &self.theme);
        let a = areas(self, area);
        let at = board.fit(a.board);
        BoardWidget {
            board,
            history,
            theme,
        }
        .render(at, buf);
        draw_panels(self, &a, buf);
        let replay = self.replay.is_some();
        let left = Side::BOTH.map(|s| self.players.time_left(s, history).filter(|_| !replay));
        StatusWidget {
            status: &self.status,
            history,
            left,
            dialog: self.dialog.as_ref(),
            keymap: &self.keymap,
            players: &self.players,
            replay,
            theme,
        }
        .render(a.status.union(a.hint), buf);
        if let Some(dialog) = &self.dialog {
            // Over the board and panels, never over the status and hint lines.
            let over = Rect {
                height: area.height.saturating_sub(2),
                ..area
            };
            let keymap = &self.keymap;
            DialogWidget {
                dialog,
                keymap,
                theme,
            }
            .render(over, buf);
        }
    }
}

/// The side panel's parts that have room: the card, the minimap, the move list.
fn draw_panels(app: &App, a: &Areas, buf: &mut Buffer) {
    let (board, history, theme) = (&app.board, app.history(), &app.theme);
    if let Some(at) = a.card {
        let card = &app.panel.card;
        CardWidget {
            card,
            board,
            history,
            theme,
        }
        .render(at, buf);
    }
    if let Some(at) = a.minimap {
        MinimapWidget {
            board,
            history,
            theme,
        }
        .render(at, buf);
    }
    if let Some(at) = a.moves {
        super::study::render(app, at, buf);
    }
}

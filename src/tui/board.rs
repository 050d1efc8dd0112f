//! The board: the viewport onto the 36×36 squares, the cursor, the piece being moved leg by
//! leg, and the move marks. It turns cursor, selection and view keys into changes of its own
//! and into messages (a move to play, a question to ask, a line for the status bar).

use super::component::{Component, Context, Reply};
use super::dialogs::PromptKind;
use super::keys::{Action, Keymap};
use super::msg::Msg;
use super::preview;
use super::selection::{self, Selection};
use super::text::capital;
use super::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;
use taikyoku_core::catalogue::{Catalogue, KindId, Lookup};
use taikyoku_core::geometry::{Dims, Side, Square};
use taikyoku_core::moves::Move;
use taikyoku_core::notation;
use taikyoku_core::piece::Piece;
use taikyoku_core::reach::{self, Held, mark};
use taikyoku_records::history::History;
use unicode_width::UnicodeWidthStr;

/// Square widths in terminal cells at each zoom level.
pub const ZOOM_WIDTHS: [u16; 3] = [3, 5, 7];
/// The narrowest square in ASCII mode: a mark, a code of up to three letters, a blank.
const ASCII_WIDTH: u16 = 5;
/// Columns left of the squares for the rank labels.
const RANK_LABEL: u16 = 4;

/// How the board is shown.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub zoom: usize,
    pub flipped: bool,
    /// Turn the board to the side to move after every move.
    pub follow: bool,
    pub ascii: bool,
    /// The first board column and row (in screen orientation) in the viewport.
    pub scroll: (i32, i32),
}

/// Where things are on screen, from the last layout (for the mouse and for scrolling).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Geometry {
    /// Board squares area: left, top, visible columns and rows.
    pub left: u16,
    pub top: u16,
    pub cols: i32,
    pub rows: i32,
    pub cell_w: u16,
}

/// The board component.
pub struct Board {
    dims: Dims,
    pub cursor: (i32, i32),
    pub view: View,
    pub selection: Option<Selection>,
    /// Overlay flags per square for the piece under the cursor (or the selection).
    pub overlay: Vec<u16>,
    /// The kind shown in the side panel when no piece is under the cursor (after a find).
    pub inspect: Option<KindId>,
    pub geom: Geometry,
    /// The side to move's royal pieces the opponent could take next, each with a piece that
    /// could take it (worked out after every change of position).
    pub danger: Vec<(Square, Square)>,
    /// Pieces an enemy aura holds (frozen by a net, silenced by a fog), worked out after
    /// every change of position.
    pub held: Vec<(Square, Held)>,
    /// With a piece selected: what the move under the cursor would remove (its victims, the
    /// pieces it burns, what its effects kill), shown before it is confirmed.
    pub doomed: Vec<Square>,
    /// A read-only replay: what the shown move took is marked over any move marks.
    pub read_only: bool,
    /// Each side's cursor when it last moved (hot-seat: each player finds theirs again).
    pub cursors: [Option<(i32, i32)>; 2],
    /// The last piece searched for, which an empty search repeats.
    pub last_find: Option<String>,
    /// The computer's suggestion for the side to move, marked until the position changes.
    pub hint: Option<Move>,
    /// How many squares the piece under the cursor can reach (its card says so): counted
    /// from its own moves, not from the marks, which belong to the selected piece while one
    /// is selected.
    pub reach_count: usize,
}

impl Board {
    /// The board of `h`'s game: the side to move at the bottom, the cursor on its king.
    pub fn new(h: &History, ascii: bool) -> Board {
        let dims = h.rules().dims();
        let mut board = Board {
            dims,
            cursor: (0, 0),
            view: View {
                zoom: 1,
                flipped: h.position().to_move() == Side::White,
                follow: false,
                ascii,
                scroll: (0, 0),
            },
            selection: None,
            overlay: vec![0; dims.len()],
            inspect: None,
            geom: Geometry::default(),
            danger: Vec::new(),
            held: Vec::new(),
            doomed: Vec::new(),
            read_only: false,
            cursors: [None; 2],
            last_find: None,
            hint: None,
            reach_count: 0,
        };
        board.cursor = board.own_royal_square(h);
        board.refresh_overlay(h);
        board.danger = preview::royals_in_danger(h);
        board.held = reach::held(h.rules(), h.position());
        board
    }

    /// The part of the board area the whole board needs at this zoom: centred across, at the
    /// top (a short board such as Kō's on a tall terminal has no blank rows above it).
    pub fn fit(&self, board: Rect) -> Rect {
        let (width, height) = self.full_size();
        let (w, h) = (width.min(board.width), height.min(board.height));
        Rect::new(board.x + (board.width - w) / 2, board.y, w, h)
    }

    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// The cells the whole board takes at this zoom, labels included.
    pub fn full_size(&self) -> (u16, u16) {
        let d = self.dims;
        (
            RANK_LABEL + d.files as u16 * self.cell_width(),
            1 + d.ranks as u16,
        )
    }

    /// The minimap's rows: two ranks a row.
    pub fn minimap_rows(&self) -> u16 {
        self.dims.ranks.div_ceil(2) as u16
    }

    /// Squares in the board part of the screen (as fitted): a row of file labels on top, rank
    /// labels left.
    pub fn geometry(&self, board: Rect) -> Geometry {
        let w = self.cell_width();
        let d = self.dims;
        Geometry {
            left: board.x + RANK_LABEL,
            top: board.y + 1,
            cols: (board.width.saturating_sub(RANK_LABEL) / w).min(d.files as u16) as i32,
            rows: (board.height.saturating_sub(1)).min(d.ranks as u16) as i32,
            cell_w: w,
        }
    }

    /// The board's part of an action (cursor, selection, view); the others pass.
    fn act(&mut self, a: Action, h: &History, keys: &Keymap) -> Reply {
        if let Some((dc, dr)) = self.step_of(a) {
            self.move_cursor(h, dc, dr);
            return Reply::Done(self.preview(h));
        }
        let msg = match a {
            Action::LastMove => self.cursor_to_last_move(h),
            Action::OwnRoyal => self.cursor_to_own_royal(h),
            Action::Select => return Reply::Done(self.select(h, keys)),
            Action::Cancel => self.cancel(h),
            Action::ZoomIn | Action::ZoomOut | Action::Flip | Action::Follow | Action::Ascii => {
                self.change_view(a, h)
            }
            _ => return Reply::Pass,
        };
        Reply::Done(Some(msg))
    }

    /// How far a cursor key moves the cursor, in screen columns and rows.
    fn step_of(&self, a: Action) -> Option<(i32, i32)> {
        let page = self.geom.rows.max(2) - 1;
        Some(match a {
            Action::Left => (-1, 0),
            Action::Right => (1, 0),
            Action::Up => (0, -1),
            Action::Down => (0, 1),
            Action::FarLeft => (-5, 0),
            Action::FarRight => (5, 0),
            Action::FarUp => (0, -5),
            Action::FarDown => (0, 5),
            Action::PageUp => (0, -page),
            Action::PageDown => (0, page),
            _ => return None,
        })
    }

    /// The cursor on the last move's square.
    fn cursor_to_last_move(&mut self, h: &History) -> Msg {
        let Some(last) = h.last() else {
            return Msg::warn("No move has been played yet.");
        };
        self.cursor = self.dims.xy(last.mv.to);
        self.center_on_cursor();
        self.refresh_overlay(h);
        Msg::Say(format!(
            "The last move: {} {}.",
            capital(last.side.name()),
            last.text
        ))
    }

    /// The cursor on the side to move's royal piece.
    fn cursor_to_own_royal(&mut self, h: &History) -> Msg {
        self.cursor = self.own_royal_square(h);
        self.center_on_cursor();
        self.refresh_overlay(h);
        self.preview(h).unwrap_or_else(|| {
            Msg::Say(format!(
                "{}'s royal piece on {}.",
                capital(h.position().to_move().name()),
                self.dims.square_name(self.cursor_square())
            ))
        })
    }

    /// Zoom, turn the board round, follow the side to move, kanji or ASCII.
    fn change_view(&mut self, a: Action, h: &History) -> Msg {
        let v = &mut self.view;
        let said = |on: bool, yes: &str, no: &str| Msg::say(if on { yes } else { no });
        match a {
            Action::ZoomIn => v.zoom = (v.zoom + 1).min(ZOOM_WIDTHS.len() - 1),
            Action::ZoomOut => v.zoom = v.zoom.saturating_sub(1),
            Action::Flip => {
                v.flipped = !v.flipped;
                self.center_on_cursor();
                let on = self.view.flipped;
                return said(
                    on,
                    "White's side at the bottom.",
                    "Black's side at the bottom.",
                );
            }
            Action::Follow => {
                v.follow = !v.follow;
                if v.follow {
                    self.face_side_to_move(h);
                }
                return said(
                    self.view.follow,
                    "The board turns to the side to move after each move.",
                    "The board stays as it is.",
                );
            }
            _ => {
                v.ascii = !v.ascii;
                return said(v.ascii, "Pieces by ASCII code.", "Pieces by kanji.");
            }
        }
        Msg::say(self.zoom_text())
    }

    /// "Squares 3 cells wide, the narrowest: …": the width, whether it is the narrowest or
    /// the widest, and what a piece shows at it.
    fn zoom_text(&self) -> String {
        let w = self.cell_width();
        let narrowest = w == ZOOM_WIDTHS[0].max(if self.view.ascii { ASCII_WIDTH } else { 0 });
        let widest = self.view.zoom == ZOOM_WIDTHS.len() - 1;
        let (end, key) = match (narrowest, widest, self.view.ascii) {
            (true, _, true) => (", the narrowest (ASCII codes need 5)", ""),
            (true, _, false) => (
                ", the narrowest",
                ": one kanji of each piece's two-kanji label or name (the card says which piece)",
            ),
            (_, true, _) => (", the widest", ""),
            _ => ("", ""),
        };
        format!("Squares {w} cells wide{end}{key}.")
    }

    /// Click to select or choose, wheel to scroll.
    fn handle_mouse(&mut self, e: MouseEvent, h: &History) -> Option<Msg> {
        match e.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let (x, y) = self.square_at(e.column, e.row)?;
                self.cursor = (x, y);
                return Some(Msg::Act(Action::Select));
            }
            MouseEventKind::ScrollUp => self.scroll(h, 0, -3),
            MouseEventKind::ScrollDown => self.scroll(h, 0, 3),
            MouseEventKind::ScrollLeft => self.scroll(h, -3, 0),
            MouseEventKind::ScrollRight => self.scroll(h, 3, 0),
            _ => {}
        }
        None
    }

    /// After the game moved on or back: no selection, the cursor on `sq`, the board turned to
    /// the side to move if it follows.
    pub fn moved(&mut self, h: &History, sq: Square) {
        self.selection = None;
        self.hint = None;
        self.cursor = self.dims.xy(sq);
        if self.view.follow {
            self.face_side_to_move(h);
        }
        self.scroll_to_cursor();
        self.danger = preview::royals_in_danger(h);
        self.held = reach::held(h.rules(), h.position());
        if self.read_only {
            // The shown move's marks, not the moved piece's.
            self.overlay.iter_mut().for_each(|f| *f = 0);
        } else {
            self.refresh_overlay(h);
        }
    }

    /// After `mover` played: its cursor is kept for its next turn, and the side to move finds
    /// its own where it left it (or on the move just played, the first time).
    pub fn played(&mut self, h: &History, mover: Side, to: Square) {
        self.cursors[mover.index()] = Some(self.cursor);
        let own = self.cursors[h.position().to_move().index()];
        self.moved(h, to);
        if let Some(c) = own {
            self.cursor = c;
            self.scroll_to_cursor();
            self.refresh_overlay(h);
        }
    }

    /// Marks the hint `m` (its squares) and puts the cursor on its piece, whose moves show.
    pub fn show_hint(&mut self, h: &History, m: Move) {
        self.selection = None;
        self.hint = Some(m);
        self.cursor = self.dims.xy(m.from);
        self.center_on_cursor();
        self.refresh_overlay(h);
    }

    /// Puts the cursor on a square named `file.rank`.
    pub fn go_to(&mut self, h: &History, text: &str) -> Msg {
        let d = self.dims;
        match d.parse_square(text) {
            Some(sq) => {
                self.cursor = d.xy(sq);
                self.center_on_cursor();
                self.refresh_overlay(h);
                Msg::say(format!("Cursor on {text}."))
            }
            None => Msg::warn(format!(
                "{text:?} is not a square: write file.rank, e.g. {}.{} (files 1-{} from Black's right, ranks 1-{} from White's side).",
                d.files / 2 + 1,
                d.ranks,
                d.files,
                d.ranks
            )),
        }
    }

    /// The side to move's king (or first royal piece), else the middle of its side.
    fn own_royal_square(&self, h: &History) -> (i32, i32) {
        if let Some(&(royal, _)) = self.danger.first() {
            return self.dims.xy(royal);
        }
        let side = h.position().to_move();
        // The first piece the end rule names (Kō shōgi's general), else a royal one.
        let end = &h.rules().game.end;
        let first = end.alternatives.first().and_then(|a| a.first());
        let leader = first.map_or(&[][..], |n| &n.kinds[..]);
        let own = |p: &Piece| p.side == side;
        let pieces = || h.position().pieces().filter(|(_, p)| own(p));
        pieces()
            .find(|(_, p)| leader.contains(&p.kind))
            .or_else(|| pieces().find(|(_, p)| h.rules().catalogue().kind(p.kind).royal))
            .map(|(s, _)| self.dims.xy(s))
            .unwrap_or((
                self.dims.files as i32 / 2,
                if side == Side::Black {
                    0
                } else {
                    self.dims.ranks as i32 - 1
                },
            ))
    }

    pub fn cursor_square(&self) -> Square {
        self.dims
            .square(self.cursor.0, self.cursor.1)
            .expect("the cursor stays on the board")
    }

    /// Screen column and row of a board square.
    pub fn screen_xy(&self, x: i32, y: i32) -> (i32, i32) {
        let d = self.dims;
        if self.view.flipped {
            (d.files as i32 - 1 - x, y)
        } else {
            (x, d.ranks as i32 - 1 - y)
        }
    }

    pub fn board_xy(&self, c: i32, r: i32) -> (i32, i32) {
        let d = self.dims;
        if self.view.flipped {
            (d.files as i32 - 1 - c, r)
        } else {
            (c, d.ranks as i32 - 1 - r)
        }
    }

    /// Keeps the cursor inside the viewport, scrolling as little as possible.
    pub fn scroll_to_cursor(&mut self) {
        let (c, r) = self.screen_xy(self.cursor.0, self.cursor.1);
        let d = self.dims;
        let (cols, rows) = (self.geom.cols.max(1), self.geom.rows.max(1));
        let (mut sc, mut sr) = self.view.scroll;
        let margin_c = (cols / 6).min(3);
        let margin_r = (rows / 6).min(3);
        if c < sc + margin_c {
            sc = c - margin_c;
        } else if c >= sc + cols - margin_c {
            sc = c - cols + 1 + margin_c;
        }
        if r < sr + margin_r {
            sr = r - margin_r;
        } else if r >= sr + rows - margin_r {
            sr = r - rows + 1 + margin_r;
        }
        self.view.scroll = (
            sc.clamp(0, (d.files as i32 - cols).max(0)),
            sr.clamp(0, (d.ranks as i32 - rows).max(0)),
        );
    }

    /// Centres the viewport on the cursor.
    pub fn center_on_cursor(&mut self) {
        let (c, r) = self.screen_xy(self.cursor.0, self.cursor.1);
        self.view.scroll = (c - self.geom.cols / 2, r - self.geom.rows / 2);
        self.scroll_to_cursor();
    }

    /// Records where the board is on screen (called before each draw and on resize).
    pub fn set_geometry(&mut self, g: Geometry) {
        let first = self.geom.cols == 0;
        self.geom = g;
        if first {
            self.center_on_cursor();
        } else {
            self.scroll_to_cursor();
        }
    }

    /// The board square under a screen cell, from the last layout.
    pub fn square_at(&self, col: u16, row: u16) -> Option<(i32, i32)> {
        let g = self.geom;
        if g.cell_w == 0 || col < g.left || row < g.top {
            return None;
        }
        let c = ((col - g.left) / g.cell_w) as i32;
        let r = (row - g.top) as i32;
        if c >= g.cols || r >= g.rows {
            return None;
        }
        let (x, y) = self.board_xy(c + self.view.scroll.0, r + self.view.scroll.1);
        self.dims.contains(x, y).then_some((x, y))
    }

    /// Scrolls the viewport, keeping the cursor in it.
    fn scroll(&mut self, h: &History, dc: i32, dr: i32) {
        let d = self.dims;
        let (cols, rows) = (self.geom.cols.max(1), self.geom.rows.max(1));
        let sc = (self.view.scroll.0 + dc).clamp(0, (d.files as i32 - cols).max(0));
        let sr = (self.view.scroll.1 + dr).clamp(0, (d.ranks as i32 - rows).max(0));
        self.view.scroll = (sc, sr);
        let (c, r) = self.screen_xy(self.cursor.0, self.cursor.1);
        let (c, r) = (c.clamp(sc, sc + cols - 1), r.clamp(sr, sr + rows - 1));
        let (x, y) = self.board_xy(c, r);
        if (x, y) != self.cursor && d.contains(x, y) {
            self.cursor = (x, y);
            self.refresh_overlay(h);
        }
    }

    /// Moves the cursor by screen direction (up is up on the screen, whatever the flip).
    fn move_cursor(&mut self, h: &History, dc: i32, dr: i32) {
        let (c, r) = self.screen_xy(self.cursor.0, self.cursor.1);
        let d = self.dims;
        let c = (c + dc).clamp(0, d.files as i32 - 1);
        let r = (r + dr).clamp(0, d.ranks as i32 - 1);
        self.cursor = self.board_xy(c, r);
        self.scroll_to_cursor();
        self.refresh_overlay(h);
    }

    pub fn face_side_to_move(&mut self, h: &History) {
        let flipped = h.position().to_move() == Side::White;
        if flipped != self.view.flipped {
            self.view.flipped = flipped;
            self.center_on_cursor();
        }
    }

    /// The find prompt's answer: the piece named, or (nothing typed) the last one again.
    fn find_named(&mut self, h: &History, text: &str) -> Msg {
        if !text.is_empty() {
            self.last_find = Some(text.to_string());
        }
        match self.last_find.clone() {
            Some(name) => self.find(h, &name),
            None => Msg::warn("Nothing to find: type a piece's name, code or kanji."),
        }
    }

    /// Shows the named piece's card and moves the cursor to the next one on the board. A
    /// label the board shows for several kinds (`獅`) finds a piece of any of them.
    pub fn find(&mut self, h: &History, text: &str) -> Msg {
        let cat = h.rules().catalogue();
        let kinds = match cat.lookup(text) {
            Lookup::Found(k) => vec![k],
            Lookup::Ambiguous(ks) => ks,
            Lookup::NotFound(close) => {
                // The suggestion ends in a question mark; nothing after it.
                let suggestion = notation::suggest(&close);
                let end = if suggestion.is_empty() { "." } else { "" };
                return Msg::warn(format!("No piece is called {text:?}{suggestion}{end}"));
            }
        };
        let side = h.position().to_move();
        // Own pieces first, then the opponent's; the next one after the cursor, in order.
        let mut found: Vec<(i32, i32, bool, KindId)> = h
            .position()
            .pieces()
            .filter(|(_, p)| kinds.contains(&p.kind))
            .map(|(s, p)| {
                let (x, y) = self.dims.xy(s);
                (x, y, p.side == side, p.kind)
            })
            .collect();
        found.sort_by_key(|&(x, y, own, _)| (!own, y, x));
        let names = |ks: &[KindId]| kind_names(cat, ks);
        let Some(at) = (!found.is_empty()).then(|| {
            found
                .iter()
                .position(|&(x, y, ..)| (x, y) == self.cursor)
                .map_or(0, |i| (i + 1) % found.len())
        }) else {
            self.inspect = Some(kinds[0]);
            return Msg::say(format!(
                "No {} on the board; its card is on the right.",
                names(&kinds)
            ));
        };
        let (x, y, own, k) = found[at];
        self.inspect = Some(k);
        self.cursor = (x, y);
        self.center_on_cursor();
        self.refresh_overlay(h);
        let whose = if own { side } else { side.opponent() };
        let of = if kinds.len() > 1 {
            format!(" (searching {})", names(&kinds))
        } else {
            String::new()
        };
        Msg::say(format!(
            "{}: {} of {} on the board ({whose}'s){of}. Search again for the next.",
            cat.kind(k).name,
            at + 1,
            found.len()
        ))
    }

    /// Recomputes the overlay for the selection or the piece under the cursor: the same marks
    /// either way, from the piece's moves with every path.
    pub fn refresh_overlay(&mut self, h: &History) {
        self.overlay.iter_mut().for_each(|f| *f = 0);
        self.doomed.clear();
        let pos = h.position();
        let marks = match &self.selection {
            Some(sel) => {
                if let Some(m) = sel.previewed(h, self.cursor_square()) {
                    self.doomed = preview::removed(h, &m);
                }
                sel.marks(h)
            }
            None => {
                let sq = self.cursor_square();
                if pos.piece_at(sq).is_none() {
                    self.reach_count = 0;
                    return;
                }
                let moves = h.rules().moves_from_all_paths(pos, sq);
                reach::reach(h.rules(), pos, &moves, 0)
            }
        };
        for (sq, f) in marks {
            self.overlay[sq.0 as usize] |= f;
        }
        self.reach_count = self.count_reach(h);
    }

    /// The squares the piece under the cursor can move to or capture on: read off the marks
    /// when they are its own, else off its own moves.
    fn count_reach(&self, h: &History) -> usize {
        let reached = |f: &u16| f & (mark::QUIET | mark::CAPTURE) != 0;
        let (pos, sq) = (h.position(), self.cursor_square());
        match &self.selection {
            Some(sel) if sel.from != sq && pos.piece_at(sq).is_some() => {
                let moves = h.rules().moves_from_all_paths(pos, sq);
                let marks = reach::reach(h.rules(), pos, &moves, 0);
                marks.iter().filter(|(_, f)| reached(f)).count()
            }
            _ => self.overlay.iter().filter(|f| reached(f)).count(),
        }
    }

    fn select(&mut self, h: &History, keys: &Keymap) -> Option<Msg> {
        if self.selection.is_some() {
            return self.choose(h);
        }
        if let Some(o) = h.outcome() {
            return Some(Msg::warn(format!(
                "The game is over: {} won ({}). {} undoes, {} quits.",
                capital(o.winner.name()),
                o.reason.describe(),
                keys.keys_of(Action::Undo),
                keys.keys_of(Action::Quit)
            )));
        }
        let sq = self.cursor_square();
        let name = self.dims.square_name(sq);
        let turn = h.position().to_move();
        let Some(piece) = h.position().piece_at(sq) else {
            return Some(Msg::warn(format!("Nothing on {name} to move.")));
        };
        let kind = h.rules().catalogue().kind(piece.kind).name.clone();
        if piece.side != turn {
            return Some(Msg::warn(format!(
                "That {kind} is {}'s; it is {turn}'s turn.",
                piece.side
            )));
        }
        let moves = h.rules().moves_from_all_paths(h.position(), sq);
        if moves.is_empty() {
            let net = self.held.iter().find_map(|x| match x {
                &(s, Held::Frozen { by }) if s == sq => Some(by),
                _ => None,
            });
            return Some(Msg::warn(match net {
                Some(by) => format!(
                    "The {kind} on {name} is frozen by the enemy net on {}: it cannot move while that net stands first on its line.",
                    self.dims.square_name(by)
                ),
                None => format!("The {kind} on {name} has no legal move."),
            }));
        }
        self.selection = Some(Selection::new(sq, moves));
        self.refresh_overlay(h);
        Some(Msg::say(format!(
            "{kind} on {name} selected: choose where it goes ({} cancels).",
            keys.keys_of(Action::Cancel)
        )))
    }

    /// With a piece selected: choose the square under the cursor as the next leg, the end of
    /// the move or a piece to shoot ([`Selection::choose`]).
    fn choose(&mut self, h: &History) -> Option<Msg> {
        let sq = self.cursor_square();
        let sel = self.selection.as_mut()?;
        if let Some(msg) = sel.choose(h, sq) {
            self.refresh_overlay(h);
            return Some(msg);
        }
        let from = sel.from;
        if sq == from && sel.legs.is_empty() {
            self.selection = None;
            self.refresh_overlay(h);
            return Some(Msg::say("Selection cleared."));
        }
        Some(Msg::warn(format!("Illegal: {}", why_not(h, from, sq))))
    }

    /// One of several ways to end the move was chosen (in the menu): played, or its shots are
    /// chosen next.
    fn land(&mut self, h: &History, moves: Vec<Move>) -> Option<Msg> {
        let msg = match self.selection.as_mut() {
            Some(sel) => sel.land(h, moves),
            None => selection::finish(moves),
        };
        self.refresh_overlay(h);
        msg
    }

    /// With a piece selected, what choosing the square under the cursor would do.
    fn preview(&self, h: &History) -> Option<Msg> {
        let sel = self.selection.as_ref()?;
        Some(Msg::Say(sel.hover(h, self.cursor_square())))
    }

    fn cancel(&mut self, h: &History) -> Msg {
        let Some(sel) = self.selection.as_mut() else {
            self.inspect = None;
            return Msg::say("Nothing to cancel.");
        };
        let said = if sel.back() {
            "One leg taken back."
        } else {
            self.selection = None;
            "Selection cleared."
        };
        self.refresh_overlay(h);
        Msg::say(said)
    }

    /// The piece shown in the side panel: under the cursor; on an empty square, the selected
    /// piece (where it may go is what the player is choosing), else the last one found.
    pub fn shown_piece(&self, h: &History) -> Option<(KindId, Option<Piece>)> {
        let pos = h.position();
        match pos.piece_at(self.cursor_square()) {
            Some(p) => Some((p.kind, Some(p))),
            None => match self.selection.as_ref().and_then(|s| pos.piece_at(s.from)) {
                Some(p) => Some((p.kind, Some(p))),
                None => self.inspect.map(|k| (k, None)),
            },
        }
    }

    /// Where the selected piece stands when its card is shown for an empty square under the
    /// cursor.
    pub fn shown_elsewhere(&self, h: &History) -> Option<Square> {
        let pos = h.position();
        let sel = self.selection.as_ref()?;
        (pos.piece_at(self.cursor_square()).is_none() && pos.piece_at(sel.from).is_some())
            .then_some(sel.from)
    }

    /// What a piece shows in a square of `w` cells: up to `w - 1` cells after the mark. ASCII
    /// codes leave a blank cell before the next square's mark so codes never run together.
    fn piece_text(&self, h: &History, kind: u16, side: Side, w: u16) -> String {
        let k = h.rules().catalogue().kind(kind);
        if self.view.ascii {
            let code: String = k.code.chars().take(w.saturating_sub(2) as usize).collect();
            return if side == Side::White {
                code.to_ascii_lowercase()
            } else {
                code
            };
        }
        if w > k.label2.width() as u16 {
            k.label2.clone()
        } else {
            k.label.clone()
        }
    }

    /// The mark before a piece when nothing else marks it: which way it faces on screen (a
    /// Black piece faces up unless the board is turned round).
    pub fn facing(&self, side: Side) -> char {
        if (side == Side::Black) != self.view.flipped {
            '^'
        } else {
            'v'
        }
    }

    /// Square width in cells: the zoom's, and in ASCII wide enough for a code and a blank.
    pub fn cell_width(&self) -> u16 {
        let w = ZOOM_WIDTHS[self.view.zoom];
        if self.view.ascii {
            w.max(ASCII_WIDTH)
        } else {
            w
        }
    }
}

/// The board drawn: file and rank labels, the pieces, the move marks, the cursor.
pub struct BoardWidget<'a> {
    pub board: &'a Board,
    pub history: &'a History,
    pub theme: &'a Theme,
}

/// What the squares of one draw share: the last move, what it took, the selection.
struct Marked {
    last: Option<Move>,
    taken: Vec<Square>,
    selected: Option<Square>,
    legs: Vec<Square>,
}

impl Widget for BoardWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (b, h, t) = (self.board, self.history, self.theme);
        let g = b.geometry(area);
        let d = h.rules().dims();
        let (sc, sr) = b.view.scroll;
        self.draw_labels(g, area, buf);
        // What the shown move took: marked on the (now empty) squares.
        let marked = Marked {
            last: h.last().map(|p| p.mv),
            taken: h.last().map_or(Vec::new(), |p| p.mv.victims(d).collect()),
            selected: b.selection.as_ref().map(|s| s.from),
            legs: b.selection.as_ref().map_or(Vec::new(), |s| s.entered()),
        };
        for r in 0..g.rows {
            for c in 0..g.cols {
                let (x, y) = b.board_xy(c + sc, r + sr);
                let Some(sq) = d.square(x, y) else { continue };
                let cell = Cell {
                    col: g.left + c as u16 * g.cell_w,
                    row: g.top + r as u16,
                    w: g.cell_w,
                    flags: b.overlay[sq.0 as usize],
                    base: self.square_style(sq, (x, y), &marked),
                };
                match h.position().piece_at(sq) {
                    Some(p) => cell.piece(
                        p,
                        &b.piece_text(h, p.kind, p.side, g.cell_w),
                        Marks {
                            ascii: b.view.ascii,
                            danger: b.danger.iter().any(|d| d.0 == sq),
                            held: b.held.iter().find(|h| h.0 == sq).map(|h| h.1),
                            facing: b.facing(p.side),
                        },
                        t,
                        buf,
                    ),
                    // What the move took shows over the marks of a piece looked at (in a
                    // replay too), not over the selected piece's: it is choosing there.
                    None => cell.empty(
                        marked.taken.contains(&sq) && (cell.flags == 0 || b.selection.is_none()),
                        t,
                        buf,
                    ),
                }
            }
        }
    }
}

impl BoardWidget<'_> {
    /// A square's background: the last move, the selection and hint, what the move under
    /// the cursor removes, the cursor.
    fn square_style(&self, sq: Square, xy: (i32, i32), m: &Marked) -> Style {
        let (b, t) = (self.board, self.theme);
        let on = |mv: Move| mv.from == sq || mv.to == sq || mv.path().contains(&sq);
        let mut base = Style::new();
        if m.last.is_some_and(on) {
            base = base.patch(t.last_move);
        }
        if m.selected == Some(sq) || m.legs.contains(&sq) || b.hint.is_some_and(on) {
            base = base.patch(t.selected);
        }
        if b.doomed.contains(&sq) {
            base = base.add_modifier(Modifier::REVERSED);
        }
        if xy == b.cursor {
            base = base.patch(t.cursor).add_modifier(Modifier::REVERSED);
        }
        base
    }

    /// File labels along the top, rank labels down the left.
    fn draw_labels(&self, g: Geometry, area: Rect, buf: &mut Buffer) {
        let (b, t) = (self.board, self.theme);
        let (sc, sr) = b.view.scroll;
        let (d, w) = (b.dims, g.cell_w);
        for c in 0..g.cols {
            let (x, _) = b.board_xy(c + sc, 0);
            let label = format!("{:^w$}", d.files as i32 - x, w = w as usize);
            buf.set_string(g.left + c as u16 * w, area.y, label, t.label);
        }
        for r in 0..g.rows {
            let (_, y) = b.board_xy(0, r + sr);
            let label = format!("{:>3} ", d.ranks as i32 - y);
            buf.set_string(area.x, g.top + r as u16, label, t.label);
        }
    }
}

impl Component for Board {
    /// Its actions, the mouse, the end of a move chosen in a menu, and the answers to the
    /// go-to and find prompts.
    fn handle(&mut self, msg: &Msg, cx: &Context) -> Reply {
        let h = cx.history;
        Reply::Done(match msg {
            Msg::Act(a) => return self.act(*a, h, cx.keymap),
            Msg::Mouse(e) => self.handle_mouse(*e, h),
            Msg::Finish(moves) => self.land(h, moves.clone()),
            Msg::Submit(PromptKind::Goto, text) => Some(self.go_to(h, text)),
            Msg::Submit(PromptKind::Find, text) => Some(self.find_named(h, text)),
            _ => return Reply::Pass,
        })
    }
}

/// What marks a piece beside the move marks: ASCII mode, a royal in danger, an aura holding
/// it, the way it faces on screen.
#[derive(Clone, Copy)]
struct Marks {
    ascii: bool,
    danger: bool,
    held: Option<Held>,
    facing: char,
}

/// One square on screen: where, how wide, its move marks and its background style.
struct Cell {
    col: u16,
    row: u16,
    w: u16,
    flags: u16,
    base: Style,
}

impl Cell {
    /// A piece: its side mark (or what a move would do to it, `&` for a royal in danger, `=`
    /// frozen, `-` silenced), its label, `+` if it promotes.
    fn piece(&self, p: Piece, text: &str, m: Marks, t: &Theme, buf: &mut Buffer) {
        let (f, danger) = (self.flags, m.danger);
        let side_style = if p.side == Side::Black {
            t.black
        } else {
            t.white
        };
        let (glyph, mark_style) = match occupied_mark(t, f, danger) {
            Some(m) => m,
            None => match m.held {
                Some(Held::Frozen { .. }) => ('=', t.warning),
                Some(Held::Silenced { .. }) => ('-', t.warning),
                None if p.promoted && m.ascii => ('+', side_style),
                None => (m.facing, side_style),
            },
        };
        let mut piece_style = side_style;
        if p.promoted {
            piece_style = piece_style.add_modifier(Modifier::UNDERLINED);
        }
        if danger {
            piece_style = piece_style
                .patch(t.warning)
                .add_modifier(Modifier::REVERSED);
        }
        let (col, row, base) = (self.col, self.row, self.base);
        buf.set_string(col, row, " ".repeat(self.w as usize), base);
        buf.set_string(col, row, glyph.to_string(), base.patch(mark_style));
        buf.set_string(col + 1, row, text, base.patch(piece_style));
        let used = 1 + text.width() as u16;
        if f & mark::PROMOTE != 0 && used < self.w {
            buf.set_string(col + used, row, "+", base.patch(t.capture));
        }
    }

    /// An empty square: where a move goes (or `~`, what the last move took), else a dot.
    fn empty(&self, taken: bool, t: &Theme, buf: &mut Buffer) {
        let f = self.flags;
        let (glyph, style) = if taken {
            ('~', t.capture)
        } else if f & mark::JUMP != 0 {
            ('*', t.jump)
        } else if f & (mark::QUIET | mark::CAPTURE) != 0 {
            ('o', t.quiet)
        } else if f & mark::STOP != 0 {
            // Only where no move ends: Enter on a square a move can end on ends it there.
            ('@', t.igui)
        } else {
            ('.', t.empty)
        };
        let (col, row, w) = (self.col, self.row, self.w);
        let base = if taken {
            self.base.patch(t.last_move)
        } else {
            self.base
        };
        let mid = (w / 2).max(1) - if w == 3 { 0 } else { 1 };
        buf.set_string(col, row, " ".repeat(w as usize), base);
        buf.set_string(col + mid, row, glyph.to_string(), base.patch(style));
        if f & mark::PROMOTE != 0 && mid + 1 < w {
            buf.set_string(col + mid + 1, row, "+", base.patch(t.capture));
        }
    }
}

/// The mark before a piece, by what matters most: a royal in danger (`&`), a capture (`x`:
/// Enter takes it, even where a move can also go on from there), a stop the move can only go
/// on from (`@`), shot from afar (`%`), taken on the way (`!`), removed by a range capture
/// (`#`), the mover's own square it can come back to (`o`); none: the side mark.
fn occupied_mark(t: &Theme, flags: u16, danger: bool) -> Option<(char, Style)> {
    Some(if danger {
        ('&', t.warning.add_modifier(Modifier::REVERSED))
    } else if flags & mark::CAPTURE != 0 {
        ('x', t.capture)
    } else if flags & mark::STOP != 0 {
        ('@', t.igui)
    } else if flags & mark::SHOT != 0 {
        ('%', t.capture)
    } else if flags & mark::BURNT != 0 {
        ('$', t.range)
    } else if flags & mark::TAKEN_ON_WAY != 0 {
        ('!', t.igui)
    } else if flags & mark::RANGE_VICTIM != 0 {
        ('#', t.range)
    } else if flags & (mark::QUIET | mark::JUMP) != 0 {
        ('o', t.quiet)
    } else {
        return None;
    })
}

/// "Lion" for one kind; "Lion (LN), Lion hawk (LH)" for several.
fn kind_names(cat: &Catalogue, kinds: &[KindId]) -> String {
    if let [k] = kinds {
        return cat.kind(*k).name.clone();
    }
    kinds
        .iter()
        .map(|&k| format!("{} ({})", cat.kind(k).name, cat.kind(k).code))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why the selected piece cannot go to `to`.
fn why_not(h: &History, from: Square, to: Square) -> String {
    let pos = h.position();
    let dims = h.rules().dims();
    let Some(piece) = pos.piece_at(from) else {
        return "nothing to move".into();
    };
    let kind = h.rules().catalogue().kind(piece.kind).name.clone();
    let there = dims.square_name(to);
    if let Some(p) = pos.piece_at(to)
        && p.side == piece.side
        && to != from
    {
        let own = &h.rules().catalogue().kind(p.kind).name;
        return format!("your own {own} stands on {there}.");
    }
    // On an empty board, could it get there at all?
    let mut alone = h.rules().empty_position();
    h.rules().put(&mut alone, from, Some(piece));
    let reachable = h
        .rules()
        .moves_from(&alone, from)
        .iter()
        .any(|m| m.to == to);
    if reachable {
        format!("the {kind} cannot reach {there} from here: the way is blocked.")
    } else {
        format!("the {kind} does not move that way ({there}); its moves are marked on the board.")
    }
}

//! Drawing: the board viewport, minimap, piece card, move list, status and hint lines, help.
//! Everything reads the model; the only thing taken from here is the geometry of the layout.

use super::app::{App, ConfirmKind, Geometry, Mode, PromptKind, ZOOM_WIDTHS, mark};
use super::keys::Action;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};
use taikyoku::geometry::Side;
use unicode_width::UnicodeWidthStr;

/// The smallest terminal the game draws in.
pub const MIN_WIDTH: u16 = 72;
pub const MIN_HEIGHT: u16 = 20;
const PANEL_WIDTH: u16 = 40;
const RANK_LABEL: u16 = 4;

/// The overlay glyphs, for the legend and the help.
pub const LEGEND: &str = "o move   * jump   x capture   ! taken on the way   # removed by range capture   + promotes   @ stop, then go on   ^ Black  v White   underlined = promoted";

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
    board_geometry(app, fit_board(app, areas(area).board))
}

/// The part of the board area the whole board needs at this zoom, centred in it: a small
/// board (Sho shogi's 9×9) sits in the middle rather than in a corner.
fn fit_board(app: &App, board: Rect) -> Rect {
    let d = app.dims();
    let width = RANK_LABEL + d.files as u16 * ZOOM_WIDTHS[app.view.zoom];
    let height = 1 + d.ranks as u16;
    let (w, h) = (width.min(board.width), height.min(board.height));
    Rect::new(
        board.x + (board.width - w) / 2,
        board.y + (board.height - h) / 2,
        w,
        h,
    )
}

/// Squares in the board part of the screen: a row of file labels on top, rank labels left.
fn board_geometry(app: &App, board: Rect) -> Geometry {
    let w = ZOOM_WIDTHS[app.view.zoom];
    let d = app.dims();
    Geometry {
        left: board.x + RANK_LABEL,
        top: board.y + 1,
        cols: (board.width.saturating_sub(RANK_LABEL) / w).min(d.files as u16) as i32,
        rows: (board.height.saturating_sub(1)).min(d.ranks as u16) as i32,
        cell_w: w,
    }
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
    let a = areas(area);
    draw_board(app, fit_board(app, a.board), buf);
    draw_card(app, a.card, buf);
    if let Some(m) = a.minimap {
        draw_minimap(app, m, buf);
    }
    if let Some(m) = a.moves {
        draw_moves(app, m, buf);
    }
    draw_status(app, a.status, buf);
    draw_hint(app, a.hint, buf);
    if app.mode == Mode::Help {
        draw_help(app, area, buf);
    }
}

/// What a piece shows in a square of `w` cells: up to `w - 1` cells after the mark.
fn piece_text(app: &App, kind: u16, side: Side, w: u16) -> String {
    let k = app.rules().catalogue().kind(kind);
    if app.view.ascii {
        let code = if side == Side::White {
            k.code.to_ascii_lowercase()
        } else {
            k.code.clone()
        };
        return code;
    }
    if w >= 6 {
        // Two kanji of the name when they are ordinary wide characters.
        let two: String = k
            .kanji
            .chars()
            .filter(|c| c.to_string().width() == 2 && (*c as u32) < 0x20000)
            .take(2)
            .collect();
        if two.width() == 4 {
            return two;
        }
    }
    k.label.clone()
}

fn draw_board(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let g = board_geometry(app, area);
    let d = app.dims();
    let w = g.cell_w;
    let pos = app.pos();
    let (sc, sr) = app.view.scroll;
    let last = app.shown_move().map(|p| p.mv);
    // What the shown move took: marked on the (now empty) squares.
    let taken = app.shown_move().map_or(&[][..], |p| &p.captures);
    // File labels along the top, rank labels down the left.
    for c in 0..g.cols {
        let (x, _) = app.board_xy(c + sc, 0);
        let label = format!("{:^w$}", d.files as i32 - x, w = w as usize);
        buf.set_string(g.left + c as u16 * w, area.y, label, t.label);
    }
    for r in 0..g.rows {
        let (_, y) = app.board_xy(0, r + sr);
        buf.set_string(
            area.x,
            g.top + r as u16,
            format!("{:>3} ", d.ranks as i32 - y),
            t.label,
        );
    }
    let selected = app.selection.as_ref().map(|s| s.from);
    for r in 0..g.rows {
        for c in 0..g.cols {
            let (x, y) = app.board_xy(c + sc, r + sr);
            let Some(sq) = d.square(x, y) else { continue };
            let col = g.left + c as u16 * w;
            let row = g.top + r as u16;
            let flags = app.overlay[sq.0 as usize];
            let mut base = Style::new();
            if let Some(m) = last
                && (m.from == sq || m.to == sq || m.path().contains(&sq))
            {
                base = base.patch(t.last_move);
            }
            if selected == Some(sq) {
                base = base.patch(t.selected).add_modifier(Modifier::UNDERLINED);
            }
            let cursor = (x, y) == app.cursor;
            match pos.piece_at(sq) {
                Some(p) => {
                    let mark_glyph = if flags & mark::CAPTURE != 0 {
                        'x'
                    } else if flags & mark::TAKEN_ON_WAY != 0 {
                        '!'
                    } else if flags & mark::RANGE_VICTIM != 0 {
                        '#'
                    } else if p.promoted && app.view.ascii {
                        '+'
                    } else if p.side == Side::Black {
                        '^'
                    } else {
                        'v'
                    };
                    let mark_style = if flags & mark::CAPTURE != 0 {
                        t.capture
                    } else if flags & mark::TAKEN_ON_WAY != 0 {
                        t.igui
                    } else if flags & mark::RANGE_VICTIM != 0 {
                        t.range
                    } else if p.side == Side::Black {
                        t.black
                    } else {
                        t.white
                    };
                    let mut piece_style = if p.side == Side::Black {
                        t.black
                    } else {
                        t.white
                    };
                    if p.promoted {
                        piece_style = piece_style.add_modifier(Modifier::UNDERLINED);
                    }
                    let text = piece_text(app, p.kind, p.side, w);
                    let mut cell = String::new();
                    cell.push(mark_glyph);
                    cell.push_str(&text);
                    let used = 1 + text.width() as u16;
                    let mut style_base = base;
                    if cursor {
                        style_base = style_base.patch(t.cursor).add_modifier(Modifier::REVERSED);
                    }
                    buf.set_string(col, row, " ".repeat(w as usize), style_base);
                    buf.set_string(
                        col,
                        row,
                        mark_glyph.to_string(),
                        style_base.patch(mark_style),
                    );
                    buf.set_string(col + 1, row, &text, style_base.patch(piece_style));
                    if flags & mark::PROMOTE != 0 && used < w {
                        buf.set_string(col + used, row, "+", style_base.patch(t.capture));
                    }
                }
                None => {
                    let (glyph, style) = if taken.contains(&sq) && flags == 0 {
                        ('x', t.capture)
                    } else if flags & mark::STOP != 0 {
                        ('@', t.igui)
                    } else if flags & mark::JUMP != 0 {
                        ('*', t.jump)
                    } else if flags & (mark::QUIET | mark::CAPTURE) != 0 {
                        ('o', t.quiet)
                    } else {
                        ('.', t.empty)
                    };
                    let mut style_base = base;
                    if cursor {
                        style_base = style_base.patch(t.cursor).add_modifier(Modifier::REVERSED);
                    }
                    let mid = (w / 2).max(1) - if w == 3 { 0 } else { 1 };
                    buf.set_string(col, row, " ".repeat(w as usize), style_base);
                    buf.set_string(col + mid, row, glyph.to_string(), style_base.patch(style));
                    if flags & mark::PROMOTE != 0 && mid + 1 < w {
                        buf.set_string(col + mid + 1, row, "+", style_base.patch(t.capture));
                    }
                }
            }
        }
    }
}

fn draw_card(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let block = Block::new()
        .borders(Borders::ALL)
        .title(" Piece ")
        .title_style(t.title);
    let inner = block.inner(area);
    block.render(area, buf);
    let d = app.dims();
    let sq = app.cursor_square();
    let mut lines: Vec<Line> = vec![Line::from(vec![
        Span::styled(format!("{} ", d.square_name(sq)), t.label),
        Span::raw(format!("({}, {})", app.cursor.0, app.cursor.1)),
    ])];
    match app.shown_piece() {
        None => lines.push(Line::from("An empty square.")),
        Some((kind, piece)) => {
            let card = app.cards.get(app.rules(), kind);
            lines.push(Line::from(vec![
                Span::styled(format!("{} ", card.kanji), t.title),
                Span::styled(format!("{} ({})", card.name, card.code), t.title),
            ]));
            let mut facts = Vec::new();
            match piece {
                Some(p) => {
                    facts.push(capital_side(p.side));
                    if p.promoted {
                        facts.push("promoted".to_string());
                    }
                }
                None => facts.push("not under the cursor".into()),
            }
            if card.royal {
                facts.push("royal".into());
            }
            if let Some(r) = card.rank {
                facts.push(format!("rank {r}"));
            }
            lines.push(Line::from(facts.join(" · ")));
            lines.push(Line::from(format!(
                "Betza ({}): {}",
                card.rule_set, card.betza
            )));
            for l in &card.movement.words {
                lines.push(Line::from(format!("· {l}")));
            }
            let promo = match (piece.map(|p| p.promoted), &card.promotes_to) {
                (Some(true), _) => "already promoted: no further promotion".to_string(),
                (_, None) => "does not promote".to_string(),
                (_, Some(pk)) => format!("promotes to {} {} ({})", pk.kanji, pk.name, pk.code),
            };
            lines.push(Line::from(promo));
            lines.push(Line::from(format!("Captures: {}", card.movement.captures)));
            let moves = app
                .overlay
                .iter()
                .filter(|&&f| f & (mark::QUIET | mark::CAPTURE) != 0)
                .count();
            if piece.is_some() {
                lines.push(Line::from(format!(
                    "{moves} squares it can reach from here"
                )));
            }
            for row in card.movement.diagram.lines() {
                lines.push(Line::styled(row.to_string(), t.label));
            }
        }
    }
    lines.push(Line::from(""));
    lines.push(Line::styled(
        "o move * jump x capture ! on the way",
        t.label,
    ));
    lines.push(Line::styled("# range capture + promotes @ go on", t.label));
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
}

fn capital_side(s: Side) -> String {
    super::app::capital(s.name())
}

fn draw_minimap(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let block = Block::new()
        .borders(Borders::ALL)
        .title(" Board ")
        .title_style(t.title);
    let inner = block.inner(area);
    block.render(area, buf);
    let d = app.dims();
    let pos = app.pos();
    let g = app.geom;
    let (sc, sr) = app.view.scroll;
    let in_view = |c: i32, r: i32| c >= sc && c < sc + g.cols && r >= sr && r < sr + g.rows;
    let last: Vec<_> = app
        .shown_move()
        .map(|p| {
            let mut v = vec![p.mv.from, p.mv.to];
            v.extend_from_slice(p.mv.path());
            v
        })
        .unwrap_or_default();
    let color_at = |c: i32, r: i32| {
        let (x, y) = app.board_xy(c, r);
        let sq = d.square(x, y)?;
        Some(if (x, y) == app.cursor {
            ratatui::style::Color::Magenta
        } else if last.contains(&sq) {
            ratatui::style::Color::Yellow
        } else {
            match pos.piece_at(sq) {
                Some(p) if p.side == Side::Black => t.mini_black,
                Some(_) => t.mini_white,
                None if in_view(c, r) => ratatui::style::Color::Rgb(70, 70, 110),
                None => t.mini_empty,
            }
        })
    };
    for r2 in 0..((d.ranks as i32 + 1) / 2).min(inner.height as i32) {
        for c in 0..(d.files as i32).min(inner.width as i32) {
            let top = color_at(c, 2 * r2);
            let bottom = color_at(c, 2 * r2 + 1);
            let mut style = Style::new();
            if let Some(cl) = top {
                style = style.fg(cl);
            }
            if let Some(cl) = bottom {
                style = style.bg(cl);
            }
            buf.set_string(inner.x + c as u16, inner.y + r2 as u16, "▀", style);
        }
    }
}

fn draw_moves(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let title = match &app.replay {
        Some(r) => format!(
            " Replay {}/{}{} ",
            app.history.point(),
            app.history.line().len(),
            if r.autoplay { " ▶" } else { "" }
        ),
        None => " Moves ".to_string(),
    };
    let block = Block::new()
        .borders(Borders::ALL)
        .title(title)
        .title_style(t.title);
    let inner = block.inner(area);
    block.render(area, buf);
    let line = app.history.line();
    let n = line.len();
    let rows = inner.height as usize;
    // Keep the shown move in view (the last one while playing).
    let current = app.history.point();
    let start = current
        .saturating_sub(rows.saturating_sub(1))
        .min(n.saturating_sub(rows));
    let lines: Vec<Line> = line[start..]
        .iter()
        .take(rows)
        .enumerate()
        .map(|(i, p)| {
            let num = start + i + 1;
            let black = p.side == Side::Black;
            let text = format!("{num:>4} {} {}", if black { "▲" } else { "△" }, p.text);
            if num == current {
                Line::styled(
                    format!("{text} ◀"),
                    t.title.add_modifier(Modifier::REVERSED),
                )
            } else {
                Line::from(text)
            }
        })
        .collect();
    Paragraph::new(lines).render(inner, buf);
}

fn draw_status(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let text = match &app.mode {
        Mode::Prompt(PromptKind::Find, s) => {
            format!("Find a piece (name, code or kanji): {s}_   Enter to find, Esc to cancel")
        }
        Mode::Prompt(PromptKind::Goto, s) => {
            format!("Go to square (file.rank): {s}_   Enter to go, Esc to cancel")
        }
        Mode::Prompt(PromptKind::Save, s) => {
            format!("Save as: {s}_   Enter to save, Esc to cancel")
        }
        Mode::Confirm(ConfirmKind::Quit) => "Quit this game? y / n".to_string(),
        Mode::Confirm(ConfirmKind::Resign) => {
            format!("{} resigns? y / n", capital_side(app.pos().to_move()))
        }
        _ => app.status.clone(),
    };
    let style = if app.warning || matches!(app.mode, Mode::Confirm(_) | Mode::Promote { .. }) {
        t.warning
    } else {
        t.status
    };
    let turn = match app.outcome() {
        Some(o) => format!(" {} won ", capital_side(o.winner)),
        None => format!(" {} to move ", capital_side(app.pos().to_move())),
    };
    let turn_style = if app.pos().to_move() == Side::Black {
        t.black
    } else {
        t.white
    }
    .add_modifier(Modifier::REVERSED);
    buf.set_string(area.x, area.y, &turn, turn_style);
    let x = area.x + turn.width() as u16 + 1;
    let end = x + text.width() as u16;
    buf.set_stringn(
        x,
        area.y,
        text,
        area.width.saturating_sub(x - area.x) as usize,
        style,
    );
    // The game, at the right where the line has room for it.
    let game = format!(" {} ", app.rules().game.name);
    let w = game.width() as u16;
    if end + 1 + w <= area.right() {
        buf.set_string(area.right() - w, area.y, game, t.label);
    }
}

/// The hint line, from the keymap.
pub fn hint_text(app: &App) -> String {
    let k = &app.keymap;
    if app.replay.is_some() {
        return join_hints(&[
            (k.keys_of(Action::ReplayNext), "next"),
            (k.keys_of(Action::ReplayPrev), "back"),
            (
                format!(
                    "{}/{}",
                    k.keys_of(Action::ReplayStart),
                    k.keys_of(Action::ReplayEnd)
                ),
                "start/end",
            ),
            (k.keys_of(Action::ReplayGoto), "move N"),
            (k.keys_of(Action::Autoplay), "autoplay"),
            (
                format!(
                    "{}/{}",
                    k.keys_of(Action::Slower),
                    k.keys_of(Action::Faster)
                ),
                "speed",
            ),
            (k.keys_of(Action::Branch), "play on from here"),
            (k.keys_of(Action::Help), "help"),
            (k.keys_of(Action::Quit), "quit"),
        ]);
    }
    join_hints(&[
        (
            format!(
                "{}/{}/{}/{}",
                k.keys_of(Action::Left),
                k.keys_of(Action::Down),
                k.keys_of(Action::Up),
                k.keys_of(Action::Right)
            ),
            "move",
        ),
        (k.keys_of(Action::Select), "select"),
        (k.keys_of(Action::Cancel), "cancel"),
        (k.keys_of(Action::Undo), "undo"),
        (k.keys_of(Action::Find), "find"),
        (k.keys_of(Action::Goto), "go to"),
        (k.keys_of(Action::ZoomIn), "zoom"),
        (k.keys_of(Action::Save), "save"),
        (k.keys_of(Action::Help), "help"),
        (k.keys_of(Action::Quit), "quit"),
    ])
}

fn join_hints(hints: &[(String, &str)]) -> String {
    hints
        .iter()
        .map(|(key, what)| format!("{key} {what}"))
        .collect::<Vec<_>>()
        .join(" · ")
}

fn draw_hint(app: &App, area: Rect, buf: &mut Buffer) {
    buf.set_stringn(
        area.x,
        area.y,
        hint_text(app),
        area.width as usize,
        app.theme.label,
    );
}

/// The help overlay: every action with its keys, and the overlay legend.
pub fn help_lines(app: &App) -> Vec<String> {
    let mut lines = vec![
        "Keys (rebind them in keys.toml in your config directory):".to_string(),
        String::new(),
    ];
    for a in Action::ALL {
        lines.push(format!("  {:<22} {}", app.keymap.keys_of(a), a.describe()));
    }
    lines.push("  mouse                  click: select / choose; wheel: scroll".into());
    lines.push(String::new());
    lines.push("On the board:".into());
    for part in LEGEND.split("   ") {
        lines.push(format!("  {part}"));
    }
    lines.push(String::new());
    lines.push("A multi-leg move (lion, hook mover) is entered leg by leg: choose each".into());
    lines.push("stop in turn; @ marks squares where the move can go on. Any key closes.".into());
    lines
}

fn draw_help(app: &App, area: Rect, buf: &mut Buffer) {
    let lines = help_lines(app);
    let w = (lines.iter().map(|l| l.width()).max().unwrap_or(40) as u16 + 4).min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let r = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    Clear.render(r, buf);
    let block = Block::new()
        .borders(Borders::ALL)
        .title(" Help ")
        .title_style(app.theme.title);
    let inner = block.inner(r);
    block.render(r, buf);
    Paragraph::new(lines.into_iter().map(Line::from).collect::<Vec<_>>()).render(inner, buf);
}

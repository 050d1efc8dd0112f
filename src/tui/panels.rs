//! The side panels: the piece card, the minimap and the move list. They draw what the board
//! and the game show; they take no keys.

use super::board::Board;
use super::replay::Replay;
use super::text::{CARD_LEGEND, capital, count, wrapped_rows};
use super::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};
use taikyoku_core::card::Cards;
use taikyoku_core::catalogue::KindId;
use taikyoku_core::geometry::Side;
use taikyoku_core::reach::mark;
use taikyoku_records::history::History;

/// "Frozen by White's Skyward net on 9.5: it cannot move." for a piece under the cursor that
/// an enemy aura holds.
fn held_text(h: &History, board: &Board) -> Option<String> {
    use taikyoku_core::reach::Held;
    let sq = board.cursor_square();
    let held = board.held.iter().find(|x| x.0 == sq)?.1;
    let (how, by, what) = match held {
        Held::Frozen { by } => ("Frozen", by, "it cannot move"),
        Held::Silenced { by } => ("Silenced", by, "it cannot shoot"),
    };
    let p = h.position().piece_at(by)?;
    Some(format!(
        "{how} by {}'s {} on {}: {what}.",
        capital(p.side.name()),
        h.rules().catalogue().kind(p.kind).name,
        h.rules().dims().square_name(by)
    ))
}

/// The card of the piece under the cursor.
pub struct CardPanel {
    /// Piece cards, built when first shown.
    pub cards: Cards,
    /// How far the card is scrolled, and for which kind (another kind shows from the top).
    pub offset: (u16, Option<KindId>),
}

/// Rows a card scrolls by per key.
const SCROLL_STEP: u16 = 5;

impl CardPanel {
    pub fn new(cards: Cards) -> CardPanel {
        CardPanel {
            cards,
            offset: (0, None),
        }
    }

    /// Scrolls the card of `kind` down or up (the draw stops at its end).
    pub fn scroll(&mut self, kind: Option<KindId>, down: bool) {
        let from = if self.offset.1 == kind {
            self.offset.0
        } else {
            0
        };
        let to = if down {
            from.saturating_add(SCROLL_STEP)
        } else {
            from.saturating_sub(SCROLL_STEP)
        };
        self.offset = (to, kind);
    }

    /// Draws the card of the piece under the cursor (or the last one found).
    pub fn draw(&self, h: &History, board: &Board, t: &Theme, area: Rect, buf: &mut Buffer) {
        let block = Block::new()
            .borders(Borders::ALL)
            .title(" Piece ")
            .title_style(t.title);
        let inner = block.inner(area);
        let d = h.rules().dims();
        let sq = board.cursor_square();
        let place = match board.shown_elsewhere(h) {
            Some(from) => format!(
                "{} · the selected piece, on {}:",
                d.square_name(sq),
                d.square_name(from)
            ),
            None => d.square_name(sq),
        };
        let mut lines: Vec<Line> = vec![Line::styled(place, t.label)];
        match board.shown_piece(h) {
            None => lines.push(Line::from("An empty square.")),
            Some((kind, piece)) => {
                let card = self.cards.get(h.rules(), kind);
                lines.push(Line::from(vec![
                    Span::styled(format!("{} ", card.kanji), t.title),
                    Span::styled(format!("{} ({})", card.name, card.code), t.title),
                ]));
                let mut facts = Vec::new();
                match piece {
                    Some(p) => {
                        facts.push(capital(p.side.name()));
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
                if let Some(held) = held_text(h, board) {
                    lines.push(Line::styled(held, t.warning));
                }
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
                let moves = board
                    .overlay
                    .iter()
                    .filter(|&&f| f & (mark::QUIET | mark::CAPTURE) != 0)
                    .count();
                if piece.is_some() {
                    lines.push(Line::from(format!(
                        "{} it can reach from here",
                        count(moves, "square")
                    )));
                }
                for row in card.movement.diagram.lines() {
                    lines.push(Line::styled(row.to_string(), t.label));
                }
                for key in diagram_key(&card.movement.diagram) {
                    lines.push(Line::styled(key, t.label));
                }
            }
        }
        lines.push(Line::from(""));
        lines.extend(CARD_LEGEND.map(|l| Line::styled(l, t.label)));
        // Scrolled as the player asked, never past the end; the title says when there is more.
        let rows = wrapped_rows(&lines, inner.width);
        let max = rows.saturating_sub(inner.height);
        let kind = board.shown_piece(h).map(|p| p.0);
        let offset = if self.offset.1 == kind {
            self.offset.0.min(max)
        } else {
            0
        };
        let more = match (offset > 0, offset < max) {
            (false, false) => "",
            (false, true) => " } more ",
            (true, true) => " { } scroll ",
            (true, false) => " { back ",
        };
        let block = block.title_top(Line::from(more).right_aligned());
        block.render(area, buf);
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((offset, 0))
            .render(inner, buf);
    }
}

/// The entries of the diagram's key for the symbols this diagram uses.
fn diagram_key(diagram: &str) -> Vec<String> {
    taikyoku_core::explain::LEGEND
        .lines()
        .flat_map(|l| l.split("  "))
        .map(str::trim)
        .filter(|e| {
            let symbols = e.split(' ').next().unwrap_or("");
            !e.is_empty() && symbols.chars().any(|c| diagram.contains(c))
        })
        .map(str::to_string)
        .collect()
}

/// The whole board at a glance.
pub struct Minimap;

impl Minimap {
    /// Draws the whole board in half-block cells: pieces, the viewport, the cursor, the last move.
    pub fn draw(h: &History, board: &Board, t: &Theme, area: Rect, buf: &mut Buffer) {
        let block = Block::new()
            .borders(Borders::ALL)
            .title(" Board ")
            .title_style(t.title);
        let inner = block.inner(area);
        block.render(area, buf);
        let d = h.rules().dims();
        let pos = h.position();
        let g = board.geom;
        let (sc, sr) = board.view.scroll;
        let in_view = |c: i32, r: i32| c >= sc && c < sc + g.cols && r >= sr && r < sr + g.rows;
        let last: Vec<_> = h
            .last()
            .map(|p| {
                let mut v = vec![p.mv.from, p.mv.to];
                v.extend_from_slice(p.mv.path());
                v
            })
            .unwrap_or_default();
        let color_at = |c: i32, r: i32| {
            let (x, y) = board.board_xy(c, r);
            let sq = d.square(x, y)?;
            Some(if (x, y) == board.cursor {
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
        Minimap::frame(board, inner, t, buf);
    }

    /// The viewport as a frame drawn over the minimap (when the board does not all show).
    fn frame(board: &Board, inner: Rect, t: &Theme, buf: &mut Buffer) {
        let g = board.geom;
        let (files, ranks) = (inner.width as i32, inner.height as i32 * 2);
        let (sc, sr) = board.view.scroll;
        let d = board.dims();
        if g.cols >= d.files as i32 && g.rows >= d.ranks as i32 {
            return;
        }
        let (left, right) = (sc.max(0), (sc + g.cols - 1).min(files - 1));
        let (top, bottom) = (sr.max(0) / 2, (sr + g.rows - 1).min(ranks - 1) / 2);
        for r in top..=bottom {
            for c in left..=right {
                let glyph = match (c == left, c == right, r == top, r == bottom) {
                    (true, _, true, _) => "┌",
                    (_, true, true, _) => "┐",
                    (true, _, _, true) => "└",
                    (_, true, _, true) => "┘",
                    (_, _, true, _) | (_, _, _, true) => "─",
                    (true, _, _, _) | (_, true, _, _) => "│",
                    _ => continue,
                };
                let cell = &mut buf[(inner.x + c as u16, inner.y + r as u16)];
                cell.set_symbol(glyph).set_style(t.mini_frame);
            }
        }
    }
}

/// The moves played.
pub struct MoveList;

impl MoveList {
    /// Draws the moves of the line, the one that reached the shown position marked; in a replay
    /// the title says where the replay is and whether it plays by itself.
    pub fn draw(h: &History, replay: Option<&Replay>, t: &Theme, area: Rect, buf: &mut Buffer) {
        let title = match replay {
            Some(r) => format!(
                " Replay {}/{}{} ",
                h.point(),
                h.line().len(),
                if r.playing() { " ▶" } else { "" }
            ),
            None => " Moves ".to_string(),
        };
        let block = Block::new()
            .borders(Borders::ALL)
            .title(title)
            .title_style(t.title);
        let inner = block.inner(area);
        block.render(area, buf);
        let line = h.line();
        let n = line.len();
        let rows = inner.height as usize;
        // Keep the shown move in view (the last one while playing).
        let current = h.point();
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
}

//! The side panels: the piece card, the minimap and the move list. They draw what the board
//! and the game show; they take no keys.

use super::board::{Board, mark};
use super::replay::Replay;
use super::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};
use taikyoku::card::Cards;
use taikyoku::geometry::Side;
use taikyoku::history::History;

/// The card of the piece under the cursor.
pub struct CardPanel {
    /// Piece cards, built when first shown.
    pub cards: Cards,
}

impl CardPanel {
    /// Draws the card of the piece under the cursor (or the last one found).
    pub fn draw(&self, h: &History, board: &Board, t: &Theme, area: Rect, buf: &mut Buffer) {
        let block = Block::new()
            .borders(Borders::ALL)
            .title(" Piece ")
            .title_style(t.title);
        let inner = block.inner(area);
        block.render(area, buf);
        let d = h.rules().dims();
        let sq = board.cursor_square();
        let mut lines: Vec<Line> = vec![Line::from(vec![
            Span::styled(format!("{} ", d.square_name(sq)), t.label),
            Span::raw(format!("({}, {})", board.cursor.0, board.cursor.1)),
        ])];
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
                let moves = board
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
}

fn capital_side(s: Side) -> String {
    super::app::capital(s.name())
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

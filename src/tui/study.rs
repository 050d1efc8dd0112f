//! The part of the side panel that studies the game, around the move list: what was taken
//! and the material balance ([`crate::material`]). It is kept up to date after every message
//! ([`Study::sync`]), so that drawing only reads it; it takes the move list's rows and gives
//! them back as the terminal grows: on a small one the balance folds into the move list's
//! border.

use super::text::wrapped_rows;
use super::theme::Theme;
use crate::material::{Captures, Tally};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};
use taikyoku_core::geometry::Side;
use taikyoku_records::history::History;
use unicode_width::UnicodeWidthStr;

/// What the panel knows about the game beyond its moves.
#[derive(Default)]
pub struct Study {
    captures: Captures,
    /// The tally at the point shown, and the point and position it is of.
    pub tally: Tally,
    tally_of: Option<(usize, u64)>,
}

impl Study {
    /// Catches up with the game after a message: the captures of new moves, the tally of a
    /// new point.
    pub fn sync(&mut self, h: &History) {
        let changed = self.captures.sync(h);
        let of = Some((h.point(), h.position().hash()));
        if changed || self.tally_of != of {
            self.tally = self.captures.tally(h);
            self.tally_of = of;
        }
    }
}

/// The rows of the move list's place the move list keeps before the study's boxes get any.
const MOVES_KEEP: u16 = 6;
/// The tally's box: its three lines and its border.
const TALLY_ROWS: u16 = 5;

/// The rows the study's boxes would like beside the move list.
pub fn rows_wanted(_app: &super::app::App) -> u16 {
    TALLY_ROWS
}

/// Where the study's parts go in the move list's place `area`: the tally's box (when there
/// is room), and the move list.
pub fn split(study: &Study, h: &History, area: Rect) -> (Option<Rect>, Rect) {
    if area.height < MOVES_KEEP + TALLY_ROWS {
        return (None, area);
    }
    let lines = tally_lines(study, h, area.width.saturating_sub(2));
    let rows =
        (wrapped_rows(&lines, area.width.saturating_sub(2)) + 2).min(area.height - MOVES_KEEP);
    let tally = Rect {
        height: rows,
        ..area
    };
    let rest = Rect {
        y: area.y + rows,
        height: area.height - rows,
        ..area
    };
    (Some(tally), rest)
}

/// The tally's lines for a box `width` wide inside: kind names where there is room, codes
/// where not.
fn tally_lines<'a>(study: &Study, h: &History, width: u16) -> Vec<Line<'a>> {
    let (t, rules) = (&study.tally, h.rules());
    let short = width < 50;
    let mut lines: Vec<Line> = Side::BOTH
        .iter()
        .map(|&s| {
            Line::from(vec![
                Span::raw(format!(
                    "{} {} took {}: ",
                    mark(s),
                    side_name(s),
                    t.taken(s)
                )),
                Span::raw(t.took_text(rules, s, short)),
            ])
        })
        .collect();
    lines.push(Line::from(format!(
        "Left: {} {} · {} {} · material {}",
        mark(Side::Black),
        t.left[0],
        mark(Side::White),
        t.left[1],
        t.balance_text()
    )));
    lines
}

fn mark(s: Side) -> &'static str {
    match s {
        Side::Black => "▲",
        Side::White => "△",
    }
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::Black => "Black",
        Side::White => "White",
    }
}

/// The tally in a box of its own: what each side took, what is left, the balance.
pub struct TallyWidget<'a> {
    pub study: &'a Study,
    pub history: &'a History,
    pub theme: &'a Theme,
}

impl Widget for TallyWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let block = Block::new()
            .borders(Borders::ALL)
            .title(" Taken ")
            .title_style(self.theme.title);
        let inner = block.inner(area);
        block.render(area, buf);
        let lines = tally_lines(self.study, self.history, inner.width);
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
    }
}

/// The tally folded into the bottom border of the move list at `area`: "▲3 △1 · black
/// +2.30", as much of it as fits.
pub fn fold_tally(study: &Study, area: Rect, theme: &Theme, buf: &mut Buffer) {
    let t = &study.tally;
    let text = format!(
        " took ▲{} △{} · {} ",
        t.taken(Side::Black),
        t.taken(Side::White),
        t.balance_text()
    );
    if area.height < 2 || area.width < 6 {
        return;
    }
    let room = area.width.saturating_sub(4) as usize;
    if text.width() <= room {
        buf.set_stringn(area.x + 2, area.bottom() - 1, text, room, theme.label);
    }
}

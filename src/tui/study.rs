//! The part of the side panel that studies the game, around the move list: the analysis
//! line and the replay's score graph ([`super::graph`]), what was taken and the material
//! balance ([`crate::material`]). It is kept up to date after every message
//! ([`Study::sync`]), so that drawing only reads it; it takes the move list's rows and gives
//! them back as the terminal grows: on a small one the balance folds into the move list's
//! border.

use super::app::App;
use super::graph::{AnalysisWidget, GraphWidget};
use super::panels::MoveListWidget;
use super::text::wrapped_rows;
use super::theme::Theme;
use crate::material::{Captures, Tally};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
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
/// The tally's box as the move list asks for it: its three lines and its border (longer
/// lists wrap into more where there are rows).
const TALLY_ROWS: u16 = 5;
/// The analysis line's box: its score line, two rows of its moves, and its border.
const ANALYSIS_ROWS: u16 = 5;
/// The score graph's box.
const GRAPH_ROWS: u16 = 9;

/// The rows the study's boxes would like beside the move list.
pub fn rows_wanted(app: &App) -> u16 {
    let analysis = if app.analysis.on { ANALYSIS_ROWS } else { 0 };
    let graph = if app.replay.is_some() { GRAPH_ROWS } else { 0 };
    TALLY_ROWS + analysis + graph
}

/// Where a part of the study goes: a box of its own, or one row folded into the move list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Boxed(Rect),
    Folded(Rect),
}

/// The study's parts in the move list's place `area`: the analysis line (when on), the
/// replay's score graph, the tally, and what is left for the move list. Each part gets its
/// box while the move list keeps [`MOVES_KEEP`] rows; else the analysis and the graph take a
/// row inside the move list's border and the tally folds into its bottom border.
struct Parts {
    analysis: Option<Place>,
    graph: Option<Place>,
    tally: Option<Rect>,
    moves: Rect,
}

fn parts(app: &App, area: Rect) -> Parts {
    let mut rest = area;
    let take = |rows: u16, rest: &mut Rect| {
        let part = Rect {
            height: rows,
            ..*rest
        };
        rest.y += rows;
        rest.height -= rows;
        part
    };
    let boxed =
        |rows: u16, rest: &mut Rect| (rest.height >= rows + MOVES_KEEP).then(|| take(rows, rest));
    let analysis = app
        .analysis
        .on
        .then(|| match boxed(ANALYSIS_ROWS, &mut rest) {
            Some(r) => Place::Boxed(r),
            None => Place::Folded(Rect::default()),
        });
    let graph = app
        .replay
        .is_some()
        .then(|| match boxed(GRAPH_ROWS, &mut rest) {
            Some(r) => Place::Boxed(r),
            None => Place::Folded(Rect::default()),
        });
    let width = rest.width.saturating_sub(2);
    let lines = tally_lines(&app.study, app.history(), width);
    let tally = boxed(wrapped_rows(&lines, width).max(1) + 2, &mut rest);
    // What folds takes a row inside the move list's border, top down.
    let mut inner = Rect {
        x: rest.x + 1,
        y: rest.y + 1,
        width: rest.width.saturating_sub(2),
        height: rest.height.saturating_sub(2),
    };
    let mut fold = |p: Option<Place>| match p {
        Some(Place::Folded(_)) if inner.height > 1 => Some(Place::Folded(take(1, &mut inner))),
        Some(Place::Folded(_)) => None,
        other => other,
    };
    let (analysis, graph) = (fold(analysis), fold(graph));
    Parts {
        analysis,
        graph,
        tally,
        moves: rest,
    }
}

/// The move list's place: the study's parts and the move list, drawn.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let (h, theme) = (app.history(), &app.theme);
    let p = parts(app, area);
    MoveListWidget {
        history: h,
        replay: app.replay.as_ref(),
        theme,
    }
    .render(p.moves, buf);
    // The folded rows were kept out of the move list: they are drawn over its top rows.
    let folded = [p.analysis, p.graph]
        .iter()
        .filter(|x| matches!(x, Some(Place::Folded(_))))
        .count() as u16;
    if folded > 0 {
        let inner = Rect {
            x: p.moves.x + 1,
            y: p.moves.y + 1,
            width: p.moves.width.saturating_sub(2),
            height: folded.min(p.moves.height.saturating_sub(2)),
        };
        super::dialogs::clear(inner, buf);
    }
    if let Some(place) = p.analysis {
        let w = AnalysisWidget {
            analysis: &app.analysis,
            keymap: &app.keymap,
            theme,
        };
        match place {
            Place::Boxed(r) => w.render(r, buf),
            Place::Folded(r) => w.fold(r, buf),
        }
    }
    if let Some(place) = p.graph {
        let w = GraphWidget {
            scores: &app.analysis.game,
            history: h,
            theme,
        };
        match place {
            Place::Boxed(r) => w.render(r, buf),
            Place::Folded(r) => w.fold(r, buf),
        }
    }
    match p.tally {
        Some(r) => TallyWidget {
            study: &app.study,
            history: h,
            theme,
        }
        .render(r, buf),
        None => fold_tally(&app.study, p.moves, theme, buf),
    }
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
        let inner = super::graph::framed(" Taken ".into(), self.theme, area, buf);
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

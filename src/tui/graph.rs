//! How the analysis board draws: the standing analysis line, and the replay's score graph
//! (a ratatui chart of every position's score for Black, the move shown marked, the worst
//! moves flagged). Each draws in a box of its own, or folded into one row of the move list
//! on a small terminal.

use super::analysis::{Analysis, GameScores};
use super::keys::{Action, Keymap};
use super::text::{capital, score_or_end};
use super::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Block, Borders, Chart, Dataset, GraphType, Paragraph, Widget, Wrap};
use taikyoku_records::history::History;

/// The worst moves flagged on the graph.
const WORST: usize = 3;
/// The graph's scale is at least a pawn either way and at most this many.
const MAX_PAWNS: f64 = 10.0;

/// The standing analysis line.
pub struct AnalysisWidget<'a> {
    pub analysis: &'a Analysis,
    pub keymap: &'a Keymap,
    pub theme: &'a Theme,
}

impl AnalysisWidget<'_> {
    /// "depth 7 · Black +0.35 · 120k nodes", or what it waits for.
    fn head(&self) -> String {
        let a = self.analysis;
        match &a.line {
            _ if a.paused => "paused while the computer thinks".into(),
            None => "thinking…".into(),
            Some(l) => format!(
                "depth {}{} · {} {} · {} nodes",
                l.depth,
                if l.done { " (done)" } else { "" },
                capital(l.side.name()),
                score_or_end(l.score),
                nodes(l.nodes)
            ),
        }
    }

    fn moves(&self) -> String {
        self.analysis
            .line
            .as_ref()
            .map_or(String::new(), |l| l.moves.join(" "))
    }

    /// One row: "A d7 +0.35 P19.26-19.25 …".
    pub fn fold(&self, area: Rect, buf: &mut Buffer) {
        let text = match &self.analysis.line {
            Some(l) if !self.analysis.paused => {
                format!("A d{} {} {}", l.depth, score_or_end(l.score), self.moves())
            }
            _ => format!("A {}", self.head()),
        };
        buf.set_stringn(area.x, area.y, text, area.width as usize, self.theme.title);
    }
}

impl Widget for AnalysisWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let title = format!(
            " Analysis ({} stops) ",
            self.keymap.keys_of(Action::Analysis)
        );
        let inner = framed(title, t, area, buf);
        let lines = vec![
            Line::styled(self.head(), t.label),
            Line::styled(self.moves(), t.status),
        ];
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
    }
}

/// A box with `title` drawn at `area`; what is inside it.
pub fn framed(title: String, t: &Theme, area: Rect, buf: &mut Buffer) -> Rect {
    let block = Block::new()
        .borders(Borders::ALL)
        .title(title)
        .title_style(t.title);
    let inner = block.inner(area);
    block.render(area, buf);
    inner
}

/// "950", "12k", "3.4M".
fn nodes(n: u64) -> String {
    match n {
        n if n >= 1_000_000 => format!("{:.1}M", n as f64 / 1e6),
        n if n >= 10_000 => format!("{}k", n / 1000),
        n => n.to_string(),
    }
}

/// The replayed game's scores as a chart.
pub struct GraphWidget<'a> {
    pub scores: &'a GameScores,
    pub history: &'a History,
    pub theme: &'a Theme,
}

impl GraphWidget<'_> {
    /// The points scored so far, in pawns for Black, capped at the scale.
    fn points(&self) -> Vec<(f64, f64)> {
        self.scores
            .scores
            .iter()
            .enumerate()
            .filter_map(|(n, s)| Some((n as f64, pawns(s.as_ref().copied()?))))
            .collect()
    }

    /// " Scores · worst 15 40 · scoring 30/101 ".
    fn title(&self, worst: &[usize]) -> String {
        let (done, all) = self.scores.progress();
        let mut t = " Scores for Black".to_string();
        if !worst.is_empty() {
            let w: Vec<String> = worst.iter().map(usize::to_string).collect();
            t.push_str(&format!(" · worst: {}", w.join(", ")));
        }
        if done < all {
            t.push_str(&format!(" · scoring {done}/{all}"));
        }
        t.push(' ');
        t
    }

    /// One row: a sparkline of the scores, the move shown in reverse video.
    pub fn fold(&self, area: Rect, buf: &mut Buffer) {
        const BARS: [&str; 8] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];
        let n = self.scores.scores.len();
        let w = area.width as usize;
        if n == 0 || w == 0 {
            return;
        }
        let here = self.history.point();
        let worst = self.scores.worst(self.history, WORST);
        for x in 0..w.min(n) {
            // Each column stands for the positions from `first` on.
            let first = x * n / w.min(n);
            let last = ((x + 1) * n / w.min(n)).max(first + 1);
            let score = self.scores.scores[first..last].iter().flatten().next();
            let glyph = score.map_or("·", |&s| {
                let level = ((pawns(s) + MAX_PAWNS) / (2.0 * MAX_PAWNS) * 7.0).round();
                BARS[level.clamp(0.0, 7.0) as usize]
            });
            let mut style = self.theme.label;
            if (first + 1..=last).any(|m| worst.contains(&m)) {
                style = self.theme.warning;
            }
            if (first..last).contains(&here) {
                style = style.add_modifier(Modifier::REVERSED);
            }
            buf.set_string(area.x + x as u16, area.y, glyph, style);
        }
    }
}

/// A score in pawns on the graph's scale.
fn pawns(score: i32) -> f64 {
    (score as f64 / 100.0).clamp(-MAX_PAWNS, MAX_PAWNS)
}

impl Widget for GraphWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let points = self.points();
        let worst = self.scores.worst(self.history, WORST);
        let top = points
            .iter()
            .map(|p| p.1.abs())
            .fold(1.0_f64, f64::max)
            .min(MAX_PAWNS);
        let here = self.history.point();
        let at = |n: usize| points.iter().find(|p| p.0 as usize == n).copied();
        let marked: Vec<(f64, f64)> = at(here).into_iter().collect();
        let flagged: Vec<(f64, f64)> = worst.iter().filter_map(|&n| at(n)).collect();
        let zero = [
            (0.0, 0.0),
            (self.scores.scores.len().saturating_sub(1) as f64, 0.0),
        ];
        let datasets = vec![
            Dataset::default()
                .graph_type(GraphType::Line)
                .marker(Marker::Dot)
                .style(t.label)
                .data(&zero),
            Dataset::default()
                .graph_type(GraphType::Line)
                .marker(Marker::Braille)
                .style(t.title)
                .data(&points),
            Dataset::default()
                .marker(Marker::Block)
                .style(t.warning)
                .data(&flagged),
            Dataset::default()
                .marker(Marker::Block)
                .style(t.cursor)
                .data(&marked),
        ];
        let last = self.scores.scores.len().saturating_sub(1).max(1) as f64;
        let block = Block::new()
            .borders(Borders::ALL)
            .title(self.title(&worst))
            .title_style(t.title)
            .title_bottom(Line::from(format!(" move {here} ")).right_aligned());
        Chart::new(datasets)
            .block(block)
            .x_axis(Axis::default().bounds([0.0, last]))
            .y_axis(
                Axis::default()
                    .bounds([-top, top])
                    .labels([format!("{:+.0}", -top), format!("{:+.0}", top)]),
            )
            .render(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::analysis::Line as Best;
    use taikyoku_core::geometry::Side;

    fn folded(score: i32) -> String {
        let mut analysis = Analysis::default();
        analysis.on = true;
        analysis.line = Some(Best {
            depth: 5,
            score,
            side: Side::Black,
            moves: vec!["P9.7-9.6".into()],
            nodes: 1000,
            done: false,
        });
        let (keymap, theme) = (Keymap::default(), Theme::default_theme());
        let w = AnalysisWidget {
            analysis: &analysis,
            keymap: &keymap,
            theme: &theme,
        };
        let area = Rect::new(0, 0, 60, 1);
        let mut buf = Buffer::empty(area);
        w.fold(area, &mut buf);
        (0..area.width)
            .map(|x| buf[(x, 0)].symbol())
            .collect::<String>()
            .trim_end()
            .into()
    }

    #[test]
    fn a_won_line_says_in_how_many_moves_not_a_huge_number() {
        assert_eq!(folded(35), "A d5 +0.35 P9.7-9.6");
        assert_eq!(
            folded(taikyoku_search::MATE - 3),
            "A d5 wins in 2 moves P9.7-9.6"
        );
    }
}

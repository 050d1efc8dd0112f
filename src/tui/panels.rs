//! The side panel: the piece card, the minimap and the move list, stacked as the player sets
//! it (its width, the part in front). It takes the panel's own keys (width, front, card
//! scroll); its parts draw as widgets from what the board and the game show.

use super::board::Board;
use super::component::{Component, Context, Reply};
use super::keys::Action;
use super::msg::Msg;
use super::replay::Replay;
use super::text::{CARD_LEGEND, capital, count, wrapped_rows};
use super::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};
use taikyoku_core::card::{Cards, PieceCard};
use taikyoku_core::catalogue::KindId;
use taikyoku_core::geometry::Side;
use taikyoku_core::piece::Piece;
use taikyoku_records::history::History;

/// How wide the side panel is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanelWidth {
    /// At least [`PANEL_WIDTH`](super::view::PANEL_WIDTH), and whatever the board leaves
    /// spare.
    Auto,
    Narrow,
    Hidden,
}

impl PanelWidth {
    pub fn next(self) -> PanelWidth {
        match self {
            PanelWidth::Auto => PanelWidth::Narrow,
            PanelWidth::Narrow => PanelWidth::Hidden,
            PanelWidth::Hidden => PanelWidth::Auto,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            PanelWidth::Auto => "The side panel is back, as wide as the board leaves room for.",
            PanelWidth::Narrow => "The side panel is narrow.",
            PanelWidth::Hidden => "The side panel is hidden: the board has the whole width.",
        }
    }
}

/// A part of the side panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    Card,
    Minimap,
    Moves,
}

impl Section {
    pub const ALL: [Section; 3] = [Section::Card, Section::Minimap, Section::Moves];

    pub fn next(self) -> Section {
        match self {
            Section::Card => Section::Minimap,
            Section::Minimap => Section::Moves,
            Section::Moves => Section::Card,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Section::Card => "the piece card",
            Section::Minimap => "the minimap",
            Section::Moves => "the move list",
        }
    }
}

/// The panel as the player set it: its width and the part in front.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panel {
    pub width: PanelWidth,
    pub front: Section,
}

impl Default for Panel {
    fn default() -> Panel {
        Panel {
            width: PanelWidth::Auto,
            front: Section::Card,
        }
    }
}

/// The side panel component: how it is laid out, and the card's scroll.
pub struct SidePanel {
    pub layout: Panel,
    pub card: CardPanel,
}

impl SidePanel {
    pub fn new(cards: Cards) -> SidePanel {
        SidePanel {
            layout: Panel::default(),
            card: CardPanel::new(cards),
        }
    }
}

impl Component for SidePanel {
    /// Its width, the part in front, and the card's scroll (of the card shown).
    fn handle(&mut self, msg: &Msg, cx: &Context) -> Reply {
        let Msg::Act(a) = msg else {
            return Reply::Pass;
        };
        let said = match a {
            Action::PanelWidth => {
                self.layout.width = self.layout.width.next();
                Msg::say(self.layout.width.describe())
            }
            Action::PanelNext => {
                self.layout.front = self.layout.front.next();
                Msg::Say(format!(
                    "The side panel shows {} first.",
                    self.layout.front.name()
                ))
            }
            Action::CardUp | Action::CardDown => {
                self.card.scroll(cx.shown, *a == Action::CardDown);
                return Reply::Done(None);
            }
            _ => return Reply::Pass,
        };
        Reply::Done(Some(said))
    }
}

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

    /// How far the card of `kind` shows scrolled, never past `max` (the end), and what its
    /// title says about the rest.
    fn scrolled(&self, kind: Option<KindId>, max: u16) -> (u16, &'static str) {
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
        (offset, more)
    }
}

/// The card of the piece under the cursor (or of the selected piece, or the last one found),
/// and the board's legend under it.
pub struct CardWidget<'a> {
    pub card: &'a CardPanel,
    pub board: &'a Board,
    pub history: &'a History,
    pub theme: &'a Theme,
}

impl Widget for CardWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let block = Block::new()
            .borders(Borders::ALL)
            .title(" Piece ")
            .title_style(t.title);
        let inner = block.inner(area);
        let shown = self.board.shown_piece(self.history);
        let mut lines = vec![Line::styled(self.place(), t.label)];
        match shown {
            None => lines.push(Line::from("An empty square.")),
            Some((kind, piece)) => self.piece_lines(kind, piece, &mut lines),
        }
        lines.push(Line::from(""));
        lines.extend(CARD_LEGEND.map(|l| Line::styled(l, t.label)));
        // Scrolled as the player asked, never past the end; the title says when there is more.
        let max = wrapped_rows(&lines, inner.width).saturating_sub(inner.height);
        let (offset, more) = self.card.scrolled(shown.map(|p| p.0), max);
        let block = block.title_top(Line::from(more).right_aligned());
        block.render(area, buf);
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((offset, 0))
            .render(inner, buf);
    }
}

impl CardWidget<'_> {
    /// The square under the cursor, and where the selected piece whose card shows stands.
    fn place(&self) -> String {
        let (h, board) = (self.history, self.board);
        let d = h.rules().dims();
        let sq = board.cursor_square();
        match board.shown_elsewhere(h) {
            Some(from) => format!(
                "{} · the selected piece, on {}:",
                d.square_name(sq),
                d.square_name(from)
            ),
            None => d.square_name(sq),
        }
    }

    /// The card of `kind` (`piece`: the one on the board it is shown for).
    fn piece_lines(&self, kind: KindId, piece: Option<Piece>, lines: &mut Vec<Line>) {
        let (h, t) = (self.history, self.theme);
        let card = self.card.cards.get(h.rules(), kind);
        lines.push(Line::from(vec![
            Span::styled(format!("{} ", card.kanji), t.title),
            Span::styled(format!("{} ({})", card.name, card.code), t.title),
        ]));
        lines.push(Line::from(facts(card, piece).join(" · ")));
        if let Some(held) = held_text(h, self.board) {
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
        if piece.is_some() {
            lines.push(Line::from(format!(
                "{} it can reach from here",
                count(self.board.reach_count, "square")
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

/// "Black · promoted · royal · rank 3": whose the piece is and what kind it is.
fn facts(card: &PieceCard, piece: Option<Piece>) -> Vec<String> {
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
    facts
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

/// The whole board at a glance, in half-block cells: pieces, the viewport, the cursor, the
/// last move.
pub struct MinimapWidget<'a> {
    pub board: &'a Board,
    pub history: &'a History,
    pub theme: &'a Theme,
}

impl Widget for MinimapWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (h, board, t) = (self.history, self.board, self.theme);
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
        viewport_frame(board, inner, t, buf);
    }
}

/// The viewport as a frame drawn over the minimap (when the board does not all show).
fn viewport_frame(board: &Board, inner: Rect, t: &Theme, buf: &mut Buffer) {
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

/// The moves of the line, the one that reached the shown position marked; in a replay the
/// title says where the replay is and whether it plays by itself.
pub struct MoveListWidget<'a> {
    pub history: &'a History,
    pub replay: Option<&'a Replay>,
    pub theme: &'a Theme,
}

impl Widget for MoveListWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (h, replay, t) = (self.history, self.replay, self.theme);
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

//! The terminal game's text helpers, in one place so that no component takes another's:
//! capitals, counts, clocks, scores, widths and wrapping, dates as people read them, and the
//! board's legend.

use ratatui::text::Line;
use std::time::Duration;
use unicode_width::UnicodeWidthStr;

/// "1 square", "3 squares" (the command line says counts the same way).
pub use crate::text::count;

/// "Black" for "black": the first letter in capitals.
pub fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// "1:58": a clock as people read it.
pub fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// A score in pawns, from the mover's side: "+0.35".
pub fn score_text(centipawns: i32) -> String {
    format!("{:+.2}", centipawns as f64 / 100.0)
}

/// How the computer judges a position, from the mover's side: "eval +0.35", or, for an end
/// the search has seen (a score beyond [`MATE_BOUND`]), "wins in 2 moves" / "loses in 1
/// move", counted in the mover's own moves (the search's score is the win less its plies).
pub fn eval_text(score: i32) -> String {
    use taikyoku_search::{MATE, MATE_BOUND};
    let plies = MATE.saturating_sub(score.saturating_abs()).max(0) as usize;
    match score {
        s if s > MATE_BOUND => format!("wins in {}", count(plies.div_ceil(2).max(1), "move")),
        s if s < -MATE_BOUND => format!("loses in {}", count((plies / 2).max(1), "move")),
        s => format!("eval {}", score_text(s)),
    }
}

/// `text` cut at the last blank that leaves it within `width` cells, and the rest (none when
/// it all fits).
pub fn split_at_width(text: &str, width: usize) -> (&str, Option<&str>) {
    if text.width() <= width {
        return (text, None);
    }
    let mut cut = 0;
    let mut used = 0;
    for (i, c) in text.char_indices() {
        used += c.to_string().width();
        if used > width {
            break;
        }
        if c == ' ' {
            cut = i;
        }
    }
    if cut == 0 {
        return (text, None);
    }
    (&text[..cut], Some(text[cut..].trim_start()))
}

/// About how many rows `lines` wrap to in `width` cells.
pub fn wrapped_rows(lines: &[Line], width: u16) -> u16 {
    let w = width.max(1) as usize;
    lines
        .iter()
        .map(|l| l.width().max(1).div_ceil(w) as u16)
        .sum()
}

/// The overlay glyphs, for the legend and the help.
pub const LEGEND: &str = "o move (on a piece: its way back)   * jump   x capture   % shot from afar (choose it to shoot)   $ burnt   = frozen by an enemy net (cannot move)   - silenced by an enemy fog (cannot shoot)   ! taken on the way   # removed by range capture   + promotes   @ a multi-leg move can pass here   ~ taken by the last move   & royal that can be taken   ^ v the way a piece faces (Black's up unless the board is turned)   underlined = promoted";

/// The legend under a piece card: the board's marks, in four short lines.
pub const CARD_LEGEND: [&str; 4] = [
    "Board: o move * jump x capture ! on the way",
    "# range capture + promotes @ go on",
    "% shoot $ burnt = frozen - silenced",
    "~ last move took & royal in danger",
];

/// A record's date (RFC 3339, UTC) as people read it, in local time, seen from `now`: "today
/// 21:14", "yesterday 09:02", "3 Nov 18:40", "3 Nov 2025 18:40"; a date that cannot be read
/// as it is written.
pub fn when(date: &str, now: std::time::SystemTime) -> String {
    let (Ok(then), Some(today)) = (humantime::parse_rfc3339_weak(date), local(now)) else {
        return date.to_string();
    };
    let Some(t) = local(then) else {
        return date.to_string();
    };
    let yesterday = now
        .checked_sub(std::time::Duration::from_secs(24 * 3600))
        .and_then(local);
    let day = |d: &Local| (d.year, d.month, d.day);
    let time = format!("{:02}:{:02}", t.hour, t.minute);
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS[t.month.clamp(1, 12) as usize - 1];
    if day(&t) == day(&today) {
        format!("today {time}")
    } else if yesterday.is_some_and(|y| day(&y) == day(&t)) {
        format!("yesterday {time}")
    } else if t.year == today.year {
        format!("{} {month} {time}", t.day)
    } else {
        format!("{} {month} {} {time}", t.day, t.year)
    }
}

/// A moment in the local time zone.
struct Local {
    year: i32,
    month: i32,
    day: i32,
    hour: i32,
    minute: i32,
}

/// `t` in the local time zone (UTC where the system does not say).
fn local(t: std::time::SystemTime) -> Option<Local> {
    let secs = t.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    #[cfg(unix)]
    {
        let secs = libc::time_t::try_from(secs).ok()?;
        // SAFETY: an all-zero `tm` is a valid value of the plain C struct; localtime_r reads
        // `secs` and writes only into `tm` (a null return, a failure, is checked).
        let (tm, ok) = unsafe {
            let mut tm: libc::tm = std::mem::zeroed();
            let ok = !libc::localtime_r(&secs, &mut tm).is_null();
            (tm, ok)
        };
        ok.then_some(Local {
            year: tm.tm_year + 1900,
            month: tm.tm_mon + 1,
            day: tm.tm_mday,
            hour: tm.tm_hour,
            minute: tm.tm_min,
        })
    }
    #[cfg(not(unix))]
    {
        let text = humantime::format_rfc3339_seconds(t).to_string();
        let num = |r: std::ops::Range<usize>| text.get(r)?.parse().ok();
        Some(Local {
            year: num(0..4)?,
            month: num(5..7)?,
            day: num(8..10)?,
            hour: num(11..13)?,
            minute: num(14..16)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::when;
    use std::time::{Duration, SystemTime};

    #[test]
    fn dates_read_as_people_say_them() {
        let now = humantime::parse_rfc3339("2026-12-01T12:00:00Z").unwrap();
        let at = |t: SystemTime| humantime::format_rfc3339_seconds(t).to_string();
        assert!(when(&at(now), now).starts_with("today "));
        let day = Duration::from_secs(24 * 3600);
        assert!(when(&at(now - day), now).starts_with("yesterday "));
        let june = when("2026-06-15T12:00:00Z", now);
        assert!(june.contains(" Jun ") && !june.contains("2026"), "{june}");
        let old = when("2020-03-05T12:00:00Z", now);
        assert!(old.contains(" Mar 2020 "), "{old}");
        let hm = old.rsplit(' ').next().unwrap();
        assert!(hm.len() == 5 && hm.as_bytes()[2] == b':', "{old}");
        assert_eq!(when("soon", now), "soon");
        assert_eq!(when("", now), "");
    }
}

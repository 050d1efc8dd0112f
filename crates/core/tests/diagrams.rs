//! Golden move diagrams: for every piece and rule set, the squares the move generator gives a
//! lone Black piece in the middle of an empty board (rows from Black's far side down). A change
//! in a movement string or in the generator shows up here as a readable diff.

use taikyoku_testkit::*;

fn diagrams(name: &str) -> String {
    let r = rules(name);
    let mut out = String::new();
    for k in &r.catalogue().kinds {
        let reading = &r.readings[k.id as usize];
        let p = position(r, B, &[(k.code.as_str(), B, 17, 17)]);
        let moves = moves_at(r, &p, 17, 17);
        let dests = dests(r, &p, 17, 17);
        let multi = moves.iter().filter(|m| !m.path().is_empty()).count();
        out.push_str(&format!(
            "{} {} {}: {} moves, {} squares{}\n",
            k.code,
            k.name,
            reading.betza,
            moves.len(),
            dests.iter().filter(|&&d| d != (17, 17)).count(),
            if multi > 0 {
                format!(", {multi} with stops")
            } else {
                String::new()
            }
        ));
        // '*' reachable, '@' the piece (also '@' when it can come back to its square), '.' not.
        let radius = 6;
        for y in (17 - radius..=17 + radius).rev() {
            let row: String = (17 - radius..=17 + radius)
                .map(|x| match ((x, y) == (17, 17), dests.contains(&(x, y))) {
                    (true, true) => '@',
                    (true, false) => 'o',
                    (false, true) => '*',
                    (false, false) => '.',
                })
                .collect();
            out.push_str(&format!("  {row}\n"));
        }
        let beyond = dests
            .iter()
            .filter(|&&(x, y)| (x - 17).abs() > radius || (y - 17).abs() > radius)
            .count();
        if beyond > 0 {
            out.push_str(&format!("  + {beyond} squares beyond the window\n"));
        }
    }
    out
}

#[test]
fn golden_diagrams_wikipedia() {
    insta::assert_snapshot!("wikipedia", diagrams("wikipedia"));
}

#[test]
fn golden_diagrams_umebayashi() {
    insta::assert_snapshot!("umebayashi", diagrams("umebayashi"));
}

#[test]
fn golden_diagrams_atsa() {
    insta::assert_snapshot!("atsa", diagrams("atsa"));
}

//! The layers inside each library crate (docs/architecture.md). Between crates the compiler keeps
//! the order; inside a crate nothing does, so this test reads the sources: every `crate::NAME` a
//! module names (outside comments) must be a module of a lower step. A new module must be given
//! its step here, which is the point: someone decides where it stands.

use std::collections::BTreeMap;
use std::path::Path;

/// Each crate's modules, bottom step first; modules of one step may not name each other.
const LADDERS: &[(&str, &[&[&str]])] = &[
    (
        "crates/core/src",
        &[
            &["geometry", "error", "files"],
            &["betza"],
            &["catalogue", "moves", "compile"],
            &["params", "piece"],
            &["setup", "zobrist"],
            &["game", "position"],
            &["auras", "effects"],
            &["tables"],
            &["movegen", "makemove"],
            &["rules"],
            &["movecache", "attacks", "reach", "explain", "notation"],
            &["card", "perft"],
        ],
    ),
    (
        "crates/records/src",
        &[&["timecontrol", "history"], &["record"], &["store"]],
    ),
    (
        "crates/search/src",
        &[
            &["rng", "timeman", "tt"],
            &["values"],
            &["eval"],
            &["movepick", "players"],
            &["worker"],
            &["threads"],
            &["computer"],
        ],
    ),
    (
        "crates/protocol/src",
        &[&["text", "elo", "atsi"], &["host", "serve"], &["matches"]],
    ),
    ("src", &[&["text"], &["tui"], &["cli"]]),
];

/// The sources of each top-level module of a crate (a file, or a folder's files).
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if ["lib", "main"].contains(&name.as_str()) {
            continue;
        }
        let text = out.entry(name).or_insert_with(String::new);
        append_sources(&path, text);
    }
    out
}

fn append_sources(path: &Path, text: &mut String) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            append_sources(&entry.unwrap().path(), text);
        }
    } else if path.extension().is_some_and(|e| e == "rs") && !is_test_file(path) {
        let source = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = source.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if is_test_module(line, lines.get(i + 1)) {
                break; // tests may use anything of their crate
            }
            text.push_str(line.split("//").next().unwrap());
            text.push('\n');
        }
    }
}

fn is_test_file(path: &Path) -> bool {
    let stem = path.file_stem().unwrap().to_string_lossy();
    stem.starts_with("tests") || stem == "test_support"
}

/// `#[cfg(test)]` over an inline `mod … {`, which by this code base's habit ends the file.
fn is_test_module(line: &str, next: Option<&&str>) -> bool {
    line.trim() == "#[cfg(test)]"
        && next.is_some_and(|n| n.trim_start().starts_with("mod ") && n.trim_end().ends_with('{'))
}

/// The modules a source names as `crate::NAME`.
fn named(text: &str) -> Vec<String> {
    text.match_indices("crate::")
        .filter(|(i, _)| !text[..*i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .map(|(i, m)| {
            let rest = &text[i + m.len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            rest[..end].to_string()
        })
        .collect()
}

fn step_of(ladder: &[&[&str]], module: &str) -> Option<usize> {
    ladder.iter().position(|step| step.contains(&module))
}

#[test]
fn every_module_names_only_lower_steps() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut wrong = Vec::new();
    for (dir, ladder) in LADDERS {
        for (module, text) in modules(&root.join(dir)) {
            let Some(step) = step_of(ladder, &module) else {
                wrong.push(format!(
                    "{dir}: module `{module}` has no step in tests/ladder.rs"
                ));
                continue;
            };
            for target in named(&text) {
                match step_of(ladder, &target) {
                    Some(s) if s < step || target == module => {}
                    Some(_) => wrong.push(format!(
                        "{dir}: `{module}` names `crate::{target}`, not below it"
                    )),
                    None => {} // a re-export at the crate root or a macro path
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the ladder is broken:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_check_sees_an_upward_import() {
    let ladder: &[&[&str]] = &[&["low"], &["high"]];
    let names = named("use crate::high::Thing; fn f() { my_crate::low::x(); }");
    assert_eq!(names, ["high"]);
    assert!(step_of(ladder, "high") > step_of(ladder, "low"));
}

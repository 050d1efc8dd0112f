//! Embeds the game data of the workspace's `games/` folder: every `.toml` file under `rules/`,
//! `setups/` and `pieces/`, and `pieces.toml`, becomes a `(path, text)` entry of
//! `$OUT_DIR/embedded.rs` (the path relative to `games/`), so that a game added as data files
//! is built in without naming it in the code.

use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("../../games");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut files = vec!["pieces.toml".to_string()];
    println!("cargo:rerun-if-changed=../../games/pieces.toml");
    for dir in ["rules", "setups", "pieces"] {
        println!("cargo:rerun-if-changed=../../games/{dir}");
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".toml") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    let mut table = String::from("&[\n");
    for f in &files {
        table.push_str(&format!(
            "    ({f:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/../../games/{f}\"))),\n"
        ));
    }
    table.push_str("]\n");
    std::fs::write(Path::new(&out).join("embedded.rs"), table).expect("OUT_DIR is writable");
}

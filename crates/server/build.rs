//! Lists the browser UI's files for `src/web.rs` to embed: every script, style sheet and
//! image directly under `web/` at the workspace root, written to `$OUT_DIR/web_files.rs`
//! as `(name, text)` pairs. The list is the folder: a page module or a game's board module
//! added there is served with no line of Rust changed.

use std::path::{Path, PathBuf};

/// What is served under `/web/` (the page itself, `index.html`, is embedded apart).
const SERVED: &[&str] = &["js", "css", "svg"];

fn main() {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let web = Path::new(&manifest).join("../../web");
    // A folder: cargo looks at every file in it.
    println!("cargo:rerun-if-changed={}", web.display());
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(&web)
        .unwrap_or_else(|e| panic!("reading {}: {e}", web.display()))
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let served = path
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| SERVED.contains(&x));
            let name = path.file_name()?.to_str()?.to_string();
            (served && path.is_file()).then_some((name, path))
        })
        .collect();
    files.sort();
    let mut list = String::from("&[\n");
    for (name, path) in files {
        let path = path
            .canonicalize()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        list.push_str(&format!("    ({name:?}, include_str!({path:?})),\n"));
    }
    list.push(']');
    let target = Path::new(&out).join("web_files.rs");
    std::fs::write(&target, list).unwrap_or_else(|e| panic!("writing {}: {e}", target.display()));
}

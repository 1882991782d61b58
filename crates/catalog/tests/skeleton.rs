//! Every game crate has the same skeleton: the same modules doing the same jobs under the
//! same names (docs/architecture.md lists them), so that whoever knows one game finds
//! everything in the others.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The modules of every game crate's `src/`, each a file `name.rs` or a folder
/// `name/mod.rs` (a folder may hold the game's own submodules).
const MODULES: &[&str] = &[
    "action",
    "builder",
    "cards",
    "config",
    "describe",
    "determinize",
    "ending",
    "evaluate",
    "events",
    "guide",
    "lib",
    "refusal",
    "rules",
    "setup",
    "state",
    "study",
    "tensor",
    "upgrade",
    "validate",
    "view",
];

/// The test files every game crate has (a game may have more).
const TESTS: &[&str] = &[
    "describe", "events", "props", "rulebook", "rules", "tensor", "undo",
];

const GAMES: &[&str] = &["dropsite", "distopia", "euphoria"];

fn crate_dir(game: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(game)
}

/// The module names in `dir`: `x.rs` files and folders holding a `mod.rs`.
fn modules(dir: &Path) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if path.join("mod.rs").is_file() {
                found.insert(name);
            }
        } else if let Some(stem) = name.strip_suffix(".rs") {
            found.insert(stem.to_string());
        }
    }
    found
}

#[test]
fn every_game_crate_has_the_same_modules() {
    let want: BTreeSet<String> = MODULES.iter().map(|m| (*m).to_string()).collect();
    let mut problems = Vec::new();
    for game in GAMES {
        let src = crate_dir(game).join("src");
        let have = modules(&src);
        for missing in want.difference(&have) {
            problems.push(format!("{game}: no module `{missing}`"));
        }
        for extra in have.difference(&want) {
            problems.push(format!(
                "{game}: module `{extra}` is not in the skeleton (move it into one that is, or add it to every game)"
            ));
        }
        let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap_or_default();
        for module in MODULES.iter().filter(|m| **m != "lib") {
            let declared = lib
                .lines()
                .map(str::trim)
                .any(|l| l == format!("mod {module};") || l == format!("pub mod {module};"));
            if !declared {
                problems.push(format!("{game}: lib.rs does not declare `mod {module};`"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_game_crate_has_the_same_tests() {
    let mut problems = Vec::new();
    for game in GAMES {
        let have = modules(&crate_dir(game).join("tests"));
        for test in TESTS {
            if !have.contains(*test) {
                problems.push(format!("{game}: no tests/{test}.rs"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_architecture_lists_every_module() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/architecture.md"),
    )
    .unwrap_or_default();
    let missing: Vec<&&str> = MODULES
        .iter()
        .filter(|m| !doc.contains(&format!("{m}.rs")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not list {missing:?}"
    );
}

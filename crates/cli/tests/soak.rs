//! `tabletop soak`: a few games of every game pass every check, the same on any number
//! of threads; a broken bound is a fault told with its game, seed and move, and exit 1.

use serde_json::Value;
use std::process::Command;

/// `tabletop soak ARGS --json`: its exit code and report.
fn soak(args: &[&str]) -> (Option<i32>, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .arg("soak")
        .args(args)
        .arg("--json")
        .output()
        .expect("tabletop soak runs");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let report = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("soak {args:?} printed no JSON ({e}); stderr: {stderr}"));
    (out.status.code(), report, stderr)
}

/// The report without what depends on the machine.
fn found(mut report: Value) -> Value {
    for key in ["seconds", "games_per_second", "threads"] {
        report.as_object_mut().expect("an object").remove(key);
    }
    report
}

#[test]
fn a_few_games_of_every_game_pass_every_check_on_any_number_of_threads() {
    // Euphoria at small tables: random games of 5 and 6 players run to tens of
    // thousands of moves, too long for a test.
    for (game, extra) in [
        ("dropsite", &["--target", "30"][..]),
        ("distopia", &[][..]),
        ("euphoria", &["--players", "2"][..]),
    ] {
        let args = [
            &[game, "--games", "6", "--seed", "7", "--bots-share", "0.5"][..],
            &["--conformance-every", "3"],
            extra,
        ]
        .concat();
        let (code, report, stderr) = soak(&[&args[..], &["--threads", "2"]].concat());
        assert_eq!(code, Some(0), "{game}: {report}\n{stderr}");
        assert_eq!(report["game"], game);
        assert_eq!(report["games"], 6);
        assert_eq!(report["fault_count"], 0, "{report}");
        assert_eq!(report["conformance_games"], 2, "games 0 and 3: {report}");
        assert!(report["moves"].as_u64().is_some_and(|m| m >= 6), "{report}");
        let sizes: u64 = (report["players"].as_object().expect("players").values())
            .filter_map(Value::as_u64)
            .sum();
        assert_eq!(sizes, 6, "every game counted by table size: {report}");
        let (_, alone, _) = soak(&[&args[..], &["--threads", "1"]].concat());
        assert_eq!(
            found(alone),
            found(report),
            "{game}: one thread finds the same"
        );
    }
    // Drop Site's table sizes and options are drawn.
    let (_, report, _) = soak(&["dropsite", "--games", "40", "--max-moves", "100000"]);
    let sizes = report["players"].as_object().expect("players");
    assert!(sizes.len() >= 2, "several table sizes: {report}");
    let options = report["options"].as_object().expect("options");
    assert!(
        options.contains_key("open_debt=true") && options.contains_key("open_debt=false"),
        "{report}"
    );
}

#[test]
fn a_soak_in_parts_plays_the_games_of_the_whole_run() {
    let base = ["distopia", "--seed", "11", "--bots-share", "0.2"];
    let run = |first: &str, games: &str| {
        let (code, report, stderr) =
            soak(&[&base[..], &["--first", first, "--games", games]].concat());
        assert_eq!(code, Some(0), "{report}\n{stderr}");
        report
    };
    let whole = run("0", "30");
    let (a, b) = (run("0", "12"), run("12", "18"));
    for key in ["games", "moves", "refusals", "bot_games"] {
        let sum = a[key].as_u64().zip(b[key].as_u64()).map(|(x, y)| x + y);
        assert_eq!(sum, whole[key].as_u64(), "{key}: {a} + {b} against {whole}");
    }
    assert_eq!(whole["first"], 0);
    assert_eq!(b["first"], 12);
}

#[test]
fn a_game_past_the_move_bound_goes_to_the_heuristic_bot_which_must_end_it() {
    // Random Distop-IA games last about 95 moves: many pass 90, and the bot ends them.
    let (code, report, stderr) = soak(&[
        "distopia",
        "--games",
        "20",
        "--max-moves",
        "90",
        "--conformance-every",
        "0",
        "--bots-share",
        "0",
    ]);
    assert_eq!(code, Some(0), "{report}\n{stderr}");
    assert_eq!(report["fault_count"], 0, "{report}");
    assert_eq!(report["max_moves"], 90);
    let ended = report["finished_by_bot"].as_u64().unwrap_or(0);
    assert!((1..=20).contains(&ended), "{report}");
}

#[test]
fn a_game_past_the_move_bound_is_a_fault_with_its_game_seed_and_move() {
    let (code, report, stderr) = soak(&[
        "distopia",
        "--games",
        "3",
        "--max-moves",
        "5",
        "--conformance-every",
        "0",
    ]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("3 faults in 3 distopia games"), "{stderr}");
    assert_eq!(report["fault_count"], 3);
    let faults = report["faults"].as_array().expect("faults");
    assert_eq!(faults.len(), 3);
    for (i, fault) in faults.iter().enumerate() {
        assert_eq!(fault["game"], i as u64, "faults in game order");
        // Five random moves, then five with the heuristic bot at every seat: a Distop-IA
        // game is far longer.
        assert_eq!(fault["move"], 10);
        assert!(fault["what"].as_str().is_some_and(|w| w.contains(
            "did not end within 5 moves, nor in 5 more with the heuristic bot at every seat"
        )));
        // The record replays its ten moves.
        let record = &fault["record"];
        assert_eq!(record["actions"].as_array().map(Vec::len), Some(10));
        assert_eq!(record["seed"], fault["seed"]);
    }
}

#[test]
fn nonsense_options_are_the_users_to_fix() {
    let out = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args(["soak", "dropsite", "--games", "2", "--bots-share", "1.5"])
        .output()
        .expect("tabletop soak runs");
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args(["soak", "dropsite", "--games", "2", "--players", "9"])
        .output()
        .expect("tabletop soak runs");
    assert_eq!(out.status.code(), Some(2));
}

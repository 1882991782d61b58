//! The `tabletop` command, run as a user would.
use crate::common;

use common::{assert_refused, succeeded, tabletop_with_input, text};
use std::process::{Command, Output};

fn tabletop(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args(args)
        .output()
        .expect("tabletop runs")
}

/// Runs `tabletop ARGS`, which must succeed, and reads the JSON it printed.
fn tabletop_json(args: &[&str]) -> serde_json::Value {
    let out = tabletop(args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// [`tabletop_json`] of `ARGS` followed by `EXTRA` (a run and its variations).
fn tabletop_json_and(args: &[&str], extra: &[&str]) -> serde_json::Value {
    tabletop_json(&[args, extra].concat())
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tabletop-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn new_legal_apply_view_outcome_on_a_state_file() {
    let out = tabletop(&["new", "dropsite", "--players", "3", "--seed", "4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let path = temp("state.json");
    std::fs::write(&path, &out.stdout).expect("write");
    let path_s = path.to_string_lossy().to_string();

    let legal = tabletop(&["legal", &path_s]);
    assert!(legal.status.success());
    let actions: Vec<String> = text(&legal.stdout).lines().map(str::to_string).collect();
    assert!(actions.iter().any(|a| a.ends_with(" debt")), "{actions:?}");

    let applied = tabletop(&["apply", &path_s, &actions[0]]);
    assert!(applied.status.success(), "{}", text(&applied.stderr));
    let next: serde_json::Value = serde_json::from_slice(&applied.stdout).expect("a state");
    assert_eq!(next["game"], "dropsite");
    assert_eq!(next["state"]["to_act"], 1);

    // Seats on the command line count from 1: seat 3 is the last of three.
    let view = tabletop(&["view", &path_s, "--seat", "3"]);
    let view: serde_json::Value = serde_json::from_slice(&view.stdout).expect("a view");
    assert!(view["hand"].is_array() && view.get("deck").is_none());
    assert_eq!(view["viewer"], serde_json::json!({"seat": 2}));
    for bad in ["0", "4"] {
        let refused = tabletop(&["view", &path_s, "--seat", bad]);
        assert_eq!(refused.status.code(), Some(2), "--seat {bad}");
        assert!(
            text(&refused.stderr).contains("seats 1 to 3"),
            "{}",
            text(&refused.stderr)
        );
    }
    assert!(
        text(&legal.stderr).contains("seat 1 to act"),
        "{}",
        text(&legal.stderr)
    );
    let spectator = tabletop(&["view", &path_s, "--spectator"]);
    let spectator: serde_json::Value = serde_json::from_slice(&spectator.stdout).expect("a view");
    assert!(spectator["hand"].is_null());

    let outcome = tabletop(&["outcome", &path_s]);
    assert_refused(&outcome, "not over");
}

#[test]
fn an_illegal_or_malformed_action_exits_2_and_changes_nothing() {
    let out = tabletop(&["new", "dropsite", "--seed", "9"]);
    let path = temp("illegal.json");
    std::fs::write(&path, &out.stdout).expect("write");
    let path_s = path.to_string_lossy().to_string();
    for bad in ["13 debt", "zz", "0 on 7"] {
        let r = tabletop(&["apply", &path_s, bad, "--write"]);
        assert_eq!(r.status.code(), Some(2), "{bad}");
        assert!(r.stdout.is_empty(), "nothing printed for {bad}");
        assert!(!text(&r.stderr).is_empty());
        assert_eq!(
            std::fs::read(&path).expect("read"),
            out.stdout,
            "the file is untouched"
        );
    }
    // A refused move names the rule's code; text that is no move has none.
    let r = tabletop(&["apply", &path_s, "0 on 7"]);
    assert!(
        text(&r.stderr).contains("illegal move `0 on 7`: ")
            && text(&r.stderr).contains("(dropsite/card_not_in_hand)"),
        "{}",
        text(&r.stderr)
    );
    let broken = temp("broken.json");
    std::fs::write(&broken, "{\"game\":\"dropsite\",\"state\":{\"config\":1}}").expect("write");
    let r = tabletop(&["legal", &broken.to_string_lossy()]);
    assert_refused(&r, "not valid JSON for dropsite");
}

#[test]
fn sim_is_identical_for_one_and_two_threads() {
    let run = |threads: &str| {
        let v = tabletop_json(&[
            "sim",
            "dropsite",
            "--games",
            "300",
            "--seed",
            "1",
            "--threads",
            threads,
            "--json",
        ]);
        v["summary"].clone()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one["games"], 300);
    assert_eq!(one["seats"].as_array().map(Vec::len), Some(2));
}

/// Euphoria's text board shows each space's word in brackets (`[farm]`); typed as it is,
/// it places a die there: at once when one die can go, after a question when two dice of
/// different values could (seed 1 deals seat 1 a 1 and a 6), never refused.
#[test]
fn a_word_in_brackets_typed_at_the_start_of_a_turn_places_a_die_there() {
    for (seed, asks) in [("1", true), ("3", false)] {
        // Two recruits kept (the first offered each time), then the Farm.
        let out = succeeded(&tabletop_with_input(
            &[
                "play",
                "euphoria",
                "--players",
                "2",
                "--seats",
                "human,random",
                "--seed",
                seed,
            ],
            "1\n1\nfarm\n1\nquit\n",
        ));
        assert!(out.contains("[farm]"), "the board shows the word: {out}");
        assert!(!out.contains("cannot read `farm`"), "{out}");
        assert_eq!(
            out.contains("`farm` could be any of these; choose one by its number:"),
            asks,
            "{out}"
        );
        assert!(
            out.lines()
                .any(|l| l.starts_with("  * you placed a die showing ")
                    && l.ends_with(" on the Farm")),
            "{out}"
        );
    }
}

#[test]
fn play_takes_numbers_and_notation_and_shows_a_clear_message_for_nonsense() {
    // Seat 0 is the human; the input is nonsense, then a number, then leaves.
    let stdout = play_dropsite("2", "human,random", &[], "nonsense\n99\n1\nquit\n");
    assert!(
        stdout.contains("cannot read `nonsense` as a move"),
        "{stdout}"
    );
    assert!(stdout.contains("there is no move 99"), "{stdout}");
    assert!(
        stdout.contains("  * seat 2 (random) "),
        "the bot's move is told: {stdout}"
    );
    assert!(stdout.contains("Your hand:"));
    assert!(
        !stdout.contains("seed 2 ·"),
        "no seed before the game is over"
    );
}

/// The record written by `play --record`: its actions in notation.
/// Plays Drop Site from `seed` with `seats` (comma-separated) and `options`, fed `input`;
/// checks it succeeded and returns what it printed.
fn play_dropsite(seed: &str, seats: &str, options: &[&str], input: &str) -> String {
    let mut args = vec!["play", "dropsite", "--seed", seed, "--seats", seats];
    args.extend_from_slice(options);
    succeeded(&tabletop_with_input(&args, input))
}

/// [`play_dropsite`], recorded to `record`.
fn play_recorded(
    record: &std::path::Path,
    seed: &str,
    seats: &str,
    options: &[&str],
    input: &str,
) -> String {
    let record = record.to_string_lossy();
    play_dropsite(
        seed,
        seats,
        &[options, &["--record", &record]].concat(),
        input,
    )
}

fn recorded_actions(path: &std::path::Path) -> Vec<String> {
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("record written"))
            .expect("record is JSON");
    record["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| a.as_str().expect("notation").to_string())
        .collect()
}

#[test]
fn play_against_a_bot_names_none_of_its_banked_cards() {
    let record = temp("banked.json");
    // The human banks its lowest card every turn (action 1 is always `N debt`).
    let input = "1\n".repeat(60);
    let stdout = play_recorded(&record, "11", "human,random", &[], &input);
    let actions = recorded_actions(&record);
    let banked = actions.iter().filter(|a| a.ends_with(" debt")).count();
    let told: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  * "))
        .collect();
    // Every banked card is told, face down, and no told line names a banked card.
    assert_eq!(
        told.iter().filter(|l| l.contains("face down on")).count(),
        banked,
        "{stdout}"
    );
    assert!(banked > 30, "the human banked every turn: {actions:?}");
    for line in told.iter().filter(|l| l.contains("face down on")) {
        assert!(
            *line == "you played a card face down on your debt"
                || *line == "seat 2 (random) played a card face down on their debt",
            "{line}"
        );
    }
    // The bot's moves appear only as events, never as notation.
    assert!(
        !stdout
            .lines()
            .any(|l| l.contains("(random) plays") && !l.contains("(random) plays first")),
        "{stdout}"
    );
    assert!(
        told.len() >= actions.len(),
        "one line or more per move: {told:?}"
    );
}

#[test]
fn two_people_at_one_terminal_get_a_cleared_screen_and_press_enter() {
    // Seat 1 presses Enter, plays; seat 2 presses Enter, plays; seat 1 presses Enter, leaves.
    let stdout = play_dropsite("3", "human,human", &[], "\n1\n\n1\n\nquit\n");
    let second = stdout
        .find("Press Enter when only seat 2 can see the screen")
        .expect("seat 2 is asked to press Enter");
    let hand = stdout.find("Your hand:").expect("a hand is shown");
    let clear = stdout[..second]
        .rfind("\x1b[2J")
        .expect("the screen is cleared");
    // Seat 1's hand came before the clear; seat 2's after its Enter.
    assert!(hand < clear, "{stdout}");
    assert!(stdout[second..].contains("Your hand:"), "{stdout}");
    assert!(
        stdout[second..].contains("  * seat 1 "),
        "seat 2 is told seat 1's move: {stdout}"
    );
}

#[test]
fn log_tells_a_spectator_every_move_and_no_debt_before_its_round_ends() {
    let record = temp("log.json");
    play_recorded(&record, "8", "random,random", &["--target", "30"], "");
    let actions = recorded_actions(&record);
    let out = tabletop(&["log", &record.to_string_lossy(), "--spectator"]);
    let stdout = succeeded(&out);
    let mut moves = 0;
    let mut round_over = false;
    for line in stdout.lines().skip(1) {
        let line = line.trim_start();
        if let Some((number, said)) = line.split_once(". ") {
            if number.chars().all(|c| c.is_ascii_digit()) {
                moves += 1;
                round_over = false;
                let what = [
                    "played a card face down on",
                    "played",
                    "started drop site",
                    "started a new drop site",
                    "closed drop site",
                ];
                assert!(what.iter().any(|w| said.contains(w)), "{line}");
                assert_eq!(number.parse::<usize>().ok(), Some(moves), "{line}");
                continue;
            }
        }
        if line.starts_with("round ") && line.contains(" is over") {
            round_over = true;
        }
        if line.contains("'s debt") {
            assert!(round_over, "a debt is told before its round ends: {line}");
        }
    }
    assert_eq!(moves, actions.len(), "one line per action:\n{stdout}");
    assert!(stdout.contains("'s debt"), "round ends reveal the debts");
}

#[test]
fn log_of_a_published_record_names_the_bots_and_checks_the_seat() {
    let path = temp("published.json");
    let published = serde_json::json!({
        "record": { "game": "dropsite", "config": {}, "seed": 1, "actions": ["0 debt"] },
        "outcome": null,
        "seats": ["human", "random"],
    });
    let mut legal_first = tabletop(&["new", "dropsite", "--seed", "1"]);
    assert!(legal_first.status.success());
    let state = temp("published-state.json");
    std::fs::write(&state, &legal_first.stdout).expect("write state");
    legal_first = tabletop(&["legal", &state.to_string_lossy()]);
    let first = text(&legal_first.stdout)
        .lines()
        .find(|l| l.ends_with(" debt"))
        .expect("a debt action")
        .trim()
        .to_string();
    let mut published = published;
    published["record"]["actions"] = serde_json::json!([first]);
    std::fs::write(&path, published.to_string()).expect("write record");
    let out = tabletop(&["log", &path.to_string_lossy(), "--seat", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("1. seat 1 played a card face down on their debt"),
        "{}",
        text(&out.stdout)
    );
    let out = tabletop(&["log", &path.to_string_lossy(), "--seat", "1"]);
    assert!(text(&out.stdout).contains("1. you played a card face down on your debt"));
    let out = tabletop(&["log", &path.to_string_lossy(), "--seat", "3"]);
    assert_refused(&out, "there is no seat 3");
    let out = tabletop(&["log", &path.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2), "a viewer is required");
}

#[test]
fn play_between_bots_reaches_the_end_and_names_the_winner() {
    let record = temp("record.json");
    let stdout = play_recorded(
        &record,
        "5",
        "random,random,random",
        &["--players", "3", "--target", "50"],
        "",
    );
    assert!(
        stdout.contains("=== game over after ") && stdout.contains("winner: seat"),
        "{stdout}"
    );
    let replay = tabletop(&["replay", &record.to_string_lossy()]);
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    assert!(text(&replay.stdout).contains("the game is over"));
}

#[test]
fn play_explains_the_end_and_each_score_adds_up() {
    for (game, seats) in [
        ("distopia", "random,random"),
        ("dropsite", "random,random"),
        ("euphoria", "heuristic,heuristic"),
    ] {
        let out = tabletop_with_input(
            &[
                "play",
                game,
                "--seed",
                "3",
                "--seats",
                seats,
                "--players",
                "2",
            ],
            "",
        );
        let stdout = succeeded(&out);
        let why = stdout
            .lines()
            .find_map(|l| l.strip_prefix("why it ended: "))
            .unwrap_or_else(|| panic!("{game}: no reason given: {stdout}"));
        assert!(!why.contains("seat 0") && !why.contains('`'), "{why}");
        // Each seat's score, then its lines ("  +12  label"), which add up to it.
        let mut seats_seen = 0;
        let mut current: Option<(i64, i64)> = None;
        let mut check = |c: Option<(i64, i64)>| {
            if let Some((score, sum)) = c {
                assert_eq!(score, sum, "{game}: {stdout}");
                seats_seen += 1;
            }
        };
        for line in stdout
            .lines()
            .skip_while(|l| !l.starts_with("why it ended: "))
        {
            if let Some(rest) = line.strip_prefix("seat ") {
                check(current.take());
                let score = rest.rsplit(": ").next().and_then(|n| n.parse().ok());
                current = score.map(|s| (s, 0));
            } else if let (Some((_, sum)), Some(points)) = (
                current.as_mut(),
                line.trim_start()
                    .split_once("  ")
                    .and_then(|(p, _)| p.parse::<i64>().ok()),
            ) {
                *sum += points;
            } else {
                check(current.take());
            }
        }
        check(current.take());
        assert_eq!(seats_seen, 2, "{game}: {stdout}");
    }
}

#[test]
fn replay_reports_the_first_action_that_does_not_replay() {
    let record = temp("bad-record.json");
    std::fs::write(
        &record,
        r#"{"game":"dropsite","config":{},"seed":3,"actions":["99 debt"]}"#,
    )
    .expect("write");
    let out = tabletop(&["replay", &record.to_string_lossy()]);
    assert_refused(&out, "step 1 (`99 debt`) does not replay");
}

#[test]
fn every_game_runs_through_every_command() {
    for (game, extra) in [
        ("dropsite", vec![]),
        ("distopia", vec!["--border", "mountain", "--advanced"]),
        ("euphoria", vec!["--players", "3"]),
    ] {
        let mut args = vec!["new", game, "--seed", "1"];
        args.extend(extra.iter().copied());
        let out = tabletop(&args);
        assert!(out.status.success(), "{game}: {}", text(&out.stderr));
        let path = temp(&format!("{game}.json"));
        std::fs::write(&path, &out.stdout).expect("write");
        let p = path.to_string_lossy().to_string();
        let legal = tabletop(&["legal", &p]);
        let first = text(&legal.stdout)
            .lines()
            .next()
            .map(str::to_string)
            .expect("an action");
        assert!(
            tabletop(&["apply", &p, &first]).status.success(),
            "{game}: {first}"
        );
        assert!(tabletop(&["view", &p, "--seat", "1", "--text"])
            .status
            .success());
        let mut sim = vec!["sim", game, "--games", "3", "--json"];
        sim.extend(extra.iter().copied());
        assert!(tabletop(&sim).status.success(), "{game} sim");
    }
}

#[test]
fn unknown_games_and_options_are_clear_errors() {
    let out = tabletop(&["new", "chess"]);
    assert_refused(&out, "unknown game `chess`");
    let out = tabletop(&["new", "dropsite", "--border", "city"]);
    assert_refused(&out, "unknown field `border`");
}

#[test]
fn bench_prints_rounds_per_second() {
    let out = tabletop(&["bench", "dropsite", "--seconds", "0.2"]);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).lines().any(|l| l.ends_with(" rounds/s")),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn tournament_prints_elo_per_bot() {
    let v = tabletop_json(&[
        "tournament",
        "distopia",
        "--bots",
        "random,heuristic",
        "--games",
        "6",
        "--seed",
        "3",
        "--json",
    ]);
    let elo = v["elo"].as_object().expect("an elo map");
    assert!(
        elo.contains_key("random") && elo.contains_key("heuristic"),
        "{elo:?}"
    );
    let bad = tabletop(&["tournament", "distopia", "--bots", "random,wizard"]);
    assert_refused(&bad, "wizard");
}

#[test]
fn a_ladder_resumes_from_its_file() {
    let path = temp("ladder.jsonl");
    let _ = std::fs::remove_file(&path);
    let out = path.to_string_lossy().to_string();
    // A ladder of these levels, anchored at heuristic, two games a pair, kept in `out`.
    let of = |levels| {
        let args = [
            "ladder",
            "distopia",
            "--levels",
            levels,
            "--anchor",
            "heuristic",
        ];
        [&args[..], &["--games-per-pair", "2", "--out", &out]].concat()
    };
    let args = [
        of("random,heuristic,pimc"),
        vec!["--bootstrap", "50", "--json"],
    ]
    .concat();
    let ladder = |extra: &[&str]| tabletop_json_and(&args, extra);
    let first = ladder(&["--max-games", "4"]);
    assert_eq!(first["games"], 4);
    let lines = |n: usize| {
        let text = std::fs::read_to_string(&path).expect("the ladder's file");
        assert_eq!(text.lines().count(), n + 1, "{text}");
    };
    lines(4);
    let all = ladder(&[]);
    assert_eq!(all["games"], 6);
    lines(6);
    let heuristic = all["ratings"]
        .as_array()
        .expect("ratings")
        .iter()
        .find(|r| r["name"] == "heuristic")
        .expect("rated");
    assert_eq!(heuristic["elo"], 1500.0);
    // Another seed is another ladder: refused, the file left alone.
    let refused = tabletop(&[of("random,heuristic"), vec!["--seed", "9"]].concat());
    assert_refused(&refused, "another ladder");
    lines(6);
    let refused = tabletop(&[
        "ladder",
        "distopia",
        "--levels",
        "random,wizard",
        "--games-per-pair",
        "1",
        "--out",
        &out,
    ]);
    assert_refused(&refused, "pimc");
}

#[test]
fn seats_take_bot_levels() {
    let out = tabletop(&[
        "sim",
        "dropsite",
        "--games",
        "2",
        "--seats",
        "heuristic,easy",
        "--opt",
        "max_rounds=2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn shards_merge_into_the_unsharded_sim_and_report_draws_from_them() {
    let base = ["--games", "30", "--seed", "5", "--opt", "target=30"];
    let mut files = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let mut args = vec!["sim", "dropsite", "--shard", &shard, "--json"];
        args.extend(base);
        let out = tabletop(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let path = temp(&format!("shard-{k}.json"));
        std::fs::write(&path, &out.stdout).expect("write");
        files.push(path.to_string_lossy().to_string());
    }
    let mut merge = vec!["merge", "--json"];
    merge.extend(files.iter().map(String::as_str));
    let merged = tabletop(&merge);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let mut whole = vec!["sim", "dropsite", "--json"];
    whole.extend(base);
    let whole = tabletop(&whole);
    let merged: serde_json::Value = serde_json::from_slice(&merged.stdout).expect("json");
    let whole: serde_json::Value = serde_json::from_slice(&whole.stdout).expect("json");
    assert_eq!(merged["summary"], whole["summary"]);

    let page = temp("from.html");
    let page_s = page.to_string_lossy().to_string();
    let mut report = vec!["report", "--out", &page_s, "--from"];
    report.extend(files.iter().map(String::as_str));
    let out = tabletop(&report);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(&page).expect("page written");
    assert!(html.contains("data-chart=\"win-rate\"") && html.contains("--from"));

    let twice = tabletop(&["merge", &files[0], &files[0]]);
    assert_eq!(twice.status.code(), Some(2));
    let err = text(&twice.stderr);
    assert!(
        err.contains("given 2 times") && err.contains("shard 3/3 is missing"),
        "{err}"
    );
}

#[test]
fn report_compares_a_variant_and_names_the_command() {
    let page = temp("vs.html");
    let page_s = page.to_string_lossy().to_string();
    let out = tabletop(&[
        "report",
        "distopia",
        "--games",
        "40",
        "--vs",
        "--border city",
        "--out",
        &page_s,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(&page).expect("page written");
    assert!(html.contains("data-chart=\"vs-difference\""));
    assert!(html.contains("significant at 95%"));
    assert!(
        html.contains("--vs &quot;--border city&quot;") || html.contains("--vs '--border city'"),
        "the command as typed"
    );
    let bad = tabletop(&[
        "report", "distopia", "--games", "4", "--vs", "--wizard", "--out", &page_s,
    ]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));
}

#[test]
fn tune_prints_the_best_setting_with_its_interval() {
    let out = tabletop(&[
        "tune",
        "distopia",
        "--param",
        "limits/0=1..9",
        "--options",
        "--opt limits=[3,3,3,3]",
        "--games",
        "40",
        "--candidates",
        "3",
    ]);
    let printed = succeeded(&out);
    assert!(
        printed.contains("best: limits/0=") && printed.contains("95% interval"),
        "{printed}"
    );
    let bad = tabletop(&["tune", "distopia", "--param", "wizard=1..3", "--games", "4"]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));
}

/// `sim GAME --json` with these options: its summary.
fn sim_summary(game: &str, extra: &[&str]) -> serde_json::Value {
    let args = ["sim", game, "--games", "60", "--seed", "4", "--json"];
    tabletop_json_and(&args, extra)["summary"].clone()
}

/// Writes card data to a file and returns its path.
fn cards_file(name: &str, data: &serde_json::Value) -> String {
    let path = temp(name);
    std::fs::write(&path, data.to_string()).expect("write cards");
    path.to_string_lossy().to_string()
}

/// A broken cards file: exit 2, no game, and every expected problem on stderr.
fn refused_cards(game: &str, file: &str, problems: &[&str]) {
    let out = tabletop(&["sim", game, "--games", "4", "--cards", file]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    for p in problems {
        assert!(err.contains(p), "{game}: `{p}` not listed in {err}");
    }
}

#[test]
fn dropsite_cards_change_the_study_and_a_broken_deck_lists_every_problem() {
    let printed = include_str!("../../dropsite/data/deck.csv");
    let deck: Vec<serde_json::Value> = printed
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<i64> = l.split(',').map(|x| x.trim().parse().expect("n")).collect();
            serde_json::json!({"value": f[0], "copies": f[1], "points": f[2]})
        })
        .collect();
    let base = ["--opt", "target=30"];
    let same = cards_file("deck-same.json", &serde_json::json!({ "deck": deck }));
    let mut changed = deck.clone();
    changed[12]["points"] = serde_json::json!(30); // a 12 scores 30 instead of 7
    let changed = cards_file("deck-12.json", &serde_json::json!({ "deck": changed }));
    let plain = sim_summary("dropsite", &base);
    let printed_file = sim_summary("dropsite", &[&base[..], &["--cards", &same]].concat());
    assert_eq!(
        plain, printed_file,
        "the printed deck as a file changes nothing"
    );
    let other = sim_summary("dropsite", &[&base[..], &["--cards", &changed]].concat());
    assert_ne!(
        plain["seats"], other["seats"],
        "one changed value changes the scores"
    );

    let mut broken = deck.clone();
    broken.remove(5); // value 5 missing
    broken[0]["points"] = serde_json::json!(99);
    broken[1]["copies"] = serde_json::json!(40);
    broken.push(serde_json::json!({"value": 3, "copies": 4, "points": 4}));
    let broken = cards_file("deck-broken.json", &serde_json::json!({ "deck": broken }));
    refused_cards(
        "dropsite",
        &broken,
        &[
            "value 5 is missing",
            "value 3 is listed 2 times",
            "40 copies of value 1",
            "value 0 scores 99 points",
        ],
    );
}

/// Distop-IA's printed contraband values, as card data.
fn distopia_contraband() -> Vec<serde_json::Value> {
    include_str!("../../distopia/data/cards.csv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').map(str::trim).collect();
            let kind = match f[1] {
                "H" => "hobby",
                "E" => "education",
                _ => "survival",
            };
            let points: u8 = f[2].parse().expect("points");
            serde_json::json!({"type": kind, "points": points, "siren": f[3] == "1"})
        })
        .collect()
}

#[test]
fn distopia_cards_change_the_study_replay_in_a_state_and_a_broken_file_lists_every_problem() {
    let values = distopia_contraband();
    assert_eq!(values.len(), 30);
    let same = cards_file(
        "contraband-same.json",
        &serde_json::json!({ "contraband": values }),
    );
    let mut changed = values.clone();
    changed[9]["points"] = serde_json::json!(15); // the guitar is worth 15, not 4
    let changed = serde_json::json!({ "contraband": changed });
    let changed_file = cards_file("contraband-guitar.json", &changed);
    let plain = sim_summary("distopia", &[]);
    assert_eq!(plain, sim_summary("distopia", &["--cards", &same]));
    let other = sim_summary("distopia", &["--cards", &changed_file]);
    assert_ne!(
        plain["seats"], other["seats"],
        "one changed value changes the scores"
    );

    // A position made with the card data carries it, and a seat's view shows it.
    let out = tabletop(&["new", "distopia", "--seed", "3", "--cards", &changed_file]);
    let state: serde_json::Value = serde_json::from_str(&succeeded(&out)).expect("state JSON");
    assert_eq!(
        state["state"]["config"]["contraband"],
        changed["contraband"]
    );
    let path = temp("contraband-state.json");
    std::fs::write(&path, &out.stdout).expect("write state");
    let view = tabletop(&["view", &path.to_string_lossy(), "--seat", "1"]);
    assert!(view.status.success(), "{}", text(&view.stderr));

    let mut broken = values.clone();
    broken[0]["points"] = serde_json::json!(0);
    broken[1]["type"] = serde_json::json!("guard");
    broken.truncate(28);
    let broken = cards_file(
        "contraband-broken.json",
        &serde_json::json!({ "contraband": broken, "limits": [0, 3, 3, 3] }),
    );
    refused_cards(
        "distopia",
        &broken,
        &[
            "28 cards listed",
            "card 1 is worth 0 points",
            "card 2 has type guard",
            "9 Hobby cards",
            "8 Survival cards",
            "district A's limit must be 1 to 10, not 0",
        ],
    );
}

#[test]
fn euphoria_cards_change_the_study_and_broken_rewards_list_every_problem() {
    let args = [
        "sim",
        "euphoria",
        "--players",
        "3",
        "--games",
        "12",
        "--json",
    ];
    let summary = |extra: &[&str]| tabletop_json_and(&args, extra)["summary"].clone();
    let printed = cards_file(
        "rewards-printed.json",
        &serde_json::json!({"rewards": {"area": [1, 1, 2], "tunnel_end": 3}}),
    );
    let rich = cards_file(
        "rewards-rich.json",
        &serde_json::json!({"rewards": {"area": [1, 1, 6]}}),
    );
    let plain = summary(&[]);
    assert_eq!(plain, summary(&["--cards", &printed]));
    assert_ne!(
        plain,
        summary(&["--cards", &rich]),
        "one changed value changes the study"
    );
    let broken = cards_file(
        "rewards-broken.json",
        &serde_json::json!({"rewards": {"area": [0, 1, 12], "tunnel_end": 0}}),
    );
    refused_cards(
        "euphoria",
        &broken,
        &[
            "dice total 1-4 must give 1 to 9 commodities, not 0",
            "dice total 9 or more must give 1 to 9 commodities, not 12",
            "a tunnel end must give 1 to 9 commodities, not 0",
        ],
    );
}

#[test]
fn replay_and_log_read_undo_and_resign_entries() {
    let record = temp("table-moves.json");
    std::fs::write(
        &record,
        r#"{"game":"distopia","config":{},"seed":5,"actions":["pick a","UNDO","pick b","resign 1"]}"#,
    )
    .expect("write");
    let out = tabletop(&["replay", &record.to_string_lossy()]);
    let printed = succeeded(&out);
    assert!(printed.contains("resigned: seat 1"), "{printed}");
    assert!(printed.contains("places [2, 1]"), "{printed}");
    // The end explained: who resigned; Distop-IA's board shows no score before the end.
    assert!(
        printed.contains(
            "why it ended: seat 1 resigned, so seat 2 won: the only one left in the game"
        ),
        "{printed}"
    );
    assert!(
        printed.contains("+0  nothing is scored before the end of the game"),
        "{printed}"
    );
    let out = tabletop(&["log", &record.to_string_lossy(), "--spectator"]);
    let printed = succeeded(&out);
    assert!(printed.contains("took back a move"), "{printed}");
    assert!(printed.contains("seat 1 resigned"), "{printed}");
    assert!(
        printed.contains("the game is over: seat 2 won, everyone else resigned"),
        "{printed}"
    );

    // An undo after a move that cannot be taken back is reported like any bad step.
    std::fs::write(
        &record,
        r#"{"game":"dropsite","config":{},"seed":3,"actions":["undo"]}"#,
    )
    .expect("write");
    let out = tabletop(&["replay", &record.to_string_lossy()]);
    assert_refused(&out, "step 1 (`undo`) does not replay");
}

#[test]
fn review_marks_moves_explains_the_end_and_prints_json_by_seat() {
    let record = temp("review.json");
    play_recorded(
        &record,
        "8",
        "random,random,random",
        &["--players", "3", "--max-rounds", "2"],
        "",
    );
    let path = record.to_string_lossy().to_string();
    let moves = recorded_actions(&record).len();

    let out = tabletop(&["review", &path, "--iterations", "30"]);
    let stdout = succeeded(&out);
    assert!(
        stdout.contains(&format!("{moves} decisions reviewed")),
        "{stdout}"
    );
    for seat in 1..=3 {
        assert!(stdout.contains(&format!("\nseat {seat}: ")), "{stdout}");
    }
    assert!(
        stdout.contains("chance to win at each decision"),
        "{stdout}"
    );
    assert!(stdout.contains("why it ended: "), "{stdout}");
    assert!(!stdout.contains("seat 0"), "seats count from 1: {stdout}");

    // One seat, as JSON: seats from 0, only that seat's moves and series.
    let one_seat = [
        "review",
        &path,
        "--iterations",
        "30",
        "--seat",
        "2",
        "--json",
    ];
    let out = tabletop(&one_seat);
    let review: serde_json::Value = serde_json::from_str(&succeeded(&out)).expect("JSON");
    assert_eq!(review["seats"], 3);
    let reviewed = review["moves"].as_array().expect("moves");
    assert!(!reviewed.is_empty());
    assert!(reviewed.iter().all(|m| m["seat"] == 1), "{review}");
    let series = review["series"].as_array().expect("series");
    assert_eq!(series[1].as_array().map(Vec::len), Some(reviewed.len()));
    assert_eq!(series[0].as_array().map(Vec::len), Some(0));
    for m in reviewed {
        let loss = m["loss"].as_f64().expect("loss");
        assert!(loss >= 0.0);
        let chance = m["played"]["chance"].as_f64().expect("chance");
        assert!((0.0..=1.0).contains(&chance));
        assert!(m["played"]["place"].is_number(), "3 seats: a place");
    }
    let ending = &review["ending"];
    assert!(ending["why"].is_string(), "{review}");
    assert_eq!(ending["seats"].as_array().map(Vec::len), Some(3));

    // The same command, the same review.
    assert_eq!(tabletop(&one_seat).stdout, out.stdout);

    let bad = tabletop(&["review", &path, "--seat", "4"]);
    assert_refused(&bad, "there is no seat 4");

    // A game not over is not reviewed.
    let mut unfinished: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).expect("record")).expect("JSON");
    unfinished["actions"]
        .as_array_mut()
        .expect("actions")
        .truncate(moves / 2);
    let half = temp("review-half.json");
    std::fs::write(&half, unfinished.to_string()).expect("write");
    let out = tabletop(&["review", &half.to_string_lossy()]);
    assert_refused(&out, "not over");
}

#[test]
fn hint_at_the_prompt_suggests_three_moves_to_type() {
    let stdout = play_dropsite("3", "human,random", &[], "hint\nquit\n");
    let hints: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("[type: ") && l.contains("% to win"))
        .collect();
    assert_eq!(hints.len(), 3, "{stdout}");
    assert!(hints[0].trim_start().starts_with("1. "), "{stdout}");
    assert!(!hints[0].contains("expected place"), "2 seats: no place");
}

/// `tabletop rules GAME`: each game's page in words, wrapped to the width asked, its
/// tables aligned; `--json` the structured page; an unknown game is a clear error.
#[test]
fn rules_prints_each_games_page_readably() {
    for (game, title, row) in [
        ("dropsite", "HOW TO PLAY DROP SITE", "12"),
        ("distopia", "HOW TO PLAY DISTOP-IA", "Alarm clock"),
        ("euphoria", "HOW TO PLAY EUPHORIA", "Amanda the Broker"),
    ] {
        let out = tabletop(&["rules", game, "--width", "72"]);
        assert!(out.status.success(), "{game}: {}", text(&out.stderr));
        let page = text(&out.stdout);
        assert!(
            page.starts_with(title),
            "{game}: {}",
            &page[..60.min(page.len())]
        );
        for heading in ["The game", "Components", "Set-up", "A turn", "Options"] {
            assert!(
                page.lines().any(|l| l == heading),
                "{game} has no {heading} section"
            );
        }
        assert!(
            page.lines().any(|l| l.contains(row)),
            "{game}: no row {row}"
        );
        for line in page.lines() {
            assert!(
                line.chars().count() <= 72 || !line.trim().contains(' '),
                "{game}: too wide: {line:?}"
            );
        }
        let json = tabletop(&["rules", game, "--json"]);
        assert!(json.status.success());
        let rules: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
        assert_eq!(rules["title"], title_case(title));
        assert!(rules["sections"].as_array().is_some_and(|s| s.len() >= 5));
    }
    // The deck table is aligned: its rule of dashes has one run per column.
    let page = text(&tabletop(&["rules", "dropsite", "--width", "100"]).stdout);
    let header = page
        .lines()
        .position(|l| l.starts_with("Value"))
        .expect("the deck table");
    let dashes = page.lines().nth(header + 1).expect("its rule");
    assert_eq!(dashes.split_whitespace().count(), 4, "{dashes}");
    let twelve = page.lines().find(|l| l.starts_with("12 ")).expect("the 12");
    assert_eq!(
        twelve.split_whitespace().collect::<Vec<_>>(),
        ["12", "4", "+7", "-2"]
    );
    let out = tabletop(&["rules", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("unknown game `chess`") && err.contains("dropsite"),
        "{err}"
    );
}

/// "How to play Drop Site" from "HOW TO PLAY DROP SITE".
fn title_case(upper: &str) -> String {
    let game = upper.trim_start_matches("HOW TO PLAY ");
    let game = match game {
        "DROP SITE" => "Drop Site",
        "DISTOP-IA" => "Distop-IA",
        _ => "Euphoria",
    };
    format!("How to play {game}")
}

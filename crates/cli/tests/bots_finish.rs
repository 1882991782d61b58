//! Whole Euphoria games between bots with trading as the rulebook has it (no bound on
//! offers, as at every server table), played by `tabletop play` as a person would start
//! them: each must end within the number of moves stated here (issue 27: bots once opened
//! and cancelled trades for ever). `--max-moves` makes the bound a count, not a time.
use std::process::Command;

/// Plays Euphoria at `players` seats, every seat `bot`, and returns the moves played.
fn moves_to_the_end(bot: &str, players: usize, seed: u64, bound: usize) -> usize {
    let seats = vec![bot; players].join(",");
    let out = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args(["play", "euphoria", "--players", &players.to_string()])
        .args(["--seats", &seats, "--seed", &seed.to_string()])
        .args(["--max-moves", &bound.to_string()])
        .output()
        .expect("tabletop runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{bot} x{players}, seed {seed}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let moves = stdout
        .lines()
        .find_map(|l| l.strip_prefix("=== game over after "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .expect("the game-over line tells the moves");
    assert!(moves <= bound, "{bot} x{players}: {moves} moves");
    assert!(stdout.contains("winner: seat"), "{stdout}");
    moves
}

// The bounds are a few times the longest game measured with `tabletop bench euphoria
// --bots ...` (docs/bots.md, 10 seeded games a level): heuristic 830 moves at 4 seats
// and 1,400 at 6; easy 731 / 950; medium 743 at 4. Random play is random: behind the
// guard its 4-seat games averaged 4,978 moves (longest of 20: 15,616), and at 6 seats one
// in 20 ran past 100,000, so its seeds here are fixed and its bounds wide.

#[test]
fn random_bots_finish_at_4_and_6_seats() {
    moves_to_the_end("random", 4, 1, 100_000);
    moves_to_the_end("random", 6, 1, 200_000);
}

#[test]
fn heuristic_bots_finish_at_4_and_6_seats() {
    moves_to_the_end("heuristic", 4, 1, 4_000);
    moves_to_the_end("heuristic", 6, 1, 6_000);
}

#[test]
fn easy_bots_finish_at_4_and_6_seats() {
    moves_to_the_end("easy", 4, 1, 4_000);
    moves_to_the_end("easy", 6, 1, 6_000);
}

#[test]
fn medium_bots_finish_at_4_seats() {
    moves_to_the_end("medium", 4, 1, 4_000);
}

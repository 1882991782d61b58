//! Steps per second of the batch's own step loop, without Python: what
//! `Batch.step_random()` costs apart from the call itself, and its parts, for profiling.
//!
//!     cargo run --release --example batch_steps -- [GAME [OPTIONS_JSON [SECONDS [batch|parts|check]]]]
//!
//! Prints the batch's steps/s (256 games, random legal actions drawn in Rust), then the
//! same 256 games stepped by hand piece by piece: only the moves (legal list, pick,
//! apply), then with the observation of the seat to act, then with the mask as well.
use engine::{derive_seed, rng_from_seed, Tensor, Viewer};
use rand::seq::IndexedRandom;
use std::time::Instant;
use tabletop_native::batch::{open, Moves, Rows};

const GAMES: usize = 256;

/// This thread's time on a CPU so far, in seconds, from `/proc/thread-self/schedstat`
/// (the machine is shared: the wall clock counts the time others run); the wall clock
/// where that file cannot be read.
fn cpu_seconds() -> f64 {
    static WALL: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(
            || WALL.get_or_init(Instant::now).elapsed().as_secs_f64(),
            |ns| ns as f64 * 1e-9,
        )
}

/// A stopwatch of CPU time.
struct Clock(f64);

impl Clock {
    fn start() -> Clock {
        Clock(cpu_seconds())
    }
    fn seconds(&self) -> f64 {
        cpu_seconds() - self.0
    }
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let game = args.next().unwrap_or_else(|| "distopia".into());
    let options: serde_json::Value = match args.next() {
        Some(text) => serde_json::from_str(&text).map_err(|e| format!("options: {e}"))?,
        None => serde_json::json!({}),
    };
    let seconds: f64 = match args.next() {
        Some(text) => text.parse().map_err(|e| format!("seconds: {e}"))?,
        None => 2.0,
    };
    // A fourth argument, `batch` or `parts`, runs only that half (to profile it); `check`
    // runs the tensor harness instead (observations equal to their views' encodings).
    let only = args.next();
    if only.as_deref() == Some("check") {
        return catalog::with_game(&game, Check { options }).map_err(|e| e.to_string())?;
    }
    if only.as_deref() != Some("parts") {
        batch(&game, &options, seconds)?;
    }
    if only.as_deref() == Some("batch") {
        return Ok(());
    }
    catalog::with_game(&game, Parts { options, seconds }).map_err(|e| e.to_string())?
}

/// The batch as `Batch.step_random()` runs it.
fn batch(game: &str, options: &serde_json::Value, seconds: f64) -> Result<(), String> {
    let n = GAMES;
    let mut batch = open(game, options, n, 1, None, true)?;
    let d = batch.dims();
    let mut obs = vec![0.0f32; n * d.observation];
    let mut mask = vec![0i8; n * d.actions];
    let mut rewards = vec![0.0f32; n * d.players];
    let (mut terminated, mut truncated) = (vec![false; n], vec![false; n]);
    let (mut to_act, mut actions) = (vec![0i64; n], vec![0i64; n]);
    macro_rules! rows {
        () => {
            Rows {
                obs: &mut obs,
                mask: &mut mask,
                rewards: &mut rewards,
                terminated: &mut terminated,
                truncated: &mut truncated,
                to_act: &mut to_act,
                actions: &mut actions,
            }
        };
    }
    batch.reset(Some(1), rows!())?;
    let start = Clock::start();
    let mut calls = 0u64;
    while start.seconds() < seconds {
        for _ in 0..16 {
            batch.step(Moves::Random, rows!(), None)?;
        }
        calls += 16;
    }
    let secs = start.seconds();
    let steps = (calls * n as u64) as f64;
    println!(
        "{game} {options}: batch {:.0} steps/s ({:.0} ns a step; {steps} steps; observation {}, actions {})",
        steps / secs,
        secs * 1e9 / steps,
        d.observation,
        d.actions
    );
    Ok(())
}

struct Check {
    options: serde_json::Value,
}

impl catalog::Visit for Check {
    type Out = Result<(), String>;
    fn visit<G: Tensor>(self) -> Self::Out {
        let config = engine::Typed::<G>::config(&self.options).map_err(|e| e.to_string())?;
        let summary = engine::tensor::check::<G>(&config, 20, 0);
        println!(
            "{} {}: tensor check passed: {summary:?}",
            G::NAME,
            self.options
        );
        Ok(())
    }
}

struct Parts {
    options: serde_json::Value,
    seconds: f64,
}

impl catalog::Visit for Parts {
    type Out = Result<(), String>;
    fn visit<G: Tensor>(self) -> Self::Out {
        let config = engine::Typed::<G>::config(&self.options).map_err(|e| e.to_string())?;
        for (what, observe, mask) in [
            ("moves only", false, false),
            ("+ observation", true, false),
            ("+ observation + mask", true, true),
        ] {
            let ns = best(|| parts::<G>(&config, self.seconds / 10.0, observe, mask))?;
            println!("  {what:<22} {:>9.0} steps/s ({ns:.0} ns a step)", 1e9 / ns);
        }
        for one in [false, true] {
            let ns = best(|| observe_only::<G>(&config, self.seconds / 10.0, one))?;
            let into = if one { "one buffer" } else { "256 rows" };
            println!("  observation alone, 256 fixed games, into {into}: {ns:.0} ns");
        }
        Ok(())
    }
}

/// The least of five measurements (the machine is shared: the least was disturbed least).
fn best(mut f: impl FnMut() -> Result<f64, String>) -> Result<f64, String> {
    let mut least = f64::INFINITY;
    for _ in 0..5 {
        least = least.min(f()?);
    }
    Ok(least)
}

/// Nanoseconds a step of 256 games played round robin, with or without the observation
/// and the mask of the seat to act.
fn parts<G: Tensor>(
    config: &G::Config,
    seconds: f64,
    observe: bool,
    mask: bool,
) -> Result<f64, String> {
    let (len, count) = (G::observation_len(config), G::num_distinct_actions(config));
    let mut games: Vec<G> = (0..GAMES as u64)
        .map(|i| G::new(config, derive_seed(1, i)).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let mut obs = vec![0.0f32; GAMES * len];
    let mut masks = vec![0i8; GAMES * count];
    let mut legal = Vec::new();
    let mut rng = rng_from_seed(3);
    let mut seed = 1000u64;
    let (mut steps, start) = (0u64, Clock::start());
    while start.seconds() < seconds {
        for _ in 0..16 {
            for (i, game) in games.iter_mut().enumerate() {
                game.legal_actions(&mut legal);
                let Some(&action) = legal.choose(&mut rng) else {
                    return Err("no legal action".into());
                };
                game.apply(action).map_err(|e| e.to_string())?;
                if game.to_act().is_none() {
                    seed += 1;
                    *game = G::new(config, seed).map_err(|e| e.to_string())?;
                }
                let seat = game.to_act().map_or(Viewer::Spectator, Viewer::Seat);
                if observe {
                    game.observe(seat, &mut obs[i * len..(i + 1) * len]);
                }
                if mask {
                    game.legal_mask(&mut legal, &mut masks[i * count..(i + 1) * count]);
                }
            }
            steps += GAMES as u64;
        }
    }
    Ok(start.seconds() * 1e9 / steps as f64)
}

/// Nanoseconds an observation of 256 games left where they are, a few dozen moves in.
fn observe_only<G: Tensor>(config: &G::Config, seconds: f64, one: bool) -> Result<f64, String> {
    let len = G::observation_len(config);
    let mut rng = rng_from_seed(5);
    let mut legal = Vec::new();
    let mut games = Vec::new();
    for i in 0..GAMES as u64 {
        let mut game = G::new(config, derive_seed(2, i)).map_err(|e| e.to_string())?;
        for _ in 0..30 {
            game.legal_actions(&mut legal);
            let Some(&action) = legal.choose(&mut rng) else {
                break;
            };
            game.apply(action).map_err(|e| e.to_string())?;
        }
        games.push(game);
    }
    let mut obs = vec![0.0f32; GAMES * len];
    let (mut n, start) = (0u64, Clock::start());
    while start.seconds() < seconds {
        for _ in 0..16 {
            for (i, game) in games.iter().enumerate() {
                let seat = game.to_act().map_or(Viewer::Spectator, Viewer::Seat);
                let row = if one { 0 } else { i };
                game.observe(seat, &mut obs[row * len..(row + 1) * len]);
            }
            n += GAMES as u64;
        }
    }
    Ok(start.seconds() * 1e9 / n as f64)
}

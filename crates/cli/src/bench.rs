//! `tabletop bench`: random playouts per second on one thread, or with `--bots`, whole
//! bot games level by level: moves per game, the share of trade actions and the time a
//! decision takes.
use crate::options::{run_on_game, GameOptions, OnGame};
use crate::user;
use bots::{BotSpec, Observer, RandomBot};
use clap::Args;
use engine::prelude::*;
use std::time::Instant;

#[derive(Args)]
pub struct BenchArgs {
    /// dropsite, distopia or euphoria.
    game: String,
    /// How long to run.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    #[arg(long, value_delimiter = ',', help = crate::options::bots_help(
        "Bot levels to play whole games with instead (every seat the same bot, trading \
         unbounded unless `--opt offers_per_turn=N` bounds it), comma-separated"))]
    bots: Vec<String>,
    /// With --bots: games a level.
    #[arg(long, default_value_t = 20)]
    games: u64,
    /// With --bots: the seed game i is seeded from (with i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// With --bots: a game still going after this many moves is stopped and counted as
    /// unfinished.
    #[arg(long, default_value_t = 100_000)]
    max_moves: u64,
    #[command(flatten)]
    options: GameOptions,
}

/// `tabletop bench GAME`: random playouts for `seconds`.
struct Bench {
    seconds: f64,
}

impl OnGame for Bench {
    fn run<G: Game>(self, config: G::Config, _: &serde_json::Value) -> anyhow::Result<()> {
        let mut bot = RandomBot::<G::Action>::new(7);
        let mut seed = 0u64;
        let mut game = G::new(&config, seed).map_err(user)?;
        let (mut rounds, mut games, mut moves) = (0u64, 0u64, 0u64);
        // The rounds a game has played are counted when it ends (rounds only grow within
        // a game), so that the loop asks nothing but the moves.
        let mut first_round = game.rounds();
        let played = |game: &G, first: u32| u64::from(game.rounds().saturating_sub(first));
        let start = Instant::now();
        // A playout is one round for games played in rounds (Drop Site), else one game.
        // The clock is read every 1024 moves to keep it out of the measurement.
        loop {
            match bot.pick(&game) {
                Some(action) => {
                    game.apply(action)
                        .map_err(|e| anyhow::anyhow!("a random legal action was refused: {e}"))?;
                    moves += 1;
                }
                None => {
                    rounds += played(&game, first_round);
                    games += 1;
                    seed += 1;
                    game = G::new(&config, seed).map_err(user)?;
                    first_round = game.rounds();
                }
            }
            if moves % 1024 == 0 && start.elapsed().as_secs_f64() >= self.seconds {
                break;
            }
        }
        rounds += played(&game, first_round);
        let secs = start.elapsed().as_secs_f64();
        let rounds = if rounds == 0 { games } else { rounds };
        outln!(
            "{}: {} rounds in {secs:.2} s on one thread",
            G::NAME,
            rounds
        )?;
        outln!("{:.0} rounds/s", rounds as f64 / secs)?;
        outln!(
            "{:.0} games/s, {:.0} moves/s",
            games as f64 / secs,
            moves as f64 / secs
        )?;
        Ok(())
    }
}

pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    if !args.bots.is_empty() {
        let bench = BotBench {
            levels: args.bots,
            games: args.games,
            seed: args.seed,
            max_moves: args.max_moves,
        };
        return run_on_game(&args.game, args.options.to_config(&args.game)?, bench);
    }
    let config = args.options.to_batch_config(&args.game)?;
    let seconds = args.seconds;
    run_on_game(&args.game, config, Bench { seconds })
}

/// `tabletop bench GAME --bots ...`: whole games with every seat one bot level, as at a
/// table (trading as the game's options say, unbounded by default).
struct BotBench {
    /// The bots by name, as given.
    levels: Vec<String>,
    games: u64,
    seed: u64,
    max_moves: u64,
}

/// What one level did over the benchmark's games.
struct LevelFigures {
    spec: BotSpec,
    games: u64,
    unfinished: u64,
    moves: Vec<u64>,
    trade_moves: u64,
    decisions: Vec<f64>,
}

impl LevelFigures {
    fn print(&mut self) -> anyhow::Result<()> {
        self.moves.sort_unstable();
        self.decisions.sort_by(f64::total_cmp);
        let total: u64 = self.moves.iter().sum();
        let quantile = |q: f64| -> f64 {
            let n = self.decisions.len();
            if n == 0 {
                return 0.0;
            }
            let i = ((n as f64 * q).ceil() as usize).clamp(1, n) - 1;
            self.decisions[i]
        };
        outln!(
            "{:<10} {:>5} {:>9.0} {:>9} {:>8.1}% {:>10.4} {:>10.4} {:>10.4} {:>10}",
            self.spec.to_string(),
            self.games,
            total as f64 / self.games.max(1) as f64,
            self.moves.last().copied().unwrap_or(0),
            100.0 * self.trade_moves as f64 / total.max(1) as f64,
            quantile(0.5),
            quantile(0.99),
            self.decisions.last().copied().unwrap_or(0.0),
            self.unfinished,
        )
    }
}

impl BotBench {
    fn level<G: Game>(&self, config: &G::Config, spec: &BotSpec) -> anyhow::Result<LevelFigures> {
        let mut figures = LevelFigures {
            spec: spec.clone(),
            games: self.games,
            unfinished: 0,
            moves: Vec::new(),
            trade_moves: 0,
            decisions: Vec::new(),
        };
        for g in 0..self.games {
            let seed = engine::derive_seed(self.seed, g);
            let mut game = G::new(config, seed).map_err(user)?;
            let mut seats = (0..game.seats())
                .map(|s| bots::make_bot::<G>(spec, engine::derive_seed(seed, s as u64 + 1)))
                .collect::<Result<Vec<_>, _>>()
                .map_err(user)?;
            let mut moves = 0u64;
            while let Some(observer) = Observer::new(&game) {
                if moves >= self.max_moves {
                    figures.unfinished += 1;
                    break;
                }
                let bot = &mut seats[observer.seat()];
                let start = Instant::now();
                let Some(action) = bot.choose(&observer) else {
                    anyhow::bail!("{spec} found no move in a game that goes on (seed {seed})");
                };
                figures.decisions.push(start.elapsed().as_secs_f64());
                if game.deal(action).is_trade() {
                    figures.trade_moves += 1;
                }
                game.apply(action)
                    .map_err(|e| anyhow::anyhow!("{spec} chose a refused move: {e}"))?;
                moves += 1;
            }
            figures.moves.push(moves);
        }
        Ok(figures)
    }
}

impl OnGame for BotBench {
    fn run<G: Game>(self, config: G::Config, json: &serde_json::Value) -> anyhow::Result<()> {
        let levels = crate::simulate::seat_specs::<G>(&config, &self.levels)?;
        let seats = G::new(&config, 0).map_err(user)?.seats();
        outln!(
            "{}, {seats} seats, {} games a level (seed {}), options {}, one thread",
            G::NAME,
            self.games,
            self.seed,
            json
        )?;
        outln!(
            "{:<10} {:>5} {:>9} {:>9} {:>9} {:>10} {:>10} {:>10} {:>10}",
            "bot",
            "games",
            "moves/g",
            "max",
            "trade",
            "p50 s",
            "p99 s",
            "max s",
            "unfinished"
        )?;
        for spec in &levels {
            self.level::<G>(&config, spec)?.print()?;
        }
        Ok(())
    }
}

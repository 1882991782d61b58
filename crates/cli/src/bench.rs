//! `tabletop bench`: random playouts per second on one thread.
use crate::options::GameOptions;
use crate::user;
use bots::RandomBot;
use catalog::Visit;
use clap::Args;
use engine::Game;
use std::time::Instant;

#[derive(Args)]
pub struct BenchArgs {
    /// dropsite, distopia or euphoria.
    game: String,
    /// How long to run.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    #[command(flatten)]
    options: GameOptions,
}

struct Bench {
    config: serde_json::Value,
    seconds: f64,
}

impl Visit for Bench {
    type Out = anyhow::Result<()>;
    fn visit<G: Game>(self) -> anyhow::Result<()> {
        let config = engine::Typed::<G>::config(&self.config).map_err(user)?;
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
        println!(
            "{}: {} rounds in {secs:.2} s on one thread",
            G::NAME,
            rounds
        );
        println!("{:.0} rounds/s", rounds as f64 / secs);
        println!(
            "{:.0} games/s, {:.0} moves/s",
            games as f64 / secs,
            moves as f64 / secs
        );
        Ok(())
    }
}

pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    let config = args.options.to_batch_config(&args.game)?;
    catalog::with_game(
        &args.game,
        Bench {
            config,
            seconds: args.seconds,
        },
    )
    .map_err(user)?
}

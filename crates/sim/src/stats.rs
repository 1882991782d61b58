use crate::GameResult;
use serde::Serialize;
use std::fmt;

/// The 95% Wilson score interval for `wins` successes in `n` trials.
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_985;
    let p = wins / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Mean, spread and range of a quantity over the games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spread {
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    fn of(values: impl Iterator<Item = f64> + Clone) -> Spread {
        let n = values.clone().count().max(1) as f64;
        let mean = values.clone().sum::<f64>() / n;
        let var = values.clone().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
        let (min, max) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        Spread {
            mean,
            sd: var.sqrt(),
            min,
            max,
        }
    }
}

/// One seat's record over the batch.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatSummary {
    pub seat: usize,
    pub bot: String,
    /// Wins, a shared first place counting 1/k.
    pub wins: f64,
    pub win_rate: f64,
    /// 95% Wilson interval of the win rate.
    pub win_rate_ci95: (f64, f64),
    pub score: Spread,
}

/// Everything a batch shows that does not depend on the machine.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub games: u64,
    pub seats: Vec<SeatSummary>,
    pub rounds: Spread,
    pub moves: Spread,
    /// Games whose first place was shared.
    pub shared_wins: u64,
}

impl Summary {
    pub fn of(results: &[GameResult], bots: Vec<String>) -> Summary {
        let n = results.len() as f64;
        let seats = bots
            .into_iter()
            .enumerate()
            .map(|(seat, bot)| {
                let wins: f64 = results
                    .iter()
                    .map(|r| {
                        let first = r.places.iter().filter(|&&p| p == 0).count() as f64;
                        if r.places[seat] == 0 {
                            1.0 / first
                        } else {
                            0.0
                        }
                    })
                    .sum();
                SeatSummary {
                    seat,
                    bot,
                    wins,
                    win_rate: if n > 0.0 { wins / n } else { 0.0 },
                    win_rate_ci95: wilson(wins, n),
                    score: Spread::of(results.iter().map(move |r| r.scores[seat] as f64)),
                }
            })
            .collect();
        Summary {
            games: results.len() as u64,
            seats,
            rounds: Spread::of(results.iter().map(|r| r.rounds as f64)),
            moves: Spread::of(results.iter().map(|r| r.moves as f64)),
            shared_wins: results
                .iter()
                .filter(|r| r.places.iter().filter(|&&p| p == 0).count() > 1)
                .count() as u64,
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<6} {:<14} {:>9} {:>17} {:>9} {:>8} {:>7} {:>7}",
            "seat", "bot", "win rate", "95% interval", "score", "sd", "min", "max"
        )?;
        for s in &self.seats {
            writeln!(
                f,
                "{:<6} {:<14} {:>8.1}% {:>7.1}% - {:>5.1}% {:>9.1} {:>8.1} {:>7} {:>7}",
                s.seat,
                s.bot,
                100.0 * s.win_rate,
                100.0 * s.win_rate_ci95.0,
                100.0 * s.win_rate_ci95.1,
                s.score.mean,
                s.score.sd,
                s.score.min,
                s.score.max
            )?;
        }
        writeln!(
            f,
            "rounds per game: {:.2} (sd {:.2}, {}-{})",
            self.rounds.mean, self.rounds.sd, self.rounds.min, self.rounds.max
        )?;
        writeln!(
            f,
            "moves per game: {:.1} (sd {:.1}, {}-{})",
            self.moves.mean, self.moves.sd, self.moves.min, self.moves.max
        )?;
        if self.shared_wins > 0 {
            writeln!(f, "games with a shared first place: {}", self.shared_wins)?;
        }
        Ok(())
    }
}

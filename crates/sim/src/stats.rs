use crate::GameResult;
use engine::{Held, Outcome};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Two-sided 95% normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval for `wins` successes in `n` trials.
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = Z95;
    let p = wins / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Variant B's win rate against variant A's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// `rate_b - rate_a`.
    pub difference: f64,
    /// Its 95% interval (unpooled normal approximation).
    pub difference_ci95: (f64, f64),
    /// The pooled two-proportion z statistic.
    pub z: f64,
    /// Two-sided p-value of "the rates are equal".
    pub p_value: f64,
    /// `p_value < 0.05`.
    pub significant: bool,
}

/// The two-proportion z-test of `wins_a / n_a` against `wins_b / n_b`.
pub fn two_proportion(wins_a: f64, n_a: f64, wins_b: f64, n_b: f64) -> Comparison {
    let (pa, pb) = (wins_a / n_a.max(1.0), wins_b / n_b.max(1.0));
    let difference = pb - pa;
    let pooled = (wins_a + wins_b) / (n_a + n_b).max(1.0);
    let se_pooled = (pooled * (1.0 - pooled) * (1.0 / n_a.max(1.0) + 1.0 / n_b.max(1.0))).sqrt();
    let se = (pa * (1.0 - pa) / n_a.max(1.0) + pb * (1.0 - pb) / n_b.max(1.0)).sqrt();
    let z = if se_pooled > 0.0 {
        difference / se_pooled
    } else {
        0.0
    };
    // P(|Z| > |z|) = erfc(|z| / sqrt 2).
    let p_value = libm::erfc(z.abs() / std::f64::consts::SQRT_2);
    Comparison {
        difference,
        difference_ci95: (difference - Z95 * se, difference + Z95 * se),
        z,
        p_value,
        significant: p_value < 0.05,
    }
}

/// Mean, spread and range of a quantity over the games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub games: u64,
    pub seats: Vec<SeatSummary>,
    pub rounds: Spread,
    pub moves: Spread,
    /// Turns: runs of consecutive actions by one seat.
    pub turns: Spread,
    /// Games whose first place was shared.
    pub shared_wins: u64,
    /// How often the seat that acted first won, against a fair share of 1/seats.
    pub first_player: FirstPlayer,
    /// Win rate by what a seat held (`Search::holdings`), aspect by aspect.
    pub holdings: Vec<HoldingRate>,
}

/// The first player's advantage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstPlayer {
    pub wins: f64,
    pub win_rate: f64,
    pub win_rate_ci95: (f64, f64),
    /// 1 / seats.
    pub fair_share: f64,
}

/// The seats that held one value of one aspect (a character, a recruit, a quintile of
/// first-hand points) and how often they won.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HoldingRate {
    pub aspect: String,
    /// The component's name, or the quintile and its range (`Q2: 17-19`).
    pub value: String,
    /// Seats (over all games) that held it.
    pub seats: u64,
    pub wins: f64,
    pub win_rate: f64,
    pub win_rate_ci95: (f64, f64),
}

/// A seat's reward in a finished game: 1, a share of a shared win, or 0.
pub fn reward(result: &GameResult, seat: usize) -> f64 {
    Outcome {
        scores: Vec::new(),
        places: result.places.clone(),
    }
    .reward(seat)
}

/// Quintile cut points: the values at 20%, 40%, 60% and 80% of the sorted list; a value
/// falls in bin `k` when it reaches `k` cuts (repeated cuts merge bins).
fn quintile_cuts(values: &mut [f64]) -> Vec<f64> {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let mut cuts: Vec<f64> = (1..5).map(|k| values[(n * k / 5).min(n - 1)]).collect();
    cuts.dedup();
    cuts.retain(|&c| c > values[0]);
    cuts
}

fn holding_rates(results: &[GameResult]) -> Vec<HoldingRate> {
    let mut aspects: Vec<String> = Vec::new();
    let mut numbers: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for r in results {
        for h in r.held.iter().flatten() {
            if !aspects.contains(&h.aspect) {
                aspects.push(h.aspect.clone());
            }
            if let Held::Number(v) = h.value {
                numbers.entry(h.aspect.as_str()).or_default().push(v);
            }
        }
    }
    let cuts: BTreeMap<&str, Vec<f64>> = numbers
        .into_iter()
        .map(|(aspect, mut values)| (aspect, quintile_cuts(&mut values)))
        .collect();
    // (aspect index, bin or name) -> (seats, wins, lowest, highest)
    let mut tally: BTreeMap<(usize, Bin), (u64, f64, f64, f64)> = BTreeMap::new();
    for r in results {
        for (seat, held) in r.held.iter().enumerate() {
            let won = reward(r, seat);
            for h in held {
                let a = aspects.iter().position(|x| *x == h.aspect).unwrap_or(0);
                let (bin, v) = match &h.value {
                    Held::Name(name) => (Bin::Name(name.clone()), 0.0),
                    Held::Number(v) => {
                        let c = cuts
                            .get(h.aspect.as_str())
                            .map_or(0, |cuts| cuts.iter().filter(|&&c| *v >= c).count());
                        (Bin::Quintile(c), *v)
                    }
                };
                let e = tally
                    .entry((a, bin))
                    .or_insert((0, 0.0, f64::INFINITY, f64::NEG_INFINITY));
                e.0 += 1;
                e.1 += won;
                e.2 = e.2.min(v);
                e.3 = e.3.max(v);
            }
        }
    }
    tally
        .into_iter()
        .map(|((a, bin), (seats, wins, lo, hi))| HoldingRate {
            aspect: aspects[a].clone(),
            value: match bin {
                Bin::Name(name) => name,
                Bin::Quintile(q) if lo == hi => format!("Q{}: {lo}", q + 1),
                Bin::Quintile(q) => format!("Q{}: {lo}-{hi}", q + 1),
            },
            seats,
            wins,
            win_rate: wins / seats as f64,
            win_rate_ci95: wilson(wins, seats as f64),
        })
        .collect()
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Bin {
    Quintile(usize),
    Name(String),
}

impl Summary {
    /// The win rates by what a seat held of one aspect (`character`, `first hand points`).
    pub fn holdings_of<'a>(&'a self, aspect: &'a str) -> impl Iterator<Item = &'a HoldingRate> {
        self.holdings.iter().filter(move |h| h.aspect == aspect)
    }

    pub fn of(results: &[GameResult], bots: Vec<String>) -> Summary {
        let n = results.len() as f64;
        let seats = bots
            .into_iter()
            .enumerate()
            .map(|(seat, bot)| {
                let wins: f64 = results.iter().map(|r| reward(r, seat)).sum();
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
            turns: Spread::of(results.iter().map(|r| r.turns as f64)),
            first_player: {
                let wins: f64 = results.iter().map(|r| reward(r, r.first)).sum();
                FirstPlayer {
                    wins,
                    win_rate: if n > 0.0 { wins / n } else { 0.0 },
                    win_rate_ci95: wilson(wins, n),
                    fair_share: 1.0 / results.first().map_or(1, |r| r.places.len()) as f64,
                }
            },
            holdings: holding_rates(results),
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
                s.seat + 1,
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
        writeln!(
            f,
            "turns per game: {:.1} (sd {:.1}, {}-{})",
            self.turns.mean, self.turns.sd, self.turns.min, self.turns.max
        )?;
        let fp = &self.first_player;
        writeln!(
            f,
            "first player wins {:.1}% ({:.1}% - {:.1}%; a fair share is {:.1}%)",
            100.0 * fp.win_rate,
            100.0 * fp.win_rate_ci95.0,
            100.0 * fp.win_rate_ci95.1,
            100.0 * fp.fair_share
        )?;
        for h in &self.holdings {
            writeln!(
                f,
                "{:<20} {:<24} {:>8} seats {:>6.1}% ({:.1}% - {:.1}%)",
                h.aspect,
                h.value,
                h.seats,
                100.0 * h.win_rate,
                100.0 * h.win_rate_ci95.0,
                100.0 * h.win_rate_ci95.1
            )?;
        }
        if self.shared_wins > 0 {
            writeln!(f, "games with a shared first place: {}", self.shared_wins)?;
        }
        Ok(())
    }
}

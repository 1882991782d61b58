//! The bots' fixed ratings (docs/accounts.md, "The bots' ratings"): each level of each
//! game has one Weng-Lin rating, converted once from the game's ladder (docs/bots.md,
//! "Measured ladders": Elo from round robins, `medium` = 1500) and never updated. A rated
//! table may seat them; its accounts are rated against these numbers.
//!
//! The conversion matches win probabilities: Elo gives level a the chance
//! `1 / (1 + 10^((Rb − Ra) / 400))` against b, Weng-Lin's Bradley-Terry model
//! `1 / (1 + e^((mu_b − mu_a) / c))` with `c = sqrt(sigma_a² + sigma_b² + 2 beta²)`. Every
//! bot has the same sigma, so between two bots c is one constant and the chances are
//! equal when `mu = MEDIUM_MU + (Elo − 1500) × c × ln 10 / 400`. `medium` is anchored at
//! a newcomer's mu (25): an account starts out expected to be as strong as `medium`.

use bots::BotSpec;

/// Every bot's sigma: about 29 Elo (at the bots' c), the order of the ladders' bootstrap
/// standard errors (15 to 50 Elo).
pub const BOT_SIGMA: f64 = 1.0;

/// `medium`'s mu: a newcomer's (skillratings' default, 25).
pub const MEDIUM_MU: f64 = 25.0;

/// The Elo the ladders anchor `medium` at.
pub const MEDIUM_ELO: f64 = 1500.0;

/// The levels of a ladder, in the order docs/bots.md lists them.
pub const LEVELS: [&str; 6] = ["random", "heuristic", "pimc", "easy", "medium", "hard"];

/// Each game's ladder (docs/bots.md, "Measured ladders", seed 1): the Elo of each level of
/// [`LEVELS`], `medium` = 1500. Drop Site's is the 2-seat ladder (a duel measures two
/// levels on their own; a rating is one per game at every table size); Euphoria's the
/// only one measured, at 4 seats (two against two).
pub const LADDERS: [(&str, [f64; 6]); 3] = [
    ("distopia", [1042.0, 1356.0, 1405.0, 1363.0, 1500.0, 1521.0]),
    ("dropsite", [463.0, 1333.0, 1250.0, 1150.0, 1500.0, 1512.0]),
    ("euphoria", [1037.0, 1365.0, 1493.0, 1599.0, 1500.0, 1533.0]),
];

/// The Weng-Lin model's beta (skillratings' default, 25/6, as `ratings::rating_config`).
fn beta() -> f64 {
    skillratings::weng_lin::WengLinConfig::new().beta
}

/// Mu per Elo point between two bots: `c × ln 10 / 400`, c for two sigmas of
/// [`BOT_SIGMA`].
pub fn mu_per_elo() -> f64 {
    let c = (2.0 * BOT_SIGMA * BOT_SIGMA + 2.0 * beta() * beta()).sqrt();
    c * std::f64::consts::LN_10 / 400.0
}

/// The Weng-Lin mu of a ladder's Elo.
pub fn elo_to_mu(elo: f64) -> f64 {
    MEDIUM_MU + (elo - MEDIUM_ELO) * mu_per_elo()
}

/// The ladder Elo of `level` at `game` (a catalog name), if the ladder has it.
pub fn ladder_elo(game: &str, level: &str) -> Option<f64> {
    let (_, elos) = LADDERS.iter().find(|(g, _)| *g == game)?;
    let at = LEVELS.iter().position(|l| *l == level)?;
    elos.get(at).copied()
}

/// The fixed rating (mu, sigma) of bot `spec` at `game`: `None` for a bot no ladder
/// measured (`ismcts`, `ismcts:N`), which a rated table does not seat.
pub fn bot_rating(game: &str, spec: &BotSpec) -> Option<(f64, f64)> {
    ladder_elo(game, &spec.to_string()).map(|elo| (elo_to_mu(elo), BOT_SIGMA))
}

/// One game's bots with their fixed ratings, in [`LEVELS`]' order: (level, Elo, mu,
/// sigma).
pub fn bot_ratings(game: &str) -> Vec<(&'static str, f64, f64, f64)> {
    LEVELS
        .iter()
        .filter_map(|&level| {
            ladder_elo(game, level).map(|elo| (level, elo, elo_to_mu(elo), BOT_SIGMA))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shown rating, as docs/accounts.md writes it (`ratings::shown_rating`).
    fn shown_rating(mu: f64, sigma: f64) -> i64 {
        (1000.0 + 40.0 * (mu - 3.0 * sigma)).round() as i64
    }

    /// Bradley-Terry's chance that (mu_a, sigma_a) beats (mu_b, sigma_b), Weng-Lin's p.
    fn weng_lin_p(a: (f64, f64), b: (f64, f64)) -> f64 {
        let beta: f64 = 25.0 / 6.0;
        let c = (a.1 * a.1 + b.1 * b.1 + 2.0 * beta * beta).sqrt();
        1.0 / (1.0 + ((b.0 - a.0) / c).exp())
    }

    fn elo_p(a: f64, b: f64) -> f64 {
        1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
    }

    #[test]
    fn the_conversion_keeps_each_ladders_order_chances_and_medium_anchor() {
        for (game, elos) in LADDERS {
            let bots = bot_ratings(game);
            assert_eq!(bots.len(), LEVELS.len(), "{game}");
            // medium is the anchor: a newcomer's mu.
            let medium = bot_rating(game, &"medium".parse().expect("spec")).expect("medium");
            assert_eq!(medium, (25.0, 1.0), "{game}");
            assert_eq!(shown_rating(medium.0, medium.1), 1880);
            for (i, a) in bots.iter().enumerate() {
                assert_eq!(a.1, elos[i], "{game} {}", a.0);
                for b in &bots {
                    // The same order as the ladder, and the same chance of a win.
                    assert_eq!(
                        a.1.partial_cmp(&b.1),
                        a.2.partial_cmp(&b.2),
                        "{game}: {} and {}",
                        a.0,
                        b.0
                    );
                    let (p, q) = (weng_lin_p((a.2, a.3), (b.2, b.3)), elo_p(a.1, b.1));
                    assert!((p - q).abs() < 1e-12, "{game}: {} against {}", a.0, b.0);
                }
            }
        }
        // One example in numbers: Distop-IA's random, 458 Elo below medium.
        let random = bot_rating("distopia", &BotSpec::Random).expect("random");
        assert!((random.0 - 9.023).abs() < 1e-3, "{random:?}");
        assert_eq!(shown_rating(random.0, random.1), 1241);
        // A bot no ladder measured has no fixed rating.
        assert_eq!(
            bot_rating("distopia", &"ismcts:5000".parse().expect("spec")),
            None
        );
        assert_eq!(bot_rating("chess", &BotSpec::Random), None);
    }

    /// docs/bots.md's ladder table and docs/accounts.md's table of the bots' ratings say
    /// what these constants say.
    #[test]
    fn the_docs_tables_match_the_constants() {
        let bots_md = include_str!("../../../../docs/bots.md");
        let accounts_md = include_str!("../../../../docs/accounts.md");
        let columns = ["distopia", "dropsite", "", "euphoria"];
        for (i, level) in LEVELS.iter().enumerate() {
            let row = bots_md
                .lines()
                .find(|l| {
                    l.starts_with(&format!("| {level} | "))
                        && (l.contains('[') || l.contains("(anchor)"))
                })
                .unwrap_or_else(|| panic!("{level}'s ladder row in docs/bots.md"));
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            for (c, game) in columns.iter().enumerate() {
                if game.is_empty() {
                    continue;
                }
                let elo: f64 = cells[c + 2]
                    .split(' ')
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("{row}"));
                assert_eq!(ladder_elo(game, level), Some(elo), "{game} {level}");
            }
            let shown: Vec<String> = LADDERS
                .iter()
                .map(|(game, _)| {
                    let (mu, sigma) = bot_rating(game, &level.parse().expect("spec")).expect("");
                    format!("{} (mu {mu:.2})", shown_rating(mu, sigma))
                })
                .collect();
            let line = format!("| {level} | {} |", shown.join(" | "));
            assert!(
                accounts_md.contains(&line),
                "docs/accounts.md lacks `{line}` (row {i})"
            );
        }
    }
}

//! Ratings (docs/accounts.md): one Weng-Lin rating (mu, sigma) per account and game, moved
//! by every rated table that finishes, at any table size (`skillratings`'
//! `weng_lin_multi_team`, each seat a team of one, ranked by the game's places, ties
//! shared). A resigned seat is placed by the game's outcome, below every seat still
//! playing; a seat the take-over bot played out counts as its owner's; an abandoned table
//! never finishes, so it rates nobody. A bot's seat plays at its level's fixed rating
//! (`bot_ratings.rs`): the accounts are rated against it, and it never moves.

use super::account_store::{RatedGame, RatingChange, RatingRow};
use super::hub::*;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// The model's constants: skillratings' defaults (a newcomer's mu 25 and sigma 25/3,
/// beta 25/6, the least sigma kept 1e-6 of the variance).
pub fn rating_config() -> WengLinConfig {
    WengLinConfig::new()
}

/// A newcomer's rating: mu 25, sigma 25/3.
pub fn first_rating() -> (f64, f64) {
    let r = WengLinRating::new();
    (r.rating, r.uncertainty)
}

/// The one number people read for a rating: `1000 + 40 × (mu − 3 sigma)`, rounded. A
/// newcomer shows 1000 (25 − 3 × 25/3 = 0); the number climbs as the player wins and as
/// the server grows sure of them (sigma shrinks), so a long run of games outranks one
/// lucky win.
pub fn shown_rating(mu: f64, sigma: f64) -> i64 {
    (1000.0 + 40.0 * (mu - 3.0 * sigma)).round() as i64
}

/// Each seat's rating after a game, from their ratings before and their places (0 first,
/// equal places tied).
pub fn rated(before: &[(f64, f64)], places: &[u8]) -> Vec<(f64, f64)> {
    let teams: Vec<[WengLinRating; 1]> = before
        .iter()
        .map(|&(rating, uncertainty)| {
            [WengLinRating {
                rating,
                uncertainty,
            }]
        })
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(places)
        .map(|(team, &place)| (&team[..], MultiTeamOutcome::new(usize::from(place) + 1)))
        .collect();
    weng_lin_multi_team(&input, &rating_config())
        .iter()
        .zip(before)
        .map(|(team, &old)| team.first().map_or(old, |r| (r.rating, r.uncertainty)))
        .collect()
}

/// A seat of a rated table as its rating sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum RatedSeat {
    /// A person's, with its account's id: rated.
    Account(String),
    /// A bot's, with its fixed rating (mu, sigma): an opponent, never moved.
    Bot(f64, f64),
}

/// Each seat of a rated table of `game`: an account's, or a bot's with a fixed rating
/// (docs/accounts.md); `None` when a seat is neither (a guest's, an open one, or a bot
/// no ladder measured).
pub fn rating_seats(game: &str, rows: &[SeatRow]) -> Option<Vec<RatedSeat>> {
    rows.iter()
        .map(|row| match (&row.player, &row.account) {
            (Player::Bot(spec), _) => {
                super::bot_rating(game, spec).map(|(mu, sigma)| RatedSeat::Bot(mu, sigma))
            }
            (_, Some(account)) => Some(RatedSeat::Account(account.clone())),
            _ => None,
        })
        .collect()
}

/// How many times a rating is tried again when another table's rating moved a player's
/// meanwhile.
const RATE_TRIES: usize = 5;

impl Hub {
    /// Rates `table` in the background if it is rated (it just finished here).
    pub(super) fn rate_later(self: &Arc<Self>, table: &Arc<Table>) {
        if !table.row.rules.rated {
            return;
        }
        let (hub, table) = (self.clone(), table.clone());
        tokio::spawn(async move {
            if let Err(e) = hub.rate(&table).await {
                tracing::warn!("rating table {}: {e}", table.row.id);
            }
        });
    }

    /// Moves the ratings of every seat of finished rated `table` by its result, once;
    /// `false` when there was nothing to do (not rated, not finished, rated already).
    ///
    /// # Errors
    /// The store fails.
    pub async fn rate(&self, table: &Arc<Table>) -> Result<bool, TableError> {
        if !table.row.rules.rated {
            return Ok(false);
        }
        let (status, outcome) = table.outcome().await;
        let Some(outcome) = outcome.filter(|_| status == Status::Finished) else {
            return Ok(false);
        };
        let Some(seats) = rating_seats(&table.row.game, &table.seats()) else {
            tracing::warn!(
                "table {} is rated but a seat is neither an account's nor a bot's with a fixed rating: nobody is rated",
                table.row.id
            );
            return Ok(false);
        };
        // The first account: its history tells whether the table was rated already.
        let Some(first) = seats.iter().find_map(|s| match s {
            RatedSeat::Account(account) => Some(account.clone()),
            RatedSeat::Bot(..) => None,
        }) else {
            return Ok(false);
        };
        for _ in 0..RATE_TRIES {
            let mut before = Vec::with_capacity(seats.len());
            for seat in &seats {
                let account = match seat {
                    RatedSeat::Account(account) => account,
                    RatedSeat::Bot(mu, sigma) => {
                        before.push((None, (*mu, *sigma)));
                        continue;
                    }
                };
                let ratings = (self.store.ratings(account).await).map_err(TableError::store)?;
                let row = (ratings.into_iter())
                    .find(|r| r.game == table.row.game)
                    .unwrap_or_else(|| {
                        let (mu, sigma) = first_rating();
                        RatingRow {
                            account: account.clone(),
                            game: table.row.game.clone(),
                            mu,
                            sigma,
                            games: 0,
                            at: 0,
                        }
                    });
                let pair = (row.mu, row.sigma);
                before.push((Some(row), pair));
            }
            let pairs: Vec<(f64, f64)> = before.iter().map(|(_, pair)| *pair).collect();
            let after = rated(&pairs, &outcome.places);
            // Only the accounts move: a bot's rating is fixed.
            let game = RatedGame {
                game_id: table.row.id.clone(),
                game: table.row.game.clone(),
                at: super::store::now_ms(),
                seats: (before.iter().zip(&after).enumerate())
                    .filter_map(|(seat, ((row, _), &(mu, sigma)))| {
                        row.as_ref().map(|b| RatingChange {
                            account: b.account.clone(),
                            seat,
                            place: outcome.places.get(seat).copied().unwrap_or(0),
                            mu_before: b.mu,
                            sigma_before: b.sigma,
                            games_before: b.games,
                            mu_after: mu,
                            sigma_after: sigma,
                        })
                    })
                    .collect(),
            };
            if (self.store.rate(&game).await).map_err(TableError::store)? {
                return Ok(true);
            }
            // Rated already (by a server before this one), or a rating moved meanwhile.
            let done = (self.store.history(&first, 50).await).map_err(TableError::store)?;
            if done.iter().any(|h| h.game_id == table.row.id) {
                return Ok(false);
            }
        }
        Err(TableError::internal(format!(
            "table {}: its players' ratings kept changing while it was rated",
            table.row.id
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bots::{BotSpec, Level};

    fn seat(player: Player, account: Option<&str>) -> SeatRow {
        SeatRow {
            player,
            token_sha256: None,
            name: None,
            joined: None,
            account: account.map(str::to_string),
        }
    }

    /// A newcomer beats a `medium` bot at Drop Site: the account moves by the formula of
    /// docs/accounts.md with the bot's fixed (25, 1) as its opponent; the bot's fixed
    /// rating is what it was (`Hub::rate` writes the accounts' only).
    #[test]
    fn an_account_that_beats_a_medium_bot_moves_by_the_formula() {
        let rows = [
            seat(Player::Human, Some("ada")),
            seat(Player::Bot(BotSpec::Level(Level::Medium)), None),
        ];
        let seats = rating_seats("dropsite", &rows).expect("rated seats");
        assert_eq!(
            seats,
            [RatedSeat::Account("ada".into()), RatedSeat::Bot(25.0, 1.0)]
        );
        let after = rated(&[first_rating(), (25.0, 1.0)], &[0, 1]);
        // By hand: c = sqrt((25/3)² + 1² + 2 (25/6)²) = 10.25508; p = 1/2 (equal mu);
        // mu' = 25 + (25/3)² / c × 1/2; sigma' = 25/3 × sqrt(1 − (25/3)/c × (25/3)²/c² × 1/4).
        let sigma: f64 = 25.0 / 3.0;
        let c = (sigma * sigma + 1.0 + 2.0 * (25.0f64 / 6.0).powi(2)).sqrt();
        assert!((c - 10.25508).abs() < 1e-5);
        let mu = 25.0 + sigma * sigma / c * 0.5;
        let new_sigma = sigma * (1.0 - sigma / c * sigma * sigma / (c * c) * 0.25).sqrt();
        assert!((after[0].0 - mu).abs() < 1e-12, "{after:?}");
        assert!((after[0].1 - new_sigma).abs() < 1e-12, "{after:?}");
        assert!((mu - 28.38586).abs() < 1e-5 && (new_sigma - 7.75427).abs() < 1e-5);
        assert_eq!(shown_rating(after[0].0, after[0].1), 1205);
        // The bot's fixed rating is read afresh for every table: still (25, 1), 1880.
        let medium = super::super::bot_rating("dropsite", &BotSpec::Level(Level::Medium));
        assert_eq!(medium, Some((25.0, 1.0)));
        assert_eq!(shown_rating(25.0, 1.0), 1880);

        // A guest's seat, an open one or a bot no ladder measured: no rated seats.
        for odd in [
            seat(Player::Human, None),
            seat(Player::Open, None),
            seat(Player::Bot("ismcts:5000".parse().expect("spec")), None),
        ] {
            assert_eq!(rating_seats("dropsite", &[rows[0].clone(), odd]), None);
        }
    }
}

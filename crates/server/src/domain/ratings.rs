//! Ratings (docs/accounts.md): one Weng-Lin rating (mu, sigma) per account and game, moved
//! by every rated table that finishes, at any table size (`skillratings`'
//! `weng_lin_multi_team`, each seat a team of one, ranked by the game's places, ties
//! shared). A resigned seat is placed by the game's outcome, below every seat still
//! playing; a seat the take-over bot played out counts as its owner's; an abandoned table
//! never finishes, so it rates nobody.

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
        let seats = table.seats();
        let Some(owners) = seats
            .iter()
            .map(|s| s.account.clone())
            .collect::<Option<Vec<String>>>()
        else {
            tracing::warn!(
                "table {} is rated but not every seat is an account's: nobody is rated",
                table.row.id
            );
            return Ok(false);
        };
        for _ in 0..RATE_TRIES {
            let mut before = Vec::with_capacity(owners.len());
            for account in &owners {
                let ratings = (self.store.ratings(account).await).map_err(TableError::store)?;
                before.push(
                    ratings
                        .into_iter()
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
                        }),
                );
            }
            let pairs: Vec<(f64, f64)> = before.iter().map(|r| (r.mu, r.sigma)).collect();
            let after = rated(&pairs, &outcome.places);
            let game = RatedGame {
                game_id: table.row.id.clone(),
                game: table.row.game.clone(),
                at: super::store::now_ms(),
                seats: (before.iter().zip(&after).enumerate())
                    .map(|(seat, (b, &(mu, sigma)))| RatingChange {
                        account: b.account.clone(),
                        seat,
                        place: outcome.places.get(seat).copied().unwrap_or(0),
                        mu_before: b.mu,
                        sigma_before: b.sigma,
                        games_before: b.games,
                        mu_after: mu,
                        sigma_after: sigma,
                    })
                    .collect(),
            };
            if (self.store.rate(&game).await).map_err(TableError::store)? {
                return Ok(true);
            }
            // Rated already (by a server before this one), or a rating moved meanwhile.
            let done = (self.store.history(&owners[0], 50).await).map_err(TableError::store)?;
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

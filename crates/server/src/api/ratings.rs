//! Ratings beside names (docs/accounts.md): each seat's shown rating at its table's game,
//! for the lobby's list and the table's page; a player's ratings over time; the bots'
//! fixed ratings in a game's description.

use super::extract::*;
use crate::domain::{bot_rating, first_rating, shown_rating, Player, RatingRow};
use std::collections::HashMap;

/// The ratings of the accounts read so far in one answer, by account id.
#[derive(Default)]
pub(super) struct RatingCache(HashMap<String, Vec<RatingRow>>);

impl RatingCache {
    /// Each seat's shown rating at `game`: an account's own (a newcomer's, 1000, before
    /// its first rated game there), a bot's fixed one, none for a guest or an open seat.
    /// An account whose ratings cannot be read now shows none.
    pub(super) async fn seats(
        &mut self,
        hub: &Hub,
        game: &str,
        seats: &[SeatRow],
    ) -> Vec<Option<i64>> {
        let mut out = Vec::with_capacity(seats.len());
        for seat in seats {
            out.push(match (&seat.player, &seat.account) {
                (Player::Bot(spec), _) => bot_rating(game, spec).map(|(m, s)| shown_rating(m, s)),
                (_, Some(account)) => self.account(hub, account, game).await,
                _ => None,
            });
        }
        out
    }

    async fn account(&mut self, hub: &Hub, account: &str, game: &str) -> Option<i64> {
        if !self.0.contains_key(account) {
            match hub.store().ratings(account).await {
                Ok(rows) => self.0.insert(account.to_string(), rows),
                Err(e) => {
                    tracing::warn!("the ratings of a seat's account: {e}");
                    return None;
                }
            };
        }
        let (mu, sigma) = (self.0.get(account)?.iter())
            .find(|r| r.game == game)
            .map_or_else(first_rating, |r| (r.mu, r.sigma));
        Some(shown_rating(mu, sigma))
    }
}

/// One point of a rating's history: when, and the shown rating then.
#[derive(Serialize, Debug, PartialEq)]
pub(crate) struct PointOut {
    at: i64,
    rating: i64,
}

/// Each game's rating over time, from an account's rated games (newest first, as the
/// store gives them): oldest first, starting at the rating before the first game listed.
pub(super) fn history_points(
    rows: &[crate::domain::HistoryRow],
) -> std::collections::BTreeMap<String, Vec<PointOut>> {
    let mut out: std::collections::BTreeMap<String, Vec<PointOut>> = Default::default();
    for row in rows.iter().rev() {
        let points = out.entry(row.game.clone()).or_default();
        if points.is_empty() {
            points.push(PointOut {
                at: row.at,
                rating: shown_rating(row.mu_before, row.sigma_before),
            });
        }
        points.push(PointOut {
            at: row.at,
            rating: shown_rating(row.mu_after, row.sigma_after),
        });
    }
    out
}

/// A bot's fixed rating, as a game's description gives it.
#[derive(Serialize)]
pub(crate) struct BotRatingOut {
    bot: &'static str,
    /// The level's Elo on the game's ladder (docs/bots.md), `medium` = 1500.
    elo: f64,
    /// The shown rating, `round(1000 + 40 × (mu − 3 × sigma))`.
    rating: i64,
    mu: f64,
    sigma: f64,
}

/// The bots' fixed ratings at `game`, in the ladder's order.
pub(super) fn bot_ratings_out(game: &str) -> Vec<BotRatingOut> {
    crate::domain::bot_ratings(game)
        .into_iter()
        .map(|(bot, elo, mu, sigma)| BotRatingOut {
            bot,
            elo,
            rating: shown_rating(mu, sigma),
            mu,
            sigma,
        })
        .collect()
}

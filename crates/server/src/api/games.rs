//! The games this server offers, as they describe themselves.

use super::extract::*;

/// One game the server offers.
#[derive(Serialize)]
pub(crate) struct GameInfo {
    name: &'static str,
    /// The default options; a table may set any of them.
    options: serde_json::Value,
}

pub(crate) async fn list_games() -> Result<Json<Vec<GameInfo>>, ApiError> {
    let mut out = Vec::new();
    for name in catalog::GAMES {
        let game = catalog::game(name)?;
        out.push(GameInfo {
            name: game.name(),
            options: game.default_config(),
        });
    }
    Ok(Json(out))
}

/// One game described for people: its options in words and its printed components.
#[derive(Serialize)]
pub(crate) struct GameAbout {
    name: &'static str,
    #[serde(flatten)]
    about: engine::About,
    /// The bots' fixed ratings at this game (docs/accounts.md).
    bot_ratings: Vec<super::ratings::BotRatingOut>,
}

/// `GET /api/games/{game}`: the game's options in words (labels, choices, defaults) and
/// its printed components, from the game's own crate; the web pages keep no copy.
pub(crate) async fn about_game(Path(name): Path<String>) -> Result<Json<GameAbout>, ApiError> {
    let game = catalog::game(&name)?;
    Ok(Json(GameAbout {
        name: game.name(),
        about: game.about(),
        bot_ratings: super::ratings::bot_ratings_out(game.name()),
    }))
}

/// A game's rules written for people.
#[derive(Serialize)]
pub(crate) struct GameRules {
    name: &'static str,
    #[serde(flatten)]
    rules: engine::Rules,
}

/// `GET /api/games/{game}/rules`: the game's rules page (sections of paragraphs, lists and
/// tables, the tables filled from the game's own data), from the game's own crate; the
/// web pages render it and keep no copy.
pub(crate) async fn game_rules(Path(name): Path<String>) -> Result<Json<GameRules>, ApiError> {
    let game = catalog::game(&name)?;
    Ok(Json(GameRules {
        name: game.name(),
        rules: game.rules(),
    }))
}

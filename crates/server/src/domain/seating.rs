//! Making a table, taking an open seat, and the rematch.

use super::hub::*;

impl Hub {
    /// Creates a table and stores it; returns it with the human seats' tokens (in seat
    /// order, `None` for bots).
    ///
    /// # Errors
    /// Unknown game, invalid options or seats, or the store fails.
    pub async fn create(
        self: &Arc<Self>,
        game_name: &str,
        options: Option<serde_json::Value>,
        seed: Option<u64>,
        seats: Option<Vec<serde_json::Value>>,
        rules: Option<super::clock::TableRules>,
    ) -> Result<(Arc<Table>, Vec<Option<String>>), TableError> {
        let game = catalog::game(game_name)?;
        if self.live_tables() >= self.limits.max_tables {
            return Err(TableError::new(
                Refusal::ServerFull,
                format!(
                    "this server has as many tables as it can hold ({}): try again once some have ended",
                    self.limits.max_tables
                ),
            ));
        }
        let mut config = game.default_config();
        let mut players_given = false;
        match options {
            None | Some(serde_json::Value::Null) => {}
            Some(serde_json::Value::Object(given)) => {
                // Options not given keep their defaults.
                players_given = given.contains_key("players");
                if let serde_json::Value::Object(defaults) = &mut config {
                    defaults.extend(given);
                } else {
                    config = serde_json::Value::Object(given);
                }
            }
            Some(_) => return Err(TableError::malformed("`options` must be a JSON object")),
        }
        // A seat list without a player count sets it.
        if let (Some(seats), serde_json::Value::Object(map), false) =
            (&seats, &mut config, players_given)
        {
            game.with_players(map, seats.len())
                .map_err(engine::EngineError::from)?;
        }
        let seed_chosen = seed.is_some();
        let seed = match seed {
            Some(seed) => seed,
            None => secure_seed()?,
        };
        let state = game.new_state(&config, seed)?;
        let config = state.config_json();
        let seats = match seats {
            Some(given) => given
                .iter()
                .map(parse_seat)
                .collect::<Result<Vec<_>, _>>()?,
            None => vec![("human".to_string(), None); state.seats()],
        };
        if seats.len() != state.seats() {
            return Err(TableError::new(
                Refusal::SeatCount,
                format!(
                    "{} with these options has {} seats, but {} were given",
                    game.name(),
                    state.seats(),
                    seats.len()
                ),
            ));
        }
        let rules = rules.unwrap_or_default();
        rules.check(seats.len())?;
        let takeover: bots::BotSpec = rules.takeover.parse().map_err(|e: bots::BotError| {
            TableError::new(
                Refusal::TableInvalid,
                format!("take-over bot: {}", truncate(&e.to_string(), 300)),
            )
        })?;
        if takeover == bots::BotSpec::Human {
            return Err(TableError::new(
                Refusal::TableInvalid,
                "the take-over player must be a bot, such as `medium`",
            ));
        }
        // The take-over bot is held to the server's limits when it plays (`clamp_bot`),
        // like every bot of a table stored before the limits changed.
        let mut rows = Vec::with_capacity(seats.len());
        let mut tokens = Vec::with_capacity(seats.len());
        for (text, name) in &seats {
            let name = name.clone();
            if text.trim().eq_ignore_ascii_case("open") {
                rows.push(SeatRow {
                    player: Player::Open,
                    token_sha256: None,
                    name: None,
                    joined: None,
                });
                tokens.push(None);
                continue;
            }
            let spec: bots::BotSpec = text.parse().map_err(|e: bots::BotError| {
                TableError::new(Refusal::SeatInvalid, truncate(&e.to_string(), 300))
            })?;
            if spec == bots::BotSpec::Human {
                let token = random_hex(32)?;
                rows.push(SeatRow {
                    player: Player::Human,
                    token_sha256: Some(token_hash(&token)),
                    name,
                    joined: None,
                });
                tokens.push(Some(token));
            } else {
                self.limits.check_bot(&spec)?;
                catalog::bot(game.name(), &spec, 0).map_err(|e| {
                    TableError::new(Refusal::SeatInvalid, truncate(&e.to_string(), 300))
                })?;
                rows.push(SeatRow {
                    player: Player::Bot(spec),
                    token_sha256: None,
                    name,
                    joined: None,
                });
                tokens.push(None);
            }
        }
        check_confusable(&rows, 0..rows.len())?;
        let hints = rules.hints_on(&rows);
        let created = super::store::now_ms();
        let row = GameRow {
            id: table_id(created)?,
            game: game.name().to_string(),
            config,
            seed,
            seats: rows,
            created,
            status: Status::Open,
            seed_chosen,
            bot_secret: random_hex(32)?,
            rematch: None,
            series: None,
            rules: super::clock::TableRules {
                takeover: takeover.to_string(),
                hints: Some(hints),
                ..rules
            },
            format: game.format(),
        };
        self.store.create(&row).await.map_err(TableError::store)?;
        // Just stored, nothing played or said yet: nothing to read back.
        let table = self.build(row, Vec::new(), Vec::new()).await?;
        Ok((table, tokens))
    }

    /// Takes open seat `seat` of `table` for a person named `name` (or "Seat N");
    /// returns the seat's new token. The game starts once no seat is open.
    ///
    /// # Errors
    /// `seat/not_found` for a seat the table does not have, `seat/taken` when nobody
    /// may take it (or someone just did), or the store fails.
    pub async fn join(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        name: Option<String>,
    ) -> Result<String, TableError> {
        let count = table.seats().len();
        if seat >= count {
            return Err(TableError::new(
                Refusal::SeatNotFound,
                format!(
                    "this table has seats 0 to {} (seat numbers in the API count from 0)",
                    count - 1
                ),
            ));
        }
        let token = random_hex(32)?;
        // Two tries: the second after reading seats another server may have taken.
        for attempt in 0..2 {
            let before = table.seats();
            if before[seat].player != Player::Open {
                return Err(TableError::new(
                    Refusal::SeatTaken,
                    format!("seat {} is not open: someone sits there", seat + 1),
                ));
            }
            let mut after = (*before).clone();
            let now = super::store::now_ms();
            after[seat] = SeatRow {
                player: Player::Human,
                token_sha256: Some(token_hash(&token)),
                name: name.clone(),
                joined: Some(now),
            };
            check_confusable(&after, [seat])?;
            let stored = self
                .store
                .set_seats(
                    &table.row.id,
                    SeatChange {
                        before: &before,
                        after: &after,
                    },
                )
                .await
                .map_err(TableError::store)?;
            if stored {
                let full = after.iter().all(|s| s.player != Player::Open);
                table.set_seats(after);
                if full {
                    // The clocks start when the last seat is taken.
                    let mut live = table.live.lock().await;
                    live.moved = live.moved.max(now);
                    if let Some(clocks) = &mut live.clocks {
                        clocks.started(now);
                    }
                }
                table.touched().await;
                self.wake(table);
                self.kick_bots(table);
                return Ok(token);
            }
            if attempt == 0 {
                self.refresh(table).await?;
            }
        }
        Err(TableError::new(
            Refusal::SeatTaken,
            format!("seat {} was just taken by someone else", seat + 1),
        ))
    }

    /// The rematch of finished `table`, asked for by `seat` (whose token is `token`):
    /// the one already named, or a new table with the same options and players, seats
    /// rotated by one (seat 1 sits at seat 2, the last at seat 1), and the series so
    /// far. Returns the rematch and the seat's new token there.
    ///
    /// # Errors
    /// `game/not_over` before the end, or the store fails.
    pub async fn rematch(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
    ) -> Result<(Arc<Table>, Seat, String), TableError> {
        let (status, outcome) = table.outcome().await;
        let Some(outcome) = outcome.filter(|_| status == Status::Finished) else {
            return Err(TableError::new(
                Refusal::NotOver,
                "a rematch is asked for once the game is over",
            ));
        };
        let seats = table.seats();
        let n = seats.len();
        let to = (seat + 1) % n;
        let old_hash = seats[seat].token_sha256.clone().unwrap_or_default();
        // One rematch at a time on this server; two servers settle it in the store.
        let _one = self.rematches.lock().await;
        if table.rematch().is_none() {
            self.refresh(table).await?;
        }
        if let Some(id) = table.rematch() {
            let next = self.table(&id).await?;
            let token = rematch_token(&next.row.bot_secret, &old_hash);
            return Ok((next, to, token));
        }
        let secret = random_hex(32)?;
        let mut rows = vec![seats[0].clone(); n];
        for (old, row) in seats.iter().enumerate() {
            let mut row = row.clone();
            row.joined = None;
            if let Some(hash) = &row.token_sha256 {
                row.token_sha256 = Some(token_hash(&rematch_token(&secret, hash)));
            }
            rows[(old + 1) % n] = row;
        }
        let before = table.row.series.clone().unwrap_or_else(|| Series {
            wins: vec![0; n],
            ..Series::default()
        });
        let mut wins = vec![0; n];
        for old in 0..n {
            let won = u32::from(outcome.places.get(old) == Some(&0));
            wins[(old + 1) % n] = before.wins.get(old).copied().unwrap_or(0) + won;
        }
        let created = super::store::now_ms();
        let row = GameRow {
            id: table_id(created)?,
            game: table.row.game.clone(),
            config: table.row.config.clone(),
            seed: secure_seed()?,
            seats: rows,
            created,
            status: Status::Open,
            seed_chosen: false,
            bot_secret: secret,
            rematch: None,
            series: Some(Series {
                previous: table.row.id.clone(),
                games: before.games + 1,
                wins,
            }),
            rules: table.row.rules.clone(),
            // (The table it follows was brought up to its game's format when loaded.)
            format: table.row.format,
        };
        self.store.create(&row).await.map_err(TableError::store)?;
        let stands = self
            .store
            .set_rematch(&table.row.id, &row.id)
            .await
            .map_err(TableError::store)?;
        if stands != row.id {
            // Another server named one first: ours never starts.
            let _ = self.store.abandon(&row.id, 0).await;
        }
        if let Ok(mut r) = table.rematch.lock() {
            *r = Some(stands.clone());
        }
        table.touched().await;
        let next = self.table(&stands).await?;
        let token = rematch_token(&next.row.bot_secret, &old_hash);
        Ok((next, to, token))
    }
}

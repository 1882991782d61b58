//! Making a table, taking an open seat, and the rematch.

use super::account_store::AccountRow;
use super::hub::*;

/// Who makes a table, as accounts see it (docs/accounts.md).
#[derive(Clone, Debug, Default)]
pub struct Creator {
    /// The signed-in creator, if any: it owns a seat of the table.
    pub account: Option<AccountRow>,
    /// The seat it owns (0-based); by default the first human seat no account is named
    /// for.
    pub seat: Option<Seat>,
}

impl Hub {
    /// Creates a table and stores it; returns it with the human seats' tokens (in seat
    /// order, `None` for bots and for seats owned by another account than the creator's:
    /// they open where their owner is signed in).
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
        creator: Creator,
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
            None => vec![
                SeatSpec {
                    player: "human".to_string(),
                    name: None,
                    account: None,
                };
                state.seats()
            ],
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
        for SeatSpec {
            player: text, name, ..
        } in &seats
        {
            let name = name.clone();
            if text.trim().eq_ignore_ascii_case("open") {
                rows.push(SeatRow {
                    player: Player::Open,
                    token_sha256: None,
                    name: None,
                    joined: None,
                    account: None,
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
                    account: None,
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
                    account: None,
                });
                tokens.push(None);
            }
        }
        let owners = self.owners(&seats, &rows, &creator).await?;
        for (seat, owner) in owners.iter().enumerate() {
            if let Some(account) = owner {
                rows[seat].name = Some(account.name.clone());
                rows[seat].account = Some(account.id.clone());
                // Another account's seat opens where its owner is signed in: its token
                // is nobody's.
                if creator.account.as_ref().map(|a| &a.id) != Some(&account.id) {
                    tokens[seat] = None;
                }
            } else if let Some(name) = &rows[seat].name {
                self.check_guest_name(name).await?;
            }
        }
        check_confusable(&rows, 0..rows.len())?;
        if rules.rated {
            rated_seats(game.name(), &rows, rules.hints)?;
        }
        let hints = !rules.rated && rules.hints_on(&rows);
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
        let owned: Vec<(Seat, String)> = (row.seats.iter().enumerate())
            .filter_map(|(seat, s)| s.account.clone().map(|a| (seat, a)))
            .collect();
        if !owned.is_empty() {
            (self.store.add_owners(&row.id, &owned).await).map_err(TableError::store)?;
        }
        // Just stored, nothing played or said yet: nothing to read back.
        let table = self.build(row, Vec::new(), Vec::new()).await?;
        Ok((table, tokens))
    }

    /// Takes open seat `seat` of `table` for a person named `name` (or "Seat N"), or
    /// for signed-in `account` (the seat is then its, under its name); returns the seat's
    /// new token. The game starts once no seat is open.
    ///
    /// # Errors
    /// `seat/not_found` for a seat the table does not have, `seat/taken` when nobody
    /// may take it (or someone just did, or the account sits at the table already),
    /// `auth/signed_out` at a rated table without an account, `seat/name_taken` for a
    /// guest's name that is an account's, or the store fails.
    pub async fn join(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        name: Option<String>,
        account: Option<&AccountRow>,
    ) -> Result<String, TableError> {
        if table.row.rules.rated && account.is_none() {
            return Err(TableError::new(
                Refusal::SignedOut,
                "this table is rated: sign in to take a seat at it",
            ));
        }
        let name = match account {
            Some(account) => Some(account.name.clone()),
            None => {
                if let Some(name) = &name {
                    self.check_guest_name(name).await?;
                }
                name
            }
        };
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
            if let Some(mine) = account.and_then(|a| {
                (before.iter()).position(|s| s.account.as_deref() == Some(a.id.as_str()))
            }) {
                return Err(TableError::new(
                    Refusal::SeatTaken,
                    format!("you sit at seat {} of this table already", mine + 1),
                ));
            }
            let mut after = (*before).clone();
            let now = super::store::now_ms();
            after[seat] = SeatRow {
                player: Player::Human,
                token_sha256: Some(token_hash(&token)),
                name: name.clone(),
                joined: Some(now),
                account: account.map(|a| a.id.clone()),
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
                if let Some(account) = account {
                    (self
                        .store
                        .add_owners(&table.row.id, &[(seat, account.id.clone())])
                        .await)
                        .map_err(TableError::store)?;
                }
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
        } else {
            // Each account keeps its seat, and the rematch joins its list.
            let owned: Vec<(Seat, String)> = (row.seats.iter().enumerate())
                .filter_map(|(seat, s)| s.account.clone().map(|a| (seat, a)))
                .collect();
            if !owned.is_empty() {
                (self.store.add_owners(&row.id, &owned).await).map_err(TableError::store)?;
            }
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

impl Hub {
    /// The account that owns each seat of a new table: those the seats name, and the
    /// signed-in creator's (the seat it names, or the first human seat nobody is named
    /// for). One account owns one seat of a table.
    ///
    /// # Errors
    /// `account/not_found` for a name no account has, `seat/invalid` for an account named
    /// for a seat that is no person's or for two seats, `seat/not_found` or `seat/taken`
    /// for the creator's seat, `auth/signed_out` for a seat asked for without signing in.
    async fn owners(
        &self,
        specs: &[SeatSpec],
        rows: &[SeatRow],
        creator: &Creator,
    ) -> Result<Vec<Option<AccountRow>>, TableError> {
        let mut owners: Vec<Option<AccountRow>> = vec![None; rows.len()];
        for (seat, spec) in specs.iter().enumerate() {
            let Some(name) = &spec.account else { continue };
            if rows[seat].player != Player::Human {
                return Err(TableError::new(
                    Refusal::SeatInvalid,
                    format!(
                        "seat {} names an account, so it is a person's: its player is `human`",
                        seat + 1
                    ),
                ));
            }
            owners[seat] = Some(self.account_called(name).await?);
        }
        match (&creator.account, creator.seat) {
            (None, Some(_)) => {
                return Err(TableError::new(
                    Refusal::SignedOut,
                    "only a signed-in creator chooses a seat with `seat`: sign in first",
                ))
            }
            (None, None) => {}
            (Some(me), Some(seat)) => {
                if seat >= rows.len() {
                    return Err(TableError::new(
                        Refusal::SeatNotFound,
                        format!(
                            "this table has seats 0 to {} (`seat` counts from 0, as seats do in the API)",
                            rows.len() - 1
                        ),
                    ));
                }
                if rows[seat].player != Player::Human {
                    return Err(TableError::new(
                        Refusal::SeatInvalid,
                        format!("seat {} is not a person's: you cannot sit there", seat + 1),
                    ));
                }
                if owners[seat].as_ref().is_some_and(|a| a.id != me.id) {
                    return Err(TableError::new(
                        Refusal::SeatTaken,
                        format!("seat {} is named for another account", seat + 1),
                    ));
                }
                owners[seat] = Some(me.clone());
            }
            (Some(me), None) => {
                let free = (0..rows.len())
                    .find(|&s| rows[s].player == Player::Human && owners[s].is_none());
                let named = owners.iter().flatten().any(|a| a.id == me.id);
                if let (Some(seat), false) = (free, named) {
                    owners[seat] = Some(me.clone());
                }
            }
        }
        for (seat, owner) in owners.iter().enumerate() {
            let Some(owner) = owner else { continue };
            if let Some(other) = (owners.iter().enumerate())
                .skip(seat + 1)
                .find(|(_, o)| o.as_ref().is_some_and(|o| o.id == owner.id))
                .map(|(s, _)| s)
            {
                return Err(TableError::new(
                    Refusal::SeatInvalid,
                    format!(
                        "the account {} is named for seats {} and {}: an account sits at one seat of a table",
                        truncate(&owner.name, MAX_NAME_CHARS),
                        seat + 1,
                        other + 1
                    ),
                ));
            }
        }
        Ok(owners)
    }
}

/// Checks the seats of a rated table: each a person's with an account, or open (to be
/// taken by an account), or a bot with a fixed rating at `game`; at least one seat not a
/// bot's; no hints asked for.
///
/// # Errors
/// `table/invalid` naming the seat, `table/rated` for hints.
fn rated_seats(game: &str, rows: &[SeatRow], hints: Option<bool>) -> Result<(), TableError> {
    for (seat, row) in rows.iter().enumerate() {
        let why = match &row.player {
            Player::Open => continue,
            Player::Human if row.account.is_some() => continue,
            Player::Bot(spec) if super::bot_rating(game, spec).is_some() => continue,
            Player::Human => "every person at a rated table plays as an account: name one with `account`, or leave the seat open for one",
            Player::Bot(_) => "a rated table seats only the bots with a fixed rating: random, heuristic, pimc, easy, medium or hard",
        };
        return Err(TableError::new(
            Refusal::TableInvalid,
            format!("seat {}: {why}", seat + 1),
        ));
    }
    if rows.iter().all(|row| matches!(row.player, Player::Bot(_))) {
        return Err(TableError::new(
            Refusal::TableInvalid,
            "a rated table seats at least one person: bots' ratings are fixed",
        ));
    }
    if hints == Some(true) {
        return Err(TableError::new(
            Refusal::Rated,
            "a rated table gives no hints: leave `hints` out or set it to false",
        ));
    }
    Ok(())
}

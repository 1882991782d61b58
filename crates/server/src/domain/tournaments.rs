//! Tournaments on the server (docs/accounts.md, Tournaments): made by an account, joined by
//! others, started by their creator; each round's tables made as ordinary tables whose
//! seats the players' accounts own, the next round made when the last table of a round
//! ends. The pairings and standings are [`super::tournament`]'s.

use super::account_store::AccountRow;
use super::clock::TableRules;
use super::hub::*;
use super::tournament::{
    is_bye, round_robin, round_robin_rounds, standings, swiss, Board, BoardResult, Format, Round,
    Standing, MAX_ENTRANTS,
};
use super::tournament_store::{BoardRow, RoundRow, TournamentData, TournamentRow};
use serde::{Deserialize, Serialize};

/// The most rounds a Swiss tournament plays.
pub const MAX_ROUNDS: u32 = 20;
/// The longest tournament name, in characters.
pub const MAX_TOURNAMENT_NAME: usize = 60;

/// What a tournament keeps beside its columns (stored as JSON).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TournamentSettings {
    /// The game's options for every table (the player count is the table's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<serde_json::Map<String, serde_json::Value>>,
    /// The tables' own rules (clock, take-over bot, away time).
    #[serde(default)]
    pub table: TableRules,
    /// The bot that takes the seats no player fills (a bye, a short table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill: Option<String>,
}

/// A tournament as asked for.
#[derive(Clone, Debug, Default)]
pub struct NewTournament {
    pub name: String,
    pub game: String,
    pub format: Format,
    /// A Swiss's rounds (a round robin's follow from its players).
    pub rounds: Option<u32>,
    /// The most seats at a table: 2 unless given.
    pub table_size: Option<u32>,
    pub max_players: Option<u32>,
    pub options: Option<serde_json::Value>,
    pub table: Option<TableRules>,
    pub fill: Option<String>,
    pub rated: bool,
}

/// A tournament read back: its rows, its rounds as the pairing rules see them, and its
/// standings.
#[derive(Clone, Debug)]
pub struct TournamentState {
    pub data: TournamentData,
    pub settings: TournamentSettings,
    pub format: Format,
    /// Each round's boards and results (entrants numbered by join order).
    pub rounds: Vec<Round>,
    /// Each board's table, by round.
    pub tables: Vec<Vec<Option<String>>>,
    pub standings: Vec<Standing>,
}

fn invalid(why: impl Into<String>) -> TableError {
    TableError::new(Refusal::TournamentInvalid, why)
}

fn not_found(id: &str) -> TableError {
    TableError::new(
        Refusal::TournamentNotFound,
        format!("no tournament has the id `{}`", truncate(id, 64)),
    )
}

/// Reads a tournament's stored rows into its rounds, as the pairing rules see them.
///
/// # Errors
/// An internal error for rows that do not read (a pairing that is no JSON of accounts).
fn read_state(data: TournamentData) -> Result<TournamentState, TableError> {
    let settings: TournamentSettings =
        serde_json::from_str(&data.row.settings).map_err(TableError::internal)?;
    let format = Format::parse(&data.row.format)
        .ok_or_else(|| TableError::internal(format!("format {}", data.row.format)))?;
    let index: HashMap<&str, usize> = (data.entrants.iter().enumerate())
        .map(|(i, e)| (e.account.as_str(), i))
        .collect();
    let mut rounds = Vec::with_capacity(data.rounds.len());
    let mut tables = Vec::with_capacity(data.rounds.len());
    for r in &data.rounds {
        let seats: Vec<Vec<Option<String>>> =
            serde_json::from_str(&r.pairing).map_err(TableError::internal)?;
        let boards: Vec<Board> = seats
            .iter()
            .map(|b| {
                b.iter()
                    .map(|s| match s {
                        Some(a) => index.get(a.as_str()).copied().map(Some).ok_or_else(|| {
                            TableError::internal(format!("a pairing names no player: {a}"))
                        }),
                        None => Ok(None),
                    })
                    .collect::<Result<Board, TableError>>()
            })
            .collect::<Result<_, _>>()?;
        let mut results = vec![None; boards.len()];
        let mut round_tables = vec![None; boards.len()];
        for b in data.boards.iter().filter(|b| b.round == r.round) {
            let at = b.board as usize;
            if let Some(slot) = round_tables.get_mut(at) {
                *slot = Some(b.table.clone());
            }
            if let (Some(slot), Some(result)) = (results.get_mut(at), &b.result) {
                *slot = Some(serde_json::from_str(result).map_err(TableError::internal)?);
            }
        }
        rounds.push(Round { boards, results });
        tables.push(round_tables);
    }
    let standings = standings(data.entrants.len(), &rounds);
    Ok(TournamentState {
        data,
        settings,
        format,
        rounds,
        tables,
        standings,
    })
}

impl Hub {
    /// Makes a tournament for `creator`, who joins it.
    ///
    /// # Errors
    /// `tournament/invalid` naming what is wrong, an unknown game, or the store fails.
    pub async fn create_tournament(
        &self,
        creator: &AccountRow,
        asked: NewTournament,
    ) -> Result<TournamentState, TableError> {
        let name = asked.name.trim().to_string();
        let chars = name.chars().count();
        if chars == 0 || chars > MAX_TOURNAMENT_NAME || name.chars().any(char::is_control) {
            return Err(invalid(format!(
                "a tournament's name has 1 to {MAX_TOURNAMENT_NAME} characters, none of them control characters"
            )));
        }
        let game = catalog::game(asked.game.trim())?;
        let players = game.about().players;
        let size = asked.table_size.unwrap_or(2) as usize;
        if !players.allows(size) {
            return Err(invalid(format!(
                "{} seats {} to {} players at a table, not {size}",
                game.name(),
                players.min,
                players.max
            )));
        }
        let rounds = match (asked.format, asked.rounds) {
            (Format::RoundRobin, None) => 0,
            (Format::RoundRobin, Some(_)) => {
                return Err(invalid(
                    "a round robin plays as many rounds as it takes for everyone to meet everyone: leave `rounds` out",
                ))
            }
            (Format::Swiss, Some(r)) if (1..=MAX_ROUNDS).contains(&r) => r,
            (Format::Swiss, _) => {
                return Err(invalid(format!(
                    "a Swiss tournament plays 1 to {MAX_ROUNDS} rounds: give `rounds`"
                )))
            }
        };
        if asked.format == Format::RoundRobin && size != 2 {
            return Err(invalid(
                "a round robin is played at tables of 2 (each pair meets once): for larger tables choose Swiss",
            ));
        }
        let max_players = asked.max_players.unwrap_or(0);
        if max_players != 0 && !(2..=MAX_ENTRANTS as u32).contains(&max_players) {
            return Err(invalid(format!(
                "`max_players` is 2 to {MAX_ENTRANTS}, not {max_players}"
            )));
        }
        let mut options = match asked.options {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Object(map)) => Some(map),
            Some(_) => return Err(invalid("`options` must be a JSON object")),
        };
        // Each table's player count is its own.
        if let Some(map) = &mut options {
            map.remove("players");
        }
        // The options must make a game at every table size the tournament may use.
        for n in players.min.max(2)..=size {
            let mut config = game.default_config();
            if let (serde_json::Value::Object(defaults), Some(given)) = (&mut config, &options) {
                defaults.extend(given.clone());
            }
            if let serde_json::Value::Object(map) = &mut config {
                game.with_players(map, n)
                    .map_err(engine::EngineError::from)?;
            }
            game.new_state(&config, 0)?;
        }
        let mut table = asked.table.unwrap_or_default();
        table.rated |= asked.rated;
        table.check(size)?;
        let takeover: bots::BotSpec = (table.takeover.parse())
            .map_err(|e: bots::BotError| invalid(format!("take-over bot: {e}")))?;
        if takeover == bots::BotSpec::Human {
            return Err(invalid(
                "the take-over player must be a bot, such as `medium`",
            ));
        }
        if table.hints == Some(true) && table.rated {
            return Err(TableError::new(
                Refusal::Rated,
                "a rated table gives no hints: leave `hints` out or set it to false",
            ));
        }
        let fill = match asked.fill.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => {
                let spec: bots::BotSpec =
                    (text.parse()).map_err(|e: bots::BotError| invalid(format!("`fill`: {e}")))?;
                if spec == bots::BotSpec::Human {
                    return Err(invalid("`fill` names a bot, such as `medium`"));
                }
                if table.rated {
                    return Err(invalid(
                        "a rated tournament seats no bots (bots have no rating yet): leave `fill` out",
                    ));
                }
                self.limits.check_bot(&spec)?;
                catalog::bot(game.name(), &spec, 0).map_err(|e| invalid(e.to_string()))?;
                Some(spec.to_string())
            }
        };
        let settings = TournamentSettings {
            options,
            table,
            fill,
        };
        let created = super::store::now_ms();
        let row = TournamentRow {
            id: table_id(created)?,
            name,
            game: game.name().to_string(),
            format: asked.format.as_str().to_string(),
            rounds,
            table_size: size as u32,
            max_players,
            settings: serde_json::to_string(&settings).map_err(TableError::internal)?,
            creator: creator.id.clone(),
            status: "open".into(),
            created,
            players: 0,
        };
        (self.store.create_tournament(&row).await).map_err(TableError::store)?;
        let room = if max_players == 0 {
            MAX_ENTRANTS as u32
        } else {
            max_players
        };
        (self
            .store
            .join_tournament(&row.id, &creator.id, created, room)
            .await)
            .map_err(TableError::store)?;
        tracing::info!("tournament {} made by account {}", row.id, creator.name);
        self.tournament_state(&row.id).await
    }

    /// A tournament as stored now.
    ///
    /// # Errors
    /// `tournament/not_found`, or the store fails.
    pub async fn tournament_state(&self, id: &str) -> Result<TournamentState, TableError> {
        if id.len() > 64 {
            return Err(not_found(id));
        }
        let data = (self.store.tournament(id).await)
            .map_err(TableError::store)?
            .ok_or_else(|| not_found(id))?;
        read_state(data)
    }

    /// Tournament `id` while it is open for joining.
    ///
    /// # Errors
    /// `tournament/not_found`, `tournament/closed` once it started, or the store fails.
    async fn open_tournament(&self, id: &str) -> Result<TournamentState, TableError> {
        let state = self.tournament_state(id).await?;
        open(&state)?;
        Ok(state)
    }

    /// `account` joins open tournament `id`.
    ///
    /// # Errors
    /// `tournament/not_found`, `tournament/closed` once it started, `tournament/entry` when
    /// the account is in it already or it is full, or the store fails.
    pub async fn join_tournament(
        &self,
        id: &str,
        account: &AccountRow,
    ) -> Result<TournamentState, TableError> {
        let state = self.open_tournament(id).await?;
        let row = &state.data.row;
        if state.data.entrants.iter().any(|e| e.account == account.id) {
            return Err(TableError::new(
                Refusal::TournamentEntry,
                "you are in this tournament already",
            ));
        }
        let joined = super::store::now_ms();
        let max = if row.max_players == 0 {
            MAX_ENTRANTS as u32
        } else {
            row.max_players
        };
        if !(self
            .store
            .join_tournament(id, &account.id, joined, max)
            .await)
            .map_err(TableError::store)?
        {
            // Started, full or joined meanwhile: say which.
            self.open_tournament(id).await?;
            return Err(TableError::new(
                Refusal::TournamentEntry,
                format!("this tournament is full ({max} players)"),
            ));
        }
        self.tournament_state(id).await
    }

    /// `account` leaves open tournament `id`.
    ///
    /// # Errors
    /// `tournament/not_found`, `tournament/closed` once it started, `tournament/entry` when
    /// the account is not in it, or the store fails.
    pub async fn leave_tournament(
        &self,
        id: &str,
        account: &AccountRow,
    ) -> Result<TournamentState, TableError> {
        self.open_tournament(id).await?;
        if !(self.store.leave_tournament(id, &account.id).await).map_err(TableError::store)? {
            self.open_tournament(id).await?;
            return Err(TableError::new(
                Refusal::TournamentEntry,
                "you are not in this tournament",
            ));
        }
        self.tournament_state(id).await
    }

    /// Starts tournament `id` (its creator asks): its players are fixed and its first
    /// round's tables made.
    ///
    /// # Errors
    /// `tournament/not_found`, `tournament/not_creator` for anyone else,
    /// `tournament/closed` once started, `tournament/too_few` with fewer than 2 players or
    /// (Swiss) no more players than rounds, or the store fails.
    pub async fn start_tournament(
        self: &Arc<Self>,
        id: &str,
        account: &AccountRow,
    ) -> Result<TournamentState, TableError> {
        let state = self.tournament_state(id).await?;
        if state.data.row.creator != account.id {
            return Err(TableError::new(
                Refusal::NotCreator,
                "only the tournament's creator starts it",
            ));
        }
        open(&state)?;
        let n = state.data.entrants.len();
        if n < 2 {
            return Err(TableError::new(
                Refusal::TooFew,
                "a tournament needs at least 2 players to start",
            ));
        }
        let rounds = match state.format {
            Format::RoundRobin => round_robin_rounds(n) as u32,
            Format::Swiss => state.data.row.rounds,
        };
        if state.format == Format::Swiss && n as u32 <= rounds {
            return Err(TableError::new(
                Refusal::TooFew,
                format!(
                    "a Swiss tournament needs more players than rounds: {rounds} rounds need at least {} players, and {n} have joined (a round robin suits fewer players)",
                    rounds + 1
                ),
            ));
        }
        if !(self
            .store
            .set_tournament_status(id, "open", "running", rounds)
            .await)
            .map_err(TableError::store)?
        {
            return Err(closed());
        }
        tracing::info!("tournament {id} started with {n} players");
        self.advance_tournament(id).await?;
        self.tournament_state(id).await
    }

    /// Tells tournament play that `table` ended (finished or abandoned): if it was a
    /// tournament's, its result is kept and, the round over, the next one made (in the
    /// background).
    pub(super) fn tournament_table_over(self: &Arc<Self>, table: &Arc<Table>) {
        let (hub, id) = (self.clone(), table.row.id.clone());
        tokio::spawn(async move {
            let tournament = match hub.store.tournament_of(&id).await {
                Ok(Some(t)) => t,
                Ok(None) => return,
                Err(e) => {
                    tracing::warn!("the tournament of table {id}: {e}");
                    return;
                }
            };
            if let Err(e) = hub.advance_tournament(&tournament).await {
                tracing::warn!("tournament {tournament} after table {id}: {e}");
            }
        });
    }

    /// Moves running tournament `id` on as far as it can: keeps the result of each table of
    /// its last round that has ended, and once they all have, makes the next round's
    /// tables, or finishes it after its last round. Safe to call any time, on any server:
    /// a round is made once (the store keeps the first pairing of a round).
    ///
    /// # Errors
    /// The store fails, or a table cannot be made.
    pub async fn advance_tournament(self: &Arc<Self>, id: &str) -> Result<(), TableError> {
        let _one = self.tournament_lock.lock().await;
        let mut state = self.tournament_state(id).await?;
        if state.data.row.status != "running" {
            return Ok(());
        }
        if let (Some(round), Some(tables)) = (state.rounds.last_mut(), state.tables.last()) {
            for (b, table) in tables.iter().enumerate() {
                let Some(table) = table else { continue };
                if round.results.get(b).is_some_and(Option::is_some) {
                    continue;
                }
                let live = self.table(table).await?;
                let (status, outcome) = live.outcome().await;
                let result = match (status, outcome) {
                    (Status::Finished, Some(outcome)) => BoardResult::Places(outcome.places),
                    (Status::Abandoned, _) => BoardResult::Abandoned,
                    _ => continue,
                };
                let text = serde_json::to_string(&result).map_err(TableError::internal)?;
                (self.store.set_board_result(table, &text).await).map_err(TableError::store)?;
                if let Some(slot) = round.results.get_mut(b) {
                    *slot = Some(result);
                }
            }
            if !round.complete() {
                return Ok(());
            }
            // A board whose table is not named yet is being made by another server.
            let made = (round.boards.iter().zip(tables))
                .all(|(board, table)| is_bye(board) || table.is_some());
            if !made {
                return Ok(());
            }
        }
        let row = &state.data.row;
        let next = state.rounds.len();
        if next as u32 >= row.rounds {
            if (self
                .store
                .set_tournament_status(id, "running", "finished", row.rounds)
                .await)
                .map_err(TableError::store)?
            {
                tracing::info!("tournament {id} finished");
            }
            return Ok(());
        }
        let n = state.data.entrants.len();
        let fill = state.settings.fill.is_some();
        let boards = match state.format {
            Format::RoundRobin => round_robin(n, next, fill),
            Format::Swiss => swiss(n, &state.rounds, row.table_size as usize, fill),
        };
        let accounts: Vec<Vec<Option<String>>> = boards
            .iter()
            .map(|b| {
                b.iter()
                    .map(|s| {
                        s.and_then(|e| state.data.entrants.get(e))
                            .map(|e| e.account.clone())
                    })
                    .collect()
            })
            .collect();
        let pairing = serde_json::to_string(&accounts).map_err(TableError::internal)?;
        let round = RoundRow {
            round: next as u32,
            pairing,
            created: super::store::now_ms(),
        };
        if !(self.store.add_round(id, &round).await).map_err(TableError::store)? {
            return Ok(());
        }
        for (b, board) in boards.iter().enumerate() {
            if is_bye(board) {
                continue;
            }
            let table = self.board_table(&state, board).await?;
            let row = BoardRow {
                round: next as u32,
                board: b as u32,
                table: table.row.id.clone(),
                result: None,
            };
            (self.store.add_board(id, &row).await).map_err(TableError::store)?;
        }
        tracing::info!("tournament {id}: round {} made", next + 1);
        Ok(())
    }

    /// Makes the table of one board: its players' seats owned by their accounts, a bot in
    /// each other seat, the tournament's options and rules.
    async fn board_table(
        self: &Arc<Self>,
        state: &TournamentState,
        board: &Board,
    ) -> Result<Arc<Table>, TableError> {
        let fill = state
            .settings
            .fill
            .clone()
            .unwrap_or_else(|| "medium".into());
        let seats: Vec<serde_json::Value> = board
            .iter()
            .map(|s| match s.and_then(|e| state.data.entrants.get(e)) {
                Some(e) => serde_json::json!({"player": "human", "account": e.name}),
                None => serde_json::Value::String(fill.clone()),
            })
            .collect();
        let options = state
            .settings
            .options
            .clone()
            .map(serde_json::Value::Object);
        let (table, _) = self
            .create(
                &state.data.row.game,
                options,
                None,
                Some(seats),
                Some(state.settings.table.clone()),
                super::seating::Creator::default(),
            )
            .await?;
        Ok(table)
    }
}

fn closed() -> TableError {
    TableError::new(
        Refusal::TournamentClosed,
        "this tournament has started: players join and leave before it starts",
    )
}

/// Refuses a change of players once the tournament started.
fn open(state: &TournamentState) -> Result<(), TableError> {
    if state.data.row.status == "open" {
        Ok(())
    } else {
        Err(closed())
    }
}

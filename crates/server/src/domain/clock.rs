//! A table's own rules besides the game's: its clock, what happens when a seat's time runs
//! out, and the bot that takes the seat of a player who left.
//!
//! Clocks are worked out from the stored moves' times alone (each action row has its
//! seat and time), so they survive a restart and agree on every server: a deadline that
//! passed while the server was down is met as soon as the table is back, once, since the
//! move it causes is stored like any other.

use super::error::{Refusal, TableError};
use engine::Seat;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

/// The longest clock accepted (a week a move, or in total).
pub const MAX_CLOCK_SECONDS: u64 = 7 * 24 * 3600;
/// The most days a correspondence move may take.
pub const MAX_DAYS: u64 = 30;
/// Without a clock, a seat whose player is away this long during its turn is taken by
/// the table's bot (seconds; 0 never).
pub const AWAY_DEFAULT: u64 = 300;

/// A table's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Clock {
    /// The same time for every move.
    PerMove { seconds: u64 },
    /// A total per player, plus `increment` seconds after each of its moves.
    Total {
        seconds: u64,
        #[serde(default)]
        increment: u64,
    },
    /// Days per move (a game played over days or weeks).
    Correspondence { days: u64 },
}

/// What a seat's running out of time does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnTimeout {
    /// The table's take-over bot moves for the seat (and keeps it until the player is back).
    #[default]
    Bot,
    /// The seat resigns (two-player tables only).
    Resign,
}

fn medium() -> String {
    "medium".into()
}
fn away_default() -> u64 {
    AWAY_DEFAULT
}
fn is_default_away(seconds: &u64) -> bool {
    *seconds == AWAY_DEFAULT
}
fn is_medium(spec: &String) -> bool {
    spec == "medium"
}
fn is_bot(on: &OnTimeout) -> bool {
    *on == OnTimeout::Bot
}

/// A table's rules besides the game's (the create request's `table` object).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRules {
    /// No clock unless given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    #[serde(default, skip_serializing_if = "is_bot")]
    pub on_timeout: OnTimeout,
    /// The bot (a bot spec) that plays for a seat whose time ran out or whose player left.
    #[serde(default = "medium", skip_serializing_if = "is_medium")]
    pub takeover: String,
    /// Without a clock: seconds a player may be away (no connection, no request) during
    /// its turn before the take-over bot plays for it; 0 never.
    #[serde(default = "away_default", skip_serializing_if = "is_default_away")]
    pub away_seconds: u64,
    /// Whether a seated player may ask the coach for a hint on its turn. Left out of a
    /// create request: on at a table with a bot, off otherwise (the table stores the
    /// choice); a table stored before hints existed reads the same default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<bool>,
    /// A rated table (docs/accounts.md): every seat an account's, no taking back, no
    /// hints; its result moves its players' ratings.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
}

impl Default for TableRules {
    fn default() -> Self {
        TableRules {
            clock: None,
            on_timeout: OnTimeout::Bot,
            takeover: medium(),
            away_seconds: AWAY_DEFAULT,
            hints: None,
            rated: false,
        }
    }
}

impl TableRules {
    /// Checks the rules for a table of `seats`.
    ///
    /// # Errors
    /// `table/invalid` naming what is wrong.
    pub fn check(&self, seats: usize) -> Result<(), TableError> {
        let bad = |why: String| TableError::new(Refusal::TableInvalid, why);
        match self.clock {
            Some(Clock::PerMove { seconds } | Clock::Total { seconds, .. })
                if seconds == 0 || seconds > MAX_CLOCK_SECONDS =>
            {
                return Err(bad(format!(
                    "a clock has 1 to {MAX_CLOCK_SECONDS} seconds, not {seconds}"
                )))
            }
            Some(Clock::Total { increment, .. }) if increment > 3600 => {
                return Err(bad(format!(
                    "an increment is at most 3600 seconds, not {increment}"
                )))
            }
            Some(Clock::Correspondence { days }) if days == 0 || days > MAX_DAYS => {
                return Err(bad(format!(
                    "a correspondence clock has 1 to {MAX_DAYS} days a move, not {days}"
                )))
            }
            _ => {}
        }
        if self.on_timeout == OnTimeout::Resign && seats != 2 {
            return Err(bad(format!(
                "`on_timeout: resign` is for two-player tables; this one has {seats} seats"
            )));
        }
        if self.on_timeout == OnTimeout::Resign && self.clock.is_none() {
            return Err(bad("`on_timeout: resign` needs a clock".into()));
        }
        if self.away_seconds > MAX_CLOCK_SECONDS {
            return Err(bad(format!(
                "`away_seconds` is at most {MAX_CLOCK_SECONDS}, not {}",
                self.away_seconds
            )));
        }
        Ok(())
    }
}

/// The clocks of a table as its moves made them: worked out from each move's seat and
/// time, in milliseconds since the Unix epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    clock: Clock,
    /// When the current turn began (the last move, or the table's start).
    turn_start: i64,
    /// Time used by each seat so far, and its moves.
    used: Vec<i64>,
    moves: Vec<u32>,
}

/// What a viewer sees of the clocks (`clock` in a snapshot).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// The clock's kind and times, as the table was made with.
    pub clock: Clock,
    /// When the seat to act runs out of time (ms since the Unix epoch).
    pub deadline: Option<i64>,
    /// Each seat's time left (ms) when its turn starts (a total clock), or the time a
    /// move has (the others).
    pub left: Vec<i64>,
}

impl Clocks {
    /// The clocks of a table of `seats` that started at `start`.
    pub fn new(clock: Clock, seats: usize, start: i64) -> Clocks {
        Clocks {
            clock,
            turn_start: start,
            used: vec![0; seats],
            moves: vec![0; seats],
        }
    }

    /// Counts a move by `seat` made at `at`.
    pub fn moved(&mut self, seat: Seat, at: i64) {
        if let (Some(used), Some(moves)) = (self.used.get_mut(seat), self.moves.get_mut(seat)) {
            *used += (at - self.turn_start).max(0);
            *moves += 1;
        }
        self.turn_start = self.turn_start.max(at);
    }

    /// The table started again at `at` (its last open seat was taken).
    pub fn started(&mut self, at: i64) {
        self.turn_start = self.turn_start.max(at);
    }

    /// The time (ms) `seat` has for a whole turn when it starts.
    fn budget(&self, seat: Seat) -> i64 {
        let ms = |s: u64| i64::try_from(s.saturating_mul(1000)).unwrap_or(i64::MAX);
        match self.clock {
            Clock::PerMove { seconds } => ms(seconds),
            Clock::Correspondence { days } => ms(days * 24 * 3600),
            Clock::Total { seconds, increment } => {
                let moves = u64::from(self.moves.get(seat).copied().unwrap_or(0));
                ms(seconds) + ms(increment * moves) - self.used.get(seat).copied().unwrap_or(0)
            }
        }
    }

    /// When `seat`, to act now, runs out of time.
    pub fn deadline(&self, seat: Seat) -> i64 {
        self.turn_start.saturating_add(self.budget(seat).max(0))
    }

    /// The clocks as a viewer sees them, with `to_act` to act.
    pub fn view(&self, to_act: Option<Seat>) -> ClockView {
        ClockView {
            clock: self.clock,
            deadline: to_act.map(|s| self.deadline(s)),
            left: (0..self.used.len())
                .map(|s| self.budget(s).max(0))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_clock_starts_again_at_each_move() {
        let mut c = Clocks::new(Clock::PerMove { seconds: 30 }, 2, 1_000);
        assert_eq!(c.deadline(0), 31_000);
        c.moved(0, 20_000);
        assert_eq!(c.deadline(1), 50_000);
    }

    #[test]
    fn a_total_clock_counts_each_seats_time_with_its_increment() {
        let mut c = Clocks::new(
            Clock::Total {
                seconds: 60,
                increment: 5,
            },
            2,
            0,
        );
        c.moved(0, 10_000); // seat 1 used 10 s
        c.moved(1, 40_000); // seat 2 used 30 s
                            // Seat 1: 60 + 5 - 10 = 55 s from 40 s.
        assert_eq!(c.deadline(0), 95_000);
        assert_eq!(c.view(Some(0)).left, vec![55_000, 35_000]);
    }

    #[test]
    fn correspondence_counts_days() {
        let c = Clocks::new(Clock::Correspondence { days: 2 }, 2, 0);
        assert_eq!(c.deadline(1), 2 * 24 * 3600 * 1000);
    }

    #[test]
    fn rules_parse_with_defaults_and_refuse_what_cannot_be() {
        let r: TableRules =
            serde_json::from_str(r#"{"clock": {"kind": "per_move", "seconds": 60}}"#)
                .expect("parses");
        assert_eq!(r.takeover, "medium");
        assert_eq!(r.on_timeout, OnTimeout::Bot);
        assert!(r.check(3).is_ok());
        assert!(serde_json::from_str::<TableRules>(r#"{"clock": {"kind": "hourglass"}}"#).is_err());
        assert!(serde_json::from_str::<TableRules>(r#"{"clocks": null}"#).is_err());
        let resign: TableRules = serde_json::from_str(
            r#"{"clock": {"kind": "total", "seconds": 600, "increment": 5}, "on_timeout": "resign"}"#,
        )
        .expect("parses");
        assert!(resign.check(2).is_ok());
        let e = resign.check(3).expect_err("resign is for two");
        assert!(e.to_string().contains("two-player"), "{e}");
        let zero = TableRules {
            clock: Some(Clock::PerMove { seconds: 0 }),
            ..TableRules::default()
        };
        assert!(matches!(
            zero.check(2),
            Err(TableError::Refused(Refusal::TableInvalid, _))
        ));
        let written = serde_json::to_value(TableRules::default()).expect("json");
        assert_eq!(written, serde_json::json!({}), "defaults are not written");
    }
}

/// The live tables by when their clocks or presence next need a look (ms since the
/// epoch). A table is put in when it is loaded and after anything that may bring its
/// time closer (a move, a seat taken, a socket opened or closed, a player heard from):
/// then it is due at once; after each look it is put back at the next time the look
/// could act (a clock's deadline, a player's away time, nobody's presence), or left out
/// while nothing can come due. So the ticker touches only tables that are due.
#[derive(Default)]
pub(super) struct Due {
    by_time: BTreeSet<(i64, String)>,
    at: HashMap<String, i64>,
}

impl Due {
    /// `id` is due at `at`, or earlier if it already was.
    pub(super) fn set(&mut self, id: &str, at: i64) {
        match self.at.get(id) {
            Some(&old) if old <= at => {}
            old => {
                if let Some(&old) = old {
                    self.by_time.remove(&(old, id.to_string()));
                }
                self.by_time.insert((at, id.to_string()));
                self.at.insert(id.to_string(), at);
            }
        }
    }

    /// `id` needs no look (it left memory).
    pub(super) fn forget(&mut self, id: &str) {
        if let Some(old) = self.at.remove(id) {
            self.by_time.remove(&(old, id.to_string()));
        }
    }

    /// Takes out every table due by `now`, earliest first.
    pub(super) fn take(&mut self, now: i64) -> Vec<String> {
        let mut ids = Vec::new();
        while self.by_time.first().is_some_and(|(at, _)| *at <= now) {
            if let Some((_, id)) = self.by_time.pop_first() {
                self.at.remove(&id);
                ids.push(id);
            }
        }
        ids
    }

    /// How many tables wait for a look.
    pub(super) fn len(&self) -> usize {
        self.at.len()
    }
}

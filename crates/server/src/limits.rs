//! What one server allows: bot budgets, request rates, table counts and expiry. Each has a
//! `serve` flag (see docs/http-api.md) and the default below.

use crate::error::ApiError;
use axum::http::StatusCode;
use bots::{BotSpec, Budget};
use std::time::Duration;

/// The limits of one server.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// The most ISMCTS iterations a bot may spend on one decision.
    pub bot_iterations: u32,
    /// The most time a bot may spend on one decision.
    pub bot_time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            bot_iterations: 100_000,
            bot_time: Duration::from_secs(10),
        }
    }
}

/// The search budget a seat spec stands for (`None` for bots that do not search).
fn budget(spec: &BotSpec) -> Option<Budget> {
    match spec {
        BotSpec::Ismcts(Some(budget)) => Some(*budget),
        BotSpec::Ismcts(None) => Some(bots::IsmctsOptions::default().budget),
        BotSpec::Level(level) => Some(bots::level_options(*level).budget),
        BotSpec::Human | BotSpec::Random | BotSpec::Heuristic => None,
    }
}

impl Limits {
    /// What is wrong with a budget over this server's limits.
    fn over(&self, budget: Budget) -> Option<String> {
        match budget {
            Budget::Iterations(n) if n > self.bot_iterations => Some(format!(
                "asks for {n} iterations a decision; this server allows at most {} (serve --bot-iterations)",
                self.bot_iterations
            )),
            Budget::Millis(ms) if u128::from(ms) > self.bot_time.as_millis() => Some(format!(
                "asks for {ms} ms a decision; this server allows at most {} ms (serve --bot-time-ms)",
                self.bot_time.as_millis()
            )),
            _ => None,
        }
    }

    /// Refuses a seat spec whose search goes over this server's bot limits.
    ///
    /// # Errors
    /// `seat/invalid`, naming the limit and its flag.
    pub fn check_bot(&self, spec: &BotSpec) -> Result<(), ApiError> {
        match budget(spec).and_then(|b| self.over(b)) {
            Some(what) => Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "seat/invalid",
                format!("seat `{spec}` {what}"),
            )),
            None => Ok(()),
        }
    }

    /// The spec a stored seat is played with: its own, or, when its search goes over this
    /// server's limits (a table stored before the limits, or under a more generous
    /// server), a search with the largest budget of the same kind allowed.
    pub fn clamp_bot(&self, spec: BotSpec) -> BotSpec {
        match budget(&spec) {
            Some(Budget::Iterations(n)) if n > self.bot_iterations => {
                BotSpec::Ismcts(Some(Budget::Iterations(self.bot_iterations)))
            }
            Some(Budget::Millis(ms)) if u128::from(ms) > self.bot_time.as_millis() => {
                BotSpec::Ismcts(Some(Budget::Millis(
                    u64::try_from(self.bot_time.as_millis()).unwrap_or(u64::MAX),
                )))
            }
            _ => spec,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_budgets_over_the_limits_are_refused_and_clamped() {
        let limits = Limits {
            bot_iterations: 2000,
            bot_time: Duration::from_millis(500),
        };
        for ok in [
            "random",
            "heuristic",
            "ismcts",
            "easy",
            "medium",
            "ismcts:2000",
            "ismcts:500ms",
        ] {
            let spec: BotSpec = ok.parse().expect("spec");
            assert!(limits.check_bot(&spec).is_ok(), "{ok}");
            assert_eq!(limits.clamp_bot(spec.clone()), spec);
        }
        for (over, flag, clamped) in [
            ("ismcts:2001", "--bot-iterations", "ismcts:2000"),
            ("hard", "--bot-iterations", "ismcts:2000"),
            ("ismcts:4294967295", "--bot-iterations", "ismcts:2000"),
            ("ismcts:501ms", "--bot-time-ms", "ismcts:500ms"),
            (
                "ismcts:18446744073709551615ms",
                "--bot-time-ms",
                "ismcts:500ms",
            ),
        ] {
            let spec: BotSpec = over.parse().expect("spec");
            let error = limits.check_bot(&spec).expect_err(over);
            assert_eq!(error.code, "seat/invalid");
            assert!(error.message.contains(flag), "{}", error.message);
            assert_eq!(limits.clamp_bot(spec).to_string(), clamped);
        }
    }
}

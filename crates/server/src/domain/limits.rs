//! What one server allows: bot budgets, request rates, table counts and expiry. Each has a
//! `serve` flag (see docs/http-api.md) and the default below.

use super::{Refusal, TableError};
use bots::{BotSpec, Budget};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The limits of one server.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// The most ISMCTS iterations a bot may spend on one decision.
    pub bot_iterations: u32,
    /// The most time a bot may spend on one decision.
    pub bot_time: Duration,
    /// The coach's search budget: ISMCTS iterations for a hint, and for each move of a
    /// review (held to `bot_iterations` as well).
    pub coach_iterations: u32,
    /// Hints one seat token may ask for at once.
    pub hint_burst: u32,
    /// Hints one seat token may ask for a minute, once its burst is spent.
    pub hints_per_minute: u32,
    /// Tables one client address may create at once (the bucket's size).
    pub create_burst: u32,
    /// Tables one client address may create a minute, once its burst is spent.
    pub creates_per_minute: u32,
    /// Actions one seat token may send at once.
    pub action_burst: u32,
    /// Actions one seat token may send a second, once its burst is spent.
    pub actions_per_second: u32,
    /// The most tables this server keeps open or running at once.
    pub max_tables: usize,
    /// Take the client's address from `X-Forwarded-For` (behind a proxy that sets it).
    pub trust_forwarded: bool,
    /// The per-address and per-token rates apply (off for load tests).
    pub rate_limits: bool,
    /// A table that got no first move this long after its creation is abandoned.
    pub expire_unstarted: Duration,
    /// A table with no move for this long is abandoned.
    pub expire_idle: Duration,
    /// The longest a call to the store may take: past it, the call is refused as
    /// `store/unavailable` (a database that hangs holds no move forever).
    pub store_timeout: Duration,
    /// Besides loopback, the addresses `GET /metrics` answers.
    pub metrics_from: Vec<Cidr>,
    /// Sign-in attempts one account name may take at once, and then a minute (always on).
    pub sign_in_burst: u32,
    pub sign_ins_per_minute: u32,
    /// Sign-in attempts and sign-ups one client address may make at once, and then a
    /// minute (always on).
    pub address_sign_in_burst: u32,
    pub address_sign_ins_per_minute: u32,
    /// The session cookie is marked `Secure` (`serve --secure-cookies`: the server is
    /// reached over HTTPS); behind a trusted proxy (`trust_forwarded`), also when it says
    /// `X-Forwarded-Proto: https`.
    pub secure_cookies: bool,
    /// Webhooks may reach private, loopback and link-local addresses
    /// (`serve --allow-private-webhooks`).
    pub allow_private_webhooks: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            bot_iterations: 100_000,
            bot_time: Duration::from_secs(10),
            coach_iterations: 5_000,
            hint_burst: 3,
            hints_per_minute: 6,
            create_burst: 30,
            creates_per_minute: 30,
            action_burst: 60,
            actions_per_second: 20,
            max_tables: 50_000,
            trust_forwarded: false,
            rate_limits: true,
            expire_unstarted: Duration::from_secs(24 * 3600),
            expire_idle: Duration::from_secs(7 * 24 * 3600),
            store_timeout: Duration::from_secs(5),
            metrics_from: Vec::new(),
            sign_in_burst: 5,
            sign_ins_per_minute: 5,
            address_sign_in_burst: 30,
            address_sign_ins_per_minute: 30,
            secure_cookies: false,
            allow_private_webhooks: false,
        }
    }
}

/// A block of addresses, `ADDR/BITS` (`10.0.0.0/8`, `fd00::/8`) or one address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    addr: std::net::IpAddr,
    bits: u8,
}

impl Cidr {
    /// Whether `ip` is in the block (an IPv4 address mapped into IPv6 counts as IPv4).
    pub fn contains(&self, ip: std::net::IpAddr) -> bool {
        use std::net::IpAddr;
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.bits)).unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.bits))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

impl std::str::FromStr for Cidr {
    type Err = String;
    fn from_str(text: &str) -> Result<Cidr, String> {
        let bad = || format!("expected an address or ADDR/BITS (10.0.0.0/8), not `{text}`");
        let (addr, bits) = match text.trim().split_once('/') {
            Some((addr, bits)) => (addr, Some(bits)),
            None => (text.trim(), None),
        };
        let addr: std::net::IpAddr = addr.parse().map_err(|_| bad())?;
        let most = if addr.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            Some(bits) => bits
                .parse::<u8>()
                .ok()
                .filter(|&b| b <= most)
                .ok_or_else(bad)?,
            None => most,
        };
        Ok(Cidr { addr, bits })
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.bits)
    }
}

/// Token buckets by key: each key may spend `burst` at once, refilled at `per_second`.
/// Full buckets are dropped when the map grows, so memory follows the active keys.
pub struct RateLimiter<K> {
    burst: f64,
    per_second: f64,
    buckets: Mutex<HashMap<K, Bucket>>,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Past this many keys, a check sweeps out the buckets that have refilled.
const SWEEP_AT: usize = 10_000;

impl<K: Hash + Eq + Clone> RateLimiter<K> {
    pub fn new(burst: u32, per_second: f64) -> RateLimiter<K> {
        RateLimiter {
            burst: f64::from(burst.max(1)),
            per_second: per_second.max(f64::MIN_POSITIVE),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `key` at `now`; `Err(seconds)` until one is back.
    pub fn take_at(&self, key: &K, now: Instant) -> Result<(), u64> {
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        if buckets.len() >= SWEEP_AT {
            let (burst, rate) = (self.burst, self.per_second);
            buckets.retain(|_, b| {
                b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * rate < burst
            });
        }
        let bucket = buckets.entry(key.clone()).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * self.per_second).min(self.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - bucket.tokens) / self.per_second;
            Err(wait.ceil().max(1.0) as u64)
        }
    }

    /// The whole seconds until `key` may take a token at `now` (0: it may now), taking
    /// none.
    pub fn wait_at(&self, key: &K, now: Instant) -> u64 {
        let Ok(buckets) = self.buckets.lock() else {
            return 0;
        };
        let Some(bucket) = buckets.get(key) else {
            return 0;
        };
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        let tokens = (bucket.tokens + elapsed * self.per_second).min(self.burst);
        if tokens >= 1.0 {
            0
        } else {
            ((1.0 - tokens) / self.per_second).ceil().max(1.0) as u64
        }
    }

    /// [`RateLimiter::wait_at`] now.
    pub fn wait(&self, key: &K) -> u64 {
        self.wait_at(key, Instant::now())
    }

    /// [`RateLimiter::take_at`] now.
    ///
    /// # Errors
    /// The seconds until a token is back.
    pub fn take(&self, key: &K) -> Result<(), u64> {
        self.take_at(key, Instant::now())
    }
}

/// What a client asked for too often: each rate's refusal is told in its own words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rate {
    /// Hints, per seat token.
    Hints,
    /// Actions, per seat token.
    Actions,
    /// Chat lines, per seat or per spectator's address.
    Chat,
    /// Tables created, per client address.
    Creates,
    /// Sign-ins, per account name and per client address.
    SignIns,
}

/// A wait in words: "1 second", "20 seconds", and whole minutes (rounded up) from two
/// minutes on.
pub fn wait_words(seconds: u64) -> String {
    let seconds = seconds.max(1);
    if seconds < 120 {
        format!("{seconds} second{}", if seconds == 1 { "" } else { "s" })
    } else {
        format!("{} minutes", seconds.div_ceil(60))
    }
}

/// The answer to a client over a rate: the wait in a player's words (no server flag: a
/// program reads the code and `retry_after`).
pub fn rate_limited(rate: Rate, retry_after: u64) -> TableError {
    let wait = wait_words(retry_after);
    let message = match rate {
        Rate::Hints => format!("You can ask for another hint in {wait}."),
        Rate::Actions => format!("Moves are coming too fast: you can move again in {wait}."),
        Rate::Chat => format!("Messages are coming too fast: you can write again in {wait}."),
        Rate::SignIns => {
            format!("There were too many attempts to sign in: you can try again in {wait}.")
        }
        Rate::Creates => {
            format!("Many tables were just made from your address: you can make another in {wait}.")
        }
    };
    TableError::RateLimited {
        message,
        retry_after,
    }
}

/// The search budget a seat spec stands for (`None` for bots that do not search).
fn budget(spec: &BotSpec) -> Option<Budget> {
    match spec {
        BotSpec::Ismcts(Some(budget)) => Some(*budget),
        BotSpec::Ismcts(None) => Some(bots::IsmctsOptions::default().budget),
        BotSpec::Level(level) => Some(bots::level_options(*level).budget),
        // Its determinizations' iterations together (1,000, as `medium`).
        BotSpec::Pimc => bots::pimc_options()
            .iterations()
            .map(|n| Budget::Iterations(u32::try_from(n).unwrap_or(u32::MAX))),
        BotSpec::Human | BotSpec::Random | BotSpec::Heuristic => None,
    }
}

impl Limits {
    /// The coach's iterations a search, within the bot limits.
    pub fn coach_budget(&self) -> u32 {
        self.coach_iterations.min(self.bot_iterations).max(1)
    }

    /// What is wrong with a budget over this server's limits.
    fn over(&self, budget: Budget) -> Option<String> {
        match budget {
            Budget::Iterations(n) if n > self.bot_iterations => Some(format!(
                "searches {n} times a move, and this server lets a bot search at most {} times: choose a weaker bot",
                self.bot_iterations
            )),
            Budget::Millis(ms) if u128::from(ms) > self.bot_time.as_millis() => Some(format!(
                "thinks {ms} ms a move, and this server lets a bot think at most {} ms: choose a weaker bot",
                self.bot_time.as_millis()
            )),
            _ => None,
        }
    }

    /// Refuses a seat spec whose search goes over this server's bot limits.
    ///
    /// # Errors
    /// `seat/invalid`, naming the limit (in words: a person may read it in the lobby).
    pub fn check_bot(&self, spec: &BotSpec) -> Result<(), TableError> {
        match budget(spec).and_then(|b| self.over(b)) {
            Some(what) => Err(TableError::new(
                Refusal::SeatInvalid,
                format!("the bot `{spec}` {what}"),
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
    fn a_block_holds_its_addresses_and_no_others() {
        let ip = |t: &str| t.parse::<std::net::IpAddr>().expect("ip");
        let net: Cidr = "10.1.0.0/16".parse().expect("cidr");
        assert!(net.contains(ip("10.1.200.3")));
        assert!(!net.contains(ip("10.2.0.1")));
        // An IPv4 address mapped into IPv6 (a dual-stack socket's peer) is the same one.
        assert!(net.contains(ip("::ffff:10.1.0.9")));
        let one: Cidr = "192.0.2.7".parse().expect("one address");
        assert!(one.contains(ip("192.0.2.7")) && !one.contains(ip("192.0.2.8")));
        let all: Cidr = "0.0.0.0/0".parse().expect("everything");
        assert!(all.contains(ip("203.0.113.1")) && !all.contains(ip("2001:db8::1")));
        let v6: Cidr = "fd00::/8".parse().expect("v6");
        assert!(v6.contains(ip("fd12::1")) && !v6.contains(ip("fe80::1")));
        for bad in ["10.0.0.0/33", "nonsense", "10.0.0.0/", "::/129"] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_bucket_spends_its_burst_then_refills_at_its_rate() {
        let limiter = RateLimiter::new(3, 2.0);
        let start = Instant::now();
        for _ in 0..3 {
            assert_eq!(limiter.take_at(&"a", start), Ok(()));
        }
        assert_eq!(limiter.take_at(&"a", start), Err(1));
        // Another key has its own bucket.
        assert_eq!(limiter.take_at(&"b", start), Ok(()));
        // Half a second gives one token back at 2 a second, and only one.
        let later = start + Duration::from_millis(500);
        assert_eq!(limiter.take_at(&"a", later), Ok(()));
        assert!(limiter.take_at(&"a", later).is_err());
        // Refilled, never past the burst.
        let much_later = start + Duration::from_secs(3600);
        for _ in 0..3 {
            assert_eq!(limiter.take_at(&"a", much_later), Ok(()));
        }
        assert!(limiter.take_at(&"a", much_later).is_err());
        // A slow rate tells the wait in whole seconds.
        let slow = RateLimiter::new(1, 0.1);
        assert_eq!(slow.take_at(&1, start), Ok(()));
        assert_eq!(slow.take_at(&1, start), Err(10));
    }

    #[test]
    fn full_buckets_are_swept_when_the_map_grows() {
        let limiter = RateLimiter::new(2, 1.0);
        let start = Instant::now();
        for key in 0..SWEEP_AT {
            assert!(limiter.take_at(&key, start).is_ok());
        }
        let later = start + Duration::from_secs(10);
        assert!(limiter.take_at(&usize::MAX, later).is_ok());
        assert_eq!(limiter.buckets.lock().map(|b| b.len()).unwrap_or(0), 1);
    }

    #[test]
    fn bot_budgets_over_the_limits_are_refused_and_clamped() {
        let limits = Limits {
            bot_iterations: 2000,
            bot_time: Duration::from_millis(500),
            ..Limits::default()
        };
        for ok in [
            "random",
            "heuristic",
            "ismcts",
            "easy",
            "medium",
            "pimc",
            "ismcts:2000",
            "ismcts:500ms",
        ] {
            let spec: BotSpec = ok.parse().expect("spec");
            assert!(limits.check_bot(&spec).is_ok(), "{ok}");
            assert_eq!(limits.clamp_bot(spec.clone()), spec);
        }
        for (over, limit, clamped) in [
            ("ismcts:2001", "at most 2000 times", "ismcts:2000"),
            ("hard", "at most 2000 times", "ismcts:2000"),
            ("ismcts:4294967295", "at most 2000 times", "ismcts:2000"),
            ("ismcts:501ms", "at most 500 ms", "ismcts:500ms"),
            (
                "ismcts:18446744073709551615ms",
                "at most 500 ms",
                "ismcts:500ms",
            ),
        ] {
            let spec: BotSpec = over.parse().expect("spec");
            let error = limits.check_bot(&spec).expect_err(over);
            assert!(matches!(
                &error,
                TableError::Refused(Refusal::SeatInvalid, _)
            ));
            // The limit in words a person may read in the lobby, no server flag.
            let words = error.to_string();
            assert!(words.contains(limit) && !words.contains("--"), "{words}");
            assert_eq!(limits.clamp_bot(spec).to_string(), clamped);
        }
    }
}

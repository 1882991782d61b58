//! `tabletop serve`: the online server (the `server` crate) on an address and a database.
use clap::Args;
use std::net::SocketAddr;
use std::time::Duration;

#[derive(Args, Clone, Debug)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the bound address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// `sqlite://PATH` (created if missing) or `postgres://URL`.
    #[arg(long, default_value = "sqlite://tabletop.sqlite")]
    pub database: String,
    /// The most ISMCTS iterations a server-side bot may spend on one decision; a seat spec
    /// asking for more is refused (`seat/invalid`).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub bot_iterations: u32,
    /// The most milliseconds a server-side bot may think about one decision; a seat spec
    /// asking for more is refused (`seat/invalid`).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub bot_time_ms: u64,
    /// The coach's ISMCTS iterations for a hint, and for each move of a game's review
    /// (held to --bot-iterations as well).
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub coach_iterations: u32,
    /// Hints one seat token may ask for at once (a token bucket's size).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub hint_burst: u32,
    /// Hints one seat token may ask for a minute once its burst is spent; more get
    /// `429 request/rate_limited` with `Retry-After`.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..))]
    pub hints_per_minute: u32,
    /// Tables one client address may create at once (a token bucket's size).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    pub create_burst: u32,
    /// Tables one client address may create a minute once its burst is spent; more get
    /// `429 request/rate_limited` with `Retry-After`.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    pub creates_per_minute: u32,
    /// Actions one seat token may send at once.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    pub action_burst: u32,
    /// Actions one seat token may send a second once its burst is spent.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    pub actions_per_second: u32,
    /// The most tables open or running at once; a create beyond gets `503 server/full`.
    #[arg(long, default_value_t = 50_000)]
    pub max_tables: usize,
    /// Take the client's address from the last `X-Forwarded-For` entry (only behind a
    /// proxy that sets it; otherwise clients could pick their own address).
    #[arg(long)]
    pub trust_forwarded: bool,
    /// Mark the session cookie `Secure` (the server is reached over HTTPS). Behind a
    /// proxy trusted with --trust-forwarded, `X-Forwarded-Proto: https` does it too.
    #[arg(long)]
    pub secure_cookies: bool,
    /// Turn the per-address and per-token rates off (for load tests; logged at start).
    #[arg(long)]
    pub no_rate_limits: bool,
    /// Seconds after which a table that never got a first move is abandoned.
    #[arg(long, default_value_t = 24 * 3600, value_parser = clap::value_parser!(u64).range(1..))]
    pub expire_unstarted: u64,
    /// Seconds without a move after which a started table is abandoned.
    #[arg(long, default_value_t = 7 * 24 * 3600, value_parser = clap::value_parser!(u64).range(1..))]
    pub expire_idle: u64,
    /// Threads serving connections and moves. Bots and the database have threads of
    /// their own; one thread serves thousands of moves a second with the fewest wake-ups.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Connections open at once (HTTP and WebSocket); one more is answered 503.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// Seconds for a request's headers to arrive; a silent connection is closed then.
    #[arg(long, default_value_t = 10.0, value_parser = seconds)]
    pub header_timeout: f64,
    /// Seconds to answer a request once its headers are in (408 past it).
    #[arg(long, default_value_t = 30.0, value_parser = seconds)]
    pub request_timeout: f64,
    /// The largest request line and headers, in bytes (431 past it).
    #[arg(long, default_value_t = 16 * 1024, value_parser = clap::value_parser!(u32).range(1024..=60 * 1024))]
    pub max_header_bytes: u32,
    /// Seconds between pings on an open WebSocket.
    #[arg(long, default_value_t = 30.0, value_parser = seconds)]
    pub ping_interval: f64,
    /// Seconds a WebSocket may take to take a message; a client that reads nothing is cut
    /// off then (`tabletop_sockets_stalled_total`).
    #[arg(long, default_value_t = 10.0, value_parser = seconds)]
    pub send_timeout: f64,
    /// On SIGTERM or Ctrl-C, seconds for the requests in flight to be answered and the
    /// sockets closed before the process ends anyway.
    #[arg(long, default_value_t = 10.0, value_parser = seconds)]
    pub shutdown_grace: f64,
    /// Seconds a call to the database may take; past it the call is refused
    /// (`503 store/unavailable`, with `Retry-After`).
    #[arg(long, default_value_t = 5.0, value_parser = seconds)]
    pub store_timeout: f64,
    /// Besides loopback, an address block (`10.0.0.0/8`, or one address) whose clients may
    /// read `GET /metrics`; the flag may be given several times.
    #[arg(long = "metrics-from", value_name = "CIDR")]
    pub metrics_from: Vec<server::domain::Cidr>,
    /// The mail server turn notifications and address verifications are sent through:
    /// `smtp://HOST:PORT` (plain, as to a relay on loopback). Without it, no mail is sent.
    #[arg(long, value_name = "URL")]
    pub smtp: Option<String>,
    /// The sender of those mails.
    #[arg(long, default_value = "Tabletop <tabletop@localhost>")]
    pub mail_from: String,
    /// The server's address as players reach it (`https://play.example.org`), for the
    /// links in notifications; the bound address when not given.
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// Let webhooks reach private, loopback and link-local addresses (refused with
    /// `account/webhook_private` otherwise).
    #[arg(long)]
    pub allow_private_webhooks: bool,
    /// Pings in a row without an answer before a WebSocket is closed.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub ping_misses: u32,
}

/// A positive number of seconds (a day at most).
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!(
            "expected seconds between 0 and 86400, not `{text}`"
        )),
    }
}

impl ServeArgs {
    fn limits(&self) -> server::Limits {
        server::Limits {
            bot_iterations: self.bot_iterations,
            bot_time: Duration::from_millis(self.bot_time_ms),
            coach_iterations: self.coach_iterations,
            hint_burst: self.hint_burst,
            hints_per_minute: self.hints_per_minute,
            create_burst: self.create_burst,
            creates_per_minute: self.creates_per_minute,
            action_burst: self.action_burst,
            actions_per_second: self.actions_per_second,
            max_tables: self.max_tables,
            trust_forwarded: self.trust_forwarded,
            rate_limits: !self.no_rate_limits,
            expire_unstarted: Duration::from_secs(self.expire_unstarted),
            expire_idle: Duration::from_secs(self.expire_idle),
            store_timeout: Duration::from_secs_f64(self.store_timeout),
            metrics_from: self.metrics_from.clone(),
            secure_cookies: self.secure_cookies,
            allow_private_webhooks: self.allow_private_webhooks,
            ..server::Limits::default()
        }
    }
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::INFO)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(usize::from(args.threads))
        .enable_all()
        .build()?;
    let limits = args.limits();
    let connections = server::ConnectionLimits {
        max_connections: args.max_connections as usize,
        header_timeout: Duration::from_secs_f64(args.header_timeout),
        request_timeout: Duration::from_secs_f64(args.request_timeout),
        max_header_bytes: args.max_header_bytes as usize,
        ping_interval: Duration::from_secs_f64(args.ping_interval),
        ping_misses: args.ping_misses,
        send_timeout: Duration::from_secs_f64(args.send_timeout),
        shutdown_grace: Duration::from_secs_f64(args.shutdown_grace),
    };
    runtime.block_on(server::serve(server::ServeOptions {
        addr: args.addr,
        database: args.database,
        limits,
        connections,
        notify: server::notify::NotifyOptions {
            smtp: args.smtp,
            from: args.mail_from,
            public_url: args.public_url.unwrap_or_default(),
            ..server::notify::NotifyOptions::default()
        },
    }))
}

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
    /// Turn the per-address and per-token rates off (for load tests; logged at start).
    #[arg(long)]
    pub no_rate_limits: bool,
    /// Seconds after which a table that never got a first move is abandoned.
    #[arg(long, default_value_t = 24 * 3600, value_parser = clap::value_parser!(u64).range(1..))]
    pub expire_unstarted: u64,
    /// Seconds without a move after which a started table is abandoned.
    #[arg(long, default_value_t = 7 * 24 * 3600, value_parser = clap::value_parser!(u64).range(1..))]
    pub expire_idle: u64,
}

impl ServeArgs {
    fn limits(&self) -> server::Limits {
        server::Limits {
            bot_iterations: self.bot_iterations,
            bot_time: Duration::from_millis(self.bot_time_ms),
            create_burst: self.create_burst,
            creates_per_minute: self.creates_per_minute,
            action_burst: self.action_burst,
            actions_per_second: self.actions_per_second,
            max_tables: self.max_tables,
            trust_forwarded: self.trust_forwarded,
            rate_limits: !self.no_rate_limits,
            expire_unstarted: Duration::from_secs(self.expire_unstarted),
            expire_idle: Duration::from_secs(self.expire_idle),
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
        .enable_all()
        .build()?;
    let limits = args.limits();
    runtime.block_on(server::serve(server::ServeOptions {
        addr: args.addr,
        database: args.database,
        limits,
    }))
}

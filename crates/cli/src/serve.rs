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
}

impl ServeArgs {
    fn limits(&self) -> server::Limits {
        server::Limits {
            bot_iterations: self.bot_iterations,
            bot_time: Duration::from_millis(self.bot_time_ms),
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

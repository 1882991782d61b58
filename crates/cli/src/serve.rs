//! `tabletop serve`: the online server (the `server` crate) on an address and a database.
use clap::Args;
use std::net::SocketAddr;

#[derive(Args, Clone, Debug)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the bound address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// `sqlite://PATH` (created if missing) or `postgres://URL`.
    #[arg(long, default_value = "sqlite://tabletop.sqlite")]
    pub database: String,
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::INFO)
        .with_writer(std::io::stderr)
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(server::serve(server::ServeOptions {
        addr: args.addr,
        database: args.database,
    }))
}

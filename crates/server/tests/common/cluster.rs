//! A PostgreSQL cluster of a test's own, to stop and start during play: made with
//! `initdb` in a scratch folder, run with `pg_ctl` on a port of its own (as the `postgres`
//! user when the tests run as root: PostgreSQL refuses to run as root), stopped and
//! removed when dropped. The shared PostgreSQL of the other tests is never touched.

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Cluster {
    bin: PathBuf,
    dir: tempfile::TempDir,
    pub port: u16,
    /// Run the PostgreSQL programs through `runuser -u postgres --` (the tests are root).
    as_postgres: bool,
}

/// The newest installed PostgreSQL's programs (Debian's /usr/lib/postgresql/N/bin), or
/// `pg_config --bindir`.
fn bin_dir() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse::<u32>().ok()?;
            Some((version, e.path().join("bin")))
        })
        .filter(|(_, bin)| bin.join("pg_ctl").exists())
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    let out = Command::new("pg_config").arg("--bindir").output().ok()?;
    let bin = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    bin.join("pg_ctl").exists().then_some(bin)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn free_port() -> u16 {
    let socket = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    socket.local_addr().expect("addr").port()
}

impl Cluster {
    /// A fresh cluster, started; `None` (after saying so on stderr, or failing under CI)
    /// when PostgreSQL's programs are not installed.
    pub fn start() -> Option<Cluster> {
        let Some(bin) = bin_dir() else {
            super::skip::skip_unless_ci(
                "A TEST WITH A POSTGRESQL CLUSTER OF ITS OWN",
                "initdb and pg_ctl were not found (install PostgreSQL's server programs)",
            );
            return None;
        };
        let dir = tempfile::Builder::new()
            .prefix("tabletop-pg-")
            .tempdir()
            .expect("a scratch folder");
        let as_postgres = is_root();
        if as_postgres {
            let done = Command::new("chown")
                .args(["-R", "postgres:"])
                .arg(dir.path())
                .status()
                .expect("chown");
            assert!(done.success(), "chown of the cluster's folder to postgres");
        }
        let cluster = Cluster {
            bin,
            dir,
            port: free_port(),
            as_postgres,
        };
        cluster.run(
            "initdb",
            &[
                "-D",
                &cluster.data().display().to_string(),
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
            ],
        );
        cluster.start_again();
        Some(cluster)
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    pub fn folder(&self) -> &Path {
        self.dir.path()
    }

    /// The URL of its `postgres` database.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(path);
            command
        } else {
            Command::new(path)
        }
    }

    fn run(&self, program: &str, args: &[&str]) {
        let out = self
            .command(program)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{program}: {e}"));
        assert!(
            out.status.success(),
            "{program} {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Starts the cluster (again), and waits until it accepts connections.
    pub fn start_again(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=200",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("log").display().to_string();
        let data = self.data().display().to_string();
        self.run(
            "pg_ctl",
            &["-D", &data, "-o", &options, "-l", &log, "-w", "start"],
        );
    }

    /// Stops the cluster as an operator would (`pg_ctl stop -m fast`: sessions are cut,
    /// transactions in flight rolled back), and waits until it is down.
    pub fn stop(&self) {
        let data = self.data().display().to_string();
        self.run("pg_ctl", &["-D", &data, "-m", "fast", "-w", "stop"]);
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data().display().to_string();
        // Already stopped is fine: nothing to report.
        let _ = self
            .command("pg_ctl")
            .args(["-D", &data, "-m", "immediate", "-w", "stop"])
            .output();
    }
}

//! The schema's migrations (crates/server/migrations/*.sql), built into the binary.
//!
//! sqlx's `migrate!` macro would embed them too, but it needs sqlx's macros, which build a
//! second SQLite and both database drivers for the compiler: minutes of every cold build.
//! Here each file is listed by name; a test checks the list against the folder. The
//! checksums are sqlx's own (`Migration::new`), so databases migrated by either agree.

use sqlx::error::BoxDynError;
use sqlx::migrate::{MigrateError, Migration, MigrationSource, MigrationType, Migrator};
use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

/// Every migration, oldest first: its file name (`VERSION_DESCRIPTION.sql`) and its SQL.
const FILES: &[(&str, &str)] = &[
    (
        "0001_tables.sql",
        include_str!("../../migrations/0001_tables.sql"),
    ),
    (
        "0002_secret_seeds.sql",
        include_str!("../../migrations/0002_secret_seeds.sql"),
    ),
    (
        "0003_lobby.sql",
        include_str!("../../migrations/0003_lobby.sql"),
    ),
    (
        "0004_table_life.sql",
        include_str!("../../migrations/0004_table_life.sql"),
    ),
    (
        "0005_reviews.sql",
        include_str!("../../migrations/0005_reviews.sql"),
    ),
    (
        "0006_formats.sql",
        include_str!("../../migrations/0006_formats.sql"),
    ),
    (
        "0007_accounts.sql",
        include_str!("../../migrations/0007_accounts.sql"),
    ),
    (
        "0008_notifications.sql",
        include_str!("../../migrations/0008_notifications.sql"),
    ),
    (
        "0009_tournaments.sql",
        include_str!("../../migrations/0009_tournaments.sql"),
    ),
];

/// The migrations of [`FILES`], as sqlx reads a migrations folder.
#[derive(Debug)]
struct Embedded;

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async {
            FILES
                .iter()
                .map(|&(name, sql)| migration(name, sql))
                .collect()
        })
    }
}

/// One file's migration: the version before the first `_`, the rest (without `.sql`, `_`
/// read as a space) its description, as sqlx names them.
fn migration(name: &str, sql: &'static str) -> Result<Migration, BoxDynError> {
    let (version, rest) = name
        .split_once('_')
        .ok_or_else(|| format!("migration `{name}` is not named VERSION_DESCRIPTION.sql"))?;
    let version: i64 = version
        .parse()
        .map_err(|_| format!("migration `{name}` does not start with a number"))?;
    let kind = MigrationType::from_filename(rest);
    let description = rest.trim_end_matches(kind.suffix()).replace('_', " ");
    let no_tx = sql.starts_with("-- no-transaction");
    Ok(Migration::new(
        version,
        Cow::Owned(description),
        kind,
        Cow::Borrowed(sql),
        no_tx,
    ))
}

/// The migrator both databases run when a store opens.
pub(super) async fn migrator() -> Result<Migrator, MigrateError> {
    Migrator::new(Embedded).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_file_of_the_migrations_folder_is_listed_once_in_order_with_its_sql() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let mut on_disk: Vec<(String, String)> = std::fs::read_dir(&dir)
            .expect("the migrations folder")
            .map(|e| {
                let path = e.expect("an entry").path();
                let name = path
                    .file_name()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned();
                (
                    name,
                    std::fs::read_to_string(&path).expect("a migration's SQL"),
                )
            })
            .filter(|(name, _)| name.ends_with(".sql"))
            .collect();
        on_disk.sort();
        let listed: Vec<(String, String)> = FILES
            .iter()
            .map(|&(n, s)| (n.to_owned(), s.to_owned()))
            .collect();
        assert_eq!(
            listed, on_disk,
            "store/migrations.rs lists every file of {dir:?}"
        );
        // The folder as sqlx itself reads it gives the same migrations (versions,
        // descriptions and checksums): a database migrated before keeps validating.
        let from_folder = Migrator::new(dir.as_path())
            .await
            .expect("sqlx reads the folder");
        let embedded = migrator().await.expect("the embedded migrations");
        let key = |m: &Migration| (m.version, m.description.to_string(), m.checksum.to_vec());
        assert_eq!(
            embedded.iter().map(key).collect::<Vec<_>>(),
            from_folder.iter().map(key).collect::<Vec<_>>()
        );
    }
}

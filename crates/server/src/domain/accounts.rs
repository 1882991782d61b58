//! Accounts beside guests (docs/accounts.md): sign up, sign in and out, sessions and
//! passwords. A password is kept only as its Argon2id hash; a session only as the SHA-256
//! of its id. Neither a password, a hash nor a session id goes into a log line or an
//! answer: the errors here say what was wrong in words that hold none of them.

use super::account_store::{AccountRow, SessionRow};
use super::hub::*;

/// The fewest characters a password has.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// The most bytes a password has (a longer one only costs the server time).
pub const MAX_PASSWORD_BYTES: usize = 256;
/// How long a session lasts after signing in.
pub const SESSION_LIFE: Duration = Duration::from_secs(30 * 24 * 3600);

/// A signed-in caller: the account, and the SHA-256 of the session's id.
#[derive(Clone, Debug)]
pub struct SignedIn {
    pub account: AccountRow,
    pub session: String,
}

/// A session just started: who, and the id the cookie carries (only ever sent to the
/// account's browser, in `Set-Cookie`).
pub struct NewSession {
    pub signed_in: SignedIn,
    pub id: String,
}

impl std::fmt::Debug for NewSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewSession")
            .field("signed_in", &self.signed_in)
            .finish_non_exhaustive()
    }
}

/// An account's name checked as a seat's name is ([`display_name`]) and its key, which
/// account names are unique by: the confusable skeleton seat names are compared by, of
/// the name in lower case ("Ada", "ada" and "Аda" with a Cyrillic А are one account).
///
/// # Errors
/// `account/name` with the reason.
pub fn account_name(given: &str) -> Result<(String, String), TableError> {
    let name =
        display_name(given).map_err(|e| TableError::new(Refusal::AccountName, e.to_string()))?;
    let key = account_key(&name);
    Ok((name, key))
}

/// The key of an account's name (see [`account_name`]).
fn account_key(name: &str) -> String {
    skeleton(&name.to_lowercase())
}

/// Checks a new password's length.
///
/// # Errors
/// `account/password`, saying what the length must be (never the password).
fn check_password(password: &str) -> Result<(), TableError> {
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_CHARS || password.len() > MAX_PASSWORD_BYTES {
        return Err(TableError::new(
            Refusal::Password,
            format!(
                "a password has at least {MIN_PASSWORD_CHARS} characters and at most {MAX_PASSWORD_BYTES} bytes"
            ),
        ));
    }
    Ok(())
}

/// `password`'s Argon2id hash (the crate's default parameters), as a PHC string.
fn hash_password(password: &str) -> Result<String, TableError> {
    use argon2::PasswordHasher;
    let mut salt = [0u8; 16];
    secure_fill(&mut salt)?;
    argon2::Argon2::default()
        .hash_password_with_salt(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| TableError::internal(format!("hashing a password failed: {e}")))
}

/// Whether `password` is the one `hash` was made from.
fn verify_password(password: &str, hash: &str) -> bool {
    use argon2::PasswordVerifier;
    argon2::Argon2::default()
        .verify_password(password.as_bytes(), hash)
        .is_ok()
}

/// A hash no password is known for: an unknown name's sign-in is checked against it, so
/// that it takes as long as a wrong password.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        let secret = random_hex(16).unwrap_or_else(|_| "no password is this".into());
        hash_password(&secret).unwrap_or_default()
    })
}

/// Runs the hashing `work` off the runtime's threads.
async fn hashing<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, TableError> + Send + 'static,
) -> Result<T, TableError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| TableError::internal(format!("a password's hashing stopped: {e}")))?
}

/// The refusal of a sign-in, the same for an unknown name and a wrong password.
fn bad_credentials() -> TableError {
    TableError::new(
        Refusal::BadCredentials,
        "that name and password do not match an account",
    )
}

impl Hub {
    /// Counts a sign-in attempt (or a sign-up) for the name with `skeleton` (when given)
    /// from `client` (when known). Always on: `--no-rate-limits` leaves these alone.
    ///
    /// # Errors
    /// `request/rate_limited` over either rate.
    fn count_sign_in(
        &self,
        skeleton: Option<&str>,
        client: Option<IpAddr>,
    ) -> Result<(), TableError> {
        if let Some(ip) = client {
            self.sign_in_addrs
                .take(&ip)
                .map_err(|wait| rate_limited(Rate::SignIns, wait))?;
        }
        if let Some(skeleton) = skeleton {
            self.sign_in_names
                .take(&skeleton.to_string())
                .map_err(|wait| rate_limited(Rate::SignIns, wait))?;
        }
        Ok(())
    }

    /// A new session for `account`, stored.
    async fn start_session(&self, account: AccountRow) -> Result<NewSession, TableError> {
        let id = random_hex(32)?;
        let row = SessionRow {
            id_sha256: token_hash(&id),
            account: account.id.clone(),
            created: super::store::now_ms(),
        };
        (self.store.add_session(&row).await).map_err(TableError::store)?;
        Ok(NewSession {
            signed_in: SignedIn {
                account,
                session: row.id_sha256,
            },
            id,
        })
    }

    /// Signs up `name` with `password`, and signs it in.
    ///
    /// # Errors
    /// `account/name`, `account/password`, `account/name_taken` (a name that looks like
    /// an account's), `request/rate_limited`, or the store fails.
    pub async fn sign_up(
        &self,
        name: &str,
        password: &str,
        client: Option<IpAddr>,
    ) -> Result<NewSession, TableError> {
        let (name, skeleton) = account_name(name)?;
        check_password(password)?;
        self.count_sign_in(None, client)?;
        if (self.store.account_named(&skeleton).await)
            .map_err(TableError::store)?
            .is_some()
        {
            return Err(name_taken(&name));
        }
        let password = password.to_string();
        let hash = hashing(move || hash_password(&password)).await?;
        let account = AccountRow {
            id: random_hex(16)?,
            name: name.clone(),
            skeleton,
            password: hash,
            created: super::store::now_ms(),
        };
        if !(self.store.create_account(&account).await).map_err(TableError::store)? {
            return Err(name_taken(&name));
        }
        tracing::info!("account {} signed up", truncate(&name, MAX_NAME_CHARS));
        self.start_session(account).await
    }

    /// Signs `name` in with `password`.
    ///
    /// # Errors
    /// `auth/bad_credentials` alike for an unknown name and a wrong password (both
    /// checked against a hash, so they take as long), `request/rate_limited` over the
    /// rates per name and per address, or the store fails.
    pub async fn sign_in(
        &self,
        name: &str,
        password: &str,
        client: Option<IpAddr>,
    ) -> Result<NewSession, TableError> {
        let skeleton = account_name(name).map(|(_, s)| s).ok();
        self.count_sign_in(Some(skeleton.as_deref().unwrap_or("")), client)?;
        let account = match &skeleton {
            Some(skeleton) => {
                (self.store.account_named(skeleton).await).map_err(TableError::store)?
            }
            None => None,
        };
        let hash = account
            .as_ref()
            .map_or_else(|| dummy_hash().to_string(), |a| a.password.clone());
        let given = password
            .chars()
            .take(MAX_PASSWORD_BYTES)
            .collect::<String>();
        let matches = hashing(move || Ok(verify_password(&given, &hash))).await?;
        match account {
            Some(account) if matches => self.start_session(account).await,
            _ => Err(bad_credentials()),
        }
    }

    /// Who the session whose id is `id` is, while it lasts.
    ///
    /// # Errors
    /// The store fails.
    pub async fn signed_in(&self, id: &str) -> Result<Option<SignedIn>, TableError> {
        let hash = token_hash(id);
        let found = (self.store.session(&hash).await).map_err(TableError::store)?;
        let life = i64::try_from(SESSION_LIFE.as_millis()).unwrap_or(i64::MAX);
        Ok(found
            .filter(|(session, _)| session.created.saturating_add(life) > super::store::now_ms())
            .map(|(session, account)| SignedIn {
                account,
                session: session.id_sha256,
            }))
    }

    /// Ends the caller's session.
    ///
    /// # Errors
    /// The store fails.
    pub async fn sign_out(&self, who: &SignedIn) -> Result<(), TableError> {
        (self.store.end_session(&who.session).await).map_err(TableError::store)
    }

    /// Ends every session of the caller's account (this one too); returns how many.
    ///
    /// # Errors
    /// The store fails.
    pub async fn sign_out_everywhere(&self, who: &SignedIn) -> Result<u64, TableError> {
        (self.store.end_sessions(&who.account.id).await).map_err(TableError::store)
    }

    /// Changes the caller's password, given the old one; every other session ends.
    ///
    /// # Errors
    /// `auth/bad_credentials` for a wrong old password, `account/password` for a new one
    /// of the wrong length, `request/rate_limited`, or the store fails.
    pub async fn change_password(
        &self,
        who: &SignedIn,
        old: &str,
        new: &str,
    ) -> Result<(), TableError> {
        check_password(new)?;
        self.count_sign_in(Some(&who.account.skeleton), None)?;
        let (old, hash) = (old.to_string(), who.account.password.clone());
        if !hashing(move || Ok(verify_password(&old, &hash))).await? {
            return Err(bad_credentials());
        }
        let new = new.to_string();
        let hash = hashing(move || hash_password(&new)).await?;
        (self
            .store
            .set_password(&who.account.id, &hash, &who.session)
            .await)
            .map_err(TableError::store)
    }

    /// The account called `name` (compared by skeleton).
    ///
    /// # Errors
    /// `account/not_found` when there is none, or the store fails.
    pub async fn account_called(&self, name: &str) -> Result<AccountRow, TableError> {
        let missing = || {
            TableError::new(
                Refusal::NoAccount,
                format!(
                    "there is no account named `{}`",
                    truncate(name.trim(), MAX_NAME_CHARS)
                ),
            )
        };
        let (_, skeleton) = account_name(name).map_err(|_| missing())?;
        (self.store.account_named(&skeleton).await)
            .map_err(TableError::store)?
            .ok_or_else(missing)
    }

    /// Refuses a guest's seat name that looks like an account's name.
    ///
    /// # Errors
    /// `seat/name_taken`, or the store fails.
    pub(super) async fn check_guest_name(&self, name: &str) -> Result<(), TableError> {
        let found =
            (self.store.account_named(&account_key(name)).await).map_err(TableError::store)?;
        match found {
            Some(_) => Err(TableError::new(
                Refusal::SeatNameTaken,
                format!(
                    "the name `{}` belongs to an account: sign in as it to sit under it, or choose another name",
                    truncate(name, MAX_NAME_CHARS)
                ),
            )),
            None => Ok(()),
        }
    }
}

/// The refusal of a sign-up whose name looks like an account's.
fn name_taken(name: &str) -> TableError {
    TableError::new(
        Refusal::NameTaken,
        format!(
            "the name `{}` is taken (or looks like a name that is, as Unicode's confusables have it): choose another",
            truncate(name, MAX_NAME_CHARS)
        ),
    )
}

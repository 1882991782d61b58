//! Turn-based notifications (docs/accounts.md, Notifications): an account's contact (a
//! verified mail address, a webhook, notifications on or off), and the outbox rows a move
//! queues when it makes an account's seat the one to act at a table with an hour or more a
//! move. Sending them is the `crate::notify` task's work, not the domain's.

use super::account_store::{Channel, ContactRow, NoteRow};
use super::clock::Clock;
use super::error::{Refusal, TableError};
use super::hub::Hub;
use super::secrets::random_hex;
use super::store::now_ms;
use super::{SignedIn, StoreError, Table};
use engine::Seat;
use std::net::IpAddr;
use std::sync::Arc;

/// The longest mail address taken (RFC 5321's limit on a path).
pub const MAX_EMAIL: usize = 254;
/// The longest webhook URL taken.
pub const MAX_WEBHOOK: usize = 2000;
/// The least time a move may take at a table whose turns are notified (an hour, in ms).
pub const NOTIFY_FROM_MS: u64 = 3_600_000;

/// A change of an account's contact (`PATCH /api/me`): each field given is set, `Some("")`
/// clears the address or the webhook.
#[derive(Clone, Debug, Default)]
pub struct ContactChange {
    pub email: Option<String>,
    pub webhook: Option<String>,
    pub notifications: Option<bool>,
}

/// What an account's contact looks like after a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContactView {
    pub email: Option<String>,
    pub email_verified: bool,
    pub webhook: Option<String>,
    pub notifications: bool,
    /// The webhook's new signing secret: only in the answer that set the webhook.
    pub webhook_secret: Option<String>,
}

impl ContactView {
    fn of(c: &ContactRow, secret: Option<String>) -> ContactView {
        ContactView {
            email: c.email.clone(),
            email_verified: c.email_verified,
            webhook: c.webhook.clone(),
            notifications: c.notifications,
            webhook_secret: secret,
        }
    }
}

/// Whether a table whose clock is `clock` notifies its players' turns: an hour or more a
/// move.
pub fn notifies(clock: Option<&Clock>) -> bool {
    match clock {
        Some(Clock::Correspondence { .. }) => true,
        Some(Clock::PerMove { seconds }) => seconds.saturating_mul(1000) >= NOTIFY_FROM_MS,
        Some(Clock::Total { .. }) | None => false,
    }
}

/// A mail address as given, trimmed, or why it is refused.
///
/// # Errors
/// `account/email`: empty parts, spaces or control characters, no `@`, or too long.
pub fn check_email(given: &str) -> Result<String, TableError> {
    let email = given.trim();
    let refuse = |why: &str| {
        TableError::new(
            Refusal::Email,
            format!("this is not a mail address notifications can go to: {why}"),
        )
    };
    if email.len() > MAX_EMAIL {
        return Err(refuse(&format!("it is longer than {MAX_EMAIL} bytes")));
    }
    if email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(refuse("it holds spaces or control characters"));
    }
    match email.rsplit_once('@') {
        Some((local, domain)) if !local.is_empty() && domain.contains('.') => {
            if domain.starts_with('.') || domain.ends_with('.') {
                return Err(refuse("the part after `@` is not a domain"));
            }
            Ok(email.to_string())
        }
        _ => Err(refuse(
            "it needs a name, an `@` and a domain, as in bea@example.org",
        )),
    }
}

/// Whether an address is one a webhook may not reach without `--allow-private-webhooks`:
/// loopback, private, link-local, unspecified, or the like.
pub fn private_address(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                // 100.64.0.0/10, shared address space (carrier-grade NAT).
                || (v4.octets()[0] == 100 && (v4.octets()[1] & 0xc0) == 64)
        }
        IpAddr::V6(v6) => {
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || (first & 0xfe00) == 0xfc00 // unique local
                || (first & 0xffc0) == 0xfe80 // link-local
                || v6.to_ipv4_mapped().is_some_and(|v4| private_address(IpAddr::V4(v4)))
        }
    }
}

/// A webhook URL as given, checked: `http` or `https`, a host, and (unless `allow_private`)
/// no name or address that reaches a private, loopback or link-local address.
///
/// # Errors
/// `account/webhook` for a URL that is not one; `account/webhook_private` for one that
/// reaches a private address.
pub async fn check_webhook(given: &str, allow_private: bool) -> Result<String, TableError> {
    let refuse = |why: String| {
        TableError::new(
            Refusal::Webhook,
            format!("this is not a webhook URL notifications can be posted to: {why}"),
        )
    };
    let text = given.trim();
    if text.len() > MAX_WEBHOOK {
        return Err(refuse(format!("it is longer than {MAX_WEBHOOK} bytes")));
    }
    let url = url::Url::parse(text).map_err(|e| refuse(format!("{e}")))?;
    if url.scheme() != "https" && url.scheme() != "http" {
        return Err(refuse(format!(
            "it starts with `{}:`, not `https:` or `http:`",
            url.scheme()
        )));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(refuse("it holds a user name or password".into()));
    }
    let Some(host) = url.host() else {
        return Err(refuse("it names no host".into()));
    };
    if !allow_private {
        let port = url.port_or_known_default().unwrap_or(443);
        let addresses: Vec<IpAddr> = match host {
            url::Host::Ipv4(ip) => vec![IpAddr::V4(ip)],
            url::Host::Ipv6(ip) => vec![IpAddr::V6(ip)],
            url::Host::Domain(name) => match tokio::net::lookup_host((name, port)).await {
                Ok(found) => found.map(|a| a.ip()).collect(),
                Err(e) => return Err(refuse(format!("its host `{name}` is not found ({e})"))),
            },
        };
        if addresses.iter().any(|ip| private_address(*ip)) {
            return Err(TableError::new(
                Refusal::WebhookPrivate,
                format!(
                    "the webhook's host `{host}` is a private, loopback or link-local address, \
                     which this server does not post to (`serve --allow-private-webhooks` allows it)"
                ),
            ));
        }
    }
    Ok(url.to_string())
}

/// A link's token, if it can be one (a longer one is never looked up).
fn link_token(token: &str) -> Option<&str> {
    (!token.is_empty() && token.len() <= 128).then_some(token)
}

/// Whether a link's lookup (`None`: the token could be none) found what it names.
async fn followed<T>(
    lookup: Option<impl std::future::Future<Output = Result<Option<T>, StoreError>>>,
) -> Result<bool, TableError> {
    match lookup {
        Some(found) => Ok(found.await.map_err(store)?.is_some()),
        None => Ok(false),
    }
}

fn store(e: StoreError) -> TableError {
    TableError::store(e)
}

impl Hub {
    /// The contact of `account`, or a new one (notifications on, nothing to send them to).
    async fn contact_or_new(&self, account: &str) -> Result<ContactRow, TableError> {
        Ok(match self.store.contact(account).await.map_err(store)? {
            Some(c) => c,
            None => ContactRow {
                account: account.to_string(),
                email: None,
                email_verified: false,
                verify_token: None,
                webhook: None,
                webhook_secret: None,
                notifications: true,
                unsubscribe_token: random_hex(16)?,
            },
        })
    }

    /// The signed-in account's contact.
    ///
    /// # Errors
    /// The store fails.
    pub async fn contact_of(&self, who: &SignedIn) -> Result<ContactView, TableError> {
        let c = self.contact_or_new(&who.account.id).await?;
        Ok(ContactView::of(&c, None))
    }

    /// Changes the signed-in account's contact: a new address is kept unverified and its
    /// verification link queued to it; a new webhook gets a new secret (answered once).
    ///
    /// # Errors
    /// `account/email`, `account/webhook`, `account/webhook_private` (nothing changes
    /// then), or the store fails.
    pub async fn change_contact(
        &self,
        who: &SignedIn,
        change: ContactChange,
    ) -> Result<ContactView, TableError> {
        let email = match change.email.as_deref().map(str::trim) {
            Some("") => Some(None),
            Some(given) => Some(Some(check_email(given)?)),
            None => None,
        };
        let webhook = match change.webhook.as_deref().map(str::trim) {
            Some("") => Some(None),
            Some(given) => Some(Some(
                check_webhook(given, self.limits.allow_private_webhooks).await?,
            )),
            None => None,
        };
        let mut c = self.contact_or_new(&who.account.id).await?;
        let mut verify = None;
        if let Some(email) = email {
            if email != c.email {
                c.email_verified = false;
                c.verify_token = match &email {
                    Some(address) => {
                        let token = random_hex(16)?;
                        verify = Some((address.clone(), token.clone()));
                        Some(token)
                    }
                    None => None,
                };
                c.email = email;
            }
        }
        let mut secret = None;
        if let Some(webhook) = webhook {
            c.webhook_secret = match &webhook {
                Some(_) => {
                    let s = random_hex(32)?;
                    secret = Some(s.clone());
                    Some(s)
                }
                None => None,
            };
            c.webhook = webhook;
        }
        if let Some(on) = change.notifications {
            c.notifications = on;
        }
        self.store.set_contact(&c).await.map_err(store)?;
        if let Some((address, _)) = verify {
            let now = now_ms();
            let note = NoteRow {
                id: random_hex(16)?,
                account: c.account.clone(),
                game_id: String::new(),
                seq: now,
                channel: Channel::Verify,
                target: address,
                created: now,
                attempts: 0,
            };
            self.store.queue_notes(&[note]).await.map_err(store)?;
        }
        Ok(ContactView::of(&c, secret))
    }

    /// Follows a verification link: `true` when its address is now verified.
    ///
    /// # Errors
    /// The store fails.
    pub async fn verify_email(&self, token: &str) -> Result<bool, TableError> {
        followed(link_token(token).map(|t| self.store.verify_email(t))).await
    }

    /// Follows an unsubscribe link: `true` when an account's notifications are now off.
    ///
    /// # Errors
    /// The store fails.
    pub async fn unsubscribe(&self, token: &str) -> Result<bool, TableError> {
        followed(link_token(token).map(|t| self.store.unsubscribe(t))).await
    }

    /// After move `seq` (the one that made the table's version `seq`) by `mover` at `table`
    /// made `to_act` the seat to act: queues its owner's notifications, in the background,
    /// if the table notifies turns. Never delays the move; a failure is logged.
    pub(super) fn notify_turn(&self, table: &Arc<Table>, seq: u64, mover: Seat, to_act: Seat) {
        if mover == to_act || !notifies(table.row.rules.clock.as_ref()) {
            return;
        }
        let Some(account) = table.seats().get(to_act).and_then(|s| s.account.clone()) else {
            return;
        };
        let (store, game_id) = (self.store.clone(), table.row.id.clone());
        tokio::spawn(async move {
            let queued = async {
                let Some(c) = store.contact(&account).await? else {
                    return Ok::<u64, StoreError>(0);
                };
                if !c.notifications {
                    return Ok(0);
                }
                let now = now_ms();
                let seq = i64::try_from(seq).unwrap_or(i64::MAX);
                let mut notes = Vec::new();
                let mut add = |channel, target: &String| {
                    if let Ok(id) = random_hex(16) {
                        notes.push(NoteRow {
                            id,
                            account: account.clone(),
                            game_id: game_id.clone(),
                            seq,
                            channel,
                            target: target.clone(),
                            created: now,
                            attempts: 0,
                        });
                    }
                };
                if let Some(email) = c.email.as_ref().filter(|_| c.email_verified) {
                    add(Channel::Email, email);
                }
                if let Some(webhook) = &c.webhook {
                    add(Channel::Webhook, webhook);
                }
                if notes.is_empty() {
                    return Ok(0);
                }
                store.queue_notes(&notes).await
            };
            if let Err(e) = queued.await {
                tracing::warn!("queueing the turn notifications of table {game_id}: {e}");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hours_and_days_a_move_notify_minutes_do_not() {
        assert!(notifies(Some(&Clock::Correspondence { days: 1 })));
        assert!(notifies(Some(&Clock::PerMove { seconds: 3600 })));
        assert!(!notifies(Some(&Clock::PerMove { seconds: 3599 })));
        assert!(!notifies(None));
    }

    #[test]
    fn mail_addresses_are_checked() {
        assert_eq!(
            check_email(" bea@example.org ").ok(),
            Some("bea@example.org".into())
        );
        for bad in [
            "",
            "bea",
            "@example.org",
            "bea@org",
            "b ea@example.org",
            "bea@.org.",
        ] {
            assert!(check_email(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn private_addresses_are_known() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "192.168.0.1",
            "169.254.1.1",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "100.64.0.1",
        ] {
            assert!(private_address(ip.parse().expect("an address")), "{ip}");
        }
        for ip in ["93.184.216.34", "2606:2800:220:1::1"] {
            assert!(!private_address(ip.parse().expect("an address")), "{ip}");
        }
    }
}

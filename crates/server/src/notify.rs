//! The notifications' sender (docs/accounts.md, Notifications): a background task that
//! claims the outbox's due rows (`Accounts::claim_notes`, one statement, so that of several
//! servers on one PostgreSQL each row goes to one), mails them over SMTP (`lettre`) or
//! POSTs them to the webhook signed with HMAC-SHA256, and marks them sent, or puts them
//! back with a longer wait while the mail server or the webhook is down.

use crate::domain::notify::check_webhook;
use crate::domain::{now_ms, random_hex, Channel, ContactRow, Hub, NoteRow};
use hmac::{Hmac, Mac};
use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::Body;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use sha2::Sha256;
use std::sync::Arc;
use std::time::Duration;

/// How long a claim holds a row: a server that dies holding it leaves it to another then.
const CLAIM_MS: i64 = 60_000;
/// The most rows one look claims.
const BATCH: u32 = 20;
/// The first wait after a failed try; each next one doubles, up to [`MAX_WAIT_MS`].
const FIRST_WAIT_MS: i64 = 1_000;
const MAX_WAIT_MS: i64 = 15 * 60_000;
/// The tries after which a notification is given up (about six hours of waits).
const MAX_ATTEMPTS: u32 = 35;
/// How long a mail server or a webhook has to answer.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// How the sender sends.
#[derive(Clone, Debug, PartialEq)]
pub struct NotifyOptions {
    /// The mail server (`serve --smtp`): `smtp://HOST:PORT` (plain, as on loopback). Without
    /// it, mail is not sent (and a mail notification is dropped with a warning).
    pub smtp: Option<String>,
    /// The sender's address (`serve --mail-from`).
    pub from: String,
    /// The server's address as players reach it, for the links (`serve --public-url`).
    pub public_url: String,
    /// How often the outbox is looked at.
    pub poll: Duration,
}

impl Default for NotifyOptions {
    fn default() -> Self {
        NotifyOptions {
            smtp: None,
            from: "Tabletop <tabletop@localhost>".into(),
            public_url: "http://127.0.0.1:8080".into(),
            poll: Duration::from_secs(2),
        }
    }
}

/// The sender's parts.
struct Sender {
    hub: Arc<Hub>,
    worker: String,
    mailer: Option<AsyncSmtpTransport<Tokio1Executor>>,
    from: lettre::message::Mailbox,
    base: String,
    client: reqwest::Client,
}

/// Starts the sender for `hub`'s store; it runs until the runtime ends.
///
/// # Errors
/// The SMTP URL or the sender's address does not read.
pub fn start(hub: Arc<Hub>, opts: NotifyOptions) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let mailer = match &opts.smtp {
        Some(url) => Some(mailer(url)?),
        None => None,
    };
    let from = (opts.from.parse())
        .map_err(|e| anyhow::anyhow!("the mail sender `{}` does not read: {e}", opts.from))?;
    let client = reqwest::Client::builder()
        .timeout(SEND_TIMEOUT)
        // A redirect could lead a POST to an address the webhook's check refuses.
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let sender = Sender {
        hub,
        worker: random_hex(8).map_err(|e| anyhow::anyhow!("{e}"))?,
        mailer,
        from,
        base: opts.public_url.trim_end_matches('/').to_string(),
        client,
    };
    Ok(tokio::spawn(async move {
        loop {
            sender.round().await;
            tokio::time::sleep(opts.poll).await;
        }
    }))
}

impl Sender {
    /// Claims the due rows and sends each.
    async fn round(&self) {
        loop {
            let now = now_ms();
            let store = self.hub.store();
            let notes = match store
                .claim_notes(&self.worker, now, now + CLAIM_MS, BATCH)
                .await
            {
                Ok(notes) => notes,
                Err(e) => {
                    tracing::warn!("reading the notifications to send: {e}");
                    return;
                }
            };
            if notes.is_empty() {
                return;
            }
            for note in notes {
                let retry_at = match self.send(&note).await {
                    Ok(()) => None,
                    Err(e) if note.attempts >= MAX_ATTEMPTS => {
                        tracing::warn!(
                            "notification {} given up after {} tries: {e}",
                            note.id,
                            note.attempts
                        );
                        None
                    }
                    Err(e) => {
                        let wait = (FIRST_WAIT_MS << note.attempts.saturating_sub(1).min(20))
                            .min(MAX_WAIT_MS);
                        tracing::info!(
                            "notification {} not sent (try {}), tried again in {} s: {e}",
                            note.id,
                            note.attempts,
                            wait / 1000
                        );
                        Some(now_ms() + wait)
                    }
                };
                if let Err(e) = (store.note_done(&note.id, &self.worker, now_ms(), retry_at)).await
                {
                    tracing::warn!("marking notification {}: {e}", note.id);
                }
            }
        }
    }

    /// Sends one notification; `Ok` too when there is nothing left to send (the account
    /// changed its address or webhook, or turned notifications off, since it was queued).
    async fn send(&self, note: &NoteRow) -> anyhow::Result<()> {
        let Some(contact) = self.hub.store().contact(&note.account).await? else {
            return Ok(());
        };
        let unsubscribe = format!(
            "{}/api/unsubscribe?token={}",
            self.base, contact.unsubscribe_token
        );
        let link = format!("{}/play/{}", self.base, note.game_id);
        match note.channel {
            Channel::Verify => {
                let (Some(email), Some(token)) = (&contact.email, &contact.verify_token) else {
                    return Ok(());
                };
                if *email != note.target {
                    return Ok(());
                }
                let verify = format!("{}/api/verify?token={token}", self.base);
                let text = format!(
                    "Someone, probably you, gave this address to a Tabletop account to be told \
                     when it is their turn.\n\nTo confirm it, open this link:\n{verify}\n\n\
                     If it was not you, ignore this mail: nothing will be sent to you.\n"
                );
                self.mail(&note.target, "Confirm your mail address", text)
                    .await
            }
            Channel::Email => {
                if !still_wanted(&contact, note) {
                    return Ok(());
                }
                let text = format!(
                    "It is your turn at table {}.\n\nPlay your move here:\n{link}\n\n\
                     To get no more of these notifications, open this link:\n{unsubscribe}\n",
                    note.game_id
                );
                let subject = format!("Your turn at table {}", note.game_id);
                self.mail(&note.target, &subject, text).await
            }
            Channel::Webhook => {
                if !still_wanted(&contact, note) {
                    return Ok(());
                }
                let Some(secret) = &contact.webhook_secret else {
                    return Ok(());
                };
                // Checked again: the name may point elsewhere since it was set.
                let url = check_webhook(&note.target, self.hub.limits().allow_private_webhooks)
                    .await
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                let body = serde_json::to_vec(&serde_json::json!({
                    "event": "your_turn",
                    "table": note.game_id,
                    "move": note.seq,
                    "link": link,
                    "unsubscribe": unsubscribe,
                }))?;
                let answer = self
                    .client
                    .post(url)
                    .header("content-type", "application/json")
                    .header("x-tabletop-signature", signature(secret, &body)?)
                    .body(body)
                    .send()
                    .await?;
                if !answer.status().is_success() {
                    anyhow::bail!("the webhook answered {}", answer.status());
                }
                Ok(())
            }
        }
    }

    /// Mails `text` to `to`.
    async fn mail(&self, to: &str, subject: &str, text: String) -> anyhow::Result<()> {
        let Some(mailer) = &self.mailer else {
            tracing::warn!("a mail notification is dropped: this server has no `--smtp`");
            return Ok(());
        };
        let message = Message::builder()
            .from(self.from.clone())
            .to(to.parse()?)
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            // Plain 7-bit text, so that the links read as they are (no line is long).
            .body(
                Body::new_with_encoding(text, ContentTransferEncoding::SevenBit)
                    .unwrap_or_else(Body::new),
            )?;
        mailer.send(message).await?;
        Ok(())
    }
}

/// The mail transport an `smtp://[USER:PASSWORD@]HOST[:PORT]` URL names: plain SMTP (this
/// build has no TLS: a relay on loopback, or one reached over a private network).
fn mailer(text: &str) -> anyhow::Result<AsyncSmtpTransport<Tokio1Executor>> {
    let refuse = |why: String| anyhow::anyhow!("the SMTP URL `{text}` does not read: {why}");
    let url = url::Url::parse(text).map_err(|e| refuse(e.to_string()))?;
    if url.scheme() != "smtp" {
        return Err(refuse(format!(
            "it starts with `{}:`, not `smtp:`",
            url.scheme()
        )));
    }
    let host = url
        .host_str()
        .ok_or_else(|| refuse("it names no host".into()))?
        .trim_start_matches('[')
        .trim_end_matches(']');
    let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
        .port(url.port().unwrap_or(25))
        .timeout(Some(SEND_TIMEOUT));
    if !url.username().is_empty() {
        builder = builder.credentials(lettre::transport::smtp::authentication::Credentials::new(
            url.username().to_string(),
            url.password().unwrap_or_default().to_string(),
        ));
    }
    Ok(builder.build())
}

/// Whether a turn's notification still goes where it was queued to.
fn still_wanted(contact: &ContactRow, note: &NoteRow) -> bool {
    contact.notifications
        && match note.channel {
            Channel::Email => {
                contact.email_verified && contact.email.as_deref() == Some(note.target.as_str())
            }
            Channel::Webhook => contact.webhook.as_deref() == Some(note.target.as_str()),
            Channel::Verify => true,
        }
}

/// The `X-Tabletop-Signature` header of a POST whose body is `body`: `sha256=` and the
/// hex HMAC-SHA256 of the body under the account's webhook secret.
///
/// # Errors
/// Never in practice (HMAC takes a key of any length).
pub fn signature(secret: &str, body: &[u8]) -> anyhow::Result<String> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes())?;
    mac.update(body);
    Ok(format!(
        "sha256={}",
        hex::encode(mac.finalize().into_bytes())
    ))
}

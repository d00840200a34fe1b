//! Compaction leases in PostgreSQL, timed by the server's clock (see `ConversationStore::try_lease`).

use std::time::Duration;

use tidemark_core::ConversationId;
use tidemark_core::store::Lease;
use tidemark_core::store::sql::{DataError, from_sql};

use super::{PostgresStore, StoreFail, execute, query_opt};

/// Claim a lease: a new row, the holder's own row again, or an expired row of someone else.
const CLAIM_LEASE: &str = "INSERT INTO {s}.leases AS l (conversation, holder, expires_at)
     VALUES ($1, $2, now() + $3::bigint * interval '1 microsecond')
     ON CONFLICT (conversation) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
     WHERE l.holder = EXCLUDED.holder OR l.expires_at <= now()
     RETURNING holder";

const READ_LEASE: &str = "SELECT holder,
         greatest(0, floor(extract(epoch FROM expires_at - now()) * 1000000))::bigint
     FROM {s}.leases WHERE conversation = $1";

const RELEASE_LEASE: &str = "DELETE FROM {s}.leases WHERE conversation = $1 AND holder = $2";

/// How often `try_lease` reads a lease that was released between its claim and its read before it gives up.
const LEASE_ATTEMPTS: usize = 8;

/// The longest lease granted: a longer `ttl` is cut to it, so that the expiry stays a valid timestamp.
const LONGEST_LEASE: Duration = Duration::from_secs(100 * 366 * 24 * 60 * 60);

impl PostgresStore {
    pub(super) async fn claim_lease(
        &self,
        conversation: &ConversationId,
        holder: &str,
        ttl: Duration,
    ) -> Result<Lease, StoreFail> {
        let id = conversation.as_str();
        let micros = i64::try_from(ttl.min(LONGEST_LEASE).as_micros()).unwrap_or(i64::MAX);
        let client = self.client().await?;
        for _ in 0..LEASE_ATTEMPTS {
            if query_opt(&client, &self.sql(CLAIM_LEASE), &[&id, &holder, &micros]).await?.is_some() {
                return Ok(Lease::Acquired);
            }
            // Someone else holds it; if they release it before this read, claim again.
            if let Some(row) = query_opt(&client, &self.sql(READ_LEASE), &[&id]).await? {
                let holder: String = row.try_get(0)?;
                let left: i64 = row.try_get(1)?;
                let expires_in = Duration::from_micros(from_sql(left, "expires_at")?);
                return Ok(Lease::HeldBy { holder, expires_in });
            }
        }
        Err(DataError::LeaseChurn.into())
    }

    /// Give up `holder`'s lease on `conversation`, if it holds one.
    pub(super) async fn release(&self, conversation: &ConversationId, holder: &str) -> Result<(), StoreFail> {
        let client = self.client().await?;
        execute(&client, &self.sql(RELEASE_LEASE), &[&conversation.as_str(), &holder]).await?;
        Ok(())
    }
}

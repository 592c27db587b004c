import { isExpired, type StreamLease } from "./stream-leases";

/**
 * The customer's stream leases (`stream_leases`, see storage.md): a row per open stream,
 * written when it opens and deleted when it closes or expires; renewals are kept in memory
 * only, since a write a second per stream would buy nothing. Rows found when the object
 * starts count as renewed then: a stream still open renews within LEASE_RENEW_MS, and one
 * that is gone expires LEASE_EXPIRES_MS later.
 */
export class OpenStreams {
  readonly #sql: SqlStorage;
  readonly #leases = new Map<string, StreamLease>();

  constructor(sql: SqlStorage, now: number) {
    this.#sql = sql;
    const rows = sql.exec<{ lease_id: string; key_id: string; batch_id: string }>(
      "SELECT lease_id, key_id, batch_id FROM stream_leases",
    );
    for (const row of rows)
      this.#leases.set(row.lease_id, {
        leaseId: row.lease_id,
        keyId: row.key_id,
        batchId: row.batch_id,
        renewedAt: now,
      });
  }

  /** The leases still live at `now`; the expired ones are deleted on the way. */
  live(now: number): StreamLease[] {
    const live: StreamLease[] = [];
    for (const lease of this.#leases.values()) {
      if (isExpired(lease, now)) this.close(lease.leaseId);
      else live.push(lease);
    }
    return live;
  }

  get(leaseId: string): StreamLease | undefined {
    return this.#leases.get(leaseId);
  }

  open(keyId: string, batchId: string, now: number): StreamLease {
    const lease = { leaseId: crypto.randomUUID(), keyId, batchId, renewedAt: now };
    this.#sql.exec(
      "INSERT INTO stream_leases (lease_id, key_id, batch_id, opened_at) VALUES (?, ?, ?, ?)",
      lease.leaseId,
      keyId,
      batchId,
      now,
    );
    this.#leases.set(lease.leaseId, lease);
    return lease;
  }

  renew(lease: StreamLease, now: number): void {
    lease.renewedAt = now;
  }

  close(leaseId: string): void {
    if (!this.#leases.delete(leaseId)) return;
    this.#sql.exec("DELETE FROM stream_leases WHERE lease_id = ?", leaseId);
  }
}

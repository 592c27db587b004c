import { emptyUsage } from "../../account/usage";
import { appendOutbox } from "../../batch/record/outbox";
import { deleteItems } from "./scrub";

/**
 * Retention: the items go; the batch row stays as a tombstone (no personal data) so its URL can answer 410.
 * The expiry is reported to the account, which drops the batch from its person index.
 */
export function expireItems(storage: DurableObjectStorage): void {
  const expiredAt = new Date().toISOString();
  storage.transactionSync(() => {
    deleteItems(storage);
    storage.sql.exec("UPDATE batch SET expired_at = ?", expiredAt);
    appendOutbox(storage.sql, expiredAt, emptyUsage(), { register: true });
  });
}

// Feedback on a delivered contact: the operation behind POST …/feedback and its MCP tool.
import { accountStub } from "../account/stub";
import { isBatchId } from "../base/batch-id";
import { tenantOf } from "../base/tenant";
import { noSuchBatch } from "../batch/read-operations";
import { batchStub } from "../batch/stub";
import { personHasher } from "../contact-info/person-keys";
import { batchDeleted, batchExpired, notDelivered } from "../http/errors";
import type { Caller } from "../operations/caller";
import { operation } from "../rate-limit/operation";
import { deliveryKey, type FeedbackReceipt, parseFeedbackRequest } from "./feedback";

/**
 * Records a report that a contact an item returned is wrong (the body as POST …/feedback takes it):
 * the batch refunds what the item paid for that kind of contact, once and within the window
 * (credits/refund.ts), and the value goes on the customer's do-not-deliver list. The list is written
 * on every report, a repeat too, so a report whose answer was lost after the refund still lists it.
 */
export const reportFeedback = operation(
  "contact_info_request",
  async function reportFeedback({ env, apiKey, environment }: Caller, body: unknown): Promise<FeedbackReceipt> {
    const request = parseFeedbackRequest(body);
    if (!isBatchId(request.batchId)) throw noSuchBatch();
    const read = await batchStub(env, request.batchId).feedback(
      { customerId: apiKey.customerId, environment },
      request,
    );
    if (read.kind === "none") throw noSuchBatch();
    if (read.kind === "expired") throw batchExpired(read.expiredAt);
    if (read.kind === "deleted") throw batchDeleted(read.deletedAt);
    if (read.kind === "not_delivered") throw notDelivered(read.detail);
    const { record } = read;
    const tenant = tenantOf(apiKey);
    const [key] = await personHasher(env, tenant).hash([deliveryKey(record.contact, request.value)]);
    if (key) await accountStub(env, tenant).privacyAdd("do_not_deliver", [key]);
    return {
      batchId: request.batchId,
      index: request.index,
      kind: request.kind,
      contact: record.contact,
      source: record.source,
      refundedCredits: record.refundedCredits,
      reason: record.reason,
      refundedBefore: record.refundedBefore,
      creditsRefunded: record.creditsRefunded,
      doNotDeliver: true,
    };
  },
);

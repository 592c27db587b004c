// Feedback on a delivered contact: POST /v2/{environment}/feedback (credits/feedback-operations.ts).

import { callerOf } from "../middleware/caller";
import { jsonBody } from "../middleware/json-body";
import { rateLimit } from "../middleware/rate-limit";
import { authProblems, environmentParams, internalError, jsonBodyProblems, keyRequired } from "../openapi/common";
import { requestIdHeaders } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { type DeclaredRoute, declareRoute } from "../routes/declare";
import { feedbackReceiptSchema, feedbackRequestSchema, REFUND_WINDOW_DAYS } from "./feedback";
import { reportFeedback } from "./feedback-operations";

const postFeedback = declareRoute({
  route: {
    method: "post",
    path: "/feedback",
    middleware: [rateLimit(reportFeedback), jsonBody()],
  },
  docs: OPENAPI_METADATA && {
    operationId: "reportFeedback",
    tags: ["Feedback"],
    summary: "Report a contact that bounced, is wrong, or belongs to someone else",
    description: `Name the batch, the item and the value it returned. Within ${REFUND_WINDOW_DAYS} days of the item's delivery, the credits the item paid for that kind of contact (an email with its verifications, or a phone) are refunded, once per kind and item (the same report again refunds 0 and says so); the batch's creditsRefunded and your usage's creditsRefunded show it. Whatever the refund, the value goes on your do-not-deliver list in this environment, so no later item returns it to you, from the result cache either, and the report counts against the data source that found it (usage's sources). Webhooks and the progress stream carry nothing of the report.`,
    security: keyRequired,
    request: {
      params: environmentParams(),
      body: { required: true, content: { "application/json": { schema: feedbackRequestSchema } } },
    },
    responses: {
      200: {
        description: "Recorded: what was refunded, or why nothing was.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: feedbackReceiptSchema() } },
      },
      400: problem(
        ["invalid_request", "not_delivered", "malformed_json", "incomplete_body"],
        "The body is not feedback, the item was not given that value (or has not completed), or the body is not JSON",
      ),
      ...authProblems(),
      404: problem(
        ["not_found"],
        "No such batch for this customer and environment (another customer's batch looks the same), or no such environment",
      ),
      410: problem(
        ["batch_expired", "batch_deleted"],
        "The batch's data was deleted: at the end of its retention period, or by its owner",
      ),
      ...jsonBodyProblems(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(await reportFeedback(caller, c.get("jsonBody")), 200);
  },
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const feedbackRoutes: readonly DeclaredRoute[] = [postFeedback];

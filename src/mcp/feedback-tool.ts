// The tool that reports a wrong contact: it runs the operation POST …/feedback runs.
import { feedbackReceiptSchema, feedbackRequestSchema } from "../credits/feedback";
import { reportFeedback } from "../credits/feedback-operations";
import type { ToolDeclaration } from "./tool";

export const reportFeedbackTool: ToolDeclaration = {
  name: "report_feedback",
  title: "Report a wrong contact",
  description:
    "Reports that a contact an item returned bounced (email_bounced), is wrong (phone_wrong) or belongs to someone else (wrong_person): within 30 days of delivery the credits the item paid for that kind of contact are refunded, once; the value is never delivered to you again. Answers refundedCredits, or the reason it is 0.",
  input: feedbackRequestSchema,
  output: feedbackReceiptSchema(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: "spend",
  operation: reportFeedback,
  run: (caller, args) => reportFeedback(caller, args),
};

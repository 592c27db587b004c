// Why an item failed: the one catalogue of item error codes, what each means (the OpenAPI
// document's text) and the messages items carry. Each is final for that item; only
// source_unavailable and budget_exhausted are worth resubmitting. Plain, without zod, so
// the file core can use it in a browser page. Adding an item error is one entry here.

export const ITEM_ERRORS = {
  invalid_input: "the item failed validation (message says which field)",
  processing_failed: "every attempt failed on our side",
  processing_timeout: "not processed before the batch deadline",
  source_unavailable: "nothing found while a data source was unavailable, resubmit the item later",
  budget_exhausted:
    "its result would have taken the batch past its maxCredits, so it was not delivered (nor charged): resubmit it",
  suppressed:
    "the person is on your do-not-enrich list (PUT …/privacy/suppressions), so no source was asked and nothing was charged",
  erased: "the person was erased (POST …/privacy/erasures) before the item was processed",
} as const;

export type ItemErrorCode = keyof typeof ITEM_ERRORS;
export const ITEM_ERROR_CODES = Object.keys(ITEM_ERRORS) as [ItemErrorCode, ...ItemErrorCode[]];

/** An item's error: its code and a message for people. */
export interface ItemError {
  code: ItemErrorCode;
  message: string;
}

const error = (code: ItemErrorCode, message: string): ItemError => ({ code, message });

/** The errors items carry, each made in one place. */
export const itemErrors = {
  invalidInput: (problem: string) => error("invalid_input", problem),
  everyAttemptFailed: error("processing_failed", "the item could not be processed: every attempt failed"),
  noSourceConfigured: error("processing_failed", "no data source is configured"),
  messagesLost: error("processing_failed", "the item could not be processed: its queue messages were lost"),
  tooLargeToQueue: error("processing_failed", "the item is too large to be queued"),
  deadlinePassed: error("processing_timeout", "the item was not processed before the batch deadline"),
  sourcesUnavailable: (sources: readonly string[], attempt: number) =>
    error(
      "source_unavailable",
      `nothing was found, and ${sources.join(", ")} could not answer (attempt ${attempt}); resubmit the item later`,
    ),
  budgetExhausted: error(
    "budget_exhausted",
    "the item's result would have taken the batch past its maxCredits; it was not delivered nor charged: resubmit it",
  ),
  suppressed: error("suppressed", "the person is on the do-not-enrich list: no source was asked"),
  erased: error("erased", "the person was erased at the customer's request before the item was processed"),
} as const;

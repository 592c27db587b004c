import * as z from "zod";
import type { Jurisdiction } from "./jurisdiction";
import { UUID_PATTERN } from "./uuid";

const BATCH_ID = new RegExp(`^(?:(eu)-)?${UUID_PATTERN}$`);

/**
 * A batch id: a UUID, prefixed with its jurisdiction (`eu-…`) for a customer that has
 * one. The id alone then tells where the batch and its webhook sender live, to every
 * reader: the routes, both queue consumers, the batch object itself.
 */
export const batchIdSchema = z
  .string()
  .regex(BATCH_ID)
  .meta(
    OPENAPI_METADATA
      ? {
          description:
            "The batch id from the submit receipt: a UUID, prefixed `eu-` for a customer whose data stays in the EU.",
          example: "3e1cab3a-0527-4fea-987c-d486f470829c",
        }
      : {},
  );

export const newBatchId = (jurisdiction: Jurisdiction | undefined): string =>
  jurisdiction ? `${jurisdiction}-${crypto.randomUUID()}` : crypto.randomUUID();

/** Whether `id` (lower-cased) can be a batch id; anything else is a 404 without a lookup. */
export const isBatchId = (id: string): boolean => BATCH_ID.test(id);

export const jurisdictionOfBatch = (batchId: string): Jurisdiction | undefined =>
  (BATCH_ID.exec(batchId)?.[1] as Jurisdiction) ?? undefined;

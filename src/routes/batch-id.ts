/** A batch id as the submit makes them (crypto.randomUUID), in any case: anything else is a batch that does not exist. */
export const BATCH_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Where a customer's Durable Objects may run and store data (docs/storage.md, "Where personal data
 * lives"). A customer without one is placed wherever its first request lands.
 */
export const JURISDICTIONS = ["eu"] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

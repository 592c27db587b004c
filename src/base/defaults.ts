// The defaults wrangler.toml gives the vars that the API's prose quotes (the document, the MCP tools'
// descriptions, the file tools' batch size): written once here, and test/unit/defaults.test.ts holds
// wrangler.toml to them.

/** MAX_BATCH_ITEMS by default: the most items one batch takes. */
export const DEFAULT_MAX_BATCH_ITEMS = 10_000;

/** CREDITS_PER_EMAIL, CREDITS_PER_PHONE and CREDITS_PER_VERIFICATION by default. */
export const DEFAULT_PRICES = { email: 1, phone: 10, verification: 0 } as const;

/** A count as the prose writes it: 10,000. */
export const inWords = (count: number): string => count.toLocaleString("en-US");

/** The prices of a kind of contact as the prose says them: "an email 1 credit, a phone 10". */
export const pricesInWords = (prices: { email: number; phone: number }): string =>
  `an email ${prices.email} credit${prices.email === 1 ? "" : "s"}, a phone ${prices.phone}`;

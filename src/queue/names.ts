// Queue names as in wrangler.toml: the Worker consumes all four and tells them apart by name.
export const QUEUES = {
  items: "contact-info-items",
  itemsDeadLetter: "contact-info-items-dlq",
  webhooks: "contact-info-webhooks",
  webhooksDeadLetter: "contact-info-webhooks-dlq",
} as const;

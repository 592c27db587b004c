/** A UUID as crypto.randomUUID() writes it (lower-case hex), the source of every id pattern. */
export const UUID_PATTERN = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

const UUID = new RegExp(`^${UUID_PATTERN}$`);

/** Whether `text` is a UUID as we make them; `anyCase` also takes one a client upper-cased. */
export const isUuid = (text: string, anyCase = false): boolean => UUID.test(anyCase ? text.toLowerCase() : text);

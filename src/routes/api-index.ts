/** What `GET /` answers: where a person who opened the bare URL goes next. */
export const API_INDEX = {
  name: "Contact-info batch API",
  docs: "/docs",
  openapi: "/openapi.json",
  health: "/healthz",
} as const;

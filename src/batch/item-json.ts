// An item as the status page shows it (itemViewSchema), concatenated from columns that
// already hold JSON, so SQLite neither parses nor re-renders them.
export const ITEM_JSON = `'{"index":' || idx || ',"externalId":' || json_quote(external_id) || ',"status":' || json_quote(status)
  || ',"outcome":' || json_quote(outcome) || ',"input":' || input
  || ',"emails":' || coalesce(emails, '[]') || ',"phones":' || coalesce(phones, '[]')
  || ',"error":' || CASE WHEN error_code IS NULL THEN 'null' ELSE json_object('code', error_code, 'message', coalesce(error_message, '')) END
  || ',"fromCache":' || CASE WHEN from_cache = 1 THEN 'true' ELSE 'false' END || ',"credits":' || credits
  || ',"sources":' || coalesce(sources, '[]') || '}'`;

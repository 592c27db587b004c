/** Keys bound as one JSON array to one parameter (workerd allows 100 bound parameters): `key IN (${KEYS})`. */
export const KEYS = "SELECT value FROM json_each(?)";

export const ENVIRONMENTS = ["live", "test"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const isEnvironment = (value: string): value is Environment =>
  (ENVIRONMENTS as readonly string[]).includes(value);

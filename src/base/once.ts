// Documentation made at a module's top level is written `/* @__PURE__ */ once(() => …)`
// (or as a plain function): a pure call of a function, which esbuild drops from the Worker
// build once the route docs that read it are dropped (routes/declare.ts). A zod call chain,
// even marked pure, it keeps: its arguments are calls too.

/** `make`'s value, made on the first call and the same after (a schema with a meta id may register only once). */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/**
 * A schema's description and examples, written `.meta(documented(OPENAPI_METADATA && {…}))`
 * on schemas the Worker also runs: there OPENAPI_METADATA is false, esbuild drops the text,
 * and zod gets empty meta. (A meta id stays outside: the Worker's shapes keep their names.)
 */
export const documented = <T extends object>(meta: T | false): T | Record<never, never> => meta || {};

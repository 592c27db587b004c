/** `make`'s value, made on the first call and the same after (a schema with a meta id may register only once). */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/**
 * What a value only the OpenAPI document reads is in the Worker: written `OPENAPI_METADATA ? once(() => …) :
 * notInTheWorker`, it is made once, on first use, where the document is built; the Worker's build defines
 * OPENAPI_METADATA false, so esbuild drops the value and all that only it reads, and a read there throws.
 */
export const notInTheWorker = (): never => {
  throw new Error("documentation only: the Worker's build drops it (OPENAPI_METADATA is false)");
};

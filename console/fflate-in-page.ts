// fflate for the page, as the XLSX libraries see it (scripts/build-console.mjs points
// their `import … from "fflate"` here): its asynchronous zip and unzip start a Worker
// from a blob: URL, which the page's CSP refuses (worker-src falls back to script-src
// 'self'), and the promise built on them never settles. Done on the page's own thread
// instead, the CSP unchanged; a 10,000-row workbook takes well under a second.
import {
  type AsyncTerminable,
  type AsyncUnzipOptions,
  type AsyncZipOptions,
  type AsyncZippable,
  type FlateCallback,
  type UnzipCallback,
  unzipSync,
  zipSync,
} from "fflate";

export * from "fflate";

const later = (work: () => void): AsyncTerminable => {
  let stopped = false;
  setTimeout(() => stopped || work(), 0);
  return () => {
    stopped = true;
  };
};

export function zip(data: AsyncZippable, ...rest: [FlateCallback] | [AsyncZipOptions, FlateCallback]): AsyncTerminable {
  const [options, callback] = rest.length === 1 ? [{}, rest[0]] : rest;
  return later(() => {
    let archive: Uint8Array<ArrayBuffer>;
    try {
      archive = zipSync(data, options);
    } catch (error) {
      return callback(error as Parameters<FlateCallback>[0], new Uint8Array(0));
    }
    callback(null, archive);
  });
}

export function unzip(
  data: Uint8Array,
  ...rest: [UnzipCallback] | [AsyncUnzipOptions, UnzipCallback]
): AsyncTerminable {
  const [options, callback] = rest.length === 1 ? [{}, rest[0]] : rest;
  return later(() => {
    let files: ReturnType<typeof unzipSync>;
    try {
      files = unzipSync(data, options);
    } catch (error) {
      return callback(error as Parameters<UnzipCallback>[0], {});
    }
    callback(null, files);
  });
}

// The wasm core's bytes, fetched once per page load and compiled while they arrive. The page's
// own instance, the analyzer worker and the probe workers are all instantiated from this one
// compiled module (posted to the workers), so a slow link carries the core once, not twice.
//
// The SIMD builds ship gzipped (tokscope_bg.wasm.gz, about 1.2 MB instead of 3.1 MB) and are
// inflated with DecompressionStream, so the saving holds on any static host, compressing or not.
// A host that decodes the file itself (Content-Encoding: gzip on a .gz) hands over plain wasm:
// the first two bytes tell which it is.

const GZIP_MAGIC = [0x1f, 0x8b];

/** A stream of `reader`'s bytes, `head` first. */
function streamFrom(head, reader) {
  return new ReadableStream({
    start(controller) {
      if (head.length) controller.enqueue(head);
    },
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** The first `n` bytes (fewer at the end of the stream), read off `reader`. */
async function readHead(reader, n) {
  let head = new Uint8Array(0);
  while (head.length < n) {
    const { value, done } = await reader.read();
    if (done) break;
    const joined = new Uint8Array(head.length + value.length);
    joined.set(head);
    joined.set(value, head.length);
    head = joined;
  }
  return head;
}

/**
 * Fetches and compiles the build `pickBuild()` chose ({dir, file}); resolves to a
 * WebAssembly.Module. Rejects with the file's path and what went wrong.
 */
export async function compileCore(build, base = import.meta.url) {
  const url = new URL(`${build.dir}/${build.file}`, base);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
  const reader = response.body.getReader();
  const head = await readHead(reader, GZIP_MAGIC.length);
  let body = streamFrom(head, reader);
  if (head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) {
    body = body.pipeThrough(new DecompressionStream('gzip'));
  }
  const wasm = new Response(body, { headers: { 'content-type': 'application/wasm' } });
  if (WebAssembly.compileStreaming) return WebAssembly.compileStreaming(wasm);
  return WebAssembly.compile(await wasm.arrayBuffer());
}

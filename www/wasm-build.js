// Which build of the wasm core this engine can run. A module that uses one instruction the engine
// lacks fails to compile as a whole, so scripts/build.sh ships three builds and this picks the best
// one that WebAssembly.validate accepts, testing two tiny modules:
//   simd128:       (func (result v128) i32.const 0  i8x16.splat  i8x16.popcnt)
//   relaxed-simd:  (func (result v128) i32.const 1  i8x16.splat  i32.const 2  i8x16.splat
//                                      i8x16.relaxed_swizzle)
const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00]; // function section: one function of type 0
const SIMD128 = new Uint8Array([...HEADER,
  0x0a, 0x0a, 0x01, 0x08, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0xfd, 0x62, 0x0b]);
const RELAXED = new Uint8Array([...HEADER,
  0x0a, 0x0f, 0x01, 0x0d, 0x00, 0x41, 0x01, 0xfd, 0x0f, 0x41, 0x02, 0xfd, 0x0f, 0xfd, 0x80, 0x02, 0x0b]);

function validates(bytes) {
  try {
    return WebAssembly.validate(bytes);
  } catch {
    return false;
  }
}

/**
 * The build to load: { name: 'relaxed' | 'simd128' | 'scalar', dir, file }. `?wasm=simd128` (or
 * `scalar`) forces a lesser build, for comparisons; it never picks one the engine cannot run.
 */
export function pickBuild(search = globalThis.location?.search ?? '') {
  // The SIMD builds ship gzipped (see wasm-load.js); an engine that cannot inflate them (Firefox
  // before 113, for one) takes the scalar build, which ships as plain wasm.
  const simd = validates(SIMD128) && typeof DecompressionStream === 'function';
  const relaxed = simd && validates(RELAXED);
  const available = ['scalar', ...(simd ? ['simd128'] : []), ...(relaxed ? ['relaxed'] : [])];
  const forced = new URLSearchParams(search).get('wasm');
  const name = available.includes(forced) ? forced : available[available.length - 1];
  const dir = { relaxed: 'pkg-relaxed', simd128: 'pkg', scalar: 'pkg-scalar' }[name];
  return { name, dir, file: name === 'scalar' ? 'tokscope_bg.wasm' : 'tokscope_bg.wasm.gz' };
}

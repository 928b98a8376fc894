// The GLSL helpers of texture and surface instructions (emit_tex.cpp), written once per shader that uses them.
//
// Exact mode does what NVIDIA's texture unit does in integer arithmetic, reading texels as bytes through
// the descriptor record a handle points to (runtime/common/images.h, docs/TEXTURES.md): no Vulkan sampler, whose
// filtering precision the Vulkan spec leaves open (4 sub-texel bits required; HAZARDS.md #11), is involved.
#include <string>

#include "emitter.h"

namespace p2g {

namespace {

// The texture unit's coordinate arithmetic, as the H200 shows it (ptx_corpus/tex cases and measurements,
// docs/TEXTURES.md "Measured"): a coordinate (f32, denormals flushed to zero) becomes fixed point with kFixBits
// fractional bits, rounded down, BEFORE normalized coordinates are scaled by the size (in integer arithmetic, so
// u = 1/13 on a 13-texel axis, a hair above 1.0 in exact arithmetic, lands in texel 0). Any value from 20 to 21
// fits every sample; 16..19 miss a few linear-filtering ones, 22 and more miss point-sampled edges.
constexpr int kFixBits = 20;

const char* kRecord = R"(// ---- Textures and surfaces (translator/emit/emit_tex.cpp, docs/TEXTURES.md) ----
// A texture or surface handle is the device address of the 64-byte descriptor record the runtime wrote
// (runtime/common/images.h): texel address, size, format, sampler state.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer P2GImage {
  uint64_t texels;
  uint width, height, depth, format, texelBytes, rowPitch, slicePitch, filterMode;
  uint addr0, addr1, addr2, normalized, flags, channels;
};

// What the runner knew of the image when it created the pipeline: the specialization constant P2G_IMG<slot> of the
// instruction's image (one per image of the manifest's `images`). 0: nothing, every field is read from the record;
// else bit 31 and the record's own values (runtime/common/images.h imageState): the helpers, inlined per call, then
// fold away the formats, filters and address modes that the image does not have.
struct P2GImgState { uint format, channels, cbytes, filterMode, addr0, addr1, addr2, normalized, flags; };
P2GImgState p2g_img_state(P2GImage d, uint s) {
  if (s < 0x80000000u)
    return P2GImgState(d.format, d.channels, d.texelBytes / d.channels, d.filterMode, d.addr0, d.addr1, d.addr2,
                       d.normalized, d.flags);
  return P2GImgState(s & 15u, (s >> 4) & 7u, (s >> 8) & 7u, (s >> 12) & 1u, (s >> 13) & 3u, (s >> 15) & 3u,
                     (s >> 17) & 3u, (s >> 19) & 1u, (s >> 20) & 0x3FFu);
}
)";

const char* kTexHelpers = R"(
// Device sampling (docs/TEXTURES.md "Device sampling"): the runner sets bit 30 of a known state where it bound a real
// image and sampler of the same texels and sampler state at binding <slot> (p2g_hw<slot>) and the device fact hw-tex
// holds, i.e. where the device's texture unit was measured to give CUDA's bytes; the instruction then samples it
// (emit_tex.cpp). p2g_hw_norm: with normalized coordinates, which gather needs (Vulkan allows no unnormalized gather).
bool p2g_hw_on(uint s) { return s >= 0xC0000000u; }
bool p2g_hw_norm(uint s) { return s >= 0xC0000000u && ((s >> 19) & 1u) != 0u; }

// f16 bits -> f32 bits, exactly, in integer code (subnormal halves become normal floats; NaN payloads kept).
uint p2g_tex_h2f(uint h) {
  uint s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0x1Fu) return s | 0x7F800000u | (m << 13);
  if (e != 0u) return s | ((e + 112u) << 23) | (m << 13);
  if (m == 0u) return s;
  int p = findMSB(m);
  return s | (uint(p + 103) << 23) | ((m << uint(23 - p)) & 0x7FFFFFu);
}

// v / (2^bits - 1) as the correctly rounded f32 (bits), for 0 <= v <= 2^bits - 1 and bits 8 or 16, in integer code:
// no device division (2.5 ulp in Vulkan), no 64-bit division (a long software routine on GPUs: it was a third of
// bench/tex_heavy's time on the H200, 99.3 -> 67.7 ms native with it replaced, 2026-12-03) and no lookup table
// (llvmpipe turns indexed constant arrays into if-ladders). For 0 < v < 2^b - 1, v / (2^b - 1) = sum_k v 2^(-kb):
// in binary the fraction is v's b-bit pattern repeated forever. The significand is the 24 bits from its leading one
// (bit p of v, so 2^(p-b) <= v / den < 2^(p-b+1)); the bit after them decides the rounding: the bits after it are
// never all zero (the pattern repeats v != 0), so the quotient is never a tie and a 1 there means up. Equal to the
// 64-bit long division it replaces for every v, bits 8 and 16 (checked exhaustively on the CPU; tests/textures
// runs all 256 bytes and every 16-bit filtered sum through the shader).
uint p2g_tex_unorm(uint v, int bits) {
  uint den = (1u << uint(bits)) - 1u;
  if (v == 0u) return 0u;
  if (v >= den) return 0x3F800000u;
  int p = findMSB(v);
  uint o = uint(bits - 1 - p);  // the zeros above v's leading one in its b-bit block
  uint rep = bits == 8 ? v * 0x01010101u : (v << 16) | v;
  uint w = (rep << o) | (v >> (uint(bits) - o));  // 32 bits of the fraction from its leading one
  uint q = (w >> 8) + ((w >> 7) & 1u);            // rounded to 24 bits; 2^24 carries into the exponent below
  return (uint(p - bits + 126) << 23) + q;
}

// An 8-bit unorm channel as the correctly rounded f32 of b / 255 (CUDA's normalized-float read mode). Checked
// against b / 255.0f for all b in tests/textures.
uint p2g_unorm8(uint b) { return p2g_tex_unorm(b, 8); }

// The texel at in-range coordinates, as stored (raw) or decoded: unorm8 and f16 channels as f32 bits, f32 and
// integer channels as stored. Channels the format lacks read as 0, alpha included (measured: an r32f texture gives
// (r, 0, 0, 0), ptx_corpus/tex/tex2d_point). Each 32-bit word of the texel is read once: texels of 1 or 2 bytes
// sit inside one word, and larger ones start on a word (the record's pitches are multiples of the texel size).
uvec4 p2g_img_texel(P2GImage d, P2GImgState st, int x, int y, int z, bool raw) {
  uint cb = st.cbytes, n = st.channels;
  uint off = uint(z) * d.slicePitch + uint(y) * d.rowPitch + uint(x) * (cb * n);
  uint64_t a = d.texels + uint64_t(off & ~3u);
  uint w0 = P2GU32(a).v;
  uvec4 r = uvec4(0u);
  if (cb == 4u) {
    r.x = w0;
    if (n > 1u) r.y = P2GU32(a + 4ul).v;
    if (n > 2u) r.zw = uvec2(P2GU32(a + 8ul).v, P2GU32(a + 12ul).v);
    return r;
  }
  int sh = int((off & 3u) * 8u), cbits = int(cb * 8u);
  r.x = bitfieldExtract(w0, sh, cbits);
  if (n > 1u) r.y = bitfieldExtract(w0, sh + cbits, cbits);
  if (n > 2u) {
    uint w1 = cb == 2u ? P2GU32(a + 4ul).v : w0 >> 16;  // rgba16f: the second word; rgba8: the upper half
    r.zw = uvec2(bitfieldExtract(w1, 0, cbits), bitfieldExtract(w1, cbits, cbits));
  }
  if (raw) return r;
  if (cb == 1u) {
    r.x = p2g_unorm8(r.x);
    if (n > 1u) r.y = p2g_unorm8(r.y);
    if (n > 2u) r.zw = uvec2(p2g_unorm8(r.z), p2g_unorm8(r.w));
    return r;
  }
  return uvec4(p2g_tex_h2f(r.x), p2g_tex_h2f(r.y), p2g_tex_h2f(r.z), p2g_tex_h2f(r.w));
}

// An integer texel coordinate under an address mode (CUaddress_mode: 0 wrap, 1 clamp, 2 mirror, 3 border);
// -1 means outside in border mode. (GLSL leaves % of negative operands undefined, hence the explicit forms.)
int p2g_tex_address(int i, int n, uint mode) {
  if (mode == 0u) return i >= 0 ? i % n : n - 1 - (-(i + 1)) % n;
  if (mode == 2u) {
    int p = i >= 0 ? i % (2 * n) : 2 * n - 1 - (-(i + 1)) % (2 * n);
    return p < n ? p : 2 * n - 1 - p;
  }
  if (mode == 3u) return (i < 0 || i >= n) ? -1 : i;
  return clamp(i, 0, n - 1);
}

// The coordinate as the texture unit holds it: fixed point with P2G_TEX_FIX_BITS fractional bits, in texels.
// The f32 coordinate (denormals flushed to zero, NaN as 0) is rounded down to that grid first and only then,
// for normalized coordinates, multiplied by the size: exactly, in integers (docs/TEXTURES.md, "Measured").
// Far outside the image the H200 still wraps and mirrors the exact coordinate (ptx_corpus/outside/tex_coord_range_1d:
// 4194304.5 wraps to texel 2048 of 4096, -4194304.5 mirrors to 2047, 8388609 to 4095; an infinity lands on texel 0):
// under wrap and mirror (address mode `mode`, CUaddress_mode numbering) a normalized coordinate is taken modulo 2
// on the fixed-point grid (every f32 beyond 2^24 is an even integer), under clamp and border it is held to [-4, 4],
// where every value outside [0, 1] already gives the edge or the border; so positions fit a 32-bit int once shifted.
// A normalized coordinate on an axis of n texels keeps k = max(ceil(log2 n) - 8, 1) more fractional bits before the
// scaling (then the texel position is rounded down to the 20-bit grid): with 20 bits, 28 linear samples of
// tex_coord_range_1d on 4,096 texels (k = 4) were a weight step off (0.0312499981 gave 127.496 for the H200's
// 127.5); for n <= 256, k = 1: with k = 0, 88 of 16384 linear fetches of tex/tex_heavy_taps (normalized, 180 texels
// high) were a weight step off on the H200 (2026-12-01; the y fraction sat 0.02-0.03 of a step above a rounding
// boundary that the 20-bit grid put below it), and k = 1 gives all 98,304 values while the cases of n = 5..17
// stay exact (k = 2 already misses point-sampled edges of tex2d_point). k between is a fit: its evidence is
// rrlite/k_output (640..2560 texels), benchlite/tex_heavy and tex/tex_heavy_taps (320 x 180).
int64_t p2g_tex_pos(float x, uint n, uint normalized, uint mode) {
  bool wrapLike = normalized != 0u && (mode == 0u || mode == 2u);
  float lim = wrapLike ? 16777216.0 : normalized != 0u ? 4.0 : 4194304.0;
  float v = (isnan(x) || abs(x) < 1.17549435e-38) ? 0.0 : clamp(x, -lim, lim);
  // k extra fractional bits for a normalized coordinate (see above)
  int k = normalized != 0u ? max(findMSB(n - 1u) + 1 - 8, 1) : 0;
  int64_t f = int64_t(floor(v * float(int64_t(1) << (P2G_TEX_FIX_BITS + k))));  // a power-of-two scale: exact
  if (wrapLike) f &= (int64_t(2) << (P2G_TEX_FIX_BITS + k)) - 1;  // modulo 2, exactly (two's complement)
  return normalized != 0u ? (f * int64_t(n)) >> k : f;
}

// Linear filtering's position: half a texel back, then to 8 fractional bits rounded to nearest (ties up); the
// low 8 bits are the weight of the upper texel (measured: 20353 of 20481 weights round to nearest).
int p2g_tex_lin(int64_t p) {
  const int64_t hf = int64_t(1) << (P2G_TEX_FIX_BITS - 1), r = int64_t(1) << (P2G_TEX_FIX_BITS - 9);
  return int((p - hf + r) >> (P2G_TEX_FIX_BITS - 8));
}

// The filter weights (x 256) of the taps (x0,y0), (x1,y0), (x0,y1), (x1,y1) of one slice whose share is W (256 in
// 1D and 2D; 256 - az and az for the two slices of a 3D footprint), for the 8-bit fractions ax, ay: W is split by
// x, the upper part rounded to nearest with ties up, then each part by y, the upper part rounded with ties up on the
// x1 side and ties down on the x0 side; the lower parts are what remains. In 2D this is w11 = round(ax*ay/256) ties
// up, w10 = ax - w11, w01 = ay - w11, w00 = 256 - ax - ay + w11. Measured on the H200: 2D, ptx_corpus/tex/tex2d_linear
// (all 32768 values with the sums below; each product rounded with ties to even misses 55 f16 values); 3D,
// ptx_corpus/tex/tex_filter_more u3d 4096/4096 (each product rounded with ties to even 2419, other split orders
// and tie rules at most 4092; ptx_corpus/tex/tools/filter_fit.cpp).
ivec4 p2g_tex_wslice(int ax, int ay, int W) {
  int x1 = (W * ax + 128) >> 8, x0 = W - x1;
  int y11 = (x1 * ay + 128) >> 8, y01 = (x0 * ay + 127) >> 8;
  return ivec4(x0 - y01, x1 - y11, y01, y11);
}

// One tap: address modes per axis, then the texel (raw: as stored, see p2g_img_texel); border taps are the border
// colour (0, 0, 0, 0).
uvec4 p2g_tex_tap(P2GImage d, P2GImgState st, int x, int y, int z, uint dims, bool raw) {
  x = p2g_tex_address(x, int(d.width), st.addr0);
  if (dims > 1u) y = p2g_tex_address(y, int(d.height), st.addr1);
  if (dims > 2u) z = p2g_tex_address(z, int(d.depth), st.addr2);
  if (x < 0 || y < 0 || z < 0) return uvec4(0u);
  return p2g_img_texel(d, st, x, y, z, raw);
}

// Float texels (f16 or f32 bits per component; f16: mb 10 fraction bits, eb 5 exponent bits; f32: 23 and 8) as
// signed significands with 4 guard bits, aligned to the biased exponent em (subnormals have exponent 1), truncated
// toward zero (sign and magnitude).
ivec4 p2g_tex_align(uvec4 h, uvec4 em, uint mb, uint eb) {
  uvec4 e = (h >> mb) & ((1u << eb) - 1u);
  uvec4 m = (h & ((1u << mb) - 1u)) | mix(uvec4(0u), uvec4(1u << mb), notEqual(e, uvec4(0u)));
  uvec4 sh = min(em - min(max(e, uvec4(1u)), em), uvec4(31u));
  ivec4 a = ivec4((m << 4u) >> sh);  // below 2^28
  return mix(a, -a, notEqual((h >> (mb + eb)) & 1u, uvec4(0u)));
}

// The largest biased exponent (at least 1) among the taps of one slice with a non-zero weight, per component.
uvec4 p2g_tex_emax(uvec4 t0, uvec4 t1, uvec4 t2, uvec4 t3, ivec4 w, uint mb, uint eb) {
  uvec4 em = uvec4(1u), k = uvec4((1u << eb) - 1u);
  if (w.x != 0) em = max(em, (t0 >> mb) & k);
  if (w.y != 0) em = max(em, (t1 >> mb) & k);
  if (w.z != 0) em = max(em, (t2 >> mb) & k);
  if (w.w != 0) em = max(em, (t3 >> mb) & k);
  return em;
}

// The filtered value of one slice of float texels, exactly: S * 2^ex per component (|S| < 2^38), the texels
// aligned to the largest exponent among the taps with a non-zero weight, keeping 4 bits below that texel's
// precision, truncated toward zero, and summed with their weights (x 256). Measured on the H200: f16 (tex2d_linear
// hClamp/hWrap 16384/16384; the exact sum rounded once 16369, 3 or 5 guard bits at most 16377, the exponent over
// all taps 16313) and f32 (tex_filter_more f3d 4096/4096, the exact sum 4076; tex2d_linear fBorder 8192/8192).
i64vec4 p2g_tex_slice(uvec4 t0, uvec4 t1, uvec4 t2, uvec4 t3, ivec4 w, bool isH, out ivec4 ex) {
  uint mb = isH ? 10u : 23u, eb = isH ? 5u : 8u;
  uvec4 em = p2g_tex_emax(t0, t1, t2, t3, w, mb, eb);
  ex = ivec4(em) - (isH ? 15 + 22 : 127 + 35);  // 2^(em - bias - mb - 4 - 8)
  return int64_t(w.x) * i64vec4(p2g_tex_align(t0, em, mb, eb)) + int64_t(w.y) * i64vec4(p2g_tex_align(t1, em, mb, eb)) +
         int64_t(w.z) * i64vec4(p2g_tex_align(t2, em, mb, eb)) + int64_t(w.w) * i64vec4(p2g_tex_align(t3, em, mb, eb));
}

// Infinite and NaN texels with a non-zero weight (unmeasured), per component: bit 0 a +inf, bit 1 a -inf, bit 2 a
// NaN. The result is then IEEE's sum (p2g_tex_infsum): NaN for a NaN or infinities of both signs, else the infinity.
uvec4 p2g_tex_inf(uvec4 t0, uvec4 t1, uvec4 t2, uvec4 t3, ivec4 w, bool isH) {
  uint sb = isH ? 15u : 31u, inf = isH ? 0x7C00u : 0x7F800000u;
  uvec4 f = uvec4(0u);
  for (int i = 0; i < 4; ++i) {
    uvec4 t = i == 0 ? t0 : i == 1 ? t1 : i == 2 ? t2 : t3;
    if (w[i] == 0) continue;
    uvec4 mag = t & ((1u << sb) - 1u);
    f |= mix(uvec4(0u), mix(uvec4(1u), uvec4(2u), notEqual(t >> sb, uvec4(0u))), equal(mag, uvec4(inf)));
    f |= mix(uvec4(0u), uvec4(4u), greaterThan(mag, uvec4(inf)));
  }
  return f;
}
// The filtered value, as f32 bits, of a component whose p2g_tex_inf flags `f` are not 0.
uint p2g_tex_infsum(uint f) { return ((f & 4u) != 0u || f == 3u) ? 0x7FFFFFFFu : (f == 1u ? 0x7F800000u : 0xFF800000u); }

// p2g_tex_slice and p2g_tex_fin for one slice of f16 texels (1D and 2D), in f32 arithmetic where no operation
// rounds: a texel (taps of weight 0 taken as 0) is an f32 exactly (the device's unpackHalf2x16 where P2G_HALF_CVT
// holds; else its bits moved into an f32's); aligned to the grid g = 2^(em - 29)
// (em the largest biased exponent among the taps, at least 1: 4 bits below that texel's last place) as trunc(v / g),
// an integer below 2^15, by a power-of-two scale; times its weight (<= 256) and summed, every partial sum below
// 2^23; then scaled by g / 256. So R = S * 2^(em - 37) exactly, every value an f32 normal (>= 2^-36 or 0): a device
// that flushes f32 subnormals or contracts to fma gives the same bits. R rounded to f16 precision with ties away
// from zero (subnormal halves, 65520 and above to infinity) on its bits. The same bits as the integer forms
// (tests/textures/tex_int_equiv.cpp: every S and em, and every weight split with edge and random texels); an
// infinity or NaN among the weighted taps gives IEEE's sum (p2g_tex_inf).
vec4 p2g_tex_hv(uvec4 t) {
  uvec4 mag = t & 0x7FFFu;
  bvec4 sub = equal(mag >> 10u, uvec4(0u));  // a subnormal half is taken as 1.m * 2^-14, less 2^-14
  vec4 v = uintBitsToFloat((mag << 13u) + mix(uvec4(0x38000000u), uvec4(0x38800000u), sub)) -
           mix(vec4(0.0), vec4(6.103515625e-05), sub);
  vec4 h = vec4(unpackHalf2x16(t.x).x, unpackHalf2x16(t.y).x, unpackHalf2x16(t.z).x, unpackHalf2x16(t.w).x);
  return P2G_HALF_CVT ? h : mix(v, -v, notEqual(t & 0x8000u, uvec4(0u)));
}
uvec4 p2g_tex_lin16(uvec4 t0, uvec4 t1, uvec4 t2, uvec4 t3, ivec4 w) {
  uvec4 z = uvec4(0u), k = uvec4(0x7FFFu);
  t0 = w.x != 0 ? t0 : z;
  t1 = w.y != 0 ? t1 : z;
  t2 = w.z != 0 ? t2 : z;
  t3 = w.w != 0 ? t3 : z;
  uvec4 mx = max(max(t0 & k, t1 & k), max(t2 & k, t3 & k));
  uvec4 em = max(mx >> 10u, uvec4(1u));
  vec4 ig = uintBitsToFloat((uvec4(156u) - em) << 23u);  // 1 / g = 2^(29 - em)
  vec4 S = trunc(p2g_tex_hv(t0) * ig) * float(w.x) + trunc(p2g_tex_hv(t1) * ig) * float(w.y) +
           trunc(p2g_tex_hv(t2) * ig) * float(w.z) + trunc(p2g_tex_hv(t3) * ig) * float(w.w);
  uvec4 u = floatBitsToUint(S * uintBitsToFloat((em + 90u) << 23u));  // R = S * 2^(em - 37)
  uvec4 a = u & 0x7FFFFFFFu, sg = u & 0x80000000u;
  ivec4 E = ivec4(a >> 23u) - 127;
  uvec4 sh = uvec4(clamp(-1 - E, 13, 23));  // the bits below the f16 result's last place
  uvec4 one = uvec4(1u), q = (a + (one << (sh - 1u))) & ~((one << sh) - 1u);
  q = mix(q, uvec4(0x7F800000u), greaterThanEqual(q, uvec4(0x47800000u)));  // 65536 and above: infinity
  q = mix(q, uvec4(0x33800000u), equal(E, ivec4(-25)));                    // [2^-25, 2^-24): 2^-24
  q = mix(q, uvec4(0u), lessThan(E, ivec4(-25)));
  uvec4 r = mix(sg | q, uvec4(0u), equal(a, uvec4(0u)));
  if (any(greaterThanEqual(mx, uvec4(0x7C00u)))) {
    uvec4 inf = p2g_tex_inf(t0, t1, t2, t3, w, true);
    for (int i = 0; i < 4; ++i)
      if (inf[i] != 0u) r[i] = p2g_tex_infsum(inf[i]);
  }
  return r;
}

// The sum of the two slices' exact values Sa * 2^ea + Sb * 2^eb rounded once, as f32 bits: to f32 with ties away
// from zero, or (f16 formats) to f16 precision with ties away (subnormal halves, 65520 and above to infinity). In
// integer code: the larger term left-justified in 64 bits, the smaller one aligned with a sticky bit (as in
// p2g_sf32), p2g_rnd32 in mode 5; for f16, rounded to odd in f32 first (24 >= 11 + 2 bits), then to f16.
uint p2g_tex_fin(int64_t Sa, int ea, int64_t Sb, int eb, bool isH) {
  uint sa = Sa < 0l ? 1u : 0u, sb = Sb < 0l ? 1u : 0u;
  uint64_t ma = uint64_t(Sa < 0l ? -Sa : Sa), mb = uint64_t(Sb < 0l ? -Sb : Sb);
  if (ma == 0ul) { ma = mb; ea = eb; sa = sb; mb = 0ul; }
  if (ma == 0ul) return 0u;
  uint s = sa;
  uint64_t r = ma;
  int x = ea;
  if (mb != 0ul) {
    int la = p2g_len64(ma), lb = p2g_len64(mb);
    if (eb + lb > ea + la) {
      uint64_t tm = ma; ma = mb; mb = tm;
      int te = ea; ea = eb; eb = te;
      uint ts = sa; sa = sb; sb = ts;
      la = lb;
    }
    ma <<= uint(62 - la);
    ea -= 62 - la;
    int d = eb - ea;
    if (d >= 0) mb <<= uint(d);
    else if (d > -64) { uint64_t t = mb >> uint(-d); mb = t | ((t << uint(-d)) != mb ? 1ul : 0ul); }
    else mb = 1ul;
    s = sa;
    x = ea;
    if (sa == sb) r = ma + mb;
    else if (ma >= mb) r = ma - mb;
    else { r = mb - ma; s = sb; }
    if (r == 0ul) return 0u;
  }
  if (!isH) return p2g_rnd32(s, r, x, 5, false);
  uint w = p2g_rnd32(s, r, x, 4, false) & 0x7FFFFFFFu;  // normal: texel values are 2^-24 * weight / 256 or more
  int E = int(w >> 23) - 127;
  int lsb = max(E - 10, -24);
  uint sh = uint(lsb - (E - 23));  // 13 or more
  uint m = (w & 0x7FFFFFu) | 0x800000u;
  uint q = sh >= 32u ? 0u : (m >> sh);
  uint rem = sh >= 32u ? m : (m & ((1u << sh) - 1u));
  uint hlf = sh >= 32u ? 0xFFFFFFFFu : (1u << (sh - 1u));
  if (rem >= hlf && sh < 32u) q += 1u;
  if (q == 0u) return s << 31;
  int k = findMSB(q), V = lsb + k;
  if (V >= 16) return (s << 31) | 0x7F800000u;
  return (s << 31) | (uint(V + 127) << 23) | ((q << uint(23 - k)) & 0x7FFFFFu);
}

// tex with float coordinates: point sampling, or linear filtering. Linear filtering (measured on the H200,
// docs/TEXTURES.md "Measured"; the fits: ptx_corpus/tex/tools/filter_fit.cpp):
// - the position with 8 fractional bits (p2g_tex_lin); under the clamp address mode it is held to [0, size - 1]
//   per axis, so a clamped axis has fraction 0 (which matters for 3D weights: tex_filter_more u3d 4096/4096 with
//   it, 3614 without);
// - weights per slice by p2g_tex_wslice (1D and 2D: one slice; 3D: the z0 slice with share 256 - az, z1 with az);
// - unorm8: the integer sum S = sum w * byte becomes a 16-bit unorm u = S + round(S / 256) (= round(S * 257 /
//   256), ties up) and the result is the correctly rounded f32 of u / 65535 (tex2d_linear u8Clamp 8192/8192; S /
//   65280 rounded once 5301);
// - f16 and f32: each slice aligned and summed exactly by p2g_tex_slice (in 3D each slice with its own exponent:
//   h3d/f3d 4096/4096, one exponent for all eight taps 4090/4084), the slices added exactly and rounded once
//   (p2g_tex_fin), to f16 for f16 formats, to f32 otherwise, ties away from zero; integer code only.
// Results are bits (f32 for float and unorm formats). `layer` selects the slice of a layered texture (clamped to
// the layers there are). Taps are spelled out rather than indexed: llvmpipe lowers indexed local arrays to
// if-ladders.
uvec4 p2g_tex(uint64_t h, uint s, vec3 c, int layer, uint dims) {
  P2GImage d = P2GImage(h);
  P2GImgState st = p2g_img_state(d, s);
  int zl = (st.flags & 1u) != 0u ? clamp(layer, 0, int(d.depth) - 1) : 0;
  int64_t px = p2g_tex_pos(c.x, d.width, st.normalized, st.addr0);
  int64_t py = dims > 1u ? p2g_tex_pos(c.y, d.height, st.normalized, st.addr1) : int64_t(0);
  int64_t pz = dims > 2u ? p2g_tex_pos(c.z, d.depth, st.normalized, st.addr2) : int64_t(0);
  if (st.filterMode != 1u) {
    int z = dims > 2u ? int(pz >> P2G_TEX_FIX_BITS) : zl;
    return p2g_tex_tap(d, st, int(px >> P2G_TEX_FIX_BITS), int(py >> P2G_TEX_FIX_BITS), z, dims, false);
  }
  int qx = p2g_tex_lin(px), qy = dims > 1u ? p2g_tex_lin(py) : 0, qz = dims > 2u ? p2g_tex_lin(pz) : zl << 8;
  // A 1D texture is filtered as a 2D one of height 1 sampled at y = 0, i.e. half a texel above its row: under the
  // border mode the row above is the border colour (0) with weight 1/2, which halves every linear sample
  // (ptx_corpus/outside/tex_coord_range_1d nBorderL, uBorderL: 0.25 between texels 0 and 1, 63.75 between 127 and
  // 128 on the H200); under the other modes that row is the same texel and nothing changes. Layered 1D: unmeasured.
  bool halfBorder = dims == 1u && (st.flags & 1u) == 0u && st.addr1 == 3u;
  if (halfBorder) qy = -128;
  if (st.addr0 == 1u) qx = clamp(qx, 0, int(d.width - 1u) << 8);
  if (dims > 1u && st.addr1 == 1u) qy = clamp(qy, 0, int(d.height - 1u) << 8);
  if (dims > 2u && st.addr2 == 1u) qz = clamp(qz, 0, int(d.depth - 1u) << 8);
  int x = qx >> 8, y = qy >> 8, z = qz >> 8;
  int ax = qx & 255, ay = qy & 255, az = qz & 255;
  ivec4 wa = p2g_tex_wslice(ax, ay, 256 - az), wb = az != 0 ? p2g_tex_wslice(ax, ay, az) : ivec4(0);
  // The taps as stored. Those of the first slice are read whatever their weight (a tap of weight 0 adds nothing:
  // p2g_tex_emax, p2g_tex_inf and the sums skip it or multiply it by 0), which beats a test per tap on NVIDIA
  // (docs/GPU_BENCH.md, 2026-12-06); after the address mode each lies inside the image, but for the row below a 1D
  // texture's (y + 1 = 1 of a texture one row high: weight 0, not read).
  uvec4 z4 = uvec4(0u);
  bool row1 = dims > 1u || halfBorder;
  uvec4 a0 = !halfBorder ? p2g_tex_tap(d, st, x, y, z, dims, true) : z4;
  uvec4 a1 = !halfBorder ? p2g_tex_tap(d, st, x + 1, y, z, dims, true) : z4;
  uvec4 a2 = row1 ? p2g_tex_tap(d, st, x, y + 1, z, dims, true) : z4;
  uvec4 a3 = row1 ? p2g_tex_tap(d, st, x + 1, y + 1, z, dims, true) : z4;
  uvec4 b0 = wb.x != 0 ? p2g_tex_tap(d, st, x, y, z + 1, dims, true) : z4;
  uvec4 b1 = wb.y != 0 ? p2g_tex_tap(d, st, x + 1, y, z + 1, dims, true) : z4;
  uvec4 b2 = wb.z != 0 ? p2g_tex_tap(d, st, x, y + 1, z + 1, dims, true) : z4;
  uvec4 b3 = wb.w != 0 ? p2g_tex_tap(d, st, x + 1, y + 1, z + 1, dims, true) : z4;
  if (st.format <= 2u) {  // unorm8
    uvec4 S = uvec4(wa.x) * a0 + uvec4(wa.y) * a1 + uvec4(wa.z) * a2 + uvec4(wa.w) * a3 + uvec4(wb.x) * b0 +
              uvec4(wb.y) * b1 + uvec4(wb.z) * b2 + uvec4(wb.w) * b3;
    uvec4 u = min(S + ((S + 128u) >> 8), uvec4(65535u));
    return uvec4(p2g_tex_unorm(u.x, 16), p2g_tex_unorm(u.y, 16), p2g_tex_unorm(u.z, 16), p2g_tex_unorm(u.w, 16));
  }
  bool isH = st.format <= 5u;
  if (isH && wb == ivec4(0)) return p2g_tex_lin16(a0, a1, a2, a3, wa);  // f16 texels, one slice: f32 arithmetic
  uvec4 inf = p2g_tex_inf(a0, a1, a2, a3, wa, isH) | p2g_tex_inf(b0, b1, b2, b3, wb, isH);
  uvec4 r;
  ivec4 ea, eb = ivec4(0);
  i64vec4 va = p2g_tex_slice(a0, a1, a2, a3, wa, isH, ea);
  i64vec4 vb = wb != ivec4(0) ? p2g_tex_slice(b0, b1, b2, b3, wb, isH, eb) : i64vec4(0);
  for (int i = 0; i < 4; ++i) {
    uint f = inf[i];
    r[i] = f == 0u ? p2g_tex_fin(va[i], ea[i], vb[i], eb[i], isH) : p2g_tex_infsum(f);
  }
  return r;
}

// tex with integer coordinates: the texel at those indices. Outside the image the result is 0 whatever the
// address mode (measured for clamp and border: tex2d_intcoord); a layered texture's layer is clamped.
uvec4 p2g_texi(uint64_t h, uint s, ivec3 c, int layer, uint dims) {
  P2GImage d = P2GImage(h);
  P2GImgState st = p2g_img_state(d, s);
  int z = (st.flags & 1u) != 0u ? clamp(layer, 0, int(d.depth) - 1) : c.z;
  bool outside = c.x < 0 || c.x >= int(d.width) || (dims > 1u && (c.y < 0 || c.y >= int(d.height))) ||
             (dims > 2u && (z < 0 || z >= int(d.depth)));
  return outside ? uvec4(0u)
                 : p2g_img_texel(d, st, c.x, dims > 1u ? c.y : 0, dims > 2u || (st.flags & 1u) != 0u ? z : 0, false);
}

// tld4 (tex2Dgather): component `comp` of the 2x2 footprint linear filtering would use, in the order
// (i0, j1), (i1, j1), (i1, j0), (i0, j0) (PTX ISA "tld4").
uvec4 p2g_tld4(uint64_t h, uint s, vec2 c, int layer, uint comp) {
  P2GImage d = P2GImage(h);
  P2GImgState st = p2g_img_state(d, s);
  int z = (st.flags & 1u) != 0u ? clamp(layer, 0, int(d.depth) - 1) : 0;
  int x = p2g_tex_lin(p2g_tex_pos(c.x, d.width, st.normalized, st.addr0)) >> 8;
  int y = p2g_tex_lin(p2g_tex_pos(c.y, d.height, st.normalized, st.addr1)) >> 8;
  return uvec4(p2g_tex_tap(d, st, x, y + 1, z, 2u, false)[comp], p2g_tex_tap(d, st, x + 1, y + 1, z, 2u, false)[comp],
               p2g_tex_tap(d, st, x + 1, y, z, 2u, false)[comp], p2g_tex_tap(d, st, x, y, z, 2u, false)[comp]);
}
)";

const char* kQuery = R"(
// txq/suq: 0 width, 1 height, 2 depth, 3 normalized_coords, 4 filter_mode, 5..7 addr_mode_0..2, 8 array_size,
// 9 num_mipmap_levels. Address modes in PTX's numbering (wrap 0, mirror 1, clamp_to_edge 3, clamp_to_border 4).
uint p2g_txq_addr(uint m) { return m == 0u ? 0u : m == 1u ? 3u : m == 2u ? 1u : 4u; }
uint p2g_txq(uint64_t h, uint s, uint what) {
  P2GImage d = P2GImage(h);
  P2GImgState st = p2g_img_state(d, s);
  bool layered = (st.flags & 1u) != 0u;
  switch (what) {
    case 0u: return d.width;
    case 1u: return d.height;
    // depth: measured on the H200 (tex/txq_dims): 0 for 1D/2D textures and 2D surfaces, the layer count for a
    // layered texture, the depth of a 3D image.
    case 2u: return layered || ((st.flags >> 8) & 0xFFu) == 3u ? d.depth : 0u;
    case 3u: return st.normalized;
    case 4u: return st.filterMode;
    case 5u: return p2g_txq_addr(st.addr0);
    case 6u: return p2g_txq_addr(st.addr1);
    case 7u: return p2g_txq_addr(st.addr2);
    case 8u: return layered ? d.depth : 1u;
    default: return 1u;
  }
}
)";

const char* kSurfHelpers = R"(
// suld.b/sust.b: the byte offset of an access of `n` components of `cb` bytes at byte x. False when the access must
// not happen (.trap and .zero out of range: mode 0/2); .clamp (mode 1) moves it to the nearest texel. The offset is
// aligned down to the component size (on the H100 a misaligned .b16 store is an error instead: docs/TEXTURES.md).
bool p2g_surf_off(uint64_t h, uint s, ivec3 c, int layer, uint dims, uint cb, uint n, uint mode, out uint off) {
  P2GImage d = P2GImage(h);
  P2GImgState st = p2g_img_state(d, s);
  bool layered = (st.flags & 1u) != 0u;
  int wb = int(d.width * (st.cbytes * st.channels)), size = int(cb * n);
  int hh = dims > 1u ? int(d.height) : 1;
  int zn = (layered || dims > 2u) ? int(d.depth) : 1;
  int x = c.x, y = dims > 1u ? c.y : 0, z = layered ? layer : dims > 2u ? c.z : 0;
  off = 0u;
  if (!(x >= 0 && x + size <= wb && y >= 0 && y < hh && z >= 0 && z < zn)) {
    if (mode != 1u) return false;
    x = clamp(x, 0, wb - size);
    y = clamp(y, 0, hh - 1);
    z = clamp(z, 0, zn - 1);
  }
  off = uint(z) * d.slicePitch + uint(y) * d.rowPitch + (uint(x) & ~(cb - 1u));
  return true;
}

uint p2g_surf_ld(uint64_t h, uint off, uint cb) {
  uint w = P2GU32(P2GImage(h).texels + uint64_t(off & ~3u)).v;
  return cb >= 4u ? w : bitfieldExtract(w, int((off & 3u) * 8u), int(cb * 8u));
}

uint64_t p2g_surf_ld64(uint64_t h, uint off) {
  uint64_t a = P2GImage(h).texels + uint64_t(off);
  return packUint2x32(uvec2(P2GU32(a).v, P2GU32(a + 4ul).v));
}

void p2g_surf_st(uint64_t h, uint off, uint cb, uint v) {
  uint64_t a = P2GImage(h).texels + uint64_t(off);
  // a store of the component's own width (8/16-bit storage): the neighbours' bytes in the same word are not
  // touched, so no atomics (an atomicAnd and atomicOr per 8/16-bit component before, 2026-12-03)
  if (cb >= 4u) P2GU32(a).v = v;
  else if (cb == 2u) P2GU16(a).v = uint16_t(v);
  else P2GU8(a).v = uint8_t(v);
}

void p2g_surf_st64(uint64_t h, uint off, uint64_t v) {
  uint64_t a = P2GImage(h).texels + uint64_t(off);
  uvec2 p = unpackUint2x32(v);
  P2GU32(a).v = p.x;
  P2GU32(a + 4ul).v = p.y;
}

// suld.b/sust.b of one component: the load gives 0 where the access must not happen, the store does nothing there
uint p2g_suld(uint64_t h, uint s, ivec3 c, int layer, uint dims, uint cb, uint mode) {
  uint off;
  if (!p2g_surf_off(h, s, c, layer, dims, cb, 1u, mode, off)) return 0u;
  return p2g_surf_ld(h, off, cb);
}
uint64_t p2g_suld64(uint64_t h, uint s, ivec3 c, int layer, uint dims, uint mode) {
  uint off;
  if (!p2g_surf_off(h, s, c, layer, dims, 8u, 1u, mode, off)) return 0ul;
  return p2g_surf_ld64(h, off);
}
void p2g_sust(uint64_t h, uint s, ivec3 c, int layer, uint dims, uint cb, uint mode, uint v) {
  uint off;
  if (p2g_surf_off(h, s, c, layer, dims, cb, 1u, mode, off)) p2g_surf_st(h, off, cb, v);
}
// ... and of n = 2 or 4 components of at most 32 bits (v.x first; no loop: lavapipe's loop budget counts loops)
uvec4 p2g_suldv(uint64_t h, uint s, ivec3 c, int layer, uint dims, uint cb, uint n, uint mode) {
  uint off;
  if (!p2g_surf_off(h, s, c, layer, dims, cb, n, mode, off)) return uvec4(0u);
  uvec4 v = uvec4(p2g_surf_ld(h, off, cb), p2g_surf_ld(h, off + cb, cb), 0u, 0u);
  if (n > 2u) v.zw = uvec2(p2g_surf_ld(h, off + 2u * cb, cb), p2g_surf_ld(h, off + 3u * cb, cb));
  return v;
}
void p2g_sustv(uint64_t h, uint s, ivec3 c, int layer, uint dims, uint cb, uint n, uint mode, uvec4 v) {
  uint off;
  if (!p2g_surf_off(h, s, c, layer, dims, cb, n, mode, off)) return;
  // 8/16-bit components that fill whole 32-bit words from a word boundary (v2/v4.b16, v4.b8): one 32-bit store per
  // word, the same bytes. On NVIDIA's Vulkan driver 16-bit stores are slow: K's 16-bit surface stores were 6.7 of
  // its 11.6 ms native, and a pair of them as one 32-bit store took 80 % of the pair's cost away (docs/GPU_BENCH.md,
  // 2026-12-04).
  if (cb < 4u && cb * n >= 4u && (off & 3u) == 0u) {
    uint64_t a = P2GImage(h).texels + uint64_t(off);
    if (cb == 2u) {
      P2GU32(a).v = (v.x & 0xFFFFu) | ((v.y & 0xFFFFu) << 16);
      if (n > 2u) P2GU32(a + 4ul).v = (v.z & 0xFFFFu) | ((v.w & 0xFFFFu) << 16);
    } else {
      P2GU32(a).v = (v.x & 0xFFu) | ((v.y & 0xFFu) << 8) | ((v.z & 0xFFu) << 16) | ((v.w & 0xFFu) << 24);
    }
    return;
  }
  p2g_surf_st(h, off, cb, v.x);
  p2g_surf_st(h, off + cb, cb, v.y);
  if (n > 2u) {
    p2g_surf_st(h, off + 2u * cb, cb, v.z);
    p2g_surf_st(h, off + 3u * cb, cb, v.w);
  }
}
// Two scalar 16-bit stores paired by passes/pair_sust: va at c, vb at byte xb of the same row. One 32-bit word
// where xb is c.x + 2, both texels are inside the image and the word is aligned (16-bit stores are slow on NVIDIA:
// docs/GPU_BENCH.md "Paired 16-bit surface stores"); otherwise the two stores in their order, as PTX has them. The
// range test uses the .zero rule (false outside) whatever the mode: inside, every mode stores the same bytes.
void p2g_sust2(uint64_t h, uint s, ivec3 c, int layer, uint dims, int xb, uint mode, uint va, uint vb) {
  uint off;
  if (xb == c.x + 2 && p2g_surf_off(h, s, c, layer, dims, 2u, 2u, 2u, off) && (off & 3u) == 0u) {
    P2GU32(P2GImage(h).texels + uint64_t(off)).v = (va & 0xFFFFu) | ((vb & 0xFFFFu) << 16);
    return;
  }
  p2g_sust(h, s, c, layer, dims, 2u, mode, va);
  p2g_sust(h, s, ivec3(xb, c.y, c.z), layer, dims, 2u, mode, vb);
}
void p2g_sust64(uint64_t h, uint s, ivec3 c, int layer, uint dims, uint mode, uint64_t v) {
  uint off;
  if (p2g_surf_off(h, s, c, layer, dims, 8u, 1u, mode, off)) p2g_surf_st64(h, off, v);
}
)";

}  // namespace

std::string texturePrelude(bool textures, bool surfaces) {
  if (!textures && !surfaces) return "";
  std::string s = kRecord;
  s += kQuery;
  if (textures) {
    s += "const int P2G_TEX_FIX_BITS = " + std::to_string(kFixBits) + ";  // see tex_prelude.cpp\n";
    s += kTexHelpers;
  }
  if (surfaces) s += kSurfHelpers;
  return s;
}

}  // namespace p2g

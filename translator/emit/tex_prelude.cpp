// The GLSL helpers of texture and surface instructions (emit_tex.cpp), written once per shader that uses them.
//
// Exact mode does what NVIDIA's texture unit does in integer and double arithmetic, reading texels as bytes through
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
)";

const char* kTexHelpers = R"(
// f16 bits -> f32 bits, exactly, in integer code (subnormal halves become normal floats; NaN payloads kept).
uint p2g_tex_h2f(uint h) {
  uint s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0x1Fu) return s | 0x7F800000u | (m << 13);
  if (e != 0u) return s | ((e + 112u) << 23) | (m << 13);
  if (m == 0u) return s;
  int p = findMSB(m);
  return s | (uint(p + 103) << 23) | ((m << uint(23 - p)) & 0x7FFFFFu);
}

// double -> f32 bits, round to nearest with ties away from zero (what the texture unit does), in integer code (no device conversion, whose rounding Vulkan leaves
// open, and no denormal flush: subnormal results come out exactly).
uint p2g_tex_d2f(double v) {
  uint64_t w = doubleBitsToUint64(v);
  uint s = uint(w >> 63) << 31;
  int e = int((w >> 52) & 0x7FFul);
  uint64_t f = w & 0xFFFFFFFFFFFFFul;
  if (e == 0x7FF) return f != 0ul ? 0x7FFFFFFFu : (s | 0x7F800000u);
  if (e == 0) return s;
  int E = e - 896;  // the f32 biased exponent
  int sh = 29 + (E >= 1 ? 0 : 1 - E);
  if (sh > 60) return s;
  uint64_t m = f | (1ul << 52);
  uint64_t q = m >> uint(sh), r = m & ((1ul << uint(sh)) - 1ul), hw = 1ul << uint(sh - 1);
  if (r >= hw) q += 1ul;  // ties away from zero, as the texture unit rounds (tex2d_linear)
  if (E < 1) return s | uint(q);
  if (E >= 255) return s | 0x7F800000u;
  uint bits = (uint(E) << 23) + uint(q - (1ul << 23));
  return s | min(bits, 0x7F800000u);
}

// An 8-bit unorm channel as the correctly rounded f32 of b / 255 (CUDA's normalized-float read mode), in integer
// code: no device division (2.5 ulp in Vulkan), and no lookup table (llvmpipe turns indexed constant arrays into
// if-ladders, which made shaders with many fetches take minutes to compile). Checked against b / 255.0f for all b
// in tests/textures.
uint p2g_unorm8(uint b) {
  if (b == 0u) return 0u;
  if (b == 255u) return 0x3F800000u;
  int p = findMSB(b);
  int e = (b << uint(7 - p)) >= 255u ? p - 7 : p - 8;  // 2^e <= b / 255 < 2^(e+1)
  uint64_t n = uint64_t(b) << uint(23 - e);
  uint64_t q = n / 255ul, r = n - q * 255ul;
  if (r * 2ul > 255ul) q += 1ul;
  if (q == (1ul << 24)) {
    q = 1ul << 23;
    e += 1;
  }
  return (uint(e + 127) << 23) | uint(q - (1ul << 23));
}

// One channel of the texel at byte `off`: unorm8 and f16 channels as f32 bits, f32 and integer channels as stored.
uint p2g_img_chan(P2GImage d, uint off, uint c) {
  uint cb = d.texelBytes / d.channels;
  uint o = off + c * cb;
  uint w = P2GU32(d.texels + uint64_t(o & ~3u)).v;
  if (cb == 4u) return w;
  uint v = bitfieldExtract(w, int((o & 3u) * 8u), int(cb * 8u));
  return cb == 1u ? p2g_unorm8(v) : p2g_tex_h2f(v);
}

// The texel at in-range coordinates. Channels the format lacks read as 0, alpha included (measured: an r32f
// texture gives (r, 0, 0, 0), ptx_corpus/tex/tex2d_point).
uvec4 p2g_img_texel(P2GImage d, int x, int y, int z) {
  uint off = uint(z) * d.slicePitch + uint(y) * d.rowPitch + uint(x) * d.texelBytes;
  uvec4 r = uvec4(0u);
  r.x = p2g_img_chan(d, off, 0u);
  if (d.channels > 1u) r.y = p2g_img_chan(d, off, 1u);
  if (d.channels > 2u) {
    r.z = p2g_img_chan(d, off, 2u);
    r.w = p2g_img_chan(d, off, 3u);
  }
  return r;
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
int64_t p2g_tex_pos(float x, uint n, uint normalized) {
  float v = (isnan(x) || abs(x) < 1.17549435e-38) ? 0.0 : clamp(x, -4194304.0, 4194304.0);
  int64_t f = int64_t(floor(v * float(1 << P2G_TEX_FIX_BITS)));  // a power-of-two scale: exact
  return normalized != 0u ? f * int64_t(n) : f;
}

// Linear filtering's position: half a texel back, then to 8 fractional bits rounded to nearest (ties up); the
// low 8 bits are the weight of the upper texel (measured: 20353 of 20481 weights round to nearest).
int p2g_tex_lin(int64_t p) {
  const int64_t hf = int64_t(1) << (P2G_TEX_FIX_BITS - 1), r = int64_t(1) << (P2G_TEX_FIX_BITS - 9);
  return int((p - hf + r) >> (P2G_TEX_FIX_BITS - 8));
}

// round(p / 2^s), ties to even, for a non-negative p: a 2D/3D weight product back to 8 fractional bits.
int p2g_tex_qw(int p, int s) {
  if (s == 0) return p;
  int q = p >> s, r = p & ((1 << s) - 1), hw = 1 << (s - 1);
  return (r > hw || (r == hw && (q & 1) != 0)) ? q + 1 : q;
}

// A double rounded to the nearest f16 value (ties away from zero, subnormal halves, overflow to infinity), as a double:
// filtering an f16 texture returns f16 precision (tex2d_linear: results of 1D footprints are the exact sums
// rounded to f16).
double p2g_tex_round_h(double v) {
  uint64_t w = doubleBitsToUint64(v);
  int e = int((w >> 52) & 0x7FFul);
  if (e == 0x7FF) return v;
  bool neg = (w >> 63) != 0ul;
  int E = e - 1023;
  int sh = 42 + max(0, -14 - E);  // the f16 quantum is 2^(E-10), or 2^-24 for subnormal halves
  if (e == 0 || sh > 53) return neg ? -0.0lf : 0.0lf;
  uint64_t m = (w & 0xFFFFFFFFFFFFFul) | (1ul << 52);
  uint64_t q = m >> uint(sh), r = m & ((1ul << uint(sh)) - 1ul), hw = 1ul << uint(sh - 1);
  if (r >= hw) q += 1ul;  // ties away from zero (tex2d_linear)
  precise double a = double(q << uint(sh)) * uint64BitsToDouble(uint64_t(E - 52 + 1023) << 52);
  if (a >= 65520.0lf) a = uint64BitsToDouble(0x7FF0000000000000ul);
  return neg ? -a : a;
}

// One tap: address modes per axis, then the texel; border taps are the border colour (0, 0, 0, 0).
uvec4 p2g_tex_tap(P2GImage d, int x, int y, int z, uint dims) {
  x = p2g_tex_address(x, int(d.width), d.addr0);
  if (dims > 1u) y = p2g_tex_address(y, int(d.height), d.addr1);
  if (dims > 2u) z = p2g_tex_address(z, int(d.depth), d.addr2);
  if (x < 0 || y < 0 || z < 0) return uvec4(0u);
  return p2g_img_texel(d, x, y, z);
}

// tex with float coordinates: point sampling, or linear filtering with 8-bit weights (256 - a, a) per axis. In
// 2D (3D) the weight products are rounded back to 8 fractional bits, ties to even (solved from tex2d_linear's
// four-channel samples); the weighted sum is exact (in double) and rounded once: to f16 for f16 formats, else to
// f32. Results are bits (f32 for float and unorm formats). `layer` selects the slice of a layered texture
// (clamped to the layers there are). Axes are spelled out rather than indexed: llvmpipe lowers indexed local
// arrays to if-ladders.
uvec4 p2g_tex(uint64_t h, vec3 c, int layer, uint dims) {
  P2GImage d = P2GImage(h);
  int zl = (d.flags & 1u) != 0u ? clamp(layer, 0, int(d.depth) - 1) : 0;
  int64_t px = p2g_tex_pos(c.x, d.width, d.normalized);
  int64_t py = dims > 1u ? p2g_tex_pos(c.y, d.height, d.normalized) : int64_t(0);
  int64_t pz = dims > 2u ? p2g_tex_pos(c.z, d.depth, d.normalized) : int64_t(0);
  if (d.filterMode != 1u) {
    int z = dims > 2u ? int(pz >> P2G_TEX_FIX_BITS) : zl;
    return p2g_tex_tap(d, int(px >> P2G_TEX_FIX_BITS), int(py >> P2G_TEX_FIX_BITS), z, dims);
  }
  int qx = p2g_tex_lin(px), qy = dims > 1u ? p2g_tex_lin(py) : 0, qz = dims > 2u ? p2g_tex_lin(pz) : zl << 8;
  int x = qx >> 8, y = qy >> 8, z = qz >> 8;
  int ax = qx & 255, ay = qy & 255, az = qz & 255;
  precise dvec4 acc = dvec4(0.0lf);
  int taps = dims == 1u ? 2 : dims == 2u ? 4 : 8;
  for (int t = 0; t < taps; ++t) {
    int w = (t & 1) != 0 ? ax : 256 - ax;
    if (dims > 1u) w *= (t & 2) != 0 ? ay : 256 - ay;
    if (dims > 2u) w *= (t & 4) != 0 ? az : 256 - az;
    w = p2g_tex_qw(w, 8 * (int(dims) - 1));
    if (w == 0) continue;
    uvec4 v = p2g_tex_tap(d, x + (t & 1), y + ((t >> 1) & 1), z + ((t >> 2) & 1), dims);
    acc += double(w) * dvec4(uintBitsToFloat(v));
  }
  precise dvec4 r = acc * (1.0lf / 256.0lf);
  if (d.format >= 3u && d.format <= 5u)
    r = dvec4(p2g_tex_round_h(r.x), p2g_tex_round_h(r.y), p2g_tex_round_h(r.z), p2g_tex_round_h(r.w));
  return uvec4(p2g_tex_d2f(r.x), p2g_tex_d2f(r.y), p2g_tex_d2f(r.z), p2g_tex_d2f(r.w));
}

// tex with integer coordinates: the texel at those indices. Outside the image the result is 0 whatever the
// address mode (measured for clamp and border: tex2d_intcoord); a layered texture's layer is clamped.
uvec4 p2g_texi(uint64_t h, ivec3 c, int layer, uint dims) {
  P2GImage d = P2GImage(h);
  int z = (d.flags & 1u) != 0u ? clamp(layer, 0, int(d.depth) - 1) : c.z;
  bool outside = c.x < 0 || c.x >= int(d.width) || (dims > 1u && (c.y < 0 || c.y >= int(d.height))) ||
             (dims > 2u && (z < 0 || z >= int(d.depth)));
  return outside ? uvec4(0u) : p2g_img_texel(d, c.x, dims > 1u ? c.y : 0, dims > 2u || (d.flags & 1u) != 0u ? z : 0);
}

// tld4 (tex2Dgather): component `comp` of the 2x2 footprint linear filtering would use, in the order
// (i0, j1), (i1, j1), (i1, j0), (i0, j0) (PTX ISA "tld4").
uvec4 p2g_tld4(uint64_t h, vec2 c, int layer, uint comp) {
  P2GImage d = P2GImage(h);
  int z = (d.flags & 1u) != 0u ? clamp(layer, 0, int(d.depth) - 1) : 0;
  int x = p2g_tex_lin(p2g_tex_pos(c.x, d.width, d.normalized)) >> 8;
  int y = p2g_tex_lin(p2g_tex_pos(c.y, d.height, d.normalized)) >> 8;
  return uvec4(p2g_tex_tap(d, x, y + 1, z, 2u)[comp], p2g_tex_tap(d, x + 1, y + 1, z, 2u)[comp],
               p2g_tex_tap(d, x + 1, y, z, 2u)[comp], p2g_tex_tap(d, x, y, z, 2u)[comp]);
}
)";

const char* kQuery = R"(
// txq/suq: 0 width, 1 height, 2 depth, 3 normalized_coords, 4 filter_mode, 5..7 addr_mode_0..2, 8 array_size,
// 9 num_mipmap_levels. Address modes in PTX's numbering (wrap 0, mirror 1, clamp_to_edge 3, clamp_to_border 4).
uint p2g_txq_addr(uint m) { return m == 0u ? 0u : m == 1u ? 3u : m == 2u ? 1u : 4u; }
uint p2g_txq(uint64_t h, uint what) {
  P2GImage d = P2GImage(h);
  bool layered = (d.flags & 1u) != 0u;
  switch (what) {
    case 0u: return d.width;
    case 1u: return d.height;
    case 2u: return layered ? 1u : d.depth;
    case 3u: return d.normalized;
    case 4u: return d.filterMode;
    case 5u: return p2g_txq_addr(d.addr0);
    case 6u: return p2g_txq_addr(d.addr1);
    case 7u: return p2g_txq_addr(d.addr2);
    case 8u: return layered ? d.depth : 1u;
    default: return 1u;
  }
}
)";

const char* kSurfHelpers = R"(
// suld.b/sust.b: the byte offset of an access of `n` components of `cb` bytes at byte x. False when the access must
// not happen (.trap and .zero out of range: mode 0/2); .clamp (mode 1) moves it to the nearest texel. The offset is
// aligned down to the component size (hypothesis: the hardware ignores those address bits; docs/TEXTURES.md).
bool p2g_surf_off(uint64_t h, ivec3 c, int layer, uint dims, uint cb, uint n, uint mode, out uint off) {
  P2GImage d = P2GImage(h);
  bool layered = (d.flags & 1u) != 0u;
  int wb = int(d.width * d.texelBytes), size = int(cb * n);
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
  uint64_t a = P2GImage(h).texels + uint64_t(off & ~3u);
  if (cb >= 4u) {
    P2GU32(a).v = v;
    return;
  }
  // Other threads may be writing the other bytes of this word right now: clear and set only ours, atomically.
  uint sh = (off & 3u) * 8u;
  uint m = ((1u << (cb * 8u)) - 1u) << sh;
  atomicAnd(P2GU32(a).v, ~m);
  atomicOr(P2GU32(a).v, (v << sh) & m);
}

void p2g_surf_st64(uint64_t h, uint off, uint64_t v) {
  uint64_t a = P2GImage(h).texels + uint64_t(off);
  uvec2 p = unpackUint2x32(v);
  P2GU32(a).v = p.x;
  P2GU32(a + 4ul).v = p.y;
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

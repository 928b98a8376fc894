// The integer and f32 forms of texture helpers (translator/emit/tex_prelude.cpp) against the forms they replaced,
// over every input they can meet, or (for four taps) every weight split with edge and random texels:
// - p2g_tex_unorm (v / (2^b - 1) correctly rounded, by the periodic bit pattern instead of a 64-bit division) for
//   b = 8 and 16;
// - the 32-bit rounding of one slice of f16 texels to f16 precision with ties away (the former p2g_tex_fin16)
//   against the 64-bit p2g_tex_fin, for every |S| < 2^23 and every exponent em = 1..30;
// - p2g_tex_lin16's f32 rounding step (R = S * 2^(em - 37) as an f32, rounded on its bits) against that, for the same
//   S and em;
// - p2g_tex_lin16 whole (f32 arithmetic, both ways of reading an f16 texel) against the 32-bit integer slice sum
//   (the former p2g_tex_slice16 with p2g_tex_align and p2g_tex_emax) and rounding: every (ax, ay) weight split of
//   p2g_tex_wslice with 96 tap sets (zeros, subnormals, the largest halves, mixed exponents and signs, random), and
//   4,000,000 random ones.
// Each form is written here in C++ as the GLSL spells it; the GLSL itself is checked on lavapipe by tests/textures
// and the texture cases of ptx_corpus (against the bytes of NVIDIA's GPUs). Exit status 1 on any difference.
#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <initializer_list>
#include <vector>

namespace {
int msb32(uint32_t v) { return 31 - __builtin_clz(v); }
int msb(uint32_t v) { return msb32(v); }
uint32_t oldU(uint32_t v, int bits) {
  uint32_t den = (1u << bits) - 1u;
  if (v == 0u) return 0u;
  if (v >= den) return 0x3F800000u;
  int p = msb(v);
  int e = (v << (bits - 1 - p)) >= den ? p - bits + 1 : p - bits;
  uint64_t n = uint64_t(v) << (23 - e);
  uint64_t q = n / den, r = n - q * den;
  if (r * 2 > den) q += 1;
  if (q == (1ull << 24)) { q = 1ull << 23; e += 1; }
  return (uint32_t(e + 127) << 23) | uint32_t(q - (1ull << 23));
}
uint32_t newU(uint32_t v, int bits) {
  uint32_t den = (1u << bits) - 1u;
  if (v == 0u) return 0u;
  if (v >= den) return 0x3F800000u;
  int p = msb(v);
  uint32_t o = uint32_t(bits - 1 - p);
  uint32_t rep = bits == 8 ? v * 0x01010101u : (v << 16) | v;
  uint32_t w = (rep << o) | (v >> (uint32_t(bits) - o));
  uint32_t q = (w >> 8) + ((w >> 7) & 1u);
  return (uint32_t(p - bits + 126) << 23) + q;
}
static int len64(uint64_t x){ uint32_t hi = uint32_t(x>>32); return hi ? 33 + msb32(hi) : (uint32_t(x) ? msb32(uint32_t(x)) + 1 : 0); }
uint32_t rnd32(uint32_t s, uint64_t r, int x1, int mode, bool ftz) {
  int top = x1 + len64(r) - 1; int lsb = top - 23; if (!ftz) lsb = std::max(lsb, -149);
  int sh = lsb - x1; uint64_t q;
  if (sh <= 0) q = r << uint32_t(-sh);
  else { uint64_t rem, hlf;
    if (sh >= 64) { q = 0; rem = r; hlf = 0x8000000000000000ull; } else { q = r >> sh; rem = r - (q << sh); hlf = 1ull << (sh - 1); }
    bool up = mode == 0 ? (rem > hlf || (rem == hlf && (q & 1))) : mode == 5 ? rem >= hlf : (rem != 0 && ((mode == 2 && s == 1) || (mode == 3 && s == 0)));
    if (up) q += 1;
    if (mode == 4 && rem != 0) q |= 1;
  }
  if (lsb < -149) return (s << 31) | ((lsb == -150 && q == 0x1000000ull) ? 0x00800000u : 0u);
  uint64_t bits = (uint64_t(lsb + 149) << 23) + q;
  if (bits >= 0x7F800000ull) { bool toInf = mode == 0 || mode == 5 || (mode == 2 && s == 1) || (mode == 3 && s == 0); return (s << 31) | (toInf ? 0x7F800000u : 0x7F7FFFFFu); }
  return (s << 31) | uint32_t(bits);
}
uint32_t oldFin(int64_t Sa, int ea) {  // p2g_tex_fin with Sb = 0, isH
  uint32_t sa = Sa < 0 ? 1 : 0; uint64_t ma = uint64_t(Sa < 0 ? -Sa : Sa);
  if (ma == 0) return 0u;
  uint32_t s = sa; uint64_t r = ma; int x = ea;
  uint32_t w = rnd32(s, r, x, 4, false) & 0x7FFFFFFFu;
  int E = int(w >> 23) - 127; int lsb = std::max(E - 10, -24); uint32_t sh = uint32_t(lsb - (E - 23));
  uint32_t m = (w & 0x7FFFFFu) | 0x800000u;
  uint32_t q = sh >= 32 ? 0 : (m >> sh); uint32_t rem = sh >= 32 ? m : (m & ((1u << sh) - 1u)); uint32_t hlf = sh >= 32 ? 0xFFFFFFFFu : (1u << (sh - 1u));
  if (rem >= hlf && sh < 32) q += 1;
  if (q == 0) return s << 31;
  int k = msb32(q), V = lsb + k;
  if (V >= 16) return (s << 31) | 0x7F800000u;
  return (s << 31) | (uint32_t(V + 127) << 23) | ((q << uint32_t(23 - k)) & 0x7FFFFFu);
}
uint32_t newFin(int S, int x) {
  if (S == 0) return 0u;
  uint32_t s = S < 0 ? 0x80000000u : 0u, r = uint32_t(S < 0 ? -S : S);
  int lsb = std::max(x + msb32(r) - 10, -24); int sh = lsb - x; uint32_t q;
  if (sh <= 0) q = r << uint32_t(std::min(-sh, 31));
  else if (sh >= 32) q = 0u;
  else q = (r >> uint32_t(sh)) + ((r >> uint32_t(sh - 1)) & 1u);
  if (q == 0u) return s;
  int k = msb32(q), V = lsb + k;
  if (V >= 16) return s | 0x7F800000u;
  return s | (uint32_t(V + 127) << 23) | ((q << uint32_t(23 - k)) & 0x7FFFFFu);
}

float bitsF(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
uint32_t fBits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
// p2g_tex_lin16's rounding of R = S * 2^(em - 37) (an f32) to f16 precision, ties away, on R's bits
uint32_t round16f(float R) {
  uint32_t u = fBits(R), a = u & 0x7FFFFFFFu, sg = u & 0x80000000u;
  int E = int(a >> 23) - 127;
  uint32_t sh = uint32_t(std::clamp(-1 - E, 13, 23));
  uint32_t q = (a + (1u << (sh - 1u))) & ~((1u << sh) - 1u);
  if (q >= 0x47800000u) q = 0x7F800000u;
  if (E == -25) q = 0x33800000u;
  if (E < -25) q = 0u;
  return a == 0u ? 0u : sg | q;
}
// the reference: p2g_tex_emax, p2g_tex_align and the former p2g_tex_slice16 for one component, then newFin
int alignH(uint32_t h, uint32_t em) {
  uint32_t e = (h >> 10) & 31u, m = (h & 1023u) | (e != 0 ? 1024u : 0u);
  uint32_t sh = std::min(em - std::min(std::max(e, 1u), em), 31u);
  int a = int((m << 4) >> sh);
  return (h >> 15) & 1u ? -a : a;
}
uint32_t refLin16(const uint32_t t[4], const int w[4]) {
  uint32_t em = 1;
  for (int i = 0; i < 4; ++i)
    if (w[i] != 0) em = std::max(em, (t[i] >> 10) & 31u);
  int S = 0;
  for (int i = 0; i < 4; ++i) S += w[i] * alignH(t[i], em);
  return newFin(S, int(em) - 37);
}
// p2g_tex_hv for one component: the device's conversion (here the C++ one, exact) or the bits
float hvBits(uint32_t t) {
  uint32_t mag = t & 0x7FFFu;
  bool sub = (mag >> 10) == 0;
  float v = bitsF((mag << 13) + (sub ? 0x38800000u : 0x38000000u)) - (sub ? 6.103515625e-05f : 0.0f);
  return (t & 0x8000u) ? -v : v;
}
float hvExact(uint32_t t) {
  uint32_t e = (t >> 10) & 31u, m = t & 1023u;
  float v = e ? std::ldexp(float(m | 1024u), int(e) - 25) : std::ldexp(float(m), -24);
  return (t & 0x8000u) ? -v : v;
}
// p2g_tex_lin16 for one component of finite taps
uint32_t lin16(const uint32_t tin[4], const int w[4], bool bitsCvt) {
  uint32_t t[4], mx = 0;
  for (int i = 0; i < 4; ++i) {
    t[i] = w[i] != 0 ? tin[i] : 0u;
    mx = std::max(mx, t[i] & 0x7FFFu);
  }
  uint32_t em = std::max(mx >> 10, 1u);
  float ig = bitsF((156u - em) << 23), S = 0.0f;
  for (int i = 0; i < 4; ++i) S += std::trunc((bitsCvt ? hvBits(t[i]) : hvExact(t[i])) * ig) * float(w[i]);
  return round16f(S * bitsF((em + 90u) << 23));
}
void wslice(int ax, int ay, int W, int w[4]) {  // p2g_tex_wslice
  int x1 = (W * ax + 128) >> 8, x0 = W - x1;
  int y11 = (x1 * ay + 128) >> 8, y01 = (x0 * ay + 127) >> 8;
  w[0] = x0 - y01; w[1] = x1 - y11; w[2] = y01; w[3] = y11;
}
}  // namespace

int main() {
  long bad = 0, n = 0;
  for (int b : {8, 16})
    for (uint32_t v = 0; v < (1u << b); ++v, ++n)
      if (oldU(v, b) != newU(v, b) && bad++ < 5) printf("unorm b=%d v=%u: %08x, 32-bit form %08x\n", b, v, oldU(v, b), newU(v, b));
  printf("p2g_tex_unorm: %ld values, %ld differ\n", n, bad);
  long bad2 = 0, bad3 = 0, n2 = 0;
  for (int em = 1; em <= 30; ++em)
    for (int S = -(1 << 23) + 1; S < (1 << 23); ++S, ++n2)
    {
      uint32_t o = oldFin(S, em - 37), f = round16f(float(S) * std::ldexp(1.0f, em - 37));
      if (o != newFin(S, em - 37) && bad2++ < 5) printf("fin16 S=%d em=%d: %08x, 32-bit form %08x\n", S, em, o, newFin(S, em - 37));
      if (o != f && bad3++ < 5) printf("round16f S=%d em=%d: %08x, f32 form %08x\n", S, em, o, f);
    }
  printf("32-bit f16 rounding: %ld values, %ld differ; f32 rounding of lin16: %ld differ\n", n2, bad2, bad3);
  // p2g_tex_lin16 against the integer slice sum
  std::vector<uint32_t> edge = {0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x8400, 0x07FF, 0x3C00,
                                0xBC00, 0x3BFF, 0x7BFF, 0xFBFF, 0x7BFE, 0x7800, 0x0200, 0x1400, 0x1401, 0x5140};
  std::mt19937 rng(12345);
  auto rh = [&](uint32_t near) -> uint32_t {  // a random finite half, often within a few binades of `near`
    uint32_t e = (near >> 10) & 31u, r = rng();
    int de = int(r % 9) - 6;
    int ne = std::clamp(int(e) + de, 0, 30);
    uint32_t h = (uint32_t(ne) << 10) | ((r >> 8) & 1023u) | ((r >> 20) & 1u ? 0x8000u : 0u);
    return (r >> 24) % 4 == 0 ? (rng() & 0x7FFFu) % 0x7C00u | (rng() & 0x8000u) : h;
  };
  std::vector<std::vector<uint32_t>> sets;
  for (size_t i = 0; i + 3 < edge.size(); ++i) sets.push_back({edge[i], edge[i + 1], edge[i + 2], edge[i + 3]});
  for (uint32_t e : edge) sets.push_back({e, e, e, e});
  sets.push_back({0x7BFF, 0x7BFF, 0x7BFF, 0x7BFE});
  sets.push_back({0x7BFF, 0xFBFF, 0x0001, 0x8001});
  while (sets.size() < 96) { uint32_t a = rh(rng() & 0x7FFF); sets.push_back({a, rh(a), rh(a), rh(a)}); }
  long bad4 = 0, n4 = 0;
  auto check = [&](const uint32_t t[4], const int w[4]) {
    uint32_t r = refLin16(t, w);
    for (bool bitsCvt : {false, true}) {
      uint32_t f = lin16(t, w, bitsCvt);
      ++n4;
      if (r != f && bad4++ < 5)
        printf("lin16 taps %04x %04x %04x %04x w %d %d %d %d (%s): %08x, f32 form %08x\n", t[0], t[1], t[2], t[3],
               w[0], w[1], w[2], w[3], bitsCvt ? "bits" : "device", r, f);
    }
  };
  int w[4];
  for (int ax = 0; ax < 256; ++ax)
    for (int ay = 0; ay < 256; ++ay) {
      wslice(ax, ay, 256, w);
      for (auto& t : sets) check(t.data(), w);
    }
  for (int i = 0; i < 4000000; ++i) {
    uint32_t r = rng();
    wslice(int(r & 255), int((r >> 8) & 255), 256, w);
    uint32_t a = rh(rng() & 0x7FFF), t[4] = {a, rh(a), rh(a), rh(a)};
    check(t, w);
  }
  printf("p2g_tex_lin16: %ld values, %ld differ\n", n4, bad4);
  return bad + bad2 + bad3 + bad4 == 0 ? 0 : 1;
}

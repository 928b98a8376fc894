// The 32-bit integer forms of two texture helpers (translator/emit/tex_prelude.cpp) against the 64-bit forms they
// replaced, over every input they can meet: p2g_tex_unorm (v / (2^b - 1) correctly rounded, by the periodic bit
// pattern instead of a 64-bit division) for b = 8 and 16, and p2g_tex_fin16 (one slice of f16 texels rounded to f16
// precision with ties away) for every |S| < 2^23 and every exponent em = 1..30 of p2g_tex_slice16. Both forms are
// written here in C++ as the GLSL spells them; the GLSL itself is checked on lavapipe by tests/textures and the
// texture cases of ptx_corpus (against the H200's bytes). Exit status 1 on any difference.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <initializer_list>

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
}  // namespace

int main() {
  long bad = 0, n = 0;
  for (int b : {8, 16})
    for (uint32_t v = 0; v < (1u << b); ++v, ++n)
      if (oldU(v, b) != newU(v, b) && bad++ < 5) printf("unorm b=%d v=%u: %08x, 32-bit form %08x\n", b, v, oldU(v, b), newU(v, b));
  printf("p2g_tex_unorm: %ld values, %ld differ\n", n, bad);
  long bad2 = 0, n2 = 0;
  for (int em = 1; em <= 30; ++em)
    for (int S = -(1 << 23) + 1; S < (1 << 23); ++S, ++n2)
      if (oldFin(S, em - 37) != newFin(S, em - 37) && bad2++ < 5)
        printf("fin16 S=%d em=%d: %08x, 32-bit form %08x\n", S, em, oldFin(S, em - 37), newFin(S, em - 37));
  printf("p2g_tex_fin16: %ld values, %ld differ\n", n2, bad2);
  return bad + bad2 == 0 ? 0 : 1;
}

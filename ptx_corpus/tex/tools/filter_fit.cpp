// filter_fit: tests hypotheses of how NVIDIA's texture unit forms a linear-filtered sample against a case's
// expected/ (written by the CUDA reference runner on the H200). Offline, CPU only; it found the rules
// docs/TEXTURES.md ("Measured") states and translator/emit/tex_prelude.cpp implements.
//
// Build: c++ -O2 -std=c++17 -Iruntime/common ptx_corpus/tex/tools/filter_fit.cpp build-tex/runtime/common/libp2g_common.a -o /tmp/filter_fit
// Run:   /tmp/filter_fit ptx_corpus/tex/tex2d_linear [-v]      (2D: unorm8, f16, f32)
//        /tmp/filter_fit ptx_corpus/tex/tex_filter_more [-v]   (an f16 tap whose weight rounds to 0, 1D f16, 3D)
// Each line printed is one hypothesis and how many values (samples x 4 channels) it reproduces bit for bit; -v
// lists misfits and, for 3D, the integer weights that would explain them.
//
// tex2d_linear: out[4*i + k] (float4) samples texture k (u8Clamp, hClamp, fBorder, hWrap) at uv[i] (normalized
// textures) or xy[i] (hClamp). The footprint is the one docs/TEXTURES.md describes as measured: the coordinate as
// fixed point with 20 fractional bits rounded down, scaled by the size for normalized coordinates, half a texel
// subtracted and rounded to 8 fractional bits to nearest. Weight schemes (weights()): 0 each product rounded ties
// to even, 1 w11 rounded ties up and the rest by subtraction (the rule found), 2 the same with ties to even, 3 each
// product rounded ties up, 4 w00 rounded ties up and the rest by subtraction (the same weights as 1).
// What fits everything: unorm8 "u = round(S*257/256) ties up, /65535"; f16 "ALIGN weights 1 neg trunc final away
// guard 4" (= "EMAX variant 0/1 guard 4"); f32 "exact sum" and "aligned f32 texels, guard 4" (2D cannot tell).
//
// tex_filter_more: out[5*i + k], k = 0 hTie (a[i]), 1 h1d (b[i].w), 2..4 u3d/h3d/f3d (b[i].xyz). What fits
// everything (the second block, "clamp mode"): the position of a clamped axis held to [0, size - 1]; 3D weights
// "family 3 order zxy ties up/up/down" (weightsFam); f16/f32 sums "per-slice alignment guard 4"; the f16 exponent
// from the weighted taps only (hTie).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "case.h"
#include "images.h"
#include "inputs.h"

using namespace p2g;

namespace {

float bitsF(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint32_t fBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

double h2d(uint16_t h) {
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(m + 1024, e - 25);
  return s ? -v : v;
}

// double -> f32 with ties away from zero (the texture unit's result rounding, measured) or to even.
uint32_t d2f(double v, bool away) {
  if (v == 0) return std::signbit(v) ? 0x80000000u : 0u;
  double a = std::fabs(v);
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int qe = std::max(e - 24, -149);
  double q = std::ldexp(a, -qe);  // exact (power-of-two scale)
  double fl = std::floor(q), r = q - fl;
  if (r > 0.5 || (r == 0.5 && (away || std::fmod(fl, 2.0) != 0))) fl += 1;
  float f = (float)std::ldexp(fl, qe);  // exact
  return fBits(v < 0 ? -f : f);
}

// round to nearest f16 value, as a double (ties away or even)
double roundH(double v, bool away) {
  if (v == 0) return v;
  double a = std::fabs(v);
  int e;
  std::frexp(a, &e);
  int qe = std::max(e - 11, -24);
  double q = std::ldexp(a, -qe);
  double fl = std::floor(q), r = q - fl;
  if (r > 0.5 || (r == 0.5 && (away || std::fmod(fl, 2.0) != 0))) fl += 1;
  double res = std::ldexp(fl, qe);
  return v < 0 ? -res : res;
}

int64_t fixPos(float x, uint32_t n, bool normalized) {
  float v = (std::isnan(x) || std::fabs(x) < 1.17549435e-38f) ? 0.0f : std::fmin(std::fmax(x, -4194304.0f), 4194304.0f);
  int64_t f = (int64_t)std::floor((double)v * (1 << 20));
  return normalized ? f * (int64_t)n : f;
}
int linPos(int64_t p) { return (int)((p - (int64_t(1) << 19) + (int64_t(1) << 11)) >> 12); }

int address(int i, int n, TexAddress m) {
  if (m == TexAddress::Wrap) return i >= 0 ? i % n : n - 1 - (-(i + 1)) % n;
  if (m == TexAddress::Mirror) {
    int p = i >= 0 ? i % (2 * n) : 2 * n - 1 - (-(i + 1)) % (2 * n);
    return p < n ? p : 2 * n - 1 - p;
  }
  if (m == TexAddress::Border) return (i < 0 || i >= n) ? -1 : i;
  return std::min(std::max(i, 0), n - 1);
}

// One sample of one channel: 4 taps (t = 0: (x0,y0), 1: (x1,y0), 2: (x0,y1), 3: (x1,y1)), fractions, expected.
struct Sample {
  int index, chan;
  float cx, cy;
  int ax, ay;
  int64_t px, py;        // fixed-point positions (20 fractional bits, texels)
  uint32_t raw[4];       // channel bits: unorm8 byte, f16 bits, f32 bits (0 for border)
  uint32_t expect;
};

struct Tex {
  ImageSpec spec;
  TexFormat fmt;
  TexAddress addr;
  std::vector<uint8_t> texels;
};

// round(p / 2^s) with the given tie rule: 0 even, 1 up, 2 down
int qround(int p, int s, int tie) {
  int q = p >> s, r = p & ((1 << s) - 1), hw = 1 << (s - 1);
  if (r > hw) return q + 1;
  if (r < hw) return q;
  return tie == 1 ? q + 1 : tie == 2 ? q : (q & 1 ? q + 1 : q);
}

// The four 2D weights (x 256), by scheme.
void weights(int ax, int ay, int scheme, int w[4]) {
  int p[4] = {(256 - ax) * (256 - ay), ax * (256 - ay), (256 - ax) * ay, ax * ay};
  switch (scheme) {
    case 0:  // each product rounded, ties to even (current)
      for (int t = 0; t < 4; ++t) w[t] = qround(p[t], 8, 0);
      break;
    case 1:  // w11 rounded (ties up), the others by subtraction so that rows/columns sum exactly
      w[3] = qround(p[3], 8, 1);
      w[1] = ax - w[3];
      w[2] = ay - w[3];
      w[0] = 256 - ax - ay + w[3];
      break;
    case 2:  // w11 ties even, by subtraction
      w[3] = qround(p[3], 8, 0);
      w[1] = ax - w[3];
      w[2] = ay - w[3];
      w[0] = 256 - ax - ay + w[3];
      break;
    case 3:  // each product rounded, ties up
      for (int t = 0; t < 4; ++t) w[t] = qround(p[t], 8, 1);
      break;
    case 4:  // w00 rounded ties up, others by subtraction
      w[0] = qround(p[0], 8, 1);
      w[1] = 256 - ay - w[0];
      w[2] = 256 - ax - w[0];
      w[3] = ax + ay - 256 + w[0];
      break;
    default:  // exact (x 65536 / 256: not integers) -> caller handles
      for (int t = 0; t < 4; ++t) w[t] = p[t];
  }
}

}  // namespace


// ---- ptx_corpus/tex/tex_filter_more: out[5*i + k], k = 0 hTie (a[i]), 1 h1d (b[i].w), 2..4 u3d/h3d/f3d (b[i].xyz) ----
struct Sample3 {
  int index, chan, ax, ay, az;
  bool interior;  // all eight taps are distinct texels (no clamping)
  uint32_t raw[8];  // tap t: x + (t & 1), y + (t >> 1 & 1), z + (t >> 2)
  uint32_t expect;
};

// f16 sum of taps with weights w (x 2^wbits), texels aligned to the largest exponent among weighted taps with g
// guard bits truncated toward zero (the 2D rule); returns the exact value of the sum.
double alignedSumH(const uint32_t* raw, const int64_t* w, int n, int wbits, int g) {
  int emax = -100000;
  for (int t = 0; t < n; ++t) {
    double v = h2d((uint16_t)raw[t]);
    if (w[t] == 0 || v == 0) continue;
    int e;
    std::frexp(std::fabs(v), &e);
    emax = std::max(emax, std::max(e, -13));
  }
  if (emax == -100000) return 0.0;
  double S = 0;
  for (int t = 0; t < n; ++t) {
    if (w[t] == 0) continue;
    double v = h2d((uint16_t)raw[t]);
    S += (double)w[t] * std::copysign(std::ldexp(std::floor(std::ldexp(std::fabs(v), 11 + g - emax)), emax - 11 - g), v);
  }
  return std::ldexp(S, -wbits);
}

// f32 sum of taps with weights w (x 2^wbits), texels aligned to the largest exponent among weighted taps with g
// bits below that texel's 24-bit significand, truncated toward zero.
double alignedSumF(const uint32_t* raw, const int64_t* w, int n, int wbits, int g) {
  int emax = -100000;
  for (int t = 0; t < n; ++t) {
    double v = bitsF(raw[t]);
    if (w[t] == 0 || v == 0) continue;
    int e;
    std::frexp(std::fabs(v), &e);
    emax = std::max(emax, std::max(e, -125));
  }
  if (emax == -100000) return 0.0;
  double S = 0;
  for (int t = 0; t < n; ++t) {
    if (w[t] == 0) continue;
    double v = bitsF(raw[t]);
    S += (double)w[t] * std::copysign(std::ldexp(std::floor(std::ldexp(std::fabs(v), 24 + g - emax)), emax - 24 - g), v);
  }
  return std::ldexp(S, -wbits);
}

// 3D weight schemes (x 256 unless noted):
//  0 each product of three rounded to 8 bits, ties to even (the code before this fit)
//  1 the 2D rule on (x, y), then each 2D weight split by z: w1 = round(w2d * az / 256) ties up, w0 = w2d - w1
//  2 z first: the 2D rule on (x, z) ... no: 1D z weights split by the 2D rule scaled: w = round(w2d(ax,ay) * fz / 256) ties up, each
//  3 the 2D rule on (y, z), then split by x
//  4 the 2D rule on (x, z), then split by y
//  5 exact products (x 2^24): no rounding
void weights3(int ax, int ay, int az, int scheme, int64_t w[8]) {
  auto w2 = [](int a, int b, int o[4]) {
    int w11 = (a * b + 128) >> 8;
    o[0] = 256 - a - b + w11;
    o[1] = a - w11;
    o[2] = b - w11;
    o[3] = w11;
  };
  int f[3][2] = {{256 - ax, ax}, {256 - ay, ay}, {256 - az, az}};
  for (int t = 0; t < 8; ++t) {
    int i = t & 1, j = (t >> 1) & 1, k = t >> 2;
    int64_t p = (int64_t)f[0][i] * f[1][j] * f[2][k];
    if (scheme == 0) w[t] = qround((int)p, 16, 0);
    else if (scheme == 2) w[t] = qround((int)p, 16, 1);
    else if (scheme == 5) w[t] = p;
  }
  if (scheme == 15) {
    // the 2D rule on (x, z), then each of those weights W split by y: y1 = round(W * ay / 256) ties down, y0 = W - y1
    int o[4];
    w2(ax, az, o);
    for (int t = 0; t < 8; ++t) {
      int W = o[(t & 1) + 2 * (t >> 2)];
      int y1 = (W * ay + 127) >> 8;
      w[t] = (t >> 1) & 1 ? y1 : W - y1;
    }
    return;
  }
  if (scheme >= 11) {
    // each product rounded to nearest (ties up); one tap takes 256 - the others: 11 the largest weight (first on
    // equality), 12 tap 0, 13 tap 7, 14 the tap nearest the sample (bits = fraction >= 128)
    for (int t = 0; t < 8; ++t) {
      int i = t & 1, j = (t >> 1) & 1, k = t >> 2;
      w[t] = ((int64_t)f[0][i] * f[1][j] * f[2][k] + 32768) >> 16;
    }
    int r = 0;
    if (scheme == 11) {
      for (int t = 1; t < 8; ++t)
        if (w[t] > w[r]) r = t;
    } else if (scheme == 13) r = 7;
    else if (scheme == 14) r = (ax >= 128 ? 1 : 0) + (ay >= 128 ? 2 : 0) + (az >= 128 ? 4 : 0);
    int64_t rest = 0;
    for (int t = 0; t < 8; ++t)
      if (t != r) rest += w[t];
    w[r] = 256 - rest;
    return;
  }
  if (scheme >= 6) {
    // inclusion-exclusion from the "upper corner" products: P(S) = round(prod of the fractions in S / 256^(|S|-1))
    // (pairs ties up); the triple: 6 ties up, 7 ties even, 8 truncated, 9 nested round(round(ax ay/256) az/256),
    // 10 ties down
    auto r2 = [](int p) { return (p + 128) >> 8; };
    int pxy = r2(ax * ay), pxz = r2(ax * az), pyz = r2(ay * az);
    int64_t p3 = (int64_t)ax * ay * az, t3;
    if (scheme == 6) t3 = (p3 + 32768) >> 16;
    else if (scheme == 7) t3 = qround((int)p3, 16, 0);
    else if (scheme == 8) t3 = p3 >> 16;
    else if (scheme == 9) t3 = r2(pxy * az);
    else t3 = qround((int)p3, 16, 2);
    w[7] = t3;
    w[3] = pxy - t3;
    w[5] = pxz - t3;
    w[6] = pyz - t3;
    w[1] = ax - pxy - pxz + t3;
    w[2] = ay - pxy - pyz + t3;
    w[4] = az - pxz - pyz + t3;
    w[0] = 256 - ax - ay - az + pxy + pxz + pyz - t3;
  }
  if (scheme == 1 || scheme == 3 || scheme == 4) {
    // pair axes (A, B) by the 2D rule, then split by the third axis C
    int A = scheme == 1 ? 0 : scheme == 3 ? 1 : 0, B = scheme == 1 ? 1 : 2, C = scheme == 1 ? 2 : scheme == 3 ? 0 : 1;
    int fr[3] = {ax, ay, az};
    int o[4];
    w2(fr[A], fr[B], o);
    for (int t = 0; t < 8; ++t) {
      int bit[3] = {t & 1, (t >> 1) & 1, t >> 2};
      int w2d = o[bit[A] + 2 * bit[B]];
      int w1 = (w2d * fr[C] + 128) >> 8;
      w[t] = bit[C] ? w1 : w2d - w1;
    }
  }
}


// round(num / den) for num >= 0 with a tie rule: 0 even, 1 up, 2 down
int64_t rdiv(int64_t num, int64_t den, int tie) {
  int64_t q = num / den, r = num - q * den;
  if (2 * r > den) return q + 1;
  if (2 * r < den) return q;
  return tie == 1 ? q + 1 : tie == 2 ? q : (q & 1 ? q + 1 : q);
}

// Families of 3D weight rules. perm: the axis order (p, q, r) as a permutation index; fam 0: sequential splits
// (256 by a_p exactly, each part by a_q with tie rule t1 for the upper part, then by a_r with t2); fam 1: split by
// a_p exactly, then in each part W the scaled 2D rule on (q, r): X = R_t1(W a_q / 256), Y = R_t2(W a_r / 256),
// P = R_t3(W a_q a_r / 65536), w11 = P, w10 = X - P, w01 = Y - P, w00 = W - X - Y + P.
void weightsFam(int ax, int ay, int az, int fam, int perm, int t1, int t2, int t3, int64_t w[8]) {
  static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  int a[3] = {ax, ay, az};
  if (fam == 2) {  // z = 0: the 2D rule on (x, y); otherwise family 0
    if (az == 0) {
      int w11 = (ax * ay + 128) >> 8;
      int64_t o[4] = {256 - ax - ay + w11, ax - w11, ay - w11, w11};
      for (int t = 0; t < 8; ++t) w[t] = t < 4 ? o[t] : 0;
      return;
    }
    fam = 0;
  }
  int P = perms[perm][0], Q = perms[perm][1], R = perms[perm][2];
  for (int t = 0; t < 8; ++t) {
    int bit[3] = {t & 1, (t >> 1) & 1, t >> 2};
    int64_t W = bit[P] ? a[P] : 256 - a[P];
    if (fam == 3) {  // sequential, the last split's tie rule depends on the middle axis' side: t2 upper, t3 lower
      int64_t u = rdiv(W * a[Q], 256, t1);
      W = bit[Q] ? u : W - u;
      int64_t v = rdiv(W * a[R], 256, bit[Q] ? t2 : t3);
      w[t] = bit[R] ? v : W - v;
    } else if (fam == 0) {
      int64_t u = rdiv(W * a[Q], 256, t1);
      W = bit[Q] ? u : W - u;
      int64_t v = rdiv(W * a[R], 256, t2);
      w[t] = bit[R] ? v : W - v;
    } else {
      int64_t X = rdiv(W * a[Q], 256, t1), Y = rdiv(W * a[R], 256, t2), PP = rdiv(W * a[Q] * a[R], 65536, t3);
      int64_t o[4] = {W - X - Y + PP, X - PP, Y - PP, PP};
      w[t] = o[bit[Q] + 2 * bit[R]];
    }
  }
}

int fitMore(const std::string& dir, std::map<std::string, Tex>& tex, bool verbose, bool clampFrac) {
  std::string aS, bS, expS;
  readFile(dir + "/inputs/a.bin", aS);
  readFile(dir + "/inputs/b.bin", bS);
  if (!readFile(dir + "/expected/out.bin", expS)) {
    std::fprintf(stderr, "no expected/out.bin\n");
    return 1;
  }
  const float* a = (const float*)aS.data();
  const float* b = (const float*)bS.data();
  const uint32_t* ex = (const uint32_t*)expS.data();
  const char* names[5] = {"hTie", "h1d", "u3d", "h3d", "f3d"};
  std::map<std::string, std::vector<Sample3>> samples;
  for (int k = 0; k < 5; ++k) {
    Tex& t = tex[names[k]];
    const FormatInfo& fi = formatInfo(t.fmt);
    int W = t.spec.width, H = t.spec.height, D = std::max<int>(1, t.spec.depth);
    int dims = k == 0 ? 2 : k == 1 ? 1 : 3;
    for (int i = 0; i < 1024; ++i) {
      float cx = k == 0 ? a[2 * i] : k == 1 ? b[4 * i + 3] : b[4 * i], cy = k == 0 ? a[2 * i + 1] : b[4 * i + 1],
            cz = b[4 * i + 2];
      int qx = linPos(fixPos(cx, W, false)), qy = dims > 1 ? linPos(fixPos(cy, H, false)) : 0,
          qz = dims > 2 ? linPos(fixPos(cz, D, false)) : 0;
      if (clampFrac) {  // clamp mode: the filtering position held to [0, size - 1] texels (fraction 0 outside)
        auto cl = [](int q, int n) { return std::min(std::max(q, 0), (n - 1) << 8); };
        qx = cl(qx, W);
        if (dims > 1) qy = cl(qy, H);
        if (dims > 2) qz = cl(qz, D);
      }
      for (int ch = 0; ch < 4; ++ch) {
        Sample3 s{};
        s.index = i;
        s.chan = ch;
        s.ax = qx & 255;
        s.ay = qy & 255;
        s.az = qz & 255;
        s.expect = ex[(5 * i + k) * 4 + ch];
        s.interior = (qx >> 8) >= 0 && (qx >> 8) + 1 < W && (qy >> 8) >= 0 && (qy >> 8) + 1 < H && (qz >> 8) >= 0 &&
                     (qz >> 8) + 1 < D;
        for (int tp = 0; tp < 8; ++tp) {
          int xx = address((qx >> 8) + (tp & 1), W, t.addr), yy = address((qy >> 8) + ((tp >> 1) & 1), H, t.addr),
              zz = address((qz >> 8) + (tp >> 2), D, t.addr);
          if (ch >= (int)fi.channels) continue;
          const uint8_t* p = t.texels.data() + (((size_t)zz * H + yy) * W + xx) * texelBytes(t.fmt) + ch * fi.channelBytes;
          uint32_t v = 0;
          std::memcpy(&v, p, fi.channelBytes);
          s.raw[tp] = v;
        }
        samples[names[k]].push_back(s);
      }
    }
  }
  // hTie and h1d: the 2D/1D rule, with the exponent taken over weighted taps (0) or taps whose fractions are both
  // non-zero (1)
  for (int variant = 0; variant < 2; ++variant) {
    int ok[2] = {0, 0};
    for (int k = 0; k < 2; ++k)
      for (const Sample3& s : samples[names[k]]) {
        int64_t w[4];
        int ww[4];
        if (k == 0) weights(s.ax, s.ay, 1, ww);
        else ww[0] = 256 - s.ax, ww[1] = s.ax, ww[2] = ww[3] = 0;
        int64_t sel[4];
        for (int t = 0; t < 4; ++t) {
          w[t] = ww[t];
          bool fx = (t & 1 ? s.ax : 256 - s.ax) != 0, fy = k == 1 ? t < 2 : (t & 2 ? s.ay : 256 - s.ay) != 0;
          sel[t] = variant == 0 ? w[t] : (fx && fy ? 1 : 0);
        }
        // the exponent choice: a tap enters when sel != 0; its weight is w
        uint32_t raw[4];
        int64_t wsel[4];
        for (int t = 0; t < 4; ++t) raw[t] = s.raw[t], wsel[t] = sel[t];
        int emax = -100000;
        for (int t = 0; t < 4; ++t) {
          double v = h2d((uint16_t)raw[t]);
          if (wsel[t] == 0 || v == 0) continue;
          int e;
          std::frexp(std::fabs(v), &e);
          emax = std::max(emax, std::max(e, -13));
        }
        double S = 0;
        for (int t = 0; t < 4; ++t) {
          double v = h2d((uint16_t)raw[t]);
          S += (double)w[t] * std::copysign(std::ldexp(std::floor(std::ldexp(std::fabs(v), 15 - emax)), emax - 15), v);
        }
        ok[k] += d2f(roundH(S / 256, true), true) == s.expect;
      }
    std::printf("MORE exponent from %s: hTie %d / %zu, h1d %d / %zu\n", variant == 0 ? "weighted taps" : "taps with non-zero fractions",
                ok[0], samples["hTie"].size(), ok[1], samples["h1d"].size());
  }
  // 3D: weight schemes with each format's sum rule
  for (int sch = 0; sch <= 15; ++sch) {
    int wbits = sch == 5 ? 24 : 8;
    int okU = 0, okH = 0, okF = 0;
    for (const Sample3& s : samples["u3d"]) {
      int64_t w[8];
      weights3(s.ax, s.ay, s.az, sch, w);
      int64_t S = 0;
      for (int t = 0; t < 8; ++t) S += w[t] * s.raw[t];
      double u;
      if (wbits == 8) u = (double)(S + ((S + 128) >> 8));
      else u = std::floor((double)S * 257 / (1 << 24) + 0.5);
      okU += d2f(std::min(u, 65535.0) / 65535.0, true) == s.expect;
    }
    for (const Sample3& s : samples["h3d"]) {
      int64_t w[8];
      weights3(s.ax, s.ay, s.az, sch, w);
      okH += d2f(roundH(alignedSumH(s.raw, w, 8, wbits, 4), true), true) == s.expect;
    }
    for (const Sample3& s : samples["f3d"]) {
      int64_t w[8];
      weights3(s.ax, s.ay, s.az, sch, w);
      double S = 0;
      for (int t = 0; t < 8; ++t) S += (double)w[t] * bitsF(s.raw[t]);
      okF += d2f(std::ldexp(S, -wbits), true) == s.expect;
    }
    int inU = 0, inN = 0;
    for (const Sample3& s : samples["u3d"]) {
      if (!s.interior) continue;
      int64_t w[8];
      weights3(s.ax, s.ay, s.az, sch, w);
      int64_t S = 0;
      for (int t = 0; t < 8; ++t) S += w[t] * s.raw[t];
      double u = wbits == 8 ? (double)(S + ((S + 128) >> 8)) : std::floor((double)S * 257 / (1 << 24) + 0.5);
      inU += d2f(std::min(u, 65535.0) / 65535.0, true) == s.expect;
      ++inN;
    }
    std::printf("MORE 3D weights %d: u3d %d, h3d %d, f3d %d (of 4096 each); u3d interior footprints %d / %d\n", sch, okU,
                okH, okF, inU, inN);
  }
  {
    // f3d by footprint class and weight scheme
    std::map<std::string, std::pair<int, int>> cls;
    for (int sch : {1, 5, 6, 9})
      for (const Sample3& s : samples["f3d"]) {
        int64_t w[8];
        weights3(s.ax, s.ay, s.az, sch, w);
        double S = 0;
        for (int t = 0; t < 8; ++t) S += (double)w[t] * bitsF(s.raw[t]);
        bool ok = d2f(std::ldexp(S, sch == 5 ? -24 : -8), true) == s.expect;
        std::string c = "scheme " + std::to_string(sch) + " " + (s.ax ? "x" : "-") + (s.ay ? "y" : "-") + (s.az ? "z" : "-");
        cls[c].first += ok;
        cls[c].second += 1;
      }
    for (auto& kv : cls) std::printf("MORE f3d fractions %s: %d / %d\n", kv.first.c_str(), kv.second.first, kv.second.second);
  }
  for (int sch : {9, 15})
    for (int g = 0; g <= 8; ++g) {
      int ok = 0;
      for (const Sample3& s : samples["f3d"]) {
        int64_t w[8];
        weights3(s.ax, s.ay, s.az, sch, w);
        ok += d2f(alignedSumF(s.raw, w, 8, 8, g), true) == s.expect;
      }
      std::printf("MORE f3d aligned f32 texels, weights %d, guard %d: %d / 4096\n", sch, g, ok);
    }
  // the families on u3d (exact integer sums: only the weights matter)
  {
    struct R { int ok, fam, perm, t1, t2, t3; };
    std::vector<R> res;
    for (int fam = 0; fam < 4; ++fam)
      for (int perm = 0; perm < 6; ++perm)
        for (int t1 = 0; t1 < 3; ++t1)
          for (int t2 = 0; t2 < 3; ++t2)
            for (int t3 = 0; t3 < (fam == 1 || fam == 3 ? 3 : 1); ++t3) {
              int ok = 0;
              for (const Sample3& s : samples["u3d"]) {
                int64_t w[8];
                weightsFam(s.ax, s.ay, s.az, fam, perm, t1, t2, t3, w);
                int64_t S = 0;
                for (int t = 0; t < 8; ++t) S += w[t] * s.raw[t];
                int64_t U = std::min<int64_t>(S + ((S + 128) >> 8), 65535);
                ok += S >= 0 && d2f((double)U / 65535.0, true) == s.expect;
              }
              res.push_back({ok, fam, perm, t1, t2, t3});
            }
    std::sort(res.begin(), res.end(), [](const R& x, const R& y) { return x.ok > y.ok; });
    static const char* pn[6] = {"xyz", "xzy", "yxz", "yzx", "zxy", "zyx"};
    static const char* tn[3] = {"even", "up", "down"};
    for (int k = 0; k < 8 && k < (int)res.size(); ++k)
      std::printf("MORE u3d family %d order %s ties %s/%s/%s: %d / 4096\n", res[k].fam, pn[res[k].perm], tn[res[k].t1],
                  tn[res[k].t2], tn[res[k].t3], res[k].ok);
  }
  if (verbose)
    for (size_t n = 0; n + 3 < samples["u3d"].size(); n += 4) {
      const Sample3* q = &samples["u3d"][n];
      int64_t w[8];
      weightsFam(q->ax, q->ay, q->az, 3, 4, 1, 1, 2, w);
      bool ok = true;
      for (int c = 0; c < 4; ++c) {
        int64_t S = 0;
        for (int t = 0; t < 8; ++t) S += w[t] * q[c].raw[t];
        int64_t U = std::min<int64_t>(S + ((S + 128) >> 8), 65535);
        ok &= d2f((double)U / 65535.0, true) == q[c].expect;
      }
      if (!ok) std::printf("FAM3MISS i=%d a=(%d %d %d) w=(%lld %lld %lld %lld %lld %lld %lld %lld)\n", q->index, q->ax, q->ay, q->az,
                           (long long)w[0], (long long)w[1], (long long)w[2], (long long)w[3], (long long)w[4], (long long)w[5],
                           (long long)w[6], (long long)w[7]);
    }
  // h3d and f3d with the weights that fit u3d (family 3, z x y, ties up / up on x1, down on x0)
  for (int g = 0; g <= 8; ++g) {
    int okH = 0, okF = 0, okFe = 0;
    for (const Sample3& s : samples["h3d"]) {
      int64_t w[8];
      weightsFam(s.ax, s.ay, s.az, 3, 4, 1, 1, 2, w);
      okH += d2f(roundH(alignedSumH(s.raw, w, 8, 8, g), true), true) == s.expect;
    }
    for (const Sample3& s : samples["f3d"]) {
      int64_t w[8];
      weightsFam(s.ax, s.ay, s.az, 3, 4, 1, 1, 2, w);
      okF += d2f(alignedSumF(s.raw, w, 8, 8, g), true) == s.expect;
      double S = 0;
      for (int t = 0; t < 8; ++t) S += (double)w[t] * bitsF(s.raw[t]);
      okFe += d2f(S / 256, true) == s.expect;
    }
    std::printf("MORE 3D family-3 weights: h3d aligned guard %d: %d / 4096; f3d aligned guard %d: %d / 4096 (exact sum: %d)\n", g,
                okH, g, okF, okFe);
  }
  // per-slice alignment: each z slice aligned to its own largest weighted exponent (g guard bits), the two slice sums
  // added exactly, one rounding
  for (int g = 2; g <= 8; ++g) {
    int okH = 0, okF = 0;
    for (const Sample3& s : samples["h3d"]) {
      int64_t w[8];
      weightsFam(s.ax, s.ay, s.az, 3, 4, 1, 1, 2, w);
      double S = alignedSumH(s.raw, w, 4, 8, g) + alignedSumH(s.raw + 4, w + 4, 4, 8, g);
      okH += d2f(roundH(S, true), true) == s.expect;
    }
    for (const Sample3& s : samples["f3d"]) {
      int64_t w[8];
      weightsFam(s.ax, s.ay, s.az, 3, 4, 1, 1, 2, w);
      double S = alignedSumF(s.raw, w, 4, 8, g) + alignedSumF(s.raw + 4, w + 4, 4, 8, g);
      okF += d2f(S, true) == s.expect;
    }
    std::printf("MORE per-slice alignment guard %d: h3d %d / 4096, f3d %d / 4096\n", g, okH, okF);
  }
  if (verbose) {
    for (const char* nm : {"f3d", "h3d"})
      for (const Sample3& s : samples[nm]) {
        bool half = nm[0] == 'h';
        int64_t w[8];
        weightsFam(s.ax, s.ay, s.az, 3, 4, 1, 1, 2, w);
        double S = 0;
        for (int t = 0; t < 8; ++t) S += (double)w[t] * (half ? h2d((uint16_t)s.raw[t]) : (double)bitsF(s.raw[t]));
        S /= 256;
        uint32_t m = half ? d2f(roundH(alignedSumH(s.raw, w, 8, 8, 4), true), true) : d2f(S, true);
        if (m == s.expect) continue;
        std::printf("MISS3 %s i=%d c=%d a=(%d %d %d) w=(", nm, s.index, s.chan, s.ax, s.ay, s.az);
        for (int t = 0; t < 8; ++t) std::printf("%lld ", (long long)w[t]);
        std::printf(") taps=(");
        for (int t = 0; t < 8; ++t) std::printf("%.8g ", half ? h2d((uint16_t)s.raw[t]) : (double)bitsF(s.raw[t]));
        std::printf(") exact=%.12g model=%.10g exp=%.10g\n", S, bitsF(m), bitsF(s.expect));
      }
  }
  // u3d two-stage: the 2D rule's integer sums S0, S1 in the two slices across `axis`, then
  //  v0: U = round(((256-a) S0 + a S1) * 257 / 65536) (exact z-lerp, one rounding, ties up)
  //  v1: slices to u16 first (S + round(S/256)), then U = round(((256-a) u0 + a u1) / 256), ties up
  //  v2: slices to u16 first, then truncated
  //  v3: exact z-lerp S24, U = S24>>8 + round(S24>>8 / 256)  (24 -> 16 bits truncated, then the 2D conversion)
  //  v4: exact z-lerp S24, U = (S24 + 128) >> 8 then the 2D conversion
  for (int axis = 0; axis < 3; ++axis)
    for (int v = 0; v < 5; ++v) {
      int ok = 0;
      for (const Sample3& s : samples["u3d"]) {
        int fr[3] = {s.ax, s.ay, s.az};
        int A = axis == 0 ? 1 : 0, B = axis == 2 ? 1 : 2;
        int w[4];
        weights(fr[A], fr[B], 1, w);
        int64_t S[2] = {0, 0};
        for (int t = 0; t < 8; ++t) {
          int bit[3] = {t & 1, (t >> 1) & 1, t >> 2};
          S[bit[axis]] += (int64_t)w[bit[A] + 2 * bit[B]] * s.raw[t];
        }
        int64_t a = fr[axis], U;
        if (v == 0) U = (((256 - a) * S[0] + a * S[1]) * 257 + 32768) >> 16;
        else if (v <= 2) {
          int64_t u0 = S[0] + ((S[0] + 128) >> 8), u1 = S[1] + ((S[1] + 128) >> 8);
          U = ((256 - a) * u0 + a * u1 + (v == 1 ? 128 : 0)) >> 8;
        } else {
          int64_t S24 = (256 - a) * S[0] + a * S[1];
          int64_t S16 = v == 3 ? S24 >> 8 : (S24 + 128) >> 8;
          U = S16 + ((S16 + 128) >> 8);
        }
        ok += d2f((double)std::min<int64_t>(U, 65535) / 65535.0, true) == s.expect;
      }
      std::printf("MORE u3d two-stage across %c, variant %d: %d / 4096\n", "xyz"[axis], v, ok);
    }
  // f3d two-stage: bilinear (2D rule) in the two slices across axis `ax3` (2: z slices, 1: y, 0: x), each rounded
  // (0 none, 1 f32 ties away, 2 f32 ties even, 3 truncated to f32), then lerp (256 - a, a), rounded once
  for (int axis = 0; axis < 3; ++axis)
    for (int mid = 0; mid < 4; ++mid) {
      int ok = 0;
      for (const Sample3& s : samples["f3d"]) {
        int fr[3] = {s.ax, s.ay, s.az};
        int A = axis == 0 ? 1 : 0, B = axis == 2 ? 1 : 2;
        int w[4];
        weights(fr[A], fr[B], 1, w);
        double sl[2];
        for (int k = 0; k < 2; ++k) {
          double S = 0;
          for (int t = 0; t < 8; ++t) {
            int bit[3] = {t & 1, (t >> 1) & 1, t >> 2};
            if (bit[axis] != k) continue;
            S += w[bit[A] + 2 * bit[B]] * (double)bitsF(s.raw[t]);
          }
          S /= 256;
          if (mid == 1) S = bitsF(d2f(S, true));
          else if (mid == 2) S = bitsF(d2f(S, false));
          else if (mid == 3) {
            float f = (float)S;
            if (std::fabs((double)f) > std::fabs(S)) f = std::nextafter(f, 0.0f);
            S = f;
          }
          sl[k] = S;
        }
        double r = ((256 - fr[axis]) * sl[0] + fr[axis] * sl[1]) / 256;
        ok += d2f(r, true) == s.expect;
      }
      std::printf("MORE f3d two-stage slices across %c, slice rounding %d: %d / 4096\n", "xyz"[axis], mid, ok);
    }
  {
    // u3d: products rounded to nearest; when they do not sum to 256, which single tap's correction explains the
    // sample (4 channels)?
    int sumOk = 0, sumOkFit = 0, fixN = 0, fixFit = 0;
    for (size_t n = 0; n + 3 < samples["u3d"].size(); n += 4) {
      const Sample3* q = &samples["u3d"][n];
      int f[3][2] = {{256 - q->ax, q->ax}, {256 - q->ay, q->ay}, {256 - q->az, q->az}};
      int64_t w[8], sum = 0;
      double pr[8];
      for (int t = 0; t < 8; ++t) {
        int64_t p = (int64_t)f[0][t & 1] * f[1][(t >> 1) & 1] * f[2][t >> 2];
        pr[t] = p / 65536.0;
        w[t] = (p + 32768) >> 16;
        sum += w[t];
      }
      auto fits = [&](const int64_t* ww) {
        for (int c = 0; c < 4; ++c) {
          int64_t S = 0;
          for (int t = 0; t < 8; ++t) S += ww[t] * q[c].raw[t];
          int64_t U = std::min<int64_t>(S + ((S + 128) >> 8), 65535);
          if (S < 0 || d2f((double)U / 65535.0, true) != q[c].expect) return false;
        }
        return true;
      };
      if (sum == 256) {
        ++sumOk;
        sumOkFit += fits(w);
        continue;
      }
      ++fixN;
      std::string which;
      for (int t = 0; t < 8; ++t) {
        int64_t ww[8];
        std::copy(w, w + 8, ww);
        ww[t] += 256 - sum;
        if (fits(ww)) which += std::to_string(t) + " ";
      }
      fixFit += !which.empty();
      if (verbose) {
        std::printf("FIX i=%d a=(%d %d %d) sum=%lld products:", q->index, q->ax, q->ay, q->az, (long long)sum);
        for (int t = 0; t < 8; ++t) std::printf(" %.3f", pr[t]);
        std::printf(" -> taps that fix it: %s\n", which.c_str());
      }
    }
    std::printf("MORE u3d nearest products: sum 256 in %d samples (%d fit), not in %d (%d fixed by one tap)\n", sumOk,
                sumOkFit, fixN, fixFit);
  }
  if (verbose) {
    // u3d: integer weight vectors within +-2 of scheme 9's (same sum) that explain all four channels
    for (size_t n = 0; n + 3 < samples["u3d"].size(); n += 4) {
      const Sample3* q = &samples["u3d"][n];
      int64_t w[8];
      weights3(q->ax, q->ay, q->az, 15, w);
      auto fits = [&](const int64_t* ww) {
        for (int c = 0; c < 4; ++c) {
          int64_t S = 0;
          for (int t = 0; t < 8; ++t) S += ww[t] * q[c].raw[t];
          if (S < 0) return false;
          int64_t U = std::min<int64_t>(S + ((S + 128) >> 8), 65535);
          if (d2f((double)U / 65535.0, true) != q[c].expect) return false;
        }
        return true;
      };
      if (fits(w)) continue;
      std::printf("USOLVE i=%d int=%d a=(%d %d %d) w15=(%lld %lld %lld %lld %lld %lld %lld %lld):", q->index, q->interior, q->ax, q->ay, q->az,
                  (long long)w[0], (long long)w[1], (long long)w[2], (long long)w[3], (long long)w[4], (long long)w[5],
                  (long long)w[6], (long long)w[7]);
      int found = 0;
      for (int code = 0; code < 390625 && found < 3; ++code) {
        int64_t ww[8];
        int c = code, sum = 0;
        for (int t = 0; t < 8; ++t) {
          int d = c % 5 - 2;
          c /= 5;
          ww[t] = w[t] + d;
          sum += d;
        }
        if (sum != 0) continue;
        bool neg = false;
        for (int t = 0; t < 8; ++t) neg |= ww[t] < 0;
        if (neg) continue;
        if (fits(ww)) {
          ++found;
          std::printf(" (");
          for (int t = 0; t < 8; ++t) std::printf("%lld ", (long long)ww[t]);
          std::printf(")");
        }
      }
      std::printf("\n");
    }
    // f3d samples that scheme 9 misses: integer weight vectors within +-1 of scheme 9's that explain all channels
    for (size_t n = 0; n + 3 < samples["f3d"].size(); n += 4) {
      const Sample3* q = &samples["f3d"][n];
      int64_t w[8];
      weights3(q->ax, q->ay, q->az, 9, w);
      auto fits = [&](const int64_t* ww) {
        for (int c = 0; c < 4; ++c) {
          double S = 0;
          for (int t = 0; t < 8; ++t) S += (double)ww[t] * bitsF(q[c].raw[t]);
          if (d2f(S / 256, true) != q[c].expect) return false;
        }
        return true;
      };
      if (fits(w)) continue;
      std::printf("SOLVE i=%d a=(%d %d %d) w9=(%lld %lld %lld %lld %lld %lld %lld %lld) fits:", q->index, q->ax, q->ay, q->az,
                  (long long)w[0], (long long)w[1], (long long)w[2], (long long)w[3], (long long)w[4], (long long)w[5],
                  (long long)w[6], (long long)w[7]);
      int found = 0;
      for (int code = 0; code < 6561 && found < 4; ++code) {
        int64_t ww[8];
        int c = code, sum = 0;
        for (int t = 0; t < 8; ++t) {
          int d = c % 3 - 1;
          c /= 3;
          ww[t] = w[t] + d;
          sum += d;
        }
        if (sum != 0) continue;
        if (fits(ww)) {
          ++found;
          std::printf(" d=(");
          for (int t = 0; t < 8; ++t) std::printf("%+d", (int)(ww[t] - w[t]));
          std::printf(")");
        }
      }
      std::printf("\n");
    }
    for (const Sample3& s : samples["f3d"]) {
      if (s.index != 639 && s.index != 571 && s.index != 30) continue;
      int64_t w[8];
      weights3(s.ax, s.ay, s.az, 9, w);
      double S = 0;
      for (int t = 0; t < 8; ++t) S += (double)w[t] * bitsF(s.raw[t]);
      std::printf("DETAIL i=%d c=%d b=(%.9g %.9g %.9g %.9g) a=(%d %d %d) taps=", s.index, s.chan, b[4 * s.index], b[4 * s.index + 1],
                  b[4 * s.index + 2], b[4 * s.index + 3], s.ax, s.ay, s.az);
      for (int t = 0; t < 8; ++t) std::printf("%.9g ", bitsF(s.raw[t]));
      std::printf(" exact=%.12g model=%.9g exp=%.9g\n", S / 256, bitsF(d2f(S / 256, true)), bitsF(s.expect));
    }
    for (const Sample3& s : samples["f3d"]) {
      int64_t w[8];
      weights3(s.ax, s.ay, s.az, 1, w);
      double S = 0;
      for (int t = 0; t < 8; ++t) S += (double)w[t] * bitsF(s.raw[t]);
      uint32_t m = d2f(std::ldexp(S, -8), true);
      if (m == s.expect || s.chan != 0) continue;
      std::printf("f3d i=%d a=(%d %d %d) w=(%lld %lld %lld %lld %lld %lld %lld %lld) model %.9g exp %.9g\n", s.index, s.ax,
                  s.ay, s.az, (long long)w[0], (long long)w[1], (long long)w[2], (long long)w[3], (long long)w[4],
                  (long long)w[5], (long long)w[6], (long long)w[7], bitsF(m), bitsF(s.expect));
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: filter_fit <case dir> [-v]\n");
    return 2;
  }
  bool verbose = argc > 2 && std::string(argv[2]) == "-v";
  std::string dir = argv[1], err;
  CaseSpec cs;
  if (!loadCase(dir, cs, err)) {
    std::fprintf(stderr, "%s\n", err.c_str());
    return 1;
  }
  std::map<std::string, Tex> tex;
  for (const ImageSpec& s : cs.textures) {
    Tex t;
    t.spec = s;
    parseTexFormat(s.format, t.fmt);
    parseTexAddress(s.address.empty() ? "clamp" : s.address, t.addr);
    if (!generateInit(s.init, imageBytes(s), cs.dir, s.name, t.texels, err)) {
      std::fprintf(stderr, "%s\n", err.c_str());
      return 1;
    }
    tex[s.name] = t;
  }
  if (cs.kernel == "tex_filter_more") {
    std::printf("== footprints as in 2D (fractions kept outside the texture)\n");
    fitMore(dir, tex, false, false);
    std::printf("== clamp mode: fractions 0 where the filtering position is clamped to [0, size - 1]\n");
    return fitMore(dir, tex, verbose, true);
  }
  std::string xyS, uvS, expS;
  readFile(dir + "/inputs/xy.bin", xyS);
  readFile(dir + "/inputs/uv.bin", uvS);
  readFile(dir + "/expected/out.bin", expS);
  const float* xy = (const float*)xyS.data();
  const float* uv = (const float*)uvS.data();
  const uint32_t* ex = (const uint32_t*)expS.data();
  const int n = 2048;
  const char* names[4] = {"u8Clamp", "hClamp", "fBorder", "hWrap"};

  std::map<std::string, std::vector<Sample>> samples;
  for (int k = 0; k < 4; ++k) {
    Tex& t = tex[names[k]];
    const FormatInfo& fi = formatInfo(t.fmt);
    int W = t.spec.width, H = t.spec.height;
    for (int i = 0; i < n; ++i) {
      const float* c = k == 1 ? xy + 2 * i : uv + 2 * i;
      int64_t px = fixPos(c[0], W, t.spec.normalized), py = fixPos(c[1], H, t.spec.normalized);
      int qx = linPos(px), qy = linPos(py);
      int x = qx >> 8, y = qy >> 8, ax = qx & 255, ay = qy & 255;
      for (int ch = 0; ch < 4; ++ch) {
        Sample s{};
        s.index = i;
        s.chan = ch;
        s.cx = c[0];
        s.cy = c[1];
        s.ax = ax;
        s.ay = ay;
        s.px = px;
        s.py = py;
        s.expect = ex[(4 * i + k) * 4 + ch];
        for (int tp = 0; tp < 4; ++tp) {
          int xx = address(x + (tp & 1), W, t.addr), yy = address(y + (tp >> 1), H, t.addr);
          if (xx < 0 || yy < 0 || ch >= (int)fi.channels) {
            s.raw[tp] = 0;
            continue;
          }
          const uint8_t* p = t.texels.data() + ((size_t)yy * W + xx) * texelBytes(t.fmt) + ch * fi.channelBytes;
          uint32_t v = 0;
          std::memcpy(&v, p, fi.channelBytes);
          s.raw[tp] = v;
        }
        samples[names[k]].push_back(s);
      }
    }
  }

  // ---- unorm8 hypotheses ----
  auto& u8 = samples["u8Clamp"];
  using U8Model = std::function<uint32_t(const Sample&)>;
  std::vector<std::pair<std::string, U8Model>> models;
  for (int sch = 0; sch < 5; ++sch) {
    models.push_back({"S/65280 once, weights " + std::to_string(sch), [sch](const Sample& s) {
                        int w[4];
                        weights(s.ax, s.ay, sch, w);
                        int64_t S = 0;
                        for (int t = 0; t < 4; ++t) S += (int64_t)w[t] * s.raw[t];
                        return d2f((double)S / 65280.0, true);
                      }});
    // unorm16 expansion of the 16-bit fixed-point sum: S + round(S/256), then / 65535
    for (int rnd = 0; rnd < 2; ++rnd)
      models.push_back({"(S + (S" + std::string(rnd ? "+128" : "") + ")>>8)/65535, weights " + std::to_string(sch),
                        [sch, rnd](const Sample& s) {
                          int w[4];
                          weights(s.ax, s.ay, sch, w);
                          int64_t S = 0;
                          for (int t = 0; t < 4; ++t) S += (int64_t)w[t] * s.raw[t];
                          int64_t u = S + ((S + (rnd ? 128 : 0)) >> 8);
                          return d2f((double)u / 65535.0, true);
                        }});
    // f32 texels (b/255 rounded), exact weighted sum rounded once
    models.push_back({"f32 texels, exact sum, weights " + std::to_string(sch), [sch](const Sample& s) {
                        int w[4];
                        weights(s.ax, s.ay, sch, w);
                        double S = 0;
                        for (int t = 0; t < 4; ++t) S += w[t] * (double)(float)(s.raw[t] / 255.0);
                        return d2f(S / 256.0, true);
                      }});
  }
  // the rounding of S * 257 / 256 (ties: S % 256 == 128)
  for (int tie = 0; tie < 3; ++tie)
    models.push_back({std::string("u = round(S*257/256) ties ") + (tie == 0 ? "even" : tie == 1 ? "up" : "down") + ", /65535",
                      [tie](const Sample& s) {
                        int w[4];
                        weights(s.ax, s.ay, 1, w);
                        int S = 0;
                        for (int t = 0; t < 4; ++t) S += w[t] * (int)s.raw[t];
                        return d2f((double)(S + qround(S, 8, tie)) / 65535.0, true);
                      }});
  {
    int ties = 0;
    for (const Sample& s : u8) {
      int w[4];
      weights(s.ax, s.ay, 1, w);
      int S = 0;
      for (int t = 0; t < 4; ++t) S += w[t] * (int)s.raw[t];
      ties += (S & 255) == 128;
    }
    std::printf("u8: samples with S %% 256 == 128 (a tie in S*257/256): %d\n", ties);
  }
  for (auto& m : models) {
    int ok = 0;
    for (const Sample& s : u8) ok += m.second(s) == s.expect;
    std::printf("u8: %-50s %5d / %zu\n", m.first.c_str(), ok, u8.size());
  }

  // ---- f16 hypotheses ----
  for (const char* nm : {"hClamp", "hWrap"}) {
    auto& v = samples[nm];
    for (int sch = 0; sch < 5; ++sch) {
      int ok = 0;
      for (const Sample& s : v) {
        int w[4];
        weights(s.ax, s.ay, sch, w);
        double S = 0;
        for (int t = 0; t < 4; ++t) S += w[t] * h2d((uint16_t)s.raw[t]);
        ok += d2f(roundH(S / 256.0, true), true) == s.expect;
      }
      std::printf("%s: exact sum -> f16 (away), weights %d: %5d / %zu\n", nm, sch, ok, v.size());
    }
  }
  {
    auto& v = samples["fBorder"];
    for (int sch = 0; sch < 5; ++sch) {
      int ok = 0, even = 0;
      for (const Sample& s : v) {
        int w[4];
        weights(s.ax, s.ay, sch, w);
        double S = 0;
        for (int t = 0; t < 4; ++t) S += w[t] * (double)bitsF(s.raw[t]);
        ok += d2f(S / 256.0, true) == s.expect;
        even += d2f(S / 256.0, false) == s.expect;
      }
      std::printf("fBorder: exact sum, weights %d: %5d / %zu (ties to even: %d)\n", sch, ok, v.size(), even);
    }
  }

  // ---- two-stage lerps: first axis (0 x, 1 y), intermediate rounding (f16 mantissa bits + tie rule), final ----
  // round(v, mbits, mode): mode 0 even, 1 away, 2 truncate
  auto roundP = [](double v, int mbits, int mode, int minExp) {
    if (v == 0) return v;
    double a = std::fabs(v);
    int e;
    std::frexp(a, &e);
    int qe = std::max(e - mbits, minExp);
    double q = std::ldexp(a, -qe);
    double fl = std::floor(q), r = q - fl;
    if (mode != 2 && (r > 0.5 || (r == 0.5 && (mode == 1 || std::fmod(fl, 2.0) != 0)))) fl += 1;
    double res = std::ldexp(fl, qe);
    return v < 0 ? -res : res;
  };
  for (const char* nm : {"hClamp", "hWrap", "fBorder"}) {
    bool half = std::string(nm) != "fBorder";
    for (int first = 0; first < 2; ++first)
      for (int ib : {11, 12, 13, 14, 16, 24, 53})
        for (int im = 0; im < 3; ++im)
          for (int fm = 0; fm < 3; ++fm) {
            int ok = 0;
            for (const Sample& s : samples[nm]) {
              double t[4];
              for (int k = 0; k < 4; ++k) t[k] = half ? h2d((uint16_t)s.raw[k]) : (double)bitsF(s.raw[k]);
              int a1 = first == 0 ? s.ax : s.ay, a2 = first == 0 ? s.ay : s.ax;
              // first-axis pairs: x-first: (t0,t1), (t2,t3); y-first: (t0,t2), (t1,t3)
              double p0 = first == 0 ? ((256 - a1) * t[0] + a1 * t[1]) / 256 : ((256 - a1) * t[0] + a1 * t[2]) / 256;
              double p1 = first == 0 ? ((256 - a1) * t[2] + a1 * t[3]) / 256 : ((256 - a1) * t[1] + a1 * t[3]) / 256;
              p0 = roundP(p0, ib, im, half ? -24 - (ib - 11) : -149 - (ib - 24));
              p1 = roundP(p1, ib, im, half ? -24 - (ib - 11) : -149 - (ib - 24));
              double r = ((256 - a2) * p0 + a2 * p1) / 256;
              r = half ? roundP(r, 11, fm, -24) : roundP(r, 24, fm, -149);
              ok += d2f(r, true) == s.expect;
            }
            std::printf("%s two-stage first=%c inter=%d bits mode %d final mode %d: %5d / %zu\n", nm, first ? 'y' : 'x', ib, im, fm, ok,
                        samples[nm].size());
          }
  }

  // ---- weights with kw fractional bits (products rounded, ties up), sum truncated to g guard bits, then rounded ----
  for (const char* nm : {"hClamp", "hWrap", "fBorder"}) {
    bool half = std::string(nm) != "fBorder";
    for (int kw = 8; kw <= 16; ++kw)
      for (int g : {1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 40}) {
        if (!half && g != 40) continue;
        int ok = 0;
        for (const Sample& s : samples[nm]) {
          double S = 0;
          for (int t = 0; t < 4; ++t) {
            int p = (t & 1 ? s.ax : 256 - s.ax) * (t & 2 ? s.ay : 256 - s.ay);
            int w = kw == 16 ? p : qround(p, 16 - kw, 1);
            S += w * (half ? h2d((uint16_t)s.raw[t]) : (double)bitsF(s.raw[t]));
          }
          S = std::ldexp(S, -kw);
          double r = half ? roundH(roundP(S, 11 + g, 2, -24 - g), true) : S;
          ok += d2f(r, true) == s.expect;
        }
        std::printf("%s weights %d bits, guard %d truncated: %5d / %zu\n", nm, kw, g, ok, samples[nm].size());
      }
  }

  // ---- f16 texels aligned to the largest exponent of the footprint (block floating point), g bits below the
  // largest texel's f16 quantum, truncated (mode 2) or rounded (0/1); weights 8 bits (scheme 1); exact sum -> f16
  for (const char* nm : {"hClamp", "hWrap"}) {
    for (int onlyW = 0; onlyW < 2; ++onlyW)
      for (int mode = 0; mode < 3; ++mode)
        for (int g = 0; g <= 12; ++g) {
          int ok = 0;
          for (const Sample& s : samples[nm]) {
            int w[4];
            weights(s.ax, s.ay, 1, w);
            int emax = -100;
            for (int t = 0; t < 4; ++t) {
              if (onlyW && w[t] == 0) continue;
              double v = h2d((uint16_t)s.raw[t]);
              if (v == 0) continue;
              int e;
              std::frexp(std::fabs(v), &e);
              emax = std::max(emax, std::max(e, -13));
            }
            double S = 0;
            for (int t = 0; t < 4; ++t) {
              if (w[t] == 0) continue;  // (a zero-weight tap may be larger than emax)
              double v = h2d((uint16_t)s.raw[t]);
              double q = std::ldexp(std::fabs(v), 11 + g - emax);
              double f = std::floor(q), r = q - f;
              if (mode != 2 && (r > 0.5 || (r == 0.5 && (mode == 1 || std::fmod(f, 2.0) != 0)))) f += 1;
              v = std::copysign(std::ldexp(f, emax - 11 - g), v);
              S += w[t] * v;
            }
            ok += d2f(roundH(S / 256, true), true) == s.expect;
          }
          std::printf("%s aligned texels, only weighted %d, mode %d, guard %d: %5d / %zu\n", nm, onlyW, mode, g, ok, samples[nm].size());
        }
  }

  // ---- the aligned model's choices, one at a time ----
  // sch: weight scheme; neg: 0 truncate toward zero, 1 floor; fin: final f16 rounding 0 even, 1 away, 2 truncate;
  // g: guard bits; flt: texel exponent clamp for subnormals
  auto aligned = [&](const Sample& s, bool half, int sch, int neg, int fin, int g) {
    int w[4];
    weights(s.ax, s.ay, sch, w);
    int emax = -100000;
    for (int t = 0; t < 4; ++t) {
      double v = half ? h2d((uint16_t)s.raw[t]) : (double)bitsF(s.raw[t]);
      if (w[t] == 0 || v == 0) continue;
      int e;
      std::frexp(std::fabs(v), &e);
      emax = std::max(emax, std::max(e, half ? -13 : -125));
    }
    int mb = half ? 11 : 24;
    double S = 0;
    for (int t = 0; t < 4; ++t) {
      if (w[t] == 0) continue;  // (a zero-weight tap may be larger than emax)
      double v = half ? h2d((uint16_t)s.raw[t]) : (double)bitsF(s.raw[t]);
      double q = std::ldexp(neg ? v : std::fabs(v), mb + g - emax);
      double f = std::floor(q);
      v = neg ? std::ldexp(f, emax - mb - g) : std::copysign(std::ldexp(f, emax - mb - g), v);
      S += w[t] * v;
    }
    S /= 256;
    double r = half ? roundP(S, 11, fin, -24) : roundP(S, 24, fin, -149);
    return d2f(r, true);
  };
  for (const char* nm : {"hClamp", "hWrap", "fBorder"}) {
    bool half = std::string(nm) != "fBorder";
    for (int sch = 0; sch < 5; ++sch)
      for (int neg = 0; neg < 2; ++neg)
        for (int fin = 0; fin < 3; ++fin)
          for (int g = 2; g <= 6; ++g) {
            int ok = 0;
            for (const Sample& s : samples[nm]) ok += aligned(s, half, sch, neg, fin, g) == s.expect;
            std::printf("%s ALIGN weights %d neg %s final %s guard %d: %5d / %zu\n", nm, sch, neg ? "floor" : "trunc",
                        fin == 0 ? "even" : fin == 1 ? "away" : "trunc", g, ok, samples[nm].size());
          }
  }

  // ---- f32 texels aligned like f16 texels, wider guard ----
  for (int g = 0; g <= 12; ++g) {
    int ok = 0;
    for (const Sample& s : samples["fBorder"]) {
      int w[4];
      weights(s.ax, s.ay, 1, w);
      int64_t w64[4] = {w[0], w[1], w[2], w[3]};
      ok += d2f(alignedSumF(s.raw, w64, 4, 8, g), true) == s.expect;
    }
    std::printf("fBorder aligned f32 texels, guard %d: %d / %zu\n", g, ok, samples["fBorder"].size());
    if (verbose && g == 4)
      for (const Sample& s : samples["fBorder"]) {
        int w[4];
        weights(s.ax, s.ay, 1, w);
        int64_t w64[4] = {w[0], w[1], w[2], w[3]};
        uint32_t m = d2f(alignedSumF(s.raw, w64, 4, 8, g), true);
        if (m == s.expect) continue;
        std::printf("FBMISS i=%d c=%d a=(%d %d) w=(%d %d %d %d) taps=(%.9g %.9g %.9g %.9g) model=%.9g exp=%.9g\n", s.index,
                    s.chan, s.ax, s.ay, w[0], w[1], w[2], w[3], bitsF(s.raw[0]), bitsF(s.raw[1]), bitsF(s.raw[2]),
                    bitsF(s.raw[3]), bitsF(m), bitsF(s.expect));
      }
  }

  // ---- which texels set the shared exponent; products aligned instead of texels ----
  for (const char* nm : {"hClamp", "hWrap"}) {
    for (int variant = 0; variant < 4; ++variant)
      for (int g = 2; g <= 14; ++g) {
        int ok = 0;
        for (const Sample& s : samples[nm]) {
          int w[4];
          weights(s.ax, s.ay, 1, w);
          double v[4];
          for (int t = 0; t < 4; ++t) v[t] = h2d((uint16_t)s.raw[t]);
          int emax = -100000;
          double S = 0;
          if (variant <= 1) {  // texels; 0: weight != 0, 1: axis factors != 0
            for (int t = 0; t < 4; ++t) {
              bool use = variant == 0 ? w[t] != 0 : ((t & 1 ? s.ax : 256 - s.ax) != 0 && (t & 2 ? s.ay : 256 - s.ay) != 0);
              if (!use || v[t] == 0) continue;
              int e;
              std::frexp(std::fabs(v[t]), &e);
              emax = std::max(emax, std::max(e, -13));
            }
            for (int t = 0; t < 4; ++t)
              if (w[t] != 0)
                S += w[t] * std::copysign(std::ldexp(std::floor(std::ldexp(std::fabs(v[t]), 11 + g - emax)), emax - 11 - g), v[t]);
          } else {  // products w*t/256 aligned to the largest product's exponent (2: float exponent, 3: fixed 9-bit weight field)
            for (int t = 0; t < 4; ++t) {
              double p = w[t] * v[t] / 256;
              if (p == 0) continue;
              int e;
              std::frexp(std::fabs(variant == 2 ? p : v[t]), &e);
              emax = std::max(emax, e);
            }
            for (int t = 0; t < 4; ++t) {
              double p = w[t] * v[t] / 256;
              S += 256 * std::copysign(std::ldexp(std::floor(std::ldexp(std::fabs(p), 11 + g - emax)), emax - 11 - g), p);
            }
          }
          ok += d2f(roundH(S / 256, true), true) == s.expect;
        }
        std::printf("%s EMAX variant %d guard %d: %5d / %zu\n", nm, variant, g, ok, samples[nm].size());
      }
  }

  if (verbose) {
    // f16: where the exact sum lies between two f16 values, and which way NVIDIA went
    for (const char* nm : {"hClamp", "hWrap"}) {
      for (const Sample& s : samples[nm]) {
        int w[4];
        weights(s.ax, s.ay, 1, w);
        double S = 0;
        for (int t = 0; t < 4; ++t) S += w[t] * h2d((uint16_t)s.raw[t]);
        S /= 256.0;
        if (S == 0) continue;
        int e;
        std::frexp(std::fabs(S), &e);
        int qe = std::max(e - 11, -24);
        double q = std::ldexp(std::fabs(S), -qe), fr = q - std::floor(q);
        double eq = std::ldexp(std::fabs((double)bitsF(s.expect)), -qe);
        if (fr > 0.35 && fr < 0.65)
          std::printf("F16FRAC %s i=%4d c=%d a=(%3d,%3d) w=(%3d %3d %3d %3d) frac=%.5f up=%d\n", nm, s.index, s.chan, s.ax, s.ay, w[0], w[1], w[2], w[3], fr,
                      eq > q ? 1 : 0);
      }
    }
    for (const char* nm : {"hClamp", "hWrap"}) {
      for (const Sample& s : samples[nm]) {
        int w[4];
        weights(s.ax, s.ay, 1, w);
        double S = 0;
        for (int t = 0; t < 4; ++t) S += w[t] * h2d((uint16_t)s.raw[t]);
        uint32_t m = d2f(roundH(S / 256.0, true), true);
        if (m == s.expect) continue;
        double E = 0;
        for (int t = 0; t < 4; ++t) E += (double)((t & 1 ? s.ax : 256 - s.ax) * (t & 2 ? s.ay : 256 - s.ay)) * h2d((uint16_t)s.raw[t]);
        std::printf("%s i=%4d c=%d xy=(%.9g %.9g) p=(%llx %llx) a=(%3d,%3d) t=(%g %g %g %g) w=(%d %d %d %d) model=%.9g exp=%.9g exact=%.9g\n",
                    nm, s.index, s.chan, s.cx, s.cy, (long long)s.px, (long long)s.py, s.ax, s.ay, h2d(s.raw[0]),
                    h2d(s.raw[1]), h2d(s.raw[2]), h2d(s.raw[3]), w[0], w[1], w[2], w[3], bitsF(m), bitsF(s.expect), E / 65536.0);
      }
    }
    // u8 misfits of the base model: expected*65280 against S
    int shown = 0;
    for (const Sample& s : u8) {
      int w[4];
      weights(s.ax, s.ay, 0, w);
      int64_t S = 0;
      for (int t = 0; t < 4; ++t) S += (int64_t)w[t] * s.raw[t];
      double e = bitsF(s.expect);
      if (shown++ < 60)
        std::printf("i=%4d c=%d a=(%3d,%3d) b=(%3u %3u %3u %3u) w=(%3d %3d %3d %3d) S=%6lld exp*65280=%.6f exp*65535*256/257=%.6f\n",
                    s.index, s.chan, s.ax, s.ay, s.raw[0], s.raw[1], s.raw[2], s.raw[3], w[0], w[1], w[2], w[3],
                    (long long)S, e * 65280.0, e * 65535.0);
    }
  }
  return 0;
}

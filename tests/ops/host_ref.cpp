// Host reference for the f32 op cases of ptx_corpus/ops: recomputes every input with the kernels' own generator
// (ptx_corpus/ops/ops_inputs.h) and the result with the host's IEEE arithmetic in the requested rounding mode
// (fesetround; std::fma is one rounding), then compares with the bytes ptx2glsl produced (`run --out DIR`).
// PTX rules modelled: .ftz flushes subnormal inputs to signed zero and results that are tiny after rounding with an
// unbounded exponent (the exact result rounded to 24 bits is below 2^-126: computed here on operands scaled so
// that the result is 2^64 times larger, where f32 has no subnormals), .sat clamps to [0, 1] with NaN -> +0, every
// NaN result is 0x7FFFFFFF. This checks the exact lowerings before NVIDIA's expected/ exist; the
// expected/ files remain the authority.
//   usage: host_ref OUTDIR   (OUTDIR/<case>/<output>.bin for f32_add f32_sub f32_mul f32_fma f32_div f32_sqrt f32_rcp
//                             f32_ftz_boundary)
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "../../ptx_corpus/ops/ops_inputs.h"

namespace {

const uint32_t kSalt = 0x0B5C0DE;

float asF(uint32_t b) { float f; std::memcpy(&f, &b, 4); return f; }
uint32_t asU(float f) { uint32_t b; std::memcpy(&b, &f, 4); return b; }
uint32_t ftz(uint32_t b) { return (b & 0x7F800000u) == 0 ? (b & 0x80000000u) : b; }

struct Variant {
  const char* kase;
  const char* out;
  int mode;       // FE_*
  bool ftz, sat;
  std::function<float(float, float, float)> op;
};

// The operation on scaled operands (exact powers of two), so that the result is 2^64 times the real one with the
// same 24 significant bits: rounding there has an unbounded exponent for results near 2^-126. true when that
// result is below 2^-62, i.e. the real result is tiny after rounding. An operand that would overflow when scaled
// belongs to a result far from 2^-126 (no cancellation of such operands lands there): not tiny.
bool tinyAfterRounding(const Variant& v, float x, float y, float z) {
  std::string o(v.out);
  char kind = o.rfind("mul", 0) == 0 ? '*' : o.rfind("fma", 0) == 0 || o.rfind("mad", 0) == 0 ? 'f'
              : o.rfind("div", 0) == 0 ? '/' : o.rfind("sqrt", 0) == 0 ? 's' : o.rfind("rcp", 0) == 0 ? 'r' : '+';
  auto sc = [](float f, int e) { return std::ldexp(f, e); };  // exact: scaled operands stay normal or overflow
  float r;
  switch (kind) {
    case '*': r = std::fabs(x) <= std::fabs(y) ? v.op(sc(x, 64), y, z) : v.op(x, sc(y, 64), z); break;
    case 'f': r = std::fabs(x) <= std::fabs(y) ? v.op(sc(x, 64), y, sc(z, 64)) : v.op(x, sc(y, 64), sc(z, 64)); break;
    case '/': r = v.op(sc(x, 64), y, z); break;
    case 's': r = v.op(sc(x, 128), y, z); break;
    case 'r': r = v.op(sc(x, -64), y, z); break;  // 1/x: a tiny result means a huge x, which scales down exactly
    default: r = v.op(sc(x, 64), sc(y, 64), z); break;
  }
  return std::isfinite(r) && std::fabs(r) < std::ldexp(1.0f, -62);
}

int check(const std::string& dir, const Variant& v) {
  std::ifstream f(dir + "/" + v.kase + "/" + v.out + ".bin", std::ios::binary);
  if (!f) { printf("%s %s: missing output\n", v.kase, v.out); return 1; }
  std::vector<uint32_t> got((std::istreambuf_iterator<char>(f)), {});
  f.clear(); f.seekg(0);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), {});
  size_t n = bytes.size() / 4;
  got.assign(n, 0);
  std::memcpy(got.data(), bytes.data(), n * 4);
  size_t bad = 0;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t a = gen32(i, kSalt), b = near32(a, i, kSalt ^ 0x1234567u), c = fmac32(a, b, i, kSalt ^ 0x7654321u);
    if (std::string(v.kase) == "f32_ftz_boundary") tiny32(i, kSalt, a, b, c);
    if (v.ftz) { a = ftz(a); b = ftz(b); c = ftz(c); }
    std::fesetround(v.mode);
    volatile float x = asF(a), y = asF(b), z = asF(c);
    float r = v.op(x, y, z);
    bool tiny = v.ftz && tinyAfterRounding(v, x, y, z);
    std::fesetround(FE_TONEAREST);
    uint32_t rb = asU(r);
    if (std::isnan(r)) rb = 0x7FFFFFFFu;
    if (tiny) rb &= 0x80000000u;
    if (v.ftz) rb = ftz(rb);
    if (v.sat) rb = (rb >= 0x7F800001u) ? 0u : rb >= 0x3F800000u ? 0x3F800000u : rb;
    if (rb != got[i]) {
      if (bad < 3) printf("%s %s: i=%u a=%08x b=%08x c=%08x host %08x ptx2glsl %08x\n", v.kase, v.out, i, a, b, c, rb, got[i]);
      ++bad;
    }
  }
  printf("%s %s: %zu/%zu differ\n", v.kase, v.out, bad, n);
  return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) { fprintf(stderr, "usage: host_ref OUTDIR\n"); return 2; }
  auto add = [](float x, float y, float) { volatile float r = x + y; return float(r); };
  auto sub = [](float x, float y, float) { volatile float r = x - y; return float(r); };
  auto mul = [](float x, float y, float) { volatile float r = x * y; return float(r); };
  auto fma = [](float x, float y, float z) { return std::fma(x, y, z); };
  auto div = [](float x, float y, float) { volatile float r = x / y; return float(r); };
  auto sqr = [](float x, float, float) { return std::sqrt(x); };
  auto rcp = [](float x, float, float) { volatile float r = 1.0f / x; return float(r); };
  const int N = FE_TONEAREST, Z = FE_TOWARDZERO, D = FE_DOWNWARD, U = FE_UPWARD;
  std::vector<Variant> vs = {
      {"f32_add", "add", N, 0, 0, add}, {"f32_add", "add_rn", N, 0, 0, add}, {"f32_add", "add_rz", Z, 0, 0, add},
      {"f32_add", "add_rm", D, 0, 0, add}, {"f32_add", "add_rp", U, 0, 0, add}, {"f32_add", "add_ftz", N, 1, 0, add},
      {"f32_add", "add_sat", N, 0, 1, add}, {"f32_add", "add_rm_ftz_sat", D, 1, 1, add},
      {"f32_sub", "sub", N, 0, 0, sub}, {"f32_sub", "sub_rz", Z, 0, 0, sub}, {"f32_sub", "sub_rm", D, 0, 0, sub},
      {"f32_sub", "sub_rp", U, 0, 0, sub}, {"f32_sub", "sub_ftz", N, 1, 0, sub}, {"f32_sub", "sub_sat", N, 0, 1, sub},
      {"f32_mul", "mul", N, 0, 0, mul}, {"f32_mul", "mul_rz", Z, 0, 0, mul}, {"f32_mul", "mul_rm", D, 0, 0, mul},
      {"f32_mul", "mul_rp", U, 0, 0, mul}, {"f32_mul", "mul_ftz", N, 1, 0, mul}, {"f32_mul", "mul_sat", N, 0, 1, mul},
      {"f32_fma", "fma_rn", N, 0, 0, fma}, {"f32_fma", "fma_rz", Z, 0, 0, fma}, {"f32_fma", "fma_rm", D, 0, 0, fma},
      {"f32_fma", "fma_rp", U, 0, 0, fma}, {"f32_fma", "fma_rn_ftz", N, 1, 0, fma}, {"f32_fma", "fma_rn_sat", N, 0, 1, fma},
      {"f32_fma", "mad_rn", N, 0, 0, fma},
      {"f32_div", "div_rn", N, 0, 0, div}, {"f32_div", "div_rz", Z, 0, 0, div}, {"f32_div", "div_rm", D, 0, 0, div},
      {"f32_div", "div_rp", U, 0, 0, div}, {"f32_div", "div_rn_ftz", N, 1, 0, div},
      {"f32_sqrt", "sqrt_rn", N, 0, 0, sqr}, {"f32_sqrt", "sqrt_rz", Z, 0, 0, sqr}, {"f32_sqrt", "sqrt_rm", D, 0, 0, sqr},
      {"f32_sqrt", "sqrt_rp", U, 0, 0, sqr}, {"f32_sqrt", "sqrt_rn_ftz", N, 1, 0, sqr},
      {"f32_rcp", "rcp_rn", N, 0, 0, rcp}, {"f32_rcp", "rcp_rz", Z, 0, 0, rcp}, {"f32_rcp", "rcp_rm", D, 0, 0, rcp},
      {"f32_rcp", "rcp_rp", U, 0, 0, rcp}, {"f32_rcp", "rcp_rn_ftz", N, 1, 0, rcp},
      {"f32_ftz_boundary", "mul_rn_ftz_sat", N, 1, 1, mul}, {"f32_ftz_boundary", "fma_rn_ftz_sat", N, 1, 1, fma},
  };
  // f32_ftz_boundary: {mul,fma,add}_{rn,rz,rm,rp}_ftz (the names are kept alive for Variant::out)
  static const char* kModeName[] = {"rn", "rz", "rm", "rp"};
  const int modes[] = {N, Z, D, U};
  static std::vector<std::string> names;
  names.reserve(12);
  for (const char* op : {"mul", "fma", "add"})
    for (int m = 0; m < 4; ++m) {
      names.push_back(std::string(op) + "_" + kModeName[m] + "_ftz");
      auto f = op[0] == 'm' ? std::function<float(float, float, float)>(mul) : op[0] == 'f' ? fma : add;
      vs.push_back({"f32_ftz_boundary", names.back().c_str(), modes[m], 1, 0, f});
    }
  int bad = 0;
  for (auto& v : vs) bad += check(argv[1], v);
  printf("%d of %zu outputs differ from the host reference\n", bad, vs.size());
  return bad ? 1 : 0;
}

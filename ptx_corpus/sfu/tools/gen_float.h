// Float tables for translator/emit/sfu_models2.h (lg2, sin/cos, tanh): part of gen.cpp, used for specs
//   F:NAME:SOURCE:K:RBITS:RZ|RN         a fitted table (quadratic in double, residuals, exceptions), or
//   I:NAME:SOURCE:SEGBITS:COL:F:OB      the hardware interpolator recovered exactly: per segment of 2^SEGBITS
//                                       inputs, integers C0, C1, C2 with V = C0 + C1 x + C2 sfu_sqtrunc(x, COL) in
//                                       2^-F units, truncated to OB fraction bits and to f32 (RZ); gen fails if
//                                       some segment has no such integers (then use an F: spec)
// NAME is a table name of sfu_models2.h (kSfuTable2Name), K the number of segment bits, RBITS the width of the dense
// residual array (0, 2, 4 or 8), RZ|RN the conversion of the quadratic's value to f32. SOURCE says which reduced
// function the table holds (fields separated by '/'):
//   sincos            P(g), g < 2^23, from every sin/cos slice through the model's own reduction (sfu_sincos_F,
//                     quadrants, cos(F) = sin(F + 2^23)); conflicting values are reported
//   slice/OP/SIGN/E   the |results| of one slice (n = 23)
//   tslice/OP/E       one positive slice whose results depend only on the top n mantissa bits: n is detected (the
//                     largest truncation that leaves the slice unchanged) and entry j = result(m = j << (23 - n))
//   t16/OP32/E        the f32 results on the f16 and bf16 inputs of biased f32 exponent E (t16f32 members): a partial
//                     table (n = 23, only those points known; RBITS becomes 0), for binades without a slice
//   auto/OP/E         tslice/OP/E if that slice was collected, else t16/OP/E (so that one command line serves before
//                     and after `run.sh collect2` adds the missing tanh binades)
// Each segment gets a least-squares quadratic (weights 1/ulp^2, target the middle of the interval that converts to
// the measured f32), then a small search over c0 that minimises the entries needing an exception; the residual
// of every known entry (measured bits - bits of the quadratic) goes to the dense array where it fits, the rest to
// the exception list (int8). Predictions use sfu_models2.h's own sfu_fquad, and the written file is read back
// with sfu_load_tables2 and checked entry by entry, so the tables are exact on their data by construction.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "sfu_data.h"
#include "sfu_models2.h"

namespace gen_float {

constexpr uint32_t kMissing = 0xffffffffu;

struct Source {
  int n = 23;
  std::vector<uint32_t> v;   // 2^n f32 bits (magnitudes), kMissing where unknown
  bool partial = false;
  std::string note;
};

inline std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> out;
  size_t a = 0;
  for (;;) {
    size_t b = s.find(c, a);
    out.push_back(s.substr(a, b - a));
    if (b == std::string::npos) break;
    a = b + 1;
  }
  return out;
}

inline void put(Source& S, uint32_t i, uint32_t val, uint64_t* conflicts) {
  if (S.v[i] == kMissing) S.v[i] = val;
  else if (S.v[i] != val) ++*conflicts;
}

inline bool load(const sfu_data::Store& st, const std::string& spec, Source& S) {
  std::vector<std::string> f = split(spec, '/');
  char note[256];
  if (f[0] == "auto" && f.size() == 3) {
    char nm[128];
    snprintf(nm, sizeof nm, "s32_%s_p_E%03d.dz", f[1].c_str(), atoi(f[2].c_str()));
    return load(st, (st.has(nm) ? "tslice/" : "t16/") + f[1] + "/" + f[2], S);
  }
  if (f[0] == "sincos" && f.size() == 1) {
    S.n = 23;
    S.v.assign(1u << 23, kMissing);
    uint64_t conf = 0, signBad = 0, slices = 0;
    for (auto& kv : st.members) {
      const std::string& nm = kv.first;
      if (nm.rfind("s32_sin.", 0) != 0 && nm.rfind("s32_cos.", 0) != 0) continue;
      size_t b = nm.find('_', 4);
      std::string op = nm.substr(4, b - 4);
      int sign = nm[b + 1] == 'n', E = atoi(nm.c_str() + b + 4);
      bool isCos = op[0] == 'c';
      std::vector<uint32_t> r = st.slice(op, sign, E);
      slices++;
      for (uint32_t m = 0; m < r.size(); m++) {
        uint32_t ax = ((uint32_t)E << 23) | m;
        uint32_t F = ax < 0x00800000u ? 0u : sfu_sincos_F(ax);
        if (isCos) F = (F + 0x800000u) & 0x1ffffffu;
        uint32_t q = F >> 23, fr = F & 0x7fffffu, g = (q & 1) ? 0x7fffffu - fr : fr;
        uint32_t val = r[m];
        if (sign && !isCos) val ^= 0x80000000u;    // sin is odd
        bool neg = (val >> 31) != 0;
        if (neg != (q >= 2) && (val & 0x7fffffffu)) signBad++;
        put(S, g, val & 0x7fffffffu, &conf);
      }
    }
    uint64_t miss = std::count(S.v.begin(), S.v.end(), kMissing);
    snprintf(note, sizeof note, "%llu sin/cos slices, %llu conflicting, %llu wrong signs, %llu of 2^23 unknown",
             (unsigned long long)slices, (unsigned long long)conf, (unsigned long long)signBad, (unsigned long long)miss);
    S.note = note;
    S.partial = miss != 0;
    return conf == 0 && signBad == 0;
  }
  if (f[0] == "slice" && f.size() == 4) {
    std::vector<uint32_t> r = st.slice(f[1], atoi(f[2].c_str()), atoi(f[3].c_str()));
    if (r.empty()) { fprintf(stderr, "no slice %s\n", spec.c_str()); return false; }
    S.n = 23;
    S.v.resize(r.size());
    uint32_t signs = 0;
    for (size_t i = 0; i < r.size(); i++) { S.v[i] = r[i] & 0x7fffffffu; signs |= 1u << (r[i] >> 31); }
    S.note = signs == 3 ? "mixed signs" : "";
    return signs != 3;
  }
  if (f[0] == "tslice" && f.size() == 3) {
    std::vector<uint32_t> r = st.slice(f[1], 0, atoi(f[2].c_str()));
    if (r.empty()) { fprintf(stderr, "no slice %s\n", spec.c_str()); return false; }
    int s = 0;
    for (int k = 1; k <= 16; k++) {
      bool same = true;
      for (uint32_t m = 0; m < r.size() && same; m++) same = r[m] == r[m & ~((1u << k) - 1u)];
      if (!same) break;
      s = k;
    }
    S.n = 23 - s;
    S.v.resize(1u << S.n);
    for (uint32_t j = 0; j < S.v.size(); j++) S.v[j] = r[j << s] & 0x7fffffffu;
    snprintf(note, sizeof note, "results depend on the top %d mantissa bits", S.n);
    S.note = note;
    return true;
  }
  if (f[0] == "t16" && f.size() == 3) {
    int E = atoi(f[2].c_str());
    S.n = 23;
    S.v.assign(1u << 23, kMissing);
    S.partial = true;
    uint64_t conf = 0, pts = 0;
    for (int bf = 0; bf < 2; bf++) {
      std::vector<uint32_t> r = st.table16f32(f[1], bf != 0);
      if (r.size() != 65536) { fprintf(stderr, "no t16f32 data for %s\n", f[1].c_str()); return false; }
      for (uint32_t h = 0; h < 65536; h++) {
        uint32_t x = bf ? h << 16 : sfu_f16_to_f32((uint16_t)h);
        if ((x >> 23) != (uint32_t)E) continue;   // positive, exponent E
        put(S, x & 0x7fffffu, r[h] & 0x7fffffffu, &conf);
        pts++;
      }
    }
    snprintf(note, sizeof note, "partial: %llu points from f16/bf16 inputs, %llu conflicting", (unsigned long long)pts,
             (unsigned long long)conf);
    S.note = note;
    return conf == 0;
  }
  fprintf(stderr, "unknown source %s\n", spec.c_str());
  return false;
}

inline long double valueOf(uint32_t b) { return (long double)sfu_f32bits_to_d(b); }

struct Built {
  std::string name;
  int k, n, rbits, rz;
  int interp = 0, F = 0, OB = 0, col = 0;
  std::vector<uint64_t> coef;
  std::vector<uint32_t> resid, exc, full;   // full: (index, value) pairs
};

// Fits one table; false (with a message) if a residual does not fit the exception format.
inline bool build(const Source& S, Built& B) {
  const int segBits = B.n - B.k;
  const uint32_t segN = 1u << segBits;
  B.coef.assign(3u << B.k, 0);
  if (B.rbits) B.resid.assign(sfu_resid_words(B.n, B.rbits), 0);
  const int lo = B.rbits ? -(1 << (B.rbits - 1)) : 0, hi = B.rbits ? (1 << (B.rbits - 1)) - 1 : 0;
  SfuFTable T;
  T.k = B.k; T.n = B.n; T.rz = B.rz; T.coef = B.coef.data(); T.exc = nullptr; T.nexc = 0; T.rbits = 0;
  std::vector<uint32_t> idx;
  for (uint32_t s = 0; s < (1u << B.k); s++) {
    idx.clear();
    long double A[3][4] = {{0}};
    long double minU = 1e300L;
    for (uint32_t j = 0; j < segN; j++) {
      uint32_t i = s * segN + j, b = S.v[i];
      if (b == kMissing) continue;
      if (b == 0) {
        if (i != 0) { fprintf(stderr, "%s: zero value at %u (only entry 0 may be zero)\n", B.name.c_str(), i); return false; }
        continue;   // the models special-case entry 0
      }
      idx.push_back(i);
      long double v = valueOf(b), u = valueOf(b + 1) - v;
      long double y = B.rz ? v + u / 2 : v, w = 1 / (u * u), t = (long double)j / segN, xv[3] = {1, t, t * t};
      for (int a = 0; a < 3; a++) {
        A[a][3] += w * xv[a] * y;
        for (int c = 0; c < 3; c++) A[a][c] += w * xv[a] * xv[c];
      }
      minU = std::min(minU, u);
    }
    if (idx.empty()) continue;
    long double c[3] = {0, 0, 0};
    if (idx.size() >= 3) {
      for (int col = 0; col < 3; col++) {
        int p = col;
        for (int r = col + 1; r < 3; r++) if (fabsl(A[r][col]) > fabsl(A[p][col])) p = r;
        for (int q = 0; q < 4; q++) std::swap(A[col][q], A[p][q]);
        for (int r = 0; r < 3; r++)
          if (r != col) { long double fc = A[r][col] / A[col][col]; for (int q = 0; q < 4; q++) A[r][q] -= fc * A[col][q]; }
      }
      for (int a = 0; a < 3; a++) c[a] = A[a][3] / A[a][a];
    } else {
      c[0] = valueOf(S.v[idx[0]]);
    }
    // c0 search: the offset (in units of the segment's smallest ulp) that leaves the fewest entries outside
    // [lo, hi].
    uint64_t* cs = &B.coef[3 * s];
    double best = 0;
    size_t bestOut = SIZE_MAX;
    for (int d = 0; d <= 32; d++) {
      double off = (d & 1 ? -1 : 1) * ((d + 1) / 2) * 0.0625;   // 0, +-1/16, ..., +-1 ulp
      double cd[3] = {(double)(c[0] + off * minU), (double)c[1], (double)c[2]};
      for (int a = 0; a < 3; a++) memcpy(&cs[a], &cd[a], 8);
      size_t out = 0;
      for (uint32_t i : idx) {
        int64_t r = (int64_t)S.v[i] - (int64_t)sfu_fquad(T, i);
        out += (r < lo || r > hi) ? (r - lo < -127 || r - hi > 127 ? 3 : 1) : 0;   // a whole value costs 12 bytes
        if (out >= bestOut) break;
      }
      if (out < bestOut) { bestOut = out; best = off; }
    }
    double cd[3] = {(double)(c[0] + best * minU), (double)c[1], (double)c[2]};
    for (int a = 0; a < 3; a++) memcpy(&cs[a], &cd[a], 8);
    for (uint32_t i : idx) {
      int64_t r = (int64_t)S.v[i] - (int64_t)sfu_fquad(T, i);
      int64_t field = std::min<int64_t>(hi, std::max<int64_t>(lo, r)), e = r - field;
      if (B.rbits) {
        uint32_t bit = i * (uint32_t)B.rbits;
        B.resid[bit >> 5] |= ((uint32_t)field & ((1u << B.rbits) - 1u)) << (bit & 31);
      }
      if (e) {
        if (e <= -128 || e > 127) {   // -128 marks a whole value
          B.exc.push_back((i << 8) | 0x80u);
          B.full.push_back(i);
          B.full.push_back(S.v[i]);
        } else {
          B.exc.push_back((i << 8) | (uint32_t)(e & 0xff));
        }
      }
    }
  }
  std::sort(B.exc.begin(), B.exc.end());   // entries were added in index order: sorting is a no-op kept for safety
  return true;
}

// I: specs. For each segment: weighted least squares for C1, C2 (basis 1, x, sq(x)), then the integers around
// them for which some integer C0 satisfies every known entry: entry value v (f32) with ulp u means the truncated
// V >> (F - OB) lies in [v 2^OB, (v + u) 2^OB) (at least one unit), i.e. V in an interval of integers.
inline bool buildInterp(const Source& S, Built& B) {
  const int segBits = B.n - B.k;
  const uint32_t segN = 1u << segBits;
  B.coef.assign(3u << B.k, 0);
  std::vector<int64_t> sq(segN);
  for (uint32_t x = 0; x < segN; x++) sq[x] = (int64_t)sfu_sqtrunc(x, B.col);
  std::vector<int64_t> vlo(segN), vhi(segN);   // V in [vlo, vhi)
  std::vector<uint8_t> use(segN);
  const long double shF = ldexpl(1, B.F - B.OB);
  for (uint32_t s = 0; s < (1u << B.k); s++) {
    long double A[3][4] = {{0}};
    for (uint32_t x = 0; x < segN; x++) {
      uint32_t i = s * segN + x, b = S.v[i];
      use[x] = b != kMissing && !(i == 0 && b == 0);
      if (!use[x]) continue;
      long double v = ldexpl(valueOf(b), B.OB), u = ldexpl(valueOf(b + 1) - valueOf(b), B.OB);
      long double lo = ceill(v), hi = ceill(v + u);
      if (hi <= lo) hi = lo + 1;
      if (lo != v && u < 1) { fprintf(stderr, "%s: entry %u is not a multiple of 2^-%d\n", B.name.c_str(), i, B.OB); return false; }
      vlo[x] = (int64_t)(lo * shF);
      vhi[x] = (int64_t)(hi * shF);
      long double y = (vlo[x] + vhi[x]) / 2.0L, w = 1 / ((long double)(vhi[x] - vlo[x]) * (vhi[x] - vlo[x]));
      long double xv[3] = {1, (long double)x, (long double)sq[x]};
      for (int a = 0; a < 3; a++) {
        A[a][3] += w * xv[a] * y;
        for (int c = 0; c < 3; c++) A[a][c] += w * xv[a] * xv[c];
      }
    }
    for (int col = 0; col < 3; col++) {
      int p = col;
      for (int r = col + 1; r < 3; r++) if (fabsl(A[r][col]) > fabsl(A[p][col])) p = r;
      for (int q = 0; q < 4; q++) std::swap(A[col][q], A[p][q]);
      for (int r = 0; r < 3; r++)
        if (r != col) { long double fc = A[r][col] / A[col][col]; for (int q = 0; q < 4; q++) A[r][q] -= fc * A[col][q]; }
    }
    int64_t c1 = llroundl(A[1][3] / A[1][1]), c2 = llroundl(A[2][3] / A[2][2]);
    bool found = false;
    for (int d = 0; d < 49 && !found; d++) {
      int64_t C1 = c1 + (d % 7) - 3, C2 = c2 + (d / 7) - 3;
      int64_t lo = INT64_MIN, hi = INT64_MAX;
      for (uint32_t x = 0; x < segN && lo < hi; x++) {
        if (!use[x]) continue;
        int64_t T = C1 * (int64_t)x + C2 * sq[x];
        lo = std::max(lo, vlo[x] - T);
        hi = std::min(hi, vhi[x] - T);
      }
      if (lo < hi) {
        found = true;
        int64_t c[3] = {lo == INT64_MIN ? 0 : lo, C1, C2};
        memcpy(&B.coef[3 * s], c, 24);
      }
    }
    if (!found) {
      fprintf(stderr, "%s: segment %u has no exact integer coefficients (SEGBITS/COL/F/OB do not fit)\n", B.name.c_str(), s);
      return false;
    }
  }
  return true;
}

inline int gen_float_main_impl(const sfu_data::Store& st, const char* outPath, int n, char** specs) {
  std::vector<Built> tables;
  std::vector<Source> sources;
  for (int a = 0; a < n; a++) {
    std::vector<std::string> f = split(specs[a], ':');
    bool isI = f.size() == 7 && f[0] == "I";
    if (!isI && (f.size() != 6 || f[0] != "F" || (f[5] != "RZ" && f[5] != "RN"))) {
      fprintf(stderr, "bad spec %s (F:NAME:SOURCE:K:RBITS:RZ|RN or I:NAME:SOURCE:SEGBITS:COL:F:OB)\n", specs[a]);
      return 2;
    }
    Source S;
    if (!load(st, f[2], S)) { fprintf(stderr, "%s: %s\n", specs[a], S.note.c_str()); return 1; }
    Built B;
    if (isI) {
      B.name = f[1]; B.n = S.n; B.k = S.n - atoi(f[3].c_str()); B.rbits = 0; B.rz = 1; B.interp = 1;
      B.col = atoi(f[4].c_str()); B.F = atoi(f[5].c_str()); B.OB = atoi(f[6].c_str());
      if (B.k < 0 || B.F < B.OB || B.F > 60 || !buildInterp(S, B)) return 1;
      uint64_t known = (uint64_t)(S.v.size() - std::count(S.v.begin(), S.v.end(), kMissing));
      printf("%-8s %-28s n=%2d: interpolator, %d segments of 2^%d, squarer column %d, 2^-%d fixed point truncated "
             "to %d bits: %llu entries known, exact, %zu bytes  [%s]\n", B.name.c_str(), f[2].c_str(), B.n, 1 << B.k,
             B.n - B.k, B.col, B.F, B.OB, (unsigned long long)known, B.coef.size() * 8, S.note.c_str());
      tables.push_back(std::move(B));
      sources.push_back(std::move(S));
      continue;
    }
    B.name = f[1]; B.k = atoi(f[3].c_str()); B.n = S.n; B.rbits = atoi(f[4].c_str()); B.rz = f[5] == "RZ";
    if (S.partial) B.rbits = 0;   // no dense residuals for a partial table
    if (B.k > B.n || (B.rbits != 0 && B.rbits != 2 && B.rbits != 4 && B.rbits != 8)) {
      fprintf(stderr, "%s: bad K or RBITS\n", specs[a]);
      return 2;
    }
    if (!build(S, B)) return 1;
    uint64_t known = (uint64_t)(S.v.size() - std::count(S.v.begin(), S.v.end(), kMissing));
    size_t bytes = B.coef.size() * 8 + B.resid.size() * 4 + B.exc.size() * 4 + B.full.size() * 4;
    printf("%-8s %-28s n=%2d k=%2d rbits=%d %s: %llu entries known, %zu exceptions (%zu whole values), %zu bytes  [%s]\n",
           B.name.c_str(), f[2].c_str(), B.n, B.k, B.rbits, f[5].c_str(), (unsigned long long)known, B.exc.size(),
           B.full.size() / 2, bytes, S.note.c_str());
    tables.push_back(std::move(B));
    sources.push_back(std::move(S));
  }
  std::vector<uint8_t> blob;
  auto app = [&](const void* p, size_t sz) { blob.insert(blob.end(), (const uint8_t*)p, (const uint8_t*)p + sz); };
  uint32_t hdr[2] = {kSfu2Magic, (uint32_t)tables.size()};
  app(hdr, 8);
  for (const Built& B : tables) {
    char nm[16] = {0};
    snprintf(nm, sizeof nm, "%s", B.name.c_str());
    if (B.interp) {
      int32_t h[4] = {B.k, B.n, B.F | (B.OB << 8) | (B.col << 16), 1 << 30};
      app(nm, 16);
      app(h, 16);
      app(B.coef.data(), B.coef.size() * 8);
      continue;
    }
    int32_t h[4] = {B.k, B.n, (int32_t)B.exc.size(), (int32_t)(B.rbits | (B.rz << 8) | ((B.full.size() / 2) << 12))};
    app(nm, 16);
    app(h, 16);
    app(B.coef.data(), B.coef.size() * 8);
    app(B.resid.data(), B.resid.size() * 4);
    app(B.exc.data(), B.exc.size() * 4);
    if (B.exc.size() & 1) { uint32_t pad = 0xffffffffu; app(&pad, 4); }
    app(B.full.data(), B.full.size() * 4);
  }
  // Read back through the model's loader and check every known entry.
  SfuTables2 T;
  if (!sfu_load_tables2(blob.data(), blob.size(), &T)) {
    fprintf(stderr, "warning: the file does not hold every table sfu_models2.h needs (fine for a partial run)\n");
  }
  for (size_t t = 0; t < tables.size(); t++) {
    int id = -1;
    for (int i = 0; i < SFU_T2_NUM; i++) if (tables[t].name == kSfuTable2Name[i]) id = i;
    if (id < 0) { fprintf(stderr, "%s is not a table of sfu_models2.h\n", tables[t].name.c_str()); return 1; }
    if (!T.t[id].coef) continue;
    uint64_t bad = 0;
    for (uint32_t i = 0; i < sources[t].v.size(); i++) {
      uint32_t b = sources[t].v[i];
      if (b == kMissing || (i == 0 && b == 0)) continue;
      bad += sfu_fquad(T.t[id], i) != b;
    }
    if (bad) { fprintf(stderr, "%s: %llu entries differ after reading back\n", tables[t].name.c_str(), (unsigned long long)bad); return 1; }
  }
  FILE* out = fopen(outPath, "wb");
  if (!out || fwrite(blob.data(), 1, blob.size(), out) != blob.size()) { fprintf(stderr, "cannot write %s\n", outPath); return 1; }
  fclose(out);
  printf("wrote %s: %zu tables, %zu bytes\n", outPath, tables.size(), blob.size());
  return 0;
}

}  // namespace gen_float

inline int gen_float_main(const sfu_data::Store& st, const char* outPath, int n, char** specs) {
  return gen_float::gen_float_main_impl(st, outPath, n, specs);
}

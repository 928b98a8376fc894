// tests/sfu/glsl_model's outputs (the GLSL models the translator emits, run on a Vulkan device) against the C++
// reference models of sfu_models.h, instruction by instruction: prints differing counts, exit 1 when any differ.
// Given sfu_tables2.bin (a "PSF2" blob) instead, tests/sfu/glsl_model2's outputs against sfu_models2.h
// (lg2/sin/cos/tanh).
//   usage: sfu_glsl_check TABLES.bin OUT.bin
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "sfu_models2.h"

static uint32_t inputOf(uint32_t i) {  // the kernel's x (kernel.ptx)
  if ((i & 1u) == 0u) return i * 0x9E3779B1u;
  return ((i >> 1) & 0xFFFFFu) | ((i & 0x100000u) << 11);
}

static uint32_t inputOf2(uint32_t i) {  // glsl_model2/kernel.ptx's x
  uint32_t w = i * 0x9E3779B1u, s = (i & 0x80000u) << 12;
  if ((i & 3u) == 1u) return s | ((i & 4u) ? w >> 9 : (i >> 3) & 0xFFFFu);
  if ((i & 3u) == 3u) return s | (0x3B000000u + w % 0x06800000u);
  return w;
}

// Prints the counts per instruction; true when nothing differs.
static bool report(int kWords, const char* const* names, const uint64_t* bad, size_t n, const uint32_t* firstIn,
                   const uint32_t* firstGot, const uint32_t* firstWant) {
  uint64_t total = 0;
  for (int k = 0; k < kWords; ++k) {
    total += bad[k];
    printf("%-24s %llu / %zu differ", names[k], (unsigned long long)bad[k], n);
    if (bad[k]) printf("  (first: x=0x%08x got 0x%08x want 0x%08x)", firstIn[k], firstGot[k], firstWant[k]);
    printf("\n");
  }
  return total == 0;
}

// glsl_model2: 11 words per thread (kernel.ptx there).
static int check2(const std::vector<uint8_t>& blob, const std::vector<uint8_t>& out, const char* tablesPath,
                  const char* outPath) {
  SfuTables2 T;
  if (!sfu_load_tables2(blob.data(), blob.size(), &T)) {
    fprintf(stderr, "sfu_glsl_check: %s: bad tables\n", tablesPath);
    return 2;
  }
  const int kWords = 11;
  if (out.size() % (kWords * 4) != 0 || out.empty()) {
    fprintf(stderr, "sfu_glsl_check: %s: %zu bytes is not a whole number of %d-word records\n", outPath, out.size(), kWords);
    return 2;
  }
  static const char* names[kWords] = {"lg2.approx.f32", "lg2.approx.ftz.f32", "sin.approx.f32", "sin.approx.ftz.f32",
                                      "cos.approx.f32", "cos.approx.ftz.f32", "tanh.approx.f32", "tanh.approx.f16",
                                      "tanh.approx.bf16", "tanh.approx.f16x2", "tanh.approx.bf16x2"};
  static const int ops[7] = {SFU_LG2, SFU_LG2_FTZ, SFU_SIN, SFU_SIN_FTZ, SFU_COS, SFU_COS_FTZ, SFU_TANH};
  size_t n = out.size() / (kWords * 4);
  uint64_t bad[kWords] = {0};
  uint32_t firstIn[kWords] = {0}, firstGot[kWords] = {0}, firstWant[kWords] = {0};
  for (size_t i = 0; i < n; ++i) {
    uint32_t x = inputOf2(uint32_t(i)), got[kWords], want[kWords];
    std::memcpy(got, out.data() + i * kWords * 4, kWords * 4);
    for (int k = 0; k < 7; ++k) want[k] = sfu_model32_2(T, ops[k], x);
    uint16_t lo = uint16_t(x), hi = uint16_t(x >> 16);
    want[7] = sfu_model16_2(T, SFU_TANH_F16, lo);
    want[8] = sfu_model16_2(T, SFU_TANH_BF16, lo);
    want[9] = uint32_t(sfu_model16_2(T, SFU_TANH_F16, lo)) | uint32_t(sfu_model16_2(T, SFU_TANH_F16, hi)) << 16;
    want[10] = uint32_t(sfu_model16_2(T, SFU_TANH_BF16, lo)) | uint32_t(sfu_model16_2(T, SFU_TANH_BF16, hi)) << 16;
    for (int k = 0; k < kWords; ++k)
      if (got[k] != want[k] && !bad[k]++) { firstIn[k] = x; firstGot[k] = got[k]; firstWant[k] = want[k]; }
  }
  return report(kWords, names, bad, n, firstIn, firstGot, firstWant) ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: sfu_glsl_check TABLES.bin OUT.bin\n");
    return 2;
  }
  std::ifstream tf(argv[1], std::ios::binary), of(argv[2], std::ios::binary);
  if (!tf || !of) {
    fprintf(stderr, "sfu_glsl_check: cannot read %s\n", !tf ? argv[1] : argv[2]);
    return 2;
  }
  std::vector<uint8_t> blob((std::istreambuf_iterator<char>(tf)), std::istreambuf_iterator<char>());
  std::vector<uint8_t> out((std::istreambuf_iterator<char>(of)), std::istreambuf_iterator<char>());
  if (blob.size() >= 4 && std::memcmp(blob.data(), "PSF2", 4) == 0) return check2(blob, out, argv[1], argv[2]);
  SfuTables T;
  if (!sfu_load_tables(blob.data(), blob.size(), &T)) {
    fprintf(stderr, "sfu_glsl_check: %s: bad tables\n", argv[1]);
    return 2;
  }
  const int kWords = 12;
  if (out.size() % (kWords * 4) != 0 || out.empty()) {
    fprintf(stderr, "sfu_glsl_check: %s: %zu bytes is not a whole number of %d-word records\n", argv[2], out.size(), kWords);
    return 2;
  }
  static const char* names[kWords] = {"rcp.approx.f32", "rcp.approx.ftz.f32", "rsqrt.approx.f32", "rsqrt.approx.ftz.f32",
                                      "sqrt.approx.f32", "sqrt.approx.ftz.f32", "ex2.approx.f32", "ex2.approx.ftz.f32",
                                      "ex2.approx.f16", "ex2.approx.ftz.bf16", "ex2.approx.f16x2", "ex2.approx.ftz.bf16x2"};
  static const int ops[8] = {SFU_RCP, SFU_RCP_FTZ, SFU_RSQRT, SFU_RSQRT_FTZ, SFU_SQRT, SFU_SQRT_FTZ, SFU_EX2, SFU_EX2_FTZ};
  size_t n = out.size() / (kWords * 4);
  uint64_t bad[kWords] = {0};
  uint32_t firstIn[kWords] = {0}, firstGot[kWords] = {0}, firstWant[kWords] = {0};
  for (size_t i = 0; i < n; ++i) {
    uint32_t x = inputOf(uint32_t(i)), got[kWords], want[kWords];
    std::memcpy(got, out.data() + i * kWords * 4, kWords * 4);
    for (int k = 0; k < 8; ++k) want[k] = sfu_model32(T, ops[k], x);
    uint16_t lo = uint16_t(x), hi = uint16_t(x >> 16);
    want[8] = sfu_model16(T, SFU_EX2_F16, lo);
    want[9] = sfu_model16(T, SFU_EX2_BF16, lo);
    want[10] = uint32_t(sfu_model16(T, SFU_EX2_F16, lo)) | uint32_t(sfu_model16(T, SFU_EX2_F16, hi)) << 16;
    want[11] = uint32_t(sfu_model16(T, SFU_EX2_BF16, lo)) | uint32_t(sfu_model16(T, SFU_EX2_BF16, hi)) << 16;
    for (int k = 0; k < kWords; ++k)
      if (got[k] != want[k] && !bad[k]++) { firstIn[k] = x; firstGot[k] = got[k]; firstWant[k] = want[k]; }
  }
  return report(kWords, names, bad, n, firstIn, firstGot, firstWant) ? 0 : 1;
}

// Reader for the SFU ground truth collected on the H200 (ptx_corpus/sfu/run.sh collect): tar files whose members
// are LZMA-compressed (.xz). Slices (s32_*.dz) are varint(zigzag(delta)) streams of 2^23 f32 results; 16-bit tables
// (t16_*.bin) are 65,536 u16; t16f32_*.bin are 65,536 u32. See ptx_corpus/sfu/sfu_probe.cu for the formats.
#pragma once
#include <lzma.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace sfu_data {

inline std::vector<uint8_t> readFile(const std::string& path) {
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) return {};
  std::vector<uint8_t> v;
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) v.insert(v.end(), buf, buf + n);
  fclose(f);
  return v;
}

inline std::vector<uint8_t> unxz(const uint8_t* p, size_t n) {
  lzma_stream s = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&s, UINT64_MAX, 0) != LZMA_OK) throw std::runtime_error("lzma init");
  std::vector<uint8_t> out(n * 8 + 4096);
  s.next_in = p; s.avail_in = n;
  size_t done = 0;
  for (;;) {
    s.next_out = out.data() + done; s.avail_out = out.size() - done;
    lzma_ret r = lzma_code(&s, LZMA_FINISH);
    done = out.size() - s.avail_out;
    if (r == LZMA_STREAM_END) break;
    if (r != LZMA_OK && r != LZMA_BUF_ERROR) { lzma_end(&s); throw std::runtime_error("lzma decode error"); }
    out.resize(out.size() * 2);
  }
  lzma_end(&s);
  out.resize(done);
  return out;
}

// All members of all tars in `dir` named sfu_data_<k>.tar, k = 1..8, keyed by name without ".xz" (decompressed
// lazily: the map holds the compressed bytes).
struct Store {
  std::map<std::string, std::vector<uint8_t>> members;
  explicit Store(const std::string& dir) {
    for (int k = 1; k <= 8; k++) {
      std::vector<uint8_t> t = readFile(dir + "/sfu_data_" + std::to_string(k) + ".tar");
      for (size_t off = 0; off + 512 <= t.size();) {
        const char* h = (const char*)&t[off];
        if (!h[0]) break;
        std::string name(h, strnlen(h, 100));
        size_t size = strtoull(std::string(h + 124, 12).c_str(), nullptr, 8);
        if (name.size() > 3 && name.compare(name.size() - 3, 3, ".xz") == 0) name.resize(name.size() - 3);
        members[name].assign(t.begin() + off + 512, t.begin() + off + 512 + size);
        off += 512 + (size + 511) / 512 * 512;
      }
    }
  }
  bool has(const std::string& n) const { return members.count(n) != 0; }
  std::vector<uint8_t> raw(const std::string& n) const {
    auto it = members.find(n);
    if (it == members.end()) return {};
    return unxz(it->second.data(), it->second.size());
  }
  // Slice of op (PTX name), sign 0/1, biased exponent E: 2^23 results, empty if not collected.
  std::vector<uint32_t> slice(const std::string& op, int sign, int E) const {
    char name[128];
    snprintf(name, sizeof name, "s32_%s_%c_E%03d.dz", op.c_str(), sign ? 'n' : 'p', E);
    std::vector<uint8_t> b = raw(name);
    std::vector<uint32_t> v;
    if (b.empty()) return v;
    v.reserve(1u << 23);
    uint32_t prev = 0;
    for (size_t i = 0; i < b.size();) {
      uint32_t z = 0;
      for (int sh = 0;; sh += 7) { uint8_t c = b[i++]; z |= (uint32_t)(c & 0x7f) << sh; if (!(c & 0x80)) break; }
      int32_t d = (int32_t)((z >> 1) ^ (0u - (z & 1)));
      prev += (uint32_t)d;
      v.push_back(prev);
    }
    return v;
  }
  std::vector<uint16_t> table16(const std::string& op) const {
    std::vector<uint8_t> b = raw("t16_" + op + ".bin");
    std::vector<uint16_t> v(b.size() / 2);
    if (!b.empty()) memcpy(v.data(), b.data(), b.size());
    return v;
  }
  std::vector<uint32_t> table16f32(const std::string& op32, bool bf16) const {
    std::vector<uint8_t> b = raw("t16f32_" + op32 + (bf16 ? "_from_bf16.bin" : "_from_f16.bin"));
    std::vector<uint32_t> v(b.size() / 4);
    if (!b.empty()) memcpy(v.data(), b.data(), b.size());
    return v;
  }
};

}  // namespace sfu_data

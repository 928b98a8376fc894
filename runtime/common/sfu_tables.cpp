#include "sfu_tables.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sys/stat.h>

namespace p2g {
namespace {

struct Store {
  bool loaded = false;
  std::string err;
  std::map<std::string, std::vector<uint8_t>> tables;   // name -> record without the name
};

bool readFile(const std::string& path, std::vector<uint8_t>& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

// A PSFU record's bucket index (sfu_tables.h), appended to the record once when its file is read: for each bucket
// b of the 23-bit input (b = m >> kSfuBucketShift), the index of its first exception, then the count. The
// exceptions are sorted by input (the blob's order, checked here); a bucket holding more than kSfuBucketMax of them
// makes the file malformed (the shader's search covers that many).
bool appendBucketIndex(const std::string& name, std::vector<uint8_t>& rec, std::string& err) {
  auto rd = [&](size_t at) { uint32_t v; std::memcpy(&v, rec.data() + at, 4); return v; };
  uint32_t k = rd(0), nexc = rd(8);
  size_t at = 16 + (size_t(3) << k) * 8;
  const uint32_t buckets = 1u << (23 - kSfuBucketShift);
  std::vector<uint32_t> start(buckets + 1, nexc);
  uint32_t prev = 0, b = 0;
  for (uint32_t i = 0; i < nexc; ++i) {
    uint32_t m = rd(at + 4 * size_t(i)) >> 8;
    if ((i > 0 && m <= prev) || m >= (1u << 23)) {
      err = "SFU model table '" + name + "': exceptions not sorted by input at entry " + std::to_string(i);
      return false;
    }
    prev = m;
    for (; b <= (m >> kSfuBucketShift); ++b) start[b] = i;
  }
  for (uint32_t i = 0; i < buckets; ++i)
    if (start[i + 1] - start[i] > kSfuBucketMax) {
      err = "SFU model table '" + name + "': " + std::to_string(start[i + 1] - start[i]) + " exceptions in bucket " +
            std::to_string(i) + ", more than the " + std::to_string(kSfuBucketMax) + " the shader searches";
      return false;
    }
  size_t o = rec.size();
  rec.resize(o + start.size() * 4);
  std::memcpy(rec.data() + o, start.data(), start.size() * 4);
  return true;
}

// The table files written by ptx_corpus/sfu/tools/gen.cpp: magic, count, then per table name[16], four int32 and a
// body whose size the header gives. Two formats (translator/emit/sfu_models.h, sfu_models2.h):
//   "PSFU": k, scale, nexc, pad; 3 << k doubles; nexc exceptions padded to an even count.
//   "PSF2": interpolator tables (h[3] has bit 30): k, n, F | OB << 8 | col << 16, 1 << 30; 3 << k int64.
//           fitted tables: k, n, nexc, rbits | rz << 8 | nfull << 12; 3 << k doubles; the dense residual words
//           (sfu_resid_words: ceil(2^n * rbits / 32) rounded up to even, none when rbits = 0); nexc exceptions
//           padded to an even count; nfull (index, f32 bits) pairs.
// Each record is kept without its name (the GPU layout, sfu_tables.h). Any malformed file is an error.
bool parseBlob(const std::string& path, const std::vector<uint8_t>& b, Store& s) {
  auto rd = [&](size_t at) { uint32_t v; std::memcpy(&v, b.data() + at, 4); return v; };
  const uint32_t kPSFU = 0x55465350u, kPSF2 = 0x32465350u;
  uint32_t magic = b.size() >= 8 ? rd(0) : 0u;
  if (magic != kPSFU && magic != kPSF2) { s.err = path + ": not an SFU table blob (no PSFU/PSF2 header)"; return false; }
  size_t off = 8;
  for (uint32_t i = 0, n = rd(4); i < n; ++i) {
    if (off + 32 > b.size()) { s.err = path + ": truncated at table " + std::to_string(i); return false; }
    char name[17] = {0};
    std::memcpy(name, b.data() + off, 16);
    int32_t h[4];
    for (int j = 0; j < 4; ++j) h[j] = (int32_t)rd(off + 16 + 4 * j);
    if (h[0] < 0 || h[0] > 20) { s.err = path + ": table " + name + ": bad header"; return false; }
    size_t nc = size_t(3) << h[0], body = 0;
    if (magic == kPSFU) {
      if (h[2] < 0) { s.err = path + ": table " + name + ": bad header"; return false; }
      body = 16 + nc * 8 + size_t((h[2] + 1) & ~1) * 4;
    } else if (h[3] & (1 << 30)) {   // interpolator
      int F = h[2] & 0xff, OB = (h[2] >> 8) & 0xff, col = (h[2] >> 16) & 0xff;
      if (h[1] < h[0] || h[1] > 23 || F < OB || F > 60 || col > 60) { s.err = path + ": table " + name + ": bad header"; return false; }
      body = 16 + nc * 8;
    } else {                         // fitted
      int rbits = h[3] & 0xff;
      size_t nfull = (uint32_t(h[3]) >> 12) & 0x3ffffu;
      if (h[1] < h[0] || h[1] > 23 || h[2] < 0 || (rbits != 0 && rbits != 2 && rbits != 4 && rbits != 8)) {
        s.err = path + ": table " + name + ": bad header";
        return false;
      }
      size_t nr = 0;
      if (rbits) nr = ((((size_t(1) << h[1]) * size_t(rbits) + 31) / 32) + 1) & ~size_t(1);
      body = 16 + nc * 8 + nr * 4 + size_t((h[2] + 1) & ~1) * 4 + nfull * 8;
    }
    if (off + 16 + body > b.size()) { s.err = path + ": table " + name + " is truncated"; return false; }
    if (s.tables.count(name)) { s.err = path + ": table " + name + " appears twice"; return false; }
    s.tables[name].assign(b.begin() + off + 16, b.begin() + off + 16 + body);
    if (magic == kPSFU && !appendBucketIndex(name, s.tables[name], s.err)) {
      s.err = path + ": " + s.err;
      return false;
    }
    off += 16 + body;
  }
  if (off != b.size()) { s.err = path + ": " + std::to_string(b.size() - off) + " bytes after the last table"; return false; }
  return true;
}

bool isDir(const std::string& p) { struct stat st; return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode); }

bool loadFrom(const std::string& where, Store& s) {
  std::vector<std::string> files;
  if (isDir(where)) {
    if (DIR* d = opendir(where.c_str())) {
      while (dirent* e = readdir(d)) {
        std::string n = e->d_name;
        if (n.rfind("sfu_tables", 0) == 0 && n.size() > 4 && n.compare(n.size() - 4, 4, ".bin") == 0)
          files.push_back(where + "/" + n);
      }
      closedir(d);
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(where);
  }
  if (files.empty()) return false;
  for (auto& f : files) {
    std::vector<uint8_t> b;
    if (!readFile(f, b)) { s.err = f + ": cannot read"; return false; }
    if (!parseBlob(f, b, s)) return false;
  }
  return true;
}

// The folder of the installed data: <folder of the executable>/../share/ptx2glsl. `cmake --install` puts the binary in
// PREFIX/bin and the tables in PREFIX/share/ptx2glsl; the build tree mirrors it (build/translator/ptx2glsl and
// build/share/ptx2glsl: translator/CMakeLists.txt copies them there), so neither reads the source tree.
std::string dataDirOfExecutable() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return "";
  return (exe.parent_path().parent_path() / "share" / "ptx2glsl").string();
}

// The table files the translated shaders may name (all of them: a folder missing one is an error, not a kernel
// failing later with "table not found").
const char* const kTableFiles[] = {"sfu_tables.bin", "sfu_tables2.bin"};

Store& store() {
  static Store s;
  if (s.loaded) return s;
  s.loaded = true;
  std::string where;
  if (const char* e = std::getenv("PTX2GLSL_SFU_TABLES"); e && *e) {
    where = e;
    std::ifstream probe(where);
    if (!isDir(where) && !probe) {
      s.err = "no SFU model tables at '" + where + "' ($PTX2GLSL_SFU_TABLES)";
      return s;
    }
    if (!loadFrom(where, s) && s.err.empty()) s.err = "no sfu_tables*.bin in '" + where + "' ($PTX2GLSL_SFU_TABLES)";
    return s;
  }
  where = dataDirOfExecutable();
  std::string missing;
  for (const char* f : kTableFiles) {
    std::ifstream probe(where + "/" + f);
    if (!probe) missing += std::string(missing.empty() ? "" : ", ") + where + "/" + f;
  }
  if (where.empty() || !missing.empty()) {
    s.err = "SFU model tables not found: looked for " +
            (where.empty() ? std::string("<executable folder>/../share/ptx2glsl (/proc/self/exe unreadable)")
                           : missing + " (<executable folder>/../share/ptx2glsl)") +
            " and $PTX2GLSL_SFU_TABLES (not set); reinstall ptx2glsl or set PTX2GLSL_SFU_TABLES to a folder of "
            "sfu_tables*.bin";
    return s;
  }
  if (!loadFrom(where, s) && s.err.empty()) s.err = "no sfu_tables*.bin in '" + where + "'";
  return s;
}

}  // namespace

bool layoutSfuTables(const std::vector<std::string>& names, std::vector<uint8_t>& image,
                     std::vector<uint32_t>& offsets, std::string& err) {
  Store& s = store();
  image.clear();
  offsets.clear();
  if (!s.err.empty()) { err = s.err; return false; }   // a malformed table file is never skipped silently
  for (auto& n : names) {
    auto it = s.tables.find(n);
    if (it == s.tables.end()) { err = "SFU model table '" + n + "' is not in the table files" + (s.err.empty() ? "" : " (" + s.err + ")"); return false; }
    offsets.push_back(uint32_t(image.size()));
    image.insert(image.end(), it->second.begin(), it->second.end());
    image.resize((image.size() + 15) & ~size_t(15), 0);
  }
  return true;
}

}  // namespace p2g

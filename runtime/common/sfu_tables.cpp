#include "sfu_tables.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
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

// One "PSFU" blob: magic, count, then per table: name[16], int32 k, scale, nexc, pad, 3 << k doubles, the
// exceptions padded to an even count (gen.cpp).
bool parseBlob(const std::string& path, const std::vector<uint8_t>& b, Store& s) {
  auto rd = [&](size_t at) { uint32_t v; std::memcpy(&v, b.data() + at, 4); return v; };
  if (b.size() < 8 || rd(0) != 0x55465350u) { s.err = path + ": not an SFU table blob (no PSFU header)"; return false; }
  size_t off = 8;
  for (uint32_t i = 0, n = rd(4); i < n; ++i) {
    if (off + 32 > b.size()) { s.err = path + ": truncated at table " + std::to_string(i); return false; }
    char name[17] = {0};
    std::memcpy(name, b.data() + off, 16);
    int32_t k = (int32_t)rd(off + 16), nexc = (int32_t)rd(off + 24);
    if (k < 0 || k > 20 || nexc < 0) { s.err = path + ": table " + name + ": bad header"; return false; }
    size_t body = 16 + (size_t(3) << k) * 8 + size_t((nexc + 1) & ~1) * 4;
    if (off + 16 + body > b.size()) { s.err = path + ": table " + name + " is truncated"; return false; }
    s.tables[name].assign(b.begin() + off + 16, b.begin() + off + 16 + body);
    off += 16 + body;
  }
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

Store& store() {
  static Store s;
  if (s.loaded) return s;
  s.loaded = true;
  std::vector<std::string> tried;
  if (const char* e = std::getenv("PTX2GLSL_SFU_TABLES")) tried.push_back(e);
#ifdef P2G_SFU_TABLES_DIR
  tried.push_back(P2G_SFU_TABLES_DIR);
#endif
  tried.push_back("ptx_corpus/sfu/models");
  for (auto& w : tried) {
    std::ifstream probe(w);
    if (!isDir(w) && !probe) continue;
    if (loadFrom(w, s)) return s;
    if (!s.err.empty()) return s;
  }
  s.err = "no SFU model tables found (looked in";
  for (auto& w : tried) s.err += " " + w;
  s.err += "; set PTX2GLSL_SFU_TABLES)";
  return s;
}

}  // namespace

bool layoutSfuTables(const std::vector<std::string>& names, std::vector<uint8_t>& image,
                     std::vector<uint32_t>& offsets, std::string& err) {
  Store& s = store();
  image.clear();
  offsets.clear();
  if (!s.err.empty() && s.tables.empty()) { err = s.err; return false; }
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

#include "binary.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace p2g::fatbin {

namespace {

uint64_t rd(const std::string& b, uint64_t at, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | uint8_t(b[at + i]);
  return v;
}

bool startsWith(const std::string& b, std::string_view m) { return b.size() >= m.size() && b.compare(0, m.size(), m) == 0; }

constexpr uint16_t kEmCuda = 190;

// A section (or the whole file) whose bytes hold containers.
struct Region {
  uint64_t begin, end;
  std::string where;
  bool strict;  // only containers here; otherwise scan for candidates
};

std::string fail(const std::string& path, const std::string& msg) { return path + ": error: " + msg; }

// The first token of PTX text, after blank space and // or /* */ comments, is `.version`.
bool looksLikePtx(const std::string& b) {
  size_t i = 0, n = std::min<size_t>(b.size(), 1 << 16);
  while (i < n) {
    char c = b[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') ++i;
    else if (b.compare(i, 2, "//") == 0) {
      while (i < n && b[i] != '\n') ++i;
    } else if (b.compare(i, 2, "/*") == 0) {
      size_t e = b.find("*/", i + 2);
      if (e == std::string::npos) return false;
      i = e + 2;
    } else
      return b.compare(i, 8, ".version") == 0;
  }
  return false;
}

// The sections of an ELF host file that hold fatbins.
bool elfRegions(const std::string& path, const std::string& b, std::vector<Region>& out, std::string& format,
                std::string& err) {
  if (b.size() < 52) {
    err = fail(path, at(0) + ": expected an ELF header, found only " + std::to_string(b.size()) + " bytes");
    return false;
  }
  bool is64 = b[4] == 2;
  if (b[4] != 1 && b[4] != 2) {
    err = fail(path, at(4) + ": expected ELF class 1 or 2, found " + std::to_string(int(uint8_t(b[4]))));
    return false;
  }
  if (b[5] != 1) {
    err = fail(path, at(5) + ": expected a little-endian ELF file (data encoding 1), found " +
                         std::to_string(int(uint8_t(b[5]))));
    return false;
  }
  if (is64 && b.size() < 64) {
    err = fail(path, at(0) + ": expected a 64-byte ELF header, found only " + std::to_string(b.size()) + " bytes");
    return false;
  }
  uint64_t type = rd(b, 16, 2);
  format = type == 1 ? "ELF relocatable object" : type == 2 ? "ELF executable" : type == 3 ? "ELF shared object"
                                                                                           : "ELF file";
  // A position-independent executable is ET_DYN too; its PT_INTERP program header tells it from a library.
  uint64_t phoff = is64 ? rd(b, 32, 8) : rd(b, 28, 4), phentsize = is64 ? rd(b, 54, 2) : rd(b, 42, 2);
  uint64_t phnum = is64 ? rd(b, 56, 2) : rd(b, 44, 2);
  if (type == 3 && phoff && phentsize >= 4 && phoff <= b.size() && phnum <= (b.size() - phoff) / phentsize)
    for (uint64_t i = 0; i < phnum; ++i)
      if (rd(b, phoff + i * phentsize, 4) == 3) format = "ELF executable (position-independent)";
  uint64_t shoff = is64 ? rd(b, 40, 8) : rd(b, 32, 4);
  uint64_t shentsize = is64 ? rd(b, 58, 2) : rd(b, 46, 2);
  uint64_t shnum = is64 ? rd(b, 60, 2) : rd(b, 48, 2);
  uint64_t shstrndx = is64 ? rd(b, 62, 2) : rd(b, 50, 2);
  if (shoff == 0) return true;  // no section table: nothing the CUDA runtime could register either
  uint64_t minEnt = is64 ? 64 : 40;
  if (shentsize < minEnt) {
    err = fail(path, at(is64 ? 58 : 46) + ": expected a section header size of at least " + std::to_string(minEnt) +
                         ", found " + std::to_string(shentsize));
    return false;
  }
  auto sh = [&](uint64_t i) { return shoff + i * shentsize; };
  if (shoff > b.size() || b.size() - shoff < shentsize) {
    err = fail(path, at(is64 ? 40 : 32) + ": expected the section table inside the file (" +
                         std::to_string(b.size()) + " bytes), found offset " + std::to_string(shoff));
    return false;
  }
  // Extended numbering: more than 0xff00 sections keep the count and the name table index in section 0.
  if (shnum == 0) shnum = is64 ? rd(b, sh(0) + 32, 8) : rd(b, sh(0) + 20, 4);
  if (shstrndx == 0xffff) shstrndx = rd(b, sh(0) + (is64 ? 40 : 24), 4);
  if (shnum > (b.size() - shoff) / shentsize) {
    err = fail(path, at(shoff) + ": expected " + std::to_string(shnum) + " section headers of " +
                         std::to_string(shentsize) + " bytes, found room for " +
                         std::to_string((b.size() - shoff) / shentsize));
    return false;
  }
  auto field = [&](uint64_t i, int off64, int off32, int n64, int n32) {
    return is64 ? rd(b, sh(i) + off64, n64) : rd(b, sh(i) + off32, n32);
  };
  auto secOff = [&](uint64_t i) { return field(i, 24, 16, 8, 4); };
  auto secSize = [&](uint64_t i) { return field(i, 32, 20, 8, 4); };
  auto secType = [&](uint64_t i) { return field(i, 4, 4, 4, 4); };
  if (shstrndx >= shnum) {
    err = fail(path, at(is64 ? 62 : 50) + ": expected a section-name table index below " + std::to_string(shnum) +
                         ", found " + std::to_string(shstrndx));
    return false;
  }
  uint64_t strOff = secOff(shstrndx), strSize = secSize(shstrndx);
  if (strOff > b.size() || strSize > b.size() - strOff) {
    err = fail(path, at(sh(shstrndx)) + ": expected the section-name table inside the file, found offset " +
                         std::to_string(strOff) + " size " + std::to_string(strSize));
    return false;
  }
  auto sectionName = [&](uint64_t i) {
    uint64_t nameOff = field(i, 0, 0, 4, 4);
    if (nameOff >= strSize) return std::string();
    return std::string(b.data() + strOff + nameOff, strnlen(b.data() + strOff + nameOff, strSize - nameOff));
  };
  bool hasLinkedFatbin = false;
  for (uint64_t i = 1; i < shnum; ++i) hasLinkedFatbin |= sectionName(i) == ".nv_fatbin" && secType(i) != 8;
  for (uint64_t i = 1; i < shnum; ++i) {
    std::string name = sectionName(i);
    if (name != ".nv_fatbin" && name != "__nv_relfatbin") continue;
    // An -rdc shared object holds both: the linked code in .nv_fatbin and the relocatable objects and PTX it was
    // linked from in __nv_relfatbin. cuobjdump (CUDA 13.0) lists the .nv_fatbin entries alone there
    // (tests/fatbin/ground_truth/librdc.so, made by make_ground_truth.sh on the H200, 2026-12-01), so
    // __nv_relfatbin is read only where the file has no .nv_fatbin (an object file compiled with -rdc).
    if (name == "__nv_relfatbin" && hasLinkedFatbin) continue;
    if (secType(i) == 8) continue;  // SHT_NOBITS: no bytes in the file
    uint64_t o = secOff(i), s = secSize(i);
    if (o > b.size() || s > b.size() - o) {
      err = fail(path, at(sh(i)) + ": expected section " + name + " inside the file (" + std::to_string(b.size()) +
                           " bytes), found offset " + std::to_string(o) + " size " + std::to_string(s));
      return false;
    }
    out.push_back({o, o + s, "section " + name, true});
  }
  return true;
}

bool peRegions(const std::string& path, const std::string& b, std::vector<Region>& out, std::string& format,
               std::string& err) {
  if (b.size() < 0x40) {
    err = fail(path, at(0) + ": expected a 64-byte DOS header, found only " + std::to_string(b.size()) + " bytes");
    return false;
  }
  uint64_t pe = rd(b, 0x3c, 4);
  if (pe > b.size() || b.size() - pe < 24 || b.compare(pe, 4, std::string("PE\0\0", 4)) != 0) {
    err = fail(path, at(0x3c) + ": expected the offset of a \"PE\\0\\0\" signature, found " + std::to_string(pe));
    return false;
  }
  uint64_t coff = pe + 4;
  uint64_t nsec = rd(b, coff + 2, 2), symPtr = rd(b, coff + 8, 4), nsym = rd(b, coff + 12, 4);
  uint64_t optSize = rd(b, coff + 16, 2), chars = rd(b, coff + 18, 2);
  format = (chars & 0x2000) ? "PE DLL" : (chars & 0x0002) ? "PE executable" : "PE file";
  uint64_t secTab = coff + 20 + optSize;
  if (secTab > b.size() || (b.size() - secTab) / 40 < nsec) {
    err = fail(path, at(coff + 2) + ": expected " + std::to_string(nsec) + " section headers after the optional header, "
                         "found room for " + std::to_string(secTab > b.size() ? 0 : (b.size() - secTab) / 40));
    return false;
  }
  uint64_t strTab = symPtr ? symPtr + nsym * 18 : 0;
  for (uint64_t i = 0; i < nsec; ++i) {
    uint64_t s = secTab + i * 40;
    std::string name(b.data() + s, strnlen(b.data() + s, 8));
    // "/N": a long name at offset N of the COFF string table (GNU ld keeps them when asked).
    if (name.size() > 1 && name[0] == '/' && strTab) {
      uint64_t n = strtoull(name.c_str() + 1, nullptr, 10);
      if (strTab + n < b.size()) name = std::string(b.data() + strTab + n, strnlen(b.data() + strTab + n, b.size() - strTab - n));
    }
    uint64_t vsize = rd(b, s + 8, 4), rawSize = rd(b, s + 16, 4), rawPtr = rd(b, s + 20, 4);
    uint64_t sc = rd(b, s + 36, 4);
    if (sc & (0x20 | 0x20000000)) continue;  // code or executable: no data the runtime registers
    if (rawSize == 0 || rawPtr == 0) continue;
    uint64_t size = vsize ? std::min(vsize, rawSize) : rawSize;  // raw data is padded to the file alignment
    if (rawPtr > b.size() || size > b.size() - rawPtr) {
      err = fail(path, at(s + 16) + ": expected section " + name + " inside the file (" + std::to_string(b.size()) +
                           " bytes), found offset " + std::to_string(rawPtr) + " size " + std::to_string(size));
      return false;
    }
    out.push_back({rawPtr, rawPtr + size, "section " + name, false});
  }
  return true;
}

std::string ptxDirective(const std::string& text, const char* name) {
  size_t p = text.find(name);
  if (p == std::string::npos) return "";
  p += strlen(name);
  while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
  size_t e = p;
  while (e < text.size() && !isspace(uint8_t(text[e])) && text[e] != ',' && text[e] != ';') ++e;
  return text.substr(p, e - p);
}

}  // namespace

FileKind sniff(const std::string& b) {
  if (startsWith(b, "\x7f" "ELF")) return b.size() >= 20 && rd(b, 18, 2) == kEmCuda ? FileKind::CudaElf : FileKind::Elf;
  if (startsWith(b, "MZ")) return FileKind::Pe;
  if (b.size() >= 4 && rd(b, 0, 4) == kMagic) return FileKind::Fatbin;
  if (startsWith(b, "!<arch>\n")) return FileKind::Archive;
  if (looksLikePtx(b)) return FileKind::Ptx;
  return FileKind::Unknown;
}

bool readBinary(const std::string& path, BinaryListing& out, std::string& err) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    err = path + ": error: cannot open the file";
    return false;
  }
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) {
    err = path + ": error: cannot read the file";
    return false;
  }
  return readBinaryBytes(path, ss.str(), out, err);
}

bool readBinaryBytes(const std::string& path, std::string bytes, BinaryListing& out, std::string& err) {
  out = BinaryListing();
  out.path = path;
  out.bytes = std::move(bytes);
  const std::string& b = out.bytes;
  std::string stem = std::filesystem::path(path).stem().string();
  FileKind kind = sniff(b);
  // A file named .fatbin is read as one even when its magic is wrong, so that the error says what was expected.
  std::string ext = std::filesystem::path(path).extension().string();
  if (kind == FileKind::Unknown && ext == ".fatbin") kind = FileKind::Fatbin;
  std::vector<Region> regions;
  std::vector<Entry> entries;
  switch (kind) {
    case FileKind::Unknown:
      err = fail(path, at(0) + ": expected an ELF or PE binary, a fatbin (magic 0xba55ed50) or PTX text, found "
                                "none of them");
      return false;
    case FileKind::Archive:
      err = fail(path, "static archives (.a, .lib) are not read: extract their members (ar x) and give those");
      return false;
    case FileKind::Elf:
      if (!elfRegions(path, b, regions, out.format, err)) return false;
      break;
    case FileKind::Pe:
      if (!peRegions(path, b, regions, out.format, err)) return false;
      break;
    case FileKind::Fatbin:
      out.format = "fatbin";
      regions.push_back({0, b.size(), "fatbin file", true});
      break;
    case FileKind::CudaElf: {
      out.format = "cubin";
      out.wholeFileIsPayload = true;
      if (b.size() < 52) {
        err = fail(path, at(0) + ": expected an ELF header, found only " + std::to_string(b.size()) + " bytes");
        return false;
      }
      Entry e;
      e.kind = Kind::Elf;
      e.rawKind = 2;
      bool is64 = b[4] == 2;
      uint64_t flags = rd(b, is64 ? 48 : 36, 4);
      // e_flags: the SM number in bits 0-7 up to ELF ABI version 7; from version 8 (CUDA 12.8) in bits 8-15.
      e.arch = uint32_t(uint8_t(b[8]) >= 8 ? (flags >> 8) & 0xff : flags & 0xff);
      e.storedSize = b.size();
      entries.push_back(e);
      break;
    }
    case FileKind::Ptx: {
      out.format = "PTX";
      out.wholeFileIsPayload = true;
      Entry e;
      e.kind = Kind::Ptx;
      e.rawKind = 1;
      std::string target = ptxDirective(b, ".target");
      if (target.rfind("sm_", 0) == 0) e.arch = uint32_t(atoi(target.c_str() + 3));
      std::string version = ptxDirective(b, ".version");
      size_t dot = version.find('.');
      if (dot != std::string::npos) {
        e.major = uint16_t(atoi(version.c_str()));
        e.minor = uint16_t(atoi(version.c_str() + dot + 1));
      }
      e.storedSize = b.size();
      entries.push_back(e);
      break;
    }
  }
  for (auto& r : regions) {
    if (r.strict) {
      uint64_t consumed = 0;
      std::string e;
      if (!parseContainers(b, r.begin, r.end, true, r.where, out.containers, entries, consumed, e)) {
        err = fail(path, e);
        return false;
      }
      continue;
    }
    for (uint64_t p = (r.begin + 7) / 8 * 8; p + 16 <= r.end;) {
      if (!looksLikeContainer(b, p)) {
        p += 8;
        continue;
      }
      uint64_t consumed = 0;
      std::string e;
      if (!parseContainers(b, p, r.end, false, r.where, out.containers, entries, consumed, e)) {
        err = fail(path, e);
        return false;
      }
      p = (consumed + 7) / 8 * 8;
    }
  }
  int nPtx = 0, nElf = 0;
  for (auto& e : entries) {
    NamedEntry ne;
    ne.entry = e;
    std::string arch = "sm_" + std::to_string(e.arch);
    // cuobjdump numbers the entries of a container (stem.N.sm_XX.cubin) but names a bare cubin or PTX file
    // stem.sm_XX.cubin, without a number (ground_truth/transpose_sm90.cubin).
    std::string numbered = ".";
    if (e.kind == Kind::Ptx) {
      ne.number = ++nPtx;
      if (!out.wholeFileIsPayload) numbered += std::to_string(ne.number) + ".";
      ne.name = stem + numbered + arch + ".ptx";
    } else if (e.kind == Kind::Elf) {
      ne.number = ++nElf;
      if (!out.wholeFileIsPayload) numbered += std::to_string(ne.number) + ".";
      ne.name = stem + numbered + arch + ".cubin";
    } else {
      ne.name = stem + ".kind" + std::to_string(e.rawKind) + "." + arch;
    }
    out.entries.push_back(std::move(ne));
  }
  return true;
}

bool entryPayload(const BinaryListing& b, size_t i, std::string& out, std::string& err) {
  const Entry& e = b.entries[i].entry;
  if (b.wholeFileIsPayload) {
    out = b.bytes;
    return true;
  }
  std::string e2;
  if (!payload(b.bytes, e, out, e2)) {
    err = b.path + ": error: " + e2 + " (entry " + b.entries[i].name + ")";
    return false;
  }
  return true;
}

std::string listingLine(const NamedEntry& e) {
  char buf[64];
  if (e.entry.kind == Kind::Other) return "other entry (kind " + std::to_string(e.entry.rawKind) + "): " + e.name;
  snprintf(buf, sizeof buf, "%s file %4d: ", e.entry.kind == Kind::Ptx ? "PTX" : "ELF", e.number);
  return buf + e.name;
}

}  // namespace p2g::fatbin

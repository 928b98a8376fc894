#include "fatbin.h"

#include <lz4.h>
#include <zstd.h>

#include <cstdio>
#include <cstring>

namespace p2g::fatbin {

namespace {

uint64_t rd(std::string_view b, uint64_t at, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | uint8_t(b[at + i]);
  return v;
}

std::string hex(uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

constexpr uint64_t kEntryHeaderMin = 64;

}  // namespace

std::string at(uint64_t off) { return "at byte offset " + std::to_string(off) + " (" + hex(off) + ")"; }

const char* compressionName(Compression c) {
  switch (c) {
    case Compression::None: return "none";
    case Compression::Lz4: return "lz4";
    case Compression::Zstd: return "zstd";
  }
  return "?";
}

bool looksLikeContainer(std::string_view b, uint64_t p) {
  return p + 16 <= b.size() && rd(b, p, 4) == kMagic && rd(b, p + 4, 2) == 1 && rd(b, p + 6, 2) == 16;
}

namespace {

// One entry header at `p` inside a container ending at `end`. Fills `e`, returns the offset after its payload.
bool parseEntry(std::string_view b, uint64_t p, uint64_t end, int container, Entry& e, uint64_t& next,
                std::string& err) {
  if (end - p < kEntryHeaderMin) {
    err = at(p) + ": expected a 64-byte fatbin entry header, found only " + std::to_string(end - p) +
          " byte(s) before the end of the container";
    return false;
  }
  e.rawKind = uint16_t(rd(b, p, 2));
  e.kind = e.rawKind == 1 ? Kind::Ptx : e.rawKind == 2 ? Kind::Elf : Kind::Other;
  uint64_t hsize = rd(b, p + 4, 4);
  uint64_t psize = rd(b, p + 8, 8);
  uint64_t csize = rd(b, p + 16, 4);
  uint64_t optOff = rd(b, p + 20, 4);
  e.minor = uint16_t(rd(b, p + 24, 2));
  e.major = uint16_t(rd(b, p + 26, 2));
  e.arch = uint32_t(rd(b, p + 28, 4));
  uint64_t idOff = rd(b, p + 32, 4), idLen = rd(b, p + 36, 4);
  e.flags = rd(b, p + 40, 8);
  e.decompressedSize = rd(b, p + 56, 8);
  e.headerOffset = p;
  e.container = container;
  if (hsize < kEntryHeaderMin || hsize > end - p) {
    err = at(p + 4) + ": expected an entry header size from 64 to " + std::to_string(end - p) +
          " (the bytes left in the container), found " + std::to_string(hsize);
    return false;
  }
  if (psize == 0) {
    err = at(p + 8) + ": expected a non-zero entry payload size (kind " + std::to_string(e.rawKind) + ", sm_" +
          std::to_string(e.arch) + "), found 0";
    return false;
  }
  if (psize > end - p - hsize) {
    err = at(p + 8) + ": expected an entry payload size of at most " + std::to_string(end - p - hsize) +
          " (the bytes left in the container), found " + std::to_string(psize);
    return false;
  }
  bool lz4 = e.flags & kFlagLz4, zstd = e.flags & kFlagZstd;
  if (lz4 && zstd) {
    err = at(p + 40) + ": expected at most one compression flag (0x2000 LZ4, 0x8000 zstd), found flags " +
          hex(e.flags);
    return false;
  }
  e.compression = lz4 ? Compression::Lz4 : zstd ? Compression::Zstd : Compression::None;
  e.dataOffset = p + hsize;
  if (e.compression == Compression::None) {
    e.storedSize = psize;
  } else {
    if (csize == 0 || csize > psize) {
      err = at(p + 16) + ": expected a compressed size from 1 to the payload size " + std::to_string(psize) +
            ", found " + std::to_string(csize);
      return false;
    }
    if (e.decompressedSize == 0 || e.decompressedSize > kMaxDecompressed) {
      err = at(p + 56) + ": expected a decompressed size from 1 to " + std::to_string(kMaxDecompressed) +
            ", found " + std::to_string(e.decompressedSize);
      return false;
    }
    e.storedSize = csize;
  }
  // The options record (PTX entries) and the identifier live inside the header.
  if (optOff) {
    if (optOff + 8 > hsize) {
      err = at(p + 20) + ": expected the options record inside the " + std::to_string(hsize) +
            "-byte entry header, found offset " + std::to_string(optOff);
      return false;
    }
    uint64_t oOff = rd(b, p + optOff, 4), oLen = rd(b, p + optOff + 4, 4);
    if (oLen) {
      if (oOff + oLen > hsize) {
        err = at(p + optOff) + ": expected the option text inside the entry header, found offset " +
              std::to_string(oOff) + " size " + std::to_string(oLen);
        return false;
      }
      e.options.assign(b.data() + p + oOff, oLen);
      while (!e.options.empty() && (e.options.back() == '\0' || e.options.back() == ' ')) e.options.pop_back();
    }
  }
  if (idLen) {
    if (idOff + idLen > hsize + psize) {
      err = at(p + 32) + ": expected the identifier inside the entry, found offset " + std::to_string(idOff) +
            " length " + std::to_string(idLen);
      return false;
    }
    e.identifier.assign(b.data() + p + idOff, idLen);
  }
  next = p + hsize + psize;
  return true;
}

}  // namespace

bool parseContainers(std::string_view b, uint64_t begin, uint64_t end, bool strict, const std::string& where,
                     std::vector<Container>& containers, std::vector<Entry>& entries, uint64_t& consumed,
                     std::string& err) {
  uint64_t p = begin;
  while (p < end) {
    if (strict && p != begin) {
      // Zero padding up to 8-byte alignment may separate containers (section alignment).
      uint64_t q = p;
      while (q < end && q % 8 && b[q] == 0) ++q;
      if (q == end) break;
      // A section may end in zero padding beyond that too; only zeros are allowed there.
      bool allZero = true;
      for (uint64_t r = q; r < end && allZero; ++r) allZero = b[r] == 0;
      if (allZero) break;
      p = q;
    }
    if (end - p < 16) {
      err = at(p) + ": expected a 16-byte fatbin header, found only " + std::to_string(end - p) + " byte(s) (" +
            where + ")";
      return false;
    }
    uint64_t magic = rd(b, p, 4);
    if (magic != kMagic) {
      err = at(p) + ": expected the fatbin magic 0xba55ed50, found " + hex(magic) + " (" + where + ")";
      return false;
    }
    uint64_t version = rd(b, p + 4, 2), hsize = rd(b, p + 6, 2), fsize = rd(b, p + 8, 8);
    if (version != 1) {
      err = at(p + 4) + ": expected fatbin version 1, found " + std::to_string(version);
      return false;
    }
    if (hsize < 16 || hsize > end - p) {
      err = at(p + 6) + ": expected a fatbin header size of 16, found " + std::to_string(hsize);
      return false;
    }
    if (fsize > end - p - hsize) {
      err = at(p + 8) + ": expected a fatbin size of at most " + std::to_string(end - p - hsize) +
            " (the bytes left in the " + where + "), found " + std::to_string(fsize);
      return false;
    }
    Container c;
    c.offset = p;
    c.size = hsize + fsize;
    c.where = where;
    int ci = int(containers.size());
    containers.push_back(c);
    uint64_t q = p + hsize, cend = p + hsize + fsize;
    while (q < cend) {
      Entry e;
      uint64_t next = 0;
      if (!parseEntry(b, q, cend, ci, e, next, err)) return false;
      entries.push_back(std::move(e));
      q = next;
    }
    p = cend;
    if (!strict) break;
  }
  consumed = p;
  return true;
}

bool payload(std::string_view b, const Entry& e, std::string& out, std::string& err) {
  std::string_view stored = b.substr(e.dataOffset, e.storedSize);
  if (e.compression == Compression::None) {
    out.assign(stored);
  } else if (e.compression == Compression::Lz4) {
    out.assign(e.decompressedSize, '\0');
    int n = LZ4_decompress_safe(stored.data(), out.data(), int(stored.size()), int(out.size()));
    if (n < 0) {
      err = at(e.dataOffset) + ": expected LZ4 block data (" + std::to_string(stored.size()) +
            " bytes), found data LZ4 cannot decompress";
      return false;
    }
    if (uint64_t(n) != e.decompressedSize) {
      err = at(e.dataOffset) + ": expected " + std::to_string(e.decompressedSize) +
            " bytes after LZ4 decompression (the entry header says so), found " + std::to_string(n);
      return false;
    }
  } else {
    out.assign(e.decompressedSize, '\0');
    size_t n = ZSTD_decompress(out.data(), out.size(), stored.data(), stored.size());
    if (ZSTD_isError(n)) {
      err = at(e.dataOffset) + ": expected a zstd frame (" + std::to_string(stored.size()) +
            " bytes), found data zstd cannot decompress: " + ZSTD_getErrorName(n);
      return false;
    }
    if (n != e.decompressedSize) {
      err = at(e.dataOffset) + ": expected " + std::to_string(e.decompressedSize) +
            " bytes after zstd decompression (the entry header says so), found " + std::to_string(n);
      return false;
    }
  }
  if (e.kind == Kind::Ptx) {
    size_t nul = out.find('\0');
    if (nul != std::string::npos) out.resize(nul);
  }
  return true;
}

}  // namespace p2g::fatbin

#include "memcheck.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "manifest.h"

namespace p2g::vk {

namespace {

std::string sizeText(uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

uint32_t u32At(const Buffer& b, uint32_t at) {
  uint32_t v;
  std::memcpy(&v, (const uint8_t*)b.map + at, 4);
  return v;
}

// Where a global address lies: an offset of the buffer whose allocation (guards included) holds it, or, outside
// every allocation, the nearest buffer.
std::string globalPlace(uint64_t a, const std::vector<Region>& regions) {
  const Region* best = nullptr;
  uint64_t bestDist = UINT64_MAX;
  for (auto& r : regions) {
    if (!r.inTable) continue;
    uint64_t base = r.buf->addr, end = base + r.addressable;
    uint64_t d = a < base ? base - a : a >= end ? a - end : 0;
    if (d < bestDist) {
      bestDist = d;
      best = &r;
    }
  }
  if (!best) {
    char b[64];
    std::snprintf(b, sizeof b, "at address 0x%016" PRIx64, a);
    return std::string(b) + ", and the case has no buffer";
  }
  uint64_t base = best->buf->addr, size = best->addressable;
  std::string sized = best->what + " (" + sizeText(size) + ")";
  if (bestDist <= kGuardBytes) {
    int64_t off = int64_t(a - base);
    return "at offset " + std::to_string(off) + " of " + sized;
  }
  char b[64];
  std::snprintf(b, sizeof b, "at address 0x%016" PRIx64, a);
  return std::string(b) + ", in no buffer (nearest: " + sized + ", " + std::to_string(bestDist) + " bytes " +
         (a < base ? "before its start" : "past its end") + ")";
}

}  // namespace

std::string guardDamage(const std::vector<Region>& regions) {
  std::string out;
  for (auto& r : regions) {
    int64_t first = 0, last = 0;
    if (checkGuards(*r.buf, first, last)) continue;
    std::string where = first < 0 && last >= int64_t(r.buf->size) ? "the guard zones before and after it"
                        : first < 0                                ? "the guard zone before it"
                                                                   : "the guard zone after it";
    out += std::string(out.empty() ? "" : "; ") + "the kernel wrote outside " + r.what + " (" +
           sizeText(r.buf->size) + "): bytes at offsets " + std::to_string(first) + ".." + std::to_string(last) +
           " of it, in " + where + ", were changed";
  }
  return out;
}

bool boundsTable(const std::vector<Region>& regions, std::vector<uint64_t>& table, std::string& err) {
  std::vector<std::pair<uint64_t, uint64_t>> t;
  for (auto& r : regions)
    if (r.inTable) t.push_back({r.buf->addr, r.addressable});
  if (t.size() > kBoundsSlots) {
    err = "--check-bounds: the case has " + std::to_string(t.size()) + " buffers the kernel may address; the check "
          "holds " + std::to_string(kBoundsSlots);
    return false;
  }
  std::sort(t.begin(), t.end());
  table.assign(2 * kBoundsSlots, 0);
  for (size_t i = 0; i < t.size(); ++i) {
    table[2 * i] = t[i].first;
    table[2 * i + 1] = t[i].second;
  }
  return true;
}

void clearBoundsRecord(Buffer& bounds) { std::memset(bounds.map, 0, kBoundsBytes); }

std::string boundsReport(const Buffer& bounds, const std::vector<Region>& regions, uint32_t staticShared,
                         uint32_t dynamicShared) {
  uint32_t hits = u32At(bounds, 0);
  if (u32At(bounds, 4) == 0) return "";
  uint32_t what = u32At(bounds, 8), n = u32At(bounds, 12), line = u32At(bounds, 16), limit = u32At(bounds, 44);
  uint64_t a;
  std::memcpy(&a, (const uint8_t*)bounds.map + 48, 8);
  auto xyz = [&](uint32_t at) {
    return "(" + std::to_string(u32At(bounds, at)) + "," + std::to_string(u32At(bounds, at + 4)) + "," +
           std::to_string(u32At(bounds, at + 8)) + ")";
  };
  const char* verb = (what & 0xFF) == 0 ? "read" : (what & 0xFF) == 1 ? "wrote" : "atomically updated";
  std::string place;
  std::string off = "at offset " + std::to_string(a) + " of ";
  switch (BoundsSpace((what >> 8) & 0xF)) {
    case BoundsSpace::Global: place = globalPlace(a, regions); break;
    case BoundsSpace::Shared:
      place = off + "shared memory (" + sizeText(limit) + ": " + std::to_string(staticShared) + " static + " +
              std::to_string(dynamicShared) + " dynamic)";
      break;
    case BoundsSpace::Local: place = off + "local memory (" + sizeText(limit) + " per thread)"; break;
    case BoundsSpace::Const: place = off + "constant memory (" + sizeText(limit) + ")"; break;
    case BoundsSpace::Param: place = off + "the parameter block (" + sizeText(limit) + ")"; break;
    default: place = "in an unknown state space (what = " + std::to_string(what) + ")"; break;
  }
  return "thread " + xyz(20) + " block " + xyz(32) + " " + verb + " " + sizeText(n) + " " + place + ", ptx line " +
         (line ? std::to_string(line) : std::string("unknown")) + "; " + std::to_string(hits) +
         (hits == 1 ? " out-of-bounds access" : " out-of-bounds accesses") +
         " in all (--check-bounds skipped them); results refused";
}

}  // namespace p2g::vk

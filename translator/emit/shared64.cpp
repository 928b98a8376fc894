#include "shared64.h"

namespace p2g {

namespace {

bool isSharedAccess(const ir::Inst& in) {
  if (in.op != "ld" && in.op != "st" && in.op != "atom" && in.op != "red") return false;
  return in.hasMod("shared");
}

int accessBits(const ir::Inst& in) {
  for (auto it = in.mods.rbegin(); it != in.mods.rend(); ++it) {
    auto m = *it;
    if (m == "b64" || m == "u64" || m == "s64" || m == "f64") return 64;
    if (m == "b32" || m == "u32" || m == "s32" || m == "f32") return 32;
    if (m == "b16" || m == "u16" || m == "s16" || m == "f16" || m == "b8" || m == "u8" || m == "s8") return 16;
  }
  return 0;
}

}  // namespace

Shared64Layout planShared64(const ir::Function& f) {
  Shared64Layout L;
  L.slotBase.assign(f.vars.size(), -1);
  // Address provenance per register: -1 none seen, >= 0 a shared var, -2 conflicting or unknown arithmetic.
  std::vector<int> prov(f.regs.size(), -1);
  auto provOf = [&](const ir::Opnd& o) -> int {
    if (o.kind == ir::Opnd::Kind::VarAddr) return f.vars[o.var].space == ptx::Space::Shared ? o.var : -2;
    if ((o.kind == ir::Opnd::Kind::Reg || o.kind == ir::Opnd::Kind::RegAddr) && o.reg >= 0) return prov[o.reg];
    return -1;
  };
  auto setProv = [&](int r, int v) {
    if (prov[r] == -1) prov[r] = v;
    else if (prov[r] != v) prov[r] = -2;
  };
  for (int iter = 0; iter < 3; ++iter)  // loops may carry an address around: a few passes reach the fixed point
    for (auto& b : f.blocks)
      for (auto& in : b.insts) {
        if (in.ops.empty() || in.ops[0].kind != ir::Opnd::Kind::Reg) continue;
        int d = in.ops[0].reg;
        bool addrOp = in.op == "mov" || in.op == "cvta" || in.op == "cvt" || in.op == "add" || in.op == "sub";
        if (!addrOp) continue;
        int p = -1;
        for (size_t k = 1; k < in.ops.size(); ++k) {
          int q = provOf(in.ops[k]);
          if (q == -1) continue;
          if (q == -2 || (p >= 0 && q != p) || (in.op == "sub" && k == 2)) { p = -2; break; }
          p = q;
        }
        if (p != -1) setProv(d, p);
      }
  // Every shared access must name its variable; collect widths per variable.
  std::vector<int> minBits(f.vars.size(), 1000), maxBits(f.vars.size(), 0);
  std::vector<bool> hasAtomic64(f.vars.size(), false);
  std::map<const ir::Inst*, int> acc;
  for (auto& b : f.blocks)
    for (auto& in : b.insts) {
      // ldmatrix/stmatrix/cp.async/wmma (emit_tensor.cpp) read and write the word array: nothing moves
      if (in.op == "ldmatrix" || in.op == "stmatrix" || in.op == "cp" || in.op == "wmma") return L;
      if (!isSharedAccess(in)) continue;
      size_t ai = (in.op == "st" || in.op == "red") ? 0 : 1;
      if (ai >= in.ops.size()) return L;
      int v = provOf(in.ops[ai]);
      if (v < 0) return L;  // unknown target: no split
      int bits = accessBits(in);
      if (in.hasMod("v2") || in.hasMod("v4")) bits = 0;  // vector accesses keep the word layout
      minBits[v] = std::min(minBits[v], bits);
      maxBits[v] = std::max(maxBits[v], bits);
      if ((in.op == "atom" || in.op == "red") && bits == 64) hasAtomic64[v] = true;
      acc[&in] = v;
    }
  for (size_t v = 0; v < f.vars.size(); ++v) {
    const ir::Var& var = f.vars[v];
    if (!hasAtomic64[v] || minBits[v] != 64 || maxBits[v] != 64) continue;
    if (var.dynamic || var.offset % 8 || var.bytes % 8) continue;
    L.slotBase[v] = int(L.words);
    L.words += var.bytes / 8;
  }
  if (L.words) L.accessVar = std::move(acc);
  return L;
}

}  // namespace p2g

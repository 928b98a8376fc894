// pair_sust: two scalar 16-bit surface stores of neighbouring texels (sust.b.<geom>.b16 at byte x and x + 2 of one
// row) become one pair store, which the emitter writes as one 32-bit word where the pair is inside the image and
// word-aligned, and as the two stores otherwise (tex_prelude.cpp p2g_sust2, which tests that at run time). The
// bytes are the same; only the speed changes.
//
// Why: NVIDIA's Vulkan driver makes a 16-bit store through a buffer reference far slower than a 32-bit one. K's
// four scalar sust.b.2d.b16 to hires_out, paired: K native 3.55 -> 2.07 ms on an H100 (medians of 50, four
// alternations; docs/GPU_BENCH.md "Paired 16-bit surface stores").
//
// Which pairs: A = sust.b16 at {xA, y..} then, later in the same block, B = sust.b16 with the same handle,
// geometry, clamp mode and guard, the same other coordinates, and an x defined as `or xA, 2` or `add xA, 2`
// (nvcc's form for neighbouring texels). A moves down to B, so nothing between them may observe or order surface
// memory (an image instruction, a barrier, a fence, an atomic or reduction, a call) or change a register A reads.
// Global, shared and local loads and stores may stand between: in CUDA they cannot address a surface's array.
//
// Needs: valid IR. Guarantees: each pair is one `sust` marked kMarkPair with operands {A's address, A's value,
// B's value, B's address}; B's x is still compared with xA + 2 at run time. Keeps: every other instruction.
#include "pair_sust.h"

#include <vector>

namespace p2g {

namespace {

// The coordinates of `[h, {c...}]` (the lifter keeps them as the address operand's elems, or as its one Vec elem)
// and the index of x among them (layered geometries put the layer first).
const std::vector<ir::Opnd>& coordsOf(const ir::Inst& in) {
  const ir::Opnd& a = in.ops[0];
  return a.elems.size() == 1 && a.elems[0].kind == ir::Opnd::Kind::Vec ? a.elems[0].elems : a.elems;
}
size_t xIndex(const ir::Inst& in) { return in.hasMod("a1d") || in.hasMod("a2d") ? 1 : 0; }

bool isScalarSust16(const ir::Inst& in) {
  if (in.op != "sust" || !in.hasMod("b") || !in.hasMod("b16") || in.hasMod("v2") || in.hasMod("v4")) return false;
  if (in.hasMod(kMarkPair) || in.ops.size() != 2) return false;
  const ir::Opnd& a = in.ops[0];
  return a.kind == ir::Opnd::Kind::RegAddr && a.reg >= 0 && coordsOf(in).size() > xIndex(in);
}

bool sameOpnd(const ir::Opnd& a, const ir::Opnd& b) {
  if (a.kind != b.kind || a.neg != b.neg) return false;
  switch (a.kind) {
    case ir::Opnd::Kind::Reg: return a.reg == b.reg;
    case ir::Opnd::Kind::Imm: return a.imm == b.imm;
    default: return false;
  }
}

// Registers an instruction writes: ops[0] of everything that has a destination (not stores, reductions, barriers);
// a `d|p` pair is a two-element vector there.
bool writesReg(const ir::Inst& in, int reg) {
  if (in.ops.empty() || in.op == "st" || in.op == "sust" || in.op == "red" || in.op == "sured" || in.op == "bar" ||
      in.op == "barrier" || in.op == "membar" || in.op == "fence" || in.op == "prefetch")
    return false;
  const ir::Opnd& d = in.ops[0];
  if (d.kind == ir::Opnd::Kind::Reg && d.reg == reg) return true;
  for (auto& e : d.elems)
    if (e.kind == ir::Opnd::Kind::Reg && e.reg == reg) return true;
  return false;
}

// Instructions a store may not move past: whatever reads, orders or publishes surface memory, and control transfer.
bool fencesSurfaces(const ir::Inst& in) {
  static const char* kOps[] = {"tex",  "tld4",    "suld",   "sust",  "sured", "suq",   "txq",  "bar",  "barrier",
                               "membar", "fence", "atom",   "red",   "call",  "ret",   "exit", "trap", "brkpt",
                               "cp",   "mbarrier", "griddepcontrol", "wmma", "mma"};
  for (const char* o : kOps)
    if (in.op == o) return true;
  return false;
}

// The registers A reads: the handle, the coordinates, the value, the guard.
std::vector<int> readsOf(const ir::Inst& a) {
  std::vector<int> r;
  auto add = [&](const ir::Opnd& o, auto&& self) -> void {
    if ((o.kind == ir::Opnd::Kind::Reg || o.kind == ir::Opnd::Kind::RegAddr) && o.reg >= 0) r.push_back(o.reg);
    for (auto& e : o.elems) self(e, self);
  };
  for (auto& o : a.ops) add(o, add);
  if (a.guardReg >= 0) r.push_back(a.guardReg);
  return r;
}

// B's x is `or xA, 2` / `add xA, 2` (either order of the operands): its last definition before index hi of the
// block, with xA unchanged from there to hi.
bool xIsNeighbour(const ir::Block& blk, size_t hi, const ir::Opnd& xA, const ir::Opnd& xB) {
  if (xB.kind != ir::Opnd::Kind::Reg || xA.kind != ir::Opnd::Kind::Reg) return false;
  for (size_t k = hi; k-- > 0;) {
    const ir::Inst& d = blk.insts[k];
    if (!writesReg(d, xB.reg)) continue;
    if ((d.op != "or" && d.op != "add") || d.ops.size() != 3 || d.guardReg >= 0) return false;
    const ir::Opnd &p = d.ops[1], &q = d.ops[2];
    bool pq = sameOpnd(p, xA) && q.kind == ir::Opnd::Kind::Imm && q.imm == 2;
    bool qp = sameOpnd(q, xA) && p.kind == ir::Opnd::Kind::Imm && p.imm == 2;
    if (!pq && !qp) return false;
    for (size_t m = k + 1; m < hi; ++m)  // xA unchanged from the definition to B
      if (writesReg(blk.insts[m], xA.reg)) return false;
    return true;
  }
  return false;
}

bool sameForm(const ir::Inst& a, const ir::Inst& b) {
  if (a.mods.size() != b.mods.size() || a.guardReg != b.guardReg || a.guardNeg != b.guardNeg) return false;
  for (size_t k = 0; k < a.mods.size(); ++k)
    if (a.mods[k] != b.mods[k]) return false;
  if (a.ops[0].reg != b.ops[0].reg) return false;  // the handle
  const auto &ca = coordsOf(a), &cb = coordsOf(b);
  if (ca.size() != cb.size()) return false;
  for (size_t k = 0; k < ca.size(); ++k)  // y, z, the layer: the same operands
    if (k != xIndex(a) && !sameOpnd(ca[k], cb[k])) return false;
  return true;
}

}  // namespace

PassResult runPairSust(ir::Function& f, std::string&) {
  bool changed = false;
  for (auto& blk : f.blocks) {
    for (size_t i = 0; i < blk.insts.size(); ++i) {
      if (!isScalarSust16(blk.insts[i])) continue;
      const ir::Inst& a = blk.insts[i];
      std::vector<int> reads = readsOf(a);
      size_t j = i + 1;
      bool found = false;
      for (; j < blk.insts.size(); ++j) {
        const ir::Inst& b = blk.insts[j];
        if (isScalarSust16(b) && sameForm(a, b) &&
            xIsNeighbour(blk, j, coordsOf(a)[xIndex(a)], coordsOf(b)[xIndex(b)])) {
          found = true;
          break;
        }
        if (fencesSurfaces(b)) break;
        bool clobbers = false;
        for (int r : reads) clobbers = clobbers || writesReg(b, r);
        if (clobbers) break;
      }
      if (!found) continue;
      ir::Inst& b = blk.insts[j];  // becomes the pair, at B's place
      b.ops = {a.ops[0], a.ops[1], b.ops[1], b.ops[0]};
      b.mods.push_back(kMarkPair);
      b.fusedSpan = a.span;
      blk.insts.erase(blk.insts.begin() + long(i));
      --i;
      changed = true;
    }
  }
  return changed ? PassResult::Changed : PassResult::Unchanged;
}

}  // namespace p2g

// barrier_mem: which memory each CTA barrier must order. PTX's bar.sync orders every state space for the threads of
// the CTA (PTX ISA 9.7.13.1 "bar, barrier"); the emitter's p2g_bar_sync does that with one workgroup-scope
// OpControlBarrier over shared, buffer and image memory. On NVIDIA's Vulkan driver the buffer and image semantics
// are most of a barrier's cost: bench/smem_barrier native 8.605 -> 2.594 ms with shared memory alone (CUDA 2.582;
// H100, driver 580.159.04, docs/GPU_BENCH.md "Barrier memory semantics").
//
// A barrier orders buffer (image) memory between threads only if some access to it may run before the barrier in a
// thread, some access may run after it in another, and one of the two writes: a write read or overwritten across
// the barrier, or a read that a later write must not reach. Where no such pair exists the barrier is marked
// kMarkBarShared (shared memory only). Where every such pair is between accesses through different kernel
// parameters (pointers loaded by ld.param from distinct parameter offsets, followed through arithmetic), the
// barrier is marked kMarkBarParams: shared memory only when the runtime finds those parameters point into distinct
// buffers (specialization constant P2G_PARAMS_DISJOINT, manifest.h kSpecParamsDisjoint), all three otherwise.
//
// The analysis is per barrier instruction: bar.sync and bar.arrive are barrier.{sync,arrive}.aligned, which every
// thread of the CTA executes at the same instruction (PTX ISA "barrier"). With a barrier without .aligned in the
// kernel, threads may meet at different barrier instructions, so every barrier is judged on the accesses around
// all of them together.
//
// Conservative everywhere: "before" is every instruction of a block that can reach the barrier's block (and the
// whole block when it lies on a cycle), "after" likewise forward; a pointer's provenance is the union over every
// instruction that writes its register of the provenance of what it reads; a value loaded from memory (but a
// 64-bit kernel parameter), a call's results and an address with no provenance are unknown and may alias anything;
// generic addresses count as buffer memory; calls, wmma, cp, mbarrier and multimem count as unknown reads and
// writes of both. Texture fetches are not ordered: CUDA's texture cache is not coherent with writes in the same
// launch. bar.red keeps its full barriers (prelude.cpp p2g_bar_red).
//
// Needs: valid IR. Guarantees: bar/barrier (not .warp, not .red) marked kMarkBarShared or kMarkBarParams where
// proven; nothing else changes.
#include "barrier_mem.h"

#include <algorithm>
#include <initializer_list>
#include <vector>

namespace p2g {

namespace {

using ir::Opnd;

constexpr int64_t kGlobals = -1;  // the module's .global variables
constexpr int64_t kUnknown = -2;  // may be anything

// Where a pointer may point: parameter byte offsets and kGlobals, or kUnknown, which absorbs the rest (an unknown
// pointer overlaps everything, so what else it may be never matters). Most registers of a kernel are unknown (every
// value computed from a load), so that case holds no list at all; the lists are a few entries, kept sorted.
class Prov {
 public:
  Prov() = default;
  Prov(std::initializer_list<int64_t> xs) {
    for (int64_t x : xs) add(x);
  }
  bool unknown() const { return unknown_; }
  bool empty() const { return !unknown_ && at_.empty(); }
  bool has(int64_t x) const { return !unknown_ && std::binary_search(at_.begin(), at_.end(), x); }
  const std::vector<int64_t>& known() const { return at_; }
  // adds x; true when that changed the set
  bool add(int64_t x) {
    if (unknown_) return false;
    if (x == kUnknown) {
      unknown_ = true;
      at_.clear();
      return true;
    }
    auto it = std::lower_bound(at_.begin(), at_.end(), x);
    if (it != at_.end() && *it == x) return false;
    at_.insert(it, x);
    return true;
  }
  // adds every member of o; true when that changed the set
  bool merge(const Prov& o) {
    if (unknown_) return false;
    if (o.unknown_) return add(kUnknown);
    bool changed = false;
    for (int64_t x : o.at_) changed |= add(x);
    return changed;
  }

 private:
  bool unknown_ = false;
  std::vector<int64_t> at_;
};

bool isBarrier(const ir::Inst& in) {
  return (in.op == "bar" || in.op == "barrier") && !in.hasMod("warp") && !in.hasMod("red");
}

enum class Space { None, Buffer, Other };  // None: generic

Space spaceOf(const ir::Inst& in) {
  for (auto m : in.mods) {
    if (m == "global") return Space::Buffer;
    if (m == "shared" || m == "local" || m == "param" || m == "const") return Space::Other;
  }
  return Space::None;
}

// The registers an instruction may write: ops[0] when it is a register or a vector of registers (stores have an
// address there, which is skipped; counting a store's value register would only widen its provenance).
template <class F>
void forDests(const ir::Inst& in, F&& f) {
  if (in.ops.empty()) return;
  const Opnd& d = in.ops[0];
  if (d.kind == Opnd::Kind::Reg && d.reg >= 0) f(d.reg);
  for (auto& e : d.elems)
    if (e.kind == Opnd::Kind::Reg && e.reg >= 0) f(e.reg);
}

template <class F>
void forSources(const Opnd& o, F&& f) {
  if ((o.kind == Opnd::Kind::Reg || o.kind == Opnd::Kind::RegAddr) && o.reg >= 0) f(o.reg);
  for (auto& e : o.elems) forSources(e, f);
}

struct Access {
  bool buffer = false, image = false;  // the memory it touches
  bool read = false, write = false;
  Prov prov;                            // buffer accesses: where the address points
};

class Analysis {
 public:
  explicit Analysis(const ir::Function& f) : F(f), prov_(f.regs.size()) { provenance(); }

  // The provenance of a value read from operand `o` (an address operand: its register; a .global variable).
  Prov addrProv(const Opnd& o) const {
    if (o.kind == Opnd::Kind::VarAddr && o.var >= 0 && size_t(o.var) < F.vars.size())
      return F.vars[size_t(o.var)].space == ptx::Space::Global ? Prov{kGlobals} : Prov{};
    if (o.kind == Opnd::Kind::RegAddr && o.reg >= 0) return prov_[size_t(o.reg)];
    return Prov{kUnknown};
  }

  Access access(const ir::Inst& in) const {
    Access a;
    std::string_view op = in.op;
    if (op == "call" || op == "wmma" || op == "cp" || op == "mbarrier" || op == "multimem" || op == "tensormap") {
      a.buffer = a.image = a.read = a.write = true;
      a.prov = {kUnknown};
      return a;
    }
    if (op == "suld" || op == "sust" || op == "sured") {
      a.image = true;
      a.read = op != "sust";
      a.write = op != "suld";
      return a;
    }
    bool load = op == "ld" || op == "ldu", store = op == "st", rmw = op == "atom" || op == "red";
    if (!load && !store && !rmw) return a;
    if (spaceOf(in) == Space::Other) return a;
    const Opnd* addr = nullptr;
    for (auto& o : in.ops)
      if (o.kind == Opnd::Kind::RegAddr || (o.kind == Opnd::Kind::VarAddr && o.bracket)) {
        addr = &o;
        break;
      }
    a.buffer = true;
    a.read = load || rmw;
    a.write = store || rmw;
    a.prov = addr ? addrProv(*addr) : Prov{kUnknown};
    if (addr && addr->kind == Opnd::Kind::VarAddr && a.prov.empty()) a.buffer = false;  // a shared variable
    if (a.buffer && a.prov.empty()) a.prov = {kUnknown};  // an address made of integers alone
    return a;
  }

 private:
  // Flow-insensitive: prov(r) = the union, over every instruction writing r, of what it writes there.
  void provenance() {
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& b : F.blocks)
        for (auto& in : b.insts) {
          Prov p = written(in);
          if (p.empty()) continue;
          forDests(in, [&](int r) { changed |= prov_[size_t(r)].merge(p); });
        }
    }
  }
  // What an instruction writes into its destination registers.
  Prov written(const ir::Inst& in) const {
    std::string_view op = in.op;
    if (op == "ld" || op == "ldu") {
      const Opnd& s = in.ops.size() > 1 ? in.ops[1] : in.ops[0];
      bool wide = in.hasMod("u64") || in.hasMod("b64") || in.hasMod("s64");
      bool vec = in.hasMod("v2") || in.hasMod("v4") || in.hasMod("v8");
      bool kernelParam = in.hasMod("param") && s.kind == Opnd::Kind::VarAddr && s.var >= 0 &&
                         size_t(s.var) < F.vars.size() && F.vars[size_t(s.var)].space == ptx::Space::Param;
      // a 64-bit kernel parameter: a pointer into the buffer it names; a narrower one: an integer, which moves a
      // pointer within its buffer but does not make one (a pointer built from 32-bit halves has no provenance,
      // and an access through an address without provenance counts as unknown)
      if (kernelParam && wide && !vec) return Prov{int64_t(F.vars[size_t(s.var)].offset) + s.imm};
      if (kernelParam && !wide) return Prov{};
      return Prov{kUnknown};
    }
    if (op == "atom" || op == "call" || op == "suld" || op == "tex" || op == "tld4" || op == "shfl" || op == "wmma" ||
        op == "mma" || op == "ldmatrix" || op == "vote" || op == "redux" || op == "mbarrier" || op == "multimem")
      return Prov{kUnknown};
    Prov p;
    for (size_t i = 1; i < in.ops.size(); ++i) {
      const Opnd& o = in.ops[i];
      if (o.kind == Opnd::Kind::VarAddr && o.var >= 0 && size_t(o.var) < F.vars.size() &&
          F.vars[size_t(o.var)].space == ptx::Space::Global)
        p.add(kGlobals);
      forSources(o, [&](int r) { p.merge(prov_[size_t(r)]); });
    }
    return p;
  }

  const ir::Function& F;
  std::vector<Prov> prov_;
};

// Blocks reachable from `from` by one or more of the edges `next` (successors: forward; predecessors: backward).
using Edges = std::vector<std::vector<int>>;
std::vector<char> reach(const Edges& next, int from) {
  std::vector<char> seen(next.size(), 0);
  std::vector<int> work(next[size_t(from)]);
  while (!work.empty()) {
    int b = work.back();
    work.pop_back();
    if (seen[size_t(b)]) continue;
    seen[size_t(b)] = 1;
    for (int n : next[size_t(b)]) work.push_back(n);
  }
  return seen;
}

bool overlap(const Prov& a, const Prov& b) {
  if (a.unknown() || b.unknown()) return true;
  for (int64_t x : a.known())
    if (b.has(x)) return true;
  return false;
}

}  // namespace

PassResult runBarrierMem(ir::Function& f, std::string&) {
  bool any = false;
  for (auto& b : f.blocks)
    for (auto& in : b.insts) any |= isBarrier(in);
  if (!any) return PassResult::Unchanged;
  Analysis an(f);
  std::vector<std::vector<Access>> acc(f.blocks.size());
  for (size_t b = 0; b < f.blocks.size(); ++b)
    for (auto& in : f.blocks[b].insts) acc[b].push_back(an.access(in));
  Edges succ(f.blocks.size()), pred(f.blocks.size());
  for (size_t b = 0; b < f.blocks.size(); ++b)
    for (int t : f.blocks[b].term.targets) {
      succ[b].push_back(t);
      pred[size_t(t)].push_back(int(b));
    }
  // the accesses that may run before and after the barrier at (b, k), added to `before` and `after`
  auto around = [&](size_t b, size_t k, std::vector<const Access*>& before, std::vector<const Access*>& after) {
    std::vector<char> fwd = reach(succ, int(b)), back = reach(pred, int(b));
    bool cycle = fwd[b];
    for (size_t c = 0; c < f.blocks.size(); ++c)
      for (size_t i = 0; i < acc[c].size(); ++i) {
        const Access* a = &acc[c][i];
        if (!a->buffer && !a->image) continue;
        bool here = c == b;
        if ((here && (i < k || cycle)) || (!here && back[c])) before.push_back(a);
        if ((here && (i > k || cycle)) || (!here && fwd[c])) after.push_back(a);
      }
  };
  // 0: buffer and image memory; 1: only where the parameters may share a buffer; 2: shared memory only
  auto judge = [&](const std::vector<const Access*>& before, const std::vector<const Access*>& after) {
    bool params = false;
    for (const Access* x : before)
      for (const Access* y : after) {
        if (!(x->write || y->write)) continue;
        if (x->image && y->image) return 0;
        if (x->buffer && y->buffer) {
          if (overlap(x->prov, y->prov)) return 0;
          params = true;
        }
      }
    return params ? 1 : 2;
  };
  bool aligned = true;
  for (auto& b : f.blocks)
    for (auto& in : b.insts)
      if (in.op == "barrier" && !in.hasMod("warp") && !in.hasMod("aligned")) aligned = false;
  int common = -1;  // the one verdict for every barrier when one is not aligned
  if (!aligned) {
    std::vector<const Access*> before, after;
    for (size_t b = 0; b < f.blocks.size(); ++b)
      for (size_t k = 0; k < f.blocks[b].insts.size(); ++k) {
        const ir::Inst& in = f.blocks[b].insts[k];
        if ((in.op == "bar" || in.op == "barrier") && !in.hasMod("warp")) around(b, k, before, after);
      }
    common = judge(before, after);
  }
  bool changed = false;
  for (size_t b = 0; b < f.blocks.size(); ++b)
    for (size_t k = 0; k < f.blocks[b].insts.size(); ++k) {
      ir::Inst& bar = f.blocks[b].insts[k];
      if (!isBarrier(bar)) continue;
      int v = common;
      if (v < 0) {
        std::vector<const Access*> before, after;
        around(b, k, before, after);
        v = judge(before, after);
      }
      if (v == 0) continue;
      bar.mods.push_back(v == 1 ? kMarkBarParams : kMarkBarShared);
      changed = true;
    }
  return changed ? PassResult::Changed : PassResult::Unchanged;
}

}  // namespace p2g

#include "fold.h"

#include <algorithm>
#include <initializer_list>
#include <span>
#include <string_view>

namespace p2g {

namespace {

using ir::Opnd;

// A set of opcode names, looked up by first letter: the plan asks for every instruction several times, and a
// string compare against each of some fifty names was a tenth of its time.
class OpSet {
 public:
  OpSet(std::initializer_list<std::string_view> names) {
    for (auto n : names) byFirst_[uint8_t(n[0])].push_back(n);
  }
  bool has(std::string_view op) const {
    if (op.empty()) return false;
    for (auto n : byFirst_[uint8_t(op[0])])
      if (n == op) return true;
    return false;
  }

 private:
  std::vector<std::string_view> byFirst_[256];
};

// Integer, bit, predicate and move work: the value depends only on the sources (and, for these opcodes, on no
// hidden state; add.cc and friends read and write the carry flag and are left out by their modifier).
bool pureOp(std::string_view op) {
  static const OpSet ops = {"add", "sub", "mul", "mad", "mul24", "mad24", "sad", "div", "rem", "abs",
                            "neg", "min", "max", "and", "or", "xor", "not", "cnot", "shl", "shr",
                            "popc", "clz", "brev", "bfind", "bfe", "bfi", "prmt", "shf", "lop3", "bmsk",
                            "selp", "setp", "mov", "cvt", "cvta"};
  return ops.has(op);
}

// Instructions that neither touch memory nor synchronise (a load may move across them).
bool noMemory(const ir::Inst& in) {
  static const OpSet more = {"fma", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh",
                             "copysign", "testp", "set", "slct"};
  return pureOp(in.op) || more.has(in.op);
}

bool isIntOrPredType(std::string_view m) {
  if (m == "pred") return true;
  if (m.size() < 2 || (m[0] != 'b' && m[0] != 'u' && m[0] != 's')) return false;
  return m == "b8" || m == "b16" || m == "b32" || m == "b64" || m == "u8" || m == "u16" || m == "u32" ||
         m == "u64" || m == "s8" || m == "s16" || m == "s32" || m == "s64";
}

bool isFloatType(std::string_view m) {
  return m == "f16" || m == "f16x2" || m == "bf16" || m == "bf16x2" || m == "f32" || m == "f64" || m == "tf32" ||
         m == "e4m3x2" || m == "e5m2x2";
}

}  // namespace

bool floatTyped(const ir::Inst& in) {
  for (auto m : in.mods)
    if (isFloatType(m)) return true;
  return false;
}

namespace {

// The registers a definition whose value may be written into its use defines, into `regs`: its destination, or
// the elements of an unpacking mov; none when the instruction is not such a definition. `noMem`: noMemory(in).
void foldableDefs(const ir::Inst& in, bool noMem, std::vector<int>& regs) {
  regs.clear();
  if (in.guardReg >= 0 || in.ops.empty() || in.hasMod("cc")) return;
  const Opnd& d = in.ops[0];
  if (d.kind == Opnd::Kind::Reg) {
    regs.push_back(d.reg);
  } else if (d.kind == Opnd::Kind::Vec && in.op == "mov" && in.ops.size() == 2 && in.ops[1].kind != Opnd::Kind::Vec) {
    for (auto& e : d.elems)
      if (e.kind == Opnd::Kind::Reg) regs.push_back(e.reg);
  } else {
    return;
  }
  if (in.op == "ld") {
    // ordered, volatile and wider-scope loads stay where PTX put them
    for (auto m : in.mods)
      if (m == "volatile" || m == "relaxed" || m == "acquire" || m == "mmio" || m == "sys" || m == "gpu" ||
          m == "cta" || m == "cluster" || m.substr(0, 2) == "v2" || m.substr(0, 2) == "v4" || m == "v8")
        return regs.clear();
    if (d.kind != Opnd::Kind::Reg) regs.clear();
    return;
  }
  if (!noMem) return regs.clear();
  bool typed = false;
  for (auto m : in.mods) typed = typed || isIntOrPredType(m) || isFloatType(m);
  if (!typed && in.op != "setp") regs.clear();
}

template <class Fn>
void regsOf(const Opnd& o, Fn&& f) {
  if ((o.kind == Opnd::Kind::Reg || o.kind == Opnd::Kind::RegAddr) && o.reg >= 0) f(o.reg);
  for (auto& e : o.elems) regsOf(e, f);
}

// Registers an instruction may write: every register of its first operand (destinations come first in PTX; for
// stores and the like this over-approximates, which only folds less).
template <class Fn>
void eachWrite(const ir::Inst& in, Fn&& f) {
  if (!in.ops.empty() && in.ops[0].kind != Opnd::Kind::RegAddr) regsOf(in.ops[0], f);
}

// Registers an instruction reads: every other operand, an address in the first operand, the guard. A register in
// the first operand of an instruction that has no destination there (st, red, bar...) is read as well: counted
// as both, which only folds less. `noMem` is noMemory(in), which the caller has at hand.
template <class Fn>
void eachRead(const ir::Inst& in, bool noMem, Fn&& f) {
  for (size_t i = 0; i < in.ops.size(); ++i) {
    if (i == 0 && in.ops[0].kind != Opnd::Kind::RegAddr) {
      if (!noMem && in.op != "ld") regsOf(in.ops[0], f);  // (noMemory covers pureOp)
      continue;
    }
    regsOf(in.ops[i], f);
  }
  if (in.guardReg >= 0) f(in.guardReg);
}

bool intersects(std::span<const int> a, std::span<const int> b) {
  for (int x : a)
    if (std::find(b.begin(), b.end(), x) != b.end()) return true;
  return false;
}

const size_t kMaxReads = 32, kMaxDistance = 1024;

// RW: each instruction's reads and writes (and whether it may touch memory), computed once per block, in flat
// arrays reused from block to block: instruction i reads r[rAt[i] .. rAt[i + 1]) and writes w[wAt[i] .. wAt[i + 1]).
struct RW {
  std::vector<int> r, w;
  std::vector<uint32_t> rAt, wAt;
  std::vector<uint8_t> mem;

  // `noMem`: noMemory of each instruction of b
  void collect(const ir::Block& b, const uint8_t* noMem) {
    r.clear(), w.clear(), rAt.assign(1, 0), wAt.assign(1, 0), mem.clear();
    for (size_t i = 0; i < b.insts.size(); ++i) {
      eachRead(b.insts[i], noMem[i], [&](int x) { r.push_back(x); });
      eachWrite(b.insts[i], [&](int x) { w.push_back(x); });
      rAt.push_back(uint32_t(r.size()));
      wAt.push_back(uint32_t(w.size()));
      mem.push_back(!noMem[i]);
    }
  }
  std::span<const int> reads(size_t i) const { return {r.data() + rAt[i], rAt[i + 1] - rAt[i]}; }
  std::span<const int> writes(size_t i) const { return {w.data() + wAt[i], wAt[i + 1] - wAt[i]}; }
};

// Marks register r, defined by instruction i of block b and read once, foldable when nothing between the definition
// and the use changes what its value reads (fold.h).
void planFold(const ir::Function& f, const ir::Block& b, const RW& rw, size_t i, int r, std::vector<uint8_t>& plan,
              std::vector<std::vector<int>>& deepReads, std::vector<uint8_t>& readsMemory) {
  const ir::Inst& d = b.insts[i];
  std::span<const int> own = rw.reads(i);
  std::vector<int> rd(own.begin(), own.end());
  // a kernel parameter (ld.param of an entry parameter) is read-only: its load moves like a pure value
  bool mem = d.op == "ld" && !(d.ops.size() == 2 && d.hasMod("param") && d.ops[1].kind == Opnd::Kind::VarAddr &&
                               f.vars[d.ops[1].var].space == ptx::Space::Param);
  for (int s : own) {
    if (plan[size_t(s)] != kFoldable) continue;  // a value folded into this one (its use is here: single use)
    rd.insert(rd.end(), deepReads[size_t(s)].begin(), deepReads[size_t(s)].end());
    mem = mem || readsMemory[size_t(s)];
  }
  // a value reading more registers than any statement could show stays assigned; the bound also keeps
  // long chains of copies linear (a 100,000-mov chain: tests/frontend/check.sh movchain)
  std::sort(rd.begin(), rd.end());
  rd.erase(std::unique(rd.begin(), rd.end()), rd.end());
  if (rd.size() > kMaxReads) return;
  bool ok = true;
  size_t j = i + 1;
  for (; j < b.insts.size() && j - i <= kMaxDistance; ++j) {
    std::span<const int> xr = rw.reads(j);
    bool isUse = std::find(xr.begin(), xr.end(), r) != xr.end();
    if (intersects(rw.writes(j), rd) || (mem && rw.mem[j])) ok = false;
    if (isUse || !ok) break;
  }
  if (!ok || j - i > kMaxDistance) return;  // a use this far away is not worth the scan
  if (j == b.insts.size() && b.term.condReg != r) return;  // used in another block
  plan[size_t(r)] = kFoldable;
  deepReads[size_t(r)] = std::move(rd);
  readsMemory[size_t(r)] = mem;
}

}  // namespace

std::vector<uint8_t> planFolds(const ir::Function& f) {
  size_t n = f.regs.size();
  std::vector<int> defs(n, 0), uses(n, 0);
  std::vector<uint8_t> noMem;  // noMemory of every instruction, in order (an opcode lookup: once each)
  for (auto& b : f.blocks) {
    for (auto& in : b.insts) {
      noMem.push_back(noMemory(in));
      eachWrite(in, [&](int r) { defs[size_t(r)]++; });
      eachRead(in, noMem.back(), [&](int r) { uses[size_t(r)]++; });
    }
    if (b.term.condReg >= 0) uses[size_t(b.term.condReg)]++;
  }
  std::vector<uint8_t> plan(n, 0);
  // what a folded value reads, following the values folded into it, and whether it reads memory
  std::vector<std::vector<int>> deepReads(n);
  std::vector<uint8_t> readsMemory(n, 0);
  RW rw;
  std::vector<int> regs;
  size_t first = 0;  // the block's first instruction in noMem
  for (auto& b : f.blocks) {
    rw.collect(b, noMem.data() + first);
    for (size_t i = 0; i < b.insts.size(); ++i) {
      const ir::Inst& d = b.insts[i];
      foldableDefs(d, noMem[first + i], regs);
      for (int r : regs) {
        if (defs[size_t(r)] == 1 && uses[size_t(r)] == 0 && d.op != "ld") plan[size_t(r)] = kDead;
        if (defs[size_t(r)] != 1 || uses[size_t(r)] != 1) continue;
        planFold(f, b, rw, i, r, plan, deepReads, readsMemory);
      }
    }
    first += b.insts.size();
  }
  return plan;
}

}  // namespace p2g

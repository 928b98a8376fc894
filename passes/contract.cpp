#include "contract.h"

#include <vector>

namespace p2g {

namespace {

bool hasRounding(const ir::Inst& in) {
  return in.hasMod("rn") || in.hasMod("rz") || in.hasMod("rm") || in.hasMod("rp");
}

std::string_view floatType(const ir::Inst& in) {
  for (auto m : in.mods)
    if (m == "f32" || m == "f64" || m == "f16" || m == "f16x2") return m;
  return {};
}

void forEachRead(const ir::Opnd& o, std::vector<int>& uses) {
  if ((o.kind == ir::Opnd::Kind::Reg || o.kind == ir::Opnd::Kind::RegAddr) && o.reg >= 0) uses[o.reg]++;
  for (auto& e : o.elems) forEachRead(e, uses);
}

// Destination operands: ops[0] for every instruction this pass looks at (and for most PTX instructions);
// st/red/atom-without-result have none. Conservative: count any register in ops[0] of a non-store as a def.
bool writesOp0(const ir::Inst& in) {
  return !(in.op == "st" || in.op == "red" || in.op == "bar" || in.op == "barrier" || in.op == "membar" ||
           in.op == "fence" || in.op == "prefetch");
}

void countDefs(const ir::Inst& in, std::vector<int>& defs) {
  if (in.ops.empty() || !writesOp0(in)) return;
  const ir::Opnd& d = in.ops[0];
  if (d.kind == ir::Opnd::Kind::Reg) defs[d.reg]++;
  for (auto& e : d.elems)
    if (e.kind == ir::Opnd::Kind::Reg) defs[e.reg]++;
}

bool defines(const ir::Inst& in, int reg) {
  if (in.ops.empty() || !writesOp0(in)) return false;
  const ir::Opnd& d = in.ops[0];
  if (d.kind == ir::Opnd::Kind::Reg && d.reg == reg) return true;
  for (auto& e : d.elems)
    if (e.kind == ir::Opnd::Kind::Reg && e.reg == reg) return true;
  return false;
}

}  // namespace

PassResult runContract(ir::Function& f, std::string& error) {
  size_t nreg = f.regs.size();
  std::vector<int> uses(nreg, 0), defs(nreg, 0);
  for (auto& b : f.blocks) {
    for (auto& in : b.insts) {
      if (in.guardReg >= 0) uses[in.guardReg]++;
      for (size_t i = 0; i < in.ops.size(); ++i) {
        if (i == 0 && writesOp0(in) && in.ops[0].kind != ir::Opnd::Kind::RegAddr) continue;
        forEachRead(in.ops[i], uses);
      }
      countDefs(in, defs);
    }
    if (b.term.condReg >= 0) uses[b.term.condReg]++;
  }
  bool changed = false;
  for (auto& b : f.blocks) {
    for (size_t i = 0; i < b.insts.size(); ++i) {
      ir::Inst& mul = b.insts[i];
      if (mul.op != "mul" || hasRounding(mul) || mul.hasMod("sat") || mul.ops.size() != 3) continue;
      std::string_view ty = floatType(mul);
      if (ty.empty() || mul.ops[0].kind != ir::Opnd::Kind::Reg) continue;
      int D = mul.ops[0].reg;
      if (defs[D] != 1 || uses[D] != 1) continue;
      // find the single use in this block, checking the mul's sources are not redefined before it
      std::vector<int> srcRegs;
      for (int k = 1; k <= 2; ++k)
        if (mul.ops[k].kind == ir::Opnd::Kind::Reg) srcRegs.push_back(mul.ops[k].reg);
      size_t j = i + 1;
      bool blocked = false;
      for (; j < b.insts.size(); ++j) {
        ir::Inst& u = b.insts[j];
        bool usesD = false;
        for (size_t k = 1; k < u.ops.size(); ++k)
          if (u.ops[k].kind == ir::Opnd::Kind::Reg && u.ops[k].reg == D) usesD = true;
        if (usesD) break;
        for (int r : srcRegs)
          if (defines(u, r)) blocked = true;
        if (blocked) break;
      }
      if (blocked || j >= b.insts.size()) continue;
      ir::Inst& add = b.insts[j];
      if ((add.op != "add" && add.op != "sub") || hasRounding(add) || add.ops.size() != 3) continue;
      if (floatType(add) != ty || add.hasMod("ftz") != mul.hasMod("ftz")) continue;
      if (add.guardReg != mul.guardReg || add.guardNeg != mul.guardNeg) continue;
      bool dFirst = add.ops[1].kind == ir::Opnd::Kind::Reg && add.ops[1].reg == D;
      bool dSecond = add.ops[2].kind == ir::Opnd::Kind::Reg && add.ops[2].reg == D;
      if (dFirst == dSecond) continue;  // both operands are the product: not a fusable shape
      ir::Opnd a = mul.ops[1], bb = mul.ops[2];
      ir::Opnd c = dFirst ? add.ops[2] : add.ops[1];
      std::vector<ir::Inst> pre;
      auto negated = [&](const ir::Opnd& x) {
        ir::Reg r;
        r.name = "neg" + std::to_string(f.regs.size());
        r.ptxType = ty == "f64" ? "f64" : ty == "f32" ? "f32" : ty == "f16x2" ? "b32" : "b16";
        r.vt = ty == "f64" ? ir::VType::F64 : ty == "f32" ? ir::VType::F32 : ir::VType::U32;
        f.regs.push_back(r);
        uses.push_back(1);
        defs.push_back(1);
        ir::Inst n;
        n.op = "neg";
        n.mods = {ty};
        n.guardReg = add.guardReg;
        n.guardNeg = add.guardNeg;
        n.span = add.span;
        ir::Opnd d;
        d.kind = ir::Opnd::Kind::Reg;
        d.reg = int(f.regs.size()) - 1;
        n.ops = {d, x};
        pre.push_back(n);
        return d;
      };
      if (add.op == "sub") {
        if (dFirst) c = negated(c);   // a*b - c
        else a = negated(a);          // c - a*b = (-a)*b + c
      }
      ir::Inst fma;
      fma.op = "fma";
      fma.mods.push_back("rn");
      if (add.hasMod("ftz")) fma.mods.push_back("ftz");
      if (add.hasMod("sat")) fma.mods.push_back("sat");
      fma.mods.push_back(ty);
      fma.guardReg = add.guardReg;
      fma.guardNeg = add.guardNeg;
      fma.ops = {add.ops[0], a, bb, c};
      fma.span = add.span;
      fma.fusedSpan = mul.span;
      fma.contracted = true;
      b.insts[j] = fma;
      b.insts.insert(b.insts.begin() + long(j), pre.begin(), pre.end());
      b.insts.erase(b.insts.begin() + long(i));
      --i;
      changed = true;
    }
  }
  (void)error;
  return changed ? PassResult::Changed : PassResult::Unchanged;
}

}  // namespace p2g

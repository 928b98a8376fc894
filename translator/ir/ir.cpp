#include "ir.h"

#include <string>

namespace p2g::ir {

const char* glslTypeName(VType t) {
  switch (t) {
    case VType::Bool: return "bool";
    case VType::U32: return "uint";
    case VType::S32: return "int";
    case VType::U64: return "uint64_t";
    case VType::S64: return "int64_t";
    case VType::F32: return "float";
    case VType::F64: return "double";
  }
  return "?";
}

unsigned vtypeBits(VType t) {
  switch (t) {
    case VType::Bool: return 1;
    case VType::U32: case VType::S32: case VType::F32: return 32;
    default: return 64;
  }
}

static std::string checkOpnd(const Function& f, const Opnd& o) {
  switch (o.kind) {
    case Opnd::Kind::Reg:
    case Opnd::Kind::RegAddr:
      if (o.reg < -1 || o.reg >= int(f.regs.size()) || (o.kind == Opnd::Kind::Reg && o.reg < 0))
        return "register index out of range";
      break;
    case Opnd::Kind::VarAddr:
      if (o.var < 0 || o.var >= int(f.vars.size())) return "variable index out of range";
      break;
    case Opnd::Kind::Label:
      if (o.label < 0 || o.label >= int(f.blocks.size())) return "label out of range";
      break;
    case Opnd::Kind::Vec:
      for (auto& e : o.elems) {
        auto s = checkOpnd(f, e);
        if (!s.empty()) return s;
      }
      break;
    default: break;
  }
  return {};
}

std::string validate(const Function& f) {
  if (f.blocks.empty()) return "function has no blocks";
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    const Block& bl = f.blocks[b];
    for (auto& in : bl.insts) {
      if (in.guardReg >= int(f.regs.size())) return "block " + bl.label + ": guard register out of range";
      if (in.guardReg >= 0 && f.regs[in.guardReg].vt != VType::Bool)
        return "block " + bl.label + ": guard is not a predicate";
      for (auto& o : in.ops) {
        auto s = checkOpnd(f, o);
        if (!s.empty()) return "block " + bl.label + ", " + std::string(in.op) + ": " + s;
      }
    }
    const Term& t = bl.term;
    size_t want = t.kind == Term::Kind::Ret ? 0 : t.kind == Term::Kind::Br ? 1 : t.kind == Term::Kind::CondBr ? 2 : 0;
    if (t.kind != Term::Kind::Multi && t.targets.size() != want)
      return "block " + bl.label + ": terminator has " + std::to_string(t.targets.size()) + " targets";
    if (t.kind == Term::Kind::Multi && t.targets.empty()) return "block " + bl.label + ": empty brx.idx table";
    for (int x : t.targets)
      if (x < 0 || x >= int(f.blocks.size())) return "block " + bl.label + ": branch target out of range";
    if ((t.kind == Term::Kind::CondBr || t.kind == Term::Kind::Multi) &&
        (t.condReg < 0 || t.condReg >= int(f.regs.size())))
      return "block " + bl.label + ": branch condition register out of range";
  }
  return {};
}

static void dumpOpnd(const Function& f, const Opnd& o, std::string& s) {
  if (o.neg) s += "!";
  switch (o.kind) {
    case Opnd::Kind::None: s += "<none>"; break;
    case Opnd::Kind::Reg: s += f.regs[o.reg].name; break;
    case Opnd::Kind::Imm: s += std::to_string(o.imm); break;
    case Opnd::Kind::FImm: s += (o.isDouble ? "0d" : "0f") + std::to_string(o.fbits); break;
    case Opnd::Kind::VarAddr: s += "&" + f.vars[o.var].name + "+" + std::to_string(o.imm); break;
    case Opnd::Kind::RegAddr: s += "[" + (o.reg >= 0 ? f.regs[o.reg].name : std::string("0")) + "+" + std::to_string(o.imm) + "]"; break;
    case Opnd::Kind::Vec:
      s += "{";
      for (size_t i = 0; i < o.elems.size(); ++i) {
        if (i) s += ",";
        dumpOpnd(f, o.elems[i], s);
      }
      s += "}";
      break;
    case Opnd::Kind::Special: s += std::string(o.special); break;
    case Opnd::Kind::Label: s += "^" + f.blocks[o.label].label; break;
    case Opnd::Kind::Sink: s += "_"; break;
  }
}

std::string dump(const Function& f) {
  std::string s = "function " + f.name + "\n";
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    auto& bl = f.blocks[b];
    s += "  block " + std::to_string(b) + " (" + bl.label + "):\n";
    for (auto& in : bl.insts) {
      s += "    ";
      if (in.guardReg >= 0) s += std::string("@") + (in.guardNeg ? "!" : "") + f.regs[in.guardReg].name + " ";
      s += std::string(in.op);
      for (auto m : in.mods) s += "." + std::string(m);
      if (in.contracted) s += " [contracted]";
      for (size_t i = 0; i < in.ops.size(); ++i) {
        s += i ? ", " : " ";
        dumpOpnd(f, in.ops[i], s);
      }
      s += "\n";
    }
    auto& t = bl.term;
    s += "    ";
    switch (t.kind) {
      case Term::Kind::Ret: s += "ret"; break;
      case Term::Kind::Br: s += "br " + std::to_string(t.targets[0]); break;
      case Term::Kind::CondBr:
        s += std::string("condbr ") + (t.condNeg ? "!" : "") + f.regs[t.condReg].name + " ? " +
             std::to_string(t.targets[0]) + " : " + std::to_string(t.targets[1]);
        break;
      case Term::Kind::Multi:
        s += "brx " + f.regs[t.condReg].name + " [";
        for (size_t i = 0; i < t.targets.size(); ++i) s += (i ? "," : "") + std::to_string(t.targets[i]);
        s += "]";
        break;
    }
    s += "\n";
  }
  return s;
}

}  // namespace p2g::ir

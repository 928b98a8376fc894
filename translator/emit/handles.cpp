#include "handles.h"
#include "emitter.h"

#include <algorithm>
#include <map>
#include <set>
#include <span>

namespace p2g {

using ir::Opnd;

bool isImageOpcode(std::string_view op) {
  return op == "tex" || op == "tld4" || op == "txq" || op == "suld" || op == "sust" || op == "sured" || op == "suq";
}

bool isSurfaceOpcode(std::string_view op) { return op == "suld" || op == "sust" || op == "sured" || op == "suq"; }

int imageHandleOperand(const ir::Inst& in) {
  // sust/sured write through their first operand; every other image instruction has destinations first.
  if (in.op == "sust" || in.op == "sured") return 0;
  for (size_t i = 0; i < in.ops.size(); ++i)
    if (in.ops[i].kind == Opnd::Kind::RegAddr || in.ops[i].kind == Opnd::Kind::VarAddr) return int(i);
  return -1;
}

namespace {

std::string opText(const ir::Inst& in) {
  std::string s(in.op);
  for (auto m : in.mods) s += "." + std::string(m);
  return s;
}

// A definition of a register: the instruction, and which element of a vector destination it is (-1: scalar).
struct Def {
  const ir::Inst* inst;
  int elem;
};

class Tracer {
 public:
  explicit Tracer(const ir::Function& f) : F(f) {}

  // The parameter variable and constant offset of a load's address (public for mapParamBlock).
  bool paramAddress(const Opnd& a, int& var, int64_t& off) {
    std::string why;
    return address(a, var, off, why);
  }

  // Depth first over the definitions, in order, with an explicit stack: a chain of 100,000 movs must not take
  // 100,000 stack frames.
  bool value(int reg, std::vector<HandleSource>& out, std::string& why) {
    visiting_.clear();  // each trace has its own cycle guard
    std::vector<std::pair<int, size_t>> stack;  // register, next definition to follow
    auto enter = [&](int r) {
      if (!visiting_.insert(r).second) return true;  // a cycle adds no new source (mov loops through phis)
      if (defsOf(r).empty()) {
        why = "register " + F.regs[r].name + " is never written";
        return false;
      }
      stack.push_back({r, 0});
      return true;
    };
    if (!enter(reg)) return false;
    while (!stack.empty()) {
      std::span<const Def> defs = defsOf(stack.back().first);
      size_t i = stack.back().second++;
      if (i == defs.size()) {
        stack.pop_back();
        continue;
      }
      int next = -1;
      if (!valueDef(defs[i], out, why, next)) return false;
      if (next >= 0 && !enter(next)) return false;
    }
    return true;
  }

 private:
  const ir::Function& F;
  // The definitions of register r, in instruction order: defs_[first_[r] .. first_[r + 1]). One flat array rather
  // than a list per register: a kernel has tens of thousands of registers, and most tracers follow a few.
  // Collected at the first question (a kernel without image instructions never asks resolveImageHandles').
  std::vector<uint32_t> first_;
  std::vector<Def> defs_;
  std::set<int> visiting_;

  // The instructions whose first operand is a destination (not st/sust/sured/red) call `f(reg, inst, elem)` for
  // each register they define.
  template <class Fn>
  void eachDef(Fn&& f) const {
    for (auto& b : F.blocks)
      for (auto& in : b.insts) {
        if (in.ops.empty() || in.op == "st" || in.op == "sust" || in.op == "sured" || in.op == "red") continue;
        const Opnd& d = in.ops[0];
        if (d.kind == Opnd::Kind::Reg) f(d.reg, in, -1);
        if (d.kind == Opnd::Kind::Vec)
          for (size_t k = 0; k < d.elems.size(); ++k)
            if (d.elems[k].kind == Opnd::Kind::Reg) f(d.elems[k].reg, in, int(k));
      }
  }

  std::span<const Def> defsOf(int reg) {
    if (first_.empty()) {
      first_.assign(F.regs.size() + 2, 0);
      eachDef([&](int r, const ir::Inst&, int) { ++first_[size_t(r) + 2]; });
      for (size_t r = 2; r < first_.size(); ++r) first_[r] += first_[r - 1];
      defs_.resize(first_.back());
      // first_[r + 1] counts the definitions of r placed so far; at the end it is where r's next register starts
      eachDef([&](int r, const ir::Inst& in, int elem) { defs_[first_[size_t(r) + 1]++] = {&in, elem}; });
    }
    if (reg < 0 || size_t(reg) + 1 >= first_.size()) return {};
    return std::span<const Def>(defs_.data() + first_[size_t(reg)], first_[size_t(reg) + 1] - first_[size_t(reg)]);
  }

  bool stop(const ir::Inst& in, std::string& why) {
    why = "it comes from '" + opText(in) + "', which is not a parameter load or a mov";
    return false;
  }

  // One definition: a parameter load adds its source; a mov of a register names it in `next` for value() to follow.
  bool valueDef(const Def& d, std::vector<HandleSource>& out, std::string& why, int& next) {
    const ir::Inst& in = *d.inst;
    if ((in.op == "ld" || in.op == "ldu") && in.hasMod("param") && in.ops.size() >= 2) {
      int var = -1;
      int64_t off = 0;
      if (!address(in.ops[1], var, off, why)) return false;
      // Element k of a vector load sits k elements further (handles are 8 bytes: .u64/.b64/.s64).
      if (d.elem > 0) off += int64_t(d.elem) * 8;
      const ir::Var& v = F.vars[var];
      if (off < 0 || uint64_t(off) + 8 > v.bytes) {
        why = "the load reads bytes " + std::to_string(off) + ".." + std::to_string(off + 7) + " of the " +
              std::to_string(v.bytes) + "-byte parameter " + std::string(v.ptxName);
        return false;
      }
      HandleSource s;
      s.offset = uint32_t(v.offset + uint64_t(off));
      s.param = std::string(v.ptxName);
      out.push_back(s);
      return true;
    }
    if (in.op == "mov" && d.elem < 0 && in.ops.size() >= 2) {
      const Opnd& s = in.ops[1];
      if (s.kind == Opnd::Kind::Reg) {
        next = s.reg;
        return true;
      }
      if (s.kind == Opnd::Kind::VarAddr && F.vars[s.var].space == ptx::Space::Global) {
        HandleSource h;
        h.isTexref = true;
        h.texref = std::string(F.vars[s.var].ptxName);
        out.push_back(h);
        return true;
      }
    }
    return stop(in, why);
  }

  // The parameter variable and constant offset an address operand names.
  bool address(const Opnd& a, int& var, int64_t& off, std::string& why) {
    if (a.kind == Opnd::Kind::VarAddr) {
      if (F.vars[a.var].space != ptx::Space::Param) {
        why = "the load address is not a kernel parameter";
        return false;
      }
      var = a.var;
      off = a.imm;
      return true;
    }
    if (a.kind == Opnd::Kind::RegAddr && a.reg >= 0) {
      if (!addressReg(a.reg, var, off, why, 0)) return false;
      off += a.imm;
      return true;
    }
    why = "the parameter load has no constant address";
    return false;
  }

  // A register holding a parameter's address plus a constant: mov of the parameter, add/sub of immediates, cvta.
  bool addressReg(int reg, int& var, int64_t& off, std::string& why, int depth) {
    std::span<const Def> defs = defsOf(reg);
    if (depth > 64 || defs.size() != 1 || defs[0].elem >= 0) {
      why = "the parameter address in " + F.regs[reg].name + " is not a single constant expression";
      return false;
    }
    const ir::Inst& in = *defs[0].inst;
    auto opnd = [&](size_t i) -> const Opnd* { return i < in.ops.size() ? &in.ops[i] : nullptr; };
    if ((in.op == "mov" || in.op == "cvta") && opnd(1)) {
      const Opnd& s = *opnd(1);
      if (s.kind == Opnd::Kind::VarAddr && F.vars[s.var].space == ptx::Space::Param) {
        var = s.var;
        off = s.imm;
        return true;
      }
      if (s.kind == Opnd::Kind::Reg) return addressReg(s.reg, var, off, why, depth + 1);
    }
    if ((in.op == "add" || in.op == "sub") && opnd(2)) {
      const Opnd *a = opnd(1), *b = opnd(2);
      if (in.op == "add" && a->kind == Opnd::Kind::Imm) std::swap(a, b);
      if (a->kind == Opnd::Kind::Reg && b->kind == Opnd::Kind::Imm) {
        if (!addressReg(a->reg, var, off, why, depth + 1)) return false;
        off += in.op == "add" ? b->imm : -b->imm;
        return true;
      }
    }
    why = "the parameter address comes from '" + opText(in) + "'";
    return false;
  }
};

// "tex.2d.v4.f32.f32" -> dims 2; "tex.a2d..." -> 2 and layered. 0 when the instruction does not say (txq, suq).
void geometry(const ir::Inst& in, uint32_t& dims, bool& layered) {
  dims = 0;
  layered = false;
  for (auto m : in.mods) {
    if (m == "1d") dims = 1;
    else if (m == "2d") dims = 2;
    else if (m == "3d") dims = 3;
    else if (m == "a1d") dims = 1, layered = true;
    else if (m == "a2d") dims = 2, layered = true;
    else if (m == "cube" || m == "acube") dims = 3, layered = m == "acube";
  }
}

}  // namespace

std::map<const ir::Inst*, std::pair<int, int64_t>> constantParamLoads(const ir::Function& f) {
  std::map<const ir::Inst*, std::pair<int, int64_t>> out;
  Tracer t(f);
  for (auto& b : f.blocks)
    for (auto& in : b.insts) {
      int var = -1;
      int64_t off = 0;
      if ((in.op == "ld" || in.op == "ldu") && in.hasMod("param") && in.ops.size() == 2 &&
          t.paramAddress(in.ops[1], var, off))
        out[&in] = {var, off};
    }
  return out;
}

bool traceHandle(const ir::Function& f, int reg, std::vector<HandleSource>& out, std::string& why) {
  Tracer t(f);
  return t.value(reg, out, why);
}

struct HandleTracer::Impl {
  explicit Impl(const ir::Function& f) : t(f) {}
  Tracer t;
};
HandleTracer::HandleTracer(const ir::Function& f) : impl_(std::make_unique<Impl>(f)) {}
HandleTracer::~HandleTracer() = default;
bool HandleTracer::trace(int reg, std::vector<HandleSource>& out, std::string& why) {
  return impl_->t.value(reg, out, why);
}

bool resolveImageHandles(const ir::Function& f, ptx::DiagEngine& diags, std::vector<ManifestImage>& out) {
  std::map<HandleSource, ManifestImage> found;
  bool ok = true;
  Tracer t(f);
  for (auto& b : f.blocks)
    for (auto& in : b.insts) {
      if (!isImageOpcode(in.op)) continue;
      int h = imageHandleOperand(in);
      std::vector<HandleSource> srcs;
      std::string why;
      bool traced = false;
      if (h >= 0 && in.ops[h].kind == Opnd::Kind::RegAddr && in.ops[h].reg >= 0) {
        traced = t.value(in.ops[h].reg, srcs, why);  // value() starts a fresh cycle guard
      } else if (h >= 0 && in.ops[h].kind == Opnd::Kind::VarAddr && f.vars[in.ops[h].var].space == ptx::Space::Global) {
        HandleSource s;
        s.isTexref = true;
        s.texref = std::string(f.vars[in.ops[h].var].ptxName);
        srcs.push_back(s);
        traced = true;
      } else {
        why = "the handle operand is not a register or a module .texref/.surfref variable";
      }
      if (!traced) {
        diags.error(in.span, "cannot tell which kernel parameter holds the " +
                                 std::string(isSurfaceOpcode(in.op) ? "surface" : "texture") + " handle of '" +
                                 opText(in) + "': " + why);
        ok = false;
        continue;
      }
      uint32_t dims;
      bool layered;
      geometry(in, dims, layered);
      for (auto& s : srcs) {
        ManifestImage& im = found[s];
        std::string kind = isSurfaceOpcode(in.op) ? "surface" : "texture";
        if (!im.kind.empty() && im.kind != kind) {
          diags.error(in.span, "the handle at parameter offset " + std::to_string(s.offset) + " is used as a " + kind +
                                   " here and as a " + im.kind + " elsewhere");
          ok = false;
        }
        im.kind = kind;
        im.param = s.param;
        im.offset = s.offset;
        im.texref = s.texref;
        if (dims) im.dims = dims;
        im.layered = im.layered || layered;
        std::string use = opText(in);
        if (std::find(im.uses.begin(), im.uses.end(), use) == im.uses.end()) im.uses.push_back(use);
      }
    }
  out.clear();
  for (auto& [src, im] : found) {
    out.push_back(im);
    out.back().slot = uint32_t(out.size() - 1);
  }
  return ok;
}

namespace {
unsigned typeBytes(std::string_view t) {
  if (t.size() < 2) return 0;
  if (t == "pred") return 1;
  unsigned n = 0;
  for (char c : t.substr(1)) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + unsigned(c - '0');
  }
  return n / 8;
}
}  // namespace

void mapParamBlock(const ir::Function& f, const std::vector<ManifestImage>& images, std::vector<ManifestParamField>& out,
                   std::map<uint32_t, ParamFieldSites>* sites) {
  Tracer t(f);
  // Uses of every register, and which registers an instruction derives from which (mov/cvta/add/sub/mad.wide
  // chains that carry a pointer).
  // As one flat array, register r's uses at useList[firstUse[r] .. firstUse[r + 1]) (a list per register cost more
  // than the rest of the mapping).
  auto eachUse = [&](auto&& visit) {
    for (auto& b : f.blocks)
      for (auto& in : b.insts)
        for (size_t i = 0; i < in.ops.size(); ++i) {
          const Opnd& o = in.ops[i];
          bool isDst = i == 0 && in.op != "st" && in.op != "red" && in.op != "sust";
          if (isDst) continue;
          if ((o.kind == Opnd::Kind::Reg || o.kind == Opnd::Kind::RegAddr) && o.reg >= 0) visit(o.reg, in);
          for (auto& e : o.elems)
            if (e.kind == Opnd::Kind::Reg && e.reg >= 0) visit(e.reg, in);
        }
  };
  std::vector<uint32_t> firstUse(f.regs.size() + 2, 0);
  eachUse([&](int r, const ir::Inst&) { ++firstUse[size_t(r) + 2]; });
  for (size_t r = 2; r < firstUse.size(); ++r) firstUse[r] += firstUse[r - 1];
  std::vector<const ir::Inst*> useList(firstUse.back());
  eachUse([&](int r, const ir::Inst& in) { useList[firstUse[size_t(r) + 1]++] = &in; });
  auto uses = [&](int r) {
    return std::span<const ir::Inst* const>(useList.data() + firstUse[size_t(r)], firstUse[size_t(r) + 1] - firstUse[size_t(r)]);
  };
  auto addressUse = [&](const ir::Inst& in, int reg) {
    if (in.op != "ld" && in.op != "ldu" && in.op != "st" && in.op != "atom" && in.op != "red" && in.op != "prefetch")
      return false;
    for (auto& o : in.ops)
      if (o.kind == Opnd::Kind::RegAddr && o.reg == reg) return true;
    return false;
  };
  std::map<uint32_t, ManifestParamField> fields;
  for (auto& b : f.blocks)
    for (auto& in : b.insts) {
      if (!((in.op == "ld" || in.op == "ldu") && in.hasMod("param")) || in.ops.size() < 2) continue;
      int var = -1;
      int64_t off = 0;
      if (!t.paramAddress(in.ops[1], var, off)) continue;
      std::string tname;
      for (auto it = in.mods.rbegin(); it != in.mods.rend(); ++it)
        if (parseTy(*it).k != Ty::K::None) { tname = std::string(*it); break; }
      unsigned eb = typeBytes(tname);
      if (!eb) continue;
      std::vector<int> regs;
      const Opnd& d = in.ops[0];
      if (d.kind == Opnd::Kind::Reg) regs.push_back(d.reg);
      if (d.kind == Opnd::Kind::Vec)
        for (auto& e : d.elems) regs.push_back(e.kind == Opnd::Kind::Reg ? e.reg : -1);
      for (size_t k = 0; k < regs.size(); ++k) {
        uint32_t at = uint32_t(f.vars[var].offset + uint64_t(off) + k * eb);
        ManifestParamField& fl = fields[at];
        fl.offset = at;
        fl.bytes = eb;
        fl.type = tname;
        if (sites) (*sites)[at].loads.push_back(in.span);
        if (regs[k] < 0) continue;
        // follow the value through moves and pointer arithmetic (bounded), classifying its consumers
        std::vector<int> work{regs[k]};
        std::set<int> seen{regs[k]};
        std::vector<std::string> direct, mem;
        std::vector<const ir::Inst*> directAt, memAt;
        for (size_t w = 0; w < work.size() && w < 64; ++w) {
          int r = work[w];
          for (const ir::Inst* u : uses(r)) {
            std::string form = opText(*u);
            if (addressUse(*u, r)) {
              if (std::find(mem.begin(), mem.end(), form) == mem.end()) mem.push_back(form);
              memAt.push_back(u);
              continue;
            }
            if (w == 0 && std::find(direct.begin(), direct.end(), form) == direct.end()) direct.push_back(form);
            if (w == 0) directAt.push_back(u);
            bool carries = u->op == "mov" || u->op == "cvta" || ((u->op == "add" || u->op == "sub" || u->op == "mad") &&
                                                                  (u->hasMod("u64") || u->hasMod("s64") || u->hasMod("wide")));
            if (carries && !u->ops.empty() && u->ops[0].kind == Opnd::Kind::Reg && seen.insert(u->ops[0].reg).second)
              work.push_back(u->ops[0].reg);
          }
        }
        std::string kind = "scalar";
        for (auto& im : images)
          if (!im.texref.size() && im.offset == at) kind = im.kind;
        if (kind == "scalar" && !mem.empty() && eb == 8) kind = "buffer";
        if (!fl.kind.empty() && fl.kind != "scalar" && kind == "scalar") kind = fl.kind;
        fl.kind = kind;
        for (auto& u : kind == "buffer" ? mem : direct)
          if (fl.uses.size() < 6 && std::find(fl.uses.begin(), fl.uses.end(), u) == fl.uses.end()) fl.uses.push_back(u);
        if (sites)
          for (const ir::Inst* u : kind == "buffer" ? memAt : directAt) (*sites)[at].uses.push_back(u->span);
      }
    }
  out.clear();
  for (auto& [at, fl] : fields) out.push_back(fl);
}

}  // namespace p2g

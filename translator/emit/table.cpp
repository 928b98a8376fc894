// The instruction table: for each PTX opcode, the family handler that lowers it. Parsing is generic (every
// opcode parses); this table is the single place that says what translates. `ptx2glsl --list-ops` prints it.
#include <string_view>
#include <unordered_map>

#include "emitter.h"

namespace p2g {

namespace {

bool isFloatForm(const ir::Inst& in) {
  for (auto it = in.mods.rbegin(); it != in.mods.rend(); ++it) {
    Ty t = parseTy(*it);
    if (t.k != Ty::K::None) return t.isFloat() || t.isHalfLike();
  }
  return false;
}

// add/sub/mul/mad/min/max/abs/neg exist for integers and floats: the type modifier picks the family.
void arith(Emitter& E, const ir::Inst& in) {
  if (isFloatForm(in)) return emitFloatArith(E, in);
  if (in.hasMod("cc") || in.op == "addc" || in.op == "subc" || in.op == "madc") return emitCarry(E, in);
  return emitIntArith(E, in);
}

struct Entry {
  std::string_view op;
  Handler h;
};

const Entry kTable[] = {
    {"add", arith},       {"sub", arith},       {"mul", arith},        {"mad", arith},
    {"min", arith},       {"max", arith},       {"abs", arith},        {"neg", arith},
    {"div", arith},       {"rem", emitIntArith}, {"mul24", emitIntArith}, {"mad24", emitIntArith},
    {"sad", emitIntArith}, {"addc", emitCarry}, {"subc", emitCarry},   {"madc", emitCarry},
    {"fma", emitFloatArith}, {"sqrt", emitFloatArith}, {"rcp", emitFloatArith}, {"rsqrt", emitFloatArith},
    {"ex2", emitFloatArith}, {"lg2", emitFloatArith}, {"sin", emitFloatArith}, {"cos", emitFloatArith},
    {"tanh", emitFloatArith}, {"copysign", emitFloatArith},
    {"and", emitBits},    {"or", emitBits},     {"xor", emitBits},     {"not", emitBits},
    {"cnot", emitBits},   {"shl", emitBits},    {"shr", emitBits},     {"popc", emitBits},
    {"clz", emitBits},    {"brev", emitBits},   {"bfe", emitBits},     {"bfi", emitBits},
    {"bfind", emitBits},  {"prmt", emitBits},   {"shf", emitBits},     {"lop3", emitBits},
    {"setp", emitCompare}, {"set", emitCompare}, {"selp", emitCompare}, {"slct", emitCompare},
    {"testp", emitCompare}, {"cvt", emitCvt},   {"mov", emitMov},
    {"ld", emitMemory},   {"ldu", emitMemory},  {"st", emitMemory},    {"cvta", emitMemory},
    {"prefetch", emitMemory}, {"prefetchu", emitMemory}, {"createpolicy", emitMemory},
    {"atom", emitAtomic}, {"red", emitAtomic},
    {"bar", emitSync},    {"barrier", emitSync}, {"membar", emitSync}, {"fence", emitSync},
    {"tex", emitImage},   {"tld4", emitImage},  {"txq", emitImage},    {"suld", emitImage},
    {"sust", emitImage},  {"suq", emitImage},   {"sured", emitImage},
    {"shfl", emitWarp},   {"vote", emitWarp},   {"activemask", emitWarp},
};

}  // namespace

Handler findHandler(std::string_view opcode) {
  static const std::unordered_map<std::string_view, Handler> index = [] {
    std::unordered_map<std::string_view, Handler> m;
    for (auto& e : kTable) m.emplace(e.op, e.h);
    return m;
  }();
  auto it = index.find(opcode);
  return it == index.end() ? nullptr : it->second;
}

std::vector<std::string> handledOpcodes() {
  std::vector<std::string> v;
  for (auto& e : kTable) v.emplace_back(e.op);
  return v;
}

}  // namespace p2g

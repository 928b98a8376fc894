// exact_nan (HAZARDS row 14): NVIDIA's NaN results and the PTX rules for min/max, setp and sign operations.
//
// Evidence: PTX min/max return the non-NaN operand (.NaN forms propagate), -0 orders below +0; setp has ordered
// and unordered comparisons; NVIDIA's float units return the canonical NaN 0x7FFFFFFF, measured on the H200 for
// f32 arithmetic (f32_bits_convert rows 13-19) and for neg.f32 of a NaN with a payload (row 23). GLSL min/max of a
// NaN are undefined and a plain `<` is ordered. Unmarked, the emitter uses GLSL min/max, plain comparisons and
// leaves NaN payloads alone.
//
// A neg/abs.f32 whose register is read only as an operand of f32 add/sub/mul/fma/mad gets kMarkSignOnly instead:
// those make any NaN operand the canonical NaN (the device's where the fact P2G_F32_FAST holds, p2g_canon_dev or
// the exact helpers elsewhere), so the sign operation's own NaN is never seen and the emitter may write `-x`,
// which a device folds into the consumer's operand (ptx_corpus/basic/neg_operand checks every consumer form).
// Where exact_f32 marked the operation (exact mode) it keeps kMarkNan: the guarded regions do this themselves.
#include <vector>

#include "exact_marks.h"

namespace p2g {
namespace {

// Marks every register that operand `o` names (vector elements and addresses included) in `other`.
void mentions(const ir::Opnd& o, std::vector<uint8_t>& other) {
  if ((o.kind == ir::Opnd::Kind::Reg || o.kind == ir::Opnd::Kind::RegAddr) && o.reg >= 0) other[o.reg] = 1;
  for (auto& e : o.elems) mentions(e, other);
}

bool arithConsumer(const ir::Inst& in) {
  if (!in.hasMod("f32")) return false;
  size_t n = in.ops.size();
  if (in.op == "add" || in.op == "sub" || in.op == "mul") return n == 3;
  return (in.op == "fma" || in.op == "mad") && n == 4;
}

bool signOp(const ir::Inst& in) {
  return (in.op == "neg" || in.op == "abs") && in.hasMod("f32") && in.ops.size() == 2 &&
         in.ops[0].kind == ir::Opnd::Kind::Reg && in.ops[0].reg >= 0;
}

}  // namespace

PassResult runExactNan(ir::Function& f, std::string&) {
  // other[r]: r is read (or written) somewhere other than as a consumer's operand or a sign operation's result
  std::vector<uint8_t> other(f.regs.size(), 0);
  for (auto& b : f.blocks) {
    for (auto& in : b.insts) {
      if (in.guardReg >= 0) other[in.guardReg] = 1;
      bool cons = arithConsumer(in), sign = signOp(in);
      for (size_t i = 0; i < in.ops.size(); ++i) {
        if (i == 0 && sign) continue;
        if (cons && i >= 1 && in.ops[i].kind == ir::Opnd::Kind::Reg && !in.ops[i].neg) continue;
        mentions(in.ops[i], other);
      }
    }
    if (b.term.condReg >= 0) other[b.term.condReg] = 1;
  }
  bool changed = false;
  for (auto& b : f.blocks)
    for (auto& in : b.insts) {
      if (!isFloatInst(in) || in.op == "cvt" || in.op == "mov") continue;
      // (with exact_f32's mark the bit form stays: the guarded regions recognise it and make it `-x` themselves)
      bool signOnly = signOp(in) && !other[in.ops[0].reg] && !in.hasMod(kMarkIeee);
      std::string_view mark = signOnly ? kMarkSignOnly : kMarkNan;
      if (!in.hasMod(mark)) {
        in.mods.push_back(mark);
        changed = true;
      }
    }
  return changed ? PassResult::Changed : PassResult::Unchanged;
}

}  // namespace p2g

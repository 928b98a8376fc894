// The ptx2glsl IR: one PTX function after lifting, before GLSL emission.
//
// Semantics (written once, here):
//  - A Function is a list of basic blocks; block 0 is the entry. Each block holds straight-line instructions and
//    ends with exactly one terminator (Term): Ret (leave the kernel), Br (jump), CondBr (jump to targets[0] when
//    the predicate register, possibly negated, holds, else targets[1]) or Multi (brx.idx: targets[index]).
//    There is no implicit fallthrough: lifting turns it into Br.
//  - Registers are typed by storage class (VType), chosen from the PTX declaration: .pred -> Bool; .s32 -> S32;
//    .u32/.b32/.f16x2/.bf16x2 and every 8- and 16-bit type -> U32 (16-bit values live in the low bits,
//    zero-extended); .s64 -> S64; .u64/.b64 -> U64; .f32 -> F32; .f64 -> F64. Any instruction may read a register
//    through another type of the same size: that is a bit reinterpretation, never a value conversion.
//  - Instructions keep PTX's opcode and modifiers verbatim (op, mods) with operands resolved to registers,
//    immediates and variables. Evaluation is in order; each instruction reads all its sources before writing its
//    destinations (so `add %r1, %r1, 1` is fine). A guarded instruction (guardReg >= 0) does nothing when the guard
//    (xor guardNeg) is false.
//  - Rounding: an instruction's rounding modifier (.rn/.rz/.rm/.rp, .rni...) and .ftz/.sat are carried in mods and
//    honoured by the emitter. `contracted` marks an fma that passes/contract made from a mul + add/sub pair the way
//    ptxas fuses them (HAZARDS.md #4); the emitter must compute it as a single-rounding fma.
//  - Memory: Vars are the state-space variables the function can address (module and function scope, param
//    scratch of inlined calls). Each has an offset in its space's window; `Opnd::VarAddr` is that offset (plus imm).
//    Global addresses are 64-bit device addresses; shared/local/const/param addresses are window offsets.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ast.h"
#include "manifest.h"

namespace p2g::ir {

enum class VType : uint8_t { Bool, U32, S32, U64, S64, F32, F64 };
const char* glslTypeName(VType t);
unsigned vtypeBits(VType t);

struct Reg {
  std::string name;        // GLSL name (sanitized, unique)
  std::string_view ptxName;
  std::string_view ptxType;
  VType vt = VType::U32;
};

struct Var {
  std::string name;        // GLSL-safe name
  std::string_view ptxName;
  ptx::Space space = ptx::Space::None;  // Global, Shared, Const, Local, Param (entry parameter)
  uint32_t bytes = 0;
  uint32_t align = 1;
  uint64_t offset = 0;     // in its space's window
  bool dynamic = false;    // extern .shared [] (size set at launch)
  std::vector<uint8_t> init;  // initial bytes (const/global), empty = zero
  // Address initialisers (`.const .u64 t[2] = {generic(g), g+8};`): the 64-bit word at byte `at` of the variable
  // holds the address of .global variable `var` plus `offset` (its generic and global addresses are the same),
  // known only at launch; `init` holds 0 there.
  struct Reloc {
    uint32_t at = 0;
    int var = -1;
    int64_t offset = 0;
  };
  std::vector<Reloc> relocs;
};

struct Opnd {
  enum class Kind : uint8_t { None, Reg, Imm, FImm, VarAddr, RegAddr, Vec, Special, Label, Sink };
  Kind kind = Kind::None;
  bool neg = false;        // `!%p`
  bool isDouble = false;   // FImm width
  int reg = -1;            // Reg, RegAddr
  int var = -1;            // VarAddr
  int64_t imm = 0;         // Imm value; address offset
  uint64_t fbits = 0;      // FImm bits
  std::string_view special;   // Special: "%tid.x"...
  int label = -1;          // Label: block index
  std::vector<Opnd> elems; // Vec
  ptx::Span span;
  bool bracket = false;    // written as an address `[...]` (RegAddr, VarAddr of `[sym+8]`; not `sym+8`)
  uint8_t part = 0;        // video instructions' operand selector `%r1.b2`: 1..4 = .b0-.b3, 5..6 = .h0/.h1
};

struct Inst {
  std::string_view op;
  std::vector<std::string_view> mods;
  int guardReg = -1;
  bool guardNeg = false;
  std::vector<Opnd> ops;
  ptx::Span span;
  uint32_t line = 0;       // PTX source line (annotation)
  bool contracted = false; // fma made by passes/contract
  ptx::Span fusedSpan;     // another PTX instruction this one also stands for, annotated with it: the mul of a
                           // contracted fma, the call whose inlined body starts here
  bool hasMod(std::string_view m) const {
    for (auto x : mods)
      if (x == m) return true;
    return false;
  }
};

struct Term {
  enum class Kind : uint8_t { Ret, Br, CondBr, Multi } kind = Kind::Ret;
  int condReg = -1;        // CondBr predicate; Multi index register
  bool condNeg = false;
  std::vector<int> targets;
  ptx::Span span;
  uint32_t line = 0;
};

struct Block {
  std::string label;       // PTX label, or a synthetic name
  std::vector<Inst> insts;
  Term term;
};

struct Function {
  std::string name;
  bool isEntry = true;
  std::vector<Reg> regs;
  std::vector<Var> vars;
  std::vector<Block> blocks;
  std::vector<ManifestParam> params;
  uint32_t paramBytes = 0;
  uint32_t sharedStaticBytes = 0;
  bool dynamicShared = false;
  uint32_t dynSharedOffset = 0;  // where the extern array starts
  uint32_t localBytes = 0;
  uint32_t reqntid[3] = {0, 0, 0};
  const ptx::Module* module = nullptr;
};

// Checks the invariants above (targets in range, registers and vars in range, one terminator per block).
// Returns an empty string when valid, else the first violation.
std::string validate(const Function& f);

// Text form for --dump-ir.
std::string dump(const Function& f);

}  // namespace p2g::ir

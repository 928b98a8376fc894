// The PTX abstract syntax tree: what the source says, nothing inferred.
//
// Every instruction is kept generically (opcode, dot-modifiers in source order, operands), so parsing never
// depends on the translator knowing an instruction: `tcgen05.mma.cta_group::1.kind::f16` parses like `add.s32`.
// Names and modifiers are string_views into the SourceManager buffer, which outlives the Module.
#pragma once
#include <cstdint>
#include <string_view>
#include <variant>
#include <vector>

#include "source.h"

namespace ptx {

enum class Space : uint8_t { None, Reg, SReg, Const, Global, Local, Param, Shared, Tex };

// One operand. Forms (PTX ISA 9.x, "Operand Types"):
//   Reg      %r1, %tid.x (the component stays in the name), _ (the sink), also plain identifiers that name a
//            register, a variable or a label: the parser cannot tell these apart, so identifiers are `Symbol`.
//   Imm      integer immediates, value as written (two's complement, 64 bits); `isUnsigned` for a U suffix.
//   FImm     0fXXXXXXXX (isDouble false, bits in low 32) and 0dXXXXXXXXXXXXXXXX (isDouble true); decimal
//            float literals such as 1.5 also land here (converted to f64 bits, isDouble true).
//   Symbol   an identifier: label, variable, function or parameter name; `sym+8` / `sym-8` keep the offset in
//            `imm` (0 when none).
//   Address  [base], [base+imm], [base+-imm], [imm]: `base` is a register or symbol name (may be empty for an
//            absolute address), `offset` the immediate. Texture/surface operands `[tex, {%f1, %f2}]` are an
//            Address whose further comma-separated components are in `elems`.
//   Vector   {a, b, c, d}: `elems` holds Reg/Symbol/Imm/FImm/sink operands.
//   List     (a, b, c): call argument and return lists.
// `neg` is set for a leading `!` (predicate negation, e.g. setp's `!%p` or `@!%p`) and `minus` for a unary `-`
// on a register (e.g. `-%f1` is not PTX, but `-1` is an Imm with a negative value).
struct Operand {
  enum class Kind : uint8_t { Reg, Imm, FImm, Symbol, Address, Vector, List };
  Kind kind = Kind::Reg;
  bool neg = false;
  bool isDouble = false;
  bool isUnsigned = false;
  bool minus = false;     // a unary '-' before a register or symbol (not valid PTX, kept for the lifter to reject)
  bool pipe = false;      // followed by '|': setp/testp's `%p|%q` destination pair (the next operand is the
                          // second predicate, so such an instruction has one more operand than usual)
  std::string_view name;  // Reg, Symbol; Address base
  int64_t imm = 0;        // Imm value; Address offset
  uint64_t fbits = 0;     // FImm bits
  std::vector<Operand> elems;  // Vector, List
  Span span;
};

// `@%p` / `@!%p` before an instruction.
struct Guard {
  std::string_view reg;
  bool neg = false;
  Span span;
};

struct Instr {
  std::string_view opcode;               // "add", "ld", "mma", "tcgen05"...
  std::vector<std::string_view> mods;    // without the dots, source order: {"global","nc","v4","f32"}
  bool hasGuard = false;
  Guard guard;
  std::vector<Operand> ops;              // destinations first, as written
  Span span;                             // the opcode with its modifiers
  Span stmtSpan;                         // the whole statement, guard to ';'
  bool hasMod(std::string_view m) const {
    for (auto x : mods)
      if (x == m) return true;
    return false;
  }
};

// One initializer element of a variable: a number (bits of the element type) or an address expression
// (`sym`, `sym+off`, `generic(sym)+off`).
struct InitElem {
  bool isSymbol = false;
  bool generic = false;
  std::string_view symbol;
  int64_t offset = 0;  // for symbols
  uint64_t bits = 0;   // for numbers: the value converted to the element type's bits
  Span span;
};

// A state-space declaration: `.reg .b32 %r<10>;`, `.shared .align 4 .b8 smem[1024];`, `.param .u64 p`,
// `.global .f32 table[4] = {...}`, `.extern .shared .align 16 .b8 dyn[];`, `.local .align 8 .b8 __local_depot0[64];`.
struct VarDecl {
  Space space = Space::None;
  std::string_view type;          // "b32", "f32", "pred", "u64", "texref"... without the dot
  uint32_t align = 0;             // .align N (0 = not given)
  uint32_t vecWidth = 0;          // .v2/.v4/.v8 (0 = scalar)
  std::string_view name;
  uint32_t rangeCount = 0;        // %r<10>: 10 registers %r0..%r9 (0 = a single name)
  std::vector<uint64_t> dims;     // [4][8] -> {4, 8}; an unsized `[]` is 0
  bool isExtern = false, isVisible = false, isWeak = false, isCommon = false;
  bool isPtr = false;             // .param .u64 .ptr .global .align 16 p (kernel parameter attributes)
  Space ptrSpace = Space::None;   // the .ptr's state space
  uint32_t ptrAlign = 0;
  bool hasInit = false;
  std::vector<InitElem> init;     // flattened, row-major
  Span span;
};

// `.pragma "nounroll";`, `.loc 1 12 3`, `.file 1 "x.cu"`, `.section ...` bodies and similar: kept as text.
struct Directive {
  std::string_view name;   // "pragma", "loc", ...
  std::string_view text;   // the rest of the statement, trimmed
  // Top-level comma-separated items of `text` for `;`-terminated directives (`.branchtargets L1, L2;` gives
  // {"L1", "L2"}; `.pragma "nounroll";` gives {"nounroll"}, strings without quotes). Empty for .loc/.file/.section
  // and for .callprototype, whose text the lifter reads itself.
  Span span;
  std::vector<std::string_view> args;  // after `span`, so {name, text, span} aggregate initialisation still works
};

struct Label {
  std::string_view name;
  Span span;
};

struct Block;
using Stmt = std::variant<Instr, Label, VarDecl, Directive, Block>;

// A `{ ... }` scope inside a function body: its own .reg declarations shadow outer ones.
struct Block {
  std::vector<Stmt> stmts;
  Span span;
};

struct Function {
  bool isEntry = false;           // .entry (kernel) or .func
  bool isVisible = false, isExtern = false, isWeak = false;
  bool hasBody = false;           // false for a prototype ending in ';'
  bool bodyDropped = false;       // body parsed and checked, statements not kept (ParseOptions::dropEntryBodies)
  std::string_view name;
  std::vector<VarDecl> params;    // .param (or .reg for .func) parameters, declaration order
  std::vector<VarDecl> rets;      // .func return parameters
  uint32_t maxntid[3] = {0, 0, 0}, reqntid[3] = {0, 0, 0};
  uint32_t minnctapersm = 0, maxnreg = 0;
  bool noreturn = false;
  Block body;
  Span span;                      // the name
};

struct Module {
  std::string_view version;       // "8.7"
  std::vector<std::string_view> target;  // {"sm_90", "texmode_independent"...}
  uint32_t addressSize = 64;
  Span addressSizeAt;             // the .address_size directive (when given)
  std::vector<VarDecl> globals;   // module-scope .global/.const/.shared/.tex/... in source order
  std::vector<Function> functions;
  std::vector<Directive> directives;  // .file and other module-level directives
  int buffer = -1;                // SourceManager buffer index
};

}  // namespace ptx

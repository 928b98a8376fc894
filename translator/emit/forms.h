// Instruction forms: what the translator implements, as data, and the one check that holds every instruction
// to it (issue "no silent wrong output": a modifier or operand form that no lowering honours must be an error,
// never output that ignores it).
//
// The instruction table (table.cpp) lists, one line per form, an opcode, the family handler that lowers it, the
// modifiers it accepts and the operands it takes, in a small pattern language (the PTX ISA's own notation,
// written as data like NIR's algebraic rules):
//
//   modifiers   space-separated slots; each instruction modifier fills one slot, every required slot is filled.
//     .x          the modifier .x                   .{a,b,c}   one of .a .b .c
//     $name       one of the class `name` (kClasses in table.cpp: $int = .u16 .u32 .u64 .s16 .s32 .s64, ...)
//     slot?       optional                          [.a .b]    optional group: all of them or none
//   Non-type modifiers may come in any order (the handlers look them up by name); type modifiers (.s32, .f16x2,
//   ...) fill the type slots in the order written, because cvt, set, slct and tex read them by position
//   (destination type first).
//
//   operands    comma-separated, one token each:  kind[:width][+][@cond]
//     d  value destination register, or the sink _    a  value source: register, immediate, special register,
//     q  predicate destination (or _)                    address of a variable (sym, sym+8)
//     p  predicate source (!p allowed; 0 or 1)        Q  predicate destination or pair p|q (setp)
//     R  predicate pair p|q                           e  value destination or pair d|p (shfl)
//     i  integer immediate                            m  memory address [reg], [reg+imm], [var+imm], [imm]
//     E  value and predicate destination pair d|p, both required (elect.sync)
//     x  image operand [handle, ...]                  w  vector of source values {a, b}
//     D  vector of destination registers {d, ...} (any count: the handler checks it, mma)
//     V  destination vector {d, ...} with as many elements as the .v2/.v4/.v8 modifier says (a single register,
//        or {d}, without one)                         v  the same for sources
//     U  mov's unpacking destination {d, d[, d, d]}   P  mov's packing source {a, a[, a, a]}
//     *  not checked here (branches and calls: the lifter reads them)
//   width: the register size (and the immediate range) the operand must have: T the instruction type (the last
//   type modifier; the default), T0 / T1 / T2 the first / second / third type modifier, 2T twice T, 8 / 16 / 32 /
//   64 bits, * any.
//   `+`: the register may be wider (PTX ISA "Operand Size Exceeding Instruction-Type Size": ld, st, cvt).
//   `@name`: the operand is present exactly when the instruction has the modifier .name (or one of class $name).
//
// The check runs on each instruction as it is lifted (lift.cpp), so every error points at the PTX: the first
// modifier no form of the opcode takes (`unsupported modifier '.pack' of 'cvt'`), a combination no form takes,
// or the first operand that does not fit (count, kind, register size, immediate range, address offset).
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ast.h"
#include "ir.h"

namespace p2g {

class Emitter;
using Handler = void (*)(Emitter&, const ir::Inst&);

// One line of the instruction table.
struct FormLine {
  std::string_view op;
  Handler handler;            // nullptr: lowered by the lifter (bra, ret, exit, call, brx)
  std::string_view mods;      // modifier pattern
  std::string_view operands;  // operand pattern
  std::string_view note = {}; // why a modifier is accepted without changing the output (cache hints...)
};
// A named set of modifiers usable as `$name` in patterns.
struct FormClass {
  std::string_view name;
  std::string_view members;   // space-separated, without dots
};
const std::vector<FormLine>& formLines();     // table.cpp
const std::vector<FormClass>& formClasses();  // table.cpp

// The verdict on one instruction.
struct FormResult {
  bool ok = true;
  bool knownOpcode = true;  // false: no line of the table has this opcode
  std::string message;      // the error, when !ok
  ptx::Span at;             // where it points: a modifier, an operand, or the opcode
};

// Checks `src` (as written) with its lifted operands `x` (nullptr for branches and calls, whose operands the
// lifter checks) against the table; `f` gives register types and variables.
FormResult checkForm(const ptx::Instr& src, const ir::Inst* x, const ir::Function& f);

// Whether `n` operands are at least as many as some form of the instruction's opcode (any modifiers) requires:
// a handler indexes its operands up to the count of its forms (`ops --histogram` runs handlers on refused forms).
bool operandCountInSomeForm(const ptx::Instr& src, size_t n);

// Problems in the table itself (an unknown class, a malformed pattern); empty when it is well formed.
std::vector<std::string> formTableProblems();

// `ptx2glsl ops`: the declared forms, one per line, optionally for one opcode only.
std::string describeForms(std::string_view opcode = {});

// The state space its modifiers name (.global .shared .local .const .param), None for a generic access.
ptx::Space spaceOfMods(const std::vector<std::string_view>& mods);

// Span of modifier `i` of `in`, from its leading dot (modifiers are views into the source buffer).
ptx::Span modifierSpan(const ptx::Instr& in, size_t i);

}  // namespace p2g

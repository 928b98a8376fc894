// Memory and data movement: mov, ld/ldu/st, cvta, atom/red, bar/membar/fence.
//
// State spaces (docs/ABI.md): global memory and the parameter block are reached through buffer device addresses
// (GL_EXT_buffer_reference); .shared is one `smem` word array (static variables first, the dynamic array after),
// .local and call scratch one private `lmem` array, .const one constant array `cmem`. Generic addresses that
// point into those windows (made by cvta.shared/.local/.const) carry a tag in their top byte so a generic ld/st
// can dispatch; a function with no such cvta treats generic as global, which is what nvcc's code does.
#include <cctype>
#include <cinttypes>
#include <cstdio>

#include "barrier_mem.h"
#include "emitter.h"

namespace p2g {

using ir::Opnd;

static const char* kTag[] = {"", "0xFF01000000000000ul", "0xFF02000000000000ul", "0xFF03000000000000ul",
                             "0xFF04000000000000ul"};
static int tagIndex(ptx::Space s) {
  switch (s) {
    case ptx::Space::Shared: return 1;
    case ptx::Space::Local: return 2;
    case ptx::Space::Const: return 3;
    case ptx::Space::Param: return 4;
    default: return 0;
  }
}

static std::string off64(int64_t v) {
  if (v == 0) return "";
  return v > 0 ? " + " + std::to_string(v) + "ul" : " - " + std::to_string(-v) + "ul";
}
static std::string off32(int64_t v) {
  if (v == 0) return "";
  return v > 0 ? " + " + std::to_string(v) + "u" : " - " + std::to_string(-v) + "u";
}

// Address of `o` as used by an instruction on `space` (None: the value of a symbol's address, e.g. `mov %rd, x`).
std::string Emitter::addressOf(const Opnd& o, ptx::Space space) {
  bool wide = space == ptx::Space::Global || space == ptx::Space::None || space == ptx::Space::Param;
  if (o.kind == Opnd::Kind::VarAddr) {
    const ir::Var& v = F.vars[o.var];
    uint64_t off = v.offset + uint64_t(o.imm);
    switch (v.space) {
      case ptx::Space::Global:
        return "(pc.globals" + off64(int64_t(off)) + ")";
      case ptx::Space::Param:
        if (space == ptx::Space::Param) return "(pc.params" + off64(int64_t(off)) + ")";
        return wide ? std::to_string(off) + "ul" : std::to_string(off) + "u";
      case ptx::Space::Shared: {  // the variable's named offset (names.cpp), the same value as `off`
        std::string n = sharedName(o.var);
        if (wide) return o.imm ? "(uint64_t(" + n + ")" + off64(o.imm) + ")" : "uint64_t(" + n + ")";
        return o.imm ? "(" + n + off32(o.imm) + ")" : n;
      }
      default:
        return wide ? std::to_string(off) + "ul" : std::to_string(off) + "u";
    }
  }
  if (o.kind == Opnd::Kind::RegAddr || o.kind == Opnd::Kind::Reg) {
    int64_t imm = o.kind == Opnd::Kind::RegAddr ? o.imm : 0;
    if (o.reg < 0) return wide ? std::to_string(imm) + "ul" : std::to_string(imm) + "u";
    if (space == ptx::Space::Param) return "(pc.params + " + src(o.kind == Opnd::Kind::Reg ? o : Opnd{Opnd::Kind::Reg, false, false, o.reg}, Ty{Ty::K::U, 64}) + off64(imm) + ")";
    Opnd r;
    r.kind = Opnd::Kind::Reg;
    r.reg = o.reg;
    if (wide) {
      std::string base = src(r, Ty{Ty::K::U, 64});
      return imm ? "(" + base + off64(imm) + ")" : base;
    }
    std::string base = src(r, Ty{Ty::K::U, 32});
    return imm ? "(" + base + off32(imm) + ")" : base;
  }
  if (o.kind == Opnd::Kind::Imm) return wide ? std::to_string(o.imm) + "ul" : std::to_string(o.imm) + "u";
  diags_.error(o.span, "expected an address");
  ok_ = false;
  return "0ul";
}

static const char* winName(ptx::Space s) {
  return s == ptx::Space::Shared ? "s" : s == ptx::Space::Local ? "l" : "c";
}

// ld.volatile / st.volatile. PTX ISA 8.4.2 "volatile Operation": "The semantics of volatile operations are
// equivalent to a relaxed memory operation with system-scope", plus two implementation constraints: the number of
// volatile instructions executed is preserved, and volatile instructions are not reordered around each other.
// The ld/st sections allow .volatile only on .global and .shared and on generic addresses that point there, not
// with .relaxed/.acquire/.release or cache operators (table.cpp holds those forms).
// Lowering: a relaxed atomic at the widest scope the space has in Vulkan, OpAtomicLoad/OpAtomicStore with
// GL_KHR_memory_scope_semantics (prelude.cpp volatileHelpers): device scope for global memory (nothing outside the
// dispatch touches memory while it runs, as for the relaxed atomics of the table), workgroup scope for .shared,
// which no other workgroup can address. A relaxed atomic is never merged, cached in a register or dropped, is
// single-copy atomic and coherent per location, and is ordered with the thread's later accesses to the same
// location, so a flag another thread polls is read again each time and a warp's shared-memory reduction sees
// the other lanes' writes once the __syncwarp()/__syncthreads() between its steps has ordered them. 8- and
// 16-bit accesses go through the aligned word that holds them (a word atomic load, and a compare-and-swap that
// replaces only the lane); a 64-bit .shared access is two 32-bit relaxed words (smem is a word array), and a
// shared64 variable (shared64.h) its one 64-bit element. The ordering of volatile accesses to different
// locations is not something relaxed atomics promise; compilers keep them in program order in practice.
std::string Emitter::load(ptx::Space space, const std::string& a, unsigned bits, MemOrder order) {
  if (space == ptx::Space::None && !genericMayBeWindow()) space = ptx::Space::Global;
  if (order == MemOrder::Volatile && (space == ptx::Space::Global || space == ptx::Space::Shared ||
                                      space == ptx::Space::None)) {
    std::string h = space == ptx::Space::Global ? "p2g_vldg" : space == ptx::Space::Shared ? "p2g_vlds" : "p2g_gen_vld";
    h += std::to_string(bits);
    use(h);
    return h + "(" + a + ")";
  }
  if (space == ptx::Space::Global || space == ptx::Space::Param) {
    switch (bits) {
      case 8: feature("storage8"); feature("int8"); return "uint(P2GU8(" + a + ").v)";
      case 16: feature("storage16"); feature("int16"); return "uint(P2GU16(" + a + ").v)";
      case 32: return "P2GU32(" + a + ").v";
      default: return "P2GU64(" + a + ").v";
    }
  }
  if (space == ptx::Space::None) {
    feature("storage8"); feature("int8"); feature("storage16"); feature("int16");
    use("p2g_gen_ld" + std::to_string(bits));
    return "p2g_gen_ld" + std::to_string(bits) + "(" + a + ")";
  }
  std::string h = std::string("p2g_ld") + winName(space) + std::to_string(bits);
  use(h);
  return h + "(" + a + ")";
}

void Emitter::storeMem(ptx::Space space, const std::string& addr, unsigned bits, const std::string& v, MemOrder order) {
  if (space == ptx::Space::None && !genericMayBeWindow()) space = ptx::Space::Global;
  if (order == MemOrder::Volatile && (space == ptx::Space::Global || space == ptx::Space::Shared ||
                                      space == ptx::Space::None)) {  // the comment above Emitter::load
    std::string h = space == ptx::Space::Global ? "p2g_vstg" : space == ptx::Space::Shared ? "p2g_vsts" : "p2g_gen_vst";
    h += std::to_string(bits);
    use(h);
    line(h + "(" + addr + ", " + v + ");");
    return;
  }
  std::string a = addr;
  if (space == ptx::Space::Global || space == ptx::Space::Param) {
    // A constant address (`st.global.u32 [2], %r;`, legal PTX): glslang makes a buffer reference built from a
    // constant expression const, and refuses the store ("l-value required"; a fuzz_spirv finding). Through a
    // variable it is an ordinary reference.
    if (!a.empty() && isdigit(uint8_t(a[0]))) {
      std::string t = tmp(Ty{Ty::K::U, 64});
      line(t + " = " + a + ";");
      a = t;
    }
    switch (bits) {
      case 8: feature("storage8"); feature("int8"); line("P2GU8(" + a + ").v = uint8_t(" + v + ");"); return;
      case 16: feature("storage16"); feature("int16"); line("P2GU16(" + a + ").v = uint16_t(" + v + ");"); return;
      case 32: line("P2GU32(" + a + ").v = " + v + ";"); return;
      default: line("P2GU64(" + a + ").v = " + v + ";"); return;
    }
  }
  if (space == ptx::Space::Const) {
    diags_.error({}, "store to .const space");
    ok_ = false;
    return;
  }
  if (space == ptx::Space::None) {
    feature("storage8"); feature("int8"); feature("storage16"); feature("int16");
    use("p2g_gen_st" + std::to_string(bits));
    line("p2g_gen_st" + std::to_string(bits) + "(" + a + ", " + v + ");");
    return;
  }
  std::string h = std::string("p2g_st") + winName(space) + std::to_string(bits);
  use(h);
  line(h + "(" + a + ", " + v + ");");
}

unsigned vecWidth(const ir::Inst& in) {
  for (auto m : in.mods) {
    if (m == "v2") return 2;
    if (m == "v4") return 4;
    if (m == "v8") return 8;
  }
  return 1;
}

// Raw bits (uint or uint64_t) -> a value of type t.
static std::string fromBits(Ty t, const std::string& raw) {
  if (t.k == Ty::K::S) {
    if (t.bits < 32) return "bitfieldExtract(int(" + raw + "), 0, " + std::to_string(t.bits) + ")";
    return t.bits == 64 ? "int64_t(" + raw + ")" : "int(" + raw + ")";
  }
  if (t.k == Ty::K::F) return t.bits == 64 ? "uint64BitsToDouble(" + raw + ")" : "uintBitsToFloat(" + raw + ")";
  if (t.k == Ty::K::Pred) return "(" + raw + " != 0u)";
  return raw;
}

std::string Emitter::namedParam(uint64_t offset, Ty t) {
  auto it = params_.find(offset);
  if (it == params_.end() || !it->second.ok || !(it->second.t == t)) return "";
  ParamSlot& s = it->second;
  if (!s.used) {
    s.used = true;
    s.init = fromBits(t, load(ptx::Space::Param, "(pc.params" + off64(int64_t(offset)) + ")", t.bits < 8 ? 8 : t.bits));
  }
  return s.name;
}

// .param variables declared in a function body (call arguments and return values of inlined calls) live in
// the private .local window, not in the kernel's parameter block.
ptx::Space effectiveSpace(Emitter& E, ptx::Space sp, const Opnd& addr) {
  if (sp == ptx::Space::Param && addr.kind == Opnd::Kind::VarAddr && E.F.vars[addr.var].space == ptx::Space::Local)
    return ptx::Space::Local;
  return sp;
}

// Loads and stores whose register is wider than the instruction type, where a float type or register is involved.
// Measured on the H200 with ptx_corpus/outside/ldst_wide_regs (268 forms x 8 records; `python3 make_case.py
// --explain expected/out.bin` in that folder lists the forms that leave the PTX ISA's rule, 9.4.1 "Operand Size
// Exceeding Instruction-Type Size"):
//  - every load follows the ISA: the loaded bits zero-extended into the register (ld.global.b8 into .f32,
//    ld.global.f32 into .b64, ...), Emitter::store's widening;
//  - st.f32 from a .b64 register stores the register's value converted as cvt.rn.f32.u64 (0x3F000000 loaded by
//    ld.global.f32 into .b64 is stored as 0x4E7C0000; forms 155 and 237, identical to cvt.rn.f32.u64, form 266);
//  - st.{b8,b16,b32} from a wider .f32/.f64 register depends on the instruction that wrote the register: after
//    ld.global.f32/.f64 the value is converted to an integer (forms 106, 110, 132, 136, 153: 0.5, -1.0 and NaN
//    give 0 from .f32; 2^68 gives all ones and NaN 0x80.. from .f64), after ld.global.b8/.b16/.b32 the bits are
//    stored unchanged (forms 188, 192, 214, 218, 235). A lowering that sees only the store cannot tell, so these
//    stay refused. Returns false after the error.
enum class WideForm { Plain, F32FromU64, Refused };

static WideForm wideForm(Emitter& E, const ir::Inst& in, Ty t, const Opnd& o, bool isStore) {
  if (o.kind == Opnd::Kind::Vec) {
    WideForm w = WideForm::Plain;
    for (auto& e : o.elems) {
      WideForm x = wideForm(E, in, t, e, isStore);
      if (x == WideForm::Refused) return x;
      if (x != WideForm::Plain) w = x;
    }
    if (w != WideForm::Plain) {
      E.error(in, "'" + std::string(in.op) + "' of a vector with a .b64 register converted to .f32 is not supported");
      return WideForm::Refused;
    }
    return w;
  }
  if (o.kind != Opnd::Kind::Reg) return WideForm::Plain;
  const ir::Reg& R = E.F.regs[o.reg];
  unsigned rb = regDeclBits(R.ptxType);
  bool floatReg = R.ptxType == "f32" || R.ptxType == "f64" || R.ptxType == "f16" || R.ptxType == "bf16";
  bool floatTy = t.k == Ty::K::F || t.isHalfLike();
  if (rb == t.bits || !(floatReg || floatTy)) return WideForm::Plain;
  bool halfInvolved = t.isHalfLike() || R.ptxType == "f16" || R.ptxType == "bf16";
  if (!isStore && !halfInvolved && rb > t.bits) return WideForm::Plain;  // measured: zero-extended bits
  if (isStore && t.k == Ty::K::F && t.bits == 32 && rb == 64 && !floatReg) return WideForm::F32FromU64;
  std::string op = in.span.begin ? std::string(in.span.begin, in.span.length) : std::string(in.op);
  std::string reg = o.span.begin ? std::string(o.span.begin, o.span.length) : R.name;
  std::string why = isStore && floatReg && !halfInvolved
                        ? "on NVIDIA the bytes depend on the instruction that wrote the register (converted after "
                          "ld.f32/.f64, unchanged after ld.b8/.b16/.b32; ptx_corpus/outside/ldst_wide_regs)"
                        : "not measured on NVIDIA (ptx_corpus/outside/ldst_wide_regs covers the forms ptxas 13 accepts)";
  E.error(in, "'" + op + "' with the ." + std::string(R.ptxType) + " register " + reg + " is not supported: " + why);
  return WideForm::Refused;
}

static MemOrder memOrder(const ir::Inst& in) { return in.hasMod("volatile") ? MemOrder::Volatile : MemOrder::Weak; }

// The smem64 element of a shared64 variable (shared64.h), read and written as `order` says.
static std::string wideLoad(const std::string& elem, MemOrder order) {
  if (order == MemOrder::Weak) return elem;
  return "atomicLoad(" + elem + ", gl_ScopeWorkgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed)";
}
static std::string wideStore(const std::string& elem, const std::string& v, MemOrder order) {
  if (order == MemOrder::Weak) return elem + " = " + v + ";";
  return "atomicStore(" + elem + ", " + v + ", gl_ScopeWorkgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed);";
}

static void emitLd(Emitter& E, const ir::Inst& in) {
  Ty t = instrType(in);
  if (t.k == Ty::K::None || in.ops.size() != 2) {
    E.error(in, "ld: expected a type and two operands");
    return;
  }
  if (t.bits > 64) {
    E.error(in, "ld of " + std::to_string(t.bits) + "-bit values is not supported yet");
    return;
  }
  if (wideForm(E, in, t, in.ops[0], false) == WideForm::Refused) return;
  ptx::Space sp = effectiveSpace(E, E.spaceOf(in), in.ops[1]);
  unsigned n = vecWidth(in);
  Ty bits{Ty::K::B, t.bits < 8 ? 8 : t.bits};
  unsigned memBits = bits.bits;
  // a kernel parameter at a constant offset: its named value (names.cpp), read once at the top of main()
  uint64_t at = 0;
  if (sp == ptx::Space::Param && E.paramLoadOffset(in, at)) {
    const Opnd& d = in.ops[0];
    std::vector<std::string> names;  // "" for a sink
    bool all = n == 1 || (d.kind == Opnd::Kind::Vec && d.elems.size() == n);
    for (unsigned i = 0; i < n && all; ++i) {
      bool sink = n > 1 && d.elems[i].kind == Opnd::Kind::Sink;
      names.push_back(sink ? "" : E.namedParam(at + i * (memBits / 8), t));
      all = sink || !names.back().empty();
    }
    if (all) {
      for (unsigned i = 0; i < n; ++i)
        if (!names[i].empty()) E.store(n == 1 ? d : d.elems[i], t, names[i]);
      return;
    }
  }
  MemOrder order = memOrder(in);
  std::string a = E.addressOf(in.ops[1], sp);
  if (n == 1) {
    std::string wide = sp == ptx::Space::Shared ? E.wideSharedElem(in, a) : "";
    E.store(in.ops[0], t, fromBits(t, wide.empty() ? E.load(sp, a, memBits, order) : wideLoad(wide, order)));
    return;
  }
  if (in.ops[0].kind != Opnd::Kind::Vec || in.ops[0].elems.size() != n) {
    E.error(in, "ld.v" + std::to_string(n) + ": destination must be a vector of " + std::to_string(n));
    return;
  }
  bool wide = sp == ptx::Space::Global || sp == ptx::Space::Param || sp == ptx::Space::None;
  std::string base = E.letOf(wide ? "uint64_t" : "uint", a);
  // Read every element before writing any destination (a destination may also be the address register).
  std::vector<std::string> vals;
  for (unsigned i = 0; i < n; ++i) {
    if (in.ops[0].elems[i].kind == Opnd::Kind::Sink) {
      vals.push_back("");
      continue;
    }
    std::string ai = i ? "(" + base + " + " + std::to_string(i * memBits / 8) + (wide ? "ul)" : "u)") : base;
    std::string v = E.tmpOf(memBits == 64 ? "uint64_t" : "uint");
    E.line(v + " = " + E.load(sp, ai, memBits, order) + ";");
    vals.push_back(v);
  }
  for (unsigned i = 0; i < n; ++i)
    if (!vals[i].empty()) E.store(in.ops[0].elems[i], t, fromBits(t, vals[i]));
}

static void emitSt(Emitter& E, const ir::Inst& in) {
  Ty t = instrType(in);
  if (t.k == Ty::K::None || in.ops.size() != 2) {
    E.error(in, "st: expected a type and two operands");
    return;
  }
  if (t.bits > 64) {
    E.error(in, "st of " + std::to_string(t.bits) + "-bit values is not supported yet");
    return;
  }
  WideForm wf = wideForm(E, in, t, in.ops[1], true);
  if (wf == WideForm::Refused) return;
  ptx::Space sp = effectiveSpace(E, E.spaceOf(in), in.ops[0]);
  unsigned n = vecWidth(in);
  unsigned memBits = t.bits < 8 ? 8 : t.bits;
  Ty raw{Ty::K::B, memBits};
  MemOrder order = memOrder(in);
  std::string a = E.addressOf(in.ops[0], sp);
  if (n == 1) {
    std::string v = E.src(in.ops[1], raw);
    if (wf == WideForm::F32FromU64) {  // cvt.rn.f32.u64 of the register (wideForm's comment): exact sum, one rounding
      E.use("p2g_i2f");
      v = "p2g_i2f(" + E.src(in.ops[1], Ty{Ty::K::U, 64}) + ", false, 0)";
    }
    std::string wide = sp == ptx::Space::Shared ? E.wideSharedElem(in, a) : "";
    if (!wide.empty()) E.line(wideStore(wide, v, order));
    else E.storeMem(sp, a, memBits, v, order);
    return;
  }
  if (in.ops[1].kind != Opnd::Kind::Vec || in.ops[1].elems.size() != n) {
    E.error(in, "st.v" + std::to_string(n) + ": source must be a vector of " + std::to_string(n));
    return;
  }
  bool wide = sp == ptx::Space::Global || sp == ptx::Space::Param || sp == ptx::Space::None;
  std::string base = E.letOf(wide ? "uint64_t" : "uint", a);
  for (unsigned i = 0; i < n; ++i) {
    std::string ai = i ? "(" + base + " + " + std::to_string(i * memBits / 8) + (wide ? "ul)" : "u)") : base;
    E.storeMem(sp, ai, memBits, E.src(in.ops[1].elems[i], raw), order);
  }
}

static void emitCvta(Emitter& E, const ir::Inst& in) {
  if (in.ops.size() != 2) {
    E.error(in, "cvta: expected two operands");
    return;
  }
  Ty t = instrType(in);
  if (t.k == Ty::K::None) t = Ty{Ty::K::U, 64};
  bool to = in.hasMod("to");
  ptx::Space sp = E.spaceOf(in);
  std::string v = E.src(in.ops[1], Ty{Ty::K::U, 64});
  int tag = tagIndex(sp);
  if (sp == ptx::Space::Global || tag == 0) {
    E.store(in.ops[0], t, t.bits == 64 ? v : "uint(" + v + ")");  // generic == global on this ABI
    return;
  }
  if (to)
    E.store(in.ops[0], t, t.bits == 64 ? "(" + v + " & 0xFFFFFFFFul)" : "uint(" + v + ")");
  else
    E.store(in.ops[0], Ty{Ty::K::U, 64}, "(" + v + " | " + kTag[tag] + ")");
}

void emitMemory(Emitter& E, const ir::Inst& in) {
  if (in.op == "ld" || in.op == "ldu") return emitLd(E, in);
  if (in.op == "st") return emitSt(E, in);
  if (in.op == "cvta") return emitCvta(E, in);
  if (in.op == "prefetch" || in.op == "prefetchu" || in.op == "discard" || in.op == "applypriority" ||
      in.op == "createpolicy") {
    E.line("// " + std::string(in.op) + ": a cache hint, no effect on results");
    return;
  }
  E.error(in, "unsupported memory instruction '" + std::string(in.op) + "'");
}

// mov: copies, addresses of variables, special registers, and vector pack/unpack of bit fields.
void emitMov(Emitter& E, const ir::Inst& in) {
  Ty t = instrType(in);
  if (t.k == Ty::K::None || in.ops.size() != 2) {
    E.error(in, "mov: expected a type and two operands");
    return;
  }
  const Opnd& d = in.ops[0];
  const Opnd& s = in.ops[1];
  if (unsigned n = vecWidth(in); n > 1) {  // mov.v2/.v4: element by element, all sources read first
    if (t.bits * n > 128) return E.error(in, "mov: a vector is at most 128 bits (PTX ISA 5.4.2 \"Vectors\")");
    std::vector<std::string> v;
    for (unsigned i = 0; i < n; ++i) v.push_back(E.let(t, E.src(s.elems[i], t)));
    for (unsigned i = 0; i < n; ++i) E.store(d.elems[i], t, v[i]);
    return;
  }
  if (d.kind == Opnd::Kind::Vec) {  // unpack: mov.b32 {lo, hi}, %r
    unsigned n = unsigned(d.elems.size());
    unsigned w = t.bits / n;
    std::string v = E.let(Ty{Ty::K::B, t.bits}, E.src(s, Ty{Ty::K::B, t.bits}));
    for (unsigned i = 0; i < n; ++i) {
      std::string part;
      // element 0 takes no shift (`(v & 0xFFFFu)`, not `((v >> 0u) & 0xFFFFu)`)
      std::string sh = i ? " >> " + std::to_string(i * w) : "";
      if (t.bits == 64)
        part = w == 32 ? "uint(" + v + sh + ")" : "(uint(" + v + sh + ") & " + std::to_string((1u << w) - 1) + "u)";
      else
        part = "(" + (i ? "(" + v + sh + "u)" : v) + (w == 16 ? " & 0xFFFFu)" : " & 0xFFu)");
      E.store(d.elems[i], Ty{Ty::K::B, w}, part);
    }
    return;
  }
  if (s.kind == Opnd::Kind::Vec) {  // pack: mov.b64 %rd, {lo, hi}
    unsigned n = unsigned(s.elems.size());
    unsigned w = t.bits / n;
    std::string e;
    for (unsigned i = 0; i < n; ++i) {
      std::string part = E.src(s.elems[i], Ty{Ty::K::B, w});
      if (t.bits == 64) part = i ? "(uint64_t(" + part + ") << " + std::to_string(i * w) + ")" : "uint64_t(" + part + ")";
      else if (i) part = "(" + part + " << " + std::to_string(i * w) + "u)";
      else if (part.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
               std::string::npos)
        part = "(" + part + ")";
      e += (i ? " | " : "") + part;
    }
    E.store(d, Ty{Ty::K::B, t.bits}, e);
    return;
  }
  E.store(d, t, E.src(s, t));
}

// Atomics. Where GLSL has the operation on the location's type it is used directly; otherwise (inc/dec with a
// bound, float add, signed min/max in shared memory, exch/cas on floats) a compare-and-swap loop on the bits.
void emitAtomic(Emitter& E, const ir::Inst& in) {
  bool isRed = in.op == "red";
  Ty t = instrType(in);
  ptx::Space sp = E.spaceOf(in);
  if (sp == ptx::Space::None && E.genericMayBeWindow()) {
    // A generic address here may point into .shared or .local (tagged by cvta), which a global atomic cannot reach.
    E.error(in, "atom/red without a state space in a function that makes generic addresses of .shared/.local "
                "variables (cvta) is not supported: the atomic cannot tell which memory the address is in");
    return;
  }
  if (sp == ptx::Space::None) sp = ptx::Space::Global;
  std::string op;
  static const char* ops[] = {"add", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec"};
  for (auto m : in.mods)
    for (auto o : ops)
      if (m == o) op = o;
  if (t.k == Ty::K::None || op.empty()) {
    E.error(in, "atom/red: unsupported form");
    return;
  }
  if (in.hasMod("v2") || in.hasMod("v4") || t.isHalfLike()) {
    E.error(in, "vector and half-precision atomics are not supported yet");
    return;
  }
  size_t ai = isRed ? 0 : 1;
  if (in.ops.size() < ai + 2) {
    E.error(in, "atom/red: missing operands");
    return;
  }
  if (sp != ptx::Space::Global && sp != ptx::Space::Shared) {
    E.error(in, "atomics are supported on .global and .shared only");
    return;
  }
  std::string wideLoc = sp == ptx::Space::Shared && t.bits == 64 ? E.wideSharedElem(in, E.addressOf(in.ops[isRed ? 0 : 1], sp)) : "";
  if (sp == ptx::Space::Shared && t.bits == 64 && wideLoc.empty()) {
    // The variable could not be moved to the 64-bit shared array (shared64.h): some shared access of the kernel
    // has an address whose variable is unknown, or the variable is also accessed with other widths. A workgroup
    // spin lock was tried instead: it lost every subgroup but the first on lavapipe and never finished on NVIDIA's
    // Vulkan driver (docs/HAZARDS_IMPLEMENTED.md), so this stays refused.
    E.error(in, "64-bit atomic on .shared: its variable is also accessed with other widths or through an address "
                "the translator cannot attribute (see translator/emit/shared64.h)");
    return;
  }
  if (t.bits == 64) E.feature("atomic64");
  std::string a = E.addressOf(in.ops[ai], sp);
  std::string loc;
  bool sgn = t.k == Ty::K::S;
  if (sp == ptx::Space::Global)
    loc = t.bits == 64 ? (sgn ? "P2GI64(" + a + ").v" : "P2GU64(" + a + ").v")
                       : (sgn ? "P2GI32(" + a + ").v" : "P2GU32(" + a + ").v");
  else
    loc = wideLoc.empty() ? "smem[(" + a + ") >> 2]" : wideLoc;
  Ty valTy = t;
  if (t.k == Ty::K::B) valTy = Ty{Ty::K::U, t.bits};
  bool locSigned = sp == ptx::Space::Global && sgn;
  Ty locTy = locSigned ? t : Ty{Ty::K::U, t.bits};
  std::string b = E.src(in.ops[ai + 1], t.k == Ty::K::F ? Ty{Ty::K::B, t.bits} : locTy);
  std::string res;
  bool native = t.k != Ty::K::F && (op == "add" || op == "and" || op == "or" || op == "xor" || op == "exch" ||
                                    op == "cas" || ((op == "min" || op == "max") && (locSigned || !sgn)));
  if (native) {
    std::string fn = op == "add" ? "atomicAdd" : op == "and" ? "atomicAnd" : op == "or" ? "atomicOr" :
                     op == "xor" ? "atomicXor" : op == "exch" ? "atomicExchange" : op == "cas" ? "atomicCompSwap" :
                     op == "min" ? "atomicMin" : "atomicMax";
    std::string args = loc + ", " + b;
    if (op == "cas") {
      if (in.ops.size() < ai + 3) {
        E.error(in, "atom.cas needs compare and new values");
        return;
      }
      args += ", " + E.src(in.ops[ai + 2], locTy);
    }
    res = fn + "(" + args + ")";
    if (isRed) E.line(res + ";");
    else E.store(in.ops[0], locTy, res);
    return;
  }
  // CAS loop on the raw bits.
  std::string U = t.bits == 64 ? "uint64_t" : "uint";
  std::string rawLoc = sp == ptx::Space::Global ? (t.bits == 64 ? "P2GU64(" + a + ").v" : "P2GU32(" + a + ").v") : loc;
  std::string addrT = E.tmpOf(sp == ptx::Space::Global ? "uint64_t" : "uint");
  E.line(addrT + " = " + a + ";");
  rawLoc = sp == ptx::Space::Global ? (t.bits == 64 ? "P2GU64(" + addrT + ").v" : "P2GU32(" + addrT + ").v")
                                    : (wideLoc.empty() ? "smem[" + addrT + " >> 2]" : E.wideSharedElem(in, addrT));
  std::string bv = E.tmpOf(glslOf(t));
  E.line(bv + " = " + E.src(in.ops[ai + 1], t) + ";");
  std::string old = E.tmpOf(U);
  E.line(old + " = " + rawLoc + ";");
  E.open("for (;;)");
  std::string cur = t.k == Ty::K::F ? (t.bits == 64 ? "uint64BitsToDouble(" + old + ")" : "uintBitsToFloat(" + old + ")")
                                    : (sgn ? (t.bits == 64 ? "int64_t(" + old + ")" : "int(" + old + ")") : old);
  std::string nv;
  if (op == "add") nv = cur + " + " + bv;
  else if (op == "min") nv = "min(" + cur + ", " + bv + ")";
  else if (op == "max") nv = "max(" + cur + ", " + bv + ")";
  else if (op == "inc") nv = "(" + cur + " >= " + bv + ") ? 0u : " + cur + " + 1u";
  else if (op == "dec") nv = "(" + cur + " == 0u || " + cur + " > " + bv + ") ? " + bv + " : " + cur + " - 1u";
  else if (op == "exch") nv = bv;
  else {
    E.error(in, "atom." + op + " on this type is not supported yet");
    E.close();
    return;
  }
  if (t.k == Ty::K::F) {
    E.warnInexact(in, "float atomics: the sum depends on the order in which threads arrive");
    nv = (t.bits == 64 ? "doubleBitsToUint64(" : "floatBitsToUint(") + nv + ")";
  } else if (sgn) {
    nv = U + "(" + nv + ")";
  }
  std::string nw = E.tmpOf(U);
  E.line(nw + " = " + nv + ";");
  std::string prev = E.tmpOf(U);
  E.line(prev + " = atomicCompSwap(" + rawLoc + ", " + old + ", " + nw + ");");
  E.line("if (" + prev + " == " + old + ") break;");
  E.line(old + " = " + prev + ";");
  E.close();
  if (!isRed) E.store(in.ops[0], Ty{Ty::K::B, t.bits}, old);
}

// Barriers: bar/barrier with barrier 0 and the whole block, each a workgroup barrier that also orders shared and
// global memory. PTX ISA 9.7.13.1 "bar, barrier":
//   bar{.cta}.sync a{, b}      = barrier{.cta}{.sync}.aligned a{, b}: wait for b threads (all, without b)
//   bar{.cta}.arrive a, b      = barrier{.cta}.arrive.aligned: arrive without waiting
//   bar{.cta}.red.popc.u32 d, a{, b}, {!}c     d = the number of threads whose c is true
//   bar{.cta}.red.{and,or}.pred p, a{, b}, {!}c  p = c of all threads / of any thread
// Only barrier 0 with the whole block is modelled (a count b must equal the block's thread count: checked at
// translation against .reqntid, else recorded in the manifest and checked by the runtime at launch). With barrier 0
// counting every thread, an arrive is matched by the other threads' bar.sync of the same phase, so waiting there
// too (barrier()) gives the same order of memory operations and the same results. bar.warp.sync is a warp
// instruction (emit_warp.cpp); nanosleep only delays the thread.
void emitSync(Emitter& E, const ir::Inst& in) {
  if (in.op == "membar" || in.op == "fence") {
    if (in.hasMod("cta")) {  // CTA scope: the workgroup's fence (prelude.cpp p2g_fence_cta)
      E.use("p2g_fence_cta");
      E.line("p2g_fence_cta();");
    } else {
      E.line("memoryBarrier();");  // .gl/.gpu/.sys: device scope, the widest a shader has
    }
    return;
  }
  if (in.op == "nanosleep") return;
  if (in.hasMod("warp")) return emitWarp(E, in);
  bool red = in.hasMod("red");
  size_t idAt = red ? 1 : 0;
  size_t nIds = in.ops.size() - (red ? 2 : 0);  // id and optional count
  if (in.ops.size() <= idAt) return E.error(in, "barrier: the barrier id is missing");
  const Opnd& id = in.ops[idAt];
  if (!(id.kind == Opnd::Kind::Imm && id.imm == 0))
    return E.error(in, "barrier ids other than 0 (named barriers) are not supported");
  if (nIds == 2 && !E.barrierCount(in, in.ops[idAt + 1])) return;
  if (in.hasMod("arrive") && nIds != 2) return E.error(in, "bar.arrive: the thread count is missing");
  if (!red) {
    // passes/barrier_mem: the memory it must order (all three unless proven otherwise)
    const char* h = in.hasMod(kMarkBarShared) ? "p2g_bar_sync_s" : in.hasMod(kMarkBarParams) ? "p2g_bar_sync_p"
                                                                                             : "p2g_bar_sync";
    E.use(h);
    E.line(std::string(h) + "();");
    return;
  }
  Ty p{Ty::K::Pred, 1}, u{Ty::K::U, 32};
  std::string c = E.src(in.ops.back(), p);
  std::string kind = in.hasMod("popc") ? "0u" : in.hasMod("and") ? "1u" : "2u";
  E.use("p2g_bar_red");
  std::string r = "p2g_bar_red(" + kind + ", " + c + ")";
  if (in.hasMod("popc")) E.store(in.ops[0], u, r);
  else E.store(in.ops[0], p, r + " != 0u");
}

}  // namespace p2g

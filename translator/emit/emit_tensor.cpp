// Warp-collective matrix data movement (ldmatrix, stmatrix, movmatrix), wmma (m16n16k16 f16/bf16, m16n16k8 tf32)
// and cp.async, with NVIDIA's bytes on any Vulkan device (docs/TENSOR.md).
//
// ldmatrix/stmatrix/movmatrix/wmma.mma move data between the 32 lanes of a warp; a Vulkan subgroup is not a warp
// (lavapipe: 8 invocations), so, as for mma.sync (emit_mma.cpp), each thread publishes what the others need in a
// shared array (`p2g_tc_x`, eight words a thread) between two workgroup barriers and then reads its warp's words by
// lane. The barriers carry mma's limitation: every thread of the block executes the instruction (.aligned asks that
// of the warp).
//
// Layouts (PTX ISA, "Warp-level matrix load instruction: ldmatrix" and the stmatrix and movmatrix sections after
// it): an 8x8 matrix of b16 has its row r at the address lane 8i + r gives (matrix i; .x1 reads lanes 0..7, .x2
// 0..15, .x4 0..31), and element (r, c) goes to lane 4r + c/2, register i, half c & 1; .trans gives lane 4r + c/2
// the element (c, r).
//
// wmma's fragments are opaque in PTX. The model takes the layout of mma.m16n8k16, which is what sm_80 and later run
// wmma m16n16k16 as (two m16n8k16 halves over n): A register r (r < 4) holds (g + 8(r & 1), 2t + 8(r >> 1) + h),
// B register r holds (k = 2t + 8(r & 1) + h, n = g + 8(r >> 1)), accumulator element e holds
// (g + 8((e >> 1) & 1), 2t + (e & 1) + 8(e >> 2)), with g = lane >> 2, t = lane & 3, h the half. The .f16 A and B
// fragments have eight registers in PTX for four registers of data: registers 4..7 repeat 0..3. Products use the
// tensor-core model of docs/MMA.md with K = 16 at once (what m16n8k16 measured); a load, mma, store round trip does
// not depend on the layout, an element-wise access of fragments does (ptx_corpus/tensor/wmma_* write the raw
// fragments too, so the H200 settles it).
#include "emitter.h"

namespace p2g {

using ir::Opnd;

namespace {

const Ty kU32{Ty::K::U, 32};
const char* kLane = "(gl_LocalInvocationIndex & 31u)";
const char* kWarp = "(gl_LocalInvocationIndex & ~31u)";

std::string u(unsigned v) { return std::to_string(v) + "u"; }

// p2g_tc_x word `w` of lane `laneExpr` of this thread's warp.
std::string xw(const std::string& laneExpr, unsigned w) {
  return "p2g_tc_x[(" + std::string(kWarp) + " + (" + laneExpr + ")) * 8u + " + u(w) + "]";
}

// Opens the exchange: the previous exchange's readers are done; then the caller writes its words.
void xchgBegin(Emitter& E) {
  E.feature("tcxchg");
  E.line("memoryBarrierShared(); barrier();");
}
void xchgPut(Emitter& E, unsigned w, const std::string& v) {
  E.line("p2g_tc_x[gl_LocalInvocationIndex * 8u + " + u(w) + "] = " + v + ";");
}
void xchgEnd(Emitter& E) { E.line("memoryBarrierShared(); barrier();"); }

unsigned matrixCount(const ir::Inst& in) { return in.hasMod("x4") ? 4 : in.hasMod("x2") ? 2 : 1; }

bool vecOf(Emitter& E, const ir::Inst& in, size_t i, unsigned n, const char* what) {
  size_t have = in.ops[i].kind == Opnd::Kind::Vec ? in.ops[i].elems.size() : 0;
  if (have == n) return true;
  E.error(in, std::string(in.op) + ": operand " + what + " must be a vector of " + std::to_string(n) + " registers");
  return false;
}

// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 {d...}, [a]; without a state space the
// addresses are generic (64 bits, two words of the exchange).
void emitLdmatrix(Emitter& E, const ir::Inst& in) {
  unsigned n = matrixCount(in);
  if (!vecOf(E, in, 0, n, "d")) return;
  bool trans = in.hasMod("trans");
  ptx::Space sp = E.spaceOf(in) == ptx::Space::Shared ? ptx::Space::Shared : ptx::Space::None;
  bool generic = sp == ptx::Space::None;
  std::string a = E.tmpOf(generic ? "uint64_t" : "uint");
  E.line(a + " = " + E.addressOf(in.ops[1], sp) + ";");
  xchgBegin(E);
  if (generic) {
    xchgPut(E, 0, "uint(" + a + ")");
    xchgPut(E, 1, "uint(" + a + " >> 32)");
  } else {
    xchgPut(E, 0, a);
  }
  xchgEnd(E);
  // the address lane `l` published, plus `bytes` (a GLSL uint expression)
  auto rowAt = [&](const std::string& l, const std::string& bytes) {
    if (!generic) return "(" + xw(l, 0) + " + " + bytes + ")";
    return "((uint64_t(" + xw(l, 1) + ") << 32 | uint64_t(" + xw(l, 0) + ")) + uint64_t(" + bytes + "))";
  };
  std::string g = "(" + std::string(kLane) + " >> 2)", t = "(" + std::string(kLane) + " % 4u)";
  std::vector<std::string> vals;
  for (unsigned i = 0; i < n; ++i) {
    std::string v = E.tmp(kU32);
    if (!trans) {
      // row g of matrix i, elements 2t and 2t + 1: one word at byte 4t of the row
      E.line(v + " = " + E.load(sp, rowAt(u(8 * i) + " + " + g, t + " * 4u"), 32) + ";");
    } else {
      // the transposed matrix's row g: element g of rows 2t and 2t + 1
      std::string lo = E.load(sp, rowAt(u(8 * i) + " + " + t + " * 2u", g + " * 2u"), 16);
      std::string hi = E.load(sp, rowAt(u(8 * i + 1) + " + " + t + " * 2u", g + " * 2u"), 16);
      E.line(v + " = " + lo + " | (" + hi + " << 16);");
    }
    vals.push_back(v);
  }
  for (unsigned i = 0; i < n; ++i) E.store(in.ops[0].elems[i], kU32, vals[i]);
}

// stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 [a], {r...}: lane 8i + r writes row r of
// matrix i (16 bytes) at its address (generic without a state space).
void emitStmatrix(Emitter& E, const ir::Inst& in) {
  unsigned n = matrixCount(in);
  if (!vecOf(E, in, 1, n, "r")) return;
  bool trans = in.hasMod("trans");
  ptx::Space sp = E.spaceOf(in) == ptx::Space::Shared ? ptx::Space::Shared : ptx::Space::None;
  bool generic = sp == ptx::Space::None;
  std::string a = E.tmpOf(generic ? "uint64_t" : "uint");
  E.line(a + " = " + E.addressOf(in.ops[0], sp) + ";");
  xchgBegin(E);
  for (unsigned i = 0; i < n; ++i) xchgPut(E, i, E.src(in.ops[1].elems[i], kU32));
  xchgEnd(E);
  E.open("if (" + std::string(kLane) + " < " + u(8 * n) + ")");
  std::string mi = E.tmp(kU32), r = E.tmp(kU32);
  E.line(mi + " = " + kLane + " >> 3; " + r + " = " + kLane + " & 7u;");
  auto reg = [&](const std::string& lane) {  // word `mi` of a lane of the warp (the matrix's register)
    return "p2g_tc_x[(" + std::string(kWarp) + " + (" + lane + ")) * 8u + " + mi + "]";
  };
  for (unsigned w = 0; w < 4; ++w) {
    std::string v;
    if (!trans) {
      v = reg(r + " * 4u + " + u(w));  // elements 2w, 2w + 1 of row r: lane 4r + w
    } else {
      // element c of the stored row r is (c, r) of the fragment matrix: lane 4c + r/2, half r & 1
      std::string lo = "bitfieldExtract(" + reg(u(8 * w) + " + (" + r + " >> 1)") + ", int(" + r + " & 1u) * 16, 16)";
      std::string hi =
          "bitfieldExtract(" + reg(u(8 * w + 4) + " + (" + r + " >> 1)") + ", int(" + r + " & 1u) * 16, 16)";
      v = "(" + lo + " | (" + hi + " << 16))";
    }
    E.storeMem(sp, "(" + a + " + " + std::to_string(4 * w) + (generic ? "ul)" : "u)"), 32, v);
  }
  E.close();
}

// movmatrix.sync.aligned.m8n8.trans.b16 d, a: lane 4r + c/2 receives element (c, r) of the fragment matrix.
void emitMovmatrix(Emitter& E, const ir::Inst& in) {
  xchgBegin(E);
  xchgPut(E, 0, E.src(in.ops[1], kU32));
  xchgEnd(E);
  std::string v = E.tmp(kU32);
  std::string half = "int(" + std::string(kLane) + " >> 2 & 1u) * 16";
  std::string src0 = std::string(kLane) + " % 4u * 8u + (" + kLane + " >> 3)";  // lane 4(2t) + g/2
  std::string lo = "bitfieldExtract(" + xw(src0, 0) + ", " + half + ", 16)";
  std::string hi = "bitfieldExtract(" + xw(src0 + " + 4u", 0) + ", " + half + ", 16)";
  E.line(v + " = " + lo + " | (" + hi + " << 16);");
  E.store(in.ops[0], kU32, v);
}

// cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size | , ignore-src}{, cache-policy}
// Lowered as a synchronous copy: the PTX ISA makes the data visible to the issuing thread only after
// cp.async.wait_group/wait_all (and to others after a barrier that follows it), so a copy done at once gives every
// correct program the same bytes; commit_group and wait_group then have nothing to do. Bytes from src-size to
// cp-size are zero (PTX ISA, "Data Movement and Conversion Instructions: cp.async"); ignore-src true copies only
// zeros. The cache operator and the L2 hints choose where the line is cached and change no byte.
void emitCpAsync(Emitter& E, const ir::Inst& in) {
  if (in.hasMod("commit_group") || in.hasMod("wait_group") || in.hasMod("wait_all")) {
    E.line("// copies are done when cp.async executes (emit_tensor.cpp): nothing to wait for");
    return;
  }
  const Opnd& sizeOp = in.ops[2];
  unsigned n = sizeOp.kind == Opnd::Kind::Imm ? unsigned(sizeOp.imm) : 0;
  if (n != 4 && n != 8 && n != 16) return E.error(in, "cp.async: the copy size must be 4, 8 or 16");
  if (in.hasMod("cg") && n != 16) return E.error(in, "cp.async.cg: the copy size must be 16");
  std::string dst = E.tmp(kU32), src = E.tmpOf("uint64_t"), have = E.tmp(kU32);
  E.line(dst + " = " + E.addressOf(in.ops[0], ptx::Space::Shared) + "; " + src + " = " +
         E.addressOf(in.ops[1], ptx::Space::Global) + ";");
  // the third operand: src-size (a value) or ignore-src (a predicate); the cache policy, when present, follows
  bool hint = in.hasMod("L2::cache_hint");
  size_t extra = in.ops.size() - 3 - (hint ? 1 : 0);
  if (extra == 0) {
    E.line(have + " = " + u(n) + ";");
  } else {
    const Opnd& o = in.ops[3];
    bool pred = o.kind == Opnd::Kind::Reg && o.reg >= 0 && E.F.regs[o.reg].ptxType == "pred";
    if (pred) E.line(have + " = " + E.src(o, Ty{Ty::K::Pred, 1}) + " ? 0u : " + u(n) + ";");
    else E.line(have + " = min(" + E.src(o, kU32) + ", " + u(n) + ");");  // larger: undefined in the ISA
  }
  for (unsigned w = 0; w < n / 4; ++w) {
    std::string v = E.tmp(kU32);
    std::string sa = "(" + src + " + " + std::to_string(4 * w) + "ul)";
    E.line(v + " = 0u;");
    E.open("if (" + have + " >= " + u(4 * w + 4) + ")");
    E.line(v + " = " + E.load(ptx::Space::Global, sa, 32) + ";");
    E.orElse();
    // a partial word: only the bytes below src-size are read (the rest may lie past the end of the buffer)
    E.open("for (uint p2g_b = " + u(4 * w) + "; p2g_b < " + have + "; ++p2g_b)");
    E.line(v + " |= " + E.load(ptx::Space::Global, "(" + src + " + uint64_t(p2g_b))", 8) + " << ((p2g_b & 3u) * 8u);");
    E.close();
    E.close();
    E.storeMem(ptx::Space::Shared, "(" + dst + " + " + u(4 * w) + ")", 32, v);
  }
}

// ---- wmma m16n16k16 ----

enum class Frag { A, B, C };

struct WmmaType {
  unsigned bits;      // element size
  unsigned regs;      // PTX registers of the fragment
  unsigned dataRegs;  // registers that carry distinct data (f16 A/B: 4 of 8)
};

WmmaType wmmaType(Frag f, std::string_view ty) {
  if (f == Frag::C) return ty == "f32" || ty == "s32" ? WmmaType{32, 8, 8} : WmmaType{16, 4, 4};
  if (ty == "tf32") return WmmaType{32, 4, 4};
  if (ty == "s8" || ty == "u8") return WmmaType{8, 2, 2};
  return ty == "f16" ? WmmaType{16, 8, 4} : WmmaType{16, 4, 4};
}

// Row and column of element `e` of a fragment (e counts the elements of A and B: 16-bit halves, tf32 registers or
// bytes; accumulator elements for C), as GLSL expressions of the lane; `bits` is the A/B element size. tf32
// (m16n16k8) follows mma.m16n8k8.tf32: A register r holds (g + 8(r & 1), t + 4(r >> 1)), B register r holds
// (k = t + 4(r & 1), n = g + 8(r >> 1)); s8/u8 follow mma.m16n8k16's integer layout: A register r holds byte j of
// (g + 8r, 4t + j), B register r holds (k = 4t + j, n = g + 8r).
void fragCoord(Frag f, unsigned e, std::string& row, std::string& col, unsigned bits = 16) {
  std::string g = "(" + std::string(kLane) + " >> 2)", t2 = "(" + std::string(kLane) + " % 4u * 2u)";
  std::string t = "(" + std::string(kLane) + " % 4u)";
  unsigned r = (e >> 1) & 3, h = e & 1;
  if (bits == 8 && f != Frag::C) {
    std::string t4 = "(" + std::string(kLane) + " % 4u * 4u)";
    r = e >> 2;
    if (f == Frag::A) row = g + " + " + u(8 * r), col = t4 + " + " + u(e & 3);
    else row = t4 + " + " + u(e & 3), col = g + " + " + u(8 * r);
    return;
  }
  if (bits == 32 && f != Frag::C) {
    r = e & 3;
    if (f == Frag::A) row = g + " + " + u(8 * (r & 1)), col = t + " + " + u(4 * (r >> 1));
    else row = t + " + " + u(4 * (r & 1)), col = g + " + " + u(8 * (r >> 1));
    return;
  }
  if (f == Frag::A) {
    row = g + " + " + u(8 * (r & 1));
    col = t2 + " + " + u(8 * (r >> 1) + h);
  } else if (f == Frag::B) {
    row = t2 + " + " + u(8 * (r & 1) + h);
    col = g + " + " + u(8 * (r >> 1));
  } else {
    row = g + " + " + u(8 * ((e >> 1) & 1));
    col = t2 + " + " + u((e & 1) + 8 * (e >> 2));
  }
}

std::string_view wmmaElemType(const ir::Inst& in) {
  for (auto m : in.mods)
    if (m == "f16" || m == "f32" || m == "bf16" || m == "tf32" || m == "s8" || m == "u8" || m == "s32") return m;
  return {};
}

// wmma.load.{a,b,c}.sync.aligned.{row,col}.m16n16k16{.global,.shared{::cta}}.type {r...}, [p]{, stride}
// wmma.store.d.sync.aligned.{row,col}.m16n16k16{.global,.shared{::cta}}.type [p], {r...}{, stride}
// Element (row, col) of a row-major matrix is at p + (row * stride + col) * size, of a column-major one at
// p + (col * stride + row) * size (PTX ISA, "wmma.load"); stride counts elements, 16 when absent.
void emitWmmaLoadStore(Emitter& E, const ir::Inst& in, bool isLoad) {
  Frag f = in.hasMod("a") ? Frag::A : in.hasMod("b") ? Frag::B : Frag::C;
  std::string_view ty = wmmaElemType(in);
  WmmaType wt = wmmaType(f, ty);
  size_t fragOp = isLoad ? 0 : 1, addrOp = isLoad ? 1 : 0;
  if (!vecOf(E, in, fragOp, wt.regs, isLoad ? "d" : "r")) return;
  ptx::Space sp = E.spaceOf(in);
  bool wide = sp != ptx::Space::Shared;
  std::string base = E.tmpOf(wide ? "uint64_t" : "uint"), stride = E.tmp(kU32);
  E.line(base + " = " + E.addressOf(in.ops[addrOp], sp) + ";");
  E.line(stride + " = " + (in.ops.size() > 2 ? E.src(in.ops[2], kU32) : "16u") + ";");
  bool colMajor = in.hasMod("col");
  unsigned esz = wt.bits / 8;
  unsigned abBits = f == Frag::C ? 16 : wt.bits;
  auto addr = [&](unsigned e) {
    std::string row, col;
    fragCoord(f, e, row, col, abBits);
    std::string off = colMajor ? "(" + col + ") * " + stride + " + " + row : "(" + row + ") * " + stride + " + " + col;
    return "(" + base + " + " + (wide ? "uint64_t" : "uint") + "((" + off + ") * " + u(esz) + "))";
  };
  unsigned perReg = 32 / wt.bits;
  if (isLoad) {
    std::vector<std::string> vals;
    for (unsigned r = 0; r < wt.dataRegs; ++r) {
      std::string v = E.tmp(kU32), x;
      for (unsigned j = 0; j < perReg; ++j)
        x += (j ? " | (" : "(") + E.load(sp, addr(perReg * r + j), wt.bits) + " << " + u(wt.bits * j) + ")";
      E.line(v + " = " + x + ";");
      vals.push_back(v);
    }
    for (unsigned r = 0; r < wt.regs; ++r) E.store(in.ops[0].elems[r], kU32, vals[r % wt.dataRegs]);
    return;
  }
  for (unsigned r = 0; r < wt.dataRegs; ++r) {
    std::string v = E.tmp(kU32);
    E.line(v + " = " + E.src(in.ops[1].elems[r], kU32) + ";");
    if (perReg == 1) {
      E.storeMem(sp, addr(r), 32, v);
    } else {
      E.storeMem(sp, addr(2 * r), 16, "(" + v + " & 0xFFFFu)");
      E.storeMem(sp, addr(2 * r + 1), 16, "(" + v + " >> 16)");
    }  // (stores are f16 or f32/s32: D is never 8-bit)
  }
}

// wmma.mma.sync.aligned.{row,col}.{row,col}.m16n16k16.dtype.ctype d, a, b, c (f16 A and B), .f32.bf16.bf16.f32,
// or m16n16k8 .f32.tf32.tf32.f32. Each D element is one tensor-core sum of K = 16 (8 for tf32) products and c
// (p2g_mma_float, docs/MMA.md). f32 C with f16 D is taken as the f32 computation rounded to f16 (to nearest
// even): an assumption, see docs/TENSOR.md.
// wmma.mma.sync.aligned.{row,col}.{row,col}.m16n16k16.s32.{s8,u8}.{s8,u8}.s32{.satfinite}: each D element is the
// exact integer sum of the 16 products and c, wrapping modulo 2^32, or clamped to the s32 range with .satfinite
// (what mma.sync's integer forms measured, docs/MMA.md).
void emitWmmaInt(Emitter& E, const ir::Inst& in, bool signedA, bool signedB) {
  if (!vecOf(E, in, 0, 8, "d") || !vecOf(E, in, 1, 2, "a") || !vecOf(E, in, 2, 2, "b") || !vecOf(E, in, 3, 8, "c"))
    return;
  E.use("p2g_wmma_int");
  std::vector<std::string> c;
  for (unsigned i = 0; i < 8; ++i) {
    c.push_back(E.tmp(kU32));
    E.line(c.back() + " = " + E.src(in.ops[3].elems[i], kU32) + ";");
  }
  xchgBegin(E);
  for (unsigned i = 0; i < 2; ++i) xchgPut(E, i, E.src(in.ops[1].elems[i], kU32));
  for (unsigned i = 0; i < 2; ++i) xchgPut(E, 4 + i, E.src(in.ops[2].elems[i], kU32));
  xchgEnd(E);
  std::vector<std::string> d;
  std::string flags = std::string(signedA ? "true, " : "false, ") + (signedB ? "true, " : "false, ") +
                      (in.hasMod("satfinite") ? "true" : "false");
  for (unsigned e = 0; e < 8; ++e) {
    std::string row, col;
    fragCoord(Frag::C, e, row, col);
    d.push_back(E.tmp(kU32));
    E.line(d.back() + " = p2g_wmma_int(" + row + ", " + col + ", " + c[e] + ", " + flags + ");");
  }
  for (unsigned r = 0; r < 8; ++r) E.store(in.ops[0].elems[r], kU32, d[r]);
}

void emitWmmaMma(Emitter& E, const ir::Inst& in) {
  std::vector<std::string_view> types;
  for (auto m : in.mods)
    if (m == "f16" || m == "f32" || m == "bf16" || m == "tf32" || m == "s8" || m == "u8" || m == "s32")
      types.push_back(m);
  if (types.size() == 4 && types[0] == "s32") return emitWmmaInt(E, in, types[1] == "s8", types[2] == "s8");
  std::string_view dty = types[0], cty = types.back();
  std::string_view aty = types.size() == 4 ? types[1] : "f16";
  bool bf16 = aty == "bf16", tf32 = aty == "tf32";
  WmmaType wd = wmmaType(Frag::C, dty), wc = wmmaType(Frag::C, cty), wa = wmmaType(Frag::A, aty);
  if (!vecOf(E, in, 0, wd.regs, "d") || !vecOf(E, in, 1, wa.regs, "a") || !vecOf(E, in, 2, wa.regs, "b") ||
      !vecOf(E, in, 3, wc.regs, "c"))
    return;
  E.use("p2g_mma_float");
  E.use(tf32 ? "p2g_wmma_frag_tf32" : "p2g_wmma_frag");
  // c before anything is written (d may name the same registers)
  std::vector<std::string> c;
  for (unsigned i = 0; i < wc.regs; ++i) {
    std::string t = E.tmp(kU32);
    E.line(t + " = " + E.src(in.ops[3].elems[i], kU32) + ";");
    c.push_back(t);
  }
  xchgBegin(E);
  for (unsigned i = 0; i < 4; ++i) xchgPut(E, i, E.src(in.ops[1].elems[i], kU32));
  for (unsigned i = 0; i < 4; ++i) xchgPut(E, 4 + i, E.src(in.ops[2].elems[i], kU32));
  xchgEnd(E);
  bool c16 = cty == "f16", d16 = dty == "f16";
  std::vector<std::string> d;
  if (!tf32) {
    // One helper call per instruction: the 8 elements are a loop in p2g_wmma_mma, not 8 inlined copies of the sum
    // (8 copies per wmma.mma made NVIDIA's pipeline creation fail with VkResult -13 on tensor/wmma_gemm_nvcc).
    E.use("p2g_wmma_mma");
    std::string cs;
    for (unsigned e = 0; e < 8; ++e)
      cs += (e ? ", " : "") + (c16 ? "bitfieldExtract(" + c[e >> 1] + ", " + std::to_string(16 * (e & 1)) + ", 16)" : c[e]);
    std::string name = E.tmpArray(kU32, 8);
    E.line(std::string("p2g_wmma_mma(uint[8](") + cs + "), " + (bf16 ? "1u" : "0u") + ", " + (c16 ? "0u" : "3u") +
           ", " + (d16 && c16 ? "true" : "false") + ", " + (d16 && !c16 ? "true" : "false") + ", " + name + ");");
    for (unsigned e = 0; e < 8; ++e) d.push_back(name + "[" + std::to_string(e) + "]");
  }
  for (unsigned e = 0; tf32 && e < 8; ++e) {
    std::string row, col;
    fragCoord(Frag::C, e, row, col);
    d.push_back(E.tmp(kU32));
    // wmma m16n16k8 tf32 is two tensor-core sums of K = 4, the first rounded to f32 and taken as the second's c
    // (measured on the H200: ptx_corpus/tensor/wmma_tf32 d 0/2048 differ this way, 519/2048 as one sum of K = 8,
    // 492/2048 as four of K = 2; mma.sync.m16n8k8.tf32 is one sum of K = 8: ptx_corpus/mma/tf32_f32_k8).
    E.line("{ uint p2g_fa[32], p2g_fb[32]; p2g_wmma_frag_tf32(" + row + ", " + col + ", p2g_fa, p2g_fb); uint p2g_h = "
           "p2g_mma_float(p2g_fa, p2g_fb, 4u, 2u, " + c[e] + ", 3u, false); for (int i = 0; i < 4; ++i) { p2g_fa[i] = "
           "p2g_fa[4 + i]; p2g_fb[i] = p2g_fb[4 + i]; } " + d.back() + " = p2g_mma_float(p2g_fa, p2g_fb, 4u, 2u, "
           "p2g_h, 3u, false); }");
  }
  if (d16)
    for (unsigned r = 0; r < 4; ++r)
      E.store(in.ops[0].elems[r], kU32, "(" + d[2 * r] + " | (" + d[2 * r + 1] + " << 16))");
  else
    for (unsigned r = 0; r < 8; ++r) E.store(in.ops[0].elems[r], kU32, d[r]);
}

}  // namespace

void emitTensor(Emitter& E, const ir::Inst& in) {
  std::string_view op = in.op;
  if (op == "ldmatrix") return emitLdmatrix(E, in);
  if (op == "stmatrix") return emitStmatrix(E, in);
  if (op == "movmatrix") return emitMovmatrix(E, in);
  if (op == "cp") return emitCpAsync(E, in);
  if (op == "wmma") {
    if (in.hasMod("load")) return emitWmmaLoadStore(E, in, true);
    if (in.hasMod("store")) return emitWmmaLoadStore(E, in, false);
    if (in.hasMod("mma")) return emitWmmaMma(E, in);
  }
  E.error(in, "unsupported instruction '" + std::string(op) + "'");
}

std::vector<PreludeHelper> tensorHelpers() {
  std::vector<PreludeHelper> h;
  h.push_back({"p2g_wmma_frag", {}, {}, R"(// Row `row` of A and column `col` of B (16 elements each) of a wmma.m16n16k16 of the warp, from the fragments every
// thread wrote to p2g_tc_x (A registers 0..3, then B registers 0..3; layout: emit_tensor.cpp, docs/TENSOR.md).
void p2g_wmma_frag(uint row, uint col, out uint a[32], out uint b[32]) {
  uint wb = gl_LocalInvocationIndex & ~31u;
  for (uint k = 0u; k < 16u; ++k) {
    uint la = (row & 7u) * 4u + ((k & 7u) >> 1), ra = (row >> 3) + 2u * (k >> 3);
    uint lb = (col & 7u) * 4u + ((k & 7u) >> 1), rb = (k >> 3) + 2u * (col >> 3);
    a[k] = bitfieldExtract(p2g_tc_x[(wb + la) * 8u + ra], int(k & 1u) * 16, 16);
    b[k] = bitfieldExtract(p2g_tc_x[(wb + lb) * 8u + 4u + rb], int(k & 1u) * 16, 16);
  }
}
)"});
  h.push_back({"p2g_wmma_mma", {"p2g_mma_float", "p2g_wmma_frag", "p2g_wmma_f32_to_f16"}, {}, R"(// The 8 D elements this thread holds of a wmma.mma m16n16k16 with f16 (etype 0) or bf16 (1) A and B: element e
// is row (lane >> 2) + 8 * ((e >> 1) & 1), column (lane % 4) * 2 + (e & 1) + 8 * (e >> 2) (emit_tensor.cpp fragCoord);
// cfmt 0 = f16 C, 3 = f32 C; d16: f16 C and D; cvt16: f32 C, f16 D (the f32 sum rounded to nearest even).
void p2g_wmma_mma(uint c[8], uint etype, uint cfmt, bool d16, bool cvt16, out uint d[8]) {
  uint lane = gl_LocalInvocationIndex & 31u;
  for (uint e = 0u; e < 8u; ++e) {
    uint a[32], b[32];
    p2g_wmma_frag((lane >> 2) + 8u * ((e >> 1) & 1u), lane % 4u * 2u + (e & 1u) + 8u * (e >> 2), a, b);
    uint v = p2g_mma_float(a, b, 16u, etype, c[e], cfmt, d16);
    d[e] = cvt16 ? p2g_wmma_f32_to_f16(v) : v;
  }
}
)"});
  h.push_back({"p2g_wmma_frag_tf32", {}, {}, R"(// Row `row` of A and column `col` of B (8 tf32 elements each, whole registers) of a wmma.m16n16k8 of the warp from
// p2g_tc_x (layout of mma.m16n8k8.tf32: emit_tensor.cpp, docs/TENSOR.md).
void p2g_wmma_frag_tf32(uint row, uint col, out uint a[32], out uint b[32]) {
  uint wb = gl_LocalInvocationIndex & ~31u;
  for (uint k = 0u; k < 8u; ++k) {
    a[k] = p2g_tc_x[(wb + (row & 7u) * 4u + (k & 3u)) * 8u + (row >> 3) + 2u * (k >> 2)];
    b[k] = p2g_tc_x[(wb + (col & 7u) * 4u + (k & 3u)) * 8u + 4u + (k >> 2) + 2u * (col >> 3)];
  }
}
)"});
  h.push_back({"p2g_wmma_int", {}, {}, R"(// One element of an integer wmma.m16n16k16 (s8/u8 A and B from p2g_tc_x: A registers 0..1, B registers 4..5, the
// layout of mma.m16n8k16's integer forms): the exact sum, wrapping, or clamped to the s32 range with .satfinite.
uint p2g_wmma_int(uint row, uint col, uint c, bool sa, bool sb, bool sat) {
  uint wb = gl_LocalInvocationIndex & ~31u;
  int64_t s = int64_t(int(c));
  for (uint k = 0u; k < 16u; ++k) {
    uint wa = p2g_tc_x[(wb + (row & 7u) * 4u + (k >> 2)) * 8u + (row >> 3)];
    uint wv = p2g_tc_x[(wb + (col & 7u) * 4u + (k >> 2)) * 8u + 4u + (col >> 3)];
    int x = sa ? bitfieldExtract(int(wa), int(k & 3u) * 8, 8) : int(bitfieldExtract(wa, int(k & 3u) * 8, 8));
    int y = sb ? bitfieldExtract(int(wv), int(k & 3u) * 8, 8) : int(bitfieldExtract(wv, int(k & 3u) * 8, 8));
    s += int64_t(x * y);
  }
  if (sat) s = clamp(s, -2147483648l, 2147483647l);
  return uint(s);
}
)"});
  h.push_back({"p2g_wmma_f32_to_f16", {"p2g_mma_round"}, {}, R"(// f32 bits to f16 bits rounded to nearest even, in integer code (cvt.rn.f16.f32: NaN gives 0x7FFF, overflow infinity).
uint p2g_wmma_f32_to_f16(uint x) {
  uint s = x & 0x80000000u, E = (x >> 23) & 0xFFu, m = x & 0x7FFFFFu;
  if (E == 0xFFu) return m != 0u ? 0x7FFFu : (s >> 16) | 0x7C00u;
  if (E == 0u && m == 0u) return s >> 16;
  int64_t S = int64_t(E != 0u ? (m | 0x800000u) : m);
  int q = (E != 0u ? int(E) : 1) - 150;
  uint r = p2g_mma_round(s != 0u ? -S : S, q, true, true);
  return r == 0u ? s >> 16 : r;
}
)"});
  return h;
}

}  // namespace p2g

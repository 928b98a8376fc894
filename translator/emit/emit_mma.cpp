// mma.sync.aligned (tensor-core matrix multiply-accumulate of one warp) with NVIDIA's bits on any Vulkan device.
//
// The warp's 32 threads hold the A, B, C fragments (PTX ISA "Matrix fragments for mma.m16n8k*"); a Vulkan subgroup
// is not a warp (lavapipe: 8 invocations), so, as for shfl.sync (emit_warp.cpp), the fragments go through a shared
// array with workgroup barriers around the exchange: every thread writes its A and B registers, then computes its
// own D elements from the warp's fragments with the tensor-core model (mma_prelude.cpp, docs/MMA.md). The barriers
// carry shfl's limitation: every thread of the block must execute the instruction (what .aligned requires of a
// warp anyway, extended to the block).
//
// Implemented: the forms whose arithmetic was fitted on the H200 with 0 mismatches (docs/MMA.md). Left out: the
// FP8 combinations the probe did not measure (e5m2 x e4m3; f16 D from e5m2).
#include "emitter.h"

namespace p2g {

namespace {

struct MmaForm {
  const char* shape;
  const char* d;
  const char* a;
  const char* b;
  const char* c;
  unsigned shapeCode;  // p2g_mma_frag's shape
  unsigned K;
  unsigned nA, nB, nC;  // registers of a, b, c (= d)
  int tab;              // p2g_mma_float's element type of A and B; -1: s8; -2: FP8 (p2g_mma_fp8)
};

const MmaForm kMma[] = {
    {"m16n8k16", "f32", "f16", "f16", "f32", 0, 16, 4, 2, 4, 0},
    {"m16n8k16", "f16", "f16", "f16", "f16", 0, 16, 4, 2, 2, 0},
    {"m16n8k16", "f32", "bf16", "bf16", "f32", 0, 16, 4, 2, 4, 1},
    {"m16n8k8", "f32", "tf32", "tf32", "f32", 1, 8, 4, 2, 4, 2},
    {"m16n8k8", "f32", "f16", "f16", "f32", 2, 8, 2, 1, 4, 0},
    {"m16n8k32", "s32", "s8", "s8", "s32", 3, 32, 4, 2, 4, -1},
    {"m16n8k32", "f32", "e4m3", "e4m3", "f32", 3, 32, 4, 2, 4, -2},
    {"m16n8k32", "f32", "e5m2", "e5m2", "f32", 3, 32, 4, 2, 4, -2},
    {"m16n8k32", "f32", "e4m3", "e5m2", "f32", 3, 32, 4, 2, 4, -2},
    {"m16n8k32", "f16", "e4m3", "e4m3", "f16", 3, 32, 4, 2, 2, -2},
};

}  // namespace

void emitMma(Emitter& E, const ir::Inst& in) {
  // modifiers: .sync .aligned .shape .row .col [.satfinite] .dtype .atype .btype .ctype (the table checked them)
  std::vector<std::string_view> types;
  std::string_view shape;
  for (auto m : in.mods)
    if (m.size() > 1 && m[0] == 'm' && m.find('n') != std::string_view::npos && m.find('k') != std::string_view::npos)
      shape = m;
    else if (m == "f32" || m == "f16" || m == "bf16" || m == "tf32" || m == "s32" || m == "s8" || m == "e4m3" ||
             m == "e5m2")
      types.push_back(m);
  const MmaForm* f = nullptr;
  if (types.size() == 4)
    for (auto& x : kMma)
      if (shape == x.shape && types[0] == x.d && types[1] == x.a && types[2] == x.b && types[3] == x.c) f = &x;
  if (!f) {
    E.error(in, "mma: this shape and type combination is not implemented");
    return;
  }
  bool sat = in.hasMod("satfinite");
  bool f16acc = std::string_view(f->c) == "f16";
  const char* what[] = {"d", "a", "b", "c"};
  unsigned want[] = {f->nC, f->nA, f->nB, f->nC};
  for (int i = 0; i < 4; ++i) {
    size_t n = in.ops[i].kind == ir::Opnd::Kind::Vec ? in.ops[i].elems.size() : 0;
    if (n != want[i]) {
      E.error(in, std::string("mma.") + std::string(shape) + "." + f->d + "." + f->a + ": operand " + what[i] +
                      " must be a vector of " + std::to_string(want[i]) + " registers");
      return;
    }
  }
  Ty u{Ty::K::U, 32};
  E.feature("mmaxchg");
  E.use("p2g_mma_frag");
  E.use(f->tab == -1 ? "p2g_mma_s8" : f->tab == -2 ? "p2g_mma_fp8" : "p2g_mma_float");
  // c before anything is written (d may name the same registers)
  std::vector<std::string> c;
  for (unsigned i = 0; i < f->nC; ++i) {
    std::string t = E.tmp(u);
    E.line(t + " = " + E.src(in.ops[3].elems[i], u) + ";");
    c.push_back(t);
  }
  E.line("memoryBarrierShared(); barrier();");
  for (unsigned i = 0; i < f->nA; ++i)
    E.line("p2g_mma_x[gl_LocalInvocationIndex * 6u + " + std::to_string(i) + "u] = " + E.src(in.ops[1].elems[i], u) + ";");
  for (unsigned i = 0; i < f->nB; ++i)
    E.line("p2g_mma_x[gl_LocalInvocationIndex * 6u + " + std::to_string(4 + i) + "u] = " +
           E.src(in.ops[2].elems[i], u) + ";");
  E.line("memoryBarrierShared(); barrier();");
  // D element i of this lane: row g + 8 * (i >= 2), column 2t + (i & 1)
  std::string d[4];
  for (int i = 0; i < 4; ++i) {
    d[i] = E.tmp(u);
    std::string row = "((gl_LocalInvocationIndex & 31u) >> 2) + " + std::to_string(i >= 2 ? 8 : 0) + "u";
    std::string col = "(gl_LocalInvocationIndex & 3u) * 2u + " + std::to_string(i & 1) + "u";
    std::string ci = f16acc ? "bitfieldExtract(" + c[i >> 1] + ", " + std::to_string(16 * (i & 1)) + ", 16)" : c[i];
    std::string e5a = std::string_view(f->a) == "e5m2" ? "true" : "false";
    std::string e5b = std::string_view(f->b) == "e5m2" ? "true" : "false";
    std::string call =
        f->tab == -1 ? "p2g_mma_s8(p2g_fa, p2g_fb, " + ci + ", " + (sat ? "true" : "false") + ")"
        : f->tab == -2 ? "p2g_mma_fp8(p2g_fa, p2g_fb, " + e5a + ", " + e5b + ", " + ci + ", " +
                             (f16acc ? "true" : "false") + ")"
                   : "p2g_mma_float(p2g_fa, p2g_fb, " + std::to_string(f->K) + "u, " + std::to_string(f->tab) + "u, " + ci +
                         ", " + (f16acc ? "0u" : "3u") + ", " + (f16acc ? "true" : "false") + ")";
    E.line("{ uint p2g_fa[32], p2g_fb[32]; p2g_mma_frag(gl_LocalInvocationIndex & ~31u, " +
           std::to_string(f->shapeCode) + "u, " + std::to_string(f->K) + "u, " + row + ", " + col +
           ", p2g_fa, p2g_fb); " + d[i] + " = " + call + "; }");
  }
  if (f16acc) {
    E.store(in.ops[0].elems[0], u, "(" + d[0] + " | (" + d[1] + " << 16))");
    E.store(in.ops[0].elems[1], u, "(" + d[2] + " | (" + d[3] + " << 16))");
  } else {
    for (int i = 0; i < 4; ++i) E.store(in.ops[0].elems[i], u, d[i]);
  }
}

}  // namespace p2g

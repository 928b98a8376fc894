// --check-bounds: the shader side of the memory check (check_bounds.h states the contract).
#include "check_bounds.h"

#include <algorithm>

namespace p2g {

using ir::Opnd;

namespace {

uint64_t spaceEnd(const ir::Function& f, ptx::Space s) {
  uint64_t end = 0;
  for (auto& v : f.vars)
    if (v.space == s && !v.dynamic) end = std::max<uint64_t>(end, v.offset + v.bytes);
  return end;
}

// The size of a state space known at translation time (shared: the static part only).
uint64_t staticLimit(const ir::Function& f, ptx::Space s) {
  switch (s) {
    case ptx::Space::Shared: return f.sharedStaticBytes;
    case ptx::Space::Local: return f.localBytes;
    case ptx::Space::Param: return f.paramBytes;
    case ptx::Space::Const:
    case ptx::Space::Global: return spaceEnd(f, s);
    default: return 0;
  }
}

}  // namespace

std::string boundsCheckText(const ir::Function& f) {
  std::string shared = std::to_string(f.sharedStaticBytes) + "u + P2G_DYN_SMEM_BYTES";
  std::string s;
  s += "// --check-bounds (check_bounds.h, docs/ABI.md): every access not provably in bounds is checked first; one\n"
       "// outside its space is skipped and counted, and each thread keeps its first one; main() writes them out at\n"
       "// its end (p2g_cb_flush), where the first thread to arrive records its access for the runtime to report.\n"
       "layout(buffer_reference, std430, buffer_reference_align = 8) buffer P2GBounds {\n"
       "  uint hits, first, what, bytes, line;\n"
       "  uint tid[3], ctaid[3];\n"
       "  uint limit;         // the size of the window (shared, local, const, param) that was checked\n"
       "  uint64_t addr;      // the global address, or the offset in the window\n"
       "};\n"
       "// The buffers the kernel may address, (base, size) as specialization constants; size 0: unused. Set by the\n"
       "// runtime: the unused entries fold away when the pipeline is created.\n";
  for (uint32_t i = 0; i < kBoundsSlots; ++i) {
    std::string n = std::to_string(i);
    s += "layout(constant_id = " + std::to_string(kBoundsSpecId + 2 * i) + ") const uint64_t P2G_CB_B" + n +
         " = 0ul; layout(constant_id = " + std::to_string(kBoundsSpecId + 2 * i + 1) + ") const uint64_t P2G_CB_S" +
         n + " = 0ul;\n";
  }
  s += "uint p2g_cb_n = 0u, p2g_cb_what = 0u, p2g_cb_bytes = 0u, p2g_cb_line = 0u, p2g_cb_limit = 0u;\n"
       "uint64_t p2g_cb_addr = 0ul;\n"
       "// Notes an access (in bounds or not) without a branch: selects only.\n"
       "bool p2g_note(bool ok, uint what, uint n, uint line, uint64_t a, uint limit) {\n"
       "  bool first = !ok && p2g_cb_n == 0u;\n"
       "  p2g_cb_what = first ? what : p2g_cb_what;\n"
       "  p2g_cb_bytes = first ? n : p2g_cb_bytes;\n"
       "  p2g_cb_line = first ? line : p2g_cb_line;\n"
       "  p2g_cb_limit = first ? limit : p2g_cb_limit;\n"
       "  p2g_cb_addr = first ? a : p2g_cb_addr;\n"
       "  p2g_cb_n += ok ? 0u : 1u;\n"
       "  return ok;\n"
       "}\n"
       "void p2g_cb_flush() {\n"
       "  if (p2g_cb_n == 0u) return;\n"
       "  P2GBounds B = P2GBounds(pc.bounds);\n"
       "  atomicAdd(B.hits, p2g_cb_n);\n"
       "  if (atomicCompSwap(B.first, 0u, 1u) != 0u) return;\n"
       "  B.what = p2g_cb_what; B.bytes = p2g_cb_bytes; B.line = p2g_cb_line; B.limit = p2g_cb_limit;\n"
       "  B.addr = p2g_cb_addr;\n"
       "  B.tid[0] = gl_LocalInvocationID.x; B.tid[1] = gl_LocalInvocationID.y; B.tid[2] = gl_LocalInvocationID.z;\n"
       "  B.ctaid[0] = gl_WorkGroupID.x; B.ctaid[1] = gl_WorkGroupID.y; B.ctaid[2] = gl_WorkGroupID.z;\n"
       "}\n"
       "uint p2g_in(uint64_t a, uint n, uint64_t base, uint64_t size) {\n"
       "  return uint(size >= uint64_t(n)) & uint(a - base <= size - uint64_t(n));\n"
       "}\n"
       "// Global: inside one of the buffers. No memory is read and nothing branches (see check_bounds.h).\n"
       "bool p2g_chk_g(uint64_t a, uint n, uint what, uint line) {\n"
       "  uint hit = 0u";
  for (uint32_t i = 0; i < kBoundsSlots; ++i) {
    std::string n = std::to_string(i);
    s += std::string(i % 3 == 0 ? "\n     " : "") + " | p2g_in(a, n, P2G_CB_B" + n + ", P2G_CB_S" + n + ")";
  }
  s += ";\n"
       "  return p2g_note(hit != 0u, what | " + std::to_string(uint32_t(BoundsSpace::Global) << 8) + "u, n, line, a, 0u);\n"
       "}\n"
       "bool p2g_chk_w(uint64_t a, uint n, uint what, uint line, uint limit) {\n"
       "  uint ok = uint(a <= uint64_t(limit)) & uint(n <= limit - uint(a));\n"
       "  return p2g_note(ok != 0u, what, n, line, a, limit);\n"
       "}\n";
  auto window = [&](const char* name, BoundsSpace sp, const std::string& limit) {
    s += "bool p2g_chk_" + std::string(name) + "(uint64_t a, uint n, uint what, uint line) { return p2g_chk_w(a, n, what | " +
         std::to_string(uint32_t(sp) << 8) + "u, line, " + limit + "); }\n";
  };
  window("s", BoundsSpace::Shared, shared);
  window("l", BoundsSpace::Local, std::to_string(f.localBytes) + "u");
  window("c", BoundsSpace::Const, std::to_string(spaceEnd(f, ptx::Space::Const)) + "u");
  window("p", BoundsSpace::Param, std::to_string(f.paramBytes) + "u");
  s += "// Generic: the window tag of cvta (emit_mem.cpp) picks the space, as p2g_gen_ld/st do.\n"
       "bool p2g_chk_gen(uint64_t a, uint n, uint what, uint line) {\n"
       "  uint w = uint(a >> 48);\n"
       "  if (w == 0xFF01u) return p2g_chk_s(uint64_t(uint(a)), n, what, line);\n"
       "  if (w == 0xFF02u) return p2g_chk_l(uint64_t(uint(a)), n, what, line);\n"
       "  if (w == 0xFF03u) return p2g_chk_c(uint64_t(uint(a)), n, what, line);\n"
       "  if (w == 0xFF04u) return p2g_chk_p(a & 0xFFFFFFFFul, n, what, line);\n"
       "  return p2g_chk_g(a, n, what, line);\n"
       "}\n";
  return s;
}

std::string boundsCondition(Emitter& E, const ir::Inst& in, uint32_t line) {
  bool ld = in.op == "ld" || in.op == "ldu", st = in.op == "st", atomic = in.op == "atom" || in.op == "red";
  if (!ld && !st && !atomic) return "";
  Ty t = instrType(in);
  size_t ai = in.op == "st" || in.op == "red" ? 0 : 1;
  if (t.k == Ty::K::None || t.bits > 64 || in.ops.size() <= ai) return "";  // the handler reports the error
  const Opnd& a = in.ops[ai];
  // The same space decisions as the handlers (emit_mem.cpp).
  ptx::Space sp = E.spaceOf(in);
  if (atomic && sp == ptx::Space::None) sp = ptx::Space::Global;
  if (!atomic) sp = effectiveSpace(E, sp, a);
  if (sp == ptx::Space::None && !E.genericMayBeWindow()) sp = ptx::Space::Global;
  uint64_t n = uint64_t(t.bits < 8 ? 8 : t.bits) / 8 * (atomic ? 1 : vecWidth(in));
  if (a.kind == Opnd::Kind::VarAddr) {
    const ir::Var& v = E.F.vars[a.var];
    ptx::Space vs = sp == ptx::Space::None ? ptx::Space::Global : sp;
    int64_t off = int64_t(v.offset) + a.imm;
    if (v.space == vs && off >= 0 && uint64_t(off) + n <= staticLimit(E.F, vs)) return "";
  }
  std::string addr = E.addressOf(a, sp);
  std::string rest = ", " + std::to_string(n) + "u, " + std::to_string(ld ? 0 : st ? 1 : 2) + "u, " +
                     std::to_string(line) + "u)";
  switch (sp) {
    case ptx::Space::Global: return "p2g_chk_g(" + addr + rest;
    case ptx::Space::Shared: return "p2g_chk_s(uint64_t(" + addr + ")" + rest;
    case ptx::Space::Local: return "p2g_chk_l(uint64_t(" + addr + ")" + rest;
    case ptx::Space::Const: return "p2g_chk_c(uint64_t(" + addr + ")" + rest;
    case ptx::Space::Param: return "p2g_chk_p(" + addr + " - pc.params" + rest;
    default: return "p2g_chk_gen(" + addr + rest;
  }
}

}  // namespace p2g

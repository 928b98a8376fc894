// Warp-level operations (shfl.sync, vote.sync) with NVIDIA's warp of 32 on any Vulkan device.
//
// A Vulkan subgroup is not a warp: lavapipe's subgroups have 8 invocations, RADV's 32 or 64 (HAZARDS.md #10). So a
// warp is rebuilt from the linear thread index (lane = index & 31, as CUDA numbers lanes) and values are exchanged
// through a shared array `p2g_xchg` with workgroup barriers around the exchange. The barriers make one limitation:
// every thread of the block must execute the warp instruction (what the membermask 0xFFFFFFFF of
// __shfl_xor_sync(0xffffffff, ...) in uniform code means); a shfl in divergent code is refused by glslang's
// validation of barrier() placement only at run time, so it is documented here and in docs/ABI.md.
#include "emitter.h"

namespace p2g {

using ir::Opnd;

static void exchange(Emitter& E, const std::string& value, const std::string& srcLaneIndex, const std::string& dst) {
  E.feature("warpxchg");
  E.line("memoryBarrierShared(); barrier();");
  E.line("p2g_xchg[gl_LocalInvocationIndex] = " + value + ";");
  E.line("memoryBarrierShared(); barrier();");
  E.line(dst + " = p2g_xchg[" + srcLaneIndex + "];");
}

// shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask  (PTX ISA "shfl.sync"):
//   lane = laneid; segmask = c[12:8]; maxLane = (lane & segmask) | (c[4:0] & ~segmask); minLane = lane & segmask;
//   up: j = lane - b, valid j >= maxLane; down: j = lane + b; bfly: j = lane ^ b; idx: j = minLane | (b & ~segmask);
//   valid j <= maxLane for down/bfly/idx; an invalid j reads the thread's own value; p = valid.
void emitWarp(Emitter& E, const ir::Inst& in) {
  std::string op(in.op);
  if (op == "shfl") {
    if (in.ops.size() < 4) {
      E.error(in, "shfl.sync: expected d, a, b, c[, membermask]");
      return;
    }
    std::string mode = in.hasMod("up") ? "up" : in.hasMod("down") ? "down" : in.hasMod("bfly") ? "bfly" :
                       in.hasMod("idx") ? "idx" : "";
    if (mode.empty()) {
      E.error(in, "shfl: unknown mode");
      return;
    }
    const Opnd& d = in.ops[0];
    const Opnd* dval = &d;
    const Opnd* dpred = nullptr;
    if (d.kind == Opnd::Kind::Vec && d.elems.size() == 2) {
      dval = &d.elems[0];
      dpred = &d.elems[1];
    }
    Ty u{Ty::K::U, 32};
    std::string a = E.tmp(u), b = E.tmp(u), c = E.tmp(u);
    E.line(a + " = " + E.src(in.ops[1], u) + "; " + b + " = " + E.src(in.ops[2], u) + " & 31u; " + c + " = " +
           E.src(in.ops[3], u) + ";");
    std::string lane = E.tmp(u), seg = E.tmp(u), maxL = E.tmp(u), j = E.tmp(u);
    E.line(lane + " = gl_LocalInvocationIndex & 31u; " + seg + " = (" + c + " >> 8) & 31u;");
    E.line(maxL + " = (" + lane + " & " + seg + ") | ((" + c + " & 31u) & ~" + seg + ");");
    std::string valid = E.tmpOf("bool");
    if (mode == "up") {
      E.line(j + " = " + lane + " - " + b + ";");
      E.line(valid + " = int(" + j + ") >= int(" + maxL + ");");
    } else {
      if (mode == "down") E.line(j + " = " + lane + " + " + b + ";");
      else if (mode == "bfly") E.line(j + " = " + lane + " ^ " + b + ";");
      else E.line(j + " = (" + lane + " & " + seg + ") | (" + b + " & ~" + seg + ");");
      E.line(valid + " = " + j + " <= " + maxL + ";");
    }
    E.line("if (!" + valid + ") " + j + " = " + lane + ";");
    std::string r = E.tmp(u);
    exchange(E, a, "(gl_LocalInvocationIndex & ~31u) | " + j, r);
    E.store(*dval, u, r);
    if (dpred) E.store(*dpred, Ty{Ty::K::Pred, 1}, valid);
    return;
  }
  if (op == "vote") {
    // vote.sync.{any,all,uni}.pred d, {!}a, membermask ; vote.sync.ballot.b32 d, {!}a, membermask
    if (in.ops.size() < 2) {
      E.error(in, "vote.sync: expected d, a");
      return;
    }
    Ty p{Ty::K::Pred, 1};
    std::string bit = E.tmp(Ty{Ty::K::U, 32});
    E.line(bit + " = " + E.src(in.ops[1], p) + " ? (1u << (gl_LocalInvocationIndex & 31u)) : 0u;");
    // OR of the warp's 32 bits: each thread publishes its bit, then reads the warp's words.
    E.feature("warpxchg");
    E.line("memoryBarrierShared(); barrier();");
    E.line("p2g_xchg[gl_LocalInvocationIndex] = " + bit + ";");
    E.line("memoryBarrierShared(); barrier();");
    std::string ballot = E.tmp(Ty{Ty::K::U, 32});
    E.line(ballot + " = 0u;");
    E.line("for (uint k = 0u; k < 32u; ++k) { uint t = (gl_LocalInvocationIndex & ~31u) | k; if (t < gl_WorkGroupSize.x * "
           "gl_WorkGroupSize.y * gl_WorkGroupSize.z) " + ballot + " |= p2g_xchg[t]; }");
    // threads past the end of a partial last warp do not exist: their bits are 0 (they were never written)
    std::string present = "((gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z - (gl_LocalInvocationIndex & ~31u)) >= 32u ? 0xFFFFFFFFu : ((1u << (gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z - (gl_LocalInvocationIndex & ~31u))) - 1u))";
    if (in.hasMod("ballot")) E.store(in.ops[0], Ty{Ty::K::U, 32}, ballot);
    else if (in.hasMod("any")) E.store(in.ops[0], p, ballot + " != 0u");
    else if (in.hasMod("all")) E.store(in.ops[0], p, ballot + " == " + present);
    else if (in.hasMod("uni")) E.store(in.ops[0], p, "(" + ballot + " == 0u || " + ballot + " == " + present + ")");
    else E.error(in, "vote: unknown mode");
    return;
  }
  if (op == "activemask") {
    E.store(in.ops[0], Ty{Ty::K::U, 32}, "0xFFFFFFFFu");
    return;
  }
  E.error(in, "unsupported warp instruction '" + op + "'");
}

}  // namespace p2g

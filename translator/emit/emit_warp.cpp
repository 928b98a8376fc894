// Warp-level instructions (activemask, vote.sync, shfl.sync) with NVIDIA's warp of 32 on any Vulkan device.
//
// The warp model is in warp_flow.cpp and docs/WARP.md: with P2G_WARP_NATIVE (subgroups of 32 or more) each
// instruction is a subgroup operation; otherwise one shared-memory exchange (p2g_warp_x) that every invocation of
// the workgroup reaches, the lanes that execute it being those whose active flag (Emitter::warpActive: the enclosing
// structure's flag and the instruction's guard) is true. Both give two masks over the warp's lanes: A, the lanes
// that execute the instruction, and P, those of them whose predicate is true; m is the instruction's member mask.
//   activemask.b32 d                  d = A
//   vote.sync.ballot.b32 d, {!}p, m   d = P & m
//   vote.sync.any.pred d, {!}p, m     d = (P & m) != 0
//   vote.sync.all.pred d, {!}p, m     d = (P & m) == (A & m)
//   vote.sync.uni.pred d, {!}p, m     d = (P & m) == 0 || (P & m) == (A & m)
// so lanes outside the member mask, lanes that skip the instruction and lanes that exited (or do not exist, past the
// end of a partial last warp) take no part. PTX ISA: "vote.sync ... for all non-exited threads in membermask".
// Lanes in the mask that are alive but do not execute the instruction are undefined behaviour in the ISA; the
// H200's answer is measured by ptx_corpus/outside/warp_ub_* (docs/WARP.md).
#include "emitter.h"

namespace p2g {

using ir::Opnd;

namespace {

// The masks (A, P) of this instruction over the lane's warp: two uint temporaries.
struct WarpMasks {
  std::string active, pred;
};

WarpMasks warpMasks(Emitter& E, const std::string& act, const std::string& pred, const std::string& value = "0u") {
  WarpMasks m{E.tmpOf("uint"), E.tmpOf("uint")};
  E.open("if (P2G_WARP_EMU)");
  std::string x = E.tmpOf("uvec4");
  E.line(x + " = p2g_warp_x(" + act + ", " + pred + ", " + value + ");");
  E.line(m.active + " = " + x + ".y; " + m.pred + " = " + x + ".z;");
  E.orElse();
  E.line(m.active + " = p2g_warp_ballot(" + act + "); " + m.pred + " = p2g_warp_ballot(" + act + " && " + pred + ");");
  E.close();
  return m;
}

// Only the lanes that execute the instruction write its destination.
void storeActive(Emitter& E, const std::string& act, const Opnd& d, Ty t, const std::string& expr) {
  if (act == "true") return E.store(d, t, expr);
  E.open("if (" + act + ")");
  E.store(d, t, expr);
  E.close();
}

// shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask  (PTX ISA "shfl.sync"):
//   lane = laneid; segmask = c[12:8]; maxLane = (lane & segmask) | (c[4:0] & ~segmask); minLane = lane & segmask;
//   up: j = lane - b, valid j >= maxLane; down: j = lane + b; bfly: j = lane ^ b; idx: j = minLane | (b & ~segmask);
//   valid j <= maxLane for down/bfly/idx; an invalid j reads the thread's own value; p = valid.
// A source lane that does not execute the shfl gives the value its register holds at the exchange (emulation) or
// the subgroup's undefined value (native): not measured yet, like the member mask, which is not read.
void emitShfl(Emitter& E, const ir::Inst& in) {
  const std::string& act = E.warpActive();
  if (in.ops.size() < 4) return E.error(in, "shfl.sync: expected d, a, b, c[, membermask]");
  std::string mode = in.hasMod("up") ? "up" : in.hasMod("down") ? "down" : in.hasMod("bfly") ? "bfly" :
                     in.hasMod("idx") ? "idx" : "";
  if (mode.empty()) return E.error(in, "shfl: unknown mode");
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
  E.open("if (P2G_WARP_EMU)");
  E.line("p2g_warp_x(" + act + ", true, " + a + ");");
  E.line(r + " = p2g_xchg[(gl_LocalInvocationIndex & ~31u) | " + j + "];");
  E.orElse();
  E.line(r + " = subgroupShuffle(" + a + ", (gl_SubgroupInvocationID & ~31u) | " + j + ");");
  E.close();
  storeActive(E, act, *dval, u, r);
  if (dpred) storeActive(E, act, *dpred, Ty{Ty::K::Pred, 1}, valid);
}

void emitVote(Emitter& E, const ir::Inst& in) {
  const std::string& act = E.warpActive();
  bool ballot = in.hasMod("ballot");
  const char* modes[] = {"any", "all", "uni", "ballot"};
  std::string mode;
  for (auto m : modes)
    if (in.hasMod(m)) mode = m;
  if (mode.empty()) return E.error(in, "vote: expected .any, .all, .uni or .ballot");
  if (in.ops.size() != 2 && in.ops.size() != 3)
    return E.error(in, "vote: expected d, {!}a" + std::string(in.hasMod("sync") ? ", membermask" : ""));
  if (in.hasMod("sync") != (in.ops.size() == 3))
    return E.error(in, in.hasMod("sync") ? "vote.sync: the member mask is missing"
                                          : "vote without .sync takes no member mask");
  Ty u{Ty::K::U, 32}, p{Ty::K::Pred, 1};
  std::string pred = E.tmpOf("bool");
  E.line(pred + " = " + E.src(in.ops[1], p) + ";");
  std::string m = "0xFFFFFFFFu";  // vote without .sync (PTX before 6.0): the whole warp
  if (in.ops.size() == 3) {
    m = E.tmpOf("uint");
    E.line(m + " = " + E.src(in.ops[2], u) + ";");
  }
  WarpMasks w = warpMasks(E, act, pred);
  std::string P = "(" + w.pred + " & " + m + ")", A = "(" + w.active + " & " + m + ")";
  if (ballot) return storeActive(E, act, in.ops[0], u, P);
  std::string r = mode == "any"   ? P + " != 0u"
                  : mode == "all" ? P + " == " + A
                                  : "(" + P + " == 0u || " + P + " == " + A + ")";
  storeActive(E, act, in.ops[0], p, r);
}

}  // namespace

void emitWarp(Emitter& E, const ir::Inst& in) {
  std::string op(in.op);
  if (op == "shfl") return emitShfl(E, in);
  if (op == "vote") return emitVote(E, in);
  if (op == "activemask") {
    // the lanes executing this instance (measured on the H200: 1 in a one-thread block)
    if (in.ops.size() != 1) return E.error(in, "activemask: expected one destination");
    WarpMasks w = warpMasks(E, E.warpActive(), "true");
    return storeActive(E, E.warpActive(), in.ops[0], Ty{Ty::K::U, 32}, w.active);
  }
  E.error(in, "unsupported warp instruction '" + op + "'");
}

}  // namespace p2g

// Warp-level instructions (activemask, vote.sync, shfl.sync, redux.sync, match.sync, elect.sync, bar.warp.sync) with NVIDIA's
// warp of 32 on any Vulkan device.
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
  std::string a = E.src(in.ops[1], u), b = E.src(in.ops[2], u), c = E.src(in.ops[3], u);
  if (dpred) b = E.letOf("uint", b), c = E.letOf("uint", c);
  // every lane of the warp calls the helper (it exchanges); only the active lanes keep what it returns
  E.use("p2g_shfl");
  std::string r = E.tmpOf("uint");
  E.line(r + " = p2g_shfl_" + mode + "(" + act + ", " + a + ", " + b + ", " + c + ");");
  storeActive(E, act, *dval, u, r);
  if (dpred) storeActive(E, act, *dpred, Ty{Ty::K::Pred, 1}, "p2g_shfl_" + mode + "_ok(" + b + ", " + c + ")");
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

// dst = lane i's value of `v` in the lane's warp, for i in 0..31 (a GLSL loop over `i`): under the emulation the
// value each lane published at the exchange just made (p2g_warp_x), natively a subgroup shuffle, which every
// invocation executes (a branch, not ?:, so that neither side runs on the other path). A lane that does not
// execute the instruction gives an undefined value; the callers use only lanes in A & m.
void laneValue(Emitter& E, const std::string& dst, const std::string& v, const std::string& i) {
  E.line("if (P2G_WARP_EMU) " + dst + " = p2g_xchg[(gl_LocalInvocationIndex & ~31u) | " + i + "]; else " + dst +
         " = subgroupShuffle(" + v + ", (gl_SubgroupInvocationID & ~31u) | " + i + ");");
}

// redux.sync.op.type d, a, membermask (PTX ISA 9.7.13.10): d = op over a of the lanes in membermask, here those
// of A & m (lanes that exited or skip the instruction take no part, as in vote). add wraps in 32 bits; min/max
// compare as .u32 or .s32; and/or/xor are bitwise.
void emitRedux(Emitter& E, const ir::Inst& in) {
  const std::string& act = E.warpActive();
  if (in.ops.size() != 3) return E.error(in, "redux.sync: expected d, a, membermask");
  Ty t = instrType(in);
  bool sgn = t.k == Ty::K::S;
  Ty u{Ty::K::U, 32};
  std::string a = E.tmp(u), m = E.tmp(u);
  E.line(a + " = " + E.src(in.ops[1], u) + ";");
  E.line(m + " = " + E.src(in.ops[2], u) + ";");
  WarpMasks w = warpMasks(E, act, "true", a);
  std::string sel = E.tmp(u), r = E.tmp(u), v = E.tmp(u);
  std::string op = in.hasMod("add") ? "add" : in.hasMod("min") ? "min" : in.hasMod("max") ? "max" :
                   in.hasMod("and") ? "and" : in.hasMod("or") ? "or" : "xor";
  std::string init = op == "and" ? "0xFFFFFFFFu" : op == "min" ? (sgn ? "0x7FFFFFFFu" : "0xFFFFFFFFu")
                     : op == "max" ? (sgn ? "0x80000000u" : "0u") : "0u";
  E.line(sel + " = " + w.active + " & " + m + ";");
  E.line(r + " = " + init + ";");
  E.open("for (uint p2g_i = 0u; p2g_i < 32u; ++p2g_i)");
  laneValue(E, v, a, "p2g_i");
  E.line("if (((" + sel + " >> p2g_i) & 1u) == 0u) continue;");
  std::string x = op == "add"   ? r + " + " + v
                  : op == "and" ? r + " & " + v
                  : op == "or"  ? r + " | " + v
                  : op == "xor" ? r + " ^ " + v
                  : sgn ? "uint(" + op + "(int(" + r + "), int(" + v + ")))"
                        : op + "(" + r + ", " + v + ")";
  E.line(r + " = " + x + ";");
  E.close();
  storeActive(E, act, in.ops[0], u, r);
}

// match.any.sync.b32/b64 d, a, membermask: d = the lanes of A & m whose a equals this lane's.
// match.all.sync.b32/b64 d[|p], a, membermask: d = A & m when every lane of A & m has this lane's a, else 0;
// p = (d != 0) (PTX ISA 9.7.13.9). A 64-bit a takes two exchanges, one per half.
void emitMatch(Emitter& E, const ir::Inst& in) {
  const std::string& act = E.warpActive();
  if (in.ops.size() != 3) return E.error(in, "match.sync: expected d, a, membermask");
  bool all = in.hasMod("all");
  bool wide = in.hasMod("b64");
  const Opnd* dval = &in.ops[0];
  const Opnd* dpred = nullptr;
  if (in.ops[0].kind == Opnd::Kind::Vec && in.ops[0].elems.size() == 2) {
    if (!all) return E.error(in, "match.any: only match.all has a predicate destination");
    dval = &in.ops[0].elems[0];
    dpred = &in.ops[0].elems[1];
  }
  Ty u{Ty::K::U, 32};
  std::string m = E.tmp(u), eq = E.tmp(u), sel = E.tmp(u);
  E.line(m + " = " + E.src(in.ops[2], u) + ";");
  E.line(eq + " = 0xFFFFFFFFu;");
  std::vector<std::string> halves;
  if (wide) {
    std::string x = E.tmpOf("uvec2");
    E.line(x + " = unpackUint2x32(" + E.src(in.ops[1], Ty{Ty::K::U, 64}) + ");");
    halves = {x + ".x", x + ".y"};
  } else {
    std::string x = E.tmp(u);
    E.line(x + " = " + E.src(in.ops[1], u) + ";");
    halves = {x};
  }
  for (auto& h : halves) {
    WarpMasks w = warpMasks(E, act, "true", h);
    std::string same = E.tmp(u), v = E.tmp(u);
    E.line(sel + " = " + w.active + " & " + m + ";");
    E.line(same + " = 0u;");
    E.open("for (uint p2g_i = 0u; p2g_i < 32u; ++p2g_i)");
    laneValue(E, v, h, "p2g_i");
    E.line("if (" + v + " == " + h + ") " + same + " |= 1u << p2g_i;");
    E.close();
    E.line(eq + " &= " + same + ";");
  }
  std::string r = all ? "((" + eq + " & " + sel + ") == " + sel + " ? " + sel + " : 0u)" : eq + " & " + sel;
  std::string d = E.tmp(u);
  E.line(d + " = " + r + ";");
  storeActive(E, act, *dval, u, d);
  if (dpred) storeActive(E, act, *dpred, Ty{Ty::K::Pred, 1}, d + " != 0u");
}

// bar.warp.sync membermask: the lanes of the warp meet; memory operations before it are visible after it to the
// lanes of the mask (PTX ISA 9.7.13.2). The emulation's exchange is a workgroup barrier with shared and buffer
// memory barriers (the lanes of one warp are in different subgroups on lavapipe, so they must really wait); the
// native path orders memory only: a subgroup of 32 executes the warp's converged code together.
void emitWarpSync(Emitter& E, const ir::Inst& in) {
  if (in.ops.size() != 1) return E.error(in, "bar.warp.sync: expected membermask");
  E.src(in.ops[0], Ty{Ty::K::U, 32});
  E.use("p2g_fence_cta");
  E.open("if (P2G_WARP_EMU)");
  E.line("p2g_fence_cta(); p2g_warp_x(" + E.warpActive() + ", true, 0u);");
  E.orElse();
  E.line("p2g_fence_cta();");
  E.close();
}

// elect.sync d|p, membermask (PTX ISA 9.7.13.14): one leader among the lanes of the mask, "deterministically, the
// same leader for the same membermask"; d = its lane id, p = whether this lane is it. The ISA does not say which
// lane; the lowest one of A & m is taken (with every lane of m executing, the lowest lane of m), to be confirmed by
// the H200 (ptx_corpus/warp/elect_sync).
void emitElect(Emitter& E, const ir::Inst& in) {
  const std::string& act = E.warpActive();
  if (in.ops.size() != 2 || in.ops[0].kind != Opnd::Kind::Vec || in.ops[0].elems.size() != 2)
    return E.error(in, "elect.sync: expected d|p, membermask");
  Ty u{Ty::K::U, 32};
  std::string m = E.tmp(u);
  E.line(m + " = " + E.src(in.ops[1], u) + ";");
  WarpMasks w = warpMasks(E, act, "true");
  std::string lead = E.tmp(u);
  E.line(lead + " = uint(findLSB(" + w.active + " & " + m + "));");
  storeActive(E, act, in.ops[0].elems[0], u, lead);
  storeActive(E, act, in.ops[0].elems[1], Ty{Ty::K::Pred, 1}, "(gl_LocalInvocationIndex & 31u) == " + lead);
}

}  // namespace

bool isWarpSync(const ir::Inst& in) { return in.op == "bar" && in.hasMod("warp"); }

void emitWarp(Emitter& E, const ir::Inst& in) {
  std::string op(in.op);
  if (op == "shfl") return emitShfl(E, in);
  if (op == "vote") return emitVote(E, in);
  if (op == "redux") return emitRedux(E, in);
  if (op == "match") return emitMatch(E, in);
  if (op == "elect") return emitElect(E, in);
  if (isWarpSync(in)) return emitWarpSync(E, in);
  if (op == "activemask") {
    // the lanes executing this instance (measured on the H200: 1 in a one-thread block)
    if (in.ops.size() != 1) return E.error(in, "activemask: expected one destination");
    WarpMasks w = warpMasks(E, E.warpActive(), "true");
    return storeActive(E, E.warpActive(), in.ops[0], Ty{Ty::K::U, 32}, w.active);
  }
  E.error(in, "unsupported warp instruction '" + op + "'");
}

// shfl.sync's helpers (emitShfl): the source lane, and the exchange. The mode is a constant argument that the
// named wrappers pass (0 up, 1 down, 2 bfly, 3 idx), so the driver folds the choice away.
std::vector<PreludeHelper> warpHelpers() {
  std::string t = R"(// shfl.sync's source lane j for this lane (PTX ISA "shfl.sync"): lane = laneid, segmask = c[12:8],
// maxLane = (lane & segmask) | (c[4:0] & ~segmask); up: j = lane - b, valid if j >= maxLane (signed); down:
// j = lane + b; bfly: j = lane ^ b; idx: j = (lane & segmask) | (b & ~segmask); valid if j <= maxLane. An
// invalid j reads the lane's own value. Returns whether j is valid; j is the lane read.
bool p2g_shfl_lane(int mode, uint b, uint c, out uint j) {
  uint lane = gl_LocalInvocationIndex & 31u, seg = (c >> 8) & 31u, maxL = (lane & seg) | ((c & 31u) & ~seg);
  b &= 31u;
  j = mode == 0 ? lane - b : mode == 1 ? lane + b : mode == 2 ? (lane ^ b) : ((lane & seg) | (b & ~seg));
  bool valid = mode == 0 ? int(j) >= int(maxL) : j <= maxL;
  if (!valid) j = lane;
  return valid;
}
// The value of `a` in lane j. A source lane that does not execute the shfl gives the value its register holds at
// the exchange (emulation) or the subgroup's undefined value (native): not measured yet, like the member mask,
// which is not read. Under the emulation every lane of the warp must call it (p2g_warp_x exchanges).
uint p2g_shfl(int mode, bool act, uint a, uint b, uint c) {
  uint j;
  p2g_shfl_lane(mode, b, c, j);
  if (P2G_WARP_EMU) {
    p2g_warp_x(act, true, a);
    return p2g_xchg[(gl_LocalInvocationIndex & ~31u) | j];
  }
  return subgroupShuffle(a, (gl_SubgroupInvocationID & ~31u) | j);
}
)";
  const char* modes[] = {"up", "down", "bfly", "idx"};
  for (int m = 0; m < 4; ++m) {
    std::string n = std::string("p2g_shfl_") + modes[m], k = std::to_string(m);
    t += "uint " + n + "(bool act, uint a, uint b, uint c) { return p2g_shfl(" + k + ", act, a, b, c); }\n";
    t += "bool " + n + "_ok(uint b, uint c) { uint j; return p2g_shfl_lane(" + k + ", b, c, j); }\n";
  }
  return {{"p2g_shfl", {}, {}, t}};
}

}  // namespace p2g

// The warp model's control flow (docs/WARP.md).
//
// A PTX warp is 32 lanes (lane = gl_LocalInvocationIndex & 31, as CUDA numbers them). Warp instructions
// (isWarpInstruction: activemask, vote, shfl) see the lanes that execute them together, and a member mask.
//  - Where the device's subgroups hold whole warps (subgroup size 32, 64, 128: NVIDIA), the runtime sets
//    specialization constant 5 (P2G_WARP_NATIVE) and warp instructions are subgroup operations: a subgroup ballot
//    sees exactly the invocations that execute it, as the warp does.
//  - Otherwise (lavapipe: subgroups of 8, four to a warp) the warp is emulated through shared memory, and the
//    emulation must know which lanes of the warp execute each instance of a warp instruction. It exchanges lane
//    states with barrier(), so every invocation of the workgroup that has not returned must meet every exchange:
//    the structure around warp instructions runs workgroup-uniformly, SIMT style, each lane carrying a bool that
//    says whether it is active there. An `if` whose subtree holds a warp instruction is entered by every lane (its
//    condition only sets the flags); a loop that holds one runs until no lane of the workgroup is still in it
//    (p2g_loop_any, itself an exchange), break and continue clearing the lane's flags instead of leaving. Plain code
//    in such a region runs under its lane's flag; a lane that returns leaves for real and is absent from later
//    exchanges, as an exited thread is on NVIDIA. Every barrier then sits in uniform control flow, which any Vulkan
//    device runs as written. llvmpipe would also cope with barriers in divergent code (measured: each SIMD vector
//    is a coroutine that yields at every barrier it meets, masked or not; docs/WARP.md), but not with vectors that
//    meet different numbers of them: a user's bar.sync would then pair the wrong rounds.
//    With P2G_WARP_NATIVE every one of these conditions folds to the plain structure.
#include "emitter.h"

namespace p2g {

namespace {

constexpr uint8_t kHasWarp = 1;  // the subtree contains a warp instruction
constexpr uint8_t kActive = 2;   // it must be emitted with active flags (kHasWarp, or a break/continue of such a loop)

}  // namespace

bool isWarpInstruction(const ir::Inst& in) { return findHandler(in.op) == emitWarp || isWarpSync(in); }

static bool hasWarp(const ir::Function& F, const SNode& n) {
  if (n.kind == SNode::Kind::Block) {
    for (auto& in : F.blocks[n.block].insts)
      if (isWarpInstruction(in)) return true;
    return false;
  }
  for (auto& c : n.children)
    if (hasWarp(F, c)) return true;
  return false;
}

uint8_t Emitter::planWarp(const SNode& n, bool inWarpLoop) {
  uint8_t r = 0;
  switch (n.kind) {
    case SNode::Kind::Block:
      for (auto& in : F.blocks[n.block].insts)
        if (isWarpInstruction(in)) r = kHasWarp | kActive;
      break;
    case SNode::Kind::Break:
    case SNode::Kind::Continue:
      if (inWarpLoop) r = kActive;
      break;
    case SNode::Kind::Loop: {
      // a loop without warp instructions is plain, whatever encloses it: its breaks and continues are its own
      bool has = false;
      for (auto& c : n.children) has = has || hasWarp(F, c);
      for (auto& c : n.children) planWarp(c, has);
      if (has) r = kHasWarp | kActive;
      break;
    }
    case SNode::Kind::Seq:
    case SNode::Kind::If:
      for (auto& c : n.children) r |= planWarp(c, inWarpLoop);
      break;
    case SNode::Kind::Return:
    case SNode::Kind::SetVar: break;
  }
  warpInfo_[&n] = r;
  return r;
}

static bool emptySeq(const SNode& n) { return n.kind == SNode::Kind::Seq && n.children.empty(); }

void Emitter::emitWarpNode(const SNode& n, const StructurizeResult& tree) {
  const std::string act = actStack_.back();
  auto info = [&](const SNode& c) {
    auto it = warpInfo_.find(&c);
    return it == warpInfo_.end() ? uint8_t(0) : it->second;
  };
  // a child: with active flags when it needs them, else as plain code run by the active lanes only
  auto child = [&](const SNode& c) {
    if (emptySeq(c)) return;
    if (info(c) & kActive) return emitWarpNode(c, tree);
    bool guard = act != "true";
    if (guard) open("if (!P2G_WARP_EMU || " + act + ")");
    emitNode(c, tree);
    if (guard) close();
  };
  auto both = [&](const std::string& x) { return act == "true" ? x : act + " && " + x; };
  switch (n.kind) {
    case SNode::Kind::Seq: {
      // consecutive plain children share one guard (fewer branches for the device's compiler to merge)
      bool guarded = false;
      for (auto& c : n.children) {
        if (emptySeq(c)) continue;
        if (info(c) & kActive) {
          if (guarded) close();
          guarded = false;
          emitWarpNode(c, tree);
          continue;
        }
        if (!guarded && act != "true") {
          open("if (!P2G_WARP_EMU || " + act + ")");
          guarded = true;
        }
        emitNode(c, tree);
      }
      if (guarded) close();
      return;
    }
    case SNode::Kind::Block: return emitWarpBlock(n.block);
    case SNode::Kind::If: {
      // both flags first: the then-branch may change the condition's register
      std::string c = condExpr(n.cond);
      std::string a1 = "p2g_act" + std::to_string(++actCount_);
      line("bool " + a1 + " = " + both("(" + c + ")") + ";");
      bool hasElse = n.children.size() > 1 && !emptySeq(n.children[1]);
      std::string a2;
      if (hasElse) {
        a2 = "p2g_act" + std::to_string(++actCount_);
        line("bool " + a2 + " = " + both("!(" + c + ")") + ";");
      }
      auto branch = [&](const SNode& b, const std::string& a) {
        // entered by every lane when the branch holds a warp instruction (every lane must reach its exchanges),
        // else by the lanes that take it
        bool uniform = (info(b) & kHasWarp) != 0;
        open("if (" + (uniform ? "P2G_WARP_EMU || " + a : a) + ")");
        actStack_.push_back(a);
        if (info(b) & kActive) emitWarpNode(b, tree);
        else emitNode(b, tree);  // plain code: only the lanes that take the branch are here
        actStack_.pop_back();
        close();
      };
      if (!n.children.empty()) branch(n.children[0], a1);
      if (hasElse) branch(n.children[1], a2);
      return;
    }
    case SNode::Kind::Loop: {
      std::string L = "p2g_act" + std::to_string(++actCount_), I = "p2g_act" + std::to_string(++actCount_);
      line("bool " + L + " = " + act + ";  // lanes still in the loop");
      open("for (;;)");
      hasLoops_ = true;
      line("p2g_loop_tick();");
      line("if (P2G_WARP_EMU && !p2g_loop_any(" + L + ")) break;");
      line("bool " + I + " = " + L + ";  // lanes active in this iteration");
      actStack_.push_back(I);
      warpLoops_.push_back({L, I, actStack_.size()});
      for (auto& c : n.children) {
        if (emptySeq(c)) continue;
        if (info(c) & kActive) emitWarpNode(c, tree);
        else {
          open("if (!P2G_WARP_EMU || " + I + ")");
          emitNode(c, tree);
          close();
        }
      }
      warpLoops_.pop_back();
      actStack_.pop_back();
      close();
      return;
    }
    case SNode::Kind::Break: return emitWarpLoopExit(true);
    case SNode::Kind::Continue: return emitWarpLoopExit(false);
    case SNode::Kind::Return:
    case SNode::Kind::SetVar: return child(n);  // not reached: these are never kActive
  }
}

// break/continue of a loop that holds warp instructions: under the emulation the lane only stops being active
// (in this iteration, or in the loop); the workgroup stays in the loop together.
void Emitter::emitWarpLoopExit(bool isBreak) {
  const WarpLoop& wl = warpLoops_.back();
  open("if (P2G_WARP_EMU)");
  std::string s;
  for (size_t i = wl.depth - 1; i < actStack_.size(); ++i) s += actStack_[i] + " = false; ";
  if (isBreak) s += wl.actL + " = false; ";
  s.pop_back();
  line(s);
  orElse();
  line(isBreak ? "break;" : "continue;");
  close();
}

void Emitter::emitWarpBlock(int b) {
  const std::string act = actStack_.back();
  bool guarded = false;
  for (auto& in : F.blocks[b].insts) {
    bool warp = isWarpInstruction(in);
    // a user barrier stays outside the flag: every subgroup of the warp must meet it (docs/WARP.md)
    bool barrierOp = in.op == "bar" || in.op == "barrier";
    if (warp || barrierOp || act == "true") {
      if (guarded) close();
      guarded = false;
      if (warp) {
        std::string g = in.guardReg < 0 ? "" : std::string(in.guardNeg ? "!" : "") + readName(in.guardReg);
        warpAct_ = g.empty() ? act : act == "true" ? g : "(" + act + " && " + g + ")";
        emitInst(in, true);
        warpAct_ = "true";
      } else {
        emitInst(in);
      }
      continue;
    }
    if (!guarded) open("if (!P2G_WARP_EMU || " + act + ")");
    guarded = true;
    emitInst(in);
  }
  if (guarded) close();
  annotate(F.blocks[b].term.span);  // the branch the path flags after this block implement (as in emitBlock)
}

// Declarations and helpers of the warp model, placed before the prelude of a function with warp instructions.
std::string Emitter::warpDeclarations() const {
  return R"(
// ---- The warp model (docs/WARP.md, translator/emit/warp_flow.cpp) ----
// A PTX warp is 32 lanes, lane = gl_LocalInvocationIndex & 31. P2G_WARP_NATIVE (specialization constant 5) is set
// by the runtime when the device's subgroups hold whole warps (subgroup size 32, 64 or 128): warp instructions are
// then subgroup operations. Otherwise (lavapipe: 8 lanes) they are exchanges through shared memory, and the
// structure around them runs workgroup-uniformly with an active flag per lane.
layout(constant_id = 5) const bool P2G_WARP_NATIVE = false;
const bool P2G_WARP_EMU = !P2G_WARP_NATIVE;
const uint P2G_WARPS = (gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z + 31u) / 32u;
// Two sets, used alternately, of: per warp the masks of lanes present, active and active with a true predicate;
// one word for the workgroup (any lane active). One word a lane for values.
shared uint p2g_wm[P2G_WARP_EMU ? P2G_WARPS * 6u + 2u : 1u];
shared uint p2g_xchg[P2G_WARP_EMU ? P2G_WARPS * 32u : 1u];
uint p2g_wpar = 0u;

// One exchange, met by every invocation of the workgroup that has not returned. Each sets its lane's bit in its
// warp's masks of lanes present, lanes active (executing the instruction) and active lanes whose predicate holds,
// flags the workgroup word when active, and publishes a value in p2g_xchg; (present, active, predicate, any) come
// back. The other set is cleared for the next exchange (every invocation meets the barriers in between).
uvec4 p2g_warp_x(bool act, bool pred, uint v) {
  uint g = P2G_WARPS * 6u, base = (gl_LocalInvocationIndex >> 5u) * 6u;
  uint w = base + p2g_wpar * 3u, o = base + 3u - p2g_wpar * 3u, bit = 1u << (gl_LocalInvocationIndex & 31u);
  memoryBarrierShared(); barrier();
  atomicOr(p2g_wm[w], bit);
  if (act) { atomicOr(p2g_wm[w + 1u], bit); atomicOr(p2g_wm[g + p2g_wpar], 1u); }
  if (act && pred) atomicOr(p2g_wm[w + 2u], bit);
  p2g_xchg[gl_LocalInvocationIndex] = v;
  memoryBarrierShared(); barrier();
  uvec4 r = uvec4(p2g_wm[w], p2g_wm[w + 1u], p2g_wm[w + 2u], p2g_wm[g + p2g_wpar]);
  p2g_wm[o] = 0u; p2g_wm[o + 1u] = 0u; p2g_wm[o + 2u] = 0u; p2g_wm[g + 1u - p2g_wpar] = 0u;
  p2g_wpar ^= 1u;
  return r;
}
// Whether any invocation of the workgroup is still in the loop: the exit test of a loop holding warp instructions.
bool p2g_loop_any(bool x) { return p2g_warp_x(x, true, 0u).w != 0u; }

// P2G_WARP_NATIVE: the subgroup ballot of `x`, restricted to this lane's warp (a subgroup of 64 or 128 holds 2 or 4).
uint p2g_warp_ballot(bool x) { return subgroupBallot(x)[gl_SubgroupInvocationID >> 5u]; }
)";
}

}  // namespace p2g

#include "fuzz_support.h"

#include <algorithm>
#include <set>

namespace p2g::fuzz {

uint64_t Rng::next() {
  // splitmix64: tiny, fast, and the same on every platform (std distributions are not).
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Cfg randomCfg(Rng& rng, int maxBlocks) {
  Cfg cfg;
  const int n = 1 + rng.below(maxBlocks);
  cfg.succ.resize(n);
  for (int b = 0; b < n; ++b) {
    int r = rng.below(100);
    int k = r < 8 ? 0 : r < 45 ? 1 : r < 93 ? 2 : 3 + rng.below(2);
    if (b == n - 1 && rng.chance(60)) k = 0;
    for (int i = 0; i < k; ++i) {
      int t, pick = rng.below(100);
      if (pick < 55 && b + 1 < n) t = std::min(n - 1, b + 1 + rng.below(3));  // fallthrough / short skip
      else if (pick < 80) t = rng.below(b + 1);                                // back edge (self loop included)
      else t = rng.below(n);
      cfg.succ[b].push_back(t);
    }
  }
  return cfg;
}

namespace {

// Lowers a random structured program to a CFG while generating it.
struct Builder {
  struct LoopCtx {
    int cont, exit;
    bool exitUsed = false;
  };
  Cfg cfg;
  Rng& rng;
  int target;
  int maxDepth;
  std::vector<LoopCtx> loops;

  Builder(Rng& r, int t) : rng(r), target(t), maxDepth(t > 200 ? 9 : 5) {}
  int block() {
    cfg.succ.emplace_back();
    return static_cast<int>(cfg.succ.size()) - 1;
  }
  bool full() const { return static_cast<int>(cfg.succ.size()) >= target; }
  void link(int from, std::vector<int> to) { cfg.succ[from] = std::move(to); }
  void linkIfOpen(int from, int to) {
    if (from != -1) link(from, {to});
  }
  std::vector<int> twoWay(int a, int b) { return rng.chance(50) ? std::vector<int>{a, b} : std::vector<int>{b, a}; }

  // Each returns the block that stays open (no terminator yet), or -1 when control cannot continue.
  int stmts(int cur, int depth, int count) {
    for (int i = 0; i < count && cur != -1 && !full(); ++i) cur = stmt(cur, depth);
    return cur;
  }
  int body(int cur, int depth) { return stmts(cur, depth + 1, 1 + rng.below(4)); }
  int stmt(int cur, int depth);
  int loopStmt(int cur, int depth, int kind);
  int jumpStmt(int cur);
};

int Builder::stmt(int cur, int depth) {
  int r = rng.below(100);
  if (depth >= maxDepth && r >= 30) r = rng.below(30);
  if (r < 25) {  // straight-line code: a new block
    int b = block();
    link(cur, {b});
    return b;
  }
  if (r < 30) {  // a conditional branch whose two targets are the same block
    int b = block();
    link(cur, {b, b});
    return b;
  }
  if (r < 45) {  // if-then
    int t = block(), j = block();
    link(cur, twoWay(t, j));
    linkIfOpen(body(t, depth), j);
    return j;
  }
  if (r < 60) {  // if-else
    int t = block(), e = block(), j = block();
    link(cur, {t, e});
    int te = body(t, depth), ee = body(e, depth);
    linkIfOpen(te, j);
    linkIfOpen(ee, j);
    return te == -1 && ee == -1 ? -1 : j;
  }
  if (r < 80) return loopStmt(cur, depth, rng.below(3));
  if (r < 86) {  // switch (brx.idx): 3-4 cases, some falling straight to the join
    int j = block(), k = 3 + rng.below(2);
    std::vector<int> targets;
    bool open = false;
    for (int i = 0; i < k; ++i) {
      if (rng.chance(25)) {
        targets.push_back(j);
        open = true;
        continue;
      }
      int c = block();
      targets.push_back(c);
      int end = body(c, depth);
      linkIfOpen(end, j);
      open = open || end != -1;
    }
    link(cur, targets);
    return open ? j : -1;
  }
  return jumpStmt(cur);
}

// kind 0: while (header tests), 1: do-while (latch tests), 2: infinite loop left only by break/return.
int Builder::loopStmt(int cur, int depth, int kind) {
  if (kind == 0) {
    int h = block(), b = block(), x = block();
    link(cur, {h});
    link(h, twoWay(b, x));
    loops.push_back({h, x});
    linkIfOpen(body(b, depth), h);
    loops.pop_back();
    return x;
  }
  if (kind == 1) {
    int b = block(), l = block(), x = block();
    link(cur, {b});
    loops.push_back({l, x});
    linkIfOpen(body(b, depth), l);
    loops.pop_back();
    link(l, twoWay(b, x));
    return x;
  }
  int h = block(), x = block();
  link(cur, {h});
  loops.push_back({h, x});
  linkIfOpen(body(h, depth), h);
  bool used = loops.back().exitUsed;
  loops.pop_back();
  return used ? x : -1;
}

// break/continue to any enclosing loop (several levels out included), return; conditional or not.
int Builder::jumpStmt(int cur) {
  int r = rng.below(100);
  bool conditional = rng.chance(70);
  int dest;
  if (loops.empty() || r < 20) {
    if (!conditional) {
      link(cur, {});
      return -1;
    }
    dest = block();  // a block that returns
  } else {
    // Mostly the innermost loop, sometimes an outer one.
    int level = static_cast<int>(loops.size()) - 1;
    if (rng.chance(30)) level = rng.below(static_cast<int>(loops.size()));
    if (r < 65) {
      dest = loops[level].exit;
      loops[level].exitUsed = true;
    } else {
      dest = loops[level].cont;
    }
  }
  if (!conditional) {
    link(cur, {dest});
    return -1;
  }
  int next = block();
  link(cur, twoWay(dest, next));
  return next;
}

}  // namespace

Cfg structuredCfg(Rng& rng, int targetBlocks) {
  Builder b(rng, targetBlocks);
  int entry = b.block();
  int end = entry;
  while (end != -1 && !b.full()) end = b.stmts(end, 0, 1 + b.rng.below(6));
  if (end != -1) b.link(end, {});
  return b.cfg;
}

bool isReducible(const Cfg& cfg) {
  const int n = static_cast<int>(cfg.succ.size());
  std::vector<char> live(n, 0);
  std::vector<int> stack{0};
  live[0] = 1;
  while (!stack.empty()) {
    int v = stack.back();
    stack.pop_back();
    for (int w : cfg.succ[v])
      if (!live[w]) live[w] = 1, stack.push_back(w);
  }
  std::vector<std::set<int>> succ(n), pred(n);
  for (int v = 0; v < n; ++v)
    if (live[v])
      for (int w : cfg.succ[v]) succ[v].insert(w), pred[w].insert(v);
  int remaining = static_cast<int>(std::count(live.begin(), live.end(), 1));
  for (bool changed = true; changed;) {
    changed = false;
    for (int v = 0; v < n; ++v) {
      if (!live[v]) continue;
      if (succ[v].erase(v)) pred[v].erase(v), changed = true;  // T1
      if (v == 0 || pred[v].size() != 1) continue;
      int p = *pred[v].begin();  // T2: fold v into its only predecessor
      succ[p].erase(v);
      for (int w : succ[v]) {
        pred[w].erase(v);
        pred[w].insert(p);
        succ[p].insert(w);
      }
      succ[v].clear();
      pred[v].clear();
      live[v] = 0;
      --remaining;
      changed = true;
    }
  }
  return remaining == 1;
}

namespace {

uint64_t mix(uint64_t a, uint64_t b, uint64_t c) {
  Rng r(a * 1000003ull ^ (b << 20) ^ (c * 0x9E37ull));
  r.next();
  return r.next();
}

int choose(const Cfg& cfg, uint64_t seed, int b, std::vector<int>& visits) {
  int ns = static_cast<int>(cfg.succ[b].size());
  if (ns < 2) return 0;
  return static_cast<int>(mix(seed, static_cast<uint64_t>(b), static_cast<uint64_t>(visits[b]++)) % ns);
}

class TreeRunner {
 public:
  TreeRunner(const StructurizeResult& r, const Cfg& cfg, uint64_t seed, int limit)
      : r_(r), cfg_(cfg), seed_(seed), limit_(limit), vars_(std::max(r.numVars, 0), 0),
        visits_(cfg.succ.size(), 0), choice_(cfg.succ.size(), -1) {}
  Trace run() {
    Signal s = exec(r_.root);
    if (s == Signal::Normal || s == Signal::Break || s == Signal::Continue)
      if (trace_.error.empty()) trace_.error = "control fell off the end of the tree";
    return trace_;
  }

 private:
  enum class Signal { Normal, Break, Continue, Return, Stop };
  Signal exec(const SNode& n);
  bool test(const SCond& c);
  Signal fail(const std::string& why) {
    if (trace_.error.empty()) trace_.error = why;
    return Signal::Stop;
  }

  const StructurizeResult& r_;
  const Cfg& cfg_;
  uint64_t seed_;
  int limit_;
  std::vector<int> vars_, visits_, choice_;
  int lastBlock_ = -1;
  long idleIterations_ = 0;
  Trace trace_;
};

bool TreeRunner::test(const SCond& c) {
  bool v = false;
  if (c.kind == SCond::Kind::Branch) {
    if (c.block != lastBlock_) fail("Branch condition of block " + std::to_string(c.block) + " evaluated after block " +
                                    std::to_string(lastBlock_));
    v = choice_[c.block] == c.succIndex;
  } else {
    if (c.varIndex < 0 || c.varIndex >= static_cast<int>(vars_.size())) fail("VarEq on a bad variable");
    else v = vars_[c.varIndex] == c.value;
  }
  return c.negate ? !v : v;
}

TreeRunner::Signal TreeRunner::exec(const SNode& n) {
  switch (n.kind) {
    case SNode::Kind::Seq:
      for (const auto& c : n.children) {
        Signal s = exec(c);
        if (s != Signal::Normal) return s;
      }
      return Signal::Normal;
    case SNode::Kind::Block:
      if (static_cast<int>(trace_.blocks.size()) >= limit_) return Signal::Stop;
      trace_.blocks.push_back(n.block);
      lastBlock_ = n.block;
      idleIterations_ = 0;
      choice_[n.block] = choose(cfg_, seed_, n.block, visits_);
      return Signal::Normal;
    case SNode::Kind::If: {
      bool c = test(n.cond);
      if (!trace_.error.empty()) return Signal::Stop;
      return exec(n.children[c ? 0 : 1]);
    }
    case SNode::Kind::Loop:
      for (;;) {
        Signal s = exec(n.children[0]);
        if (s == Signal::Break) return Signal::Normal;
        if (s == Signal::Return || s == Signal::Stop) return s;
        if (++idleIterations_ > 100000) return fail("loop spins without running any block");
      }
    case SNode::Kind::Break: return Signal::Break;
    case SNode::Kind::Continue: return Signal::Continue;
    case SNode::Kind::Return: trace_.returned = true; return Signal::Return;
    case SNode::Kind::SetVar:
      if (n.varIndex < 0 || n.varIndex >= static_cast<int>(vars_.size())) return fail("SetVar on a bad variable");
      vars_[n.varIndex] = n.value;
      return Signal::Normal;
  }
  return fail("unknown node kind");
}

void checkNode(const SNode& n, const StructurizeResult& r, const Cfg& cfg, int loopDepth, std::vector<int>& seen,
               std::string& err) {
  if (!err.empty()) return;
  const int nb = static_cast<int>(cfg.succ.size());
  auto badVar = [&](int v) { return v < 0 || v >= r.numVars; };
  switch (n.kind) {
    case SNode::Kind::Break:
    case SNode::Kind::Continue:
      if (loopDepth == 0) err = "break/continue outside any loop";
      break;
    case SNode::Kind::Block:
      if (n.block < 0 || n.block >= nb) err = "Block node with bad id " + std::to_string(n.block);
      else ++seen[n.block];
      break;
    case SNode::Kind::SetVar:
      if (badVar(n.varIndex)) err = "SetVar with bad variable index";
      break;
    case SNode::Kind::If:
      if (n.children.size() != 2) err = "If without two children";
      else if (n.cond.kind == SCond::Kind::VarEq && badVar(n.cond.varIndex)) err = "VarEq with bad variable index";
      else if (n.cond.kind == SCond::Kind::Branch &&
               (n.cond.block < 0 || n.cond.block >= nb || n.cond.succIndex < 0 ||
                n.cond.succIndex >= static_cast<int>(cfg.succ[n.cond.block].size())))
        err = "Branch condition names a bad block or successor";
      break;
    case SNode::Kind::Loop:
      if (n.children.size() != 1) err = "Loop without exactly one child";
      break;
    default: break;
  }
  for (const auto& c : n.children) checkNode(c, r, cfg, loopDepth + (n.kind == SNode::Kind::Loop), seen, err);
}

}  // namespace

Trace runCfg(const Cfg& cfg, uint64_t seed, int stepLimit) {
  Trace t;
  std::vector<int> visits(cfg.succ.size(), 0);
  int b = 0;
  while (static_cast<int>(t.blocks.size()) < stepLimit) {
    t.blocks.push_back(b);
    if (cfg.succ[b].empty()) {
      t.returned = true;
      break;
    }
    b = cfg.succ[b][choose(cfg, seed, b, visits)];
  }
  return t;
}

Trace runTree(const StructurizeResult& r, const Cfg& cfg, uint64_t seed, int stepLimit) {
  return TreeRunner(r, cfg, seed, stepLimit).run();
}

std::string checkTree(const StructurizeResult& r, const Cfg& cfg) {
  std::string err;
  std::vector<int> seen(cfg.succ.size(), 0);
  checkNode(r.root, r, cfg, 0, seen, err);
  if (!err.empty()) return err;
  // Reachable blocks must all be emitted, and (this implementation never duplicates) exactly once.
  std::vector<char> live(cfg.succ.size(), 0);
  std::vector<int> stack{0};
  live[0] = 1;
  while (!stack.empty()) {
    int v = stack.back();
    stack.pop_back();
    for (int w : cfg.succ[v])
      if (!live[w]) live[w] = 1, stack.push_back(w);
  }
  for (size_t b = 0; b < cfg.succ.size(); ++b) {
    if (live[b] && seen[b] != 1)
      return "reachable block " + std::to_string(b) + " emitted " + std::to_string(seen[b]) + " times";
    if (!live[b] && seen[b] != 0) return "unreachable block " + std::to_string(b) + " emitted";
  }
  return {};
}

std::string cfgText(const Cfg& cfg) {
  std::string s;
  for (size_t b = 0; b < cfg.succ.size(); ++b) {
    s += std::to_string(b) + ":";
    for (int w : cfg.succ[b]) s += " " + std::to_string(w);
    s += "\n";
  }
  return s;
}

namespace {

std::string traceText(const Trace& t) {
  std::string s;
  for (size_t i = 0; i < t.blocks.size() && i < 60; ++i) s += std::to_string(t.blocks[i]) + " ";
  if (t.blocks.size() > 60) s += "... (" + std::to_string(t.blocks.size()) + " blocks)";
  s += t.returned ? " [returned]" : " [stopped]";
  if (!t.error.empty()) s += " error: " + t.error;
  return s;
}

// Checks one graph; returns a failure description or "".
std::string checkOne(const Cfg& cfg, bool knownReducible, uint64_t seed, int oracles, int stepLimit, Stats& st) {
  StructurizeResult r = structurize(cfg);
  auto report = [&](const std::string& why) {
    return why + "\nCFG:\n" + cfgText(cfg) + "tree:\n" + dumpTree(r.root);
  };
  if (!r.error.empty()) return report("structurize failed: " + r.error);
  bool reducible = isReducible(cfg);
  if (!reducible) ++st.irreducible;
  if (knownReducible && !reducible) return report("generator bug: structured program gave an irreducible graph");
  if (r.usedFallback != !reducible)
    return report(std::string("usedFallback is ") + (r.usedFallback ? "true" : "false") + " but the graph is " +
                  (reducible ? "reducible" : "irreducible"));
  if (r.usedFallback) ++st.fallbacks;
  if (std::string e = checkTree(r, cfg); !e.empty()) return report("bad tree: " + e);
  for (int o = 0; o < oracles; ++o) {
    uint64_t os = seed * 131 + static_cast<uint64_t>(o);
    Trace a = runCfg(cfg, os, stepLimit), b = runTree(r, cfg, os, stepLimit);
    ++st.runs;
    st.steps += static_cast<long>(a.blocks.size());
    if (!b.error.empty() || a.blocks != b.blocks || a.returned != b.returned)
      return report("trace mismatch (oracle " + std::to_string(os) + ")\n  cfg:  " + traceText(a) +
                    "\n  tree: " + traceText(b));
  }
  return {};
}

}  // namespace

Stats fuzz(uint64_t seed, long count, int maxBlocks, int oracles, int stepLimit) {
  Stats st;
  for (long i = 0; i < count; ++i) {
    uint64_t gs = seed * 1000003ull + static_cast<uint64_t>(i);
    Rng rng(gs);
    bool structured = i % 2 == 1;
    Cfg cfg = structured ? structuredCfg(rng, 1 + rng.below(maxBlocks)) : randomCfg(rng, maxBlocks);
    ++st.graphs;
    if (structured) ++st.structured;
    std::string f = checkOne(cfg, structured, gs, oracles, stepLimit, st);
    if (!f.empty()) {
      st.failure = "graph " + std::to_string(i) + " (seed " + std::to_string(seed) + "): " + f;
      break;
    }
  }
  return st;
}

}  // namespace p2g::fuzz

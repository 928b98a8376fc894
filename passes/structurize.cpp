// Structurize: CFG -> if/else, loops, break/continue, return (see structurize.h for the contract).
//
// Algorithm (after Ramsey, "Beyond Relooper", ICFP 2022, adapted to GLSL's single-level break/continue):
//   1. Irreducible regions are made reducible first (the fallback, in the spirit of LLVM's FixIrreducible): each
//      strongly connected region with several entries gets a virtual dispatch node D and a fresh variable; every
//      edge into one of the entries becomes "var = k; goto D", so D is the region's only entry and the region
//      turns into a natural loop headed by D. Applied recursively to the inner regions.
//   2. On the (now reducible) graph, the dominator tree drives the layout. A node reached from several forward
//      edges (a merge node) is placed *after* its immediate dominator's code, so joins of if/else fall through
//      into it; a node reached from one edge is inlined at that edge. Nodes dominated by a loop member but outside
//      the loop are hoisted after the outermost loop they leave, so code after a loop is not nested inside it.
//   3. A jump becomes `continue` (back edge to the innermost loop), `break` (leaves the innermost loop), or falls
//      through to its target. Where falling through would run code that is not the target (a later merge
//      segment) or where a jump must leave several loops, one "exit" variable records the target and the code
//      it passes is guarded (`if (v == target)`), much like NIR's path variables. Guards are only introduced
//      where some jump actually passes them, so structured input gives plain if/else and loops.
#include "structurize.h"

#include <algorithm>
#include <functional>
#include <set>

namespace p2g {
namespace {

// A node of the working graph: a real block, or a virtual node of the irreducible fallback.
struct GNode {
  enum class Kind : uint8_t { Real, SetVar, Dispatch } kind = Kind::Real;
  int block = -1;               // Real: the block whose terminator `succ` is
  std::vector<int> before;      // Real: blocks run first, in order (a straight-line chain merged into this node)
  int var = -1, value = 0;      // SetVar: var = value; Dispatch: branches on var (successor k when var == k)
  std::vector<int> succ;
};

struct Graph {
  std::vector<GNode> nodes;
  int root = 0;
  int numVars = 0;
};

// Reverse postorder from the root. Successors are visited last-first so that succ[0] (the taken side) comes
// first in the order, which makes merge segments read in source order.
std::vector<int> reversePostorder(const Graph& g) {
  const int n = static_cast<int>(g.nodes.size());
  std::vector<char> seen(n, 0);
  std::vector<int> post;
  std::vector<std::pair<int, int>> stack;  // node, number of successors already visited
  stack.push_back({g.root, 0});
  seen[g.root] = 1;
  while (!stack.empty()) {
    auto& [v, i] = stack.back();
    const auto& s = g.nodes[v].succ;
    if (i < static_cast<int>(s.size())) {
      int w = s[s.size() - 1 - i];
      ++i;
      if (!seen[w]) {
        seen[w] = 1;
        stack.push_back({w, 0});
      }
    } else {
      post.push_back(v);
      stack.pop_back();
    }
  }
  std::reverse(post.begin(), post.end());
  return post;
}

std::vector<std::vector<int>> predecessors(const Graph& g, const std::vector<char>& live) {
  std::vector<std::vector<int>> preds(g.nodes.size());
  for (int v = 0; v < static_cast<int>(g.nodes.size()); ++v)
    if (live[v])
      for (int w : g.nodes[v].succ) preds[w].push_back(v);
  return preds;
}

// Tarjan's strongly connected components of the subgraph induced by `members` (inSet[v] == stamp), iterative so
// that 5,000-block chains do not exhaust the stack. Components come out in a deterministic order.
std::vector<std::vector<int>> sccs(const Graph& g, const std::vector<int>& members, const std::vector<int>& inSet,
                                   int stamp) {
  const int n = static_cast<int>(g.nodes.size());
  std::vector<int> index(n, -1), low(n, 0);
  std::vector<char> onStack(n, 0);
  std::vector<int> stack;
  std::vector<std::vector<int>> out;
  int counter = 0;
  std::vector<std::pair<int, int>> call;  // node, next successor position
  for (int start : members) {
    if (index[start] != -1) continue;
    call.push_back({start, 0});
    index[start] = low[start] = counter++;
    stack.push_back(start);
    onStack[start] = 1;
    while (!call.empty()) {
      auto& [v, i] = call.back();
      const auto& s = g.nodes[v].succ;
      if (i < static_cast<int>(s.size())) {
        int w = s[i++];
        if (inSet[w] != stamp) continue;
        if (index[w] == -1) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          onStack[w] = 1;
          call.push_back({w, 0});
        } else if (onStack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      int done = v;
      call.pop_back();
      if (!call.empty()) low[call.back().first] = std::min(low[call.back().first], low[done]);
      if (low[done] == index[done]) {
        std::vector<int> comp;
        int w;
        do {
          w = stack.back();
          stack.pop_back();
          onStack[w] = 0;
          comp.push_back(w);
        } while (w != done);
        out.push_back(std::move(comp));
      }
    }
  }
  return out;
}

// Gives a multi-entry region one entry: a dispatch node D over a new variable, reached through SetVar nodes
// (one per entry and per side: edges from outside the region and edges from inside get separate SetVar nodes,
// so that the outside ones stay outside and D really is the only entry). Returns the new in-region nodes.
std::vector<int> addDispatcher(Graph& g, const std::vector<int>& region, const std::vector<int>& entries,
                               std::vector<int>& order) {
  const int var = g.numVars++;
  std::vector<char> inRegion(g.nodes.size(), 0);
  for (int v : region) inRegion[v] = 1;
  auto addNode = [&](GNode node) {
    g.nodes.push_back(std::move(node));
    order.push_back(static_cast<int>(order.size()));
    return static_cast<int>(g.nodes.size()) - 1;
  };
  GNode d;
  d.kind = GNode::Kind::Dispatch;
  d.var = var;
  d.succ = entries;
  const int dispatch = addNode(std::move(d));
  std::vector<int> inner;
  std::vector<int> outerVia(entries.size(), -1), innerVia(entries.size(), -1);
  auto via = [&](size_t k, bool fromInside) {
    int& slot = fromInside ? innerVia[k] : outerVia[k];
    if (slot == -1) {
      GNode sv;
      sv.kind = GNode::Kind::SetVar;
      sv.var = var;
      sv.value = static_cast<int>(k);
      sv.succ = {dispatch};
      slot = addNode(std::move(sv));
      if (fromInside) inner.push_back(slot);
    }
    return slot;
  };
  const int oldCount = static_cast<int>(g.nodes.size());
  for (int u = 0; u < oldCount; ++u) {
    if (u == dispatch) continue;
    for (int& w : g.nodes[u].succ) {
      auto it = std::find(entries.begin(), entries.end(), w);
      if (it != entries.end()) w = via(static_cast<size_t>(it - entries.begin()), inRegion[u] != 0);
    }
  }
  auto rootIt = std::find(entries.begin(), entries.end(), g.root);
  if (rootIt != entries.end()) g.root = via(static_cast<size_t>(rootIt - entries.begin()), false);
  return inner;
}

// Straight-line chains become one node: a node whose only successor has it as its only (reachable) predecessor
// takes that successor's blocks. Lifting makes such a chain of every `bra` to the next label, and laying it out
// one node per block would nest the layout (and its recursion) as deep as the chain is long.
void mergeChains(Graph& g) {
  const int n = static_cast<int>(g.nodes.size());
  std::vector<int> rpo = reversePostorder(g);
  std::vector<char> live(n, 0);
  for (int v : rpo) live[v] = 1;
  std::vector<int> preds(n, 0);  // distinct reachable predecessors
  for (int v : rpo) {
    std::vector<int> s = g.nodes[v].succ;
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    for (int w : s) ++preds[w];
  }
  for (int u : rpo) {
    GNode& a = g.nodes[u];
    if (!live[u] || a.kind != GNode::Kind::Real) continue;
    for (;;) {
      const auto& s = a.succ;
      if (s.empty() || !std::all_of(s.begin(), s.end(), [&](int w) { return w == s[0]; })) break;
      int w = s[0];
      if (w == u || w == g.root || preds[w] != 1) break;
      GNode& b = g.nodes[w];
      a.before.push_back(a.block);
      a.before.insert(a.before.end(), b.before.begin(), b.before.end());
      a.block = b.block;
      a.succ = std::move(b.succ);
      b.succ.clear();
      b.before.clear();
      live[w] = 0;  // merged: no longer reachable
    }
  }
}

// Step 1 of the file comment. Returns whether any dispatcher was added.
bool makeReducible(Graph& g) {
  std::vector<int> order;  // a stable key per node: reverse postorder of the input, new nodes last
  {
    std::vector<int> rpo = reversePostorder(g);
    order.assign(g.nodes.size(), -1);
    for (size_t i = 0; i < rpo.size(); ++i) order[rpo[i]] = static_cast<int>(i);
  }
  std::vector<char> live(g.nodes.size(), 0);
  std::vector<int> all;
  for (size_t v = 0; v < g.nodes.size(); ++v)
    if (order[v] >= 0) {
      live[v] = 1;
      all.push_back(static_cast<int>(v));
    }
  std::sort(all.begin(), all.end(), [&](int a, int b) { return order[a] < order[b]; });
  bool changed = false;
  std::vector<int> inSet(g.nodes.size(), 0);
  int stamp = 0;
  std::vector<std::vector<int>> preds = predecessors(g, live);
  std::vector<std::vector<int>> work{all};
  while (!work.empty()) {
    std::vector<int> members = std::move(work.back());
    work.pop_back();
    inSet.resize(g.nodes.size(), 0);
    ++stamp;
    for (int v : members) inSet[v] = stamp;
    for (auto& comp : sccs(g, members, inSet, stamp)) {
      bool cyclic = comp.size() > 1 || std::count(g.nodes[comp[0]].succ.begin(), g.nodes[comp[0]].succ.end(), comp[0]);
      if (!cyclic) continue;
      std::sort(comp.begin(), comp.end(), [&](int a, int b) { return order[a] < order[b]; });
      std::vector<char> inComp(g.nodes.size(), 0);
      for (int v : comp) inComp[v] = 1;
      std::vector<int> entries;
      for (int v : comp) {
        bool entry = v == g.root;
        for (int p : preds[v]) entry = entry || !inComp[p];
        if (entry) entries.push_back(v);
      }
      if (entries.size() == 1) {
        comp.erase(std::find(comp.begin(), comp.end(), entries[0]));
        work.push_back(std::move(comp));
        continue;
      }
      changed = true;
      std::vector<int> inner = addDispatcher(g, comp, entries, order);
      live.resize(g.nodes.size(), 1);
      preds = predecessors(g, live);
      comp.insert(comp.end(), inner.begin(), inner.end());
      work.push_back(std::move(comp));  // the region minus its new header D
    }
  }
  return changed;
}

// ---------------------------------------------------------------------------------------------------------------
// Step 2 and 3: layout of a reducible graph.

// One context entry around the code being emitted: inside loop `node`, or before the merge segment of `node`.
struct Ctx {
  bool loop;
  int node;
};

// Pre-tree: SNode plus the places whose final form depends on every jump (decided after the walk).
struct PNode {
  enum class Kind : uint8_t { Seq, Leaf, If, Loop, Jump, Guard, LoopEnd } kind = Kind::Seq;
  SNode leaf;      // Leaf
  SCond cond;      // If
  int id = -1;     // Jump: jump record; Guard: merge node; Loop/LoopEnd: header node
  std::vector<PNode> kids;
};

struct JumpRec {
  enum class Action : uint8_t { Continue, Break, Fall } action;
  int value;                       // the exit variable's value naming the target
  std::vector<int> guards;         // merge segments the jump falls through without being their target
  int targetGuard = -1;            // merge segment it lands in (forward jumps)
  std::vector<int> loopEnds;       // loops whose end-of-body dispatch it passes on the way out
  int selfLoop = -1;               // loop it continues by falling to the end of its body
};

class Layout {
 public:
  explicit Layout(const Graph& g) : g_(g), n_(static_cast<int>(g.nodes.size())) {}

  bool run(SNode& root, int& exitVar, std::string& error);

 private:
  bool analyse(std::string& error);
  void computeLoops();
  void keepSmallExitsInside();
  bool inLoop(int v, int header) const {
    int l = innermost_[v];
    return l != -1 && loopPre_[header] <= loopPre_[l] && loopPost_[l] <= loopPost_[header];
  }
  void emitNode(int x, std::vector<PNode>& out);
  int emitWithFollows(const std::vector<int>& ys, std::vector<PNode>& out,
                      const std::function<void(std::vector<PNode>&)>& inner, bool leaveLast);
  void emitCore(int x, std::vector<PNode>& out);
  void emitJump(int src, int dst, std::vector<PNode>& out);
  SCond condition(int x, int k) const;
  void lower(const PNode& p, std::vector<SNode>& out, int exitVar) const;
  void lowerList(const std::vector<PNode>* kids, std::vector<SNode>& out, int exitVar) const;
  bool needsVar(const JumpRec& j) const;

  const Graph& g_;
  int n_;
  std::vector<int> rpo_, rpoIndex_, idom_, sites_;
  std::vector<std::vector<int>> preds_;
  std::vector<int> innermost_, loopParent_, loopPre_, loopPost_;
  std::vector<char> isHeader_, isFollow_;
  std::vector<std::vector<int>> follows_, afterFollows_;
  std::vector<Ctx> ctx_;
  std::vector<JumpRec> jumps_;
  std::vector<char> guarded_, selfFall_;
  std::vector<std::set<int>> loopExits_;
  std::string internalError_;
  int depth_ = 0;

 public:
  int nestingBlock_ = -1;  // where the nesting limit was reached (a block id; -1 for a virtual node)
};

bool Layout::analyse(std::string& error) {
  rpo_ = reversePostorder(g_);
  rpoIndex_.assign(n_, -1);
  for (size_t i = 0; i < rpo_.size(); ++i) rpoIndex_[rpo_[i]] = static_cast<int>(i);
  std::vector<char> live(n_, 0);
  for (int v : rpo_) live[v] = 1;
  preds_ = predecessors(g_, live);
  // Dominators: Cooper, Harvey, Kennedy, "A Simple, Fast Dominance Algorithm".
  idom_.assign(n_, -1);
  idom_[g_.root] = g_.root;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (rpoIndex_[a] > rpoIndex_[b]) a = idom_[a];
      while (rpoIndex_[b] > rpoIndex_[a]) b = idom_[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < rpo_.size(); ++i) {
      int v = rpo_[i], best = -1;
      for (int p : preds_[v])
        if (idom_[p] != -1) best = best == -1 ? p : intersect(p, best);
      if (best != idom_[v]) {
        idom_[v] = best;
        changed = true;
      }
    }
  }
  auto dominates = [&](int a, int b) {
    while (b != a && b != g_.root) b = idom_[b];
    return a == b;
  };
  isHeader_.assign(n_, 0);
  sites_.assign(n_, 0);
  for (int u : rpo_) {
    const auto& s = g_.nodes[u].succ;
    bool allSame = !s.empty() && std::all_of(s.begin(), s.end(), [&](int w) { return w == s[0]; });
    for (size_t k = 0; k < s.size(); ++k) {
      int w = s[k];
      if (rpoIndex_[w] <= rpoIndex_[u]) {
        if (!dominates(w, u)) {
          error = "internal: graph still irreducible after the fallback";
          return false;
        }
        isHeader_[w] = 1;
      } else if (k == 0 || !allSame) {
        ++sites_[w];
      }
    }
  }
  return true;
}

// Natural loops, all back edges of one header forming one loop, innermost first (inner headers come later in
// reverse postorder). A body node already claimed by an inner loop is skipped to that loop's outermost header.
void Layout::computeLoops() {
  innermost_.assign(n_, -1);
  loopParent_.assign(n_, -1);
  for (auto it = rpo_.rbegin(); it != rpo_.rend(); ++it) {
    int h = *it;
    if (!isHeader_[h]) continue;
    innermost_[h] = h;
    std::vector<int> work;
    for (int p : preds_[h])
      if (rpoIndex_[p] >= rpoIndex_[h]) work.push_back(p);
    while (!work.empty()) {
      int v = work.back();
      work.pop_back();
      if (innermost_[v] == -1) {
        innermost_[v] = h;
        work.insert(work.end(), preds_[v].begin(), preds_[v].end());
        continue;
      }
      int top = innermost_[v];
      while (loopParent_[top] != -1) top = loopParent_[top];
      if (top == h) continue;
      loopParent_[top] = h;
      work.insert(work.end(), preds_[top].begin(), preds_[top].end());
    }
  }
  // Interval numbering of the loop forest so that "v is in loop h" is O(1).
  std::vector<std::vector<int>> kids(n_);
  std::vector<int> roots;
  for (int h : rpo_)
    if (isHeader_[h]) (loopParent_[h] == -1 ? roots : kids[loopParent_[h]]).push_back(h);
  loopPre_.assign(n_, 0);
  loopPost_.assign(n_, 0);
  int counter = 0;
  std::vector<std::pair<int, size_t>> stack;
  for (int r : roots) {
    stack.push_back({r, 0});
    loopPre_[r] = counter++;
    while (!stack.empty()) {
      auto& [h, i] = stack.back();
      if (i < kids[h].size()) {
        int c = kids[h][i++];
        loopPre_[c] = counter++;
        stack.push_back({c, 0});
      } else {
        loopPost_[h] = counter++;
        stack.pop_back();
      }
    }
  }
}

SCond Layout::condition(int x, int k) const {
  SCond c;
  const GNode& node = g_.nodes[x];
  if (node.kind == GNode::Kind::Dispatch) {
    c.kind = SCond::Kind::VarEq;
    c.varIndex = node.var;
    c.value = k;
  } else {
    c.kind = SCond::Kind::Branch;
    c.block = node.block;
    c.succIndex = k;
  }
  return c;
}

// Emission recursion follows the nesting of the output (ifs, loops, merge segments); beyond kMaxStructureNesting
// (structurize.h) the result would also overflow its consumers (emitters, drivers' GLSL compilers), so it is
// refused with an error.
constexpr int kMaxNesting = kMaxStructureNesting;

void Layout::emitNode(int x, std::vector<PNode>& first) {
  if (++depth_ > kMaxNesting) {
    if (internalError_.empty()) {
      internalError_ = "control flow nests deeper than " + std::to_string(kMaxNesting) + " levels";
      nestingBlock_ = g_.nodes[x].block;
    }
    --depth_;
    return;
  }
  std::vector<PNode>* out = &first;
  while (x != -1 && internalError_.empty()) {
    auto core = [&](std::vector<PNode>& o) {
      if (!isHeader_[x]) {
        emitCore(x, o);
        return;
      }
      PNode loop;
      loop.kind = PNode::Kind::Loop;
      loop.id = x;
      ctx_.push_back({true, x});
      emitWithFollows(follows_[x], loop.kids, [&](std::vector<PNode>& body) { emitCore(x, body); }, false);
      ctx_.pop_back();
      PNode end;
      end.kind = PNode::Kind::LoopEnd;
      end.id = x;
      loop.kids.push_back(std::move(end));
      o.push_back(std::move(loop));
    };
    int tail = emitWithFollows(isHeader_[x] ? afterFollows_[x] : follows_[x], *out, core, true);
    if (tail != -1) out = &out->back().kids;
    x = tail;
  }
  --depth_;
}

// `ys` in reverse postorder: ys[0] is the innermost segment (its code comes first after `inner`). With
// `leaveLast`, the last segment's guard is pushed empty and its node returned for the caller to fill: the caller
// loops instead of recursing, so a long sequence of joins (a 100,000-block chain of diamonds) uses constant stack.
int Layout::emitWithFollows(const std::vector<int>& ys, std::vector<PNode>& out,
                            const std::function<void(std::vector<PNode>&)>& inner, bool leaveLast) {
  for (auto it = ys.rbegin(); it != ys.rend(); ++it) ctx_.push_back({false, *it});
  inner(out);
  for (size_t i = 0; i < ys.size(); ++i) {
    ctx_.pop_back();
    PNode guard;
    guard.kind = PNode::Kind::Guard;
    guard.id = ys[i];
    out.push_back(std::move(guard));
    if (leaveLast && i + 1 == ys.size()) return ys[i];
    emitNode(ys[i], out.back().kids);
  }
  return -1;
}

void Layout::emitCore(int x, std::vector<PNode>& out) {
  const GNode& node = g_.nodes[x];
  if (node.kind == GNode::Kind::Real) {
    auto body = [&](int b) {
      PNode leaf;
      leaf.kind = PNode::Kind::Leaf;
      leaf.leaf.kind = SNode::Kind::Block;
      leaf.leaf.block = b;
      out.push_back(std::move(leaf));
    };
    for (int b : node.before) body(b);
    body(node.block);
  } else if (node.kind == GNode::Kind::SetVar) {
    PNode leaf;
    leaf.kind = PNode::Kind::Leaf;
    leaf.leaf.kind = SNode::Kind::SetVar;
    leaf.leaf.varIndex = node.var;
    leaf.leaf.value = node.value;
    out.push_back(std::move(leaf));
  }
  const auto& s = node.succ;
  if (s.empty()) {
    PNode ret;
    ret.kind = PNode::Kind::Leaf;
    ret.leaf.kind = SNode::Kind::Return;
    out.push_back(std::move(ret));
    return;
  }
  if (std::all_of(s.begin(), s.end(), [&](int w) { return w == s[0]; })) {
    emitJump(x, s[0], out);
    return;
  }
  // Two-way or multiway: a chain of ifs, the last successor taking the final else.
  std::vector<PNode>* tail = &out;
  for (size_t k = 0; k + 1 < s.size(); ++k) {
    PNode branch;
    branch.kind = PNode::Kind::If;
    branch.cond = condition(x, static_cast<int>(k));
    branch.kids.resize(2);
    emitJump(x, s[k], branch.kids[0].kids);
    tail->push_back(std::move(branch));
    tail = &tail->back().kids[1].kids;
  }
  emitJump(x, s.back(), *tail);
}

// Decides how the jump src -> dst is realised and records which guards and loop ends it passes.
void Layout::emitJump(int src, int dst, std::vector<PNode>& out) {
  bool back = rpoIndex_[dst] <= rpoIndex_[src];
  if (!back && !isFollow_[dst]) {
    emitNode(dst, out);  // dst has this single forward edge and is dominated by src: inline it
    return;
  }
  JumpRec j{JumpRec::Action::Fall, back ? n_ + dst : dst, {}, -1, {}, -1};
  // Merge segments crossed before the first loop are skipped by break/continue, and passed only when the jump
  // falls through all the way (no loop between it and its target).
  std::vector<int> beforeLoop;
  bool loopCrossed = false, found = false;
  for (auto it = ctx_.rbegin(); it != ctx_.rend(); ++it) {
    if (it->node == dst && it->loop == back) {
      found = true;
      if (back && !loopCrossed) j.action = JumpRec::Action::Continue;
      else if (back) j.selfLoop = dst;
      else j.targetGuard = dst;
      break;
    }
    if (it->loop) {
      if (!loopCrossed) j.action = JumpRec::Action::Break;
      else j.loopEnds.push_back(it->node);
      loopCrossed = true;
    } else {
      (loopCrossed ? j.guards : beforeLoop).push_back(it->node);
    }
  }
  if (!found) {
    internalError_ = "internal: jump target not in scope";
    return;
  }
  if (!loopCrossed && !back) j.guards = std::move(beforeLoop);
  // What the jump passes is known now; mark the guards it forces and the loop ends it leaves through.
  for (int z : j.guards) guarded_[z] = 1;
  for (int h : j.loopEnds) loopExits_[h].insert(j.value);
  if (j.selfLoop != -1) selfFall_[j.selfLoop] = 1;
  PNode p;
  p.kind = PNode::Kind::Jump;
  p.id = static_cast<int>(jumps_.size());
  jumps_.push_back(std::move(j));
  out.push_back(std::move(p));
}

bool Layout::needsVar(const JumpRec& j) const {
  if (!j.guards.empty() || (j.targetGuard != -1 && guarded_[j.targetGuard])) return true;
  for (int h : j.loopEnds)
    if (selfFall_[h]) return true;
  return j.selfLoop != -1 && !loopExits_[j.selfLoop].empty();
}

// Lowers a statement list. An unguarded merge segment at the end of a list is spliced in place by iterating, not
// recursing: the tail segments of a long sequence of joins nest in the pre-tree but come out flat.
void Layout::lowerList(const std::vector<PNode>* kids, std::vector<SNode>& out, int exitVar) const {
  while (kids) {
    const std::vector<PNode>* next = nullptr;
    for (size_t i = 0; i < kids->size(); ++i) {
      const PNode& k = (*kids)[i];
      if (i + 1 == kids->size() && k.kind == PNode::Kind::Guard && !guarded_[k.id]) next = &k.kids;
      else lower(k, out, exitVar);
    }
    kids = next;
  }
}

void Layout::lower(const PNode& p, std::vector<SNode>& out, int exitVar) const {
  auto lowerAll = [&](const std::vector<PNode>& kids, std::vector<SNode>& dst) { lowerList(&kids, dst, exitVar); };
  auto simple = [](SNode::Kind kind) {
    SNode s;
    s.kind = kind;
    return s;
  };
  auto varEq = [&](int value) {
    SNode s;
    s.kind = SNode::Kind::If;
    s.cond.kind = SCond::Kind::VarEq;
    s.cond.varIndex = exitVar;
    s.cond.value = value;
    s.children.resize(2);
    return s;
  };
  switch (p.kind) {
    case PNode::Kind::Seq: lowerAll(p.kids, out); break;
    case PNode::Kind::Leaf: out.push_back(p.leaf); break;
    case PNode::Kind::If: {
      SNode s;
      s.kind = SNode::Kind::If;
      s.cond = p.cond;
      s.children.resize(2);
      lowerAll(p.kids[0].kids, s.children[0].children);
      lowerAll(p.kids[1].kids, s.children[1].children);
      out.push_back(std::move(s));
      break;
    }
    case PNode::Kind::Loop: {
      SNode s = simple(SNode::Kind::Loop);
      s.children.resize(1);
      lowerAll(p.kids, s.children[0].children);
      out.push_back(std::move(s));
      break;
    }
    case PNode::Kind::Jump: {
      const JumpRec& j = jumps_[p.id];
      if (needsVar(j)) {
        SNode set = simple(SNode::Kind::SetVar);
        set.varIndex = exitVar;
        set.value = j.value;
        out.push_back(std::move(set));
      }
      if (j.action == JumpRec::Action::Break) out.push_back(simple(SNode::Kind::Break));
      if (j.action == JumpRec::Action::Continue) out.push_back(simple(SNode::Kind::Continue));
      break;
    }
    case PNode::Kind::Guard: {
      if (!guarded_[p.id]) {
        lowerAll(p.kids, out);
        break;
      }
      SNode s = varEq(p.id);
      lowerAll(p.kids, s.children[0].children);
      out.push_back(std::move(s));
      break;
    }
    case PNode::Kind::LoopEnd: {
      const auto& exits = loopExits_[p.id];
      if (exits.empty()) break;
      if (!selfFall_[p.id]) {
        out.push_back(simple(SNode::Kind::Break));
        break;
      }
      for (int value : exits) {
        SNode s = varEq(value);
        s.children[0].children.push_back(simple(SNode::Kind::Break));
        out.push_back(std::move(s));
      }
      break;
    }
  }
}

// Hoisting every loop exit after the loop would make each early exit (a return, an error path) go through the exit
// variable. Small single-edge exit tails are inlined where they leave instead (Ramsey's layout does this for all of
// them), keeping the largest one, the loop's continuation, after the loop.
void Layout::keepSmallExitsInside() {
  constexpr int kSmallTail = 4;  // blocks in the dominator subtree
  std::vector<int> subtree(n_, 1);
  for (size_t i = rpo_.size(); i-- > 1;) subtree[idom_[rpo_[i]]] += subtree[rpo_[i]];
  for (int h : rpo_) {
    auto& after = afterFollows_[h];
    if (after.empty()) continue;
    int keep = after[0];
    for (int y : after)
      if (subtree[y] >= subtree[keep]) keep = y;
    std::vector<int> stay;
    for (int y : after) {
      if (y != keep && sites_[y] == 1 && subtree[y] <= kSmallTail) isFollow_[y] = 0;
      else stay.push_back(y);
    }
    after = std::move(stay);
  }
}

bool Layout::run(SNode& root, int& exitVar, std::string& error) {
  if (!analyse(error)) return false;
  computeLoops();
  // Placement (file comment, step 2).
  isFollow_.assign(n_, 0);
  follows_.assign(n_, {});
  afterFollows_.assign(n_, {});
  for (size_t i = 1; i < rpo_.size(); ++i) {
    int y = rpo_[i], x = idom_[y], hoist = -1;
    for (int l = innermost_[x]; l != -1 && !inLoop(y, l); l = loopParent_[l]) hoist = l;
    if (hoist != -1) {
      isFollow_[y] = 1;
      afterFollows_[hoist].push_back(y);
    } else if (sites_[y] >= 2) {
      isFollow_[y] = 1;
      follows_[x].push_back(y);
    }
  }
  keepSmallExitsInside();
  guarded_.assign(n_, 0);
  selfFall_.assign(n_, 0);
  loopExits_.assign(n_, {});
  PNode top;
  emitNode(g_.root, top.kids);
  if (!internalError_.empty()) {
    error = internalError_;
    return false;
  }
  // Every guard or conditional loop end is passed by some jump that then sets the variable.
  if (std::none_of(jumps_.begin(), jumps_.end(), [&](const JumpRec& j) { return needsVar(j); })) exitVar = -1;
  root = SNode{};
  lower(top, root.children, exitVar);
  // The pre-tree can nest as deep as the input is long (tail segments); free it without recursing.
  std::vector<PNode> dead;
  dead.push_back(std::move(top));
  while (!dead.empty()) {
    std::vector<PNode> kids = std::move(dead.back().kids);
    dead.pop_back();
    for (auto& k : kids) dead.push_back(std::move(k));
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Readability clean-up; every rewrite keeps the executed block sequence.

bool endsInJump(const std::vector<SNode>& stmts) {
  if (stmts.empty()) return false;
  auto k = stmts.back().kind;
  return k == SNode::Kind::Break || k == SNode::Kind::Continue || k == SNode::Kind::Return;
}

void simplify(std::vector<SNode>& stmts, bool loopBody) {
  std::vector<SNode> out;
  for (auto& s : stmts) {
    if (endsInJump(out)) break;  // dead code after break/continue/return
    if (s.kind == SNode::Kind::Seq) {
      simplify(s.children, false);
      for (auto& c : s.children) out.push_back(std::move(c));
      continue;
    }
    if (s.kind == SNode::Kind::Loop) {
      simplify(s.children[0].children, true);
      out.push_back(std::move(s));
      continue;
    }
    if (s.kind != SNode::Kind::If) {
      out.push_back(std::move(s));
      continue;
    }
    auto& thenB = s.children[0].children;
    auto& elseB = s.children[1].children;
    simplify(thenB, false);
    simplify(elseB, false);
    if (thenB.empty() && elseB.empty()) continue;  // conditions have no side effects
    // Keep the branch that leaves (break/continue/return) inside the if and the other one after it: early exits
    // instead of nesting. Prefer the shorter leaving branch; an empty then-branch is flipped away.
    bool thenJumps = endsInJump(thenB), elseJumps = endsInJump(elseB);
    // A trailing continue at the end of a loop body disappears, so a branch that ends in one goes last.
    auto endsInContinue = [](const std::vector<SNode>& b) {
      return !b.empty() && b.back().kind == SNode::Kind::Continue;
    };
    bool shorter = elseB.size() < thenB.size() ||
                   (elseB.size() == thenB.size() && endsInContinue(thenB) && !endsInContinue(elseB));
    bool flip = thenB.empty() || (elseJumps && (!thenJumps || shorter));
    if (flip) {
      std::swap(thenB, elseB);
      s.cond.negate = !s.cond.negate;
      std::swap(thenJumps, elseJumps);
    }
    if (thenJumps && !elseB.empty()) {
      std::vector<SNode> rest = std::move(elseB);
      elseB.clear();
      out.push_back(std::move(s));
      for (auto& c : rest) {
        if (endsInJump(out)) break;
        out.push_back(std::move(c));
      }
      continue;
    }
    out.push_back(std::move(s));
  }
  if (loopBody && !out.empty() && out.back().kind == SNode::Kind::Continue) out.pop_back();
  stmts = std::move(out);
}

std::string validate(const Cfg& cfg) {
  const size_t n = cfg.succ.size();
  if (n == 0) return "structurize: empty CFG (no entry block)";
  if (n > 50'000'000) return "structurize: CFG too large";
  for (size_t b = 0; b < n; ++b)
    for (size_t k = 0; k < cfg.succ[b].size(); ++k) {
      int s = cfg.succ[b][k];
      if (s < 0 || static_cast<size_t>(s) >= n)
        return "structurize: block " + std::to_string(b) + " successor " + std::to_string(k) + " is " +
               std::to_string(s) + ", out of range [0, " + std::to_string(n) + ")";
    }
  return {};
}

void dumpNode(const SNode& n, int depth, std::string& out);

std::string condText(const SCond& c) {
  const char* op = c.negate ? " != " : " == ";
  if (c.kind == SCond::Kind::Branch) return "b" + std::to_string(c.block) + op + std::to_string(c.succIndex);
  return "v" + std::to_string(c.varIndex) + op + std::to_string(c.value);
}

void dumpIf(const SNode& n, int depth, std::string& out) {
  const std::string pad(2 * depth, ' ');
  out += "if (" + condText(n.cond) + ") {\n";
  dumpNode(n.children[0], depth + 1, out);
  const SNode& e = n.children[1];
  bool empty = e.kind == SNode::Kind::Seq && e.children.empty();
  if (empty) {
    out += pad + "}\n";
    return;
  }
  if (e.kind == SNode::Kind::Seq && e.children.size() == 1 && e.children[0].kind == SNode::Kind::If) {
    out += pad + "} else ";
    dumpIf(e.children[0], depth, out);
    return;
  }
  out += pad + "} else {\n";
  dumpNode(e, depth + 1, out);
  out += pad + "}\n";
}

void dumpNode(const SNode& n, int depth, std::string& out) {
  const std::string pad(2 * depth, ' ');
  switch (n.kind) {
    case SNode::Kind::Seq:
      for (const auto& c : n.children) dumpNode(c, depth, out);
      break;
    case SNode::Kind::Block: out += pad + "block " + std::to_string(n.block) + "\n"; break;
    case SNode::Kind::If:
      out += pad;
      dumpIf(n, depth, out);
      break;
    case SNode::Kind::Loop:
      out += pad + "loop {\n";
      for (const auto& c : n.children) dumpNode(c, depth + 1, out);
      out += pad + "}\n";
      break;
    case SNode::Kind::Break: out += pad + "break\n"; break;
    case SNode::Kind::Continue: out += pad + "continue\n"; break;
    case SNode::Kind::Return: out += pad + "return\n"; break;
    case SNode::Kind::SetVar:
      out += pad + "v" + std::to_string(n.varIndex) + " = " + std::to_string(n.value) + "\n";
      break;
  }
}

}  // namespace

StructurizeResult structurize(const Cfg& cfg) {
  StructurizeResult result;
  result.error = validate(cfg);
  if (!result.error.empty()) return result;
  Graph g;
  g.nodes.resize(cfg.succ.size());
  for (size_t b = 0; b < cfg.succ.size(); ++b) {
    g.nodes[b].block = static_cast<int>(b);
    g.nodes[b].succ = cfg.succ[b];
  }
  mergeChains(g);
  result.usedFallback = makeReducible(g);
  int exitVar = g.numVars;
  Layout layout(g);
  if (!layout.run(result.root, exitVar, result.error)) {
    if (layout.nestingBlock_ >= 0 || result.error.rfind("control flow nests", 0) == 0) {
      result.tooDeep = true;
      result.errorBlock = layout.nestingBlock_;
    }
    return result;
  }
  result.numVars = exitVar == -1 ? g.numVars : g.numVars + 1;
  simplify(result.root.children, false);
  return result;
}

std::string dumpTree(const SNode& n) {
  std::string out;
  dumpNode(n, 0, out);
  return out;
}

}  // namespace p2g

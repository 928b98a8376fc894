#include "textdiff.h"

#include <unordered_map>

namespace p2g::cli {

std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> v;
  size_t i = 0;
  while (i < s.size()) {
    size_t e = s.find('\n', i);
    if (e == std::string::npos) e = s.size();
    v.push_back(s.substr(i, e - i));
    i = e + 1;
  }
  return v;
}

std::vector<DiffOp> diffLines(const std::vector<std::string>& a, const std::vector<std::string>& b, size_t maxD,
                              bool* truncated) {
  if (truncated) *truncated = false;
  // Lines as integers: equal ids for equal lines.
  std::unordered_map<std::string, int> ids;
  std::vector<int> A, B;
  for (auto& l : a) A.push_back(ids.emplace(l, int(ids.size())).first->second);
  for (auto& l : b) B.push_back(ids.emplace(l, int(ids.size())).first->second);
  std::vector<DiffOp> ops;
  // The common prefix and suffix need no search.
  size_t pre = 0;
  while (pre < A.size() && pre < B.size() && A[pre] == B[pre]) ++pre;
  size_t suf = 0;
  while (suf < A.size() - pre && suf < B.size() - pre && A[A.size() - 1 - suf] == B[B.size() - 1 - suf]) ++suf;
  for (size_t i = 0; i < pre; ++i) ops.push_back({DiffOp::Equal, i, i});
  const long N = long(A.size() - pre - suf), M = long(B.size() - pre - suf);
  auto a0 = [&](long x) { return A[pre + size_t(x)]; };
  auto b0 = [&](long y) { return B[pre + size_t(y)]; };
  const long MAX = N + M;
  std::vector<DiffOp> mid;
  if (MAX > 0) {
    // V[k + off] = the furthest x on diagonal k (y = x - k); trace[d] = V over k in [-d, d] after step d.
    const long off = MAX + 1;
    std::vector<long> V(size_t(2 * MAX + 3), 0);
    std::vector<std::vector<long>> trace;
    long D = -1;
    for (long d = 0; d <= MAX && D < 0; ++d) {
      if (size_t(d) > maxD) break;
      for (long k = -d; k <= d; k += 2) {
        long x = (k == -d || (k != d && V[size_t(k - 1 + off)] < V[size_t(k + 1 + off)])) ? V[size_t(k + 1 + off)]
                                                                                           : V[size_t(k - 1 + off)] + 1;
        long y = x - k;
        while (x < N && y < M && a0(x) == b0(y)) ++x, ++y;
        V[size_t(k + off)] = x;
        if (x >= N && y >= M) D = d;
      }
      trace.emplace_back(V.begin() + (off - d), V.begin() + (off + d + 1));
    }
    if (D < 0) {
      if (truncated) *truncated = true;
      for (long x = 0; x < N; ++x) mid.push_back({DiffOp::Delete, pre + size_t(x), 0});
      for (long y = 0; y < M; ++y) mid.push_back({DiffOp::Insert, 0, pre + size_t(y)});
    } else {
      // Back from (N, M): each step d came from diagonal k+1 (an insertion) or k-1 (a deletion), then a snake.
      long x = N, y = M;
      std::vector<DiffOp> rev;
      for (long d = D; d > 0; --d) {
        const std::vector<long>& P = trace[size_t(d - 1)];  // k in [-(d-1), d-1]
        auto at = [&](long k) { return P[size_t(k + d - 1)]; };
        long k = x - y;
        bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
        long pk = down ? k + 1 : k - 1;
        long px = at(pk), py = px - pk;
        long sx = down ? px : px + 1;  // where the snake of step d starts
        while (x > sx) {
          --x, --y;
          rev.push_back({DiffOp::Equal, pre + size_t(x), pre + size_t(y)});
        }
        if (down) rev.push_back({DiffOp::Insert, 0, pre + size_t(py)});
        else rev.push_back({DiffOp::Delete, pre + size_t(px), 0});
        x = px, y = py;
      }
      while (x > 0) {
        --x, --y;
        rev.push_back({DiffOp::Equal, pre + size_t(x), pre + size_t(y)});
      }
      mid.assign(rev.rbegin(), rev.rend());
    }
  }
  ops.insert(ops.end(), mid.begin(), mid.end());
  for (size_t i = 0; i < suf; ++i) ops.push_back({DiffOp::Equal, A.size() - suf + i, B.size() - suf + i});
  return ops;
}

std::string unifiedDiff(const std::string& ta, const std::string& tb, const std::string& nameA,
                        const std::string& nameB, int context) {
  std::vector<std::string> a = splitLines(ta), b = splitLines(tb);
  bool truncated = false;
  std::vector<DiffOp> ops = diffLines(a, b, 3000, &truncated);
  // Line positions before each op.
  std::vector<size_t> pa(ops.size() + 1), pb(ops.size() + 1);
  for (size_t i = 0; i < ops.size(); ++i) {
    pa[i + 1] = pa[i] + (ops[i].kind != DiffOp::Insert);
    pb[i + 1] = pb[i] + (ops[i].kind != DiffOp::Delete);
  }
  std::vector<size_t> changes;
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i].kind != DiffOp::Equal) changes.push_back(i);
  if (changes.empty()) return "";
  std::string out = "--- " + nameA + "\n+++ " + nameB + "\n";
  if (truncated) out += "(more than 3000 lines differ: shown as a whole replacement)\n";
  size_t c = 0, ctx = size_t(context);
  while (c < changes.size()) {
    size_t first = changes[c], last = first;
    while (c + 1 < changes.size() && changes[c + 1] - last <= 2 * ctx + 1) last = changes[++c];
    ++c;
    size_t s = first > ctx ? first - ctx : 0, e = std::min(ops.size(), last + ctx + 1);
    size_t na = pa[e] - pa[s], nb = pb[e] - pb[s];
    out += "@@ -" + std::to_string(na ? pa[s] + 1 : pa[s]) + "," + std::to_string(na) + " +" +
           std::to_string(nb ? pb[s] + 1 : pb[s]) + "," + std::to_string(nb) + " @@\n";
    for (size_t i = s; i < e; ++i) {
      const DiffOp& o = ops[i];
      if (o.kind == DiffOp::Equal) out += " " + a[o.a] + "\n";
      else if (o.kind == DiffOp::Delete) out += "-" + a[o.a] + "\n";
      else out += "+" + b[o.b] + "\n";
    }
  }
  return out;
}

}  // namespace p2g::cli

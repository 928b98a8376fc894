// Discrete minimax (Remez exchange) fit of a quadratic to points (t_j, y_j), t in [0,1): shared by fit.cpp and
// gen.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

typedef long double R;

// Solves the 4x4 system A z = b (Gaussian elimination with partial pivoting).
static bool solve4(R A[4][4], R b[4], R z[4]) {
  for (int c = 0; c < 4; c++) {
    int p = c;
    for (int r = c + 1; r < 4; r++) if (fabsl(A[r][c]) > fabsl(A[p][c])) p = r;
    if (A[p][c] == 0) return false;
    for (int k = 0; k < 4; k++) std::swap(A[c][k], A[p][k]);
    std::swap(b[c], b[p]);
    for (int r = c + 1; r < 4; r++) {
      R f = A[r][c] / A[c][c];
      for (int k = c; k < 4; k++) A[r][k] -= f * A[c][k];
      b[r] -= f * b[c];
    }
  }
  for (int r = 3; r >= 0; r--) {
    R s = b[r];
    for (int k = r + 1; k < 4; k++) s -= A[r][k] * z[k];
    z[r] = s / A[r][r];
  }
  return true;
}

// Minimax quadratic through points (t_j, y_j), t in [0,1): returns the minimax error, coefficients in c.
static R remez(const std::vector<R>& t, const std::vector<R>& y, R c[3], const std::vector<R>* sq = nullptr) {
  // sq: optional value of the square term per point (e.g. the square of a truncated t); default t*t.
  auto S = [&](size_t j) { return sq ? (*sq)[j] : t[j] * t[j]; };
  size_t n = t.size();
  size_t ref[4] = {0, n / 3, 2 * n / 3, n - 1};
  R h = 0;
  for (int it = 0; it < 200; it++) {
    R A[4][4], b[4], z[4];
    for (int i = 0; i < 4; i++) {
      R x = t[ref[i]];
      A[i][0] = 1; A[i][1] = x; A[i][2] = S(ref[i]); A[i][3] = (i & 1) ? -1 : 1;
      b[i] = y[ref[i]];
    }
    if (!solve4(A, b, z)) break;
    c[0] = z[0]; c[1] = z[1]; c[2] = z[2]; h = fabsl(z[3]);
    size_t jm = 0; R em = -1, es = 0;
    for (size_t j = 0; j < n; j++) {
      R e = y[j] - (c[0] + c[1] * t[j] + c[2] * S(j));
      if (fabsl(e) > em) { em = fabsl(e); jm = j; es = e; }
    }
    if (em <= h * (1 + 1e-12L) + 1e-15L) return em;
    auto err = [&](size_t j) { return y[j] - (c[0] + c[1] * t[j] + c[2] * S(j)); };
    bool s = es > 0;
    if (jm < ref[0]) { if ((err(ref[0]) > 0) == s) ref[0] = jm; else { ref[3] = ref[2]; ref[2] = ref[1]; ref[1] = ref[0]; ref[0] = jm; } }
    else if (jm > ref[3]) { if ((err(ref[3]) > 0) == s) ref[3] = jm; else { ref[0] = ref[1]; ref[1] = ref[2]; ref[2] = ref[3]; ref[3] = jm; } }
    else {
      for (int i = 0; i < 3; i++)
        if (jm >= ref[i] && jm <= ref[i + 1]) {
          if ((err(ref[i]) > 0) == s) ref[i] = jm; else ref[i + 1] = jm;
          break;
        }
    }
  }
  R em = 0;
  for (size_t j = 0; j < n; j++) em = std::max(em, fabsl(y[j] - (c[0] + c[1] * t[j] + c[2] * S(j))));
  return em;
}


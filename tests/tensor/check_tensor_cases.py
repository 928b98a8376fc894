#!/usr/bin/env python3
"""Checks the outputs of the ptx_corpus/tensor cases against models written from the PTX ISA, without a GPU.

usage: tests/tensor/check_tensor_cases.py PTX2GLSL [CASE...]   (default: every case this script knows)

Runs each case with `PTX2GLSL run CASE --out DIR` (on the default device: lavapipe), regenerates the case's inputs
(splitmix64, docs/CASE_INPUTS.md) and compares every output word with the model:
- ldmatrix_cp_async, ldmatrix_generic, stmatrix_movmatrix, cp_async_zfill, cp_async_pipeline: data movement,
  fully determined by the ISA's layouts
  (ldmatrix/stmatrix/movmatrix: row r of matrix i at the address of lane 8i + r, element (r, c) in lane 4r + c/2,
  register i, half c & 1; .trans exchanges r and c) and by cp.async's zero fill;
- wmma_*: D = A B + C element by element with the tensor-core model of docs/MMA.md (tensor_model.py here), and the
  fragments each lane holds with the layout docs/TENSOR.md assumes.
The cases' expected/ (from the H200) is what settles NVIDIA's bytes; this check says that the lowering does what
the model says on lavapipe. Exit status 0 when every output matches."""
import json
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import tensor_model as tm  # noqa: E402


def run_case(bin_, case, out):
    r = subprocess.run([bin_, "run", case, "--out", out], capture_output=True, text=True)
    name = os.path.basename(case.rstrip("/"))
    folder = os.path.join(out, name)
    if not os.path.isdir(folder):
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit(f"{case}: no outputs written")
    return folder


def words(path):
    data = open(path, "rb").read()
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def inputs(case):
    cj = json.load(open(os.path.join(case, "case.json")))
    bufs = {}
    for name, b in cj["buffers"].items():
        bufs[name] = tm.init_bytes(b["bytes"], b["init"])
    return cj, bufs


def compare(label, got, want):
    bad = [i for i in range(len(want)) if got[i] != want[i]]
    if bad:
        i = bad[0]
        print(f"FAIL {label}: {len(bad)} of {len(want)} words differ; first at {i}: got {got[i]:#010x}, "
              f"want {want[i]:#010x}")
        return False
    print(f"ok   {label}: {len(want)} words")
    return True


CHECKS = {}


def check(name):
    def deco(f):
        CHECKS[name] = f
        return f
    return deco


@check("ldmatrix_generic")
@check("ldmatrix_cp_async")
def check_ldmatrix(case, outdir):
    _, bufs = inputs(case)
    src = bufs["in"]
    want = []
    for blk in range(2):
        tile = src[blk * 1024:(blk + 1) * 1024]  # cp.async copies the block's 1 KiB as is
        for tid in range(64):
            w, lane = tid >> 5, tid & 31
            half = lambda row, c: struct.unpack_from("<H", tile, w * 512 + row * 16 + 2 * c)[0]
            rows = [(5 * l + 3) & 31 for l in range(32)]  # the row each lane addresses
            mat = lambda i: [[half(rows[8 * i + r], c) for c in range(8)] for r in range(8)]
            r = []
            for trans in (False, True):
                for n in (1, 2, 4):
                    r += [tm.ld_frag(mat(i), lane, trans) for i in range(n)]
            want += r + [0, 0]
    return compare(os.path.basename(case.rstrip("/")) + "/out", words(os.path.join(outdir, "out.bin")), want)


@check("stmatrix_movmatrix")
def check_stmatrix(case, outdir):
    _, bufs = inputs(case)
    src = struct.unpack("<256I", bufs["in"])
    out = [0] * (6 * 2 * 32 * 4)
    mov = []
    for w in range(2):
        regs = [[src[(32 * w + l) * 4 + i] for l in range(32)] for i in range(4)]
        mats = [tm.frag_matrix(regs[i]) for i in range(4)]
        for s, (n, trans) in enumerate([(1, False), (2, False), (4, False), (1, True), (2, True), (4, True)]):
            for i in range(n):
                for r in range(8):
                    row = (3 * (8 * i + r) + 1) & 31  # the row lane 8i + r addresses
                    vals = [mats[i][c][r] if trans else mats[i][r][c] for c in range(8)]
                    for q in range(4):
                        out[((s * 2 + w) * 32 + row) * 4 + q] = vals[2 * q] | (vals[2 * q + 1] << 16)
        mov += [tm.ld_frag(mats[0], l, True) for l in range(32)]
    ok = compare("stmatrix_movmatrix/out", words(os.path.join(outdir, "out.bin")), out)
    return compare("stmatrix_movmatrix/mov", words(os.path.join(outdir, "mov.bin")), mov) and ok


@check("cp_async_zfill")
def check_zfill(case, outdir):
    _, bufs = inputs(case)
    src = bufs["in"]
    want = bytearray()
    for t in range(128):
        size = [4, 8, 16, 16][t & 3]
        n = (t >> 2) % (size + 1)
        slot = bytearray([0xA5] * 16)
        for b in range(size):
            slot[b] = src[16 * t + b] if b < n else 0
        want += slot
    ok = compare("cp_async_zfill/out", words(os.path.join(outdir, "out.bin")),
                 list(struct.unpack("<512I", bytes(want))))
    want2 = []
    for t in range(128):  # 8 bytes from in + 16t + 8, or zeros where ignore-src (t % 3 == 0) is set
        want2 += [0, 0] if t % 3 == 0 else list(struct.unpack_from("<2I", src, 16 * t + 8))
    return compare("cp_async_zfill/out2", words(os.path.join(outdir, "out2.bin")), want2) and ok


def halves(b):
    return struct.unpack(f"<{len(b) // 2}H", b)


def frag_words(L, A, B, C, ab_regs, c16, tf32=False):
    """The raw fragments lane L holds (docs/TENSOR.md): A and B registers, then the accumulator's."""
    g, t = L >> 2, L & 3
    w = []
    if tf32:
        w += [A[g + 8 * (r & 1)][t + 4 * (r >> 1)] for r in range(4)]
        w += [B[t + 4 * (r & 1)][g + 8 * (r >> 1)] for r in range(4)]
        ab_regs = 0
    for r in range(ab_regs):
        q = r % 4
        m, k = g + 8 * (q & 1), 2 * t + 8 * (q >> 1)
        w.append(A[m][k] | (A[m][k + 1] << 16))
    for r in range(ab_regs):
        q = r % 4
        k, n = 2 * t + 8 * (q & 1), g + 8 * (q >> 1)
        w.append(B[k][n] | (B[k + 1][n] << 16))
    cc = [C[g + 8 * ((e >> 1) & 1)][2 * t + (e & 1) + 8 * (e >> 2)] for e in range(8)]
    if c16:
        w += [cc[2 * r] | (cc[2 * r + 1] << 16) for r in range(4)]
    else:
        w += cc
    return w


def product(A, B, C, tab, tc, out16, via32=False):
    D = [[0] * 16 for _ in range(16)]
    for m in range(16):
        for n in range(16):
            col = [B[k][n] for k in range(len(B))]
            if tab == "tf32":  # wmma m16n16k8 tf32: two sums of K = 4, the first rounded to f32 (docs/TENSOR.md)
                h = tm.mma_elem(A[m][:4], col[:4], tab, C[m][n], tc, False)
                D[m][n] = tm.mma_elem(A[m][4:], col[4:], tab, h, "f32", out16)
            elif via32:
                D[m][n] = tm.f32_to_f16(tm.mma_elem(A[m], col, tab, C[m][n], tc, False))
            else:
                D[m][n] = tm.mma_elem(A[m], col, tab, C[m][n], tc, out16)
    return D


def wmma_check(name, outdir, tiles, d_size, frag_per_lane, d_index):
    """tiles: per tile (A, B, C, D, ab_regs, c16); d_index(tile, m, n) -> element index in d."""
    dwords = words(os.path.join(outdir, "d.bin"))
    d = dwords if d_size == 4 else list(halves(open(os.path.join(outdir, "d.bin"), "rb").read()))
    want_d = list(d)
    for T, (A, B, C, D, abr, c16) in enumerate(tiles):
        for m in range(16):
            for n in range(16):
                want_d[d_index(T, m, n)] = D[m][n]
    ok = compare(f"{name}/d", d, want_d)
    got_f = words(os.path.join(outdir, "frag.bin"))
    want_f = []
    for T, (A, B, C, D, abr, c16) in enumerate(tiles):
        for L in range(32):
            want_f += frag_words(L, A, B, C, abr, c16, tf32=len(B) == 8)
    return compare(f"{name}/frag (the assumed layout)", got_f, want_f) and ok


@check("wmma_f16_f32")
def check_wmma_f16_f32(case, outdir):
    _, bufs = inputs(case)
    a, b = halves(bufs["a"]), halves(bufs["b"])
    c = struct.unpack("<2560I", bufs["c"])
    tiles = []
    for T in range(8):
        A = [[a[T * 384 + m * 24 + k] for k in range(16)] for m in range(16)]
        B = [[b[T * 256 + n * 16 + k] for n in range(16)] for k in range(16)]
        C = [[c[T * 320 + m * 20 + n] for n in range(16)] for m in range(16)]
        tiles.append((A, B, C, product(A, B, C, "f16", "f32", False), 8, False))
    return wmma_check("wmma_f16_f32", outdir, tiles, 4, 24, lambda T, m, n: T * 256 + m * 16 + n)


@check("wmma_f16_f16")
def check_wmma_f16_f16(case, outdir):
    _, bufs = inputs(case)
    a, b, c = halves(bufs["a"]), halves(bufs["b"]), halves(bufs["c"])
    tiles = []
    for T in range(8):
        A = [[a[T * 256 + k * 16 + m] for k in range(16)] for m in range(16)]
        B = [[b[T * 384 + k * 24 + n] for n in range(16)] for k in range(16)]
        C = [[c[T * 256 + n * 16 + m] for n in range(16)] for m in range(16)]
        tiles.append((A, B, C, product(A, B, C, "f16", "f16", True), 8, True))
    return wmma_check("wmma_f16_f16", outdir, tiles, 2, 20, lambda T, m, n: T * 384 + n * 24 + m)


@check("wmma_bf16")
def check_wmma_bf16(case, outdir):
    _, bufs = inputs(case)
    a, b = halves(bufs["a"]), halves(bufs["b"])
    c = struct.unpack("<2048I", bufs["c"])
    tiles = []
    for T in range(8):
        A = [[a[T * 256 + m * 16 + k] for k in range(16)] for m in range(16)]
        B = [[b[T * 384 + n * 24 + k] for n in range(16)] for k in range(16)]
        C = [[c[T * 256 + n * 16 + m] for n in range(16)] for m in range(16)]
        tiles.append((A, B, C, product(A, B, C, "bf16", "f32", False), 4, False))
    return wmma_check("wmma_bf16", outdir, tiles, 4, 16, lambda T, m, n: T * 256 + m * 16 + n)


@check("wmma_mixed")
def check_wmma_mixed(case, outdir):
    _, bufs = inputs(case)
    a, b, c16 = halves(bufs["a"]), halves(bufs["b"]), halves(bufs["c16"])
    c32 = struct.unpack("<2048I", bufs["c32"])
    want32, want16 = [], []
    for T in range(8):
        A = [[a[T * 256 + m * 16 + k] for k in range(16)] for m in range(16)]
        B = [[b[T * 256 + k * 16 + n] for n in range(16)] for k in range(16)]
        C16 = [[c16[T * 256 + m * 16 + n] for n in range(16)] for m in range(16)]
        C32 = [[c32[T * 256 + m * 16 + n] for n in range(16)] for m in range(16)]
        D32 = product(A, B, C16, "f16", "f16", False)
        D16 = product(A, B, C32, "f16", "f32", True, via32=True)
        want32 += [D32[m][n] for m in range(16) for n in range(16)]
        want16 += [D16[m][n] for m in range(16) for n in range(16)]
    ok = compare("wmma_mixed/d32", words(os.path.join(outdir, "d32.bin")), want32)
    return compare("wmma_mixed/d16", list(halves(open(os.path.join(outdir, "d16.bin"), "rb").read())), want16) and ok


@check("wmma_tf32")
def check_wmma_tf32(case, outdir):
    _, bufs = inputs(case)
    a, b = struct.unpack("<1024I", bufs["a"]), struct.unpack("<1024I", bufs["b"])
    c = struct.unpack("<2048I", bufs["c"])
    tiles = []
    for T in range(8):
        A = [[a[T * 128 + m * 8 + k] for k in range(8)] for m in range(16)]
        B = [[b[T * 128 + n * 8 + k] for n in range(16)] for k in range(8)]
        C = [[c[T * 256 + m * 16 + n] for n in range(16)] for m in range(16)]
        tiles.append((A, B, C, product(A, B, C, "tf32", "f32", False), 4, False))
    return wmma_check("wmma_tf32", outdir, tiles, 4, 16, lambda T, m, n: T * 256 + n * 16 + m)


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]  # one f32 rounding of a double sum of two f32 is exact RN


@check("cp_async_pipeline")
def check_pipeline(case, outdir):
    _, bufs = inputs(case)
    src = struct.unpack("<2560f", bufs["in"])
    tail = struct.unpack("<128f", bufs["tail"])
    want = []
    for blk in range(2):
        for t in range(128):
            acc = 0.0
            for k in range(5):
                v = src[(k * 128 + ((t + 1) & 127)) * 4:][:4]
                acc = f32(acc + f32(f32(f32(v[0] + v[1]) + v[2]) + v[3]))
            want.append(struct.unpack("<I", struct.pack("<f", f32(acc + (tail[t] if t < 100 else 0.0))))[0])
    return compare("cp_async_pipeline/out", words(os.path.join(outdir, "out.bin")), want)


@check("wmma_gemm_nvcc")
def check_wmma_gemm(case, outdir):
    """C = 0.5 (A B) through four chained f32 wmma steps, C16 = A B through four f16 steps (col-major)."""
    _, bufs = inputs(case)
    a, b = halves(bufs["a"]), halves(bufs["b"])
    M = N = 32
    K = 64
    want32, want16 = [0] * (M * N), [0] * (M * N)
    for m in range(M):
        for n in range(N):
            acc = acc16 = 0
            for ks in range(0, K, 16):
                av = [a[m * K + k] for k in range(ks, ks + 16)]
                bv = [b[n * K + k] for k in range(ks, ks + 16)]
                acc = tm.mma_elem(av, bv, "f16", acc, "f32", False)
                acc16 = tm.mma_elem(av, bv, "f16", acc16, "f16", True)
            assert acc == 0 or ((acc >> 23) & 255) > 1  # halving is then exact: one less in the exponent
            want32[m * N + n] = acc - (1 << 23) if acc & 0x7FFFFFFF else acc
            want16[n * M + m] = acc16
    ok = compare("wmma_gemm_nvcc/c", words(os.path.join(outdir, "c.bin")), want32)
    return compare("wmma_gemm_nvcc/d", list(halves(open(os.path.join(outdir, "d.bin"), "rb").read())), want16) and ok


@check("wmma_vs_mma")
def check_wmma_vs_mma(case, outdir):
    """dw (wmma) and dm (two mma.sync on the wmma fragments' registers) both equal the model's D, row-major."""
    _, bufs = inputs(case)
    a, b = halves(bufs["a"]), halves(bufs["b"])
    c = struct.unpack("<2048I", bufs["c"])
    want = []
    for T in range(8):
        A = [[a[T * 256 + m * 16 + k] for k in range(16)] for m in range(16)]
        B = [[b[T * 256 + n * 16 + k] for n in range(16)] for k in range(16)]
        C = [[c[T * 256 + m * 16 + n] for n in range(16)] for m in range(16)]
        D = product(A, B, C, "f16", "f32", False)
        want += [D[m][n] for m in range(16) for n in range(16)]
    ok = compare("wmma_vs_mma/dw", words(os.path.join(outdir, "dw.bin")), want)
    return compare("wmma_vs_mma/dm", words(os.path.join(outdir, "dm.bin")), want) and ok


@check("wmma_s8")
def check_wmma_s8(case, outdir):
    """Exact integer sums: wrapping, or clamped with .satfinite; C complemented in odd tiles."""
    _, bufs = inputs(case)
    sb = lambda buf: struct.unpack(f"<{len(buf)}b", buf)
    ubytes = lambda buf: struct.unpack(f"<{len(buf)}B", buf)
    a, b, ua, ub = sb(bufs["a"]), sb(bufs["b"]), ubytes(bufs["ua"]), ubytes(bufs["ub"])
    c = struct.unpack("<2048I", bufs["c"])
    wrap = lambda v: v & 0xFFFFFFFF
    sat = lambda v: max(-(1 << 31), min((1 << 31) - 1, v)) & 0xFFFFFFFF
    s32 = lambda v: v - (1 << 32) if v >> 31 else v
    want_d, want_f = [], []
    pack = lambda xs: sum((x & 0xFF) << (8 * j) for j, x in enumerate(xs))
    for T in range(8):
        A = [[a[T * 256 + m * 16 + k] for k in range(16)] for m in range(16)]
        B = [[b[T * 512 + n * 32 + k] for n in range(16)] for k in range(16)]
        UA = [[ua[T * 256 + m * 16 + k] for k in range(16)] for m in range(16)]
        UB = [[ub[T * 256 + k * 16 + n] for n in range(16)] for k in range(16)]
        C = [[c[T * 256 + m * 16 + n] for n in range(16)] for m in range(16)]
        Cm = [[s32(C[m][n] ^ 0xFFFFFFFF if T & 1 else C[m][n]) for n in range(16)] for m in range(16)]
        dot = lambda X, Y, m, n: sum(X[m][k] * Y[k][n] for k in range(16))
        want_d += [sat(dot(A, B, m, n) + Cm[m][n]) for m in range(16) for n in range(16)]
        want_d += [wrap(dot(A, B, m, n) + Cm[m][n]) for m in range(16) for n in range(16)]
        want_d += [wrap(dot(UA, UB, m, n) + Cm[m][n]) for n in range(16) for m in range(16)]
        for L in range(32):
            g, t = L >> 2, L & 3
            want_f += [pack(A[g + 8 * r][4 * t:4 * t + 4]) for r in range(2)]
            want_f += [pack([B[4 * t + j][g + 8 * r] for j in range(4)]) for r in range(2)]
            want_f += [C[g + 8 * ((e >> 1) & 1)][2 * t + (e & 1) + 8 * (e >> 2)] for e in range(8)]
    ok = compare("wmma_s8/d", words(os.path.join(outdir, "d.bin")), want_d)
    return compare("wmma_s8/frag (the assumed layout)", words(os.path.join(outdir, "frag.bin")), want_f) and ok


def tf32_rna(x):
    """cvt.rna.tf32.f32 on the bits of a finite input (ties away from zero, low 13 bits cleared)."""
    return (x + 0x1000) & 0xFFFFE000


@check("wmma_tf32_nvcc")
def check_wmma_tf32_nvcc(case, outdir):
    """C (column-major, ld 32) = A B over K = 32 in four wmma tf32 steps (eight sums of K = 4), fragments rounded by
    cvt.rna.tf32.f32."""
    _, bufs = inputs(case)
    a, b = struct.unpack("<512I", bufs["a"]), struct.unpack("<512I", bufs["b"])
    want = [0] * 512
    for m in range(16):
        for n in range(16):
            acc = 0
            for ks in range(0, 32, 4):  # each wmma k8 step is two tensor-core sums of K = 4 (docs/TENSOR.md)
                av = [tf32_rna(a[m * 32 + k]) for k in range(ks, ks + 4)]
                bv = [tf32_rna(b[n * 32 + k]) for k in range(ks, ks + 4)]
                acc = tm.mma_elem(av, bv, "tf32", acc, "f32", False)
            want[n * 32 + m] = acc
    return compare("wmma_tf32_nvcc/c", words(os.path.join(outdir, "c.bin")), want)


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    bin_ = sys.argv[1]
    cases = sys.argv[2:] or [os.path.join(ROOT, "ptx_corpus", "tensor", n) for n in CHECKS]
    ok = True
    with tempfile.TemporaryDirectory() as out:
        for case in cases:
            name = os.path.basename(case.rstrip("/"))
            if name not in CHECKS:
                print(f"skip {name}: no model here")
                continue
            ok &= CHECKS[name](case, run_case(bin_, case, out))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Writes the input files of the rrlite K output cases (k_output: 320x180 -> 640x360, k_output_720p:
640x360 -> 1280x720). Pure Python (no numpy), deterministic: the same bytes on every run and machine
(struct's f16 packing rounds to nearest even).

usage: ptx_corpus/rrlite/make_inputs.py            (writes k_output/inputs/*.bin and k_output_720p/inputs/*.bin)

One synthetic scene, evaluated at two times (previous frame t = 0, current frame t = 1) and at each texture's
resolution: a sky gradient with a very bright sun (luma above 1000, the logarithmic branch of the range
compression), a checkered ground plane whose depth grows towards the camera, and three objects in front of it
(a disc, a striped panel, a small bright lamp), each with its own motion, so that depth and motion are
discontinuous at object edges. The camera pans slowly. Textures:

  color.bin    render colour, linear HDR RGB + alpha (rgba16f), current frame, sampled with the jitter
  motion.bin   render-resolution motion in render pixels, current minus previous position (rg16f)
  depth.bin    inverted depth (reverse Z: 0 far, larger is closer) (r32f)
  history.bin  previous output colour as the kernel stores it: exposed, range-compressed YCoCg + a confidence
               in [0.05, 0.5] (rgba16f, output resolution)
  hires.bin    previous hi-res luma (2x output resolution), compressed and encoded as the kernel stores it
               (values >= .99 stretched by 1000) (r16f)
  lut.bin      2048 16-byte kernel entries (see make_lut)

The network head buffer and the 720p case's hi-res history come from the case format's own random generator
(case.json), which keeps the files small; see README.md.
"""
import math
import os
import struct
import sys

JITTER = (0.1875, -0.3125)  # render-sample offset; P16 = JITTER - 0.5 in case.json
EXPOSURE = 1.0625           # f1 of the kernel for the parameters in case.json (P168 * P160 * tex256)

# Objects: (kind, centre at t=0, velocity per frame (uv), size, rgb, alpha, inverted depth)
OBJECTS = [
    ("disc", (0.30, 0.58), (0.012, -0.004), 0.13, (0.85, 0.22, 0.08), 1.0, 0.50),
    ("panel", (0.64, 0.50), (-0.007, 0.005), (0.10, 0.19), (0.10, 0.55, 0.95), 0.75, 0.34),
    ("lamp", (0.47, 0.24), (0.002, 0.0), 0.022, (40.0, 34.0, 22.0), 1.0, 0.62),
]
PAN = (0.004, -0.0025)  # background motion per frame (uv)
SUN = ((0.83, 0.16), 0.012, (3400.0, 3000.0, 2300.0))  # centre, radius, rgb (in the sky, moves with the pan)
HORIZON = 0.42
ASPECT = 16.0 / 9.0


def smoothstep(e0, e1, x):
    t = min(max((x - e0) / (e1 - e0), 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


def object_at(u, v, t):
    """The front-most object covering (u, v) at time t, as (index, local u, local v), or None."""
    best = None
    for k, (kind, c, vel, size, _, _, depth) in enumerate(OBJECTS):
        ox, oy = c[0] + vel[0] * t, c[1] + vel[1] * t
        du, dv = (u - ox) * ASPECT, v - oy
        if kind == "panel":
            inside = abs(du) < size[0] * ASPECT and abs(dv) < size[1]
        else:
            inside = du * du + dv * dv < size * size
        if inside and (best is None or depth > OBJECTS[best[0]][6]):
            best = (k, du, dv)
    return best


def scene(u, v, t):
    """(r, g, b, alpha, inverted depth, motion u, motion v) of the scene at uv (u, v) and time t."""
    hit = object_at(u, v, t)
    if hit is not None:
        k, du, dv = hit
        kind, _, vel, size, rgb, alpha, depth = OBJECTS[k]
        if kind == "disc":  # lit from the upper left, with a soft specular spot
            shade = 0.35 + 0.9 * max(0.0, 1.0 - math.hypot(du + 0.05, dv + 0.05) / size)
            spec = 14.0 * smoothstep(0.035, 0.0, math.hypot(du + 0.04, dv + 0.05))
            col = [c * shade + spec for c in rgb]
        elif kind == "panel":  # stripes with sharp edges
            stripe = 1.0 if math.sin(dv * 90.0 + du * 30.0) > 0.0 else 0.35
            col = [c * stripe for c in rgb]
        else:
            col = list(rgb)
        return col[0], col[1], col[2], alpha, depth + 0.05 * dv, vel[0], vel[1]
    # Background: moves with the camera pan; sample it in world coordinates.
    wu, wv = u - PAN[0] * t, v - PAN[1] * t
    if wv < HORIZON:
        h = wv / HORIZON
        col = [0.9 + 2.6 * (1.0 - h), 1.6 + 2.9 * (1.0 - h), 3.2 + 2.8 * (1.0 - h)]
        (su, sv), sr, srgb = SUN
        d = math.hypot((wu - su) * ASPECT, wv - sv)
        if d < sr:
            col = list(srgb)
        elif d < 4.0 * sr:  # halo
            g = 60.0 * (1.0 - (d - sr) / (3.0 * sr)) ** 2
            col = [c + g for c in col]
        return col[0], col[1], col[2], 1.0, 0.0, PAN[0], PAN[1]
    g = (wv - HORIZON) / (1.0 - HORIZON)  # 0 at the horizon, 1 at the bottom
    z = 0.04 + 0.46 * g
    cu, cv = wu * 12.0 / (0.25 + g), 1.0 / (0.06 + g)  # perspective checkers
    check = 1.0 if (math.floor(cu) + math.floor(cv * 3.0)) % 2 == 0 else 0.55
    base = 0.25 + 0.35 * g
    col = [base * check * 1.1, base * check * 0.9, base * check * 0.6]
    return col[0], col[1], col[2], 1.0, z, PAN[0], PAN[1]


def compress(L):
    """L * k(L) of the kernel, in double precision (inputs only need to be plausible)."""
    if L < 1000.0:
        return L / (L + 1.0)
    return math.log(9.0 * L + 1.0) / 9.0 - 0.012676


def ycocg_compressed(r, g, b):
    r, g, b = max(r, 0.0), max(g, 0.0), max(b, 0.0)
    y = 0.25 * r + 0.5 * g + 0.25 * b
    co = 0.5 * r - 0.5 * b
    cg = 0.5 * g - 0.25 * r - 0.25 * b
    L = EXPOSURE * y
    k = compress(L) / L if L > 0.0 else 1.0
    return compress(L), EXPOSURE * co * k, EXPOSURE * cg * k


def f16(v):
    return struct.pack("<e", max(min(v, 65504.0), -65504.0))


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    print(f"{os.path.relpath(path)}: {len(data)} bytes")


def render_inputs(w, h):
    """Render-resolution colour, motion (render pixels) and depth of the current frame."""
    color, motion, depth = bytearray(), bytearray(), bytearray()
    for j in range(h):
        v = (j + 0.5 - JITTER[1]) / h
        for i in range(w):
            u = (i + 0.5 - JITTER[0]) / w
            r, g, b, a, z, mu, mv = scene(u, v, 1.0)
            color += f16(r) + f16(g) + f16(b) + f16(a)
            motion += f16(mu * w) + f16(mv * h)
            depth += struct.pack("<f", z)
    return bytes(color), bytes(motion), bytes(depth)


def history_inputs(w, h):
    """Previous frame at output resolution (w, h): compressed YCoCg + confidence, and hi-res luma at 2x."""
    hist = bytearray()
    for j in range(h):
        v = (j + 0.5) / h
        for i in range(w):
            u = (i + 0.5) / w
            r, g, b, _, z, _, _ = scene(u, v, 0.0)
            y, co, cg = ycocg_compressed(r, g, b)
            conf = 0.275 + 0.225 * math.sin(6.0 * u + 4.0 * v) * math.cos(5.0 * v - 2.0 * u + z)
            hist += f16(y) + f16(co) + f16(cg) + f16(conf)
    hires = bytearray()
    for j in range(2 * h):
        v = (j + 0.5) / (2 * h)
        for i in range(2 * w):
            u = (i + 0.5) / (2 * w)
            y = ycocg_compressed(*scene(u, v, 0.0)[:3])[0]
            hires += f16(y if y < 0.99 else 0.99 + (y - 0.99) * 1000.0)
    return bytes(hist), bytes(hires)


def make_lut():
    """2048 entries, index = flags << 8 | i0 << 4 | i1 (flags = quad << 2 | A << 1 | B; i0, i1 the quantised
    orientation m0, m1 = (i - 8) / 8). Entry words: e0 | e1 << 16, e2 | e3 << 16, e4 | e5 << 16, e6 (f16 except
    e4, a u16 orientation). The Gaussian exp2(e0 dA^2 + e2 dA dB + e1 dB^2) is negative definite (|e2| < 2
    sqrt(e0 e1)); entries with the quad flag are sharp enough that far sub-pixels fall back to the nearest tap
    (largest exponent < -12); the slope e3 stays within +-0.75 so the taps stay inside the shared tile."""
    out = bytearray()
    for idx in range(2048):
        flags, i0, i1 = idx >> 8, (idx >> 4) & 15, idx & 15
        m0, m1 = (i0 - 8) / 8.0, (i1 - 8) / 8.0
        sharp = (40.0 if flags & 4 else 1.0) * (1.5 if flags & 2 else 1.0) * (1.25 if flags & 1 else 1.0)
        e0 = -(0.6 + 1.4 * abs(m0)) * sharp
        e1 = -(0.6 + 1.4 * abs(m1)) * sharp
        e2 = 1.2 * math.sqrt(e0 * e1) * (m0 * m1 if m0 * m1 != 0.0 else 0.1 * math.sin(idx))
        e3 = max(-0.75, min(0.75, 1.5 * m0 * m1 - 0.2 * (m0 - m1)))
        e4 = 1 if abs(m0) >= abs(m1) else 0
        e5 = 0.6 + 0.4 * abs(math.sin(0.37 * idx))
        e6 = 0.2 * abs(math.cos(0.23 * idx))
        out += f16(e0) + f16(e1) + f16(e2) + f16(e3) + struct.pack("<H", e4) + f16(e5) + f16(e6) + b"\0\0"
    return bytes(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    small = os.path.join(here, "k_output", "inputs")
    big = os.path.join(here, "k_output_720p", "inputs")
    write(os.path.join(small, "lut.bin"), make_lut())
    for folder, (w, h) in ((small, (320, 180)), (big, (640, 360))):
        color, motion, depth = render_inputs(w, h)
        write(os.path.join(folder, "color.bin"), color)
        write(os.path.join(folder, "motion.bin"), motion)
        write(os.path.join(folder, "depth.bin"), depth)
    # History at output resolution for k_output only; k_output_720p reads the same file (see README.md).
    hist, hires = history_inputs(640, 360)
    write(os.path.join(small, "history.bin"), hist)
    write(os.path.join(small, "hires.bin"), hires)
    return 0


if __name__ == "__main__":
    sys.exit(main())

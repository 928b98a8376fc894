#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast"): one guard per straight-line region instead of one per f32 operation.

Reads a translated kernel's exact GLSL (generated/<suite>/<case>/<kernel>.comp) and rewrites the body of its
innermost `for (;;)` loop, the statements between `p2g_loop_tick();` and the loop counter's update, into

    saved live-ins; p2g_ok = live-ins are not subnormal;
    the statements with p2g_fmul/p2g_ffma/p2g_fadd/p2g_fsub replaced by the device's operation, each result tested
      once (|r| > 2^-126, false for zeros, flushed results and NaN: p2g_ok = false);
    if (!p2g_ok) { live-ins restored; the original statements again (every declaration an assignment) }

On a device whose f32 operations are IEEE's for normal operands and normal results (NVIDIA: FADD/FMUL/FFMA, with
the fused-fma fact), the fast region gives the exact bytes whenever p2g_ok holds, and the original statements run
otherwise: exact by construction. `--native-minmax` also uses the device's min()/max() and a plain negation inside
the fast region (NaN already fails the test; min/max of non-NaN values are then FMNMX's, which is ptxas's
lowering of min.f32/max.f32 too: to be shown by the outputs).

`--loop` writes the statements once instead, inside `for (int p2g_pass = 0; p2g_pass < 2; ++p2g_pass)`: the
helpers p2g_fadd/p2g_fmul/p2g_ffma (and with --native-minmax p2g_fmin/p2g_fmax) take the device's operation while
p2g_fast holds (the first pass) and their exact path in the second, which runs only when p2g_ok failed. Whether
the driver unrolls the two passes into the code above is what the A/B run shows.

usage: region_guard_variant.py IN.comp OUT.comp --live NAME,NAME,... [--native-minmax] [--loop]
Run with `ptx2glsl run CASE --glsl OUT.comp --device nvidia --repeat N`.
"""
import re
import sys


def main():
    args = sys.argv[1:]
    if len(args) < 4 or args[2] != "--live":
        sys.exit(__doc__)
    src, dst, live = args[0], args[1], args[3].split(",")
    native_mm = "--native-minmax" in args
    lines = open(src).read().split("\n")
    start = max(i for i, l in enumerate(lines) if l.strip() == "p2g_loop_tick();")
    end = next(i for i in range(start, len(lines)) if re.match(r"\s*r\d+ = uint\(int\(r\d+\) \+ 1\);", lines[i]))
    body = [l for l in lines[start + 1:end] if not l.strip().startswith("//")]
    ind = re.match(r"\s*", lines[start]).group(0)

    def fast(l):
        for f in ("p2g_fmul", "p2g_ffma", "p2g_fadd", "p2g_fsub"):
            l = l.replace(f + "(", f + "_s(")
        if native_mm:
            l = l.replace("p2g_fmin(", "min(").replace("p2g_fmax(", "max(")
            l = re.sub(r"p2g_canon\(uintBitsToFloat\(floatBitsToUint\((\w+)\) \^ 0x80000000u\)\)", r"(-\1)", l)
        return l

    if "--loop" in args:  # one copy of the statements in a loop of at most two passes (see the docstring)
        save = [ind + "precise float " + ", ".join("s_%s = %s" % (v, v) for v in live) + ";"]
        out = [ind + "// region guard, one copy (tests/experiments/region_guard_variant.py --loop)"] + save
        out.append(ind + "for (int p2g_pass = 0; p2g_pass < 2; ++p2g_pass) {")
        out.append(ind + "  p2g_fast = p2g_pass == 0;")
        out.append(ind + "  p2g_ok = !p2g_fast || (" + " && ".join("p2g_ok_in(%s)" % v for v in live) + ");")
        out.append(ind + "  if (!p2g_fast) { " + " ".join("%s = s_%s;" % (v, v) for v in live) + " }")
        out += ["  " + l for l in body]
        out.append(ind + "  if (p2g_ok) break;")
        out.append(ind + "}")
        lines[start + 1:end] = out
        text = "\n".join(lines)
        fast = {
            "p2g_fadd": "precise float r = a + b;",
            "p2g_fmul": "precise float r = a * b;",
            "p2g_ffma": "precise float r = fma(a, b, c);",
        }
        for name, op in fast.items():
            m = re.search(r"^float " + name + r"\((.*?)\) \{\n", text, re.M)
            if not m:
                sys.exit("no " + name)
            guard = "  if (p2g_fast) { %s p2g_ok = p2g_ok && p2g_normal(r); return r; }\n" % op
            if name == "p2g_ffma":
                guard = guard.replace("if (p2g_fast)", "if (p2g_fast && mode == 0)")
            text = text[:m.end()] + guard + text[m.end():]
        if native_mm:
            for name, op in (("p2g_fmin", "min"), ("p2g_fmax", "max")):
                m = re.search(r"^float " + name + r"\((.*?)\) \{\n", text, re.M)
                text = text[:m.end()] + "  if (p2g_fast) return %s(x, y);\n" % op + text[m.end():]
        helpers = """// region guard helpers (tests/experiments/region_guard_variant.py --loop)
bool p2g_ok = true, p2g_fast = false;
bool p2g_ok_in(float x) { uint u = floatBitsToUint(x) & 0x7FFFFFFFu; return u == 0u || (u >= 0x00800000u && u < 0x7F800000u); }
bool p2g_normal(float r) { return abs(r) > 1.17549435e-38; }
"""
        first = re.search(r"^float p2g_canon", text, re.M)
        text = text[:first.start()] + helpers + text[first.start():]
        open(dst, "w").write(text)
        return

    redo = [re.sub(r"^(\s*)precise float (\w+) =", r"\1\2 =", l) for l in body]
    out = [ind + "// region guard (tests/experiments/region_guard_variant.py)"]
    out.append(ind + "precise float " + ", ".join("s_%s = %s" % (v, v) for v in live) + ";")
    out.append(ind + "p2g_ok = " + " && ".join("p2g_not_dn(%s)" % v for v in live) + ";")
    out += [fast(l) for l in body]
    out.append(ind + "if (!p2g_ok) {")
    out += [ind + "  %s = s_%s;" % (v, v) for v in live]
    out += ["  " + l for l in redo]
    out.append(ind + "}")
    lines[start + 1:end] = out

    helpers = """
// region guard helpers: the device's operation, its result tested once (tests/experiments/region_guard_variant.py)
bool p2g_ok = true;
bool p2g_not_dn(float x) { uint u = floatBitsToUint(x); return (u & 0x7F800000u) != 0u || (u << 1) == 0u; }
bool p2g_normal(float r) { return abs(r) > 1.17549435e-38; }
float p2g_fmul_s(float a, float b, bool ftz) { precise float r = a * b; p2g_ok = p2g_ok && p2g_normal(r); return r; }
float p2g_fadd_s(float a, float b, bool ftz) { precise float r = a + b; p2g_ok = p2g_ok && p2g_normal(r); return r; }
float p2g_fsub_s(float a, float b, bool ftz) { precise float r = a - b; p2g_ok = p2g_ok && p2g_normal(r); return r; }
float p2g_ffma_s(float a, float b, float c, int mode, bool ftz) {
  precise float r = fma(a, b, c);
  p2g_ok = p2g_ok && p2g_normal(r);
  return r;
}
"""
    main_at = next(i for i, l in enumerate(lines) if l.startswith("void main()"))
    lines[main_at:main_at] = helpers.strip("\n").split("\n") + [""]
    open(dst, "w").write("\n".join(lines))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast"): packed f16 add/sub/mul/fma by the device's own f16 arithmetic.

Rewrites the bodies of p2g_hadd2/p2g_hsub2/p2g_hmul2/p2g_hfma2 (and the scalar p2g_hadd/hsub/hmul/hfma) of a
translated kernel's GLSL into f16vec2 arithmetic (GL_EXT_shader_explicit_arithmetic_types_float16: the Float16
capability, which the module every device runs cannot declare) with precise results, f16 subnormals kept by
DenormPreserve 16 (GL_EXT_spirv_intrinsics) and NaN results made 0x7FFF per lane. It measures what native f16
would buy on a device with shaderFloat16 and shaderDenormPreserveFloat16 (NVIDIA); exactness is shown by the
outputs against expected/.

usage: f16_native_variant.py IN.comp OUT.comp
"""
import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    text = open(sys.argv[1]).read()
    ext = ("#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n"
           "#extension GL_EXT_spirv_intrinsics : require\n"
           "spirv_execution_mode(4459, 16);  // DenormPreserve 16\n")
    text = text.replace("#extension GL_EXT_buffer_reference : require\n",
                        "#extension GL_EXT_buffer_reference : require\n" + ext, 1)
    canon = ("uint p2g_hcanon2(f16vec2 r) {\n  uint w = packFloat2x16(r);\n"
             "  if (((w & 0x7FFFu) > 0x7C00u)) w = (w & 0xFFFF0000u) | 0x7FFFu;\n"
             "  if (((w >> 16) & 0x7FFFu) > 0x7C00u) w = (w & 0xFFFFu) | 0x7FFF0000u;\n  return w;\n}\n")
    defs = {
        "p2g_hadd2": "uint p2g_hadd2(uint a, uint b) { precise f16vec2 r = unpackFloat2x16(a) + unpackFloat2x16(b); return p2g_hcanon2(r); }",
        "p2g_hsub2": "uint p2g_hsub2(uint a, uint b) { precise f16vec2 r = unpackFloat2x16(a) - unpackFloat2x16(b); return p2g_hcanon2(r); }",
        "p2g_hmul2": "uint p2g_hmul2(uint a, uint b) { precise f16vec2 r = unpackFloat2x16(a) * unpackFloat2x16(b); return p2g_hcanon2(r); }",
        "p2g_hfma2": "uint p2g_hfma2(uint a, uint b, uint c) {\n  precise f16vec2 r = fma(unpackFloat2x16(a), unpackFloat2x16(b), unpackFloat2x16(c));\n  return p2g_hcanon2(r);\n}",
    }
    for name, body in defs.items():
        pat = re.compile(r"^uint " + name + r"\(.*?\n(?=\S)", re.S | re.M)
        m = pat.search(text)
        if not m:
            sys.exit("no %s in %s" % (name, sys.argv[1]))
        text = text[:m.start()] + (canon if name == "p2g_hadd2" else "") + body + "\n" + text[m.end():]
    open(sys.argv[2], "w").write(text)


if __name__ == "__main__":
    main()

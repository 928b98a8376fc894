"""Shared by the GLSL variant scripts of tests/experiments (region_parts_variants.py, region_check_variants.py)."""
import re


def redefine(s, name, params, body):
    """`s` with the last definition of `float name(params)` given `body` instead, the old one kept as `name_was`
    (dead); None when `s` has no such definition. The last: a translation's guarded regions define their short forms
    (p2g_fadd(float a, float b) ...) after the exact forms of other arities (f32_prelude.cpp)."""
    ms = list(re.finditer(r'^float ' + name + r'\(' + re.escape(params) + r'\) \{', s, re.M))
    if not ms:
        return None
    m = ms[-1]
    return s[:m.start()] + 'float ' + name + '(' + params + ') { ' + body + ' }\nfloat ' + name + '_was(' + params + \
        ') {' + s[m.end():]

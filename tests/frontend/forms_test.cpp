// The instruction table (translator/emit/table.cpp) against its handlers: the table is well formed, and every form
// it declares translates. For each line, every alternative of every modifier slot is tried once (the other slots at
// their first alternative, optional ones left out) in one kernel per line, with operands made from the line's
// operand pattern; the kernel must translate to GLSL and validated SPIR-V without an error. So a line cannot promise
// a modifier its handler refuses, and the check (forms.cpp) refuses the probes of a few forms the table leaves out.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "forms.h"
#include "parser.h"
#include "translate.h"

using namespace p2g;

namespace {

std::vector<std::string> words(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep || c == ' ') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

struct Slot {
  std::vector<std::string> alts;
  bool optional = false;
  int group = -1;
};

std::map<std::string, std::vector<std::string>> classes() {
  std::map<std::string, std::vector<std::string>> m;
  for (auto& c : formClasses()) m[std::string(c.name)] = words(c.members, ' ');
  return m;
}

// The line's modifier slots (the pattern language of forms.h, read independently of forms.cpp).
std::vector<Slot> slotsOf(const FormLine& l) {
  static const auto cls = classes();
  std::vector<Slot> v;
  int group = -1, groups = 0;
  for (std::string t : words(l.mods, ' ')) {
    Slot s;
    if (t[0] == '[') group = groups++, t = t.substr(1);
    bool close = t.back() == ']';
    if (close) t.pop_back();
    if (t.back() == '?') s.optional = true, t.pop_back();
    s.group = group;
    if (group >= 0) s.optional = true;
    if (t[0] == '$') s.alts = cls.at(t.substr(1));
    else if (t.rfind(".{", 0) == 0) s.alts = words(t.substr(2, t.size() - 3), ',');
    else s.alts = {t.substr(1)};
    v.push_back(s);
    if (close) group = -1;
  }
  return v;
}

bool isType(const std::string& m) {
  static const std::set<std::string> k = {"b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64", "s8", "s16", "s32",
                                          "s64", "f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "pred", "e4m3x2",
                                          "e5m2x2"};
  return k.count(m) > 0;
}
unsigned bitsOf(const std::string& t) {
  if (t == "pred") return 1;
  if (t == "f16x2" || t == "bf16x2") return 32;
  if (t == "f16" || t == "bf16" || t == "e4m3x2" || t == "e5m2x2") return 16;
  if (t == "f32") return 32;
  if (t == "f64") return 64;
  return unsigned(std::stoul(t.substr(1)));
}

// A register of `bits` for type `t` (f32 and f64 values in float registers, the rest in bit registers).
std::string reg(unsigned bits, const std::string& t, int n) {
  if (t == "f32" && bits == 32) return "%f" + std::to_string(n);
  if (t == "f64" && bits == 64) return "%fd" + std::to_string(n);
  const char* p = bits <= 8 ? "%c" : bits == 16 ? "%h" : bits == 32 ? "%r" : "%d";
  return p + std::to_string(n);
}

struct Variant {
  std::vector<std::string> mods;  // in pattern order
};

// One instruction of the line with these modifiers; `k` names its private shared variable.
std::string instruction(const FormLine& l, const Variant& v, int k) {
  std::vector<std::string> types;
  std::set<std::string> has;
  for (auto& m : v.mods) {
    if (isType(m)) types.push_back(m);
    has.insert(m);
  }
  std::string T = types.empty() ? "b32" : types.back();
  std::string T0 = types.empty() ? T : types[0], T1 = types.size() > 1 ? types[1] : T;
  std::string T2 = types.size() > 2 ? types[2] : T;
  unsigned vec = has.count("v2") ? 2 : has.count("v4") ? 4 : has.count("v8") ? 8 : 1;
  std::string space = has.count("global") ? "global" : has.count("shared") ? "shared" : has.count("local") ? "local" :
                      has.count("const") ? "const" : has.count("param") ? "param" : "";
  std::string op(l.op);
  bool image = op == "tex" || op == "tld4" || op == "txq" || op == "suq" || op == "suld" || op == "sust";
  std::string geom = has.count("1d") ? "1d" : has.count("3d") ? "3d" : has.count("a1d") ? "a1d" : has.count("a2d") ? "a2d" : "2d";
  std::vector<std::string> ops;
  int n = 1, imms = 0;
  for (std::string tok : words(l.operands, ',')) {
    size_t at = tok.find('@');
    if (at != std::string::npos) {
      std::string c = tok.substr(at + 1);
      static const auto cls = classes();
      bool present = has.count(c) > 0;
      if (auto it = cls.find(c); it != cls.end())
        for (auto& m : it->second) present = present || has.count(m) > 0;
      if (!present) continue;
      tok = tok.substr(0, at);
    }
    if (tok.back() == '+') tok.pop_back();
    char kind = tok[0];
    std::string w = tok.size() > 2 ? tok.substr(2) : "T";
    std::string wt = w == "T0" ? T0 : w == "T1" ? T1 : w == "T2" ? T2 : T;
    unsigned bits = w == "2T" ? 2 * bitsOf(T) : (w == "8" || w == "16" || w == "32" || w == "64") ? unsigned(std::stoul(w)) : bitsOf(wt);
    if (w == "32" || w == "64" || w == "2T") wt = "b" + std::to_string(bits);
    switch (kind) {
      case 'd': case 'a': case 'e': ops.push_back(reg(bits, wt, n++)); break;
      case 'i':  // a barrier's second immediate is its thread count (a positive multiple of 32); cp.async's size
        ops.push_back(op == "lop3"                                        ? "0x96"
                      : (op == "bar" || op == "barrier") && ++imms == 2    ? "32"
                      : op == "cp" && has.count("global")                  ? "16"
                                                                           : "0");
        break;
      case 'q': case 'Q': ops.push_back("%p1"); break;
      case 'p': ops.push_back("%p2"); break;
      case 'R': ops.push_back("%p1|%p3"); break;
      case 'E': ops.push_back(reg(bits, wt, n++) + "|%p1"); break;
      case 'm':
        if (op == "cp" && ops.size() == 1) ops.push_back("[%d7]");  // cp.async's source is global
        else if (space == "shared" || has.count("shared::cta")) ops.push_back("[sm" + std::to_string(k) + "]");
        else if (space == "local") ops.push_back("[lv]");
        else if (space == "const") ops.push_back("[cv]");
        else if (space == "param") ops.push_back(op == "ld" ? "[k_p]" : "[pv]");
        else ops.push_back("[%d7]");
        break;
      case 'x': {
        if (op == "txq" || op == "suq") {
          ops.push_back("[%d6]");
          break;
        }
        bool f = op != "suld" && op != "sust" && T1 == "f32";
        size_t nc = geom == "1d" ? 1 : geom == "2d" || geom == "a1d" ? 2 : 4;
        std::string c = "{";
        for (size_t i = 0; i < nc; ++i) c += std::string(i ? ", " : "") + (f ? "%f1" : "%r1");
        ops.push_back("[%d6, " + c + "}]");
        break;
      }
      case 'w':
      case 'D':
        if (op == "mma") {  // fragment registers: d and c 2 (f16 D) or 4, a 4 (2 for m16n8k8 f16), b 2 (1)
          bool k8h = has.count("m16n8k8") && T1 == "f16";
          size_t idx = ops.size();
          size_t cnt = idx == 0 || idx == 3 ? (T0 == "f16" ? 2 : 4) : idx == 1 ? (k8h ? 2 : 4) : (k8h ? 1 : 2);
          std::string s = "{";
          for (size_t i = 0; i < cnt; ++i) s += std::string(i ? ", " : "") + "%r" + std::to_string(i + 1);
          ops.push_back(s + "}");
        } else if (op == "ldmatrix" || op == "stmatrix" || op == "wmma") {
          // ldmatrix/stmatrix: one register a matrix; wmma (emit_tensor.cpp): f16 A/B 8, bf16 A/B 4, f32 C/D 8,
          // f16 C/D 4 (the operand's fragment: d, a, b, c for mma; the loaded or stored one otherwise)
          size_t idx = ops.size(), cnt = has.count("x4") ? 4 : has.count("x2") ? 2 : 1;
          if (op == "wmma") {
            bool mmaOp = has.count("mma") > 0;
            std::string ab16 = has.count("bf16") ? "bf16" : has.count("tf32") ? "tf32" :
                               has.count("s8") || has.count("u8") ? "s8" : "f16";
            std::string ft = mmaOp ? (idx == 0 ? T0 : idx == 3 ? T : ab16) : T;
            bool ab = mmaOp ? (idx == 1 || idx == 2) : (has.count("a") || has.count("b"));
            cnt = ab ? (ft == "f16" ? 8 : ft == "s8" || ft == "u8" ? 2 : 4) : (ft == "f32" || ft == "s32" ? 8 : 4);
          }
          std::string s = "{";
          for (size_t i = 0; i < cnt; ++i) s += std::string(i ? ", " : "") + "%r" + std::to_string(i + 1);
          ops.push_back(s + "}");
        } else {
          ops.push_back("{%f1, %f2}");
        }
        break;
      case 'V': case 'v': {
        std::string e = image && op != "suld" && op != "sust" ? (T0 == "f32" ? "%f" : "%r") : "";
        std::string s = "{";
        for (unsigned i = 0; i < (op == "tex" || op == "tld4" ? 4 : vec); ++i)
          s += std::string(i ? ", " : "") + (e.empty() ? reg(bits < 16 ? 16 : bits, T, int(i) + 1) : e + std::to_string(i + 1));
        ops.push_back(vec == 1 && !image ? reg(bits < 16 ? 16 : bits, T, 1) : s + "}");
        break;
      }
      case 'U': case 'P': {
        unsigned part = bitsOf(T) / 2;
        std::string s = "{" + reg(part, "b", 1) + ", " + reg(part, "b", 2) + "}";
        ops.push_back(s);
        break;
      }
      default: break;
    }
  }
  // a scalar video instruction with c and no secondary operation merges into a byte or half of d: `d.h0`
  bool video = op == "vadd" || op == "vsub" || op == "vabsdiff" || op == "vmin" || op == "vmax" || op == "vshl" ||
               op == "vshr" || op == "vset";
  if (video && ops.size() == 4 && !has.count("add") && !has.count("min") && !has.count("max")) ops[0] += ".h0";
  std::string text = "\t" + op;
  for (auto& m : v.mods) text += "." + m;
  for (size_t i = 0; i < ops.size(); ++i) text += (i ? ", " : " ") + ops[i];
  return text + ";\n";
}

std::vector<Variant> variants(const FormLine& l) {
  std::vector<Slot> slots = slotsOf(l);
  auto build = [&](int slot, size_t alt) {
    Variant v;
    std::set<int> groupOn;
    if (slot >= 0 && slots[size_t(slot)].group >= 0) groupOn.insert(slots[size_t(slot)].group);
    for (size_t s = 0; s < slots.size(); ++s) {
      bool on = !slots[s].optional || int(s) == slot || (slots[s].group >= 0 && groupOn.count(slots[s].group));
      if (on) v.mods.push_back(int(s) == slot ? slots[s].alts[alt] : slots[s].alts[0]);
    }
    return v;
  };
  std::vector<Variant> out{build(-1, 0)};
  for (size_t s = 0; s < slots.size(); ++s)
    for (size_t a = 0; a < slots[s].alts.size(); ++a) out.push_back(build(int(s), a));
  return out;
}

struct Translated {
  bool ok;
  std::string diags;
};

Translated translate(const std::string& text) {
  ptx::SourceManager sm;
  int buf = sm.add("probe.ptx", text);
  ptx::DiagEngine diags(sm);
  std::vector<EntryResult> res;
  TranslateOptions opt;
  bool ok = translateBuffer(sm, buf, opt, diags, res);
  return {ok, diags.formatAll()};
}

std::string kernel(const std::string& body, int sharedVars) {
  std::string s = ".version 8.7\n.target sm_90\n.address_size 64\n";
  s += ".const .align 8 .b8 cv[64];\n";
  s += ".visible .entry k(.param .u64 k_p, .param .u64 k_t)\n{\n";
  s += "\t.reg .pred %p<4>; .reg .b8 %c<4>; .reg .b16 %h<16>; .reg .b32 %r<16>; .reg .b64 %d<16>;\n";
  s += "\t.reg .f32 %f<16>; .reg .f64 %fd<16>;\n";
  s += "\t.local .align 8 .b8 lv[64];\n\t.param .align 8 .b8 pv[64];\n";
  for (int i = 0; i < sharedVars; ++i) s += "\t.shared .align 8 .b8 sm" + std::to_string(i) + "[64];\n";
  s += "\tld.param.u64 %d7, [k_p];\n\tld.param.u64 %d6, [k_t];\n";
  s += "\tsetp.ne.u64 %p2, %d7, 0;\n";
  return s + body + "\tret;\n}\n";
}

}  // namespace

TEST_CASE("the instruction table is well formed") {
  auto problems = formTableProblems();
  for (auto& p : problems) INFO(p);
  CHECK(problems.empty());
  // every opcode with a handler has forms, and `ptx2glsl ops` lists them
  CHECK(describeForms("cvt").find("cvt") != std::string::npos);
  CHECK(describeForms("nope").empty());
}

TEST_CASE("every form the table declares translates") {
  size_t lines = 0, instrs = 0;
  for (auto& l : formLines()) {
    if (!l.handler) continue;
    std::vector<Variant> vs = variants(l);
    std::string body;
    for (size_t i = 0; i < vs.size(); ++i) body += instruction(l, vs[i], int(i));
    std::string text = kernel(body, int(vs.size()));
    Translated t = translate(text);
    INFO("line: ", l.op, " ", l.mods, "   ", l.operands, "\n", t.diags, "\n", body);
    CHECK(t.ok);
    ++lines;
    instrs += vs.size();
  }
  MESSAGE(lines << " table lines, " << instrs << " instructions translated");
  CHECK(lines > 150);
}

TEST_CASE("forms the table leaves out are refused at the modifier or operand that is not implemented") {
  struct Probe {
    std::string instr, message;
  };
  const Probe probes[] = {
      {"\tcvt.pack.sat.u8.s32.b32 %r1, %r2, %r3;\n", "3 operands, the implemented form takes 4"},
      {"\tld.shared::cta.u32 %r1, [sm0];\n", "unsupported modifier '.shared::cta' of 'ld'"},
      {"\tatom.global.acquire.gpu.add.u32 %r1, [%d7], 1;\n", "unsupported modifier '.acquire' of 'atom'"},
      {"\tmad.lo.sat.s32 %r1, %r2, %r3, %r4;\n", "unsupported modifier combination 'mad.lo.sat.s32'"},
      {"\tmad.hi.cc.s16 %h1, %h2, %h3, %h4;\n", "unsupported modifier combination 'mad.hi.cc.s16'"},
      {"\tadd.ftz.f64 %fd1, %fd2, %fd3;\n", "unsupported modifier combination 'add.ftz.f64'"},
      {"\tmin.abs.f32 %f1, %f2, %f3;\n", "unsupported modifier combination 'min.abs.f32'"},
      {"\tmul.wide.u64 %d1, %d2, %d3;\n", "unsupported modifier combination 'mul.wide.u64'"},
      {"\tcvta.shared.u32 %r1, %r2;\n", "'cvta.shared.u32' lacks a modifier: one of .to"},
      {"\tsetp.lt.b32 %p1, %r1, %r2;\n", "unsupported modifier combination 'setp.lt.b32'"},
      {"\tadd.f32 %f1, %f2;\n", "unsupported operand form of 'add.f32': 2 operands, the implemented form takes 3"},
      {"\tselp.b32 %r1, %r2, %r3, %r4;\n", "operand 4 of 'selp.b32' must be a predicate register, not '%r4' (.b32)"},
  };
  for (auto& p : probes) {
    Translated t = translate(kernel(p.instr, 1));
    INFO(p.instr, t.diags);
    CHECK_FALSE(t.ok);
    CHECK(t.diags.find(p.message) != std::string::npos);
  }
}

struct Probe2 {
  const char* instr;
  const char* message;
};

TEST_CASE("vector registers, video selectors and WARP_SZ resolve as operands") {
  // each snippet must translate (GLSL through glslang and spirv-val)
  const char* valid[] = {
      // .v2/.v4, members as sources and destinations, a vector as a ld/st operand and as mov's packing source
      "\t{ .reg .v4 .u32 v; .reg .v2 .u32 h;\n\tld.global.v4.u32 v, [%d7];\n\tmov.v2.u32 h, {v.w, v.r};\n"
      "\tadd.u32 h.y, v.y, h.g;\n\tst.global.v2.u32 [%d7], h;\n\tmov.b64 %d1, h;\n\t}\n",
      // ranges of vector registers, and a vector of an inner scope shadowing a scalar
      "\t{ .reg .v2 .f32 %vf<3>;\n\tmov.v2.f32 %vf2, {%f1, %f2};\n\tadd.f32 %f3, %vf2.x, %vf2.g;\n\t}\n",
      "\t{ .reg .v2 .b32 %r1;\n\tmov.v2.b32 %r1, {%r2, %r3};\n\tst.global.v2.b32 [%d7], %r1;\n\t}\n\tmov.u32 %r1, 1;\n",
      // WARP_SZ as an immediate; video selectors on sources and a merge destination
      "\tmov.u32 %r1, WARP_SZ;\n\tdiv.u32 %r2, %r3, WARP_SZ;\n",
      "\tvadd.s32.u32.s32.sat %r1, %r2.b3, %r3.h1;\n\tvmax.u32.u32.u32 %r1.b2, %r2.h0, %r3, %r4;\n",
  };
  for (auto* v : valid) {
    Translated t = translate(kernel(v, 1));
    INFO(v, t.diags);
    CHECK(t.ok);
  }
  const Probe2 refused[] = {
      {"\t{ .reg .v4 .u32 v;\n\tmov.u32 %r1, v.q;\n\t}\n", "vector register 'v' (.v4) has no member '.q'"},
      {"\t{ .reg .v8 .b16 v;\n\t}\n", "vector registers are .v2 or .v4"},
      {"\tadd.u32 %r1, %r2.b0, 1;\n", "unknown name '%r2.b0'"},  // selectors belong to the video instructions
  };
  for (auto& p : refused) {
    Translated t = translate(kernel(p.instr, 1));
    INFO(p.instr, t.diags);
    CHECK_FALSE(t.ok);
    CHECK(t.diags.find(p.message) != std::string::npos);
  }
}

TEST_CASE("an f16 fma keeps the f16 variant's barrier where its result reaches another f16 fma's addend") {
  // Emitter::halfFmaAddend: p2g_hfma / p2g_hfma2 (the result xor P2G_OPAQUE0) where the destination reaches an
  // f16 fma's addend, directly or through mov (vector packs and unpacks included) and selp; p2g_hfma_end /
  // p2g_hfma2_end elsewhere. Each snippet's first fma, `first`(h2, h3, h4), writes %h1.
  struct Case {
    const char* body;
    const char* first;
  };
  const Case cases[] = {
      {"\tfma.rn.f16 %h1, %h2, %h3, %h4;\n\tfma.rn.f16 %h5, %h2, %h3, %h1;\n", "p2g_hfma("},
      {"\tfma.rn.f16 %h1, %h2, %h3, %h4;\n\tmov.b16 %h6, %h1;\n\tfma.rn.f16 %h5, %h2, %h3, %h6;\n", "p2g_hfma("},
      {"\tfma.rn.f16 %h1, %h2, %h3, %h4;\n\tmov.b32 %r1, {%h1, %h2};\n\tfma.rn.f16x2 %r2, %r3, %r4, %r1;\n",
       "p2g_hfma("},
      {"\tfma.rn.f16 %h1, %h2, %h3, %h4;\n\tselp.b16 %h6, %h1, %h2, %p2;\n\tfma.rn.f16 %h5, %h2, %h3, %h6;\n",
       "p2g_hfma("},
      // the result only as a multiplicand, or only stored: no barrier
      {"\tfma.rn.f16 %h1, %h2, %h3, %h4;\n\tfma.rn.f16 %h5, %h1, %h3, %h2;\n", "p2g_hfma_end("},
      {"\tfma.rn.f16 %h1, %h2, %h3, %h4;\n", "p2g_hfma_end("},
  };
  for (const Case& c : cases) {
    std::string text = kernel(std::string("\tld.global.b16 %h2, [%d7];\n\tld.global.b16 %h3, [%d7+2];\n"
                                          "\tld.global.b16 %h4, [%d7+4];\n\tld.global.b32 %r3, [%d7+8];\n"
                                          "\tld.global.b32 %r4, [%d7+12];\n") +
                                  c.body + "\tst.global.b16 [%d7+16], %h5;\n\tst.global.b32 [%d7+20], %r2;\n"
                                  "\tst.global.b16 [%d7+24], %h1;\n",  // a second use: %h1 gets a variable
                              0);
    ptx::SourceManager sm;
    int buf = sm.add("probe.ptx", text);
    ptx::DiagEngine diags(sm);
    std::vector<EntryResult> res;
    TranslateOptions opt;
    opt.spirv = false;
    INFO(c.body, diags.formatAll());
    REQUIRE(translateBuffer(sm, buf, opt, diags, res));
    REQUIRE(res.size() == 1);
    const std::string& g = res[0].glsl;
    size_t body = g.find("void main()");
    REQUIRE(body != std::string::npos);
    INFO(g.substr(body));
    CHECK(g.find(std::string(c.first) + "h2, h3, h4)", body) != std::string::npos);
  }
}
